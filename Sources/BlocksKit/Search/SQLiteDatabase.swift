import BlocksSQLite

/// One SQLite connection, for the search index and the mirror's state. Closed when the
/// last statement using it is gone.
final class SQLiteDatabase {
    let path: String
    fileprivate let handle: OpaquePointer

    /// Whether libsqlite3 loaded (loading it if needed).
    static var isLibraryAvailable: Bool { blocks_sqlite_available() }

    /// Without libsqlite3 the index cannot open, and search falls back to reading every
    /// manifest: slower, but the same results.
    init(path: String, readOnly: Bool) throws {
        self.path = path
        guard blocks_sqlite_available() else {
            throw SearchIndexError.database(path: path, message: "libsqlite3 is not installed")
        }
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = blocks_sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: blocks_sqlite3_errmsg($0)) } ?? String(cString: blocks_sqlite3_errstr(code))
            blocks_sqlite3_close_v2(opened)
            throw SearchIndexError.database(path: path, message: message)
        }
        handle = opened
    }

    deinit { blocks_sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard blocks_sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            blocks_sqlite3_free(message)
            throw SearchIndexError.database(path: path, message: text)
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard blocks_sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SearchIndexError.database(path: path, message: lastError)
        }
        return SQLiteStatement(statement, database: self)
    }

    var lastError: String { String(cString: blocks_sqlite3_errmsg(handle)) }

    /// Rows the last INSERT, UPDATE or DELETE changed: 0 for an `INSERT OR IGNORE` that
    /// found its row already there.
    var changes: Int { Int(blocks_sqlite3_changes(handle)) }
}

/// A prepared statement, reused with `reset` and fresh bindings.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { blocks_sqlite3_finalize(handle) }

    func reset() {
        blocks_sqlite3_reset(handle)
        blocks_sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ value: Int) {
        blocks_sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) { blocks_sqlite_bind_transient_text(handle, index, $0.baseAddress, Int32(utf8.count)) }
        }
    }

    func bind(_ index: Int32, bytes: [UInt8]) {
        // A zero-length blob still needs a non-null pointer, or SQLite stores NULL.
        if bytes.isEmpty {
            blocks_sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        bytes.withUnsafeBytes { _ = blocks_sqlite_bind_transient_blob(handle, index, $0.baseAddress, Int32($0.count)) }
    }

    /// Steps once: true for a row, false when done.
    func step() throws -> Bool {
        switch blocks_sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SearchIndexError.database(path: database.path, message: database.lastError)
        }
    }

    /// Steps a statement that returns no rows.
    func run() throws {
        _ = try step()
    }

    func integer(_ column: Int32) -> Int {
        Int(blocks_sqlite3_column_int64(handle, column))
    }

    func text(_ column: Int32) -> String {
        guard let base = blocks_sqlite3_column_text(handle, column) else { return "" }
        let count = Int(blocks_sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    func bytes(_ column: Int32) -> [UInt8] {
        withBytes(column) { Array($0) }
    }

    /// The column's bytes, valid only inside `body`.
    func withBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // The pointer first, then the size, as SQLite's documentation asks.
        let base = blocks_sqlite3_column_blob(handle, column)
        let count = Int(blocks_sqlite3_column_bytes(handle, column))
        guard let base, count > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
