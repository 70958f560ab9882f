/// Makes and keeps an offline copy of a registry.
///
/// The destination is a consistent registry at every instant: archives arrive through
/// `.part` files checked against their SHA-256 and renamed into place, and the new
/// `index.json` is renamed in last, so it only ever names archives that are present and
/// verified. A killed run leaves the previous snapshot, and the next run finishes the job.
public struct Mirror {
    public struct Summary: Sendable, Equatable {
        public var fetched = 0
        public var skipped = 0
        public var pruned = 0
        public var bytes: Int64 = 0
        /// True when the upstream index was unchanged (a 304) and nothing needed repair.
        public var upToDate = false
        /// Index entries skipped because their name is not a block name, as written.
        public var skippedNames: [String] = []
    }

    let upstream: MirrorUpstream
    public let destination: URL
    public var jobs = 8
    public var prune = false
    /// Keep only each block's newest version (`--latest-only`); by default every
    /// published version's archives are mirrored, as the metadata files list them.
    public var latestOnly = false
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Archives handed to the transport at a time. Each queued request costs a few URLs
    /// and a transfer job; batches keep that bounded for 20,000 archives, and cost only
    /// a brief drain at each batch's end.
    var batchSize = 1000
    /// `--key` and `--allow-expired`: how a signed upstream is checked (`MirrorSignature`).
    public var signature = MirrorSignature()

    init(upstream: MirrorUpstream, destination: URL) {
        self.upstream = upstream
        self.destination = destination
    }

    /// The upstream for a SOURCE argument: an http(s) URL or a registry folder, spelled
    /// any way `--registry` takes it (`RegistryLocation`).
    public static func make(source: String, destination: URL, access: RegistryAccess) throws -> Mirror {
        switch try RegistryLocation(source) {
        case .remote(let base):
            return Mirror(upstream: HTTPMirrorUpstream(base: base, transport: access.transport), destination: destination)
        case .local(let path):
            return try folderMirror(access.paths.resolve(path), source: source, destination: destination)
        case .fetched(let scheme, let location):
            return try folderMirror(RegistrySources.fetchedFolder(scheme: scheme, location: location, access: access), source: source, destination: destination)
        case .embedded, .remoteArchive:
            throw MirrorError.unreadableSource(source)
        }
    }

    /// A built registry in a folder on this machine, mirrored file by file.
    private static func folderMirror(_ folder: URL, source: String, destination: URL) throws -> Mirror {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.json").path) else {
            throw MirrorError.unreadableSource(source)
        }
        return Mirror(upstream: FolderMirrorUpstream(root: folder), destination: destination)
    }

    var indexFile: URL { destination.appendingPathComponent("index.json") }

    public func sync() throws -> Summary {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        let lock = try MirrorLock(destination: destination)
        defer { withExtendedLifetime(lock) {} }
        try Self.checkOwnFolders(in: destination)
        removeLeftoverParts()
        let state = try MirrorState.open(in: destination)
        let haveIndex = FileManager.default.fileExists(atPath: indexFile.path)
        var summary = Summary()
        // Metadata written in the other mode, or before versions were mirrored, is fetched again.
        let trusted = state.mode == mode

        guard
            let (plan, etag, signature) = try readIndex(
                ifNoneMatch: haveIndex && trusted ? state.etag : nil, trustingDest: trusted, state: state, summary: &summary)
        else {
            // Unchanged upstream: one conditional request, plus a stat per archive to catch damage.
            let folder = destination.path
            var damaged: [(path: String, sha256: String)] = []
            state.forEachRecord { path, record in
                // A --latest-only mirror's metadata files are cut from upstream's, so fetching
                // one again here would list versions it does not hold: the next change repairs them.
                if !MirrorState.matches(record, atPath: folder + "/" + path) && !(latestOnly && path.hasPrefix("blocks/")) {
                    damaged.append((path, record.sha256))
                }
            }
            // --prune still applies: files the unchanged index does not list may be here.
            if prune { summary.pruned = try pruneAgainstLocalIndex(state: state) }
            if damaged.isEmpty {
                summary.upToDate = true
                summary.skipped = state.count
                return summary
            }
            try download(damaged, state: state, summary: &summary)
            summary.skipped = state.count - summary.fetched
            try state.save()
            return summary
        }

        summary.skippedNames = plan.skippedNames
        return try apply(plan, etag: etag, signature: signature, state: state, summary: &summary)
    }

    /// Makes DEST's own folder, `.blocks-mirror`, a real folder, and refuses to work through
    /// a link at `archives/` or `blocks/`. The mirror deletes inside all three (its staging
    /// folder, leftover `.part` files, pruned archives), so a link there, carried in with a
    /// copied folder, would let it delete outside DEST. `.blocks-mirror` holds only what
    /// the mirror can rebuild, so a link or file in its place is replaced, never followed.
    static func checkOwnFolders(in destination: URL) throws {
        let own = destination.appendingPathComponent(".blocks-mirror").path
        var info = stat()
        if lstat(own, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            guard unlink(own) == 0 else {
                throw MirrorError.unwritable(
                    destination: destination.path, reason: "cannot replace \(own), which is not a folder: \(String(cString: strerror(errno)))")
            }
        }
        if lstat(own, &info) != 0, mkdir(own, 0o755) != 0 {
            throw MirrorError.unwritable(destination: destination.path, reason: "cannot create \(own): \(String(cString: strerror(errno)))")
        }
        for name in ["archives", "blocks", "assets"] {
            let path = destination.appendingPathComponent(name).path
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { throw MirrorError.linkedFolder(path: path) }
        }
    }

    /// The upstream index as a plan, or nil when it is unchanged since `etag`. The index is
    /// read one entry at a time, and its bytes are staged and let go when this returns,
    /// before any archive is fetched, so memory stays flat however large it is.
    /// A signed index (or any, with `--key`) comes with its signature, checked here.
    /// A split index's parts are fetched here, before the plan, which reads its digest files.
    private func readIndex(
        ifNoneMatch etag: String?, trustingDest: Bool, state: MirrorState, summary: inout Summary
    ) throws -> (plan: MirrorPlan, etag: String?, signature: Data?)? {
        guard let fetched = try upstream.fetchIndex(ifNoneMatch: etag) else { return nil }
        let copied = signature.keys.isEmpty && !MirrorSignature.looksSigned(fetched.data) ? nil : try upstreamSignature()
        let location = upstream.url(for: "index.json")
        try signature.check(index: fetched.data, signature: copied, location: location, destination: destination)
        let plan: MirrorPlan
        do {
            plan = try MirrorPlan.read(fetched.data, location: location, destination: destination, latestOnly: latestOnly, trustingDest: trustingDest)
        } catch MirrorError.splitIndex {
            plan = try splitPlan(fetched.data, trustingDest: trustingDest, state: state, summary: &summary)
        }
        return (plan, fetched.etag, copied)
    }

    /// How the state file names this run's mode.
    var mode: String { latestOnly ? "latest-only" : "every-version" }

    /// Fetches what the plan lacks, and the site's files when the upstream has a site,
    /// then puts the staged metadata and index in place.
    private func apply(_ plan: MirrorPlan, etag: String?, signature copied: Data?, state: MirrorState, summary: inout Summary) throws -> Summary {
        var plan = plan
        state.beginListing()
        // A split index's parts that the index it replaces lists stay, as `build` keeps them.
        let previousLayout = plan.split.flatMap { _ in localSplitLayout() }
        var failures = MirrorError.FetchFailures.none(hasSnapshot: FileManager.default.fileExists(atPath: indexFile.path))
        if let split = plan.split {
            try fetchSplitBlocks(split, state: state, summary: &summary, failures: &failures)
        } else {
            try plan.fetchPendingMetadata(from: upstream, destination: destination, jobs: jobs)
            for path in plan.metadata { state.markListed(path) }
        }
        let site = try upstreamSite()
        download(listed: plan.archives + (site?.files ?? []), state: state, summary: &summary, failures: &failures)
        try finish(failures, state: state, summary: summary)
        if let split = plan.split { try writePartGzips(split.layout) }
        if let site { try AtomicFile.write(site.data, to: destination.appendingPathComponent(SiteBuilder.manifestPath)) }
        // A signed index's metadata, staged or kept, is what it signed, before anything moves.
        // Only a signed index lists their hashes, and its last bytes say whether it is one,
        // so an unsigned index (20 MB for 10,000 blocks, most of the peak memory) is not
        // read a second time.
        let staging = MirrorPlan.stagingFolder(in: destination)
        let stagedIndex = staging.appendingPathComponent("index.json").path
        if MirrorSignature.looksSigned(FileDescriptorIO.readTail(stagedIndex, count: MirrorSignature.signedTailLength) ?? Data()) {
            let index = FileManager.default.contents(atPath: stagedIndex) ?? Data()
            try MirrorSignature.checkMetadata(index: index, location: upstream.url(for: "index.json")) { path in
                FileManager.default.contents(atPath: staging.path + "/" + path) ?? FileManager.default.contents(atPath: destination.path + "/" + path)
            }
        }
        // The signature, copied byte for byte, goes in just before the index it signs.
        let signatureFile = destination.appendingPathComponent(MirrorSignature.file)
        if let copied { try AtomicFile.write(copied, to: signatureFile) } else { unlink(signatureFile.path) }
        // The index goes in last: from now on it names only verified archives.
        try state.checkWrites()
        try plan.commit(destination: destination)
        if let split = plan.split { finishSplit(split, previous: previousLayout, state: state) }
        state.keepOnlyListed()
        state.etag = etag
        state.mode = mode
        if prune { summary.pruned = try pruneUnlisted(state: state) }
        try state.save()
        return summary
    }

    /// The upstream's `index.json.minisig`, or nil when it has none.
    func upstreamSignature() throws -> Data? {
        try upstream.fetchOptional(MirrorSignature.file, maxBytes: Int64(MinisignSignature.maximumBytes))
    }

    /// Fetches archives through `.part` files, in batches. On any failure the index is not touched.
    func download(_ wanted: [(path: String, sha256: String)], state: MirrorState, summary: inout Summary) throws {
        var failures = MirrorError.FetchFailures.none(hasSnapshot: FileManager.default.fileExists(atPath: indexFile.path))
        download(wanted, state: state, summary: &summary, failures: &failures)
        try finish(failures, state: state, summary: summary)
    }

    /// Fetches the files of `listed` this run has not listed yet (`MirrorState.markListed`)
    /// and DEST does not hold verified. A file whose record is gone but whose bytes have
    /// the listed hash is recorded, not fetched.
    func download(listed: [(path: String, sha256: String)], state: MirrorState, summary: inout Summary, failures: inout MirrorError.FetchFailures) {
        let folder = destination.path
        var wanted: [(path: String, sha256: String)] = []
        for file in listed where state.markListed(file.path) {
            if state.isIntact(file.path, sha256: file.sha256, inFolder: folder) {
                summary.skipped += 1
            } else if MirrorState.stamp(path: folder + "/" + file.path) != nil,
                let actual = try? SHA256.hex(fileAt: URL(fileURLWithPath: folder + "/" + file.path, isDirectory: false)),
                actual == file.sha256
            {
                state.record(file.path, sha256: file.sha256, in: destination)
                summary.skipped += 1
            } else {
                wanted.append(file)
            }
        }
        download(wanted, state: state, summary: &summary, failures: &failures)
    }

    /// Throws the failures of a run, if any, keeping what was verified so a retry does
    /// not fetch it again.
    func finish(_ failures: MirrorError.FetchFailures, state: MirrorState, summary: Summary) throws {
        guard failures.count > 0 else { return }
        try? state.save()
        var failures = failures
        failures.fetched = summary.fetched
        throw MirrorError.fetchFailed(failures)
    }

    /// Fetches archives through `.part` files, in batches, adding what failed to `failures`.
    func download(
        _ wanted: [(path: String, sha256: String)], state: MirrorState, summary: inout Summary, failures: inout MirrorError.FetchFailures
    ) {
        guard !wanted.isEmpty else { return }
        try? FileManager.default.createDirectory(at: destination.appendingPathComponent("archives"), withIntermediateDirectories: true)
        failures.wanted += wanted.count
        let folder = destination.path
        var first = 0
        // The bar counts on from earlier calls of this run: a split index's blocks come a
        // digest file at a time, so the total grows as the run goes.
        let filesBefore = summary.fetched
        var bytesBefore = summary.bytes
        let total = filesBefore + wanted.count
        while first < wanted.count {
            let batch = wanted[first..<min(first + max(1, batchSize), wanted.count)]
            let downloads = batch.map { item in
                HTTPDownload(
                    request: HTTPRequest(url: upstream.url(for: item.path), maxBodyBytes: Self.maximumArchiveBytes),
                    destination: URL(fileURLWithPath: folder + "/" + item.path, isDirectory: false), expectedSHA256: item.sha256)
            }
            var batchProgress: (@Sendable (TransferProgress) -> Void)?
            if let report = progress {
                let done = filesBefore + first
                let bytesDone = bytesBefore
                batchProgress = { step in
                    report(TransferProgress(filesDone: done + step.filesDone, filesTotal: total, bytesDone: bytesDone + step.bytesDone))
                }
            }
            let results = upstream.fetch(downloads, jobs: jobs, progress: batchProgress)
            for (item, result) in zip(batch, results) {
                switch result {
                case .success:
                    let size = state.record(item.path, sha256: item.sha256, in: destination) ?? 0
                    summary.fetched += 1
                    summary.bytes += size
                    bytesBefore += size
                case .failure(let error):
                    failures.count += 1
                    if failures.shown.count < MirrorError.FetchFailures.shownLimit {
                        failures.shown.append("\(item.path): \(error.description)")
                    }
                }
            }
            first += batch.count
        }
    }

    /// The largest archive the mirror fetches, so a hostile upstream cannot fill the disk
    /// with one endless body.
    static let maximumArchiveBytes: Int64 = TransferLimits.maximumArchiveBytes

    /// The largest `site.json` the mirror reads: about 200,000 listed files.
    static let maximumSiteManifestBytes: Int64 = 32 * 1024 * 1024

    /// The upstream's `site.json` (`blocks build --site`) and the files it lists, or nil
    /// when the upstream has no site. Its files are fetched like archives, checked
    /// against their SHA-256, before the index moves; a listed path that leaves the
    /// registry makes the whole list invalid.
    func upstreamSite() throws -> (data: Data, files: [(path: String, sha256: String)])? {
        guard let data = try upstream.fetchOptional(SiteBuilder.manifestPath, maxBytes: Self.maximumSiteManifestBytes) else { return nil }
        guard let manifest = SiteBuilder.decodeManifest(data) else {
            throw RegistryError.invalidIndex(
                location: upstream.url(for: SiteBuilder.manifestPath), reason: "it is not a site manifest with safe relative paths")
        }
        return (data, manifest.files.map { ($0.path, $0.sha256) })
    }

    /// The site files DEST's own `site.json` lists.
    func localSitePaths() -> [String] {
        guard let data = FileManager.default.contents(atPath: destination.appendingPathComponent(SiteBuilder.manifestPath).path) else { return [] }
        return SiteBuilder.decodeManifest(data)?.files.map(\.path) ?? []
    }

    /// `pruneUnlisted` against the mirror's own index, for a sync whose upstream is
    /// unchanged. The state's records are not trusted for this: deleting is only done for
    /// what the index does not list.
    func pruneAgainstLocalIndex(state: MirrorState) throws -> Int {
        guard let data = FileManager.default.contents(atPath: indexFile.path) else { return 0 }
        state.beginListing()
        for path in localSitePaths() { state.markListed(path) }
        if let layout = localSplitLayout() {
            for part in layout.files { state.markListed(part.path) }
            guard try markLocalSplitBlocksListed(layout, state: state, location: indexFile.path) else { return 0 }
            return try pruneUnlisted(state: state)
        }
        let location = indexFile.path
        for (position, range) in try MirrorIndexReader.scan(data, location: location).entries.enumerated() {
            let entry = try MirrorIndexReader.entry(from: data, range: range, position: position, location: location)
            guard entry.hasValidName else { continue }
            state.markListed(entry.metadata)
            // Without its metadata file there is no telling which older archives are this
            // block's, so nothing is deleted.
            guard let held = MirrorPlan.heldArchives(of: entry, in: destination) else { return 0 }
            for archive in held { state.markListed(archive.path) }
        }
        return try pruneUnlisted(state: state)
    }

    /// Removes archives and metadata files this run's index does not list
    /// (`MirrorState.markListed`), and nothing when the list could not be written whole.
    /// Returns how many archives went.
    func pruneUnlisted(state: MirrorState) throws -> Int {
        try state.checkWrites()
        var removed = 0
        let archives = destination.appendingPathComponent("archives")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: archives.path)) ?? [] {
            let path = "archives/\(name)"
            guard !state.isListed(path), ArchiveFormat.forFile(name) != nil else { continue }
            if (try? FileManager.default.removeItem(at: archives.appendingPathComponent(name))) != nil { removed += 1 }
        }
        let blocks = destination.appendingPathComponent("blocks")
        // A site page's folder, `blocks/<name>/`, stays while the site lists its page.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: blocks.path)) ?? []
        where !state.isListed("blocks/\(name)") && !state.isListed("blocks/\(name.dropLast(".gz".count))")
            && !state.isListed(SiteBuilder.pagePath(name))
        {
            try? FileManager.default.removeItem(at: blocks.appendingPathComponent(name))
        }
        return removed
    }

    /// `.part` files are only ever in flight under the lock, so any found now are from a killed run.
    func removeLeftoverParts() {
        try? FileManager.default.removeItem(at: MirrorPlan.stagingFolder(in: destination))
        let archives = destination.appendingPathComponent("archives")
        for folder in [archives, destination.appendingPathComponent("index")] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".part") {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    /// Re-hashes every archive the index names, and every site file `site.json` lists, and
    /// with pinned keys checks the signature and version too. Bad files are marked damaged,
    /// so the next sync fetches them again even when the upstream index is unchanged. The
    /// two are counted apart: a site file is no archive.
    public static func verify(destination: URL, signature: MirrorSignature = MirrorSignature()) throws -> (archives: Int, siteFiles: Int, problems: [String]) {
        // Checked first, so that a folder that is no mirror gets no lock file.
        guard FileManager.default.fileExists(atPath: destination.appendingPathComponent("index.json").path) else {
            throw MirrorError.notAMirror(destination: destination.path)
        }
        let lock = try MirrorLock(destination: destination)
        defer { withExtendedLifetime(lock) {} }
        try checkOwnFolders(in: destination)
        guard let data = FileManager.default.contents(atPath: destination.appendingPathComponent("index.json").path) else {
            throw MirrorError.notAMirror(destination: destination.path)
        }
        let location = destination.appendingPathComponent("index.json").path
        let state = try MirrorState.open(in: destination)
        var problems = signature.problems(destination: destination)
        var checked = 0
        var siteFiles = 0
        try forEachHeldGroup(index: data, destination: destination, location: location, unreadable: { problems.append($0) }) { held in
            for archive in held {
                guard RelativePath.isSafe(archive.path) else {
                    throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
                }
                checked += 1
                let url = destination.appendingPathComponent(archive.path)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    problems.append("\(archive.path): missing")
                    state.markDamaged(archive.path, sha256: archive.sha256)
                    continue
                }
                let actual = (try? SHA256.hex(fileAt: url)) ?? "unreadable"
                if actual == archive.sha256 {
                    state.record(archive.path, sha256: archive.sha256, in: destination)
                } else {
                    problems.append("\(archive.path): SHA-256 is \(actual), the index says \(archive.sha256)")
                    state.markDamaged(archive.path, sha256: archive.sha256)
                }
            }
        }
        // The site's files, as DEST's site.json lists them.
        let siteManifest = FileManager.default.contents(atPath: destination.appendingPathComponent(SiteBuilder.manifestPath).path)
        for file in siteManifest.flatMap(SiteBuilder.decodeManifest)?.files ?? [] {
            siteFiles += 1
            let url = destination.appendingPathComponent(file.path)
            let actual = FileManager.default.fileExists(atPath: url.path) ? ((try? SHA256.hex(fileAt: url)) ?? "unreadable") : nil
            if actual == file.sha256 {
                state.record(file.path, sha256: file.sha256, in: destination)
            } else {
                problems.append(actual.map { "\(file.path): SHA-256 is \($0), site.json says \(file.sha256)" } ?? "\(file.path): missing")
                state.markDamaged(file.path, sha256: file.sha256)
            }
        }
        try state.save()
        return (checked, siteFiles, problems)
    }
}
