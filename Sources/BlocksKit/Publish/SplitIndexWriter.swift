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
    func writeSplitIndex(_ published: [PublishedEntry], previous: Data?) throws {
        let entries = published.map(\.entry).sorted { $0.manifest.name < $1.manifest.name }
        let names = entries.map(\.manifest.name)
        let previousLayout = previous.flatMap { try? RegistryIndex.decode($0, location: output.path) }?.split
        var continued = continuedEpoch(of: previousLayout, entries: entries)
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
        try writeSplitIndex(
            entries, dictionary: continued?.dictionary ?? SplitIndexColumns.Dictionary(for: entries), ranges: ranges, digestFiles: digestFiles,
            epoch: continued != nil ? previousLayout!.epoch : (previousLayout?.epoch ?? 0) + 1, previous: previous, keeping: previousLayout)
    }

    /// The previous epoch's dictionary and cuts when this build may continue it.
    private func continuedEpoch(of previous: SplitIndex.Layout?, entries: [RegistryEntry]) -> ContinuedEpoch? {
        guard let previous, let data = FileManager.default.contents(atPath: output.joining(previous.dictionary.path).path),
            SHA256.hex(data) == previous.dictionary.sha256,
            let dictionary = try? SplitIndexColumns.Dictionary.decode(data, path: previous.dictionary.path),
            dictionary.inlineShare(of: entries) <= SplitIndexColumns.Dictionary(for: entries).inlineShare(of: entries) + SplitIndexColumns.largestInlineShare
        else { return nil }
        return ContinuedEpoch(dictionary: dictionary, rangeFirsts: previous.ranges.map(\.first), digestFirsts: previous.digestFiles.map(\.first))
    }

    private struct ContinuedEpoch {
        var dictionary: SplitIndexColumns.Dictionary
        var rangeFirsts: [String]
        var digestFirsts: [String]
    }

    private func writeSplitIndex(
        _ entries: [RegistryEntry], dictionary: SplitIndexColumns.Dictionary, ranges: [Range<Int>], digestFiles: [Range<Int>], epoch: Int,
        previous: Data?, keeping previousLayout: SplitIndex.Layout?
    ) throws {
        let dictionaryFile = try writePart(dictionary.data, blocks: entries.count)
        let rangeParts = try ranges.map { group in
            SplitIndex.Part(
                first: entries[group.lowerBound].manifest.name, blocks: group.count,
                file: try writePart(SplitIndexColumns.range(Array(entries[group]), dictionary: dictionary), blocks: group.count))
        }
        let total = rangeParts.reduce(dictionaryFile.size) { $0 + $1.file.size }
        if total > SplitIndex.maximumTotalBytes {
            throw RegistryError.tooLargeForClients(
                path: "index/", bytes: total, limit: SplitIndex.maximumTotalBytes,
                advice: "split the catalog into registries and name them in blocks.json's \"registries\"")
        }
        let digestParts = try digestFiles.map { group in
            var digests: [String: RegistryFileDigest] = [:]
            for entry in entries[group] {
                guard let data = FileManager.default.contents(atPath: output.joining(entry.metadata).path) else {
                    throw RegistryError.missingFile(block: entry.manifest.name, path: entry.metadata)
                }
                digests[entry.metadata] = RegistryFileDigest(of: data)
            }
            return SplitIndex.Part(first: entries[group.lowerBound].manifest.name, blocks: group.count, file: try writePart(SplitIndexColumns.digestFile(digests), blocks: group.count))
        }
        var index = RegistryIndex(blocks: [])
        index.schemaVersion = SplitIndex.schemaVersion
        index.split = SplitIndex.Layout(epoch: epoch, dictionary: dictionaryFile, ranges: rangeParts, digestFiles: digestParts)
        try writeSplitIndexFile(index, previous: previous, blocks: entries.count)
        SplitIndex.removeUnlistedParts(in: output, keeping: index.split!.files + (previousLayout?.files ?? []))
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
