/* SPDX-License-Identifier: GPL-2.0-only */
#include "state.h"
#include "repo.h"
#include "sha1.h"
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

/* ---- writing: a temporary file, synced and renamed into place ---- */

void state_writer_abandon(struct state_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->dfd >= 0 && w->tmp)
		unlinkat(w->dfd, w->tmp, 0);
	if (w->dfd >= 0)
		close(w->dfd);
	free(w->path);
	free(w->dir);
	free(w->tmp);
	free(w->name);
	*w = (struct state_writer)STATE_WRITER_INIT;
}

/* The blob id of a payload is our footer's hash: enough to tell a torn write. */
static void hash_begin(struct sha1 *h, size_t len)
{
	char hdr[48];
	int n = snprintf(hdr, sizeof(hdr), "blob %zu", len);

	sha1_start(h);
	sha1_update(h, hdr, (size_t)n + 1);
}

static void hash_end(struct sha1 *h, char hex[2 * SHA1_RAWSZ + 1])
{
	unsigned char raw[SHA1_RAWSZ];

	sha1_finish(h, raw);
	hex_encode(hex, raw, SHA1_RAWSZ);
}

/* footer: the payload will be len bytes and gets the footer; else a raw file. */
static int writer_begin(struct state_writer *w, const char *dir, const char *name, size_t len,
			int footer)
{
	*w = (struct state_writer)STATE_WRITER_INIT;
	w->path = join_path(dir, name);
	w->name = xstrdup(name);
	w->dir = xstrdup(dir);
	w->tmp = xstrdup(name);
	w->tmp = xrealloc(w->tmp, strlen(name) + sizeof(".tmp"));
	strcat(w->tmp, ".tmp");
	w->footer = footer;
	w->want = len;
	w->dfd = open_state_dir(dir);
	if (w->dfd < 0) {
		if (errno == ENOENT)
			error_errno("cannot open directory '%s'", dir);
		goto fail;
	}
	unlinkat(w->dfd, w->tmp, 0);
	w->fd = openat(w->dfd, w->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (w->fd < 0) {
		error_errno("cannot create '%s.tmp'", w->path);
		goto fail;
	}
	if (footer)
		hash_begin(&w->hash, len);
	return 0;
fail:
	state_writer_abandon(w);
	return -1;
}

int state_writer_begin(struct state_writer *w, const char *dir, const char *name, size_t len)
{
	return writer_begin(w, dir, name, len, 1);
}

int state_writer_add(struct state_writer *w, const void *buf, size_t len)
{
	if (w->fd < 0)
		return -1;
	if (w->footer && len > w->want - w->len) {
		error("'%s.tmp': more than the %zu bytes announced", w->path, w->want);
		state_writer_abandon(w);
		return -1;
	}
	if (w->footer)
		sha1_update(&w->hash, buf, len);
	if (write_in_full(w->fd, buf, len) < 0) {
		error_errno("cannot write '%s.tmp'", w->path);
		state_writer_abandon(w);
		return -1;
	}
	w->len += len;
	return 0;
}

/* The footer line of a payload of len bytes with hash hex. */
static void footer_line(struct strbuf *sb, size_t len, const char *hex)
{
	strbuf_addf(sb, "%s%zu %s\n", FOOTER, len, hex);
}

int state_writer_commit(struct state_writer *w, const char *crash_label, struct state_file *sf)
{
	struct strbuf footer = STRBUF_INIT;
	char hex[2 * SHA1_RAWSZ + 1];
	int ret = -1;

	if (w->fd < 0)
		return -1;
	if (w->footer) {
		if (w->len != w->want) {
			error("'%s.tmp': %zu bytes written, %zu announced", w->path, w->len, w->want);
			goto out;
		}
		hash_end(&w->hash, hex);
		footer_line(&footer, w->len, hex);
		if (write_in_full(w->fd, footer.buf, footer.len) < 0) {
			error_errno("cannot write '%s.tmp'", w->path);
			goto out;
		}
	}
	if (fsync(w->fd) < 0) {
		error_errno("cannot sync '%s.tmp'", w->path);
		goto out;
	}
	if (!sf) {
		int fd = w->fd;

		w->fd = -1;
		if (close(fd) < 0) {
			error_errno("cannot write '%s.tmp'", w->path);
			goto out;
		}
	}
	if (crash_label)
		crash_point(crash_label);
	if (renameat(w->dfd, w->tmp, w->dfd, w->name) < 0) {
		error_errno("cannot rename '%s.tmp' to '%s'", w->path, w->path);
		goto out;
	}
	free(w->tmp);
	w->tmp = NULL;	/* renamed: nothing to remove */
	if (fsync(w->dfd) < 0) {
		error_errno("cannot sync directory '%s'", w->dir);
		goto out;
	}
	if (sf) {
		/* The file just written and synced, still open: read as it is. */
		state_file_close(sf);
		sf->fd = w->fd;
		sf->len = w->len;
		sf->path = w->path;
		w->fd = -1;
		w->path = NULL;
	}
	ret = 0;
out:
	strbuf_release(&footer);
	state_writer_abandon(w);
	return ret;
}

static int write_atomic(const char *dir, const char *name, const char *data, size_t len,
			int footer, const char *crash_label)
{
	struct state_writer w;

	if (writer_begin(&w, dir, name, len, footer) < 0 || state_writer_add(&w, data, len) < 0)
		return -1;
	return state_writer_commit(&w, crash_label, NULL);
}

/* ---- reading ---- */

/*
 * Opens dir/name for reading: 0 with *fd and *size, 1 absent, -1 error
 * (reported; a link or anything but a regular file is refused).
 */
static int open_at(const char *dir, const char *name, const char *path, int *fd, size_t *size)
{
	struct stat st;
	int dfd, ret = -1;

	*fd = -1;
	dfd = open_state_dir(dir);
	if (dfd < 0)
		return errno == ENOENT ? 1 : -1;
	*fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT)
			ret = 1;
		else if (errno == ELOOP)
			error("state file '%s' is a symbolic link; not read", path);
		else
			error_errno("cannot read state file '%s'", path);
	} else if (fstat(*fd, &st) < 0) {
		error_errno("cannot read state file '%s'", path);
	} else if (!S_ISREG(st.st_mode)) {
		error("state file '%s' is not a regular file; not read", path);
	} else {
		*size = (size_t)st.st_size;
		ret = 0;
	}
	if (ret && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	close(dfd);
	return ret;
}

int state_read_raw(const char *dir, const char *name, struct strbuf *out)
{
	char *path = join_path(dir, name);
	size_t size;
	int fd, ret = open_at(dir, name, path, &fd, &size);

	if (!ret && strbuf_read_fd(out, fd, size) < 0)
		ret = error_errno("cannot read state file '%s'", path);
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
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

int state_write(const char *dir, const char *name, const struct strbuf *payload,
		const char *crash_label)
{
	return write_atomic(dir, name, payload->buf, payload->len, 1, crash_label);
}

int state_write_raw(const char *dir, const char *name, const char *data, size_t len)
{
	return write_atomic(dir, name, data, len, 0, NULL);
}

/*
 * The longest footer line (FOOTER, a 20-digit length, a blank, the hash,
 * a newline) and the newline before it.
 */
#define FOOTER_MAX (sizeof(FOOTER) + 20 + 1 + 2 * SHA1_RAWSZ + 1)

/*
 * The footer of sf->fd (size bytes): 0 with sf->len and the hash it
 * names in hex; 1 with *why when it is not a footer; -1 (errno) when
 * the file cannot be read.
 */
static int read_footer(struct state_file *sf, size_t size, char *hex, const char **why)
{
	char tail[FOOTER_MAX + 1];
	size_t n = size < FOOTER_MAX ? size : FOOTER_MAX, start, len;
	const char *p;
	char *end;

	*why = "truncated";
	if (!size) {
		*why = "empty";
		return 1;
	}
	if (pread_in_full(sf->fd, tail, n, (off_t)(size - n)) != (ssize_t)n)
		return -1;
	tail[n] = '\0';
	if (tail[n - 1] != '\n')
		return 1;
	/* The footer is the last line. */
	start = n - 1;
	while (start > 0 && tail[start - 1] != '\n')
		start--;
	if ((!start && n < size) || !skip_prefix(tail + start, FOOTER, &p))
		return 1;
	errno = 0;
	len = strtoull(p, &end, 10);
	if (errno || *end != ' ' || len != size - n + start) {
		*why = "length does not match";
		return 1;
	}
	if (strlen(end + 1) != 2 * SHA1_RAWSZ + 1) {
		*why = "checksum does not match";
		return 1;
	}
	memcpy(hex, end + 1, 2 * SHA1_RAWSZ);
	hex[2 * SHA1_RAWSZ] = '\0';
	sf->len = len;
	return 0;
}

/* Hashes the payload of sf in pieces: 0 with its hash in hex, or -1 (errno, or reported). */
static int hash_payload(const struct state_file *sf, char *hex)
{
	struct sha1 h;
	char buf[65536];
	size_t off = 0;

	hash_begin(&h, sf->len);
	while (off < sf->len) {
		size_t n = sf->len - off < sizeof(buf) ? sf->len - off : sizeof(buf);

		if (pread_in_full(sf->fd, buf, n, (off_t)off) != (ssize_t)n)
			return error_errno("cannot read state file '%s'", sf->path);
		sha1_update(&h, buf, n);
		off += n;
	}
	hash_end(&h, hex);
	return 0;
}

int state_file_open(struct state_file *sf, const char *dir, const char *name)
{
	char want[2 * SHA1_RAWSZ + 1], got[2 * SHA1_RAWSZ + 1];
	const char *why = NULL;
	size_t size;
	int ret;

	state_file_close(sf);
	sf->path = join_path(dir, name);
	ret = open_at(dir, name, sf->path, &sf->fd, &size);
	if (ret)
		goto out;
	ret = read_footer(sf, size, want, &why);
	if (ret < 0)
		error_errno("cannot read state file '%s'", sf->path);
	if (ret)
		goto bad;
	if (hash_payload(sf, got) < 0)
		goto bad;
	if (strcmp(want, got)) {
		why = "checksum does not match";
		goto bad;
	}
	return 0;
bad:
	if (why)
		error("state file '%s' is damaged (%s)", sf->path, why);
	ret = -1;
out:
	state_file_close(sf);
	return ret;
}

int state_file_read(const struct state_file *sf, size_t off, size_t len, struct strbuf *out)
{
	if (off > sf->len || len > sf->len - off)
		return error("state file '%s': %zu bytes at %zu are past its end", sf->path, len, off);
	strbuf_grow(out, len);
	if (pread_in_full(sf->fd, out->buf + out->len, len, (off_t)off) != (ssize_t)len)
		return error_errno("cannot read state file '%s'", sf->path);
	strbuf_setlen(out, out->len + len);
	return 0;
}

void state_file_close(struct state_file *sf)
{
	if (sf->fd >= 0)
		close(sf->fd);
	free(sf->path);
	*sf = (struct state_file)STATE_FILE_INIT;
}

int state_read(const char *dir, const char *name, struct strbuf *out)
{
	struct state_file sf = STATE_FILE_INIT;
	int ret = state_file_open(&sf, dir, name);

	if (!ret)
		ret = state_file_read(&sf, 0, sf.len, out);
	state_file_close(&sf);
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
