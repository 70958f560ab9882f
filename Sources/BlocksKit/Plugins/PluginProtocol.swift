/// The messages between blocks and a plugin: one JSON request on the plugin's standard
/// input, one JSON response on its standard output, per run. docs/PLUGINS.md describes
/// them and Schemas/plugin-request.schema.json and plugin-response.schema.json hold their
/// shapes, so a plugin can be written in any language from the documents alone.
///
/// Every message carries `protocolVersion`; a plugin answering a version it does not
/// speak is refused with a message that names both, rather than misread.
public enum PluginProtocol {
    /// The version this tool speaks.
    public static let version = 1

    /// What a plugin can do, as its `capabilities` answer lists it.
    public enum Capability: String, Sendable, CaseIterable {
        case transform
        /// Brings a registry with the plugin's own scheme (`NAME://…`) to a folder.
        case source
        /// Brings one file of such a registry at a time (`index`, `metadata`, `archive`),
        /// as commands need them; preferred over `source` when a plugin offers both.
        case sourceFiles = "source-files"
    }

    /// The `capabilities` handshake: what `blocks plugin list` shows.
    public static func capabilitiesRequest() -> JSONValue {
        .object(["protocolVersion": .int(version), "request": .string("capabilities")])
    }

    /// A transform request: the block's files, its manifest, the kind of target and the
    /// options blocks.json gives this plugin.
    public static func transformRequest(_ input: TransformInput, options: JSONValue) -> JSONValue {
        .object([
            "protocolVersion": .int(version), "request": .string("transform"), "options": options,
            "block": input.manifest.jsonValue, "target": .object(["kind": .string(input.targetKind.rawValue)]),
            "files": .array(input.files.map { $0.jsonValue }),
        ])
    }

    /// A source request: write the registry `location` names into `folder`, a folder of
    /// the cache that is empty, and answer where in it the registry is.
    public static func sourceRequest(location: String, folder: String) -> JSONValue {
        .object(["protocolVersion": .int(version), "request": .string("source"), "location": .string(location), "folder": .string(folder)])
    }

    /// A request for one file of a registry in the plugin's scheme: the index (with its
    /// signature, if the registry has one), a block's metadata file, or an archive of one
    /// version. The plugin writes the file anywhere inside `folder`, an empty folder of the
    /// cache, and answers its path there, or `missing` when the registry has no such file.
    public static func fileRequest(_ file: RegistryFileRequest, location: String, folder: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "protocolVersion": .int(version), "request": .string(file.kind), "location": .string(location), "folder": .string(folder),
        ]
        switch file {
        case .index: break
        case .metadata(let name): members["name"] = .string(name)
        case .archive(let name, let version, let path):
            members["name"] = .string(name)
            members["version"] = .string(version)
            members["path"] = .string(path)
        case .part(let path): members["path"] = .string(path)
        }
        return .object(members)
    }

    /// The response's members, after the checks every response gets: JSON, an object,
    /// this protocol version, and no `error` member (a plugin's own refusal).
    static func members(of output: [UInt8], plugin: String) throws(PluginError) -> [String: JSONValue] {
        guard let value = try? JSONReader.parse(Data(output)), case .object(let members) = value else {
            throw .badResponse(plugin: plugin, reason: output.isEmpty ? "it printed nothing" : "its output is not a JSON object")
        }
        guard members["protocolVersion"] == .int(version) else {
            throw .badResponse(plugin: plugin, reason: "it speaks protocol \(members["protocolVersion"].map(Self.shown) ?? "(none)"), blocks speaks \(version)")
        }
        if let error = members["error"] {
            throw .refused(plugin: plugin, message: error.object?["message"]?.string ?? Self.shown(error))
        }
        return members
    }

    /// The capabilities a response lists; unknown ones are ignored, for plugins newer than us.
    static func capabilities(in members: [String: JSONValue], plugin: String) throws(PluginError) -> [Capability] {
        guard let names = members["capabilities"]?.strings else {
            throw .badResponse(plugin: plugin, reason: "its answer has no \"capabilities\" list of strings")
        }
        return names.compactMap(Capability.init(rawValue:))
    }

    /// The files a transform response returns.
    static func files(in members: [String: JSONValue], plugin: String) throws(PluginError) -> [TransformFile] {
        guard let files = members["files"]?.objects else {
            throw .badResponse(plugin: plugin, reason: "its answer has no \"files\" list of objects")
        }
        return try files.map { object throws(PluginError) in
            guard let path = object["path"]?.string, let content = object["content"]?.string else {
                throw .badResponse(plugin: plugin, reason: "a file has no \"path\" and \"content\" strings")
            }
            let role = object["role"]?.string.flatMap(BlockFile.Role.init(rawValue:))
            return TransformFile(path: path, role: role, content: Data(content.utf8))
        }
    }

    private static func shown(_ value: JSONValue) -> String {
        String(decoding: StableJSONWriter.line(value), as: UTF8.self)
    }
}

/// What a transform receives: a block's files as `add` would write them, its manifest,
/// and the kind of target they go into.
public struct TransformInput: Sendable, Equatable {
    public var manifest: BlockManifest
    public var files: [TransformFile]
    public var targetKind: TargetKind

    public init(manifest: BlockManifest, files: [TransformFile], targetKind: TargetKind) {
        self.manifest = manifest
        self.files = files
        self.targetKind = targetKind
    }

    /// Where the block's files go: `access-level` makes a library's API public and an
    /// app's internal.
    public enum TargetKind: String, Sendable {
        case app, library, package
    }
}

/// One file of a block, by its path inside the block's folder.
public struct TransformFile: Sendable, Equatable {
    public var path: String
    public var role: BlockFile.Role?
    public var content: Data

    public init(path: String, role: BlockFile.Role?, content: Data) {
        self.path = path
        self.role = role
        self.content = content
    }

    var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["path": .string(path), "content": .string(String(decoding: content, as: UTF8.self))]
        if let role { object["role"] = .string(role.rawValue) }
        return .object(object)
    }
}
