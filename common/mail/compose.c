/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compose: one RFC 5322 message (see compose.h).
 */
#include "compose.h"
#include "ascii.h"
#include "mail.h"
#include "sha1.h"
#include "utf8.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FOLD_AT 78		/* RFC 5322's "should" for a line */
#define BODY_LINE_MAX 998	/* its "must" */

/* ---- address lists ---- */

int compose_addrs_has(const struct compose_addrs *l, const char *email)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcasecmp(l->v[i].email, email))
			return 1;
	return 0;
}

void compose_addrs_append(struct compose_addrs *l, const char *name, const char *email)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].name = xstrdup(name ? name : "");
	l->v[l->nr].email = xstrdup(email);
	l->nr++;
}

int compose_addrs_add(struct compose_addrs *l, const char *name, const char *email)
{
	if (compose_addrs_has(l, email))
		return 0;
	compose_addrs_append(l, name, email);
	return 1;
}

void compose_addrs_remove(struct compose_addrs *l, const char *email)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcasecmp(l->v[i].email, email)) {
			free(l->v[i].name);
			free(l->v[i].email);
			memmove(l->v + i, l->v + i + 1, (l->nr - i - 1) * sizeof(*l->v));
			l->nr--;
			return;
		}
}

void compose_addrs_release(struct compose_addrs *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].email);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void compose_greeting_name(struct strbuf *out, const char *name, const char *email)
{
	if (*name)
		strbuf_addstr(out, name);
	else
		strbuf_add(out, email, strcspn(email, "@"));
}

void compose_mail_release(struct compose_mail *m)
{
	compose_addrs_release(&m->to);
	compose_addrs_release(&m->cc);
	strvec_clear(&m->references);
}

/* ---- checks ---- */

int compose_check_text(const char *s, size_t len, const char **why)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!utf8_valid(s, len)) {
		*why = "is not valid UTF-8";
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		if (u[i] == '\n' || u[i] == '\r') {
			*why = "holds a line break";
			return -1;
		}
		if (!u[i]) {
			*why = "holds a NUL byte";
			return -1;
		}
		if ((u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7f ||
		    (u[i] == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f)) {
			*why = "holds a control character";
			return -1;
		}
		/* U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR: line breaks to some readers */
		if (u[i] == 0xe2 && i + 2 < len && u[i + 1] == 0x80 && (u[i + 2] == 0xa8 || u[i + 2] == 0xa9)) {
			*why = "holds a Unicode line separator";
			return -1;
		}
	}
	return 0;
}

static int is_atext(unsigned char c)
{
	return ascii_isalnum(c) || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

static int domain_ok(const char *d)
{
	size_t label = 0;

	if (*d == '[') {	/* [192.0.2.1] or [IPv6:2001:db8::1] */
		size_t n = strlen(d);

		if (n < 3 || d[n - 1] != ']')
			return 0;
		for (size_t i = 1; i < n - 1; i++)
			if (!strchr("0123456789abcdefABCDEF:.IPv", d[i]))
				return 0;
		return 1;
	}
	for (; *d; d++) {
		unsigned char c = *d;

		if (c == '.') {
			if (!label)
				return 0;
			label = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   c == '-') {
			if (++label > 63)
				return 0;
		} else {
			return 0;
		}
	}
	return label > 0;
}

int compose_check_email(const char *email, const char **why)
{
	const char *at = strrchr(email, '@');
	const char *p;

	*why = "is not a plain address (local@domain)";
	if (!at || at == email || strlen(email) > 254)
		return -1;
	/* valid, but a program given it as an argument would take it for an option */
	if (*email == '-') {
		*why = "starts with '-'";
		return -1;
	}
	for (p = email; p < at; p++)
		if (!is_atext(*p) && !(*p == '.' && p > email && p + 1 < at && p[1] != '.'))
			return -1;
	return domain_ok(at + 1) ? 0 : -1;
}

int compose_check_msgid(const char *id, const char **why)
{
	size_t n = strlen(id), ats = 0;

	*why = "is not a Message-ID (<id@host>)";
	if (n < 5 || n > 998 - 20 || id[0] != '<' || id[n - 1] != '>')
		return -1;
	for (size_t i = 1; i < n - 1; i++) {
		unsigned char c = id[i];

		if (c <= ' ' || c >= 0x7f || c == '<' || c == '>')
			return -1;
		ats += c == '@';
	}
	return ats == 1 ? 0 : -1;
}

/* ---- header writing ---- */

/* The column after the last line break of out (the length of the line being written). */
static size_t column(const struct strbuf *out)
{
	const char *nl = memrchr(out->buf, '\n', out->len);

	return nl ? out->len - (nl + 1 - out->buf) : out->len;
}

static int printable_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

/* Unstructured text (Subject): folded at blanks, or encoded words when it must be. */
static void add_text(struct strbuf *out, const char *s)
{
	size_t len = strlen(s), longest = 0, run = 0;

	for (size_t i = 0; i < len; i++) {
		run = s[i] == ' ' || s[i] == '\t' ? 0 : run + 1;
		if (run > longest)
			longest = run;
	}
	/* a word too long for any line, or text that is not plain ASCII (or looks encoded) */
	if (!printable_ascii(s, len) || strstr(s, "=?") || longest > BODY_LINE_MAX - 100) {
		mail_rfc2047_encode_at(out, s, len, MAIL_ENCODE_ALWAYS, column(out));
		return;
	}
	while (*s) {
		size_t word = strcspn(s + 1, " \t") + 1;	/* a word with the blank before it */

		if (column(out) + word > FOLD_AT && (*s == ' ' || *s == '\t') &&
		    column(out) > 0 && out->buf[out->len - 1] != ' ')
			strbuf_addch(out, '\n');
		strbuf_add(out, s, word);
		s += word;
	}
}

static int phrase_safe(const char *s)
{
	for (; *s; s++)
		if (!is_atext(*s) && *s != ' ')
			return 0;
	return 1;
}

/* One address: "Name <email>", the name as atoms, a quoted string or encoded words. */
static void add_address(struct strbuf *out, const struct compose_addr *a)
{
	const char *name = a->name ? a->name : "";

	if (!*name) {
		strbuf_addstr(out, a->email);
		return;
	}
	if (phrase_safe(name)) {
		strbuf_addstr(out, name);
	} else if (printable_ascii(name, strlen(name)) && !strstr(name, "=?")) {
		strbuf_addch(out, '"');
		for (const char *p = name; *p; p++) {
			if (*p == '"' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '"');
	} else {
		mail_rfc2047_encode_at(out, name, strlen(name), MAIL_ENCODE_PHRASE, column(out));
	}
	if (column(out) + strlen(a->email) + 3 > FOLD_AT)
		strbuf_addstr(out, "\n ");
	else
		strbuf_addch(out, ' ');
	strbuf_addf(out, "<%s>", a->email);
}

static void add_address_header(struct strbuf *out, const char *name, const struct compose_addrs *l)
{
	struct strbuf one = STRBUF_INIT;

	strbuf_addf(out, "%s: ", name);
	for (size_t i = 0; i < l->nr; i++) {
		strbuf_reset(&one);
		add_address(&one, &l->v[i]);
		if (i) {
			const char *nl = memchr(one.buf, '\n', one.len);
			size_t first = nl ? (size_t)(nl - one.buf) : one.len;

			strbuf_addstr(out, column(out) + 2 + first > FOLD_AT ? ",\n " : ", ");
		}
		/* an encoded name was laid out for column 0: lay it out again where it goes */
		if (memchr(one.buf, '\n', one.len)) {
			strbuf_reset(&one);
			strbuf_addchars(&one, ' ', column(out));
			add_address(&one, &l->v[i]);
			strbuf_remove(&one, 0, column(out));
		}
		strbuf_addbuf(out, &one);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&one);
}

static void add_ids_header(struct strbuf *out, const char *name, const struct strvec *ids)
{
	strbuf_addf(out, "%s:", name);
	for (size_t i = 0; i < ids->nr; i++) {
		if (i && column(out) + 1 + strlen(ids->v[i]) > FOLD_AT)
			strbuf_addch(out, '\n');
		strbuf_addf(out, " %s", ids->v[i]);
	}
	strbuf_addch(out, '\n');
}

void compose_date(struct strbuf *out, long long when, int tz)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	long long local = when + (long long)tz * 60;
	long long days_since = local >= 0 ? local / 86400 : (local - 86399) / 86400;
	long long secs = local - days_since * 86400;
	/* civil_from_days (Howard Hinnant's algorithm): no time_t or locale involved */
	long long z = days_since + 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long mp = (5 * doy + 2) / 153;
	long long d = doy - (153 * mp + 2) / 5 + 1;
	long long m = mp < 10 ? mp + 3 : mp - 9;
	long long y = yoe + era * 400 + (m <= 2);
	int wd = (int)(((days_since % 7) + 11) % 7);	/* 1970-01-01 was a Thursday */
	int atz = tz < 0 ? -tz : tz;

	strbuf_addf(out, "%s, %lld %s %lld %02lld:%02lld:%02lld %c%02d%02d", days[wd], d,
		    months[m - 1], y, secs / 3600, secs / 60 % 60, secs % 60, tz < 0 ? '-' : '+',
		    atz / 60, atz % 60);
}

void compose_message_id(struct strbuf *out, const void *seed, size_t len, const char *from_email)
{
	const char *at = strrchr(from_email, '@');
	unsigned char digest[SHA1_RAWSZ];
	char hex[2 * SHA1_RAWSZ + 1];

	sha1_buf(digest, seed, len);
	strbuf_addf(out, "<git-maint.%s@%s>", hex_encode(hex, digest, SHA1_RAWSZ),
		    at ? at + 1 : "localhost");
}

/* ---- body ---- */

static void add_qp(struct strbuf *out, const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		int last = i + 1 == len || s[i + 1] == '\n';
		size_t need;

		if (c == '\n') {
			strbuf_addch(out, '\n');
			col = 0;
			continue;
		}
		/* a blank at the end of a line, '=', 8-bit bytes and a leading dot are encoded */
		need = (c == '=' || c >= 0x7f || (c < 0x20 && c != '\t') ||
			((c == ' ' || c == '\t') && last) || (c == '.' && !col)) ? 3 : 1;
		if (col + need > 75) {
			strbuf_addstr(out, "=\n");
			col = 0;
		}
		if (need == 3)
			strbuf_addf(out, "=%02X", c);
		else
			strbuf_addch(out, c);
		col += need;
	}
}

static int check_body(const char *s, size_t len, const char **why)
{
	if (memchr(s, '\0', len)) {
		*why = "holds a NUL byte";
		return -1;
	}
	if (memchr(s, '\r', len)) {
		*why = "holds a carriage return";
		return -1;
	}
	if (!utf8_valid(s, len)) {
		*why = "is not valid UTF-8";
		return -1;
	}
	return 0;
}

static void add_body(struct strbuf *out, const char *s, size_t len)
{
	size_t longest = 0, start = 0;
	int ascii = 1;

	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == '\n') {
			if (i - start > longest)
				longest = i - start;
			start = i + 1;
		} else if ((unsigned char)s[i] >= 0x80) {
			ascii = 0;
		}
	}
	strbuf_addstr(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n");
	if (longest > BODY_LINE_MAX) {
		strbuf_addstr(out, "Content-Transfer-Encoding: quoted-printable\n\n");
		add_qp(out, s, len);
	} else {
		strbuf_addf(out, "Content-Transfer-Encoding: %s\n\n", ascii ? "7bit" : "8bit");
		strbuf_add(out, s, len);
	}
	if (!len || s[len - 1] != '\n')
		strbuf_addch(out, '\n');
}

/* ---- the message ---- */

static int check_addr(const struct compose_addr *a, const char *field, struct strbuf *why)
{
	const char *w;

	if (compose_check_email(a->email, &w) < 0) {
		strbuf_addf(why, "the %s address '%s' %s", field, a->email, w);
		return -1;
	}
	if (a->name && compose_check_text(a->name, strlen(a->name), &w) < 0) {
		strbuf_addf(why, "the %s name '%s' %s", field, a->name, w);
		return -1;
	}
	return 0;
}

static int check_mail(const struct compose_mail *m, struct strbuf *why)
{
	const char *w;

	if (check_addr(&m->from, "From", why) < 0)
		return -1;
	if (!m->to.nr) {
		strbuf_addstr(why, "it has no recipient");
		return -1;
	}
	for (size_t i = 0; i < m->to.nr; i++)
		if (check_addr(&m->to.v[i], "To", why) < 0)
			return -1;
	for (size_t i = 0; i < m->cc.nr; i++)
		if (check_addr(&m->cc.v[i], "Cc", why) < 0)
			return -1;
	if (compose_check_text(m->subject, strlen(m->subject), &w) < 0) {
		strbuf_addf(why, "the subject '%s' %s", m->subject, w);
		return -1;
	}
	if (compose_check_msgid(m->message_id, &w) < 0) {
		strbuf_addf(why, "the Message-ID '%s' %s", m->message_id, w);
		return -1;
	}
	if (m->in_reply_to && compose_check_msgid(m->in_reply_to, &w) < 0) {
		strbuf_addf(why, "the In-Reply-To '%s' %s", m->in_reply_to, w);
		return -1;
	}
	for (size_t i = 0; i < m->references.nr; i++)
		if (compose_check_msgid(m->references.v[i], &w) < 0) {
			strbuf_addf(why, "the reference '%s' %s", m->references.v[i], w);
			return -1;
		}
	if (check_body(m->body, m->body_len, &w) < 0) {
		strbuf_addf(why, "the body %s", w);
		return -1;
	}
	return 0;
}

int compose_message(struct strbuf *out, const struct compose_mail *m, struct strbuf *why)
{
	struct compose_addrs from = { (struct compose_addr *)&m->from, 1, 0 };

	strbuf_reset(why);
	if (check_mail(m, why) < 0)
		return -1;
	add_address_header(out, "From", &from);
	add_address_header(out, "To", &m->to);
	if (m->cc.nr)
		add_address_header(out, "Cc", &m->cc);
	strbuf_addstr(out, "Subject: ");
	add_text(out, m->subject);
	strbuf_addstr(out, "\nDate: ");
	compose_date(out, m->date, m->tz);
	strbuf_addf(out, "\nMessage-ID: %s\n", m->message_id);
	if (m->in_reply_to)
		strbuf_addf(out, "In-Reply-To: %s\n", m->in_reply_to);
	if (m->references.nr)
		add_ids_header(out, "References", &m->references);
	add_body(out, m->body, m->body_len);
	return 0;
}
