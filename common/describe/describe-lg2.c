/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libgit2 source of a describer (see describe-internal.h): refs
 * listed, tags peeled and commit-ishes resolved through libgit2, so
 * that every repository and every revision git accepts is answered.
 */
#include "describe-internal.h"
#include "commit-store.h"
#include "peel-cache.h"
#include "repo.h"
#include "strbuf.h"
#include "wrapper.h"

#include <ctype.h>
#include <string.h>

static int load_refs(struct describer *d)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	size_t alloc = 0;
	int rc;

	if (lg2_check(git_reference_iterator_new(&it, d->repo), "cannot list refs") < 0)
		return -1;
	while ((rc = git_reference_next(&ref, it)) == 0) {
		git_reference *resolved = NULL;
		const char *name = git_reference_name(ref);
		const git_oid *target = NULL;

		if (!starts_with(name, "refs/"))
			;
		else if (git_reference_type(ref) == GIT_REFERENCE_DIRECT)
			target = git_reference_target(ref);
		else if (git_reference_resolve(&resolved, ref) == 0)
			target = git_reference_target(resolved);	/* symbolic, as git follows */
		if (target) {
			struct tip *t;

			ALLOC_GROW(d->tips, d->tips_nr + 1, alloc);
			t = &d->tips[d->tips_nr++];
			memset(t, 0, sizeof(*t));
			t->refname = xstrdup(name);
			git_oid_cpy(&t->oid, target);
		}
		git_reference_free(resolved);
		git_reference_free(ref);
		ref = NULL;
	}
	git_reference_iterator_free(it);
	if (rc != GIT_ITEROVER)
		return lg2_check(rc, "cannot list refs");
	describer_sort_tips(d);
	return 0;
}

/* Peels as git's name_ref() does, reading tag objects. */
static int lg2_peel(struct describer *d, const git_oid *target, const char *refname,
		    uint32_t *id, int *deref, int64_t *taggerdate)
{
	git_object *obj = NULL;
	git_oid oid = *target;
	char hex[GIT_OID_HEXSZ + 1];

	*deref = 0;
	for (;;) {
		git_object_t type;
		const git_signature *tagger;

		if (commit_store_in_graph(d->store, &oid, id))
			break;
		git_object_free(obj);
		obj = NULL;
		if (git_object_lookup(&obj, d->repo, &oid, GIT_OBJECT_ANY) < 0) {
			warning("ref '%s' points at unreadable object %s", refname,
				git_oid_tostr(hex, sizeof(hex), &oid));
			return 1;
		}
		type = git_object_type(obj);
		if (type == GIT_OBJECT_COMMIT) {
			*id = commit_store_id(d->store, &oid);
			break;
		}
		if (type != GIT_OBJECT_TAG) {
			git_object_free(obj);
			if (d->cache) {	/* a tag of a tree or blob names no commit */
				struct peel_entry e = { .oid = *target };

				peel_cache_put(d->cache, &e);
			}
			return 1;
		}
		tagger = git_tag_tagger((git_tag *)obj);
		*taggerdate = tagger ? (int64_t)tagger->when.time : 0;
		*deref = 1;
		git_oid_cpy(&oid, git_tag_target_id((git_tag *)obj));
	}
	git_object_free(obj);
	return 0;
}

static int lg2_ref_exists(struct describer *d, const char *name)
{
	git_oid oid;

	return git_reference_name_to_id(&oid, d->repo, name) == 0;
}

static int is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int lg2_resolve(struct describer *d, const char *rev, git_oid *out)
{
	git_object *obj = NULL, *peeled = NULL;
	git_commit *commit = NULL;
	uint32_t id;
	int rc;

	if (strlen(rev) == GIT_OID_HEXSZ && is_hex(rev, GIT_OID_HEXSZ) &&
	    !git_oid_fromstr(out, rev)) {
		if (commit_store_in_graph(d->store, out, &id))
			return 0;
		if (git_object_lookup(&obj, d->repo, out, GIT_OBJECT_ANY) < 0)
			return error("not a valid revision '%s'", rev);
		rc = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
		git_object_free(obj);
		if (rc < 0)
			return error("'%s' is not a commit", rev);
		git_oid_cpy(out, git_object_id(peeled));
		git_object_free(peeled);
		return 0;
	}
	if (repo_lookup_commit(&commit, d->repo, rev) < 0)
		return -1;
	git_oid_cpy(out, git_commit_id(commit));
	git_commit_free(commit);
	return 0;
}

static const struct describe_source lg2_source = {
	lg2_peel, lg2_ref_exists, lg2_resolve, 1
};

int describer_new(struct describer **out, git_repository *repo,
		  const struct describe_options *opts)
{
	struct describer *d = describer_alloc(opts, &lg2_source, git_repository_commondir(repo));

	d->repo = repo;
	if (commit_store_new(&d->store, repo, opts->use_graph, d->graph_cache_path) < 0 ||
	    load_refs(d) < 0) {
		describer_free(d);
		return -1;
	}
	*out = d;
	return 0;
}
