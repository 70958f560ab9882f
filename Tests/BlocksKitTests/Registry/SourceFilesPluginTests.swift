import Foundation
import Testing

@testable import BlocksKit

/// A source plugin that answers one file at a time (`source-files`): the Python program
/// docs/PLUGINS.md prints, read from the page, serving a registry `blocks build` wrote into
/// a folder that stands for a company's artifact store.
@Suite(.serialized) struct SourceFilesPluginTests {
    let folder: URL
    let store: URL
    let bin: URL
    let cache: URL
    let log: URL
    let project: TestProject

    init() throws {
        folder = try TestProject.temporaryFolder("source-files")
        store = folder.appendingPathComponent("store")
        bin = folder.appendingPathComponent("bin")
        cache = folder.appendingPathComponent("cache")
        log = folder.appendingPathComponent("requests.log")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        project = try TestProject.make()
    }

    func delete() {
        project.delete()
        try? FileManager.default.removeItem(at: folder)
    }

    var environment: [String: String] {
        ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME": cache.path, "XDG_CACHE_HOME": cache.path]
    }

    /// The docs' plugin, serving `store`, with one line added that logs each request (and a
    /// part's path).
    func installDocumentedPlugin() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/PLUGINS.md"), encoding: .utf8)
        let start = try #require(page.range(of: "A whole plugin in Python, serving"))
        let fenced = try #require(page[start.upperBound...].range(of: "```python\n"))
        let end = try #require(page[fenced.upperBound...].range(of: "```\n"))
        var program = String(page[fenced.upperBound..<end.lowerBound])
        #expect(program.contains("STORE = \"/srv/blocks-registry\""))
        program = program.replacingOccurrences(of: "STORE = \"/srv/blocks-registry\"", with: "STORE = \"\(store.path)\"")
        program = program.replacingOccurrences(
            of: "kind = request[\"request\"]\n",
            with: "kind = request[\"request\"]\nopen(\"\(log.path)\", \"a\").write(\" \".join(x for x in [kind, request.get(\"name\"), request.get(\"version\"), request.get(\"path\") if kind == \"part\" else None] if x) + \"\\n\")\n")
        try write(program, as: "blocks-plugin-company")
    }

    func write(_ program: String, as name: String) throws {
        let file = bin.appendingPathComponent(name)
        try Data(program.utf8).write(to: file)
        chmod(file.path, 0o755)
    }

    /// `blocks build` of `blocks` into the store, signed with `key` when given.
    func publish(_ blocks: [TestCatalog.Block], key: URL? = nil) throws {
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        let sign = key.map { ["--sign", $0.appendingPathComponent("blocks.key").path] } ?? []
        let built = try runBinary(["build", "--catalog", catalog.root.path, "--out", store.path] + sign)
        #expect(built.code == 0, "\(built.err)")
    }

    /// The requests the plugin logged since the last call.
    func requests() throws -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: log)
        return text.split(separator: "\n").map(String.init)
    }

    @Test func theDocumentedPluginServesSearchAddUpdateOfflineAndTheMirror() throws {
        defer { delete() }
        try installDocumentedPlugin()
        try publish([.standard("pager", type: "Pager"), .standard("strip", type: "Strip")])

        let search = project.run(["search", "pager", "--registry", "company://team"], environment: environment)
        #expect(search.code == 0 && search.output.contains("pager"), "\(search.errors)")
        #expect(try requests() == ["capabilities", "index"])

        let added = project.run(["add", "pager", "--registry", "company://team"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(project.exists("Sources/App/Blocks/pager/PagerLogic.swift"))
        #expect(try project.lock().blocks["pager"]?.registry == "company://team")
        // An unsigned registry's add reads no index: the metadata file names the archive.
        #expect(try requests() == ["capabilities", "metadata pager", "archive pager 1.0.0"])

        // The archive is in the cache with the SHA-256 the metadata names: not asked again.
        let again = project.run(["add", "pager", "--registry", "company://team", "--overwrite"], environment: environment)
        #expect(again.code == 0, "\(again.errors)")
        #expect(try requests() == ["capabilities", "metadata pager"])

        try publish([.standard("pager", type: "Pager", version: "1.1.0"), .standard("strip", type: "Strip")])
        let updated = project.run(["update", "pager"], environment: environment)
        #expect(updated.code == 0, "\(updated.errors)")
        #expect(try project.lock().blocks["pager"]?.version == "1.1.0")
        #expect(try requests().contains("archive pager 1.1.0"))

        // Offline, the plugin is never started: this one would log and fail.
        try write("#!/bin/sh\necho started >> '\(log.path)'\nexit 1\n", as: "blocks-plugin-company")
        let offline = project.run(["list", "--registry", "company://team", "--offline"], environment: environment)
        #expect(offline.code == 0 && offline.output.contains("strip"), "\(offline.errors)")
        #expect(try requests() == [])

        try installDocumentedPlugin()
        let mirror = folder.appendingPathComponent("mirror")
        let mirrored = project.run(["mirror", "company://team", mirror.path], environment: environment)
        #expect(mirrored.code == 0, "\(mirrored.errors)")
        for path in ["index.json", "blocks/strip.json", "archives/pager-1.0.0.tar.gz", "archives/pager-1.1.0.tar.gz", "archives/strip-1.0.0.zip"] {
            #expect(
                FileManager.default.contents(atPath: mirror.appendingPathComponent(path).path) == FileManager.default.contents(atPath: store.appendingPathComponent(path).path),
                "\(path)")
        }
        // Nothing half-written stays in the cache.
        let sources = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("blocks/sources").path)
        for kept in sources {
            let inside = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("blocks/sources/\(kept)").path)
            #expect(!inside.contains { $0.hasPrefix(".incoming-") }, "\(inside)")
        }
    }

    @Test func aSignedRegistryIsCheckedThroughThePlugin() throws {
        defer { delete() }
        try installDocumentedPlugin()
        let keys = folder.appendingPathComponent("keys")
        let publicKey = try keygenPublicKey(into: keys)
        try publish([.standard("pager", type: "Pager")], key: keys)
        try project.write("blocks.json", "{\"registry\": \"company://team\", \"keys\": [\"\(publicKey)\"]}\n")

        let added = project.run(["add", "pager"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")

        // The store's metadata changes under a signed index: refused, nothing written.
        let metadata = store.appendingPathComponent("blocks/pager.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "A test block.", with: "A forged block.").utf8).write(to: metadata)
        let before = try project.treeHash()
        let forged = project.run(["add", "pager", "--overwrite"], environment: environment)
        #expect(forged.code != 0)
        #expect(forged.errors.contains("blocks/pager.json"), "\(forged.errors)")
        #expect(try project.treeHash() == before)
    }

    /// A plugin that answers `request` as `answer` says (a shell `case` arm), and every
    /// other request as the documented plugin would.
    func installHostile(answering request: String, with arm: String) throws {
        try write(
            """
            #!/bin/sh
            request=$(cat)
            case "$request" in
            *'"request":"capabilities"'*) echo '{"protocolVersion": 1, "capabilities": ["source-files"]}' ;;
            *'"request":"\(request)"'*) \(arm) ;;
            *) echo "$request" | python3 '\(bin.appendingPathComponent("documented").path)' ;;
            esac
            """, as: "blocks-plugin-company")
    }

    @Test func hostileAnswersAreOneClearErrorAndWriteNothing() throws {
        defer { delete() }
        try installDocumentedPlugin()
        try FileManager.default.moveItem(at: bin.appendingPathComponent("blocks-plugin-company"), to: bin.appendingPathComponent("documented"))
        try publish([.standard("pager", type: "Pager")])
        let folderOf = #"folder=$(echo "$request" | sed 's/.*"folder":"\([^"]*\)".*/\1/'); "#
        // `add` reads no index from an unsigned registry, so the index cases search.
        let add = ["add", "pager", "--registry", "company://team"]
        let search = ["search", "pager", "--registry", "company://team"]
        let cases: [(request: String, arm: String, command: [String], message: String)] = [
            ("metadata", #"echo '{"protocolVersion": 1, "path": "../../../../outside.json"}'"#, add, "has no \"path\" inside the folder it was given"),
            ("index", folderOf + #"ln -s /etc/passwd "$folder/index.json"; echo '{"protocolVersion": 1, "path": "index.json"}'"#, search, "is not a file it wrote"),
            ("archive", folderOf + #"printf 'not the archive' > "$folder/a"; echo '{"protocolVersion": 1, "path": "a"}'"#, add, "was expected; nothing was written"),
            ("metadata", #"echo '{"protocolVersion": 1, "missing": true}'"#, add, "no block named 'pager'"),
            // A link on the way to the answered file, to a folder of the user's.
            ("metadata", folderOf + #"ln -s "$HOME" "$folder/d"; echo '{"protocolVersion": 1, "path": "d/victim.json"}'"#, add, "is not a file it wrote"),
            // 17 MB, sparse: over the 16 MB a metadata file may have.
            ("metadata", folderOf + #"truncate -s 17M "$folder/m"; echo '{"protocolVersion": 1, "path": "m"}'"#, add, "over the 16777216 a registry's file may have"),
            ("index", #"echo '{"protocolVersion": 1, "error": {"message": "the store is down"}}'"#, search, "the store is down"),
        ]
        let before = try project.treeHash()
        // The file the link case names: it must stay where it is.
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let victim = cache.appendingPathComponent("victim.json")
        for (request, arm, command, message) in cases {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: victim)
            try installHostile(answering: request, with: arm)
            let result = project.run(command, environment: environment)
            #expect(result.code == 1, "\(request): \(result.output)")
            #expect(result.errors.contains(message), "\(request) → \(message): \(result.errors)")
            #expect(try project.treeHash() == before)
            #expect(FileManager.default.fileExists(atPath: victim.path), "\(request): the user's file was moved")
            // Whatever was half-fetched, the next good run starts clean.
            try? FileManager.default.removeItem(at: cache)
        }
    }

    @Test func requestsAndAnswersMatchTheirSchemas() throws {
        defer { delete() }
        let schemas = SchemaFilesTests()
        let requests: [RegistryFileRequest] = [
            .index, .metadata(name: "pager"), .archive(name: "pager", version: "1.0.0", path: "archives/pager-1.0.0.tar.gz"),
            .part(path: "index/" + SHA256.hex("part") + ".json"),
        ]
        for (position, request) in requests.enumerated() {
            let file = folder.appendingPathComponent("request-\(position).json")
            try Data(StableJSONWriter.line(PluginProtocol.fileRequest(request, location: "company://team", folder: "/tmp/x"))).write(to: file)
            #expect(try schemas.problems(file, schema: "plugin-request") == [], "\(request)")
        }
        let answers = [
            #"{"protocolVersion": 1, "path": "index.json", "signature": "index.json.minisig"}"#, #"{"protocolVersion": 1, "path": "pager.json"}"#,
            #"{"protocolVersion": 1, "missing": true}"#,
        ]
        for (position, answer) in answers.enumerated() {
            let file = folder.appendingPathComponent("answer-\(position).json")
            try Data(answer.utf8).write(to: file)
            #expect(try schemas.problems(file, schema: "plugin-response") == [], "\(answer)")
        }
        // The schemas can fail: an archive request without its version, a part outside
        // `index/`, and `missing: false`.
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"folder": "/x", "location": "company://team", "path": "../index.json", "protocolVersion": 1, "request": "part"}"#.utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "plugin-request").isEmpty)
        try Data(#"{"folder": "/x", "location": "company://team", "name": "pager", "path": "archives/pager-1.0.0.tar.gz", "protocolVersion": 1, "request": "archive"}"#.utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "plugin-request").isEmpty)
        try Data(#"{"protocolVersion": 1, "missing": false}"#.utf8).write(to: bad)
        #expect(try !schemas.problems(bad, schema: "plugin-response").isEmpty)
    }

    @Test func aKilledRunsRequestFolderIsRemovedOnceItIsOld() throws {
        defer { delete() }
        let files = folder.appendingPathComponent("files")
        let old = files.appendingPathComponent(PluginFileSupplier.requestFolderPrefix + "old")
        let young = files.appendingPathComponent(PluginFileSupplier.requestFolderPrefix + "young")
        let kept = files.appendingPathComponent("index.json")
        for made in [old, young] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try Data("{}".utf8).write(to: kept)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: old.path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: kept.path)
        PluginFileSupplier.removeAbandonedRequests(in: files)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: young.path), "another command's request folder")
        #expect(FileManager.default.fileExists(atPath: kept.path), "a fetched file")
    }

    /// A split index comes part by part: search asks for the index and then the parts it
    /// reads, each once (a second search asks for the index alone); `add` of a pinned
    /// registry the digest file too; and the mirror gets every file the store holds.
    @Test func aSplitIndexIsServedPartByPart() throws {
        defer { delete() }
        try installDocumentedPlugin()
        let keys = folder.appendingPathComponent("keys")
        let publicKey = try keygenPublicKey(into: keys)
        let catalog = try TestCatalog.make([.standard("pager", type: "Pager"), .standard("strip", type: "Strip")])
        defer { catalog.delete() }
        let built = try runBinary(
            ["build", "--catalog", catalog.root.path, "--out", store.path, "--split-index", "--sign", keys.appendingPathComponent("blocks.key").path])
        #expect(built.code == 0, "\(built.err)")
        let index = try RegistryIndex.decode(try Data(contentsOf: store.appendingPathComponent("index.json")), location: "store")
        let layout = try #require(index.split)
        let searched = Set(([layout.dictionary] + layout.ranges.map(\.file)).map { "part " + $0.path })

        let search = project.run(["search", "strip", "--registry", "company://team"], environment: environment)
        #expect(search.code == 0 && search.output.contains("strip"), "\(search.errors)")
        var asked = try requests()
        #expect(Array(asked.prefix(2)) == ["capabilities", "index"] && Set(asked.dropFirst(2)) == searched, "\(asked)")
        #expect(asked.count == 2 + searched.count, "each part once: \(asked)")
        let again = project.run(["search", "pager", "--registry", "company://team"], environment: environment)
        #expect(again.code == 0 && again.output.contains("pager"), "\(again.errors)")
        #expect(try requests() == ["capabilities", "index"])

        try project.write("blocks.json", "{\"registry\": \"company://team\", \"keys\": [\"\(publicKey)\"]}\n")
        let added = project.run(["add", "pager"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        asked = try requests()
        #expect(asked.contains("part " + (layout.digestFile(for: "pager")?.file.path ?? "?")), "\(asked)")
        #expect(asked.contains("archive pager 1.0.0"), "\(asked)")

        let mirror = folder.appendingPathComponent("mirror")
        let mirrored = project.run(["mirror", "company://team", mirror.path], environment: environment)
        #expect(mirrored.code == 0, "\(mirrored.errors)")
        let held = try SplitIndexTests.files(in: mirror)
        for (path, hash) in try SplitIndexTests.files(in: store) { #expect(held[path] == hash, "\(path)") }
    }
}

