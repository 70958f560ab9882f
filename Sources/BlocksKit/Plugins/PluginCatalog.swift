/// The plugins a project can use: those declared in blocks.json's `"plugins"` (first),
/// then the built-in transforms, then every `blocks-plugin-NAME` executable on PATH (the
/// first of a name wins).
/// Declared ones look like `"plugins": {"NAME": {"command": ["python3", "tools/fmt.py"],
/// "options": {…}, "environment": ["VARIABLE"]}}`.
public enum PluginCatalog {
    static let executablePrefix = "blocks-plugin-"

    /// The transforms shipped inside the binary.
    static let builtIns: [any BuiltInTransform] = [AccessLevelTransform(), PrefixTransform(), SwiftFormatTransform()]

    /// Every plugin, declared ones first, each name once.
    public static func all(declared: [String: JSONValue]?, environment: [String: String]) throws(PluginError) -> [AnyPlugin] {
        var found = try declarations(declared).map(AnyPlugin.external)
        var names = Set(found.map(\.name))
        for builtIn in builtIns where !names.contains(builtIn.name) {
            names.insert(builtIn.name)
            found.append(AnyPlugin(body: .builtIn(builtIn)))
        }
        for (name, path) in executables(prefixed: executablePrefix, environment: environment) where !names.contains(name) {
            found.append(.external(ExternalPlugin(name: name, command: [path], origin: "PATH")))
        }
        return found
    }

    /// Every executable on PATH whose file name starts with `prefix`: the rest of its name
    /// and its path, the first folder's winning, sorted by name. External commands
    /// (`blocks-NAME`) and plugins (`blocks-plugin-NAME`) are both found this way.
    static func executables(prefixed prefix: String, environment: [String: String]) -> [(name: String, path: String)] {
        var found: [String: String] = [:]
        for folder in (environment["PATH"] ?? "").split(separator: ":").map(String.init) where !folder.isEmpty {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for file in files where file.hasPrefix(prefix) {
                let name = String(file.dropFirst(prefix.count))
                let path = folder + "/" + file
                if !name.isEmpty, found[name] == nil, FileManager.default.isExecutableFile(atPath: path) { found[name] = path }
            }
        }
        return found.sorted { $0.key < $1.key }.map { (name: $0.key, path: $0.value) }
    }

    /// The plugin called `name`, or an error naming where it was looked for.
    public static func find(_ name: String, declared: [String: JSONValue]?, environment: [String: String]) throws(PluginError) -> AnyPlugin {
        if let plugin = try all(declared: declared, environment: environment).first(where: { $0.name == name }) { return plugin }
        throw .notFound(name: name, searched: "PATH=\(environment["PATH"] ?? "")")
    }

    /// blocks.json's `"plugins"` object, read strictly: a declaration blocks cannot run is an
    /// error that names it, never a plugin silently left out.
    static func declarations(_ declared: [String: JSONValue]?) throws(PluginError) -> [ExternalPlugin] {
        guard let declared else { return [] }
        return try declared.keys.sorted().map { name throws(PluginError) in
            guard let object = declared[name]?.object, let command = object["command"]?.strings, !command.isEmpty else {
                throw .badResponse(plugin: name, reason: "blocks.json's \"plugins\" entry needs \"command\": a list of strings")
            }
            var plugin = ExternalPlugin(name: name, command: command, passedEnvironment: object["environment"]?.strings ?? [], origin: "blocks.json")
            plugin.defaultOptions = object["options"]?.object ?? [:]
            return plugin
        }
    }

    /// What one plugin offers, from its `capabilities` answer.
    public static func capabilities(
        of plugin: AnyPlugin, environment: [String: String], workingDirectory: URL
    ) throws(PluginError) -> [PluginProtocol.Capability] {
        var asked = plugin
        if case .external(var external) = plugin.body {
            external.timeout = min(external.timeout, 10)
            asked = .external(external)
        }
        let answer = try asked.ask(PluginProtocol.capabilitiesRequest(), environment: environment, workingDirectory: workingDirectory)
        return try PluginProtocol.capabilities(in: answer, plugin: plugin.name)
    }
}

/// A chain of transforms, applied in order to a block's files before they are written.
///
/// After every step the rules every transform keeps are checked, so one broken plugin is
/// one clear error and nothing is written: every path stays a plain relative path inside
/// the block's folder, no two files share a path, and every Swift file still starts with
/// the MIT header.
public struct TransformChain: Sendable {
    public struct Step: Sendable {
        public var plugin: AnyPlugin
        public var options: JSONValue

        public init(plugin: AnyPlugin, options: JSONValue = .object([:])) {
            self.plugin = plugin
            self.options = options
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) { self.steps = steps }

    /// The files after every step.
    public func apply(_ input: TransformInput, environment: [String: String], workingDirectory: URL) throws(PluginError) -> [TransformFile] {
        var current = input
        for step in steps {
            let options = step.plugin.defaultOptions.merging(step.options.object ?? [:]) { $1 }
            let answer = try step.plugin.ask(
                PluginProtocol.transformRequest(current, options: .object(options)), environment: environment, workingDirectory: workingDirectory)
            let files = try PluginProtocol.files(in: answer, plugin: step.plugin.name)
            try Self.check(files, plugin: step.plugin.name)
            current.files = files
        }
        return current.files
    }

    /// Runs the chain twice on the same input: a transform whose output changes between
    /// runs would make every later update of the block conflict.
    public func checkDeterministic(_ input: TransformInput, environment: [String: String], workingDirectory: URL) throws(PluginError) {
        let first = try apply(input, environment: environment, workingDirectory: workingDirectory)
        let second = try apply(input, environment: environment, workingDirectory: workingDirectory)
        guard first == second else {
            let differing = zip(first, second).first { $0 != $1 }.map { " (\($0.0.path))" } ?? ""
            throw .brokeRule(plugin: steps.map(\.plugin.name).joined(separator: ", "), rule: "gave different files for the same input\(differing)")
        }
    }

    static func check(_ files: [TransformFile], plugin: String) throws(PluginError) {
        var seen = Set<String>()
        for file in files {
            guard RelativePath.isSafe(file.path) else {
                throw .brokeRule(plugin: plugin, rule: "returned the path '\(TerminalText.escaped(file.path))', which leaves the block's folder")
            }
            guard seen.insert(file.path).inserted else { throw .brokeRule(plugin: plugin, rule: "returned '\(file.path)' twice") }
            if file.path.hasSuffix(".swift"), !LicenseHeader.hasHeader(String(decoding: file.content, as: UTF8.self)) {
                throw .brokeRule(plugin: plugin, rule: "dropped the MIT license header of \(file.path)")
            }
        }
    }
}

/// A plugin of either kind, as the chain and `blocks plugin list` use it: a program the
/// user installed, or a transform built into blocks, asked through the same protocol.
public struct AnyPlugin: Sendable {
    enum Body: Sendable {
        case external(ExternalPlugin)
        case builtIn(any BuiltInTransform)
    }

    let body: Body

    public static func external(_ plugin: ExternalPlugin) -> AnyPlugin { AnyPlugin(body: .external(plugin)) }

    public var name: String {
        switch body {
        case .external(let plugin): plugin.name
        case .builtIn(let transform): transform.name
        }
    }

    /// Where it was found: `blocks.json`, `PATH` or `built-in`.
    public var origin: String {
        if case .external(let plugin) = body { return plugin.origin }
        return "built-in"
    }

    /// The program and its arguments; empty for a built-in transform.
    public var command: [String] {
        if case .external(let plugin) = body { return plugin.command }
        return []
    }

    /// blocks.json's options for it, under those a chain's step gives.
    var defaultOptions: [String: JSONValue] {
        if case .external(let plugin) = body { return plugin.defaultOptions }
        return [:]
    }

    /// The answer's members to `request`, after the protocol's checks.
    func ask(_ request: JSONValue, environment: [String: String], workingDirectory: URL) throws(PluginError) -> [String: JSONValue] {
        switch body {
        case .external(let plugin):
            return try plugin.ask(request, environment: environment, workingDirectory: workingDirectory)
        case .builtIn(let transform):
            let answer = transform.answer(request, place: PluginPlace(environment: environment, workingDirectory: workingDirectory))
            return try PluginProtocol.members(of: StableJSONWriter.line(answer), plugin: transform.name)
        }
    }
}
