/// A registry location with a plugin's own scheme, `NAME://…`, read by the installed
/// program `blocks-plugin-NAME` (docs/PLUGINS.md, "Source plugins"). The plugin writes
/// a catalog or a built registry into a fresh folder of the cache and answers where in it
/// the registry is; blocks then reads that folder as any other, with its checksums,
/// signatures and caps, so the plugin decides only how the bytes arrive.
///
/// A registry can never cause one to run: only a location the user typed or wrote in
/// blocks.json names a scheme, and only a program the user installed answers it.
struct PluginSource: RegistrySourceKind {
    let plugin: AnyPlugin
    var schemes: [String] { [plugin.name] }

    /// The installed plugin called `scheme` when it offers `source`, else nil.
    static func find(scheme: String, environment: [String: String]) -> PluginSource? {
        guard ManifestValidator.isValidName(scheme), let plugin = try? PluginCatalog.find(scheme, declared: nil, environment: environment),
            case .external = plugin.body
        else { return nil }
        return PluginSource(plugin: plugin)
    }

    func folder(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> URL {
        let base = cacheFolder.appendingPathComponent("sources")
        let key = String(SHA256.hex(location).prefix(24))
        let kept = base.appendingPathComponent(key)
        let answerFile = base.appendingPathComponent(key + ".registry")
        if offline {
            guard let folder = FileManager.default.contents(atPath: answerFile.path).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw PluginError.sourceFailed(location: location, reason: "it was never fetched, and --offline reads only what the cache holds; run once without --offline")
            }
            return kept.appendingPathComponent(folder)
        }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let fresh = base.appendingPathComponent(key + ".partial")
        try? FileManager.default.removeItem(at: fresh)
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        let token = Interruption.removeOnInterrupt(fresh.path)
        defer {
            // A failed run leaves nothing half-written behind.
            try? FileManager.default.removeItem(at: fresh)
            Interruption.keep(token)
        }
        let capabilities = try PluginCatalog.capabilities(of: plugin, environment: environment, workingDirectory: fresh)
        guard capabilities.contains(.source) else {
            throw PluginError.sourceFailed(location: location, reason: "plugin '\(plugin.name)' does not offer the source capability ('blocks plugin list' shows what each offers)")
        }
        let answer = try plugin.ask(PluginProtocol.sourceRequest(location: location, folder: fresh.path), environment: environment, workingDirectory: fresh)
        guard let registry = answer["registry"]?.string, registry == "." || RelativePath.isSafe(registry) else {
            throw PluginError.badResponse(plugin: plugin.name, reason: "its answer has no \"registry\": the folder, inside the one it was given, that holds the registry")
        }
        // The new fetch replaces the last one whole, so a failed run leaves the last in place.
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.moveItem(at: fresh, to: kept)
        try AtomicFile.write(Data(registry.utf8), to: answerFile)
        return kept.appendingPathComponent(registry)
    }
}
