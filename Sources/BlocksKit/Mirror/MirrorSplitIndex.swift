/// The mirror of a split index (`SplitIndex`, schemaVersion 3).
///
/// Its parts are named by their hashes and never change in place, so they are fetched
/// like archives, straight into `index/` through checked `.part` files, before the plan:
/// nothing names them until the new `index.json` moves in. The digest files then say
/// which metadata files changed, in place of the entries of a whole index: a metadata file
/// whose digest the state file already records is kept, any other is fetched and checked
/// against its digest. The files of the `index.json` before stay, as `build` keeps them,
/// for a client that read it; older ones go.
extension Mirror {
    /// Fetches the split index's parts and plans the metadata files and archives, staging
    /// `index.json` as `MirrorPlan.read` does.
    func splitPlan(_ indexData: Data, trustingDest: Bool, state: inout MirrorState, summary: inout Summary) throws -> MirrorPlan {
        let location = upstream.url(for: "index.json")
        guard let layout = try RegistryIndex.decode(indexData, location: location).split else {
            throw RegistryError.invalidIndex(location: location, reason: "missing its split index")
        }
        let staging = MirrorPlan.stagingFolder(in: destination)
        try? FileManager.default.removeItem(at: staging)
        try FileManager.default.createDirectory(at: destination.appendingPathComponent("index"), withIntermediateDirectories: true)
        let parts = Self.unique(layout.files)
        let folder = destination.path
        deriveFromFeed(layout, state: &state)
        try download(parts.filter { !state.isIntact($0.path, sha256: $0.sha256, inFolder: folder) }.map { ($0.path, $0.sha256) }, state: &state, summary: &summary)
        for part in parts where access(folder + "/" + RegistryBuilder.gzipPath(part.path), F_OK) != 0 {
            guard let data = FileManager.default.contents(atPath: folder + "/" + part.path) else { continue }
            try AtomicFile.write(try RegistryBuilder.gzip(data, path: part.path), to: destination.appendingPathComponent(RegistryBuilder.gzipPath(part.path)))
        }

        var plan = MirrorPlan()
        plan.latestOnly = latestOnly
        var split = MirrorPlan.Split(layout: layout)
        // Parts count as files the mirror holds: already here, so the plan skips them.
        for part in parts { try plan.addArchives(of: [part.path: part.asArchive], location: location) }
        for digestFile in layout.digestFiles {
            for (path, digest) in try Self.digests(of: digestFile.file, in: destination, location: location).sorted(by: { $0.key < $1.key }) {
                let name = String(path.dropFirst("blocks/".count).dropLast(".json".count))
                guard path == "blocks/\(name).json", ManifestValidator.isValidName(name) else {
                    plan.skippedNames.append(name)
                    continue
                }
                plan.metadata.insert(path)
                split.digests[path] = digest.sha256
                if trustingDest, state.isIntact(path, sha256: digest.sha256, inFolder: folder),
                    let data = FileManager.default.contents(atPath: folder + "/" + path), let held = try? BlockMetadata.decode(data)
                {
                    for version in held.versions { try plan.addArchives(of: version.archives, location: location) }
                    continue
                }
                plan.pending.append(PendingMetadata(path: path, name: name, entrySHA256: "", expected: digest))
            }
        }
        plan.split = split
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try AtomicFile.write(try Zlib.gzip(indexData), to: staging.appendingPathComponent(RegistryBuilder.gzipPath("index.json")))
        try AtomicFile.write(indexData, to: staging.appendingPathComponent("index.json"))
        return plan
    }

    /// Writes into `index/` the ranges and digest files the new index lists and DEST lacks,
    /// when DEST's own parts and the change feed give them exactly (`SplitIndexFeed`): a
    /// mirror that is one build behind then fetches `index.json` and the feed, and after
    /// them only the changed blocks' metadata files and archives.
    func deriveFromFeed(_ layout: SplitIndex.Layout, state: inout MirrorState) {
        let folder = destination.path
        let held = { (part: SplitIndex.FileReference) in part.contents(atPath: folder + "/" + part.path) }
        let missing = (layout.ranges + layout.digestFiles).filter { held($0.file) == nil }
        guard !missing.isEmpty, let previous = localSplitLayout(), SplitIndexFeed.canDerive(layout, from: previous),
            let feedData = try? upstream.fetchFiles([layout.feed.path], jobs: 1).first?.get(), SHA256.hex(feedData) == layout.feed.sha256
        else { return }
        let derived = SplitIndexFeed.derive(missing, of: layout, from: previous, feed: feedData, read: held)
        for (part, data) in [(layout.feed, feedData)] + derived {
            guard (try? AtomicFile.write(data, to: destination.appendingPathComponent(part.path))) != nil else { continue }
            state.record(part.path, sha256: part.sha256, in: destination)
        }
    }

    /// After the new `index.json` moved in: records each metadata file as derived from its
    /// upstream digest (with `--latest-only`, the file cut from it), so the next sync keeps
    /// it, and removes the parts neither it nor the one before lists.
    func finishSplit(_ split: MirrorPlan.Split, previous: SplitIndex.Layout?, state: inout MirrorState) {
        for (path, sha256) in split.digests where !state.isIntact(path, sha256: sha256, in: destination) {
            state.record(path, sha256: sha256, in: destination)
        }
        SplitIndex.removeUnlistedParts(in: destination, keeping: split.layout.files + (previous?.files ?? []))
    }

    /// DEST's own split index, or nil when it has none.
    func localSplitLayout() -> SplitIndex.Layout? { Self.splitLayout(in: destination) }

    static func splitLayout(in destination: URL) -> SplitIndex.Layout? {
        let file = destination.appendingPathComponent("index.json")
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return (try? RegistryIndex.decode(data, location: file.path))?.split
    }

    /// Each block of DEST's split index: its metadata path and every archive its metadata
    /// file lists; nil when one is missing or unreadable, as nothing can then be judged.
    func localSplitBlocks(_ layout: SplitIndex.Layout, location: String) throws -> [(metadata: String, archives: [RegistryArchive])]? {
        var blocks: [(metadata: String, archives: [RegistryArchive])] = []
        for digestFile in layout.digestFiles {
            for path in try Self.digests(of: digestFile.file, in: destination, location: location).keys.sorted() {
                guard let data = FileManager.default.contents(atPath: destination.path + "/" + path), let held = try? BlockMetadata.decode(data) else { return nil }
                blocks.append((path, held.versions.flatMap(\.archives.values) + held.entry.archives.values))
            }
        }
        return blocks
    }

    /// The files `verify` checks for each block of DEST's index: every archive its metadata
    /// file lists, and for a split index also each part, as a group of its own.
    static func heldFiles(index data: Data, destination: URL, location: String, problems: inout [String]) throws -> [[RegistryArchive]] {
        if let layout = splitLayout(in: destination) {
            var groups = [unique(layout.files).map(\.asArchive)]
            for digestFile in layout.digestFiles {
                for path in try digests(of: digestFile.file, in: destination, location: location).keys.sorted() {
                    guard let file = FileManager.default.contents(atPath: destination.path + "/" + path), let held = try? BlockMetadata.decode(file) else {
                        problems.append("\(path): missing or not valid metadata")
                        continue
                    }
                    groups.append(held.versions.flatMap(\.archives.values) + held.entry.archives.values)
                }
            }
            return groups
        }
        var groups: [[RegistryArchive]] = []
        for (position, range) in try MirrorIndexReader.scan(data, location: location).entries.enumerated() {
            let entry = try MirrorIndexReader.entry(from: data, range: range, position: position, location: location)
            guard entry.hasValidName else { continue }
            guard let archives = MirrorPlan.heldArchives(of: entry, in: destination) else {
                problems.append("\(entry.metadata): missing or not valid metadata")
                continue
            }
            groups.append(archives)
        }
        return groups
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
