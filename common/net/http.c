/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HTTP(S) GET through libcurl (see http.h).
 */
#include "http.h"
#include "curl-lib.h"
#include "credential.h"
#include "progress.h"
#include "quote.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

struct transfer {
	const char *url;	/* as shown in messages: without its user-info (quote_url()) */
	http_write_fn *write;
	void *data;
	int stopped;		/* the transfer was stopped here, and reported: with this result */
	uint64_t body, max_body;
	const char *max_body_setting;
	size_t header;		/* bytes of the current response's headers */
	struct progress *progress;
	const char *title;
	int quiet;
	long max_time;		/* seconds for the whole transfer */
	const char *max_time_setting;
};

static size_t write_cb(char *buf, size_t size, size_t nmemb, void *userp)
{
	struct transfer *t = userp;
	size_t len = size * nmemb;
	int rc;

	if (t->max_body && len > t->max_body - t->body) {
		error("'%s': the server sent over %llu bytes (%s); refused", t->url,
		      (unsigned long long)t->max_body, t->max_body_setting);
		t->stopped = RESULT_FATAL;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	t->body += len;
	rc = t->write(t->data, buf, len);
	if (rc) {
		t->stopped = rc == RESULT_TEMPFAIL ? RESULT_TEMPFAIL : RESULT_FATAL;
		return 0;
	}
	return len;
}

/* Counts the headers of each response (a redirect's too), up to the bound. */
static size_t header_cb(char *buf, size_t size, size_t nmemb, void *userp)
{
	struct transfer *t = userp;
	size_t len = size * nmemb;

	if (len >= 5 && !memcmp(buf, "HTTP/", 5))
		t->header = 0;	/* a status line: a new response */
	if (len > HTTP_MAX_HEADER_BYTES - t->header) {
		error("cannot fetch '%s': the server's response headers are over %d bytes; refused",
		      t->url, HTTP_MAX_HEADER_BYTES);
		t->stopped = RESULT_FATAL;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	t->header += len;
	return len;
}

static int progress_cb(void *userp, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	struct transfer *t = userp;

	(void)ultotal;
	(void)ulnow;
	if (!t->progress && t->title && dlnow > 0)
		t->progress = progress_start_bytes(t->title, dltotal > 0 ? (uint64_t)dltotal : 0, t->quiet);
	progress_update(t->progress, dlnow > 0 ? (uint64_t)dlnow : 0);
	return 0;
}

int curl_code_is_transient(int rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int setup(CURL *c, const char *url, const struct http_opts *o, char *errbuf,
		 struct transfer *t)
{
	long timeout = o->timeout > 0 ? o->timeout : HTTP_TIMEOUT_DEFAULT;
	long max_time = o->max_time > 0 ? o->max_time : HTTP_MAX_TIME_DEFAULT;
	int plain = !strncmp(url, "http://", 7);

#define SET(opt, val) if (curl_lib.easy_setopt(c, opt, val) != CURLE_OK) return -1
	SET(CURLOPT_ERRORBUFFER, errbuf);
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, plain ? "http,https" : "https");
	SET(CURLOPT_FOLLOWLOCATION, 1L);
	SET(CURLOPT_MAXREDIRS, 5L);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	SET(CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (o->cainfo)
		SET(CURLOPT_CAINFO, o->cainfo);
	SET(CURLOPT_CONNECTTIMEOUT, timeout);
	SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
	SET(CURLOPT_LOW_SPEED_TIME, timeout);
	SET(CURLOPT_TIMEOUT, max_time);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_FAILONERROR, 1L);
	SET(CURLOPT_USERAGENT, "git-maint");
	SET(CURLOPT_WRITEFUNCTION, write_cb);
	SET(CURLOPT_WRITEDATA, t);
	SET(CURLOPT_HEADERFUNCTION, header_cb);
	SET(CURLOPT_HEADERDATA, t);
	SET(CURLOPT_XFERINFOFUNCTION, progress_cb);
	SET(CURLOPT_XFERINFODATA, t);
	SET(CURLOPT_NOPROGRESS, 0L);
#undef SET
	return 0;
}

/* The transfer's HTTP status, 0 when there was none. */
static long status_of(CURL *c)
{
	long status = 0;

	curl_lib.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	return status;
}

/*
 * A timeout that is the whole transfer's (CURLOPT_TIMEOUT), not the
 * connection's or a stall's: the transfer took all of max_time.
 */
static int ran_out_of_time(CURL *c, const struct transfer *t)
{
	curl_off_t us = 0;

	if (curl_lib.easy_getinfo(c, CURLINFO_TOTAL_TIME_T, &us) != CURLE_OK)
		return 0;
	return us / 1000 >= (curl_off_t)t->max_time * 1000 - 100;
}

/* The result of a finished transfer, reported unless RESULT_OK or RESULT_NO. */
static enum maint_result result_of(CURL *c, CURLcode rc, const char *errbuf,
				   const struct transfer *t, const struct strbuf *note)
{
	const char *url = t->url;
	long status;

	if (rc == CURLE_OK)
		return RESULT_OK;
	if (t->stopped)
		return t->stopped;
	if (rc == CURLE_HTTP_RETURNED_ERROR) {
		status = status_of(c);
		if (status == 404 || status == 410)
			return RESULT_NO;
		error("cannot fetch '%s': the server answered %ld%s%s", url, status, note->len ? "; " : "",
		      note->buf);
		return status >= 500 || status == 429 ? RESULT_TEMPFAIL : RESULT_FATAL;
	}
	if (rc == CURLE_OUT_OF_MEMORY && !t->body) {
		/* libcurl 7 refuses one header line over 100 KiB so, before header_cb() sees it */
		error("cannot fetch '%s': the server's response headers are over %d bytes; refused",
		      url, HTTP_MAX_HEADER_BYTES);
		return RESULT_FATAL;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT && ran_out_of_time(c, t)) {
		error("cannot fetch '%s': not done after %ld seconds (%s); given up", url, t->max_time,
		      t->max_time_setting ? t->max_time_setting : "the time for a whole transfer");
		return RESULT_TEMPFAIL;
	}
	error("cannot fetch '%s': %s", url, *errbuf ? errbuf : curl_lib.easy_strerror(rc));
	return curl_code_is_transient(rc) ? RESULT_TEMPFAIL : RESULT_FATAL;
}

/*
 * A server that asked for a login (401): the URL that asked (a redirect
 * may have led there), its password found as every password is
 * (credential.h), and the transfer again with it. The source hears how
 * it went; a second 401 is the answer, said with what became of the
 * password.
 */
static int with_login(CURL *c, CURLcode *rc, const struct http_opts *o, char *errbuf,
		      struct strbuf *note)
{
	struct credential cred = CREDENTIAL_INIT;
	struct strbuf shown = STRBUF_INIT;
	char *effective = NULL, *asked;
	int ret = -1;

	/* the handle's string, which setting the URL may free: a copy */
	if (curl_lib.easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &effective) != CURLE_OK || !effective)
		return error("cannot fetch: the server wants a login, and libcurl does not say where");
	asked = xstrdup(effective);
	quote_url(&shown, asked);
	if (credential_init_url(&cred, o->cfg, asked, NULL) < 0) {
		error("cannot fetch '%s': the server wants a login", shown.buf);
		goto out;
	}
	if (credential_fill(&cred) != RESULT_OK)
		goto out;
	if (curl_lib.easy_setopt(c, CURLOPT_URL, asked) != CURLE_OK ||
	    curl_lib.easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_ANY) != CURLE_OK ||
	    curl_lib.easy_setopt(c, CURLOPT_USERNAME, cred.username) != CURLE_OK ||
	    curl_lib.easy_setopt(c, CURLOPT_PASSWORD, cred.password) != CURLE_OK) {
		error("cannot fetch '%s': libcurl refused an option", shown.buf);
		goto out;
	}
	errbuf[0] = '\0';
	*rc = curl_lib.easy_perform(c);
	if (*rc == CURLE_OK)
		credential_approve(&cred);
	else if (status_of(c) == 401)
		credential_reject(&cred, note);
	ret = 0;
out:
	/* libcurl keeps its copy until the handle goes, which is next */
	credential_release(&cred);
	strbuf_release(&shown);
	free(asked);
	return ret;
}

enum maint_result http_get(const char *url, const struct http_opts *opts, http_write_fn *write,
			   void *data)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct strbuf shown = STRBUF_INIT;
	struct transfer t = { NULL, write, data, 0, 0, opts->max_body, opts->max_body_setting, 0,
			      NULL, opts->progress_title, opts->quiet };
	struct strbuf note = STRBUF_INIT;
	CURL *c;
	CURLcode rc;
	enum maint_result ret;

	if (curl_lib_load() < 0)
		return RESULT_FATAL;
	if (curl_lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return error("cannot initialise libcurl");
	c = curl_lib.easy_init();
	if (!c) {
		curl_lib.global_cleanup();
		return error("cannot initialise libcurl");
	}
	quote_url(&shown, url);
	t.url = shown.buf;
	t.max_time = opts->max_time > 0 ? opts->max_time : HTTP_MAX_TIME_DEFAULT;
	t.max_time_setting = opts->max_time_setting;
	if (setup(c, url, opts, errbuf, &t) < 0) {
		ret = error("cannot fetch '%s': libcurl refused an option", t.url);
	} else {
		rc = curl_lib.easy_perform(c);
		if (rc == CURLE_HTTP_RETURNED_ERROR && status_of(c) == 401 && opts->cfg &&
		    with_login(c, &rc, opts, errbuf, &note) < 0)
			ret = RESULT_FATAL;
		else
			ret = result_of(c, rc, errbuf, &t, &note);
		if (ret == RESULT_OK)
			progress_stop(&t.progress);
		else
			progress_abandon(&t.progress);
	}
	curl_lib.easy_cleanup(c);
	curl_lib.global_cleanup();
	strbuf_release(&note);
	strbuf_release(&shown);
	return ret;
}
