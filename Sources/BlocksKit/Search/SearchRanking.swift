/// The ranking behind `blocks search`, over any `SearchCorpus`, so the in-memory engine
/// and the on-disk index rank alike by construction. In order:
///
/// 1. Each query word is matched once against the vocabulary (`WordMatcher`: exact 1,
///    prefix 0.8, typo 0.6).
/// 2. A match in a field scores quality × the field's weight (name > title > tags >
///    category > summary > API > details) × the word's rarity, `idf`, as BM25 has it:
///    a word every block has says little about which block is meant.
/// 3. Per query word a block keeps its best field plus a quarter of the others.
/// 4. Two query words next to each other that a block has in the same field add
///    `adjacencyShare` of the smaller of their two scores there.
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

    /// The query words that must match: all but function words, or all of them when
    /// the query is only function words.
    static func isRequired(_ queryWords: [String]) -> [Bool] {
        let required = queryWords.map { !SearchWords.functionWords.contains($0) }
        return required.contains(true) ? required : queryWords.map { _ in true }
    }

    static func rank(_ query: String, filters: SearchEngine.Filters, limit: Int?, in corpus: SearchCorpus) throws -> Outcome {
        let queryWords = TextNormalizer.words(query)
        let required = isRequired(queryWords)
        let requiredCount = required.filter { $0 }.count
        let count = corpus.blockCount
        let allowedMask: [Bool]? = filters.isEmpty ? nil : try corpus.filterRecords().map { $0.passes(filters) }
        func isAllowed(_ block: Int) -> Bool { allowedMask?[block] ?? true }

        guard !queryWords.isEmpty else {
            let blocks = (0..<count).lazy.filter(isAllowed).prefix(limit ?? .max)
                .map { Ranked(block: $0, score: 0, matchedWords: 0) }
            return Outcome(blocks: Array(blocks), isPartial: false)
        }

        var scores = [Double](repeating: 0, count: count)
        var matched = [Int](repeating: 0, count: count)
        var scored = [Bool](repeating: false, count: count)
        // The best match per block and field for the current query word, and for the
        // word before it (for the adjacency bonus).
        let fieldCount = SearchEngine.Field.allCases.count
        var best = [Double](repeating: 0, count: count * fieldCount)
        var previous = [Double](repeating: 0, count: count * fieldCount)
        var previousTouched: [Int] = []
        var isTouched = [Bool](repeating: false, count: count)
        for (position, queryWord) in queryWords.enumerated() {
            let matches = WordMatcher(queryWord).matches(in: corpus.vocabulary)
            let lists = try corpus.postings(ofWords: matches.map(\.word))
            var touched: [Int] = []
            for (match, postings) in zip(matches, lists) {
                var blocksWithWord = 0
                var lastBlock = -1
                for posting in postings where posting.block != lastBlock {
                    blocksWithWord += 1
                    lastBlock = posting.block
                }
                let rarity = idf(blocksWithWord: blocksWithWord, blockCount: count)
                for posting in postings {
                    let block = posting.block
                    guard block < count, let field = posting.field else { throw SearchIndexError.damaged("a posting names no block") }
                    guard isAllowed(block) else { continue }
                    let score = match.quality * field.weight * rarity
                    let slot = block * fieldCount + field.rawValue
                    if score > best[slot] {
                        if !isTouched[block] {
                            isTouched[block] = true
                            touched.append(block)
                        }
                        best[slot] = score
                    }
                }
            }
            for block in touched {
                let slots = block * fieldCount ..< (block + 1) * fieldCount
                let ordered = best[slots].filter { $0 > 0 }.sorted(by: >)
                var adjacency = 0.0
                if position > 0 {
                    for slot in slots where previous[slot] > 0 { adjacency = max(adjacency, min(previous[slot], best[slot])) }
                }
                scores[block] += ordered[0] + SearchEngine.otherFieldsShare * ordered.dropFirst().reduce(0, +) + adjacencyShare * adjacency
                if required[position] { matched[block] += 1 }
                scored[block] = true
                isTouched[block] = false
            }
            // The current word becomes the previous one; the cleared array is the next `best`.
            for block in previousTouched {
                for slot in block * fieldCount ..< (block + 1) * fieldCount { previous[slot] = 0 }
            }
            swap(&best, &previous)
            previousTouched = touched
        }

        // The whole query naming a block outranks everything else.
        let joined = queryWords.joined(separator: "-")
        let folded = TextNormalizer.fold(query)
        let nameMatcher = NameMatcher(joined: joined, folded: folded)
        let names = corpus.names
        for block in 0..<count where isAllowed(block) {
            switch nameMatcher.match(names, block) {
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

        let candidates = (0..<count).filter { scored[$0] }
        let complete = candidates.filter { matched[$0] == requiredCount }
        let isPartial = complete.isEmpty
        let ranks = corpus.nameRanks
        let sorted = (isPartial ? candidates : complete).sorted { left, right in
            if matched[left] != matched[right] { return matched[left] > matched[right] }
            if scores[left] != scores[right] { return scores[left] > scores[right] }
            return ranks[left] < ranks[right]
        }
        let blocks = sorted.prefix(limit ?? .max).map { Ranked(block: $0, score: scores[$0], matchedWords: matched[$0]) }
        return Outcome(blocks: Array(blocks), isPartial: isPartial && !sorted.isEmpty)
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

/// How a block's name relates to the whole query: the same, starting with it, or neither.
private struct NameMatcher {
    enum Match { case exact, prefix, none }

    let joined: String
    let folded: String
    let queryIsASCII: Bool

    init(joined: String, folded: String) {
        self.joined = joined
        self.folded = folded
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
