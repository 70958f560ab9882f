/// Swift syntax highlighting done when the site is built, so a block page shows coloured
/// code with no script and no library: a small tokenizer that knows comments (nested
/// block comments too), string literals (multi-line, raw and interpolated), numbers,
/// attributes and `#` directives, keywords, and type names (identifiers that start with
/// a capital letter).
///
/// It only colours: every character of the source comes out once, in order, escaped,
/// so the text of the highlighted HTML is the source exactly, which the copy button and
/// `SiteHighlighterTests` rely on. Anything it does not recognise stays plain text.
enum SwiftHighlighter {
    /// What a span of source is, with the CSS class the stylesheet colours it by.
    enum Token: String, CaseIterable, Sendable {
        case keyword = "hl-k"
        case string = "hl-s"
        case comment = "hl-c"
        case number = "hl-n"
        case attribute = "hl-a"
        case type = "hl-t"
    }

    static let keywords: Set<String> = [
        "actor", "any", "Any", "as", "associatedtype", "async", "await", "borrowing", "break", "case", "catch", "class",
        "consuming", "continue", "convenience", "default", "defer", "deinit", "didSet", "do", "dynamic", "else", "enum",
        "extension", "fallthrough", "false", "fileprivate", "final", "for", "func", "get", "guard", "if", "import", "in",
        "indirect", "init", "inout", "internal", "is", "isolated", "lazy", "let", "mutating", "nil", "nonisolated",
        "nonmutating", "open", "operator", "optional", "override", "precedencegroup", "private", "protocol", "public",
        "repeat", "required", "rethrows", "return", "self", "Self", "set", "some", "static", "struct", "subscript",
        "super", "switch", "throw", "throws", "true", "try", "typealias", "unowned", "var", "weak", "where", "while",
        "willSet",
    ]

    /// The source as HTML: escaped text with `<span class="hl-…">` around each token.
    static func html(_ source: String) -> String {
        var out = ""
        out.reserveCapacity(source.utf8.count * 2)
        for (token, text) in tokens(source) {
            if let token {
                out += "<span class=\"\(token.rawValue)\">\(HTMLEscaping.escape(text))</span>"
            } else {
                out += HTMLEscaping.escape(text)
            }
        }
        return out
    }

    /// The source cut into pieces, each with its token kind or nil for plain text. The
    /// pieces joined are the source.
    static func tokens(_ source: String) -> [(Token?, String)] {
        var scanner = Scanner(Array(source.unicodeScalars))
        return scanner.run()
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0
        var pieces: [(Token?, String)] = []
        var plainStart = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func at(_ offset: Int) -> Unicode.Scalar? {
            position + offset < scalars.count ? scalars[position + offset] : nil
        }

        func text(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }

        mutating func emit(_ token: Token?, from start: Int) {
            if plainStart < start { pieces.append((nil, text(plainStart..<start))) }
            pieces.append((token, text(start..<position)))
            plainStart = position
        }

        static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic
        }

        static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
            isIdentifierStart(scalar) || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark
        }

        static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

        mutating func run() -> [(Token?, String)] {
            while position < scalars.count {
                let start = position
                let scalar = scalars[position]
                let previous: Unicode.Scalar? = position > 0 ? scalars[position - 1] : nil
                if scalar == "/", at(1) == "/" {
                    while position < scalars.count, scalars[position] != "\n" { position += 1 }
                    emit(.comment, from: start)
                } else if scalar == "/", at(1) == "*" {
                    skipBlockComment()
                    emit(.comment, from: start)
                } else if scalar == "\"" || (scalar == "#" && rawStringStart() != nil) {
                    skipString()
                    emit(.string, from: start)
                } else if (scalar == "@" || scalar == "#"), let next = at(1), Self.isIdentifierStart(next) {
                    position += 1
                    skipIdentifier()
                    emit(.attribute, from: start)
                } else if Self.isDigit(scalar), previous.map({ !Self.isIdentifierPart($0) }) ?? true {
                    skipNumber()
                    emit(.number, from: start)
                } else if Self.isIdentifierStart(scalar) {
                    skipIdentifier()
                    let word = text(start..<position)
                    // After a dot a word is a member (`.default`, `.self`), never a keyword.
                    let isMember = previous == "."
                    if !isMember && Self.keywordSet.contains(word) {
                        emit(.keyword, from: start)
                    } else if let first = word.unicodeScalars.first, first.properties.isUppercase {
                        emit(.type, from: start)
                    }
                } else if scalar == "`" {
                    // A backticked name such as `default` is a plain identifier.
                    position += 1
                    while position < scalars.count, scalars[position] != "`", scalars[position] != "\n" { position += 1 }
                    if position < scalars.count, scalars[position] == "`" { position += 1 }
                } else {
                    position += 1
                }
            }
            if plainStart < scalars.count { pieces.append((nil, text(plainStart..<scalars.count))) }
            return pieces
        }

        static let keywordSet = SwiftHighlighter.keywords

        mutating func skipIdentifier() {
            while position < scalars.count, Self.isIdentifierPart(scalars[position]) { position += 1 }
        }

        /// Digits, `_`, a hex, octal or binary prefix, a fraction and an exponent.
        mutating func skipNumber() {
            let hex = scalars[position] == "0" && (at(1) == "x" || at(1) == "X")
            if hex || (scalars[position] == "0" && (at(1) == "o" || at(1) == "b")) { position += 2 }
            func isBody(_ scalar: Unicode.Scalar) -> Bool {
                Self.isDigit(scalar) || scalar == "_" || (hex && (("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)))
            }
            while position < scalars.count, isBody(scalars[position]) { position += 1 }
            if !hex, position + 1 < scalars.count, scalars[position] == ".", Self.isDigit(scalars[position + 1]) {
                position += 1
                while position < scalars.count, Self.isDigit(scalars[position]) || scalars[position] == "_" { position += 1 }
            }
            if !hex, position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
                var next = position + 1
                if next < scalars.count, scalars[next] == "+" || scalars[next] == "-" { next += 1 }
                if next < scalars.count, Self.isDigit(scalars[next]) {
                    position = next
                    while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
                }
            }
        }

        /// A `/* … */` comment, nested ones included; to the end when it is not closed.
        mutating func skipBlockComment() {
            var depth = 0
            while position < scalars.count {
                if scalars[position] == "/", at(1) == "*" {
                    depth += 1
                    position += 2
                } else if scalars[position] == "*", at(1) == "/" {
                    depth -= 1
                    position += 2
                    if depth == 0 { return }
                } else {
                    position += 1
                }
            }
        }

        /// How many `#` open a raw string here (`#"`, `##"""`), or nil when this is no raw string.
        func rawStringStart() -> Int? {
            var count = 0
            while let scalar = at(count), scalar == "#" { count += 1 }
            return at(count) == "\"" ? count : nil
        }

        /// A string literal from its opening `#`s or quote through its closing quote and `#`s;
        /// interpolations (`\(…)`, `\#(…)` in raw strings) are part of it. An unclosed
        /// single-line string ends at the line's end.
        mutating func skipString() {
            let hashes = rawStringStart() ?? 0
            position += hashes
            let multiline = at(0) == "\"" && at(1) == "\"" && at(2) == "\""
            position += multiline ? 3 : 1
            let hashText = Array(repeating: Unicode.Scalar("#"), count: hashes)
            func closesHere() -> Bool {
                if multiline {
                    guard at(0) == "\"", at(1) == "\"", at(2) == "\"" else { return false }
                    return (0..<hashes).allSatisfy { at(3 + $0) == "#" }
                }
                guard at(0) == "\"" else { return false }
                return (0..<hashes).allSatisfy { at(1 + $0) == "#" }
            }
            while position < scalars.count {
                let scalar = scalars[position]
                if !multiline && scalar == "\n" { return }
                if scalar == "\\", (0..<hashes).allSatisfy({ at(1 + $0) == "#" }) {
                    position += 1 + hashText.count
                    if at(0) == "(" {
                        skipInterpolation()
                    } else if position < scalars.count {
                        position += 1
                    }
                    continue
                }
                if closesHere() {
                    position += (multiline ? 3 : 1) + hashes
                    return
                }
                position += 1
            }
        }

        /// `( … )` of an interpolation, with any strings and parentheses inside it.
        mutating func skipInterpolation() {
            var depth = 0
            while position < scalars.count {
                let scalar = scalars[position]
                if scalar == "(" {
                    depth += 1
                } else if scalar == ")" {
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                } else if scalar == "\"" {
                    skipString()
                    continue
                }
                position += 1
            }
        }
    }
}
