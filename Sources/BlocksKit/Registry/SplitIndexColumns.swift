/// The bytes of a split index's files (`SplitIndex`): the dictionary, the ranges stored as
/// columns, and the digest files. Columns and one dictionary for the whole epoch are what
/// brought 100,000 compact entries from 11.9 MB to under 3 MB gzipped (docs/SCALE.md):
/// gzip sees the same kind of value side by side, and a repeated string is a small number.
///
/// In a range, each value is a *code*: a number into the dictionary, or the string itself
/// when the dictionary lacks it (a word new since the epoch began). Titles and summaries
/// are lists of codes of their words (split at each space, so joining them with spaces
/// gives the text back exactly). Names are front-coded: how many leading characters the
/// name shares with the one before it, then the rest.
enum SplitIndexColumns {
    enum Key {
        static let schemaVersion = "schemaVersion"
        static let names = "names"
        static let versions = "versions"
        static let categories = "categories"
        static let levels = "levels"
        static let platforms = "platforms"
        static let titles = "titles"
        static let summaries = "summaries"
        static let tags = "tags"
        static let codeNames = "codeNames"
    }

    /// An epoch's strings, most used first, with their numbers.
    struct Dictionary: Sendable {
        let strings: [String]
        /// Each string's number, made the first time it is asked for: writing a range needs
        /// it, but reading one finds each string by its number, and numbering the strings
        /// of a 100,000-block registry's dictionary stood before every first search.
        var numbers: [String: Int] { numbering.numbers(of: strings) }
        private let numbering: Numbering

        init(strings: [String]) {
            self.strings = strings
            numbering = Numbering()
        }

        private final class Numbering: @unchecked Sendable {
            private let lock = Lock()
            private var made: [String: Int]?

            func numbers(of strings: [String]) -> [String: Int] {
                lock.withLock {
                    if let made { return made }
                    let numbers = Swift.Dictionary(strings.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                    made = numbers
                    return numbers
                }
            }
        }

        /// Every string the entries use at least twice, the most used first and ties in the
        /// order they first appear.
        init(for entries: [RegistryEntry]) {
            var counter = Counter()
            entries.forEach { counter.add($0) }
            self = counter.dictionary
        }

        /// Counts the strings of entries given one at a time, for `init(for:)`: a build of
        /// 100,000 blocks decodes them one by one rather than holding them all.
        struct Counter {
            /// Each string's count and the order it was first seen in, which breaks ties in
            /// the dictionary. Only counts decide the inline shares.
            private(set) var counts: [String: (count: Int, first: Int)] = [:]
            private var seen = 0

            init() {}

            /// Counts kept from an earlier build (`BuildRecord`).
            init(counts: [String: (count: Int, first: Int)]) {
                self.counts = counts
                seen = (counts.values.map(\.first).max() ?? -1) + 1
            }

            mutating func add(_ entry: RegistryEntry) {
                SplitIndexColumns.forEachString(in: entry) { string in
                    if let known = counts[string] {
                        counts[string] = (known.count + 1, known.first)
                    } else {
                        counts[string] = (1, seen)
                        seen += 1
                    }
                }
            }

            /// Takes back an entry `add` counted: a rebuild counts what changed, not every entry.
            mutating func remove(_ entry: RegistryEntry) {
                SplitIndexColumns.forEachString(in: entry) { string in
                    guard let known = counts[string] else { return }
                    counts[string] = known.count > 1 ? (known.count - 1, known.first) : nil
                }
            }

            var dictionary: Dictionary {
                let repeated = counts.filter { $0.value.count > 1 }
                return Dictionary(strings: repeated.sorted { ($1.value.count, $0.value.first) < ($0.value.count, $1.value.first) }.map(\.key))
            }

            /// The share of the strings counted that `dictionary` lacks; with nil, the share
            /// `self.dictionary` would lack: the strings used once. A build compares the two
            /// to decide on a new epoch, from this one count of the entries.
            func inlineShare(of dictionary: Dictionary?) -> Double {
                var (total, inline) = (0, 0)
                let numbers = dictionary?.numbers
                for (string, counted) in counts {
                    total += counted.count
                    let lacking = numbers.map { $0[string] == nil } ?? (counted.count == 1)
                    if lacking { inline += counted.count }
                }
                return total == 0 ? 0 : Double(inline) / Double(total)
            }
        }

        /// A string's code: its number in the dictionary, or the string itself.
        static func code(_ string: String, numbers: [String: Int]) -> JSONValue { numbers[string].map(JSONValue.int) ?? .string(string) }

        var data: Data { compact(.object([Key.schemaVersion: .int(SplitIndex.schemaVersion), SplitIndex.Key.strings: JSONFields.jsonArray(strings)])) }

        /// Read as a stream (`JSONReader.Stream`) when it is as `data` writes it, a first
        /// search's 100,000 strings without a `JSONValue` each; otherwise through `JSONFields`,
        /// whose problems say where it is at fault.
        static func decode(_ data: Data, path: String) throws(RegistryEntryProblem) -> Dictionary {
            if let strings = try? JSONReader.stream(data, streamedStrings) { return Dictionary(strings: strings) }
            return try RegistryEntryProblem.reading(data, path: path) { (fields) throws(JSONFields.Problem) in
                try SplitIndexColumns.checkVersion(fields)
                return Dictionary(strings: try fields.strings(SplitIndex.Key.strings))
            }
        }

        /// The strings of a dictionary holding its two keys and nothing else.
        static func streamedStrings(_ stream: inout JSONReader.Stream) throws(JSONReader.Failure) -> [String] {
            var (version, strings): (Int?, [String]?) = (nil, nil)
            try stream.forEachMember { (stream, key) throws(JSONReader.Failure) in
                switch key {
                case Key.schemaVersion where version == nil: version = try stream.int()
                case SplitIndex.Key.strings where strings == nil:
                    var list: [String] = []
                    try stream.forEachElement { (stream) throws(JSONReader.Failure) in list.append(try stream.plainString()) }
                    strings = list
                default: throw JSONReader.Stream.unexpected
                }
            }
            guard version == SplitIndex.schemaVersion, let strings else { throw JSONReader.Stream.unexpected }
            return strings
        }
    }

    /// When an epoch's dictionary leaves this much more of the strings inline than a new
    /// one would, a build starts a new epoch.
    static let largestInlineShare = 0.05

    /// Every string a compact entry codes, in the order a range writes them: one walk for
    /// the dictionary's counts and the inline share.
    static func forEachString(in entry: RegistryEntry, _ body: (String) -> Void) {
        let manifest = entry.manifest
        body(manifest.version)
        body(manifest.category)
        body(manifest.level)
        for platform in manifest.platforms.keys.sorted() {
            body(platform)
            body(manifest.platforms[platform]!)
        }
        for text in [manifest.title, manifest.summary] {
            for language in text.keys.sorted() { words(of: text[language]!).forEach(body) }
        }
        for language in manifest.tags.keys.sorted() { manifest.tags[language]!.forEach(body) }
        entry.codeNames.forEach(body)
    }

    /// What a range holds of an entry: the manifest's search fields, the code names and
    /// the metadata path. A build keeps only this of each block until the ranges are written.
    static func searchOnly(_ entry: RegistryEntry) -> RegistryEntry {
        let manifest = entry.manifest
        let kept = BlockManifest(
            name: manifest.name, version: manifest.version, title: manifest.title, summary: manifest.summary, category: manifest.category,
            platforms: manifest.platforms, level: manifest.level, origin: "", tags: manifest.tags, api: [], files: [], authors: [], license: "",
            accessibility: [:])
        return RegistryEntry(manifest: kept, metadata: entry.metadata, sourceSHA256: "", archives: [:], codeNames: entry.codeNames)
    }

    /// A compact entry as one JSON object, strings written out: what the change feed
    /// carries, and what a build keeps of each block until the ranges are written.
    static func compactValue(_ entry: RegistryEntry) -> JSONValue {
        var members = entry.manifest.searchMembers
        members[RegistryEntry.Key.codeNames] = JSONFields.jsonArray(entry.codeNames)
        return .object(members)
    }

    /// A compact entry read back from `compactValue`.
    static func compactEntry(_ fields: JSONFields) throws(JSONFields.Problem) -> RegistryEntry {
        let manifest = try BlockManifest(searchFields: fields)
        return RegistryEntry(
            manifest: manifest, metadata: "blocks/\(manifest.name).json", sourceSHA256: "", archives: [:],
            codeNames: try fields.strings(RegistryEntry.Key.codeNames))
    }

    static func words(of text: String) -> [String] { text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) }

    /// One range: the entries (sorted by name) as columns of codes.
    static func range(_ entries: [RegistryEntry], dictionary: Dictionary) -> Data {
        let manifests = entries.map(\.manifest)
        let numbers = dictionary.numbers
        var names: [JSONValue] = []
        var previous: [Unicode.Scalar] = []
        for manifest in manifests {
            let scalars = Array(manifest.name.unicodeScalars)
            let shared = zip(previous, scalars).prefix { $0 == $1 }.count
            names += [.int(shared), .string(String(String.UnicodeScalarView(scalars[shared...])))]
            previous = scalars
        }
        func codes(_ strings: [String]) -> JSONValue { .array(strings.map { Dictionary.code($0, numbers: numbers) }) }
        func byLanguage(_ values: [[String: [String]]]) -> JSONValue {
            let languages = Set(values.flatMap(\.keys))
            return .object(Swift.Dictionary(uniqueKeysWithValues: languages.map { language in (language, .array(values.map { $0[language].map(codes) ?? .null })) }))
        }
        let members: [String: JSONValue] = [
            Key.schemaVersion: .int(SplitIndex.schemaVersion), Key.names: .array(names),
            Key.versions: codes(manifests.map(\.version)), Key.categories: codes(manifests.map(\.category)), Key.levels: codes(manifests.map(\.level)),
            Key.platforms: .array(manifests.map { manifest in codes(manifest.platforms.keys.sorted().flatMap { [$0, manifest.platforms[$0]!] }) }),
            Key.titles: byLanguage(manifests.map { $0.title.mapValues(words) }), Key.summaries: byLanguage(manifests.map { $0.summary.mapValues(words) }),
            Key.tags: byLanguage(manifests.map(\.tags)), Key.codeNames: .array(entries.map { codes($0.codeNames) }),
        ]
        return compact(.object(members))
    }

    /// A range's entries, in the order it holds them: manifests holding the search fields
    /// only, their code names, and the metadata file's path (from the name). Throws for
    /// anything that is not a range.
    static func entries(ofRange data: Data, path: String, dictionary: Dictionary) throws(RegistryEntryProblem) -> [RegistryEntry] {
        let columns = try RangeColumns(data, path: path, dictionary: dictionary)
        return (0..<columns.count).map(columns.entry)
    }

    /// A digest file: each metadata file's SHA-256 and size, by path.
    static func digestFile(_ digests: [String: RegistryFileDigest]) -> Data {
        compact(.object([Key.schemaVersion: .int(SplitIndex.schemaVersion), SplitIndex.Key.metadata: RegistryFileDigest.jsonValue(digests)]))
    }

    static func digests(ofDigestFile data: Data, path: String) throws(RegistryEntryProblem) -> [String: RegistryFileDigest] {
        try RegistryEntryProblem.reading(data, path: path) { (fields) throws(JSONFields.Problem) in
            try checkVersion(fields)
            let files = try fields.object(SplitIndex.Key.metadata)
            var digests: [String: RegistryFileDigest] = [:]
            for path in files.members.keys { digests[path] = try RegistryFileDigest(fields: try files.object(path)) }
            return digests
        }
    }

    /// A part's bytes: one line, as no one reads them by eye and each space costs.
    static func compact(_ value: JSONValue) -> Data { Data(StableJSONWriter.line(value) + [UInt8(ascii: "\n")]) }

    static func checkVersion(_ fields: JSONFields) throws(JSONFields.Problem) {
        guard try fields.int(Key.schemaVersion) == SplitIndex.schemaVersion else { throw .wrongType(fields.place(Key.schemaVersion)) }
    }
}
