import Foundation
import Testing

@testable import BlocksKit

/// `update` over a project with namespaced blocks, from two real nginx registries: `@pub`
/// (public) and `@team` (answers only with the token). A new version that gains block
/// dependencies gets them in the same run, each from its own registry; one that needs a
/// newer version of a block the project has updates that block too; one that drops a
/// dependency stops being listed as its dependent; a new package dependency gets the
/// SwiftPM steps `add` runs.
@Suite(.serialized) struct UpdateDependencyTests {
    static let block = BlockDependencyTests.block
    static let collections = BlockDependencyTests.collections

    static let teamV1 = [block("pager", "TeamPager", "1.0.0", ["@pub/indicator@^1"], []), block("badge", "Badge", "1.0.0", [], [])]
    static let pubV1 = [block("indicator", "Indicator", "1.0.0", [], []), block("haptics", "Haptics", "1.0.0", [], [])]

    static func servers() throws -> TeamServers {
        let servers = try TeamServers(publicBlocks: pubV1, privateBlocks: teamV1)
        try servers.project.write("blocks.json", servers.bothNamespacesConfig)
        return servers
    }

    /// Publishes new versions into a server's registry folder, keeping the older ones.
    static func publish(_ blocks: [TestCatalog.Block], to registry: String, of servers: TeamServers) throws {
        _ = try TeamServers.built(blocks, into: servers.folder.appendingPathComponent(registry))
    }

    @Test func updateFollowsNamespacesAndAddsNewDependenciesInOneRun() throws {
        let servers = try Self.servers()
        let project = servers.project
        var outputs: [String] = []
        func run(_ arguments: [String]) throws -> CommandResult {
            let result = try servers.blocks(arguments)
            outputs += [result.output, result.errors]
            return result
        }
        let added = try run(["add", "@team/pager", "@team/badge", "scrolling-strip"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["@pub/indicator"]?.requiredBy == ["@team/pager"])
        // The user's own line, which the update must keep.
        let pagerFile = "Sources/App/Blocks/team/pager/TeamPager.swift"
        try project.write(pagerFile, try #require(project.read(pagerFile)) + "// mine\n")

        // 1.1.0 needs badge (already here, at a version that will do), @pub/haptics (new),
        // @pub/indicator 2 (the project has 1.0.0) and a Swift package.
        try Self.publish(
            [
                Self.block("pager", "TeamPager", "1.1.0", ["badge", "@pub/haptics", "@pub/indicator@^2"], [Self.collections]),
                Self.block("badge", "Badge", "1.1.0", [], []),
            ], to: "private", of: servers)
        try Self.publish([Self.block("indicator", "Indicator", "2.0.0", [], []), Self.block("haptics", "Haptics", "1.0.0", [], [])], to: "public", of: servers)

        let before = try project.treeHash()
        let dry = try run(["update", "@team/pager", "--dry-run"])
        #expect(dry.code == 0, "\(dry.output)\(dry.errors)")
        #expect(dry.output.contains("Would add @pub/haptics 1.0.0 in Sources/App/Blocks/pub/haptics (needed by @team/pager)"), "\(dry.output)")
        #expect(dry.output.contains("would run swift package add-dependency --from 1.1.0 -- https://github.com/apple/swift-collections.git"), "\(dry.output)")
        #expect(try project.treeHash() == before)

        let updated = try run(["update", "@team/pager"])
        #expect(updated.code == 0, "\(updated.output)\(updated.errors)")
        #expect(updated.output.contains("Updated @team/pager 1.0.0 -> 1.1.0"), "\(updated.output)")
        #expect(updated.output.contains("Updated @pub/indicator 1.0.0 -> 2.0.0"))
        #expect(updated.output.contains("Added @pub/haptics 1.0.0 in Sources/App/Blocks/pub/haptics (needed by @team/pager)"))
        #expect(updated.output.contains("run       swift package add-target-dependency --package swift-collections -- OrderedCollections App"))
        #expect(!updated.output.contains("badge"), "badge 1.0.0 does for pager 1.1.0; only what was named is updated")
        let pager = try #require(project.read(pagerFile))
        #expect(pager.contains("Text(\"1.1.0\")") && pager.hasSuffix("// mine\n"), "merged: \(pager)")
        #expect(project.read("Sources/App/Blocks/pub/haptics/Haptics.swift")?.contains("struct Haptics") == true)
        #expect(project.read("Sources/App/Blocks/pub/indicator/Indicator.swift")?.contains("Text(\"2.0.0\")") == true)

        var lock = try project.lock()
        #expect(lock.blocks["@team/pager"]?.version == "1.1.0" && lock.blocks["@team/pager"]?.requested == true)
        #expect(lock.blocks["@pub/haptics"]?.requiredBy == ["@team/pager"] && lock.blocks["@pub/haptics"]?.requested == false)
        #expect(lock.blocks["@pub/haptics"]?.namespace == "@pub" && lock.blocks["@pub/haptics"]?.registry == servers.publicServer.baseURL)
        #expect(lock.blocks["@pub/indicator"]?.version == "2.0.0" && lock.blocks["@pub/indicator"]?.requested == false)
        #expect(lock.blocks["@team/badge"]?.requiredBy == ["@team/pager"] && lock.blocks["@team/badge"]?.requested == true)
        #expect(lock.blocks["@team/badge"]?.version == "1.0.0")

        // SwiftPM's own reading of the edited manifest.
        let dump = try runTool("swift", ["package", "dump-package"], in: project.root)
        #expect(dump.code == 0, "\(dump.err)")
        #expect(dump.out.contains("\"urlString\" : \"https://github.com/apple/swift-collections.git\""), "\(dump.out)")

        // diff --upstream reads a namespaced block through its headers too.
        let upstream = try run(["diff", "@team/badge", "--upstream"])
        #expect(upstream.code == 1 && upstream.output.contains("+    public var body: some View { Text(\"1.1.0\") }"), "\(upstream.output)\(upstream.errors)")

        // --all: badge from @team through its headers, the embedded block as it is.
        let all = try run(["update", "--all"])
        #expect(all.code == 0, "\(all.output)\(all.errors)")
        #expect(all.output.contains("Updated @team/badge 1.0.0 -> 1.1.0"), "\(all.output)")
        #expect(all.output.contains("Up to date: scrolling-strip"))
        #expect(all.output.contains("Up to date: @team/pager 1.1.0") && !all.output.contains("  run "), "\(all.output)")
        lock = try project.lock()
        #expect(lock.blocks["@team/badge"]?.version == "1.1.0" && lock.blocks["@team/badge"]?.requiredBy == ["@team/pager"])

        // 1.2.0 needs only badge: haptics and indicator stay, no longer listed as its.
        try Self.publish(
            [Self.block("pager", "TeamPager", "1.2.0", ["badge"], [Self.collections]), Self.block("badge", "Badge", "1.1.0", [], [])],
            to: "private", of: servers)
        let dropped = try run(["update", "@team/pager", "--json"])
        #expect(dropped.code == 0, "\(dropped.errors)")
        #expect(dropped.output.contains("\"name\" : \"@team/pager\"") && dropped.output.contains("\"namespace\" : \"@team\""), "\(dropped.output)")
        lock = try project.lock()
        #expect(lock.blocks["@team/pager"]?.version == "1.2.0")
        #expect(lock.blocks["@pub/haptics"]?.requiredBy == [] && lock.blocks["@pub/indicator"]?.requiredBy == [])
        #expect(lock.blocks["@team/badge"]?.requiredBy == ["@team/pager"])

        // The token went to @team only, and was never printed or written.
        #expect(servers.log("private").contains("/blocks/pager.json auth=[Bearer \(TeamServers.token)]"), "\(servers.log("private"))")
        #expect(!servers.log("public").contains(TeamServers.token))
        for text in outputs { #expect(!text.contains(TeamServers.token)) }
        #expect(TeamServers.files(containing: TeamServers.token, under: servers.cache) == [])
        #expect(TeamServers.files(containing: TeamServers.token, under: project.root) == [])
    }

    @Test func anUpdateWhoseNewDependencyCannotBeMetWritesNothing() throws {
        let servers = try Self.servers()
        #expect(try servers.blocks(["add", "@team/pager"]).code == 0)
        try Self.publish(
            [Self.block("pager", "TeamPager", "1.1.0", ["@pub/indicator@^3"], []), Self.block("badge", "Badge", "1.0.0", [], [])],
            to: "private", of: servers)
        let before = try servers.project.treeHash()
        let result = try servers.blocks(["update", "@team/pager"])
        #expect(result.code == 1)
        #expect(result.errors.contains("@team/pager needs @pub/indicator@^3.0.0, but no published version meets it"), "\(result.errors)")
        #expect(try servers.project.treeHash() == before)
        // Without the token the namespace's variable is named, and nothing is written.
        let unset = try servers.blocks(["update", "--all"], token: nil)
        #expect(unset.code == 1 && unset.errors.contains("needs TEAM_TOKEN, which is not set"), "\(unset.errors)")
        #expect(try servers.project.treeHash() == before)
    }
}
