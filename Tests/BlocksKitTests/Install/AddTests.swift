import Foundation
import Testing

@testable import BlocksKit

/// `blocks add`: conflicts, dry runs, faults, several blocks, updates and JSON.
@Suite struct AddTests {
    let catalog: TestCatalog
    let project: TestProject
    let component = "Sources/App/Blocks/strip/Strip.swift"

    init() throws {
        catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
        project = try TestProject.make()
    }

    func cleanUp() {
        project.delete()
        catalog.delete()
    }

    func add(_ arguments: [String], interactive: Bool = false, answers: [String] = []) -> CommandResult {
        project.run(["--registry", catalog.root.path, "add"] + arguments, interactive: interactive, answers: answers)
    }

    func binary(_ arguments: [String]) throws -> CommandResult {
        try project.runBinary(["--registry", catalog.root.path, "add"] + arguments)
    }

    @Test func reAddingIsANoOpWithTheBinary() throws {
        defer { cleanUp() }
        #expect(try binary(["strip"]).code == 0)
        let before = try project.treeHash()
        let again = try binary(["strip"])
        #expect(again.code == 0, "\(again.errors)")
        #expect(again.output.contains("skip"))
        #expect(try project.treeHash() == before)
    }

    @Test func theLockRecordsExactlyWhatWasWritten() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        let lock = try project.lock()
        let block = try #require(lock.blocks["strip"])
        #expect(block.version == "1.0.0")
        #expect(block.registry == catalog.root.path)
        #expect(
            block.files.map(\.path) == [
                "Sources/App/Blocks/strip/Strip.swift", "Sources/App/Blocks/strip/StripDemo.swift",
                "Sources/App/Blocks/strip/StripLogic.swift",
            ])
        for file in block.files {
            #expect(try SHA256.hex(fileAt: project.url(file.path)) == file.sha256)
        }
        // Sorted keys and a stable encoding: the bytes on disk are the canonical ones.
        #expect(try Data(contentsOf: project.url("blocks.lock")) == (lock.encoded()))
        #expect(project.read("blocks.lock")?.contains("\"createdFolders\" : [\n        \"Sources/App/Blocks\",") == true)
    }

    @Test func aModifiedFileIsRefusedAndOverwriteReplacesIt() throws {
        defer { cleanUp() }
        #expect(try binary(["strip"]).code == 0)
        let original = try #require(project.read(component))
        try project.write(component, original + "// my change\n")
        let before = try project.treeHash()
        let refused = try binary(["strip"])
        #expect(refused.code == 1)
        #expect(refused.errors.contains("never overwrites your changes"))
        #expect(refused.errors.contains("  \(component)\n"))
        #expect(refused.errors.contains("--overwrite"))
        #expect(refused.errors.contains("--dry-run"))
        #expect(try project.treeHash() == before)

        let forced = try binary(["strip", "--overwrite"])
        #expect(forced.code == 0, "\(forced.errors)")
        #expect(forced.output.contains("overwrite"))
        #expect(project.read(component) == original)
        #expect(project.run(["status", "--json"]).output.contains("\"modified\"") == false)
    }

    @Test func yesDoesNotOverwriteChangedFiles() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        try project.write(component, "// mine\n")
        let result = add(["strip", "--yes"], interactive: true, answers: ["y"])
        #expect(result.code == 1)
        #expect(project.read(component) == "// mine\n")
    }

    @Test func onATerminalItAsksPerFile() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        let original = try #require(project.read(component))
        try project.write(component, "// mine\n")
        try project.write("Sources/App/Blocks/strip/StripLogic.swift", "// mine too\n")
        // "d" shows the diff and asks again; then yes for the first file and no for the second.
        let result = add(["strip"], interactive: true, answers: ["d", "y", "n"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("+++ b/\(component)"))
        #expect(project.read(component) == original)
        #expect(project.read("Sources/App/Blocks/strip/StripLogic.swift") == "// mine too\n")
        #expect(result.output.contains("kept your version"))
    }

    @Test func dryRunPrintsThePlanAndDiffsAndWritesNothing() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        try project.write(component, "// mine\n")
        try FileManager.default.removeItem(at: project.url("Sources/App/Blocks/strip/StripDemo.swift"))
        let before = try project.treeHash()
        let result = try project.runBinary(["--registry", catalog.root.path, "add", "strip", "pager", "--dry-run"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(try project.treeHash() == before)
        #expect(result.output.contains("conflict   \(component)"))
        #expect(result.output.contains("create     Sources/App/Blocks/strip/StripDemo.swift"))
        #expect(result.output.contains("skip       Sources/App/Blocks/strip/StripLogic.swift"))
        #expect(result.output.contains("create     Sources/App/Blocks/pager/Pager.swift"))
        #expect(result.output.contains("--- a/\(component)\n+++ b/\(component)\n@@ -1 +1,"))
        #expect(result.output.contains("-// mine\n+// SPDX-License-Identifier: MIT\n"))
        #expect(result.output.contains("Dry run: nothing was written."))
        let forced = add(["strip", "--dry-run", "--overwrite"])
        #expect(forced.output.contains("overwrite  \(component)"))
        #expect(try project.treeHash() == before)
    }

    /// Tests run as root, and root writes into read-only folders, so `chmod` cannot make
    /// the fault. A regular file where the target folder must go is a fault root cannot
    /// write through either, and it must stop the run with nothing changed.
    @Test func aFileInTheWayOfTheTargetFolderGivesAClearErrorAndChangesNothing() throws {
        defer { cleanUp() }
        try project.write("Sources/App/Blocks", "not a folder\n")
        let before = try project.treeHash()
        let result = try binary(["strip", "pager"])
        #expect(result.code == 1)
        #expect(result.errors.contains("cannot create the folder Sources/App/Blocks/strip: Sources/App/Blocks is a file, not a folder"))
        #expect(try project.treeHash() == before)
    }

    /// A folder where a block file must go: refused before anything is written.
    @Test func aFolderInTheWayOfAFileChangesNothing() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: project.url("Sources/App/Blocks/strip/StripLogic.swift"), withIntermediateDirectories: true)
        let before = try project.treeHash()
        let result = add(["strip"])
        #expect(result.code == 1)
        #expect(result.errors.contains("StripLogic.swift is not a regular file"))
        #expect(try project.treeHash() == before)
    }

    @Test func severalNamesInOneRunShareOneLock() throws {
        defer { cleanUp() }
        let result = add(["strip", "pager", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(try project.lock().blocks.keys.sorted() == ["pager", "strip"])
        #expect(project.exists("Sources/App/Blocks/pager/PagerDemo.swift"))
    }

    @Test func thePlatformWarningSaysToGateAndAddsAnyway() throws {
        defer { cleanUp() }
        let old = try TestProject.make(platforms: ".iOS(.v17), .macOS(.v14)")
        defer { old.delete() }
        let result = old.run(["--registry", catalog.root.path, "add", "strip"])
        #expect(result.code == 0)
        #expect(result.errors.contains("warning: strip needs iOS 18.0, but Package.swift targets iOS 17."))
        #expect(result.errors.contains("@available(iOS 18.0, *)"))
        #expect(result.errors.contains("if #available(iOS 18.0, *)"))
        #expect(old.exists("Sources/App/Blocks/strip/Strip.swift"))
        // The project's own iOS 18 needs no warning.
        #expect(!add(["strip"]).errors.contains("warning"))
    }

    @Test func aNewVersionUpdatesUnchangedFilesWithoutAsking() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        try project.write("Sources/App/Blocks/strip/StripDemo.swift", "// my demo\n")
        try catalog.put(.standard("strip", type: "Strip", version: "1.1.0"))
        let status = project.run(["status"])
        #expect(status.output.contains("update available: 1.1.0"))
        let refused = add(["strip"])
        #expect(refused.code == 1)
        #expect(refused.errors.contains("StripDemo.swift"))
        #expect(!refused.errors.contains("Strip.swift\n"))
        let result = add(["strip", "--no-demo"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("update     \(component)"))
        #expect(project.read(component)?.contains("Text(\"1.1.0\")") == true)
        #expect(project.read("Sources/App/Blocks/strip/StripDemo.swift") == "// my demo\n")
        let lock = try project.lock()
        #expect(lock.blocks["strip"]?.version == "1.1.0")
        #expect(lock.blocks["strip"]?.files.count == 3)
    }

    @Test func filesANewVersionDropsAreDeletedUnlessChanged() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        var slim = TestCatalog.Block.standard("strip", type: "Strip", version: "2.0.0")
        slim.files.removeLast()
        try catalog.put(slim)
        let result = add(["strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(!project.exists("Sources/App/Blocks/strip/StripDemo.swift"))
        #expect(try project.lock().blocks["strip"]?.files.count == 2)
    }

    @Test func jsonOutputIsOneObject() throws {
        defer { cleanUp() }
        let result = project.run(["--registry", catalog.root.path, "--json", "add", "strip"])
        #expect(result.code == 0)
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        guard case .object(let fields) = object, case .array(let blocks)? = fields["blocks"] else {
            Issue.record("not an object with blocks: \(result.output)")
            return
        }
        #expect(fields["folder"] == .string("Sources/App/Blocks"))
        #expect(fields["dryRun"] == .bool(false))
        #expect(blocks.count == 1)
        #expect(result.output.contains("\"action\" : \"create\""))
    }

    @Test func aBlockAlreadyAddedElsewhereIsNotAddedTwice() throws {
        defer { cleanUp() }
        #expect(add(["strip"]).code == 0)
        let result = add(["strip", "--path", "Sources/App/Other"])
        #expect(result.code == 1)
        #expect(result.errors.contains("already added in Sources/App/Blocks/strip"))
    }

    @Test func leftoversOfAKilledRunAreCleanedUp() throws {
        defer { cleanUp() }
        try project.write(".blocks-staging-abc123/0", "half\n")
        #expect(add(["strip"]).code == 0)
        #expect(!project.exists(".blocks-staging-abc123"))
    }
}
