import Foundation
import Testing

@testable import BlocksKit

/// A source plugin written in Python from docs/PLUGINS.md alone: `company://team` read by
/// `blocks-plugin-company` on PATH, which copies a catalog into the folder it is given.
@Suite struct SourcePluginTests {
    /// A PATH folder holding `blocks-plugin-company`, answering as `behaviour` says.
    static func installPlugin(in folder: URL, catalog: URL, behaviour: String = "copy") throws {
        let script = """
            #!/usr/bin/env python3
            import json, shutil, sys, os
            request = json.loads(sys.stdin.readline())
            if request["request"] == "capabilities":
                print(json.dumps({"protocolVersion": 1, "capabilities": [] if "\(behaviour)" == "no-source" else ["source"]}))
                sys.exit(0)
            assert request["location"] == "company://team", request["location"]
            if "\(behaviour)" == "fail":
                print("the artifact store is down", file=sys.stderr)
                sys.exit(4)
            shutil.copytree("\(catalog.path)", os.path.join(request["folder"], "registry"))
            print(json.dumps({"protocolVersion": 1, "registry": "../elsewhere" if "\(behaviour)" == "escape" else "registry"}))
            """
        let file = folder.appendingPathComponent("blocks-plugin-company")
        try Data(script.utf8).write(to: file)
        chmod(file.path, 0o755)
    }

    static func environment(bin: URL, cache: URL) -> [String: String] {
        ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME": cache.path, "XDG_CACHE_HOME": cache.path]
    }

    @Test func addUpdateAndOfflineThroughASourcePlugin() throws {
        let catalog = try TestCatalog.make([.standard("pager", type: "Pager")])
        let project = try TestProject.make()
        let bin = try TestProject.temporaryFolder("plugin-bin")
        let cache = try TestProject.temporaryFolder("plugin-cache")
        defer { for folder in [catalog.root, project.root, bin, cache] { try? FileManager.default.removeItem(at: folder) } }
        try Self.installPlugin(in: bin, catalog: catalog.root)
        let environment = Self.environment(bin: bin, cache: cache)

        let added = project.run(["add", "pager", "--registry", "company://team"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["pager"]?.registry == "company://team")
        #expect(project.exists("Sources/App/Blocks/pager/PagerLogic.swift"))

        try catalog.put(.standard("pager", type: "Pager", version: "1.1.0"))
        let updated = project.run(["update", "pager"], environment: environment)
        #expect(updated.code == 0, "\(updated.errors)")
        #expect(try project.lock().blocks["pager"]?.version == "1.1.0")

        let offline = project.run(["list", "--registry", "company://team", "--offline"], environment: environment)
        #expect(offline.code == 0 && offline.output.contains("pager"), "\(offline.errors)")
        // Nothing half-written is left in the cache.
        let sources = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("blocks/sources").path)
        #expect(!sources.contains { $0.hasSuffix(".partial") }, "\(sources)")
    }

    @Test func aBrokenSourcePluginIsOneClearErrorAndWritesNothing() throws {
        let catalog = try TestCatalog.make([.standard("pager", type: "Pager")])
        let project = try TestProject.make()
        let bin = try TestProject.temporaryFolder("plugin-bin")
        let cache = try TestProject.temporaryFolder("plugin-cache")
        defer { for folder in [catalog.root, project.root, bin, cache] { try? FileManager.default.removeItem(at: folder) } }
        let environment = Self.environment(bin: bin, cache: cache)
        let before = try project.treeHash()
        for (behaviour, message) in [
            ("fail", "the artifact store is down"),
            ("escape", "inside the one it was given"),
            ("no-source", "does not offer the source capability"),
        ] {
            try Self.installPlugin(in: bin, catalog: catalog.root, behaviour: behaviour)
            let result = project.run(["add", "pager", "--registry", "company://team"], environment: environment)
            #expect(result.code == 1)
            #expect(result.errors.contains(message), "\(behaviour): \(result.errors)")
            #expect(try project.treeHash() == before)
        }
        try FileManager.default.removeItem(at: bin.appendingPathComponent("blocks-plugin-company"))
        let missing = project.run(["add", "pager", "--registry", "company://team"], environment: environment)
        #expect(missing.errors.contains("install a source plugin blocks-plugin-company"), "\(missing.errors)")
    }
}
