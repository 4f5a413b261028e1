/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What git-maint-source--fetch does for one argument (see fetch-remote.h):
 * the cache of archive threads, and the fetchers.
 */
#include "fetch-remote.h"
#include "archive.h"
#include "ascii.h"
#include "config.h"
#include "gitdir.h"
#include "imap.h"
#include "quote.h"
#include "credential.h"
#include "sha1.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- configuration ---- */

struct fetch_config {
	struct maint_config cfg;
	const char *archive_url, *cainfo;
	char *midmask_url;	/* archive_url from b4.midmask */
	long timeout, max_time, expire;
	const char *imap_cainfo;
	long imap_timeout;
	size_t max_size, max_message_size;
	uint64_t cache_max_size;	/* (uint64_t)-1: no bound */
};

/* A number from the INI files (checked to be one when read), or def. */
static long config_number(const struct maint_config *cfg, const char *section, const char *key,
			  long def)
{
	const char *v = config_get(cfg, section, NULL, key);

	return v ? strtol(v, NULL, 10) : def;
}

/*
 * archive.url, else b4's midmask when it ends in "%s": b4 fetches
 * <midmask with the Message-ID>/t.mbox.gz as we fetch
 * <archive.url><Message-ID>/t.mbox.gz. b4's own default (lore's /all/)
 * is not taken: with neither set, a bare Message-ID stays an error.
 */
static const char *archive_url(struct fetch_config *fc)
{
	const char *url = config_get(&fc->cfg, "archive", NULL, "url");
	char *mask;

	if (url)
		return url;
	mask = config_git_string(&fc->cfg, "b4.midmask");
	if (mask && ends_with(mask, "%s") && !strstr(mask, "%s")[2])
		fc->midmask_url = xstrndup(mask, strlen(mask) - 2);
	free(mask);
	return fc->midmask_url;
}

static void fetch_config_release(struct fetch_config *fc)
{
	config_release(&fc->cfg);
	free(fc->midmask_url);
}

static int load_config(struct fetch_config *fc)
{
	long n;

	if (config_load_files(&fc->cfg) < 0)
		return -1;
	fc->archive_url = archive_url(fc);
	fc->cainfo = config_get(&fc->cfg, "archive", NULL, "cainfo");
	fc->timeout = config_number(&fc->cfg, "archive", "timeout", 0);
	fc->max_time = config_number(&fc->cfg, "archive", "max-time", 0);
	fc->imap_cainfo = config_get(&fc->cfg, "imap", NULL, "cainfo");
	fc->imap_timeout = config_number(&fc->cfg, "imap", "timeout", 0);
	fc->expire = config_number(&fc->cfg, "archive", "cache-expire", FETCH_CACHE_EXPIRE_DEFAULT);
	n = config_number(&fc->cfg, "archive", "max-size", -1);
	fc->max_size = n < 0 ? ARCHIVE_MAX_SIZE_DEFAULT : n ? (size_t)n : (size_t)-1;
	n = config_number(&fc->cfg, "archive", "cache-max-size", -1);
	fc->cache_max_size = n < 0 ? FETCH_CACHE_MAX_SIZE_DEFAULT : n ? (uint64_t)n : (uint64_t)-1;
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

	if (gitdir_discover_common(&gitdir)) {
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
static void cache_name(struct cache *c, const struct archive_ref *ref)
{
	unsigned char digest[SHA1_RAWSZ];
	char hex[2 * SHA1_RAWSZ + 1];
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = ref->msgid; *p && sb.len < 40; p++) {
		int ch = (unsigned char)*p;
		int ok = ascii_isalnum(ch) || strchr("._@+-", ch);

		strbuf_addch(&sb, !ok || (!sb.len && ch == '.') ? '_' : ch);
	}
	sha1_buf(digest, ref->thread_url, strlen(ref->thread_url));
	strbuf_addf(&sb, "-%s.mbox", hex_encode(hex, digest, SHA1_RAWSZ));
	c->name = strbuf_detach(&sb, NULL);
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

/* A file of the cache, for pruning. */
struct cache_entry {
	char *name;
	time_t mtime;
	uint64_t size;
};

static int entry_older(const void *a, const void *b)
{
	const struct cache_entry *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Removes the oldest threads (by when they were fetched) until the
 * cache holds at most max bytes; the thread just written (c->name) is
 * kept whatever its size, and so are other runs' temporary files. A
 * file that cannot be removed is skipped: the cache is only a cache.
 */
static void cache_prune(struct cache *c, uint64_t max)
{
	struct cache_entry *v = NULL;
	size_t nr = 0, alloc = 0;
	uint64_t total = 0;
	struct dirent *de;
	DIR *dir;
	int dfd;

	if (max == (uint64_t)-1 || (dfd = dup(c->dfd)) < 0)
		return;
	dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return;
	}
	while ((de = readdir(dir))) {
		struct stat st;

		if (de->d_name[0] == '.' ||
		    fstatat(c->dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		total += st.st_size;
		if (!strcmp(de->d_name, c->name))
			continue;
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr].name = xstrdup(de->d_name);
		v[nr].mtime = st.st_mtime;
		v[nr++].size = st.st_size;
	}
	closedir(dir);
	if (total > max && nr)
		qsort(v, nr, sizeof(*v), entry_older);
	for (size_t i = 0; i < nr; i++) {
		if (total > max && !unlinkat(c->dfd, v[i].name, 0))
			total -= v[i].size;
		free(v[i].name);
	}
	free(v);
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
	if (fd < 0) {
		strbuf_reset(&sb);
		error_errno("cannot create a temporary file for '%s'", quote_url(&sb, o->arg));
	} else {
		unlink(sb.buf);	/* the descriptor is all we need */
	}
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
	struct strbuf shown = STRBUF_INIT;

	if (!localtime_r(&when, &tm) || !strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm))
		strcpy(date, "earlier");
	warning("'%s': using the copy of the thread fetched %s", quote_url(&shown, arg), date);
	strbuf_release(&shown);
}

/* One line of the manifest (common/mail/fetch.h) for s, at off in the output file. */
static void add_span(struct strbuf *manifest, const struct fetched_span *s, size_t off)
{
	if (s->skipped_limit)
		strbuf_addf(manifest, "skipped %zu %zu\n", s->len, s->skipped_limit);
	else
		strbuf_addf(manifest, "%zu %zu\n", off, s->len);
}

/* Lists the spans of in (already in the output file) in manifest. */
static void list_spans(const struct fetched_input *in, struct strbuf *manifest)
{
	if (in->mboxrd)
		strbuf_addstr(manifest, "mboxrd\n");
	for (size_t i = 0; i < in->nr; i++)
		add_span(manifest, &in->spans[i], in->spans[i].off);
}

/* Copies the spans of in to out_fd, one after another, and lists them in manifest. */
static int write_spans(const struct fetched_input *in, int out_fd, struct strbuf *manifest)
{
	size_t at = 0;

	if (in->mboxrd)
		strbuf_addstr(manifest, "mboxrd\n");
	for (size_t i = 0; i < in->nr; i++) {
		const struct fetched_span *s = &in->spans[i];

		add_span(manifest, s, at);
		if (s->skipped_limit)
			continue;
		if (write_in_full(out_fd, in->data + s->off, s->len) < 0) {
			struct strbuf shown = STRBUF_INIT;

			error_errno("cannot write the mail of '%s'", quote_url(&shown, in->arg));
			strbuf_release(&shown);
			return -1;
		}
		at += s->len;
	}
	return 0;
}

static enum maint_result fetch_archive(struct fetched_input *in, const struct fetch_opts *o,
				       int out_fd, struct strbuf *manifest)
{
	struct fetch_config fc = { MAINT_CONFIG_INIT };
	struct archive_ref ref = ARCHIVE_REF_INIT;
	struct archive_fetch_opts ao = { NULL };
	struct archive_pick_opts po = { in->arg };
	struct cache c = { -1, NULL, NULL };
	struct thread_out out = { NULL, in->arg };
	enum maint_result ret = RESULT_FATAL, got;
	int fd = -1, stale = -1, fresh = 0, rc;
	time_t when = 0;

	if (load_config(&fc) < 0 || archive_ref_parse(&ref, in->arg, fc.archive_url) < 0)
		goto out;
	if (o->cache) {
		cache_name(&c, &ref);
		if ((rc = cache_open_dir(&c, 0)) < 0)
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
		ao.max_time = fc.max_time;
		ao.max_size = fc.max_size;
		ao.quiet = o->quiet;
		ao.cfg = &fc.cfg;
		got = archive_fetch_thread(&ref, &ao, thread_open_out, &out, &fd);
		if (got == RESULT_OK && out.cache && cache_commit(&c, fd) < 0)
			got = RESULT_FATAL;
		if (got == RESULT_OK && out.cache)
			cache_prune(&c, fc.cache_max_size);
		if (got != RESULT_OK) {
			if (fd >= 0)
				close(fd);
			fd = -1;
			if (got != RESULT_TEMPFAIL || stale < 0) {
				ret = got;
				goto out;
			}
			warn_stale(in->arg, when);
			fd = stale;
			stale = -1;
		}
	}
	rc = fetched_input_map(in, fd);
	fd = -1;
	if (rc < 0)
		goto out;
	in->mboxrd = 1;
	po.version = o->series_version;
	po.all_versions = o->all_versions;
	po.max_message_size = fc.max_message_size;
	ret = archive_pick(&ref, in->data, in->len, &po, in);
	if (ret == RESULT_OK && write_spans(in, out_fd, manifest) < 0)
		ret = RESULT_FATAL;
out:
	if (fd >= 0)
		close(fd);
	if (stale >= 0)
		close(stale);
	fetched_input_unmap(in);
	cache_release(&c);
	archive_ref_release(&ref);
	fetch_config_release(&fc);
	return ret;
}

/* ---- an IMAP folder ---- */

static enum maint_result fetch_imap(struct fetched_input *in, const struct fetch_opts *o,
				    int out_fd, struct strbuf *manifest)
{
	struct fetch_config fc = { MAINT_CONFIG_INIT };
	struct imap_url u = IMAP_URL_INIT;
	struct imap_opts io = { NULL };
	struct credential cred = CREDENTIAL_INIT;
	struct strbuf shown = STRBUF_INIT;
	enum maint_result ret = RESULT_FATAL;
	int login = 0;

	if (load_config(&fc) < 0 || imap_url_parse(&u, in->arg) < 0)
		goto out;
	/* as git imap-send asks git credential: imap or imaps, the host (with the URL's port), the user */
	credential_init(&cred, &fc.cfg, u.starttls ? "imap" : "imaps", u.host, u.port, NULL, u.user);
	if ((ret = credential_fill(&cred)) != RESULT_OK)
		goto out;
	io.cainfo = fc.imap_cainfo;
	io.timeout = fc.imap_timeout;
	io.max_message_size = fc.max_message_size == (size_t)-1 ? 0 :
			      fc.max_message_size ? fc.max_message_size : SOURCE_MAX_SIZE_DEFAULT;
	io.quiet = o->quiet;
	io.what = quote_url(&shown, in->arg);
	io.login = &login;
	ret = imap_read_folder(&u, cred.username, cred.password, &io, out_fd, in);
	if (login > 0)
		credential_approve(&cred);
	else if (login < 0)
		credential_reject(&cred, NULL);
	if (ret == RESULT_OK)
		list_spans(in, manifest);
out:
	credential_release(&cred);
	strbuf_release(&shown);
	imap_url_release(&u);
	fetch_config_release(&fc);
	return ret;
}

/* ---- one argument ---- */

enum maint_result fetch_remote(const char *arg, const struct fetch_opts *opts, int out_fd,
			       struct strbuf *manifest)
{
	struct fetched_input in = { (char *)arg };
	enum maint_result ret;

	switch (fetch_arg_kind(arg)) {
	case FETCH_ARCHIVE:
		ret = fetch_archive(&in, opts, out_fd, manifest);
		break;
	case FETCH_IMAP:
		ret = fetch_imap(&in, opts, out_fd, manifest);
		break;
	default: {
		struct strbuf shown = STRBUF_INIT;

		ret = error("'%s' is neither a Message-ID nor a URL to fetch mail from",
			    quote_url(&shown, arg));
		strbuf_release(&shown);
		break;
	}
	}
	free(in.spans);
	return ret < 0 ? RESULT_FATAL : ret;
}
