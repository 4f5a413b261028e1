/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef GITDIR_H
#define GITDIR_H

/*
 * Where the repository is, found by git's rules (setup.c) without
 * libgit2, for the programs and fast paths that must know it before, or
 * instead of, opening the repository. This is the only place that
 * discovers a git directory; nothing here prints.
 *
 * The rules, as git's: $GIT_DIR when set (a directory, or a "gitdir:"
 * file); else the current directory and its parents, each checked for
 * ".git" (a git directory, or a "gitdir:" file naming one, relative to
 * the file's directory) and then for being a bare repository; the walk
 * does not enter a directory listed in $GIT_CEILING_DIRECTORIES and
 * stops at a file system boundary unless $GIT_DISCOVERY_ACROSS_FILESYSTEM
 * is true. A git directory is what gitdir_is_repository() accepts.
 * Where git dies (a ".git" file that is not a gitfile, a gitfile or
 * $GIT_DIR naming no repository) we answer "none" and leave the message
 * to libgit2.
 */

#include "strbuf.h"

enum gitdir_how {
	GITDIR_DOTGIT,		/* a ".git" directory, or $GIT_DIR naming a directory */
	GITDIR_GITFILE,		/* through a "gitdir:" file (worktree, submodule) */
	GITDIR_BARE,		/* the directory itself, a bare repository */
};

/*
 * Replaces out with the git directory (no trailing '/'; absolute unless
 * $GIT_DIR was relative) and, when how is not NULL, sets *how.
 * Returns 0, or 1 when there is no repository (out empty).
 *
 * A program discovers once: the answer is remembered, and a later call
 * from the same directory with the same $GIT_DIR,
 * $GIT_CEILING_DIRECTORIES and $GIT_DISCOVERY_ACROSS_FILESYSTEM gets it
 * without looking again (the stopped-operation hint, the configuration,
 * repo_open() all ask). No program creates the repository it runs in.
 */
int gitdir_discover(struct strbuf *out, enum gitdir_how *how);

/*
 * gitdir_discover(), then for a linked worktree the directory its
 * "commondir" file names: where the files shared by every worktree
 * (config, maint.ini, caches) live. Returns 0, or 1 when there is none.
 */
int gitdir_discover_common(struct strbuf *out);

/*
 * git's is_git_directory(): dir holds a regular HEAD, and objects/ and
 * refs/ (in the directory its "commondir" file names, if it has one).
 */
int gitdir_is_repository(const char *dir);

#endif
