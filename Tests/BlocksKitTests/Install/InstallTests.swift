import Foundation
import Testing

@testable import BlocksKit

/// Where files go, the path rules, and reading Package.swift as text.
/// A class, so that its `deinit` removes the catalog each test's instance makes, also
/// for the tests that never use it.
@Suite final class InstallTests {
    let catalog: TestCatalog

    init() throws {
        catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
    }

    deinit { catalog.delete() }

    func add(_ project: TestProject, _ arguments: [String], in directory: String? = nil, interactive: Bool = false, answers: [String] = []) -> CommandResult {
        project.run(["--registry", catalog.root.path, "add"] + arguments, in: directory, interactive: interactive, answers: answers)
    }

    @Test func aPackageWithOneTargetGetsSourcesTargetBlocks() throws {
        let project = try TestProject.make(targets: ["Shop"])
        defer {
            project.delete()
        }
        let result = add(project, ["strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("Target folder: Sources/Shop/Blocks (the package's only target, Shop)"))
        #expect(project.exists("Sources/Shop/Blocks/strip/Strip.swift"))
        #expect(project.exists("Sources/Shop/Blocks/strip/StripLogic.swift"))
        #expect(project.exists("Sources/Shop/Blocks/strip/StripDemo.swift"))
    }

    @Test func severalTargetsFailListingThemWhenNobodyCanAnswer() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer {
            project.delete()
        }
        let before = try project.treeHash()
        let result = add(project, ["strip"])
        #expect(result.code == 1)
        #expect(result.errors.contains("several targets"))
        #expect(result.errors.contains("  App\n  Widgets\n"))
        #expect(result.errors.contains("--path"))
        #expect(try project.treeHash() == before)
    }

    @Test func severalTargetsAskOnATerminal() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer {
            project.delete()
        }
        let result = add(project, ["strip"], interactive: true, answers: ["7", "2"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("2) Widgets (Sources/Widgets/Blocks)"))
        #expect(project.exists("Sources/Widgets/Blocks/strip/Strip.swift"))
    }

    @Test func theConfigFromInitComesFirst() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer {
            project.delete()
        }
        let initialized = project.run(["init", "--path", "Sources/Widgets/UI", "--registry", catalog.root.path])
        #expect(initialized.code == 0, "\(initialized.errors)")
        let config = try #require(try ProjectConfig.read(root: project.root))
        #expect(config.path == "Sources/Widgets/UI")
        #expect(config.registry == catalog.root.path)
        // No --registry: it comes from blocks.json. --path loses to blocks.json, with a warning.
        let result = project.run(["add", "strip", "--path", "Sources/App"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("--path Sources/App is ignored"))
        #expect(result.output.contains("Target folder: Sources/Widgets/UI (from blocks.json)"))
        #expect(project.exists("Sources/Widgets/UI/strip/Strip.swift"))
    }

    @Test func pathOptionIsRelativeToTheCurrentFolder() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer {
            project.delete()
        }
        let result = add(project, ["strip", "--path", "Components"], in: "Sources/App")
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.exists("Sources/App/Components/strip/Strip.swift"))
        #expect(project.exists("blocks.lock"))
        #expect(try project.lock().blocks["strip"]?.folder == "Sources/App/Components/strip")
    }

    /// Issue 34 changed this: blocks go into the app target's folder (XcodeProjectTests),
    /// and an Xcode project that cannot be read is one clear error with the --path way out,
    /// rather than a folder beside it that no target builds.
    @Test func anUnreadableXcodeProjectIsAnErrorWithTheWayOut() throws {
        let project = try TestProject.makeEmpty()
        defer {
            project.delete()
        }
        try FileManager.default.createDirectory(at: project.url("Shop.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: project.url("Shop/Views"), withIntermediateDirectories: true)
        let result = add(project, ["strip"], in: "Shop/Views")
        #expect(result.code == 1)
        #expect(result.errors.contains("cannot read Shop.xcodeproj") && result.errors.contains("--path"), "\(result.errors)")
        #expect(!project.exists("Blocks"))
        let placed = add(project, ["strip", "--path", "Blocks"], in: "Shop/Views")
        #expect(placed.code == 0, "\(placed.errors)")
        #expect(project.exists("Shop/Views/Blocks/strip/Strip.swift"))
    }

    /// Issue 35 changed this: outside a project, add is refused (NewcomerTests), and
    /// `--path` is the way to add there anyway. Once the lock marks the folder, later adds
    /// go to Blocks/ in the current folder.
    @Test func withNoProjectBlocksGoWhereThePathSays() throws {
        let project = try TestProject.makeEmpty()
        defer {
            project.delete()
        }
        #expect(add(project, ["strip", "--no-demo"]).code == 1)
        #expect(!project.exists("Blocks"))
        let result = add(project, ["strip", "--no-demo", "--path", "Blocks"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.exists("Blocks/strip/Strip.swift"))
        #expect(!project.exists("Blocks/strip/StripDemo.swift"))
        try FileManager.default.removeItem(at: project.url("Blocks"))
        try FileManager.default.removeItem(at: project.url("blocks.lock"))
        try project.write("blocks.lock", #"{"blocks": {}, "lockVersion": 2}"#)
        let marked = add(project, ["strip", "--no-demo"])
        #expect(marked.code == 0, "\(marked.errors)")
        #expect(marked.output.contains("Target folder: Blocks (in the current folder)"), "\(marked.output)")
    }

    @Test(arguments: ["../x", "../../etc", "/tmp/elsewhere", "Sources/../../x"])
    func pathMayNotLeaveTheProject(path: String) throws {
        let project = try TestProject.make()
        defer {
            project.delete()
        }
        let before = try project.treeHash()
        let result = add(project, ["strip", "--path", path])
        #expect(result.code == 64)
        #expect(result.errors.contains("is not a valid value for '--path': expected a folder inside the project root"))
        #expect(try project.treeHash() == before)
    }

    @Test func aSymbolicLinkOutOfTheProjectIsRefused() throws {
        let project = try TestProject.make()
        let outside = try TestProject.makeEmpty()
        defer {
            project.delete()
            outside.delete()
        }
        try FileManager.default.createSymbolicLink(at: project.url("Escape"), withDestinationURL: outside.root)
        let before = try project.treeHash()
        let result = add(project, ["strip", "--path", "Escape/Blocks"])
        #expect(result.code == 1)
        #expect(result.errors.contains("leads outside the project root"))
        #expect(try project.treeHash() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.root.path).isEmpty)
    }

    @Test func stayingInsideIsJudgedThroughLinksAndMissingFolders() throws {
        let project = try TestProject.make()
        let outside = try TestProject.makeEmpty()
        defer {
            project.delete()
            outside.delete()
        }
        try FileManager.default.createSymbolicLink(at: project.url("Escape"), withDestinationURL: outside.root)
        try FileManager.default.createSymbolicLink(at: project.url("Inner"), withDestinationURL: project.url("Sources"))
        try FileManager.default.createSymbolicLink(
            at: project.url("Dangling"), withDestinationURL: project.root.appendingPathComponent("nowhere"))
        #expect(ProjectPaths.staysInside(project.url("Sources/App/Blocks/a/b"), root: project.root))
        #expect(ProjectPaths.staysInside(project.url("Inner/App/Blocks/new"), root: project.root))
        #expect(ProjectPaths.staysInside(project.root, root: project.root))
        #expect(!ProjectPaths.staysInside(project.url("Escape/Blocks/new"), root: project.root))
        #expect(!ProjectPaths.staysInside(project.url("Escape"), root: project.root))
        #expect(ProjectPaths.staysInside(project.url("Dangling/x"), root: project.root))
    }

    /// "Strip" was here until issue 35 made names case-insensitive ('Strip' is 'strip'):
    /// an underscore is still not a slug in any case.
    @Test(arguments: ["../x", "x/../../y", "/etc/passwd", "Str_ip", "", "a b"])
    func blockNamesThatAreNotSlugsAreRefused(name: String) throws {
        let project = try TestProject.make()
        defer {
            project.delete()
        }
        let before = try project.treeHash()
        let result = add(project, [name])
        #expect(result.code == 64)
        #expect(result.errors.contains("expected a block name"))
        #expect(try project.treeHash() == before)
    }

    @Test func unknownNamesGetSuggestionsAndNothingIsWritten() throws {
        let project = try TestProject.make()
        defer {
            project.delete()
        }
        let before = try project.treeHash()
        let result = add(project, ["strip", "pagr"])
        #expect(result.code == 1)
        #expect(result.errors.contains("no block named 'pagr'; did you mean 'pager'?"))
        #expect(try project.treeHash() == before)
    }

    @Test func aBrokenRegistryCannotWriteOutsideTheBlockFolder() throws {
        let project = try TestProject.make()
        let evil = try TestCatalog.make([TestCatalog.Block(name: "evil", files: [("../../../Escaped.swift", "component", "x\n")])])
        defer {
            project.delete()
            evil.delete()
        }
        let before = try project.treeHash()
        let result = project.run(["--registry", evil.root.path, "add", "evil"])
        #expect(result.code == 1)
        #expect(result.errors.contains("would land outside its folder"))
        #expect(try project.treeHash() == before)
    }

    @Test func initWithoutPathSavesWhatAddWouldChoose() throws {
        let project = try TestProject.make(targets: ["Shop"])
        defer {
            project.delete()
        }
        let result = project.run(["init"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.read("blocks.json") == "{\n  \"path\" : \"Sources/Shop/Blocks\"\n}\n")
        #expect(project.run(["init", "--path", "../out"]).code == 64)
    }

    // MARK: - Package.swift as text

    @Test func findsDeclaredTargetsButNotDependenciesOrTests() {
        let text = """
            // .target(name: "Commented")
            let package = Package(
                name: "P",
                targets: [
                    .executableTarget(name: "Tool", dependencies: [.target(name: "Core"), .product(name: "X", package: "x")]),
                    .target(
                        name: "Core", /* .target(name: "Nope") */
                        dependencies: [],
                        path: "Code/Core"
                    ),
                    .testTarget(name: "CoreTests", dependencies: ["Core"]),
                    .systemLibrary(name: "CSys"),
                ]
            )
            """
        let targets = PackageManifestScanner.targets(in: text)
        #expect(
            targets == [
                .init(name: "Tool", path: "Sources/Tool"),
                .init(name: "Core", path: "Code/Core"),
            ])
    }

    @Test func readsPlatformsInEverySpelling() {
        let text = """
            let package = Package(name: "P", platforms: [.iOS(.v17), .macOS(.v10_15), .tvOS("17.4"), .watchOS( .v10 )], targets: [])
            """
        #expect(PackageManifestScanner.platforms(in: text) == ["iOS": "17", "macOS": "10.15", "tvOS": "17.4", "watchOS": "10"])
        #expect(PackageManifestScanner.platforms(in: "let package = Package(name: \"P\")").isEmpty)
    }

    @Test func comparesVersions() {
        #expect(VersionComparison.isNewer("1.10.0", than: "1.9.3"))
        #expect(VersionComparison.isNewer("1.0.0", than: "1.0.0-beta.2"))
        #expect(VersionComparison.isNewer("1.0.0-beta.10", than: "1.0.0-beta.2"))
        #expect(!VersionComparison.isNewer("1.0.0+build.7", than: "1.0.0"))
        #expect(VersionComparison.compare("18.0", "18") == 0)
        #expect(PlatformCheck.gaps(block: ["iOS": "18.0", "macOS": "15.0"], project: ["iOS": "17"]).map(\.platform) == ["iOS"])
    }
}

@Suite struct InstallPlanNameTests {
    /// Sources check names; the plan checks again, because a name becomes a folder.
    @Test(arguments: ["..", "../x", ".git", "a/b", "Pager", ""])
    func aBlockWhoseNameIsNotASlugIsNeverPlanned(name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var content = try CatalogSource.embedded.contents(of: ["pager"])[0]
        content.manifest.name = name
        #expect(throws: InstallError.unsafeBlockName(name)) {
            try InstallPlan.make(
                contents: [content], registry: "test", root: folder.url, lock: Lockfile(), includeDemo: true, year: 2026,
                folderFor: { folder.url.appendingPathComponent("Blocks").appendingPathComponent($0) })
        }
    }
}

@Suite struct ProjectLocatorTests {
    /// The one walk finds the nearest folder with a marker file, and nothing where there is none.
    @Test func theMarkedRootIsTheNearestFolderWithAMarkerFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("app/Package.swift", "// swift-tools-version:6.0\n")
        try folder.write("app/Sources/App/Deep/File.swift", "")
        let deep = folder.path("app/Sources/App/Deep")
        #expect(ProjectLocator.locate(from: deep).root?.path == folder.path("app").standardizedFileURL.path)
        #expect(ProjectLocator.locate(from: deep).root?.path == Project.locate(from: deep).root.path)
        try folder.write("app/Sources/blocks.json", "{}")
        #expect(ProjectLocator.locate(from: deep).root?.path == folder.path("app/Sources").standardizedFileURL.path)
        try folder.write("loose/a/b/readme.txt", "")
        #expect(ProjectLocator.locate(from: folder.path("loose/a/b")).root == nil)
    }
}
