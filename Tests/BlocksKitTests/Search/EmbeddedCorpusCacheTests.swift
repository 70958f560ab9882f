import Foundation
import Testing

@testable import BlocksKit

/// The embedded catalog's corpus kept in the cache: read back exactly as built, rebuilt
/// when the file is foreign or damaged, and not needed when the cache cannot be written.
@Suite struct EmbeddedCorpusCacheTests {
    static func built() throws -> InMemorySearchCorpus {
        InMemorySearchCorpus(blocks: try CatalogSource.embedded.searchableBlocks())
    }

    static func same(_ left: InMemorySearchCorpus, _ right: InMemorySearchCorpus) -> Bool {
        left.vocabulary == right.vocabulary && left.postingLists == right.postingLists && left.names == right.names
            && left.nameRanks == right.nameRanks && left.manifests == right.manifests
    }

    @Test func aSecondRunReadsWhatTheFirstBuilt() throws {
        let cache = try TemporaryFolder("embedded-cache")
        defer { cache.cleanUp() }
        let store = EmbeddedCorpusCache(cacheDirectory: cache.url)
        let first = try store.corpus()
        #expect(Self.same(first, try Self.built()))
        let written = try Data(contentsOf: store.file)
        let key = try #require(EmbeddedCorpusCache.key)
        #expect(written.starts(with: Data(key.utf8)))
        let manifests = try CatalogSource.embedded.manifests()
        let decoded = try #require(EmbeddedCorpusCache.decode(written, key: key, manifests: manifests))
        #expect(Self.same(decoded, first))
        let inode = SearchIndexTests.inode(store.file)
        #expect(Self.same(try store.corpus(), first))
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
        let manifests = try CatalogSource.embedded.manifests()
        var damaged: [Data] = [
            Data("blocks embedded corpus, layout 1, file-0\n".utf8) + good.dropFirst(key.utf8.count),
            good.prefix(good.count - 3),
            good + Data([0]),
            Data(),
        ]
        // A posting that names a block past the catalog.
        var wrongBlock = good
        wrongBlock.replaceSubrange((good.count - 4)..<good.count, with: PackedIntegers.encode([UInt32(manifests.count) << 3]))
        damaged.append(wrongBlock)
        for bytes in damaged {
            #expect(EmbeddedCorpusCache.decode(bytes, key: key, manifests: manifests) == nil)
            try bytes.write(to: store.file)
            #expect(Self.same(try store.corpus(), try Self.built()))
            #expect(try Data(contentsOf: store.file) == good)
        }
    }

    @Test func anUnwritableCacheStillSearches() throws {
        let folder = try TemporaryFolder("embedded-cache")
        defer { folder.cleanUp() }
        // The cache folder is a file: nothing can be written under it.
        try Data("x".utf8).write(to: folder.path("cache"))
        let corpus = try EmbeddedCorpusCache(cacheDirectory: folder.path("cache")).corpus()
        #expect(Self.same(corpus, try Self.built()))
        let index = try SearchIndex.open(for: CatalogSource.embedded, cacheDirectory: folder.path("cache"))
        #expect(try index.search("onGeometryChange").hits.count >= 3)
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
