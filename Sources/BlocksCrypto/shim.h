#ifndef BLOCKS_CRYPTO_SHIM_H
#define BLOCKS_CRYPTO_SHIM_H
#include <stddef.h>
#include <stdint.h>
// SHA256_Init and its two partners are deprecated in OpenSSL 3 but still exported by
// every 3.x libcrypto. They hash without the provider machinery, whose first use (an
// EVP_MD_fetch) costs a millisecond: a third of a whole `blocks add`.
#define OPENSSL_SUPPRESS_DEPRECATED
#if __has_include(<openssl/sha.h>) || !defined(__APPLE__)
#include <openssl/sha.h>
#else
// Homebrew's OpenSSL is keg-only, so on macOS its headers may not be on the default
// path. The layout and prototypes are the same in OpenSSL 1.1 and 3.
typedef struct SHA256state_st {
    unsigned int h[8];
    unsigned int Nl, Nh;
    unsigned int data[16];
    unsigned int num, md_len;
} SHA256_CTX;
int SHA256_Init(SHA256_CTX *context);
int SHA256_Update(SHA256_CTX *context, const void *bytes, size_t count);
int SHA256_Final(unsigned char *digest, SHA256_CTX *context);
#endif

#include "../BlocksLazyLoading/lazy_loading.h"

// Every libcrypto function SHA256.swift uses.
#define BLOCKS_CRYPTO_FUNCTIONS(F, V, P) \
    F(int, SHA256_Init, (SHA256_CTX *context), (context)) \
    F(int, SHA256_Update, (SHA256_CTX *context, const void *bytes, size_t count), (context, bytes, count)) \
    F(int, SHA256_Final, (unsigned char *digest, SHA256_CTX *context), (digest, context))

#if defined(__APPLE__)
// Never the bare "libcrypto.dylib": on macOS that finds the system's copy in /usr/lib,
// which aborts any process that loads it without a version.
BLOCKS_LAZY_LIBRARY(crypto, BLOCKS_CRYPTO_FUNCTIONS,
    "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib", "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib",
    "libcrypto.3.dylib")
#else
BLOCKS_LAZY_LIBRARY(crypto, BLOCKS_CRYPTO_FUNCTIONS, "libcrypto.so.3", "libcrypto.so", "libcrypto.so.1.1")
#endif
#define BLOCKS_LAZY_TABLE blocks_crypto_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_CRYPTO_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

#endif
