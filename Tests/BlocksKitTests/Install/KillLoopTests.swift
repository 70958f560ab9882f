import Foundation
import Testing

@testable import BlocksKit

/// `kill -9` at random moments during `add` and `remove` with the real binary. After
/// every kill: each block file is absent, the old version or the new one, never a mix
/// or a partial write; the lock parses and names only files that exist, with the hash
/// of one of the two versions; nothing but staging leftovers is lying around. Then a
/// final `add` succeeds and leaves everything unchanged and clean. A few kills must land
/// while files are being replaced: a loop whose kills all miss that window proves nothing.
@Suite struct KillLoopTests {
    static let fileCount = 24
    /// The test-only pause after each rename or delete, in microseconds.
    static let stepPause: UInt32 = 4_000
    static let iterations = 25
    /// Kills that must land while files are being replaced (a mix of versions on disk, or
    /// a lock hash that is not the file's), or the loop did not test what it claims. Runs
    /// beyond `iterations`, at most `extraIterations`, are made only until there are enough.
    static let requiredMidRun = 3
    static let extraIterations = 25
    /// Kills that must land before the run finished.
    static let requiredKills = 5

    /// A block with a couple of dozen files of about 8 KB each.
    static func bigBlock(version: String) -> TestCatalog.Block {
        let files = (0..<fileCount).map { index -> (String, String, String) in
            let body = (0..<300).map { "let line\($0) = \"\(version) \(index)\"\n" }.joined()
            return ("Part\(index).swift", index == 0 ? "logic" : "component", body)
        }
        return TestCatalog.Block(name: "big", version: version, files: files)
    }

    @Test func killedRunsLeaveOldOrNewFilesAndAnHonestLock() throws {
        let old = try TestCatalog.make([Self.bigBlock(version: "1.0.0")])
        let new = try TestCatalog.make([Self.bigBlock(version: "2.0.0")])
        let project = try TestProject.make()
        defer {
            old.delete()
            new.delete()
            project.delete()
        }
        let environment = ["SOURCE_DATE_EPOCH": "1767225600"]

        // What a clean run writes for each version, file by file.
        // Kill delays are spread over the length of a clean run, measured here, so the
        // kills fall in every phase however loaded the machine is. Nothing is asserted
        // about time, and every wait is bounded.
        var versions: [[String: Data]] = []
        var longestRun = 0.0
        for catalog in [old, new] {
            let reference = try TestProject.make()
            defer { reference.delete() }
            let start = Date()
            let result = try reference.runBinary(["--registry", catalog.root.path, "add", "big"], environment: environment)
            longestRun = max(longestRun, Date().timeIntervalSince(start))
            #expect(result.code == 0, "\(result.errors)")
            var files: [String: Data] = [:]
            for index in 0..<Self.fileCount {
                let path = "Sources/App/Blocks/big/Part\(index).swift"
                files[path] = try Data(contentsOf: reference.url(path))
            }
            versions.append(files)
        }
        let allowedHashes = Dictionary(
            uniqueKeysWithValues: versions[0].keys.map { path in
                (path, Set(versions.map { SHA256.hex($0[path] ?? Data()) }))
            })

        var generator = SystemRandomNumberGenerator()
        // Most runs pause after each rename or delete (a test-only switch), so that the
        // window between the first rename and the lock write is wide and random kills
        // land in it; the other runs are the binary at full speed.
        let pausedRun = longestRun + Double(Self.fileCount * Int(Self.stepPause)) / 1_000_000
        // The reference runs may have been slowed by the suites starting beside this one,
        // so the delays follow the runs that finished since: the longest of the last five
        // of each kind (paused or not).
        var finished: [Bool: [Double]] = [:]
        var interrupted = 0
        var mixed = 0
        var runs = 0
        try KillLoop.loop(iterations: Self.iterations, extraIterations: Self.extraIterations, until: { mixed >= Self.requiredMidRun }) { iteration in
            let arguments: [String]
            if iteration % 6 == 5 {
                arguments = ["remove", "big", "--force"]
            } else {
                let catalog = iteration % 2 == 0 ? old : new
                arguments = ["--registry", catalog.root.path, "add", "big", "--overwrite"]
            }
            runs += 1
            var runEnvironment = environment
            let paused = iteration % 4 != 3
            if paused { runEnvironment["BLOCKS_TEST_STEP_PAUSE_US"] = String(Self.stepPause) }
            let runLength = finished[paused]?.suffix(5).max() ?? (paused ? pausedRun : longestRun)
            let longestDelay = UInt32(min(runLength * 1.1, 2) * 1_000_000)
            // A third of the paused adds are killed at a random moment after their staging
            // folder appears, within the renames' pauses: on a loaded machine the work before
            // the renames stretches while the pauses do not, and kills from the start of the
            // run then seldom land between the first rename and the lock.
            let targeted = paused && iteration % 3 == 0 && arguments.contains("add")
            let stagingBefore = Set(Self.stagingFolders(in: project.root))
            let moment: KillLoop.Moment =
                targeted
                ? .after(
                    ready: { !Set(Self.stagingFolders(in: project.root)).isSubset(of: stagingBefore) }, waitingAtMost: 2,
                    window: UInt32(Self.fileCount) * Self.stepPause)
                : .randomly(in: 0...longestDelay)
            let run = try KillLoop.run({ try project.startBinary(arguments, environment: runEnvironment) }, killAt: moment, generator: &generator)
            if run.killed {
                interrupted += 1
            } else if !targeted {
                finished[paused, default: []].append(run.elapsed)
            }
            if try checkInvariants(project, versions: versions, allowedHashes: allowedHashes, context: "iteration \(iteration): \(arguments)") {
                mixed += 1
            }
        }

        let final = try project.runBinary(["--registry", new.root.path, "add", "big", "--overwrite"], environment: environment)
        #expect(final.code == 0, "\(final.errors)")
        for (path, data) in versions[1] {
            #expect(FileManager.default.contents(atPath: project.url(path).path) == data, "\(path)")
        }
        let status = project.run(["status", "--json"])
        #expect(!status.output.contains("\"modified\"") && !status.output.contains("\"missing\""))
        let leftovers = Self.stagingFolders(in: project.root)
        #expect(leftovers.isEmpty)
        print("KillLoopTests: \(interrupted) of \(runs) runs killed; \(mixed) left a mix of versions or a stale lock hash")
        #expect(interrupted >= Self.requiredKills, "only \(interrupted) of \(runs) runs were killed before they finished")
        #expect(mixed >= Self.requiredMidRun, "only \(mixed) of \(runs) kills landed while files were being replaced")
    }

    /// The staging folders in a project root, by name.
    static func stagingFolders(in root: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix(".blocks-staging") }
    }

    /// Checks every invariant; returns true when the kill left an in-between state
    /// (files of both versions, or a lock hash that is not the file's), which shows the
    /// kill landed in the rename window.
    @discardableResult
    func checkInvariants(_ project: TestProject, versions: [[String: Data]], allowedHashes: [String: Set<String>], context: String) throws -> Bool {
        var seen: Set<Int> = []
        var stale = false
        for path in versions[0].keys {
            guard let data = FileManager.default.contents(atPath: project.url(path).path) else { continue }
            let version = versions.firstIndex { $0[path] == data }
            #expect(version != nil, "\(context): \(path) is neither version")
            if let version { seen.insert(version) }
        }
        let lock: Lockfile
        do {
            lock = try project.lock()
        } catch {
            Issue.record("\(context): the lock does not parse: \(error)")
            return false
        }
        for (name, block) in lock.blocks {
            #expect(name == "big")
            for file in block.files {
                #expect(project.exists(file.path), "\(context): the lock names \(file.path), which is missing")
                #expect(allowedHashes[file.path]?.contains(file.sha256) == true, "\(context): \(file.path) has a hash of neither version")
                if (try? SHA256.hex(fileAt: project.url(file.path))) != file.sha256 { stale = true }
            }
        }
        // Nothing half-written outside the staging folder a killed run may leave.
        let expected = Set(versions[0].keys).union(["Package.swift", "Sources/App/x.swift", "blocks.lock"])
        let walker = FileManager.default.enumerator(atPath: project.root.path)
        while let item = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: project.url(item).path, isDirectory: &isFolder)
            if isFolder.boolValue || item.hasPrefix(".blocks-staging-") { continue }
            #expect(expected.contains(item), "\(context): unexpected file \(item)")
        }
        return seen.count > 1 || stale
    }
}
