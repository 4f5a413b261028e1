/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TAG_SIGN_H
#define TAG_SIGN_H

/*
 * Annotated tags, made and signed as `git tag -a` / `git tag -s` make
 * them, so that `git verify-tag` and everyone's git read them as their
 * own.
 *
 * The object: "object <id>\ntype commit\ntag <name>\ntagger <ident>\n\n"
 * then the message, which always ends in a newline. A signed tag has a
 * detached, ASCII-armoured signature of all of that appended right after
 * the message; that is git's protocol, and the tag stays readable by any
 * git.
 *
 * Signing runs the signer the user's git configuration names, as git
 * runs it (never through a shell; the data on a pipe or in a temporary
 * file, never in argv):
 *
 *   gpg.format   openpgp (default)  gpg.openpgp.program, else gpg.program, else "gpg":
 *                                   <program> --status-fd=2 -bsau <key>, the data on
 *                                   its standard input, the signature on its standard
 *                                   output; signed only when its status says
 *                                   "[GNUPG:] SIG_CREATED"
 *                x509               the same with gpg.x509.program, else "gpgsm"
 *                ssh                gpg.ssh.program, else "ssh-keygen":
 *                                   <program> -Y sign -n git -f <key file> [-U] <data file>,
 *                                   the signature read from <data file>.sig; a literal
 *                                   key ("key::ssh-..." or "ssh-...") is written to a
 *                                   temporary file and its private half asked of the
 *                                   agent (-U), as git does
 *   user.signingKey  the key; openpgp and x509 default to the committer
 *                    "Name <email>", ssh has no default
 *
 * CRs before newlines in the signature are dropped, as git drops them.
 */

#include <git2.h>

#include "config.h"
#include "msg.h"
#include "strbuf.h"

enum tag_sign_format { TAG_SIGN_OPENPGP, TAG_SIGN_X509, TAG_SIGN_SSH };

struct tag_sign_conf {
	enum tag_sign_format format;
	char *program;
	char *key;
};

#define TAG_SIGN_CONF_INIT { TAG_SIGN_OPENPGP, NULL, NULL }

/*
 * Reads gpg.format, the program and user.signingKey from cfg's git
 * configuration; committer ("Name <email>") stands in for a missing key
 * where git uses the committer. -1 reported (an unknown gpg.format, ssh
 * without a key).
 */
int tag_sign_conf_load(struct tag_sign_conf *c, const struct maint_config *cfg, const char *committer);
void tag_sign_conf_release(struct tag_sign_conf *c);

/*
 * The tag object's text in out (reset first): target a commit, tagger
 * "Name <email> <when> <tz>", message cleaned as git tag --cleanup=<mode>
 * cleans it (msg.h; by default, strip: lines starting with the comment
 * character dropped, trailing blanks of each line, leading and trailing
 * blank lines and runs of blank lines dropped; a final newline). -1
 * reported when the cleaned message is empty.
 */
int tag_sign_buffer(struct strbuf *out, const git_oid *target, const char *name, const char *tagger,
		    const char *message, enum msg_cleanup mode, char comment);

/* Appends the signature of buf[0..len) to buf. -1 reported (the signer's words included). */
int tag_sign(struct strbuf *buf, const struct tag_sign_conf *c);

/* The message of a tag object's text (what follows its header), signature included. */
const char *tag_sign_message(const char *buf, size_t len, size_t *msg_len);

#endif
