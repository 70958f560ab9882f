/// The compact JSON the index page searches in, written as one assignment in
/// `assets/search-data.js` (`SitePages.searchData`): a `file://` page may load a script
/// beside it, though not fetch a JSON file.
///
/// It holds the very words `blocks search` matches: the vocabulary and postings that
/// `InMemorySearchCorpus` makes from `SearchWords.fieldWords` (through `TextNormalizer`),
/// here with each manifest's words found on every core, with the
/// field weights and the ranking's constants, so the page's script (`SiteScript`)
/// repeats `SearchRanking` over the same data rather than keeping rules of its own.
/// Blocks are in name order, which is also the order of the cards on the page.
///
/// Layout, to stay small and quick to parse for 10,000 blocks: `words` is the sorted
/// vocabulary, and `postings[i]` the postings of `words[i]` (block × 8 + field, as
/// `SearchPosting` packs them) in ascending order, each the difference from the one
/// before, in base 36, joined by commas into one string: a browser parses one string
/// per word far faster than an array of numbers, and splits it only for words a query
/// matches. `cards` holds the HTML of the cards the page does not (`SitePages.staticCards`).
enum SiteSearchData {
    static let formatVersion = 1

    /// The data for blocks already sorted by name, as the JSON `assets/search-data.js`
    /// assigns (`HTMLEscaping.scriptJSON` without `inline`); the first `staticCards` cards
    /// are in the page, `laterCards` are the others' HTML. Each block's tags are given as
    /// their places in `tagOptions`, the folded tags the page's tag filter offers.
    ///
    /// Made on every core: each slice of blocks gets its words and postings on a core of
    /// its own (`InMemorySearchCorpus.postingsByWord`), and the long arrays are written as
    /// JSON there too (`HTMLEscaping.scriptJSONArray`), so what they allocate is freed there
    /// as well.
    static func json(sortedBlocks searchable: [SearchableBlock], tagOptions: [String], staticCards: Int, laterCards: [String]) -> [UInt8] {
        let tagPlaces = Dictionary(tagOptions.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let postingsByWord = InMemorySearchCorpus.postingsByWord(of: searchable)
        // As `InMemorySearchCorpus` does: words sorted, each word's postings in block order.
        let vocabulary = postingsByWord.keys.sorted()
        let manifests = searchable.map(\.manifest)
        let blocks = HTMLEscaping.scriptJSONArray(count: manifests.count, inline: false) { position in
            let manifest = manifests[position]
            let record = BlockFilterRecord(manifest)
            return .object([
                "n": .string(manifest.name),
                "p": .object(record.platforms.mapValues { .string($0) }),
                "l": .string(record.level),
                "c": .string(record.foldedCategory),
                "t": .array(Set(record.foldedTags.compactMap { tagPlaces[$0] }).sorted().map { .int($0) }),
            ])
        }
        func small(_ value: JSONValue) -> [UInt8] { HTMLEscaping.scriptJSONBytes(value, inline: false) }
        return HTMLEscaping.scriptJSONObject(
            [
                "version": small(.int(formatVersion)),
                "weights": small(.array(SearchEngine.Field.allCases.map { .double($0.weight) })),
                "otherFieldsShare": small(.double(SearchEngine.otherFieldsShare)),
                "adjacencyShare": small(.double(SearchRanking.adjacencyShare)),
                "functionWords": small(.array(SearchWords.functionWords.sorted().map { .string($0) })),
                "words": HTMLEscaping.scriptJSONArray(count: vocabulary.count, inline: false) { .string(vocabulary[$0]) },
                "postings": HTMLEscaping.scriptJSONArray(count: vocabulary.count, inline: false) {
                    .string(packed((postingsByWord[vocabulary[$0]] ?? []).map(\.rawValue)))
                },
                "blocks": blocks,
                "staticCards": small(.int(staticCards)),
                "cards": HTMLEscaping.scriptJSONArray(count: laterCards.count, inline: false) { .string(laterCards[$0]) },
            ], inline: false)
    }

    /// One word's postings as the page reads them: ascending, each the difference from the
    /// one before in base 36 (lowercase, as `String(_:radix:)` writes it), joined by commas.
    static func packed(_ postings: [UInt32]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(postings.count * 4)
        var previous: UInt32 = 0
        var reversed: [UInt8] = []
        for value in postings.sorted() {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
            var rest = value - previous
            reversed.removeAll(keepingCapacity: true)
            repeat {
                reversed.append(base36Digits[Int(rest % 36)])
                rest /= 36
            } while rest > 0
            bytes.append(contentsOf: reversed.reversed())
            previous = value
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let base36Digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
}
