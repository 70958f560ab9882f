import Foundation
import Testing

@testable import BlocksKit

/// Issue 32 (5): a registry's package dependency names values that reach `swift package`'s
/// command line. Each is checked against its own grammar (`PackageValueGrammar`) by the
/// real `lint` on a temporary catalog and by `add` from a temporary catalog folder
/// registry, before anything is written or run; the commands pass them after `--`.
@Suite struct PackageValueTests {
    static let victimOption = "--package-path=/victim"

    /// A fake `swift` on a temporary PATH that records that it ran, in `ran`.
    static func fakeSwift(in folder: TemporaryFolder) throws -> (bin: URL, ran: URL) {
        let ran = folder.path("swift-ran")
        try folder.write("bin/swift", "#!/bin/sh\necho \"$@\" >> '\(ran.path)'\n")
        chmod(folder.path("bin/swift").path, 0o755)
        return (folder.path("bin"), ran)
    }

    @Test func theGrammarRefusesOptionsAndAcceptsRealValues() {
        for good in [
            "https://github.com/apple/swift-collections.git", "http://h.test:8080/p", "ssh://git@h.test/org/p.git", "file:///srv/p",
            "git@github.com:apple/swift-collections.git",
        ] {
            #expect(PackageValueGrammar.urlProblem(good) == nil, "\(good)")
        }
        for bad in [
            "--package-path=/victim", "-https://h.test/p", "https://", "https:///p", "https://h.test/p q", "https://h.test/\"),.package(path:\"/x",
            "https://h.test/a\\b", "git@h.test", "git@:p", "ftp://h.test/p", "https://h.test/-p.git", "https://h.test/p\u{1B}[2J",
        ] {
            #expect(PackageValueGrammar.urlProblem(bad) != nil, "\(bad)")
        }
        for good in ["OrderedCollections", "_NIOConcurrency", "swift-log", "Lib.Core", "A1"] {
            #expect(PackageValueGrammar.productProblem(good) == nil, "\(good)")
        }
        for bad in [Self.victimOption, "-x", "", ".hidden", "A B", "A\"B", "Ünicode", String(repeating: "a", count: 129)] {
            #expect(PackageValueGrammar.productProblem(bad) != nil, "\(bad)")
        }
        #expect(PackageValueGrammar.productProblem(Self.victimOption)?.contains("starts with '-'") == true)
        #expect(PackageValueGrammar.versionProblem("1.2.3") == nil && PackageValueGrammar.versionProblem("-1.0.0") != nil)
        #expect(PackageValueGrammar.versionProblem("--exact=1.0.0")?.contains("starts with '-'") == true)
        #expect(PackageValueGrammar.identity(of: "git@h.test:repo.git") == "repo")
        #expect(PackageValueGrammar.identity(of: "https://h.test/org/swift-log.git") == "swift-log")
    }

    @Test func lintNamesTheFileAndTheFieldOfEveryBadValue() throws {
        let folder = try TemporaryFolder("package-values-lint")
        defer { folder.cleanUp() }
        var object = try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "strip").utf8)) as! [String: Any]
        object["dependencies"] = [
            "packages": [
                ["url": "https://h.test/p.git", "from": "1.0.0", "products": ["Good", Self.victimOption]],
                ["url": "--package-path=/victim", "exact": "-1.0.0", "products": ["P"]],
                ["url": "https://h.test/q.git", "from": "1.0.0", "products": ["Q"]],
            ]
        ]
        try writeBlock(in: folder, name: "strip", manifest: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        let report = try CatalogLinter(root: folder.path("Catalog"), swiftCompiler: nil).run()
        let lines = report.problems.map(\.description)
        #expect(
            lines.contains(
                "Catalog/strip/block.json: dependencies.packages[0].products[1]: '--package-path=/victim' starts with '-', so swift package would read it as an option"
            ), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Catalog/strip/block.json: dependencies.packages[1].url: '--package-path=/victim' starts with '-'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Catalog/strip/block.json: dependencies.packages[1].exact: '-1.0.0' starts with '-'") }, "\(lines)")
        #expect(report.problems.count == 3, "\(lines)")

        // The real command fails on it too.
        let lint = runBlocks(["lint", folder.path("Catalog").path])
        #expect(lint.code != 0)
        #expect(lint.out.contains("dependencies.packages[0].products[1]") || lint.err.contains("dependencies.packages[0].products[1]"), "\(lint.out) \(lint.err)")
    }

    @Test func addRefusesAnOptionAsAProductBeforeWritingOrRunningAnything() throws {
        let folder = try TemporaryFolder("package-values-add")
        defer { folder.cleanUp() }
        let victim = folder.path("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        let (bin, ran) = try Self.fakeSwift(in: folder)
        var block = TestCatalog.Block.standard("strip", type: "Strip")
        block.dependencies = BlockDependencies(
            packages: [PackageDependency(url: "https://h.test/p.git", from: "1.0.0", products: ["--package-path=\(victim.path)"])])
        let catalog = try TestCatalog.make([block])
        defer { catalog.delete() }
        let project = try TestProject.make()
        defer { project.delete() }
        let before = try project.treeHash()

        for arguments in [["add", "strip"], ["add", "strip", "--dry-run"]] {
            let result = project.run(
                arguments + ["--registry", catalog.root.path], environment: ["PATH": bin.path + ":/usr/bin:/bin", "XDG_CACHE_HOME": testCacheFolder.path])
            #expect(result.code == 1, "\(arguments): \(result.output) \(result.errors)")
            #expect(
                result.errors
                    == "error: block 'strip' needs a Swift package that cannot be added: dependencies.packages[0].products[0]: '--package-path=\(victim.path)' starts with '-', so swift package would read it as an option; the registry is broken, so nothing was added and swift package was not run\n",
                "\(result.errors)")
            #expect(!result.output.contains("swift package"), "\(result.output)")
        }
        #expect(try project.treeHash() == before, "nothing was written")
        #expect(!FileManager.default.fileExists(atPath: ran.path), "swift never ran")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == [])
    }

    @Test func theCommandsPassEveryRegistryValueAfterTheSeparator() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let package = PackageDependency(url: "https://h.test/swift-things.git", exact: "2.0.0", products: ["Things"])
        let steps = PackageSteps.plan([(package, "strip")], root: project.root, targetFolder: "Sources/App/Blocks", swiftAvailable: true)
        #expect(steps.commands.map(\.arguments) == [
            ["package", "add-dependency", "--exact", "2.0.0", "--", "https://h.test/swift-things.git"],
            ["package", "add-target-dependency", "--package", "swift-things", "--", "Things", "App"],
        ])
        // A value that slipped past the check is still never planned; a folder that is no
        // target name leaves the step to a person.
        let hostile = PackageDependency(url: "https://h.test/p.git", from: "1.0.0", products: [Self.victimOption])
        #expect(PackageSteps.plan([(hostile, "strip")], root: project.root, targetFolder: "Sources/App/Blocks", swiftAvailable: true).commands == [])
        let oddTarget = PackageSteps.plan([(package, "strip")], root: project.root, targetFolder: "Sources/-x/Blocks", swiftAvailable: true)
        #expect(oddTarget.commands == [] && oddTarget.manual.count == 1)
    }

    /// SwiftPM itself, on this machine, reads what follows `--` as values: the product
    /// named like an option lands in Package.swift as a name, and nothing else is touched.
    @Test func realSwiftPackageTakesValuesAfterTheSeparator() throws {
        guard let swift = PackageSteps.findSwift(environment: ProcessInfo.processInfo.environment) else { return }
        let project = try TestProject.make()
        defer { project.delete() }
        let steps = PackageSteps(
            commands: [
                .init(arguments: ["package", "add-dependency", "--from", "1.0.0", "--", "https://h.test/swift-things.git"], requiredBy: "x"),
                .init(arguments: ["package", "add-target-dependency", "--package", "swift-things", "--", "--package-path=/nonexistent", "App"], requiredBy: "x"),
            ], manual: [])
        #expect(steps.run(swift: swift, root: project.root) == nil)
        let manifest = project.read("Package.swift") ?? ""
        #expect(manifest.contains("\"https://h.test/swift-things.git\""), "\(manifest)")
        #expect(manifest.contains(".product(name: \"--package-path=/nonexistent\", package: \"swift-things\")"), "\(manifest)")
    }
}
