/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dry-apply engine (see dry-apply.h): reads the series, applies it in
 * memory to each target's tip and reports in GNU patch's words or as
 * --porcelain records.
 */
#include "dry-apply.h"
#include "apply.h"
#include "attest-keys.h"
#include "attest.h"
#include "mailinfo.h"
#include "patch-mails.h"
#include "patch.h"
#include "quote.h"
#include "range-diff.h"
#include "report-color.h"
#include "repo.h"
#include "spool.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One patch mail of the series; its diff is read again when it is applied. */
struct item {
	char *subject;
	size_t number;		/* message number in the input */
	off_t diff_off;		/* its diff as the mail parser gave it, in series.diffs */
	size_t diff_len;
	struct strbuf trailers;	/* what the follow-ups give it, one line each (review_format()) */
	char *mark;		/* its attestation, attest_mark() (" [G ed25519/dev@example.org]") */
	char verdict;		/* its attestation verdict, 0 when not shown */
	char *signer, *why;	/* the deciding signature's, when shown */
};

/*
 * The series: the patches stay in pms's spool, their decoded diffs in
 * diffs, and are read, parsed and applied one at a time, so memory does
 * not grow with the mailbox. The diffs are kept so that a mail is
 * decoded once, not once more per target.
 */
struct series {
	struct patch_mails pms;	/* items[i] is pms.v[i] */
	struct spool diffs;
	struct item *items;
	size_t nr, alloc;
	struct strbuf skipped;	/* " (1 cover letter skipped)" */
	struct strbuf unplaced;	/* trailers of patches the newest version dropped */
	struct strbuf porcelain;	/* the trailer records */
	struct attest_conf ac;
	struct attest *attest;	/* NULL under --attest=off */
};

static void series_clear(struct series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->items[i].subject);
		free(s->items[i].mark);
		free(s->items[i].signer);
		free(s->items[i].why);
		strbuf_release(&s->items[i].trailers);
	}
	attest_free(s->attest);
	attest_conf_release(&s->ac);
	free(s->items);
	patch_mails_release(&s->pms);
	spool_close(&s->diffs);
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
	for (size_t i = 0; i < s->nr; i++) {
		const struct item *it = &s->items[i];

		if (!it->verdict)
			continue;
		strbuf_addf(&s->porcelain, "attest\t%zu\t%c\t", i + 1, it->verdict);
		apply_quote_field(&s->porcelain, it->signer, strlen(it->signer));
		strbuf_addch(&s->porcelain, '\t');
		apply_quote_field(&s->porcelain, it->why, strlen(it->why));
		strbuf_addch(&s->porcelain, '\n');
	}
}

/* The trailers of the series' patches, for the report. */
static void add_review(struct series *s, const struct patch_mails *pms)
{
	char n[32];

	porcelain_attest(s);
	for (size_t i = 0; i < s->nr; i++) {
		snprintf(n, sizeof(n), "%zu", i + 1);
		review_format(&s->items[i].trailers, review_for(pms->review, i), "    ");
		porcelain_trailers(&s->porcelain, review_for(pms->review, i), n);
	}
	review_format(&s->unplaced, review_unplaced(pms->review), "    ");
	porcelain_trailers(&s->porcelain, review_unplaced(pms->review), "-");
}

/* --range-diff: each series' two newest versions; 0 when there was one. */
static int show_range_diffs(const struct patch_mails *pms, const struct dry_apply_opts *o,
			    const struct maint_config *cfg)
{
	struct strbuf out = STRBUF_INIT;
	struct report_colors colors;

	for (size_t i = 0; i < pms->versions_nr; i++) {
		if (i)
			strbuf_addch(&out, '\n');
		if (range_diff_versions(&out, pms, &pms->versions[i], o->creation_factor) < 0)
			exit(EXIT_FATAL);
	}
	strbuf_setlen(&out, neutralise_controls(out.buf, out.len));
	report_colors_load(&colors, cfg, o->color);
	range_diff_colorize(&out, &colors);
	write_or_die(1, out.buf, out.len);
	strbuf_release(&out);
	if (!pms->versions_nr)
		return error("no series with two versions in the input");
	return 0;
}

/*
 * The attestation of patch it: checked, marked, and judged by the policy
 * (every patch is, so that hardfail names each one it refuses); the
 * worst answer so far in *refused.
 */
static void attest_item(struct series *s, struct item *it, const struct raw_mail *raw, int *refused)
{
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct strbuf mark = STRBUF_INIT, what = STRBUF_INIT;
	int rc;

	attest_check(s->attest, raw, &v);
	attest_mark(&mark, s->ac.policy, &v);
	if (mark.len) {
		const struct attest_sig *d = v.decider < v.nr ? &v.sigs[v.decider] : NULL;

		it->verdict = v.verdict;
		it->signer = xstrdup(d ? d->signer : "");
		it->why = xstrdup(d ? d->why : "");
	}
	it->mark = strbuf_detach(&mark, NULL);
	strbuf_addf(&what, "message %zu (%s)", raw->number, it->subject);
	rc = attest_apply_policy(s->ac.policy, &v, what.buf);
	if (rc == RESULT_NO || (rc == RESULT_TEMPFAIL && *refused == RESULT_OK))
		*refused = rc;
	attest_verdict_release(&v);
	strbuf_release(&what);
}

/*
 * Reads the patches of the inputs (common/mail/patch-mails.h: cover letters,
 * replies, duplicates and other mail are stepped over, one line each);
 * dies (128) on input that cannot be read, exits 1 on a message that
 * cannot apply (undecodable, or over the size limit).
 */
static void read_series(struct series *s, const char **args, int nargs,
			const struct dry_apply_opts *o, const struct maint_config *cfg)
{
	struct patch_mails *pms = &s->pms;
	struct patch_mails_opts pmo = { 0 };
	struct patch_mail pm;
	struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	struct strbuf buf = STRBUF_INIT;
	int rc, refused = RESULT_OK;

	pmo.source = &o->source;
	pmo.cfg = cfg;
	pmo.say = o->quiet || o->porcelain || o->range_diff ? NULL : stdout;
	pmo.quiet = o->quiet;
	pmo.review = &o->review;
	pmo.versions = o->range_diff;
	pmo.attest = s->attest;
	if ((rc = patch_mails_read(pms, args, nargs, &pmo)) != RESULT_OK)
		exit(result_exit_code(rc));
	if (o->range_diff)
		exit(show_range_diffs(pms, o, cfg) < 0 ? EXIT_NO : EXIT_OK);
	fflush(stdout);
	patch_mails_skipped(pms, &s->skipped);
	mailinfo_init(&pm);
	for (size_t i = 0; i < pms->nr; i++) {
		struct raw_mail raw;
		struct item *it;

		if (patch_mails_get(pms, &pms->v[i], &buf, &raw) < 0)
			exit(EXIT_FATAL);
		/* Mail we cannot decode cannot apply (RELIABILITY 10-12): said before any verdict. */
		if (mailinfo_parse(&pm, &raw, &mopts) < 0)
			exit(EXIT_NO);
		ALLOC_GROW(s->items, s->nr + 1, s->alloc);
		it = &s->items[s->nr++];
		memset(it, 0, sizeof(*it));
		strbuf_init(&it->trailers, 0);
		if (spool_add(&s->diffs, pm.patch.buf, pm.patch.len, &it->diff_off) < 0)
			exit(EXIT_FATAL);
		it->diff_len = pm.patch.len;
		it->number = raw.number;
		it->subject = xstrdup(pm.subject.buf);
		if (s->attest)
			attest_item(s, it, &raw, &refused);
	}
	if (refused != RESULT_OK)
		exit(result_exit_code(refused));
	add_review(s, pms);
	mailinfo_release(&pm);
	strbuf_release(&buf);
}

/* What item i's diff needs, read again per patch (one message at a time). */
struct reader {
	struct strbuf buf, origin;
	struct patch_mail pm;
};

/*
 * The diff of patch i into ps, or why it has none into err. The mail is
 * decoded again (quietly: read_series() reported it) only to say why a
 * diff cannot be parsed. -1 when a temporary file cannot be read
 * (reported).
 */
static int item_patch(struct series *s, size_t i, const struct dry_apply_opts *o,
		      struct reader *rd, struct patch_set *ps, struct strbuf *err)
{
	static const struct mailinfo_opts mopts = { .quoted_cr = MAILINFO_QUOTED_CR_WARN, .quiet = 1 };
	struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
	const struct item *it = &s->items[i];
	struct patch_mail *pm = &rd->pm;
	struct strbuf body = STRBUF_INIT, why = STRBUF_INIT;
	struct raw_mail raw;

	strbuf_reset(err);
	if (spool_read(&s->diffs, it->diff_off, it->diff_len, &rd->buf) < 0)
		return -1;
	strbuf_reset(&rd->origin);
	strbuf_addf(&rd->origin, "%s: message %zu", s->pms.v[i].origin, it->number);
	popts.origin = rd->origin.buf;
	popts.p_value = o->p_value;
	popts.max_binary = o->max_size;
	if (rd->buf.len && !patch_parse(ps, rd->buf.buf, rd->buf.len, &popts, err))
		return 0;
	/* Say so when the mail holds a diff format we refuse. */
	if (patch_mails_get(&s->pms, &s->pms.v[i], &rd->buf, &raw) < 0)
		return -1;
	if (!mailinfo_parse(pm, &raw, &mopts)) {
		strbuf_addbuf(&body, &pm->message);
		strbuf_addbuf(&body, &pm->patch);
	}
	if (patch_find_unsupported(body.buf, body.len, &why)) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: %s", rd->origin.buf, why.buf);
	} else if (!err->len) {
		strbuf_addf(err, "%s: no patch found", rd->origin.buf);
	}
	strbuf_release(&body);
	strbuf_release(&why);
	return 0;
}

struct target {
	const char *name;
	git_oid tree;
	size_t applied;
	size_t first_failed;	/* 1-based index of the first patch that failed, 0 if none */
};

static int resolve_target(git_repository *repo, const char *rev, struct target *t)
{
	git_commit *c;

	if (repo_lookup_commit(&c, repo, rev) < 0)
		return -1;
	git_oid_cpy(&t->tree, git_commit_tree_id(c));
	git_commit_free(c);
	t->name = rev;
	return 0;
}

/*
 * Writes out to stdout and empties it. Text from the mail in it was
 * quoted where it was added (quote.h); this last pass makes sure that no
 * control character reaches the terminal, as report() and say() do.
 * Then the colours, if on: the only escape sequences written.
 */
static void write_report(struct strbuf *out, const struct report_colors *colors)
{
	strbuf_setlen(out, neutralise_controls(out->buf, out->len));
	report_colorize(out, colors);
	write_or_die(1, out->buf, out->len);
	strbuf_reset(out);
}

/* Checks the series against one target, printing into out. */
static int check_target(git_repository *repo, struct target *t, struct series *s,
			const struct dry_apply_opts *o, struct strbuf *out, int first,
			const struct report_colors *colors)
{
	struct apply_opts aopts = APPLY_OPTS_INIT;
	struct apply_session *sess;
	struct strbuf prefix = STRBUF_INIT, err = STRBUF_INIT;
	struct reader rd = { STRBUF_INIT, STRBUF_INIT };
	struct patch_set ps = PATCH_SET_INIT;
	int ret = 0;

	aopts.fuzz = o->fuzz;
	aopts.three_way = o->three_way;
	aopts.check_only = o->each;
	aopts.max_binary = o->max_size;
	if (apply_session_new(&sess, repo, &t->tree, &aopts) < 0)
		return -1;
	mailinfo_init(&rd.pm);
	if (!o->porcelain && !o->quiet)
		strbuf_addf(out, "Checking %zu patch%s against %s%s%s\n", s->nr, s->nr == 1 ? "" : "es",
			    t->name, o->each ? " (each alone)" : "", s->skipped.buf);
	for (size_t i = 0; i < s->nr; i++) {
		const struct item *it = &s->items[i];
		struct apply_result res = APPLY_RESULT_INIT;

		patch_set_dispose(&ps);
		if (item_patch(s, i, o, &rd, &ps, &err) < 0) {
			ret = -1;
			break;
		}
		if (err.len)
			apply_result_set_error(&res, err.buf);
		else if (apply_patch(sess, &ps, &res) < 0) {
			apply_result_dispose(&res);
			ret = -1;
			break;
		}
		if (res.ok)
			t->applied++;
		else if (!t->first_failed)
			t->first_failed = i + 1;
		strbuf_reset(&prefix);
		strbuf_addf(&prefix, "%s\t%zu\t", t->name, i + 1);
		if (o->porcelain) {
			strbuf_addf(out, "patch\t%s%s\t", prefix.buf, res.ok ? "ok" : "failed");
			apply_quote_field(out, it->subject, strlen(it->subject));
			strbuf_addch(out, '\n');
			apply_result_print(out, &res, APPLY_PRINT_PORCELAIN, prefix.buf, o->verbose);
		} else if (!o->quiet) {
			strbuf_addf(out, "Patch %zu/%zu: ", i + 1, s->nr);
			quote_field(out, it->subject, strlen(it->subject));
			strbuf_addstr(out, it->mark ? it->mark : "");
			strbuf_addch(out, '\n');
			apply_result_print(out, &res, APPLY_PRINT_HUMAN, NULL, o->verbose);
			if (first)
				strbuf_addbuf(out, &it->trailers);
		}
		apply_result_dispose(&res);
		write_report(out, colors);
	}
	if (first && !o->porcelain && !o->quiet && s->unplaced.len) {
		strbuf_addstr(out, "Not carried (given to patches the newest version dropped):\n");
		strbuf_addbuf(out, &s->unplaced);
		write_report(out, colors);
	}
	apply_session_free(sess);
	patch_set_dispose(&ps);
	mailinfo_release(&rd.pm);
	strbuf_release(&rd.buf);
	strbuf_release(&rd.origin);
	strbuf_release(&err);
	strbuf_release(&prefix);
	return ret;
}

static void print_summary(struct strbuf *out, const struct target *t, size_t total,
			  const struct dry_apply_opts *o)
{
	int ok = t->applied == total;

	if (o->porcelain) {
		strbuf_addf(out, "target\t%s\t%s\t%zu\t%zu\n", t->name, ok ? "ok" : "failed",
			    t->applied, total);
	} else if (ok && total == 1) {
		strbuf_addf(out, "%s: the patch applies\n", t->name);
	} else if (ok) {
		strbuf_addf(out, "%s: all %zu patches apply\n", t->name, total);
	} else if (total == 1) {
		strbuf_addf(out, "%s: the patch does not apply\n", t->name);
	} else {
		strbuf_addf(out, "%s: %zu of %zu patch%s apply; patch %zu is the first that does not\n",
			    t->name, t->applied, total, total == 1 ? "" : "es", t->first_failed);
	}
}

void dry_apply_opts_release(struct dry_apply_opts *o)
{
	strvec_clear(&o->onto);
	review_opts_release(&o->review);
}

int dry_apply(git_repository *repo, const struct maint_config *cfg, const char **args, int nargs,
	      struct dry_apply_opts *o)
{
	struct series s = { PATCH_MAILS_INIT, SPOOL_INIT, NULL, 0, 0, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
			    ATTEST_CONF_INIT, NULL };
	struct target *targets = NULL;
	size_t nt;
	struct strbuf out = STRBUF_INIT;
	char *current = NULL;
	int any_ok = 0, ret = EXIT_NO;
	struct report_colors colors;

	/* Blobs are only read, as git reads them: without re-hashing each. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	if (!o->onto.nr) {
		current = repo_current_branch(repo);
		strvec_push(&o->onto, current ? current : "HEAD");
	}
	nt = o->onto.nr;
	targets = xcalloc(nt, sizeof(*targets));
	for (size_t i = 0; i < nt; i++)
		if (resolve_target(repo, o->onto.v[i], &targets[i]) < 0)
			exit(EXIT_FATAL);	/* reported, with the similar branches */

	if (attest_conf_load(&s.ac, cfg, o->attest) < 0)
		exit(EXIT_FATAL);
	s.ac.read_ref = attest_keys_read_ref;
	s.ac.ref_ctx = repo;
	if (s.ac.policy != ATTEST_OFF && !(s.attest = attest_new(&s.ac)))
		exit(EXIT_FATAL);
	read_series(&s, args, nargs, o, cfg);
	if (!s.nr) {
		error("no patches found");
		goto cleanup;
	}
	report_colors_load(&colors, cfg, o->color && !o->porcelain);
	if (o->porcelain) {
		strbuf_addbuf(&out, &s.porcelain);
		write_report(&out, &colors);
	}
	for (size_t i = 0; i < nt; i++) {
		if (check_target(repo, &targets[i], &s, o, &out, !i, &colors) < 0)
			die("cannot check the series against '%s'", targets[i].name);
		if (targets[i].applied == s.nr)
			any_ok = 1;
	}
	for (size_t i = 0; i < nt; i++)
		print_summary(&out, &targets[i], s.nr, o);
	if (nt > 1 && !o->porcelain) {
		if (any_ok) {
			strbuf_addstr(&out, "The series applies to:");
			for (size_t i = 0; i < nt; i++)
				if (targets[i].applied == s.nr)
					strbuf_addf(&out, " %s", targets[i].name);
			strbuf_addch(&out, '\n');
		} else {
			strbuf_addstr(&out, "The series applies to none of the targets\n");
		}
	}
	write_report(&out, &colors);
	ret = any_ok ? EXIT_OK : EXIT_NO;
cleanup:
	strbuf_release(&out);
	series_clear(&s);
	free(targets);
	free(current);
	return ret;
}
