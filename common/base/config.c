/* SPDX-License-Identifier: GPL-2.0-only */
#include "config.h"
#include "gitconfig.h"
#include "gitdir.h"
#include "utf8.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum key_type {
	KEY_STRING,
	KEY_BOOL,
	KEY_INT,
	KEY_ENUM,
	KEY_STRING_OR_BOOL,	/* a value, or a boolean (bare: true) */
};

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
	{ "tree", 1, "link", KEY_STRING_OR_BOOL },
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
	{ "tree", 1, "upstream", KEY_STRING },
	{ "tree", 1, "upstream-to", KEY_STRING },
	{ "tree", 1, "upstream-cc", KEY_STRING },
	{ "tree", 1, "tag-format", KEY_STRING },
	{ "tree", 1, "tag-template", KEY_STRING },
	{ "tree", 1, "greeting", KEY_STRING },
	{ "queue", 0, "signoff", KEY_BOOL },
	{ "queue", 0, "fuzz", KEY_INT },
	{ "queue", 0, "3way", KEY_BOOL },
	{ "queue", 0, "link", KEY_STRING_OR_BOOL },
	{ "queue", 0, "trailers", KEY_STRING },
	{ "queue", 0, "sloppy-trailers", KEY_BOOL },
	{ "queue", 0, "applied-depth", KEY_INT },
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
	{ "notify", 0, "max-cc", KEY_INT },
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

/* A bare key means true, as in git; only a boolean may be bare. */
static const char bare_true[] = "true";

static const struct known_key *find_key(const char *sec, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_keys); i++)
		if (!strcmp(known_keys[i].section, sec) && !strcmp(known_keys[i].key, key))
			return &known_keys[i];
	return NULL;
}

/* "[tree \"usb\"] public", or "maint.tree.usb.public": what to call a key in messages. */
struct key_origin {
	const char *file;	/* the INI file, or the git variable's name */
	int line;		/* 0: a git variable, -1: one given with git -c */
};

static void origin_prefix(struct strbuf *out, const struct key_origin *o)
{
	if (o->line > 0)
		strbuf_addf(out, "%s:%d", o->file, o->line);
	else if (o->line < 0)
		strbuf_addf(out, "git -c '%s'", o->file);
	else
		strbuf_addf(out, "git config '%s'", o->file);
}

/* The value's type checked; 0, or -1 reported. value NULL: a bare key. */
static int check_value(const struct known_key *k, const char *name, const char *value,
		       const struct key_origin *o)
{
	struct strbuf where = STRBUF_INIT;
	int ret = 0;

	origin_prefix(&where, o);
	if (!value && k->type != KEY_BOOL && k->type != KEY_STRING_OR_BOOL) {
		ret = error("%s: missing value for '%s'", where.buf, name);
	} else if (!value) {
		ret = 0;
	} else if (!utf8_valid(value, strlen(value))) {
		ret = error("%s: value of '%s' is not valid UTF-8", where.buf, name);
	} else if ((k->type == KEY_BOOL && config_parse_bool(value) < 0) ||
		   (k->type == KEY_ENUM && !choice_ok(k->choices, value))) {
		ret = error("%s: bad value '%s' for '%s'%s%s", where.buf, value, name,
			    k->type == KEY_ENUM ? ": expected " : "", k->type == KEY_ENUM ? k->choices : "");
	} else if (k->type == KEY_INT) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (!*value || *end || errno || v < 0 || v > 2147483647L)
			ret = error("%s: bad value '%s' for '%s': expected a number", where.buf, value, name);
	}
	strbuf_release(&where);
	return ret;
}

/* A password in a file others may read: said, as ssh says it of a key. */
static void warn_if_readable(const char *path, int line)
{
	struct stat st;

	if (!stat(path, &st) && (st.st_mode & 077))
		warning("%s:%d: a password in a file others can read; 'chmod go= %s'", path, line, path);
}

/*
 * One setting, from an INI file or a maint.* variable: checked, then
 * appended (taking sec, sub and key). 0, or -1 reported (and freed).
 */
static int add_setting(struct maint_config *cfg, char *sec, char *sub, char *key, const char *value,
		       const char *name, const char *section_shown, const struct key_origin *o)
{
	const struct known_key *k = find_key(sec, key);
	struct strbuf where = STRBUF_INIT;
	struct config_entry *e;

	origin_prefix(&where, o);
	if (!k) {
		if (section_shown)
			error("%s: unknown key '%s' in section '%s'", where.buf, name, section_shown);
		else
			error("%s: unknown key", where.buf);
		goto fail;
	}
	if (k->subsection != !!sub) {
		error("%s: section '%s' %s a name, as in [%s%s]", where.buf, sec,
		      k->subsection ? "needs" : "takes no", sec, k->subsection ? " \"name\"" : "");
		goto fail;
	}
	if (check_value(k, name, value, o) < 0)
		goto fail;
	if (o->line > 0 && !strcmp(key, "password"))
		warn_if_readable(o->file, o->line);
	for (size_t i = 0; o->line > 0 && i < cfg->nr; i++) {
		e = &cfg->entries[i];
		if (e->line > 0 && !strcmp(e->file, o->file) && !strcmp(e->section, sec) && !strcmp(e->key, key) &&
		    ((!e->subsection && !sub) || (e->subsection && sub && !strcmp(e->subsection, sub)))) {
			error("%s: duplicate key '%s' (first set at line %d)", where.buf, name, e->line);
			goto fail;
		}
	}
	ALLOC_GROW(cfg->entries, cfg->nr + 1, cfg->alloc);
	e = &cfg->entries[cfg->nr++];
	e->section = sec;
	e->subsection = sub;
	e->key = key;
	e->value = xstrdup(value ? value : bare_true);
	e->file = xstrdup(o->file);
	e->line = o->line;
	strbuf_release(&where);
	return 0;
fail:
	strbuf_release(&where);
	free(sec);
	free(sub);
	free(key);
	return -1;
}

/* ---- the INI files, through inih ---- */

struct ini_reader {
	struct maint_config *cfg;
	FILE *fp;
	const char *path;
	int line;
	int failed;		/* our own error already reported */
	struct strbuf buf;	/* the line being read, whole */
	/*
	 * A line inih cannot take as it is (longer than its buffer, or a
	 * bare key, which this inih refuses) is handed to it as "key=";
	 * its real value waits here for the handler.
	 */
	int held_line;		/* that line's number, 0: none */
	char *held;		/* its value; NULL: a bare key */
};

/* inih's inline comment: a ';' after whitespace (or NULL). */
static const char *inline_comment(const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p == ';' && p > s && isspace((unsigned char)p[-1]))
			return p;
	return NULL;
}

/* s[0..len) without the whitespace around it. */
static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* Reads the whole next line into r->buf: 1, 0 at the end, -1 reported. */
static int whole_line(struct ini_reader *r)
{
	int c;

	strbuf_reset(&r->buf);
	while ((c = getc(r->fp)) != EOF) {
		if (!c) {
			error("%s:%d: NUL byte in the line", r->path, r->line + 1);
			return -1;
		}
		if (r->buf.len >= CONFIG_LINE_MAX) {
			error("%s:%d: line too long (limit %d bytes)", r->path, r->line + 1, CONFIG_LINE_MAX);
			return -1;
		}
		if (c == '\n')
			break;
		strbuf_addch(&r->buf, c);
	}
	if (c == EOF && !r->buf.len)
		return 0;
	r->line++;
	if (r->buf.len && r->buf.buf[r->buf.len - 1] == '\r')
		strbuf_setlen(&r->buf, r->buf.len - 1);
	/*
	 * Keys are indented under their section as in git config; inih
	 * would take an indented line for the continuation of the previous
	 * value, so the indentation goes.
	 */
	strbuf_ltrim(&r->buf);
	return 1;
}

/*
 * inih's stream reader: hands inih one line at a time, counting them
 * (for messages). A key line inih could not take (longer than its
 * buffer, or without a value) goes as "key=", its value (as inih would
 * read it: up to an inline comment, trimmed) held for the handler; a
 * long comment goes as "#".
 */
static char *read_line(char *out, int size, void *data)
{
	struct ini_reader *r = data;
	const char *line, *delim, *comment;
	char *name;
	int rc = r->failed ? 0 : whole_line(r);

	if (rc <= 0) {
		r->failed |= rc < 0;
		return NULL;
	}
	line = r->buf.buf;
	delim = strpbrk(line, "=:");
	comment = inline_comment(line);
	if (delim && comment && comment < delim)
		delim = NULL;	/* "key ; a = b": no value, as inih reads it */
	if (r->buf.len + 2 <= (size_t)size && (!*line || strchr("[;#", *line) || delim)) {
		snprintf(out, size, "%s\n", line);
		return out;
	}
	if (*line == ';' || *line == '#') {
		snprintf(out, size, "#\n");
		return out;
	}
	name = trimmed(line, (delim ? delim : comment ? comment : line + r->buf.len) - line);
	if (*line == '[' || strlen(name) + 3 > (size_t)size) {
		error("%s:%d: %s too long", r->path, r->line, *line == '[' ? "section header" : "key name");
		free(name);
		r->failed = 1;
		return NULL;
	}
	free(r->held);
	r->held = NULL;
	if (delim) {
		const char *v = delim + 1, *c = inline_comment(v);

		r->held = trimmed(v, c ? (size_t)(c - v) : strlen(v));
	}
	r->held_line = r->line;
	snprintf(out, size, "%s=\n", name);
	free(name);
	return out;
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
	struct key_origin o = { r->path, r->line };
	char *sec = NULL, *sub = NULL, *key;

	if (!name)	/* a section header alone */
		return 1;
	if (r->held_line == r->line)
		value = r->held;
	if (split_section(section, &sec, &sub) < 0) {
		error("%s:%d: bad section header '[%s]'", r->path, r->line, section);
		free(sec);
		free(sub);
		r->failed = 1;
		return 0;
	}
	key = xstrdup(name);
	for (char *p = key; *p; p++)
		*p = tolower((unsigned char)*p);
	if (add_setting(r->cfg, sec, sub, key, value, name, section, &o) < 0) {
		r->failed = 1;
		return 0;
	}
	return 1;
}

int config_read_file(struct maint_config *cfg, const char *path, int must_exist)
{
	struct ini_reader r = { cfg, NULL, path, 0, 0, STRBUF_INIT, 0, NULL };
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
	strbuf_release(&r.buf);
	free(r.held);
	if (r.failed)
		return -1;
	if (rc > 0)
		return error("%s:%d: syntax error (expected [section] or key = value)", path, rc);
	if (rc < 0)
		return error("cannot parse config file '%s'", path);
	return 0;
}

static int read_user_file(struct maint_config *cfg)
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

/* ---- git's variables ---- */

/*
 * "maint.tree.usb.public" into section "tree", subsection "usb", key
 * "public"; "maint.smtp.server" into "smtp", none, "server". -1 when the
 * name is not of that form.
 */
static int split_maint_name(const char *name, char **sec, char **sub, char **key)
{
	const char *rest, *last = strrchr(name, '.'), *dot;

	if (!skip_iprefix(name, "maint.", &rest) || last < rest)
		return -1;
	dot = memchr(rest, '.', last - rest);
	*sec = xstrndup(rest, (dot ? dot : last) - rest);
	for (char *p = *sec; *p; p++)
		*p = tolower((unsigned char)*p);
	*sub = dot ? xstrndup(dot + 1, last - dot - 1) : NULL;
	*key = xstrdup(last + 1);
	return 0;
}

/*
 * Keys git's config cannot spell (its names start with a letter): their
 * name under maint.*, as git am's --3way is am.threeWay.
 */
static const char *const git_spellings[][2] = {
	{ "threeway", "3way" },
};

/* The maint.* variables set at levels [from, to] as settings. */
static int add_maint_vars(struct maint_config *cfg, enum config_level from, enum config_level to)
{
	for (size_t i = 0; i < cfg->git_nr; i++) {
		const struct config_git_entry *g = &cfg->git[i];
		struct key_origin o = { g->name, g->level == CONFIG_LEVEL_COMMAND ? -1 : 0 };
		char *sec, *sub, *key;

		if (g->level < from || g->level > to || strncasecmp(g->name, "maint.", 6))
			continue;
		if (split_maint_name(g->name, &sec, &sub, &key) < 0)
			return error("git config '%s': unknown key (git-maint's are maint.<section>.<key>)",
				     g->name);
		for (size_t j = 0; j < ARRAY_SIZE(git_spellings); j++)
			if (!strcasecmp(key, git_spellings[j][0])) {
				free(key);
				key = xstrdup(git_spellings[j][1]);
			}
		if (add_setting(cfg, sec, sub, key, g->value, g->name, NULL, &o) < 0)
			return -1;
	}
	return 0;
}

/*
 * A git variable git-maint would read as maint.<name>: "archive.url"
 * set with `git config` is not ours, and silence would leave the user
 * wondering. Each name once.
 */
static void warn_misplaced(const struct maint_config *cfg)
{
	for (size_t i = 0; i < cfg->git_nr; i++) {
		const char *name = cfg->git[i].name, *dot = strchr(name, '.'), *last = strrchr(name, '.');
		const struct known_key *k;
		char *sec, *key;
		int seen = 0;

		if (!dot || !strncasecmp(name, "maint.", 6))
			continue;
		sec = xstrndup(name, dot - name);
		key = xstrdup(last + 1);
		k = find_key(sec, key);
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(cfg->git[j].name, name);
		if (k && k->subsection == (dot != last) && !seen)
			warning("'%s' in git's config is not read by git-maint: set 'maint.%s'", name, name);
		free(sec);
		free(key);
	}
}

int config_assemble(struct maint_config *cfg, const char *commondir)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	if (add_maint_vars(cfg, CONFIG_LEVEL_SYSTEM, CONFIG_LEVEL_GLOBAL) < 0 || read_user_file(cfg) < 0 ||
	    add_maint_vars(cfg, CONFIG_LEVEL_REPO, CONFIG_LEVEL_REPO) < 0)
		goto out;
	if (commondir) {
		strbuf_addf(&path, "%s/maint.ini", commondir);
		if (config_read_file(cfg, path.buf, 0) < 0)
			goto out;
	}
	if (add_maint_vars(cfg, CONFIG_LEVEL_COMMAND, CONFIG_LEVEL_COMMAND) < 0)
		goto out;
	warn_misplaced(cfg);
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/* gitconfig_read()'s variables into cfg. */
static void add_git_variable(const char *name, const char *value, enum config_level level, void *cfg)
{
	config_add_git(cfg, name, value, level);
}

int config_add_command_line(struct maint_config *cfg)
{
	return gitconfig_read_command_line(add_git_variable, cfg);
}

int config_load_files(struct maint_config *cfg)
{
	struct strbuf gitdir = STRBUF_INIT, common = STRBUF_INIT;
	int in_repo = !gitdir_discover(&gitdir, NULL) && !gitdir_discover_common(&common);
	int ret;

	ret = gitconfig_read(in_repo ? gitdir.buf : NULL, in_repo ? common.buf : NULL, add_git_variable, cfg);
	if (!ret)
		ret = config_assemble(cfg, in_repo ? common.buf : NULL);
	strbuf_release(&gitdir);
	strbuf_release(&common);
	return ret;
}

void config_entry_origin(struct strbuf *out, const struct config_entry *e)
{
	struct key_origin o = { e->file, e->line };

	origin_prefix(out, &o);
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

void config_add_git(struct maint_config *cfg, const char *name, const char *value,
		    enum config_level level)
{
	ALLOC_GROW(cfg->git, cfg->git_nr + 1, cfg->git_alloc);
	cfg->git[cfg->git_nr].name = xstrdup(name);
	cfg->git[cfg->git_nr].value = xstrdup_or_null(value);
	cfg->git[cfg->git_nr].level = level;
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

int config_git_int(const struct maint_config *cfg, const char *name, int def, int *out)
{
	const struct config_git_entry *e = git_entry(cfg, name);
	long long v, unit = 1;
	char *end;

	*out = def;
	if (!e)
		return 0;
	errno = 0;
	v = e->value ? strtoll(e->value, &end, 0) : 0;
	if (e->value && end != e->value) {
		if (*end == 'k' || *end == 'K')
			unit = 1024, end++;
		else if (*end == 'm' || *end == 'M')
			unit = 1024 * 1024, end++;
		else if (*end == 'g' || *end == 'G')
			unit = 1024 * 1024 * 1024, end++;
	}
	if (!e->value || end == e->value || *end || errno || v > INT_MAX / unit || v < INT_MIN / unit)
		return error("bad numeric config value '%s' for '%s'", e->value ? e->value : "", name);
	*out = (int)(v * unit);
	return 0;
}

int config_git_has(const struct maint_config *cfg, const char *name)
{
	return !!git_entry(cfg, name);
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
