import Foundation
import Testing

@testable import BlocksKit

/// `blocks build --split-index` (schemaVersion 3): index.json lists a dictionary, ranges of
/// compact entries and digest files; search, list, info, add and the mirror read it from a
/// folder and over nginx, signed or not; a rebuild rewrites only the range and digest file
/// of the block that changed.
@Suite(.serialized) struct SplitIndexTests {
    let folder: URL
    let registry: URL
    let project: TestProject

    init() throws {
        folder = try TestProject.temporaryFolder("split-index")
        registry = folder.appendingPathComponent("registry")
        project = try TestProject.make()
    }

    func delete() {
        project.delete()
        try? FileManager.default.removeItem(at: folder)
    }

    static let blocks: [TestCatalog.Block] = [.standard("pager", type: "Pager"), .standard("strip", type: "Strip"), .standard("top-tabs", type: "TopTabs")]

    @discardableResult
    func build(_ blocks: [TestCatalog.Block] = blocks, extra: [String] = []) throws -> (code: Int32, out: String, err: String) {
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        return try runBinary(["build", "--catalog", catalog.root.path, "--out", registry.path, "--split-index"] + extra)
    }

    func file(_ path: String) -> Data? { FileManager.default.contents(atPath: registry.appendingPathComponent(path).path) }

    func part(_ reference: SplitIndex.FileReference) throws -> Data { try #require(file(reference.path)) }

    func layout() throws -> SplitIndex.Layout {
        let data = try #require(file("index.json"))
        return try #require(try RegistryIndex.decode(data, location: "test").split)
    }

    /// The compact entries of every range, read back through the dictionary.
    func entries(_ layout: SplitIndex.Layout) throws -> [RegistryEntry] {
        let dictionary = try SplitIndexColumns.Dictionary.decode(try part(layout.dictionary), path: "dictionary")
        return try layout.ranges.flatMap { try SplitIndexColumns.entries(ofRange: try part($0.file), path: $0.file.path, dictionary: dictionary) }
    }

    @Test func theIndexListsADictionaryRangesAndDigestFilesThatMatchTheirSchemas() throws {
        defer { delete() }
        let built = try build()
        #expect(built.code == 0, "\(built.err)")
        let index = try RegistryIndex.decode(try #require(file("index.json")), location: "test")
        #expect(index.schemaVersion == 3 && index.blocks.isEmpty)
        let layout = try #require(index.split)
        #expect(layout.epoch == 1 && layout.ranges.map(\.blocks) == [3] && layout.digestFiles.map(\.first) == ["pager"])
        for reference in layout.files {
            let bytes = try part(reference)
            #expect(reference.path == "index/\(reference.sha256).json" && SHA256.hex(bytes) == reference.sha256)
            // nginx's gzip_static copy, at deflate's smallest level, as gzip itself reads it.
            let unzipped = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "gzip -dc < '\(registry.appendingPathComponent(reference.path + ".gz").path)' | sha256sum"])
            #expect(unzipped.out.hasPrefix(reference.sha256), "\(unzipped.out)\(unzipped.err)")
            #expect(try Zlib.gzip(bytes, level: Zlib.smallestLevel) == file(reference.path + ".gz"))
        }
        // A compact entry: the search fields and the code names, and nothing else.
        let pager = try #require(try entries(layout).first { $0.manifest.name == "pager" })
        #expect(pager.codeNames.contains("Pager") && pager.metadata == "blocks/pager.json")
        #expect(pager.manifest.summary == ["en": "A test block.", "es": "Un bloque de prueba."] && pager.manifest.tags["es"] == ["pestañas"])
        let range = String(decoding: try part(layout.ranges[0].file), as: UTF8.self)
        #expect(!range.contains("\"files\"") && !range.contains("\"archives\"") && !range.contains("sha256"), "\(range)")
        // The digest file holds the metadata file's hash.
        let digests = try SplitIndexColumns.digests(ofDigestFile: try part(layout.digestFiles[0].file), path: "digests")
        #expect(digests["blocks/pager.json"] == RegistryFileDigest(of: try #require(file("blocks/pager.json"))))

        let schemas = SchemaFilesTests()
        #expect(try schemas.problems(registry.appendingPathComponent("index.json"), schema: "index") == [])
        for reference in layout.files { #expect(try schemas.problems(registry.appendingPathComponent(reference.path), schema: "index-parts") == []) }
        // The schemas can fail: a range whose code is neither a number nor a string, and a split index without its epoch.
        let bad = folder.appendingPathComponent("bad.json")
        try Data(range.replacingOccurrences(of: "\"versions\":[", with: "\"versions\":[true,").utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "index-parts").isEmpty)
        let indexText = String(decoding: try #require(file("index.json")), as: UTF8.self)
        try Data(indexText.replacingOccurrences(of: "\"epoch\"", with: "\"era\"").utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "index").isEmpty)
    }

    /// The compact entries of the real catalog, read back from the ranges, are the search
    /// fields and code names of the same catalog's whole index, field for field.
    @Test func theRangesHoldTheCatalogsSearchFieldsExactly() throws {
        defer { delete() }
        let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Catalog")
        let whole = folder.appendingPathComponent("whole")
        #expect(try runBinary(["build", "--catalog", catalog.path, "--out", whole.path]).code == 0)
        #expect(try runBinary(["build", "--catalog", catalog.path, "--out", registry.path, "--split-index"]).code == 0)
        let expected = try RegistryIndex.decode(try Data(contentsOf: whole.appendingPathComponent("index.json")), location: "whole").blocks
        let read = try entries(try layout())
        #expect(read.count == 9 && read.count == expected.count)
        for (compact, full) in zip(read, expected) {
            #expect(compact.manifest.searchMembers == full.manifest.searchMembers)
            #expect(compact.codeNames == full.codeNames && compact.metadata == full.metadata)
        }
    }

    @Test func searchListInfoAndAddReadItFromAFolder() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let search = project.run(["search", "strip", "--registry", registry.path])
        #expect(search.code == 0 && search.output.contains("strip"), "\(search.errors)")
        let list = project.run(["list", "--registry", registry.path])
        #expect(list.code == 0 && ["pager", "strip", "top-tabs"].allSatisfy(list.output.contains), "\(list.output)")
        let info = project.run(["info", "pager", "--registry", registry.path])
        #expect(info.code == 0 && info.output.contains("Pager.swift"), "\(info.output)")
        let added = project.run(["add", "top-tabs", "--registry", registry.path])
        #expect(added.code == 0, "\(added.errors)")
        #expect(project.exists("Sources/App/Blocks/top-tabs/TopTabs.swift"))
        let unknown = project.run(["add", "pagr", "--registry", registry.path])
        #expect(unknown.errors.contains("did you mean 'pager'?"), "\(unknown.errors)")
    }

    /// Rewrites index.json to list `ranges`: each a first name and the entries its file holds.
    func resplit(_ ranges: [(first: String, entries: [RegistryEntry])], dictionary: SplitIndexColumns.Dictionary) throws {
        let parts = try ranges.map { first, entries -> JSONValue in
            let data = SplitIndexColumns.range(entries, dictionary: dictionary)
            let file = SplitIndex.FileReference(holding: data)
            try data.write(to: registry.appendingPathComponent(file.path))
            return SplitIndex.Part(first: first, blocks: entries.count, file: file).jsonValue
        }
        guard case .object(var index) = try JSONReader.parse(try #require(file("index.json"))) else { throw CocoaError(.fileReadCorruptFile) }
        index["ranges"] = .array(parts)
        try Data(StableJSONWriter.line(.object(index))).write(to: registry.appendingPathComponent("index.json"))
    }

    /// The dictionary and a range a core are fetched first, the other ranges on another
    /// thread while those are read (`BuiltRegistrySource.forEachRange`). Over forty ranges,
    /// more than the cores of any machine the tests run on: each part is fetched once and
    /// the blocks come in name order; a later range that is missing or damaged fails the
    /// read with its path, and leaves no partial file in the cache.
    @Test func laterRangesFetchedWhileTheFirstAreReadAreCheckedAsTheFirst() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let dictionary = try SplitIndexColumns.Dictionary.decode(try part(try layout().dictionary), path: "dictionary")
        let all = try entries(try layout())
        let names = (0..<40).map { String(format: "blk-%02d", $0) }
        try resplit(names.enumerated().map { number, name in
            var entry = all[number % all.count]
            entry.manifest.name = name
            return (first: name, entries: [entry])
        }, dictionary: dictionary)
        #expect(ConcurrentMap.cores < names.count)
        let server = try Nginx(root: registry)
        defer { server.stop() }
        var caches = 0
        func list() -> (result: CommandResult, cache: URL) {
            caches += 1
            let cache = folder.appendingPathComponent("cache-\(caches)")
            return (project.run(["list", "--json", "--registry", server.baseURL], environment: ["XDG_CACHE_HOME": cache.path]), cache)
        }
        func partialFiles(_ cache: URL) -> [String] {
            (FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") || $0.contains(".tmp") }
        }
        let whole = list()
        #expect(whole.result.code == 0, "\(whole.result.errors)")
        let listed = (try JSONSerialization.jsonObject(with: Data(whole.result.output.utf8)) as? [String: Any])?["blocks"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["name"] as? String } == names)
        let fetched = server.requests(atLeast: 42).map(\.path).filter { $0.hasPrefix("/index/") }
        #expect(fetched.count == 41 && Set(fetched).count == 41, "\(fetched)")

        let late = try layout().ranges[30].file
        let original = try part(late)
        try FileManager.default.removeItem(at: registry.appendingPathComponent(late.path))
        let missing = list()
        #expect(missing.result.code != 0 && missing.result.errors.contains(late.path), "\(missing.result.errors)")
        #expect(partialFiles(missing.cache).isEmpty)
        var damaged = original
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: registry.appendingPathComponent(late.path))
        let forged = list()
        #expect(forged.result.code != 0 && forged.result.errors.contains(late.path), "\(forged.result.errors)")
        #expect(partialFiles(forged.cache).isEmpty)
        // From a folder too: the later parts are read and checked on the other thread.
        let local = project.run(["list", "--registry", registry.path])
        #expect(local.code != 0 && local.errors.contains(late.path), "\(local.errors)")
    }

    /// Search and list read a split index range after range (so a large one is never held
    /// whole): over two ranges they give what one range gives, and ranges listed out of
    /// name order are refused rather than listed unsorted.
    @Test func searchAndListReadRangeAfterRangeAndRefuseRangesOutOfOrder() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let layout = try layout()
        let dictionary = try SplitIndexColumns.Dictionary.decode(try part(layout.dictionary), path: "dictionary")
        let all = try entries(layout)
        #expect(all.map(\.manifest.name) == ["pager", "strip", "top-tabs"])
        func outputs() -> [String] {
            ["pestañas --json", "strip --json", "toptabs", "--json"].map { query in
                let command = (query == "--json" ? ["list", "--json"] : ["search"] + query.split(separator: " ").map(String.init))
                let result = project.run(command + ["--registry", registry.path])
                return "\(result.code) \(result.output)\(result.errors)"
            }
        }
        let whole = outputs()
        #expect(whole[0].contains("\"top-tabs\"") && whole[3].contains("\"top-tabs\""), "\(whole)")
        try resplit([("pager", Array(all[0..<2])), ("top-tabs", [all[2]])], dictionary: dictionary)
        #expect(try self.layout().ranges.count == 2)
        #expect(outputs() == whole)
        // A range that holds its entries out of name order is read in name order.
        try resplit([("pager", [all[1], all[0]]), ("top-tabs", [all[2]])], dictionary: dictionary)
        #expect(outputs() == whole)

        // The second range listed first: its block comes before the other range's.
        try resplit([("a", [all[2]]), ("b", Array(all[0..<2]))], dictionary: dictionary)
        let listed = project.run(["list", "--registry", registry.path])
        #expect(listed.code != 0 && listed.errors.contains("holds 'pager', which comes before the range listed ahead of it"), "\(listed.errors)")
        let searched = project.run(["search", "strip", "--registry", registry.path])
        #expect(searched.code != 0 && searched.errors.contains("which comes before the range listed ahead of it"), "\(searched.errors)")
    }

    @Test func overNginxAWarmSearchFetchesNoPartAndAChangeFetchesTheFeedAlone() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let server = try Nginx(root: registry)
        defer { server.stop() }
        let cache = folder.appendingPathComponent("cache")
        let environment = ["XDG_CACHE_HOME": cache.path]
        let first = project.run(["search", "pager", "--registry", server.baseURL], environment: environment)
        #expect(first.code == 0 && first.output.contains("pager"), "\(first.output)\(first.errors)")
        // The dictionary and the range: search needs no digest file.
        let before = try layout()
        let cold = server.requests(atLeast: 3)
        #expect(cold.map(\.summary).sorted() == ["GET /\(before.dictionary.path) 200", "GET /\(before.ranges[0].file.path) 200", "GET /index.json 200"].sorted())

        let warm = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(warm.code == 0 && warm.output.contains("strip"), "\(warm.errors)")
        let afterWarm = server.requests(atLeast: cold.count + 1)
        #expect(afterWarm.dropFirst(cold.count).map(\.summary) == ["GET /index.json 304"])

        // One block changes upstream: its range alone is fetched again.
        var blocks = Self.blocks
        blocks[1] = .standard("strip", type: "Strip", version: "1.1.0")
        #expect(try build(blocks).code == 0)
        // nginx's ETag is the mtime's second and the size, which a rebuild within the second may keep.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let changed = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(changed.code == 0 && changed.output.contains("1.1.0"), "\(changed.output)")
        let afterChange = server.requests(atLeast: afterWarm.count + 2).dropFirst(afterWarm.count).map(\.summary)
        let after = try layout()
        #expect(after.dictionary == before.dictionary && after.epoch == before.epoch && after.snapshot == before.snapshot + 1)
        // The range comes from the feed and the range before, exactly as the build wrote it.
        #expect(afterChange == ["GET /index.json 200", "GET /\(after.feed.path) 200"], "\(afterChange)")
        let cached = RegistryCache(root: cache.appendingPathComponent("blocks")).archiveFile(sha256: after.ranges[0].file.sha256, path: after.ranges[0].file.path)
        #expect(FileManager.default.contents(atPath: cached.path) == file(after.ranges[0].file.path))

        // Without the range before in the cache, the feed cannot help: the range is fetched.
        try FileManager.default.removeItem(at: cached)
        blocks[2] = .standard("top-tabs", type: "TopTabs", version: "1.0.1")
        #expect(try build(blocks).code == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let fetched = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(fetched.code == 0 && fetched.output.contains("1.0.1"), "\(fetched.output)")
        let third = try layout()
        let afterFallback = server.requests(atLeast: afterWarm.count + 5).dropFirst(afterWarm.count + 2).map(\.summary)
        #expect(afterFallback == ["GET /index.json 200", "GET /\(third.feed.path) 200", "GET /\(third.ranges[0].file.path) 200"], "\(afterFallback)")

        // A forged feed (its hash is not the one index.json lists) makes nothing: the range is fetched.
        blocks[0] = .standard("pager", type: "Pager", version: "1.0.2")
        #expect(try build(blocks).code == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(180)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let fourth = try layout()
        let feedFile = registry.appendingPathComponent(fourth.feed.path)
        let forgedFeed = String(decoding: try Data(contentsOf: feedFile), as: UTF8.self).replacingOccurrences(of: "1.0.2", with: "6.6.6")
        try Data(forgedFeed.utf8).write(to: feedFile)
        unlink(feedFile.path + ".gz")
        let afterForgery = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(afterForgery.code == 0 && afterForgery.output.contains("1.0.2") && !afterForgery.output.contains("6.6.6"), "\(afterForgery.output)")
        let forgeryRequests = server.requests(atLeast: afterWarm.count + 8).dropFirst(afterWarm.count + 5).map(\.summary)
        #expect(forgeryRequests == ["GET /index.json 200", "GET /\(fourth.feed.path) 200", "GET /\(fourth.ranges[0].file.path) 200"], "\(forgeryRequests)")

        let added = project.run(["add", "strip", "--registry", server.baseURL], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["strip"]?.version == "1.1.0")
    }

    /// Builds `names` in-process with ranges of 2 names and digest files of 1, so a few
    /// blocks make several parts.
    func buildSmall(_ blocks: [TestCatalog.Block]) throws -> RegistryBuilder.Report {
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        let source = CatalogSource.folder(catalog.root)
        var builder = RegistryBuilder(output: registry, packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        builder.splitIndex = true
        builder.splitSizes = (range: 2, digestFile: 1)
        return try builder.build(try source.contents(of: try source.blockNames()))
    }

    func partFiles() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: registry.appendingPathComponent("index").path).map { "index/" + $0 })
    }

    @Test func theFeedKeepsItsWindowAndSaysHowFarBackItReaches() {
        let change = { (snapshot: Int) in SplitIndexFeed.Change(snapshot: snapshot, name: "b\(snapshot)", entry: nil, metadata: nil) }
        var feed = SplitIndexFeed(epoch: 1, since: 4, changes: [])
        for snapshot in 5...(5 + SplitIndexFeed.window) { feed = feed.appending([change(snapshot)]) }
        #expect(feed.changes.count == SplitIndexFeed.window && feed.changes.first?.snapshot == 6 && feed.since == 5)
        #expect(feed.changes(after: 4) == nil, "snapshot 5 is no longer in it")
        #expect(feed.changes(after: 5)?.count == SplitIndexFeed.window)
        #expect(feed.changes(after: 5 + SplitIndexFeed.window)?.isEmpty == true)
    }

    /// When most of the strings change, the epoch's dictionary would leave far more of them
    /// inline than a new one: the build starts a new epoch, with the same number of blocks
    /// in each part (so no part doubled).
    @Test func aRebuildStartsANewEpochWhenItsDictionaryHasGoneStale() throws {
        defer { delete() }
        let names = ["a-tabs", "b-tabs", "c-tabs", "d-tabs", "e-tabs"]
        _ = try buildSmall(names.map { .standard($0, type: "T") })
        let first = try layout()
        _ = try buildSmall(names.map { .standard($0, type: "Carousel", version: "2.0.0", platforms: ["macOS": "15.0"]) })
        let second = try layout()
        #expect(second.epoch == first.epoch + 1 && second.ranges.map(\.blocks) == first.ranges.map(\.blocks))
        let dictionary = try SplitIndexColumns.Dictionary.decode(try part(second.dictionary), path: "dictionary")
        #expect(dictionary.strings.contains("2.0.0") && dictionary.strings.contains("macOS"), "\(dictionary.strings)")
    }

    @Test func aRebuildRewritesOnlyTheChangedBlocksRangeAndDigestFileWithinAnEpoch() throws {
        defer { delete() }
        var blocks = ["a-tabs", "b-tabs", "c-tabs", "d-tabs", "e-tabs"].map { TestCatalog.Block.standard($0, type: "T") }
        _ = try buildSmall(blocks)
        let first = try layout()
        #expect(first.ranges.map(\.first) == ["a-tabs", "c-tabs", "e-tabs"] && first.digestFiles.count == 5)

        blocks[3] = .standard("d-tabs", type: "T", version: "1.0.1")
        let report = try buildSmall(blocks)
        #expect(report.written == ["d-tabs"])
        let second = try layout()
        #expect(second.epoch == first.epoch && second.dictionary == first.dictionary)
        #expect(zip(first.ranges, second.ranges).filter { $0 != $1 }.map(\.1.first) == ["c-tabs"])
        #expect(zip(first.digestFiles, second.digestFiles).filter { $0 != $1 }.map(\.1.first) == ["d-tabs"])
        // The feed says what changed, with the entry and the metadata file's digest.
        let feed = try SplitIndexFeed.decode(try part(second.feed), path: "feed")
        #expect(second.snapshot == first.snapshot + 1 && feed.since == first.snapshot)
        #expect(feed.changes.map { "\($0.snapshot) \($0.name) \($0.entry?.manifest.version ?? "-")" } == ["2 d-tabs 1.0.1"])
        #expect(feed.changes[0].metadata == RegistryFileDigest(of: try #require(file("blocks/d-tabs.json"))))
        #expect(try SchemaFilesTests().problems(registry.appendingPathComponent(second.feed.path), schema: "index-parts") == [])
        // The parts of the index before stay for a client that read it; older ones go.
        let listed = Set((first.files + second.files).flatMap { [$0.path, $0.path + ".gz"] })
        #expect(try partFiles() == listed)

        // A block added inside the epoch joins the range its name falls in, its new words inline.
        blocks.append(.standard("ca-tabs", type: "Zebra"))
        _ = try buildSmall(blocks)
        let third = try layout()
        #expect(third.epoch == first.epoch && third.ranges.map(\.first) == ["a-tabs", "c-tabs", "e-tabs"] && third.ranges[1].blocks == 3)
        #expect(try entries(third).map(\.manifest.name) == ["a-tabs", "b-tabs", "c-tabs", "ca-tabs", "d-tabs", "e-tabs"])
        #expect(try entries(third).first { $0.manifest.name == "ca-tabs" }?.codeNames.contains("Zebra") == true)
        #expect(try partFiles() == Set((second.files + third.files).flatMap { [$0.path, $0.path + ".gz"] }))

        #expect(try SplitIndexFeed.decode(try part(third.feed), path: "feed").changes.map(\.name) == ["d-tabs", "ca-tabs"])

        // A removed block is a change without an entry.
        let removed = blocks.removeLast()
        _ = try buildSmall(blocks)
        let withoutIt = try layout()
        let removal = try #require(try SplitIndexFeed.decode(try part(withoutIt.feed), path: "feed").changes.last)
        #expect(removal.name == removed.name && removal.entry == nil && removal.metadata == nil && removal.snapshot == third.snapshot + 1)
        blocks.append(removed)
        _ = try buildSmall(blocks)

        // A range grown past twice its first size starts a new epoch, cut afresh.
        blocks += ["cb-tabs", "cc-tabs"].map { TestCatalog.Block.standard($0, type: "T") }
        _ = try buildSmall(blocks)
        let fourth = try layout()
        #expect(fourth.epoch == first.epoch + 1 && fourth.ranges.allSatisfy { $0.blocks <= 2 } && fourth.ranges.count == 4)
        // A new epoch starts an empty feed: no client can carry its ranges across.
        let newFeed = try SplitIndexFeed.decode(try part(fourth.feed), path: "feed")
        #expect(newFeed.changes.isEmpty && newFeed.since == fourth.snapshot && newFeed.epoch == fourth.epoch)
        // Nothing changed: index.json keeps its bytes.
        let index = file("index.json")
        _ = try buildSmall(blocks)
        #expect(file("index.json") == index)
    }

    @Test func aSignedSplitIndexCoversEveryPartAndMetadataFile() throws {
        defer { delete() }
        let keys = folder.appendingPathComponent("keys")
        let publicKey = try keygenPublicKey(into: keys)
        #expect(try build(extra: ["--sign", keys.appendingPathComponent("blocks.key").path]).code == 0)
        let verified = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["minisign", "-V", "-P", publicKey, "-m", registry.appendingPathComponent("index.json").path])
        #expect(verified.code == 0, "\(verified.err)")
        try project.write("blocks.json", "{\"registry\": \"\(registry.path)\", \"keys\": [\"\(publicKey)\"]}\n")
        let added = project.run(["add", "pager"])
        #expect(added.code == 0, "\(added.errors)")

        let range = registry.appendingPathComponent(try layout().ranges[0].file.path)
        let original = try Data(contentsOf: range)
        // A forged range of the same size: its hash no longer matches the signed index.
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"pager\"", with: "\"pagex\"").utf8).write(to: range)
        let forgedRange = project.run(["search", "strip"])
        #expect(forgedRange.code != 0 && forgedRange.errors.contains("was expected"), "\(forgedRange.errors)")
        // A longer one is refused by its size, before it is read.
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"pager\"", with: "\"pagers\"").utf8).write(to: range)
        let longer = project.run(["search", "strip"])
        #expect(longer.code != 0 && longer.errors.contains("not the \(original.count) index.json gives it"), "\(longer.errors)")
        try original.write(to: range)

        // A forged digest file: its hash no longer matches the signed index.
        let digestFile = registry.appendingPathComponent(try #require(try layout().digestFile(for: "strip")).file.path)
        let digests = try Data(contentsOf: digestFile)
        try Data(String(decoding: digests, as: UTF8.self).replacingOccurrences(of: "\"size\":", with: "\"size\": ").utf8).write(to: digestFile)
        let forgedDigests = project.run(["add", "strip"])
        #expect(forgedDigests.code != 0 && forgedDigests.errors.contains("index.json gives it"), "\(forgedDigests.errors)")
        try digests.write(to: digestFile)

        // A forged metadata file: its hash no longer matches its digest file's.
        let metadata = registry.appendingPathComponent("blocks/strip.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "A test block.", with: "A forged block.").utf8).write(to: metadata)
        let before = try project.treeHash()
        let forged = project.run(["add", "strip"])
        #expect(forged.code != 0 && forged.errors.contains("blocks/strip.json"), "\(forged.errors)")
        #expect(try project.treeHash() == before)
    }

    /// Every file of a folder, by path, with its bytes' hash.
    static func files(in folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path)! where !path.hasPrefix(".blocks-mirror") {
            let url = folder.appendingPathComponent(path)
            if PathKind(url.path) != .folder { files[path] = SHA256.hex(try Data(contentsOf: url)) }
        }
        return files
    }

    @Test func theMirrorCopiesASplitIndexAndFollowsAChange() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let server = try Nginx(root: registry)
        defer { server.stop() }
        let mirror = folder.appendingPathComponent("mirror")
        let made = project.run(["mirror", server.baseURL, mirror.path])
        #expect(made.code == 0, "\(made.errors)")
        #expect(try Data(contentsOf: mirror.appendingPathComponent("index.json")) == file("index.json"))
        let first = try layout()
        for part in first.files {
            #expect(FileManager.default.contents(atPath: mirror.appendingPathComponent(part.path).path) == file(part.path))
            #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent(part.path + ".gz").path))
        }
        let search = project.run(["search", "strip", "--registry", mirror.path])
        #expect(search.code == 0 && search.output.contains("strip"), "\(search.errors)")
        #expect(project.run(["add", "pager", "--registry", mirror.path]).code == 0)

        // One block changes upstream: the mirror reads index.json and the feed, from which it
        // makes the changed digest file, then that block's metadata file and archives, and
        // then the changed range, which it fetches rather than decodes.
        var blocks = Self.blocks
        blocks[1] = .standard("strip", type: "Strip", version: "1.1.0")
        #expect(try build(blocks).code == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let before = server.requests().count
        let again = project.run(["mirror", server.baseURL, mirror.path])
        #expect(again.code == 0, "\(again.errors)")
        let second = try layout()
        let changed = Set(second.files.map(\.path)).subtracting(first.files.map(\.path)).sorted()
        #expect(changed.count == 3, "a range, a digest file and the feed: \(changed)")
        let requests = server.requests(atLeast: before + 5).dropFirst(before).map(\.summary)
        #expect(Array(requests.prefix(3)) == ["GET /index.json 200", "GET /\(second.feed.path) 200", "GET /blocks/strip.json 200"], "\(requests)")
        // Then whether the registry has a site, the block's two archives and the range.
        let changedRange = try #require(second.ranges.first { !first.ranges.contains($0) })
        #expect(
            requests.dropFirst(3).filter { $0 != "GET /site.json 404" }.sorted()
                == ["GET /archives/strip-1.1.0.tar.gz 200", "GET /archives/strip-1.1.0.zip 200", "GET /\(changedRange.file.path) 200"], "\(requests)")
        // The mirror holds what the registry holds, the parts of the index before included.
        let held = try Self.files(in: mirror)
        for (path, hash) in try Self.files(in: registry) {
            #expect(held[path] == hash, "\(path)")
        }
        let upToDate = project.run(["mirror", server.baseURL, mirror.path])
        #expect(upToDate.code == 0 && upToDate.output.contains("up to date"), "\(upToDate.output)")

        // Damage to a part is found by --verify and repaired by the next sync.
        let range = mirror.appendingPathComponent(second.ranges[0].file.path)
        try Data("{}".utf8).write(to: range)
        let verified = project.run(["mirror", "--verify", mirror.path])
        #expect(verified.code != 0 && verified.errors.contains(second.ranges[0].file.path), "\(verified.errors)")
        #expect(project.run(["mirror", server.baseURL, mirror.path]).code == 0)
        #expect(try Data(contentsOf: range) == file(second.ranges[0].file.path))
        #expect(project.run(["mirror", "--verify", mirror.path]).code == 0)

        // So is damage to a part that the next index lists again, when the upstream changed.
        let dictionary = mirror.appendingPathComponent(second.dictionary.path)
        try Data("{}".utf8).write(to: dictionary)
        blocks[0] = .standard("pager", type: "Pager", version: "1.0.1")
        #expect(try build(blocks).code == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let repaired = project.run(["mirror", server.baseURL, mirror.path])
        #expect(repaired.code == 0, "\(repaired.errors)")
        #expect(try layout().dictionary == second.dictionary && (try Data(contentsOf: dictionary)) == file(second.dictionary.path))
        #expect(project.run(["mirror", "--verify", mirror.path]).code == 0)
    }

    /// A split index's blocks are mirrored a digest file at a time. With a digest file for
    /// each block, the mirror holds every file the registry holds; after one block is
    /// removed and another gains a version, `--prune` removes exactly the removed block's
    /// metadata and archives, and the state keeps records only of files the index lists.
    @Test func aMirrorOfManyDigestFilesPrunesOnlyWhatTheIndexNoLongerLists() throws {
        defer { delete() }
        var blocks: [TestCatalog.Block] = ["alpha", "bravo", "charlie", "delta"].map { .standard($0, type: "T") }
        _ = try buildSmall(blocks)
        #expect(try layout().digestFiles.count == 4)
        let mirror = folder.appendingPathComponent("mirror")
        let made = project.run(["mirror", registry.path, mirror.path])
        #expect(made.code == 0, "\(made.errors)")
        var held = try Self.files(in: mirror)
        for (path, hash) in try Self.files(in: registry) { #expect(held[path] == hash, "\(path)") }
        #expect(held.keys.contains("blocks/charlie.json") && held.keys.contains("archives/charlie-1.0.0.zip"))

        blocks.remove(at: 2)
        blocks[0] = .standard("alpha", type: "T", version: "1.1.0")
        _ = try buildSmall(blocks)
        let pruned = project.run(["mirror", registry.path, mirror.path, "--prune"])
        #expect(pruned.code == 0, "\(pruned.errors)")
        held = try Self.files(in: mirror)
        // The registry still holds the removed block's files (a build deletes nothing); the
        // mirror prunes them, as its index no longer lists them.
        for (path, hash) in try Self.files(in: registry) where !path.contains("charlie") { #expect(held[path] == hash, "\(path)") }
        #expect(held.keys.filter { $0.contains("charlie") }.isEmpty, "\(held.keys.sorted())")
        #expect(held.keys.contains("archives/alpha-1.0.0.tar.gz") && held.keys.contains("archives/alpha-1.1.0.tar.gz"))
        let state = try MirrorState.open(in: mirror)
        #expect(state["blocks/charlie.json"] == nil && state["archives/charlie-1.0.0.zip"] == nil)
        #expect(state.isIntact("blocks/alpha.json", sha256: SHA256.hex(try #require(file("blocks/alpha.json"))), in: mirror))
        #expect(state.isIntact("archives/alpha-1.1.0.zip", sha256: SHA256.hex(try #require(file("archives/alpha-1.1.0.zip"))), in: mirror))
        let upToDate = project.run(["mirror", registry.path, mirror.path])
        #expect(upToDate.code == 0 && upToDate.output.contains("up to date"), "\(upToDate.output)")
    }

    /// A --latest-only mirror of a split index keeps its cut metadata files from one sync to
    /// the next: after one change it fetches that block's metadata file alone.
    @Test func aLatestOnlyMirrorOfASplitIndexFetchesOnlyWhatChanged() throws {
        defer { delete() }
        var blocks = Self.blocks
        blocks[1] = .standard("strip", type: "Strip", version: "1.1.0")
        #expect(try build(Self.blocks).code == 0)
        #expect(try build(blocks).code == 0)
        let server = try Nginx(root: registry)
        defer { server.stop() }
        let mirror = folder.appendingPathComponent("mirror")
        #expect(project.run(["mirror", server.baseURL, mirror.path, "--latest-only"]).code == 0)
        let strip = try BlockMetadata.decode(try Data(contentsOf: mirror.appendingPathComponent("blocks/strip.json")))
        #expect(strip.versions.map(\.version) == ["1.1.0"], "cut to the newest version")
        blocks[0] = .standard("pager", type: "Pager", version: "1.0.1")
        #expect(try build(blocks).code == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let before = server.requests().count
        #expect(project.run(["mirror", server.baseURL, mirror.path, "--latest-only"]).code == 0)
        let metadataRequests = server.requests(atLeast: before + 3).dropFirst(before).map(\.summary).filter { $0.contains("/blocks/") }
        #expect(metadataRequests == ["GET /blocks/pager.json 200"], "\(metadataRequests)")
        #expect(project.run(["mirror", "--verify", mirror.path]).code == 0)
    }

    /// A pinned mirror of a signed split index checks each metadata file against its digest
    /// file: a forged one upstream fails the run, and the mirror keeps its snapshot.
    @Test func aPinnedMirrorRefusesAForgedMetadataFileOfASignedSplitIndex() throws {
        defer { delete() }
        let keys = folder.appendingPathComponent("keys")
        let publicKey = try keygenPublicKey(into: keys)
        #expect(try build(extra: ["--sign", keys.appendingPathComponent("blocks.key").path]).code == 0)
        let mirror = folder.appendingPathComponent("mirror")
        let made = project.run(["mirror", registry.path, mirror.path, "--key", publicKey])
        #expect(made.code == 0, "\(made.errors)")
        #expect(project.run(["mirror", "--verify", mirror.path, "--key", publicKey]).code == 0)

        var blocks = Self.blocks
        blocks[2] = .standard("top-tabs", type: "TopTabs", version: "1.0.1")
        #expect(try build(blocks, extra: ["--sign", keys.appendingPathComponent("blocks.key").path]).code == 0)
        let metadata = registry.appendingPathComponent("blocks/top-tabs.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "A test block.", with: "A forged block.").utf8).write(to: metadata)
        let before = try Self.files(in: mirror)
        let forged = project.run(["mirror", registry.path, mirror.path, "--key", publicKey])
        #expect(forged.code != 0 && forged.errors.contains("blocks/top-tabs.json is not the file its digest file lists"), "\(forged.errors)")
        let after = try Self.files(in: mirror)
        #expect(after["index.json"] == before["index.json"] && after["blocks/top-tabs.json"] == before["blocks/top-tabs.json"])
    }

    /// A digest names a file in the cache, so one spelled as a path (`../../blocks`) would
    /// make the cache check, and delete, a file of the user's: every reader refuses it.
    @Test func aDigestThatIsNoHexIsRefusedAndNeverNamesAFile() throws {
        defer { delete() }
        let zeros = String(repeating: "0", count: 64)
        let hostile = #"{"schemaVersion": 3, "blocks": [], "epoch": 1, "snapshot": 1, "ranges": [], "digestFiles": [], "feed": {"path": "index/\#(zeros).json", "sha256": "\#(zeros)", "size": 1}, "dictionary": {"path": "index/\#(zeros).json", "sha256": "../../../../home/me/app/blocks", "size": 1}}"#
        #expect(throws: RegistryError.invalidIndex(location: "test", reason: "wrong type at dictionary.sha256")) {
            try RegistryIndex.decode(Data(hostile.utf8), location: "test")
        }
        // A part's path must be a hash's name under index/.
        let outside = hostile.replacingOccurrences(of: "../../../../home/me/app/blocks", with: zeros).replacingOccurrences(of: "\"dictionary\": {\"path\": \"index/\(zeros).json\"", with: "\"dictionary\": {\"path\": \"index/../blocks/pager.json\"")
        #expect(throws: RegistryError.invalidIndex(location: "test", reason: "part path 'index/../blocks/pager.json' is not a file of the registry's index/ folder")) {
            try RegistryIndex.decode(Data(outside.utf8), location: "test")
        }
        let archive = #"{"schemaVersion": 1, "blocks": [{"name": "x", "archives": {"zip": {"path": "archives/x-1.zip", "sha256": "../x", "size": 1}}}]}"#
        #expect(throws: RegistryError.self) { try RegistryIndex.decode(Data(archive.utf8), location: "test") }
        let cache = RegistryCache(root: folder)
        let named = cache.archiveFile(sha256: "../../../../home/me/app/blocks", path: "index/x.json")
        #expect(named.deletingLastPathComponent().path == folder.appendingPathComponent("archives").path, "\(named.path)")
        #expect(SHA256.isDigest(String(repeating: "a", count: 64)) && !SHA256.isDigest(String(repeating: "g", count: 64)))
    }

    @Test func rangesOverTheirTotalCapAreRefusedBeforeAnyIsRead() throws {
        defer { delete() }
        let range = #"{"first": "a", "blocks": 1, "path": "index/NN.json", "sha256": "NN", "size": 60000000}"#
        let ranges = (0..<5).map { range.replacingOccurrences(of: "NN", with: String(repeating: "\($0)", count: 64)) }.joined(separator: ", ")
        let zeros = String(repeating: "0", count: 64)
        try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
        try Data(#"{"schemaVersion": 3, "blocks": [], "epoch": 1, "snapshot": 1, "feed": {"path": "index/\#(zeros).json", "sha256": "\#(zeros)", "size": 10}, "dictionary": {"path": "index/\#(zeros).json", "sha256": "\#(zeros)", "size": 10}, "ranges": [\#(ranges)], "digestFiles": []}"#.utf8)
            .write(to: registry.appendingPathComponent("index.json"))
        let listed = project.run(["list", "--registry", registry.path])
        #expect(listed.code != 0)
        #expect(listed.errors.contains("its dictionary and ranges are 300000010 bytes in all, over the 268435456 a split index may have"), "\(listed.errors)")
    }

    /// The experimental schemaVersion 2 of the release before is refused with what to do.
    @Test func theExperimentalSchemaVersion2IsRefusedWithTheWayOut() throws {
        defer { delete() }
        try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
        try Data(#"{"schemaVersion": 2, "shards": []}"#.utf8).write(to: registry.appendingPathComponent("index.json"))
        let listed = project.run(["list", "--registry", registry.path])
        #expect(listed.code != 0 && listed.errors.contains("schemaVersion 2 was the experimental split index of an earlier blocks"), "\(listed.errors)")
    }
}
