#ifndef BLOCKS_DARWIN_ARCHIVE_H
#define BLOCKS_DARWIN_ARCHIVE_H
// macOS ships libarchive (/usr/lib/libarchive.2.dylib) but not archive.h or archive_entry.h,
// so on Darwin shim.h declares the part of libarchive's API it uses here instead of needing
// a Homebrew package. Each line restates libarchive's public, documented interface
// (archive_read(3), archive_write(3), archive_entry(3)), whose ABI has been stable through
// the 3.x releases. LibArchive.swift is unchanged: the names and types are libarchive's.
//
// DarwinShimTests compiles this file before the real headers on Linux with -Werror, so a
// prototype, type or constant here that differs from libarchive's own fails there.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct archive;
struct archive_entry;

typedef int64_t la_int64_t;
typedef ssize_t la_ssize_t;

typedef la_ssize_t archive_write_callback(struct archive *, void *client, const void *buffer, size_t length);
typedef int archive_open_callback(struct archive *, void *client);
typedef int archive_close_callback(struct archive *, void *client);
typedef int archive_free_callback(struct archive *, void *client);

// Status codes (archive(3)).
#define ARCHIVE_EOF 1
#define ARCHIVE_OK 0
#define ARCHIVE_RETRY (-10)
#define ARCHIVE_WARN (-20)
#define ARCHIVE_FAILED (-25)
#define ARCHIVE_FATAL (-30)

// libarchive 3 declares modes as mode_t outside Windows (16 bits on Darwin).
#define __LA_MODE_T mode_t

// File types as archive_entry_filetype returns them; the values are POSIX's S_IF* bits.
#define AE_IFMT ((__LA_MODE_T)0170000)
#define AE_IFREG ((__LA_MODE_T)0100000)
#define AE_IFLNK ((__LA_MODE_T)0120000)
#define AE_IFDIR ((__LA_MODE_T)0040000)

// Writing (archive_write(3)).
struct archive *archive_write_new(void);
int archive_write_free(struct archive *);
int archive_write_set_format_pax_restricted(struct archive *);
int archive_write_set_format_zip(struct archive *);
int archive_write_add_filter_gzip(struct archive *);
int archive_write_set_options(struct archive *, const char *options);
int archive_write_set_bytes_in_last_block(struct archive *, int bytes_in_last_block);
int archive_write_open(struct archive *, void *client, archive_open_callback *, archive_write_callback *,
                       archive_close_callback *);
int archive_write_header(struct archive *, struct archive_entry *);
la_ssize_t archive_write_data(struct archive *, const void *, size_t);
int archive_write_finish_entry(struct archive *);
int archive_write_close(struct archive *);

// Reading (archive_read(3)).
struct archive *archive_read_new(void);
int archive_read_free(struct archive *);
int archive_read_support_filter_gzip(struct archive *);
int archive_read_support_format_tar(struct archive *);
int archive_read_support_format_zip(struct archive *);
int archive_read_open_filename(struct archive *, const char *filename, size_t block_size);
int archive_read_open_memory(struct archive *, const void *buffer, size_t size);
int archive_read_next_header(struct archive *, struct archive_entry **);
la_ssize_t archive_read_data(struct archive *, void *, size_t);

// Errors (archive_util(3)).
int archive_errno(struct archive *);
const char *archive_error_string(struct archive *);

// Entries (archive_entry(3)).
struct archive_entry *archive_entry_new(void);
void archive_entry_free(struct archive_entry *);
struct archive_entry *archive_entry_clear(struct archive_entry *);
void archive_entry_set_mtime(struct archive_entry *, time_t, long);
void archive_entry_set_uid(struct archive_entry *, la_int64_t);
void archive_entry_set_gid(struct archive_entry *, la_int64_t);
void archive_entry_set_pathname_utf8(struct archive_entry *, const char *);
void archive_entry_set_filetype(struct archive_entry *, unsigned int);
void archive_entry_set_perm(struct archive_entry *, __LA_MODE_T);
void archive_entry_set_size(struct archive_entry *, la_int64_t);
const char *archive_entry_pathname(struct archive_entry *);
const char *archive_entry_pathname_utf8(struct archive_entry *);
const char *archive_entry_hardlink(struct archive_entry *);
const char *archive_entry_hardlink_utf8(struct archive_entry *);
const char *archive_entry_symlink(struct archive_entry *);
const char *archive_entry_symlink_utf8(struct archive_entry *);
__LA_MODE_T archive_entry_filetype(struct archive_entry *);
int archive_entry_size_is_set(struct archive_entry *);
la_int64_t archive_entry_size(struct archive_entry *);

#endif
