import Foundation
import Testing

@testable import BlocksKit

/// The Git source against a real bare repository made with `git`, read through `file://`:
/// add, update after an upstream push, diff, remove, the mirror and `--offline`.
@Suite struct GitSourceTests {
    /// A bare repository with one working clone that pushes to it.
    struct Upstream {
        let root: URL
        var bare: URL { root.appendingPathComponent("up.git") }
        var work: URL { root.appendingPathComponent("work") }

        static func make() throws -> Upstream {
            let upstream = Upstream(root: try TestProject.temporaryFolder("git"))
            try upstream.git(["init", "--quiet", "--bare", upstream.bare.path], in: upstream.root)
            try upstream.git(["init", "--quiet", upstream.work.path], in: upstream.root)
            return upstream
        }

        /// Commits everything in the working clone and pushes it to `main`.
        func push(_ message: String) throws {
            try git(["add", "--all"], in: work)
            try git(["-c", "user.email=test@example.com", "-c", "user.name=Test", "commit", "--quiet", "-m", message], in: work)
            try git(["push", "--quiet", bare.path, "HEAD:main"], in: work)
        }

        func location(ref: String = "main", folder: String) -> String { "git+file://\(bare.path)@\(ref)#\(folder)" }

        @discardableResult
        func git(_ arguments: [String], in folder: URL) throws -> String {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), arguments, in: folder, deadline: 60)
            guard result.code == 0 else { throw TestSupportError("git \(arguments.joined(separator: " ")): \(result.err)") }
            return result.out
        }
    }

    /// The environment `blocks` runs with: git on PATH, a cache of this test's own.
    static func environment(cache: URL) -> [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": cache.path, "XDG_CACHE_HOME": cache.path]
    }

    /// Writes `pager` at `version` as a catalog folder inside the working clone.
    static func putPager(_ version: String, logicLine: String, in upstream: Upstream) throws {
        var block = TestCatalog.Block.standard("pager", type: "Pager", version: version)
        block.files[1].2 = "public enum PagerLogic {\n    public static let version = \"\(version)\"\n    \(logicLine)\n}\n"
        try TestCatalog(root: upstream.work.appendingPathComponent("catalog")).put(block)
    }

    @Test func addUpdateDiffAndRemoveFromAGitRepository() throws {
        let upstream = try Upstream.make()
        let project = try TestProject.make()
        let cache = try TestProject.temporaryFolder("git-cache")
        defer { for folder in [upstream.root, project.root, cache] { try? FileManager.default.removeItem(at: folder) } }
        let environment = Self.environment(cache: cache)
        try Self.putPager("1.0.0", logicLine: "static let steps = 1", in: upstream)
        try upstream.push("pager 1.0.0")
        let location = upstream.location(folder: "catalog")

        let added = project.run(["add", "pager", "--registry", location], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        let logic = "Sources/App/Blocks/pager/PagerLogic.swift"
        #expect(project.read(logic)?.contains("static let steps = 1") == true)
        let entry = try #require(try project.lock().blocks["pager"])
        #expect(entry.registry == location)
        #expect(entry.version == "1.0.0")

        // Upstream moves on; the lock names the Git location, so update fetches again.
        try Self.putPager("1.1.0", logicLine: "static let steps = 2", in: upstream)
        try upstream.push("pager 1.1.0")
        let diff = project.run(["diff", "pager", "--upstream"], environment: environment)
        #expect(diff.output.contains("+    static let steps = 2"), "\(diff.output)\(diff.errors)")
        let updated = project.run(["update", "pager"], environment: environment)
        #expect(updated.code == 0, "\(updated.errors)")
        #expect(project.read(logic)?.contains("static let steps = 2") == true)
        #expect(try project.lock().blocks["pager"]?.version == "1.1.0")

        // Offline reads what the last fetch left.
        let offline = project.run(["list", "--registry", location, "--offline"], environment: environment)
        #expect(offline.code == 0 && offline.output.contains("pager"), "\(offline.errors)")

        let removed = project.run(["remove", "pager"], environment: environment)
        #expect(removed.code == 0, "\(removed.errors)")
        #expect(!project.exists(logic))
    }

    @Test func aBuiltRegistryInGitIsMirrored() throws {
        let upstream = try Upstream.make()
        let cache = try TestProject.temporaryFolder("git-cache")
        let mirror = try TestProject.temporaryFolder("git-mirror")
        defer { for folder in [upstream.root, cache, mirror] { try? FileManager.default.removeItem(at: folder) } }
        try Self.putPager("1.0.0", logicLine: "static let steps = 1", in: upstream)
        let built = runBlocks(["build", "--catalog", upstream.work.appendingPathComponent("catalog").path, "--output", upstream.work.appendingPathComponent("registry").path])
        #expect(built.code == 0, "\(built.err)")
        try upstream.push("registry")

        let destination = mirror.appendingPathComponent("dest")
        let environment = Self.environment(cache: cache)
        let mirrored = runBlocks(["mirror", upstream.location(folder: "registry"), destination.path], in: mirror, environment: environment)
        #expect(mirrored.code == 0, "\(mirrored.err)")
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("index.json").path))
        let verified = runBlocks(["mirror", "--verify", destination.path], in: mirror, environment: environment)
        #expect(verified.code == 0, "\(verified.err)")
        // The mirror is a registry like any other: add reads from it.
        let listed = runBlocks(["list", "--registry", destination.path], in: mirror, environment: environment)
        #expect(listed.out.contains("pager"), "\(listed.err)")
    }

    /// Run from a git hook, blocks inherits variables that point git at the user's own
    /// repository; the registry's checkout must never land in its index or work tree.
    @Test func aHooksRepositoryVariablesAreNotFollowed() throws {
        let upstream = try Upstream.make()
        let project = try TestProject.make()
        let cache = try TestProject.temporaryFolder("git-cache")
        let victim = try TestProject.temporaryFolder("git-victim")
        defer { for folder in [upstream.root, project.root, cache, victim] { try? FileManager.default.removeItem(at: folder) } }
        try Self.putPager("1.0.0", logicLine: "static let steps = 1", in: upstream)
        try upstream.push("pager 1.0.0")
        var environment = Self.environment(cache: cache)
        environment["GIT_INDEX_FILE"] = victim.appendingPathComponent("index").path
        environment["GIT_WORK_TREE"] = victim.appendingPathComponent("tree").path
        environment["GIT_OBJECT_DIRECTORY"] = victim.appendingPathComponent("objects").path
        let added = project.run(["add", "pager", "--registry", upstream.location(folder: "catalog")], environment: environment)
        #expect(added.code == 0, "\(added.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == [])
    }

    @Test func badLocationsGetOneClearError() throws {
        let project = try TestProject.make()
        let cache = try TestProject.temporaryFolder("git-cache")
        defer { for folder in [project.root, cache] { try? FileManager.default.removeItem(at: folder) } }
        let environment = Self.environment(cache: cache)
        let before = try project.treeHash()

        let password = project.run(["add", "pager", "--registry", "git+https://me:secret@example.com/org/repo@main"], environment: environment)
        #expect(password.code == 1)
        #expect(password.errors.contains("holds user information"), "\(password.errors)")
        #expect(!password.errors.contains("secret@"))
        // Over https a lone user name is as often a token, which the lock would keep.
        let token = project.run(["add", "pager", "--registry", "git+https://ghp_TOKEN123@example.com/org/repo@main"], environment: environment)
        #expect(token.code == 1)
        #expect(token.errors.contains("holds user information"), "\(token.errors)")
        #expect(!token.errors.contains("ghp_TOKEN123"), "\(token.errors)")
        let sshPassword = project.run(["add", "pager", "--registry", "git+ssh://git:secret@example.com/org/repo@main"], environment: environment)
        #expect(sshPassword.errors.contains("holds a password"), "\(sshPassword.errors)")
        // A plugin's location is kept as typed too.
        let plugin = project.run(["add", "pager", "--registry", "company://me:secret@team"], environment: environment)
        #expect(plugin.code == 1)
        #expect(plugin.errors.contains("holds user information") && !plugin.errors.contains("secret"), "\(plugin.errors)")

        let missing = project.run(["add", "pager", "--registry", "git+file:///nonexistent/repo.git@main"], environment: environment)
        #expect(missing.code == 1)
        #expect(missing.errors.contains("git fetch failed"), "\(missing.errors)")

        let neverFetched = project.run(["add", "pager", "--registry", "git+file:///nonexistent/repo.git@main", "--offline"], environment: environment)
        #expect(neverFetched.errors.contains("never fetched"), "\(neverFetched.errors)")

        let option = project.run(["add", "pager", "--registry", "git+file:///srv/repo.git@--upload-pack=evil"], environment: environment)
        #expect(option.errors.contains("is not a branch, tag or commit"), "\(option.errors)")

        let unknown = project.run(["list", "--registry", "svn://host/repo"], environment: environment)
        #expect(unknown.errors.contains("git+https://"), "\(unknown.errors)")
        #expect(try project.treeHash() == before)
    }

    @Test func locationsParse() throws {
        let plain = try GitSource.Location("git+https://host.example/org/repo.git")
        #expect(plain.repository == "https://host.example/org/repo.git")
        #expect(plain.ref == nil)
        #expect(plain.folder == "")
        let full = try GitSource.Location("git+ssh://git@host.example/org/repo@release/2.0#registries/ui/")
        #expect(full.repository == "ssh://git@host.example/org/repo")
        #expect(full.ref == "release/2.0")
        #expect(full.folder == "registries/ui")
        #expect(full.transportScheme == "ssh")
        #expect(throws: PluginError.self) { try GitSource.Location("git+file:///srv/repo#../outside") }
        // A port after a user name is no password; a password is refused.
        #expect(try GitSource.Location("git+ssh://git@host.example:2222/org/repo@v1").repository == "ssh://git@host.example:2222/org/repo")
        #expect(throws: PluginError.self) { try GitSource.Location("git+https://me:secret@host.example/org/repo") }
        #expect(throws: PluginError.self) { try GitSource.Location("git+https://host.example") }
    }
}
