#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

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

    public var results: [Result]
    public var newLock: Lockfile
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
                case .modified:
                    if force { result.deleted.append(entry.path) } else {
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
        return BlockRemoval(results: results, newLock: newLock, folders: removable)
    }

    /// Writes the lock (or deletes it when no block is left), then deletes the files
    /// and the empty folders.
    public func apply(root: URL, pauseBetweenSteps: UInt32 = 0) throws {
        let lockURL = root.appendingPathComponent(Lockfile.fileName)
        if newLock.blocks.isEmpty {
            if unlink(lockURL.path) != 0 && errno != ENOENT {
                throw InstallError.writeFailed(path: Lockfile.fileName, reason: String(cString: strerror(errno)))
            }
        } else {
            try StagingArea.writeAtomically(try newLock.encoded(), to: lockURL, root: root, displayPath: Lockfile.fileName)
        }
        for path in results.flatMap(\.deleted) {
            unlink(root.appendingPathComponent(path).path)
            if pauseBetweenSteps > 0 { usleep(pauseBetweenSteps) }
        }
        InstallTransaction.removeEmpty(folders, root: root)
    }
}
