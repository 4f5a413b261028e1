/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git's wildmatch() (see wildmatch.h): a backtracking matcher over
 * bytes. Each step answers MATCH, NO_MATCH, or GIVE_UP when no placement
 * of an earlier "*" can help (the text ran out before the pattern, or the
 * pattern is malformed), so that a "*" stops trying.
 */
#include "wildmatch.h"

#include <string.h>

/*
 * GIVE_UP_TO_STARSTAR: a "*" that may not cross '/' has reached one, so
 * no later placement of it helps; an earlier "**" may still move on.
 */
enum { NO_MATCH = 0, MATCH = 1, GIVE_UP = -1, GIVE_UP_TO_STARSTAR = -2 };

static int in_class(const unsigned char *name, size_t len, unsigned char c)
{
	int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	int digit = c >= '0' && c <= '9';
	int graph = c > 0x20 && c < 0x7f;

#define IS(word) (len == strlen(word) && !memcmp(name, word, len))
	if (IS("alnum"))
		return alpha || digit;
	if (IS("alpha"))
		return alpha;
	if (IS("blank"))
		return c == ' ' || c == '\t';
	if (IS("cntrl"))
		return c < 0x20 || c == 0x7f;
	if (IS("digit"))
		return digit;
	if (IS("graph"))
		return graph;
	if (IS("lower"))
		return c >= 'a' && c <= 'z';
	if (IS("print"))
		return graph || c == ' ';
	if (IS("punct"))
		return graph && !alpha && !digit;
	if (IS("space"))
		return c == ' ' || (c >= '\t' && c <= '\r');
	if (IS("upper"))
		return c >= 'A' && c <= 'Z';
	if (IS("xdigit"))
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
#undef IS
	return GIVE_UP;
}

/*
 * The set starting at *pp (its '['), against c. Leaves *pp at the set's
 * closing ']'. MATCH, NO_MATCH or GIVE_UP (malformed).
 */
static int match_set(const unsigned char **pp, unsigned char c)
{
	const unsigned char *p = *pp + 1;
	unsigned char prev = 0;	/* the last single byte, which may start a range */
	int negated = 0, hit = 0;

	if (*p == '!' || *p == '^') {
		negated = 1;
		p++;
	}
	do {	/* a ']' right at the start is a member, not the end */
		unsigned char ch = *p;

		if (!ch)
			return GIVE_UP;
		if (ch == '\\') {
			ch = *++p;
			if (!ch)
				return GIVE_UP;
			hit |= c == ch;
			prev = ch;
		} else if (ch == '-' && prev && p[1] && p[1] != ']') {
			unsigned char hi = *++p;

			if (hi == '\\' && !(hi = *++p))
				return GIVE_UP;
			hit |= c >= prev && c <= hi;
			prev = 0;
		} else if (ch == '[' && p[1] == ':') {
			const unsigned char *name = p + 2, *end = name;
			int r;

			while (*end && *end != ']')
				end++;
			if (!*end)
				return GIVE_UP;
			if (end == name || end[-1] != ':') {
				hit |= c == '[';	/* no ":]": a plain '[' */
				prev = '[';
				continue;
			}
			r = in_class(name, (size_t)(end - 1 - name), c);
			if (r == GIVE_UP)
				return GIVE_UP;
			hit |= r;
			p = end;
			prev = 0;
		} else {
			hit |= c == ch;
			prev = ch;
		}
	} while (*++p != ']');
	*pp = p;
	return hit != negated ? MATCH : NO_MATCH;
}

/* One match: the pattern's start (to see what is before a "**") and the flags. */
struct glob {
	const unsigned char *pattern;
	unsigned flags;
};

/*
 * Do stars, from s up to p (the byte after them), cross '/'? Always,
 * without WM_PATHNAME; with it, only "**" standing as a whole path
 * component (after the start or a '/', before the end or a '/').
 */
static int stars_cross(const struct glob *g, const unsigned char *s, const unsigned char *p)
{
	if (!(g->flags & WM_PATHNAME))
		return 1;
	return p - s >= 2 && (s == g->pattern || s[-1] == '/') &&
	       (!*p || *p == '/' || (p[0] == '\\' && p[1] == '/'));
}

static int match_at(const struct glob *g, const unsigned char *p, const unsigned char *t);

/* The stars at s, then p: each place in t the rest may start, as far as they reach. */
static int match_stars(const struct glob *g, const unsigned char *s, const unsigned char *p,
		       const unsigned char *t)
{
	int cross = stars_cross(g, s, p), r;

	if (!*p)
		return cross || !strchr((const char *)t, '/') ? MATCH : GIVE_UP_TO_STARSTAR;
	/* "**" + "/" may stand for no directory at all: "a/" "**" "/b" matches "a/b" */
	if (cross && (g->flags & WM_PATHNAME) && *p == '/' && match_at(g, p + 1, t) == MATCH)
		return MATCH;
	for (; *t; t++) {
		r = match_at(g, p, t);
		if (r == MATCH || r == GIVE_UP || (r == GIVE_UP_TO_STARSTAR && !cross))
			return r;
		if (!cross && *t == '/')
			return GIVE_UP_TO_STARSTAR;
	}
	return GIVE_UP;
}

static int match_at(const struct glob *g, const unsigned char *p, const unsigned char *t)
{
	int pathname = g->flags & WM_PATHNAME;

	for (; *p; p++, t++) {
		int r;

		if (*p == '*') {
			const unsigned char *s = p;

			while (*p == '*')
				p++;
			return match_stars(g, s, p, t);
		}
		if (!*t)
			return GIVE_UP;
		switch (*p) {
		case '?':
			if (pathname && *t == '/')
				return NO_MATCH;
			break;
		case '[':
			r = match_set(&p, *t);
			if (r != MATCH)
				return r;
			if (pathname && *t == '/')
				return NO_MATCH;
			break;
		case '\\':
			if (!p[1] || p[1] != *t)
				return NO_MATCH;
			p++;
			break;
		default:
			if (*p != *t)
				return NO_MATCH;
		}
	}
	return *t ? NO_MATCH : MATCH;
}

int wildmatch(const char *pattern, const char *text, unsigned flags)
{
	struct glob g = { (const unsigned char *)pattern, flags };

	return match_at(&g, g.pattern, (const unsigned char *)text) == MATCH;
}
