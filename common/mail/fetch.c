/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Remote mail, fetched once per run by git-maint-source--fetch (see
 * fetch.h). This side links no network library.
 */
#include "fetch.h"
#include "run-command.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What this run fetched, by argument. */
static struct {
	struct fetch_opts opts;
	struct fetched_input **v;
	size_t nr, alloc;
} table = { FETCH_OPTS_INIT, NULL, 0, 0 };

enum fetch_kind fetch_arg_kind(const char *arg)
{
	size_t len = strlen(arg);

	if (starts_with(arg, "imaps://") || starts_with(arg, "imap://"))
		return FETCH_IMAP;
	if (starts_with(arg, "id:") || starts_with(arg, "https://") || starts_with(arg, "http://") ||
	    (len > 2 && arg[0] == '<' && arg[len - 1] == '>'))
		return FETCH_ARCHIVE;
	return FETCH_LOCAL;
}

void fetched_input_add(struct fetched_input *in, size_t off, size_t len)
{
	ALLOC_GROW(in->spans, in->nr + 1, in->alloc);
	in->spans[in->nr].off = off;
	in->spans[in->nr].len = len;
	in->spans[in->nr].skipped_limit = 0;
	in->nr++;
}

void fetched_input_skip(struct fetched_input *in, size_t len, size_t limit)
{
	fetched_input_add(in, 0, len);
	in->spans[in->nr - 1].skipped_limit = limit ? limit : 1;
}

void fetched_input_unmap(struct fetched_input *in)
{
	if (in->data)
		munmap((void *)in->data, in->len);
	in->data = NULL;
	in->len = 0;
}

static void fetched_input_free(struct fetched_input *in)
{
	if (!in)
		return;
	fetched_input_unmap(in);
	free(in->spans);
	free(in->arg);
	free(in);
}

int fetched_input_map(struct fetched_input *in, int fd)
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

/* ---- the fetcher: git-maint-source--fetch ---- */

/* An unnamed temporary file for the fetched mail, inherited by the fetcher. */
static int temp_fd(const char *arg)
{
	struct strbuf sb = STRBUF_INIT;
	const char *tmpdir = getenv("TMPDIR");
	int fd;

	strbuf_addf(&sb, "%s/git-maint-fetch-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(sb.buf);	/* not O_CLOEXEC: the fetcher writes to it */
	if (fd < 0)
		error_errno("cannot create a temporary file for '%s'", arg);
	else
		unlink(sb.buf);
	strbuf_release(&sb);
	return fd;
}

/* The fetcher's manifest (see fetch.h) into in->spans; -1 (reported) when it is not one. */
static int read_manifest(struct fetched_input *in, const struct strbuf *m)
{
	const char *p = m->buf, *end = m->buf + m->len;

	if (skip_prefix(p, "mboxrd\n", &p))
		in->mboxrd = 1;
	while (p < end) {
		unsigned long long off, len;
		char *e;

		if (skip_prefix(p, "skipped ", &p)) {
			unsigned long long limit;

			errno = 0;
			len = strtoull(p, &e, 10);
			if (errno || e == p || *e != ' ')
				goto bad;
			p = e + 1;
			limit = strtoull(p, &e, 10);
			if (errno || e == p || *e != '\n' || len > SIZE_MAX || limit > SIZE_MAX)
				goto bad;
			fetched_input_skip(in, len, limit);
			p = e + 1;
			continue;
		}
		errno = 0;
		off = strtoull(p, &e, 10);
		if (errno || e == p || *e != ' ')
			goto bad;
		p = e + 1;
		len = strtoull(p, &e, 10);
		if (errno || e == p || *e != '\n' || off > in->len || len > in->len - off)
			goto bad;
		fetched_input_add(in, off, len);
		p = e + 1;
	}
	return 0;
bad:
	return error("'%s': %s answered what is not a list of messages", in->arg, FETCH_PROGRAM);
}

static void fetcher_argv(struct strvec *argv, const char *prog, int fd, const char *arg,
			 const struct fetch_opts *o)
{
	strvec_push(argv, prog);
	strvec_pushf(argv, "--output-fd=%d", fd);
	if (o->refresh)
		strvec_push(argv, "--refresh");
	if (!o->cache)
		strvec_push(argv, "--no-cache");
	if (o->series_version)
		strvec_pushf(argv, "--series-version=%d", o->series_version);
	if (o->all_versions)
		strvec_push(argv, "--all-versions");
	if (o->quiet)
		strvec_push(argv, "--quiet");
	strvec_push(argv, "--");
	strvec_push(argv, arg);
}

/* Runs the fetcher for in->arg: RESULT_OK, RESULT_TEMPFAIL or RESULT_FATAL (reported). */
static enum maint_result run_fetcher(struct fetched_input *in, const struct fetch_opts *o)
{
	struct strbuf prog = STRBUF_INIT, manifest = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	enum maint_result ret = RESULT_FATAL;
	int fd, rc;

	if (find_part_program(&prog, FETCH_PROGRAM) < 0) {
		error("cannot fetch '%s': %s is not installed", in->arg, FETCH_PROGRAM);
		goto out;
	}
	if ((fd = temp_fd(in->arg)) < 0)
		goto out;
	fetcher_argv(&argv, prog.buf, fd, in->arg, o);
	rc = run_command(argv.v, NULL, 0, &manifest);
	if (rc) {
		close(fd);
		/* the fetcher said why, but for a crash */
		if (rc > 128)
			error("cannot fetch '%s': %s died of signal %d", in->arg, FETCH_PROGRAM, rc - 128);
		ret = result_from_exit_code(rc);
		/* an archive without the message (1) fails this input as any unreadable one */
		if (ret == RESULT_NO)
			ret = RESULT_FATAL;
		goto out;
	}
	if (fetched_input_map(in, fd) < 0 || read_manifest(in, &manifest) < 0)
		goto out;
	ret = RESULT_OK;
out:
	strvec_clear(&argv);
	strbuf_release(&prog);
	strbuf_release(&manifest);
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
static enum maint_result fetch_one(const char *arg, struct fetched_input **out)
{
	struct fetched_input *in = xcalloc(1, sizeof(*in));
	enum maint_result rc;

	if (fetch_arg_kind(arg) == FETCH_LOCAL)
		BUG("fetch_one() on a local argument");
	in->arg = xstrdup(arg);
	rc = run_fetcher(in, &table.opts);
	if (rc != RESULT_OK) {
		fetched_input_free(in);
		return rc;
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

enum maint_result fetch_prepare(const char *const *args, size_t nargs,
				const struct fetch_opts *opts)
{
	enum maint_result worst = RESULT_OK;

	table.opts = *opts;
	for (size_t i = 0; i < nargs; i++) {
		struct fetched_input *in;

		if (is_local(args[i]) || lookup(args[i]))
			continue;
		worst = result_worse(worst, fetch_one(args[i], &in));
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
