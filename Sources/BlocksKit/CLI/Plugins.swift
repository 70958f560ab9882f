/// An external command: `blocks foo` runs `blocks-foo` from PATH, git- or cargo-style.
public struct Plugin: Sendable, Equatable {
    public var name: String
    public var path: String
}

/// Finds and runs external command plugins.
public enum Plugins {
    /// Every `blocks-*` executable on PATH, first one wins, sorted by name. A
    /// `blocks-plugin-NAME` is a transform plugin (`PluginCatalog`), not a command.
    public static func discover(environment: [String: String]) -> [Plugin] {
        PluginCatalog.executables(prefixed: "blocks-", environment: environment)
            .filter { !("blocks-" + $0.name).hasPrefix(PluginCatalog.executablePrefix) }
            .map { Plugin(name: $0.name, path: $0.path) }
    }

    public static func find(_ name: String, environment: [String: String]) -> Plugin? {
        guard !name.contains("/"), !("blocks-" + name).hasPrefix(PluginCatalog.executablePrefix) else { return nil }
        let path = ExternalPlugin.resolve("blocks-" + name, path: environment["PATH"])
        return path.contains("/") ? Plugin(name: name, path: path) : nil
    }

    /// Runs the plugin with the remaining arguments and the standard streams passed
    /// through. Its environment names the registry a built-in command would read here
    /// (`--registry`, `BLOCKS_REGISTRY`, else `blocks.json`'s, else `embedded`) and, in a
    /// project only, its root; outside one `BLOCKS_PROJECT_ROOT` is unset, never the
    /// current folder passed off as a project. Returns its exit code.
    public static func run(_ plugin: Plugin, arguments: [String], context: CommandContext) throws -> Int32 {
        var environment = context.environment
        environment["BLOCKS_REGISTRY"] = try context.project().registryLocation(option: context.registry) ?? "embedded"
        environment["BLOCKS_PROJECT_ROOT"] = enclosingProject(of: context.workingDirectory)?.path
        return try ChildProcess.run(
            plugin.path, arguments: arguments, environment: environment, workingDirectory: context.workingDirectory.path
        ).exitCode
    }

    /// The project `folder` is in, or nil outside any: the root `Project.locate` found,
    /// never the folder itself taken for want of one.
    static func enclosingProject(of folder: URL) -> URL? {
        let project = Project.locate(from: folder)
        return project.isFound ? project.root : nil
    }
}
