/// A range's columns, read and checked: each column's length, and each code (a number must
/// be in the dictionary, a string must be plain text). Every value is a number into
/// `strings`, the dictionary's strings followed by the ones the range writes out, so one
/// reader serves both the entries (`entry(_:)`) and the search index, which splits each
/// string into words once however many blocks use it (`SearchIndexSlice`).
///
/// A range is read as a stream (`streamed`), its values put straight into the columns. A
/// range the stream does not take as it is (damaged, or holding something a range we
/// write never holds) is read again through `JSONFields`, whose problems name the place
/// at fault. `IndexTarget` fuzzes the two against each other.
struct RangeColumns {
    typealias Problem = JSONFields.Problem
    typealias Key = SplitIndexColumns.Key
    private(set) var strings: RangeStrings
    private(set) var names: [String] = []
    private(set) var versions: [Int] = []
    private(set) var categories: [Int] = []
    private(set) var levels: [Int] = []
    /// Each row's platforms and their minimums, in pairs.
    private(set) var platforms = CodeLists()
    /// By language, each row's words, or nil where the row lacks that language.
    private(set) var titles: [String: CodeLists] = [:]
    private(set) var summaries: [String: CodeLists] = [:]
    private(set) var tags: [String: CodeLists] = [:]
    /// Each row's names in its code; a null row has none.
    private(set) var codeNames = CodeLists()
    /// `titles["en"]`, found once rather than once a row.
    private var englishTitles: CodeLists?

    var count: Int { names.count }

    init(_ data: Data, path: String, dictionary: SplitIndexColumns.Dictionary) throws(RegistryEntryProblem) {
        if let streamed = Self.streamed(data, dictionary: dictionary) {
            self = streamed
        } else {
            self = try Self(checking: data, path: path, dictionary: dictionary)
        }
    }

    private init(dictionary: SplitIndexColumns.Dictionary) {
        strings = RangeStrings(dictionary: dictionary.strings)
    }

    /// The range read through `JSONFields`, whose problems say where it is at fault.
    init(checking data: Data, path: String, dictionary: SplitIndexColumns.Dictionary) throws(RegistryEntryProblem) {
        self = try RegistryEntryProblem.reading(data, path: path) { (fields) throws(Problem) in
            try SplitIndexColumns.checkVersion(fields)
            var columns = RangeColumns(dictionary: dictionary)
            try columns.read(fields)
            return columns
        }
    }

    private mutating func read(_ fields: JSONFields) throws(Problem) {
        names = try Self.names(fields)
        versions = try numbers(fields, Key.versions)
        categories = try numbers(fields, Key.categories)
        levels = try numbers(fields, Key.levels)
        platforms = try lists(fields, try fields.array(Key.platforms), Key.platforms)
        titles = try languages(fields, Key.titles)
        summaries = try languages(fields, Key.summaries)
        tags = try languages(fields, Key.tags)
        codeNames = try lists(fields, try fields.array(Key.codeNames), Key.codeNames)
        if let problem = shapeProblem() { throw .wrongType(fields.place(problem)) }
        englishTitles = titles["en"]
    }

    /// The place of the first column whose length is not the names', or of the first row
    /// of platforms that is not pairs; nil when every column fits.
    private func shapeProblem() -> String? {
        for (key, length) in [(Key.versions, versions.count), (Key.categories, categories.count), (Key.levels, levels.count)] where length != count {
            return key
        }
        if platforms.count != count { return Key.platforms }
        for row in 0..<count {
            guard let pairs = platforms[row], pairs.count % 2 == 0 else { return "\(Key.platforms)[\(row)]" }
        }
        for (key, column) in [(Key.titles, titles), (Key.summaries, summaries), (Key.tags, tags)] {
            for (language, lists) in column where lists.count != count { return "\(key).\(language)" }
        }
        return codeNames.count == count ? nil : Key.codeNames
    }

    /// The rows a reader keeps, in name order, and the names it leaves out: those that are
    /// not safe as a block's name (and so as a path).
    func nameOrder() -> (order: [Int], dropped: [String]) {
        var (order, dropped): ([Int], [String]) = ([], [])
        for row in 0..<count {
            if ManifestValidator.isValidName(names[row]) { order.append(row) } else { dropped.append(names[row]) }
        }
        order.sort { names[$0] < names[$1] }
        return (order, dropped)
    }

    /// Row `row` as an entry: the manifest's search fields, its code names and its metadata path.
    func entry(_ row: Int) -> RegistryEntry {
        let name = names[row]
        let manifest = BlockManifest(
            name: name, version: strings[versions[row]], title: text(titles, row), summary: text(summaries, row),
            category: strings[categories[row]], platforms: platformTable(row), level: strings[levels[row]], origin: "",
            tags: tags.compactMapValues { $0[row].map { $0.map { strings[$0] } } }, api: [], files: [], authors: [], license: "",
            accessibility: [:])
        return RegistryEntry(manifest: manifest, metadata: "blocks/\(name).json", sourceSHA256: "", archives: [:], codeNames: (codeNames[row] ?? []).map { strings[$0] })
    }

    /// A text column's row by language, its words joined by the spaces they were split at.
    func text(_ column: [String: CodeLists], _ row: Int) -> [String: String] {
        column.compactMapValues { $0[row].map { $0.map { strings[$0] }.joined(separator: " ") } }
    }

    /// A row's English title, as `BlockManifest.localized` takes it from `text(titles, row)`.
    func englishTitle(_ row: Int) -> String {
        if let words = englishTitles?[row] { return words.map { strings[$0] }.joined(separator: " ") }
        return BlockManifest.localized(text(titles, row))
    }

    /// A row's platforms; a platform written twice keeps its first minimum.
    func platformTable(_ row: Int) -> [String: String] {
        let pairs = platforms[row] ?? []
        return Dictionary(
            stride(from: pairs.startIndex, to: pairs.endIndex, by: 2).map { (strings[pairs[$0]], strings[pairs[$0 + 1]]) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Codes, the one rule both readers apply

    /// A code written as a number: its own value, when the dictionary has that string.
    private func code(number: Int) -> Int? {
        number >= 0 && number < strings.dictionary.count ? number : nil
    }

    /// A code written as the string itself (checked plain by the caller): a number after
    /// the dictionary's.
    private mutating func code(written text: String) -> Int { strings.append(text) }

    // MARK: Read through JSONFields

    private mutating func number(_ code: JSONValue, fields: JSONFields, path: @autoclosure () -> String) throws(Problem) -> Int {
        switch code {
        case .int(let number):
            guard let code = self.code(number: number) else { throw .wrongType(path()) }
            return code
        case .string(let text): return self.code(written: try fields.checked(text, path: path()))
        default: throw .wrongType(path())
        }
    }

    private mutating func numbers(_ fields: JSONFields, _ key: String) throws(Problem) -> [Int] {
        var result: [Int] = []
        for (row, code) in try fields.array(key).enumerated() { result.append(try number(code, fields: fields, path: "\(key)[\(row)]")) }
        return result
    }

    /// A column whose rows are lists of codes, or null.
    private mutating func lists(_ fields: JSONFields, _ values: [JSONValue], _ path: String) throws(Problem) -> CodeLists {
        var result = CodeLists()
        for (row, value) in values.enumerated() {
            switch value {
            case .null: result.appendNull()
            case .array(let codes):
                for code in codes { result.append(try number(code, fields: fields, path: "\(path)[\(row)]")) }
                result.endRow()
            default: throw .wrongType("\(path)[\(row)]")
            }
        }
        return result
    }

    /// An object of columns by language.
    private mutating func languages(_ fields: JSONFields, _ key: String) throws(Problem) -> [String: CodeLists] {
        let object = try fields.object(key)
        var result: [String: CodeLists] = [:]
        for (language, value) in object.members {
            guard case .array(let values) = value else { throw .wrongType(object.place(language)) }
            result[try fields.checked(language, path: object.place(language))] = try lists(fields, values, object.place(language))
        }
        return result
    }

    /// The front-coded names.
    private static func names(_ fields: JSONFields) throws(Problem) -> [String] {
        let values = try fields.array(Key.names)
        guard values.count % 2 == 0 else { throw .wrongType(Key.names) }
        var decoder = FrontCodedNames()
        for pair in stride(from: 0, to: values.count, by: 2) {
            guard case .int(let shared) = values[pair], case .string(let rest) = values[pair + 1], let text = decoder.name(shared: shared, rest: rest) else {
                throw .wrongType("\(Key.names)[\(pair)]")
            }
            decoder.names.append(try fields.checked(text, path: "\(Key.names)[\(pair)]"))
        }
        return decoder.names
    }

    // MARK: Read as a stream

    /// The range read value by value into its columns; nil for anything a range we write
    /// never holds (a key it lacks or repeats, a value of another type, a column of another
    /// length, a string that is not plain), which `init(checking:)` then reads and names.
    static func streamed(_ data: Data, dictionary: SplitIndexColumns.Dictionary) -> RangeColumns? {
        var columns = RangeColumns(dictionary: dictionary)
        do {
            let keys = try JSONReader.stream(data) { (stream) throws(JSONReader.Failure) -> Set<String> in
                try columns.read(&stream)
            }
            guard keys.count == 10, columns.shapeProblem() == nil else { return nil }
        } catch {
            return nil
        }
        columns.englishTitles = columns.titles["en"]
        return columns
    }

    /// The range's object, a column at a time, the keys it read returned; a failure for any
    /// key but the ten, or one met twice.
    private mutating func read(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> Set<String> {
        var keys: Set<String> = []
        try stream.forEachMember { (stream, key) throws(JSONReader.Failure) in
            guard keys.insert(key).inserted else { throw Self.unexpected }
            switch key {
            case Key.schemaVersion: guard try stream.int() == SplitIndex.schemaVersion else { throw Self.unexpected }
            case Key.names: names = try Self.names(&stream)
            case Key.versions: versions = try codes(&stream)
            case Key.categories: categories = try codes(&stream)
            case Key.levels: levels = try codes(&stream)
            case Key.platforms: platforms = try lists(&stream)
            case Key.codeNames: codeNames = try lists(&stream)
            case Key.titles: titles = try languages(&stream)
            case Key.summaries: summaries = try languages(&stream)
            case Key.tags: tags = try languages(&stream)
            default: throw Self.unexpected
            }
        }
        return keys
    }

    private static let unexpected = JSONReader.Stream.unexpected

    private mutating func code(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> Int {
        if stream.atString { return code(written: try stream.plainString()) }
        guard let code = code(number: try stream.int()) else { throw Self.unexpected }
        return code
    }

    private mutating func codes(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> [Int] {
        var result: [Int] = []
        try stream.forEachElement { (stream) throws(JSONReader.Failure) in result.append(try code(&stream)) }
        return result
    }

    private mutating func lists(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> CodeLists {
        var result = CodeLists()
        try stream.forEachElement { (stream) throws(JSONReader.Failure) in
            if try stream.null() { return result.appendNull() }
            try stream.forEachElement { (stream) throws(JSONReader.Failure) in result.append(try code(&stream)) }
            result.endRow()
        }
        return result
    }

    private mutating func languages(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> [String: CodeLists] {
        var result: [String: CodeLists] = [:]
        try stream.forEachMember { (stream, key) throws(JSONReader.Failure) in
            let language = try JSONReader.Stream.plain(key)
            guard result[language] == nil else { throw Self.unexpected }
            result[language] = try lists(&stream)
        }
        return result
    }

    /// The front-coded names: a shared count and the rest, pair after pair.
    private static func names(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> [String] {
        var decoder = FrontCodedNames()
        var shared: Int?
        try stream.forEachElement { (stream) throws(JSONReader.Failure) in
            guard let count = shared else { return shared = try stream.int() }
            guard let text = decoder.name(shared: count, rest: try stream.string()) else { throw unexpected }
            decoder.names.append(try JSONReader.Stream.plain(text))
            shared = nil
        }
        guard shared == nil else { throw unexpected }
        return decoder.names
    }
}

/// Names as a range writes them, front-coded: how many leading characters a name shares
/// with the one before it, then the rest.
private struct FrontCodedNames {
    /// The names so far; the caller appends each once it has checked it.
    var names: [String] = []
    /// The name before, as bytes when it is ASCII (a scalar a byte, so the shared count
    /// counts bytes), else as scalars.
    private var previousBytes: [UInt8] = []
    private var previousScalars: [Unicode.Scalar]?

    /// The next name, or nil when it claims to share more than the name before has.
    mutating func name(shared: Int, rest: String) -> String? {
        guard (0...(previousScalars?.count ?? previousBytes.count)).contains(shared) else { return nil }
        let text: String
        if let scalars = previousScalars {
            text = String(String.UnicodeScalarView(scalars[..<shared] + Array(rest.unicodeScalars)))
        } else {
            previousBytes.removeSubrange(shared...)
            previousBytes.append(contentsOf: rest.utf8)
            text = String(decoding: previousBytes, as: UTF8.self)
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // Bytes made above hold the name already.
            if previousScalars != nil { (previousBytes, previousScalars) = (Array(text.utf8), nil) }
        } else {
            previousScalars = Array(text.unicodeScalars)
        }
        return text
    }
}

/// A column of a range whose rows are lists of codes, or null: every row's codes one after
/// another, and where each row ends. One array for a column of 1,000 rows, where an array a
/// row cost an allocation each and scattered the rows a search reads in turn.
struct CodeLists: Sendable {
    private var codes: [Int] = []
    /// By row: where its codes end in `codes` (a row starts where the one before ends),
    /// and whether it is null.
    private var ends: [Int] = []
    private var nulls: [Bool] = []

    /// How many rows.
    var count: Int { ends.count }

    /// A row's codes, or nil for a null row. The slice's indices are `codes`' own.
    subscript(row: Int) -> ArraySlice<Int>? {
        nulls[row] ? nil : codes[(row == 0 ? 0 : ends[row - 1])..<ends[row]]
    }

    mutating func append(_ code: Int) { codes.append(code) }

    /// Ends the row whose codes were appended since the last row ended.
    mutating func endRow() {
        ends.append(codes.count)
        nulls.append(false)
    }

    mutating func appendNull() {
        ends.append(codes.count)
        nulls.append(true)
    }
}

/// The strings a range's codes number: the dictionary's, then the ones the range writes
/// out. The dictionary's are shared by every range and never copied: appending to a copy
/// of its 100,000 strings retained each of them, and freeing the range released them.
struct RangeStrings: Sendable {
    let dictionary: [String]
    private(set) var written: [String] = []

    var count: Int { dictionary.count + written.count }

    subscript(code: Int) -> String {
        code < dictionary.count ? dictionary[code] : written[code - dictionary.count]
    }

    /// Adds a string the range writes out, and returns its code.
    mutating func append(_ string: String) -> Int {
        written.append(string)
        return count - 1
    }
}
