import Foundation
import Testing

@testable import BlocksKit

/// The files blocks writes validate against the schemas that document them (checked by
/// Python's jsonschema, a validator of its own), and the schemas refuse what blocks refuses.
@Suite struct SchemaFilesTests {
    /// The problems jsonschema finds in `file` against `Schemas/<schema>.schema.json`, one per line.
    func problems(_ file: URL, schema: String) throws -> [String] {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            for error in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))):
                print(error.message)
            """
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", script,
                repositoryRoot.appendingPathComponent("Schemas/\(schema).schema.json").path, file.path,
            ])
        guard result.code == 0 else { throw TestSupportError("jsonschema failed: \(result.err)") }
        return result.out.split(separator: "\n").map(String.init)
    }

    @Test func transformsInBlocksJSONAndTheLockMatchTheirSchemas() throws {
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer { catalog.delete() }
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write(
            "blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [\"access-level\", {\"plugin\": \"prefix\", \"options\": {\"prefix\": \"BK\"}}]}\n")
        let added = project.run(["add", "strip"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["strip"]?.transforms?.hasPrefix("access-level+prefix ") == true)
        #expect(try problems(project.url("blocks.json"), schema: "blocks-config") == [])
        #expect(try problems(project.url("blocks.lock"), schema: "lock") == [])
        // The schema refuses what blocks refuses: an entry that is neither a name nor {plugin, options}.
        try project.write("bad.json", "{\"transforms\": [42, {\"plugin\": \"prefix\", \"extra\": 1}]}\n")
        #expect(try problems(project.url("bad.json"), schema: "blocks-config").count == 2)
    }

    @Test func blocksJSONAndTheLockMatchTheirSchemas() throws {
        var strip = TestCatalog.Block.standard("strip", type: "Strip")
        strip.dependencies = BlockDependencies(
            blocks: ["indicator@^1.0"], packages: [PackageDependency(url: "https://h.test/p.git", exact: "1.0.0", products: ["P"])])
        let catalog = try TestCatalog.make([strip, .standard("indicator", type: "Indicator")])
        defer { catalog.delete() }
        let project = try TestProject.make()
        defer { project.delete() }
        #expect(project.run(["registry", "add", "@local", catalog.root.path, "--header", "Authorization: Bearer ${LOCAL_TOKEN}"]).code == 0)
        let added = project.run(["add", "@local/strip"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try problems(project.url("blocks.json"), schema: "blocks-config") == [])
        #expect(try problems(project.url("blocks.lock"), schema: "lock") == [])
        // The dependencies as BlockManifest writes them, in a manifest that is otherwise complete.
        var manifest = try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "strip").utf8)) as! [String: Any]
        manifest["dependencies"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(strip.dependencies))
        try project.write("strip.json", String(decoding: try JSONSerialization.data(withJSONObject: manifest), as: UTF8.self))
        #expect(try problems(project.url("strip.json"), schema: "block") == [])
        #expect(try project.lock().blocks["@local/indicator"]?.requiredBy == ["@local/strip"])

        try project.write("bad.json", #"{"registries": {"acme": "x", "@b": {"headers": {"Bad Name": "v"}}}}"#)
        #expect(try problems(project.url("bad.json"), schema: "blocks-config").count >= 2)
        try project.write("bad-block.json", #"{"dependencies": {"blocks": ["x@banana"], "packages": [{"url": "nope", "products": []}]}}"#)
        #expect(try problems(project.url("bad-block.json"), schema: "block").contains { $0.contains("x@banana") })
    }
}
