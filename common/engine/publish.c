/* SPDX-License-Identifier: GPL-2.0-only */
#include "publish.h"
#include "ident.h"
#include "color.h"
#include "hook.h"
#include "in-progress.h"
#include "objwrite.h"
#include "precheck.h"
#include "push.h"
#include "queue.h"
#include "refstep.h"
#include "repo.h"
#include "run-command.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum publish_kind { KIND_UP_TO_DATE, KIND_FAST_FORWARD, KIND_MERGE };

/* The colours of the --dry-run plan: color.maint-publish.<slot> (color.h says when). */
enum plan_slot { PLAN_HEADING, PLAN_COMMIT, PLAN_SLOTS };
static const struct color_slot plan_slot_defaults[PLAN_SLOTS] = {
	{ "heading", "bold", "" },	/* "Would publish 'work-next' to 'usb-next'" */
	{ "commit", "yellow", "" },	/* each commit's id, as git log colours it */
};
static const char *const kind_names[] = { "up-to-date", "fast-forward", "merge" };

struct publish {
	git_repository *repo;
	const struct maint_config *cfg;
	struct state_lock *lock;
	char *dir;
	char *tree;
	char *work, *public;		/* full ref names */
	struct strvec remotes;
	struct strvec pushed;		/* the remotes that have 'after' */
	int notify;			/* still to run */
	int notify_reverts;		/* with --revert */
	/*
	 * The mails of earlier publishes of the branch that still wait (their
	 * server deferred them), carried_before..carried_after: notified with
	 * this publish's, so they hold no later publish back.
	 */
	int carried;
	git_oid carried_before, carried_after;
	int quiet;
	int timeout;
	struct precheck_opts checks;
	const char *build_cmd;
	struct color_slot colors[PLAN_SLOTS];	/* of the --dry-run plan */

	enum publish_kind kind;
	git_oid work_tip, before, after;
	git_oid *commits;		/* public..work, oldest first */
	size_t nr, alloc;

	struct objwrite ow;		/* the merge's objects until the step */
	int ow_open;
	struct strbuf reflog;
};

static void publish_init(struct publish *p, git_repository *repo, const struct maint_config *cfg,
			 struct state_lock *lock)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->colors, plan_slot_defaults, sizeof(p->colors));	/* no colour until copy_opts() */
	p->repo = repo;
	p->cfg = cfg;
	p->lock = lock;
	p->dir = state_dir_path(repo, "publish");
	strvec_init(&p->remotes);
	strvec_init(&p->pushed);
	strbuf_init(&p->reflog, 0);
	p->ow = (struct objwrite)OBJWRITE_INIT;
}

static void publish_release(struct publish *p)
{
	if (p->ow_open)
		objwrite_end(&p->ow);
	free(p->dir);
	free(p->tree);
	free(p->work);
	free(p->public);
	strvec_clear(&p->remotes);
	strvec_clear(&p->pushed);
	free(p->commits);
	strbuf_release(&p->reflog);
}

static const char *short_ref(const char *ref)
{
	skip_prefix(ref, "refs/heads/", &ref);
	return ref;
}

static char *hex(char *buf, const git_oid *oid)
{
	return git_oid_tostr(buf, GIT_OID_HEXSZ + 1, oid);
}

static char *abbrev(char *buf, const git_oid *oid)
{
	return git_oid_tostr(buf, 8, oid);
}

/* ---- state ---- */

static void join_words(struct strbuf *sb, const struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, sv->v[i]);
	}
}

static void split_words(struct strvec *sv, const char *s)
{
	while (s && *s) {
		const char *end = strchrnul(s, ' ');

		if (end > s)
			strvec_push_mem(sv, s, end - s);
		s = *end ? end + 1 : end;
	}
}

static int save_state(struct publish *p, const char *crash_label)
{
	struct strbuf sb = STRBUF_INIT, words = STRBUF_INIT;
	int ret;

	/* Created here, at the first state written: a run stopped before leaves nothing. */
	if (!state_dir_exists(p->dir) && state_dir_create(p->dir) < 0)
		return -1;
	state_kv_add(&sb, "version", "1");
	if (p->tree)
		state_kv_add(&sb, "tree", p->tree);
	state_kv_add(&sb, "work", p->work);
	state_kv_add(&sb, "public", p->public);
	state_kv_add_oid(&sb, "before", &p->before);
	state_kv_add_oid(&sb, "after", &p->after);
	state_kv_add(&sb, "kind", kind_names[p->kind]);
	join_words(&words, &p->remotes);
	state_kv_add(&sb, "remotes", words.buf);
	strbuf_setlen(&words, 0);
	join_words(&words, &p->pushed);
	state_kv_add(&sb, "pushed", words.buf);
	state_kv_addf(&sb, "notify", "%d", p->notify);
	state_kv_addf(&sb, "reverts", "%d", p->notify_reverts);
	if (p->carried) {
		state_kv_add_oid(&sb, "carried-before", &p->carried_before);
		state_kv_add_oid(&sb, "carried-after", &p->carried_after);
	}
	state_kv_addf(&sb, "timeout", "%d", p->timeout);
	state_kv_addf(&sb, "quiet", "%d", p->quiet);
	ret = state_write(p->dir, "state", &sb, crash_label);
	strbuf_release(&words);
	strbuf_release(&sb);
	return ret;
}

static int damaged(const struct publish *p)
{
	return error("the publish state in '%s' cannot be used; "
		     "run 'git maint-publish --abort' to clear it", p->dir);
}

static int load_state(struct publish *p)
{
	struct strbuf sb = STRBUF_INIT;
	char *kind = NULL, *words = NULL;
	long notify, timeout, quiet;
	int rc, ret = -1, has_after;

	rc = state_read(p->dir, "state", &sb);
	if (rc > 0)
		error("'%s' holds no publish state (a publish killed while starting?)", p->dir);
	if (rc)
		goto bad;
	p->tree = state_kv_get(&sb, "tree");
	p->work = state_kv_get(&sb, "work");
	p->public = state_kv_get(&sb, "public");
	if (!p->work || !p->public || !starts_with(p->public, "refs/heads/")) {
		error("publish state names no branches");
		goto bad;
	}
	/* a state written before "reverts" was: notify as it would have */
	words = state_kv_get(&sb, "reverts");
	p->notify_reverts = words && !strcmp(words, "1");
	free(words);
	words = NULL;
	if (state_kv_get_oid(&sb, "publish", "before", &p->before, NULL) ||
	    state_kv_get_oid(&sb, "publish", "after", &p->after, NULL) ||
	    state_kv_get_long(&sb, "publish", "notify", &notify, NULL) ||
	    state_kv_get_long(&sb, "publish", "timeout", &timeout, NULL) ||
	    state_kv_get_long(&sb, "publish", "quiet", &quiet, NULL) ||
	    state_kv_get_oid(&sb, "publish", "carried-before", &p->carried_before, &p->carried) ||
	    state_kv_get_oid(&sb, "publish", "carried-after", &p->carried_after, &has_after) ||
	    p->carried != has_after)
		goto bad;
	p->notify = notify;
	p->timeout = timeout;
	p->quiet = quiet;
	kind = state_kv_get(&sb, "kind");
	p->kind = ARRAY_SIZE(kind_names);
	for (size_t i = 0; kind && i < ARRAY_SIZE(kind_names); i++)
		if (!strcmp(kind, kind_names[i]))
			p->kind = i;
	if (p->kind == ARRAY_SIZE(kind_names)) {
		error("publish state: no valid 'kind'");
		goto bad;
	}
	words = state_kv_get(&sb, "remotes");
	split_words(&p->remotes, words);
	free(words);
	words = state_kv_get(&sb, "pushed");
	split_words(&p->pushed, words);
	ret = 0;
	goto out;
bad:
	damaged(p);
out:
	free(kind);
	free(words);
	strbuf_release(&sb);
	return ret;
}

/* ---- plan ---- */

static int read_branch(struct publish *p, const char *ref, git_oid *oid)
{
	int exists;

	if (refstep_read(p->repo, ref, oid, &exists) < 0)
		return -1;
	if (!exists)
		return error("no branch '%s'", short_ref(ref));
	return 0;
}

/* The commits public..work, oldest first. */
static int list_commits(struct publish *p)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	int rc, ret = -1;

	if (lg2_check(git_revwalk_new(&walk, p->repo), "cannot walk the history") < 0)
		return -1;
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (lg2_check(git_revwalk_push(walk, &p->work_tip), "cannot walk '%s'", short_ref(p->work)) < 0 ||
	    lg2_check(git_revwalk_hide(walk, &p->before), "cannot walk '%s'", short_ref(p->public)) < 0)
		goto out;
	while ((rc = git_revwalk_next(&oid, walk)) == 0) {
		ALLOC_GROW(p->commits, p->nr + 1, p->alloc);
		git_oid_cpy(&p->commits[p->nr++], &oid);
	}
	if (rc != GIT_ITEROVER && lg2_check(rc, "cannot walk '%s'", short_ref(p->work)) < 0)
		goto out;
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

static enum maint_result report_conflicts(struct publish *p, git_index *index)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;

	error("'%s' does not merge cleanly into '%s'; nothing was changed",
	      short_ref(p->work), short_ref(p->public));
	if (lg2_check(git_index_conflict_iterator_new(&it, index), "cannot list the conflicts") < 0)
		return -1;
	while (git_index_conflict_next(&anc, &ours, &theirs, it) == 0) {
		const git_index_entry *e = ours ? ours : theirs ? theirs : anc;

		say(stderr, "conflict: %s", e->path);
	}
	git_index_conflict_iterator_free(it);
	advise("merge '%s' into '%s' yourself (git merge), or fix '%s', then publish again",
	       short_ref(p->public), short_ref(p->work), short_ref(p->work));
	return RESULT_NO;
}

static int write_merge_commit(struct publish *p, git_index *index)
{
	git_oid tree_id;
	git_tree *tree = NULL;
	git_commit *parents[2] = { NULL, NULL };
	git_signature *sig = NULL;
	struct strbuf ident = STRBUF_INIT, msg = STRBUF_INIT;
	int ret = -1;

	if (lg2_check(git_index_write_tree_to(&tree_id, index, p->repo), "cannot write the merged tree") < 0 ||
	    lg2_check(git_tree_lookup(&tree, p->repo, &tree_id), "cannot read the merged tree") < 0 ||
	    lg2_check(git_commit_lookup(&parents[0], p->repo, &p->before), "cannot read '%s'",
		      short_ref(p->public)) < 0 ||
	    lg2_check(git_commit_lookup(&parents[1], p->repo, &p->work_tip), "cannot read '%s'",
		      short_ref(p->work)) < 0)
		goto out;
	if (ident_committer(&ident, p->cfg) < 0)
		goto out;
	if (lg2_check(git_signature_from_buffer(&sig, ident.buf), "bad committer '%s'", ident.buf) < 0)
		goto out;
	strbuf_addf(&msg, "Merge branch '%s' into %s\n", short_ref(p->work), short_ref(p->public));
	if (lg2_check(git_commit_create(&p->after, p->repo, NULL, sig, sig, NULL, msg.buf, tree, 2,
					(const git_commit **)parents), "cannot write the merge commit") < 0)
		goto out;
	ret = 0;
out:
	git_signature_free(sig);
	git_commit_free(parents[0]);
	git_commit_free(parents[1]);
	git_tree_free(tree);
	strbuf_release(&ident);
	strbuf_release(&msg);
	return ret;
}

/*
 * The merge, in memory: every object it makes (merged blobs, trees, the
 * commit) goes into the open object batch, on disk only at the step.
 */
static enum maint_result plan_merge(struct publish *p)
{
	git_commit *ours = NULL, *theirs = NULL;
	git_index *index = NULL;
	git_merge_options mopts = GIT_MERGE_OPTIONS_INIT;
	enum maint_result ret = RESULT_FATAL;

	if (lg2_check(git_commit_lookup(&ours, p->repo, &p->before), "cannot read '%s'",
		      short_ref(p->public)) < 0 ||
	    lg2_check(git_commit_lookup(&theirs, p->repo, &p->work_tip), "cannot read '%s'",
		      short_ref(p->work)) < 0)
		goto out;
	if (lg2_check(git_merge_commits(&index, p->repo, ours, theirs, &mopts), "cannot merge '%s' into '%s'",
		      short_ref(p->work), short_ref(p->public)) < 0)
		goto out;
	if (git_index_has_conflicts(index)) {
		ret = report_conflicts(p, index);
		goto out;
	}
	ret = write_merge_commit(p, index);
out:
	git_index_free(index);
	git_commit_free(ours);
	git_commit_free(theirs);
	return ret;
}

static enum maint_result run_checks(struct publish *p)
{
	struct trailer_conf tc = TRAILER_CONF_INIT;
	struct strbuf check_keys = STRBUF_INIT;	/* "tree.usb" or "publish", as git config names them */
	enum maint_result ret;

	if (!p->checks.signoff && !p->checks.fixes)
		return RESULT_OK;
	trailer_conf_load(&tc, p->cfg);
	p->checks.trailers = &tc;
	ret = precheck_commits(p->repo, p->commits, p->nr, &p->checks);
	p->checks.trailers = NULL;
	trailer_conf_release(&tc);
	if (ret == RESULT_NO) {
		if (p->tree)
			strbuf_addf(&check_keys, "tree.%s", p->tree);
		else
			strbuf_addstr(&check_keys, "publish");
		error("the checks failed; nothing was changed");
		advise("mend the commits on '%s' (they are not public yet), or turn the check off "
		       "(%s.check-signoff, %s.check-fixes)", short_ref(p->work), check_keys.buf, check_keys.buf);
	}
	strbuf_release(&check_keys);
	return ret;
}

/* The tree's build command, in the work tree where the work branch is checked out. */
static enum maint_result run_build(struct publish *p)
{
	struct strbuf env = STRBUF_INIT;
	const char *envv[2];
	const char *dir = git_repository_workdir(p->repo);
	char *head = repo_current_branch(p->repo);
	enum maint_result ret = RESULT_FATAL;
	int rc;

	if (!dir || !head || strcmp(head, short_ref(p->work))) {
		error("--build runs in the work tree of '%s'; check it out first", short_ref(p->work));
		goto out;
	}
	strbuf_addf(&env, "GIT_MAINT_BRANCH=%s", short_ref(p->work));
	envv[0] = env.buf;
	envv[1] = NULL;
	rc = hook_run(p->build_cmd, dir, NULL, 0, envv);
	if (rc < 0)
		goto out;
	ret = RESULT_OK;
	if (rc) {
		error("the build failed (exit %d); nothing was changed", rc);
		ret = RESULT_NO;
	}
out:
	free(head);
	strbuf_release(&env);
	return ret;
}

/* Moving a checked-out branch would leave its work tree behind: publish never checks one out. */
static int refuse_checked_out(struct publish *p)
{
	git_reference *ref = NULL;
	int rc;

	if (lg2_check(git_reference_lookup(&ref, p->repo, p->public), "cannot read '%s'",
		      short_ref(p->public)) < 0)
		return -1;
	rc = git_branch_is_checked_out(ref);
	git_reference_free(ref);
	if (lg2_check(rc, "cannot tell where '%s' is checked out", short_ref(p->public)) < 0)
		return -1;
	if (rc)
		return error("'%s' is checked out; publish moves it without a work tree, "
			     "so check out '%s' first", short_ref(p->public), short_ref(p->work));
	return 0;
}

static enum maint_result plan(struct publish *p)
{
	enum maint_result checked;
	int rc;

	if (read_branch(p, p->work, &p->work_tip) < 0 || read_branch(p, p->public, &p->before) < 0 ||
	    refuse_checked_out(p) < 0)
		return -1;
	git_oid_cpy(&p->after, &p->before);
	if (list_commits(p) < 0)
		return -1;
	checked = run_checks(p);
	if (checked != RESULT_OK)
		return checked;
	if (!p->nr) {
		p->kind = KIND_UP_TO_DATE;
		return 0;
	}
	rc = git_graph_descendant_of(p->repo, &p->work_tip, &p->before);
	if (lg2_check(rc, "cannot compare '%s' and '%s'", short_ref(p->work), short_ref(p->public)) < 0)
		return -1;
	if (rc) {
		p->kind = KIND_FAST_FORWARD;
		git_oid_cpy(&p->after, &p->work_tip);
		strbuf_addf(&p->reflog, "maint-publish: fast-forward to %s", short_ref(p->work));
		return 0;
	}
	p->kind = KIND_MERGE;
	strbuf_addf(&p->reflog, "maint-publish: merge %s", short_ref(p->work));
	if (objwrite_begin(&p->ow, p->repo) < 0)
		return -1;
	p->ow_open = 1;
	return plan_merge(p);
}

/*
 * One line of the plan on stdout: its head (up to head_len bytes) in
 * code, the rest plain, the whole neutralised as say() neutralises.
 */
PRINTF(4, 5) static void plan_line(const char *code, size_t head_len, int whole, const char *fmt, ...)
{
	struct strbuf line = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&line, fmt, ap);
	va_end(ap);
	strbuf_setlen(&line, neutralise_controls(line.buf, line.len));
	if (whole || head_len > line.len)
		head_len = line.len;
	color_add(&out, code, line.buf, head_len);
	strbuf_add(&out, line.buf + head_len, line.len - head_len);
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&line);
	strbuf_release(&out);
}

/* Each commit: its id in the commit colour (as git log's), its subject. */
static void print_commits(struct publish *p)
{
	const char *code = p->colors[PLAN_COMMIT].code;

	for (size_t i = 0; i < p->nr; i++) {
		git_commit *c = NULL;
		char h[GIT_OID_HEXSZ + 1];

		abbrev(h, &p->commits[i]);
		if (git_commit_lookup(&c, p->repo, &p->commits[i]) < 0) {
			plan_line(code, 2 + strlen(h), 1, "  %s", h);
			continue;
		}
		plan_line(code, 2 + strlen(h), 0, "  %s %s", h, git_commit_summary(c));
		git_commit_free(c);
	}
}

static void notify_argv(struct strvec *argv, const struct publish *p)
{
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];

	strvec_push(argv, "git-maint-notify");
	strvec_push(argv, "--send");
	if (p->quiet)
		strvec_push(argv, "-q");	/* --quiet is the whole run's: no "Sent" lines either */
	if (p->notify_reverts)
		strvec_push(argv, "--revert");
	for (size_t i = 0; i < p->remotes.nr; i++) {
		strvec_push(argv, "--after-push");
		strvec_push(argv, p->remotes.v[i]);
	}
	/*
	 * One range (two would be one: git's ranges exclude what any of them
	 * excludes): the carried mails' commits are this publish's 'before'
	 * or its ancestors, as a public branch is never rewritten.
	 */
	if (p->carried && !p->notify)
		strvec_pushf(argv, "%s..%s", hex(a, &p->carried_before), hex(b, &p->carried_after));
	else
		strvec_pushf(argv, "%s..%s", hex(a, p->carried ? &p->carried_before : &p->before),
			     hex(b, &p->after));
}

static int wants_notify(const struct publish *p)
{
	return p->carried || (p->notify && !git_oid_equal(&p->before, &p->after));
}

/* " a b c" of words, or " none". */
static void add_words_of(struct strbuf *out, const struct strvec *words)
{
	for (size_t i = 0; i < words->nr; i++)
		strbuf_addf(out, " %s", words->v[i]);
	if (!words->nr)
		strbuf_addstr(out, " none");
}

/* --dry-run: the plan is the command's output, on stdout. */
static void print_plan(struct publish *p)
{
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
	struct strvec argv = STRVEC_INIT;
	struct strbuf words = STRBUF_INIT;

	plan_line(p->colors[PLAN_HEADING].code, 0, 1, "Would publish '%s' to '%s'%s%s%s",
		  short_ref(p->work), short_ref(p->public),
		  p->tree ? " (tree '" : "", p->tree ? p->tree : "", p->tree ? "')" : "");
	say(stdout, "Commits: %zu", p->nr);
	print_commits(p);
	switch (p->kind) {
	case KIND_UP_TO_DATE:
		say(stdout, "Update: none, '%s' is up to date", short_ref(p->public));
		break;
	case KIND_FAST_FORWARD:
		say(stdout, "Update: fast-forward %s..%s", abbrev(a, &p->before), abbrev(b, &p->after));
		break;
	case KIND_MERGE:
		say(stdout, "Update: merge commit of '%s' into '%s' (no conflicts)", short_ref(p->work),
		    short_ref(p->public));
		break;
	}
	if (p->checks.signoff || p->checks.fixes)
		say(stdout, "Checks: %s%s%s passed", p->checks.signoff ? "signoff" : "",
		    p->checks.signoff && p->checks.fixes ? ", " : "", p->checks.fixes ? "fixes" : "");
	if (p->build_cmd)
		say(stdout, "Build: %s (not run with --dry-run)", p->build_cmd);
	add_words_of(&words, &p->remotes);
	say(stdout, "Push:%s", words.buf);
	if (wants_notify(p)) {
		notify_argv(&argv, p);
		strbuf_reset(&words);
		add_words_of(&words, &argv);
		say(stdout, "Notify:%s", words.buf);
	} else {
		say(stdout, "Notify: no");
	}
	strvec_clear(&argv);
	strbuf_release(&words);
}

/* ---- the step ---- */

static int step_write_objects(void *data)
{
	struct publish *p = data;

	return p->ow_open ? objwrite_flush(&p->ow) : 0;
}

static int step_save_state(void *data, enum refstep_phase phase, const char *crash_label)
{
	struct publish *p = data;

	/* One state serves both phases: 'after' says where the branch goes. */
	return phase == REFSTEP_STARTED ? save_state(p, crash_label) : 0;
}

static int run_step(struct publish *p, int finishing)
{
	struct refstep_move move = { .ref = p->public, .has_old = 1 };
	struct refstep step = { .repo = p->repo, .lock = p->lock, .name = "publish",
				.moves = &move, .nr = 1, .write_objects = step_write_objects,
				.save_state = step_save_state, .data = p };

	if (git_oid_equal(&p->before, &p->after))
		return 0;
	git_oid_cpy(&move.old, &p->before);
	git_oid_cpy(&move.new, &p->after);
	if (!p->reflog.len)
		strbuf_addstr(&p->reflog, "maint-publish: finish interrupted step");
	move.reflog = p->reflog.buf;
	return finishing ? refstep_finish(&step) : refstep_run(&step);
}

/* What happened to the public branch, on stdout as git merge says it. */
static void say_step(struct publish *p)
{
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];

	if (p->quiet)
		return;
	switch (p->kind) {
	case KIND_UP_TO_DATE:
		say(stdout, "'%s' is up to date with '%s'", short_ref(p->public), short_ref(p->work));
		break;
	case KIND_FAST_FORWARD:
		say(stdout, "%s: fast-forward %s..%s (%zu commit%s)", short_ref(p->public),
		    abbrev(a, &p->before), abbrev(b, &p->after), p->nr, p->nr == 1 ? "" : "s");
		break;
	case KIND_MERGE:
		say(stdout, "%s: merged '%s' as %s (%zu commit%s)", short_ref(p->public),
		    short_ref(p->work), abbrev(b, &p->after), p->nr, p->nr == 1 ? "" : "s");
		break;
	}
}

/* ---- the remotes ---- */

static enum maint_result push_failed(const char *remote, const struct push_result *res)
{
	error("push to '%s': %s (%s)", remote, push_outcome_name(res->outcome), res->reason.buf);
	return push_outcome_result(res->outcome);
}

/* The remote's copy must be one the new tip descends from: anything else would be lost. */
static int remote_behind(struct publish *p, const struct push_result *res)
{
	return !res->has_remote_old || git_oid_equal(&res->remote_old, &p->after) ||
	       git_graph_descendant_of(p->repo, &p->after, &res->remote_old) == 1;
}

static enum maint_result refuse_moved_on(struct publish *p, const char *remote,
					 const struct push_result *res, int changed)
{
	char h[GIT_OID_HEXSZ + 1];

	error("push to '%s': rejected (non-fast-forward: its '%s' is at %s, which '%s' here does not hold)%s",
	      remote, short_ref(p->public), abbrev(h, &res->remote_old), short_ref(p->public),
	      changed ? "" : "; nothing was changed");
	if (changed)
		advise("fetch from '%s' and merge its '%s' into '%s'; then 'git maint-publish --abort' "
		       "and publish again; nothing is forced", remote, short_ref(p->public),
		       short_ref(p->work));
	else
		advise("fetch from '%s', merge its '%s' into '%s', and publish again; nothing is forced",
		       remote, short_ref(p->public), short_ref(p->work));
	return RESULT_NO;
}

static void fill_push_opts(struct publish *p, struct push_opts *o, const char *remote)
{
	o->remote = remote;
	o->ref = p->public;
	o->timeout = p->timeout;
	o->cfg = p->cfg;
	o->quiet = p->quiet;
}

/*
 * The remote holds 'after' (it took the push, or had it already): its
 * remote-tracking ref follows and the state records it, so that notify's
 * --after-push finds it either way (publish_recorded_push()).
 */
static int mark_pushed(struct publish *p, const char *remote)
{
	char point[256];

	if (push_track(p->repo, p->cfg, p->lock, remote, p->public, &p->after) < 0)
		return RESULT_FATAL;
	strvec_push(&p->pushed, remote);
	if (save_state(p, NULL) < 0)
		return -1;
	snprintf(point, sizeof(point), "publish-after-push:%s", remote);
	crash_point(point);
	return 0;
}

/*
 * One remote: connected (conn and res already, for the first remote of
 * a new publish, else here), checked, pushed, recorded.
 */
static enum maint_result push_one(struct publish *p, const char *remote, struct push_conn *conn,
				  struct push_result *res)
{
	struct push_opts o = { 0 };
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];

	fill_push_opts(p, &o, remote);
	if (!conn && push_connect(&conn, p->repo, &o, res) < 0)
		return push_failed(remote, res);
	/* each remote's result on stderr, as git push reports it */
	if (res->has_remote_old && git_oid_equal(&res->remote_old, &p->after)) {
		push_close(conn);
		if (!p->quiet)
			say(stderr, "%s: %s up to date", remote, short_ref(p->public));
		return mark_pushed(p, remote);
	}
	if (!remote_behind(p, res)) {
		push_close(conn);
		return refuse_moved_on(p, remote, res, 1);
	}
	if (push_update(conn, &p->after, res) < 0)
		return push_failed(remote, res);
	if (!p->quiet && res->has_remote_old)
		say(stderr, "%s: %s %s..%s", remote, short_ref(p->public), abbrev(a, &res->remote_old),
		    abbrev(b, &p->after));
	else if (!p->quiet)
		say(stderr, "%s: %s created at %s", remote, short_ref(p->public), abbrev(b, &p->after));
	return mark_pushed(p, remote);
}

/* Every remote not yet pushed to, in order; conn/first_res for the first one when connected. */
static enum maint_result push_all(struct publish *p, struct push_conn *conn,
				  struct push_result *first_res)
{
	enum maint_result ret = RESULT_OK;

	for (size_t i = 0; i < p->remotes.nr; i++) {
		struct push_result res = PUSH_RESULT_INIT;
		enum maint_result rc;

		if (strvec_contains(&p->pushed, p->remotes.v[i]))
			continue;
		if (conn) {
			rc = push_one(p, p->remotes.v[i], conn, first_res);
			conn = NULL;
		} else {
			rc = push_one(p, p->remotes.v[i], NULL, &res);
		}
		push_result_release(&res);
		ret = result_worse(ret, rc);
	}
	if (ret == RESULT_TEMPFAIL)
		advise("once the remotes can be reached, 'git maint-publish --continue' pushes to "
		       "those still missing");
	return ret;
}

/* ---- notify ---- */

/*
 * git-maint-notify as a child, our lock released while it runs: it takes
 * the lock itself to write its journal, and is told that the publish it
 * sees is the one running it, not one that stopped (in-progress.h). The state still says notify is
 * to run, so a publish killed meanwhile runs it again, and notify's
 * journal sends only what is missing.
 */
static enum maint_result run_notify(struct publish *p)
{
	static const char *const env[] = { IN_PROGRESS_RUN_BY_ENV "=publish", NULL };
	struct strvec argv = STRVEC_INIT;
	struct strbuf prog = STRBUF_INIT;
	struct run_opts run = { NULL, env, NULL, 0, NULL, NULL };
	enum maint_result ret;
	int rc;		/* the exit code of git-maint-notify */

	notify_argv(&argv, p);
	if (find_program(&prog, argv.v[0]) < 0) {
		error("cannot find git-maint-notify (on PATH or next to %s); the commits are "
		      "published, the authors not told", maint_progname);
		advise("install it and run 'git maint-publish --continue', or drop the mails "
		       "with 'git maint-publish --abort'");
		strvec_clear(&argv);
		strbuf_release(&prog);
		return RESULT_FATAL;
	}
	free((char *)argv.v[0]);
	argv.v[0] = strbuf_detach(&prog, NULL);
	run.argv = argv.v;
	crash_point("publish-before-notify");
	state_lock_release(p->lock);
	fflush(stdout);
	rc = run_command_opts(&run);
	strvec_clear(&argv);
	if (state_lock_acquire(p->lock, p->repo) != RESULT_OK) {
		error("lost the repository lock while git-maint-notify ran");
		return RESULT_TEMPFAIL;
	}
	crash_point("publish-after-notify");
	ret = result_from_exit_code(rc);
	switch (ret) {
	case RESULT_OK:
	case RESULT_NO:		/* mails refused for good: notify's journal says which */
		p->notify = 0;
		p->carried = 0;
		break;
	case RESULT_TEMPFAIL:
		advise("'git maint-publish --continue' runs git-maint-notify again for the mails still missing");
		break;
	case RESULT_FATAL:
		if (rc >= 0)
			error("git-maint-notify failed (exit %d); the commits are published", rc);
		advise("fix the cause and run 'git maint-publish --continue' to notify the authors");
		break;
	}
	if (!wants_notify(p) && save_state(p, NULL) < 0)
		return RESULT_FATAL;
	return ret;
}

/* After the pushes: notify when every remote has the commits. */
static enum maint_result push_and_notify(struct publish *p, struct push_conn *conn,
					 struct push_result *first_res)
{
	enum maint_result ret = push_all(p, conn, first_res);

	if (ret != RESULT_OK)
		return ret;
	if (!wants_notify(p))
		return RESULT_OK;
	return run_notify(p);
}

/* ---- entry points ---- */

int publish_in_progress(git_repository *repo)
{
	char *dir = state_dir_path(repo, "publish");
	int ret = state_dir_exists(dir);

	free(dir);
	return ret;
}

int publish_recorded_push(git_repository *repo, const char *remote, git_oid *tip)
{
	char *dir = state_dir_path(repo, "publish");
	struct strbuf sb = STRBUF_INIT;
	struct strvec pushed = STRVEC_INIT;
	char *words = NULL, *after = NULL;
	int ret = 0;

	if (state_dir_exists(dir) && !state_read(dir, "state", &sb)) {
		words = state_kv_get(&sb, "pushed");
		after = state_kv_get(&sb, "after");
		split_words(&pushed, words);
		ret = strvec_contains(&pushed, remote) && after && !git_oid_fromstr(tip, after);
	}
	free(words);
	free(after);
	strvec_clear(&pushed);
	strbuf_release(&sb);
	free(dir);
	return ret;
}

static int refuse_busy(struct publish *p)
{
	if (queue_in_progress(p->repo))
		return error("a queue is stopped; finish it ('git maint-queue --continue') "
			     "or drop it ('git maint-queue --abort') before publishing");
	return 0;
}

static int copy_opts(struct publish *p, const struct publish_opts *o)
{
	p->tree = xstrdup_or_null(o->tree);
	p->work = xstrdup(o->work);
	p->public = xstrdup(o->public);
	for (size_t i = 0; i < o->remotes.nr; i++)
		strvec_push(&p->remotes, o->remotes.v[i]);
	p->notify = o->notify;
	p->notify_reverts = o->notify_reverts;
	p->quiet = o->quiet;
	p->timeout = o->timeout;
	p->checks.signoff = o->check_signoff;
	p->checks.fixes = o->check_fixes;
	p->build_cmd = o->build_cmd;
	color_slots_load(p->colors, PLAN_SLOTS, p->cfg, "maint-publish", o->color);
	return 0;
}

/* Nothing left to do: every remote has 'after' and notify ran (or is not wanted). */
static int all_done(const struct publish *p)
{
	for (size_t i = 0; i < p->remotes.nr; i++)
		if (!strvec_contains(&p->pushed, p->remotes.v[i]))
			return 0;
	return !wants_notify(p);
}

static enum maint_result finish(struct publish *p, enum maint_result ret)
{
	if (ret >= 0 && all_done(p) && state_dir_exists(p->dir) && state_dir_remove(p->dir) < 0)
		return RESULT_FATAL;
	return ret;
}

/*
 * Before anything changes here: the first remote must be reachable and
 * hold nothing the new tip lacks. On success *conn stays connected for
 * the push that follows the step.
 */
static enum maint_result check_first_remote(struct publish *p, struct push_conn **conn,
					    struct push_result *res)
{
	struct push_opts o = { 0 };
	const char *remote = p->remotes.v[0];
	enum maint_result ret;

	fill_push_opts(p, &o, remote);
	if (push_connect(conn, p->repo, &o, res) < 0) {
		ret = push_failed(remote, res);
		error("nothing was changed: '%s' stays at %s", short_ref(p->public),
		      git_oid_tostr_s(&p->before));
		return ret;
	}
	if (!remote_behind(p, res)) {
		push_close(*conn);
		*conn = NULL;
		return refuse_moved_on(p, remote, res, 0);
	}
	return RESULT_OK;
}

/*
 * The publish in progress has only its mails left, and they wait (the
 * mail server deferred them): this publish, of the same branch to the
 * same remotes, takes them over and sends them with its own, so mails
 * that cannot go yet hold no publish back (reliability case 52). 0 when
 * taken over (that state removed), 1 when not, -1 reported.
 */
static int carry_mails(struct publish *p)
{
	struct publish old;
	int ret = 1, same = 1;

	publish_init(&old, p->repo, p->cfg, p->lock);
	if (load_state(&old) < 0) {
		ret = -1;
		goto out;
	}
	same = !strcmp(old.public, p->public) && old.remotes.nr == p->remotes.nr;
	for (size_t i = 0; same && i < old.remotes.nr; i++)
		same = strvec_contains(&p->remotes, old.remotes.v[i]) &&
		       strvec_contains(&old.pushed, old.remotes.v[i]);
	if (!same || !wants_notify(&old))
		goto out;
	p->carried = 1;
	git_oid_cpy(&p->carried_before, old.carried ? &old.carried_before : &old.before);
	git_oid_cpy(&p->carried_after, old.notify ? &old.after : &old.carried_after);
	p->notify_reverts |= old.notify_reverts;
	ret = state_dir_remove(p->dir) < 0 ? -1 : 0;
	if (!ret && !p->quiet)
		say(stderr, "Its mails wait for the mail server: they go with this publish's");
out:
	publish_release(&old);
	return ret;
}

/*
 * A publish left in progress (killed, a remote down, notify to run
 * again) is finished first, as --continue would finish it: its state
 * never stands in the way of a new publish. One killed before it wrote
 * its first state moved nothing and leaves nothing to finish.
 */
static enum maint_result finish_earlier(struct publish *p)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = state_read(p->dir, "state", &sb);
	enum maint_result ret;

	strbuf_release(&sb);
	if (rc > 0) {
		warning("removing '%s': a publish killed before it wrote its state left it; "
			"nothing had changed", p->dir);
		return state_dir_remove(p->dir) < 0 ? RESULT_FATAL : RESULT_OK;
	}
	if (!p->quiet)
		say(stderr, "Finishing the publish in progress first");
	ret = publish_continue(p->repo, p->cfg, p->lock, p->quiet);
	if (ret == RESULT_TEMPFAIL && carry_mails(p) == 0)
		return RESULT_OK;
	if (ret != RESULT_OK)
		error("the publish in progress ('%s') is not finished; nothing new was published",
		      p->dir);
	return ret;
}

enum maint_result publish_start(git_repository *repo, const struct maint_config *cfg,
				struct state_lock *lock, const struct publish_opts *opts)
{
	struct publish p;
	struct push_conn *conn = NULL;
	struct push_result res = PUSH_RESULT_INIT;
	enum maint_result ret = RESULT_FATAL;

	publish_init(&p, repo, cfg, lock);
	copy_opts(&p, opts);
	if (refuse_busy(&p) < 0)
		goto out;
	if (!opts->dry_run && state_dir_exists(p.dir)) {
		ret = finish_earlier(&p);
		if (ret)
			goto out;
	}
	ret = plan(&p);
	if (ret)
		goto out;
	if (opts->dry_run) {
		print_plan(&p);
		goto out;
	}
	if (p.build_cmd && p.nr) {
		ret = run_build(&p);
		if (ret)
			goto out;
	}
	if (!p.remotes.nr)
		BUG("publish without a remote");
	ret = check_first_remote(&p, &conn, &res);
	if (ret)
		goto out;
	ret = RESULT_FATAL;
	if (p.kind == KIND_UP_TO_DATE ? save_state(&p, NULL) : run_step(&p, 0)) {
		int exists;
		git_oid cur;

		/* The branch did not move: nothing to resume. */
		if (!refstep_read(repo, p.public, &cur, &exists) && exists &&
		    git_oid_equal(&cur, &p.before))
			state_dir_remove(p.dir);
		goto out;
	}
	say_step(&p);
	ret = finish(&p, push_and_notify(&p, conn, &res));
	conn = NULL;
out:
	push_close(conn);
	push_result_release(&res);
	publish_release(&p);
	return ret;
}

enum maint_result publish_continue(git_repository *repo, const struct maint_config *cfg,
				   struct state_lock *lock, int quiet)
{
	struct publish p;
	enum maint_result ret = RESULT_FATAL;

	publish_init(&p, repo, cfg, lock);
	if (!state_dir_exists(p.dir)) {
		error("no publish in progress");
		goto out;
	}
	if (load_state(&p) < 0)
		goto out;
	if (quiet)
		p.quiet = 1;
	if (run_step(&p, 1) < 0)
		goto out;
	ret = finish(&p, push_and_notify(&p, NULL, NULL));
out:
	publish_release(&p);
	return ret;
}

/* Before the state goes: the authors it still meant to tell, so the user can. */
static void advise_dropped_mails(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *before = NULL, *after = NULL, *notify = NULL, *remotes = NULL, *reverts = NULL;
	char *carried = NULL, *carried_after = NULL;

	if (state_read(dir, "state", &sb))
		goto out;
	reverts = state_kv_get(&sb, "reverts");
	before = state_kv_get(&sb, "before");
	after = state_kv_get(&sb, "after");
	notify = state_kv_get(&sb, "notify");
	remotes = state_kv_get(&sb, "remotes");
	carried = state_kv_get(&sb, "carried-before");
	carried_after = state_kv_get(&sb, "carried-after");
	/* an earlier publish's mails it took over (carry_mails()): from their start */
	if (carried && carried_after && before && after) {
		int own = notify && !strcmp(notify, "1");

		free(before);
		before = carried;
		carried = NULL;
		if (!own) {
			free(after);
			after = carried_after;
			carried_after = NULL;
		}
		free(notify);
		notify = xstrdup("1");
	}
	if (before && after && notify && !strcmp(notify, "1") && strcmp(before, after)) {
		struct strbuf opts = STRBUF_INIT;

		if (reverts && !strcmp(reverts, "1"))
			strbuf_addstr(&opts, "--revert ");
		/* the state keeps the remotes space-separated; notify takes one per option */
		for (char *r = remotes, *sp; r && *r; r = sp ? sp + 1 : r + strlen(r)) {
			sp = strchr(r, ' ');
			strbuf_addf(&opts, "--after-push %.*s ", sp ? (int)(sp - r) : (int)strlen(r), r);
		}
		advise("the authors of %.12s..%.12s were not told; 'git maint-notify --send "
		       "%s%s..%s' tells them", before, after, opts.buf, before, after);
		strbuf_release(&opts);
	}
out:
	free(before);
	free(after);
	free(notify);
	free(remotes);
	free(reverts);
	free(carried);
	free(carried_after);
	strbuf_release(&sb);
}

enum maint_result publish_abort(git_repository *repo)
{
	char *dir = state_dir_path(repo, "publish");
	enum maint_result ret = RESULT_OK;

	if (!state_dir_exists(dir)) {
		ret = error("no publish in progress");
	} else {
		advise_dropped_mails(dir);
		if (state_dir_remove(dir) < 0)
			ret = RESULT_FATAL;
	}
	free(dir);
	return ret;
}
