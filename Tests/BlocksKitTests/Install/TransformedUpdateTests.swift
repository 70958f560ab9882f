import Foundation
import Testing

@testable import BlocksKit

/// `add` and `update` through the transforms blocks.json lists, with the real built-in
/// plugins (the toolchain's `swift format` among them): the merge's sides are the
/// transformed old version, the transformed new version and the user's file, so a
/// reformatting or renaming chain causes no conflict by itself.
@Suite struct TransformedUpdateTests {
    static let logic = "Sources/App/Blocks/pager/PagerLogic.swift"

    /// `pager` whose logic file has two lines far enough apart to change independently.
    static func pager(_ version: String, steps: Int) -> TestCatalog.Block {
        var block = TestCatalog.Block.standard("pager", type: "Pager", version: version)
        block.files[1].2 = """
            public enum PagerLogic {
                public static let steps = \(steps)
                public static let spacing = 8
                public static let padding = 4
                public static let title = "Pages"
            }

            """
        return block
    }

    /// The environment `blocks` runs with: the toolchain on PATH for `swift format`.
    static var environment: [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": testCacheFolder.path]
    }

    /// Adds pager 1.0.0 through `transforms`, edits one line as a user would, publishes
    /// 1.1.0 with another line changed, and updates. Returns the file after add and after update.
    static func addEditAndUpdate(transforms: String, extraFiles: [String: String] = [:]) throws -> (added: String, updated: String, result: CommandResult, project: TestProject) {
        let catalog = try TestCatalog.make([pager("1.0.0", steps: 1)])
        defer { catalog.delete() }
        let project = try TestProject.make()
        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": \(transforms)}\n")
        for (path, text) in extraFiles { try project.write(path, text) }
        let added = project.run(["add", "pager"], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        let installed = try #require(project.read(logic))
        try project.write(logic, installed.replacingOccurrences(of: "\"Pages\"", with: "\"My pages\""))
        try catalog.put(pager("1.1.0", steps: 2))
        let updated = project.run(["update", "pager"], environment: environment)
        return (installed, project.read(logic) ?? "", updated, project)
    }

    @Test func aSwiftFormatChainWithTwoSpaceIndentationMergesCleanly() throws {
        let (added, updated, result, project) = try Self.addEditAndUpdate(
            transforms: "[\"swift-format\"]", extraFiles: [".swift-format": "{\"version\": 1, \"indentation\": {\"spaces\": 2}}\n"])
        defer { project.delete() }
        // The chain ran: the project's style, not the registry's four spaces.
        #expect(added.contains("\n  public static let steps = 1\n"), "\(added)")
        #expect(result.code == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("merge"), "\(result.output)")
        let expected = added.replacingOccurrences(of: "steps = 1", with: "steps = 2").replacingOccurrences(of: "\"Pages\"", with: "\"My pages\"")
        #expect(updated == expected)
        #expect(try project.lock().blocks["pager"]?.transforms?.hasPrefix("swift-format ") == true)
    }

    @Test func aPrefixChainMergesCleanlyAndRenamesEveryFile() throws {
        let (added, updated, result, project) = try Self.addEditAndUpdate(transforms: "[{\"plugin\": \"prefix\", \"options\": {\"prefix\": \"BK\"}}]")
        defer { project.delete() }
        #expect(added.contains("public enum BKPagerLogic {"), "\(added)")
        #expect(project.read("Sources/App/Blocks/pager/PagerDemo.swift")?.contains("BKPager()") == true)
        #expect(result.code == 0, "\(result.output)\(result.errors)")
        let expected = added.replacingOccurrences(of: "steps = 1", with: "steps = 2").replacingOccurrences(of: "\"Pages\"", with: "\"My pages\"")
        #expect(updated == expected)
    }

    @Test func aChangedChainIsNoticedAndRetransformKeepsTheUsersEdits() throws {
        let catalog = try TestCatalog.make([Self.pager("1.0.0", steps: 1)])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let prefix = "{\"plugin\": \"prefix\", \"options\": {\"prefix\": \"BK\"}}"
        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [\(prefix)]}\n")
        #expect(project.run(["add", "pager"], environment: Self.environment).code == 0)
        let installed = try #require(project.read(Self.logic))
        // The user's edit is a line of their own, clear of the lines the new chain changes.
        try project.write(Self.logic, installed + "\n// Tuned for our app.\n")

        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [\(prefix), {\"plugin\": \"access-level\", \"options\": {\"level\": \"internal\"}}]}\n")
        let before = try project.treeHash()
        let refused = project.run(["update", "pager"], environment: Self.environment)
        #expect(refused.code == 1)
        #expect(refused.errors.contains("--retransform"), "\(refused.errors)")
        #expect(try project.treeHash() == before)

        let retransformed = project.run(["update", "--retransform", "pager"], environment: Self.environment)
        #expect(retransformed.code == 0, "\(retransformed.output)\(retransformed.errors)")
        let file = try #require(project.read(Self.logic))
        let expected = installed.replacingOccurrences(of: "public ", with: "") + "\n// Tuned for our app.\n"
        #expect(file == expected)
        #expect(try project.lock().blocks["pager"]?.transforms?.hasPrefix("prefix+access-level ") == true)
        // Now the lock and blocks.json agree: a plain update has nothing to say.
        #expect(project.run(["update", "pager"], environment: Self.environment).code == 0)
    }

    @Test func aFailingOrUnknownTransformWritesNothing() throws {
        let catalog = try TestCatalog.make([Self.pager("1.0.0", steps: 1)])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let failing = "\"plugins\": {\"boom\": {\"command\": [\"sh\", \"-c\", \"cat >/dev/null; echo broken >&2; exit 3\"]}}"
        for (config, message) in [
            ("\"transforms\": [\"boom\"], \(failing)", "plugin 'boom' failed with exit code 3"),
            ("\"transforms\": [\"no-such-plugin\"]", "no plugin 'no-such-plugin'"),
            ("\"transforms\": [42]", "each entry is a plugin's name"),
        ] {
            try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \(config)}\n")
            let before = try project.treeHash()
            let result = project.run(["add", "pager"], environment: Self.environment)
            #expect(result.code == 1)
            #expect(result.errors.contains(message), "\(result.errors)")
            #expect(try project.treeHash() == before)
        }
    }

    @Test func diffUpstreamShowsTheTransformedChange() throws {
        let catalog = try TestCatalog.make([Self.pager("1.0.0", steps: 1)])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [{\"plugin\": \"prefix\", \"options\": {\"prefix\": \"BK\"}}]}\n")
        #expect(project.run(["add", "pager"], environment: Self.environment).code == 0)
        try catalog.put(Self.pager("1.1.0", steps: 2))
        let diff = project.run(["diff", "--upstream", "pager"], environment: Self.environment)
        #expect(diff.output.contains("-    public static let steps = 1\n+    public static let steps = 2\n"), "\(diff.output)")
        // Only that line: the renamed types are the same on both sides.
        #expect(!diff.output.contains("-public enum"), "\(diff.output)")
        // The lock hashes the transformed bytes: status sees the files as unchanged, and
        // remove deletes them without --force.
        let status = project.run(["status"], environment: Self.environment)
        #expect(!status.output.contains("modified"), "\(status.output)")
        let removed = project.run(["remove", "pager"], environment: Self.environment)
        #expect(removed.code == 0, "\(removed.errors)")
        #expect(!project.exists(Self.logic))
    }

    @Test func pluginCheckRunsTheChainTwice() throws {
        let catalog = try TestCatalog.make([Self.pager("1.0.0", steps: 1)])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        // A transform that stamps the time: the same input gives other files each run.
        let stamping = """
            "plugins": {"stamp": {"command": ["sh", "-c", "read -r request; case \\"$request\\" in *capabilities*) echo '{\\"protocolVersion\\":1,\\"capabilities\\":[\\"transform\\"]}' ;; *) printf '%s\\\\n' \\"$request\\" | sed \\"s/PagerLogic/PagerLogic$(date +%N)/g\\" ;; esac"]}}
            """
        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [{\"plugin\": \"prefix\", \"options\": {\"prefix\": \"BK\"}}]}\n")
        let steady = project.run(["plugin", "check", "pager"], environment: Self.environment)
        #expect(steady.code == 0, "\(steady.errors)")
        #expect(steady.output.contains("pager: the same files on both runs of prefix "), "\(steady.output)")

        try project.write("blocks.json", "{\"registry\": \"\(catalog.root.path)\", \"transforms\": [\"stamp\"], \(stamping)}\n")
        let unsteady = project.run(["plugin", "check", "pager"], environment: Self.environment)
        #expect(unsteady.code == 1)
        #expect(unsteady.errors.contains("gave different files for the same input"), "\(unsteady.errors)")
    }
}
