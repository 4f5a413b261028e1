/* SPDX-License-Identifier: GPL-2.0-only */
#include "tree-changes.h"
#include "rename-score.h"
#include "renames.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* The added or deleted files of a diff, as renames.h names them. */
struct side_files {
	struct rename_file *v;
	size_t *delta;			/* each one's index in the diff */
	char (*hex)[GIT_OID_HEXSZ + 1];
	size_t nr;
};

struct odb_reader {
	git_repository *repo;
	git_odb *odb;
};

static int blob_size(void *data, const struct rename_file *f, uint64_t *size)
{
	struct odb_reader *r = data;
	git_object_t type;
	size_t len;
	git_oid id;

	if (lg2_check(git_oid_fromstr(&id, f->id), "bad object id '%s'", f->id) < 0 ||
	    lg2_check(git_odb_read_header(&len, &type, r->odb, &id), "cannot read '%s'", f->path) < 0)
		return -1;
	*size = len;
	return 0;
}

static int blob_content(void *data, const struct rename_file *f, struct strbuf *out)
{
	struct odb_reader *r = data;
	git_blob *blob = NULL;
	git_oid id;

	if (lg2_check(git_oid_fromstr(&id, f->id), "bad object id '%s'", f->id) < 0 ||
	    lg2_check(git_blob_lookup(&blob, r->repo, &id), "cannot read '%s'", f->path) < 0)
		return -1;
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

static void side_add(struct side_files *s, size_t i, const git_diff_file *f)
{
	git_oid_tostr(s->hex[s->nr], sizeof(s->hex[s->nr]), &f->id);
	s->v[s->nr].path = f->path;
	s->v[s->nr].mode = f->mode;
	s->v[s->nr].id = s->hex[s->nr];
	s->delta[s->nr] = i;
	s->nr++;
}

static void side_init(struct side_files *s, size_t max)
{
	s->v = xcalloc(max + 1, sizeof(*s->v));
	s->delta = xcalloc(max + 1, sizeof(*s->delta));
	s->hex = xcalloc(max + 1, sizeof(*s->hex));
	s->nr = 0;
}

static void side_release(struct side_files *s)
{
	free(s->v);
	free(s->delta);
	free(s->hex);
}

/* match[k]: what the k-th added file became (renames.h); none when nothing was deleted or added. */
static int pair_renames(struct tree_changes *tc, git_repository *repo, int limit, struct rename_match *match,
			struct side_files *gone, struct side_files *born)
{
	struct odb_reader r = { repo, NULL };
	struct rename_opts o = { RENAME_SCORE_DEFAULT_MIN, limit, blob_size, blob_content, &r };
	size_t n = git_diff_num_deltas(tc->diff), needed = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(tc->diff, i);

		if (d->status == GIT_DELTA_DELETED)
			side_add(gone, i, &d->old_file);
		else if (d->status == GIT_DELTA_ADDED)
			side_add(born, i, &d->new_file);
	}
	if (!gone->nr || !born->nr)
		return 0;
	if (lg2_check(git_repository_odb(&r.odb, repo), "cannot open the object database") < 0)
		return -1;
	ret = renames_find(match, gone->v, gone->nr, born->v, born->nr, &o, &needed);
	if (!ret && needed) {
		warning("exhaustive rename detection was skipped due to too many files.");
		warning("you may want to set your diff.renameLimit variable to at least %zu and retry the command.",
			needed);
	}
	git_odb_free(r.odb);
	return ret;
}

/* The changes in the diff's order, a deleted file that was renamed left out. */
static void list_changes(struct tree_changes *tc, const struct rename_match *match,
			 const struct side_files *gone, const struct side_files *born)
{
	size_t n = git_diff_num_deltas(tc->diff);
	unsigned char *renamed_away = xcalloc(n + 1, 1);
	size_t b = 0;

	for (size_t k = 0; k < born->nr; k++)
		if (match[k].src >= 0)
			renamed_away[gone->delta[match[k].src]] = 1;
	tc->v = xcalloc(n + 1, sizeof(*tc->v));
	for (size_t i = 0; i < n; i++) {
		struct tree_change *c = &tc->v[tc->nr];

		if (renamed_away[i])
			continue;
		c->delta = i;
		c->d = git_diff_get_delta(tc->diff, i);
		if (b < born->nr && born->delta[b] == i) {
			if (match[b].src >= 0) {
				c->from = git_diff_get_delta(tc->diff, gone->delta[match[b].src]);
				c->score = match[b].score;
			}
			b++;
		}
		tc->nr++;
	}
	free(renamed_away);
}

int tree_changes_find(struct tree_changes *out, git_repository *repo, git_tree *a, git_tree *b,
		      int rename_limit)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	struct side_files gone = { 0 }, born = { 0 };
	struct rename_match *match = NULL;
	size_t n;
	int ret = -1;

	opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
	if (lg2_check(git_diff_tree_to_tree(&out->diff, repo, a, b, &opts), "cannot compare the trees") < 0)
		return -1;
	n = git_diff_num_deltas(out->diff);
	side_init(&gone, n);
	side_init(&born, n);
	match = xcalloc(n + 1, sizeof(*match));
	for (size_t i = 0; i < n; i++)
		match[i].src = -1;
	if (pair_renames(out, repo, rename_limit, match, &gone, &born) < 0)
		goto done;
	list_changes(out, match, &gone, &born);
	ret = 0;
done:
	free(match);
	side_release(&gone);
	side_release(&born);
	return ret;
}

void tree_changes_release(struct tree_changes *tc)
{
	git_diff_free(tc->diff);
	free(tc->v);
	tc->diff = NULL;
	tc->v = NULL;
	tc->nr = 0;
}
