/* SPDX-License-Identifier: GPL-2.0-only */
#include "version.h"

/* Set by the Makefile from VERSION and the commit; a build that did not say has no version. */
#ifndef MAINT_VERSION
#define MAINT_VERSION "unknown"
#endif

const char *maint_version(void)
{
	return MAINT_VERSION;
}
