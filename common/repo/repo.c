/* SPDX-License-Identifier: GPL-2.0-only */
#include "repo.h"
#include "gitdir.h"
#include "similar.h"
#include "strbuf.h"
#include "strvec.h"
#include "wrapper.h"

#include <dlfcn.h>
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

/*
 * libgit2 1.5 built with mbedTLS (Debian's) parses the system's whole CA
 * bundle in git_libgit2_init(): ~6 ms and a third of the start-up of a
 * command that never opens a connection, and only an https push reads
 * it. mbedTLS's file parser is defined here, so libgit2's call binds to
 * it (a program's definition comes before its libraries'): while
 * git_libgit2_init() runs it keeps the bundle's name and parses nothing
 * (libgit2's chain is then empty: an https push trusts nobody rather
 * than anybody), and repo_trust_certificates(NULL, NULL) has the bundle
 * parsed when a push needs it; any other time it is mbedTLS's own. A
 * libgit2 built with another TLS library never calls it.
 */
static int ca_bundle_deferring;
static char *ca_bundle_deferred;

struct mbedtls_x509_crt;
int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path)
{
	static int (*parse_file)(struct mbedtls_x509_crt *, const char *);

	if (ca_bundle_deferring) {
		free(ca_bundle_deferred);
		ca_bundle_deferred = xstrdup(path);
		return 0;
	}
	if (!parse_file)
		*(void **)&parse_file = dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
	if (!parse_file)
		return -0x2900;	/* MBEDTLS_ERR_X509_FILE_IO_ERROR: libgit2 reports it */
	return parse_file(chain, path);
}

void repo_global_init(void)
{
	int rc;

	if (libgit2_ready)
		return;
	ca_bundle_deferring = 1;
	rc = git_libgit2_init();
	ca_bundle_deferring = 0;
	if (rc < 0)
		die("cannot initialise libgit2");
	/* Packs and refs reach the disk before a ref names them, as git does. */
	if (lg2_check(git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1), "cannot enable fsync") < 0)
		die("cannot initialise libgit2");
	libgit2_ready = 1;
	at_cmd_return(repo_global_shutdown);
}

/* Packs mapped a 1 MiB window at a time, 8 MiB at most: a series' or the journal's packs and the big one. */
static int map_packs_by_window(void)
{
	int rc = git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)1 << 20);

	return rc ? rc : git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)8 << 20);
}

int repo_tune(enum repo_use use)
{
	int rc = 0;

	repo_global_init();
	switch (use) {
	case REPO_USE_SERIES:
		rc = git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)4 << 20);
		if (!rc)
			rc = map_packs_by_window();
		break;
	case REPO_USE_NOTES:
		rc = git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)64 << 10);
		if (!rc)
			rc = git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, (size_t)0);
		if (!rc)
			rc = git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)1 << 20);
		if (!rc)
			rc = map_packs_by_window();
		break;
	case REPO_USE_READ_ONLY:
		rc = git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
		break;
	case REPO_USE_NO_CACHE:
		rc = git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
		break;
	}
	return lg2_check(rc, "cannot set libgit2's caches");
}

void repo_check_index_objects(int on)
{
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, on);
}

int repo_trust_certificates(const char *file, const char *dir)
{
	if (!file && !dir) {
		if (!ca_bundle_deferred)
			return 0;
		file = ca_bundle_deferred;
	}
	return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, dir);
}

void repo_global_shutdown(void)
{
	if (!libgit2_ready)
		return;
	git_libgit2_shutdown();
	libgit2_ready = 0;
	free(ca_bundle_deferred);
	ca_bundle_deferred = NULL;
}

/*
 * Opens the git directory gitdir_discover() found, as it is: no search of
 * libgit2's own. A ".git" directory's work tree is its parent, a linked
 * worktree's the one its "gitdir" file names, a bare repository has none
 * (libgit2's reading, as git's); $GIT_WORK_TREE, when set, wins.
 */
static int open_found(git_repository **out, const char *gitdir)
{
	const char *worktree = getenv("GIT_WORK_TREE");
	int rc;

	repo_global_init();
	rc = git_repository_open_ext(out, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (lg2_check(rc, "cannot open repository '%s'", gitdir) < 0)
		return -1;
	if (worktree && *worktree &&
	    lg2_check(git_repository_set_workdir(*out, worktree, 0),
		      "cannot use the work tree '%s'", worktree) < 0) {
		git_repository_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int repo_open_if_any(git_repository **out)
{
	struct strbuf gitdir = STRBUF_INIT;
	int ret = 0;

	*out = NULL;
	if (!gitdir_discover(&gitdir, NULL))
		ret = open_found(out, gitdir.buf);
	strbuf_release(&gitdir);
	return ret;
}

int repo_open(git_repository **out)
{
	const char *env = getenv("GIT_DIR");

	if (repo_open_if_any(out) < 0)
		return -1;
	if (*out)
		return 0;
	if (env && *env)
		return error("not a git repository: '%s'", env);
	return error("not a git repository (or any of the parent directories)");
}

int repo_open_path(git_repository **out, const char *path)
{
	repo_global_init();
	return git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ? -1 : 0;
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
