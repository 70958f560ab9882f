import Foundation
import Testing

@testable import BlocksKit

@Suite struct LintTests {
    func problems(_ mutate: (inout [String: Any]) -> Void, folder: String = "tabs-demo") -> [LintProblem] {
        var object = try! JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "tabs-demo").utf8)) as! [String: Any]
        mutate(&object)
        let data = try! JSONSerialization.data(withJSONObject: object)
        return ManifestValidator.problems(in: data, file: "Catalog/\(folder)/block.json", folderName: folder)
    }

    @Test func aValidManifestHasNoProblems() {
        #expect(problems { _ in }.isEmpty)
    }

    @Test func eachProblemNamesTheFileAndTheField() {
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("summary", { $0["summary"] = nil }),
            ("version", { $0["version"] = "1.0" }),
            ("name", { $0["name"] = "Tabs_Demo" }),
            ("title.es", { $0["title"] = ["en": "Only English"] }),
            ("tags.es", { $0["tags"] = ["en": ["tabs"]] }),
            ("platforms.Android", { $0["platforms"] = ["Android": "14"] }),
            ("level", { $0["level"] = "expert" }),
            ("files[0].role", { $0["files"] = [["path": "Sample.swift", "role": "test"]] }),
            ("license", { $0["license"] = "GPL" }),
            ("accessibility.reduceMotion", { $0["accessibility"] = ["voiceOver": "x", "dynamicType": "y"] }),
        ]
        for (field, mutate) in cases {
            let found = problems(mutate)
            #expect(!found.isEmpty && found.allSatisfy { $0.field == field }, "\(field): \(found)")
            #expect(found.first?.description.hasPrefix("Catalog/tabs-demo/block.json: \(field):") == true)
        }
    }

    @Test func nameMustMatchItsFolder() {
        let found = problems({ _ in }, folder: "other")
        #expect(found.map(\.field) == ["name"])
        #expect(found.first?.message.contains("differs from its folder") == true)
    }

    @Test(arguments: [
        ("pager", true), ("scrolling-strip", true), ("a1-b2-c3", true), ("0", true),
        ("", false), ("-pager", false), ("pager-", false), ("tab--strip", false), ("Pager", false),
        ("tab_strip", false), ("tab strip", false), ("pestaña", false), ("pager\n", false), ("../x", false),
    ])
    func blockNamesAreLowercaseWordsJoinedBySingleDashes(name: String, valid: Bool) {
        #expect(ManifestValidator.isValidName(name) == valid)
    }

    @Test func blockNamesFollowTheSchemaPattern() throws {
        let pattern = try NSRegularExpression(pattern: "^[a-z0-9]+(-[a-z0-9]+)*$")
        let names = [
            "tabs", "top-tabs", "a1-b2-c3", "0", "", "-", "-tabs", "tabs-", "top--tabs", "Top-tabs",
            "top_tabs", "top tabs", "tabs/..", "café", "ｔａｂｓ", "a-b-",
        ]
        for name in names {
            let expected = pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
            #expect(ManifestValidator.isValidName(name) == expected, "\(name.debugDescription)")
        }
        // ICU's `$` also matches before a final newline; a folder name never may.
        #expect(!ManifestValidator.isValidName("tabs\n"))
    }

    @Test func brokenJSONIsOneClearProblem() {
        let found = ManifestValidator.problems(in: Data("{ nope".utf8), file: "x/block.json")
        #expect(found == [LintProblem(file: "x/block.json", field: "", message: "not valid JSON: expected a key at byte 2")])
        let array = ManifestValidator.problems(in: Data("[1]".utf8), file: "x/block.json")
        #expect(array == [LintProblem(file: "x/block.json", field: "", message: "not a JSON object")])
    }

    @Test func lintReportsMissingUnlistedAndUnparsableFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try writeBlock(in: folder, name: "good")
        try writeBlock(
            in: folder, name: "bad",
            manifest: sampleManifestJSON(name: "bad", version: "one", files: [("Sample.swift", "component"), ("Gone.swift", "logic")]),
            files: ["Sample.swift": "struct Sample {\n", "Extra.swift": "let x = 1\n"])
        let result = runBlocks(["lint", "Catalog"], in: folder.url, environment: ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin"])
        #expect(result.code == 1)
        #expect(result.out.contains("Catalog/bad/block.json: version:"))
        #expect(result.out.contains("Catalog/bad/block.json: files: lists Gone.swift, which does not exist"))
        #expect(result.out.contains("Catalog/bad/Extra.swift: files: is not listed in block.json"))
        #expect(result.out.contains("Catalog/bad/Sample.swift: does not parse"))
        #expect(!result.out.contains("Catalog/good"))
        #expect(result.err.contains("lint found 4 problems"))

        let json = runBlocks(["lint", "Catalog", "--json", "--no-parse"], in: folder.url)
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((object?["problems"] as? [Any])?.count == 3)
        #expect(object?["blocks"] as? Int == 2)
    }

    @Test func lintOfTheRealCatalogPasses() {
        let result = runBlocks(["lint", "Catalog"], environment: ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("9 blocks OK"))
    }
}

@Suite struct NewCommandTests {
    /// Issue 35 changed this: a fresh scaffold fails lint on its placeholders
    /// (NewcomerTests); once they are written, it passes, Swift files parsed.
    @Test func aNewBlockFromTheScaffoldPassesLintOnceItsPlaceholdersAreWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let created = runBlocks(["new", "segmented-tabs"], in: folder.url)
        #expect(created.code == 0, "\(created.err)")
        #expect(folder.read("Catalog/segmented-tabs/SegmentedTabsLogic.swift")?.contains("public enum SegmentedTabsLogic") == true)
        let environment = ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin"]
        #expect(runBlocks(["lint", "Catalog"], in: folder.url, environment: environment).code == 1)
        var manifest = try #require(folder.read("Catalog/segmented-tabs/block.json"))
        for (placeholder, text) in [
            ("Describe what the block does.", "Tabs in a segmented row."), ("Describe qué hace el bloque.", "Pestañas en una fila segmentada."),
            ("Your Name", "Ada"), ("Say what VoiceOver reads.", "Each tab is a button."), ("Say how text scales.", "Labels grow."),
            ("Say what replaces motion.", "No animation."),
        ] {
            manifest = manifest.replacingOccurrences(of: placeholder, with: text)
        }
        try folder.write("Catalog/segmented-tabs/block.json", manifest)
        let lint = runBlocks(["lint", "Catalog"], in: folder.url, environment: environment)
        #expect(lint.code == 0, "\(lint.out)\(lint.err)")
        #expect(runBlocks(["new", "segmented-tabs"], in: folder.url).err.contains("already exists"))
        #expect(runBlocks(["new", "Bad_Name"], in: folder.url).code == 64)
    }
}
