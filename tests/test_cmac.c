/* placeholder: being written (foundation issue) */
#include "common.h"
