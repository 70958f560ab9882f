import Foundation
import Testing

@testable import BlocksKit

/// `kill -9` at random moments during an `add` that brings dependencies, with the real
/// binary and two real nginx registries (`TeamServers`): `@team/root` needs `@team/part-a`
/// and `@pub/part-b`, which needs `@pub/part-c`, four blocks of six files in one
/// transaction. After every kill: each block file is absent or exactly what a whole run
/// writes, never partial; nothing else lies around but staging leftovers; the lock is
/// absent or exactly the one a whole run writes, and then every file it names exists.
/// Each run that is not killed, the re-runs after kills included, leaves exactly what one
/// uninterrupted run leaves, folders and lock included.
@Suite(.serialized) struct DependencyKillLoopTests {
    static let filesPerBlock = 6
    static let stepPause: UInt32 = 4_000
    static let iterations = 30
    static let extraIterations = 40
    /// Kills that must land between the first rename and the lock, and runs that must
    /// finish right after a kill, or the loop did not test what it claims.
    static let requiredMidRun = 3
    static let requiredResumes = 3
    static let blocksFolder = "Sources/App/Blocks"
    static let fixedFiles: Set<String> = ["Package.swift", "Sources/App/x.swift", "blocks.json"]

    static func block(_ name: String, needs: [String]) -> TestCatalog.Block {
        let files = (0..<filesPerBlock).map { index -> (String, String, String) in
            let type = name.split(separator: "-").map(\.capitalized).joined() + "Part\(index)"
            let body = (0..<300).map { "let line\($0) = \"\(name) \(index)\"\n" }.joined()
            return ("\(type).swift", index == 0 ? "logic" : "component", body)
        }
        var block = TestCatalog.Block(name: name, files: files)
        block.dependencies = needs.isEmpty ? nil : BlockDependencies(blocks: needs)
        return block
    }

    /// Every file under the root but the project's own (and staging leftovers), by path.
    static func snapshot(_ project: TestProject) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: project.root.path)
        while let item = walker?.nextObject() as? String {
            if item.hasPrefix(StagingArea.prefix) || fixedFiles.contains(item) { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: project.url(item).path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[item] = FileManager.default.contents(atPath: project.url(item).path)
        }
        return files
    }

    /// The paths whose bytes differ between two snapshots, sorted.
    static func differences(_ one: [String: Data], _ other: [String: Data]) -> [String] {
        Set(one.keys).union(other.keys).filter { one[$0] != other[$0] }.sorted()
    }

    @Test func killedAddsOfADependencyGraphLeaveNothingHalfDoneAndAReRunFinishes() throws {
        let servers = try TeamServers(
            publicBlocks: [Self.block("part-b", needs: ["part-c"]), Self.block("part-c", needs: [])],
            privateBlocks: [Self.block("root", needs: ["part-a", "@pub/part-b"]), Self.block("part-a", needs: [])])
        let config = servers.bothNamespacesConfig
        let project = servers.project
        let reference = try TestProject.make()
        defer { reference.delete() }
        try project.write("blocks.json", config)
        try reference.write("blocks.json", config)
        let environment = [
            "XDG_CACHE_HOME": servers.cache.path, "BLOCKS_TOKEN": "", "TEAM_TOKEN": TeamServers.token, "SOURCE_DATE_EPOCH": "1767225600",
        ]
        let arguments = ["add", "@team/root"]

        // One whole run, timed, gives the state to reach and spreads the kill delays.
        let start = Date()
        let whole = try reference.runBinary(arguments, environment: environment)
        let longestRun = Date().timeIntervalSince(start)
        #expect(whole.code == 0, "\(whole.errors)")
        let after = Self.snapshot(reference)
        let newLock = try #require(after["blocks.lock"])
        #expect(after.count == 4 * Self.filesPerBlock + 1, "\(after.keys.sorted())")
        #expect(Set(try reference.lock().blocks.keys) == ["@team/root", "@team/part-a", "@pub/part-b", "@pub/part-c"])
        let referenceTree = try reference.treeHash()

        var generator = SystemRandomNumberGenerator()
        let pauses = Double(4 * Self.filesPerBlock * Int(Self.stepPause)) / 1_000_000
        var kills = 0
        var midRun = 0
        var resumes = 0
        var runs = 0
        var killedLast = false
        var observedRun = longestRun
        try KillLoop.loop(
            iterations: Self.iterations, extraIterations: Self.extraIterations,
            until: { midRun >= Self.requiredMidRun && resumes >= Self.requiredResumes }
        ) { iteration in
            runs += 1
            var runEnvironment = environment
            let paused = iteration % 4 != 3
            if paused { runEnvironment["BLOCKS_TEST_STEP_PAUSE_US"] = String(Self.stepPause) }
            let expected = observedRun + (paused ? pauses : 0)
            // Every third run after a kill is let finish (within 60 s): the re-run under test.
            let letFinish = killedLast && iteration % 3 == 2
            let moment: KillLoop.Moment
            if letFinish {
                moment = .never(waitingAtMost: 60)
            } else if paused && iteration % 2 == 0 {
                // Aimed: wait (at most 3 s) for the staging folder, then kill somewhere
                // in the paused renames, which random delays on a busy machine miss.
                moment = .after(
                    ready: { UpdateKillLoopTests.isStaging(project) }, waitingAtMost: 3, window: UInt32(4 * Self.filesPerBlock) * Self.stepPause)
            } else {
                moment = .randomly(in: 0...UInt32(min(expected * 1.1, 2) * 1_000_000))
            }
            let run = try KillLoop.run({ try project.startBinary(arguments, environment: runEnvironment) }, killAt: moment, generator: &generator)
            let killed = run.killed
            if !killed {
                let elapsed = run.elapsed - (paused ? pauses : 0)
                observedRun = max(0.05, min(observedRun, elapsed) * 0.5 + observedRun * 0.5)
            }
            let context = "iteration \(iteration)\(killed ? " (killed)" : "")"
            let now = Self.snapshot(project)
            for (path, bytes) in now where path != "blocks.lock" {
                #expect(after[path] == bytes, "\(context): \(path) is not what a whole run writes")
            }
            let lockBytes = now["blocks.lock"]
            #expect(lockBytes == nil || lockBytes == newLock, "\(context): the lock is neither absent nor the whole run's")
            if lockBytes != nil {
                for path in after.keys { #expect(now[path] != nil, "\(context): the lock is in place but \(path) is missing") }
            }
            if killed {
                kills += 1
                if lockBytes == nil && !now.isEmpty { midRun += 1 }
            } else {
                #expect(run.status == 0, "\(context): exit \(run.status)")
                #expect(Self.differences(now, after) == [], "\(context): a finished run left another state")
                #expect(try project.treeHash() == referenceTree, "\(context): a finished run left other folders or files")
                if killedLast { resumes += 1 }
            }
            if now == after {
                // Back to the start: no blocks, no lock.
                try? FileManager.default.removeItem(at: project.url(Self.blocksFolder))
                try? FileManager.default.removeItem(at: project.url("blocks.lock"))
            }
            killedLast = killed && now != after
        }
        let final = try project.runBinary(arguments, environment: environment)
        #expect(final.code == 0, "\(final.errors)")
        #expect(Self.differences(Self.snapshot(project), after) == [])
        #expect(try project.treeHash() == referenceTree)
        print(
            "DependencyKillLoopTests: \(kills) of \(runs) runs killed; \(midRun) between the first rename and the lock; \(resumes) re-runs after a kill finished the job"
        )
        #expect(midRun >= Self.requiredMidRun, "only \(midRun) of \(runs) kills landed while files were being renamed in")
        #expect(resumes >= Self.requiredResumes, "only \(resumes) runs finished right after a kill")
    }
}
