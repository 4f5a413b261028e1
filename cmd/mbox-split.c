/*
 * git maint-mbox-split: pick messages out of mailboxes by the paths their
 * patches touch, their author, subject or date, keeping threads together
 * and only the newest version of each series; write them to stdout as an
 * mbox (or mboxrd), into a directory of numbered files like git
 * mailsplit, or as one line per message.
 *
 * Two passes: the first parses headers and diff paths of every message
 * into an index (common/select.h) and decides; the second reads the
 * inputs again and writes the chosen messages. Input that cannot be read
 * twice (stdin, a pipe) is spooled to an unlinked temporary file during
 * the first pass, and so are chosen messages that must be written in
 * another order than they were read. Memory stays bounded by the
 * largest message plus the index.
 */

#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mailinfo.h"
#include "mbox-write.h"
#include "parse-options.h"
#include "select.h"
#include "source.h"
#include "spool.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

/* Mail only: no repository, so no libgit2 setup (common/main.c). */
const int maint_no_libgit2 = 1;

static const char *const usage_str[] = {
	"git maint-mbox-split [<options>] [<mbox>|<Maildir>|-]...",
	NULL
};

struct split_opts {
	struct select_opts sel;
	const char *outdir, *format, *since, *until;
	int list, mboxrd, input_mboxrd, keep_cr, threads, quiet;
};

/* The state of one run: the inputs, the index and the spool. */
struct run {
	struct split_opts *o;
	const char *const *args;
	size_t nargs;
	unsigned flags;
	int rereadable;		/* every input is a file or folder we can read again */
	int fast;		/* selection needs no more than select_scan() gives */
	struct mail_index *idx;
	struct spool spool;
	int errors;
};

static int inputs_rereadable(const char *const *args, size_t nargs)
{
	size_t i;

	if (!nargs)
		return 0;
	for (i = 0; i < nargs; i++) {
		struct stat st;

		if (!strcmp(args[i], "-") || stat(args[i], &st) < 0)
			return 0;
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			return 0;
	}
	return 1;
}

/* Pass 1: parse every message into the index (spooling it when needed). */
static void index_inputs(struct run *r)
{
	struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	int rc;

	mopts.headers_and_paths_only = 1;
	patch_mail_init(&pm);
	if (source_open(&src, r->args, r->nargs, r->flags) < 0)
		die("cannot read the input");
	while ((rc = source_next(src, &raw))) {
		struct mail_entry *e;

		if (rc < 0 || (!(r->fast && select_scan(&pm, &raw)) &&
				patch_mail_parse(&pm, &raw, &mopts) < 0)) {
			r->errors++;
			continue;
		}
		e = mail_index_add(r->idx, &pm, raw.number, raw.len, raw.origin,
				   raw.from_line, raw.from_line_len);
		/* raw.origin points into args (or is "-"), which outlive the index. */
		if (r->rereadable && !raw.file)
			e->file_off = raw.offset;
		if (!r->rereadable && spool_add(&r->spool, raw.buf, raw.len, &e->spool_off) < 0)
			die("cannot keep the input in a temporary file");
	}
	source_close(src);
	patch_mail_release(&pm);
}

/* Writes one message as the pos-th of the output; from_line may be NULL. */
static void write_one(struct run *r, struct mbox_writer *w, struct outdir *od, size_t pos,
		      const char *from_line, const char *buf, size_t len)
{
	struct strbuf from = STRBUF_INIT;
	const char *nl;

	/*
	 * The source drops the CR of the From_ line; with --keep-cr put it
	 * back when the message's lines end in CRLF, as git mailsplit keeps it.
	 */
	if (from_line && r->o->keep_cr && (nl = memchr(buf, '\n', len)) && nl > buf && nl[-1] == '\r') {
		strbuf_addf(&from, "%s\r", from_line);
		from_line = from.buf;
	}
	if (od->fd >= 0 ? outdir_write(od, pos, from_line, buf, len) :
	    mbox_writer_add(w, from_line, buf, len))
		die("cannot write message %zu", pos);
	strbuf_release(&from);
}

/*
 * Nothing to choose and nothing to reorder (no selector, --all-versions,
 * --input-order): one pass, every message written as it is read, no
 * parsing. Returns the number written.
 */
static size_t stream_all(struct run *r, struct mbox_writer *w, struct outdir *od)
{
	struct strbuf from = STRBUF_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	size_t n = 0;
	int rc;

	if (source_open(&src, r->args, r->nargs, r->flags) < 0)
		die("cannot read the input");
	while ((rc = source_next(src, &raw))) {
		if (rc < 0) {
			r->errors++;
			continue;
		}
		strbuf_reset(&from);
		if (raw.from_line)
			strbuf_add(&from, raw.from_line, raw.from_line_len);
		write_one(r, w, od, ++n, raw.from_line ? from.buf : NULL, raw.buf, raw.len);
	}
	source_close(src);
	strbuf_release(&from);
	return n;
}

/*
 * Pass 2 over re-readable inputs: each chosen message is written at once
 * when direct (its place in the output is known: files, or output in
 * input order), else spooled for write_spooled().
 */
static void reread_inputs(struct run *r, struct mbox_writer *w, struct outdir *od, int direct)
{
	struct mail_source *src;
	struct raw_mail raw;
	size_t next = 0, count = mail_index_count(r->idx), last = 0, i;
	int rc;

	/* Stop after the last chosen message. */
	for (i = 0; i < count; i++)
		if (mail_index_at(r->idx, i)->out_pos)
			last = mail_index_at(r->idx, i)->number;

	if (source_open(&src, r->args, r->nargs, r->flags) < 0)
		die("cannot read the input");
	while (next < count && (rc = source_next(src, &raw))) {
		struct mail_entry *e;

		if (rc < 0)
			continue;
		if (raw.number > last)
			break;
		while (next < count && mail_index_at(r->idx, next)->number < raw.number)
			next++;
		e = mail_index_at(r->idx, next);
		if (!e || e->number != raw.number || !e->out_pos)
			continue;
		if (e->len != raw.len)
			die("'%s' changed while it was read (message %zu)", raw.origin, raw.number);
		if (direct)
			write_one(r, w, od, e->out_pos, e->from_line, raw.buf, raw.len);
		else if (spool_add(&r->spool, raw.buf, raw.len, &e->spool_off) < 0)
			die("cannot keep message %zu in a temporary file", raw.number);
	}
	source_close(src);
}

static void write_spooled(struct run *r, struct mbox_writer *w, struct outdir *od,
			  struct mail_entry **order, size_t n)
{
	struct strbuf buf = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (spool_read(&r->spool, order[i]->spool_off, order[i]->len, &buf) < 0)
			die("cannot read back message %zu", order[i]->number);
		write_one(r, w, od, order[i]->out_pos, order[i]->from_line, buf.buf, buf.len);
	}
	strbuf_release(&buf);
}

/*
 * Second pass when every chosen message is a plain byte range of an input
 * file (raw_mail.offset): read each back with pread(), in output order.
 * Returns 0 when some message is not (then nothing was written).
 */
static int write_from_files(struct run *r, struct mbox_writer *w, struct outdir *od,
			    struct mail_entry **order, size_t n)
{
	struct strbuf buf = STRBUF_INIT;
	const char *open_origin = NULL;
	int fd = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (order[i]->file_off < 0)
			return 0;
	for (i = 0; i < n; i++) {
		struct mail_entry *e = order[i];
		size_t done = 0;

		if (e->origin != open_origin) {
			if (fd >= 0)
				close(fd);
			fd = open(e->origin, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				die_errno("cannot open '%s' again", e->origin);
			open_origin = e->origin;
		}
		strbuf_reset(&buf);
		strbuf_grow(&buf, e->len);
		while (done < e->len) {
			ssize_t got = pread(fd, buf.buf + done, e->len - done, e->file_off + done);

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				die("'%s' changed while it was read (message %zu)", e->origin, e->number);
			done += got;
		}
		strbuf_setlen(&buf, e->len);
		write_one(r, w, od, e->out_pos, e->from_line, buf.buf, buf.len);
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&buf);
	return 1;
}

static void list_entries(struct split_opts *o, struct mail_entry **order, size_t n)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (mail_format_entry(&line, o->format, order[i]) < 0)
			die("bad --format");
		strbuf_addch(&line, '\n');
		if (line.len > 65536 || i + 1 == n) {
			write_or_die(1, line.buf, line.len);
			strbuf_reset(&line);
		}
	}
	strbuf_release(&line);
}

static int in_input_order(struct mail_entry **order, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (order[i]->number < order[i - 1]->number)
			return 0;
	return 1;
}

int cmd_main(int argc, const char **argv)
{
	struct split_opts o = { .sel = SELECT_OPTS_INIT, .threads = 1 };
	struct option options[] = {
		OPT_GROUP("Output"),
		OPT_STRING('o', "output-directory", &o.outdir, "dir",
			   "write one numbered file per message into <dir>, like git mailsplit"),
		OPT_BOOL(0, "mboxrd", &o.mboxrd, "write mboxrd (quote >From lines) instead of mbox"),
		OPT_BOOL('l', "list", &o.list, "list the selected messages, one line each"),
		OPT_STRING(0, "format", &o.format, "format", "list with this format (see the manual)"),
		OPT_BOOL(0, "input-order", &o.sel.input_order,
			 "keep the input's order instead of ordering by thread and patch number"),
		OPT__QUIET(&o.quiet, "do not warn about incomplete series"),
		OPT_GROUP("Input"),
		OPT_BOOL(0, "input-mboxrd", &o.input_mboxrd, "the input is mboxrd: unquote >From lines"),
		OPT_BOOL(0, "keep-cr", &o.keep_cr, "keep CR of CRLF line ends, like git mailsplit --keep-cr"),
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
		OPT_END()
	};
	struct run r = { .o = &o, .spool = SPOOL_INIT };
	struct mbox_writer w;
	struct outdir od = OUTDIR_INIT;
	struct mail_entry **order;
	size_t n;
	int ret, stream;

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

	r.args = argv;
	r.nargs = argc;
	r.flags = (o.input_mboxrd ? SOURCE_MBOXRD : 0) | (o.keep_cr ? SOURCE_KEEP_CR : 0);
	r.rereadable = inputs_rereadable(argv, argc);
	r.fast = !o.list && !o.sel.authors.nr && !o.since && !o.until;
	if (mail_index_new(&r.idx, &o.sel) < 0)
		exit(EXIT_USAGE);
	stream = !o.list && !o.sel.patches_only && o.sel.all_versions && o.sel.input_order &&
		 !o.sel.touches.nr && !o.sel.authors.nr && !o.sel.subjects.nr && !o.since && !o.until;
	if (o.outdir && outdir_open(&od, o.outdir) < 0)
		die("cannot write into '%s'", o.outdir);

	mbox_writer_init(&w, 1, o.mboxrd ? MBOX_RD : MBOX_O);
	if (stream) {
		n = stream_all(&r, &w, &od);
		goto done;
	}
	index_inputs(&r);
	n = mail_index_select(r.idx, &order);

	if (o.list)
		list_entries(&o, order, n);
	else if (r.rereadable && n && write_from_files(&r, &w, &od, order, n))
		;
	else if (r.rereadable && n && (od.fd >= 0 || in_input_order(order, n)))
		reread_inputs(&r, &w, &od, 1);
	else if (n) {
		if (r.rereadable)
			reread_inputs(&r, &w, &od, 0);
		write_spooled(&r, &w, &od, order, n);
	}
done:
	if (mbox_writer_finish(&w) < 0)
		die("cannot write the output");
	if (od.fd >= 0 && !o.quiet)
		printf("%zu\n", n);

	ret = r.errors ? EXIT_FATAL : n ? EXIT_OK : EXIT_NO;
	outdir_close(&od);
	spool_close(&r.spool);
	mail_index_free(r.idx);
	strvec_clear(&o.sel.touches);
	strvec_clear(&o.sel.authors);
	strvec_clear(&o.sel.subjects);
	return ret;
}
