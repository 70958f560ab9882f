import Foundation

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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var plan = MirrorPlan()
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
            let data = try encoder.encode(entry) + Data("\n".utf8)
            if FileManager.default.contents(atPath: destination.appendingPathComponent(entry.metadata).path) != data {
                try AtomicFile.write(data, to: staging.appendingPathComponent(entry.metadata))
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
        for path in staged {
            try Self.move(staging.appendingPathComponent(path), to: destination.appendingPathComponent(path))
        }
        try Self.move(staging.appendingPathComponent("index.json"), to: destination.appendingPathComponent("index.json"))
        try? FileManager.default.removeItem(at: staging)
    }

    private static func move(_ source: URL, to target: URL) throws {
        let folder = target.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        guard rename(source.path, target.path) == 0 else {
            throw AtomicFile.Failure(path: target.path, reason: String(cString: strerror(errno)))
        }
    }
}
