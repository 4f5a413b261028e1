#include "state.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

int maint_lock_acquire(struct maint_lock *lk, git_repository *repo)
{
	return maint_lock_acquire_named(lk, repo, "git-maint.lock");
}

int maint_lock_acquire_named(struct maint_lock *lk, git_repository *repo, const char *name)
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
			return 1;
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
		return 0;
	}
	error("cannot lock '%s': it keeps being replaced", path);
fail:
	if (fd >= 0)
		close(fd);
	strbuf_release(&pid);
	free(path);
	return -1;
}

void maint_lock_release(struct maint_lock *lk)
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

int state_dir_exists(const char *dir)
{
	struct stat st;

	return !lstat(dir, &st);
}

int state_dir_create(const char *dir)
{
	char *parent = xstrdup(dir);
	char *slash = strrchr(parent, '/');
	int ret = 0;

	if (slash) {
		*slash = '\0';
		if (mkdir(parent, 0777) < 0 && errno != EEXIST) {
			ret = error_errno("cannot create directory '%s'", parent);
			goto out;
		}
	}
	if (mkdir(dir, 0700) < 0) {
		ret = error_errno("cannot create directory '%s'", dir);
		goto out;
	}
	if (slash)
		ret = fsync_dir(parent);
out:
	free(parent);
	return ret;
}

static int remove_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		if (errno == ENOENT)
			return 0;
		return error_errno("cannot open directory '%s'", dir);
	}
	while ((de = readdir(d))) {
		char *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = join_path(dir, de->d_name);
		if (!lstat(p, &st) && S_ISDIR(st.st_mode) && depth < 2)
			ret |= remove_tree(p, depth + 1);
		else if (unlink(p) < 0 && errno != ENOENT)
			ret = error_errno("cannot remove '%s'", p);
		free(p);
	}
	closedir(d);
	if (rmdir(dir) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove directory '%s'", dir);
	return ret ? -1 : 0;
}

int state_dir_remove(const char *dir)
{
	return remove_tree(dir, 0);
}

static int write_atomic(const char *dir, const char *name, const char *data, size_t len,
			const char *footer, size_t footer_len, const char *crash_label)
{
	char *path = join_path(dir, name);
	struct strbuf tmp = STRBUF_INIT;
	int fd, ret = -1;

	strbuf_addf(&tmp, "%s.tmp", path);
	unlink(tmp.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		error_errno("cannot create '%s'", tmp.buf);
		goto out;
	}
	if (write_in_full(fd, data, len) < 0 ||
	    (footer_len && write_in_full(fd, footer, footer_len) < 0)) {
		error_errno("cannot write '%s'", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (fsync(fd) < 0) {
		error_errno("cannot sync '%s'", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd) < 0) {
		error_errno("cannot write '%s'", tmp.buf);
		unlink(tmp.buf);
		goto out;
	}
	if (crash_label)
		crash_point(crash_label);
	if (rename(tmp.buf, path) < 0) {
		error_errno("cannot rename '%s' to '%s'", tmp.buf, path);
		unlink(tmp.buf);
		goto out;
	}
	ret = fsync_dir(dir);
out:
	strbuf_release(&tmp);
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

	if (strbuf_read_file(&sb, path, 0) < 0) {
		if (errno == ENOENT) {
			ret = 1;
			goto out;
		}
		error_errno("cannot read state file '%s'", path);
		goto out;
	}
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

void state_kv_add(struct strbuf *payload, const char *key, const char *value)
{
	if (strchr(value, '\n'))
		BUG("state value for '%s' holds a newline", key);
	strbuf_addf(payload, "%s %s\n", key, value);
}

void state_kv_addf(struct strbuf *payload, const char *key, const char *fmt, ...)
{
	struct strbuf v = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&v, fmt, ap);
	va_end(ap);
	state_kv_add(payload, key, v.buf);
	strbuf_release(&v);
}

char *state_kv_get(const struct strbuf *payload, const char *key)
{
	size_t klen = strlen(key);
	const char *p = payload->buf, *end = payload->buf + payload->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && !memcmp(p, key, klen) && p[klen] == ' ')
			return xstrndup(p + klen + 1, nl - p - klen - 1);
		p = nl + 1;
	}
	return NULL;
}
