/// `blocks info NAME`: everything about one block, and its code with `--source`.
public enum InfoCommand: Command {
    public static let spec = CommandSpec(
        name: "info",
        abstract: "Show a block's metadata, platforms, tags, API and files.",
        arguments: [
            ArgumentSpec(
                "name",
                help: "The block's name, e.g. scrolling-strip, pager@1.0.0 (a published version; the newest without one) or @namespace/name for a namespaced registry of blocks.json. On a terminal, leave it out to pick from a list.",
                optional: true, completion: .blockNames)
        ],
        options: [sourceOption],
        examples: [
            .init("blocks info top-tabs", "Show top-tabs' platforms, tags, API and files."),
            .init("blocks info pager@1.0.0 --json", "One published version, as JSON for a script."),
        ])

    static let sourceOption = OptionSpec("source", help: "Also print the code of every file (as 'blocks view' does).")

    /// The block `info` shows: its registry, its manifest (of the version asked for), its
    /// files' code with `--source`, and the registry's signature status.
    struct Shown {
        var member: RegistrySet.Member
        var manifest: BlockManifest
        var files: [String: Data]
        var signature: String
        var showSource: Bool
        var shownName: String { member.reference(manifest.name).description }
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let shown = try fetch(arguments, context: context)
        if context.json {
            guard let object = try json(shown) else { return 1 }
            context.printJSON(object)
            return 0
        }
        printText(shown, context: context)
        return 0
    }

    static func fetch(_ arguments: ParsedArguments, context: CommandContext) throws -> Shown {
        // The same NAME[@VERSION] as `add` takes, in any case.
        let given = try arguments.positionals.first.map { try AddCommand.validatedRequests([$0])[0] }
        let registries = try context.registrySet()
        let request = try given ?? AddCommand.validatedRequests([Prompt.pickBlock(in: registries, example: spec.examples.first?.commandLine, context: context)])[0]
        var (member, manifest) = try registries.resolve(request.reference)
        let source = member.source
        let showSource = arguments.flag(sourceOption)
        var files: [String: Data] = [:]
        if let version = request.version, version != manifest.version {
            // An older published version: its manifest and files ship in its archive.
            let content = try source.contents(of: manifest.name, version: version)
            manifest = content.manifest
            files = showSource ? content.files : [:]
        } else if showSource {
            files = try source.contents(of: [manifest.name])[0].files
        }
        return Shown(member: member, manifest: manifest, files: files, signature: try RegistrySignature.status(of: source), showSource: showSource)
    }

    /// The `--json` object; nil if the summary is not an object.
    static func json(_ shown: Shown) throws -> [String: JSONValue]? {
        let (manifest, files) = (shown.manifest, shown.files)
        guard case .object(var object) = BlockSummary.json(manifest) else { return nil }
        object["origin"] = .string(manifest.origin)
        object["license"] = .string(manifest.license)
        object["authors"] = .array(manifest.authors.map { .string($0) })
        object["accessibility"] = .object(manifest.accessibility.mapValues { .string($0) })
        object["api"] = .array(manifest.api.map(\.jsonValue))
        object["files"] = .array(
            manifest.files.map { file in
                var entry: [String: JSONValue] = ["path": .string(file.path), "role": .string(file.role.rawValue)]
                if let data = files[file.path] { entry["source"] = .string(String(decoding: data, as: UTF8.self)) }
                return .object(entry)
            })
        object["registry"] = .string(shown.member.source.location)
        object["signature"] = .string(shown.signature)
        object["dependencies"] = (manifest.dependencies ?? BlockDependencies()).jsonValue
        object["namespace"] = shown.member.namespace.map { .string($0) } ?? .null
        object["name"] = .string(shown.shownName)
        return object
    }

    /// The text. Everything in it comes from the registry: `Table` escapes its cells, and
    /// the lines printed directly are escaped with `TerminalText.escaped`.
    static func printText(_ shown: Shown, context: CommandContext) {
        printHeader(shown, context: context)
        printAPIAndAccessibility(shown.manifest, context: context)
        printDependencies(shown, context: context)
        printFiles(shown, context: context)
    }

    static let indent = "  "

    static func printHeader(_ shown: Shown, context: CommandContext) {
        let (manifest, source) = (shown.manifest, shown.member.source)
        let style = context.style
        let plain = TerminalText.escaped
        context.print(style.apply(.bold, plain(manifest.englishTitle)) + "  " + style.apply(.dim, plain("\(shown.shownName) \(manifest.version)")))
        let width = context.tableWidth
        func paragraph(_ text: String) -> [String] { width.map { TextWrap.lines(plain(text), width: $0) } ?? [plain(text)] }
        for line in paragraph(manifest.englishSummary) { context.print(line) }
        if let spanish = manifest.title["es"], let spanishSummary = manifest.summary["es"] {
            for line in paragraph("es: \(spanish) — \(spanishSummary)") { context.print(style.apply(.dim, line)) }
        }
        context.print()
        let details =
            [
                ["Platforms", BlockSummary.platformText(manifest)],
                ["Level", manifest.level],
                ["Category", manifest.category],
                ["Origin", manifest.origin],
                ["License", "\(manifest.license), \(manifest.authors.joined(separator: ", "))"],
            ] + (source.location == CatalogSource.embedded.location ? [] : [["Registry", "\(source.location) (\(shown.signature))"]])
            + manifest.tags.sorted { $0.key < $1.key }.map { ["Tags (\($0.key))", $0.value.joined(separator: ", ")] }
        for line in Table.render(details, style: style, columnColors: [.bold, nil], width: width) { context.print(line) }
    }

    static func printAPIAndAccessibility(_ manifest: BlockManifest, context: CommandContext) {
        let (style, plain, width) = (context.style, TerminalText.escaped, context.tableWidth)
        context.print()
        context.print(style.apply(.bold, "API"))
        let apiRows =
            [["Parameter", "Type", "Default", "Description"]]
            + manifest.api.map { [$0.name, $0.type, $0.default ?? "—", $0.description] }
        for line in Table.render(apiRows, style: style, columnColors: [.cyan, nil, .dim, nil], width: width.map { $0 - indent.count }) {
            context.print(indent + line)
        }

        context.print()
        context.print(style.apply(.bold, "Accessibility"))
        for (key, value) in manifest.accessibility.sorted(by: { $0.key < $1.key }) {
            let prefix = indent + plain(key) + ": "
            if let width {
                context.print(TextWrap.hanging(plain(value), firstPrefix: prefix, indent: indent.count * 2, width: width))
            } else {
                context.print(prefix + plain(value))
            }
        }
    }

    static func printDependencies(_ shown: Shown, context: CommandContext) {
        guard let dependencies = shown.manifest.dependencies, !dependencies.isEmpty else { return }
        let plain = TerminalText.escaped
        context.print()
        context.print(context.style.apply(.bold, "Dependencies"))
        for block in dependencies.blocks {
            // Named as `add` will name it: a bare name is in this block's own registry.
            let shownBlock =
                BlockRequirement(block).map { requirement in
                    requirement.reference.namespace == nil
                        ? BlockRequirement(reference: shown.member.reference(requirement.reference.name), versions: requirement.versions).description
                        : requirement.description
                } ?? block
            context.print(indent + "block    " + plain(shownBlock))
        }
        for package in dependencies.packages {
            let version = package.exact.map { "exact \($0)" } ?? "from \(package.from ?? "?")"
            context.print(indent + "package  " + plain("\(package.url) (\(version)): \(package.products.joined(separator: ", "))"))
        }
    }

    static func printFiles(_ shown: Shown, context: CommandContext) {
        let (manifest, style) = (shown.manifest, context.style)
        context.print()
        context.print(style.apply(.bold, "Files"))
        for line in Table.render(manifest.files.map { [$0.path, $0.role.rawValue] }, style: style, columnColors: [nil, .dim]) {
            context.print(indent + line)
        }
        guard shown.showSource else { return }
        for file in manifest.files {
            context.print()
            context.print(style.apply(.bold, "// ─── \(TerminalText.escaped(file.path)) ───"))
            context.standardOutput.write(TerminalText.escapedKeepingLines(String(decoding: shown.files[file.path] ?? Data(), as: UTF8.self)))
        }
    }
}
