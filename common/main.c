/*
 * The one main() of every git-maint program: sets up what all commands
 * share, then runs the program's cmd_main().
 */
#include "repo.h"
#include "usage.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int cmd_main(int argc, const char **argv);

/*
 * A program that never calls libgit2 may define
 *	const int maint_no_libgit2 = 1;
 * to skip its setup, which loads the TLS certificate store (about 10 ms
 * of a run that may otherwise take a few).
 */
extern const int maint_no_libgit2 __attribute__((weak));

int main(int argc, const char **argv)
{
	int ret;

	if (argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		maint_progname = slash ? slash + 1 : argv[0];
	}
	setlocale(LC_CTYPE, "");
	/* A reader that goes away (| head) ends us quietly, like git. */
	signal(SIGPIPE, SIG_DFL);
	int lg2 = !&maint_no_libgit2 || !maint_no_libgit2;

	if (lg2)
		repo_global_init();
	ret = cmd_main(argc, argv);
	if (fflush(stdout) || ferror(stdout))
		die_errno("write error on standard output");
	if (lg2)
		repo_global_shutdown();
	return ret;
}
