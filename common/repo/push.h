/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PUSH_H
#define PUSH_H

/*
 * Pushing one branch to one remote, never forced, watched: libgit2's
 * transports carry git's receive-pack protocol (sendpack.h) and our own
 * pack of what the remote lacks (pushpack.h).
 *
 * The push runs in a child process (a "push worker", forked, not a new
 * program) that talks to the parent over a socket: libgit2 1.5 has no
 * timeout of its own on its transports (GIT_OPT_SET_SERVER_CONNECT_TIMEOUT
 * came with 1.7), and a server that accepts the connection and never
 * answers would otherwise hang us in recv() for ever, over git://, http(s)
 * or ssh alike. The worker reports each step and each sign of progress
 * (the pack being made, bytes sent, the server's sideband messages); when
 * it stays silent for opts->timeout seconds the parent kills it and the
 * push has timed out. While the worker waits for the user's credential
 * helper (which may prompt on the terminal) the clock is stopped.
 *
 * Two phases, so that a caller can look at the remote before it changes
 * anything here:
 *
 *   push_connect()  connects for push (authenticating) and returns the
 *                   remote's value of the branch, if it has one
 *   push_update()   makes the pack (in a temporary file: no connection
 *                   waits on it, and memory does not grow with it), then
 *                   asks the server to move the branch from the value it
 *                   advertised to the new one, which the local ref must
 *                   hold; the server checks that old value, so nothing is
 *                   ever forced
 *
 * A connection lost before the server said a word (an HTTP server closes
 * a keep-alive connection left idle, while the step or the pack took
 * their time) is replaced once: connect again, check the branch is still
 * where it was (or already at the new value: done), send again. Nothing
 * had reached the server, so nothing happens twice.
 *
 * A push succeeded only when the server's report says "unpack ok" and
 * "ok <ref>". The remote-tracking ref is not touched here: push_track()
 * moves it, once the caller has recorded the push (the one ref a push
 * changes here, through refstep.h).
 *
 * Credentials as the user's git has them (common/repo/push-credential.h):
 * the ssh-agent and ~/.ssh keys for ssh; for http(s) git's credential
 * helpers, else the Secret Service item git-credential-libsecret keeps,
 * else git's prompt (common/net/credential.h). A remote that is a path
 * here (or file://) is pushed to by `git receive-pack`, as git push does
 * it: no credentials, and its hooks run.
 *
 * Nothing is reported here: each failure is returned as an outcome and a
 * reason, for the caller to report naming the remote.
 */

#include <git2.h>

#include "config.h"
#include "state.h"
#include "strbuf.h"
#include "usage.h"

enum push_outcome {
	PUSH_OK,		/* the remote holds the new value */
	PUSH_REJECTED,		/* refused: not a fast-forward, or by the server (a hook) */
	PUSH_UNREACHABLE,	/* could not connect, the connection lost or closed */
	PUSH_TIMEOUT,		/* the remote stayed silent for the timeout */
	PUSH_SERVER,		/* the server failed (an HTTP 5xx, it could not store the pack) */
	PUSH_AUTH,		/* authentication failed or no credentials */
	PUSH_FAILED,		/* anything else (bad URL, certificate, no such repository) */
};

struct push_opts {
	const char *remote;	/* the remote's name */
	const char *ref;	/* "refs/heads/usb-next", the same name there */
	int timeout;		/* seconds of silence before giving up; 0: none */
	/* git's credential.* settings (common/net/credential.h), the remote's URL (push_remote_url()) */
	const struct maint_config *cfg;
	int quiet;		/* no progress meter */
};

struct push_result {
	enum push_outcome outcome;
	struct strbuf reason;	/* libgit2's or the server's words, one line */
	git_oid remote_old;	/* the remote's value of the ref before the push */
	int has_remote_old;	/* 0: the remote had no such ref */
	char *url;		/* the push URL, for messages */
};

#define PUSH_RESULT_INIT { PUSH_OK, STRBUF_INIT, { { 0 } }, 0, NULL }

void push_result_release(struct push_result *res);

/*
 * The result (usage.h) an outcome stands for: PUSH_REJECTED RESULT_NO;
 * PUSH_UNREACHABLE, _TIMEOUT and _SERVER RESULT_TEMPFAIL (transport
 * failures: try again later); PUSH_AUTH and _FAILED RESULT_FATAL.
 */
enum maint_result push_outcome_result(enum push_outcome outcome);

/* "rejected", "unreachable", "timed out", "server error", "authentication failed", "failed". */
const char *push_outcome_name(enum push_outcome outcome);

/*
 * The URL a push to remote goes to (remote.<name>.pushurl, else .url),
 * from the git configuration config_load() read: 0 with *url set (caller
 * frees), 1 when there is no such remote (nothing reported).
 * (git_remote_lookup() of libgit2 1.5 leaks its regex match data, so the
 * parent process does not call it; the push worker, which ends with
 * _exit(), does.)
 */
int push_remote_url(const struct maint_config *cfg, const char *remote, char **url);

struct push_conn;

/*
 * Starts the worker and connects. 0 with *out set and res->remote_old /
 * res->has_remote_old filled in; -1 with res->outcome and res->reason set
 * (nothing reported) and *out NULL. res->url is set in both cases when
 * the remote exists.
 */
int push_connect(struct push_conn **out, git_repository *repo, const struct push_opts *opts,
		 struct push_result *res);

/*
 * Pushes: the local ref must hold new. 0 when the remote took it
 * (res->outcome PUSH_OK); -1 with res->outcome and res->reason set.
 * Ends the worker either way.
 */
int push_update(struct push_conn *conn, const git_oid *new, struct push_result *res);

/* Ends a worker that push_update() did not (disconnects without pushing). NULL is fine. */
void push_close(struct push_conn *conn);

/*
 * The remote-tracking ref that remote.<remote>.fetch maps ref to
 * ("refs/heads/usb-next" -> "refs/remotes/backup/usb-next"), as git push
 * and fetch find it: 0 with out set, 1 when no fetch refspec maps it
 * (a write-only remote), -1 reported.
 */
int push_tracking_ref(const struct maint_config *cfg, const char *remote, const char *ref,
		      struct strbuf *out);

/*
 * The remote was seen holding oid at ref (it took our push, or had it
 * already): its remote-tracking ref follows, as after git push, in a ref
 * step named "push" (crash points push-before-ref and
 * push-before-ref:<remote>, refstep.h) with the reflog line "update by
 * push". Nothing to do when no fetch refspec maps ref. 0, or -1 reported.
 */
int push_track(git_repository *repo, const struct maint_config *cfg, const struct state_lock *lock,
	       const char *remote, const char *ref, const git_oid *oid);

#endif
