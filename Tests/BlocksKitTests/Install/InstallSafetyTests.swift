import Foundation
import Testing

@testable import BlocksKit

/// Install safety checks that the mutation run (Scripts/mutants/install.txt) showed no
/// test would miss: each test fails when its check is taken out.
@Suite struct InstallSafetyTests {
    let catalog: TestCatalog
    let project: TestProject

    init() throws {
        catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
        project = try TestProject.make()
    }

    func cleanUp() {
        project.delete()
        catalog.delete()
    }

    func blocks(_ arguments: [String]) -> CommandResult {
        project.run(["--registry", catalog.root.path] + arguments)
    }

    /// `--no-demo` on an update leaves the demo alone: it is still part of the block, so it
    /// is neither deleted as a dropped file nor taken out of the lock.
    @Test func aDemoLeftOutOfAnUpdateStaysOnDiskAndInTheLock() throws {
        defer { cleanUp() }
        #expect(blocks(["add", "strip"]).code == 0)
        let demo = "Sources/App/Blocks/strip/StripDemo.swift"
        let demoBytes = try Data(contentsOf: project.url(demo))
        let demoEntry = try project.lock().blocks["strip"]?.file(at: demo)
        try catalog.put(.standard("strip", type: "Strip", version: "1.1.0"))
        let result = blocks(["add", "strip", "--no-demo"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(try Data(contentsOf: project.url(demo)) == demoBytes)
        let block = try #require(try project.lock().blocks["strip"])
        #expect(block.version == "1.1.0")
        #expect(block.files.count == 3)
        #expect(block.file(at: demo) == demoEntry)
        let status = project.run(["status", "--json"])
        #expect(!status.output.contains("\"missing\""), "\(status.output)")
    }

    /// A first add of two blocks whose second block cannot be written (a folder appeared
    /// where one of its files goes, after planning): the folders made for the first block
    /// are removed again, so the project is exactly as it was.
    @Test func aFailedAddRemovesTheFoldersItCreated() throws {
        defer { cleanUp() }
        let folders = ["strip": "Sources/App/Blocks/strip", "pager": "Sources/App/Other/pager"]
        let plan = try InstallPlan.make(
            contents: try CatalogSource.folder(catalog.root).contents(of: ["strip", "pager"]), registry: catalog.root.path,
            root: project.root, lock: Lockfile(), includeDemo: true, year: 2026,
            folderFor: { project.root.appendingPathComponent(folders[$0] ?? "unknown") })
        #expect(
            plan.blocks.flatMap(\.foldersToCreate) == [
                "Sources/App/Blocks", "Sources/App/Blocks/strip", "Sources/App/Other", "Sources/App/Other/pager",
            ])
        try project.write("Sources/App/Other/pager/PagerLogic.swift/keep.txt", "in the way\n")
        let before = try project.treeHash()
        #expect(throws: InstallError.self) { try InstallTransaction.apply(plan) }
        #expect(!project.exists("Sources/App/Blocks"))
        #expect(!project.exists("blocks.lock"))
        #expect(try project.treeHash() == before)
    }

    /// Cleaning up a killed run's staging folders touches nothing else that is hidden in
    /// the root: not `.git`, not a file whose name merely starts like ours.
    @Test func cleaningUpAKilledRunLeavesOtherHiddenFilesAlone() throws {
        defer { cleanUp() }
        let hidden = [".git/HEAD": "ref: refs/heads/main\n", ".blocks-notes": "mine\n", ".env": "KEY=1\n"]
        for (path, text) in hidden { try project.write(path, text) }
        for arguments in [["add", "strip"], ["remove", "strip"], ["init"]] {
            try project.write(".blocks-staging-abc123/0", "half\n")
            let result = blocks(arguments)
            #expect(result.code == 0, "\(arguments): \(result.errors)")
            #expect(!project.exists(".blocks-staging-abc123"), "\(arguments)")
            for (path, text) in hidden { #expect(project.read(path) == text, "\(arguments): \(path)") }
        }
    }

    /// Holds the lock `ProjectMutex` takes (flock on the project root folder), as another
    /// `blocks` command would.
    func holdProjectLock() throws -> Int32 {
        let descriptor = open(project.root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw TestSupportError("cannot lock \(project.root.path)")
        }
        return descriptor
    }

    /// While another command holds the project, `add` waits and writes nothing; once the
    /// other one finishes, it goes ahead.
    @Test func addWaitsForAnotherCommandInTheSameProject() throws {
        defer { cleanUp() }
        let descriptor = try holdProjectLock()
        defer { close(descriptor) }
        let before = try project.treeHash()
        let process = try project.startBinary(["--registry", catalog.root.path, "add", "strip"])
        let errors = try #require(process.errors)
        // Bounded: the binary gives up by itself after a few seconds, closing the pipe.
        var said = ""
        while !said.contains("Waiting for another blocks command") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        #expect(said.contains("Waiting for another blocks command to finish in \(project.root.path)..."), "\(said)")
        #expect(try project.treeHash() == before)
        #expect(flock(descriptor, LOCK_UN) == 0)
        process.waitUntilExit()
        #expect(process.status == 0, "\(said)")
        #expect(project.exists("Sources/App/Blocks/strip/Strip.swift"))
    }

    /// When the other command does not finish, `add` gives up with one clear error and
    /// writes nothing.
    @Test func aBusyProjectIsAClearErrorAndNothingIsWritten() throws {
        defer { cleanUp() }
        let descriptor = try holdProjectLock()
        defer { close(descriptor) }
        let before = try project.treeHash()
        let result = try project.runBinary(["--registry", catalog.root.path, "add", "strip"])
        #expect(result.code == 1, "\(result.output)")
        #expect(result.errors.contains("another blocks command is changing \(project.root.path); wait for it to finish"), "\(result.errors)")
        #expect(try project.treeHash() == before)
    }

    /// `init --path` through a symbolic link out of the project is refused: a blocks.json
    /// naming it would send every later `add` there.
    @Test func initRefusesAPathThatLinksOutOfTheProject() throws {
        let outside = try TestProject.makeEmpty()
        defer {
            cleanUp()
            outside.delete()
        }
        try FileManager.default.createSymbolicLink(at: project.url("Escape"), withDestinationURL: outside.root)
        let before = try project.treeHash()
        let result = project.run(["init", "--path", "Escape/Blocks"])
        #expect(result.code == 1)
        #expect(result.errors.contains("Escape/Blocks leads outside the project root"), "\(result.errors)")
        #expect(!project.exists(ProjectConfig.fileName))
        #expect(try project.treeHash() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.root.path).isEmpty)
    }
}
