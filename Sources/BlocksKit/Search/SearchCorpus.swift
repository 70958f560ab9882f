/// What the ranking reads: the distinct words of a catalog with the blocks and fields
/// each appears in, and per block its name and the data the filters look at.
///
/// Two stores provide it. `InMemorySearchCorpus` builds it from manifests, for the
/// embedded catalog and whenever no index can be kept; `SearchIndexStore` reads it from
/// the on-disk SQLite index, so a large catalog is searched without decoding every
/// manifest. Block ids are positions in the source's `manifests()` order.
protocol SearchCorpus {
    var blockCount: Int { get }
    /// Each block's manifest name, by block id.
    var names: PackedStrings { get }
    /// For each block id, its place when blocks are sorted by name (then id): ties in
    /// score are ordered by name without comparing strings.
    var nameRanks: [UInt32] { get }
    /// Every distinct folded word, so fuzzy matching runs once per word, not once per block.
    var vocabulary: PackedStrings { get }
    /// The postings of the given words, in the same order.
    func postings(ofWords words: [Int]) throws -> [[SearchPosting]]
    /// Every block's filter data, by block id. Only read when a filter is given.
    func filterRecords() throws -> [BlockFilterRecord]
    /// The result-table rows of the given blocks, in the same order.
    func listings(of blocks: [Int]) throws -> [SearchListing]
    /// The full manifests of the given blocks, each handed to `body` with its place in
    /// `blocks`, in whatever order they are cheapest to read: a split registry's range by
    /// range. Every match of 100,000 blocks is then never held as manifests at once.
    func forEachManifest(of blocks: [Int], _ body: (_ place: Int, BlockManifest) throws -> Void) throws
}

extension SearchCorpus {
    /// The full manifests of the given blocks, in the same order.
    func manifests(of blocks: [Int]) throws -> [BlockManifest] {
        var manifests = [BlockManifest?](repeating: nil, count: blocks.count)
        try forEachManifest(of: blocks) { place, manifest in manifests[place] = manifest }
        return try manifests.map { manifest in
            guard let manifest else { throw SearchIndexError.damaged("a manifest the search shows was not read") }
            return manifest
        }
    }
}

/// One line of `blocks search`'s table, which is all a human listing needs: a large
/// result set is shown without decoding a manifest per line.
struct SearchListing: Sendable, Equatable {
    var name: String
    /// As `BlockSummary.platformText` writes it, e.g. "iOS 18.0+".
    var platforms: String
    var level: String
    /// The English title.
    var title: String

    init(name: String, platforms: String, level: String, title: String) {
        self.name = name
        self.platforms = platforms
        self.level = level
        self.title = title
    }

    init(_ manifest: BlockManifest) {
        self.init(name: manifest.name, platforms: BlockSummary.platformText(manifest), level: manifest.level, title: manifest.englishTitle)
    }
}

/// One occurrence of a word: a block and the field it is in, packed in 32 bits.
struct SearchPosting: Sendable, Equatable {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(block: Int, field: SearchEngine.Field) {
        rawValue = UInt32(block) << 3 | UInt32(field.rawValue)
    }

    var block: Int { Int(rawValue >> 3) }
    /// Nil only for a damaged index.
    var field: SearchEngine.Field? { SearchEngine.Field(rawValue: Int(rawValue & 7)) }
}

/// The parts of a manifest that `--platform`, `--level`, `--category` and `--tag` read,
/// with the folding done once when the corpus is built.
struct BlockFilterRecord: Sendable, Equatable {
    var platforms: [String: String]
    var level: String
    var foldedCategory: String
    var foldedTags: [String]

    init(platforms: [String: String], level: String, foldedCategory: String, foldedTags: [String]) {
        self.platforms = platforms
        self.level = level
        self.foldedCategory = foldedCategory
        self.foldedTags = foldedTags
    }

    init(_ manifest: BlockManifest) {
        platforms = manifest.platforms
        level = manifest.level
        foldedCategory = TextNormalizer.fold(manifest.category)
        foldedTags = Self.foldedTags(manifest.tags)
    }

    /// Every tag folded, the languages in order, so an index's rows are the same bytes
    /// from one run to the next.
    static func foldedTags(_ tags: [String: [String]]) -> [String] {
        tags.keys.sorted().flatMap { tags[$0, default: []].map(TextNormalizer.fold) }
    }

    func passes(_ filters: SearchEngine.Filters) -> Bool {
        if let platform = filters.platform, !platform.accepts(platforms) { return false }
        if let level = filters.level, self.level.lowercased() != level.lowercased() { return false }
        if let category = filters.category, foldedCategory != TextNormalizer.fold(category) { return false }
        if let tag = filters.tag {
            let wanted = TextNormalizer.fold(tag)
            if !foldedTags.contains(where: { $0 == wanted }) { return false }
        }
        return true
    }
}

/// The corpus built in memory from manifests. It is also what the on-disk index stores,
/// so both stores hold the very same words, postings and ranks.
struct InMemorySearchCorpus: SearchCorpus, Sendable {
    let blockCount: Int
    let names: PackedStrings
    let nameRanks: [UInt32]
    let vocabulary: PackedStrings
    /// By word index, aligned with `vocabulary`.
    let postingLists: [[SearchPosting]]
    let records: [BlockFilterRecord]
    let manifests: [BlockManifest]

    init(blocks: [SearchableBlock]) {
        var builder = SearchCorpusBuilder()
        builder.add(blocks)
        let corpus = builder.finished()
        self.init(manifests: blocks.map(\.manifest), vocabulary: corpus.vocabulary, postingLists: corpus.postingLists)
    }

    /// Every word of the blocks (`fieldWords`, code names included) with its postings in
    /// block order: what the search index, the embedded corpus cache and the site's search
    /// data (`SiteSearchData`) all hold.
    static func postingsByWord(of blocks: [SearchableBlock]) -> [String: [SearchPosting]] {
        var postings = JoinedPostings()
        addPostings(of: blocks, numberedFrom: 0, to: &postings)
        return Dictionary(uniqueKeysWithValues: zip(postings.words, postings.lists))
    }

    /// Appends the postings of `blocks`, the first of them block `first`, to `postings`,
    /// whose blocks all come before. Slices of blocks are done on every core, then joined
    /// in order; two slices a core keep both busy, where more only cost more joining.
    static func addPostings(of blocks: [SearchableBlock], numberedFrom first: Int, to postings: inout JoinedPostings) {
        let perCore = 2 * ConcurrentMap.cores
        let slice = max(64, (blocks.count + perCore - 1) / perCore)
        let slices = ConcurrentMap.map(Array(stride(from: 0, to: blocks.count, by: slice))) { start in
            var postings = OrderedPostings()
            var memo = SearchWords.Memo()
            for block in start..<min(start + slice, blocks.count) {
                SearchWords.forEachField(of: blocks[block], memo: &memo) { field, words in
                    let posting = SearchPosting(block: first + block, field: field)
                    for word in words { postings.post(posting, to: postings.number(of: word)) }
                }
            }
            return (postings.words, postings.grouped)
        }
        for (words, lists) in slices { postings.append(words: words, lists: lists) }
    }

    /// Blocks without the names in their code.
    init(manifests: [BlockManifest]) {
        self.init(blocks: manifests.map { SearchableBlock(manifest: $0, codeNames: []) })
    }

    /// A corpus whose words and postings were built before (`EmbeddedCorpusCache`).
    init(manifests: [BlockManifest], vocabulary: PackedStrings, postingLists: [[SearchPosting]]) {
        self.manifests = manifests
        blockCount = manifests.count
        names = PackedStrings(manifests.map(\.name))
        self.vocabulary = vocabulary
        self.postingLists = postingLists
        records = manifests.map(BlockFilterRecord.init)
        nameRanks = Self.nameRanks(of: manifests.map(\.name))
    }

    /// Each block's place when blocks are sorted by name, then by id (see `SearchCorpus.nameRanks`).
    /// A registry lists its blocks by name already: then each block's place is its id.
    static func nameRanks(of names: [String]) -> [UInt32] {
        if zip(names, names.dropFirst()).allSatisfy({ $0 <= $1 }) { return (0..<names.count).map(UInt32.init) }
        let order = names.indices.sorted { (names[$0], $0) < (names[$1], $1) }
        var ranks = [UInt32](repeating: 0, count: names.count)
        for (rank, block) in order.enumerated() { ranks[block] = UInt32(rank) }
        return ranks
    }

    func postings(ofWords words: [Int]) -> [[SearchPosting]] {
        words.map { postingLists[$0] }
    }

    func filterRecords() -> [BlockFilterRecord] { records }

    func listings(of blocks: [Int]) -> [SearchListing] {
        blocks.map { SearchListing(manifests[$0]) }
    }

    func forEachManifest(of blocks: [Int], _ body: (_ place: Int, BlockManifest) throws -> Void) rethrows {
        for (place, block) in blocks.enumerated() { try body(place, manifests[block]) }
    }

    /// The folded words of each field of a block; see `SearchWords`.
    static func fieldWords(of block: SearchableBlock) -> [(SearchEngine.Field, Set<String>)] {
        SearchWords.fieldWords(of: block)
    }
}

/// The words, postings and names of a corpus, gathered a slice of blocks at a time: the
/// on-disk index of a split registry is built while a few ranges are held, not every one.
/// Each slice's blocks get the ids after the slices before.
struct SearchCorpusBuilder {
    /// What an index stores besides each block's row.
    struct Finished {
        /// By word index, aligned with `vocabulary`.
        let postings: JoinedPostings
        let names: PackedStrings
        let nameRanks: [UInt32]

        /// In the order first met, which the same catalog always gives, so its index has the
        /// same bytes: sorting 200,000 words was a fifth of a first search's time on the
        /// thread that writes the index.
        var vocabulary: PackedStrings { postings.vocabulary }
        var postingLists: [[SearchPosting]] { postings.lists }
    }

    private var names: [String] = []
    private var postings = JoinedPostings()

    mutating func add(_ blocks: [SearchableBlock]) {
        InMemorySearchCorpus.addPostings(of: blocks, numberedFrom: names.count, to: &postings)
        names += blocks.map(\.manifest.name)
    }

    /// A slice whose words and postings were made already, its blocks numbered after
    /// those added before.
    mutating func add(_ slice: SearchIndexSlice) {
        postings.append(words: slice.words, lists: slice.lists, blocksBefore: names.count)
        names += slice.names
    }

    func finished() -> Finished {
        Finished(
            postings: postings, names: PackedStrings(names),
            nameRanks: InMemorySearchCorpus.nameRanks(of: names))
    }
}

/// Words in the order first met, each with its postings in block order: what one slice of
/// blocks gives on its core, and what the slices joined in order give.
///
/// Postings are added a block at a time and, within a block, a field at a time, so a word
/// repeated in a field finds its posting last in its list, and each list stays in block order.
///
/// The postings are kept as one run in the order they were added, each with its word's
/// number, and grouped by word only when asked (`grouped`): a list of its own for each of
/// the 210,000 words of 100,000 blocks, on every slice's core and again where the slices
/// are joined, was most of the memory traffic of a first search.
struct OrderedPostings: Sendable {
    /// Packed, as the joined vocabulary keeps them: a `String` each, for the 20,000 words a
    /// slice of 10,000 blocks met first, was an allocation each to make and to free.
    private(set) var words = PackedStrings()
    private var numbers = WordNumbers()
    /// Every posting added, in order, and the number of its word.
    private var postings: [UInt32] = []
    private var postingWords: [UInt32] = []
    /// By word number: its last posting, to leave out a repeat.
    private var lastPostings: [UInt32] = []

    /// The word's number, given it when it is new.
    mutating func number(of word: String) -> Int {
        var word = word
        return word.withUTF8 { number(ofUTF8: $0) }
    }

    /// `number(of:)` for a word given as its UTF-8 bytes.
    mutating func number(ofUTF8 word: UnsafeBufferPointer<UInt8>) -> Int {
        numbered(numbers.number(ofUTF8: word, orNew: words.count), word)
    }

    /// `number(of:)` for a word the caller knows is ASCII.
    mutating func number(ofASCII word: UnsafeBufferPointer<UInt8>) -> Int {
        numbered(numbers.number(ofASCII: word, orNew: words.count), word)
    }

    private mutating func numbered(_ number: Int, _ word: UnsafeBufferPointer<UInt8>) -> Int {
        if number == words.count {
            words.append(utf8: word)
            lastPostings.append(.max)
        }
        return number
    }

    /// Adds a posting to a word's list, unless the list ends with it already.
    mutating func post(_ posting: SearchPosting, to word: Int) {
        guard lastPostings[word] != posting.rawValue else { return }
        lastPostings[word] = posting.rawValue
        postings.append(posting.rawValue)
        postingWords.append(UInt32(word))
    }

    /// The postings by word, aligned with `words`, each list in the order it was added.
    var grouped: PostingLists {
        // A counting sort: where each word's list starts, then every posting put in place.
        var starts = [UInt32](repeating: 0, count: words.count + 1)
        for word in postingWords { starts[Int(word) + 1] += 1 }
        for word in 0..<words.count { starts[word + 1] += starts[word] }
        var next = starts
        let values = [UInt32](unsafeUninitializedCapacity: postings.count) { buffer, initialized in
            for (posting, word) in zip(postings, postingWords) {
                buffer[Int(next[Int(word)])] = posting
                next[Int(word)] += 1
            }
            initialized = postings.count
        }
        return PostingLists(ends: Array(starts.dropFirst()), values: values)
    }
}

/// The words and postings of a whole corpus, made of slices' (`OrderedPostings.grouped`)
/// joined in order: the words in the order first met, each with its postings in block order.
///
/// Each slice's lists are kept as the slice made them, and each word of the whole knows its
/// runs in them; a word's list is put together only when it is read or written
/// (`PostingChunks`), a chunk of words at a time on every core. Copying 4 million postings
/// into one run as slices came, or into a list per word, cost the thread that joins them
/// a quarter of a first search of 100,000 blocks, and the copy's growth 30 MiB of its peak.
struct JoinedPostings: Sendable {
    /// The words, as the index stores them: 210,000 `String`s were the joining thread's
    /// to copy into this form at the end.
    private(set) var vocabulary = PackedStrings()
    private var numbers = WordNumbers()
    /// Each slice's lists, and what its postings gain to name their blocks among all.
    private var slices: [(lists: PostingLists, shift: UInt32)] = []
    /// By word: how many postings it has, and its first and last run (-1: none yet).
    private var counts: [Int] = []
    private var firstRuns: [Int32] = []
    private var lastRuns: [Int32] = []
    /// By run: the slice, the slice's number for the word, and the word's next run (-1: none).
    private var runSlices: [Int32] = []
    private var runWords: [UInt32] = []
    private var nextRuns: [Int32] = []

    /// Appends a later slice's words and lists, its blocks numbered after `blocksBefore`
    /// (none when they were numbered so already).
    mutating func append(words sliceWords: PackedStrings, lists: PostingLists, blocksBefore: Int = 0) {
        let slice = Int32(slices.count)
        slices.append((lists, UInt32(blocksBefore) << 3))
        sliceWords.forEachBytes { sliceWord, word in
            let number = numbers.number(ofUTF8: word, orNew: vocabulary.count)
            if number == vocabulary.count {
                vocabulary.append(utf8: word)
                counts.append(0)
                firstRuns.append(-1)
                lastRuns.append(-1)
            }
            let length = lists.range(sliceWord).count
            guard length > 0 else { return }
            let run = Int32(runSlices.count)
            runSlices.append(slice)
            runWords.append(UInt32(sliceWord))
            nextRuns.append(-1)
            if lastRuns[number] < 0 { firstRuns[number] = run } else { nextRuns[Int(lastRuns[number])] = run }
            lastRuns[number] = run
            counts[number] += length
        }
    }

    var words: [String] { vocabulary.strings }

    /// How many postings `word` has.
    func count(of word: Int) -> Int { counts[word] }

    /// Appends `word`'s postings, in block order, to `values`.
    func appendList(of word: Int, to values: inout [UInt32]) {
        var run = firstRuns[word]
        while run >= 0 {
            let (lists, shift) = slices[Int(runSlices[Int(run)])]
            values += lists.values[lists.range(Int(runWords[Int(run)]))].lazy.map { $0 + shift }
            run = nextRuns[Int(run)]
        }
    }

    func list(_ word: Int) -> [SearchPosting] {
        var values: [UInt32] = []
        appendList(of: word, to: &values)
        return values.map(SearchPosting.init(rawValue:))
    }

    /// The postings by word, aligned with `words`.
    var lists: [[SearchPosting]] { (0..<vocabulary.count).map(list) }
}

/// Posting lists one after another, in word order, as one run of postings and the place
/// where each list ends: what an index is written from (`PostingChunks`) without a heap
/// allocation per word.
struct PostingLists: Sendable, Equatable {
    /// `ends[i]` is the place just past list `i`; list `i` starts at `ends[i - 1]` (or 0).
    let ends: [UInt32]
    let values: [UInt32]

    init(ends: [UInt32], values: [UInt32]) {
        self.ends = ends
        self.values = values
    }

    init(_ lists: [[SearchPosting]]) {
        var values: [UInt32] = []
        var ends: [UInt32] = []
        for list in lists {
            values += list.lazy.map(\.rawValue)
            ends.append(UInt32(values.count))
        }
        self.init(ends: ends, values: values)
    }

    var count: Int { ends.count }

    func range(_ word: Int) -> Range<Int> {
        (word == 0 ? 0 : Int(ends[word - 1]))..<Int(ends[word])
    }

    subscript(word: Int) -> [SearchPosting] {
        values[range(word)].map(SearchPosting.init(rawValue:))
    }

    var lists: [[SearchPosting]] { (0..<count).map { self[$0] } }
}
