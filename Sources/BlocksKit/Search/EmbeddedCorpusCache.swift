/// The embedded catalog's search corpus, kept in the cache folder between runs.
///
/// Building it means folding every manifest and scanning every block's Swift code
/// (`SearchWords`, `CodeNames`): some 30 million instructions, ten times what the rest of
/// `blocks search tabs` costs. The catalog is part of the binary, so the corpus only
/// changes with the binary: the file is keyed by the executable's `stat` (size, times,
/// inode) and the index layout, and is read back as three byte runs. A missing, foreign or
/// damaged file is rebuilt from the one tokenizer and replaced atomically; a cache that
/// cannot be written costs the build each run, with the same results.
struct EmbeddedCorpusCache {
    let file: URL

    init(cacheDirectory: URL) {
        file = cacheDirectory.appendingPathComponent("search").appendingPathComponent("embedded.corpus")
    }

    /// What the file must begin with to be used: nil where the running executable cannot
    /// be found, which is never cached.
    static var key: String? {
        guard let executable = SearchFingerprint.file(at: "/proc/self/exe") else { return nil }
        return "blocks embedded corpus, layout \(SearchIndexStore.layoutVersion), \(executable)\n"
    }

    /// The corpus from the file when it is current, else built and written for next time.
    func corpus() throws -> InMemorySearchCorpus {
        let manifests = try CatalogSource.embedded.manifests()
        guard let key = Self.key else { return InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks()) }
        if let data = FileDescriptorIO.readFile(file.path), let corpus = Self.decode(data, key: key, manifests: manifests) {
            return corpus
        }
        let corpus = InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks())
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Self.encode(corpus, key: key), to: file)
        return corpus
    }

    /// The key, then the vocabulary, each posting list's end and every posting, each run
    /// preceded by its length in bytes.
    static func encode(_ corpus: InMemorySearchCorpus, key: String) -> Data {
        var ends: [UInt32] = []
        var postings: [UInt32] = []
        for list in corpus.postingLists {
            postings += list.map(\.rawValue)
            ends.append(UInt32(postings.count))
        }
        var data = Data(key.utf8)
        for run in [corpus.vocabulary.encoded, PackedIntegers.encode(ends), PackedIntegers.encode(postings)] {
            data.append(contentsOf: PackedIntegers.encode([UInt32(run.count)]))
            data.append(contentsOf: run)
        }
        return data
    }

    /// The corpus in `data`, or nil when it has another key or does not read whole: every
    /// posting must name one of `manifests` and a field.
    static func decode(_ data: Data, key: String, manifests: [BlockManifest]) -> InMemorySearchCorpus? {
        let keyBytes = Array(key.utf8)
        guard data.count >= keyBytes.count, data.prefix(keyBytes.count).elementsEqual(keyBytes) else { return nil }
        return data.withUnsafeBytes { (all: UnsafeRawBufferPointer) -> InMemorySearchCorpus? in
            var offset = keyBytes.count
            func run() -> UnsafeRawBufferPointer? {
                guard offset + 4 <= all.count else { return nil }
                let length = Int(UInt32(littleEndian: all.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                offset += 4
                guard length <= all.count - offset else { return nil }
                defer { offset += length }
                return UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
            }
            guard let vocabularyRun = run(), let vocabulary = PackedStrings(encoded: vocabularyRun),
                let endsRun = run(), let ends = PackedIntegers.decode(endsRun),
                let postingsRun = run(), let postings = PackedIntegers.decode(postingsRun),
                offset == all.count, ends.count == vocabulary.count, ends.last.map(Int.init) ?? 0 == postings.count
            else { return nil }
            let flat = postings.map(SearchPosting.init(rawValue:))
            guard flat.allSatisfy({ $0.block < manifests.count && $0.field != nil }) else { return nil }
            var lists: [[SearchPosting]] = []
            lists.reserveCapacity(ends.count)
            var start = 0
            for end in ends {
                guard Int(end) >= start else { return nil }
                lists.append(Array(flat[start..<Int(end)]))
                start = Int(end)
            }
            return InMemorySearchCorpus(manifests: manifests, vocabulary: vocabulary, postingLists: lists)
        }
    }
}
