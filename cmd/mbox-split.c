/*
 * git maint-mbox-split: pick messages out of mailboxes by the paths their
 * patches touch, their author, subject or date, keeping threads together
 * and only the newest version of each series; write them to stdout as an
 * mbox (or mboxrd), into a directory of numbered files like git
 * mailsplit, or as one line per message.
 *
 * The selection rules are in common/mail/select.h, the two passes over the
 * input in common/mail/mail-split.h, the writers in common/mail/mbox-write.h.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fetch.h"
#include "mail-split.h"
#include "mbox-write.h"
#include "parse-options.h"
#include "select.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

static const char *const usage_str[] = {
	"git maint-mbox-split [<options>] [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...",
	NULL
};

struct split_opts {
	struct select_opts sel;
	const char *outdir, *format, *since, *until, *max_size;
	int list, mboxrd, input_mboxrd, keep_cr, threads, quiet;
};

/* A size in bytes (0: no limit) into *out; -1 when s is not one. */
static int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > SIZE_MAX)
		return -1;
	*out = v ? (size_t)v : SIZE_MAX;
	return 0;
}

/*
 * mbox.max-message-size from the INI files (read without libgit2, see
 * config_load_ini()), or 0 (the source's default) when unset.
 */
static size_t config_max_size(void)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	const char *v;
	size_t size = 0;

	if (config_load_ini(&cfg) < 0)
		exit(EXIT_FATAL);
	v = config_get(&cfg, "mbox", NULL, "max-message-size");
	if (v && parse_size(v, &size) < 0)
		die("bad mbox.max-message-size '%s'", v);	/* checked when read: not reached */
	config_release(&cfg);
	return size;
}

static void list_entries(const char *format, struct mail_entry **order, size_t n)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (mail_format_entry(&line, format, order[i]) < 0)
			die("bad --format");
		strbuf_addch(&line, '\n');
		if (line.len > 65536 || i + 1 == n) {
			write_or_die(1, line.buf, line.len);
			strbuf_reset(&line);
		}
	}
	strbuf_release(&line);
}

int cmd_main(int argc, const char **argv)
{
	struct split_opts o = { .sel = SELECT_OPTS_INIT, .threads = 1 };
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct option options[] = {
		OPT_GROUP("Output"),
		OPT_STRING('o', "output-directory", &o.outdir, "dir",
			   "write one numbered file per message into <dir>, like git mailsplit"),
		OPT_BOOL(0, "mboxrd", &o.mboxrd, "write mboxrd (quote >From lines) instead of mbox"),
		OPT_BOOL('l', "list", &o.list, "list the selected messages, one line each"),
		OPT_STRING(0, "format", &o.format, "format", "list with this format (see the manual)"),
		OPT_BOOL(0, "input-order", &o.sel.input_order,
			 "keep the input's order instead of ordering by thread and patch number"),
		OPT__QUIET(&o.quiet, "do not warn about incomplete series or an empty mailbox"),
		OPT_GROUP("Input"),
		OPT_BOOL(0, "input-mboxrd", &o.input_mboxrd, "the input is mboxrd: unquote >From lines"),
		OPT_BOOL(0, "keep-cr", &o.keep_cr, "keep CR of CRLF line ends, like git mailsplit --keep-cr"),
		OPT_STRING(0, "max-message-size", &o.max_size, "bytes",
			   "skip a larger message, exit 1 (default 256 MiB, 0: no limit)"),
		OPT_GROUP("Selection"),
		OPT_STRING_LIST(0, "touches", &o.sel.touches, "path",
				"patches touching a path under <path> or matching the glob"),
		OPT_STRING_LIST(0, "author", &o.sel.authors, "regex", "mail from a matching author"),
		OPT_STRING_LIST(0, "subject", &o.sel.subjects, "regex", "mail with a matching subject"),
		OPT_BOOL('i', "regexp-ignore-case", &o.sel.ignore_case, "match regexes ignoring case"),
		OPT_STRING(0, "since", &o.since, "date", "mail dated at or after <date>"),
		OPT_STRING(0, "until", &o.until, "date", "mail dated at or before <date>"),
		OPT_BOOL(0, "threads", &o.threads, "select whole threads (default; --no-threads: only matching mail)"),
		OPT_BOOL(0, "patches-only", &o.sel.patches_only, "only messages that carry a patch"),
		OPT_BOOL(0, "all-versions", &o.sel.all_versions, "keep older versions of a series too"),
		OPT_FETCH(&fo),
		OPT_END()
	};
	struct mail_split ms = { 0 };
	struct mbox_writer w;
	struct outdir od = OUTDIR_INIT;
	struct mail_entry **order;
	size_t n;
	int stream, ret;

	argc = parse_options(argc, argv, options, usage_str, 0);
	if (o.format)
		o.list = 1;
	if (o.list && o.outdir)
		usage_msg_opt(usage_str, options, "--list and --output-directory cannot be used together");
	if (o.mboxrd && (o.list || o.outdir))
		usage_msg_opt(usage_str, options, "--mboxrd applies to mbox output only");
	if (!o.format)
		o.format = MAIL_FORMAT_DEFAULT;
	if (o.list && mail_format_check(o.format) < 0)
		exit(EXIT_USAGE);
	if (o.since && select_parse_date(o.since, &o.sel.since) < 0)
		usage_msg_opt(usage_str, options, "cannot parse date '%s'", o.since);
	if (o.until && select_parse_date(o.until, &o.sel.until) < 0)
		usage_msg_opt(usage_str, options, "cannot parse date '%s'", o.until);
	o.sel.no_threads = !o.threads;
	o.sel.quiet = o.quiet;
	o.sel.keep_paths = o.list && mail_format_needs_paths(o.format);
	o.sel.keep_strings = o.list;

	fo.quiet = o.quiet;
	fo.all_versions = o.sel.all_versions;
	if ((ret = fetch_prepare(argv, argc, &fo)) != RESULT_OK)
		exit(result_exit_code(ret));

	ms.args = argv;
	ms.nargs = argc;
	ms.source_flags = (o.input_mboxrd ? SOURCE_MBOXRD : 0) | (o.keep_cr ? SOURCE_KEEP_CR : 0);
	if (!o.max_size)
		ms.max_size = config_max_size();
	else if (parse_size(o.max_size, &ms.max_size) < 0)
		usage_msg_opt(usage_str, options, "--max-message-size takes a number of bytes, not '%s'",
			      o.max_size);
	ms.fast = !o.list && !o.sel.authors.nr && !o.since && !o.until;
	ms.mbox = &w;
	ms.dir = &od;
	if (mail_index_new(&ms.idx, &o.sel) < 0)
		exit(EXIT_USAGE);
	mail_split_init(&ms);
	if (o.outdir && outdir_open(&od, o.outdir) < 0)
		die("cannot write into '%s'", o.outdir);
	mbox_writer_init(&w, 1, o.mboxrd ? MBOX_RD : MBOX_O);

	stream = !o.list && !o.sel.patches_only && o.sel.all_versions && o.sel.input_order &&
		 !o.sel.touches.nr && !o.sel.authors.nr && !o.sel.subjects.nr && !o.since && !o.until;
	if (stream) {
		/* nothing to choose or reorder */
		if (mail_split_stream(&ms, &n) < 0)
			die("cannot split the mail");
	} else {
		if (mail_split_index(&ms) < 0)
			die("cannot read the mail");
		n = mail_index_select(ms.idx, &order);
		if (o.list)
			list_entries(o.format, order, n);
		else if (mail_split_write(&ms, order, n) < 0)
			die("cannot write the selected mail");
	}
	if (mbox_writer_finish(&w) < 0)
		die("cannot write the output");
	if (od.fd >= 0 && !o.quiet)
		printf("%zu\n", n);
	if (!o.quiet && !ms.errors && !ms.bad && !ms.oversized && !(stream ? n : mail_index_count(ms.idx)))
		warning("no messages found in %s",
			argc == 1 ? (strcmp(argv[0], "-") ? argv[0] : "standard input") :
			argc ? "the inputs" : "standard input");

	/*
	 * A bad or oversized message is refused and skipped, the others
	 * still written: a negative answer (RELIABILITY 10-15), not a
	 * failure. An input we could not read is.
	 */
	ret = ms.errors ? EXIT_FATAL : ms.bad || ms.oversized || !n ? EXIT_NO : EXIT_OK;
	outdir_close(&od);
	mail_split_release(&ms);
	mail_index_free(ms.idx);
	strvec_clear(&o.sel.touches);
	strvec_clear(&o.sel.authors);
	strvec_clear(&o.sel.subjects);
	fetch_release();
	return ret;
}
