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
        options: [jobsOption, pruneOption, latestOnlyOption, verifyOption, headerOption],
        usage: ["blocks mirror <source> <dest> [--jobs <n>] [--prune] [--latest-only] [--header <Name: value>]", "blocks mirror --verify <dest>"],
        examples: [
            .init("blocks mirror https://blocks.example.com ./mirror", "Copy the registry for offline use; run again to refresh."),
            .init("blocks mirror --verify ./mirror", "Re-hash every archive of the mirror."),
        ])

    static let jobsOption = OptionSpec("jobs", short: "j", value: "n", help: "Downloads in flight at once (default: 8).")
    static let pruneOption = OptionSpec("prune", help: "Delete archives the upstream index no longer lists.")
    static let latestOnlyOption = OptionSpec("latest-only", help: "Mirror only each block's newest version (default: every published version).")
    static let verifyOption = OptionSpec(
        "verify", value: "dest", help: "Re-hash every archive in <dest> and report damage; with --key, check its signature and version too.")
    static let headerOption = OptionSpec(
        "header", value: "Name: value",
        help: "A header the source URL's requests carry, e.g. \"Authorization: Bearer ${ACME_TOKEN}\"; repeatable. Never written into the mirror.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if let verify = arguments.value(verifyOption) {
            guard arguments.positionals.isEmpty else { throw UsageError.unexpectedArgument(arguments.positionals[0]) }
            return try runVerify(destination: context.resolve(verify), context: context)
        }
        guard arguments.positionals.count == 2 else {
            throw UsageError.missingArgument(arguments.positionals.isEmpty ? "source" : "dest", example: spec.examples.first?.commandLine)
        }
        let jobs = try arguments.integer(jobsOption) ?? 8
        guard (1...64).contains(jobs) else { throw UsageError.invalidValue(option: "--jobs", value: String(jobs), expected: "1 to 64") }
        let destination = context.resolve(arguments.positionals[1])
        let shownDestination = arguments.positionals[1]
        context.protectFromInterruption(
            FileManager.default.fileExists(atPath: destination.appendingPathComponent("index.json").path)
                ? "\(shownDestination) still holds the previous snapshot; run the same 'blocks mirror' again to resume"
                : "\(shownDestination) holds no snapshot yet; run the same 'blocks mirror' again to resume")
        let (location, access) = try MirrorSource.resolve(
            arguments.positionals[0], headerLines: arguments.allValues(headerOption), configured: context.project().namespacedRegistries,
            access: context.registryAccess)
        var mirror = try Mirror.make(source: location, destination: destination, access: access)
        mirror.jobs = jobs
        mirror.signature = signature(context)
        mirror.prune = arguments.flag(pruneOption)
        mirror.latestOnly = arguments.flag(latestOnlyOption)
        let started = Date()
        let summary = try sync(mirror, context: context)
        let seconds = Date().timeIntervalSince(started)
        for name in summary.skippedNames {
            context.warn(RegistryEntry.unsafeNameWarning(name, location: arguments.positionals[0]))
        }
        report(summary, destination: destination, seconds: seconds, context: context)
        return 0
    }

    /// `--verify DEST`: every archive and site file re-hashed; a problem fails the command.
    static func runVerify(destination: URL, context: CommandContext) throws -> Int32 {
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

    /// Runs the mirror with a progress bar on a terminal, finished whether it succeeds or not.
    static func sync(_ mirror: Mirror, context: CommandContext) throws -> Mirror.Summary {
        var mirror = mirror
        let bar = ProgressBar(sink: context.standardError, label: "mirror")
        if !context.quiet && !context.json { mirror.progress = { bar.update($0) } }
        do {
            let summary = try mirror.sync()
            bar.finish()
            return summary
        } catch {
            bar.finish()
            throw error
        }
    }

    /// What the run fetched, skipped and pruned, as JSON or one line.
    static func report(_ summary: Mirror.Summary, destination: URL, seconds: TimeInterval, context: CommandContext) {
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
    }

    /// `--key` and `--allow-expired` for the upstream (or, with `--verify`, DEST).
    static func signature(_ context: CommandContext) -> MirrorSignature {
        MirrorSignature(keys: context.pinnedKeys, allowExpired: context.allowExpired, notices: context.notices)
    }
}
