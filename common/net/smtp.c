/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SMTP through libcurl (see smtp.h).
 */
#include "smtp.h"
#include "curl-lib.h"
#include "usage.h"
#include "wrapper.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* Bounds on what the server may send: one reply line, all the lines of one reply. */
#define LINE_MAX_BYTES 4096
#define REPLY_MAX_BYTES (64 << 10)

struct smtp {
	CURL *pristine;		/* set up, never connected: each connection starts as its copy */
	CURL *curl;		/* the open connection, or NULL */
	curl_socket_t sock;
	char errbuf[CURL_ERROR_SIZE];
	int verbose;
	long timeout;
	int pipelining;		/* the last EHLO reply offered PIPELINING */
	/* the connection's opening, as libcurl's trace shows it */
	struct strbuf reply;	/* what the server said last */
	int code;
	char cmd[12];		/* to which command */
	int in_auth;		/* between "AUTH" and its final reply: client lines are secrets */
	int has_user;		/* AUTH is said when connecting */
	enum smtp_auth auth;	/* what the server said to it on the last connection */
	int in_ehlo;		/* between "EHLO" and its final reply */
	/* the mails, our own exchange on that connection */
	struct strbuf in;	/* received; what is before in_pos was read */
	size_t in_pos;
	struct strbuf out;	/* to send */
	/* a message whose data went and whose answer is unread (smtp_set_settle()) */
	smtp_settle_fn settle;
	void *settle_arg;
	int in_flight;
};

static int curl_users;

enum smtp_auth smtp_auth_result(const struct smtp *s)
{
	return s ? s->auth : SMTP_AUTH_UNTRIED;
}

int smtp_host_is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (!strcasecmp(host, "localhost"))
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;
}

/* A host name or address literal that cannot change the URL it is put in. */
static int host_ok(const char *host, int allow_colon)
{
	if (!*host || strlen(host) > 253)
		return 0;
	for (const char *p = host; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && !(allow_colon && *p == ':'))
			return 0;
	return 1;
}

/* ---- the protocol trace ---- */

static void trace_server_line(struct smtp *s, const char *line, size_t len)
{
	/* libcurl says QUIT after a failure: the reply that matters is the one before */
	if (len >= 3 && isdigit((unsigned char)line[0]) && isdigit((unsigned char)line[1]) &&
	    isdigit((unsigned char)line[2]) && strcmp(s->cmd, "QUIT")) {
		s->code = (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
		strbuf_reset(&s->reply);
		strbuf_add(&s->reply, line, len);
		if (s->code != 334)
			s->in_auth = 0;
		/* the keywords after STARTTLS replace those before it: each EHLO starts afresh */
		if (s->in_ehlo && len >= 14 && !strncasecmp(line + 4, "PIPELINING", 10) &&
		    (len == 14 || line[14] == ' '))
			s->pipelining = s->code == 250;
		if (len == 3 || line[3] == ' ')
			s->in_ehlo = 0;
	}
	if (s->verbose)
		say(stderr, "smtp: < %.*s", (int)len, line);
}

static void trace_client_line(struct smtp *s, const char *line, size_t len)
{
	size_t w = 0;

	while (w < len && w < sizeof(s->cmd) - 1 && line[w] != ' ')
		w++;
	if (len >= 5 && !strncasecmp(line, "AUTH ", 5)) {
		size_t m = 5;

		while (m < len && line[m] != ' ')
			m++;
		s->in_auth = 1;
		memcpy(s->cmd, "AUTH", 5);
		if (s->verbose)
			say(stderr, "smtp: > %.*s%s", (int)m, line, m < len ? " <redacted>" : "");
		return;
	}
	if (s->in_auth) {
		if (s->verbose)
			say(stderr, "smtp: > <redacted>");
		return;
	}
	memcpy(s->cmd, line, w);
	s->cmd[w] = '\0';
	/* each greeting starts afresh: what a server offered before STARTTLS is forgotten */
	if (!strcasecmp(s->cmd, "EHLO") || !strcasecmp(s->cmd, "HELO")) {
		s->in_ehlo = !strcasecmp(s->cmd, "EHLO");
		s->pipelining = 0;
	}
	if (s->verbose)
		say(stderr, "smtp: > %.*s", (int)len, line);
}

static int debug_cb(CURL *h, curl_infotype type, char *raw, size_t size, void *userp)
{
	struct smtp *s = userp;
	const char *data = raw, *end = raw + size;

	(void)h;
	if (type != CURLINFO_HEADER_IN && type != CURLINFO_HEADER_OUT && type != CURLINFO_TEXT)
		return 0;	/* the message itself and TLS records are not traced */
	while (data < end) {
		const char *nl = memchr(data, '\n', end - data);
		const char *eol = nl ? nl : end;
		size_t len = eol - data;

		if (len && data[len - 1] == '\r')
			len--;
		if (type == CURLINFO_HEADER_IN)
			trace_server_line(s, data, len);
		else if (type == CURLINFO_HEADER_OUT)
			trace_client_line(s, data, len);
		else if (s->verbose && len)
			say(stderr, "smtp: * %.*s", (int)len, data);
		data = nl ? nl + 1 : end;
	}
	return 0;
}

/* ---- setup ---- */

static int set_ca(CURL *c, const char *cainfo)
{
	struct stat st;

	if (!cainfo)
		return 0;
	if (stat(cainfo, &st) < 0)
		return error_errno("cannot read the CA certificates '%s'", cainfo);
	return curl_lib.easy_setopt(c, S_ISDIR(st.st_mode) ? CURLOPT_CAPATH : CURLOPT_CAINFO,
				cainfo) == CURLE_OK ? 0 : -1;
}

static int setup(struct smtp *s, const struct smtp_opts *o, const char *url)
{
	CURL *c = s->pristine;
	long timeout = s->timeout;
	int bad = 0;

#define SET(opt, val) (bad |= curl_lib.easy_setopt(c, opt, val) != CURLE_OK)
	SET(CURLOPT_ERRORBUFFER, s->errbuf);
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	SET(CURLOPT_USE_SSL, o->security == SMTP_PLAIN ? (long)CURLUSESSL_NONE : (long)CURLUSESSL_ALL);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_CONNECTTIMEOUT, timeout);
	SET(CURLOPT_SERVER_RESPONSE_TIMEOUT, timeout);
	SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
	SET(CURLOPT_LOW_SPEED_TIME, timeout);
	/* libcurl connects and says EHLO, STARTTLS, EHLO, AUTH; the mails are ours (smtp_send()) */
	SET(CURLOPT_CONNECT_ONLY, 1L);
	/* verbose always: the debug callback is where the server's replies to libcurl are read */
	SET(CURLOPT_VERBOSE, 1L);
	SET(CURLOPT_DEBUGFUNCTION, debug_cb);
	SET(CURLOPT_DEBUGDATA, s);
	if (o->user) {
		SET(CURLOPT_USERNAME, o->user);
		SET(CURLOPT_PASSWORD, o->password ? o->password : "");
	}
#undef SET
	if (bad)
		return error("cannot set up libcurl for '%s'", url);
	return set_ca(c, o->cainfo);
}

struct smtp *smtp_new(const struct smtp_opts *o)
{
	struct strbuf url = STRBUF_INIT;
	struct smtp *s;
	int v6 = o->host && strchr(o->host, ':') != NULL;

	if (!o->host || !host_ok(o->host, 1)) {
		error("bad SMTP server name '%s'", o->host ? o->host : "");
		return NULL;
	}
	if (o->domain && !host_ok(o->domain, 0)) {
		error("bad SMTP domain '%s'", o->domain);
		return NULL;
	}
	if (o->security == SMTP_PLAIN && !smtp_host_is_loopback(o->host)) {
		error("refusing SMTP without TLS to '%s': only a loopback server may be used without encryption",
		      o->host);
		return NULL;
	}
	if (curl_lib_load() < 0)
		return NULL;
	if (!curl_users++ && curl_lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		curl_users--;
		error("cannot initialise libcurl");
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	strbuf_init(&s->reply, 0);
	strbuf_init(&s->in, 0);
	strbuf_init(&s->out, 0);
	s->sock = CURL_SOCKET_BAD;
	s->has_user = o->user != NULL;
	s->verbose = o->verbose;
	s->timeout = o->timeout > 0 ? o->timeout : 60;
	strbuf_addf(&url, "%s://%s%s%s:%u/%s", o->security == SMTP_SSL ? "smtps" : "smtp",
		    v6 ? "[" : "", o->host, v6 ? "]" : "", o->port, o->domain ? o->domain : "");
	s->pristine = curl_lib.easy_init();
	if (!s->pristine || setup(s, o, url.buf) < 0) {
		if (!s->pristine)
			error("cannot initialise libcurl");
		strbuf_release(&url);
		smtp_free(s);
		return NULL;
	}
	strbuf_release(&url);
	return s;
}

/*
 * Hangs up: shut down first, so that nothing more goes out (a message
 * without its final "." is never delivered) and nothing libcurl would
 * say on cleanup can wait for a reply.
 */
static void conn_close(struct smtp *s)
{
	if (!s->curl)
		return;
	if (s->sock != CURL_SOCKET_BAD)
		shutdown(s->sock, SHUT_RDWR);
	curl_lib.easy_cleanup(s->curl);
	s->curl = NULL;
	s->sock = CURL_SOCKET_BAD;
	strbuf_reset(&s->in);
	s->in_pos = 0;
}

/* ---- sending ---- */

static enum smtp_status classify(struct smtp *s, CURLcode rc, struct strbuf *reply)
{
	int code = s->code;

	switch (rc) {
	case CURLE_OK:
		return SMTP_SENT;
	case CURLE_USE_SSL_FAILED:
		strbuf_addstr(reply, "the server does not offer STARTTLS");
		return SMTP_FATAL;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_LOGIN_DENIED:
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_NOT_BUILT_IN:
	case CURLE_OUT_OF_MEMORY:
	case CURLE_READ_ERROR:
		strbuf_addstr(reply, *s->errbuf ? s->errbuf : curl_lib.easy_strerror(rc));
		if (code >= 400 && rc == CURLE_LOGIN_DENIED)
			strbuf_addf(reply, " (%s)", s->reply.buf);
		return SMTP_FATAL;
	case CURLE_WEIRD_SERVER_REPLY:
		/*
		 * More than the 220 before the TLS handshake (libcurl refuses
		 * it): a reply injected on the way, which must not be taken as
		 * one said over TLS (RFC 3207, CVE-2021-22947). Not a server
		 * to retry with.
		 */
		if (!strcmp(s->cmd, "STARTTLS")) {
			strbuf_addstr(reply, "the server sent more than its answer to STARTTLS "
				      "before the TLS handshake (an injected reply?)");
			return SMTP_FATAL;
		}
		break;
	default:
		break;
	}
	if (code >= 400 && code != 421) {
		strbuf_addbuf(reply, &s->reply);
		/* a refused sender or AUTH is the setup's problem, not this message's */
		if (code == 530 || code == 534 || code == 535 || code == 538 ||
		    !strcmp(s->cmd, "MAIL") || !strcmp(s->cmd, "AUTH") || !strcmp(s->cmd, "EHLO"))
			return code >= 500 ? SMTP_FATAL : SMTP_BROKEN;
		return code >= 500 ? SMTP_REFUSED : SMTP_DEFERRED;
	}
	/* 421, a reset, a timeout, a server gone: a later run can retry */
	if (code == 421)
		strbuf_addbuf(reply, &s->reply);
	else
		strbuf_addstr(reply, *s->errbuf ? s->errbuf : curl_lib.easy_strerror(rc));
	return SMTP_BROKEN;
}

/* libcurl connects and logs in. SMTP_SENT here means: connected. */
static enum smtp_status conn_open(struct smtp *s, struct strbuf *reply)
{
	curl_socket_t sock = CURL_SOCKET_BAD;
	enum smtp_status st;
	CURLcode rc;

	s->curl = curl_lib.easy_duphandle(s->pristine);
	if (!s->curl) {
		strbuf_addstr(reply, "cannot set up libcurl");
		return SMTP_FATAL;
	}
	s->errbuf[0] = '\0';
	s->code = 0;
	s->cmd[0] = '\0';
	s->in_auth = s->in_ehlo = s->pipelining = 0;
	strbuf_reset(&s->reply);
	rc = curl_lib.easy_perform(s->curl);
	if (rc == CURLE_OK &&
	    (curl_lib.easy_getinfo(s->curl, CURLINFO_ACTIVESOCKET, &sock) != CURLE_OK ||
	     sock == CURL_SOCKET_BAD)) {
		strbuf_addstr(reply, "libcurl gave no connection");
		conn_close(s);
		return SMTP_BROKEN;
	}
	st = classify(s, rc, reply);
	if (st != SMTP_SENT) {
		/* 535: the credentials are wrong (RFC 4954), not the server's mood */
		if (s->code == 535)
			s->auth = SMTP_AUTH_REFUSED;
		conn_close(s);
		return st;
	}
	if (s->has_user)
		s->auth = SMTP_AUTH_ACCEPTED;
	s->sock = sock;
	return SMTP_SENT;
}

/* Waits until the socket can be read (or written), for the timeout at most. */
static int conn_wait(struct smtp *s, short events, struct strbuf *why)
{
	struct pollfd pfd = { s->sock, events, 0 };
	int rc;

	do
		rc = poll(&pfd, 1, s->timeout * 1000);
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		strbuf_addf(why, "cannot wait for the server: %s", strerror(errno));
		return -1;
	}
	if (!rc) {
		strbuf_addf(why, "timed out: the server %s nothing for %ld seconds",
			    events == POLLIN ? "sent" : "took", s->timeout);
		return -1;
	}
	return 0;
}

static int conn_send(struct smtp *s, const char *buf, size_t len, struct strbuf *why)
{
	while (len) {
		size_t n = 0;
		CURLcode rc = curl_lib.easy_send(s->curl, buf, len, &n);

		if (rc == CURLE_AGAIN) {
			if (conn_wait(s, POLLOUT, why) < 0)
				return -1;
			continue;
		}
		if (rc != CURLE_OK) {
			strbuf_addf(why, "the connection broke: %s", curl_lib.easy_strerror(rc));
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* More of what the server sent, at the end of s->in. */
static int conn_recv(struct smtp *s, struct strbuf *why)
{
	char buf[16384];

	if (s->in_pos == s->in.len) {
		strbuf_reset(&s->in);
		s->in_pos = 0;
	} else if (s->in_pos > REPLY_MAX_BYTES) {
		strbuf_remove(&s->in, 0, s->in_pos);
		s->in_pos = 0;
	}
	for (;;) {
		size_t n = 0;
		CURLcode rc = curl_lib.easy_recv(s->curl, buf, sizeof(buf), &n);

		if (rc == CURLE_AGAIN) {
			if (conn_wait(s, POLLIN, why) < 0)
				return -1;
			continue;
		}
		if (rc != CURLE_OK) {
			strbuf_addf(why, "the connection broke: %s", curl_lib.easy_strerror(rc));
			return -1;
		}
		if (!n) {
			strbuf_addstr(why, "the server closed the connection");
			return -1;
		}
		strbuf_add(&s->in, buf, n);
		return 0;
	}
}

/* The server's next line, without its CRLF. */
static int read_line(struct smtp *s, struct strbuf *line, struct strbuf *why)
{
	size_t scanned = 0;	/* bytes after in_pos known to hold no LF */

	for (;;) {
		const char *start = s->in.buf + s->in_pos;
		size_t avail = s->in.len - s->in_pos;
		const char *nl = memchr(start + scanned, '\n', avail - scanned);

		if (nl) {
			size_t len = nl - start;

			strbuf_reset(line);
			strbuf_add(line, start, len && start[len - 1] == '\r' ? len - 1 : len);
			s->in_pos += len + 1;
			return 0;
		}
		if (avail > LINE_MAX_BYTES) {
			strbuf_addstr(why, "the server sent a line too long");
			return -1;
		}
		scanned = avail;
		if (conn_recv(s, why) < 0)
			return -1;
		if (!avail)
			scanned = 0;
	}
}

/*
 * The server's next reply: its code, with its last line in line; -1 when
 * there is none (why says what happened).
 */
static int read_reply(struct smtp *s, struct strbuf *line, struct strbuf *why)
{
	size_t total = 0;

	for (;;) {
		const char *p;

		if (read_line(s, line, why) < 0)
			return -1;
		p = line->buf;
		if (s->verbose)
			say(stderr, "smtp: < %s", p);
		if (line->len < 3 || !isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) ||
		    !isdigit((unsigned char)p[2]) || (line->len > 3 && p[3] != ' ' && p[3] != '-')) {
			strbuf_addstr(why, "the server sent something that is not an SMTP reply");
			return -1;
		}
		if (line->len == 3 || p[3] == ' ')
			return (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
		total += line->len;
		if (total > REPLY_MAX_BYTES) {
			strbuf_addstr(why, "the server sent a reply too long");
			return -1;
		}
	}
}

/* The message as DATA wants it: CRLF line ends, dot-stuffed, ".\r\n" at the end. */
static void add_data(struct strbuf *out, const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;

	strbuf_grow(out, len + len / 32 + 8);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		if (*p == '.')
			strbuf_addch(out, '.');
		strbuf_add(out, p, eol - p);
		strbuf_addstr(out, "\r\n");
		p = nl ? nl + 1 : end;
	}
	strbuf_addstr(out, ".\r\n");
}

/* What a failure reply (code >= 400) to cmd means for the message. */
static enum smtp_status refusal(const char *cmd, int code)
{
	if (code == 421)
		return SMTP_BROKEN;
	/* a refused sender or AUTH is the setup's problem, not this message's */
	if (code == 530 || code == 534 || code == 535 || code == 538 || !strcmp(cmd, "MAIL"))
		return code >= 500 ? SMTP_FATAL : SMTP_BROKEN;
	return code >= 500 ? SMTP_REFUSED : SMTP_DEFERRED;
}

/* The connection failed or the server said what it should not: the message waits. */
static enum smtp_status broken(struct smtp *s, struct strbuf *reply, const struct strbuf *why)
{
	if (!reply->len)
		strbuf_addbuf(reply, why);
	conn_close(s);
	return SMTP_BROKEN;
}

/* What the server's answer (code, in reply) to a message's data means; an unusable connection is closed. */
static enum smtp_status data_answer(struct smtp *s, int code, struct strbuf *reply)
{
	enum smtp_status st;

	if (code / 100 == 2)
		return SMTP_SENT;
	if (code < 400) {
		strbuf_addstr(reply, " (the server's answer to the message)");
		conn_close(s);
		return SMTP_BROKEN;
	}
	st = refusal("DATA", code);
	if (st == SMTP_BROKEN)
		conn_close(s);
	return st;
}

/* Reads the answer to the message whose data went last. */
static enum smtp_status read_data_answer(struct smtp *s, struct strbuf *reply)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	enum smtp_status st;
	int code = read_reply(s, &line, &why);

	if (code < 0) {
		st = broken(s, reply, &why);
	} else {
		strbuf_addbuf(reply, &line);
		st = data_answer(s, code, reply);
	}
	strbuf_release(&line);
	strbuf_release(&why);
	return st;
}

void smtp_set_settle(struct smtp *s, smtp_settle_fn fn, void *arg)
{
	s->settle = fn;
	s->settle_arg = arg;
}

int smtp_settle(struct smtp *s)
{
	struct strbuf reply = STRBUF_INIT;
	enum smtp_status st;
	int ret;

	if (!s || !s->in_flight)
		return 0;
	s->in_flight = 0;
	if (s->curl) {
		st = read_data_answer(s, &reply);
	} else {
		strbuf_addstr(&reply, "the connection was closed before the server answered");
		st = SMTP_BROKEN;
	}
	ret = s->settle(s->settle_arg, st, reply.buf);
	strbuf_release(&reply);
	return ret;
}

/*
 * The message before, in flight, is settled once this one's first
 * commands went (so the server answers both in one round trip), and
 * before any of this one's data goes: a crash can leave at most one
 * message accepted and not recorded. SMTP_SENT: settled, go on;
 * SMTP_FATAL: the caller could not record it (we hang up); SMTP_BROKEN:
 * it took the connection with it.
 */
static enum smtp_status settle_before(struct smtp *s, struct strbuf *reply)
{
	if (smtp_settle(s) < 0) {
		strbuf_addstr(reply, "not sent: what became of the message before it could not be recorded");
		conn_close(s);
		return SMTP_FATAL;
	}
	if (!s->curl) {
		strbuf_addstr(reply, "the connection was lost with the message before it");
		return SMTP_BROKEN;
	}
	return SMTP_SENT;
}

/* Sends the commands of t (MAIL, RCPT..., DATA) from the i-th on: all with PIPELINING, else one. */
static int send_cmds(struct smtp *s, const struct strvec *cmds, size_t *sent, struct strbuf *why)
{
	size_t upto = s->pipelining ? cmds->nr : *sent + 1;

	strbuf_reset(&s->out);
	for (; *sent < upto; (*sent)++) {
		if (s->verbose)
			say(stderr, "smtp: > %s", cmds->v[*sent]);
		strbuf_addf(&s->out, "%s\r\n", cmds->v[*sent]);
	}
	return conn_send(s, s->out.buf, s->out.len, why);
}

void smtp_rcpts_init(struct smtp_rcpts *r, const struct strvec *addr, size_t required)
{
	r->addr = addr;
	r->required = required < addr->nr ? required : addr->nr;
	r->st = xcalloc(addr->nr ? addr->nr : 1, sizeof(*r->st));
	strvec_init(&r->reply);
	for (size_t i = 0; i < addr->nr; i++)
		strvec_push(&r->reply, "");
}

size_t smtp_rcpts_count(const struct smtp_rcpts *r, enum smtp_rcpt st)
{
	size_t n = 0;

	for (size_t i = 0; i < r->addr->nr; i++)
		n += r->st[i] == st;
	return n;
}

void smtp_rcpts_release(struct smtp_rcpts *r)
{
	free(r->st);
	r->st = NULL;
	strvec_clear(&r->reply);
}

/* What a reply (code, its last line) to RCPT TO means for that recipient. */
static enum smtp_rcpt rcpt_answer(int code, const char *line)
{
	if (code / 100 == 2)
		return SMTP_RCPT_ACCEPTED;
	/* RFC 5321 4.5.3.1.10: 452, and 552 as RFC 821 wrote it (5.5.3: too many recipients) */
	if (code == 452 || (code == 552 && !strncmp(line + 3, " 5.5.3", 6)))
		return SMTP_RCPT_LATER;
	return code >= 500 ? SMTP_RCPT_REFUSED : SMTP_RCPT_DEFERRED;
}

/* The exchange of one envelope (envelope()): what was asked, what was answered. */
struct exchange {
	const struct strvec *cmds;	/* MAIL, RCPT..., DATA */
	struct smtp_rcpts *r;
	enum smtp_status st;		/* SMTP_SENT while the message may go */
	int mail_ok, data_code;
};

/* The message cannot go: the first reason found (st, reply) wins. */
static void stop(struct exchange *x, enum smtp_status st, const struct strbuf *line,
		 struct strbuf *reply)
{
	if (x->st != SMTP_SENT)
		return;
	x->st = st;
	strbuf_addbuf(reply, line);
}

/*
 * The reply (code, line) to the i-th command. -1 when it is no answer to
 * that command (a 3xx to RCPT) or says the connection ends (421): the
 * connection is unusable.
 */
static int take_reply(struct exchange *x, size_t i, int code, const struct strbuf *line,
		      struct strbuf *reply, struct strbuf *why)
{
	const char *what = !i ? "MAIL" : i + 1 < x->cmds->nr ? "RCPT" : "DATA";
	int want = i + 1 < x->cmds->nr ? 2 : 3;

	if (code == 421 || (code / 100 != want && code < 400)) {
		if (code != 421)
			strbuf_addf(why, "%s (the server's answer to %s)", line->buf, what);
		else
			strbuf_addbuf(why, line);
		strbuf_reset(reply);
		return -1;
	}
	if (!i) {
		x->mail_ok = code / 100 == 2;
		if (!x->mail_ok)
			stop(x, refusal("MAIL", code), line, reply);
	} else if (i + 1 < x->cmds->nr) {
		size_t k = i - 1;
		struct smtp_rcpts *r = x->r;

		r->st[k] = rcpt_answer(code, line->buf);
		if (r->st[k] != SMTP_RCPT_ACCEPTED) {
			free((char *)r->reply.v[k]);
			r->reply.v[k] = xstrdup(line->buf);
		}
		/* the author's own refusal is what fails the mail; a 452 for them waits */
		if (k < r->required && r->st[k] != SMTP_RCPT_ACCEPTED)
			stop(x, r->st[k] == SMTP_RCPT_REFUSED ? SMTP_REFUSED : SMTP_DEFERRED, line, reply);
	} else {
		x->data_code = code;
		if (code != 354)
			stop(x, refusal("DATA", code), line, reply);
	}
	return 0;
}

/* Before DATA: no recipient accepted, no message (the first one's answer says why). */
static void check_someone(struct exchange *x, struct strbuf *reply)
{
	struct smtp_rcpts *r = x->r;
	struct strbuf line = STRBUF_INIT;
	enum smtp_status st = SMTP_REFUSED;

	if (x->st != SMTP_SENT || smtp_rcpts_count(r, SMTP_RCPT_ACCEPTED))
		return;
	for (size_t k = 0; k < r->addr->nr; k++)
		if (r->st[k] == SMTP_RCPT_DEFERRED || r->st[k] == SMTP_RCPT_LATER)
			st = SMTP_DEFERRED;
	strbuf_addstr(&line, r->addr->nr ? r->reply.v[0] : "no recipients");
	stop(x, st, &line, reply);
	strbuf_release(&line);
}

/*
 * MAIL, RCPT..., DATA (cmds): SMTP_SENT once DATA has its 354 and the
 * message may go (smtp.h: the required recipients and at least one
 * accepted). With PIPELINING (RFC 2920) they go in one write and every
 * reply is read; else one at a time, up to what stops the message. A
 * message that does not go leaves the connection ready for the next one
 * (RSET); but a server that took DATA waits for the message, which must
 * not go: only hanging up ends that.
 */
static enum smtp_status envelope(struct smtp *s, const struct strvec *cmds, struct smtp_rcpts *r,
				 struct strbuf *reply)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	struct exchange x = { cmds, r, SMTP_SENT, 0, 0 };
	size_t i, sent = 0;
	int code;
	enum smtp_status st;

	for (i = 0; i < cmds->nr; i++) {
		if (sent == i) {
			int rc;

			if (i + 1 == cmds->nr)
				check_someone(&x, reply);
			if (x.st != SMTP_SENT)
				break;	/* one at a time: nothing more is asked */
			rc = send_cmds(s, cmds, &sent, &why);
			if (s->in_flight && (st = settle_before(s, reply)) != SMTP_SENT)
				goto out;
			if (rc < 0)
				goto broken;
		}
		if ((code = read_reply(s, &line, &why)) < 0 ||
		    take_reply(&x, i, code, &line, reply, &why) < 0)
			goto broken;
	}
	st = x.st;
	if (st == SMTP_BROKEN || x.data_code == 354) {
		if (st != SMTP_SENT)
			conn_close(s);
	} else if (st != SMTP_SENT && x.mail_ok) {
		strbuf_reset(&why);
		if (s->verbose)
			say(stderr, "smtp: > RSET");
		if (conn_send(s, "RSET\r\n", 6, &why) < 0 || read_reply(s, &line, &why) != 250)
			conn_close(s);
	}
	goto out;
broken:
	st = broken(s, reply, &why);
out:
	strbuf_release(&line);
	strbuf_release(&why);
	return st;
}

enum smtp_status smtp_send(struct smtp *s, const char *from, struct smtp_rcpts *rcpt,
			   const char *msg, size_t len, struct strbuf *reply)
{
	const struct strvec *to = rcpt->addr;
	struct strvec cmds = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	enum smtp_status st;

	strbuf_reset(reply);
	for (size_t i = 0; i < to->nr; i++)
		rcpt->st[i] = SMTP_RCPT_UNTRIED;
	if (s->in_flight && !s->curl && smtp_settle(s) < 0) {
		strbuf_addstr(reply, "not sent: what became of the message before it could not be recorded");
		return SMTP_FATAL;
	}
	for (size_t i = 0; i <= to->nr; i++) {
		const char *a = i < to->nr ? to->v[i] : from;

		if (strpbrk(a, "\r\n<>")) {
			strbuf_addf(reply, "the envelope address '%s' could inject a command", a);
			return SMTP_REFUSED;
		}
	}
	if (!s->curl && (st = conn_open(s, reply)) != SMTP_SENT)
		return st;
	strvec_pushf(&cmds, "MAIL FROM:<%s>", from);
	for (size_t i = 0; i < to->nr; i++)
		strvec_pushf(&cmds, "RCPT TO:<%s>", to->v[i]);
	strvec_push(&cmds, "DATA");
	st = envelope(s, &cmds, rcpt, reply);
	if (st != SMTP_SENT)
		goto out;
	strbuf_reset(&s->out);
	add_data(&s->out, msg, len);
	if (conn_send(s, s->out.buf, s->out.len, &why) < 0) {
		st = broken(s, reply, &why);
		goto out;
	}
	/* its answer is read with the next message's first commands, or by smtp_settle() */
	if (s->settle && s->pipelining) {
		s->in_flight = 1;
		st = SMTP_IN_FLIGHT;
		goto out;
	}
	st = read_data_answer(s, reply);
out:
	strvec_clear(&cmds);
	strbuf_release(&why);
	return st;
}

/* QUIT on a connection between messages (libcurl does not say it on one that is CONNECT_ONLY). */
static void conn_quit(struct smtp *s)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;

	if (!s->curl)
		return;
	if (s->verbose)
		say(stderr, "smtp: > QUIT");
	if (conn_send(s, "QUIT\r\n", 6, &why) == 0)
		read_reply(s, &line, &why);
	conn_close(s);
	strbuf_release(&line);
	strbuf_release(&why);
}

void smtp_free(struct smtp *s)
{
	if (!s)
		return;
	smtp_settle(s);
	conn_quit(s);
	if (s->pristine)
		curl_lib.easy_cleanup(s->pristine);
	strbuf_release(&s->reply);
	strbuf_release(&s->in);
	strbuf_release(&s->out);
	free(s);
	if (!--curl_users)
		curl_lib.global_cleanup();
}
