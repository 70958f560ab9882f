import Foundation
import Testing

@testable import BlocksKit

/// Tests issue 12's mutation run asked for: each one fails when one safety check of
/// `add`, `remove` or `ProjectPaths` is taken out or loses its trailing `/`.
@Suite struct InstallBoundsTests {
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

    func blocks(_ arguments: [String]) throws -> CommandResult {
        try project.runBinary(["--registry", catalog.root.path] + arguments)
    }

    /// The target folder is inside, but the block's own folder is a link out: the check
    /// on each planned file is what stops the writes.
    @Test func addIntoABlockFolderThatLinksOutOfTheProjectWritesNothing() throws {
        let outside = try TestProject.makeEmpty()
        defer {
            cleanUp()
            outside.delete()
        }
        try FileManager.default.createDirectory(at: project.url("Sources/App/Blocks"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: project.url("Sources/App/Blocks/strip"), withDestinationURL: outside.root)
        let before = try project.treeHash()
        let result = try blocks(["add", "strip"])
        #expect(result.code == 1)
        #expect(result.errors.contains("Sources/App/Blocks/strip/Strip.swift leads outside the project root"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.root.path).isEmpty)
        #expect(try project.treeHash() == before)
    }

    /// An update whose second rename fails (its target became a folder after planning,
    /// so no file mode is involved): the first file gets its old bytes back, the lock is
    /// not written, and no staging folder is left.
    @Test func aFailedSecondWriteRollsTheFirstBackAndWritesNoLock() throws {
        defer { cleanUp() }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        let folder = "Sources/App/Blocks/strip"
        let oldComponent = try Data(contentsOf: project.url("\(folder)/Strip.swift"))
        let oldLock = try Data(contentsOf: project.url("blocks.lock"))
        try catalog.put(.standard("strip", type: "Strip", version: "2.0.0"))
        let plan = try InstallPlan.make(
            contents: try CatalogSource.folder(catalog.root).contents(of: ["strip"]), registry: catalog.root.path,
            root: project.root, lock: try project.lock(), includeDemo: true, year: 2026,
            folderFor: { _ in
                Issue.record("the lock names the folder")
                return project.root
            })
        // The demo does not name the version, so it is the same and skipped.
        let writes = plan.allFiles.filter { $0.action.writes }.map(\.path)
        #expect(writes == ["\(folder)/Strip.swift", "\(folder)/StripLogic.swift"])
        try FileManager.default.removeItem(at: project.url("\(folder)/StripLogic.swift"))
        try project.write("\(folder)/StripLogic.swift/keep.txt", "in the way\n")

        #expect(throws: InstallError.writeFailed(path: "\(folder)/StripLogic.swift", reason: "Is a directory")) {
            try InstallTransaction.apply(plan)
        }
        #expect(try Data(contentsOf: project.url("\(folder)/Strip.swift")) == oldComponent)
        #expect(try Data(contentsOf: project.url("blocks.lock")) == oldLock)
        #expect(project.read("\(folder)/StripLogic.swift/keep.txt") == "in the way\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: project.root.path)
        #expect(!names.contains { $0.hasPrefix(StagingArea.prefix) }, "\(names)")
    }

    /// The same on a first add: the file already moved goes, and there is still no lock.
    @Test func aFailedSecondWriteOfAFirstAddLeavesNoFileAndNoLock() throws {
        defer { cleanUp() }
        let folder = "Sources/App/Blocks/strip"
        let plan = try InstallPlan.make(
            contents: try CatalogSource.folder(catalog.root).contents(of: ["strip"]), registry: catalog.root.path,
            root: project.root, lock: Lockfile(), includeDemo: true, year: 2026,
            folderFor: { project.root.appendingPathComponent("Sources/App/Blocks").appendingPathComponent($0) })
        try project.write("\(folder)/StripLogic.swift/keep.txt", "in the way\n")
        #expect(throws: InstallError.self) { try InstallTransaction.apply(plan) }
        #expect(!project.exists("\(folder)/Strip.swift"))
        #expect(!project.exists("\(folder)/StripDemo.swift"))
        #expect(!project.exists("blocks.lock"))
    }

    /// A file the new version no longer lists, which the user changed: kept with their
    /// bytes, reported, and no longer in the lock.
    @Test func aDroppedFileTheUserChangedIsKeptReportedAndUntracked() throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip"]).code == 0)
        let demo = "Sources/App/Blocks/strip/StripDemo.swift"
        try project.write(demo, "// mine\n")
        var slim = TestCatalog.Block.standard("strip", type: "Strip", version: "2.0.0")
        slim.files.removeAll { $0.0 == "StripDemo.swift" }
        try catalog.put(slim)
        let result = try blocks(["add", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("\(demo) is no longer part of its block but you changed it, so it stays"), "\(result.errors)")
        #expect(project.read(demo) == "// mine\n")
        let files = try project.lock().blocks["strip"]?.files.map(\.path)
        #expect(files == ["Sources/App/Blocks/strip/Strip.swift", "Sources/App/Blocks/strip/StripLogic.swift"])
    }

    /// Two blocks in folders whose names share a prefix: removing one leaves the other's
    /// folders, and takes its own.
    @Test func removeTakesOnlyItsOwnFolderBesideOneWithALongerName() throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip", "--path", "Sources/App/UI"]).code == 0)
        #expect(try blocks(["add", "pager", "--path", "Sources/App/UIKit"]).code == 0)
        let result = try blocks(["remove", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(!project.exists("Sources/App/UI"))
        #expect(project.exists("Sources/App/UIKit/pager/Pager.swift"))
        let lock = try project.lock()
        #expect(lock.blocks.keys.sorted() == ["pager"])
        #expect(lock.blocks["pager"]?.createdFolders == ["Sources/App/UIKit", "Sources/App/UIKit/pager"])
    }

    /// `<root>-evil` starts with the root's path but is not inside it.
    @Test func aLinkToTheRootsSiblingWithALongerNameIsOutside() throws {
        let evil = URL(fileURLWithPath: project.root.path + "-evil")
        defer {
            cleanUp()
            try? FileManager.default.removeItem(at: evil)
        }
        try FileManager.default.createDirectory(at: evil, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: project.url("Escape"), withDestinationURL: evil)
        #expect(!ProjectPaths.staysInside(project.url("Escape"), root: project.root))
        #expect(!ProjectPaths.staysInside(project.url("Escape/Blocks/strip"), root: project.root))
        #expect(ProjectPaths.relative(evil.appendingPathComponent("Blocks"), to: project.root) == nil)
        #expect(!PathResolver(root: project.root).admits("Escape/Blocks/strip/Strip.swift"))
        #expect(PathResolver(root: project.root).admits("Sources/App/Blocks/strip/Strip.swift"))

        let before = try project.treeHash()
        let result = try blocks(["add", "strip", "--path", "Escape/Blocks"])
        #expect(result.code == 1)
        #expect(result.errors.contains("leads outside the project root"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: evil.path).isEmpty)
        #expect(try project.treeHash() == before)
    }
}
