#ifndef BLOCKS_ARCHIVE_SHIM_H
#define BLOCKS_ARCHIVE_SHIM_H
// macOS ships libarchive's library but not its headers, so there the few declarations this
// shim needs are our own (darwin_archive.h); everywhere else the real headers are used.
#if defined(__APPLE__)
#include "darwin_archive.h"
#else
#include <archive.h>
#include <archive_entry.h>
#endif
#include <locale.h>

#include "../BlocksLazyLoading/lazy_loading.h"

#if defined(__APPLE__)
// archive_write_open2 appeared in libarchive 3.6; a macOS whose system copy is older lacks it.
// archive_write_open differs only by the free callback, which LibArchive.swift never passes.
#define BLOCKS_ARCHIVE_WRITE_OPEN(F) \
    F(int, archive_write_open, \
      (struct archive *a, void *client, archive_open_callback *open, archive_write_callback *write, \
       archive_close_callback *close), \
      (a, client, open, write, close))
#else
#define BLOCKS_ARCHIVE_WRITE_OPEN(F) \
    F(int, archive_write_open2, \
      (struct archive *a, void *client, archive_open_callback *open, archive_write_callback *write, \
       archive_close_callback *close, archive_free_callback *free), \
      (a, client, open, write, close, free))
#endif
// Every libarchive function LibArchive.swift uses. Modes cross to Swift as unsigned int on
// every system (mode_t is 32 bits in glibc, 16 in Darwin; the wrappers convert), so
// LibArchive.swift has one spelling.
#define BLOCKS_ARCHIVE_FUNCTIONS(F, V, P) \
    F(struct archive *, archive_write_new, (void), ()) \
    F(int, archive_write_free, (struct archive *a), (a)) \
    F(int, archive_write_set_format_pax_restricted, (struct archive *a), (a)) \
    F(int, archive_write_set_format_zip, (struct archive *a), (a)) \
    F(int, archive_write_add_filter_gzip, (struct archive *a), (a)) \
    F(int, archive_write_set_options, (struct archive *a, const char *options), (a, options)) \
    F(int, archive_write_set_bytes_in_last_block, (struct archive *a, int bytes), (a, bytes)) \
    BLOCKS_ARCHIVE_WRITE_OPEN(F) \
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
    V(archive_entry_set_perm, (struct archive_entry *e, unsigned int mode), (e, mode)) \
    V(archive_entry_set_size, (struct archive_entry *e, la_int64_t size), (e, size)) \
    F(const char *, archive_entry_pathname, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_hardlink, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_hardlink_utf8, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_symlink, (struct archive_entry *e), (e)) \
    F(const char *, archive_entry_symlink_utf8, (struct archive_entry *e), (e)) \
    F(unsigned int, archive_entry_filetype, (struct archive_entry *e), (e)) \
    F(int, archive_entry_size_is_set, (struct archive_entry *e), (e)) \
    F(la_int64_t, archive_entry_size, (struct archive_entry *e), (e))

#if defined(__APPLE__)
// The system's copy (in the dyld shared cache since macOS 11, so dlopen finds it though no
// file is there), then Homebrew's where someone has it.
BLOCKS_LAZY_LIBRARY(archive, BLOCKS_ARCHIVE_FUNCTIONS,
    "/usr/lib/libarchive.2.dylib", "libarchive.2.dylib",
    "/opt/homebrew/opt/libarchive/lib/libarchive.13.dylib", "/usr/local/opt/libarchive/lib/libarchive.13.dylib")
#else
BLOCKS_LAZY_LIBRARY(archive, BLOCKS_ARCHIVE_FUNCTIONS, "libarchive.so.13", "libarchive.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_archive_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_ARCHIVE_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

#if defined(__APPLE__)
// The one name LibArchive.swift calls, on top of the older function (`free` must be NULL).
static inline int blocks_archive_write_open2(struct archive *a, void *client, archive_open_callback *open,
                                             archive_write_callback *write, archive_close_callback *close,
                                             archive_free_callback *free) {
    (void)free;
    return blocks_archive_write_open(a, client, open, write, close);
}
#endif

// The AE_IF* constants are casts to a macro type, which Swift does not import.
static const unsigned int blocks_ae_ifmt = AE_IFMT;
static const unsigned int blocks_ae_ifreg = AE_IFREG;
static const unsigned int blocks_ae_ifdir = AE_IFDIR;
static const unsigned int blocks_ae_iflnk = AE_IFLNK;

#endif
