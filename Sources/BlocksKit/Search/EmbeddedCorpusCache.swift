/// The embedded catalog's search corpus, kept in the cache folder between runs.
///
/// Building it means folding every manifest and scanning every block's Swift code
/// (`SearchWords`, `CodeNames`): some 30 million instructions, ten times what the rest of
/// `blocks search tabs` costs. The catalog is part of the binary, so the corpus only
/// changes with the binary: the file is keyed by the executable's `stat` (size, times,
/// inode) and the index layout. Besides the words and postings it keeps each block's name
/// and result-table row, so a search that prints the table decodes no `block.json` at all
/// (decoding the nine manifests was 40% of `blocks search tabs`). A missing, foreign or
/// damaged file is rebuilt from the one tokenizer and replaced atomically; a cache that
/// cannot be written costs the build each run, with the same results.
struct EmbeddedCorpusCache {
    let file: URL

    init(cacheDirectory: URL) {
        file = cacheDirectory.appendingPathComponent("search").appendingPathComponent("embedded.corpus")
    }

    /// The file's own layout: 2 added the names and rows.
    static let formatVersion = 2

    /// What the file must begin with to be used: nil where the running executable cannot
    /// be found, which is never cached.
    static var key: String? {
        guard let executable = SearchFingerprint.file(at: "/proc/self/exe") else { return nil }
        return "blocks embedded corpus \(formatVersion), layout \(SearchIndexStore.layoutVersion), \(executable)\n"
    }

    /// The corpus from the file when it is current, else built and written for next time.
    func corpus() throws -> SearchCorpus & Sendable {
        guard let key = Self.key else { return InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks()) }
        if let data = FileDescriptorIO.readFile(file.path),
            let corpus = Self.decode(data, key: key, blockCount: try CatalogSource.embedded.blockNames().count)
        {
            return corpus
        }
        let corpus = InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks())
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Self.encode(corpus, key: key), to: file)
        return corpus
    }

    /// The key, then seven runs, each preceded by its length in bytes: the vocabulary, each
    /// posting list's end, every posting, and the blocks' names, platforms, levels and
    /// titles as the result table shows them.
    static func encode(_ corpus: InMemorySearchCorpus, key: String) -> Data {
        let lists = PostingLists(corpus.postingLists)
        let (ends, postings) = (lists.ends, lists.values)
        let rows = corpus.listings(of: Array(0..<corpus.blockCount))
        var data = Data(key.utf8)
        let runs = [
            corpus.vocabulary.encoded, PackedIntegers.encode(ends), PackedIntegers.encode(postings), corpus.names.encoded,
            PackedStrings(rows.map(\.platforms)).encoded, PackedStrings(rows.map(\.level)).encoded,
            PackedStrings(rows.map(\.title)).encoded,
        ]
        for run in runs {
            data.append(contentsOf: PackedIntegers.encode([UInt32(run.count)]))
            data.append(contentsOf: run)
        }
        return data
    }

    /// The corpus in `data`, or nil when it has another key or does not read whole: it
    /// must describe `blockCount` blocks, and every posting must name one of them and a field.
    static func decode(_ data: Data, key: String, blockCount: Int) -> CachedEmbeddedCorpus? {
        let keyBytes = Array(key.utf8)
        guard data.count >= keyBytes.count, data.prefix(keyBytes.count).elementsEqual(keyBytes) else { return nil }
        return data.withUnsafeBytes { (all: UnsafeRawBufferPointer) -> CachedEmbeddedCorpus? in
            var offset = keyBytes.count
            func run() -> UnsafeRawBufferPointer? {
                guard offset + 4 <= all.count else { return nil }
                let length = Int(UInt32(littleEndian: all.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                offset += 4
                guard length <= all.count - offset else { return nil }
                defer { offset += length }
                return UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
            }
            func strings() -> PackedStrings? {
                guard let bytes = run(), let strings = PackedStrings(encoded: bytes), strings.count == blockCount else { return nil }
                return strings
            }
            guard let vocabularyRun = run(), let vocabulary = PackedStrings(encoded: vocabularyRun),
                let endsRun = run(), let ends = PackedIntegers.decode(endsRun),
                let postingsRun = run(), let postings = PackedIntegers.decode(postingsRun),
                let names = strings(), let platforms = strings(), let levels = strings(), let titles = strings(),
                offset == all.count, ends.count == vocabulary.count, ends.last.map(Int.init) ?? 0 == postings.count
            else { return nil }
            let flat = postings.map(SearchPosting.init(rawValue:))
            guard flat.allSatisfy({ $0.block < blockCount && $0.field != nil }) else { return nil }
            var start: UInt32 = 0
            for end in ends {
                guard end >= start else { return nil }
                start = end
            }
            let rows = (0..<blockCount).map {
                SearchListing(name: names[$0], platforms: platforms[$0], level: levels[$0], title: titles[$0])
            }
            return CachedEmbeddedCorpus(names: names, vocabulary: vocabulary, postings: flat, postingEnds: ends, rows: rows)
        }
    }
}

/// The embedded catalog's corpus as `EmbeddedCorpusCache` reads it back: the words, the
/// postings and the result table's rows. The manifests are decoded only when a filter or a
/// full result (`--json`, MCP) asks for them, and then once a process.
struct CachedEmbeddedCorpus: SearchCorpus, Sendable {
    let names: PackedStrings
    let nameRanks: [UInt32]
    let vocabulary: PackedStrings
    /// Every word's postings, one list after another in `vocabulary`'s order: a search
    /// copies out only its own words' lists, so the file is read without an array per word.
    let postings: [SearchPosting]
    /// `postingEnds[i]` is where word `i`'s postings end (they start where word `i - 1`'s end).
    let postingEnds: [UInt32]
    let rows: [SearchListing]

    init(names: PackedStrings, vocabulary: PackedStrings, postings: [SearchPosting], postingEnds: [UInt32], rows: [SearchListing]) {
        self.names = names
        nameRanks = InMemorySearchCorpus.nameRanks(of: names.strings)
        self.vocabulary = vocabulary
        self.postings = postings
        self.postingEnds = postingEnds
        self.rows = rows
    }

    var blockCount: Int { rows.count }

    func postings(ofWords words: [Int]) -> [[SearchPosting]] {
        words.map { word in Array(postings[(word == 0 ? 0 : Int(postingEnds[word - 1]))..<Int(postingEnds[word])]) }
    }

    func filterRecords() throws -> [BlockFilterRecord] {
        try CatalogSource.embedded.manifests().map(BlockFilterRecord.init)
    }

    func listings(of blocks: [Int]) -> [SearchListing] {
        blocks.map { rows[$0] }
    }

    func forEachManifest(of blocks: [Int], _ body: (_ place: Int, BlockManifest) throws -> Void) throws {
        let all = try CatalogSource.embedded.manifests()
        for (place, block) in blocks.enumerated() { try body(place, all[block]) }
    }
}
