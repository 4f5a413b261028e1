/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-queue-lib: drives the pieces of common/ that queue is built from,
 * so the sharness tests can compare them with git's own tools.
 *
 *   test-queue-lib date <text>                  prints "<when> <+hhmm>" (git var GIT_AUTHOR_IDENT's tail)
 *   test-queue-lib msg <subject-file> <body-file> [<trailer>...]
 *                                               prints the message git am would make,
 *                                               each trailer appended like git am -s
 *   test-queue-lib lock <shell command>         runs the command holding the repository lock
 *   test-queue-lib state-write <dir> <name>     stdin -> dir/name with footer
 *   test-queue-lib state-read <dir> <name>      dir/name payload -> stdout (exit 1 missing, 128 damaged)
 */
#include "commit.h"
#include "ident.h"
#include "repo.h"
#include "state.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_main(int argc, const char **argv)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, out = STRBUF_INIT;
	int ret = 0;

	if (argc < 2)
		die("usage: test-queue-lib <date|msg|lock|state-write|state-read> ...");
	if (!strcmp(argv[1], "date") && argc == 3) {
		long long when;
		int tz;

		if (parse_date(argv[2], &when, &tz) < 0)
			die("invalid date format: %s", argv[2]);
		ident_add_date(&out, when, tz);
		printf("%s\n", out.buf);
	} else if (!strcmp(argv[1], "msg") && argc >= 4) {
		struct strbuf msg = STRBUF_INIT;

		if (strbuf_read_file(&a, argv[2], 0) < 0 || strbuf_read_file(&b, argv[3], 0) < 0)
			die_errno("cannot read input");
		strbuf_rtrim(&a);
		msg_from_mail(&msg, a.buf, a.len, b.buf, b.len);
		for (int i = 4; i < argc; i++)
			msg_append_trailer(&msg, NULL, argv[i]);
		fwrite(msg.buf, 1, msg.len, stdout);
		strbuf_release(&msg);
	} else if (!strcmp(argv[1], "lock") && argc == 3) {
		git_repository *repo = repo_open_or_die();
		struct state_lock lk = STATE_LOCK_INIT;
		enum maint_result rc = state_lock_acquire(&lk, repo);

		if (rc != RESULT_OK)
			ret = result_exit_code(rc);
		else {
			ret = system(argv[2]) ? 1 : 0;
			state_lock_release(&lk);
		}
		git_repository_free(repo);
	} else if (!strcmp(argv[1], "state-write") && argc == 4) {
		if (strbuf_read_fd(&a, 0, 0) < 0)
			die_errno("cannot read stdin");
		if (state_write(argv[2], argv[3], &a, NULL) < 0)
			ret = EXIT_FATAL;
	} else if (!strcmp(argv[1], "state-read") && argc == 4) {
		int rc = state_read(argv[2], argv[3], &a);

		if (rc < 0)
			ret = EXIT_FATAL;
		else if (rc > 0)
			ret = 1;
		else
			fwrite(a.buf, 1, a.len, stdout);
	} else {
		die("unknown subcommand or arguments for '%s'", argv[1]);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&out);
	return ret;
}
