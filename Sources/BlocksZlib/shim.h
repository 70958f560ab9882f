#ifndef BLOCKS_ZLIB_SHIM_H
#define BLOCKS_ZLIB_SHIM_H
// zlib's deflate and CRC-32, for the registry's precompressed `.gz` files
// (Archive/Zlib.swift), whose large index is deflated in pieces on every core, which
// libarchive's gzip writer cannot do. libarchive, which reads and writes the block
// archives, already depends on zlib, so this maps nothing new.
#include <zlib.h>

#include "../BlocksLazyLoading/lazy_loading.h"

// Every zlib function Zlib.swift uses.
#define BLOCKS_ZLIB_FUNCTIONS(F, V, P) \
    F(int, deflateInit2_, \
      (z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy, const char *version, \
       int stream_size), \
      (strm, level, method, windowBits, memLevel, strategy, version, stream_size)) \
    F(int, deflate, (z_streamp strm, int flush), (strm, flush)) \
    F(int, deflateReset, (z_streamp strm), (strm)) \
    F(int, deflateEnd, (z_streamp strm), (strm)) \
    F(int, deflateSetDictionary, (z_streamp strm, const Bytef *dictionary, uInt length), (strm, dictionary, length)) \
    F(uLong, deflateBound, (z_streamp strm, uLong sourceLength), (strm, sourceLength)) \
    F(uLong, crc32, (uLong crc, const Bytef *bytes, uInt length), (crc, bytes, length))

#if defined(__APPLE__)
BLOCKS_LAZY_LIBRARY(zlib, BLOCKS_ZLIB_FUNCTIONS, "/usr/lib/libz.1.dylib", "libz.1.dylib")
#else
BLOCKS_LAZY_LIBRARY(zlib, BLOCKS_ZLIB_FUNCTIONS, "libz.so.1", "libz.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_zlib_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_ZLIB_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// deflateInit2 is a macro over deflateInit2_ that passes the header's version and the
// stream's size: a raw deflate stream (no zlib or gzip wrapper), 32 KB window, the
// default memory level and strategy.
static inline int blocks_deflate_init_raw(z_streamp strm, int level) {
    return blocks_deflateInit2_(strm, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream));
}
#endif
