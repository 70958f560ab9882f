/// `remove` as the library does it, for every front end: a typed request in, a typed
/// outcome out, nothing printed. Unchanged files are deleted, changed ones kept unless
/// `force`, the empty folders `add` made removed, the Swift packages only these blocks
/// needed taken out of Package.swift (`BlockRemoval`), and the lock updated.
public enum RemoveOperation {
    public struct Request: Sendable {
        public var project: Project
        /// The blocks named, as typed; each must be in the lock.
        public var names: [String]
        /// `--force`: delete files the user changed too.
        public var force = false
        /// `--with-dependencies`: also the blocks they depend on that nothing else needs.
        public var withDependencies = false
        /// For the test hook that pauses between steps.
        public var environment: [String: String] = [:]
        public var notices: NoticeHandler

        public init(project: Project, names: [String], notices: @escaping NoticeHandler) {
            self.project = project
            self.names = names
            self.notices = notices
        }
    }

    public struct Outcome {
        /// The dependencies kept because other blocks still need them.
        public var kept: [(name: String, neededBy: [String])]
        public var removal: BlockRemoval
    }

    /// Everything `remove` does. `keptForDependents` hears of each dependency kept because
    /// other blocks need it, before anything is deleted.
    public static func perform(
        _ request: Request, keptForDependents: (_ name: String, _ neededBy: [String]) -> Void = { _, _ in }
    ) throws -> Outcome {
        var names: [String] = []
        for name in request.names where !names.contains(name) { names.append(name) }
        let root = request.project.root
        let mutex = try ProjectMutex(root: root, notices: request.notices)
        defer { mutex.release() }
        StagingArea.removeLeftovers(root: root)
        let lock = try request.project.readLock()
        for name in names where lock.blocks[name] == nil {
            throw InstallError.notAdded(name, suggestions: EditDistance.suggestions(for: name, in: lock.blocks.keys.sorted()))
        }
        let choice = BlockRemoval.dependencyChoice(names: names, lock: lock, withDependencies: request.withDependencies)
        for kept in choice.kept { keptForDependents(kept.name, kept.neededBy) }
        let removal = try BlockRemoval.plan(names: choice.remove, lock: lock, root: root, force: request.force)
        try removal.apply(root: root, pauseBetweenSteps: InstallTransaction.testPause(request.environment))
        return Outcome(kept: choice.kept, removal: removal)
    }
}
