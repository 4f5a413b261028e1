/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-mailinfo [-k] [-b] [--scissors] [--keep-cr] [-m] [--mboxrd] [--fast] <dir> [<mbox>...]
 *
 * For each message of the inputs (common/mail/source.h) run mailinfo_parse()
 * and write what `git mailsplit` + `git mailinfo <msg> <patch>` would give:
 * <dir>/NNNN/info (mailinfo's stdout), <dir>/NNNN/msg and <dir>/NNNN/patch,
 * and <dir>/NNNN/paths: the paths the diff touches, one per line.
 * With --raw, print every message as the source yields it, after its
 * "From " line (or "From -" when it had none): for an mbox this gives
 * the input back.
 * With --list, print instead one line per message with the fields git
 * mailinfo does not give (version, n/m, Message-ID, paths); --fast does
 * the same through the headers_and_paths_only fast path.
 */
#include "mailinfo.h"
#include "parse-options.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_file(const char *path, const struct strbuf *sb)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

	if (fd < 0)
		return error_errno("cannot create '%s'", path);
	if (write_in_full(fd, sb->buf, sb->len) < 0) {
		close(fd);
		return error_errno("cannot write '%s'", path);
	}
	return close(fd);
}

int cmd_main(int argc, const char **argv)
{
	struct mailinfo_opts opts = MAILINFO_OPTS_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	struct patch_mail pm;
	struct strbuf path = STRBUF_INIT, info = STRBUF_INIT;
	unsigned flags = 0;
	int fast = 0, raw_out = 0, r, ret = 0;
	const char *dir;

	while (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
		if (!strcmp(argv[1], "-k"))
			opts.keep_subject = 1;
		else if (!strcmp(argv[1], "-b"))
			opts.keep_non_patch = 1;
		else if (!strcmp(argv[1], "--scissors"))
			opts.scissors = 1;
		else if (!strcmp(argv[1], "--keep-cr"))
			opts.keep_cr = 1, flags |= SOURCE_KEEP_CR;
		else if (!strcmp(argv[1], "-m"))
			opts.message_id = 1;
		else if (!strcmp(argv[1], "-n"))
			opts.no_reencode = 1;
		else if (!strcmp(argv[1], "--no-inbody-headers"))
			opts.no_inbody_headers = 1;
		else if (!strcmp(argv[1], "--quoted-cr=nowarn"))
			opts.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;
		else if (!strcmp(argv[1], "--quoted-cr=strip"))
			opts.quoted_cr = MAILINFO_QUOTED_CR_STRIP;
		else if (!strcmp(argv[1], "--mboxrd"))
			flags |= SOURCE_MBOXRD;
		else if (!strcmp(argv[1], "--fast"))
			fast = 1, opts.headers_and_paths_only = 1;
		else if (!strcmp(argv[1], "--list"))
			fast = 1;
		else if (!strcmp(argv[1], "--raw"))
			raw_out = 1;
		else if (!strncmp(argv[1], "--max-size=", 11))
			;	/* handled below */
		else
			die("unknown option '%s'", argv[1]);
		argc--;
		argv++;
	}
	if (argc < 2)
		die("usage: test-mailinfo [<options>] <dir> [<mbox>...]");
	dir = argv[1];
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		die_errno("cannot create '%s'", dir);

	if (source_open(&src, argv + 2, argc - 2, flags) < 0)
		return 128;
	{
		const char *m = getenv("TEST_MAILINFO_MAX_SIZE");
		if (m)
			source_set_max_size(src, strtoul(m, NULL, 10));
	}
	mailinfo_init(&pm);
	while ((r = source_next(src, &raw))) {
		if (r < 0) {
			ret = 1;
			continue;
		}
		if (raw_out) {
			if (raw.from_line)
				fwrite(raw.from_line, 1, raw.from_line_len, stdout);
			else
				fputs("From -", stdout);
			putchar('\n');
			fwrite(raw.buf, 1, raw.len, stdout);
			continue;
		}
		/* like git mailinfo, write what was extracted even after an error */
		if (mailinfo_parse(&pm, &raw, &opts) < 0)
			ret = 1;
		if (fast) {
			printf("%zu v%d %d/%d%s <%s> <%s> %s |", raw.number, pm.version, pm.number,
			       pm.total, pm.has_patch ? " patch" : "", pm.message_id.buf,
			       pm.in_reply_to.buf, pm.subject.buf);
			for (size_t i = 0; i < pm.paths.nr; i++)
				printf(" %s", pm.paths.v[i]);
			printf("\n");
			continue;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%04zu", dir, raw.number);
		if (mkdir(path.buf, 0777) < 0 && errno != EEXIST)
			die_errno("cannot create '%s'", path.buf);
		strbuf_reset(&info);
		mailinfo_format_info(&info, &pm);
		strbuf_addstr(&path, "/info");
		if (write_file(path.buf, &info) < 0)
			ret = 1;
		strbuf_setlen(&path, path.len - 4);
		strbuf_addstr(&path, "msg");
		if (write_file(path.buf, &pm.message) < 0)
			ret = 1;
		strbuf_setlen(&path, path.len - 3);
		strbuf_addstr(&path, "patch");
		if (write_file(path.buf, &pm.patch) < 0)
			ret = 1;
		strbuf_setlen(&path, path.len - 5);
		strbuf_addstr(&path, "paths");
		strbuf_reset(&info);
		for (size_t i = 0; i < pm.paths.nr; i++)
			strbuf_addf(&info, "%s\n", pm.paths.v[i]);
		if (write_file(path.buf, &info) < 0)
			ret = 1;
	}
	mailinfo_release(&pm);
	source_close(src);
	strbuf_release(&path);
	strbuf_release(&info);
	return ret;
}
