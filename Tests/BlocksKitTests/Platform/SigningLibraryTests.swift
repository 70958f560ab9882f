import Foundation
import Testing

@testable import BlocksKit

/// libhogweed (Ed25519) is the crypto shim's second lazily opened library: its load table
/// is defined once, only signing commands and pinned registries map it, and the
/// prototypes the shim declares without nettle-dev are the real header's.
@Suite struct SigningLibraryTests {
    #if os(Linux)
    @Test func theSigningLoadTableIsDefinedOnce() throws {
        let symbols = try runProcess(URL(fileURLWithPath: "/usr/bin/nm"), [blocksBinary.path]).out
        for name in ["blocks_signing_shared_table", "blocks_signing_shared_once"] {
            let lines = symbols.split(separator: "\n").filter { $0.hasSuffix(" " + name) }
            #expect(lines.count == 1 && lines[0].contains(" V "), "\(name): \(lines)")
        }
    }

    /// The dynamic loader's log (LD_DEBUG=files) names every object a command opens.
    @Test func onlySigningMapsLibhogweed() throws {
        let folder = try TemporaryFolder("lazy-signing")
        defer { folder.cleanUp() }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "LD_DEBUG": "files"]
        // --path: an empty folder is no project since issue 35, and add asks for it there.
        for arguments in [["add", "scrolling-strip", "--yes", "--path", "Blocks"], ["status"], ["search", "tabs"]] {
            let result = try runBinary(arguments, in: folder.url, environment: environment)
            #expect(result.code == 0, "\(arguments): \(result.err.suffix(300))")
            #expect(!result.err.contains("libhogweed"), "\(arguments) loaded libhogweed")
        }
        let keygen = try runBinary(["keygen", "--out", folder.path("keys").path], in: folder.url, environment: environment)
        #expect(keygen.code == 0)
        #expect(keygen.err.contains("libhogweed.so"), "keygen did not load libhogweed")
    }
    #endif

    /// The fallback prototypes of shim.h, then the real <nettle/eddsa.h>: any difference is
    /// a conflicting declaration, an error. The control changes one and is caught.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/include/nettle/eddsa.h"), "needs nettle-dev's headers"))
    func theFallbackPrototypesMatchTheRealHeader() throws {
        let shim = try String(contentsOf: PlatformPortTests.shims.appendingPathComponent("BlocksCrypto/shim.h"), encoding: .utf8)
        let start = try #require(shim.range(of: "#if __has_include(<nettle/eddsa.h>)"))
        let block = shim[start.upperBound...]
        let fallback = try #require(block.range(of: "#else")).upperBound
        let end = try #require(block.range(of: "#endif")).lowerBound
        let prototypes = String(block[fallback..<end])
        #expect(prototypes.contains("nettle_ed25519_sha512_verify"))
        let folder = try TemporaryFolder("eddsa-prototypes")
        defer { folder.cleanUp() }
        func check(_ declarations: String) throws -> (code: Int32, out: String, err: String) {
            try folder.write("check.c", "#include <stddef.h>\n#include <stdint.h>\n\(declarations)\n#include <nettle/eddsa.h>\n")
            return try PlatformPortTests.compile(folder.path("check.c"), ["-Wall", "-Werror"])
        }
        let real = try check(prototypes)
        #expect(real.code == 0, "\(real.err)")
        let wrong = try check(prototypes.replacingOccurrences(of: "int nettle_ed25519_sha512_verify", with: "long nettle_ed25519_sha512_verify"))
        #expect(wrong.code != 0)
    }
}
