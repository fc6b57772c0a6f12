/* SPDX-License-Identifier: MIT */
/* hcomm_res_defs.h - CANN's current place of the channel types. */
#include "hcomm/hcomm_res_defs.h"
