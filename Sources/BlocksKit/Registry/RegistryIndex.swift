/// `index.json` at a registry's root. In schemaVersion 1, every block's newest version
/// with its archives: everything a search needs, so a remote registry costs one request
/// before any archive is fetched. In schemaVersion 3 (`SplitIndex`), the list of the
/// files that hold the blocks' compact entries, read into `blocks` by the source.
/// Schema: `Schemas/index.schema.json`.
public struct RegistryIndex: Sendable, Equatable {
    /// The index's keys, each spelled once: `read` and `jsonValue` are its one reading and
    /// one writing description.
    enum Key {
        static let schemaVersion = "schemaVersion"
        static let blocks = "blocks"
        static let version = "version"
        static let expires = "expires"
        static let metadata = "metadata"
        static let nextKey = "nextKey"
    }

    public static let currentSchemaVersion = 1
    /// The largest `index.json` any reader takes: clients, the mirror (which would
    /// otherwise keep an index its own clients refuse) and folder registries alike. About
    /// 30,000 blocks of typical metadata.
    public static let maximumBytes: Int64 = 64 * 1024 * 1024

    public var schemaVersion: Int
    public var blocks: [RegistryEntry]
    /// A signed index's number, which grows with every build that changes it (rollback).
    public var version: Int?
    /// When a signed index stops being accepted, RFC 3339 in UTC (freeze).
    public var expires: String?
    /// The SHA-256 and size of every `blocks/<name>.json`, by path, in a signed index: one
    /// signature then covers the metadata and, through their hashes, every archive.
    public var metadata: [String: RegistryFileDigest]?
    /// The public key a signed registry will be signed with next (`build --next-key`), so
    /// clients can pin it before the publisher rotates.
    public var nextKey: String?
    /// A split index's files (`SplitIndex`, schemaVersion 3), whose entries `blocks` then
    /// holds once the source has read them; nil in a schemaVersion 1 index.
    public var split: SplitIndex.Layout?

    public init(blocks: [RegistryEntry]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.blocks = blocks.sorted { $0.manifest.name < $1.manifest.name }
    }

    public func entry(named name: String) -> RegistryEntry? { blocks.first { $0.manifest.name == name } }

    /// Decodes and checks an index, naming the problem when it is broken. Entries whose
    /// name is not a block name (`../../x`) are dropped, each passed to `dropped`: a name
    /// becomes a folder and a file name, so no reader may ever act on one.
    public static func decode(_ data: Data, location: String, dropped: (String) -> Void = { _ in }) throws -> RegistryIndex {
        var index: RegistryIndex
        do {
            index = try read(data)
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: error.reason)
        }
        if index.schemaVersion == 2 {
            throw RegistryError.invalidIndex(
                location: location, reason: "schemaVersion 2 was the experimental split index of an earlier blocks; its publisher should build it again with this one")
        }
        guard index.schemaVersion == currentSchemaVersion || index.schemaVersion == SplitIndex.schemaVersion else {
            throw RegistryError.invalidIndex(location: location, reason: "schemaVersion \(index.schemaVersion) is not supported; upgrade blocks")
        }
        if let problem = index.split?.problem { throw RegistryError.invalidIndex(location: location, reason: problem) }
        if index.split != nil, !index.blocks.isEmpty {
            throw RegistryError.invalidIndex(location: location, reason: "a split index lists its blocks in its ranges, not in blocks")
        }
        index.blocks.removeAll { entry in
            guard !entry.hasValidName else { return false }
            dropped(entry.manifest.name)
            return true
        }
        for entry in index.blocks {
            for archive in entry.archives.values where !RelativePath.isSafe(archive.path) {
                throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
            }
        }
        return index
    }

    /// The index through `JSONReader` (tests hold it to a `Codable` oracle). Blocks keep
    /// the index's order.
    static func read(_ data: Data) throws(RegistryEntryProblem) -> RegistryIndex {
        try RegistryEntryProblem.reading(data) { (fields) throws(JSONFields.Problem) in try RegistryIndex(fields: fields) }
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        self.init(blocks: [])
        schemaVersion = try fields.int(Key.schemaVersion)
        // Another version's members are not read: `decode` names the version instead.
        guard schemaVersion == Self.currentSchemaVersion || schemaVersion == SplitIndex.schemaVersion else { return }
        // A split index holds an empty `blocks`, so that clients before it read this far
        // and then say to upgrade.
        blocks = try fields.objects(Key.blocks).map { (entry) throws(JSONFields.Problem) in try RegistryEntry(fields: entry) }
        if schemaVersion == SplitIndex.schemaVersion { split = try SplitIndex.Layout(fields: fields) }
        if fields.members[Key.version] != nil { version = try fields.int(Key.version) }
        expires = try fields.optionalString(Key.expires)
        nextKey = try fields.optionalString(Key.nextKey)
        if fields.members[Key.metadata] != nil {
            var digests: [String: RegistryFileDigest] = [:]
            let files = try fields.object(Key.metadata)
            for path in files.members.keys { digests[path] = try RegistryFileDigest(fields: try files.object(path)) }
            metadata = digests
        }
    }

    /// The index as `JSONValue`: absent optional fields are left out.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [Key.schemaVersion: .int(schemaVersion), Key.blocks: .array(blocks.map(\.jsonValue))]
        if let split { members.merge(split.members) { one, _ in one } }
        if let version { members[Key.version] = .int(version) }
        if let expires { members[Key.expires] = .string(expires) }
        if let metadata { members[Key.metadata] = RegistryFileDigest.jsonValue(metadata) }
        if let nextKey { members[Key.nextKey] = .string(nextKey) }
        return .object(members)
    }

    /// The bytes written to disk: sorted keys and a final newline, so rebuilds diff cleanly.
    public func encoded() throws -> Data {
        StableJSON.data(jsonValue)
    }

    /// The same bytes as `RegistryIndex(blocks:).encoded()`, put together from each
    /// entry's `fragment`, which a build makes on every core from the metadata file's
    /// bytes. Encoding 10,000 entries again was the longest step on one core.
    static func encoded(_ entries: [(entry: RegistryEntry, fragment: Data)], signed: SignedFields? = nil) throws -> Data {
        guard !entries.isEmpty else {
            var index = RegistryIndex(blocks: [])
            signed?.apply(to: &index)
            return try index.encoded()
        }
        let sorted = entries.sorted { $0.entry.manifest.name < $1.entry.manifest.name }
        var output = Data("{\n  \"\(Key.blocks)\" : [\n".utf8)
        output.reserveCapacity(sorted.reduce(64) { $0 + $1.fragment.count + 2 })
        for (position, item) in sorted.enumerated() {
            if position > 0 { output.append(contentsOf: Array(",\n".utf8)) }
            output.append(item.fragment)
        }
        output.append(contentsOf: Array("\n  ],\n".utf8))
        if let signed {
            output.append(signed.members([Key.expires: .string(signed.expires), Key.metadata: RegistryFileDigest.jsonValue(signed.metadata)]))
            output.append(contentsOf: Array(",\n".utf8))
            if let nextKey = signed.nextKey {
                output.append(signed.members([Key.nextKey: .string(nextKey)]))
                output.append(contentsOf: Array(",\n".utf8))
            }
        }
        output.append(contentsOf: Array("  \"\(Key.schemaVersion)\" : \(currentSchemaVersion)".utf8))
        if let signed { output.append(contentsOf: Array(",\n  \"\(Key.version)\" : \(signed.version)".utf8)) }
        output.append(contentsOf: Array("\n}\n".utf8))
        return output
    }

    /// The fields a signed build adds, which `encoded(_:signed:)` writes in `StableJSON`'s
    /// key order around `blocks` and `schemaVersion`.
    struct SignedFields: Equatable {
        var version: Int
        var expires: String
        var metadata: [String: RegistryFileDigest]
        var nextKey: String?

        func apply(to index: inout RegistryIndex) {
            index.version = version
            index.expires = expires
            index.metadata = metadata
            index.nextKey = nextKey
        }

        /// Top-level members as `StableJSON` prints them inside the index's object: its
        /// lines between the braces, without the last line break.
        func members(_ object: [String: JSONValue]) -> Data {
            var lines = String(decoding: StableJSON.data(.object(object)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            while lines.last == "" { lines.removeLast() }
            return Data(lines.dropFirst().dropLast().joined(separator: "\n").utf8)
        }
    }

    /// An entry as it sits in the index's `blocks` array, from its `StableJSON` bytes:
    /// one level deeper, without the final newline. Pretty-printed JSON escapes newlines
    /// inside strings, so each line break is layout, and one level deeper is four more
    /// spaces on every line that has any text (an empty collection prints an empty line,
    /// never indented).
    static func fragment(entryJSON json: Data) -> Data {
        let newline = UInt8(ascii: "\n")
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: 4)
        var output: [UInt8] = []
        output.reserveCapacity(json.count * 5 / 4)
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var end = bytes.count
            if end > 0 && bytes[end - 1] == newline { end -= 1 }
            var lineStart = 0
            while lineStart <= end {
                var lineEnd = lineStart
                while lineEnd < end && bytes[lineEnd] != newline { lineEnd += 1 }
                if lineStart > 0 { output.append(newline) }
                if lineEnd > lineStart {
                    output.append(contentsOf: indent)
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
                }
                lineStart = lineEnd + 1
            }
        }
        return Data(output)
    }
}

/// One block in the index: its manifest plus where its archives are.
public struct RegistryEntry: Sendable, Equatable {
    /// The keys an entry adds to its manifest's, each spelled once.
    enum Key {
        static let metadata = "metadata"
        static let sourceSHA256 = "sourceSHA256"
        static let codeNames = "codeNames"
    }

    public var manifest: BlockManifest
    /// The per-block metadata file, relative to the registry root.
    public var metadata: String
    /// A hash of the block's source (manifest and files before headers), so a rebuild can
    /// tell an unchanged block from a changed one without comparing archive bytes.
    public var sourceSHA256: String
    /// Keyed by format: `tar.gz` and `zip`.
    public var archives: [String: RegistryArchive]
    /// The public names in the block's code (`CodeNames`), so a registry is searched by
    /// them without fetching an archive. Empty, and left out of the JSON, when the code has
    /// none or the index was written before builds recorded them.
    public var codeNames: [String]

    public init(manifest: BlockManifest, metadata: String, sourceSHA256: String, archives: [String: RegistryArchive], codeNames: [String] = []) {
        self.manifest = manifest
        self.metadata = metadata
        self.sourceSHA256 = sourceSHA256
        self.archives = archives
        self.codeNames = codeNames
    }

    /// The entry in an object read by `JSONReader`: the manifest's fields and its own.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        manifest = try BlockManifest(fields: fields)
        metadata = try fields.string(Key.metadata)
        sourceSHA256 = try fields.string(Key.sourceSHA256)
        archives = try RegistryArchive.archives(in: fields)
        // Absent or null: an index from before builds wrote it.
        codeNames = try fields.optionalStrings(Key.codeNames) ?? []
    }

    /// One block's metadata file (`blocks/<name>.json`), or what is wrong with it.
    static func decode(metadata data: Data) throws(RegistryEntryProblem) -> RegistryEntry {
        try BlockMetadata.decode(data).entry
    }

    /// The metadata file's bytes without `versions` (tests hold them to a `Codable` oracle).
    var stableJSON: Data { StableJSON.data(jsonValue) }

    /// The entry as `JSONValue`: the manifest's keys plus those an entry adds.
    var jsonValue: JSONValue { .object(manifest.jsonMembers.merging(addedMembers) { _, added in added }) }

    /// The keys an entry adds to its manifest's.
    var addedMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [
            Key.metadata: .string(metadata), Key.sourceSHA256: .string(sourceSHA256), RegistryArchive.archivesKey: RegistryArchive.jsonValue(archives),
        ]
        if !codeNames.isEmpty { members[Key.codeNames] = JSONFields.jsonArray(codeNames) }
        return members
    }

    /// The entry's members for documents built on it, over its manifest's members when
    /// they are already written (`BlockPackager.manifestMembers`).
    func stableMembers(manifestMembers: StableJSONMembers? = nil) -> StableJSONMembers {
        (manifestMembers ?? StableJSONMembers(manifest.jsonMembers)).adding(addedMembers)
    }

    /// Whether the name is a block name (`ManifestValidator.isValidName`). Every reader of
    /// an index skips an entry without one, warning with `unsafeNameWarning`.
    var hasValidName: Bool { ManifestValidator.isValidName(manifest.name) }

    /// The warning for an entry skipped for its name, which is shown escaped and quoted.
    static func unsafeNameWarning(_ name: String, location: String) -> String {
        "registry \(location) lists a block named '\(name.debugDescription.dropFirst().dropLast())', which is not a block name (lowercase letters, digits and single dashes); it is skipped"
    }

    public var preferredArchive: RegistryArchive? { RegistryArchive.preferred(in: archives) }
}

/// Why a metadata file or index entry could not be read: not JSON, or JSON of the
/// wrong shape. Callers turn it into a `RegistryError` that names the file.
enum RegistryEntryProblem: Error {
    case notJSON(JSONReader.Failure)
    case shape(JSONFields.Problem)

    /// Parses `data` and maps its top-level object (named `path` in errors) with `make`.
    /// `depth` is how deeply the object sits in its document (see `JSONReader.parse`);
    /// `plainStrings` is `JSONFields`'.
    static func reading<Value>(
        _ data: Data, path: String = "", depth: Int = 0, plainStrings: Bool = true, _ make: (JSONFields) throws(JSONFields.Problem) -> Value
    ) throws(RegistryEntryProblem) -> Value {
        let value: JSONValue
        do {
            value = try JSONReader.parse(data, depth: depth)
        } catch {
            throw .notJSON(error)
        }
        do {
            return try make(JSONFields(value, path: path, plainStrings: plainStrings))
        } catch {
            throw .shape(error)
        }
    }

    /// The reason as `RegistryIndex.decode` words it.
    var reason: String {
        switch self {
        case .notJSON(let failure): return failure.summary
        case .shape(.missing(let path)): return "missing \(path)"
        case .shape(.wrongType(let path)): return "wrong type at \(path)"
        case .shape(.controlCharacter(let path, let scalar)):
            return "\(path) holds the control character \(TerminalText.visible(scalar)); its fields must be plain single lines"
        }
    }
}

/// The SHA-256 and size of one file a signed index lists (`metadata`).
public struct RegistryFileDigest: Sendable, Equatable {
    public var sha256: String
    public var size: Int64

    private enum Key {
        static let sha256 = "sha256"
        static let size = "size"
    }

    public init(sha256: String, size: Int64) {
        self.sha256 = sha256
        self.size = size
    }

    init(of data: Data) { self.init(sha256: SHA256.hex(data), size: Int64(data.count)) }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        self.init(sha256: try fields.digest(Key.sha256), size: Int64(try fields.int(Key.size)))
    }

    var jsonValue: JSONValue { .object([Key.sha256: .string(sha256), Key.size: .int(Int(size))]) }

    /// A signed index's `metadata` object, by path.
    static func jsonValue(_ digests: [String: RegistryFileDigest]) -> JSONValue { .object(digests.mapValues(\.jsonValue)) }
}

/// One published archive: immutable once written.
public struct RegistryArchive: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var size: Int64

    /// The key of the `archives` object an index entry and a published version hold.
    static let archivesKey = "archives"

    private enum Key {
        static let path = "path"
        static let sha256 = "sha256"
        static let size = "size"
    }

    public init(path: String, sha256: String, size: Int64) {
        self.path = path
        self.sha256 = sha256
        self.size = size
    }

    var format: ArchiveFormat? { ArchiveFormat.forFile(path) }

    /// The archive a client fetches from an `archives` object: the preferred format's
    /// (`ArchiveFormat.preferred`), else the first by path.
    static func preferred(in archives: [String: RegistryArchive]) -> RegistryArchive? {
        archives[ArchiveFormat.preferred.rawValue] ?? archives.values.sorted { $0.path < $1.path }.first
    }

    /// The `archives` object of an index entry or a published version.
    static func archives(in fields: JSONFields) throws(JSONFields.Problem) -> [String: RegistryArchive] {
        var archives: [String: RegistryArchive] = [:]
        let formats = try fields.object(archivesKey)
        for format in formats.members.keys { archives[format] = try RegistryArchive(fields: try formats.object(format)) }
        return archives
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        self.init(path: try fields.string(Key.path), sha256: try fields.digest(Key.sha256), size: Int64(try fields.int(Key.size)))
    }

    var jsonValue: JSONValue { .object([Key.path: .string(path), Key.sha256: .string(sha256), Key.size: .int(Int(size))]) }

    static func jsonValue(_ archives: [String: RegistryArchive]) -> JSONValue { .object(archives.mapValues(\.jsonValue)) }
}
