import Foundation
import Testing

@testable import BlocksKit

/// Blocks that depend on blocks in another registry and on Swift packages, from two real
/// nginx registries: `@pub` (public) and `@team` (needs the token).
@Suite(.serialized) struct BlockDependencyTests {
    static func block(_ name: String, _ type: String, version: String = "1.0.0", needs: [String] = [], packages: [PackageDependency] = []) -> TestCatalog.Block
    {
        var block = TestCatalog.Block.standard(name, type: type, version: version)
        block.dependencies = needs.isEmpty && packages.isEmpty ? nil : BlockDependencies(blocks: needs, packages: packages)
        return block
    }

    static let collections = PackageDependency(url: "https://github.com/apple/swift-collections.git", from: "1.1.0", products: ["OrderedCollections"])

    static func servers() throws -> TeamServers {
        let servers = try TeamServers(
            publicBlocks: [
                block("indicator", "Indicator", version: "1.3.0"), block("strip", "Strip", needs: ["indicator@^1.2"]),
                block("haptics", "Haptics"), block("cyc-a", "CycA", needs: ["cyc-b"]), block("cyc-b", "CycB", needs: ["cyc-a"]),
                block("needs-new", "NeedsNew", needs: ["indicator@^2"]), block("old-indicator", "OldIndicator", needs: ["indicator@~1.0"]),
            ],
            privateBlocks: [
                block("pager", "TeamPager", needs: ["@pub/strip", "badge"], packages: [collections]),
                block("badge", "Badge", needs: ["@pub/haptics"]), block("tabs", "Tabs", needs: ["badge"]),
            ],
            publicEarlier: [block("indicator", "Indicator", version: "1.0.0")])
        try servers.project.write("blocks.json", servers.bothNamespacesConfig)
        return servers
    }

    @Test func addBringsEveryDependencyAcrossRegistriesAndThePackage() throws {
        let servers = try Self.servers()
        let project = servers.project
        let packageBefore = project.read("Package.swift")
        let dry = try servers.blocks(["add", "@team/pager", "--dry-run"])
        #expect(dry.code == 0, "\(dry.errors)")
        #expect(dry.output.contains("would run swift package add-dependency --from 1.1.0 -- https://github.com/apple/swift-collections.git"), "\(dry.output)")
        #expect(dry.output.contains("would run swift package add-target-dependency --package swift-collections -- OrderedCollections App"))
        #expect(project.read("Package.swift") == packageBefore && !project.exists("blocks.lock"))

        // SwiftPM's temporary files go to a folder of the project's, which is then removed.
        let temporary = servers.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let added = try servers.blocks(["add", "@team/pager"], environment: ["TMPDIR": temporary.path])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter { $0.hasPrefix(StagingArea.prefix) } == [])
        let order = added.output.split(separator: "\n").filter { $0.hasPrefix("Added ") }.map { String($0.split(separator: " ")[1]) }
        #expect(order == ["@pub/indicator", "@pub/strip", "@pub/haptics", "@team/badge", "@team/pager"], "\(added.output)")
        #expect(added.output.contains("Added @pub/indicator 1.3.0 in Sources/App/Blocks/pub/indicator (needed by @pub/strip)"))
        let lock = try project.lock()
        #expect(lock.blocks["@pub/indicator"]?.requiredBy == ["@pub/strip"])
        #expect(lock.blocks["@pub/indicator"]?.requested == false)
        #expect(lock.blocks["@team/badge"]?.requiredBy == ["@team/pager"])
        #expect(lock.blocks["@team/pager"]?.requested == true && lock.blocks["@team/pager"]?.requiredBy == [])
        #expect(lock.blocks["@pub/haptics"]?.registry == servers.publicServer.baseURL)

        // SwiftPM's own reading of the edited manifest.
        let dump = try runTool("swift", ["package", "dump-package"], in: project.root)
        #expect(dump.code == 0, "\(dump.err)")
        #expect(dump.out.contains("\"urlString\" : \"https://github.com/apple/swift-collections.git\""), "\(dump.out)")
        #expect(dump.out.contains("\"OrderedCollections\""))
        // Once there, a second add leaves Package.swift alone.
        let manifest = project.read("Package.swift")
        #expect(try servers.blocks(["add", "@team/pager"]).output.contains("run ") == false)
        #expect(project.read("Package.swift") == manifest)

        // @team's dependency on @pub went without the token; @team's own with it.
        #expect(!servers.log("public").contains(TeamServers.token))
        #expect(servers.log("public").contains("/blocks/haptics.json"))
        #expect(servers.log("private").contains("/blocks/badge.json auth=[Bearer \(TeamServers.token)]"), "\(servers.log("private"))")

        let status = try servers.blocks(["status"])
        #expect(status.output.contains("  needs     @pub/strip 1.0.0, @team/badge 1.0.0"), "\(status.output)")
        #expect(!status.errors.contains("cannot check"), "namespaced blocks are checked through their headers: \(status.errors)")
        let info = try servers.blocks(["info", "@team/pager"])
        #expect(info.output.contains("Dependencies"), "\(info.output)")
        #expect(info.output.contains("@pub/strip") && info.output.contains("swift-collections"))
    }

    @Test func aCycleAndAnUnmetRequirementEachStopBeforeAnyWrite() throws {
        let servers = try Self.servers()
        let before = try servers.project.treeHash()
        let cycle = try servers.blocks(["add", "@pub/cyc-a"])
        #expect(cycle.code == 1)
        #expect(cycle.errors.contains("in a cycle: @pub/cyc-a -> @pub/cyc-b -> @pub/cyc-a"), "\(cycle.errors)")
        let unmet = try servers.blocks(["add", "@pub/needs-new"])
        #expect(unmet.code == 1)
        #expect(
            unmet.errors.contains("@pub/needs-new needs @pub/indicator@^2.0.0, but no published version meets it (there are 1.3.0, 1.0.0)"), "\(unmet.errors)")
        #expect(try servers.project.treeHash() == before)
        // Narrowed to @team, a dependency in @pub still resolves.
        let narrowed = try servers.blocks(["add", "badge", "--registry", "@team", "--dry-run"])
        #expect(narrowed.code == 0 && narrowed.output.contains("pub/haptics"), "\(narrowed.output) \(narrowed.errors)")
        // An older version that the requirement allows is taken from the registry's history.
        let old = try servers.blocks(["add", "@pub/old-indicator"])
        #expect(old.output.contains("Added @pub/indicator 1.0.0"), "\(old.output) \(old.errors)")
    }

    @Test func removeKeepsWhatAnotherBlockStillNeeds() throws {
        let servers = try Self.servers()
        #expect(try servers.blocks(["add", "@team/pager"]).code == 0)
        #expect(try servers.blocks(["add", "@team/tabs"]).code == 0)
        #expect(try servers.project.lock().blocks["@team/badge"]?.requiredBy == ["@team/pager", "@team/tabs"], "a block already there gains a dependent")

        let shared = try servers.blocks(["remove", "@team/badge"])
        #expect(shared.code == 0)
        #expect(shared.errors.contains("kept @team/badge: @team/pager, @team/tabs still need it"), "\(shared.errors)")
        #expect(try servers.project.lock().blocks["@team/badge"] != nil)

        let removed = try servers.blocks(["remove", "@team/pager", "--with-dependencies"])
        #expect(removed.code == 0, "\(removed.errors)")
        let lock = try servers.project.lock()
        #expect(lock.blocks["@team/pager"] == nil && lock.blocks["@pub/strip"] == nil && lock.blocks["@pub/indicator"] == nil)
        #expect(lock.blocks["@team/badge"]?.requiredBy == ["@team/tabs"], "tabs still needs badge")
        #expect(lock.blocks["@pub/haptics"] != nil, "badge still needs haptics")
        #expect(!servers.project.exists("Sources/App/Blocks/pub/strip"))
    }

    @Test func withoutSwiftThePackageIsSaidNotAdded() throws {
        let servers = try Self.servers()
        let before = servers.project.read("Package.swift")
        let result = try servers.project.runBinary(
            ["add", "@team/pager"], environment: ["TEAM_TOKEN": TeamServers.token, "XDG_CACHE_HOME": servers.cache.path, "PATH": "/usr/bin:/bin"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(
            result.errors.contains(
                "note: @team/pager needs the package https://github.com/apple/swift-collections.git (from: \"1.1.0\") with OrderedCollections: add it to Package.swift and the products to the target App"
            ), "\(result.errors)")
        #expect(servers.project.read("Package.swift") == before)
    }

    @Test func requirementsParse() {
        #expect(
            BlockRequirement("tab-indicator@^1.2")
                == BlockRequirement(reference: BlockReference(namespace: nil, name: "tab-indicator"), versions: .caret("1.2.0")))
        #expect(BlockRequirement("@acme/x@~1.2.3")?.versions == .tilde("1.2.3"))
        #expect(BlockRequirement("x@>=2")?.versions == .atLeast("2.0.0"))
        #expect(BlockRequirement("x@1.0.0")?.versions == .exact("1.0.0"))
        #expect(BlockRequirement("x@^") == nil && BlockRequirement("x@banana") == nil && BlockRequirement("X") == nil)
        #expect(VersionRequirement.caret("1.2.0").isSatisfied(by: "1.9.0") && !VersionRequirement.caret("1.2.0").isSatisfied(by: "2.0.0"))
        #expect(!VersionRequirement.caret("1.2.0").isSatisfied(by: "1.1.9"))
        #expect(VersionRequirement.caret("0.3.0").isSatisfied(by: "0.3.5") && !VersionRequirement.caret("0.3.0").isSatisfied(by: "0.4.0"))
        #expect(VersionRequirement.tilde("1.2.0").isSatisfied(by: "1.2.9") && !VersionRequirement.tilde("1.2.0").isSatisfied(by: "1.3.0"))
        #expect(PackageDependency(url: "not a url", from: "1.0.0", products: ["A"]).problem != nil)
        #expect(PackageDependency(url: "https://h.test/p.git", from: "1.0.0", exact: "1.0.0", products: ["A"]).problem != nil)
        #expect(PackageDependency(url: "https://h.test/p.git", exact: "1.0", products: ["A"]).problem != nil)
        #expect(PackageDependency(url: "https://h.test/p.git", from: "1.0.0", products: ["A"]).problem == nil)
    }
}
