import Foundation

/// Swift source reduced to its code: comments and the insides of string literals blanked,
/// line numbers kept. Enough lexing for a scan, not a parser. With `keepingInterpolations`,
/// the code inside a string's `\(…)` is kept (LayeringTests counts the types it names).
enum SourceCode {
    static func codeLines(_ text: String, keepingInterpolations: Bool = false) -> [String] {
        var lines: [String] = []
        var inBlockComment = 0
        var inMultilineString = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            var code = ""
            var position = 0
            func starts(_ text: String) -> Bool { characters[position...].starts(with: Array(text)) }
            /// At `\(` with `keepingInterpolations`: copies the interpolated code, up to its
            /// closing parenthesis, and steps past it.
            func copiedInterpolation() -> Bool {
                guard keepingInterpolations, starts("\\(") else { return false }
                var depth = 0
                position += 1
                code += " "
                while position < characters.count {
                    if characters[position] == "(" { depth += 1 } else if characters[position] == ")" { depth -= 1 }
                    if depth == 0 { position += 1; break }
                    if depth > 1 || characters[position] != "(" { code.append(characters[position]) }
                    position += 1
                }
                code += " "
                return true
            }
            while position < characters.count {
                if inBlockComment > 0 {
                    if starts("*/") { inBlockComment -= 1; position += 2 } else if starts("/*") { inBlockComment += 1; position += 2 } else { position += 1 }
                } else if inMultilineString {
                    if starts("\"\"\"") { inMultilineString = false; code += "\"\"\""; position += 3 } else if !copiedInterpolation() { position += 1 }
                } else if starts("//") {
                    break
                } else if starts("/*") {
                    inBlockComment += 1
                    position += 2
                } else if starts("\"\"\"") {
                    inMultilineString = true
                    code += "\"\"\""
                    position += 3
                } else if starts("#\"") {
                    code += "#\""
                    position += 2
                    while position < characters.count, !starts("\"#") { position += 1 }
                    code += "\"#"
                    position += 2
                } else if characters[position] == "\"" {
                    code += "\""
                    position += 1
                    while position < characters.count, characters[position] != "\"" {
                        if copiedInterpolation() { continue }
                        position += characters[position] == "\\" ? 2 : 1
                    }
                    code += "\""
                    position += 1
                } else {
                    code.append(characters[position])
                    position += 1
                }
            }
            lines.append(code)
        }
        return lines
    }

    /// The code lines (`codeLines`) of every Swift file under `folder`, by path relative to
    /// it, sorted by path.
    static func swiftFiles(under folder: URL, keepingInterpolations: Bool = false) throws -> [(path: String, lines: [String])] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return try files.sorted().filter { $0.hasSuffix(".swift") }.map { relative in
            let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
            return (relative, codeLines(text, keepingInterpolations: keepingInterpolations))
        }
    }
}
