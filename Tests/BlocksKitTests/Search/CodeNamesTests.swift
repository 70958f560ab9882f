import Foundation
import Testing

@testable import BlocksKit

/// The public names in a block's code (issue 16): what the scanner reads and skips, that
/// every store gets the same names, and that `blocks build` writes them into the index.
@Suite struct CodeNamesTests {
    /// Code with every kind of text the scanner must tell apart.
    static let sample = ##"""
        import SwiftUI

        /// `FakeDocName` in a doc comment, and .docModifier(x).
        // .lineCommentMember
        /* outer /* nested */ .stillComment */
        public struct Sample: View {
            @Environment(\.accessibilityReduceMotion) private var reduceMotion
            @State private var localState = 0
            public var selectionProgress: Double
            public static func makeDefault() -> Self { Self(selectionProgress: 0) }
            public func onTabChange(_ action: @escaping () -> Void) -> Self { self }
            private func helper() {}
            func internalHelper() {}

            var body: some View {
                let title = "Text .notAModifier \(value.interpolatedMember("in \"nested\" .nestedString")) after"
                let raw = #"raw "quoted" .rawMember \(notInterpolated)"#
                let multi = """
                    .multilineMember \(Inner.self) "quoted"
                    """
                ScrollView { Text(title) }
                    .onGeometryChange(for: CGFloat.self) { proxy in proxy.size.width } action: { _ in }
                    .`default`
            }
        }
        """##

    @Test func theScannerKeepsCodeNamesAndSkipsCommentsAndStrings() {
        let names = CodeNames.names(inSwift: Data(Self.sample.utf8))
        for kept in [
            "SwiftUI", "Sample", "View", "Environment", "accessibilityReduceMotion", "State", "selectionProgress", "Double",
            "makeDefault", "onTabChange", "Void", "ScrollView", "Text", "onGeometryChange", "CGFloat", "size", "width",
            "interpolatedMember", "Inner", "default",
        ] {
            #expect(names.contains(kept), "\(kept)")
        }
        for skipped in [
            "FakeDocName", "docModifier", "lineCommentMember", "stillComment", "nested", "notAModifier", "nestedString",
            "rawMember", "notInterpolated", "multilineMember", "quoted", "helper", "internalHelper", "localState",
            "reduceMotion", "title", "proxy", "action", "self", "Self", "init", "public", "func",
        ] {
            #expect(!names.contains(skipped), "\(skipped)")
        }
    }

    @Test func onlyComponentAndLogicFilesAreRead() throws {
        let manifest = try #require(
            BlockManifest.decode(
                Data(
                    sampleManifestJSON(
                        name: "sample", files: [("Sample.swift", "component"), ("SampleLogic.swift", "logic"), ("SampleDemo.swift", "demo")]
                    ).utf8)))
        let files = [
            "Sample.swift": Data("struct Sample { var body: some View { Text(\"\").onSubmit {} } }".utf8),
            "SampleLogic.swift": Data("public enum SampleLogic { public static func decide() {} }".utf8),
            "SampleDemo.swift": Data("struct SampleDemo { let x = DemoOnlyType() }".utf8),
        ]
        let names = CodeNames.names(of: BlockContent(manifest: manifest, files: files))
        #expect(names == ["SampleLogic", "Sample", "Text", "View", "decide", "onSubmit"].sorted())
        // A file the folder lacks adds nothing; lint reports it.
        #expect(CodeNames.names(of: manifest) { $0 == "SampleLogic.swift" ? files[$0] : nil } == ["SampleLogic", "decide"])
    }

    /// The embedded catalog's names come from its Swift files at run time, exactly as a
    /// folder catalog's do, and the blocks built on an API are found by it.
    @Test func theEmbeddedCatalogIsSearchedByTheAPIsItsCodeUses() throws {
        let embedded = try CatalogSource.embedded.searchableBlocks()
        let folder = try CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).searchableBlocks()
        #expect(embedded == folder)
        let pager = try #require(embedded.first { $0.manifest.name == "pager" })
        for name in ["onGeometryChange", "accessibilityReduceMotion", "ScrollView", "PagerTabState", "onTabChange", "scrollPosition"] {
            #expect(pager.codeNames.contains(name), "\(name)")
        }
        // The blocks whose code calls `.onGeometryChange(` are exactly the ones found.
        let callers = try embedded.filter { block in
            try block.manifest.files.filter { $0.role != .demo }.contains { file in
                let text = try #require(EmbeddedFiles.catalog["\(block.manifest.name)/\(file.path)"])
                return text.contains(".onGeometryChange(")
            }
        }.map(\.manifest.name)
        #expect(callers.count >= 3)
        let found = InMemorySearch(blocks: embedded).search("onGeometryChange")
        #expect(!found.isPartial)
        #expect(found.hits.map(\.manifest.name).sorted() == callers.sorted())
        // Without the code names no block has the word, and its parts (`on geometry
        // change`) give only partial matches.
        #expect(InMemorySearch(manifests: embedded.map(\.manifest)).search("onGeometryChange").isPartial)
    }

    /// A folder catalog's index holds names from its Swift files, so editing one in place
    /// (same inode, `block.json` untouched) makes the next search rebuild it.
    @Test func editingACodeFileInPlaceRebuildsAFolderIndex() throws {
        let catalog = try SyntheticCatalog.copy()
        let cache = try TemporaryFolder("search-cache")
        defer {
            catalog.cleanUp()
            cache.cleanUp()
        }
        let source = CatalogSource.folder(catalog.url)
        let first = try SearchIndex.open(for: source, cacheDirectory: cache.url)
        #expect(first.finalStatus() == .built)
        #expect(try first.search("zebraStripes").hits.isEmpty)
        let name = try #require(try source.blockNames().first)
        let manifest = try source.manifest(named: name)
        let file = catalog.url.appendingPathComponent(name).appendingPathComponent(try #require(manifest.files.first?.path))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\nextension View { public func zebraStripes() -> some View { self } }\n".utf8))
        try handle.close()
        let edited = try SearchIndex.open(for: CatalogSource.folder(catalog.url), cacheDirectory: cache.url)
        #expect(try edited.search("zebraStripes").hits.map(\.manifest.name) == [name])
        #expect(edited.finalStatus() == .built)
        // And an untouched catalog keeps its index.
        let again = try SearchIndex.open(for: CatalogSource.folder(catalog.url), cacheDirectory: cache.url)
        #expect(try again.search("zebraStripes").hits.map(\.manifest.name) == [name])
        #expect(again.finalStatus() == .reused)
    }

    /// Past `codeStampLimit` code files the index is stamped by `block.json` alone, so a
    /// search of 10,000 blocks does not stat 10,000 more files.
    @Test func aLargeCatalogIsStampedByItsManifestsAlone() throws {
        let catalog = try #require(SyntheticCatalog.shared60)
        let source = CatalogSource.folder(catalog)
        let blocks = try source.searchableBlocks()
        #expect(source.codeFiles(of: blocks).count == 60)
        #expect(source.codeFiles(of: blocks, limit: 60).count == 60)
        #expect(source.codeFiles(of: blocks, limit: 59).count == 0)
        #expect(CatalogSource.embedded.codeFiles(of: try CatalogSource.embedded.searchableBlocks()).count == 0)
        #expect(CatalogSource.codeStampLimit >= 1_000)
    }

    @Test func aBuiltRegistryCarriesTheNamesInItsIndexAndMetadata() throws {
        let folder = try TemporaryFolder("code-names")
        defer { folder.cleanUp() }
        let catalog = repositoryRoot.appendingPathComponent("Catalog")
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        let data = try Data(contentsOf: folder.path("public/index.json"))
        let index = try RegistryIndex.decode(data, location: "test")
        let expected = try CatalogSource.folder(catalog).searchableBlocks()
        #expect(index.blocks.map(\.codeNames) == expected.map(\.codeNames))
        #expect(index.blocks.allSatisfy { !$0.codeNames.isEmpty })
        // JSONReader and JSONDecoder read the field alike.
        #expect(try JSONDecoder().decode(RegistryIndex.self, from: data) == index)
        let metadata = try BlockMetadata.decode(try Data(contentsOf: folder.path("public/blocks/pager.json")))
        #expect(metadata.entry.codeNames.contains("onGeometryChange"))
        #expect(metadata.entry == index.entry(named: "pager"))
    }

    /// An index written before builds recorded code names reads as having none, whether
    /// the key is absent or null; any other type is the index's error.
    @Test func anEntryWithoutCodeNamesReadsAsNone() throws {
        let manifest = sampleManifestJSON(name: "sample").trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
        let archives =
            #""metadata": "blocks/sample.json", "sourceSHA256": "\#(String(repeating: "0", count: 64))", "archives": {"zip": {"path": "archives/sample-1.0.0.zip", "sha256": "\#(String(repeating: "1", count: 64))", "size": 3}}"#
        for (extra, expected) in [("", [String]()), (#", "codeNames": null"#, []), (#", "codeNames": ["Pager", "onTabChange"]"#, ["Pager", "onTabChange"])] {
            let data = Data(#"{"schemaVersion": 1, "blocks": [\#(manifest), \#(archives)\#(extra)}]}"#.utf8)
            let index = try RegistryIndex.decode(data, location: "test")
            #expect(index.blocks.first?.codeNames == expected, "\(extra)")
            #expect(try JSONDecoder().decode(RegistryIndex.self, from: data) == index, "\(extra)")
        }
        let wrong = Data(#"{"schemaVersion": 1, "blocks": [\#(manifest), \#(archives), "codeNames": "Pager"}]}"#.utf8)
        #expect(throws: RegistryError.invalidIndex(location: "test", reason: "wrong type at blocks[0].codeNames")) {
            try RegistryIndex.decode(wrong, location: "test")
        }
    }

    /// A registry built before code names gets them on its next build, with its archives
    /// and their dates as they were; the build after that writes nothing.
    @Test func aRebuildAddsCodeNamesToAnOlderRegistry() throws {
        let folder = try TemporaryFolder("code-names-rebuild")
        defer { folder.cleanUp() }
        let catalog = repositoryRoot.appendingPathComponent("Catalog")
        let output = folder.path("public")
        try RegistryFixtures.build(catalog: catalog, output: output)
        let fresh = try Data(contentsOf: output.appendingPathComponent("index.json"))
        // Rewrite the registry as a build without code names wrote it.
        var old = try RegistryIndex.decode(fresh, location: "test")
        for position in old.blocks.indices { old.blocks[position].codeNames = [] }
        try old.encoded().write(to: output.appendingPathComponent("index.json"))
        var oldMetadata: [String: Data] = [:]
        for entry in old.blocks {
            let url = output.appendingPathComponent(entry.metadata)
            var metadata = try BlockMetadata.decode(try Data(contentsOf: url))
            metadata.entry.codeNames = []
            oldMetadata[entry.metadata] = metadata.stableJSON
            try metadata.stableJSON.write(to: url)
        }
        #expect(!String(decoding: try Data(contentsOf: output.appendingPathComponent("index.json")), as: UTF8.self).contains("codeNames"))
        let archive = output.appendingPathComponent(try #require(old.entry(named: "pager")?.preferredArchive?.path))
        let archiveBytes = try Data(contentsOf: archive)
        let archiveInode = SearchIndexTests.inode(archive)

        let report = try RegistryFixtures.build(catalog: catalog, output: output)
        #expect(report.written.isEmpty)
        #expect(report.unchanged.count == old.blocks.count)
        #expect(try Data(contentsOf: output.appendingPathComponent("index.json")) == fresh)
        #expect(try Data(contentsOf: archive) == archiveBytes && SearchIndexTests.inode(archive) == archiveInode)
        for entry in old.blocks {
            let metadata = try BlockMetadata.decode(try Data(contentsOf: output.appendingPathComponent(entry.metadata)))
            let before = try BlockMetadata.decode(try #require(oldMetadata[entry.metadata]))
            #expect(!metadata.entry.codeNames.isEmpty)
            #expect(metadata.versions == before.versions, "\(entry.metadata)")
        }
        // Nothing left to add: the index keeps its file.
        let inode = SearchIndexTests.inode(output.appendingPathComponent("index.json"))
        try RegistryFixtures.build(catalog: catalog, output: output)
        #expect(SearchIndexTests.inode(output.appendingPathComponent("index.json")) == inode)
    }
}
