/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git's configuration files without libgit2 (see gitconfig.h).
 */
#include "gitconfig.h"
#include "usage.h"
#include "wildmatch.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_INCLUDE_DEPTH 10

/* The repository, for includeIf's conditions. */
struct where {
	const char *gitdir;	/* NULL outside a repository */
	int worktree_config;	/* extensions.worktreeConfig was set true */
};

struct parser {
	struct maint_config *cfg;
	enum config_level level;
	struct where *where;
	const char *path;	/* the file, for messages and relative includes */
	int depth;		/* of includes */
	const char *buf;
	size_t len, pos;
	int line;
	int eof;
	int after_newline;	/* the last byte read ended a line */
	struct strbuf sec;	/* the section, lower-cased */
	struct strbuf sub;	/* its subsection as written; has_sub says whether there is one */
	int has_sub;
};

static int read_file(struct maint_config *cfg, enum config_level level, struct where *w,
		     const char *path, int depth);

/* The next byte, CRLF as LF; '\n' at the end of the file (and eof set). */
static int next_char(struct parser *p)
{
	int c;

	if (p->pos >= p->len) {
		p->eof = 1;
		p->after_newline = 0;
		return '\n';
	}
	c = (unsigned char)p->buf[p->pos++];
	if (c == '\r' && p->pos < p->len && p->buf[p->pos] == '\n')
		c = (unsigned char)p->buf[p->pos++];
	p->after_newline = c == '\n';
	p->line += p->after_newline;
	return c;
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '-';
}

/* The line that is wrong: the one a newline just ended, when it was read last (as git counts). */
static int bad_line(struct parser *p)
{
	return error("bad config line %d in file '%s'", p->line - p->after_newline, p->path);
}

/* [section "subsection"]: after the space that follows the section's name. */
static int extended_section(struct parser *p, int c)
{
	while (c == ' ' || c == '\t')
		c = next_char(p);
	if (c != '"')
		return -1;
	p->has_sub = 1;
	for (;;) {
		c = next_char(p);
		if (c == '\n')
			return -1;
		if (c == '"')
			break;
		if (c == '\\') {
			c = next_char(p);
			if (c == '\n')
				return -1;
		}
		strbuf_addch(&p->sub, c);
	}
	return next_char(p) == ']' ? 0 : -1;
}

/* After '[': the section, its subsection. */
static int section_header(struct parser *p)
{
	char *dot;

	strbuf_reset(&p->sec);
	strbuf_reset(&p->sub);
	p->has_sub = 0;
	for (;;) {
		int c = next_char(p);

		if (p->eof)
			return -1;
		if (c == ']')
			break;
		if (isspace(c))
			return extended_section(p, c);
		if (!is_key_char(c) && c != '.')
			return -1;
		strbuf_addch(&p->sec, tolower(c));
	}
	/* the old [section.subsection], lower-cased whole */
	dot = strchr(p->sec.buf, '.');
	if (dot) {
		strbuf_addstr(&p->sub, dot + 1);
		strbuf_setlen(&p->sec, dot - p->sec.buf);
		p->has_sub = 1;
	}
	return p->sec.len ? 0 : -1;
}

/* After "=": the value, as git reads it. */
static int value(struct parser *p, struct strbuf *out)
{
	int quote = 0, comment = 0;
	size_t space = 0;

	for (;;) {
		int c = next_char(p);

		if (c == '\n')
			return quote ? -1 : 0;
		if (comment)
			continue;
		if (isspace(c) && !quote) {
			if (out->len)
				space++;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = 1;
			continue;
		}
		strbuf_addchars(out, ' ', space);
		space = 0;
		if (c == '\\') {
			c = next_char(p);
			switch (c) {
			case '\n':
				if (p->eof)
					return -1;
				continue;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return -1;
			}
			strbuf_addch(out, c);
			continue;
		}
		if (c == '"') {
			quote = !quote;
			continue;
		}
		strbuf_addch(out, c);
	}
}

/* "~/x" from $HOME, a relative path from the including file's directory. */
static void include_path(struct strbuf *out, const struct parser *p, const char *path)
{
	const char *home = getenv("HOME"), *slash;

	if (starts_with(path, "~/") && home) {
		strbuf_addf(out, "%s/%s", home, path + 2);
	} else if (*path == '/') {
		strbuf_addstr(out, path);
	} else {
		slash = strrchr(p->path, '/');
		if (slash)
			strbuf_add(out, p->path, slash - p->path + 1);
		strbuf_addstr(out, path);
	}
}

/* A pattern completed as git completes includeIf's: "**" + "/" in front of a relative one, "**" after a trailing '/'. */
static void complete_pattern(struct strbuf *out, const struct parser *p, const char *pat, int is_gitdir)
{
	const char *home = getenv("HOME"), *slash;

	if (is_gitdir && starts_with(pat, "~/") && home) {
		strbuf_addf(out, "%s/%s", home, pat + 2);
	} else if (is_gitdir && starts_with(pat, "./")) {
		slash = strrchr(p->path, '/');
		if (slash)
			strbuf_add(out, p->path, slash - p->path);
		strbuf_addstr(out, pat + 1);
	} else {
		if (is_gitdir && *pat != '/' && !starts_with(pat, "**/"))
			strbuf_addstr(out, "**/");
		strbuf_addstr(out, pat);
	}
	if (ends_with(out->buf, "/"))
		strbuf_addstr(out, "**");
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = tolower((unsigned char)*s);
}

static int gitdir_matches(const struct parser *p, const char *pat, int icase)
{
	struct strbuf pattern = STRBUF_INIT;
	char real[PATH_MAX];
	const char *texts[2] = { p->where->gitdir, realpath(p->where->gitdir, real) ? real : NULL };
	int match = 0;

	complete_pattern(&pattern, p, pat, 1);
	if (icase)
		lower(pattern.buf);
	for (int i = 0; i < 2 && !match; i++) {
		char *text;

		if (!texts[i])
			continue;
		text = xstrdup(texts[i]);
		if (icase)
			lower(text);
		match = wildmatch(pattern.buf, text);
		free(text);
	}
	strbuf_release(&pattern);
	return match;
}

static int branch_matches(const struct parser *p, const char *pat)
{
	struct strbuf head = STRBUF_INIT, pattern = STRBUF_INIT, file = STRBUF_INIT;
	const char *branch;
	int match = 0;

	strbuf_addf(&file, "%s/HEAD", p->where->gitdir);
	if (strbuf_read_file(&head, file.buf, 64) >= 0) {
		strbuf_trim(&head);
		if (skip_prefix(head.buf, "ref: refs/heads/", &branch)) {
			complete_pattern(&pattern, p, pat, 0);
			match = wildmatch(pattern.buf, branch);
		}
	}
	strbuf_release(&head);
	strbuf_release(&pattern);
	strbuf_release(&file);
	return match;
}

/* includeIf "<cond>": does it hold? */
static int condition_holds(const struct parser *p, const char *cond)
{
	const char *pat;

	if (!p->where->gitdir)
		return 0;
	if (skip_prefix(cond, "gitdir:", &pat))
		return gitdir_matches(p, pat, 0);
	if (skip_prefix(cond, "gitdir/i:", &pat))
		return gitdir_matches(p, pat, 1);
	if (skip_prefix(cond, "onbranch:", &pat))
		return branch_matches(p, pat);
	return 0;
}

/* One variable read: kept, and followed when it is an include. */
static int variable(struct parser *p, const char *key, const char *val)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0, include;

	strbuf_addbuf(&name, &p->sec);
	if (p->has_sub) {
		strbuf_addch(&name, '.');
		strbuf_addbuf(&name, &p->sub);
	}
	strbuf_addf(&name, ".%s", key);
	config_add_git(p->cfg, name.buf, val, p->level);
	if (!strcmp(name.buf, "extensions.worktreeconfig"))
		p->where->worktree_config = !val || config_parse_bool(val) == 1;
	include = strcmp(key, "path") ? 0 :
		  !strcmp(p->sec.buf, "include") && !p->has_sub ? 1 :
		  !strcmp(p->sec.buf, "includeif") && p->has_sub ? condition_holds(p, p->sub.buf) : 0;
	if (include && val) {
		if (p->depth >= MAX_INCLUDE_DEPTH) {
			ret = error("exceeded maximum include depth (%d) while including '%s' from '%s'",
				    MAX_INCLUDE_DEPTH, val, p->path);
		} else {
			include_path(&path, p, val);
			ret = read_file(p->cfg, p->level, p->where, path.buf, p->depth + 1);
		}
	}
	strbuf_release(&name);
	strbuf_release(&path);
	return ret;
}

/* The first letter read: the rest of the name, then its value. */
static int name_and_value(struct parser *p, int c)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	int ret = -1, has_value = 0;

	strbuf_addch(&key, tolower(c));
	for (;;) {
		c = next_char(p);
		if (p->eof || !is_key_char(c))
			break;
		strbuf_addch(&key, tolower(c));
	}
	while (c == ' ' || c == '\t')
		c = next_char(p);
	if (c == '=') {
		has_value = 1;
		if (value(p, &val) < 0)
			goto out;
	} else if (c != '\n') {
		goto out;
	}
	if (!p->sec.len)
		goto out;
	ret = variable(p, key.buf, has_value ? val.buf : NULL) < 0 ? -2 : 0;
out:
	strbuf_release(&key);
	strbuf_release(&val);
	return ret;
}

static int parse(struct parser *p)
{
	int comment = 0;

	if (p->len >= 3 && !memcmp(p->buf, "\xef\xbb\xbf", 3))
		p->pos = 3;
	for (;;) {
		int c = next_char(p), rc;

		if (c == '\n') {
			if (p->eof)
				return 0;
			comment = 0;
			continue;
		}
		if (comment || isspace(c))
			continue;
		if (c == '#' || c == ';') {
			comment = 1;
			continue;
		}
		if (c == '[') {
			if (section_header(p) < 0)
				return bad_line(p);
			continue;
		}
		if (!isalpha(c))
			return bad_line(p);
		rc = name_and_value(p, c);
		if (rc == -2)
			return -1;	/* an include failed: reported */
		if (rc < 0)
			return bad_line(p);
	}
}

/* One file; a missing one is fine. */
static int read_file(struct maint_config *cfg, enum config_level level, struct where *w,
		     const char *path, int depth)
{
	struct parser p = { cfg, level, w, path, depth, NULL, 0, 0, 1, 0, 0, STRBUF_INIT, STRBUF_INIT, 0 };
	struct strbuf buf = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&buf, path, 0) < 0) {
		strbuf_release(&buf);
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return error_errno("cannot read git config file '%s'", path);
	}
	p.buf = buf.buf;
	p.len = buf.len;
	ret = parse(&p);
	strbuf_release(&p.sec);
	strbuf_release(&p.sub);
	strbuf_release(&buf);
	return ret;
}

/* ---- git's command line: git -c, GIT_CONFIG_COUNT ---- */

/*
 * A name as git -c gives it ("Maint.Tree.usb.Public") as git lists it:
 * section and key lower-cased, the subsection as written. 0, or -1
 * reported with git's words.
 */
static int canonical_key(const char *key, struct strbuf *out)
{
	const char *last = strrchr(key, '.');
	size_t base;

	if (!*key)
		return error("empty config key");
	if (!last || last == key)
		return error("key does not contain a section: %s", key);
	if (!last[1])
		return error("key does not contain variable name: %s", key);
	base = last - key;
	for (size_t i = 0, dot = 0; key[i]; i++) {
		unsigned char c = key[i];

		dot |= c == '.';
		if (!dot || i > base) {
			if (!is_key_char(c) || (i == base + 1 && !isalpha(c)))
				return error("invalid key: %s", key);
			c = tolower(c);
		} else if (c == '\n') {
			return error("invalid key (newline): %s", key);
		}
		strbuf_addch(out, c);
	}
	return 0;
}

static int add_command_line(struct maint_config *cfg, const char *key, const char *value)
{
	struct strbuf name = STRBUF_INIT;
	int ret = canonical_key(key, &name);

	if (!ret)
		config_add_git(cfg, name.buf, value, CONFIG_LEVEL_COMMAND);
	strbuf_release(&name);
	return ret;
}

/*
 * One shell-quoted word at *s ('a'\''b' is a'b), unquoted in place;
 * *s is left after it (NULL at the end). NULL when it is not one.
 */
static char *sq_dequote_step(char *s, char **next)
{
	char *dst = s, *src = s;

	if (*src != '\'')
		return NULL;
	for (;;) {
		char c = *++src;

		if (!c)
			return NULL;
		if (c != '\'') {
			*dst++ = c;
			continue;
		}
		c = *++src;	/* out of the quotes */
		if (c == '\\' && (src[1] == '\'' || src[1] == '!') && src[2] == '\'') {
			*dst++ = src[1];
			src += 2;
			continue;
		}
		*dst = '\0';
		*next = c ? src : NULL;
		return s;
	}
}

/* The old form, 'key=value' in one word ('key' alone: bare). */
static int add_old_style(struct maint_config *cfg, char *word)
{
	char *eq = strchr(word, '=');
	struct strbuf key = STRBUF_INIT;
	int ret;

	strbuf_add(&key, word, eq ? (size_t)(eq - word) : strlen(word));
	strbuf_trim(&key);
	ret = key.len ? add_command_line(cfg, key.buf, eq ? eq + 1 : NULL) :
			error("bogus config parameter: %s", word);
	strbuf_release(&key);
	return ret;
}

/* $GIT_CONFIG_PARAMETERS: 'key'='value' (or 'key'= : bare, or the old 'key=value'), space-separated. */
static int read_parameters(struct maint_config *cfg, char *s)
{
	static const char bogus[] = "bogus format in GIT_CONFIG_PARAMETERS";

	while (s && *s) {
		char *key = sq_dequote_step(s, &s), *value = NULL;

		if (!key)
			return error(bogus);
		if (!s || isspace((unsigned char)*s)) {
			if (add_old_style(cfg, key) < 0)
				return -1;
		} else if (*s == '=') {
			s++;
			if (*s == '\'') {
				value = sq_dequote_step(s, &s);
				if (!value || (s && !isspace((unsigned char)*s)))
					return error(bogus);
			} else if (*s && !isspace((unsigned char)*s)) {
				return error(bogus);
			}
			if (add_command_line(cfg, key, value) < 0)
				return -1;
		} else {
			return error(bogus);
		}
		while (s && isspace((unsigned char)*s))
			s++;
	}
	return 0;
}

/* GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>. */
static int read_count(struct maint_config *cfg, const char *count_env)
{
	struct strbuf var = STRBUF_INIT;
	unsigned long count;
	char *end;
	int ret = 0;

	errno = 0;
	count = strtoul(count_env, &end, 10);
	if (*end || errno)
		return error("bogus count in GIT_CONFIG_COUNT");
	if (count > INT_MAX)
		return error("too many entries in GIT_CONFIG_COUNT");
	for (unsigned long i = 0; i < count && !ret; i++) {
		const char *key, *value;

		strbuf_reset(&var);
		strbuf_addf(&var, "GIT_CONFIG_KEY_%lu", i);
		key = getenv(var.buf);
		if (!key) {
			ret = error("missing config key %s", var.buf);
			break;
		}
		strbuf_reset(&var);
		strbuf_addf(&var, "GIT_CONFIG_VALUE_%lu", i);
		value = getenv(var.buf);
		ret = value ? add_command_line(cfg, key, value) : error("missing config value %s", var.buf);
	}
	strbuf_release(&var);
	return ret;
}

int gitconfig_read_command_line(struct maint_config *cfg)
{
	const char *count = getenv("GIT_CONFIG_COUNT"), *params = getenv("GIT_CONFIG_PARAMETERS");
	char *copy = params ? xstrdup(params) : NULL;
	int ret = 0;

	if (count)
		ret = read_count(cfg, count);
	if (!ret && copy)
		ret = read_parameters(cfg, copy);
	free(copy);
	return ret < 0 ? error("unable to parse command-line config") : 0;
}

static int read_global(struct maint_config *cfg, struct where *w)
{
	const char *env = getenv("GIT_CONFIG_GLOBAL"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (env)
		return *env ? read_file(cfg, CONFIG_LEVEL_GLOBAL, w, env, 0) : 0;
	if (xdg && *xdg)
		strbuf_addf(&path, "%s/git/config", xdg);
	else if (home)
		strbuf_addf(&path, "%s/.config/git/config", home);
	if (path.len)
		ret = read_file(cfg, CONFIG_LEVEL_GLOBAL, w, path.buf, 0);
	strbuf_reset(&path);
	if (!ret && home) {
		strbuf_addf(&path, "%s/.gitconfig", home);
		ret = read_file(cfg, CONFIG_LEVEL_GLOBAL, w, path.buf, 0);
	}
	strbuf_release(&path);
	return ret;
}

int gitconfig_read(struct maint_config *cfg, const char *gitdir, const char *commondir)
{
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	struct where w = { gitdir, 0 };
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (!env_true("GIT_CONFIG_NOSYSTEM") && (!sys || *sys))
		ret = read_file(cfg, CONFIG_LEVEL_SYSTEM, &w, sys ? sys : "/etc/gitconfig", 0);
	if (!ret)
		ret = read_global(cfg, &w);
	if (!ret && gitdir) {
		strbuf_addf(&path, "%s/config", commondir ? commondir : gitdir);
		ret = read_file(cfg, CONFIG_LEVEL_REPO, &w, path.buf, 0);
		if (!ret && w.worktree_config) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/config.worktree", gitdir);
			ret = read_file(cfg, CONFIG_LEVEL_REPO, &w, path.buf, 0);
		}
	}
	if (!ret)
		ret = gitconfig_read_command_line(cfg);
	strbuf_release(&path);
	return ret;
}
