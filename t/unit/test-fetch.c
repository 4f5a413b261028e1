/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the mail sources that fetch: argument syntax, archive URLs, the series pick, IMAP URLs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "fetch.h"
#include "imap.h"
#include "strbuf.h"
#include "usage.h"

static void argument_kinds(void **state)
{
	(void)state;
	assert_int_equal(fetch_arg_kind("TODO"), FETCH_LOCAL);
	assert_int_equal(fetch_arg_kind("-"), FETCH_LOCAL);
	assert_int_equal(fetch_arg_kind("<>"), FETCH_LOCAL);
	assert_int_equal(fetch_arg_kind("<a@b>"), FETCH_ARCHIVE);
	assert_int_equal(fetch_arg_kind("id:a@b"), FETCH_ARCHIVE);
	assert_int_equal(fetch_arg_kind("https://h/l/a@b/"), FETCH_ARCHIVE);
	assert_int_equal(fetch_arg_kind("http://h/l/a@b/"), FETCH_ARCHIVE);
	assert_int_equal(fetch_arg_kind("imaps://u@h/INBOX"), FETCH_IMAP);
	assert_int_equal(fetch_arg_kind("imap://h/INBOX"), FETCH_IMAP);
	assert_int_equal(fetch_arg_kind("ftp://h/x"), FETCH_LOCAL);
}

/* thread_url of arg (with base), or NULL when it is refused. */
static char *thread_url(const char *arg, const char *base)
{
	struct archive_ref ref = ARCHIVE_REF_INIT;
	char *url;

	if (archive_ref_parse(&ref, arg, base) < 0)
		return NULL;
	url = ref.thread_url;
	ref.thread_url = NULL;
	archive_ref_release(&ref);
	return url;
}

static void check_url(const char *arg, const char *base, const char *expect)
{
	char *url = thread_url(arg, base);

	if (!expect) {
		assert_null(url);
		return;
	}
	assert_non_null(url);
	assert_string_equal(url, expect);
	free(url);
}

static void archive_arguments(void **state)
{
	const char *lore = "https://lore.example.org/git";

	(void)state;
	check_url("<a@b>", lore, "https://lore.example.org/git/a@b/t.mbox.gz");
	check_url("id:a@b", "https://lore.example.org/git/", "https://lore.example.org/git/a@b/t.mbox.gz");
	check_url("id:<a@b>", lore, "https://lore.example.org/git/a@b/t.mbox.gz");
	check_url("id:a/b c@d", lore, NULL);	/* a blank is no Message-ID */
	check_url("id:../x/y@z", lore, "https://lore.example.org/git/..%2Fx%2Fy@z/t.mbox.gz");
	check_url("id:..", lore, NULL);
	check_url("id:.", lore, NULL);
	check_url("id:%2e%2e", lore, "https://lore.example.org/git/%252e%252e/t.mbox.gz");
	check_url("<a@b>", NULL, NULL);		/* no archive configured: never a guess */
	check_url("<a@b>", "ftp://x/", NULL);
	check_url("https://h/list/a@b/", NULL, "https://h/list/a@b/t.mbox.gz");
	check_url("https://h/list/a@b", NULL, "https://h/list/a@b/t.mbox.gz");
	check_url("https://h/list/a@b/T/#u", NULL, "https://h/list/a@b/t.mbox.gz");
	check_url("https://h/list/a@b/t.mbox.gz", NULL, "https://h/list/a@b/t.mbox.gz");
	check_url("https://h/list/a@b/raw?x=1", NULL, "https://h/list/a@b/t.mbox.gz");
	check_url("https://h/list/a%2Fb@c/", NULL, "https://h/list/a%2Fb@c/t.mbox.gz");
	check_url("https://h/list/%zz/", NULL, NULL);
	check_url("https://h/list/%00a@b/", NULL, NULL);
	check_url("https://h/", NULL, NULL);
	check_url("https://h", NULL, NULL);
	check_url("http://h/list/a@b/", NULL, "http://h/list/a@b/t.mbox.gz");
}

/* ---- the pick ---- */

static void add_mail(struct strbuf *mbox, const char *subject, const char *id, const char *irt,
		     int patch)
{
	strbuf_addf(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: A <a@example.org>\n"
		    "Subject: %s\nMessage-ID: <%s>\n", subject, id);
	if (irt)
		strbuf_addf(mbox, "In-Reply-To: <%s>\nReferences: <%s>\n", irt, irt);
	strbuf_addstr(mbox, "Date: Fri, 1 Apr 2005 12:00:00 +0000\n\nText.\n");
	if (patch)
		strbuf_addf(mbox, "---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+%s\n",
			    id);
	strbuf_addch(mbox, '\n');
}

/* The Message-IDs of what the pick takes for msgid, one per line, or "FATAL". */
static void pick(struct strbuf *out, const struct strbuf *mbox, const char *msgid, int version)
{
	struct archive_ref ref = ARCHIVE_REF_INIT;
	struct archive_pick_opts po = { "test" };
	struct fetched_input in = { (char *)"test" };

	ref.msgid = (char *)msgid;
	po.version = version;
	strbuf_reset(out);
	if (archive_pick(&ref, mbox->buf, mbox->len, &po, &in) != RESULT_OK) {
		strbuf_addstr(out, "FATAL");
	} else {
		for (size_t i = 0; i < in.nr; i++) {
			const char *m = memmem(mbox->buf + in.spans[i].off, in.spans[i].len,
					       "Message-ID: <", 13);
			const char *e = m ? memchr(m, '>', mbox->buf + mbox->len - m) : NULL;

			assert_non_null(e);
			strbuf_add(out, m + 13, e - m - 13);
			strbuf_addch(out, '\n');
		}
	}
	free(in.spans);
}

static void pick_thread_or_version(void **state)
{
	struct strbuf mbox = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	add_mail(&mbox, "[PATCH 0/2] frob", "c1", NULL, 0);
	add_mail(&mbox, "[PATCH 1/2] frob: a", "p1a", "c1", 1);
	add_mail(&mbox, "[PATCH 2/2] frob: b", "p1b", "c1", 1);
	add_mail(&mbox, "Re: [PATCH 1/2] frob: a", "r1", "p1a", 1);
	add_mail(&mbox, "[PATCH v2 0/2] frob", "c2", "c1", 0);
	add_mail(&mbox, "[PATCH v2 2/2] frob: b", "p2b", "c2", 1);
	add_mail(&mbox, "[PATCH v2 1/2] frob: a", "p2a", "c2", 1);
	add_mail(&mbox, "[PATCH v2 1/2] frob: a", "p2a", "c2", 1);	/* a second copy */
	/* same subject, not a reply: public-inbox threads it here, it is not the series */
	add_mail(&mbox, "[PATCH v3 1/1] frob: a", "other", NULL, 1);

	/* no version asked for: the thread whole, in the archive's order */
	pick(&out, &mbox, "c1", 0);
	assert_string_equal(out.buf, "c1\np1a\np1b\nr1\nc2\np2b\np2a\np2a\n");
	pick(&out, &mbox, "r1", 0);
	assert_string_equal(out.buf, "c1\np1a\np1b\nr1\nc2\np2b\np2a\np2a\n");
	/* a version asked for: that version's series, as b4 am picks it */
	pick(&out, &mbox, "c1", 2);
	assert_string_equal(out.buf, "c2\np2a\np2b\n");
	pick(&out, &mbox, "r1", 2);		/* a reply: the series it answers */
	assert_string_equal(out.buf, "c2\np2a\np2b\n");
	pick(&out, &mbox, "p2b", 1);
	assert_string_equal(out.buf, "c1\np1a\np1b\n");
	pick(&out, &mbox, "p2b", 4);
	assert_string_equal(out.buf, "FATAL");
	pick(&out, &mbox, "nowhere", 0);
	assert_string_equal(out.buf, "FATAL");
	pick(&out, &mbox, "other", 0);
	assert_string_equal(out.buf, "other\n");
	strbuf_release(&mbox);
	strbuf_release(&out);
}

static void pick_partial_reroll(void **state)
{
	struct strbuf mbox = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	add_mail(&mbox, "[PATCH 0/3] frob", "c1", NULL, 0);
	add_mail(&mbox, "[PATCH 1/3] frob: a", "p1", "c1", 1);
	add_mail(&mbox, "[PATCH 2/3] frob: b", "p2", "c1", 1);
	add_mail(&mbox, "[PATCH 3/3] frob: c", "p3", "c1", 1);
	add_mail(&mbox, "[PATCH v2 2/3] frob: b", "p2v2", "p2", 1);

	pick(&out, &mbox, "c1", 0);
	assert_string_equal(out.buf, "c1\np1\np2\np3\np2v2\n");
	pick(&out, &mbox, "c1", 2);
	assert_string_equal(out.buf, "c1\np1\np2v2\np3\n");
	pick(&out, &mbox, "p2v2", 1);
	assert_string_equal(out.buf, "c1\np1\np2\np3\n");
	strbuf_release(&mbox);
	strbuf_release(&out);
}

static void pick_bounded(void **state)
{
	struct strbuf mbox = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	/* what a subject claims sizes nothing: a series "of 999999" is two messages */
	add_mail(&mbox, "[PATCH 0/999999] frob", "c1", NULL, 0);
	add_mail(&mbox, "[PATCH 7/999999] frob: a", "p7", "c1", 1);
	pick(&out, &mbox, "c1", 0);
	assert_string_equal(out.buf, "c1\np7\n");
	strbuf_release(&mbox);
	strbuf_release(&out);
}

/* ---- IMAP ---- */

static void imap_urls(void **state)
{
	struct imap_url u = IMAP_URL_INIT;

	(void)state;
	assert_int_equal(imap_url_parse(&u, "imaps://me%40example.org@mail.example.org:993/INBOX/TODO?unseen&since=2024-05-01"), 0);
	assert_string_equal(u.user, "me@example.org");
	assert_string_equal(u.host, "mail.example.org");
	assert_int_equal(u.port, 993);
	assert_string_equal(u.folder, "INBOX/TODO");
	assert_int_equal(u.unseen, 1);
	assert_int_equal(u.mark_seen, 0);
	assert_int_equal(u.since, 1714521600);
	assert_int_equal(u.starttls, 0);
	imap_url_release(&u);

	assert_int_equal(imap_url_parse(&u, "imap://[::1]/?mark-seen"), 0);
	assert_null(u.user);
	assert_string_equal(u.host, "[::1]");
	assert_int_equal(u.port, 0);
	assert_string_equal(u.folder, "INBOX");
	assert_int_equal(u.mark_seen, 1);
	assert_int_equal(u.starttls, 1);
	imap_url_release(&u);

	assert_int_equal(imap_url_parse(&u, "imaps://h/Entw%C3%BCrfe/"), 0);
	assert_string_equal(u.folder, "Entw\xc3\xbcrfe");
	imap_url_release(&u);

	/* what would change the commands we send, or is not a URL we read */
	assert_int_equal(imap_url_parse(&u, "imaps://h/INBOX%0D%0AA1 DELETE INBOX"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h:0/INBOX"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h:99999/INBOX"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h x/INBOX"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps:///INBOX"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h/INBOX?flagged"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h/INBOX?since=yesterday-ish"), -1);
	imap_url_release(&u);
	assert_int_equal(imap_url_parse(&u, "imaps://h/%FF"), -1);
	imap_url_release(&u);
}

static void utf7(const char *in, const char *expect)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(imap_utf7_encode(&sb, in), 0);
	assert_string_equal(sb.buf, expect);
	strbuf_release(&sb);
}

static void imap_modified_utf7(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	utf7("INBOX/TODO", "INBOX/TODO");
	utf7("Entw\xc3\xbcrfe", "Entw&APw-rfe");	/* RFC 3501's own example is ~peter/mail/&U,BTFw-/&ZeVnLIqe- */
	utf7("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "&ZeVnLIqe-");
	utf7("a&b", "a&-b");
	utf7("\xf0\x9f\x98\x80", "&2D3eAA-");	/* beyond the BMP: a surrogate pair */
	assert_int_equal(imap_utf7_encode(&sb, "\xff"), -1);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(argument_kinds),
		cmocka_unit_test(archive_arguments),
		cmocka_unit_test(pick_thread_or_version),
		cmocka_unit_test(pick_partial_reroll),
		cmocka_unit_test(pick_bounded),
		cmocka_unit_test(imap_urls),
		cmocka_unit_test(imap_modified_utf7),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
