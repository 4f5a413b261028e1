/* SPDX-License-Identifier: GPL-2.0-only */
#include "in-progress.h"
#include "gitdir.h"
#include "state-kv.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* A state file is a few hundred bytes; more is not one we wrote. */
#define STATE_READ_MAX ((size_t)64 << 10)

static int is_real_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

/* dir/state into sb, no symbolic link followed: 0, or -1. */
static int read_state(const char *dir, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = -1;

	strbuf_addf(&path, "%s/state", dir);
	fd = open(path.buf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		char *buf = xmalloc(STATE_READ_MAX);
		ssize_t n = read_in_full(fd, buf, STATE_READ_MAX);

		if (n > 0) {
			strbuf_add(sb, buf, n);
			ret = 0;
		}
		free(buf);
		close(fd);
	}
	strbuf_release(&path);
	return ret;
}

static size_t kv_number(const struct strbuf *sb, const char *key)
{
	char *v = state_kv_get(sb, key), *end;
	unsigned long n = v ? strtoul(v, &end, 10) : 0;

	if (v && (*end || end == v))
		n = 0;
	free(v);
	return n;
}

static void read_op(struct stopped_op *op)
{
	struct strbuf sb = STRBUF_INIT;
	const char *key = !strcmp(op->name, "queue") ? "branch" : "public";
	const char *shortname;
	char *v;

	if (read_state(op->dir, &sb) < 0) {
		op->damaged = 1;
		return;
	}
	v = state_kv_get(&sb, key);
	if (v && skip_prefix(v, "refs/heads/", &shortname)) {
		op->branch = xstrdup(shortname);
		free(v);
	} else {
		op->branch = v;
	}
	if (!strcmp(op->name, "queue")) {
		op->next = kv_number(&sb, "next");
		op->last = kv_number(&sb, "last");
		op->why = state_kv_get(&sb, "stopped");
	}
	strbuf_release(&sb);
}

size_t in_progress_find(struct stopped_op ops[STOPPED_OPS_MAX])
{
	static const char *const names[STOPPED_OPS_MAX] = { "queue", "publish" };
	struct strbuf gitdir = STRBUF_INIT, dir = STRBUF_INIT;
	size_t nr = 0;

	if (gitdir_discover(&gitdir, NULL))
		goto out;
	strbuf_addf(&dir, "%s/maint", gitdir.buf);
	if (!is_real_dir(dir.buf))
		goto out;
	for (size_t i = 0; i < STOPPED_OPS_MAX; i++) {
		struct stopped_op *op = &ops[nr];

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/maint/%s", gitdir.buf, names[i]);
		if (!is_real_dir(dir.buf))
			continue;
		memset(op, 0, sizeof(*op));
		op->name = names[i];
		op->dir = strbuf_detach(&dir, NULL);
		read_op(op);
		nr++;
	}
out:
	strbuf_release(&dir);
	strbuf_release(&gitdir);
	return nr;
}

void in_progress_release(struct stopped_op *ops, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(ops[i].branch);
		free(ops[i].why);
		free(ops[i].dir);
	}
}

void in_progress_describe(struct strbuf *out, const struct stopped_op *op)
{
	int queue = !strcmp(op->name, "queue");

	strbuf_addf(out, "a %s", op->name);
	if (op->branch)
		strbuf_addf(out, queue ? " on '%s'" : " of '%s'", op->branch);
	strbuf_addstr(out, " is stopped");
	if (op->damaged)
		strbuf_addstr(out, ", its state unreadable");
	else if (queue && op->next && op->last && op->next <= op->last)
		strbuf_addf(out, " at patch %zu of %zu", op->next, op->last);
}

/* The Subject: of the mail in dir/patch, unfolded (not decoded), into out; or nothing. */
static void patch_subject(const char *dir, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, mail = STRBUF_INIT;
	const char *p, *end;
	int fd;

	strbuf_addf(&path, "%s/patch", dir);
	fd = open(path.buf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		char *buf = xmalloc(STATE_READ_MAX);
		ssize_t n = read_in_full(fd, buf, STATE_READ_MAX);

		if (n > 0)
			strbuf_add(&mail, buf, n);
		free(buf);
		close(fd);
	}
	for (p = mail.buf, end = mail.buf + mail.len; p < end && *p != '\n';) {
		const char *nl = memchr(p, '\n', end - p);

		nl = nl ? nl : end;
		if (!out->len && !strncasecmp(p, "Subject:", 8)) {
			strbuf_add(out, p + 8, nl - p - 8);
			/* continuation lines fold into one */
			while (nl + 1 < end && (nl[1] == ' ' || nl[1] == '\t')) {
				const char *next = memchr(nl + 1, '\n', end - nl - 1);

				next = next ? next : end;
				strbuf_add(out, nl + 1, next - nl - 1);
				nl = next;
			}
			strbuf_trim(out);
		}
		p = nl + 1;
	}
	strbuf_setlen(out, neutralise_field(out->buf, out->len));
	strbuf_release(&mail);
	strbuf_release(&path);
}

static const char *stop_reason(const char *why)
{
	if (!why)
		return NULL;
	if (!strcmp(why, "patch"))
		return "the patch does not apply";
	if (!strcmp(why, "check"))
		return "the check failed";
	if (!strcmp(why, "build"))
		return "the build failed";
	return NULL;
}

static void status_of(struct strbuf *out, const struct stopped_op *op)
{
	size_t start = out->len;
	const char *reason = stop_reason(op->why);
	struct strbuf subject = STRBUF_INIT;

	in_progress_describe(out, op);
	if (reason)
		strbuf_addf(out, ": %s", reason);
	strbuf_setlen(out, start + neutralise_field(out->buf + start, out->len - start));
	out->buf[start] = 'A';
	strbuf_addstr(out, ".\n");
	if (!strcmp(op->name, "queue")) {
		patch_subject(op->dir, &subject);
		if (subject.len)
			strbuf_addf(out, "  %s\n", subject.buf);
		strbuf_addstr(out, "  (fix it and run \"git maint-queue --continue\";"
			       " \"git maint-queue --show-current\" shows its mail)\n"
			       "  (use \"git maint-queue --skip\" to drop this patch)\n");
		strbuf_addstr(out, "  (use \"git maint-queue --abort\" to put the branch back where it was)\n");
	} else {
		strbuf_addstr(out, "  (use \"git maint-publish --continue\" to push and tell what is left)\n"
			       "  (use \"git maint-publish --abort\" to forget it)\n");
	}
	strbuf_release(&subject);
}

size_t in_progress_status(struct strbuf *out)
{
	struct stopped_op ops[STOPPED_OPS_MAX];
	size_t nr = in_progress_find(ops);

	for (size_t i = 0; i < nr; i++)
		status_of(out, &ops[i]);
	in_progress_release(ops, nr);
	return nr;
}

void in_progress_announce(const char *except, int quiet)
{
	struct stopped_op ops[STOPPED_OPS_MAX];
	struct strbuf line = STRBUF_INIT;
	size_t nr;

	const char *run_by = getenv(IN_PROGRESS_RUN_BY_ENV);

	if (quiet)
		return;
	nr = in_progress_find(ops);
	for (size_t i = 0; i < nr; i++) {
		if ((except && !strcmp(ops[i].name, except)) || (run_by && !strcmp(ops[i].name, run_by)))
			continue;
		strbuf_reset(&line);
		in_progress_describe(&line, &ops[i]);
		strbuf_setlen(&line, neutralise_field(line.buf, line.len));
		advise("%s (git maint-queue --status)", line.buf);
	}
	strbuf_release(&line);
	in_progress_release(ops, nr);
}
