/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory for passwords (see secmem.h).
 */
#include "secmem.h"
#include "usage.h"
#include "wrapper.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* Each allocation is its own mapping; its first bytes say how long it is. */
struct secmem_head {
	size_t map_len;
	size_t pad;	/* keeps what follows aligned as malloc()'s memory is */
};

void secmem_wipe(void *p, size_t len)
{
	if (p && len)
		explicit_bzero(p, len);
}

char *secmem_alloc(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = st_add(st_add(size, sizeof(struct secmem_head)), page - 1) / page * page;
	struct secmem_head *h;

	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED)
		die_errno("cannot allocate %zu bytes for a password", size);
	/* best effort: RLIMIT_MEMLOCK may be small; the process is undumpable anyway */
	(void)mlock(h, len);
	(void)madvise(h, len, MADV_DONTDUMP);
	h->map_len = len;
	return (char *)(h + 1);
}

char *secmem_strndup(const char *s, size_t len)
{
	char *p = secmem_alloc(st_add(len, 1));

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void secmem_free(char *p)
{
	struct secmem_head *h;
	size_t len;

	if (!p)
		return;
	h = (struct secmem_head *)p - 1;
	len = h->map_len;
	explicit_bzero(h, len);
	munlock(h, len);
	munmap(h, len);
}

void secmem_protect_process(void)
{
	static int done;
	struct rlimit none = { 0, 0 };

	if (done)
		return;
	done = 1;
	(void)setrlimit(RLIMIT_CORE, &none);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
