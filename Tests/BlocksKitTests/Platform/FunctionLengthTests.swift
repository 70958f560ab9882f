import Foundation
import Testing

/// Issue 33: no function, initializer, computed property or accessor in `Sources/` runs past
/// 60 lines, from its declaration line to its closing brace. A longer one does several
/// things at once; split it into named steps. The scan reads code only (`SourceCode.codeLines`
/// blanks comments and string literals), so a brace in a string or a comment counts for nothing.
@Suite struct FunctionLengthTests {
    static let limit = 60

    /// A body allowed past the limit, with why.
    struct Exception: Sendable {
        var file: String
        var declaration: String
        var reason: String
    }

    /// Bodies allowed past the limit: none. An entry must say why, and
    /// `everyExceptionIsStillNeeded` fails once its body fits, so it cannot outlive the reason.
    static let exceptions: [Exception] = []

    /// One body: where it starts, how many lines it spans, and what it declares
    /// (`func name`, `init`, `var name`, `get`).
    struct Body: Equatable {
        var line: Int
        var length: Int
        var declaration: String
    }

    /// A declaration that may have a body, and where its name ends.
    static let declarationPattern =
        #"(?:^|\s)(func\s+[^\s(<]+|init[?!]?(?=\s*[(<])|deinit\b|subscript(?=\s*[(<])|var\s+\w+|(?:get|set|didSet|willSet)(?=\s*(?:\(\w+\))?\s*(?:async\s*)?(?:throws\s*)?\{))"#

    /// Every body in code lines: a declaration's first `{` outside parentheses (a stored
    /// property's `= {` is no body) to its matching `}`.
    static func bodies(in lines: [String]) -> [Body] {
        guard let declaration = try? NSRegularExpression(pattern: declarationPattern) else { return [] }
        var found: [Body] = []
        for (number, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            for match in declaration.matches(in: line, range: range) {
                guard let keyword = Range(match.range(at: 1), in: line) else { continue }
                let name = String(line[keyword])
                let isProperty = name.hasPrefix("var")
                guard let open = openingBrace(in: lines, from: (number, line.distance(from: line.startIndex, to: keyword.upperBound)), stopsAtAssignment: isProperty),
                    let close = closingLine(in: lines, from: open)
                else { continue }
                found.append(Body(line: number + 1, length: close - number + 1, declaration: name.split(whereSeparator: \.isWhitespace).joined(separator: " ")))
            }
        }
        return found
    }

    /// Where the body's `{` is, reading on from the declaration's name; nil for a
    /// requirement without a body or, with `stopsAtAssignment`, a stored property.
    static func openingBrace(in lines: [String], from start: (line: Int, column: Int), stopsAtAssignment: Bool) -> (line: Int, column: Int)? {
        var depth = 0
        var row = start.line
        var column = start.column
        while row < lines.count {
            let characters = Array(lines[row])
            while column < characters.count {
                let character = characters[column]
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" { depth -= 1 }
                if depth == 0 {
                    if character == "{" { return (row, column) }
                    if character == "}" { return nil }
                    let before = column > 0 ? characters[column - 1] : " "
                    let after = column + 1 < characters.count ? characters[column + 1] : " "
                    if character == "=", stopsAtAssignment, !"=!<>".contains(before), after != "=" { return nil }
                }
                column += 1
            }
            // A declaration goes on to the next line only inside parentheses or with an
            // arrow, effects, a where clause or the brace itself.
            let next = row + 1 < lines.count ? lines[row + 1].trimmingCharacters(in: .whitespaces) : ""
            let continues = ["->", "throws", "rethrows", "async", "where", "{", ")"].contains { next.hasPrefix($0) }
            guard depth > 0 || continues else { return nil }
            row += 1
            column = 0
        }
        return nil
    }

    /// The line (from 0) of the `}` that closes the brace at `open`.
    static func closingLine(in lines: [String], from open: (line: Int, column: Int)) -> Int? {
        var depth = 0
        var column = open.column
        for row in open.line..<lines.count {
            let characters = Array(lines[row])
            while column < characters.count {
                if characters[column] == "{" { depth += 1 }
                if characters[column] == "}" {
                    depth -= 1
                    if depth == 0 { return row }
                }
                column += 1
            }
            column = 0
        }
        return nil
    }

    /// Every body under `root`'s `Sources/` past the limit, as `path:line: what is N lines`.
    static func violations(in root: URL, exceptions: [Exception] = exceptions) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        var found: [String] = []
        for relative in files.sorted() where relative.hasSuffix(".swift") {
            let path = "Sources/" + relative
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for body in bodies(in: SourceCode.codeLines(text)) where body.length > limit {
                if exceptions.contains(where: { $0.file == path && $0.declaration == body.declaration }) { continue }
                found.append("\(path):\(body.line): \(body.declaration) is \(body.length) lines (at most \(limit))")
            }
        }
        return found
    }

    @Test func noBodyInSourcesIsLongerThanTheLimit() throws {
        let violations = try Self.violations(in: repositoryRoot)
        #expect(violations == [], "split these into named steps:\n\(violations.joined(separator: "\n"))")
    }

    @Test func everyExceptionIsStillNeeded() throws {
        let withoutExceptions = try Self.violations(in: repositoryRoot, exceptions: [])
        for exception in Self.exceptions {
            #expect(!exception.reason.isEmpty)
            #expect(
                withoutExceptions.contains { $0.hasPrefix(exception.file + ":") && $0.contains(": \(exception.declaration) is ") },
                "\(exception.file)'s \(exception.declaration) fits now: take its exception out")
        }
    }

    /// A planted 61-line function is caught with its file, line and length; a 60-line one,
    /// braces in strings and comments, a stored property's closure and a protocol
    /// requirement are not.
    @Test func theScanCatchesABodyOneLineTooLong() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let filler = { (count: Int) in String(repeating: "    _ = 1\n", count: count) }
        let long = "struct A {\n    func tooLong() {\n" + filler(59) + "    }\n}\n"
        let fits = "struct B {\n    var fits: Int {\n" + filler(57) + "        return 1 // }\n    }\n}\n"
        let noise = "protocol P {\n    func required()\n    var value: Int { get }\n}\nlet text = \"func x() {\"\nvar stored: () -> Void = {\n" + filler(70) + "}\n"
        try folder.write("Sources/Kit/A.swift", long)
        try folder.write("Sources/Kit/B.swift", fits)
        try folder.write("Sources/Kit/C.swift", noise)
        #expect(try Self.violations(in: folder.url, exceptions: []) == ["Sources/Kit/A.swift:2: func tooLong is 61 lines (at most 60)"])
    }

    @Test func multilineDeclarationsAndAccessorsAreMeasured() {
        let lines = SourceCode.codeLines(
            """
            init(
                a: Int = { 1 }()
            ) throws {
                _ = a
            }
            var observed = 0 {
                didSet { print(1) }
            }
            public var name: String {
                get { "a" }
                set(newValue) { print(newValue) }
            }
            """)
        #expect(
            Self.bodies(in: lines) == [
                Body(line: 1, length: 5, declaration: "init"), Body(line: 7, length: 1, declaration: "didSet"),
                Body(line: 9, length: 4, declaration: "var name"), Body(line: 10, length: 1, declaration: "get"),
                Body(line: 11, length: 1, declaration: "set"),
            ])
    }
}
