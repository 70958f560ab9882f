import Foundation
import Testing

@testable import BlocksKit

/// Issue 34: in an Xcode project a block lands in the app target and builds. Each case
/// copies a hand-written fixture (Fixtures/Xcode) to a temporary folder, runs `blocks`
/// in it, and checks the project file with PyPI's pbxproj (Support/pbxproj_oracle.py).
@Suite struct XcodeProjectTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/BlocksKitTests/Fixtures/Xcode")
    static let oracle = repositoryRoot.appendingPathComponent("Tests/BlocksKitTests/Support/pbxproj_oracle.py")

    /// A copy of a fixture project, and a way to run blocks in it.
    struct Copy {
        let folder: TemporaryFolder
        var root: URL { folder.url.appendingPathComponent("project") }
        var projectFile: URL { root.appendingPathComponent("MyApp.xcodeproj/project.pbxproj") }

        init(_ fixture: String) throws {
            folder = try TemporaryFolder()
            try FileManager.default.copyItem(at: XcodeProjectTests.fixtures.appendingPathComponent(fixture), to: root)
        }

        func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
            runBlocks(arguments, in: root, environment: ["XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path])
        }

        func projectBytes() throws -> Data { try Data(contentsOf: projectFile) }

        /// The oracle's verdict on the project file now, against `before`.
        func oracle(before: Data, target: String, files: [String]) throws -> String {
            let saved = folder.url.appendingPathComponent("before.pbxproj")
            try before.write(to: saved)
            let result = try ArchiveTool.run(["python3", XcodeProjectTests.oracle.path, saved.path, projectFile.path, target] + files)
            return (result.output + result.errors).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static let pagerFiles = ["MyApp/Blocks/pager/Pager.swift", "MyApp/Blocks/pager/PagerLogic.swift", "MyApp/Blocks/pager/PagerDemo.swift"]

    // MARK: Synchronized folders (Xcode 16 and later)

    @Test func aSynchronizedFolderGetsTheBlockWithNoProjectEdit() throws {
        let copy = try Copy("Synchronized")
        defer { copy.folder.cleanUp() }
        let before = try copy.projectBytes()
        let result = copy.run(["add", "pager", "--json"])
        #expect(result.code == 0, "\(result.err)")
        for file in Self.pagerFiles { #expect(FileManager.default.fileExists(atPath: copy.root.appendingPathComponent(file).path), "\(file)") }
        #expect(try copy.projectBytes() == before)
        let json = try JSONReader.parse(Data(result.out.utf8))
        #expect(json["xcode"]?["synchronized"] == .bool(true))
        #expect(json["xcode"]?["target"] == .string("MyApp"))
        #expect(json["xcode"]?["projectFileEdited"] == .bool(false))
        #expect(copy.run(["add", "top-tabs"]).out.contains("no project file edit is needed"))
    }

    @Test func aFolderTheTargetExcludesIsRefused() throws {
        let copy = try Copy("Synchronized")
        defer { copy.folder.cleanUp() }
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8).replacingOccurrences(of: "\t\t\t\tScratch,\n", with: "\t\t\t\tBlocks,\n")
        try Data(text.utf8).write(to: copy.projectFile)
        let result = copy.run(["add", "pager"])
        #expect(result.code == 1)
        #expect(result.err.contains("MyApp/Blocks is excluded from target MyApp"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("MyApp/Blocks").path))
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("blocks.lock").path))
    }

    // MARK: Classic groups

    @Test func aClassicProjectListsTheFilesInTheAppTarget() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let before = try copy.projectBytes()
        // The widget is an app extension, so the one application target is chosen.
        let result = copy.run(["add", "pager"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("Xcode: target MyApp of MyApp.xcodeproj"), "\(result.out)")
        #expect(try copy.oracle(before: before, target: "MyApp", files: Self.pagerFiles) == "ok")
        // Only lines were added.
        let old = String(decoding: before, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = String(decoding: try copy.projectBytes(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var remaining = new[...]
        for line in old {
            guard let index = remaining.firstIndex(of: line) else {
                Issue.record("the line \(line) was changed or removed")
                break
            }
            remaining = remaining[(index + 1)...]
        }
        #expect(new.count > old.count)
        // The same add into a fresh copy gives the same bytes.
        let again = try Copy("Classic")
        defer { again.folder.cleanUp() }
        #expect(again.run(["add", "pager"]).code == 0)
        #expect(try again.projectBytes() == copy.projectBytes())
    }

    @Test func removeTakesOutExactlyWhatAddPutIn() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let before = try copy.projectBytes()
        #expect(copy.run(["add", "pager", "scrolling-strip"]).code == 0)
        let both = try copy.projectBytes()
        #expect(copy.run(["remove", "pager"]).code == 0)
        #expect(
            try copy.oracle(
                before: before, target: "MyApp",
                files: ["MyApp/Blocks/scrolling-strip/ScrollingStrip.swift", "MyApp/Blocks/scrolling-strip/ScrollingStripLogic.swift", "MyApp/Blocks/scrolling-strip/ScrollingStripDemo.swift"]) == "ok")
        #expect(try copy.projectBytes() != both)
        #expect(copy.run(["remove", "scrolling-strip"]).code == 0)
        #expect(try copy.projectBytes() == before)
    }

    /// A new version that adds a file and drops the demo: `update` adds the one reference
    /// and takes out the other, in the same transaction as the files.
    @Test func updateKeepsMembershipInStepWithTheFiles() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let catalog = copy.folder.url.appendingPathComponent("catalog")
        let block = catalog.appendingPathComponent("top-tabs")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog/top-tabs"), to: block)
        let before = try copy.projectBytes()
        #expect(copy.run(["add", "top-tabs", "--registry", catalog.path]).code == 0)
        let manifest = block.appendingPathComponent("block.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "\"version\": \"1.0.0\"", with: "\"version\": \"1.1.0\"")
            .replacingOccurrences(of: "\"path\": \"TopTabsDemo.swift\",\n      \"role\": \"demo\"", with: "\"path\": \"TopTabsExtra.swift\",\n      \"role\": \"logic\"")
        #expect(text.contains("TopTabsExtra.swift"))
        try Data(text.utf8).write(to: manifest)
        try FileManager.default.moveItem(at: block.appendingPathComponent("TopTabsDemo.swift"), to: block.appendingPathComponent("TopTabsExtra.swift"))
        let updated = copy.run(["update", "top-tabs", "--registry", catalog.path])
        #expect(updated.code == 0, "\(updated.err)")
        #expect(
            try copy.oracle(
                before: before, target: "MyApp",
                files: ["MyApp/Blocks/top-tabs/TopTabs.swift", "MyApp/Blocks/top-tabs/TopTabsLogic.swift", "MyApp/Blocks/top-tabs/TopTabsExtra.swift"]) == "ok")
        #expect(!String(decoding: try copy.projectBytes(), as: UTF8.self).contains("TopTabsDemo.swift"))
        #expect(copy.run(["remove", "top-tabs"]).code == 0)
        #expect(try copy.projectBytes() == before)
    }

    /// A file the user took out of the target is reported by `status`, and `add` lists it again.
    @Test func statusReportsAFileTakenOutOfTheTarget() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let before = try copy.projectBytes()
        #expect(copy.run(["add", "pager"]).code == 0)
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("/* Pager.swift") }
        try Data(kept.joined(separator: "\n").utf8).write(to: copy.projectFile)
        let status = copy.run(["status"])
        #expect(status.out.contains("unlisted  MyApp/Blocks/pager/Pager.swift"), "\(status.out)")
        #expect(!status.out.contains("unlisted  MyApp/Blocks/pager/PagerLogic.swift"))
        let json = try JSONReader.parse(Data(copy.run(["status", "--json"]).out.utf8))
        #expect(json["blocks"]?.array?.first?["notInXcodeTarget"] == .array([.string("MyApp/Blocks/pager/Pager.swift")]))
        #expect(copy.run(["add", "pager"]).code == 0)
        #expect(try copy.oracle(before: before, target: "MyApp", files: Self.pagerFiles) == "ok")
        #expect(!copy.run(["status"]).out.contains("unlisted"))
    }

    @Test func aDryRunShowsTheProjectDiffAndWritesNothing() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let before = try copy.projectBytes()
        let result = copy.run(["add", "pager", "--dry-run"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("+++ b/MyApp.xcodeproj/project.pbxproj"), "\(result.out)")
        #expect(result.out.contains("+\t\t\t\t") && result.out.contains("Pager.swift in Sources"))
        #expect(try copy.projectBytes() == before)
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("MyApp/Blocks").path))
    }

    @Test func severalAppTargetsAreChosenByNameAndRemembered() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        // Make the widget an application too: then nothing says which one.
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8)
            .replacingOccurrences(of: "\"com.apple.product-type.app-extension\"", with: "\"com.apple.product-type.application\"")
        try Data(text.utf8).write(to: copy.projectFile)
        let before = try copy.projectBytes()
        let refused = copy.run(["add", "pager"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("several targets (MyApp, MyWidget)") && refused.err.contains("--target"), "\(refused.err)")
        #expect(try copy.projectBytes() == before)
        let unknown = copy.run(["add", "pager", "--target", "Nope"])
        #expect(unknown.code == 1 && unknown.err.contains("no target Nope"), "\(unknown.err)")
        #expect(copy.run(["init", "--target", "MyWidget"]).code == 0)
        #expect(try String(contentsOf: copy.root.appendingPathComponent("blocks.json"), encoding: .utf8).contains("\"target\""))
        let added = copy.run(["add", "top-tabs"])
        #expect(added.code == 0, "\(added.err)")
        #expect(
            try copy.oracle(
                before: before, target: "MyWidget",
                files: ["MyWidget/Blocks/top-tabs/TopTabs.swift", "MyWidget/Blocks/top-tabs/TopTabsLogic.swift", "MyWidget/Blocks/top-tabs/TopTabsDemo.swift"]) == "ok")
    }

    @Test func aGeneratedProjectIsNeverEdited() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        try Data("name: MyApp\n".utf8).write(to: copy.root.appendingPathComponent("project.yml"))
        let before = try copy.projectBytes()
        let result = copy.run(["add", "pager"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("XcodeGen (project.yml)"), "\(result.out)")
        #expect(try copy.projectBytes() == before)
        #expect(FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("MyApp/Blocks/pager/Pager.swift").path))
    }

    /// `add` into a classic project killed at random moments (the real binary, pausing
    /// after each rename so kills land between them): the project file is always the old
    /// bytes or the new, and a re-run finishes the job. Twelve runs, each bounded.
    @Test func aKilledAddLeavesTheProjectFileOldOrNew() throws {
        let reference = try Copy("Classic")
        defer { reference.folder.cleanUp() }
        let old = try reference.projectBytes()
        let clean = try TestProject(root: reference.root).runBinary(["add", "pager"], environment: [:])
        #expect(clean.code == 0, "\(clean.errors)")
        let new = try reference.projectBytes()
        #expect(new != old)
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        // A quiet machine may finish many runs before their kill moment: a few more runs,
        // made only until one is killed, keep the last check from failing by chance.
        try KillLoop.loop(iterations: 12, extraIterations: 36, until: { killed > 0 }) { iteration in
            let copy = try Copy("Classic")
            defer { copy.folder.cleanUp() }
            let project = TestProject(root: copy.root)
            let run = try KillLoop.run(
                { try project.startBinary(["add", "pager"], environment: ["BLOCKS_TEST_STEP_PAUSE_US": "30000"]) },
                killAt: .randomly(in: 0...400_000), generator: &generator)
            if run.killed { killed += 1 }
            let now = try copy.projectBytes()
            #expect(now == old || now == new, "iteration \(iteration): the project file is neither the old nor the new bytes")
            let rerun = try project.runBinary(["add", "pager"], environment: [:])
            #expect(rerun.code == 0, "iteration \(iteration): \(rerun.errors)")
            #expect(try copy.projectBytes() == new, "iteration \(iteration)")
        }
        #expect(killed > 0)
    }

    /// A workspace with an app project and a framework project: the app target is chosen
    /// across both, one level up, and remove gives the project back byte for byte.
    @Test func aWorkspaceWithTwoProjectsWorksOneLevelUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let root = folder.url.appendingPathComponent("Shop")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Classic"), to: root.appendingPathComponent("App"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Synchronized"), to: root.appendingPathComponent("Kit"))
        let kitFile = root.appendingPathComponent("Kit/MyApp.xcodeproj/project.pbxproj")
        let kit = try String(contentsOf: kitFile, encoding: .utf8)
            .replacingOccurrences(of: "com.apple.product-type.application", with: "com.apple.product-type.framework")
            .replacingOccurrences(of: "name = MyApp;", with: "name = Kit;")
        try Data(kit.utf8).write(to: kitFile)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Shop.xcworkspace"), withIntermediateDirectories: true)
        let workspace = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace
               version = "1.0">
               <FileRef
                  location = "group:App/MyApp.xcodeproj">
               </FileRef>
               <FileRef
                  location = "group:Kit/MyApp.xcodeproj">
               </FileRef>
            </Workspace>

            """
        try Data(workspace.utf8).write(to: root.appendingPathComponent("Shop.xcworkspace/contents.xcworkspacedata"))
        let appFile = root.appendingPathComponent("App/MyApp.xcodeproj/project.pbxproj")
        let before = try Data(contentsOf: appFile)
        let kitBefore = try Data(contentsOf: kitFile)
        let environment = ["XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path]
        let added = runBlocks(["add", "pager"], in: root, environment: environment)
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out.contains("Target folder: App/MyApp/Blocks (target MyApp of MyApp.xcodeproj)"), "\(added.out)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("App/MyApp/Blocks/pager/Pager.swift").path))
        #expect(try Data(contentsOf: kitFile) == kitBefore)
        let saved = folder.url.appendingPathComponent("before.pbxproj")
        try before.write(to: saved)
        let verdict = try ArchiveTool.run(["python3", Self.oracle.path, saved.path, appFile.path, "MyApp"] + Self.pagerFiles)
        #expect(verdict.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(verdict.output)\(verdict.errors)")
        #expect(runBlocks(["remove", "pager"], in: root, environment: environment).code == 0)
        #expect(try Data(contentsOf: appFile) == before)
        let named = runBlocks(["add", "top-tabs", "--target", "Kit", "--dry-run"], in: root, environment: environment)
        #expect(named.out.contains("Target folder: Kit/MyApp/Blocks (target Kit of MyApp.xcodeproj)"), "\(named.out)\(named.err)")
    }

    /// A project at objectVersion 60 whose user already referenced one of the block's files
    /// by hand: that reference stays the only one, and remove leaves it.
    @Test func aFileAlreadyReferencedKeepsItsOwnReference() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        var text = try String(contentsOf: copy.projectFile, encoding: .utf8).replacingOccurrences(of: "objectVersion = 56;", with: "objectVersion = 60;")
        // Pager.swift, referenced from a group the user made: MyApp/Blocks/pager.
        text = text.replacingOccurrences(
            of: "\t\t1A0000000000000000000014 /* WidgetView.swift */ = {isa = PBXFileReference",
            with: "\t\t1A00000000000000000000A1 /* Pager.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Pager.swift; sourceTree = \"<group>\"; };\n\t\t1A0000000000000000000014 /* WidgetView.swift */ = {isa = PBXFileReference")
        text = text.replacingOccurrences(
            of: "\t\t1A0000000000000000000032 /* Products */ = {",
            with: "\t\t1A00000000000000000000A2 /* Blocks */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t1A00000000000000000000A3 /* pager */,\n\t\t\t);\n\t\t\tpath = Blocks;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n\t\t1A00000000000000000000A3 /* pager */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t1A00000000000000000000A1 /* Pager.swift */,\n\t\t\t);\n\t\t\tname = pager;\n\t\t\tpath = pager;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n\t\t1A0000000000000000000032 /* Products */ = {")
        text = text.replacingOccurrences(
            of: "\t\t\t\t1A0000000000000000000013 /* Assets.xcassets */,\n",
            with: "\t\t\t\t1A0000000000000000000013 /* Assets.xcassets */,\n\t\t\t\t1A00000000000000000000A2 /* Blocks */,\n")
        try Data(text.utf8).write(to: copy.projectFile)
        let before = try copy.projectBytes()
        _ = try XcodeProject(bundle: copy.root.appendingPathComponent("MyApp.xcodeproj"))
        #expect(copy.run(["add", "pager"]).code == 0)
        let after = String(decoding: try copy.projectBytes(), as: UTF8.self)
        #expect(after.components(separatedBy: "/* Pager.swift */ = {isa = PBXFileReference").count == 2, "one reference to Pager.swift")
        #expect(after.contains("PagerLogic.swift */ = {isa = PBXFileReference"))
        #expect(copy.run(["remove", "pager"]).code == 0)
        #expect(try copy.projectBytes() == before)
    }

    /// Tuist's manifest with the generated project present: the target's folder, no edit.
    /// Without the generated project: one error asking to generate it or for --path.
    @Test func aTuistProjectIsReadNotEditedAndNeverGuessed() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        try Data("import ProjectDescription\nlet project = Project(name: \"MyApp\")\n".utf8).write(to: copy.root.appendingPathComponent("Project.swift"))
        let before = try copy.projectBytes()
        let placed = copy.run(["add", "pager"])
        #expect(placed.code == 0, "\(placed.err)")
        #expect(placed.out.contains("Tuist (Project.swift)"))
        #expect(try copy.projectBytes() == before)
        try FileManager.default.removeItem(at: copy.root.appendingPathComponent("MyApp.xcodeproj"))
        let refused = copy.run(["add", "top-tabs"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("cannot place blocks in Tuist (Project.swift)") && refused.err.contains("--path DIR"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("Blocks").path))
    }

    // MARK: The fuzzer's findings (Fuzz/crashes), fixed

    /// Adds `file` to `target` and takes it out again, through the editor alone.
    static func addThenRemove(_ bytes: [UInt8], target name: String, file: String) throws -> (added: [UInt8]?, removed: [UInt8]?) {
        let bundle = URL(fileURLWithPath: "/nonexistent/MyApp.xcodeproj")
        let project = try XcodeProject(bundle: bundle, bytes: bytes)
        let target = try #require(project.targets.first { $0.name == name })
        let folder = String(file.split(separator: "/").dropLast().joined(separator: "/"))
        guard let added = try XcodeProjectEditor.synced(project, target: target, blockFolder: folder, files: [file]) else { return (nil, nil) }
        let reread = try XcodeProject(bundle: bundle, bytes: added)
        return (added, try XcodeProjectEditor.synced(reread, target: nil, blockFolder: folder, files: []))
    }

    @Test(arguments: [
        ("pbxproj-created-section-stays.pbxproj", "MyApp", "MyApp/Blocks/x/A.swift"),
        ("pbxproj-forged-identifier.pbxproj", "MyWidget", "MyWidget/Blocks/x/A.swift"),
        ("pbxproj-marker-inside-comment.pbxproj", "MyApp", "MyApp/Blocks/x/A.swift"),
        ("pbxproj-end-marker-of-a-later-section.pbxproj", "MyApp", "MyApp/Blocks/x/A.swift"),
        ("pbxproj-end-marker-spanning-lines.pbxproj", "MyApp", "MyApp/Blocks/x/A.swift"),
    ])
    func theFuzzersFindingsAddAndRemoveCleanly(input: String, target: String, file: String) throws {
        let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Fuzz/crashes/\(input)")))
        let (added, removed) = try Self.addThenRemove(bytes, target: target, file: file)
        let written = try #require(added)
        _ = try PropertyListReader.read(written)
        #expect(removed == bytes, "\(input): add then remove does not give the same bytes")
    }

    /// The fuzzer's sixth finding: a list whose last item has no comma after it (Xcode
    /// always writes one) would not parse with a line appended, so the edit is refused.
    @Test func aListWithoutItsTrailingCommaIsRefused() throws {
        let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Fuzz/crashes/pbxproj-list-without-trailing-comma.pbxproj")))
        #expect(throws: XcodeProjectError.self) { _ = try Self.addThenRemove(bytes, target: "MyWidget", file: "MyWidget/Blocks/x/A.swift") }
        let fixture = try String(contentsOf: Self.fixtures.appendingPathComponent("Classic/MyApp.xcodeproj/project.pbxproj"), encoding: .utf8)
        let noComma = fixture.replacingOccurrences(
            of: "1A0000000000000000000001 /* MyAppApp.swift in Sources */,\n\t\t\t);", with: "1A0000000000000000000001 /* MyAppApp.swift in Sources */\n\t\t\t);")
        #expect(noComma != fixture)
        #expect(throws: XcodeProjectError.self) { _ = try Self.addThenRemove(Array(noComma.utf8), target: "MyApp", file: "MyApp/Blocks/x/A.swift") }
    }

    /// The fuzzer's seventh finding: a main group whose `isa` is not `PBXGroup` hid its
    /// children's paths from the walk that finds a block's files again, so an add could not
    /// be undone. The edit, read back, lacks the file, and is refused.
    @Test func aMainGroupThatIsNotAGroupIsRefused() throws {
        let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Fuzz/crashes/pbxproj-main-group-not-a-group.pbxproj")))
        #expect(throws: XcodeProjectError.self) { _ = try Self.addThenRemove(bytes, target: "MyWidget", file: "MyWidget/Blocks/x/A.swift") }
        let fixture = try String(contentsOf: Self.fixtures.appendingPathComponent("Classic/MyApp.xcodeproj/project.pbxproj"), encoding: .utf8)
        #expect((try? Self.addThenRemove(Array(fixture.utf8), target: "MyApp", file: "MyApp/Blocks/x/A.swift")) != nil)
    }

    /// The fuzzer's eighth finding: a damaged file (a comment left open, the groups' text
    /// copied inside the project object) where the edit, made on the text, lands in a copy
    /// no reader looks at. Every edit is read back before it is written, and this one is
    /// refused.
    @Test func anEditThatDoesNotReadBackIsRefused() throws {
        let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Fuzz/crashes/pbxproj-edit-lands-outside-the-objects.pbxproj")))
        #expect(throws: XcodeProjectError.self) { _ = try Self.addThenRemove(bytes, target: "MyApp", file: "MyApp/Blocks/x/A.swift") }
    }

    @Test func aSourcesPhaseWhoseFilesAreNotAListIsRefused() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("Classic/MyApp.xcodeproj/project.pbxproj"), encoding: .utf8)
        let broken = text.replacingOccurrences(
            of: "\t\t\tfiles = (\n\t\t\t\t1A0000000000000000000002 /* ContentView.swift in Sources */,\n\t\t\t\t1A0000000000000000000001 /* MyAppApp.swift in Sources */,\n\t\t\t);",
            with: "\t\t\tfiles = a;")
        #expect(broken != text)
        #expect(throws: XcodeProjectError.self) { _ = try Self.addThenRemove(Array(broken.utf8), target: "MyApp", file: "MyApp/Blocks/x/A.swift") }
    }

    // MARK: Hostile project files

    @Test(arguments: [
        ("deep", String(repeating: "(", count: 100_000)),
        ("duplicate", "{ objects = { 1A0000000000000000000001 = {isa = PBXGroup;}; 1A0000000000000000000001 = {isa = PBXGroup;}; }; rootObject = 1A0000000000000000000001; }"),
        ("garbage", "not a property list ;;; {"),
    ])
    func aHostileProjectFileGetsOneClearErrorAndNothingWritten(name: String, text: String) throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        try Data(text.utf8).write(to: copy.projectFile)
        let result = copy.run(["add", "pager"])
        #expect(result.code == 1, "\(name)")
        #expect(result.err.contains("cannot read MyApp.xcodeproj") && result.err.contains("--path"), "\(name): \(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("MyApp/Blocks").path))
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("blocks.lock").path))
    }

    @Test func aGroupPathLeavingTheProjectIsRefused() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8).replacingOccurrences(of: "\t\t\tpath = MyApp;", with: "\t\t\tpath = ../../outside;")
        try Data(text.utf8).write(to: copy.projectFile)
        let result = copy.run(["add", "pager"])
        #expect(result.code == 1)
        #expect(result.err.contains("leaves the project folder"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: copy.folder.url.deletingLastPathComponent().appendingPathComponent("outside").path))
    }

    @Test func aTargetNamedWithControlCharactersIsRefused() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8).replacingOccurrences(of: "\t\t\tname = MyWidget;", with: "\t\t\tname = \"My\\033[31mWidget\";")
        try Data(text.utf8).write(to: copy.projectFile)
        let result = copy.run(["add", "pager"])
        #expect(result.code == 1)
        #expect(result.err.contains("control characters") && !result.err.contains("\u{1B}"), "\(result.err)")
    }

    /// The one rule for control characters (`TerminalText`) counts C1 too: a name holding
    /// U+009B, a one-character CSI to some terminals, is refused like ESC.
    @Test func aTargetNamedWithAC1ControlCharacterIsRefused() throws {
        let copy = try Copy("Classic")
        defer { copy.folder.cleanUp() }
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8).replacingOccurrences(of: "\t\t\tname = MyWidget;", with: "\t\t\tname = \"My\u{9B}31mWidget\";")
        try Data(text.utf8).write(to: copy.projectFile)
        let result = copy.run(["add", "pager"])
        #expect(result.code == 1)
        #expect(result.err.contains("control characters") && !result.err.contains("\u{9B}"), "\(result.err)")
    }

    @Test func theReaderReadsEveryFormOfTheFormat() throws {
        let text = #"""
            // !$*UTF8*$!
            { a = "q\"uote\\ \n\t\U00e9\101"; b = ( x, "y z", ); /* c */ c = <0aFF 10>; d = { e = f/g.h-i_$; }; 'k' = 'v'; }
            """#
        let root = try PropertyListReader.read(Array(text.utf8))
        #expect(root["a"]?.string == "q\"uote\\ \n\té\u{41}")
        #expect(root["b"]?.strings == ["x", "y z"])
        if case .data(let bytes)? = root["c"]?.value { #expect(bytes == [0x0A, 0xFF, 0x10]) } else { Issue.record("c is not data") }
        #expect(root["d"]?["e"]?.string == "f/g.h-i_$")
        #expect(root["k"]?.string == "v")
        for bad in ["{ a = b }", "{ a = \"b; }", "( a b )", "{ a = <0g>; }", "{ a = b; a = c; }", "{ a = b; } x"] {
            #expect(throws: PropertyListError.self, "\(bad)") { try PropertyListReader.read(Array(bad.utf8)) }
        }
        #expect(throws: PropertyListError.self) { try PropertyListReader.read([UInt8](repeating: 0x20, count: PropertyListReader.maximumBytes + 1)) }
        #expect(XcodeProjectEditor.quoted("scrolling-strip") == "\"scrolling-strip\"")
        #expect(XcodeProjectEditor.quoted("Pager.swift") == "Pager.swift")
    }
}
