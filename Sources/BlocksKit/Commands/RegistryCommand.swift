/// `blocks registry add|list|remove`: the namespaced registries of `blocks.json`, edited
/// in place (atomically, in the same stable layout `blocks init` writes) so a team can
/// use its private registry next to the default one.
public enum RegistryCommand: Command {
    public static let spec = CommandSpec(
        name: "registry",
        abstract: "Add, list or remove the namespaced registries in blocks.json.",
        discussion: """
            A namespaced registry's blocks are named @namespace/name. A header's value may use
            ${VARIABLE}, expanded from the environment at each request and sent only to that
            registry's origin; blocks.json keeps it as written, and blocks never prints it expanded.
            """,
        arguments: [
            ArgumentSpec("action", help: "add, list or remove.", completion: .choices(["add", "list", "remove"])),
            ArgumentSpec("namespace", help: "@ and a name, e.g. @acme.", optional: true, completion: .registries),
            ArgumentSpec("url", help: "For add: the registry's URL or folder.", optional: true),
        ],
        options: [headerOption],
        // For add, the global --key pins the registry's public keys (repeatable).
        usage: [
            "blocks registry add <namespace> <url> [--header \"Name: value\"]... [--key PUBKEY]...",
            "blocks registry list",
            "blocks registry remove <namespace>",
        ],
        examples: [
            .init(
                "blocks registry add @acme https://blocks.acme.dev --header \"Authorization: Bearer ${ACME_TOKEN}\"",
                "Name a team's registry @acme; its blocks are then @acme/NAME."),
            .init("blocks registry list", "The namespaced registries of blocks.json."),
        ])

    static let headerOption = OptionSpec(
        "header", value: "Name: value", help: "For add: a header its requests carry, e.g. \"Authorization: Bearer ${ACME_TOKEN}\"; repeatable.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let positionals = arguments.positionals
        let root = context.project().root
        let action = try checkedAction(arguments)
        if action == "list" { return try list(root: root, context: context) }
        let namespace = positionals[1]
        // A malformed value on the command line is a usage error (64), as a bad value of
        // any option is; the message stays the one that explains the form.
        guard NamespacedRegistry.isValidNamespace(namespace) else { throw CommandFailure(NamespaceError.invalidNamespace(namespace), exitCode: 64) }
        if action == "add" {
            return try add(namespace, url: positionals[2], headerLines: arguments.allValues(headerOption), root: root, context: context)
        }
        return try remove(namespace, root: root, context: context)
    }

    /// The action, once the arguments fit it: `list`, `add NAMESPACE URL` or `remove NAMESPACE`.
    static func checkedAction(_ arguments: ParsedArguments) throws -> String {
        let positionals = arguments.positionals
        let action = positionals[0]
        let expected: Int
        switch action {
        case "list": expected = 1
        case "add": expected = 3
        case "remove": expected = 2
        default: throw UsageError.invalidValue(option: "<action>", value: action, expected: "add, list or remove")
        }
        if positionals.count > expected { throw UsageError.unexpectedArgument(positionals[expected]) }
        if positionals.count < expected { throw UsageError.missingArgument(expected == 3 && positionals.count == 2 ? "url" : "namespace", example: spec.examples.first?.commandLine) }
        if action != "add", !arguments.allValues(headerOption).isEmpty {
            throw UsageError.inapplicableOption("--header", because: "headers are given when a registry is added")
        }
        return action
    }

    /// `blocks registry add NAMESPACE URL`: the entry, with its headers and `--key`s.
    static func add(_ namespace: String, url: String, headerLines: [String], root: URL, context: CommandContext) throws -> Int32 {
        let config = try editConfig(root: root, context: context) { registries in
            if let existing = registries[namespace] { throw NamespaceError.alreadyConfigured(namespace, url: existing.url) }
            var headers: [String: String] = [:]
            for line in headerLines {
                guard let header = HeaderTemplate(line: line), (try? HeaderTemplate.pieces(of: header.value)) != nil else {
                    throw CommandFailure(NamespaceError.invalidHeader(line), exitCode: 64)
                }
                headers[header.name] = header.value
            }
            // A registry behind headers is checked at its first use, which sends them.
            let stored = try InitCommand.storedRegistry(url, root: root, context: context, verifying: headers.isEmpty)
            registries[namespace] = ProjectConfig.RegistryEntry(url: stored, headers: headers, keys: context.pinnedKeys.map(\.base64))
            let literal = headers.filter { HeaderTemplate(name: $0.key, value: $0.value).variables.isEmpty }.keys.sorted()
            if !literal.isEmpty {
                context.warn(
                    "blocks.json keeps the header \(literal.joined(separator: ", ")) as written; put a secret in an environment variable and write ${VARIABLE}")
            }
        }
        if context.json {
            context.print(try JSONOutput.encode(["action": .string("add"), "namespace": .string(namespace), "registries": entriesJSON(config, root: root)]))
            return 0
        }
        let entry = config.registries?[namespace]
        let names = entry?.headers.keys.sorted() ?? []
        let keys = context.pinnedKeys.map(\.id)
        context.print(
            "Added \(namespace): \(entry?.url ?? "")" + (names.isEmpty ? "" : " (headers: \(names.joined(separator: ", ")))")
                + (keys.isEmpty ? "" : ", signed by key \(keys.joined(separator: " or "))") + ".")
        return 0
    }

    /// `blocks registry remove NAMESPACE`: the entry goes; blocks added from it stay, and
    /// a note says which.
    static func remove(_ namespace: String, root: URL, context: CommandContext) throws -> Int32 {
        let config = try editConfig(root: root, context: context) { registries in
            guard registries.removeValue(forKey: namespace) != nil else {
                throw NamespaceError.notConfigured(namespace, configured: registries.keys.sorted())
            }
        }
        let still = try Lockfile.read(root: root).blocks.filter { $0.value.namespace == namespace }.keys.sorted()
        if context.json {
            context.print(try JSONOutput.encode(["action": .string("remove"), "namespace": .string(namespace), "registries": entriesJSON(config, root: root)]))
        } else {
            context.print("Removed \(namespace).")
        }
        if !still.isEmpty {
            context.note(
                "note: blocks.lock still has \(still.joined(separator: ", ")) from \(namespace); they stay in the project, and 'blocks remove' removes them")
        }
        return 0
    }

    /// Changes blocks.json's `registries` under the project mutex: read again there (this
    /// command changes the file), checked as every command will read it, then written
    /// atomically in the stable layout. Returns the config written.
    static func editConfig(
        root: URL, context: CommandContext, change: (inout [String: ProjectConfig.RegistryEntry]) throws -> Void
    ) throws -> ProjectConfig {
        let mutex = try ProjectMutex(root: root, notices: context.notices)
        defer { mutex.release() }
        StagingArea.removeLeftovers(root: root)
        var config = try ProjectConfig.read(root: root) ?? ProjectConfig()
        var registries = config.registries ?? [:]
        try change(&registries)
        config.registries = registries.isEmpty ? nil : registries
        _ = try config.namespacedRegistries(root: root)
        try StagingArea.writeAtomically(
            try config.encoded(), to: root.appendingPathComponent(ProjectConfig.fileName), root: root, displayPath: ProjectConfig.fileName)
        return config
    }

    /// The default registry and each namespaced one, with the names of their headers and
    /// the variables those use, never a value.
    static func list(root: URL, context: CommandContext) throws -> Int32 {
        let config = try context.project().config
        if context.json {
            context.print(
                try JSONOutput.encode([
                    "default": .string(context.registry ?? config?.registry ?? "embedded"),
                    "registries": config.map { try entriesJSON($0, root: root) } ?? .array([]),
                ]))
            return 0
        }
        var rows = [["(default)", context.registry ?? config?.registry ?? "embedded", ""]]
        for registry in try config?.namespacedRegistries(root: root) ?? [] {
            rows.append([registry.namespace, config?.registries?[registry.namespace]?.url ?? registry.url, headerText(registry.headers)])
        }
        for line in Table.render(rows, style: context.style, columnColors: [.bold, nil, .dim], width: context.tableWidth) { context.print(line) }
        return 0
    }

    /// `Authorization (${ACME_TOKEN})`: a header's name and the variables it reads.
    static func headerText(_ headers: [HeaderTemplate]) -> String {
        headers.map { header in
            let variables = header.variables
            return header.name + (variables.isEmpty ? "" : " (" + variables.map { "${\($0)}" }.joined(separator: ", ") + ")")
        }.joined(separator: ", ")
    }

    static func entriesJSON(_ config: ProjectConfig, root: URL) throws -> JSONValue {
        .array(
            try config.namespacedRegistries(root: root).map { registry in
                .object([
                    "namespace": .string(registry.namespace),
                    "url": .string(config.registries?[registry.namespace]?.url ?? registry.url),
                    "keys": .array(registry.keys.map { .string($0.base64) }),
                    "headers": .array(
                        registry.headers.map { header in
                            .object(["name": .string(header.name), "variables": .array(header.variables.map { .string($0) })])
                        }),
                ])
            })
    }
}
