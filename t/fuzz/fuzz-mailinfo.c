/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the mail core: the bytes are a mailbox; every message
 * goes through the source (mbox splitting, mboxrd, CRLF),
 * mailinfo_parse(), full and fast, with the options chosen by the
 * first byte, and mbox-split's select_scan(), which must agree with the
 * parser on every field it fills whenever it does not hand over, and
 * hand over every message the parser reports as bad; and the trailers
 * of each message read as a reply in place (trailers_of_reply()) must be
 * those of its copied text (trailers_reply_text()). Built by `make
 * fuzz-build` (.build/fuzz/fuzz-mailinfo), run briefly by
 * t/t0103-fuzz.sh and for longer by `make fuzz FUZZ=mailinfo`; give it
 * files to replay them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mailinfo.h"
#include "select.h"
#include "source.h"
#include "strbuf.h"
#include "trailers.h"
#include "utf8.h"
#include "usage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_strvec(const struct strvec *a, const struct strvec *b)
{
	if (a->nr != b->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

/* Is every string of a also in b? */
static int subset_strvec(const struct strvec *a, const struct strvec *b)
{
	for (size_t i = 0; i < a->nr; i++) {
		size_t j = 0;

		while (j < b->nr && strcmp(a->v[i], b->v[j]))
			j++;
		if (j == b->nr)
			return 0;
	}
	return 1;
}

/* A line git writes in a file's header, between "diff --git" and "@@". */
static int header_line(const char *p, size_t l)
{
	static const char *const starts[] = {
		"index ", "--- ", "+++ ", "old mode ", "new mode ", "deleted file mode ",
		"new file mode ", "similarity index ", "dissimilarity index ",
		"rename from ", "rename to ", "copy from ", "copy to ",
	};

	for (size_t i = 0; i < sizeof(starts) / sizeof(*starts); i++)
		if (l >= strlen(starts[i]) && !memcmp(p, starts[i], strlen(starts[i])))
			return 1;
	return 0;
}

/*
 * Is the diff of the message well formed: no file names before its first
 * "diff --git" line, and after it only file headers (git's header lines
 * from "diff --git" up to the first "@@") and hunks whose lines match
 * their counts, then a "-- " signature without diff text? On such a diff the
 * scan and the parser must name the same files; on a malformed one they
 * read garbage differently (select.h).
 */
static int well_formed_diff(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *diff = NULL;
	long old_left = 0, new_left = 0;
	int in_header = 0, in_sig = 0;

	for (const char *q = buf; q < end; ) {
		const char *nl = memchr(q, '\n', end - q);
		size_t l = nl ? (size_t)(nl - q) : (size_t)(end - q);

		if (l >= 11 && !memcmp(q, "diff --git ", 11)) {
			diff = q;
			break;
		}
		if (header_line(q, l) || (l >= 4 && (!memcmp(q, "--- ", 4) || !memcmp(q, "+++ ", 4))))
			return 0;	/* a file name outside a git diff */
		q += l + 1;
	}
	if (!diff)
		return 1;
	for (p = diff; p < end; ) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char c = l ? p[0] : ' ';	/* an empty line in a hunk is context, as for the parser */

		if (in_sig) {
			/* the signature: no diff text after it */
			if (header_line(p, l) || (l >= 4 && !memcmp(p, "@@ -", 4)) ||
			    (l >= 11 && !memcmp(p, "diff --git ", 11)))
				return 0;
		} else if (old_left > 0 || new_left > 0) {
			if (c == ' ') {
				old_left--;
				new_left--;
			} else if (c == '-') {
				old_left--;
			} else if (c == '+') {
				new_left--;
			} else if (c != '\\') {
				return 0;
			}
			if (old_left < 0 || new_left < 0)
				return 0;
		} else if (l >= 4 && !memcmp(p, "@@ -", 4)) {
			long a, b = 1, d, e = 1;
			char hunk[64];

			snprintf(hunk, sizeof(hunk), "%.*s", (int)(l < 63 ? l : 63), p);
			if (sscanf(hunk, "@@ -%ld,%ld +%ld,%ld @@", &a, &b, &d, &e) < 4 &&
			    sscanf(hunk, "@@ -%ld +%ld,%ld @@", &a, &d, &e) < 3 &&
			    sscanf(hunk, "@@ -%ld,%ld +%ld @@", &a, &b, &d) < 3 &&
			    sscanf(hunk, "@@ -%ld +%ld @@", &a, &d) < 2)
				return 0;
			old_left = b;
			new_left = e;
			in_header = 0;
		} else if (l == 3 && !memcmp(p, "-- ", 3)) {
			in_sig = 1;
		} else if (l >= 11 && !memcmp(p, "diff --git ", 11)) {
			in_header = 1;
		} else if (!in_header ? l != 0 : !header_line(p, l)) {
			return 0;	/* text after a hunk, or not a file header line */
		}
		p += l + 1;
	}
	return 1;
}

/*
 * The fields select_scan() fills (select.h) are those the parser gives;
 * so are its paths, as a set, when the diff is well formed, and they
 * are always among the parser's ones or none of them.
 */
static int same_selection(const struct patch_mail *a, const struct patch_mail *b,
			  const struct raw_mail *raw)
{
	/* (an encoded body's diff is checked only as decoded by the scan and the parser) */
	if (!memmem(raw->buf, raw->len, "base64", 6) && !memmem(raw->buf, raw->len, "quoted-printable", 16) &&
	    well_formed_diff(raw->buf, raw->len) &&
	    (!subset_strvec(&a->paths, &b->paths) || !subset_strvec(&b->paths, &a->paths)))
		return 0;
	return !strbuf_cmp(&a->subject, &b->subject) && !strbuf_cmp(&a->raw_subject, &b->raw_subject) &&
	       !strbuf_cmp(&a->author_email, &b->author_email) &&
	       !strbuf_cmp(&a->message_id, &b->message_id) &&
	       !strbuf_cmp(&a->in_reply_to, &b->in_reply_to) &&
	       same_strvec(&a->references, &b->references) &&
	       a->has_patch == b->has_patch && a->is_reply == b->is_reply &&
	       a->version == b->version && a->number == b->number && a->total == b->total;
}

/* Do the trailers read in place and those of the copied text agree? */
static int same_reply_trailers(const struct raw_mail *raw)
{
	struct trailer_list in_place = TRAILER_LIST_INIT, copied = TRAILER_LIST_INIT;
	struct strbuf text = STRBUF_INIT;
	int a = trailers_of_reply(&in_place, raw->buf, raw->len);
	int b = trailers_reply_text(&text, raw->buf, raw->len);
	int same = a == b;

	if (!b)
		trailers_from_reply(&copied, text.buf, text.len);
	same = same && in_place.nr == copied.nr;
	for (size_t i = 0; same && i < copied.nr; i++)
		same = !strcmp(in_place.v[i].line, copied.v[i].line);
	trailer_list_release(&in_place);
	trailer_list_release(&copied);
	strbuf_release(&text);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mailinfo_opts opts = MAILINFO_OPTS_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	struct patch_mail pm, fast, scan;
	unsigned flags = 0;
	unsigned char knobs;
	int r;

	if (!size)
		return 0;
	knobs = data[0];
	data++;
	size--;
	if (knobs & 1)
		flags |= SOURCE_MBOXRD;
	if (knobs & 2)
		flags |= SOURCE_KEEP_CR;
	opts.keep_subject = !!(knobs & 4);
	opts.keep_non_patch = !!(knobs & 8);
	opts.scissors = !!(knobs & 16);
	opts.no_inbody_headers = !!(knobs & 32);
	opts.message_id = !!(knobs & 64);
	opts.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;

	mailinfo_init(&pm);
	mailinfo_init(&fast);
	mailinfo_init(&scan);
	source_open_buffer(&src, (const char *)data, size, "fuzz", flags);
	source_set_max_size(src, 1 << 20);
	while ((r = source_next(src, &raw))) {
		struct mailinfo_opts fopts = opts;
		struct strbuf info = STRBUF_INIT;

		if (r < 0)
			continue;
		mailinfo_parse(&pm, &raw, &opts);
		fopts.headers_and_paths_only = 1;
		mailinfo_parse(&fast, &raw, &fopts);
		mailinfo_format_info(&info, &pm);
		/* invariants: never invalid UTF-8 out, fast and full agree */
		if (!utf8_valid(pm.author_name.buf, pm.author_name.len) ||
		    !utf8_valid(pm.subject.buf, pm.subject.len))
			abort();
		if (strbuf_cmp(&pm.subject, &fast.subject) ||
		    strbuf_cmp(&pm.author_email, &fast.author_email) ||
		    pm.paths.nr != fast.paths.nr || pm.has_patch != fast.has_patch)
			abort();
		strbuf_release(&info);
		if (!same_reply_trailers(&raw))
			abort();
		/* mbox-split's scan: as the parser with its default options, or hands over */
		if (!opts.keep_subject && !opts.keep_non_patch && !opts.scissors &&
		    !opts.no_inbody_headers && select_scan(&scan, &raw)) {
			struct mailinfo_opts sopts = MAILINFO_OPTS_INIT;

			sopts.headers_and_paths_only = 1;
			sopts.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;
			/* what the scan accepts the parser must not report as bad */
			if (mailinfo_parse(&fast, &raw, &sopts) < 0 || !same_selection(&scan, &fast, &raw))
				abort();
		}
	}
	source_close(src);
	mailinfo_release(&pm);
	mailinfo_release(&fast);
	mailinfo_release(&scan);
	return 0;
}
