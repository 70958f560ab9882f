/// A registry inside one archive: an export (`blocks export`, one folder per block) or a
/// single block's registry archive (`block.json` at the top). `blocks add ./tabs.zip`
/// and `--registry tabs.tar.gz` read through it.
public struct ArchiveFileSource: RegistrySource {
    /// See `RegistrySource.searchFingerprinting`: an archive is read whole and searched in memory.
    public var searchFingerprinting: SearchFingerprinting? { nil }

    public let url: URL
    /// Where the archive came from when that is not `url`: the address it was downloaded
    /// from, which is what the lock records and messages name.
    let origin: String?
    let blocks: [BlockContent]

    public var location: String { origin ?? url.path }

    /// Reads and validates the whole archive up front: it is small, and a hostile one is
    /// refused before anything else happens. Every manifest must pass the same checks as
    /// a catalog's (`blocks lint`): a block's name becomes a folder in the project, so a
    /// name such as `../../.git/hooks` must never get as far as the plan. An export's
    /// files must match the SHA-256 its `manifest.json` gives them.
    public init(url: URL, origin: String? = nil) throws {
        self.url = url
        self.origin = origin
        let extracted = try Archives.read(url)
        let location = origin ?? url.path
        let label = origin ?? url.lastPathComponent
        // Every file a block is read from, by its path in the archive.
        var used: [String] = []
        func block(at prefix: String) throws -> BlockContent {
            used.append(prefix + "block.json")
            guard let data = extracted.files[prefix + "block.json"] else {
                throw RegistryError.invalidIndex(location: location, reason: "\(prefix)block.json is missing")
            }
            let problems = ManifestValidator.problems(in: data, file: prefix + "block.json").map(\.description)
            guard problems.isEmpty, let manifest = BlockManifest.decode(data) else {
                throw CatalogError.invalidManifest(
                    file: "\(label): \(prefix)block.json", problems: problems.isEmpty ? ["not a block manifest"] : problems)
            }
            var files: [String: Data] = [:]
            for file in manifest.files {
                guard let content = extracted.files[prefix + file.path] else {
                    throw RegistryError.missingFile(block: manifest.name, path: file.path)
                }
                files[file.path] = content
                used.append(prefix + file.path)
            }
            return BlockContent(manifest: manifest, files: files)
        }
        if extracted.files["block.json"] != nil {
            blocks = [try block(at: "")]
        } else {
            let prefixes = extracted.files.keys
                .filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
                .map { String($0.dropLast("block.json".count)) }
                .sorted()
            guard !prefixes.isEmpty else {
                throw RegistryError.invalidIndex(location: location, reason: "the archive holds no block.json")
            }
            blocks = try prefixes.map(block(at:))
        }
        var seen: Set<String> = []
        if let repeated = blocks.map(\.manifest.name).first(where: { !seen.insert($0).inserted }) {
            throw RegistryError.invalidIndex(location: location, reason: "it holds two blocks named '\(repeated)'")
        }
        if extracted.files["block.json"] == nil, let listing = extracted.files[Self.exportManifest] {
            try Self.check(used, in: extracted.files, against: listing, location: location)
        }
    }

    /// The file in an export (`BlockExporter`) that lists every block file with its SHA-256.
    static let exportManifest = "manifest.json"

    /// An export's files must be the ones it was made with: each file a block is read from
    /// must be listed in its `manifest.json` with the SHA-256 of its bytes, as a registry
    /// archive must match its index. Nothing has been written when this refuses.
    static func check(_ used: [String], in files: [String: Data], against listing: Data, location: String) throws {
        let hashes: [String: String]
        do {
            hashes = try RegistryEntryProblem.reading(listing) { (fields) throws(JSONFields.Problem) in
                var hashes: [String: String] = [:]
                for block in try fields.objects("blocks") {
                    for file in try block.objects("files") { hashes[try file.string("path")] = try file.string("sha256") }
                }
                return hashes
            }
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: "\(exportManifest): \(error.reason)")
        }
        for path in used.sorted() {
            guard let expected = hashes[path] else {
                throw RegistryError.invalidIndex(location: location, reason: "\(exportManifest) does not list \(path)")
            }
            try SHA256.verify(files[path] ?? Data(), expected: expected) {
                HTTPError.checksumMismatch(url: "\(location): \(path)", expected: expected, actual: $0)
            }
        }
    }

    public func manifests() throws -> [BlockManifest] {
        blocks.map(\.manifest).sorted { $0.name < $1.name }
    }

    public func contents(of names: [String]) throws -> [BlockContent] {
        try names.map { name in
            guard let found = blocks.first(where: { $0.manifest.name == name }) else {
                throw RegistryError.unknownBlock(name, suggestions: EditDistance.suggestions(for: name, in: blocks.map(\.manifest.name)))
            }
            return found
        }
    }

    /// Downloads an archive URL into the cache, checked against `sha256`, and opens it.
    public static func download(_ remote: String, sha256: String?, access: RegistryAccess) throws -> ArchiveFileSource {
        guard let sha256 else {
            throw RegistryError.unreadable(location: remote, reason: "an archive from a URL needs --sha256 <hex> so its bytes can be checked")
        }
        let cache = RegistryCache(root: access.cacheDirectory)
        let files = try cache.fetchArchives(
            [(url: remote, archive: RegistryArchive(path: remote, sha256: sha256.lowercased(), size: 64 * 1024 * 1024))],
            transport: access.transport, offline: access.offline)
        return try ArchiveFileSource(url: files[0], origin: remote)
    }
}
