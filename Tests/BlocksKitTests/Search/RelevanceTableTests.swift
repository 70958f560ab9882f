import Foundation
import Testing

@testable import BlocksKit

/// The relevance table of issue 16 (`Fixtures/relevance.tsv`): queries as users type
/// them, with the blocks that must be in the top 3 of the embedded catalog. A row only
/// names the blocks it needs, so blocks added to the catalog do not break it unless they
/// push a needed block out of the top 3. The score is printed, and must stay at or above `goal`.
@Suite struct RelevanceTableTests {
    struct Row {
        var query: String
        /// Blocks that must all be among the top 3; empty with `expectsNothing` false
        /// means any complete (not partial) match will do.
        var mustInclude: [String]
        var expectsNothing: Bool
    }

    /// Issue 16's goal: 95% in the top 3. With the names in each block's code
    /// (`CodeNames`), identifier phrases (`tab change` in `onTabChange`) and unknown
    /// identifiers looked for by their parts (`ScrollViewProxy`), the nine-block catalog
    /// scores every row; the floor is the goal, so a change may cost a row or two of
    /// the table, never more.
    static let goal = 0.95

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/BlocksKitTests/Fixtures/relevance.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            let expected = columns.count > 1 ? String(columns[1]) : "-"
            return Row(
                query: String(columns[0]),
                mustInclude: expected == "*" || expected == "-" ? [] : expected.split(separator: " ").map(String.init),
                expectsNothing: expected == "-")
        }
    }

    static func passes(_ row: Row, _ outcome: SearchEngine.Outcome) -> Bool {
        let top = outcome.hits.prefix(3).map(\.manifest.name)
        if row.expectsNothing { return outcome.hits.isEmpty }
        if outcome.hits.isEmpty { return false }
        if row.mustInclude.isEmpty { return !outcome.isPartial }
        return row.mustInclude.allSatisfy(top.contains)
    }

    @Test func theTableScoresAtLeastTheGoal() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 60)
        let engine = InMemorySearch(blocks: try CatalogSource.embedded.searchableBlocks())
        var failures: [String] = []
        for row in rows {
            let outcome = engine.search(row.query)
            if !Self.passes(row, outcome) {
                failures.append("\(row.query) → \(outcome.hits.prefix(3).map(\.manifest.name))")
            }
        }
        let score = Double(rows.count - failures.count) / Double(rows.count)
        print("relevance: \(rows.count - failures.count)/\(rows.count) = \(Double(Int((score * 1000).rounded())) / 10)% in the top 3; failing: \(failures)")
        #expect(score >= Self.goal, "relevance \(score) below \(Self.goal): \(failures)")
    }

    /// The queries issue 16 names must all be in the table.
    @Test func everyQueryOfTheIssueIsInTheTable() throws {
        let queries = Set(try Self.rows().map(\.query))
        for query in [
            "finger", "onGeometryChange", "accessibilityReduceMotion", "large text", "screen reader", "lector de pantalla",
            "tabs for categories", "pestañas para ipad", "follows the finger", "onTabChange", "tab change", "change",
            "ScrollViewProxy", "scroll view proxy", "Binding<Item.ID?>", "item id", "VoiceOver", "Dynamic Type", "reduce motion",
            "texto grande", "reducir movimiento",
        ] {
            #expect(queries.contains(query), "\(query)")
        }
    }

    /// The checker itself can fail: a row naming a block outside the top 3 does not pass.
    @Test func aWrongRowFails() throws {
        let engine = InMemorySearch(blocks: try CatalogSource.embedded.searchableBlocks())
        #expect(!Self.passes(Row(query: "sidebar", mustInclude: ["pager"], expectsNothing: false), engine.search("sidebar")))
        #expect(!Self.passes(Row(query: "tabs", mustInclude: [], expectsNothing: true), engine.search("tabs")))
        #expect(Self.passes(Row(query: "sidebar", mustInclude: ["adaptive-tabs"], expectsNothing: false), engine.search("sidebar")))
    }
}
