/* SPDX-License-Identifier: GPL-2.0-only */
#include "refstep.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static void hit(const struct refstep *s, const char *point)
{
	char label[128];

	snprintf(label, sizeof(label), "%s-%s", s->name, point);
	crash_point(label);
	if (s->point_suffix) {
		snprintf(label, sizeof(label), "%s-%s%s", s->name, point, s->point_suffix);
		crash_point(label);
	}
}

int refstep_read(git_repository *repo, const char *ref, git_oid *oid, int *exists)
{
	int rc = git_reference_name_to_id(oid, repo, ref);

	*exists = 0;
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (lg2_check(rc, "cannot read '%s'", ref) < 0)
		return -1;
	*exists = 1;
	return 0;
}

/* Removes the ref if it holds m->old: libgit2 deletes only what it looked up. */
static int remove_one(git_repository *repo, const struct refstep_move *m)
{
	git_reference *ref = NULL;
	int rc = git_reference_lookup(&ref, repo, m->ref);

	if (!rc && (git_reference_type(ref) != GIT_REFERENCE_DIRECT ||
		    !git_oid_equal(git_reference_target(ref), &m->old)))
		rc = GIT_EMODIFIED;
	else if (!rc)
		rc = git_reference_delete(ref);
	git_reference_free(ref);
	if (rc == GIT_EMODIFIED || rc == GIT_ENOTFOUND)
		return error("'%s' changed while we were working; not removing it", m->ref);
	return lg2_check(rc, "cannot remove '%s'", m->ref);
}

static int move_one(git_repository *repo, const struct refstep_move *m)
{
	git_reference *ref = NULL;
	int rc;

	if (m->remove)
		return remove_one(repo, m);
	if (m->has_old)
		rc = git_reference_create_matching(&ref, repo, m->ref, &m->new, 1, &m->old, m->reflog);
	else
		rc = git_reference_create(&ref, repo, m->ref, &m->new, 0, m->reflog);
	git_reference_free(ref);
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS)
		return error("'%s' changed while we were working; not moving it", m->ref);
	return lg2_check(rc, "cannot update '%s'", m->ref);
}

/* 1 when the ref holds the move's old value (or is absent and must be). */
static int at_old(const struct refstep_move *m, const git_oid *cur, int exists)
{
	if (!m->has_old)
		return !exists;
	return exists && git_oid_equal(cur, &m->old);
}

static void check_lock(const struct refstep *s)
{
	if (!s->lock || s->lock->fd < 0)
		BUG("%s: a ref step without the repository lock", s->name);
}

static int move_all(const struct refstep *s, size_t from)
{
	for (size_t i = from; i < s->nr; i++) {
		if (move_one(s->repo, &s->moves[i]) < 0)
			return -1;
		if (i == 0)
			hit(s, "after-ref");
	}
	return 0;
}

static int after(const struct refstep *s)
{
	if (s->after_move && s->after_move(s->data) < 0)
		return -1;
	if (s->save_state && s->save_state(s->data, REFSTEP_DONE, NULL) < 0)
		return -1;
	return 0;
}

int refstep_run(const struct refstep *s)
{
	char label[128];

	check_lock(s);
	if (s->write_objects && s->write_objects(s->data) < 0)
		return -1;
	hit(s, "objects-written");
	for (size_t i = 0; i < s->nr; i++) {
		git_oid cur;
		int exists;

		if (refstep_read(s->repo, s->moves[i].ref, &cur, &exists) < 0)
			return -1;
		if (!at_old(&s->moves[i], &cur, exists))
			return error("'%s' changed while we were working; not moving it",
				     s->moves[i].ref);
	}
	snprintf(label, sizeof(label), "%s-state-write", s->name);
	if (s->save_state && s->save_state(s->data, REFSTEP_STARTED, label) < 0)
		return -1;
	hit(s, "before-ref");
	if (move_all(s, 0) < 0)
		return -1;
	return after(s);
}

static int object_present(const struct refstep *s, const git_oid *oid)
{
	git_odb *odb = NULL;
	int ok;

	if (lg2_check(git_repository_odb(&odb, s->repo), "cannot open the object database") < 0)
		return -1;
	ok = git_odb_exists(odb, oid);
	git_odb_free(odb);
	if (!ok)
		return error("the objects of the interrupted %s step are missing (%s)",
			     s->name, git_oid_tostr_s(oid));
	return 0;
}

static int finish_one(const struct refstep *s, size_t i)
{
	const struct refstep_move *m = &s->moves[i];
	char at[GIT_OID_HEXSZ + 1], to[GIT_OID_HEXSZ + 1];
	git_oid cur;
	int exists;

	if (refstep_read(s->repo, m->ref, &cur, &exists) < 0)
		return -1;
	if (m->remove ? !exists : exists && git_oid_equal(&cur, &m->new))
		return 0;
	if (at_old(m, &cur, exists)) {
		if (!m->remove && object_present(s, &m->new) < 0)
			return -1;
		if (i == 0)
			hit(s, "before-ref");
		if (move_one(s->repo, m) < 0)
			return -1;
		if (i == 0)
			hit(s, "after-ref");
		return 0;
	}
	if (m->flags & REFSTEP_MAY_MOVE) {
		if (m->remove)
			warning("'%s' changed meanwhile; this %s step was to remove it", m->ref, s->name);
		else
			warning("'%s' changed meanwhile; the value this %s step gave it is %s",
				m->ref, s->name, git_oid_tostr_s(&m->new));
		return 0;
	}
	if (m->remove)
		return error("'%s' moved since the %s step began (it is at %s, the step removes it)",
			     m->ref, s->name, git_oid_tostr(at, sizeof(at), &cur));
	git_oid_tostr(to, sizeof(to), &m->new);
	if (!exists)
		return error("'%s' was deleted since the %s step began (it was to move to %s)",
			     m->ref, s->name, to);
	/* Two ids in one message: git_oid_tostr_s() has one buffer. */
	return error("'%s' moved since the %s step began (it is at %s, the step moves it to %s)",
		     m->ref, s->name, git_oid_tostr(at, sizeof(at), &cur), to);
}

int refstep_record(git_repository *repo, const struct state_lock *lock, const char *ref,
		   const git_oid *oid, const char *reflog)
{
	git_reference *r = NULL;
	int rc;

	if (!lock || lock->fd < 0)
		BUG("'%s' set without the lock", ref);
	if (strcmp(ref, "ORIG_HEAD"))
		BUG("'%s' is not a ref that records a fact", ref);
	rc = git_reference_create(&r, repo, ref, oid, 1, reflog);
	git_reference_free(r);
	return lg2_check(rc, "cannot update '%s'", ref);
}

int refstep_finish(const struct refstep *s)
{
	check_lock(s);
	for (size_t i = 0; i < s->nr; i++)
		if (finish_one(s, i) < 0)
			return -1;
	return after(s);
}
