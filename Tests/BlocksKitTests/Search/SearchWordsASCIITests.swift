import Foundation
import Testing
@testable import BlocksKit

/// `SearchWords.identifierWords`' ASCII path gives what the general rule gives.
@Suite struct SearchWordsASCIITests {
    @Test func theCatalogsIdentifiersSplitAlike() throws {
        var texts: [String] = []
        for manifest in try CatalogSource.embedded.manifests() {
            texts += manifest.tags.values.joined() + manifest.api.flatMap { [$0.name, $0.type] }
            texts += manifest.accessibility.keys
        }
        texts += SearchWords.accessibilityConcepts.values.joined()
        texts += ["URLSession", "onTabChange(_:)", "Binding<Item.ID?>", "iOS18", "HTTP2Server", "ABC", "aB", "a1b2C3", "", "--", "X"]
        var checked = 0
        for text in texts {
            guard let fast = SearchWords.asciiIdentifierWords(text) else { continue }
            #expect(fast == SearchWords.unicodeIdentifierWords(text), "\(text)")
            checked += 1
        }
        #expect(checked > 100)
        #expect(SearchWords.asciiIdentifierWords("pestañas") == nil)
        #expect(SearchWords.identifierWords("pestañas desplazables") == SearchWords.unicodeIdentifierWords("pestañas desplazables"))
    }

    @Test func randomASCIISplitsAlike() {
        let alphabet = Array("aAbBzZ09_ .<>?:(),-xYqQ")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(SearchWords.asciiIdentifierWords(text) == SearchWords.unicodeIdentifierWords(text), "\(text)")
        }
    }
}
