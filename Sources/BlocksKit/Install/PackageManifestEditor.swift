/// Takes out of a `Package.swift`, as plain text, the package dependencies `add` put in
/// with SwiftPM's `add-dependency` and `add-target-dependency`: the `.package(url:)`
/// element, the target's `.product(name:package:)` elements, and a `dependencies:` list
/// blocks made that is empty once they are gone. SwiftPM has no command that removes them.
///
/// It deletes only whole elements with their comma and the blanks around them, so the
/// brackets stay balanced; anything it cannot find exactly once is refused, never guessed.
/// Undoing SwiftPM's own edits gives back the bytes from before `add`.
public enum PackageManifestEditor {
    /// Whether the manifest's `Package(...)` call has a `dependencies:` argument, or with
    /// `target`, whether that target's declaration has one.
    public static func hasDependencyList(_ text: String, target: String? = nil) -> Bool {
        let code = masked(text)
        guard let call = target.map({ targetCall(code, named: $0) }) ?? packageCall(code) else { return false }
        return arguments(code, call).contains { $0.label == "dependencies" }
    }

    /// The manifest without the package (when `removePackage`) and the products, or why not.
    public static func removing(
        _ record: Lockfile.Package, removePackage: Bool, from text: String
    ) -> Result<String, Refusal> {
        var characters = Array(text)
        for product in record.products {
            let code = masked(characters)
            guard let call = targetCall(code, named: product.target) else { return .failure(Refusal("it has no target \(product.target)")) }
            let removed = removeElement(
                &characters, code: code, call: call, createdList: product.createdList,
                matching: { element in
                    let fields = ManifestCharacters.topLevelStrings(code, from: element.open + 1, to: element.close)
                    return element.name == "product" && fields["name"] == product.name && fields["package"] == record.identity
                })
            if let refusal = removed.refusal { return .failure(Refusal("the target \(product.target) \(refusal) .product(name: \"\(product.name)\", package: \"\(record.identity)\")")) }
        }
        if removePackage {
            let code = masked(characters)
            guard let call = packageCall(code) else { return .failure(Refusal("it has no Package(...) call")) }
            let removed = removeElement(
                &characters, code: code, call: call, createdList: record.createdList,
                matching: { element in
                    let fields = ManifestCharacters.topLevelStrings(code, from: element.open + 1, to: element.close)
                    return element.name == "package" && fields["url"].map(record.matches) == true
                })
            if let refusal = removed.refusal { return .failure(Refusal("its package dependencies \(refusal) .package(url: \"\(record.url)\")")) }
        }
        let edited = String(characters)
        // What `add` reads from the manifest stays as it was.
        guard PackageManifestScanner.targets(in: edited) == PackageManifestScanner.targets(in: text),
            PackageManifestScanner.platforms(in: edited) == PackageManifestScanner.platforms(in: text)
        else { return .failure(Refusal("the edit would change its targets or platforms")) }
        return .success(edited)
    }

    public struct Refusal: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: - Elements and arguments.

    /// A call's argument: its label (if any) and where its text starts and ends.
    struct Argument {
        var label: String?
        var start: Int
        var end: Int
    }

    /// An element `.name(...)` of a list, and where it starts and ends.
    struct Element {
        var name: String
        var start: Int
        var open: Int
        var close: Int
        var end: Int { close + 1 }
    }

    /// Removes the one element of the call's `dependencies:` list that matches, then the
    /// list if blocks made it and it is empty. A missing element is already gone.
    static func removeElement(
        _ characters: inout [Character], code: [Character], call: (open: Int, close: Int), createdList: Bool,
        matching: (Element) -> Bool
    ) -> (removed: Bool, refusal: String?) {
        guard let list = arguments(code, call).first(where: { $0.label == "dependencies" }),
            let open = (list.start..<list.end).first(where: { code[$0] == "[" }), code[list.end - 1] == "]"
        else { return (false, nil) }
        let elements = items(code, from: open + 1, to: list.end - 1)
        let found = elements.enumerated().filter { matching($0.element) }
        guard found.count <= 1 else { return (false, "lists more than one") }
        guard let (index, element) = found.first else { return (false, nil) }
        var range = element.start..<element.end
        let after = skipBlanks(code, from: element.end)
        if after < code.count, code[after] == "," {
            range = element.start..<(after + 1)
        } else if index > 0 {
            range = elements[index - 1].end..<element.end
        }
        range = wholeLines(code, range)
        characters.removeSubrange(range)
        guard createdList else { return (true, nil) }
        // The list, now without the element: remove it with its comma when nothing is left.
        let code = masked(characters)
        let shifted = (open: call.open, close: call.close - range.count)
        let arguments = arguments(code, shifted)
        guard let position = arguments.firstIndex(where: { $0.label == "dependencies" }) else { return (true, nil) }
        let argument = arguments[position]
        guard let bracket = (argument.start..<argument.end).first(where: { code[$0] == "[" }),
            code[(bracket + 1)..<(argument.end - 1)].allSatisfy(\.isWhitespace)
        else { return (true, nil) }
        var listRange = argument.start..<argument.end
        let next = skipBlanks(code, from: argument.end)
        if next < code.count, code[next] == "," {
            listRange = argument.start..<(next + 1)
        } else if position > 0 {
            listRange = arguments[position - 1].end..<argument.end
        }
        characters.removeSubrange(wholeLines(code, listRange))
        return (true, nil)
    }

    /// Widens a range to its whole lines when only blanks share them.
    static func wholeLines(_ code: [Character], _ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start > 0, code[start - 1] == " " || code[start - 1] == "\t" { start -= 1 }
        var end = range.upperBound
        while end < code.count, code[end] == " " || code[end] == "\t" { end += 1 }
        guard start == 0 || code[start - 1] == "\n", end == code.count || code[end] == "\n" else { return range }
        return start..<min(end + 1, code.count)
    }

    static func skipBlanks(_ code: [Character], from index: Int) -> Int {
        var index = index
        while index < code.count, code[index] == " " || code[index] == "\t" { index += 1 }
        return index
    }

    /// The top-level arguments between a call's parentheses.
    static func arguments(_ code: [Character], _ call: (open: Int, close: Int)) -> [Argument] {
        pieces(code, from: call.open + 1, to: call.close).map { start, end in
            var index = start
            while index < end, code[index].isLetter || code[index].isNumber || code[index] == "_" { index += 1 }
            let colon = skipBlanks(code, from: index)
            let label = index > start && colon < end && code[colon] == ":" ? String(code[start..<index]) : nil
            return Argument(label: label, start: start, end: end)
        }
    }

    /// The `.name(...)` elements of a list; other elements are left out.
    static func items(_ code: [Character], from start: Int, to end: Int) -> [Element] {
        pieces(code, from: start, to: end).compactMap { start, end in
            guard code[start] == "." else { return nil }
            var index = start + 1
            while index < end, code[index].isLetter || code[index].isNumber || code[index] == "_" { index += 1 }
            guard index < end, code[index] == "(" else { return nil }
            let close = ManifestCharacters.matchingClose(code, from: index)
            guard close == end - 1 else { return nil }
            return Element(name: String(code[(start + 1)..<index]), start: start, open: index, close: close)
        }
    }

    /// The comma-separated pieces at the top level between `start` and `end`, each
    /// trimmed of white space; empty pieces are left out.
    static func pieces(_ code: [Character], from start: Int, to end: Int) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        var pieceStart = start
        var index = start
        func close(at stop: Int) {
            var first = pieceStart
            var last = stop
            while first < last, code[first].isWhitespace { first += 1 }
            while last > first, code[last - 1].isWhitespace { last -= 1 }
            if first < last { result.append((first, last)) }
        }
        while index < end {
            switch code[index] {
            case "\"":
                index = ManifestCharacters.endOfString(code, from: index)
                continue
            case "(", "[", "{":
                index = ManifestCharacters.matchingClose(code, from: index) + 1
                continue
            case ",":
                close(at: index)
                pieceStart = index + 1
            default: break
            }
            index += 1
        }
        close(at: min(index, end))
        return result
    }

    /// The parentheses of `Package(`.
    static func packageCall(_ code: [Character]) -> (open: Int, close: Int)? {
        let word = Array("Package")
        var index = 0
        while index + word.count < code.count {
            if code[index] == "\"" {
                index = ManifestCharacters.endOfString(code, from: index)
                continue
            }
            if Array(code[index..<(index + word.count)]) == word, index == 0 || !(code[index - 1].isLetter || code[index - 1].isNumber || code[index - 1] == "_" || code[index - 1] == ".") {
                let open = skipBlanks(code, from: index + word.count)
                if open < code.count, code[open] == "(" { return (open, ManifestCharacters.matchingClose(code, from: open)) }
            }
            index += 1
        }
        return nil
    }

    /// The parentheses of the source target named `name`, when there is exactly one.
    static func targetCall(_ code: [Character], named name: String) -> (open: Int, close: Int)? {
        var found: [(Int, Int)] = []
        var index = 0
        while index < code.count {
            if code[index] == "\"" {
                index = ManifestCharacters.endOfString(code, from: index)
                continue
            }
            guard let (kind, open) = ManifestCharacters.declarationOpenParen(code, at: index) else {
                index += 1
                continue
            }
            let close = ManifestCharacters.matchingClose(code, from: open)
            if PackageManifestScanner.sourceKinds.contains(kind), ManifestCharacters.topLevelStrings(code, from: open + 1, to: close)["name"] == name {
                found.append((open, close))
            }
            index = close + 1
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The text with every comment turned into spaces (line breaks kept), strings as they
    /// are: the same length, so an index means the same character in both.
    static func masked(_ text: String) -> [Character] { masked(Array(text)) }

    static func masked(_ characters: [Character]) -> [Character] {
        var output = characters
        var index = 0
        while index < characters.count {
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if characters[index] == "\"" {
                index = ManifestCharacters.endOfString(characters, from: index)
            } else if characters[index] == "/", next == "/" {
                while index < characters.count, characters[index] != "\n" {
                    output[index] = " "
                    index += 1
                }
            } else if characters[index] == "/", next == "*" {
                let start = index
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index = min(index + 2, characters.count)
                for position in start..<index where characters[position] != "\n" { output[position] = " " }
            } else {
                index += 1
            }
        }
        return output
    }
}

/// The character-level reading the editor needs to find whole elements and their commas.
/// It predates `SwiftLexer`, which the scanner now reads; moving the editor onto the
/// lexer's tokens is the remaining step of issue 33's "one lexer".
enum ManifestCharacters {
    /// When a target declaration such as `.target(` starts at `index`: its kind and the index of its `(`.
    static func declarationOpenParen(_ code: [Character], at index: Int) -> (String, Int)? {
        guard code[index] == ".", index == 0 || !(code[index - 1].isLetter || code[index - 1].isNumber) else { return nil }
        for word in PackageManifestScanner.declarations {
            let letters = Array(word)
            let end = index + 1 + letters.count
            guard end < code.count, Array(code[(index + 1)..<end]) == letters else { continue }
            var open = end
            while open < code.count, code[open].isWhitespace { open += 1 }
            if open < code.count, code[open] == "(" { return (word, open) }
        }
        return nil
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
