import Foundation
import Testing

@testable import BlocksKit

/// What makes `add` of a block with dependencies fast without giving anything up: the
/// metadata rounds go into the cache once, the bases are written while the files are
/// moved but before the lock, and each server's connections stay with the calls to it.
@Suite(.serialized) struct DependencyRoundsTests {
    static func write(_ file: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// A folder of metadata files served by a real nginx.
    static func metadataServer(names: [String]) throws -> (server: Nginx, folder: URL) {
        let folder = try TestProject.temporaryFolder("metadata-rounds")
        for name in names {
            try Self.write(folder.appendingPathComponent("blocks/\(name).json"), "{\"name\":\"\(name)\"}\n")
        }
        return (try Nginx(root: folder), folder)
    }

    /// Rounds of metadata merge in memory and reach the cache file only when saved, once,
    /// with every round in it; saving again with nothing new leaves the file alone.
    @Test func metadataRoundsAreWrittenOnceWhenSaved() throws {
        let (server, folder) = try Self.metadataServer(names: ["one", "two"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let cache = RegistryCache(root: folder.appendingPathComponent("cache"))
        let transport = CurlTransport()
        let file = cache.metadataFile(registry: server.baseURL)
        for name in ["one", "two"] {
            let round = try cache.fetchMetadata(
                [server.url("/blocks/\(name).json")], registry: server.baseURL, transport: transport, offline: false, deferringWrite: true)
            #expect(round.first??.isEmpty == false)
            #expect(!FileManager.default.fileExists(atPath: file.path), "a round wrote the cache")
        }
        cache.saveMetadata(registry: server.baseURL)
        let saved = try #require(FileManager.default.contents(atPath: file.path).flatMap(RegistryCache.metadataTexts))
        #expect(Set(saved.keys) == [server.url("/blocks/one.json"), server.url("/blocks/two.json")])
        let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        cache.saveMetadata(registry: server.baseURL)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode, "saved again unchanged")
        // Without deferring, a fetch writes at once, as `info` needs.
        _ = try cache.fetchMetadata([server.url("/blocks/one.json")], registry: server.baseURL, transport: transport, offline: false)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    /// Every block an `add` resolved, over three rounds, is in the cache afterwards, and
    /// so is what a failed resolution (a cycle) read: `--offline` finds each of them.
    @Test func everyRoundOfAnAddIsCachedForOffline() throws {
        let servers = try BlockDependencyTests.servers()
        defer { servers.project.delete() }
        let added = try servers.blocks(["add", "@team/pager", "--yes"])
        #expect(added.code == 0, "\(added.errors)")
        let cycle = try servers.blocks(["add", "@pub/cyc-a", "--yes"])
        #expect(cycle.code != 0)
        servers.publicServer.stop()
        servers.privateServer.stop()
        for block in ["@team/pager", "@team/badge", "@pub/strip", "@pub/indicator", "@pub/haptics", "@pub/cyc-b"] {
            let info = try servers.blocks(["--offline", "info", block])
            #expect(info.code == 0, "\(block): \(info.errors)")
        }
    }

    /// The transaction's `beforeLock` runs once every file is in place and before the lock
    /// exists: `add` waits there for the bases it writes meanwhile.
    @Test func beforeLockRunsAfterTheFilesAndBeforeTheLock() throws {
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        let project = try TestProject.make()
        defer {
            project.delete()
            catalog.delete()
        }
        let plan = try InstallPlan.make(
            contents: try CatalogSource.folder(catalog.root).contents(of: ["strip"]), registry: catalog.root.path,
            root: project.root, lock: Lockfile(), includeDemo: true, year: 2026,
            folderFor: { project.root.appendingPathComponent("Sources/App/Blocks/\($0)") })
        var seen: [(files: Bool, lock: Bool)] = []
        _ = try InstallTransaction.apply(plan) {
            seen.append((plan.allFiles.allSatisfy { FileManager.default.fileExists(atPath: $0.url.path) }, project.exists("blocks.lock")))
        }
        #expect(seen.count == 1)
        #expect(seen.first?.files == true && seen.first?.lock == false)
        #expect(project.exists("blocks.lock"))
    }

    /// After `add`, the cache holds the base of every file the lock names.
    @Test func addLeavesABaseForEveryLockedFile() throws {
        let servers = try BlockDependencyTests.servers()
        defer { servers.project.delete() }
        #expect(try servers.blocks(["add", "@team/pager", "--yes"]).code == 0)
        let bases = BaseStore(cacheDirectory: servers.cache.appendingPathComponent("blocks"))
        let files = try servers.project.lock().blocks.values.flatMap(\.files)
        #expect(files.count > 10)
        for file in files { #expect(bases.load(sha256: file.sha256) != nil, "no base for \(file.path)") }
    }

    /// Two calls at once, each to its own server, after each server was read alone: each
    /// call gets the handle holding its server's connection, so neither server sees a
    /// second connection. Taking the other server's handle opened a new one.
    @Test func concurrentCallsKeepTheirOwnServersConnections() throws {
        let folder = try TestProject.temporaryFolder("connections")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(folder.appendingPathComponent("fast.bin"), "fast\n")
        // nginx sends a second's worth at once, then the rest a second later: the two
        // calls overlap.
        try Self.write(folder.appendingPathComponent("slow/slow.bin"), String(repeating: "x", count: 24 * 1024))
        let logFormat = "log_format connections '$connection $request_uri';"
        let servers = try ["a", "b"].map { name in
            try Nginx(
                root: folder, serverConfig: "access_log \(folder.path)/\(name).log connections; location /slow/ { limit_rate 16k; }",
                httpConfig: logFormat)
        }
        defer { servers.forEach { $0.stop() } }
        let transport = CurlTransport()
        for server in servers { #expect((try? transport.get(HTTPRequest(url: server.url("/fast.bin")))) != nil) }
        let results = ConcurrentMap.map(servers) { server in (try? transport.get(HTTPRequest(url: server.url("/slow/slow.bin"))))?.body.count }
        #expect(results == [24 * 1024, 24 * 1024])
        for name in ["a", "b"] {
            // nginx logs a request just after its last byte is sent.
            let lines = Nginx.logLines(folder.appendingPathComponent("\(name).log"), atLeast: 2)
            let log = lines.joined(separator: "\n")
            #expect(lines.count == 2, "\(name): \(log)")
            #expect(Set(lines.compactMap { $0.split(separator: " ").first }).count == 1, "server \(name) saw a second connection: \(log)")
        }
    }
}
