/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SERIES_WALK_H
#define SERIES_WALK_H

/*
 * The series walker: the one mail -> apply loop of dry-apply and queue.
 * Both engines read their input with walk_read() and drive walk_run();
 * what differs between them (the report, the commit, the stop) is in
 * their hooks.
 *
 * Reading (walk_read()): the patches of the inputs as the series they
 * belong to, each in the order of its own numbers (common/mail/patch-mails.h:
 * cover letters, replies, duplicates, other mail and superseded patches
 * stepped over, one line each), with what the follow-ups give each of
 * them (common/mail/review.h); only the series named, when some are. Each
 * patch is a struct walk_mail: where it came from, its series and its
 * own numbers, which name it in every message ("patch 3/11").
 *
 * Walking (walk_run()): for each patch of a list, in order:
 *   1. its mail's bytes, from the engine (hooks->mail: dry-apply reads
 *      its spool, queue its state, where the user may have edited the
 *      patch it stopped at);
 *   2. the mail decoded (mailinfo_parse(), with the engine's options);
 *      a mail that cannot be decoded is a patch that does not apply,
 *      said once (the parser reports it; later walks are quiet);
 *   3. hooks->before (queue: the check command), which may stop the walk;
 *   4. its diff parsed (common/mail/patch.h) and applied to the session
 *      (common/repo/apply.h); a mail without a diff, or with a diff format
 *      we refuse, fails with why; a diff that fails is tried reversed,
 *      to tell a patch already applied (already_applied) from one that
 *      does not apply, and the commit of the target that holds it looked
 *      up (applied_as, common/repo/applied.h) when the caller gives an index;
 *   5. hooks->after with the verdict (dry-apply: the report; queue: the
 *      commit, or the stop), which may stop the walk.
 * Nothing is printed here: the hooks say what the engine says.
 *
 * The loop holds one mail and its parse at a time.
 */

#include <git2.h>

#include "apply.h"
#include "mailinfo.h"
#include "patch-mails.h"
#include "patch.h"
#include "strbuf.h"

struct applied_index;
struct attest;
struct maint_config;
struct review_opts;
struct source_opts;
struct trailer_conf;

/* One patch of a walk: where its mail came from. */
struct walk_mail {
	size_t number;		/* its message number in its input (source.h numbering) */
	const char *origin;	/* its input, for messages ("-" for standard input) */
	size_t series;		/* its series, 0-based (walk.pms.series) */
	int k, total;		/* its own numbers: [PATCH 03/11] is 3, 11 */
};

/* The patches of the inputs, read once (walk_read()). */
struct walk {
	struct patch_mails pms;	/* the mails (pms.v[i] is v[i]) and their review */
	struct walk_mail *v;
	size_t nr;
};
#define WALK_INIT { PATCH_MAILS_INIT, NULL, 0 }

struct walk_read_opts {
	const struct source_opts *source;	/* may be NULL */
	const struct maint_config *cfg;	/* may be NULL */
	FILE *say;		/* the "Skipping" lines; NULL: none */
	int quiet;		/* no warning about incomplete series */
	const struct review_opts *review;	/* collect the follow-ups' trailers; NULL: not */
	const struct trailer_conf *trailers;	/* a patch's trailer block; NULL: git's defaults */
	int versions;		/* find the series with two versions (patch_mails.versions) */
	const struct strvec *series;	/* only these series (patch_mails_opts.series); NULL: all */
	struct attest *attest;	/* with review: the follow-ups' signatures checked (patch_mails_opts.attest) */
};

/*
 * Reads args[0..nargs) (source_open() rules) into w: patch_mails_read()'s
 * results (RESULT_OK, RESULT_NO for a message over the size limit,
 * RESULT_FATAL), reported.
 */
enum maint_result walk_read(struct walk *w, const char *const *args, size_t nargs,
			    const struct walk_read_opts *o);
void walk_release(struct walk *w);

/* Patch i's mail bytes into buf (from the spool). -1 when they cannot be read (reported). */
int walk_get(const struct walk *w, size_t i, struct strbuf *buf);

/* The patch at hand, as the hooks see it. */
struct walk_patch {
	size_t i;		/* its place in the list, 0-based */
	const struct walk_mail *mail;
	const char *buf;	/* its mail (past hooks->before, walk_hooks.after_reads) */
	size_t len;
	struct patch_mail pm;	/* the mail decoded (when decoded is set) */
	int decoded;
	struct apply_result res;	/* the verdict (after hooks->after only) */
	/*
	 * It did not apply, and its changes are there already: the
	 * reversed patch applies (apply_patch_is_applied()); res says
	 * how it failed all the same.
	 */
	int already_applied;
	/* then the target's commit that holds it (when found: applied_as_found) */
	git_oid applied_as;
	int applied_as_found;
};

struct walk_hooks {
	/*
	 * The bytes of patch i: *buf and *len, pointing into scratch or
	 * elsewhere, valid until the next call. 0, or -1 (reported).
	 */
	int (*mail)(void *data, size_t i, struct strbuf *scratch, const char **buf, size_t *len);
	/* Decoded, not applied yet: 0 goes on; anything else stops the walk with it. May be NULL. */
	int (*before)(void *data, struct walk_patch *p);
	/* Applied or not (p->res): 0 goes on; anything else stops the walk with it. */
	int (*after)(void *data, struct walk_patch *p);
	/*
	 * What hooks->after reads of the mail's bytes: all of them, its
	 * header only (p->len cut to mail_header_len(), the rest released), or
	 * nothing (p->buf NULL, the bytes released). Past hooks->before,
	 * which sees the whole mail, before the diff is parsed and applied:
	 * a big mail is not held beside its decoded text and the file its
	 * diff builds. The whole mail is the hooks' to read again.
	 */
	enum walk_after_reads { WALK_AFTER_MAIL, WALK_AFTER_HEADER, WALK_AFTER_DECODED } after_reads;
};

struct walk_run {
	struct apply_session *session;	/* where the patches are applied (the caller's) */
	struct mailinfo_opts mopts;	/* how a mail is decoded (scissors ...) */
	int p_value;		/* -p<n>; -1: the patch's own */
	size_t max_binary;	/* what binary data may inflate to (mbox.max-message-size) */
	int quiet;		/* the mails' errors were said on an earlier walk */
	const struct walk_hooks *hooks;
	void *data;		/* for the hooks */
	/* the target's commits, to name the one holding a patch already applied; may be NULL */
	struct applied_index *applied;
};
#define WALK_RUN_INIT(s) { (s), MAILINFO_OPTS_INIT, -1, PATCH_MAX_BINARY_DEFAULT, 0, NULL, NULL }

/*
 * Walks patches first..end-1 of v (0-based) as said above.
 * Returns 0 when every patch was walked, what a hook stopped it with,
 * or -1 on an error of our own (reported).
 */
int walk_run(struct walk_run *r, const struct walk_mail *v, size_t first, size_t end);

#endif
