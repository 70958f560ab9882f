#ifndef BLOCKS_CRYPTO_SHIM_H
#define BLOCKS_CRYPTO_SHIM_H
// SHA-256 from Nettle and Ed25519 from its libhogweed, on Linux only: macOS has it in the system (CommonCrypto, used by
// Platform/Cryptography.swift), and Package.swift makes BlocksKit depend on this module
// only on Linux. On Apple systems the header therefore declares nothing.
#if !defined(__APPLE__)
#include <stddef.h>
#include <stdint.h>

// Nettle is the library libarchive already depends on. It picks the CPU's SHA instructions
// at run time as OpenSSL does, but it is a small library: opening it costs a fifth of a
// millisecond where libcrypto costs one and a half, on every `add`.
#if __has_include(<nettle/sha2.h>)
#include <nettle/sha2.h>
#else
// Without nettle-dev, the layout of `struct sha256_ctx` since Nettle 3.0.
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

// Every Nettle function Platform/Cryptography.swift uses.
#define BLOCKS_CRYPTO_FUNCTIONS(F, V, P) \
    V(nettle_sha256_init, (struct sha256_ctx *context), (context)) \
    V(nettle_sha256_update, (struct sha256_ctx *context, size_t length, const uint8_t *data), (context, length, data)) \
    V(nettle_sha256_digest, (struct sha256_ctx *context, size_t length, uint8_t *digest), (context, length, digest))

BLOCKS_LAZY_LIBRARY(crypto, BLOCKS_CRYPTO_FUNCTIONS, "libnettle.so.8", "libnettle.so")
#define BLOCKS_LAZY_TABLE blocks_crypto_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_CRYPTO_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// Ed25519 (signed registries) from libhogweed, Nettle's public-key half, a second library
// opened on first use: only `build --sign`, `keygen` and pinned registries map it.
#if __has_include(<nettle/eddsa.h>)
#include <nettle/eddsa.h>
#else
// Without nettle-dev, the prototypes of <nettle/eddsa.h> since Nettle 3.1.
void nettle_ed25519_sha512_public_key(uint8_t *pub, const uint8_t *priv);
void nettle_ed25519_sha512_sign(const uint8_t *pub, const uint8_t *priv, size_t length, const uint8_t *msg, uint8_t *signature);
int nettle_ed25519_sha512_verify(const uint8_t *pub, size_t length, const uint8_t *msg, const uint8_t *signature);
#endif

// Every libhogweed function Platform/Cryptography.swift uses.
#define BLOCKS_SIGNING_FUNCTIONS(F, V, P) \
    V(nettle_ed25519_sha512_public_key, (uint8_t *pub, const uint8_t *priv), (pub, priv)) \
    V(nettle_ed25519_sha512_sign, (const uint8_t *pub, const uint8_t *priv, size_t length, const uint8_t *msg, uint8_t *signature), (pub, priv, length, msg, signature)) \
    F(int, nettle_ed25519_sha512_verify, (const uint8_t *pub, size_t length, const uint8_t *msg, const uint8_t *signature), (pub, length, msg, signature))

BLOCKS_LAZY_LIBRARY(signing, BLOCKS_SIGNING_FUNCTIONS, "libhogweed.so.6", "libhogweed.so")
#define BLOCKS_LAZY_TABLE blocks_signing_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_SIGNING_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// The kernel's random source, for secret keys (glibc 2.25+; Swift's Glibc module does
// not import <sys/random.h>).
#include <sys/random.h>
static inline long blocks_getrandom(void *buffer, size_t length) { return (long)getrandom(buffer, length, 0); }
#endif

#endif
