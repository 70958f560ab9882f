import Foundation
import Testing

@testable import BlocksKit

/// Issue 14, "tests against a real registry": the real binary, a registry built by
/// `blocks build` and served by a real nginx (with `gzip_static`). pager 1.0.0 is
/// published and added, two of its files are edited, and 1.1.0 is published: it changes
/// other lines of one edited file and the same line of the other, changes a file the user
/// left alone, adds a file and removes one. Then `diff`, `diff --upstream`, `update
/// --dry-run` and `update` run, and every file's bytes, the lock, `status` and a second
/// `update` are checked: online, offline from the cache with nginx stopped, and from a
/// mirror with nginx stopped.
@Suite(.serialized) struct UpdateRegistryTests {
    static let folder = "Sources/App/Blocks/pager/"
    static let year2026 = "1767225600"
    static let year2027 = "1798761600"

    /// pager's files at a version: name, role, body.
    static func files(_ version: String) -> [(String, String, String)] {
        let helper = version == "1.0.0" ? "1" : version == "1.1.0" ? "2" : "3"
        let limit = version == "1.0.0" ? "10" : "30"
        var files: [(String, String, String)] = [
            (
                "Pager.swift", "component",
                "import SwiftUI\n\npublic struct Pager: View {\n    public var body: some View {\n        Text(\"one\")\n    }\n}\n\npublic func helper() -> Int {\n    return \(helper)\n}\n"
            ),
            ("PagerLogic.swift", "logic", "public enum PagerLogic {\n    public static let limit = \(limit)\n}\n"),
            (
                "PagerDemo.swift", "demo",
                "import SwiftUI\n\nstruct PagerDemo: View {\n    var body: some View { \(version == "1.0.0" ? "Pager()" : "Pager().padding()") }\n}\n"
            ),
        ]
        if version == "1.0.0" { files.append(("PagerOld.swift", "logic", "enum PagerOld {}\n")) }
        if version != "1.0.0" { files.append(("PagerExtra.swift", "logic", "enum PagerExtra {}\n")) }
        return files
    }

    /// A catalog folder, the registry built from it, and nginx serving the registry.
    struct Registry {
        let folder: TemporaryFolder
        let nginx: Nginx
        var public_: URL { folder.path("public") }
        var cache: URL { folder.path("cache") }

        init() throws {
            folder = try TemporaryFolder("update-registry")
            try FileManager.default.createDirectory(at: folder.path("public"), withIntermediateDirectories: true)
            nginx = try Nginx(root: folder.path("public"), serverConfig: "gzip_static on;")
        }

        /// Writes pager at `version` into the catalog and builds the registry with the
        /// year of `epoch` in the headers, as a publisher would.
        func publish(_ version: String, epoch: String) throws {
            let files = UpdateRegistryTests.files(version)
            try? FileManager.default.removeItem(at: folder.path("Catalog/pager"))
            try writeBlock(
                in: folder, name: "pager",
                manifest: sampleManifestJSON(name: "pager", version: version, files: files.map { ($0.0, $0.1) }),
                files: Dictionary(uniqueKeysWithValues: files.map { ($0.0, $0.2) }))
            let built = try runBinary(
                ["build", "--catalog", folder.path("Catalog").path, "--out", public_.path],
                in: folder.url, environment: ["PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": epoch])
            #expect(built.code == 0, "\(built.err)")
        }

        func run(_ project: TestProject, _ arguments: [String], year: String = UpdateRegistryTests.year2027) throws -> CommandResult {
            try project.runBinary(arguments, environment: ["XDG_CACHE_HOME": cache.path, "SOURCE_DATE_EPOCH": year])
        }

        func cleanUp() {
            nginx.stop()
            folder.cleanUp()
        }
    }

    /// Edits Pager.swift (the Text line) and PagerLogic.swift (the limit) as a user would.
    /// Returns the header `add` wrote.
    static func editAsTheUser(_ project: TestProject) throws -> String {
        let pager = try #require(project.read(folder + "Pager.swift"))
        let header = String(pager[..<(try #require(pager.range(of: "import SwiftUI"))).lowerBound])
        #expect(header.hasPrefix("// SPDX-License-Identifier: MIT\n") && header.contains("2026"), "\(header)")
        try project.write(folder + "Pager.swift", pager.replacingOccurrences(of: "Text(\"one\")", with: "Text(\"mine\")"))
        let logic = try #require(project.read(folder + "PagerLogic.swift"))
        try project.write(folder + "PagerLogic.swift", logic.replacingOccurrences(of: "= 10", with: "= 20"))
        return header
    }

    /// Runs diff, diff --upstream, update --dry-run, update and update again in a project
    /// holding pager 1.0.0 with the user's two edits, with 1.1.0 published, and checks
    /// every result. `global` goes before each command (`--offline`, say); the registry
    /// is the one the lock names.
    static func updateAndCheck(_ registry: Registry, _ project: TestProject, header: String, global: [String], location: String) throws {
        let header2027 = header.replacingOccurrences(of: "2026", with: "2027")
        let local = try registry.run(project, global + ["diff"])
        #expect(local.code == 1, "\(local.errors)")
        #expect(local.output.contains("--- a/\(folder)Pager.swift\n+++ b/\(folder)Pager.swift\n"), "\(local.output)")
        #expect(local.output.contains("-        Text(\"one\")\n+        Text(\"mine\")\n"))
        #expect(local.output.contains("-    public static let limit = 10\n+    public static let limit = 20\n"))
        #expect(local.output.components(separatedBy: "+++ b/").count == 3, "two files changed: \(local.output)")

        let upstream = try registry.run(project, global + ["diff", "--upstream"])
        #expect(upstream.code == 1, "\(upstream.errors)")
        #expect(upstream.output.contains("-    return 1\n+    return 2\n"), "\(upstream.output)")
        #expect(upstream.output.contains("-    public static let limit = 10\n+    public static let limit = 30\n"))
        #expect(upstream.output.contains("-    var body: some View { Pager() }\n+    var body: some View { Pager().padding() }\n"))
        #expect(upstream.output.contains("--- /dev/null\n+++ b/\(folder)PagerExtra.swift\n"))
        #expect(upstream.output.contains("--- a/\(folder)PagerOld.swift\n+++ /dev/null\n"))
        // The registry's new year is not an upstream change: only the new file has it.
        #expect(upstream.output.components(separatedBy: "2027").count == 2, "\(upstream.output)")
        let states = try registry.run(project, global + ["diff", "--upstream", "--json"])
        #expect(
            try fileStates(states.output) == [
                folder + "Pager.swift": "modified upstream", folder + "PagerDemo.swift": "modified upstream",
                folder + "PagerExtra.swift": "added upstream", folder + "PagerLogic.swift": "would conflict",
                folder + "PagerOld.swift": "removed upstream",
            ])

        let untouched = try project.treeHash()
        let dry = try registry.run(project, global + ["update", "--dry-run"])
        #expect(dry.code == 1, "\(dry.errors)")
        for line in [
            "merge           \(folder)Pager.swift", "update          \(folder)PagerDemo.swift", "create          \(folder)PagerExtra.swift",
            "conflict        \(folder)PagerLogic.swift (both changed it; markers would be written)", "remove          \(folder)PagerOld.swift",
            "Dry run: nothing was written.",
        ] {
            #expect(dry.output.contains(line), "\(line) in \(dry.output)")
        }
        #expect(dry.errors.contains("1 file would need you:\n  \(folder)PagerLogic.swift\nRun 'blocks update' and edit out the markers"), "\(dry.errors)")
        #expect(try project.treeHash() == untouched)

        let update = try registry.run(project, global + ["update"])
        #expect(update.code == 1, "\(update.output)\(update.errors)")
        #expect(update.output.contains("Updated pager 1.0.0 -> 1.1.0"), "\(update.output)")
        #expect(update.output.contains("delete          \(folder)PagerOld.swift"), "\(update.output)")
        #expect(update.errors.contains("1 file needs you:\n  \(folder)PagerLogic.swift\n"), "\(update.errors)")
        // Every file, byte for byte.
        let expected: [String: String] = [
            "Pager.swift": header
                + "import SwiftUI\n\npublic struct Pager: View {\n    public var body: some View {\n        Text(\"mine\")\n    }\n}\n\npublic func helper() -> Int {\n    return 2\n}\n",
            "PagerLogic.swift": header
                + "public enum PagerLogic {\n<<<<<<< yours\n    public static let limit = 20\n||||||| base 1.0.0\n    public static let limit = 10\n=======\n    public static let limit = 30\n>>>>>>> pager 1.1.0\n}\n",
            "PagerDemo.swift": header + "import SwiftUI\n\nstruct PagerDemo: View {\n    var body: some View { Pager().padding() }\n}\n",
            "PagerExtra.swift": header2027 + "enum PagerExtra {}\n",
        ]
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: project.url(folder).path).sorted()
        #expect(onDisk == expected.keys.sorted())
        for (name, text) in expected { #expect(project.read(folder + name) == text, "\(name)") }

        // The lock: the new version, and for each file the upstream bytes it was merged
        // with (the next update's base), which the cache keeps.
        let block = try #require(try project.lock().blocks["pager"])
        #expect(block.version == "1.1.0")
        #expect(block.registry == location)
        let upstreamText: [String: String] = [
            "Pager.swift": header + files("1.1.0")[0].2, "PagerLogic.swift": header + files("1.1.0")[1].2,
            "PagerDemo.swift": expected["PagerDemo.swift"]!, "PagerExtra.swift": expected["PagerExtra.swift"]!,
        ]
        #expect(block.files.map(\.path) == upstreamText.keys.sorted().map { folder + $0 })
        let bases = BaseStore(cacheDirectory: registry.cache.appendingPathComponent("blocks"))
        for (name, text) in upstreamText {
            #expect(block.file(at: folder + name)?.sha256 == SHA256.hex(Data(text.utf8)), "\(name)")
            #expect(bases.load(sha256: SHA256.hex(Data(text.utf8))) == Data(text.utf8), "\(name)'s base is kept")
        }
        let status = try registry.run(project, global + ["status"])
        #expect(status.output.contains("  conflict  \(folder)PagerLogic.swift"), "\(status.output)")
        #expect(status.output.contains("  modified  \(folder)Pager.swift"))
        #expect(status.output.contains("  unchanged \(folder)PagerDemo.swift"))
        #expect(status.output.contains("  unchanged \(folder)PagerExtra.swift"))

        // Again: the conflict is said again and nothing changes.
        let tree = try project.treeHash()
        let lockBytes = try Data(contentsOf: project.url("blocks.lock"))
        let again = try registry.run(project, global + ["update"])
        #expect(again.code == 1)
        #expect(again.errors.contains("  \(folder)PagerLogic.swift"))
        #expect(try project.treeHash() == tree)
        #expect(try Data(contentsOf: project.url("blocks.lock")) == lockBytes)

        // The user settles the conflict by hand; then update is a no-op that says so.
        try project.write(folder + "PagerLogic.swift", header + "public enum PagerLogic {\n    public static let limit = 25\n}\n")
        let settledTree = try project.treeHash()
        let noop = try registry.run(project, global + ["update"])
        #expect(noop.code == 0, "\(noop.errors)")
        #expect(noop.output.contains("Up to date: pager 1.1.0"), "\(noop.output)")
        #expect(try project.treeHash() == settledTree)
        #expect(try Data(contentsOf: project.url("blocks.lock")) == lockBytes)
        #expect(try registry.run(project, global + ["diff", "--upstream"]).code == 0)
        let settled = try registry.run(project, global + ["status"])
        #expect(settled.output.contains("  modified  \(folder)PagerLogic.swift"), "\(settled.output)")
    }

    static func fileStates(_ json: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: String]])
        return Dictionary(uniqueKeysWithValues: files.map { ($0["path"] ?? "", $0["state"] ?? "") })
    }

    @Test func updateOverNginx() throws {
        let registry = try Registry()
        defer { registry.cleanUp() }
        try registry.publish("1.0.0", epoch: Self.year2026)
        let project = try TestProject.make()
        defer { project.delete() }
        let added = try registry.run(project, ["--registry", registry.nginx.baseURL, "add", "pager", "--yes"], year: Self.year2026)
        #expect(added.code == 0, "\(added.errors)")
        let header = try Self.editAsTheUser(project)
        try registry.publish("1.1.0", epoch: Self.year2027)
        try Self.expectValidRegistry(registry.public_)
        try Self.updateAndCheck(registry, project, header: header, global: [], location: registry.nginx.baseURL)
    }

    /// The cache holds 1.1.0 once any command has read it (here `diff --upstream`, before
    /// the edits); with nginx stopped, `--offline` does the whole update from the cache.
    @Test func updateOfflineFromTheCache() throws {
        let registry = try Registry()
        defer { registry.cleanUp() }
        try registry.publish("1.0.0", epoch: Self.year2026)
        try registry.publish("1.1.0", epoch: Self.year2027)
        let project = try TestProject.make()
        defer { project.delete() }
        let added = try registry.run(project, ["--registry", registry.nginx.baseURL, "add", "pager@1.0.0", "--yes"], year: Self.year2026)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try registry.run(project, ["diff", "--upstream"]).code == 1)
        let header = try Self.editAsTheUser(project)
        registry.nginx.stop()
        let online = try registry.run(project, ["diff", "--upstream"])
        #expect(online.code == 2, "without --offline the registry is asked, and it is gone: \(online.errors)")
        try Self.updateAndCheck(registry, project, header: header, global: ["--offline"], location: registry.nginx.baseURL)
    }

    /// A mirror made after both versions were published holds both: pager 1.0.0 is added
    /// from it and updated to 1.1.0 with nginx stopped.
    @Test func updateFromAMirror() throws {
        let registry = try Registry()
        defer { registry.cleanUp() }
        try registry.publish("1.0.0", epoch: Self.year2026)
        try registry.publish("1.1.0", epoch: Self.year2027)
        let mirror = registry.folder.path("mirror")
        let mirrored = try runBinary(
            ["mirror", registry.nginx.baseURL, mirror.path], in: registry.folder.url,
            environment: ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": registry.folder.path("mirror-cache").path])
        #expect(mirrored.code == 0, "\(mirrored.err)")
        registry.nginx.stop()
        try Self.expectValidRegistry(mirror)
        let project = try TestProject.make()
        defer { project.delete() }
        let added = try registry.run(project, ["--registry", mirror.path, "add", "pager@1.0.0", "--yes"], year: Self.year2026)
        #expect(added.code == 0, "\(added.errors)")
        let header = try Self.editAsTheUser(project)
        try Self.updateAndCheck(registry, project, header: header, global: [], location: mirror.path)
    }

    /// `update NAME --to VERSION` and `diff --upstream NAME --to VERSION` take a published
    /// version other than the newest; the wrong uses are one clear error each.
    @Test func toTakesAVersionOtherThanTheNewest() throws {
        let registry = try Registry()
        defer { registry.cleanUp() }
        try registry.publish("1.0.0", epoch: Self.year2026)
        try registry.publish("1.1.0", epoch: Self.year2026)
        try registry.publish("1.2.0", epoch: Self.year2026)
        let project = try TestProject.make()
        defer { project.delete() }
        let added = try registry.run(project, ["--registry", registry.nginx.baseURL, "add", "pager@1.0.0", "--yes"], year: Self.year2026)
        #expect(added.code == 0, "\(added.errors)")

        let diff = try registry.run(project, ["diff", "--upstream", "pager", "--to", "1.1.0"], year: Self.year2026)
        #expect(diff.code == 1, "\(diff.errors)")
        #expect(diff.output.contains("-    return 1\n+    return 2\n"), "\(diff.output)")
        let newest = try registry.run(project, ["diff", "--upstream", "pager"], year: Self.year2026)
        #expect(newest.output.contains("-    return 1\n+    return 3\n"), "\(newest.output)")

        let update = try registry.run(project, ["update", "pager", "--to", "1.1.0"], year: Self.year2026)
        #expect(update.code == 0, "\(update.errors)")
        #expect(update.output.contains("Updated pager 1.0.0 -> 1.1.0"), "\(update.output)")
        #expect(project.read(Self.folder + "Pager.swift")?.contains("return 2") == true)
        #expect(try project.lock().blocks["pager"]?.version == "1.1.0")
        let status = try registry.run(project, ["status"], year: Self.year2026)
        #expect(status.output.contains("1.2.0"), "status still offers the newest: \(status.output)")
        let rest = try registry.run(project, ["update"], year: Self.year2026)
        #expect(rest.code == 0 && rest.output.contains("Updated pager 1.1.0 -> 1.2.0"), "\(rest.output)\(rest.errors)")
        #expect(project.read(Self.folder + "Pager.swift")?.contains("return 3") == true)

        let unknown = try registry.run(project, ["update", "pager", "--to", "9.9.9"], year: Self.year2026)
        #expect(unknown.code == 1)
        #expect(unknown.errors.contains("pager has no version 9.9.9; this registry has 1.2.0, 1.1.0, 1.0.0"), "\(unknown.errors)")
        let tree = try project.treeHash()
        for (arguments, message) in [
            (["update", "--to", "1.1.0"], "one block NAME is required here: --to 1.1.0 names a version of one block"),
            (["update", "pager", "--all", "--to", "1.1.0"], "one block NAME is required here"),
            (["diff", "pager", "--to", "1.1.0"], "--to does not apply here: without --upstream"),
            (["update", "pager", "--to", ""], "is not a valid value for '--to'"),
        ] {
            let result = try registry.run(project, arguments, year: Self.year2026)
            #expect(result.code == 64, "\(arguments): \(result.code) \(result.errors)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        #expect(try project.treeHash() == tree)
    }

    /// The registry's index and metadata files pass a standard JSON Schema validator
    /// against `Schemas/index.schema.json` (`SchemaTests.validator`).
    static func expectValidRegistry(_ registry: URL) throws {
        let metadata = try FileManager.default.contentsOfDirectory(atPath: registry.appendingPathComponent("blocks").path).filter { $0.hasSuffix(".json") }
            .sorted()
        let versions = try BlockMetadata.decode(Data(contentsOf: registry.appendingPathComponent("blocks/pager.json"))).versions
        #expect(versions.count >= 2, "a metadata file with older versions is validated")
        let schemas = repositoryRoot.appendingPathComponent("Schemas")
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", SchemaTests.validator, schemas.appendingPathComponent("index.schema.json").path,
                schemas.appendingPathComponent("block.schema.json").path, registry.appendingPathComponent("index.json").path,
            ]
                + metadata.map { registry.appendingPathComponent("blocks/" + $0).path },
            in: registry)
        #expect(result.code == 0 && result.out == "valid \(metadata.count + 1)\n", "\(result.out)\(result.err)")
    }
}
