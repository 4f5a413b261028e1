/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The notify engine's first half (see notify.h, notify-internal.h): which
 * commits, the branch and tree they are announced as, and what the
 * --after-push remotes have.
 */
#include "notify-internal.h"
#include "publish.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* ---- the branch and tree named in the mails ---- */

/* The one local branch other than work-<x> ending in -<x>: work-next -> usb-next. */
static char *public_by_naming(git_repository *repo, const char *work)
{
	const char *suffix = work + strlen("work");	/* "-next" */
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	char *found = NULL;
	int count = 0;

	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0)
		return NULL;
	while (git_branch_next(&ref, &type, it) == 0) {
		const char *name = NULL;

		if (!git_branch_name(&name, ref) && ends_with(name, suffix) &&
		    !starts_with(name, "work-") && strlen(name) > strlen(suffix)) {
			if (!count++)
				found = xstrdup(name);
		}
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	if (count != 1) {
		free(found);
		return NULL;
	}
	return found;
}

/*
 * For branch name: its tree and public branch (both allocated; tree may
 * stay NULL): [tree] when one names the branch, else the article's
 * naming (work-next -> the one *-next branch; usb-next -> tree "usb").
 */
static void resolve_branch(struct notify *n, const char *name, char **tree, char **public)
{
	const char *t = config_tree_for_branch(n->cfg, name);
	const char *dash;

	*tree = NULL;
	*public = NULL;
	if (t) {
		const char *p = config_get(n->cfg, "tree", t, "public");

		*tree = xstrdup(t);
		*public = xstrdup(p ? p : name);
		return;
	}
	if (starts_with(name, "work-"))
		*public = public_by_naming(n->repo, name);
	if (!*public)
		*public = xstrdup(name);
	dash = strrchr(*public, '-');
	if (dash && dash > *public && (!strcmp(dash, "-next") || !strcmp(dash, "-linus")))
		*tree = xstrndup(*public, dash - *public);
}

/* The repository's name, for a tree without a configured one. */
static char *repository_name(git_repository *repo)
{
	const char *dir = git_repository_workdir(repo);
	struct strbuf sb = STRBUF_INIT;
	const char *slash;

	strbuf_addstr(&sb, dir ? dir : git_repository_commondir(repo));
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (!dir && ends_with(sb.buf, "/.git"))
		strbuf_setlen(&sb, sb.len - 5);
	slash = strrchr(sb.buf, '/');
	if (slash)
		strbuf_remove(&sb, 0, slash + 1 - sb.buf);
	if (ends_with(sb.buf, ".git"))
		strbuf_setlen(&sb, sb.len - 4);
	return strbuf_detach(&sb, NULL);
}

/* The branch named in the mails: --branch, the range's only branch, or the current one. */
void notify_choose_branch(struct notify *n)
{
	const char *name = n->o->branch;
	char *current = NULL, *tip = NULL;

	if (!name && !n->o->use_stdin && n->o->nrevs == 1) {
		const char *dots = strstr(n->o->revs[0], "..");
		git_reference *ref = NULL;

		tip = xstrdup(dots ? dots + 2 : n->o->revs[0]);
		if (*tip && !git_branch_lookup(&ref, n->repo, tip, GIT_BRANCH_LOCAL))
			name = tip;
		git_reference_free(ref);
	}
	if (!name)
		name = current = repo_current_branch(n->repo);
	if (name) {
		resolve_branch(n, name, &n->tree, &n->branch);
	} else {
		n->branch = xstrdup("HEAD");
	}
	if (!n->tree)
		n->tree = repository_name(n->repo);
	if (n->tree) {
		n->repo_url = config_get(n->cfg, "tree", n->tree, "url");
		n->commit_url = config_get(n->cfg, "tree", n->tree, "commit-url");
	}
	free(current);
	free(tip);
}

/* ---- which commits ---- */

static int peel_commit(git_oid *out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL, *peeled = NULL;

	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return error("bad revision '%s'", rev);
	}
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(obj);
	git_object_free(peeled);
	return 0;
}

static int commits_from_stdin(struct notify *n, struct oid_list *l)
{
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	while (strbuf_getline(&line, stdin) != EOF) {
		strbuf_trim(&line);
		if (!line.len)
			continue;
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		if (memchr(line.buf, '\0', line.len) || peel_commit(&l->v[l->nr], n->repo, line.buf) < 0) {
			ret = -1;
			break;
		}
		l->nr++;
	}
	strbuf_release(&line);
	return ret;
}

static int walk_add(struct notify *n, git_revwalk *walk, const char *rev, int hide)
{
	git_oid id;

	if (peel_commit(&id, n->repo, rev) < 0)
		return -1;
	return lg2_check(hide ? git_revwalk_hide(walk, &id) : git_revwalk_push(walk, &id),
			 "cannot walk from '%s'", rev);
}

/* A range argument: "^A", "A..B", or "B". */
static int walk_range(struct notify *n, git_revwalk *walk, const char *rev)
{
	const char *dots = strstr(rev, "..");
	char *from;
	int ret;

	if (*rev == '^')
		return walk_add(n, walk, rev + 1, 1);
	if (!dots)
		return walk_add(n, walk, rev, 0);
	if (dots[2] == '.')
		return error("'%s': symmetric differences (A...B) are not supported", rev);
	from = xstrndup(rev, dots - rev);
	ret = walk_add(n, walk, *from ? from : "HEAD", 1);
	if (!ret)
		ret = walk_add(n, walk, dots[2] ? dots + 2 : "HEAD", 0);
	free(from);
	return ret;
}

/* The default range: the current work branch's commits that its public branch lacks. */
static int walk_default(struct notify *n, git_revwalk *walk)
{
	char *current = repo_current_branch(n->repo), *tree = NULL, *public = NULL;
	int ret = -1;

	if (!current)
		return error("HEAD is not on a branch: give a revision range");
	resolve_branch(n, current, &tree, &public);
	if (!strcmp(public, current)) {
		error("cannot tell which public branch '%s' is the work branch of", current);
		advise("configure it in [tree \"<name>\"] (git-maint(7)), or give a range such as public..%s",
		       current);
	} else {
		ret = walk_add(n, walk, public, 1);
		if (!ret)
			ret = walk_add(n, walk, current, 0);
	}
	free(current);
	free(tree);
	free(public);
	return ret;
}

int notify_collect_commits(struct notify *n, struct oid_list *l)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int rc, ret = -1;

	if (n->o->use_stdin)
		return commits_from_stdin(n, l);
	if (lg2_check(git_revwalk_new(&walk, n->repo), "cannot walk the history") < 0)
		return -1;
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	for (size_t i = 0; i < n->o->nrevs; i++)
		if (walk_range(n, walk, n->o->revs[i]) < 0)
			goto out;
	if (!n->o->nrevs && walk_default(n, walk) < 0)
		goto out;
	while ((rc = git_revwalk_next(&id, walk)) == 0) {
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		git_oid_cpy(&l->v[l->nr++], &id);
	}
	if (rc != GIT_ITEROVER && lg2_check(rc, "cannot walk the history") < 0)
		goto out;
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

/*
 * A configured remote: remote.<name>.url or .pushurl set. (Not
 * git_remote_lookup(): it matches the config with regexes, and libgit2
 * 1.5 leaks pcre2's match frames doing so.)
 */
static int remote_exists(struct notify *n, const char *name)
{
	struct strbuf key = STRBUF_INIT;
	char *v;
	int valid = 0;

	if (git_remote_name_is_valid(&valid, name) < 0 || !valid)
		return 0;
	strbuf_addf(&key, "remote.%s.url", name);
	v = config_git_string(n->cfg, key.buf);
	if (!v) {
		strbuf_reset(&key);
		strbuf_addf(&key, "remote.%s.pushurl", name);
		v = config_git_string(n->cfg, key.buf);
	}
	strbuf_release(&key);
	free(v);
	return v != NULL;
}

static int load_remote(struct notify *n, struct remote_tips *rt, const char *name)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	struct strbuf glob = STRBUF_INIT;
	int ret = -1;

	rt->name = xstrdup(name);
	if (!remote_exists(n, name)) {
		error("no remote '%s'", name);
		goto out;
	}
	strbuf_addf(&glob, "refs/remotes/%s/*", name);
	if (lg2_check(git_reference_iterator_glob_new(&it, n->repo, glob.buf),
		      "cannot list the branches of remote '%s'", name) < 0)
		goto out;
	while (git_reference_next(&ref, it) == 0) {
		git_object *obj = NULL;

		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
		    !git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT)) {
			ALLOC_GROW(rt->tips, rt->nr + 1, rt->alloc);
			git_oid_cpy(&rt->tips[rt->nr++], git_object_id(obj));
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	/* what publish pushed there counts, tracking ref or not (publish.h) */
	ALLOC_GROW(rt->tips, rt->nr + 1, rt->alloc);
	if (publish_recorded_push(n->repo, name, &rt->tips[rt->nr]))
		rt->nr++;
	if (!rt->nr) {
		error("remote '%s' has no remote-tracking branches (refs/remotes/%s/): cannot tell what it has",
		      name, name);
		goto out;
	}
	ret = 0;
out:
	git_reference_iterator_free(it);
	strbuf_release(&glob);
	return ret;
}

const char *notify_missing_on(struct notify *n, const git_oid *id)
{
	for (size_t r = 0; r < n->nremotes; r++) {
		struct remote_tips *rt = &n->remotes[r];
		size_t t;

		for (t = 0; t < rt->nr; t++)
			if (git_oid_equal(&rt->tips[t], id) ||
			    git_graph_descendant_of(n->repo, &rt->tips[t], id) == 1)
				break;
		if (t == rt->nr)
			return rt->name;
		if (t) {	/* the tip that has it will likely have the next one too */
			git_oid tmp = rt->tips[0];

			rt->tips[0] = rt->tips[t];
			rt->tips[t] = tmp;
		}
	}
	return NULL;
}

int notify_load_remotes(struct notify *n)
{
	n->remotes = xcalloc(n->o->after_push.nr ? n->o->after_push.nr : 1, sizeof(*n->remotes));
	for (size_t i = 0; i < n->o->after_push.nr; i++) {
		n->nremotes++;
		if (load_remote(n, &n->remotes[i], n->o->after_push.v[i]) < 0)
			return -1;
	}
	return 0;
}

void notify_remotes_release(struct notify *n)
{
	for (size_t i = 0; i < n->nremotes; i++) {
		free(n->remotes[i].name);
		free(n->remotes[i].tips);
	}
	free(n->remotes);
	n->remotes = NULL;
	n->nremotes = 0;
}
