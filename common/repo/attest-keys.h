/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_KEYS_H
#define ATTEST_KEYS_H

/*
 * The ref: key sources of attestation (common/mail/attest.h) read through
 * libgit2, for the programs that open the repository: a key is the file
 * <dir>/<path> of the ref's tree (HEAD's when the source names none), as
 * patatt reads it with `git show <ref>:<path>`. A symbolic link in the
 * tree (patatt's "default" key links to a named one) is followed once,
 * relative to its directory. The mail layer calls this through
 * attest_conf.read_ref, with the repository as the context.
 */

#include "strbuf.h"

/*
 * attest_ref_reader for ctx, a git_repository *: 0 with the file in out,
 * 1 when the ref, the path or the repository (repo_path, "" for ctx) is
 * not there. Never reports: a missing key is a verdict, not an error.
 */
int attest_keys_read_ref(void *ctx, const char *repo_path, const char *ref, const char *path,
			 struct strbuf *out);

#endif
