#ifndef GUARDIAN_COPENSSL_SHIM_H
#define GUARDIAN_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif
