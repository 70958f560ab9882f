/// `blocks.json`, written by `blocks init`: where this project keeps its blocks and
/// which registry it uses, so every later `add` agrees without flags.
public struct ProjectConfig: Codable, Sendable, Equatable {
    public static let fileName = "blocks.json"

    /// The target folder, relative to the project root.
    public var path: String?
    /// A registry URL, `embedded`, or a folder (relative paths are from the project root).
    public var registry: String?
    /// Namespaced registries, `@acme` to a location or to `{ "url", "headers" }`; see
    /// `namespacedRegistries(root:)`.
    public var registries: [String: RegistryEntry]?
    /// Public keys (minisign's base64) `registry` must be signed by; see `SIGNING.md`.
    public var keys: [String]?

    public init(path: String? = nil, registry: String? = nil, registries: [String: RegistryEntry]? = nil, keys: [String]? = nil) {
        self.path = path
        self.registry = registry
        self.registries = registries
        self.keys = keys
    }

    /// Pinned keys as written, checked: a malformed one stops here, before any request.
    static func parsedKeys(_ texts: [String]?, field: String) throws -> [MinisignPublicKey] {
        var keys: [MinisignPublicKey] = []
        for text in texts ?? [] {
            do throws(SignatureError) {
                keys.append(try MinisignPublicKey(text: text))
            } catch {
                throw InstallError.unreadableConfig(path: fileName, reason: "\(field) holds '\(text)': \(error.description)")
            }
        }
        return keys
    }

    /// The keys pinning the default registry.
    public func pinnedKeys() throws -> [MinisignPublicKey] { try Self.parsedKeys(keys, field: "keys") }

    /// One value of `registries`: a location as a string, or an object with `url` and
    /// `headers`. Written back the way it came: a string when it has no headers.
    public struct RegistryEntry: Codable, Sendable, Equatable {
        public var url: String
        public var headers: [String: String]
        /// Public keys this registry must be signed by.
        public var keys: [String]

        public init(url: String, headers: [String: String] = [:], keys: [String] = []) {
            self.url = url
            self.headers = headers
            self.keys = keys
        }

        enum Keys: String, CodingKey { case url, headers, keys }

        public init(from decoder: Decoder) throws {
            if let url = try? decoder.singleValueContainer().decode(String.self) {
                self.init(url: url)
                return
            }
            let object = try decoder.container(keyedBy: Keys.self)
            self.init(
                url: try object.decode(String.self, forKey: .url), headers: try object.decodeIfPresent([String: String].self, forKey: .headers) ?? [:],
                keys: try object.decodeIfPresent([String].self, forKey: .keys) ?? [])
        }

        public func encode(to encoder: Encoder) throws {
            if headers.isEmpty && keys.isEmpty {
                var single = encoder.singleValueContainer()
                try single.encode(url)
                return
            }
            var object = encoder.container(keyedBy: Keys.self)
            try object.encode(url, forKey: .url)
            if !headers.isEmpty { try object.encode(headers, forKey: .headers) }
            if !keys.isEmpty { try object.encode(keys, forKey: .keys) }
        }
    }

    /// The config in a project root, or nil when there is none.
    public static func read(root: URL) throws -> ProjectConfig? {
        let url = root.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            if let known = lastDecoded.config(for: data, path: url.path) { return known }
            let config = try JSONDecoder().decode(ProjectConfig.self, from: data)
            lastDecoded.keep(config, for: data, path: url.path)
            return config
        } catch {
            throw InstallError.unreadableConfig(
                path: fileName, reason: "it is not valid JSON with optional \"path\" and \"registry\" strings and a \"registries\" object")
        }
    }

    /// The last file decoded, with its bytes: `add` reads `blocks.json` for the target
    /// folder and again for the registries, and decoding it is the costly part.
    private static let lastDecoded = DecodedConfigMemo()

    /// `registries`, checked and in namespace order, each location as `RegistrySources.open`
    /// takes it (a relative folder made absolute from the project root). A bad namespace,
    /// header name or `${...}` stops here, naming it, before any request is made.
    public func namespacedRegistries(root: URL) throws -> [NamespacedRegistry] {
        try (registries ?? [:]).sorted { $0.key < $1.key }.map { namespace, entry in
            func problem(_ reason: String) -> InstallError { .unreadableConfig(path: Self.fileName, reason: "registries.\(namespace) " + reason) }
            guard NamespacedRegistry.isValidNamespace(namespace) else {
                throw problem("is not a namespace: it is @ and lowercase letters, digits and dashes, as in @acme")
            }
            guard !entry.url.isEmpty, entry.url != "embedded" else { throw problem("needs a url") }
            let headers = try entry.headers.map { name, value in
                guard NamespacedRegistry.isValidHeaderName(name) else { throw problem("has a header named '\(name)', which is not a header name") }
                let header = HeaderTemplate(name: name, value: value)
                do { _ = try HeaderTemplate.pieces(of: value) } catch { throw problem("header \(name) has a malformed ${...}; write ${VARIABLE}") }
                return header
            }
            let keys = try Self.parsedKeys(entry.keys, field: "registries.\(namespace).keys")
            return NamespacedRegistry(namespace: namespace, url: Self.location(entry.url, root: root), headers: headers, keys: keys)
        }
    }

    public func encoded() throws -> Data {
        try StableJSON.data(self)
    }

    /// The registry as `RegistrySources.open` takes it: a relative folder becomes
    /// absolute from the project root, so the config works from any subfolder.
    public func registryLocation(root: URL) -> String? {
        guard let registry, !registry.isEmpty else { return nil }
        return Self.location(registry, root: root)
    }

    /// A location from this file: a relative folder is from the project root.
    static func location(_ registry: String, root: URL) -> String {
        if registry == "embedded" || registry.contains("://") || registry.hasPrefix("/") || registry.hasPrefix("~") {
            return registry
        }
        return root.appendingPathComponent(registry).standardizedFileURL.path
    }
}

/// One decoded `blocks.json`, kept with the path and bytes it came from, so reading the
/// same bytes again returns it without decoding.
private final class DecodedConfigMemo: @unchecked Sendable {
    private let lock = Lock()
    private var stored: (path: String, data: Data, config: ProjectConfig)?

    func config(for data: Data, path: String) -> ProjectConfig? {
        lock.withLock { stored.flatMap { $0.path == path && $0.data == data ? $0.config : nil } }
    }

    func keep(_ config: ProjectConfig, for data: Data, path: String) {
        lock.withLock { stored = (path, data, config) }
    }
}
