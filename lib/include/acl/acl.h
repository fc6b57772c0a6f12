/* SPDX-License-Identifier: MIT */
/*
 * acl/acl.h - ACL initialisation, and the runtime calls of acl/acl_rt.h
 * (included, as CANN's acl.h does). Same include guard as CANN's.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * aclInit() - initialise ACL for the process.
 * @configPath: a JSON configuration file, or NULL; libhcclthread only
 *	checks that a given file can be read.
 *
 * Other calls do not need it (CANN's do).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_REPEAT_INITIALIZE when already initialised
 * (harmless, as CANN); ACL_ERROR_INVALID_FILE when @configPath cannot be
 * read.
 */
aclError aclInit(const char *configPath);

/**
 * aclFinalize() - end what aclInit() started (one call undoes every
 * aclInit(), as CANN).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_REPEAT_FINALIZE when not initialised.
 */
aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
