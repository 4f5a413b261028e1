/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git-maint-source--fetch: the part of every command that reads mail
 * which reaches the network (see common/mail/fetch.h): run by them for one
 * argument that names mail elsewhere (a Message-ID, an archive URL, an
 * IMAP folder), it writes the messages to the file descriptor it is
 * given and lists them on standard output. A program of its own so
 * that the commands load no network library.
 */
#include "fetch-remote.h"
#include "parse-options.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <sys/stat.h>

static const char *const usage_str[] = {
	"git-maint-source--fetch --output-fd=<fd> [<options>] -- <source>",
	NULL
};

int cmd_main(int argc, const char **argv)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	int fd = -1;
	struct option options[] = {
		OPT_INTEGER(0, "output-fd", &fd, "fd", "write the messages to this file descriptor"),
		OPT_BOOL(0, "all-versions", &fo.all_versions, "every version of an archive's series"),
		OPT__QUIET(&fo.quiet, "no progress"),
		OPT_FETCH(&fo),
		OPT_END()
	};
	struct strbuf manifest = STRBUF_INIT;
	struct stat st;
	int rc;

	argc = parse_options(argc, argv, options, usage_str, 0);
	if (argc != 1)
		usage_msg_opt(usage_str, options, "one source, please");
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		usage_msg_opt(usage_str, options, "--output-fd must name an open regular file");
	rc = fetch_remote(argv[0], &fo, fd, &manifest);
	if (rc == RESULT_OK)
		write_or_die(1, manifest.buf, manifest.len);
	strbuf_release(&manifest);
	return result_exit_code(rc);
}
