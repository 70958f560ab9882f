import Foundation
import Testing

@testable import BlocksKit

/// One parser for every registry location, and readers of an index that never act on an
/// entry whose name is not a block name.
@Suite struct RegistryLocationTests {
    var environment: [String: String] { ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path] }

    /// Items 9 and 11: schemes in any case, `file://` forms, and a trailing `index.json`.
    @Test func locationsAreParsedOnce() throws {
        #expect(try RegistryLocation(nil) == .embedded)
        #expect(try RegistryLocation("") == .embedded)
        #expect(try RegistryLocation("embedded") == .embedded)
        #expect(try RegistryLocation("HTTP://Example.com/reg/") == .remote("http://Example.com/reg/"))
        #expect(try RegistryLocation("Https://host/reg/index.json") == .remote("https://host/reg/"))
        #expect(try RegistryLocation("https://host/tabs.ZIP#sha256=ab") == .remoteArchive(url: "https://host/tabs.ZIP", sha256: "ab"))
        #expect(try RegistryLocation("HTTPS://host/tabs.tar.gz") == .remoteArchive(url: "https://host/tabs.tar.gz", sha256: nil))
        #expect(try RegistryLocation("file:///tmp/reg%20istry") == .local("/tmp/reg istry"))
        #expect(try RegistryLocation("File://localhost/tmp/reg/index.json") == .local("/tmp/reg/"))
        #expect(try RegistryLocation("./public/index.json") == .local("./public/"))
        #expect(try RegistryLocation("index.json") == .local("."))
        #expect(try RegistryLocation("a folder://x") == .local("a folder://x"))
        // A scheme that could be a plugin's name is a source plugin's location (docs/PLUGINS.md),
        // which nothing reads unless a blocks-plugin-ftp offering "source" is installed.
        #expect(try RegistryLocation("FTP://host/x") == .fetched(scheme: "ftp", location: "FTP://host/x"))
        #expect(RegistrySources.kind(forScheme: "ftp", environment: ["PATH": "/nonexistent"]) == nil)
        #expect(RegistrySources.unsupported("ftp", location: "FTP://host/x").description.contains("use https://, http://, file://, git+https://"))
        #expect(throws: RegistryError.self) { try RegistryLocation("ftp.v2://host/x") }
        #expect(throws: RegistryError.self) { try RegistryLocation("file://host/x") }
        #expect(RedirectPolicy.isHTTP("HTTP://x") && RedirectPolicy.isHTTP("hTTpS://x") && !RedirectPolicy.isHTTP("file:///x"))
    }

    /// Item 11 with the real binary: `HTTP://` is a URL, not a path, and a URL or path
    /// ending in `index.json` reads the registry it belongs to.
    @Test func upperCaseSchemesAndIndexFileLocationsReachTheRegistry() throws {
        let folder = try TemporaryFolder("locations")
        defer { folder.cleanUp() }
        let public_ = folder.path("public")
        try RegistryFixtures.build(catalog: try RegistryFixtures.writeCatalog(in: folder, count: 2), output: public_)
        let nginx = try Nginx(root: public_)
        defer { nginx.stop() }
        let port = nginx.baseURL.dropFirst("http://".count)
        var env = environment
        env["XDG_CACHE_HOME"] = folder.path("cache").path
        for location in ["HTTP://\(port)/", "http://\(port)/index.json", "Http://\(port)/index.json", public_.path + "/index.json"] {
            let listed = try runBinary(["--registry", location, "list"], in: folder.url, environment: env)
            #expect(listed.code == 0, "\(location): \(listed.err)")
            #expect(listed.out.contains("block-0001"), "\(location)")
        }
        let requests = nginx.requests(atLeast: 3).map(\.summary)
        #expect(!requests.contains { $0.contains("index.json/index.json") }, "\(requests)")
    }

    /// Item 7: `list`, `search` and `info` over a registry whose index names
    /// `../../PWNED-NAME` skip that entry, warning with its name; the rest still work.
    @Test func readersSkipEntriesWithUnsafeNames() throws {
        let folder = try TemporaryFolder("unsafe-names")
        defer { folder.cleanUp() }
        let public_ = folder.path("public")
        try RegistryFixtures.build(catalog: try RegistryFixtures.writeCatalog(in: folder, count: 2), output: public_)
        try HostileIndex.addEntry(named: "../../PWNED-NAME", to: public_)
        let nginx = try Nginx(root: public_)
        defer { nginx.stop() }
        var env = environment
        env["XDG_CACHE_HOME"] = folder.path("cache").path
        for registry in [public_.path, nginx.baseURL + "/"] {
            let listed = try runBinary(["--registry", registry, "list", "--json"], in: folder.url, environment: env)
            #expect(listed.code == 0, "\(listed.err)")
            let names = ((try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])?["blocks"] as? [[String: Any]])?.compactMap {
                $0["name"] as? String
            }
            #expect(names == ["block-0000", "block-0001"], "\(registry)")
            #expect(listed.err.contains("warning: registry \(registry) lists a block named '../../PWNED-NAME'"), "\(listed.err)")

            let found = try runBinary(["--registry", registry, "search", "sample"], in: folder.url, environment: env)
            #expect(found.code == 0 && found.out.contains("block-0000") && !found.out.contains("PWNED"), "\(found.out)")

            let info = try runBinary(["--registry", registry, "info", "block-0001"], in: folder.url, environment: env)
            #expect(info.code == 0 && !info.out.contains("PWNED"))
        }
        // The name is shown escaped: a control character in it never reaches the terminal.
        #expect(RegistryEntry.unsafeNameWarning("a\u{1B}]0;x\u{07}", location: "r").contains("'a\\u{1B}]0;x\\u{07}'"))
        var dropped: [String] = []
        let index = try RegistryIndex.decode(Data(contentsOf: public_.appendingPathComponent("index.json")), location: "x") { dropped.append($0) }
        #expect(index.blocks.map(\.manifest.name) == ["block-0000", "block-0001"])
        #expect(dropped == ["../../PWNED-NAME"])
    }

    /// The names the rule refuses are `ManifestValidator.isValidName`'s, the strict one.
    @Test(arguments: ["../../x", "a--b", "a-", "-a", "A", "a b", "", "a/b", "a.b"])
    func indexReadersRefuseWhatTheValidatorRefuses(name: String) throws {
        let entry = RegistryEntry(
            manifest: try #require(BlockManifest.decode(Data(sampleManifestJSON(name: "ok").utf8))), metadata: "blocks/x.json", sourceSHA256: "", archives: [:])
        var renamed = entry
        renamed.manifest.name = name
        #expect(entry.hasValidName)
        #expect(!renamed.hasValidName)
    }
}
