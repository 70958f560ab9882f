#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The readers of `index.json` and of the metadata files beside it (`blocks/<name>.json`,
/// with every published version). Clients read the index whole (`RegistryIndex.decode`),
/// the mirror one entry at a time (`MirrorIndexReader`) and then serves the same bytes to
/// clients. Neither crashes; they accept exactly the same indexes with the same entries,
/// except a split index (schemaVersion 3), which only clients read
/// (a mirror must never serve an index its clients refuse, nor refuse one they read),
/// both skipping entries whose name is not a block name; clients keep no control
/// character; the client reader gives what `JSONDecoder` gives; and what is read survives
/// the round trips `build` and `mirror` make (the index, an entry's metadata, a metadata
/// file with its versions, a split index's range, dictionary, digest file and feed).
enum IndexTarget {
    static let target = FuzzTarget(name: "index", run: run)

    static func run(_ data: Data) {
        splitIndexParts(data)
        if let metadata = try? BlockMetadata.decode(data) {
            // `build` writes a metadata file from what it read of the last one.
            FuzzCheck.expect((try? BlockMetadata.decode(metadata.stableJSON)) == metadata, "a round trip of a metadata file through stableJSON changed it")
        }
        let client = try? RegistryIndex.decode(data, location: "fuzz")
        let mirrored = mirrorEntries(data)
        guard let client else {
            if let mirrored { FuzzCheck.fail("the mirror accepts an index with \(mirrored.count) entries that clients refuse") }
            return
        }
        if client.split != nil {
            // A split index: read by clients, not copied by the mirror yet (it says so).
            FuzzCheck.expect(mirrored == nil, "the mirror reads a split index as a list of entries")
            FuzzCheck.expect((try? RegistryIndex.decode(try client.encoded(), location: "fuzz")) == client, "a round trip of a split index changed it")
            return
        }
        guard let mirrored else { FuzzCheck.fail("the mirror refuses an index that clients read") }
        // Both skip an entry whose name is not a block name; the mirror keeps it in the bytes it serves.
        FuzzCheck.expect(mirrored.filter(\.hasValidName) == client.blocks, "the mirror reads other entries than clients")
        for entry in client.blocks {
            FuzzCheck.expect(ManifestValidator.isValidName(entry.manifest.name), "clients keep the entry named \(entry.manifest.name.debugDescription)")
            FuzzCheck.expect(ManifestValidator.controlCharacters(in: entry.jsonValue).isEmpty, "clients keep a control character in \(entry.manifest.name)")
        }
        if var decoded = try? JSONDecoder().decode(RegistryIndex.self, from: data) {
            decoded.blocks.removeAll { !$0.hasValidName }
            FuzzCheck.expect(decoded == client, "JSONDecoder reads another index than the reader")
        } else {
            FuzzCheck.fail("JSONDecoder refuses an index the reader accepts")
        }
        let written: Data
        do {
            written = try client.encoded()
        } catch {
            FuzzCheck.fail("an index that was read cannot be written: \(error)")
        }
        FuzzCheck.expect((try? RegistryIndex.decode(written, location: "fuzz")) == client, "a round trip through encoded() changed the index")
        for entry in client.blocks {
            FuzzCheck.expect((try? RegistryEntry.decode(metadata: entry.stableJSON)) == entry,
                             "a round trip of \(entry.manifest.name)'s metadata through stableJSON changed it")
        }
    }

    /// What a first search makes of a range straight from its columns is what its entries
    /// give: the same words in the same order, the same postings and the same rows.
    static func searchSliceMatchesEntries(_ columns: RangeColumns) {
        let order = columns.nameOrder().order
        let slice = SearchIndexSlice(columns, order: order)
        let entries = order.map(columns.entry)
        var expected = JoinedPostings()
        for (number, entry) in entries.enumerated() {
            InMemorySearchCorpus.addPostings(
                of: [SearchableBlock(manifest: entry.manifest, codeNames: entry.codeNames)], numberedFrom: number, to: &expected)
        }
        FuzzCheck.expect(slice.names == entries.map(\.manifest.name), "a range's search slice names other blocks")
        FuzzCheck.expect(slice.words.strings == expected.words && slice.lists.lists == expected.lists, "a range's search slice has other words")
        FuzzCheck.expect(slice.rows == entries.map { SearchIndexRow($0.manifest) }, "a range's search slice has other rows")
    }

    /// A range the stream takes is one the fields reader takes too, with the same entries.
    static func rangeStreamMatchesFields(_ data: Data, dictionary: SplitIndexColumns.Dictionary) {
        guard let streamed = RangeColumns.streamed(data, dictionary: dictionary) else { return }
        let checked = try? RangeColumns(checking: data, path: "index/range.json", dictionary: dictionary)
        FuzzCheck.expect(checked != nil, "the stream took a range the fields reader refuses")
        guard let checked else { return }
        FuzzCheck.expect(
            (0..<streamed.count).map(streamed.entry) == (0..<checked.count).map(checked.entry), "the stream read a range's entries otherwise")
    }

    /// A split index's parts: what a client reads of a range, through an empty dictionary
    /// and through one of its own strings, survives the round trip `build` makes (a range
    /// written under a new epoch's dictionary); a dictionary and a digest file likewise.
    static func splitIndexParts(_ data: Data) {
        for dictionary in [SplitIndexColumns.Dictionary(strings: []), SplitIndexColumns.Dictionary(strings: ["tabs", "1.0.0", "A"])] {
            rangeStreamMatchesFields(data, dictionary: dictionary)
            guard let entries = try? SplitIndexColumns.entries(ofRange: data, path: "index/range.json", dictionary: dictionary) else { continue }
            for entry in entries {
                FuzzCheck.expect(ManifestValidator.controlCharacters(in: entry.manifest.jsonValue).isEmpty, "a range keeps a control character")
            }
            let epoch = SplitIndexColumns.Dictionary(for: entries)
            let again = try? SplitIndexColumns.entries(ofRange: SplitIndexColumns.range(entries, dictionary: epoch), path: "again", dictionary: epoch)
            FuzzCheck.expect(again == entries, "a round trip of a range through a new dictionary changed it")
            if let columns = try? RangeColumns(data, path: "index/range.json", dictionary: dictionary) { searchSliceMatchesEntries(columns) }
        }
        if let dictionary = try? SplitIndexColumns.Dictionary.decode(data, path: "dictionary") {
            FuzzCheck.expect((try? SplitIndexColumns.Dictionary.decode(dictionary.data, path: "again"))?.strings == dictionary.strings, "a round trip of a dictionary changed it")
        }
        if let feed = try? SplitIndexFeed.decode(data, path: "feed") {
            // A build writes the next feed from the one it read.
            FuzzCheck.expect((try? SplitIndexFeed.decode(feed.data, path: "again")) == feed, "a round trip of a feed changed it")
            for change in feed.changes {
                FuzzCheck.expect(ManifestValidator.controlCharacters(in: change.entry?.manifest.jsonValue ?? .null).isEmpty, "a feed keeps a control character")
            }
        }
        if let digests = try? SplitIndexColumns.digests(ofDigestFile: data, path: "digests") {
            FuzzCheck.expect((try? SplitIndexColumns.digests(ofDigestFile: SplitIndexColumns.digestFile(digests), path: "again")) == digests, "a round trip of a digest file changed it")
        }
    }

    /// The entries as `mirror` reads them, with the check `MirrorPlan.read` adds (archive
    /// paths, of the entries it does not skip for their name); nil where it would stop.
    static func mirrorEntries(_ data: Data) -> [RegistryEntry]? {
        guard let (_, ranges) = try? MirrorIndexReader.scan(data, location: "fuzz") else { return nil }
        var entries: [RegistryEntry] = []
        for (position, range) in ranges.enumerated() {
            guard let entry = try? MirrorIndexReader.entry(from: data, range: range, position: position, location: "fuzz") else { return nil }
            if entry.hasValidName && !entry.archives.values.allSatisfy({ RelativePath.isSafe($0.path) }) { return nil }
            entries.append(entry)
        }
        return entries
    }
}
