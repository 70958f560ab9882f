#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

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

    static func stagingFolder(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/incoming")
    }

    /// Checks `indexData` entry by entry and stages what changed. Throws on a broken index,
    /// leaving DEST's registry as it was.
    static func read(_ indexData: Data, location: String, destination: URL) throws -> MirrorPlan {
        let staging = stagingFolder(in: destination)
        try? FileManager.default.removeItem(at: staging)
        let (_, ranges) = try MirrorIndexReader.scan(indexData, location: location)
        let encoder = StableJSON.encoder()
        var plan = MirrorPlan()
        var folders = FolderCache()
        plan.archives.reserveCapacity(ranges.count * 2)
        for (position, range) in ranges.enumerated() {
            let entry = try MirrorIndexReader.decode(
                RegistryEntry.self, from: indexData, range: range, position: position, location: location)
            for archive in entry.archives.values.sorted(by: { $0.path < $1.path }) {
                guard RegistryArchive.isSafeRelativePath(archive.path) else {
                    throw RegistryError.invalidIndex(location: location, reason: "archive path '\(archive.path)' leaves the registry")
                }
                plan.archives.append((archive.path, archive.sha256))
            }
            guard RegistryArchive.isSafeRelativePath(entry.metadata) else { continue }
            plan.metadata.insert(entry.metadata)
            // The same bytes `blocks build` writes.
            let data = try StableJSON.data(entry, using: encoder)
            if FileManager.default.contents(atPath: destination.appendingPathComponent(entry.metadata).path) != data {
                // A plain write: the staging folder is private to this run (under the lock,
                // emptied at the start), and the rename into DEST is the atomic step.
                let file = staging.appendingPathComponent(entry.metadata)
                try folders.create(file.deletingLastPathComponent())
                try Self.writePlain(data, to: file)
                plan.staged.append(entry.metadata)
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
        for path in staged {
            try Self.move(staging.appendingPathComponent(path), to: destination.appendingPathComponent(path), folders: &folders)
        }
        try Self.move(staging.appendingPathComponent("index.json"), to: destination.appendingPathComponent("index.json"), folders: &folders)
        try? FileManager.default.removeItem(at: staging)
    }

    /// Writes without a temporary file or a flush (Foundation's `Data.write` flushes
    /// every file, which costs seconds for 10,000 of them).
    private static func writePlain(_ data: Data, to file: URL) throws {
        let failure = FileDescriptorIO.writeFile(data, to: file.path, flags: O_CREAT | O_TRUNC, mode: 0o644)
        if failure != 0 { throw AtomicFile.Failure(path: file.path, reason: String(cString: strerror(failure))) }
    }

    private static func move(_ source: URL, to target: URL, folders: inout FolderCache) throws {
        try folders.create(target.deletingLastPathComponent())
        guard rename(source.path, target.path) == 0 else {
            throw AtomicFile.Failure(path: target.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Creates each folder once: 10,000 metadata files share one or two folders.
    private struct FolderCache {
        var made: Set<String> = []

        mutating func create(_ folder: URL) throws {
            guard made.insert(folder.path).inserted else { return }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw AtomicFile.Failure(path: folder.path, reason: "the folder could not be created")
            }
        }
    }
}
