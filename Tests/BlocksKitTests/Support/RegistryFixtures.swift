import Foundation

@testable import BlocksKit

/// Registries for tests: a catalog folder written from the real catalog or generated,
/// built with the same builder `blocks build` uses.
enum RegistryFixtures {
    /// Writes `count` small generated blocks into `folder/Catalog` and returns that folder.
    @discardableResult
    static func writeCatalog(in folder: TemporaryFolder, count: Int, version: String = "1.0.0", catalog: String = "Catalog") throws -> URL {
        for index in 0..<count {
            let name = String(format: "block-%04d", index)
            let type = String(format: "Block%04d", index)
            try writeBlock(
                in: folder, catalog: catalog, name: name,
                manifest: sampleManifestJSON(name: name, version: version, titleEnglish: "Block \(index)", files: [("\(type).swift", "component")]),
                files: [
                    "\(type).swift":
                        "import SwiftUI\n\n/// Block \(index).\npublic struct \(type): View {\n    public var body: some View { Text(\"\(index)\") }\n}\n"
                        + String(repeating: "// padding line for a realistic size\n", count: 40)
                ])
        }
        return folder.path(catalog)
    }

    /// Builds a registry from a catalog folder into `output`.
    @discardableResult
    static func build(catalog: URL, output: URL, year: Int = 2026) throws -> RegistryBuilder.Report {
        let source = CatalogSource.folder(catalog)
        let blocks = try source.contents(of: try source.blockNames())
        // A fixed publication date, as SOURCE_DATE_EPOCH gives `blocks build`, so builds compare byte for byte.
        return try RegistryBuilder(output: output, packager: BlockPackager(year: year), published: "2026-06-01T00:00:00Z").build(blocks)
    }
}
