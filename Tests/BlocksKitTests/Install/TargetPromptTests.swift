import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, item 7: the prompt for one of several targets takes a number or a name,
/// ends its line at end of input, and offers to remember the choice in blocks.json.
@Suite final class TargetPromptTests {
    let catalog: TestCatalog

    init() throws {
        catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
    }

    deinit { catalog.delete() }

    func add(_ project: TestProject, answers: [String]) -> CommandResult {
        project.run(["--registry", catalog.root.path, "add", "strip"], interactive: true, answers: answers)
    }

    @Test(arguments: [["Widgets"], ["widgets"], ["2"], [" Widgets "], ["Nope", "Widgets"]])
    func aNumberOrANameChoosesTheTarget(answers: [String]) throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer { project.delete() }
        let result = add(project, answers: answers)
        #expect(result.code == 0, "\(answers): \(result.errors)")
        #expect(project.exists("Sources/Widgets/Blocks/strip/Strip.swift"), "\(answers): \(result.errors)")
        #expect(result.errors.contains("Number or name"), "\(result.errors)")
        // Not answered: nothing saved.
        #expect(result.errors.contains("Save this choice in blocks.json? [y/N]"), "\(result.errors)")
        #expect(!project.exists("blocks.json"))
    }

    @Test func anAmbiguousNameAsksAgain() throws {
        let project = try TestProject.make(targets: ["App", "app", "Widgets"])
        defer { project.delete() }
        // "APP" matches two targets ignoring case; "app" matches one exactly.
        let result = add(project, answers: ["APP", "app"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("APP"), "\(result.errors)")
        #expect(project.exists("Sources/app/Blocks/strip/Strip.swift"))
    }

    @Test func yesSavesTheChoiceAndTheNextAddDoesNotAsk() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer { project.delete() }
        let result = add(project, answers: ["Widgets", "y"])
        #expect(result.code == 0, "\(result.errors)")
        let config = try #require(try ProjectConfig.read(root: project.root), "\(result.errors)")
        #expect(config.path == "Sources/Widgets/Blocks")
        #expect(config.target == nil)
        let next = project.run(["--registry", catalog.root.path, "add", "pager"], interactive: true, answers: [])
        #expect(!next.errors.contains("several targets"), "\(next.errors)")
        #expect(next.output.contains("Sources/Widgets/Blocks (from blocks.json)"), "\(next.output)")
        #expect(project.exists("Sources/Widgets/Blocks/pager/Pager.swift"))
    }

    @Test func endOfInputEndsThePromptLineBeforeTheError() throws {
        let project = try TestProject.make(targets: ["App", "Widgets"])
        defer { project.delete() }
        let before = try project.treeHash()
        let result = add(project, answers: [])
        #expect(result.code == 1)
        #expect(!result.errors.contains(": error:") && !result.errors.contains(" error:"), "\(result.errors)")
        #expect(result.errors.contains("\nerror: "), "\(result.errors)")
        #expect(try project.treeHash() == before)
    }

    @Test func anXcodeTargetIsSavedAsTheTarget() throws {
        let copy = try XcodeProjectTests.Copy("Classic")
        defer { copy.folder.cleanUp() }
        let text = try String(contentsOf: copy.projectFile, encoding: .utf8)
            .replacingOccurrences(of: "\"com.apple.product-type.app-extension\"", with: "\"com.apple.product-type.application\"")
        try Data(text.utf8).write(to: copy.projectFile)
        let project = TestProject(root: copy.root)
        let result = project.run(
            ["add", "pager"], interactive: true, answers: ["mywidget", "y"],
            environment: ["XDG_CACHE_HOME": copy.folder.url.appendingPathComponent("cache").path])
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.exists("MyWidget/Blocks/pager/Pager.swift"))
        let config = try #require(try ProjectConfig.read(root: project.root), "\(result.errors)")
        #expect(config.target == "MyWidget")
        #expect(config.path == nil)
    }
}
