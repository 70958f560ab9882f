import Foundation
import Testing

@testable import BlocksKit

/// libcurl, libarchive, libnettle and libsqlite3 are opened with dlopen on first use
/// instead of being linked, so that commands which need none of them start without
/// mapping them. These tests check the loader itself, that the real binary really leaves
/// them unloaded, that a missing library gives one clear error, and that SHA-256 gives
/// the standard's test vectors.
@Suite struct LazyLibraryTests {
    // MARK: The loader

    @Test func aMissingLibraryIsReportedUnavailable() {
        let bogus = ["libdoesnotexist.so", "libdoesnotexist.dylib"]
        #expect(!CurlTransport.libraryLoads(fromCandidates: bogus))
        #expect(!LibArchive.libraryLoads(fromCandidates: bogus))
        #expect(!SHA256.libraryLoads(fromCandidates: bogus))
        #expect(!CurlTransport.libraryLoads(fromCandidates: []))
    }

    #if os(Linux)
    /// libc opens fine but has none of the functions, so it must be refused, and the
    /// loader must go on to the next candidate.
    @Test func aLibraryWithoutTheFunctionsIsRefusedAndTheNextCandidateTried() {
        #expect(!CurlTransport.libraryLoads(fromCandidates: ["libc.so.6"]))
        #expect(!LibArchive.libraryLoads(fromCandidates: ["libc.so.6"]))
        #expect(!SHA256.libraryLoads(fromCandidates: ["libc.so.6"]))
        #expect(CurlTransport.libraryLoads(fromCandidates: ["libdoesnotexist.so", "libc.so.6", "libcurl.so.4"]))
        #expect(LibArchive.libraryLoads(fromCandidates: ["libdoesnotexist.so", "libc.so.6", "libarchive.so.13"]))
        #expect(SHA256.libraryLoads(fromCandidates: ["libdoesnotexist.so", "libc.so.6", "libnettle.so.8"]))
    }
    #endif

    @Test func theInstalledLibrariesLoad() {
        #expect(CurlTransport.isLibraryAvailable)
        #expect(LibArchive.isLibraryAvailable)
        #expect(SHA256.isLibraryAvailable)
        #expect(Zlib.isLibraryAvailable)
    }

    // MARK: SHA-256

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Fed in uneven pieces, the digest is the same as in one go.
        let digest = SHA256.Digest()
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        var offset = 0
        for size in [1, 63, 64, 65, 4_096, 995_711] {
            million[offset..<(offset + size)].withUnsafeBytes { digest.update($0) }
            offset += size
        }
        #expect(offset == million.count)
        #expect(digest.finish() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // MARK: The real binary

    #if os(Linux)
    /// Each library's table and once-flag are weak globals so that every object file
    /// shares one load. A weak global that is only declared would resolve to address 0
    /// and crash the first load, so each must be defined in the binary ('V' in nm).
    @Test func eachLibraryHasOneDefinedLoadTable() throws {
        let symbols = try runProcess(URL(fileURLWithPath: "/usr/bin/nm"), [blocksBinary.path]).out
        for library in ["curl", "archive", "zlib", "crypto", "sqlite"] {
            for name in ["blocks_\(library)_shared_table", "blocks_\(library)_shared_once"] {
                let lines = symbols.split(separator: "\n").filter { $0.hasSuffix(" " + name) }
                #expect(lines.count == 1 && lines[0].contains(" V "), "\(name): \(lines)")
            }
        }
    }

    /// Commands that need no network and no archive map neither libcurl nor libarchive, and
    /// commands that hash nothing do not map libnettle either.
    /// The dynamic loader's own log (LD_DEBUG=files) names every object it opens.
    @Test func commandsThatNeedNoneOfTheLibrariesLoadNone() throws {
        let folder = try TemporaryFolder("lazy")
        defer { folder.cleanUp() }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "LD_DEBUG": "files"]
        // `add` and `status` hash the files they write, so they load libnettle alone; only
        // a search of a catalog folder keeps an SQLite index, named by a hash.
        let catalog = repositoryRoot.appendingPathComponent("Catalog").path
        let commands: [([String], [String])] = [
            (["--version"], []), (["search", "tabs"], []), (["list"], []), (["info", "scrolling-strip"], []),
            // --path: an empty folder is no project since issue 35, and add asks for it there.
            (["add", "scrolling-strip", "--yes", "--path", "Blocks"], ["libnettle"]), (["status"], ["libnettle"]),
            (["--registry", catalog, "search", "tabs"], ["libnettle", "libsqlite3"]),
        ]
        for (arguments, expected) in commands {
            let result = try runBinary(arguments, in: folder.url, environment: environment)
            #expect(result.code == 0, "\(arguments)")
            #expect(result.err.contains("file=libc.so.6"), "no loader log for \(arguments)")
            let loaded = ["libcurl", "libarchive", "libnettle", "libsqlite3"].filter { result.err.contains($0) }
            #expect(loaded == expected, "\(arguments) loaded \(loaded)")
        }
        // The control: writing an archive does load libarchive, and the log shows it.
        let export = try runBinary(
            ["export", "scrolling-strip", "-o", folder.path("out.tar.gz").path], in: folder.url,
            environment: environment)
        #expect(export.code == 0)
        #expect(export.err.contains("libarchive.so") && !export.err.contains("libcurl"))
    }

    /// With the libraries made unreadable in a private mount namespace, commands that need
    /// none of them still work (`add` writes the very same lockfile without libcurl and
    /// libarchive), while commands that need one fail with one clear message.
    @Test(.enabled(if: PrivateMounts.available)) func missingLibrariesGiveOneClearErrorAndNoCrash() throws {
        let folder = try TemporaryFolder("lazy-missing")
        defer { folder.cleanUp() }
        let all = try PrivateMounts.loadedLibraryFiles(["libcurl.so", "libarchive.so", "libsqlite3.so", "libnettle.so"])
        try #require(all.count == 4, "found only \(all)")
        let hidden = Array(all.prefix(3))
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "BLOCKS_REGISTRY": ""]
        func runHidden(_ arguments: [String], in directory: URL) throws -> (code: Int32, out: String, err: String) {
            try PrivateMounts.run(
                blocksBinary, arguments, in: directory, hiding: hidden, environment: environment, scratch: folder)
        }

        let search = try runHidden(["search", "tabs"], in: folder.url)
        #expect(search.code == 0)
        #expect(search.out.contains("scrolling-strip"))
        #expect(search.err.isEmpty)

        // Without SQLite a catalog folder is still searched, by reading every manifest.
        let catalog = repositoryRoot.appendingPathComponent("Catalog").path
        let folderSearch = try runHidden(["--registry", catalog, "search", "tabs"], in: folder.url)
        let normalFolderSearch = try runBinary(["--registry", catalog, "search", "tabs"], in: folder.url, environment: environment)
        #expect(folderSearch.code == 0, "\(folderSearch.err)")
        #expect(folderSearch.err == "note: searched without an index (libsqlite3 is not installed)\n", "\(folderSearch.err)")
        #expect(folderSearch.out == normalFolderSearch.out && folderSearch.out.contains("scrolling-strip"))

        for name in ["normal", "hidden"] {
            try FileManager.default.createDirectory(at: folder.path(name), withIntermediateDirectories: true)
        }
        // --path: these folders are no project since issue 35, and add asks for it there.
        let normalAdd = try runBinary(["add", "scrolling-strip", "--yes", "--path", "Blocks"], in: folder.path("normal"), environment: environment)
        let hiddenAdd = try runHidden(["add", "scrolling-strip", "--yes", "--path", "Blocks"], in: folder.path("hidden"))
        #expect(normalAdd.code == 0 && hiddenAdd.code == 0, "\(hiddenAdd.err)")
        let lockfile = folder.read("normal/blocks.lock")
        #expect(lockfile?.contains("\"sha256\"") == true)
        #expect(lockfile == folder.read("hidden/blocks.lock"))

        let remote = try runHidden(["--registry", "http://127.0.0.1:9/", "search", "tabs"], in: folder.url)
        #expect(remote.code == 1)
        #expect(remote.err.contains("libcurl (libcurl4) is not installed"), "\(remote.err)")
        #expect(remote.err.split(separator: "\n").count == 1)

        let archive = folder.path("out.tar.gz")
        let export = try runHidden(["export", "scrolling-strip", "-o", archive.path], in: folder.url)
        #expect(export.code == 1)
        #expect(export.err.contains("libarchive (libarchive13) is not installed"), "\(export.err)")
        #expect(export.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: archive.path))

        // Without libnettle, nothing can be checked: add says so once and writes nothing.
        try FileManager.default.createDirectory(at: folder.path("nocrypto"), withIntermediateDirectories: true)
        let noCrypto = try PrivateMounts.run(
            blocksBinary, ["add", "scrolling-strip", "--yes", "--path", "Blocks"], in: folder.path("nocrypto"), hiding: all,
            environment: environment, scratch: folder)
        #expect(noCrypto.code == 1)
        #expect(noCrypto.err.contains("libnettle (libnettle8) is not installed"), "\(noCrypto.err)")
        #expect(noCrypto.err.split(separator: "\n").count == 1)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path("nocrypto").path)) == [])
    }
    #endif
}

#if os(Linux)
/// Runs a process in its own mount namespace with some files replaced by an empty one,
/// which is how a missing library is made without uninstalling it. Needs root (or
/// CAP_SYS_ADMIN) and util-linux's `unshare`; tests that use it are skipped otherwise.
private enum PrivateMounts {
    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let mounted = try? runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/sh", "-c", "mount -t tmpfs none /mnt"])
        return mounted?.code == 0
    }()

    /// The real files of the named libraries, as this process mapped them.
    static func loadedLibraryFiles(_ prefixes: [String]) throws -> [String] {
        // Make sure all four are loaded here, so that their files show in the map.
        _ =
            CurlTransport.isLibraryAvailable && LibArchive.isLibraryAvailable && SHA256.isLibraryAvailable
            && SQLiteDatabase.isLibraryAvailable
        // /proc files report a size of 0, so read to the end rather than by size.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let paths = maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }
        return prefixes.compactMap { prefix in
            paths.first { ($0 as NSString).lastPathComponent.hasPrefix(prefix) }
        }
    }

    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, hiding files: [String],
        environment: [String: String], scratch: TemporaryFolder
    ) throws -> (code: Int32, out: String, err: String) {
        let empty = scratch.path("empty")
        let output = scratch.path("stdout")
        let errors = scratch.path("stderr")
        try Data().write(to: empty)
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let mounts = files.map { "mount --bind \(quote(empty.path)) \(quote($0)) || exit 97" }
        let command = ([quote(executable.path)] + arguments.map(quote)).joined(separator: " ")
        let script =
            (mounts + [
                "cd \(quote(directory.path)) || exit 98",
                "exec \(command) </dev/null >\(quote(output.path)) 2>\(quote(errors.path))",
            ]).joined(separator: "\n")
        let code = try runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/sh", "-c", script], environment: environment).code
        #expect(code != 97 && code != 98, "could not hide the libraries")
        let out = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (code, out, err)
    }
}
#endif
