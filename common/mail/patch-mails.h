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
 * A message the parser cannot read is kept as a patch at its place (it
 * cannot be applied, and the caller says so when it gets there), and
 * reported then, not here: the mails are parsed quietly.
 *
 * Memory: the bytes of every mail read, once (the caller applies the
 * patches among them from memory, as git am would from its split).
 */

#include <stdio.h>

#include "mail-kind.h"
#include "strbuf.h"

struct patch_mail_ref {
	size_t off, len;	/* in bytes */
	size_t number;		/* the message's number in the inputs (source numbering) */
	const char *origin;	/* the input it came from (one of the arguments, or "-") */
};

struct patch_mails {
	struct strbuf bytes;		/* every mail read, one after another; v points into it */
	struct patch_mail_ref *v;	/* in the order to apply them */
	size_t nr, alloc;
	size_t counts[MAIL_KIND_NR];	/* messages of each kind read */
	size_t superseded;		/* patches replaced by a partial reroll */
};
#define PATCH_MAILS_INIT { STRBUF_INIT }

/* Options of patch_mails_read(). */
struct maint_config;
struct patch_mails_opts {
	unsigned source_flags;	/* SOURCE_MBOXRD ... */
	const struct maint_config *cfg;	/* for mbox.max-message-size; may be NULL */
	FILE *say;		/* where the "Skipping" lines go; NULL: nowhere */
	int quiet;		/* no warning about incomplete series */
};

/*
 * Reads args[0..nargs) (source_open() rules) into pms. Returns RESULT_OK;
 * RESULT_NO when a message is over mbox.max-message-size (reported: the
 * series is refused by policy, as mail that cannot apply); RESULT_FATAL
 * when an input could not be read or the configuration is bad (reported).
 */
int patch_mails_read(struct patch_mails *pms, const char *const *args, size_t nargs,
		     const struct patch_mails_opts *opts);

/*
 * Appends " (2 cover letters and 3 replies skipped)" to out, or nothing
 * when nothing was skipped.
 */
void patch_mails_skipped(const struct patch_mails *pms, struct strbuf *out);

void patch_mails_release(struct patch_mails *pms);

#endif
