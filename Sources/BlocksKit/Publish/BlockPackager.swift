/// Turns a block's source into the files that ship: each Swift file with its MIT header,
/// the LICENSE, and the manifest. Build, export and the archive checks all share it, so
/// every archive holds exactly the same bytes for the same block.
public struct BlockPackager: Sendable {
    /// The copyright year written into headers and LICENSE.
    public let year: Int
    /// LICENSE texts and file headers by holders: thousands of blocks usually share a handful.
    private let licenses = LicenseMemo()
    private let headers = LicenseMemo()

    public init(year: Int) { self.year = year }

    /// The year from `SOURCE_DATE_EPOCH` when set (reproducible builds), else today's.
    public static func year(environment: [String: String]) throws -> Int {
        try TemplateText.currentYear(environment: environment)
    }

    /// The MIT LICENSE text for the block's authors.
    public func license(holders: [String]) -> Data {
        let names = TemplateText.holders(holders)
        return licenses.value(for: names) { Data(TemplateText.license(year: year, holders: names).utf8) }
    }

    /// The files of one block under `folder/`, sorted by path.
    public func entries(for block: BlockContent, folder: String, manifestData: Data? = nil) throws -> [ArchiveEntry] {
        var entries = [
            ArchiveEntry(path: "\(folder)/block.json", data: try manifestData ?? Self.manifestData(block.manifest)),
            ArchiveEntry(path: "\(folder)/LICENSE", data: license(holders: block.manifest.authors)),
        ]
        let holders = TemplateText.holders(block.manifest.authors)
        let header = headers.value(for: holders) { Data(LicenseHeader.render(year: year, holders: holders).utf8) }
        for file in block.manifest.files {
            guard let data = block.files[file.path] else {
                throw RegistryError.missingFile(block: block.manifest.name, path: file.path)
            }
            let shipped = try LicenseHeader.apply(to: data, path: file.path, header: header)
            entries.append(ArchiveEntry(path: "\(folder)/\(file.path)", data: shipped))
        }
        return entries.sorted { $0.path < $1.path }
    }

    /// The manifest as shipped: sorted keys, so the same manifest is always the same bytes.
    public static func manifestData(_ manifest: BlockManifest) throws -> Data {
        manifestMembers(manifest).data
    }

    /// The manifest's members as `block.json` has them, which its index entry and
    /// metadata file share.
    static func manifestMembers(_ manifest: BlockManifest) -> StableJSONMembers {
        StableJSONMembers(manifest.jsonMembers)
    }

    /// A hash of a block's source: its manifest and files before any header. Two builds of
    /// the same source agree on it whatever the year, which is how a rebuild recognises an
    /// unchanged block.
    public static func sourceHash(_ block: BlockContent, manifestData: Data? = nil) throws -> String {
        let digest = SHA256.Digest()
        func feed(_ data: Data) { data.withUnsafeBytes { digest.update($0) } }
        feed(try manifestData ?? Self.manifestData(block.manifest))
        for path in block.files.keys.sorted() {
            feed(Data("\u{0}\(path)\u{0}".utf8))
            feed(block.files[path] ?? Data())
        }
        return digest.finish()
    }
}

/// A small thread-safe memo, so parallel packaging computes each LICENSE once.
final class LicenseMemo: @unchecked Sendable {
    private let lock = Lock()
    private var values: [String: Data] = [:]

    func value(for key: String, make: () -> Data) -> Data {
        lock.lock()
        defer { lock.unlock() }
        if let value = values[key] { return value }
        let value = make()
        values[key] = value
        return value
    }
}
