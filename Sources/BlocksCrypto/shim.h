#ifndef BLOCKS_CRYPTO_SHIM_H
#define BLOCKS_CRYPTO_SHIM_H
#include <stddef.h>
#include <stdint.h>

// SHA-256 from Nettle, which libarchive already depends on. It picks the CPU's SHA
// instructions at run time as OpenSSL does, but it is a small library: opening it costs
// a fifth of a millisecond where libcrypto costs one and a half, on every `add`.
#if __has_include(<nettle/sha2.h>)
#include <nettle/sha2.h>
#else
// Homebrew keeps Nettle's headers off the default path. This is the layout of
// `struct sha256_ctx` since Nettle 3.0.
struct sha256_ctx {
    uint32_t state[8];
    uint64_t count;
    unsigned int index;
    uint8_t block[64];
};
void nettle_sha256_init(struct sha256_ctx *context);
void nettle_sha256_update(struct sha256_ctx *context, size_t length, const uint8_t *data);
void nettle_sha256_digest(struct sha256_ctx *context, size_t length, uint8_t *digest);
#endif

#include "../BlocksLazyLoading/lazy_loading.h"

// Every Nettle function SHA256.swift uses.
#define BLOCKS_CRYPTO_FUNCTIONS(F, V, P) \
    V(nettle_sha256_init, (struct sha256_ctx *context), (context)) \
    V(nettle_sha256_update, (struct sha256_ctx *context, size_t length, const uint8_t *data), (context, length, data)) \
    V(nettle_sha256_digest, (struct sha256_ctx *context, size_t length, uint8_t *digest), (context, length, digest))

#if defined(__APPLE__)
BLOCKS_LAZY_LIBRARY(crypto, BLOCKS_CRYPTO_FUNCTIONS,
    "/opt/homebrew/opt/nettle/lib/libnettle.8.dylib", "/usr/local/opt/nettle/lib/libnettle.8.dylib", "libnettle.8.dylib")
#else
BLOCKS_LAZY_LIBRARY(crypto, BLOCKS_CRYPTO_FUNCTIONS, "libnettle.so.8", "libnettle.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_crypto_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_CRYPTO_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

#endif
