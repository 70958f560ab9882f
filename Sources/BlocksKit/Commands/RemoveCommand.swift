/// `blocks remove NAME...`: deletes the block's unchanged files, keeps the ones you
/// changed unless `--force`, removes the empty folders `add` made, and updates the lock.
public enum RemoveCommand: Command {
    public static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove added blocks: delete their unchanged files and update blocks.lock.",
        arguments: [ArgumentSpec("name", help: "The blocks to remove.", variadic: true, completion: .blockNames, whereToFind: "'blocks status' lists the blocks you added")],
        options: [forceOption, withDependenciesOption],
        examples: [
            .init("blocks remove pager", "Delete pager's unchanged files; a file you edited stays, and remove says so."),
            .init("blocks remove pager --with-dependencies", "Also remove the blocks pager brought that nothing else needs."),
        ])

    static let forceOption = SharedOptions.force(help: "Delete files you changed too.")
    static let withDependenciesOption = OptionSpec("with-dependencies", help: "Also remove the blocks they depend on that nothing else needs.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        var request = RemoveOperation.Request(project: context.project(), names: arguments.positionals, notices: context.notices)
        request.force = arguments.flag(forceOption)
        request.withDependencies = arguments.flag(withDependenciesOption)
        request.environment = context.environment
        let outcome = try RemoveOperation.perform(request) { name, neededBy in
            context.note("note: kept \(name): \(neededBy.joined(separator: ", ")) still \(neededBy.count == 1 ? "needs" : "need") it")
        }
        if context.json {
            context.print(JSONOutput.encode(json(outcome)))
        } else {
            report(outcome.removal, context: context)
        }
        return 0
    }

    /// The `--json` report.
    static func json(_ outcome: RemoveOperation.Outcome) -> [String: JSONValue] {
        let removal = outcome.removal
        let results: [JSONValue] = removal.results.map { result in
            .object([
                "name": .string(result.name),
                "deleted": .array(result.deleted.map { .string($0) }),
                "kept": .array(result.kept.map { .string($0) }),
                "missing": .array(result.missing.map { .string($0) }),
                "removed": .bool(result.kept.isEmpty),
            ])
        }
        return [
            "removed": .array(results),
            "keptForDependents": .array(outcome.kept.map { .object(["name": .string($0.name), "neededBy": .array($0.neededBy.map { .string($0) })]) }),
            "packageDependencies": .object([
                "removed": .array(
                    removal.packages.filter { $0.keptBecause == nil }.map { .object(["package": .string($0.package), "url": .string($0.url)]) }),
                "kept": .array(
                    removal.packages.compactMap { decision in
                        decision.keptBecause.map {
                            .object(["package": .string(decision.package), "url": .string(decision.url), "reason": .string($0)])
                        }
                    }),
                "unrecorded": .array(removal.unrecordedPackages.map { .string($0) }),
            ]),
        ]
    }

    /// The text report: each file deleted, gone or kept, and each package decision.
    static func report(_ removal: BlockRemoval, context: CommandContext) {
        for result in removal.results {
            for path in result.deleted { context.print("  delete  \(path)") }
            for path in result.missing { context.print("  gone    \(path) (already missing)") }
            for path in result.kept { context.print("  keep    \(path) (you changed it)") }
            if result.kept.isEmpty {
                context.print("Removed \(result.name).")
            } else {
                context.print("Removed \(result.name) except \(result.kept.count) changed file\(result.kept.count == 1 ? "" : "s"), still in blocks.lock.")
                context.note("Run 'blocks remove \(result.name) --force' to delete them too.")
            }
        }
        for decision in removal.packages {
            if let reason = decision.keptBecause {
                context.note("note: kept \(decision.package) in Package.swift: \(reason)")
            } else {
                context.print("  remove  \(decision.package) from Package.swift (blocks added it; nothing else needs it)")
            }
        }
        for name in removal.unrecordedPackages {
            context.note(
                "note: blocks.lock does not record which Swift packages \(name) needs (an older blocks added it), so Package.swift is left as it is;"
                    + " remove any package it needed by hand if nothing else uses it")
        }
    }
}
