/// A registry that a `RegistrySourceKind` brought to a folder on this machine, read as that
/// folder is read but named by the location the user wrote: `blocks.lock`, `status` and
/// every message say `git+https://…@v2`, so `update` fetches it again rather than reading
/// a cache folder.
struct FetchedRegistrySource: RegistrySource {
    /// The folder's own source: a catalog or a built registry.
    let base: RegistrySource
    let location: String

    var searchFingerprinting: SearchFingerprinting? { base.searchFingerprinting }
    func manifests() throws -> [BlockManifest] { try base.manifests() }
    func manifests(inSlices body: ([BlockManifest]) throws -> Void) throws { try base.manifests(inSlices: body) }
    func searchableBlocks() throws -> [SearchableBlock] { try base.searchableBlocks() }
    func searchableBlocks(inSlices body: ([SearchableBlock]) throws -> Void) throws { try base.searchableBlocks(inSlices: body) }
    func contents(of names: [String]) throws -> [BlockContent] { try base.contents(of: names) }
    func manifest(named name: String) throws -> BlockManifest { try base.manifest(named: name) }
    func contents(of name: String, version: String) throws -> BlockContent { try base.contents(of: name, version: version) }
    func publishedVersions(of names: [String]) throws -> [(manifest: BlockManifest, versions: [String])] { try base.publishedVersions(of: names) }
    func saveReadMetadata() { base.saveReadMetadata() }
    func prepareToInstall() { base.prepareToInstall() }
}

extension RegistrySource {
    /// The source that reads the files: the folder's own for a fetched registry, else
    /// itself. What depends on the kind of files (signatures, a catalog's code stamps)
    /// asks this one.
    var readingSource: RegistrySource { (self as? FetchedRegistrySource)?.base ?? self }
}
