import Foundation
import Testing

@testable import BlocksKit

/// `WordNumbers` must number words exactly as a `Dictionary` of `String`s does: the same
/// word the same number however often it comes, canonically equivalent words one word,
/// and every other word a number of its own, past many doublings of its table.
@Suite struct WordNumbersTests {
    @Test func wordsAreNumberedAsADictionaryOfStringsNumbersThem() {
        var generator = SeededGenerator(seed: 5)
        let pieces = ["tab", "tabs", "", "a", "0", "00042", "pestañas", "pestan\u{303}as", "café", "cafe\u{301}", "東京", "ß", "x", "ab", "ba"]
        var reference: [String: Int] = [:]
        var numbers = WordNumbers()
        for _ in 0..<20_000 {
            let word = (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                + (Bool.random(using: &generator) ? String(Int.random(in: 0..<3000, using: &generator)) : "")
            let known = reference[word]
            let next = reference.count
            let number = numbers.number(of: word, orNew: next)
            #expect(number == known ?? next, "\(word)")
            if number != known ?? next { return }
            if known == nil { reference[word] = next }
        }
        // Thousands of distinct words, so the table grew many times.
        #expect(reference.count > 5000)
        // Canonically equivalent spellings are one word, as for `String`.
        var equivalent = WordNumbers()
        #expect(equivalent.number(of: "café", orNew: 0) == 0)
        #expect(equivalent.number(of: "cafe\u{301}", orNew: 1) == 0)
        #expect(equivalent.number(of: "cafe", orNew: 1) == 1)
    }

    /// The one ASCII letter a character decomposes to on its own (the Kelvin sign, `K`)
    /// never reaches the table unfolded: words are folded, and folding makes it `k`.
    @Test func foldedWordsHaveNoCharacterEquivalentToASCII() {
        #expect(TextNormalizer.words("\u{212A}elvin") == ["kelvin"])
        #expect(SearchWords.identifierWords("\u{212A}elvinView").allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
    }

    /// `PackedStrings.encode` writes what `PackedStrings(_:).encoded` writes, in one array.
    @Test func packedStringsAreEncodedTheSameEitherWay() {
        for strings in [[], [""], ["tabs"], ["tabs", "", "pestañas", "東京", "a"], (0..<300).map { "word\($0)" }] {
            #expect(PackedStrings.encode(strings) == PackedStrings(strings).encoded, "\(strings.prefix(3))")
        }
    }

    /// `vxbblfs` and `ohusgmt` share the high half of their FNV-1a hash (0x44b15b1e), which
    /// a slot keeps, and the first of 64 slots they probe (40): the second meets the first
    /// in its slot, and only their bytes tell them apart.
    @Test func wordsWhoseSlotsKeepTheSameHashHalfAreStillTwoWords() {
        var numbers = WordNumbers()
        #expect(numbers.number(of: "vxbblfs", orNew: 0) == 0)
        #expect(numbers.number(of: "ohusgmt", orNew: 1) == 1)
        #expect(numbers.number(of: "vxbblfs", orNew: 2) == 0)
        #expect(numbers.number(of: "ohusgmt", orNew: 2) == 1)
    }
}
