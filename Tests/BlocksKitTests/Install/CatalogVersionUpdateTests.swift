import Foundation
import Testing

@testable import BlocksKit

/// Issue 31 changed published blocks, so each got a new version: a registry that served
/// 1.0.0 must list 1.0.1, keep 1.0.0 (a project's update base), and `update` must take a
/// project from one to the other. floating-tab-bar stands for the four: 1.0.0 is the
/// repository's block with its one change undone (its badge enum `Sendable` again),
/// published, added, then the repository's 1.0.1 published into the same folder.
@Suite struct CatalogVersionUpdateTests {
    static let name = "floating-tab-bar"
    static let installed = "Sources/App/Blocks/floating-tab-bar/"
    static let year2026 = "1767225600"
    static let year2027 = "1798761600"
    static let published = #"public enum FloatingTabBadge: Equatable, Sendable {"#
    static let fixed = #"public enum FloatingTabBadge: Equatable {"#

    /// Copies the repository's block into `catalog`, as 1.0.0 when `old`.
    static func writeBlock(into catalog: URL, old: Bool) throws {
        let folder = catalog.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog/\(name)"), to: folder)
        guard old else { return }
        let manifest = folder.appendingPathComponent("block.json")
        let component = folder.appendingPathComponent("FloatingTabBar.swift")
        let manifestText = try String(contentsOf: manifest, encoding: .utf8)
        let componentText = try String(contentsOf: component, encoding: .utf8)
        #expect(manifestText.contains(#""version": "1.0.1""#))
        #expect(componentText.contains(fixed))
        try Data(manifestText.replacingOccurrences(of: #""version": "1.0.1""#, with: #""version": "1.0.0""#).utf8).write(to: manifest)
        try Data(componentText.replacingOccurrences(of: fixed, with: published).utf8).write(to: component)
    }

    @Test func updateTakesAProjectFromThePublishedVersionToTheFixedOne() throws {
        let folder = try TemporaryFolder("catalog-version-update")
        let project = try TestProject.make()
        defer {
            folder.cleanUp()
            project.delete()
        }
        let catalog = folder.path("Catalog")
        let registry = folder.path("public")
        func publish(old: Bool, epoch: String) throws {
            try Self.writeBlock(into: catalog, old: old)
            let built = try runBinary(
                ["build", "--catalog", catalog.path, "--out", registry.path],
                in: folder.url, environment: ["PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": epoch])
            #expect(built.code == 0, "\(built.err)")
        }
        func run(_ arguments: [String], epoch: String) throws -> CommandResult {
            try project.runBinary(
                ["--registry", registry.path] + arguments,
                environment: ["XDG_CACHE_HOME": folder.path("cache").path, "SOURCE_DATE_EPOCH": epoch])
        }

        try publish(old: true, epoch: Self.year2026)
        let added = try run(["add", Self.name], epoch: Self.year2026)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks[Self.name]?.version == "1.0.0")
        #expect(project.read(Self.installed + "FloatingTabBar.swift")?.contains(Self.published) == true)

        try publish(old: false, epoch: Self.year2027)
        // Both versions are served: the new one to update to, the old one as the base.
        let archives = try FileManager.default.contentsOfDirectory(atPath: registry.appendingPathComponent("archives").path)
        #expect(archives.contains { $0.hasPrefix("\(Self.name)-1.0.0.") }, "\(archives)")
        #expect(archives.contains { $0.hasPrefix("\(Self.name)-1.0.1.") }, "\(archives)")
        let index = try #require(FileManager.default.contents(atPath: registry.appendingPathComponent("index.json").path))
        #expect(String(decoding: index, as: UTF8.self).contains("1.0.1"))

        let update = try run(["update"], epoch: Self.year2027)
        #expect(update.code == 0, "\(update.output)\(update.errors)")
        #expect(update.output.contains("Updated \(Self.name) 1.0.0 -> 1.0.1"), "\(update.output)")
        #expect(try project.lock().blocks[Self.name]?.version == "1.0.1")
        let component = try #require(project.read(Self.installed + "FloatingTabBar.swift"))
        #expect(component.contains(Self.fixed) && !component.contains(Self.published))

        let again = try run(["update"], epoch: Self.year2027)
        #expect(again.code == 0, "\(again.output)\(again.errors)")
        #expect(!again.output.contains("Updated"), "\(again.output)")
    }
}
