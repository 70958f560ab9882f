/// What a new upstream index asks of DEST, worked out one entry at a time so that no
/// more than one decoded manifest is in memory.
///
/// Reading the index checks every entry and writes each changed per-block metadata file,
/// and the index itself, into a staging folder (`.blocks-mirror/incoming`). A split index's
/// blocks are planned the same way, a digest file at a time (`Mirror.fetchSplitBlocks`). Nothing in
/// DEST's registry changes until `commit`, which runs after every archive is verified:
/// metadata files are renamed into place, then the index, last.
struct MirrorPlan {
    /// Every archive the mirror is to hold, each once: every version's that the metadata
    /// files list (only the newest with `--latest-only`), in index order.
    var archives: [(path: String, sha256: String)] = []
    /// The paths in `archives`, so a version listed twice is fetched once.
    var archivePaths: Set<String> = []
    /// Every per-block metadata path a whole index names (a split index's are marked
    /// listed in the state as they are read, `MirrorState.markListed`).
    var metadata: Set<String> = []
    /// Entries skipped, archives, metadata and all, because their name is not a block
    /// name (`RegistryEntry.hasValidName`); the index itself is kept byte for byte.
    var skippedNames: [String] = []
    /// Metadata files to fetch from upstream (`MirrorVersions`): their entry in the index
    /// changed, or DEST does not have them as they are.
    var pending: [PendingMetadata] = []
    /// Whether the mirror keeps only each block's newest version.
    var latestOnly = false
    /// For a split index: its layout, whose blocks are planned a digest file at a time.
    var split: Split?

    struct Split {
        var layout: SplitIndex.Layout
        /// False when DEST's metadata files were written in another mode, so all are fetched again.
        var trustingDest: Bool
    }

    static func stagingFolder(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/incoming")
    }

    /// Checks `indexData` entry by entry and stages what changed. Throws on a broken index,
    /// leaving DEST's registry as it was.
    ///
    /// - Parameter trustingDest: false when DEST's metadata files were written in another
    ///   mode (or by a version that did not mirror every version), so all are fetched again.
    static func read(_ indexData: Data, location: String, destination: URL, latestOnly: Bool = false, trustingDest: Bool = true) throws -> MirrorPlan {
        let staging = stagingFolder(in: destination)
        try? FileManager.default.removeItem(at: staging)
        let (_, ranges) = try MirrorIndexReader.scan(indexData, location: location)
        var plan = MirrorPlan()
        plan.latestOnly = latestOnly
        var folders = FolderCache()
        // Paths are joined as text: `URL.appendingPathComponent` stats every result to
        // decide whether it is a folder, 20,000 system calls for a 10,000-block index.
        let destinationPath = destination.path
        let stagingPath = staging.path
        plan.archives.reserveCapacity(ranges.count * 2)
        // Entries are decoded and their metadata encoded on every core, a chunk at a time
        // so memory stays flat; files are written in order on this thread.
        let chunkSize = 512
        for chunkStart in stride(from: 0, to: ranges.count, by: chunkSize) {
            let positions = Array(chunkStart..<min(chunkStart + chunkSize, ranges.count))
            let decoded = ConcurrentMap.map(positions) { position in
                Result {
                    let entry = try MirrorIndexReader.entry(from: indexData, range: ranges[position], position: position, location: location)
                    let held =
                        trustingDest && entry.hasValidName && RelativePath.isSafe(entry.metadata)
                        ? Self.heldMetadata(of: entry, inFolder: destinationPath) : nil
                    return (entry, held)
                }
            }
            for result in decoded {
                let (entry, held) = try result.get()
                guard entry.hasValidName else {
                    plan.skippedNames.append(entry.manifest.name)
                    continue
                }
                try plan.addArchives(of: entry.archives, location: location)
                guard RelativePath.isSafe(entry.metadata) else { continue }
                plan.metadata.insert(entry.metadata)
                guard let held else {
                    plan.pending.append(PendingMetadata(path: entry.metadata, name: entry.manifest.name, entrySHA256: SHA256.hex(entry.stableJSON)))
                    continue
                }
                let kept = latestOnly ? held.newestOnly : held
                for version in kept.versions { try plan.addArchives(of: version.archives, location: location) }
                if kept != held {
                    try plan.stage(kept.stableJSON, at: entry.metadata, staging: stagingPath, folders: &folders)
                } else if access(destinationPath + "/" + RegistryBuilder.gzipPath(entry.metadata), F_OK) != 0 {
                    try plan.stage(gzipOf: held.stableJSON, at: entry.metadata, staging: stagingPath, folders: &folders)
                }
            }
        }
        try AtomicFile.write(try Zlib.gzip(indexData), to: staging.appendingPathComponent(RegistryBuilder.gzipPath("index.json")))
        try AtomicFile.write(indexData, to: staging.appendingPathComponent("index.json"))
        return plan
    }

    /// Adds archives to fetch, each path once, refusing one that leaves the registry.
    mutating func addArchives(of archives: [String: RegistryArchive], location: String) throws {
        for archive in archives.values.sorted(by: { $0.path < $1.path }) {
            guard RelativePath.isSafe(archive.path) else {
                throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
            }
            if archivePaths.insert(archive.path).inserted { self.archives.append((archive.path, archive.sha256)) }
        }
    }

    /// DEST's metadata file for the entry, when it describes exactly that entry (so its
    /// versions are current: publishing changes the newest entry); else nil.
    static func heldMetadata(of entry: RegistryEntry, inFolder folder: String) -> BlockMetadata? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + entry.metadata),
            let held = try? BlockMetadata.decode(data), held.entry == entry
        else { return nil }
        return held
    }

    /// Stages a metadata file and its `.gz`. A plain write: the staging folder is private
    /// to this run (under the lock, emptied at the start), and the rename into DEST is the
    /// atomic step.
    mutating func stage(_ data: Data, at path: String, staging: String, folders: inout FolderCache) throws {
        try stage(gzipOf: data, at: path, staging: staging, folders: &folders)
        let file = staging + "/" + path
        try Self.writePlain(data, to: file)
    }

    /// Stages only the `.gz` of a metadata file DEST already holds.
    mutating func stage(gzipOf data: Data, at path: String, staging: String, folders: inout FolderCache) throws {
        let gzipPath = RegistryBuilder.gzipPath(path)
        let file = staging + "/" + gzipPath
        try folders.create(Self.folder(of: file))
        try Self.writePlain(try Zlib.gzip(data), to: file)
    }

    /// Renames the staged metadata into place, then the index: from then on DEST's index
    /// names only verified archives.
    func commit(destination: URL) throws {
        let staging = Self.stagingFolder(in: destination)
        var folders = FolderCache()
        let stagingPath = staging.path
        let destinationPath = destination.path
        try Self.moveStaged("", staging: stagingPath, destination: destinationPath, folders: &folders)
        let indexGzip = RegistryBuilder.gzipPath("index.json")
        try Self.move(stagingPath + "/" + indexGzip, to: destinationPath + "/" + indexGzip, folders: &folders)
        try Self.move(stagingPath + "/index.json", to: destinationPath + "/index.json", folders: &folders)
        try? FileManager.default.removeItem(at: staging)
    }

    /// Writes without a temporary file or a flush (Foundation's `Data.write` flushes
    /// every file, which costs seconds for 10,000 of them).
    static func writePlain(_ data: Data, to file: String) throws {
        let failure = FileDescriptorIO.writeFile(data, to: file, flags: O_CREAT | O_TRUNC, mode: 0o644)
        if failure != 0 { throw AtomicFile.Failure(path: file, reason: String(cString: strerror(failure))) }
    }

    /// Moves every file under the staging folder to the same place in DEST, in each folder
    /// every `.gz` before the file it compresses, and leaves `index.json` and its `.gz` for
    /// last. Walked rather than listed, so a run that staged 100,000 metadata files holds
    /// no list of them.
    private static func moveStaged(_ relative: String, staging: String, destination: String, folders: inout FolderCache, depth: Int = 0) throws {
        let folder = relative.isEmpty ? staging : staging + "/" + relative
        var subfolders: [String] = []
        for movingGzip in [true, false] {
            guard depth < 16, let directory = opendir(folder) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let path = relative.isEmpty ? name : relative + "/" + name
                if name == "." || name == ".." || path == "index.json" || path == RegistryBuilder.gzipPath("index.json") { continue }
                var info = stat()
                guard stat(folder + "/" + name, &info) == 0 else { continue }
                if PathKind(info) == .folder {
                    if movingGzip { subfolders.append(name) }
                } else if name.hasSuffix(".gz") == movingGzip {
                    try move(staging + "/" + path, to: destination + "/" + path, folders: &folders)
                }
            }
        }
        for name in subfolders {
            try moveStaged(relative.isEmpty ? name : relative + "/" + name, staging: staging, destination: destination, folders: &folders, depth: depth + 1)
        }
    }

    private static func move(_ source: String, to target: String, folders: inout FolderCache) throws {
        try folders.create(folder(of: target))
        guard rename(source, target) == 0 else {
            throw AtomicFile.Failure(path: target, reason: String(cString: strerror(errno)))
        }
    }

    /// The folder part of a path: "a/b/c.json" gives "a/b".
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// Creates each folder once: 10,000 metadata files share one or two folders.
    struct FolderCache {
        var made: Set<String> = []

        mutating func create(_ folder: String) throws {
            guard made.insert(folder).inserted else { return }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw AtomicFile.Failure(path: folder, reason: "the folder could not be created")
            }
        }
    }
}
