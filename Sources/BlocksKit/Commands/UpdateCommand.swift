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
        options: [allOption, toOption, dryRunOption, theirsOption, oursOption, retransformOption],
        examples: [
            .init("blocks update --dry-run", "Show what updating every added block would change, merges included."),
            .init("blocks update pager --to 1.1.0", "Move pager to one published version, keeping your edits."),
        ])

    static let allOption = OptionSpec("all", help: "Update every added block.")
    static let toOption = OptionSpec("to", value: "version", help: "Update one block to this published version instead of the newest.")
    static let dryRunOption = SharedOptions.dryRun(help: "Print the plan and the merged diffs; write nothing.")
    static let theirsOption = OptionSpec("theirs", help: "Settle conflicts by taking the new version's lines.")
    static let oursOption = OptionSpec("ours", help: "Settle conflicts by keeping your lines.")
    static let retransformOption = OptionSpec("retransform", help: "Apply blocks.json's transforms where they changed since a block was added.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        context.protectFromInterruption("the project was not changed; run the same 'blocks update' again to update the blocks")
        let request = try request(arguments, context: context)
        let result = try UpdateOperation.perform(request, chooser: context.chooser(allowPrompt: context.isInteractive))
        report(result, dryRun: request.dryRun, context: context)
        if let failure = result.packageFailure { context.warn(failure) }
        return result.plan.conflicts.isEmpty ? 0 : 1
    }

    /// The typed request the arguments make.
    static func request(_ arguments: ParsedArguments, context: CommandContext) throws -> UpdateOperation.Request {
        if arguments.flag(theirsOption) && arguments.flag(oursOption) {
            throw UsageError.inapplicableOption("--ours", because: "--theirs already settles every conflict the other way")
        }
        var request = UpdateOperation.Request(
            project: context.project(), names: arguments.positionals, registryOption: context.registry, access: context.registryAccess)
        request.all = arguments.flag(allOption)
        request.version = arguments.value(toOption)
        request.settle = arguments.flag(theirsOption) ? .theirs : arguments.flag(oursOption) ? .ours : nil
        request.dryRun = arguments.flag(dryRunOption)
        request.retransform = arguments.flag(retransformOption)
        return request
    }

    /// The newest content of each named block (or, with `version`, the one named block at
    /// that published version), each from the registry `sources` chooses for it.
    static func upstream(names: [String], lock: Lockfile, root: URL, context: CommandContext, version: String? = nil) throws -> [InstallPlan.Item] {
        let (_, members) = try UpdateOperation.sources(
            names: names, lock: lock, project: context.project(), registryOption: context.registry, access: context.registryAccess)
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
    static func json(_ result: UpdateOperation.Outcome, dryRun: Bool) -> [String: JSONValue] {
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

    /// After a real run: each block updated, settled, added or up to date.
    static func printSummary(_ result: UpdateOperation.Outcome, context: CommandContext) {
        let (plan, outcome) = (result.plan, result.transaction)
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

    static func report(_ result: UpdateOperation.Outcome, dryRun: Bool, context: CommandContext) {
        let (plan, outcome) = (result.plan, result.transaction)
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
            printSummary(result, context: context)
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
