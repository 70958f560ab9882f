import Foundation
import Testing

@testable import BlocksKit

/// `blocks build --split-index` (schemaVersion 2): index.json lists shards of compact
/// entries, and search, list, info and add read it from a folder and over nginx, signed
/// or not; a rebuild rewrites only the shard of the block that changed.
@Suite(.serialized) struct SplitIndexTests {
    let folder: URL
    let registry: URL
    let project: TestProject

    init() throws {
        folder = try TestProject.temporaryFolder("split-index")
        registry = folder.appendingPathComponent("registry")
        project = try TestProject.make()
    }

    func delete() {
        project.delete()
        try? FileManager.default.removeItem(at: folder)
    }

    static let blocks: [TestCatalog.Block] = [.standard("pager", type: "Pager"), .standard("strip", type: "Strip"), .standard("top-tabs", type: "TopTabs")]

    @discardableResult
    func build(_ blocks: [TestCatalog.Block] = blocks, extra: [String] = []) throws -> (code: Int32, out: String, err: String) {
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        return try runBinary(["build", "--catalog", catalog.root.path, "--out", registry.path, "--split-index"] + extra)
    }

    func file(_ path: String) -> Data? { FileManager.default.contents(atPath: registry.appendingPathComponent(path).path) }

    @Test func theIndexListsShardsOfCompactEntriesThatMatchTheirSchemas() throws {
        defer { delete() }
        let built = try build()
        #expect(built.code == 0, "\(built.err)")
        let indexData = try #require(file("index.json"))
        let index = try RegistryIndex.decode(indexData, location: "test")
        #expect(index.schemaVersion == 2 && index.blocks.isEmpty)
        let shards = try #require(index.shards)
        #expect(shards.count == SplitIndex.shardCount)
        #expect(shards.reduce(0) { $0 + $1.blocks } == 3)
        let pagerShard = shards[SplitIndex.shard(for: "pager")]
        let shardData = try #require(file(pagerShard.path))
        #expect(SHA256.hex(shardData) == pagerShard.sha256)
        #expect(file(pagerShard.path + ".gz") != nil, "nginx's gzip_static copy")
        // A compact entry: the search fields, the code names and the metadata file's hash.
        let entry = try #require(try SplitIndex.decodeShard(shardData, path: pagerShard.path, location: "test").first { $0.entry.manifest.name == "pager" })
        #expect(entry.entry.codeNames.contains("Pager"))
        #expect(entry.metadata == RegistryFileDigest(of: try #require(file("blocks/pager.json"))))
        let text = String(decoding: shardData, as: UTF8.self)
        #expect(!text.contains("\"files\"") && !text.contains("\"archives\"") && !text.contains("\"api\""), "\(text)")

        let schemas = SchemaFilesTests()
        #expect(try schemas.problems(registry.appendingPathComponent(pagerShard.path), schema: "index-shard") == [])
        #expect(try schemas.problems(registry.appendingPathComponent("index.json"), schema: "index") == [])
        // The schemas can fail: a shard entry without its metadata hash.
        let bad = folder.appendingPathComponent("bad.json")
        try Data(text.replacingOccurrences(of: "\"metadataSHA256\"", with: "\"other\"").utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "index-shard").isEmpty)
    }

    @Test func searchListInfoAndAddReadItFromAFolder() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let search = project.run(["search", "strip", "--registry", registry.path])
        #expect(search.code == 0 && search.output.contains("strip"), "\(search.errors)")
        let list = project.run(["list", "--registry", registry.path])
        #expect(list.code == 0 && ["pager", "strip", "top-tabs"].allSatisfy(list.output.contains), "\(list.output)")
        let info = project.run(["info", "pager", "--registry", registry.path])
        #expect(info.code == 0 && info.output.contains("Pager.swift"), "\(info.output)")
        let added = project.run(["add", "top-tabs", "--registry", registry.path])
        #expect(added.code == 0, "\(added.errors)")
        #expect(project.exists("Sources/App/Blocks/top-tabs/TopTabs.swift"))
        let unknown = project.run(["add", "pagr", "--registry", registry.path])
        #expect(unknown.errors.contains("did you mean 'pager'?"), "\(unknown.errors)")
    }

    @Test func overNginxAWarmSearchFetchesNoShardAndAChangeFetchesOneShard() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let server = try Nginx(root: registry)
        defer { server.stop() }
        let cache = folder.appendingPathComponent("cache")
        let environment = ["XDG_CACHE_HOME": cache.path]
        let first = project.run(["search", "pager", "--registry", server.baseURL], environment: environment)
        #expect(first.code == 0 && first.output.contains("pager"), "\(first.output)\(first.errors)")
        // Each distinct shard once: the three with a block, and one of the identical empty ones.
        let indexData = try #require(file("index.json"))
        let distinct = Set(try #require(try RegistryIndex.decode(indexData, location: "test").shards).map(\.sha256)).count
        #expect(distinct == 4)
        let cold = server.requests(atLeast: 1 + distinct)
        #expect(cold.filter { $0.path.hasPrefix("/index/shard-") }.count == distinct, "\(cold.map(\.summary))")

        let warm = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(warm.code == 0 && warm.output.contains("strip"), "\(warm.errors)")
        let afterWarm = server.requests(atLeast: cold.count + 1)
        #expect(afterWarm.dropFirst(cold.count).map(\.summary) == ["GET /index.json 304"])

        // One block changes upstream: its shard alone is fetched again.
        var blocks = Self.blocks
        blocks[1] = .standard("strip", type: "Strip", version: "1.1.0")
        #expect(try build(blocks).code == 0)
        // nginx's ETag is the mtime's second and the size, which a rebuild within the second may keep.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: registry.appendingPathComponent("index.json").path)
        let changed = project.run(["list", "--registry", server.baseURL], environment: environment)
        #expect(changed.code == 0 && changed.output.contains("1.1.0"), "\(changed.output)")
        let afterChange = server.requests(atLeast: afterWarm.count + 2).dropFirst(afterWarm.count).map(\.summary)
        #expect(afterChange == ["GET /index.json 200", "GET /\(SplitIndex.shardPath(SplitIndex.shard(for: "strip"))) 200"], "\(afterChange)")

        let added = project.run(["add", "strip", "--registry", server.baseURL], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["strip"]?.version == "1.1.0")
    }

    @Test func aRebuildRewritesOnlyTheChangedBlocksShard() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let beforeData = try #require(file("index.json"))
        let before = try #require(try RegistryIndex.decode(beforeData, location: "test").shards)
        var blocks = Self.blocks
        blocks[0] = .standard("pager", type: "Pager", version: "1.0.1")
        let rebuilt = try build(blocks)
        #expect(rebuilt.code == 0)
        #expect(rebuilt.out.contains("1 written, 2 unchanged"), "\(rebuilt.out)")
        let afterData = try #require(file("index.json"))
        let after = try #require(try RegistryIndex.decode(afterData, location: "test").shards)
        let changed = zip(before, after).filter { $0.sha256 != $1.sha256 }.map(\.1.path)
        #expect(changed == [SplitIndex.shardPath(SplitIndex.shard(for: "pager"))])
        // Nothing changed: index.json keeps its bytes.
        let index = file("index.json")
        #expect(try build(blocks).code == 0)
        #expect(file("index.json") == index)
    }

    @Test func aSignedSplitIndexCoversEveryShardAndMetadataFile() throws {
        defer { delete() }
        let keys = folder.appendingPathComponent("keys")
        let publicKey = try keygenPublicKey(into: keys)
        #expect(try build(extra: ["--sign", keys.appendingPathComponent("blocks.key").path]).code == 0)
        let verified = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["minisign", "-V", "-P", publicKey, "-m", registry.appendingPathComponent("index.json").path])
        #expect(verified.code == 0, "\(verified.err)")
        try project.write("blocks.json", "{\"registry\": \"\(registry.path)\", \"keys\": [\"\(publicKey)\"]}\n")
        let added = project.run(["add", "pager"])
        #expect(added.code == 0, "\(added.errors)")

        let shard = registry.appendingPathComponent(SplitIndex.shardPath(SplitIndex.shard(for: "strip")))
        let original = try Data(contentsOf: shard)
        // A forged shard of the same size: its hash no longer matches the signed index.
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "A test block.", with: "A bad! block.").utf8).write(to: shard)
        let forgedShard = project.run(["search", "strip"])
        #expect(forgedShard.code != 0 && forgedShard.errors.contains("was expected"), "\(forgedShard.errors)")
        // A longer one is refused by its size, before it is read.
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "A test block.", with: "A forged block.").utf8).write(to: shard)
        let longer = project.run(["search", "strip"])
        #expect(longer.code != 0 && longer.errors.contains("not the \(original.count) index.json gives it"), "\(longer.errors)")
        try original.write(to: shard)

        // A forged metadata file: its hash no longer matches its compact entry.
        let metadata = registry.appendingPathComponent("blocks/strip.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "A test block.", with: "A forged block.").utf8).write(to: metadata)
        let before = try project.treeHash()
        let forged = project.run(["add", "strip"])
        #expect(forged.code != 0 && forged.errors.contains("blocks/strip.json"), "\(forged.errors)")
        #expect(try project.treeHash() == before)
    }

    @Test func theMirrorSaysItCannotCopyASplitIndexYet() throws {
        defer { delete() }
        #expect(try build().code == 0)
        let mirrored = project.run(["mirror", registry.path, folder.appendingPathComponent("mirror").path])
        #expect(mirrored.code != 0)
        #expect(mirrored.errors.contains("is a split index (schemaVersion 2"), "\(mirrored.errors)")
    }

    /// A digest names a file in the cache, so one spelled as a path (`../../blocks`) would
    /// make the cache check, and delete, a file of the user's: every reader refuses it.
    @Test func aDigestThatIsNoHexIsRefusedAndNeverNamesAFile() throws {
        defer { delete() }
        let hostile = #"{"schemaVersion": 2, "shards": [{"path": "index/shard-00.json", "sha256": "../../../../home/me/app/blocks", "size": 1, "blocks": 1}]}"#
        #expect(throws: RegistryError.invalidIndex(location: "test", reason: "wrong type at shards[0].sha256")) {
            try RegistryIndex.decode(Data(hostile.utf8), location: "test")
        }
        let archive = #"{"schemaVersion": 1, "blocks": [{"name": "x", "archives": {"zip": {"path": "archives/x-1.zip", "sha256": "../x", "size": 1}}}]}"#
        #expect(throws: RegistryError.self) { try RegistryIndex.decode(Data(archive.utf8), location: "test") }
        let cache = RegistryCache(root: folder)
        let named = cache.archiveFile(sha256: "../../../../home/me/app/blocks", path: "index/shard-00.json")
        #expect(named.deletingLastPathComponent().path == folder.appendingPathComponent("archives").path, "\(named.path)")
        #expect(SHA256.isDigest(String(repeating: "a", count: 64)) && !SHA256.isDigest(String(repeating: "g", count: 64)))
    }

    @Test func shardsOverTheirTotalCapAreRefusedBeforeAnyIsRead() throws {
        defer { delete() }
        let shard = #"{"path": "index/shard-NN.json", "sha256": "\#(String(repeating: "0", count: 64))", "size": 60000000, "blocks": 1}"#
        let shards = (0..<5).map { shard.replacingOccurrences(of: "NN", with: "0\($0)") }.joined(separator: ", ")
        try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
        try Data(#"{"schemaVersion": 2, "shards": [\#(shards)]}"#.utf8).write(to: registry.appendingPathComponent("index.json"))
        let listed = project.run(["list", "--registry", registry.path])
        #expect(listed.code != 0)
        #expect(listed.errors.contains("its shards are 300000000 bytes in all, over the 268435456 a split index may have"), "\(listed.errors)")
    }
}

