import Foundation
import Testing

@testable import BlocksKit

/// A signed registry served by a real nginx, built and signed by the real binary with
/// keys from `blocks keygen`, and a project that pins the key in blocks.json. Attacks
/// are played by swapping the files nginx serves.
final class SignedServer {
    let folder: URL
    /// What nginx serves; `serve(_:)` replaces it with a copy of another build.
    let served: URL
    let server: Nginx
    let project: TestProject
    let cache: URL

    init() throws {
        folder = try TestProject.temporaryFolder("signed")
        served = folder.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        server = try Nginx(root: served)
        project = try TestProject.make()
        cache = folder.appendingPathComponent("cache")
    }

    deinit {
        server.stop()
        project.delete()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new key pair from the real `keygen`: the key folder and the public key's base64.
    func keygen(_ name: String) throws -> (folder: URL, publicKey: String) {
        let keys = folder.appendingPathComponent("keys-\(name)")
        return (keys, try keygenPublicKey(into: keys))
    }

    /// `blocks build --sign` of `blocks` into `output` (kept between builds, so versions grow).
    @discardableResult
    func build(_ blocks: [TestCatalog.Block], into name: String, key: URL, extra: [String] = [], environment: [String: String] = [:]) throws -> URL {
        let output = folder.appendingPathComponent(name)
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let result = try runBinary(
            ["build", "--catalog", catalog.root.path, "--out", output.path, "--sign", key.appendingPathComponent("blocks.key").path] + extra,
            environment: env)
        guard result.code == 0 else { throw TestSupportError("build failed: \(result.err)") }
        return output
    }

    private var servedCount = 0

    /// nginx serves an exact copy of `registry` from now on. Each copy's index gets a time
    /// of its own, so nginx's ETag (the mtime's second and the size) changes with every
    /// copy, as it does when a publisher uploads a new index.
    func serve(_ registry: URL) throws {
        try? FileManager.default.removeItem(at: served)
        try FileManager.default.copyItem(at: registry, to: served)
        servedCount += 1
        let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(servedCount))
        for file in ["index.json", "index.json.minisig"] where FileManager.default.fileExists(atPath: served.appendingPathComponent(file).path) {
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: served.appendingPathComponent(file).path)
        }
    }

    func pin(_ keys: [String]) throws {
        let quoted = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        try project.write("blocks.json", "{ \"registry\" : \"\(server.baseURL)\", \"keys\" : [\(quoted)] }\n")
    }

    func blocks(_ arguments: [String]) throws -> CommandResult {
        try project.runBinary(arguments, environment: ["XDG_CACHE_HOME": cache.path])
    }

    /// Runs a command that must be refused: it fails, names the attack, and leaves the
    /// project exactly as it was.
    func refused(_ arguments: [String], saying text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try project.treeHash()
        let result = try blocks(arguments)
        #expect(result.code != 0, "\(arguments) should fail", sourceLocation: sourceLocation)
        #expect(result.errors.contains(text), "expected '\(text)' in: \(result.errors)", sourceLocation: sourceLocation)
        #expect(try project.treeHash() == before, "the project changed", sourceLocation: sourceLocation)
    }
}

@Suite(.serialized) struct SignedRegistryTests {
    static let blocksV1 = [TestCatalog.Block.standard("strip", type: "Strip"), TestCatalog.Block.standard("pager", type: "Pager")]
    static let blocksV2 = [TestCatalog.Block.standard("strip", type: "Strip", version: "1.1.0"), TestCatalog.Block.standard("pager", type: "Pager")]

    @Test func aSignedRegistryWorksEndToEndAndMinisignVerifiesIt() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let secretMode = try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent("blocks.key").path)[.posixPermissions] as? Int
        #expect(secretMode == 0o600)
        let registry = try signed.build(Self.blocksV1, into: "registry", key: keys)
        try signed.serve(registry)

        // Debian's minisign checks what we wrote, with the key as -P and as a file.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/minisign") {
            let byString = try runProcess(
                URL(fileURLWithPath: "/usr/bin/minisign"), ["-Vm", registry.appendingPathComponent("index.json").path, "-P", publicKey])
            #expect(byString.code == 0, "\(byString.err)")
            #expect(byString.out.contains("Trusted comment: version:1\texpires:"), "\(byString.out)")
            let byFile = try runProcess(
                URL(fileURLWithPath: "/usr/bin/minisign"),
                ["-Vm", registry.appendingPathComponent("index.json").path, "-p", keys.appendingPathComponent("blocks.pub").path])
            #expect(byFile.code == 0, "\(byFile.err)")
        } else {
            Issue.record("minisign is not installed (Scripts/install-deps installs it): the minisign check was skipped")
        }

        let initialized = try signed.blocks(["init", "--registry", signed.server.baseURL, "--key", publicKey])
        #expect(initialized.code == 0, "\(initialized.errors)")
        #expect(initialized.output.contains("signed by key"), "\(initialized.output)")
        #expect(signed.project.read("blocks.json")?.contains(publicKey) == true)
        let added = try signed.blocks(["add", "strip"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(signed.project.read("Sources/App/Blocks/strip/Strip.swift") != nil)
        let keyID = try MinisignPublicKey(text: publicKey).id
        let status = try signed.blocks(["status"])
        #expect(status.output.contains("registry \(signed.server.baseURL): signed by \(keyID)"), "\(status.output)")
        let info = try signed.blocks(["info", "pager", "--json"])
        #expect(info.output.contains("\"signature\" : \"signed by \(keyID)\""), "\(info.output)")
        let search = try signed.blocks(["search", "pager"])
        #expect(search.code == 0 && search.output.contains("pager"), "\(search.errors)")

        // The pinned keys pin blocks.json's registry however it is named.
        let named = try signed.blocks(["info", "pager", "--registry", signed.server.baseURL, "--json"])
        #expect(named.output.contains("\"signature\" : \"signed by \(keyID)\""), "\(named.output)")
        // Another registry, with no key pinned, is read as ever and said to be unsigned.
        let catalog = try TestCatalog.make(Self.blocksV1)
        defer { catalog.delete() }
        let plain = signed.folder.appendingPathComponent("plain")
        #expect(try runBinary(["build", "--catalog", catalog.root.path, "--out", plain.path]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("index.json.minisig").path))
        let unsigned = try signed.blocks(["info", "pager", "--registry", plain.path, "--json"])
        #expect(unsigned.output.contains("\"signature\" : \"unsigned\""), "\(unsigned.output)")
    }

    @Test func aRebuildKeepsTheSignedIndexByteForByteAndAChangeGrowsItsVersion() throws {
        let signed = try SignedServer()
        let (keys, _) = try signed.keygen("a")
        let clock = ["SOURCE_DATE_EPOCH": String(Int(Date().timeIntervalSince1970))]
        let registry = try signed.build(Self.blocksV1, into: "registry", key: keys, environment: clock)
        let first = try Data(contentsOf: registry.appendingPathComponent("index.json"))
        let firstSignature = try Data(contentsOf: registry.appendingPathComponent("index.json.minisig"))
        try signed.build(Self.blocksV1, into: "registry", key: keys, environment: clock)
        #expect(try Data(contentsOf: registry.appendingPathComponent("index.json")) == first)
        #expect(try Data(contentsOf: registry.appendingPathComponent("index.json.minisig")) == firstSignature)
        try signed.build(Self.blocksV2, into: "registry", key: keys, extra: ["--expires", "7d"], environment: clock)
        let index = try RegistryIndex.decode(try Data(contentsOf: registry.appendingPathComponent("index.json")), location: "test")
        #expect(index.version == 2)
        #expect(index.expires == PublicationDate.iso8601(secondsSince1970: Int(clock["SOURCE_DATE_EPOCH"]!)! + 7 * 86_400))
        let metadata = try Data(contentsOf: registry.appendingPathComponent("blocks/strip.json"))
        #expect(index.metadata?["blocks/strip.json"] == RegistryFileDigest(sha256: SHA256.hex(metadata), size: Int64(metadata.count)))
    }

    @Test func eachAttackOnAPinnedRegistryFailsWithItsOwnErrorAndWritesNothing() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let (otherKeys, _) = try signed.keygen("b")
        let v1 = try signed.build(Self.blocksV1, into: "registry", key: keys)
        let v1Copy = signed.folder.appendingPathComponent("registry-v1")
        try FileManager.default.copyItem(at: v1, to: v1Copy)
        let v2 = try signed.build(Self.blocksV2, into: "registry", key: keys)
        try signed.serve(v2)
        try signed.pin([publicKey])
        #expect(try signed.blocks(["list"]).code == 0)
        let served = signed.served

        // A changed index (longer, so nginx's ETag changes within the second too).
        let index = try String(contentsOf: served.appendingPathComponent("index.json"), encoding: .utf8)
        try index.replacingOccurrences(of: "\"1.1.0\"", with: "\"9.9.99\"").write(
            to: served.appendingPathComponent("index.json"), atomically: true, encoding: .utf8)
        try signed.refused(["add", "strip"], saying: "does not match its signature")
        #expect(TeamServers.files(containing: "9.9.99", under: signed.cache).isEmpty, "a forged index reached the cache")

        // A changed metadata file with the genuine index.
        try signed.serve(v2)
        let metadata = served.appendingPathComponent("blocks/strip.json")
        try (try String(contentsOf: metadata, encoding: .utf8)).replacingOccurrences(of: "Strip", with: "Evil").write(
            to: metadata, atomically: true, encoding: .utf8)
        try signed.refused(["add", "strip"], saying: "blocks/strip.json does not match the SHA-256 and size")

        // An older signed index after a newer one.
        try signed.serve(v1Copy)
        try signed.refused(["add", "strip"], saying: "older than version 2 already accepted")

        // The same version with other content: a second registry built from scratch.
        let other = try signed.build([TestCatalog.Block.standard("x", type: "X")], into: "fresh", key: keys)
        _ = try signed.build(Self.blocksV1, into: "fresh", key: keys)
        try signed.serve(other)
        try signed.refused(["add", "strip"], saying: "different index with version 2")

        // Signed by another key.
        try signed.serve(try signed.build(Self.blocksV2, into: "other-key", key: otherKeys))
        try signed.refused(["add", "strip"], saying: "which is not pinned")

        // No signature, and a truncated one.
        try signed.serve(v2)
        let signature = served.appendingPathComponent("index.json.minisig")
        let signatureBytes = try Data(contentsOf: signature)
        try FileManager.default.removeItem(at: signature)
        try signed.refused(["add", "strip"], saying: "is not signed (no index.json.minisig)")
        try signatureBytes.prefix(signatureBytes.count / 2).write(to: signature)
        try signed.refused(["add", "strip"], saying: "is not a minisign signature")

        // The genuine registry still works after all that.
        try signed.serve(v2)
        let added = try signed.blocks(["add", "strip"])
        #expect(added.code == 0, "\(added.errors)")

        // update reads the pinned registry as add does.
        try signed.serve(v1Copy)
        try signed.refused(["update", "strip"], saying: "older than version 2 already accepted")
        try signed.refused(["update", "--all"], saying: "older than version 2 already accepted")
    }

    /// The split index (`build --split-index`) carries the same version and expiry in its
    /// signed index.json, so rollback and freeze are refused as for the whole index.
    @Test func aSplitIndexIsRefusedWhenRolledBackOrExpired() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let v1 = try signed.build(Self.blocksV1, into: "registry", key: keys, extra: ["--split-index"])
        let v1Copy = signed.folder.appendingPathComponent("registry-v1")
        try FileManager.default.copyItem(at: v1, to: v1Copy)
        try signed.serve(try signed.build(Self.blocksV2, into: "registry", key: keys, extra: ["--split-index"]))
        try signed.pin([publicKey])
        let added = try signed.blocks(["add", "strip"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try signed.blocks(["search", "strip"]).code == 0)

        // One build later, a pinned client reads the signed index and the feed it lists, and
        // makes the changed range from the one it has: the signature covers the feed.
        let v3 = try signed.build([Self.blocksV2[0], .standard("pager", type: "Pager", version: "1.0.1")], into: "registry", key: keys, extra: ["--split-index"])
        try signed.serve(v3)
        let feed = try #require(try RegistryIndex.decode(try Data(contentsOf: v3.appendingPathComponent("index.json")), location: "v3").split?.feed)
        let before = signed.server.requests().count
        let searched = try signed.blocks(["search", "pager"])
        #expect(searched.code == 0 && searched.output.contains("pager"), "\(searched.errors)")
        // The signature once: the freshness check of search verified it, and reading the index does not fetch it again.
        let requests = signed.server.requests(atLeast: before + 3).dropFirst(before).map(\.summary)
        #expect(requests == ["GET /index.json.minisig 200", "GET /index.json 200", "GET /\(feed.path) 200"], "\(requests)")
        let listed = try signed.blocks(["list"])
        #expect(listed.code == 0 && listed.output.contains("1.0.1"), "\(listed.errors)")

        try signed.serve(v1Copy)
        try signed.refused(["search", "strip"], saying: "older than version 3 already accepted")

        let frozen = try SignedServer()
        let old = String(Int(Date().timeIntervalSince1970) - 40 * 86_400)
        try frozen.serve(try frozen.build(Self.blocksV1, into: "registry", key: keys, extra: ["--split-index"], environment: ["SOURCE_DATE_EPOCH": old]))
        try frozen.pin([publicKey])
        try frozen.refused(["search", "strip"], saying: "expired on")
    }

    @Test func anExpiredIndexIsRefusedUnlessAllowedWithAWarning() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let old = String(Int(Date().timeIntervalSince1970) - 40 * 86_400)
        try signed.serve(try signed.build(Self.blocksV1, into: "registry", key: keys, environment: ["SOURCE_DATE_EPOCH": old]))
        try signed.pin([publicKey])
        try signed.refused(["add", "strip"], saying: "expired on")
        try signed.refused(["add", "strip"], saying: "--allow-expired")
        let allowed = try signed.blocks(["add", "strip", "--allow-expired"])
        #expect(allowed.code == 0, "\(allowed.errors)")
        #expect(allowed.errors.contains("warning: registry \(signed.server.baseURL) expired on"), "\(allowed.errors)")
    }

    @Test func pinningTheNextKeyLetsThePublisherRotate() throws {
        let signed = try SignedServer()
        let (oldKeys, oldKey) = try signed.keygen("old")
        let (newKeys, newKey) = try signed.keygen("new")
        // The publisher announces the next key in an index signed by the current one.
        try signed.serve(try signed.build(Self.blocksV1, into: "registry", key: oldKeys, extra: ["--next-key", newKey]))
        try signed.pin([oldKey])
        let announced = try signed.blocks(["add", "strip"])
        #expect(announced.code == 0, "\(announced.errors)")
        #expect(announced.errors.contains("will next be signed by key \(try MinisignPublicKey(text: newKey).id)"), "\(announced.errors)")

        // Clients pin both; the publisher then signs with the new key.
        try signed.pin([oldKey, newKey])
        try signed.serve(try signed.build(Self.blocksV2, into: "registry", key: newKeys))
        let rotated = try signed.blocks(["update", "strip"])
        #expect(rotated.code == 0, "\(rotated.errors)")
        #expect(try signed.project.lock().blocks["strip"]?.version == "1.1.0")
        let status = try signed.blocks(["status"])
        #expect(status.output.contains("signed by \(try MinisignPublicKey(text: newKey).id)"), "\(status.output)")

        // A client that never pinned the new key is told, not silently switched.
        try signed.pin([oldKey])
        try signed.refused(["add", "pager"], saying: "which is not pinned")
    }

    @Test func aSecretKeyWithLoosePermissionsIsRefusedAndKeygenNeverOverwrites() throws {
        let signed = try SignedServer()
        let (keys, _) = try signed.keygen("a")
        let secret = keys.appendingPathComponent("blocks.key")
        let before = try Data(contentsOf: secret)
        let again = try runBinary(["keygen", "--out", keys.path])
        #expect(again.code != 0 && again.err.contains("already exists"), "\(again.err)")
        #expect(try Data(contentsOf: secret) == before)
        chmod(secret.path, 0o644)
        let catalog = try TestCatalog.make(Self.blocksV1)
        defer { catalog.delete() }
        let output = signed.folder.appendingPathComponent("out")
        let build = try runBinary(["build", "--catalog", catalog.root.path, "--out", output.path, "--sign", secret.path])
        #expect(build.code != 0 && build.err.contains("has mode 644"), "\(build.err)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The secret never appears in anything printed.
        let seedLine = String(decoding: before, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "?"
        #expect(!build.err.contains(seedLine) && !again.err.contains(seedLine) && !again.out.contains(seedLine))
    }

    @Test func aMirrorCopiesTheSignatureChecksItAndVerifiesOffline() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let (_, otherKey) = try signed.keygen("b")
        let v1 = try signed.build(Self.blocksV1, into: "registry", key: keys)
        let v1Copy = signed.folder.appendingPathComponent("registry-v1")
        try FileManager.default.copyItem(at: v1, to: v1Copy)
        let v2 = try signed.build(Self.blocksV2, into: "registry", key: keys)
        try signed.serve(v2)
        let mirror = signed.folder.appendingPathComponent("mirror")

        // Another key: refused before anything is written.
        let wrong = try signed.blocks(["mirror", signed.server.baseURL, mirror.path, "--key", otherKey])
        #expect(wrong.code != 0 && wrong.errors.contains("which is not pinned"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: mirror.appendingPathComponent("index.json").path))

        let made = try signed.blocks(["mirror", signed.server.baseURL, mirror.path, "--key", publicKey])
        #expect(made.code == 0, "\(made.errors)")
        #expect(try Data(contentsOf: mirror.appendingPathComponent("index.json.minisig")) == Data(contentsOf: v2.appendingPathComponent("index.json.minisig")))
        let verified = try signed.blocks(["mirror", "--verify", mirror.path, "--key", publicKey])
        #expect(verified.code == 0, "\(verified.errors)")

        // A mirror of a signed registry is a signed registry, offline.
        let added = try signed.blocks(["add", "strip", "--registry", mirror.path, "--key", publicKey, "--offline"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try signed.project.lock().blocks["strip"]?.version == "1.1.0")

        // An older upstream does not replace the mirror's newer snapshot.
        try signed.serve(v1Copy)
        let index = try Data(contentsOf: mirror.appendingPathComponent("index.json"))
        let rolledBack = try signed.blocks(["mirror", signed.server.baseURL, mirror.path, "--key", publicKey])
        #expect(rolledBack.code != 0 && rolledBack.errors.contains("older than version 2"), "\(rolledBack.errors)")
        #expect(try Data(contentsOf: mirror.appendingPathComponent("index.json")) == index)

        // Damage at rest: verify names it, and the mirror no longer verifies as a registry.
        let metadata = mirror.appendingPathComponent("blocks/pager.json")
        try (try String(contentsOf: metadata, encoding: .utf8)).replacingOccurrences(of: "Pager", with: "Pagex").write(
            to: metadata, atomically: true, encoding: .utf8)
        let damaged = try signed.blocks(["mirror", "--verify", mirror.path, "--key", publicKey])
        #expect(damaged.code != 0 && damaged.errors.contains("blocks/pager.json does not match the SHA-256 and size"), "\(damaged.errors)")
        try signed.refused(["add", "pager", "--registry", mirror.path, "--key", publicKey], saying: "blocks/pager.json does not match")
        try signed.refused(["add", "pager", "--registry", mirror.path, "--key", otherKey], saying: "which is not pinned")
    }

    @Test func aNamespacedRegistryPinsItsKeysAndTheFilesMatchTheirSchemas() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        let (_, otherKey) = try signed.keygen("b")
        let registry = try signed.build(Self.blocksV1, into: "registry", key: keys)
        try signed.serve(registry)
        // A wrong key is found when it is pinned, and blocks.json is left alone.
        try signed.refused(["registry", "add", "@acme", signed.server.baseURL, "--key", otherKey], saying: "which is not pinned")
        let added = try signed.blocks(["registry", "add", "@acme", signed.server.baseURL, "--key", publicKey])
        #expect(added.code == 0, "\(added.errors)")
        #expect(added.output.contains("signed by key \(try MinisignPublicKey(text: publicKey).id)"), "\(added.output)")
        let installed = try signed.blocks(["add", "@acme/strip"])
        #expect(installed.code == 0, "\(installed.errors)")
        let status = try signed.blocks(["status", "--json"])
        #expect(status.output.contains("\"signature\" : \"signed by \(try MinisignPublicKey(text: publicKey).id)\""), "\(status.output)")

        let schemas = SchemaFilesTests()
        #expect(try schemas.problems(signed.project.url("blocks.json"), schema: "blocks-config") == [])
        // The signed index and its metadata files, with a standard validator (`SchemaTests.validator`).
        let folder = repositoryRoot.appendingPathComponent("Schemas")
        // The real catalog, whose manifests are complete (the test blocks are minimal).
        let catalogRegistry = signed.folder.appendingPathComponent("catalog-registry")
        let built = try runBinary(["build", "--out", catalogRegistry.path, "--sign", keys.appendingPathComponent("blocks.key").path])
        #expect(built.code == 0, "\(built.err)")
        let validated = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", SchemaTests.validator, folder.appendingPathComponent("index.schema.json").path,
                folder.appendingPathComponent("block.schema.json").path, catalogRegistry.appendingPathComponent("index.json").path,
                catalogRegistry.appendingPathComponent("blocks/pager.json").path,
            ])
        #expect(validated.code == 0 && validated.out == "valid 2\n", "\(validated.out)\(validated.err)")
        try signed.project.write("pinned.json", "{ \"registry\" : \"x\", \"keys\" : [\"\(publicKey)\"] }")
        #expect(try schemas.problems(signed.project.url("pinned.json"), schema: "blocks-config") == [])
        try signed.project.write("bad.json", "{ \"keys\" : [\"not a key\"] }")
        #expect(try schemas.problems(signed.project.url("bad.json"), schema: "blocks-config").count == 1)
        // A malformed pinned key stops every command, naming it.
        try signed.project.write("blocks.json", "{ \"registry\" : \"\(signed.server.baseURL)\", \"keys\" : [\"RWnope\"] }")
        let broken = try signed.blocks(["list"])
        #expect(broken.code != 0 && broken.errors.contains("keys holds 'RWnope'"), "\(broken.errors)")
    }

    /// A repeated search skips hashing the unchanged cached index (docs/BENCHMARKS.md), but
    /// not its expiry, and not a cached file rewritten since it was verified (say by an
    /// unpinned command reading the same URL).
    @Test func aRepeatedSearchStillChecksExpiryAndARewrittenCache() throws {
        let signed = try SignedServer()
        let (keys, publicKey) = try signed.keygen("a")
        try signed.serve(try signed.build(Self.blocksV1, into: "registry", key: keys, extra: ["--expires", "4s"]))
        try signed.pin([publicKey])
        let started = Date()
        #expect(try signed.blocks(["search", "pager"]).code == 0)
        #expect(try signed.blocks(["search", "pager"]).code == 0)

        let cached = signed.cache.appendingPathComponent("blocks/index/" + SHA256.hex(signed.server.url("index.json")) + ".json")
        let genuine = try Data(contentsOf: cached)
        try Data(String(decoding: genuine, as: UTF8.self).replacingOccurrences(of: "Pager", with: "Forge").utf8).write(to: cached)
        try signed.refused(["search", "pager"], saying: "does not match its signature")
        try genuine.write(to: cached)
        #expect(try signed.blocks(["search", "pager"]).code == 0)

        // Bounded: the index was signed for 4 s.
        let wait = 5 - Date().timeIntervalSince(started)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        try signed.refused(["search", "pager"], saying: "expired on")
    }
}
