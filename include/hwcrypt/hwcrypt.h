/* hwcrypt umbrella header. Reference: docs/API.md. */
#ifndef HWCRYPT_H
#define HWCRYPT_H
#include "status.h"
#include "dispatch.h"
#include "aes.h"
#include "cmac.h"
#include "gcm.h"
#include "streebog.h"
#include "mpi.h"
#include "batch.h"
#endif
