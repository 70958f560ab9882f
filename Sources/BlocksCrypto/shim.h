#ifndef BLOCKS_CRYPTO_SHIM_H
#define BLOCKS_CRYPTO_SHIM_H
#include <stddef.h>
#include <stdint.h>
#if __has_include(<openssl/evp.h>) || !defined(__APPLE__)
#include <openssl/crypto.h>
#include <openssl/evp.h>
#else
// Homebrew's OpenSSL is keg-only, so on macOS its headers may not be on the default
// path. These prototypes are the same in OpenSSL 1.1 and 3.
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;
EVP_MD_CTX *EVP_MD_CTX_new(void);
void EVP_MD_CTX_free(EVP_MD_CTX *context);
const EVP_MD *EVP_sha256(void);
int EVP_DigestInit_ex(EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine);
int EVP_DigestUpdate(EVP_MD_CTX *context, const void *bytes, size_t count);
int EVP_DigestFinal_ex(EVP_MD_CTX *context, unsigned char *digest, unsigned int *length);
typedef struct ossl_init_settings_st OPENSSL_INIT_SETTINGS;
int OPENSSL_init_crypto(uint64_t options, const OPENSSL_INIT_SETTINGS *settings);
#define OPENSSL_INIT_NO_LOAD_CONFIG 0x00000080L
#endif

#include "../BlocksLazyLoading/lazy_loading.h"

// Every libcrypto function SHA256.swift uses.
#define BLOCKS_CRYPTO_FUNCTIONS(F, V, P) \
    F(int, OPENSSL_init_crypto, (uint64_t options, const OPENSSL_INIT_SETTINGS *settings), (options, settings)) \
    F(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ()) \
    V(EVP_MD_CTX_free, (EVP_MD_CTX *context), (context)) \
    F(const EVP_MD *, EVP_sha256, (void), ()) \
    F(int, EVP_DigestInit_ex, (EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine), (context, type, engine)) \
    F(int, EVP_DigestUpdate, (EVP_MD_CTX *context, const void *bytes, size_t count), (context, bytes, count)) \
    F(int, EVP_DigestFinal_ex, (EVP_MD_CTX *context, unsigned char *digest, unsigned int *length), \
      (context, digest, length))

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
