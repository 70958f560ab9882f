import Foundation

/// Turns a block's source into the files that ship: each Swift file with its MIT header,
/// the LICENSE, and the manifest. Build, export and the archive checks all share it, so
/// every archive holds exactly the same bytes for the same block.
public struct BlockPackager: Sendable {
    /// The copyright year written into headers and LICENSE.
    public var year: Int

    public init(year: Int) { self.year = year }

    /// The year from `SOURCE_DATE_EPOCH` when set (reproducible builds), else today's.
    public static func year(environment: [String: String]) -> Int {
        TemplateText.currentYear(environment: environment)
    }

    /// The MIT LICENSE text for the block's authors.
    public func license(holders: [String]) -> Data {
        Data(TemplateText.license(year: year, holders: TemplateText.holders(holders)).utf8)
    }

    /// The files of one block under `folder/`, sorted by path.
    public func entries(for block: BlockContent, folder: String) throws -> [ArchiveEntry] {
        var entries = [
            ArchiveEntry(path: "\(folder)/block.json", data: try Self.manifestData(block.manifest)),
            ArchiveEntry(path: "\(folder)/LICENSE", data: license(holders: block.manifest.authors)),
        ]
        for file in block.manifest.files {
            guard let data = block.files[file.path] else {
                throw RegistryError.missingFile(block: block.manifest.name, path: file.path)
            }
            let shipped = LicenseHeader.apply(to: data, path: file.path, year: year, holders: TemplateText.holders(block.manifest.authors))
            entries.append(ArchiveEntry(path: "\(folder)/\(file.path)", data: shipped))
        }
        return entries.sorted { $0.path < $1.path }
    }

    /// The manifest as shipped: sorted keys, so the same manifest is always the same bytes.
    public static func manifestData(_ manifest: BlockManifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(manifest) + Data("\n".utf8)
    }

    /// A hash of a block's source: its manifest and files before any header. Two builds of
    /// the same source agree on it whatever the year, which is how a rebuild recognises an
    /// unchanged block.
    public static func sourceHash(_ block: BlockContent) throws -> String {
        let digest = SHA256.Digest()
        func feed(_ data: Data) { data.withUnsafeBytes { digest.update($0) } }
        feed(try manifestData(block.manifest))
        for path in block.files.keys.sorted() {
            feed(Data("\u{0}\(path)\u{0}".utf8))
            feed(block.files[path] ?? Data())
        }
        return digest.finish()
    }
}
