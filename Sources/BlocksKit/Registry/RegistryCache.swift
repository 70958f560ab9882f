import Dispatch

/// The download cache under `$XDG_CACHE_HOME/blocks`: indexes with their ETags, keyed by
/// URL, and archives keyed by SHA-256, so a verified archive is never fetched twice.
public struct RegistryCache: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    func indexFile(for url: String) -> URL {
        root.appendingPathComponent("index").appendingPathComponent(SHA256.hex(url) + ".json")
    }

    /// The copy of the index at `url` that the current one replaced: a split index's
    /// client derives new ranges from its parts and the change feed (`SplitIndexFeed`).
    func previousIndexFile(for url: String) -> URL {
        indexFile(for: url).appendingPathExtension("previous")
    }

    /// A file fetched by its SHA-256: an archive, or a part of a split index (`.json`).
    func archiveFile(sha256: String, path: String) -> URL {
        let suffix = ArchiveFormat.forFile(path)?.fileExtension ?? (path.hasSuffix(".json") ? "json" : ArchiveFormat.tarGzip.fileExtension)
        // Readers refuse any other spelling; the name is never built from one regardless.
        let name = SHA256.isDigest(sha256) ? sha256 : SHA256.hex(sha256)
        return root.joining("archives/\(name).\(suffix)")
    }

    /// The index at `url`: a conditional GET when a cached copy has an ETag, the cached
    /// copy on 304 or with `--offline`.
    public func fetchIndex(
        url: String, transport: HTTPTransport, offline: Bool, unconditional: Bool = false, verify: ((Data) throws -> Void)? = nil
    ) throws -> Data {
        let refreshed = try refreshIndex(url: url, transport: transport, offline: offline, unconditional: unconditional, verify: verify)
        if let body = refreshed.body { return body }
        guard let cached = FileManager.default.contents(atPath: refreshed.file.path) else { throw HTTPError.offline(url: url) }
        return cached
    }

    /// Brings the cached copy of the index at `url` up to date, without reading it when
    /// it is current: its file, and the body when a new one came. The file is replaced
    /// exactly when the index changes, so its `stat` tells a search index whether it is
    /// stale. With `--offline`, the cached copy as it is. A new body is passed to `verify`
    /// (a pinned registry's signature check) before it replaces the cached copy.
    func refreshIndex(
        url: String, transport: HTTPTransport, offline: Bool, unconditional: Bool = false, verify: ((Data) throws -> Void)? = nil
    ) throws -> (file: URL, body: Data?) {
        let file = indexFile(for: url)
        let etagFile = file.appendingPathExtension("etag")
        let isCached = access(file.path, R_OK) == 0
        if offline {
            guard isCached else { throw HTTPError.offline(url: url) }
            return (file, nil)
        }
        let etag = isCached && !unconditional ? (try? String(contentsOf: etagFile, encoding: .utf8)) : nil
        let response = try transport.get(HTTPRequest(url: url, ifNoneMatch: etag, maxBodyBytes: RegistryIndex.maximumBytes))
        if response.isNotModified, isCached { return (file, nil) }
        guard response.status == 200 else { throw HTTPError.status(url: url, code: response.status) }
        try verify?(response.body)
        // The cache is a convenience: failing to write it must not fail the command.
        if isCached { rename(file.path, previousIndexFile(for: url).path) }
        try? AtomicFile.write(response.body, to: file)
        if let newTag = response.etag {
            try? AtomicFile.write(Data(newTag.utf8), to: etagFile)
        } else {
            try? FileManager.default.removeItem(at: etagFile)
        }
        return (file, response.body)
    }

    /// A signed index's `index.json.minisig`, nil when the registry has none. Always
    /// fetched whole, never conditionally: it is a few hundred bytes of fixed size, so a
    /// re-signed file within the same second has the same ETag on nginx, and a stale one
    /// would make a genuine index look forged. The copy kept (`keepSignature`, once it
    /// verified) serves `--offline`, and tells whether the signature is new: then the
    /// index is fetched whole too, as its ETag may not have changed either.
    func fetchSignature(url: String, transport: HTTPTransport, offline: Bool) throws -> (data: Data?, isNew: Bool) {
        let file = indexFile(for: url)
        if offline {
            guard let cached = FileManager.default.contents(atPath: file.path) else { throw HTTPError.offline(url: url) }
            return (cached, false)
        }
        let response: HTTPResponse
        do {
            response = try transport.get(HTTPRequest(url: url, maxBodyBytes: Int64(MinisignSignature.maximumBytes)))
        } catch HTTPError.status(_, let code) where code == 404 || code == 410 {
            return (nil, false)
        }
        if response.status == 404 || response.status == 410 { return (nil, false) }
        guard response.status == 200 else { throw HTTPError.status(url: url, code: response.status) }
        return (response.body, FileManager.default.contents(atPath: file.path) != response.body)
    }

    /// Keeps a signature that verified, with the stamp of the index file it verified
    /// (`SignedIndexCheck.fileStamp`), so an unchanged pair is not hashed again.
    func keepSignature(_ data: Data, url: String, indexStamp: String?) {
        let file = indexFile(for: url)
        if FileManager.default.contents(atPath: file.path) != data { try? AtomicFile.write(data, to: file) }
        let stampFile = file.appendingPathExtension("verified")
        let stamp = Data((indexStamp ?? "").utf8)
        if FileManager.default.contents(atPath: stampFile.path) != stamp { try? AtomicFile.write(stamp, to: stampFile) }
    }

    /// The stamp `keepSignature` kept for the signature at `url`.
    func verifiedStamp(url: String) -> String? {
        FileManager.default.contents(atPath: indexFile(for: url).appendingPathExtension("verified").path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The metadata cache of one registry: one file for all its blocks, mapping each
    /// metadata URL to its text. It sits in the cache's root, not in a folder of its own:
    /// a fresh `add` would create that folder, and a `mkdir` costs up to 0.3 ms here.
    func metadataFile(registry: String) -> URL {
        URL(fileURLWithPath: root.path + "/metadata-" + SHA256.hex(registry) + ".json", isDirectory: false)
    }

    /// Small metadata files, fetched in parallel into memory; nil for a URL that is nil or
    /// answers 404 or 410. They change when a block is published, so they are always
    /// fetched when online and read from the cache only with `--offline`.
    ///
    /// What came back is merged into one cache file per registry, so adding fifty blocks
    /// creates one file, not fifty (creating files is most of a fresh add's cost). Two
    /// runs writing at once may drop each other's entries; the cache only serves
    /// `--offline`, which then names what it lacks.
    ///
    /// With `writes`, the cache file is written on another thread while the caller goes on
    /// to fetch the archives; the caller waits for `writes` before it ends. With
    /// `deferringWrite`, it is not written yet: rounds of metadata merge in memory, and
    /// `saveMetadata` writes them once.
    /// `verify` sees each fetched file before it is cached (a signed index's hash check).
    func fetchMetadata(
        _ urls: [String?], registry: String, transport: HTTPTransport, offline: Bool, writes: BackgroundWrites? = nil,
        deferringWrite: Bool = false, verify: ((String, Data) throws -> Void)? = nil
    ) throws -> [Data?] {
        let file = metadataFile(registry: registry)
        let cached = Self.metadataMemo.texts(at: file.path) ?? FileManager.default.contents(atPath: file.path).flatMap(Self.metadataTexts) ?? [:]
        if offline {
            return try urls.map { url in
                guard let url else { return nil }
                guard let text = cached[url] else { throw HTTPError.offline(url: url) }
                return Data(text.utf8)
            }
        }
        let wanted = Array(Set(urls.compactMap { $0 })).sorted()
        let results = transport.fetch(wanted.map { HTTPRequest(url: $0, maxBodyBytes: BlockMetadata.maximumBytes) }, maxParallel: 8)
        var found: [String: Data] = [:]
        var merged = cached
        for (url, result) in zip(wanted, results) {
            switch result {
            case .success(let response):
                try verify?(url, response.body)
                found[url] = response.body
                merged[url] = String(decoding: response.body, as: UTF8.self)
            case .failure(.status(_, 404)), .failure(.status(_, 410)):
                merged[url] = nil
            case .failure(let error):
                throw error
            }
        }
        Self.metadataMemo.keep(merged, at: file.path, changed: merged != cached)
        if !deferringWrite { saveMetadata(registry: registry, writes: writes) }
        return urls.map { $0.flatMap { found[$0] } }
    }

    /// Writes the registry's metadata cache file if this process changed it since it was
    /// last written (on another thread with `writes`).
    func saveMetadata(registry: String, writes: BackgroundWrites? = nil) {
        let file = metadataFile(registry: registry)
        guard let snapshot = Self.metadataMemo.takeUnsaved(at: file.path) else { return }
        // The cache is a convenience: failing to write it must not fail the command.
        let write: @Sendable () -> Void = { try? AtomicFile.write(StableJSON.data(.object(snapshot.mapValues { .string($0) })), to: file) }
        if let writes { writes.start(inline: snapshot.count <= BackgroundWrites.smallBatch, write) } else { write() }
    }

    /// The metadata cache files this process has read or written, by path: resolving
    /// dependencies fetches one round of metadata per depth level, and each round merges
    /// into what the last one left rather than reading and parsing the file again.
    static let metadataMemo = MetadataMemo()

    final class MetadataMemo: @unchecked Sendable {
        private let lock = Lock()
        private var texts: [String: [String: String]] = [:]
        /// Paths whose map changed since it was last written.
        private var unsaved: Set<String> = []

        func texts(at path: String) -> [String: String]? { lock.withLock { texts[path] } }

        func keep(_ map: [String: String], at path: String, changed: Bool) {
            lock.withLock {
                texts[path] = map
                if changed { unsaved.insert(path) }
            }
        }

        /// The map at `path` if it changed since it was last taken; it then counts as saved.
        func takeUnsaved(at path: String) -> [String: String]? {
            lock.withLock { unsaved.remove(path) == nil ? nil : texts[path] }
        }
    }

    /// The metadata cache file's map from URL to text; nil when it is not such a map.
    static func metadataTexts(_ data: Data) -> [String: String]? {
        guard case .object(let members)? = try? JSONReader.parse(data) else { return nil }
        var texts: [String: String] = [:]
        for (url, value) in members {
            guard case .string(let text) = value else { return nil }
            texts[url] = text
        }
        return texts
    }

    /// Each archive's file in the cache, downloading the missing ones in parallel. A
    /// cached file is re-hashed before use; one that does not match is dropped.
    public func fetchArchives(_ wanted: [(url: String, archive: RegistryArchive)], transport: HTTPTransport, offline: Bool) throws -> [URL] {
        try fetchArchives(wanted, transport: transport, offline: offline, keepingBytes: false).map(\.file)
    }

    /// An archive in the cache, with its bytes when they were just downloaded and small.
    struct CachedArchive {
        var file: URL
        var bytes: Data?
    }

    /// Archives up to this size come back in memory too when just downloaded, so reading
    /// them does not open the file again.
    static let keptInMemoryUpTo: Int64 = 4 * 1024 * 1024

    func fetchArchives(
        _ wanted: [(url: String, archive: RegistryArchive)], transport: HTTPTransport, offline: Bool, keepingBytes: Bool
    ) throws -> [CachedArchive] {
        var downloads: [HTTPDownload] = []
        var downloadedAt: [Int] = []
        var archives = wanted.map { CachedArchive(file: archiveFile(sha256: $0.archive.sha256, path: $0.archive.path)) }
        for (position, item) in wanted.enumerated() {
            let file = archives[position].file
            if access(file.path, F_OK) == 0 {
                if (try? SHA256.hex(fileAt: file)) == item.archive.sha256 { continue }
                unlink(file.path)
            }
            if offline { throw HTTPError.offline(url: item.url) }
            // The index's size only lowers the absolute cap: a hostile index may declare any.
            let limit = min(max(item.archive.size, 0) + 1024, TransferLimits.maximumArchiveBytes)
            downloads.append(
                HTTPDownload(
                    request: HTTPRequest(url: item.url, maxBodyBytes: limit), destination: file, expectedSHA256: item.archive.sha256,
                    keepsBody: keepingBytes && item.archive.size <= Self.keptInMemoryUpTo))
            downloadedAt.append(position)
        }
        if !downloads.isEmpty {
            let results = transport.download(downloads, maxParallel: 8, progress: nil)
            for (position, result) in zip(downloadedAt, results) {
                let response = try result.get()
                if !response.body.isEmpty { archives[position].bytes = response.body }
            }
        }
        return archives
    }
}
