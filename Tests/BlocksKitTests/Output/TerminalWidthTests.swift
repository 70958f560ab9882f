import Foundation
import Testing

@testable import BlocksKit

/// Issue 12, item 21: output fits an 80-column terminal. One wrapping function
/// (`TextWrap`) serves help and tables; the progress bar shortens itself.
@Suite struct TerminalWidthTests {
    static let prose = "The selected item's id: nil until items arrive, then the first unless a listed id was preset."

    @Test(arguments: [1, 5, 12, 20, 33, 80])
    func wrapsBetweenWordsWithinTheWidth(width: Int) {
        let lines = TextWrap.lines(Self.prose, width: width)
        let words = Self.prose.split(separator: " ").map(String.init)
        // Nothing lost, nothing cut: the lines hold the words in order.
        #expect(lines.flatMap { $0.split(separator: " ").map(String.init) } == words)
        for line in lines {
            #expect(line.count <= width || !line.contains(" "), "\(width): '\(line)'")
            #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "))
        }
        // Greedy: no line could have taken the next line's first word.
        for (line, next) in zip(lines, lines.dropFirst()) {
            #expect(line.count + 1 + (next.split(separator: " ").first?.count ?? 0) > width, "\(width): '\(line)' / '\(next)'")
        }
    }

    @Test func aLongWordGetsItsOwnLineOrIsCutOnlyWhenAsked() {
        #expect(TextWrap.lines("a tabIndicator(height:color:) b", width: 10) == ["a", "tabIndicator(height:color:)", "b"])
        #expect(TextWrap.lines("[AdaptiveTabGroup<Value>]", width: 10, cuttingLongWords: true) == ["[AdaptiveT", "abGroup<Va", "lue>]"])
        #expect(TextWrap.lines("", width: 10) == [""])
        #expect(TextWrap.hanging("one two three four", firstPrefix: "LABEL: ", indent: 2, width: 14) == "LABEL: one two\n  three four")
    }

    @Test func aTableWrapsItsLastColumnUnderItself() {
        let rows = [["Parameter", "Type", "Description"], ["selection", "Binding<Item.ID?>", Self.prose]]
        let lines = Table.render(rows, width: 60)
        #expect(lines.count > 2)
        let column = try! #require(lines[0].range(of: "Description")).lowerBound.utf16Offset(in: lines[0])
        for line in lines {
            #expect(line.count <= 60, "'\(line)'")
        }
        for line in lines.dropFirst(2) {
            #expect(line.prefix(column).allSatisfy { $0 == " " } && line.dropFirst(column).first != " ", "'\(line)'")
        }
        // Without a width, or when it fits, one line per row as before.
        #expect(Table.render(rows).count == 2)
        #expect(Table.render(rows, width: 200).count == 2)
    }

    @Test func aTableTooWideForItsProseWrapsEveryColumn() {
        let rows = [
            ["Parameter", "Type", "Default", "Description"],
            ["tabIndicator(height:color:cornerRadius:)", "CGFloat, Color, CGFloat, Double", "3, .accentColor, 1.5, 0.25", Self.prose],
            ["items", "[Item]", "—", "The items."],
        ]
        let lines = Table.render(rows, width: 78)
        for line in lines { #expect(line.count <= 78 || !line.contains(" "), "'\(line)'") }
        // The name too long for its column has its own line; its row continues below.
        #expect(lines[1] == "tabIndicator(height:color:cornerRadius:)")
        #expect(lines.contains { $0.hasPrefix("items ") })
    }

    /// The real binary at 80 columns: every line of `info pager` fits, except a single
    /// word too long to share a line (a modifier's full name), and the description column
    /// wraps under itself.
    @Test func infoPagerFitsEightyColumns() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["info", "pager"], environment: ["COLUMNS": "80"])
        #expect(result.code == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines {
            #expect(line.count <= 80 || !line.trimmingCharacters(in: .whitespaces).contains(" "), "\(line.count): \(line)")
        }
        let header = try #require(lines.first { $0.hasPrefix("  Parameter") })
        let column = header.distance(from: header.startIndex, to: try #require(header.range(of: "Description")).lowerBound)
        let items = try #require(lines.firstIndex { $0.hasPrefix("  items ") })
        #expect(lines[items + 1].prefix(column).allSatisfy { $0 == " " } && lines[items + 1].count > column, "\(lines[items + 1])")
        // Piped without COLUMNS, each parameter stays on one line, for scripts.
        let piped = try project.runBinary(["info", "pager"])
        #expect(piped.output.split(separator: "\n").contains { $0.hasPrefix("  items ") && $0.hasSuffix("Identifiable & Equatable.") })
    }

    /// Help wraps to 80 columns when piped, and to COLUMNS when set, between words.
    @Test func helpFitsTheWidth() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        for (environment, width) in [([String: String](), 80), (["COLUMNS": "60"], 60)] {
            for arguments in [["--help"]] + BlocksCLI.commands.map({ ["help", $0.spec.name] }) {
                let result = try project.runBinary(arguments, environment: environment)
                #expect(result.code == 0)
                for line in result.output.split(separator: "\n") {
                    #expect(line.count <= width, "\(arguments) at \(width): \(line)")
                }
            }
        }
        let add = try project.runBinary(["help", "add"])
        #expect(
            add.output.contains(
                "  -y, --yes               Ask nothing; take every choice that loses no work\n                          (changed files still need --overwrite)."
            ), "\(add.output)")
    }

    @Test(arguments: [12, 20, 30, 40, 59, 60, 80, 120])
    func theProgressBarFitsAnyWidth(columns: Int) {
        let progress = TransferProgress(filesDone: 123, filesTotal: 1000, bytesDone: 123_456_789)
        let line = ProgressBar.line(label: "mirror", progress: progress, totalBytes: nil, elapsed: 12, columns: columns)
        #expect(line.count < columns, "\(columns): \(line)")
        #expect(line.contains("123/1000") || columns < 20)
        if columns >= 80 { #expect(line.contains("ETA")) }
    }

    /// On a terminal 50 columns wide every redraw fits one row, so `\r` really redraws it.
    @Test func theProgressBarRedrawsWithinANarrowTerminal() {
        let sink = BufferSink(isTerminal: true, columns: 50)
        let bar = ProgressBar(sink: sink, label: "mirror")
        bar.update(TransferProgress(filesDone: 1000, filesTotal: 1000, bytesDone: 99_000_000))
        bar.finish()
        let draws = sink.text.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(!draws.isEmpty)
        for draw in draws { #expect(draw.count < 50 && !draw.contains("\n"), "\(draw)") }
    }
}
