/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The peel cache (see peel-cache.h): entries in an array, found by
 * object id through a hash map (hashmap.h).
 */
#include "peel-cache.h"
#include "hashmap.h"
#include "oid.h"
#include "strbuf.h"
#include "wrapper.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PEEL_CACHE_HEADER "# git-maint describe peel cache v1\n"

struct peel_cache {
	char *path;
	struct peel_entry *entries;
	size_t nr, alloc;
	struct hashmap by_oid;	/* object id -> index in entries */
	int dirty;
};

/* Entry i made findable by its id; a later duplicate stays hidden. */
static void index_entry(struct peel_cache *c, size_t i)
{
	int added;
	uint32_t *v = hashmap_put(&c->by_oid, c->entries[i].oid.id, GIT_OID_RAWSZ, &added);

	if (added)
		*v = (uint32_t)i;
}

static struct peel_entry *find(struct peel_cache *c, const git_oid *oid)
{
	const uint32_t *v = hashmap_get(&c->by_oid, oid->id, GIT_OID_RAWSZ);

	return v ? &c->entries[*v] : NULL;
}

/* 40 lower-case hex digits into oid; -1 on anything else. */
static int parse_oid(const char *p, git_oid *oid)
{
	static signed char val[256];
	size_t i;

	if (!val['1']) {
		memset(val, -1, sizeof(val));
		for (i = 0; i < 10; i++)
			val['0' + i] = (signed char)i;
		for (i = 0; i < 6; i++)
			val['a' + i] = (signed char)(10 + i);
	}
	for (i = 0; i < GIT_OID_RAWSZ; i++) {
		int hi = val[(unsigned char)p[2 * i]], lo;

		if (hi < 0)
			return -1;
		lo = val[(unsigned char)p[2 * i + 1]];
		if (lo < 0)
			return -1;
		oid->id[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

/* An optionally negative decimal ending at a space; -1 when malformed. */
static int parse_num(const char **pp, int64_t *out)
{
	const char *p = *pp;
	int neg = *p == '-';
	uint64_t v = 0;
	int digits = 0;

	p += neg;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (v > (uint64_t)INT64_MAX / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!digits || *p != ' ' || v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*pp = p + 1;
	return 0;
}

/* "<oid> <commit|-> <tagger-date> <commit-date> <0|1>" */
static int parse_line(const char *p, struct peel_entry *e)
{
	memset(e, 0, sizeof(*e));
	if (parse_oid(p, &e->oid) < 0 || p[GIT_OID_HEXSZ] != ' ')
		return -1;
	p += GIT_OID_HEXSZ + 1;
	if (*p == '-') {
		p++;
	} else {
		if (parse_oid(p, &e->commit) < 0)
			return -1;
		e->is_commit = 1;
		p += GIT_OID_HEXSZ;
	}
	if (*p++ != ' ' || parse_num(&p, &e->taggerdate) < 0 || parse_num(&p, &e->commit_date) < 0)
		return -1;
	if ((*p != '0' && *p != '1') || p[1])
		return -1;
	e->deref = *p == '1';
	return 0;
}

struct peel_cache *peel_cache_load(const char *path)
{
	struct peel_cache *c = xcalloc(1, sizeof(*c));
	struct strbuf buf = STRBUF_INIT;
	char *p, *eol;

	c->path = xstrdup(path);
	if (strbuf_read_file(&buf, path, 0) >= 0 && starts_with(buf.buf, PEEL_CACHE_HEADER)) {
		char *end = buf.buf + buf.len;

		for (p = buf.buf + strlen(PEEL_CACHE_HEADER); p < end; p = eol + 1) {
			struct peel_entry e;

			eol = memchr(p, '\n', end - p);
			if (!eol)
				break;	/* a torn last line */
			*eol = '\0';
			if (parse_line(p, &e) < 0) {
				c->nr = 0;	/* not ours: start again */
				c->dirty = 1;
				break;
			}
			ALLOC_GROW(c->entries, c->nr + 1, c->alloc);
			c->entries[c->nr++] = e;
		}
	}
	strbuf_release(&buf);
	for (size_t i = 0; i < c->nr; i++)
		index_entry(c, i);
	return c;
}

void peel_cache_free(struct peel_cache *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->entries);
	hashmap_release(&c->by_oid);
	free(c);
}

const struct peel_entry *peel_cache_get(struct peel_cache *c, const git_oid *oid)
{
	struct peel_entry *e = find(c, oid);

	if (e)
		e->used = 1;
	return e;
}

void peel_cache_put(struct peel_cache *c, const struct peel_entry *e)
{
	struct peel_entry *old = find(c, &e->oid);

	if (old) {
		*old = *e;
		old->used = 1;
		return;
	}
	ALLOC_GROW(c->entries, c->nr + 1, c->alloc);
	c->entries[c->nr] = *e;
	c->entries[c->nr].used = 1;
	c->nr++;
	c->dirty = 1;
	index_entry(c, c->nr - 1);
}

void peel_cache_save(struct peel_cache *c, int prune)
{
	struct strbuf out = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t i, unused = 0;
	char hex[GIT_OID_HEXSZ + 1], chex[GIT_OID_HEXSZ + 1];
	const char *slash;
	int fd, ok;

	for (i = 0; i < c->nr; i++)
		unused += !c->entries[i].used;
	if (!c->dirty && !(prune && unused))
		return;
	strbuf_addstr(&out, PEEL_CACHE_HEADER);
	for (i = 0; i < c->nr; i++) {
		const struct peel_entry *e = &c->entries[i];

		if (prune && !e->used)
			continue;
		oid_to_hex(&e->oid, hex);
		if (e->is_commit)
			oid_to_hex(&e->commit, chex);
		else
			strcpy(chex, "-");
		strbuf_addf(&out, "%s %s %" PRId64 " %" PRId64 " %d\n", hex, chex,
			    e->taggerdate, e->commit_date, e->deref ? 1 : 0);
	}
	slash = strrchr(c->path, '/');
	if (slash) {
		strbuf_add(&tmp, c->path, slash - c->path);
		if (mkdir(tmp.buf, 0777) < 0 && errno != EEXIST)
			goto cleanup;
		strbuf_reset(&tmp);
	}
	strbuf_addf(&tmp, "%s.XXXXXX", c->path);
	fd = mkstemp(tmp.buf);
	if (fd < 0)
		goto cleanup;
	fchmod(fd, 0644);	/* a cache anyone who can read the repository may read */
	ok = write_in_full(fd, out.buf, out.len) >= 0;
	if (close(fd) < 0)
		ok = 0;
	if (!ok || rename(tmp.buf, c->path) < 0)
		unlink(tmp.buf);
	else
		c->dirty = 0;
cleanup:
	strbuf_release(&out);
	strbuf_release(&tmp);
}
