import Foundation
import Testing

@testable import BlocksKit

/// `kill -9` at random moments during `blocks update` with the real binary, as
/// `KillLoopTests` does for `add`. The project holds big 1.0.0 with the user's edits; 1.1.0
/// changes every file, adds one and removes one; the update merges most files cleanly and
/// writes markers into one. After every kill: each file is its old bytes (the user's) or
/// its new ones (what a whole run writes), never a mix or a nested conflict; the lock is
/// the old one or the new one, byte for byte, and names only files that exist (but for the
/// removed file, which goes just before the new lock). Each run that is not killed, the
/// re-runs after kills included, must leave exactly what one uninterrupted run leaves.
@Suite struct UpdateKillLoopTests {
    static let fileCount = 24
    static let stepPause: UInt32 = 4_000
    static let iterations = 30
    static let extraIterations = 50
    /// Kills that must land while files are being replaced, and runs that must finish
    /// after a kill, or the loop did not test what it claims.
    static let requiredMidRun = 3
    static let requiredResumes = 3
    static let folder = "Sources/App/Blocks/big/"
    static let environment = ["SOURCE_DATE_EPOCH": "1767225600"]

    /// 1.0.0 has Part0…Part22 and Part23; 1.1.0 changes line 10 of every file, drops
    /// Part23 and adds Part24.
    static func bigBlock(version: String) -> TestCatalog.Block {
        let indexes = version == "1.0.0" ? Array(0..<fileCount) : Array(0..<(fileCount - 1)) + [fileCount]
        let files = indexes.map { index -> (String, String, String) in
            let body = (0..<300).map { line in
                line == 10 ? "let line10 = \"\(version) \(index)\"\n" : "let line\(line) = \"\(index)\"\n"
            }.joined()
            return ("Part\(index).swift", index == 0 ? "logic" : "component", body)
        }
        return TestCatalog.Block(name: "big", version: version, files: files)
    }

    /// The user's edits: line 200 of most files (a clean merge), and line 10 of Part1,
    /// the line 1.1.0 changes too (a conflict, in a file renamed in early).
    static func edit(_ project: TestProject) throws {
        for index in 0..<(fileCount - 1) where index % 3 != 2 {
            let path = folder + "Part\(index).swift"
            var text = try #require(project.read(path))
            let line = index == 1 ? "let line10 = \"1.0.0 \(index)\"\n" : "let line200 = \"\(index)\"\n"
            text = text.replacingOccurrences(of: line, with: line.replacingOccurrences(of: "\"\n", with: " mine\"\n"))
            try project.write(path, text)
        }
    }

    /// Every file of the block folder and the lock, by path from the project root.
    static func snapshot(_ project: TestProject) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: project.url(folder).path) {
            files[folder + name] = try Data(contentsOf: project.url(folder + name))
        }
        files["blocks.lock"] = try Data(contentsOf: project.url("blocks.lock"))
        return files
    }

    static func restore(_ project: TestProject, to state: [String: Data]) throws {
        try FileManager.default.removeItem(at: project.url(folder))
        try FileManager.default.createDirectory(at: project.url(folder), withIntermediateDirectories: true)
        for (path, data) in state { try data.write(to: project.url(path)) }
    }

    @Test func killedUpdatesLeaveOldOrNewFilesAndAReRunFinishes() throws {
        let old = try TestCatalog.make([Self.bigBlock(version: "1.0.0")])
        let project = try TestProject.make()
        let reference = try TestProject.make()
        let cache = try TestProject.temporaryFolder("cache")
        let referenceCache = try TestProject.temporaryFolder("cache")
        defer {
            old.delete()
            project.delete()
            reference.delete()
            try? FileManager.default.removeItem(at: cache)
            try? FileManager.default.removeItem(at: referenceCache)
        }
        var environment = Self.environment
        environment["XDG_CACHE_HOME"] = cache.path
        var referenceEnvironment = Self.environment
        referenceEnvironment["XDG_CACHE_HOME"] = referenceCache.path
        for (target, targetEnvironment) in [(project, environment), (reference, referenceEnvironment)] {
            let added = try target.runBinary(["--registry", old.root.path, "add", "big"], environment: targetEnvironment)
            #expect(added.code == 0, "\(added.errors)")
            try Self.edit(target)
        }
        try old.put(Self.bigBlock(version: "1.1.0"))
        let before = try Self.snapshot(project)

        // One whole run, timed, gives the new state and spreads the kill delays.
        let start = Date()
        let whole = try reference.runBinary(["update"], environment: referenceEnvironment)
        let longestRun = Date().timeIntervalSince(start)
        #expect(whole.code == 1, "one conflict: \(whole.output)\(whole.errors)")
        let after = try Self.snapshot(reference)
        #expect(after[Self.folder + "Part23.swift"] == nil && after[Self.folder + "Part24.swift"] != nil)
        #expect(String(decoding: after[Self.folder + "Part1.swift"] ?? Data(), as: UTF8.self).contains(">>>>>>> big 1.1.0\n"))
        #expect(String(decoding: after[Self.folder + "Part0.swift"] ?? Data(), as: UTF8.self).contains("let line200 = \"0 mine\"\nlet line201"))
        let oldLock = try #require(before["blocks.lock"])
        let newLock = try #require(after["blocks.lock"])
        #expect(oldLock != newLock)
        let paths = Set(before.keys).union(after.keys).subtracting(["blocks.lock"])
        // The bases the new lock names (kept by the project's own runs only): whenever the
        // new lock is in place they must be kept, or the next update could not merge.
        let bases = BaseStore(cacheDirectory: cache.appendingPathComponent("blocks"))
        let oldHashes = Set(try Lockfile.read(root: project.root).blocks["big"]?.files.map(\.sha256) ?? [])
        let newHashes = Set(try Lockfile.read(root: reference.root).blocks["big"]?.files.map(\.sha256) ?? []).subtracting(oldHashes)
        #expect(newHashes.count >= Self.fileCount - 1)
        #expect(newHashes.allSatisfy { bases.load(sha256: $0) == nil })

        var generator = SystemRandomNumberGenerator()
        let pausedRun = longestRun + Double((Self.fileCount + 2) * Int(Self.stepPause)) / 1_000_000
        var kills = 0
        var mixed = 0
        var resumes = 0
        var runs = 0
        var killedLast = false
        // The runs' length as last seen: a reference run on a busy machine can take several
        // times longer than the runs after it, and delays drawn from it would miss them all.
        var observedRun = longestRun
        try KillLoop.loop(
            iterations: Self.iterations, extraIterations: Self.extraIterations,
            until: { mixed >= Self.requiredMidRun && resumes >= Self.requiredResumes }
        ) { iteration in
            runs += 1
            var runEnvironment = environment
            let paused = iteration % 4 != 3
            if paused { runEnvironment["BLOCKS_TEST_STEP_PAUSE_US"] = String(Self.stepPause) }
            let expected = paused ? observedRun + (pausedRun - longestRun) : observedRun
            let longestDelay = UInt32(min(expected * 1.1, 2) * 1_000_000)
            // Every third run after a kill is let finish (within 60 s): the re-run under test.
            let letFinish = killedLast && iteration % 3 == 2
            let moment: KillLoop.Moment
            if letFinish {
                moment = .never(waitingAtMost: 60)
            } else if paused && iteration % 2 == 0 {
                // Aimed: wait (at most 3 s) for the staging folder, which appears as
                // writing starts, then kill somewhere in the paused replacements. On a
                // busy machine random delays alone mostly land before or after them.
                moment = .after(ready: { Self.isStaging(project) }, waitingAtMost: 3, window: UInt32(Self.fileCount) * Self.stepPause)
            } else {
                moment = .randomly(in: 0...longestDelay)
            }
            let run = try KillLoop.run({ try project.startBinary(["update"], environment: runEnvironment) }, killAt: moment, generator: &generator)
            let killed = run.killed
            if !killed {
                let elapsed = run.elapsed - (paused ? pausedRun - longestRun : 0)
                observedRun = max(0.05, min(observedRun, elapsed) * 0.5 + observedRun * 0.5)
            }
            let context = "iteration \(iteration)\(killed ? " (killed)" : "")"
            let now = try Self.snapshot(project)
            // Every file old or new; the lock one of the two, whole.
            var seenOld = false
            var seenNew = false
            for path in paths {
                let bytes = now[path]
                #expect(bytes == before[path] || bytes == after[path], "\(context): \(path) is neither its old nor its new bytes")
                if bytes != after[path] { seenOld = true }
                if bytes != before[path] { seenNew = true }
            }
            #expect(Set(now.keys).subtracting(["blocks.lock"]).isSubset(of: paths), "\(context): unexpected files \(now.keys.sorted())")
            let lockBytes = now["blocks.lock"]
            #expect(lockBytes == oldLock || lockBytes == newLock, "\(context): the lock is neither the old nor the new one")
            if lockBytes == newLock {
                #expect(newHashes.allSatisfy { bases.load(sha256: $0) != nil }, "\(context): the new lock is in place without its bases")
            }
            let lock = try project.lock()
            for file in lock.blocks["big"]?.files ?? [] where file.path != Self.folder + "Part23.swift" {
                #expect(project.exists(file.path), "\(context): the lock names \(file.path), which is missing")
            }
            if killed {
                kills += 1
                if seenOld && seenNew || (lockBytes == oldLock && seenNew) { mixed += 1 }
            } else {
                // A whole run, after kills or not, leaves exactly what one uninterrupted run leaves.
                #expect(now == after, "\(context): a finished run left another state")
                if killedLast { resumes += 1 }
                try Self.restore(project, to: before)
                for hash in newHashes { try? FileManager.default.removeItem(at: bases.folder.appendingPathComponent(hash)) }
            }
            killedLast = killed
        }
        let final = try project.runBinary(["update"], environment: environment)
        #expect(final.code == 1, "\(final.errors)")
        #expect(try Self.snapshot(project) == after)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter { $0.hasPrefix(".blocks-staging") }
        #expect(leftovers.isEmpty)
        print("UpdateKillLoopTests: \(kills) of \(runs) runs killed; \(mixed) mid-run; \(resumes) re-runs after a kill finished the job")
        #expect(mixed >= Self.requiredMidRun, "only \(mixed) of \(runs) kills landed while files were being replaced")
        #expect(resumes >= Self.requiredResumes, "only \(resumes) runs finished right after a kill")
    }

    /// Whether an update of `project` has started writing: its staging folder exists.
    static func isStaging(_ project: TestProject) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: project.root.path)) ?? []).contains { $0.hasPrefix(StagingArea.prefix) }
    }
}
