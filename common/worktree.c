#include "worktree.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>

#include <string.h>

int worktree_branch_state(git_repository *repo, const char *refname)
{
	git_reference *head = NULL, *branch = NULL;
	int ret = 0, rc;

	if (git_repository_is_bare(repo))
		return 0;
	rc = git_reference_lookup(&head, repo, "HEAD");
	if (rc == 0 && git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strcmp(git_reference_symbolic_target(head), refname)) {
		git_reference_free(head);
		return 1;
	}
	git_reference_free(head);
	rc = git_reference_lookup(&branch, repo, refname);
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (lg2_check(rc, "cannot read '%s'", refname) < 0)
		return -1;
	rc = git_branch_is_checked_out(branch);
	git_reference_free(branch);
	if (rc < 0)
		return lg2_check(rc, "cannot tell where '%s' is checked out", refname);
	if (rc) {
		error("'%s' is checked out in another worktree; queue from there", refname);
		ret = 2;
	}
	return ret;
}

int tree_changed_paths(struct strvec *out, git_repository *repo, const git_oid *a, const git_oid *b)
{
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	int ret = -1;

	/* Names only: no blob is read (no binary check, no rename detection). */
	opts.flags |= GIT_DIFF_SKIP_BINARY_CHECK;
	if (a && lg2_check(git_tree_lookup(&ta, repo, a), "cannot read tree") < 0)
		goto out;
	if (lg2_check(git_tree_lookup(&tb, repo, b), "cannot read tree") < 0)
		goto out;
	if (lg2_check(git_diff_tree_to_tree(&diff, repo, ta, tb, &opts), "cannot compare trees") < 0)
		goto out;
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strvec_push(out, d->new_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strvec_push(out, d->old_file.path);
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * libgit2 matches every file against every pathspec entry, so with many
 * paths a full status filtered here (sorted list, binary search) is
 * cheaper than a pathspec.
 */
#define PATHSPEC_MAX 64

int worktree_check_clean(git_repository *repo, const struct strvec *paths, const char *doing)
{
	git_status_options opts = GIT_STATUS_OPTIONS_INIT;
	git_status_list *list = NULL;
	struct strbuf sb = STRBUF_INIT;
	const char **sorted = NULL;
	size_t n;
	int ret = -1;

	if (!paths->nr)
		return 0;
	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
		     GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (paths->nr <= PATHSPEC_MAX) {
		opts.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
		opts.pathspec.strings = (char **)paths->v;
		opts.pathspec.count = paths->nr;
	} else {
		sorted = xmalloc(st_mult(paths->nr, sizeof(*sorted)));
		memcpy(sorted, paths->v, paths->nr * sizeof(*sorted));
		qsort(sorted, paths->nr, sizeof(*sorted), cmp_str);
	}
	if (lg2_check(git_status_list_new(&list, repo, &opts), "cannot read the work tree status") < 0)
		goto out;
	n = git_status_list_entrycount(list);
	for (size_t i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ? e->index_to_workdir : e->head_to_index;
		const char *path;

		if (!d)
			continue;
		path = d->new_file.path;
		if (sorted && !bsearch(&path, sorted, paths->nr, sizeof(*sorted), cmp_str))
			continue;
		strbuf_addf(&sb, "\n\t%s", path);
	}
	if (sb.len) {
		error("your local changes to these files would be overwritten by %s:%s\n"
		      "commit or stash them first", doing, sb.buf);
		ret = 1;
	} else {
		ret = 0;
	}
out:
	free(sorted);
	strbuf_release(&sb);
	git_status_list_free(list);
	return ret;
}

int worktree_sync(git_repository *repo, const git_oid *from, const git_oid *to,
		  const struct strvec *paths, int force)
{
	git_checkout_options opts = GIT_CHECKOUT_OPTIONS_INIT;
	git_tree *tfrom = NULL, *tto = NULL;
	int ret = -1;

	if (!paths->nr)
		return 0;
	if ((from && lg2_check(git_tree_lookup(&tfrom, repo, from), "cannot read tree") < 0) ||
	    lg2_check(git_tree_lookup(&tto, repo, to), "cannot read tree") < 0)
		goto out;
	opts.baseline = tfrom;
	if (force) {
		/* Forcing is limited to the paths, so other local changes survive. */
		opts.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
		opts.paths.strings = (char **)paths->v;
		opts.paths.count = paths->nr;
	} else {
		/*
		 * A safe checkout from the baseline touches only what differs
		 * between the two trees, which are the paths: no pathspec
		 * needed (libgit2 matches it against every file).
		 */
		opts.checkout_strategy = GIT_CHECKOUT_SAFE;
	}
	if (lg2_check(git_checkout_tree(repo, (git_object *)tto, &opts),
		      "cannot update the work tree") < 0)
		goto out;
	ret = 0;
out:
	git_tree_free(tfrom);
	git_tree_free(tto);
	return ret;
}
