/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REQUEST_PULL_TEXT_H
#define REQUEST_PULL_TEXT_H

/*
 * The text of a pull request, byte for byte what `git request-pull
 * <upstream> <url> <tag>` prints (git 2.39 and later) once the tag is on
 * the remote at <url>:
 *
 *	The following changes since commit <merge base>:
 *
 *	  <its subject> (<its committer date, %ci>)
 *
 *	are available in the Git repository at:
 *
 *	  <url> tags/<tag>
 *
 *	for you to fetch changes up to <tagged commit>:
 *
 *	  <its subject> (<its committer date>)
 *
 *	----------------------------------------------------------------
 *	<the tag's message, up to its signature>
 *
 *	----------------------------------------------------------------
 *	<git shortlog ^<upstream> <commit>>
 *	<git diff -M --stat --summary <merge base>..<commit>>
 *
 * The shortlog: one group per author (the name after .mailmap), groups
 * in strcmp() order of the names, "Name (n):" then each subject indented
 * by six spaces, in the reverse of git log's order, and a blank line
 * after each group. The diffstat: diffstat.h.
 *
 * Where it differs from git: git 2.39 stops the tag message only at an
 * OpenPGP signature ("-----BEGIN PGP "); here an SSH or X.509 signature
 * ends it too, as later versions of git do. git warns when the remote
 * lacks the tag and then names it without "tags/"; the caller here
 * checks the remote itself (request-pull engine) and always says
 * "tags/<tag>".
 */

#include <git2.h>

#include "diffstat.h"
#include "strbuf.h"

struct request_pull_text {
	const git_oid *upstream;	/* the upstream's tip (what the shortlog leaves out) */
	const git_oid *tip;		/* the commit the tag points at */
	const char *url;		/* the public URL */
	const char *tag;		/* the tag's short name: "usb-6.2-rc3" */
	const char *message;		/* the tag's message, possibly signed */
	size_t message_len;
	struct diffstat_opts diffstat;	/* what git diff reads from the configuration */
};

/*
 * The merge base of upstream and tip: 0 with *base set; -1 reported
 * ("no commits in common", as git request-pull says it).
 */
int request_pull_base(git_oid *base, git_repository *repo, const git_oid *upstream,
		      const git_oid *tip);

/* The tag message without its signature (a signature-less message is copied whole). */
void request_pull_strip_signature(struct strbuf *out, const char *msg, size_t len);

/*
 * Appends the shortlog of the commits tip has and upstream has not, as
 * above (each group followed by a blank line). 0, or -1 reported.
 */
int request_pull_shortlog(struct strbuf *out, git_repository *repo, const git_oid *upstream,
			  const git_oid *tip);

/* Appends the text above to out. 0, or -1 reported. */
int request_pull_format(struct strbuf *out, git_repository *repo, const struct request_pull_text *rp);

#endif
