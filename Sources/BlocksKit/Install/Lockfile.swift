/// `blocks.lock`: what `add` wrote into the project, so that `status` can tell the
/// user's changes from ours and `remove` never deletes work it did not write.
///
/// It is JSON with sorted keys and sorted files, so the same state always gives the
/// same bytes and the file diffs cleanly in version control.
public struct Lockfile: Sendable, Equatable {
    public static let fileName = "blocks.lock"

    /// One added block.
    public struct Block: Sendable, Equatable {
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
        /// The transform chain its files went through (`ConfiguredTransforms.identity`),
        /// nil when none: `update` notices when blocks.json's chain has changed since.
        public var transforms: String?

        public init(
            registry: String, version: String, folder: String, createdFolders: [String], files: [File],
            namespace: String? = nil, requiredBy: [String] = [], requested: Bool = true, packages: [String]? = nil,
            transforms: String? = nil
        ) {
            self.packages = packages.map { Array(Set($0)).sorted() }
            self.transforms = transforms
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

        private enum Key {
            static let registry = "registry"
            static let namespace = "namespace"
            static let requiredBy = "requiredBy"
            static let requested = "requested"
            static let version = "version"
            static let folder = "folder"
            static let createdFolders = "createdFolders"
            static let files = "files"
            static let packages = "packages"
            static let transforms = "transforms"
        }

        /// Reads version 1 locks too, which have no namespace, requiredBy or requested.
        init(fields: JSONFields) throws(JSONFields.Problem) {
            var files: [File] = []
            for file in try fields.objects(Key.files) { files.append(try File(fields: file)) }
            self.init(
                registry: try fields.string(Key.registry), version: try fields.string(Key.version), folder: try fields.string(Key.folder),
                createdFolders: try fields.strings(Key.createdFolders), files: files, namespace: try fields.optionalString(Key.namespace),
                requiredBy: try fields.optionalStrings(Key.requiredBy) ?? [], requested: try fields.optionalBool(Key.requested) ?? true,
                packages: try fields.optionalStrings(Key.packages), transforms: try fields.optionalString(Key.transforms))
        }

        var jsonValue: JSONValue {
            var members: [String: JSONValue] = [
                Key.registry: .string(registry), Key.version: .string(version), Key.folder: .string(folder),
                Key.requiredBy: JSONFields.jsonArray(requiredBy), Key.requested: .bool(requested),
                Key.createdFolders: JSONFields.jsonArray(createdFolders), Key.files: .array(files.map(\.jsonValue)),
            ]
            if let namespace { members[Key.namespace] = .string(namespace) }
            if let packages { members[Key.packages] = JSONFields.jsonArray(packages) }
            if let transforms { members[Key.transforms] = .string(transforms) }
            return .object(members)
        }
    }

    /// A Swift package dependency blocks found or put in Package.swift, so that `remove`
    /// takes out only what blocks added. Written after SwiftPM's commands succeed; a
    /// package with no record is never removed.
    public struct Package: Sendable, Equatable {
        public var url: String
        /// The block whose `add` recorded it.
        public var block: String
        /// Whether blocks put the `.package(url:)` entry there (false: it was there before).
        public var added: Bool
        /// Whether blocks made the package's `dependencies:` list to hold it.
        public var createdList: Bool
        /// The products blocks added to a target's dependencies, with that package.
        public var products: [Product]

        public struct Product: Sendable, Equatable {
            public var name: String
            public var target: String
            /// Whether blocks made the target's `dependencies:` list to hold it.
            public var createdList: Bool

            public init(name: String, target: String, createdList: Bool) {
                self.name = name
                self.target = target
                self.createdList = createdList
            }

            private enum Key {
                static let name = "name"
                static let target = "target"
                static let createdList = "createdList"
            }

            init(fields: JSONFields) throws(JSONFields.Problem) {
                self.init(name: try fields.string(Key.name), target: try fields.string(Key.target), createdList: try fields.bool(Key.createdList))
            }

            var jsonValue: JSONValue {
                .object([Key.name: .string(name), Key.target: .string(target), Key.createdList: .bool(createdList)])
            }
        }

        public init(url: String, block: String, added: Bool, createdList: Bool = false, products: [Product] = []) {
            self.url = url
            self.block = block
            self.added = added
            self.createdList = createdList
            self.products = products
        }

        private enum Key {
            static let url = "url"
            static let block = "block"
            static let added = "added"
            static let createdList = "createdList"
            static let products = "products"
        }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            var products: [Product] = []
            for product in try fields.objects(Key.products) { products.append(try Product(fields: product)) }
            self.init(
                url: try fields.string(Key.url), block: try fields.string(Key.block), added: try fields.bool(Key.added),
                createdList: try fields.bool(Key.createdList), products: products)
        }

        var jsonValue: JSONValue {
            .object([
                Key.url: .string(url), Key.block: .string(block), Key.added: .bool(added), Key.createdList: .bool(createdList),
                Key.products: .array(products.map(\.jsonValue)),
            ])
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
    public struct File: Sendable, Equatable {
        public var path: String
        public var sha256: String

        public init(path: String, sha256: String) {
            self.path = path
            self.sha256 = sha256
        }

        private enum Key {
            static let path = "path"
            static let sha256 = "sha256"
        }

        init(fields: JSONFields) throws(JSONFields.Problem) {
            self.init(path: try fields.string(Key.path), sha256: try fields.string(Key.sha256))
        }

        var jsonValue: JSONValue { .object([Key.path: .string(path), Key.sha256: .string(sha256)]) }
    }

    /// The format version, for readers of the future. Version 2 added each block's
    /// `namespace`, `requiredBy` and `requested`; version 1 locks are read as blocks of the
    /// default registry that were each asked for by name.
    public var lockVersion: Int
    public var blocks: [String: Block]
    /// The Swift packages blocks found or put in Package.swift, sorted by URL. Version 2
    /// locks without it are still version 2: an older blocks ignores it.
    public var packages: [Package]

    private enum Key {
        static let lockVersion = "lockVersion"
        static let blocks = "blocks"
        static let packages = "packages"
    }

    /// The lock's fields, any string allowed (it is the project's own file). `packages`
    /// may be absent.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        lockVersion = try fields.int(Key.lockVersion)
        blocks = [:]
        let entries = try fields.object(Key.blocks)
        for name in entries.members.keys { blocks[name] = try Block(fields: try entries.object(name)) }
        packages = []
        if fields.has(Key.packages) {
            for package in try fields.objects(Key.packages) { packages.append(try Package(fields: package)) }
        }
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [Key.lockVersion: .int(lockVersion), Key.blocks: .object(blocks.mapValues(\.jsonValue))]
        if !packages.isEmpty { members[Key.packages] = .array(packages.map(\.jsonValue)) }
        return .object(members)
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
        guard let data = try? Data(contentsOf: url) else { throw InstallError.unreadableLock(path: fileName, reason: "it could not be read") }
        let lock: Lockfile
        do throws(RegistryEntryProblem) {
            lock = try RegistryEntryProblem.reading(data, plainStrings: false) { (fields) throws(JSONFields.Problem) in try Lockfile(fields: fields) }
        } catch {
            throw InstallError.unreadableLock(path: fileName, reason: "it is not a valid lock file (\(Self.summary(of: error)))")
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

    /// The exact bytes to write: sorted keys, sorted files, a final newline (tests hold
    /// them to a `Codable` oracle).
    public func encoded() -> Data {
        StableJSON.data(jsonValue)
    }

    private static func summary(of problem: RegistryEntryProblem) -> String {
        switch problem {
        case .notJSON(let failure): return failure.isTooDeep ? failure.summary : "not JSON"
        case .shape(.missing(let path)): return "missing '\(path)'"
        case .shape(.wrongType(let path)), .shape(.controlCharacter(let path, _)): return "wrong value at '\(path)'"
        }
    }
}
