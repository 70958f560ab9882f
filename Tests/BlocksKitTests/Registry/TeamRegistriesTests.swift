import Foundation
import Testing

@testable import BlocksKit

/// Two real nginx registries on loopback: a private one that answers only requests with
/// the team's token in two headers, and a public one that logs every header it gets, so
/// a test can read whether the token ever reached it.
final class TeamServers {
    static let token = "team-s3cret-7c41"
    let folder: URL
    let publicServer: Nginx
    let privateServer: Nginx
    let project: TestProject
    let cache: URL

    /// `publicBlocks` and `privateBlocks` become two built registries. The private server
    /// also redirects `/same/...` to itself and `/elsewhere/...` to the public server.
    /// `publicEarlier` is built into the public registry first, so it keeps those versions too.
    init(publicBlocks: [TestCatalog.Block], privateBlocks: [TestCatalog.Block], publicEarlier: [TestCatalog.Block] = []) throws {
        folder = try TestProject.temporaryFolder("teams")
        let logFormat = "log_format headers '$request_uri auth=[$http_authorization] team=[$http_x_team_token]';"
        if !publicEarlier.isEmpty { _ = try Self.built(publicEarlier, into: folder.appendingPathComponent("public")) }
        let publicRoot = try Self.built(publicBlocks, into: folder.appendingPathComponent("public"))
        publicServer = try Nginx(root: publicRoot, serverConfig: "access_log \(folder.path)/public-headers.log headers;", httpConfig: logFormat)
        let privateRoot = try Self.built(privateBlocks, into: folder.appendingPathComponent("private"))
        privateServer = try Nginx(
            root: privateRoot,
            serverConfig: """
                access_log \(folder.path)/private-headers.log headers;
                if ($http_x_team_token != "\(Self.token)") { return 401; }
                if ($http_authorization != "Bearer \(Self.token)") { return 401; }
                location /same/ { rewrite ^/same/(.*)$ /$1 redirect; }
                location /elsewhere/ { rewrite ^/elsewhere/(.*)$ \(publicServer.baseURL)/$1 redirect; }
                """, httpConfig: logFormat)
        project = try TestProject.make()
        cache = folder.appendingPathComponent("cache")
    }

    /// A built registry of `blocks`, made by the real `build`.
    static func built(_ blocks: [TestCatalog.Block], into output: URL) throws -> URL {
        let catalog = try TestCatalog.make(blocks)
        defer { catalog.delete() }
        let result = runBlocks(["build", "--catalog", catalog.root.path, "--out", output.path])
        guard result.code == 0 else { throw TestSupportError("build failed: \(result.err)") }
        return output
    }

    /// blocks.json with the public server as the default registry and `@team` private.
    func writeConfig(extra: String = "") throws {
        try project.write(
            "blocks.json",
            """
            {
              "registry" : "\(publicServer.baseURL)",
              "registries" : {
                "@team" : {
                  "url" : "\(privateServer.baseURL)",
                  "headers" : { "Authorization" : "Bearer ${TEAM_TOKEN}", "X-Team-Token" : "${TEAM_TOKEN}" }
                }\(extra)
              }
            }
            """)
    }

    /// A `blocks.json` with no default registry and both servers namespaced: `@pub`, and
    /// `@team` with the token in both of its headers.
    var bothNamespacesConfig: String {
        """
        {
          "registries" : {
            "@pub" : "\(publicServer.baseURL)",
            "@team" : { "url" : "\(privateServer.baseURL)", "headers" : { "Authorization" : "Bearer ${TEAM_TOKEN}", "X-Team-Token" : "${TEAM_TOKEN}" } }
          }
        }
        """
    }

    /// The real binary in the project, with the token in the environment and a cache of its own.
    func blocks(_ arguments: [String], token: String? = TeamServers.token, environment extra: [String: String] = [:]) throws -> CommandResult {
        var environment = ["XDG_CACHE_HOME": cache.path, "BLOCKS_TOKEN": ""].merging(extra) { _, given in given }
        if let token { environment["TEAM_TOKEN"] = token }
        return try project.runBinary(arguments, environment: environment)
    }

    func log(_ server: String) -> String {
        Nginx.logText(folder.appendingPathComponent("\(server)-headers.log"))
    }

    /// Every file under `folder` whose bytes contain `text`, by path.
    static func files(containing text: String, under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            if let data = FileManager.default.contents(atPath: url.path), String(decoding: data, as: UTF8.self).contains(text) {
                found.append(url.path)
            }
        }
        return found
    }

    deinit {
        publicServer.stop()
        privateServer.stop()
        project.delete()
        try? FileManager.default.removeItem(at: folder)
    }
}

@Suite(.serialized) struct TeamRegistriesTests {
    static let publicBlocks = [TestCatalog.Block.standard("strip", type: "Strip"), TestCatalog.Block.standard("pager", type: "PublicPager")]
    static let privateBlocks = [TestCatalog.Block.standard("pager", type: "TeamPager"), TestCatalog.Block.standard("badge", type: "Badge")]

    @Test func aPrivateRegistryNextToThePublicOneKeepsItsTokenToItself() throws {
        let servers = try TeamServers(publicBlocks: Self.publicBlocks, privateBlocks: Self.privateBlocks)
        try servers.writeConfig()
        var outputs: [String] = []
        func run(_ arguments: [String]) throws -> CommandResult {
            let result = try servers.blocks(arguments)
            outputs += [result.output, result.errors]
            return result
        }
        let added = try run(["add", "@team/pager", "strip", "badge"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(added.output.contains("Added @team/pager 1.0.0 in Sources/App/Blocks/team/pager"), "\(added.output)")
        #expect(added.output.contains("Added strip 1.0.0 in Sources/App/Blocks/strip"))
        #expect(added.output.contains("Added @team/badge 1.0.0 in Sources/App/Blocks/team/badge"), "unnamespaced, but only @team has it")
        #expect(servers.project.read("Sources/App/Blocks/team/pager/TeamPager.swift")?.contains("struct TeamPager") == true)

        let lock = try servers.project.lock()
        #expect(lock.lockVersion == 2)
        #expect(lock.blocks["@team/pager"]?.namespace == "@team")
        #expect(lock.blocks["@team/pager"]?.registry == servers.privateServer.baseURL)
        #expect(lock.blocks["strip"]?.namespace == nil)
        #expect(lock.blocks["strip"]?.registry == servers.publicServer.baseURL)

        let listed = try run(["list"])
        #expect(listed.code == 0, "\(listed.errors)")
        for name in ["@team/pager", "@team/badge", "strip", "pager"] {
            #expect(listed.output.split(separator: "\n").contains { $0.hasPrefix(name + " ") }, "\(name) in \(listed.output)")
        }
        let json = try run(["list", "--json", "--registry", "@team"])
        let blocks = try #require((try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["blocks"] as? [[String: Any]])
        #expect(blocks.map { $0["name"] as? String } == ["@team/badge", "@team/pager"])
        #expect(blocks.allSatisfy { $0["namespace"] as? String == "@team" })

        let search = try run(["search", "pager", "--json"])
        #expect(search.code == 0, "\(search.errors)")
        #expect(search.output.contains("\"name\" : \"@team/pager\""), "\(search.output)")
        #expect(search.output.contains("\"namespace\" : \"@team\""))
        #expect(search.output.contains("\"name\" : \"pager\""))
        let narrowed = try run(["search", "pager", "--registry", "@team"])
        #expect(narrowed.output.contains("@team/pager") && !narrowed.output.split(separator: "\n").contains { $0.hasPrefix("pager ") }, "\(narrowed.output)")

        let info = try run(["info", "@team/pager", "--json", "--source"])
        #expect(info.code == 0, "\(info.errors)")
        #expect(info.output.contains("\"namespace\" : \"@team\"") && info.output.contains("struct TeamPager"))
        #expect(try run(["status"]).code == 0)
        let removed = try run(["remove", "@team/pager"])
        #expect(removed.output.contains("Removed @team/pager."), "\(removed.output)")
        #expect(try servers.project.lock().blocks["@team/pager"] == nil)

        // The private server got the token on every request; the public one never did.
        let privateLog = servers.log("private")
        #expect(privateLog.contains("team=[\(TeamServers.token)]") && !privateLog.contains("team=[]"), "\(privateLog)")
        let publicLog = servers.log("public")
        #expect(publicLog.contains("/index.json"), "the public registry was asked too")
        #expect(!publicLog.contains(TeamServers.token), "\(publicLog)")
        // Nowhere in what blocks printed or wrote: output, cache, project, lock.
        for text in outputs { #expect(!text.contains(TeamServers.token)) }
        #expect(TeamServers.files(containing: TeamServers.token, under: servers.cache) == [])
        #expect(TeamServers.files(containing: TeamServers.token, under: servers.project.root) == [])
        #expect(servers.project.read("blocks.json")?.contains("${TEAM_TOKEN}") == true)
    }

    @Test func aRedirectToAnotherHostGoesWithoutTheHeaders() throws {
        let servers = try TeamServers(publicBlocks: Self.publicBlocks, privateBlocks: Self.privateBlocks)
        let headers = [HTTPHeader(name: "X-Team-Token", value: TeamServers.token), HTTPHeader(name: "Authorization", value: "Bearer \(TeamServers.token)")]
        let transport = CurlTransport(settings: fastTransferSettings)
        // On the same origin the headers follow: the private server answers only with them.
        let same = try transport.get(HTTPRequest(url: servers.privateServer.url("same/index.json"), headers: headers))
        #expect(same.status == 200)
        // To another origin they stay behind, the custom one too (libcurl would send it).
        let moved = try transport.get(HTTPRequest(url: servers.privateServer.url("elsewhere/index.json"), headers: headers))
        #expect(moved.status == 200)
        let downloads = transport.download(
            [
                HTTPDownload(
                    request: HTTPRequest(url: servers.privateServer.url("elsewhere/index.json"), headers: headers),
                    destination: servers.folder.appendingPathComponent("moved.json"))
            ], maxParallel: 1, progress: nil)
        #expect(try downloads[0].get().status == 200)
        #expect(servers.log("public").contains("/index.json"))
        #expect(!servers.log("public").contains(TeamServers.token), "\(servers.log("public"))")
        #expect(servers.log("private").contains("/elsewhere/index.json"))

        // The same through the command line: a namespace whose server moved to another host.
        try servers.writeConfig(
            extra: """
                ,
                    "@moved" : { "url" : "\(servers.privateServer.url("elsewhere"))", "headers" : { "Authorization" : "Bearer ${TEAM_TOKEN}", "X-Team-Token" : "${TEAM_TOKEN}" } }
                """)
        let listed = try servers.blocks(["list", "--registry", "@moved"])
        #expect(listed.code == 0, "\(listed.errors)")
        #expect(listed.output.contains("@moved/strip"))
        #expect(!servers.log("public").contains(TeamServers.token))
    }

    @Test func anUnsetVariableIsOneErrorNamingIt() throws {
        let servers = try TeamServers(publicBlocks: Self.publicBlocks, privateBlocks: Self.privateBlocks)
        try servers.writeConfig()
        let before = try servers.project.treeHash()
        let result = try servers.blocks(["add", "@team/pager"], token: nil)
        #expect(result.code == 1)
        #expect(result.errors.contains("needs TEAM_TOKEN, which is not set"), "\(result.errors)")
        #expect(result.errors.contains("@team"))
        #expect(result.errors.split(separator: "\n").count == 1)
        #expect(try servers.project.treeHash() == before)
        #expect(!servers.log("private").contains("/blocks/pager.json"), "no request without the header")
        // An unnamespaced name is not guessed from the registries that could be read.
        let unsure = try servers.blocks(["add", "pager"], token: nil)
        #expect(unsure.code == 1 && unsure.errors.contains("needs TEAM_TOKEN, which is not set"), "\(unsure.errors)")
        #expect(try servers.project.treeHash() == before)
        // A wrong token is named by its variable, not BLOCKS_TOKEN.
        let wrong = try servers.blocks(["add", "@team/pager"], token: "not-it")
        #expect(
            wrong.code == 1 && wrong.errors.contains("failed with HTTP 401; check TEAM_TOKEN (used by the headers of @team in blocks.json)"), "\(wrong.errors)")
        #expect(!wrong.errors.contains("not-it"))
        // What makes no request to @team needs no variable.
        let listed = try servers.blocks(["registry", "list"], token: nil)
        #expect(listed.code == 0 && listed.output.contains("Authorization (${TEAM_TOKEN})"), "\(listed.errors)")
    }

    /// Issue 35, item 2: a namespace whose token is not set is a warning for what does not
    /// need it, and an error only for what does.
    @Test func aNamespaceWithoutItsTokenIsSkippedByReadsThatDoNotNeedIt() throws {
        let servers = try TeamServers(publicBlocks: Self.publicBlocks, privateBlocks: Self.privateBlocks)
        try servers.writeConfig()
        let warning = "warning: @team is skipped: its headers use ${TEAM_TOKEN}, which is not set"
        let reads: [[String]] = [
            ["list"], ["info", "strip"], ["search", "strip", "--registry", "embedded"], ["search", "strip", "--registry", servers.publicServer.baseURL],
            ["search", "strip"], ["list", "--json"],
        ]
        for arguments in reads {
            let result = try servers.blocks(arguments, token: nil)
            #expect(result.code == 0, "\(arguments): \(result.errors)")
            #expect(result.errors.contains(warning), "\(arguments): \(result.errors)")
            #expect(!result.output.contains("@team/"), "\(arguments): \(result.output)")
        }
        #expect(try servers.blocks(["list"], token: nil).output.contains("strip "))
        #expect(try servers.blocks(["info", "strip"], token: nil).output.contains("strip"))
        // What needs @team still fails with the one clear error.
        for arguments in [["add", "@team/badge"], ["info", "@team/badge"], ["list", "--registry", "@team"]] {
            let result = try servers.blocks(arguments, token: nil)
            #expect(result.code == 1 && result.errors.contains("needs TEAM_TOKEN, which is not set"), "\(arguments): \(result.errors)")
        }
        #expect(!servers.log("private").contains("/index.json"), "no request without the header")
    }

    @Test func aNameTwoRegistriesHaveIsRefusedWithBoth() throws {
        let servers = try TeamServers(publicBlocks: Self.publicBlocks, privateBlocks: Self.privateBlocks)
        try servers.writeConfig()
        let before = try servers.project.treeHash()
        let result = try servers.blocks(["add", "pager"])
        #expect(result.code == 1)
        #expect(result.errors.contains("'pager' is in more than one registry"), "\(result.errors)")
        #expect(result.errors.contains("  pager (\(servers.publicServer.baseURL))"))
        #expect(result.errors.contains("  @team/pager (\(servers.privateServer.baseURL))"))
        #expect(try servers.project.treeHash() == before)
        let info = try servers.blocks(["info", "pager"])
        #expect(info.code == 1 && info.errors.contains("more than one registry"))
        // Named with its namespace, or narrowed with --registry, it is one block.
        #expect(try servers.blocks(["add", "pager", "--registry", "@team"]).output.contains("Added @team/pager"))
        let unknown = try servers.blocks(["add", "@other/pager"])
        #expect(unknown.code == 1 && unknown.errors.contains("no registry named @other: blocks.json has @team"), "\(unknown.errors)")
    }
}
