/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mail source: arguments -> raw messages. See source.h.
 *
 * Each input is a window of bytes, a buffer refilled from the file or
 * pipe, holding at least the message being read. Files are read, not
 * mapped: touching a mapping's pages the first time cost three times
 * what read() into a small buffer that stays in the cache does (200 ms
 * against 70 ms for the 244 MB mailbox of t/perf/p0200-mbox-split.sh).
 * Messages are found by searching for
 * "\nFrom " (mail_find_line()) and testing the line with git mailsplit's rule;
 * a message is copied only when CRLF or mboxrd quoting must be undone.
 */
#include "source.h"
#include "config.h"
#include "fetch.h"
#include "mail.h"
#include "parse-options.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK ((size_t)1 << 16)

enum input_kind { INPUT_NONE, INPUT_MBOX, INPUT_SINGLE, INPUT_MAILDIR, INPUT_FETCHED, INPUT_DONE };

struct mail_source {
	const char *const *args;
	size_t nargs, next_arg;
	const char *stdin_args[1];
	unsigned flags;
	size_t max_size;
	size_t number;
	size_t oversized;	/* messages skipped for their size */

	/* the current input */
	enum input_kind kind;
	const char *origin;
	int fd;
	struct strbuf win;	/* the window, when reading from fd */
	long long win_off;	/* where win.buf starts in a regular file, -1 for a pipe */
	int eof;
	const char *data;	/* win.buf, or the buffer of an in-memory source */
	size_t len, pos;

	/* Maildir */
	char **files;
	size_t files_nr, files_next;
	struct strbuf path;

	struct strbuf msg;	/* rewritten message (CRLF, mboxrd) */
	struct strbuf fromline;	/* copy of the From_ line in stream mode */

	/* fetched (common/mail/fetch.h): owned by fetch's table */
	const struct fetched_input *fetched;
	size_t fetched_next;

	/* in-memory source */
	const char *mem;
	size_t mem_len;
	int is_mem;
};

int mbox_is_from_line(const char *line, size_t len)
{
	const char *colon, *p, *end = line + len;
	long year = 0;
	int digits = 0;

	if (len < 20 || memcmp(line, "From ", 5))
		return 0;
	/* the last colon, searched backwards from before the line's last byte */
	colon = line + len - 2;
	for (;;) {
		if (colon <= line + 5)
			return 0;
		if (*--colon == ':')
			break;
	}
	if (colon - 4 < line || colon + 2 >= end)
		return 0;
	if (!isdigit((unsigned char)colon[-4]) || !isdigit((unsigned char)colon[-2]) ||
	    !isdigit((unsigned char)colon[-1]) || !isdigit((unsigned char)colon[1]) ||
	    !isdigit((unsigned char)colon[2]))
		return 0;
	/* the year, as strtol() would read it, but never past the line */
	p = colon + 3;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '+' || *p == '-')) {
		if (*p == '-')
			return 0;
		p++;
	}
	while (p < end && isdigit((unsigned char)*p) && year <= 90) {
		year = year * 10 + (*p++ - '0');
		digits++;
	}
	return digits && year > 90;
}

static void reset_input(struct mail_source *src)
{
	if (src->fd > 0)
		close(src->fd);
	src->fd = -1;
	strbuf_reset(&src->win);
	src->win_off = -1;
	src->eof = 0;
	src->data = NULL;
	src->len = src->pos = 0;
	for (size_t i = 0; i < src->files_nr; i++)
		free(src->files[i]);
	free(src->files);
	src->files = NULL;
	src->files_nr = src->files_next = 0;
	src->fetched = NULL;
	src->fetched_next = 0;
	src->kind = INPUT_NONE;
}

/* "Name:" at the start of p[0..len): an RFC 5322 field name (git am's [!-9;-~]+:). */
static int is_header_field(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && p[i] >= '!' && p[i] <= '~' && p[i] != ':')
		i++;
	return i > 0 && i < len && p[i] == ':';
}

/*
 * A patch without a mail around it, as patch(1) and git apply take it:
 * a line starting a diff ("diff ", "Index: ", "--- " with "+++ " on the
 * next line, or "*** " with "--- ") somewhere in buf[0..len), after any
 * leading text.
 */
static int looks_like_bare_patch(const char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - pos;
		const char *p = buf + pos;

		if ((n >= 5 && !memcmp(p, "diff ", 5)) || (n >= 7 && !memcmp(p, "Index: ", 7)))
			return 1;
		if (n >= 4 && end + 5 <= len &&
		    ((!memcmp(p, "--- ", 4) && !memcmp(buf + end + 1, "+++ ", 4)) ||
		     (!memcmp(p, "*** ", 4) && !memcmp(buf + end + 1, "--- ", 4))))
			return 1;	/* a unified diff, or a context diff (the engine says it is not supported) */
		pos = end + 1;
	}
	return 0;
}

int source_looks_like_mail(const char *buf, size_t len, unsigned flags)
{
	int bare = !(flags & SOURCE_MAIL_ONLY), cut = 0;
	size_t pos = 0, fields = 0;

	while (pos < len && isspace((unsigned char)buf[pos]))
		pos++;
	if (pos == len || (len - pos >= 5 && !memcmp(buf + pos, "From ", 5)))
		return 1;	/* empty (no message), or an mbox */
	if (len - pos > SOURCE_DETECT_BYTES) {
		len = pos + SOURCE_DETECT_BYTES;
		cut = 1;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (!nl && cut) {
			/* a header line (or block) longer than we look at is taken as one */
			if (fields || is_header_field(buf + pos, end - pos))
				return 1;
			break;
		}
		if (end == pos || (end == pos + 1 && buf[pos] == '\r'))
			break;	/* the blank line ending the header */
		if (buf[pos] == ' ' || buf[pos] == '\t') {
			if (!fields)
				return bare && looks_like_bare_patch(buf, len);
		} else if (!is_header_field(buf + pos, end - pos)) {
			/* after a field, a line without a colon ends the header, as for git mailinfo */
			return fields || (bare && looks_like_bare_patch(buf, len));
		}
		fields++;
		pos = end + 1;
	}
	return fields > 0;
}

static int not_mail(const char *origin)
{
	return error("patch format detection failed: %s%s%s is neither a mailbox nor a mail",
		     strcmp(origin, "-") ? "'" : "", strcmp(origin, "-") ? origin : "standard input",
		     strcmp(origin, "-") ? "'" : "");
}

int source_check_format(const char *const *args, size_t nargs, unsigned flags)
{
	char *buf = xmalloc(SOURCE_DETECT_BYTES + 1);
	int ret = 0;

	for (size_t i = 0; i < nargs && !ret; i++) {
		struct stat st;
		ssize_t n;
		int fd;

		if (!strcmp(args[i], "-") || stat(args[i], &st) < 0 || !S_ISREG(st.st_mode))
			continue;	/* stdin, a Maildir, fetched mail: checked as read, or mail by nature */
		fd = open(args[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* source_next() reports it */
		n = read_in_full(fd, buf, SOURCE_DETECT_BYTES + 1);
		close(fd);
		if (n >= 0 && !source_looks_like_mail(buf, (size_t)n, flags))
			ret = not_mail(args[i]);
	}
	free(buf);
	return ret;
}

int source_reads_terminal(const char *const *args, size_t nargs)
{
	if (!isatty(0))
		return 0;
	for (size_t i = 0; i < nargs; i++)
		if (!strcmp(args[i], "-"))
			return 1;
	return !nargs;
}

int source_open(struct mail_source **out, const char *const *args, size_t nargs, unsigned flags)
{
	struct mail_source *src;

	if (source_check_format(args, nargs, flags) < 0)
		return -1;
	src = xcalloc(1, sizeof(*src));

	src->stdin_args[0] = "-";
	if (!nargs) {
		args = src->stdin_args;
		nargs = 1;
	}
	src->args = args;
	src->nargs = nargs;
	src->flags = flags;
	src->max_size = SOURCE_MAX_SIZE_DEFAULT;
	src->fd = -1;
	src->win_off = -1;
	strbuf_init(&src->win, 0);
	strbuf_init(&src->msg, 0);
	strbuf_init(&src->fromline, 0);
	strbuf_init(&src->path, 0);
	*out = src;
	return 0;
}

int source_open_buffer(struct mail_source **out, const char *buf, size_t len,
		       const char *origin, unsigned flags)
{
	struct mail_source *src;

	source_open(&src, NULL, 0, flags);
	src->stdin_args[0] = origin;
	src->mem = buf;
	src->mem_len = len;
	src->is_mem = 1;
	*out = src;
	return 0;
}

void source_set_max_size(struct mail_source *src, size_t max)
{
	src->max_size = max ? max : (size_t)-1;
}

int source_config_max_size(const struct maint_config *cfg, size_t *out)
{
	const struct config_entry *e = config_get_entry(cfg, "mbox", NULL, "max-message-size");
	char *end;
	unsigned long long v;

	*out = SOURCE_MAX_SIZE_DEFAULT;
	if (!e)
		return 0;
	errno = 0;
	v = strtoull(e->value, &end, 10);
	if (errno || end == e->value || *end) {
		struct strbuf origin = STRBUF_INIT;

		config_entry_origin(&origin, e);
		error("%s: bad mbox.max-message-size '%s'", origin.buf, e->value);
		strbuf_release(&origin);
		return -1;
	}
	*out = v && v < SIZE_MAX ? (size_t)v : SIZE_MAX;
	return 0;
}

int source_opt_max_size(const struct option *opt, const char *arg, int unset)
{
	size_t *out = opt->value;
	unsigned long long v;
	char *end;

	if (unset) {
		*out = 0;
		return 0;
	}
	errno = 0;
	v = *arg >= '0' && *arg <= '9' ? strtoull(arg, &end, 10) : 0;
	if (*arg < '0' || *arg > '9' || errno || *end)
		return error("--max-message-size takes a number of bytes, not '%s'", arg);
	*out = v && v < SIZE_MAX ? (size_t)v : SIZE_MAX;
	return 0;
}

unsigned source_opts_flags(const struct source_opts *o)
{
	if (!o)
		return 0;
	return (o->input_mboxrd ? SOURCE_MBOXRD : 0) | (o->keep_cr ? SOURCE_KEEP_CR : 0);
}

int source_opts_max_size(const struct source_opts *o, const struct maint_config *cfg, size_t *out)
{
	if (o && o->max_size) {
		*out = o->max_size;
		return 0;
	}
	if (!cfg) {
		*out = SOURCE_MAX_SIZE_DEFAULT;
		return 0;
	}
	return source_config_max_size(cfg, out);
}

int source_configure(struct mail_source *src, const struct maint_config *cfg,
		     const struct source_opts *o)
{
	size_t max;

	if (source_opts_max_size(o, cfg, &max) < 0)
		return -1;
	source_set_max_size(src, max == SIZE_MAX ? 0 : max);
	return 0;
}

size_t source_oversized(const struct mail_source *src)
{
	return src->oversized;
}

void source_close(struct mail_source *src)
{
	if (!src)
		return;
	reset_input(src);
	strbuf_release(&src->win);
	strbuf_release(&src->msg);
	strbuf_release(&src->fromline);
	strbuf_release(&src->path);
	free(src);
}

/*
 * Stream mode: reads more into the window. Returns 1 if bytes were
 * added, 0 at end of input, -1 on error (reported).
 */
static int refill(struct mail_source *src)
{
	ssize_t n;

	if (src->eof)
		return 0;
	if (src->is_mem || src->fd < 0) {
		src->eof = 1;
		return 0;
	}
	strbuf_grow(&src->win, READ_CHUNK);
	/* strbuf_grow() may have moved the window, even when read() then finds nothing */
	src->data = src->win.buf;
	do {
		n = read(src->fd, src->win.buf + src->win.len, READ_CHUNK);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		src->eof = 1;
		return error_errno("cannot read '%s'", src->origin);
	}
	if (!n) {
		src->eof = 1;
		return 0;
	}
	strbuf_setlen(&src->win, src->win.len + n);
	src->data = src->win.buf;
	src->len = src->win.len;
	return 1;
}

/* Forgets the window's first n bytes (handed out already, or skipped). */
static void drop_front(struct mail_source *src, size_t n)
{
	strbuf_remove(&src->win, 0, n);
	if (src->win_off >= 0)
		src->win_off += n;
	src->pos -= n;
	src->data = src->win.buf;
	src->len = src->win.len;
}

/*
 * Forgets the bytes before pos (they were handed out already), so that
 * the window stays bounded by the largest message, whatever the size of
 * the mailbox. Only once they are as many as the bytes after them: each
 * byte is moved at most once on average, not once per message.
 */
static void compact(struct mail_source *src)
{
	if (src->is_mem || !src->pos || src->pos < src->len - src->pos)
		return;
	drop_front(src, src->pos);
}

/* Opens path (or stdin) as a window; a regular file read from its start knows its offsets. */
static int open_window(struct mail_source *src, const char *path, int fd)
{
	struct stat st;

	if (fd < 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error_errno("cannot open '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		int ret = error_errno("cannot stat '%s'", path);
		if (fd > 0)
			close(fd);
		return ret;
	}
	src->fd = fd;
	src->eof = 0;
	src->win_off = S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0 ? 0 : -1;
	src->data = src->win.buf;
	src->len = 0;
	return 0;
}

/* Makes sure the window holds at least want bytes past pos, if the input has them. */
static int ensure(struct mail_source *src, size_t want)
{
	while (src->len - src->pos < want) {
		int r = refill(src);
		if (r <= 0)
			return r;
	}
	return 1;
}

/*
 * Offset of the end of the line starting at off (after its '\n'),
 * refilling as needed; the end of input ends the last line. -1 on a read
 * error; -2 when the line alone is longer than the size limit (a pipe
 * is not read further for it).
 */
static ssize_t line_end(struct mail_source *src, size_t off)
{
	size_t scan = off;

	for (;;) {
		const char *nl = memchr(src->data + scan, '\n', src->len - scan);
		int r;

		if (nl)
			return nl - src->data + 1;
		if (src->len - off > src->max_size)
			return -2;
		scan = src->len;
		r = refill(src);
		if (r < 0)
			return -1;
		if (!r)
			return src->len;
	}
}

/* Decides what kind of input the window holds: mbox or one message. */
static int sniff(struct mail_source *src)
{
	ssize_t e;

	for (;;) {
		while (src->pos < src->len && isspace((unsigned char)src->data[src->pos]))
			src->pos++;
		if (src->pos < src->len)
			break;
		if (refill(src) <= 0) {
			src->kind = INPUT_DONE;	/* empty (or only blanks): no message */
			return 0;
		}
	}
	e = line_end(src, src->pos);
	if (e == -1)
		return -1;
	src->kind = e > 0 && mbox_is_from_line(src->data + src->pos, e - src->pos) ?
		    INPUT_MBOX : INPUT_SINGLE;
	if (src->kind == INPUT_SINGLE && (src->flags & SOURCE_STRICT))
		return error("'%s' is not an mbox", src->origin);
	/*
	 * What source_check_format() reads of a file: its start, not from
	 * where the blanks skipped above end (that may be mid-line).
	 */
	if (src->kind == INPUT_SINGLE &&
	    (ensure(src, SOURCE_DETECT_BYTES + 1) < 0 ||
	     !source_looks_like_mail(src->data, src->len < SOURCE_DETECT_BYTES + 1 ? src->len :
				     SOURCE_DETECT_BYTES + 1, src->flags)))
		return not_mail(src->origin);
	return 0;
}

static int is_gtfrom(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && p[n] == '>')
		n++;
	return n && len - n >= 5 && !memcmp(p + n, "From ", 5);
}

/* Sets out->buf to buf[0..len), rewritten for CRLF and mboxrd when needed. */
static void set_message(struct mail_source *src, struct raw_mail *out, const char *buf, size_t len,
			int mboxrd)
{
	int fix_cr = !(src->flags & SOURCE_KEEP_CR) && memchr(buf, '\r', len);
	int fix_gt = mboxrd && memmem(buf, len, ">From ", 6);
	const char *p = buf, *end = buf + len;

	if (!fix_cr && !fix_gt) {
		out->buf = buf;
		out->len = len;
		if (src->win_off >= 0 && buf >= src->win.buf && buf <= src->win.buf + src->win.len)
			out->offset = src->win_off + (buf - src->win.buf);
		return;
	}
	strbuf_reset(&src->msg);
	strbuf_grow(&src->msg, len);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		if (fix_gt && is_gtfrom(p, l)) {
			p++;
			l--;
		}
		if (fix_cr && l > 1 && p[l - 1] == '\n' && p[l - 2] == '\r') {
			strbuf_add(&src->msg, p, l - 2);
			strbuf_addch(&src->msg, '\n');
		} else {
			strbuf_add(&src->msg, p, l);
		}
		p += l;
	}
	out->buf = src->msg.buf;
	out->len = src->msg.len;
}

static int too_big(struct mail_source *src)
{
	src->oversized++;
	return error("%s: message %zu exceeds max size (%zu bytes)", src->origin, src->number,
		     src->max_size);
}

/* memmem(p, len, "\nFrom ", 6), with the mail core's line finder (a memchr() for 'F' stops too often in text). */
static const char *find_nl_from(const char *p, size_t len)
{
	const char *from = mail_find_line(p, len, "From ", 5);

	return from ? from - 1 : NULL;
}

/*
 * Finds the end of the message whose body starts at body: the start of
 * the next From line, or the end of input. Returns 0 and sets *end, or
 * -1 on a read error, or 1 when the message is larger than the limit
 * (then *end is where scanning stopped; the window keeps only the tail).
 */
static int find_message_end(struct mail_source *src, size_t body, size_t *end)
{
	size_t scan = body ? body - 1 : 0;
	int over = 0;

	for (;;) {
		const char *hit = find_nl_from(src->data + scan, src->len - scan);
		int r;

		if (hit) {
			size_t ls = hit - src->data + 1;
			ssize_t le = line_end(src, ls);

			if (le == -1)
				return -1;
			if (le > 0 && mbox_is_from_line(src->data + ls, le - ls) && ls >= body) {
				*end = ls;
				return over;
			}
			scan = ls;
			continue;
		}
		if (src->len - body > src->max_size && !over) {
			over = 1;
		}
		if (over && !src->is_mem && src->len - scan > 8) {
			/* drop what was scanned, keep a tail that may start "\nFrom " */
			src->pos = src->len - 6;
			drop_front(src, src->pos);
			body = scan = 0;
		} else if (src->len > 5) {
			scan = src->len - 5 > scan ? src->len - 5 : scan;
		}
		r = refill(src);
		if (r < 0)
			return -1;
		if (!r) {
			*end = src->len;
			return over;
		}
	}
}

static int next_in_mbox(struct mail_source *src, struct raw_mail *out)
{
	ssize_t fl_end;
	size_t body, end, fl_len;
	int r;

	compact(src);
	if (ensure(src, 1) <= 0 || src->pos >= src->len) {
		src->kind = INPUT_DONE;
		return 0;
	}
	fl_end = line_end(src, src->pos);
	if (fl_end < 0)
		return -1;	/* not -2: this line was found to be a From line */
	body = fl_end;
	src->number++;
	r = find_message_end(src, body, &end);
	if (r < 0)
		return -1;
	if (r > 0 || end - body > src->max_size) {
		src->pos = end;
		return too_big(src);
	}
	/* the window may have moved while reading: recompute pointers now */
	fl_len = body - src->pos;
	while (fl_len && (src->data[src->pos + fl_len - 1] == '\n' || src->data[src->pos + fl_len - 1] == '\r'))
		fl_len--;
	out->from_line = src->data + src->pos;
	out->from_line_len = fl_len;
	out->origin = src->origin;
	out->number = src->number;
	out->file = NULL;
	set_message(src, out, src->data + body, end - body, !!(src->flags & SOURCE_MBOXRD));
	src->pos = end;
	return 1;
}

static int next_single(struct mail_source *src, struct raw_mail *out)
{
	src->number++;
	while (!src->eof) {
		if (src->len - src->pos > src->max_size)
			break;
		if (refill(src) < 0)
			return -1;
	}
	if (src->len - src->pos > src->max_size) {
		/* drain the rest without keeping it */
		while (refill(src) > 0) {
			strbuf_reset(&src->win);
			src->len = src->pos = 0;
		}
		src->kind = INPUT_DONE;
		return too_big(src);
	}
	out->from_line = NULL;
	out->from_line_len = 0;
	out->origin = src->origin;
	out->number = src->number;
	out->file = NULL;
	set_message(src, out, src->data + src->pos, src->len - src->pos, 0);
	src->kind = INPUT_DONE;
	return 1;
}

/* git mailsplit's order for Maildir files: runs of digits compare as numbers. */
static int maildir_name_cmp(const void *va, const void *vb)
{
	return natural_cmp(*(const char *const *)va, *(const char *const *)vb);
}

static int list_maildir(struct mail_source *src, const char *dir)
{
	static const char *const subs[] = { "cur", "new" };
	size_t alloc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		DIR *d;
		struct dirent *de;

		strbuf_reset(&src->path);
		strbuf_addf(&src->path, "%s/%s", dir, subs[i]);
		d = opendir(src->path.buf);
		if (!d) {
			if (errno == ENOENT || errno == ENOTDIR)
				continue;
			return error_errno("cannot open Maildir '%s'", src->path.buf);
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			ALLOC_GROW(src->files, src->files_nr + 1, alloc);
			src->files[src->files_nr++] = xstrdup(de->d_name);
			/* keep the sub-folder in front: "cur/..." sorts before "new/..." */
			{
				char *full = xmalloc(strlen(subs[i]) + 1 + strlen(de->d_name) + 1);
				strcpy(full, subs[i]);
				strcat(full, "/");
				strcat(full, de->d_name);
				free(src->files[src->files_nr - 1]);
				src->files[src->files_nr - 1] = full;
			}
		}
		closedir(d);
	}
	if (src->files_nr)
		qsort(src->files, src->files_nr, sizeof(*src->files), maildir_name_cmp);
	return 0;
}

static int next_in_maildir(struct mail_source *src, struct raw_mail *out)
{
	ssize_t fl;
	size_t start = 0;

	if (src->fd > 0)
		close(src->fd);
	src->fd = -1;
	strbuf_reset(&src->win);
	src->len = src->pos = 0;
	src->eof = 0;

	if (src->files_next >= src->files_nr) {
		src->kind = INPUT_DONE;
		return 0;
	}
	strbuf_reset(&src->path);
	strbuf_addf(&src->path, "%s/%s", src->origin, src->files[src->files_next++]);
	src->number++;
	if (open_window(src, src->path.buf, -1) < 0)
		return -1;
	while (refill(src) > 0)
		if (src->len > src->max_size)
			break;
	if (src->len > src->max_size)
		return too_big(src);
	out->from_line = NULL;
	out->from_line_len = 0;
	fl = src->len ? line_end(src, 0) : 0;
	if (fl > 0 && mbox_is_from_line(src->data, fl)) {
		start = fl;
		out->from_line = src->data;
		out->from_line_len = fl;
		while (out->from_line_len && (src->data[out->from_line_len - 1] == '\n' ||
					      src->data[out->from_line_len - 1] == '\r'))
			out->from_line_len--;
	}
	out->origin = src->origin;
	out->number = src->number;
	out->file = src->path.buf;
	set_message(src, out, src->data + start, src->len - start, 0);
	return 1;
}

/* The next message fetched from elsewhere: a span of fetch's mapped file. */
static int next_fetched(struct mail_source *src, struct raw_mail *out)
{
	const struct fetched_input *in = src->fetched;
	const struct fetched_span *span;

	if (src->fetched_next >= in->nr) {
		src->kind = INPUT_DONE;
		return 0;
	}
	span = &in->spans[src->fetched_next++];
	src->number++;
	if (span->skipped_limit) {
		src->oversized++;
		return error("%s: message %zu exceeds max size (%zu bytes)", src->origin,
			     src->number, span->skipped_limit);
	}
	if (span->len > src->max_size)
		return too_big(src);
	out->from_line = NULL;
	out->from_line_len = 0;
	out->origin = src->origin;
	out->number = src->number;
	out->file = NULL;
	set_message(src, out, in->data + span->off, span->len, in->mboxrd);
	return 1;
}

/*
 * An argument that is no path: mail to fetch (an archive, an IMAP
 * folder), else a missing file. A path that exists always wins.
 */
static int start_fetched(struct mail_source *src, const char *arg)
{
	int saved = errno;

	if (fetch_arg_kind(arg) == FETCH_LOCAL) {
		errno = saved;
		src->kind = INPUT_DONE;
		return error_errno("cannot open '%s'", arg);
	}
	if (fetch_get(arg, &src->fetched) < 0) {
		src->kind = INPUT_DONE;
		return -1;
	}
	src->fetched_next = 0;
	src->kind = INPUT_FETCHED;
	return 0;
}

static int start_input(struct mail_source *src)
{
	const char *arg = src->args[src->next_arg++];
	struct stat st;

	reset_input(src);
	src->origin = arg;
	if (src->is_mem) {
		src->data = src->mem;
		src->len = src->mem_len;
		src->eof = 1;
		return sniff(src);
	}
	if (!strcmp(arg, "-")) {
		/*
		 * A command run with no mailbox waits for mail on the
		 * terminal; say so, or it looks hung (as git shortlog does).
		 */
		if (isatty(0))
			advise("reading mail from standard input, the terminal: end it with Ctrl-D\n"
			       "(or name a mailbox, a Maildir, a Message-ID or an archive URL)");
		if (open_window(src, "-", 0) < 0)
			return -1;
		return sniff(src);
	}
	if (stat(arg, &st) < 0)
		return start_fetched(src, arg);
	if (S_ISDIR(st.st_mode)) {
		src->kind = INPUT_MAILDIR;
		if (list_maildir(src, arg) < 0) {
			src->kind = INPUT_DONE;
			return -1;
		}
		return 0;
	}
	if (open_window(src, arg, -1) < 0) {
		src->kind = INPUT_DONE;
		return -1;
	}
	if (sniff(src) < 0) {
		src->kind = INPUT_DONE;
		return -1;
	}
	return 0;
}

int source_next(struct mail_source *src, struct raw_mail *out)
{
	out->offset = -1;
	for (;;) {
		int r = 0;

		switch (src->kind) {
		case INPUT_NONE:
		case INPUT_DONE:
			if (src->next_arg >= src->nargs) {
				reset_input(src);
				src->kind = INPUT_DONE;
				return 0;
			}
			if (start_input(src) < 0) {
				src->kind = INPUT_DONE;
				return -1;
			}
			continue;
		case INPUT_MBOX:
			r = next_in_mbox(src, out);
			break;
		case INPUT_SINGLE:
			r = next_single(src, out);
			break;
		case INPUT_MAILDIR:
			r = next_in_maildir(src, out);
			break;
		case INPUT_FETCHED:
			r = next_fetched(src, out);
			break;
		}
		if (r)
			return r;
	}
}
