/// `blocks plugin list`: the plugins this project can use and what each offers, asked of
/// each through the protocol's `capabilities` handshake. `blocks plugin check NAME…`: the
/// project's transform chain run twice on each block, which must give the same files.
public enum PluginCommand: Command {
    public static let spec = CommandSpec(
        name: "plugin",
        abstract: "List the plugins this project can use, or check its transforms.",
        discussion: """
            A plugin is a program you install or name, never one a registry supplies: a
            blocks-plugin-NAME executable on PATH, or a command in blocks.json's "plugins".
            docs/PLUGINS.md describes the protocol, with a JSON Schema for every message.
            """,
        arguments: [
            ArgumentSpec("action", help: "list, or check: run blocks.json's transforms twice on each named block.", completion: .choices(["list", "check"])),
            ArgumentSpec("name", help: "With check: the blocks to transform.", optional: true, variadic: true, completion: .blockNames),
        ],
        examples: [
            .init("blocks plugin list", "Each plugin, where it was found and its capabilities."),
            .init("blocks plugin check top-tabs pager", "Run the project's transforms twice on each block: both runs must agree."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        switch arguments.positionals[0] {
        case "list": return try list(context: context)
        case "check": return try check(Array(arguments.positionals.dropFirst()), context: context)
        default: throw UsageError.invalidValue(option: "<action>", value: arguments.positionals[0], expected: "list or check")
        }
    }

    /// Runs the chain twice on each block: a transform that is not deterministic would make
    /// every later update of its blocks conflict.
    static func check(_ names: [String], context: CommandContext) throws -> Int32 {
        guard !names.isEmpty else {
            throw UsageError.missingArgument("name", example: "blocks plugin check top-tabs", hint: "'blocks list' shows every name")
        }
        guard let transforms = try context.project().transforms(environment: context.environment) else {
            context.print("No transforms: blocks.json lists none, so there is nothing to check.")
            return 0
        }
        let registries = try context.registrySet()
        let year = try TemplateText.currentYear(environment: context.environment)
        for request in try AddCommand.validatedRequests(names) {
            let (member, latest) = try registries.resolve(request.reference)
            let content = try member.source.contents(of: [latest.name])[0]
            try transforms.checkDeterministic(content, year: year)
            context.print("\(latest.name): the same files on both runs of \(transforms.identity)")
        }
        return 0
    }

    static func list(context: CommandContext) throws -> Int32 {
        let project = context.project()
        let root = project.root
        let declared = try project.config?.plugins
        let plugins = try PluginCatalog.all(declared: declared, environment: context.environment)
        var rows: [[String]] = []
        var objects: [JSONValue] = []
        for plugin in plugins {
            // One plugin that cannot answer is reported in its row, not a failed listing.
            let offered: Result<[PluginProtocol.Capability], PluginError> = Result { () throws(PluginError) in
                try PluginCatalog.capabilities(of: plugin, environment: context.environment, workingDirectory: root)
            }
            let capabilities = (try? offered.get())?.map(\.rawValue).joined(separator: ", ")
            rows.append([plugin.name, plugin.origin, capabilities ?? "error"])
            var object: [String: JSONValue] = [
                "name": .string(plugin.name), "origin": .string(plugin.origin), "command": .array(plugin.command.map { .string($0) }),
            ]
            switch offered {
            case .success(let list): object["capabilities"] = .array(list.map { .string($0.rawValue) })
            case .failure(let error): object["error"] = .string(error.description)
            }
            objects.append(.object(object))
            if case .failure(let error) = offered, !context.json { context.warn(error.description) }
        }
        if context.json {
            context.print(JSONOutput.encode(["plugins": .array(objects)]))
        } else if rows.isEmpty {
            context.print("No plugins. Put a blocks-plugin-NAME program on PATH or declare one in blocks.json (docs/PLUGINS.md).")
        } else {
            for line in Table.render(rows, style: context.style, columnColors: [.bold, .dim, nil], width: context.tableWidth) { context.print(line) }
        }
        return 0
    }
}
