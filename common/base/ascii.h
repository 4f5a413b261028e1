/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ASCII_H
#define ASCII_H

/*
 * ASCII character classes, the same whatever the locale. main() sets
 * LC_CTYPE from the environment (for the terminal's width of UTF-8
 * text), so <ctype.h> may call a Latin-1 byte a letter; mail headers,
 * git config keys, trailers and patch text are classed as git classes
 * them (git's sane_ctype), byte by byte.
 */

/* git's isspace(): space, tab, LF and CR; not VT or FF. */
static inline int git_isspace(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* C's isspace() in the "C" locale: git's four, VT and FF. */
static inline int ascii_isspace(unsigned char c)
{
	return git_isspace(c) || c == '\v' || c == '\f';
}

static inline int ascii_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int ascii_isalpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int ascii_isalnum(unsigned char c)
{
	return ascii_isalpha(c) || ascii_isdigit(c);
}

#endif
