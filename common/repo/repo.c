/* SPDX-License-Identifier: GPL-2.0-only */
#include "repo.h"
#include "similar.h"
#include "strbuf.h"
#include "strvec.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

int lg2_check(int rc, const char *fmt, ...)
{
	const git_error *e;
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (rc >= 0)
		return rc;
	e = git_error_last();
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s: %s", msg.buf, e && e->message ? e->message : "unknown libgit2 error");
	strbuf_release(&msg);
	return -1;
}

int lg2_last_error(struct strbuf *msg)
{
	const git_error *e = git_error_last();

	strbuf_addstr(msg, e && e->message ? e->message : "unknown libgit2 error");
	return e ? e->klass : GIT_ERROR_NONE;
}

static int libgit2_ready;

void repo_global_init(void)
{
	if (libgit2_ready)
		return;
	if (git_libgit2_init() < 0)
		die("cannot initialise libgit2");
	libgit2_ready = 1;
	at_cmd_return(repo_global_shutdown);
}

void repo_global_shutdown(void)
{
	if (!libgit2_ready)
		return;
	git_libgit2_shutdown();
	libgit2_ready = 0;
}

int repo_open(git_repository **out)
{
	const char *gitdir = getenv("GIT_DIR");
	int rc;

	repo_global_init();
	if (gitdir)
		rc = git_repository_open(out, gitdir);
	else
		rc = git_repository_open_ext(out, ".", 0, getenv("GIT_CEILING_DIRECTORIES"));
	if (rc == GIT_ENOTFOUND)
		return error("not a git repository (or any of the parent directories)");
	return lg2_check(rc, "cannot open repository");
}

git_repository *repo_open_or_die(void)
{
	git_repository *repo;

	if (repo_open(&repo) < 0)
		exit(EXIT_FATAL);
	return repo;
}

int repo_lookup_commit(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int rc;

	rc = git_revparse_single(&obj, repo, rev);
	if (rc == GIT_ENOTFOUND) {
		/* libgit2's "revspec '<rev>' not found" says it again */
		error("not a valid revision '%s'", rev);
		repo_advise_similar_branches(repo, rev);
		return -1;
	}
	if (rc == GIT_EAMBIGUOUS || rc == GIT_EINVALIDSPEC) {
		git_object_free(obj);
		return lg2_check(rc, "not a valid revision '%s'", rev);
	}
	if (lg2_check(rc, "cannot resolve '%s'", rev) < 0)
		return -1;
	rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	return lg2_check(rc, "'%s' is not a commit", rev);
}

void repo_advise_similar_branches(git_repository *repo, const char *typed)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	struct strvec names = STRVEC_INIT, similar = STRVEC_INIT;
	struct strbuf hint = STRBUF_INIT;

	/* a hint only: a branch list that cannot be read gives none */
	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0)
		return;
	while (!git_branch_next(&ref, &type, it)) {
		const char *name;

		if (!git_branch_name(&name, ref))
			strvec_push(&names, name);
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	similar_names(&similar, typed, names.v, names.nr);
	if (similar.nr) {
		strbuf_addstr(&hint, similar.nr == 1 ? "the most similar branch is" :
				     "the most similar branches are");
		for (size_t i = 0; i < similar.nr; i++)
			strbuf_addf(&hint, "\n\t%s", similar.v[i]);
		advise("%s", hint.buf);
	}
	strbuf_release(&hint);
	strvec_clear(&similar);
	strvec_clear(&names);
}

char *repo_current_branch(git_repository *repo)
{
	git_reference *head = NULL;
	char *ret = NULL;
	const char *name;

	if (git_reference_lookup(&head, repo, "HEAD") < 0)
		return NULL;
	if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    skip_prefix(git_reference_symbolic_target(head), "refs/heads/", &name))
		ret = xstrdup(name);
	git_reference_free(head);
	return ret;
}
