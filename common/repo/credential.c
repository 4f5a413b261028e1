#include "credential.h"
#include "repo.h"
#include "run-command.h"
#include "secret.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void wipe_free(char *s)
{
	if (s) {
		volatile char *v = s;

		while (*v)
			*v++ = 0;
		free(s);
	}
}

static void wipe_strbuf(struct strbuf *sb)
{
	volatile char *v = sb->buf;

	for (size_t i = 0; i < sb->len; i++)
		v[i] = 0;
	strbuf_release(sb);
}

/*
 * "http://user@host:8080/path/repo.git" into its parts; the host keeps
 * its port for git's credential protocol ("host:8080"), *port has it
 * alone.
 */
static int parse_url(struct credential_ctx *c, const char *url, unsigned *port)
{
	const char *p = strstr(url, "://"), *auth_end, *host, *slash, *colon;

	if (!p)
		return -1;
	c->protocol = xstrndup(url, p - url);
	host = p + 3;
	slash = strchrnul(host, '/');
	auth_end = memchr(host, '@', slash - host);
	if (auth_end) {
		if (!c->user)
			c->user = xstrndup(host, auth_end - host);
		host = auth_end + 1;
	}
	c->host = xstrndup(host, slash - host);
	colon = strrchr(c->host, ':');
	*port = colon && !strchr(colon, ']') ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	c->path = xstrdup(*slash ? slash + 1 : "");
	return 0;
}

/* The host without its port, for the Secret Service's "server" attribute. */
static char *bare_host(const char *host)
{
	const char *colon = strrchr(host, ':');

	if (colon && !strchr(colon, ']'))
		return xstrndup(host, colon - host);
	return xstrdup(host);
}

static enum maint_result from_secret(struct credential_ctx *c, unsigned port)
{
	struct secret_key key = { 0 };
	char *server, *password = NULL, *user = NULL;
	enum maint_result rc;

	/* No session bus: no Secret Service to ask, and nothing to complain about. */
	if (!getenv("DBUS_SESSION_BUS_ADDRESS"))
		return RESULT_NO;
	server = bare_host(c->host);
	key.protocol = c->protocol;
	key.server = server;
	key.port = port;
	key.user = c->user;
	key.path = c->use_http_path && *c->path ? c->path : NULL;
	rc = secret_lookup(&key, &password, &user);
	free(server);
	if (rc != RESULT_OK)
		return rc;
	if (!c->user && user)
		c->user = xstrdup(user);
	free(user);
	if (!c->user) {
		secret_free(password);
		return RESULT_NO;
	}
	c->password = xstrdup(password);
	secret_free(password);
	c->source = CRED_SECRET;
	return RESULT_OK;
}

static void credential_input(struct strbuf *in, const struct credential_ctx *c, int with_password)
{
	strbuf_addf(in, "protocol=%s\nhost=%s\n", c->protocol, c->host);
	if (*c->path)
		strbuf_addf(in, "path=%s\n", c->path);
	if (c->user)
		strbuf_addf(in, "username=%s\n", c->user);
	if (with_password && c->password)
		strbuf_addf(in, "password=%s\n", c->password);
	strbuf_addch(in, '\n');
}

static int run_git_credential(struct credential_ctx *c, const char *action, int with_password,
			      struct strbuf *out)
{
	const char *argv[] = { "git", "credential", action, NULL };
	struct strbuf in = STRBUF_INIT;
	int rc;

	credential_input(&in, c, with_password);
	if (c->waiting)
		c->waiting(c->data, 1);
	rc = run_command(argv, in.buf, in.len, out);
	if (c->waiting)
		c->waiting(c->data, 0);
	wipe_strbuf(&in);
	return rc;
}

static char *field(const struct strbuf *out, const char *key)
{
	size_t klen = strlen(key);
	const char *p = out->buf;

	while (p && *p) {
		const char *nl = strchrnul(p, '\n');

		if ((size_t)(nl - p) > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return xstrndup(p + klen + 1, nl - p - klen - 1);
		p = *nl ? nl + 1 : NULL;
	}
	return NULL;
}

static int from_helper(struct credential_ctx *c)
{
	struct strbuf out = STRBUF_INIT;
	char *user = NULL;
	int rc;

	rc = run_git_credential(c, "fill", 0, &out);
	if (rc) {
		wipe_strbuf(&out);
		strbuf_addf(&c->why, "no credentials for %s://%s ('git credential fill' failed)",
			    c->protocol, c->host);
		return -1;
	}
	user = field(&out, "username");
	c->password = field(&out, "password");
	wipe_strbuf(&out);
	if (!user || !c->password) {
		free(user);
		strbuf_addf(&c->why, "no credentials for %s://%s", c->protocol, c->host);
		return -1;
	}
	free(c->user);
	c->user = user;
	c->source = CRED_HELPER;
	return 0;
}

static int http_credential(git_credential **out, struct credential_ctx *c, const char *url)
{
	unsigned port = 0;
	enum maint_result rc;

	if (!c->protocol && parse_url(c, url, &port) < 0) {
		strbuf_addf(&c->why, "cannot read the URL '%s'", url);
		return -1;
	}
	rc = from_secret(c, port);
	if (rc != RESULT_OK && from_helper(c) < 0)
		return -1;
	return lg2_check(git_credential_userpass_plaintext_new(out, c->user, c->password),
			 "cannot make a credential");
}

static const char *const ssh_keys[] = { "id_ed25519", "id_ecdsa", "id_rsa" };

static int ssh_credential(git_credential **out, struct credential_ctx *c, const char *user)
{
	const char *home = getenv("HOME");

	if (!c->next_key && getenv("SSH_AUTH_SOCK")) {
		c->next_key = 1;
		c->source = CRED_SSH_AGENT;
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
			c->source = CRED_SSH_KEY;
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

int credential_acquire(git_credential **out, const char *url, const char *username_from_url,
		       unsigned int allowed_types, void *payload)
{
	struct credential_ctx *c = payload;
	const char *user = username_from_url;

	if (!user || !*user)
		user = c->user ? c->user : getenv("USER");
	/* ssh asks for the user name alone first, when the URL has none. */
	if (allowed_types & GIT_CREDENTIAL_USERNAME && !(allowed_types & GIT_CREDENTIAL_SSH_KEY))
		return lg2_check(git_credential_username_new(out, user ? user : "git"),
				 "cannot make a credential");
	if (c->calls++ && c->source != CRED_SSH_AGENT && c->source != CRED_SSH_KEY) {
		/* Asked again: what we gave was refused. One refusal, no loop. */
		c->failed = 1;
		strbuf_addf(&c->why, "the %s credential for %s was refused",
			    c->source == CRED_SECRET ? "Secret Service's" : "credential helper's", url);
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
		if (username_from_url && *username_from_url && !c->user)
			c->user = xstrdup(username_from_url);
		if (http_credential(out, c, url) < 0) {
			c->failed = 1;
			return GIT_EAUTH;
		}
		return 0;
	}
	strbuf_addf(&c->why, "no kind of credential we have is accepted by %s", url);
	c->failed = 1;
	return GIT_EAUTH;
}

void credential_done(struct credential_ctx *c, int ok)
{
	if (c->source != CRED_HELPER || !c->password)
		return;
	run_git_credential(c, ok ? "approve" : "reject", 1, NULL);
}

void credential_release(struct credential_ctx *c)
{
	free(c->protocol);
	free(c->host);
	free(c->path);
	free(c->user);
	wipe_free(c->password);
	strbuf_release(&c->why);
	c->protocol = c->host = c->path = c->user = c->password = NULL;
}
