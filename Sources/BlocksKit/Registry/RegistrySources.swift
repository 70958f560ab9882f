/// Picks the registry plugin for a `--registry` value: the embedded catalog by default,
/// a catalog folder, a built registry folder, `file://`, `http(s)://`, an archive file, or
/// a location of one of the `kinds` (`git+https://…`).
public enum RegistrySources {
    /// The kinds of registry with a URL scheme of their own: one line each.
    public static let kinds: [any RegistrySourceKind] = [
        GitSource()
    ]

    /// The kind that reads `scheme` (in lower case), if any: a built-in one, else, given
    /// the environment, an installed plugin of that name that offers `source`.
    static func kind(forScheme scheme: String, environment: [String: String]? = nil) -> (any RegistrySourceKind)? {
        if let kind = kinds.first(where: { $0.schemes.contains(scheme) }) { return kind }
        return environment.flatMap { PluginSource.find(scheme: scheme, environment: $0) }
    }

    /// The folder on this machine that a `.fetched` location was brought to by its kind,
    /// whole: a registry read file by file has every file fetched (what the mirror needs).
    static func fetchedFolder(scheme: String, location: String, access: RegistryAccess) throws -> URL {
        guard let kind = kind(forScheme: scheme, environment: access.environment) else { throw unsupported(scheme, location: location) }
        guard let supplier = try kind.fileSupplier(for: location, cacheFolder: access.cacheDirectory, offline: access.offline, environment: access.environment) else {
            return try kind.folder(for: location, cacheFolder: access.cacheDirectory, offline: access.offline, environment: access.environment)
        }
        try BuiltRegistrySource(root: .folder(supplier.folder), access: access, supplier: supplier).fetchEverything()
        return supplier.folder
    }

    /// A `.fetched` location opened as a source: read file by file as the command needs
    /// them when its kind can, else from the folder its kind brought it to.
    static func openFetched(scheme: String, location: String, access: RegistryAccess) throws -> RegistrySource {
        guard let kind = kind(forScheme: scheme, environment: access.environment) else { throw unsupported(scheme, location: location) }
        let base: RegistrySource
        if let supplier = try kind.fileSupplier(for: location, cacheFolder: access.cacheDirectory, offline: access.offline, environment: access.environment) {
            base = BuiltRegistrySource(root: .folder(supplier.folder), access: access, supplier: supplier)
        } else {
            let folder = try kind.folder(for: location, cacheFolder: access.cacheDirectory, offline: access.offline, environment: access.environment)
            base = try openFolderOrArchive(folder, original: location, access: access)
        }
        return FetchedRegistrySource(base: base, location: location)
    }

    /// Why no kind reads `scheme`, with every scheme that is read.
    static func unsupported(_ scheme: String, location: String) -> RegistryError {
        let schemes = (["https", "http", "file"] + kinds.flatMap(\.schemes)).map { $0 + "://" }
        return .unreadable(
            location: location,
            reason: "\(scheme):// is not supported; use \(schemes.joined(separator: ", ")) or a path, or install a source plugin blocks-plugin-\(scheme) (docs/PLUGINS.md)")
    }

    /// The access for reading `location`, with its pinned keys: `--key`, else blocks.json's
    /// `keys` when `location` is blocks.json's `registry`. Every command that opens a
    /// registry by location goes through here, so `update` and `status` check what `add` does.
    static func pinning(_ access: RegistryAccess, location: String?, config: ProjectConfig?, root: URL?) throws -> RegistryAccess {
        guard access.pinnedKeys.isEmpty, let config, let root, let location, location == config.registryLocation(root: root) else { return access }
        var pinned = access
        pinned.pinnedKeys = try config.pinnedKeys()
        return pinned
    }

    public static func open(_ location: String?, access: RegistryAccess) throws -> RegistrySource {
        let source = try openUnchecked(location, access: access)
        // Only a built registry (or a mirror of one) has a signed index.
        if !access.pinnedKeys.isEmpty, !(source.readingSource is BuiltRegistrySource) {
            throw SignatureError.missingSignature(location: source.location, keyOrigin: access.pinnedKeys.first?.origin)
        }
        return source
    }

    static func openUnchecked(_ location: String?, access: RegistryAccess) throws -> RegistrySource {
        let original = location ?? "embedded"
        var access = access
        if let location, RedirectPolicy.isHTTP(location), let (_, userinfo) = URLUserinfo.split(location) {
            // The source, and so the lock, the cache and every message, sees the URL
            // without it; only requests to its origin carry it.
            access.transport = UserinfoTransport(base: access.transport, url: location, userinfo: userinfo)
        }
        switch try RegistryLocation(location) {
        case .embedded:
            return CatalogSource.embedded
        case .remote(let base):
            return BuiltRegistrySource(root: .remote(base), access: access)
        case .remoteArchive(let url, let checksum):
            return try ArchiveFileSource.download(url, sha256: checksum, access: access)
        case .local(let path):
            return try openFolderOrArchive(access.paths.resolve(path), original: original, access: access)
        case .fetched(let scheme, let location):
            return try openFetched(scheme: scheme, location: location, access: access)
        }
    }

    /// A registry on this machine: an archive file, a built registry folder or a catalog folder.
    private static func openFolderOrArchive(_ url: URL, original: String, access: RegistryAccess) throws -> RegistrySource {
        let kind = PathKind(url.path)
        guard kind != .missing else {
            throw RegistryError.unreadable(location: original, reason: "no such file or folder")
        }
        if kind != .folder {
            if ArchiveFormat.forFile(url.path) != nil { return try ArchiveFileSource(url: url) }
            throw RegistryError.unreadable(location: original, reason: "a registry is a folder, a URL, or a \(ArchiveFormat.spelled()) archive")
        }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("index.json").path) {
            return BuiltRegistrySource(root: .folder(url), access: access)
        }
        if CatalogSource.looksLikeCatalog(url) { return CatalogSource.folder(url) }
        throw RegistryError.unreadable(location: original, reason: "the folder has neither index.json nor <name>/block.json folders")
    }

    /// The path a `file://` URL names: `file:///path` or `file://localhost/path`, with
    /// percent escapes decoded (`%20` is a space). A path typed without escapes, spaces and
    /// all, is taken as it is.
    static func localPath(fileURL location: String) throws -> String {
        var rest = Substring(location.dropFirst("file://".count))
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else {
            throw RegistryError.unreadable(location: location, reason: "a file:// URL names a path on this machine, as in file:///srv/registry")
        }
        return PercentEncoding.decoded(String(rest)) ?? String(rest)
    }
}

/// What a `--registry` value, a `blocks.json` registry or a mirror's SOURCE names, read by
/// one parser so that every command takes the same spellings: schemes in any case
/// (`HTTP://` is http), `file://` URLs with `localhost` and `%20`, and a URL or path that
/// ends in `index.json`, which names the registry around it.
public enum RegistryLocation: Equatable, Sendable {
    /// The catalog built into the binary.
    case embedded
    /// A built registry over http(s): its base URL, with the scheme in lower case.
    case remote(String)
    /// One archive over http(s), with the checksum of its `#sha256=HEX` fragment.
    case remoteArchive(url: String, sha256: String?)
    /// A folder or archive on this machine, as typed or as a `file://` URL names it.
    case local(String)
    /// A location one of `RegistrySources.kinds` reads (`git+https://…`), as typed.
    case fetched(scheme: String, location: String)

    public init(_ text: String?) throws {
        guard let text, !text.isEmpty, text != "embedded" else {
            self = .embedded
            return
        }
        guard let separator = text.firstRange(of: "://") else {
            self = .local(Self.droppingIndexFile(text))
            return
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        guard scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
            // "://" further on, as in a folder named "a://b": a path.
            self = .local(Self.droppingIndexFile(text))
            return
        }
        switch scheme {
        case "http", "https":
            // User information is a credential: `RegistrySources.openUnchecked` takes it
            // for the requests, and the location never holds it.
            let url = URLUserinfo.stripped(scheme + "://" + rest)
            // An archive URL carries its checksum as a fragment: https://host/tabs.zip#sha256=HEX
            let parts = url.split(separator: "#", maxSplits: 1).map(String.init)
            if let address = parts.first, ArchiveFormat.forFile(address) != nil {
                let checksum = parts.count == 2 && parts[1].hasPrefix("sha256=") ? String(parts[1].dropFirst("sha256=".count)) : nil
                self = .remoteArchive(url: address, sha256: checksum)
            } else {
                self = .remote(Self.droppingIndexFile(url))
            }
        case "file":
            self = .local(Self.droppingIndexFile(try RegistrySources.localPath(fileURL: text)))
        default:
            // A built-in kind's scheme, or a plugin's name (`company://team`): which plugin,
            // if any, is asked when the registry is opened, with the environment.
            guard RegistrySources.kind(forScheme: scheme) != nil || ManifestValidator.isValidName(scheme) else {
                throw RegistrySources.unsupported(scheme, location: text)
            }
            // A plugin's location is written to blocks.lock as typed, so it may hold no
            // credential (a built-in kind checks its own, as git+ssh://git@host may).
            if RegistrySources.kind(forScheme: scheme) == nil, rest.prefix(while: { $0 != "/" }).contains("@") {
                throw RegistryError.unreadable(
                    location: URLUserinfo.masked(in: text),
                    reason: "it holds user information, which blocks.lock would keep; give the plugin its credentials through its environment (blocks.json's \"plugins\")")
            }
            self = .fetched(scheme: scheme, location: text)
        }
    }

    /// `…/index.json` names the registry it is the index of: the folder (or base URL)
    /// around it, so `--registry https://host/reg/index.json` does not ask for
    /// `index.json/index.json`.
    static func droppingIndexFile(_ location: String) -> String {
        if location == "index.json" { return "." }
        guard location.hasSuffix("/index.json") else { return location }
        return String(location.dropLast("index.json".count))
    }
}
