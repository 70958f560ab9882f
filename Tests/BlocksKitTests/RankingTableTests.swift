import Foundation
import Testing
@testable import BlocksKit

/// Queries people type, in English and Spanish, with typos, accents and filters, and the
/// blocks they should find first in the real catalog.
@Suite struct RankingTableTests {
    static let table: [(query: String, filters: SearchEngine.Filters, top: [String])] = [
        ("scrolling-strip", .init(), ["scrolling-strip"]),
        ("pager", .init(), ["pager"]),
        ("scroling", .init(), ["scrolling-strip"]),
        ("scrollable tabs", .init(), ["scrolling-strip"]),
        ("pestañas desplazables", .init(), ["scrolling-strip"]),
        ("pestanas desplazables", .init(), ["scrolling-strip"]),
        ("PESTAÑAS SUPERIORES", .init(), ["top-tabs"]),
        ("picker style", .init(), ["picker-pages"]),
        ("estilo de picker", .init(), ["picker-pages"]),
        ("segmented", .init(), ["picker-pages"]),
        ("underline", .init(), ["top-tabs", "scrolling-strip"]),
        ("undrline", .init(), ["top-tabs", "scrolling-strip"]),
        ("subrayado", .init(), ["top-tabs", "scrolling-strip"]),
        ("swipe", .init(), ["pager"]),
        ("deslizar", .init(), ["pager"]),
        ("sidebar", .init(), ["adaptive-tabs"]),
        ("barra lateral", .init(), ["adaptive-tabs"]),
        ("badge", .init(), ["adaptive-tabs"]),
        ("insignias", .init(), ["adaptive-tabs"]),
        ("tabs", .init(platform: PlatformFilter("ios17")), ["top-tabs", "pager"]),
        ("pestañas", .init(platform: PlatformFilter("iOS 27"), level: "beginner"), ["top-tabs", "picker-pages", "scrolling-strip"]),
    ]

    @Test func theRankingTable() throws {
        let engine = SearchEngine(manifests: try CatalogSource.embedded.manifests())
        for row in Self.table {
            let found = engine.search(row.query, filters: row.filters).hits.map(\.manifest.name)
            #expect(Array(found.prefix(row.top.count)).sorted() == row.top.sorted(), "\(row.query): \(found)")
            #expect(found.first == row.top.first || row.top.count > 1, "\(row.query): \(found)")
        }
    }

    @Test func platformFilterKeepsOnlyBlocksThatRun() throws {
        let engine = SearchEngine(manifests: try CatalogSource.embedded.manifests())
        let ios18 = engine.search("", filters: .init(platform: PlatformFilter("ios18"))).hits.map(\.manifest.name)
        #expect(ios18.sorted() == ["adaptive-tabs", "pager", "scrolling-strip", "top-tabs"])
        #expect(engine.search("tabs", filters: .init(platform: PlatformFilter("ios16"))).hits.isEmpty)
    }

    @Test func noMatchSaysSoAndSuggests() {
        let result = runBlocks(["search", "pagerrr"])
        #expect(result.code == 0)
        #expect(result.out.contains("No blocks match 'pagerrr'. Did you mean: pager"))
    }
}

@Suite struct SchemaTests {
    /// The published schema and the validator must agree on what is required.
    @Test func schemaRequiresWhatTheValidatorRequires() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/block.schema.json"))
        let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let required = Set(schema?["required"] as? [String] ?? [])
        let missing = Set(ManifestValidator.problems(in: Data("{}".utf8)).filter { $0.message == "missing required field" }.map(\.field))
        #expect(!required.isEmpty)
        #expect(required == missing)
        let platforms = ((schema?["properties"] as? [String: Any])?["platforms"] as? [String: Any])?["propertyNames"] as? [String: Any]
        #expect(Set(platforms?["enum"] as? [String] ?? []) == Set(ManifestValidator.knownPlatforms))
    }

    @Test func indexSchemaIsValidJSON() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/index.schema.json"))
        let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(schema?["required"] as? [String] == ["schemaVersion", "blocks"])
    }
}
