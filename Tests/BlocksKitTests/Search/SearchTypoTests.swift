import Foundation
import Testing

@testable import BlocksKit

/// The typo budget at its boundary, through the matcher `blocks search` really uses
/// (`WordMatcher`, on bytes), not the reference `SearchEngine.matchQuality`.
@Suite struct SearchTypoTests {
    @Test func eightLettersAllowTwoEditsSevenAllowOne() {
        let vocabulary = PackedStrings(["underline", "scrollable"])
        // "undrlime": 8 letters, two edits from "underline".
        #expect(WordMatcher("undrlime").matches(in: vocabulary).map(\.word) == [0])
        // "undrlim": 7 letters, one edit allowed, three needed.
        #expect(WordMatcher("undrlim").matches(in: vocabulary).isEmpty)
        // "scrolabl" (8) reaches "scrollable" by two edits in a prefix.
        #expect(WordMatcher("scrolabl").matches(in: vocabulary).map(\.word) == [1])
    }

    @Test func searchUndrlimeWithTheBinaryFindsBothUnderlinedBlocks() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["search", "undrlime"])
        #expect(result.code == 0, "\(result.errors)")
        let names = result.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        // sticky-header-tabs documents "the sliding underline" in its API and accessibility
        // notes, which search reads since issue 16; nothing else has the word.
        #expect(Set(names) == ["top-tabs", "scrolling-strip", "sticky-header-tabs"], "\(result.output)")
    }
}
