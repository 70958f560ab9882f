/// Where blocks come from. Each kind of registry is a plugin behind this protocol,
/// chosen from `--registry` by `RegistrySources.open`.
public protocol RegistrySource: Sendable {
    /// How the lock file and messages name this registry, e.g. `embedded` or a URL.
    var location: String { get }
    /// Every block's manifest, sorted by name.
    func manifests() throws -> [BlockManifest]
    /// Every block's manifest with the public names in its code, for search
    /// (`SearchableBlock`), in the order of `manifests()`.
    func searchableBlocks() throws -> [SearchableBlock]
    /// `manifests()` handed to `body` a slice at a time, in the same order, so a caller
    /// that keeps only what it needs of each (a table row) never holds every manifest: a
    /// split index gives one range after another, other sources one slice.
    func manifests(inSlices body: ([BlockManifest]) throws -> Void) throws
    /// `searchableBlocks()` a slice at a time, as `manifests(inSlices:)` gives manifests.
    func searchableBlocks(inSlices body: ([SearchableBlock]) throws -> Void) throws
    /// The manifests and file contents of the named blocks, in the same order.
    /// Remote sources fetch them in parallel.
    func contents(of names: [String]) throws -> [BlockContent]
    /// The manifest of one block, or an error with the nearest names. Sources that can
    /// read one block's metadata on its own do so, rather than reading every manifest.
    func manifest(named name: String) throws -> BlockManifest
    /// One block at a given version: how `add NAME@VERSION` installs it, and how `update`
    /// re-derives the base a file was added from. A built registry keeps every version it
    /// published (its metadata file's `versions`); a catalog has only its current one.
    /// An unlisted version is `RegistryError.unknownVersion`, naming those there are.
    func contents(of name: String, version: String) throws -> BlockContent
    /// How `search` knows whether its on-disk index of this source is current, or nil
    /// when the source has no cheap fingerprint and is searched in memory. No default:
    /// each source decides.
    var searchFingerprinting: SearchFingerprinting? { get }
    /// The newest manifest and every published version of each named block, newest
    /// first, for choosing a version a dependency's requirement allows. A built registry
    /// reads one metadata file per block, in parallel; others have one version each.
    func publishedVersions(of names: [String]) throws -> [(manifest: BlockManifest, versions: [String])]
    /// Keeps what `publishedVersions(of:)` read in the download cache (for `--offline`),
    /// once a caller has read all it will: a resolution reads one round per depth level.
    func saveReadMetadata()
    /// Called by `add` and `update` as soon as the source is opened: a remote one starts
    /// loading the libraries a download needs on the other core while the command reads
    /// the project (`LibraryWarmUp`).
    func prepareToInstall()
}

/// Problems with a registry or its contents.
public enum RegistryError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownBlock(String, suggestions: [String])
    case unreadable(location: String, reason: String)
    case invalidIndex(location: String, reason: String)
    case missingFile(block: String, path: String)
    case publishedVersionChanged(block: String, version: String)
    case damagedArchive(path: String)
    case versionWentBack(block: String, version: String, published: String)
    case buildInProgress(output: String)
    case unknownVersion(block: String, version: String, available: [String])
    /// `build` would write a file every client refuses to read (`ClientCaps`).
    case tooLargeForClients(path: String, bytes: Int64, limit: Int64, advice: String)

    public var description: String {
        switch self {
        case .unknownBlock(let name, let suggestions):
            let hint =
                suggestions.isEmpty
                ? "run 'blocks list' to see every block"
                : "did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
            return "no block named '\(name)'; \(hint)"
        case .unreadable(let location, let reason):
            return "cannot read registry \(location): \(reason)"
        case .invalidIndex(let location, let reason):
            return "registry \(location) has a broken index: \(reason)"
        case .missingFile(let block, let path):
            return "block '\(block)' lists \(path), but the registry does not have it"
        case .publishedVersionChanged(let block, let version):
            return "\(block) \(version) is already published with different content; bump its version in block.json"
        case .versionWentBack(let block, let version, let published):
            return "\(block) \(version) is older than its published \(published); to take a change back, publish it as a version after \(published)"
        case .unknownVersion(let block, let version, let available):
            return "\(block) has no version \(version); this registry has " + available.joined(separator: ", ")
        case .tooLargeForClients(let path, let bytes, let limit, let advice):
            return "\(path) would be \(bytes / 1_048_576) MB, over the \(limit / 1_048_576) MB every blocks client refuses to read, so index.json was not written; \(advice)"
        case .buildInProgress(let output):
            return "another blocks build is writing \(output); wait for it to finish, then build again"
        case .damagedArchive(let path):
            return
                "\(path) is damaged: it no longer reads as an archive; restore it from a backup or a mirror, or delete it to publish this version's archive again"
        }
    }
}

extension RegistrySource {
    /// Sources that hold every manifest anyway give them in one slice.
    public func manifests(inSlices body: ([BlockManifest]) throws -> Void) throws {
        try body(manifests())
    }

    public func searchableBlocks(inSlices body: ([SearchableBlock]) throws -> Void) throws {
        try body(searchableBlocks())
    }

    /// Sources that read no metadata files keep nothing.
    public func saveReadMetadata() {}

    /// Sources that download nothing have nothing to load.
    public func prepareToInstall() {}

    /// For a source that holds one version of each block: that version, or the error.
    public func contents(of name: String, version: String) throws -> BlockContent {
        let content = try contents(of: [name])[0]
        guard content.manifest.version == version else {
            throw RegistryError.unknownVersion(block: name, version: version, available: [content.manifest.version])
        }
        return content
    }

    public func manifest(named name: String) throws -> BlockManifest {
        try manifestAmongAll(named: name)
    }

    public func publishedVersions(of names: [String]) throws -> [(manifest: BlockManifest, versions: [String])] {
        // One name: the source's own way to read one manifest; more: every manifest once.
        if names.count == 1 {
            let manifest = try manifest(named: names[0])
            return [(manifest, [manifest.version])]
        }
        let all = try manifests()
        let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return try names.map { name in
            guard let manifest = byName[name] else {
                throw RegistryError.unknownBlock(name, suggestions: EditDistance.suggestions(for: name, in: all.map(\.name)))
            }
            return (manifest, [manifest.version])
        }
    }

    /// The manifest of one block, or an error with the nearest names, from `manifests()`.
    func manifestAmongAll(named name: String) throws -> BlockManifest {
        let all = try manifests()
        if let found = all.first(where: { $0.name == name }) { return found }
        throw RegistryError.unknownBlock(name, suggestions: EditDistance.suggestions(for: name, in: all.map(\.name)))
    }
}

/// What search reads of one block: its manifest and the public names in its code
/// (`CodeNames`). The names are not in `block.json`, which people write; they come from
/// the block's Swift files, or from `index.json`, where `blocks build` put them, so a
/// remote registry is searched by them without fetching one archive.
///
/// Declared here, beside the requirement that returns it; Search/SearchableBlock.swift
/// reads it from each kind of source.
public struct SearchableBlock: Sendable, Equatable {
    public var manifest: BlockManifest
    /// Identifiers as written in the code, sorted, each once.
    public var codeNames: [String]

    public init(manifest: BlockManifest, codeNames: [String]) {
        self.manifest = manifest
        self.codeNames = codeNames
    }
}

/// A registry source that can tell cheaply whether its blocks may have changed, so that
/// `blocks search` can keep an on-disk index of it in the cache. A source that does not
/// conform, or returns nil, is searched in memory (the embedded catalog needs no index).
///
/// A built registry folder, for example, can return `SearchFingerprint.file(at:)` of
/// its `index.json`.
public protocol SearchFingerprinting {
    /// Text that changes whenever the blocks' metadata may have changed, computed
    /// without reading the metadata itself; nil means "do not cache".
    var searchFingerprint: String? { get }
    /// False when the source never has a fingerprint, so no index file is even looked for.
    var isIndexable: Bool { get }
}
