#ifndef BLOCKS_SQLITE_SHIM_H
#define BLOCKS_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
// These wrappers bind a copy of the caller's bytes, so Swift buffers need not outlive the call.
static inline int blocks_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int blocks_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
