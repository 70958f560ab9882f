/// `blocks diff [NAME...] [--upstream]`: what you changed in added blocks (base →
/// working file), or with `--upstream` what the registry changed (base → newest), as
/// unified diffs. Exits 0 when there is nothing to show and 1 when there is, like `diff`;
/// a failure exits 2 (a usage error 64), so a script can tell differences from trouble.
public enum DiffCommand: Command {
    public static let spec = CommandSpec(
        name: "diff",
        abstract: "Show what you changed in added blocks, or with --upstream what the registry changed.",
        discussion: """
            The base is exactly what 'blocks add' (or the last 'blocks update') wrote. Exits 0
            when there are no differences, 1 when there are, and 2 when it fails.
            """,
        arguments: [ArgumentSpec("name", help: "The blocks to compare (default: every added block).", optional: true, variadic: true, completion: .blockNames)],
        options: [upstreamOption, toOption],
        examples: [
            .init("blocks diff pager", "What you changed in pager since add wrote it."),
            .init("blocks diff --upstream", "What the registry changed since then, for every added block."),
        ])

    /// One file's comparison: its state and the diff, empty when there is none.
    struct Entry {
        var path: String
        var state: String
        var diff: String
    }

    static let upstreamOption = OptionSpec("upstream", help: "Compare the base with the registry's newest version instead of your files.")
    static let toOption = OptionSpec(
        "to", value: "version", help: "With --upstream, compare with this published version of one block instead of the newest.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        try CommandFailure.exiting(with: 2) { try compare(arguments, context: context) }
    }

    static func compare(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let project = context.project()
        let root = project.root
        let lock = try project.readLock()
        let names = try UpdateOperation.chosenNames(arguments.positionals, all: false, lock: lock)
        let bases = BaseStore(cacheDirectory: context.cacheDirectory)
        let version = try UpdateOperation.targetVersion(arguments.value(toOption), all: false, given: arguments.positionals, names: names)
        if version != nil && !arguments.flag(upstreamOption) {
            throw UsageError.inapplicableOption("--to", because: "without --upstream, diff compares the base with your files, not with a version")
        }
        let entries =
            arguments.flag(upstreamOption)
            ? try upstreamEntries(names: names, lock: lock, root: root, bases: bases, context: context, version: version)
            : localEntries(names: names, lock: lock, root: root, bases: bases)
        let different = entries.contains { $0.state != "unchanged" }
        if context.json {
            context.print(
                JSONOutput.encode([
                    "upstream": .bool(arguments.flag(upstreamOption)),
                    "files": .array(entries.map { .object(["path": .string($0.path), "state": .string($0.state)]) }),
                ]))
            return different ? 1 : 0
        }
        for entry in entries where entry.state == "no base" {
            context.warn(
                "no base is kept for \(entry.path) (or it fails its hash), so its changes cannot be shown; 'blocks update' will ask for --theirs or --ours")
        }
        context.standardOutput.write(entries.map(\.diff).joined())
        if !different {
            context.print(
                lock.blocks.isEmpty
                    ? "No changes: no blocks have been added here yet."
                    : arguments.flag(upstreamOption)
                        ? "No changes upstream: the registry's newest version matches what blocks added."
                        : "No changes: your files match what blocks added.")
        }
        return different ? 1 : 0
    }

    /// Base → working file, for every locked file of the named blocks.
    static func localEntries(names: [String], lock: Lockfile, root: URL, bases: BaseStore) -> [Entry] {
        names.flatMap { name in
            (lock.blocks[name]?.files ?? []).map { entry -> Entry in
                let state = BlockStatus.reportedState(of: entry, root: root)
                guard state != .unchanged else { return Entry(path: entry.path, state: state.rawValue, diff: "") }
                guard let base = bases.load(sha256: entry.sha256) else { return Entry(path: entry.path, state: "no base", diff: "") }
                let working = FileManager.default.contents(atPath: root.appendingPathComponent(entry.path).path) ?? Data()
                return Entry(path: entry.path, state: state.rawValue, diff: unified(base, working, path: entry.path, missingNew: state == .missing))
            }
        }
    }

    /// Base → the registry's newest version (or `version`), with the header step and the
    /// project's transforms applied as `update` applies them.
    static func upstreamEntries(names: [String], lock: Lockfile, root: URL, bases: BaseStore, context: CommandContext, version: String? = nil) throws -> [Entry]
    {
        let items = try UpdateCommand.upstream(names: names, lock: lock, root: root, context: context, version: version)
        let plan = try UpdatePlan.make(
            items: items, root: root, lock: lock, year: try TemplateText.currentYear(environment: context.environment),
            bases: bases, settle: nil, transforms: try context.project().transforms(environment: context.environment), retransform: true,
            folderFor: { throw InstallError.notAdded($0, suggestions: []) })
        let conflicted = Set(plan.conflicts.map(\.path))
        var entries: [Entry] = []
        for block in plan.install.blocks {
            let locked = lock.blocks[block.reference.description]
            for file in block.files {
                let upstream = file.recorded ?? file.content
                guard let entry = locked?.file(at: file.path) else {
                    entries.append(
                        Entry(
                            path: file.path, state: conflicted.contains(file.path) ? "would conflict" : "added upstream",
                            diff: unified(Data(), upstream, path: file.path, missingOld: true)))
                    continue
                }
                if SHA256.hex(upstream) == entry.sha256 {
                    entries.append(Entry(path: file.path, state: conflicted.contains(file.path) ? "conflict" : "unchanged", diff: ""))
                    continue
                }
                let state = conflicted.contains(file.path) ? "would conflict" : "modified upstream"
                guard let base = bases.load(sha256: entry.sha256) else {
                    entries.append(Entry(path: file.path, state: "no base", diff: ""))
                    continue
                }
                entries.append(Entry(path: file.path, state: state, diff: unified(base, upstream, path: file.path)))
            }
            for stale in block.staleFiles {
                let base = bases.load(sha256: stale.sha256)
                entries.append(
                    Entry(
                        path: stale.path, state: "removed upstream",
                        diff: base.map { unified($0, Data(), path: stale.path, missingNew: true) } ?? ""))
            }
        }
        return entries.sorted { $0.path < $1.path }
    }

    static func unified(_ old: Data, _ new: Data, path: String, missingOld: Bool = false, missingNew: Bool = false) -> String {
        LineDiff.unified(
            old: String(decoding: old, as: UTF8.self), new: String(decoding: new, as: UTF8.self),
            oldName: missingOld ? "/dev/null" : "a/" + path, newName: missingNew ? "/dev/null" : "b/" + path)
    }
}
