/// `blocks lint [DIR]`: validates a catalog before it is published.
public enum LintCommand: Command {
    public static let spec = CommandSpec(
        name: "lint",
        abstract: "Validate a catalog: manifests, listed files, and that every Swift file parses.",
        arguments: [ArgumentSpec("dir", help: "The catalog folder (default: ./Catalog).", optional: true)],
        options: [OptionSpec("no-parse", help: "Skip the swiftc -parse check.")])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let given = arguments.positionals.first
        let root = context.resolve(given ?? "Catalog")
        guard PathKind(root.path) == .folder else {
            throw CatalogError.missingCatalog(folder: given == nil ? context.workingDirectory.path : root.path, given: given != nil)
        }
        let compiler = arguments.flag("no-parse") ? nil : CatalogLinter.findSwiftCompiler(environment: context.environment)
        if compiler == nil && !arguments.flag("no-parse") {
            context.warn("swiftc not found on PATH (or SWIFTC); Swift files were not parsed")
        }
        let report = try CatalogLinter(root: root, swiftCompiler: compiler).run()
        if context.json {
            let object: [String: JSONValue] = [
                "catalog": .string(root.path),
                "blocks": .int(report.blockCount),
                "parsed": .bool(report.parseChecked),
                "problems": try JSONValue(encoding: report.problems),
            ]
            // A failure prints this object with its "error" member, from BlocksCLI.report.
            if !report.problems.isEmpty { throw CatalogError.lintFailed(problemCount: report.problems.count, report: object) }
            context.print(JSONOutput.encode(object))
            return 0
        }
        // File names and fields come from the catalog, which may be someone else's.
        for problem in report.problems { context.print(context.style.apply(.red, "✗ ") + TerminalText.escaped(problem.description)) }
        if !report.problems.isEmpty { throw CatalogError.lintFailed(problemCount: report.problems.count) }
        context.print(context.style.apply(.green, "✓ ") + "\(report.blockCount) block\(report.blockCount == 1 ? "" : "s") OK")
        return 0
    }
}
