/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git's configuration files without libgit2 (see gitconfig.h).
 */
#include "gitconfig.h"
#include "strbuf.h"
#include "usage.h"
#include "wildmatch.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_INCLUDE_DEPTH 10

/* One gitconfig_read(): the repository, for includeIf's conditions, and where the variables go. */
struct reading {
	const char *gitdir;	/* NULL outside a repository */
	int worktree_config;	/* extensions.worktreeConfig was set true */
	gitconfig_fn *fn;
	void *data;
};

struct parser {
	enum config_level level;
	struct reading *where;
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

static int read_file(enum config_level level, struct reading *w, const char *path, int depth);

int config_parse_bool(const char *v)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcmp(v, "0") || !*v)
		return 0;
	return -1;
}

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
	p->where->fn(name.buf, val, p->level, p->where->data);
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
			ret = read_file(p->level, p->where, path.buf, p->depth + 1);
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
static int read_file(enum config_level level, struct reading *w, const char *path, int depth)
{
	struct parser p = { level, w, path, depth, NULL, 0, 0, 1, 0, 0, STRBUF_INIT, STRBUF_INIT, 0 };
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

static int read_global(struct reading *w)
{
	const char *env = getenv("GIT_CONFIG_GLOBAL"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (env)
		return *env ? read_file(CONFIG_LEVEL_GLOBAL, w, env, 0) : 0;
	if (xdg && *xdg)
		strbuf_addf(&path, "%s/git/config", xdg);
	else if (home)
		strbuf_addf(&path, "%s/.config/git/config", home);
	if (path.len)
		ret = read_file(CONFIG_LEVEL_GLOBAL, w, path.buf, 0);
	strbuf_reset(&path);
	if (!ret && home) {
		strbuf_addf(&path, "%s/.gitconfig", home);
		ret = read_file(CONFIG_LEVEL_GLOBAL, w, path.buf, 0);
	}
	strbuf_release(&path);
	return ret;
}

int gitconfig_read(const char *gitdir, const char *commondir, gitconfig_fn *fn, void *data)
{
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	struct reading w = { gitdir, 0, fn, data };
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (!env_true("GIT_CONFIG_NOSYSTEM") && (!sys || *sys))
		ret = read_file(CONFIG_LEVEL_SYSTEM, &w, sys ? sys : "/etc/gitconfig", 0);
	if (!ret)
		ret = read_global(&w);
	if (!ret && gitdir) {
		strbuf_addf(&path, "%s/config", commondir ? commondir : gitdir);
		ret = read_file(CONFIG_LEVEL_REPO, &w, path.buf, 0);
		if (!ret && w.worktree_config) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/config.worktree", gitdir);
			ret = read_file(CONFIG_LEVEL_REPO, &w, path.buf, 0);
		}
	}
	strbuf_release(&path);
	return ret;
}
