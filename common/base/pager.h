/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PAGER_H
#define PAGER_H

/*
 * The pager, as git runs one (pager.c): for a command whose output may be
 * long (a dry-apply report, a range-diff, a listing), when standard
 * output is a terminal.
 *
 * Which: $GIT_PAGER, else core.pager, else $PAGER, else "less"; "cat" or
 * "" means none. pager.maint-<cmd> in git's config turns it off
 * (false), on (true, the default for the commands that page) or names
 * the pager for that command. None when git already runs one for us
 * (GIT_PAGER_IN_USE, as `git -p maint-dry-apply` sets it).
 *
 * How: the pager runs through the shell with LESS=FRX and LV=-c unless
 * they are set (so less quits when the output fits on one screen, keeps
 * colours and leaves the text on the terminal), reading what we write to
 * standard output, and standard error too when that is the terminal. The
 * program waits for it as it exits, after the error it held back
 * (usage.h) has gone to it with its right prefix.
 */

struct maint_config;

/* Starts the pager for git-maint-<cmd> if one is wanted (cfg may be NULL). */
void setup_pager(const struct maint_config *cfg, const char *cmd);

/* 1 when our output goes to a pager, ours or git's (GIT_PAGER_IN_USE). */
int pager_in_use(void);

#endif
