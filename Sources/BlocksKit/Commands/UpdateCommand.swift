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
        arguments: [ArgumentSpec("name", help: "The blocks to update (default: every added block, as with --all).", optional: true, variadic: true)],
        options: [
            OptionSpec("all", help: "Update every added block."),
            OptionSpec("to", value: "version", help: "Update one block to this published version instead of the newest."),
            OptionSpec("dry-run", help: "Print the plan and the merged diffs; write nothing."),
            OptionSpec("theirs", help: "Settle conflicts by taking the new version's lines."),
            OptionSpec("ours", help: "Settle conflicts by keeping your lines."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let (plan, outcome) = try perform(arguments, context: context)
        report(plan, outcome: outcome, dryRun: arguments.flag("dry-run"), context: context)
        return plan.conflicts.isEmpty ? 0 : 1
    }

    /// Everything `update` does but print its report. `beforeWriting` runs once the plan is
    /// made and before the first write: the MCP server stops a cancelled call there.
    static func perform(
        _ arguments: ParsedArguments, context: CommandContext, beforeWriting: () throws -> Void = {}
    ) throws -> (plan: UpdatePlan, outcome: InstallTransaction.Outcome) {
        if arguments.flag("theirs") && arguments.flag("ours") {
            throw UsageError.inapplicableOption("--ours", because: "--theirs already settles every conflict the other way")
        }
        let settle: ThreeWayMerge.Side? = arguments.flag("theirs") ? .theirs : arguments.flag("ours") ? .ours : nil
        let dryRun = arguments.flag("dry-run")
        let root = ProjectLocator.projectRoot(from: context.workingDirectory)
        let mutex = dryRun ? nil : try ProjectMutex(root: root, notices: context.notices)
        defer { mutex?.release() }
        if !dryRun { StagingArea.removeLeftovers(root: root) }
        let lock = try Lockfile.read(root: root)
        let names = try chosenNames(arguments, lock: lock)
        let (contents, locations) = try upstream(names: names, lock: lock, root: root, context: context, version: try targetVersion(arguments, names: names))
        let bases = BaseStore(cacheDirectory: context.cacheDirectory)
        let plan = try UpdatePlan.make(
            contents: contents, registry: { locations[$0] ?? lock.blocks[$0]?.registry ?? "" }, root: root, lock: lock,
            year: try TemplateText.currentYear(environment: context.environment), bases: bases, settle: settle)
        var outcome = InstallTransaction.Outcome()
        if !dryRun {
            try beforeWriting()
            // Bases first: a run killed after the lock must leave the next update its bases.
            if bases.storeBases(of: plan.install) > 0 {
                context.warn("could not keep every base in \(bases.folder.path); the next update may need --theirs or --ours")
            }
            outcome = try InstallTransaction.apply(plan.install, pauseBetweenSteps: InstallTransaction.testPause(context.environment))
        }
        return (plan, outcome)
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
    /// that published version), from the registry on the command line (or in
    /// `blocks.json`), else the one each block came from; and each block's registry location.
    static func upstream(names: [String], lock: Lockfile, root: URL, context: CommandContext, version: String? = nil) throws -> ([BlockContent], [String: String]) {
        let config = try ProjectConfig.read(root: root)
        let override = context.registry ?? config?.registryLocation(root: root)
        let groups = Dictionary(grouping: names) { override ?? lock.blocks[$0]?.registry ?? "embedded" }
        var contents: [String: BlockContent] = [:]
        var locations: [String: String] = [:]
        for (location, group) in groups.sorted(by: { $0.key < $1.key }) {
            let source = try RegistrySources.open(location, access: RegistrySources.pinning(context.registryAccess, location: location, config: config, root: root))
            let fetched = try version.map { version in try group.map { try source.contents(of: $0, version: version) } } ?? source.contents(of: group)
            for (name, content) in zip(group, fetched) {
                guard content.manifest.name == name else { throw InstallError.unexpectedBlock(requested: name, received: content.manifest.name) }
                contents[name] = content
                locations[name] = source.location
            }
        }
        return (names.compactMap { contents[$0] }, locations)
    }

    /// The `--json` report, which the MCP server's `update_blocks` returns too.
    static func json(_ plan: UpdatePlan, dryRun: Bool) -> [String: JSONValue] {
        [
            "dryRun": .bool(dryRun),
            "blocks": .array(plan.install.blocks.map { block in
                .object(["name": .string(block.manifest.name), "version": .string(block.manifest.version)])
            }),
            "files": .array(plan.changes.map { .object(["path": .string($0.path), "change": .string($0.change)]) }),
            "conflicts": .array(plan.conflicts.map { .object(["path": .string($0.path), "kind": .string($0.kind.rawValue)]) }),
            "removed": .array(plan.removed.map { .string($0) }),
        ]
    }

    static func report(_ plan: UpdatePlan, outcome: InstallTransaction.Outcome, dryRun: Bool, context: CommandContext) {
        let conflicted = Dictionary(plan.conflicts.map { ($0.path, $0.kind) }, uniquingKeysWith: { first, _ in first })
        if context.json {
            context.print(JSONOutput.encode(json(plan, dryRun: dryRun)))
            return
        }
        let style = context.style
        var lines = ""
        for (path, change) in plan.changes where change != "skip" {
            let label = change.paddedToWidth(15)
            let note = conflicted[path].map { kind -> String in
                switch kind {
                case .markers: return dryRun ? " (both changed it; markers would be written)" : " (both changed it; markers written)"
                case .missingBase: return " (no base kept for it, so no merge; run again with --theirs or --ours)"
                case .existingFile: return " (new upstream, but you have a file there; run again with --theirs or --ours)"
                }
            } ?? ""
            lines += "  " + style.apply(change == "conflict" ? .yellow : .cyan, label) + " " + path + note + "\n"
        }
        if dryRun {
            for path in plan.removed { lines += "  " + style.apply(.cyan, "remove".paddedToWidth(15)) + " " + path + " (no longer part of the block; deleted if unchanged)\n" }
        }
        for path in outcome.deletedStale { lines += "  " + style.apply(.cyan, "delete".paddedToWidth(15)) + " " + path + " (no longer part of the block)\n" }
        context.standardOutput.write(lines)
        for path in outcome.keptStale { context.warn("\(path) is no longer part of its block but you changed it, so it stays; it is no longer tracked") }
        for failure in outcome.failedStale { context.warn("could not delete \(failure), which is no longer part of its block; delete it yourself") }
        if dryRun {
            for file in plan.install.allFiles where file.action.writes && file.existing != nil {
                context.standardOutput.write(AddCommand.diff(file))
            }
            context.print("Dry run: nothing was written.")
        } else {
            for block in plan.install.blocks {
                let old = plan.install.previousLock.blocks[block.manifest.name]?.version ?? "?"
                let wrote = block.files.contains { $0.action.writes }
                context.print(old != block.manifest.version ? "Updated \(block.manifest.name) \(old) -> \(block.manifest.version)"
                    : wrote ? "Settled \(block.manifest.name) \(old)" : "Up to date: \(block.manifest.name) \(old)")
            }
        }
        if !plan.conflicts.isEmpty {
            let count = plan.conflicts.count
            let files = plan.conflicts.map { "  \($0.path)" }.joined(separator: "\n")
            context.warn(dryRun
                ? "\(count) file\(count == 1 ? "" : "s") would need you:\n\(files)\nRun 'blocks update' and edit out the markers, or run it with --theirs or --ours."
                : "\(count) file\(count == 1 ? "" : "s") need\(count == 1 ? "s" : "") you:\n\(files)\nEdit out the markers, or run 'blocks update --theirs' or '--ours'.")
        }
    }
}
