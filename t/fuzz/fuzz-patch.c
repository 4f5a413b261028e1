/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the diff parser (common/mail/patch.c): the bytes after the
 * first are patch text, parsed with the -p value the first byte picks.
 * A parse that succeeds must give what patch.h promises:
 *  - every line points into the parser's copy of the input and hunk
 *    counts match the lines (' ' and '-' lines: old count, ' ' and '+':
 *    new count; leading and trailing context within the hunk);
 *  - old_path NULL exactly for a creation, new_path NULL exactly for a
 *    deletion, both set for a rename or a copy;
 *  - every path passes patch_path_check(), and C-quoting it gives one
 *    line;
 *  - binary hunks hold the size their header gives.
 * A parse that fails leaves the set disposed and says why; text without
 * a diff goes through patch_find_unsupported().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_path(const char *path)
{
	struct strbuf q = STRBUF_INIT;

	if (patch_path_check(path, NULL) < 0)
		abort();
	patch_quote_path(&q, path);
	if (memchr(q.buf, '\n', q.len))
		abort();
	strbuf_release(&q);
}

static void check_hunk(const struct patch_set *ps, const struct patch_hunk *h)
{
	unsigned long old = 0, new = 0;

	if (h->leading > h->nr || h->trailing > h->nr)
		abort();
	for (size_t i = 0; i < h->nr; i++) {
		const struct patch_line *l = &h->lines[i];

		if (l->text < ps->text || l->text + l->len > ps->text + ps->text_len)
			abort();
		if (l->op == ' ' || l->op == '-')
			old++;
		if (l->op == ' ' || l->op == '+')
			new++;
		if (l->op != ' ' && l->op != '-' && l->op != '+')
			abort();
	}
	if (old != h->old_count || new != h->new_count)
		abort();
}

static void check_binary(const struct binary_hunk *b)
{
	if (b->type != BINARY_NONE && b->data.len != b->size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_set ps = PATCH_SET_INIT;
	struct patch_parse_opts opts = PATCH_PARSE_OPTS_INIT;
	struct strbuf err = STRBUF_INIT;

	if (!size)
		return 0;
	opts.p_value = (int)(data[0] % 4) - 1;	/* -1 (default) to 2 */
	opts.origin = "fuzz";
	if (patch_parse(&ps, (const char *)data + 1, size - 1, &opts, &err) < 0) {
		if (ps.nr || ps.files || !err.len)
			abort();
		strbuf_reset(&err);
		patch_find_unsupported((const char *)data + 1, size - 1, &err);
		strbuf_release(&err);
		return 0;
	}
	for (size_t i = 0; i < ps.nr; i++) {
		const struct file_patch *fp = &ps.files[i];

		if (!fp->old_path != !!fp->is_new || !fp->new_path != !!fp->is_delete)
			abort();
		/*
		 * (both names, not necessarily different: git apply takes
		 * "rename from f" / "rename to f" as a no-op; a copy onto
		 * itself is the apply engine's to refuse, as git apply does)
		 */
		if ((fp->is_rename || fp->is_copy) && (!fp->old_path || !fp->new_path))
			abort();
		if (fp->old_path)
			check_path(fp->old_path);
		if (fp->new_path)
			check_path(fp->new_path);
		for (size_t j = 0; j < fp->hunk_nr; j++)
			check_hunk(&ps, &fp->hunks[j]);
		check_binary(&fp->forward);
		check_binary(&fp->reverse);
		if (!file_patch_name(fp))
			abort();
	}
	patch_set_dispose(&ps);
	strbuf_release(&err);
	return 0;
}
