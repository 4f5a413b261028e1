/*
 * SMTP through libcurl (see smtp.h).
 */
#include "smtp.h"
#include "usage.h"
#include "wrapper.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct smtp {
	CURL *curl;
	char errbuf[CURL_ERROR_SIZE];
	int verbose;
	/* the message being sent, with CRLF line ends */
	struct strbuf upload;
	size_t upload_pos;
	/* what the server said last, and to which command */
	struct strbuf reply;
	int code;
	char cmd[12];
	int in_auth;		/* between "AUTH" and its final reply: client lines are secrets */
};

static int curl_users;

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

static size_t read_cb(char *buf, size_t size, size_t nmemb, void *userp)
{
	struct smtp *s = userp;
	size_t n = s->upload.len - s->upload_pos;

	if (n > size * nmemb)
		n = size * nmemb;
	memcpy(buf, s->upload.buf + s->upload_pos, n);
	s->upload_pos += n;
	return n;
}

/* ---- setup ---- */

static int set_ca(struct smtp *s, const char *cainfo)
{
	struct stat st;

	if (!cainfo)
		return 0;
	if (stat(cainfo, &st) < 0)
		return error_errno("cannot read the CA certificates '%s'", cainfo);
	return curl_easy_setopt(s->curl, S_ISDIR(st.st_mode) ? CURLOPT_CAPATH : CURLOPT_CAINFO,
				cainfo) == CURLE_OK ? 0 : -1;
}

static int setup(struct smtp *s, const struct smtp_opts *o, const char *url)
{
	CURL *c = s->curl;
	long timeout = o->timeout > 0 ? o->timeout : 60;
	int bad = 0;

#define SET(opt, val) (bad |= curl_easy_setopt(c, opt, val) != CURLE_OK)
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
	SET(CURLOPT_UPLOAD, 1L);
	SET(CURLOPT_READFUNCTION, read_cb);
	SET(CURLOPT_READDATA, s);
	/* verbose always: the debug callback is where the server's replies are read */
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
	return set_ca(s, o->cainfo);
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
	if (!curl_users++ && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		curl_users--;
		error("cannot initialise libcurl");
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	strbuf_init(&s->upload, 0);
	strbuf_init(&s->reply, 0);
	s->verbose = o->verbose;
	strbuf_addf(&url, "%s://%s%s%s:%u/%s", o->security == SMTP_SSL ? "smtps" : "smtp",
		    v6 ? "[" : "", o->host, v6 ? "]" : "", o->port, o->domain ? o->domain : "");
	s->curl = curl_easy_init();
	if (!s->curl || setup(s, o, url.buf) < 0) {
		if (!s->curl)
			error("cannot initialise libcurl");
		strbuf_release(&url);
		smtp_free(s);
		return NULL;
	}
	strbuf_release(&url);
	return s;
}

void smtp_free(struct smtp *s)
{
	if (!s)
		return;
	if (s->curl)
		curl_easy_cleanup(s->curl);	/* says QUIT on a connection still open */
	strbuf_release(&s->upload);
	strbuf_release(&s->reply);
	free(s);
	if (!--curl_users)
		curl_global_cleanup();
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
		strbuf_addstr(reply, *s->errbuf ? s->errbuf : curl_easy_strerror(rc));
		if (code >= 400 && rc == CURLE_LOGIN_DENIED)
			strbuf_addf(reply, " (%s)", s->reply.buf);
		return SMTP_FATAL;
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
		strbuf_addstr(reply, *s->errbuf ? s->errbuf : curl_easy_strerror(rc));
	return SMTP_BROKEN;
}

enum smtp_status smtp_send(struct smtp *s, const char *from, const struct strvec *rcpt,
			   const char *msg, size_t len, struct strbuf *reply)
{
	struct curl_slist *list = NULL, *l;
	struct strbuf sb = STRBUF_INIT;
	enum smtp_status st;
	CURLcode rc;
	int bad = 0;

	strbuf_reset(reply);
	strbuf_reset(&s->upload);
	strbuf_grow(&s->upload, len + len / 40);
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\n')
			strbuf_addch(&s->upload, '\r');
		strbuf_addch(&s->upload, msg[i]);
	}
	s->upload_pos = 0;
	s->errbuf[0] = '\0';
	s->code = 0;
	s->cmd[0] = '\0';
	s->in_auth = 0;
	strbuf_reset(&s->reply);
	for (size_t i = 0; i < rcpt->nr; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "<%s>", rcpt->v[i]);
		l = curl_slist_append(list, sb.buf);
		if (!l) {
			bad = 1;
			break;
		}
		list = l;
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "<%s>", from);
	bad |= curl_easy_setopt(s->curl, CURLOPT_MAIL_FROM, sb.buf) != CURLE_OK;
	bad |= curl_easy_setopt(s->curl, CURLOPT_MAIL_RCPT, list) != CURLE_OK;
	if (bad) {
		strbuf_addstr(reply, "cannot set up libcurl for the message");
		st = SMTP_FATAL;
	} else {
		rc = curl_easy_perform(s->curl);
		st = classify(s, rc, reply);
		if (st == SMTP_SENT)
			strbuf_addbuf(reply, &s->reply);
	}
	curl_easy_setopt(s->curl, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(list);
	strbuf_release(&sb);
	return st;
}
