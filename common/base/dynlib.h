/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DYNLIB_H
#define DYNLIB_H

/*
 * Shared libraries loaded when a program first uses them, not when it
 * starts: libcurl (common/net/curl-lib.h, for smtp.c, http.c and imap.c),
 * libsecret with GLib under it (common/net/secret.c), libopendkim with
 * the resolver's parser (common/mail/attest-dkim.c) and OpenSSL's
 * libcrypto (common/mail/attest-patatt.c). Linked as the programs' NEEDED
 * libraries they were mapped and relocated by every run: some 30
 * libraries of the 55 notify loaded, though most runs send nothing and ask
 * for no password, and six (libcrypto, libopendkim, libdb, libbsd, libmd,
 * libresolv) in every program that reads mail, though most mail carries
 * no signature (t/perf/p0010-startup.sh measures it). This is the one way a library is
 * loaded late (dlopen()); the Makefile compiles against the library's
 * headers and leaves it out of every link (DLOPEN_PKGS), and t/t0001
 * checks that no program or layer links it.
 *
 * A library is loaded once, on the first dynlib_load(), and stays loaded
 * (neither libcurl nor GLib may be unloaded). Each function is taken by
 * its name with the type the library's header declares, into a table of
 * pointers the caller keeps (DYNLIB_FN). A library that cannot be loaded,
 * or lacks a function, is an error naming it; it is not tried again, and
 * the caller returns RESULT_FATAL: a missing library is the installation's
 * fault, not a temporary one.
 */

#include <stddef.h>

struct dynlib {
	const char *soname;	/* the file dlopen() looks for: "libcurl.so.4" */
	const char *what;	/* what it is for, for the message: "libcurl (SMTP, HTTP, IMAP)" */
	void *handle;		/* set once loaded */
	int failed;		/* the load failed and was reported */
};
#define DYNLIB_INIT(soname, what) { soname, what, NULL, 0 }

/* One function to take: its name in the library, and the address of the pointer it goes in. */
struct dynlib_fn {
	const char *name;
	void *fn;
};
/* The entry for the function <prefix><field>, into the pointer table.field. */
#define DYNLIB_FN(prefix, field, table) { #prefix #field, &(table).field },

/*
 * Loads lib and sets every fns[i].fn to its function; 0 when all are
 * there (at once when lib is loaded already), else -1 reported ("cannot
 * load libcurl.so.4, libcurl (SMTP, HTTP, IMAP): <why>"), then and on
 * every later call.
 */
int dynlib_load(struct dynlib *lib, const struct dynlib_fn *fns, size_t n);

#endif
