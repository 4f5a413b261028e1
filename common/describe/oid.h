/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef OID_H
#define OID_H

/*
 * Object ids for code that must not call libgit2 (so that a program can
 * be linked without it): git_oid is only a struct from <git2.h>, these
 * do what git_oid_fromstrn(), git_oid_tostr(), git_oid_equal() and
 * git_oid_cmp() do.
 */

#include <git2.h>
#include <string.h>

/* 40 hex digits (either case) at hex into *oid: 0, or -1. */
int oid_from_hex(git_oid *oid, const char *hex);

/* The 40 lower-case hex digits of oid into buf (GIT_OID_HEXSZ + 1 bytes). */
char *oid_to_hex(const git_oid *oid, char *buf);

static inline int oid_equal(const git_oid *a, const git_oid *b)
{
	return !memcmp(a->id, b->id, GIT_OID_RAWSZ);
}

static inline int oid_cmp(const git_oid *a, const git_oid *b)
{
	return memcmp(a->id, b->id, GIT_OID_RAWSZ);
}

#endif
