/// `blocks list`: every block, one line each.
public enum ListCommand: Command {
    public static let spec = CommandSpec(name: "list", abstract: "List every block in the registry, one line each.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let source = try context.registrySource()
        let manifests = try source.manifests()
        if context.json {
            context.print(JSONOutput.encode(["registry": .string(source.location), "blocks": .array(manifests.map(BlockSummary.json))]))
            return 0
        }
        let rows = manifests.map { [$0.name, $0.version, BlockSummary.platformText($0), $0.level, $0.englishTitle] }
        for line in Table.render(rows, style: context.style, columnColors: [.bold, .dim, .cyan, .dim, nil], width: context.tableWidth) { context.print(line) }
        return 0
    }
}
