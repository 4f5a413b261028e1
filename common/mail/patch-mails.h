/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PATCH_MAILS_H
#define PATCH_MAILS_H

/*
 * The patches of some mail inputs, in the order to apply them: what
 * dry-apply and queue take from a mailbox. Every message is read
 * (common/mail/source.h) and classified by the mail core
 * (common/mail/mail-kind.h); everything that is not a patch (cover letters,
 * replies, duplicates, other mail) and every patch replaced by a
 * partial reroll is stepped over with one line ("Skipping reply: Re:
 * ..."), and the patches are kept in input order, a partial reroll's
 * patch in place of the one it replaces.
 *
 * The patches of a series superseded by a newer full posting in the
 * inputs (its older versions, common/mail/mail-kind.h) are stepped over too
 * ("Skipping superseded patch: ..."): the newest version is applied.
 *
 * Series: the patches kept are grouped into the series a maintainer
 * takes one by one (mail_kinds_units(): the versions of one series are
 * one), numbered in the order in which they start in the inputs, and
 * inside a series ordered by their own numbers ("[PATCH 03/11]" is 3, a
 * partial reroll's patch where the one it replaces was, a patch without
 * numbers 1 of 1); pms->series says where each starts, what it is
 * called and what its cover letter says of its base. opts->series keeps
 * only the series named, by number or by the Message-ID of any of its
 * messages (a follow-up names the series it answers, an older version
 * the series it is a version of), or "all".
 *
 * A message the parser cannot read is kept as a patch at its place (it
 * cannot be applied, and the caller says so when it gets there), and
 * reported then, not here: the mails are parsed quietly.
 *
 * With opts->review, the trailers the follow-ups give each patch kept
 * are collected as common/mail/review.h says (older versions and follow-ups
 * are read for that, never applied): pms->review, its i-th patch being
 * pms->v[i]. A mailbox whose follow-ups carry no trailer costs nothing
 * more; one that does costs a full parse and a patch id per patch.
 *
 * Memory: what the index of the inputs says of each message (its kind,
 * place, subject, ids), never the mail itself. The bytes of every message
 * that may be applied or compared (a patch, a mail with a refused diff,
 * an unreadable mail) go to an unlinked temporary file
 * (common/base/spool.h) as they are read, files and pipes alike, and are
 * read back one at a time with patch_mails_get(); with opts->review every
 * message does, since the follow-ups are read again; other mail is not
 * stored at all. So a caller that takes the patches one at a time holds
 * the index plus the message it is at (and the one the source is
 * reading), whatever the size of the mailbox.
 */

#include <stdio.h>
#include <sys/types.h>

#include "mail-kind.h"
#include "review.h"
#include "spool.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

struct raw_mail;

struct patch_mail_ref {
	off_t off;		/* in the spool (patch_mails_get()); -1: not stored */
	size_t len;		/* in bytes */
	size_t index;		/* the message's place in the inputs, 0-based (the mail core's numbering) */
	char commit[41];	/* the commit id of its "From <id>" line (git format-patch's), else "" */
	size_t number;		/* the message's number in the inputs (source numbering) */
	const char *origin;	/* the input it came from (one of the arguments, or "-") */
	int k, total;		/* its own numbers: [PATCH 03/11] is 3, 11; a single patch 1, 1 */
	size_t series;		/* its series, patch_mails.series */
};

/* One series: its patches are v[first..first + nr), by their own numbers. */
struct patch_series {
	size_t first, nr;
	int version, total;	/* of its newest posting */
	char *subject;		/* its cover letter's subject as git am cleans it, else its first patch's */
	char *message_id;	/* its cover letter's Message-ID, else its first patch's ("" when none) */
	char *base_commit;	/* the "base-commit: <id>" its cover letter (or a patch) gives, else NULL */
	size_t missing;		/* patches of its newest posting the inputs lack */
};

/*
 * Two versions of one series in the inputs (opts->versions): the newest
 * as it is applied (a partial reroll's patches among the older ones they
 * do not replace) and the full posting before it.
 */
struct patch_mails_versions {
	int old_version, new_version;
	char *subject;			/* the newest version's cover letter subject, else its first patch's */
	struct patch_mail_ref *old;	/* the older version's patches, by number */
	size_t old_nr;
	size_t *new;			/* the newest version: indices into patch_mails.v */
	size_t new_nr;
};

struct patch_mails {
	struct spool spool;		/* the bytes of the messages that may be needed again */
	struct patch_mail_ref *v;	/* in the order to apply them */
	size_t nr, alloc;
	size_t counts[MAIL_KIND_NR];	/* messages of each kind read */
	size_t superseded;		/* patches replaced by a partial reroll or a newer version */
	struct patch_series *series;	/* the series, in the order in which they start in the inputs */
	size_t series_nr;
	struct review *review;		/* with opts->review: what each patch of v gets */
	struct patch_mails_versions *versions;	/* with opts->versions, per series that has two */
	size_t versions_nr;
};
#define PATCH_MAILS_INIT { SPOOL_INIT }

/* Options of patch_mails_read(). */
struct attest;
struct maint_config;
struct review_opts;
struct trailer_conf;
struct source_opts;
struct patch_mails_opts {
	const struct source_opts *source;	/* --input-mboxrd ... (source.h); may be NULL */
	const struct maint_config *cfg;	/* for mbox.max-message-size; may be NULL */
	FILE *say;		/* where the "Skipping" lines go; NULL: nowhere */
	int quiet;		/* no warning about incomplete series */
	const struct review_opts *review;	/* collect the follow-ups' trailers; NULL: not */
	const struct trailer_conf *trailers;	/* what a patch's trailer block is; NULL: git's defaults */
	int versions;		/* find the series with two versions (patch_mails.versions) */
	/* keep these series only: "<n>" (1-based), a Message-ID ("<id>", "id", "id:<id>"), "all"; NULL: all */
	const struct strvec *series;
	/* with review: check the follow-ups' signatures, shown by their trailers; may be NULL */
	struct attest *attest;
};

/*
 * Reads args[0..nargs) (source_open() rules) into pms. Returns RESULT_OK;
 * RESULT_NO when a message is over the size limit (source_configure():
 * --max-message-size, else mbox.max-message-size; reported: the
 * series is refused by policy, as mail that cannot apply), or when a
 * series opts->series names is not there (reported, with the series
 * there are, patch_mails_list_series()); RESULT_FATAL
 * when an input could not be read or the configuration is bad (reported).
 */
enum maint_result patch_mails_read(struct patch_mails *pms, const char *const *args, size_t nargs,
				   const struct patch_mails_opts *opts);

/*
 * Appends " (2 cover letters and 3 replies skipped)" to out, or nothing
 * when nothing was skipped.
 */
void patch_mails_skipped(const struct patch_mails *pms, struct strbuf *out);

/*
 * Replaces buf with the bytes of ref (one of pms->v, or of an older
 * version's patches, pms->versions[].old) and, when raw is not NULL, sets
 * raw to them (buf, len, origin, number; no From_ line, no offset) for
 * mailinfo_parse(). raw->buf is valid until buf changes. -1 when the
 * temporary file cannot be read (reported).
 */
int patch_mails_get(const struct patch_mails *pms, const struct patch_mail_ref *ref,
		    struct strbuf *buf, struct raw_mail *raw);

/*
 * One line per series, for people: "  2: <subject> (v2, 3 patches) <message-id>",
 * appended to out. Text from mail is as it came: print it with say().
 */
void patch_mails_list_series(const struct patch_mails *pms, struct strbuf *out);

/* "3/11": patch ref's own numbers, appended to out. */
void patch_mails_name(struct strbuf *out, const struct patch_mail_ref *ref);

void patch_mails_release(struct patch_mails *pms);

#endif
