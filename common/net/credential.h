/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CREDENTIAL_H
#define CREDENTIAL_H

/*
 * The one way git-maint gets a password, for SMTP (notify), IMAP folders
 * and HTTP archives that ask for a login (the fetcher), and pushes over
 * http(s) (publish): the way git and git send-email get theirs, so that
 * what the user gave git once serves here too, on a desktop or in an ssh
 * session without one.
 *
 * In this order:
 *
 *   1. a password in the configuration, when the caller has a key for one
 *      (sendemail.smtpPass, maint.smtp.password): used as it is
 *   2. git's credential helpers, when any is configured for this URL
 *      (credential.helper, credential.<url>.helper, as git matches them):
 *      `git credential fill` with exactly the fields git send-email gives
 *      (protocol, host "<server>[:<port>]", username), so what
 *      send-email or git stored is found; git asks on the terminal itself
 *      when they have nothing
 *   3. with no helper configured, the Secret Service (secret.h) directly,
 *      under the attributes git-credential-libsecret uses, when one can
 *      be reached (a session bus offering it)
 *   4. a prompt on the terminal, git's own (`git credential fill` with
 *      the helpers left out), when there is a terminal (or an askpass
 *      program: GIT_ASKPASS, core.askPass, SSH_ASKPASS) and
 *      GIT_TERMINAL_PROMPT does not forbid it
 *
 * With none of them: one error naming the user and the server, and a
 * hint naming the ways to give one (credential_fill()).
 *
 * What comes of using it is told where it came from, as git does: after
 * the server accepted it, credential_approve() (`git credential
 * approve`, so a helper keeps what was typed at a prompt; with no helper
 * but a Secret Service, the typed password is stored there); after the
 * server refused it (SMTP 535, HTTP 401), credential_reject() (`git
 * credential reject`, or the Secret Service item removed), so the next
 * run asks again instead of failing the same way. A password from the
 * configuration is neither stored nor removed: it is the user's file.
 *
 * "Where git would keep it" is the same place: credential_store() and
 * credential_forget() (--store-password, --forget-password) go to the
 * configured helpers when there are any, else to the Secret Service.
 *
 * The password only travels through pipes (to and from git) and the
 * Secret Service's D-Bus connection; it is never in argv, the
 * environment, a file, a log or a message. It is held in memory of its
 * own (common/base/secmem.h), the process stops being dumpable once it
 * holds one, and what held a copy on the way is wiped.
 */

#include "config.h"
#include "strbuf.h"
#include "usage.h"

enum credential_source {
	CREDENTIAL_NONE,
	CREDENTIAL_CONFIG,	/* a password in the configuration */
	CREDENTIAL_HELPER,	/* git credential fill: the helpers, or git's prompt after them */
	CREDENTIAL_SECRET,	/* the Secret Service, asked directly */
	CREDENTIAL_PROMPT,	/* git's prompt, no helper configured */
};

struct credential {
	/* what it is for (credential_init()) */
	char *protocol;		/* "smtp", "imaps", "https" */
	char *host;		/* "host" or "host:port", as git's credential protocol has it */
	char *path;		/* the URL's path, or NULL */
	char *username;		/* the configured user; NULL: whatever the source has */
	const struct maint_config *cfg;

	/* optional, set by the caller before credential_fill() */
	const char *config_password;	/* a password from the configuration */
	const char *config_key;		/* the key it was read from, for hints */
	const char *store_command;	/* how the user stores one, e.g. "git maint-notify --store-password" */
	void (*waiting)(void *data, int waiting);	/* 1 before git runs (it may prompt), 0 after */
	void *waiting_data;

	/* found */
	char *password;		/* secmem; NULL until filled */
	enum credential_source source;
	int helpers;		/* credential helpers are configured for this URL */
	int use_path;		/* credential.useHttpPath: the path is part of the key */
	int told;		/* approved or rejected already */
	struct strbuf secret_why;	/* why the Secret Service could not be asked, if so */
};

#define CREDENTIAL_INIT { .secret_why = STRBUF_INIT }

/*
 * Sets c up for protocol://host[:port]/path (port 0: none, as when the
 * user configured none; path NULL: none) and the user (NULL: any),
 * reading from cfg (which must outlive c) whether helpers are
 * configured for it and whether the path counts (credential.useHttpPath).
 */
void credential_init(struct credential *c, const struct maint_config *cfg, const char *protocol,
		     const char *host, unsigned port, const char *path, const char *user);

/*
 * credential_init() for "protocol://[user@]host[:port]/path" (a query or
 * fragment is part of the path), the user given winning over the URL's.
 * -1 when url is not of that form.
 */
int credential_init_url(struct credential *c, const struct maint_config *cfg, const char *url,
			const char *user);

/*
 * Finds the password (see above): RESULT_OK with c->password (and
 * c->username) set, or RESULT_FATAL, reported with a hint.
 */
enum maint_result credential_fill(struct credential *c);

/*
 * The server accepted c->password, or refused it; either tells the
 * source once. A refusal appends to note (when not NULL) what became of
 * the password, for the caller's message ("the password was removed
 * from git's credential helpers").
 */
void credential_approve(struct credential *c);
void credential_reject(struct credential *c, struct strbuf *note);

/*
 * For --store-password: reads a new password (git's prompt when standard
 * input is a terminal, else the first line of standard input) and
 * stores it where git would (see above). RESULT_OK or RESULT_FATAL.
 */
enum maint_result credential_store(struct credential *c);

/* For --forget-password: RESULT_OK, RESULT_NO (the Secret Service had none), RESULT_FATAL. */
enum maint_result credential_forget(struct credential *c);

/* "smtp://host:port", "https://host/path": what the password is for, in messages. */
void credential_describe(struct strbuf *out, const struct credential *c);

/* Wipes the password, frees everything. */
void credential_release(struct credential *c);

#endif
