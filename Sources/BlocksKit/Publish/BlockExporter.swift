/// Lays out an export archive: one top folder holding a folder per block, the LICENSE, a
/// README and `manifest.json` with every file's SHA-256.
public struct BlockExporter: Sendable {
    public let packager: BlockPackager

    public init(packager: BlockPackager) { self.packager = packager }

    /// The archive's top folder: the file name without its archive extension.
    public static func folderName(for url: URL) -> String {
        let name = ArchiveFormat.strippingSuffixes(url.lastPathComponent)
        let cleaned = name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "blocks" : cleaned
    }

    public func entries(for blocks: [BlockContent], folder: String) throws -> [ArchiveEntry] {
        var entries: [ArchiveEntry] = []
        var listing: [JSONValue] = []
        for block in blocks.sorted(by: { $0.manifest.name < $1.manifest.name }) {
            let blockFolder = "\(folder)/\(block.manifest.name)"
            let files = try packager.entries(for: block, folder: blockFolder)
            entries += files
            listing.append(
                .object([
                    "name": .string(block.manifest.name),
                    "version": .string(block.manifest.version),
                    "files": .array(
                        files.map { file in
                            .object([
                                "path": .string(String(file.path.dropFirst(folder.count + 1))),
                                "sha256": .string(SHA256.hex(file.data)),
                                "size": .int(file.data.count),
                            ])
                        }),
                ]))
        }
        let holders = Array(Set(blocks.flatMap(\.manifest.authors))).sorted()
        let names = blocks.map(\.manifest.name).sorted()
        let readme = (EmbeddedFiles.templates["export-README.md"] ?? "")
            .replacing("{{count}}", with: String(names.count))
            .replacing("{{names}}", with: names.joined(separator: ", "))
        let manifest = JSONOutput.encode(["schemaVersion": .int(1), "blocks": .array(listing)]) + "\n"
        entries += [
            ArchiveEntry(path: "\(folder)/LICENSE", data: packager.license(holders: holders)),
            ArchiveEntry(path: "\(folder)/README.md", data: Data(readme.utf8)),
            ArchiveEntry(path: "\(folder)/manifest.json", data: Data(manifest.utf8)),
        ]
        return entries.sorted { $0.path < $1.path }
    }
}
