/// What `blocks status` reports: for each locked block, each file's state against the
/// hash in the lock, and whether its registry has a newer version.
public struct BlockStatus: Sendable, Equatable {
    public enum FileState: String, Sendable {
        /// On disk, byte for byte what `add` wrote.
        case unchanged
        /// On disk, but changed since `add` wrote it.
        case modified
        /// Named in the lock but gone from disk.
        case missing
        /// Changed, and still holding the conflict markers an `update` wrote. Only `report`
        /// tells it from `modified`; everything else treats it as a change of the user's.
        case conflict
    }

    public struct File: Sendable, Equatable {
        public var path: String
        public var state: FileState
    }

    public var name: String
    public var version: String
    public var registry: String
    public var files: [File]
    /// The registry's version when it is newer than the locked one.
    public var availableUpdate: String?

    /// Every locked block, by name, with its files checked on disk.
    /// - Parameter latestVersions: the newest version each registry offers, by block name.
    public static func report(lock: Lockfile, root: URL, latestVersions: [String: String]) -> [BlockStatus] {
        lock.blocks.sorted { $0.key < $1.key }.map { name, block in
            let files = block.files.map { File(path: $0.path, state: reportedState(of: $0, root: root)) }
            let update = latestVersions[name].flatMap { VersionComparison.isNewer($0, than: block.version) ? $0 : nil }
            return BlockStatus(name: name, version: block.version, registry: block.registry, files: files, availableUpdate: update)
        }
    }

    /// `state(of:root:)`, with a modified file that still holds conflict markers as `conflict`.
    static func reportedState(of entry: Lockfile.File, root: URL) -> FileState {
        let found = state(of: entry, root: root)
        guard found == .modified, let bytes = FileManager.default.contents(atPath: root.appendingPathComponent(entry.path).path),
            ThreeWayMerge.containsConflictMarkers(Array(bytes))
        else { return found }
        return .conflict
    }

    /// A link or a folder where `add` wrote a file is modified, and is not followed: what
    /// it points to may be outside the project.
    public static func state(of entry: Lockfile.File, root: URL) -> FileState {
        let path = root.appendingPathComponent(entry.path).path
        var status = stat()
        guard lstat(path, &status) == 0 else { return .missing }
        guard (status.st_mode & S_IFMT) == S_IFREG, let hash = try? SHA256.hex(fileAt: URL(fileURLWithPath: path)) else {
            return .modified
        }
        return hash == entry.sha256 ? .unchanged : .modified
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name),
            "version": .string(version),
            "registry": .string(registry),
            "updateAvailable": .bool(availableUpdate != nil),
            "files": .array(files.map { .object(["path": .string($0.path), "state": .string($0.state.rawValue)]) }),
        ]
        object["latestVersion"] = availableUpdate.map { .string($0) } ?? .null
        return .object(object)
    }
}
