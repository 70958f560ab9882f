import Foundation
import Testing

@testable import BlocksKit

@Suite struct StatusTests {
    @Test func reportsEditsDeletionsAndUpdates() throws {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
        defer {
            project.delete()
            catalog.delete()
        }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip", "pager"]).code == 0)
        try project.write("Sources/App/Blocks/strip/Strip.swift", "// edited\n")
        try FileManager.default.removeItem(at: project.url("Sources/App/Blocks/strip/StripDemo.swift"))
        try catalog.put(.standard("pager", type: "Pager", version: "1.2.0"))

        let human = project.run(["status"])
        #expect(human.code == 0, "\(human.errors)")
        #expect(human.output.contains("pager 1.0.0 (\(catalog.root.path))  update available: 1.2.0"))
        #expect(human.output.contains("  modified  Sources/App/Blocks/strip/Strip.swift"))
        #expect(human.output.contains("  missing   Sources/App/Blocks/strip/StripDemo.swift"))
        #expect(human.output.contains("  unchanged Sources/App/Blocks/strip/StripLogic.swift"))

        let json = project.run(["status", "--json"])
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.output.utf8))
        guard case .object(let root) = decoded, case .array(let blocks)? = root["blocks"],
            case .object(let pager)? = blocks.first, case .object(let strip)? = blocks.last
        else {
            Issue.record("unexpected JSON: \(json.output)")
            return
        }
        #expect(pager["updateAvailable"] == .bool(true))
        #expect(pager["latestVersion"] == .string("1.2.0"))
        #expect(strip["updateAvailable"] == .bool(false))
        #expect(
            strip["files"]
                == .array([
                    .object(["path": .string("Sources/App/Blocks/strip/Strip.swift"), "state": .string("modified")]),
                    .object(["path": .string("Sources/App/Blocks/strip/StripDemo.swift"), "state": .string("missing")]),
                    .object(["path": .string("Sources/App/Blocks/strip/StripLogic.swift"), "state": .string("unchanged")]),
                ]))
    }

    @Test func saysSoWhenNothingWasAdded() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        #expect(project.run(["status"]).output.contains("No blocks added yet."))
        #expect(
            project.run(["status", "--json"]).output.contains("\"blocks\" : [\n\n  ]") || project.run(["status", "--json"]).output.contains("\"blocks\" : []"))
    }

    @Test func anUnreadableRegistryCostsAWarningNotTheStatus() throws {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer { project.delete() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        catalog.delete()
        let result = project.run(["status"])
        #expect(result.code == 0)
        #expect(result.errors.contains("cannot check"))
        #expect(result.output.contains("unchanged"))
    }

    @Test func aBrokenLockIsAClearError() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.lock", "{ not json")
        let result = project.run(["status"])
        #expect(result.code == 1)
        #expect(result.errors.contains("cannot read blocks.lock"))
    }
}
