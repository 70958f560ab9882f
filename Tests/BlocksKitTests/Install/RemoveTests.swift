import Foundation
import Testing

@testable import BlocksKit

@Suite struct RemoveTests {
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

    @Test func removesEverythingItAddedAndNothingElse() throws {
        defer { cleanUp() }
        let before = try project.treeHash()
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        let result = project.run(["remove", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("Removed strip."))
        #expect(try project.treeHash() == before)
    }

    /// The lock is written before any file is deleted. Here the lock cannot be written:
    /// no new entry can be made in the project root (for root, which permissions do not
    /// stop, the root is made immutable with e2fsprogs' `chattr +i`; for anyone else it is
    /// made read-only), while the block's own folder stays writable. So `remove` must fail
    /// with every file still in place and the lock unchanged; deleting first would leave a
    /// lock naming files that are gone, as a kill between the two steps would (the mutant
    /// `install-remove-deletes-before-lock`).
    @Test func aLockThatCannotBeWrittenLeavesEveryFile() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip", "pager"]).code == 0)
        let lockBefore = try Data(contentsOf: project.url("blocks.lock"))
        let files = try #require(try project.lock().blocks["strip"]).files.map(\.path)
        #expect(files.count == 3)
        let root = project.root.path
        func closeRoot(_ closed: Bool) throws {
            if geteuid() == 0 {
                let flag = closed ? "+i" : "-i"
                try #require(try ChildProcess.run("/usr/bin/chattr", arguments: [flag, root]).exitCode == 0, "chattr \(flag) \(root)")
            } else {
                try #require(chmod(root, closed ? 0o555 : 0o755) == 0)
            }
        }
        try closeRoot(true)
        // Opening is idempotent, so the deferred one may follow the one below.
        defer { try? closeRoot(false) }
        #expect(mkdir(project.url("probe").path, 0o755) != 0, "the root takes no new entry")

        let result = project.run(["remove", "strip"])
        try closeRoot(false)
        #expect(result.code != 0)
        #expect(result.errors.contains("cannot create a temporary folder"), "\(result.errors)")
        for file in files { #expect(project.exists(file), "\(file) was deleted though the lock still names it") }
        #expect(try Data(contentsOf: project.url("blocks.lock")) == lockBefore)
    }

    @Test func keepsModifiedFilesUnlessForced() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip", "pager"]).code == 0)
        try project.write("Sources/App/Blocks/strip/Strip.swift", "// mine\n")
        let kept = try project.runBinary(["remove", "strip"])
        #expect(kept.code == 0, "\(kept.errors)")
        #expect(kept.output.contains("keep    Sources/App/Blocks/strip/Strip.swift (you changed it)"))
        #expect(project.read("Sources/App/Blocks/strip/Strip.swift") == "// mine\n")
        #expect(!project.exists("Sources/App/Blocks/strip/StripLogic.swift"))
        let lock = try project.lock()
        #expect(lock.blocks["strip"]?.files.map(\.path) == ["Sources/App/Blocks/strip/Strip.swift"])
        #expect(lock.blocks["pager"] != nil)

        let forced = project.run(["remove", "strip", "--force"])
        #expect(forced.code == 0)
        #expect(!project.exists("Sources/App/Blocks/strip"))
        #expect(try project.lock().blocks["strip"] == nil)
        #expect(project.exists("Sources/App/Blocks/pager/Pager.swift"))
    }

    @Test func theSharedBlocksFolderGoesWithTheLastBlock() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip", "pager"]).code == 0)
        let result = project.run(["--json", "remove", "strip"])
        #expect(result.code == 0)
        #expect(result.output.contains("\"removed\" : true"))
        #expect(project.exists("Sources/App/Blocks/pager"))
        #expect(try project.lock().blocks["pager"]?.createdFolders == ["Sources/App/Blocks", "Sources/App/Blocks/pager"])
        #expect(project.run(["remove", "pager"]).code == 0)
        #expect(!project.exists("Sources/App/Blocks"))
        #expect(!project.exists("blocks.lock"))
    }

    @Test func aFolderTheUserFilledStays() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        try project.write("Sources/App/Blocks/Notes.swift", "// mine\n")
        #expect(project.run(["remove", "strip"]).code == 0)
        #expect(project.read("Sources/App/Blocks/Notes.swift") == "// mine\n")
        #expect(!project.exists("Sources/App/Blocks/strip"))
    }

    @Test func unknownNamesGetSuggestionsAndNothingChanges() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        let before = try project.treeHash()
        let result = project.run(["remove", "pager", "strp"])
        #expect(result.code == 1)
        #expect(result.errors.contains("'pager' was never added"))
        #expect(try project.treeHash() == before)
        let typo = project.run(["remove", "strp"])
        #expect(typo.errors.contains("did you mean 'strip'?"))
    }
}
