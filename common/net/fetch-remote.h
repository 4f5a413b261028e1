/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FETCH_REMOTE_H
#define FETCH_REMOTE_H

/*
 * The fetcher's side of common/mail/fetch.h: what git-maint-source--fetch
 * does for one argument. The only code that reaches the network
 * (common/net/archive.h over common/net/http.h, and IMAP), in a program of its
 * own as git keeps its transports in git-remote-https: the commands
 * that read mail load no network library (libcurl, libsecret) and pay
 * nothing for it when every source is local.
 *
 * The cache of archive threads lives here (fetch.h says how it
 * behaves): $GIT_COMMON_DIR/maint/cache/archive/, opened component by
 * component with O_NOFOLLOW, created only when a thread arrives (a
 * fetch that fails creates nothing), each thread written to a temporary
 * file in that directory, fsync()ed and renamed into place.
 */

#include "fetch.h"
#include "strbuf.h"
#include "usage.h"

/*
 * Fetches arg's mail (with the configuration of the git-maint INI files)
 * and writes its messages, one after another, to out_fd (a regular
 * file), appending the manifest (fetch.h) to manifest. Returns
 * RESULT_OK, RESULT_TEMPFAIL or RESULT_FATAL, each failure reported.
 */
enum maint_result fetch_remote(const char *arg, const struct fetch_opts *opts, int out_fd,
			       struct strbuf *manifest);

#endif
