/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libgit2 side of the commit store (see commit-store.h): which graph
 * git would use, and reading commits that are not in it from the object
 * database. Kept apart from commit-store.c so that a program reading
 * only the commit-graph need not be linked with libgit2.
 */
#include "commit-graph.h"
#include "commit-store.h"
#include "repo.h"
#include "strbuf.h"
#include "wrapper.h"

#include <stdlib.h>
#include <unistd.h>

struct odb_reader {
	git_repository *repo;
	git_odb *odb;
};

static int read_commit(void *ctx, const git_oid *oid, struct strbuf *text)
{
	struct odb_reader *r = ctx;
	git_odb_object *obj = NULL;
	char hex[GIT_OID_HEXSZ + 1];

	if (!r->odb &&
	    lg2_check(git_repository_odb(&r->odb, r->repo), "cannot open the object database") < 0)
		return -1;
	git_oid_tostr(hex, sizeof(hex), oid);
	if (lg2_check(git_odb_read(&obj, r->odb, oid), "cannot read commit '%s'", hex) < 0)
		return -1;
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(obj);
		return error("object '%s' is not a commit", hex);
	}
	strbuf_add(text, git_odb_object_data(obj), git_odb_object_size(obj));
	git_odb_object_free(obj);
	return 0;
}

static void free_reader(void *ctx)
{
	struct odb_reader *r = ctx;

	git_odb_free(r->odb);
	free(r);
}

static int graph_wanted(git_repository *repo)
{
	git_config *cfg = NULL;
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	const char *gitdir = git_repository_commondir(repo);
	struct strbuf path = STRBUF_INIT;
	int enabled = 1, v;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&v, cfg, "core.commitGraph") == 0)
			enabled = v;
		git_config_free(cfg);
	}
	/* git ignores the graph where parents may be rewritten. */
	strbuf_addf(&path, "%sshallow", gitdir);
	if (!access(path.buf, F_OK))
		enabled = 0;
	strbuf_reset(&path);
	strbuf_addf(&path, "%sinfo/grafts", gitdir);
	if (!access(path.buf, F_OK))
		enabled = 0;
	strbuf_release(&path);
	if (enabled && !getenv("GIT_NO_REPLACE_OBJECTS") &&
	    git_reference_iterator_glob_new(&it, repo, "refs/replace/*") == 0) {
		if (git_reference_next(&ref, it) == 0)
			enabled = 0;
		git_reference_free(ref);
		git_reference_iterator_free(it);
	}
	return enabled;
}

int commit_store_new(struct commit_store **out, git_repository *repo, int use_graph,
		     const char *cache_path)
{
	struct commit_store_reader reader = { read_commit, free_reader, NULL };
	struct odb_reader *r = xcalloc(1, sizeof(*r));
	struct commit_graph *graph = NULL;
	int is_cache = 0;

	r->repo = repo;
	reader.ctx = r;
	/* each commit is read once and kept in the store */
	repo_tune(REPO_USE_NO_CACHE);
	if (use_graph && graph_wanted(repo)) {
		struct strbuf objdir = STRBUF_INIT;

		strbuf_addf(&objdir, "%sobjects", git_repository_commondir(repo));
		if (commit_graph_open(&graph, objdir.buf) < 0) {
			warning("ignoring the commit-graph");
			graph = NULL;
		}
		strbuf_release(&objdir);
	}
	if (!graph && cache_path) {
		if (commit_graph_open_file(&graph, cache_path) < 0)
			graph = NULL;	/* a damaged cache is rebuilt later */
		is_cache = !!graph;
	}
	*out = commit_store_new_with(graph, is_cache, &reader);
	return 0;
}

