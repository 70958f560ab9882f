/// Carries out an `InstallPlan` so that a kill at any moment leaves every file either
/// old or new and a lock that names only files that exist.
///
/// The order is what makes that true:
/// 1. every new file is written into a staging folder inside the project root;
/// 2. missing folders are created (undone if a later step fails), after a note of them
///    in the staging folder, so a re-run after a kill records them as created;
/// 3. each staged file is renamed over its target, one atomic step per file;
/// 4. files the new version no longer lists are deleted, unless the user changed them;
/// 5. an Xcode project file that lists the files (classic groups) is renamed into place;
/// 6. `blocks.lock` is written to the staging folder and renamed into place, last.
///
/// New files enter the lock only in step 4, after they exist. Files the old lock
/// already names are replaced by rename, never deleted, so they always exist; between
/// steps 3 and 4 their lock hash is the old one, which `status` reports as modified and
/// which a re-run of the same `add` repairs, since the file then already holds exactly
/// what it would write (a skip) and the new lock records it. A kill between steps 4 and 5
/// leaves the old lock naming a deleted file, which `status` shows as missing and the
/// re-run drops; deleting after the lock would instead leave an untracked file no re-run
/// could know to delete.
public enum InstallTransaction {
    /// What the run did beyond the plan's own actions.
    public struct Outcome: Sendable, Equatable {
        /// Stale files of an older version that were deleted, and those kept because they changed.
        public var deletedStale: [String] = []
        public var keptStale: [String] = []
        /// Stale files whose delete failed, each with the reason; they are no longer tracked.
        public var failedStale: [String] = []
    }

    /// - Parameters:
    ///   - pauseBetweenSteps: microseconds to sleep after each rename. Only the kill -9
    ///     test sets it (through `BLOCKS_TEST_STEP_PAUSE_US`), to widen the window between
    ///     the first rename and the lock so random kills land in it.
    ///   - lock: the plan's `lockAfter()`, when the caller has made it already.
    ///   - beforeLock: runs once every file is in place and before the lock is written:
    ///     `add` waits there for the bases it writes meanwhile, which must exist before a
    ///     lock names their files.
    ///   - projectFile: an Xcode `project.pbxproj` and its new bytes, which reference the
    ///     block's files: put in place after them, in one rename, and put back on failure.
    public static func apply(
        _ plan: InstallPlan, lock: Lockfile? = nil, pauseBetweenSteps: UInt32 = 0, beforeLock: () -> Void = {},
        projectFile: ProjectFileEdit? = nil
    ) throws -> Outcome {
        let root = plan.root
        let writes = plan.allFiles.filter { $0.action.writes }
        let newLock = lock ?? plan.lockAfter()
        guard !writes.isEmpty || newLock != plan.previousLock || projectFile != nil else { return Outcome() }

        let staging = try StagingArea(root: root)
        defer { staging.remove() }
        var staged: [(file: InstallPlan.File, url: URL)] = []
        for (index, file) in writes.enumerated() {
            staged.append((file, try staging.stage(file.content, name: "\(index)")))
        }
        let foldersToCreate = plan.blocks.flatMap(\.foldersToCreate)
        try staging.noteFoldersToCreate(foldersToCreate)
        let createdFolders = try createFolders(foldersToCreate, root: root)
        var moved: [InstallPlan.File] = []
        var outcome = Outcome()
        do {
            for (file, url) in staged {
                try StagingArea.rename(url, over: file.url, displayPath: file.path)
                moved.append(file)
                if pauseBetweenSteps > 0 { usleep(pauseBetweenSteps) }
            }
            outcome = removeStale(plan)
            if pauseBetweenSteps > 0 && !outcome.deletedStale.isEmpty { usleep(pauseBetweenSteps) }
            if let projectFile {
                let staged = try staging.stage(projectFile.new, name: "project.pbxproj")
                try StagingArea.rename(staged, over: projectFile.url, displayPath: ProjectPaths.relative(projectFile.url, to: root) ?? projectFile.url.path)
                moved.append(
                    InstallPlan.File(
                        block: "", path: ProjectPaths.relative(projectFile.url, to: root) ?? projectFile.url.path, url: projectFile.url,
                        content: projectFile.new, existing: projectFile.old, action: .update))
                if pauseBetweenSteps > 0 { usleep(pauseBetweenSteps) }
            }
            beforeLock()
            let lockURL = try staging.stage(newLock.encoded(), name: Lockfile.fileName)
            try StagingArea.rename(lockURL, over: root.appendingPathComponent(Lockfile.fileName), displayPath: Lockfile.fileName)
        } catch {
            undo(moved, staging: staging)
            removeEmpty(createdFolders, root: root)
            throw error
        }
        return outcome
    }

    /// Creates the folders, outermost first. On failure removes what it made and throws.
    static func createFolders(_ folders: [String], root: URL) throws -> [String] {
        var created: [String] = []
        for folder in folders {
            let url = root.joining(folder, isDirectory: true)
            if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                removeEmpty(created, root: root)
                throw InstallError.writeFailed(path: folder, reason: reason)
            }
            created.append(folder)
        }
        return created
    }

    /// Puts back what a failed run had already moved: new files go, replaced files get
    /// their old bytes back (again by rename).
    static func undo(_ moved: [InstallPlan.File], staging: StagingArea) {
        for (index, file) in moved.enumerated().reversed() {
            if let old = file.existing, let url = try? staging.stage(old, name: "undo-\(index)") {
                _ = rename(url.path, file.url.path)
            } else {
                unlink(file.url.path)
            }
        }
    }

    /// The test-only pause from `BLOCKS_TEST_STEP_PAUSE_US`, capped at 0.1 s a step. Only
    /// debug builds (which the kill-loop tests run) read it; a release build never pauses.
    public static func testPause(_ environment: [String: String]) -> UInt32 {
        #if DEBUG
        return min(environment["BLOCKS_TEST_STEP_PAUSE_US"].flatMap { UInt32($0) } ?? 0, 100_000)
        #else
        return 0
        #endif
    }

    /// Removes the folders that are empty, innermost first.
    static func removeEmpty(_ folders: [String], root: URL) {
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            rmdir(root.appendingPathComponent(folder).path)
        }
    }

    /// Just before the new lock, which no longer names them: deletes files an older
    /// version had that the block no longer lists, unless the user changed them.
    static func removeStale(_ plan: InstallPlan) -> Outcome {
        var outcome = Outcome()
        for block in plan.blocks {
            for entry in block.staleFiles {
                switch BlockStatus.state(of: entry, root: plan.root) {
                case .missing: continue
                case .modified, .conflict: outcome.keptStale.append(entry.path)
                case .unchanged:
                    if unlink(plan.root.appendingPathComponent(entry.path).path) == 0 || errno == ENOENT {
                        outcome.deletedStale.append(entry.path)
                    } else {
                        outcome.failedStale.append("\(entry.path) (\(String(cString: strerror(errno))))")
                    }
                }
            }
        }
        return outcome
    }
}
