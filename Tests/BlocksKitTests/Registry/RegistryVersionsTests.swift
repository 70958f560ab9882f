import Foundation
import Testing

@testable import BlocksKit

/// Issue 14, "the registry keeps every version": the real binary building a registry
/// twice (1.0.0, then 1.1.0), `add NAME@VERSION` from it, and nginx's `gzip_static`.
@Suite struct RegistryVersionsTests {
    /// A catalog with pager at 1.0.0, built; then at 1.1.0, built again into the same folder.
    /// Returns the catalog, the registry and pager's metadata bytes after the first build.
    func twoVersions() throws -> (catalog: TestCatalog, registry: URL, firstMetadata: Data) {
        let catalog = try TestCatalog.make([.standard("pager", type: "Pager")])
        let registry = try TestProject.temporaryFolder("registry").appendingPathComponent("public")
        let first = try runBinary(["build", "--catalog", catalog.root.path, "--out", registry.path], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(first.code == 0, "\(first.err)")
        let firstMetadata = try Data(contentsOf: registry.appendingPathComponent("blocks/pager.json"))
        try catalog.put(.standard("pager", type: "Pager", version: "1.1.0"))
        let second = try runBinary(["build", "--catalog", catalog.root.path, "--out", registry.path], environment: ["SOURCE_DATE_EPOCH": "1800000000"])
        #expect(second.code == 0, "\(second.err)")
        return (catalog, registry, firstMetadata)
    }

    func versionsList(_ metadata: Data) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: metadata) as? [String: Any])
        return try #require(object["versions"] as? [[String: Any]])
    }

    @Test func aRebuildAddsTheNewVersionFirstAndKeepsTheOlderEntryAsItWas() throws {
        let (catalog, registry, firstMetadata) = try twoVersions()
        defer {
            catalog.delete()
            try? FileManager.default.removeItem(at: registry.deletingLastPathComponent())
        }
        let metadata = try Data(contentsOf: registry.appendingPathComponent("blocks/pager.json"))
        let versions = try versionsList(metadata)
        #expect(versions.map { $0["version"] as? String } == ["1.1.0", "1.0.0"])
        #expect(versions.map { $0["published"] as? String } == ["2027-01-15T08:00:00Z", "2023-11-14T22:13:20Z"])
        // The 1.0.0 entry is the same bytes as the first build wrote (re-indented nowhere).
        let firstEntry = try #require(try versionsList(firstMetadata).first)
        #expect(NSDictionary(dictionary: firstEntry).isEqual(to: versions[1]))
        let oldText = String(decoding: firstMetadata, as: UTF8.self)
        let start = try #require(oldText.range(of: "\"versions\" : [\n")).upperBound
        let end = try #require(oldText.range(of: "\n  ]", options: .backwards)).lowerBound
        #expect(String(decoding: metadata, as: UTF8.self).contains("},\n" + oldText[start..<end] + "\n  ]"))
        // Both versions' archives are still published and match their recorded hashes.
        for version in versions {
            let archives = try #require(version["archives"] as? [String: [String: Any]])
            for archive in archives.values {
                let data = try Data(contentsOf: registry.appendingPathComponent(try #require(archive["path"] as? String)))
                #expect(SHA256.hex(data) == archive["sha256"] as? String)
            }
        }
        // index.json lists only the newest, without the versions list.
        let index = try String(contentsOf: registry.appendingPathComponent("index.json"), encoding: .utf8)
        #expect(!index.contains("versions") && !index.contains("pager-1.0.0"))
        #expect(index.contains("pager-1.1.0.tar.gz"))
    }

    @Test func theSameSourceAndEpochBuildTheSameBytesAndTheGzipHasNoNameOrTime() throws {
        let (catalog, registry, _) = try twoVersions()
        defer {
            catalog.delete()
            try? FileManager.default.removeItem(at: registry.deletingLastPathComponent())
        }
        let metadata = try Data(contentsOf: registry.appendingPathComponent("blocks/pager.json"))
        // A rebuild with a later clock changes nothing: the block is unchanged.
        let again = try runBinary(["build", "--catalog", catalog.root.path, "--out", registry.path], environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        #expect(again.code == 0, "\(again.err)")
        #expect(try Data(contentsOf: registry.appendingPathComponent("blocks/pager.json")) == metadata)
        for path in ["index.json", "blocks/pager.json"] {
            let plain = try Data(contentsOf: registry.appendingPathComponent(path))
            let gzipped = try Data(contentsOf: registry.appendingPathComponent(path + ".gz"))
            #expect(Array(gzipped.prefix(4)) == [0x1f, 0x8b, 8, 0], "no FNAME flag")
            #expect(Array(gzipped[4..<8]) == [0, 0, 0, 0], "no modification time")
            let unpacked = try runProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "gzip -dc < '\(registry.path)/\(path).gz' | cmp - '\(registry.path)/\(path)' && echo same"])
            #expect(unpacked.out == "same\n", "\(path): \(unpacked.err)")
            #expect(gzipped.count < plain.count)
        }
        // A fresh build of the same catalog with the same epoch writes identical .gz files.
        let fresh = registry.deletingLastPathComponent().appendingPathComponent("fresh")
        let built = try runBinary(["build", "--catalog", catalog.root.path, "--out", fresh.path], environment: ["SOURCE_DATE_EPOCH": "1800000000"])
        #expect(built.code == 0, "\(built.err)")
        let again2 = try runBinary(["build", "--catalog", catalog.root.path, "--out", fresh.path + "2"], environment: ["SOURCE_DATE_EPOCH": "1800000000"])
        #expect(again2.code == 0)
        #expect(try Data(contentsOf: fresh.appendingPathComponent("index.json.gz")) == Data(contentsOf: URL(fileURLWithPath: fresh.path + "2/index.json.gz")))
        #expect(
            try Data(contentsOf: fresh.appendingPathComponent("blocks/pager.json.gz"))
                == Data(contentsOf: URL(fileURLWithPath: fresh.path + "2/blocks/pager.json.gz")))
    }

    @Test func addInstallsAnOlderVersionOrTheNewestAndNamesTheVersionsThereAre() throws {
        let (catalog, registry, _) = try twoVersions()
        defer {
            catalog.delete()
            try? FileManager.default.removeItem(at: registry.deletingLastPathComponent())
        }
        let project = try TestProject.make()
        defer { project.delete() }
        let old = try project.runBinary(["--registry", registry.path, "add", "pager@1.0.0", "--yes"])
        #expect(old.code == 0, "\(old.errors)")
        #expect(project.read("Sources/App/Blocks/pager/PagerLogic.swift")?.contains("\"1.0.0\"") == true)
        #expect(try project.lock().blocks["pager"]?.version == "1.0.0")
        let missing = try project.runBinary(["--registry", registry.path, "add", "pager@2.0.0", "--yes"])
        #expect(missing.code != 0)
        #expect(missing.errors.contains("pager has no version 2.0.0; this registry has 1.1.0, 1.0.0"), "\(missing.errors)")
        let newest = try project.runBinary(["--registry", registry.path, "add", "pager", "--overwrite", "--yes"])
        #expect(newest.code == 0, "\(newest.errors)")
        #expect(project.read("Sources/App/Blocks/pager/PagerLogic.swift")?.contains("\"1.1.0\"") == true)
        #expect(try project.lock().blocks["pager"]?.version == "1.1.0")
        // A catalog folder has only its current version.
        let fromCatalog = try project.runBinary(["--registry", catalog.root.path, "add", "pager@1.0.0", "--yes"])
        #expect(fromCatalog.code != 0)
        #expect(fromCatalog.errors.contains("pager has no version 1.0.0; this registry has 1.1.0"), "\(fromCatalog.errors)")
    }

    @Test func theLibraryGivesABlockAtAnOlderVersionOverHTTP() throws {
        let (catalog, registry, _) = try twoVersions()
        defer {
            catalog.delete()
            try? FileManager.default.removeItem(at: registry.deletingLastPathComponent())
        }
        let nginx = try Nginx(root: registry, serverConfig: "gzip_static on;")
        defer { nginx.stop() }
        let cache = try TemporaryFolder()
        defer { cache.cleanUp() }
        let project = try TestProject.make()
        defer { project.delete() }
        let result = try project.runBinary(["--registry", nginx.baseURL, "add", "pager@1.0.0", "--yes"], environment: ["XDG_CACHE_HOME": cache.url.path])
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.read("Sources/App/Blocks/pager/PagerLogic.swift")?.contains("\"1.0.0\"") == true)
        let lines = nginx.requests(atLeast: 2).map(\.summary)
        #expect(lines.contains("GET /blocks/pager.json 200"), "\(lines)")
        #expect(lines.contains("GET /archives/pager-1.0.0.tar.gz 200"), "\(lines)")
    }

    /// nginx with `gzip_static on;` sends the `.gz` to the real client, which decodes it,
    /// and the ETag conditional request still gives a 304.
    @Test func nginxSendsThePrecompressedIndexAndTheETagStillWorks() throws {
        let (catalog, registry, _) = try twoVersions()
        defer {
            catalog.delete()
            try? FileManager.default.removeItem(at: registry.deletingLastPathComponent())
        }
        let nginx = try Nginx(root: registry, serverConfig: "gzip_static on;")
        defer { nginx.stop() }
        let transport = CurlTransport(settings: fastTransferSettings)
        let plain = try Data(contentsOf: registry.appendingPathComponent("index.json"))
        let gzipped = try Data(contentsOf: registry.appendingPathComponent("index.json.gz"))
        let first = try transport.get(HTTPRequest(url: nginx.url("index.json")))
        #expect(first.status == 200)
        #expect(first.body == plain)
        let etag = try #require(first.etag)
        let second = try transport.get(HTTPRequest(url: nginx.url("index.json"), ifNoneMatch: etag))
        #expect(second.status == 304 && second.body.isEmpty)
        let requests = nginx.requests(atLeast: 2)
        #expect(requests.map(\.summary) == ["GET /index.json 200", "GET /index.json 304"])
        // The combined log's fields after the request: status, then body bytes sent.
        #expect(requests.first.map { [$0.status, $0.bytes] } == ["200", "\(gzipped.count)"], "\(requests)")
        #expect(gzipped.count * 2 < plain.count)
    }
}
