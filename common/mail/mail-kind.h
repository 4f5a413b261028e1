/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAIL_KIND_H
#define MAIL_KIND_H

/*
 * What each message of a mailbox is: the one classification every
 * command that reads mail uses (mbox-split, dry-apply, queue), decided
 * over the whole mailbox because a message's kind depends on the others
 * (a copy seen before, the message it answers, its series).
 *
 * Kinds:
 *   - duplicate: its Message-ID was seen before; the first copy wins;
 *   - follow-up: a reply ("Re:", "Aw:", "Fwd:" subject), or a message
 *     that answers (In-Reply-To) a patch, cover letter or follow-up of
 *     the mailbox and either has no "[PATCH ...]"-style tag, whatever it
 *     carries (a diff quoted with "> " or a reviewer's suggested diff is
 *     never a patch: b4 ignores diffs in follow-ups too), or carries no
 *     patch (a reply whose mailer kept the tag and dropped the "Re:");
 *   - cover letter: "0/n", whatever follows its "---" (b4's diffstat and
 *     base-commit:, format-patch --interdiff/--range-diff), or the
 *     thread root without a diff of a series;
 *   - patch: carries a patch part that git am would try to apply (a
 *     diff, or whatever follows a "---" line: a patch that cannot apply
 *     stops whoever applies it, as in git am) and is none of the above;
 *     a thread root whose patch part names no file (only a diffstat
 *     after its "---") is the cover letter of the series under it;
 *   - other: everything else.
 *
 * Series: "[PATCH vN k/n]" patches and their 0/n cover letter, either in
 * one thread with the same version and n, or, sent without threading
 * (git format-patch --stdout A..B), consecutive messages with the same
 * n and version, k rising: next to each other in the mailbox (other
 * series messages counting, replies not; whoever wrote them: an export
 * of history has one author per patch), or from the same sender dated
 * within MAIL_KIND_SERIES_GAP seconds (dates are known only when the
 * index reads them: not on mbox-split's fast path). A single
 * patch without k/n is a series of one. An unthreaded series is joined
 * into one thread, so selecting one of its patches selects all.
 *
 * Partial rerolls: a vN patch answering (In-Reply-To) a patch of an
 * older version with the same k replaces that patch only (replaced_by);
 * its series is a partial reroll and is never called incomplete. So is
 * a series without a cover letter that lacks patches, in the thread of
 * an older version with the same n (the patches it replaced were left
 * out, by a selection that kept the reroll): its patches replace those
 * of the newest such version with the same k, or fill its gaps; and so
 * is a later version answering a message the mailbox lacks, with the
 * same n and only numbers an older version lacks (detached: its thread
 * is its own). Either way the older version's missing numbers are
 * those both lack (reroll_of), so the same mail selected again and
 * again reads the same, with no "incomplete" warning for what the
 * reroll fills.
 *
 * Versions: the series of one sender that share a cover letter or patch
 * subject (as git am cleans it) are versions of one series, a family;
 * so is a partial reroll with the series whose patches it replaces. A
 * series older than the newest full posting (not a partial reroll) of
 * its family is superseded: whoever applies the family applies the
 * newest, and reads the older ones only for what was said about them.
 *
 * Cost: linear in the number of messages (the missing numbers of a
 * series are found by sorting its members, never with an array of n).
 * The module keeps the message ids, senders and subjects and a few
 * numbers per message, never a body.
 *
 * Use: mail_kinds_add() every message in input order (mail_facts_from()
 * reads the facts off a parsed message), mail_kinds_run() once, then
 * read the results with mail_kinds_at() and mail_kinds_series().
 */

#include <stddef.h>
#include <time.h>

#include "strbuf.h"
#include "strvec.h"

struct patch_mail;

enum mail_kind {
	MAIL_PATCH,
	MAIL_COVER,
	MAIL_FOLLOWUP,
	MAIL_DUPLICATE,
	MAIL_OTHER,
};
#define MAIL_KIND_NR 5

/* Two messages of an unthreaded series further apart than this (and not neighbours) are two series. */
#define MAIL_KIND_SERIES_GAP (2 * 24 * 3600)

/* "patch", "cover letter", "reply", "duplicate", "message without a patch". */
const char *mail_kind_name(enum mail_kind kind);
/* The plural: "patches", "cover letters", "replies", "duplicates", "messages without a patch". */
const char *mail_kind_plural(enum mail_kind kind);

/* What classification needs of one message; the strings are borrowed for mail_kinds_add(). */
struct mail_facts {
	const char *message_id;		/* without <>, "" when none */
	const char *in_reply_to;	/* "" when none */
	const char *const *references;	/* message ids, oldest first */
	size_t nr_references;
	const char *sender;		/* the author's e-mail address */
	const char *subject;		/* the subject as git am cleans it; NULL or "" when unknown */
	time_t when;			/* its Date, 0 when unknown */
	int version, k, total;		/* [PATCH v2 3/5]: 2, 3, 5; 1, 0, 0 when absent */
	unsigned is_reply:1;		/* "Re:"-style subject */
	unsigned tagged:1;		/* the subject starts with a bracket tag ("[PATCH]", "[RFC v2 1/3]") */
	unsigned has_patch:1;		/* a patch part git am would try: a diff, or anything after "---" */
	unsigned has_diff:1;		/* in it, a file header ("diff --git", "---"/"+++") */
};

/*
 * Fills f from a parsed message (mailinfo_parse() or select_scan():
 * paths must be filled); f borrows pm's strings. raw_subject gives
 * tagged; has_patch is the parser's, has_diff "it names a file".
 */
void mail_facts_from(struct mail_facts *f, const struct patch_mail *pm, time_t when);

/*
 * Can the message of f be a follow-up, in any mailbox? Not when it is
 * a tagged patch that is no reply ("[PATCH v2 3/5] ..." answering its
 * cover letter): that keeps its kind whatever it answers. Lets a reader
 * skip what only a follow-up needs (the trailers it gives).
 */
int mail_facts_may_follow_up(const struct mail_facts *f);

#define MAIL_NONE ((size_t)-1)

/* The verdict on one message. */
struct mail_class {
	enum mail_kind kind;
	size_t parent;		/* the message it answers (In-Reply-To, first copy), MAIL_NONE if not here */
	size_t thread;		/* thread number, 0-based, in order of first appearance */
	size_t series;		/* its series (patches and covers), MAIL_NONE when none */
	size_t replaced_by;	/* the newer version's patch that replaces it, MAIL_NONE */
	size_t replaces;	/* the older version's patch it replaces, MAIL_NONE */
	int version, k, total;	/* as added; a single patch counts as 1/1 */
};

struct mail_series {
	size_t first;		/* its first message */
	size_t nr;		/* messages in it (cover letter included) */
	int version, total;
	unsigned has_cover:1;
	unsigned partial:1;	/* a partial reroll: every patch of it replaces one of an older version */
	size_t reroll_of;	/* a partial reroll: the series it rerolls, else MAIL_NONE */
	size_t family;		/* the versions of one series share it: the first series of them */
	unsigned superseded:1;	/* older than the newest full posting of its family */
};

struct mail_kinds;

struct mail_kinds *mail_kinds_new(void);
/* Takes NULL. */
void mail_kinds_free(struct mail_kinds *mk);

/* Adds the next message (input order); returns its number (0-based). */
size_t mail_kinds_add(struct mail_kinds *mk, const struct mail_facts *f);
size_t mail_kinds_count(const struct mail_kinds *mk);

/* Classifies every message added; call once, after the last add. */
void mail_kinds_run(struct mail_kinds *mk);

const struct mail_class *mail_kinds_at(const struct mail_kinds *mk, size_t n);
size_t mail_kinds_threads(const struct mail_kinds *mk);
size_t mail_kinds_series_count(const struct mail_kinds *mk);
const struct mail_series *mail_kinds_series(const struct mail_kinds *mk, size_t s);

/*
 * Series as a maintainer counts them: the versions of one series (a
 * family) are one series to apply, its newest posting with the partial
 * rerolls after it. mail_kinds_units() numbers them, 0-based, in the
 * order in which their newest postings start in the mailbox (the first
 * cover letter or patch of a series not superseded); a family without a
 * patch in those (a cover letter whose patches are missing) gets no
 * number. unit[s] is the number of series s's family (superseded series
 * included), MAIL_NONE for none; unit has mail_kinds_series_count()
 * entries. Returns how many there are. Linear in the messages.
 */
size_t mail_kinds_units(const struct mail_kinds *mk, size_t *unit);

/*
 * The patch numbers 1..total that series s lacks, as ranges appended to
 * out ("2-19, 21"); returns how many are missing (0 for a partial
 * reroll). Linear in the series' size (plus a sort of it).
 */
size_t mail_kinds_missing(const struct mail_kinds *mk, size_t s, struct strbuf *out);

/*
 * The counts of a run's kinds, for "Queueing 9 patches (2 cover letters
 * and 3 replies skipped)": appends to out the skipped kinds (all but
 * patches), "N <plural>" joined with ", " and " and "; nothing when
 * none was skipped. counts has MAIL_KIND_NR entries; superseded patches
 * (replaced by a partial reroll) are counted in superseded.
 */
void mail_kind_skipped_summary(struct strbuf *out, const size_t *counts, size_t superseded);

#endif
