import Foundation
import Testing

@testable import BlocksKit

/// What a remote registry's client asks for, request by request. These need a registry's
/// files and the exact requests, not a real server, so they run on `InMemoryTransport`;
/// what only a real server shows stays in `RegistryTests`, `HTTPNginxTests` and the
/// fault-server tests.
@Suite struct RegistryInMemoryTests {
    /// A generated catalog of `blocks` blocks in `folder`, built into `public/` and served
    /// from memory.
    func servedRegistry(in folder: TemporaryFolder, blocks: Int) throws -> (catalog: URL, server: InMemoryTransport) {
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: blocks)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        return (catalog, InMemoryTransport(serving: folder.path("public")))
    }

    func run(_ arguments: [String], in folder: TemporaryFolder, server: InMemoryTransport) -> (code: Int32, out: String, err: String) {
        runBlocks(
            arguments, in: folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path, "SOURCE_DATE_EPOCH": "1790000000"],
            transport: server)
    }

    @Test func aRemoteRegistryIsSearchedThroughAnIndexThatOneConditionalRequestKeepsFresh() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (catalog, server) = try servedRegistry(in: folder, blocks: 3)
        let first = run(["--registry", server.baseURL, "search", "block", "--json"], in: folder, server: server)
        #expect(first.code == 0 && first.out.contains("block-0002"), "\(first.err)")
        #expect(filesUnder(folder.path("cache")).contains { $0.hasPrefix("blocks/search/") && $0.hasSuffix(".sqlite") })
        let second = run(["--registry", server.baseURL, "search", "block", "--json"], in: folder, server: server)
        #expect(second.out == first.out)
        #expect(server.requests == ["GET /index.json 200", "GET /index.json 304"])

        // A block published since: the index file changes, so the search index is rebuilt.
        try writeBlock(
            in: folder, catalog: "Catalog", name: "wombat-pager",
            manifest: sampleManifestJSON(name: "wombat-pager", titleEnglish: "Wombat Pager", files: [("Wombat.swift", "component")]),
            files: ["Wombat.swift": "struct Wombat {}\n"])
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        let third = run(["--registry", server.baseURL, "search", "wombat"], in: folder, server: server)
        #expect(third.code == 0 && third.out.contains("wombat-pager"), "\(third.out) \(third.err)")
        #expect(server.requests.last == "GET /index.json 200")

        server.goDown()
        let offline = run(["--registry", server.baseURL, "--offline", "search", "wombat"], in: folder, server: server)
        #expect(offline.code == 0 && offline.out.contains("wombat-pager"), "\(offline.err)")
        let down = run(["--registry", server.baseURL, "search", "wombat"], in: folder, server: server)
        #expect(down.code == 1 && down.err.contains(server.baseURL + "/index.json"), "\(down.err)")
    }

    @Test func infoReadsOneBlocksMetadataNotTheWholeIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (catalog, server) = try servedRegistry(in: folder, blocks: 3)
        let info = run(["--registry", server.baseURL, "info", "block-0001"], in: folder, server: server)
        #expect(info.code == 0 && info.out.contains("Block 1"), "\(info.err)")
        #expect(server.requests == ["GET /blocks/block-0001.json 200"])
        let unknown = run(["--registry", server.baseURL, "info", "block-0009"], in: folder, server: server)
        #expect(unknown.code == 1 && unknown.err.contains("did you mean"), "\(unknown.err)")
        for registry in [folder.path("public").path, catalog.path] {
            let local = run(["--registry", registry, "info", "block-0002"], in: folder, server: server)
            #expect(local.code == 0 && local.out.contains("Block 2"), "\(registry): \(local.err)")
            #expect(run(["--registry", registry, "info", "block-0009"], in: folder, server: server).err.contains("did you mean"))
        }
    }

    @Test func addFetchesOneMetadataFileAndTheArchivesAndRefusesATamperedOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, server) = try servedRegistry(in: folder, blocks: 2)
        let project = try makeProject(in: folder)
        let add = runBlocks(
            ["--registry", server.baseURL, "add", "block-0000", "block-0001", "--yes"], in: project,
            environment: ["XDG_CACHE_HOME": folder.path("cache").path], transport: server)
        #expect(add.code == 0, "\(add.err)")
        #expect(server.requests.filter { $0.hasSuffix(" 200") }.count == server.requests.count, "\(server.requests)")
        #expect(server.requests.contains("GET /archives/block-0000-1.0.0.tar.gz 200"), "\(server.requests)")
        #expect(!server.requests.contains("GET /index.json 200"), "add reads metadata, not the index: \(server.requests)")

        // The served archive changes after publication: its hash no longer matches, nothing is added.
        let tampered = try makeProject(in: folder, name: "tampered")
        let archive = folder.path("public/archives/block-0001-1.0.0.tar.gz")
        var bytes = try Data(contentsOf: archive)
        bytes[bytes.count / 2] ^= 0xff
        try bytes.write(to: archive)
        let refused = runBlocks(
            ["--registry", server.baseURL, "add", "block-0001", "--yes"], in: tampered,
            environment: ["XDG_CACHE_HOME": folder.path("other-cache").path], transport: server)
        #expect(refused.code == 1 && refused.err.contains("SHA-256"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: tampered.appendingPathComponent("blocks.lock").path))
    }
}
