/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git maint-mbox-split: pick messages out of mailboxes by the paths their
 * patches touch, their author, subject or date, keeping threads together
 * and only the newest version of each series; write them to stdout as an
 * mbox (or mboxrd), into a directory of numbered files like git
 * mailsplit, into a directory of one mbox per series, or as one line
 * per message.
 *
 * The selection rules are in common/mail/select.h, the two passes over the
 * input in common/engine/mbox-split.h, the writers in common/mail/mbox-write.h.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest.h"
#include "color.h"
#include "config.h"
#include "fetch.h"
#include "in-progress.h"
#include "mbox-split.h"
#include "mbox-write.h"
#include "pager.h"
#include "parse-options.h"
#include "review.h"
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
	struct source_opts source;
	const char *outdir, *series_dir, *format, *since, *until, *attest;
	int list, mboxrd, threads, quiet, show_trailers, force;
	int color;		/* --color[=<when>]: enum color_when; then 1 when the listing is coloured */
};

/*
 * The listing: a line per message; with rv, under each patch the
 * trailers its follow-ups give it (review_format()), control characters
 * neutralised as in the listing's fields.
 */
static void list_entries(const char *format, struct mail_entry **order, size_t n,
			 const struct review *rv, const size_t *applied_as, int color)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (mbox_write_format_entry(&line, format, order[i], color) < 0)
			die("bad --format");
		strbuf_addch(&line, '\n');
		if (rv && applied_as[i] != MAIL_NONE) {
			size_t start = line.len;

			review_format(&line, review_for(rv, applied_as[i]), "    ");
			strbuf_setlen(&line, start + neutralise_controls(line.buf + start, line.len - start));
		}
		if (line.len > 65536 || i + 1 == n) {
			write_or_die(1, line.buf, line.len);
			strbuf_reset(&line);
		}
	}
	strbuf_release(&line);
}

/* --show-trailers: the listing with what queue would carry (queue.trailers counts). */
static void list_with_trailers(struct mbox_split *ms, const char *format, struct mail_entry **order,
			       size_t n, int color)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct review_opts ro = REVIEW_OPTS_INIT;
	struct review *rv = NULL;
	size_t *applied_as = NULL;

	if (config_load_files(&cfg) < 0 || review_opts_config(&ro, &cfg) < 0)
		exit(EXIT_FATAL);
	if (mbox_split_review(ms, order, n, &ro, &rv, &applied_as) < 0)
		die("cannot read the mail again");
	list_entries(format, order, n, rv, applied_as, color);
	if (review_unplaced(rv)->nr) {
		struct strbuf out = STRBUF_INIT;

		strbuf_addstr(&out, "Not carried (given to patches the newest version dropped):\n");
		review_format(&out, review_unplaced(rv), "    ");
		strbuf_setlen(&out, neutralise_controls(out.buf, out.len));
		write_or_die(1, out.buf, out.len);
		strbuf_release(&out);
	}
	review_free(rv);
	free(applied_as);
	review_opts_release(&ro);
	config_release(&cfg);
}

int cmd_main(int argc, const char **argv)
{
	struct split_opts o = { .sel = SELECT_OPTS_INIT, .threads = 1, .color = COLOR_UNSET };
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct option options[] = {
		OPT_GROUP("Output"),
		OPT_STRING('o', "output-directory", &o.outdir, "dir",
			   "write one numbered file per message into <dir>, like git mailsplit"),
		OPT_STRING(0, "series-dir", &o.series_dir, "dir",
			   "write one mbox per series into <dir>, 0001-<subject>.mbox, ... in series order"),
		OPT_BOOL(0, "force", &o.force, "with --series-dir: replace the series files <dir> holds"),
		OPT_BOOL(0, "mboxrd", &o.mboxrd, "write mboxrd (quote >From lines) instead of mbox"),
		OPT_BOOL('l', "list", &o.list, "list the selected messages, one line each"),
		OPT_STRING(0, "format", &o.format, "format", "list with this format (see the manual)"),
		OPT_BOOL(0, "show-trailers", &o.show_trailers,
			 "list under each patch the trailers its follow-ups give it (implies --list)"),
		OPT_BOOL(0, "input-order", &o.sel.input_order,
			 "keep the input's order instead of ordering by thread and patch number"),
		OPT__QUIET(&o.quiet, "do not warn about incomplete series or an empty mailbox"),
		OPT_ATTEST(&o.attest),
		OPT__COLOR(&o.color, "colour the listing (%C(...) in --format): always, never or auto (color.ui)"),
		OPT_MAIL_SOURCE(&o.source),
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
	struct mbox_split ms = { 0 };
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct attest_conf ac = ATTEST_CONF_INIT;
	struct mbox_writer w;
	struct outdir od = OUTDIR_INIT;
	struct seriesdir sd = SERIESDIR_INIT;
	struct mail_entry **order;
	size_t n, outside = 0;
	int stream, ret;

	argc = parse_options(argc, argv, options, usage_str, 0);
	if (o.format || o.show_trailers)
		o.list = 1;
	if (o.list && o.outdir)
		usage_msg_opt(usage_str, options, "--list and --output-directory cannot be used together");
	if (o.series_dir && (o.list || o.outdir))
		usage_msg_opt(usage_str, options, "--series-dir cannot be used with --list or --output-directory");
	if (o.force && !o.series_dir)
		usage_msg_opt(usage_str, options, "--force needs --series-dir");
	if (o.mboxrd && (o.list || o.outdir))
		usage_msg_opt(usage_str, options, "--mboxrd applies to mbox output only");
	if (!o.format)
		o.format = MBOX_WRITE_FORMAT_DEFAULT;
	if (o.list && mbox_write_format_check(o.format) < 0)
		exit(EXIT_USAGE);
	if (o.since && select_parse_date(o.since, &o.sel.since) < 0)
		usage_msg_opt(usage_str, options, "cannot parse date '%s'", o.since);
	if (o.until && select_parse_date(o.until, &o.sel.until) < 0)
		usage_msg_opt(usage_str, options, "cannot parse date '%s'", o.until);
	o.sel.no_threads = !o.threads;
	o.sel.quiet = o.quiet;
	o.sel.keep_paths = o.list && mbox_write_format_needs_paths(o.format);
	o.sel.keep_strings = o.list;

	fo.quiet = o.quiet;
	in_progress_announce(NULL, o.quiet);
	fo.all_versions = o.sel.all_versions;
	if ((ret = fetch_prepare(argv, argc, &fo)) != RESULT_OK)
		exit(result_exit_code(ret));

	ms.args = argv;
	ms.nargs = argc;
	if (config_load_files(&cfg) < 0)
		exit(EXIT_FATAL);
	/* signatures are checked for a listing that shows them, unless --attest=off */
	if (o.list && (o.show_trailers || mbox_write_format_needs_attest(o.format))) {
		if (attest_conf_load(&ac, &cfg, o.attest) < 0)
			exit(EXIT_FATAL);
		if (ac.policy != ATTEST_OFF)
			ms.attest = attest_new(&ac);
	}
	/* a listing is for people: paged and coloured on a terminal (pager.h, color.h) */
	if (o.list && !source_reads_terminal(argv, argc))
		setup_pager(&cfg, "mbox-split");
	o.color = o.list && color_want(&cfg, "mbox-split", o.color);
	ms.source = &o.source;
	ms.cfg = &cfg;
	ms.fast = !o.list && !o.sel.authors.nr && !o.since && !o.until;
	ms.mbox = &w;
	ms.dir = &od;
	if (select_index_new(&ms.idx, &o.sel) < 0)
		exit(EXIT_USAGE);
	mbox_split_init(&ms);
	if (o.outdir && outdir_open(&od, o.outdir) < 0)
		die("cannot write into '%s'", o.outdir);
	/* refused before anything is read; the files appear only once all are written */
	if (o.series_dir) {
		ms.series = &sd;
		if (seriesdir_open(&sd, o.series_dir, o.mboxrd ? MBOX_RD : MBOX_O, o.force) < 0) {
			seriesdir_release(&sd);
			exit(EXIT_FATAL);
		}
	}
	mbox_writer_init(&w, 1, o.mboxrd ? MBOX_RD : MBOX_O);

	stream = !o.list && !o.series_dir && !o.sel.patches_only && o.sel.all_versions && o.sel.input_order &&
		 !o.sel.touches.nr && !o.sel.authors.nr && !o.sel.subjects.nr && !o.since && !o.until;
	/* the engine reported why it failed: that error is the fatal one (usage.h) */
	if (stream) {
		/* nothing to choose or reorder */
		if (mbox_split_stream(&ms, &n) < 0)
			exit(EXIT_FATAL);
	} else {
		/* a series dir is all or nothing: an input not read whole (said) writes none */
		if (mbox_split_index(&ms) < 0 || (o.series_dir && ms.errors)) {
			seriesdir_release(&sd);
			exit(EXIT_FATAL);
		}
		n = select_choose(ms.idx, &order);
		if (o.series_dir) {
			if (mbox_split_write_series(&ms, order, n, &outside) < 0 ||
			    seriesdir_commit(&sd) < 0) {
				seriesdir_release(&sd);
				die("cannot write the series into '%s'", o.series_dir);
			}
		} else if (o.list && o.show_trailers)
			list_with_trailers(&ms, o.format, order, n, o.color);
		else if (o.list)
			list_entries(o.format, order, n, NULL, NULL, o.color);
		else if (mbox_split_write(&ms, order, n) < 0)
			die("cannot write the selected mail");
	}
	if (mbox_writer_finish(&w) < 0)
		die("cannot write the output");
	if (od.fd >= 0 && !o.quiet)
		printf("%zu\n", n);
	/* as git format-patch -o names the files it writes */
	for (size_t i = 0; !o.quiet && i < sd.names.nr; i++)
		printf("%s/%s\n", o.series_dir, sd.names.v[i]);
	if (outside && !o.quiet)
		warning("%zu selected message%s in no series, not written into '%s'",
			outside, outside == 1 ? " is" : "s are", o.series_dir);
	if (!o.quiet && !ms.errors && !ms.bad && !ms.oversized && !(stream ? n : select_index_count(ms.idx)))
		warning("no messages found in %s",
			argc == 1 ? (strcmp(argv[0], "-") ? argv[0] : "standard input") :
			argc ? "the inputs" : "standard input");

	/*
	 * A bad or oversized message is refused and skipped, the others
	 * still written: a negative answer (reliability cases 10-15), not a
	 * failure. An input we could not read is.
	 */
	ret = ms.errors ? EXIT_FATAL : ms.bad || ms.oversized || !n ? EXIT_NO : EXIT_OK;
	outdir_close(&od);
	seriesdir_release(&sd);
	mbox_split_release(&ms);
	attest_free(ms.attest);
	attest_conf_release(&ac);
	select_index_free(ms.idx);
	config_release(&cfg);
	strvec_clear(&o.sel.touches);
	strvec_clear(&o.sel.authors);
	strvec_clear(&o.sel.subjects);
	fetch_release();
	return ret;
}
