/// `blocks view NAME`: a block's code, file by file, before adding it. shadcn users know
/// the word; it is `info --source` without the metadata.
public enum ViewCommand: Command {
    public static let spec = CommandSpec(
        name: "view",
        abstract: "Print a block's code, file by file, without adding it.",
        arguments: [
            ArgumentSpec(
                "name", help: "The block, as 'add' takes it: top-tabs, pager@1.0.0 or @acme/pager. On a terminal, leave it out to pick from a list.",
                optional: true, completion: .blockNames)
        ],
        examples: [
            .init("blocks view top-tabs", "Read top-tabs' code before adding it."),
            .init("blocks view pager --json", "Its files as JSON: path, role and source of each."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let given = try arguments.positionals.first.map { try AddCommand.validatedRequests([$0])[0] }
        let registries = try context.registrySet()
        let request = try given ?? AddCommand.validatedRequests([Prompt.pickBlock(in: registries, example: spec.examples.first?.commandLine, context: context)])[0]
        let (member, latest) = try registries.resolve(request.reference)
        let content =
            if let version = request.version, version != latest.version {
                try member.source.contents(of: latest.name, version: version)
            } else {
                try member.source.contents(of: [latest.name])[0]
            }
        let manifest = content.manifest
        if context.json {
            let files: [JSONValue] = manifest.files.map { file in
                .object([
                    "path": .string(file.path), "role": .string(file.role.rawValue),
                    "source": .string(String(decoding: content.files[file.path] ?? Data(), as: UTF8.self)),
                ])
            }
            context.print(
                JSONOutput.encode([
                    "name": .string(member.reference(manifest.name).description), "version": .string(manifest.version), "files": .array(files),
                ]))
            return 0
        }
        // The code comes from the registry: escaped, as every line it supplies.
        for (index, file) in manifest.files.enumerated() {
            if index > 0 { context.print() }
            context.print(context.style.apply(.bold, "// ─── \(TerminalText.escaped(file.path)) ───"))
            context.standardOutput.write(TerminalText.escapedKeepingLines(String(decoding: content.files[file.path] ?? Data(), as: UTF8.self)))
        }
        return 0
    }
}
