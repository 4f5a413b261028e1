/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dry-apply engine (see dry-apply.h): reads the series, applies it in
 * memory to each target's tip and reports in GNU patch's words or as
 * --porcelain records.
 */
#include "dry-apply.h"
#include "applied.h"
#include "apply.h"
#include "attest-keys.h"
#include "attest.h"
#include "mailinfo.h"
#include "quote.h"
#include "range-diff.h"
#include "repo.h"
#include "report-color.h"
#include "series-walk.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A patch's attestation, as its line and its porcelain record show it. */
struct patch_attest {
	char *mark;		/* attest_mark() (" [G ed25519/dev@example.org]"), maybe "" */
	char verdict;		/* 0 when not shown */
	char *signer, *why;	/* the deciding signature's, when shown */
};

/*
 * The series (common/engine/series-walk.h): the patches stay in the
 * walk's spool and are read, parsed and applied one at a time, so memory
 * does not grow with the mailbox.
 */
struct series {
	struct walk w;
	struct strbuf *trailers;	/* per patch: what the follow-ups give it (review_format()) */
	struct strbuf skipped;	/* " (1 cover letter skipped)" */
	struct strbuf unplaced;	/* trailers of patches the newest version dropped */
	struct strbuf porcelain;	/* the attest and trailer records */
	struct patch_attest *att;	/* per patch; NULL under --attest=off */
	struct attest_conf ac;
	struct attest *attest;	/* NULL under --attest=off */
	struct report_colors colors;	/* of the report, off with --porcelain */
};

static void series_clear(struct series *s)
{
	for (size_t i = 0; s->trailers && i < s->w.nr; i++)
		strbuf_release(&s->trailers[i]);
	free(s->trailers);
	for (size_t i = 0; s->att && i < s->w.nr; i++) {
		free(s->att[i].mark);
		free(s->att[i].signer);
		free(s->att[i].why);
	}
	free(s->att);
	attest_free(s->attest);
	attest_conf_release(&s->ac);
	walk_release(&s->w);
	strbuf_release(&s->skipped);
	strbuf_release(&s->unplaced);
	strbuf_release(&s->porcelain);
}

/* "trailer<TAB><n><TAB><verdict><TAB><trailer><TAB><sender><TAB><note>" records of one list. */
static void porcelain_trailers(struct strbuf *out, const struct review_list *rl, const char *n)
{
	for (size_t k = 0; k < rl->nr; k++) {
		const struct review_item *it = &rl->v[k];

		strbuf_addf(out, "trailer\t%s\t%s\t", n, review_verdict_name(it->verdict));
		apply_quote_field(out, it->trailer->line, strlen(it->trailer->line));
		strbuf_addch(out, '\t');
		apply_quote_field(out, it->replier, strlen(it->replier));
		strbuf_addch(out, '\t');
		apply_quote_field(out, it->note, strlen(it->note));
		strbuf_addch(out, '\n');
	}
}

/* "attest<TAB><n><TAB><verdict><TAB><signer><TAB><why>" of the patches that show one. */
static void porcelain_attest(struct series *s)
{
	for (size_t i = 0; s->att && i < s->w.nr; i++) {
		const struct patch_attest *a = &s->att[i];

		if (!a->verdict)
			continue;
		strbuf_addf(&s->porcelain, "attest\t%zu\t%c\t", i + 1, a->verdict);
		apply_quote_field(&s->porcelain, a->signer, strlen(a->signer));
		strbuf_addch(&s->porcelain, '\t');
		apply_quote_field(&s->porcelain, a->why, strlen(a->why));
		strbuf_addch(&s->porcelain, '\n');
	}
}

/* The trailers of the series' patches, for the report. */
static void add_review(struct series *s)
{
	const struct review *rv = s->w.pms.review;
	char n[32];

	porcelain_attest(s);
	s->trailers = xcalloc(s->w.nr + 1, sizeof(*s->trailers));
	for (size_t i = 0; i < s->w.nr; i++) {
		strbuf_init(&s->trailers[i], 0);
		snprintf(n, sizeof(n), "%zu", i + 1);
		review_format(&s->trailers[i], review_for(rv, i), "    ");
		porcelain_trailers(&s->porcelain, review_for(rv, i), n);
	}
	review_format(&s->unplaced, review_unplaced(rv), "    ");
	porcelain_trailers(&s->porcelain, review_unplaced(rv), "-");
}

/*
 * --range-diff: each series' two newest versions. RESULT_NO when no
 * series has two, or one pair of versions is too large (reported; the
 * others are shown).
 */
static enum maint_result show_range_diffs(const struct patch_mails *pms, const struct dry_apply_opts *o,
					  const struct maint_config *cfg)
{
	struct strbuf out = STRBUF_INIT;
	struct report_colors colors;
	enum maint_result ret = RESULT_FATAL;
	size_t refused = 0;

	for (size_t i = 0; i < pms->versions_nr; i++) {
		int rc;

		if (out.len)
			strbuf_addch(&out, '\n');
		rc = range_diff_versions(&out, pms, &pms->versions[i], o->creation_factor);
		if (rc < 0)
			goto cleanup;
		refused += rc;
	}
	strbuf_setlen(&out, neutralise_controls(out.buf, out.len));
	report_colors_load(&colors, cfg, o->color);
	range_diff_colorize(&out, &colors);
	if (write_or_error(1, out.buf, out.len) < 0)
		goto cleanup;
	ret = refused ? RESULT_NO : RESULT_OK;
	if (!pms->versions_nr) {
		error("no series with two versions in the input");
		ret = RESULT_NO;
	}
cleanup:
	strbuf_release(&out);
	return ret;
}

/*
 * Every patch's attestation: checked, marked, and judged by the policy
 * (every patch is, so that hardfail names each one it refuses).
 * RESULT_NO, or RESULT_TEMPFAIL when only DNS could not answer, when the
 * policy refuses the series; RESULT_FATAL on a mail that cannot be read
 * again or a signature that cannot be checked (attest_check()).
 */
static enum maint_result attest_series(struct series *s)
{
	static const struct mailinfo_opts heads = {
		.quoted_cr = MAILINFO_QUOTED_CR_WARN, .headers_and_paths_only = 1, .quiet = 1,
	};
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct strbuf buf = STRBUF_INIT, mark = STRBUF_INIT, what = STRBUF_INIT;
	struct patch_mail pm;
	enum maint_result refused = RESULT_OK;

	mailinfo_init(&pm);
	s->att = xcalloc(s->w.nr + 1, sizeof(*s->att));
	for (size_t i = 0; i < s->w.nr; i++) {
		struct patch_attest *a = &s->att[i];
		struct raw_mail raw;
		enum maint_result rc;

		if (patch_mails_get(&s->w.pms, &s->w.pms.v[i], &buf, &raw) < 0) {
			refused = RESULT_FATAL;
			break;
		}
		if (attest_check(s->attest, &raw, &v) < 0) {
			refused = RESULT_FATAL;
			break;
		}
		strbuf_reset(&mark);
		attest_mark(&mark, s->ac.policy, &v);
		if (mark.len) {
			const struct attest_sig *d = v.decider < v.nr ? &v.sigs[v.decider] : NULL;

			a->verdict = v.verdict;
			a->signer = xstrdup(d ? d->signer : "");
			a->why = xstrdup(d ? d->why : "");
		}
		a->mark = xstrdup(mark.buf);
		if (s->ac.policy < ATTEST_SOFTFAIL)
			continue;
		/* the subject names the patch in the policy's warning or error */
		mailinfo_parse(&pm, &raw, &heads);
		strbuf_reset(&what);
		strbuf_addf(&what, "message %zu (%s)", raw.number, pm.subject.buf);
		rc = attest_apply_policy(s->ac.policy, &v, what.buf);
		if (rc == RESULT_NO || (rc == RESULT_TEMPFAIL && refused == RESULT_OK))
			refused = rc;
	}
	mailinfo_release(&pm);
	attest_verdict_release(&v);
	strbuf_release(&buf);
	strbuf_release(&mark);
	strbuf_release(&what);
	return refused;
}

/*
 * Reads the patches of the inputs (common/engine/series-walk.h: cover
 * letters, replies, duplicates and other mail are stepped over, one line
 * each): RESULT_FATAL on input that cannot be read, RESULT_NO on a
 * message over the size limit, or attest_series()'s refusal.
 */
static enum maint_result read_series(struct series *s, const char **args, int nargs,
				     const struct dry_apply_opts *o, const struct maint_config *cfg)
{
	struct walk_read_opts wo = { 0 };
	enum maint_result rc;

	wo.source = &o->source;
	wo.cfg = cfg;
	wo.say = o->quiet || o->porcelain || o->range_diff ? NULL : stdout;
	wo.quiet = o->quiet;
	wo.review = &o->review;
	wo.versions = o->range_diff;
	wo.series = &o->series;
	wo.attest = s->attest;
	if ((rc = walk_read(&s->w, (const char *const *)args, nargs, &wo)) != RESULT_OK)
		return rc;
	if (o->range_diff)
		return RESULT_OK;	/* dry_apply() shows the range-diffs */
	if (s->attest && (rc = attest_series(s)) != RESULT_OK)
		return rc;
	fflush(stdout);
	patch_mails_skipped(&s->w.pms, &s->skipped);
	add_review(s);
	return RESULT_OK;
}

struct target {
	const char *name;
	git_oid tree, commit;
	struct applied_index *commits;	/* its commits, for "already applied as <commit>" */
	int takes_all;		/* every series so far applies to it */
	size_t applied_all, patches_all;	/* over the series so far, for the "target" record */
	/* the series at hand */
	size_t applied;
	size_t already;		/* did not apply: already applied (series-walk.h) */
	size_t first_failed;	/* 1 + the place in the walk of the first patch that failed, 0 if none */
	int lacks_base;		/* --base: it lacks the series' base, so it does not take the series */
};

static int resolve_target(git_repository *repo, const char *rev, size_t depth, struct target *t)
{
	git_commit *c;

	if (repo_lookup_commit(&c, repo, rev) < 0)
		return -1;
	git_oid_cpy(&t->tree, git_commit_tree_id(c));
	git_oid_cpy(&t->commit, git_commit_id(c));
	t->commits = applied_index_new(repo, git_commit_id(c), NULL, depth);
	git_commit_free(c);
	t->name = rev;
	t->takes_all = 1;
	return 0;
}

/*
 * Writes out to stdout and empties it. Text from the mail in it was
 * quoted where it was added (quote.h); this last pass makes sure that no
 * control character reaches the terminal, as report() and say() do.
 * Then s's colours, if on: the only escape sequences written. -1 when
 * stdout cannot be written (write_or_error()).
 */
static int write_report(struct strbuf *out, const struct series *s)
{
	int ret;

	strbuf_setlen(out, neutralise_controls(out->buf, out->len));
	report_colorize(out, &s->colors);
	ret = write_or_error(1, out->buf, out->len);
	strbuf_reset(out);
	return ret;
}

/* One series' walk on one target: its report goes to out. */
struct check {
	struct series *s;
	struct target *t;
	const struct dry_apply_opts *o;
	struct strbuf *out;
	int first;		/* the first target: the trailers are shown under it */
	int write_failed;	/* stdout could not be written (reported, or EPIPE) */
};

/* "3/11": patch i's own numbers. */
static const char *patch_name(const struct series *s, size_t i, struct strbuf *buf)
{
	strbuf_reset(buf);
	patch_mails_name(buf, &s->w.pms.v[i]);
	return buf->buf;
}

static int check_mail(void *data, size_t i, struct strbuf *scratch, const char **buf, size_t *len)
{
	struct check *c = data;

	if (walk_get(&c->s->w, i, scratch) < 0)
		return -1;
	*buf = scratch->buf;
	*len = scratch->len;
	return 0;
}

/* Patch p's verdict on the target, reported. */
static int check_report(void *data, struct walk_patch *p)
{
	struct check *c = data;
	const struct dry_apply_opts *o = c->o;
	struct strbuf *out = c->out;
	const char *subject = p->decoded ? p->pm.subject.buf : "";
	struct strbuf prefix = STRBUF_INIT, name = STRBUF_INIT;

	if (p->res.ok)
		c->t->applied++;
	else if (p->already_applied)
		c->t->already++;
	else if (!c->t->first_failed)
		c->t->first_failed = p->i + 1;
	patch_name(c->s, p->i, &name);
	strbuf_addf(&prefix, "%s\t%zu\t", c->t->name, p->i + 1);
	if (o->porcelain) {
		strbuf_addf(out, "patch\t%s%s\t", prefix.buf,
			    p->res.ok ? "ok" : p->already_applied ? "applied" : "failed");
		apply_quote_field(out, subject, strlen(subject));
		strbuf_addf(out, "\t%zu\t%s\t%s\n", p->mail->series + 1, name.buf,
			    p->applied_as_found ? git_oid_tostr_s(&p->applied_as) : "");
		if (!p->already_applied)
			apply_result_print(out, &p->res, APPLY_PRINT_PORCELAIN, prefix.buf, o->verbose);
	} else if (!o->quiet) {
		strbuf_addf(out, "Patch %s: ", name.buf);
		quote_field(out, subject, strlen(subject));
		strbuf_addstr(out, c->s->att ? c->s->att[p->i].mark : "");
		strbuf_addch(out, '\n');
		/* one line, not the hunks that fail because they are there */
		if (p->applied_as_found)
			strbuf_addf(out, "already applied as %.12s\n", git_oid_tostr_s(&p->applied_as));
		else if (p->already_applied)
			strbuf_addstr(out, "already applied\n");
		else
			apply_result_print(out, &p->res, APPLY_PRINT_HUMAN, NULL, o->verbose);
		if (c->first)
			strbuf_addbuf(out, &c->s->trailers[p->i]);
	}
	strbuf_release(&prefix);
	strbuf_release(&name);
	if (write_report(out, c->s) < 0)
		c->write_failed = 1;
	return c->write_failed;
}

/* Do the patches of the series apply to t (or are they there already)? */
static int patches_apply(const struct target *t, const struct patch_series *ps)
{
	return t->applied + t->already == ps->nr;
}

/* Does t take the series: its patches, and with --base its base? */
static int takes_series(const struct target *t, const struct patch_series *ps)
{
	return patches_apply(t, ps) && !t->lacks_base;
}

/*
 * Checks series u against one target, printing into out: RESULT_OK, or
 * RESULT_FATAL (reported) when it cannot.
 */
static enum maint_result check_target(git_repository *repo, struct target *t, struct series *s, size_t u,
				      const struct dry_apply_opts *o, struct strbuf *out, int first)
{
	static const struct walk_hooks hooks = { check_mail, NULL, check_report, WALK_AFTER_DECODED };
	const struct patch_series *ps = &s->w.pms.series[u];
	struct apply_opts aopts = APPLY_OPTS_INIT;
	struct apply_session *sess;
	struct check c = { s, t, o, out, first, 0 };
	struct walk_run r = WALK_RUN_INIT(NULL);
	int ret;

	t->applied = t->already = t->first_failed = 0;
	aopts.fuzz = o->fuzz;
	aopts.three_way = o->three_way;
	aopts.check_only = o->each;
	aopts.max_binary = o->max_size;
	if (apply_session_new(&sess, repo, &t->tree, &aopts) < 0)
		goto fail;
	if (!o->porcelain && !o->quiet)
		strbuf_addf(out, "Checking %zu patch%s against %s%s%s\n", ps->nr, ps->nr == 1 ? "" : "es",
			    t->name, o->each ? " (each alone)" : "",
			    s->w.pms.series_nr == 1 ? s->skipped.buf : "");
	r.session = sess;
	r.p_value = o->p_value;
	r.max_binary = o->max_size;
	r.quiet = !first;
	r.hooks = &hooks;
	r.data = &c;
	r.applied = t->commits;
	ret = walk_run(&r, s->w.v, ps->first, ps->first + ps->nr);
	apply_session_free(sess);
	if (c.write_failed)
		return RESULT_FATAL;
	if (ret)
		goto fail;
	t->takes_all &= takes_series(t, ps);
	t->applied_all += t->applied + t->already;
	t->patches_all += ps->nr;
	return RESULT_OK;
fail:
	error("cannot check the series against '%s'", t->name);
	return RESULT_FATAL;
}

/* Target t's verdict on series u: a "series" record, or a line for people. */
static void print_summary(struct strbuf *out, const struct target *t, const struct series *s,
			  size_t u, const struct dry_apply_opts *o)
{
	const struct patch_series *ps = &s->w.pms.series[u];
	size_t total = ps->nr;
	int ok = patches_apply(t, ps);
	struct strbuf name = STRBUF_INIT;

	if (t->first_failed)
		patch_name(s, t->first_failed - 1, &name);
	if (o->porcelain) {
		strbuf_addf(out, "series\t%zu\t%s\t%s\t%zu\t%zu\t%s\t%zu\t", u + 1, t->name,
			    takes_series(t, ps) ? "ok" : "failed", t->applied, total, ok ? "-" : name.buf, t->already);
		apply_quote_field(out, ps->message_id, strlen(ps->message_id));
		strbuf_addch(out, '\t');
		apply_quote_field(out, ps->subject, strlen(ps->subject));
		strbuf_addch(out, '\n');
	} else if (ok && t->already == total) {
		strbuf_addf(out, total == 1 ? "%s: the patch is already applied\n" :
			    "%s: all %zu patches are already applied\n", t->name, total);
	} else if (ok && t->already) {
		strbuf_addf(out, "%s: %zu of %zu patches apply, the other %zu %s already applied\n",
			    t->name, t->applied, total, t->already, t->already == 1 ? "is" : "are");
	} else if (ok && total == 1) {
		strbuf_addf(out, "%s: the patch applies\n", t->name);
	} else if (ok) {
		strbuf_addf(out, "%s: all %zu patches apply\n", t->name, total);
	} else if (total == 1) {
		strbuf_addf(out, "%s: the patch does not apply\n", t->name);
	} else {
		strbuf_addf(out, "%s: %zu of %zu patches apply", t->name, t->applied, total);
		if (t->already)
			strbuf_addf(out, " (%zu already applied)", t->already);
		strbuf_addf(out, "; patch %s is the first that does not\n", name.buf);
	}
	strbuf_release(&name);
}

/*
 * The base series ps is judged against: --base=<commit>'s (base is its
 * full id), else its own base-commit (cover letter); NULL when it names
 * none.
 */
static const char *series_base(const struct patch_series *ps, const char *base)
{
	return base && strcmp(base, "auto") ? base : ps->base_commit;
}

/* "the series' base-commit", or "the base" that --base=<commit> gives. */
static const char *base_label(const char *base, int bare)
{
	if (base && strcmp(base, "auto"))
		return bare ? "base" : "the base";
	return bare ? "base-commit" : "the series' base-commit";
}

/* b, short, quoted: it came from a mail. */
static void add_base_id(struct strbuf *out, const char *b)
{
	quote_field(out, b, strlen(b) > 12 ? 12 : strlen(b));
}

/*
 * Whether target t holds b (series u's base, NULL for none): with
 * --base, t->lacks_base set when it does not. 1 held (or no base), 0 not,
 * -1 on an error (reported).
 */
static int base_held(git_repository *repo, struct target *t, const char *b, const struct dry_apply_opts *o)
{
	int held = b ? applied_base_held(repo, &t->commit, b) : 1;

	t->lacks_base = o->base && !held;
	return held;
}

/*
 * Target t's base line: when it lacks b, a "lacks" line (a "missing"
 * record); with --base, when it holds it, a "holds" line ("held").
 */
static void report_base(struct strbuf *out, const struct target *t, const char *b, int held, size_t u,
			const char *base, const struct dry_apply_opts *o)
{
	if (!b || (held && !o->base))
		return;
	if (o->porcelain) {
		strbuf_addf(out, "base\t%zu\t%s\t%s\t", u + 1, t->name, held ? "held" : "missing");
		apply_quote_field(out, b, strlen(b));
		strbuf_addch(out, '\n');
	} else {
		strbuf_addf(out, "%s: %s %s ", t->name, held ? "holds" : "lacks", base_label(base, 0));
		add_base_id(out, b);
		strbuf_addstr(out, !held && o->base ? ", so it does not take the series\n" : "\n");
	}
}

/*
 * The "base" record of series u's check at its base b: "-" for the
 * target, "none" (no base), "unknown" (not in the repository), or "ok" or
 * "failed" with the counts of a "series" record.
 */
static void porcelain_at_base(struct strbuf *out, const struct target *bt, const struct series *s, size_t u,
			      const char *b, int known)
{
	const struct patch_series *ps = &s->w.pms.series[u];
	int ok = known && patches_apply(bt, ps);
	struct strbuf first = STRBUF_INIT;

	strbuf_addf(out, "base\t%zu\t-\t%s", u + 1, !b ? "none" : !known ? "unknown" : ok ? "ok" : "failed");
	if (b) {
		strbuf_addch(out, '\t');
		apply_quote_field(out, b, strlen(b));
	}
	if (known) {
		if (!ok)
			patch_name(s, bt->first_failed - 1, &first);
		strbuf_addf(out, "\t%zu\t%zu\t%s\t%zu", bt->applied, ps->nr, ok ? "-" : first.buf, bt->already);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&first);
}

/*
 * --base: series u checked against its base b itself ("does it apply
 * where it was made?"), its patches quietly (out is written as the
 * walk goes), the verdict into line: a summary line, or a "base"
 * record. RESULT_OK, or RESULT_FATAL (reported).
 */
static enum maint_result check_at_base(git_repository *repo, struct series *s, size_t u, const char *b,
				       const char *base, const struct dry_apply_opts *o, struct strbuf *out,
				       struct strbuf *line)
{
	struct dry_apply_opts quiet = *o;
	struct target bt = { 0 };
	struct strbuf name = STRBUF_INIT;
	git_commit *c = NULL;
	enum maint_result ret = RESULT_FATAL;
	int known = b ? applied_base_lookup(repo, b, &bt.commit) : 0;

	if (known < 0)
		return RESULT_FATAL;
	quiet.quiet = 1;
	quiet.porcelain = 0;
	if (known) {
		if (lg2_check(git_commit_lookup(&c, repo, &bt.commit), "cannot read commit %s", b) < 0)
			goto cleanup;
		git_oid_cpy(&bt.tree, git_commit_tree_id(c));
		strbuf_addf(&name, "%s %.12s", base_label(base, 1), git_oid_tostr_s(&bt.commit));
		bt.name = name.buf;
		if (check_target(repo, &bt, s, u, &quiet, out, 0) != RESULT_OK)
			goto cleanup;
	}
	if (o->porcelain) {
		porcelain_at_base(line, &bt, s, u, b, known);
	} else if (known) {
		print_summary(line, &bt, s, u, &quiet);
	} else if (b) {
		strbuf_addf(line, "%s ", base_label(base, 1));
		add_base_id(line, b);
		strbuf_addstr(line, ": not in this repository, not checked\n");
	} else {
		strbuf_addstr(line, "the series names no base-commit\n");
	}
	ret = RESULT_OK;
cleanup:
	git_commit_free(c);
	strbuf_release(&name);
	return ret;
}

/*
 * "Series 2/12: <subject> (v2, 3 patches, missing 2 of 3) <message-id>",
 * before a series' report when the input holds several.
 */
static void series_heading(struct strbuf *out, const struct series *s, size_t u)
{
	const struct patch_series *ps = &s->w.pms.series[u];

	strbuf_addf(out, "Series %zu/%zu: ", u + 1, s->w.pms.series_nr);
	quote_field(out, ps->subject, strlen(ps->subject));
	strbuf_addf(out, " (v%d, %zu patch%s", ps->version > 0 ? ps->version : 1, ps->nr,
		    ps->nr == 1 ? "" : "es");
	if (ps->missing)
		strbuf_addf(out, ", %zu of %d missing", ps->missing, ps->total);
	strbuf_addstr(out, ")");
	if (*ps->message_id) {
		strbuf_addstr(out, " <");
		quote_field(out, ps->message_id, strlen(ps->message_id));
		strbuf_addch(out, '>');
	}
	strbuf_addch(out, '\n');
}

/* The trailers given to patches the newest version dropped. */
static void not_carried(struct strbuf *out, const struct series *s, const struct dry_apply_opts *o)
{
	if (o->porcelain || o->quiet || !s->unplaced.len)
		return;
	strbuf_addstr(out, "Not carried (given to patches the newest version dropped):\n");
	strbuf_addbuf(out, &s->unplaced);
}

/* "The series applies to: a b", or to none; prefix "Series 2" when there are several. */
static void applies_to(struct strbuf *out, const char *what, const struct target *t, size_t nt,
		       const size_t *takes)
{
	size_t n = 0;

	for (size_t i = 0; i < nt; i++)
		n += takes[i];
	if (!n) {
		strbuf_addf(out, "%s applies to none of the targets\n", what);
		return;
	}
	strbuf_addf(out, "%s applies to:", what);
	for (size_t i = 0; i < nt; i++)
		if (takes[i])
			strbuf_addf(out, " %s", t[i].name);
	strbuf_addch(out, '\n');
}

/*
 * The report on series u: each target's walk, then its verdicts; with
 * --base (base: "auto", or the given commit's id; NULL without), the
 * series at its base, and which targets hold that.
 * RESULT_OK when some target takes it, RESULT_NO when none does,
 * RESULT_FATAL when it cannot be checked or reported (reported).
 */
static enum maint_result check_series(git_repository *repo, struct target *targets, size_t nt,
				      struct series *s, size_t u, const char *base,
				      const struct dry_apply_opts *o, struct strbuf *out, struct strbuf *verdicts)
{
	int several = s->w.pms.series_nr > 1, human = !o->porcelain;
	struct strbuf *summary = several || o->porcelain ? out : verdicts;
	const char *b = series_base(&s->w.pms.series[u], base);
	size_t *takes = xcalloc(nt, sizeof(*takes)), n = 0;
	enum maint_result ret = RESULT_FATAL;
	char what[64];

	if (several && human) {
		if (u && !o->quiet)
			strbuf_addch(out, '\n');
		series_heading(out, s, u);
	}
	for (size_t i = 0; i < nt; i++) {
		int held = base_held(repo, &targets[i], b, o);

		if (held < 0 || check_target(repo, &targets[i], s, u, o, out, !i) != RESULT_OK)
			goto cleanup;
		if (!i && !several)
			not_carried(out, s, o);
		takes[i] = takes_series(&targets[i], &s->w.pms.series[u]);
		n += takes[i];
		print_summary(summary, &targets[i], s, u, o);
		report_base(summary, &targets[i], b, held, u, base, o);
	}
	if (base && check_at_base(repo, s, u, b, base, o, out, summary) != RESULT_OK)
		goto cleanup;
	if (several && human) {
		snprintf(what, sizeof(what), "Series %zu", u + 1);
		if (!o->quiet)
			applies_to(out, what, targets, nt, takes);
		strbuf_addf(verdicts, "  %zu:", u + 1);
		for (size_t i = 0; i < nt; i++)
			if (takes[i])
				strbuf_addf(verdicts, " %s", targets[i].name);
		strbuf_addf(verdicts, "%s: ", n ? "" : " none");
		quote_field(verdicts, s->w.pms.series[u].subject, strlen(s->w.pms.series[u].subject));
		strbuf_addch(verdicts, '\n');
	} else if (human && nt > 1) {
		applies_to(verdicts, "The series", targets, nt, takes);
	}
	if (write_report(out, s) < 0)
		goto cleanup;
	ret = n ? RESULT_OK : RESULT_NO;
cleanup:
	free(takes);
	return ret;
}

void dry_apply_opts_release(struct dry_apply_opts *o)
{
	strvec_clear(&o->onto);
	strvec_clear(&o->series);
	review_opts_release(&o->review);
}

enum maint_result dry_apply(git_repository *repo, const struct maint_config *cfg, const char **args,
			    int nargs, struct dry_apply_opts *o)
{
	struct series s = { WALK_INIT, NULL, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, NULL, ATTEST_CONF_INIT, NULL };
	struct target *targets = NULL;
	size_t nt = 0, taken = 0, depth;
	struct strbuf out = STRBUF_INIT, verdicts = STRBUF_INIT;
	char *current = NULL, given[GIT_OID_HEXSZ + 1];
	const char *base = o->base;
	enum maint_result ret = RESULT_FATAL, rc;

	if (repo_tune(REPO_USE_READ_ONLY) < 0)
		goto cleanup;
	if (!o->onto.nr) {
		current = repo_current_branch(repo);
		strvec_push(&o->onto, current ? current : "HEAD");
	}
	nt = o->onto.nr;
	targets = xcalloc(nt, sizeof(*targets));
	if (applied_depth_config(cfg, &depth) < 0)
		goto cleanup;
	for (size_t i = 0; i < nt; i++)
		if (resolve_target(repo, o->onto.v[i], depth, &targets[i]) < 0)
			goto cleanup;	/* reported, with the similar branches */
	if (base && strcmp(base, "auto")) {
		git_commit *c;

		if (repo_lookup_commit(&c, repo, base) < 0)
			goto cleanup;
		git_oid_tostr(given, sizeof(given), git_commit_id(c));
		git_commit_free(c);
		base = given;
	}

	if (attest_conf_load(&s.ac, cfg, o->attest) < 0)
		goto cleanup;
	s.ac.read_ref = attest_keys_read_ref;
	s.ac.ref_ctx = repo;
	if (s.ac.policy != ATTEST_OFF)
		s.attest = attest_new(&s.ac);
	if ((ret = read_series(&s, args, nargs, o, cfg)) != RESULT_OK)
		goto cleanup;
	if (o->range_diff) {
		ret = show_range_diffs(&s.w.pms, o, cfg);
		goto cleanup;
	}
	if (!s.w.nr) {
		error("no patches found");
		ret = RESULT_NO;
		goto cleanup;
	}
	ret = RESULT_FATAL;
	report_colors_load(&s.colors, cfg, o->color && !o->porcelain);
	if (o->porcelain) {
		strbuf_addbuf(&out, &s.porcelain);
		if (write_report(&out, &s) < 0)
			goto cleanup;
	} else if (s.w.pms.series_nr > 1) {
		strbuf_addf(&out, "%zu series, %zu patches%s\n", s.w.pms.series_nr, s.w.nr, s.skipped.buf);
		if (!o->quiet)
			strbuf_addch(&out, '\n');
	}
	for (size_t u = 0; u < s.w.pms.series_nr; u++) {
		if ((rc = check_series(repo, targets, nt, &s, u, base, o, &out, &verdicts)) == RESULT_FATAL)
			goto cleanup;
		taken += rc == RESULT_OK;
	}
	if (s.w.pms.series_nr > 1)
		not_carried(&out, &s, o);
	for (size_t i = 0; o->porcelain && i < nt; i++)
		strbuf_addf(&out, "target\t%s\t%s\t%zu\t%zu\n", targets[i].name,
			    targets[i].takes_all ? "ok" : "failed", targets[i].applied_all, targets[i].patches_all);
	if (s.w.pms.series_nr > 1 && !o->porcelain)
		strbuf_addf(&out, "%sVerdicts, series by series:\n", o->quiet ? "" : "\n");
	strbuf_addbuf(&out, &verdicts);
	if (write_report(&out, &s) < 0)
		goto cleanup;
	ret = taken == s.w.pms.series_nr ? RESULT_OK : RESULT_NO;
cleanup:
	strbuf_release(&out);
	strbuf_release(&verdicts);
	series_clear(&s);
	for (size_t i = 0; targets && i < nt; i++)
		applied_index_free(targets[i].commits);
	free(targets);
	free(current);
	return ret;
}
