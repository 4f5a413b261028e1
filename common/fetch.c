/*
 * Remote mail, fetched once per run (see fetch.h).
 */
#include "fetch.h"
#include "archive.h"
#include "config.h"
#include "sha1.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What this run fetched, by argument. */
static struct {
	struct fetch_opts opts;
	struct fetched_input **v;
	size_t nr, alloc;
} table = { FETCH_OPTS_INIT, NULL, 0, 0 };

enum fetch_kind fetch_arg_kind(const char *arg)
{
	if (starts_with(arg, "imaps://") || starts_with(arg, "imap://"))
		return FETCH_IMAP;
	if (archive_arg_looks_like(arg))
		return FETCH_ARCHIVE;
	return FETCH_LOCAL;
}

void fetched_input_add(struct fetched_input *in, size_t off, size_t len)
{
	ALLOC_GROW(in->spans, in->nr + 1, in->alloc);
	in->spans[in->nr].off = off;
	in->spans[in->nr].len = len;
	in->nr++;
}

static void fetched_input_free(struct fetched_input *in)
{
	if (!in)
		return;
	if (in->data)
		munmap((void *)in->data, in->len);
	free(in->spans);
	free(in->arg);
	free(in);
}

/* Maps the whole of fd into in, and closes it. */
static int map_fd(struct fetched_input *in, int fd)
{
	struct stat st;
	void *m;

	if (fstat(fd, &st) < 0) {
		close(fd);
		return error_errno("cannot read what was fetched for '%s'", in->arg);
	}
	if (st.st_size > 0) {
		m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			close(fd);
			return error_errno("cannot map what was fetched for '%s'", in->arg);
		}
		in->data = m;
		in->len = st.st_size;
	}
	close(fd);
	return 0;
}

/* ---- configuration ---- */

struct fetch_config {
	struct maint_config cfg;
	const char *archive_url, *cainfo;
	long timeout, expire;
	size_t max_size, max_message_size;
};

/* A number from the INI files (checked to be one when read), or def. */
static long config_number(const struct maint_config *cfg, const char *section, const char *key,
			  long def)
{
	const char *v = config_get(cfg, section, NULL, key);

	return v ? strtol(v, NULL, 10) : def;
}

static int load_config(struct fetch_config *fc)
{
	long n;

	if (config_load_ini(&fc->cfg) < 0)
		return -1;
	fc->archive_url = config_get(&fc->cfg, "archive", NULL, "url");
	fc->cainfo = config_get(&fc->cfg, "archive", NULL, "cainfo");
	fc->timeout = config_number(&fc->cfg, "archive", "timeout", 0);
	fc->expire = config_number(&fc->cfg, "archive", "cache-expire", FETCH_CACHE_EXPIRE_DEFAULT);
	n = config_number(&fc->cfg, "archive", "max-size", -1);
	fc->max_size = n < 0 ? ARCHIVE_MAX_SIZE_DEFAULT : n ? (size_t)n : (size_t)-1;
	n = config_number(&fc->cfg, "mbox", "max-message-size", -1);
	fc->max_message_size = n < 0 ? 0 : n ? (size_t)n : (size_t)-1;
	return 0;
}

/* ---- the cache: $GIT_COMMON_DIR/maint/cache/archive/<name> ---- */

struct cache {
	int dfd;		/* the directory, or -1 */
	char *name;		/* the thread's file */
	char *tmp;		/* the temporary file while it is written, or NULL */
};

#define CACHE_NOT_YET 1
#define CACHE_NO_REPOSITORY 2

/*
 * Opens the cache directory (creating it when create), never through a
 * symbolic link: 0 and c->dfd; CACHE_NOT_YET (not created yet);
 * CACHE_NO_REPOSITORY (outside a repository, nowhere to cache); -1
 * (reported) when it cannot be used.
 */
static int cache_open_dir(struct cache *c, int create)
{
	static const char *const parts[] = { "maint", "cache", "archive" };
	struct strbuf gitdir = STRBUF_INIT;
	int fd;

	if (config_find_gitdir(&gitdir) < 0) {
		strbuf_release(&gitdir);
		return CACHE_NO_REPOSITORY;
	}
	fd = open(gitdir.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int ret = error_errno("cannot open '%s'", gitdir.buf);
		strbuf_release(&gitdir);
		return ret;
	}
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		int next;

		if (create && mkdirat(fd, parts[i], 0700) < 0 && errno != EEXIST) {
			error_errno("cannot create '%s/%s'", gitdir.buf, parts[i]);
			close(fd);
			strbuf_release(&gitdir);
			return -1;
		}
		next = openat(fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		strbuf_addf(&gitdir, "/%s", parts[i]);
		close(fd);
		if (next < 0) {
			int ret = errno == ENOENT && !create ? CACHE_NOT_YET :
				error_errno("cannot use '%s' as a cache directory", gitdir.buf);
			strbuf_release(&gitdir);
			return ret;
		}
		fd = next;
	}
	strbuf_release(&gitdir);
	c->dfd = fd;
	return 0;
}

/*
 * The file name for a thread: a readable part of the Message-ID (only
 * [A-Za-z0-9._@+-], never first a '.') and the SHA-1 of the thread's
 * URL, which alone tells threads apart.
 */
static int cache_name(struct cache *c, const struct archive_ref *ref)
{
	struct sha1 h = SHA1_INIT;
	unsigned char digest[SHA1_RAWSZ];
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (const char *p = ref->msgid; *p && sb.len < 40; p++) {
		int ch = (unsigned char)*p;
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || strchr("._@+-", ch);

		strbuf_addch(&sb, !ok || (!sb.len && ch == '.') ? '_' : ch);
	}
	if (sha1_start(&h) < 0 || sha1_update(&h, ref->thread_url, strlen(ref->thread_url)) < 0 ||
	    sha1_finish(&h, digest) < 0) {
		ret = -1;
	} else {
		strbuf_addch(&sb, '-');
		for (size_t i = 0; i < SHA1_RAWSZ; i++)
			strbuf_addf(&sb, "%02x", digest[i]);
		strbuf_addstr(&sb, ".mbox");
		c->name = strbuf_detach(&sb, NULL);
	}
	sha1_release(&h);
	strbuf_release(&sb);
	return ret;
}

static void cache_release(struct cache *c)
{
	if (c->tmp && c->dfd >= 0)
		unlinkat(c->dfd, c->tmp, 0);
	if (c->dfd >= 0)
		close(c->dfd);
	free(c->name);
	free(c->tmp);
	c->dfd = -1;
	c->name = c->tmp = NULL;
}

/* Moves the temporary file into place, for good: fsync, rename, fsync of the directory. */
static int cache_commit(struct cache *c, int fd)
{
	if (fsync(fd) < 0 || renameat(c->dfd, c->tmp, c->dfd, c->name) < 0 || fsync(c->dfd) < 0)
		return error_errno("cannot write '%s' into the cache", c->name);
	free(c->tmp);
	c->tmp = NULL;
	return 0;
}

/* ---- an archive thread ---- */

struct thread_out {
	struct cache *cache;	/* NULL: not cached */
	const char *arg;
};

/* A file for the thread as it arrives: in the cache, else an unnamed temporary file. */
static int thread_open_out(void *data)
{
	struct thread_out *o = data;
	struct cache *c = o->cache;
	struct strbuf sb = STRBUF_INIT;
	const char *tmpdir;
	int fd;

	if (c && c->dfd < 0 && cache_open_dir(c, 1))
		return -1;	/* it was there, or could be, when the fetch began */
	if (c) {
		for (int tries = 0; tries < 2; tries++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, ".tmp-%ld-%s", (long)getpid(), c->name);
			fd = openat(c->dfd, sb.buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd >= 0 || errno != EEXIST)
				break;
			unlinkat(c->dfd, sb.buf, 0);	/* left by a run killed under our pid */
		}
		if (fd < 0) {
			error_errno("cannot write '%s' into the cache", sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		c->tmp = strbuf_detach(&sb, NULL);
		return fd;
	}
	tmpdir = getenv("TMPDIR");
	strbuf_addf(&sb, "%s/git-maint-thread-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkostemp(sb.buf, O_CLOEXEC);
	if (fd < 0)
		error_errno("cannot create a temporary file for '%s'", o->arg);
	else
		unlink(sb.buf);	/* the descriptor is all we need */
	strbuf_release(&sb);
	return fd;
}

/*
 * The cached copy of the thread: 0 with *fd (and *fresh when it is
 * younger than the expiry), 1 when there is none, -1 on error.
 */
static int cache_lookup(struct cache *c, long expire, int *fd, int *fresh, time_t *when)
{
	struct stat st;
	time_t now = time(NULL);

	*fd = openat(c->dfd, c->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? 1 : error_errno("cannot read '%s' from the cache", c->name);
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		return error("cannot read '%s' from the cache: not a file", c->name);
	}
	*when = st.st_mtime;
	*fresh = st.st_mtime <= now && now - st.st_mtime < expire * 60;
	return 0;
}

static void warn_stale(const char *arg, time_t when)
{
	char date[64];
	struct tm tm;

	if (!localtime_r(&when, &tm) || !strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm))
		strcpy(date, "earlier");
	warning("'%s': using the copy of the thread fetched %s", arg, date);
}

static int fetch_archive(struct fetched_input *in, const struct fetch_opts *o)
{
	struct fetch_config fc = { MAINT_CONFIG_INIT };
	struct archive_ref ref = ARCHIVE_REF_INIT;
	struct archive_fetch_opts ao = { NULL };
	struct archive_pick_opts po = { in->arg };
	struct cache c = { -1, NULL, NULL };
	struct thread_out out = { NULL, in->arg };
	int fd = -1, stale = -1, fresh = 0, ret = RESULT_FATAL, rc;
	time_t when = 0;

	if (load_config(&fc) < 0 || archive_ref_parse(&ref, in->arg, fc.archive_url) < 0)
		goto out;
	if (o->cache) {
		if (cache_name(&c, &ref) < 0 || (rc = cache_open_dir(&c, 0)) < 0)
			goto out;
		if (!rc && cache_lookup(&c, fc.expire, &fd, &fresh, &when) < 0)
			goto out;
		if (fd >= 0 && (o->refresh || !fresh)) {
			stale = o->refresh ? (close(fd), -1) : fd;
			fd = -1;
		}
		if (rc != CACHE_NO_REPOSITORY)
			out.cache = &c;
	}
	if (fd < 0) {
		ao.cainfo = fc.cainfo;
		ao.timeout = fc.timeout;
		ao.max_size = fc.max_size;
		ao.quiet = o->quiet;
		rc = archive_fetch_thread(&ref, &ao, thread_open_out, &out, &fd);
		if (rc == RESULT_OK && out.cache && cache_commit(&c, fd) < 0)
			rc = RESULT_FATAL;
		if (rc != RESULT_OK) {
			if (fd >= 0)
				close(fd);
			fd = -1;
			if (rc != RESULT_TEMPFAIL || stale < 0) {
				ret = rc;
				goto out;
			}
			warn_stale(in->arg, when);
			fd = stale;
			stale = -1;
		}
	}
	rc = map_fd(in, fd);
	fd = -1;
	if (rc < 0)
		goto out;
	in->source_flags = SOURCE_MBOXRD;
	po.version = o->series_version;
	po.all_versions = o->all_versions;
	po.max_message_size = fc.max_message_size;
	ret = archive_pick(&ref, in->data, in->len, &po, in);
out:
	if (fd >= 0)
		close(fd);
	if (stale >= 0)
		close(stale);
	cache_release(&c);
	archive_ref_release(&ref);
	config_release(&fc.cfg);
	return ret;
}

/* ---- the table ---- */

static struct fetched_input *lookup(const char *arg)
{
	for (size_t i = 0; i < table.nr; i++)
		if (!strcmp(table.v[i]->arg, arg))
			return table.v[i];
	return NULL;
}

/* Fetches arg into the table: RESULT_OK, RESULT_TEMPFAIL or RESULT_FATAL (reported). */
static int fetch_one(const char *arg, struct fetched_input **out)
{
	struct fetched_input *in = xcalloc(1, sizeof(*in));
	int rc;

	in->arg = xstrdup(arg);
	switch (fetch_arg_kind(arg)) {
	case FETCH_ARCHIVE:
		rc = fetch_archive(in, &table.opts);
		break;
	case FETCH_IMAP:
		rc = error("'%s': reading IMAP folders is not supported yet", arg);
		break;
	default:
		BUG("fetch_one() on a local argument");
	}
	if (rc != RESULT_OK) {
		fetched_input_free(in);
		return rc < 0 ? RESULT_FATAL : rc;
	}
	ALLOC_GROW(table.v, table.nr + 1, table.alloc);
	table.v[table.nr++] = in;
	*out = in;
	return RESULT_OK;
}

/* Is arg read from this machine: "-", a path that exists, or nothing we fetch? */
static int is_local(const char *arg)
{
	struct stat st;

	return !strcmp(arg, "-") || fetch_arg_kind(arg) == FETCH_LOCAL || !stat(arg, &st);
}

int fetch_prepare(const char *const *args, size_t nargs, const struct fetch_opts *opts)
{
	int worst = RESULT_OK;

	table.opts = *opts;
	for (size_t i = 0; i < nargs; i++) {
		struct fetched_input *in;
		int rc;

		if (is_local(args[i]) || lookup(args[i]))
			continue;
		rc = fetch_one(args[i], &in);
		if (rc == RESULT_FATAL || (rc == RESULT_TEMPFAIL && worst == RESULT_OK))
			worst = rc;
	}
	return worst;
}

int fetch_get(const char *arg, const struct fetched_input **out)
{
	struct fetched_input *in = lookup(arg);

	if (!in && fetch_one(arg, &in) != RESULT_OK)
		return -1;
	*out = in;
	return 0;
}

void fetch_release(void)
{
	for (size_t i = 0; i < table.nr; i++)
		fetched_input_free(table.v[i]);
	free(table.v);
	table.v = NULL;
	table.nr = table.alloc = 0;
}
