/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FETCH_H
#define FETCH_H

/*
 * Mail that is not on this machine yet: what an argument of a command
 * that reads mail is, and fetching the ones that name mail elsewhere,
 * once per run, so that common/mail/source.h reads them like any mailbox.
 *
 * What an argument is (a path that exists always wins, so a file named
 * "<x@y>" or "id:foo" is read as the file it is):
 *
 *   path, -, Maildir     local (common/mail/source.h)
 *   <msgid>, id:<msgid>, https://host/list/<msgid>/
 *                        a series from a public-inbox archive
 *                        (common/net/archive.h); http:// with a warning
 *   imaps://user@host[:port]/<folder>[?unseen&since=<date>&mark-seen]
 *   imap://...           the messages of an IMAP folder (common/net/imap.h)
 *
 * Archive threads are cached under $GIT_COMMON_DIR/maint/cache/archive/,
 * one file per thread URL named by its SHA-1 (a hostile Message-ID
 * cannot name a path), written to a temporary file and renamed into
 * place. A cached thread younger than archive.cache-expire minutes
 * (default FETCH_CACHE_EXPIRE_DEFAULT) is used without the network; an
 * older one is fetched again, and used with a warning when the archive
 * cannot be reached. Nothing is cached outside a repository, or with
 * --no-cache; --refresh always fetches (and then an unreachable archive
 * is a temporary failure even with a copy cached). The cache holds at
 * most archive.cache-max-size bytes (default FETCH_CACHE_MAX_SIZE_DEFAULT):
 * once a thread is written, the threads fetched longest ago are removed
 * until the rest fit (the one just written stays). IMAP folders are
 * read afresh every time: they are the maintainer's own mail.
 *
 * The fetching is done by a program of its own, git-maint-source--fetch
 * (common/net/fetch-remote.h), found next to the running program or in
 * ../libexec/git-maint/, as git runs git-remote-https: the commands load
 * no network library (libcurl, libsecret and their dozens of
 * dependencies cost every run tens of milliseconds) and only a source
 * that needs the network pays for it. The fetcher writes the messages,
 * one after another, to an unnamed temporary file it inherits
 * (--output-fd), says where each is on its standard output, the
 * manifest:
 *
 *	mboxrd			(optional: unquote >From lines of the spans)
 *	<offset> <length>	(one line per message, in order)
 *	skipped <length> <limit>	(in its place: a message not fetched,
 *				over the size limit)
 *
 * reports failures itself, and exits 0, 75 (unreachable, nothing usable
 * cached) or 128.
 *
 * What was fetched is kept for the rest of the run (one table per
 * process: a command reads its inputs once or twice, and the second
 * read must neither fetch again nor see other mail), in that file,
 * mapped, never in memory as a whole; commands call fetch_prepare()
 * before they change anything, so that an unreachable source stops them
 * with exit 75 and nothing changed. source.h reads what fetch_get() gives.
 */

#include <stddef.h>
#include <stdint.h>

#include "parse-options.h"
#include "usage.h"

enum fetch_kind {
	FETCH_LOCAL,		/* a path, "-" */
	FETCH_ARCHIVE,
	FETCH_IMAP,
};

/* What arg names by its syntax alone (the caller checks whether a path exists first). */
enum fetch_kind fetch_arg_kind(const char *arg);

struct fetch_opts {
	int refresh;		/* fetch even what the cache holds */
	int cache;		/* read and write the cache (default 1) */
	int series_version;	/* archive: the version to take, 0: the newest */
	int all_versions;	/* archive: every version of the series */
	int quiet;		/* no progress, no warning about missing patches */
};
#define FETCH_OPTS_INIT { 0, 1, 0, 0, 0 }

/* The fetcher program's name. */
#define FETCH_PROGRAM "git-maint-source--fetch"

#define FETCH_CACHE_EXPIRE_DEFAULT 10	/* minutes */
#define FETCH_CACHE_MAX_SIZE_DEFAULT ((uint64_t)1 << 30)	/* bytes, all threads */

/* The options every command that reads mail takes, in its option table. */
#define OPT_FETCH(o) \
	OPT_GROUP("Mail from an archive or an IMAP folder"), \
	OPT_BOOL(0, "refresh", &(o)->refresh, "fetch archive threads again even when cached"), \
	OPT_BOOL(0, "cache", &(o)->cache, "use the cache of archive threads (default; --no-cache: neither read nor write it)"), \
	OPT_INTEGER(0, "series-version", &(o)->series_version, "n", \
		    "of a series fetched from an archive, take version <n> (default: the newest)")

/*
 * Fetches every argument of args[0..nargs) that names remote mail and
 * does not exist as a path, with these options (kept for later
 * fetch_get() calls). Returns RESULT_OK; RESULT_TEMPFAIL (a source
 * unreachable, nothing usable cached); RESULT_FATAL (bad syntax, no
 * archive configured, TLS refused, not found, bad configuration). Each
 * failure is reported; every argument is tried.
 */
enum maint_result fetch_prepare(const char *const *args, size_t nargs,
				const struct fetch_opts *opts);

/*
 * The mail fetched for one argument: spans of a mapped file. A message
 * the fetcher did not fetch for its size (over limit bytes) is a span of
 * its own with no data (off 0, len its size), so that the command reports
 * it in its place and exits 1, as for a local one.
 */
struct fetched_span {
	size_t off, len;
	size_t skipped_limit;	/* not fetched: the limit it exceeded; else 0 */
};

struct fetched_input {
	char *arg;
	const char *data;	/* the mapped file */
	size_t len;
	struct fetched_span *spans;	/* the messages, in the order to read them */
	size_t nr, alloc;
	int mboxrd;		/* the spans are mboxrd (public-inbox's mbox): unquote >From lines */
};

/*
 * What arg fetched to: from the table, else fetched now (with the
 * options fetch_prepare() was given, or the defaults). 0 and *out (owned
 * by the table until fetch_release()), or -1 (reported).
 */
int fetch_get(const char *arg, const struct fetched_input **out);

/* Empties the table (unmaps, closes). */
void fetch_release(void);

/* Appends a span to in (for the fetchers). */
void fetched_input_add(struct fetched_input *in, size_t off, size_t len);
/* Appends a message of len bytes not fetched for exceeding limit. */
void fetched_input_skip(struct fetched_input *in, size_t len, size_t limit);
/* Maps the whole of fd as in->data (closing fd); -1 (reported) on error. */
int fetched_input_map(struct fetched_input *in, int fd);
/* Unmaps in->data (NULL is fine). */
void fetched_input_unmap(struct fetched_input *in);

#endif
