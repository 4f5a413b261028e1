/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the review collection (common/mail/review.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "review.h"
#include "strbuf.h"

#define REV "Rev Iewer <rev@example.net>"

/* A patch: series s, family fam, v k/n, its change (the byte of its patch id), its own trailers. */
static size_t patch(struct review *rv, size_t *nr, size_t s, size_t fam, int v, int k, int n,
		    int change, const char *own)
{
	struct review_msg m = { 0 };
	char subject[64];

	snprintf(subject, sizeof(subject), "topic: change %d", k);
	m.kind = MAIL_PATCH;
	m.parent = MAIL_NONE;
	m.series = s;
	m.family = fam;
	m.version = v;
	m.k = k;
	m.total = n;
	m.number = *nr + 1;
	m.subject = subject;
	m.from_name = "A U Thor";
	m.from_email = "author@example.com";
	memset(m.patch_id, change, sizeof(m.patch_id));
	m.has_patch_id = 1;
	if (own)
		trailers_of_message(&m.trailers, own, strlen(own), NULL);
	review_add(rv, &m);
	return (*nr)++;
}

static size_t cover(struct review *rv, size_t *nr, size_t s, size_t fam, int v, int n)
{
	struct review_msg m = { 0 };

	m.kind = MAIL_COVER;
	m.parent = MAIL_NONE;
	m.series = s;
	m.family = fam;
	m.version = v;
	m.total = n;
	m.from_name = "A U Thor";
	m.from_email = "author@example.com";
	review_add(rv, &m);
	return (*nr)++;
}

/* A follow-up to parent from name/email, its text text. */
static size_t reply(struct review *rv, size_t *nr, size_t parent, const char *name,
		    const char *email, const char *text)
{
	struct review_msg m = { 0 };

	m.kind = MAIL_FOLLOWUP;
	m.parent = parent;
	m.series = MAIL_NONE;
	m.family = MAIL_NONE;
	m.from_name = name;
	m.from_email = email;
	trailers_from_reply(&m.trailers, text, strlen(text));
	review_add(rv, &m);
	return (*nr)++;
}

/* The formatted items of applied patch i. */
static void assert_items(const struct review *rv, size_t i, const char *expect)
{
	struct strbuf sb = STRBUF_INIT;

	review_format(&sb, i == (size_t)-1 ? review_unplaced(rv) : review_for(rv, i), "");
	assert_string_equal(sb.buf, expect);
	strbuf_release(&sb);
}

static void replies_at_any_depth_give_to_the_patch(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, p1, p2, r1, r2, applied[2];

	(void)state;
	p1 = patch(rv, &nr, 0, 0, 1, 1, 2, 1, NULL);
	p2 = patch(rv, &nr, 0, 0, 1, 2, 2, 2, NULL);
	r1 = reply(rv, &nr, p2, "Other Person", "other@example.org", "What about x?\n");
	r2 = reply(rv, &nr, r1, "A U Thor", "author@example.com", "> What about x?\nFixed in v2.\n");
	reply(rv, &nr, r2, "Rev Iewer", "rev@example.net", "> Fixed in v2.\n\nReviewed-by: " REV "\n");
	reply(rv, &nr, MAIL_NONE, "Rev Iewer", "rev@example.net", "Acked-by: " REV "\n");
	applied[0] = p1;
	applied[1] = p2;
	review_collect(rv, applied, 2, &opts);
	assert_items(rv, 0, "");
	assert_items(rv, 1, "+ Reviewed-by: " REV " (" REV ")\n");
	assert_items(rv, (size_t)-1, "");
	review_free(rv);
}

static void cover_letter_acks_go_to_every_patch_of_its_version(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, c, p1, p2, applied[2];
	struct strvec carried = STRVEC_INIT;

	(void)state;
	c = cover(rv, &nr, 0, 0, 1, 2);
	p1 = patch(rv, &nr, 0, 0, 1, 1, 2, 1, NULL);
	p2 = patch(rv, &nr, 0, 0, 1, 2, 2, 2, NULL);
	reply(rv, &nr, c, "Rev Iewer", "rev@example.net", "For the series:\nAcked-by: " REV "\n");
	/* another series' cover letter gives nothing here */
	cover(rv, &nr, 1, 1, 1, 1);
	reply(rv, &nr, nr - 1, "Rev Iewer", "rev@example.net", "Nacked-by: " REV "\n");
	applied[0] = p1;
	applied[1] = p2;
	review_collect(rv, applied, 2, &opts);
	assert_items(rv, 0, "+ Acked-by: " REV " (" REV ", on the cover letter)\n");
	assert_items(rv, 1, "+ Acked-by: " REV " (" REV ", on the cover letter)\n");
	review_carried(rv, 1, &carried);
	assert_int_equal(carried.nr, 1);
	assert_string_equal(carried.v[0], "Acked-by: " REV);
	strvec_clear(&carried);
	review_free(rv);
}

static void v1_reviews_carried_where_v2_did_not_change(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, c1, v1[3], v2[3];

	(void)state;
	c1 = cover(rv, &nr, 0, 7, 1, 3);
	for (int k = 1; k <= 3; k++)
		v1[k - 1] = patch(rv, &nr, 0, 7, 1, k, 3, k, NULL);
	reply(rv, &nr, v1[0], "Rev Iewer", "rev@example.net", "Reviewed-by: " REV "\n");
	reply(rv, &nr, v1[1], "Tess Ter", "tess@example.org", "Tested-by: Tess Ter <tess@example.org>\n");
	reply(rv, &nr, c1, "Ack Er", "ack@example.org", "Acked-by: Ack Er <ack@example.org>\n");
	cover(rv, &nr, 1, 7, 2, 3);
	for (int k = 1; k <= 3; k++)	/* v2 changes patch 2 */
		v2[k - 1] = patch(rv, &nr, 1, 7, 2, k, 3, k == 2 ? 20 : k, NULL);
	review_collect(rv, v2, 3, &opts);
	assert_items(rv, 0,
		     "+ Reviewed-by: " REV " (" REV ", on v1 1/3)\n"
		     "+ Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the v1 cover letter)\n");
	assert_items(rv, 1,
		     "- Tested-by: Tess Ter <tess@example.org> (Tess Ter <tess@example.org>, "
		     "on v1 2/3, which changed in v2)\n"
		     "- Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, "
		     "on the v1 cover letter, for v1 2/3, which changed in v2)\n");
	assert_items(rv, 2,
		     "+ Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the v1 cover letter)\n");
	assert_int_equal(review_count(rv, REVIEW_CARRIED), 3);
	assert_int_equal(review_count(rv, REVIEW_STALE), 2);
	review_free(rv);
}

static void a_patch_v2_dropped_is_unplaced(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, v1, v2;

	(void)state;
	patch(rv, &nr, 0, 3, 1, 1, 2, 1, NULL);
	v1 = patch(rv, &nr, 0, 3, 1, 2, 2, 2, NULL);
	reply(rv, &nr, v1, "Rev Iewer", "rev@example.net", "Reviewed-by: " REV "\n");
	v2 = patch(rv, &nr, 1, 3, 2, 1, 1, 1, NULL);
	review_collect(rv, &v2, 1, &opts);
	assert_items(rv, 0, "");
	assert_items(rv, (size_t)-1, "- Reviewed-by: " REV " (" REV ", on v1 2/2, which v2 dropped)\n");
	review_free(rv);
}

static void forged_trailers_are_flagged_unless_sloppy(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, p;

	(void)state;
	p = patch(rv, &nr, 0, 0, 1, 1, 1, 1, NULL);
	reply(rv, &nr, p, "Third Party", "third@example.org",
	      "Reviewed-by: Some One <one@example.org>\nAcked-by: Third Party <third+lkml@example.org>\n");
	review_collect(rv, &p, 1, &opts);
	assert_items(rv, 0,
		     "! Reviewed-by: Some One <one@example.org> (Third Party <third@example.org>, "
		     "not the sender's address)\n"
		     "+ Acked-by: Third Party <third+lkml@example.org> (Third Party <third@example.org>)\n");
	review_free(rv);

	rv = review_new();
	nr = 0;
	p = patch(rv, &nr, 0, 0, 1, 1, 1, 1, NULL);
	reply(rv, &nr, p, "Third Party", "third@example.org", "Reviewed-by: Some One <one@example.org>\n");
	opts.sloppy = 1;
	review_collect(rv, &p, 1, &opts);
	assert_items(rv, 0, "+ Reviewed-by: Some One <one@example.org> (Third Party <third@example.org>, "
		     "not the sender's address)\n");
	review_free(rv);
}

/* A trailer given twice is found in a set, not by a scan (reliability case 55). */
static void given_twice_or_already_there_kept_once(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, p;

	(void)state;
	p = patch(rv, &nr, 0, 0, 1, 1, 1, 1,
		  "topic\n\nbody\n\nAcked-by: rev iewer <REV@example.net>\nSigned-off-by: A U Thor <author@example.com>\n");
	reply(rv, &nr, p, "Rev Iewer", "rev@example.net",
	      "Acked-by: " REV "\nReviewed-by: rev@example.net (Rev Iewer)\n");
	reply(rv, &nr, p, "Rev Iewer", "rev@example.net", "Reviewed-by: " REV "\n");
	review_collect(rv, &p, 1, &opts);
	assert_items(rv, 0,
		     "= Acked-by: " REV " (" REV ", already in the patch)\n"
		     "+ Reviewed-by: rev@example.net (Rev Iewer) (" REV ")\n"
		     "= Reviewed-by: " REV " (" REV ", given twice)\n");
	review_free(rv);
}

static void some_kinds_or_none(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, p;

	(void)state;
	assert_int_equal(review_parse_take(&opts, "reviewed-by,Tested-by"), 0);
	assert_int_equal(opts.take, REVIEW_TAKE_SOME);
	p = patch(rv, &nr, 0, 0, 1, 1, 1, 1, NULL);
	reply(rv, &nr, p, "Rev Iewer", "rev@example.net",
	      "Acked-by: " REV "\nReviewed-by: " REV "\n");
	review_collect(rv, &p, 1, &opts);
	assert_items(rv, 0, "- Acked-by: " REV " (" REV ", not taken)\n"
		     "+ Reviewed-by: " REV " (" REV ")\n");
	review_free(rv);
	assert_int_equal(review_parse_take(&opts, "none"), 0);
	assert_int_equal(opts.take, REVIEW_TAKE_NONE);
	assert_int_equal(review_parse_take(&opts, "all"), 0);
	assert_int_equal(opts.take, REVIEW_TAKE_ALL);
	assert_int_equal(review_parse_take(&opts, "reviewed by"), -1);
	assert_int_equal(review_parse_take(&opts, "acked-by,"), -1);
	review_opts_release(&opts);
}

static void partial_reroll_keeps_reviews_of_unchanged_patches(void **state)
{
	struct review *rv = review_new();
	struct review_opts opts = REVIEW_OPTS_INIT;
	size_t nr = 0, c, p[3], r, applied[3];

	(void)state;
	c = cover(rv, &nr, 0, 4, 1, 3);
	for (int k = 1; k <= 3; k++)
		p[k - 1] = patch(rv, &nr, 0, 4, 1, k, 3, k, NULL);
	reply(rv, &nr, c, "Rev Iewer", "rev@example.net", "Reviewed-by: " REV "\n");
	/* v2 of patch 3 alone, in reply to v1 3/3 */
	r = patch(rv, &nr, 1, 4, 2, 3, 3, 33, NULL);
	applied[0] = p[0];
	applied[1] = p[1];
	applied[2] = r;
	review_collect(rv, applied, 3, &opts);
	assert_items(rv, 0, "+ Reviewed-by: " REV " (" REV ", on the cover letter)\n");
	assert_items(rv, 2, "- Reviewed-by: " REV " (" REV ", on the v1 cover letter, for v1 3/3, which changed in v2)\n");
	review_free(rv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replies_at_any_depth_give_to_the_patch),
		cmocka_unit_test(cover_letter_acks_go_to_every_patch_of_its_version),
		cmocka_unit_test(v1_reviews_carried_where_v2_did_not_change),
		cmocka_unit_test(a_patch_v2_dropped_is_unplaced),
		cmocka_unit_test(forged_trailers_are_flagged_unless_sloppy),
		cmocka_unit_test(given_twice_or_already_there_kept_once),
		cmocka_unit_test(some_kinds_or_none),
		cmocka_unit_test(partial_reroll_keeps_reviews_of_unchanged_patches),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
