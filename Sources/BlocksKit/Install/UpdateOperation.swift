/// `update` as the library does it, for every front end: a typed request in, a typed
/// outcome out, nothing printed. The blocks are resolved as `add` resolves them
/// (`BlockResolution`), each from the registry its lock entry names (a namespaced one
/// through its own headers), so a new version's new dependencies are added in the same
/// transaction and its packages get the same SwiftPM steps (`AddOperation.packageSteps`).
public enum UpdateOperation {
    public struct Request: Sendable {
        public var project: Project
        /// The blocks named, as typed (each must be in the lock); none: every added block.
        public var names: [String]
        /// `--all`: every added block, whatever is named.
        public var all = false
        /// `--to`: one named block to this published version instead of the newest.
        public var version: String?
        /// `--theirs` or `--ours`: how conflicts are settled; nil writes markers.
        public var settle: ThreeWayMerge.Side?
        public var dryRun = false
        /// `--registry`: the default registry instead of blocks.json's.
        public var registryOption: String?
        /// `--retransform`: apply blocks.json's transforms even where the lock records another chain.
        public var retransform = false
        /// The registries' access; also the cache, the environment, the paths and notices.
        public var access: RegistryAccess

        public init(project: Project, names: [String], registryOption: String?, access: RegistryAccess) {
            self.project = project
            self.names = names
            self.registryOption = registryOption
            self.access = access
        }
    }

    /// What one `update` planned and did.
    public struct Outcome {
        public var plan: UpdatePlan
        public var transaction: InstallTransaction.Outcome
        /// The Swift packages the new versions need: commands run (or to run), and what to add by hand.
        public var packages: PackageSteps
        /// Why running a package command failed, after the blocks were written.
        public var packageFailure: String?
    }

    /// Everything `update` does. `chooser` picks a folder for a new dependency when the
    /// project has none yet (nil: nobody to ask); `beforeWriting` runs once the plan is made
    /// and before the first write: the MCP server stops a cancelled call there.
    public static func perform(
        _ request: Request, chooser: TargetFolder.Chooser? = nil, beforeWriting: () throws -> Void = {}
    ) throws -> Outcome {
        let (project, root, access) = (request.project, request.project.root, request.access)
        let mutex = request.dryRun ? nil : try ProjectMutex(root: root, notices: access.notices)
        defer { mutex?.release() }
        let leftovers = request.dryRun ? StagingArea.Leftovers() : StagingArea.removeLeftovers(root: root)
        defer { leftovers.carrier?.remove() }
        let lock = try project.readLock()
        let names = try chosenNames(request.names, all: request.all, lock: lock)
        let version = try targetVersion(request.version, all: request.all, given: request.names, names: names)
        let (registries, members) = try sources(names: names, lock: lock, project: project, registryOption: request.registryOption, access: access)
        let roots = names.map { name in
            BlockResolution.Root(name: BlockReference(name)?.name ?? name, member: members[name]!, version: version, requested: false)
        }
        let resolution = try BlockResolution.resolve(roots: roots, in: registries, lock: lock)
        let bases = BaseStore(cacheDirectory: access.cacheDirectory)
        let config = try project.config
        var plan = try UpdatePlan.make(
            items: resolution.items, root: root, lock: lock, year: try TemplateText.currentYear(environment: access.environment),
            bases: bases, settle: request.settle, transforms: try project.transforms(environment: access.environment), retransform: request.retransform,
            folderFor: { try dependencyFolder(project: project, lock: lock, access: access, chooser: chooser).joining($0, isDirectory: true) })
        plan.install.lockRequiredBy = resolution.lockRequiredBy
        plan.install.lockReleasedBy = released(lock: lock, dependencies: resolution.dependencies)
        plan.install.adoptFolders(leftovers.folders)
        var transaction = InstallTransaction.Outcome()
        if !request.dryRun {
            try beforeWriting()
            transaction = try write(plan, bases: bases, target: config?.target, request: request)
        }
        let (packages, packageFailure) = try AddOperation.packageSteps(
            resolution.packages, plan: plan.install, dryRun: request.dryRun, environment: access.environment)
        return Outcome(plan: plan, transaction: transaction, packages: packages, packageFailure: packageFailure)
    }

    /// Bases first (a run killed after the lock must leave the next update its bases), then
    /// the transaction, with the Xcode references following the files a new version adds or drops.
    static func write(_ plan: UpdatePlan, bases: BaseStore, target: String?, request: Request) throws -> InstallTransaction.Outcome {
        let newLock = plan.install.lockAfter()
        if bases.storeBases(of: plan.install, lock: newLock) > 0 {
            request.access.notices(.warning("could not keep every base in \(bases.folder.path); the next update may need --theirs or --ours"))
        }
        let membership = XcodeProjects.membership(at: request.project.root, target: target)
        let projectFile = try membership.flatMap { try XcodeProjects.projectFile(after: plan.install, membership: $0) }
        // Ctrl-C waits for the transaction: the project is left before or after, never between.
        return try Interruption.deferring {
            try InstallTransaction.apply(
                plan.install, lock: newLock, pauseBetweenSteps: InstallTransaction.testPause(request.access.environment), projectFile: projectFile)
        }
    }

    /// The names given, or every locked block with `all` (or with no names). Each must be in the lock.
    public static func chosenNames(_ given: [String], all: Bool, lock: Lockfile) throws -> [String] {
        if all || given.isEmpty { return lock.blocks.keys.sorted() }
        var names: [String] = []
        for name in given where !names.contains(name) {
            guard lock.blocks[name] != nil else {
                throw InstallError.notAdded(name, suggestions: EditDistance.suggestions(for: name, in: lock.blocks.keys.sorted()))
            }
            names.append(name)
        }
        return names
    }

    /// `--to VERSION`, which names one block's version, so it needs exactly one NAME.
    public static func targetVersion(_ version: String?, all: Bool, given: [String], names: [String]) throws -> String? {
        guard let version else { return nil }
        guard !all, names.count == 1, given.count == 1 else {
            throw UsageError.missingOption("one block NAME", because: "--to \(version) names a version of one block")
        }
        guard BlockResolution.isPlausibleVersion(version) else {
            throw UsageError.invalidValue(option: "--to", value: version, expected: "a published version, such as 1.1.0")
        }
        return version
    }

    /// The registry that answers each named lock entry: for `@acme/pager`, the namespace
    /// `blocks.json` configures, read through its headers; for a block of the default
    /// namespace, the registry on the command line (or in `blocks.json`), else the one
    /// its lock entry names. Also every registry of the project, for the dependencies.
    public static func sources(
        names: [String], lock: Lockfile, project: Project, registryOption: String?, access: RegistryAccess
    ) throws -> (RegistrySet, [String: RegistrySet.Member]) {
        let registries = try project.registries(option: registryOption, access: access)
        let option = registryOption.flatMap { $0.hasPrefix("@") ? nil : $0 }
        let (config, root) = (try project.config, project.root)
        let override = option ?? config?.registryLocation(root: root)
        let defaultMember = registries.members.first { $0.namespace == nil }
        var opened: [String: RegistrySet.Member] = [:]
        if let defaultMember { opened[defaultMember.source.location] = defaultMember }
        var members: [String: RegistrySet.Member] = [:]
        for name in names {
            if let namespace = lock.blocks[name]?.namespace ?? BlockReference(name)?.namespace {
                members[name] = try registries.member(namespace: namespace)
                continue
            }
            if override != nil, let defaultMember {
                members[name] = defaultMember
                continue
            }
            let location = override ?? lock.blocks[name]?.registry ?? "embedded"
            if opened[location] == nil {
                let pinned = try RegistrySources.pinning(access, location: location, config: config, root: root)
                opened[location] = RegistrySet.Member(namespace: nil, source: try RegistrySources.open(location, access: pinned))
            }
            members[name] = opened[location]
        }
        return (registries, members)
    }

    /// Where a block that a new version needs, and the project does not have yet, goes:
    /// the folder `blocks.json` names, else the one the project's blocks are in already
    /// (as the lock records them), else where `add` would put it.
    static func dependencyFolder(project: Project, lock: Lockfile, access: RegistryAccess, chooser: TargetFolder.Chooser?) throws -> URL {
        let (config, root) = (try project.config, project.root)
        if config?.path == nil {
            for (key, block) in lock.blocks.sorted(by: { $0.key < $1.key }) {
                guard let reference = BlockReference(key), block.folder.hasSuffix("/" + reference.folderPath) else { continue }
                return root.joining(String(block.folder.dropLast(reference.folderPath.count + 1)), isDirectory: true)
            }
        }
        return try TargetFolder.resolve(
            root: root, config: config, pathOption: nil, paths: access.paths, notices: access.notices, chooser: chooser
        ).url
    }

    /// For each lock entry, the blocks updated here whose new version no longer needs it.
    static func released(lock: Lockfile, dependencies: [String: [String]]) -> [String: [String]] {
        var released: [String: [String]] = [:]
        for (key, block) in lock.blocks {
            let former = block.requiredBy.filter { dependent in dependencies[dependent].map { !$0.contains(key) } ?? false }
            if !former.isEmpty { released[key] = former }
        }
        return released
    }
}
