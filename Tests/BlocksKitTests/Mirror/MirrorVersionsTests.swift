import Foundation
import Testing

@testable import BlocksKit

/// Issue 14, "the mirror mirrors every version's archives (`--latest-only` keeps only the
/// newest)": the real binary mirroring a registry that published pager 1.0.0 and then
/// 1.1.0, over a real nginx with `gzip_static`. The mirror is a complete registry: every
/// file, the metadata and `.gz` files included, byte for byte.
@Suite(.serialized) struct MirrorVersionsTests {
    struct Setup {
        let catalog: TestCatalog
        let upstream: URL
        let folder: URL
        let mirror: URL
        let nginx: Nginx

        init() throws {
            (catalog, upstream, _) = try RegistryVersionsTests().twoVersions()
            folder = upstream.deletingLastPathComponent()
            mirror = folder.appendingPathComponent("mirror")
            nginx = try Nginx(root: upstream, serverConfig: "gzip_static on;")
        }

        var environment: [String: String] {
            ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "HOME": folder.path]
        }

        func run(_ arguments: [String]) throws -> (code: Int32, out: String, err: String) {
            try runBinary(arguments, in: folder, environment: environment)
        }

        func sync(_ extra: [String] = []) throws -> [String: Any] {
            let result = try run(["mirror", nginx.baseURL + "/", mirror.path, "--json"] + extra)
            #expect(result.code == 0, "\(result.err)")
            return MirrorTests.summary(result.out)
        }

        func versions(inMirror path: String = "blocks/pager.json") throws -> [String] {
            let data = try Data(contentsOf: mirror.appendingPathComponent(path))
            return try BlockMetadata.decode(data).versions.map(\.version)
        }

        func archives() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: mirror.appendingPathComponent("archives").path).sorted()
        }

        func cleanUp() {
            nginx.stop()
            catalog.delete()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static let allArchives = ["pager-1.0.0.tar.gz", "pager-1.0.0.zip", "pager-1.1.0.tar.gz", "pager-1.1.0.zip"]

    /// The metadata file, its `.gz` and both versions' archives are mirrored as upstream
    /// has them; with nginx gone, `add pager@1.0.0` installs the older version from the
    /// mirror, and the mirror served by nginx with `gzip_static` is a registry too.
    @Test func everyVersionIsMirroredByteForByte() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let summary = try setup.sync()
        #expect(summary["fetched"] as? Int == 4)
        let upstreamFiles = filesUnder(setup.upstream).sorted()
        #expect(upstreamFiles.contains("blocks/pager.json.gz") && upstreamFiles.contains("index.json.gz"))
        #expect(filesUnder(setup.mirror).filter { !$0.contains(".blocks-mirror") }.sorted() == upstreamFiles)
        for file in upstreamFiles {
            #expect(try Data(contentsOf: setup.mirror.appendingPathComponent(file)) == Data(contentsOf: setup.upstream.appendingPathComponent(file)), "\(file)")
        }
        #expect(try setup.versions() == ["1.1.0", "1.0.0"])
        let verify = try setup.run(["mirror", "--verify", setup.mirror.path])
        #expect(verify.code == 0 && verify.out.contains("4 archives verified"), "\(verify.out)\(verify.err)")

        setup.nginx.stop()
        let project = try TestProject.make()
        defer { project.delete() }
        let old = try project.runBinary(["--registry", setup.mirror.path, "--offline", "add", "pager@1.0.0", "--yes"], environment: setup.environment)
        #expect(old.code == 0, "\(old.errors)")
        #expect(project.read("Sources/App/Blocks/pager/Pager.swift")?.contains("Text(\"1.0.0\")") == true)

        // The mirror, served as a registry with gzip_static: the client gets the .gz.
        let served = try Nginx(root: setup.mirror, serverConfig: "gzip_static on;")
        defer { served.stop() }
        let other = try TestProject.make()
        defer { other.delete() }
        let overHTTP = try other.runBinary(
            ["--registry", served.baseURL, "add", "pager@1.0.0", "--yes"],
            environment: ["XDG_CACHE_HOME": setup.folder.appendingPathComponent("cache2").path])
        #expect(overHTTP.code == 0, "\(overHTTP.errors)")
        let log = served.requests()
        let metadata = try #require(log.first { $0.method == "GET" && $0.path == "/blocks/pager.json" })
        let gzipSize = try Data(contentsOf: setup.mirror.appendingPathComponent("blocks/pager.json.gz")).count
        #expect([metadata.status, metadata.bytes] == ["200", "\(gzipSize)"], "\(log)")
    }

    /// `--latest-only` mirrors and lists only the newest version; a later run without it
    /// fetches the older versions (the state file remembers the mode), and `--prune` with
    /// `--latest-only` deletes them again.
    @Test func latestOnlyKeepsTheNewestAndSwitchingBackFetchesTheRest() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(try setup.sync(["--latest-only"])["fetched"] as? Int == 2)
        #expect(try setup.archives() == ["pager-1.1.0.tar.gz", "pager-1.1.0.zip"])
        #expect(try setup.versions() == ["1.1.0"])
        // The metadata names only what the mirror holds, and its .gz is the same file.
        let metadata = try Data(contentsOf: setup.mirror.appendingPathComponent("blocks/pager.json"))
        let upstreamNewest = try BlockMetadata.decode(Data(contentsOf: setup.upstream.appendingPathComponent("blocks/pager.json")))
        #expect(try BlockMetadata.decode(metadata) == BlockMetadata(entry: upstreamNewest.entry, versions: [upstreamNewest.versions[0]]))
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("blocks/pager.json.gz")) == Zlib.gzip(metadata))
        #expect(try setup.run(["mirror", "--verify", setup.mirror.path]).code == 0)
        let project = try TestProject.make()
        defer { project.delete() }
        let old = try project.runBinary(["--registry", setup.mirror.path, "add", "pager@1.0.0", "--yes"], environment: setup.environment)
        #expect(old.code != 0)
        #expect(old.errors.contains("pager has no version 1.0.0; this registry has 1.1.0"), "\(old.errors)")

        // Same upstream (a 304 would say "up to date"), other mode: the older version comes.
        #expect(try setup.sync()["fetched"] as? Int == 2)
        #expect(try setup.archives() == Self.allArchives)
        #expect(
            try Data(contentsOf: setup.mirror.appendingPathComponent("blocks/pager.json"))
                == Data(contentsOf: setup.upstream.appendingPathComponent("blocks/pager.json")))
        #expect(try setup.sync()["upToDate"] as? Bool == true)

        let pruned = try setup.sync(["--latest-only", "--prune"])
        #expect(pruned["pruned"] as? Int == 2)
        #expect(try setup.archives() == ["pager-1.1.0.tar.gz", "pager-1.1.0.zip"])
        #expect(try setup.versions() == ["1.1.0"])
    }

    /// `--prune` on an unchanged upstream keeps the older versions' archives (they are in
    /// the metadata files, not the index), and `--verify` re-hashes them too.
    @Test func pruneAndVerifyCoverOlderVersions() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        _ = try setup.sync()
        let unchanged = try setup.sync(["--prune"])
        #expect(unchanged["upToDate"] as? Bool == true)
        #expect(unchanged["pruned"] as? Int == 0)
        #expect(try setup.archives() == Self.allArchives)

        let damaged = setup.mirror.appendingPathComponent("archives/pager-1.0.0.zip")
        let good = try Data(contentsOf: damaged)
        try Data(repeating: 0x41, count: good.count).write(to: damaged)
        let verify = try setup.run(["mirror", "--verify", setup.mirror.path])
        #expect(verify.code == 1)
        #expect(verify.err.contains("archives/pager-1.0.0.zip"), "\(verify.err)")
        #expect(try setup.sync()["fetched"] as? Int == 1)
        #expect(try Data(contentsOf: damaged) == good)
    }

    /// A mirror written before versions were mirrored (metadata without `versions`, a
    /// state file without a mode) gets the older versions on its next run, though the
    /// upstream index did not change.
    @Test func aMirrorFromBeforeVersionsCatchesUp() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        _ = try setup.sync(["--latest-only"])
        do {
            let state = try MirrorState.open(in: setup.mirror)
            #expect(state.mode == "latest-only")
            state.mode = nil
            try state.save()
        }
        let metadata = setup.mirror.appendingPathComponent("blocks/pager.json")
        try BlockMetadata.decode(Data(contentsOf: metadata)).entry.stableJSON.write(to: metadata)
        #expect(try setup.sync()["fetched"] as? Int == 2)
        #expect(try Data(contentsOf: metadata) == Data(contentsOf: setup.upstream.appendingPathComponent("blocks/pager.json")))
    }

    /// A metadata file that is missing upstream, or that describes another entry than the
    /// index (a registry caught mid-publish), fails the run with one clear error and
    /// leaves DEST as it was.
    @Test func aMissingOrContradictingMetadataFileChangesNothing() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let metadata = setup.upstream.appendingPathComponent("blocks/pager.json")
        let metadataGzip = setup.upstream.appendingPathComponent("blocks/pager.json.gz")
        let saved = try Data(contentsOf: metadata)
        let savedGzip = try Data(contentsOf: metadataGzip)
        try FileManager.default.removeItem(at: metadata)
        try FileManager.default.removeItem(at: metadataGzip)
        let missing = try setup.run(["mirror", setup.nginx.baseURL + "/", setup.mirror.path])
        #expect(missing.code == 1)
        #expect(missing.err.contains("1 of 1 metadata file could not be mirrored"), "\(missing.err)")
        #expect(missing.err.contains("blocks/pager.json") && missing.err.contains("404"), "\(missing.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))

        try saved.write(to: metadata)
        try savedGzip.write(to: metadataGzip)
        _ = try setup.sync()
        let snapshot = filesUnder(setup.mirror).filter { !$0.contains(".blocks-mirror") }.sorted()
        let indexBefore = try Data(contentsOf: setup.mirror.appendingPathComponent("index.json"))
        // 1.2.0 is published, but the old metadata file (and its .gz, which nginx
        // serves) is put back over the new one.
        try setup.catalog.put(.standard("pager", type: "Pager", version: "1.2.0"))
        let built = try runBinary(
            ["build", "--catalog", setup.catalog.root.path, "--out", setup.upstream.path], environment: ["SOURCE_DATE_EPOCH": "1810000000"])
        #expect(built.code == 0, "\(built.err)")
        try saved.write(to: metadata)
        try savedGzip.write(to: metadataGzip)
        let contradicting = try setup.run(["mirror", setup.nginx.baseURL + "/", setup.mirror.path])
        #expect(contradicting.code != 0)
        #expect(contradicting.err.contains("blocks/pager.json does not describe the pager entry index.json lists"), "\(contradicting.err)")
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == indexBefore)
        #expect(filesUnder(setup.mirror).filter { !$0.contains(".blocks-mirror") }.sorted() == snapshot)
    }
}
