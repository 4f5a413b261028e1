/* SPDX-License-Identifier: GPL-2.0-only */
#include "state.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FOOTER "#maint-state "

static char *join_path(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, dir);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

/* The pid a lock file names, or 0. */
static long read_pid(int fd)
{
	char buf[64];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return 0;
	n = read_in_full(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

enum maint_result state_lock_acquire(struct state_lock *lk, git_repository *repo)
{
	return state_lock_acquire_named(lk, repo, "git-maint.lock");
}

enum maint_result state_lock_acquire_named(struct state_lock *lk, git_repository *repo,
					   const char *name)
{
	char *path = join_path(git_repository_commondir(repo), name);
	struct strbuf pid = STRBUF_INIT;
	int fd = -1, tries;

	for (tries = 0; tries < 5; tries++) {
		struct stat st_fd, st_path;
		long old;

		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0) {
			error_errno("cannot open lock file '%s'", path);
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK && errno != EINTR) {
				error_errno("cannot lock '%s'", path);
				goto fail;
			}
			old = read_pid(fd);
			if (old)
				error("another git-maint operation holds %s (pid %ld)", path, old);
			else
				error("another git-maint operation holds %s", path);
			close(fd);
			free(path);
			return RESULT_TEMPFAIL;
		}
		/* The holder before us may have removed the file while we waited for it. */
		if (fstat(fd, &st_fd) < 0 || stat(path, &st_path) < 0 ||
		    st_fd.st_ino != st_path.st_ino || st_fd.st_dev != st_path.st_dev) {
			close(fd);
			fd = -1;
			continue;
		}
		old = read_pid(fd);
		if (old && old != (long)getpid())
			warning("taking over '%s': the git-maint process that held it (pid %ld) is gone",
				path, old);
		strbuf_addf(&pid, "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
		    write_in_full(fd, pid.buf, pid.len) < 0) {
			error_errno("cannot write lock file '%s'", path);
			unlink(path);
			goto fail;
		}
		strbuf_release(&pid);
		lk->path = path;
		lk->fd = fd;
		return RESULT_OK;
	}
	error("cannot lock '%s': it keeps being replaced", path);
fail:
	if (fd >= 0)
		close(fd);
	strbuf_release(&pid);
	free(path);
	return RESULT_FATAL;
}

void state_lock_release(struct state_lock *lk)
{
	if (lk->fd < 0)
		return;
	/* Unlink while still locked, so no one takes a lock on a file about to vanish. */
	unlink(lk->path);
	close(lk->fd);
	lk->fd = -1;
	free(lk->path);
	lk->path = NULL;
}

int repo_index_locked(git_repository *repo)
{
	char *path = join_path(git_repository_path(repo), "index.lock");
	struct stat st;
	int ret = 0;

	if (!lstat(path, &st)) {
		error("'%s' exists: another git process seems to be running in this repository; "
		      "if not, remove the file", path);
		ret = 1;
	}
	free(path);
	return ret;
}

char *state_dir_path(git_repository *repo, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, git_repository_path(repo));
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addf(&sb, "maint/%s", name);
	return strbuf_detach(&sb, NULL);
}

/*
 * The state directory and its files are input like mail: a symbolic
 * link at $GIT_DIR/maint, at the state directory or at one of its files
 * would make us read, write or delete elsewhere. So the directory is
 * opened without following links (O_NOFOLLOW on both levels), and every
 * file is opened, renamed and removed relative to it, O_NOFOLLOW.
 */

/* Splits dir into its parent (a new string) and its last component. */
static char *split_dir(const char *dir, const char **base)
{
	const char *slash = strrchr(dir, '/');

	if (!slash) {
		*base = dir;
		return xstrdup(".");
	}
	*base = slash + 1;
	return slash == dir ? xstrdup("/") : xstrndup(dir, slash - dir);
}

static int not_a_directory(const char *path)
{
	return error("'%s' is not a directory (a symbolic link?); git-maint does not use it", path);
}

/*
 * Opens $GIT_DIR/maint (dir's parent) without following a link there:
 * the fd, or -1 with errno (ENOENT: absent; reported unless so).
 */
static int open_parent(const char *dir, const char **base)
{
	char *parent = split_dir(dir, base);
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno != ENOENT) {
		int saved = errno;

		if (errno == ELOOP || errno == ENOTDIR)
			not_a_directory(parent);
		else
			error_errno("cannot open directory '%s'", parent);
		errno = saved;
	}
	free(parent);
	return fd;
}

/* Opens the state directory dir itself, as above: fd, or -1 (reported unless ENOENT). */
static int open_state_dir(const char *dir)
{
	const char *base;
	int pfd = open_parent(dir, &base), fd, saved;

	if (pfd < 0)
		return -1;
	fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	saved = errno;
	close(pfd);
	if (fd < 0 && saved != ENOENT) {
		if (saved == ELOOP || saved == ENOTDIR)
			not_a_directory(dir);
		else
			error_errno("cannot open directory '%s'", dir);
	}
	errno = saved;
	return fd;
}

int state_dir_exists(const char *dir)
{
	const char *base;
	char *parent = split_dir(dir, &base);
	struct stat st;
	int ret;

	if (lstat(parent, &st) < 0)
		ret = errno == ENOENT ? 0 : -1;
	else if (!S_ISDIR(st.st_mode))
		ret = -1;
	else if (lstat(dir, &st) < 0)
		ret = errno == ENOENT ? 0 : -1;
	else
		ret = S_ISDIR(st.st_mode) ? 1 : -1;
	free(parent);
	return ret;
}

int state_dir_create(const char *dir)
{
	const char *base;
	char *parent = split_dir(dir, &base);
	int pfd, ret = -1;

	if (mkdir(parent, 0777) < 0 && errno != EEXIST) {
		error_errno("cannot create directory '%s'", parent);
		goto out;
	}
	pfd = open_parent(dir, &base);
	if (pfd < 0) {
		if (errno == ENOENT)
			error_errno("cannot open directory '%s'", parent);
		goto out;
	}
	if (mkdirat(pfd, base, 0700) < 0)
		error_errno("cannot create directory '%s'", dir);
	else if (fsync(pfd) < 0)
		error_errno("cannot sync directory '%s'", parent);
	else
		ret = 0;
	close(pfd);
out:
	free(parent);
	return ret;
}

/* Removes name in directory dfd (path: for messages), one level of subdirectories deep. */
static int remove_at(int dfd, const char *name, const char *path, int depth)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot look at '%s'", path);
	if (!S_ISDIR(st.st_mode) || depth > 1) {
		/* A link is removed, never followed. */
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot open directory '%s'", path);
	}
	while ((de = readdir(d))) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = join_path(path, de->d_name);
		ret |= remove_at(dirfd(d), de->d_name, p, depth + 1);
		free(p);
	}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove directory '%s'", path);
	return ret ? -1 : 0;
}

int state_dir_remove(const char *dir)
{
	const char *base;
	int pfd = open_parent(dir, &base), ret;

	if (pfd < 0)
		return errno == ENOENT ? 0 : -1;
	ret = remove_at(pfd, base, dir, 0);
	close(pfd);
	return ret;
}

static int write_atomic(const char *dir, const char *name, const char *data, size_t len,
			const char *footer, size_t footer_len, const char *crash_label)
{
	char *path = join_path(dir, name);
	struct strbuf tmp = STRBUF_INIT;
	int dfd, fd = -1, ret = -1;

	strbuf_addf(&tmp, "%s.tmp", name);
	dfd = open_state_dir(dir);
	if (dfd < 0) {
		if (errno == ENOENT)
			error_errno("cannot open directory '%s'", dir);
		goto out;
	}
	unlinkat(dfd, tmp.buf, 0);
	fd = openat(dfd, tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		error_errno("cannot create '%s.tmp'", path);
		goto out;
	}
	if (write_in_full(fd, data, len) < 0 ||
	    (footer_len && write_in_full(fd, footer, footer_len) < 0)) {
		error_errno("cannot write '%s.tmp'", path);
		goto fail;
	}
	if (fsync(fd) < 0) {
		error_errno("cannot sync '%s.tmp'", path);
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		error_errno("cannot write '%s.tmp'", path);
		goto fail;
	}
	fd = -1;
	if (crash_label)
		crash_point(crash_label);
	if (renameat(dfd, tmp.buf, dfd, name) < 0) {
		error_errno("cannot rename '%s.tmp' to '%s'", path, path);
		goto fail;
	}
	if (fsync(dfd) < 0) {
		error_errno("cannot sync directory '%s'", dir);
		goto out;
	}
	ret = 0;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlinkat(dfd, tmp.buf, 0);
out:
	if (dfd >= 0)
		close(dfd);
	strbuf_release(&tmp);
	free(path);
	return ret;
}

/*
 * Reads dir/name into sb: 0 ok, 1 absent, -1 error (reported; a link or
 * anything but a regular file is refused).
 */
static int read_at(const char *dir, const char *name, struct strbuf *sb)
{
	char *path = join_path(dir, name);
	struct stat st;
	int dfd, fd = -1, ret = -1;

	dfd = open_state_dir(dir);
	if (dfd < 0) {
		if (errno == ENOENT)
			ret = 1;
		goto out;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			ret = 1;
		else if (errno == ELOOP)
			error("state file '%s' is a symbolic link; not read", path);
		else
			error_errno("cannot read state file '%s'", path);
		goto out;
	}
	if (fstat(fd, &st) < 0)
		error_errno("cannot read state file '%s'", path);
	else if (!S_ISREG(st.st_mode))
		error("state file '%s' is not a regular file; not read", path);
	else if (strbuf_read_fd(sb, fd, (size_t)st.st_size) < 0)
		error_errno("cannot read state file '%s'", path);
	else
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	free(path);
	return ret;
}

int state_read_raw(const char *dir, const char *name, struct strbuf *out)
{
	return read_at(dir, name, out);
}

int state_remove(const char *dir, const char *name)
{
	char *path = join_path(dir, name);
	int dfd = open_state_dir(dir), ret = 0;

	if (dfd < 0)
		ret = errno == ENOENT ? 0 : -1;
	else if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove '%s'", path);
	if (dfd >= 0)
		close(dfd);
	free(path);
	return ret;
}

static void payload_hash(char *hex, const char *data, size_t len)
{
	git_oid oid;

	/* The blob id is a SHA-1 of the payload: enough to tell a torn write. */
	if (git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB) < 0)
		memset(&oid, 0, sizeof(oid));
	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &oid);
}

int state_write(const char *dir, const char *name, const struct strbuf *payload,
		const char *crash_label)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf footer = STRBUF_INIT;
	int ret;

	payload_hash(hex, payload->buf, payload->len);
	strbuf_addf(&footer, "%s%zu %s\n", FOOTER, payload->len, hex);
	ret = write_atomic(dir, name, payload->buf, payload->len, footer.buf, footer.len,
			   crash_label);
	strbuf_release(&footer);
	return ret;
}

int state_write_raw(const char *dir, const char *name, const char *data, size_t len)
{
	return write_atomic(dir, name, data, len, NULL, 0, NULL);
}

int state_read(const char *dir, const char *name, struct strbuf *out)
{
	char *path = join_path(dir, name);
	struct strbuf sb = STRBUF_INIT;
	const char *why = NULL, *p;
	char hex[GIT_OID_HEXSZ + 1];
	size_t start, len;
	char *end;
	int ret = -1;

	ret = read_at(dir, name, &sb);
	if (ret)
		goto out;
	ret = -1;
	/* The footer is the last line. */
	if (!sb.len || sb.buf[sb.len - 1] != '\n') {
		why = sb.len ? "truncated" : "empty";
		goto bad;
	}
	start = sb.len - 1;
	while (start > 0 && sb.buf[start - 1] != '\n')
		start--;
	if (!skip_prefix(sb.buf + start, FOOTER, &p)) {
		why = "truncated";
		goto bad;
	}
	errno = 0;
	len = strtoull(p, &end, 10);
	if (errno || *end != ' ' || len != start) {
		why = "length does not match";
		goto bad;
	}
	payload_hash(hex, sb.buf, start);
	if (strncmp(end + 1, hex, GIT_OID_HEXSZ) || end[1 + GIT_OID_HEXSZ] != '\n') {
		why = "checksum does not match";
		goto bad;
	}
	strbuf_add(out, sb.buf, start);
	ret = 0;
	goto out;
bad:
	error("state file '%s' is damaged (%s)", path, why);
out:
	strbuf_release(&sb);
	free(path);
	return ret;
}

void state_kv_add_oid(struct strbuf *payload, const char *key, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	state_kv_add(payload, key, git_oid_tostr(hex, sizeof(hex), oid));
}

/*
 * The value of key for a typed getter: 0 with *v set (caller frees),
 * 1 when missing and has allows it, -1 reported.
 */
static int kv_value(const struct strbuf *payload, const char *what, const char *key, int *has,
		    char **v)
{
	*v = state_kv_get(payload, key);
	if (has)
		*has = *v != NULL;
	if (*v)
		return 0;
	return has ? 1 : error("%s state has no '%s'", what, key);
}

static int bad_value(const char *what, const char *key, char *v)
{
	free(v);
	return error("%s state: bad '%s' value", what, key);
}

int state_kv_get_oid(const struct strbuf *payload, const char *what, const char *key,
		     git_oid *out, int *has)
{
	char *v;
	int rc = kv_value(payload, what, key, has, &v);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (git_oid_fromstr(out, v) < 0)
		return bad_value(what, key, v);
	free(v);
	return 0;
}

int state_kv_get_long(const struct strbuf *payload, const char *what, const char *key,
		      long *out, int *has)
{
	char *v, *end;
	int rc = kv_value(payload, what, key, has, &v);
	long n;

	if (rc)
		return rc < 0 ? -1 : 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end)
		return bad_value(what, key, v);
	free(v);
	*out = n;
	return 0;
}

int state_kv_get_size(const struct strbuf *payload, const char *what, const char *key,
		      size_t *out, int *has)
{
	char *v, *end;
	int rc = kv_value(payload, what, key, has, &v);
	unsigned long long n;

	if (rc)
		return rc < 0 ? -1 : 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n > SIZE_MAX)
		return bad_value(what, key, v);
	free(v);
	*out = (size_t)n;
	return 0;
}
