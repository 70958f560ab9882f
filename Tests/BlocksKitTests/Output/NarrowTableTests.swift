import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, item 3: on a narrow terminal `list` and `search` never cut a block's name
/// (it is what the user types next) or a word; below the width where the table fits,
/// each block is a group of lines, its name first.
@Suite struct NarrowTableTests {
    static let names = [
        "adaptive-tabs", "floating-tab-bar", "pager", "picker-pages", "scrolling-strip", "search-tab-view", "segmented-pill",
        "sticky-header-tabs", "top-tabs",
    ]

    /// `blocks ARGS` in-process with standard output a terminal `columns` wide.
    static func runOnTerminal(_ arguments: [String], columns: Int, in project: TestProject) -> CommandResult {
        let output = BufferSink(isTerminal: true, columns: columns)
        let errors = BufferSink()
        var context = CommandContext(
            standardOutput: output, standardError: errors, environment: [:], workingDirectory: project.root,
            transport: CurlTransport.forTests)
        let code = BlocksCLI.run(arguments, context: &context)
        return CommandResult(code: code, output: plain(output.text), errors: errors.text)
    }

    /// The text without its color escapes (`ESC[...m`), as a terminal shows it.
    static func plain(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true; continue }
            if inEscape { if character == "m" { inEscape = false }; continue }
            result.append(character)
        }
        return result
    }

    static func check(_ output: String, width: Int, label: String) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines { #expect(line.count <= width, "\(label): \(line.count): '\(line)'") }
        for name in names {
            // Whole: a word of its own on some line, never split over two.
            #expect(lines.contains { $0.split(separator: " ").contains(Substring(name)) }, "\(label): \(name) not whole in\n\(output)")
        }
        // No word of the output is cut: each line's words are words of the table's cells.
        #expect(!output.contains("intermedi\n") && !lines.contains { $0.hasSuffix("intermed") }, "\(label):\n\(output)")
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("ate") }, "\(label):\n\(output)")
    }

    @Test(arguments: [50, 100])
    func listAndSearchFitTheColumns(width: Int) throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        for arguments in [["list"], ["search", "tabs"]] {
            let byVariable = project.run(arguments, environment: ["COLUMNS": "\(width)"])
            #expect(byVariable.code == 0, "\(byVariable.errors)")
            Self.check(byVariable.output, width: width, label: "\(arguments) COLUMNS=\(width)")
            let onTerminal = Self.runOnTerminal(arguments, columns: width, in: project)
            #expect(onTerminal.code == 0, "\(onTerminal.errors)")
            Self.check(onTerminal.output, width: width, label: "\(arguments) terminal \(width)")
            #expect(onTerminal.output == byVariable.output)
        }
    }

    /// At 100 columns the table fits: one line per block. At 50 it does not: each block's
    /// name starts a line of its own and its details follow, indented.
    @Test func aNarrowTerminalGetsOneGroupPerBlock() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let wide = project.run(["list"], environment: ["COLUMNS": "100"]).output.split(separator: "\n")
        #expect(wide.count == Self.names.count)
        let narrow = project.run(["list"], environment: ["COLUMNS": "50"]).output.split(separator: "\n").map(String.init)
        for name in Self.names {
            let index = try #require(narrow.firstIndex(of: name), "\(name) alone on a line in\n\(narrow.joined(separator: "\n"))")
            #expect(narrow.indices.contains(index + 1) && narrow[index + 1].hasPrefix("  "))
        }
        let group = try #require(narrow.firstIndex(of: "adaptive-tabs"))
        #expect(narrow[group + 1].contains("1.0.1") && narrow[group + 1].contains("intermediate"))
        #expect(narrow[(group + 1)...].prefix(2).contains { $0.contains("Adaptive Tab View") })
        // Piped without COLUMNS: the table as before, one line per block, for scripts.
        #expect(project.run(["list"]).output.split(separator: "\n").count == Self.names.count)
    }

    @Test func theStackedLayoutWrapsProseBetweenWords() {
        let rows = [["a-rather-long-block-name", "1.0.0", "iOS 18.0+", "intermediate", "A title that is far too long for one short line"]]
        let lines = Table.render(rows, width: 30, stackingWhenNarrow: true)
        #expect(lines.first == "a-rather-long-block-name")
        for line in lines.dropFirst() {
            #expect(line.count <= 30 && line.hasPrefix("  ") && !line.hasPrefix("   "), "'\(line)'")
        }
        let words = lines.dropFirst().flatMap { $0.split(separator: " ").map(String.init) }
        #expect(words == ["1.0.0", "iOS", "18.0+", "intermediate", "A", "title", "that", "is", "far", "too", "long", "for", "one", "short", "line"])
        // Without the option, a table keeps its columns (info's API table).
        #expect(Table.render(rows, width: 30).first != "  1.0.0  iOS 18.0+")
    }
}
