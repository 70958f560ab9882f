/// The mirror of a split index (`SplitIndex`, schemaVersion 3).
///
/// Its parts are named by their hashes and never change in place, so they are fetched
/// like archives, straight into `index/` through checked `.part` files, before the plan:
/// nothing names them until the new `index.json` moves in. The digest files then say
/// which metadata files changed, in place of the entries of a whole index: a metadata file
/// whose digest the state already records is kept, any other is fetched and checked
/// against its digest. They are read a digest file at a time, so memory holds 500 blocks
/// however many the registry has. The files of the `index.json` before stay, as `build`
/// keeps them, for a client that read it; older ones go.
extension Mirror {
    /// Fetches the split index's parts and stages `index.json` as `MirrorPlan.read` does.
    /// The blocks are planned later, a digest file at a time (`fetchSplitBlocks`).
    func splitPlan(_ indexData: Data, trustingDest: Bool, state: MirrorState, summary: inout Summary) throws -> MirrorPlan {
        let location = upstream.url(for: "index.json")
        guard let layout = try RegistryIndex.decode(indexData, location: location).split else {
            throw RegistryError.invalidIndex(location: location, reason: "missing its split index")
        }
        let staging = MirrorPlan.stagingFolder(in: destination)
        try? FileManager.default.removeItem(at: staging)
        try FileManager.default.createDirectory(at: destination.appendingPathComponent("index"), withIntermediateDirectories: true)
        let parts = Self.unique(layout.files)
        let folder = destination.path
        deriveFromFeed(layout, state: state)
        // The plan reads the digest files, not the ranges: those come after the blocks'
        // files, with the archives (`apply`), still before the index.
        let ranges = Set(layout.ranges.map(\.file.path))
        let needed = parts.filter { !ranges.contains($0.path) && !state.isIntact($0.path, sha256: $0.sha256, inFolder: folder) }
        try download(needed.map { ($0.path, $0.sha256) }, state: state, summary: &summary)

        var plan = MirrorPlan()
        plan.latestOnly = latestOnly
        // Parts count as files the mirror holds: already here, so the plan skips them.
        for part in parts { try plan.addArchives(of: [part.path: part.asArchive], location: location) }
        plan.split = MirrorPlan.Split(layout: layout, trustingDest: trustingDest)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try AtomicFile.write(try Zlib.gzip(indexData), to: staging.appendingPathComponent(RegistryBuilder.gzipPath("index.json")))
        try AtomicFile.write(indexData, to: staging.appendingPathComponent("index.json"))
        return plan
    }

    /// Plans, fetches and stages the blocks of a split index one digest file at a time, so
    /// memory holds one digest file's blocks however many the registry has. A metadata
    /// file whose digest the state records is kept, any other is fetched and checked
    /// against its digest; then the archives its versions list are fetched. Archives that
    /// fail are added to `failures` and the next digest file goes on; a metadata file that
    /// fails stops the run after its digest file, before that file's archives.
    func fetchSplitBlocks(_ split: MirrorPlan.Split, state: MirrorState, summary: inout Summary, failures: inout MirrorError.FetchFailures) throws {
        let location = upstream.url(for: "index.json")
        let folder = destination.path
        for digestFile in split.layout.digestFiles {
            var plan = MirrorPlan()
            plan.latestOnly = latestOnly
            for (path, digest) in try Self.digests(of: digestFile.file, in: destination, location: location).sorted(by: { $0.key < $1.key }) {
                let name = String(path.dropFirst("blocks/".count).dropLast(".json".count))
                guard path == "blocks/\(name).json", ManifestValidator.isValidName(name) else {
                    summary.skippedNames.append(name)
                    continue
                }
                state.markListed(path)
                if split.trustingDest, state.isIntact(path, sha256: digest.sha256, inFolder: folder),
                    let data = FileManager.default.contents(atPath: folder + "/" + path), let held = try? BlockMetadata.decode(data)
                {
                    for version in held.versions { try plan.addArchives(of: version.archives, location: location) }
                    continue
                }
                state.noteDerived(path, sha256: digest.sha256)
                plan.pending.append(PendingMetadata(path: path, name: name, entrySHA256: "", expected: digest))
            }
            do {
                try plan.fetchPendingMetadata(from: upstream, destination: destination, jobs: jobs)
            } catch {
                // The metadata file's error is the one that stopped the run; what the
                // digest files before it verified is kept for the next run.
                try? state.save()
                throw error
            }
            download(listed: plan.archives, state: state, summary: &summary, failures: &failures)
        }
    }

    /// Writes into `index/` the digest files the new index lists and DEST lacks, when
    /// DEST's own and the change feed give them exactly (`SplitIndexFeed`): a mirror that
    /// is one build behind then fetches `index.json` and the feed, and after them the
    /// changed blocks' metadata files and archives. A changed range is fetched, after
    /// those: deriving one decodes its 10,000 entries (about 55 MiB of a mirror's memory),
    /// and the mirror reads none of them.
    func deriveFromFeed(_ layout: SplitIndex.Layout, state: MirrorState) {
        let folder = destination.path
        let held = { (part: SplitIndex.FileReference) in part.contents(atPath: folder + "/" + part.path) }
        let missing = layout.digestFiles.filter { held($0.file) == nil }
        guard !missing.isEmpty, let previous = localSplitLayout(), SplitIndexFeed.canDerive(layout, from: previous),
            let feedData = try? upstream.fetchFiles([layout.feed.path], jobs: 1).first?.get(), SHA256.hex(feedData) == layout.feed.sha256
        else { return }
        let derived = SplitIndexFeed.derive(missing, of: layout, from: previous, feed: feedData, read: held)
        for (part, data) in [(layout.feed, feedData)] + derived {
            guard (try? AtomicFile.write(data, to: destination.appendingPathComponent(part.path))) != nil else { continue }
            state.record(part.path, sha256: part.sha256, in: destination)
        }
    }

    /// Writes the `.gz` beside each part that lacks one, with the build's own gzip step.
    func writePartGzips(_ layout: SplitIndex.Layout) throws {
        let folder = destination.path
        for part in Self.unique(layout.files) where access(folder + "/" + RegistryBuilder.gzipPath(part.path), F_OK) != 0 {
            guard let data = FileManager.default.contents(atPath: folder + "/" + part.path) else { continue }
            try AtomicFile.write(try RegistryBuilder.gzip(data, path: part.path), to: destination.appendingPathComponent(RegistryBuilder.gzipPath(part.path)))
        }
    }

    /// After the new `index.json` moved in: records each metadata file staged from its
    /// upstream digest (with `--latest-only`, the file cut from it) as derived from it, so
    /// the next sync keeps it, and removes the parts neither it nor the one before lists.
    func finishSplit(_ split: MirrorPlan.Split, previous: SplitIndex.Layout?, state: MirrorState) {
        state.recordDerived(in: destination)
        SplitIndex.removeUnlistedParts(in: destination, keeping: split.layout.files + (previous?.files ?? []))
    }

    /// DEST's own split index, or nil when it has none.
    func localSplitLayout() -> SplitIndex.Layout? { Self.splitLayout(in: destination) }

    static func splitLayout(in destination: URL) -> SplitIndex.Layout? {
        let file = destination.appendingPathComponent("index.json")
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return (try? RegistryIndex.decode(data, location: file.path))?.split
    }

    /// Marks every block of DEST's split index listed: its metadata path and every archive
    /// its metadata file lists. False when one is missing or unreadable, as nothing can
    /// then be judged.
    func markLocalSplitBlocksListed(_ layout: SplitIndex.Layout, state: MirrorState, location: String) throws -> Bool {
        for digestFile in layout.digestFiles {
            for path in try Self.digests(of: digestFile.file, in: destination, location: location).keys.sorted() {
                guard let data = FileManager.default.contents(atPath: destination.path + "/" + path), let held = try? BlockMetadata.decode(data) else { return false }
                state.markListed(path)
                for archive in held.versions.flatMap(\.archives.values) + held.entry.archives.values { state.markListed(archive.path) }
            }
        }
        return true
    }

    /// The files `verify` checks for each block of DEST's index, handed to `body` a block
    /// at a time: every archive its metadata file lists, and for a split index first each
    /// part, as a group of its own. A block whose metadata file is missing or unreadable
    /// goes to `unreadable` as a problem instead.
    static func forEachHeldGroup(
        index data: Data, destination: URL, location: String, unreadable: (String) -> Void, _ body: ([RegistryArchive]) throws -> Void
    ) throws {
        if let layout = splitLayout(in: destination) {
            try body(unique(layout.files).map(\.asArchive))
            for digestFile in layout.digestFiles {
                for path in try digests(of: digestFile.file, in: destination, location: location).keys.sorted() {
                    guard let file = FileManager.default.contents(atPath: destination.path + "/" + path), let held = try? BlockMetadata.decode(file) else {
                        unreadable("\(path): missing or not valid metadata")
                        continue
                    }
                    try body(held.versions.flatMap(\.archives.values) + held.entry.archives.values)
                }
            }
            return
        }
        for (position, range) in try MirrorIndexReader.scan(data, location: location).entries.enumerated() {
            let entry = try MirrorIndexReader.entry(from: data, range: range, position: position, location: location)
            guard entry.hasValidName else { continue }
            guard let archives = MirrorPlan.heldArchives(of: entry, in: destination) else {
                unreadable("\(entry.metadata): missing or not valid metadata")
                continue
            }
            try body(archives)
        }
    }

    /// A digest file in DEST, checked against its hash (it was fetched checked, but DEST's
    /// files may since have been changed), decoded.
    static func digests(of file: SplitIndex.FileReference, in destination: URL, location: String) throws -> [String: RegistryFileDigest] {
        guard let data = file.contents(atPath: destination.path + "/" + file.path) else {
            throw RegistryError.invalidIndex(location: location, reason: "\(file.path) is missing or is not the file index.json lists")
        }
        do throws(RegistryEntryProblem) {
            return try SplitIndexColumns.digests(ofDigestFile: data, path: file.path)
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: error.reason)
        }
    }

    static func unique(_ files: [SplitIndex.FileReference]) -> [SplitIndex.FileReference] {
        var seen: Set<String> = []
        return files.filter { seen.insert($0.path).inserted }
    }
}
