/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git's configuration files without libgit2 (see gitconfig.h).
 */
#include "gitconfig.h"
#include "ascii.h"
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

int config_parse_bool(const char *v)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcmp(v, "0") || !*v)
		return 0;
	return -1;
}

/* ---- git's config syntax (gitconfig_parse()) ---- */

/*
 * What a piece of the syntax answers: BAD_LINE names the line being read,
 * BAD_INCOMPLETE (a quote or a header a newline cut short) the one the
 * newline just ended, as git counts.
 */
enum { SYNTAX_OK = 0, BAD_LINE = 1, BAD_INCOMPLETE = 2 };

struct syntax {
	const char *buf;
	size_t len, pos;
	int line;		/* as git counts: one more at each newline, and at each read at the end */
	int eof;
	struct strbuf var;	/* "section[.subsection]." then the key: git's name */
	size_t base;		/* var's length before the key */
	struct strbuf sub;	/* the subsection as written, when has_sub */
	size_t section_len;
	int has_sub;
};

/* The next byte, CRLF as LF; '\n' at the end of the text (and eof set). */
static int next_char(struct syntax *s)
{
	int c;

	if (s->pos >= s->len) {
		s->eof = 1;
		s->line++;
		return '\n';
	}
	c = (unsigned char)s->buf[s->pos++];
	if (c == '\r' && s->pos < s->len && s->buf[s->pos] == '\n')
		c = (unsigned char)s->buf[s->pos++];
	s->line += c == '\n';
	return c;
}

static int is_key_char(int c)
{
	return ascii_isalnum(c) || c == '-';
}

/* [section "subsection"]: from the space after the section's name. */
static int extended_section(struct syntax *s, int c)
{
	do {
		if (c == '\n')
			return BAD_INCOMPLETE;
		c = next_char(s);
	} while (git_isspace(c));
	if (c != '"')
		return BAD_LINE;
	s->has_sub = 1;
	s->section_len = s->var.len;
	for (;;) {
		c = next_char(s);
		if (c == '\n')
			return BAD_INCOMPLETE;
		if (c == '"')
			break;
		if (c == '\\') {
			c = next_char(s);
			if (c == '\n')
				return BAD_INCOMPLETE;
		}
		strbuf_addch(&s->sub, c);
	}
	if (next_char(s) != ']')
		return BAD_LINE;
	strbuf_addch(&s->var, '.');
	strbuf_addbuf(&s->var, &s->sub);
	return SYNTAX_OK;
}

/* After '[': the section, its subsection; "[]" is no section. */
static int section_header(struct syntax *s)
{
	const char *dot;
	int c, rc;

	strbuf_reset(&s->var);
	strbuf_reset(&s->sub);
	s->has_sub = 0;
	for (;;) {
		c = next_char(s);
		if (s->eof)
			return BAD_LINE;
		if (c == ']')
			break;
		if (git_isspace(c)) {
			rc = extended_section(s, c);
			if (rc)
				return rc;
			break;
		}
		if (!is_key_char(c) && c != '.')
			return BAD_LINE;
		strbuf_addch(&s->var, tolower(c));
	}
	if (!s->var.len)
		return BAD_LINE;
	/* the old [section.subsection], lower-cased whole */
	dot = s->has_sub ? NULL : strchr(s->var.buf, '.');
	s->section_len = dot ? (size_t)(dot - s->var.buf) : s->has_sub ? s->section_len : s->var.len;
	if (dot) {
		strbuf_addstr(&s->sub, dot + 1);
		s->has_sub = 1;
	}
	strbuf_addch(&s->var, '.');
	s->base = s->var.len;
	return SYNTAX_OK;
}

/* After "=": the value, as git reads it. */
static int value(struct syntax *s, struct strbuf *out)
{
	int quote = 0, comment = 0;
	size_t space = 0;

	for (;;) {
		int c = next_char(s);

		if (c == '\n')
			return quote ? BAD_INCOMPLETE : SYNTAX_OK;
		if (comment)
			continue;
		if (git_isspace(c) && !quote) {
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
			c = next_char(s);
			switch (c) {
			case '\n':
				continue;	/* continued; at the end of the text, the end */
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
				return BAD_LINE;
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

/* The first letter read: the rest of the name, then its value, handed to fn (its negative return, or BAD_*). */
static int name_and_value(struct syntax *s, int c, gitconfig_var_fn *fn, void *data)
{
	struct strbuf val = STRBUF_INIT;
	struct gitconfig_var v;
	int ret = BAD_LINE, has_value = 0;

	strbuf_setlen(&s->var, s->base);
	strbuf_addch(&s->var, tolower(c));
	for (;;) {
		c = next_char(s);
		if (s->eof || !is_key_char(c))
			break;
		strbuf_addch(&s->var, tolower(c));
	}
	while (c == ' ' || c == '\t')
		c = next_char(s);
	if (c == '=') {
		has_value = 1;
		ret = value(s, &val);
		if (ret)
			goto out;
	} else if (c != '\n') {
		goto out;
	}
	v.name = s->var.buf;
	v.name_len = s->var.len;
	v.section_len = s->base ? s->section_len : 0;
	v.subsection = s->has_sub ? s->sub.buf : NULL;
	v.subsection_len = s->sub.len;
	v.key = s->var.buf + s->base;
	v.value = has_value ? val.buf : NULL;
	v.value_len = val.len;
	ret = fn(&v, data);
	if (ret > 0)
		ret = SYNTAX_OK;
out:
	strbuf_release(&val);
	return ret;
}

int gitconfig_parse(const char *buf, size_t len, unsigned flags, gitconfig_var_fn *fn, void *data)
{
	struct syntax s = { buf, len, 0, 1, 0, STRBUF_INIT, 0, STRBUF_INIT, 0, 0 };
	int comment = 0, ret = 0;

	if ((flags & GITCONFIG_BOM) && len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		s.pos = 3;
	for (;;) {
		int c = next_char(&s);

		if (c == '\n') {
			if (s.eof)
				break;
			comment = 0;
			continue;
		}
		if (comment || git_isspace(c))
			continue;
		if (c == '#' || c == ';') {
			comment = 1;
			continue;
		}
		ret = c == '[' ? section_header(&s) : ascii_isalpha(c) ? name_and_value(&s, c, fn, data) : BAD_LINE;
		if (ret)
			break;
	}
	if (ret > 0)
		ret = s.line - (ret == BAD_INCOMPLETE);
	strbuf_release(&s.var);
	strbuf_release(&s.sub);
	return ret;
}

/* ---- git's config files ---- */

/* One file being read, with what its includes need. */
struct file {
	enum config_level level;
	struct reading *where;
	const char *path;	/* the file, for messages and relative includes */
	int depth;		/* of includes */
};

static int read_file(enum config_level level, struct reading *w, const char *path, int depth);

/* "~/x" from $HOME, a relative path from the including file's directory. */
static void include_path(struct strbuf *out, const struct file *p, const char *path)
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
static void complete_pattern(struct strbuf *out, const struct file *p, const char *pat, int is_gitdir)
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

static int gitdir_matches(const struct file *p, const char *pat, int icase)
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
		match = wildmatch(pattern.buf, text, WM_PATHNAME);
		free(text);
	}
	strbuf_release(&pattern);
	return match;
}

static int branch_matches(const struct file *p, const char *pat)
{
	struct strbuf head = STRBUF_INIT, pattern = STRBUF_INIT, file = STRBUF_INIT;
	const char *branch;
	int match = 0;

	strbuf_addf(&file, "%s/HEAD", p->where->gitdir);
	if (strbuf_read_file(&head, file.buf, 64) >= 0) {
		strbuf_trim(&head);
		if (skip_prefix(head.buf, "ref: refs/heads/", &branch)) {
			complete_pattern(&pattern, p, pat, 0);
			match = wildmatch(pattern.buf, branch, WM_PATHNAME);
		}
	}
	strbuf_release(&head);
	strbuf_release(&pattern);
	strbuf_release(&file);
	return match;
}

/* includeIf "<cond>": does it hold? */
static int condition_holds(const struct file *p, const char *cond)
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

static int section_is(const struct gitconfig_var *v, const char *section)
{
	return v->section_len == strlen(section) && !strncmp(v->name, section, v->section_len);
}

/* One variable read: kept, and followed when it is an include. */
static int variable(const struct gitconfig_var *v, void *data)
{
	struct file *f = data;
	struct strbuf path = STRBUF_INIT;
	int ret = 0, include;

	f->where->fn(v->name, v->value, f->level, f->where->data);
	if (!strcmp(v->name, "extensions.worktreeconfig"))
		f->where->worktree_config = !v->value || config_parse_bool(v->value) == 1;
	include = strcmp(v->key, "path") ? 0 :
		  section_is(v, "include") && !v->subsection ? 1 :
		  section_is(v, "includeif") && v->subsection ? condition_holds(f, v->subsection) : 0;
	if (include && v->value) {
		if (f->depth >= MAX_INCLUDE_DEPTH) {
			ret = error("exceeded maximum include depth (%d) while including '%s' from '%s'",
				    MAX_INCLUDE_DEPTH, v->value, f->path);
		} else {
			include_path(&path, f, v->value);
			ret = read_file(f->level, f->where, path.buf, f->depth + 1);
		}
	}
	strbuf_release(&path);
	return ret;
}

/* One file; a missing one is fine. */
static int read_file(enum config_level level, struct reading *w, const char *path, int depth)
{
	struct file f = { level, w, path, depth };
	struct strbuf buf = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&buf, path, 0) < 0) {
		strbuf_release(&buf);
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return error_errno("cannot read git config file '%s'", path);
	}
	ret = gitconfig_parse(buf.buf, buf.len, GITCONFIG_BOM, variable, &f);
	if (ret > 0)
		ret = error("bad config line %d in file '%s'", ret, path);
	strbuf_release(&buf);
	return ret < 0 ? -1 : 0;
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
			if (!is_key_char(c) || (i == base + 1 && !ascii_isalpha(c)))
				return error("invalid key: %s", key);
			c = tolower(c);
		} else if (c == '\n') {
			return error("invalid key (newline): %s", key);
		}
		strbuf_addch(out, c);
	}
	return 0;
}

static int add_command_line(struct reading *r, const char *key, const char *value)
{
	struct strbuf name = STRBUF_INIT;
	int ret = canonical_key(key, &name);

	if (!ret)
		r->fn(name.buf, value, CONFIG_LEVEL_COMMAND, r->data);
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
static int add_old_style(struct reading *r, char *word)
{
	char *eq = strchr(word, '=');
	struct strbuf key = STRBUF_INIT;
	int ret;

	strbuf_add(&key, word, eq ? (size_t)(eq - word) : strlen(word));
	strbuf_trim(&key);
	ret = key.len ? add_command_line(r, key.buf, eq ? eq + 1 : NULL) :
			error("bogus config parameter: %s", word);
	strbuf_release(&key);
	return ret;
}

/* $GIT_CONFIG_PARAMETERS: 'key'='value' (or 'key'= : bare, or the old 'key=value'), space-separated. */
static int read_parameters(struct reading *r, char *s)
{
	static const char bogus[] = "bogus format in GIT_CONFIG_PARAMETERS";

	while (s && *s) {
		char *key = sq_dequote_step(s, &s), *value = NULL;

		if (!key)
			return error(bogus);
		if (!s || git_isspace(*s)) {
			if (add_old_style(r, key) < 0)
				return -1;
		} else if (*s == '=') {
			s++;
			if (*s == '\'') {
				value = sq_dequote_step(s, &s);
				if (!value || (s && !git_isspace(*s)))
					return error(bogus);
			} else if (*s && !git_isspace(*s)) {
				return error(bogus);
			}
			if (add_command_line(r, key, value) < 0)
				return -1;
		} else {
			return error(bogus);
		}
		while (s && git_isspace(*s))
			s++;
	}
	return 0;
}

/* GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>. */
static int read_count(struct reading *r, const char *count_env)
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
		ret = value ? add_command_line(r, key, value) : error("missing config value %s", var.buf);
	}
	strbuf_release(&var);
	return ret;
}

int gitconfig_read_command_line(gitconfig_fn *fn, void *data)
{
	struct reading r = { NULL, 0, fn, data };
	const char *count = getenv("GIT_CONFIG_COUNT"), *params = getenv("GIT_CONFIG_PARAMETERS");
	char *copy = xstrdup_or_null(params);
	int ret = 0;

	if (count)
		ret = read_count(&r, count);
	if (!ret && copy)
		ret = read_parameters(&r, copy);
	free(copy);
	return ret < 0 ? error("unable to parse command-line config") : 0;
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
	if (!ret)
		ret = gitconfig_read_command_line(fn, data);
	strbuf_release(&path);
	return ret;
}
