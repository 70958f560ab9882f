/// Takes out of a `Package.swift`, as plain text, the package dependencies `add` put in
/// with SwiftPM's `add-dependency` and `add-target-dependency`: the `.package(url:)`
/// element, the target's `.product(name:package:)` elements, and a `dependencies:` list
/// blocks made that is empty once they are gone. SwiftPM has no command that removes them.
///
/// It deletes only whole elements with their comma and the blanks around them, so the
/// brackets stay balanced; anything it cannot find exactly once is refused, never guessed.
/// Undoing SwiftPM's own edits gives back the bytes from before `add`.
public enum PackageManifestEditor {
    typealias ManifestCode = PackageManifestScanner.ManifestCode

    /// Whether the manifest's `Package(...)` call has a `dependencies:` argument, or with
    /// `target`, whether that target's declaration has one.
    public static func hasDependencyList(_ text: String, target: String? = nil) -> Bool {
        let code = ManifestCode(text)
        guard let call = target.map({ targetCall(code, named: $0) }) ?? packageCall(code) else { return false }
        return arguments(code, call).contains { $0.label == "dependencies" }
    }

    /// The manifest without the package (when `removePackage`) and the products, or why not.
    public static func removing(
        _ record: Lockfile.Package, removePackage: Bool, from text: String
    ) -> Result<String, Refusal> {
        var edited = text
        for product in record.products {
            let code = ManifestCode(edited)
            guard let call = targetCall(code, named: product.target) else { return .failure(Refusal("it has no target \(product.target)")) }
            let removed = removeElement(
                &edited, code: code, call: call, createdList: product.createdList,
                matching: { element in
                    let fields = PackageManifestScanner.topLevelStrings(code, from: element.open + 1, to: element.close)
                    return element.name == "product" && fields["name"] == product.name && fields["package"] == record.identity
                })
            if let refusal = removed.refusal { return .failure(Refusal("the target \(product.target) \(refusal) .product(name: \"\(product.name)\", package: \"\(record.identity)\")")) }
        }
        if removePackage {
            let code = ManifestCode(edited)
            guard let call = packageCall(code) else { return .failure(Refusal("it has no Package(...) call")) }
            let removed = removeElement(
                &edited, code: code, call: call, createdList: record.createdList,
                matching: { element in
                    let fields = PackageManifestScanner.topLevelStrings(code, from: element.open + 1, to: element.close)
                    return element.name == "package" && fields["url"].map(record.matches) == true
                })
            if let refusal = removed.refusal { return .failure(Refusal("its package dependencies \(refusal) .package(url: \"\(record.url)\")")) }
        }
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

    // MARK: - Elements and arguments, as tokens of the manifest's code.

    /// A call's argument: its label (if any) and the tokens it spans, `start..<end`.
    struct Argument {
        var label: String?
        var start: Int
        var end: Int
    }

    /// An element `.name(...)` of a list: the tokens of its `.`, its `(` and its `)`.
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
        _ text: inout String, code: ManifestCode, call: (open: Int, close: Int), createdList: Bool,
        matching: (Element) -> Bool
    ) -> (removed: Bool, refusal: String?) {
        guard let list = arguments(code, call).first(where: { $0.label == "dependencies" }),
            let open = (list.start..<list.end).first(where: { code.isPunctuation($0, "[") }), code.isPunctuation(list.end - 1, "]")
        else { return (false, nil) }
        let elements = items(code, from: open + 1, to: list.end - 1)
        let found = elements.enumerated().filter { matching($0.element) }
        guard found.count <= 1 else { return (false, "lists more than one") }
        guard let (index, element) = found.first else { return (false, nil) }
        let blanked = masked(code)
        let range = withComma(
            blanked, byteStart(code, element.start), byteEnd(code, element.end),
            previousEnd: index > 0 ? byteEnd(code, elements[index - 1].end) : nil)
        var bytes = code.bytes
        bytes.removeSubrange(wholeLines(blanked, range))
        text = String(decoding: bytes, as: UTF8.self)
        guard createdList else { return (true, nil) }
        // The list, now without the element: remove it with its comma when nothing is left.
        // The call's `(` comes before the element, so its byte has not moved.
        let callOpen = code.tokens[call.open].range.lowerBound
        let edited = ManifestCode(text)
        guard let shiftedOpen = edited.tokens.firstIndex(where: { $0.range.lowerBound == callOpen }) else { return (true, nil) }
        let arguments = arguments(edited, (shiftedOpen, edited.matchingClose(from: shiftedOpen)))
        guard let position = arguments.firstIndex(where: { $0.label == "dependencies" }) else { return (true, nil) }
        let argument = arguments[position]
        guard let bracket = (argument.start..<argument.end).first(where: { edited.isPunctuation($0, "[") }),
            bracket + 1 == argument.end - 1, edited.isPunctuation(argument.end - 1, "]")
        else { return (true, nil) }
        let editedBlanked = masked(edited)
        let listRange = withComma(
            editedBlanked, byteStart(edited, argument.start), byteEnd(edited, argument.end),
            previousEnd: position > 0 ? byteEnd(edited, arguments[position - 1].end) : nil)
        bytes = edited.bytes
        bytes.removeSubrange(wholeLines(editedBlanked, listRange))
        text = String(decoding: bytes, as: UTF8.self)
        return (true, nil)
    }

    /// The byte where token `index` starts.
    static func byteStart(_ code: ManifestCode, _ index: Int) -> Int { code.tokens[index].range.lowerBound }

    /// The byte just past token `index - 1`: where tokens `start..<index` end.
    static func byteEnd(_ code: ManifestCode, _ index: Int) -> Int { code.tokens[index - 1].range.upperBound }

    /// The bytes `start..<end` of a list entry with the comma after it on the same line or,
    /// when there is none, with the comma and blanks before it back to the previous entry.
    static func withComma(_ blanked: [UInt8], _ start: Int, _ end: Int, previousEnd: Int?) -> Range<Int> {
        let after = skipBlanks(blanked, from: end)
        if after < blanked.count, blanked[after] == UInt8(ascii: ",") { return start..<(after + 1) }
        if let previousEnd { return previousEnd..<end }
        return start..<end
    }

    /// Widens a range to its whole lines when only blanks share them.
    static func wholeLines(_ blanked: [UInt8], _ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start > 0, isBlank(blanked[start - 1]) { start -= 1 }
        var end = range.upperBound
        while end < blanked.count, isBlank(blanked[end]) { end += 1 }
        guard start == 0 || blanked[start - 1] == UInt8(ascii: "\n"), end == blanked.count || blanked[end] == UInt8(ascii: "\n") else { return range }
        return start..<min(end + 1, blanked.count)
    }

    static func skipBlanks(_ blanked: [UInt8], from index: Int) -> Int {
        var index = index
        while index < blanked.count, isBlank(blanked[index]) { index += 1 }
        return index
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// The manifest's bytes with every comment, as the lexer finds it, turned into spaces
    /// (line breaks kept): a comment is blank where the editor looks for commas and lines.
    static func masked(_ code: ManifestCode) -> [UInt8] {
        var output = code.bytes
        for comment in code.comments {
            for position in comment where output[position] != UInt8(ascii: "\n") { output[position] = UInt8(ascii: " ") }
        }
        return output
    }

    /// The top-level arguments between a call's parentheses (token indices).
    static func arguments(_ code: ManifestCode, _ call: (open: Int, close: Int)) -> [Argument] {
        pieces(code, from: call.open + 1, to: call.close).map { start, end in
            let labelled = end - start >= 2 && code.tokens[start].kind == .identifier && code.isPunctuation(start + 1, ":")
            return Argument(label: labelled ? code.text(start) : nil, start: start, end: end)
        }
    }

    /// The `.name(...)` elements of a list; other elements are left out.
    static func items(_ code: ManifestCode, from start: Int, to end: Int) -> [Element] {
        pieces(code, from: start, to: end).compactMap { start, end in
            guard end - start >= 3, code.isPunctuation(start, "."), code.tokens[start + 1].kind == .identifier,
                code.tokens[start + 1].range.lowerBound == code.tokens[start].range.upperBound,
                code.isPunctuation(start + 2, "("),
                code.tokens[start + 2].range.lowerBound == code.tokens[start + 1].range.upperBound,
                code.matchingClose(from: start + 2) == end - 1
            else { return nil }
            return Element(name: code.text(start + 1), start: start, open: start + 2, close: end - 1)
        }
    }

    /// The comma-separated pieces at the top level of the tokens `start..<end`; empty
    /// pieces are left out.
    static func pieces(_ code: ManifestCode, from start: Int, to end: Int) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        var pieceStart = start
        var index = start
        while index < end {
            if code.isPunctuation(index, "(") || code.isPunctuation(index, "[") || code.isPunctuation(index, "{") {
                index = code.matchingClose(from: index) + 1
                continue
            }
            if code.isPunctuation(index, ",") {
                if pieceStart < index { result.append((pieceStart, index)) }
                pieceStart = index + 1
            }
            index += 1
        }
        if pieceStart < min(index, end) { result.append((pieceStart, min(index, end))) }
        return result
    }

    /// The parentheses of `Package(`.
    static func packageCall(_ code: ManifestCode) -> (open: Int, close: Int)? {
        for index in code.tokens.indices
        where code.tokens[index].kind == .identifier && code.text(index) == "Package"
            && !(index > 0 && code.isPunctuation(index - 1, ".")) && code.isPunctuation(index + 1, "(")
        {
            return (index + 1, code.matchingClose(from: index + 1))
        }
        return nil
    }

    /// The parentheses of the source target named `name`, when there is exactly one.
    static func targetCall(_ code: ManifestCode, named name: String) -> (open: Int, close: Int)? {
        var found: [(Int, Int)] = []
        var index = 0
        while index < code.tokens.count {
            guard let (kind, open) = PackageManifestScanner.declarationOpenParen(code, at: index) else {
                index += 1
                continue
            }
            let close = code.matchingClose(from: open)
            if PackageManifestScanner.sourceKinds.contains(kind),
                PackageManifestScanner.topLevelStrings(code, from: open + 1, to: close)["name"] == name
            {
                found.append((open, close))
            }
            index = close + 1
        }
        return found.count == 1 ? found[0] : nil
    }
}
