/// What `add` will do to each file, decided before anything is written, so that a
/// conflict, a blocked folder or a bad path stops the run with the project untouched.
public struct InstallPlan: Sendable {
    /// What happens to one target file.
    public enum Action: String, Sendable {
        /// The file does not exist yet.
        case create
        /// The file is exactly what `add` wrote before (per the lock) and the block changed.
        case update
        /// The file already holds exactly what would be written.
        case skip
        /// The file has changes `add` did not write, and `--overwrite` (or the user) said replace.
        case overwrite
        /// The file has changes `add` did not write; nobody has decided yet.
        case conflict
        /// The file has changes `add` did not write, and the user chose to keep them.
        case keep

        /// True when the action puts new bytes on disk.
        public var writes: Bool { self == .create || self == .update || self == .overwrite }
    }

    public struct File: Sendable {
        public var block: String
        /// Relative to the project root.
        public var path: String
        public var url: URL
        /// Exactly the bytes to write, header included.
        public var content: Data
        /// The bytes on disk now, if any.
        public var existing: Data?
        public var action: Action
        /// What the lock records and the cache keeps as the next base, when it is not
        /// `content`: `update` writes a merge but records the upstream version it merged.
        public var recorded: Data? = nil
    }

    public struct Block: Sendable {
        public var manifest: BlockManifest
        /// How the lock keys it: `name`, or `@namespace/name` for a namespaced registry's.
        public var reference: BlockReference
        public var registry: String
        /// The lock keys of the blocks of this run and of the lock that need this one.
        public var requiredBy: [String] = []
        /// Asked for by name, rather than only as another block's dependency.
        public var requested = true
        /// The block's folder, relative to the project root.
        public var folder: String
        /// Folders, relative to the root, that do not exist yet and will be created, outermost first.
        public var foldersToCreate: [String]
        public var files: [File]
        /// Locked files the block no longer lists (an older version had them).
        public var staleFiles: [Lockfile.File]
        /// Locked files of this block that this run does not write (for example the demo
        /// with `--no-demo`); their lock entries are kept.
        public var untouchedFiles: [Lockfile.File]
        /// The transform chain its files went through (`ConfiguredTransforms.identity`).
        public var transforms: String? = nil
    }

    public var root: URL
    public var blocks: [Block]
    public var previousLock: Lockfile
    /// Blocks the lock has already that blocks of this run now need too, by lock key:
    /// their files stay as they are, and the lock records the new dependents.
    public var lockRequiredBy: [String: [String]] = [:]
    /// Blocks of the lock that blocks of this run no longer need (an update's new version
    /// dropped the dependency), by lock key: the lock stops listing those dependents.
    public var lockReleasedBy: [String: [String]] = [:]

    public var allFiles: [File] { blocks.flatMap(\.files) }
    public var conflicts: [File] { allFiles.filter { $0.action == .conflict } }

    /// One block to add: its content, how the lock keys it, the registry it came from,
    /// and, for a dependency, who needs it.
    public struct Item: Sendable {
        public var content: BlockContent
        public var reference: BlockReference
        public var registry: String
        public var requiredBy: [String]
        public var requested: Bool

        public init(content: BlockContent, reference: BlockReference, registry: String, requiredBy: [String] = [], requested: Bool = true) {
            self.content = content
            self.reference = reference
            self.registry = registry
            self.requiredBy = requiredBy
            self.requested = requested
        }
    }

    /// Decides the action for every file of every block, all from one registry.
    /// - Parameter folderFor: the block's folder for a block the lock does not know yet.
    public static func make(
        contents: [BlockContent], registry: String, root: URL, lock: Lockfile, includeDemo: Bool,
        year: Int, folderFor: (String) throws -> URL
    ) throws -> InstallPlan {
        try make(
            items: contents.map { Item(content: $0, reference: BlockReference(namespace: nil, name: $0.manifest.name), registry: registry) },
            root: root, lock: lock, includeDemo: includeDemo, year: year, folderFor: folderFor)
    }

    /// Decides the action for every file of every block, each from its own registry.
    /// - Parameter folderFor: the folder for a block the lock does not know yet, from its
    ///   `BlockReference.folderPath` (`pager`, or `acme/pager` for `@acme/pager`).
    /// - Parameter transforms: the project's transform chain, run on each block's files
    ///   after the license header and before any decision.
    public static func make(
        items: [Item], root: URL, lock: Lockfile, includeDemo: Bool,
        year: Int, transforms: ConfiguredTransforms? = nil, folderFor: (String) throws -> URL
    ) throws -> InstallPlan {
        var planner = Planner(root: root, lock: lock, includeDemo: includeDemo, year: year, transforms: transforms)
        let blocks = try items.map { try planner.block(for: $0, folderFor: folderFor) }
        return InstallPlan(root: root, blocks: blocks, previousLock: lock)
    }

    /// What `make` keeps from one block to the next: the folders already planned and the
    /// headers already rendered.
    private struct Planner {
        let root: URL
        let lock: Lockfile
        let includeDemo: Bool
        let year: Int
        let transforms: ConfiguredTransforms?
        let paths: PathResolver
        let rootPath: String
        var pendingFolders: Set<String> = []
        // Most files of a run get the same header (one year, a few holders): rendered once each.
        var headers: [String: Data] = [:]

        init(root: URL, lock: Lockfile, includeDemo: Bool, year: Int, transforms: ConfiguredTransforms?) {
            (self.root, self.lock, self.includeDemo, self.year, self.transforms) = (root, lock, includeDemo, year, transforms)
            paths = PathResolver(root: root)
            rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        }

        mutating func block(for item: Item, folderFor: (String) throws -> URL) throws -> Block {
            let manifest = item.content.manifest
            // Every source checks names already; the name becomes a folder, so check again here.
            guard ManifestValidator.isValidName(manifest.name), item.reference.name == manifest.name else { throw InstallError.unsafeBlockName(manifest.name) }
            let key = item.reference.description
            let locked = lock.blocks[key]
            let folderURL = try locked.map { try lockedFolder($0.folder, block: key, paths: paths) } ?? folderFor(item.reference.folderPath)
            guard let folder = ProjectPaths.relative(folderURL, to: root) else {
                throw InstallError.pathEscapesProject(path: folderURL.path, root: root.path)
            }
            var (files, folders) = try renderedFiles(of: item, key: key, folder: folder)
            if let transforms { try transform(&files, of: manifest, in: folder, through: transforms) }
            for index in files.indices {
                files[index].action = decide(existing: files[index].existing, rendered: files[index].content, lockedHash: locked?.file(at: files[index].path)?.sha256)
            }
            let planned = Set(files.map(\.path))
            let listed = Set(manifest.files.map { folder + "/" + $0.path })
            let previous = locked?.files ?? []
            return Block(
                manifest: manifest, reference: item.reference, registry: item.registry,
                requiredBy: Array(Set(item.requiredBy + (locked?.requiredBy ?? []))).sorted(),
                requested: item.requested || (locked?.requested ?? false),
                folder: folder, foldersToCreate: folders, files: files,
                staleFiles: previous.filter { !listed.contains($0.path) },
                untouchedFiles: previous.filter { listed.contains($0.path) && !planned.contains($0.path) },
                transforms: transforms?.identity)
        }

        /// The files' bytes after the project's transforms. Paths go to the plugins relative
        /// to the block's folder, with the role the manifest gives each.
        func transform(_ files: inout [File], of manifest: BlockManifest, in folder: String, through transforms: ConfiguredTransforms) throws {
            let roles = Dictionary(manifest.files.map { ($0.path, $0.role) }, uniquingKeysWith: { first, _ in first })
            let input = files.map { file in
                let relative = String(file.path.dropFirst(folder.count + 1))
                return TransformFile(path: relative, role: roles[relative], content: file.content)
            }
            let output = try transforms.apply(manifest: manifest, files: input)
            let byPath = Dictionary(output.map { (folder + "/" + $0.path, $0.content) }, uniquingKeysWith: { first, _ in first })
            for index in files.indices { files[index].content = byPath[files[index].path] ?? files[index].content }
        }

        /// The block's files with their license header, each with what is on disk now (its
        /// action still undecided), and the folders that must be made for them.
        mutating func renderedFiles(of item: Item, key: String, folder: String) throws -> (files: [File], folders: [String]) {
            let manifest = item.content.manifest
            var files: [File] = []
            var folders: [String] = []
            let holders = TemplateText.holders(manifest.authors)
            for entry in manifest.files where includeDemo || entry.role != .demo {
                guard RelativePath.isSafe(entry.path), let body = item.content.files[entry.path] else {
                    throw InstallError.unsafeBlockFile(block: manifest.name, path: entry.path)
                }
                let path = folder + "/" + entry.path
                // Built from text: URL.appendingPathComponent would stat the result.
                let url = URL(fileURLWithPath: rootPath + path, isDirectory: false)
                guard paths.admits(path) else { throw InstallError.pathEscapesProject(path: path, root: root.path) }
                let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
                let missingHere = try missingFolders(in: parent, paths: paths)
                for missing in missingHere where !pendingFolders.contains(missing) {
                    pendingFolders.insert(missing)
                    folders.append(missing)
                }
                // In a folder that is yet to be made, there is no file to look at.
                let existing = missingHere.isEmpty ? try existingFile(url, relative: path) : nil
                let fileYear = existing.flatMap { String(data: $0, encoding: .utf8) }.flatMap(LicenseHeader.year(in:)) ?? year
                let headerKey = "\(fileYear) \(holders)"
                let header = headers[headerKey] ?? Data(LicenseHeader.render(year: fileYear, holders: holders).utf8)
                headers[headerKey] = header
                let rendered = try LicenseHeader.apply(to: body, path: entry.path, header: header)
                files.append(File(block: key, path: path, url: url, content: rendered, existing: existing, action: .create))
            }
            return (files, folders)
        }
    }

    /// Takes as this run's own the folders a killed run created (`StagingArea.removeLeftovers`
    /// returns its note of them) that still exist and that no block claims: each goes to
    /// the first block whose folder is it or inside it, as if this run had made it, so a
    /// re-run after a kill records the same `createdFolders` as one whole run, and a later
    /// `remove` deletes them when empty.
    public mutating func adoptFolders(_ folders: [String]) {
        var claimed = Set(previousLock.blocks.values.flatMap(\.createdFolders)).union(blocks.flatMap(\.foldersToCreate))
        for folder in folders where !claimed.contains(folder) && PathKind(root.appendingPathComponent(folder).path) == .folder {
            guard let index = blocks.firstIndex(where: { $0.folder == folder || $0.folder.hasPrefix(folder + "/") }) else { continue }
            blocks[index].foldersToCreate.append(folder)
            blocks[index].foldersToCreate.sort { $0.count < $1.count }
            claimed.insert(folder)
        }
    }

    static func decide(existing: Data?, rendered: Data, lockedHash: String?) -> Action {
        guard let existing else { return .create }
        if existing == rendered { return .skip }
        if let lockedHash, SHA256.hex(existing) == lockedHash { return .update }
        return .conflict
    }

    /// The lock after this plan is carried out: new and skipped files with the hash of
    /// their bytes, kept files with their old entry, stale files dropped.
    public func lockAfter() -> Lockfile {
        var lock = previousLock
        for block in blocks {
            let key = block.reference.description
            let old = previousLock.blocks[key]
            var files: [Lockfile.File] = block.untouchedFiles
            for file in block.files {
                if file.action == .keep || file.action == .conflict {
                    if let entry = old?.file(at: file.path) { files.append(entry) }
                } else {
                    files.append(Lockfile.File(path: file.path, sha256: SHA256.hex(file.recorded ?? file.content)))
                }
            }
            let created = Set(old?.createdFolders ?? []).union(block.foldersToCreate)
            lock.blocks[key] = Lockfile.Block(
                registry: block.registry, version: block.manifest.version, folder: block.folder,
                createdFolders: Array(created), files: files, namespace: block.reference.namespace,
                requiredBy: block.requiredBy, requested: block.requested,
                packages: block.manifest.dependencies?.packages.map(\.url) ?? [], transforms: block.transforms)
        }
        for (key, former) in lockReleasedBy {
            guard var block = lock.blocks[key] else { continue }
            block.requiredBy.removeAll { former.contains($0) }
            lock.blocks[key] = block
        }
        for (key, dependents) in lockRequiredBy {
            guard var block = lock.blocks[key] else { continue }
            block.requiredBy = Array(Set(block.requiredBy + dependents)).sorted()
            lock.blocks[key] = block
        }
        return lock
    }

    // MARK: - Checks that run before anything is written.

    /// The folder a lock gives a block. `Lockfile.read` has checked it already; a lock
    /// made in memory goes through the same guard.
    static func lockedFolder(_ folder: String, block: String, paths: PathResolver) throws -> URL {
        guard paths.admits(folder) else {
            throw InstallError.unsafeLockEntry(block: block, kind: "folder", path: folder, folder: folder)
        }
        return paths.root.appendingPathComponent(folder).standardizedFileURL
    }

    /// The bytes of a target file, nil when there is none. It must be absent or a regular
    /// file, not a folder or a link.
    static func existingFile(_ url: URL, relative: String) throws -> Data? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        if (status.st_mode & S_IFMT) != S_IFREG { throw InstallError.notARegularFile(path: relative) }
        return FileManager.default.contents(atPath: url.path)
    }

    /// The folders between the root and `relative` (a folder's path from the root) that do
    /// not exist yet, outermost first.
    /// A file where a folder must go stops the plan.
    static func missingFolders(in relative: String, paths: PathResolver) throws -> [String] {
        var missing: [String] = []
        var current = paths.root.path == "/" ? "" : paths.root.path
        var path = ""
        for part in relative.split(separator: "/") {
            current += "/" + part
            path = path.isEmpty ? String(part) : path + "/" + part
            let kind = missing.isEmpty ? paths.kind(of: current) : .missing
            if kind == .missing {
                missing.append(path)
            } else if kind != .folder {
                throw InstallError.folderBlocked(path: relative, blocker: path)
            }
        }
        return missing
    }
}
