/// `blocks add NAME...`: copies blocks into the project with the MIT header, records
/// them in `blocks.lock`, and never overwrites a file the user changed unless told to.
public enum AddCommand: Command {
    public static let spec = CommandSpec(
        name: "add",
        abstract: "Copy blocks into your project, with the MIT header, and record them in blocks.lock.",
        discussion: """
            The target folder is, in order: the path in blocks.json (see 'blocks init'), --path,
            Sources/<Target>/Blocks for a package with one target, Blocks/ inside the folder of
            an Xcode project's app target (or --target), or Blocks/ in the current folder. Outside
            a project (no Package.swift, Xcode project, blocks.json or blocks.lock here or
            above), add asks for 'blocks init' or --path. Each block goes into its own subfolder. In an Xcode project the files join the target:
            a synchronized folder needs no edit; with classic groups project.pbxproj gets
            their references, as Xcode writes them.
            """,
        arguments: [
            ArgumentSpec(
                "name",
                help:
                    "The blocks to add, e.g. scrolling-strip, pager@1.0.0 (a published version; the newest without one) or @acme/pager (a namespaced registry of blocks.json), or an exported archive's path or URL. The blocks they depend on come along. On a terminal, leave them out to pick from a list.",
                optional: true, variadic: true, completion: .blockNames)
        ],
        options: [
            pathOption, targetOption, allOption, dryRunOption, overwriteOption, yesOption, noDemoOption, sha256Option,
        ],
        examples: [
            .init("blocks add top-tabs", "Copy top-tabs, and the blocks it needs, into the project."),
            .init("blocks add pager@1.0.0 --dry-run", "Show what adding that version would write, and write nothing."),
        ])

    static let pathOption = OptionSpec("path", value: "dir", help: "The folder to add blocks to, inside the project.")
    static let targetOption = OptionSpec("target", value: "name", help: "In an Xcode project with several targets, the one the blocks join.")
    static let dryRunOption = SharedOptions.dryRun(help: "Print the plan and the diffs; write nothing.")
    static let noDemoOption = OptionSpec("no-demo", help: "Leave out the demo view.")
    static let sha256Option = OptionSpec("sha256", value: "hex", help: "The expected SHA-256 of an archive given by URL.")
    static let allOption = OptionSpec("all", help: "Add every block of the registry (the default one, or --registry's).")
    static let overwriteOption = SharedOptions.overwrite(help: "Replace files you changed with the block's version.")
    static let yesOption = SharedOptions.yes(help: "Ask nothing; take every choice that loses no work (changed files still need --overwrite).")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        context.protectFromInterruption("the project was not changed; run the same 'blocks add' again to add the blocks")
        let result: AddOperation.Outcome
        do {
            result = try perform(arguments, context: context)
        } catch is NothingChosen {
            context.note("Nothing added.")
            return 0
        }
        report(result, context: context)
        if let failure = result.packageFailure { context.warn(failure) }
        return 0
    }

    /// The typed request the arguments make. Checked in the order a person reads them:
    /// an archive, its checksum, then the names.
    static func request(_ arguments: ParsedArguments, context: CommandContext) throws -> AddOperation.Request {
        let blocks: AddOperation.Blocks
        if let archive = try archiveSource(arguments, context: context) {
            blocks = .archive(archive)
        } else {
            if arguments.value(sha256Option) != nil {
                throw UsageError.inapplicableOption(
                    "--sha256", because: "it checks an archive given by path or URL; a registry's blocks are checked against its index")
            }
            blocks = .registry(try validatedRequests(arguments.positionals))
        }
        var request = AddOperation.Request(project: context.project(), blocks: blocks, registryOption: context.registry, access: context.registryAccess)
        request.pathOption = arguments.value(pathOption)
        request.targetOption = arguments.value(targetOption)
        request.dryRun = arguments.flag(dryRunOption)
        request.overwrite = arguments.flag(overwriteOption)
        request.includeDemo = !arguments.flag(noDemoOption)
        return request
    }

    /// What only a person decides, asked on a terminal: which blocks (unless `--all`),
    /// which target, whether to save that choice, whether to overwrite a changed file.
    static func questions(all: Bool, interactive: Bool, context: CommandContext) -> AddOperation.Questions {
        var questions = AddOperation.Questions { registries in
            let requests = try validatedRequests(try namesToAdd(all: all, interactive: interactive, registries: registries, context: context))
            if requests.isEmpty { throw NothingChosen() }
            return requests
        }
        questions.chooser = context.chooser(allowPrompt: interactive)
        questions.saveChoice = {
            Prompt.letter("Save this choice in \(ProjectConfig.fileName)?", letters: ["y", "n"], defaultLetter: "n", context: context) == "y"
        }
        if interactive { questions.overwrite = { askOverwrite($0, context: context) } }
        return questions
    }

    /// What the operation says on the way, shown as `add` always showed it. `--quiet` keeps
    /// the outcome (and every warning and error), not the details; a dry run's plan is its outcome.
    static func show(_ event: AddOperation.Event, dryRun: Bool, context: CommandContext) {
        switch event {
        case .targetFolder(let target):
            guard !context.json, !context.quiet || dryRun else { return }
            context.print("Target folder: \(target.relativePath) (\(target.reason))")
            if let membership = target.xcode { context.print("Xcode: " + membership.summary) }
        case .savedChoice(let saved):
            context.note("Saved \(saved) in \(ProjectConfig.fileName); change it with 'blocks init --path DIR' or '--target NAME'.")
        case .warning(let warning):
            context.warn(warning)
        }
    }

    /// Everything `add` does but print its report: the typed request, asked through the terminal.
    static func perform(_ arguments: ParsedArguments, context: CommandContext) throws -> AddOperation.Outcome {
        let request = try request(arguments, context: context)
        let interactive = context.isInteractive && !arguments.flag(yesOption)
        return try AddOperation.perform(
            request, questions: questions(all: arguments.flag(allOption), interactive: interactive, context: context),
            events: { show($0, dryRun: request.dryRun, context: context) })
    }

    /// `blocks add ./tabs.zip` or `blocks add https://host/tabs.tar.gz --sha256 HEX`: every
    /// block in the archive. Nil when the arguments are block names.
    static func archiveSource(_ arguments: ParsedArguments, context: CommandContext) throws -> ArchiveFileSource? {
        guard let first = arguments.positionals.first,
            ArchiveFormat.forFile(first) != nil || RedirectPolicy.isHTTP(first)
        else { return nil }
        guard arguments.positionals.count == 1 else { throw UsageError.unexpectedArgument(arguments.positionals[1]) }
        if RedirectPolicy.isHTTP(first) {
            if let (name, base) = registryMetadataURL(first) {
                throw CommandFailure(AddArgumentError.registryFile(url: first, name: name, base: base), exitCode: 64)
            }
            guard let checksum = arguments.value(sha256Option) else {
                throw UsageError.missingOption(
                    "--sha256 <hex>",
                    because: "an archive from a URL is checked against it before anything is written; whoever published it has it"
                        + " ('blocks export --json' prints it, as does 'shasum -a 256 FILE')")
            }
            guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else {
                throw UsageError.invalidValue(option: "--sha256", value: checksum, expected: "64 hexadecimal digits")
            }
            return try ArchiveFileSource.download(first, sha256: checksum, access: context.registryAccess)
        }
        let url = context.resolve(first)
        guard PathKind(url.path) != .missing else { throw AddArgumentError.missingArchive(typed: first, path: url.path) }
        if let checksum = arguments.value(sha256Option) {
            try SHA256.verify(digest: SHA256.hex(fileAt: url), expected: checksum) { HTTPError.checksumMismatch(url: url.path, expected: checksum, actual: $0) }
        }
        return try ArchiveFileSource(url: url)
    }

    /// A URL of a built registry's own files rather than an archive: `BASE/blocks/NAME.json`
    /// (a block's metadata) gives the block's name and the registry's base, and
    /// `BASE/index.json` gives the base and no name. Nil for any other URL.
    static func registryMetadataURL(_ url: String) -> (name: String?, base: String)? {
        let bare = String(url.prefix { $0 != "?" && $0 != "#" })
        if bare.hasSuffix("/index.json") { return (nil, String(bare.dropLast("/index.json".count))) }
        let parts = bare.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 4, parts[parts.count - 2] == "blocks", parts[parts.count - 1].hasSuffix(".json") else { return nil }
        let name = String(parts[parts.count - 1].dropLast(".json".count))
        guard ManifestValidator.isValidName(name) else { return nil }
        return (name, parts.dropLast(2).joined(separator: "/"))
    }

    /// `NAME`, `@NAMESPACE/NAME`, each optionally with `@VERSION`, each block once: the
    /// one rule for `add` and `info`. Names are lowercase, so `Pager` can only mean `pager`.
    static func validatedRequests(_ arguments: [String]) throws -> [BlockResolution.Request] {
        var requests: [BlockResolution.Request] = []
        for argument in arguments {
            // The version's `@` is the first one after the namespace's.
            let searchFrom = argument.hasPrefix("@") ? argument.index(after: argument.startIndex) : argument.startIndex
            let at = argument[searchFrom...].firstIndex(of: "@")
            let name = String(argument[..<(at ?? argument.endIndex)])
            let version = at.map { String(argument[argument.index(after: $0)...]) }
            if let version, !BlockResolution.isPlausibleVersion(version) {
                throw UsageError.invalidValue(option: "<name>", value: argument, expected: "NAME or NAME@VERSION, such as 'pager@1.0.0'")
            }
            let checked = try validatedReferences([name])[0]
            if let existing = requests.first(where: { $0.reference == checked }) {
                guard existing.version == version else {
                    throw UsageError.invalidValue(option: "<name>", value: argument, expected: "each block once")
                }
                continue
            }
            requests.append(BlockResolution.Request(reference: checked, version: version))
        }
        return requests
    }

    /// Plain block names (no namespace), each once: what the MCP tools accept.
    static func validatedNames(_ names: [String]) throws -> [String] {
        var seen: [String] = []
        for name in names where !seen.contains(name) {
            guard ManifestValidator.isValidName(name) else {
                throw UsageError.invalidValue(
                    option: "<name>", value: name, expected: "a block name such as 'scrolling-strip' (lowercase letters, digits and dashes)")
            }
            seen.append(name)
        }
        return seen
    }

    /// Block names, `pager` or `@acme/pager`, in any case, each once.
    static func validatedReferences(_ names: [String]) throws -> [BlockReference] {
        var seen: [BlockReference] = []
        for name in names {
            guard let reference = BlockReference(name.lowercased()) else {
                throw UsageError.invalidValue(
                    option: "<name>", value: name,
                    expected:
                        "a block name such as 'scrolling-strip' (lowercase letters, digits and dashes), or '@namespace/name' for a registry of blocks.json")
            }
            if !seen.contains(reference) { seen.append(reference) }
        }
        return seen
    }

    /// The blocks to add when none were named: `--all`'s, else the ones a person picks on a
    /// terminal, else a usage error with an example (a script must name what it adds).
    static func namesToAdd(all: Bool, interactive: Bool, registries: RegistrySet, context: CommandContext) throws -> [String] {
        let example = spec.examples.first?.commandLine
        if all {
            let member = registries.members[0]
            return try member.source.manifests().map { member.reference($0.name).description }
        }
        guard interactive, !context.json else {
            throw UsageError.missingArgument("name", example: example, hint: "'blocks list' shows every name; --all adds them all")
        }
        let listed = try Prompt.blockChoices(in: registries)
        // Choosing none is an answer, not a mistake: `add` then adds nothing (`namesToAdd` is empty).
        return Prompt.chooseSeveral("Which blocks?", options: listed.map(\.label), names: listed.map(\.name), context: context) ?? []
    }

    static func askOverwrite(_ file: InstallPlan.File, context: CommandContext) -> Bool {
        for _ in 0..<3 {
            let answer = Prompt.letter(
                "\(file.path) has changes blocks did not write. Overwrite it? (d shows the diff)",
                letters: ["y", "n", "d"], defaultLetter: "n", context: context)
            if answer != "d" { return answer == "y" }
            context.standardError.write(diff(file))
        }
        return false
    }

    static func diff(_ file: InstallPlan.File) -> String {
        LineDiff.unified(
            old: file.existing.map { String(decoding: $0, as: UTF8.self) } ?? "",
            new: String(decoding: file.content, as: UTF8.self),
            oldName: "a/" + file.path, newName: "b/" + file.path)
    }

    static func report(_ result: AddOperation.Outcome, context: CommandContext) {
        report(
            result.plan, outcome: result.transaction, target: result.target, warnings: result.warnings, dryRun: result.dryRun,
            packages: result.packages, recommended: result.recommendedTransforms, context: context)
    }

    static func report(
        _ plan: InstallPlan, outcome: InstallTransaction.Outcome, target: TargetFolder?, warnings: [String],
        dryRun: Bool, packages: PackageSteps = PackageSteps(commands: [], manual: []), recommended: [String: [String]] = [:],
        context: CommandContext
    ) {
        if context.json {
            let object = json(plan, outcome: outcome, target: target, warnings: warnings, dryRun: dryRun, packages: packages, recommended: recommended)
            context.print(JSONOutput.encode(object))
            return
        }
        let style = context.style
        let labels: [InstallPlan.Action: String] = [
            .create: "create", .update: "update", .skip: "skip", .overwrite: "overwrite",
            .conflict: "conflict", .keep: "keep",
        ]
        // One write for all the lines of a part, not one per line: fifty blocks are a hundred lines.
        var lines = ""
        for file in plan.allFiles where !context.quiet || dryRun {
            let label = (labels[file.action] ?? file.action.rawValue).paddedToWidth(10)
            lines += "  " + style.apply(file.action == .conflict ? .yellow : .cyan, label) + " " + file.path + note(for: file.action) + "\n"
        }
        for path in outcome.deletedStale where !context.quiet { lines += "  delete     \(path) (no longer part of the block)\n" }
        context.standardOutput.write(lines)
        for path in outcome.keptStale { context.warn("\(path) is no longer part of its block but you changed it, so it stays; it is no longer tracked") }
        for failure in outcome.failedStale {
            context.warn("could not delete \(failure), which is no longer part of its block; it is no longer tracked, so delete it yourself")
        }
        for command in packages.commands { context.print((dryRun ? "  would run " : "  run       ") + command.text) }
        for line in packages.manual { context.note("note: " + line) }
        for (block, names) in recommended.sorted(by: { $0.key < $1.key }) { context.note("note: " + recommendation(block: block, transforms: names)) }
        if dryRun {
            for file in plan.allFiles where file.existing != nil && file.action != .skip {
                context.standardOutput.write(diff(file))
            }
            if let edit = target?.xcode?.edit { context.standardOutput.write(edit.diff(root: plan.root)) }
            context.print("Dry run: nothing was written.")
            return
        }
        context.standardOutput.write(
            plan.blocks.map { block in
                let wrote = block.files.contains { $0.action.writes }
                let needed = block.requested ? "" : " (needed by \(block.requiredBy.joined(separator: ", ")))"
                return (wrote ? "Added " : "Up to date: ") + "\(block.reference) \(block.manifest.version) in \(block.folder)\(needed)\n"
            }.joined())
    }

    /// The note for a block whose manifest recommends transforms the project does not run.
    static func recommendation(block: String, transforms: [String]) -> String {
        let names = transforms.map { "'\($0)'" }.joined(separator: ", ")
        return "\(block) recommends the transform\(transforms.count == 1 ? "" : "s") \(names); nothing was run. "
            + "To run \(transforms.count == 1 ? "it" : "them") on add and update, list \(transforms.count == 1 ? "it" : "them") "
            + "in blocks.json's \"transforms\" (docs/PLUGINS.md), then 'blocks update --retransform'."
    }

    /// The `--json` report, which the MCP server's `add_blocks` and `plan_add` return too.
    /// `recommended` is `AddOperation.Outcome.recommendedTransforms`.
    static func json(
        _ plan: InstallPlan, outcome: InstallTransaction.Outcome, target: TargetFolder?, warnings: [String], dryRun: Bool,
        packages: PackageSteps = PackageSteps(commands: [], manual: []), recommended: [String: [String]] = [:]
    ) -> [String: JSONValue] {
        let blocks: [JSONValue] = plan.blocks.map { block in
            .object([
                "name": .string(block.reference.description),
                "namespace": block.reference.namespace.map { .string($0) } ?? .null,
                "registry": .string(block.registry),
                "requiredBy": .array(block.requiredBy.map { .string($0) }),
                "version": .string(block.manifest.version),
                "folder": .string(block.folder),
                "files": .array(block.files.map { .object(["path": .string($0.path), "action": .string($0.action.rawValue)]) }),
                "recommendedTransforms": .array((recommended[block.reference.description] ?? []).map { .string($0) }),
            ])
        }
        return [
            "dryRun": .bool(dryRun),
            "folder": target.map { .string($0.relativePath) } ?? .null,
            "blocks": .array(blocks),
            "warnings": .array(warnings.map { .string($0) }),
            "deletedStaleFiles": .array(outcome.deletedStale.map { .string($0) }),
            "keptStaleFiles": .array(outcome.keptStale.map { .string($0) }),
            "packageCommands": .array(packages.commands.map { .string($0.text) }),
            "packagesToAddByHand": .array(packages.manual.map { .string($0) }),
            "xcode": target?.xcode.map { membership in
                .object([
                    "project": .string(membership.bundle.lastPathComponent), "target": .string(membership.target),
                    "synchronized": .bool(membership.synchronized), "projectFileEdited": .bool(membership.edit != nil),
                ])
            } ?? .null,
        ]
    }

    static func note(for action: InstallPlan.Action) -> String {
        switch action {
        case .skip: return " (already up to date)"
        case .conflict: return " (you changed it; needs --overwrite)"
        case .keep: return " (kept your version)"
        default: return ""
        }
    }
}

/// What is wrong with the archive `add` was given, and what to do instead.
/// The person picked no block from the list: an answer, so `add` ends quietly with 0.
struct NothingChosen: Error {}

enum AddArgumentError: Error, CustomStringConvertible {
    /// A path that names no file.
    case missingArchive(typed: String, path: String)
    /// A URL of a registry's `blocks/NAME.json` or `index.json`, which is no archive.
    case registryFile(url: String, name: String?, base: String)

    var description: String {
        switch self {
        case .missingArchive(let typed, let path):
            let shown = typed == path ? typed : "\(typed) (\(path))"
            return "\(shown) does not exist; give the path of an archive made by 'blocks export', or a block's name"
        case .registryFile(let url, let name?, let base):
            return "\(url) is the registry metadata of the block \(name), not an archive; add it from that registry with"
                + " 'blocks add \(name) --registry \(base)'"
        case .registryFile(let url, nil, let base):
            return "\(url) is a registry's index, not an archive; add its blocks with 'blocks add NAME --registry \(base)'"
                + " ('blocks list --registry \(base)' shows them)"
        }
    }
}
