/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the apply engine (common/repo/apply.c) against a small tree
 * (t/fuzz/fuzz-repo.h). The input is a knobs byte, then parts cut at NUL
 * bytes: the first is the content of the file "f" of the base tree, the
 * next ones (at most four) patch texts applied one after the other in
 * one session, so later patches see what earlier ones did. The knobs
 * pick -3, the fuzz factor, check-only, and whether the resulting tree is
 * written. After every patch:
 *  - the result prints in both report formats, porcelain records one
 *    line each;
 *  - the overlay (apply_session_changes()) is sorted, without a path
 *    twice, and holds only paths patch_path_check() accepts and modes
 *    git writes; a conflicted patch's changes the same;
 *  - a patch that did not apply changed nothing;
 * and a written tree holds only such paths and modes too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "fuzz-repo.h"
#include "patch.h"
#include "strbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_repo_init();
	return 0;
}

static int mode_ok(unsigned mode)
{
	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE ||
	       mode == GIT_FILEMODE_LINK;
}

static void check_changes(const struct apply_change *c, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (patch_path_check(c[i].path, NULL) < 0 || (!c[i].deleted && !mode_ok(c[i].mode)))
			abort();
		if (i && strcmp(c[i - 1].path, c[i].path) >= 0)
			abort();
	}
}

static void same_changes(const struct apply_change *a, size_t na, const struct apply_change *b,
			 size_t nb)
{
	if (na != nb)
		abort();
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].path, b[i].path) || a[i].deleted != b[i].deleted)
			abort();
}

static void check_print(const struct apply_result *res)
{
	struct strbuf out = STRBUF_INIT;
	size_t records = 0, lines = 0;

	apply_result_print(&out, res, APPLY_PRINT_HUMAN, NULL, 1);
	strbuf_reset(&out);
	apply_result_print(&out, res, APPLY_PRINT_PORCELAIN, "t\t1\t", 0);
	for (size_t i = 0; i < out.len; i++)
		lines += out.buf[i] == '\n';
	records = res->error ? 1 : res->nr;
	for (size_t i = 0; !res->error && i < res->nr; i++)
		records += res->files[i].hunk_nr;
	if (lines != records)
		abort();
	strbuf_release(&out);
}

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct strbuf *path = payload;
	git_filemode_t mode = git_tree_entry_filemode(e);

	strbuf_reset(path);
	strbuf_addstr(path, root);
	strbuf_addstr(path, git_tree_entry_name(e));
	if (patch_path_check(path->buf, NULL) < 0 ||
	    (mode != GIT_FILEMODE_TREE && !mode_ok(mode)))
		abort();
	return 0;
}

static void check_tree(const git_oid *oid)
{
	git_tree *tree;
	struct strbuf path = STRBUF_INIT;

	fuzz_check(git_tree_lookup(&tree, fuzz_repo, oid));
	fuzz_check(git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &path));
	git_tree_free(tree);
	strbuf_release(&path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct apply_opts opts = APPLY_OPTS_INIT;
	struct apply_session *s;
	const char *p, *end, *nul;
	unsigned char knobs;
	git_oid base;
	int patches = 0;

	if (!size)
		return 0;
	knobs = data[0];
	p = (const char *)data + 1;
	end = (const char *)data + size;
	opts.three_way = knobs & 1;
	opts.fuzz = (knobs >> 1) & 3;
	opts.check_only = (knobs & 0x18) == 0x18;

	nul = memchr(p, '\0', end - p);
	fuzz_repo_tree(&base, "f", p, nul ? (size_t)(nul - p) : (size_t)(end - p));
	fuzz_check(apply_session_new(&s, fuzz_repo, &base, &opts));
	while (nul && patches++ < 4) {
		struct patch_set ps = PATCH_SET_INIT;
		struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
		struct apply_result res = APPLY_RESULT_INIT;
		struct strbuf err = STRBUF_INIT;
		struct apply_change *before = NULL, *after = NULL;
		size_t nbefore = 0, nafter = 0;

		p = nul + 1;
		nul = memchr(p, '\0', end - p);
		popts.origin = "fuzz";
		if (apply_session_changes(s, &before, &nbefore) < 0)
			abort();
		if (patch_parse(&ps, p, nul ? (size_t)(nul - p) : (size_t)(end - p), &popts, &err) < 0) {
			apply_result_set_error(&res, err.buf);
		} else if (apply_patch(s, &ps, &res) < 0) {
			/* an internal error: reported, the session goes on */
		}
		check_print(&res);
		if (apply_session_changes(s, &after, &nafter) < 0)
			abort();
		check_changes(after, nafter);
		if (!res.ok)
			same_changes(before, nbefore, after, nafter);
		free(before);
		free(after);
		if (res.conflicts) {
			struct apply_change *c = NULL;
			size_t nc = 0;

			if (apply_session_conflicts(s, &c, &nc) < 0)
				abort();
			check_changes(c, nc);
			free(c);
		}
		apply_result_dispose(&res);
		patch_set_dispose(&ps);
		strbuf_release(&err);
	}
	if (knobs & 0x20) {
		git_oid tree;

		if (apply_session_write_tree(&tree, s, NULL) < 0)
			abort();
		check_tree(&tree);
	}
	apply_session_free(s);
	fuzz_repo_reset();
	return 0;
}
