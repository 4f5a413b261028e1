/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Credentials for libgit2's transports (see push-credential.h).
 */
#include "push-credential.h"
#include "quote.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The password's key, from the URL libgit2 pushes to. */
static int http_key(struct push_credential *c, const char *url, const char *user)
{
	if (credential_init_url(&c->http, c->cfg, url, user) < 0)
		return -1;
	c->http.waiting = c->waiting;
	c->http.waiting_data = c->data;
	return 0;
}

static int http_credential(git_credential **out, struct push_credential *c, const char *url,
			   const char *user)
{
	if (!c->http.protocol && http_key(c, url, user) < 0) {
		strbuf_addstr(&c->why, "cannot read the URL '");
		quote_url(&c->why, url);
		strbuf_addch(&c->why, '\'');
		return -1;
	}
	if (credential_fill(&c->http) != RESULT_OK) {
		strbuf_addstr(&c->why, "no credentials for ");
		quote_url(&c->why, url);
		return -1;
	}
	c->kind = PUSH_CRED_PASSWORD;
	return lg2_check(git_credential_userpass_plaintext_new(out, c->http.username, c->http.password),
			 "cannot make a credential");
}

static const char *const ssh_keys[] = { "id_ed25519", "id_ecdsa", "id_rsa" };

static int ssh_credential(git_credential **out, struct push_credential *c, const char *user)
{
	const char *home = getenv("HOME");

	if (!c->next_key && getenv("SSH_AUTH_SOCK")) {
		c->next_key = 1;
		c->kind = PUSH_CRED_SSH_AGENT;
		return lg2_check(git_credential_ssh_key_from_agent(out, user), "cannot ask the ssh-agent");
	}
	c->next_key += !c->next_key;
	while (home && (size_t)c->next_key <= ARRAY_SIZE(ssh_keys)) {
		struct strbuf key = STRBUF_INIT, pub = STRBUF_INIT;
		struct stat st;
		int rc = 1;

		strbuf_addf(&key, "%s/.ssh/%s", home, ssh_keys[c->next_key - 1]);
		strbuf_addf(&pub, "%s.pub", key.buf);
		c->next_key++;
		if (!stat(key.buf, &st)) {
			c->kind = PUSH_CRED_SSH_KEY;
			rc = lg2_check(git_credential_ssh_key_new(out, user, access(pub.buf, R_OK) ? NULL : pub.buf,
								  key.buf, NULL), "cannot use '%s'", key.buf);
		}
		strbuf_release(&key);
		strbuf_release(&pub);
		if (rc <= 0)
			return rc;
	}
	strbuf_addstr(&c->why, "no ssh key was accepted (tried the ssh-agent and ~/.ssh/id_*)");
	return -1;
}

static const char *source_name(const struct push_credential *c)
{
	switch (c->http.source) {
	case CREDENTIAL_HELPER:
		return "credential helper's";
	case CREDENTIAL_SECRET:
		return "Secret Service's";
	default:
		return "typed";
	}
}

int push_credential_acquire(git_credential **out, const char *url, const char *username_from_url,
			    unsigned int allowed_types, void *payload)
{
	struct push_credential *c = payload;
	const char *user = username_from_url;

	if (!user || !*user)
		user = getenv("USER");
	/* ssh asks for the user name alone first, when the URL has none. */
	if (allowed_types & GIT_CREDENTIAL_USERNAME && !(allowed_types & GIT_CREDENTIAL_SSH_KEY))
		return lg2_check(git_credential_username_new(out, user ? user : "git"),
				 "cannot make a credential");
	if (c->calls++ && c->kind == PUSH_CRED_PASSWORD) {
		/* Asked again: what we gave was refused. One refusal, no loop. */
		c->failed = 1;
		strbuf_addf(&c->why, "the %s credential for ", source_name(c));
		quote_url(&c->why, url);
		strbuf_addstr(&c->why, " was refused");
		return GIT_EAUTH;
	}
	if (allowed_types & GIT_CREDENTIAL_SSH_KEY) {
		if (ssh_credential(out, c, user ? user : "git") < 0) {
			c->failed = 1;
			return GIT_EAUTH;
		}
		return 0;
	}
	if (allowed_types & GIT_CREDENTIAL_USERPASS_PLAINTEXT) {
		if (http_credential(out, c, url, username_from_url) < 0) {
			c->failed = 1;
			return GIT_EAUTH;
		}
		return 0;
	}
	strbuf_addstr(&c->why, "no kind of credential we have is accepted by ");
	quote_url(&c->why, url);
	c->failed = 1;
	return GIT_EAUTH;
}

void push_credential_reconnect(struct push_credential *c)
{
	c->calls = 0;
	c->next_key = 0;
}

void push_credential_done(struct push_credential *c, int ok, struct strbuf *note)
{
	if (c->kind != PUSH_CRED_PASSWORD)
		return;
	if (ok)
		credential_approve(&c->http);
	else
		credential_reject(&c->http, note);
}

void push_credential_release(struct push_credential *c)
{
	credential_release(&c->http);
	strbuf_release(&c->why);
}
