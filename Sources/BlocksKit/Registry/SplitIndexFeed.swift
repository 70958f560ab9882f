/// The change feed of a split index (`SplitIndex.Layout.feed`): the latest changes of the
/// epoch, each with the snapshot that made it, the block's compact entry (strings written
/// out) and its metadata file's digest, or neither for a removed block.
///
/// A client or mirror that holds the parts of snapshot N, at or after `since`, needs only
/// `index.json` and this file to learn what changed: it applies the changes after N to the
/// ranges and digest files it has and checks the results against the hashes `index.json`
/// lists, so a feed can make nothing a client would not have fetched; anything that does
/// not come out exact is fetched instead. Within an epoch the dictionary and the cuts stay,
/// which is what makes the derived bytes the same as the build's.
///
/// The feed keeps the last `window` changes; `since` says from which snapshot on it is
/// complete. A new epoch starts an empty feed. Schema: `Schemas/index-parts.schema.json`.
struct SplitIndexFeed: Equatable {
    struct Change: Equatable {
        var snapshot: Int
        var name: String
        /// The compact entry and the metadata digest; nil for a removed block.
        var entry: RegistryEntry?
        var metadata: RegistryFileDigest?
    }

    var epoch: Int
    /// Changes after this snapshot are all here.
    var since: Int
    var changes: [Change]

    /// How many changes a feed keeps: about 30 kB gzipped for the benchmark's blocks.
    static let window = 200

    private enum Key {
        static let schemaVersion = "schemaVersion"
        static let epoch = "epoch"
        static let since = "since"
        static let changes = "changes"
        static let snapshot = "snapshot"
        static let name = "name"
        static let entry = "entry"
        static let metadata = "metadata"
    }

    /// The feed after `changes`, trimmed to the window.
    func appending(_ more: [Change]) -> SplitIndexFeed {
        var all = changes + more
        var since = self.since
        if all.count > Self.window {
            since = all[all.count - Self.window - 1].snapshot
            all.removeFirst(all.count - Self.window)
        }
        return SplitIndexFeed(epoch: epoch, since: since, changes: all)
    }

    /// The changes after `snapshot`, or nil when the feed does not reach back that far.
    func changes(after snapshot: Int) -> [Change]? {
        guard snapshot >= since else { return nil }
        return changes.filter { $0.snapshot > snapshot }
    }

    var data: Data {
        let changes: [JSONValue] = changes.map { change in
            var members: [String: JSONValue] = [Key.snapshot: .int(change.snapshot), Key.name: .string(change.name)]
            if let entry = change.entry { members[Key.entry] = SplitIndexColumns.compactValue(entry) }
            if let metadata = change.metadata { members[Key.metadata] = metadata.jsonValue }
            return .object(members)
        }
        return SplitIndexColumns.compact(
            .object([Key.schemaVersion: .int(SplitIndex.schemaVersion), Key.epoch: .int(epoch), Key.since: .int(since), Key.changes: .array(changes)]))
    }

    static func decode(_ data: Data, path: String) throws(RegistryEntryProblem) -> SplitIndexFeed {
        try RegistryEntryProblem.reading(data, path: path) { (fields) throws(JSONFields.Problem) in
            try SplitIndexColumns.checkVersion(fields)
            let changes = try fields.objects(Key.changes).map { (change) throws(JSONFields.Problem) -> Change in
                let name = try change.string(Key.name)
                var entry: RegistryEntry?
                if let members = try change.optionalObject(Key.entry) {
                    entry = try SplitIndexColumns.compactEntry(members)
                    guard entry?.manifest.name == name else { throw .wrongType(change.place(Key.entry)) }
                }
                let metadata = try change.optionalObject(Key.metadata).map { (digest) throws(JSONFields.Problem) in try RegistryFileDigest(fields: digest) }
                guard (entry == nil) == (metadata == nil) else { throw .missing(change.place(entry == nil ? Key.entry : Key.metadata)) }
                return Change(snapshot: try change.int(Key.snapshot), name: name, entry: entry, metadata: metadata)
            }
            return SplitIndexFeed(epoch: try fields.int(Key.epoch), since: try fields.int(Key.since), changes: changes)
        }
    }

    /// Whether the feed of `layout` can bring the parts of `previous` up to it (the same
    /// epoch, an earlier snapshot): asked before the feed is fetched.
    static func canDerive(_ layout: SplitIndex.Layout, from previous: SplitIndex.Layout) -> Bool {
        previous.epoch == layout.epoch && previous.snapshot < layout.snapshot
    }

    /// The `missing` ranges and digest files of `layout` that the feed (`feedData`) makes
    /// from the parts of `previous`, the index a client or mirror holds: a part from the
    /// one of `previous` with the same first name (a digest file from none when it is
    /// new). Only those whose bytes have the hash `layout` lists come back; `read` gives
    /// the bytes of a part at hand, checked, or nil.
    static func derive(
        _ missing: [SplitIndex.Part], of layout: SplitIndex.Layout, from previous: SplitIndex.Layout, feed feedData: Data,
        read: (SplitIndex.FileReference) -> Data?
    ) -> [(SplitIndex.FileReference, Data)] {
        guard canDerive(layout, from: previous), SHA256.hex(feedData) == layout.feed.sha256,
            let feed = try? decode(feedData, path: layout.feed.path), feed.epoch == layout.epoch, let changes = feed.changes(after: previous.snapshot),
            let dictionaryData = read(layout.dictionary), let dictionary = try? SplitIndexColumns.Dictionary.decode(dictionaryData, path: layout.dictionary.path)
        else { return [] }
        var derived: [(SplitIndex.FileReference, Data)] = []
        for part in missing {
            let isRange = layout.ranges.contains(part)
            let parts = isRange ? layout.ranges : layout.digestFiles
            guard let position = parts.firstIndex(of: part) else { continue }
            let firsts = parts.map(\.first)
            let inPart = { (name: String) in SplitIndex.part(holding: name, firsts: firsts) == position }
            let old = (isRange ? previous.ranges : previous.digestFiles).first { $0.first == part.first }.flatMap { read($0.file) }
            let data: Data
            if isRange {
                guard let old, let entries = try? SplitIndexColumns.entries(ofRange: old, path: part.file.path, dictionary: dictionary) else { continue }
                data = range(entries, after: changes, holds: inPart, dictionary: dictionary)
            } else {
                guard let digests = old.map({ try? SplitIndexColumns.digests(ofDigestFile: $0, path: part.file.path) }) ?? [:] else { continue }
                data = digestFile(digests, after: changes, holds: inPart)
            }
            if SHA256.hex(data) == part.file.sha256 { derived.append((part.file, data)) }
        }
        return derived
    }

    /// A range after `changes`: its entries without the changed names, with the new
    /// entries of those that fall in it (`holds`), encoded as a build encodes it.
    private static func range(_ entries: [RegistryEntry], after changes: [Change], holds: (String) -> Bool, dictionary: SplitIndexColumns.Dictionary) -> Data {
        var byName = Dictionary(entries.map { ($0.manifest.name, $0) }, uniquingKeysWith: { _, last in last })
        for change in changes where holds(change.name) { byName[change.name] = change.entry }
        return SplitIndexColumns.range(byName.values.sorted { $0.manifest.name < $1.manifest.name }, dictionary: dictionary)
    }

    /// A digest file after `changes`, likewise.
    private static func digestFile(_ digests: [String: RegistryFileDigest], after changes: [Change], holds: (String) -> Bool) -> Data {
        var digests = digests
        for change in changes where holds(change.name) { digests["blocks/\(change.name).json"] = change.metadata }
        return SplitIndexColumns.digestFile(digests)
    }
}
