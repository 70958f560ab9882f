/// `blocks.lock`: what `add` wrote into the project, so that `status` can tell the
/// user's changes from ours and `remove` never deletes work it did not write.
///
/// It is JSON with sorted keys and sorted files, so the same state always gives the
/// same bytes and the file diffs cleanly in version control.
public struct Lockfile: Codable, Sendable, Equatable {
    public static let fileName = "blocks.lock"

    /// One added block.
    public struct Block: Codable, Sendable, Equatable {
        /// The registry it came from, as `RegistrySource.location` names it: for a
        /// namespaced block, the URL `blocks.json` gives its namespace.
        public var registry: String
        /// The namespace it came from (`@acme`), nil for the default registry. The lock
        /// keys the block as `@acme/name`.
        public var namespace: String?
        /// The blocks that depend on this one, as the lock keys them; empty for a block
        /// that was asked for by name. `remove` keeps a block while any of them is here.
        public var requiredBy: [String]
        /// Whether it was asked for by name (true) or added only as another's dependency.
        public var requested: Bool
        public var version: String
        /// The block's folder, relative to the project root.
        public var folder: String
        /// Folders `add` created for this block, so `remove` can delete them when empty.
        public var createdFolders: [String]
        public var files: [File]
        /// The URLs of the Swift packages the block declares, as `add` saw them; nil in a
        /// lock written before blocks recorded them, when `remove` cannot tell.
        public var packages: [String]?

        public init(
            registry: String, version: String, folder: String, createdFolders: [String], files: [File],
            namespace: String? = nil, requiredBy: [String] = [], requested: Bool = true, packages: [String]? = nil
        ) {
            self.packages = packages.map { Array(Set($0)).sorted() }
            self.registry = registry
            self.namespace = namespace
            self.requiredBy = Array(Set(requiredBy)).sorted()
            self.requested = requested
            self.version = version
            self.folder = folder
            self.createdFolders = createdFolders.sorted()
            self.files = files.sorted { $0.path < $1.path }
        }

        public func file(at path: String) -> File? { files.first { $0.path == path } }

        enum Keys: String, CodingKey { case registry, namespace, requiredBy, requested, version, folder, createdFolders, files, packages }

        /// Reads version 1 locks too, which have no namespace, requiredBy or requested.
        public init(from decoder: Decoder) throws {
            let object = try decoder.container(keyedBy: Keys.self)
            self.init(
                registry: try object.decode(String.self, forKey: .registry), version: try object.decode(String.self, forKey: .version),
                folder: try object.decode(String.self, forKey: .folder), createdFolders: try object.decode([String].self, forKey: .createdFolders),
                files: try object.decode([File].self, forKey: .files), namespace: try object.decodeIfPresent(String.self, forKey: .namespace),
                requiredBy: try object.decodeIfPresent([String].self, forKey: .requiredBy) ?? [],
                requested: try object.decodeIfPresent(Bool.self, forKey: .requested) ?? true,
                packages: try object.decodeIfPresent([String].self, forKey: .packages))
        }

        public func encode(to encoder: Encoder) throws {
            var object = encoder.container(keyedBy: Keys.self)
            try object.encode(registry, forKey: .registry)
            try object.encodeIfPresent(namespace, forKey: .namespace)
            try object.encode(requiredBy, forKey: .requiredBy)
            try object.encode(requested, forKey: .requested)
            try object.encode(version, forKey: .version)
            try object.encode(folder, forKey: .folder)
            try object.encode(createdFolders, forKey: .createdFolders)
            try object.encode(files, forKey: .files)
            try object.encodeIfPresent(packages, forKey: .packages)
        }
    }

    /// A Swift package dependency blocks found or put in Package.swift, so that `remove`
    /// takes out only what blocks added. Written after SwiftPM's commands succeed; a
    /// package with no record is never removed.
    public struct Package: Codable, Sendable, Equatable {
        public var url: String
        /// The block whose `add` recorded it.
        public var block: String
        /// Whether blocks put the `.package(url:)` entry there (false: it was there before).
        public var added: Bool
        /// Whether blocks made the package's `dependencies:` list to hold it.
        public var createdList: Bool
        /// The products blocks added to a target's dependencies, with that package.
        public var products: [Product]

        public struct Product: Codable, Sendable, Equatable {
            public var name: String
            public var target: String
            /// Whether blocks made the target's `dependencies:` list to hold it.
            public var createdList: Bool

            public init(name: String, target: String, createdList: Bool) {
                self.name = name
                self.target = target
                self.createdList = createdList
            }
        }

        public init(url: String, block: String, added: Bool, createdList: Bool = false, products: [Product] = []) {
            self.url = url
            self.block = block
            self.added = added
            self.createdList = createdList
            self.products = products
        }

        /// The name SwiftPM gives it.
        public var identity: String { PackageValueGrammar.identity(of: url) }

        /// Whether `other` names the same package (with or without `.git`, any case).
        public func matches(_ other: String) -> Bool { Self.key(url) == Self.key(other) }

        static func key(_ url: String) -> String {
            let lower = url.lowercased()
            return lower.hasSuffix(".git") ? String(lower.dropLast(4)) : lower
        }
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

    /// The format version, for readers of the future. Version 2 added each block's
    /// `namespace`, `requiredBy` and `requested`; version 1 locks are read as blocks of the
    /// default registry that were each asked for by name.
    public var lockVersion: Int
    public var blocks: [String: Block]
    /// The Swift packages blocks found or put in Package.swift, sorted by URL. Version 2
    /// locks without it are still version 2: an older blocks ignores it.
    public var packages: [Package]

    enum Keys: String, CodingKey { case lockVersion, blocks, packages }

    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: Keys.self)
        lockVersion = try object.decode(Int.self, forKey: .lockVersion)
        blocks = try object.decode([String: Block].self, forKey: .blocks)
        packages = try object.decodeIfPresent([Package].self, forKey: .packages) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: Keys.self)
        try object.encode(lockVersion, forKey: .lockVersion)
        try object.encode(blocks, forKey: .blocks)
        if !packages.isEmpty { try object.encode(packages, forKey: .packages) }
    }

    /// The record of a package, by its URL.
    public func package(_ url: String) -> Package? { packages.first { $0.matches(url) } }

    /// Sets (or with nil removes) the record of a package, keeping them sorted.
    public mutating func setPackage(_ url: String, _ record: Package?) {
        packages.removeAll { $0.matches(url) }
        if let record { packages.append(record) }
        packages.sort { $0.url < $1.url }
    }

    /// The version this build writes, and the newest it reads.
    public static let currentVersion = 2

    public init(blocks: [String: Block] = [:], packages: [Package] = []) {
        self.lockVersion = Self.currentVersion
        self.blocks = blocks
        self.packages = packages.sorted { $0.url < $1.url }
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
        guard lock.lockVersion <= currentVersion else {
            throw InstallError.unreadableLock(path: fileName, reason: "it is lock version \(lock.lockVersion), written by a newer blocks; update blocks")
        }
        try lock.checkPaths(root: root)
        var current = lock
        current.lockVersion = currentVersion
        return current
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
                guard onPath, RelativePath.isSafe(path) else {
                    throw InstallError.unsafeLockEntry(block: name, kind: kind, path: path, folder: folder)
                }
                guard paths.admits(path) else { throw InstallError.pathEscapesProject(path: path, root: root.path) }
            }
            guard BlockReference.isValidKey(name) else {
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
        var members: [String: JSONValue] = [
            "lockVersion": .int(lockVersion),
            "blocks": .object(
                blocks.mapValues { block in
                    var members: [String: JSONValue] = [
                        "registry": .string(block.registry), "version": .string(block.version), "folder": .string(block.folder),
                        "requiredBy": .array(block.requiredBy.map { .string($0) }), "requested": .bool(block.requested),
                        "createdFolders": .array(block.createdFolders.map { .string($0) }),
                        "files": .array(block.files.map { .object(["path": .string($0.path), "sha256": .string($0.sha256)]) }),
                    ]
                    if let namespace = block.namespace { members["namespace"] = .string(namespace) }
                    if let packages = block.packages { members["packages"] = .array(packages.map { .string($0) }) }
                    return .object(members)
                }),
        ]
        if !packages.isEmpty {
            members["packages"] = .array(
                packages.map { package in
                    .object([
                        "url": .string(package.url), "block": .string(package.block), "added": .bool(package.added),
                        "createdList": .bool(package.createdList),
                        "products": .array(
                            package.products.map {
                                .object(["name": .string($0.name), "target": .string($0.target), "createdList": .bool($0.createdList)])
                            }),
                    ])
                })
        }
        return .object(members)
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
