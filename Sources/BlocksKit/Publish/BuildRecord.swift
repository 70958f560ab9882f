/// What the last build into an output folder saw of each block, so a rebuild skips the
/// blocks nobody touched without reading them: at 100,000 blocks, reading every manifest,
/// source and metadata file to find the one that changed was most of a rebuild.
///
/// Each block is recorded as a fingerprint of `stat` alone (`SearchFingerprint`): the
/// files of its catalog folder, taken before the build read them, and the files the build
/// published for it (its metadata file and archives), taken once they were written. A
/// block whose fingerprint is the same next time is what the previous `index.json` says
/// it is. The record also names the `index.json` it goes with and the tool version, and is
/// ignored when either differs, so a hand-edited index or a newer tool reads everything.
///
/// It lives in the cache (`<cache>/builds/<SHA-256 of the output path>.record`), not in the
/// output, which is published as it is.
struct BuildRecord {
    /// What was recorded of one block.
    struct Block: Equatable, Sendable {
        var version: String
        var fingerprint: Fingerprint
    }

    /// A block's fingerprint (`BuildRecord.fingerprint`) folded into 128 bits, which
    /// 100,000 blocks hold in less memory than their text.
    struct Fingerprint: Hashable, Sendable {
        let first: UInt64
        let second: UInt64
    }

    var blocks: [String: Block] = [:]
    /// `SearchFingerprint.file` of the `index.json` the build wrote.
    var index = ""
    /// For a split index, its strings' counts (`SplitIndexColumns.Dictionary.Counter`): a
    /// rebuild counts the blocks that changed on top of them to decide on a new epoch.
    var counts: [String: (count: Int, first: Int)]?

    static func file(for output: URL, cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent("builds").appendingPathComponent(SHA256.hex(output.standardizedFileURL.path) + ".record")
    }

    static var header: String { "blocks build record 3, blocks \(ToolVersion.current)\n" }

    /// The record in `file`, or an empty one when it is missing, unreadable, from another
    /// version of the tool, or not for `index` (the output's `index.json` as it is now).
    static func read(_ file: URL, index: String?) -> BuildRecord {
        guard let index, let data = FileManager.default.contents(atPath: file.path) else { return BuildRecord() }
        let expected = Array((header + "index \(index)\n").utf8)
        guard data.count > expected.count, data.prefix(expected.count).elementsEqual(expected) else { return BuildRecord() }
        return data.withUnsafeBytes { raw in
            var rest = UnsafeRawBufferPointer(rebasing: raw[expected.count...])
            func blob() -> UnsafeRawBufferPointer? {
                guard rest.count >= 8 else { return nil }
                let length = Int(UInt64(littleEndian: rest.loadUnaligned(as: UInt64.self)))
                guard length >= 0, length <= rest.count - 8 else { return nil }
                defer { rest = UnsafeRawBufferPointer(rebasing: rest[(8 + length)...]) }
                return UnsafeRawBufferPointer(rebasing: rest[8..<(8 + length)])
            }
            guard let names = blob().flatMap(PackedStrings.init(encoded:)), let versions = blob().flatMap(PackedStrings.init(encoded:)),
                let fingerprints = blob().flatMap(PackedIntegers.decode), let strings = blob().flatMap(PackedStrings.init(encoded:)),
                let counts = blob().flatMap(PackedIntegers.decode), let firsts = blob().flatMap(PackedIntegers.decode), rest.isEmpty,
                versions.count == names.count, fingerprints.count == 4 * names.count, counts.count == strings.count, firsts.count == strings.count
            else { return BuildRecord() }
            var record = BuildRecord(index: index)
            record.blocks.reserveCapacity(names.count)
            for position in 0..<names.count {
                let words = fingerprints[(4 * position)..<(4 * position + 4)].map(UInt64.init)
                let fingerprint = Fingerprint(first: words[0] << 32 | words[1], second: words[2] << 32 | words[3])
                record.blocks[names[position]] = Block(version: versions[position], fingerprint: fingerprint)
            }
            if strings.count > 0 {
                var table: [String: (count: Int, first: Int)] = [:]
                table.reserveCapacity(strings.count)
                for position in 0..<strings.count { table[strings[position]] = (Int(counts[position]), Int(firsts[position])) }
                record.counts = table
            }
            return record
        }
    }

    /// Writes a record of `blocks` (in any order) to a temporary file, then renames it: a
    /// killed build leaves the record before, which no longer matches `index.json` or the
    /// files it changed.
    static func write(
        _ blocks: [(name: String, block: Block)], index: String, counts: [String: (count: Int, first: Int)]?, to file: URL
    ) throws {
        // Written straight into one buffer, each part made and let go in turn: a record of
        // 100,000 blocks is written at the end of a build, when its memory is at its peak.
        var bytes = Data((header + "index \(index)\n").utf8)
        func blob(_ encoded: [UInt8]) {
            withUnsafeBytes(of: UInt64(encoded.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: encoded)
        }
        blob(PackedStrings(blocks.lazy.map(\.name)).encoded)
        blob(PackedStrings(blocks.lazy.map(\.block.version)).encoded)
        var words: [UInt32] = []
        words.reserveCapacity(4 * blocks.count)
        for print in blocks.lazy.map(\.block.fingerprint) {
            words += [UInt32(print.first >> 32), UInt32(truncatingIfNeeded: print.first), UInt32(print.second >> 32), UInt32(truncatingIfNeeded: print.second)]
        }
        blob(PackedIntegers.encode(words))
        words = []
        let strings = (counts ?? [:]).sorted { $0.value.first < $1.value.first }
        blob(PackedStrings(strings.lazy.map(\.key)).encoded)
        blob(PackedIntegers.encode(strings.map { UInt32(clamping: $0.value.count) }))
        blob(PackedIntegers.encode(strings.map { UInt32(clamping: $0.value.first) }))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(bytes, to: file)
    }

    /// A block's fingerprint: its catalog folder's (`SearchFingerprint.tree`) and the
    /// `stat` of each file a build publishes for it at `version`, missing ones included.
    static func fingerprint(catalog: String, name: String, version: String, output: URL) -> Fingerprint {
        var paths = ["blocks/\(name).json", RegistryBuilder.gzipPath("blocks/\(name).json")]
        paths += ArchiveFormat.allCases.map { RegistryBuilder.archivePath(name: name, version: version, format: $0) }
        var hash = SearchFingerprint.EntryHash()
        Array(catalog.utf8).withUnsafeBytes { hash.add($0) }
        for path in paths {
            Array(path.utf8).withUnsafeBytes { hash.add($0) }
            var info = stat()
            if stat(output.joining(path).path, &info) == 0 { hash.add(info) }
        }
        return Fingerprint(first: hash.first, second: hash.second)
    }
}

extension RegistryBuilder {
    /// The record of the last build into the output, and what the previous index says of
    /// the blocks it lets this build skip. The split index's counts go to the latter alone.
    func recordAndUnreadBlocks(_ previousIndex: RegistryIndex?, wholeIndexEntries: [String: RegistryEntry]) -> (BuildRecord, UnreadBlocks?) {
        var record = recordFile.map { BuildRecord.read($0, index: SearchFingerprint.file(at: output.joining("index.json").path)) } ?? BuildRecord()
        let unread = unreadBlocks(previousIndex, wholeIndexEntries: wholeIndexEntries, record: record)
        // Handed over to `unread`, which gives them to this build's count.
        record.counts = nil
        return (record, unread)
    }

    /// For each of `names`, the entry of a block whose files are as the last build
    /// recorded them (`fingerprints` are its catalog folder's now), made without reading
    /// it; nil for a block to read.
    func skippedUnread(_ names: [String], fingerprints: [String?], record: BuildRecord, unread: UnreadBlocks?) -> [PublishedEntry?] {
        guard let unread else { return names.map { _ in nil } }
        return ConcurrentMap.map(Array(names.indices)) { position -> PublishedEntry? in
            let (name, fingerprint) = (names[position], fingerprints[position])
            guard let fingerprint, let recorded = record.blocks[name],
                BuildRecord.fingerprint(catalog: fingerprint, name: name, version: recorded.version, output: self.output) == recorded.fingerprint
            else { return nil }
            return self.unreadEntry(name, version: recorded.version, from: unread)
        }
    }

    /// What the previous index says of the blocks a build may skip unread: the whole
    /// index's entries; or, for a split index, each block's metadata digest (from its
    /// digest file, checked against its hash), its compact entry left in the previous
    /// ranges (`PreviousRanges`) until a range that changed needs it. Nil when a part is
    /// missing or damaged, or a split index's record has no counts: then every block is read.
    func unreadBlocks(_ previousIndex: RegistryIndex?, wholeIndexEntries: [String: RegistryEntry], record: BuildRecord) -> UnreadBlocks? {
        guard let previousIndex, !record.blocks.isEmpty, !site else { return nil }
        guard let split = previousIndex.split else { return UnreadBlocks(wholeIndex: wholeIndexEntries, previousRanges: nil) }
        guard let counts = record.counts, let ranges = PreviousRanges(split, output: output), let digests = previousDigests(of: split) else { return nil }
        ranges.digests = digests
        ranges.counts = counts
        return UnreadBlocks(wholeIndex: [:], previousRanges: ranges)
    }

    /// The entry a build keeps for a block it skipped unread at its recorded `version`.
    func unreadEntry(_ name: String, version: String, from unread: UnreadBlocks) -> PublishedEntry? {
        guard let ranges = unread.previousRanges else {
            guard let entry = unread.wholeIndex[name], entry.manifest.version == version else { return nil }
            var published = kept(PublishedEntry(entry: entry, json: entry.stableJSON, wrote: false))
            published.unread = true
            return published
        }
        let metadata = "blocks/\(name).json"
        guard let digest = ranges.digests[metadata] else { return nil }
        var published = PublishedEntry(entry: Self.keptEntry(name: name, version: version, metadata: metadata), json: Data(), wrote: false)
        published.fragment = Data()
        published.metadataDigest = digest
        published.unread = true
        return published
    }

    /// Writes the record of this build (`BuildRecord`) for the next one: each block whose
    /// catalog folder had a fingerprint, with the files just published for it, and a split
    /// index's string counts. One that cannot be written costs the next build its time,
    /// never its result.
    func keepRecord(of entries: [PublishedEntry], fingerprints: [String?], previous: BuildRecord, counts: SplitIndexColumns.Dictionary.Counter?) {
        guard let recordFile else { return }
        unlink(recordFile.path)
        guard !site, entries.count == fingerprints.count, let index = SearchFingerprint.file(at: output.joining("index.json").path) else { return }
        // By position: pairs of entries and fingerprints would copy 100,000 entries.
        let blocks = ConcurrentMap.map(Array(entries.indices)) { position -> (name: String, block: BuildRecord.Block)? in
            let (manifest, fingerprint) = (entries[position].entry.manifest, fingerprints[position])
            // A block skipped unread has the files it had: its fingerprint is the one recorded.
            if entries[position].unread, let recorded = previous.blocks[manifest.name] { return (manifest.name, recorded) }
            return fingerprint.map {
                let print = BuildRecord.fingerprint(catalog: $0, name: manifest.name, version: manifest.version, output: self.output)
                return (manifest.name, BuildRecord.Block(version: manifest.version, fingerprint: print))
            }
        }
        try? BuildRecord.write(blocks.compactMap { $0 }, index: index, counts: counts?.counts, to: recordFile)
    }
}

/// What a rebuild takes from the previous index for the blocks it skips unread
/// (`RegistryBuilder.unreadBlocks`).
struct UnreadBlocks: @unchecked Sendable {
    /// A whole index's entries, by name.
    let wholeIndex: [String: RegistryEntry]
    /// A split index's parts; nil for a whole index. Its ranges are read by the build's
    /// one thread, its digests by every core once they are set.
    let previousRanges: PreviousRanges?
}

/// The compact entries of the previous split index's ranges, decoded a range at a time
/// as a rebuild asks for them by name, in name order: a rebuild re-encodes only the
/// ranges that changed, and only those ranges are read.
final class PreviousRanges {
    private let layout: SplitIndex.Layout
    private let firsts: [String]
    /// The previous epoch's dictionary, which a build continuing the epoch keeps.
    let dictionary: SplitIndexColumns.Dictionary
    private let output: URL
    private var decoded: (range: Int, entries: [String: RegistryEntry])?
    /// Its metadata digests, by path: every block it lists, the digest of a block skipped
    /// unread, and what the change feed compares the new digests with.
    var digests: [String: RegistryFileDigest] = [:]
    /// The previous build's string counts (`BuildRecord.counts`), until `takeCounts`.
    var counts: [String: (count: Int, first: Int)]?

    /// The counts, given away: the one who counts on top of them changes them in place
    /// rather than copying some 100,000 strings.
    func takeCounts() -> [String: (count: Int, first: Int)]? {
        defer { counts = nil }
        return counts
    }

    init?(_ layout: SplitIndex.Layout, output: URL) {
        guard let data = layout.dictionary.contents(atPath: output.joining(layout.dictionary.path).path),
            let dictionary = try? SplitIndexColumns.Dictionary.decode(data, path: layout.dictionary.path)
        else { return nil }
        (self.layout, self.dictionary, self.output) = (layout, dictionary, output)
        firsts = layout.ranges.map(\.first)
    }

    /// The previous compact entry of `name`, or nil when no range holds it.
    func entry(named name: String) throws -> RegistryEntry? {
        guard let range = SplitIndex.part(holding: name, firsts: firsts) else { return nil }
        if decoded?.range != range {
            let reference = layout.ranges[range].file
            guard let data = reference.contents(atPath: output.joining(reference.path).path) else {
                throw RegistryError.unreadable(location: output.path, reason: "\(reference.path) is missing or not what index.json lists; build into an empty folder")
            }
            do throws(RegistryEntryProblem) {
                let entries = try SplitIndexColumns.entries(ofRange: data, path: reference.path, dictionary: dictionary)
                decoded = (range, Dictionary(entries.map { ($0.manifest.name, $0) }, uniquingKeysWith: { first, _ in first }))
            } catch {
                throw RegistryError.invalidIndex(location: output.path, reason: error.reason)
            }
        }
        return decoded?.entries[name]
    }
}
