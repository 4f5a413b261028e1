/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An IMAP folder through libcurl (see imap.h).
 */
#include "imap.h"
#include "curl-lib.h"
#include "fetch.h"
#include "http.h"
#include "progress.h"
#include "quote.h"
#include "select.h"
#include "usage.h"
#include "utf8.h"
#include "wrapper.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The longest line we take from a server (a SEARCH of a big folder is long). */
#define IMAP_MAX_LINE ((size_t)16 << 20)
/* UIDs per FETCH command. */
#define IMAP_BATCH 100

/* ---- the URL ---- */

static int host_ok(const char *h, size_t len)
{
	if (!len || len > 255)
		return 0;
	if (h[0] == '[') {
		if (len < 3 || h[len - 1] != ']')
			return 0;
		for (size_t i = 1; i + 1 < len; i++)
			if (!strchr("0123456789abcdefABCDEF:.", h[i]))
				return 0;
		return 1;
	}
	for (size_t i = 0; i < len; i++)
		if (!((h[i] >= 'a' && h[i] <= 'z') || (h[i] >= 'A' && h[i] <= 'Z') ||
		      (h[i] >= '0' && h[i] <= '9') || h[i] == '.' || h[i] == '-'))
			return 0;
	return 1;
}

static int parse_query(struct imap_url *u, const char *q, const char *url)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	int ret = 0;

	while (*q && !ret) {
		size_t len = strcspn(q, "&");
		const char *eq = memchr(q, '=', len);

		strbuf_reset(&key);
		strbuf_reset(&val);
		if (url_unquote(&key, q, eq ? (size_t)(eq - q) : len, URL_NO_CONTROLS) < 0 ||
		    (eq && url_unquote(&val, eq + 1, len - (eq + 1 - q), URL_NO_CONTROLS) < 0))
			ret = error("'%s': a bad escape in the query", url);
		else if (!strcmp(key.buf, "unseen") && !eq)
			u->unseen = 1;
		else if (!strcmp(key.buf, "mark-seen") && !eq)
			u->mark_seen = 1;
		else if (!strcmp(key.buf, "since") && eq) {
			if (select_parse_date(val.buf, &u->since) < 0 || u->since <= 0)
				ret = error("'%s': cannot parse the date '%s'", url, val.buf);
		} else if (key.len)
			ret = error("'%s': unknown query '%s' (unseen, since=<date>, mark-seen)", url,
				    key.buf);
		q += len;
		if (*q == '&')
			q++;
	}
	strbuf_release(&key);
	strbuf_release(&val);
	return ret;
}

int imap_url_parse(struct imap_url *u, const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *auth_end, *at, *hp, *colon, *path_end;
	size_t host_len;

	if (skip_prefix(url, "imaps://", &p))
		u->starttls = 0;
	else if (skip_prefix(url, "imap://", &p))
		u->starttls = 1;
	else {
		error("'%s' is not an imap:// or imaps:// URL", quote_url(&sb, url));
		strbuf_release(&sb);
		return -1;
	}
	auth_end = p + strcspn(p, "/?#");
	at = memrchr(p, '@', auth_end - p);
	if (at) {
		/* a password in the URL is not ours to use or to show (credential.h) */
		const char *pw = memchr(p, ':', at - p);

		if (url_unquote(&sb, p, (pw ? pw : at) - p, URL_NO_CONTROLS) < 0 || !sb.len)
			goto bad;
		u->user = strbuf_detach(&sb, NULL);
	}
	hp = at ? at + 1 : p;
	if (*hp == '[') {
		const char *close = memchr(hp, ']', auth_end - hp);

		colon = close && close + 1 < auth_end && close[1] == ':' ? close + 1 : NULL;
	} else {
		colon = memchr(hp, ':', auth_end - hp);
	}
	host_len = (colon ? colon : auth_end) - hp;
	if (!host_ok(hp, host_len))
		goto bad;
	u->host = xstrndup(hp, host_len);
	if (colon) {
		char *end;
		unsigned long port = strtoul(colon + 1, &end, 10);

		if (end != auth_end || colon + 1 == end || !port || port > 65535)
			goto bad;
		u->port = port;
	}
	p = auth_end;
	if (*p == '/')
		p++;
	path_end = p + strcspn(p, "?#");
	strbuf_reset(&sb);
	if (url_unquote(&sb, p, path_end - p, URL_NO_CONTROLS) < 0 || !utf8_valid(sb.buf, sb.len))
		goto bad;
	while (sb.len && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (!sb.len)
		strbuf_addstr(&sb, "INBOX");
	u->folder = strbuf_detach(&sb, NULL);
	if (*path_end == '?') {
		char *q = xstrndup(path_end + 1, strcspn(path_end + 1, "#"));
		int rc = parse_query(u, q, quote_url(&sb, url));

		free(q);
		strbuf_release(&sb);
		if (rc < 0)
			return -1;
	}
	return 0;
bad:
	strbuf_reset(&sb);
	error("'%s' is not an IMAP folder URL we can read "
	      "(imaps://[<user>@]<host>[:<port>]/<folder>[?unseen&since=<date>&mark-seen])",
	      quote_url(&sb, url));
	strbuf_release(&sb);
	return -1;
}

void imap_url_release(struct imap_url *u)
{
	struct imap_url blank = IMAP_URL_INIT;

	free(u->user);
	free(u->host);
	free(u->folder);
	*u = blank;
}

/* ---- modified UTF-7 ---- */

static void utf7_flush(struct strbuf *out, const uint16_t *units, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,";
	uint32_t acc = 0;
	int bits = 0;

	if (!n)
		return;
	strbuf_addch(out, '&');
	for (size_t i = 0; i < n; i++) {
		acc = (acc << 16) | units[i];
		bits += 16;
		while (bits >= 6) {
			bits -= 6;
			strbuf_addch(out, b64[(acc >> bits) & 0x3f]);
		}
	}
	if (bits)
		strbuf_addch(out, b64[(acc << (6 - bits)) & 0x3f]);
	strbuf_addch(out, '-');
}

int imap_utf7_encode(struct strbuf *out, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint16_t *units;
	size_t n = 0, len = strlen(name);

	if (!utf8_valid(name, len))
		return -1;
	units = xcalloc(st_add(len, 1), 2 * sizeof(*units));
	while (*p) {
		uint32_t cp;
		int extra = *p < 0x80 ? 0 : *p < 0xe0 ? 1 : *p < 0xf0 ? 2 : 3;

		cp = extra ? *p & (0x3f >> extra) : *p;
		p++;
		while (extra--)
			cp = (cp << 6) | (*p++ & 0x3f);
		if (cp >= 0x20 && cp <= 0x7e) {
			utf7_flush(out, units, n);
			n = 0;
			strbuf_addstr(out, cp == '&' ? "&-" : (char[]){ (char)cp, 0 });
		} else if (cp >= 0x10000) {
			cp -= 0x10000;
			units[n++] = 0xd800 | (cp >> 10);
			units[n++] = 0xdc00 | (cp & 0x3ff);
		} else {
			units[n++] = cp;
		}
	}
	utf7_flush(out, units, n);
	free(units);
	return 0;
}

/* ---- the connection ---- */

struct imap_conn {
	CURL *c;
	curl_socket_t sock;
	long timeout;
	const char *what;
	struct strbuf in;	/* received, from pos on not yet read */
	size_t pos;
	unsigned tag;
	char errbuf[CURL_ERROR_SIZE];
};

PRINTF(2, 3) static enum maint_result tempfail(struct imap_conn *ic, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("'%s': %s", ic->what, sb.buf);
	strbuf_release(&sb);
	return RESULT_TEMPFAIL;
}

/* Waits until the socket can be read (or written); RESULT_TEMPFAIL on a timeout. */
static enum maint_result wait_socket(struct imap_conn *ic, short events)
{
	struct pollfd pfd = { ic->sock, events, 0 };
	int rc;

	do
		rc = poll(&pfd, 1, ic->timeout * 1000);
	while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return error_errno("'%s': cannot wait for the server", ic->what);
	if (!rc)
		return tempfail(ic, "the server sent nothing for %ld seconds", ic->timeout);
	return RESULT_OK;
}

static enum maint_result recv_more(struct imap_conn *ic)
{
	char buf[1 << 16];

	if (ic->pos == ic->in.len) {
		strbuf_reset(&ic->in);
		ic->pos = 0;
	} else if (ic->pos > (1 << 20)) {
		strbuf_remove(&ic->in, 0, ic->pos);
		ic->pos = 0;
	}
	for (;;) {
		size_t n = 0;
		CURLcode rc = curl_lib.easy_recv(ic->c, buf, sizeof(buf), &n);
		enum maint_result w;

		if (rc == CURLE_AGAIN) {
			if ((w = wait_socket(ic, POLLIN)) != RESULT_OK)
				return w;
			continue;
		}
		if (rc != CURLE_OK)
			return tempfail(ic, "the connection broke: %s", curl_lib.easy_strerror(rc));
		if (!n)
			return tempfail(ic, "the server closed the connection");
		strbuf_add(&ic->in, buf, n);
		return RESULT_OK;
	}
}

static enum maint_result send_all(struct imap_conn *ic, const char *buf, size_t len)
{
	while (len) {
		size_t n = 0;
		CURLcode rc = curl_lib.easy_send(ic->c, buf, len, &n);
		enum maint_result w;

		if (rc == CURLE_AGAIN) {
			if ((w = wait_socket(ic, POLLOUT)) != RESULT_OK)
				return w;
			continue;
		}
		if (rc != CURLE_OK)
			return tempfail(ic, "the connection broke: %s", curl_lib.easy_strerror(rc));
		buf += n;
		len -= n;
	}
	return RESULT_OK;
}

/* The next line from the server, without its CRLF. */
static enum maint_result read_line(struct imap_conn *ic, struct strbuf *line)
{
	size_t scanned = 0;	/* bytes after pos known to hold no LF */

	for (;;) {
		const char *start = ic->in.buf + ic->pos;
		size_t avail = ic->in.len - ic->pos;
		const char *nl = memchr(start + scanned, '\n', avail - scanned);
		enum maint_result rc;

		if (nl) {
			strbuf_reset(line);
			strbuf_add(line, start, nl - start);
			if (line->len && line->buf[line->len - 1] == '\r')
				strbuf_setlen(line, line->len - 1);
			ic->pos += nl - start + 1;
			return RESULT_OK;
		}
		if (avail > IMAP_MAX_LINE)
			return error("'%s': the server sent a line of over %zu bytes", ic->what,
				     IMAP_MAX_LINE);
		scanned = avail;
		if ((rc = recv_more(ic)) != RESULT_OK)
			return rc;
	}
}

/* A literal's size when line ends with "{N}", else -1. */
static long long literal_size(const struct strbuf *line)
{
	const char *open;
	char *end;
	long long n;

	if (!line->len || line->buf[line->len - 1] != '}' || !(open = strrchr(line->buf, '{')))
		return -1;
	errno = 0;
	n = strtoll(open + 1, &end, 10);
	if (errno || end != line->buf + line->len - 1 || end == open + 1 || n < 0)
		return -1;
	return n;
}

/* Reads a literal of n bytes, each piece to write (or nowhere when write is NULL). */
static enum maint_result read_literal(struct imap_conn *ic, unsigned long long n,
				      int (*write)(void *data, const char *buf, size_t len),
				      void *data)
{
	while (n) {
		size_t have = ic->in.len - ic->pos, take;
		enum maint_result rc;

		if (!have && (rc = recv_more(ic)) != RESULT_OK)
			return rc;
		have = ic->in.len - ic->pos;
		take = have < n ? have : (size_t)n;
		if (write && write(data, ic->in.buf + ic->pos, take) < 0)
			return RESULT_FATAL;
		ic->pos += take;
		n -= take;
	}
	return RESULT_OK;
}

/* What a command does with the untagged answers. */
struct answer {
	/* an untagged line without a literal */
	void (*line)(struct answer *a, const char *line);
	/* a line ending in a literal of n bytes, which it must read (or drain) */
	enum maint_result (*literal)(struct answer *a, struct imap_conn *ic, const char *line,
				     unsigned long long n);
};

/* Sends "<tag> <cmd>" and reads until its tagged answer. */
static enum maint_result command(struct imap_conn *ic, const char *cmd, struct answer *a)
{
	struct strbuf line = STRBUF_INIT, sb = STRBUF_INIT;
	char tag[16];
	size_t verb = strcspn(cmd, " ");
	enum maint_result rc;

	snprintf(tag, sizeof(tag), "M%u ", ++ic->tag);
	strbuf_addf(&sb, "%s%s\r\n", tag, cmd);
	rc = send_all(ic, sb.buf, sb.len);
	while (rc == RESULT_OK && (rc = read_line(ic, &line)) == RESULT_OK) {
		long long n = literal_size(&line);
		const char *rest;

		if (skip_prefix(line.buf, tag, &rest)) {
			if (!starts_with(rest, "OK"))
				rc = error("'%s': the server refused %.*s: %s", ic->what, (int)verb, cmd,
					   rest);
			break;
		}
		if (n >= 0)
			rc = a && a->literal ? a->literal(a, ic, line.buf, n) :
				read_literal(ic, n, NULL, NULL);
		else if (starts_with(line.buf, "* BYE") && strcmp(cmd, "LOGOUT"))
			rc = tempfail(ic, "the server closed the session: %s", line.buf + 2);
		else if (a && a->line && starts_with(line.buf, "* "))
			a->line(a, line.buf + 2);
	}
	strbuf_release(&line);
	strbuf_release(&sb);
	return rc;
}

/* ---- the folder ---- */

static void quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

struct search {
	struct answer a;
	unsigned long *uids;
	size_t nr, alloc;
};

static void search_line(struct answer *a, const char *line)
{
	struct search *s = (struct search *)a;
	const char *p;

	if (!skip_prefix(line, "SEARCH", &p))
		return;
	while (*p == ' ') {
		char *end;
		unsigned long uid = strtoul(p + 1, &end, 10);

		if (end == p + 1)
			break;
		ALLOC_GROW(s->uids, s->nr + 1, s->alloc);
		s->uids[s->nr++] = uid;
		p = end;
	}
}

static int uid_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

struct fetch {
	struct answer a;
	struct imap_conn *ic;
	const struct imap_opts *o;
	int fd;
	struct fetched_input *in;
	size_t at;		/* where the next message goes in fd */
	size_t done, total;
	struct progress *progress;
};

static int write_fd(void *data, const char *buf, size_t len)
{
	struct fetch *f = data;

	if (write_in_full(f->fd, buf, len) < 0)
		return error_errno("'%s': cannot write what was fetched", f->o->what);
	return 0;
}

static enum maint_result fetch_literal(struct answer *a, struct imap_conn *ic, const char *line,
				       unsigned long long n)
{
	struct fetch *f = (struct fetch *)a;
	enum maint_result rc;

	if (!strstr(line, " FETCH ") || !strstr(line, "BODY[] {"))
		return read_literal(ic, n, NULL, NULL);	/* nothing we asked for */
	if (f->o->max_message_size && n > f->o->max_message_size) {
		/* reported by the command reading it, in its place */
		if (n <= SIZE_MAX)
			fetched_input_skip(f->in, n, f->o->max_message_size);
		return read_literal(ic, n, NULL, NULL);
	}
	if ((rc = read_literal(ic, n, write_fd, f)) != RESULT_OK)
		return rc;
	fetched_input_add(f->in, f->at, n);
	f->at += n;
	progress_update(f->progress, ++f->done);
	return RESULT_OK;
}

static void date_imap(char *buf, size_t size, time_t t)
{
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%d-%s-%d", tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900);
}

static enum maint_result read_folder(struct imap_conn *ic, const struct imap_url *u,
				     const struct imap_opts *o, int out_fd,
				     struct fetched_input *in)
{
	struct strbuf cmd = STRBUF_INIT, name = STRBUF_INIT;
	struct search s = { { search_line, NULL }, NULL, 0, 0 };
	struct fetch f = { { NULL, fetch_literal }, ic, o, out_fd, in, 0, 0, 0, NULL };
	char date[32];
	enum maint_result rc;

	if (imap_utf7_encode(&name, u->folder) < 0)
		BUG("imap_url_parse() let a folder name that is not UTF-8 through");
	/* EXAMINE is read-only: no flag changes, \Recent included */
	strbuf_addstr(&cmd, u->mark_seen ? "SELECT " : "EXAMINE ");
	quote(&cmd, name.buf);
	if ((rc = command(ic, cmd.buf, NULL)) != RESULT_OK)
		goto out;
	strbuf_reset(&cmd);
	strbuf_addstr(&cmd, "UID SEARCH");
	if (u->unseen)
		strbuf_addstr(&cmd, " UNSEEN");
	if (u->since) {
		date_imap(date, sizeof(date), u->since);
		strbuf_addf(&cmd, " SINCE %s", date);
	}
	if (!u->unseen && !u->since)
		strbuf_addstr(&cmd, " ALL");
	if ((rc = command(ic, cmd.buf, &s.a)) != RESULT_OK)
		goto out;
	if (s.nr)
		qsort(s.uids, s.nr, sizeof(*s.uids), uid_cmp);
	f.total = s.nr;
	f.progress = progress_start("Fetching messages", s.nr, o->quiet);
	for (size_t i = 0; i < s.nr && rc == RESULT_OK; i += IMAP_BATCH) {
		struct strbuf set = STRBUF_INIT;

		for (size_t j = i; j < s.nr && j < i + IMAP_BATCH; j++)
			strbuf_addf(&set, "%s%lu", j > i ? "," : "", s.uids[j]);
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "UID FETCH %s (UID BODY.PEEK[])", set.buf);
		rc = command(ic, cmd.buf, &f.a);
		if (rc == RESULT_OK && u->mark_seen) {
			strbuf_reset(&cmd);
			strbuf_addf(&cmd, "UID STORE %s +FLAGS.SILENT (\\Seen)", set.buf);
			rc = command(ic, cmd.buf, NULL);
		}
		strbuf_release(&set);
	}
	if (rc == RESULT_OK)
		progress_stop(&f.progress);
	else
		progress_abandon(&f.progress);
	if (rc == RESULT_OK)
		command(ic, "LOGOUT", NULL);	/* what we came for is here: a failed goodbye is not ours */
out:
	free(s.uids);
	strbuf_release(&cmd);
	strbuf_release(&name);
	return rc;
}

/* libcurl connects, negotiates TLS and logs in; nothing more. */
static enum maint_result connect_login(struct imap_conn *ic, const struct imap_url *u,
				       const char *user, const char *password,
				       const struct imap_opts *o)
{
	struct strbuf url = STRBUF_INIT;
	CURLcode rc = CURLE_OK;
	enum maint_result ret = RESULT_FATAL;

	strbuf_addf(&url, "%s://%s", u->starttls ? "imap" : "imaps", u->host);
	if (u->port)
		strbuf_addf(&url, ":%u", u->port);
	strbuf_addch(&url, '/');
#define SET(opt, val) if (rc == CURLE_OK) rc = curl_lib.easy_setopt(ic->c, opt, val)
	SET(CURLOPT_ERRORBUFFER, ic->errbuf);
	SET(CURLOPT_URL, url.buf);
	SET(CURLOPT_PROTOCOLS_STR, "imap,imaps");
	SET(CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	SET(CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (o->cainfo)
		SET(CURLOPT_CAINFO, o->cainfo);
	SET(CURLOPT_CONNECTTIMEOUT, ic->timeout);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_USERNAME, user);
	SET(CURLOPT_PASSWORD, password);
	SET(CURLOPT_CONNECT_ONLY, 1L);
#undef SET
	if (rc != CURLE_OK) {
		error("'%s': libcurl refused an option: %s", ic->what, curl_lib.easy_strerror(rc));
		goto out;
	}
	rc = curl_lib.easy_perform(ic->c);
	if (o->login)
		*o->login = rc == CURLE_LOGIN_DENIED ? -1 : rc == CURLE_OK;
	if (rc == CURLE_LOGIN_DENIED) {
		error("'%s': the server refused the login of '%s'", ic->what, user);
	} else if (rc != CURLE_OK) {
		error("cannot read '%s': %s", ic->what, *ic->errbuf ? ic->errbuf : curl_lib.easy_strerror(rc));
		ret = curl_code_is_transient(rc) ? RESULT_TEMPFAIL : RESULT_FATAL;
	} else if ((rc = curl_lib.easy_getinfo(ic->c, CURLINFO_ACTIVESOCKET, &ic->sock)) != CURLE_OK ||
		   ic->sock == CURL_SOCKET_BAD) {
		error("'%s': libcurl gave no connection", ic->what);
	} else {
		ret = RESULT_OK;
	}
out:
	strbuf_release(&url);
	return ret;
}

enum maint_result imap_read_folder(const struct imap_url *u, const char *user, const char *password,
				   const struct imap_opts *o, int out_fd, struct fetched_input *in)
{
	struct imap_conn ic = { NULL };
	enum maint_result ret;

	ic.timeout = o->timeout > 0 ? o->timeout : IMAP_TIMEOUT_DEFAULT;
	ic.what = o->what;
	if (curl_lib_load() < 0)
		return RESULT_FATAL;
	if (curl_lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return error("cannot initialise libcurl");
	strbuf_init(&ic.in, 0);
	ic.c = curl_lib.easy_init();
	if (!ic.c) {
		ret = error("cannot initialise libcurl");
	} else {
		ret = connect_login(&ic, u, user, password, o);
		if (ret == RESULT_OK)
			ret = read_folder(&ic, u, o, out_fd, in);
		curl_lib.easy_cleanup(ic.c);
	}
	curl_lib.global_cleanup();
	strbuf_release(&ic.in);
	return ret;
}
