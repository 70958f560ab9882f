/// A registry made by `blocks build` (or a mirror of one), read from a folder or over
/// HTTP(S). Both read `index.json` first; blocks come from the per-block archives, which
/// are checked against the index's SHA-256 before anything is extracted.
public struct BuiltRegistrySource: RegistrySource {
    /// See `RegistrySource.searchFingerprinting`: fingerprinted by what it is read from.
    public var searchFingerprinting: SearchFingerprinting? { self }

    /// Where the registry's files are.
    public enum Root: Sendable {
        case folder(URL)
        case remote(String)
    }

    public let root: Root
    let access: RegistryAccess
    /// For a folder a source plugin fills one file at a time: asked for each file before it
    /// is read (`RegistryFileSupplier`). Nil for every other registry.
    let supplier: (any RegistryFileSupplier)?
    /// The index, read once per command.
    private let indexCache = IndexMemo()
    /// Metadata files already read by this source: resolving dependencies reads them
    /// first, and `contents(of:)` then asks only for the archives.
    private let metadataMemo = MetadataMemo()

    public init(root: Root, access: RegistryAccess, supplier: (any RegistryFileSupplier)? = nil) {
        self.root = root
        self.access = access
        self.supplier = supplier
    }

    public var location: String {
        switch root {
        case .folder(let url): return url.path
        case .remote(let base): return base
        }
    }

    var cache: RegistryCache { RegistryCache(root: access.cacheDirectory) }

    /// The index, from disk, or over HTTP with a conditional GET and the cache behind it.
    public func index() throws -> RegistryIndex {
        if let index = indexCache.value { return index }
        var index = try header()
        if let split = index.split {
            index.blocks = try readRanges(split)
        }
        indexCache.value = index
        return index
    }

    /// Warns of an entry skipped for its unsafe name, where an index or a range drops one.
    private func warnDropped(_ name: String) {
        access.warn(RegistryEntry.unsafeNameWarning(name, location: location))
    }

    /// `index.json` alone, checked against its signature: for a split index, the list of
    /// its files, which `add` and `info` need without the ranges search reads.
    func header() throws -> RegistryIndex {
        if let header = indexCache.header { return header }
        var index: RegistryIndex
        let check = signedCheck
        var claims: SignedIndexClaims?
        switch root {
        case .folder(let url):
            let file = url.appendingPathComponent("index.json")
            _ = try supplier?.supply(.index, maximumBytes: RegistryIndex.maximumBytes)
            let data = try Self.readIndexFile(file, location: location)
            if let check { claims = try verified(data, check: check, signature: signatureData()) }
            index = try RegistryIndex.decode(data, location: file.path, dropped: warnDropped)
        case .remote(let base):
            let url = Self.join(base, "index.json")
            // A search's freshness check may have brought the cached copy up to date
            // already, or found the registry unreachable: neither is asked twice.
            if let failure = indexCache.refreshFailure { throw failure }
            let data: Data
            let signature: (data: Data?, isNew: Bool)?
            do {
                let current = indexCache.currentFile.flatMap { FileManager.default.contents(atPath: $0.path) }
                // The freshness check verified that copy's signature already: not fetched twice.
                signature = current != nil && (check == nil || indexCache.claims != nil) ? nil : try check.map { _ in try remoteSignature() }
                data =
                    try current
                    ?? cache.fetchIndex(
                        url: url, transport: access.transport, offline: access.offline, unconditional: signature?.isNew ?? false,
                        verify: check.map { check in
                            { _ = try check.verify(index: $0, signature: signature?.data) }
                        })
            } catch {
                throw Self.withOfflineHint(error, indexFile: cache.indexFile(for: url), offline: access.offline)
            }
            if let check { claims = try indexCache.claims ?? verified(data, check: check, signature: signature?.data) }
            if let kept = signature?.data {
                cache.keepSignature(kept, url: Self.join(base, RegistrySignature.signatureFile), indexStamp: SignedIndexCheck.fileStamp(cache.indexFile(for: url)))
            }
            index = try RegistryIndex.decode(data, location: url, dropped: warnDropped)
        }
        if let check, let claims { try check.confirm(index, claims: claims) }
        indexCache.header = index
        return index
    }

    /// A split index's entries: its dictionary and every range, each checked against the
    /// SHA-256 index.json gives it. Over HTTP they are cached by hash, so only a part whose
    /// hash changed is fetched again.
    private func readRanges(_ split: SplitIndex.Layout) throws -> [RegistryEntry] {
        var blocks: [RegistryEntry] = []
        try forEachRange(split) { blocks += $0 }
        return blocks
    }

    /// Each range's entries in name order, a range after another (`forEachRange(columns:)`).
    private func forEachRange(_ split: SplitIndex.Layout, _ body: ([RegistryEntry]) throws -> Void) throws {
        try forEachRange(split, ahead: ConcurrentMap.cores, columns: { columns, order in order.map(columns.entry) }, body)
    }

    /// A split index's ranges as checked columns (`RangeColumns`), each made into `Value` by
    /// `transform` on a core of its own, given the rows to keep in name order
    /// (`RangeColumns.nameOrder`); false, having read nothing, for a whole index or one
    /// read whole already. Up to `ahead` ranges are made beyond the one `body` has.
    func forEachRange<Value: Sendable>(
        ahead: Int, columns transform: @escaping @Sendable (RangeColumns, _ order: [Int]) -> Value, _ body: (Value) throws -> Void
    ) throws -> Bool {
        guard indexCache.value == nil, let split = try header().split else { return false }
        try forEachRange(split, ahead: ahead, columns: transform, body)
        return true
    }

    /// One range as `transform` made it, with its first and last names and the unsafe ones
    /// it left out.
    private struct DecodedRange<Value: Sendable>: Sendable {
        let value: Value
        let names: (first: String?, last: String?)
        let dropped: [String]
    }

    /// Each range read into columns and made into `Value`, a range after another, up to
    /// `ahead` beyond the one `body` has: a caller that keeps only what it needs holds a
    /// few ranges, not all of them. Unsafe names are left out (and warned of) and each
    /// range's rows are taken in name order; the ranges must follow each other in name
    /// order, so the blocks together are sorted by name.
    private func forEachRange<Value: Sendable>(
        _ split: SplitIndex.Layout, ahead: Int, columns transform: @escaping @Sendable (RangeColumns, _ order: [Int]) -> Value,
        _ body: (Value) throws -> Void
    ) throws {
        if case .remote(let base) = root { deriveRangesFromFeed(split, base: base) }
        let ranges = split.ranges.sorted { $0.first < $1.first }
        // The dictionary and a range for each core come first; the other ranges are fetched
        // on another thread while those are read, so the cores do not wait for every range's
        // last byte (a first search of 100,000 blocks left one idle for 50 ms).
        let early = min(ranges.count, ConcurrentMap.cores)
        let first = try parts([split.dictionary] + ranges.prefix(early).map(\.file))
        let later = ranges.count > early ? InFlight { [self] in Result { try parts(ranges.dropFirst(early).map(\.file)) } } : nil
        // The fetch never outlives the read, whichever way the read ends.
        defer { _ = later?.value }
        let dictionary = try decodedDictionary(first[0], split: split)
        let location = self.location
        var lastName: String?
        // Each range is read, stripped of unsafe names and put in name order on a core of
        // its own, while this thread hands the ranges before it to `body`.
        try ConcurrentMap.forEachInOrder(Array(ranges.enumerated()), ahead: ahead) { index, range in
            Result { () throws -> (path: String, decoded: DecodedRange<Value>) in
                let data = index < early ? first[1 + index] : try later!.value.get()[index - early]
                do throws(RegistryEntryProblem) {
                    let columns = try RangeColumns(data, path: range.file.path, dictionary: dictionary)
                    let (order, dropped) = columns.nameOrder()
                    let names = (first: order.first.map { columns.names[$0] }, last: order.last.map { columns.names[$0] })
                    return (range.file.path, DecodedRange(value: transform(columns, order), names: names, dropped: dropped))
                } catch {
                    throw RegistryError.invalidIndex(location: location, reason: error.reason)
                }
            }
        } _: { result in
            let range = try result.get()
            range.decoded.dropped.forEach(warnDropped)
            if let first = range.decoded.names.first, let lastName, first < lastName {
                throw RegistryError.invalidIndex(location: location, reason: "\(range.path) holds '\(first)', which comes before the range listed ahead of it")
            }
            lastName = range.decoded.names.last ?? lastName
            try body(range.decoded.value)
        }
    }

    private func decodedDictionary(_ data: Data, split: SplitIndex.Layout) throws -> SplitIndexColumns.Dictionary {
        do throws(RegistryEntryProblem) {
            return try SplitIndexColumns.Dictionary.decode(data, path: split.dictionary.path)
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: error.reason)
        }
    }

    /// The manifests of a split index, a range at a time (`forEachRange`), unless the
    /// whole index was read already; other indexes in one slice.
    public func manifests(inSlices body: ([BlockManifest]) throws -> Void) throws {
        try entries(inSlices: { try body($0.map(\.manifest)) })
    }

    public func searchableBlocks(inSlices body: ([SearchableBlock]) throws -> Void) throws {
        try entries(inSlices: { try body($0.map { SearchableBlock(manifest: $0.manifest, codeNames: $0.codeNames) }) })
    }

    private func entries(inSlices body: ([RegistryEntry]) throws -> Void) throws {
        guard indexCache.value == nil, let split = try header().split else { return try body(index().blocks) }
        try forEachRange(split, body)
    }

    /// The named blocks' manifests as a range holds them (the search fields), each handed
    /// to `body` with its place in `names`, reading only the ranges that hold those names
    /// (each range's `first` name says where it starts) one at a time: `search --json`
    /// of every one of 100,000 blocks holds a range of manifests, not all of them.
    func forEachRangeManifest(named names: [String], _ body: (_ place: Int, BlockManifest) throws -> Void) throws {
        guard let split = try header().split else {
            let blocks = Dictionary(try index().blocks.map { ($0.manifest.name, $0.manifest) }, uniquingKeysWith: { first, _ in first })
            for (place, name) in names.enumerated() {
                guard let manifest = blocks[name] else { throw RegistryError.unknownBlock(name, suggestions: []) }
                try body(place, manifest)
            }
            return
        }
        let ranges = split.ranges.sorted { $0.first < $1.first }
        // Where each name is asked for, by range: a range is read once, and in turn.
        var wanted: [Int: [String: [Int]]] = [:]
        for (place, name) in names.enumerated() {
            guard let range = ranges.lastIndex(where: { $0.first <= name }) else {
                throw RegistryError.invalidIndex(location: location, reason: "no range holds '\(name)'")
            }
            wanted[range, default: [:]][name, default: []].append(place)
        }
        let dictionary = try decodedDictionary(try parts([split.dictionary])[0], split: split)
        var handed = [Bool](repeating: false, count: names.count)
        for (range, places) in wanted.sorted(by: { $0.key < $1.key }) {
            let file = ranges[range].file
            let data = try parts([file])[0]
            let columns: RangeColumns
            do throws(RegistryEntryProblem) {
                columns = try RangeColumns(data, path: file.path, dictionary: dictionary)
            } catch {
                throw RegistryError.invalidIndex(location: location, reason: error.reason)
            }
            for row in columns.nameOrder().order {
                for place in places[columns.names[row]] ?? [] where !handed[place] {
                    handed[place] = true
                    try body(place, columns.entry(row).manifest)
                }
            }
        }
        if let missing = handed.firstIndex(of: false) {
            throw RegistryError.invalidIndex(location: location, reason: "its ranges lack '\(names[missing])'")
        }
    }

    /// Puts into the cache the ranges that `index.json` lists and the cache lacks, when the
    /// change feed and the ranges of the index before give them exactly (`SplitIndexFeed`):
    /// after one block changed, a search then costs `index.json` and the feed, never the
    /// range. Whatever does not come out with the listed hash is left to be fetched.
    private func deriveRangesFromFeed(_ split: SplitIndex.Layout, base: String) {
        let cachedFile = { (part: SplitIndex.FileReference) in self.cache.archiveFile(sha256: part.sha256, path: part.path).path }
        // Whether a range is here is enough: `parts` checks its hash as it reads it.
        let missing = split.ranges.filter { !FileManager.default.fileExists(atPath: cachedFile($0.file)) }
        guard !missing.isEmpty, let previousData = FileManager.default.contents(atPath: cache.previousIndexFile(for: Self.join(base, "index.json")).path),
            let previous = (try? RegistryIndex.decode(previousData, location: location))?.split, SplitIndexFeed.canDerive(split, from: previous),
            let feedData = try? parts([split.feed]).first
        else { return }
        for (part, data) in SplitIndexFeed.derive(missing, of: split, from: previous, feed: feedData, read: { $0.contents(atPath: cachedFile($0)) }) {
            try? AtomicFile.write(data, to: URL(fileURLWithPath: cachedFile(part)))
        }
    }

    /// The bytes of files a split index lists, each checked against its size and SHA-256:
    /// from the folder, or fetched into the cache by hash (identical files once).
    private func parts(_ files: [SplitIndex.FileReference]) throws -> [Data] {
        switch root {
        case .folder(let url):
            return try files.map { part in
                let file = url.joining(part.path)
                do {
                    return try verifiedPart(part, at: file)
                } catch {
                    // A source plugin brings a part its folder lacks, or holds damaged. Parts
                    // are named by their hash, so one fetched before is not asked for again.
                    guard let supplier else { throw error }
                    _ = try supplier.supply(.part(path: part.path), maximumBytes: RegistryIndex.maximumBytes)
                    return try verifiedPart(part, at: file)
                }
            }
        case .remote(let base):
            var unique: [String: SplitIndex.FileReference] = [:]
            for part in files where unique[part.sha256] == nil { unique[part.sha256] = part }
            let wanted = unique.values.sorted { $0.path < $1.path }
            let fetched = try cache.fetchArchives(
                wanted.map { (url: Self.join(base, $0.path), archive: $0.asArchive) }, transport: access.transport, offline: access.offline,
                keepingBytes: true)
            var bytes: [String: Data] = [:]
            for (part, file) in zip(wanted, fetched) { bytes[part.sha256] = try file.bytes ?? Data(contentsOf: file.file) }
            return files.map { bytes[$0.sha256] ?? Data() }
        }
    }

    /// The bytes of a part in a folder, when they are the ones `index.json` names.
    private func verifiedPart(_ part: SplitIndex.FileReference, at file: URL) throws -> Data {
        // Its size first: a file that is not the one the index names is not read whole.
        guard let size = FileStamp.of(path: file.path)?.size else {
            throw RegistryError.unreadable(location: location, reason: "\(part.path) is missing")
        }
        guard size == part.size, let data = FileManager.default.contents(atPath: file.path) else {
            throw RegistryError.unreadable(location: location, reason: "\(part.path) is \(size) bytes, not the \(part.size) index.json gives it")
        }
        try SHA256.verify(data, expected: part.sha256) { HTTPError.checksumMismatch(url: file.path, expected: part.sha256, actual: $0) }
        return data
    }

    /// The metadata files' digests a signed index vouches for, by path, for `names`: its
    /// `metadata`, or for a split index the digest files that hold those names.
    func metadataDigests(for names: [String]) throws -> [String: RegistryFileDigest] {
        let header = try header()
        guard let split = header.split else { return header.metadata ?? [:] }
        let files = Array(Set(names.compactMap { split.digestFile(for: $0)?.file }.map(\.path)))
        let references = files.compactMap { path in split.digestFiles.first { $0.file.path == path }?.file }
        var digests: [String: RegistryFileDigest] = [:]
        for (reference, data) in zip(references, try parts(references)) {
            do throws(RegistryEntryProblem) {
                digests.merge(try SplitIndexColumns.digests(ofDigestFile: data, path: reference.path)) { one, _ in one }
            } catch {
                throw RegistryError.invalidIndex(location: location, reason: error.reason)
            }
        }
        return digests
    }

    /// The signature check of a pinned registry; nil when no key is pinned.
    var signedCheck: SignedIndexCheck? {
        guard !access.pinnedKeys.isEmpty else { return nil }
        return SignedIndexCheck(keys: access.pinnedKeys, allowExpired: access.allowExpired, location: location, cache: cache, notices: access.notices)
    }

    /// Checks the index's bytes and remembers who signed them, for `signatureStatus`.
    private func verified(_ data: Data, check: SignedIndexCheck, signature: Data?) throws -> SignedIndexClaims {
        let (key, claims) = try check.verify(index: data, signature: signature)
        indexCache.signer = key
        indexCache.claims = claims
        return claims
    }

    /// A folder registry's `index.json.minisig`, or nil when it has none.
    func signatureData() -> Data? {
        guard case .folder(let url) = root else { return nil }
        return FileManager.default.contents(atPath: url.appendingPathComponent(RegistrySignature.signatureFile).path)
    }

    /// A remote registry's `index.json.minisig` (nil when it has none), and whether it
    /// differs from the one last verified.
    func remoteSignature() throws -> (data: Data?, isNew: Bool) {
        guard case .remote(let base) = root else { return (nil, false) }
        return try cache.fetchSignature(url: Self.join(base, RegistrySignature.signatureFile), transport: access.transport, offline: access.offline)
    }

    /// "signed by KEYID" once the index was verified against a pinned key, else "unsigned".
    public func signatureStatus() throws -> String {
        guard signedCheck != nil else { return "unsigned" }
        // index.json alone is what is signed: a split index's ranges are not needed.
        _ = try header()
        return indexCache.signer.map { "signed by \($0.id)" } ?? "unsigned"
    }

    public func manifests() throws -> [BlockManifest] {
        try index().blocks.map(\.manifest)
    }

    /// Reads each block's own metadata file rather than the whole index, so adding one
    /// block from a registry of thousands costs two small requests.
    public func contents(of names: [String]) throws -> [BlockContent] {
        if case .remote = root { LibraryWarmUp.start(transport: access.transport, offline: access.offline) }
        let writes = BackgroundWrites()
        defer { writes.wait() }
        let entries = try metadataEntries(names, writes: writes)
        saveReadMetadata(writes: writes)
        let archives = try entries.map { entry -> RegistryArchive in
            guard let archive = entry.preferredArchive else {
                throw RegistryError.invalidIndex(location: location, reason: "\(entry.manifest.name) lists no archive")
            }
            return archive
        }
        let files = try verifiedArchives(archives, owners: entries.map { ($0.manifest.name, $0.manifest.version) })
        return try Self.inParallel(Array(zip(entries, files))) { entry, file in
            try Self.blockContent(from: file, entry: entry)
        }
    }

    /// One block at a version its metadata file lists, newest or older: the archive named
    /// in `versions`, checked against its SHA-256 (and cached by it) like any other, with
    /// the manifest the archive itself ships, since the index holds only the newest one.
    public func contents(of name: String, version: String) throws -> BlockContent {
        let metadata = try metadataFiles([name])[0]
        guard let published = metadata.version(version) else {
            throw RegistryError.unknownVersion(block: name, version: version, available: metadata.versions.map(\.version))
        }
        if version == metadata.entry.manifest.version { return try contents(of: [name])[0] }
        guard let archive = published.preferredArchive else {
            throw RegistryError.invalidIndex(location: location, reason: "\(name) \(version) lists no archive")
        }
        let file = try verifiedArchives([archive], owners: [(name, version)])[0]
        let extracted = try Self.extract(file)
        guard let manifestData = extracted.files["block.json"], let manifest = BlockManifest.decode(manifestData),
            manifest.name == name, manifest.version == version
        else {
            throw RegistryError.invalidIndex(location: location, reason: "\(archive.path) does not hold \(name) \(version)")
        }
        return try Self.blockContent(from: extracted, manifest: manifest)
    }

    /// The archives on disk or fetched into the cache, each checked against its SHA-256.
    /// `owners` names each archive's block and version, which a `supplier` is asked by.
    func verifiedArchives(_ archives: [RegistryArchive], owners: [(name: String, version: String)]) throws -> [RegistryCache.CachedArchive] {
        let files: [RegistryCache.CachedArchive]
        switch root {
        case .folder(let url):
            files = archives.map { RegistryCache.CachedArchive(file: url.joining($0.path)) }
            for (position, (file, archive)) in zip(files.map(\.file), archives).enumerated() {
                if let supplier {
                    // Already here as the metadata names it: checked, nothing to ask.
                    if (try? SHA256.hex(fileAt: file)) == archive.sha256 { continue }
                    let owner = owners[position]
                    let request = RegistryFileRequest.archive(name: owner.name, version: owner.version, path: archive.path)
                    _ = try supplier.supply(request, maximumBytes: TransferLimits.maximumArchiveBytes)
                }
                guard FileManager.default.fileExists(atPath: file.path) else {
                    throw RegistryError.unreadable(location: location, reason: "\(archive.path) is missing")
                }
                try SHA256.verify(digest: SHA256.hex(fileAt: file), expected: archive.sha256) {
                    HTTPError.checksumMismatch(url: file.path, expected: archive.sha256, actual: $0)
                }
            }
        case .remote(let base):
            files = try cache.fetchArchives(
                archives.map { (url: Self.join(base, $0.path), archive: $0) },
                transport: access.transport, offline: access.offline, keepingBytes: true)
        }
        return files
    }

    /// One block's metadata file (`blocks/<name>.json`), not the whole index, which for
    /// 10,000 blocks is 20 MB; the index is read only to suggest names for an unknown one.
    public func manifest(named name: String) throws -> BlockManifest {
        try metadataEntries([name])[0].manifest
    }

    /// Reads the index, every block's metadata file and every archive of every version they
    /// list, with the usual checks: a registry a supplier fills file by file is then whole,
    /// ready to be mirrored.
    func fetchEverything() throws {
        // The parts the ranges' reading below does not fetch: a mirror reads them too.
        if let split = try header().split { _ = try parts(split.digestFiles.map(\.file) + [split.feed]) }
        var names: [String] = []
        try entries(inSlices: { names += $0.map(\.manifest.name) })
        for metadata in try metadataFiles(names) {
            let name = metadata.entry.manifest.name
            let versions = metadata.versions.isEmpty ? [(metadata.entry.manifest.version, metadata.entry.archives)] : metadata.versions.map { ($0.version, $0.archives) }
            for (version, archives) in versions {
                let sorted = archives.values.sorted { $0.path < $1.path }
                _ = try verifiedArchives(sorted, owners: sorted.map { _ in (name, version) })
            }
        }
    }

    /// `transform` over the items, in order, on both cores when there are enough of them to
    /// pay for it: reading fifty archives (gunzip, validation) is CPU work. (Decoding their
    /// metadata in parallel gained nothing measurable.)
    /// The first error, in item order, is thrown.
    static func inParallel<Input: Sendable, Output: Sendable>(
        _ items: [Input], _ transform: @escaping @Sendable (Input) throws -> Output
    ) throws -> [Output] {
        guard items.count >= 8 else { return try items.map(transform) }
        return try ConcurrentMap.map(items) { item in Result { try transform(item) } }.map { try $0.get() }
    }

    /// `blocks/<name>.json` for each name, from disk or fetched in parallel. A name the
    /// registry does not have gets suggestions from the index.
    func metadataEntries(_ names: [String], writes: BackgroundWrites? = nil) throws -> [RegistryEntry] {
        try metadataFiles(names, writes: writes).map(\.entry)
    }

    /// The newest manifest and every published version of each block, from its metadata
    /// file, which is kept for the rest of the command. The metadata cache is written by
    /// `saveReadMetadata()` (or `contents(of:)`), once for all the rounds of a resolution:
    /// written after each round, the next round waited for the write.
    public func publishedVersions(of names: [String]) throws -> [(manifest: BlockManifest, versions: [String])] {
        // Resolving dependencies reads metadata rounds before any archive: the libraries
        // the archives need load meanwhile.
        if case .remote = root { LibraryWarmUp.start(transport: access.transport, offline: access.offline) }
        return try metadataFiles(names, deferringWrite: true).map { ($0.entry.manifest, $0.versions.map(\.version)) }
    }

    public func prepareToInstall() {
        if case .remote = root { LibraryWarmUp.start(transport: access.transport, offline: access.offline) }
    }

    /// Writes what `publishedVersions(of:)` read into the metadata cache.
    public func saveReadMetadata() { saveReadMetadata(writes: nil) }

    private func saveReadMetadata(writes: BackgroundWrites?) {
        if case .remote(let base) = root { cache.saveMetadata(registry: base, writes: writes) }
    }

    /// `blocks/<name>.json` for each name with every version it lists, checked; those
    /// this source has read before are not read again.
    func metadataFiles(_ names: [String], writes: BackgroundWrites? = nil, deferringWrite: Bool = false) throws -> [BlockMetadata] {
        let known = metadataMemo.values(for: names)
        let missing = names.filter { known[$0] == nil }
        let fetched = missing.isEmpty ? [] : try fetchMetadataFiles(missing, writes: writes, deferringWrite: deferringWrite)
        var all = known
        for metadata in fetched { all[metadata.entry.manifest.name] = metadata }
        metadataMemo.store(fetched)
        return names.map { all[$0]! }
    }

    private func fetchMetadataFiles(_ names: [String], writes: BackgroundWrites?, deferringWrite: Bool) throws -> [BlockMetadata] {
        // A pinned registry's metadata is checked against its signed index, read first.
        let signedDigests = signedCheck == nil ? nil : try metadataDigests(for: names)
        let location = location
        var data: [Data?]
        switch root {
        case .folder(let url):
            data = try names.map { name in
                guard ManifestValidator.isValidName(name) else { return nil }
                if let supplier, try !supplier.supply(.metadata(name: name), maximumBytes: BlockMetadata.maximumBytes) { return nil }
                return FileManager.default.contents(atPath: url.appendingPathComponent("blocks/\(name).json").path)
            }
        case .remote(let base):
            data = try cache.fetchMetadata(
                names.map { ManifestValidator.isValidName($0) ? Self.join(base, "blocks/\($0).json") : nil },
                registry: base, transport: access.transport, offline: access.offline, writes: writes, deferringWrite: deferringWrite,
                verify: signedDigests.map { digests in
                    { url, bytes in
                        try SignedIndexCheck.checkMetadata(bytes, path: String(url.dropFirst(Self.join(base, "").count)), digests: digests, location: location)
                    }
                })
        }
        return try zip(names, data).map { name, bytes in
            if let signedDigests, let bytes { try SignedIndexCheck.checkMetadata(bytes, path: "blocks/\(name).json", digests: signedDigests, location: location) }
            guard let bytes else {
                // No metadata file: the name is unknown, or this is no registry at all (a
                // wrong URL answers 404 to everything), which the index's own error says.
                let known = try index().blocks.map(\.manifest.name)
                throw RegistryError.unknownBlock(name, suggestions: EditDistance.suggestions(for: name, in: known))
            }
            let metadata: BlockMetadata
            do throws(RegistryEntryProblem) {
                metadata = try BlockMetadata.decode(bytes)
            } catch {
                throw RegistryError.invalidIndex(location: location, reason: "blocks/\(name).json is not valid block metadata (\(error.reason))")
            }
            let archives = metadata.entry.archives.values + metadata.versions.flatMap(\.archives.values)
            guard metadata.entry.manifest.name == name, archives.allSatisfy({ RelativePath.isSafe($0.path) }) else {
                throw RegistryError.invalidIndex(location: location, reason: "blocks/\(name).json describes another block or leaves the registry")
            }
            return metadata
        }
    }

    /// Reads a verified archive into the block's files, keyed by the manifest's paths:
    /// from memory when it was just downloaded, else from its file.
    static func blockContent(from archive: RegistryCache.CachedArchive, entry: RegistryEntry) throws -> BlockContent {
        try blockContent(from: extract(archive), manifest: entry.manifest)
    }

    static func extract(_ archive: RegistryCache.CachedArchive) throws -> ExtractedArchive {
        if let bytes = archive.bytes { return try Archives.read(data: bytes, format: nil, name: archive.file.path) }
        return try Archives.read(archive.file)
    }

    /// The files the manifest lists, from an extracted archive.
    static func blockContent(from extracted: ExtractedArchive, manifest: BlockManifest) throws -> BlockContent {
        var files: [String: Data] = [:]
        for listed in manifest.files {
            guard let data = extracted.files[listed.path] else {
                throw RegistryError.missingFile(block: manifest.name, path: listed.path)
            }
            files[listed.path] = data
        }
        return BlockContent(manifest: manifest, files: files)
    }

    /// A folder registry's `index.json`, refused over `RegistryIndex.maximumBytes` as a
    /// remote one would be, so a mirror folder and its server agree.
    static func readIndexFile(_ file: URL, location: String) throws -> Data {
        if let size = FileStamp.of(path: file.path)?.size, size > RegistryIndex.maximumBytes {
            throw RegistryError.unreadable(
                location: location, reason: "index.json is \(size) bytes, over the \(RegistryIndex.maximumBytes / (1024 * 1024)) MB an index may have")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw RegistryError.unreadable(location: location, reason: "index.json cannot be read")
        }
        return data
    }

    /// A request that failed below HTTP, for a registry whose index the cache holds: the
    /// error says `--offline` would read that copy. Without a cached copy `--offline`
    /// could only fail too, so `HTTPError` never suggests it on its own.
    static func withOfflineHint(_ error: Error, indexFile: URL, offline: Bool) -> Error {
        guard !offline, let http = error as? HTTPError, PathKind(indexFile.path) == .other else { return error }
        switch http {
        case .transport, .tooSlow, .noAnswer: return UnreachableWithCachedCopy(underlying: http)
        default: return error
        }
    }

    static func join(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + path
    }

    /// For a remote registry, the cached `index.json` after one conditional GET, which
    /// the rest of the command then reads without asking again.
    func currentIndexFile() throws -> URL? {
        guard case .remote(let base) = root else { return nil }
        if let file = indexCache.currentFile { return file }
        do {
            let check = signedCheck
            let signature = try check.map { _ in try remoteSignature() }
            let refreshed = try cache.refreshIndex(
                url: Self.join(base, "index.json"), transport: access.transport, offline: access.offline, unconditional: signature?.isNew ?? false,
                verify: check.map { check in { _ = try check.verify(index: $0, signature: signature?.data) } })
            let file = refreshed.file
            let signatureURL = Self.join(base, RegistrySignature.signatureFile)
            let stamp = SignedIndexCheck.fileStamp(file)
            if let check, let kept = signature?.data, !(signature?.isNew ?? true), refreshed.body == nil, stamp != nil,
                cache.verifiedStamp(url: signatureURL) == stamp
            {
                // The very pair verified before: only the trusted comment and the expiry again.
                let (key, claims) = try check.reverify(signature: kept)
                indexCache.signer = key
                indexCache.claims = claims
            } else if let check, let data = refreshed.body ?? FileManager.default.contents(atPath: file.path) {
                // A cached copy is checked again: the signature may be new (a rotated key).
                _ = try verified(data, check: check, signature: signature?.data)
            }
            if let kept = signature?.data { cache.keepSignature(kept, url: signatureURL, indexStamp: stamp) }
            indexCache.currentFile = file
            return file
        } catch {
            let error = Self.withOfflineHint(error, indexFile: cache.indexFile(for: Self.join(base, "index.json")), offline: access.offline)
            indexCache.refreshFailure = error
            throw error
        }
    }
}

/// The metadata files one source has read, by block name.
final class MetadataMemo: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [String: BlockMetadata] = [:]

    func values(for names: [String]) -> [String: BlockMetadata] {
        lock.withLock { stored.filter { names.contains($0.key) } }
    }

    func store(_ files: [BlockMetadata]) {
        lock.withLock { for file in files { stored[file.entry.manifest.name] = file } }
    }
}

/// Remembers the index, and the cached index file known to be current, for the life of
/// one source, across `manifests()`, `contents(of:)` and a search's freshness check.
final class IndexMemo: @unchecked Sendable {
    private let lock = Lock()
    private var stored: RegistryIndex?
    private var storedHeader: RegistryIndex?
    private var storedFile: URL?
    private var storedFailure: Error?
    private var storedSigner: MinisignPublicKey?
    private var storedClaims: SignedIndexClaims?

    /// The pinned key a verified index was signed by, and what it claimed.
    var signer: MinisignPublicKey? {
        get { lock.withLock { storedSigner } }
        set { lock.withLock { storedSigner = newValue } }
    }

    var claims: SignedIndexClaims? {
        get { lock.withLock { storedClaims } }
        set { lock.withLock { storedClaims = newValue } }
    }

    var value: RegistryIndex? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// `index.json` read and checked, before a split index's ranges are.
    var header: RegistryIndex? {
        get { lock.withLock { storedHeader } }
        set { lock.withLock { storedHeader = newValue } }
    }

    var currentFile: URL? {
        get { lock.withLock { storedFile } }
        set { lock.withLock { storedFile = newValue } }
    }

    var refreshFailure: Error? {
        get { lock.withLock { storedFailure } }
        set { lock.withLock { storedFailure = newValue } }
    }
}

/// A registry that could not be reached, whose index the cache holds from an earlier run.
struct UnreachableWithCachedCopy: Error, CustomStringConvertible {
    let underlying: HTTPError

    var description: String { "\(underlying); the cache holds a copy of this registry: --offline reads it" }
}
