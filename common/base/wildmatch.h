/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef WILDMATCH_H
#define WILDMATCH_H

/*
 * git's wildmatch(pattern, text, flags), written afresh: the glob that
 * name-rev (and so `git describe --contains --match`) applies to ref
 * names (flags 0), and includeIf's gitdir: and onbranch: conditions
 * (WM_PATHNAME). Unlike fnmatch(3) it works on bytes, whatever the
 * locale:
 *
 *	?	any one byte ('/' included)
 *	*	any run of bytes, '/' included; "**" is the same as "*"
 *	[...]	one byte in the set: "!" or "^" first negates, "]" first is
 *		literal, a-z is a range of byte values, [:alpha:] and the other
 *		POSIX classes test ASCII, "\" takes the next byte literally
 *	\x	the byte x
 *
 * A set without its "]", or with an unknown [:class:], matches nothing
 * (git gives up on the whole pattern); so does a trailing "\".
 *
 * With WM_PATHNAME, '/' separates path components as in a shell glob:
 * "?", "*" and a set never match a '/'; only "**" standing as a whole
 * component crosses them ("**" + "/" at the start, "/" + "**" at the end,
 * "/" + "**" + "/" in the middle, which may also stand for no directory:
 * "a/" + "**" + "/b" matches "a/b"); any other "**" is a "*".
 */

#define WM_PATHNAME 1

/* 1 when text matches pattern, else 0. */
int wildmatch(const char *pattern, const char *text, unsigned flags);

#endif
