/// `add` as the library does it, for every front end: a typed request in, a typed
/// outcome out. It prints nothing: what a person should see on the way comes as
/// `Event`s, and what only a person can decide is asked through `Questions`, which the
/// front end supplies (the CLI asks on a terminal; the MCP server asks nothing).
public enum AddOperation {
    /// What to add, and where from.
    public enum Blocks: Sendable {
        /// Blocks of the project's registries; none named: `Questions.pickBlocks` names them.
        case registry([BlockResolution.Request])
        /// Every block of an exported archive.
        case archive(ArchiveFileSource)
    }

    public struct Request: Sendable {
        public var project: Project
        public var blocks: Blocks
        /// `--registry`: the default registry instead of blocks.json's.
        public var registryOption: String?
        /// The registries' access; also the cache, the environment, the paths and notices.
        public var access: RegistryAccess
        /// `--path`: the folder to add to, inside the project.
        public var pathOption: String?
        /// `--target`: the Xcode target the blocks join.
        public var targetOption: String?
        public var dryRun = false
        /// `--overwrite`: replace files the user changed.
        public var overwrite = false
        public var includeDemo = true

        public init(project: Project, blocks: Blocks, registryOption: String?, access: RegistryAccess) {
            self.project = project
            self.blocks = blocks
            self.registryOption = registryOption
            self.access = access
        }
    }

    /// What only a person can decide. Nil answers mean nobody can be asked.
    public struct Questions {
        /// The blocks to add when none were named (a list to pick from, or `--all`'s).
        public var pickBlocks: (RegistrySet) throws -> [BlockResolution.Request]
        /// Chooses among targets or folders; nil: nobody to ask.
        public var chooser: TargetFolder.Chooser?
        /// Whether to save in blocks.json the target a person just chose.
        public var saveChoice: () -> Bool = { false }
        /// Whether to overwrite one changed file; nil: nobody to ask, so a conflict fails
        /// unless `--overwrite`.
        public var overwrite: ((InstallPlan.File) -> Bool)?

        public init(pickBlocks: @escaping (RegistrySet) throws -> [BlockResolution.Request]) {
            self.pickBlocks = pickBlocks
        }
    }

    /// What happened on the way, in order, for the front end to show.
    public enum Event {
        /// The folder the plan puts new blocks in, once the plan is made.
        case targetFolder(TargetFolder)
        /// A person's choice of target was saved in blocks.json: the target or folder saved.
        case savedChoice(String)
        case warning(String)
    }

    /// What one `add` planned and did.
    public struct Outcome {
        public var plan: InstallPlan
        public var transaction: InstallTransaction.Outcome
        public var target: TargetFolder?
        public var warnings: [String]
        public var dryRun: Bool
        /// The Swift packages the blocks need: commands run (or to run), and what to add by hand.
        public var packages: PackageSteps
        /// Why running a package command failed, after the blocks were added.
        public var packageFailure: String?
        /// By block, the transforms its manifest recommends and the project does not run:
        /// mentioned, never run (`recommendations(_:chain:)`).
        public var recommendedTransforms: [String: [String]] = [:]
    }

    /// Everything `add` does. `beforeWriting` runs once the plan is settled and before the
    /// first write: the MCP server stops a cancelled call there.
    public static func perform(
        _ request: Request, questions: Questions, events: @escaping (Event) -> Void = { _ in }, beforeWriting: () throws -> Void = {}
    ) throws -> Outcome {
        let project = request.project
        // Outside a project, a folder of blocks would sit where nothing builds it: refused,
        // unless the user named the folder.
        if request.pathOption == nil, !project.isInsideProject {
            throw InstallError.notAProject(folder: request.access.paths.workingDirectory.standardizedFileURL.path)
        }
        let registries = try openRegistries(request, questions: questions)
        registries?.registries.prepareToInstall()
        let mutex = request.dryRun ? nil : try ProjectMutex(root: project.root, notices: request.access.notices)
        defer { mutex?.release() }
        let leftovers = request.dryRun ? StagingArea.Leftovers() : StagingArea.removeLeftovers(root: project.root)
        defer { leftovers.carrier?.remove() }
        let lock = try project.readLock()
        let (items, resolution) = try items(request, registries: registries, lock: lock)
        var target = TargetChoice(request: request, questions: questions, events: events)
        try target.checkLockedFolders(names: items.map(\.reference.description), lock: lock)
        let transforms = try project.transforms(environment: request.access.environment)
        var plan = try InstallPlan.make(
            items: items, root: project.root, lock: lock,
            includeDemo: request.includeDemo, year: try TemplateText.currentYear(environment: request.access.environment),
            transforms: transforms,
            folderFor: { try target.chosen().url.joining($0, isDirectory: true) })
        plan.lockRequiredBy = resolution?.lockRequiredBy ?? [:]
        plan.adoptFolders(leftovers.folders)
        if let chosen = target.resolved { events(.targetFolder(chosen)) }
        let warnings = platformWarnings(plan, root: project.root)
        for warning in warnings { events(.warning(warning)) }
        // A dry run leaves conflicts undecided, unless --overwrite already decided them.
        if !plan.conflicts.isEmpty && (!request.dryRun || request.overwrite) {
            try resolveConflicts(&plan, overwrite: request.overwrite, ask: questions.overwrite)
        }
        let membership = try target.membership(after: plan)
        var transaction = InstallTransaction.Outcome()
        if !request.dryRun {
            try beforeWriting()
            transaction = try write(plan, projectFile: membership?.edit, request: request)
        }
        let (packages, packageFailure) = try packageSteps(
            resolution?.packages ?? [], plan: plan, dryRun: request.dryRun, environment: request.access.environment)
        return Outcome(
            plan: plan, transaction: transaction, target: target.resolved, warnings: warnings, dryRun: request.dryRun,
            packages: packages, packageFailure: packageFailure, recommendedTransforms: recommendations(plan, chain: transforms))
    }

    /// The transforms each newly added version recommends that `chain` does not run. A
    /// registry only names them: nothing here finds, installs or runs a plugin. A name that
    /// is not a plugin name is left out, since it could only be a registry's mischief.
    static func recommendations(_ plan: InstallPlan, chain: ConfiguredTransforms?) -> [String: [String]] {
        let running = Set(chain?.chain.steps.map(\.plugin.name) ?? [])
        var recommended: [String: [String]] = [:]
        for block in plan.blocks where plan.previousLock.blocks[block.reference.description]?.version != block.manifest.version {
            let missing = block.manifest.recommendedTransforms.filter { ManifestValidator.isValidName($0) && !running.contains($0) }
            if !missing.isEmpty { recommended[block.reference.description] = missing }
        }
        return recommended
    }

    /// The registries and the blocks asked of them; nil for an archive. Opened before the
    /// project's lock and files are read, so a remote registry's libraries load on the
    /// other core meanwhile.
    static func openRegistries(
        _ request: Request, questions: Questions
    ) throws -> (registries: RegistrySet, requests: [BlockResolution.Request])? {
        guard case .registry(let named) = request.blocks else { return nil }
        let registries = try request.project.registries(option: request.registryOption, access: request.access)
        return (registries, named.isEmpty ? try questions.pickBlocks(registries) : named)
    }

    /// The plan's items: every block of the archive, or the registry blocks resolved with
    /// their dependencies.
    static func items(
        _ request: Request, registries: (registries: RegistrySet, requests: [BlockResolution.Request])?, lock: Lockfile
    ) throws -> ([InstallPlan.Item], BlockResolution.Outcome?) {
        if case .archive(let archive) = request.blocks {
            let items = try archive.contents(of: try archive.manifests().map(\.name)).map {
                InstallPlan.Item(content: $0, reference: BlockReference(namespace: nil, name: $0.manifest.name), registry: archive.location)
            }
            return (items, nil)
        }
        guard let registries else { return ([], nil) }
        let resolution = try BlockResolution.resolve(registries.requests, in: registries.registries, lock: lock)
        return (resolution.items, resolution)
    }

    /// Bases, then the transaction. Bases before the lock: a run killed after the lock must
    /// leave the next update its bases. Many are written on another thread while the files
    /// are staged and moved, and the lock waits for them; a few are written first, since
    /// starting the thread pool costs more than they do.
    static func write(_ plan: InstallPlan, projectFile: ProjectFileEdit?, request: Request) throws -> InstallTransaction.Outcome {
        let bases = BackgroundWrites()
        defer { bases.wait() }
        let store = BaseStore(cacheDirectory: request.access.cacheDirectory)
        let newLock = plan.lockAfter()
        bases.start(inline: plan.allFiles.count <= BackgroundWrites.smallBatch) { store.storeBases(of: plan, lock: newLock) }
        // Ctrl-C waits for the transaction: the project is left before or after, never between.
        return try Interruption.deferring {
            try InstallTransaction.apply(
                plan, lock: newLock, pauseBetweenSteps: InstallTransaction.testPause(request.access.environment), beforeLock: bases.wait,
                projectFile: projectFile)
        }
    }

    /// Applies `overwrite`, asks through `ask`, or fails listing the changed files.
    static func resolveConflicts(_ plan: inout InstallPlan, overwrite: Bool, ask: ((InstallPlan.File) -> Bool)?) throws {
        guard overwrite || ask != nil else { throw InstallError.conflicts(plan.conflicts.map(\.path)) }
        for blockIndex in plan.blocks.indices {
            for fileIndex in plan.blocks[blockIndex].files.indices where plan.blocks[blockIndex].files[fileIndex].action == .conflict {
                let file = plan.blocks[blockIndex].files[fileIndex]
                plan.blocks[blockIndex].files[fileIndex].action = overwrite || ask?(file) == true ? .overwrite : .keep
            }
        }
    }

    static func platformWarnings(_ plan: InstallPlan, root: URL) -> [String] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [] }
        let project = PackageManifestScanner.platforms(in: text)
        // Said once per version: a re-add of the same version stays quiet.
        let fresh = plan.blocks.filter { plan.previousLock.blocks[$0.reference.description]?.version != $0.manifest.version }
        return PlatformSupport.warnings(for: fresh, project: project)
            + fresh.flatMap { block in
                PlatformCheck.gaps(block: block.manifest.platforms, project: project).map { gap in
                    "\(block.reference) needs \(gap.platform) \(gap.blockMinimum), but Package.swift targets \(gap.platform) \(gap.projectMinimum). "
                        + "Its types are marked @available(\(gap.platform) \(gap.blockMinimum), *), so gate their use at the call site with "
                        + "'if #available(\(gap.platform) \(gap.blockMinimum), *)'. This does not stop the add."
                }
            }
    }

    /// The SwiftPM steps for the packages the plan's blocks need, run unless `dryRun`
    /// (after the blocks are written), and why running one failed: what `add` and
    /// `update` both do about packages. The lock then records what SwiftPM added and which
    /// packages were there before, so `remove` takes out only what blocks put in.
    public static func packageSteps(
        _ packages: [(package: PackageDependency, requiredBy: String)], plan: InstallPlan, dryRun: Bool, environment: [String: String]
    ) throws -> (steps: PackageSteps, failure: String?) {
        // No package, no need to look for `swift` along the PATH.
        let swift = packages.isEmpty ? nil : PackageSteps.findSwift(environment: environment)
        let steps = PackageSteps.plan(
            packages, root: plan.root,
            targetFolder: plan.blocks.first.flatMap { block in
                block.folder.hasSuffix("/" + block.reference.folderPath) ? String(block.folder.dropLast(block.reference.folderPath.count + 1)) : nil
            }, swiftAvailable: swift != nil)
        guard !dryRun, !packages.isEmpty else { return (steps, nil) }
        let manifest = try? String(contentsOf: plan.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let failure = steps.commands.isEmpty ? nil : swift.flatMap { steps.run(swift: $0, root: plan.root) }
        let succeeded = failure.map { steps.commands.dropLast($0.remaining.count + 1) } ?? steps.commands[...]
        let lock = try Lockfile.read(root: plan.root)
        let recorded = PackageSteps.recording(packages, succeeded: Array(succeeded), manifest: manifest, in: lock)
        if recorded != lock, !lock.blocks.isEmpty {
            try StagingArea.writeAtomically(
                recorded.encoded(), to: plan.root.appendingPathComponent(Lockfile.fileName), root: plan.root, displayPath: Lockfile.fileName)
        }
        guard let failure else { return (steps, nil) }
        return (
            steps,
            "\(failure.failed.text) failed: \(failure.reason); the blocks are added, so run it yourself"
                + (failure.remaining.isEmpty ? "" : ", then " + failure.remaining.map(\.text).joined(separator: "; "))
        )
    }
}

/// The target folder of one `add`, chosen the first time the plan needs it (blocks the
/// lock already placed need none), and the Xcode membership the plan's files join.
struct TargetChoice {
    let request: AddOperation.Request
    let questions: AddOperation.Questions
    let events: (AddOperation.Event) -> Void
    private(set) var resolved: TargetFolder?

    init(request: AddOperation.Request, questions: AddOperation.Questions, events: @escaping (AddOperation.Event) -> Void) {
        self.request = request
        self.questions = questions
        self.events = events
    }

    mutating func chosen() throws -> TargetFolder {
        if let resolved { return resolved }
        let root = request.project.root
        // A choice a person made is offered to be remembered, so the next add need not ask.
        var answered = false
        let chooser = questions.chooser.map { ask -> TargetFolder.Chooser in
            { question, options in
                let index = ask(question, options)
                if index != nil { answered = true }
                return index
            }
        }
        let folder = try TargetFolder.resolve(
            root: root, config: try request.project.config, pathOption: request.pathOption, paths: request.access.paths,
            notices: request.access.notices, chooser: chooser, targetOption: request.targetOption)
        resolved = folder
        if answered, !request.dryRun, questions.saveChoice() {
            try TargetFolder.saveChoice(folder, root: root)
            events(.savedChoice(folder.xcode.map { "target \($0.target)" } ?? folder.relativePath))
        }
        return folder
    }

    /// With `--path` and no `path` in blocks.json, a block the lock placed elsewhere is
    /// refused rather than moved.
    mutating func checkLockedFolders(names: [String], lock: Lockfile) throws {
        guard request.pathOption != nil, try request.project.config?.path == nil else { return }
        let root = request.project.root
        for name in names {
            guard let locked = lock.blocks[name] else { continue }
            let wanted = try chosen().url.appendingPathComponent(BlockReference(name)?.folderPath ?? name).standardizedFileURL
            if wanted != root.appendingPathComponent(locked.folder).standardizedFileURL {
                throw InstallError.addedElsewhere(block: name, folder: locked.folder)
            }
        }
    }

    /// The Xcode membership the plan's files join, with the project file's edit. Blocks the
    /// lock already placed need no folder, but their references are synced too.
    mutating func membership(after plan: InstallPlan) throws -> XcodeMembership? {
        let config = try request.project.config
        var membership = resolved?.xcode
        if resolved == nil, request.pathOption == nil, config?.path == nil {
            membership = XcodeProjects.membership(at: request.project.root, target: request.targetOption ?? config?.target)
        }
        guard var chosen = membership else { return nil }
        chosen.edit = try XcodeProjects.projectFile(after: plan, membership: chosen)
        resolved?.xcode = chosen
        return chosen
    }
}
