/// A split index (`schemaVersion` 3, `blocks build --split-index`), for a registry too
/// large for one `index.json`. `index.json` lists four kinds of files, each named by its
/// SHA-256 under `index/` and listed with that hash and its size:
///
/// - one *dictionary*: the strings and words the blocks use at least twice;
/// - *ranges*: the compact entries (what search, list and the filters read) of the blocks
///   whose names fall in a range of names, stored as columns of dictionary numbers;
/// - *digest files*: each block's metadata file's SHA-256 and size, for a range of names;
/// - the change *feed* (`SplitIndexFeed`): the latest changes, with their entries.
///
/// The dictionary and the cuts between ranges stay fixed for an *epoch*, so a changed block
/// changes one range and one digest file, which a client makes from the feed or fetches
/// again by its new hash; a signature over `index.json` covers every file and, through the
/// digests, every metadata file and archive. Search reads the dictionary and the ranges; a
/// pinned `add` or `info` reads only the digest file that holds a name. docs/SCALE.md has
/// the measurements behind the layout.
/// Schemas: `Schemas/index.schema.json` and `Schemas/index-parts.schema.json`.
public enum SplitIndex {
    /// The `schemaVersion` of a split `index.json` and of each file it lists.
    public static let schemaVersion = 3
    /// How many names an epoch's ranges start with (about 260 kB gzipped each in the
    /// benchmark's catalog).
    static let namesPerRange = 10_000
    /// How many names an epoch's digest files start with.
    static let namesPerDigestFile = 500
    /// The most the dictionary and all ranges together may hold, which every reader checks
    /// before fetching one and `build` before writing: a client holds them decoded at once.
    public static let maximumTotalBytes: Int64 = 4 * RegistryIndex.maximumBytes

    /// The keys of split-index documents, each spelled once.
    enum Key {
        static let epoch = "epoch"
        static let dictionary = "dictionary"
        static let ranges = "ranges"
        static let digestFiles = "digestFiles"
        static let first = "first"
        static let blocks = "blocks"
        static let path = "path"
        static let sha256 = "sha256"
        static let size = "size"
        static let strings = "strings"
        static let metadata = "metadata"
        static let snapshot = "snapshot"
        static let feed = "feed"
    }

    /// One file `index.json` lists: where it is, its SHA-256 and its size.
    public struct FileReference: Sendable, Equatable {
        public var path: String
        public var sha256: String
        public var size: Int64

        public init(path: String, sha256: String, size: Int64) { (self.path, self.sha256, self.size) = (path, sha256, size) }

        /// The file that holds `data`: named by its hash, so it never changes in place.
        init(holding data: Data) {
            sha256 = SHA256.hex(data)
            size = Int64(data.count)
            path = "index/" + sha256 + ".json"
        }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            path = try fields.string(Key.path)
            sha256 = try fields.digest(Key.sha256)
            size = Int64(try fields.int(Key.size))
        }

        var members: [String: JSONValue] { [Key.path: .string(path), Key.sha256: .string(sha256), Key.size: .int(Int(size))] }

        /// The bytes of the file at `path` when they are this file's (its SHA-256), else nil.
        func contents(atPath path: String) -> Data? {
            guard let data = FileManager.default.contents(atPath: path), SHA256.hex(data) == sha256 else { return nil }
            return data
        }

        /// The file as an archive-like file the cache fetches and checks by its hash.
        var asArchive: RegistryArchive { RegistryArchive(path: path, sha256: sha256, size: size) }
    }

    /// A range or digest file: the names from `first` up to the next part's first.
    public struct Part: Sendable, Equatable {
        public var first: String
        public var blocks: Int
        public var file: FileReference

        init(first: String, blocks: Int, file: FileReference) { (self.first, self.blocks, self.file) = (first, blocks, file) }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            self.init(first: try fields.string(Key.first), blocks: try fields.int(Key.blocks), file: try FileReference(fields: fields))
        }

        var jsonValue: JSONValue { .object(file.members.merging([Key.first: .string(first), Key.blocks: .int(blocks)]) { one, _ in one }) }
    }

    /// What a schemaVersion 3 `index.json` lists.
    public struct Layout: Sendable, Equatable {
        public var epoch: Int
        /// Grows by one with every build that changes a part: the change feed's clock.
        public var snapshot: Int
        public var dictionary: FileReference
        public var ranges: [Part]
        public var digestFiles: [Part]
        /// The change feed (`SplitIndexFeed`): the latest changes of this epoch, with
        /// their entries, from which a client that has seen an earlier snapshot derives
        /// the new ranges and digest files instead of fetching them.
        public var feed: FileReference

        init(epoch: Int, snapshot: Int, dictionary: FileReference, ranges: [Part], digestFiles: [Part], feed: FileReference) {
            (self.epoch, self.snapshot, self.dictionary, self.ranges, self.digestFiles, self.feed) = (epoch, snapshot, dictionary, ranges, digestFiles, feed)
        }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            epoch = try fields.int(Key.epoch)
            snapshot = try fields.int(Key.snapshot)
            dictionary = try FileReference(fields: try fields.object(Key.dictionary))
            ranges = try fields.objects(Key.ranges).map { (part) throws(JSONFields.Problem) in try Part(fields: part) }
            digestFiles = try fields.objects(Key.digestFiles).map { (part) throws(JSONFields.Problem) in try Part(fields: part) }
            feed = try FileReference(fields: try fields.object(Key.feed))
        }

        var members: [String: JSONValue] {
            [
                Key.epoch: .int(epoch), Key.snapshot: .int(snapshot), Key.dictionary: .object(dictionary.members),
                Key.ranges: .array(ranges.map(\.jsonValue)), Key.digestFiles: .array(digestFiles.map(\.jsonValue)), Key.feed: .object(feed.members),
            ]
        }

        /// Every file it lists.
        var files: [FileReference] { [dictionary] + ranges.map(\.file) + digestFiles.map(\.file) + [feed] }

        /// Whether both list the same blocks the same way: only the snapshot and the feed
        /// may differ.
        func holdsTheSameParts(as other: Layout) -> Bool {
            epoch == other.epoch && dictionary == other.dictionary && ranges == other.ranges && digestFiles == other.digestFiles
        }

        /// Why a reader refuses it, before fetching anything: a path that is not a file of
        /// `index/`, or more bytes than a client holds.
        var problem: String? {
            if let unsafe = files.first(where: { !SplitIndex.isPartPath($0.path) }) {
                return "part path '\(unsafe.path)' is not a file of the registry's index/ folder"
            }
            if let large = files.first(where: { $0.size > RegistryIndex.maximumBytes || $0.size < 0 }) {
                return "\(large.path) is \(large.size) bytes, over the \(RegistryIndex.maximumBytes) a part may have"
            }
            let total = ([dictionary] + ranges.map(\.file)).reduce(Int64(0)) { $0 + $1.size }
            if total > SplitIndex.maximumTotalBytes {
                return "its dictionary and ranges are \(total) bytes in all, over the \(SplitIndex.maximumTotalBytes) a split index may have"
            }
            return nil
        }

        /// The digest file that holds `name`'s metadata digest, if any does.
        func digestFile(for name: String) -> Part? {
            SplitIndex.part(holding: name, firsts: digestFiles.map(\.first)).map { digestFiles[$0] }
        }
    }

    /// Whether a part's path may be read: `index/<64 hex>.json`, never leaving the registry.
    static func isPartPath(_ path: String) -> Bool {
        guard path.hasPrefix("index/"), path.hasSuffix(".json") else { return false }
        return SHA256.isDigest(String(path.dropFirst("index/".count).dropLast(".json".count)))
    }

    /// The position of the part that holds `name`: the last whose first name is not after
    /// it, or the first part for a name before them all. Nil when there are no parts.
    static func part(holding name: String, firsts: [String]) -> Int? {
        guard !firsts.isEmpty else { return nil }
        var (low, high) = (0, firsts.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if firsts[middle] <= name { low = middle } else { high = middle }
        }
        return low
    }

    /// Sorted names put into parts: cut every `size` names when `firsts` is nil (a new
    /// epoch), else by the epoch's first names. Empty parts are left out, so each part's
    /// `first` is its first name's.
    static func group(_ names: [String], size: Int, firsts: [String]?) -> [Range<Int>] {
        guard !names.isEmpty else { return [] }
        guard let firsts, !firsts.isEmpty else {
            return stride(from: 0, to: names.count, by: size).map { $0..<min($0 + size, names.count) }
        }
        var groups: [Range<Int>] = []
        var start = 0
        var next = 1
        for (position, name) in names.enumerated() where next < firsts.count && name >= firsts[next] {
            if position > start { groups.append(start..<position) }
            start = position
            while next < firsts.count && name >= firsts[next] { next += 1 }
        }
        groups.append(start..<names.count)
        return groups
    }

    /// Removes the files of a registry's `index/` that are not `kept`: parts of older
    /// epochs and builds, and the shards of the experimental schemaVersion 2. `build` and
    /// `mirror` keep the parts of the index.json they replace too, for a client that read
    /// it just before.
    static func removeUnlistedParts(in registry: URL, keeping kept: [FileReference]) {
        let listed = Set(kept.flatMap { [$0.path, $0.path + ".gz"] })
        let folder = registry.appendingPathComponent("index")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !listed.contains("index/" + file) {
            if file.hasSuffix(".json") || file.hasSuffix(".json.gz") { unlink(folder.appendingPathComponent(file).path) }
        }
    }
}
