/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of git's rename measure and pairing (common/mail/
 * rename-score.h, renames.h) against the numbers git 2.39 gives. Each
 * expected figure was read from `git diff -M --summary` on the same
 * contents, committed as a deleted and an added file (lines() below is
 * `echo "line $i of the file"` for i in a..b; changed() puts "changed
 * $i" in place of lines n..m of 1..20). t0750 asks git itself again, on
 * a pull request, each time it runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rename-score.h"
#include "renames.h"
#include "strbuf.h"

static void lines(struct strbuf *sb, int from, int to, const char *eol)
{
	for (int i = from; i <= to; i++)
		strbuf_addf(sb, "line %d of the file%s", i, eol);
}

static void changed(struct strbuf *sb, int n, int m, const char *word)
{
	for (int i = 1; i <= 20; i++) {
		if (i >= n && i <= m)
			strbuf_addf(sb, "%s %d\n", word, i);
		else
			strbuf_addf(sb, "line %d of the file\n", i);
	}
}

/* git's percentage for dst as a rename of src: rename_score() at the default minimum. */
static int percent(const struct strbuf *src, const struct strbuf *dst)
{
	struct chunk_counts a = CHUNK_COUNTS_INIT, b = CHUNK_COUNTS_INIT;
	int score;

	chunk_counts_of(&a, src->buf, src->len);
	chunk_counts_of(&b, dst->buf, dst->len);
	score = rename_score(&a, &b, RENAME_SCORE_DEFAULT_MIN);
	chunk_counts_release(&a);
	chunk_counts_release(&b);
	return rename_score_percent(score);
}

static void release2(struct strbuf *a, struct strbuf *b)
{
	strbuf_release(a);
	strbuf_release(b);
}

static void scores_are_gits(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	/* one line of twenty changed: 94% */
	lines(&a, 1, 20, "\n");
	changed(&b, 10, 10, "changed");
	assert_int_equal(percent(&a, &b), 94);
	release2(&a, &b);

	/* near the line: 49 of 100 lines changed 51%, 48 changed 52% */
	lines(&a, 1, 100, "\n");
	for (int i = 1; i <= 100; i++)
		strbuf_addf(&b, "%s %d of the file\n", i <= 49 ? "LINE" : "line", i);
	assert_int_equal(percent(&a, &b), 51);
	strbuf_reset(&b);
	for (int i = 1; i <= 100; i++)
		strbuf_addf(&b, "%s %d of the file\n", i <= 48 ? "LINE" : "line", i);
	assert_int_equal(percent(&a, &b), 52);
	release2(&a, &b);

	/* CRLF to LF: the CRs count in the size only, 95% */
	lines(&a, 1, 20, "\r\n");
	lines(&b, 1, 20, "\n");
	assert_int_equal(percent(&a, &b), 95);
	release2(&a, &b);

	/* the short unterminated last line is not counted: 4 of 5 bytes, 80% */
	strbuf_addstr(&a, "a\nb\nc");
	strbuf_addstr(&b, "a\nb\nd");
	assert_int_equal(percent(&a, &b), 80);
	release2(&a, &b);

	/* a long line is cut every 64 bytes: 192 of 201, 95% */
	strbuf_addchars(&a, 'x', 200);
	strbuf_addch(&a, '\n');
	strbuf_addchars(&b, 'x', 199);
	strbuf_addstr(&b, "y\n");
	assert_int_equal(percent(&a, &b), 95);
	release2(&a, &b);

	/* eleven of twenty lines left: 53%; nine: the sizes alone say no */
	lines(&a, 1, 20, "\n");
	lines(&b, 1, 11, "\n");
	assert_int_equal(percent(&a, &b), 53);
	strbuf_reset(&b);
	lines(&b, 1, 9, "\n");
	assert_int_equal(percent(&a, &b), 0);
	release2(&a, &b);
}

static void binary_content_keeps_its_crs(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	/* as text the CRs would not count (95% above); with a NUL, far under 50% (git: no rename) */
	strbuf_add(&a, "bin\0\r\n", 6);
	lines(&a, 1, 20, "\r\n");
	strbuf_add(&b, "bin\0\r\n", 6);
	lines(&b, 1, 20, "\n");
	assert_true(content_is_binary(a.buf, a.len));
	assert_true(percent(&a, &b) < 50);
	release2(&a, &b);
}

static void exact_figures(void **state)
{
	struct chunk_counts a = CHUNK_COUNTS_INIT, b = CHUNK_COUNTS_INIT;

	(void)state;
	chunk_counts_of(&a, "a\nb\nc", 5);
	chunk_counts_of(&b, "a\nb\nd", 5);
	assert_int_equal(a.nr, 2);	/* "a\n", "b\n"; "c" left out */
	assert_int_equal(rename_score(&a, &b, RENAME_SCORE_DEFAULT_MIN), 48000);
	assert_int_equal(rename_score_percent(59999), 99);
	assert_int_equal(rename_score_percent(RENAME_SCORE_MAX), 100);
	assert_true(rename_sizes_may_match(100, 50, RENAME_SCORE_DEFAULT_MIN));
	assert_false(rename_sizes_may_match(100, 49, RENAME_SCORE_DEFAULT_MIN));
	chunk_counts_release(&a);
	chunk_counts_release(&b);
}

/* ---- pairing: files in memory ---- */

#define MAX_FILES 4

struct fixture {
	const char *src_path[MAX_FILES], *dst_path[MAX_FILES];
	struct strbuf src[MAX_FILES], dst[MAX_FILES];
	size_t src_nr, dst_nr;
	struct rename_file rs[MAX_FILES], rd[MAX_FILES];
	char ids[2 * MAX_FILES][8];
	struct rename_match match[MAX_FILES];
};

static struct strbuf *src_file(struct fixture *fx, const char *path)
{
	fx->src_path[fx->src_nr] = path;
	strbuf_init(&fx->src[fx->src_nr], 0);
	return &fx->src[fx->src_nr++];
}

static struct strbuf *dst_file(struct fixture *fx, const char *path)
{
	fx->dst_path[fx->dst_nr] = path;
	strbuf_init(&fx->dst[fx->dst_nr], 0);
	return &fx->dst[fx->dst_nr++];
}

static const struct strbuf *content_of(struct fixture *fx, const struct rename_file *f)
{
	if (f >= fx->rs && f < fx->rs + MAX_FILES)
		return &fx->src[f - fx->rs];
	return &fx->dst[f - fx->rd];
}

static int mem_size(void *data, const struct rename_file *f, uint64_t *size)
{
	*size = content_of(data, f)->len;
	return 0;
}

static int mem_content(void *data, const struct rename_file *f, struct strbuf *out)
{
	const struct strbuf *c = content_of(data, f);

	strbuf_add(out, c->buf, c->len);
	return 0;
}

/* An id for a content: the place of the first file holding the same bytes. */
static const char *id_of(struct fixture *fx, const struct strbuf *c, size_t place)
{
	const struct strbuf *all[2 * MAX_FILES];
	size_t n = 0;

	for (size_t i = 0; i < fx->src_nr; i++)
		all[n++] = &fx->src[i];
	for (size_t i = 0; i < fx->dst_nr; i++)
		all[n++] = &fx->dst[i];
	for (size_t i = 0; i < n; i++) {
		if (all[i]->len == c->len && !memcmp(all[i]->buf, c->buf, c->len)) {
			snprintf(fx->ids[place], sizeof(fx->ids[place]), "%zu", i);
			break;
		}
	}
	return fx->ids[place];
}

static void run(struct fixture *fx, int limit, size_t *needed)
{
	struct rename_opts o = { RENAME_SCORE_DEFAULT_MIN, limit, mem_size, mem_content, fx };

	for (size_t i = 0; i < fx->src_nr; i++)
		fx->rs[i] = (struct rename_file){ fx->src_path[i], 0100644, id_of(fx, &fx->src[i], i) };
	for (size_t i = 0; i < fx->dst_nr; i++)
		fx->rd[i] = (struct rename_file){ fx->dst_path[i], 0100644,
						  id_of(fx, &fx->dst[i], MAX_FILES + i) };
	assert_int_equal(renames_find(fx->match, fx->rs, fx->src_nr, fx->rd, fx->dst_nr, &o, needed), 0);
}

static void fixture_release(struct fixture *fx)
{
	for (size_t i = 0; i < fx->src_nr; i++)
		strbuf_release(&fx->src[i]);
	for (size_t i = 0; i < fx->dst_nr; i++)
		strbuf_release(&fx->dst[i]);
}

static void assert_match(const struct fixture *fx, size_t dst, long src, int pct)
{
	assert_int_equal(fx->match[dst].src, src);
	if (src >= 0)
		assert_int_equal(rename_score_percent(fx->match[dst].score), pct);
}

/* git: " delete mode 100644 a/x.c", " rename {b => c}/y.c (100%)" */
static void same_content_prefers_the_file_name(void **state)
{
	struct fixture fx = { 0 };

	(void)state;
	lines(src_file(&fx, "a/x.c"), 1, 20, "\n");
	lines(src_file(&fx, "b/y.c"), 1, 20, "\n");
	lines(dst_file(&fx, "c/y.c"), 1, 20, "\n");
	run(&fx, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fx, 0, 1, 100);
	fixture_release(&fx);
}

/* git: " rename {a => b}/x.c (80%)", " delete mode 100644 z.c" (z.c scores 95%) */
static void same_file_name_first(void **state)
{
	struct fixture fx = { 0 };

	(void)state;
	changed(src_file(&fx, "a/x.c"), 1, 4, "changed");
	changed(src_file(&fx, "z.c"), 5, 5, "changed");
	lines(dst_file(&fx, "b/x.c"), 1, 20, "\n");
	run(&fx, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fx, 0, 0, 80);
	fixture_release(&fx);
}

/* git: " delete mode 100644 q.c", " rename p.c => r.c (95%)" */
static void the_higher_score_wins(void **state)
{
	struct fixture fx = { 0 };

	(void)state;
	changed(src_file(&fx, "p.c"), 5, 5, "changed");
	changed(src_file(&fx, "q.c"), 1, 8, "changed");
	lines(dst_file(&fx, "r.c"), 1, 20, "\n");
	run(&fx, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fx, 0, 0, 95);
	fixture_release(&fx);
}

/*
 * Two sources at 61%: git takes the one with the destination's file
 * name ("rename {a => c}/m.c (61%)"), else the first in path order
 * ("rename a/n.c => c/k.c (61%)").
 */
static void ties_go_to_the_name_then_the_order(void **state)
{
	struct fixture fx = { 0 }, fy = { 0 };

	(void)state;
	changed(src_file(&fx, "a/m.c"), 1, 8, "changed");
	changed(src_file(&fx, "b/n.c"), 1, 8, "CHANGED");
	lines(dst_file(&fx, "c/m.c"), 1, 20, "\n");
	run(&fx, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fx, 0, 0, 61);
	fixture_release(&fx);

	changed(src_file(&fy, "a/n.c"), 1, 8, "CHANGED");
	changed(src_file(&fy, "b/m.c"), 1, 8, "changed");
	lines(dst_file(&fy, "c/k.c"), 1, 20, "\n");
	run(&fy, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fy, 0, 0, 61);
	fixture_release(&fy);
}

/* One source, two look-alikes: git: " rename a.c => b.c (95%)", " create mode 100644 c.c" */
static void a_source_is_renamed_once(void **state)
{
	struct fixture fx = { 0 };

	(void)state;
	lines(src_file(&fx, "a.c"), 1, 20, "\n");
	changed(dst_file(&fx, "b.c"), 3, 3, "changed");
	changed(dst_file(&fx, "c.c"), 3, 4, "changed");
	run(&fx, RENAME_LIMIT_DEFAULT, NULL);
	assert_match(&fx, 0, 0, 95);
	assert_match(&fx, 1, -1, 0);
	fixture_release(&fx);
}

/* diff.renameLimit=1, two by two: nothing paired, "at least 2" */
static void over_the_limit_nothing_is_scored(void **state)
{
	struct fixture fx = { 0 };
	size_t needed;

	(void)state;
	changed(src_file(&fx, "a.c"), 1, 1, "changed");
	changed(src_file(&fx, "b.c"), 2, 2, "changed");
	lines(dst_file(&fx, "c.c"), 1, 20, "\n");
	changed(dst_file(&fx, "d.c"), 3, 3, "changed");
	run(&fx, 1, &needed);
	assert_match(&fx, 0, -1, 0);
	assert_match(&fx, 1, -1, 0);
	assert_int_equal(needed, 2);
	run(&fx, 0, &needed);	/* 0: no limit */
	assert_int_equal(needed, 0);
	assert_true(fx.match[0].src >= 0 && fx.match[1].src >= 0);
	fixture_release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scores_are_gits),
		cmocka_unit_test(binary_content_keeps_its_crs),
		cmocka_unit_test(exact_figures),
		cmocka_unit_test(same_content_prefers_the_file_name),
		cmocka_unit_test(same_file_name_first),
		cmocka_unit_test(the_higher_score_wins),
		cmocka_unit_test(ties_go_to_the_name_then_the_order),
		cmocka_unit_test(a_source_is_renamed_once),
		cmocka_unit_test(over_the_limit_nothing_is_scored),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
