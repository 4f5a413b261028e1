/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mbox-write.h"
#include "ascii.h"
#include "color.h"
#include "quote.h"
#include "select.h"
#include "source.h"
#include "usage.h"
#include "wrapper.h"

#define FLUSH_AT (64 * 1024)

void mbox_writer_init(struct mbox_writer *w, int fd, enum mbox_format format)
{
	w->fd = fd;
	w->format = format;
	strbuf_init(&w->buf, FLUSH_AT + 4096);
}

int mbox_writer_flush(struct mbox_writer *w)
{
	if (w->buf.len && write_in_full(w->fd, w->buf.buf, w->buf.len) < 0)
		return error_errno("cannot write the mailbox");
	strbuf_reset(&w->buf);
	return 0;
}

int mbox_writer_finish(struct mbox_writer *w)
{
	int rc = mbox_writer_flush(w);

	strbuf_release(&w->buf);
	return rc;
}

/* Does the line at p (of len bytes, with its newline) need one more '>'? */
static int needs_quote(enum mbox_format format, const char *p, size_t len)
{
	size_t i = 0;

	if (format == MBOX_RD) {
		while (i < len && p[i] == '>')
			i++;
		return len - i >= 5 && !memcmp(p + i, "From ", 5);
	}
	return len >= 5 && !memcmp(p, "From ", 5) && mbox_is_from_line(p, len);
}

int mbox_writer_add(struct mbox_writer *w, const char *from_line, const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len, *hit;

	if (from_line)
		strbuf_addstr(&w->buf, from_line);
	else
		strbuf_addstr(&w->buf, "From git-maint Mon Sep 17 00:00:00 2001");
	strbuf_addch(&w->buf, '\n');
	/* Copy in runs; stop only at "From " occurrences that may need a '>'. */
	while (p < end && (hit = memmem(p, end - p, "From ", 5))) {
		const char *bol = hit, *eol;

		while (bol > msg && bol[-1] == '>')
			bol--;
		if (bol == msg || bol[-1] == '\n') {
			eol = memchr(hit, '\n', end - hit);
			eol = eol ? eol + 1 : end;
			strbuf_add(&w->buf, p, bol - p);
			if (needs_quote(w->format, bol, eol - bol))
				strbuf_addch(&w->buf, '>');
			strbuf_add(&w->buf, bol, eol - bol);
			p = eol;
		} else {
			strbuf_add(&w->buf, p, hit + 5 - p);
			p = hit + 5;
		}
		if (w->buf.len >= FLUSH_AT && mbox_writer_flush(w) < 0)
			return -1;
	}
	strbuf_add(&w->buf, p, end - p);
	if (!len || msg[len - 1] != '\n')
		strbuf_addch(&w->buf, '\n');
	if (w->buf.len >= FLUSH_AT)
		return mbox_writer_flush(w);
	return 0;
}

/* path, created when missing (*created set), opened: its fd, or -1 (reported). */
static int open_out_dir(const char *path, int *created)
{
	int fd;

	if (mkdir(path, 0777) == 0)
		*created = 1;
	else if (errno != EEXIST)
		return error_errno("cannot create directory '%s'", path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return error("'%s' is not a directory (or is a symbolic link)", path);
	if (fd < 0)
		return error_errno("cannot open directory '%s'", path);
	return fd;
}

int outdir_open(struct outdir *od, const char *path)
{
	int created = 0;

	od->fd = open_out_dir(path, &created);
	if (od->fd < 0)
		return -1;
	od->path = xstrdup(path);
	return 0;
}

/* Writes "<from_line>\n" (when not NULL) and buf[0..len) with as few system calls as it can. */
static int write_parts(int fd, const char *from_line, const char *buf, size_t len)
{
	struct iovec iov[3];
	int n = 0;

	if (from_line) {
		iov[n].iov_base = (void *)from_line;
		iov[n++].iov_len = strlen(from_line);
		iov[n].iov_base = "\n";
		iov[n++].iov_len = 1;
	}
	iov[n].iov_base = (void *)buf;
	iov[n++].iov_len = len;
	while (n) {
		ssize_t w = writev(fd, iov, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		/* Short write: drop what was written and go on. */
		while (n && (size_t)w >= iov[0].iov_len) {
			w -= iov[0].iov_len;
			memmove(iov, iov + 1, --n * sizeof(*iov));
		}
		if (n) {
			iov[0].iov_base = (char *)iov[0].iov_base + w;
			iov[0].iov_len -= w;
		}
	}
	return 0;
}

int outdir_write(struct outdir *od, size_t n, const char *from_line, const char *buf, size_t len)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "%0*zu", od->width, n);
	fd = openat(od->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST) {
		/* Replace what is there (unlinking a symlink, not its target). */
		if (unlinkat(od->fd, name, 0) < 0)
			return error_errno("cannot replace '%s/%s'", od->path, name);
		fd = openat(od->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	}
	if (fd < 0)
		return error_errno("cannot create '%s/%s'", od->path, name);
	if (write_parts(fd, from_line, buf, len) < 0) {
		error_errno("cannot write '%s/%s'", od->path, name);
		close(fd);
		return -1;
	}
	if (close(fd) < 0)
		return error_errno("cannot write '%s/%s'", od->path, name);
	return 0;
}

void outdir_close(struct outdir *od)
{
	if (od->fd >= 0)
		close(od->fd);
	od->fd = -1;
	free(od->path);
	od->path = NULL;
}

/* A text field of a listing: control characters, tab and newline become '?' (quote.h). */
static void add_field(struct strbuf *out, const char *s)
{
	quote_field(out, s, strlen(s));
}

/*
 * %C(<colour>), %Cred, %Cgreen, %Cblue, %Creset at f (after the 'C'), as
 * in git's pretty formats: written when color is on; "%C(always,...)"
 * always, "%C(auto,...)" as without it. Its length, or 0 when it is none.
 */
static size_t expand_color(struct strbuf *out, const char *f, int color)
{
	static const char *const named[] = { "red", "green", "blue", "reset" };
	char code[COLOR_MAXLEN], spec[64];
	const char *end, *s = NULL;
	size_t len = 0;

	if (f[0] == '(') {
		end = strchr(f, ')');
		if (!end || (size_t)(end - f - 1) >= sizeof(spec))
			return 0;
		memcpy(spec, f + 1, end - f - 1);
		spec[end - f - 1] = '\0';
		if (skip_prefix(spec, "always,", &s))
			color = 1;
		else if (!skip_prefix(spec, "auto,", &s))
			s = spec;
		len = end - f + 1;
	} else {
		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]) && !s; i++)
			if (starts_with(f, named[i])) {
				s = named[i];
				len = strlen(s);
			}
		if (!s)
			return 0;
	}
	if (!strcmp(s, "reset"))
		strcpy(code, COLOR_RESET);
	else if (color_parse(s, code) < 0)
		return 0;
	if (color)
		strbuf_addstr(out, code);
	return len;
}

static void add_slug(struct strbuf *out, const char *subject);

/* %q<c>: entry e's series (select.h); nothing when it is in none. 0 when c is unknown. */
static size_t expand_series(struct strbuf *out, char c, const struct mail_entry *e)
{
	const struct select_series *s = e ? e->unit : NULL;

	if (!strchr("nNvKsmfF", c) || !c)
		return 0;
	if (!s)
		return 2;
	switch (c) {
	case 'n': strbuf_addf(out, "%zu", s->number); break;
	case 'N': strbuf_addf(out, "%zu", s->of); break;
	case 'v': strbuf_addf(out, "%d", s->version); break;
	case 'K': strbuf_addf(out, "%d", s->total); break;
	case 's': if (s->head) add_field(out, s->head->clean_subject); break;
	case 'm': if (s->head) add_field(out, s->head->message_id); break;
	case 'f': if (s->head) add_slug(out, s->head->clean_subject); break;
	case 'F': mbox_write_series_name(out, s); break;
	}
	return 2;
}

/* Expands one placeholder at f (after '%'); returns its length or 0 when unknown. */
static size_t expand(struct strbuf *out, const char *f, const struct mail_entry *e, int color)
{
	size_t i;

	switch (f[0]) {
	case 'i': if (e) strbuf_addf(out, "%zu", e->number); return 1;
	case 'I': if (e) strbuf_addf(out, "%zu", e->out_pos); return 1;
	case 'm': if (e) add_field(out, e->message_id); return 1;
	case 'r': if (e) add_field(out, e->in_reply_to); return 1;
	case 's': if (e) add_field(out, e->subject); return 1;
	case 'S': if (e) add_field(out, e->clean_subject); return 1;
	case 'v': if (e) strbuf_addf(out, "%d", e->version); return 1;
	case 'k': if (e) strbuf_addf(out, "%d", e->k); return 1;
	case 'K': if (e) strbuf_addf(out, "%d", e->total); return 1;
	case 'o': if (e) add_field(out, e->origin); return 1;
	case 'P': if (e) strbuf_addstr(out, e->kind == MAIL_PATCH ? "patch" : "mail"); return 1;
	case 'n': strbuf_addch(out, '\n'); return 1;
	case '%': strbuf_addch(out, '%'); return 1;
	case 'p':
		/* C-quoted as git quotes paths, and when holding a space: the list splits on spaces */
		if (e)
			for (i = 0; i < e->paths.nr; i++) {
				if (i)
					strbuf_addch(out, ' ');
				quote_path(out, e->paths.v[i], strlen(e->paths.v[i]), QUOTE_SPACE);
			}
		return 1;
	case 'G':
		if (f[1] == '?') {
			if (e && e->attest_verdict)
				strbuf_addch(out, e->attest_verdict);
		} else if (f[1] == 'S') {
			if (e && e->attest_signer)
				add_field(out, e->attest_signer);
		} else {
			return 0;
		}
		return 2;
	case 'a':
		if (f[1] == 'n') {
			if (e) add_field(out, e->author_name);
		} else if (f[1] == 'e') {
			if (e) add_field(out, e->author_email);
		} else if (f[1] == 'd') {
			if (e) add_field(out, e->date);
		} else if (f[1] == 't') {
			if (e) strbuf_addf(out, "%lld", (long long)e->when);
		} else {
			return 0;
		}
		return 2;
	case 'q':
		return expand_series(out, f[1], e);
	case 'C':
		i = expand_color(out, f + 1, color);
		return i ? i + 1 : 0;
	case 'x':
		if (hex_digit(f[1]) < 0 || hex_digit(f[2]) < 0)
			return 0;
		strbuf_addch(out, hex_digit(f[1]) * 16 + hex_digit(f[2]));
		return 3;
	}
	return 0;
}

static int format(struct strbuf *out, const char *fmt, const struct mail_entry *e, int color)
{
	const char *f = fmt;

	while (*f) {
		const char *pct = strchr(f, '%');
		size_t used;

		if (!pct) {
			strbuf_addstr(out, f);
			break;
		}
		strbuf_add(out, f, pct - f);
		used = expand(out, pct + 1, e, color);
		if (!used)
			return error("unknown placeholder '%%%.2s' in format '%s'", pct + 1, fmt);
		f = pct + 1 + used;
	}
	return 0;
}

int mbox_write_format_entry(struct strbuf *out, const char *fmt, const struct mail_entry *e, int color)
{
	return format(out, fmt, e, color);
}

int mbox_write_format_check(const char *fmt)
{
	struct strbuf sink = STRBUF_INIT;
	int rc = format(&sink, fmt, NULL, 0);

	strbuf_release(&sink);
	return rc;
}

/* Does fmt use the placeholder that starts with c? */
static int format_uses(const char *fmt, char c)
{
	const char *p;

	for (p = fmt; (p = strchr(p, '%')); p += 2) {
		if (p[1] == c)
			return 1;
		if (!p[1])
			break;
	}
	return 0;
}

int mbox_write_format_needs_paths(const char *fmt)
{
	return format_uses(fmt, 'p');
}

int mbox_write_format_needs_attest(const char *fmt)
{
	return format_uses(fmt, 'G');
}

/* git format-patch's file name characters */
static int title_char(char c)
{
	return ascii_isalnum(c) || c == '.' || c == '_';
}

#define SERIES_SLUG_MAX 52

/* subject as a file name: see mbox_write_series_name() */
static void add_slug(struct strbuf *out, const char *subject)
{
	size_t start = out->len;
	int gap = 0;

	for (const char *p = subject; *p && out->len - start < SERIES_SLUG_MAX; p++) {
		if (!title_char(*p)) {
			gap = 1;
			continue;
		}
		if (gap && out->len > start)
			strbuf_addch(out, '-');
		gap = 0;
		strbuf_addch(out, *p);
		while (*p == '.' && p[1] == '.')
			p++;
	}
	if (out->len - start > SERIES_SLUG_MAX)
		strbuf_setlen(out, start + SERIES_SLUG_MAX);
	while (out->len > start && (out->buf[out->len - 1] == '.' || out->buf[out->len - 1] == '-'))
		strbuf_setlen(out, out->len - 1);
}

void mbox_write_series_name(struct strbuf *out, const struct select_series *s)
{
	int width = 4;
	size_t start;

	for (size_t of = s->of; of >= 10000; of /= 10)
		width++;
	strbuf_addf(out, "%0*zu-", width, s->number);
	start = out->len;
	add_slug(out, s->head ? s->head->clean_subject : "");
	if (out->len == start)
		strbuf_setlen(out, start - 1);
	strbuf_addstr(out, ".mbox");
}

/* The open directory fd, read from its start (closedir() it); NULL (reported) when it cannot. */
static DIR *read_dir(int fd, const char *path)
{
	int dup_fd = dup(fd);
	DIR *dir;

	if (dup_fd < 0 || !(dir = fdopendir(dup_fd))) {
		if (dup_fd >= 0)
			close(dup_fd);
		error_errno("cannot read directory '%s'", path);
		return NULL;
	}
	rewinddir(dir);	/* the duplicate shares fd's offset: another reading moved it */
	return dir;
}

static int dir_is_empty(int fd, const char *path)
{
	struct dirent *de;
	DIR *dir = read_dir(fd, path);
	int empty = 1;

	if (!dir)
		return -1;
	while (empty && (de = readdir(dir)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(dir);
	return empty;
}

int seriesdir_open(struct seriesdir *sd, const char *path, enum mbox_format format, int force)
{
	struct strbuf stage = STRBUF_INIT;
	int empty;

	sd->format = format;
	sd->force = force;
	sd->path = xstrdup(path);
	if ((sd->fd = open_out_dir(path, &sd->created)) < 0)
		return -1;
	if (!sd->created && (empty = dir_is_empty(sd->fd, path)) <= 0) {
		if (empty < 0)
			return -1;
		if (!force)
			return error("'%s' is not empty (--force replaces the series files in it)", path);
	}
	strbuf_addf(&stage, "%s/.mbox-split-XXXXXX", path);
	if (!mkdtemp(stage.buf)) {
		error_errno("cannot create a directory in '%s'", path);
		strbuf_release(&stage);
		return -1;
	}
	sd->stage = xstrdup(stage.buf + strlen(path) + 1);
	strbuf_release(&stage);
	sd->stage_fd = openat(sd->fd, sd->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sd->stage_fd < 0)
		return error_errno("cannot open '%s/%s'", path, sd->stage);
	return 0;
}

/* Finishes the file being written. */
static int seriesdir_close_file(struct seriesdir *sd)
{
	int rc = 0;

	if (sd->w.fd < 0)
		return 0;
	if (mbox_writer_finish(&sd->w) < 0)
		rc = -1;
	if (close(sd->w.fd) < 0 && !rc)
		rc = error_errno("cannot write '%s/%s'", sd->path, sd->names.v[sd->names.nr - 1]);
	sd->w.fd = -1;
	return rc;
}

int seriesdir_write(struct seriesdir *sd, const struct select_series *s, const char *from_line,
		    const char *buf, size_t len)
{
	if (s->number != sd->current) {
		struct strbuf name = STRBUF_INIT;
		int fd;

		if (s->number < sd->current)
			BUG("series %zu written after series %zu", s->number, sd->current);
		if (seriesdir_close_file(sd) < 0)
			return -1;
		mbox_write_series_name(&name, s);
		fd = openat(sd->stage_fd, name.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0) {
			error_errno("cannot create '%s/%s'", sd->path, name.buf);
			strbuf_release(&name);
			return -1;
		}
		strvec_push(&sd->names, name.buf);
		strbuf_release(&name);
		mbox_writer_init(&sd->w, fd, sd->format);
		sd->current = s->number;
	}
	return mbox_writer_add(&sd->w, from_line, buf, len);
}

/* A name mbox_write_series_name() gives: digits, then '-' or ".mbox", ending in ".mbox". */
static int is_series_name(const char *name)
{
	size_t digits = strspn(name, "0123456789");

	return digits >= 4 && (name[digits] == '-' || name[digits] == '.') &&
	       ends_with(name, ".mbox") && strlen(name) >= digits + 5;
}

/* With force: the series files an earlier run left in the directory. */
static int remove_old_series(struct seriesdir *sd)
{
	struct dirent *de;
	DIR *dir = read_dir(sd->fd, sd->path);
	int rc = 0;

	if (!dir)
		return -1;
	while (!rc && (de = readdir(dir)))
		if (is_series_name(de->d_name) && unlinkat(sd->fd, de->d_name, 0) < 0)
			rc = error_errno("cannot remove '%s/%s'", sd->path, de->d_name);
	closedir(dir);
	return rc;
}

int seriesdir_commit(struct seriesdir *sd)
{
	int rc = seriesdir_close_file(sd);

	if (!rc && sd->force)
		rc = remove_old_series(sd);
	for (size_t i = 0; !rc && i < sd->names.nr; i++)
		if (renameat(sd->stage_fd, sd->names.v[i], sd->fd, sd->names.v[i]) < 0)
			rc = error_errno("cannot move '%s' into '%s'", sd->names.v[i], sd->path);
	if (rc)
		return rc;
	close(sd->stage_fd);
	sd->stage_fd = -1;
	if (unlinkat(sd->fd, sd->stage, AT_REMOVEDIR) < 0)
		rc = error_errno("cannot remove '%s/%s'", sd->path, sd->stage);
	free(sd->stage);
	sd->stage = NULL;
	sd->created = 0;
	return rc;
}

void seriesdir_release(struct seriesdir *sd)
{
	if (sd->w.fd >= 0) {
		strbuf_release(&sd->w.buf);
		close(sd->w.fd);
		sd->w.fd = -1;
	}
	for (size_t i = 0; sd->stage_fd >= 0 && i < sd->names.nr; i++)
		unlinkat(sd->stage_fd, sd->names.v[i], 0);
	if (sd->stage_fd >= 0)
		close(sd->stage_fd);
	if (sd->stage)
		unlinkat(sd->fd, sd->stage, AT_REMOVEDIR);
	if (sd->fd >= 0)
		close(sd->fd);
	if (sd->created)
		rmdir(sd->path);
	free(sd->stage);
	free(sd->path);
	strvec_clear(&sd->names);
	sd->stage = sd->path = NULL;
	sd->stage_fd = sd->fd = -1;
}
