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
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
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
        #expect(embedded.map(\.name) == [
            "adaptive-tabs", "floating-tab-bar", "pager", "picker-pages", "scrolling-strip", "search-tab-view",
            "segmented-pill", "sticky-header-tabs", "top-tabs",
        ])
    }

    /// The manifests generated as Swift values must equal the decoded `block.json` files,
    /// so a stale EmbeddedFiles.swift fails here.
    @Test func generatedManifestsEqualTheDecodedFiles() throws {
        let folders = filesOnDisk("Catalog").keys.filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
            .map { String($0.dropLast("/block.json".count)) }
        #expect(folders.count >= 5)
        #expect(Set(EmbeddedFiles.manifests.keys) == Set(folders), "run python3 Scripts/embed-catalog.py")
        for folder in folders {
            let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Catalog/\(folder)/block.json"))
            let decoded = try JSONDecoder().decode(BlockManifest.self, from: data)
            #expect(EmbeddedFiles.manifests[folder] == decoded, "\(folder) differs; run python3 Scripts/embed-catalog.py")
            #expect(try CatalogSource.embedded.manifest(inFolder: folder) == decoded)
        }
    }

    @Test func generatedBlockNamesAreTheCatalogFolders() throws {
        let folders = filesOnDisk("Catalog").keys.filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
            .map { String($0.dropLast("/block.json".count)) }
        #expect(EmbeddedFiles.blockNames == folders.sorted(), "run python3 Scripts/embed-catalog.py")
    }

    /// The script no longer tokenizes (issue 16): the embedded catalog's search words
    /// come from the one tokenizer at run time, as a folder catalog's do.
    @Test func theEmbeddedCatalogCarriesNoPrecomputedWords() throws {
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("Scripts/embed-catalog.py"), encoding: .utf8)
        #expect(!script.contains("searchCorpus") && !script.contains("def search_words"))
        let corpus = InMemorySearchCorpus(manifests: try CatalogSource.embedded.manifests())
        #expect(corpus.vocabulary.count > 100)
    }

    @Test func embeddedContentsCarryTheGeneratedManifest() throws {
        let contents = try CatalogSource.embedded.contents(of: ["scrolling-strip"])
        #expect(contents.first?.manifest == EmbeddedFiles.manifests["scrolling-strip"])
        #expect(contents.first?.files.count == EmbeddedFiles.manifests["scrolling-strip"]?.files.count)
    }
}
