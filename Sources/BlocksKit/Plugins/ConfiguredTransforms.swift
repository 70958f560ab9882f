/// The transforms a project's `blocks.json` lists, ready to run on each block `add` and
/// `update` write:
///
/// ```json
/// { "transforms": ["access-level", { "plugin": "swift-format", "options": {} }] }
/// ```
///
/// The chain runs after the license header is applied and before anything is decided, so
/// what is written, what the lock hashes and the base `update` merges from are all the
/// transformed bytes. Its `identity` (each plugin's name and options) goes into the lock,
/// so `update` notices a changed chain instead of merging a reformatted file by surprise.
public struct ConfiguredTransforms: Sendable {
    public var chain: TransformChain
    /// `access-level+swift-format 1a2b3c4d5e6f`: the names, then a digest of the names
    /// and options in order.
    public var identity: String
    var targetKind: TransformInput.TargetKind
    var environment: [String: String]
    var workingDirectory: URL

    /// The chain `configured` lists, or nil when it lists none. A name that is no plugin,
    /// or a malformed entry, is an error before anything is read or written.
    public static func load(
        _ configured: [JSONValue]?, declared: [String: JSONValue]?, targetKind: TransformInput.TargetKind,
        environment: [String: String], workingDirectory: URL
    ) throws(PluginError) -> ConfiguredTransforms? {
        guard let configured, !configured.isEmpty else { return nil }
        var steps: [TransformChain.Step] = []
        var described: [JSONValue] = []
        for entry in configured {
            let (name, options) = try nameAndOptions(entry)
            let plugin = try PluginCatalog.find(name, declared: declared, environment: environment)
            steps.append(TransformChain.Step(plugin: plugin, options: .object(options)))
            described.append(.object(["plugin": .string(name), "options": .object(plugin.defaultOptions.merging(options) { $1 })]))
        }
        let digest = SHA256.hex(Data(StableJSONWriter.line(.array(described))))
        let identity = steps.map(\.plugin.name).joined(separator: "+") + " " + digest.prefix(12)
        return ConfiguredTransforms(
            chain: TransformChain(steps: steps), identity: identity, targetKind: targetKind, environment: environment, workingDirectory: workingDirectory)
    }

    private static func nameAndOptions(_ entry: JSONValue) throws(PluginError) -> (String, [String: JSONValue]) {
        if let name = entry.string { return (name, [:]) }
        guard let object = entry.object, let name = object["plugin"]?.string, Set(object.keys).isSubset(of: ["plugin", "options"]) else {
            throw .invalidTransformEntry(TerminalText.escaped(String(decoding: StableJSONWriter.line(entry).dropLast(), as: UTF8.self)))
        }
        guard let options = object["options"] else { return (name, [:]) }
        guard let members = options.object else { throw .invalidTransformEntry("\"options\" of \(TerminalText.escaped(name)) that is not an object") }
        return (name, members)
    }

    /// One block's files after the chain. The chain may change any file's bytes, never the
    /// set of paths: the lock, the demo's role and `remove` go by the manifest's list.
    public func apply(manifest: BlockManifest, files: [TransformFile]) throws(PluginError) -> [TransformFile] {
        let input = TransformInput(manifest: manifest, files: files, targetKind: targetKind)
        let output = try chain.apply(input, environment: environment, workingDirectory: workingDirectory)
        guard output.map(\.path).sorted() == files.map(\.path).sorted() else {
            throw .brokeRule(plugin: chain.steps.map(\.plugin.name).joined(separator: ", "), rule: "changed the block's list of files (a transform may change their bytes, not their paths)")
        }
        return output
    }

    /// Runs the chain twice on `content` as `add` would hand it over (license header on)
    /// and fails when the two runs differ (`TransformChain.checkDeterministic`).
    public func checkDeterministic(_ content: BlockContent, year: Int) throws {
        let header = Data(LicenseHeader.render(year: year, holders: TemplateText.holders(content.manifest.authors)).utf8)
        let files = try content.manifest.files.map { entry in
            TransformFile(path: entry.path, role: entry.role, content: try LicenseHeader.apply(to: content.files[entry.path] ?? Data(), path: entry.path, header: header))
        }
        try chain.checkDeterministic(
            TransformInput(manifest: content.manifest, files: files, targetKind: targetKind), environment: environment, workingDirectory: workingDirectory)
    }
}
