extension RegistryBuilder {
    /// Writes a split index (`SplitIndex`): the parts that are new (each with its `.gz`),
    /// then `index.json` listing them, signed under `signing`, then removes the parts
    /// neither this `index.json` nor the one before it lists, so a client that read the
    /// previous one can still fetch its parts.
    ///
    /// Within an epoch the dictionary and the cuts between parts stay, so a changed block
    /// changes one range and one digest file. A new epoch (a new dictionary and new cuts)
    /// starts when there is none to continue, when the epoch's dictionary leaves more of the
    /// strings inline than a new one would by over `SplitIndexColumns.largestInlineShare`
    /// (a string used once is inline in any dictionary), or when a part has grown to twice
    /// its starting size.
    ///
    /// A rebuild that skipped blocks unread (`BuildRecord`) counts the strings of the
    /// blocks that changed on top of the previous build's counts, and takes a skipped
    /// block's compact entry from the previous ranges only where a range changed.
    /// Returns the counts, for the record.
    func writeSplitIndex(
        _ published: [PublishedEntry], previous: Data?, previousRanges: PreviousRanges?
    ) throws -> SplitIndexColumns.Dictionary.Counter {
        let entries = CompactEntries(published, previous: previousRanges)
        let names = entries.names
        let previousLayout = previous.flatMap { try? RegistryIndex.decode($0, location: output.path) }?.split
        let carried = try entries.countedOverPrevious()
        var counts = try carried ?? entries.counted()
        var continued = continuedEpoch(of: previousLayout, counts: counts, dictionary: previousRanges?.dictionary)
        func cut(_ size: Int, _ firsts: [String]?) -> [Range<Int>] {
            let groups = SplitIndex.group(names, size: size, firsts: firsts)
            if firsts != nil, groups.contains(where: { $0.count > 2 * size }) { continued = nil }
            return groups
        }
        var ranges = cut(splitSizes.range, continued?.rangeFirsts)
        var digestFiles = cut(splitSizes.digestFile, continued?.digestFirsts)
        if continued == nil {
            ranges = cut(splitSizes.range, nil)
            digestFiles = cut(splitSizes.digestFile, nil)
        }
        // Counts carried over order their strings as first seen then, not in name order
        // now: a new epoch's dictionary is made from a full count.
        if continued == nil, carried != nil { counts = try entries.counted() }
        try writeSplitIndex(
            entries, dictionary: continued?.dictionary ?? counts.dictionary, ranges: ranges, digestFiles: digestFiles,
            epoch: continued != nil ? previousLayout!.epoch : (previousLayout?.epoch ?? 0) + 1, previous: previous, keeping: previousLayout,
            previousDigests: previousRanges?.digests)
        return counts
    }

    /// The previous epoch's dictionary and cuts when this build may continue it. The
    /// dictionary is read from the output unless `known` (`PreviousRanges.dictionary`).
    private func continuedEpoch(
        of previous: SplitIndex.Layout?, counts: SplitIndexColumns.Dictionary.Counter, dictionary known: SplitIndexColumns.Dictionary?
    ) -> ContinuedEpoch? {
        guard let previous,
            let dictionary = known ?? verifiedPart(previous.dictionary).flatMap({ try? SplitIndexColumns.Dictionary.decode($0, path: previous.dictionary.path) }),
            counts.inlineShare(of: dictionary) <= counts.inlineShare(of: nil) + SplitIndexColumns.largestInlineShare
        else { return nil }
        return ContinuedEpoch(dictionary: dictionary, rangeFirsts: previous.ranges.map(\.first), digestFirsts: previous.digestFiles.map(\.first))
    }

    private struct ContinuedEpoch {
        var dictionary: SplitIndexColumns.Dictionary
        var rangeFirsts: [String]
        var digestFirsts: [String]
    }

    private func writeSplitIndex(
        _ entries: CompactEntries, dictionary: SplitIndexColumns.Dictionary, ranges: [Range<Int>], digestFiles: [Range<Int>], epoch: Int,
        previous: Data?, keeping previousLayout: SplitIndex.Layout?, previousDigests: [String: RegistryFileDigest]?
    ) throws {
        let dictionaryFile = try writePart(dictionary.data, blocks: entries.names.count)
        let rangeParts = try ranges.map { group in try rangePart(entries, group, dictionary: dictionary, epoch: epoch, previous: previousLayout) }
        let total = rangeParts.reduce(dictionaryFile.size) { $0 + $1.file.size }
        if total > SplitIndex.maximumTotalBytes {
            throw RegistryError.tooLargeForClients(
                path: "index/", bytes: total, limit: SplitIndex.maximumTotalBytes,
                advice: "split the catalog into registries and name them in blocks.json's \"registries\"")
        }
        var digests: [String: RegistryFileDigest] = [:]
        let digestParts = try digestFiles.map { group in
            var groupDigests: [String: RegistryFileDigest] = [:]
            for position in group {
                let (name, path) = (entries.names[position], "blocks/\(entries.names[position]).json")
                if let known = entries.metadataDigests[position] {
                    groupDigests[path] = known
                    continue
                }
                guard let data = FileManager.default.contents(atPath: output.joining(path).path) else {
                    throw RegistryError.missingFile(block: name, path: path)
                }
                groupDigests[path] = RegistryFileDigest(of: data)
            }
            digests.merge(groupDigests) { one, _ in one }
            return SplitIndex.Part(first: entries.names[group.lowerBound], blocks: group.count, file: try writePart(SplitIndexColumns.digestFile(groupDigests), blocks: group.count))
        }
        let emptyFeed = SplitIndex.FileReference(holding: SplitIndexFeed(epoch: epoch, since: 0, changes: []).data)
        var layout = SplitIndex.Layout(epoch: epoch, snapshot: 1, dictionary: dictionaryFile, ranges: rangeParts, digestFiles: digestParts, feed: emptyFeed)
        if let previousLayout, previousLayout.holdsTheSameParts(as: layout) {
            // Nothing changed: the same snapshot and feed, so index.json keeps its bytes.
            layout.snapshot = previousLayout.snapshot
            layout.feed = previousLayout.feed
        } else {
            layout.snapshot = (previousLayout?.snapshot ?? 0) + 1
            let feed = try previousFeed(previousLayout, epoch: epoch, digests: previousDigests).map { try $0.appending(changes(from: $1, to: digests, entries: entries, snapshot: layout.snapshot)) }
            layout.feed = try writePart((feed ?? SplitIndexFeed(epoch: epoch, since: layout.snapshot, changes: [])).data, blocks: 0)
        }
        var index = RegistryIndex(blocks: [])
        index.schemaVersion = SplitIndex.schemaVersion
        index.split = layout
        try writeSplitIndexFile(index, previous: previous, blocks: entries.names.count)
        // Only a build that changed the parts removes any: one that finds index.json
        // already current (the last build was killed after writing it) keeps the parts of
        // the index before that, as the killed build would have.
        if layout.snapshot != previousLayout?.snapshot {
            SplitIndex.removeUnlistedParts(in: output, keeping: layout.files + (previousLayout?.files ?? []))
        }
    }

    /// The range of the blocks at `group`, written unless it is there already. One of the
    /// same epoch whose blocks were all skipped unread is the range before, not encoded again.
    private func rangePart(
        _ entries: CompactEntries, _ group: Range<Int>, dictionary: SplitIndexColumns.Dictionary, epoch: Int, previous: SplitIndex.Layout?
    ) throws -> SplitIndex.Part {
        if previous?.epoch == epoch, entries.unread[group].allSatisfy({ $0 }),
            let kept = previous?.ranges.first(where: { $0.first == entries.names[group.lowerBound] && $0.blocks == group.count }),
            FileStamp.of(path: output.joining(kept.file.path).path)?.size == kept.file.size
        {
            try ensureGzip(of: try Data(contentsOf: output.joining(kept.file.path)), at: kept.file.path)
            return kept
        }
        return SplitIndex.Part(
            first: entries.names[group.lowerBound], blocks: group.count,
            file: try writePart(SplitIndexColumns.range(try entries.decoded(group), dictionary: dictionary), blocks: group.count))
    }

    /// The feed of the index before and its blocks' metadata digests, when this build
    /// continues its epoch and both are there as it lists them; nil starts a new feed.
    /// The digests are read from its digest files unless `known` (`PreviousRanges.digests`).
    private func previousFeed(
        _ previous: SplitIndex.Layout?, epoch: Int, digests known: [String: RegistryFileDigest]?
    ) -> (SplitIndexFeed, [String: RegistryFileDigest])? {
        guard let previous, previous.epoch == epoch, let feedData = verifiedPart(previous.feed),
            let feed = try? SplitIndexFeed.decode(feedData, path: previous.feed.path), feed.epoch == epoch
        else { return nil }
        return (known ?? previousDigests(of: previous)).map { (feed, $0) }
    }

    /// The metadata digests the digest files of `layout` hold, each file checked against
    /// its hash; nil when one is missing or damaged.
    func previousDigests(of layout: SplitIndex.Layout) -> [String: RegistryFileDigest]? {
        var digests: [String: RegistryFileDigest] = [:]
        for part in layout.digestFiles {
            guard let data = verifiedPart(part.file), let held = try? SplitIndexColumns.digests(ofDigestFile: data, path: part.file.path) else { return nil }
            digests.merge(held) { one, _ in one }
        }
        return digests
    }

    /// A part of the output as `index.json` lists it, or nil.
    private func verifiedPart(_ part: SplitIndex.FileReference) -> Data? { part.contents(atPath: output.joining(part.path).path) }

    /// The blocks whose metadata file is new, changed or gone, as changes of `snapshot`.
    private func changes(
        from previous: [String: RegistryFileDigest], to current: [String: RegistryFileDigest], entries: CompactEntries, snapshot: Int
    ) throws -> [SplitIndexFeed.Change] {
        var changes: [SplitIndexFeed.Change] = []
        for (position, name) in entries.names.enumerated() where previous["blocks/\(name).json"] != current["blocks/\(name).json"] {
            changes.append(.init(snapshot: snapshot, name: name, entry: try entries.decoded(position..<position + 1)[0], metadata: current["blocks/\(name).json"]))
        }
        for path in previous.keys.sorted() where current[path] == nil {
            changes.append(.init(snapshot: snapshot, name: String(path.dropFirst("blocks/".count).dropLast(".json".count)), entry: nil, metadata: nil))
        }
        return changes
    }

    /// A part, unless a file of its hash is already there (each is named by its hash).
    private func writePart(_ data: Data, blocks: Int) throws -> SplitIndex.FileReference {
        let reference = SplitIndex.FileReference(holding: data)
        try FileManager.default.createDirectory(at: output.appendingPathComponent("index"), withIntermediateDirectories: true)
        if FileStamp.of(path: output.joining(reference.path).path)?.size == reference.size {
            try ensureGzip(of: data, at: reference.path)
        } else {
            try writeWithGzip(data, to: reference.path, blocks: blocks)
        }
        return reference
    }

    /// `index.json`, signed under `signing`; unchanged bytes keep the file and its ETag.
    private func writeSplitIndexFile(_ index: RegistryIndex, previous: Data?, blocks: Int) throws {
        let data: Data
        if let signing {
            let signatureURL = output.joining(IndexSigning.signatureFile)
            let signed = try signing.sign(
                previous: previous, previousSignature: FileManager.default.contents(atPath: signatureURL.path),
                encode: { fields in
                    var signedIndex = index
                    fields.apply(to: &signedIndex)
                    signedIndex.metadata = nil
                    return try signedIndex.encoded()
                })
            data = signed.index
            if FileManager.default.contents(atPath: signatureURL.path) != signed.signature { try AtomicFile.write(signed.signature, to: signatureURL) }
        } else {
            data = try index.encoded()
            unlink(output.joining(IndexSigning.signatureFile).path)
        }
        if data != previous { try writeWithGzip(data, to: "index.json", blocks: blocks) } else { try ensureGzip(of: data, at: "index.json") }
    }
}

/// The blocks of a split index in name order, each kept as its compact entry's bytes and
/// decoded only where a step needs it: a range at a time, or one at a time to count.
private struct CompactEntries {
    let names: [String]
    /// Those known without reading the metadata file (`PublishedEntry.metadataDigest`).
    let metadataDigests: [RegistryFileDigest?]
    /// Whether each block was skipped unread, and so is as the previous index has it.
    let unread: [Bool]
    /// Nil for a block skipped unread: its entry is in `previous`.
    private let compact: [Data?]
    private let previous: PreviousRanges?

    init(_ published: [RegistryBuilder.PublishedEntry], previous: PreviousRanges? = nil) {
        let sorted = published.sorted { $0.entry.manifest.name < $1.entry.manifest.name }
        names = sorted.map(\.entry.manifest.name)
        metadataDigests = sorted.map(\.metadataDigest)
        unread = sorted.map(\.unread)
        compact = sorted.map {
            $0.compact ?? ($0.unread && previous != nil ? nil : SplitIndexColumns.compact(SplitIndexColumns.compactValue(SplitIndexColumns.searchOnly($0.entry))))
        }
        self.previous = previous
    }

    func decoded(_ positions: Range<Int>) throws -> [RegistryEntry] {
        try positions.map { position in
            guard let bytes = compact[position] else {
                guard let entry = try previous?.entry(named: names[position]) else {
                    throw RegistryError.invalidIndex(location: names[position], reason: "the previous ranges do not hold it; build into an empty folder")
                }
                return entry
            }
            do throws(RegistryEntryProblem) {
                return try RegistryEntryProblem.reading(bytes) { (fields) throws(JSONFields.Problem) in try SplitIndexColumns.compactEntry(fields) }
            } catch {
                throw RegistryError.invalidIndex(location: names[position], reason: "its compact entry cannot be read back (\(error.reason))")
            }
        }
    }

    /// Each entry in turn, decoded in slices so that only one slice is held.
    func forEach(_ body: (RegistryEntry) -> Void) throws {
        for start in stride(from: 0, to: names.count, by: 1_000) { try decoded(start..<min(start + 1_000, names.count)).forEach(body) }
    }

    /// The strings of every entry counted, in one pass: a new epoch's dictionary and the
    /// inline shares that decide on one (`Counter.inlineShare`).
    func counted() throws -> SplitIndexColumns.Dictionary.Counter {
        var counter = SplitIndexColumns.Dictionary.Counter()
        try forEach { counter.add($0) }
        return counter
    }

    /// The counts of the previous index's entries (`PreviousRanges.takeCounts`) with the blocks
    /// that were read this time counted again, and those gone taken out: the counts of a
    /// full count, reading only what changed. Nil without the previous ranges.
    func countedOverPrevious() throws -> SplitIndexColumns.Dictionary.Counter? {
        guard let previous, let previousCounts = previous.takeCounts() else { return nil }
        var counter = SplitIndexColumns.Dictionary.Counter(counts: previousCounts)
        for position in names.indices where !unread[position] {
            if previous.digests["blocks/\(names[position]).json"] != nil, let before = try previous.entry(named: names[position]) { counter.remove(before) }
            try decoded(position..<position + 1).forEach { counter.add($0) }
        }
        let current = Set(names.lazy.map { "blocks/\($0).json" })
        for gone in previous.digests.keys.filter({ !current.contains($0) }).sorted() {
            if let before = try previous.entry(named: String(gone.dropFirst("blocks/".count).dropLast(".json".count))) { counter.remove(before) }
        }
        return counter
    }
}
