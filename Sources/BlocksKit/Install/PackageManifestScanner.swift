/// Reads what `add` needs from a `Package.swift` as plain text, never running it:
/// the source targets (to choose `Sources/<Target>/Blocks`) and the `platforms:`
/// deployment targets (to warn when a block needs a newer OS).
public enum PackageManifestScanner {
    /// A `.target` or `.executableTarget` declaration.
    public struct Target: Sendable, Equatable {
        public var name: String
        /// The source folder relative to the package root: `path:` or `Sources/<name>`.
        public var path: String
    }

    /// The declared source targets, in file order. Test, plugin, macro and system
    /// library targets are left out, and `.target(name:)` dependencies are not counted.
    public static func targets(in text: String) -> [Target] {
        let code = ManifestCode(text)
        var found: [Target] = []
        var index = 0
        while index < code.tokens.count {
            guard let (kind, open) = declarationOpenParen(code, at: index) else {
                index += 1
                continue
            }
            // The whole declaration is skipped, so `.target(name:)` dependencies inside
            // it (of a test target, say) are never taken for targets.
            let close = code.matchingClose(from: open)
            let arguments = topLevelStrings(code, from: open + 1, to: close)
            if sourceKinds.contains(kind), let name = arguments["name"], !found.contains(where: { $0.name == name }) {
                found.append(Target(name: name, path: arguments["path"] ?? "Sources/\(name)"))
            }
            index = close + 1
        }
        return found
    }

    /// The minimum versions in `platforms:`, keyed by name as SwiftPM spells it
    /// (`iOS`, `macOS`, ...): `.iOS(.v17)` gives "17", `.macOS(.v10_15)` gives "10.15",
    /// `.iOS("17.4")` gives "17.4".
    public static func platforms(in text: String) -> [String: String] {
        let code = ManifestCode(text)
        let tokens = code.tokens
        guard
            let label = tokens.indices.first(where: { index in
                tokens[index].kind == .identifier && code.text(index) == "platforms" && code.isPunctuation(index + 1, ":")
            }),
            let open = tokens.indices[(label + 2)...].first(where: { code.isPunctuation($0, "[") })
        else { return [:] }
        let close = code.matchingClose(from: open)
        let end = close < tokens.count ? tokens[close].range.lowerBound : code.bytes.count
        return platformEntries(in: code.textWithoutComments(tokens[open].range.lowerBound..<end))
    }

    /// Every `.name(.v1_2)` or `.name("1.2")` in the text, as the regular expression
    /// `\.(\w+)\(\s*(?:\.v(\d+(?:_\d+)*)|"([0-9.]+)")\s*\)` would find them, left to
    /// right without overlaps. Matched by hand: compiling the expression sets up ICU's
    /// character sets, several milliseconds at start-up.
    static func platformEntries(in list: String) -> [String: String] {
        let scalars = Array(list.unicodeScalars)
        var result: [String: String] = [:]
        var index = 0
        while index < scalars.count {
            if let (name, version, end) = platformEntry(scalars, at: index) {
                result[name] = version
                index = end
            } else {
                index += 1
            }
        }
        return result
    }

    /// One entry starting exactly at `start`: its name, version and the index past it.
    static func platformEntry(_ scalars: [Unicode.Scalar], at start: Int) -> (String, String, Int)? {
        guard scalars[start] == "." else { return nil }
        var index = start + 1
        while index < scalars.count, isWordScalar(scalars[index]) { index += 1 }
        guard index > start + 1, index < scalars.count, scalars[index] == "(" else { return nil }
        let name = String(String.UnicodeScalarView(scalars[(start + 1)..<index]))
        index += 1
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        guard index < scalars.count else { return nil }
        var version: String
        if scalars[index] == ".", index + 1 < scalars.count, scalars[index + 1] == "v" {
            // \d+(?:_\d+)*: a group of digits, then "_" and more digits while they follow.
            index += 2
            let digitsStart = index
            while index < scalars.count, isDigitScalar(scalars[index]) { index += 1 }
            guard index > digitsStart else { return nil }
            while index + 1 < scalars.count, scalars[index] == "_", isDigitScalar(scalars[index + 1]) {
                index += 1
                while index < scalars.count, isDigitScalar(scalars[index]) { index += 1 }
            }
            version = String(String.UnicodeScalarView(scalars[digitsStart..<index].map { $0 == "_" ? "." : $0 }))
        } else if scalars[index] == "\"" {
            index += 1
            let textStart = index
            while index < scalars.count, scalars[index] == "." || ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > textStart, index < scalars.count, scalars[index] == "\"" else { return nil }
            version = String(String.UnicodeScalarView(scalars[textStart..<index]))
            index += 1
        } else {
            return nil
        }
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        guard index < scalars.count, scalars[index] == ")" else { return nil }
        return (name, version, index + 1)
    }

    /// ICU's `\w`: letters, marks, decimal digits, connector punctuation, ZWNJ and ZWJ.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
        if scalar.value == 0x200C || scalar.value == 0x200D || scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    /// ICU's `\d`: any decimal digit.
    static func isDigitScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("0"..."9").contains(scalar) : scalar.properties.generalCategory == .decimalNumber
    }

    // MARK: - The manifest's code, as `SwiftLexer` reads it.

    /// Every kind of target declaration, and the kinds that hold the app's own sources.
    static let declarations: Set<String> = ["target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "plugin", "macro"]
    static let sourceKinds: Set<String> = ["target", "executableTarget"]

    /// The tokens of a manifest's own code: comments, line ends and the code inside string
    /// interpolations left out, so brackets and strings are where Swift sees them.
    struct ManifestCode {
        let bytes: [UInt8]
        let tokens: [SwiftLexer.Token]
        let comments: [Range<Int>]

        init(_ text: String) {
            bytes = Array(text.utf8)
            let all = SwiftLexer.tokens(bytes).filter { $0.depth == 0 }
            tokens = all.filter { $0.kind != .lineComment && $0.kind != .blockComment && $0.kind != .newline }
            comments = all.filter { $0.kind == .lineComment || $0.kind == .blockComment }.map(\.range)
        }

        func text(_ index: Int) -> String { String(decoding: bytes[tokens[index].range], as: UTF8.self) }

        func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            index < tokens.count && tokens[index].kind == .punctuation && bytes[tokens[index].range.lowerBound] == UInt8(ascii: character)
        }

        /// The index of the token closing the bracket at `open`, or `tokens.count`.
        func matchingClose(from open: Int) -> Int {
            var depth = 0
            for index in open..<tokens.count where tokens[index].kind == .punctuation {
                switch bytes[tokens[index].range.lowerBound] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return index }
                default: break
                }
            }
            return tokens.count
        }

        /// A string literal's text between its delimiters, as written (`#"Core"#` gives `Core`).
        func stringContents(_ index: Int) -> String {
            let range = tokens[index].range
            var hashes = 0
            while range.lowerBound + hashes < range.upperBound, bytes[range.lowerBound + hashes] == UInt8(ascii: "#") { hashes += 1 }
            let quotes = bytes[range].dropFirst(hashes).prefix(3).elementsEqual("\"\"\"".utf8) ? 3 : 1
            let start = min(range.lowerBound + hashes + quotes, range.upperBound)
            let closing = Array(String(repeating: "\"", count: quotes).utf8) + Array(String(repeating: "#", count: hashes).utf8)
            let closed = range.upperBound - start >= closing.count && bytes[(range.upperBound - closing.count)..<range.upperBound].elementsEqual(closing)
            return String(decoding: bytes[start..<(closed ? range.upperBound - closing.count : range.upperBound)], as: UTF8.self)
        }

        /// The source in `range` with each block comment one space and each line comment gone.
        func textWithoutComments(_ range: Range<Int>) -> String {
            var output: [UInt8] = []
            var position = range.lowerBound
            for comment in comments where comment.lowerBound >= range.lowerBound && comment.lowerBound < range.upperBound {
                output += bytes[position..<comment.lowerBound]
                if bytes[comment.lowerBound + 1] == UInt8(ascii: "*") { output.append(UInt8(ascii: " ")) }
                position = min(comment.upperBound, range.upperBound)
            }
            output += bytes[position..<range.upperBound]
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// When a target declaration such as `.target(` starts at token `index`: its kind and
    /// the index of its `(`.
    static func declarationOpenParen(_ code: ManifestCode, at index: Int) -> (String, Int)? {
        guard code.isPunctuation(index, "."), index + 2 < code.tokens.count else { return nil }
        let dot = code.tokens[index].range
        guard dot.lowerBound == 0 || !SwiftLexer.isIdentifierPart(code.bytes[dot.lowerBound - 1]) else { return nil }
        let name = code.tokens[index + 1]
        guard name.kind == .identifier, name.range.lowerBound == dot.upperBound, code.isPunctuation(index + 2, "(") else { return nil }
        let word = code.text(index + 1)
        return declarations.contains(word) ? (word, index + 2) : nil
    }

    /// `label: "string"` arguments at the top level of a call's argument list, the tokens
    /// from `start` up to `end`.
    static func topLevelStrings(_ code: ManifestCode, from start: Int, to end: Int) -> [String: String] {
        var result: [String: String] = [:]
        var depth = 0
        var label: String?
        var index = start
        while index < end {
            let token = code.tokens[index]
            if token.kind == .identifier, depth == 0, index + 1 < end, code.isPunctuation(index + 1, ":") {
                label = code.text(index)
                index += 2
                continue
            }
            if token.kind == .string, depth == 0, let label, result[label] == nil {
                result[label] = code.stringContents(index)
            }
            label = nil
            if token.kind == .punctuation {
                switch code.bytes[token.range.lowerBound] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            index += 1
        }
        return result
    }
}
