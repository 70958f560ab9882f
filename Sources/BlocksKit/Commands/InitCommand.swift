/// `blocks init`: writes `blocks.json` in the project root, fixing the folder blocks
/// go to and the registry, so later commands need no flags.
public enum InitCommand: Command {
    public static let spec = CommandSpec(
        name: "init",
        abstract: "Write blocks.json: the folder blocks are added to and the registry to use.",
        options: [pathOption, targetOption],
        examples: [
            .init("blocks init", "Write blocks.json with the folder add would choose here."),
            .init("blocks init --path Sources/App/Components", "Add blocks into that folder from now on."),
        ])

    static let pathOption = OptionSpec("path", value: "dir", help: "The folder to add blocks to, inside the project (default: as 'add' would choose).")
    static let targetOption = OptionSpec("target", value: "name", help: "In an Xcode project, the target blocks join; saved, so 'add' need not ask.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let project = context.project()
        let root = project.root
        if !project.isInsideProject {
            context.warn(
                "\(context.workingDirectory.standardizedFileURL.path) is not inside a project (\(ProjectLocator.projectDefinition)); "
                    + "the \(ProjectConfig.fileName) written here makes it one for later commands")
        }
        var config = try project.config ?? ProjectConfig()
        if arguments.value(pathOption) != nil || arguments.value(targetOption) != nil || (config.path == nil && config.target == nil) {
            let target = try TargetFolder.resolve(
                root: root, config: nil, pathOption: arguments.value(pathOption), paths: context.paths, notices: context.notices,
                chooser: context.chooser(allowPrompt: true), targetOption: arguments.value(targetOption))
            if let membership = target.xcode {
                // The target, not its folder: `add` then finds the folder and the membership.
                config.target = membership.target
                config.path = nil
            } else {
                config.path = target.relativePath
            }
        }
        if let registry = arguments.value(GlobalOptions.registryOption) {
            config.registry = try storedRegistry(registry, root: root, context: context, verifying: true)
            // Keys pin one registry: a new registry drops the old one's.
            config.keys = nil
        }
        if !context.pinnedKeys.isEmpty {
            if arguments.value(GlobalOptions.registryOption) == nil {
                // Pinning the registry already configured: checked against it now.
                _ = try storedRegistry(config.registryLocation(root: root) ?? "embedded", root: root, context: context, verifying: true)
            }
            config.keys = context.pinnedKeys.map(\.base64)
        }
        let mutex = try ProjectMutex(root: root, notices: context.notices)
        defer { mutex.release() }
        StagingArea.removeLeftovers(root: root)
        let url = root.appendingPathComponent(ProjectConfig.fileName)
        try StagingArea.writeAtomically(try config.encoded(), to: url, root: root, displayPath: ProjectConfig.fileName)
        if context.json {
            context.print(
                JSONOutput.encode([
                    "config": .string(url.path),
                    "path": config.path.map { .string($0) } ?? .null,
                    "registry": config.registry.map { .string($0) } ?? .null,
                    "keys": .array((config.keys ?? []).map { .string($0) }),
                    "target": config.target.map { .string($0) } ?? .null,
                ]))
        } else {
            let pinned = try config.pinnedKeys().map(\.id)
            context.print(
                "Wrote \(ProjectConfig.fileName): blocks go to \(config.path ?? config.target.map { "Xcode target \($0)" } ?? "?"), registry \(config.registry ?? "embedded (default)")"
                    + (pinned.isEmpty ? "." : ", signed by key \(pinned.joined(separator: " or ")) (pinned)."))
        }
        return 0
    }

    /// Checks that the registry opens, and stores a folder inside the project relative
    /// to the root, so the config still works when the project moves.
    /// With `verifying` and a `--key`, the registry's signature is checked now, so a wrong
    /// key is found when it is pinned rather than at the next `add`.
    static func storedRegistry(_ registry: String, root: URL, context: CommandContext, verifying: Bool = false) throws -> String {
        let source = try RegistrySources.open(registry, access: context.registryAccess)
        if verifying, !context.pinnedKeys.isEmpty { _ = try RegistrySignature.status(of: source) }
        if registry == "embedded" { return registry }
        if registry.contains("://") {
            // A URL's user information is a credential: blocks.json is committed, so it
            // keeps the URL without it and the user is told how to supply it again.
            guard RedirectPolicy.isHTTP(registry), URLUserinfo.split(registry) != nil else { return registry }
            context.warn(
                "the user name and password in the registry URL were not saved to \(ProjectConfig.fileName); pass the URL with them"
                    + " in BLOCKS_REGISTRY (or --registry) on each run, or give the registry a token in BLOCKS_TOKEN")
            return URLUserinfo.stripped(registry)
        }
        let url = context.resolve(registry)
        return ProjectPaths.relative(url, to: root) ?? url.path
    }
}
