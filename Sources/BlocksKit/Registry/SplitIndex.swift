/// A split index (`schemaVersion` 2, `blocks build --split-index`): `index.json` lists
/// the shards with their SHA-256, and each shard holds the compact entries of the blocks
/// whose names fall in it. A compact entry holds what search, list and the filters read,
/// and its metadata file's hash; everything else stays in `blocks/<name>.json`.
///
/// So the file a client checks for news stays small however many blocks there are, a
/// changed block changes one shard (which a client fetches again by its new hash) and one
/// signature over `index.json` covers every shard and, through their hashes, every
/// metadata file and archive. docs/SCALE.md has the figures behind the layout.
/// Schemas: `Schemas/index.schema.json` (both versions) and `Schemas/index-shard.schema.json`.
public enum SplitIndex {
    /// The `schemaVersion` of a split `index.json`.
    public static let schemaVersion = 2
    /// How many shards a build writes; each name's shard is fixed by its hash, so the
    /// files stay the same as blocks come and go.
    public static let shardCount = 64
    /// The most all shards together may hold, which every reader checks before fetching
    /// one and `build` before writing: four times a whole index's cap, since a client
    /// holds them decoded at once. 100,000 blocks of the benchmark's catalog take 107 MB.
    public static let maximumTotalBytes: Int64 = 4 * RegistryIndex.maximumBytes

    /// The keys of shard references and compact entries, each spelled once.
    enum Key {
        static let shards = "shards"
        static let path = "path"
        static let sha256 = "sha256"
        static let size = "size"
        static let blocks = "blocks"
        static let metadataSHA256 = "metadataSHA256"
        static let metadataSize = "metadataSize"
    }

    /// The shard that holds `name`: the first two bytes of its SHA-256, modulo `shardCount`.
    static func shard(for name: String) -> Int {
        (Int(SHA256.hex(name).prefix(4), radix: 16) ?? 0) % shardCount
    }

    static func shardPath(_ shard: Int) -> String {
        "index/shard-" + (shard < 10 ? "0" : "") + String(shard) + ".json"
    }

    /// One shard as `index.json` lists it.
    public struct ShardReference: Sendable, Equatable {
        public var path: String
        public var sha256: String
        public var size: Int64
        /// How many blocks it holds.
        public var blocks: Int

        init(path: String, data: Data, blocks: Int) {
            self.init(path: path, sha256: SHA256.hex(data), size: Int64(data.count), blocks: blocks)
        }

        init(path: String, sha256: String, size: Int64, blocks: Int) {
            (self.path, self.sha256, self.size, self.blocks) = (path, sha256, size, blocks)
        }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            self.init(
                path: try fields.string(Key.path), sha256: try fields.digest(Key.sha256), size: Int64(try fields.int(Key.size)),
                blocks: try fields.int(Key.blocks))
        }

        var jsonValue: JSONValue {
            .object([Key.path: .string(path), Key.sha256: .string(sha256), Key.size: .int(Int(size)), Key.blocks: .int(blocks)])
        }

        /// The shard as an archive-like file the cache fetches and checks by its hash.
        var asArchive: RegistryArchive { RegistryArchive(path: path, sha256: sha256, size: size) }
    }

    /// A compact entry: the manifest's search fields, the code names, and where the
    /// metadata file is with its hash and size.
    static func compactJSON(_ entry: RegistryEntry, metadata: RegistryFileDigest) -> JSONValue {
        var members = entry.manifest.searchMembers
        members[RegistryEntry.Key.metadata] = .string(entry.metadata)
        members[Key.metadataSHA256] = .string(metadata.sha256)
        members[Key.metadataSize] = .int(Int(metadata.size))
        if !entry.codeNames.isEmpty { members[RegistryEntry.Key.codeNames] = JSONFields.jsonArray(entry.codeNames) }
        return .object(members)
    }

    /// A compact entry read back: a `RegistryEntry` whose manifest holds the search fields
    /// only (no files, API or archives: those come from the metadata file), and the
    /// metadata file's digest.
    static func entry(fields: JSONFields) throws(JSONFields.Problem) -> (entry: RegistryEntry, metadata: RegistryFileDigest) {
        let manifest = try BlockManifest(searchFields: fields)
        let entry = RegistryEntry(
            manifest: manifest, metadata: try fields.string(RegistryEntry.Key.metadata), sourceSHA256: "", archives: [:],
            codeNames: try fields.optionalStrings(RegistryEntry.Key.codeNames) ?? [])
        let digest = RegistryFileDigest(sha256: try fields.digest(Key.metadataSHA256), size: Int64(try fields.int(Key.metadataSize)))
        return (entry, digest)
    }

    /// The shards' files, by path, with the references `index.json` lists: every shard,
    /// an empty one included, so a name's shard is always there to fetch.
    static func shards(_ entries: [(entry: RegistryEntry, metadata: RegistryFileDigest)]) -> [(reference: ShardReference, data: Data)] {
        var byShard = [[JSONValue]](repeating: [], count: shardCount)
        for (entry, metadata) in entries.sorted(by: { $0.entry.manifest.name < $1.entry.manifest.name }) {
            byShard[shard(for: entry.manifest.name)].append(compactJSON(entry, metadata: metadata))
        }
        return byShard.enumerated().map { number, blocks in
            let data = StableJSON.data(.object([Key.blocks: .array(blocks)]))
            return (ShardReference(path: shardPath(number), data: data, blocks: blocks.count), data)
        }
    }

    /// The entries of one shard's bytes, or why they are not a shard.
    static func decodeShard(_ data: Data, path: String, location: String) throws -> [(entry: RegistryEntry, metadata: RegistryFileDigest)] {
        do throws(RegistryEntryProblem) {
            return try RegistryEntryProblem.reading(data, path: path) { (fields) throws(JSONFields.Problem) in
                try fields.objects(Key.blocks).map { (entry) throws(JSONFields.Problem) in try Self.entry(fields: entry) }
            }
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: "\(path): \(error.reason)")
        }
    }

    /// Whether a shard path from an index may be read: inside `index/`, never leaving the registry.
    static func isShardPath(_ path: String) -> Bool {
        path.hasPrefix("index/") && path.hasSuffix(".json") && RelativePath.isSafe(path)
    }
}
