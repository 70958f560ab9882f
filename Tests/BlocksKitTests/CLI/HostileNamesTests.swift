import Foundation
import Testing

@testable import BlocksKit

/// Issue 32 (6) and three of its smaller items: plugin file names from PATH reach the
/// terminal escaped; JSON nested past the reader's limit says so; the missing-signature
/// error names where the key was pinned; invalid UTF-8 in an MCP message is a parse error.
@Suite struct HostileNamesTests {
    /// `ESC ] 0 ; pwned BEL` retitles the terminal window; `ESC [ 2 J` clears it.
    static let hostileName = "blocks-x\u{1B}]0;pwned\u{07}\u{1B}[2J"

    /// A temporary PATH folder holding a real executable whose name holds ESC sequences.
    static func hostilePath(_ folder: TemporaryFolder) throws -> [String: String] {
        try folder.write("bin/" + hostileName, "#!/bin/sh\necho ran\n")
        chmod(folder.path("bin/" + hostileName).path, 0o755)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder.path("bin").path + ":/usr/bin:/bin"
        environment["NO_COLOR"] = "1"
        return environment
    }

    static func hasRawESC(_ text: String) -> Bool { text.utf8.contains(0x1B) || text.utf8.contains(0x07) }

    @Test func pluginNamesFromPathArePrintedEscaped() throws {
        let folder = try TemporaryFolder("hostile-plugin")
        defer { folder.cleanUp() }
        let environment = try Self.hostilePath(folder)
        let help = try runBinary(["--help"], environment: environment)
        #expect(help.code == 0)
        #expect(!Self.hasRawESC(help.out) && !Self.hasRawESC(help.err), "\(help.out.debugDescription)")
        #expect(help.out.contains(#"x\u{1B}]0;pwned\u{7}\u{1B}[2J"#), "\(help.out)")
        // The did-you-mean of an unknown command suggests it escaped too.
        let unknown = try runBinary([#"x]0;pwned"#], environment: environment)
        #expect(unknown.code == 64)
        #expect(!Self.hasRawESC(unknown.out) && !Self.hasRawESC(unknown.err), "\(unknown.err.debugDescription)")
    }

    @Test func deepJSONSaysItIsNestedTooDeeply() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let folder = try TemporaryFolder("deep-json")
        defer { folder.cleanUp() }
        let depth = "nested deeper than \(JSONReader.maximumDepth) levels"

        // lint, on a manifest.
        try writeBlock(in: folder, name: "deep", manifest: #"{"name": "deep", "api": "# + deep + "}")
        let lint = try CatalogLinter(root: folder.path("Catalog"), swiftCompiler: nil).run().problems.map(\.description)
        #expect(lint.contains { $0.hasPrefix("Catalog/deep/block.json: JSON \(depth) (at byte ") }, "\(lint)")
        #expect(!lint.contains { $0.contains("not valid JSON") }, "\(lint)")

        // A registry's index, read whole and by the mirror.
        let index = Data((#"{"schemaVersion": 1, "blocks": [], "x": "# + deep + "}").utf8)
        #expect(throws: RegistryError.invalidIndex(location: "r", reason: "JSON \(depth)")) { try RegistryIndex.decode(index, location: "r") }
        #expect(throws: RegistryError.invalidIndex(location: "r", reason: "JSON \(depth)")) { try MirrorIndexReader.scan(index, location: "r") }
        let entries = Data((#"{"schemaVersion": 1, "blocks": ["# + deep + "]}").utf8)
        #expect(throws: RegistryError.invalidIndex(location: "r", reason: "JSON \(depth)")) { try RegistryIndex.decode(entries, location: "r") }

        // A project's blocks.json.
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.json", #"{"path": "# + deep + "}")
        let status = project.run(["add", "scrolling-strip", "--dry-run"])
        #expect(status.code == 1)
        #expect(status.errors.contains("JSON \(depth)") && !status.errors.contains("not valid JSON"), "\(status.errors)")
    }

    /// An unsigned registry, built by the real binary into a folder, read with a key
    /// pinned by `--key` and then by blocks.json: the error says which.
    @Test func theMissingSignatureErrorSaysWhereTheKeyWasPinned() throws {
        let folder = try TemporaryFolder("key-origin")
        defer { folder.cleanUp() }
        let keygen = try runBinary(["keygen", "--out", folder.path("keys").path])
        #expect(keygen.code == 0, "\(keygen.err)")
        let publicKey = try String(contentsOf: folder.path("keys/blocks.pub"), encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
        let catalog = try TestCatalog.make([TestCatalog.Block.standard("strip", type: "Strip")])
        defer { catalog.delete() }
        let registry = folder.path("registry").path
        let built = try runBinary(["build", "--catalog", catalog.root.path, "--out", registry])
        #expect(built.code == 0, "\(built.err)")
        let project = try TestProject.make()
        defer { project.delete() }
        let cache = ["XDG_CACHE_HOME": folder.path("cache").path]

        let byOption = try project.runBinary(["list", "--registry", registry, "--key", publicKey], environment: cache)
        #expect(byOption.code == 1)
        #expect(byOption.errors.contains("is not signed (no index.json.minisig), but --key asks for a signed one"), "\(byOption.errors)")
        #expect(!byOption.errors.contains("blocks.json"), "\(byOption.errors)")

        try project.write("blocks.json", "{ \"registry\": \"\(registry)\", \"keys\": [\"\(publicKey)\"] }\n")
        let byConfig = try project.runBinary(["list"], environment: cache)
        #expect(byConfig.code == 1)
        #expect(byConfig.errors.contains("but blocks.json pins a key for it (keys)"), "\(byConfig.errors)")
    }

    /// The real `blocks mcp`, fed raw bytes on its standard input.
    static func mcp(_ input: Data) throws -> (out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["BLOCKS_REGISTRY"] = nil
        let result = try runProcess(try TestProject.binary(), ["mcp"], environment: environment, input: input)
        return (result.out, result.err)
    }

    /// Bytes that are not UTF-8 inside a string of a message: a parse error, never a
    /// string holding U+FFFD. The real binary, since the in-process server reads lines
    /// another way.
    @Test func invalidUTF8InAnMCPStringIsAParseError() throws {
        for bytes: [UInt8] in [[0xFF, 0xFE], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            let line = Data(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"x"#.utf8) + Data(bytes) + Data("y\"}}\n".utf8)
            let answer = try Self.mcp(line + Data(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8) + Data([0x0A]))
            let messages = try answer.out.split(separator: "\n").map { try JSONReader.parse(Data($0.utf8)) }
            #expect(messages.count == 2, "\(bytes): \(answer.out)")
            #expect(messages.first?["error"]?["code"] == .int(JSONRPCError.parseErrorCode), "\(bytes): \(answer.out)")
            #expect(messages.first?["error"]?["message"]?.string?.contains("not UTF-8") == true, "\(bytes): \(answer.out)")
            #expect(messages.first?["id"] == nil && messages.last?["id"] == .int(2), "the server goes on: \(answer.out)")
        }
        // The JSON-RPC layer itself, in-process.
        let line = Data(#"{"jsonrpc":"2.0","id":1,"method":"pi"#.utf8) + Data([0xFF]) + Data(#"ng"}"#.utf8)
        guard case .invalid(nil, let error) = JSONRPCMessage.parse(line) else {
            Issue.record("read as a message")
            return
        }
        #expect(error.code == JSONRPCError.parseErrorCode)
    }
}
