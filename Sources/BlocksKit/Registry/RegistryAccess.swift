/// What reading a registry needs from the outside world, and nothing more: the transport,
/// the cache folder, whether the network may be used, how typed paths resolve, and where
/// notices go. Commands build it from their context; tests and other front ends (the MCP
/// server) build their own, as SwiftPM's registry client takes an HTTP client and an
/// observability scope instead of a terminal.
public struct RegistryAccess: Sendable {
    /// Every transfer goes through this; the command line passes one that also announces
    /// retries and stalls on a terminal.
    public var transport: HTTPTransport
    /// `$XDG_CACHE_HOME/blocks` or `~/.cache/blocks`: downloaded indexes, archives, search
    /// indexes and the bases `update` merges from.
    public var cacheDirectory: URL
    /// `--offline`: only what the cache holds.
    public var offline: Bool
    public var paths: PathContext
    public var notices: NoticeHandler
    /// Where a namespaced registry's `${VARIABLE}` headers are expanded from, at each request.
    public var environment: [String: String]
    /// The public keys the registry must be signed by (`--key`, or `keys` in blocks.json);
    /// empty for an unsigned registry, read as before.
    public var pinnedKeys: [MinisignPublicKey] = []
    /// `--allow-expired`: accept a signed index past its `expires`, with a warning.
    public var allowExpired = false

    public init(
        transport: HTTPTransport, cacheDirectory: URL, offline: Bool = false, paths: PathContext,
        notices: @escaping NoticeHandler = { _ in }, environment: [String: String] = [:]
    ) {
        self.transport = transport
        self.environment = environment
        self.cacheDirectory = cacheDirectory
        self.offline = offline
        self.paths = paths
        self.notices = notices
    }

    func warn(_ line: String) { notices(.warning(line)) }
}
