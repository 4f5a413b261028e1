/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attestation keys from a ref's tree (see attest-keys.h).
 */
#include "attest-keys.h"
#include "repo.h"

#include <git2.h>
#include <string.h>

/* The blob at path in tree into out, following one symbolic link; 0, or 1 when there is none. */
static int read_blob(git_repository *repo, git_tree *tree, const char *path, struct strbuf *out, int links)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int rc = 1;

	if (git_tree_entry_bypath(&e, tree, path) < 0 ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
		goto out;
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
		struct strbuf target = STRBUF_INIT;
		const char *slash = strrchr(path, '/');

		if (links) {
			if (slash)
				strbuf_add(&target, path, slash + 1 - path);
			strbuf_add(&target, git_blob_rawcontent(blob), git_blob_rawsize(blob));
			rc = read_blob(repo, tree, target.buf, out, links - 1);
		}
		strbuf_release(&target);
		goto out;
	}
	strbuf_reset(out);
	strbuf_add(out, git_blob_rawcontent(blob), git_blob_rawsize(blob));
	rc = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	return rc;
}

int attest_keys_read_ref(void *ctx, const char *repo_path, const char *ref, const char *path,
			 struct strbuf *out)
{
	git_repository *repo = ctx, *other = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	int rc = 1;

	if (repo_path && *repo_path) {
		if (repo_open_path(&other, repo_path) < 0)
			return 1;
		repo = other;
	}
	if (!repo || git_revparse_single(&obj, repo, ref ? ref : "HEAD") < 0 ||
	    git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0)
		goto out;
	rc = read_blob(repo, tree, path, out, 1);
out:
	git_tree_free(tree);
	git_object_free(obj);
	git_repository_free(other);
	return rc;
}
