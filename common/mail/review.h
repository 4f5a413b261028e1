/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REVIEW_H
#define REVIEW_H

/*
 * What the review on a list gives each patch: the trailers of the
 * follow-ups of a mailbox (common/mail/trailers.h reads them), collected the
 * way b4 am collects them and checked the way it does not always:
 *
 *   - a follow-up gives its trailers to the patch or cover letter it
 *     answers, at any depth (a reply to a reply to a patch gives them to
 *     the patch); one answering neither (directly or through other
 *     follow-ups of the mailbox) gives nothing;
 *   - a trailer given to a cover letter goes to every patch of that
 *     version of the series (the cover letter's series in the mail core,
 *     common/mail/mail-kind.h), and no other;
 *   - a trailer given to another version of a patch (an older posting of
 *     the series, a patch a partial reroll replaces, a resend) is carried
 *     only when that version's patch id (common/mail/patch-id.h, git patch-id
 *     --stable) is the one of the patch applied: the change it reviewed is
 *     the change applied. Otherwise it is listed, not carried, with why:
 *     on the applied patch of the same number ("v1 3/4, which changed in
 *     v2"), or, when the new version has no such patch, among the
 *     unplaced ones ("v1 3/4, which v2 dropped");
 *   - a person's trailer (common/mail/trailers.h, Identity) whose address is
 *     not the replier's is flagged and not carried unless opts.sloppy
 *     (b4's --sloppy-trailers);
 *   - a person's trailer given twice (the same token and address), or
 *     already in the patch's own trailer block, is kept once: the first;
 *   - opts.take decides which kinds go in: all (the default, as b4 am),
 *     none, or the tokens named (case-blind).
 * Carried trailers come in b4's order: those given to the patch itself,
 * then to its other versions, then to cover letters; each group in the
 * order of the follow-ups in the mailbox, each follow-up's in the order
 * written. The caller adds them to the
 * commit message with trailers_add_to_message() (so the message ends as
 * git interpret-trailers would make it), before any Link: and its own
 * Signed-off-by.
 *
 * Which messages are the versions of one series (family) is the
 * caller's to say (the mail core groups series by author and subject);
 * which patches are applied too (the newest version, a partial reroll's
 * patch in place of the one it replaces). Linear in the messages and
 * trailers, but for a patch's older versions: patches x versions.
 *
 * Use: review_new(), review_add() every message in the mail core's
 * order, review_collect() once with the patches to apply, then
 * review_for() each of them and review_unplaced().
 */

#include <stddef.h>

#include "mail-kind.h"
#include "patch-id.h"
#include "strbuf.h"
#include "strvec.h"
#include "trailers.h"

struct patch_mail;
struct trailer_conf;

/* What one message of the mailbox is to the review, as review_add() takes it. */
struct review_msg {
	enum mail_kind kind;	/* patches, cover letters and follow-ups count; the rest is ignored */
	size_t parent;		/* the message it answers (mail_class.parent), MAIL_NONE */
	size_t series;		/* mail_class.series, MAIL_NONE */
	size_t family;		/* the versions of one series share it (any number), MAIL_NONE */
	int version, k, total;
	size_t number;		/* the message's number in the inputs, for messages */
	const char *subject;	/* a patch's subject as git am cleans it */
	const char *from_name;	/* a follow-up's sender ("" when the From header has no name) */
	const char *from_email;
	/*
	 * a follow-up's attestation as attest_format() writes it ("G
	 * DKIM/example.net"), shown next to the trailers it gives; NULL:
	 * not checked, or not signed
	 */
	const char *attest;
	/* a follow-up's trailers (trailers_from_reply()), a patch's own (trailers_of_message()) */
	struct trailer_list trailers;
	unsigned char patch_id[PATCH_ID_RAWSZ];
	unsigned has_patch_id:1;
};

/*
 * Fills m for message n from its class c, the family the caller grouped
 * it in, its parse pm (the full parse for a patch: its message and diff
 * count; the headers do for the rest) and its bytes (a follow-up's text
 * is read from them). m->trailers is filled; the strings of m point into
 * pm, so review_add() it before pm changes. -1 (reported) on a hashing
 * failure.
 */
int review_msg_from_mail(struct review_msg *m, const struct mail_class *c, size_t family,
			 const struct patch_mail *pm, const char *bytes, size_t len, size_t number,
			 const struct trailer_conf *tc);

enum review_take {
	REVIEW_TAKE_ALL,
	REVIEW_TAKE_NONE,
	REVIEW_TAKE_SOME,	/* the tokens in review_opts.kinds */
};

struct review_opts {
	enum review_take take;
	struct strvec kinds;	/* REVIEW_TAKE_SOME: "Reviewed-by", "Acked-by" ... */
	int sloppy;		/* carry flagged trailers too (> 0); -1: unset (configuration decides) */
	int take_given;		/* take was set on the command line */
};

#define REVIEW_OPTS_INIT { REVIEW_TAKE_ALL, STRVEC_INIT, -1, 0 }

void review_opts_release(struct review_opts *opts);

/*
 * Reads the value of --trailers ("all", "none", or a comma-separated
 * list of trailer tokens, "reviewed-by,acked-by") into opts. -1 with the
 * problem reported ("bad trailer kind 'x'") when it is none of these.
 */
int review_parse_take(struct review_opts *opts, const char *arg);

/*
 * The options queue and dry-apply share: --trailers=<kinds> (--no-trailers
 * for none) and --[no-]sloppy-trailers, into a struct review_opts.
 */
struct option;
int review_opt_trailers(const struct option *opt, const char *arg, int unset);
#define OPT_REVIEW(o) \
	OPT_CALLBACK(0, "trailers", (o), "kinds", \
		     "the follow-ups' trailers to carry: all (default), none, or some ('reviewed-by,acked-by')", \
		     review_opt_trailers), \
	OPT_BOOL(0, "sloppy-trailers", &(o)->sloppy, \
		 "carry trailers whose address is not their sender's too")

/*
 * What the command line left unset, from the configuration:
 * queue.trailers (as --trailers) and queue.sloppy-trailers; -1 (reported,
 * naming the key) on a bad value.
 */
struct maint_config;
int review_opts_config(struct review_opts *opts, const struct maint_config *cfg);


enum review_verdict {
	REVIEW_CARRIED,		/* goes into the commit */
	REVIEW_FLAGGED,		/* not the replier's address: not carried */
	REVIEW_KEPT_ONCE,	/* already in the patch, or given before */
	REVIEW_NOT_TAKEN,	/* a kind the options leave out */
	REVIEW_STALE,		/* given to another version that is not this change */
};

const char *review_verdict_name(enum review_verdict v);

struct review_item {
	const struct trailer *trailer;
	enum review_verdict verdict;
	size_t followup;	/* the message that gave it */
	size_t given_to;	/* the patch or cover letter it answered */
	const char *replier;	/* "Name <addr>" of the follow-up's sender */
	const char *attest;	/* the follow-up's attestation (review_msg.attest), or NULL */
	char *note;		/* where it was given and why it is not carried: "v1 3/4, which changed in v2" */
};

struct review_list {
	struct review_item *v;
	size_t nr, alloc;
};

struct review;

struct review *review_new(void);
/* Takes NULL. */
void review_free(struct review *rv);

/* Adds message n (the next one, 0-based); takes m->trailers (left empty) and copies the strings. */
void review_add(struct review *rv, struct review_msg *m);

/*
 * Collects what each of the patches applied[0..napplied) (message
 * numbers, in the order they are applied) gets, as described above.
 * Call once.
 */
void review_collect(struct review *rv, const size_t *applied, size_t napplied,
		    const struct review_opts *opts);

/* The trailers of the i-th patch applied, every verdict, in order. */
const struct review_list *review_for(const struct review *rv, size_t i);
/* Trailers of other versions of patches that the applied series dropped. */
const struct review_list *review_unplaced(const struct review *rv);

/* The carried lines of the i-th patch ("Reviewed-by: ..."), appended to out. */
void review_carried(const struct review *rv, size_t i, struct strvec *out);

/*
 * One line per item, for the preview and the listings: indent, a mark
 * ("+" carried, "!" flagged, "=" kept once, "-" not carried), the
 * trailer, and in parentheses who sent it and the note:
 *
 *     + Reviewed-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>)
 *     + Acked-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, on the cover letter)
 *     ! Reviewed-by: Some One <one@example.org> (Third Party <third@example.org>, not the sender's address)
 *     - Tested-by: T <t@example.org> (T <t@example.org>, on v1 3/4, which changed in v2)
 *     + Acked-by: Ack Er <ack@example.net> (Ack Er <ack@example.net>) [G DKIM/example.net]
 *
 * the last one from a follow-up whose signatures were checked (in
 * brackets: its verdict and signer, attest.h).
 *
 * Text from mail is left as it is: print it with say() (usage.h).
 */
void review_format(struct strbuf *out, const struct review_list *rl, const char *indent);

/* How many items of the run have verdict v (all patches, and the unplaced ones). */
size_t review_count(const struct review *rv, enum review_verdict v);

#endif
