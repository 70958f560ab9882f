/// What `update` does to each file of each added block, decided before anything is
/// written, as an `InstallPlan` that `InstallTransaction` carries out (staged, renamed,
/// lock last). The rules:
/// - unchanged locally: replaced by the new version;
/// - changed locally, unchanged upstream: kept;
/// - changed on both sides: three-way merged from the base (the bytes the lock's hash
///   names, kept by `BaseStore`); a clean merge is written, a conflict is written with
///   markers unless `--theirs`/`--ours` settles it;
/// - added upstream: created, a conflict when the user already has a file there;
/// - removed upstream: left to `InstallTransaction`, which deletes it if unchanged.
/// Without a trustworthy base there is no merge: the file is a conflict that only
/// `--theirs` or `--ours` settles.
public struct UpdatePlan: Sendable {
    /// Why a file needs the user.
    public enum ConflictKind: String, Sendable {
        /// Written with conflict markers.
        case markers
        /// The base is not in the cache (or fails its hash): nothing was merged or written.
        case missingBase = "missing base"
        /// Upstream added a file where the user already has one: nothing was written.
        case existingFile = "file exists"
    }

    public struct Conflict: Sendable, Equatable {
        public var path: String
        public var kind: ConflictKind
    }

    public var install: InstallPlan
    /// What each file's change is, by path: "update", "keep", "merge", "create", "skip", "conflict".
    public var changes: [(path: String, change: String)]
    public var conflicts: [Conflict]
    /// Files the new version no longer lists, by path.
    public var removed: [String] { install.blocks.flatMap(\.staleFiles).map(\.path) }

    /// - Parameter settle: the side that settles conflicts, or nil to write markers.
    public static func make(
        contents: [BlockContent], registry: (String) -> String, root: URL, lock: Lockfile, year: Int,
        bases: BaseStore, settle: ThreeWayMerge.Side?
    ) throws -> UpdatePlan {
        try make(
            items: contents.map {
                InstallPlan.Item(
                    content: $0, reference: BlockReference(namespace: nil, name: $0.manifest.name), registry: registry($0.manifest.name), requested: false)
            },
            root: root, lock: lock, year: year, bases: bases, settle: settle,
            folderFor: { throw InstallError.notAdded($0, suggestions: []) })
    }

    /// The plan for `items`, each keyed by its reference. An item the lock does not hold
    /// yet (a dependency a new version gained) is added as `add` would add it, into
    /// `folderFor(reference.folderPath)`; a file already where it goes is a conflict that
    /// `--theirs` or `--ours` settles, as a file added upstream is.
    /// - Parameter transforms: the project's transform chain: the new version goes through
    ///   it, so the merge's three sides are the stored base (the transformed old version),
    ///   the transformed new version and the user's file.
    /// - Parameter retransform: whether a chain other than the one the lock records may be
    ///   applied (`update --retransform`); without it, a changed chain is an error.
    public static func make(
        items: [InstallPlan.Item], root: URL, lock: Lockfile, year: Int, bases: BaseStore, settle: ThreeWayMerge.Side?,
        transforms: ConfiguredTransforms? = nil, retransform: Bool = false, folderFor: (String) throws -> URL
    ) throws -> UpdatePlan {
        var blocks: [InstallPlan.Block] = []
        var changes: [(String, String)] = []
        var conflicts: [Conflict] = []
        for item in items {
            let content = item.content
            let name = item.reference.description
            let locked = lock.blocks[name]
            if let locked, locked.transforms != transforms?.identity, !retransform {
                throw InstallError.transformsChanged(block: name, recorded: locked.transforms, configured: transforms?.identity)
            }
            let demoPaths = content.manifest.files.filter { $0.role == .demo }.map { (locked?.folder ?? "") + "/" + $0.path }
            let includeDemo = locked == nil || demoPaths.isEmpty || demoPaths.contains { locked?.file(at: $0) != nil }
            let plan = try InstallPlan.make(
                items: [item], root: root, lock: lock, includeDemo: includeDemo, year: year, transforms: transforms,
                folderFor: { try locked.map { root.appendingPathComponent($0.folder) } ?? folderFor($0) })
            guard var block = plan.blocks.first else { continue }
            let labels = ThreeWayMerge.Labels(ours: "yours", base: "base \(locked?.version ?? "")", theirs: "\(name) \(content.manifest.version)")
            for index in block.files.indices {
                let entry = locked?.file(at: block.files[index].path)
                let change = decide(&block.files[index], entry: entry, bases: bases, labels: labels, settle: settle, conflicts: &conflicts)
                changes.append((block.files[index].path, change))
            }
            blocks.append(block)
        }
        let install = InstallPlan(root: root, blocks: blocks, previousLock: lock)
        return UpdatePlan(install: install, changes: changes, conflicts: conflicts)
    }

    /// What happens to one file of the new version, by the rules above; returns the change.
    static func decide(
        _ file: inout InstallPlan.File, entry: Lockfile.File?, bases: BaseStore, labels: ThreeWayMerge.Labels, settle: ThreeWayMerge.Side?,
        conflicts: inout [Conflict]
    ) -> String {
        let base = entry.flatMap { bases.load(sha256: $0.sha256) }
        // The same header step on both sides: the new version's header has the year
        // it was built in, and takes the base's (or, without one, the file's), so a
        // new year is no change to merge.
        if let entry, let existing = file.existing,
            let year = LicenseHeader.year(in: String(decoding: base ?? existing, as: UTF8.self))
        {
            file.content = LicenseHeader.settingYear(file.content, to: year)
            file.action = InstallPlan.decide(existing: existing, rendered: file.content, lockedHash: entry.sha256)
        }
        guard file.action == .conflict, let existing = file.existing else { return file.action.rawValue }
        guard let entry else { return settleTwoWay(&file, settle: settle, kind: .existingFile, conflicts: &conflicts) }
        if SHA256.hex(file.content) == entry.sha256 {
            return keepOrSettleMarkers(&file, existing: existing, settle: settle, conflicts: &conflicts)
        }
        guard let base else { return settleTwoWay(&file, settle: settle, kind: .missingBase, conflicts: &conflicts) }
        let ours = oursBeforeAnInterruptedRun(existing, labels: labels) ?? existing
        let merge = ThreeWayMerge(base: Array(base), ours: Array(ours), theirs: Array(file.content), labels: labels)
        file.recorded = file.content
        file.action = .overwrite
        var change: String
        if merge.isClean {
            file.content = Data(merge.merged)
            change = "merge"
        } else if let settle {
            file.content = Data(merge.settled(taking: settle))
            change = settle == .theirs ? "merge (theirs)" : "merge (ours)"
        } else {
            file.content = Data(merge.merged)
            change = "conflict"
            conflicts.append(Conflict(path: file.path, kind: .markers))
        }
        if file.content == existing { file.action = .skip }
        return change
    }

    /// Upstream is what the lock records: the user's file stays. Markers left by an
    /// earlier update are still a conflict, unless `--theirs`/`--ours` settles them.
    static func keepOrSettleMarkers(_ file: inout InstallPlan.File, existing: Data, settle: ThreeWayMerge.Side?, conflicts: inout [Conflict]) -> String {
        file.action = .keep
        guard ThreeWayMerge.containsConflictMarkers(Array(existing)) else { return "keep" }
        guard let settle, let settled = ThreeWayMerge.settlingMarkers(Array(existing), taking: settle) else {
            conflicts.append(Conflict(path: file.path, kind: .markers))
            return "conflict"
        }
        file.recorded = file.content
        file.content = Data(settled)
        file.action = .overwrite
        return settle == .theirs ? "settle (theirs)" : "settle (ours)"
    }

    /// The user's side of a file that already holds the markers of this very update
    /// (same base, same new version): a run killed after renaming it in, before the lock.
    /// Merging that again would nest markers; merging the side recovered from them gives
    /// the same bytes, so the re-run finishes the job. Nil for any other file.
    static func oursBeforeAnInterruptedRun(_ existing: Data, labels: ThreeWayMerge.Labels) -> Data? {
        let text = String(decoding: existing, as: UTF8.self)
        guard text.contains("\n||||||| \(labels.base)"), text.contains("\n>>>>>>> \(labels.theirs)"),
            let ours = ThreeWayMerge.settlingMarkers(Array(existing), taking: .ours)
        else { return nil }
        return Data(ours)
    }

    /// No base to merge from: `--theirs` replaces the file, `--ours` keeps it, and
    /// otherwise it is left as it is and reported.
    static func settleTwoWay(
        _ file: inout InstallPlan.File, settle: ThreeWayMerge.Side?, kind: ConflictKind, conflicts: inout [Conflict]
    ) -> String {
        switch settle {
        case .theirs?:
            file.action = .overwrite
            return "overwrite"
        case .ours?:
            file.action = .keep
            return "keep"
        case nil:
            file.action = .keep
            conflicts.append(Conflict(path: file.path, kind: kind))
            return "conflict"
        }
    }
}
