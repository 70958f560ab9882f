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
struct BuildRecord: Equatable {
    /// The fingerprint of each block, by name.
    var blocks: [String: String] = [:]
    /// `SearchFingerprint.file` of the `index.json` the build wrote.
    var index = ""

    static func file(for output: URL, cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent("builds").appendingPathComponent(SHA256.hex(output.standardizedFileURL.path) + ".txt")
    }

    static var header: String { "blocks build record 1, blocks \(ToolVersion.current)" }

    /// The record in `file`, or an empty one when it is missing, unreadable, from another
    /// version of the tool, or not for `index` (the output's `index.json` as it is now).
    static func read(_ file: URL, index: String?) -> BuildRecord {
        guard let index, let data = FileManager.default.contents(atPath: file.path) else { return BuildRecord() }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == header, lines[1] == "index \(index)", lines.last == "" else { return BuildRecord() }
        lines.removeLast()
        var record = BuildRecord(index: index)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { return BuildRecord() }
            record.blocks[String(fields[0])] = String(fields[1])
        }
        return record
    }

    /// Written whole to a temporary file, then renamed: a killed build leaves the record
    /// before, whose fingerprints no longer match what it changed.
    func write(to file: URL) throws {
        var text = Self.header + "\nindex \(index)\n"
        for name in blocks.keys.sorted() { text += "\(name)\t\(blocks[name]!)\n" }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(text.utf8), to: file)
    }

    /// A block's fingerprint: its catalog folder's (`SearchFingerprint.tree`) and that of
    /// the files a build publishes for it at `version`, missing ones included.
    static func fingerprint(catalog: String, name: String, version: String, output: URL) -> String? {
        var published = PackedStrings()
        for path in ["blocks/\(name).json", RegistryBuilder.gzipPath("blocks/\(name).json")] { published.append(path) }
        for format in ArchiveFormat.allCases { published.append(RegistryBuilder.archivePath(name: name, version: version, format: format)) }
        guard let files = SearchFingerprint.files(published, in: output.path) else { return nil }
        return catalog + " " + files
    }
}

extension RegistryBuilder {
    /// What the previous index says of each block, as the entry a build keeps for a block
    /// it skips unread: the whole index's entries, or a split index's compact entries
    /// with their metadata digests, each part checked against its hash. Empty when any
    /// part is missing or damaged: then every block is read.
    func unreadEntries(_ previousIndex: RegistryIndex?, wholeIndexEntries: [String: RegistryEntry]) -> [String: PublishedEntry] {
        guard let previousIndex else { return [:] }
        guard let split = previousIndex.split else {
            return wholeIndexEntries.mapValues { kept(PublishedEntry(entry: $0, json: $0.stableJSON, wrote: false)) }
        }
        func part(_ reference: SplitIndex.FileReference) -> Data? { reference.contents(atPath: output.joining(reference.path).path) }
        guard let dictionaryData = part(split.dictionary),
            let dictionary = try? SplitIndexColumns.Dictionary.decode(dictionaryData, path: split.dictionary.path)
        else { return [:] }
        var digests: [String: RegistryFileDigest] = [:]
        for reference in split.digestFiles.map(\.file) {
            guard let data = part(reference), let held = try? SplitIndexColumns.digests(ofDigestFile: data, path: reference.path) else { return [:] }
            digests.merge(held) { one, _ in one }
        }
        var entries: [String: PublishedEntry] = [:]
        for reference in split.ranges.map(\.file) {
            guard let data = part(reference), let held = try? SplitIndexColumns.entries(ofRange: data, path: reference.path, dictionary: dictionary) else { return [:] }
            for entry in held {
                guard let digest = digests[entry.metadata] else { continue }
                var published = kept(PublishedEntry(entry: entry, json: Data(), wrote: false))
                published.metadataDigest = digest
                entries[entry.manifest.name] = published
            }
        }
        return entries
    }

    /// Writes the record of this build (`BuildRecord`) for the next one: each block whose
    /// catalog folder had a fingerprint, with the files just published for it. One that
    /// cannot be written costs the next build its time, never its result.
    func keepRecord(of entries: [PublishedEntry], fingerprints: [String?]) {
        guard let recordFile else { return }
        unlink(recordFile.path)
        guard !site, entries.count == fingerprints.count, let index = SearchFingerprint.file(at: output.joining("index.json").path) else { return }
        let blocks = ConcurrentMap.map(Array(zip(entries, fingerprints))) { published, fingerprint -> (String, String)? in
            let manifest = published.entry.manifest
            return fingerprint.flatMap { BuildRecord.fingerprint(catalog: $0, name: manifest.name, version: manifest.version, output: self.output) }.map { (manifest.name, $0) }
        }
        var record = BuildRecord(index: index)
        for case let (name, fingerprint)? in blocks { record.blocks[name] = fingerprint }
        try? record.write(to: recordFile)
    }
}
