import Dispatch

/// Problems with the on-disk search index. None of them reaches the user: a damaged
/// index is rebuilt, and an unwritable cache falls back to searching in memory.
public enum SearchIndexError: Error, Equatable, Sendable, CustomStringConvertible {
    case damaged(String)
    case database(path: String, message: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .damaged(let reason): return "the search index is damaged: \(reason)"
        case .database(let path, let message): return "cannot use the search index \(path): \(message)"
        case .unwritable(let path, let reason): return "cannot write the search index \(path): \(reason)"
        }
    }
}

/// Search over a registry through an index on disk, so that a catalog of 10,000
/// blocks is searched in milliseconds instead of reading and decoding every manifest.
///
/// The index lives in `<cache>/search/<sha256 of the location>.sqlite`. It is used
/// while the source's `searchFingerprint` is unchanged, and rebuilt (to a temporary
/// file, then renamed) when it is stale, damaged or from another version of the tool.
/// Sources without a fingerprint and caches that cannot be written are searched in
/// memory instead; so is the embedded catalog, whose corpus `EmbeddedCorpusCache` keeps.
/// Either way the ranking is `SearchRanking`, so the results are the same as
/// `SearchEngine`'s.
public final class SearchIndex {
    /// Where the corpus came from this time.
    public enum Status: Equatable, Sendable {
        /// A current index on disk was used.
        case reused
        /// The index was missing, stale or damaged, and was written anew.
        case built
        /// No index: the source has no cheap fingerprint (no reason), or the index could
        /// not be written (the reason says why).
        case inMemory(reason: String?)
    }

    /// How this search was served. A method, not a property, because asking waits for the
    /// pending freshness check and may rebuild a stale index.
    public func finalStatus() -> Status {
        _ = try? settle()
        return settledStatus
    }

    /// The index file for this source; nil when the source has no fingerprint.
    public let indexURL: URL?
    private var settledStatus: Status
    private var corpus: SearchCorpus
    private let source: RegistrySource
    /// The source's fingerprint as it is being computed on another thread, while the
    /// first query already runs on the index found on disk.
    private var pendingCheck: FingerprintCheck?
    /// Why the source could not be read when a stale index was being rebuilt; every
    /// read then throws it, as a search without an index would have.
    private var failure: Error?

    private init(source: RegistrySource, corpus: SearchCorpus, status: Status, indexURL: URL?, pendingCheck: FingerprintCheck? = nil) {
        self.source = source
        self.corpus = corpus
        self.settledStatus = status
        self.indexURL = indexURL
        self.pendingCheck = pendingCheck
    }

    /// The layout and tool version an index must have been written with to be used.
    static var format: String { "layout \(SearchIndexStore.layoutVersion), blocks \(ToolVersion.current)" }

    /// The index file of a registry location inside a cache folder.
    public static func indexURL(for location: String, cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent("search").appendingPathComponent(SHA256.hex(location) + ".sqlite")
    }

    /// Opens the index of `source`, building it first when it is missing or unusable.
    /// An index that is merely stale is found out by the first query, which then
    /// rebuilds it: the fingerprint is computed while that query runs. Throws only
    /// what reading the source itself throws.
    public static func open(for source: RegistrySource, cacheDirectory: @autoclosure () -> URL) throws -> SearchIndex {
        if let catalog = source as? CatalogSource, catalog.isEmbedded {
            let corpus = try embeddedCorpus(cacheDirectory: cacheDirectory())
            return SearchIndex(source: source, corpus: corpus, status: .inMemory(reason: nil), indexURL: nil)
        }
        guard source.searchFingerprinting?.isIndexable == true else { return try inMemory(source, reason: nil) }
        guard SQLiteDatabase.isLibraryAvailable else { return try inMemory(source, reason: "libsqlite3 is not installed") }
        let url = indexURL(for: source.location, cacheDirectory: cacheDirectory())
        let store = (try? SearchIndexStore(path: url.path, manifestSource: sliceSource(of: source))).flatMap { $0.format == format ? $0 : nil }
        // The code files the index was built from are stamped along with the source.
        let check = FingerprintCheck(source, codeFiles: store?.codeFiles ?? PackedStrings())
        if let store {
            return SearchIndex(source: source, corpus: store, status: .reused, indexURL: url, pendingCheck: check)
        }
        guard let fingerprint = check.wait() else { return try inMemory(source, reason: nil) }
        let index = SearchIndex(source: source, corpus: InMemorySearchCorpus(manifests: []), status: .built, indexURL: url)
        try index.rebuild(fingerprint: fingerprint)
        return index
    }

    /// The source that gives an index its blocks as slices, and their manifests, if it can.
    private static func sliceSource(of source: RegistrySource) -> SearchIndexSliceSource? {
        source.readingSource as? SearchIndexSliceSource
    }

    private static func inMemory(_ source: RegistrySource, reason: String?) throws -> SearchIndex {
        let corpus = InMemorySearchCorpus(blocks: try source.searchableBlocks())
        return SearchIndex(source: source, corpus: corpus, status: .inMemory(reason: reason), indexURL: nil)
    }

    /// The embedded catalog's corpus, read once a process per cache folder (from
    /// `EmbeddedCorpusCache`): that catalog cannot change while the binary runs, and a
    /// long-lived process (`blocks mcp`) searches it again and again. Keyed by the folder
    /// so that a process using a second cache still reads (and writes) that cache.
    private static func embeddedCorpus(cacheDirectory: URL) throws -> SearchCorpus & Sendable {
        try embeddedCorpusLock.withLock {
            if let corpus = embeddedCorpusMemo[cacheDirectory.path] { return corpus }
            let corpus = try EmbeddedCorpusCache(cacheDirectory: cacheDirectory).corpus()
            embeddedCorpusMemo[cacheDirectory.path] = corpus
            return corpus
        }
    }
    nonisolated(unsafe) private static var embeddedCorpusMemo: [String: SearchCorpus & Sendable] = [:]
    private static let embeddedCorpusLock = Lock()

    /// Reads every manifest and writes a fresh index, or keeps the corpus in memory when
    /// the cache cannot be written. The fingerprint was taken before the manifests were
    /// read, so a change made meanwhile is caught by the next run.
    /// The blocks come a slice at a time and each slice's rows are written before the
    /// next is read: a split registry of 100,000 blocks is indexed holding a range or two.
    /// A split registry hands over its ranges as rows and postings, without a manifest
    /// per block (`SearchIndexSliceSource`); other sources give manifests
    /// (`searchableBlocks(inSlices:)`).
    /// The code files (`CatalogSource.codeFiles`) are stamped after they are read:
    /// one edited in the few milliseconds between is seen by the run after its next edit.
    private func rebuild(fingerprint: String) throws {
        guard let indexURL else { return }
        let catalog = source.readingSource as? CatalogSource
        var builder = SearchCorpusBuilder()
        var codeFiles: [String] = []
        var writer: IndexFile?
        do {
            writer = try IndexFile(url: indexURL)
        } catch {
            return try keepInMemory(reason: error)
        }
        var writeFailure: Error?
        func write(_ append: (SearchIndexStore.Writer) throws -> Void) {
            do {
                try writer.map { try append($0.writer) }
            } catch {
                (writer, writeFailure) = (nil, error)
            }
        }
        let sliced = try Self.sliceSource(of: source)?.searchIndexSlices { slice in
            builder.add(slice)
            write { try $0.append(groups: slice.rowGroups, rows: slice.rows.count) }
        }
        if sliced != true {
            try source.searchableBlocks(inSlices: { slice in
                builder.add(slice)
                if let catalog { codeFiles += catalog.codeFiles(of: slice, limit: .max).strings }
                write { try $0.append(slice.map(\.manifest)) }
            })
        }
        // Too many code files to stamp: the index is stamped by its source alone.
        let stampedFiles = codeFiles.count <= CatalogSource.codeStampLimit ? PackedStrings(codeFiles) : PackedStrings()
        let stamp = catalog?.codeStamp(of: stampedFiles) ?? ""
        do {
            guard let writer else { throw writeFailure ?? SearchIndexError.unwritable(path: indexURL.path, reason: "not written") }
            let finished = builder.finished()
            try writer.finish(finished, fingerprint: Self.fingerprint(fingerprint, codeStamp: stamp), codeFiles: stampedFiles)
            corpus = try SearchIndexStore(path: indexURL.path, manifestSource: Self.sliceSource(of: source))
            settledStatus = .built
            // 210,000 lists and words of 100,000 blocks took 50 ms to free; the search need not wait.
            let leftovers = (builder, finished)
            builder = SearchCorpusBuilder()
            DispatchQueue.global(qos: .utility).async { withExtendedLifetime(leftovers) {} }
        } catch {
            try keepInMemory(reason: error)
        }
    }

    /// The corpus read again into memory, for a cache that cannot hold the index.
    private func keepInMemory(reason: Error) throws {
        corpus = InMemorySearchCorpus(blocks: try source.searchableBlocks())
        settledStatus = .inMemory(reason: String(describing: reason))
    }

    /// Waits for the freshness check, if one is pending, and rebuilds a stale index.
    /// Returns true when the corpus changed.
    private func settle() throws -> Bool {
        if let failure { throw failure }
        guard let check = pendingCheck else { return false }
        pendingCheck = nil
        let fingerprint = check.wait()
        if let store = corpus as? SearchIndexStore, let whole = check.withCodeStamp(), store.fingerprint == whole { return false }
        // Stale, or the source can no longer be fingerprinted: read it afresh.
        do {
            if let fingerprint {
                try rebuild(fingerprint: fingerprint)
            } else {
                corpus = InMemorySearchCorpus(blocks: try source.searchableBlocks())
                settledStatus = .inMemory(reason: nil)
            }
        } catch {
            failure = error
            throw error
        }
        return true
    }

    /// What an index stores as its fingerprint: the source's, and the stamp of the code
    /// files it was built from when there are any.
    static func fingerprint(_ source: String, codeStamp: String) -> String {
        codeStamp.isEmpty ? source : source + " " + codeStamp
    }

    /// The index written to a temporary file beside its final name, then renamed, so a
    /// reader sees the old index or the new one and never half of one. A write that does
    /// not finish leaves no file behind.
    private final class IndexFile {
        let writer: SearchIndexStore.Writer
        private let url: URL
        private let temporary: URL

        init(url: URL) throws {
            let folder = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw SearchIndexError.unwritable(path: folder.path, reason: "the folder cannot be created")
            }
            self.url = url
            temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
            do {
                writer = try SearchIndexStore.Writer(path: temporary.path)
            } catch {
                unlink(temporary.path)
                throw error
            }
        }

        deinit { unlink(temporary.path) }

        func finish(_ corpus: SearchCorpusBuilder.Finished, fingerprint: String, codeFiles: PackedStrings) throws {
            try writer.finish(corpus, fingerprint: fingerprint, codeFiles: codeFiles, format: SearchIndex.format)
            guard rename(temporary.path, url.path) == 0 else {
                throw SearchIndexError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Runs a read of the corpus. A first read overlaps the freshness check and runs
    /// again if the index was stale; an index found damaged part-way is rebuilt once.
    private func reading<Result>(_ body: (SearchCorpus) throws -> Result) throws -> Result {
        let early = Swift.Result { try body(corpus) }
        if try settle() { return try body(corpus) }
        do {
            return try early.get()
        } catch is SearchIndexError where corpus is SearchIndexStore {
            guard let indexURL else { throw SearchIndexError.damaged("no index file") }
            unlink(indexURL.path)
            pendingCheck = FingerprintCheck(source)
            corpus = InMemorySearchCorpus(manifests: [])
            _ = try settle()
            return try body(corpus)
        }
    }

    /// Ranked hits with their full manifests, as `SearchEngine.search` returns them.
    public func search(_ query: String, filters: SearchEngine.Filters = .init(), limit: Int? = nil) throws -> SearchEngine.Outcome {
        var hits: [SearchEngine.Hit?] = []
        let ranking = try search(query, filters: filters, limit: limit) { place, hit in
            if place >= hits.count { hits += Array(repeating: nil, count: place + 1 - hits.count) }
            hits[place] = hit
        }
        return SearchEngine.Outcome(hits: hits.prefix(ranking.count).compactMap { $0 }, isPartial: ranking.isPartial, total: ranking.total)
    }

    /// What a search found besides its hits: how many it hands, whether they match only
    /// some of the query's words, and how many blocks match in all.
    public struct Ranking: Equatable, Sendable {
        public var count: Int
        public var isPartial: Bool
        public var total: Int
    }

    /// Ranked hits handed to `eachHit` with their place in the ranking (0 first), in the
    /// order their manifests are cheapest to read (`SearchCorpus.forEachManifest`), so
    /// that every match of 100,000 blocks is never held as manifests at once. When the
    /// index turns out stale or damaged part-way, the hits of the index read afresh are
    /// handed again: `eachHit` keeps hits by place, and only the places below the
    /// returned `count`.
    public func search(
        _ query: String, filters: SearchEngine.Filters = .init(), limit: Int? = nil,
        eachHit: (_ place: Int, SearchEngine.Hit) throws -> Void
    ) throws -> Ranking {
        try reading { corpus in
            let ranked = try SearchRanking.rank(query, filters: filters, limit: limit, in: corpus)
            try corpus.forEachManifest(of: ranked.blocks.map(\.block)) { place, manifest in
                let block = ranked.blocks[place]
                try eachHit(place, SearchEngine.Hit(manifest: manifest, score: block.score, matchedWords: block.matchedWords))
            }
            return Ranking(count: ranked.blocks.count, isPartial: ranked.isPartial, total: ranked.total)
        }
    }

    /// Ranked rows for the result table, decoding no manifest, handed to `present`
    /// together with whether they are partial matches. `present` (laying out the table,
    /// say) runs while the index's freshness is still being checked, and runs again if
    /// the index turns out stale, so it must have no side effects.
    func listings<Presented>(
        _ query: String, filters: SearchEngine.Filters = .init(), limit: Int? = nil,
        present: (_ listings: [SearchListing], _ isPartial: Bool, _ total: Int) throws -> Presented
    ) throws -> Presented {
        try reading { corpus in
            let ranked = try SearchRanking.rank(query, filters: filters, limit: limit, in: corpus)
            return try present(try corpus.listings(of: ranked.blocks.map(\.block)), ranked.isPartial, ranked.total)
        }
    }

    /// Names and words near a query that found nothing, for "did you mean".
    public func suggestions(for query: String) -> [String] {
        _ = try? settle()
        return SearchRanking.suggestions(for: query, in: corpus)
    }
}

/// A source's fingerprint, computed on another thread, with the stamp of the code files
/// its index was built from.
final class FingerprintCheck: Sendable {
    private struct Stamps: Sendable {
        let fingerprint: String?
        let codeStamp: String
    }

    private let stamps: InFlight<Stamps>

    init(_ source: RegistrySource, codeFiles: PackedStrings = PackedStrings()) {
        stamps = InFlight {
            Stamps(
                fingerprint: source.searchFingerprinting?.searchFingerprint,
                codeStamp: (source.readingSource as? CatalogSource)?.codeStamp(of: codeFiles) ?? "")
        }
    }

    /// The source's own fingerprint.
    func wait() -> String? { stamps.value.fingerprint }

    /// What the index stores when it is current (`SearchIndex.fingerprint`).
    func withCodeStamp() -> String? {
        let stamps = stamps.value
        return stamps.fingerprint.map { SearchIndex.fingerprint($0, codeStamp: stamps.codeStamp) }
    }
}
