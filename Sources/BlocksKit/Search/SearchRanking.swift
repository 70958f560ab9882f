/// The ranking behind `blocks search`, over any `SearchCorpus`, so the in-memory engine
/// and the on-disk index rank alike by construction. In order:
///
/// 1. Each query word is matched once against the vocabulary (`WordMatcher`: exact 1,
///    prefix 0.8, typo 0.6).
/// 2. A match in a field scores quality × the field's weight (name > title > tags >
///    category > API > summary > details > code names) × the word's rarity, `idf`,
///    as BM25 has it: a word every block has says little about which block is meant.
/// 3. Per query word a block keeps its best field plus a quarter of the others.
/// 4. Two query words next to each other that a block has in the same field add
///    `adjacencyShare` of the smaller of their two scores there; when the field has them
///    as one word, as an identifier's parts are (`tab change` in `onTabChange`), that
///    word adds its own score too.
/// 5. The exact name adds 10,000 and a name prefix 2,000.
/// 6. Blocks that match every query word win, except function words ("for", "para",
///    `SearchWords.functionWords`), which need not match but add to the score. When
///    no block matches them all, the blocks matching the most are shown instead.
enum SearchRanking {
    /// One ranked block, by its id in the corpus.
    struct Ranked: Sendable, Equatable {
        var block: Int
        var score: Double
        /// How many of the query's words that must match this block matched.
        var matchedWords: Int
    }

    struct Outcome: Sendable, Equatable {
        var blocks: [Ranked]
        /// True when no block had every word and these are the closest matches.
        var isPartial: Bool
        /// How many blocks matched, before the limit.
        var total: Int
    }

    /// How much adjacent query words found in one field add.
    static let adjacencyShare = 0.5

    /// How rare a word is among `blockCount` blocks when `blocksWithWord` have it:
    /// BM25's inverse document frequency, plus one half so a word every block has
    /// still counts.
    static func idf(blocksWithWord: Int, blockCount: Int) -> Double {
        let n = Double(blockCount)
        let df = Double(blocksWithWord)
        let ratio: Double = (n - df + 0.5) / (df + 0.5)
        return 0.5 + log(1 + ratio)
    }

    /// The query's folded words. A word written as an identifier that no word of the
    /// catalog matches, whole or with a typo (`ScrollViewProxy`), is looked for by its
    /// parts (`scroll`, `view`, `proxy`), as identifiers are indexed by both.
    static func queryWords(_ query: String, vocabulary: PackedStrings) -> [String] {
        var words: [String] = []
        for token in query.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let whole = TextNormalizer.words(String(token))
            let parts = TextNormalizer.words(SearchWords.splitIdentifier(String(token)))
            let isUnknown = parts.count > whole.count && whole.allSatisfy { WordMatcher($0).matches(in: vocabulary).isEmpty }
            words += isUnknown ? parts : whole
        }
        return words
    }

    /// The query words that must match: all but function words, or all of them when
    /// the query is only function words.
    static func isRequired(_ queryWords: [String]) -> [Bool] {
        let required = queryWords.map { !SearchWords.functionWords.contains($0) }
        return required.contains(true) ? required : queryWords.map { _ in true }
    }

    /// The blocks for a query, best first: the steps of the list above, in order.
    static func rank(_ query: String, filters: SearchEngine.Filters, limit: Int?, in corpus: SearchCorpus) throws -> Outcome {
        let queryWords = self.queryWords(query, vocabulary: corpus.vocabulary)
        let allowed = try AllowedBlocks(filters, in: corpus)
        guard !queryWords.isEmpty else { return allowed.unranked(count: corpus.blockCount, limit: limit) }
        var tally = Tally(blockCount: corpus.blockCount, required: isRequired(queryWords))
        var fields = FieldScores(blockCount: corpus.blockCount)
        for (position, queryWord) in queryWords.enumerated() {
            try fields.match(queryWord, in: corpus, allowed: allowed)  // steps 1 and 2
            tally.add(fields, wordAt: position)  // steps 3 and 4
            if position > 0 { try tally.addPhrase(queryWords[position - 1], queryWord, in: corpus, allowed: allowed) }  // step 4
            fields.moveToNextWord()
        }
        tally.addNameMatches(NameMatcher(queryWords: queryWords, query: query), names: corpus.names, allowed: allowed)  // step 5
        return tally.outcome(limit: limit, nameRanks: corpus.nameRanks)  // step 6
    }

    /// Names near a query that found nothing, then words near its first word.
    static func suggestions(for query: String, in corpus: SearchCorpus) -> [String] {
        var found = WordMatcher.suggestions(for: TextNormalizer.fold(query), in: corpus.names)
        if found.isEmpty, let first = TextNormalizer.words(query).first {
            found = WordMatcher.suggestions(for: first, in: corpus.vocabulary)
        }
        return found
    }
}

/// The blocks the filters let through: all of them when there are no filters.
private struct AllowedBlocks {
    /// By block id; nil when every block is allowed.
    let mask: [Bool]?

    init(_ filters: SearchEngine.Filters, in corpus: SearchCorpus) throws {
        mask = filters.isEmpty ? nil : try corpus.filterRecords().map { $0.passes(filters) }
    }

    func contains(_ block: Int) -> Bool { mask?[block] ?? true }

    /// An empty query: every allowed block, in catalog order.
    func unranked(count: Int, limit: Int?) -> SearchRanking.Outcome {
        let allowed = (0..<count).filter(contains)
        let blocks = allowed.prefix(limit ?? .max).map { SearchRanking.Ranked(block: $0, score: 0, matchedWords: 0) }
        return SearchRanking.Outcome(blocks: blocks, isPartial: false, total: allowed.count)
    }
}

/// Steps 1 and 2 for one query word: per block and field, the best score of any word it
/// matched there, kept beside the previous query word's for the adjacency bonus. Flat
/// arrays indexed by `block * fieldCount + field`, cleared block by block, so a query on
/// 10,000 blocks allocates them once.
private struct FieldScores {
    static let fieldCount = SearchEngine.Field.allCases.count
    let blockCount: Int
    /// The current query word's best score per block and field.
    private(set) var current: [Double]
    /// The previous query word's, zero for the first.
    private(set) var previous: [Double]
    /// The blocks with a score for the current word, in the order first reached.
    private(set) var touched: [Int] = []
    private var previousTouched: [Int] = []
    private var isTouched: [Bool]

    init(blockCount: Int) {
        self.blockCount = blockCount
        current = [Double](repeating: 0, count: blockCount * Self.fieldCount)
        previous = current
        isTouched = [Bool](repeating: false, count: blockCount)
    }

    /// Scores every posting of every vocabulary word the query word matches.
    mutating func match(_ queryWord: String, in corpus: SearchCorpus, allowed: AllowedBlocks) throws {
        let matches = WordMatcher(queryWord).matches(in: corpus.vocabulary)
        let lists = try corpus.postings(ofWords: matches.map(\.word))
        for (match, postings) in zip(matches, lists) {
            let rarity = SearchRanking.idf(blocksWithWord: Self.distinctBlocks(postings), blockCount: blockCount)
            for posting in postings {
                let block = posting.block
                guard block < blockCount, let field = posting.field else { throw SearchIndexError.damaged("a posting names no block") }
                guard allowed.contains(block) else { continue }
                record(match.quality * field.weight * rarity, block: block, field: field)
            }
        }
    }

    /// Postings are grouped by block, so counting changes of block counts blocks.
    static func distinctBlocks(_ postings: [SearchPosting]) -> Int {
        var count = 0
        var last = -1
        for posting in postings where posting.block != last {
            count += 1
            last = posting.block
        }
        return count
    }

    private mutating func record(_ score: Double, block: Int, field: SearchEngine.Field) {
        let slot = block * Self.fieldCount + field.rawValue
        guard score > current[slot] else { return }
        if !isTouched[block] {
            isTouched[block] = true
            touched.append(block)
        }
        current[slot] = score
    }

    /// Steps 3 and 4 for one block: its best field, `otherFieldsShare` of the others, and
    /// `adjacencyShare` of the smaller of this word's and the previous word's score in one
    /// field, taking the field where that is largest.
    func score(of block: Int) -> Double {
        let slots = block * Self.fieldCount..<(block + 1) * Self.fieldCount
        var adjacency = 0.0
        for slot in slots where previous[slot] > 0 { adjacency = max(adjacency, min(previous[slot], current[slot])) }
        // The field scores best first, sorted on the stack: this runs for every block a
        // word reaches, 10,000 times for `tabs` in a large registry.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.fieldCount) { ordered in
            var count = 0
            for slot in slots where current[slot] > 0 {
                var position = count
                while position > 0 && ordered[position - 1] < current[slot] {
                    ordered[position] = ordered[position - 1]
                    position -= 1
                }
                ordered[position] = current[slot]
                count += 1
            }
            var others = 0.0
            for position in 1..<max(count, 1) { others += ordered[position] }
            return ordered[0] + SearchEngine.otherFieldsShare * others + SearchRanking.adjacencyShare * adjacency
        }
    }

    /// The current word becomes the previous one; the cleared array is the next `current`.
    mutating func moveToNextWord() {
        for block in previousTouched {
            for slot in block * Self.fieldCount..<(block + 1) * Self.fieldCount { previous[slot] = 0 }
        }
        for block in touched { isTouched[block] = false }
        swap(&current, &previous)
        previousTouched = touched
        touched = []
    }
}

/// What each block has gathered over the query's words (steps 3 to 6): its score, how
/// many required words it matched, and whether it matched anything at all.
private struct Tally {
    var scores: [Double]
    var matched: [Int]
    var scored: [Bool]
    /// Per query word, whether a block must match it (`SearchRanking.isRequired`).
    let required: [Bool]
    let requiredCount: Int

    init(blockCount: Int, required: [Bool]) {
        scores = [Double](repeating: 0, count: blockCount)
        matched = [Int](repeating: 0, count: blockCount)
        scored = [Bool](repeating: false, count: blockCount)
        self.required = required
        requiredCount = required.filter { $0 }.count
    }

    /// Steps 3 and 4: adds one query word's score to every block it reached.
    mutating func add(_ fields: FieldScores, wordAt position: Int) {
        for block in fields.touched {
            scores[block] += fields.score(of: block)
            if required[position] { matched[block] += 1 }
            scored[block] = true
        }
    }

    /// Step 4's phrase: two adjacent query words that a field of the block has as one
    /// word (`tab change` in `ontabchange`) add that word's best score in the block, as a
    /// query word's. Only blocks the words themselves reached gain; function words make
    /// no phrase.
    mutating func addPhrase(_ first: String, _ second: String, in corpus: SearchCorpus, allowed: AllowedBlocks) throws {
        guard !SearchWords.functionWords.contains(first), !SearchWords.functionWords.contains(second) else { return }
        let matches = WordMatcher.words(holding: first + second, in: corpus.vocabulary)
        let lists = try corpus.postings(ofWords: matches.map(\.word))
        var best: [Int: Double] = [:]
        for (match, postings) in zip(matches, lists) {
            let rarity = SearchRanking.idf(blocksWithWord: FieldScores.distinctBlocks(postings), blockCount: scores.count)
            for posting in postings {
                let block = posting.block
                guard block < scores.count, let field = posting.field else { throw SearchIndexError.damaged("a posting names no block") }
                guard allowed.contains(block), scored[block] else { continue }
                best[block] = max(best[block] ?? 0, match.quality * field.weight * rarity)
            }
        }
        for (block, score) in best { scores[block] += score }
    }

    /// Step 5: the whole query naming a block outranks everything else, and a name it
    /// starts comes next.
    mutating func addNameMatches(_ matcher: NameMatcher, names: PackedStrings, allowed: AllowedBlocks) {
        for block in 0..<scores.count where allowed.contains(block) {
            switch matcher.match(names, block) {
            case .exact:
                scores[block] += 10_000
                matched[block] = requiredCount
                scored[block] = true
            case .prefix:
                scores[block] += 2_000
                scored[block] = true
            case .none:
                break
            }
        }
    }

    /// Step 6: the blocks that matched every required word, or when none did the closest
    /// ones (a partial outcome); most words first, then score, then name.
    func outcome(limit: Int?, nameRanks: [UInt32]) -> SearchRanking.Outcome {
        let candidates = scored.indices.filter { scored[$0] }
        let complete = candidates.filter { matched[$0] == requiredCount }
        let isPartial = complete.isEmpty
        let found = isPartial ? candidates : complete
        // The first `limit` in the order a stable sort of them all gives.
        let best = found.min(count: limit ?? found.count) { left, right in
            if matched[left] != matched[right] { return matched[left] > matched[right] }
            if scores[left] != scores[right] { return scores[left] > scores[right] }
            return nameRanks[left] < nameRanks[right]
        }
        let blocks = best.map { SearchRanking.Ranked(block: $0, score: scores[$0], matchedWords: matched[$0]) }
        return SearchRanking.Outcome(blocks: blocks, isPartial: isPartial && !found.isEmpty, total: found.count)
    }
}

/// How a block's name relates to the whole query: the same, starting with it, or neither.
private struct NameMatcher {
    enum Match { case exact, prefix, none }

    let joined: String
    let folded: String
    let queryIsASCII: Bool

    /// The query's words joined by dashes, as names are written, and the whole query folded.
    init(queryWords: [String], query: String) {
        joined = queryWords.joined(separator: "-")
        folded = TextNormalizer.fold(query)
        queryIsASCII = joined.utf8.allSatisfy { $0 < 0x80 } && folded.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Compares bytes when everything is ASCII (where that equals `String` comparison),
    /// and strings otherwise.
    func match(_ names: PackedStrings, _ block: Int) -> Match {
        let name = names.bytes[names.range(block)]
        if queryIsASCII && name.allSatisfy({ $0 < 0x80 }) {
            if name.elementsEqual(joined.utf8) || name.elementsEqual(folded.utf8) { return .exact }
            return name.starts(with: joined.utf8) ? .prefix : .none
        }
        let text = names[block]
        if text == joined || text == folded { return .exact }
        return text.hasPrefix(joined) ? .prefix : .none
    }
}
