import Foundation
import Testing

@testable import BlocksKit

/// The SQLite index and the in-memory engine must rank exactly alike, and exactly as the
/// engine did before both shared one core: the same hits, order, scores and fallback.
@Suite struct SearchIndexParityTests {
    /// Queries in English and Spanish, with accents, typos, prefixes, names, numbers,
    /// several words, words nothing has, and every filter.
    static let cases: [(query: String, filters: SearchEngine.Filters, limit: Int?)] = [
        ("", .init(), nil),
        ("", .init(), 7),
        ("tabs", .init(), nil),
        ("tabs", .init(), 0),
        ("pestañas", .init(), 12),
        ("PESTANAS", .init(), nil),
        ("scroling", .init(), nil),
        ("carousel toolbar", .init(), nil),
        ("carusel tolbar", .init(), nil),
        ("toolbar zzzzzzzz", .init(), nil),
        ("zzzzzzzz qqqqqqqq", .init(), nil),
        ("barra lateral", .init(), nil),
        ("cajon", .init(), nil),
        ("valoracion", .init(), 5),
        ("sel", .init(), nil),
        ("selection", .init(), nil),
        ("style", .init(), nil),
        ("chipsStyle", .init(), nil),
        ("pagnador", .init(), nil),
        ("menu", .init(), nil),
        ("42", .init(), nil),
        ("00042", .init(), nil),
        ("to", .init(), nil),
        ("x", .init(), nil),
        ("scroling-stirp", .init(), nil),
        ("qqqqqqqq", .init(), nil),
        ("swiftui apps", .init(), nil),
        ("tabs", .init(platform: PlatformFilter("ios17")), nil),
        ("toolbar", .init(level: "Advanced"), nil),
        ("", .init(level: "beginner", tag: "Cajón"), nil),
        ("slider", .init(category: "TABS"), nil),
        ("slider", .init(category: "other"), nil),
        ("", .init(platform: PlatformFilter("iOS 26"), level: "intermediate", tag: "rating"), 4),
        ("drawer", .init(platform: PlatformFilter("ipados16")), nil),
    ]

    /// Queries on the synthetic blocks' code: each declares `public struct <Name><index>:
    /// View` and calls `Text`.
    static let codeCases: [(query: String, filters: SearchEngine.Filters, limit: Int?)] = [
        ("Text", .init(), 5),
        ("SwiftUI view", .init(), 5),
        ("TabsStrip00042", .init(), nil),
        ("tabs strip", .init(), 10),
        ("ToolbarSliderView", .init(), nil),
        ("tabsstrip", .init(platform: PlatformFilter("ios17")), nil),
    ]

    static func summary(_ outcome: SearchEngine.Outcome) -> [String] {
        outcome.hits.map { "\($0.manifest.name) \($0.score) \($0.matchedWords)" } + ["partial: \(outcome.isPartial)"]
    }

    @Test func synthetic300BlockCatalogRanksAlikeInEveryStore() throws {
        let catalog = try #require(SyntheticCatalog.shared300)
        let cache = try TemporaryFolder("search-cache")
        defer { cache.cleanUp() }
        let source = CatalogSource.folder(catalog)
        let blocks = try source.searchableBlocks()
        #expect(blocks.count == 300)
        let reference = ReferenceSearch(blocks: blocks)
        let engine = InMemorySearch(blocks: blocks)
        let index = try SearchIndex.open(for: source, cacheDirectory: cache.url)
        #expect(index.finalStatus() == .built)
        let reopened = try SearchIndex.open(for: source, cacheDirectory: cache.url)

        var nonEmpty = 0
        for item in Self.cases + Self.codeCases {
            let expected = reference.search(item.query, filters: item.filters, limit: item.limit)
            let fromMemory = Self.summary(engine.search(item.query, filters: item.filters, limit: item.limit))
            let fromDisk = Self.summary(try index.search(item.query, filters: item.filters, limit: item.limit))
            let fromReopened = Self.summary(try reopened.search(item.query, filters: item.filters, limit: item.limit))
            #expect(fromMemory == expected, "in memory: \(item.query)")
            #expect(fromDisk == expected, "index: \(item.query)")
            #expect(fromReopened == expected, "reopened index: \(item.query)")
            #expect(engine.suggestions(for: item.query) == reference.suggestions(for: item.query), "suggestions: \(item.query)")
            #expect(index.suggestions(for: item.query) == reference.suggestions(for: item.query), "suggestions: \(item.query)")
            if expected.count > 1 { nonEmpty += 1 }
        }
        #expect(reopened.finalStatus() == .reused)
        // The table must exercise real rankings, not a run of empty results.
        #expect(nonEmpty >= 25)
    }

    @Test func theRealCatalogRanksAlikeInEveryStore() throws {
        let cache = try TemporaryFolder("search-cache")
        defer { cache.cleanUp() }
        let source = CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog"))
        let blocks = try source.searchableBlocks()
        let reference = ReferenceSearch(blocks: blocks)
        let index = try SearchIndex.open(for: source, cacheDirectory: cache.url)
        #expect(index.finalStatus() == .built)
        for query in ["tabs", "pestanas", "scroling", "pager", "pagre", "swipe pages", "picker segmented", "badge", "zzzzzzzz", "top"] + Self.issueQueries {
            let expected = reference.search(query, filters: .init(), limit: nil)
            #expect(Self.summary(try index.search(query)) == expected, "\(query)")
            #expect(Self.summary(InMemorySearch(blocks: blocks).search(query)) == expected, "\(query)")
        }
    }

    /// Issue 16's queries, whose words come from every source: names, API, descriptions,
    /// accessibility concepts, function words and the names in the code.
    static let issueQueries = [
        "finger", "onGeometryChange", "accessibilityReduceMotion", "large text", "screen reader", "lector de pantalla",
        "tabs for categories", "pestañas para ipad", "follows the finger", "onTabChange", "tab change", "change",
        "ScrollViewProxy", "scroll view proxy", "Binding<Item.ID?>", "item id", "ScrollView", "Capsule", "matchedGeometryEffect",
        "PagerTabState", "scrollPosition", "onGeometyChange", "tab bar", "zzzzzzzz",
    ]

    /// The embedded catalog (in memory), the same catalog as a folder (SQLite index of its
    /// files) and as a built registry read from a folder and over HTTP (SQLite index of
    /// its `index.json`) find the same blocks with the same scores.
    @Test func theEmbeddedCatalogAFolderAndABuiltRegistryFindTheSame() throws {
        let folder = try TemporaryFolder("search-stores")
        defer { folder.cleanUp() }
        let catalog = CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog"))
        try RegistryFixtures.build(catalog: repositoryRoot.appendingPathComponent("Catalog"), output: folder.path("public"))
        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }
        let (context, _, _) = makeContext(directory: folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path])
        let cache = folder.path("cache")
        let embedded = try SearchIndex.open(for: CatalogSource.embedded, cacheDirectory: cache)
        #expect(embedded.finalStatus() == .inMemory(reason: nil))
        let fromFolder = try SearchIndex.open(for: catalog, cacheDirectory: cache)
        let registry = try SearchIndex.open(
            for: BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess), cacheDirectory: cache)
        let remote = try SearchIndex.open(for: BuiltRegistrySource(root: .remote(nginx.baseURL), access: context.registryAccess), cacheDirectory: cache)
        for index in [fromFolder, registry, remote] { #expect(index.finalStatus() == .built) }
        let reference = ReferenceSearch(blocks: try catalog.searchableBlocks())
        var complete = 0
        for query in Self.issueQueries {
            let expected = reference.search(query, filters: .init(), limit: nil)
            #expect(Self.summary(try embedded.search(query)) == expected, "embedded: \(query)")
            #expect(Self.summary(try fromFolder.search(query)) == expected, "folder: \(query)")
            #expect(Self.summary(try registry.search(query)) == expected, "registry folder: \(query)")
            #expect(Self.summary(try remote.search(query)) == expected, "registry over HTTP: \(query)")
            if expected.last == "partial: false" && expected.count > 1 { complete += 1 }
        }
        #expect(complete >= 18)
        // The code names are what finds these, in every store.
        let callers = try remote.search("onGeometryChange").hits.map(\.manifest.name)
        #expect(callers.contains("pager") && !callers.contains("adaptive-tabs"))
    }

    /// A large registry's index, built from its `index.json`, ranks as the catalog it was
    /// built from: the code names travel in the index.
    @Test func aLargeRegistryRanksAsItsCatalog() throws {
        let catalog = try #require(SyntheticCatalog.shared300)
        let folder = try TemporaryFolder("search-registry")
        defer { folder.cleanUp() }
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        let (context, _, _) = makeContext(directory: folder.url)
        let registry = BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess)
        let blocks = try CatalogSource.folder(catalog).searchableBlocks()
        #expect(try registry.searchableBlocks() == blocks)
        let reference = ReferenceSearch(blocks: blocks)
        let index = try SearchIndex.open(for: registry, cacheDirectory: folder.path("cache"))
        #expect(index.finalStatus() == .built)
        for item in Self.cases + Self.codeCases {
            let expected = reference.search(item.query, filters: item.filters, limit: item.limit)
            #expect(Self.summary(try index.search(item.query, filters: item.filters, limit: item.limit)) == expected, "\(item.query)")
        }
    }

    @Test func listingsMatchTheManifestsTheyCameFrom() throws {
        let catalog = try #require(SyntheticCatalog.shared300)
        let cache = try TemporaryFolder("search-cache")
        defer { cache.cleanUp() }
        let index = try SearchIndex.open(for: CatalogSource.folder(catalog), cacheDirectory: cache.url)
        for query in ["tabs", "toolbar", "slider chips"] {
            let rows = try index.listings(query) { rows, _, _ in rows }
            let hits = try index.search(query).hits
            #expect(rows == hits.map { SearchListing($0.manifest) })
            #expect(!rows.isEmpty)
        }
    }

    @Test func asciiFastPathAgreesWithMatchQuality() {
        let words = [
            "tabs", "tab", "tabz", "atbs", "tabstrip", "scrollable", "scroll", "underline", "undarline", "sel",
            "selection", "x", "pestanas", "pestana", "naïve", "日本", "strasse", "straße", "00042", "42", "",
        ]
        let vocabulary = PackedStrings(words)
        for query in ["tabs", "tab", "scrol", "scroling", "undarlime", "sel", "x", "pestanas", "naive", "straße", "42", "日本語"] {
            let fast = WordMatcher(query).matches(in: vocabulary)
            let slow = words.enumerated().compactMap { index, word -> (Int, Double)? in
                let quality = SearchEngine.matchQuality(query: query, word: word)
                return quality > 0 ? (index, quality) : nil
            }
            #expect(fast.map(\.word) == slow.map(\.0), "\(query)")
            #expect(fast.map(\.quality) == slow.map(\.1), "\(query)")
        }
    }

    @Test func byteSuggestionsAgreeWithEditDistance() {
        let candidates = [
            "Pager", "pager", "pagers", "page", "paginador", "Scrolling-Strip", "scrolling-strip", "top-tabs",
            "tabs", "TABS", "naïve-tabs", "straße", "日本", "", "picker-pages", "pcker-pages", "x",
        ]
        let packed = PackedStrings(candidates)
        for word in ["pagr", "PAGER", "scroling-strip", "tabz", "naive-tabs", "strasse", "日本", "x", "", "pikcer-pages", "zzzzzzzz"] {
            #expect(WordMatcher.suggestions(for: word, in: packed) == EditDistance.suggestions(for: word, in: candidates), "\(word)")
            #expect(WordMatcher.suggestions(for: word, in: packed, count: 10) == EditDistance.suggestions(for: word, in: candidates, count: 10), "\(word)")
        }
    }
}

/// The ranking as `SearchEngine` implemented it before the scoring moved into
/// `SearchRanking`: dictionaries, every vocabulary word scored with `matchQuality`, plus
/// issue 16's two query rules written the same plain way (an unknown identifier is
/// looked for by its parts; adjacent words a field has as one word add its score).
struct ReferenceSearch {
    let manifests: [BlockManifest]
    let vocabulary: [String: [(block: Int, field: SearchEngine.Field)]]

    init(manifests: [BlockManifest]) {
        self.init(blocks: manifests.map { SearchableBlock(manifest: $0, codeNames: []) })
    }

    init(blocks: [SearchableBlock]) {
        manifests = blocks.map(\.manifest)
        var vocabulary: [String: [(block: Int, field: SearchEngine.Field)]] = [:]
        for (index, block) in blocks.enumerated() {
            let document = InMemorySearchCorpus.fieldWords(of: block)
            for (field, words) in document {
                for word in words { vocabulary[word, default: []].append((index, field)) }
            }
        }
        self.vocabulary = vocabulary
    }

    func passes(_ manifest: BlockManifest, _ filters: SearchEngine.Filters) -> Bool {
        if let platform = filters.platform, !platform.accepts(manifest.platforms) { return false }
        if let level = filters.level, manifest.level.lowercased() != level.lowercased() { return false }
        if let category = filters.category, TextNormalizer.fold(manifest.category) != TextNormalizer.fold(category) { return false }
        if let tag = filters.tag {
            let wanted = TextNormalizer.fold(tag)
            if !manifest.tags.values.joined().contains(where: { TextNormalizer.fold($0) == wanted }) { return false }
        }
        return true
    }

    /// "name score matchedWords" per hit, then "partial: …".
    func search(_ query: String, filters: SearchEngine.Filters, limit: Int?) -> [String] {
        typealias Hit = (name: String, score: Double, matched: Int)
        func lines(_ hits: [Hit], _ isPartial: Bool) -> [String] {
            hits.map { "\($0.name) \($0.score) \($0.matched)" } + ["partial: \(isPartial)"]
        }
        var queryWords: [String] = []
        for token in query.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let whole = TextNormalizer.words(String(token))
            let parts = TextNormalizer.words(SearchWords.splitIdentifier(String(token)))
            let known = whole.contains { word in vocabulary.keys.contains { SearchEngine.matchQuality(query: word, word: $0) > 0 } }
            queryWords += parts.count > whole.count && !known ? parts : whole
        }
        let allowed = manifests.indices.filter { passes(manifests[$0], filters) }
        guard !queryWords.isEmpty else {
            return lines(Array(allowed.map { (manifests[$0].name, 0.0, 0) }.prefix(limit ?? .max)), false)
        }
        let allowedSet = Set(allowed)
        let required = SearchRanking.isRequired(queryWords)
        let requiredCount = required.filter { $0 }.count
        var scores: [Int: Double] = [:]
        var matched: [Int: Int] = [:]
        var previous: [Int: [SearchEngine.Field: Double]] = [:]
        for (position, queryWord) in queryWords.enumerated() {
            var best: [Int: [SearchEngine.Field: Double]] = [:]
            for (word, postings) in vocabulary {
                let quality = SearchEngine.matchQuality(query: queryWord, word: word)
                guard quality > 0 else { continue }
                let rarity = SearchRanking.idf(blocksWithWord: Set(postings.map(\.block)).count, blockCount: manifests.count)
                for posting in postings where allowedSet.contains(posting.block) {
                    let score = quality * posting.field.weight * rarity
                    if score > best[posting.block, default: [:]][posting.field, default: 0] {
                        best[posting.block, default: [:]][posting.field] = score
                    }
                }
            }
            for (block, fields) in best {
                let ordered = fields.values.sorted(by: >)
                var adjacency = 0.0
                for (field, score) in fields { adjacency = max(adjacency, min(score, previous[block]?[field] ?? 0)) }
                scores[block, default: 0] +=
                    ordered[0] + SearchEngine.otherFieldsShare * ordered.dropFirst().reduce(0, +) + SearchRanking.adjacencyShare * adjacency
                matched[block, default: 0] += required[position] ? 1 : 0
            }
            if position > 0, !SearchWords.functionWords.contains(queryWord), !SearchWords.functionWords.contains(queryWords[position - 1]) {
                let phrase = queryWords[position - 1] + queryWord
                var phraseScores: [Int: Double] = [:]
                for (word, postings) in vocabulary where word.contains(phrase) {
                    let rarity = SearchRanking.idf(blocksWithWord: Set(postings.map(\.block)).count, blockCount: manifests.count)
                    for posting in postings where allowedSet.contains(posting.block) && scores[posting.block] != nil {
                        let score = (word == phrase ? 1 : 0.8) * posting.field.weight * rarity
                        phraseScores[posting.block] = max(phraseScores[posting.block] ?? 0, score)
                    }
                }
                for (block, score) in phraseScores { scores[block, default: 0] += score }
            }
            previous = best
        }
        let joined = queryWords.joined(separator: "-")
        for block in allowed {
            let name = manifests[block].name
            if name == joined || name == TextNormalizer.fold(query) {
                scores[block, default: 0] += 10_000
                matched[block] = requiredCount
            } else if name.hasPrefix(joined) {
                scores[block, default: 0] += 2_000
            }
        }
        let complete = scores.keys.filter { matched[$0] == requiredCount }
        let isPartial = complete.isEmpty
        let chosen = isPartial ? Array(scores.keys) : complete
        let hits: [Hit] =
            chosen
            .map { (manifests[$0].name, scores[$0] ?? 0, matched[$0] ?? 0) }
            .sorted { ($1.matched, $1.score, $0.name) < ($0.matched, $0.score, $1.name) }
        return lines(Array(hits.prefix(limit ?? .max)), isPartial && !hits.isEmpty)
    }

    func suggestions(for query: String) -> [String] {
        var found = EditDistance.suggestions(for: TextNormalizer.fold(query), in: manifests.map(\.name))
        if found.isEmpty, let first = TextNormalizer.words(query).first {
            found = EditDistance.suggestions(for: first, in: Array(vocabulary.keys))
        }
        return found
    }
}

/// Catalogs written by `Scripts/bench/make-catalog.py`, the generator the benchmarks use.
enum SyntheticCatalog {
    /// 300 blocks, made once per test run.
    static let shared300: URL? = try? make(count: 300)
    /// 60 blocks, which tests that change a catalog copy first.
    static let shared60: URL? = try? make(count: 60)

    static func make(count: Int) throws -> URL {
        let folder = perProcessFolder("blocks-synthetic-\(count)")
        try? FileManager.default.removeItem(at: folder)
        let made = try runTool("python3", [repositoryRoot.appendingPathComponent("Scripts/bench/make-catalog.py").path, String(count), folder.path])
        guard made.code == 0 else { throw CocoaError(.fileWriteUnknown) }
        return folder
    }

    /// A private copy of the 60-block catalog, for a test that edits it.
    static func copy() throws -> TemporaryFolder {
        guard let shared = shared60 else { throw CocoaError(.fileReadNoSuchFile) }
        let folder = try TemporaryFolder("synthetic-copy")
        try FileManager.default.removeItem(at: folder.url)
        try FileManager.default.copyItem(at: shared, to: folder.url)
        return folder
    }
}
