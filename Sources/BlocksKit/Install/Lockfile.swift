/// `blocks.lock`: what `add` wrote into the project, so that `status` can tell the
/// user's changes from ours and `remove` never deletes work it did not write.
///
/// It is JSON with sorted keys and sorted files, so the same state always gives the
/// same bytes and the file diffs cleanly in version control.
public struct Lockfile: Codable, Sendable, Equatable {
    public static let fileName = "blocks.lock"

    /// One added block.
    public struct Block: Codable, Sendable, Equatable {
        /// The registry it came from, as `RegistrySource.location` names it.
        public var registry: String
        public var version: String
        /// The block's folder, relative to the project root.
        public var folder: String
        /// Folders `add` created for this block, so `remove` can delete them when empty.
        public var createdFolders: [String]
        public var files: [File]

        public init(registry: String, version: String, folder: String, createdFolders: [String], files: [File]) {
            self.registry = registry
            self.version = version
            self.folder = folder
            self.createdFolders = createdFolders.sorted()
            self.files = files.sorted { $0.path < $1.path }
        }

        public func file(at path: String) -> File? { files.first { $0.path == path } }
    }

    /// One written file: its path relative to the project root and the SHA-256 of
    /// exactly the bytes written.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var sha256: String

        public init(path: String, sha256: String) {
            self.path = path
            self.sha256 = sha256
        }
    }

    /// The format version. A reader refuses a lock newer than it knows (`newestLockVersion`)
    /// rather than misread it and rewrite it in the older shape.
    public var lockVersion: Int

    /// The newest `lockVersion` this tool reads and writes.
    public static let newestLockVersion = 1
    public var blocks: [String: Block]

    public init(blocks: [String: Block] = [:]) {
        self.lockVersion = 1
        self.blocks = blocks
    }

    /// The lock in a project root, or an empty one when there is none yet. A lock is
    /// committed and cloned, so it is untrusted input: it is returned only once every path
    /// in it has passed `checkPaths`, before any command reads or deletes a file by it.
    public static func read(root: URL) throws -> Lockfile {
        let url = root.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return Lockfile() }
        let lock: Lockfile
        do {
            let data = try Data(contentsOf: url)
            lock = try JSONDecoder().decode(Lockfile.self, from: data)
        } catch let error as DecodingError {
            throw InstallError.unreadableLock(path: fileName, reason: "it is not a valid lock file (\(Self.summary(of: error)))")
        } catch {
            throw InstallError.unreadableLock(path: fileName, reason: "it could not be read")
        }
        guard (1...newestLockVersion).contains(lock.lockVersion) else {
            throw InstallError.unreadableLock(
                path: fileName,
                reason: "it has lockVersion \(lock.lockVersion), and this blocks reads 1 to \(newestLockVersion); upgrade blocks, or nothing changes")
        }
        try lock.checkPaths(root: root)
        return lock
    }

    /// Refuses a lock that names a path `add` could not have written: a block's name must
    /// be a block name; its folder, each of its files (inside that folder) and each folder
    /// it created (the folder, one holding it, or one inside it) must pass the project's
    /// path guard, `PathResolver.admits`, which `add` uses for every file it writes.
    public func checkPaths(root: URL) throws {
        let paths = PathResolver(root: root)
        for (name, block) in blocks.sorted(by: { $0.key < $1.key }) {
            let folder = block.folder
            func check(_ path: String, kind: String, onPath: Bool) throws {
                guard onPath, ProjectPaths.isSafeRelativeFile(path) else {
                    throw InstallError.unsafeLockEntry(block: name, kind: kind, path: path, folder: folder)
                }
                guard paths.admits(path) else { throw InstallError.pathEscapesProject(path: path, root: root.path) }
            }
            guard ManifestValidator.isValidName(name) else {
                throw InstallError.unsafeLockEntry(block: name, kind: "name", path: name, folder: folder)
            }
            try check(folder, kind: "folder", onPath: true)
            for file in block.files {
                try check(file.path, kind: "file", onPath: file.path.hasPrefix(folder + "/"))
            }
            for created in block.createdFolders {
                let related = created == folder || folder.hasPrefix(created + "/") || created.hasPrefix(folder + "/")
                try check(created, kind: "created folder", onPath: related)
            }
        }
    }

    /// The exact bytes to write: sorted keys, sorted files, a final newline. The same
    /// bytes as `StableJSON.data(self)`, written without `JSONEncoder`.
    public func encoded() -> Data {
        StableJSON.data(jsonValue)
    }

    var jsonValue: JSONValue {
        .object([
            "lockVersion": .int(lockVersion),
            "blocks": .object(blocks.mapValues { block in
                .object([
                    "registry": .string(block.registry), "version": .string(block.version), "folder": .string(block.folder),
                    "createdFolders": .array(block.createdFolders.map { .string($0) }),
                    "files": .array(block.files.map { .object(["path": .string($0.path), "sha256": .string($0.sha256)]) }),
                ])
            }),
        ])
    }

    private static func summary(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case .dataCorrupted: return "not JSON"
        @unknown default: return "unreadable"
        }
    }
}
