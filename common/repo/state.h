/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STATE_H
#define STATE_H

/*
 * Resumable operations and the repository lock.
 *
 * The lock. One git-maint operation that changes a repository (queue,
 * publish) runs at a time: it holds $GIT_COMMON_DIR/git-maint.lock, a
 * file holding the holder's pid. The file is locked with flock(), so the
 * kernel drops the lock when its holder dies: a lock file left by a dead
 * process is noticed ("previous holder pid N is gone"), reported with a
 * warning and taken over, never silently broken and never blocking
 * forever. A second process is refused at once:
 *
 *	error: another git-maint operation holds <path> (pid N)
 *
 * and state_lock_acquire() returns RESULT_TEMPFAIL (exit 75).
 *
 * State. An operation keeps what --continue/--skip/--abort need under
 * $GIT_DIR/maint/<name>/. Every file is written to a temporary name,
 * fsync()ed, renamed into place, and the directory fsync()ed, so a file
 * is either the old or the new version. Each state file ends with a
 * footer line
 *
 *	#maint-state <payload length> <sha1 of payload>
 *
 * so a truncated or zero-length file (a power cut before the data reached
 * the disk) is detected instead of being half-read. A directory that
 * exists without a readable "state" file (a run killed while starting) is
 * reported as damaged, and the command's --abort clears it.
 *
 * The payload format is up to the operation; state_kv_*() (state-kv.h) help with
 * "key value" lines, and the typed getters below read object ids and numbers
 * from them.
 *
 * State files are input, read with the same suspicion as mail: whoever
 * could write them could have put a symbolic link there. Nothing here
 * follows one: $GIT_DIR/maint and the state directory are opened with
 * O_NOFOLLOW, and every file is opened, renamed or removed relative to
 * that directory, O_NOFOLLOW; a link or other non-regular file is
 * refused, and removing the state removes a link itself, never what it
 * points to. What the files hold (paths above all) is the operation's
 * to check.
 */

#include <git2.h>

#include "sha1.h"
#include "state-kv.h"
#include "strbuf.h"
#include "usage.h"

struct state_lock {
	char *path;
	int fd;
};

#define STATE_LOCK_INIT { NULL, -1 }

/*
 * Takes the repository lock. RESULT_OK: held by us; RESULT_TEMPFAIL:
 * another live process holds it (error reported, naming the path and
 * pid); RESULT_FATAL: error (reported).
 */
enum maint_result state_lock_acquire(struct state_lock *lk, git_repository *repo);
/*
 * The same lock discipline on another file of $GIT_COMMON_DIR, for a
 * command that must not run twice at once but may run under the
 * repository lock's holder (notify, run by publish: "maint-notify.lock").
 */
enum maint_result state_lock_acquire_named(struct state_lock *lk, git_repository *repo,
					   const char *name);
/* Releases and removes the lock file; takes an unlocked lock. */
void state_lock_release(struct state_lock *lk);

/*
 * 1 when git's own index.lock exists (another git process is working on
 * the index): error reported naming it (exit 75). 0 when absent.
 */
int repo_index_locked(git_repository *repo);

/* $GIT_DIR/maint/<name>, caller frees. */
char *state_dir_path(git_repository *repo, const char *name);
/*
 * 1 if dir is a directory (and so is its parent, $GIT_DIR/maint), 0 if
 * dir does not exist, -1 if either is something else, such as a
 * symbolic link (nothing reported: the state must not be used).
 */
int state_dir_exists(const char *dir);
/* Creates dir (and $GIT_DIR/maint), mode 0700; -1 if it cannot, or exists already. */
int state_dir_create(const char *dir);
/*
 * Removes dir and every file in it (one level of subdirectories); a
 * symbolic link (or file) at dir is removed itself. -1 (reported) when
 * $GIT_DIR/maint is not a directory.
 */
int state_dir_remove(const char *dir);

/*
 * Writes payload to dir/name atomically with the footer (temp file, fsync,
 * rename, fsync of dir). crash_label, when not NULL, names a crash point
 * hit after the temporary file is written, before the rename.
 */
int state_write(const char *dir, const char *name, const struct strbuf *payload,
		const char *crash_label);
/*
 * Reads dir/name into out, checking the footer. 0 ok; 1 the file does
 * not exist (nothing reported); -1 unreadable or damaged (reported:
 * "state file '<path>' is damaged (<why>)").
 */
int state_read(const char *dir, const char *name, struct strbuf *out);

/*
 * A state file too large to build in memory (the queue's stored series)
 * is written and read in pieces, with the same footer and the same
 * atomic rename as state_write() and state_read().
 *
 * Reading: state_file_open() checks the footer, hashing the payload a
 * piece at a time, and keeps the file open; state_file_read() then reads
 * any part of the payload. Whatever changes the file afterwards (nothing
 * of ours does) is not noticed.
 */
struct state_file {
	int fd;
	size_t len;		/* the payload's length */
	char *path;		/* for messages */
};
#define STATE_FILE_INIT { -1, 0, NULL }

/* As state_read(): 0 (open), 1 absent (nothing reported), -1 unreadable or damaged (reported). */
int state_file_open(struct state_file *sf, const char *dir, const char *name);
/* Appends the len bytes of the payload at off to out: 0, or -1 (reported). */
int state_file_read(const struct state_file *sf, size_t off, size_t len, struct strbuf *out);
/* Closes it; takes one never opened (STATE_FILE_INIT). */
void state_file_close(struct state_file *sf);

/*
 * Writing: state_writer_begin() creates the temporary file for a payload
 * of exactly len bytes (the footer's hash needs the length first);
 * state_writer_add() appends a piece; state_writer_commit() adds the
 * footer, syncs and renames the file into place as state_write() does
 * (crash_label likewise), and with sf not NULL leaves the file open
 * there, as state_file_open() would (it was just written: not read
 * again). A failure of any of them is reported, removes the temporary
 * file and ends the writer; so does state_writer_abandon().
 */
struct state_writer {
	/* private */
	int dfd, fd;
	char *dir, *name, *tmp, *path;
	size_t want, len;
	int footer;
	struct sha1 hash;
};
#define STATE_WRITER_INIT { -1, -1, NULL, NULL, NULL, NULL, 0, 0, 0, SHA1_INIT }

int state_writer_begin(struct state_writer *w, const char *dir, const char *name, size_t len);
int state_writer_add(struct state_writer *w, const void *buf, size_t len);
int state_writer_commit(struct state_writer *w, const char *crash_label, struct state_file *sf);
void state_writer_abandon(struct state_writer *w);

/*
 * Writes data to dir/name atomically without a footer (for files the
 * user may edit, such as the current patch).
 */
int state_write_raw(const char *dir, const char *name, const char *data, size_t len);
/* Reads such a file into out: 0 ok, 1 absent (nothing reported), -1 error (reported). */
int state_read_raw(const char *dir, const char *name, struct strbuf *out);
/* Removes dir/name if it is there: 0, or -1 (reported). */
int state_remove(const char *dir, const char *name);

/* "key <hex object id>". */
void state_kv_add_oid(struct strbuf *payload, const char *key, const git_oid *oid);

/*
 * The value of key as an object id, a number (decimal) or a size: 0 with
 * *out set, or -1 reported, naming the state by what ("queue state has
 * no 'tip'", "publish state: bad 'timeout' value"). When has is not
 * NULL, a missing key is not an error: 0 with *has 0 and *out untouched
 * (the caller's default stays); else *has is 1.
 */
int state_kv_get_oid(const struct strbuf *payload, const char *what, const char *key,
		     git_oid *out, int *has);
int state_kv_get_long(const struct strbuf *payload, const char *what, const char *key,
		      long *out, int *has);
int state_kv_get_size(const struct strbuf *payload, const char *what, const char *key,
		      size_t *out, int *has);

#endif
