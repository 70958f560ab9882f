/// A registry location with a plugin's own scheme, `NAME://…`, read by the installed
/// program `blocks-plugin-NAME` (docs/PLUGINS.md, "Source plugins"). The plugin writes
/// a catalog or a built registry into a fresh folder of the cache and answers where in it
/// the registry is (`source`), or writes one file of a built registry per request
/// (`source-files`, `PluginFileSupplier`); blocks then reads that folder as any other,
/// with its checksums, signatures and caps, so the plugin decides only how the bytes arrive.
///
/// A registry can never cause one to run: only a location the user typed or wrote in
/// blocks.json names a scheme, and only a program the user installed answers it.
struct PluginSource: RegistrySourceKind {
    let plugin: AnyPlugin
    var schemes: [String] { [plugin.name] }
    /// The handshake's answer, asked once: `fileSupplier` asks first, and a plugin that
    /// offers only `source` is then asked for its `folder` by the same value.
    private let answered = CapabilitiesMemo()

    /// The installed plugin called `scheme` when it offers `source`, else nil.
    static func find(scheme: String, environment: [String: String]) -> PluginSource? {
        guard ManifestValidator.isValidName(scheme), let plugin = try? PluginCatalog.find(scheme, declared: nil, environment: environment),
            case .external = plugin.body
        else { return nil }
        return PluginSource(plugin: plugin)
    }

    /// A plugin that offers `source-files` is asked for each file as commands need it
    /// (`PluginFileSupplier`); one that offers only `source` brings the registry whole.
    func fileSupplier(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> (any RegistryFileSupplier)? {
        let folder = Self.cacheFolder(cacheFolder, location: location).appendingPathExtension("files")
        if offline {
            // What the last run left decides, so --offline never starts the plugin.
            return PathKind(folder.path) == .folder ? PluginFileSupplier(plugin: plugin, location: location, folder: folder, offline: true, environment: environment) : nil
        }
        let sources = folder.deletingLastPathComponent()
        guard PathKind.makeFolder(sources.path) else { throw PluginError.sourceFailed(location: location, reason: "cannot create \(sources.path)") }
        guard try capabilities(location: location, environment: environment, workingDirectory: sources).contains(.sourceFiles) else { return nil }
        guard PathKind.makeFolder(folder.path) else { throw PluginError.sourceFailed(location: location, reason: "cannot create \(folder.path)") }
        PluginFileSupplier.removeAbandonedRequests(in: folder)
        return PluginFileSupplier(plugin: plugin, location: location, folder: folder, offline: false, environment: environment)
    }

    /// The cache's folder for `location`'s fetches.
    static func cacheFolder(_ cacheFolder: URL, location: String) -> URL {
        cacheFolder.appendingPathComponent("sources").appendingPathComponent(String(SHA256.hex(location).prefix(24)))
    }

    /// The plugin's capabilities, asked in a folder of the cache, or why it has neither
    /// source capability.
    private func capabilities(location: String, environment: [String: String], workingDirectory: URL) throws -> [PluginProtocol.Capability] {
        let capabilities = try answered.value ?? PluginCatalog.capabilities(of: plugin, environment: environment, workingDirectory: workingDirectory)
        answered.value = capabilities
        guard capabilities.contains(.source) || capabilities.contains(.sourceFiles) else {
            throw PluginError.sourceFailed(location: location, reason: "plugin '\(plugin.name)' does not offer the source capability ('blocks plugin list' shows what each offers)")
        }
        return capabilities
    }

    func folder(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> URL {
        let kept = Self.cacheFolder(cacheFolder, location: location)
        let base = kept.deletingLastPathComponent()
        let key = kept.lastPathComponent
        let answerFile = base.appendingPathComponent(key + ".registry")
        if offline {
            guard let folder = FileManager.default.contents(atPath: answerFile.path).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw PluginError.sourceFailed(location: location, reason: "it was never fetched, and --offline reads only what the cache holds; run once without --offline")
            }
            return kept.appendingPathComponent(folder)
        }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Two commands fetching one location take turns: each replaces the folder whole.
        let lock = try FetchLock.wait(base.appendingPathComponent(key + ".lock").path, location: location)
        defer { withExtendedLifetime(lock) {} }
        let fresh = base.appendingPathComponent(key + ".partial")
        try? FileManager.default.removeItem(at: fresh)
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        let token = Interruption.removeOnInterrupt(fresh.path)
        defer {
            // A failed run leaves nothing half-written behind.
            try? FileManager.default.removeItem(at: fresh)
            Interruption.keep(token)
        }
        guard try capabilities(location: location, environment: environment, workingDirectory: fresh).contains(.source) else {
            throw PluginError.sourceFailed(location: location, reason: "plugin '\(plugin.name)' offers source-files, not source; it is read file by file")
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

/// One plugin's capabilities once its handshake answered.
final class CapabilitiesMemo: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [PluginProtocol.Capability]?

    var value: [PluginProtocol.Capability]? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A source plugin's registry, fetched file by file into a folder of the cache
/// (docs/PLUGINS.md, "Source plugins, file by file"). Each request gets an empty folder;
/// the plugin writes the file anywhere in it and answers where, and the file is checked
/// (inside the folder, a regular file, under its cap) and renamed into its place.
struct PluginFileSupplier: RegistryFileSupplier {
    let plugin: AnyPlugin
    let location: String
    let folder: URL
    let offline: Bool
    let environment: [String: String]

    /// The prefix of each request's own folder.
    static let requestFolderPrefix = ".incoming-"

    /// Removes request folders a killed run left, once they are an hour old: a younger one
    /// may belong to another command reading the same registry right now.
    static func removeAbandonedRequests(in folder: URL, now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(requestFolderPrefix) {
            let path = folder.joining(name).path
            guard let modified = FileStamp.of(path: path)?.modified, Double(modified) / 1e9 < now.timeIntervalSince1970 - 3600 else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func supply(_ request: RegistryFileRequest, maximumBytes: Int64) throws -> Bool {
        let target = folder.joining(request.registryPath)
        if offline {
            guard request != .index || PathKind(target.path) == .other else {
                throw PluginError.sourceFailed(location: location, reason: "it was never fetched, and --offline reads only what the cache holds; run once without --offline")
            }
            return PathKind(target.path) == .other
        }
        let scratch = folder.joining(Self.requestFolderPrefix + UUID().uuidString, isDirectory: true)
        guard PathKind.makeFolder(scratch.path) else { throw PluginError.sourceFailed(location: location, reason: "cannot create \(scratch.path)") }
        let token = Interruption.removeOnInterrupt(scratch.path)
        defer {
            try? FileManager.default.removeItem(at: scratch)
            Interruption.keep(token)
        }
        let answer = try plugin.ask(PluginProtocol.fileRequest(request, location: location, folder: scratch.path), environment: environment, workingDirectory: scratch)
        if answer["missing"] == .bool(true) {
            // Gone upstream: a copy from an earlier fetch must not stand in for it.
            unlink(target.path)
            return false
        }
        try place(answer["path"], at: target, from: scratch, request: request, maximumBytes: maximumBytes)
        if request == .index {
            // The signature comes with the index, or the registry is unsigned now.
            let signature = folder.joining("index.json.minisig")
            if answer["signature"] != nil {
                try place(answer["signature"], at: signature, from: scratch, request: request, maximumBytes: 4096)
            } else {
                unlink(signature.path)
            }
        }
        return true
    }

    /// Whether `path`, every link on the way resolved, is inside `folder`: a plugin could
    /// answer `d/file` with `d` a link to the user's own folder.
    static func isInside(_ path: String, folder: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        guard let resolvedFolder = realpath(folder, nil) else { return false }
        defer { free(resolvedFolder) }
        return String(cString: resolved).hasPrefix(String(cString: resolvedFolder) + "/")
    }

    /// Moves the file the answer names from the request's folder to `target`.
    private func place(_ answered: JSONValue?, at target: URL, from scratch: URL, request: RegistryFileRequest, maximumBytes: Int64) throws {
        guard let path = answered?.string, RelativePath.isSafe(path) else {
            throw PluginError.badResponse(
                plugin: plugin.name, reason: "its answer to '\(request.kind)' has no \"path\" inside the folder it was given, nor \"missing\": true")
        }
        let written = scratch.joining(path)
        var info = stat()
        guard lstat(written.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Self.isInside(written.path, folder: scratch.path) else {
            throw PluginError.badResponse(plugin: plugin.name, reason: "'\(TerminalText.escaped(path))', which it answered to '\(request.kind)', is not a file it wrote")
        }
        guard Int64(info.st_size) <= maximumBytes else {
            throw PluginError.sourceFailed(location: location, reason: "\(request.registryPath) is \(info.st_size) bytes, over the \(maximumBytes) a registry's file may have")
        }
        guard PathKind.makeFolder(target.deletingLastPathComponent().path), rename(written.path, target.path) == 0 else {
            throw PluginError.sourceFailed(location: location, reason: "cannot put \(request.registryPath) in \(folder.path)")
        }
    }
}
