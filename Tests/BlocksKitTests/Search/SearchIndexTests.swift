import Foundation
import Testing

@testable import BlocksKit

/// The on-disk index's life: built once, reused while the catalog is unchanged, rebuilt
/// when a manifest or the set of blocks changes or the file is damaged, and skipped
/// (with the same results) when the cache cannot be written.
@Suite struct SearchIndexTests {
    /// A private catalog and cache for one test.
    struct Fixture {
        let catalog: TemporaryFolder
        let cache: TemporaryFolder
        var source: CatalogSource { CatalogSource.folder(catalog.url) }
        var indexURL: URL { SearchIndex.indexURL(for: source.location, cacheDirectory: cache.url) }

        init() throws {
            catalog = try SyntheticCatalog.copy()
            cache = try TemporaryFolder("search-cache")
        }

        func open() throws -> SearchIndex { try SearchIndex.open(for: source, cacheDirectory: cache.url) }

        func names(_ query: String, _ index: SearchIndex) throws -> [String] {
            try index.search(query).hits.map(\.manifest.name)
        }

        /// The name of the first block folder, in sorted order.
        func firstBlock() throws -> String { try #require(try source.blockNames().first) }

        func cleanUp() {
            catalog.cleanUp()
            cache.cleanUp()
        }
    }

    static func inode(_ url: URL) -> UInt64? {
        var info = stat()
        return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func theIndexLivesInTheCacheUnderTheLocationsHash() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let index = try fixture.open()
        let expected = fixture.cache.url.appendingPathComponent("search/\(SHA256.hex(fixture.source.location)).sqlite")
        #expect(index.indexURL?.path == expected.path)
        #expect(FileManager.default.fileExists(atPath: expected.path))
        // Nothing is left behind from the temporary file it was written to.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: expected.deletingLastPathComponent().path)
        #expect(leftovers == [expected.lastPathComponent])
    }

    @Test func aSecondRunReusesTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let first = try fixture.open()
        #expect(first.finalStatus() == .built)
        let inode = Self.inode(fixture.indexURL)
        let second = try fixture.open()
        #expect(try fixture.names("toolbar", second) == (try fixture.names("toolbar", first)))
        #expect(second.finalStatus() == .reused)
        #expect(Self.inode(fixture.indexURL) == inode)
    }

    @Test func anEditedTitleIsFoundAfterARebuild() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        let block = try fixture.firstBlock()
        let file = fixture.catalog.path("\(block)/block.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        object["title"] = ["en": "Zebracorn Gallery", "es": "Galería de cebricornios"]
        try JSONSerialization.data(withJSONObject: object).write(to: file)

        let index = try fixture.open()
        #expect(try fixture.names("zebracorn", index) == [block])
        #expect(try fixture.names("cebricornios", index) == [block])
        #expect(index.finalStatus() == .built)
        #expect(try fixture.open().finalStatus() == .reused)
    }

    @Test func anAddedOrRemovedBlockFolderRebuildsTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        #expect(try fixture.open().finalStatus() == .built)

        try fixture.catalog.write("quokka-tabs/block.json", sampleManifestJSON(name: "quokka-tabs", titleEnglish: "Quokka Tabs"))
        let added = try fixture.open()
        #expect(try fixture.names("quokka", added) == ["quokka-tabs"])
        #expect(added.finalStatus() == .built)

        let block = try fixture.firstBlock()
        #expect(try fixture.names(block, added).first == block)
        try FileManager.default.removeItem(at: fixture.catalog.path(block))
        let removed = try fixture.open()
        #expect(try fixture.names(block, removed).first != block)
        #expect(removed.finalStatus() == .built)
    }

    @Test func aFolderGainingItsBlockJSONIsNoticed() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        try FileManager.default.createDirectory(at: fixture.catalog.path("wombat-pager"), withIntermediateDirectories: true)
        #expect(try fixture.names("wombat", try fixture.open()).isEmpty)
        try fixture.catalog.write("wombat-pager/block.json", sampleManifestJSON(name: "wombat-pager", titleEnglish: "Wombat Pager"))
        #expect(try fixture.names("wombat", try fixture.open()) == ["wombat-pager"])
    }

    @Test(arguments: ["garbage", "truncated", "empty", "postings", "rows", "a group of rows"])
    func aDamagedIndexIsReplaced(damage: String) throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let expected = try fixture.names("carousel toolbar", try fixture.open())
        #expect(!expected.isEmpty)
        switch damage {
        case "garbage":
            try Data(repeating: 0x5A, count: 70_000).write(to: fixture.indexURL)
        case "truncated":
            let bytes = try Data(contentsOf: fixture.indexURL)
            try bytes.prefix(bytes.count / 3).write(to: fixture.indexURL)
        case "postings":
            // A sound file whose every chunk of posting lists lost its last posting.
            try Self.change(fixture.indexURL.path, "UPDATE postings SET lists = substr(lists, 1, length(lists) - 4)")
        case "rows":
            // Every group of rows three bytes short.
            try Self.change(fixture.indexURL.path, "UPDATE rows SET data = substr(data, 1, length(data) - 3)")
        case "a group of rows":
            try Self.change(fixture.indexURL.path, "DELETE FROM rows WHERE first = (SELECT max(first) FROM rows)")
        default:
            try Data().write(to: fixture.indexURL)
        }
        let index = try fixture.open()
        if damage.contains("rows") {
            // The rows are what the result table and the filters read.
            let listed = try index.listings("carousel toolbar") { listings, _, _ in listings.map(\.name) }
            #expect(listed == expected)
        } else {
            #expect(try fixture.names("carousel toolbar", index) == expected)
        }
        #expect(index.finalStatus() == .built)
        #expect(try fixture.open().finalStatus() == .reused)
    }

    /// Runs one SQL statement on an index file with Python's `sqlite3`, a hand from outside
    /// the tool, and expects it to change a row at least.
    static func change(_ path: String, _ statement: String) throws {
        let program = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            assert db.execute(sys.argv[2]).rowcount > 0
            db.commit()
            """
        let run = try ArchiveTool.python(program, [path, statement])
        #expect(run.status == 0, "\(run.errors)")
    }

    /// The filters read every group of rows: a group that is gone or damaged is found out
    /// by a filtered search too, and the index rebuilt.
    @Test func aFilteredSearchReplacesAnIndexWhoseRowsAreDamaged() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let filters = SearchEngine.Filters(level: "intermediate")
        let expected = try fixture.open().search("tabs", filters: filters).hits.map(\.manifest.name)
        #expect(!expected.isEmpty)
        try Self.change(fixture.indexURL.path, "UPDATE rows SET data = zeroblob(length(data))")
        let index = try fixture.open()
        #expect(try index.search("tabs", filters: filters).hits.map(\.manifest.name) == expected)
        #expect(index.finalStatus() == .built)
    }

    /// A corpus gathered in slices is the corpus of all the blocks at once: the later
    /// slices' postings name their blocks by their place among all.
    @Test func aCorpusBuiltInSlicesIsTheSameAsAtOnce() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let blocks = try fixture.source.searchableBlocks()
        #expect(blocks.count > 5)
        var whole = SearchCorpusBuilder()
        whole.add(blocks)
        var sliced = SearchCorpusBuilder()
        for start in stride(from: 0, to: blocks.count, by: 3) { sliced.add(Array(blocks[start..<min(start + 3, blocks.count)])) }
        let (one, several) = (whole.finished(), sliced.finished())
        #expect(several.vocabulary == one.vocabulary && several.names == one.names && several.nameRanks == one.nameRanks)
        #expect(several.postingLists == one.postingLists)
        #expect(one.postingLists.contains { $0.contains { $0.block == blocks.count - 1 } })
    }

    @Test func aCacheThatCannotBeWrittenStillGivesResults() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let expected = try fixture.names("slider", try fixture.open())
        // A plain file where the cache folder should be: no user, root included, can
        // create a folder inside it.
        try fixture.cache.write("not-a-folder", "x")
        let blocked = fixture.cache.path("not-a-folder")
        let index = try SearchIndex.open(for: fixture.source, cacheDirectory: blocked)
        #expect(try fixture.names("slider", index) == expected)
        guard case .inMemory(let reason?) = index.finalStatus() else {
            Issue.record("expected an in-memory search with a reason, got \(index.finalStatus())")
            return
        }
        #expect(reason.contains("search"))
    }

    @Test func theEmbeddedCatalogIsSearchedInMemory() throws {
        let cache = try TemporaryFolder("search-cache")
        defer { cache.cleanUp() }
        let index = try SearchIndex.open(for: CatalogSource.embedded, cacheDirectory: cache.url)
        #expect(index.finalStatus() == .inMemory(reason: nil))
        #expect(index.indexURL == nil)
        // No SQLite index: only the corpus the embedded catalog keeps (EmbeddedCorpusCacheTests).
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path("search").path) == ["embedded.corpus"])
    }

    @Test func aBrokenManifestIsStillReportedThroughTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        try fixture.catalog.write("\(try fixture.firstBlock())/block.json", "{ not json")
        #expect(throws: CatalogError.self) { _ = try fixture.open().search("tabs") }
    }

    @Test func fingerprintsFollowNamesSizesAndTimesOnly() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let path = fixture.catalog.url.path
        let before = try #require(SearchFingerprint.catalogFolder(at: path))
        #expect(SearchFingerprint.catalogFolder(at: path) == before)
        #expect(before.hasPrefix("catalog-60-"))
        // Hidden entries and files other than block.json do not count.
        try fixture.catalog.write(".DS_Store", "x")
        try fixture.catalog.write("\(try fixture.firstBlock())/Notes.md", "x")
        #expect(SearchFingerprint.catalogFolder(at: path) == before)
        try fixture.catalog.write("new-block/block.json", "{}")
        #expect(SearchFingerprint.catalogFolder(at: path) != before)
        #expect(SearchFingerprint.catalogFolder(at: fixture.catalog.path("missing").path) == nil)
    }

    @Test func theFingerprintIsTheSameOnOneThreadOrSeveral() throws {
        let path = try #require(SyntheticCatalog.shared300).path
        let one = SearchFingerprint.catalogFolder(at: path, threads: 1)
        #expect(one != nil)
        #expect(SearchFingerprint.catalogFolder(at: path, threads: 2) == one)
        #expect(SearchFingerprint.catalogFolder(at: path, threads: 3) == one)
        #expect(SearchFingerprint.catalogFolder(at: path) == one)
    }

    @Test func theCommandSearchesThroughTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let environment = ["XDG_CACHE_HOME": fixture.cache.url.path]
        let arguments = ["--registry", fixture.catalog.url.path, "search", "carousel", "toolbar"]
        let first = runBlocks(arguments, environment: environment)
        let second = runBlocks(arguments, environment: environment)
        #expect(first.code == 0)
        #expect(first.err.isEmpty)
        #expect(second.out == first.out)
        let indexFile = SearchIndex.indexURL(for: fixture.catalog.url.path, cacheDirectory: fixture.cache.url.appendingPathComponent("blocks"))
        #expect(FileManager.default.fileExists(atPath: indexFile.path))

        // The same table as the engine gives from the manifests themselves.
        let hits = InMemorySearch(manifests: try fixture.source.manifests()).search("carousel toolbar").hits
        let rows = hits.map { [$0.manifest.name, BlockSummary.platformText($0.manifest), $0.manifest.level, $0.manifest.englishTitle] }
        #expect(first.out == Table.render(rows).joined(separator: "\n") + "\n")

        let json = runBlocks(["--json"] + arguments, environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["name"] as? String } == hits.map(\.manifest.name))
    }

    /// Without --limit the table shows the best `tableLimit` rows and says on stderr how
    /// many matched; a --limit shows as many as asked without the note; --json every one.
    @Test func theTableShowsTheBestFiftyAndSaysHowManyMatched() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let environment = ["XDG_CACHE_HOME": fixture.cache.url.path]
        let arguments = ["--registry", fixture.catalog.url.path, "search", "tabs"]
        let hits = InMemorySearch(manifests: try fixture.source.manifests()).search("tabs").hits
        #expect(hits.count == 60 && SearchCommand.tableLimit == 50)
        func table(_ hits: ArraySlice<SearchEngine.Hit>) -> String {
            Table.render(hits.map { [$0.manifest.name, BlockSummary.platformText($0.manifest), $0.manifest.level, $0.manifest.englishTitle] })
                .joined(separator: "\n") + "\n"
        }
        let cut = runBlocks(arguments, environment: environment)
        #expect(cut.code == 0 && cut.out == table(hits.prefix(50)))
        #expect(cut.err == "Showing the best 50 of 60 matches; --limit <n> shows more, --json every one.\n")
        let asked = runBlocks(arguments + ["--limit", "55"], environment: environment)
        #expect(asked.out == table(hits.prefix(55)) && asked.err.isEmpty)
        let few = runBlocks(arguments + ["--limit", "3"], environment: environment)
        #expect(few.out == table(hits.prefix(3)) && few.err.isEmpty)
        let json = runBlocks(["--json"] + arguments, environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((object["results"] as? [[String: Any]])?.count == 60)
    }

    /// Over several registries the table is cut the same way, and the note counts the
    /// matches of all of them: the nine embedded blocks and the sixty of `@big`.
    @Test func severalRegistriesShareTheTablesFirstFifty() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let project = try TestProject.make()
        defer { project.delete() }
        let environment = ["XDG_CACHE_HOME": fixture.cache.url.path]
        #expect(project.run(["registry", "add", "@big", fixture.catalog.url.path], environment: environment).code == 0)
        let json = project.run(["search", "tabs", "--json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 69 && json.errors.isEmpty, "\(json.errors)")
        let cut = project.run(["search", "tabs"], environment: environment)
        let names = cut.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(cut.code == 0 && names == results.prefix(50).compactMap { $0["name"] as? String }, "\(cut.output)")
        #expect(cut.errors == "Showing the best 50 of 69 matches; --limit <n> shows more, --json every one.\n")
        let asked = project.run(["search", "tabs", "--limit", "60"], environment: environment)
        #expect(asked.output.split(separator: "\n").count == 60 && asked.errors.isEmpty, "\(asked.errors)")
    }

    /// A limit picks the best blocks without sorting every match, and they are the ones,
    /// in the order, that sorting every match gives.
    @Test func aLimitedSearchGivesTheFirstOfTheFullRanking() throws {
        let catalog = try #require(SyntheticCatalog.shared300)
        let search = InMemorySearch(manifests: try CatalogSource.folder(catalog).manifests())
        for query in ["tabs", "carousel", "scroling", "pestanas toolbar", ""] {
            let all = search.search(query).hits.map(\.manifest.name)
            for limit in [1, 5, 20] {
                let limited = search.search(query, limit: limit)
                #expect(limited.hits.map(\.manifest.name) == Array(all.prefix(limit)), "\(query) \(limit)")
                #expect(limited.total == all.count)
            }
        }
    }

    @Test func theCommandWorksWithAnUnwritableCache() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        try fixture.cache.write("file", "x")
        let result = runBlocks(["--registry", fixture.catalog.url.path, "search", "slider"], environment: ["XDG_CACHE_HOME": fixture.cache.path("file").path])
        #expect(result.code == 0)
        #expect(result.out.contains("slider"))
        #expect(result.err.components(separatedBy: "\n").filter { $0.contains("without an index") }.count == 1)
        let quiet = runBlocks(
            ["-q", "--registry", fixture.catalog.url.path, "search", "slider"], environment: ["XDG_CACHE_HOME": fixture.cache.path("file").path])
        #expect(quiet.err.isEmpty)
        #expect(quiet.out == result.out)
    }
}
