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
}
