import Foundation
import Testing

@testable import BlocksKit

/// Each promise of the offline mirror, against a real nginx on loopback.
@Suite(.serialized) struct MirrorTests {
    struct Setup {
        let folder: TemporaryFolder
        let upstream: URL
        let mirror: URL
        let nginx: Nginx

        init(blocks: Int = 6) throws {
            folder = try TemporaryFolder("mirror")
            let catalog = try RegistryFixtures.writeCatalog(in: folder, count: blocks)
            upstream = folder.path("upstream")
            try RegistryFixtures.build(catalog: catalog, output: upstream)
            mirror = folder.path("mirror")
            nginx = try Nginx(root: upstream)
        }

        func run(_ arguments: [String], directory: URL? = nil) -> (code: Int32, out: String, err: String) {
            runBlocks(arguments, in: directory ?? folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path])
        }

        func sync(_ extra: [String] = []) -> (code: Int32, out: String, err: String) {
            run(["mirror", nginx.baseURL + "/", mirror.path, "--json"] + extra)
        }

        func cleanUp() {
            nginx.stop()
            folder.cleanUp()
        }
    }

    static func summary(_ output: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
    }

    /// Promise 1: the mirror is a consistent registry naming only verified archives.
    @Test func firstSyncGivesAConsistentRegistry() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = setup.sync()
        #expect(result.code == 0, "\(result.err)")
        #expect(Self.summary(result.out)["fetched"] as? Int == 12)
        let index = try RegistryIndex.decode(Data(contentsOf: setup.mirror.appendingPathComponent("index.json")), location: "mirror")
        #expect(index.blocks.count == 6)
        for entry in index.blocks {
            for archive in entry.archives.values {
                #expect(try SHA256.hex(fileAt: setup.mirror.appendingPathComponent(archive.path)) == archive.sha256)
            }
            #expect(FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent(entry.metadata).path))
        }
        #expect(
            try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == Data(contentsOf: setup.upstream.appendingPathComponent("index.json")))
        #expect(!filesUnder(setup.mirror).contains { $0.hasSuffix(".part") })
        #expect(setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
    }

    /// Promise 3: nothing changed upstream costs one conditional request and no archive.
    @Test func unchangedUpstreamCostsOneConditionalRequest() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        // The index, six metadata files, twelve archives and the site's list (404: no site here).
        let before = setup.nginx.requests(atLeast: 20).count
        #expect(before == 20)
        let again = setup.sync()
        #expect(again.code == 0)
        #expect(Self.summary(again.out)["fetched"] as? Int == 0)
        #expect(Self.summary(again.out)["upToDate"] as? Bool == true)
        let after = setup.nginx.requests(atLeast: before + 1).map(\.summary)
        #expect(Array(after.dropFirst(before)) == ["GET /index.json 304"])
    }

    /// Promise 4: only new archives are fetched; --prune removes the unlisted ones.
    @Test func changesFetchOnlyWhatIsNewAndPruneRemovesTheRest() throws {
        let setup = try Setup(blocks: 4)
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        // Upstream bumps block-0001 and drops block-0003.
        try setup.folder.write(
            "Catalog/block-0001/block.json",
            sampleManifestJSON(name: "block-0001", version: "1.1.0", titleEnglish: "Block 1 again", files: [("Block0001.swift", "component")]))
        try FileManager.default.removeItem(at: setup.folder.path("Catalog/block-0003"))
        try FileManager.default.removeItem(at: setup.upstream)
        try RegistryFixtures.build(catalog: setup.folder.path("Catalog"), output: setup.upstream)
        let before = setup.nginx.requests(atLeast: 14).count
        let result = setup.sync(["--prune"])
        #expect(result.code == 0, "\(result.err)")
        let summary = Self.summary(result.out)
        #expect(summary["fetched"] as? Int == 2)
        #expect(summary["pruned"] as? Int == 4)  // block-0001 1.0.0 and block-0003, two formats each
        // Only the changed entry's metadata file is fetched again; a changed index also costs
        // one small request for the site's list (404: no site here).
        let fetched = setup.nginx.requests(atLeast: before + 5).map(\.summary).dropFirst(before).sorted()
        #expect(
            fetched == [
                "GET /archives/block-0001-1.1.0.tar.gz 200", "GET /archives/block-0001-1.1.0.zip 200", "GET /blocks/block-0001.json 200",
                "GET /index.json 200", "GET /site.json 404",
            ])
        let archives = try FileManager.default.contentsOfDirectory(atPath: setup.mirror.appendingPathComponent("archives").path).sorted()
        #expect(
            archives == [
                "block-0000-1.0.0.tar.gz", "block-0000-1.0.0.zip", "block-0001-1.1.0.tar.gz", "block-0001-1.1.0.zip", "block-0002-1.0.0.tar.gz",
                "block-0002-1.0.0.zip",
            ])
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("blocks/block-0003.json").path))

        // With the upstream unchanged, --prune still removes what the index does not list.
        try setup.folder.write("mirror/archives/stale-1.0.0.zip", "old")
        try setup.folder.write("mirror/blocks/stale.json", "{}")
        let unchanged = setup.sync(["--prune"])
        #expect(unchanged.code == 0, "\(unchanged.err)")
        #expect(Self.summary(unchanged.out)["upToDate"] as? Bool == true)
        #expect(Self.summary(unchanged.out)["pruned"] as? Int == 1)
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("archives/stale-1.0.0.zip").path))
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("blocks/stale.json").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.mirror.appendingPathComponent("archives").path).count == 6)
    }

    /// Promise 5: --verify names a corrupted archive and fails; the next sync repairs it.
    @Test func verifyFindsDamageAndTheNextSyncRepairsIt() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        let damaged = setup.mirror.appendingPathComponent("archives/block-0002-1.0.0.zip")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damaged)
        let verify = setup.run(["mirror", "--verify", setup.mirror.path])
        #expect(verify.code == 1)
        #expect(verify.err.contains("archives/block-0002-1.0.0.zip"))
        #expect(!verify.err.contains("block-0001"))
        let repair = setup.sync()
        #expect(repair.code == 0)
        #expect(Self.summary(repair.out)["fetched"] as? Int == 1)
        #expect(setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
    }

    /// Promise 6: a second mirror on the same folder fails at once with a clear message.
    @Test(.enabled(if: HostTools.hasFlock, HostTools.needsFlock))
    func aSecondMirrorOnTheSameFolderFailsAtOnce() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try FileManager.default.createDirectory(at: setup.mirror, withIntermediateDirectories: true)
        let holder = try TestProcess.start(
            URL(fileURLWithPath: HostTools.flock), [setup.mirror.appendingPathComponent(".blocks-mirror.lock").path, "sleep", "5"],
            captureOutput: false)
        defer { holder.kill() }
        // Wait (bounded) until flock holds the lock.
        for _ in 0..<100 where (try? MirrorLock(destination: setup.mirror)) != nil { usleep(20_000) }
        let second = try runBinary(
            ["mirror", setup.nginx.baseURL, setup.mirror.path], in: setup.folder.url,
            environment: ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": setup.folder.path("cache").path])
        #expect(second.code == 1)
        #expect(second.err.contains("another blocks mirror"))
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))
    }

    /// Promise 7: a missing or corrupt upstream archive fails the run and keeps the previous snapshot.
    @Test func upstreamFailuresKeepThePreviousSnapshot() throws {
        let setup = try Setup(blocks: 3)
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        let snapshot = try Data(contentsOf: setup.mirror.appendingPathComponent("index.json"))
        try setup.folder.write(
            "Catalog/block-0000/block.json", sampleManifestJSON(name: "block-0000", version: "2.0.0", files: [("Block0000.swift", "component")]))
        try setup.folder.write(
            "Catalog/block-0001/block.json", sampleManifestJSON(name: "block-0001", version: "2.0.0", files: [("Block0001.swift", "component")]))
        try RegistryFixtures.build(catalog: setup.folder.path("Catalog"), output: setup.upstream)
        try FileManager.default.removeItem(at: setup.upstream.appendingPathComponent("archives/block-0000-2.0.0.tar.gz"))
        try Data("not the archive".utf8).write(to: setup.upstream.appendingPathComponent("archives/block-0001-2.0.0.zip"))
        let result = setup.sync()
        #expect(result.code == 1)
        #expect(result.err.contains("archives/block-0000-2.0.0.tar.gz"))
        #expect(result.err.contains("404"))
        #expect(result.err.contains("archives/block-0001-2.0.0.zip"))
        #expect(result.err.contains("SHA-256"))
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == snapshot)
        #expect(!filesUnder(setup.mirror).contains { $0.hasSuffix(".part") })
        #expect(setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
    }

    /// Promise 8: with the network gone, the mirror is a registry for search, info and add.
    @Test func theMirrorWorksWithTheNetworkGone() throws {
        let setup = try Setup(blocks: 3)
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        setup.nginx.stop()
        let search = setup.run(["--registry", setup.mirror.path, "search", "block"])
        #expect(search.code == 0 && search.out.contains("block-0001"))
        let info = setup.run(["--registry", setup.mirror.path, "info", "block-0002"])
        #expect(info.code == 0 && info.out.contains("Block0002.swift"))
        try TestProject.app(at: setup.folder.path("app"), platforms: nil)
        let add = setup.run(["--registry", setup.mirror.path, "add", "block-0001", "--yes"], directory: setup.folder.path("app"))
        #expect(add.code == 0, "\(add.err)")
        let written = setup.folder.read("app/Sources/App/Blocks/block-0001/Block0001.swift") ?? ""
        #expect(written.hasPrefix("// SPDX-License-Identifier: MIT\n"))
    }

    /// Promise 2: kill -9 at random moments, then one more run, gives a complete mirror.
    @Test func killedRunsResumeToACompleteMirror() throws {
        let setup = try Setup(blocks: 400)
        defer { setup.cleanUp() }
        let environment = ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": setup.folder.path("cache").path]
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        try KillLoop.loop(iterations: 0, extraIterations: 60, until: { kills >= 20 }) { _ in
            let run = try KillLoop.run(
                {
                    try TestProcess.start(
                        blocksBinary, ["mirror", setup.nginx.baseURL, setup.mirror.path, "--jobs", "4", "-q"], environment: environment,
                        captureOutput: false)
                }, killAt: .randomly(in: 5_000...50_000), generator: &generator)
            if run.killed { kills += 1 }
            // At every instant the index names only archives that are present and verified.
            if let data = FileManager.default.contents(atPath: setup.mirror.appendingPathComponent("index.json").path) {
                let index = try RegistryIndex.decode(data, location: "mirror")
                for archive in index.blocks.flatMap({ $0.archives.values }) {
                    #expect(try SHA256.hex(fileAt: setup.mirror.appendingPathComponent(archive.path)) == archive.sha256)
                }
            }
        }
        #expect(kills >= 20, "only \(kills) runs were killed mid-way; the test needs a bigger registry")
        let final = try runBinary(["mirror", setup.nginx.baseURL, setup.mirror.path, "--json"], in: setup.folder.url, environment: environment)
        #expect(final.code == 0, "\(final.err)")
        #expect(setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
        #expect(!filesUnder(setup.mirror).contains { $0.hasSuffix(".part") })
        let index = try RegistryIndex.decode(Data(contentsOf: setup.mirror.appendingPathComponent("index.json")), location: "mirror")
        #expect(index.blocks.count == 400)
    }

    @Test func progressBarText() {
        let line = ProgressBar.line(label: "mirror", progress: TransferProgress(filesDone: 5, filesTotal: 10, bytesDone: 4096), totalBytes: nil, elapsed: 4)
        #expect(line.contains("5/10 files"))
        #expect(line.contains("4.0 KB"))
        #expect(line.contains("1.0 KB/s"))
        #expect(line.contains("ETA 4s"))
        #expect(
            !ProgressBar.line(label: "m", progress: TransferProgress(filesDone: 10, filesTotal: 10, bytesDone: 1), totalBytes: nil, elapsed: 1).contains("ETA"))
    }

    /// The mirror writes metadata files byte for byte as `blocks build` does, stages them
    /// until every archive is in, and hands archives to the transport in batches.
    @Test func metadataMatchesTheBuildAndBatchesCoverEveryArchive() throws {
        let setup = try Setup(blocks: 5)
        defer { setup.cleanUp() }
        var mirror = Mirror(upstream: HTTPMirrorUpstream(base: setup.nginx.baseURL, transport: CurlTransport()), destination: setup.mirror)
        mirror.batchSize = 3  // 10 archives: batches of 3, 3, 3 and 1
        let reports = ProgressLog()
        mirror.progress = { reports.append($0) }
        let summary = try mirror.sync()
        #expect(summary.fetched == 10)
        #expect(reports.last == TransferProgress(filesDone: 10, filesTotal: 10, bytesDone: summary.bytes))
        #expect(reports.all.map(\.filesTotal).allSatisfy { $0 == 10 })
        // A complete registry: every file, the `.gz` files and metadata included, byte for byte.
        let upstreamFiles = filesUnder(setup.upstream).sorted()
        #expect(upstreamFiles.contains("index.json.gz") && upstreamFiles.contains("blocks/block-0000.json.gz"))
        #expect(filesUnder(setup.mirror).filter { !$0.contains(".blocks-mirror") }.sorted() == upstreamFiles)
        for file in upstreamFiles {
            #expect(try Data(contentsOf: setup.mirror.appendingPathComponent(file)) == Data(contentsOf: setup.upstream.appendingPathComponent(file)), "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: MirrorPlan.stagingFolder(in: setup.mirror).path))
    }

    /// A failed run leaves the old metadata files too, not just the old index.
    @Test func aFailedRunKeepsTheOldMetadata() throws {
        let setup = try Setup(blocks: 2)
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        let metadata = setup.mirror.appendingPathComponent("blocks/block-0000.json")
        let before = try Data(contentsOf: metadata)
        try setup.folder.write(
            "Catalog/block-0000/block.json", sampleManifestJSON(name: "block-0000", version: "2.0.0", files: [("Block0000.swift", "component")]))
        try RegistryFixtures.build(catalog: setup.folder.path("Catalog"), output: setup.upstream)
        try FileManager.default.removeItem(at: setup.upstream.appendingPathComponent("archives/block-0000-2.0.0.zip"))
        #expect(setup.sync().code == 1)
        #expect(try Data(contentsOf: metadata) == before)
        // Once upstream is whole again, the next run brings the new metadata in.
        try RegistryFixtures.build(catalog: setup.folder.path("Catalog"), output: setup.upstream)
        #expect(setup.sync().code == 0)
        #expect(try Data(contentsOf: metadata) == Data(contentsOf: setup.upstream.appendingPathComponent("blocks/block-0000.json")))
        #expect(
            try Data(contentsOf: setup.mirror.appendingPathComponent("blocks/block-0000.json.gz"))
                == Data(contentsOf: setup.upstream.appendingPathComponent("blocks/block-0000.json.gz")))
        #expect(!FileManager.default.fileExists(atPath: MirrorPlan.stagingFolder(in: setup.mirror).path))
    }

    /// A broken upstream index fails with one clear error and changes nothing in DEST.
    @Test func aBrokenUpstreamIndexChangesNothing() throws {
        let setup = try Setup(blocks: 2)
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        let snapshot = try Data(contentsOf: setup.mirror.appendingPathComponent("index.json"))
        let index = setup.upstream.appendingPathComponent("index.json")
        let good = try String(contentsOf: index, encoding: .utf8)
        try good.replacingOccurrences(of: "\"sourceSHA256\"", with: "\"renamed\"").write(to: index, atomically: true, encoding: .utf8)
        let result = setup.sync()
        #expect(result.code != 0)
        #expect(result.err.contains("missing blocks[0].sourceSHA256"), "\(result.err)")
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == snapshot)
        #expect(setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
    }

    @Test func theIndexReaderSplitsEntriesLikeTheDecoder() throws {
        let tricky = #"{ "blocks" : [ {"a":"x\"}],{[\\"} , {"b":[1,{"c":"]"}],"d":null}],"extra":{"e":[]},"schemaVersion":1 }"#
        let data = Data(tricky.utf8)
        let (version, ranges) = try MirrorIndexReader.scan(data, location: "test")
        #expect(version == 1)
        #expect(ranges.map { String(decoding: data[$0], as: UTF8.self) } == [#"{"a":"x\"}],{[\\"}"#, #"{"b":[1,{"c":"]"}],"d":null}"#])
        for range in ranges {
            #expect((try? JSONSerialization.jsonObject(with: data.subdata(in: range))) != nil)
        }
        #expect(try MirrorIndexReader.scan(Data(#"{"schemaVersion":1,"blocks":[]}"#.utf8), location: "test").entries.isEmpty)
    }

    @Test func theIndexReaderRefusesBrokenIndexes() {
        let broken: [(String, String)] = [
            (#"{"schemaVersion":1,"blocks":[{"a":1}"#, "not valid JSON"),
            (#"{"schemaVersion":1,"blocks":[{"a":1},]}"#, "not valid JSON"),
            (#"{"schemaVersion":1,"blocks":[{"a":"unterminated}]}"#, "not valid JSON"),
            (#"{"schemaVersion":1,"blocks":[]} trailing"#, "not valid JSON"),
            (#"{"schemaVersion":1 "blocks":[]}"#, "not valid JSON"),
            (#"{"blocks":[]}"#, "missing schemaVersion"),
            (#"{"schemaVersion":1}"#, "missing blocks"),
            (#"{"schemaVersion":4,"blocks":[]}"#, "schemaVersion 4 is not supported; upgrade blocks"),
            ("", "not valid JSON"),
        ]
        for (text, reason) in broken {
            #expect(throws: RegistryError.invalidIndex(location: "test", reason: reason), "\(text)") {
                try MirrorIndexReader.scan(Data(text.utf8), location: "test")
            }
        }
        // A split index is no broken one: the scan says so, and the mirror reads it by its parts.
        #expect(throws: MirrorError.splitIndex(location: "test")) {
            try MirrorIndexReader.scan(Data(#"{"schemaVersion":3,"blocks":[]}"#.utf8), location: "test")
        }
    }

    /// The state keeps what was saved and drops what was not (a killed run), and a record
    /// holds only while the file's size and time are as recorded.
    @Test func stateRoundTripsAndSpotsChangedFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("archives/a.tar.gz", "abc")
        try folder.write(".blocks-mirror/keep", "")
        var state: MirrorState? = try MirrorState.open(in: folder.url)
        state?.etag = "\"etag-1\""
        state?.mode = "every-version"
        state?.record("archives/a.tar.gz", sha256: SHA256.hex("abc"), in: folder.url)
        state?.markDamaged("archives/b.zip", sha256: "bbb")
        try state?.save()
        let saved = state?["archives/a.tar.gz"]
        state?.record(".blocks-mirror/keep", sha256: SHA256.hex(""), in: folder.url)
        state?.etag = "unsaved"
        state = nil
        let loaded = try MirrorState.open(in: folder.url)
        #expect(loaded.etag == "\"etag-1\"" && loaded.mode == "every-version")
        #expect(saved != nil && loaded["archives/a.tar.gz"] == saved)
        #expect(loaded["archives/b.zip"] == .damaged("bbb"))
        #expect(loaded[".blocks-mirror/keep"] == nil)
        #expect(loaded.count == 2)
        #expect(loaded.isIntact("archives/a.tar.gz", sha256: SHA256.hex("abc"), in: folder.url))
        #expect(!loaded.isIntact("archives/a.tar.gz", sha256: SHA256.hex("abd"), in: folder.url))
        #expect(!loaded.isIntact("archives/b.zip", sha256: "bbb", in: folder.url))
        try folder.write("archives/a.tar.gz", "abd")
        #expect(!loaded.isIntact("archives/a.tar.gz", sha256: SHA256.hex("abc"), in: folder.url))
        // A state that is no database is started afresh rather than failing the mirror.
        try folder.write(".blocks-mirror/state.sqlite", "not a database, and long enough to look like a header of one")
        #expect(try MirrorState.open(in: folder.url).count == 0)
    }

    /// What one run lists is kept apart from the records: each path is new once, records
    /// of unlisted files go, and derived metadata is recorded as its digest, not its bytes.
    @Test func stateListsARunAndKeepsOnlyWhatItListed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("archives/a.tar.gz", "a")
        try folder.write("archives/b.zip", "b")
        try folder.write("blocks/c.json", "c")
        try folder.write(".blocks-mirror/keep", "")
        let state = try MirrorState.open(in: folder.url)
        state.record("archives/a.tar.gz", sha256: SHA256.hex("a"), in: folder.url)
        state.record("archives/b.zip", sha256: SHA256.hex("b"), in: folder.url)
        state.beginListing()
        #expect(state.markListed("archives/a.tar.gz"))
        #expect(!state.markListed("archives/a.tar.gz"))
        #expect(state.isListed("archives/a.tar.gz") && !state.isListed("archives/b.zip"))
        state.noteDerived("blocks/c.json", sha256: "digest-of-upstream")
        state.recordDerived(in: folder.url)
        state.keepOnlyListed()
        #expect(state["archives/a.tar.gz"] != nil && state["archives/b.zip"] == nil)
        #expect(state.isIntact("blocks/c.json", sha256: "digest-of-upstream", in: folder.url) == false, "derived, but not listed")
        state.beginListing()
        #expect(state.markListed("archives/a.tar.gz"), "a new run lists afresh")
        state.markListed("blocks/c.json")
        state.noteDerived("blocks/c.json", sha256: "digest-of-upstream")
        state.recordDerived(in: folder.url)
        state.keepOnlyListed()
        #expect(state.isIntact("blocks/c.json", sha256: "digest-of-upstream", in: folder.url))
        #expect(state.count == 2)
    }

    /// A mirror made by an earlier version keeps its state in a line format, read once
    /// into the database and then removed: known lines in any order, empty lines, a last
    /// line without its newline, the last of two records for one path, and lines it skips
    /// (wrong field count, a size that is not a number, a carriage return in a number, an
    /// unknown kind, a kind that only starts like a known one).
    @Test func aLegacyLineFormatStateIsReadOnceAndRemoved() throws {
        let lines = [
            "blocks-mirror-state\t1", "", "archive\tarchives/a.tar.gz\taaa\t3\t1700000000123456789", "etag\t\"e-1\"",
            "archive\tarchives/b.zip\tbbb\t-1\t0", "archive\tarchives/a.tar.gz\tccc\t4\t5", "archive\tarchives/short\tddd\t4",
            "archive\tarchives/words\teee\tfour\t5", "archive\tarchives/crlf\tfff\t4\t5\r", "archived\tarchives/x\tggg\t1\t2",
            "etag\tone\ttoo many", "mode\tall-versions", "", "", "archive\tarchives/last\thhh\t+7\t8",
        ]
        let text = lines.joined(separator: "\n")
        let expected: [String: MirrorState.Record] = [
            "archives/a.tar.gz": .init(sha256: "ccc", size: 4, modified: 5), "archives/b.zip": .damaged("bbb"),
            "archives/last": .init(sha256: "hhh", size: 7, modified: 8),
        ]
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write(".blocks-mirror/state", text)
        let state = try MirrorState.open(in: folder.url)
        var records: [String: MirrorState.Record] = [:]
        state.forEachRecord { records[$0] = $1 }
        #expect(records == expected)
        #expect(state.etag == "\"e-1\"" && state.mode == "all-versions")
        #expect(!FileManager.default.fileExists(atPath: folder.path(".blocks-mirror/state").path))
        #expect(try MirrorState.open(in: folder.url).count == 3)
        // Read in chunks of any size, a line split across chunks reads as one.
        for size in [1, 2, 7, 64] {
            var reader = MirrorStateLines()
            var count = 0
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: size) {
                bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { chunk in reader.read(chunk) { _ in count += 1 } }
            }
            reader.finish { _ in count += 1 }
            #expect(count == 6, "chunks of \(size)")
        }
    }
}

/// Progress reports collected from the callback, for checking totals across batches.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [TransferProgress] = []

    func append(_ report: TransferProgress) { lock.withLock { reports.append(report) } }
    var all: [TransferProgress] { lock.withLock { reports } }
    var last: TransferProgress? { all.last }
}
