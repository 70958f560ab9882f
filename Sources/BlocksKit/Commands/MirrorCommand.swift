/// `blocks mirror`: an offline copy of a registry for closed networks.
public enum MirrorCommand: Command {
    public static let spec = CommandSpec(
        name: "mirror",
        abstract: "Make or refresh an offline mirror of a registry, or verify one.",
        discussion:
            "Parallel, incremental, resumable and atomic: the mirror is a consistent registry at every moment. A signed registry's index.json.minisig is copied byte for byte; with --key it is checked first, and the mirror never signs.",
        arguments: [
            ArgumentSpec(
                "source", help: "An http(s) registry URL, a registry folder, or a namespace of blocks.json (@acme), read through its headers.", optional: true,
                completion: .registries),
            ArgumentSpec("dest", help: "The mirror folder.", optional: true, completion: .folders),
        ],
        options: [
            OptionSpec("jobs", short: "j", value: "n", help: "Downloads in flight at once (default: 8)."),
            OptionSpec("prune", help: "Delete archives the upstream index no longer lists."),
            OptionSpec("latest-only", help: "Mirror only each block's newest version (default: every published version)."),
            OptionSpec("verify", value: "dest", help: "Re-hash every archive in <dest> and report damage; with --key, check its signature and version too."),
            OptionSpec(
                "header", value: "Name: value",
                help: "A header the source URL's requests carry, e.g. \"Authorization: Bearer ${ACME_TOKEN}\"; repeatable. Never written into the mirror."),
        ],
        usage: ["blocks mirror <source> <dest> [--jobs <n>] [--prune] [--latest-only] [--header <Name: value>]", "blocks mirror --verify <dest>"],
        examples: [
            .init("blocks mirror https://blocks.example.com ./mirror", "Copy the registry for offline use; run again to refresh."),
            .init("blocks mirror --verify ./mirror", "Re-hash every archive of the mirror."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if let verify = arguments.value("verify") {
            guard arguments.positionals.isEmpty else { throw UsageError.unexpectedArgument(arguments.positionals[0]) }
            let destination = context.resolve(verify)
            let (archives, siteFiles, problems) = try Mirror.verify(destination: destination, signature: signature(context))
            if context.json {
                // `checked` stays the number of files re-hashed, as before the site's were counted apart.
                context.print(
                    JSONOutput.encode([
                        "checked": .int(archives + siteFiles), "archives": .int(archives), "siteFiles": .int(siteFiles),
                        "problems": .array(problems.map { .string($0) }), "ok": .bool(problems.isEmpty),
                    ]))
            } else if problems.isEmpty {
                let site = siteFiles > 0 ? " and \(siteFiles) site file\(siteFiles == 1 ? "" : "s")" : ""
                context.print("\(archives) archive\(archives == 1 ? "" : "s")\(site) verified in \(destination.path)")
            }
            if !problems.isEmpty { throw MirrorError.verifyFailed(problems: problems) }
            return 0
        }
        guard arguments.positionals.count == 2 else {
            throw UsageError.missingArgument(arguments.positionals.isEmpty ? "source" : "dest", example: spec.examples.first?.commandLine)
        }
        let jobs = try arguments.integer("jobs") ?? 8
        guard (1...64).contains(jobs) else { throw UsageError.invalidValue(option: "--jobs", value: String(jobs), expected: "1 to 64") }
        let destination = context.resolve(arguments.positionals[1])
        let shownDestination = arguments.positionals[1]
        context.protectFromInterruption(
            FileManager.default.fileExists(atPath: destination.appendingPathComponent("index.json").path)
                ? "\(shownDestination) still holds the previous snapshot; run the same 'blocks mirror' again to resume"
                : "\(shownDestination) holds no snapshot yet; run the same 'blocks mirror' again to resume")
        let (location, access) = try MirrorSource.resolve(
            arguments.positionals[0], headerLines: arguments.values["header"] ?? [], configured: context.project().namespacedRegistries,
            access: context.registryAccess)
        var mirror = try Mirror.make(source: location, destination: destination, access: access)
        mirror.jobs = jobs
        mirror.signature = signature(context)
        mirror.prune = arguments.flag("prune")
        mirror.latestOnly = arguments.flag("latest-only")
        let bar = ProgressBar(sink: context.standardError, label: "mirror")
        if !context.quiet && !context.json { mirror.progress = { bar.update($0) } }
        let started = Date()
        let summary: Mirror.Summary
        do {
            summary = try mirror.sync()
            bar.finish()
        } catch {
            bar.finish()
            throw error
        }
        let seconds = Date().timeIntervalSince(started)
        for name in summary.skippedNames {
            context.warn(RegistryEntry.unsafeNameWarning(name, location: arguments.positionals[0]))
        }
        if context.json {
            context.print(
                JSONOutput.encode([
                    "fetched": .int(summary.fetched), "skipped": .int(summary.skipped), "pruned": .int(summary.pruned),
                    "bytes": .int(Int(summary.bytes)), "seconds": .double((seconds * 1000).rounded() / 1000),
                    "upToDate": .bool(summary.upToDate),
                ]))
        } else if !context.quiet {
            let what =
                summary.upToDate
                ? "up to date" + (summary.pruned > 0 ? ", \(summary.pruned) pruned" : "")
                : "\(summary.fetched) fetched (\(ProgressBar.formatBytes(summary.bytes))), \(summary.skipped) already present, \(summary.pruned) pruned"
            context.print("Mirror \(destination.path): \(what) in \(seconds.fixedPoint(places: 2)) s")
        }
        return 0
    }

    /// `--key` and `--allow-expired` for the upstream (or, with `--verify`, DEST).
    static func signature(_ context: CommandContext) -> MirrorSignature {
        MirrorSignature(keys: context.pinnedKeys, allowExpired: context.allowExpired, notices: context.notices)
    }
}
