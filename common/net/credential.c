/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Passwords the way git gets them (see credential.h).
 */
#include "credential.h"
#include "run-command.h"
#include "secmem.h"
#include "secret.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* What git's credential protocol carries, and its output, fit here: no copy left behind by growing. */
#define GIT_IO_ROOM 8192

/* ---- which of git's settings apply: credential.<url>.* ---- */

/* %XX decoded, as git reads the parts of a URL. */
static char *url_decode(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };

			strbuf_addch(&sb, (char)strtol(hex, NULL, 16));
			i += 2;
		} else {
			strbuf_addch(&sb, s[i]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* "host:443" for https, "host:80" for http: the port that goes without saying, as git's URL normalisation drops it. */
static size_t without_default_port(const char *protocol, const char *host, size_t len)
{
	const char *def = !strcasecmp(protocol, "https") ? ":443" : !strcasecmp(protocol, "http") ? ":80" : NULL;
	size_t dlen = def ? strlen(def) : 0;

	if (def && len > dlen && !memcmp(host + len - dlen, def, dlen))
		return len - dlen;
	return len;
}

/* A host pattern: labels compared without case, "*" standing for one label; the port exactly. */
static int host_matches(const char *protocol, const char *pat, size_t len, const char *host)
{
	const char *p = pat, *end = pat + without_default_port(protocol, pat, len), *h = host;
	const char *hend = host + without_default_port(protocol, host, strlen(host));

	while (p < end && h <= hend) {
		const char *pe = p, *he = h;

		while (pe < end && *pe != '.' && *pe != ':')
			pe++;
		while (he < hend && *he != '.' && *he != ':')
			he++;
		if (!(pe - p == 1 && *p == '*') &&
		    (pe - p != he - h || strncasecmp(p, h, pe - p)))
			return 0;
		if (pe == end || he == hend)
			return pe == end && he == hend;
		if (*pe != *he)
			return 0;
		if (*pe == ':')	/* the port, exactly */
			return end - pe == hend - he && !strncmp(pe, he, end - pe);
		p = pe + 1;
		h = he + 1;
	}
	return 0;
}

/*
 * Does credential.<pattern>.* apply to c? As git matches it: each part
 * the pattern names (protocol, user, host with its port, a leading part
 * of the path) must be c's; "example.com" alone names only the host.
 */
static int pattern_applies(const char *pat, size_t len, const struct credential *c)
{
	const char *end = pat + len, *rest = pat, *scheme = memmem(pat, len, "://", 3);
	const char *slash, *at;
	int ok = 1;

	if (scheme) {
		if ((size_t)(scheme - pat) != strlen(c->protocol) ||
		    strncasecmp(pat, c->protocol, scheme - pat))
			return 0;
		rest = scheme + 3;
	}
	slash = memchr(rest, '/', end - rest);
	if (!slash)
		slash = end;
	at = memchr(rest, '@', slash - rest);
	if (at) {
		char *user = url_decode(rest, at - rest);

		ok = c->username && !strcmp(user, c->username);
		free(user);
		rest = at + 1;
	}
	if (ok && slash > rest)
		ok = host_matches(c->protocol, rest, slash - rest, c->host);
	if (ok && slash + 1 < end) {
		size_t n = end - (slash + 1);
		const char *path = c->path ? c->path : "";

		while (n && slash[n] == '/')
			n--;
		ok = !strncmp(path, slash + 1, n) && (!path[n] || path[n] == '/');
	}
	return ok;
}

/*
 * Is cfg's git variable name "credential.<pattern>.<key>" (or
 * "credential.<key>") one that applies to c?
 */
static int applies(const char *name, const char *key, const struct credential *c)
{
	size_t nlen = strlen(name), klen = strlen(key);
	const char *sub;

	if (strncasecmp(name, "credential.", 11) || nlen < 11 + klen ||
	    strcasecmp(name + nlen - klen, key))
		return 0;
	if (nlen == 11 + klen)
		return 1;
	sub = name + 11;
	if (name[nlen - klen - 1] != '.' || nlen - klen - 1 == 11)
		return 0;
	return pattern_applies(sub, name + nlen - klen - 1 - sub, c);
}

/* Helpers configured for c: each value adds one, an empty one clears the list (as in git). */
static int count_helpers(const struct credential *c)
{
	int n = 0;

	for (size_t i = 0; i < c->cfg->git_nr; i++) {
		const struct config_git_entry *e = &c->cfg->git[i];

		if (!applies(e->name, "helper", c))
			continue;
		n = e->value && *e->value ? n + 1 : 0;
	}
	return n;
}

static int use_http_path(const struct credential *c)
{
	int use = 0;

	for (size_t i = 0; i < c->cfg->git_nr; i++) {
		const struct config_git_entry *e = &c->cfg->git[i];
		int b;

		if (applies(e->name, "useHttpPath", c)) {
			b = e->value ? config_parse_bool(e->value) : 1;
			use = b < 0 ? use : b;
		}
	}
	return use;
}

void credential_init(struct credential *c, const struct maint_config *cfg, const char *protocol,
		     const char *host, unsigned port, const char *path, const char *user)
{
	struct strbuf h = STRBUF_INIT;

	strbuf_addstr(&h, host);
	if (port)
		strbuf_addf(&h, ":%u", port);
	c->protocol = xstrdup(protocol);
	c->host = strbuf_detach(&h, NULL);
	c->path = path && *path ? xstrdup(path) : NULL;
	c->username = user && *user ? xstrdup(user) : NULL;
	c->cfg = cfg;
	c->helpers = count_helpers(c) > 0;
	c->use_path = c->path && (!strcmp(protocol, "http") || !strcmp(protocol, "https")) ?
		      use_http_path(c) : 0;
}

int credential_init_url(struct credential *c, const struct maint_config *cfg, const char *url,
			const char *user)
{
	const char *p = strstr(url, "://"), *host, *slash, *at, *colon;
	char *protocol, *server, *url_user = NULL;
	unsigned port = 0;

	if (!p)
		return -1;
	protocol = xstrndup(url, p - url);
	host = p + 3;
	slash = strchrnul(host, '/');
	at = memrchr(host, '@', slash - host);
	if (at) {
		char *colon_pw;

		url_user = url_decode(host, at - host);
		/* a password in the URL is not ours to use or to show */
		colon_pw = strchr(url_user, ':');
		if (colon_pw)
			*colon_pw = '\0';
		host = at + 1;
	}
	colon = memrchr(host, ':', slash - host);
	if (colon && !memchr(colon, ']', slash - colon)) {
		port = (unsigned)strtoul(colon + 1, NULL, 10);
		server = xstrndup(host, colon - host);
	} else {
		server = xstrndup(host, slash - host);
	}
	credential_init(c, cfg, protocol, server, port, *slash ? slash + 1 : NULL,
			user && *user ? user : url_user);
	free(protocol);
	free(server);
	free(url_user);
	return 0;
}

void credential_describe(struct strbuf *out, const struct credential *c)
{
	strbuf_addf(out, "%s://%s", c->protocol, c->host);
	if (c->use_path)
		strbuf_addf(out, "/%s", c->path);
}

/* ---- git credential ---- */

/* Could git ask the user (a terminal, or an askpass program)? */
static int can_prompt(const struct credential *c)
{
	const char *tp = getenv("GIT_TERMINAL_PROMPT");
	char *askpass = config_git_string(c->cfg, "core.askPass");
	int fd, has_askpass = (askpass && *askpass) ||
			      (getenv("GIT_ASKPASS") && *getenv("GIT_ASKPASS")) ||
			      (getenv("SSH_ASKPASS") && *getenv("SSH_ASKPASS"));

	free(askpass);
	if (has_askpass)
		return 1;
	if (tp && config_parse_bool(tp) == 0)
		return 0;
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* A field that would end its line early in git's credential protocol (git refuses those too). */
static int field_ok(const char *name, const char *value)
{
	if (value && strchr(value, '\n'))
		return error("the %s for git credential holds a newline", name);
	return 0;
}

static void git_input(struct strbuf *in, const struct credential *c, int with_password)
{
	strbuf_addf(in, "protocol=%s\nhost=%s\n", c->protocol, c->host);
	if (c->use_path)
		strbuf_addf(in, "path=%s\n", c->path);
	if (c->username)
		strbuf_addf(in, "username=%s\n", c->username);
	if (with_password && c->password)
		strbuf_addf(in, "password=%s\n", c->password);
	strbuf_addch(in, '\n');
}

static void wipe_release(struct strbuf *sb)
{
	secmem_wipe(sb->buf, sb->alloc);
	strbuf_release(sb);
}

/*
 * What git said on its standard error, but the line saying it could not
 * prompt (it was told not to: we say what to do instead).
 */
static void pass_on_errors(const struct strbuf *err)
{
	const char *p = err->buf;

	while (*p) {
		const char *nl = strchrnul(p, '\n');

		if (!(nl - p > 24 && !strncmp(p, "fatal: could not read ", 22)))
			say(stderr, "%.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

/*
 * `git credential <action>` with c's fields on its standard input (and
 * its password, with_password), the answer in out when not NULL.
 * helpers 0 leaves the helpers out (git's prompt only); prompt 0 forbids
 * git's prompt. Returns git's exit status, or -1.
 */
static int run_git(struct credential *c, const char *action, int helpers, int prompt,
		   int with_password, struct strbuf *out)
{
	const char *with[] = { "git", "credential", action, NULL };
	const char *without[] = { "git", "-c", "credential.helper=", "credential", action, NULL };
	const char *no_prompt[] = { "GIT_TERMINAL_PROMPT=0", NULL };
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct run_opts o = { helpers ? with : without, prompt ? NULL : no_prompt, NULL, 0, out,
			      prompt ? NULL : &err };
	int rc;

	if (field_ok("host", c->host) || field_ok("path", c->path) ||
	    field_ok("user name", c->username) || field_ok("password", c->password))
		return -1;
	strbuf_grow(&in, GIT_IO_ROOM);
	if (out)
		strbuf_grow(out, GIT_IO_ROOM);
	git_input(&in, c, with_password);
	o.input = in.buf;
	o.len = in.len;
	if (c->waiting)
		c->waiting(c->waiting_data, 1);
	rc = run_command_opts(&o);
	if (c->waiting)
		c->waiting(c->waiting_data, 0);
	pass_on_errors(&err);
	wipe_release(&in);
	strbuf_release(&err);
	return rc;
}

/* The value of "key=" in git's answer, or NULL; in secmem for the password. */
static char *answer_field(const struct strbuf *out, const char *key, int secret)
{
	size_t klen = strlen(key);

	for (const char *p = out->buf; *p;) {
		const char *nl = strchrnul(p, '\n');

		if ((size_t)(nl - p) > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return secret ? secmem_strndup(p + klen + 1, nl - p - klen - 1) :
					xstrndup(p + klen + 1, nl - p - klen - 1);
		p = *nl ? nl + 1 : nl;
	}
	return NULL;
}

/* `git credential fill`: 0 with the password and user set, -1 when git gave none. */
static int git_fill(struct credential *c, int helpers, int prompt)
{
	struct strbuf out = STRBUF_INIT;
	char *user = NULL;
	int rc = run_git(c, "fill", helpers, prompt, 0, &out);

	if (!rc) {
		user = answer_field(&out, "username", 0);
		c->password = answer_field(&out, "password", 1);
	}
	wipe_release(&out);
	if (!user || !c->password) {
		free(user);
		secmem_free(c->password);
		c->password = NULL;
		return -1;
	}
	free(c->username);
	c->username = user;
	return 0;
}

/* ---- the Secret Service ---- */

/* The Secret Service's key for c: the host without its port, which goes apart. */
static char *secret_key_of(struct secret_key *k, const struct credential *c)
{
	const char *colon = strrchr(c->host, ':');
	char *server;

	memset(k, 0, sizeof(*k));
	if (colon && !strchr(colon, ']')) {
		server = xstrndup(c->host, colon - c->host);
		k->port = (unsigned)strtoul(colon + 1, NULL, 10);
	} else {
		server = xstrdup(c->host);
	}
	k->protocol = c->protocol;
	k->server = server;
	k->user = c->username;
	k->path = c->use_path ? c->path : NULL;
	return server;
}

static enum maint_result from_secret_service(struct credential *c)
{
	struct secret_key k;
	char *server = secret_key_of(&k, c), *user = NULL;
	enum maint_result rc = secret_lookup(&k, &c->password, &user, &c->secret_why);

	free(server);
	if (rc == RESULT_OK && !c->username && user)
		c->username = xstrdup(user);
	free(user);
	if (rc == RESULT_OK && !c->username) {
		secmem_free(c->password);	/* a password without a user to give it for */
		c->password = NULL;
		rc = RESULT_NO;
	}
	return rc;
}

/* ---- finding it ---- */

static void no_password(struct credential *c)
{
	const char *none = c->helpers ? "\n    (the configured helpers have none for it)" : "";
	struct strbuf url = STRBUF_INIT, why = STRBUF_INIT;

	credential_describe(&url, c);
	if (c->username)
		error("no password for '%s' at %s", c->username, url.buf);
	else
		error("no user and password for %s", url.buf);
	if (c->secret_why.len)
		strbuf_addf(&why, "\n    (%s)", c->secret_why.buf);
	advise("give it one of %s ways, as for git%s (or run on a terminal to be asked):",
	       c->config_key ? "three" : "two", strcmp(c->protocol, "smtp") ? "" : " send-email");
	if (c->config_key)
		advise("  git config %s <password>", c->config_key);
	if (c->store_command) {
		advise("  git config --global credential.helper store (or cache, ...); %s%s",
		       c->store_command, none);
		advise("  %s, to a Secret Service on the session bus%s", c->store_command, why.buf);
	} else {
		struct secret_key k;
		char *server = secret_key_of(&k, c);
		struct strbuf attrs = STRBUF_INIT;

		advise("  git config --global credential.helper store (or cache, ...); git credential approve\n"
		       "    given protocol=%s, host=%s, username=%s, password=<password>, a line each%s",
		       c->protocol, c->host, c->username ? c->username : "<user>", none);
		strbuf_addf(&attrs, "protocol %s server %s", c->protocol, server);
		if (k.port)
			strbuf_addf(&attrs, " port %u", k.port);
		advise("  to a Secret Service on the session bus, as git-credential-libsecret keeps it:\n"
		       "    secret-tool store --label='Git: %s/' %s user %s%s", url.buf, attrs.buf,
		       c->username ? c->username : "<user>", why.buf);
		strbuf_release(&attrs);
		free(server);
	}
	strbuf_release(&url);
	strbuf_release(&why);
}

enum maint_result credential_fill(struct credential *c)
{
	int prompt = can_prompt(c);
	enum maint_result rc;

	if (c->password)
		return RESULT_OK;
	if (c->config_password) {
		c->password = secmem_strndup(c->config_password, strlen(c->config_password));
		c->source = CREDENTIAL_CONFIG;
	} else if (c->helpers) {
		if (!git_fill(c, 1, prompt))
			c->source = CREDENTIAL_HELPER;
	} else {
		rc = from_secret_service(c);
		if (rc == RESULT_FATAL)
			return RESULT_FATAL;
		if (rc == RESULT_OK)
			c->source = CREDENTIAL_SECRET;
		else if (prompt && !git_fill(c, 0, 1))
			c->source = CREDENTIAL_PROMPT;
	}
	if (!c->password) {
		no_password(c);
		return RESULT_FATAL;
	}
	secmem_protect_process();
	return RESULT_OK;
}

/* ---- telling the source ---- */

void credential_approve(struct credential *c)
{
	struct secret_key k;
	char *server;

	if (c->told || !c->password)
		return;
	c->told = 1;
	if (c->source == CREDENTIAL_HELPER) {
		run_git(c, "approve", 1, 0, 1, NULL);
	} else if (c->source == CREDENTIAL_PROMPT && !c->secret_why.len) {
		/* no helper, a Secret Service: it keeps what was typed, as git-credential-libsecret would */
		server = secret_key_of(&k, c);
		if (secret_store(&k, c->password) != RESULT_OK)
			warning("the password for %s://%s was not kept", c->protocol, c->host);
		free(server);
	}
}

/* Adds text to note, after "; " when there is text before it. */
static void add_note(struct strbuf *note, const char *text)
{
	if (!note)
		return;
	if (note->len)
		strbuf_addstr(note, "; ");
	strbuf_addstr(note, text);
}

void credential_reject(struct credential *c, struct strbuf *note)
{
	struct secret_key k;
	char *server;

	if (c->told || !c->password)
		return;
	c->told = 1;
	switch (c->source) {
	case CREDENTIAL_HELPER:
		run_git(c, "reject", 1, 0, 1, NULL);
		add_note(note, "the password was removed from git's credential helpers");
		break;
	case CREDENTIAL_SECRET:
		server = secret_key_of(&k, c);
		secret_forget(&k);
		free(server);
		add_note(note, "the password was removed from the Secret Service");
		break;
	case CREDENTIAL_CONFIG:
		add_note(note, "the password is in the configuration (");
		if (note)
			strbuf_addf(note, "%s)", c->config_key);
		break;
	default:
		break;
	}
}

/* ---- --store-password, --forget-password ---- */

/* The new password: git's prompt on a terminal, else the first line of standard input. */
static int read_new_password(struct credential *c)
{
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	if (isatty(0))
		return git_fill(c, 0, 1) < 0 ? error("no password given") : 0;
	/* unbuffered: no copy left in stdio's buffer; the line, short, read a byte at a time */
	setvbuf(stdin, NULL, _IONBF, 0);
	strbuf_grow(&line, GIT_IO_ROOM);
	if (strbuf_getline(&line, stdin) == EOF || !line.len)
		ret = error("no password given");
	else if (memchr(line.buf, '\0', line.len))
		ret = error("the password holds a NUL byte");
	else
		c->password = secmem_strndup(line.buf, line.len);
	wipe_release(&line);
	return ret;
}

enum maint_result credential_store(struct credential *c)
{
	struct secret_key k;
	char *server;
	enum maint_result ret;

	if (read_new_password(c) < 0)
		return RESULT_FATAL;
	secmem_protect_process();
	if (c->helpers)
		return run_git(c, "approve", 1, 0, 1, NULL) ?
		       error("'git credential approve' failed") : RESULT_OK;
	server = secret_key_of(&k, c);
	ret = secret_store(&k, c->password);
	free(server);
	if (ret != RESULT_OK)
		advise("or keep it with git's credential helpers: git config --global credential.helper store\n"
		       "(or cache, libsecret, ...), then store it again");
	return ret;
}

enum maint_result credential_forget(struct credential *c)
{
	struct secret_key k;
	char *server;
	enum maint_result ret;

	if (c->helpers)
		return run_git(c, "reject", 1, 0, 0, NULL) ?
		       error("'git credential reject' failed") : RESULT_OK;
	server = secret_key_of(&k, c);
	ret = secret_forget(&k);
	free(server);
	return ret;
}

void credential_release(struct credential *c)
{
	free(c->protocol);
	free(c->host);
	free(c->path);
	free(c->username);
	secmem_free(c->password);
	strbuf_release(&c->secret_why);
	c->protocol = c->host = c->path = c->username = c->password = NULL;
}
