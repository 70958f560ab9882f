import Foundation
import Testing

@testable import BlocksKit

/// The embedded catalog's corpus kept in the cache: read back exactly as built, rebuilt
/// when the file is foreign or damaged, and not needed when the cache cannot be written.
@Suite struct EmbeddedCorpusCacheTests {
    static func built() throws -> InMemorySearchCorpus {
        InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks())
    }

    /// The same corpus as the ranking and the commands see it: words, postings, names,
    /// ranks, result rows, filter data and manifests.
    static func same(_ left: SearchCorpus, _ right: SearchCorpus) throws -> Bool {
        let blocks = Array(0..<left.blockCount)
        let words = Array(0..<left.vocabulary.count)
        guard left.blockCount == right.blockCount, left.vocabulary == right.vocabulary, left.names == right.names,
            left.nameRanks == right.nameRanks
        else { return false }
        let postings = (try left.postings(ofWords: words), try right.postings(ofWords: words))
        let listings = (try left.listings(of: blocks), try right.listings(of: blocks))
        let records = (try left.filterRecords(), try right.filterRecords())
        let manifests = (try left.manifests(of: blocks), try right.manifests(of: blocks))
        return postings.0 == postings.1 && listings.0 == listings.1 && records.0 == records.1 && manifests.0 == manifests.1
    }

    @Test func aSecondRunReadsWhatTheFirstBuilt() throws {
        let cache = try TemporaryFolder("embedded-cache")
        defer { cache.cleanUp() }
        let store = EmbeddedCorpusCache(cacheDirectory: cache.url)
        let first = try store.corpus()
        #expect(try Self.same(first, try Self.built()))
        let written = try Data(contentsOf: store.file)
        let key = try #require(EmbeddedCorpusCache.key)
        #expect(written.starts(with: Data(key.utf8)))
        let count = try CatalogSource.embedded.blockNames().count
        let decoded = try #require(EmbeddedCorpusCache.decode(written, key: key, blockCount: count))
        #expect(try Self.same(decoded, first))
        // The file is for this catalog's block count only.
        #expect(EmbeddedCorpusCache.decode(written, key: key, blockCount: count + 1) == nil)
        let inode = SearchIndexTests.inode(store.file)
        #expect(try Self.same(try store.corpus(), first))
        // Read, not rewritten.
        #expect(SearchIndexTests.inode(store.file) == inode)
    }

    @Test func aForeignOrDamagedFileIsRebuilt() throws {
        let cache = try TemporaryFolder("embedded-cache")
        defer { cache.cleanUp() }
        let store = EmbeddedCorpusCache(cacheDirectory: cache.url)
        _ = try store.corpus()
        let good = try Data(contentsOf: store.file)
        let key = try #require(EmbeddedCorpusCache.key)
        let count = try CatalogSource.embedded.blockNames().count
        var damaged: [Data] = [
            Data("blocks embedded corpus 1, layout 1, file-0\n".utf8) + good.dropFirst(key.utf8.count),
            good.prefix(good.count - 3),
            good + Data([0]),
            Data(),
        ]
        // A posting that names a block past the catalog.
        let built = try Self.built()
        var lists = built.postingLists
        lists[0].append(SearchPosting(rawValue: UInt32(count) << 3))
        damaged.append(
            EmbeddedCorpusCache.encode(
                InMemorySearchCorpus(manifests: built.manifests, vocabulary: built.vocabulary, postingLists: lists), key: key))
        for bytes in damaged {
            #expect(EmbeddedCorpusCache.decode(bytes, key: key, blockCount: count) == nil)
            try bytes.write(to: store.file)
            #expect(try Self.same(try store.corpus(), built))
            #expect(try Data(contentsOf: store.file) == good)
        }
    }

    @Test func anUnwritableCacheStillSearches() throws {
        let folder = try TemporaryFolder("embedded-cache")
        defer { folder.cleanUp() }
        // The cache folder is a file: nothing can be written under it.
        try Data("x".utf8).write(to: folder.path("cache"))
        let corpus = try EmbeddedCorpusCache(cacheDirectory: folder.path("cache")).corpus()
        #expect(try Self.same(corpus, try Self.built()))
        let index = try SearchIndex.open(for: CatalogSource.embedded, cacheDirectory: folder.path("cache"))
        #expect(try index.search("onGeometryChange").hits.count >= 3)
    }

    /// The result table comes from the file's rows, not from the manifests: a title
    /// changed in the file is what `listings` shows, while the full manifests stay the
    /// catalog's. (So `blocks search` decodes no `block.json`.)
    @Test func theTableIsReadFromTheFileRows() throws {
        let cache = try TemporaryFolder("embedded-cache")
        defer { cache.cleanUp() }
        let store = EmbeddedCorpusCache(cacheDirectory: cache.url)
        let built = try Self.built()
        let key = try #require(EmbeddedCorpusCache.key)
        var manifests = built.manifests
        manifests[0].title["en"] = "Marked in the cache"
        let marked = InMemorySearchCorpus(manifests: manifests, vocabulary: built.vocabulary, postingLists: built.postingLists)
        try FileManager.default.createDirectory(at: store.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try EmbeddedCorpusCache.encode(marked, key: key).write(to: store.file)
        let read = try store.corpus()
        #expect(try read.listings(of: [0]).first?.title == "Marked in the cache")
        #expect(try read.manifests(of: [0]) == [built.manifests[0]])
    }

    /// The command line reads the file it wrote: `blocks search` twice in one cache.
    @Test func theCommandUsesTheCache() throws {
        let folder = try TemporaryFolder("embedded-cache")
        defer { folder.cleanUp() }
        let environment = ["XDG_CACHE_HOME": folder.path("cache").path, "BLOCKS_REGISTRY": ""]
        let first = runBlocks(["search", "onGeometryChange"], in: folder.url, environment: environment)
        let file = folder.path("cache").appendingPathComponent("blocks/search/embedded.corpus")
        #expect(first.code == 0 && first.out.contains("pager"))
        let inode = try #require(SearchIndexTests.inode(file))
        let second = runBlocks(["search", "onGeometryChange"], in: folder.url, environment: environment)
        #expect(second.out == first.out)
        #expect(SearchIndexTests.inode(file) == inode)
    }
}
