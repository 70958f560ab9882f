/// Swift syntax highlighting done when the site is built, so a block page shows coloured
/// code with no script and no library: a small tokenizer that knows comments (nested
/// block comments too), string literals (multi-line, raw and interpolated), numbers,
/// attributes and `#` directives, keywords, and type names (identifiers that start with
/// a capital letter).
///
/// It only colours: every byte of the source comes out once, in order, escaped, so the
/// text of the highlighted HTML is the source exactly, which the copy button and
/// `SiteHighlighterTests` rely on. It reads UTF-8 bytes: every token starts and ends at
/// an ASCII byte, and any byte of a non-ASCII character counts as part of a name, so no
/// character is ever cut. Anything it does not recognise stays plain text. (Bytes, not
/// characters, because a 10,000-block site highlights 30,000 files.)
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
        let bytes = Array(source.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        bytes.withUnsafeBufferPointer { buffer in
            var plainStart = 0
            scan(bytes) { token, range in
                HTMLEscaping.escape(UnsafeBufferPointer(rebasing: buffer[plainStart..<range.lowerBound]), into: &out)
                out.append(contentsOf: #"<span class=""#.utf8)
                out.append(contentsOf: token.rawValue.utf8)
                out.append(contentsOf: #"">"#.utf8)
                HTMLEscaping.escape(UnsafeBufferPointer(rebasing: buffer[range]), into: &out)
                out.append(contentsOf: "</span>".utf8)
                plainStart = range.upperBound
            }
            HTMLEscaping.escape(UnsafeBufferPointer(rebasing: buffer[plainStart...]), into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The source cut into pieces, each with its token kind or nil for plain text. The
    /// pieces joined are the source.
    static func tokens(_ source: String) -> [(Token?, String)] {
        let bytes = Array(source.utf8)
        var pieces: [(Token?, String)] = []
        var plainStart = 0
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        scan(bytes) { token, range in
            if plainStart < range.lowerBound { pieces.append((nil, text(plainStart..<range.lowerBound))) }
            pieces.append((token, text(range)))
            plainStart = range.upperBound
        }
        if plainStart < bytes.count { pieces.append((nil, text(plainStart..<bytes.count))) }
        return pieces
    }

    /// Calls `found` with each token's kind and byte range, in order.
    private static func scan(_ bytes: [UInt8], _ found: (Token, Range<Int>) -> Void) {
        var scanner = Scanner(bytes: bytes)
        scanner.run(found)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        func at(_ offset: Int) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        func at(_ offset: Int, is character: Unicode.Scalar) -> Bool { at(offset) == UInt8(ascii: character) }

        static func isIdentifierStart(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

        mutating func run(_ found: (Token, Range<Int>) -> Void) {
            while position < bytes.count {
                let start = position
                let byte = bytes[position]
                let previous: UInt8? = position > 0 ? bytes[position - 1] : nil
                if byte == UInt8(ascii: "/"), at(1, is: "/") {
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
                    found(.comment, start..<position)
                } else if byte == UInt8(ascii: "/"), at(1, is: "*") {
                    skipBlockComment()
                    found(.comment, start..<position)
                } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && rawStringStart() != nil) {
                    skipString()
                    found(.string, start..<position)
                } else if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#"), let next = at(1), Self.isIdentifierStart(next) {
                    position += 1
                    skipIdentifier()
                    found(.attribute, start..<position)
                } else if Self.isDigit(byte), previous.map({ !Self.isIdentifierPart($0) }) ?? true {
                    skipNumber()
                    found(.number, start..<position)
                } else if Self.isIdentifierStart(byte) {
                    skipIdentifier()
                    // After a dot a word is a member (`.default`, `.self`), never a keyword.
                    if previous != UInt8(ascii: "."), position - start <= 16,
                        SwiftHighlighter.keywords.contains(String(decoding: bytes[start..<position], as: UTF8.self))
                    {
                        found(.keyword, start..<position)
                    } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                        found(.type, start..<position)
                    }
                } else if byte == UInt8(ascii: "`") {
                    // A backticked name such as `default` is a plain identifier.
                    position += 1
                    while position < bytes.count, bytes[position] != UInt8(ascii: "`"), bytes[position] != UInt8(ascii: "\n") { position += 1 }
                    if position < bytes.count, bytes[position] == UInt8(ascii: "`") { position += 1 }
                } else {
                    position += 1
                }
            }
        }

        mutating func skipIdentifier() {
            while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
        }

        /// Digits, `_`, a hex, octal or binary prefix, a fraction and an exponent.
        mutating func skipNumber() {
            let hex = bytes[position] == UInt8(ascii: "0") && (at(1, is: "x") || at(1, is: "X"))
            if hex || (bytes[position] == UInt8(ascii: "0") && (at(1, is: "o") || at(1, is: "b"))) { position += 2 }
            func isBody(_ byte: UInt8) -> Bool {
                Self.isDigit(byte) || byte == UInt8(ascii: "_") || (hex && byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
            }
            while position < bytes.count, isBody(bytes[position]) { position += 1 }
            if !hex, position + 1 < bytes.count, bytes[position] == UInt8(ascii: "."), Self.isDigit(bytes[position + 1]) {
                position += 1
                while position < bytes.count, Self.isDigit(bytes[position]) || bytes[position] == UInt8(ascii: "_") { position += 1 }
            }
            if !hex, position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                var next = position + 1
                if next < bytes.count, bytes[next] == UInt8(ascii: "+") || bytes[next] == UInt8(ascii: "-") { next += 1 }
                if next < bytes.count, Self.isDigit(bytes[next]) {
                    position = next
                    while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
                }
            }
        }

        /// A `/* … */` comment, nested ones included; to the end when it is not closed.
        mutating func skipBlockComment() {
            var depth = 0
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "/"), at(1, is: "*") {
                    depth += 1
                    position += 2
                } else if bytes[position] == UInt8(ascii: "*"), at(1, is: "/") {
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
            while at(count, is: "#") { count += 1 }
            return at(count, is: "\"") ? count : nil
        }

        func hashes(_ count: Int, from offset: Int) -> Bool {
            (0..<count).allSatisfy { at(offset + $0, is: "#") }
        }

        /// A string literal from its opening `#`s or quote through its closing quote and `#`s;
        /// interpolations (`\(…)`, `\#(…)` in raw strings) are part of it. An unclosed
        /// single-line string ends at the line's end.
        mutating func skipString() {
            let hashCount = rawStringStart() ?? 0
            position += hashCount
            let multiline = at(0, is: "\"") && at(1, is: "\"") && at(2, is: "\"")
            position += multiline ? 3 : 1
            while position < bytes.count {
                let byte = bytes[position]
                if !multiline && byte == UInt8(ascii: "\n") { return }
                if byte == UInt8(ascii: "\\"), hashes(hashCount, from: 1) {
                    position += 1 + hashCount
                    if at(0, is: "(") {
                        skipInterpolation()
                    } else if position < bytes.count {
                        position += 1
                    }
                    continue
                }
                let closes =
                    multiline
                    ? at(0, is: "\"") && at(1, is: "\"") && at(2, is: "\"") && hashes(hashCount, from: 3)
                    : byte == UInt8(ascii: "\"") && hashes(hashCount, from: 1)
                if closes {
                    position += (multiline ? 3 : 1) + hashCount
                    return
                }
                position += 1
            }
        }

        /// `( … )` of an interpolation, with any strings and parentheses inside it.
        mutating func skipInterpolation() {
            var depth = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                } else if byte == UInt8(ascii: "\"") {
                    skipString()
                    continue
                }
                position += 1
            }
        }
    }
}
