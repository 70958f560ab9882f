/// The user's project as one command sees it: its root, what kind of project it is, its
/// `blocks.json`, and its lock. Found once per command (`CommandContext.project()`, or
/// `Project.locate` for a library caller) by the one rule in `ProjectLocator`, and passed
/// down: nothing below finds the root or reads `blocks.json` again.
public struct Project: Sendable {
    /// What the root holds that makes it a project.
    public enum Kind: String, Sendable {
        /// `Package.swift`.
        case swiftPackage
        /// An Xcode project or workspace.
        case xcode
        /// The manifest of a project generator (XcodeGen's `project.yml`, Tuist's `Project.swift`).
        case generated
        /// Only `blocks.json` or `blocks.lock` (`blocks init` in a plain folder).
        case blocks
        /// Nothing a build reads: a `.git` folder alone, or no root found at all.
        case none
    }

    /// The nearest folder upward that holds a root marker (`ProjectLocator.markers` or an
    /// Xcode project), else the folder the search started from.
    public let root: URL
    /// Whether `root` was found, rather than the starting folder taken for want of one.
    public let isFound: Bool
    public let kind: Kind
    /// Whether the starting folder is inside a project (`ProjectLocator.isInsideProject`):
    /// `add` there writes into a folder something builds.
    public let isInsideProject: Bool
    private let readConfig: Result<ProjectConfig?, any Error>

    public init(root: URL, isFound: Bool, kind: Kind, isInsideProject: Bool, config: Result<ProjectConfig?, any Error>) {
        self.root = root
        self.isFound = isFound
        self.kind = kind
        self.isInsideProject = isInsideProject
        self.readConfig = config
    }

    /// The project `start` is in: one walk upward, and `blocks.json` read once. A
    /// `blocks.json` that cannot be read is kept as its error, thrown by `config`, so a
    /// command that can do without it (`status`) still has the root.
    public static func locate(from start: URL) -> Project {
        let found = ProjectLocator.locate(from: start)
        let root = found.root ?? start.standardizedFileURL
        return Project(
            root: root, isFound: found.root != nil, kind: found.root.map(ProjectLocator.kind(of:)) ?? .none,
            isInsideProject: found.isInsideProject, config: Result { try ProjectConfig.read(root: root) })
    }

    /// `blocks.json`, nil when there is none; throws when it cannot be read.
    public var config: ProjectConfig? {
        get throws { try readConfig.get() }
    }

    /// The root that names registries: the found root, nil outside any project.
    var configRoot: URL? { isFound ? root : nil }

    /// `blocks.lock`, read now: a command reads it under the project mutex.
    public func readLock() throws -> Lockfile { try Lockfile.read(root: root) }

    /// The transforms blocks.json lists, run in the project's root folder; nil when none.
    /// An Xcode project's blocks go into an app target; a package's into one of its targets.
    public func transforms(environment: [String: String]) throws -> ConfiguredTransforms? {
        guard let config = try config, config.transforms != nil else { return nil }
        return try ConfiguredTransforms.load(
            config.transforms, declared: config.plugins, targetKind: kind == .swiftPackage ? .package : .app,
            environment: environment, workingDirectory: root)
    }

    // MARK: The registries the project reads

    /// The default registry's location: `option` (`--registry` or `BLOCKS_REGISTRY`), else
    /// `blocks.json`'s, else nil for the embedded catalog. Plugins are told this one.
    public func registryLocation(option: String?) throws -> String? {
        if let option { return option }
        guard let configRoot else { return nil }
        return try config?.registryLocation(root: configRoot)
    }

    /// Every registry the project reads (`RegistrySet.open`): the default one and
    /// `blocks.json`'s namespaced ones, or the one `option` (`@acme`) names.
    public func registries(option: String?, access: RegistryAccess) throws -> RegistrySet {
        try RegistrySet.open(option: option, config: configRoot == nil ? nil : try config, root: configRoot, access: access)
    }

    /// The registry a command reads: `--registry` or `BLOCKS_REGISTRY`, else the one
    /// `blocks init` saved in `blocks.json`, else the embedded catalog. Every command that
    /// reads blocks goes through here, so `list` shows what `add` would add.
    public func registrySource(option: String?, access: RegistryAccess) throws -> RegistrySource {
        // `--registry @acme`: that namespaced registry of blocks.json, with its headers.
        if let option, option.hasPrefix("@") { return try registries(option: option, access: access).members[0].source }
        let config = configRoot == nil ? nil : try config
        let location = try registryLocation(option: option)
        return try RegistrySources.open(location, access: RegistrySources.pinning(access, location: location, config: config, root: configRoot))
    }

    /// `blocks.json`'s namespaced registries, checked (none outside a project).
    public func namespacedRegistries() throws -> [NamespacedRegistry] {
        guard let configRoot else { return [] }
        return try config?.namespacedRegistries(root: configRoot) ?? []
    }
}
