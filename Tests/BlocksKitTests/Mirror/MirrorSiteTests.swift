import Foundation
import Testing

@testable import BlocksKit

/// `blocks mirror` of a registry built with `--site`: the site comes along, verified file
/// by file against `site.json`, and a hostile `site.json` changes nothing.
@Suite(.serialized) struct MirrorSiteTests {
    struct Setup {
        let folder: TemporaryFolder
        let upstream: URL
        let mirror: URL
        let nginx: Nginx

        init() throws {
            folder = try TemporaryFolder("mirror-site")
            upstream = folder.path("upstream")
            try SiteFixtures.build(into: upstream)
            mirror = folder.path("mirror")
            nginx = try Nginx(root: upstream)
        }

        func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
            runBlocks(arguments, in: folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path])
        }

        func sync(_ extra: [String] = []) -> (code: Int32, out: String, err: String) {
            run(["mirror", nginx.baseURL + "/", mirror.path, "--json"] + extra)
        }

        func cleanUp() {
            nginx.stop()
            folder.cleanUp()
        }
    }

    static func siteFiles(_ root: URL) -> [String] {
        SiteFixtures.files(under: root).filter(SiteBuildTests.isSiteFile)
    }

    @Test func theSiteIsMirroredByteForByteAndVerified() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = setup.sync()
        #expect(result.code == 0, "\(result.err)")
        let upstreamSite = Self.siteFiles(setup.upstream)
        #expect(upstreamSite.count == SiteBuildTests.catalogNames.count + 6)
        #expect(Self.siteFiles(setup.mirror) == upstreamSite)
        for path in upstreamSite {
            #expect(SiteBuildTests.contents(setup.mirror, path) == SiteBuildTests.contents(setup.upstream, path), "\(path)")
        }
        // --verify re-hashes the site too, and a damaged page is repaired by the next sync
        // even though the upstream index has not changed.
        let verified = setup.run(["mirror", "--verify", setup.mirror.path, "--json"])
        #expect(verified.code == 0, "\(verified.err)")
        // Site files are counted as site files, not as archives.
        let archiveCount = try FileManager.default.contentsOfDirectory(atPath: setup.mirror.appendingPathComponent("archives").path)
            .filter { $0.hasSuffix(".tar.gz") || $0.hasSuffix(".zip") }.count
        let counts = try JSONDecoder().decode(JSONValue.self, from: Data(verified.out.utf8))
        #expect(counts["archives"] == .int(archiveCount) && archiveCount > 0, "\(verified.out)")
        let listed = upstreamSite.filter { $0 != SiteBuilder.manifestPath }.count  // site.json does not list itself
        #expect(counts["siteFiles"] == .int(listed), "\(verified.out)")
        #expect(counts["checked"] == .int(archiveCount + listed), "\(verified.out)")
        let plain = setup.run(["mirror", "--verify", setup.mirror.path])
        #expect(plain.out.contains("\(archiveCount) archives and \(listed) site files verified in "), "\(plain.out)")
        let page = setup.mirror.appendingPathComponent("blocks/pager/index.html")
        try Data("<p>damaged</p>".utf8).write(to: page)
        let damaged = setup.run(["mirror", "--verify", setup.mirror.path])
        #expect(damaged.code != 0)
        #expect((damaged.out + damaged.err).contains("blocks/pager/index.html"))
        #expect(setup.sync().code == 0)
        #expect(SiteBuildTests.contents(setup.mirror, "blocks/pager/index.html") == SiteBuildTests.contents(setup.upstream, "blocks/pager/index.html"))
        // --prune keeps the pages' folders beside the metadata files.
        #expect(setup.sync(["--prune"]).code == 0)
        #expect(Self.siteFiles(setup.mirror) == upstreamSite)
    }

    @Test func aSiteListThatLeavesTheRegistryChangesNothing() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(setup.sync().code == 0)
        let indexBefore = SiteBuildTests.contents(setup.mirror, "index.json")
        // Upstream changes (so the index is fetched again) and lists a path outside.
        try SiteFixtures.build(into: setup.upstream, site: false)
        var index = String(decoding: try #require(SiteBuildTests.contents(setup.upstream, "index.json")), as: UTF8.self)
        index = index.replacing("\"schemaVersion\" : 1", with: "\"schemaVersion\" : 1\n")
        try Data(index.utf8).write(to: setup.upstream.appendingPathComponent("index.json"))
        let hostile = #"{"generator": "x", "schemaVersion": 1, "files": [{"path": "../escaped.html", "sha256": "00", "size": 1}]}"#
        try Data(hostile.utf8).write(to: setup.upstream.appendingPathComponent("site.json"))
        let result = setup.sync()
        #expect(result.code != 0)
        #expect(result.err.contains("site.json"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        #expect(SiteBuildTests.contents(setup.mirror, "index.json") == indexBefore)
        #expect(!FileManager.default.fileExists(atPath: setup.folder.path("escaped.html").path))
    }

    @Test func aRegistryWithoutASiteMirrorsAsBefore() throws {
        let folder = try TemporaryFolder("mirror-nosite")
        defer { folder.cleanUp() }
        let upstream = folder.path("upstream")
        try SiteFixtures.build(into: upstream, site: false)
        let result = runBlocks(
            ["mirror", upstream.path, folder.path("mirror").path], in: folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path])
        #expect(result.code == 0, "\(result.err)")
        #expect(Self.siteFiles(folder.path("mirror")).isEmpty)
    }
}
