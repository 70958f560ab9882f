/// The on-disk search index of one registry: a SQLite file holding the same corpus as
/// `InMemorySearchCorpus` plus each block's row for the result table and its manifest.
///
/// A query reads the meta row (names, vocabulary, ranks: a few hundred kilobytes), the
/// posting lists of the words it matched, and only the rows of the blocks it shows,
/// instead of reading and decoding every `block.json`. This is the only file that uses
/// SQLite.
final class SearchIndexStore: SearchCorpus {
    /// Bumped whenever the layout or the meaning of what is stored changes. 3: entries
    /// whose name is not a block name are no longer stored, so an index written before
    /// may still list one. 5: postings of the code names field (`CodeNames`) and the
    /// code files they were read from. 6: a split registry's manifests are left to the
    /// registry (`manifestsInSource`), and each row's tags are in language order. 7: posting
    /// lists in chunks of words (`PostingChunks`), not a row per word. 8: rows in groups of
    /// blocks (`RowGroups`), not a row per block.
    static let layoutVersion = 8

    let path: String
    /// What the index was built from; `SearchIndex` compares it with the source's now.
    let fingerprint: String
    /// The layout and tool version that wrote it; any other is rebuilt.
    let format: String
    let blockCount: Int
    let names: PackedStrings
    let nameRanks: [UInt32]
    let vocabulary: PackedStrings
    /// The code files the names were read from, relative to the source; their stamp is
    /// part of `fingerprint` (see `CatalogSource.codeFiles`).
    let codeFiles: PackedStrings
    /// Whether the manifests are the source's to give (`SearchIndexSliceSource`) rather
    /// than stored: a split registry's ranges hold them already, and writing 100,000 of
    /// them as JSON was a fifth of a first search's time.
    let manifestsInSource: Bool
    private let manifestSource: SearchIndexSliceSource?
    private let database: SQLiteDatabase

    /// The meta row that says where the manifests are, and its value for "in the source".
    static let manifestsKey = "manifests"
    static let inSource = "source"

    /// Opens an index read-only and reads its meta row. Throws for a missing, foreign
    /// or damaged file; callers rebuild it then. `manifestSource` gives the manifests of
    /// an index that does not store them.
    init(path: String, manifestSource: SearchIndexSliceSource? = nil) throws {
        self.path = path
        self.manifestSource = manifestSource
        database = try SQLiteDatabase(path: path, readOnly: true)
        // One read transaction for the whole run: a single shared lock instead of a lock,
        // an unlock and a header read per statement. The first 32 MiB are mapped, not read:
        // the whole index of 10,000 blocks (17 MB), where mapping is about 5% faster; past
        // that, pages are read into SQLite's small cache, since every mapped page a large
        // result touches counts in the process's memory (80 MiB more for 100,000 blocks,
        // for no gain in time).
        try database.execute("PRAGMA mmap_size = 33554432; BEGIN")
        var meta: [String: [UInt8]] = [:]
        let statement = try database.prepare("SELECT key, value FROM meta")
        while try statement.step() { meta[statement.text(0)] = statement.bytes(1) }
        func text(_ key: String) throws -> String {
            guard let bytes = meta[key] else { throw SearchIndexError.damaged("no \(key) in \(path)") }
            return String(decoding: bytes, as: UTF8.self)
        }
        func strings(_ key: String) throws -> PackedStrings {
            guard let bytes = meta[key], let list = bytes.withUnsafeBytes(PackedStrings.init(encoded:)) else {
                throw SearchIndexError.damaged("\(key) in \(path) is unreadable")
            }
            return list
        }
        format = try text("format")
        fingerprint = try text("fingerprint")
        names = try strings("names")
        vocabulary = try strings("vocabulary")
        guard let ranks = meta["name_ranks"].flatMap({ $0.withUnsafeBytes(PackedIntegers.decode) }), ranks.count == names.count,
            ranks.allSatisfy({ Int($0) < ranks.count })
        else { throw SearchIndexError.damaged("name_ranks in \(path) is unreadable") }
        nameRanks = ranks
        blockCount = names.count
        codeFiles = try strings("code_files")
        manifestsInSource = meta[Self.manifestsKey] == Array(Self.inSource.utf8)
    }

    func postings(ofWords words: [Int]) throws -> [[SearchPosting]] {
        // The chunk that holds a word is the last that starts at or before it. Matched words
        // come in vocabulary order, often several from one chunk, which is then read once.
        let statement = try database.prepare("SELECT first_word, lists FROM postings WHERE first_word <= ? ORDER BY first_word DESC LIMIT 1")
        var chunk: (first: Int, bytes: [UInt8])?
        return try words.map { word in
            if let held = chunk, let list = held.bytes.withUnsafeBytes({ PostingChunks.list(word - held.first, in: $0) }) { return list }
            statement.reset()
            statement.bind(1, word)
            guard try statement.step() else { throw SearchIndexError.damaged("word \(word) has no posting list in \(path)") }
            let read = (first: statement.integer(0), bytes: statement.bytes(1))
            guard let list = read.bytes.withUnsafeBytes({ PostingChunks.list(word - read.first, in: $0) }) else {
                throw SearchIndexError.damaged("word \(word) has no posting list in \(path)")
            }
            chunk = read
            return list
        }
    }

    func filterRecords() throws -> [BlockFilterRecord] {
        var records: [BlockFilterRecord] = []
        records.reserveCapacity(blockCount)
        try forEachGroup { first, group in
            for row in 0..<group.count {
                guard let record = group.filterRecord(row) else { throw SearchIndexError.damaged("block \(first + row)'s filter data in \(path) is unreadable") }
                records.append(record)
            }
        }
        return records
    }

    func listings(of blocks: [Int]) throws -> [SearchListing] {
        var rows: [Int: SearchListing] = [:]
        if blocks.count * 4 > blockCount {
            // Most of the catalog: one pass is cheaper than a look-up per block.
            try forEachGroup { first, group in
                for row in 0..<group.count { rows[first + row] = group.listing(row) }
            }
        } else {
            // A few blocks: the group that holds each, a look-up a group.
            let statement = try database.prepare("SELECT first, data FROM rows WHERE first <= ? ORDER BY first DESC LIMIT 1")
            var groups: [Int: RowGroups.Group] = [:]
            for block in blocks where rows[block] == nil {
                statement.reset()
                statement.bind(1, block)
                guard try statement.step() else { continue }
                let first = statement.integer(0)
                guard let group = groups[first] ?? statement.withBytes(1, RowGroups.Group.init(encoded:)) else {
                    throw SearchIndexError.damaged("the rows from block \(first) in \(path) are unreadable")
                }
                groups[first] = group
                if block - first < group.count { rows[block] = group.listing(block - first) }
            }
        }
        return try blocks.map { block in
            guard let row = rows[block] else {
                throw SearchIndexError.damaged("block \(block) is missing from \(path)")
            }
            return row
        }
    }

    /// Every group of rows in block order, each with its first block; throws unless they
    /// follow each other from block 0 to the last.
    private func forEachGroup(_ body: (_ first: Int, RowGroups.Group) throws -> Void) throws {
        let statement = try database.prepare("SELECT first, data FROM rows ORDER BY first")
        var next = 0
        while try statement.step() {
            guard statement.integer(0) == next, let group = statement.withBytes(1, RowGroups.Group.init(encoded:)) else {
                throw SearchIndexError.damaged("the rows from block \(next) in \(path) are missing or unreadable")
            }
            try body(next, group)
            next += group.count
        }
        guard next == blockCount else { throw SearchIndexError.damaged("\(path) lacks some blocks") }
    }

    /// Only these manifests are decoded.
    func forEachManifest(of blocks: [Int], _ body: (_ place: Int, BlockManifest) throws -> Void) throws {
        if manifestsInSource {
            guard let manifestSource else { throw SearchIndexError.damaged("\(path) leaves its manifests to a registry it was not opened with") }
            return try manifestSource.forEachSearchManifest(named: blocks.map { names[$0] }, body)
        }
        let statement = try database.prepare("SELECT json FROM manifests WHERE id = ?")
        for (place, block) in blocks.enumerated() {
            statement.reset()
            statement.bind(1, block)
            guard try statement.step() else { throw SearchIndexError.damaged("block \(block) is missing from \(path)") }
            guard let manifest = BlockManifest.decode(Data(statement.bytes(0))) else {
                throw SearchIndexError.damaged("the manifest of block \(block) in \(path) is unreadable")
            }
            try body(place, manifest)
        }
    }

    /// An index being written to a new file, a slice of blocks at a time: a split registry's
    /// index is written while one range of manifests is held, not every one. The caller
    /// writes to a temporary name and renames once `finish` returns, so readers never see
    /// a half-written index.
    final class Writer {
        private let database: SQLiteDatabase
        private let rowGroups: SQLiteStatement
        private let manifestRows: SQLiteStatement
        /// The id the next block gets: its position among all the blocks added.
        private(set) var blockCount = 0
        /// Whether the manifests were left to the source.
        private var manifestsInSource = false

        init(path: String) throws {
            database = try SQLiteDatabase(path: path, readOnly: false)
            try SearchIndexStore.createTables(in: database)
            rowGroups = try database.prepare("INSERT INTO rows (first, data) VALUES (?, ?)")
            manifestRows = try database.prepare("INSERT INTO manifests (id, json) VALUES (?, ?)")
        }

        /// Each block's row for the result table and filters, and its manifest as one line
        /// of JSON (`StableJSONWriter.line`), which `manifests(of:)` reads back. The rows
        /// are made on every core (a first search of 100,000 blocks spent 1.2 s here, on
        /// one), then written in order.
        func append(_ manifests: [BlockManifest]) throws {
            let encoded = ConcurrentMap.map(manifests) { (SearchIndexRow($0), StableJSONWriter.line($0.jsonValue)) }
            for (block, (_, json)) in encoded.enumerated() {
                manifestRows.reset()
                manifestRows.bind(1, blockCount + block)
                manifestRows.bind(2, bytes: json)
                try manifestRows.run()
            }
            let rows = encoded.map(\.0)
            try insert(RowGroups.encode(rows), rows: rows.count)
        }

        /// Rows without their manifests, as groups made on the slice's core: the blocks of a
        /// source that gives the manifests itself (`SearchIndexSliceSource`). `finish` then
        /// marks the index so.
        func append(groups: [[UInt8]], rows: Int) throws {
            manifestsInSource = true
            try insert(groups, rows: rows)
        }

        private func insert(_ groups: [[UInt8]], rows: Int) throws {
            for (group, count) in zip(groups, RowGroups.counts(of: rows)) {
                rowGroups.reset()
                rowGroups.bind(1, blockCount)
                rowGroups.bind(2, bytes: group)
                try rowGroups.run()
                blockCount += count
            }
        }

        /// Writes the words, postings and names of every block appended, and commits.
        func finish(_ corpus: SearchCorpusBuilder.Finished, fingerprint: String, codeFiles: PackedStrings, format: String) throws {
            guard corpus.names.count == blockCount else { throw SearchIndexError.damaged("\(corpus.names.count) names for \(blockCount) blocks") }
            try SearchIndexStore.writeMeta(
                [
                    ("format", Array(format.utf8)),
                    ("fingerprint", Array(fingerprint.utf8)),
                    ("names", corpus.names.encoded),
                    ("vocabulary", corpus.vocabulary.encoded),
                    ("name_ranks", PackedIntegers.encode(corpus.nameRanks)),
                    ("code_files", codeFiles.encoded),
                    (SearchIndexStore.manifestsKey, Array((manifestsInSource ? SearchIndexStore.inSource : "").utf8)),
                ], to: database)
            try SearchIndexStore.writePostings(corpus.postings, to: database)
            try database.execute("COMMIT")
        }
    }

    /// Opens the one transaction of a write and creates the tables in it. Pages of 16 KiB:
    /// the index of 100,000 blocks is 48 MB, and a first search that wrote it in pages of
    /// 4 KiB took 1.04 times as long (64 KiB: no faster than 16). A warm search of 10,000
    /// blocks took 1.02 times as long, 0.2 ms.
    private static func createTables(in database: SQLiteDatabase) throws {
        try database.execute(
            """
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            BEGIN;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE postings (first_word INTEGER PRIMARY KEY, lists BLOB NOT NULL);
            CREATE TABLE rows (first INTEGER PRIMARY KEY, data BLOB NOT NULL);
            CREATE TABLE manifests (id INTEGER PRIMARY KEY, json BLOB NOT NULL);
            """)
    }

    private static func writeMeta(_ entries: [(String, [UInt8])], to database: SQLiteDatabase) throws {
        let meta = try database.prepare("INSERT INTO meta (key, value) VALUES (?, ?)")
        for (key, value) in entries {
            meta.reset()
            meta.bind(1, key)
            meta.bind(2, bytes: value)
            try meta.run()
        }
    }

    /// The lists in chunks (`PostingChunks`), each encoded on a core of its own: 210,000
    /// lists of a registry of 100,000 blocks were as many rows, a tenth of its first search.
    private static func writePostings(_ lists: JoinedPostings, to database: SQLiteDatabase) throws {
        let postings = try database.prepare("INSERT INTO postings (first_word, lists) VALUES (?, ?)")
        let chunks = PostingChunks.bounds(of: lists)
        let encoded = ConcurrentMap.map(chunks) { chunk in PostingChunks.encode(lists, words: chunk) }
        for (chunk, bytes) in zip(chunks, encoded) {
            postings.reset()
            postings.bind(1, chunk.lowerBound)
            postings.bind(2, bytes: bytes)
            try postings.run()
        }
    }
}

/// Posting lists stored a chunk of neighbouring words at a time: a row of the index's
/// `postings` table, keyed by the chunk's first word, holds the number of its lists, each
/// list's length, then every list's postings, all little-endian `UInt32`s.
///
/// A chunk closes at `words` words or once it holds `postings` postings, so a word's list
/// is read with a few kilobytes around it, and a common word's long list mostly alone.
enum PostingChunks {
    static let words = 256
    static let postings = 4096

    /// The ranges of word numbers that make the chunks, in order and covering every list.
    static func bounds(of lists: JoinedPostings) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var start = 0
        var held = 0
        for word in 0..<lists.vocabulary.count {
            held += lists.count(of: word)
            if word + 1 - start == words || held >= postings {
                chunks.append(start..<word + 1)
                (start, held) = (word + 1, 0)
            }
        }
        if start < lists.vocabulary.count { chunks.append(start..<lists.vocabulary.count) }
        return chunks
    }

    /// The chunk of the lists of `chunk`'s words.
    static func encode(_ lists: JoinedPostings, words chunk: Range<Int>) -> [UInt8] {
        var values: [UInt32] = [UInt32(chunk.count)]
        values.reserveCapacity(1 + chunk.count + chunk.reduce(0) { $0 + lists.count(of: $1) })
        for word in chunk { values.append(UInt32(lists.count(of: word))) }
        for word in chunk { lists.appendList(of: word, to: &values) }
        return PackedIntegers.encode(values)
    }

    /// The list at `position` in an encoded chunk; nil when the chunk is damaged or holds
    /// fewer lists.
    static func list(_ position: Int, in chunk: UnsafeRawBufferPointer) -> [SearchPosting]? {
        guard chunk.count % 4 == 0, chunk.count >= 4 else { return nil }
        let total = chunk.count / 4
        func value(_ index: Int) -> Int { Int(UInt32(littleEndian: chunk.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))) }
        let count = value(0)
        guard position >= 0, position < count, count < total else { return nil }
        var end = 1 + count
        var wanted = end..<end
        for index in 0..<count {
            let start = end
            end += value(1 + index)
            if index == position { wanted = start..<end }
        }
        guard end == total else { return nil }
        return wanted.map { SearchPosting(rawValue: UInt32(value($0))) }
    }
}
