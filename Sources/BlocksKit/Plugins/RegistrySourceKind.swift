/// A kind of registry location with a URL scheme of its own (`git+https://…`), beyond the
/// kinds every build reads directly (the embedded catalog, folders, archives, http(s)).
///
/// A kind only brings the registry to this machine: it answers with a folder that holds a
/// catalog or a built registry, and the tool reads that folder as it reads any other, with
/// the same checksums, signatures, caps, search index and mirror. So a new kind is this one
/// small type in one file plus its line in `RegistrySources.kinds`; docs/ARCHITECTURE.md
/// has the recipe.
public protocol RegistrySourceKind: Sendable {
    /// The URL schemes it reads, in lower case, such as `git+https`.
    var schemes: [String] { get }

    /// The folder on this machine that holds the registry `location` names, fetched or
    /// brought up to date first. With `offline`, what the last fetch left, or an error that
    /// says none was made.
    func folder(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> URL

    /// The supplier that brings the registry one file at a time, when this kind reads it
    /// so (`RegistryFileSupplier`); nil to bring it whole with `folder(for:…)`.
    func fileSupplier(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> (any RegistryFileSupplier)?
}

extension RegistrySourceKind {
    /// Nil: the kind brings the whole registry with `folder(for:…)`.
    public func fileSupplier(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> (any RegistryFileSupplier)? {
        nil
    }
}

/// One file of a built registry, as a `RegistryFileSupplier` is asked for it.
public enum RegistryFileRequest: Sendable, Equatable {
    /// `index.json`, and `index.json.minisig` when the registry is signed.
    case index
    /// `blocks/NAME.json`.
    case metadata(name: String)
    /// One version's archive, at `path` as its metadata names it.
    case archive(name: String, version: String, path: String)
    /// One file of a split index (`index/<sha256>.json`: its dictionary, a range, a digest
    /// file or the change feed), at `path` as `index.json` names it.
    case part(path: String)

    /// The request's name in the plugin protocol.
    var kind: String {
        switch self {
        case .index: return "index"
        case .metadata: return "metadata"
        case .archive: return "archive"
        case .part: return "part"
        }
    }

    /// Where the file sits in the registry's folder.
    var registryPath: String {
        switch self {
        case .index: return "index.json"
        case .metadata(let name): return "blocks/\(name).json"
        case .archive(_, _, let path): return path
        case .part(let path): return path
        }
    }
}

/// A registry brought to this machine one file at a time, as commands need them, rather
/// than whole (a company's artifact store too big to copy). Its folder is read as any
/// built registry is, with the same checksums, signatures and caps: the supplier only
/// puts files in place before they are read.
public protocol RegistryFileSupplier: Sendable {
    /// The folder that holds what was supplied, laid out as a built registry.
    var folder: URL { get }

    /// Puts the file in its place in `folder`, fetched afresh (or, offline, as the last
    /// fetch left it). False when the registry has no such file. A file over
    /// `maximumBytes` is refused, as a server's would be.
    func supply(_ request: RegistryFileRequest, maximumBytes: Int64) throws -> Bool
}

/// The lock a source kind holds while it replaces its copy of one location in the cache.
enum FetchLock {
    /// Waits a few seconds for the lock at `path`: two commands reading one repository
    /// (or one source plugin's location) take turns rather than fail.
    static func wait(_ path: String, location: String) throws -> FolderLock {
        for _ in 0..<300 {
            do throws(FolderLock.Failure) {
                return try FolderLock(file: path)
            } catch .busy {
                usleep(100_000)
            } catch .unavailable(let reason) {
                throw PluginError.sourceFailed(location: location, reason: reason)
            }
        }
        throw PluginError.sourceFailed(location: location, reason: "another blocks command has been fetching it for 30 s")
    }
}
