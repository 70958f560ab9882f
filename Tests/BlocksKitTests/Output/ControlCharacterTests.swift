import Foundation
import Testing

@testable import BlocksKit

/// Issue 12, item 4: control characters from a registry never reach the terminal. The
/// readers and `lint` refuse them in every string field, and everything printed escapes
/// any that arrive another way.
@Suite struct ControlCharacterTests {
    /// `ESC ] 0 ; pwned BEL` retitles the terminal window; `ESC [ 2 J` clears it; U+009B
    /// is the one-character CSI of C1.
    static let retitle = "\u{1B}]0;pwned\u{07}"
    static let clear = "\u{1B}[2J"

    /// The same two tricks as they are written inside a JSON string.
    static let jsonTitle = #"\u001b]0;pwned\u0007Evil \u001b[2J Title"#

    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func escapingShowsEveryControlAndKeepsTheRest() {
        #expect(TerminalText.escaped(Self.retitle + "Tabs" + Self.clear) == #"\u{1B}]0;pwned\u{7}Tabs\u{1B}[2J"#)
        #expect(TerminalText.escaped("a\u{7F}b\u{9B}c\u{80}d\u{9F}e") == #"a\u{7F}b\u{9B}c\u{80}d\u{9F}e"#)
        #expect(TerminalText.escaped("line\nnext\ttab") == #"line\u{A}next\u{9}tab"#)
        let plain = "Pestañas 🙂 — ok \u{A0}\u{A1}~"
        #expect(TerminalText.escaped(plain) == plain)
        #expect(TerminalText.escapedKeepingLines("one\r\ntwo\n\tthree\rfake\u{1B}[2J") == "one\r\ntwo\n\tthree\\u{D}fake\\u{1B}[2J")
        #expect(TerminalText.firstControl(in: "ok \u{9B}") == "\u{9B}")
        #expect(TerminalText.firstControl(in: "é ok") == nil)
    }

    @Test func tableCellsAreEscapedBeforeTheyAreMeasured() {
        let lines = Table.render([["name", "Evil\(Self.clear)"], ["longer-name", "ok"]])
        #expect(lines == ["name         Evil\\u{1B}[2J", "longer-name  ok"])
    }

    @Test func warningsNotesAndErrorsAreEscaped() {
        let (context, _, errors) = makeContext(directory: repositoryRoot)
        context.warn("server said \(Self.retitle)")
        context.note("note: \(Self.clear)")
        _ = BlocksCLI.report(RegistryError.invalidIndex(location: "http://x/\(Self.clear)", reason: "bad\u{9B}"), context: context)
        #expect(!Self.hasRawControl(errors.text), "\(errors.text.debugDescription)")
        #expect(errors.text.contains(#"server said \u{1B}]0;pwned\u{7}"#))
        #expect(errors.text.contains(#"http://x/\u{1B}[2J"#))
    }

    @Test func theManifestReaderRefusesControlsInEveryStringField() throws {
        let cases: [(field: String, edit: (inout [String: Any]) -> Void)] = [
            ("title.en", { $0["title"] = ["en": "Evil\u{1B}[2J", "es": "x"] }),
            ("summary.es", { $0["summary"] = ["en": "x", "es": "y\u{9B}2J"] }),
            ("tags.en[1]", { $0["tags"] = ["en": ["tabs", "a\nb"], "es": ["x"]] }),
            ("api[0].description", { $0["api"] = [["name": "a", "type": "Int", "description": "d\u{7F}"]] }),
            ("authors[0]", { $0["authors"] = ["Ada\u{07}"] }),
            ("accessibility.voiceOver", { $0["accessibility"] = ["voiceOver": "\u{1B}]0;x\u{07}", "dynamicType": "y", "reduceMotion": "z"] }),
        ]
        for (field, edit) in cases {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "evil").utf8)) as? [String: Any])
            edit(&object)
            let data = try JSONSerialization.data(withJSONObject: object)
            let problems = ManifestValidator.problems(in: data, file: "Catalog/evil/block.json", folderName: "evil")
            #expect(problems.map(\.field) == [field], "\(field): \(problems)")
            #expect(problems.first?.message.contains("control character") == true)
            #expect(BlockManifest.decode(data) == nil, "\(field)")
            let fields = try JSONFields(try JSONReader.parse(data), path: "")
            #expect(throws: JSONFields.Problem.self) { _ = try BlockManifest(fields: fields) }
        }
    }

    /// Keys are text too: `lint` names a control character in any key, known or unknown,
    /// at the top level or nested, by the key's path.
    @Test func lintRefusesControlsInKeys() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "evil").utf8)) as? [String: Any])
        object["note\u{1B}[2J"] = "x"
        object["accessibility"] = ["voiceOver": "x", "dynamicType": "y", "reduceMotion": "z", "extra\u{9B}": "w"]
        let data = try JSONSerialization.data(withJSONObject: object)
        let problems = ManifestValidator.problems(in: data, file: "Catalog/evil/block.json", folderName: "evil")
        #expect(problems.map(\.field) == ["accessibility.extra\u{9B}", "note\u{1B}[2J"], "\(problems)")
        #expect(
            problems.map(\.message) == [
                "holds the control character \\u{9B}; every text is one line of plain text",
                "holds the control character \\u{1B}; every text is one line of plain text",
            ])
    }

    /// A built registry whose index and metadata carry the tricks in a title: the real
    /// binary's `list`, `info` and `search` refuse it, naming the field, and print no
    /// control character, on either stream, with or without `--json`.
    @Test func aHostileRegistryNeverReachesTheTerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 2)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        for file in ["public/index.json", "public/blocks/block-0000.json"] {
            let text = try #require(folder.read(file))
            #expect(text.contains("\"Block 0\""))
            try folder.write(file, text.replacingOccurrences(of: "\"Block 0\"", with: "\"\(Self.jsonTitle)\""))
        }
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let registry = folder.path("public").path
        for arguments in [["list"], ["info", "block-0000"], ["search", "block"], ["--json", "list"], ["search", "evil", "--json"]] {
            let result = try project.runBinary(["--registry", registry] + arguments)
            #expect(result.code == 1, "\(arguments): \(result.output)\(result.errors)")
            #expect(!Self.hasRawControl(result.output) && !Self.hasRawControl(result.errors), "\(arguments): \(result.errors.debugDescription)")
            #expect(result.errors.contains("title.en holds the control character \\u{1B}"), "\(arguments): \(result.errors)")
        }
        let json = try project.runBinary(["--registry", registry, "--json", "info", "block-0000"])
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == 1)
        #expect((error?["message"] as? String)?.contains("title.en") == true, "\(json.output)")
    }

    /// The same title in a catalog: `lint` fails naming the file and the field, and a
    /// catalog used as the registry is refused the same way.
    @Test func lintAndCatalogRegistriesRefuseTheTitle() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try writeBlock(in: folder, name: "evil", manifest: sampleManifestJSON(name: "evil", titleEnglish: "Evil \(Self.clear)\(Self.retitle)"))
        try writeBlock(in: folder, name: "good")
        let project = TestProject(root: folder.url)
        let lint = try project.runBinary(["lint", "--no-parse"])
        #expect(lint.code == 1)
        #expect(lint.output.contains(#"Catalog/evil/block.json: title.en: holds the control character \u{1B}"#), "\(lint.output)")
        #expect(!Self.hasRawControl(lint.output) && !Self.hasRawControl(lint.errors))
        let listed = try project.runBinary(["--registry", folder.path("Catalog").path, "list"])
        #expect(listed.code == 1)
        #expect(listed.errors.contains("title.en"), "\(listed.errors)")
        #expect(!Self.hasRawControl(listed.output) && !Self.hasRawControl(listed.errors))
    }

    /// Text that is not registry data but still comes from outside (a path typed or
    /// pasted, a URL) is escaped in the one place errors are printed.
    @Test func errorsQuotingAPathAreEscaped() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["--registry", "/nonexistent/\(Self.clear)\(Self.retitle)", "list"])
        #expect(result.code != 0)
        #expect(!Self.hasRawControl(result.errors), "\(result.errors.debugDescription)")
        #expect(result.errors.contains(#"\u{1B}[2J"#), "\(result.errors)")
    }
}
