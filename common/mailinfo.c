/*
 * Patch mail extraction (what git mailinfo does). See mailinfo.h.
 * First version: plain text bodies; MIME and encodings follow.
 */
#include "mailinfo.h"
#include "mail.h"
#include "wrapper.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void patch_mail_init(struct patch_mail *pm)
{
	memset(pm, 0, sizeof(*pm));
	strbuf_init(&pm->author_name, 0);
	strbuf_init(&pm->author_email, 0);
	strbuf_init(&pm->date, 0);
	strbuf_init(&pm->subject, 0);
	strbuf_init(&pm->raw_subject, 0);
	strbuf_init(&pm->message, 0);
	strbuf_init(&pm->patch, 0);
	strbuf_init(&pm->message_id, 0);
	strbuf_init(&pm->in_reply_to, 0);
	strvec_init(&pm->references);
	strvec_init(&pm->to);
	strvec_init(&pm->cc);
	strvec_init(&pm->paths);
	pm->version = 1;
}

void patch_mail_reset(struct patch_mail *pm)
{
	strbuf_reset(&pm->author_name);
	strbuf_reset(&pm->author_email);
	strbuf_reset(&pm->date);
	strbuf_reset(&pm->subject);
	strbuf_reset(&pm->raw_subject);
	strbuf_reset(&pm->message);
	strbuf_reset(&pm->patch);
	strbuf_reset(&pm->message_id);
	strbuf_reset(&pm->in_reply_to);
	strvec_clear(&pm->references);
	strvec_clear(&pm->to);
	strvec_clear(&pm->cc);
	strvec_clear(&pm->paths);
	pm->version = 1;
	pm->number = pm->total = 0;
	pm->has_patch = pm->is_reply = 0;
	pm->has_author = pm->has_subject = pm->has_date = 0;
}

void patch_mail_release(struct patch_mail *pm)
{
	strbuf_release(&pm->author_name);
	strbuf_release(&pm->author_email);
	strbuf_release(&pm->date);
	strbuf_release(&pm->subject);
	strbuf_release(&pm->raw_subject);
	strbuf_release(&pm->message);
	strbuf_release(&pm->patch);
	strbuf_release(&pm->message_id);
	strbuf_release(&pm->in_reply_to);
	strvec_clear(&pm->references);
	strvec_clear(&pm->to);
	strvec_clear(&pm->cc);
	strvec_clear(&pm->paths);
}

void mailinfo_cleanup_subject(struct strbuf *subject, int keep_non_patch)
{
	size_t at = 0;

	while (at < subject->len) {
		char *pos;
		size_t remove;

		switch (subject->buf[at]) {
		case 'r': case 'R':
			if (subject->len <= at + 3)
				break;
			if ((subject->buf[at + 1] == 'e' || subject->buf[at + 1] == 'E') &&
			    subject->buf[at + 2] == ':') {
				strbuf_remove(subject, at, 3);
				continue;
			}
			at++;
			break;
		case ' ': case '\t': case ':':
			strbuf_remove(subject, at, 1);
			continue;
		case '[':
			pos = memchr(subject->buf + at, ']', subject->len - at);
			if (!pos)
				break;
			remove = pos - (subject->buf + at) + 1;
			if (!keep_non_patch || (remove > 6 && memmem(subject->buf + at, remove, "PATCH", 5)))
				strbuf_remove(subject, at, remove);
			else {
				at += remove;
				if (at < subject->len && isspace((unsigned char)subject->buf[at]))
					at++;
			}
			continue;
		}
		break;
	}
	strbuf_trim(subject);
}

void mailinfo_series_info(const char *subject, size_t len, int *version, int *number, int *total)
{
	size_t i = 0;

	*version = 1;
	*number = *total = 0;
	while (i < len) {
		const char *lb = memchr(subject + i, '[', len - i), *rb;

		if (!lb)
			break;
		rb = memchr(lb, ']', subject + len - lb);
		if (!rb)
			break;
		for (const char *p = lb + 1; p < rb; p++) {
			if ((*p == 'v' || *p == 'V') && p + 1 < rb && isdigit((unsigned char)p[1]) &&
			    (p == lb + 1 || !isalnum((unsigned char)p[-1]) || !strncmp(p - 5, "PATCH", 5))) {
				*version = atoi(p + 1);
			} else if (isdigit((unsigned char)*p) && (p == lb + 1 || !isalnum((unsigned char)p[-1]))) {
				const char *q = p;
				int n = 0, m = 0;
				while (q < rb && isdigit((unsigned char)*q))
					n = n * 10 + (*q++ - '0');
				if (q < rb && *q == '/' && q + 1 < rb && isdigit((unsigned char)q[1])) {
					q++;
					while (q < rb && isdigit((unsigned char)*q))
						m = m * 10 + (*q++ - '0');
					*number = n;
					*total = m;
				}
				p = q - 1;
			}
		}
		i = rb - subject + 1;
	}
}

void mailinfo_diff_paths(struct strvec *paths, const char *patch, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *line = patch + pos, *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;
		const char *v = NULL;
		size_t vl = 0;

		pos += l + (nl ? 1 : 0);
		if (l > 4 && (!memcmp(line, "--- ", 4) || !memcmp(line, "+++ ", 4))) {
			v = line + 4;
			vl = l - 4;
			if (memchr(v, '\t', vl))
				vl = (const char *)memchr(v, '\t', vl) - v;
			if (vl >= 2 && (v[0] == 'a' || v[0] == 'b') && v[1] == '/') {
				v += 2;
				vl -= 2;
			}
		} else if (l > 12 && !memcmp(line, "rename from ", 12)) {
			v = line + 12, vl = l - 12;
		} else if (l > 10 && !memcmp(line, "rename to ", 10)) {
			v = line + 10, vl = l - 10;
		}
		if (!v || !vl || (vl == 9 && !memcmp(v, "/dev/null", 9)))
			continue;
		{
			char *s = xstrndup(v, vl);
			if (!strvec_contains(paths, s))
				strvec_push(paths, s);
			free(s);
		}
	}
}

static void header_value(struct strbuf *out, const struct mail_header *h)
{
	struct strbuf tmp = STRBUF_INIT;

	mail_unfold(&tmp, h->value, h->value_len);
	mail_rfc2047_decode(out, tmp.buf, tmp.len, NULL);
	strbuf_release(&tmp);
}

int patch_mail_parse(struct patch_mail *pm, const struct raw_mail *raw, const struct mailinfo_opts *opts)
{
	size_t pos = 0, hlen = mail_header_len(raw->buf, raw->len);
	struct mail_header h;
	struct strbuf tmp = STRBUF_INIT;
	const char *body;
	size_t blen;
	int in_patch = 0;

	patch_mail_reset(pm);
	while (mail_header_next(raw->buf, hlen, &pos, &h)) {
		strbuf_reset(&tmp);
#define IS(n) (h.name_len == strlen(n) && !strncasecmp(h.name, n, h.name_len))
		if (IS("From") && !pm->has_author) {
			struct mail_address a = MAIL_ADDRESS_INIT;
			mail_unfold(&tmp, h.value, h.value_len);
			if (!mail_parse_address(&a, tmp.buf, tmp.len)) {
				strbuf_addbuf(&pm->author_name, &a.name);
				strbuf_addbuf(&pm->author_email, &a.email);
			}
			mail_address_release(&a);
			pm->has_author = 1;
		} else if (IS("Subject") && !pm->has_subject) {
			header_value(&pm->raw_subject, &h);
			pm->has_subject = 1;
		} else if (IS("Date") && !pm->has_date) {
			mail_unfold(&pm->date, h.value, h.value_len);
			pm->has_date = 1;
		} else if (IS("Message-ID")) {
			struct strvec ids = STRVEC_INIT;
			mail_unfold(&tmp, h.value, h.value_len);
			if (mail_parse_msgids(&ids, tmp.buf, tmp.len)) {
				strbuf_reset(&pm->message_id);
				strbuf_addstr(&pm->message_id, ids.v[0]);
			}
			strvec_clear(&ids);
		} else if (IS("In-Reply-To")) {
			struct strvec ids = STRVEC_INIT;
			mail_unfold(&tmp, h.value, h.value_len);
			if (mail_parse_msgids(&ids, tmp.buf, tmp.len)) {
				strbuf_reset(&pm->in_reply_to);
				strbuf_addstr(&pm->in_reply_to, ids.v[0]);
			}
			strvec_clear(&ids);
		} else if (IS("References")) {
			mail_unfold(&tmp, h.value, h.value_len);
			mail_parse_msgids(&pm->references, tmp.buf, tmp.len);
		} else if (IS("To")) {
			mail_unfold(&tmp, h.value, h.value_len);
			mail_parse_address_list(&pm->to, tmp.buf, tmp.len);
		} else if (IS("Cc")) {
			mail_unfold(&tmp, h.value, h.value_len);
			mail_parse_address_list(&pm->cc, tmp.buf, tmp.len);
		}
#undef IS
	}
	strbuf_addbuf(&pm->subject, &pm->raw_subject);
	if (!opts->keep_subject)
		mailinfo_cleanup_subject(&pm->subject, opts->keep_non_patch);
	mailinfo_series_info(pm->raw_subject.buf, pm->raw_subject.len, &pm->version, &pm->number,
			     &pm->total);

	body = raw->buf + hlen;
	blen = raw->len - hlen;
	pos = 0;
	while (pos < blen) {
		const char *line = body + pos, *nl = memchr(line, '\n', blen - pos);
		size_t l = nl ? (size_t)(nl - line + 1) : blen - pos;

		if (!in_patch && ((l >= 3 && !memcmp(line, "---", 3) &&
				   (l == 3 || isspace((unsigned char)line[3]))) ||
				  (l >= 11 && !memcmp(line, "diff --git ", 11)) ||
				  (l >= 4 && !memcmp(line, "Index: ", 4)))) {
			in_patch = 1;
		}
		if (in_patch)
			strbuf_add(&pm->patch, line, l);
		else if (!opts->headers_and_paths_only)
			strbuf_add(&pm->message, line, l);
		pos += l;
	}
	mailinfo_diff_paths(&pm->paths, pm->patch.buf, pm->patch.len);
	pm->has_patch = pm->paths.nr > 0;
	if (opts->headers_and_paths_only)
		strbuf_reset(&pm->patch);
	strbuf_release(&tmp);
	return 0;
}

void patch_mail_format_info(struct strbuf *out, const struct patch_mail *pm)
{
	if (pm->has_author)
		strbuf_addf(out, "Author: %s\nEmail: %s\n", pm->author_name.buf, pm->author_email.buf);
	if (pm->has_subject)
		strbuf_addf(out, "Subject: %s\n", pm->subject.buf);
	if (pm->has_date)
		strbuf_addf(out, "Date: %s\n", pm->date.buf);
	strbuf_addch(out, '\n');
}
