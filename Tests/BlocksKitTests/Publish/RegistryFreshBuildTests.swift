import Foundation
import Testing

@testable import BlocksKit

/// A build into an empty output writes through a staging folder (`FreshBuildFolder`) and
/// assembles `index.json` from the metadata bytes. Both shortcuts must give exactly the
/// bytes of the careful path, and a killed build must still leave only whole files.
@Suite struct RegistryFreshBuildTests {
    let environment = ["SOURCE_DATE_EPOCH": "1790000000"]

    func contents(of folder: URL) -> [String: Data] { fileContents(under: folder) }

    func isTemporary(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    @Test func freshAndIncrementalBuildsWriteTheSameBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 12)
        // A missing output takes the staging path; one that holds anything takes the
        // path that checks every published file.
        try RegistryFixtures.build(catalog: catalog, output: folder.path("fresh"))
        try folder.write("busy/README.txt", "served alongside\n")
        try RegistryFixtures.build(catalog: catalog, output: folder.path("busy"))

        var busy = contents(of: folder.path("busy"))
        #expect(busy.removeValue(forKey: "README.txt") != nil)
        let fresh = contents(of: folder.path("fresh"))
        #expect(fresh.count == 12 * 4 + 2)  // two archives, metadata and its .gz per block; index.json and its .gz
        #expect(fresh.keys.sorted() == busy.keys.sorted())
        for (path, data) in fresh { #expect(busy[path] == data, "\(path) differs") }
        #expect(!fresh.keys.contains { $0.contains(".blocks-staging-") || $0.hasSuffix(".tmp") })

        // The assembled index is byte for byte what encoding the whole index gives.
        let index = try RegistryIndex.decode(#require(fresh["index.json"]), location: "fresh")
        #expect(try index.encoded() == fresh["index.json"])
    }

    @Test func assembledIndexMatchesTheEncoderWithEmptyCollections() throws {
        let manifest = try #require(BlockManifest.decode(Data(sampleManifestJSON(name: "one").utf8)))
        var bare = manifest
        bare.name = "bare"
        bare.tags = [:]
        bare.api = []
        bare.accessibility = [:]
        let entries = [manifest, bare].map { manifest in
            RegistryEntry(
                manifest: manifest, metadata: "blocks/\(manifest.name).json", sourceSHA256: String(repeating: "a", count: 64),
                archives: ["zip": RegistryArchive(path: "archives/\(manifest.name)-1.0.0.zip", sha256: String(repeating: "b", count: 64), size: 12)])
        }
        // Given out of order, as parallel work might hand them over.
        let assembled = try RegistryIndex.encoded(entries.reversed().map { ($0, RegistryIndex.fragment(entryJSON: try StableJSON.data($0))) })
        #expect(assembled == (try RegistryIndex(blocks: entries).encoded()))
        #expect(try RegistryIndex.encoded([]) == (try RegistryIndex(blocks: []).encoded()))
    }

    @Test func metadataWrittenWithoutTheEncoderMatchesIt() throws {
        let manifest = try #require(BlockManifest.decode(Data(sampleManifestJSON(name: "one").utf8)))
        var bare = manifest
        bare.tags = [:]
        bare.api = []
        bare.title = ["en": "Quote \" backslash \\ slash / tab \t line\nbreak é 🙂 \u{7F} \u{2028}"]
        for manifest in [manifest, bare] {
            let entry = RegistryEntry(
                manifest: manifest, metadata: "blocks/one.json", sourceSHA256: String(repeating: "c", count: 64),
                archives: ["tar.gz": RegistryArchive(path: "archives/one-1.0.0.tar.gz", sha256: String(repeating: "d", count: 64), size: 99)])
            #expect(entry.stableJSON == (try StableJSON.data(entry)))
            #expect(try BlockPackager.manifestData(manifest) == (try StableJSON.data(manifest)))
        }
    }

    @Test func aBuildThatMovesToNewStagingFoldersWritesTheSameBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 80)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("steady"))
        // Every file counts as slow, so the build moves on every 16 blocks, up to the cap.
        let source = CatalogSource.folder(catalog)
        var builder = RegistryBuilder(output: folder.path("moving"), packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        builder.tuning.slowFileCreation = -1
        let report = try builder.build(try source.contents(of: try source.blockNames()))
        #expect(contents(of: folder.path("moving")) == contents(of: folder.path("steady")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path("moving").path).sorted() == ["archives", "blocks", "index.json", "index.json.gz"])
        // Moving needs the top-folder hint, which file systems such as tmpfs lack.
        if Tuning.markTopOfTree(folder.path("moving").path) {
            #expect(report.stagingFolders == FreshBuildFolder.maximumFolders)
        }
    }

    @Test func stagingLeftoversAreRemovedAndOtherContentIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 2)
        // What a build killed mid-way leaves: a staging folder with a partial archive.
        try folder.write("public/.blocks-staging-dead/archives/block-0000-1.0.0.tar.gz", "partial")
        let report = try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        #expect(report.written == ["block-0000", "block-0001"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path("public").path).sorted() == ["archives", "blocks", "index.json", "index.json.gz"])
        #expect(try Archives.read(folder.path("public/archives/block-0000-1.0.0.tar.gz")).files.count == 3)
    }

    @Test func theOutputFolderItCreatesCarriesTheTopFolderHint() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 1)
        try FileManager.default.createDirectory(at: folder.path("mine"), withIntermediateDirectories: true)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("made"))
        try RegistryFixtures.build(catalog: catalog, output: folder.path("mine"))
        func flags(_ url: URL) -> Int32? {
            let descriptor = open(url.path, O_RDONLY | O_DIRECTORY)
            defer { close(descriptor) }
            var flags: Int32 = 0
            return ioctl(descriptor, UInt(0x8008_6601), &flags) == 0 ? flags : nil
        }
        // File systems without inode flags (tmpfs) have nothing to check.
        guard let made = flags(folder.path("made")), let mine = flags(folder.path("mine")) else { return }
        #expect(made & 0x0002_0000 != 0)
        #expect(mine & 0x0002_0000 == 0)  // a folder the user made is left as it was
    }

    /// `kill -9` at random moments of real builds, half of them fresh. After each kill,
    /// every file under a final name is whole (identical to a clean build's), and the
    /// next build finishes the job and leaves no staging folder.
    @Test func killedBuildsLeaveOnlyWholeFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 150)
        let start = Date()
        let clean = try runBinary(["build", "--catalog", catalog.path, "--out", "reference"], in: folder.url, environment: environment)
        let cleanRun = Date().timeIntervalSince(start)
        #expect(clean.code == 0, "\(clean.err)")
        let reference = contents(of: folder.path("reference"))

        var generator = SystemRandomNumberGenerator()
        var killed = 0
        try KillLoop.loop(iterations: 8) { iteration in
            if iteration % 2 == 0 { try? FileManager.default.removeItem(at: folder.path("public")) }
            let run = try KillLoop.run(
                {
                    try TestProcess.start(
                        blocksBinary, ["build", "--catalog", catalog.path, "--out", folder.path("public").path], environment: environment,
                        captureOutput: false)
                }, killAt: .randomly(in: 0...UInt32(min(cleanRun * 1.2, 3) * 1_000_000)), generator: &generator)
            if run.killed { killed += 1 }
            for (path, data) in contents(of: folder.path("public")) {
                if path.hasPrefix(".blocks-staging-") || isTemporary(path) { continue }
                #expect(reference[path] == data, "iteration \(iteration): \(path) is not a whole file of the clean build")
            }
        }
        let final = try runBinary(["build", "--catalog", catalog.path, "--out", "public"], in: folder.url, environment: environment)
        #expect(final.code == 0, "\(final.err)")
        // AtomicFile's temporary files, from kills in the path that checks published files.
        let finished = contents(of: folder.path("public")).filter { !isTemporary($0.key) }
        #expect(finished == reference)
        print("RegistryFreshBuildTests: \(killed) of 8 builds killed")
    }
}
