#ifndef BLOCKS_ARCHIVE_SHIM_H
#define BLOCKS_ARCHIVE_SHIM_H
// Homebrew's libarchive is keg-only, so on macOS its headers are not on the default path.
#if __has_include(<archive.h>) || !defined(__APPLE__)
#include <archive.h>
#include <archive_entry.h>
#elif __has_include("/opt/homebrew/opt/libarchive/include/archive.h")
#include "/opt/homebrew/opt/libarchive/include/archive.h"
#include "/opt/homebrew/opt/libarchive/include/archive_entry.h"
#else
#include "/usr/local/opt/libarchive/include/archive.h"
#include "/usr/local/opt/libarchive/include/archive_entry.h"
#endif
#include <locale.h>

// ---- Lazy loading: identical in every shim; copy this block for a new library. ----
//
// The library is not linked. It is opened with dlopen the first time a wrapper runs, so
// a command that never uses it never maps it (or its dependencies) at start-up. The
// library's own header is still included, for types, constants and prototypes; the
// prototypes give each function pointer its exact type, so a wrapper whose arguments do
// not match the real function fails to compile. Calling a real function directly from
// Swift fails to link, which keeps every call on the lazy path.
//
// A library's function list is a macro taking three macros, one per kind of entry:
//   F(return type, name, (typed parameters), (argument names))  wrapper blocks_<name>
//   V(name, (typed parameters), (argument names))               the same, returning void
//   P(name)                     resolved only, for variadic functions wrapped by hand
// BLOCKS_LAZY_LIBRARY(lib, LIST, candidate file names...) then defines:
//   blocks_<lib>_available()     true once the library and every listed function resolved;
//                                check it before any wrapper (a wrapper would call NULL)
//   blocks_<lib>_library()       the table of function pointers, loaded once (pthread_once)
//                                per object file that inlines it: Swift may emit a wrapper
//                                into several, each then opens the same library (dlopen
//                                counts references) and repeats a few dlsym look-ups
//   blocks_<lib>_loads_from(c, n) whether the first of n candidate names c that opens has
//                                every function; for tests (a loaded library stays open)
// and BLOCKS_LAZY_WRAPPERS(LIST), with BLOCKS_LAZY_TABLE defined as blocks_<lib>_library(),
// defines one static inline wrapper per F and V entry.
#ifndef BLOCKS_LAZY_LOADING
#define BLOCKS_LAZY_LOADING
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define BLOCKS_LAZY_FIELD(name) __typeof__(name) *fn_##name;
#define BLOCKS_LAZY_FIELD_F(type, name, params, args) BLOCKS_LAZY_FIELD(name)
#define BLOCKS_LAZY_FIELD_V(name, params, args) BLOCKS_LAZY_FIELD(name)
#define BLOCKS_LAZY_RESOLVE(name) \
    table->fn_##name = (__typeof__(name) *)dlsym(handle, #name); complete = complete && table->fn_##name;
#define BLOCKS_LAZY_RESOLVE_F(type, name, params, args) BLOCKS_LAZY_RESOLVE(name)
#define BLOCKS_LAZY_RESOLVE_V(name, params, args) BLOCKS_LAZY_RESOLVE(name)
#define BLOCKS_LAZY_WRAP_F(type, name, params, args) \
    static inline type blocks_##name params { return BLOCKS_LAZY_TABLE->fn_##name args; }
#define BLOCKS_LAZY_WRAP_V(name, params, args) \
    static inline void blocks_##name params { BLOCKS_LAZY_TABLE->fn_##name args; }
#define BLOCKS_LAZY_NO_WRAP(name)

#define BLOCKS_LAZY_LIBRARY(lib, LIST, ...) \
    typedef struct { \
        bool available; \
        LIST(BLOCKS_LAZY_FIELD_F, BLOCKS_LAZY_FIELD_V, BLOCKS_LAZY_FIELD) \
    } blocks_##lib##_table; \
    static inline bool blocks_##lib##_load(blocks_##lib##_table *table, const char *const *candidates, size_t count) { \
        for (size_t index = 0; index < count; index++) { \
            void *handle = dlopen(candidates[index], RTLD_LAZY | RTLD_LOCAL); \
            if (!handle) continue; \
            bool complete = true; \
            LIST(BLOCKS_LAZY_RESOLVE_F, BLOCKS_LAZY_RESOLVE_V, BLOCKS_LAZY_RESOLVE) \
            if (complete) return table->available = true; \
            dlclose(handle); \
        } \
        return table->available = false; \
    } \
    static inline blocks_##lib##_table *blocks_##lib##_storage(void) { \
        static blocks_##lib##_table table; \
        return &table; \
    } \
    static inline void blocks_##lib##_load_once(void) { \
        static const char *const candidates[] = {__VA_ARGS__}; \
        blocks_##lib##_load(blocks_##lib##_storage(), candidates, sizeof candidates / sizeof candidates[0]); \
    } \
    static inline blocks_##lib##_table *blocks_##lib##_library(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, blocks_##lib##_load_once); \
        return blocks_##lib##_storage(); \
    } \
    static inline bool blocks_##lib##_available(void) { return blocks_##lib##_library()->available; } \
    static inline bool blocks_##lib##_loads_from(const char *const *candidates, size_t count) { \
        blocks_##lib##_table table; \
        return blocks_##lib##_load(&table, candidates, count); \
    }

#define BLOCKS_LAZY_WRAPPERS(LIST) LIST(BLOCKS_LAZY_WRAP_F, BLOCKS_LAZY_WRAP_V, BLOCKS_LAZY_NO_WRAP)
#endif
// ---- End of the lazy loading block. ----
// Every libarchive function LibArchive.swift uses.
#define BLOCKS_ARCHIVE_FUNCTIONS(F, V, P) \
    F(struct archive *, archive_write_new, (void), ()) \
    F(int, archive_write_free, (struct archive *a), (a)) \
    F(int, archive_write_set_format_pax_restricted, (struct archive *a), (a)) \
    F(int, archive_write_set_format_zip, (struct archive *a), (a)) \
    F(int, archive_write_add_filter_gzip, (struct archive *a), (a)) \
    F(int, archive_write_set_options, (struct archive *a, const char *options), (a, options)) \
    F(int, archive_write_set_bytes_in_last_block, (struct archive *a, int bytes), (a, bytes)) \
    F(int, archive_write_open2, \
      (struct archive *a, void *client, archive_open_callback *open, archive_write_callback *write, \
       archive_close_callback *close, archive_free_callback *free), \
      (a, client, open, write, close, free)) \
    F(int, archive_write_header, (struct archive *a, struct archive_entry *e), (a, e)) \
    F(la_ssize_t, archive_write_data, (struct archive *a, const void *bytes, size_t count), (a, bytes, count)) \
    F(int, archive_write_finish_entry, (struct archive *a), (a)) \
    F(int, archive_write_close, (struct archive *a), (a)) \
    F(struct archive *, archive_read_new, (void), ()) \
    F(int, archive_read_free, (struct archive *a), (a)) \
    F(int, archive_read_support_filter_gzip, (struct archive *a), (a)) \
    F(int, archive_read_support_format_tar, (struct archive *a), (a)) \
    F(int, archive_read_support_format_zip, (struct archive *a), (a)) \
    F(int, archive_read_open_filename, (struct archive *a, const char *path, size_t block), (a, path, block)) \
    F(int, archive_read_open_memory, (struct archive *a, const void *bytes, size_t count), (a, bytes, count)) \
    F(int, archive_read_next_header, (struct archive *a, struct archive_entry **e), (a, e)) \
    F(la_ssize_t, archive_read_data, (struct archive *a, void *bytes, size_t count), (a, bytes, count)) \
    F(const char *, archive_error_string, (struct archive *a), (a)) \
    F(int, archive_errno, (struct archive *a), (a)) \
    F(struct archive_entry *, archive_entry_new, (void), ()) \
    V(archive_entry_free, (struct archive_entry *e), (e)) \
    F(struct archive_entry *, archive_entry_clear, (struct archive_entry *e), (e)) \
    V(archive_entry_set_mtime, (struct archive_entry *e, time_t seconds, long nanoseconds), (e, seconds, nanoseconds)) \
    V(archive_entry_set_uid, (struct archive_entry *e, la_int64_t uid), (e, uid)) \
    V(archive_entry_set_gid, (struct archive_entry *e, la_int64_t gid), (e, gid)) \
    V(archive_entry_set_pathname_utf8, (struct archive_entry *e, const char *path), (e, path)) \
    V(archive_entry_set_filetype, (struct archive_entry *e, unsigned int type), (e, type)) \
    V(archive_entry_set_perm, (struct archive_entry *e, __LA_MODE_T mode), (e, mode)) \
    V(archive_entry_set_size, (struct archive_entry *e, la_int64_t size), (e, size)) \
    F(const char *, archive_entry_pathname, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_hardlink, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_hardlink_utf8, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_symlink, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_symlink_utf8, (struct archive_entry *e), (e)) \
    F(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e)) \
    F(int, archive_entry_size_is_set, (struct archive_entry *e), (e)) \
    F(la_int64_t, archive_entry_size, (struct archive_entry *e), (e))

#if defined(__APPLE__)
BLOCKS_LAZY_LIBRARY(archive, BLOCKS_ARCHIVE_FUNCTIONS,
    "/opt/homebrew/opt/libarchive/lib/libarchive.13.dylib", "/usr/local/opt/libarchive/lib/libarchive.13.dylib",
    "libarchive.13.dylib", "libarchive.dylib")
#else
BLOCKS_LAZY_LIBRARY(archive, BLOCKS_ARCHIVE_FUNCTIONS, "libarchive.so.13", "libarchive.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_archive_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_ARCHIVE_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// The AE_IF* constants are casts to a macro type, which Swift does not import.
static const unsigned int blocks_ae_ifmt = AE_IFMT;
static const unsigned int blocks_ae_ifreg = AE_IFREG;
static const unsigned int blocks_ae_ifdir = AE_IFDIR;
static const unsigned int blocks_ae_iflnk = AE_IFLNK;

#endif
