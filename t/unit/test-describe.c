/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of describe's pieces: version order, the commit-graph reader and writer, the peel cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commit-graph.h"
#include "describe.h"
#include "peel-cache.h"
#include "strbuf.h"
#include "wrapper.h"

static char tmpdir[] = "/tmp/test-describe-XXXXXX";

static void version_order(void **state)
{
	static const char *sorted[] = {
		"v1.9", "v2", "v2.9", "v2.10", "v2.10.1", "v2.10a", "v2.45.0", "v3", "v10.0", NULL
	};
	size_t i, j;

	(void)state;
	for (i = 0; sorted[i]; i++)
		for (j = 0; sorted[j]; j++) {
			int c = natural_cmp(sorted[i], sorted[j]);

			if (i < j)
				assert_true(c < 0);
			else if (i > j)
				assert_true(c > 0);
			else
				assert_int_equal(c, 0);
		}
	assert_int_equal(natural_cmp("v01.2", "v1.2"), 0);
}

/* Six commits: a root, two children, a merge, an octopus of three, a tip. */
static void make_oid(unsigned char *oid, unsigned seed)
{
	unsigned i;

	for (i = 0; i < COMMIT_GRAPH_HASH_LEN; i++)
		oid[i] = (unsigned char)(seed * 37 + i * 11);
}

static char *write_sample(uint32_t *nr_out, unsigned char oids[6][COMMIT_GRAPH_HASH_LEN])
{
	/* positions are the order of oids; seeds chosen so that order is 0..5 */
	static const uint32_t p1[] = { 0 }, p2[] = { 0 }, p3[] = { 1, 2 }, p4[] = { 3, 1, 2 },
			      p5[] = { 4 };
	struct commit_graph_commit c[6];
	struct strbuf path = STRBUF_INIT;
	unsigned i;

	for (i = 0; i < 6; i++)
		make_oid(oids[i], i);
	memset(c, 0, sizeof(c));
	for (i = 0; i < 6; i++) {
		c[i].oid = oids[i];
		c[i].date = 1700000000 + i * 60;
	}
	c[0].level = 1;
	c[1].level = 2; c[1].nr_parents = 1; c[1].parents = p1;
	c[2].level = 2; c[2].nr_parents = 1; c[2].parents = p2;
	c[3].level = 3; c[3].nr_parents = 2; c[3].parents = p3;
	c[4].level = 4; c[4].nr_parents = 3; c[4].parents = p4;
	c[5].level = 5; c[5].nr_parents = 1; c[5].parents = p5;
	c[5].date = (int64_t)1 << 33;	/* needs the 34-bit date field */
	strbuf_addf(&path, "%s/graph", tmpdir);
	assert_int_equal(commit_graph_write_file(path.buf, c, 6), 0);
	*nr_out = 6;
	return strbuf_detach(&path, NULL);
}

static void graph_round_trip(void **state)
{
	unsigned char oids[6][COMMIT_GRAPH_HASH_LEN], missing[COMMIT_GRAPH_HASH_LEN];
	struct commit_graph *g = NULL;
	struct commit_graph_entry e;
	uint32_t nr, pos, *parents = NULL;
	size_t pnr = 0, palloc = 0;
	char *path = write_sample(&nr, oids);
	unsigned i;

	(void)state;
	assert_int_equal(commit_graph_open_file(&g, path), 0);
	assert_non_null(g);
	assert_int_equal(commit_graph_nr(g), nr);
	assert_int_equal(commit_graph_generation_version(g), 1);
	for (i = 0; i < 6; i++) {
		assert_int_equal(commit_graph_find(g, oids[i], &pos), 1);
		assert_int_equal(pos, i);
		assert_memory_equal(commit_graph_oid(g, pos), oids[i], COMMIT_GRAPH_HASH_LEN);
	}
	make_oid(missing, 99);
	assert_int_equal(commit_graph_find(g, missing, &pos), 0);

	assert_int_equal(commit_graph_read(g, 4, &e, &parents, &pnr, &palloc), 0);
	assert_int_equal(pnr, 3);
	assert_int_equal(parents[0], 3);
	assert_int_equal(parents[1], 1);
	assert_int_equal(parents[2], 2);
	assert_int_equal(e.generation, 4);
	assert_int_equal(e.date, 1700000000 + 4 * 60);
	pnr = 0;
	assert_int_equal(commit_graph_read(g, 0, &e, &parents, &pnr, &palloc), 0);
	assert_int_equal(pnr, 0);
	assert_int_equal(commit_graph_read(g, 5, &e, &parents, &pnr, &palloc), 0);
	assert_true(e.date == ((int64_t)1 << 33));
	free(parents);
	commit_graph_free(g);
	free(path);
}

static int open_damaged(const char *path, size_t keep, size_t at, const char *bytes, size_t len)
{
	struct strbuf buf = STRBUF_INIT;
	struct commit_graph *g = NULL;
	FILE *f;
	int rc;

	assert_true(strbuf_read_file(&buf, path, 0) > 0);
	if (keep < buf.len)
		strbuf_setlen(&buf, keep);
	if (bytes)
		memcpy(buf.buf + at, bytes, len);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(buf.buf, 1, buf.len, f);
	fclose(f);
	rc = commit_graph_open_file(&g, path);
	if (!rc) {
		/* opened: then every read must stay in bounds and may fail */
		struct commit_graph_entry e;
		uint32_t i, *parents = NULL;
		size_t pnr = 0, palloc = 0;

		for (i = 0; i < commit_graph_nr(g); i++) {
			if (commit_graph_read(g, i, &e, &parents, &pnr, &palloc) < 0)
				rc = -1;
			pnr = 0;
		}
		free(parents);
	}
	commit_graph_free(g);
	strbuf_release(&buf);
	return rc;
}

static void graph_damage_is_reported(void **state)
{
	unsigned char oids[6][COMMIT_GRAPH_HASH_LEN];
	uint32_t nr;
	char *path;
	struct commit_graph *g = (struct commit_graph *)1;

	(void)state;
	path = write_sample(&nr, oids);
	assert_int_equal(open_damaged(path, 30, 0, NULL, 0), -1);	/* truncated */
	free(path);
	path = write_sample(&nr, oids);
	assert_int_equal(open_damaged(path, SIZE_MAX, 0, "XXXX", 4), -1);	/* signature */
	free(path);
	path = write_sample(&nr, oids);
	/* first chunk offset far past the end */
	assert_int_equal(open_damaged(path, SIZE_MAX, 12, "\x7f\x00\x00\x00", 4), -1);
	free(path);
	path = write_sample(&nr, oids);
	/* the last fanout entry claims more commits than the chunks hold */
	assert_int_equal(open_damaged(path, SIZE_MAX, 8 + 5 * 12 + 255 * 4, "\x00\x00\x01\x00", 4), -1);
	free(path);
	path = write_sample(&nr, oids);
	/* commit 5's first parent points past the end of the graph */
	{
		size_t cdat = 8 + 5 * 12 + 256 * 4 + 6 * COMMIT_GRAPH_HASH_LEN;
		size_t p1 = cdat + 5 * (COMMIT_GRAPH_HASH_LEN + 16) + COMMIT_GRAPH_HASH_LEN;

		assert_int_equal(open_damaged(path, SIZE_MAX, p1, "\x00\x00\x00\x63", 4), -1);
	}
	/* a missing file is no graph, not an error */
	unlink(path);
	assert_int_equal(commit_graph_open_file(&g, path), 0);
	assert_null(g);
	free(path);
}

static void peel_cache_round_trip(void **state)
{
	struct strbuf path = STRBUF_INIT;
	struct peel_cache *c;
	struct peel_entry e;
	const struct peel_entry *got;
	FILE *f;

	(void)state;
	strbuf_addf(&path, "%s/maint/peel", tmpdir);
	c = peel_cache_load(path.buf);
	memset(&e, 0, sizeof(e));
	git_oid_fromstr(&e.oid, "1111111111111111111111111111111111111111");
	git_oid_fromstr(&e.commit, "2222222222222222222222222222222222222222");
	e.is_commit = 1;
	e.deref = 1;
	e.taggerdate = 0;
	e.commit_date = 1234567890;
	peel_cache_put(c, &e);
	git_oid_fromstr(&e.oid, "3333333333333333333333333333333333333333");
	e.is_commit = 0;
	peel_cache_put(c, &e);
	peel_cache_save(c, 0);
	peel_cache_free(c);

	c = peel_cache_load(path.buf);
	git_oid_fromstr(&e.oid, "1111111111111111111111111111111111111111");
	got = peel_cache_get(c, &e.oid);
	assert_non_null(got);
	assert_true(got->is_commit && got->deref);
	assert_int_equal(got->commit_date, 1234567890);
	assert_int_equal(got->taggerdate, 0);
	git_oid_fromstr(&e.oid, "3333333333333333333333333333333333333333");
	got = peel_cache_get(c, &e.oid);
	assert_non_null(got);
	assert_false(got->is_commit);
	peel_cache_save(c, 1);
	peel_cache_free(c);

	/* a damaged file is an empty cache */
	f = fopen(path.buf, "w");
	assert_non_null(f);
	fputs("# git-maint describe peel cache v1\n1111 zz\n", f);
	fclose(f);
	c = peel_cache_load(path.buf);
	git_oid_fromstr(&e.oid, "1111111111111111111111111111111111111111");
	assert_null(peel_cache_get(c, &e.oid));
	peel_cache_free(c);
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_order),
		cmocka_unit_test(graph_round_trip),
		cmocka_unit_test(graph_damage_is_reported),
		cmocka_unit_test(peel_cache_round_trip),
	};
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	if (!mkdtemp(tmpdir) || git_libgit2_init() < 0)
		return 1;
	cmocka_set_message_output(CM_OUTPUT_TAP);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	strbuf_addf(&cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd.buf))
		rc = 1;
	strbuf_release(&cmd);
	git_libgit2_shutdown();
	return rc;
}
