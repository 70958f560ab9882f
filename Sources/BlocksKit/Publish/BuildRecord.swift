import Foundation

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
/// It lives in the cache (`<cache>/builds/<SHA-256 of the output path>.txt`), not in the
/// output, which is published as it is.
struct BuildRecord {
    /// What was recorded of one block.
    struct Block: Equatable {
        var version: String
        var fingerprint: String
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

    static var header: String { "blocks build record 2, blocks \(ToolVersion.current)\n" }

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
                let fingerprints = blob().flatMap(PackedStrings.init(encoded:)), let strings = blob().flatMap(PackedStrings.init(encoded:)),
                let counts = blob().flatMap(PackedIntegers.decode), let firsts = blob().flatMap(PackedIntegers.decode), rest.isEmpty,
                versions.count == names.count, fingerprints.count == names.count, counts.count == strings.count, firsts.count == strings.count
            else { return BuildRecord() }
            var record = BuildRecord(index: index)
            for position in 0..<names.count { record.blocks[names[position]] = Block(version: versions[position], fingerprint: fingerprints[position]) }
            if strings.count > 0 {
                var table: [String: (count: Int, first: Int)] = [:]
                table.reserveCapacity(strings.count)
                for position in 0..<strings.count { table[strings[position]] = (Int(counts[position]), Int(firsts[position])) }
                record.counts = table
            }
            return record
        }
    }

    /// Written whole to a temporary file, then renamed: a killed build leaves the record
    /// before, which no longer matches `index.json` or the files it changed.
    func write(to file: URL) throws {
        var bytes = Array((Self.header + "index \(index)\n").utf8)
        func blob(_ encoded: [UInt8]) {
            withUnsafeBytes(of: UInt64(encoded.count).littleEndian) { bytes += $0 }
            bytes += encoded
        }
        let names = blocks.keys.sorted()
        blob(PackedStrings(names).encoded)
        blob(PackedStrings(names.map { blocks[$0]!.version }).encoded)
        blob(PackedStrings(names.map { blocks[$0]!.fingerprint }).encoded)
        let strings = (counts ?? [:]).sorted { $0.value.first < $1.value.first }
        blob(PackedStrings(strings.map(\.key)).encoded)
        blob(PackedIntegers.encode(strings.map { UInt32(clamping: $0.value.count) }))
        blob(PackedIntegers.encode(strings.map { UInt32(clamping: $0.value.first) }))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(bytes), to: file)
    }

    /// A block's fingerprint: its catalog folder's (`SearchFingerprint.tree`) and that of
    /// the files a build publishes for it at `version`, missing ones included.
    static func fingerprint(catalog: String, name: String, version: String, output: URL) -> String {
        var paths = ["blocks/\(name).json", RegistryBuilder.gzipPath("blocks/\(name).json")]
        paths += ArchiveFormat.allCases.map { RegistryBuilder.archivePath(name: name, version: version, format: $0) }
        var sum = SearchFingerprint.EntrySum()
        for path in paths {
            var hash = SearchFingerprint.EntryHash()
            Array(path.utf8).withUnsafeBytes { hash.add($0) }
            var info = stat()
            if stat(output.joining(path).path, &info) == 0 { hash.add(info) }
            sum.add(hash)
        }
        return catalog + " published-\(String(sum.first, radix: 16))-\(String(sum.second, radix: 16))"
    }
}

extension RegistryBuilder {
    /// What the previous index says of the blocks a build may skip unread: the whole
    /// index's entries; or, for a split index, each block's metadata digest (from its
    /// digest file, checked against its hash), its compact entry left in the previous
    /// ranges (`PreviousRanges`) until a range that changed needs it. Nil when a part is
    /// missing or damaged, or a split index's record has no counts: then every block is read.
    func unreadBlocks(_ previousIndex: RegistryIndex?, wholeIndexEntries: [String: RegistryEntry], record: BuildRecord) -> UnreadBlocks? {
        guard let previousIndex, !record.blocks.isEmpty, !site else { return nil }
        guard let split = previousIndex.split else { return UnreadBlocks(wholeIndex: wholeIndexEntries, digests: [:], previousRanges: nil) }
        guard record.counts != nil, let ranges = PreviousRanges(split, output: output) else { return nil }
        var digests: [String: RegistryFileDigest] = [:]
        for reference in split.digestFiles.map(\.file) {
            guard let data = reference.contents(atPath: output.joining(reference.path).path),
                let held = try? SplitIndexColumns.digests(ofDigestFile: data, path: reference.path)
            else { return nil }
            digests.merge(held) { one, _ in one }
        }
        ranges.names = Set(digests.keys.map { String($0.dropFirst("blocks/".count).dropLast(".json".count)) })
        return UnreadBlocks(wholeIndex: [:], digests: digests, previousRanges: ranges)
    }

    /// The entry a build keeps for a block it skipped unread at its recorded `version`.
    func unreadEntry(_ name: String, version: String, from unread: UnreadBlocks) -> PublishedEntry? {
        guard unread.previousRanges != nil else {
            guard let entry = unread.wholeIndex[name], entry.manifest.version == version else { return nil }
            var published = kept(PublishedEntry(entry: entry, json: entry.stableJSON, wrote: false))
            published.unread = true
            return published
        }
        let metadata = "blocks/\(name).json"
        guard let digest = unread.digests[metadata] else { return nil }
        let manifest = BlockManifest(
            name: name, version: version, title: [:], summary: [:], category: "", platforms: [:], level: "", origin: "", tags: [:], api: [], files: [],
            authors: [], license: "", accessibility: [:])
        var published = PublishedEntry(entry: RegistryEntry(manifest: manifest, metadata: metadata, sourceSHA256: "", archives: [:]), json: Data(), wrote: false)
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
        let blocks = ConcurrentMap.map(Array(zip(entries, fingerprints))) { published, fingerprint -> (String, BuildRecord.Block)? in
            let manifest = published.entry.manifest
            // A block skipped unread has the files it had: its fingerprint is the one recorded.
            if published.unread, let recorded = previous.blocks[manifest.name] { return (manifest.name, recorded) }
            return fingerprint.map {
                (manifest.name, BuildRecord.Block(version: manifest.version, fingerprint: BuildRecord.fingerprint(catalog: $0, name: manifest.name, version: manifest.version, output: self.output)))
            }
        }
        var record = BuildRecord(index: index)
        for case let (name, block)? in blocks { record.blocks[name] = block }
        record.counts = counts?.counts
        try? record.write(to: recordFile)
    }
}

/// What a rebuild takes from the previous index for the blocks it skips unread
/// (`RegistryBuilder.unreadBlocks`).
struct UnreadBlocks: @unchecked Sendable {
    /// A whole index's entries, by name.
    let wholeIndex: [String: RegistryEntry]
    /// A split index's metadata digests, by path.
    let digests: [String: RegistryFileDigest]
    /// A split index's ranges; nil for a whole index. Read by the build's one thread.
    let previousRanges: PreviousRanges?
}

/// The compact entries of the previous split index's ranges, decoded a range at a time
/// as a rebuild asks for them by name, in name order: a rebuild re-encodes only the
/// ranges that changed, and only those ranges are read.
final class PreviousRanges {
    private let layout: SplitIndex.Layout
    private let firsts: [String]
    private let dictionary: SplitIndexColumns.Dictionary
    private let output: URL
    private var decoded: (range: Int, entries: [String: RegistryEntry])?
    /// Every block the previous index lists (from its digest files).
    var names: Set<String> = []

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
