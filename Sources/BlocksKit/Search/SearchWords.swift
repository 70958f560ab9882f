/// Every source of words a search matches, in one place, so the embedded catalog, a
/// folder catalog and the SQLite index of a large registry hold the very same words.
///
/// All text goes through `TextNormalizer.words`, the one tokenizer. On top of it come
/// identifiers (kept whole and split at camelCase and digits, so `onTabChange` matches
/// `ontabchange`, `tab` and `change`), the API's types and descriptions, the
/// accessibility notes under their concepts in English and Spanish, and the public names
/// in the block's code (`CodeNames`).
enum SearchWords {
    /// The folded words of each field of a block: every language at once.
    static func fieldWords(of block: SearchableBlock) -> [(SearchEngine.Field, Set<String>)] {
        var memo = Memo()
        var fields: [(SearchEngine.Field, Set<String>)] = []
        forEachField(of: block, memo: &memo) { fields.append(($0, Set($1))) }
        return fields
    }

    /// Each field's words, repeats and all, once per field and always in the same order:
    /// what `fieldWords` makes sets of, for a caller that drops repeats as it goes
    /// (`InMemorySearchCorpus.addPostings`) instead of building eight sets a block.
    /// The words of tags and code names come from `memo` when another block had them: a
    /// catalog repeats the same few thousand, and splitting `pestañas` or `TabView` anew
    /// for each of 100,000 blocks was about a fifth of a first search's CPU time.
    static func forEachField(of block: SearchableBlock, memo: inout Memo, _ body: (SearchEngine.Field, [String]) -> Void) {
        let manifest = block.manifest
        body(.name, TextNormalizer.words(manifest.name))
        body(.title, inOrder(manifest.title).flatMap(TextNormalizer.words))
        body(.tags, inOrder(manifest.tags).joined().flatMap { memo.identifierWords($0) })
        body(.category, TextNormalizer.words(manifest.category))
        body(.summary, inOrder(manifest.summary).flatMap(TextNormalizer.words))
        body(.api, manifest.api.flatMap { identifierWords($0.name) + identifierWords($0.type) })
        var details = manifest.api.flatMap { TextNormalizer.words($0.description) }
        for (key, note) in manifest.accessibility.sorted(by: { $0.key < $1.key }) {
            details += TextNormalizer.words(note)
            details += accessibilityConcepts[key, default: []].flatMap(identifierWords)
            details += identifierWords(key)
        }
        body(.details, details)
        body(.codeNames, block.codeNames.flatMap { memo.identifierWords($0) })
    }

    /// A field's values by language, the languages in order: the words then come in the
    /// same order on every run, and so does the vocabulary (`OrderedPostings`).
    private static func inOrder<Value>(_ field: [String: Value]) -> [Value] {
        field.keys.sorted().map { field[$0]! }
    }

    /// The words of each identifier met so far (`identifierWords`), for one thread's
    /// share of a corpus.
    struct Memo {
        private var identifiers: [String: [String]] = [:]

        mutating func identifierWords(_ text: String) -> [String] {
            if let known = identifiers[text] { return known }
            let words = SearchWords.identifierWords(text)
            identifiers[text] = words
            return words
        }
    }

    /// The words of code-like text: each identifier folded whole, then its parts split
    /// at lower-to-upper case, at the last capital of a run of capitals before a
    /// lowercase letter (`URLSession` → `url`, `session`) and between letters and digits.
    /// `Binding<Item.ID?>` gives `binding`, `item` and `id`.
    static func identifierWords(_ text: String) -> [String] {
        // Start-up folds some 2,000 identifiers of the embedded catalog's code: ASCII text,
        // nearly all of it, is split on its bytes.
        var text = text
        if let words = text.withUTF8(asciiIdentifierWords) { return words }
        return generalIdentifierWords(text)
    }

    /// `identifierWords` by the rule itself, on characters.
    static func generalIdentifierWords(_ text: String) -> [String] {
        var words: [String] = []
        for identifier in text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let whole = TextNormalizer.words(String(identifier))
            words += whole
            let parts = TextNormalizer.words(splitIdentifier(String(identifier)))
            if parts != whole { words += parts }
        }
        return words
    }

    /// `generalIdentifierWords` for ASCII text, where letters, digits and case are bytes;
    /// nil for any other text. `StartupTextNormalizerTests` holds the two equal.
    static func asciiIdentifierWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var words: [String] = []
        return forEachASCIIIdentifierWord(bytes) { words.append(String(decoding: $0, as: UTF8.self)) } ? words : nil
    }

    /// Hands `body` each word `asciiIdentifierWords` gives, as lowercase bytes, and returns
    /// true; false, having handed nothing, for text that is not ASCII. A first search
    /// numbers the words of 100,000 code names this way, without a `String` for each.
    static func forEachASCIIIdentifierWord(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        let lowered = bytes.map { isUpper($0) ? $0 | 0x20 : $0 }
        lowered.withUnsafeBufferPointer { lowered in
            func word(_ range: Range<Int>) { body(UnsafeBufferPointer(rebasing: lowered[range])) }
            var index = 0
            while index < bytes.count {
                guard TextNormalizer.isASCIIAlphanumeric(bytes[index]) else {
                    index += 1
                    continue
                }
                let start = index
                var boundaries: [Int] = []
                index += 1
                while index < bytes.count && TextNormalizer.isASCIIAlphanumeric(bytes[index]) {
                    let (character, previous) = (bytes[index], bytes[index - 1])
                    let lowerToUpper = isUpper(character) && (isLower(previous) || isDigit(previous))
                    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                    let endOfCapitals = isUpper(character) && isUpper(previous) && isLower(next)
                    if lowerToUpper || endOfCapitals || isDigit(character) != isDigit(previous) { boundaries.append(index) }
                    index += 1
                }
                word(start..<index)
                guard !boundaries.isEmpty else { continue }
                var partStart = start
                for boundary in boundaries + [index] {
                    word(partStart..<boundary)
                    partStart = boundary
                }
            }
        }
        return true
    }

    /// An identifier with a space at each of its word boundaries.
    static func splitIdentifier(_ identifier: String) -> String {
        let characters = Array(identifier)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0 {
                let previous = characters[index - 1]
                let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                let lowerToUpper = character.isUppercase && (previous.isLowercase || previous.isNumber)
                let endOfCapitals = character.isUppercase && previous.isUppercase && next?.isLowercase == true
                let letterDigit = character.isNumber != previous.isNumber
                if lowerToUpper || endOfCapitals || letterDigit { result.append(" ") }
            }
            result.append(character)
        }
        return result
    }

    /// The names of each accessibility note's concept, in English and Spanish, and the
    /// SwiftUI API behind it: a note filed under `dynamicType` is found by `large text`
    /// and `texto grande`.
    static let accessibilityConcepts: [String: [String]] = [
        "voiceOver": ["VoiceOver", "voice over", "screen reader", "lector de pantalla", "accessibility", "accesibilidad", "accessibilityLabel"],
        "dynamicType": ["Dynamic Type", "large text", "text size", "texto grande", "tamaño del texto", "accessibility", "accesibilidad", "dynamicTypeSize"],
        "reduceMotion": ["Reduce Motion", "reducir movimiento", "animation", "animación", "accessibility", "accesibilidad", "accessibilityReduceMotion"],
    ]

    /// English and Spanish words a query may hold without any block having them
    /// ("tabs for categories", "pestañas para ipad"): they need not match, and add to
    /// the score where they do.
    static let functionWords: Set<String> = [
        "a", "an", "the", "of", "with", "between", "for", "to", "in", "on", "and", "or", "by", "at", "from", "that", "is",
        "de", "la", "el", "los", "las", "lo", "con", "entre", "para", "en", "y", "o", "un", "una", "por", "del", "al", "que",
    ]
}

/// The postings of blocks whose strings are numbers into one table, as a split index's
/// range gives them (`RangeColumns`): the words `SearchWords.forEachField` gives such a
/// block, each string of the table split once however many blocks use it. A range's
/// blocks have no API and no details, so those fields have no words.
///
/// The caller adds a block's fields in `forEachField`'s order, each whole before the next,
/// and the blocks in order: a repeated word then finds its posting last in its list, and
/// each list is in block order, as `InMemorySearchCorpus.addPostings` makes them.
/// `SplitIndexSearchTests` holds the two equal, posting for posting.
struct CodedSearchWords {
    let strings: RangeStrings
    private(set) var postings = OrderedPostings()
    /// By string: where the numbers of its words (`TextNormalizer.words`) sit in `memo`,
    /// once split; `unsplit` before.
    private var textWords: [Range<Int32>]
    /// By string: the same for its words as an identifier (`SearchWords.identifierWords`).
    private var identifierWords: [Range<Int32>]
    /// The numbers of the words of every string split so far, one string after another,
    /// rather than an array for each of the 20,000 strings a range splits, made and freed.
    private var memo: [Int32] = []
    private static let unsplit: Range<Int32> = -1 ..< -1
    /// By string: bit 0 set when it starts with ASCII, bit 1 when it ends with it, bit 2
    /// once it has been looked at (an empty string counts as both).
    private var asciiEdges: [UInt8]
    /// The numbers of the words of parts that are split together (`addText`), by their codes.
    private var joinedWords: [ArraySlice<Int>: Range<Int32>] = [:]

    init(strings: RangeStrings) {
        self.strings = strings
        textWords = Array(repeating: Self.unsplit, count: strings.count)
        identifierWords = textWords
        asciiEdges = Array(repeating: 0, count: strings.count)
    }

    private mutating func edges(_ string: Int) -> UInt8 {
        if asciiEdges[string] == 0 {
            let utf8 = strings[string].utf8
            asciiEdges[string] = 4 | (utf8.first ?? 0 < 0x80 ? 1 : 0) | (utf8.last ?? 0 < 0x80 ? 2 : 0)
        }
        return asciiEdges[string]
    }

    /// Free text given as its parts, split at each space (a title or summary in one
    /// language). `TextNormalizer.words` always splits at a space between two ASCII bytes,
    /// so the text's words are those of its stretches between such spaces, each stretch
    /// split as a whole: most are one part, whose words are remembered; a stretch of several
    /// parts (a letter beyond ASCII beside a space, as in `menú principal`) is joined back
    /// and split, and its words are remembered by its parts.
    mutating func addText(_ parts: ArraySlice<Int>, block: Int, field: SearchEngine.Field) {
        var stretchStart = parts.startIndex
        for index in parts.indices {
            let next = index + 1
            guard next == parts.endIndex || (edges(parts[index]) & 2 != 0 && edges(parts[next]) & 1 != 0) else { continue }
            let stretch = parts[stretchStart..<next]
            if stretch.count == 1 {
                addWords(of: stretch[stretchStart], block: block, field: field)
            } else {
                if joinedWords[stretch] == nil {
                    joinedWords[stretch] = remember(stretch.map { strings[$0] }.joined(separator: " "), TextNormalizer.forEachASCIIWord, orSplit: TextNormalizer.words)
                }
                post(joinedWords[stretch]!, block: block, field: field)
            }
            stretchStart = next
        }
    }

    /// The words of one string (a category).
    mutating func addWords(of string: Int, block: Int, field: SearchEngine.Field) {
        if textWords[string] == Self.unsplit {
            textWords[string] = remember(strings[string], TextNormalizer.forEachASCIIWord, orSplit: TextNormalizer.words)
        }
        post(textWords[string], block: block, field: field)
    }

    /// The words of one string as an identifier (a tag, a name in the code).
    mutating func addIdentifier(_ string: Int, block: Int, field: SearchEngine.Field) {
        if identifierWords[string] == Self.unsplit {
            identifierWords[string] = remember(strings[string], SearchWords.forEachASCIIIdentifierWord, orSplit: SearchWords.identifierWords)
        }
        post(identifierWords[string], block: block, field: field)
    }

    /// A block's name, each of its words (`TextNormalizer.words`).
    mutating func addName(_ name: String, block: Int) {
        var name = name
        let ascii = name.withUTF8 { bytes in
            TextNormalizer.forEachASCIIWord(bytes) { post(postings.number(ofASCII: $0), block: block, field: .name) }
        }
        if !ascii { add(TextNormalizer.words(name), block: block, field: .name) }
    }

    /// Words given as text.
    mutating func add(_ words: [String], block: Int, field: SearchEngine.Field) {
        for word in words { post(postings.number(of: word), block: block, field: field) }
    }

    /// Numbers the words of `text` into `memo` and returns where they sit: ASCII text as
    /// bytes (`ascii`), any other as the `String`s `split` gives.
    private mutating func remember(
        _ text: String, _ ascii: (UnsafeBufferPointer<UInt8>, (UnsafeBufferPointer<UInt8>) -> Void) -> Bool, orSplit split: (String) -> [String]
    ) -> Range<Int32> {
        let start = Int32(memo.count)
        var text = text
        let isASCII = text.withUTF8 { bytes in ascii(bytes) { memo.append(Int32(postings.number(ofASCII: $0))) } }
        if !isASCII {
            for word in split(text) { memo.append(Int32(postings.number(of: word))) }
        }
        return start..<Int32(memo.count)
    }

    private mutating func post(_ words: Range<Int32>, block: Int, field: SearchEngine.Field) {
        for index in words { post(Int(memo[Int(index)]), block: block, field: field) }
    }

    private mutating func post(_ word: Int, block: Int, field: SearchEngine.Field) {
        postings.post(SearchPosting(block: block, field: field), to: word)
    }
}
