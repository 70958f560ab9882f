import Foundation
import Testing

@testable import BlocksKit

/// A build reads its catalog a batch at a time, and keeps of each block of a split index
/// only what the ranges hold.
@Suite struct BlockBatchesTests {
    @Test func theCatalogIsLoadedInBatchesInOrder() throws {
        let names = (0..<1_100).map { "block-\($0)" }
        var asked: [[String]] = []
        let batches = BlockBatches(names: names) { batch in
            asked.append(batch)
            return []
        }
        try batches.forEachBatch { _ in }
        #expect(asked.map(\.count) == [512, 512, 76])
        #expect(Array(asked.joined()) == names)
    }

    /// The check a build makes of the whole catalog first throws what reading it would.
    @Test func checkingTheCatalogThrowsWhatReadingItWould() throws {
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
        defer { catalog.delete() }
        let source = CatalogSource.folder(catalog.root)
        try source.check(["pager", "strip"])
        // A listed file that is gone, then one that is a folder.
        let logic = catalog.root.appendingPathComponent("strip/StripLogic.swift")
        try FileManager.default.removeItem(at: logic)
        for _ in 0..<2 {
            let expected = RegistryError.missingFile(block: "strip", path: "StripLogic.swift")
            #expect(throws: expected) { try source.contents(of: ["pager", "strip"]) }
            #expect(throws: expected) { try source.check(["pager", "strip"]) }
            try FileManager.default.createDirectory(at: logic, withIntermediateDirectories: true)
        }
        #expect(throws: RegistryError.self) { try source.check(["pager", "nothing-here"]) }
    }

    @Test func aSplitIndexBuildKeepsOnlyTheSearchFieldsOfEachBlock() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer { catalog.delete() }
        let source = CatalogSource.folder(catalog.root)
        var builder = RegistryBuilder(output: folder.path("registry"), packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        let published = try builder.publish(try source.contents(of: ["strip"])[0], previous: nil)
        #expect(builder.kept(published).entry == published.entry, "a whole index keeps the entry")
        builder.splitIndex = true
        let kept = builder.kept(published)
        // The name and the metadata path, and the compact entry as bytes.
        #expect(kept.entry.manifest.name == "strip" && kept.entry.metadata == "blocks/strip.json" && kept.fragment.isEmpty)
        #expect(kept.entry.manifest.files.isEmpty && kept.entry.manifest.title.isEmpty && kept.entry.codeNames.isEmpty)
        let compact = try #require(kept.compact)
        let entry = try RegistryEntryProblem.reading(compact) { (fields) throws(JSONFields.Problem) in try SplitIndexColumns.compactEntry(fields) }
        #expect(entry.manifest.searchMembers == published.entry.manifest.searchMembers && entry.codeNames == published.entry.codeNames)
        #expect(entry.manifest.files.isEmpty && entry.archives.isEmpty)
        #expect(!published.entry.manifest.files.isEmpty && !published.fragment.isEmpty && published.compact == nil)
    }
}
