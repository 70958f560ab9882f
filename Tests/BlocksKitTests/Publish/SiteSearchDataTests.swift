import Foundation
import Testing

@testable import BlocksKit

/// The search data is made on every core, in slices (`InMemorySearchCorpus.postingsByWord`,
/// `HTMLEscaping.scriptJSONArray`); these check that the slices join into exactly what
/// one pass in order makes, so the file's bytes never depend on how the work was split.
@Suite struct SiteSearchDataTests {
    /// More blocks than one slice holds, so several slices are joined.
    static func manyBlocks() throws -> [SearchableBlock] {
        let embedded = try CatalogSource.embedded.searchableBlocks()
        return (0..<40).flatMap { _ in embedded }
    }

    @Test func postingsJoinedFromSlicesAreThePostingsOfOnePass() throws {
        let blocks = try Self.manyBlocks()
        #expect(blocks.count > 64 * 2)
        var expected: [String: [UInt32]] = [:]
        for (block, searchable) in blocks.enumerated() {
            for (field, words) in SearchWords.fieldWords(of: searchable) {
                for word in words { expected[word, default: []].append(SearchPosting(block: block, field: field).rawValue) }
            }
        }
        let postings = InMemorySearchCorpus.postingsByWord(of: blocks).mapValues { $0.map(\.rawValue) }
        // Compared as one flag: printed, the postings of 360 blocks fill a screen.
        let same = postings == expected
        #expect(same)
        let ascending = postings.values.allSatisfy { $0 == $0.sorted() }
        #expect(ascending)
        #expect(InMemorySearchCorpus.postingsByWord(of: []).isEmpty)
    }

    @Test func packedPostingsAreBase36Differences() {
        #expect(SiteSearchData.packed([0, 7, 36, 1_000_000, 1_000_001]) == ["0", "7", "t", String(1_000_000 - 36, radix: 36), "1"].joined(separator: ","))
        #expect(SiteSearchData.packed([]) == "")
        #expect(SiteSearchData.packed([35, 3]) == "3,w")
    }

    @Test func longArraysWrittenOnEveryCoreAreWrittenAsOnePassWritesThem() {
        let count = HTMLEscaping.parallelArrayCount + 700
        let texts = (0..<count).map { "card \($0) <b>&</b> \"q\"\n\u{2028}" }
        // What the writer must give for each element, written out by hand.
        func element(_ text: String, inline: Bool) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                case "\u{2028}": out += "\\u2028"
                case "<" where inline: out += "\\u003c"
                case ">" where inline: out += "\\u003e"
                case "&" where inline: out += "\\u0026"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for inline in [false, true] {
            let expected = "[" + texts.map { element($0, inline: inline) }.joined(separator: ",") + "]"
            #expect(HTMLEscaping.scriptJSON(.array(texts.map { .string($0) }), inline: inline) == expected)
            #expect(String(decoding: HTMLEscaping.scriptJSONArray(count: count, inline: inline) { .string(texts[$0]) }, as: UTF8.self) == expected)
        }
        #expect(HTMLEscaping.scriptJSONArray(count: 0) { _ in .null } == Array("[]".utf8))
        let object = HTMLEscaping.scriptJSONObject(["b": Array("[1]".utf8), "a": Array("\"x\"".utf8)])
        #expect(String(decoding: object, as: UTF8.self) == #"{"a":"x","b":[1]}"#)
    }
}
