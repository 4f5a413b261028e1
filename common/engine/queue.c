/* SPDX-License-Identifier: GPL-2.0-only */
#include "queue.h"
#include "apply.h"
#include "applied.h"
#include "attest-keys.h"
#include "attest.h"
#include "commit.h"
#include "hook.h"
#include "ident.h"
#include "mail.h"
#include "mailinfo.h"
#include "notes.h"
#include "objwrite.h"
#include "patch.h"
#include "patch-mails.h"
#include "prefetch.h"
#include "refstep.h"
#include "repo.h"
#include "review.h"
#include "series-walk.h"
#include "source.h"
#include "state.h"
#include "usage.h"
#include "worktree.h"
#include "wrapper.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * New objects held in memory at most (then written as a pack, see
 * run_series): few packs, as every pack is one more place a lookup of
 * an object we do not have yet has to miss in.
 */
#define QUEUE_FLUSH_BYTES ((size_t)8 << 20)

enum stop_reason { STOP_NONE, STOP_PATCH, STOP_CHECK, STOP_BUILD };
static const char *const stop_names[] = { "none", "patch", "check", "build" };

struct queue {
	git_repository *repo;
	const struct maint_config *cfg;
	const struct state_lock *lock;	/* held by the caller: every ref move needs it */
	char *dir;
	char *branch;			/* refs/heads/... */
	char *source;			/* the one input named on the command line, for errors */
	git_oid orig, base, tip;
	git_oid notes_orig, notes_base, notes_tip;
	int has_notes_orig, has_notes_base, has_notes_tip;
	size_t next, last;
	size_t applied_depth;		/* queue.applied-depth (applied.h) */
	enum stop_reason stopped;
	int sync;
	int fresh;			/* started by this process, nothing moved yet */
	int worktree_done;		/* the index and work tree already hold the step's result */
	struct queue_opts opts;

	/*
	 * The patches, in the order to apply them: the "mails" file, read a
	 * mail at a time (never the whole series in memory), or, until it is
	 * written (and for --show-trailers, which writes nothing), the walk
	 * that read them, whose spool holds them.
	 */
	struct state_file mails;
	size_t *off, *len;		/* each mail's payload in the "mails" file */
	struct walk walk;
	int has_walk;
	size_t nr, alloc;
	struct walk_mail *at;		/* each mail's number in the input and its own (the "numbers" file) */
	struct strbuf skipped;		/* " (2 cover letters and 3 replies skipped)" */
	struct strvec *carried;		/* per patch: the follow-ups' trailers its commit gets ("trailers" file) */
	size_t review_counts[5];	/* the review's items by verdict (enum review_verdict) */
	int preview;			/* --show-trailers: keep what is not carried, for the listing */
	struct strbuf *uncarried;	/* with preview, per patch: what is not carried (review_format()) */
	struct strbuf unplaced;		/* with preview: what was given to patches the new version dropped */
	struct strvec applying;		/* subjects applied in memory, said once the step lands */
	struct attest_conf ac;		/* attestation, set up on first use (queue_attest()) */
	struct attest *attest;
	int attest_ready;

	struct strbuf committer;	/* "Name <email> when tz" */
	struct strbuf signer;		/* "Name <email>" */
	struct trailer_conf trailers;	/* git's trailer.* configuration */
	struct objwrite ow;
	struct notes_batch notes;
	int notes_open;
	struct apply_session *session;	/* run_series' session while it runs (borrowed) */
	size_t step_commits;		/* commits made since the last step */
	size_t step_last;		/* number of the last patch in them */
	struct strbuf step_subject;	/* subject of the last of them */
	struct strbuf name;		/* patch_name()'s */
};

static void queue_init(struct queue *q, git_repository *repo, const struct maint_config *cfg,
		       const struct state_lock *lock)
{
	memset(q, 0, sizeof(*q));
	repo_tune(REPO_USE_SERIES);
	q->repo = repo;
	q->cfg = cfg;
	q->lock = lock;
	q->dir = state_dir_path(repo, "queue");
	q->mails = (struct state_file)STATE_FILE_INIT;
	q->walk = (struct walk)WALK_INIT;
	strbuf_init(&q->committer, 0);
	strbuf_init(&q->signer, 0);
	strbuf_init(&q->step_subject, 0);
	strbuf_init(&q->name, 0);
	strbuf_init(&q->skipped, 0);
	strbuf_init(&q->unplaced, 0);
	strvec_init(&q->applying);
	strvec_init(&q->trailers.tokens);
}

void queue_opts_release(struct queue_opts *o)
{
	free(o->link_mask);
	free(o->check_cmd);
	free(o->build_cmd);
	free(o->attest);
	memset(o, 0, sizeof(*o));
}

static void queue_release(struct queue *q)
{
	if (q->notes_open)
		notes_batch_release(&q->notes);
	objwrite_end(&q->ow);
	free(q->dir);
	free(q->branch);
	free(q->source);
	queue_opts_release(&q->opts);
	state_file_close(&q->mails);
	walk_release(&q->walk);
	free(q->off);
	free(q->len);
	free(q->at);
	for (size_t k = 0; q->carried && k < q->nr; k++)
		strvec_clear(&q->carried[k]);
	free(q->carried);
	for (size_t k = 0; q->uncarried && k < q->nr; k++)
		strbuf_release(&q->uncarried[k]);
	free(q->uncarried);
	strbuf_release(&q->unplaced);
	strbuf_release(&q->skipped);
	strvec_clear(&q->applying);
	attest_free(q->attest);
	attest_conf_release(&q->ac);
	strbuf_release(&q->committer);
	strbuf_release(&q->signer);
	strbuf_release(&q->step_subject);
	strbuf_release(&q->name);
	trailer_conf_release(&q->trailers);
}

/* What a mail's errors name: "<mbox>: message <n>: ...". */
static const char *mail_origin(const struct queue *q)
{
	return q->source ? q->source : "queue";
}

static const char *short_branch(const struct queue *q)
{
	const char *s;

	return skip_prefix(q->branch, "refs/heads/", &s) ? s : q->branch;
}

/* ---- state file ---- */

/*
 * state_dir_exists() for the queue: 1 in progress, 0 not; -1 when the
 * state directory is not one (a symbolic link: reported, not used).
 */
static int queue_state_exists(const struct queue *q)
{
	int rc = state_dir_exists(q->dir);

	if (rc < 0)
		error("the queue state '%s' is not a directory or is reached through a symbolic link; "
		      "not used ('git maint-queue --abort' removes a link there)", q->dir);
	return rc;
}

static int save_state(struct queue *q, const char *crash_label)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	state_kv_add(&sb, "version", "1");
	state_kv_add(&sb, "branch", q->branch);
	if (q->source)
		state_kv_add(&sb, "source", q->source);
	state_kv_add_oid(&sb, "orig", &q->orig);
	state_kv_add_oid(&sb, "base", &q->base);
	state_kv_add_oid(&sb, "tip", &q->tip);
	if (q->has_notes_orig)
		state_kv_add_oid(&sb, "notes-orig", &q->notes_orig);
	if (q->has_notes_base)
		state_kv_add_oid(&sb, "notes-base", &q->notes_base);
	if (q->has_notes_tip)
		state_kv_add_oid(&sb, "notes-tip", &q->notes_tip);
	state_kv_addf(&sb, "next", "%zu", q->next);
	state_kv_addf(&sb, "last", "%zu", q->last);
	state_kv_add(&sb, "stopped", stop_names[q->stopped]);
	state_kv_addf(&sb, "sync", "%d", q->sync);
	state_kv_addf(&sb, "signoff", "%d", q->opts.signoff);
	state_kv_addf(&sb, "fuzz", "%d", q->opts.fuzz);
	state_kv_addf(&sb, "3way", "%d", q->opts.three_way);
	state_kv_addf(&sb, "quiet", "%d", q->opts.quiet);
	state_kv_addf(&sb, "check-stop", "%d", q->opts.check_stop);
	state_kv_addf(&sb, "build-each", "%d", q->opts.build_each);
	state_kv_addf(&sb, "scissors", "%d", q->opts.scissors);
	if (q->opts.source.max_size)
		state_kv_addf(&sb, "max-message-size", "%zu", q->opts.source.max_size);
	if (q->opts.link_mask)
		state_kv_add(&sb, "link", q->opts.link_mask);
	if (q->opts.check_cmd)
		state_kv_add(&sb, "check", q->opts.check_cmd);
	if (q->opts.build_cmd)
		state_kv_add(&sb, "build", q->opts.build_cmd);
	if (q->opts.attest)
		state_kv_add(&sb, "attest", q->opts.attest);
	ret = state_write(q->dir, "state", &sb, crash_label);
	strbuf_release(&sb);
	return ret;
}

/*
 * Finds each mail of the "mails" file ("<length>\n<bytes>\n" each),
 * reading only the length lines.
 */
static int parse_mails(struct queue *q)
{
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	int ret = 0;

	while (pos < q->mails.len) {
		/* a length line: at most 20 digits and the newline */
		size_t want = q->mails.len - pos < 21 ? q->mails.len - pos : 21;
		unsigned long long n;
		char *end;

		strbuf_reset(&line);
		if (state_file_read(&q->mails, pos, want, &line) < 0) {
			ret = -1;
			break;
		}
		errno = 0;
		n = strtoull(line.buf, &end, 10);
		if (errno || end == line.buf || *end != '\n' ||
		    n > q->mails.len - (pos + (size_t)(end + 1 - line.buf))) {
			ret = error("queue state: the stored series is damaged");
			break;
		}
		ALLOC_GROW(q->off, q->nr + 1, q->alloc);
		q->len = xrealloc(q->len, st_mult(q->alloc, sizeof(*q->len)));
		q->off[q->nr] = pos + (size_t)(end + 1 - line.buf);
		q->len[q->nr] = n;
		q->nr++;
		pos = q->off[q->nr - 1] + n + 1;
	}
	strbuf_release(&line);
	return ret;
}

/*
 * The "numbers" file: per stored mail, its number in the input and its
 * own numbers ("7 3 11": message 7, patch 3/11), one mail a line, for
 * messages that name it. A state written before it existed stored every
 * mail, numbered as stored; one written before the own numbers has the
 * first only (the place in the queue stands in for them).
 */
static int load_numbers(struct queue *q)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int rc = state_read(q->dir, "numbers", &sb);

	q->at = xcalloc(q->nr + 1, sizeof(*q->at));
	for (size_t k = 0; k < q->nr; k++) {
		q->at[k].origin = mail_origin(q);
		q->at[k].number = k + 1;
		q->at[k].k = k + 1;
		q->at[k].total = q->nr;
	}
	if (rc) {
		strbuf_release(&sb);
		return rc < 0 ? -1 : 0;
	}
	p = sb.buf;
	for (size_t k = 0; k < q->nr; k++) {
		char *end;
		long own, total;

		q->at[k].number = strtoul(p, &end, 10);
		if (end == p || (*end != '\n' && *end != ' '))
			goto bad;
		if (*end == ' ') {
			own = strtol(end + 1, &end, 10);
			if (*end != ' ')
				goto bad;
			total = strtol(end + 1, &end, 10);
			if (*end != '\n' || own < 0 || total < 1 || own > INT_MAX || total > INT_MAX)
				goto bad;
			q->at[k].k = own;
			q->at[k].total = total;
		}
		p = end + 1;
	}
	strbuf_release(&sb);
	return 0;
bad:
	strbuf_release(&sb);
	return error("queue state: the message numbers are damaged");
}

/* "3/11": patch k's own numbers (its subject's); valid until the next call. */
static const char *patch_name(struct queue *q, size_t k)
{
	strbuf_reset(&q->name);
	strbuf_addf(&q->name, "%d/%d", q->at[k - 1].k, q->at[k - 1].total);
	return q->name.buf;
}

/* ---- the follow-ups' trailers (common/mail/review.h) ---- */

/* items of rl whose verdict is not "carried", as review_format() lists them, to out */
static void format_uncarried(struct strbuf *out, const struct review_list *rl)
{
	struct review_list rest = { NULL, 0, 0 };

	for (size_t i = 0; i < rl->nr; i++) {
		if (rl->v[i].verdict == REVIEW_CARRIED)
			continue;
		ALLOC_GROW(rest.v, rest.nr + 1, rest.alloc);
		rest.v[rest.nr++] = rl->v[i];	/* borrowed: rest owns nothing but its array */
	}
	review_format(out, &rest, "    ");
	free(rest.v);
}

/* What pms' review gives each patch kept: the carried lines (and, with q->preview, the rest). */
static void take_review(struct queue *q, const struct patch_mails *pms)
{
	if (!pms->review)
		return;
	q->carried = xcalloc(pms->nr + 1, sizeof(*q->carried));
	if (q->preview)
		q->uncarried = xcalloc(pms->nr + 1, sizeof(*q->uncarried));
	for (size_t i = 0; i < pms->nr; i++) {
		strvec_init(&q->carried[i]);
		review_carried(pms->review, i, &q->carried[i]);
		if (q->preview) {
			strbuf_init(&q->uncarried[i], 0);
			format_uncarried(&q->uncarried[i], review_for(pms->review, i));
		}
	}
	if (q->preview)
		review_format(&q->unplaced, review_unplaced(pms->review), "    ");
	for (size_t v = 0; v < ARRAY_SIZE(q->review_counts); v++)
		q->review_counts[v] = review_count(pms->review, v);
}

/* "Trailers from replies: 7 carried, 1 flagged, 2 not carried", when there were any. */
static void say_review(const struct queue *q)
{
	size_t carried = q->review_counts[REVIEW_CARRIED], flagged = q->review_counts[REVIEW_FLAGGED];
	size_t not = q->review_counts[REVIEW_STALE] + q->review_counts[REVIEW_NOT_TAKEN];

	if (!carried && !flagged && !not)
		return;
	say(stdout, "Trailers from replies: %zu carried, %zu flagged, %zu not carried", carried, flagged,
	    not);
	if (flagged || not)
		advise("'git maint-queue --show-trailers' lists them, and why");
}

/*
 * The "trailers" file: "<k> <trailer line>" for each trailer the
 * follow-ups give patch k, in order; none when no patch gets any.
 */
static int write_trailers(struct queue *q)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (size_t k = 0; q->carried && k < q->nr; k++)
		for (size_t i = 0; i < q->carried[k].nr; i++)
			strbuf_addf(&sb, "%zu %s\n", k + 1, q->carried[k].v[i]);
	if (sb.len)
		ret = state_write(q->dir, "trailers", &sb, NULL);
	strbuf_release(&sb);
	return ret;
}

/* The "trailers" file back into q->carried (a state without it: none). */
static int load_trailers(struct queue *q)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end;
	int rc = state_read(q->dir, "trailers", &sb), ret = 0;

	if (rc) {
		strbuf_release(&sb);
		return rc < 0 ? -1 : 0;
	}
	q->carried = xcalloc(q->nr + 1, sizeof(*q->carried));
	for (size_t k = 0; k < q->nr; k++)
		strvec_init(&q->carried[k]);
	for (p = sb.buf; !ret && p < sb.buf + sb.len; p = end + 1) {
		char *sp;
		unsigned long k = strtoul(p, &sp, 10);

		end = memchr(p, '\n', sb.buf + sb.len - p);
		if (!end || sp == p || *sp != ' ' || sp >= end || k < 1 || k > q->nr ||
		    memchr(sp + 1, '\r', end - sp - 1))
			ret = error("queue state: the trailers are damaged");
		else
			strvec_push_mem(&q->carried[k - 1], sp + 1, end - sp - 1);
	}
	strbuf_release(&sb);
	return ret;
}

static int damaged(const struct queue *q)
{
	return error("the queue state in '%s' cannot be used; "
		     "run 'git maint-queue --abort' to clear it", q->dir);
}

static int load_state(struct queue *q)
{
	struct strbuf sb = STRBUF_INIT;
	long next, last, v;
	char *s = NULL;
	int rc, ret = -1, has;

	rc = state_read(q->dir, "state", &sb);
	if (rc > 0)
		error("'%s' holds no queue state (a queue killed while starting?)", q->dir);
	if (rc)
		goto bad;
	q->branch = state_kv_get(&sb, "branch");
	if (!q->branch || !starts_with(q->branch, "refs/heads/")) {
		error("queue state names no branch");
		goto bad;
	}
	if (state_kv_get_oid(&sb, "queue", "orig", &q->orig, NULL) ||
	    state_kv_get_oid(&sb, "queue", "base", &q->base, NULL) ||
	    state_kv_get_oid(&sb, "queue", "tip", &q->tip, NULL) ||
	    state_kv_get_oid(&sb, "queue", "notes-orig", &q->notes_orig, &q->has_notes_orig) ||
	    state_kv_get_oid(&sb, "queue", "notes-base", &q->notes_base, &q->has_notes_base) ||
	    state_kv_get_oid(&sb, "queue", "notes-tip", &q->notes_tip, &q->has_notes_tip) ||
	    state_kv_get_long(&sb, "queue", "next", &next, NULL) ||
	    state_kv_get_long(&sb, "queue", "last", &last, NULL))
		goto bad;
	q->next = next;
	q->last = last;
	s = state_kv_get(&sb, "stopped");
	for (size_t i = 0; s && i < ARRAY_SIZE(stop_names); i++)
		if (!strcmp(s, stop_names[i]))
			q->stopped = i;
#define NUM(key, field) \
	do { if (state_kv_get_long(&sb, "queue", key, &v, NULL)) goto bad; field = v; } while (0)
	NUM("sync", q->sync);
	NUM("signoff", q->opts.signoff);
	NUM("fuzz", q->opts.fuzz);
	NUM("3way", q->opts.three_way);
	NUM("quiet", q->opts.quiet);
	NUM("check-stop", q->opts.check_stop);
	NUM("build-each", q->opts.build_each);
	/* what a queue started by an older version may lack: 0 then */
	v = 0;
	q->opts.source.max_size = 0;
	if (state_kv_get_long(&sb, "queue", "scissors", &v, &has) ||
	    state_kv_get_size(&sb, "queue", "max-message-size", &q->opts.source.max_size, &has))
		goto bad;
	q->opts.scissors = v;
#undef NUM
	q->source = state_kv_get(&sb, "source");
	q->opts.link_mask = state_kv_get(&sb, "link");
	q->opts.check_cmd = state_kv_get(&sb, "check");
	q->opts.build_cmd = state_kv_get(&sb, "build");
	q->opts.attest = state_kv_get(&sb, "attest");
	rc = state_file_open(&q->mails, q->dir, "mails");
	if (rc > 0)
		error("the queue state has no stored series");
	if (rc || parse_mails(q) || load_numbers(q) || load_trailers(q))
		goto bad;
	if (q->last != q->nr || q->next < 1 || q->next > q->last + 1) {
		error("queue state: patch numbers do not match the stored series");
		goto bad;
	}
	ret = 0;
	goto out;
bad:
	damaged(q);
out:
	free(s);
	strbuf_release(&sb);
	return ret;
}

/* ---- the step (common/repo/refstep.h) ---- */

static int read_ref(git_repository *repo, const char *name, git_oid *oid, int *exists)
{
	int rc = git_reference_name_to_id(oid, repo, name);

	if (exists)
		*exists = 0;
	if (rc == GIT_ENOTFOUND && exists)
		return 0;
	if (lg2_check(rc, "cannot read '%s'", name) < 0)
		return -1;
	if (exists)
		*exists = 1;
	return 0;
}

static int commit_tree_id(git_repository *repo, const git_oid *commit, git_oid *tree)
{
	git_commit *c = NULL;

	if (lg2_check(git_commit_lookup(&c, repo, commit), "cannot read commit") < 0)
		return -1;
	git_oid_cpy(tree, git_commit_tree_id(c));
	git_commit_free(c);
	return 0;
}

/* The paths that differ between two commits' trees. */
static int changed_paths(struct queue *q, const git_oid *from_commit, const git_oid *to_commit,
			 struct strvec *paths, git_oid *a, git_oid *b)
{
	if (commit_tree_id(q->repo, from_commit, a) || commit_tree_id(q->repo, to_commit, b))
		return -1;
	return tree_changed_paths(paths, q->repo, a, b);
}

static int sync_worktree(struct queue *q, const git_oid *from_commit, const git_oid *to_commit,
			 int force)
{
	struct strvec paths = STRVEC_INIT;
	git_oid a, b;
	int ret = -1;

	if (!q->sync || git_oid_equal(from_commit, to_commit))
		return 0;
	if (changed_paths(q, from_commit, to_commit, &paths, &a, &b) ||
	    worktree_sync(q->repo, q->cfg, &a, &b, &paths, force, NULL))
		goto out;
	ret = 0;
out:
	strvec_clear(&paths);
	return ret;
}

/* Would sync_worktree(q, from, to, 1) lose untracked files? 0 no, 1 yes (reported), -1 error. */
static int sync_check(struct queue *q, const git_oid *from_commit, const git_oid *to_commit)
{
	struct strvec paths = STRVEC_INIT;
	git_oid a, b;
	int ret = 0;

	if (q->sync && !git_oid_equal(from_commit, to_commit))
		ret = changed_paths(q, from_commit, to_commit, &paths, &a, &b) < 0 ? -1 :
		      worktree_check_untracked(q->repo, q->cfg, &a, &b, &paths, NULL);
	strvec_clear(&paths);
	return ret;
}

/* The apply session's post-images, to write the work tree without reading the blobs back. */
static int cached_content(void *data, const char *path, const git_oid *oid, const char **buf,
			  size_t *len)
{
	struct queue *q = data;

	return q->session && apply_session_cached(q->session, path, oid, buf, len);
}

/*
 * "Applying: <subject>" for the patches applied in memory so far. They
 * are said when their step lands (or before anything else is said about
 * a patch: a check, a failure), so that a step refused as a whole
 * (local changes in the way) claims no patch.
 */
static void flush_applying(struct queue *q)
{
	for (size_t i = 0; i < q->applying.nr; i++)
		say(stdout, "Applying: %s", q->applying.v[i]);
	strvec_clear(&q->applying);
}

/*
 * A step of the queue: the branch moves base -> tip, the notes ref
 * notes-base -> notes-tip, as refstep.h does it; the state names the step
 * before the refs move and says it is done after the work tree followed.
 */
struct queue_step {
	struct queue *q;
	int finishing;		/* finishing an interrupted step (--continue) */
	struct strvec paths;	/* a new step: the paths it changes, found clean */
	git_oid from_tree, to_tree;
	struct refstep_move moves[2];
	struct refstep step;
};

static int step_write_objects(void *data)
{
	struct queue_step *st = data;

	if (objwrite_flush(&st->q->ow) < 0)
		return -1;
	st->q->fresh = 0;	/* the repository has the step's objects: the state stays for --abort */
	return 0;
}

static int step_save_state(void *data, enum refstep_phase phase, const char *crash_label)
{
	struct queue *q = ((struct queue_step *)data)->q;

	if (phase == REFSTEP_DONE) {
		git_oid_cpy(&q->base, &q->tip);
		if (q->has_notes_tip) {
			git_oid_cpy(&q->notes_base, &q->notes_tip);
			q->has_notes_base = 1;
		}
	}
	return save_state(q, crash_label);
}

static int step_after_move(void *data)
{
	struct queue_step *st = data;
	struct queue *q = st->q;
	struct worktree_content content = { cached_content, q };

	/* An interrupted step's paths were clean when it began: what they hold now is ours, half written. */
	if (st->finishing)
		return sync_worktree(q, &q->base, &q->tip, 1);
	if (!q->sync || q->worktree_done)
		return 0;
	if (worktree_sync(q->repo, q->cfg, &st->from_tree, &st->to_tree, &st->paths, 0, &content) < 0)
		return error("'%s' moved to %s but its work tree was not updated; "
			     "fix the cause and run 'git maint-queue --continue' (or --abort)",
			     short_branch(q), git_oid_tostr_s(&q->tip));
	return 0;
}

/*
 * The step's ref moves: the branch when it moves, and the notes ref when
 * the step changes it. Someone may add a note meanwhile (git notes add):
 * finishing the step then keeps theirs and says where ours is
 * (REFSTEP_MAY_MOVE).
 */
static void step_moves(struct queue_step *st, const char *reflog)
{
	struct queue *q = st->q;
	struct refstep_move *m = st->moves;

	if (!git_oid_equal(&q->base, &q->tip)) {
		m->ref = q->branch;
		git_oid_cpy(&m->old, &q->base);
		m->has_old = 1;
		git_oid_cpy(&m->new, &q->tip);
		m->reflog = reflog;
		m++;
	}
	if (q->has_notes_tip && (!q->has_notes_base || !git_oid_equal(&q->notes_base, &q->notes_tip))) {
		m->ref = NOTES_REF;
		git_oid_cpy(&m->old, &q->notes_base);
		m->has_old = q->has_notes_base;
		git_oid_cpy(&m->new, &q->notes_tip);
		m->reflog = "maint-queue: notes";
		m->flags = REFSTEP_MAY_MOVE;
		m++;
	}
	st->step.repo = q->repo;
	st->step.lock = q->lock;
	st->step.name = "queue";
	st->step.moves = st->moves;
	st->step.nr = m - st->moves;
	st->step.save_state = step_save_state;
	st->step.after_move = step_after_move;
	st->step.data = st;
}

static void step_release(struct queue_step *st)
{
	strvec_clear(&st->paths);
}

/*
 * Finishes the step the state describes, whatever point it was
 * interrupted at: afterwards the branch is at tip, base == tip.
 */
static int finish_step(struct queue *q)
{
	struct queue_step st = { .q = q, .finishing = 1, .paths = STRVEC_INIT };
	git_oid cur;
	int ret;

	if (read_ref(q->repo, q->branch, &cur, NULL) < 0)
		return -1;
	if (!git_oid_equal(&cur, &q->base) && !git_oid_equal(&cur, &q->tip)) {
		/* git_oid_tostr_s() has one buffer: two ids in a message need two of our own */
		char at[GIT_OID_HEXSZ + 1], left[GIT_OID_HEXSZ + 1];

		return error("'%s' moved since the queue stopped (it is at %s, the queue left it at %s); "
			     "put it back or run 'git maint-queue --abort'",
			     short_branch(q), git_oid_tostr(at, sizeof(at), &cur),
			     git_oid_tostr(left, sizeof(left), &q->tip));
	}
	/* Nothing moves when the work tree cannot follow. */
	if (sync_check(q, &q->base, &q->tip))
		return -1;
	step_moves(&st, "maint-queue: finish interrupted step");
	ret = refstep_finish(&st.step);
	step_release(&st);
	return ret;
}

/*
 * The step: what was committed since the last one goes to the
 * repository (objects, then the branch at new_tip with the notes), and
 * the queue goes on at patch next_after. RESULT_TEMPFAIL when git's
 * index is locked, nothing written.
 */
static enum maint_result do_step(struct queue *q, const git_oid *new_tip, size_t next_after)
{
	struct queue_step st = { .q = q, .paths = STRVEC_INIT };
	struct strbuf reflog = STRBUF_INIT;
	char suffix[32];
	git_oid notes_new;
	enum maint_result ret = RESULT_FATAL;
	int changed = 0;

	if (git_oid_equal(new_tip, &q->tip))
		return RESULT_OK;
	/*
	 * The work tree is looked at before anything is written (the new
	 * objects are readable from memory): a refusal leaves no trace.
	 */
	if (q->sync && !q->worktree_done) {
		if (repo_index_locked(q->repo)) {
			ret = RESULT_TEMPFAIL;
			goto out;
		}
		if (changed_paths(q, &q->tip, new_tip, &st.paths, &st.from_tree, &st.to_tree) ||
		    worktree_check_clean(q->repo, &st.paths, "queue"))
			goto out;
	}
	if (notes_batch_commit(&q->notes, &notes_new, &changed, q->committer.buf) < 0)
		goto out;
	git_oid_cpy(&q->tip, new_tip);
	q->next = next_after;
	q->stopped = STOP_NONE;
	if (changed) {
		git_oid_cpy(&q->notes_tip, &notes_new);
		q->has_notes_tip = 1;
	}
	if (q->step_commits == 1)
		strbuf_addf(&reflog, "maint-queue: %s", q->step_subject.buf);
	else
		strbuf_addf(&reflog, "maint-queue: %zu patches, last: %s", q->step_commits,
			    q->step_subject.buf);
	step_moves(&st, reflog.buf);
	/* Every crash point also as "<point>:<n>", n the last patch of the step. */
	snprintf(suffix, sizeof(suffix), ":%zu", q->step_last);
	st.step.point_suffix = suffix;
	st.step.write_objects = step_write_objects;
	if (refstep_run(&st.step) < 0)
		goto out;
	q->step_commits = 0;
	notes_batch_release(&q->notes);
	q->notes_open = 0;
	if (notes_batch_begin(&q->notes, q->repo, &q->ow) < 0)
		goto out;
	q->notes_open = 1;
	flush_applying(q);
	ret = 0;
out:
	step_release(&st);
	strbuf_release(&reflog);
	return ret;
}

/* ---- one patch ---- */

/*
 * Patch k's mail: *buf and *len, in scratch (or the stored patch the
 * user may have edited), valid until the next call with scratch. 0, or
 * -1 (reported).
 */
static int mail_bytes(struct queue *q, size_t k, struct strbuf *scratch, const char **buf, size_t *len)
{
	strbuf_reset(scratch);
	/* The patch we stopped at may have been edited by the user. */
	if (k != q->next || q->stopped == STOP_NONE || state_read_raw(q->dir, "patch", scratch)) {
		strbuf_reset(scratch);
		if ((q->has_walk ? walk_get(&q->walk, k - 1, scratch) :
		     state_file_read(&q->mails, q->off[k - 1], q->len[k - 1], scratch)) < 0)
			return -1;
	}
	*buf = scratch->buf;
	*len = scratch->len;
	return 0;
}

static void build_note(struct strbuf *note, const struct patch_mail *pm, const char *raw, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t hlen = mail_header_len(raw, len);

	if (pm->message_id.len) {
		strbuf_addf(&sb, "<%s>", pm->message_id.buf);
		notes_add_field(note, "Message-ID", sb.buf, sb.len);
		strbuf_reset(&sb);
	}
	strbuf_addf(&sb, "%s <%s>", pm->author_name.buf, pm->author_email.buf);
	notes_add_field(note, "From", sb.buf, sb.len);
	notes_add_field(note, "Date", pm->date.buf, pm->date.len);
	notes_add_field(note, "Subject", pm->raw_subject.buf, pm->raw_subject.len);
	for (size_t i = 0; i < pm->to.nr; i++)
		notes_add_field(note, "To", pm->to.v[i], strlen(pm->to.v[i]));
	for (size_t i = 0; i < pm->cc.nr; i++)
		notes_add_field(note, "Cc", pm->cc.v[i], strlen(pm->cc.v[i]));
	if (pm->in_reply_to.len) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "<%s>", pm->in_reply_to.buf);
		notes_add_field(note, "In-Reply-To", sb.buf, sb.len);
	}
	strbuf_reset(&sb);
	if (mail_header_get(raw, hlen, "List-Id", &sb))
		notes_add_field(note, "List-Id", sb.buf, sb.len);
	if (pm->total) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "v%d %d/%d", pm->version, pm->number, pm->total);
		notes_add_field(note, "Series", sb.buf, sb.len);
	}
	strbuf_release(&sb);
}

/*
 * git am's message of pm, patch k: the follow-ups' trailers after its
 * own, then Link: and our Signed-off-by (common/mail/review.h).
 */
static int build_message(struct queue *q, struct strbuf *msg, const struct patch_mail *pm, size_t k)
{
	msg_from_mail(msg, pm->subject.buf, pm->subject.len, pm->message.buf, pm->message.len);
	if (q->carried && q->carried[k - 1].nr)
		trailers_add_to_message(msg, &q->trailers, q->carried[k - 1].v, q->carried[k - 1].nr);
	if (q->opts.link_mask && pm->message_id.len) {
		struct strbuf link = STRBUF_INIT;
		const char *pct = strstr(q->opts.link_mask, "%s");

		strbuf_addstr(&link, "Link: ");
		if (pct) {
			strbuf_add(&link, q->opts.link_mask, pct - q->opts.link_mask);
			strbuf_addbuf(&link, &pm->message_id);
			strbuf_addstr(&link, pct + 2);
		} else {
			strbuf_addstr(&link, q->opts.link_mask);
			strbuf_addbuf(&link, &pm->message_id);
		}
		msg_append_trailer(msg, &q->trailers, link.buf);
		strbuf_release(&link);
	}
	if (q->opts.signoff) {
		struct strbuf sob = STRBUF_INIT;

		strbuf_addf(&sob, "Signed-off-by: %s", q->signer.buf);
		msg_append_trailer(msg, &q->trailers, sob.buf);
		strbuf_release(&sob);
	}
	return 0;
}

static void stop_hints(struct queue *q)
{
	advise("the patch is in '%s/patch' ('git maint-queue --show-current' shows it)\n"
	       "fix it there, or apply it by hand and 'git add' the result, then run\n"
	       "'git maint-queue --continue'; 'git maint-queue --skip' drops it;\n"
	       "'git maint-queue --abort' puts '%s' back at %s",
		q->dir, short_branch(q), git_oid_tostr_s(&q->orig));
}

/*
 * git am -3 with conflicts: the patch's result goes into the work tree
 * and index of the checked-out branch, conflicted files with markers and
 * stages 1-3, for the user to resolve, 'git add' and --continue. The
 * paths are listed in the state ("conflict") so that --skip and --abort
 * put them back. Paths with local changes are left alone (warned).
 */
static int write_conflicts(struct queue *q, struct apply_session *session,
			   const struct apply_result *res)
{
	struct apply_change *ch = NULL;
	struct worktree_file *files = NULL;
	struct strvec paths = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT;
	size_t nr = 0;
	int ret = -1, rc;

	if (apply_session_conflicts(session, &ch, &nr) < 0)
		return -1;
	for (size_t i = 0; i < nr; i++)
		strvec_push(&paths, ch[i].path);
	rc = worktree_check_clean(q->repo, &paths, "the conflicted patch");
	if (rc) {
		if (rc > 0)
			warning("the conflicts were not written into the work tree; "
				"the patch is in '%s/patch'", q->dir);
		ret = rc < 0 ? -1 : 0;
		goto out;
	}
	files = xcalloc(nr ? nr : 1, sizeof(*files));
	for (size_t i = 0; i < nr; i++) {
		struct worktree_file *f = &files[i];
		const struct apply_conflict *c = NULL;

		for (size_t j = 0; j < res->nr && !c; j++)
			if (res->files[j].conflict && !strcmp(res->files[j].new_path, ch[i].path))
				c = res->files[j].conflict;
		f->path = ch[i].path;
		f->deleted = ch[i].deleted;
		f->mode = ch[i].mode;
		if (f->deleted)
			continue;
		if (c) {
			f->conflicted = 1;
			f->data = ch[i].data;
			f->len = ch[i].len;
			git_oid_cpy(&f->stages[0], &c->base);
			if (objwrite_put(&q->ow, &f->stages[1], c->ours.buf, c->ours.len, GIT_OBJECT_BLOB) < 0 ||
			    objwrite_put(&q->ow, &f->stages[2], c->theirs.buf, c->theirs.len,
					 GIT_OBJECT_BLOB) < 0)
				goto out;
		} else if (ch[i].has_oid) {
			git_oid_cpy(&f->oid, &ch[i].oid);
		} else {
			f->data = ch[i].data;
			f->len = ch[i].len;
			if (objwrite_put(&q->ow, &f->oid, f->data, f->len, GIT_OBJECT_BLOB) < 0)
				goto out;
		}
		strbuf_addf(&list, "%s\n", f->path);
	}
	for (size_t i = 0; i < nr; i++)
		if (files[i].deleted)
			strbuf_addf(&list, "%s\n", files[i].path);
	/* The blobs the index names reach the disk first. */
	if (objwrite_flush(&q->ow) < 0 || state_write_raw(q->dir, "conflict", list.buf, list.len) < 0 ||
	    worktree_write_files(q->repo, q->cfg, files, nr) < 0)
		goto out;
	advise("resolve the conflicts in the work tree, 'git add' the files and run\n"
	       "'git maint-queue --continue'");
	ret = 0;
out:
	free(ch);
	free(files);
	strvec_clear(&paths);
	strbuf_release(&list);
	return ret;
}

/*
 * Adds the paths the state's conflict file lists (one a line) to paths:
 * 1 when there is the file, 0 when there is none, -1 when it cannot be
 * used (reported). The file is input like a mail, its paths are about
 * to be written and removed: each must be one a patch may write
 * (patch_path_check(): no "..", no absolute path, no ".git").
 */
static int read_conflict_paths(const struct queue *q, struct strvec *paths)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int ret = state_read_raw(q->dir, "conflict", &sb);

	if (ret) {
		ret = ret > 0 ? 0 : -1;
		goto out;
	}
	ret = 1;
	for (char *p = sb.buf, *nl; p < sb.buf + sb.len; p = nl + 1) {
		nl = memchr(p, '\n', sb.buf + sb.len - p);
		if (!nl)
			nl = sb.buf + sb.len;
		if (nl == p)
			continue;
		*nl = '\0';
		if (strlen(p) != (size_t)(nl - p))
			strbuf_addstr(&why, "NUL byte in a path");
		else
			patch_path_check(p, &why);
		if (why.len) {
			ret = error("'%s/conflict': %s; remove that file to go on without it",
				    q->dir, why.buf);
			break;
		}
		strvec_push(paths, p);
	}
out:
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}

/*
 * Puts the paths a conflicted patch left in the work tree back as the
 * commit at_commit has them (--skip, --abort, --continue re-applying),
 * and forgets them.
 */
static int reset_conflicts(struct queue *q, const git_oid *at_commit)
{
	struct strvec paths = STRVEC_INIT;
	git_oid tree;
	int ret;

	ret = read_conflict_paths(q, &paths);
	if (ret <= 0)
		goto out;
	ret = 0;
	if (q->sync) {
		if (commit_tree_id(q->repo, at_commit, &tree) < 0 ||
		    worktree_sync(q->repo, q->cfg, &tree, &tree, &paths, 1, NULL) < 0) {
			ret = -1;
			goto out;
		}
	}
	ret = state_remove(q->dir, "conflict");
out:
	strvec_clear(&paths);
	return ret;
}

/*
 * --continue found nothing staged (resolved) or committed the
 * resolution: the conflict left by the stopped patch is forgotten. With
 * nothing staged, its paths must hold what the branch has (the user put
 * them back, e.g. to edit the stored patch instead): else the resolution
 * in the work tree was probably not 'git add'ed, and we stop.
 */
static int forget_conflicts(struct queue *q, int nothing_staged)
{
	struct strvec paths = STRVEC_INIT;
	int ret;

	ret = read_conflict_paths(q, &paths);
	if (ret <= 0)
		goto out;
	ret = 0;
	if (nothing_staged && worktree_check_clean(q->repo, &paths, "applying the patch again")) {
		ret = error("nothing was resolved: 'git add' the resolved files (or put them back "
			    "as the branch has them, to apply the stored patch again)");
		goto out;
	}
	ret = state_remove(q->dir, "conflict");
out:
	strvec_clear(&paths);
	return ret;
}

/* Stops at patch k: what has been committed so far lands, the mail is kept. */
static enum maint_result stop_at(struct queue *q, size_t k, enum stop_reason why,
				 const git_oid *tip, const char *raw, size_t len)
{
	enum maint_result rc = do_step(q, tip, k);

	if (rc)
		return rc;
	q->next = k;
	q->stopped = why;
	if (state_write_raw(q->dir, "patch", raw, len) < 0 || save_state(q, NULL) < 0)
		return -1;
	stop_hints(q);
	return RESULT_NO;
}

static enum maint_result run_build(struct queue *q)
{
	const char *wd = git_repository_workdir(q->repo);
	struct strbuf env = STRBUF_INIT;
	const char *envv[2];
	int rc;

	if (!q->opts.build_cmd)
		return 0;
	if (!q->sync || !wd) {
		warning("build skipped: '%s' is not checked out here", short_branch(q));
		return 0;
	}
	strbuf_addf(&env, "GIT_MAINT_BRANCH=%s", short_branch(q));
	envv[0] = env.buf;
	envv[1] = NULL;
	rc = hook_run(q->opts.build_cmd, wd, NULL, 0, envv);
	strbuf_release(&env);
	if (rc < 0)
		return RESULT_FATAL;
	if (rc) {
		error("build failed (exit %d): %s", rc, q->opts.build_cmd);
		return RESULT_NO;
	}
	return RESULT_OK;
}

/* The build failed: the queue stops after the patches that landed. */
static enum maint_result build_stop(struct queue *q)
{
	q->stopped = STOP_BUILD;
	if (save_state(q, NULL) < 0)
		return -1;
	advise("the patches up to here are on '%s'; fix the build and run\n"
	       "'git maint-queue --continue' to build again, or 'git maint-queue --abort'\n"
	       "to put '%s' back at %s",
		short_branch(q), short_branch(q), git_oid_tostr_s(&q->orig));
	return RESULT_NO;
}

/* Runs the build command, when there is one: RESULT_OK, RESULT_NO (stopped) or -1. */
static enum maint_result build(struct queue *q)
{
	enum maint_result rc = run_build(q);

	return rc == RESULT_NO ? build_stop(q) : rc;
}

/*
 * Lands the patches committed so far (the branch at tip) and goes on at
 * patch next; then builds when each step is built.
 */
static enum maint_result land(struct queue *q, const git_oid *tip, size_t next, int then_build)
{
	enum maint_result rc = do_step(q, tip, next);

	if (rc)
		return rc;
	q->next = next;
	q->stopped = STOP_NONE;
	if (save_state(q, NULL) < 0)
		return -1;
	return then_build ? build(q) : 0;
}

/* ---- the series ---- */

/* Patches in a run from which reading ahead is worth a thread and a second repository. */
#define PREFETCH_MIN_PATCHES 2

/* What run_series() works with, patch after patch. */
struct series {
	struct queue *q;
	struct apply_session *session;
	struct prefetch *pf;
	struct apply_opts aopts;
	git_oid tip;			/* the last commit made */
	int skip_check_first;		/* the check of patch q->next was dealt with (we stopped at it) */
	int each;			/* each patch lands (and is built) on its own */
	size_t since_flush, flush_every;
	struct strbuf report;
};

static int read_ahead(void *data, const char *path, const git_oid *oid, struct strbuf *out)
{
	return prefetch_take(data, path, oid, out);
}

/* Long series: the files they patch are read ahead by a second thread. */
static struct prefetch *start_reading_ahead(struct queue *q, const git_oid *tree)
{
	struct strbuf scratch = STRBUF_INIT;
	struct prefetch *pf;
	size_t bytes = 0;

	if (q->last - q->next + 1 < PREFETCH_MIN_PATCHES)
		return NULL;
	for (size_t k = q->next; k <= q->last; k++)
		bytes += q->len[k - 1];
	pf = prefetch_new(bytes);
	/* a mail at a time: the series is never in memory as a whole */
	for (size_t k = q->next; k <= q->last; k++) {
		const char *buf;
		size_t len;

		if (mail_bytes(q, k, &scratch, &buf, &len) < 0) {
			/* only a guess: the engine reads the mail again and says why */
			prefetch_stop(pf);
			strbuf_release(&scratch);
			return NULL;
		}
		prefetch_add_mail(pf, buf, len, k);
	}
	strbuf_release(&scratch);
	return prefetch_start(pf, q->repo, tree);
}

static int series_begin(struct queue *q, struct series *s, int skip_check_first)
{
	const char *test_flush = getenv("GIT_MAINT_TEST_FLUSH_PATCHES");
	git_oid tree;

	memset(s, 0, sizeof(*s));
	s->q = q;
	s->aopts = (struct apply_opts)APPLY_OPTS_INIT;
	strbuf_init(&s->report, 0);
	git_oid_cpy(&s->tip, &q->tip);
	s->skip_check_first = skip_check_first;
	s->each = q->opts.build_each && q->opts.build_cmd;
	if (test_flush && atoi(test_flush) > 0)
		s->flush_every = atoi(test_flush);	/* tests: several flushes in a short series */
	s->aopts.fuzz = q->opts.fuzz;
	s->aopts.three_way = q->opts.three_way;
	/* Binary patches are held to the message size limit (apply.h). */
	if (source_opts_max_size(&q->opts.source, q->cfg, &s->aopts.max_binary) < 0 ||
	    commit_tree_id(q->repo, &s->tip, &tree) < 0 ||
	    apply_session_new(&s->session, q->repo, &tree, &s->aopts) < 0)
		return -1;
	q->session = s->session;
	if ((s->pf = start_reading_ahead(q, &tree)))
		apply_session_set_reader(s->session, read_ahead, s->pf);
	return 0;
}

/* The last patch was read: no more reading ahead. */
static void series_stop_reading(struct series *s)
{
	prefetch_stop(s->pf);
	s->pf = NULL;
	if (s->session)
		apply_session_set_reader(s->session, NULL, NULL);
}

static void series_end(struct queue *q, struct series *s)
{
	series_stop_reading(s);
	q->session = NULL;
	apply_session_free(s->session);
	strbuf_release(&s->report);
}

/*
 * Sets up the verifier of the run on first use: q->attest, NULL under
 * --attest=off. -1 (reported) on a bad attest.* value, on every call.
 */
static int queue_attest(struct queue *q)
{
	if (q->attest_ready)
		return q->attest_ready < 0 ? -1 : 0;
	q->attest_ready = -1;
	attest_conf_init(&q->ac);
	if (attest_conf_load(&q->ac, q->cfg, q->opts.attest) < 0)
		return -1;
	q->ac.read_ref = attest_keys_read_ref;
	q->ac.ref_ctx = q->repo;
	if (q->ac.policy != ATTEST_OFF)
		q->attest = attest_new(&q->ac);
	q->attest_ready = 1;
	return 0;
}

/*
 * Every patch's signatures, judged by the policy before anything is
 * applied: RESULT_OK, or (each refusal reported) RESULT_NO, or
 * RESULT_TEMPFAIL when only DNS could not answer.
 */
static enum maint_result judge_series(struct queue *q, const struct patch_mails *pms)
{
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct strbuf buf = STRBUF_INIT, what = STRBUF_INIT;
	enum maint_result ret = RESULT_OK;

	if (queue_attest(q) < 0)
		return RESULT_FATAL;
	for (size_t i = 0; q->attest && q->ac.policy >= ATTEST_SOFTFAIL && i < pms->nr; i++) {
		struct raw_mail raw;
		enum maint_result rc;

		if (patch_mails_get(pms, &pms->v[i], &buf, &raw) < 0) {
			ret = RESULT_FATAL;
			break;
		}
		if (attest_check(q->attest, &raw, &v) < 0) {
			ret = RESULT_FATAL;
			break;
		}
		strbuf_reset(&what);
		strbuf_addf(&what, "%s: message %zu", raw.origin, raw.number);
		rc = attest_apply_policy(q->ac.policy, &v, what.buf);
		if (rc == RESULT_NO || (rc == RESULT_TEMPFAIL && ret == RESULT_OK))
			ret = rc;
	}
	attest_verdict_release(&v);
	strbuf_release(&buf);
	strbuf_release(&what);
	return ret;
}

/* The tree's check command on patch k's mail: 0 (passed, or failed with a warning), or a stop. */
static int check_patch(struct queue *q, struct series *s, const struct walk_patch *p, size_t k)
{
	const char *wd = git_repository_workdir(q->repo);
	struct strbuf env = STRBUF_INIT;
	const char *envv[2];
	int rc;

	if (!q->opts.check_cmd || (s->skip_check_first && k == q->next))
		return 0;
	flush_applying(q);
	strbuf_addf(&env, "GIT_MAINT_PATCH=%zu", k);
	envv[0] = env.buf;
	envv[1] = NULL;
	rc = hook_run(q->opts.check_cmd, wd ? wd : git_repository_path(q->repo), p->buf, p->len, envv);
	strbuf_release(&env);
	if (rc < 0)
		return -1;
	if (rc && q->opts.check_stop) {
		error("check failed for patch %s (exit %d): %s", patch_name(q, k), rc, p->pm.subject.buf);
		return stop_at(q, k, STOP_CHECK, &s->tip, p->buf, p->len);
	}
	if (rc)
		warning("check failed for patch %s (exit %d): %s", patch_name(q, k), rc, p->pm.subject.buf);
	return 0;
}

/* The walker's hooks (common/engine/series-walk.h): patch k is the walk's p->i + 1. */
static int queue_mail(void *data, size_t i, struct strbuf *scratch, const char **buf, size_t *len)
{
	struct series *s = data;

	return mail_bytes(s->q, i + 1, scratch, buf, len);
}

/* Patch k decoded: 0 (said, checked), or a stop. */
static int queue_before(void *data, struct walk_patch *p)
{
	struct series *s = data;
	struct queue *q = s->q;
	size_t k = p->i + 1;

	if (!p->decoded)
		return stop_at(q, k, STOP_PATCH, &s->tip, p->buf, p->len);
	if (!p->pm.has_patch) {
		/* only a mail edited while stopped gets here: read_series() kept patches only */
		error("patch %s is empty: %s", patch_name(q, k), p->pm.subject.buf);
		return stop_at(q, k, STOP_PATCH, &s->tip, p->buf, p->len);
	}
	if (!q->opts.quiet) {
		struct attest_verdict v = ATTEST_VERDICT_INIT;
		struct strbuf line = STRBUF_INIT;
		struct raw_mail raw = { 0 };

		strbuf_addbuf(&line, &p->pm.subject);
		if (queue_attest(q) < 0) {
			strbuf_release(&line);
			return RESULT_FATAL;
		}
		if (q->attest) {
			raw.buf = p->buf;
			raw.len = p->len;
			raw.origin = p->mail->origin;
			raw.number = p->mail->number;
			if (attest_check(q->attest, &raw, &v) < 0) {
				attest_verdict_release(&v);
				strbuf_release(&line);
				return RESULT_FATAL;
			}
			attest_mark(&line, q->ac.policy, &v);
		}
		strvec_push(&q->applying, line.buf);
		attest_verdict_release(&v);
		strbuf_release(&line);
	}
	return check_patch(q, s, p, k);
}

/*
 * stop_at() patch k from the after hook, which has the mail's header only
 * (series-walk.h): its whole mail read again, as the walk read it.
 */
static enum maint_result stop_after(struct queue *q, struct series *s, size_t k)
{
	struct strbuf mail = STRBUF_INIT;
	const char *buf;
	size_t len;
	enum maint_result ret = RESULT_FATAL;

	if (!mail_bytes(q, k, &mail, &buf, &len))
		ret = stop_at(q, k, STOP_PATCH, &s->tip, buf, len);
	strbuf_release(&mail);
	return ret;
}

/* Why patch k did not apply, as git am says it; then the stop (and -3's conflicts). */
static int apply_failed(struct queue *q, struct series *s, const struct walk_patch *p, size_t k)
{
	const struct apply_result *res = &p->res;
	int ret;

	flush_applying(q);
	strbuf_reset(&s->report);
	apply_result_print(&s->report, res, APPLY_PRINT_HUMAN, NULL, 0);
	fflush(stdout);
	s->report.len = neutralise_controls(s->report.buf, s->report.len);
	report_flush();
	fwrite(s->report.buf, 1, s->report.len, stderr);
	for (size_t i = 0; i < res->nr; i++)
		if (res->files[i].conflict)
			say(stderr, "CONFLICT (content): Merge conflict in %s", res->files[i].new_path);
	error("patch %s does not apply to '%s': %s", patch_name(q, k), short_branch(q), p->pm.subject.buf);
	ret = stop_after(q, s, k);
	if (ret == RESULT_NO && res->conflicts > 0 && q->sync && write_conflicts(q, s->session, res) < 0)
		ret = -1;
	return ret;
}
/*
 * The commit git am makes of pm on parent with tree, and its note (the
 * mail it came from, from pm and buf[0..len), the mail's header) in the
 * batch: RESULT_OK, RESULT_NO when the mail has
 * no author to give it (reported), RESULT_FATAL.
 */
static enum maint_result commit_patch(struct queue *q, const struct patch_mail *pm, size_t k,
				      const char *buf, size_t len, const git_oid *tree,
				      const git_oid *parent, git_oid *commit)
{
	struct strbuf msg = STRBUF_INIT, author = STRBUF_INIT, note = STRBUF_INIT;
	enum maint_result ret = RESULT_FATAL;

	if (!pm->has_author || !pm->author_email.len) {
		flush_applying(q);
		error("patch %s has no valid author e-mail address", patch_name(q, k));
		ret = RESULT_NO;
		goto out;
	}
	if (ident_author_from_mail(&author, pm->author_name.buf, pm->author_email.buf,
				   pm->has_date ? pm->date.buf : NULL) < 0 ||
	    build_message(q, &msg, pm, k) < 0 ||
	    commit_write(commit, q->repo, &q->ow, tree, parent, author.buf, q->committer.buf, &msg) < 0)
		goto out;
	build_note(&note, pm, buf, len);
	if (notes_batch_add(&q->notes, commit, &note) < 0)
		goto out;
	q->step_commits++;
	q->step_last = k;
	strbuf_reset(&q->step_subject);
	strbuf_add(&q->step_subject, msg.buf, msg_first_line_len(msg.buf, msg.len));
	ret = RESULT_OK;
out:
	strbuf_release(&msg);
	strbuf_release(&author);
	strbuf_release(&note);
	return ret;
}

/* Patch k as a commit on s->tip: 0, or a stop. */
static int commit_series_patch(struct queue *q, struct series *s, const struct walk_patch *p, size_t k)
{
	git_oid tree, commit;
	enum maint_result rc;

	if (apply_session_write_tree(&tree, s->session, &q->ow) < 0)
		return stop_after(q, s, k);
	rc = commit_patch(q, &p->pm, k, p->buf, p->len, &tree, &s->tip, &commit);
	if (rc)
		return rc == RESULT_NO ? stop_after(q, s, k) : rc;
	git_oid_cpy(&s->tip, &commit);
	return 0;
}

/*
 * Bounds memory on long series: past QUEUE_FLUSH_BYTES (or every
 * GIT_MAINT_TEST_FLUSH_PATCHES patches) the new objects go to a pack
 * (unreferenced until the step moves the branch). The apply session
 * keeps its overlay and tree (bounded by the paths the series touches).
 */
static int bound_memory(struct queue *q, struct series *s)
{
	if ((s->flush_every && ++s->since_flush >= s->flush_every) ||
	    objwrite_pending(&q->ow) >= QUEUE_FLUSH_BYTES) {
		s->since_flush = 0;
		return objwrite_flush(&q->ow);
	}
	return 0;
}

/*
 * Patch k is already applied (series-walk.h): stepped over with one
 * line in place of its "Applying:", as git rebase steps over a commit
 * already upstream; the rest of the series goes on.
 */
static int skip_applied(struct queue *q, const struct walk_patch *p)
{
	if (q->opts.quiet)
		return 0;
	strvec_pop(&q->applying);
	flush_applying(q);
	if (p->applied_as_found)
		say(stdout, "Already applied as %.12s: %s", git_oid_tostr_s(&p->applied_as), p->pm.subject.buf);
	else
		say(stdout, "Already applied: %s", p->pm.subject.buf);
	return 0;
}

/* Patch k applied or not: committed (and landed, with build-each), skipped, or a stop. */
static int queue_after(void *data, struct walk_patch *p)
{
	struct series *s = data;
	struct queue *q = s->q;
	size_t k = p->i + 1;
	int rc;

	prefetch_passed(s->pf, k);
	if (!p->res.ok && p->already_applied)
		return skip_applied(q, p);
	if (!p->res.ok)
		return apply_failed(q, s, p, k);
	if ((rc = commit_series_patch(q, s, p, k)) || (rc = bound_memory(q, s)))
		return rc;
	return s->each ? land(q, &s->tip, k + 1, 1) : 0;
}

/*
 * Applies patches q->next..q->last on q->tip, each a commit, landing
 * them in one step (a step each, built, with build-each). 0 when all
 * landed (and built); RESULT_NO when the queue stopped at a patch, a
 * check or a build (state kept); RESULT_TEMPFAIL; -1.
 */
static enum maint_result run_series(struct queue *q, int skip_check_first)
{
	static const struct walk_hooks hooks = { queue_mail, queue_before, queue_after, WALK_AFTER_HEADER };
	struct walk_run r = WALK_RUN_INIT(NULL);
	struct series s;
	enum maint_result ret = series_begin(q, &s, skip_check_first);

	if (!ret) {
		r.session = s.session;
		r.mopts.scissors = q->opts.scissors;
		r.max_binary = s.aopts.max_binary;
		r.hooks = &hooks;
		r.data = &s;
		/* the branch as landed: what held a patch before this run queued any */
		r.applied = applied_index_new(q->repo, &q->base, NULL, q->applied_depth);
		ret = walk_run(&r, q->at, q->next - 1, q->last);
		applied_index_free(r.applied);
	}
	if (!ret) {
		series_stop_reading(&s);
		ret = land(q, &s.tip, q->last + 1, !q->opts.build_each);
	}
	series_end(q, &s);
	return ret;
}

/* ---- entry points ---- */

int queue_in_progress(git_repository *repo)
{
	char *dir = state_dir_path(repo, "queue");
	int ret = state_dir_exists(dir) != 0;

	free(dir);
	return ret;
}

/*
 * The series' bases (common/repo/applied.h). Without --base, a warning
 * per series whose base-commit (its cover letter's) the branch lacks.
 * With --base=auto, such a series is refused, as is one whose base the
 * repository does not have; one that names no base is queued on the
 * tip, with a warning. --base=<commit> is every series' base.
 * RESULT_OK, RESULT_NO (refused, reported: nothing queued), RESULT_FATAL.
 */
static enum maint_result check_base(const struct queue *q, const struct patch_mails *pms)
{
	const char *given = q->opts.base && strcmp(q->opts.base, "auto") ? q->opts.base : NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t lacking = 0;

	if (given) {
		git_commit *c;

		if (repo_lookup_commit(&c, q->repo, given) < 0)
			return RESULT_FATAL;
		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		git_commit_free(c);
	}
	for (size_t u = 0; u < pms->series_nr; u++) {
		const char *base = given ? hex : pms->series[u].base_commit;
		const char *subject = pms->series[u].subject;
		int held = base ? applied_base_held(q->repo, &q->orig, base) : 1;

		if (held < 0)
			return RESULT_FATAL;
		if (!base && q->opts.base && !q->opts.quiet)
			warning("the series names no base-commit; queued on the tip of '%s': %s", short_branch(q),
				subject);
		if (held || (!q->opts.base && q->opts.quiet))
			continue;
		if (!q->opts.base) {
			warning("'%s' lacks the series' base-commit %.12s: %s", short_branch(q), base, subject);
			continue;
		}
		error("'%s' lacks %s %.12s: %s", short_branch(q), given ? "the base" : "the series' base-commit",
		      base, subject);
		lacking++;
	}
	if (!lacking)
		return RESULT_OK;
	advise("nothing queued; queue %s on a branch that holds %s, or without --base on the tip of '%s'",
	       lacking == 1 ? "it" : "them", given ? "the base" : "its base", short_branch(q));
	return RESULT_NO;
}

/*
 * A run queues one series (or those --series names): the patches of a
 * mailbox that holds several are not queued as one.
 */
static int one_series(const struct queue *q, const struct walk *w)
{
	struct strbuf list = STRBUF_INIT;

	if (w->pms.series_nr <= 1 || (q->opts.series && q->opts.series->nr))
		return 0;
	error("the input holds %zu series; name the one to queue with --series <n> or "
	      "--series <Message-ID>:", w->pms.series_nr);
	patch_mails_list_series(&w->pms, &list);
	say(stderr, "%.*s", (int)list.len - 1, list.buf);
	strbuf_release(&list);
	return -1;
}

/*
 * The patches of the inputs, in the order to apply them (common/engine/series-walk.h):
 * cover letters, replies, duplicates and other mail are stepped over here,
 * one line each, and are not stored. RESULT_OK; RESULT_NO when a message is
 * over mbox.max-message-size or the series to queue is not one (reported:
 * nothing queued); RESULT_FATAL.
 */
static enum maint_result read_series(struct queue *q, const char *const *args, size_t nargs)
{
	struct walk w = WALK_INIT;
	struct walk_read_opts wo = { 0 };
	enum maint_result rc;

	wo.source = &q->opts.source;
	wo.cfg = q->cfg;
	wo.say = q->opts.quiet ? NULL : stdout;
	wo.quiet = q->opts.quiet;
	/* --no-trailers: nothing to read them for, but to list them */
	if (q->opts.review && (q->preview || q->opts.review->take != REVIEW_TAKE_NONE))
		wo.review = q->opts.review;
	wo.trailers = &q->trailers;
	wo.series = q->opts.series;
	if (queue_attest(q) < 0)
		return RESULT_FATAL;
	wo.attest = q->attest;
	if ((rc = walk_read(&w, args, nargs, &wo)) != RESULT_OK || one_series(q, &w) < 0 ||
	    (rc = judge_series(q, &w.pms)) != RESULT_OK) {
		walk_release(&w);
		return rc != RESULT_OK ? rc : RESULT_NO;
	}
	if ((rc = check_base(q, &w.pms)) != RESULT_OK) {
		walk_release(&w);
		return rc;
	}
	/* One input: its message numbers are the queue's, so errors can name it. */
	if (nargs <= 1)
		q->source = xstrdup(nargs ? args[0] : "-");
	q->at = xcalloc(w.nr + 1, sizeof(*q->at));
	for (size_t i = 0; i < w.nr; i++) {
		q->at[i] = w.v[i];
		q->at[i].origin = mail_origin(q);
	}
	q->nr = w.nr;
	patch_mails_skipped(&w.pms, &q->skipped);
	take_review(q, &w.pms);
	/* the mails stay in its spool until write_mails(): the mailbox is never in memory */
	q->walk = w;
	q->has_walk = 1;
	return RESULT_OK;
}

/*
 * The "mails" file, from the spool, a mail at a time ("<length>\n<bytes>\n"
 * each); then the mails are read from it. 0, or -1 (reported).
 */
static int write_mails(struct queue *q)
{
	struct state_writer w;
	struct strbuf buf = STRBUF_INIT, len = STRBUF_INIT;
	size_t total = 0, nr = q->nr;
	int ret = -1;

	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&len);
		strbuf_addf(&len, "%zu\n", q->walk.pms.v[i].len);
		total = st_add(total, st_add(len.len, q->walk.pms.v[i].len + 1));
	}
	if (state_writer_begin(&w, q->dir, "mails", total) < 0)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&len);
		if (walk_get(&q->walk, i, &buf) < 0) {
			state_writer_abandon(&w);
			goto out;
		}
		strbuf_addf(&len, "%zu\n", buf.len);
		if (state_writer_add(&w, len.buf, len.len) < 0 ||
		    state_writer_add(&w, buf.buf, buf.len) < 0 || state_writer_add(&w, "\n", 1) < 0)
			goto out;
	}
	if (state_writer_commit(&w, NULL, &q->mails) < 0)
		goto out;
	walk_release(&q->walk);
	q->has_walk = 0;
	q->nr = 0;
	if (parse_mails(q) < 0)
		goto out;
	if (q->nr != nr) {
		error("queue state: the stored series is damaged");
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&buf);
	strbuf_release(&len);
	return ret;
}

static int write_numbers(struct queue *q)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	for (size_t k = 0; k < q->nr; k++)
		strbuf_addf(&sb, "%zu %d %d\n", q->at[k].number, q->at[k].k, q->at[k].total);
	ret = state_write(q->dir, "numbers", &sb, NULL);
	strbuf_release(&sb);
	return ret;
}

static int setup_identity(struct queue *q)
{
	if (ident_committer(&q->committer, q->cfg) < 0 ||
	    ident_committer_name_email(&q->signer, q->cfg) < 0)
		return -1;
	if (objwrite_begin(&q->ow, q->repo) < 0 || notes_batch_begin(&q->notes, q->repo, &q->ow) < 0)
		return -1;
	q->notes_open = 1;
	return 0;
}

static void copy_opts(struct queue_opts *dst, const struct queue_opts *src)
{
	*dst = *src;
	dst->link_mask = xstrdup_or_null(src->link_mask);
	dst->check_cmd = xstrdup_or_null(src->check_cmd);
	dst->build_cmd = xstrdup_or_null(src->build_cmd);
	dst->attest = xstrdup_or_null(src->attest);
}

static void say_done(struct queue *q)
{
	if (!git_oid_equal(&q->orig, &q->tip)) {
		char a[GIT_OID_HEXSZ + 1];

		git_oid_tostr(a, 12, &q->orig);
		say(stdout, "Queued on '%s': %s..%.11s", short_branch(q), a, git_oid_tostr_s(&q->tip));
	} else {
		say(stdout, "Nothing queued on '%s'", short_branch(q));
	}
}

static enum maint_result finish(struct queue *q, enum maint_result ret)
{
	if (ret == RESULT_OK) {
		if (state_dir_remove(q->dir) < 0)
			return RESULT_FATAL;
		say_done(q);
	} else if (q->fresh && ret != RESULT_NO) {
		/* Nothing was moved: leave no state behind, the user simply runs again. */
		state_dir_remove(q->dir);
	}
	return ret;
}

enum maint_result queue_start(git_repository *repo, const struct maint_config *cfg,
			      const struct state_lock *lock, const char *branch,
			      const char *const *args, size_t nargs, const struct queue_opts *opts)
{
	struct queue q;
	enum maint_result ret = RESULT_FATAL, rc;
	int sync;

	queue_init(&q, repo, cfg, lock);
	sync = queue_state_exists(&q);
	if (sync < 0)
		goto out;
	if (sync) {
		error("a queue is in progress ('%s'); use 'git maint-queue --continue', "
		      "'--skip' or '--abort'", q.dir);
		goto out;
	}
	if (applied_depth_config(cfg, &q.applied_depth) < 0)
		goto out;
	q.branch = xstrdup(branch);
	copy_opts(&q.opts, opts);
	if (read_ref(repo, branch, &q.orig, NULL) < 0)
		goto out;
	sync = worktree_branch_state(repo, branch);
	if (sync < 0 || sync == 2)
		goto out;
	q.sync = sync;
	if (q.sync && repo_index_locked(repo)) {
		ret = RESULT_TEMPFAIL;
		goto out;
	}
	git_oid_cpy(&q.base, &q.orig);
	git_oid_cpy(&q.tip, &q.orig);
	if (read_ref(repo, NOTES_REF, &q.notes_orig, &q.has_notes_orig) < 0)
		goto out;
	git_oid_cpy(&q.notes_base, &q.notes_orig);
	git_oid_cpy(&q.notes_tip, &q.notes_orig);
	q.has_notes_base = q.has_notes_tip = q.has_notes_orig;
	trailer_conf_load(&q.trailers, cfg);
	rc = read_series(&q, args, nargs);
	if (rc != RESULT_OK) {
		ret = rc;	/* RESULT_TEMPFAIL too: attestation, DNS down */
		goto out;
	}
	if (!q.nr) {
		error("no patches found");
		ret = RESULT_NO;
		goto out;
	}
	q.next = 1;
	q.last = q.nr;
	if (setup_identity(&q) < 0)
		goto out;
	if (state_dir_create(q.dir) < 0)
		goto out;
	q.fresh = 1;
	if (write_mails(&q) < 0 || write_numbers(&q) < 0 ||
	    write_trailers(&q) < 0 || save_state(&q, NULL) < 0) {
		state_dir_remove(q.dir);
		goto out;
	}
	if (q.sync && refstep_record(repo, lock, "ORIG_HEAD", &q.orig, "maint-queue: start") < 0)
		goto out;
	crash_point("queue-after-read");
	if (!q.opts.quiet)
		say(stdout, "Queueing %zu patch%s on '%s'%s", q.nr, q.nr == 1 ? "" : "es",
		    short_branch(&q), q.skipped.buf);
	if (!q.opts.quiet)
		say_review(&q);
	ret = finish(&q, run_series(&q, 0));
out:
	queue_release(&q);
	return ret;
}

/*
 * The user may have checked the branch out, or switched away from it,
 * while the queue was stopped: the work tree to keep in step is the one
 * where the branch is checked out now.
 */
static int recheck_sync(struct queue *q)
{
	int st = worktree_branch_state(q->repo, q->branch);

	if (st < 0 || st == 2)
		return -1;
	q->sync = st;
	return 0;
}

/*
 * The user resolved the stopped patch in the index: commit that.
 * RESULT_NO when there is nothing to commit.
 */
static enum maint_result commit_resolved(struct queue *q)
{
	git_index *index = NULL;
	git_oid tree, head_tree, commit;
	struct patch_mail pm;
	struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	struct strbuf edited = STRBUF_INIT;
	struct raw_mail raw = { 0 };
	const char *buf;
	size_t len;
	enum maint_result ret = RESULT_FATAL;

	mailinfo_init(&pm);
	mopts.scissors = q->opts.scissors;
	if (lg2_check(git_repository_index(&index, q->repo), "cannot read the index") < 0 ||
	    lg2_check(git_index_read(index, 0), "cannot read the index") < 0)
		goto out;
	if (git_index_has_conflicts(index)) {
		error("the index still has conflicts: resolve them and 'git add' the files");
		goto out;
	}
	if (lg2_check(git_index_write_tree(&tree, index), "cannot write the index as a tree") < 0 ||
	    commit_tree_id(q->repo, &q->tip, &head_tree) < 0)
		goto out;
	if (git_oid_equal(&tree, &head_tree)) {
		ret = RESULT_NO;
		goto out;
	}
	if (mail_bytes(q, q->next, &edited, &buf, &len) < 0)
		goto out;
	raw.buf = buf;
	raw.len = len;
	raw.origin = mail_origin(q);
	raw.number = q->next;
	if (mailinfo_parse(&pm, &raw, &mopts) < 0 ||
	    commit_patch(q, &pm, q->next, buf, len, &tree, &q->tip, &commit))
		goto out;
	if (!q->opts.quiet)
		say(stdout, "Applying: %s", pm.subject.buf);
	/* The index and work tree already hold the result: no sync for this step. */
	q->worktree_done = 1;
	ret = do_step(q, &commit, q->next + 1);
	q->worktree_done = 0;
out:
	git_index_free(index);
	mailinfo_release(&pm);
	strbuf_release(&edited);
	return ret;
}

enum maint_result queue_continue(git_repository *repo, const struct maint_config *cfg,
				 const struct state_lock *lock, int skip, int quiet)
{
	struct queue q;
	enum maint_result ret = RESULT_FATAL;
	int skip_check = 0, rc;
	struct strbuf edited = STRBUF_INIT;

	queue_init(&q, repo, cfg, lock);
	rc = queue_state_exists(&q);
	if (!rc)
		error("no queue in progress");
	if (rc <= 0)
		goto out;
	if (applied_depth_config(cfg, &q.applied_depth) < 0 || load_state(&q) < 0 || recheck_sync(&q) < 0)
		goto out;
	/* The stored patch the user may have edited must be readable (a file, not a link). */
	if (q.stopped != STOP_NONE && state_read_raw(q.dir, "patch", &edited) < 0)
		goto out;
	if (quiet)
		q.opts.quiet = 1;
	if (q.sync && repo_index_locked(repo)) {
		ret = RESULT_TEMPFAIL;
		goto out;
	}
	trailer_conf_load(&q.trailers, cfg);
	if (setup_identity(&q) < 0 || finish_step(&q) < 0)
		goto out;
	if (q.stopped == STOP_BUILD) {
		if (skip)
			warning("the build failed after patch %s; --skip accepts it as it is", patch_name(&q, q.next - 1));
		else if ((ret = build(&q)))
			goto out;
		q.stopped = STOP_NONE;
		if (save_state(&q, NULL) < 0)
			goto out;
		if (q.next > q.last) {
			ret = finish(&q, RESULT_OK);
			goto out;
		}
		ret = finish(&q, run_series(&q, 0));
		goto out;
	}
	if (q.stopped != STOP_NONE && q.next <= q.last) {
		if (skip) {
			if (reset_conflicts(&q, &q.tip) < 0)
				goto out;
			q.next++;
			q.stopped = STOP_NONE;
		} else if (q.sync) {
			enum maint_result resolved = commit_resolved(&q);

			if (resolved < 0)
				goto out;
			if (resolved == RESULT_OK) {
				q.stopped = STOP_NONE;
				if (forget_conflicts(&q, 0) < 0)
					goto out;
			} else {
				skip_check = 1;
				if (forget_conflicts(&q, 1) < 0)
					goto out;
			}
		} else {
			skip_check = 1;
		}
		if (q.stopped == STOP_NONE && state_remove(q.dir, "patch") < 0)
			goto out;
		if (save_state(&q, NULL) < 0)
			goto out;
	} else if (skip) {
		error("nothing to skip: the queue did not stop at a patch");
		goto out;
	}
	if (q.next > q.last) {
		ret = finish(&q, q.opts.build_each ? RESULT_OK : build(&q));
		goto out;
	}
	ret = finish(&q, run_series(&q, skip_check));
out:
	strbuf_release(&edited);
	queue_release(&q);
	return ret;
}

/*
 * Before --abort moves the branch back: would putting the work tree back
 * (the paths changed since orig, and those a conflict left) lose
 * untracked files? Then nothing moves (as git am --abort refuses).
 */
static int abort_check(struct queue *q, const git_oid *cur)
{
	struct strvec paths = STRVEC_INIT;
	git_oid a, b;
	int ret = 0;

	if (!q->sync)
		goto out;
	if (changed_paths(q, cur, &q->orig, &paths, &a, &b) < 0 || read_conflict_paths(q, &paths) < 0) {
		ret = -1;
		goto out;
	}
	ret = worktree_check_untracked(q->repo, q->cfg, &a, &b, &paths, "--abort");
out:
	strvec_clear(&paths);
	return ret;
}

/*
 * --abort's step: the branch back at orig when it is still the queue's,
 * the notes ref at notes-orig (removed when there was none) when it is
 * still at the queue's last notes.
 */
struct abort_step {
	struct queue *q;
	git_oid cur;		/* where the branch is */
	int branch_back;	/* the branch moves back */
	struct refstep_move moves[2];
	struct refstep step;
};

static int abort_after_move(void *data)
{
	struct abort_step *a = data;

	return a->branch_back ? sync_worktree(a->q, &a->cur, &a->q->orig, 1) : 0;
}

/* The notes ref's move back, when the queue's notes are still on it: 1, 0 none, -1 error. */
static int abort_notes(struct queue *q, struct refstep_move *m)
{
	git_oid cur;
	int exists;

	if (read_ref(q->repo, NOTES_REF, &cur, &exists) < 0)
		return -1;
	if (!exists || !q->has_notes_tip || !git_oid_equal(&cur, &q->notes_tip) ||
	    (q->has_notes_orig && git_oid_equal(&cur, &q->notes_orig)))
		return 0;
	m->ref = NOTES_REF;
	git_oid_cpy(&m->old, &cur);
	m->has_old = 1;
	git_oid_cpy(&m->new, &q->notes_orig);
	m->remove = !q->has_notes_orig;
	m->reflog = "maint-queue: abort";
	return 1;
}

enum maint_result queue_abort(git_repository *repo, const struct maint_config *cfg,
			      const struct state_lock *lock)
{
	struct queue q;
	struct abort_step a = { .q = &q };
	const git_oid *from;
	enum maint_result ret = RESULT_FATAL;
	int exists, ours = 0, resync = 0, rc;

	queue_init(&q, repo, cfg, lock);
	rc = state_dir_exists(q.dir);
	if (!rc) {
		error("no queue in progress");
		goto out;
	}
	if (rc < 0) {
		/* Not ours: a link there is removed, what it points to is not touched. */
		ret = state_dir_remove(q.dir);
		if (!ret)
			warning("removed '%s': it was not a directory (a symbolic link?); "
				"no branch was reset", q.dir);
		goto out;
	}
	if (load_state(&q) < 0) {
		warning("removing the damaged queue state; no branch was reset");
		ret = state_dir_remove(q.dir);
		goto out;
	}
	if (recheck_sync(&q) < 0 || read_ref(repo, q.branch, &a.cur, &exists) < 0)
		goto out;
	/*
	 * As git am --abort: a branch someone else moved (or deleted) since
	 * the stop is theirs now; the state goes, the branch stays.
	 */
	if (!exists)
		warning("'%s' no longer exists; not recreating it (it was at %s before the queue)",
			short_branch(&q), git_oid_tostr_s(&q.orig));
	else if (git_oid_equal(&a.cur, &q.tip) || git_oid_equal(&a.cur, &q.base))
		ours = 1;
	else if (git_oid_equal(&a.cur, &q.orig))
		ours = resync = 1;	/* an --abort killed after it moved the branch back */
	else
		warning("'%s' moved since the queue stopped; not resetting it (it was at %s before the queue)",
			short_branch(&q), git_oid_tostr_s(&q.orig));
	/* The work tree goes from (where the branch is, or was) back to orig. */
	from = resync ? &q.tip : &a.cur;
	if (ours && !git_oid_equal(from, &q.orig)) {
		if (q.sync && repo_index_locked(repo)) {
			ret = RESULT_TEMPFAIL;
			goto out;
		}
		if (abort_check(&q, from))
			goto out;
	}
	if (ours && !git_oid_equal(&a.cur, &q.orig)) {
		struct refstep_move *m = &a.moves[a.step.nr++];

		m->ref = q.branch;
		git_oid_cpy(&m->old, &a.cur);
		m->has_old = 1;
		git_oid_cpy(&m->new, &q.orig);
		m->reflog = "maint-queue: abort";
		a.branch_back = 1;
	}
	rc = abort_notes(&q, &a.moves[a.step.nr]);
	if (rc < 0)
		goto out;
	a.step.nr += rc;
	a.step.repo = repo;
	a.step.lock = lock;
	a.step.name = "queue-abort";
	a.step.moves = a.moves;
	a.step.after_move = abort_after_move;
	a.step.data = &a;
	if ((a.step.nr && refstep_run(&a.step) < 0) ||
	    (resync && sync_worktree(&q, &q.tip, &q.orig, 1) < 0) ||
	    (ours && reset_conflicts(&q, &q.orig) < 0))
		goto out;
	ret = state_dir_remove(q.dir);
	if (!ret && ours)
		say(stdout, "'%s' is back at %s", short_branch(&q), git_oid_tostr_s(&q.orig));
out:
	queue_release(&q);
	return ret;
}

int queue_show_current(git_repository *repo, struct strbuf *out)
{
	struct queue q;
	int ret = -1, rc;

	queue_init(&q, repo, NULL, NULL);
	rc = queue_state_exists(&q);
	if (!rc)
		error("no queue in progress");
	if (rc <= 0)
		goto out;
	rc = state_read_raw(q.dir, "patch", out);
	if (rc > 0)
		error("the queue did not stop at a patch");
	else if (!rc)
		ret = 0;
out:
	queue_release(&q);
	return ret;
}

/* Patch k's trailer block as build_message() makes it, each line indented, to out. */
static int preview_patch(struct queue *q, struct patch_mail *pm, size_t k, struct strbuf *out)
{
	struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct strbuf mail = STRBUF_INIT;
	struct raw_mail raw = { 0 };
	size_t start, end;
	int ret = -1;

	mopts.scissors = q->opts.scissors;
	if (mail_bytes(q, k, &mail, &raw.buf, &raw.len) < 0)
		goto out;
	raw.origin = mail_origin(q);
	raw.number = q->at[k - 1].number;
	if (mailinfo_parse(pm, &raw, &mopts) < 0)
		goto out;
	strbuf_addf(out, "Patch %s: %s\n", patch_name(q, k), pm->subject.buf);
	build_message(q, &msg, pm, k);
	msg_trailer_block(msg.buf, msg.len, &q->trailers, &start, &end);
	while (start < end) {
		const char *eol = memchr(msg.buf + start, '\n', end - start);
		size_t next = eol ? (size_t)(eol - msg.buf) + 1 : end;

		strbuf_addstr(out, "    ");
		strbuf_add(out, msg.buf + start, next - start);
		start = next;
	}
	if (q->uncarried)
		strbuf_addbuf(out, &q->uncarried[k - 1]);
	ret = 0;
out:
	strbuf_release(&msg);
	strbuf_release(&mail);
	return ret;
}

enum maint_result queue_show_trailers(git_repository *repo, const struct maint_config *cfg,
				      const char *const *args, size_t nargs,
				      const struct queue_opts *opts, struct strbuf *out)
{
	struct patch_mail pm;
	struct queue q;
	enum maint_result ret = RESULT_FATAL, rc;

	queue_init(&q, repo, cfg, NULL);
	mailinfo_init(&pm);
	copy_opts(&q.opts, opts);
	q.opts.quiet = 1;	/* the listing only: no "Skipping" lines */
	q.preview = 1;
	trailer_conf_load(&q.trailers, cfg);
	if (q.opts.signoff && ident_committer_name_email(&q.signer, cfg) < 0)
		goto out;
	rc = read_series(&q, args, nargs);
	if (rc != RESULT_OK) {
		ret = rc;
		goto out;
	}
	if (!q.nr) {
		error("no patches found");
		ret = RESULT_NO;
		goto out;
	}
	for (size_t k = 1; k <= q.nr; k++)
		if (preview_patch(&q, &pm, k, out) < 0)
			goto out;
	if (q.unplaced.len) {
		strbuf_addstr(out, "Not carried (given to patches the newest version dropped):\n");
		strbuf_addbuf(out, &q.unplaced);
	}
	ret = RESULT_OK;
out:
	mailinfo_release(&pm);
	queue_release(&q);
	return ret;
}
