import Foundation
import Testing

@testable import BlocksKit

/// An incremental `build --split-index`, which writes new parts and a new feed and then
/// `index.json`, killed with SIGKILL at random moments: after every kill the registry is
/// the one before or the one after, every part its `index.json` lists is there with its
/// hash, and a client lists every block; the next build finishes with the bytes of a
/// build that was never killed.
@Suite(.serialized) struct SplitIndexKillTests {
    let environment = ["SOURCE_DATE_EPOCH": "1790000000"]

    func arguments(_ catalog: URL, into output: URL) -> [String] {
        ["build", "--catalog", catalog.path, "--out", output.path, "--split-index"]
    }

    /// A build that runs to its end; its exit status.
    func build(_ catalog: URL, into output: URL) throws -> Int32 {
        let result = try runBinary(arguments(catalog, into: output), environment: environment)
        #expect(result.code == 0, "\(result.err)")
        return result.code
    }

    /// Every part `index.json` lists, checked; the versions a client lists.
    func readable(_ registry: URL) throws -> Set<String> {
        let index = try RegistryIndex.decode(try Data(contentsOf: registry.appendingPathComponent("index.json")), location: "test")
        let layout = try #require(index.split)
        for part in layout.files {
            let data = try Data(contentsOf: registry.appendingPathComponent(part.path))
            #expect(SHA256.hex(data) == part.sha256, "\(part.path)")
        }
        let listed = try runBinary(["list", "--registry", registry.path, "--json"])
        #expect(listed.code == 0, "\(listed.err)")
        let blocks = try #require(try JSONReader.parse(Data(listed.out.utf8)).object?["blocks"]?.array)
        #expect(blocks.count == 60)
        return Set(blocks.compactMap { $0["version"]?.string })
    }

    @Test func aKilledIncrementalBuildLeavesTheRegistryBeforeOrAfter() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let before = try RegistryFixtures.writeCatalog(in: folder, count: 60, version: "1.0.0", catalog: "Before")
        let after = try RegistryFixtures.writeCatalog(in: folder, count: 60, version: "1.0.1", catalog: "After")
        #expect(try build(before, into: folder.path("pristine")) == 0)
        try FileManager.default.copyItem(at: folder.path("pristine"), to: folder.path("reference"))
        let started = Date()
        #expect(try build(after, into: folder.path("reference")) == 0)
        let cleanRun = Date().timeIntervalSince(started)
        let reference = fileContents(under: folder.path("reference"))
        let referenceIndex = try #require(reference["index.json"])
        let feedPath = try #require(try RegistryIndex.decode(referenceIndex, location: "test").split?.feed.path)
        let feed = try SplitIndexFeed.decode(try #require(reference[feedPath]), path: feedPath)
        #expect(feed.changes.count == 60 && feed.changes.allSatisfy { $0.snapshot == 2 && $0.entry?.manifest.version == "1.0.1" })

        var generator = SystemRandomNumberGenerator()
        var killed = 0
        try KillLoop.loop(iterations: 6) { iteration in
            let output = folder.path("public")
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.copyItem(at: folder.path("pristine"), to: output)
            let run = try KillLoop.run({ try TestProcess.start(blocksBinary, arguments(after, into: output), environment: environment, captureOutput: false) }, killAt: .randomly(in: 0...UInt32(cleanRun * 1.2 * 1_000_000)), generator: &generator)
            if run.killed { killed += 1 }
            let versions = try readable(output)
            #expect(versions == ["1.0.0"] || versions == ["1.0.1"], "iteration \(iteration): \(versions)")
            #expect(try build(after, into: output) == 0)
            let finished = fileContents(under: output).filter { !(($0.key as NSString).lastPathComponent.hasSuffix(".tmp")) }
            #expect(finished.keys.sorted() == reference.keys.sorted(), "iteration \(iteration): \(Set(finished.keys).symmetricDifference(reference.keys).sorted())")
            #expect(finished.filter { reference[$0.key] != $0.value }.keys.sorted() == [], "iteration \(iteration)")
        }
        print("SplitIndexKillTests: \(killed) of 6 incremental builds killed")
    }

    /// The same with the build record (`BuildRecord`): one catalog folder changed in place,
    /// so the rebuild skips the 59 blocks the build before recorded, unread. After each kill
    /// the registry is the one before or the one after, and the next build, with whatever
    /// record the killed one left, gives the bytes of a build never killed.
    @Test func aKilledRebuildThatSkipsBlocksUnreadLeavesTheRegistryBeforeOrAfter() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 60, version: "1.0.0")
        let changing = catalog.appendingPathComponent("block-0007/block.json")
        let before = try Data(contentsOf: changing)
        let after = Data(String(decoding: before, as: UTF8.self).replacingOccurrences(of: "\"1.0.0\"", with: "\"1.0.1\"").utf8)
        #expect(after != before)
        // Files changed in the two seconds before a build are read whatever the record says.
        Thread.sleep(forTimeInterval: 2.1)
        var environment = self.environment
        environment["XDG_CACHE_HOME"] = folder.path("cache").path
        let reference = folder.path("reference")
        #expect(try runBinary(arguments(catalog, into: reference), environment: environment).code == 0)
        try after.write(to: changing)
        let started = Date()
        let rebuilt = try runBinary(arguments(catalog, into: reference) + ["--json"], environment: environment)
        let cleanRun = Date().timeIntervalSince(started)
        #expect(rebuilt.code == 0 && rebuilt.out.contains("\"written\" : [\n    \"block-0007\"\n  ]"), "\(rebuilt.out)")
        let expected = fileContents(under: reference)
        // The record the rebuild kept: the 59 settled blocks, which the next rebuild skips.
        let record = BuildRecord.read(
            BuildRecord.file(for: reference, cacheDirectory: folder.path("cache/blocks")),
            index: SearchFingerprint.file(at: reference.appendingPathComponent("index.json").path))
        #expect(record.blocks.count == 59 && record.blocks["block-0007"] == nil)

        var generator = SystemRandomNumberGenerator()
        var killed = 0
        try KillLoop.loop(iterations: 6) { iteration in
            let output = folder.path("public")
            try? FileManager.default.removeItem(at: output)
            try before.write(to: changing)
            #expect(try runBinary(arguments(catalog, into: output), environment: environment).code == 0)
            try after.write(to: changing)
            let run = try KillLoop.run({ try TestProcess.start(blocksBinary, arguments(catalog, into: output), environment: environment, captureOutput: false) }, killAt: .randomly(in: 0...UInt32(cleanRun * 1.2 * 1_000_000)), generator: &generator)
            if run.killed { killed += 1 }
            let versions = try readable(output)
            #expect(versions == ["1.0.0"] || versions == ["1.0.0", "1.0.1"], "iteration \(iteration): \(versions)")
            #expect(try runBinary(arguments(catalog, into: output), environment: environment).code == 0)
            let finished = fileContents(under: output).filter { !(($0.key as NSString).lastPathComponent.hasSuffix(".tmp")) }
            #expect(finished.keys.sorted() == expected.keys.sorted(), "iteration \(iteration): \(Set(finished.keys).symmetricDifference(expected.keys).sorted())")
            #expect(finished.filter { expected[$0.key] != $0.value }.keys.sorted() == [], "iteration \(iteration)")
        }
        print("SplitIndexKillTests: \(killed) of 6 recorded rebuilds killed")
    }
}
