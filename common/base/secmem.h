/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SECMEM_H
#define SECMEM_H

/*
 * Memory for passwords, and a process that holds one.
 *
 * A password is kept in memory of its own (an anonymous mapping): locked
 * in RAM where the limit allows (mlock; where it does not, it may be
 * swapped like any memory), left out of core dumps (MADV_DONTDUMP), and
 * overwritten with zeros when freed. Copies made on the way (a pipe's
 * read buffer, libcurl's or libgit2's own copy) are wiped by whoever
 * holds them where that is possible; the process itself is made
 * undumpable as soon as it holds a password (secmem_protect_process()),
 * so that none of them ends up in a core file or is read through
 * /proc/<pid>/mem by another process of the same user.
 *
 * git does less (it frees a password, wipes some copies, and a crash may
 * dump them); this is the least a tool that keeps a mail password for a
 * whole run should do.
 */

#include <stddef.h>

/* Zeroed memory for size bytes; allocation failure is fatal, as xmalloc()'s. */
char *secmem_alloc(size_t size);

/* A NUL-terminated copy of s[0..len) in such memory. */
char *secmem_strndup(const char *s, size_t len);

/* Overwrites and frees what secmem_alloc() gave; NULL is fine. */
void secmem_free(char *p);

/*
 * From now on no core file (RLIMIT_CORE 0) and not dumpable
 * (PR_SET_DUMPABLE 0: no core, no ptrace or /proc/<pid>/mem, environ
 * or fd access by other processes of the user). Programs this process
 * starts get their own, normal, settings at exec. Idempotent.
 */
void secmem_protect_process(void);

/* Overwrites len bytes at p with zeros, in a way the compiler keeps. */
void secmem_wipe(void *p, size_t len);

#endif
