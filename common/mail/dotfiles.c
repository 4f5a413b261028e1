/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checks git's fsck makes on .gitmodules and .gitattributes (see
 * dotfiles.h): a reader of git's config syntax, with the checks of
 * fsck's gitmodules callback on each submodule variable.
 */
#include "dotfiles.h"
#include "wrapper.h"

#include <ctype.h>
#include <string.h>

#define GITATTRIBUTES_MAX_SIZE ((size_t)100 << 20)
#define GITATTRIBUTES_MAX_LINE 2048

int dotfiles_check_gitattributes(const char *buf, size_t len, struct strbuf *why)
{
	const char *p = buf, *end = buf + len;

	if (len > GITATTRIBUTES_MAX_SIZE) {
		strbuf_addstr(why, "gitattributesLarge: .gitattributes larger than 100 MB");
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= GITATTRIBUTES_MAX_LINE) {
			strbuf_addstr(why, "gitattributesLineLength: .gitattributes has lines of 2048 bytes or more");
			return -1;
		}
		p += n + 1;
	}
	return 0;
}

/* ------------------------------------------------------------ config */

/* git's config syntax, read as git reads it: CRLF is LF, the end is a LF. */
struct reader {
	const unsigned char *p, *end;
	int eof;
};

static int next_char(struct reader *r)
{
	int c;

	if (r->p >= r->end) {
		r->eof = 1;
		return '\n';
	}
	c = *r->p++;
	if (c == '\r' && r->p < r->end && *r->p == '\n')
		c = *r->p++;
	return c;
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '-';
}

/* After "[": the section ("submodule") and subsection ("name") into var; -1 when malformed. */
static int read_section(struct reader *r, struct strbuf *var)
{
	int c;

	for (;;) {
		c = next_char(r);
		if (r->eof)
			return -1;
		if (c == ']')
			return var->len ? 0 : -1;	/* "[]" */
		if (isspace(c))
			break;
		if (!is_key_char(c) && c != '.')
			return -1;
		strbuf_addch(var, tolower(c));
	}
	/* [section "subsection"]: the subsection as written, \x taken as x */
	while (isspace(c)) {
		if (c == '\n')
			return -1;
		c = next_char(r);
	}
	if (c != '"')
		return -1;
	strbuf_addch(var, '.');
	for (;;) {
		c = next_char(r);
		if (c == '\n')
			return -1;
		if (c == '"')
			break;
		if (c == '\\') {
			c = next_char(r);
			if (c == '\n')
				return -1;
		}
		strbuf_addch(var, c);
	}
	return next_char(r) == ']' ? 0 : -1;
}

/* After "key =": the value (quotes, escapes, comments, continued lines); -1 when malformed. */
static int read_value(struct reader *r, struct strbuf *value)
{
	int quote = 0, comment = 0;
	size_t space = 0;

	for (;;) {
		int c = next_char(r);

		if (c == '\n') {
			if (quote)
				return -1;
			return 0;
		}
		if (comment)
			continue;
		if (isspace(c) && !quote) {
			if (value->len)
				space++;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = 1;
			continue;
		}
		strbuf_addchars(value, ' ', space);
		space = 0;
		if (c == '\\') {
			c = next_char(r);
			switch (c) {
			case '\n':
				continue;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case 'n': c = '\n'; break;
			case '\\': case '"': break;
			default: return -1;
			}
			strbuf_addch(value, c);
			continue;
		}
		if (c == '"') {
			quote = !quote;
			continue;
		}
		strbuf_addch(value, c);
	}
}

/* ------------------------------------------------------- submodules */

/* No ".." component, '/' and '\' both separating, and not empty. */
static int bad_submodule_name(const char *name, size_t len)
{
	size_t i = 0;

	if (!len)
		return 1;
	for (;;) {
		/* at the start of a component */
		if (len - i >= 2 && name[i] == '.' && name[i + 1] == '.' &&
		    (len - i == 2 || name[i + 2] == '/' || name[i + 2] == '\\'))
			return 1;
		while (i < len && name[i] != '/' && name[i] != '\\')
			i++;
		if (i++ >= len)
			return 0;
	}
}

/*
 * Does s[0..len) hold a newline once %XX is decoded, as git decodes it:
 * up to a NUL byte, and %00 left as it is?
 */
static int decoded_newline(const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		int c = (unsigned char)s[i];

		if (c == '%' && i + 2 < len && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2]) &&
		    hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]) > 0) {
			c = hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]);
			i += 2;
		}
		if (c == '\n')
			return 1;
	}
	return 0;
}

static int starts_with_dot_slash(const char *s)
{
	return s[0] == '.' && (s[1] == '/' || s[1] == '\\');
}

static int starts_with_dot_dot_slash(const char *s)
{
	return s[0] == '.' && starts_with_dot_slash(s + 1);
}

/* The URL git-remote-curl would get, or NULL when url is not for it. */
static const char *curl_url(const char *url)
{
	static const char *const helpers[] = { "http::", "https::", "ftp::", "ftps::" };
	static const char *const schemes[] = { "http://", "https://", "ftp://", "ftps://" };
	const char *rest;

	for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
		if (skip_prefix(url, helpers[i], &rest))
			return rest;
	for (size_t i = 0; i < ARRAY_SIZE(schemes); i++)
		if (starts_with(url, schemes[i]))
			return url;
	return NULL;
}

/*
 * What git's credential code reads from a URL for git-remote-curl: a
 * scheme, then [user[:password]@]host up to '/', '?' or '#', then a
 * path. Bad when there is no scheme or no host, or a part decodes to
 * something holding a newline.
 */
static int bad_curl_url(const char *url)
{
	const char *proto_end = strstr(url, "://"), *cp, *at, *colon, *slash, *host;

	if (!proto_end || proto_end == url)
		return 1;
	cp = proto_end + 3;
	at = strchr(cp, '@');
	colon = strchr(cp, ':');
	slash = cp + strcspn(cp, "/?#");
	if (!at || slash <= at) {
		host = cp;
	} else if (!colon || at <= colon) {
		if (decoded_newline(cp, at - cp))
			return 1;
		host = at + 1;
	} else {
		if (decoded_newline(cp, colon - cp) || decoded_newline(colon + 1, at - (colon + 1)))
			return 1;
		host = at + 1;
	}
	if (memchr(url, '\n', proto_end - url) || decoded_newline(host, slash - host))
		return 1;
	if (slash == host)
		return 1;	/* no host */
	while (*slash == '/')
		slash++;
	return decoded_newline(slash, strlen(slash));
}

static int bad_submodule_url(const char *url)
{
	const char *next, *curl;

	if (url[0] == '-')
		return 1;
	if (starts_with_dot_slash(url) || starts_with_dot_dot_slash(url) || starts_with(url, "git://")) {
		int dotdots = 0;

		if (decoded_newline(url, strlen(url)))
			return 1;
		for (next = url;;) {
			if (starts_with_dot_dot_slash(next)) {
				dotdots++;
				next += 3;
			} else if (starts_with_dot_slash(next)) {
				next += 2;
			} else {
				break;
			}
		}
		return dotdots && (*next == ':' || *next == '/');
	}
	curl = curl_url(url);
	return curl && bad_curl_url(curl);
}

/* fsck's look at one variable var (lower-cased section and key) = value (NULL: none). */
static int check_variable(const struct strbuf *var, const struct strbuf *value, int has_value,
			  struct strbuf *why)
{
	const char *sub, *key = strrchr(var->buf, '.');
	size_t sublen;

	if (!skip_prefix(var->buf, "submodule.", &sub) || !key || key < sub)
		return 0;	/* not a submodule's variable, or "submodule.<key>" */
	sublen = strnlen(sub, key - sub);	/* git sees the name up to a NUL */
	key++;
	if (bad_submodule_name(sub, sublen)) {
		strbuf_addf(why, "gitmodulesName: disallowed submodule name '%.*s'", (int)sublen, sub);
		return -1;
	}
	if (!has_value)
		return 0;
	/* as git's callback, value->buf is read up to its first NUL */
	if (!strcmp(key, "url") && bad_submodule_url(value->buf)) {
		strbuf_addf(why, "gitmodulesUrl: disallowed submodule url '%s'", value->buf);
		return -1;
	}
	if (!strcmp(key, "path") && value->buf[0] == '-') {
		strbuf_addf(why, "gitmodulesPath: disallowed submodule path '%s'", value->buf);
		return -1;
	}
	if (!strcmp(key, "update") && value->buf[0] == '!') {
		strbuf_addf(why, "gitmodulesUpdate: disallowed submodule update setting '%s'", value->buf);
		return -1;
	}
	return 0;
}

int dotfiles_check_gitmodules(const char *buf, size_t len, struct strbuf *why)
{
	struct reader r = { (const unsigned char *)buf, (const unsigned char *)buf + len, 0 };
	struct strbuf var = STRBUF_INIT, value = STRBUF_INIT;
	size_t base = 0;
	int comment = 0, ret = 0;

	/* (no byte order mark: git reads a file with one, but fsck no blob) */
	for (;;) {
		int c = next_char(&r), has_value = 0;

		if (c == '\n') {
			if (r.eof)
				break;
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
			strbuf_reset(&var);
			if (read_section(&r, &var) < 0)
				goto parse_error;
			strbuf_addch(&var, '.');
			base = var.len;
			continue;
		}
		if (!isalpha(c))
			goto parse_error;
		strbuf_setlen(&var, base);
		strbuf_addch(&var, tolower(c));
		for (;;) {
			c = next_char(&r);
			if (r.eof || !is_key_char(c))
				break;
			strbuf_addch(&var, tolower(c));
		}
		while (c == ' ' || c == '\t')
			c = next_char(&r);
		strbuf_reset(&value);
		if (c != '\n') {
			if (c != '=' || read_value(&r, &value) < 0)
				goto parse_error;
			has_value = 1;
		}
		if (check_variable(&var, &value, has_value, why) < 0) {
			ret = -1;
			goto out;
		}
	}
	goto out;
parse_error:
	strbuf_addstr(why, "gitmodulesParse: could not parse .gitmodules");
	ret = -1;
out:
	strbuf_release(&var);
	strbuf_release(&value);
	return ret;
}
