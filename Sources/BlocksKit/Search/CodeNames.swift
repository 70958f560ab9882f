/// The public names in a block's Swift code: the types it declares and uses, the
/// modifiers and members it calls, the key paths it reads and the names it declares
/// `public`. A developer searches for the API they know (`onGeometryChange`,
/// `accessibilityReduceMotion`, `ScrollViewProxy`) and finds the blocks built on it.
///
/// Read from the block's code files (roles `component` and `logic`, what `add` installs;
/// demos only show it in use) by a small scanner that skips comments and string literals,
/// so a word in a doc comment is not taken for code. The names are kept as written;
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
        var scanner = SwiftNameScanner(bytes: Array(source))
        scanner.scanCode(interpolation: false)
        return scanner.names
    }

    /// Names that say nothing about a block, however often code writes them.
    static let ignored: Set<String> = ["self", "Self", "init", "super", "Type", "Protocol"]
}

/// One pass over Swift source as bytes. Keeps an identifier when it starts with a capital
/// (a type, protocol or attribute: `ScrollViewProxy`, `@Environment`), follows a dot (a
/// modifier, member or key path: `.onGeometryChange`, `\.accessibilityReduceMotion`), or
/// is the name of a declaration marked `public` or `open` (`public func onTabChange`).
/// Comments and the text of string literals are skipped; interpolations are code.
private struct SwiftNameScanner {
    let bytes: [UInt8]
    var index = 0
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

    static func matches(_ word: ArraySlice<UInt8>, _ keyword: [UInt8]) -> Bool {
        word.count == keyword.count && word.elementsEqual(keyword)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// Code up to the end of the text, or, in an interpolation, up to its closing `)`.
    mutating func scanCode(interpolation: Bool) {
        var depth = 0
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "\""):
                scanString(hashes: 0)
            case UInt8(ascii: "#"):
                var hashes = 0
                while byte(at: index + hashes) == UInt8(ascii: "#") { hashes += 1 }
                if byte(at: index + hashes) == UInt8(ascii: "\"") {
                    index += hashes
                    scanString(hashes: hashes)
                } else {
                    index += hashes
                }
            case UInt8(ascii: "("):
                depth += 1
                index += 1
            case UInt8(ascii: ")"):
                index += 1
                if depth == 0 && interpolation { return }
                depth -= 1
            case UInt8(ascii: "`"):
                let start = index + 1
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "`") && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                index = min(end + 1, bytes.count)
                identifier(start..<end, before: start - 1)
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "\n"):
                publicDeclaration = false
                expectsDeclaredName = false
                index += 1
            default:
                if Self.isIdentifierStart(current) {
                    let start = index
                    while index < bytes.count && Self.isIdentifierByte(bytes[index]) { index += 1 }
                    identifier(start..<index, before: start)
                } else if Self.isDigit(current) {
                    // A number, with any letters of its literal (`0x1F`, `1e3`).
                    while index < bytes.count && Self.isIdentifierByte(bytes[index]) { index += 1 }
                } else {
                    index += 1
                }
            }
        }
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

    /// A `/* … */` comment, which Swift lets nest.
    mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && byte(at: index + 1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && byte(at: index + 1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// A string literal from its opening quote: `"…"`, `"""…"""`, with `hashes` `#`s
    /// around it for a raw string. Escapes are skipped and interpolations scanned as code.
    mutating func scanString(hashes: Int) {
        let multiline = byte(at: index + 1) == UInt8(ascii: "\"") && byte(at: index + 2) == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        index += quotes
        while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "\\") && hasHashes(hashes, at: index + 1) {
                index += 1 + hashes
                if byte(at: index) == UInt8(ascii: "(") {
                    index += 1
                    scanCode(interpolation: true)
                } else {
                    index += 1
                }
            } else if current == UInt8(ascii: "\"") && hasQuotes(quotes, at: index) && hasHashes(hashes, at: index + quotes) {
                index += quotes + hashes
                return
            } else if current == UInt8(ascii: "\n") && !multiline {
                return
            } else {
                index += 1
            }
        }
    }

    func hasHashes(_ count: Int, at offset: Int) -> Bool {
        (0..<count).allSatisfy { byte(at: offset + $0) == UInt8(ascii: "#") }
    }

    func hasQuotes(_ count: Int, at offset: Int) -> Bool {
        (0..<count).allSatisfy { byte(at: offset + $0) == UInt8(ascii: "\"") }
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }
}
