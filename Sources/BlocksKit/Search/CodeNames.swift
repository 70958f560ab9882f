/// The public names in a block's Swift code: the types it declares and uses, the
/// modifiers and members it calls, the key paths it reads and the names it declares
/// `public`. A developer searches for the API they know (`onGeometryChange`,
/// `accessibilityReduceMotion`, `ScrollViewProxy`) and finds the blocks built on it.
///
/// Read from the block's code files (roles `component` and `logic`, what `add` installs;
/// demos only show it in use) over the tokens of `SwiftLexer`, which tells comments and
/// string literals from code, so a word in a doc comment is not taken for code. The names are kept as written;
/// `SearchWords.identifierWords` folds and splits them like every other identifier.
/// Every store gets them here: the embedded and folder catalogs when they are searched,
/// a built registry when `blocks build` writes `codeNames` into `index.json`.
enum CodeNames {
    /// The roles whose files are the block's code.
    static let codeRoles: Set<BlockFile.Role> = [.component, .logic]

    /// The names in a block's code files, sorted and each once. `file` reads a file by its
    /// path in the manifest; a file it cannot read adds nothing (`lint` reports it).
    static func names(of manifest: BlockManifest, file: (String) -> Data?) -> [String] {
        var found = Set<String>()
        for path in codeFiles(of: manifest) {
            guard let data = file(path) else { continue }
            found.formUnion(names(inSwift: data))
        }
        return found.sorted()
    }

    /// The paths, as the manifest lists them, of the Swift files the names are read from.
    static func codeFiles(of manifest: BlockManifest) -> [String] {
        manifest.files.filter { codeRoles.contains($0.role) && $0.path.hasSuffix(".swift") }.map(\.path)
    }

    /// The names in the code files of a block whose files are at hand.
    static func names(of content: BlockContent) -> [String] {
        names(of: content.manifest) { content.files[$0] }
    }

    /// The names in one Swift source.
    static func names(inSwift source: Data) -> Set<String> {
        let bytes = Array(source)
        var reader = NameReader(bytes: bytes)
        SwiftLexer.scan(bytes) { reader.read($0) }
        return reader.names
    }

    /// Names that say nothing about a block, however often code writes them.
    static let ignored: Set<String> = ["self", "Self", "init", "super", "Type", "Protocol"]
}

/// Weighs the tokens of one Swift source (`SwiftLexer`). Keeps an identifier when it
/// starts with a capital (a type, protocol or attribute: `ScrollViewProxy`,
/// `@Environment`), follows a dot (a modifier, member or key path: `.onGeometryChange`,
/// `\.accessibilityReduceMotion`), or is the name of a declaration marked `public` or
/// `open` (`public func onTabChange`). Comments and string literals are no names; the code
/// of interpolations is read like any other.
private struct NameReader {
    let bytes: [UInt8]
    var names = Set<String>()
    /// `public` or `open` was seen in the declaration being read.
    var publicDeclaration = false
    /// The next identifier is the name a public declaration declares.
    var expectsDeclaredName = false

    static let declarationKeywords: [[UInt8]] = [
        "func", "var", "let", "case", "typealias", "associatedtype", "struct", "enum", "class", "protocol", "actor",
    ].map { Array($0.utf8) }
    static let publicKeyword = Array("public".utf8)
    static let openKeyword = Array("open".utf8)
    /// The bytes that end the declaration being read.
    static let declarationEnds: [UInt8] = ["{", "}", ";", "="].map { UInt8(ascii: $0) }

    static func matches(_ word: ArraySlice<UInt8>, _ keyword: [UInt8]) -> Bool {
        word.count == keyword.count && word.elementsEqual(keyword)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read(_ token: SwiftLexer.Token) {
        let range = token.range
        switch token.kind {
        case .identifier:
            identifier(range, before: range.lowerBound)
        case .escapedIdentifier:
            let closed = range.count > 1 && bytes[range.upperBound - 1] == UInt8(ascii: "`")
            identifier((range.lowerBound + 1)..<(closed ? range.upperBound - 1 : range.upperBound), before: range.lowerBound)
        case .attribute:
            // `@Environment`, `#if`: the name after the sign.
            identifier((range.lowerBound + 1)..<range.upperBound, before: range.lowerBound + 1)
        case .newline:
            endDeclaration()
        case .punctuation where Self.declarationEnds.contains(bytes[range.lowerBound]):
            endDeclaration()
        default:
            break
        }
    }

    mutating func endDeclaration() {
        publicDeclaration = false
        expectsDeclaredName = false
    }

    /// Weighs one identifier; `before` is where it starts, counting a backtick.
    mutating func identifier(_ range: Range<Int>, before start: Int) {
        guard !range.isEmpty else { return }
        let afterDot = start > 0 && bytes[start - 1] == UInt8(ascii: ".")
        let declared = expectsDeclaredName
        expectsDeclaredName = false
        let capitalized = bytes[range.lowerBound] >= UInt8(ascii: "A") && bytes[range.lowerBound] <= UInt8(ascii: "Z")
        let word = bytes[range]
        // Keywords are lowercase and never follow a dot; they are compared as bytes, and
        // no `String` is made for the locals and keywords that are not kept.
        if !capitalized && !afterDot {
            if Self.matches(word, Self.publicKeyword) || Self.matches(word, Self.openKeyword) {
                publicDeclaration = true
            } else if publicDeclaration && Self.declarationKeywords.contains(where: { Self.matches(word, $0) }) {
                publicDeclaration = false
                expectsDeclaredName = true
            }
        }
        guard capitalized || afterDot || declared, bytes[range.lowerBound] != UInt8(ascii: "_") else { return }
        let name = String(decoding: word, as: UTF8.self)
        guard !CodeNames.ignored.contains(name) else { return }
        names.insert(name)
    }
}
