/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EDITOR_H
#define EDITOR_H

/*
 * The user's editor, chosen and run as git chooses and runs it (for a
 * message that is written by hand: request-pull's tag message).
 *
 * Which: $GIT_EDITOR, else core.editor, else $VISUAL (unless the
 * terminal is dumb: TERM unset or "dumb"), else $EDITOR, else "vi"; on a
 * dumb terminal with none of them set, none (an error, as git says it).
 *
 * How: through the shell as `<editor> "$@"` with the file as its one
 * argument, so a configured "emacs -nw" or a script with arguments
 * works as in git; standard input, output and error are ours (the
 * terminal). ":" is git's way of saying "no editor": the file is left
 * as it is. While the editor runs, SIGINT and SIGQUIT are ignored here
 * (run-command.h's interactive), so a ^C meant for the editor does not
 * kill the command behind it.
 */

struct maint_config;

/* The editor's command (allocated), or NULL on a dumb terminal with none set. */
char *editor_program(const struct maint_config *cfg);

/* Runs the editor on path and waits for it. 0, or -1 reported (none, failed, killed). */
int editor_launch(const struct maint_config *cfg, const char *path);

#endif
