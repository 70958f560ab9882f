@testable import BlocksKit

/// `SearchRanking` over blocks held in memory, with no index, cache or registry: the
/// reference the search tests hold every other path to (the on-disk index, the page's
/// script, the command line). The tool itself always searches through `SearchIndex`.
struct InMemorySearch: Sendable {
    let corpus: InMemorySearchCorpus

    /// Blocks searched by their manifests alone, without the names in their code.
    init(manifests: [BlockManifest]) {
        self.init(blocks: manifests.map { SearchableBlock(manifest: $0, codeNames: []) })
    }

    init(blocks: [SearchableBlock]) {
        corpus = InMemorySearchCorpus(blocks: blocks)
    }

    func search(_ query: String, filters: SearchEngine.Filters = SearchEngine.Filters(), limit: Int? = nil) -> SearchEngine.Outcome {
        // The in-memory corpus never fails; only a damaged on-disk index can.
        let ranked =
            (try? SearchRanking.rank(query, filters: filters, limit: limit, in: corpus))
            ?? SearchRanking.Outcome(blocks: [], isPartial: false, total: 0)
        let hits = ranked.blocks.map { SearchEngine.Hit(manifest: corpus.manifests[$0.block], score: $0.score, matchedWords: $0.matchedWords) }
        return SearchEngine.Outcome(hits: hits, isPartial: ranked.isPartial, total: ranked.total)
    }

    /// Names and words near a query that found nothing, for "did you mean".
    func suggestions(for query: String) -> [String] {
        SearchRanking.suggestions(for: query, in: corpus)
    }
}
