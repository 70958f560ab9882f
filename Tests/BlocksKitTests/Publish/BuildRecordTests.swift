import Foundation
import Testing

@testable import BlocksKit

/// A rebuild skips, unread, the blocks whose catalog folder and published files are as the
/// last build recorded them (`BuildRecord`), and writes byte for byte what a rebuild that
/// reads every block writes: for a whole index and a split one, after a change, an added
/// block and a removed one.
@Suite struct BuildRecordTests {
    /// Two outputs built from one catalog: `recorded` keeps a build record, `reading` reads
    /// every block each time. `loaded` is what each build asked the catalog for.
    final class Pair: @unchecked Sendable {
        let folder: TemporaryFolder
        let catalog: TestCatalog
        let split: Bool
        private let lock = Lock()
        private var asked: [String] = []

        init(split: Bool, blocks: [TestCatalog.Block]) throws {
            folder = try TemporaryFolder("build-record")
            catalog = try TestCatalog.make(blocks)
            self.split = split
        }

        var recorded: URL { folder.path("recorded") }
        var reading: URL { folder.path("reading") }
        var recordFile: URL { folder.path("cache/record") }

        func builder(_ output: URL, record: Bool) -> RegistryBuilder {
            var builder = RegistryBuilder(output: output, packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
            builder.splitIndex = split
            builder.splitSizes = (range: 2, digestFile: 1)
            builder.recordFile = record ? recordFile : nil
            return builder
        }

        /// The catalog's blocks, fingerprinted as `blocks build` does but with the clock an
        /// hour ahead, so files written a moment ago count as settled.
        func batches() throws -> BlockBatches {
            let source = CatalogSource.folder(catalog.root)
            let cutoff = Int64((Date().timeIntervalSince1970 + 3_600) * 1_000_000_000)
            let root = catalog.root.path
            return BlockBatches(
                names: try source.blockNames(), batchSize: 2, fingerprint: { SearchFingerprint.tree(at: root + "/" + $0, changedBefore: cutoff) },
                load: { [self] names in
                    lock.withLock { asked += names }
                    return try source.contents(of: names)
                })
        }

        /// Builds both outputs; returns the names the recorded build read.
        @discardableResult
        func build() throws -> [String] {
            _ = try builder(reading, record: false).build(try batches())
            lock.withLock { asked = [] }
            _ = try builder(recorded, record: true).build(try batches())
            return lock.withLock { asked }
        }

        func expectSameOutputs(_ comment: Comment) {
            let (one, other) = (fileContents(under: recorded), fileContents(under: reading))
            #expect(one.keys.sorted() == other.keys.sorted(), comment)
            for (path, data) in one where other[path] != data { Issue.record("\(path) differs: \(comment)") }
        }

        /// The counts the record keeps, and those of a full count of the recorded output's ranges.
        func counts() throws -> (recorded: [String: Int]?, full: [String: Int]) {
            let indexFile = recorded.appendingPathComponent("index.json")
            let record = BuildRecord.read(recordFile, index: SearchFingerprint.file(at: indexFile.path))
            let layout = try #require(try RegistryIndex.decode(try Data(contentsOf: indexFile), location: "test").split)
            func part(_ reference: SplitIndex.FileReference) throws -> Data { try Data(contentsOf: recorded.appendingPathComponent(reference.path)) }
            let dictionary = try SplitIndexColumns.Dictionary.decode(try part(layout.dictionary), path: "dictionary")
            var counter = SplitIndexColumns.Dictionary.Counter()
            for range in layout.ranges {
                for entry in try SplitIndexColumns.entries(ofRange: try part(range.file), path: "range", dictionary: dictionary) { counter.add(entry) }
            }
            return (record.counts?.mapValues(\.count), counter.counts.mapValues(\.count))
        }

        func cleanUp() {
            catalog.delete()
            folder.cleanUp()
        }
    }

    static let names = ["a-tabs", "b-tabs", "c-tabs", "d-tabs", "e-tabs"]

    @Test(arguments: [false, true])
    func aRebuildReadsOnlyWhatChangedAndWritesWhatAFullRebuildWrites(split: Bool) throws {
        let pair = try Pair(split: split, blocks: Self.names.map { .standard($0, type: "T") })
        defer { pair.cleanUp() }
        #expect(try pair.build() == Self.names, "a fresh build reads every block")
        #expect(try pair.build() == [], "nothing changed: nothing is read")
        pair.expectSameOutputs("unchanged")

        try pair.catalog.put(.standard("d-tabs", type: "T", version: "1.0.1"))
        #expect(try pair.build() == ["d-tabs"])
        pair.expectSameOutputs("one block changed")

        try pair.catalog.put(.standard("b-more", type: "More"))
        #expect(try pair.build() == ["b-more"])
        pair.expectSameOutputs("one block added")

        try FileManager.default.removeItem(at: pair.catalog.root.appendingPathComponent("c-tabs"))
        #expect(try pair.build() == [])
        pair.expectSameOutputs("one block removed")
        if split {
            // The counts carried from build to build are those of a full count.
            let counts = try pair.counts()
            #expect(counts.recorded == counts.full && counts.full["1.0.1"] == 1 && counts.full["More"] == 1)
        }

        // Most strings change at once: a split index starts a new epoch, as it does reading all.
        for name in Self.names where name != "c-tabs" { try pair.catalog.put(.standard(name, type: "Carousel", version: "2.0.0", platforms: ["macOS": "15.0"])) }
        #expect(try pair.build().count == 4)
        pair.expectSameOutputs("a new epoch")
        if split {
            let index = try RegistryIndex.decode(try Data(contentsOf: pair.recorded.appendingPathComponent("index.json")), location: "test")
            #expect(index.split?.epoch == 2)
        }
    }

    /// `blocks build` keeps its record in the cache, one per output folder, and a rebuild
    /// reports what it kept and what it wrote. The catalog is left to settle two seconds
    /// first: files changed since are read again whatever the record says.
    @Test func blocksBuildKeepsItsRecordInTheCache() throws {
        let folder = try TemporaryFolder("build-record-cli")
        defer { folder.cleanUp() }
        let catalog = try TestCatalog.make(["a-tabs", "b-tabs", "c-tabs"].map { .standard($0, type: "T") })
        defer { catalog.delete() }
        Thread.sleep(forTimeInterval: 2.1)
        let output = folder.path("registry")
        let environment = ["XDG_CACHE_HOME": folder.path("cache").path, "SOURCE_DATE_EPOCH": "1790000000"]
        func build() throws -> (written: [String], unchanged: [String]) {
            let result = try runBinary(["build", "--catalog", catalog.root.path, "--out", output.path, "--split-index", "--json"], environment: environment)
            #expect(result.code == 0, "\(result.err)")
            let object = try JSONReader.parse(Data(result.out.utf8)).object
            return ((object?["written"]?.array ?? []).compactMap(\.string), (object?["unchanged"]?.array ?? []).compactMap(\.string))
        }
        #expect(try build().written.count == 3)
        let recordFile = BuildRecord.file(for: output, cacheDirectory: folder.path("cache/blocks"))
        let record = BuildRecord.read(recordFile, index: SearchFingerprint.file(at: output.appendingPathComponent("index.json").path))
        #expect(record.blocks.keys.sorted() == ["a-tabs", "b-tabs", "c-tabs"] && record.counts?.isEmpty == false)
        #expect(try build().unchanged == ["a-tabs", "b-tabs", "c-tabs"])
        try catalog.put(.standard("b-tabs", type: "T", version: "1.1.0"))
        let changed = try build()
        #expect(changed.written == ["b-tabs"] && changed.unchanged == ["a-tabs", "c-tabs"])
        // Written just now, the changed block is left out of the record until it settles.
        let after = BuildRecord.read(recordFile, index: SearchFingerprint.file(at: output.appendingPathComponent("index.json").path))
        #expect(after.blocks.keys.sorted() == ["a-tabs", "c-tabs"])
    }

    /// What a skipped block's fingerprint covers: a deleted archive, a source edited to the
    /// same size with its modification time put back, and a hand-edited index.json are
    /// each read again, and the registry comes out whole.
    @Test func aDamagedOutputOrAQuietEditIsReadAgain() throws {
        let pair = try Pair(split: true, blocks: Self.names.map { .standard($0, type: "T") })
        defer { pair.cleanUp() }
        try pair.build()
        let archive = pair.recorded.appendingPathComponent("archives/b-tabs-1.0.0.zip")
        let bytes = try Data(contentsOf: archive)
        try FileManager.default.removeItem(at: archive)
        #expect(try pair.build() == ["b-tabs"])
        #expect(try Data(contentsOf: archive) == bytes)

        // Same size, same modification time: the change time and inode still tell.
        let logic = pair.catalog.root.appendingPathComponent("c-tabs/TLogic.swift")
        let original = try Data(contentsOf: logic)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: logic.path)[.modificationDate] as? Date)
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "1.0.0", with: "9.9.9").utf8).write(to: logic)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: logic.path)
        #expect(throws: RegistryError.publishedVersionChanged(block: "c-tabs", version: "1.0.0")) { try pair.build() }
        try original.write(to: logic)

        let index = pair.recorded.appendingPathComponent("index.json")
        try (try Data(contentsOf: index) + Data("\n".utf8)).write(to: index)
        #expect(try pair.build() == Self.names, "an index.json the record does not know: every block is read")
        pair.expectSameOutputs("after repairs")
    }

    /// A folder's fingerprint follows each file's path, size and times, and there is none
    /// while a file changed at or after the cutoff.
    @Test func aFolderFingerprintFollowsItsFilesAndWaitsForThemToSettle() throws {
        let folder = try TemporaryFolder("tree")
        defer { folder.cleanUp() }
        try folder.write("block/block.json", "{}")
        try folder.write("block/Sources/View.swift", "struct V {}")
        let path = folder.path("block").path
        let later = Int64((Date().timeIntervalSince1970 + 3_600) * 1_000_000_000)
        let first = try #require(SearchFingerprint.tree(at: path, changedBefore: later))
        #expect(SearchFingerprint.tree(at: path, changedBefore: later) == first)
        #expect(SearchFingerprint.tree(at: path, changedBefore: Int64(Date().timeIntervalSince1970 - 60) * 1_000_000_000) == nil)
        try folder.write("block/Sources/Other.swift", "")
        let second = try #require(SearchFingerprint.tree(at: path, changedBefore: later))
        #expect(second != first)
        try FileManager.default.moveItem(at: folder.path("block/Sources/Other.swift"), to: folder.path("block/Sources/Renamed.swift"))
        #expect(SearchFingerprint.tree(at: path, changedBefore: later) != second)
        #expect(SearchFingerprint.tree(at: folder.path("missing").path, changedBefore: later) == nil)
    }

    /// The record reads back what was written, and nothing from another tool version, for
    /// another index.json, or cut short.
    @Test func theRecordReadsBackOnlyWhole() throws {
        let folder = try TemporaryFolder("record")
        defer { folder.cleanUp() }
        let blocks: [(name: String, block: BuildRecord.Block)] = [
            ("b-tabs", .init(version: "2.0.0", fingerprint: .init(first: 1 << 63 | 5, second: 0xFFFF_FFFF))), ("a-tabs", .init(version: "1.0.0", fingerprint: .init(first: 7, second: 1 << 40))),
        ]
        let file = folder.path("builds/record")
        try BuildRecord.write(blocks, index: "file-1", counts: ["1.0.0": (3, 0), "tabs\twith\ntab": (1, 1)], to: file)
        let read = BuildRecord.read(file, index: "file-1")
        #expect(read.blocks == Dictionary(uniqueKeysWithValues: blocks.map { ($0.name, $0.block) }) && read.index == "file-1")
        #expect(read.counts?.mapValues { [$0.count, $0.first] } == ["1.0.0": [3, 0], "tabs\twith\ntab": [1, 1]])
        #expect(BuildRecord.read(file, index: "file-2").blocks.isEmpty)
        let bytes = try Data(contentsOf: file)
        try bytes.dropLast(3).write(to: file)
        #expect(BuildRecord.read(file, index: "file-1").blocks.isEmpty)
        try Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "record 3", with: "record 2").utf8).write(to: file)
        #expect(BuildRecord.read(file, index: "file-1").blocks.isEmpty)
    }
}
