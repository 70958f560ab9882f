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
        #expect(batches.batchSize == 512)
        #expect(Array(asked.joined()) == names)
    }

    /// A broken block in a later batch fails a build into an existing registry with every
    /// metadata file and index.json as they were: the changed blocks of the batches before
    /// were staged, not written in place.
    @Test func aBrokenBlockInALaterBatchLeavesTheRegistryAsItWas() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.path("registry")
        let catalog = try TestCatalog.make([.standard("a-tabs", type: "A"), .standard("b-tabs", type: "B")])
        defer { catalog.delete() }
        let source = CatalogSource.folder(catalog.root)
        let builder = RegistryBuilder(output: output, packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        _ = try builder.build(BlockBatches(names: ["a-tabs", "b-tabs"], batchSize: 1, load: source.contents(of:)))
        let before = fileContents(under: output)

        try catalog.put(.standard("a-tabs", type: "A", version: "1.1.0"))
        try FileManager.default.removeItem(at: catalog.root.appendingPathComponent("b-tabs/BLogic.swift"))
        #expect(throws: RegistryError.missingFile(block: "b-tabs", path: "BLogic.swift")) {
            try builder.build(BlockBatches(names: ["a-tabs", "b-tabs"], batchSize: 1, load: source.contents(of:)))
        }
        let after = fileContents(under: output)
        for path in before.keys { #expect(after[path] == before[path], "\(path)") }
        // Only the new version's archives are new: immutable files nothing names yet.
        #expect(Set(after.keys).subtracting(before.keys).sorted() == ["archives/a-tabs-1.1.0.tar.gz", "archives/a-tabs-1.1.0.zip"])
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
