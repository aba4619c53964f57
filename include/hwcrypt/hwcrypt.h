/* hwcrypt umbrella header. */
#ifndef HWCRYPT_H
#define HWCRYPT_H
#include "status.h"
#include "dispatch.h"
#include "aes.h"
#include "cmac.h"
#include "streebog.h"
#include "mpi.h"
#endif
