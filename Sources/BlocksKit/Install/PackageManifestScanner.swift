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
        let code = Array(withoutComments(text))
        var found: [Target] = []
        var index = 0
        while index < code.count {
            if code[index] == "\"" {
                index = endOfString(code, from: index)
                continue
            }
            guard let (kind, open) = declarationOpenParen(code, at: index) else {
                index += 1
                continue
            }
            // The whole declaration is skipped, so `.target(name:)` dependencies inside
            // it (of a test target, say) are never taken for targets.
            let close = matchingClose(code, from: open)
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
        let code = withoutComments(text)
        guard let label = code.firstRange(of: "platforms:") else { return [:] }
        let characters = Array(code[label.upperBound...])
        guard let open = characters.firstIndex(of: "[") else { return [:] }
        let close = matchingClose(characters, from: open)
        return platformEntries(in: String(characters[open..<close]))
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

    // MARK: - A small scanner that knows strings, comments and brackets.

    /// Every kind of target declaration, and the kinds that hold the app's own sources.
    static let declarations = ["target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "plugin", "macro"]
    static let sourceKinds: Set<String> = ["target", "executableTarget"]

    /// When a target declaration such as `.target(` starts at `index`: its kind and the index of its `(`.
    static func declarationOpenParen(_ code: [Character], at index: Int) -> (String, Int)? {
        guard code[index] == ".", index == 0 || !(code[index - 1].isLetter || code[index - 1].isNumber) else { return nil }
        for word in declarations {
            let letters = Array(word)
            let end = index + 1 + letters.count
            guard end < code.count, Array(code[(index + 1)..<end]) == letters else { continue }
            var open = end
            while open < code.count, code[open].isWhitespace { open += 1 }
            if open < code.count, code[open] == "(" { return (word, open) }
        }
        return nil
    }

    /// The text with `//` and `/* */` comments blanked out, strings kept.
    static func withoutComments(_ text: String) -> String {
        let characters = Array(text)
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "\"" {
                let end = endOfString(characters, from: index)
                output.append(contentsOf: characters[index..<end])
                index = end
            } else if character == "/", next == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", next == "*" {
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 2
                output.append(" ")
            } else {
                output.append(character)
                index += 1
            }
        }
        return String(output)
    }

    /// The index just past the string literal that starts at `start`.
    static func endOfString(_ code: [Character], from start: Int) -> Int {
        var index = start + 1
        while index < code.count {
            if code[index] == "\\" {
                index += 2
                continue
            }
            if code[index] == "\"" || code[index] == "\n" { return index + 1 }
            index += 1
        }
        return code.count
    }

    /// The index of the bracket closing the one at `open`, or the end of the text.
    static func matchingClose(_ code: [Character], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < code.count {
            switch code[index] {
            case "\"":
                index = endOfString(code, from: index)
                continue
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return code.count
    }

    /// `label: "string"` arguments at the top level of a call's argument list.
    static func topLevelStrings(_ code: [Character], from start: Int, to end: Int) -> [String: String] {
        var result: [String: String] = [:]
        var depth = 0
        var index = start
        var word = ""
        var label: String?
        while index < end {
            let character = code[index]
            if character == "\"" {
                let stop = endOfString(code, from: index)
                if depth == 0, let label, result[label] == nil {
                    result[label] = String(code[(index + 1)..<max(index + 1, stop - 1)])
                }
                label = nil
                index = stop
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                if index > start, code[index - 1].isWhitespace { word = "" }
                word.append(character)
            } else if character.isWhitespace {
                // A label may be followed by spaces before its colon.
            } else {
                if character == ":" && depth == 0 { label = word } else if !character.isWhitespace { label = nil }
                if "([{".contains(character) { depth += 1 }
                if ")]}".contains(character) { depth -= 1 }
                word = ""
            }
            index += 1
        }
        return result
    }
}
