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
        // segmented-pill's name starts with the word; picker-pages has it as a tag.
        ("segmented", .init(), ["segmented-pill", "picker-pages"]),
        ("underline", .init(), ["top-tabs", "scrolling-strip"]),
        ("undrline", .init(), ["top-tabs", "scrolling-strip"]),
        ("subrayado", .init(), ["top-tabs", "scrolling-strip"]),
        ("swipe", .init(), ["pager"]),
        ("deslizar", .init(), ["pager"]),
        ("sidebar", .init(), ["adaptive-tabs"]),
        ("barra lateral", .init(), ["adaptive-tabs"]),
        ("badge", .init(), ["adaptive-tabs"]),
        ("insignias", .init(), ["adaptive-tabs"]),
        ("tabs", .init(platform: PlatformFilter("ios17")), ["top-tabs", "floating-tab-bar", "pager"]),
        // No block has all three words. scrolling-strip has two (chips, underline) and
        // pager one, with the higher score (its name): more matched words rank first.
        // (With `capsule` for `chips`, sticky-header-tabs has all three now: `Capsule` is
        // in its code.)
        ("pager chips underline", .init(), ["scrolling-strip"]),
        (
            "pestañas", .init(platform: PlatformFilter("iOS 27"), level: "beginner"),
            ["top-tabs", "picker-pages", "scrolling-strip", "floating-tab-bar", "segmented-pill"]
        ),
        // The four blocks of issue 19, in both languages, with a typo each.
        ("floating tab bar", .init(), ["floating-tab-bar"]),
        ("custom tab bar", .init(), ["floating-tab-bar"]),
        ("floting", .init(), ["floating-tab-bar"]),
        ("barra flotante", .init(), ["floating-tab-bar"]),
        ("botón central", .init(), ["floating-tab-bar"]),
        ("sticky header", .init(), ["sticky-header-tabs"]),
        ("collapsing header", .init(), ["sticky-header-tabs"]),
        ("pull to refresh", .init(), ["sticky-header-tabs"]),
        ("cabecera fija", .init(), ["sticky-header-tabs"]),
        ("cabecera plegable", .init(), ["sticky-header-tabs"]),
        ("arrastrar para actualizar", .init(), ["sticky-header-tabs"]),
        ("colapsing header", .init(), ["sticky-header-tabs"]),
        ("segmented control", .init(), ["segmented-pill", "picker-pages"]),
        ("sliding pill", .init(), ["segmented-pill"]),
        ("control segmentado", .init(), ["segmented-pill", "picker-pages"]),
        ("pildora deslizante", .init(), ["segmented-pill"]),
        ("search tab", .init(), ["search-tab-view"]),
        ("mini player", .init(), ["search-tab-view"]),
        ("minimize on scroll", .init(), ["search-tab-view"]),
        ("pestaña de búsqueda", .init(), ["search-tab-view"]),
        ("minirreproductor", .init(), ["search-tab-view"]),
        ("accesorio inferior", .init(), ["search-tab-view"]),
        ("serch tab", .init(), ["search-tab-view"]),
    ]

    @Test func theRankingTable() throws {
        let engine = InMemorySearch(blocks: try CatalogSource.embedded.searchableBlocks())
        for row in Self.table {
            let found = engine.search(row.query, filters: row.filters).hits.map(\.manifest.name)
            #expect(Array(found.prefix(row.top.count)).sorted() == row.top.sorted(), "\(row.query): \(found)")
            #expect(found.first == row.top.first || row.top.count > 1, "\(row.query): \(found)")
        }
    }

    @Test func platformFilterKeepsOnlyBlocksThatRun() throws {
        let engine = InMemorySearch(blocks: try CatalogSource.embedded.searchableBlocks())
        let ios18 = engine.search("", filters: .init(platform: PlatformFilter("ios18"))).hits.map(\.manifest.name)
        #expect(
            ios18.sorted() == [
                "adaptive-tabs", "floating-tab-bar", "pager", "scrolling-strip", "segmented-pill", "sticky-header-tabs", "top-tabs",
            ])
        let ios26 = engine.search("", filters: .init(platform: PlatformFilter("ios26"))).hits.map(\.manifest.name)
        #expect(ios26.count == 8 && !ios26.contains("picker-pages") && ios26.contains("search-tab-view"))
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

    /// A standard validator, resolving `block.schema.json` from the schemas' own `$id`s
    /// (nothing mapped by hand), accepts a real build's index and metadata files.
    @Test func aStandardValidatorAcceptsABuiltRegistry() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let built = runBlocks(
            ["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"],
            in: folder.url, environment: ["SOURCE_DATE_EPOCH": "1790000000"])
        #expect(built.code == 0, "\(built.err)")
        let metadata = try FileManager.default.contentsOfDirectory(atPath: folder.path("public/blocks").path).sorted().filter { $0.hasSuffix(".json") }
        #expect(metadata.count == 9)
        let schemas = repositoryRoot.appendingPathComponent("Schemas")
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", Self.validator, schemas.appendingPathComponent("index.schema.json").path,
                schemas.appendingPathComponent("block.schema.json").path, folder.path("public/index.json").path,
            ]
                + metadata.map { folder.path("public/blocks/" + $0).path },
            in: folder.url)
        #expect(result.code == 0 && result.out == "valid 10\n", "\(result.out)\(result.err)")
    }

    /// Validates argv[3] against the index schema and argv[4...] against its metadata file, with
    /// `referencing` (jsonschema 4.18 and later) or `RefResolver` (Debian 12's 4.10).
    static let validator = """
        import json, sys, jsonschema
        index, block = (json.load(open(path)) for path in sys.argv[1:3])
        entry = {"$ref": index["$id"] + "#/$defs/metadata"}
        try:
            from referencing import Registry, Resource
            registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in (index, block)])
            make = lambda schema: jsonschema.Draft202012Validator(schema, registry=registry)
            make(index)  # before 4.18 there is no registry argument
        except (ImportError, TypeError):
            resolver = jsonschema.RefResolver(index["$id"], index, store={index["$id"]: index, block["$id"]: block})
            make = lambda schema: jsonschema.Draft202012Validator(schema, resolver=resolver)
        make(index).validate(json.load(open(sys.argv[3])))
        for path in sys.argv[4:]:
            make(entry).validate(json.load(open(path)))
        print("valid", len(sys.argv) - 3)
        """

    @Test func indexSchemaIsValidJSON() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/index.schema.json"))
        let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(schema?["required"] as? [String] == ["schemaVersion"])
        // schemaVersion 1 needs `blocks`, schemaVersion 3 (the split index) its parts too.
        let forms = (schema?["oneOf"] as? [[String: Any]])?.map { $0["required"] as? [String] }
        #expect(forms == [["blocks"], ["blocks", "epoch", "snapshot", "dictionary", "ranges", "digestFiles", "feed"]])
    }
}
