/// `blocks remove`: deletes the files `add` wrote that are still unchanged, keeps the
/// ones the user changed unless forced, and removes the empty folders `add` created.
///
/// The lock is written first, naming only the files that will remain, and files are
/// deleted after. A kill in between leaves unlisted copies of unchanged files (which a
/// later `add` adopts as identical), never a lock that names a missing file.
public struct BlockRemoval: Sendable, Equatable {
    public struct Result: Sendable, Equatable {
        public var name: String
        public var deleted: [String] = []
        /// Files the user changed, left in place and still in the lock.
        public var kept: [String] = []
        /// Files already gone.
        public var missing: [String] = []
    }

    /// What happens to a Swift package a removed block needed.
    public struct PackageDecision: Sendable, Equatable {
        public var url: String
        /// The name SwiftPM gives it.
        public var package: String { PackageValueGrammar.identity(of: url) }
        /// Why it stays in Package.swift, or nil when it is taken out.
        public var keptBecause: String?
    }

    public var results: [Result]
    /// The Swift packages the removed blocks needed, in order, each removed or kept with why.
    public var packages: [PackageDecision] = []
    /// Removed blocks whose lock entry (from an older blocks) does not say which packages they need.
    public var unrecordedPackages: [String] = []
    /// Package.swift without the packages that go, when any does.
    public var manifestEdit: String?
    public var newLock: Lockfile
    /// The lock the plan started from, for putting back what could not be deleted.
    public var previousLock: Lockfile
    /// Folders to remove if empty once the files are gone.
    public var folders: [String]

    /// Decides what to delete. Unknown names fail before anything changes.
    public static func plan(names: [String], lock: Lockfile, root: URL, force: Bool) throws -> BlockRemoval {
        for name in names where lock.blocks[name] == nil {
            throw InstallError.notAdded(name, suggestions: EditDistance.suggestions(for: name, in: lock.blocks.keys.sorted()))
        }
        var newLock = lock
        var results: [Result] = []
        var folders: [String] = []
        for name in names {
            guard let block = lock.blocks[name] else { continue }
            var result = Result(name: name)
            var keptEntries: [Lockfile.File] = []
            for entry in block.files {
                switch BlockStatus.state(of: entry, root: root) {
                case .missing: result.missing.append(entry.path)
                case .unchanged: result.deleted.append(entry.path)
                case .modified, .conflict:
                    if force {
                        result.deleted.append(entry.path)
                    } else {
                        result.kept.append(entry.path)
                        keptEntries.append(entry)
                    }
                }
            }
            if keptEntries.isEmpty {
                newLock.blocks[name] = nil
                folders += block.createdFolders
            } else {
                newLock.blocks[name]?.files = keptEntries
            }
            results.append(result)
        }
        // The removed blocks no longer need anything.
        for key in newLock.blocks.keys.sorted() {
            guard var block = newLock.blocks[key], block.requiredBy.contains(where: names.contains) else { continue }
            block.requiredBy.removeAll(where: names.contains)
            newLock.blocks[key] = block
        }
        // A created folder that still holds another block's folder passes to that block.
        var removable: [String] = []
        for folder in Set(folders).sorted() {
            if let heir = newLock.blocks.keys.sorted().first(where: { key in
                newLock.blocks[key].map { $0.folder == folder || $0.folder.hasPrefix(folder + "/") } ?? false
            }), var block = newLock.blocks[heir] {
                block.createdFolders = Array(Set(block.createdFolders + [folder])).sorted()
                newLock.blocks[heir] = block
            } else {
                removable.append(folder)
            }
        }
        var removal = BlockRemoval(results: results, newLock: newLock, previousLock: lock, folders: removable)
        removal.decidePackages(removed: names.filter { newLock.blocks[$0] == nil }, root: root)
        return removal
    }

    /// Decides, for each package a removed block needed, whether it leaves Package.swift:
    /// only when blocks put it there (the lock's record) and no block left needs it, or
    /// may need it (a block whose entry does not say). Whatever stays gets its reason.
    mutating func decidePackages(removed: [String], root: URL) {
        let manifestURL = root.appendingPathComponent("Package.swift")
        let original = try? String(contentsOf: manifestURL, encoding: .utf8)
        var manifest = original
        var seen: [String] = []
        for name in removed {
            guard let block = previousLock.blocks[name] else { continue }
            guard let urls = block.packages else {
                // Nothing to say when Package.swift names no package at all.
                if original?.contains(".package(") == true { unrecordedPackages.append(name) }
                continue
            }
            for url in urls where !seen.contains(where: { Lockfile.Package.key($0) == Lockfile.Package.key(url) }) {
                seen.append(url)
                packages.append(PackageDecision(url: url, keptBecause: packageKeptBecause(url, manifest: &manifest)))
            }
        }
        if let manifest, manifest != original { manifestEdit = manifest }
    }

    /// Why the package stays, or nil when it goes (and `manifest` is edited without it).
    mutating func packageKeptBecause(_ url: String, manifest: inout String?) -> String? {
        let users = newLock.blocks.keys.sorted().filter { key in newLock.blocks[key]?.packages?.contains { Lockfile.Package.key($0) == Lockfile.Package.key(url) } == true }
        if !users.isEmpty { return "still used by " + users.joined(separator: ", ") }
        let unknown = newLock.blocks.keys.sorted().filter { newLock.blocks[$0]?.packages == nil }
        if !unknown.isEmpty {
            return "blocks.lock does not say whether " + unknown.joined(separator: ", ") + " (added by an older blocks) " + (unknown.count == 1 ? "needs" : "need") + " it"
        }
        let record = newLock.package(url)
        newLock.setPackage(url, nil)
        guard let record else {
            return "blocks.lock does not record that blocks added it, so it may be yours; remove it by hand if nothing uses it"
        }
        guard record.added else { return "it was in Package.swift before blocks added \(record.block)" }
        guard let text = manifest else { return "there is no Package.swift to edit" }
        switch PackageManifestEditor.removing(record, removePackage: true, from: text) {
        case .success(let edited):
            manifest = edited
            return nil
        case .failure(let refusal):
            let products = record.products.map { " and .product(name: \"\($0.name)\", package: \"\(record.identity)\") from the target \($0.target)" }.joined()
            return "blocks could not edit Package.swift safely (\(refusal.reason)); remove .package(url: \"\(record.url)\", …)\(products) by hand"
        }
    }

    /// Which of `names` may go, given what depends on what (`requiredBy`): a block another
    /// added block still needs stays, with the blocks that need it; with
    /// `withDependencies`, the blocks only the removed ones needed, and that were never
    /// asked for by name, go too, transitively.
    public static func dependencyChoice(
        names: [String], lock: Lockfile, withDependencies: Bool
    ) -> (remove: [String], kept: [(name: String, neededBy: [String])]) {
        var removing = names.filter { lock.blocks[$0] != nil }
        var kept: [(name: String, neededBy: [String])] = []
        // Settle the blocks others need: bounded by the count, each pass removes one at most.
        for _ in 0...removing.count {
            guard
                let blocked = removing.first(where: { name in
                    lock.blocks[name]!.requiredBy.contains { !removing.contains($0) && lock.blocks[$0] != nil }
                })
            else { break }
            removing.removeAll { $0 == blocked }
            kept.append((blocked, lock.blocks[blocked]!.requiredBy.filter { !removing.contains($0) && lock.blocks[$0] != nil }))
        }
        if withDependencies {
            for _ in 0..<lock.blocks.count {
                guard
                    let orphan = lock.blocks.keys.sorted().first(where: { key in
                        let block = lock.blocks[key]!
                        return !removing.contains(key) && !block.requested && !block.requiredBy.isEmpty
                            && block.requiredBy.allSatisfy { removing.contains($0) || lock.blocks[$0] == nil }
                    })
                else { break }
                removing.append(orphan)
            }
        }
        return (removing, kept)
    }

    /// Writes the lock (or deletes it when no block is left), then deletes the files
    /// and the empty folders. Every delete is checked: when one fails, the lock is
    /// written again naming what is still on disk, and the failures are the error.
    public func apply(root: URL, pauseBetweenSteps: UInt32 = 0) throws {
        try Self.write(newLock, root: root)
        // An Xcode project's references to the files about to go, in one rename: a kill
        // before it leaves references to files still there, after it unreferenced copies.
        let blockFolders = results.compactMap { result in previousLock.blocks[result.name].map { ($0.folder, result.kept) } }
        if let edit = XcodeProjects.projectFile(removing: blockFolders, root: root) {
            try StagingArea.writeAtomically(edit.new, to: edit.url, root: root, displayPath: ProjectPaths.relative(edit.url, to: root) ?? edit.url.path)
        }
        // Package.swift without the packages blocks added that nothing needs now, in one rename.
        if let manifestEdit {
            try StagingArea.writeAtomically(
                Data(manifestEdit.utf8), to: root.appendingPathComponent("Package.swift"), root: root, displayPath: "Package.swift")
        }
        var failed: [String: String] = [:]
        for path in results.flatMap(\.deleted) {
            if unlink(root.appendingPathComponent(path).path) != 0 && errno != ENOENT {
                failed[path] = String(cString: strerror(errno))
            }
            if pauseBetweenSteps > 0 { usleep(pauseBetweenSteps) }
        }
        // A folder that is not empty holds the user's files (or ones that failed above) and stays.
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            if rmdir(root.appendingPathComponent(folder).path) != 0 && ![ENOENT, ENOTEMPTY, EEXIST].contains(errno) {
                failed[folder] = String(cString: strerror(errno))
            }
        }
        guard !failed.isEmpty else { return }
        let (lock, unfinished) = lock(keeping: Set(failed.keys))
        try Self.write(lock, root: root)
        throw InstallError.deleteFailed(failures: failed.keys.sorted().map { "\($0) (\(failed[$0] ?? ""))" }, blocks: unfinished)
    }

    /// `newLock` with each block that still has a file or folder on disk put back with
    /// those files (their entries from the previous lock) and its created folders; and
    /// the names of those blocks.
    func lock(keeping stillThere: Set<String>) -> (Lockfile, [String]) {
        var lock = newLock
        var unfinished: [String] = []
        for name in results.map(\.name) {
            guard let old = previousLock.blocks[name] else { continue }
            let files = old.files.filter { stillThere.contains($0.path) }
            guard !files.isEmpty || old.createdFolders.contains(where: stillThere.contains) else { continue }
            var block =
                lock.blocks[name]
                ?? Lockfile.Block(
                    registry: old.registry, version: old.version, folder: old.folder, createdFolders: old.createdFolders, files: [],
                    packages: old.packages)
            block.files = (block.files + files).sorted { $0.path < $1.path }
            block.createdFolders = Array(Set(block.createdFolders + old.createdFolders)).sorted()
            lock.blocks[name] = block
            unfinished.append(name)
        }
        return (lock, unfinished)
    }

    /// Writes the lock atomically, or deletes it when it names no block.
    static func write(_ lock: Lockfile, root: URL) throws {
        let lockURL = root.appendingPathComponent(Lockfile.fileName)
        if lock.blocks.isEmpty {
            if unlink(lockURL.path) != 0 && errno != ENOENT {
                throw InstallError.writeFailed(path: Lockfile.fileName, reason: String(cString: strerror(errno)))
            }
        } else {
            try StagingArea.writeAtomically(lock.encoded(), to: lockURL, root: root, displayPath: Lockfile.fileName)
        }
    }
}
