/// The ranking behind `blocks search`, over any `SearchCorpus`, so the in-memory engine
/// and the on-disk index rank alike by construction.
///
/// Each query word is matched once against the vocabulary; each block keeps, per query
/// word and field, its best match quality times the field's weight, and scores the best
/// field plus a quarter of the others. The exact name adds 10,000
/// and a name prefix 2,000. Blocks that match every word win; when none does, the
/// blocks that match the most words are shown instead.
enum SearchRanking {
    /// One ranked block, by its id in the corpus.
    struct Ranked: Sendable, Equatable {
        var block: Int
        var score: Double
        /// How many of the query's words this block matched.
        var matchedWords: Int
    }

    struct Outcome: Sendable, Equatable {
        var blocks: [Ranked]
        /// True when no block had every word and these are the closest matches.
        var isPartial: Bool
    }

    static func rank(_ query: String, filters: SearchEngine.Filters, limit: Int?, in corpus: SearchCorpus) throws -> Outcome {
        let queryWords = TextNormalizer.words(query)
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
        // The best match per block and field for the current query word; a word found in
        // several fields (title, tags and summary) says more than a word found in one.
        let fieldCount = SearchEngine.Field.allCases.count
        var best = [Double](repeating: 0, count: count * fieldCount)
        var isTouched = [Bool](repeating: false, count: count)
        for queryWord in queryWords {
            let matches = WordMatcher(queryWord).matches(in: corpus.vocabulary)
            let lists = try corpus.postings(ofWords: matches.map(\.word))
            var touched: [Int] = []
            for (match, postings) in zip(matches, lists) {
                for posting in postings {
                    let block = posting.block
                    guard block < count, let field = posting.field else { throw SearchIndexError.damaged("a posting names no block") }
                    guard isAllowed(block) else { continue }
                    let score = match.quality * field.weight
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
                scores[block] += ordered[0] + SearchEngine.otherFieldsShare * ordered.dropFirst().reduce(0, +)
                matched[block] += 1
                scored[block] = true
                for slot in slots { best[slot] = 0 }
                isTouched[block] = false
            }
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
                matched[block] = queryWords.count
                scored[block] = true
            case .prefix:
                scores[block] += 2_000
                scored[block] = true
            case .none:
                break
            }
        }

        let candidates = (0..<count).filter { scored[$0] }
        let complete = candidates.filter { matched[$0] == queryWords.count }
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
