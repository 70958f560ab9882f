#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The readers of `index.json` and of the metadata files beside it (`blocks/<name>.json`,
/// with every published version). Clients read the index whole (`RegistryIndex.decode`),
/// the mirror one entry at a time (`MirrorIndexReader`) and then serves the same bytes to
/// clients. Neither crashes; they accept exactly the same indexes with the same entries,
/// except a split index (schemaVersion 2), which only clients read
/// (a mirror must never serve an index its clients refuse, nor refuse one they read),
/// both skipping entries whose name is not a block name; clients keep no control
/// character; the client reader gives what `JSONDecoder` gives; and what is read survives
/// the round trips `build` and `mirror` make (the index, an entry's metadata, a metadata
/// file with its versions, a split index's shard).
enum IndexTarget {
    static let target = FuzzTarget(name: "index", run: run)

    static func run(_ data: Data) {
        if let shard = try? SplitIndex.decodeShard(data, path: "index/shard-00.json", location: "fuzz") {
            // `build --split-index` writes a shard from the entries it read of the last one.
            let again = SplitIndex.shards(shard).map { try? SplitIndex.decodeShard($0.data, path: $0.reference.path, location: "fuzz") }
            let entries = again.compactMap { $0 }.flatMap { $0 }
            FuzzCheck.expect(again.allSatisfy { $0 != nil }, "a shard written from a shard that was read cannot be read")
            FuzzCheck.expect(
                entries.sorted { $0.entry.manifest.name < $1.entry.manifest.name }.map(\.entry.manifest.name)
                    == shard.map(\.entry.manifest.name).sorted(), "a round trip of a shard lost or added entries")
        }
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
        if client.shards != nil {
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
