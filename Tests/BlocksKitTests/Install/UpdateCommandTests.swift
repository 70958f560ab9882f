import Foundation
import Testing

@testable import BlocksKit

/// `blocks diff` and `blocks update` with the real binary over a catalog folder: a user's
/// edits survive, a same-line edit conflicts with git's markers, and the lock and the
/// bases move on only with what was written.
@Suite struct UpdateCommandTests {
    static let folder = "Sources/App/Blocks/pager/"
    static let year2026 = "1767225600"
    static let year2027 = "1798761600"

    static func pager(_ version: String, helper: String, limit: String, demo: String, old: Bool, extra: Bool) -> TestCatalog.Block {
        var files: [(String, String, String)] = [
            (
                "Pager.swift", "component",
                "import SwiftUI\n\npublic struct Pager: View {\n    public var body: some View {\n        Text(\"one\")\n    }\n}\n\npublic func helper() -> Int {\n    return \(helper)\n}\n"
            ),
            ("PagerLogic.swift", "logic", "public enum PagerLogic {\n    public static let limit = \(limit)\n}\n"),
            ("PagerDemo.swift", "demo", "import SwiftUI\n\nstruct PagerDemo: View {\n    var body: some View { \(demo) }\n}\n"),
        ]
        if old { files.append(("PagerOld.swift", "logic", "enum PagerOld {}\n")) }
        if extra { files.append(("PagerExtra.swift", "logic", "enum PagerExtra {}\n")) }
        return TestCatalog.Block(name: "pager", version: version, files: files)
    }

    struct Setup {
        let project: TestProject
        let catalog: TestCatalog
        let cache: URL
        let header: String

        func run(_ arguments: [String], year: String = UpdateCommandTests.year2027) throws -> CommandResult {
            try project.runBinary(
                ["--registry", catalog.root.path] + arguments,
                environment: ["XDG_CACHE_HOME": cache.path, "SOURCE_DATE_EPOCH": year])
        }

        func read(_ name: String) -> String? { project.read(UpdateCommandTests.folder + name) }

        func delete() {
            project.delete()
            catalog.delete()
            try? FileManager.default.removeItem(at: cache)
        }
    }

    /// 1.0.0 added in 2026, two files edited, then 1.1.0 published in the catalog.
    static func setUp() throws -> Setup {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([pager("1.0.0", helper: "1", limit: "10", demo: "Pager()", old: true, extra: false)])
        let setup = Setup(project: project, catalog: catalog, cache: try TestProject.temporaryFolder("cache"), header: "")
        let added = try setup.run(["add", "pager"], year: year2026)
        #expect(added.code == 0, "\(added.errors)")
        let pagerText = try #require(setup.read("Pager.swift"))
        let header = String(pagerText[..<pagerText.range(of: "import SwiftUI")!.lowerBound])
        #expect(header.contains("2026"))
        try project.write(folder + "Pager.swift", pagerText.replacingOccurrences(of: "Text(\"one\")", with: "Text(\"mine\")"))
        try project.write(folder + "PagerLogic.swift", try #require(setup.read("PagerLogic.swift")).replacingOccurrences(of: "= 10", with: "= 20"))
        try catalog.put(pager("1.1.0", helper: "2", limit: "30", demo: "Pager().padding()", old: false, extra: true))
        return Setup(project: project, catalog: catalog, cache: setup.cache, header: header)
    }

    @Test func diffShowsLocalAndUpstreamChanges() throws {
        let setup = try Self.setUp()
        defer { setup.delete() }
        let local = try setup.run(["diff"])
        #expect(local.code == 1, "\(local.errors)")
        #expect(local.output.contains("--- a/\(Self.folder)Pager.swift\n+++ b/\(Self.folder)Pager.swift\n"))
        #expect(local.output.contains("-        Text(\"one\")\n+        Text(\"mine\")\n"))
        #expect(local.output.contains("-    public static let limit = 10\n+    public static let limit = 20\n"))
        #expect(!local.output.contains("PagerDemo"))

        let upstream = try setup.run(["diff", "--upstream"])
        #expect(upstream.code == 1, "\(upstream.errors)")
        #expect(upstream.output.contains("-    return 1\n+    return 2\n"))
        #expect(upstream.output.contains("-    public static let limit = 10\n+    public static let limit = 30\n"))
        #expect(upstream.output.contains("+++ b/\(Self.folder)PagerExtra.swift"))
        #expect(upstream.output.contains("--- a/\(Self.folder)PagerOld.swift\n+++ /dev/null"))
        // The new year is not an upstream change.
        #expect(upstream.output.components(separatedBy: "Copyright (c) 2027").count == 2, "only the added file has the new year")

        let json = try setup.run(["diff", "--upstream", "--json"])
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.output.utf8))
        guard case .object(let root) = decoded, case .array(let files)? = root["files"] else {
            Issue.record("unexpected JSON: \(json.output)")
            return
        }
        #expect(
            files == [
                .object(["path": .string(Self.folder + "Pager.swift"), "state": .string("modified upstream")]),
                .object(["path": .string(Self.folder + "PagerDemo.swift"), "state": .string("modified upstream")]),
                .object(["path": .string(Self.folder + "PagerExtra.swift"), "state": .string("added upstream")]),
                .object(["path": .string(Self.folder + "PagerLogic.swift"), "state": .string("would conflict")]),
                .object(["path": .string(Self.folder + "PagerOld.swift"), "state": .string("removed upstream")]),
            ])
    }

    @Test func updateMergesConflictsAndSettles() throws {
        let setup = try Self.setUp()
        defer { setup.delete() }
        let before = try setup.project.treeHash()
        let dry = try setup.run(["update", "--dry-run"])
        #expect(dry.code == 1, "\(dry.errors)")
        #expect(dry.output.contains("Dry run: nothing was written."))
        #expect(dry.output.contains("conflict        \(Self.folder)PagerLogic.swift"))
        #expect(try setup.project.treeHash() == before)

        let update = try setup.run(["update"])
        #expect(update.code == 1, "\(update.output)\(update.errors)")
        #expect(update.output.contains("merge           \(Self.folder)Pager.swift"))
        #expect(update.output.contains("Updated pager 1.0.0 -> 1.1.0"))
        #expect(update.errors.contains("  \(Self.folder)PagerLogic.swift"))
        let header = setup.header
        #expect(
            setup.read("Pager.swift") == header
                + "import SwiftUI\n\npublic struct Pager: View {\n    public var body: some View {\n        Text(\"mine\")\n    }\n}\n\npublic func helper() -> Int {\n    return 2\n}\n"
        )
        #expect(
            setup.read("PagerLogic.swift") == header
                + "public enum PagerLogic {\n<<<<<<< yours\n    public static let limit = 20\n||||||| base 1.0.0\n    public static let limit = 10\n=======\n    public static let limit = 30\n>>>>>>> pager 1.1.0\n}\n"
        )
        #expect(setup.read("PagerDemo.swift") == header + "import SwiftUI\n\nstruct PagerDemo: View {\n    var body: some View { Pager().padding() }\n}\n")
        #expect(setup.read("PagerExtra.swift") == header.replacingOccurrences(of: "2026", with: "2027") + "enum PagerExtra {}\n")
        #expect(!setup.project.exists(Self.folder + "PagerOld.swift"))

        let lock = try setup.project.lock()
        let block = try #require(lock.blocks["pager"])
        #expect(block.version == "1.1.0")
        #expect(block.files.map(\.path) == ["Pager", "PagerDemo", "PagerExtra", "PagerLogic"].map { Self.folder + $0 + ".swift" })
        // The lock records the upstream version each file was merged with: the next base.
        let logicUpstream = header + "public enum PagerLogic {\n    public static let limit = 30\n}\n"
        #expect(block.file(at: Self.folder + "PagerLogic.swift")?.sha256 == SHA256.hex(Data(logicUpstream.utf8)))
        #expect(
            BaseStore(cacheDirectory: setup.cache.appendingPathComponent("blocks")).load(sha256: SHA256.hex(Data(logicUpstream.utf8)))
                == Data(logicUpstream.utf8))

        let status = try setup.run(["status"])
        #expect(status.output.contains("  conflict  \(Self.folder)PagerLogic.swift"), "\(status.output)")
        #expect(status.output.contains("  modified  \(Self.folder)Pager.swift"))
        #expect(status.output.contains("  unchanged \(Self.folder)PagerDemo.swift"))

        // Still conflicted: said again, nothing written.
        let again = try setup.run(["update"])
        #expect(again.code == 1)
        let theirs = try setup.run(["update", "--theirs"])
        #expect(theirs.code == 0, "\(theirs.output)\(theirs.errors)")
        #expect(setup.read("PagerLogic.swift") == logicUpstream)
        let settled = try setup.run(["status"])
        #expect(settled.output.contains("  unchanged \(Self.folder)PagerLogic.swift"), "\(settled.output)")

        let lockBytes = try Data(contentsOf: setup.project.url("blocks.lock"))
        let tree = try setup.project.treeHash()
        let noop = try setup.run(["update"])
        #expect(noop.code == 0, "\(noop.errors)")
        #expect(noop.output.contains("Up to date: pager 1.1.0"), "\(noop.output)")
        #expect(try setup.project.treeHash() == tree)
        #expect(try Data(contentsOf: setup.project.url("blocks.lock")) == lockBytes)
        #expect(try setup.run(["diff", "--upstream"]).code == 0)
    }

    @Test func aMissingBaseIsAConflictOnlyASideSettles() throws {
        let setup = try Self.setUp()
        defer { setup.delete() }
        try FileManager.default.removeItem(at: setup.cache.appendingPathComponent("blocks/bases"))
        let update = try setup.run(["update"])
        #expect(update.code == 1)
        #expect(update.output.contains("no base kept for it"), "\(update.output)")
        // The user's lines are untouched, both files.
        #expect(setup.read("Pager.swift")?.contains("Text(\"mine\")") == true)
        #expect(setup.read("Pager.swift")?.contains("return 1") == true)
        let ours = try setup.run(["update", "--ours"])
        #expect(ours.code == 0, "\(ours.errors)")
        #expect(setup.read("PagerLogic.swift")?.contains("limit = 20") == true)
    }

    @Test func aDamagedBaseIsNotUsed() throws {
        let store = BaseStore(cacheDirectory: try TestProject.temporaryFolder("cache"))
        defer { try? FileManager.default.removeItem(at: store.folder.deletingLastPathComponent()) }
        let data = Data("base\n".utf8)
        #expect(store.store(data))
        #expect(store.load(sha256: SHA256.hex(data)) == data)
        try Data("tampered\n".utf8).write(to: store.folder.appendingPathComponent(SHA256.hex(data)))
        #expect(store.load(sha256: SHA256.hex(data)) == nil)
    }

    @Test func settlingMarkersTakesOneSide() {
        let text = "a\n<<<<<<< yours\nmine\n||||||| base 1.0.0\nbase\n=======\ntheirs\n>>>>>>> pager 1.1.0\nz\n"
        #expect(ThreeWayMerge.settlingMarkers(Array(text.utf8), taking: .theirs) == Array("a\ntheirs\nz\n".utf8))
        #expect(ThreeWayMerge.settlingMarkers(Array(text.utf8), taking: .ours) == Array("a\nmine\nz\n".utf8))
        #expect(ThreeWayMerge.settlingMarkers(Array("a\n<<<<<<< yours\nb\n".utf8), taking: .ours) == nil)
    }
}
