import Foundation
import Testing

@testable import BlocksKit

/// Runs the real `blocks` binary as a user would, with stdin at /dev/null as in CI.
@Suite struct BinaryEndToEndTests {
    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
    }

    @Test func searchPipedHasNoEscapeCodes() throws {
        let result = try runBinary(["search", "tabs"], environment: environment)
        #expect(result.code == 0)
        #expect(result.out.contains("scrolling-strip"))
        #expect(!result.out.contains("\u{1B}["))
        #expect(result.err.isEmpty)
    }

    @Test func colorOnATerminalButNeverWithNoColor() {
        let colored = runBlocks(["list"], environment: ["TERM": "xterm"], terminal: true)
        #expect(colored.out.contains("\u{1B}["))
        let plain = runBlocks(["list"], environment: ["TERM": "xterm", "NO_COLOR": "1"], terminal: true)
        #expect(!plain.out.contains("\u{1B}[") && plain.out.contains("pager"))
        let flag = runBlocks(["list", "--no-color"], environment: ["TERM": "xterm"], terminal: true)
        #expect(!flag.out.contains("\u{1B}["))
    }

    @Test func unknownCommandExits64OnStderr() throws {
        let result = try runBinary(["lsit"], environment: environment)
        #expect(result.code == 64)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("did you mean 'list'?"))
    }

    /// FileManager's errors have no readable text without full Foundation, which the tool
    /// does not link: a file in the way must still give one plain line.
    @Test func aFileInTheWayGivesOnePlainLine() throws {
        let folder = try TemporaryFolder("in-the-way")
        defer { folder.cleanUp() }
        try folder.write("afile", "not a folder")
        let public_ = folder.path("public").path
        #expect(
            try runBinary(
                ["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", public_],
                in: folder.url, environment: environment
            ).code == 0)
        let mirror = try runBinary(["mirror", public_, folder.path("afile/mirror").path], in: folder.url, environment: environment)
        #expect(mirror.code == 1)
        #expect(mirror.err == "error: could not write \(folder.path("afile/mirror").path): Not a directory\n", "\(mirror.err)")
        #expect(!mirror.err.contains("CocoaError"))
    }

    @Test func infoOnAnUnknownNameSuggests() throws {
        let result = try runBinary(["info", "scroling-strip"], environment: environment)
        #expect(result.code == 1)
        #expect(result.err.contains("did you mean 'scrolling-strip'?"))
    }

    @Test func pluginOnPathRunsWithRegistryAndProjectRoot() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("bin/blocks-hello", "#!/bin/sh\necho \"hello $1 registry=$BLOCKS_REGISTRY root=$BLOCKS_PROJECT_ROOT\"\nexit 7\n")
        chmod(folder.path("bin/blocks-hello").path, 0o755)
        try folder.write("project/Package.swift", "// swift-tools-version:6.0\n")
        try FileManager.default.createDirectory(at: folder.path("project/Sources"), withIntermediateDirectories: true)
        var env = environment
        env["PATH"] = folder.path("bin").path + ":/usr/bin:/bin"
        let result = try runBinary(["--registry", "./x", "hello", "world"], in: folder.path("project/Sources"), environment: env)
        #expect(result.code == 7)
        #expect(result.out == "hello world registry=./x root=\(folder.path("project").path)\n")
        let help = try runBinary(["--help"], environment: env)
        #expect(help.out.contains("PLUGINS:") && help.out.contains("hello"))
    }

    @Test func jsonContractForSearchListAndInfo() throws {
        let search = try runBinary(["search", "pestanas", "--platform", "ios18", "--json"], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(search.out.utf8)) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        #expect(!results.isEmpty)
        for block in results {
            for key in ["name", "title", "version", "platforms", "level", "tags"] { #expect(block[key] != nil, "missing \(key)") }
        }
        #expect(!results.contains { $0["name"] as? String == "picker-pages" })  // iOS 27 only
        #expect(!results.contains { $0["name"] as? String == "search-tab-view" })  // iOS 26 only

        let list = try runBinary(["list", "--json"], environment: environment)
        let blocks = (try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])?["blocks"] as? [[String: Any]]
        #expect(blocks?.count == 9)

        let info = try runBinary(["info", "pager", "--json"], environment: environment)
        let pager = try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any]
        #expect(pager?["name"] as? String == "pager")
        #expect((pager?["api"] as? [Any])?.isEmpty == false)
    }

    @Test func aCopiedStandaloneBinaryWorksFromAnyFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let copy = folder.path("alone/blocks")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        // `cp` writes the copy in its own process. Copied here, the write descriptor of this
        // large file would be inherited by whatever another test thread forks meanwhile (a
        // server, a killed build), and Linux refuses to run a file still open for writing.
        let copied = try runTool("cp", [blocksBinary.path, copy.path])
        try #require(copied.code == 0, "\(copied.err)")
        let (code, text, _) = try runProcess(
            copy, ["info", "scrolling-strip", "--source"], in: URL(fileURLWithPath: "/"), environment: environment)
        #expect(code == 0)
        #expect(text.contains("Scrolling Tab Strip"))
        #expect(text.contains("import SwiftUI"))
    }
}
