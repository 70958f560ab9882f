import Foundation
import Testing

@testable import BlocksKit

/// `lint` checks dependencies; `build` publishes them in the index and metadata files.
@Suite struct DependencyLintTests {
    func catalog(_ dependencies: [String: Any]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("dependency-lint")
        try writeBlock(in: folder, name: "indicator")
        var object = try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "strip").utf8)) as! [String: Any]
        object["dependencies"] = dependencies
        try writeBlock(in: folder, name: "strip", manifest: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        return folder
    }

    @Test func everyDependencyIsCheckedAndNamed() throws {
        let folder = try catalog([
            "blocks": ["indicatr@^1.0", "@acme/pager", "indicator@banana", "strip"],
            "packages": [["url": "not a url", "from": "1.0.0", "products": ["A"]], ["url": "https://h.test/p.git", "products": ["A"]]],
            "extra": true,
        ])
        defer { folder.cleanUp() }
        let report = try CatalogLinter(root: folder.path("Catalog"), swiftCompiler: nil).run()
        let lines = report.problems.map(\.description)
        #expect(
            lines.contains(
                "Catalog/strip/block.json: dependencies.blocks[0]: names 'indicatr', which is not a block of this catalog; did you mean 'indicator'?"),
            "\(lines)")
        #expect(lines.contains { $0.contains("dependencies.blocks[2]") && $0.contains("'indicator@banana' is not a block dependency") })
        #expect(lines.contains { $0.contains("dependencies.blocks[3]") && $0.contains("cannot depend on itself") })
        #expect(lines.contains { $0.contains("dependencies.packages[0]") && $0.contains("'not a url' is not a package URL") })
        #expect(lines.contains { $0.contains("dependencies.packages[1]") && $0.contains("needs exactly one of \"from\" and \"exact\"") })
        #expect(lines.contains { $0.contains("dependencies.extra") })
        #expect(!lines.contains { $0.contains("dependencies.blocks[1]") }, "a namespaced one belongs to another registry")
        #expect(report.problems.count == 6, "\(lines)")
    }

    @Test func buildPublishesDependenciesInTheIndexAndMetadata() throws {
        let folder = try catalog(["blocks": ["indicator@^1.0"], "packages": [["url": "https://h.test/p.git", "exact": "2.0.0", "products": ["P"]]]])
        defer { folder.cleanUp() }
        #expect(try CatalogLinter(root: folder.path("Catalog"), swiftCompiler: nil).run().problems.isEmpty)
        let out = folder.path("out")
        let built = runBlocks(["build", "--catalog", folder.path("Catalog").path, "--out", out.path])
        #expect(built.code == 0, "\(built.err)")
        for file in ["index.json", "blocks/strip.json"] {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("\"indicator@^1.0\""), "\(file)")
            #expect(text.contains("\"exact\" : \"2.0.0\""), "\(file)")
        }
        let source = BuiltRegistrySource(
            root: .folder(out),
            access: RegistryAccess(
                transport: CurlTransport.forTests, cacheDirectory: testCacheFolder, paths: PathContext(workingDirectory: folder.url, homeDirectory: "/")))
        let published = try source.publishedVersions(of: ["strip"])
        #expect(published[0].manifest.dependencies?.blocks == ["indicator@^1.0"])
        #expect(published[0].manifest.dependencies?.packages.first?.exact == "2.0.0")
        #expect(try source.manifest(named: "indicator").dependencies == nil)
    }
}
