/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A series from a public-inbox archive (see archive.h).
 */
#include "archive.h"
#include "ascii.h"
#include "fetch.h"
#include "http.h"
#include "mail-kind.h"
#include "mailinfo.h"
#include "quote.h"
#include "select.h"
#include "source.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---- what the argument names ---- */

/* RFC 5322's msg-id without its <>, as far as we put one in a URL. */
static int msgid_ok(const char *id, size_t len)
{
	if (!len || len > 998 || (len == 1 && id[0] == '.') || (len == 2 && !memcmp(id, "..", 2)))
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = id[i];

		if (c <= ' ' || c >= 0x7f || c == '<' || c == '>')
			return 0;
	}
	return 1;
}

void archive_escape_msgid(struct strbuf *out, const char *msgid)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";

	for (const char *p = msgid; *p; p++) {
		unsigned char c = *p;

		if (ascii_isalnum(c) || strchr(keep, c))
			strbuf_addch(out, c);
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

/* A list URL we are willing to put a Message-ID under: http(s), no blank, query or fragment. */
static int base_ok(const char *base)
{
	const char *host;

	if (!skip_prefix(base, "https://", &host) && !skip_prefix(base, "http://", &host))
		return 0;
	if (!*host || *host == '/')
		return 0;
	for (const char *p = base; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '?' || *p == '#')
			return 0;
	return 1;
}

static void warn_plain_http(const char *url)
{
	struct strbuf shown = STRBUF_INIT;

	if (starts_with(url, "http://"))
		warning("'%s' is plain http: anyone on the way can change the patches you get",
			quote_url(&shown, url));
	strbuf_release(&shown);
}

static int set_ref(struct archive_ref *ref, const char *msgid, size_t len, const char *base,
		   const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	if (!msgid_ok(msgid, len)) {
		error("'%s' is not a Message-ID we can look up", quote_url(&sb, arg));
		strbuf_release(&sb);
		return -1;
	}
	ref->msgid = xstrndup(msgid, len);
	strbuf_addstr(&sb, base);
	if (!ends_with(base, "/"))
		strbuf_addch(&sb, '/');
	ref->base = xstrdup(sb.buf);
	archive_escape_msgid(&sb, ref->msgid);
	strbuf_addstr(&sb, "/t.mbox.gz");
	ref->thread_url = strbuf_detach(&sb, NULL);
	return 0;
}

/* https://host/list/<msgid>/[T/|t/|raw|t.mbox.gz] */
static int parse_url(struct archive_ref *ref, const char *arg)
{
	static const char *const suffixes[] = { "T", "t", "raw", "t.mbox.gz", "t.atom" };
	struct strbuf url = STRBUF_INIT, id = STRBUF_INIT, shown = STRBUF_INIT;
	const char *host, *slash, *last;
	size_t cut;
	int ret = -1;

	strbuf_addstr(&url, arg);
	cut = strcspn(url.buf, "?#");
	strbuf_setlen(&url, cut);
	if (!skip_prefix(url.buf, "https://", &host))
		skip_prefix(url.buf, "http://", &host);
	while (url.len > (size_t)(host - url.buf) && url.buf[url.len - 1] == '/')
		strbuf_setlen(&url, url.len - 1);
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		slash = strrchr(url.buf, '/');
		if (slash && slash >= host && !strcmp(slash + 1, suffixes[i])) {
			strbuf_setlen(&url, slash - url.buf);
			break;
		}
	}
	slash = strrchr(url.buf, '/');
	if (!slash || slash < host || slash == host || !slash[1]) {
		error("'%s' names no message (expected https://<host>/<list>/<Message-ID>/)",
		      quote_url(&shown, arg));
		goto out;
	}
	last = slash + 1;
	if (url_unquote(&id, last, strlen(last), 0) < 0) {
		error("'%s' is not a Message-ID we can look up", quote_url(&shown, arg));
		goto out;
	}
	strbuf_setlen(&url, last - url.buf);
	if (!base_ok(url.buf)) {
		error("'%s' is not an archive URL we can use", quote_url(&shown, arg));
		goto out;
	}
	ret = set_ref(ref, id.buf, id.len, url.buf, arg);
	if (!ret)
		warn_plain_http(arg);
out:
	strbuf_release(&url);
	strbuf_release(&id);
	strbuf_release(&shown);
	return ret;
}

int archive_ref_parse(struct archive_ref *ref, const char *arg, const char *default_base)
{
	const char *id = arg;
	size_t len;

	if (starts_with(arg, "https://") || starts_with(arg, "http://"))
		return parse_url(ref, arg);
	skip_prefix(arg, "id:", &id);
	len = strlen(id);
	if (len >= 2 && id[0] == '<' && id[len - 1] == '>') {
		id++;
		len -= 2;
	}
	if (!default_base)
		return error("'%s' is a Message-ID, and no archive is configured to fetch it from "
			     "(git config maint.archive.url <url>)", arg);
	if (!base_ok(default_base)) {
		struct strbuf shown = STRBUF_INIT;

		error("archive.url '%s' is not an http(s) URL we can use", quote_url(&shown, default_base));
		strbuf_release(&shown);
		return -1;
	}
	if (set_ref(ref, id, len, default_base, arg) < 0)
		return -1;
	warn_plain_http(default_base);
	return 0;
}

void archive_ref_release(struct archive_ref *ref)
{
	free(ref->msgid);
	free(ref->base);
	free(ref->thread_url);
	ref->msgid = ref->base = ref->thread_url = NULL;
}

/* ---- the thread: t.mbox.gz, gunzipped as it arrives ---- */

struct gunzip {
	z_stream z;
	int ended;		/* a gzip member ended: more input starts another */
	size_t total, max;
	long stall;		/* seconds without a byte of mail before giving up */
	struct timespec last_made;	/* when the last byte of mail came out */
	int (*open_out)(void *data);
	void *data;
	int fd;
	struct strbuf url;	/* the thread's URL as messages show it (quote_url()) */
	unsigned char out[1 << 16];
};

static void now(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
}

/*
 * Compressed data that inflates to nothing (empty gzip members one
 * after another, for ever) keeps bytes moving, so libcurl's stall
 * timeout never fires: the stall is measured here, in mail.
 */
static enum maint_result gunzip_stalled(struct gunzip *g, size_t made)
{
	struct timespec t;

	now(&t);
	if (made) {
		g->last_made = t;
		return 0;
	}
	if (t.tv_sec - g->last_made.tv_sec < g->stall)
		return 0;
	error("cannot fetch '%s': no mail came out of what the server sent for %ld seconds "
	      "(archive.timeout)", g->url.buf, g->stall);
	return RESULT_TEMPFAIL;
}

static int gunzip_write(void *data, const char *buf, size_t len)
{
	struct gunzip *g = data;
	size_t made_here = 0;

	if (g->fd < 0 && (g->fd = g->open_out(g->data)) < 0)
		return -1;
	g->z.next_in = (unsigned char *)buf;
	g->z.avail_in = len;
	while (g->z.avail_in) {
		size_t made;
		int r;

		if (g->ended) {
			/* gzip allows members one after another (RFC 1952 2.2) */
			inflateReset(&g->z);
			g->ended = 0;
		}
		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		r = inflate(&g->z, Z_NO_FLUSH);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
			return error("'%s' is not a gzip'ed mbox (%s)", g->url.buf,
				     g->z.msg ? g->z.msg : "zlib error");
		made = sizeof(g->out) - g->z.avail_out;
		if (made > g->max - g->total)
			return error("'%s': the thread is over %zu bytes uncompressed (archive.max-size); "
				     "refused", g->url.buf, g->max);
		g->total += made;
		made_here += made;
		if (made && write_in_full(g->fd, g->out, made) < 0)
			return error_errno("cannot write the thread of '%s'", g->url.buf);
		if (r == Z_STREAM_END)
			g->ended = 1;
		else if (r == Z_BUF_ERROR && !made)
			break;
	}
	return gunzip_stalled(g, made_here);
}

enum maint_result archive_fetch_thread(const struct archive_ref *ref,
				       const struct archive_fetch_opts *opts,
				       int (*open_out)(void *data), void *data, int *got_fd)
{
	struct http_opts ho = HTTP_OPTS_INIT;
	struct gunzip *g = xcalloc(1, sizeof(*g));
	enum maint_result ret;

	g->fd = -1;
	g->max = opts->max_size ? opts->max_size : ARCHIVE_MAX_SIZE_DEFAULT;
	g->stall = opts->timeout > 0 ? opts->timeout : HTTP_TIMEOUT_DEFAULT;
	now(&g->last_made);
	g->open_out = open_out;
	g->data = data;
	g->url = (struct strbuf)STRBUF_INIT;
	quote_url(&g->url, ref->thread_url);
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
		strbuf_release(&g->url);
		free(g);
		*got_fd = -1;
		return error("cannot initialise zlib");
	}
	ho.cainfo = opts->cainfo;
	ho.timeout = opts->timeout;
	ho.max_time = opts->max_time;
	/* a gzip stream is not larger than what it holds, but for a few bytes a block */
	ho.max_body = g->max == (size_t)-1 ? 0 : g->max + g->max / 1024 + 4096;
	ho.max_body_setting = "archive.max-size";
	ho.max_time_setting = "archive.max-time";
	ho.quiet = opts->quiet;
	ho.cfg = opts->cfg;
	ho.progress_title = "Fetching thread";
	ret = http_get(ref->thread_url, &ho, gunzip_write, g);
	if (ret == RESULT_NO) {
		struct strbuf base = STRBUF_INIT;

		error("the archive has no message '<%s>' (%s)", ref->msgid, quote_url(&base, ref->base));
		strbuf_release(&base);
		ret = RESULT_FATAL;
	} else if (ret == RESULT_OK && g->fd < 0) {
		ret = error("'%s': the archive sent nothing", g->url.buf);
	} else if (ret == RESULT_OK && !g->ended) {
		ret = error("'%s': the gzip data ends early", g->url.buf);
	}
	inflateEnd(&g->z);
	*got_fd = g->fd;
	strbuf_release(&g->url);
	free(g);
	return ret;
}

/* ---- the series ---- */

/* What the pick needs of one message of the thread: the mail core's verdict, and where it is. */
struct pick_msg {
	char *msgid;
	int version, k, total;
	unsigned series:1;	/* a patch or cover letter (common/mail/mail-kind.h) */
	size_t thread;		/* the mail core's thread: linked by replies */
	size_t parent;		/* the message it answers, MAIL_NONE */
	size_t off, len;
};

struct pick {
	struct pick_msg *v;
	size_t nr, alloc;
};

static void pick_release(struct pick *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->v[i].msgid);
	free(p->v);
}

/*
 * Reads the thread and classifies it as the commands will (the mail
 * core: patch, cover letter, follow-up, duplicate); messages the parser
 * refuses are left out, quietly (what is kept is read again by the
 * command, which reports).
 */
static void read_thread(struct pick *p, const char *buf, size_t len,
			const struct archive_pick_opts *o)
{
	struct mailinfo_opts mo = MAILINFO_OPTS_INIT;
	struct mail_kinds *mk = mail_kinds_new();
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	int rc;

	mo.headers_and_paths_only = 1;
	mo.quiet = 1;	/* the command reads what is kept again, and says what it finds */
	source_open_buffer(&src, buf, len, o->what, SOURCE_KEEP_CR);
	if (o->max_message_size)
		source_set_max_size(src, o->max_message_size);
	mailinfo_init(&pm);
	while ((rc = source_next(src, &raw))) {
		struct mail_facts f;
		struct pick_msg *m;

		if (rc < 0)
			continue;
		if (raw.buf < buf || raw.buf + raw.len > buf + len)
			BUG("a message of a buffer source is not in the buffer");
		if (!select_scan(&pm, &raw) && mailinfo_parse(&pm, &raw, &mo) < 0)
			continue;
		mail_facts_from(&f, &pm, 0);
		mail_kinds_add(mk, &f);
		ALLOC_GROW(p->v, p->nr + 1, p->alloc);
		m = &p->v[p->nr++];
		m->msgid = xstrdup(pm.message_id.buf);
		m->off = raw.buf - buf;
		m->len = raw.len;
	}
	mailinfo_release(&pm);
	source_close(src);
	mail_kinds_run(mk);
	for (size_t i = 0; i < p->nr; i++) {
		const struct mail_class *c = mail_kinds_at(mk, i);
		struct pick_msg *m = &p->v[i];

		m->series = c->kind == MAIL_PATCH || c->kind == MAIL_COVER;
		m->version = c->version;
		m->k = c->k;
		m->total = c->total;
		m->thread = c->thread;
		m->parent = c->parent;
		if (m->series && (m->total <= 0 || m->k > m->total))
			m->series = 0;
	}
	mail_kinds_free(mk);
}

/* The first copy of the message with this id, or NULL. */
static struct pick_msg *find_id(struct pick *p, const char *id)
{
	for (size_t i = 0; *id && i < p->nr; i++)
		if (!strcmp(p->v[i].msgid, id))
			return &p->v[i];
	return NULL;
}

/*
 * The series message the Message-ID belongs to: itself, or the first
 * patch or cover letter up the chain of what it answers; else the first
 * patch or cover letter of its thread.
 */
static struct pick_msg *series_anchor(struct pick *p, struct pick_msg *m)
{
	size_t thread = m->thread;

	for (size_t depth = 0; m && depth <= p->nr; depth++) {
		if (m->series)
			return m;
		m = m->parent != MAIL_NONE ? &p->v[m->parent] : NULL;
	}
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].series && p->v[i].thread == thread)
			return &p->v[i];
	return NULL;
}

/*
 * A version of the anchor's series: a patch or cover letter of its
 * thread (the mail core's: linked by replies, or an unthreaded series).
 * Not "by the same author": a cover letter comes from whoever sends the
 * series, each patch from its own author (an in-body From:), and v2's
 * sender may write from another address.
 */
static int same_family(struct pick *p, size_t i, const struct pick_msg *anchor)
{
	return p->v[i].series && p->v[i].thread == anchor->thread;
}

/* The newest version of the family (or the one asked for, checked), and its total. */
static int choose_version(struct pick *p, const struct pick_msg *anchor,
			  const struct archive_pick_opts *o, int *version, int *total)
{
	int newest = 0;

	*total = 0;
	for (size_t i = 0; i < p->nr; i++)
		if (same_family(p, i, anchor) && p->v[i].version > newest)
			newest = p->v[i].version;
	*version = o->version ? o->version : newest;
	for (size_t i = 0; i < p->nr; i++)
		if (same_family(p, i, anchor) && p->v[i].version == *version && p->v[i].total > *total)
			*total = p->v[i].total;
	if (!*total)
		return error("'%s': the thread has no version %d of the series (the newest is v%d)",
			     o->what, *version, newest);
	return 0;
}

/* Candidates by patch number, the newest version first, then the first copy. */
static int candidate_cmp(const void *a, const void *b)
{
	const struct pick_msg *x = *(const struct pick_msg *const *)a;
	const struct pick_msg *y = *(const struct pick_msg *const *)b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->version != y->version)
		return x->version > y->version ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * For each number 0..total, the message of the newest version up to
 * version with that total; the cover letter (0) of an older version
 * only when patches of an older version are taken too (a partial
 * reroll keeps the cover letter its patches answer).
 */
static void pick_series(struct pick *p, const struct pick_msg *anchor, int version, int total,
			struct fetched_input *in)
{
	struct pick_msg **c = xcalloc(p->nr ? p->nr : 1, sizeof(*c));
	size_t n = 0, first = 0;
	int partial = 0;

	for (size_t i = 0; i < p->nr; i++)
		if (same_family(p, i, anchor) && p->v[i].total == total && p->v[i].version <= version)
			c[n++] = &p->v[i];
	qsort(c, n, sizeof(*c), candidate_cmp);
	for (size_t i = 0; i < n; i++)
		if (c[i]->k && (!i || c[i - 1]->k != c[i]->k))
			partial |= c[i]->version != version;
	if (n && !c[0]->k) {
		if (c[0]->version == version || partial)
			fetched_input_add(in, c[0]->off, c[0]->len);
		while (first < n && !c[first]->k)
			first++;
	}
	for (size_t i = first; i < n; i++)
		if (i == first || c[i - 1]->k != c[i]->k)
			fetched_input_add(in, c[i]->off, c[i]->len);
	free(c);
}

/*
 * The anchor's thread whole, as the mail core links it, in the
 * archive's order: every version, cover letter and follow-up, so that
 * the command selects and carries from it what it would from the same
 * thread in a local mailbox.
 */
static void add_thread(struct pick *p, const struct pick_msg *anchor, struct fetched_input *in)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].thread == anchor->thread)
			fetched_input_add(in, p->v[i].off, p->v[i].len);
}

static void add_all_versions(struct pick *p, const struct pick_msg *anchor, struct fetched_input *in)
{
	for (size_t i = 0; i < p->nr; i++)
		if (same_family(p, i, anchor))
			fetched_input_add(in, p->v[i].off, p->v[i].len);
}

enum maint_result archive_pick(const struct archive_ref *ref, const char *buf, size_t len,
			       const struct archive_pick_opts *o, struct fetched_input *in)
{
	struct pick p = { NULL, 0, 0 };
	struct pick_msg *anchor;
	enum maint_result ret = RESULT_FATAL;
	int version, total;

	read_thread(&p, buf, len, o);
	anchor = find_id(&p, ref->msgid);
	if (!anchor) {
		error("'%s': the archive's thread has no message '<%s>'", o->what, ref->msgid);
		goto out;
	}
	anchor = series_anchor(&p, anchor);
	if (!anchor) {
		warning("'%s': the thread of '<%s>' holds no patch", o->what, ref->msgid);
		ret = RESULT_OK;
	} else if (o->all_versions && !o->version) {
		add_all_versions(&p, anchor, in);
		ret = RESULT_OK;
	} else if (!o->version) {
		add_thread(&p, anchor, in);
		ret = RESULT_OK;
	} else if (!choose_version(&p, anchor, o, &version, &total)) {
		pick_series(&p, anchor, version, total, in);
		ret = RESULT_OK;
	}
out:
	pick_release(&p);
	return ret;
}
