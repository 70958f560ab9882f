/// Swift syntax highlighting done when the site is built, so a block page shows coloured
/// code with no script and no library: the tokens of `SwiftLexer` (comments, nested block
/// comments too, string literals, multi-line, raw and interpolated, numbers, attributes and
/// `#` directives), and of its names the keywords and the type names (identifiers that
/// start with a capital letter).
///
/// It only colours: every byte of the source comes out once, in order, escaped, so the
/// text of the highlighted HTML is the source exactly, which the copy button and
/// `SiteHighlighterTests` rely on. The lexer reads UTF-8 bytes and cuts no character.
/// Anything else stays plain text: punctuation, other names, backticked names. (Bytes, not
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

    /// Calls `found` with each token's kind and byte range, in order. A string literal is
    /// one token, its interpolations included.
    private static func scan(_ bytes: [UInt8], _ found: (Token, Range<Int>) -> Void) {
        SwiftLexer.scan(bytes) { token in
            guard token.depth == 0 else { return }
            let range = token.range
            switch token.kind {
            case .lineComment, .blockComment: found(.comment, range)
            case .string: found(.string, range)
            case .attribute: found(.attribute, range)
            case .number: found(.number, range)
            case .identifier:
                let first = bytes[range.lowerBound]
                // After a dot a word is a member (`.default`, `.self`), never a keyword.
                if range.lowerBound == 0 || bytes[range.lowerBound - 1] != UInt8(ascii: "."), range.count <= 16,
                    keywords.contains(String(decoding: bytes[range], as: UTF8.self))
                {
                    found(.keyword, range)
                } else if first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") {
                    found(.type, range)
                }
            case .escapedIdentifier, .newline, .punctuation:
                break
            }
        }
    }
}
