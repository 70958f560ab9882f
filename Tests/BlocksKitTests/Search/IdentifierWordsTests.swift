import Foundation
import Testing

@testable import BlocksKit

/// `SearchWords.identifierWords` splits ASCII on bytes, for start-up; the rule itself is
/// `generalIdentifierWords`, on characters. The two must give the same words.
@Suite struct IdentifierWordsTests {
    static let tricky = [
        "", "onTabChange", "ScrollViewProxy", "URLSession", "Binding<Item.ID?>", "ios18", "caption2", "xxxLarge", "HTTPSProxy2Go",
        "a_b", "__x", "ABC", "aB", "A1b", "Tab9View", "9lives", "x", "X", "tabIndicator(height:color:)", "[String: [Int]]",
        "(Item, PagerTabState) -> Label", "KeyPath<Item, String>", "AB2CD", "abc123def", "ABCdef", "a  b", "ends.with.dot.",
    ]

    @Test(arguments: tricky) func asciiWordsAreTheRulesWords(text: String) {
        #expect(SearchWords.identifierWords(text) == SearchWords.generalIdentifierWords(text))
    }

    @Test func theCatalogsIdentifiersSplitAlike() throws {
        var checked = 0
        for block in try CatalogSource.embedded.searchableBlocks() {
            let manifest = block.manifest
            let texts =
                block.codeNames + manifest.tags.values.joined() + manifest.api.flatMap { [$0.name, $0.type] }
                + manifest.accessibility.keys
            for text in texts {
                #expect(SearchWords.identifierWords(text) == SearchWords.generalIdentifierWords(text), "\(text)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test func otherTextTakesTheGeneralRule() {
        for text in ["pestañas", "tamaño del texto", "ÉtatDuBouton", "naïveTab", "日本語Tab"] {
            var copy = text
            #expect(copy.withUTF8(SearchWords.asciiIdentifierWords) == nil)
            #expect(SearchWords.identifierWords(text) == SearchWords.generalIdentifierWords(text))
        }
    }
}
