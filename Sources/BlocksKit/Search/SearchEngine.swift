/// Ranked, typo-tolerant search over every language of every block's metadata.
///
/// Ranking follows what a user means: the exact name first, then a name prefix, then
/// matches in the title, tags, category, summary and API parameter names. Each query
/// word must match somewhere; when no block has them all, the blocks that have the
/// most of them are shown instead.
public struct SearchEngine: Sendable {
    /// Where a word was found, with the weight that ranks it.
    enum Field: Int, CaseIterable, Sendable {
        case name, title, tags, category, summary, api

        var weight: Double {
            switch self {
            case .name: return 300
            case .title: return 120
            case .tags: return 90
            case .category: return 60
            case .summary: return 40
            case .api: return 25
            }
        }
    }

    /// The filters from the command line; nil means no filter.
    public struct Filters: Sendable {
        public var platform: PlatformFilter?
        public var level: String?
        public var category: String?
        public var tag: String?

        public init(platform: PlatformFilter? = nil, level: String? = nil, category: String? = nil, tag: String? = nil) {
            self.platform = platform
            self.level = level
            self.category = category
            self.tag = tag
        }
    }

    /// One ranked result.
    public struct Hit: Sendable {
        public var manifest: BlockManifest
        public var score: Double
        /// How many of the query's words this block matched.
        public var matchedWords: Int
    }

    /// The outcome: hits, and whether they are partial matches because no block had every word.
    public struct Outcome: Sendable {
        public var hits: [Hit]
        public var isPartial: Bool
    }

    let manifests: [BlockManifest]
    /// For each block, the folded words of each field.
    let documents: [[Field: Set<String>]]
    /// Every distinct word, so fuzzy matching runs once per word, not once per block.
    let vocabulary: [String: [(block: Int, field: Field)]]

    public init(manifests: [BlockManifest]) {
        self.manifests = manifests
        var documents: [[Field: Set<String>]] = []
        var vocabulary: [String: [(block: Int, field: Field)]] = [:]
        for (index, manifest) in manifests.enumerated() {
            var document: [Field: Set<String>] = [:]
            document[.name] = Set(TextNormalizer.words(manifest.name))
            document[.title] = Set(manifest.title.values.flatMap(TextNormalizer.words))
            document[.tags] = Set(manifest.tags.values.joined().flatMap(TextNormalizer.words))
            document[.category] = Set(TextNormalizer.words(manifest.category))
            document[.summary] = Set(manifest.summary.values.flatMap(TextNormalizer.words))
            document[.api] = Set(manifest.api.flatMap { TextNormalizer.words(Self.splitCamelCase($0.name)) + [TextNormalizer.fold($0.name)] })
            for (field, words) in document {
                for word in words { vocabulary[word, default: []].append((index, field)) }
            }
            documents.append(document)
        }
        self.documents = documents
        self.vocabulary = vocabulary
    }

    /// How much a word's matches in its other fields add to its best one.
    static let otherFieldsShare = 0.25

    /// How closely a query word matches an indexed word: 1 exact, 0.8 prefix, 0.6 typo.
    /// Typos: one edit for words of 4 to 7 letters, two edits beyond.
    static func matchQuality(query: String, word: String) -> Double {
        if query == word { return 1 }
        if query.count >= 2 && word.hasPrefix(query) { return 0.8 }
        let allowed = query.count >= 8 ? 2 : (query.count >= 4 ? 1 : 0)
        guard allowed > 0 else { return 0 }
        let candidate = word.count > query.count + allowed ? String(word.prefix(query.count + allowed)) : word
        // A typo in a prefix of a longer word ("scrol" in "scrollable") counts less.
        if EditDistance.distance(query, word, limit: allowed) <= allowed { return 0.6 }
        if candidate != word, EditDistance.distance(query, candidate, limit: allowed) <= allowed { return 0.45 }
        return 0
    }

    static func splitCamelCase(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isUppercase && !result.isEmpty { result.append(" ") }
            result.append(character)
        }
        return result
    }

    func passes(_ manifest: BlockManifest, _ filters: Filters) -> Bool {
        if let platform = filters.platform, !platform.accepts(manifest.platforms) { return false }
        if let level = filters.level, manifest.level.lowercased() != level.lowercased() { return false }
        if let category = filters.category, TextNormalizer.fold(manifest.category) != TextNormalizer.fold(category) { return false }
        if let tag = filters.tag {
            let wanted = TextNormalizer.fold(tag)
            if !manifest.tags.values.joined().contains(where: { TextNormalizer.fold($0) == wanted }) { return false }
        }
        return true
    }

    public func search(_ query: String, filters: Filters = Filters(), limit: Int? = nil) -> Outcome {
        let queryWords = TextNormalizer.words(query)
        let allowed = manifests.indices.filter { passes(manifests[$0], filters) }
        guard !queryWords.isEmpty else {
            let hits = allowed.map { Hit(manifest: manifests[$0], score: 0, matchedWords: 0) }
            return Outcome(hits: Array(hits.prefix(limit ?? .max)), isPartial: false)
        }
        let allowedSet = Set(allowed)
        var scores: [Int: Double] = [:]
        var matched: [Int: Int] = [:]
        for queryWord in queryWords {
            // The best match per block and field; a word found in several fields (title,
            // tags and summary) says more than a word found in one.
            var best: [Int: [Field: Double]] = [:]
            for (word, postings) in vocabulary {
                let quality = Self.matchQuality(query: queryWord, word: word)
                guard quality > 0 else { continue }
                for posting in postings where allowedSet.contains(posting.block) {
                    let score = quality * posting.field.weight
                    if score > best[posting.block, default: [:]][posting.field, default: 0] {
                        best[posting.block, default: [:]][posting.field] = score
                    }
                }
            }
            for (block, fields) in best {
                let ordered = fields.values.sorted(by: >)
                scores[block, default: 0] += ordered[0] + Self.otherFieldsShare * ordered.dropFirst().reduce(0, +)
                matched[block, default: 0] += 1
            }
        }
        // The whole query naming a block outranks everything else.
        let joined = queryWords.joined(separator: "-")
        for block in allowed {
            let name = manifests[block].name
            if name == joined || name == TextNormalizer.fold(query) {
                scores[block, default: 0] += 10_000
                matched[block] = queryWords.count
            } else if name.hasPrefix(joined) {
                scores[block, default: 0] += 2_000
            }
        }
        let complete = scores.keys.filter { matched[$0] == queryWords.count }
        let isPartial = complete.isEmpty
        let chosen = isPartial ? Array(scores.keys) : complete
        let hits = chosen
            .map { Hit(manifest: manifests[$0], score: scores[$0] ?? 0, matchedWords: matched[$0] ?? 0) }
            .sorted { ($1.matchedWords, $1.score, $0.manifest.name) < ($0.matchedWords, $0.score, $1.manifest.name) }
        return Outcome(hits: Array(hits.prefix(limit ?? .max)), isPartial: isPartial && !hits.isEmpty)
    }

    /// Names and tag words near a query that found nothing, for "did you mean".
    public func suggestions(for query: String) -> [String] {
        let names = manifests.map(\.name)
        var found = EditDistance.suggestions(for: TextNormalizer.fold(query), in: names)
        if found.isEmpty, let first = TextNormalizer.words(query).first {
            found = EditDistance.suggestions(for: first, in: Array(vocabulary.keys))
        }
        return found
    }
}
