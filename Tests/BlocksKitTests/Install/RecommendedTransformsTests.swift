import Foundation
import Testing

@testable import BlocksKit

/// A registry may name the transforms it recommends for a block (`recommendedTransforms`
/// in its manifest); `add` mentions those the project does not run, and never finds,
/// installs or runs a plugin because a registry named it (issue 36, "Security").
@Suite struct RecommendedTransformsTests {
    /// A PATH folder with `blocks-plugin-spy`, which leaves `ran` in `marker` whenever it is
    /// started at all: the proof that a recommendation ran nothing.
    static func installSpy(in bin: URL, marker: URL) throws {
        let script = """
            #!/bin/sh
            echo ran >> '\(marker.path)'
            echo '{"protocolVersion": 1, "capabilities": ["transform"]}'
            """
        let file = bin.appendingPathComponent("blocks-plugin-spy")
        try Data(script.utf8).write(to: file)
        chmod(file.path, 0o755)
    }

    static func pager(recommending names: [String]) -> TestCatalog.Block {
        var block = TestCatalog.Block.standard("pager", type: "Pager")
        block.recommendedTransforms = names
        return block
    }

    @Test func aBuiltRegistrysRecommendationIsMentionedAndNothingRuns() throws {
        let catalog = try TestCatalog.make([Self.pager(recommending: ["spy", "access-level"])])
        let registry = try TestProject.temporaryFolder("recommending-registry")
        let bin = try TestProject.temporaryFolder("recommending-bin")
        let project = try TestProject.make()
        defer { for folder in [catalog.root, registry, bin, project.root] { try? FileManager.default.removeItem(at: folder) } }
        let marker = bin.appendingPathComponent("marker")
        try Self.installSpy(in: bin, marker: marker)
        let built = runBlocks(["build", "--catalog", catalog.root.path, "--out", registry.path])
        #expect(built.code == 0, "\(built.err)")
        // The recommendation travels in the index and the block's metadata file.
        let metadata = try String(contentsOf: registry.appendingPathComponent("blocks/pager.json"), encoding: .utf8)
        #expect(metadata.contains("\"recommendedTransforms\" : ["), "\(metadata)")
        let environment = ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "XDG_CACHE_HOME": testCacheFolder.path]

        let added = project.run(["add", "pager", "--registry", registry.path], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(
            added.errors.contains(
                "note: pager recommends the transforms 'spy', 'access-level'; nothing was run. To run them on add and update, list them in blocks.json's \"transforms\""),
            "\(added.errors)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "a registry's recommendation started a plugin")
        // Written as published: no chain ran, and the lock records none.
        let component = try #require(project.read("Sources/App/Blocks/pager/Pager.swift"))
        #expect(component.hasSuffix("public struct Pager: View {\n    public var body: some View { Text(\"1.0.0\") }\n}\n"))
        #expect(try project.lock().blocks["pager"]?.transforms == nil)

        // Said once per version: adding the same version again stays quiet.
        let again = project.run(["add", "pager", "--registry", registry.path, "--overwrite"], environment: environment)
        #expect(again.code == 0, "\(again.errors)")
        #expect(!again.errors.contains("recommends"), "\(again.errors)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func transformsTheProjectRunsAreNotMentionedAndJSONListsTheRest() throws {
        let catalog = try TestCatalog.make([Self.pager(recommending: ["swift-format", "access-level"])])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [\"access-level\"]}\n")
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": testCacheFolder.path]
        let planned = project.run(["add", "pager", "--dry-run"], environment: environment)
        #expect(planned.code == 0, "\(planned.errors)")
        #expect(planned.errors.contains("note: pager recommends the transform 'swift-format'; nothing was run. To run it on add"), "\(planned.errors)")
        #expect(!planned.errors.contains("'access-level'"), "\(planned.errors)")

        let added = project.run(["add", "pager", "--json"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        let report = try #require(try JSONReader.parse(Data(added.output.utf8)).object)
        let block = try #require(report["blocks"]?.array?.first?.object)
        #expect(block["recommendedTransforms"] == .array([.string("swift-format")]))
    }

    @Test func aNameThatIsNoPluginNameIsNeverShown() throws {
        let catalog = try TestCatalog.make([Self.pager(recommending: ["../evil", "Spy", "swift-format"])])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let added = project.run(["add", "pager", "--registry", catalog.root.path], environment: ["XDG_CACHE_HOME": testCacheFolder.path])
        #expect(added.code == 0, "\(added.errors)")
        #expect(added.errors.contains("note: pager recommends the transform 'swift-format';"), "\(added.errors)")
        #expect(!added.errors.contains("evil") && !added.errors.contains("Spy"), "\(added.errors)")
    }

    @Test func lintRefusesWhatIsNoListOfPluginNames() throws {
        let catalog = try TestCatalog.make([Self.pager(recommending: ["../evil", "swift-format", "swift-format"])])
        defer { catalog.delete() }
        let linted = runBlocks(["lint", "--catalog", catalog.root.path, "--no-parse"])
        #expect(linted.code != 0)
        let said = linted.out + linted.err
        #expect(said.contains("recommendedTransforms[0]") && said.contains("'../evil' is not a plugin name"), "\(said)")
        #expect(said.contains("recommendedTransforms[2]") && said.contains("'swift-format' is listed twice"), "\(said)")
    }
}
