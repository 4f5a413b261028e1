/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SECRET_H
#define SECRET_H

#include "strbuf.h"

/*
 * Passwords kept in the Secret Service (gnome-keyring, KeePassXC, ...)
 * through libsecret, stored and found exactly as git's own
 * git-credential-libsecret helper does, so that a password git (or git
 * send-email) already stored is found and one we store is git's too:
 *
 *   schema      stored as "org.gnome.keyring.NetworkPassword", the name
 *               the helper of git 2.39 (Debian 12) stores and searches
 *               with; newer helpers store as "org.git.Password" and
 *               search ignoring the name, as we do: each finds what
 *               the others stored
 *   attributes  protocol ("smtp", "https", ...), server (the host),
 *               port (only when not 0), user (when known), object (the
 *               path, only when given)
 *   label       "Git: <protocol>://<server>[:<port>]/<path>"
 *   secret      the password on the first line; later lines carry git's
 *               password_expiry_utc= and oauth_refresh_token=, which we
 *               keep out of what we return
 *
 * A search matches the items whose attributes include the given ones.
 * Storing replaces an item with the same attributes, whichever schema
 * name it has.
 * git send-email stores its SMTP password with a port only when one was
 * configured, so a lookup with a port falls back to an item stored
 * without one (never to an item for another port).
 *
 * Passwords never leave this module but through secret_lookup()'s out
 * parameter, in memory of their own (common/base/secmem.h); the caller
 * frees them with secmem_free(). Nothing here prints a password or puts
 * one in an error message.
 *
 * A Secret Service that cannot be asked (no session bus, a bus without
 * one) is not an error here: secret_lookup() says why and the caller
 * decides (git's credential helpers may hold the password instead). A
 * locked collection that cannot be unlocked without a prompt window, and
 * any failure to store or forget, is: error() naming the cause as
 * libsecret gives it, and RESULT_FATAL. libsecret is only called from
 * secret.c (its GError crosses there), which loads it and GLib on the
 * first call (common/base/dynlib.h): a program that asks for no password
 * never maps them. A libsecret that cannot be loaded is RESULT_FATAL for
 * every call, reported naming it: not "no Secret Service to ask", since
 * the installation, not the session, lacks it.
 */

#include "usage.h"

struct secret_key {
	const char *protocol;	/* required: "smtp", "https" */
	const char *server;	/* required: the host name, no port */
	unsigned port;		/* 0: none */
	const char *user;	/* NULL: any user (a lookup returns the one found) */
	const char *path;	/* NULL: none (git's credential.useHttpPath) */
};

/*
 * Finds the password for key. RESULT_OK with *password (and, when user_out
 * is not NULL, the item's user, or NULL) set; RESULT_NO when there is no
 * such item, or no Secret Service to ask (then why says so, nothing is
 * reported); RESULT_FATAL (reported) for a locked collection. *password
 * is NULL unless RESULT_OK.
 */
enum maint_result secret_lookup(const struct secret_key *key, char **password, char **user_out,
				 struct strbuf *why);

/* Stores (or replaces) the password for key; key->user is required. RESULT_OK or RESULT_FATAL. */
enum maint_result secret_store(const struct secret_key *key, const char *password);

/* Removes the items matching key. RESULT_OK (something removed), RESULT_NO (nothing was there), RESULT_FATAL. */
enum maint_result secret_forget(const struct secret_key *key);

#endif
