/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the mail core's classification (common/mail/mail-kind.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mail-kind.h"
#include "strbuf.h"

/* One message: id, the id it answers ("" none), subject's v/k/n, Re:, tag, diff. */
static size_t add(struct mail_kinds *mk, const char *id, const char *reply, int v, int k, int n,
		  int is_reply, int has_diff)
{
	struct mail_facts f = { 0 };

	f.message_id = id;
	f.in_reply_to = reply;
	f.sender = "a@example.com";
	f.version = v;
	f.k = k;
	f.total = n;
	f.is_reply = is_reply;
	f.tagged = !is_reply && (n || has_diff);
	f.has_patch = f.has_diff = has_diff;
	return mail_kinds_add(mk, &f);
}

static enum mail_kind kind(struct mail_kinds *mk, size_t i)
{
	return mail_kinds_at(mk, i)->kind;
}

static void kinds_of_a_thread(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();
	struct mail_facts f = { 0 };

	(void)state;
	add(mk, "c", "", 1, 0, 2, 0, 1);	/* a cover letter with an interdiff */
	add(mk, "p1", "c", 1, 1, 2, 0, 1);
	add(mk, "r1", "p1", 1, 1, 2, 1, 1);	/* Re: carrying a diff */
	add(mk, "p1", "c", 1, 1, 2, 0, 1);	/* the list's copy */
	add(mk, "p2", "c", 1, 2, 2, 0, 1);
	f.message_id = "u";
	f.in_reply_to = "p2";
	f.sender = "b@example.com";
	f.has_patch = f.has_diff = 1;		/* untagged answer with a diff */
	mail_kinds_add(mk, &f);
	mail_kinds_run(mk);
	assert_int_equal(kind(mk, 0), MAIL_COVER);
	assert_int_equal(kind(mk, 1), MAIL_PATCH);
	assert_int_equal(kind(mk, 2), MAIL_FOLLOWUP);
	assert_int_equal(mail_kinds_at(mk, 2)->parent, 1);
	assert_int_equal(kind(mk, 3), MAIL_DUPLICATE);
	assert_int_equal(kind(mk, 4), MAIL_PATCH);
	assert_int_equal(kind(mk, 5), MAIL_FOLLOWUP);
	assert_int_equal(mail_kinds_series_count(mk), 1);
	assert_int_equal(mail_kinds_threads(mk), 1);
	mail_kinds_free(mk);
}

static void root_without_diff_is_the_cover(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();

	(void)state;
	add(mk, "root", "", 1, 0, 0, 0, 0);
	add(mk, "p1", "root", 1, 1, 2, 0, 1);
	add(mk, "p2", "root", 1, 2, 2, 0, 1);
	mail_kinds_run(mk);
	assert_int_equal(kind(mk, 0), MAIL_COVER);
	assert_true(mail_kinds_series(mk, 0)->has_cover);
	mail_kinds_free(mk);
}

static void unthreaded_series_and_missing_ranges(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();
	struct strbuf sb = STRBUF_INIT;
	char id[32];

	(void)state;
	for (int k = 1; k <= 40; k++) {
		if ((k >= 2 && k <= 19) || k == 21)
			continue;
		snprintf(id, sizeof(id), "m%d", k);
		add(mk, id, "", 1, k, 40, 0, 1);
	}
	mail_kinds_run(mk);
	assert_int_equal(mail_kinds_series_count(mk), 1);
	assert_int_equal(mail_kinds_threads(mk), 1);
	assert_int_equal(mail_kinds_missing(mk, 0, &sb), 19);
	assert_string_equal(sb.buf, "2-19, 21");
	strbuf_release(&sb);
	mail_kinds_free(mk);
}

static void a_resent_series_is_a_second_series(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	add(mk, "a1", "", 1, 1, 2, 0, 1);
	add(mk, "a2", "", 1, 2, 2, 0, 1);
	add(mk, "b1", "", 1, 1, 2, 0, 1);
	mail_kinds_run(mk);
	assert_int_equal(mail_kinds_series_count(mk), 2);
	assert_int_equal(mail_kinds_missing(mk, 1, &sb), 1);
	assert_string_equal(sb.buf, "2");
	strbuf_release(&sb);
	mail_kinds_free(mk);
}

static void partial_reroll_replaces_one_patch(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	add(mk, "c", "", 1, 0, 3, 0, 0);
	add(mk, "p1", "c", 1, 1, 3, 0, 1);
	add(mk, "p2", "c", 1, 2, 3, 0, 1);
	add(mk, "p3", "c", 1, 3, 3, 0, 1);
	add(mk, "p2v2", "p2", 2, 2, 3, 0, 1);
	mail_kinds_run(mk);
	assert_int_equal(kind(mk, 4), MAIL_PATCH);
	assert_int_equal(mail_kinds_at(mk, 2)->replaced_by, 4);
	assert_int_equal(mail_kinds_at(mk, 1)->replaced_by, MAIL_NONE);
	assert_true(mail_kinds_series(mk, mail_kinds_at(mk, 4)->series)->partial);
	assert_int_equal(mail_kinds_missing(mk, mail_kinds_at(mk, 4)->series, &sb), 0);
	strbuf_release(&sb);
	mail_kinds_free(mk);
}

/* A message of a series: id, the id it answers, v k/n, its sender and subject. */
static size_t add_from(struct mail_kinds *mk, const char *id, const char *reply, int v, int k, int n,
		       const char *sender, const char *subject)
{
	struct mail_facts f = { 0 };

	f.message_id = id;
	f.in_reply_to = reply;
	f.sender = sender;
	f.subject = subject;
	f.version = v;
	f.k = k;
	f.total = n;
	f.tagged = 1;
	f.has_patch = f.has_diff = k > 0;
	return mail_kinds_add(mk, &f);
}

static void versions_of_a_series_are_one_family(void **state)
{
	struct mail_kinds *mk = mail_kinds_new();
	const struct mail_series *v1, *v2, *other, *reroll;

	(void)state;
	add_from(mk, "c1", "", 1, 0, 2, "a@example.com", "topic: two changes");
	add_from(mk, "p1", "c1", 1, 1, 2, "a@example.com", "topic: one");
	add_from(mk, "p2", "c1", 1, 2, 2, "a@example.com", "topic: two");
	/* v2 in a thread of its own: the same sender and cover subject */
	add_from(mk, "c2", "", 2, 0, 2, "a@example.com", "topic: two changes");
	add_from(mk, "q1", "c2", 2, 1, 2, "a@example.com", "topic: one, reworded");
	add_from(mk, "q2", "c2", 2, 2, 2, "a@example.com", "topic: two");
	/* another sender's series with the same subject is another family */
	add_from(mk, "o1", "", 1, 1, 1, "b@example.com", "topic: one");
	/* a partial reroll of v2's patch 1, reworded again: joined by what it replaces */
	add_from(mk, "r1", "q1", 3, 1, 2, "a@example.com", "topic: one, reworded twice");
	mail_kinds_run(mk);
	v1 = mail_kinds_series(mk, mail_kinds_at(mk, 1)->series);
	v2 = mail_kinds_series(mk, mail_kinds_at(mk, 4)->series);
	other = mail_kinds_series(mk, mail_kinds_at(mk, 6)->series);
	reroll = mail_kinds_series(mk, mail_kinds_at(mk, 7)->series);
	assert_int_equal(v1->family, v2->family);
	assert_int_equal(reroll->family, v1->family);
	assert_int_not_equal(other->family, v1->family);
	assert_true(v1->superseded);
	assert_false(v2->superseded);
	assert_false(reroll->superseded);
	assert_true(reroll->partial);
	assert_false(other->superseded);
	mail_kinds_free(mk);
}

static void skipped_summary(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t counts[MAIL_KIND_NR] = { 0 };

	(void)state;
	counts[MAIL_PATCH] = 9;
	counts[MAIL_COVER] = 2;
	counts[MAIL_FOLLOWUP] = 3;
	mail_kind_skipped_summary(&sb, counts, 0);
	assert_string_equal(sb.buf, "2 cover letters and 3 replies");
	strbuf_reset(&sb);
	counts[MAIL_DUPLICATE] = 1;
	mail_kind_skipped_summary(&sb, counts, 1);
	assert_string_equal(sb.buf, "2 cover letters, 3 replies, 1 duplicate and 1 superseded patch");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kinds_of_a_thread),
		cmocka_unit_test(root_without_diff_is_the_cover),
		cmocka_unit_test(unthreaded_series_and_missing_ranges),
		cmocka_unit_test(a_resent_series_is_a_second_series),
		cmocka_unit_test(partial_reroll_replaces_one_patch),
		cmocka_unit_test(versions_of_a_series_are_one_family),
		cmocka_unit_test(skipped_summary),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
