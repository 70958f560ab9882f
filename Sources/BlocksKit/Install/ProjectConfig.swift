/// `blocks.json`, written by `blocks init`: where this project keeps its blocks and
/// which registry it uses, so every later `add` agrees without flags.
public struct ProjectConfig: Sendable, Equatable {
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
    /// The Xcode target blocks join (`blocks init --target`), when the project has several.
    public var target: String?
    /// The plugins the project declares (docs/PLUGINS.md), as written: `PluginCatalog`
    /// reads them, and every command that rewrites this file keeps them.
    public var plugins: [String: JSONValue]?
    /// The transforms `add` and `update` run on every block, in order, as written: each a
    /// plugin's name or `{"plugin": NAME, "options": {…}}` (`ConfiguredTransforms`).
    public var transforms: [JSONValue]?

    public init(
        path: String? = nil, registry: String? = nil, registries: [String: RegistryEntry]? = nil, keys: [String]? = nil, target: String? = nil,
        plugins: [String: JSONValue]? = nil, transforms: [JSONValue]? = nil
    ) {
        self.transforms = transforms
        self.path = path
        self.registry = registry
        self.registries = registries
        self.keys = keys
        self.target = target
        self.plugins = plugins
    }

    /// Pinned keys as written, checked: a malformed one stops here, before any request.
    static func parsedKeys(_ texts: [String]?, field: String) throws -> [MinisignPublicKey] {
        var keys: [MinisignPublicKey] = []
        for text in texts ?? [] {
            do throws(SignatureError) {
                keys.append(try MinisignPublicKey(text: text).pinned(by: .projectConfig(field: field)))
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
    public struct RegistryEntry: Sendable, Equatable {
        public var url: String
        public var headers: [String: String]
        /// Public keys this registry must be signed by.
        public var keys: [String]

        public init(url: String, headers: [String: String] = [:], keys: [String] = []) {
            self.url = url
            self.headers = headers
            self.keys = keys
        }

        private enum Key {
            static let url = "url"
            static let headers = "headers"
            static let keys = "keys"
        }

        /// A string, or an object with a `url` string and optional `headers` (strings) and
        /// `keys`.
        init(json: JSONValue, path: String) throws(JSONFields.Problem) {
            if case .string(let url) = json {
                self.init(url: url)
                return
            }
            let fields = try JSONFields(json, path: path, plainStrings: false)
            self.init(
                url: try fields.string(Key.url), headers: try fields.optionalStringMap(Key.headers) ?? [:],
                keys: try fields.optionalStrings(Key.keys) ?? [])
        }

        /// A string when it has no headers and no keys.
        var jsonValue: JSONValue {
            if headers.isEmpty && keys.isEmpty { return .string(url) }
            var members: [String: JSONValue] = [Key.url: .string(url)]
            if !headers.isEmpty { members[Key.headers] = JSONFields.jsonObject(headers) }
            if !keys.isEmpty { members[Key.keys] = JSONFields.jsonArray(keys) }
            return .object(members)
        }
    }

    /// The config in a project root, or nil when there is none.
    public static func read(root: URL) throws -> ProjectConfig? {
        let url = root.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        // Unreadable, not JSON, or a field of the wrong type: one error for all three, but
        // JSON nested past the reader's limit says so.
        if let data = try? Data(contentsOf: url) {
            let parsed = Result { () throws(JSONReader.Failure) in try JSONReader.parse(data) }
            if case .failure(let failure) = parsed, failure.isTooDeep {
                throw InstallError.unreadableConfig(path: fileName, reason: "it is \(failure.summary) (at byte \(failure.offset))")
            }
            if let json = try? parsed.get(), let config = ProjectConfig(json: json) {
                return config
            }
        }
        throw InstallError.unreadableConfig(
            path: fileName, reason: "it is not valid JSON with optional \"path\" and \"registry\" strings and a \"registries\" object")
    }

    private enum Key {
        static let path = "path"
        static let registry = "registry"
        static let registries = "registries"
        static let keys = "keys"
        static let target = "target"
        static let plugins = "plugins"
        static let transforms = "transforms"
    }

    /// The fields of a parsed `blocks.json`, read with the library's JSON reader: the
    /// toolchain's `JSONDecoder` cost a millisecond of first-use set-up on every `add`.
    /// Absent and null fields are nil; a field of the wrong type makes the whole file nil;
    /// other keys are ignored.
    init?(json: JSONValue) {
        guard let fields = try? JSONFields(json, path: "", plainStrings: false), let config = try? ProjectConfig(fields: fields) else { return nil }
        self = config
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        var registries: [String: RegistryEntry]?
        if let entries = try fields.optionalObject(Key.registries) {
            var read: [String: RegistryEntry] = [:]
            for (namespace, entry) in entries.members { read[namespace] = try RegistryEntry(json: entry, path: entries.place(namespace)) }
            registries = read
        }
        self.init(
            path: try fields.optionalString(Key.path), registry: try fields.optionalString(Key.registry), registries: registries,
            keys: try fields.optionalStrings(Key.keys), target: try fields.optionalString(Key.target),
            plugins: try fields.optionalObject(Key.plugins)?.members, transforms: try fields.optionalArray(Key.transforms))
    }

    /// Absent fields are left out.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let path { members[Key.path] = .string(path) }
        if let registry { members[Key.registry] = .string(registry) }
        if let registries { members[Key.registries] = .object(registries.mapValues(\.jsonValue)) }
        if let keys { members[Key.keys] = JSONFields.jsonArray(keys) }
        if let target { members[Key.target] = .string(target) }
        if let plugins { members[Key.plugins] = .object(plugins) }
        if let transforms { members[Key.transforms] = .array(transforms) }
        return .object(members)
    }

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
        StableJSON.data(jsonValue)
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
