/// A registry laid out like `Catalog/`: one folder per block with `block.json` and its
/// Swift files. It serves both the catalog built into the binary and a maintainer's
/// own folder given with `--registry DIR`.
public struct CatalogSource: RegistrySource {
    /// See `RegistrySource.searchFingerprinting`: fingerprinted by what it is read from.
    public var searchFingerprinting: SearchFingerprinting? { self }

    enum Storage: Sendable {
        case embedded
        case folder(URL)
    }

    let storage: Storage
    public let location: String

    /// The catalog compiled into the binary: a fresh install works with no setup.
    public static let embedded = CatalogSource(storage: .embedded, location: "embedded")

    var isEmbedded: Bool {
        if case .embedded = storage { return true }
        return false
    }

    public static func folder(_ url: URL) -> CatalogSource {
        CatalogSource(storage: .folder(url), location: url.path)
    }

    /// True when the folder holds at least one `<name>/block.json`.
    /// Stops at the first one, without listing the whole folder: a catalog of 10,000
    /// blocks is recognised in microseconds.
    public static func looksLikeCatalog(_ url: URL) -> Bool {
        guard let directory = opendir(url.path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var info = stat()
            if stat(url.appendingPathComponent(name).appendingPathComponent("block.json").path, &info) == 0 { return true }
        }
        return false
    }

    /// The names of the block folders, sorted.
    public func blockNames() throws -> [String] {
        switch storage {
        case .embedded:
            return EmbeddedFiles.blockNames
        case .folder(let url):
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            } catch {
                throw RegistryError.unreadable(location: location, reason: "the folder cannot be listed")
            }
            let root = url.path
            return names.filter { !$0.hasPrefix(".") }.sorted().filter { access("\(root)/\($0)/block.json", F_OK) == 0 }
        }
    }

    /// The bytes of a file, by its path relative to the catalog root.
    public func file(_ relativePath: String) -> Data? {
        switch storage {
        case .embedded:
            return EmbeddedFiles.catalog[relativePath].map { Data($0.utf8) }
        case .folder:
            // `location` is the folder's path: building a URL per file cost more than reading it.
            return FileDescriptorIO.readFile("\(location)/\(relativePath)")
        }
    }

    public func manifests() throws -> [BlockManifest] {
        if case .embedded = storage {
            // Nine small files: decoding them in parallel would cost more than it saves.
            return try blockNames().map { try manifest(inFolder: $0) }
        }
        // Decoding is most of the work on big catalogs, and blocks are independent.
        return try ConcurrentMap.map(try blockNames()) { name in Result { try self.manifest(inFolder: name) } }
            .map { try $0.get() }
    }

    /// The manifest in one block folder, with an error that names the file and the field.
    func manifest(inFolder name: String) throws -> BlockManifest {
        if case .embedded = storage {
            guard let decoded = EmbeddedManifests.manifest(inFolder: name) else {
                throw RegistryError.missingFile(block: name, path: "block.json")
            }
            return try decoded.get()
        }
        return try decodeManifest(inFolder: name)
    }

    /// Reads and decodes one `block.json`, embedded or on disk, with the one reader.
    fileprivate func decodeManifest(inFolder name: String) throws -> BlockManifest {
        let path = "\(name)/block.json"
        guard let data = file(path) else { throw RegistryError.missingFile(block: name, path: "block.json") }
        guard let manifest = BlockManifest.decode(data) else {
            throw CatalogError.invalidManifest(file: displayPath(path), problems: ManifestValidator.problems(in: data).map(\.description))
        }
        return manifest
    }

    /// One block's `block.json`; every manifest is read only to suggest names for an
    /// unknown block (or one whose manifest names another).
    public func manifest(named name: String) throws -> BlockManifest {
        if hasBlock(named: name) {
            let manifest = try manifest(inFolder: name)
            if manifest.name == name { return manifest }
        }
        return try manifestAmongAll(named: name)
    }

    /// Reads only the named blocks' folders, so adding one block from a catalog of
    /// thousands reads one manifest.
    public func contents(of names: [String]) throws -> [BlockContent] {
        let results = ConcurrentMap.map(names) { name in
            Result { () throws -> BlockContent? in
                guard self.hasBlock(named: name) else { return nil }
                let manifest = try self.manifest(inFolder: name)
                guard manifest.name == name else {
                    // A copied folder whose manifest kept the old name: say so, not "no block named".
                    throw CatalogError.invalidManifest(
                        file: self.displayPath("\(name)/block.json"),
                        problems: ["name: '\(manifest.name)' differs from its folder '\(name)'"])
                }
                var files: [String: Data] = [:]
                for entry in manifest.files {
                    guard let data = self.file("\(name)/\(entry.path)") else {
                        throw RegistryError.missingFile(block: name, path: entry.path)
                    }
                    files[entry.path] = data
                }
                return BlockContent(manifest: manifest, files: files)
            }
        }
        return try zip(names, results).map { name, result in
            guard let content = try result.get() else {
                throw RegistryError.unknownBlock(name, suggestions: EditDistance.suggestions(for: name, in: try blockNames()))
            }
            return content
        }
    }

    /// Whether a block folder of that name exists. The embedded catalog answers by
    /// looking the name up, which needs no name check and so never compiles the
    /// validator's regular expression (milliseconds of ICU set-up at start-up); a folder
    /// first checks the name, so a name cannot reach outside it.
    func hasBlock(named name: String) -> Bool {
        switch storage {
        case .embedded:
            return EmbeddedFiles.catalog["\(name)/block.json"] != nil
        case .folder:
            return ManifestValidator.isValidName(name) && access("\(location)/\(name)/block.json", F_OK) == 0
        }
    }

    func displayPath(_ relative: String) -> String {
        switch storage {
        case .embedded: return "Catalog/" + relative
        case .folder(let url): return url.appendingPathComponent(relative).path
        }
    }
}

/// The embedded catalog's manifests, each read from its `block.json` text on first use,
/// with the same reader and error as a folder catalog's, so there is one implementation
/// of the manifest's fields. A manifest costs some 0.4 million instructions, and decoding
/// all nine was a third of `add scrolling-strip`, so only the folders a command asks for
/// are decoded; `blocks search` needs none (`EmbeddedCorpusCache` keeps its table's rows).
enum EmbeddedManifests {
    private static let lock = Lock()
    nonisolated(unsafe) private static var decoded: [String: Result<BlockManifest, Error>] = [:]

    /// The manifest in the named embedded folder, or nil when there is no such folder.
    static func manifest(inFolder name: String) -> Result<BlockManifest, Error>? {
        guard EmbeddedFiles.catalog["\(name)/block.json"] != nil else { return nil }
        if let known = lock.withLock({ decoded[name] }) { return known }
        // Decoded outside the lock, so two threads asking for two blocks do not wait on
        // each other; one asking twice at once decodes twice and keeps the first.
        let result = Result { try CatalogSource.embedded.decodeManifest(inFolder: name) }
        return lock.withLock {
            if let first = decoded[name] { return first }
            decoded[name] = result
            return result
        }
    }
}
