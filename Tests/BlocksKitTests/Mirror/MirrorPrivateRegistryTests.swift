import Foundation
import Testing

@testable import BlocksKit

/// `blocks mirror` of a private registry, from real nginx servers (`TeamServers`): by
/// its namespace in blocks.json (`@team`, through its headers), or by URL with
/// `--header`. The token reaches only the private server, and never the mirror's files
/// or the output.
@Suite(.serialized) struct MirrorPrivateRegistryTests {
    static let token = TeamServers.token

    static func servers() throws -> TeamServers {
        let servers = try TeamServers(publicBlocks: TeamRegistriesTests.publicBlocks, privateBlocks: TeamRegistriesTests.privateBlocks)
        try servers.writeConfig()
        return servers
    }

    /// Whatever the run printed, and every file of the mirror, must be free of the token.
    static func expectNoToken(_ result: CommandResult, mirror: URL, _ context: String) {
        #expect(!result.output.contains(token) && !result.errors.contains(token), "\(context): \(result.output)\(result.errors)")
        #expect(TeamServers.files(containing: token, under: mirror) == [], "\(context)")
    }

    @Test func aNamespaceIsMirroredThroughItsHeaders() throws {
        let servers = try Self.servers()
        let mirror = servers.folder.appendingPathComponent("mirror")
        let made = try servers.blocks(["mirror", "@team", mirror.path])
        #expect(made.code == 0, "\(made.errors)")
        let index = try String(contentsOf: mirror.appendingPathComponent("index.json"), encoding: .utf8)
        #expect(index.contains("\"badge\"") && index.contains("\"pager\"") && !index.contains("\"strip\""), "the private registry's blocks: \(index)")
        #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent("archives/badge-1.0.0.tar.gz").path))
        Self.expectNoToken(made, mirror: mirror, "mirror @team")
        #expect(try servers.blocks(["mirror", "--verify", mirror.path]).code == 0)
        // Again: one conditional request, with the headers.
        let again = try servers.blocks(["mirror", "@team", mirror.path, "--json"])
        #expect(again.code == 0 && again.output.contains("\"upToDate\" : true"), "\(again.output)\(again.errors)")
        Self.expectNoToken(again, mirror: mirror, "re-sync")
        let privateLog = servers.log("private")
        #expect(privateLog.contains("/index.json auth=[Bearer \(Self.token)] team=[\(Self.token)]"), "\(privateLog)")
        #expect(!privateLog.contains("team=[]"), "every request had the header: \(privateLog)")
        #expect(!servers.log("public").contains(Self.token))

        // Without the variable: one error naming it, no request, no mirror.
        let unset = servers.folder.appendingPathComponent("unset")
        let missing = try servers.blocks(["mirror", "@team", unset.path], token: nil)
        #expect(missing.code == 1 && missing.errors.contains("needs TEAM_TOKEN, which is not set: a header of @team in blocks.json"), "\(missing.errors)")
        #expect(!FileManager.default.fileExists(atPath: unset.appendingPathComponent("index.json").path))
        let unknown = try servers.blocks(["mirror", "@other", unset.path])
        #expect(unknown.code == 1 && unknown.errors.contains("no registry named @other: blocks.json has @team"), "\(unknown.errors)")
        let both = try servers.blocks(["mirror", "@team", unset.path, "--header", "X-Team-Token: x"])
        #expect(both.code == 64, "\(both.errors)")
    }

    @Test func aURLIsMirroredWithHeadersGivenOnTheCommandLine() throws {
        let servers = try Self.servers()
        let url = servers.privateServer.baseURL
        // From the environment, as in blocks.json.
        let fromVariable = servers.folder.appendingPathComponent("variable")
        let made = try servers.blocks([
            "mirror", url, fromVariable.path, "--header", "Authorization: Bearer ${TEAM_TOKEN}", "--header", "X-Team-Token: ${TEAM_TOKEN}",
        ])
        #expect(made.code == 0, "\(made.errors)")
        #expect(FileManager.default.fileExists(atPath: fromVariable.appendingPathComponent("archives/pager-1.0.0.tar.gz").path))
        Self.expectNoToken(made, mirror: fromVariable, "--header ${TEAM_TOKEN}")

        // Written out: still never printed or written.
        let literal = servers.folder.appendingPathComponent("literal")
        let written = try servers.blocks(
            ["mirror", url, literal.path, "--header", "Authorization: Bearer \(Self.token)", "--header", "X-Team-Token: \(Self.token)"], token: nil)
        #expect(written.code == 0, "\(written.errors)")
        Self.expectNoToken(written, mirror: literal, "--header with the token written out")
        let wrong = try servers.blocks(
            ["mirror", url, literal.path, "--header", "Authorization: Bearer \(Self.token)", "--header", "X-Team-Token: not-\(Self.token)"], token: nil)
        #expect(wrong.code == 1 && wrong.errors.contains("failed with HTTP 401; check the headers of --header"), "\(wrong.errors)")
        #expect(!wrong.errors.contains(Self.token))
        let malformed = try servers.blocks(["mirror", url, literal.path, "--header", "Authorization Bearer \(Self.token)"], token: nil)
        #expect(malformed.code != 0 && malformed.errors.contains("is not a header"), "\(malformed.errors)")
        #expect(!malformed.errors.contains(Self.token))
        // The headers go to the private server only.
        #expect(!servers.log("public").contains(Self.token))
        #expect(TeamServers.files(containing: Self.token, under: servers.cache) == [])
    }
}
