/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>

#include "applied.h"
#include "patch-id.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

struct applied_commit {
	git_oid commit;
	unsigned char id[PATCH_ID_RAWSZ];
};

struct applied_index {
	git_repository *repo;
	git_oid tip, stop;
	int has_stop;
	git_revwalk *walk;	/* NULL until the first lookup, and when done */
	int done;		/* walked to the end or to the bound */
	size_t walked;
	struct applied_commit *v;
	size_t nr, alloc;
	git_buf diff;
};

struct applied_index *applied_index_new(git_repository *repo, const git_oid *tip, const git_oid *stop)
{
	struct applied_index *ai = xcalloc(1, sizeof(*ai));

	ai->repo = repo;
	git_oid_cpy(&ai->tip, tip);
	if (stop) {
		git_oid_cpy(&ai->stop, stop);
		ai->has_stop = 1;
	}
	return ai;
}

void applied_index_free(struct applied_index *ai)
{
	if (!ai)
		return;
	git_revwalk_free(ai->walk);
	git_buf_dispose(&ai->diff);
	free(ai->v);
	free(ai);
}

static int start_walk(struct applied_index *ai)
{
	if (lg2_check(git_revwalk_new(&ai->walk, ai->repo), "cannot walk the history") < 0 ||
	    lg2_check(git_revwalk_push(ai->walk, &ai->tip), "cannot walk the history") < 0)
		return -1;
	/* a stop that is not a commit here (a base the branch never had) hides nothing */
	if (ai->has_stop && git_revwalk_hide(ai->walk, &ai->stop) < 0)
		git_error_clear();
	return 0;
}

/* Commit c's patch id into id: 0, 1 when it changes nothing, -1 on an error. */
static int commit_patch_id(struct applied_index *ai, git_commit *c, unsigned char *id)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_diff_find_options fo = GIT_DIFF_FIND_OPTIONS_INIT;
	git_commit *parent = NULL;
	git_tree *old = NULL, *new = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	opts.flags = GIT_DIFF_INDENT_HEURISTIC | GIT_DIFF_SHOW_BINARY;
	opts.id_abbrev = GIT_OID_HEXSZ;
	fo.flags = GIT_DIFF_FIND_RENAMES;
	if ((git_commit_parentcount(c) &&
	     lg2_check(git_commit_parent(&parent, c, 0), "cannot read a parent of %s",
		       git_oid_tostr_s(git_commit_id(c))) < 0) ||
	    (parent && lg2_check(git_commit_tree(&old, parent), "cannot read a tree") < 0) ||
	    lg2_check(git_commit_tree(&new, c), "cannot read a tree") < 0 ||
	    lg2_check(git_diff_tree_to_tree(&diff, ai->repo, old, new, &opts), "cannot compare the trees") < 0 ||
	    lg2_check(git_diff_find_similar(diff, &fo), "cannot find renames") < 0 ||
	    lg2_check(git_diff_to_buf(&ai->diff, diff, GIT_DIFF_FORMAT_PATCH), "cannot write a diff") < 0)
		goto out;
	ret = patch_id_stable(id, ai->diff.ptr, ai->diff.size);
out:
	git_diff_free(diff);
	git_tree_free(old);
	git_tree_free(new);
	git_commit_free(parent);
	return ret;
}

/* The next commit's id into ai->v: 1 when one was added, 0 at the end, -1 on an error. */
static int walk_one(struct applied_index *ai)
{
	git_oid oid;
	git_commit *c;
	int rc;

	while (ai->walked < APPLIED_DEPTH) {
		if ((rc = git_revwalk_next(&oid, ai->walk)) == GIT_ITEROVER)
			break;
		if (lg2_check(rc, "cannot walk the history") < 0 ||
		    lg2_check(git_commit_lookup(&c, ai->repo, &oid), "cannot read commit %s",
			      git_oid_tostr_s(&oid)) < 0)
			return -1;
		ai->walked++;
		if (git_commit_parentcount(c) > 1) {
			git_commit_free(c);
			continue;
		}
		ALLOC_GROW(ai->v, ai->nr + 1, ai->alloc);
		rc = commit_patch_id(ai, c, ai->v[ai->nr].id);
		git_commit_free(c);
		if (rc < 0)
			return -1;
		if (rc)
			continue;	/* an empty commit */
		git_oid_cpy(&ai->v[ai->nr++].commit, &oid);
		return 1;
	}
	ai->done = 1;
	return 0;
}

int applied_base_held(git_repository *repo, const git_oid *tip, const char *base)
{
	git_oid oid;
	git_commit *c;
	int rc;

	if (strlen(base) != GIT_OID_HEXSZ || git_oid_fromstr(&oid, base) < 0) {
		git_error_clear();
		return 0;
	}
	if (git_oid_equal(&oid, tip))
		return 1;
	if ((rc = git_commit_lookup(&c, repo, &oid)) == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (lg2_check(rc, "cannot read commit %s", base) < 0)
		return -1;
	git_commit_free(c);
	rc = git_graph_descendant_of(repo, tip, &oid);
	return rc < 0 ? lg2_check(rc, "cannot walk the history") : rc;
}

int applied_index_find(struct applied_index *ai, const char *text, size_t len, git_oid *out)
{
	unsigned char id[PATCH_ID_RAWSZ];
	int rc;

	if (patch_id_stable(id, text, len))
		return 0;	/* no diff: nothing to find */
	for (size_t i = 0; i < ai->nr; i++)
		if (!memcmp(ai->v[i].id, id, PATCH_ID_RAWSZ)) {
			git_oid_cpy(out, &ai->v[i].commit);
			return 1;
		}
	if (!ai->done && !ai->walk && start_walk(ai) < 0)
		return -1;
	while (!ai->done) {
		if ((rc = walk_one(ai)) <= 0)
			return rc;
		if (!memcmp(ai->v[ai->nr - 1].id, id, PATCH_ID_RAWSZ)) {
			git_oid_cpy(out, &ai->v[ai->nr - 1].commit);
			return 1;
		}
	}
	return 0;
}
