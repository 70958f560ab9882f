import Foundation
import Testing

@testable import BlocksKit

/// `blocks build`, `blocks export` and every registry source, with real archives and a real nginx.
@Suite struct RegistryBuildTests {
    func run(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
        var environment = environment
        environment["XDG_CACHE_HOME"] = folder.path("cache").path
        environment["SOURCE_DATE_EPOCH"] = environment["SOURCE_DATE_EPOCH"] ?? "1790000000"
        return runBlocks(arguments, in: folder.url, environment: environment)
    }

    func shell(_ command: String, in directory: URL) throws -> (code: Int32, out: String) {
        let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory)
        return (result.code, result.out + result.err)
    }

    @Test func buildOfTheRealCatalogIsCompleteAndReproducible() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let first = run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "one"], in: folder)
        #expect(first.code == 0, "\(first.err)")
        #expect(first.out.contains("9 written"))
        // A second build elsewhere, in another time zone, gives the same bytes.
        let other = try shell(
            "TZ=Asia/Tokyo SOURCE_DATE_EPOCH=1790000000 XDG_CACHE_HOME=\(folder.path("cache").path) \(blocksBinary.path) build --catalog \(repositoryRoot.appendingPathComponent("Catalog").path) --out two",
            in: folder.url)
        #expect(other.code == 0, "\(other.out)")
        #expect(filesUnder(folder.path("one")) == filesUnder(folder.path("two")))
        for file in filesUnder(folder.path("one")) {
            #expect(
                FileManager.default.contents(atPath: folder.path("one/\(file)").path) == FileManager.default.contents(atPath: folder.path("two/\(file)").path),
                "\(file) differs")
        }
        let index = try RegistryIndex.decode(Data(contentsOf: folder.path("one/index.json")), location: "one")
        #expect(
            index.blocks.map(\.manifest.name) == [
                "adaptive-tabs", "floating-tab-bar", "pager", "picker-pages", "scrolling-strip", "search-tab-view",
                "segmented-pill", "sticky-header-tabs", "top-tabs",
            ])
        for entry in index.blocks {
            #expect(entry.archives.keys.sorted() == ["tar.gz", "zip"])
            for archive in entry.archives.values {
                let data = try Data(contentsOf: folder.path("one/\(archive.path)"))
                #expect(SHA256.hex(data) == archive.sha256)
                #expect(Int64(data.count) == archive.size)
            }
            let metadata = try RegistryEntry.decode(metadata: Data(contentsOf: folder.path("one/\(entry.metadata)")))
            #expect(metadata == entry)
        }
    }

    @Test func archivesAreReadByBsdtarUnzipAndPython() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"], in: folder).code == 0)
        let tar = try shell("bsdtar -tvf public/archives/pager-1.0.0.tar.gz", in: folder.url)
        #expect(tar.code == 0)
        #expect(tar.out.contains("pager-1.0.0/LICENSE"))
        #expect(tar.out.contains("pager-1.0.0/block.json"))
        #expect(tar.out.contains("pager-1.0.0/PagerLogic.swift"))
        let zipList = try shell("unzip -l public/archives/pager-1.0.0.zip && unzip -t public/archives/pager-1.0.0.zip", in: folder.url)
        #expect(zipList.code == 0)
        #expect(zipList.out.contains("No errors detected"))
        let python = try shell(
            """
            python3 -c 'import tarfile, zipfile, sys
            t = tarfile.open("public/archives/pager-1.0.0.tar.gz")
            names = t.getnames()
            assert all(n == "pager-1.0.0" or n.startswith("pager-1.0.0/") for n in names), names
            body = t.extractfile("pager-1.0.0/PagerLogic.swift").read().decode()
            assert body.startswith("// SPDX-License-Identifier: MIT\\n// Copyright (c) 2026 "), body[:80]
            assert body.count("SPDX-License-Identifier") == 1
            z = zipfile.ZipFile("public/archives/pager-1.0.0.zip")
            assert z.testzip() is None
            assert sorted(z.namelist()) == sorted(n + ("/" if t.getmember(n).isdir() else "") for n in names), (z.namelist(), names)
            print("ok")'
            """, in: folder.url)
        #expect(python.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(python.out)")
    }

    /// A block folder copied without renaming the block: the build names the mismatch.
    @Test func aCopiedFolderWhoseManifestKeptItsNameFailsTheBuildSayingSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog"), to: folder.path("catalog"))
        try FileManager.default.copyItem(at: folder.path("catalog/pager"), to: folder.path("catalog/pager-copy"))
        let build = run(["build", "--catalog", "catalog", "--out", "public"], in: folder)
        #expect(build.code == 1)
        #expect(build.err.contains("pager-copy/block.json: name: 'pager' differs from its folder 'pager-copy'"), "\(build.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("public").path))
    }

    @Test func rebuildLeavesUnchangedBlocksAndRefusesChangedPublishedVersions() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 3)
        #expect(run(["build", "--catalog", catalog.path, "--out", "public"], in: folder).code == 0)
        let archive = folder.path("public/archives/block-0001-1.0.0.tar.gz")
        let stamp = MirrorState.stamp(archive)
        let indexStamp = MirrorState.stamp(folder.path("public/index.json"))
        // A new year changes headers, but an unchanged block keeps its published archive.
        let again = run(["build", "--catalog", catalog.path, "--out", "public", "--json"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1830000000"])
        #expect(again.code == 0)
        #expect(again.out.contains("\"unchanged\" : [\n    \"block-0000\""))
        #expect(MirrorState.stamp(archive)?.modified == stamp?.modified)
        // Nothing changed, so index.json is the same file: its ETag, and mirrors' 304s, hold.
        #expect(indexStamp != nil && MirrorState.stamp(folder.path("public/index.json"))?.modified == indexStamp?.modified)

        // The tool itself, not only the library in this process, sees the archives intact.
        let binary = try runBinary(
            ["build", "--catalog", catalog.path, "--out", folder.path("public").path], in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
        #expect(binary.code == 0 && binary.out.contains("0 written, 3 unchanged"), "\(binary.out) \(binary.err)")

        try folder.write("Catalog/block-0001/Block0001.swift", "struct Changed {}\n")
        let refused = run(["build", "--catalog", catalog.path, "--out", "public"], in: folder)
        #expect(refused.code == 1)
        #expect(refused.err.contains("block-0001 1.0.0 is already published with different content; bump its version"))
        #expect(MirrorState.stamp(archive)?.modified == stamp?.modified)

        try folder.write("Catalog/block-0001/block.json", sampleManifestJSON(name: "block-0001", version: "1.0.1", files: [("Block0001.swift", "component")]))
        let bumped = run(["build", "--catalog", catalog.path, "--out", "public"], in: folder)
        #expect(bumped.code == 0, "\(bumped.err)")
        #expect(FileManager.default.fileExists(atPath: folder.path("public/archives/block-0001-1.0.1.zip").path))
        #expect(FileManager.default.fileExists(atPath: archive.path))  // the old version stays published

        // Back to 1.0.0: the index would list an older version as the newest.
        try folder.write("Catalog/block-0001/block.json", sampleManifestJSON(name: "block-0001", version: "1.0.0", files: [("Block0001.swift", "component")]))
        let back = run(["build", "--catalog", catalog.path, "--out", "public"], in: folder)
        #expect(back.code == 1 && back.err.contains("block-0001 1.0.0 is older than its published 1.0.1"), "\(back.err)")
        try folder.write("Catalog/block-0001/block.json", sampleManifestJSON(name: "block-0001", version: "1.0.1", files: [("Block0001.swift", "component")]))

        // A damaged archive of an unchanged block is called damaged, not changed.
        let other = folder.path("public/archives/block-0002-1.0.0.tar.gz")
        try Data("truncated".utf8).write(to: other)
        let damaged = run(["build", "--catalog", catalog.path, "--out", "public"], in: folder)
        #expect(damaged.code == 1)
        #expect(damaged.err.contains("block-0002-1.0.0.tar.gz is damaged"), "\(damaged.err)")
        try FileManager.default.removeItem(at: other)
        #expect(run(["build", "--catalog", catalog.path, "--out", "public"], in: folder).code == 0)
        #expect((try? Archives.read(other)) != nil)
    }

    @Test func exportHoldsHeadersLicenseAndAChecksummedManifest() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let contradicted = run(["export", "pager", "--format", "zip", "-o", "tabs.tar.gz"], in: folder)
        #expect(contradicted.code == 64 && contradicted.err.contains("a name ending in .zip"), "\(contradicted.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("tabs.tar.gz").path))
        for format in ["zip", "tar.gz"] {
            let result = run(["export", "scrolling-strip", "pager", "-o", "tabs.\(format)"], in: folder)
            #expect(result.code == 0, "\(result.err)")
            let check = try shell(
                """
                python3 -c 'import tarfile, zipfile, json, hashlib
                name = "tabs.\(format)"
                if name.endswith(".zip"):
                    z = zipfile.ZipFile(name); read = lambda n: z.read(n); names = z.namelist()
                else:
                    t = tarfile.open(name); read = lambda n: t.extractfile(n).read(); names = t.getnames()
                manifest = json.loads(read("tabs/manifest.json"))
                assert [b["name"] for b in manifest["blocks"]] == ["pager", "scrolling-strip"]
                for block in manifest["blocks"]:
                    for f in block["files"]:
                        assert hashlib.sha256(read("tabs/" + f["path"])).hexdigest() == f["sha256"], f
                assert "MIT License" in read("tabs/LICENSE").decode()
                assert read("tabs/pager/PagerLogic.swift").decode().startswith("// SPDX-License-Identifier: MIT")
                assert "tabs/README.md" in names
                print("ok")'
                """, in: folder.url)
            #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check.out)")
        }
        #expect(run(["export", "pager", "-o", "x.rar"], in: folder).code == 64)
        #expect(run(["export", "nope", "-o", "x.zip"], in: folder).err.contains("no block named 'nope'"))
    }
}

@Suite struct RegistrySourceTests {
    func run(_ arguments: [String], in folder: TemporaryFolder, directory: URL? = nil) -> (code: Int32, out: String, err: String) {
        runBlocks(arguments, in: directory ?? folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path, "SOURCE_DATE_EPOCH": "1790000000"])
    }

    /// A generated catalog in `folder`, built into `public/` and served by a fresh nginx.
    func servedRegistry(in folder: TemporaryFolder, blocks: Int) throws -> (catalog: URL, nginx: Nginx) {
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: blocks)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        return (catalog, try Nginx(root: folder.path("public")))
    }

    @Test func everySourceServesSearchListInfoAndAdd() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"], in: folder).code == 0)
        #expect(run(["export", "pager", "scrolling-strip", "-o", "tabs.zip"], in: folder).code == 0)
        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }
        let registries = [
            folder.path("public").path,
            "file://" + folder.path("public").path,
            nginx.baseURL + "/",
            repositoryRoot.appendingPathComponent("Catalog").path,
            folder.path("tabs.zip").path,
        ]
        for registry in registries {
            let list = run(["--registry", registry, "list"], in: folder)
            #expect(list.code == 0 && list.out.contains("pager"), "\(registry): \(list.err)")
            let search = run(["--registry", registry, "search", "pestanas", "--json"], in: folder)
            #expect(search.out.contains("\"name\" : \"scrolling-strip\""), "\(registry)")
            let info = run(["--registry", registry, "info", "pager"], in: folder)
            #expect(info.code == 0 && info.out.contains("PagerLogic.swift"), "\(registry): \(info.err)")
            let project = try makeProject(in: folder)
            let add = run(["--registry", registry, "add", "pager", "--yes"], in: folder, directory: project)
            #expect(add.code == 0, "\(registry): \(add.err)")
            let written = folder.read("app/Sources/App/Blocks/pager/PagerLogic.swift") ?? ""
            #expect(written.components(separatedBy: "SPDX-License-Identifier").count == 2, "\(registry): one header")
            try FileManager.default.removeItem(at: project)
        }
    }

    /// The registry `blocks init` saved is the one every reading command uses, from any
    /// folder of the project, unless `--registry` says otherwise.
    @Test func everyCommandReadsTheRegistrySavedByInit() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["export", "pager", "scrolling-strip", "-o", "tabs.zip"], in: folder).code == 0)
        let project = try makeProject(in: folder)
        #expect(run(["--registry", folder.path("tabs.zip").path, "init"], in: folder, directory: project).code == 0)
        let inside = project.appendingPathComponent("Sources/App")
        let list = run(["list", "--json"], in: folder, directory: inside)
        #expect(list.code == 0 && list.out.contains("\"pager\"") && !list.out.contains("top-tabs"), "\(list.out)\(list.err)")
        #expect(run(["search", "pestanas"], in: folder, directory: inside).out.contains("scrolling-strip"))
        #expect(run(["info", "top-tabs"], in: folder, directory: inside).code == 1)
        #expect(run(["info", "pager"], in: folder, directory: inside).code == 0)
        #expect(run(["export", "scrolling-strip", "-o", folder.path("one.zip").path], in: folder, directory: inside).code == 0)
        #expect(run(["export", "top-tabs", "-o", folder.path("two.zip").path], in: folder, directory: inside).code == 1)
        // --registry still wins over the saved one.
        #expect(run(["--registry", "embedded", "info", "top-tabs"], in: folder, directory: inside).code == 0)
    }

    /// `file://` URLs as browsers and `curl` write them: percent escapes, or `localhost`.
    @Test func fileURLsAreDecoded() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "sp ace/régistry"], in: folder).code == 0)
        let path = folder.path("sp ace/régistry").path
        let encoded = "file://" + path.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "é", with: "%C3%A9")
        #expect(encoded.contains("%20") && encoded.contains("%C3%A9"))
        for location in [encoded, "file://localhost" + path, "file://" + path, "FILE://" + path] {
            let list = run(["--registry", location, "list"], in: folder)
            #expect(list.code == 0 && list.out.contains("pager"), "\(location): \(list.err)")
        }
        let ftp = run(["--registry", "ftp://example.com/registry", "list"], in: folder)
        #expect(ftp.code == 1 && ftp.err.contains("ftp:// is not supported"), "\(ftp.err)")
        let remote = run(["--registry", "file://example.com" + path, "list"], in: folder)
        #expect(remote.code == 1 && remote.err.contains("names a path on this machine"), "\(remote.err)")
        #expect(PercentEncoding.decoded("a%2Fb%zz%4") == "a/b%zz%4")
        #expect(PercentEncoding.decoded("%FF") == nil)
    }

    @Test func addFromAnArchiveFileOrURL() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["export", "top-tabs", "-o", "public/top.tar.gz"], in: folder).code == 0)
        let project = try makeProject(in: folder)
        let misplaced = run(["add", "top-tabs", "--sha256", String(repeating: "0", count: 64), "--yes"], in: folder, directory: project)
        #expect(misplaced.code == 64 && misplaced.err.contains("--sha256 does not apply here"), "\(misplaced.err)")
        let local = run(["add", folder.path("public/top.tar.gz").path, "--yes"], in: folder, directory: project)
        #expect(local.code == 0, "\(local.err)")
        #expect(folder.read("app/Sources/App/Blocks/top-tabs/TopTabsLogic.swift")?.hasPrefix("// SPDX-License-Identifier: MIT") == true)

        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }
        let checksum = try SHA256.hex(fileAt: folder.path("public/top.tar.gz"))
        let other = try makeProject(in: TemporaryFolder())
        // A URL that is no registry: the index's 404 is the error, not "no block named".
        let nowhere = run(["--registry", nginx.baseURL + "/", "info", "pager"], in: folder)
        #expect(nowhere.code == 1 && nowhere.err.contains("index.json") && nowhere.err.contains("404"), "\(nowhere.err)")
        let unchecked = run(["add", nginx.url("top.tar.gz"), "--yes"], in: folder, directory: other)
        #expect(unchecked.code == 64 && unchecked.err.contains("--sha256 <hex> is required here"), "\(unchecked.err)")
        let wrong = run(["add", nginx.url("top.tar.gz"), "--sha256", String(repeating: "0", count: 64), "--yes"], in: folder, directory: other)
        #expect(wrong.code == 1)
        #expect(wrong.err.contains("SHA-256"))
        #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("Sources/App/Blocks").path))
        #expect(filesUnder(folder.path("cache")).filter { $0.hasPrefix("archives/") }.isEmpty)
        let right = run(["add", nginx.url("top.tar.gz"), "--sha256", checksum, "--yes"], in: folder, directory: other)
        #expect(right.code == 0, "\(right.err)")
        #expect(FileManager.default.fileExists(atPath: other.appendingPathComponent("Sources/App/Blocks/top-tabs/TopTabs.swift").path))
        // The lock names the address the user gave, not the machine's cache.
        let lock = try Lockfile.read(root: other)
        #expect(lock.blocks["top-tabs"]?.registry == nginx.url("top.tar.gz"))
    }

    /// A block's name becomes a folder in the project, so an archive whose manifest calls a
    /// block `../../../.git/hooks` is refused by every command, and `add` writes nothing.
    @Test func anArchiveWhoseBlockNameLeavesItsFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["export", "pager", "-o", "pager.tar.gz"], in: folder).code == 0)
        let exported = try Archives.read(folder.path("pager.tar.gz"))
        let manifest = try #require(exported.files["pager/block.json"])
        let renamed = String(decoding: manifest, as: UTF8.self)
            .replacingOccurrences(of: "\"name\" : \"pager\"", with: "\"name\" : \"../../../.git/hooks\"")
        #expect(renamed.contains(".git/hooks"))
        var entries = exported.files.map { ArchiveEntry(path: exported.topFolder + "/" + $0.key, data: $0.value) }
        entries.removeAll { $0.path.hasSuffix("/pager/block.json") }
        entries.append(ArchiveEntry(path: exported.topFolder + "/pager/block.json", data: Data(renamed.utf8)))
        try Archives.write(entries, format: .tarGzip, to: folder.path("evil.tar.gz"))

        let project = try makeProject(in: folder)
        try FileManager.default.createDirectory(at: project.appendingPathComponent(".git/hooks"), withIntermediateDirectories: true)
        let before = try FileManager.default.subpathsOfDirectory(atPath: project.path).sorted()
        let add = run(["add", folder.path("evil.tar.gz").path, "--yes"], in: folder, directory: project)
        #expect(add.code == 1)
        #expect(add.err.contains("'../../../.git/hooks' must match"), "\(add.err)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: project.path).sorted() == before)
        let list = run(["--registry", folder.path("evil.tar.gz").path, "list"], in: folder)
        #expect(list.code == 1 && !list.out.contains(".git"), "\(list.out)")
    }

    @Test func httpIndexIsCachedWithETagAndOfflineUsesTheCache() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"], in: folder).code == 0)
        let nginx = try Nginx(root: folder.path("public"))
        #expect(run(["--registry", nginx.baseURL, "list"], in: folder).code == 0)
        #expect(run(["--registry", nginx.baseURL, "list"], in: folder).code == 0)
        let requests = nginx.requests(atLeast: 2).map(\.summary)
        #expect(requests == ["GET /index.json 200", "GET /index.json 304"])
        let project = try makeProject(in: folder)
        #expect(run(["--registry", nginx.baseURL, "add", "pager", "--yes", "--no-demo"], in: folder, directory: project).code == 0)
        nginx.stop()
        try FileManager.default.removeItem(at: project)
        let again = try makeProject(in: folder)
        let offlineAdd = run(["--registry", nginx.baseURL, "--offline", "add", "pager", "--yes", "--no-demo"], in: folder, directory: again)
        #expect(offlineAdd.code == 0, "\(offlineAdd.err)")
        #expect(FileManager.default.fileExists(atPath: again.appendingPathComponent("Sources/App/Blocks/pager/Pager.swift").path))
        let notCached = run(["--registry", nginx.baseURL, "--offline", "add", "top-tabs", "--yes"], in: folder, directory: again)
        #expect(notCached.code == 1 && notCached.err.contains("--offline"), "\(notCached.err)")
        let offline = run(["--registry", nginx.baseURL, "--offline", "search", "pager"], in: folder)
        #expect(offline.code == 0 && offline.out.contains("pager"))
        let noCache = runBlocks(["--registry", nginx.baseURL, "--offline", "list"], in: folder.url, environment: ["XDG_CACHE_HOME": folder.path("empty").path])
        #expect(noCache.code == 1 && noCache.err.contains("--offline"))
        let down = run(["--registry", nginx.baseURL, "list"], in: folder)
        #expect(down.code == 1)
        #expect(down.err.contains(nginx.baseURL + "/index.json"))
    }

    @Test func metadataOfEveryAddedBlockIsOneCacheFileThatOfflineAddsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"], in: folder).code == 0)
        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }
        let first = try makeProject(in: folder)
        #expect(run(["--registry", nginx.baseURL, "add", "pager", "--yes"], in: folder, directory: first).code == 0)
        try FileManager.default.removeItem(at: first)
        let second = try makeProject(in: folder)
        #expect(run(["--registry", nginx.baseURL, "add", "top-tabs", "scrolling-strip", "--yes"], in: folder, directory: second).code == 0)
        try FileManager.default.removeItem(at: second)
        let cached = filesUnder(folder.path("cache"))
        #expect(cached.filter { $0.contains("metadata-") }.count == 1, "\(cached)")
        #expect(cached.filter { $0.contains("archives/") }.count == 3, "\(cached)")
        #expect(!cached.contains { $0.hasSuffix(".part") || $0.hasSuffix(".tmp") }, "\(cached)")
        nginx.stop()
        let offline = try makeProject(in: folder)
        // Offline, nothing is fetched, so libcurl is not even loaded (the loader's log says).
        let add = try runBinary(
            ["--registry", nginx.baseURL, "--offline", "add", "pager", "top-tabs", "scrolling-strip", "--yes"], in: offline,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "XDG_CACHE_HOME": folder.path("cache").path, "LD_DEBUG": "files"])
        #expect(add.code == 0, "\(add.err)")
        if HostTools.hasLoaderLog { #expect(add.err.contains("libarchive.so") && !add.err.contains("libcurl")) }
        for file in ["pager/Pager.swift", "top-tabs/TopTabs.swift", "scrolling-strip/ScrollingStrip.swift"] {
            #expect(FileManager.default.fileExists(atPath: offline.appendingPathComponent("Sources/App/Blocks/" + file).path), "\(file)")
        }
    }

    @Test func manyArchivesAreReadInParallelInOrderAndTheFirstFailureWins() throws {
        struct Failure: Error, Equatable { let item: Int }
        let items = Array(0..<40)
        #expect(try BuiltRegistrySource.inParallel(items) { $0 * 2 } == items.map { $0 * 2 })
        #expect(throws: Failure(item: 7)) {
            try BuiltRegistrySource.inParallel(items) { item -> Int in
                if item == 7 || item == 31 { throw Failure(item: item) }
                return item
            }
        }
    }

    @Test func aTamperedArchiveInAFolderRegistryIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(run(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"], in: folder).code == 0)
        try Data("tampered".utf8).write(to: folder.path("public/archives/pager-1.0.0.tar.gz"))
        let project = try makeProject(in: folder)
        let add = run(["--registry", folder.path("public").path, "add", "pager", "--yes"], in: folder, directory: project)
        #expect(add.code == 1)
        #expect(add.err.contains("public/archives/pager-1.0.0.tar.gz has bytes with SHA-256"), "\(add.err)")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("Sources/App/Blocks").path))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("blocks.lock").path))
    }

    @Test func aBrokenIndexNamesTheProblem() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("public/index.json", "{\"schemaVersion\": 1, \"blocks\": [{\"name\": \"x\"}]}")
        let result = run(["--registry", folder.path("public").path, "list"], in: folder)
        #expect(result.code == 1)
        #expect(result.err.contains("broken index"))
        #expect(result.err.contains("blocks[0]"))
        try folder.write("public/index.json", "{\"schemaVersion\": 1, \"blocks\": []}")
        #expect(run(["--registry", folder.path("public").path, "list"], in: folder).code == 0)
    }
}
