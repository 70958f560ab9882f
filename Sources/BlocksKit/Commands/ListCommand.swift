/// `blocks list`: every block, one line each.
public enum ListCommand: Command {
    public static let spec = CommandSpec(
        name: "list", abstract: "List every block in the registry, one line each.",
        discussion: "With registries in blocks.json, every one of them: their blocks are named @namespace/name; --registry @namespace lists one.",
        examples: [
            .init("blocks list", "Every block, with its version, platforms, level and title."),
            .init("blocks list --registry @acme", "Only the blocks of the registry blocks.json names @acme."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let registries = try context.registrySet()
        let listed = try registries.members.flatMap { member in try member.source.manifests().map { (member, $0) } }
        if context.json {
            let blocks: [JSONValue] = listed.map { member, manifest in
                guard case .object(var object) = BlockSummary.json(manifest) else { return .null }
                object["namespace"] = member.namespace.map { .string($0) } ?? .null
                if let namespace = member.namespace { object["name"] = .string("\(namespace)/\(manifest.name)") }
                return .object(object)
            }
            var object: [String: JSONValue] = ["registry": .string(registries.members[0].source.location), "blocks": .array(blocks)]
            if registries.isSeveral || registries.members[0].namespace != nil { object["registries"] = registries.json }
            context.printJSON(object)
            return 0
        }
        let rows = listed.map { member, manifest in
            [member.reference(manifest.name).description, manifest.version, BlockSummary.platformText(manifest), manifest.level, manifest.englishTitle]
        }
        for line in Table.render(rows, style: context.style, columnColors: [.bold, .dim, .cyan, .dim, nil], width: context.tableWidth, stackingWhenNarrow: true) { context.print(line) }
        return 0
    }
}
