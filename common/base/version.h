/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VERSION_H
#define VERSION_H

/*
 * The version of git-maint, one for every program: the number in the
 * file VERSION at the top of the source tree, and, when the programs were
 * built from a git checkout, the commit in parentheses, "-dirty" when the
 * work tree had changes (the Makefile passes the whole string in, so
 * this is the only place it is kept):
 *
 *	0.1.0 (abc1234)
 *
 * Every program prints it for --version (parse-options.h), as
 * "git-maint-queue version 0.1.0 (abc1234)", the way git --version does.
 */

const char *maint_version(void);

#endif
