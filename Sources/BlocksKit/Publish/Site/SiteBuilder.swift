/// `blocks build --site`: a browsable static catalog written beside the registry, so any
/// host that serves the registry serves its site too. It adds:
///
/// - `index.html`: every block as a card, a search box and filters;
/// - `blocks/<name>/index.html`: one page per block (`SitePages.block`);
/// - `assets/site.css` and `assets/site.js`: the only stylesheet and script, and
///   `assets/search-data.js`, the index page's search data;
/// - `site.json`: every site file with its SHA-256 and size, which `blocks mirror` copies
///   the site by, and which tells a rebuild what it may keep.
///
/// The registry builder drives it and keeps its guarantees: a fresh build writes the
/// pages into its staging folder, a rebuild writes each file atomically and only when
/// its bytes change, and everything here is written before `index.json`. A page shows a
/// block's files exactly as its archives ship them, header and all, so the bytes a
/// reader copies are the bytes `blocks add` writes.
final class SiteBuilder: @unchecked Sendable {
    /// Bumped whenever the pages' HTML changes shape, so a rebuild renders every page again.
    static let formatVersion = 1
    static let indexPath = "index.html"
    static let blockListPath = "all-blocks.html"
    static let stylesheetPath = "assets/site.css"
    static let scriptPath = "assets/site.js"
    static let searchDataPath = "assets/search-data.js"
    static let manifestPath = "site.json"

    /// Names the templates, stylesheet and script that made a site. A rebuild keeps an
    /// unchanged block's page only when the previous site had the same generator.
    static let generator = "blocks-site/\(formatVersion) " + String(SHA256.hex(SiteStylesheet.css + SiteScript.js + SiteScript.head).prefix(16))

    static func pagePath(_ name: String) -> String { "blocks/\(name)/index.html" }

    /// One file of the site as `site.json` lists it.
    struct SiteFile: Sendable, Equatable {
        var path: String
        var sha256: String
        var size: Int64

        init(path: String, data: Data) {
            self.path = path
            sha256 = SHA256.hex(data)
            size = Int64(data.count)
        }

        init(path: String, sha256: String, size: Int64) {
            self.path = path
            self.sha256 = sha256
            self.size = size
        }
    }

    /// What a build did to the site's files.
    struct Report: Sendable, Equatable {
        var written = 0
        var unchanged = 0
    }

    let output: URL
    /// The previous build's files by path, when the same generator made them; else empty.
    let previous: [String: SiteFile]
    private let lock = Lock()
    private var files: [String: SiteFile] = [:]
    private var counts = Report()

    init(output: URL) {
        self.output = output
        var previous: [String: SiteFile] = [:]
        if let data = FileManager.default.contents(atPath: output.joining(Self.manifestPath).path),
            let manifest = Self.decodeManifest(data), manifest.generator == Self.generator
        {
            for file in manifest.files { previous[file.path] = file }
        }
        self.previous = previous
    }

    var report: Report { lock.withLock { counts } }

    // MARK: - Pages

    /// A block's page, from the files as shipped (keyed by their path in the block).
    static func page(_ entry: RegistryEntry, versions: [PublishedVersion], shipped: [String: Data]) -> Data {
        let sources = entry.manifest.files.map { file in
            SitePages.SourceFile(path: file.path, role: file.role, text: String(decoding: shipped[file.path] ?? Data(), as: UTF8.self))
        }
        return Data(SitePages.block(entry, versions: versions, files: sources).utf8)
    }

    /// Archive entries (`name-1.0.0/Pager.swift`) by their path inside the block.
    static func shipped(_ entries: [ArchiveEntry]) -> [String: Data] {
        var files: [String: Data] = [:]
        for entry in entries {
            guard let slash = entry.path.firstIndex(of: "/") else { continue }
            files[String(entry.path[entry.path.index(after: slash)...])] = entry.data
        }
        return files
    }

    /// Notes a file a fresh build wrote into its staging folder.
    func recordWritten(_ path: String, data: Data) {
        // Hashed outside the lock, so both cores hash pages at once.
        let file = SiteFile(path: path, data: data)
        lock.withLock {
            files[path] = file
            counts.written += 1
        }
    }

    /// Writes a file unless it already holds these bytes, atomically, and notes it.
    func write(_ data: Data, to path: String) throws {
        let url = output.joining(path)
        let same = FileManager.default.contents(atPath: url.path) == data
        if !same { try AtomicFile.write(data, to: url) }
        let file = SiteFile(path: path, data: data)
        lock.withLock {
            files[path] = file
            if same { counts.unchanged += 1 } else { counts.written += 1 }
        }
    }

    /// The page of a block this rebuild left as published. Its page stays when the
    /// previous site listed it and it is still there at its size; otherwise it is made
    /// from the published archive (so its code is what was shipped, in whatever year)
    /// and the metadata file's versions.
    func keepPage(of entry: RegistryEntry) throws {
        let path = Self.pagePath(entry.manifest.name)
        if let listed = previous[path] {
            var info = stat()
            if stat(output.joining(path).path, &info) == 0, Int64(info.st_size) == listed.size {
                lock.withLock {
                    files[path] = listed
                    counts.unchanged += 1
                }
                return
            }
        }
        guard let archive = entry.preferredArchive else { throw RegistryError.damagedArchive(path: entry.metadata) }
        let shipped = try Archives.read(output.joining(archive.path)).files
        try write(Self.page(entry, versions: try versions(of: entry), shipped: shipped), to: path)
    }

    /// The versions in a block's metadata file, or just the entry's own when it has none.
    func versions(of entry: RegistryEntry) throws -> [PublishedVersion] {
        guard let data = FileManager.default.contents(atPath: output.joining(entry.metadata).path) else {
            return [PublishedVersion(version: entry.manifest.version, published: nil, archives: entry.archives)]
        }
        do throws(RegistryEntryProblem) {
            return try BlockMetadata.decode(data).versions
        } catch {
            throw RegistryError.invalidIndex(
                location: output.path, reason: "\(entry.metadata) is not valid block metadata (\(error.reason)); fix or remove it to rebuild")
        }
    }

    // MARK: - The rest of the site

    /// Writes the index page, the list of every block, the stylesheet and script, then
    /// `site.json`, each only when its bytes change. Called after every page, before the
    /// registry's `index.json`. `blocks` carry the names in each block's code, which the
    /// page searches too.
    func finish(_ blocks: [SearchableBlock]) throws {
        let sorted = blocks.sorted { $0.manifest.name < $1.manifest.name }
        try write(Data(SiteStylesheet.css.utf8), to: Self.stylesheetPath)
        try write(Data(SiteScript.js.utf8), to: Self.scriptPath)
        let manifests = sorted.map(\.manifest)
        // The tag filter's options, which the page lists and the search data points into.
        let tags = SitePages.tagOptions(manifests)
        try write(SitePages.searchData(sorted, tags: tags), to: Self.searchDataPath)
        try write(Data(SitePages.index(manifests, tags: tags).utf8), to: Self.indexPath)
        try write(Data(SitePages.blockList(manifests).utf8), to: Self.blockListPath)
        let listed = lock.withLock { files.values.sorted { $0.path < $1.path } }
        let manifest = StableJSON.data(
            .object([
                "schemaVersion": .int(1),
                "generator": .string(Self.generator),
                "files": .array(listed.map { .object(["path": .string($0.path), "sha256": .string($0.sha256), "size": .int(Int($0.size))]) }),
            ]))
        let url = output.joining(Self.manifestPath)
        if FileManager.default.contents(atPath: url.path) != manifest { try AtomicFile.write(manifest, to: url) }
    }

    /// `site.json`'s generator and files; nil when it is not one. Paths that leave the
    /// folder (`../x`, `/x`) are dropped: a mirror writes where they point.
    static func decodeManifest(_ data: Data) -> (generator: String, files: [SiteFile])? {
        guard let value = try? JSONReader.parse(data), let generator = value["generator"]?.string,
            let items = value["files"]?.objects
        else { return nil }
        var files: [SiteFile] = []
        for item in items {
            guard let path = item["path"]?.string, let sha256 = item["sha256"]?.string,
                case .int(let size)? = item["size"], RelativePath.isSafe(path)
            else { return nil }
            files.append(SiteFile(path: path, sha256: sha256, size: Int64(size)))
        }
        return (generator, files)
    }
}
