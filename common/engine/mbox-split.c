/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbox-split.h"
#include "attest.h"
#include "mailinfo.h"
#include "review.h"
#include "source.h"
#include "trailers.h"
#include "usage.h"
#include "wrapper.h"

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

void mbox_split_init(struct mbox_split *ms)
{
	ms->rereadable = inputs_rereadable(ms->args, ms->nargs);
	ms->spool.fd = -1;
	ms->spool.size = 0;
	ms->errors = 0;
	ms->bad = 0;
	ms->oversized = 0;
	strvec_init(&ms->signers);
}

void mbox_split_release(struct mbox_split *ms)
{
	spool_close(&ms->spool);
	strvec_clear(&ms->signers);
}

static int open_source(struct mbox_split *ms, struct mail_source **src)
{
	if (source_open(src, ms->args, ms->nargs, source_opts_flags(ms->source)) < 0)
		return -1;
	if (source_configure(*src, ms->cfg, ms->source) < 0) {
		source_close(*src);
		*src = NULL;
		return -1;
	}
	return 0;
}

/* source_next() failed: a message over the size limit, or an input error. */
static void count_error(struct mbox_split *ms, struct mail_source *src)
{
	if (source_oversized(src) > ms->oversized)
		ms->oversized++;
	else
		ms->errors++;
}

/* Writes one message, entry e (NULL when streaming), as the pos-th of the output; from_line may be NULL. */
static int write_one(struct mbox_split *ms, const struct mail_entry *e, size_t pos,
		     const char *from_line, const char *buf, size_t len)
{
	struct strbuf from = STRBUF_INIT;
	const char *nl;
	int rc;

	/*
	 * The source drops the CR of the From_ line; with SOURCE_KEEP_CR put
	 * it back when the message's lines end in CRLF, as git mailsplit
	 * --keep-cr keeps it.
	 */
	if (from_line && (source_opts_flags(ms->source) & SOURCE_KEEP_CR) &&
	    (nl = memchr(buf, '\n', len)) && nl > buf && nl[-1] == '\r') {
		strbuf_addf(&from, "%s\r", from_line);
		from_line = from.buf;
	}
	if (ms->series && e)
		rc = seriesdir_write(ms->series, e->unit, from_line, buf, len);
	else if (ms->dir && ms->dir->fd >= 0)
		rc = outdir_write(ms->dir, pos, from_line, buf, len);
	else
		rc = mbox_writer_add(ms->mbox, from_line, buf, len);
	strbuf_release(&from);
	return rc;
}

/* Can pm be a follow-up: does it answer a message, and is it not a patch of a series by itself? */
static int may_follow_up(const struct patch_mail *pm)
{
	struct mail_facts f;

	if (!pm->in_reply_to.len && !pm->references.nr)
		return 0;
	mail_facts_from(&f, pm, 0);
	return mail_facts_may_follow_up(&f);
}

int mbox_split_index(struct mbox_split *ms)
{
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	int rc, ret = 0;

	mopts.headers_and_paths_only = 1;
	if (open_source(ms, &src) < 0)
		return -1;
	mailinfo_init(&pm);
	while ((rc = source_next(src, &raw))) {
		struct mail_entry *e;

		if (rc < 0) {
			count_error(ms, src);
			continue;
		}
		if (!(ms->fast && select_scan(&pm, &raw)) && mailinfo_parse(&pm, &raw, &mopts) < 0) {
			ms->bad++;
			continue;
		}
		/* raw.origin is one of args (or "-"), which outlive the index. */
		e = select_index_add(ms->idx, &pm, raw.number, raw.len, raw.origin,
				   raw.from_line, raw.from_line_len);
		/* a follow-up may give trailers an older version's review needs (select.h) */
		if (may_follow_up(&pm))
			e->has_trailers = trailers_in_reply(raw.buf, raw.len);
		if (ms->rereadable && !raw.file)
			e->file_off = raw.offset;
		if (ms->attest) {
			if (attest_check(ms->attest, &raw, &v) < 0) {
				ret = -1;
				break;
			}
			e->attest_verdict = v.verdict;
			e->attest_signer = strvec_push(&ms->signers, attest_signer(&v));
		}
		if (!ms->rereadable && spool_add(&ms->spool, raw.buf, raw.len, &e->spool_off) < 0) {
			ret = -1;
			break;
		}
	}
	source_close(src);
	mailinfo_release(&pm);
	attest_verdict_release(&v);
	return ret;
}

/*
 * When every chosen message is a plain byte range of an input file,
 * reads each back with pread(), in output order. Returns 1 when done,
 * 0 when some message is not such a range (nothing written), -1 on error.
 */
static int write_from_files(struct mbox_split *ms, struct mail_entry **order, size_t n)
{
	struct strbuf buf = STRBUF_INIT;
	const char *open_origin = NULL;
	int fd = -1, ret = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (order[i]->file_off < 0)
			return 0;
	for (i = 0; i < n && ret > 0; i++) {
		struct mail_entry *e = order[i];
		size_t done = 0;

		if (e->origin != open_origin) {
			if (fd >= 0)
				close(fd);
			fd = open(e->origin, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				ret = error_errno("cannot open '%s' again", e->origin);
				break;
			}
			open_origin = e->origin;
		}
		strbuf_reset(&buf);
		strbuf_grow(&buf, e->len);
		while (done < e->len) {
			ssize_t got = pread(fd, buf.buf + done, e->len - done, e->file_off + done);

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				break;
			done += got;
		}
		if (done < e->len) {
			ret = error("'%s' changed while it was read (message %zu)", e->origin, e->number);
			break;
		}
		strbuf_setlen(&buf, e->len);
		if (write_one(ms, e, e->out_pos, e->from_line, buf.buf, buf.len) < 0)
			ret = -1;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&buf);
	return ret;
}

/*
 * Reads the inputs again: each chosen message is written at once when
 * direct (files, or output in input order), else spooled.
 */
static int reread_inputs(struct mbox_split *ms, int direct)
{
	size_t next = 0, count = select_index_count(ms->idx), last = 0, i;
	struct mail_source *src;
	struct raw_mail raw;
	int rc, ret = 0;

	/* Stop after the last chosen message. */
	for (i = 0; i < count; i++)
		if (select_index_at(ms->idx, i)->out_pos)
			last = select_index_at(ms->idx, i)->number;
	if (open_source(ms, &src) < 0)
		return -1;
	while (!ret && next < count && (rc = source_next(src, &raw))) {
		struct mail_entry *e;

		if (rc < 0)
			continue;
		if (raw.number > last)
			break;
		while (next < count && select_index_at(ms->idx, next)->number < raw.number)
			next++;
		e = select_index_at(ms->idx, next);
		if (!e || e->number != raw.number || !e->out_pos)
			continue;
		if (e->len != raw.len)
			ret = error("'%s' changed while it was read (message %zu)", raw.origin, raw.number);
		else if (direct)
			ret = write_one(ms, e, e->out_pos, e->from_line, raw.buf, raw.len);
		else
			ret = spool_add(&ms->spool, raw.buf, raw.len, &e->spool_off);
	}
	source_close(src);
	return ret;
}

static int write_spooled(struct mbox_split *ms, struct mail_entry **order, size_t n)
{
	struct strbuf buf = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		ret = spool_read(&ms->spool, order[i]->spool_off, order[i]->len, &buf);
		if (!ret)
			ret = write_one(ms, order[i], order[i]->out_pos, order[i]->from_line, buf.buf, buf.len);
	}
	strbuf_release(&buf);
	return ret;
}

static int in_input_order(struct mail_entry **order, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (order[i]->number < order[i - 1]->number)
			return 0;
	return 1;
}

int mbox_split_write(struct mbox_split *ms, struct mail_entry **order, size_t n)
{
	int rc;

	if (!n)
		return 0;
	if (ms->rereadable) {
		rc = write_from_files(ms, order, n);
		if (rc)
			return rc < 0 ? -1 : 0;
		if ((ms->dir && ms->dir->fd >= 0) || in_input_order(order, n))
			return reread_inputs(ms, 1);
		if (reread_inputs(ms, 0) < 0)
			return -1;
	}
	return write_spooled(ms, order, n);
}

static int cmp_series(const void *a_, const void *b_)
{
	const struct mail_entry *a = *(const struct mail_entry *const *)a_;
	const struct mail_entry *b = *(const struct mail_entry *const *)b_;

	if (a->unit->number != b->unit->number)
		return a->unit->number < b->unit->number ? -1 : 1;
	return (a->out_pos > b->out_pos) - (a->out_pos < b->out_pos);
}

int mbox_split_write_series(struct mbox_split *ms, struct mail_entry **order, size_t n,
			    size_t *outside)
{
	struct mail_entry **by_series = xmalloc(st_mult(n + 1, sizeof(*by_series)));
	size_t m = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (order[i]->unit)
			by_series[m++] = order[i];
	*outside = n - m;
	if (m)
		qsort(by_series, m, sizeof(*by_series), cmp_series);
	rc = mbox_split_write(ms, by_series, m);
	free(by_series);
	return rc;
}

int mbox_split_stream(struct mbox_split *ms, size_t *written)
{
	struct strbuf from = STRBUF_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	int rc, ret = 0;

	*written = 0;
	if (open_source(ms, &src) < 0)
		return -1;
	while (!ret && (rc = source_next(src, &raw))) {
		if (rc < 0) {
			count_error(ms, src);
			continue;
		}
		strbuf_reset(&from);
		if (raw.from_line)
			strbuf_add(&from, raw.from_line, raw.from_line_len);
		ret = write_one(ms, NULL, ++*written, raw.from_line ? from.buf : NULL, raw.buf, raw.len);
	}
	source_close(src);
	strbuf_release(&from);
	return ret;
}

/*
 * Entry e as the review takes it, from its bytes; a follow-up's signatures
 * checked with a: 0, or -1 when they cannot be (attest_check()).
 */
static int review_entry(struct review *rv, struct patch_mail *pm, const struct mail_entry *e,
			 const char *buf, size_t len, struct attest *a)
{
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct strbuf mark = STRBUF_INIT;
	static const struct mailinfo_opts mopts = { .quoted_cr = MAILINFO_QUOTED_CR_WARN, .quiet = 1 };
	struct mail_class c = { 0 };
	struct raw_mail raw = { 0 };
	struct review_msg m;
	int ret = 0;

	c.kind = buf ? e->kind : MAIL_OTHER;
	c.parent = e->parent;
	c.series = e->own_series;
	c.replaced_by = e->replaced_by;
	c.version = e->version;
	c.k = e->k;
	c.total = e->total;
	raw.buf = buf ? buf : "";
	raw.len = buf ? len : 0;
	raw.origin = e->origin;
	raw.number = e->number;
	mailinfo_parse(pm, &raw, &mopts);
	/* a patch id cannot fail but on a hashing error, which leaves the patch without one */
	review_msg_from_mail(&m, &c, e->family, pm, raw.buf, raw.len, e->number, NULL);
	if (a && buf && e->kind == MAIL_FOLLOWUP) {
		ret = attest_check(a, &raw, &v);
		if (v.verdict != 'N') {
			attest_format(&mark, &v);
			m.attest = mark.buf;
		}
	}
	review_add(rv, &m);
	attest_verdict_release(&v);
	strbuf_release(&mark);
	return ret;
}

/* Every entry into rv, in index order, read again from the inputs or the spool. */
static int review_all(struct mbox_split *ms, struct review *rv)
{
	size_t count = select_index_count(ms->idx), next = 0;
	struct mail_source *src = NULL;
	struct strbuf buf = STRBUF_INIT;
	struct patch_mail pm;
	struct raw_mail raw;
	int rc, ret = 0;

	mailinfo_init(&pm);
	if (ms->rereadable && open_source(ms, &src) < 0)
		return -1;
	while (src && next < count && (rc = source_next(src, &raw))) {
		struct mail_entry *e = select_index_at(ms->idx, next);

		if (rc < 0 || raw.number < e->number)
			continue;
		while (next < count && select_index_at(ms->idx, next)->number < raw.number)
			review_entry(rv, &pm, select_index_at(ms->idx, next++), NULL, 0, NULL);
		if (next < count && select_index_at(ms->idx, next)->number == raw.number) {
			e = select_index_at(ms->idx, next++);
			if (review_entry(rv, &pm, e, e->len == raw.len ? raw.buf : NULL, raw.len, ms->attest) < 0)
				ret = -1;
		}
	}
	for (; next < count; next++) {
		struct mail_entry *e = select_index_at(ms->idx, next);
		int have = !src && e->spool_off >= 0 && !spool_read(&ms->spool, e->spool_off, e->len, &buf);

		if (review_entry(rv, &pm, e, have ? buf.buf : NULL, buf.len, ms->attest) < 0)
			ret = -1;
	}
	source_close(src);
	mailinfo_release(&pm);
	strbuf_release(&buf);
	return ret;
}

/* The index of e: entries are in input order, their numbers rising. */
static size_t entry_index(struct select_index *idx, size_t count, const struct mail_entry *e)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (select_index_at(idx, mid)->number < e->number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int mbox_split_review(struct mbox_split *ms, struct mail_entry **order, size_t n,
		      const struct review_opts *opts, struct review **out, size_t **applied_as)
{
	size_t *applied = xmalloc(st_mult(n + 1, sizeof(size_t))), napplied = 0, count;
	int ret;

	*out = review_new();
	*applied_as = xmalloc(st_mult(n + 1, sizeof(size_t)));
	ret = review_all(ms, *out);
	count = select_index_count(ms->idx);
	for (size_t i = 0; i < n; i++) {
		(*applied_as)[i] = MAIL_NONE;
		if (order[i]->kind != MAIL_PATCH)
			continue;
		applied[napplied] = entry_index(ms->idx, count, order[i]);
		(*applied_as)[order[i]->out_pos - 1] = napplied++;
	}
	review_collect(*out, applied, napplied, opts);
	free(applied);
	return ret;
}
