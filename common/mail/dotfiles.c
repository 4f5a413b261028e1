/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checks git's fsck makes on .gitmodules and .gitattributes (see
 * dotfiles.h): .gitmodules read by the one reader of git's config syntax
 * (gitconfig.h), with the checks of fsck's gitmodules callback on each
 * submodule variable.
 */
#include "dotfiles.h"
#include "gitconfig.h"
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

/* fsck's look at one variable (var->value NULL: none); why set, -1 when flagged. */
static int check_variable(const struct gitconfig_var *var, void *data)
{
	struct strbuf *why = data;
	const char *sub, *key = strrchr(var->name, '.');
	size_t sublen;

	/* as git's callback, the name and the value are read up to their first NUL */
	if (!skip_prefix(var->name, "submodule.", &sub) || !key || key < sub)
		return 0;	/* not a submodule's variable, or "submodule.<key>" */
	sublen = strnlen(sub, key - sub);	/* git sees the name up to a NUL */
	key++;
	if (bad_submodule_name(sub, sublen)) {
		strbuf_addf(why, "gitmodulesName: disallowed submodule name '%.*s'", (int)sublen, sub);
		return -1;
	}
	if (!var->value)
		return 0;
	if (!strcmp(key, "url") && bad_submodule_url(var->value)) {
		strbuf_addf(why, "gitmodulesUrl: disallowed submodule url '%s'", var->value);
		return -1;
	}
	if (!strcmp(key, "path") && var->value[0] == '-') {
		strbuf_addf(why, "gitmodulesPath: disallowed submodule path '%s'", var->value);
		return -1;
	}
	if (!strcmp(key, "update") && var->value[0] == '!') {
		strbuf_addf(why, "gitmodulesUpdate: disallowed submodule update setting '%s'", var->value);
		return -1;
	}
	return 0;
}

int dotfiles_check_gitmodules(const char *buf, size_t len, struct strbuf *why)
{
	/* no byte order mark: git reads a file with one, but fsck no blob */
	int ret = gitconfig_parse(buf, len, 0, check_variable, why);

	if (ret > 0)
		strbuf_addstr(why, "gitmodulesParse: could not parse .gitmodules");
	return ret ? -1 : 0;
}
