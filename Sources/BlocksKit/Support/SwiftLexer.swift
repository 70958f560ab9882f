/// The one lexer for Swift source, which everything that reads Swift as text shares: the
/// names search finds a block by (`CodeNames`), the site's highlighting
/// (`SwiftHighlighter`) and what `add` reads from a `Package.swift`
/// (`PackageManifestScanner`). It knows what those need and no more: comments (block
/// comments nest), string literals (multi-line, raw with any number of `#`, escapes and
/// interpolations), numbers, attributes and `#` directives, names (backticked ones too),
/// line ends and single punctuation bytes. Spaces, tabs and carriage returns are no token.
///
/// It reads UTF-8 bytes: every token starts and ends at an ASCII byte, and any byte of a
/// non-ASCII character counts as part of a name, so no character is ever cut. Text that
/// is not Swift still lexes: an unclosed string or backtick ends at its line's end (a
/// multi-line string, a block comment and an interpolation at the end of the text).
enum SwiftLexer {
    enum Kind: Sendable, Equatable {
        /// A name or keyword: `View`, `let`, `ñandú`.
        case identifier
        /// A backticked name, the backticks included: `` `default` ``.
        case escapedIdentifier
        /// `@` or `#` and the name after it: `@State`, `#Preview`, `#if`.
        case attribute
        /// An integer or floating-point literal with its prefix, `_`s, fraction and exponent.
        case number
        /// A whole string literal, from its first `#` or quote through its last.
        case string
        /// `// …` up to, not including, the line's end.
        case lineComment
        /// `/* … */`, nested ones included.
        case blockComment
        /// A `\n` outside comments and strings.
        case newline
        /// Any other single ASCII byte that is not white space: `.`, `{`, `(`, `:`, `=`, ….
        case punctuation
    }

    struct Token: Sendable, Equatable {
        var kind: Kind
        /// Where the token is, in bytes of the source.
        var range: Range<Int>
        /// How many string interpolations the token is inside: 0 for the source's own code.
        /// A string literal's token follows the tokens of the code in its `\(…)`s, which
        /// are one deeper (their opening and closing parentheses too).
        var depth: Int
    }

    /// Every token of the source, in order (a string literal after its interpolations' tokens).
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var found: [Token] = []
        scan(bytes) { found.append($0) }
        return found
    }

    /// Calls `found` with each token, in the order `tokens` lists them.
    static func scan(_ bytes: [UInt8], _ found: (Token) -> Void) {
        var lexer = Lexer(bytes: bytes)
        lexer.code(depth: 0, found)
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private struct Lexer {
        let bytes: [UInt8]
        var position = 0

        func at(_ offset: Int) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        func at(_ offset: Int, is character: Unicode.Scalar) -> Bool { at(offset) == UInt8(ascii: character) }

        /// Code up to the end of the source or, at `depth` > 0 (an interpolation's code
        /// after its `(`), up to and including the `)` that closes it.
        mutating func code(depth: Int, _ found: (Token) -> Void) {
            var parentheses = 0
            while position < bytes.count {
                let start = position
                let byte = bytes[position]
                func emit(_ kind: Kind) { found(Token(kind: kind, range: start..<position, depth: depth)) }
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    position += 1
                case UInt8(ascii: "\n"):
                    position += 1
                    emit(.newline)
                case UInt8(ascii: "/") where at(1, is: "/"):
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
                    emit(.lineComment)
                case UInt8(ascii: "/") where at(1, is: "*"):
                    blockComment()
                    emit(.blockComment)
                case UInt8(ascii: "\""):
                    string(hashes: 0, depth: depth, found)
                    emit(.string)
                case UInt8(ascii: "#") where rawStringHashes() != nil:
                    string(hashes: rawStringHashes() ?? 0, depth: depth, found)
                    emit(.string)
                case UInt8(ascii: "@"), UInt8(ascii: "#"):
                    position += 1
                    if let next = at(0), SwiftLexer.isIdentifierStart(next) {
                        identifier()
                        emit(.attribute)
                    } else {
                        emit(.punctuation)
                    }
                case UInt8(ascii: "`"):
                    position += 1
                    while position < bytes.count, bytes[position] != UInt8(ascii: "`"), bytes[position] != UInt8(ascii: "\n") { position += 1 }
                    if at(0, is: "`") { position += 1 }
                    emit(.escapedIdentifier)
                case UInt8(ascii: "("):
                    parentheses += 1
                    position += 1
                    emit(.punctuation)
                case UInt8(ascii: ")"):
                    position += 1
                    emit(.punctuation)
                    if depth > 0 && parentheses == 0 { return }
                    parentheses -= 1
                default:
                    if SwiftLexer.isDigit(byte) {
                        number()
                        emit(.number)
                    } else if SwiftLexer.isIdentifierStart(byte) {
                        identifier()
                        emit(.identifier)
                    } else {
                        position += 1
                        emit(.punctuation)
                    }
                }
            }
        }

        mutating func identifier() {
            while position < bytes.count, SwiftLexer.isIdentifierPart(bytes[position]) { position += 1 }
        }

        /// Digits with any letters and `_`s of the literal (`0x1F`, `1_000`, `0b1`), a
        /// fraction (`.5`) and a signed exponent (`e-3`, `p+2` after a hex number).
        mutating func number() {
            let hex = at(0, is: "0") && (at(1, is: "x") || at(1, is: "X"))
            func exponentSign() {
                guard position > 0, position + 1 < bytes.count else { return }
                let last = bytes[position - 1] | 0x20
                guard last == (hex ? UInt8(ascii: "p") : UInt8(ascii: "e")) else { return }
                guard bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"), SwiftLexer.isDigit(bytes[position + 1]) else { return }
                position += 1
                identifier()
            }
            identifier()
            exponentSign()
            if at(0, is: "."), let next = at(1), SwiftLexer.isDigit(next) {
                position += 1
                identifier()
                exponentSign()
            }
        }

        /// A `/* … */` comment, nested ones included; to the end when it is not closed.
        mutating func blockComment() {
            var depth = 0
            while position < bytes.count {
                if at(0, is: "/"), at(1, is: "*") {
                    depth += 1
                    position += 2
                } else if at(0, is: "*"), at(1, is: "/") {
                    depth -= 1
                    position += 2
                    if depth == 0 { return }
                } else {
                    position += 1
                }
            }
        }

        /// How many `#` open a raw string here (`#"`, `##"""`), or nil when this is no raw string.
        func rawStringHashes() -> Int? {
            var count = 0
            while at(count, is: "#") { count += 1 }
            return count > 0 && at(count, is: "\"") ? count : nil
        }

        func hashes(_ count: Int, from offset: Int) -> Bool {
            (0..<count).allSatisfy { at(offset + $0, is: "#") }
        }

        /// A string literal from its opening `#`s or quote through its closing quote and
        /// `#`s. Escapes (`\n`, `\#n` in a raw string) are skipped; an interpolation's code
        /// (`\(…)`, `\#(…)`) is lexed one level deeper. An unclosed single-line string
        /// ends before its line's end.
        mutating func string(hashes hashCount: Int, depth: Int, _ found: (Token) -> Void) {
            position += hashCount
            let multiline = at(0, is: "\"") && at(1, is: "\"") && at(2, is: "\"")
            let quotes = multiline ? 3 : 1
            position += quotes
            while position < bytes.count {
                let byte = bytes[position]
                if !multiline && byte == UInt8(ascii: "\n") { return }
                if byte == UInt8(ascii: "\\"), hashes(hashCount, from: 1) {
                    position += 1 + hashCount
                    if at(0, is: "(") {
                        let open = position
                        position += 1
                        found(Token(kind: .punctuation, range: open..<position, depth: depth + 1))
                        code(depth: depth + 1, found)
                    } else if position < bytes.count {
                        position += 1
                    }
                    continue
                }
                if byte == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ at($0, is: "\"") }), hashes(hashCount, from: quotes) {
                    position += quotes + hashCount
                    return
                }
                position += 1
            }
        }
    }
}
