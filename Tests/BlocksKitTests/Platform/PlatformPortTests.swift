import Foundation
import Testing

@testable import BlocksKit

/// The parts of the macOS port (issue 22) that can be checked on any system: the platform
/// values the library chose work here, and, on Linux, the Darwin branches of the C shims
/// compile, with the libarchive declarations written for macOS checked against the real
/// libarchive headers by a C compiler.
@Suite struct PlatformPortTests {
    /// The environment block the CLI reads (`environ`, `_NSGetEnviron()` on Darwin) is the
    /// process's own.
    @Test func theEnvironmentBlockIsTheProcesssEnvironment() {
        let read = BlocksCLI.processEnvironment()
        #expect(!read.isEmpty)
        #expect(read["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        #expect(read == ProcessInfo.processInfo.environment)
    }

    /// The UTF-8 locale named for this system exists here, so archive work really runs in
    /// UTF-8 (a name the system lacks would silently leave it in "C").
    @Test func theUTF8LocaleNameExistsOnThisSystem() throws {
        let locale = try #require(newlocale(LC_CTYPE_MASK, UTF8Locale.characterTypeName, nil))
        freelocale(locale)
        // The control: a name no system has is refused, so the check can fail.
        #expect(newlocale(LC_CTYPE_MASK, "xx_NOWHERE.UTF-8", nil) == nil)
    }

    /// The system's SHA-256 is used through `SHA256Function` and agrees with the standard.
    @Test func theSystemSHA256GivesTheStandardDigest() {
        #expect(SystemSHA256.isAvailable)
        let function = SystemSHA256()
        Data("abc".utf8).withUnsafeBytes { function.update($0) }
        let digest = function.finish()
        #expect(digest.count == 32)
        #expect(digest.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
    }

    /// Runs the C compiler, `-fsyntax-only`, on one file; returns its status and messages.
    static func compile(_ file: URL, _ flags: [String]) throws -> (code: Int32, out: String, err: String) {
        try runTool(cCompiler, ["-std=c11", "-fsyntax-only"] + flags + [file.path])
    }

    /// clang (the Swift toolchain's, on PATH when tests run) or else the system's cc.
    static let cCompiler: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let hasClang = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/clang") }
        return hasClang ? "clang" : "cc"
    }()

    static let shims = repositoryRoot.appendingPathComponent("Sources")

    /// darwin_archive.h, then the real archive.h and archive_entry.h, with warnings as
    /// errors: a prototype, typedef or constant of ours that differs from libarchive's is a
    /// conflicting declaration or a redefined macro, and fails.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/include/archive.h"), "needs libarchive-dev's headers"))
    func theDarwinLibarchiveDeclarationsMatchTheRealHeaders() throws {
        let folder = try TemporaryFolder("darwin-archive")
        defer { folder.cleanUp() }
        let ours = Self.shims.appendingPathComponent("BlocksArchive/darwin_archive.h")
        func check(_ declarations: URL) throws -> (code: Int32, out: String, err: String) {
            try folder.write(
                "check.c",
                """
                #include "\(declarations.path)"
                #include <archive.h>
                #include <archive_entry.h>
                _Static_assert(AE_IFREG == 0100000 && AE_IFDIR == 0040000 && AE_IFLNK == 0120000, "file types");

                """)
            return try Self.compile(folder.path("check.c"), ["-Wall", "-Wextra", "-Werror"])
        }
        let real = try check(ours)
        #expect(real.code == 0, "\(real.err)")

        // The control: one wrong return type in a copy of our declarations is caught.
        let text = try String(contentsOf: ours, encoding: .utf8)
        let wrong = text.replacingOccurrences(
            of: "la_ssize_t archive_write_data(struct archive *, const void *, size_t);",
            with: "int archive_write_data(struct archive *, const void *, size_t);")
        #expect(wrong != text)
        try folder.write("wrong.h", wrong)
        let caught = try check(folder.path("wrong.h"))
        #expect(caught.code != 0)
        #expect(caught.err.contains("archive_write_data"), "\(caught.err)")
    }

    /// Every shim compiles as macOS would see it (`__APPLE__` defined; the system headers
    /// are still this machine's): the archive shim from our declarations alone, with its
    /// archive_write_open fallback, and the crypto shim empty.
    /// On macOS the package build itself compiles the Darwin branches, and the compiler
    /// defines `__APPLE__` whatever the flags, so this runs on Linux.
    @Test(
        .enabled(if: HostTools.isLinux, "on macOS the package build compiles the Darwin branches itself"),
        arguments: ["BlocksArchive", "BlocksCurl", "BlocksSQLite", "BlocksCrypto", "BlocksZlib"])
    func eachShimCompilesWithItsDarwinBranch(_ module: String) throws {
        let shim = Self.shims.appendingPathComponent("\(module)/shim.h")
        let flags = ["-x", "c", "-Wall", "-Werror", "-Wno-unused-function", "-Wno-unused-const-variable"]
        let apple = try Self.compile(shim, flags + ["-D__APPLE__"])
        #expect(apple.code == 0, "\(module): \(apple.err)")
        let linux = try Self.compile(shim, flags)
        #expect(linux.code == 0, "\(module): \(linux.err)")
        if module == "BlocksArchive" {
            // Under __APPLE__ the real header must not be read at all: a poisoned include
            // path holding a broken archive.h proves it.
            let folder = try TemporaryFolder("poisoned")
            defer { folder.cleanUp() }
            try folder.write("archive.h", "#error the real archive.h was included\n")
            try folder.write("archive_entry.h", "#error the real archive_entry.h was included\n")
            let poisoned = try Self.compile(shim, flags + ["-D__APPLE__", "-I", folder.url.path])
            #expect(poisoned.code == 0, "\(poisoned.err)")
            let control = try Self.compile(shim, flags + ["-I", folder.url.path])
            #expect(control.code != 0)
        }
    }
}
