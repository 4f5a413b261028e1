/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CREDENTIAL_H
#define CREDENTIAL_H

/*
 * Credentials for libgit2's transports, found where the user's git finds
 * them, so a push that works with `git push` works here with nothing to
 * set up:
 *
 *   ssh     the ssh-agent ($SSH_AUTH_SOCK), then the keys ~/.ssh/id_ed25519,
 *           id_ecdsa and id_rsa without a passphrase, one per attempt;
 *           the user from the URL, else $USER (ssh's own config is not
 *           read: libgit2 does not read it)
 *   http(s) the Secret Service item git-credential-libsecret keeps for
 *           the URL (common/net/secret.h: protocol, host, port, user, and the
 *           path with credential.useHttpPath), else `git credential fill`
 *           so that any configured helper (cache, store, a password
 *           manager) or git's own prompt answers
 *
 * libgit2 asks again when the server refused what it was given; then the
 * credential is counted as failed (credential_ctx.failed) and no other is
 * offered, so a wrong password is one refusal, never a loop. After the
 * push, credential_done() tells the helper the outcome as git does
 * (`git credential approve` or `reject`, for a credential that came from
 * `git credential fill` only: a Secret Service item we did not store is
 * left alone).
 *
 * The password only ever travels through pipes (to and from git) and
 * libgit2's credential object; it is never in argv, the environment, a
 * file or a message, and is wiped when released.
 */

#include <git2.h>

#include "strbuf.h"

enum credential_source {
	CRED_NONE,
	CRED_SSH_AGENT,
	CRED_SSH_KEY,
	CRED_SECRET,		/* the Secret Service */
	CRED_HELPER,		/* git credential fill */
};

struct credential_ctx {
	int use_http_path;	/* git's credential.useHttpPath */
	/* Called with 1 before a helper that may prompt runs, 0 after (may be NULL). */
	void (*waiting)(void *data, int waiting);
	void *data;

	/* Filled in as libgit2 asks. */
	int calls;
	int failed;		/* a credential we gave was refused */
	enum credential_source source;
	int next_key;		/* ssh: the next key file to try */
	char *protocol, *host, *path, *user;
	char *password;		/* from the helper, for approve/reject; wiped */
	struct strbuf why;	/* why there is no credential to give */
};

#define CREDENTIAL_CTX_INIT { 0, NULL, NULL, 0, 0, CRED_NONE, 0, NULL, NULL, NULL, NULL, NULL, STRBUF_INIT }

/* The git_credential_acquire_cb: payload is a struct credential_ctx. */
int credential_acquire(git_credential **out, const char *url, const char *username_from_url,
		       unsigned int allowed_types, void *payload);

/* After the push: approve (ok 1) or reject (ok 0) a helper's credential, as git does. */
void credential_done(struct credential_ctx *c, int ok);

/* Wipes and frees. */
void credential_release(struct credential_ctx *c);

#endif
