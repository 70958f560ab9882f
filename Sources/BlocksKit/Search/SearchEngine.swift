/// The vocabulary of search: the fields a word is found in and their weights, the
/// filters, a hit and an outcome, and how closely two words match.
///
/// Ranking follows what a user means: the exact name first, then a name prefix, then
/// matches in the title, tags, category, API parameter names, summary, descriptions and
/// the names in the block's code. Each query
/// word must match somewhere; when no block has them all, the blocks that have the
/// most of them are shown instead. The scoring itself is `SearchRanking`; `SearchIndex`
/// runs it, over an index on disk or a corpus in memory.
public enum SearchEngine {
    /// Where a word was found, with the weight that ranks it.
    enum Field: Int, CaseIterable, Sendable {
        case name, title, tags, category, summary, api
        /// API descriptions and types' words, and the accessibility notes and concepts.
        case details
        /// The public names in the block's code (`CodeNames`). The last that fits the
        /// three bits a `SearchPosting` has for its field.
        case codeNames

        var weight: Double {
            switch self {
            case .name: return 300
            case .title: return 120
            case .tags: return 90
            case .category: return 60
            // Above the summary, as issue 16 orders them: `tab change` finds the pager by
            // its `onTabChange(_:)` before blocks whose summary says "changes".
            case .api: return 50
            case .summary: return 40
            case .details: return 12
            case .codeNames: return 8
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

        var isEmpty: Bool { platform == nil && level == nil && category == nil && tag == nil }
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
        /// How many blocks matched, before the limit.
        public var total: Int
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
}
