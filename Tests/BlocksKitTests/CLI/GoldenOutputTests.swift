import Foundation
import Testing

@testable import BlocksKit

/// Golden files pin what scripts and people read: every command's `--help`, the `--json`
/// of the reading commands on the embedded catalog, and a reference build's `index.json`.
/// A change to any of them fails here until it is re-recorded on purpose with
/// `BLOCKS_RECORD_GOLDEN=1 swift test --filter GoldenOutputTests`, so the diff shows up in review.
@Suite struct GoldenOutputTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Golden")
    static let recording = ProcessInfo.processInfo.environment["BLOCKS_RECORD_GOLDEN"] == "1"

    /// Compares `actual` with the golden file `name`, or writes it when recording.
    static func check(_ actual: String, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = FileManager.default.contents(atPath: url.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            Issue.record("no golden file Tests/Golden/\(name); record it with BLOCKS_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if actual != expected {
            let diff = LineDiff.unified(old: expected, new: actual, oldName: "golden/" + name, newName: "actual/" + name)
            Issue.record(
                "output differs from Tests/Golden/\(name) (re-record with BLOCKS_RECORD_GOLDEN=1 if intended):\n\(diff)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func everyCommandsHelp() throws {
        let root = runBlocks(["--help"], environment: ["PATH": "/nonexistent"])
        #expect(root.code == 0)
        try Self.check(root.out, golden: "help/blocks.txt")
        for command in BlocksCLI.commands {
            let name = command.spec.name
            let result = runBlocks([name, "--help"], environment: ["PATH": "/nonexistent"])
            #expect(result.code == 0, "\(name) --help exits \(result.code)")
            try Self.check(result.out, golden: "help/\(name).txt")
        }
    }

    @Test func jsonOfTheReadingCommands() throws {
        let project = try TemporaryFolder("golden")
        defer { project.cleanUp() }
        let commands: [(String, [String])] =
            [
                ("list.json", ["list", "--json"]),
                ("search-tabs.json", ["search", "tabs", "--json"]),
                ("search-pestanas-ios18.json", ["search", "pestanas", "--platform", "ios18", "--json"]),
                ("search-nothing.json", ["search", "zzzzqqq", "--json"]),
            ] + (try CatalogSource.embedded.blockNames()).map { ("info-\($0).json", ["info", $0, "--json"]) }
        for (file, arguments) in commands {
            let result = runBlocks(arguments, in: project.url, environment: ["BLOCKS_REGISTRY": ""])
            #expect(result.code == 0, "\(arguments.joined(separator: " ")) exits \(result.code): \(result.err)")
            try Self.check(result.out, golden: "json/\(file)")
        }
    }

    @Test func referenceBuildIndex() throws {
        let output = try TemporaryFolder("golden-build")
        defer { output.cleanUp() }
        _ = try RegistryFixtures.build(catalog: repositoryRoot.appendingPathComponent("Catalog"), output: output.url)
        let index = try #require(output.read("index.json"))
        try Self.check(index, golden: "build/index.json")
    }
}
