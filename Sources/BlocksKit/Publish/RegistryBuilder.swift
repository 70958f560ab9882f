import Dispatch

/// Writes a static registry: per-block `.tar.gz` and `.zip` archives, a metadata file per
/// block, and `index.json` last, so a server never serves an index naming a missing file.
///
/// Published archives are immutable: a block whose version already has archives is left
/// untouched when its source is unchanged, and is an error when its source changed
/// without a version bump.
public struct RegistryBuilder: Sendable {
    public struct Report: Sendable, Equatable {
        public var written: [String] = []
        public var unchanged: [String] = []
        /// How many staging folders a fresh build wrote into (see `FreshBuildFolder`).
        var stagingFolders = 0
        /// The site's files written and kept, when the build made one (`site`).
        var site: SiteBuilder.Report?
    }

    public let output: URL
    public let packager: BlockPackager
    /// The date stamped on each version this build publishes (`PublicationDate.stamp`).
    public var published: String
    /// The file-system knobs of a fresh build (`Tuning`); tests lower the slow-creation
    /// threshold to make a build move folders.
    public var tuning = Tuning()
    /// Also write the browsable site (`blocks build --site`, `SiteBuilder`).
    public var site = false
    /// `--sign`: write a signed index (version, expiry, metadata hashes) and its
    /// `index.json.minisig`.
    public var signing: IndexSigning?
    /// `--split-index`: write `index.json` as a list of the files of a split index (`SplitIndex`).
    public var splitIndex = false
    /// How many names a new epoch's ranges and digest files start with; tests make them small.
    var splitSizes = (range: SplitIndex.namesPerRange, digestFile: SplitIndex.namesPerDigestFile)
    /// Where the build record of this output is kept (`BuildRecord`): a rebuild then skips,
    /// unread, the blocks whose files are as the last build left them. Nil reads every block.
    public var recordFile: URL?

    public init(output: URL, packager: BlockPackager, published: String = PublicationDate.iso8601(secondsSince1970: Int(Date().timeIntervalSince1970))) {
        self.output = output
        self.packager = packager
        self.published = published
    }

    /// The precompressed copy nginx's `gzip_static` serves beside a JSON file.
    static func gzipPath(_ path: String) -> String { path + ".gz" }

    /// Writes a JSON file and its `.gz`, the `.gz` first: whichever a server picks then
    /// names only files already in place.
    func writeWithGzip(_ data: Data, to path: String, blocks: Int = 1) throws {
        try ClientCaps.check(data, path: path, blocks: blocks)
        try AtomicFile.write(try Self.gzip(data, path: path), to: output.joining(Self.gzipPath(path)))
        try AtomicFile.write(data, to: output.joining(path))
    }

    /// The `.gz` of a file whose bytes stay, written when an older build left none.
    func ensureGzip(of data: @autoclosure () throws -> Data, at path: String) throws {
        guard access(output.joining(Self.gzipPath(path)).path, F_OK) != 0 else { return }
        try AtomicFile.write(try Self.gzip(try data(), path: path), to: output.joining(Self.gzipPath(path)))
    }

    /// The `.gz` bytes of the file at `path`: a split index's parts at deflate's smallest
    /// level (fetched by every client, written once), everything else at the default.
    static func gzip(_ data: Data, path: String) throws -> Data {
        try Zlib.gzip(data, level: SplitIndex.isPartPath(path) ? Zlib.smallestLevel : Zlib.level)
    }

    public static func archivePath(name: String, version: String, format: ArchiveFormat) -> String {
        "archives/\(name)-\(version).\(format.fileExtension)"
    }

    public func build(_ blocks: [BlockContent]) throws -> Report {
        try build(BlockBatches(blocks))
    }

    /// Builds the blocks a batch at a time (`BlockBatches`), so that a catalog of 100,000
    /// is never in memory at once; what stays of each block until `index.json` is written
    /// is its entry, and for a split index only what the ranges hold of it.
    public func build(_ blocks: BlockBatches) throws -> Report {
        let created = try Self.makeOutputFolder(output)
        let lock = try Self.lockOutput(output)
        defer { withExtendedLifetime(lock) {} }
        // Also removes staging folders left by killed builds, so it runs for every build.
        if let fresh = try FreshBuildFolder.begin(in: output, created: created, tuning: tuning) {
            do {
                return try buildFresh(blocks, into: fresh)
            } catch {
                // A broken block leaves no output folder this build made (it is empty again).
                if created { rmdir(output.path) }
                throw error
            }
        }
        return try buildOver(blocks)
    }

    /// A build into an output that holds a registry: blocks unchanged since the last build
    /// are kept (skipped unread when the build record says so, `BuildRecord`), the others
    /// published over their previous versions.
    private func buildOver(_ blocks: BlockBatches) throws -> Report {
        let previousIndexData = try? Data(contentsOf: output.appendingPathComponent("index.json"))
        let previousIndex = previousIndexData.flatMap { try? RegistryIndex.decode($0, location: output.path) }
        // By name, once: looking each block up in the array was quadratic in the catalog.
        let previous = Dictionary((previousIndex?.blocks ?? []).map { ($0.manifest.name, $0) }, uniquingKeysWith: { first, _ in first })
        // A split index lists no archives or source hashes: each block's metadata file has them.
        let previousFromMetadata = previousIndex?.split != nil
        try FileManager.default.createDirectory(at: output.appendingPathComponent("archives"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output.appendingPathComponent("blocks"), withIntermediateDirectories: true)

        let site = self.site ? SiteBuilder(output: output) : nil
        var report = Report()
        var entries: [PublishedEntry] = []
        var fingerprints: [String?] = []
        let staging = try MetadataStaging(output: output)
        let (record, unread) = recordAndUnreadBlocks(previousIndex, wholeIndexEntries: previous)
        do {
            try blocks.forEachBatchOfNames { names in
                let found = ConcurrentMap.map(names, blocks.fingerprint)
                let skipped = skippedUnread(names, fingerprints: found, record: record, unread: unread)
                let loaded = try blocks.load(zip(names, skipped).filter { $0.1 == nil }.map(\.0))
                // Blocks are independent, so both cores can write archives at once.
                let results = ConcurrentMap.map(loaded) { block in
                    Result {
                        let name = block.manifest.name
                        let earlier = try previous[name] ?? (previousFromMetadata ? self.previousMetadata("blocks/\(name).json")?.entry : nil)
                        return self.kept(try self.publish(block, previous: earlier, site: site, staging: staging))
                    }
                }
                var published = try results.map { try $0.get() }.makeIterator()
                for (name, skip) in zip(names, skipped) {
                    guard let entry = skip ?? published.next(), entry.entry.manifest.name == name else {
                        throw RegistryError.unreadable(location: name, reason: "the catalog did not give this block when asked")
                    }
                    entries.append(entry)
                    if entry.wrote { report.written.append(name) } else { report.unchanged.append(name) }
                }
                fingerprints += found
            }
            try staging.commit(into: output)
        } catch {
            staging.discard()
            throw error
        }
        try site?.finish(entries.map { SearchableBlock(manifest: $0.entry.manifest, codeNames: $0.entry.codeNames) })
        report.site = site?.report
        let counts = try writeIndex(entries, previous: previousIndexData, previousRanges: unread?.previousRanges)
        keepRecord(of: entries, fingerprints: fingerprints, previous: record, counts: counts)
        return report
    }

    /// Writes `index.json` (signed, with its `index.json.minisig`, under `signing`). An
    /// unchanged index keeps its file, and so its ETag: mirrors and caches then get a 304.
    /// A split index's string counts come back, for the build record (`BuildRecord`).
    @discardableResult
    func writeIndex(
        _ published: [PublishedEntry], previous: Data?, previousRanges: PreviousRanges? = nil
    ) throws -> SplitIndexColumns.Dictionary.Counter? {
        if splitIndex { return try writeSplitIndex(published, previous: previous, previousRanges: previousRanges) }
        let entries = published.map { ($0.entry, $0.fragment) }
        guard let signing else {
            let index = try RegistryIndex.encoded(entries)
            if index != previous { try writeWithGzip(index, to: "index.json", blocks: published.count) } else { try ensureGzip(of: index, at: "index.json") }
            // A signature of an earlier index would only make pinned clients cry forgery.
            unlink(output.joining(IndexSigning.signatureFile).path)
            return nil
        }
        var digests: [String: RegistryFileDigest] = [:]
        for entry in published.map(\.entry) {
            guard let data = FileManager.default.contents(atPath: output.joining(entry.metadata).path) else {
                throw RegistryError.missingFile(block: entry.manifest.name, path: entry.metadata)
            }
            digests[entry.metadata] = RegistryFileDigest(of: data)
        }
        let signatureURL = output.joining(IndexSigning.signatureFile)
        let (index, signature) = try signing.sign(
            entries, metadata: digests, previous: previous, previousSignature: FileManager.default.contents(atPath: signatureURL.path))
        if index != previous { try writeWithGzip(index, to: "index.json", blocks: published.count) } else { try ensureGzip(of: index, at: "index.json") }
        if FileManager.default.contents(atPath: signatureURL.path) != signature { try AtomicFile.write(signature, to: signatureURL) }
        return nil
    }

    /// Creates the output folder when it is missing; true when this call made it.
    static func makeOutputFolder(_ output: URL) throws -> Bool {
        switch PathKind(output.path) {
        case .folder: return false
        case .missing:
            guard PathKind.makeFolder(output.path) else { throw AtomicFile.Failure(path: output.path, reason: "cannot create the folder") }
            return true
        case .other: throw AtomicFile.Failure(path: output.path, reason: "it is a file, not a folder")
        }
    }

    /// The output folder's lock, held for the whole build: two builds into one folder
    /// would remove each other's staging folders and race on every file. It is a
    /// `FolderLock` on the folder itself, so the registry holds no lock file.
    static func lockOutput(_ output: URL) throws -> FolderLock {
        do throws(FolderLock.Failure) {
            return try FolderLock(folder: output.path)
        } catch {
            switch error {
            case .busy: throw RegistryError.buildInProgress(output: output.path)
            case .unavailable(let reason): throw AtomicFile.Failure(path: output.path, reason: reason)
            }
        }
    }

    /// One block's entry, its bytes inside index.json, and whether this build wrote it.
    struct PublishedEntry: Sendable {
        var entry: RegistryEntry
        var fragment: Data
        var wrote: Bool
        /// For a split index: the compact entry's bytes (`SplitIndexColumns.compactValue`),
        /// while `entry` keeps only the name and the metadata path (`RegistryBuilder.kept`).
        var compact: Data?
        /// The metadata file's SHA-256 and size, when known without reading it: for a block
        /// skipped unread, from the previous split index's digest file.
        var metadataDigest: RegistryFileDigest?
        /// A block a rebuild skipped unread (`BuildRecord`): as the previous index has it.
        var unread = false

        /// `json` is the entry's own `stableJSON`, never the metadata file, whose
        /// `versions` the index leaves out.
        init(entry: RegistryEntry, json: Data, wrote: Bool) {
            self.entry = entry
            fragment = RegistryIndex.fragment(entryJSON: json)
            self.wrote = wrote
        }
    }

    /// A build into an empty output: nothing is published yet, so every file goes
    /// straight into a staging folder that is moved into place at the end.
    private func buildFresh(_ blocks: BlockBatches, into folder: FreshBuildFolder) throws -> Report {
        let site = self.site ? SiteBuilder(output: output) : nil
        var entries: [PublishedEntry] = []
        var fingerprints: [String?] = []
        do {
            try blocks.forEachBatchOfNames { names in
                // Taken before the blocks are read, so a change made while they are is seen next time.
                fingerprints += ConcurrentMap.map(names, blocks.fingerprint)
                let batch = try blocks.load(names)
                entries += try ConcurrentMap.map(batch) { block in Result { self.kept(try self.publishFresh(block, into: folder, site: site)) } }.map { try $0.get() }
            }
            try folder.publish()
        } catch {
            folder.discard()
            throw error
        }
        try site?.finish(entries.map { SearchableBlock(manifest: $0.entry.manifest, codeNames: $0.entry.codeNames) })
        let counts = try writeIndex(entries, previous: nil)
        keepRecord(of: entries, fingerprints: fingerprints, previous: BuildRecord(), counts: counts)
        return Report(written: entries.map(\.entry.manifest.name), stagingFolders: folder.stagingFolders.count, site: site?.report)
    }

    /// What a build keeps of a published block until `index.json` is written: all of it for
    /// a whole index or a site, and for a split index only what its ranges hold, as bytes
    /// (about 500 of them, a third of the same entry decoded).
    func kept(_ published: PublishedEntry) -> PublishedEntry {
        guard splitIndex, !site else { return published }
        let entry = published.entry
        var kept = published
        kept.compact = SplitIndexColumns.compact(SplitIndexColumns.compactValue(SplitIndexColumns.searchOnly(entry)))
        kept.entry = Self.keptEntry(name: entry.manifest.name, version: entry.manifest.version, metadata: entry.metadata)
        kept.fragment = Data()
        return kept
    }

    /// What a split build keeps of a block besides its compact entry: its name, version and
    /// metadata path.
    static func keptEntry(name: String, version: String, metadata: String) -> RegistryEntry {
        let manifest = BlockManifest(
            name: name, version: version, title: [:], summary: [:], category: "", platforms: [:], level: "", origin: "", tags: [:], api: [], files: [],
            authors: [], license: "", accessibility: [:])
        return RegistryEntry(manifest: manifest, metadata: metadata, sourceSHA256: "", archives: [:])
    }

    /// One block of a fresh build, written into the staging folder.
    private func publishFresh(_ block: BlockContent, into folder: FreshBuildFolder, site: SiteBuilder?) throws -> PublishedEntry {
        let (entry, archives, shipped, manifestMembers) = try package(block)
        for (path, data) in archives { try folder.write(data, to: path) }
        let metadata = BlockMetadata.publishing(entry, published: published, over: nil)
        let entryMembers = entry.stableMembers(manifestMembers: manifestMembers)
        let metadataData = metadata.stableJSON(entryMembers: entryMembers)
        try ClientCaps.check(metadataData, path: entry.metadata, blocks: 1)
        try folder.write(metadataData, to: entry.metadata)
        try folder.write(try Zlib.gzip(metadataData), to: Self.gzipPath(entry.metadata))
        if let site {
            let path = SiteBuilder.pagePath(entry.manifest.name)
            let page = SiteBuilder.page(entry, versions: metadata.versions, shipped: SiteBuilder.shipped(shipped))
            try folder.write(page, to: path)
            site.recordWritten(path, data: page)
        }
        return PublishedEntry(entry: entry, json: entryMembers.data, wrote: true)
    }

    /// A block's entry, its archives by path relative to the registry root, the files
    /// they hold (under the archives' top folder), and its manifest's members, which the
    /// entry's documents share.
    func package(_ block: BlockContent) throws -> (
        RegistryEntry, [(path: String, data: Data)], shipped: [ArchiveEntry], manifestMembers: StableJSONMembers
    ) {
        let manifest = block.manifest
        let manifestMembers = BlockPackager.manifestMembers(manifest)
        let manifestData = manifestMembers.data
        let sourceHash = try BlockPackager.sourceHash(block, manifestData: manifestData)
        let folder = "\(manifest.name)-\(manifest.version)"
        let entries = try packager.entries(for: block, folder: folder, manifestData: manifestData)
        let formats = ArchiveFormat.allCases
        let archiveData = try Archives.data(entries, formats: formats, name: folder)
        var files: [(path: String, data: Data)] = []
        var archives: [String: RegistryArchive] = [:]
        for (format, data) in zip(formats, archiveData) {
            let path = Self.archivePath(name: manifest.name, version: manifest.version, format: format)
            try ClientCaps.check(data, path: path, blocks: 1)
            files.append((path, data))
            archives[format.rawValue] = RegistryArchive(path: path, sha256: SHA256.hex(data), size: Int64(data.count))
        }
        let entry = RegistryEntry(
            manifest: manifest, metadata: "blocks/\(manifest.name).json", sourceSHA256: sourceHash, archives: archives,
            codeNames: CodeNames.names(of: block))
        return (entry, files, entries, manifestMembers)
    }

    /// Writes one block's archives and metadata unless they are already published, and
    /// its page when `site` is given.
    /// Changed metadata files go to `staging` when given, else straight into place.
    func publish(_ block: BlockContent, previous: RegistryEntry?, site: SiteBuilder? = nil, staging: MetadataStaging? = nil) throws -> PublishedEntry {
        let manifest = block.manifest
        // The index lists each block at its newest version, which a step back would undo.
        if let previous, VersionComparison.isNewer(previous.manifest.version, than: manifest.version) {
            throw RegistryError.versionWentBack(block: manifest.name, version: manifest.version, published: previous.manifest.version)
        }
        if let previous, previous.manifest.version == manifest.version, archivesIntact(previous) {
            guard previous.sourceSHA256 == (try BlockPackager.sourceHash(block)) else {
                throw RegistryError.publishedVersionChanged(block: manifest.name, version: manifest.version)
            }
            let codeNames = CodeNames.names(of: block)
            if codeNames != previous.codeNames {
                // The archives stand; only what search reads of the code is new (an index
                // from before builds recorded code names, or a newer rule for them).
                var entry = previous
                entry.codeNames = codeNames
                let metadata = BlockMetadata.publishing(entry, published: published, over: try previousMetadata(entry.metadata))
                let entryMembers = entry.stableMembers()
                try writeMetadata(metadata.stableJSON(entryMembers: entryMembers), to: entry.metadata, staging: staging)
                return PublishedEntry(entry: entry, json: entryMembers.data, wrote: false)
            }
            if let metadata = FileManager.default.contents(atPath: output.joining(previous.metadata).path) {
                try ensureGzip(of: metadata, at: previous.metadata)
            }
            try site?.keepPage(of: previous)
            return PublishedEntry(entry: previous, json: previous.stableJSON, wrote: false)
        }
        var (entry, files, shipped, manifestMembers) = try package(block)
        var keptOlderArchive: URL?
        for (path, data) in files {
            let url = output.joining(path)
            if access(url.path, F_OK) == 0, let existing = FileManager.default.contents(atPath: url.path) {
                // An archive of this version exists from an older build (perhaps from
                // another year): published bytes never change, whatever the headers say.
                if existing != data && !sameSource(existingArchive: url, as: block) {
                    // Unreadable is not "changed": the source may be exactly what was published.
                    if (try? Archives.read(url)) == nil { throw RegistryError.damagedArchive(path: url.path) }
                    throw RegistryError.publishedVersionChanged(block: manifest.name, version: manifest.version)
                }
                guard let format = ArchiveFormat.forFile(path) else { continue }
                entry.archives[format.rawValue] = RegistryArchive(path: path, sha256: SHA256.hex(existing), size: Int64(existing.count))
                if existing != data { keptOlderArchive = url }
                continue
            }
            try AtomicFile.write(data, to: url)
        }
        let metadata = BlockMetadata.publishing(entry, published: published, over: try previousMetadata(entry.metadata))
        let entryMembers = entry.stableMembers(manifestMembers: manifestMembers)
        try writeMetadata(metadata.stableJSON(entryMembers: entryMembers), to: entry.metadata, staging: staging)
        if let site {
            // The page shows what the archives hold, which an older build's kept archive decides.
            let files = try keptOlderArchive.map { try Archives.read($0).files } ?? SiteBuilder.shipped(shipped)
            try site.write(SiteBuilder.page(entry, versions: metadata.versions, shipped: files), to: SiteBuilder.pagePath(manifest.name))
        }
        return PublishedEntry(entry: entry, json: entryMembers.data, wrote: true)
    }

    /// A metadata file and its `.gz`, into `staging` when given, else into place.
    func writeMetadata(_ data: Data, to path: String, staging: MetadataStaging?) throws {
        guard let staging else { return try writeWithGzip(data, to: path) }
        try ClientCaps.check(data, path: path, blocks: 1)
        try staging.write(data, gzip: try Self.gzip(data, path: path), to: path)
    }

    /// The metadata file an earlier build wrote, whose versions this build keeps; nil
    /// when there is none. A broken one is an error: rewriting it would lose versions.
    func previousMetadata(_ path: String) throws -> BlockMetadata? {
        guard let data = FileManager.default.contents(atPath: output.joining(path).path) else { return nil }
        do throws(RegistryEntryProblem) {
            return try BlockMetadata.decode(data)
        } catch {
            throw RegistryError.invalidIndex(
                location: output.path, reason: "\(path) is not valid block metadata (\(error.reason)); fix or remove it to rebuild")
        }
    }

    /// Whether every archive of a published entry is still there at its size. Read with
    /// `stat`: `attributesOfItem`'s size is an `Any` that casts to `Int64` only where full
    /// Foundation bridges numbers, so in the tool itself every rebuild found the archives
    /// changed and packaged every block again (the bytes were kept, but slowly).
    func archivesIntact(_ entry: RegistryEntry) -> Bool {
        entry.archives.values.allSatisfy { archive in
            var info = stat()
            return stat(output.joining(archive.path).path, &info) == 0 && Int64(info.st_size) == archive.size
        }
    }

    /// Whether an archive built earlier (perhaps in another year) holds this block's source.
    func sameSource(existingArchive url: URL, as block: BlockContent) -> Bool {
        guard let extracted = try? Archives.read(url) else { return false }
        guard let manifestData = extracted.files["block.json"],
            let manifest = BlockManifest.decode(manifestData),
            manifest == block.manifest
        else { return false }
        return block.manifest.files.allSatisfy { file in
            guard let shipped = extracted.files[file.path], let source = block.files[file.path] else { return false }
            return LicenseHeader.strip(shipped) == source
        }
    }
}
