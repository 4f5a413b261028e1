/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "spool.h"
#include "usage.h"
#include "wrapper.h"

int spool_open(struct spool *s)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;

	if (!dir || !*dir)
		dir = "/tmp";
	s->size = 0;
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd >= 0)
		return 0;
	/* O_TMPFILE unsupported by this filesystem: create and unlink at once. */
	strbuf_addf(&path, "%s/git-maint-spool-XXXXXX", dir);
	s->fd = mkostemp(path.buf, O_CLOEXEC);
	if (s->fd < 0) {
		error_errno("cannot create a temporary file in '%s'", dir);
		strbuf_release(&path);
		return -1;
	}
	unlink(path.buf);
	strbuf_release(&path);
	return 0;
}

int spool_add(struct spool *s, const void *buf, size_t len, off_t *off)
{
	if (s->fd < 0 && spool_open(s) < 0)
		return -1;
	if (write_in_full(s->fd, buf, len) < 0)
		return error_errno("cannot write to the temporary file");
	*off = s->size;
	s->size += len;
	return 0;
}

int spool_read(struct spool *s, off_t off, size_t len, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_grow(out, len);
	if (pread_in_full(s->fd, out->buf, len, off) != (ssize_t)len)
		return error_errno("cannot read back the temporary file");
	strbuf_setlen(out, len);
	return 0;
}

void spool_close(struct spool *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->size = 0;
}
