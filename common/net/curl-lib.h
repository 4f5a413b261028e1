/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CURL_LIB_H
#define CURL_LIB_H

/*
 * libcurl for the three files that speak through it: smtp.c, http.c and
 * imap.c, the only ones that include this header (and so <curl/curl.h>);
 * commands reach them through smtp.h, http.h and imap.h. libcurl is
 * loaded when one of them first needs it (dynlib.h), so a run that sends
 * and fetches nothing never maps it and the ~20 libraries under it.
 *
 * curl_lib_load() first; then every libcurl function they call is
 * curl_lib.<name without "curl_">, with the type <curl/curl.h> gives it:
 * curl_lib.easy_perform(c) for curl_easy_perform(c). (Without the gcc
 * type checks <curl/curl.h> puts on curl_easy_setopt() and
 * curl_easy_getinfo() calls: their values are passed as libcurl reads
 * them, long, a pointer, a function or curl_off_t, casts written out.)
 */

#include <curl/curl.h>

#define CURL_LIB_FUNCTIONS(X) \
	X(global_init) \
	X(global_cleanup) \
	X(easy_init) \
	X(easy_duphandle) \
	X(easy_cleanup) \
	X(easy_setopt) \
	X(easy_perform) \
	X(easy_getinfo) \
	X(easy_strerror) \
	X(easy_send) \
	X(easy_recv)

struct curl_lib {
#define CURL_LIB_FIELD(name) __typeof__(curl_##name) *name;
	CURL_LIB_FUNCTIONS(CURL_LIB_FIELD)
#undef CURL_LIB_FIELD
};
extern struct curl_lib curl_lib;

/* Loads libcurl (once): 0, or -1 reported, and nothing of curl_lib may be called. */
int curl_lib_load(void);

#endif
