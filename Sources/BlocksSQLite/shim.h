#ifndef BLOCKS_SQLITE_SHIM_H
#define BLOCKS_SQLITE_SHIM_H
#include <sqlite3.h>

#include "../BlocksLazyLoading/lazy_loading.h"

// Every SQLite function SQLiteDatabase.swift uses. Only a search over a large
// `--registry` folder and a mirror's state need it, so the embedded catalog never maps the library.
#define BLOCKS_SQLITE_FUNCTIONS(F, V, P) \
    F(int, sqlite3_open_v2, (const char *path, sqlite3 **database, int flags, const char *vfs), (path, database, flags, vfs)) \
    F(const char *, sqlite3_errmsg, (sqlite3 *database), (database)) \
    F(const char *, sqlite3_errstr, (int code), (code)) \
    F(int, sqlite3_close_v2, (sqlite3 *database), (database)) \
    F(int, sqlite3_exec, (sqlite3 *database, const char *sql, int (*callback)(void *, int, char **, char **), void *argument, char **message), \
      (database, sql, callback, argument, message)) \
    V(sqlite3_free, (void *pointer), (pointer)) \
    F(int, sqlite3_prepare_v2, (sqlite3 *database, const char *sql, int length, sqlite3_stmt **statement, const char **tail), \
      (database, sql, length, statement, tail)) \
    F(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_reset, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value)) \
    F(int, sqlite3_bind_zeroblob, (sqlite3_stmt *statement, int index, int count), (statement, index, count)) \
    F(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *text, int length, void (*destructor)(void *)), \
      (statement, index, text, length, destructor)) \
    F(int, sqlite3_bind_blob, (sqlite3_stmt *statement, int index, const void *bytes, int length, void (*destructor)(void *)), \
      (statement, index, bytes, length, destructor)) \
    F(int, sqlite3_step, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_changes, (sqlite3 *database), (database)) \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column))

#if defined(__APPLE__)
// The system's copy, which macOS ships with its header.
BLOCKS_LAZY_LIBRARY(sqlite, BLOCKS_SQLITE_FUNCTIONS, "/usr/lib/libsqlite3.dylib", "libsqlite3.dylib")
#else
BLOCKS_LAZY_LIBRARY(sqlite, BLOCKS_SQLITE_FUNCTIONS, "libsqlite3.so.0", "libsqlite3.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_sqlite_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_SQLITE_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
// These wrappers bind a copy of the caller's bytes, so Swift buffers need not outlive the call.
static inline int blocks_sqlite_bind_transient_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return blocks_sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int blocks_sqlite_bind_transient_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return blocks_sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
