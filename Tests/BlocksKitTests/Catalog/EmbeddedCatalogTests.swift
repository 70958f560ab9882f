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

    /// The build-tool plugin embeds every file of Catalog/, byte for byte, and nothing else.
    @Test func embeddedCatalogEqualsTheCatalogFolder() {
        let disk = filesOnDisk("Catalog")
        #expect(!disk.isEmpty)
        #expect(Set(disk.keys) == Set(EmbeddedFiles.catalog.keys))
        for (path, text) in disk { #expect(EmbeddedFiles.catalog[path] == text, "\(path) differs") }
    }

    @Test func embeddedTemplatesEqualTheTemplatesFolder() {
        let disk = filesOnDisk("Templates")
        #expect(disk["header.txt"] != nil)
        #expect(disk == EmbeddedFiles.templates)
    }

    @Test func embeddedAndFolderSourcesAgree() throws {
        let embedded = try CatalogSource.embedded.manifests()
        let folder = try CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).manifests()
        #expect(embedded == folder)
        #expect(
            embedded.map(\.name) == [
                "adaptive-tabs", "floating-tab-bar", "pager", "picker-pages", "scrolling-strip", "search-tab-view",
                "segmented-pill", "sticky-header-tabs", "top-tabs",
            ])
    }

    /// The embedded manifests, read by the library from the embedded `block.json` texts,
    /// equal `JSONDecoder`'s reading of the files on disk.
    @Test func embeddedManifestsEqualTheDecodedFiles() throws {
        let folders = filesOnDisk("Catalog").keys.filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
            .map { String($0.dropLast("/block.json".count)) }
        #expect(folders.count >= 5)
        #expect(EmbeddedFiles.blockNames.allSatisfy { EmbeddedManifests.manifest(inFolder: $0) != nil })
        #expect(EmbeddedManifests.manifest(inFolder: "no-such-block") == nil && EmbeddedManifests.manifest(inFolder: "Catalog") == nil)
        for folder in folders {
            let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Catalog/\(folder)/block.json"))
            let decoded = try JSONDecoder().decode(BlockManifest.self, from: data)
            #expect(try EmbeddedManifests.manifest(inFolder: folder)?.get() == decoded, "\(folder) differs")
            #expect(try CatalogSource.embedded.manifest(inFolder: folder) == decoded)
        }
    }

    @Test func generatedBlockNamesAreTheCatalogFolders() throws {
        let folders = filesOnDisk("Catalog").keys.filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
            .map { String($0.dropLast("/block.json".count)) }
        #expect(EmbeddedFiles.blockNames == folders.sorted())
    }

    /// The generator knows nothing about manifests or words: the embedded catalog's
    /// manifests and search words come from the library at run time, as a folder's do.
    @Test func theGeneratorCarriesOnlyFileTexts() throws {
        let tool = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/blocks-embed/main.swift"), encoding: .utf8)
        #expect(!tool.contains("BlockManifest") && !tool.contains("JSONDecoder") && !tool.contains("JSONSerialization"))
        let corpus = InMemorySearchCorpus(manifests: try CatalogSource.embedded.manifests())
        #expect(corpus.vocabulary.count > 100)
    }

    /// A fresh generator run over the package equals what the build compiled in, so the
    /// plugin is wired to this tool and these folders.
    @Test func theGeneratorReproducesTheEmbeddedFiles() throws {
        let tool = repositoryRoot.appendingPathComponent(".build/debug/blocks-embed")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.path("EmbeddedFiles.swift")
        let run = try runProcess(tool, [repositoryRoot.path, output.path])
        #expect(run.code == 0, "\(run.err)")
        let text = try String(contentsOf: output, encoding: .utf8)
        for (path, body) in filesOnDisk("Templates") {
            #expect(text.contains("\"\(path)\": #\"\"\"\n\(body)\n\"\"\"#"), "\(path)")
        }
        #expect(text.contains("static let blockNames: [String] = [\"adaptive-tabs\", "))
        // A file that is not UTF-8 is refused with one clear error, and nothing is written.
        try folder.write("package/Catalog/x/block.json", "{}")
        try Data([0xff, 0xfe, 0x00]).write(to: folder.path("package/Catalog/x/image.bin"))
        let refused = try runProcess(tool, [folder.path("package").path, folder.path("refused.swift").path])
        #expect(refused.code == 1 && refused.err.contains("image.bin is not UTF-8 text"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("refused.swift").path))
    }

    @Test func embeddedContentsCarryTheGeneratedManifest() throws {
        let contents = try CatalogSource.embedded.contents(of: ["scrolling-strip"])
        let manifest = try EmbeddedManifests.manifest(inFolder: "scrolling-strip")?.get()
        #expect(contents.first?.manifest == manifest)
        #expect(contents.first?.files.count == manifest?.files.count)
    }
}
