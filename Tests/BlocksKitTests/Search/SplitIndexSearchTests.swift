import Foundation
import Testing

@testable import BlocksKit

/// A split index's ranges go to the search index without a manifest per block
/// (`SearchIndexSlice(_:order:)`, `CodedSearchWords`). Its names, rows and postings must
/// be exactly those the manifests give (`SearchWords`, `SearchIndexRow(manifest)`),
/// including text where splitting each part alone differs from splitting the whole, and
/// an index of a split registry must rank as its manifests do and show their manifests.
@Suite struct SplitIndexSearchTests {
    /// Parts of titles and summaries: ASCII, accents at either edge, combining marks, final
    /// sigma, identifiers, digits, punctuation, the empty part that two spaces make, U+0D4E,
    /// a letter that joins the space after it into one character, and U+093E, a vowel sign
    /// that joins the space before it.
    static let parts = [
        "Tabs", "tab", "pestañas", "ñandú", "Über", "café", "\u{301}b", "a\u{301}", "x", "", "onTabChange", "URLSession", "42", "00042",
        "día-a-día", "ß", "Ελληνικάς", "東京", "—", "TabView", "\u{D4E}", "a\u{D4E}", "\u{3099}b", "\u{93E}b", "(menu)",
    ]
    static let tags = ["tabs", "pestañas", "TabView", "scrollTo", "URLSession", "menú", "ÄrgerTab", "a-b", "x", "Binding<Item.ID?>", "\u{D4E}"]
    static let codeNames = ["TabsStrip", "scrollTo", "ÜberView", "ID", "tabs"]

    static func text(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...5, using: &generator)).map { _ in parts.randomElement(using: &generator)! }.joined(separator: " ")
    }

    /// `count` entries, a few with names that are not safe: with a space, or with letters
    /// beyond ASCII, which front coding counts in scalars.
    static func entries(count: Int, seed: UInt64) -> [RegistryEntry] {
        var generator = SeededGenerator(seed: seed)  // the same entries on every run and machine
        return (0..<count).map { number in
            var languages = ["en", "es", "fr"].filter { _ in Bool.random(using: &generator) }
            if languages.isEmpty { languages = ["es"] }
            let title = Dictionary(uniqueKeysWithValues: languages.map { ($0, text(&generator)) })
            let summary = Dictionary(uniqueKeysWithValues: languages.map { ($0, text(&generator)) })
            let tags = Dictionary(
                uniqueKeysWithValues: languages.map { language in
                    (language, (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.tags.randomElement(using: &generator)! })
                })
            let platforms = Dictionary(
                uniqueKeysWithValues: [("iOS", "17.0"), ("macOS", "14.0"), ("visionOS", "1.0")].filter { _ in Bool.random(using: &generator) })
            let name =
                switch number % 17 {
                case 5: "Bad Name \(number)"
                case 9: "pestañas-\(number)"
                case 10: "pestañas-é\u{301}-\(number)"
                default: "block-\(Int.random(in: 0...999, using: &generator))-\(number)"
                }
            let manifest = BlockManifest(
                name: name, version: ["1.0.0", "1.2.10", "2.0.0-beta.1"].randomElement(using: &generator)!, title: title, summary: summary,
                category: ["tabs", "Navegación", "Tab Bars"].randomElement(using: &generator)!, platforms: platforms,
                level: ["beginner", "Intermediate"].randomElement(using: &generator)!, origin: "", tags: tags, api: [], files: [], authors: [],
                license: "", accessibility: [:])
            let code = (0..<Int.random(in: 0...3, using: &generator)).map { _ in codeNames.randomElement(using: &generator)! }
            return RegistryEntry(manifest: manifest, metadata: "blocks/\(name).json", sourceSHA256: "", archives: [:], codeNames: code)
        }
    }

    @Test func theWholeTextIsSplitWhereItsPartsAloneWouldSplitOtherwise() {
        // The reason `CodedSearchWords.addText` checks both edges of each part.
        #expect(TextNormalizer.words("a\u{D4E} b") == ["a\u{D4E} b"])
        #expect(TextNormalizer.words("x \u{93E}b") == ["x", "b"])
        #expect(TextNormalizer.words("\u{93E}b") == ["\u{93E}b"])
        // `blocks build` splits at spaces that are characters of their own, so it keeps
        // these texts whole; a registry may split them anyway.
        #expect(SplitIndexColumns.words(of: "a\u{D4E} b x \u{93E}b") == ["a\u{D4E} b", "x \u{93E}b"])
    }

    /// The range with its first block's English title and summary split where `blocks
    /// build` never splits: inside a character, beside U+0D4E and U+093E.
    static func splitInsideCharacters(_ data: Data) throws -> Data {
        guard case .object(var range) = try JSONReader.parse(data), case .object(var titles)? = range["titles"],
            case .object(var summaries)? = range["summaries"], case .array(var englishTitles)? = titles["en"] ?? .array([]),
            case .array(var englishSummaries)? = summaries["en"] ?? .array([])
        else { throw CocoaError(.fileReadCorruptFile) }
        let count = range["levels"]?.array?.count ?? 0
        if englishTitles.isEmpty { englishTitles = Array(repeating: .null, count: count) }
        if englishSummaries.isEmpty { englishSummaries = Array(repeating: .null, count: count) }
        englishTitles[0] = .array([.string("a\u{D4E}"), .string("b"), .string("tabs")])
        englishSummaries[0] = .array([.string("x"), .string("\u{93E}b")])
        (titles["en"], summaries["en"]) = (.array(englishTitles), .array(englishSummaries))
        (range["titles"], range["summaries"]) = (.object(titles), .object(summaries))
        return Data(StableJSONWriter.line(.object(range)))
    }

    @Test func aRangesSliceHoldsTheNamesRowsAndPostingsItsManifestsGive() throws {
        var checkedWords = 0
        for seed in UInt64(1)...12 {
            let entries = Self.entries(count: 80, seed: seed)
            let dictionary = SplitIndexColumns.Dictionary(for: entries)
            let data = try Self.splitInsideCharacters(SplitIndexColumns.range(entries, dictionary: dictionary))
            let columns = try RangeColumns(data, path: "range", dictionary: dictionary)
            let (order, dropped) = columns.nameOrder()
            let slice = SearchIndexSlice(columns, order: order)
            let decoded = try SplitIndexColumns.entries(ofRange: data, path: "range", dictionary: dictionary)
            // Front-coded names come back whole, ASCII or not.
            #expect(decoded.map(\.manifest.name) == entries.map(\.manifest.name))
            let kept = decoded.filter(\.hasValidName).sorted { $0.manifest.name < $1.manifest.name }
            #expect(!dropped.isEmpty && dropped == decoded.filter { !$0.hasValidName }.map(\.manifest.name))
            #expect(slice.names == kept.map(\.manifest.name))
            #expect(slice.rows == kept.map { SearchIndexRow($0.manifest) })
            var expected = JoinedPostings()
            InMemorySearchCorpus.addPostings(
                of: kept.map { SearchableBlock(manifest: $0.manifest, codeNames: $0.codeNames) }, numberedFrom: 0, to: &expected)
            let made = (words: slice.words.strings, lists: slice.lists.lists)
            let differing = Set(made.words).union(expected.words).filter { word in
                made.words.firstIndex(of: word).map { made.lists[$0] } != expected.words.firstIndex(of: word).map { expected.lists[$0] }
            }.sorted()
            #expect(differing.isEmpty, "seed \(seed): the postings of \(differing.prefix(5)) differ")
            // Each list in block order, then field order, and no posting twice.
            #expect(made.lists.allSatisfy { list in zip(list, list.dropFirst()).allSatisfy { $0.rawValue < $1.rawValue } }, "seed \(seed)")
            // The same words in the same order: the index's vocabulary is the same either way.
            #expect(made.words == expected.words, "seed \(seed)")
            checkedWords += made.words.count
        }
        // Inline strings and dictionary strings both: the test read more than a handful of words.
        #expect(checkedWords > 500)
    }

    /// The search index of a split registry: written from slices, it holds no manifest, and
    /// ranks, lists and shows manifests as the registry's own manifests do.
    @Test func aSplitRegistrysIndexRanksAndShowsAsItsManifests() throws {
        let folder = try TemporaryFolder("search-split-registry")
        defer { folder.cleanUp() }
        try Self.buildSplitRegistry(in: folder)
        let (context, _, _) = makeContext(directory: folder.url)
        let registry = BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess)
        let blocks = try registry.searchableBlocks()
        #expect(blocks.count == 300)
        let reference = ReferenceSearch(blocks: blocks)
        // A source of its own: one that has read every range already indexes what it holds.
        let fresh = BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess)
        let index = try SearchIndex.open(for: fresh, cacheDirectory: folder.path("cache"))
        #expect(index.finalStatus() == .built)
        let store = try SearchIndexStore(path: try #require(index.indexURL).path)
        #expect(store.manifestsInSource)
        // Opened without its registry, it says where its manifests went rather than show none.
        #expect(throws: SearchIndexError.self) { try store.manifests(of: [0]) }
        let memory = InMemorySearchCorpus(blocks: blocks)
        #expect(store.vocabulary == memory.vocabulary && store.names == memory.names && store.nameRanks == memory.nameRanks)
        #expect(try store.postings(ofWords: Array(0..<store.vocabulary.count)) == memory.postingLists)
        #expect(try store.filterRecords() == memory.filterRecords())
        for item in SearchIndexParityTests.cases + SearchIndexParityTests.codeCases {
            let expected = reference.search(item.query, filters: item.filters, limit: item.limit)
            let outcome = try index.search(item.query, filters: item.filters, limit: item.limit)
            #expect(SearchIndexParityTests.summary(outcome) == expected, "\(item.query)")
            let rows = try index.listings(item.query, filters: item.filters, limit: item.limit) { rows, _, _ in rows }
            #expect(rows == outcome.hits.map { SearchListing($0.manifest) }, "\(item.query)")
            let byName = Dictionary(uniqueKeysWithValues: blocks.map { ($0.manifest.name, $0.manifest) })
            #expect(outcome.hits.map(\.manifest) == outcome.hits.map { byName[$0.manifest.name] }, "\(item.query)")
        }
    }

    /// A group of rows gone from the index (`RowGroups`): the result table of a block that
    /// group held finds it missing, never another block's row, and the index is rebuilt.
    @Test func aBlockWhoseGroupOfRowsIsGoneIsNeverShownAsAnother() throws {
        let folder = try TemporaryFolder("search-split-rows")
        defer { folder.cleanUp() }
        try Self.buildSplitRegistry(in: folder)
        let (context, _, _) = makeContext(directory: folder.url)
        func open() throws -> SearchIndex {
            try SearchIndex.open(for: BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess), cacheDirectory: folder.path("cache"))
        }
        // The first index is closed before the file is changed: it holds a read transaction.
        let (wanted, path) = try { () throws -> (String, String) in
            let first = try open()
            let path = try #require(first.indexURL).path
            let names = try SearchIndexStore(path: path).names
            let wanted = names[names.count - 10]
            #expect(try first.listings(wanted, limit: 1) { rows, _, _ in rows.map(\.name) } == [wanted])
            return (wanted, path)
        }()
        try SearchIndexTests.change(path, "DELETE FROM rows WHERE first = (SELECT max(first) FROM rows)")
        let again = try open()
        #expect(try again.listings(wanted, limit: 1) { rows, _, _ in rows.map(\.name) } == [wanted])
        #expect(again.finalStatus() == .built)
    }

    /// The synthetic catalog of 300 blocks as a split registry in `public`, 64 blocks a range.
    static func buildSplitRegistry(in folder: TemporaryFolder) throws {
        let catalog = try #require(SyntheticCatalog.shared300)
        let source = CatalogSource.folder(catalog)
        var builder = RegistryBuilder(output: folder.path("public"), packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        builder.splitIndex = true
        builder.splitSizes = (range: 64, digestFile: 100)
        _ = try builder.build(try source.contents(of: try source.blockNames()))
    }

    /// `search --json` of a split registry gets its results' manifests range by range, out
    /// of rank order, and prints them in rank order: the reference ranking, in exactly the
    /// bytes the whole document would be written in, and the same object handed to a
    /// capture (the MCP server's way).
    @Test func searchJSONOfASplitRegistryComesRangeByRangeAndPrintsInRankOrder() throws {
        let folder = try TemporaryFolder("search-split-json")
        defer { folder.cleanUp() }
        try Self.buildSplitRegistry(in: folder)
        let (context, _, _) = makeContext(directory: folder.url)
        let registry = BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess)
        let reference = ReferenceSearch(blocks: try registry.searchableBlocks())
        // A source of its own, which has read no range yet: its index leaves the manifests to the ranges.
        let fresh = BuiltRegistrySource(root: .folder(folder.path("public")), access: context.registryAccess)
        let index = try SearchIndex.open(for: fresh, cacheDirectory: folder.path("cache"))
        var outOfOrder = 0
        for query in ["tabs", "pestanas badge", "strip 00042", "zzzqqq"] {
            var handed: [Int] = []
            let ranking = try index.search(query) { place, _ in handed.append(place) }
            #expect(handed.sorted() == Array(0..<ranking.count), "\(query)")
            if handed != handed.sorted() { outOfOrder += 1 }

            let arguments = ["search"] + query.split(separator: " ").map(String.init) + ["--json", "--registry", folder.path("public").path]
            let printed = runBlocks(arguments, in: folder.url)
            #expect(printed.code == 0, "\(printed.err)")
            guard case .object(let object) = try JSONReader.parse(Data(printed.out.utf8)), case .array(let results)? = object["results"] else {
                Issue.record("\(query): not a JSON object with results")
                continue
            }
            #expect(printed.out == JSONOutput.encode(object) + "\n", "\(query)")
            let lines = results.map { result in
                "\(result.object?["name"]?.string ?? "?") \(result.object?["score"].flatMap { if case .int(let n) = $0 { n } else { nil } } ?? -1)"
            }
            let expected = reference.search(query, filters: .init(), limit: nil).dropLast().map { line in
                let fields = line.split(separator: " ")
                return "\(fields[0]) \(Int(Double(fields[1])!.rounded()))"
            }
            #expect(lines == expected, "\(query)")
            #expect(object["partial"] == .bool(reference.search(query, filters: .init(), limit: nil).last == "partial: true"), "\(query)")

            var (capturing, _, _) = makeContext(directory: folder.url)
            let capture = JSONCapture()
            capturing.jsonCapture = capture
            #expect(BlocksCLI.run(arguments, context: &capturing) == 0)
            #expect(capture.object == object, "\(query)")
        }
        // The ranking is not the registry's name order, so the places came out of order.
        #expect(outOfOrder >= 2)
    }
}
