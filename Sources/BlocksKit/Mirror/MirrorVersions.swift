/// The second half of reading a new upstream index: the metadata files whose entry
/// changed are fetched from upstream, since only they list every published version (the
/// index has the newest). Each is checked against its index entry, staged with its `.gz`
/// beside it, and every version it lists joins the archives to fetch; with
/// `--latest-only` the staged file lists only the newest version, so the mirror never
/// names an archive it does not hold.
///
/// The `.gz` files are written here with the build's own gzip step rather than fetched:
/// it gives the same bytes as the build, and a `.gz` made from the verified file cannot
/// disagree with it.
struct PendingMetadata: Sendable {
    /// Relative to the registry root, as the index names it.
    var path: String
    var name: String
    /// SHA-256 of the index entry's `StableJSON` bytes, which the metadata's entry must match.
    var entrySHA256: String
    /// For a split index: the SHA-256 and size its digest file gives the file, which the
    /// bytes must have (there is no entry to compare).
    var expected: RegistryFileDigest? = nil
}

extension MirrorPlan {
    /// Metadata files fetched from upstream at a time: enough to keep the transport busy,
    /// few enough that memory stays flat for 10,000 blocks.
    static let metadataBatchSize = 256

    /// Fetches, checks and stages every pending metadata file. A file that cannot be
    /// fetched fails the run (after the whole list was tried) with DEST unchanged; one
    /// that contradicts the index, or names an archive outside the registry, fails it at once.
    mutating func fetchPendingMetadata(from upstream: MirrorUpstream, destination: URL, jobs: Int) throws {
        guard !pending.isEmpty else { return }
        let stagingPath = Self.stagingFolder(in: destination).path
        let location = upstream.url(for: "index.json")
        var folders = FolderCache()
        var failures = MirrorError.FetchFailures.none(
            hasSnapshot: FileManager.default.fileExists(atPath: destination.appendingPathComponent("index.json").path), noun: "metadata file")
        failures.wanted = pending.count
        let latestOnly = self.latestOnly
        for start in stride(from: 0, to: pending.count, by: Self.metadataBatchSize) {
            let batch = Array(pending[start..<min(start + Self.metadataBatchSize, pending.count)])
            let results = upstream.fetchFiles(batch.map(\.path), jobs: jobs)
            let checked = ConcurrentMap.map(Array(zip(batch, results))) { wanted, result in
                result.map { data in Result { try Self.checked(data, wanted: wanted, latestOnly: latestOnly, location: location) } }
            }
            for (wanted, outcome) in zip(batch, checked) {
                switch outcome {
                case .success(let checkedFile):
                    let file = try checkedFile.get()
                    for version in file.metadata.versions { try addArchives(of: version.archives, location: location) }
                    try stage(file.bytes, at: wanted.path, staging: stagingPath, folders: &folders)
                    failures.fetched += 1
                case .failure(let error):
                    failures.count += 1
                    if failures.shown.count < MirrorError.FetchFailures.shownLimit { failures.shown.append("\(wanted.path): \(error.description)") }
                }
            }
        }
        pending = []
        if failures.count > 0 { throw MirrorError.fetchFailed(failures) }
    }

    /// One fetched metadata file, checked: it decodes, describes the block the index
    /// names with exactly the index's entry, and names archives inside the registry. The
    /// bytes to keep are upstream's own, or with `--latest-only` the file cut to its newest version.
    static func checked(_ data: Data, wanted: PendingMetadata, latestOnly: Bool, location: String) throws -> (metadata: BlockMetadata, bytes: Data) {
        let metadata: BlockMetadata
        do throws(RegistryEntryProblem) {
            metadata = try BlockMetadata.decode(data)
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: "\(wanted.path) is not valid block metadata (\(error.reason))")
        }
        let matches = wanted.expected.map { $0 == RegistryFileDigest(of: data) } ?? (SHA256.hex(metadata.entry.stableJSON) == wanted.entrySHA256)
        guard metadata.entry.manifest.name == wanted.name, matches else {
            throw RegistryError.invalidIndex(
                location: location,
                reason: wanted.expected == nil
                    ? "\(wanted.path) does not describe the \(wanted.name) entry index.json lists (was the registry being published? run the mirror again)"
                    : "\(wanted.path) is not the file its digest file lists (was the registry being published? run the mirror again)")
        }
        for archive in metadata.versions.flatMap(\.archives.values) where !RelativePath.isSafe(archive.path) {
            throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
        }
        guard latestOnly else { return (metadata, data) }
        let newest = metadata.newestOnly
        return (newest, newest == metadata ? data : newest.stableJSON)
    }

    /// Every archive DEST's own metadata file lists for an entry of DEST's index, with the
    /// entry's own; nil when the metadata file is missing or unreadable, so a caller that
    /// deletes or judges archives knows it cannot tell which belong.
    static func heldArchives(of entry: RegistryEntry, in destination: URL) -> [RegistryArchive]? {
        guard let data = FileManager.default.contents(atPath: destination.path + "/" + entry.metadata),
            let held = try? BlockMetadata.decode(data)
        else { return nil }
        var seen: Set<String> = []
        return (Array(entry.archives.values) + held.versions.flatMap(\.archives.values))
            .sorted { $0.path < $1.path }
            .filter { seen.insert($0.path).inserted }
    }
}

extension BlockMetadata {
    /// The metadata listing only the newest version, as a `--latest-only` mirror keeps it.
    var newestOnly: BlockMetadata {
        let newest =
            versions.first { $0.version == entry.manifest.version }
            ?? PublishedVersion(version: entry.manifest.version, published: nil, archives: entry.archives)
        return BlockMetadata(entry: entry, versions: [newest])
    }
}

extension HTTPMirrorUpstream {
    func fetchFiles(_ paths: [String], jobs: Int) -> [Result<Data, HTTPError>] {
        transport.fetch(paths.map { HTTPRequest(url: url(for: $0), maxBodyBytes: Self.maximumMetadataBytes) }, maxParallel: jobs)
            .map { $0.map(\.body) }
    }

    /// The largest metadata file the mirror takes, as for a client's `add`.
    static let maximumMetadataBytes: Int64 = BlockMetadata.maximumBytes
}

extension FolderMirrorUpstream {
    func fetchFiles(_ paths: [String], jobs: Int) -> [Result<Data, HTTPError>] {
        paths.map { path in
            let file = url(for: path)
            if let data = FileManager.default.contents(atPath: file) { return .success(data) }
            return .failure(.file(path: file, reason: "missing from the source registry"))
        }
    }
}
