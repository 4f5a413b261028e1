/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libcurl, loaded on first use (see curl-lib.h).
 */
#include "curl-lib.h"
#include "dynlib.h"
#include "wrapper.h"

struct curl_lib curl_lib;

int curl_lib_load(void)
{
	/* libcurl's ABI has been libcurl.so.4 since 7.16 (2006) */
	static struct dynlib lib = DYNLIB_INIT("libcurl.so.4", "libcurl (SMTP, HTTP and IMAP)");
#define CURL_LIB_ENTRY(name) DYNLIB_FN(curl_, name, curl_lib)
	static const struct dynlib_fn fns[] = { CURL_LIB_FUNCTIONS(CURL_LIB_ENTRY) };
#undef CURL_LIB_ENTRY

	return dynlib_load(&lib, fns, ARRAY_SIZE(fns));
}
