/* SPDX-License-Identifier: GPL-2.0-only */
#include "strbuf.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *ret;

	strbuf_grow(sb, 0);
	ret = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return ret;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = !sb->alloc;
	size_t want = st_add(st_add(sb->len, extra), 1);

	if (fresh)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, want, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen(%zu) beyond allocation", len);
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addstr_lower(struct strbuf *sb, const char *s)
{
	size_t at = sb->len;

	strbuf_addstr(sb, s);
	for (char *c = sb->buf + at; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c += 'a' - 'A';
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_grow(sb, other->len);
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_splice(struct strbuf *sb, size_t pos, size_t len, const void *data, size_t dlen)
{
	if (st_add(pos, len) > sb->len)
		BUG("strbuf_splice beyond end");
	strbuf_grow(sb, dlen);
	memmove(sb->buf + pos + dlen, sb->buf + pos + len, sb->len - pos - len);
	memcpy(sb->buf + pos, data, dlen);
	strbuf_setlen(sb, sb->len + dlen - len);
}

void strbuf_remove(struct strbuf *sb, size_t pos, size_t len)
{
	strbuf_splice(sb, pos, len, "", 0);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

void strbuf_ltrim(struct strbuf *sb)
{
	size_t i = 0;

	while (i < sb->len && isspace((unsigned char)sb->buf[i]))
		i++;
	if (i)
		strbuf_remove(sb, 0, i);
}

void strbuf_trim(struct strbuf *sb)
{
	strbuf_rtrim(sb);
	strbuf_ltrim(sb);
}

int strbuf_cmp(const struct strbuf *a, const struct strbuf *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int cmp = memcmp(a->buf, b->buf, n);

	if (cmp)
		return cmp;
	return a->len < b->len ? -1 : a->len != b->len;
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint)
{
	size_t start = sb->len;

	strbuf_grow(sb, hint ? hint : 8192);
	for (;;) {
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_setlen(sb, start);
			return -1;
		}
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + n);
		strbuf_grow(sb, 8192);
	}
	return sb->len - start;
}

ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = strbuf_read_fd(sb, fd, hint);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

int strbuf_getline(struct strbuf *sb, FILE *fp)
{
	int c;

	strbuf_reset(sb);
	while ((c = getc(fp)) != EOF && c != '\n')
		strbuf_addch(sb, c);
	if (c == EOF && !sb->len)
		return EOF;
	if (c == '\n' && sb->len && sb->buf[sb->len - 1] == '\r')
		strbuf_setlen(sb, sb->len - 1);
	return 0;
}

int skip_prefix(const char *str, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);

	if (strncmp(str, prefix, n))
		return 0;
	*out = str + n;
	return 1;
}

int starts_with(const char *str, const char *prefix)
{
	return !strncmp(str, prefix, strlen(prefix));
}

int ends_with(const char *str, const char *suffix)
{
	size_t n = strlen(str), m = strlen(suffix);

	return n >= m && !memcmp(str + n - m, suffix, m);
}

int skip_iprefix(const char *str, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);

	if (strncasecmp(str, prefix, n))
		return 0;
	*out = str + n;
	return 1;
}

int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea, *eb;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = ea - a;
			lb = eb - b;
			if (la != lb)
				return la < lb ? -1 : 1;
			c = memcmp(a, b, la);
			if (c)
				return c < 0 ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : (*b ? -1 : 0);
}

int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *hex_encode(char *out, const void *raw, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = raw;

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 0xf];
	}
	out[2 * len] = '\0';
	return out;
}

/*
 * git's units: over a GiB in GiB, over a MiB in MiB, over a KiB in KiB,
 * with two decimals (the MiB and KiB ones rounded to the nearest
 * hundredth, the GiB one truncated, as git has them); else in bytes.
 */
static void humanise(struct strbuf *sb, uint64_t n, int rate)
{
	const char *per = rate ? "/s" : "";

	if (n > (1u << 30)) {
		strbuf_addf(sb, "%llu.%2.2u GiB%s", (unsigned long long)(n >> 30),
			    (unsigned)((n & ((1u << 30) - 1)) / 10737419), per);
	} else if (n > (1u << 20)) {
		uint64_t x = n + 5243;	/* half a hundredth of a MiB */

		strbuf_addf(sb, "%u.%2.2u MiB%s", (unsigned)(x >> 20),
			    (unsigned)(((x & ((1u << 20) - 1)) * 100) >> 20), per);
	} else if (n > (1u << 10)) {
		uint64_t x = n + 5;	/* half a hundredth of a KiB */

		strbuf_addf(sb, "%u.%2.2u KiB%s", (unsigned)(x >> 10),
			    (unsigned)(((x & ((1u << 10) - 1)) * 100) >> 10), per);
	} else if (rate) {
		strbuf_addf(sb, "%u bytes/s", (unsigned)n);
	} else {
		strbuf_addf(sb, "%u %s", (unsigned)n, n == 1 ? "byte" : "bytes");
	}
}

void strbuf_humanise_bytes(struct strbuf *sb, uint64_t bytes)
{
	humanise(sb, bytes, 0);
}

void strbuf_humanise_rate(struct strbuf *sb, uint64_t bytes_per_second)
{
	humanise(sb, bytes_per_second, 1);
}
