/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COMMIT_H
#define COMMIT_H

/*
 * Commit objects as `git am` makes them. The messages themselves (git
 * am's message, stripspace, trailer blocks, sign-offs, git's trailer
 * configuration) are common/mail/msg.h, included here.
 */

#include <git2.h>

#include "msg.h"
#include "objwrite.h"
#include "strbuf.h"
#include "strvec.h"

/*
 * Writes a commit object: tree, parent (NULL for a root commit), author
 * and committer lines ("Name <email> when tz"), message. The message must
 * be valid UTF-8 without NUL bytes (else -1, reported). With ow (an open
 * batch, common/repo/objwrite.h) the object goes straight into it; without,
 * through the repository's object database.
 */
int commit_write(git_oid *out, git_repository *repo, struct objwrite *ow, const git_oid *tree,
		 const git_oid *parent, const char *author, const char *committer,
		 const struct strbuf *msg);

#endif
