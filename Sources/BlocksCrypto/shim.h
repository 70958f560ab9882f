#ifndef BLOCKS_CRYPTO_SHIM_H
#define BLOCKS_CRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
