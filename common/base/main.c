/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one main() of every git-maint program: sets up what all commands
 * share, then runs the program's cmd_main().
 */
#include "usage.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int cmd_main(int argc, const char **argv);

int main(int argc, const char **argv)
{
	int ret;

	if (argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		maint_progname = slash ? slash + 1 : argv[0];
	}
	report_hold_errors();	/* "fatal: " when we exit 128 (usage.h) */
	setlocale(LC_CTYPE, "");
	/* A reader that goes away (| head) ends us quietly, like git. */
	signal(SIGPIPE, SIG_DFL);
	ret = cmd_main(argc, argv);
	if (fflush(stdout) || ferror(stdout))
		die_errno("write error on standard output");
	run_cmd_return();	/* libgit2's shutdown, if cmd_main() used it (repo.h) */
	return ret;
}
