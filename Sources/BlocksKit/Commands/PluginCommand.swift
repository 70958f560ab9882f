/// `blocks plugin list`: the plugins this project can use and what each offers, asked of
/// each through the protocol's `capabilities` handshake.
public enum PluginCommand: Command {
    public static let spec = CommandSpec(
        name: "plugin",
        abstract: "List the plugins this project can use and what each offers.",
        discussion: """
            A plugin is a program you install or name, never one a registry supplies: a
            blocks-plugin-NAME executable on PATH, or a command in blocks.json's "plugins".
            docs/PLUGINS.md describes the protocol, with a JSON Schema for every message.
            """,
        arguments: [ArgumentSpec("action", help: "list.", completion: .choices(["list"]))],
        examples: [.init("blocks plugin list", "Each plugin, where it was found and its capabilities.")])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard arguments.positionals[0] == "list" else {
            throw UsageError.invalidValue(option: "<action>", value: arguments.positionals[0], expected: "list")
        }
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
