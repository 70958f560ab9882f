/// What the mirror knows about DEST: the upstream index's ETag, the mode its metadata was
/// written in, and for each file it verified the hash and the file's size and
/// modification time. A re-run stats the files instead of re-hashing them, and re-hashes
/// only the ones that changed on disk.
///
/// Kept in SQLite at `.blocks-mirror/state.sqlite`, so that a mirror holds SQLite's page
/// cache in memory rather than every record: read into a dictionary, the 300,000 records of
/// a 100,000-block registry took about 120 MiB. The same database holds what one run lists
/// (`markListed`) and the metadata files it staged from a split index's digests
/// (`noteDerived`), so neither is held in memory either.
///
/// Changes become durable at `save`; a run killed before it leaves the state of the last
/// `save`, which at worst makes the next run re-hash a file. A mirror made by an earlier
/// version keeps a line-format `state` file, which `open` reads once into the database.
final class MirrorState {
    struct Record: Equatable {
        var sha256: String
        var size: Int64
        var modified: Int64

        /// A record no file on disk can match, so the next sync fetches the file again.
        static func damaged(_ sha256: String) -> Record { Record(sha256: sha256, size: -1, modified: 0) }
    }

    /// The upstream index's ETag, written by `save`.
    var etag: String?
    /// The mode DEST's metadata files were written in (`Mirror.mode`); nil for a mirror
    /// made before modes, whose metadata lists only the newest version.
    var mode: String?

    private let database: SQLiteDatabase
    private let destinationPath: String
    private let lookup: SQLiteStatement
    private let upsert: SQLiteStatement
    private let listing: SQLiteStatement
    private let listedLookup: SQLiteStatement
    private let derivedInsert: SQLiteStatement
    /// The first write that failed, which `checkWrites` and `save` report: the run goes on
    /// to the next check, but never moves the index in or prunes on a state it could not write.
    private var failure: String?

    static func file(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/state.sqlite")
    }

    /// The line-format state file an earlier version kept.
    static func legacyFile(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/state")
    }

    /// Opens DEST's state, creating it (from a legacy state file, when there is one).
    /// A database that cannot be read is started afresh: it only saves re-hashing.
    static func open(in destination: URL) throws -> MirrorState {
        let path = file(in: destination).path
        guard SQLiteDatabase.isLibraryAvailable else {
            throw MirrorError.unwritable(destination: destination.path, reason: "it keeps its state in SQLite, and libsqlite3 is not installed")
        }
        // SQLite follows links: a link in place of the database or its journal, carried in
        // with a copied folder, would have it write outside DEST. Only files are kept.
        for suffix in ["", "-journal"] {
            var info = stat()
            if lstat(path + suffix, &info) == 0, info.st_mode & S_IFMT != S_IFREG { unlink(path + suffix) }
        }
        do {
            return try MirrorState(path: path, destination: destination)
        } catch {
            for suffix in ["", "-journal"] { unlink(path + suffix) }
            do {
                return try MirrorState(path: path, destination: destination)
            } catch {
                throw MirrorError.unwritable(destination: destination.path, reason: "its state \(path) cannot be opened: \(Self.reason(error))")
            }
        }
    }

    private init(path: String, destination: URL) throws {
        destinationPath = destination.path
        let isNew = access(path, F_OK) != 0
        database = try SQLiteDatabase(path: path, readOnly: false)
        // A few MiB of cache and no memory map: the point of the database is flat memory.
        try database.execute(
            """
            PRAGMA cache_size = -4096; PRAGMA mmap_size = 0;
            CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL, modified INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS listed(path TEXT PRIMARY KEY) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS derived(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL) WITHOUT ROWID;
            """)
        lookup = try database.prepare("SELECT sha256, size, modified FROM files WHERE path = ?1")
        upsert = try database.prepare("INSERT OR REPLACE INTO files(path, sha256, size, modified) VALUES (?1, ?2, ?3, ?4)")
        listing = try database.prepare("INSERT OR IGNORE INTO listed(path) VALUES (?1)")
        listedLookup = try database.prepare("SELECT 1 FROM listed WHERE path = ?1")
        derivedInsert = try database.prepare("INSERT OR REPLACE INTO derived(path, sha256) VALUES (?1, ?2)")
        let settings = try database.prepare("SELECT key, value FROM settings")
        while try settings.step() {
            switch settings.text(0) {
            case "etag": etag = settings.text(1)
            case "mode": mode = settings.text(1)
            default: break
            }
        }
        try database.execute("BEGIN")
        if isNew { try importLegacyFile() }
    }

    /// Reads an earlier version's line-format state a chunk at a time, then removes it.
    private func importLegacyFile() throws {
        let legacy = Self.legacyFile(in: URL(fileURLWithPath: destinationPath, isDirectory: true)).path
        guard access(legacy, F_OK) == 0 else { return }
        var reader = MirrorStateLines()
        _ = FileDescriptorIO.readChunks(of: legacy) { chunk in reader.read(chunk) { self.apply($0) } }
        reader.finish { apply($0) }
        try save()
        unlink(legacy)
    }

    private func apply(_ line: MirrorStateLines.Line) {
        switch line {
        case .etag(let value): etag = value
        case .mode(let value): mode = value
        case .record(let path, let record): store(path, record)
        }
    }

    /// The record for `path`, or nil.
    subscript(path: String) -> Record? {
        lookup.reset()
        lookup.bind(1, path)
        guard (try? lookup.step()) == true else { return nil }
        let record = Record(sha256: lookup.text(0), size: Int64(lookup.integer(1)), modified: Int64(lookup.integer(2)))
        lookup.reset()
        return record
    }

    /// How many files have a record.
    var count: Int {
        guard let statement = try? database.prepare("SELECT count(*) FROM files"), (try? statement.step()) == true else { return 0 }
        return statement.integer(0)
    }

    /// Every record, in path order. A read error ends the walk early, as a missing record
    /// would: the file is then fetched again.
    func forEachRecord(_ body: (String, Record) throws -> Void) rethrows {
        guard let statement = try? database.prepare("SELECT path, sha256, size, modified FROM files ORDER BY path") else { return }
        while (try? statement.step()) == true {
            try body(statement.text(0), Record(sha256: statement.text(1), size: Int64(statement.integer(2)), modified: Int64(statement.integer(3))))
        }
    }

    /// Size and modification time (nanoseconds) of a file, or nil when it is missing.
    static func stamp(_ url: URL) -> (size: Int64, modified: Int64)? { stamp(path: url.path) }

    static func stamp(path: String) -> (size: Int64, modified: Int64)? { FileStamp.of(path: path) }

    /// True when the file is exactly as it was when it was last verified. The path is
    /// joined as text: `URL.appendingPathComponent` stats the result to decide whether it
    /// is a folder, which doubled the system calls of a re-sync.
    func isIntact(_ path: String, sha256: String, in destination: URL) -> Bool {
        isIntact(path, sha256: sha256, inFolder: destination.path)
    }

    func isIntact(_ path: String, sha256: String, inFolder folder: String) -> Bool {
        guard let record = self[path], record.sha256 == sha256 else { return false }
        return Self.matches(record, atPath: folder + "/" + path)
    }

    /// Whether the file at `path` has the size and modification time `record` holds.
    static func matches(_ record: Record, atPath path: String) -> Bool {
        guard let stamp = stamp(path: path) else { return false }
        return stamp.size == record.size && stamp.modified == record.modified
    }

    /// Records the file at `path` in DEST as verified to have `sha256`, as it is on disk
    /// now. Returns its size, or nil when it is missing.
    @discardableResult
    func record(_ path: String, sha256: String, in destination: URL) -> Int64? {
        guard let stamp = Self.stamp(path: destination.path + "/" + path) else { return nil }
        store(path, Record(sha256: sha256, size: stamp.size, modified: stamp.modified))
        return stamp.size
    }

    /// Marks the file damaged, so the next sync fetches it again.
    func markDamaged(_ path: String, sha256: String) {
        store(path, .damaged(sha256))
    }

    private func store(_ path: String, _ record: Record) {
        upsert.reset()
        upsert.bind(1, path)
        upsert.bind(2, record.sha256)
        upsert.bind(3, Int(record.size))
        upsert.bind(4, Int(record.modified))
        note { try upsert.run() }
    }

    private func note(_ write: () throws -> Void) {
        do { try write() } catch { failure = failure ?? Self.reason(error) }
    }

    /// SQLite's own words for a failure, without the search index's wording around them.
    private static func reason(_ error: Error) -> String {
        if case SearchIndexError.database(_, let message) = error { return message }
        return String(describing: error)
    }

    // MARK: What one run lists

    /// Forgets the last run's list, before a run lists what the index names.
    func beginListing() {
        note { try database.execute("DELETE FROM listed; DELETE FROM derived") }
    }

    /// Adds `path` to what this run's index names. True the first time, so each file is
    /// fetched once however many entries list it; true too when the write failed, so the
    /// file is still checked (the failure stops the run at `checkWrites`).
    @discardableResult
    func markListed(_ path: String) -> Bool {
        listing.reset()
        listing.bind(1, path)
        var added = true
        note {
            try listing.run()
            added = database.changes > 0
        }
        return added
    }

    /// Whether this run's index names `path`: only a lookup that finds no row says no, as
    /// the answer decides what `--prune` deletes.
    func isListed(_ path: String) -> Bool {
        listedLookup.reset()
        listedLookup.bind(1, path)
        defer { listedLookup.reset() }
        return (try? listedLookup.step()) != false
    }

    /// Drops the records of files this run's index does not name.
    func keepOnlyListed() {
        note { try database.execute("DELETE FROM files WHERE path NOT IN (SELECT path FROM listed)") }
    }

    /// A metadata file staged from a split index's digest file: once it is in place
    /// (`recordDerived`), its record says it came from that digest, so the next sync keeps it.
    func noteDerived(_ path: String, sha256: String) {
        derivedInsert.reset()
        derivedInsert.bind(1, path)
        derivedInsert.bind(2, sha256)
        note { try derivedInsert.run() }
    }

    /// Records every file `noteDerived` named, as it now is in DEST.
    func recordDerived(in destination: URL) {
        guard let statement = try? database.prepare("SELECT path, sha256 FROM derived") else { return }
        while (try? statement.step()) == true {
            record(statement.text(0), sha256: statement.text(1), in: destination)
        }
    }

    /// Throws when a write to the state failed: before the index moves in, and before
    /// `--prune` trusts what was listed.
    func checkWrites() throws {
        if let failure {
            throw MirrorError.unwritable(destination: destinationPath, reason: "its state could not be written: \(failure)")
        }
    }

    /// Makes every change so far durable, with the ETag and mode.
    func save() throws {
        let settings = try database.prepare("INSERT OR REPLACE INTO settings(key, value) VALUES (?1, ?2)")
        let clear = try database.prepare("DELETE FROM settings WHERE key = ?1")
        for (key, value) in [("etag", etag), ("mode", mode)] {
            let statement = value == nil ? clear : settings
            statement.reset()
            statement.bind(1, key)
            if let value { statement.bind(2, value) }
            note { try statement.run() }
        }
        if let failure {
            self.failure = nil
            try? database.execute("ROLLBACK; BEGIN")
            throw MirrorError.unwritable(destination: destinationPath, reason: "its state could not be written: \(failure)")
        }
        do {
            try database.execute("COMMIT; BEGIN")
        } catch {
            throw MirrorError.unwritable(destination: destinationPath, reason: "its state could not be written: \(Self.reason(error))")
        }
    }
}

/// The line format an earlier version kept its state in, read a chunk at a time: an `etag`
/// or `mode` line, or an `archive` record of path, hash, size and time. Anything else is
/// skipped. Parsed as bytes: splitting a String walks grapheme clusters.
struct MirrorStateLines {
    enum Line {
        case etag(String)
        case mode(String)
        case record(String, MirrorState.Record)
    }

    /// The end of the last chunk, after its last newline.
    private var carried: [UInt8] = []

    mutating func read(_ chunk: UnsafeRawBufferPointer, _ body: (Line) -> Void) {
        var start = 0
        for (position, byte) in chunk.enumerated() where byte == UInt8(ascii: "\n") {
            if carried.isEmpty {
                Self.parse(UnsafeRawBufferPointer(rebasing: chunk[start..<position]), body)
            } else {
                carried.append(contentsOf: chunk[start..<position])
                carried.withUnsafeBytes { Self.parse($0, body) }
                carried.removeAll(keepingCapacity: true)
            }
            start = position + 1
        }
        carried.append(contentsOf: chunk[start...])
    }

    /// Reads a last line that has no newline.
    mutating func finish(_ body: (Line) -> Void) {
        carried.withUnsafeBytes { Self.parse($0, body) }
        carried = []
    }

    static func parse(_ line: UnsafeRawBufferPointer, _ body: (Line) -> Void) {
        let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if fields.count == 2, fields[0] == "etag" {
            body(.etag(fields[1]))
        } else if fields.count == 2, fields[0] == "mode" {
            body(.mode(fields[1]))
        } else if fields.count == 5, fields[0] == "archive", let size = Int64(fields[3]), let modified = Int64(fields[4]) {
            body(.record(fields[1], MirrorState.Record(sha256: fields[2], size: size, modified: modified)))
        }
    }
}
