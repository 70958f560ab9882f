/// `blocks update [NAME...]`: brings added blocks to the registry's newest version and
/// keeps the user's changes, merging three ways from the base the lock records
/// (see `UpdatePlan`). A conflict is never silent: it is written with markers, listed,
/// and the command exits 1.
public enum UpdateCommand: Command {
    public static let spec = CommandSpec(
        name: "update",
        abstract: "Update added blocks to the newest version, merging in the changes you made.",
        discussion: """
            Files you did not change are replaced; files you changed are merged with the new
            version from the version you added. A conflict is written with git's markers and
            the command exits 1; settle it by editing, or run again with --theirs or --ours.
            """,
        arguments: [ArgumentSpec("name", help: "The blocks to update (default: every added block, as with --all).", optional: true, variadic: true, completion: .blockNames)],
        options: [
            OptionSpec("all", help: "Update every added block."),
            OptionSpec("to", value: "version", help: "Update one block to this published version instead of the newest."),
            SharedOptions.dryRun(help: "Print the plan and the merged diffs; write nothing."),
            OptionSpec("theirs", help: "Settle conflicts by taking the new version's lines."),
            OptionSpec("ours", help: "Settle conflicts by keeping your lines."),
        ],
        examples: [
            .init("blocks update --dry-run", "Show what updating every added block would change, merges included."),
            .init("blocks update pager --to 1.1.0", "Move pager to one published version, keeping your edits."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        context.protectFromInterruption("the project was not changed; run the same 'blocks update' again to update the blocks")
        let result = try perform(arguments, context: context)
        report(result, dryRun: arguments.flag("dry-run"), context: context)
        if let failure = result.packageFailure { context.warn(failure) }
        return result.plan.conflicts.isEmpty ? 0 : 1
    }

    /// What one `update` planned and did: `run` prints it, and the MCP server returns it.
    struct Result {
        var plan: UpdatePlan
        var outcome: InstallTransaction.Outcome
        /// The Swift packages the new versions need: commands run (or to run), and what to add by hand.
        var packages: PackageSteps
        /// Why running a package command failed, after the blocks were written.
        var packageFailure: String?
    }

    /// Everything `update` does but print its report. `beforeWriting` runs once the plan is
    /// made and before the first write: the MCP server stops a cancelled call there.
    ///
    /// The blocks are resolved as `add` resolves them (`BlockResolution`), each from the
    /// registry its lock entry names (a namespaced one through its own headers), so a new
    /// version's new dependencies are added in the same transaction and its packages get
    /// the same SwiftPM steps.
    static func perform(_ arguments: ParsedArguments, context: CommandContext, beforeWriting: () throws -> Void = {}) throws -> Result {
        if arguments.flag("theirs") && arguments.flag("ours") {
            throw UsageError.inapplicableOption("--ours", because: "--theirs already settles every conflict the other way")
        }
        let settle: ThreeWayMerge.Side? = arguments.flag("theirs") ? .theirs : arguments.flag("ours") ? .ours : nil
        let dryRun = arguments.flag("dry-run")
        let project = context.project()
        let root = project.root
        let mutex = dryRun ? nil : try ProjectMutex(root: root, notices: context.notices)
        defer { mutex?.release() }
        let leftovers = dryRun ? StagingArea.Leftovers() : StagingArea.removeLeftovers(root: root)
        defer { leftovers.carrier?.remove() }
        let lock = try project.readLock()
        let names = try chosenNames(arguments, lock: lock)
        let version = try targetVersion(arguments, names: names)
        let (registries, members) = try sources(names: names, lock: lock, project: project, context: context)
        let roots = names.map { name in
            BlockResolution.Root(name: BlockReference(name)?.name ?? name, member: members[name]!, version: version, requested: false)
        }
        let resolution = try BlockResolution.resolve(roots: roots, in: registries, lock: lock)
        let bases = BaseStore(cacheDirectory: context.cacheDirectory)
        let config = try project.config
        var plan = try UpdatePlan.make(
            items: resolution.items, root: root, lock: lock, year: try TemplateText.currentYear(environment: context.environment),
            bases: bases, settle: settle,
            folderFor: { try dependencyFolder(root: root, config: config, lock: lock, context: context).joining($0, isDirectory: true) })
        plan.install.lockRequiredBy = resolution.lockRequiredBy
        plan.install.lockReleasedBy = released(lock: lock, dependencies: resolution.dependencies)
        plan.install.adoptFolders(leftovers.folders)
        var outcome = InstallTransaction.Outcome()
        if !dryRun {
            try beforeWriting()
            // Bases first: a run killed after the lock must leave the next update its bases.
            let newLock = plan.install.lockAfter()
            if bases.storeBases(of: plan.install, lock: newLock) > 0 {
                context.warn("could not keep every base in \(bases.folder.path); the next update may need --theirs or --ours")
            }
            // In a classic Xcode project, references follow the files a new version adds or drops.
            let membership = XcodeProjects.membership(at: root, target: config?.target)
            let projectFile = try membership.flatMap { try XcodeProjects.projectFile(after: plan.install, membership: $0) }
            // Ctrl-C waits for the transaction: the project is left before or after, never between.
            outcome = try Interruption.deferring {
                try InstallTransaction.apply(
                    plan.install, lock: newLock, pauseBetweenSteps: InstallTransaction.testPause(context.environment), projectFile: projectFile)
            }
        }
        let (packages, packageFailure) = try AddOperation.packageSteps(resolution.packages, plan: plan.install, dryRun: dryRun, environment: context.environment)
        return Result(plan: plan, outcome: outcome, packages: packages, packageFailure: packageFailure)
    }

    /// The registry that answers each named lock entry: for `@acme/pager`, the namespace
    /// `blocks.json` configures, read through its headers; for a block of the default
    /// namespace, the registry on the command line (or in `blocks.json`), else the one
    /// its lock entry names. Also every registry of the project, for the dependencies.
    static func sources(names: [String], lock: Lockfile, project: Project, context: CommandContext) throws -> (RegistrySet, [String: RegistrySet.Member]) {
        let registries = try project.registries(option: context.registry, access: context.registryAccess)
        let option = context.registry.flatMap { $0.hasPrefix("@") ? nil : $0 }
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
                let access = try RegistrySources.pinning(context.registryAccess, location: location, config: config, root: root)
                opened[location] = RegistrySet.Member(namespace: nil, source: try RegistrySources.open(location, access: access))
            }
            members[name] = opened[location]
        }
        return (registries, members)
    }

    /// Where a block that a new version needs, and the project does not have yet, goes:
    /// the folder `blocks.json` names, else the one the project's blocks are in already
    /// (as the lock records them), else where `add` would put it.
    static func dependencyFolder(root: URL, config: ProjectConfig?, lock: Lockfile, context: CommandContext) throws -> URL {
        if config?.path == nil {
            for (key, block) in lock.blocks.sorted(by: { $0.key < $1.key }) {
                guard let reference = BlockReference(key), block.folder.hasSuffix("/" + reference.folderPath) else { continue }
                return root.joining(String(block.folder.dropLast(reference.folderPath.count + 1)), isDirectory: true)
            }
        }
        return try TargetFolder.resolve(
            root: root, config: config, pathOption: nil, paths: context.paths, notices: context.notices,
            chooser: context.chooser(allowPrompt: context.isInteractive)
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

    /// The names given, or every locked block with `--all` (or with no names). Each must be in the lock.
    static func chosenNames(_ arguments: ParsedArguments, lock: Lockfile) throws -> [String] {
        if arguments.flag("all") || arguments.positionals.isEmpty { return lock.blocks.keys.sorted() }
        var names: [String] = []
        for name in arguments.positionals where !names.contains(name) {
            guard lock.blocks[name] != nil else {
                throw InstallError.notAdded(name, suggestions: EditDistance.suggestions(for: name, in: lock.blocks.keys.sorted()))
            }
            names.append(name)
        }
        return names
    }

    /// `--to VERSION`, which names one block's version, so it needs exactly one NAME.
    static func targetVersion(_ arguments: ParsedArguments, names: [String]) throws -> String? {
        guard let version = arguments.value("to") else { return nil }
        guard !arguments.flag("all"), names.count == 1, arguments.positionals.count == 1 else {
            throw UsageError.missingOption("one block NAME", because: "--to \(version) names a version of one block")
        }
        guard AddCommand.isPlausibleVersion(version) else {
            throw UsageError.invalidValue(option: "--to", value: version, expected: "a published version, such as 1.1.0")
        }
        return version
    }

    /// The newest content of each named block (or, with `version`, the one named block at
    /// that published version), each from the registry `sources` chooses for it.
    static func upstream(names: [String], lock: Lockfile, root: URL, context: CommandContext, version: String? = nil) throws -> [InstallPlan.Item] {
        let (_, members) = try sources(names: names, lock: lock, project: context.project(), context: context)
        var items: [String: InstallPlan.Item] = [:]
        // One batch per registry.
        let groups = Dictionary(grouping: names) { (members[$0]!.namespace ?? "") + " " + members[$0]!.source.location }
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            let member = members[group[0]]!
            let plain = group.map { BlockReference($0)?.name ?? $0 }
            let fetched =
                try version.map { version in try plain.map { try member.source.contents(of: $0, version: version) } } ?? member.source.contents(of: plain)
            for (key, (name, content)) in zip(group, zip(plain, fetched)) {
                guard content.manifest.name == name else { throw InstallError.unexpectedBlock(requested: key, received: content.manifest.name) }
                items[key] = InstallPlan.Item(content: content, reference: member.reference(name), registry: member.source.location, requested: false)
            }
        }
        return names.compactMap { items[$0] }
    }

    /// The `--json` report, which the MCP server's `update_blocks` returns too.
    static func json(_ result: Result, dryRun: Bool) -> [String: JSONValue] {
        let plan = result.plan
        return [
            "dryRun": .bool(dryRun),
            "blocks": .array(
                plan.install.blocks.map { block in
                    .object([
                        "name": .string(block.reference.description), "version": .string(block.manifest.version),
                        "namespace": block.reference.namespace.map { .string($0) } ?? .null,
                        "added": .bool(plan.install.previousLock.blocks[block.reference.description] == nil),
                        "requiredBy": .array(block.requiredBy.map { .string($0) }),
                    ])
                }),
            "packageCommands": .array(result.packages.commands.map { .string($0.text) }),
            "packagesToAddByHand": .array(result.packages.manual.map { .string($0) }),
            "files": .array(plan.changes.map { .object(["path": .string($0.path), "change": .string($0.change)]) }),
            "conflicts": .array(plan.conflicts.map { .object(["path": .string($0.path), "kind": .string($0.kind.rawValue)]) }),
            "removed": .array(plan.removed.map { .string($0) }),
        ]
    }

    static func report(_ result: Result, dryRun: Bool, context: CommandContext) {
        let (plan, outcome) = (result.plan, result.outcome)
        let conflicted = Dictionary(plan.conflicts.map { ($0.path, $0.kind) }, uniquingKeysWith: { first, _ in first })
        if context.json {
            context.print(JSONOutput.encode(json(result, dryRun: dryRun)))
            return
        }
        let style = context.style
        var lines = ""
        for (path, change) in plan.changes where change != "skip" {
            let label = change.paddedToWidth(15)
            let note =
                conflicted[path].map { kind -> String in
                    switch kind {
                    case .markers: return dryRun ? " (both changed it; markers would be written)" : " (both changed it; markers written)"
                    case .missingBase: return " (no base kept for it, so no merge; run again with --theirs or --ours)"
                    case .existingFile: return " (new upstream, but you have a file there; run again with --theirs or --ours)"
                    }
                } ?? ""
            lines += "  " + style.apply(change == "conflict" ? .yellow : .cyan, label) + " " + path + note + "\n"
        }
        if dryRun {
            for path in plan.removed {
                lines += "  " + style.apply(.cyan, "remove".paddedToWidth(15)) + " " + path + " (no longer part of the block; deleted if unchanged)\n"
            }
        }
        for path in outcome.deletedStale { lines += "  " + style.apply(.cyan, "delete".paddedToWidth(15)) + " " + path + " (no longer part of the block)\n" }
        context.standardOutput.write(lines)
        for path in outcome.keptStale { context.warn("\(path) is no longer part of its block but you changed it, so it stays; it is no longer tracked") }
        for failure in outcome.failedStale { context.warn("could not delete \(failure), which is no longer part of its block; delete it yourself") }
        for command in result.packages.commands { context.print((dryRun ? "  would run " : "  run       ") + command.text) }
        for line in result.packages.manual { context.note("note: " + line) }
        if dryRun {
            for file in plan.install.allFiles where file.action.writes && file.existing != nil {
                context.standardOutput.write(AddCommand.diff(file))
            }
            for block in plan.install.blocks where plan.install.previousLock.blocks[block.reference.description] == nil {
                context.print(
                    "Would add \(block.reference) \(block.manifest.version) in \(block.folder) (needed by \(block.requiredBy.joined(separator: ", ")))")
            }
            context.print("Dry run: nothing was written.")
        } else {
            if plan.install.blocks.isEmpty {
                context.print("Nothing to update: no blocks have been added here yet; add one with 'blocks add NAME'.")
            }
            var changed = false
            for block in plan.install.blocks {
                let name = block.reference.description
                guard let old = plan.install.previousLock.blocks[name]?.version else {
                    changed = true
                    context.print("Added \(name) \(block.manifest.version) in \(block.folder) (needed by \(block.requiredBy.joined(separator: ", ")))")
                    continue
                }
                let wrote = block.files.contains { $0.action.writes }
                changed = changed || wrote || old != block.manifest.version
                context.print(
                    old != block.manifest.version
                        ? "Updated \(name) \(old) -> \(block.manifest.version)"
                        : wrote ? "Settled \(name) \(old)" : "Up to date: \(name) \(old)")
            }
            if plan.install.blocks.count > 0, !changed, plan.conflicts.isEmpty, outcome.deletedStale.isEmpty {
                context.print("Everything is up to date.")
            }
        }
        if !plan.conflicts.isEmpty {
            let count = plan.conflicts.count
            let files = plan.conflicts.map { "  \($0.path)" }.joined(separator: "\n")
            context.warn(
                dryRun
                    ? "\(count) file\(count == 1 ? "" : "s") would need you:\n\(files)\nRun 'blocks update' and edit out the markers, or run it with --theirs or --ours."
                    : "\(count) file\(count == 1 ? "" : "s") need\(count == 1 ? "s" : "") you:\n\(files)\nEdit out the markers, or run 'blocks update --theirs' or '--ours'."
            )
        }
    }
}
