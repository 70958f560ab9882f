/// `blocks lint [DIR]`: validates a catalog before it is published. `--typecheck` adds the
/// view check (`ViewTypeCheck`) the repository's own tests run.
public enum LintCommand: Command {
    public static let spec = CommandSpec(
        name: "lint",
        abstract: "Validate a catalog: manifests, listed files, and that every Swift file parses.",
        arguments: [ArgumentSpec("dir", help: "The catalog folder (default: ./Catalog).", optional: true, completion: .folders)],
        options: [catalogOption, noParseOption, typecheckOption, stubOption],
        examples: [
            .init("blocks lint", "Check ./Catalog before 'blocks build'."),
            .init("blocks lint --catalog ../Catalog --typecheck", "Also type-check the views against the SwiftUI stub."),
        ])

    static let catalogOption = SharedOptions.catalog(help: "The catalog folder, as build and new name it (the same as <dir>).")
    static let noParseOption = OptionSpec("no-parse", help: "Skip the swiftc -parse check.")
    static let typecheckOption = OptionSpec(
        "typecheck",
        help: "Also type-check each block's views against the SwiftUI stub at its minimum iOS, "
            + "in Swift 5, Swift 6 and Swift 6 with main-actor default isolation; a warning is a problem. "
            + "Off by default: it needs swiftc, the stub and Linux.")
    static let stubOption = OptionSpec(
        "stub", value: "dir",
        help: "The SwiftUI stub for --typecheck (SwiftUI.swift and CoreGraphics.swift). Default: "
            + "$BLOCKS_SWIFTUI_STUB, else Tests/SwiftUIStub in the catalog's parent folder or one above it.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if arguments.value(catalogOption) != nil, let extra = arguments.positionals.first {
            throw UsageError.inapplicableOption("--catalog", because: "the catalog is already named by '\(extra)'")
        }
        let given = arguments.value(catalogOption) ?? arguments.positionals.first
        let root = context.resolve(given ?? "Catalog")
        guard PathKind(root.path) == .folder else {
            throw CatalogError.missingCatalog(folder: given == nil ? context.workingDirectory.path : root.path, given: given != nil)
        }
        let found = CatalogLinter.findSwiftCompiler(environment: context.environment)
        let compiler = arguments.flag(noParseOption) ? nil : found
        if compiler == nil && !arguments.flag(noParseOption) {
            context.warn("swiftc not found on PATH (or SWIFTC); Swift files were not parsed")
        }
        var typeCheck: ViewTypeCheck?
        if arguments.flag(typecheckOption) {
            guard CatalogLinter.stubIsTheOnlySwiftUI else { throw LintSetupError.notLinux }
            let option = arguments.value(stubOption).map { context.resolve($0) }
            guard let stub = try CatalogLinter.findSwiftUIStub(option: option, environment: context.environment, catalog: root) else {
                throw LintSetupError.noStub(catalog: root.path)
            }
            guard let found else { throw LintSetupError.noCompiler }
            typeCheck = ViewTypeCheck(stubFolder: stub, compiler: found, moduleCache: context.cacheDirectory.appendingPathComponent("swiftui-stub"))
        } else if arguments.value(stubOption) != nil {
            throw UsageError.inapplicableOption("--stub", because: "it names the stub for --typecheck")
        }
        let report = try CatalogLinter(root: root, swiftCompiler: compiler, typeCheck: typeCheck).run()
        if context.json {
            var object: [String: JSONValue] = [
                "catalog": .string(root.path),
                "blocks": .int(report.blockCount),
                "parsed": .bool(report.parseChecked),
                "problems": .array(report.problems.map(\.jsonValue)),
            ]
            if typeCheck != nil { object["typeChecked"] = .int(report.typeCheckedCount) }
            // A failure prints this object with its "error" member, from BlocksCLI.report.
            if !report.problems.isEmpty { throw CatalogError.lintFailed(problemCount: report.problems.count, report: object) }
            context.print(JSONOutput.encode(object))
            return 0
        }
        // File names and fields come from the catalog, which may be someone else's.
        for problem in report.problems { context.print(context.style.apply(.red, "✗ ") + TerminalText.escaped(problem.description)) }
        if !report.problems.isEmpty { throw CatalogError.lintFailed(problemCount: report.problems.count) }
        let checked = typeCheck == nil ? "" : ", \(report.typeCheckedCount) type-checked against the SwiftUI stub"
        context.print(context.style.apply(.green, "✓ ") + "\(report.blockCount) block\(report.blockCount == 1 ? "" : "s") OK" + checked)
        return 0
    }
}
