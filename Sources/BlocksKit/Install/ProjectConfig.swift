/// `blocks.json`, written by `blocks init`: where this project keeps its blocks and
/// which registry it uses, so every later `add` agrees without flags.
public struct ProjectConfig: Codable, Sendable, Equatable {
    public static let fileName = "blocks.json"

    /// The target folder, relative to the project root.
    public var path: String?
    /// A registry URL, `embedded`, or a folder (relative paths are from the project root).
    public var registry: String?

    public init(path: String? = nil, registry: String? = nil) {
        self.path = path
        self.registry = registry
    }

    /// The config in a project root, or nil when there is none.
    public static func read(root: URL) throws -> ProjectConfig? {
        let url = root.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(ProjectConfig.self, from: Data(contentsOf: url))
        } catch {
            throw InstallError.unreadableConfig(path: fileName, reason: "it is not valid JSON with optional \"path\" and \"registry\" strings")
        }
    }

    public func encoded() throws -> Data {
        try StableJSON.data(self)
    }

    /// The registry as `RegistrySources.open` takes it: a relative folder becomes
    /// absolute from the project root, so the config works from any subfolder.
    public func registryLocation(root: URL) -> String? {
        guard let registry, !registry.isEmpty else { return nil }
        if registry == "embedded" || registry.contains("://") || registry.hasPrefix("/") || registry.hasPrefix("~") {
            return registry
        }
        return root.appendingPathComponent(registry).standardizedFileURL.path
    }
}
