/// `blocks init`: writes `blocks.json` in the project root, fixing the folder blocks
/// go to and the registry, so later commands need no flags.
public enum InitCommand: Command {
    public static let spec = CommandSpec(
        name: "init",
        abstract: "Write blocks.json: the folder blocks are added to and the registry to use.",
        options: [OptionSpec("path", value: "dir", help: "The folder to add blocks to, inside the project (default: as 'add' would choose).")])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let root = ProjectLocator.projectRoot(from: context.workingDirectory)
        var config = try ProjectConfig.read(root: root) ?? ProjectConfig()
        if arguments.value("path") != nil || config.path == nil {
            let target = try TargetFolder.resolve(
                root: root, config: nil, pathOption: arguments.value("path"), paths: context.paths, notices: context.notices,
                chooser: context.chooser(allowPrompt: true))
            config.path = target.relativePath
        }
        if let registry = arguments.value("registry") {
            config.registry = try storedRegistry(registry, root: root, context: context)
        }
        let mutex = try ProjectMutex(root: root, notices: context.notices)
        defer { mutex.release() }
        StagingArea.removeLeftovers(root: root)
        let url = root.appendingPathComponent(ProjectConfig.fileName)
        try StagingArea.writeAtomically(try config.encoded(), to: url, root: root, displayPath: ProjectConfig.fileName)
        if context.json {
            context.print(JSONOutput.encode([
                "config": .string(url.path),
                "path": config.path.map { .string($0) } ?? .null,
                "registry": config.registry.map { .string($0) } ?? .null,
            ]))
        } else {
            context.print("Wrote \(ProjectConfig.fileName): blocks go to \(config.path ?? "?"), registry \(config.registry ?? "embedded (default)").")
        }
        return 0
    }

    /// Checks that the registry opens, and stores a folder inside the project relative
    /// to the root, so the config still works when the project moves.
    static func storedRegistry(_ registry: String, root: URL, context: CommandContext) throws -> String {
        _ = try RegistrySources.open(registry, access: context.registryAccess)
        if registry == "embedded" || registry.contains("://") { return registry }
        let url = context.resolve(registry)
        return ProjectPaths.relative(url, to: root) ?? url.path
    }
}
