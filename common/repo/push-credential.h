/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PUSH_CREDENTIAL_H
#define PUSH_CREDENTIAL_H

/*
 * Credentials for libgit2's transports, found where the user's git finds
 * them, so a push that works with `git push` works here with nothing to
 * set up:
 *
 *   ssh     the ssh-agent ($SSH_AUTH_SOCK), then the keys ~/.ssh/id_ed25519,
 *           id_ecdsa and id_rsa without a passphrase, one per attempt;
 *           the user from the URL, else $USER (ssh's own config is not
 *           read: libgit2 does not read it)
 *   http(s) the one way git-maint gets a password (common/net/credential.h):
 *           git's credential helpers (`git credential fill`: protocol,
 *           host with its port, the path with credential.useHttpPath, the
 *           user from the URL), else the Secret Service item
 *           git-credential-libsecret keeps, else git's prompt
 *
 * libgit2 asks again when the server refused what it was given; then the
 * credential is counted as failed (push_credential.failed) and no other
 * is offered, so a wrong password is one refusal, never a loop. After
 * the push, push_credential_done() tells the password's source the
 * outcome as git does (credential_approve() or credential_reject()).
 */

#include <git2.h>

#include "config.h"
#include "credential.h"
#include "strbuf.h"

enum push_credential_kind {
	PUSH_CRED_NONE,
	PUSH_CRED_SSH_AGENT,
	PUSH_CRED_SSH_KEY,
	PUSH_CRED_PASSWORD,	/* http(s): credential.h */
};

struct push_credential {
	const struct maint_config *cfg;	/* git's credential.* settings */
	/* Called with 1 before git runs (a helper or git may prompt), 0 after (may be NULL). */
	void (*waiting)(void *data, int waiting);
	void *data;

	/* Filled in as libgit2 asks. */
	int calls;
	int failed;		/* a credential we gave was refused */
	enum push_credential_kind kind;
	int next_key;		/* ssh: the next key file to try */
	struct credential http;
	struct strbuf why;	/* why there is no credential to give */
};

#define PUSH_CREDENTIAL_INIT { NULL, NULL, NULL, 0, 0, PUSH_CRED_NONE, 0, CREDENTIAL_INIT, STRBUF_INIT }

/* The git_credential_acquire_cb: payload is a struct push_credential. */
int push_credential_acquire(git_credential **out, const char *url, const char *username_from_url,
			    unsigned int allowed_types, void *payload);

/*
 * A new connection to the same server, the first one lost: libgit2 asks
 * again, which is no refusal; it is given what the server took before
 * (the password is kept; for ssh, the agent and keys are tried again).
 */
void push_credential_reconnect(struct push_credential *c);

/*
 * After the push: approve (ok 1) or reject (ok 0) a password, as git
 * does; a rejection appends what became of it to note (credential_reject()).
 */
void push_credential_done(struct push_credential *c, int ok, struct strbuf *note);

/* Wipes and frees. */
void push_credential_release(struct push_credential *c);

#endif
