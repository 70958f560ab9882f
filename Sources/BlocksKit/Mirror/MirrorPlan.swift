/// What a new upstream index asks of DEST, worked out one entry at a time so that no
/// more than one decoded manifest is in memory.
///
/// Reading the index checks every entry and writes each changed per-block metadata file,
/// and the index itself, into a staging folder (`.blocks-mirror/incoming`). Nothing in
/// DEST's registry changes until `commit`, which runs after every archive is verified:
/// metadata files are renamed into place, then the index, last.
struct MirrorPlan {
    /// Every archive the index names, in index order (and by path within an entry).
    var archives: [(path: String, sha256: String)] = []
    /// Every per-block metadata path the index names.
    var metadata: Set<String> = []
    /// Metadata paths whose new bytes wait in the staging folder.
    var staged: [String] = []
    /// Entries skipped, archives, metadata and all, because their name is not a block
    /// name (`RegistryEntry.hasValidName`); the index itself is kept byte for byte.
    var skippedNames: [String] = []

    static func stagingFolder(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/incoming")
    }

    /// Checks `indexData` entry by entry and stages what changed. Throws on a broken index,
    /// leaving DEST's registry as it was.
    static func read(_ indexData: Data, location: String, destination: URL) throws -> MirrorPlan {
        let staging = stagingFolder(in: destination)
        try? FileManager.default.removeItem(at: staging)
        let (_, ranges) = try MirrorIndexReader.scan(indexData, location: location)
        var plan = MirrorPlan()
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
                    // The same bytes `blocks build` writes.
                    return (entry, entry.stableJSON)
                }
            }
            for result in decoded {
                let (entry, data) = try result.get()
                guard entry.hasValidName else {
                    plan.skippedNames.append(entry.manifest.name)
                    continue
                }
                for archive in entry.archives.values.sorted(by: { $0.path < $1.path }) {
                    guard RegistryArchive.isSafeRelativePath(archive.path) else {
                        throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
                    }
                    plan.archives.append((archive.path, archive.sha256))
                }
                guard RegistryArchive.isSafeRelativePath(entry.metadata) else { continue }
                plan.metadata.insert(entry.metadata)
                if FileManager.default.contents(atPath: destinationPath + "/" + entry.metadata) != data {
                    // A plain write: the staging folder is private to this run (under the lock,
                    // emptied at the start), and the rename into DEST is the atomic step.
                    let file = stagingPath + "/" + entry.metadata
                    try folders.create(Self.folder(of: file))
                    try Self.writePlain(data, to: file)
                    plan.staged.append(entry.metadata)
                }
            }
        }
        try AtomicFile.write(indexData, to: staging.appendingPathComponent("index.json"))
        return plan
    }

    /// Renames the staged metadata into place, then the index: from then on DEST's index
    /// names only verified archives.
    func commit(destination: URL) throws {
        let staging = Self.stagingFolder(in: destination)
        var folders = FolderCache()
        let stagingPath = staging.path
        let destinationPath = destination.path
        for path in staged {
            try Self.move(stagingPath + "/" + path, to: destinationPath + "/" + path, folders: &folders)
        }
        try Self.move(stagingPath + "/index.json", to: destinationPath + "/index.json", folders: &folders)
        try? FileManager.default.removeItem(at: staging)
    }

    /// Writes without a temporary file or a flush (Foundation's `Data.write` flushes
    /// every file, which costs seconds for 10,000 of them).
    private static func writePlain(_ data: Data, to file: String) throws {
        let failure = FileDescriptorIO.writeFile(data, to: file, flags: O_CREAT | O_TRUNC, mode: 0o644)
        if failure != 0 { throw AtomicFile.Failure(path: file, reason: String(cString: strerror(failure))) }
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
    private struct FolderCache {
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
