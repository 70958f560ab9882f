/// What `blocks mirror SOURCE` reads from, and through which headers: a location (an
/// http(s) URL or a registry folder) as it is; a namespace of `blocks.json` (`@acme`),
/// read through that namespace's headers; or a URL with `--header` lines. Either way the
/// headers go only to the registry's own origin, never with `BLOCKS_TOKEN`, and their
/// values are expanded only when a request is made, so they never reach the mirror's
/// files or the output.
enum MirrorSource {
    /// The location to mirror and the access that reads it.
    /// `configured` gives `blocks.json`'s namespaced registries, asked only for `@acme`.
    static func resolve(
        _ source: String, headerLines: [String], configured: () throws -> [NamespacedRegistry], access: RegistryAccess
    ) throws -> (location: String, access: RegistryAccess) {
        if source.hasPrefix("@") {
            guard NamespacedRegistry.isValidNamespace(source) else { throw NamespaceError.invalidNamespace(source) }
            guard headerLines.isEmpty else {
                throw UsageError.inapplicableOption("--header", because: "\(source) reads through the headers blocks.json gives it")
            }
            let configured = try configured()
            guard let registry = configured.first(where: { $0.namespace == source }) else {
                throw NamespaceError.unknownNamespace(source, configured: configured.map(\.namespace))
            }
            return (registry.url, access.readingThrough(registry))
        }
        guard !headerLines.isEmpty else { return (source, access) }
        guard case .remote = try RegistryLocation(source) else {
            throw UsageError.inapplicableOption("--header", because: "\(source) is not an http(s) registry")
        }
        let headers = try headerLines.map { line in
            guard let header = HeaderTemplate(line: line), (try? HeaderTemplate.pieces(of: header.value)) != nil else {
                // The value may be a secret written out: only the name is repeated.
                throw NamespaceError.invalidHeader(line.firstIndex(of: ":").map { String(line[..<$0]) + ": ..." } ?? "--header ...")
            }
            return header
        }
        let registry = NamespacedRegistry(namespace: "--header", url: source, headers: headers, headersOf: "--header")
        return (source, access.readingThrough(registry))
    }
}
