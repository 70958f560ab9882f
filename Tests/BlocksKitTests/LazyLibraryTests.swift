import Foundation
import Testing
@testable import BlocksKit

/// libcurl, libarchive and libcrypto are opened with dlopen on first use instead of being
/// linked, so that commands which need none of them start without mapping them. These
/// tests check the loader itself, that the real binary really leaves them unloaded, that
/// a missing library gives one clear error, and that SHA-256's Swift fallback agrees with
/// libcrypto.
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
        #expect(SHA256.libraryLoads(fromCandidates: ["libdoesnotexist.so", "libc.so.6", "libcrypto.so.3"]))
    }
    #endif

    @Test func theInstalledLibrariesLoad() {
        #expect(CurlTransport.isLibraryAvailable)
        #expect(LibArchive.isLibraryAvailable)
        #expect(SHA256.isLibraryAvailable)
    }

    // MARK: SHA-256 without libcrypto

    @Test func portableSHA256MatchesTheStandardsVectors() {
        func portable(_ text: String) -> String {
            let digest = SHA256.Digest(engine: .swift)
            Data(text.utf8).withUnsafeBytes { digest.update($0) }
            return digest.finish()
        }
        #expect(portable("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(portable("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            portable("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            portable(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length around the 64-byte block and 56-byte padding edges, fed in uneven
    /// pieces, gives libcrypto's digest.
    @Test func portableSHA256AgreesWithLibcryptoAtEveryLengthAndSplit() {
        var generator = SplitMix(seed: 0x5eed)
        for length in 0..<300 {
            let bytes = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let reference = SHA256.Digest(engine: .libcrypto)
            let portable = SHA256.Digest(engine: .swift)
            bytes.withUnsafeBytes { reference.update($0) }
            var offset = 0
            while offset < length {
                let piece = min(length - offset, Int(generator.next() % 130) + 1)
                bytes[offset..<offset + piece].withUnsafeBytes { portable.update($0) }
                offset += piece
            }
            #expect(reference.usesLibcrypto && !portable.usesLibcrypto)
            let expected = reference.finish()
            let actual = portable.finish()
            #expect(actual == expected, "length \(length)")
            if actual != expected { return }
        }
    }

    /// Small inputs stay in Swift; a larger one hands what it held to libcrypto and
    /// still gives the same digest as either engine alone.
    @Test func theEngineIsChosenBySizeWithoutChangingTheDigest() {
        var generator = SplitMix(seed: 42)
        let threshold = SHA256.Digest.libcryptoThreshold
        for length in [0, 1, 1000, threshold, threshold + 1, 3 * threshold + 17] {
            let bytes = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let bySize = SHA256.Digest()
            var offset = 0
            while offset < length {
                let piece = min(length - offset, 40_000)
                bytes[offset..<offset + piece].withUnsafeBytes { bySize.update($0) }
                offset += piece
            }
            let digest = bySize.finish()
            #expect(bySize.usesLibcrypto == (length > threshold), "length \(length)")
            let swift = SHA256.Digest(engine: .swift)
            bytes.withUnsafeBytes { swift.update($0) }
            #expect(digest == swift.finish(), "length \(length)")
            #expect(digest == SHA256.hex(bytes), "length \(length)")
        }
    }

    // MARK: The real binary

    #if os(Linux)
    /// Commands that need no network, no archive and no large hash map none of the three
    /// libraries.
    /// The dynamic loader's own log (LD_DEBUG=files) names every object it opens.
    @Test func commandsThatNeedNoneOfTheLibrariesLoadNone() throws {
        let folder = try TemporaryFolder("lazy")
        defer { folder.cleanUp() }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "LD_DEBUG": "files"]
        // `add` and `status` hash a few small files, which Swift does without libcrypto.
        let commands = [
            ["--version"], ["search", "tabs"], ["list"], ["info", "scrolling-strip"],
            ["add", "scrolling-strip", "--yes"], ["status"],
        ]
        for arguments in commands {
            let result = try runBinary(arguments, in: folder.url, environment: environment)
            #expect(result.code == 0, "\(arguments)")
            #expect(result.err.contains("file=libc.so.6"), "no loader log for \(arguments)")
            let loaded = ["libcurl", "libarchive", "libcrypto"].filter { result.err.contains($0) }
            #expect(loaded.isEmpty, "\(arguments) loaded \(loaded)")
        }
        // The control: writing an archive does load libarchive, and the log shows it.
        let export = try runBinary(
            ["export", "scrolling-strip", "-o", folder.path("out.tar.gz").path], in: folder.url,
            environment: environment)
        #expect(export.code == 0)
        #expect(export.err.contains("libarchive.so") && !export.err.contains("libcurl"))
    }

    /// With the three libraries made unreadable in a private mount namespace, commands that
    /// need none of them still work (and `add` hashes with the Swift fallback, writing the
    /// very same lockfile), while commands that need one fail with one clear message.
    @Test(.enabled(if: PrivateMounts.available)) func missingLibrariesGiveOneClearErrorAndNoCrash() throws {
        let folder = try TemporaryFolder("lazy-missing")
        defer { folder.cleanUp() }
        let hidden = try PrivateMounts.loadedLibraryFiles(["libcurl.so", "libarchive.so", "libcrypto.so"])
        try #require(hidden.count == 3, "found only \(hidden)")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "BLOCKS_REGISTRY": ""]
        func runHidden(_ arguments: [String], in directory: URL) throws -> (code: Int32, out: String, err: String) {
            try PrivateMounts.run(
                blocksBinary, arguments, in: directory, hiding: hidden, environment: environment, scratch: folder)
        }

        let search = try runHidden(["search", "tabs"], in: folder.url)
        #expect(search.code == 0)
        #expect(search.out.contains("scrolling-strip"))
        #expect(search.err.isEmpty)

        for name in ["normal", "hidden"] {
            try FileManager.default.createDirectory(at: folder.path(name), withIntermediateDirectories: true)
        }
        let normalAdd = try runBinary(["add", "scrolling-strip", "--yes"], in: folder.path("normal"), environment: environment)
        let hiddenAdd = try runHidden(["add", "scrolling-strip", "--yes"], in: folder.path("hidden"))
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
    }
    #endif
}

/// A small deterministic generator, so a failing length can be reproduced.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

#if os(Linux)
/// Runs a process in its own mount namespace with some files replaced by an empty one,
/// which is how a missing library is made without uninstalling it. Needs root (or
/// CAP_SYS_ADMIN) and util-linux's `unshare`; tests that use it are skipped otherwise.
private enum PrivateMounts {
    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", "mount -t tmpfs none /mnt"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The real files of the named libraries, as this process mapped them.
    static func loadedLibraryFiles(_ prefixes: [String]) throws -> [String] {
        // Make sure all three are loaded here, so that their files show in the map.
        _ = CurlTransport.isLibraryAvailable && LibArchive.isLibraryAvailable && SHA256.isLibraryAvailable
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
        let script = (mounts + [
            "cd \(quote(directory.path)) || exit 98",
            "exec \(command) </dev/null >\(quote(output.path)) 2>\(quote(errors.path))",
        ]).joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", script]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let code = process.terminationStatus
        #expect(code != 97 && code != 98, "could not hide the libraries")
        let out = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (code, out, err)
    }
}
#endif
