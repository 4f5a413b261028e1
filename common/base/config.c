/* SPDX-License-Identifier: GPL-2.0-only */
#include "config.h"
#include "gitdir.h"
#include "utf8.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum key_type { KEY_STRING, KEY_BOOL, KEY_INT, KEY_ENUM };

/*
 * Every key git-maint reads. Documentation/git-maint.adoc describes each;
 * t/t0001-foundation.sh checks the two agree.
 */
static const struct known_key {
	const char *section;
	int subsection;		/* 1: needs [section "name"], 0: must not have one */
	const char *key;
	enum key_type type;
	const char *choices;	/* KEY_ENUM: "a|b|c" */
} known_keys[] = {
	{ "tree", 1, "public", KEY_STRING },
	{ "tree", 1, "work", KEY_STRING },
	{ "tree", 1, "remote", KEY_STRING },
	{ "tree", 1, "backup", KEY_STRING },
	{ "tree", 1, "link", KEY_STRING },
	{ "tree", 1, "signoff", KEY_BOOL },
	{ "tree", 1, "check", KEY_STRING },
	{ "tree", 1, "check-failure", KEY_ENUM, "warn|stop" },
	{ "tree", 1, "build", KEY_STRING },
	{ "tree", 1, "build-each", KEY_BOOL },
	{ "tree", 1, "notify", KEY_BOOL },
	{ "tree", 1, "notify-reverts", KEY_BOOL },
	{ "tree", 1, "check-signoff", KEY_BOOL },
	{ "tree", 1, "check-fixes", KEY_BOOL },
	{ "publish", 0, "timeout", KEY_INT },
	{ "publish", 0, "check-signoff", KEY_BOOL },
	{ "publish", 0, "check-fixes", KEY_BOOL },
	{ "publish", 0, "notify-reverts", KEY_BOOL },
	{ "tree", 1, "url", KEY_STRING },
	{ "tree", 1, "commit-url", KEY_STRING },
	{ "queue", 0, "signoff", KEY_BOOL },
	{ "queue", 0, "fuzz", KEY_INT },
	{ "queue", 0, "3way", KEY_BOOL },
	{ "queue", 0, "link", KEY_STRING },
	{ "queue", 0, "trailers", KEY_STRING },
	{ "queue", 0, "sloppy-trailers", KEY_BOOL },
	{ "smtp", 0, "server", KEY_STRING },
	{ "smtp", 0, "port", KEY_INT },
	{ "smtp", 0, "encryption", KEY_ENUM, "starttls|ssl|none" },
	{ "smtp", 0, "user", KEY_STRING },
	{ "smtp", 0, "envelope-sender", KEY_STRING },
	{ "smtp", 0, "cainfo", KEY_STRING },
	{ "smtp", 0, "domain", KEY_STRING },
	{ "smtp", 0, "timeout", KEY_INT },
	{ "smtp", 0, "password", KEY_STRING },
	{ "notify", 0, "from", KEY_STRING },
	{ "notify", 0, "cc", KEY_STRING },
	{ "notify", 0, "exclude", KEY_STRING },
	{ "notify", 0, "template", KEY_STRING },
	{ "notify", 0, "revert-template", KEY_STRING },
	{ "mbox", 0, "max-message-size", KEY_INT },
	{ "attest", 0, "policy", KEY_ENUM, "off|check|softfail|hardfail" },
	{ "attest", 0, "dkim-keys", KEY_STRING },
	{ "attest", 0, "timeout", KEY_INT },
	{ "archive", 0, "url", KEY_STRING },
	{ "archive", 0, "cainfo", KEY_STRING },
	{ "archive", 0, "timeout", KEY_INT },
	{ "archive", 0, "cache-expire", KEY_INT },
	{ "archive", 0, "max-size", KEY_INT },
	{ "archive", 0, "max-time", KEY_INT },
	{ "archive", 0, "cache-max-size", KEY_INT },
	{ "imap", 0, "cainfo", KEY_STRING },
	{ "imap", 0, "timeout", KEY_INT },
};

int config_parse_bool(const char *v)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcmp(v, "0") || !*v)
		return 0;
	return -1;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);

	while (choices) {
		const char *bar = strchr(choices, '|');
		size_t len = bar ? (size_t)(bar - choices) : strlen(choices);

		if (len == n && !strncmp(choices, v, n))
			return 1;
		choices = bar ? bar + 1 : NULL;
	}
	return 0;
}

struct ini_reader {
	struct maint_config *cfg;
	FILE *fp;
	const char *path;
	int line;
	int failed;		/* our own error already reported */
};

/*
 * inih's stream reader: counts lines (for messages), drops CR, rejects
 * over-long lines and NUL bytes (fgets() would hide the rest of the line
 * behind a NUL, and the file would pass for read whole).
 */
static char *read_line(char *buf, int size, void *data)
{
	struct ini_reader *r = data;
	size_t len = 0;
	int c;

	if (r->failed)
		return NULL;
	while (len < (size_t)size - 1 && (c = getc(r->fp)) != EOF) {
		if (!c) {
			error("%s:%d: NUL byte in the line", r->path, r->line + 1);
			r->failed = 1;
			return NULL;
		}
		buf[len++] = c;
		if (c == '\n')
			break;
	}
	if (!len)
		return NULL;
	buf[len] = '\0';
	r->line++;
	if (len == (size_t)size - 1 && buf[len - 1] != '\n' && !feof(r->fp)) {
		error("%s:%d: line too long (limit %d bytes)", r->path, r->line, size - 2);
		r->failed = 1;
		return NULL;
	}
	if (len >= 2 && buf[len - 2] == '\r' && buf[len - 1] == '\n') {
		buf[len - 2] = '\n';
		buf[len - 1] = '\0';
		len--;
	}
	/*
	 * Keys are indented under their section as in git config; inih
	 * would take an indented line for the continuation of the previous
	 * value, so the indentation is dropped here.
	 */
	if (buf[0] == ' ' || buf[0] == '\t') {
		size_t skip = strspn(buf, " \t");

		memmove(buf, buf + skip, len - skip + 1);
	}
	return buf;
}

/* A password in a file others may read: said, as ssh says it of a key. */
static void warn_if_readable(const char *path, int line)
{
	struct stat st;

	if (!stat(path, &st) && (st.st_mode & 077))
		warning("%s:%d: a password in a file others can read; 'chmod go= %s'", path, line, path);
}

/* "tree \"usb\"" -> section "tree", subsection "usb". */
static int split_section(const char *in, char **section, char **subsection)
{
	const char *sp = in, *q;
	size_t n;

	while (*sp && !isspace((unsigned char)*sp))
		sp++;
	*section = xstrndup(in, sp - in);
	for (char *p = *section; *p; p++)
		*p = tolower((unsigned char)*p);
	*subsection = NULL;
	while (isspace((unsigned char)*sp))
		sp++;
	if (!*sp)
		return 0;
	if (*sp != '"')
		return -1;
	q = strchr(sp + 1, '"');
	if (!q || q[1])
		return -1;
	n = q - sp - 1;
	*subsection = xstrndup(sp + 1, n);
	return 0;
}

static int handler(void *data, const char *section, const char *name, const char *value)
{
	struct ini_reader *r = data;
	struct maint_config *cfg = r->cfg;
	char *sec = NULL, *sub = NULL, *key;
	const struct known_key *k = NULL;
	struct config_entry *e;
	size_t i;

	if (!name)	/* a section header alone */
		return 1;
	if (split_section(section, &sec, &sub) < 0) {
		error("%s:%d: bad section header '[%s]'", r->path, r->line, section);
		goto fail;
	}
	key = xstrdup(name);
	for (char *p = key; *p; p++)
		*p = tolower((unsigned char)*p);
	for (i = 0; i < ARRAY_SIZE(known_keys); i++)
		if (!strcmp(known_keys[i].section, sec) && !strcmp(known_keys[i].key, key)) {
			k = &known_keys[i];
			break;
		}
	if (!k) {
		error("%s:%d: unknown key '%s' in section '%s'", r->path, r->line, name, section);
		goto fail_key;
	}
	if (k->subsection != !!sub) {
		error("%s:%d: section '%s' %s a name, as in [%s%s]", r->path, r->line, sec,
		      k->subsection ? "needs" : "takes no", sec, k->subsection ? " \"name\"" : "");
		goto fail_key;
	}
	if (!utf8_valid(value, strlen(value))) {
		error("%s:%d: value of '%s' is not valid UTF-8", r->path, r->line, name);
		goto fail_key;
	}
	if ((k->type == KEY_BOOL && config_parse_bool(value) < 0) ||
	    (k->type == KEY_ENUM && !choice_ok(k->choices, value))) {
		error("%s:%d: bad value '%s' for '%s'%s%s", r->path, r->line, value, name,
		      k->type == KEY_ENUM ? ": expected " : "", k->type == KEY_ENUM ? k->choices : "");
		goto fail_key;
	}
	if (k->type == KEY_INT) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (!*value || *end || errno || v < 0 || v > 2147483647L) {
			error("%s:%d: bad value '%s' for '%s': expected a number", r->path, r->line, value, name);
			goto fail_key;
		}
	}
	if (!strcmp(key, "password"))
		warn_if_readable(r->path, r->line);
	for (i = 0; i < cfg->nr; i++) {
		e = &cfg->entries[i];
		if (!strcmp(e->file, r->path) && !strcmp(e->section, sec) && !strcmp(e->key, key) &&
		    ((!e->subsection && !sub) || (e->subsection && sub && !strcmp(e->subsection, sub)))) {
			error("%s:%d: duplicate key '%s' (first set at line %d)", r->path, r->line, name, e->line);
			goto fail_key;
		}
	}
	ALLOC_GROW(cfg->entries, cfg->nr + 1, cfg->alloc);
	e = &cfg->entries[cfg->nr++];
	e->section = sec;
	e->subsection = sub;
	e->key = key;
	e->value = xstrdup(value);
	e->file = xstrdup(r->path);
	e->line = r->line;
	return 1;

fail_key:
	free(key);
fail:
	free(sec);
	free(sub);
	r->failed = 1;
	return 0;
}

int config_read_file(struct maint_config *cfg, const char *path, int must_exist)
{
	struct ini_reader r = { cfg, NULL, path, 0, 0 };
	int rc;

	r.fp = fopen(path, "r");
	if (!r.fp) {
		if (errno == ENOENT && !must_exist)
			return 0;
		return error_errno("cannot read config file '%s'", path);
	}
	rc = ini_parse_stream(read_line, &r, handler, &r);
	if (ferror(r.fp) && !r.failed) {
		error_errno("%s:%d: read error", path, r.line);
		r.failed = 1;
	}
	fclose(r.fp);
	if (r.failed)
		return -1;
	if (rc > 0)
		return error("%s:%d: syntax error (expected [section] or key = value)", path, rc);
	if (rc < 0)
		return error("cannot parse config file '%s'", path);
	return 0;
}

int config_read_user_file(struct maint_config *cfg)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (xdg && *xdg)
		strbuf_addf(&path, "%s/git-maint/config", xdg);
	else if (home)
		strbuf_addf(&path, "%s/.config/git-maint/config", home);
	if (path.len)
		ret = config_read_file(cfg, path.buf, 0);
	strbuf_release(&path);
	return ret;
}

int config_load_ini(struct maint_config *cfg)
{
	struct strbuf path = STRBUF_INIT;
	int ret = config_read_user_file(cfg);

	if (!ret && !gitdir_discover_common(&path)) {
		strbuf_addstr(&path, "/maint.ini");
		ret = config_read_file(cfg, path.buf, 0);
	}
	strbuf_release(&path);
	return ret;
}

void config_release(struct maint_config *cfg)
{
	for (size_t i = 0; i < cfg->nr; i++) {
		struct config_entry *e = &cfg->entries[i];

		free(e->section);
		free(e->subsection);
		free(e->key);
		free(e->value);
		free(e->file);
	}
	free(cfg->entries);
	for (size_t i = 0; i < cfg->git_nr; i++) {
		free(cfg->git[i].name);
		free(cfg->git[i].value);
	}
	free(cfg->git);
	cfg->entries = NULL;
	cfg->nr = cfg->alloc = 0;
	cfg->git = NULL;
	cfg->git_nr = cfg->git_alloc = 0;
}

void config_add_git(struct maint_config *cfg, const char *name, const char *value)
{
	ALLOC_GROW(cfg->git, cfg->git_nr + 1, cfg->git_alloc);
	cfg->git[cfg->git_nr].name = xstrdup(name);
	cfg->git[cfg->git_nr].value = value ? xstrdup(value) : NULL;
	cfg->git_nr++;
}

/*
 * Does a listed name (section and key lower-cased) equal name as a
 * caller writes it ("sendemail.smtpServer")? The subsection, between the
 * first and the last dot, compares exactly, the rest in any case.
 */
static int git_name_is(const char *listed, const char *name)
{
	const char *first = strchr(name, '.'), *last = strrchr(name, '.');
	size_t len = strlen(name);

	if (!first || strlen(listed) != len)
		return 0;
	return !strncasecmp(listed, name, first - name) &&
	       !strncmp(listed + (first - name), first, last - first) &&
	       !strcasecmp(listed + (last - name), last);
}

/* The last entry of name, or NULL. */
static const struct config_git_entry *git_entry(const struct maint_config *cfg, const char *name)
{
	for (size_t i = cfg->git_nr; i-- > 0;)
		if (git_name_is(cfg->git[i].name, name))
			return &cfg->git[i];
	return NULL;
}

char *config_git_string(const struct maint_config *cfg, const char *name)
{
	const struct config_git_entry *e = git_entry(cfg, name);

	return e && e->value ? xstrdup(e->value) : NULL;
}

int config_git_bool(const struct maint_config *cfg, const char *name, int def)
{
	const struct config_git_entry *e = git_entry(cfg, name);
	int b;

	if (!e)
		return def;
	if (!e->value)
		return 1;	/* a bare "key" is true, as in git */
	b = config_parse_bool(e->value);
	return b < 0 ? def : b;
}

void config_git_strings(const struct maint_config *cfg, const char *name, struct strvec *out)
{
	for (size_t i = 0; i < cfg->git_nr; i++)
		if (cfg->git[i].value && git_name_is(cfg->git[i].name, name))
			strvec_push(out, cfg->git[i].value);
}

const struct config_entry *config_get_entry(const struct maint_config *cfg, const char *section,
					    const char *subsection, const char *key)
{
	for (size_t i = cfg->nr; i-- > 0;) {
		const struct config_entry *e = &cfg->entries[i];

		if (strcmp(e->section, section) || strcmp(e->key, key))
			continue;
		if (!subsection != !e->subsection)
			continue;
		if (subsection && strcmp(subsection, e->subsection))
			continue;
		return e;
	}
	return NULL;
}

const char *config_get(const struct maint_config *cfg, const char *section,
		       const char *subsection, const char *key)
{
	const struct config_entry *e = config_get_entry(cfg, section, subsection, key);

	return e ? e->value : NULL;
}

int config_get_bool(const struct maint_config *cfg, const char *section,
		    const char *subsection, const char *key, int def)
{
	const char *v = config_get(cfg, section, subsection, key);

	return v ? config_parse_bool(v) : def;
}

const char *config_tree_for_branch(const struct maint_config *cfg, const char *branch)
{
	for (size_t i = 0; i < cfg->nr; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (!strcmp(e->section, "tree") && e->subsection &&
		    (!strcmp(e->key, "public") || !strcmp(e->key, "work")) &&
		    !strcmp(e->value, branch))
			return e->subsection;
	}
	return NULL;
}
