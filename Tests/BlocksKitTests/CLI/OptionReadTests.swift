import Foundation
import Testing

/// Issue 33: a command reads its options through their `OptionSpec`s
/// (`arguments.value(limitOption)`), never by a name in a string (`arguments.value("limit")`),
/// so each option is spelled once, in its spec, and a renamed option cannot leave a read
/// that silently finds nothing.
@Suite struct OptionReadTests {
    /// The folders whose code reads parsed command lines.
    static let folders = ["Commands", "MCP", "CLI"]

    /// A read of parsed arguments by a string literal, once `SourceCode.codeLines` has
    /// blanked the literal to `""`.
    static let pattern = #"\b(arguments|parsed|globals)\.(value|flag|allValues|integer)\(""|\b(arguments|parsed|globals)\.values\[""\]"#

    static func violations(in library: URL) throws -> [String] {
        var found: [String] = []
        for folder in folders {
            let base = library.appendingPathComponent(folder)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in SourceCode.codeLines(text).enumerated() where !PublicAPIGuardTests.matches(of: pattern, in: line).isEmpty {
                    found.append("\(folder)/\(file):\(number + 1)")
                }
            }
        }
        return found
    }

    @Test func commandsReadOptionsThroughTheirSpecs() throws {
        let violations = try Self.violations(in: repositoryRoot.appendingPathComponent("Sources/BlocksKit"))
        #expect(violations == [], "read these through the option's spec:\n\(violations.joined(separator: "\n"))")
    }

    @Test func aReadByNameIsCaught() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write(
            "Commands/A.swift",
            "let a = arguments.value(limitOption)\nlet b = arguments.flag(\"write\")\n// arguments.value(\"x\")\nlet c = parsed.values[\"key\"]\n")
        #expect(try Self.violations(in: folder.url) == ["Commands/A.swift:2", "Commands/A.swift:4"])
    }
}
