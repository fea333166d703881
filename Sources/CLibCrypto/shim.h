#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
/* OpenSSL's libcrypto: the one-shot digest API and the CSPRNG. */
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif
