import Foundation
import Testing

@testable import BlocksKit

/// `WordMatcher` skips the edit distance of words that lack more of the query's letters
/// than its typo budget; it must still find exactly the words `matchQuality` finds.
@Suite struct WordMatcherFilterTests {
    @Test func theLetterFilterLosesNoMatch() throws {
        let corpus = InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks())
        let words = corpus.vocabulary.strings
        let queries =
            try RelevanceTableTests.rows().flatMap { TextNormalizer.words($0.query) }
            + ["scroling", "tabz", "ongeometychange", "acessibility", "pestanas", "undrline", "carusel", "00042", "ios18", "swiftiu"]
        var typos = 0
        for query in Set(queries) {
            let fast = WordMatcher(query).matches(in: corpus.vocabulary)
            let slow = words.enumerated().compactMap { index, word -> (Int, Double)? in
                let quality = SearchEngine.matchQuality(query: query, word: word)
                return quality > 0 ? (index, quality) : nil
            }
            #expect(fast.map(\.word) == slow.map(\.0), "\(query)")
            #expect(fast.map(\.quality) == slow.map(\.1), "\(query)")
            typos += slow.filter { $0.1 < 0.8 }.count
        }
        // Typos were there to lose.
        #expect(typos > 50)
    }

    @Test func aWordMissingTooManyLettersIsRuledOut() {
        let vocabulary = PackedStrings(["scrolling", "xyzzling", "scrolxyz"])
        // "scroling" is one edit from "scrolling"; "xyzzling" lacks s, c, r, o: four letters.
        #expect(WordMatcher("scroling").matches(in: vocabulary).map(\.word) == [0])
    }
}
