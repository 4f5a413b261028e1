/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "applied.h"
#include "apply.h"
#include "config.h"
#include "patch-id.h"
#include "patch.h"
#include "strbuf.h"
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
	size_t walked, depth;
	struct applied_commit *v;
	size_t nr, alloc;
	git_buf diff;
};

int applied_depth_config(const struct maint_config *cfg, size_t *out)
{
	const struct config_entry *e = config_get_entry(cfg, "queue", NULL, "applied-depth");
	unsigned long long v;
	char *end;

	*out = APPLIED_DEPTH;
	if (!e)
		return 0;
	errno = 0;
	v = *e->value >= '0' && *e->value <= '9' ? strtoull(e->value, &end, 10) : 0;
	if (*e->value < '0' || *e->value > '9' || errno || *end) {
		struct strbuf origin = STRBUF_INIT;

		config_entry_origin(&origin, e);
		error("%s: bad queue.applied-depth '%s' (a number of commits; 0: no limit)", origin.buf,
		      e->value);
		strbuf_release(&origin);
		return -1;
	}
	*out = v && v < SIZE_MAX ? (size_t)v : SIZE_MAX;
	return 0;
}

struct applied_index *applied_index_new(git_repository *repo, const git_oid *tip, const git_oid *stop,
					size_t depth)
{
	struct applied_index *ai = xcalloc(1, sizeof(*ai));

	ai->repo = repo;
	ai->depth = depth ? depth : SIZE_MAX;
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

/* A walk of ai's commits, newest first, into *walk. */
static int start_walk(struct applied_index *ai, git_revwalk **walk)
{
	if (lg2_check(git_revwalk_new(walk, ai->repo), "cannot walk the history") < 0 ||
	    lg2_check(git_revwalk_push(*walk, &ai->tip), "cannot walk the history") < 0)
		return -1;
	/* a stop that is not a commit here (a base the branch never had) hides nothing */
	if (ai->has_stop && git_revwalk_hide(*walk, &ai->stop) < 0)
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

	while (ai->walked < ai->depth) {
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

int applied_base_lookup(git_repository *repo, const char *base, git_oid *out)
{
	git_commit *c;
	int rc;

	if (strlen(base) != GIT_OID_HEXSZ || git_oid_fromstr(out, base) < 0) {
		git_error_clear();
		return 0;
	}
	if ((rc = git_commit_lookup(&c, repo, out)) == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC) {
		git_error_clear();
		return 0;
	}
	if (lg2_check(rc, "cannot read commit %s", base) < 0)
		return -1;
	git_commit_free(c);
	return 1;
}

int applied_base_held(git_repository *repo, const git_oid *tip, const char *base)
{
	git_oid oid;
	int rc = applied_base_lookup(repo, base, &oid);

	if (rc <= 0)
		return rc;
	if (git_oid_equal(&oid, tip))
		return 1;
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
	if (!ai->done && !ai->walk && start_walk(ai, &ai->walk) < 0)
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

/* Is ps applied at tree (apply_patch_is_applied() there)? 1, 0, -1 (reported). */
static int applied_at(struct applied_index *ai, const git_oid *tree, const struct patch_set *ps)
{
	struct apply_opts opts = APPLY_OPTS_INIT;
	struct apply_session *s;
	int rc;

	opts.check_only = 1;
	if (apply_session_new(&s, ai->repo, tree, &opts) < 0)
		return -1;
	rc = apply_patch_is_applied(s, ps);
	apply_session_free(s);
	return rc;
}

/* The entry at path of tree (NULL: none) into *oid, 1; 0 when there is none. */
static int entry_at(git_tree *tree, const char *path, git_oid *oid)
{
	git_tree_entry *te = NULL;

	if (!tree || !path || git_tree_entry_bypath(&te, tree, path) < 0) {
		git_error_clear();
		return 0;
	}
	git_oid_cpy(oid, git_tree_entry_id(te));
	git_tree_entry_free(te);
	return 1;
}

/* Does path differ between trees a and b (NULL: empty)? */
static int path_differs(git_tree *a, git_tree *b, const char *path)
{
	git_oid x, y;
	int hx = entry_at(a, path, &x), hy = entry_at(b, path, &y);

	return hx != hy || (hx && !git_oid_equal(&x, &y));
}

/* How many of the files of ps (by either of their names) differ between a and b. */
static size_t files_changed(const struct patch_set *ps, git_tree *a, git_tree *b)
{
	size_t n = 0;

	for (size_t i = 0; i < ps->nr; i++) {
		const struct file_patch *fp = &ps->files[i];

		n += (fp->old_path && path_differs(a, b, fp->old_path)) ||
		     (fp->new_path && path_differs(a, b, fp->new_path));
	}
	return n;
}

/*
 * A commit (not a merge) with tree, its parent's ptree (NULL for a root
 * commit), which changes some of ps's files: 0 when ps's change was
 * there before it; else 1 when it brought the change in, whole (it
 * changes every file of ps, and ps is applied at it), 2 when not (the
 * search stops: the change came in pieces, or by a merge); -1 on an
 * error (reported).
 */
static int brought_in(struct applied_index *ai, git_tree *tree, git_tree *ptree, const struct patch_set *ps)
{
	int rc = ptree ? applied_at(ai, git_tree_id(ptree), ps) : 0;

	if (rc)
		return rc < 0 ? -1 : 0;
	if (files_changed(ps, ptree, tree) < ps->nr)
		return 2;
	rc = applied_at(ai, git_tree_id(tree), ps);
	return rc < 0 ? -1 : rc ? 1 : 2;
}

int applied_index_find_change(struct applied_index *ai, const struct patch_set *ps, git_oid *out)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	size_t walked = 0;
	int rc = 0;

	if (start_walk(ai, &walk) < 0) {
		git_revwalk_free(walk);
		return -1;
	}
	while (!rc && walked++ < ai->depth && (rc = git_revwalk_next(&oid, walk)) != GIT_ITEROVER) {
		git_commit *c = NULL, *parent = NULL;
		git_tree *tree = NULL, *ptree = NULL;

		if (lg2_check(rc, "cannot walk the history") < 0 ||
		    lg2_check(git_commit_lookup(&c, ai->repo, &oid), "cannot read commit %s",
			      git_oid_tostr_s(&oid)) < 0 ||
		    lg2_check(git_commit_tree(&tree, c), "cannot read a tree") < 0 ||
		    (git_commit_parentcount(c) == 1 &&
		     (lg2_check(git_commit_parent(&parent, c, 0), "cannot read a parent") < 0 ||
		      lg2_check(git_commit_tree(&ptree, parent), "cannot read a tree") < 0))) {
			rc = -1;
		} else if (git_commit_parentcount(c) <= 1 && files_changed(ps, ptree, tree)) {
			rc = brought_in(ai, tree, ptree, ps);
			if (rc == 1)
				git_oid_cpy(out, &oid);
		} else {
			rc = 0;
		}
		git_tree_free(ptree);
		git_tree_free(tree);
		git_commit_free(parent);
		git_commit_free(c);
	}
	git_revwalk_free(walk);
	return rc == GIT_ITEROVER || rc == 2 ? 0 : rc;
}
