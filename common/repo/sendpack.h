/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SENDPACK_H
#define SENDPACK_H

/*
 * The client side of git's receive-pack protocol (version 0, what git
 * push speaks), over libgit2's transports: libgit2 connects (git://,
 * http(s) with its authentication and TLS checks, ssh), asks for the
 * remote's refs and parses them; we send the update command and our own
 * pack (pushpack.h), and read the server's report. So the pack is the
 * one git push would send (thin, with deltas, made before the upload
 * starts), not the one libgit2 1.5's git_remote_upload() builds. A
 * repository on this machine (a path, or file://) is pushed to by
 * `git receive-pack <dir>`, as git push does it: its hooks run.
 *
 * How it goes:
 *
 *   sendpack_connect()  connects for push and lists the remote's refs
 *                       (sendpack_heads()) and capabilities, which the
 *                       first line of the listing carries (seen on
 *                       their way through our wrapper of libgit2's
 *                       stream, as libgit2 1.5 does not give them)
 *   sendpack_push()     opens the upload (a POST for http, the same
 *                       connection otherwise), sends
 *                           <old> <new> <ref>\0<capabilities>
 *                           0000
 *                           <the pack>
 *                       and reads the report: "unpack ok", then "ok
 *                       <ref>" or "ng <ref> <reason>", demultiplexed
 *                       from side-band-64k (band 2, the server's
 *                       messages, goes to the callbacks' sideband_progress,
 *                       which is also called with no text for every other
 *                       packet: a sign of life)
 *
 * The capabilities asked for are those the server offered of
 * report-status, side-band-64k, ofs-delta and object-format=sha1, and
 * our agent. Without report-status nothing proves the update, so a
 * server that does not offer it is not pushed to.
 *
 * Every failure is libgit2's error (git_error_last(), its class saying
 * what failed: GIT_ERROR_NET, _HTTP, _SSH, _OS) or, when the server's
 * words are the reason, ours of class GIT_ERROR_NET naming them
 * ("remote error: ...", "unpack failed: ..."), for push.c to classify.
 */

#include <git2.h>
#include <stdint.h>

#include "strbuf.h"

struct sendpack;

/*
 * Connects to url for push, with the callbacks (credentials,
 * certificate_check, sideband_progress, push_transfer_progress; copied)
 * of remote (the owner libgit2's transports need). 0 with *out set, or
 * a libgit2 error code (<0) with git_error_last() set.
 */
int sendpack_connect(struct sendpack **out, git_remote *remote, const char *url,
		     const git_remote_callbacks *callbacks);

/* The remote's refs: names and ids, valid until sendpack_free(). */
size_t sendpack_heads(const struct sendpack *sp, const char *const **names, const git_oid **ids);

/* 1 when the server offered the capability ("no-thin", "ofs-delta"). */
int sendpack_has_cap(const struct sendpack *sp, const char *cap);

struct sendpack_report {
	int received;		/* the server answered at all (a byte of the report) */
	int ok;			/* "unpack ok" and "ok <ref>" */
	struct strbuf reason;	/* else why: "unpack failed: ...", the ng reason */
};

#define SENDPACK_REPORT_INIT { 0, 0, STRBUF_INIT }

void sendpack_report_release(struct sendpack_report *r);

/*
 * Asks the remote to move ref from old (NULL: create it) to new,
 * sending the pack in pack_fd (read from its start, nr_objects for the
 * progress callback). 0 when the server answered (its verdict in r);
 * a libgit2 error code (<0, git_error_last() set) when the transfer
 * failed, r->received saying whether any of the answer had come.
 */
int sendpack_push(struct sendpack *sp, const char *ref, const git_oid *old, const git_oid *new,
		  int pack_fd, uint32_t nr_objects, struct sendpack_report *r);

/* Says goodbye (a flush, for a stateful server that got no command) and frees. NULL is fine. */
void sendpack_free(struct sendpack *sp);

#endif
