/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of git's delta format (common/repo/delta.c): every delta
 * delta_create() writes rebuilds its target exactly (delta_apply(), the
 * interpreter apply.c uses for "delta" binary patches), edits of the kind
 * a patch makes give small deltas, the size limit is kept, and corrupt
 * deltas are refused. The pushes of t07* check the deltas again with git
 * itself as the reader (index-pack on the server, then git fsck).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "delta.h"
#include "strbuf.h"

/* A deterministic generator, so a failure can be replayed. */
static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

static void insert(struct strbuf *sb, size_t at, const char *s, size_t len)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_add(&t, sb->buf, at);
	strbuf_add(&t, s, len);
	strbuf_add(&t, sb->buf + at, sb->len - at);
	strbuf_release(sb);
	*sb = t;
}

static void fill_text(struct strbuf *sb, size_t lines)
{
	for (size_t i = 0; i < lines; i++)
		strbuf_addf(sb, "line %u of the file: static int f%u(void) { return %u; }\n",
			    (unsigned)i, rnd() % 1000, rnd() % 97);
}

static void round_trip(const struct strbuf *src, const struct strbuf *dst, size_t *delta_len)
{
	struct strbuf delta = STRBUF_INIT, out = STRBUF_INIT;

	assert_int_equal(delta_create(&delta, src->buf, src->len, dst->buf, dst->len, 0), 0);
	assert_int_equal(delta_apply(&out, src->buf, src->len, delta.buf, delta.len), 0);
	assert_int_equal(out.len, dst->len);
	assert_memory_equal(out.buf, dst->buf, dst->len);
	if (delta_len)
		*delta_len = delta.len;
	strbuf_release(&delta);
	strbuf_release(&out);
}

static void edits_give_small_deltas(void **state)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
	size_t len;

	(void)state;
	fill_text(&src, 2000);
	/* a patch: a few lines changed, one added, one removed */
	strbuf_addbuf(&dst, &src);
	memcpy(dst.buf + 5000, "CHANGED", 7);
	insert(&dst, 40000, "a new line in the middle\n", 25);
	strbuf_remove(&dst, 80000, 60);
	memcpy(dst.buf + dst.len - 100, "END OF IT", 9);
	round_trip(&src, &dst, &len);
	assert_true(len < 300);
	/* the same file: a handful of copies */
	round_trip(&src, &src, &len);
	assert_true(len < 20);
	strbuf_release(&src);
	strbuf_release(&dst);
}

static void random_edits_round_trip(void **state)
{
	(void)state;
	for (int run = 0; run < 300; run++) {
		struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
		size_t n = rnd() % 5000;

		for (size_t i = 0; i < n; i++)
			strbuf_addch(&src, "abc\n\0xyz"[rnd() % 8]);
		strbuf_addbuf(&dst, &src);
		for (int e = rnd() % 10; e > 0 && dst.len; e--) {
			size_t at = rnd() % dst.len, k = rnd() % 64;

			if (rnd() % 2)
				strbuf_remove(&dst, at, k < dst.len - at ? k : dst.len - at);
			else
				insert(&dst, at, "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq", k);
		}
		round_trip(&src, &dst, NULL);
		round_trip(&dst, &src, NULL);
		strbuf_release(&src);
		strbuf_release(&dst);
	}
}

static void edge_cases(void **state)
{
	struct strbuf empty = STRBUF_INIT, one = STRBUF_INIT, big = STRBUF_INIT, same = STRBUF_INIT;

	(void)state;
	strbuf_addch(&one, 'x');
	round_trip(&empty, &empty, NULL);
	round_trip(&empty, &one, NULL);
	round_trip(&one, &empty, NULL);
	/* one byte repeated: every block in one bucket, probes bounded */
	for (int i = 0; i < 300000; i++)
		strbuf_addch(&same, 'a');
	round_trip(&same, &same, NULL);
	/* copies longer than one instruction holds (64 KiB) */
	for (int i = 0; i < 200000; i++)
		strbuf_addch(&big, (char)(rnd() & 0xff));
	round_trip(&big, &big, NULL);
	strbuf_release(&empty);
	strbuf_release(&one);
	strbuf_release(&big);
	strbuf_release(&same);
}

static void limit_is_kept(void **state)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT, delta = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < 4096; i++) {
		strbuf_addch(&src, (char)(rnd() & 0xff));
		strbuf_addch(&dst, (char)(rnd() & 0xff));
	}
	strbuf_addstr(&delta, "kept");
	/* unrelated data: the delta would be as long as the target */
	assert_int_equal(delta_create(&delta, src.buf, src.len, dst.buf, dst.len, dst.len / 2), 1);
	assert_string_equal(delta.buf, "kept");
	strbuf_release(&src);
	strbuf_release(&dst);
	strbuf_release(&delta);
}

static void corrupt_deltas_are_refused(void **state)
{
	struct strbuf out = STRBUF_INIT;
	/* source size 3, target size 2, then: */
	static const char zero_op[] = { 3, 2, 0 };		/* opcode 0 */
	static const char past_end[] = { 3, 2, (char)0x91, 2, 2 };	/* copy 2 bytes at 2 */
	static const char short_insert[] = { 3, 2, 5, 'a' };	/* insert 5, 1 given */
	static const char too_long[] = { 3, 2, 3, 'a', 'b', 'c' };	/* 3 bytes for 2 */
	static const char good[] = { 3, 2, (char)0x91, 1, 2 };	/* "bc" */

	(void)state;
	assert_int_equal(delta_apply(&out, "abc", 3, zero_op, sizeof(zero_op)), -1);
	assert_int_equal(delta_apply(&out, "abc", 3, past_end, sizeof(past_end)), -1);
	assert_int_equal(delta_apply(&out, "abc", 3, short_insert, sizeof(short_insert)), -1);
	assert_int_equal(delta_apply(&out, "abc", 3, too_long, sizeof(too_long)), -1);
	assert_int_equal(delta_apply(&out, "abcd", 4, good, sizeof(good)), -1);	/* another source */
	assert_int_equal(delta_apply(&out, "abc", 3, good, sizeof(good)), 0);
	assert_int_equal(out.len, 2);
	assert_memory_equal(out.buf, "bc", 2);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edits_give_small_deltas),
		cmocka_unit_test(random_edits_round_trip),
		cmocka_unit_test(edge_cases),
		cmocka_unit_test(limit_is_kept),
		cmocka_unit_test(corrupt_deltas_are_refused),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
