/// `blocks new NAME`: starts a new block in a catalog from the scaffold in `Templates/`.
public enum NewCommand: Command {
    public static let spec = CommandSpec(
        name: "new",
        abstract: "Create a new block folder in a catalog from the scaffold.",
        arguments: [ArgumentSpec("name", help: "The new block's name, e.g. segmented-tabs.")],
        options: [catalogOption],
        examples: [.init("blocks new segmented-tabs", "Create Catalog/segmented-tabs with a block.json, a view and a demo to fill in.")])

    static let catalogOption = SharedOptions.catalog(help: "The catalog folder (default: ./Catalog).")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let name = arguments.positionals[0]
        guard ManifestValidator.isValidName(name) else {
            throw UsageError.invalidValue(option: "<name>", value: name, expected: "lowercase words joined by dashes, e.g. segmented-tabs")
        }
        let folder = context.resolve(arguments.value(catalogOption) ?? "Catalog").appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: folder.path) else {
            throw CatalogError.blockExists(path: folder.path)
        }
        let files = Scaffold.files(name: name)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            try AtomicFile.write(Data(text.utf8), to: folder.appendingPathComponent(path))
        }
        if context.json {
            context.print(JSONOutput.encode(["folder": .string(folder.path), "files": .array(files.keys.sorted().map { .string($0) })]))
        } else {
            context.print("Created \(folder.path) with \(files.keys.sorted().joined(separator: ", "))")
            context.print("Edit block.json, write the block, then run 'blocks lint'.")
        }
        return 0
    }
}
