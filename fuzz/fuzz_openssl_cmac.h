/* OpenSSL's AES-CMAC (EVP_MAC "CMAC"), the reference of fuzz_cmac and
 * fuzz_aes_many. */
#ifndef HWC_FUZZ_OPENSSL_CMAC_H
#define HWC_FUZZ_OPENSSL_CMAC_H

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "fuzz_common.h"

static inline void openssl_cmac(const uint8_t *key, size_t kl, const uint8_t *msg, size_t len, uint8_t tag[16]) {
    static EVP_MAC *mac;
    if (!mac) mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    const char *cipher = kl == 16 ? "AES-128-CBC" : kl == 24 ? "AES-192-CBC" : "AES-256-CBC";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0),
                           OSSL_PARAM_construct_end()};
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    size_t out = 0;
    FZ_CHECK(c && EVP_MAC_init(c, key, kl, params) == 1 && EVP_MAC_update(c, msg, len) == 1 &&
             EVP_MAC_final(c, tag, &out, 16) == 1 && out == 16, "OpenSSL CMAC");
    EVP_MAC_CTX_free(c);
}

#endif
