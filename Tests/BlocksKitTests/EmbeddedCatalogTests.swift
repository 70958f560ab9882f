import Foundation
import Testing
@testable import BlocksKit

@Suite struct EmbeddedCatalogTests {
    func filesOnDisk(_ folder: String) -> [String: String] {
        let root = repositoryRoot.appendingPathComponent(folder)
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let relative = walker?.nextObject() as? String {
            let url = root.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if isFolder.boolValue || url.lastPathComponent.hasPrefix(".") { continue }
            files[relative] = String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
        }
        return files
    }

    /// Fails when Catalog/ or Templates/ changed without `python3 Scripts/embed-catalog.py`.
    @Test func embeddedCatalogEqualsTheCatalogFolder() {
        let disk = filesOnDisk("Catalog")
        #expect(!disk.isEmpty)
        #expect(Set(disk.keys) == Set(EmbeddedFiles.catalog.keys), "run python3 Scripts/embed-catalog.py")
        for (path, text) in disk { #expect(EmbeddedFiles.catalog[path] == text, "\(path) differs; run python3 Scripts/embed-catalog.py") }
    }

    @Test func embeddedTemplatesEqualTheTemplatesFolder() {
        let disk = filesOnDisk("Templates")
        #expect(disk["header.txt"] != nil)
        #expect(disk == EmbeddedFiles.templates, "run python3 Scripts/embed-catalog.py")
    }

    @Test func embeddedAndFolderSourcesAgree() throws {
        let embedded = try CatalogSource.embedded.manifests()
        let folder = try CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).manifests()
        #expect(embedded == folder)
        #expect(embedded.map(\.name) == ["adaptive-tabs", "pager", "picker-pages", "scrolling-strip", "top-tabs"])
    }
}
