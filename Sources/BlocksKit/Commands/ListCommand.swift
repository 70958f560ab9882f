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
        // A slice of manifests at a time, each turned into what is printed and let go: a
        // split registry of 100,000 blocks is listed holding a few ranges of manifests.
        func forEachManifest(_ body: (RegistrySet.Member, BlockManifest) -> Void) throws {
            for member in registries.members {
                try member.source.manifests(inSlices: { slice in slice.forEach { body(member, $0) } })
            }
        }
        if context.json {
            var members: [String: JSONValue] = ["registry": .string(registries.members[0].source.location)]
            if registries.isSeveral || registries.members[0].namespace != nil { members["registries"] = registries.json }
            try context.printJSON(members, array: "blocks") { print in
                try forEachManifest { member, manifest in
                    guard case .object(var object) = BlockSummary.json(manifest) else { return }
                    object["namespace"] = member.namespace.map { .string($0) } ?? .null
                    if let namespace = member.namespace { object["name"] = .string("\(namespace)/\(manifest.name)") }
                    print(.object(object))
                }
            }
            return 0
        }
        var rows: [[String]] = []
        try forEachManifest { member, manifest in
            rows.append([
                member.reference(manifest.name).description, manifest.version, BlockSummary.platformText(manifest), manifest.level, manifest.englishTitle,
            ])
        }
        for line in Table.render(rows, style: context.style, columnColors: [.bold, .dim, .cyan, .dim, nil], width: context.tableWidth, stackingWhenNarrow: true) { context.print(line) }
        return 0
    }
}
