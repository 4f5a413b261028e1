/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reader of git's commit-graph file format (see commit-graph.h). The
 * files are mapped read-only; each layer is validated when opened.
 */
#include "commit-graph.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define GRAPH_SIGNATURE 0x43475048u	/* "CGPH" */
#define CHUNK_OIDF 0x4f494446u
#define CHUNK_OIDL 0x4f49444cu
#define CHUNK_CDAT 0x43444154u
#define CHUNK_GDA2 0x47444132u
#define CHUNK_GDO2 0x47444f32u
#define CHUNK_EDGE 0x45444745u
#define CHUNK_BASE 0x42415345u

#define PARENT_NONE 0x70000000u
#define PARENT_EXTRA 0x80000000u
#define GDA2_OVERFLOW 0x80000000u
#define CDAT_ENTRY (COMMIT_GRAPH_HASH_LEN + 16)

struct graph_layer {
	unsigned char *map;
	size_t size;
	char *path;
	uint32_t nr;		/* commits in this layer */
	uint32_t base;		/* commits in the layers below */
	const unsigned char *fanout, *oids, *cdat, *gda2, *gdo2, *edge;
	size_t gdo2_nr, edge_nr;
};

struct commit_graph {
	struct graph_layer *layers;
	unsigned nr_layers;
	uint32_t nr;
	int gen_v2;
};

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static void layer_release(struct graph_layer *l)
{
	if (l->map)
		munmap(l->map, l->size);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/* Maps path into l. Returns 0, 1 when the file does not exist, -1 on error. */
static int layer_map(struct graph_layer *l, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		return error_errno("cannot open commit-graph '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return error_errno("cannot stat commit-graph '%s'", path);
	}
	l->path = xstrdup(path);
	l->size = (size_t)st.st_size;
	if (l->size < 8 + 12 + 20) {
		close(fd);
		return error("commit-graph '%s' is too small", path);
	}
	l->map = mmap(NULL, l->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		return error_errno("cannot map commit-graph '%s'", path);
	}
	return 0;
}

/* Checks the header and chunk table; sets the chunk pointers. */
static int layer_parse(struct graph_layer *l, unsigned expect_bases, const unsigned char *base_hashes)
{
	const unsigned char *m = l->map;
	unsigned nr_chunks, i;
	size_t toc_end, end = l->size - COMMIT_GRAPH_HASH_LEN;	/* trailing checksum */
	size_t cdat_len = 0, oidl_len = 0, gda2_len = 0, fanout_len = 0, base_len = 0;
	const unsigned char *base = NULL;

	if (get_be32(m) != GRAPH_SIGNATURE)
		return error("commit-graph '%s' has a bad signature", l->path);
	if (m[4] != 1)
		return error("commit-graph '%s' has unknown version %u", l->path, m[4]);
	if (m[5] != 1)
		return error("commit-graph '%s' is not a SHA-1 graph", l->path);
	nr_chunks = m[6];
	if (m[7] != expect_bases)
		return error("commit-graph '%s' has %u base graphs, expected %u",
			     l->path, m[7], expect_bases);
	toc_end = 8 + ((size_t)nr_chunks + 1) * 12;
	if (toc_end > end)
		return error("commit-graph '%s' is truncated", l->path);

	for (i = 0; i < nr_chunks; i++) {
		const unsigned char *t = m + 8 + (size_t)i * 12;
		uint32_t id = get_be32(t);
		uint64_t off = get_be64(t + 4), next = get_be64(t + 16);
		const unsigned char *p;
		size_t len;

		if (off < toc_end || next < off || next > end)
			return error("commit-graph '%s' has a bad chunk table", l->path);
		p = m + off;
		len = (size_t)(next - off);
		switch (id) {
		case CHUNK_OIDF: l->fanout = p; fanout_len = len; break;
		case CHUNK_OIDL: l->oids = p; oidl_len = len; break;
		case CHUNK_CDAT: l->cdat = p; cdat_len = len; break;
		case CHUNK_GDA2: l->gda2 = p; gda2_len = len; break;
		case CHUNK_GDO2: l->gdo2 = p; l->gdo2_nr = len / 8; break;
		case CHUNK_EDGE: l->edge = p; l->edge_nr = len / 4; break;
		case CHUNK_BASE: base = p; base_len = len; break;
		default: break;	/* bloom filters and future chunks */
		}
	}
	if (!l->fanout || !l->oids || !l->cdat || fanout_len != 256 * 4)
		return error("commit-graph '%s' lacks a required chunk", l->path);
	l->nr = get_be32(l->fanout + 255 * 4);
	for (i = 1; i < 256; i++)
		if (get_be32(l->fanout + i * 4) < get_be32(l->fanout + (i - 1) * 4))
			return error("commit-graph '%s' has a bad fanout", l->path);
	if (oidl_len != (size_t)l->nr * COMMIT_GRAPH_HASH_LEN ||
	    cdat_len != (size_t)l->nr * CDAT_ENTRY ||
	    (l->gda2 && gda2_len != (size_t)l->nr * 4))
		return error("commit-graph '%s' has chunks of the wrong size", l->path);
	if (expect_bases) {
		if (!base || base_len != (size_t)expect_bases * COMMIT_GRAPH_HASH_LEN ||
		    memcmp(base, base_hashes, base_len))
			return error("commit-graph '%s' does not match its chain", l->path);
	}
	return 0;
}

static int hex_to_raw(const char *hex, size_t len, unsigned char *out)
{
	size_t i;

	if (len != 2 * COMMIT_GRAPH_HASH_LEN)
		return -1;
	for (i = 0; i < len; i++) {
		int c = hex[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			return -1;
		if (i % 2)
			out[i / 2] |= v;
		else
			out[i / 2] = v << 4;
	}
	return 0;
}

/* Returns 0, 1 when path does not exist, -1 on error. */
static int add_layer(struct commit_graph *g, const char *path, const unsigned char *base_hashes)
{
	struct graph_layer l = { 0 };
	int rc = layer_map(&l, path);

	if (rc) {
		layer_release(&l);
		return rc;
	}
	if (layer_parse(&l, g->nr_layers, base_hashes) < 0) {
		layer_release(&l);
		return -1;
	}
	if ((uint64_t)g->nr + l.nr > 0x7fffffffu) {
		layer_release(&l);
		return error("commit-graph '%s' holds too many commits", path);
	}
	l.base = g->nr;
	g->nr += l.nr;
	g->layers = xrealloc(g->layers, st_mult(sizeof(*g->layers), g->nr_layers + 1));
	g->layers[g->nr_layers++] = l;
	return 0;
}

static int open_chain(struct commit_graph *g, const char *objects_dir)
{
	struct strbuf path = STRBUF_INIT, chain = STRBUF_INIT;
	unsigned char *hashes = NULL;
	size_t nr = 0, alloc = 0;
	const char *p, *eol;
	int ret = 0;

	strbuf_addf(&path, "%s/info/commit-graphs/commit-graph-chain", objects_dir);
	if (strbuf_read_file(&chain, path.buf, 256) < 0) {
		if (errno != ENOENT)
			ret = error_errno("cannot read '%s'", path.buf);
		goto cleanup;
	}
	for (p = chain.buf; p < chain.buf + chain.len; p = eol + 1) {
		size_t len;

		eol = memchr(p, '\n', chain.buf + chain.len - p);
		if (!eol)
			eol = chain.buf + chain.len;
		len = eol - p;
		if (!len)
			continue;
		ALLOC_GROW(hashes, st_mult(nr + 1, COMMIT_GRAPH_HASH_LEN), alloc);
		if (hex_to_raw(p, len, hashes + nr * COMMIT_GRAPH_HASH_LEN) < 0) {
			ret = error("bad line in '%s'", path.buf);
			goto cleanup;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/info/commit-graphs/graph-%.*s.graph",
			    objects_dir, (int)len, p);
		ret = add_layer(g, path.buf, hashes);
		if (ret) {
			if (ret > 0)
				ret = error("commit-graph chain names missing file '%s'", path.buf);
			goto cleanup;
		}
		nr++;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/info/commit-graphs/commit-graph-chain", objects_dir);
	}
cleanup:
	free(hashes);
	strbuf_release(&path);
	strbuf_release(&chain);
	return ret;
}

int commit_graph_open(struct commit_graph **out, const char *objects_dir)
{
	struct commit_graph *g = xcalloc(1, sizeof(*g));
	struct strbuf path = STRBUF_INIT;
	unsigned i;
	int rc;

	*out = NULL;
	/* The single file wins over a chain, as in git. */
	strbuf_addf(&path, "%s/info/commit-graph", objects_dir);
	rc = add_layer(g, path.buf, NULL);
	strbuf_release(&path);
	if (rc < 0 || (rc > 0 && open_chain(g, objects_dir) < 0))
		goto fail;
	if (!g->nr_layers) {
		commit_graph_free(g);
		return 0;
	}
	g->gen_v2 = 1;
	for (i = 0; i < g->nr_layers; i++)
		if (!g->layers[i].gda2)
			g->gen_v2 = 0;
	*out = g;
	return 0;
fail:
	commit_graph_free(g);
	return -1;
}

int commit_graph_open_file(struct commit_graph **out, const char *path)
{
	struct commit_graph *g = xcalloc(1, sizeof(*g));
	int rc = add_layer(g, path, NULL);

	*out = NULL;
	if (rc) {
		commit_graph_free(g);
		return rc < 0 ? -1 : 0;
	}
	*out = g;
	return 0;
}

void commit_graph_free(struct commit_graph *g)
{
	unsigned i;

	if (!g)
		return;
	for (i = 0; i < g->nr_layers; i++)
		layer_release(&g->layers[i]);
	free(g->layers);
	free(g);
}

uint32_t commit_graph_nr(const struct commit_graph *g)
{
	return g->nr;
}

unsigned commit_graph_layers(const struct commit_graph *g)
{
	return g->nr_layers;
}

int commit_graph_generation_version(const struct commit_graph *g)
{
	return g->gen_v2 ? 2 : 1;
}

int commit_graph_find(const struct commit_graph *g, const unsigned char *oid, uint32_t *pos)
{
	unsigned i;

	for (i = g->nr_layers; i-- > 0;) {
		const struct graph_layer *l = &g->layers[i];
		uint32_t lo = oid[0] ? get_be32(l->fanout + (oid[0] - 1) * 4) : 0;
		uint32_t hi = get_be32(l->fanout + oid[0] * 4);

		if (hi > l->nr)
			hi = l->nr;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int cmp = memcmp(oid, l->oids + (size_t)mid * COMMIT_GRAPH_HASH_LEN,
					 COMMIT_GRAPH_HASH_LEN);

			if (!cmp) {
				*pos = l->base + mid;
				return 1;
			}
			if (cmp < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	return 0;
}

static const struct graph_layer *layer_of(const struct commit_graph *g, uint32_t pos)
{
	unsigned i = g->nr_layers;

	while (i-- > 0)
		if (pos >= g->layers[i].base)
			return &g->layers[i];
	return &g->layers[0];
}

const unsigned char *commit_graph_oid(const struct commit_graph *g, uint32_t pos)
{
	const struct graph_layer *l = layer_of(g, pos);

	return l->oids + (size_t)(pos - l->base) * COMMIT_GRAPH_HASH_LEN;
}

static int push_parent(const struct commit_graph *g, const struct graph_layer *l, uint32_t p,
		       uint32_t **parents, size_t *nr, size_t *alloc)
{
	/* A layer's parents live in it or in the layers below it. */
	if (p >= l->base + l->nr || p >= g->nr)
		return error("commit-graph '%s' names a parent out of range", l->path);
	ALLOC_GROW(*parents, *nr + 1, *alloc);
	(*parents)[(*nr)++] = p;
	return 0;
}

int commit_graph_read(const struct commit_graph *g, uint32_t pos,
		      struct commit_graph_entry *e,
		      uint32_t **parents, size_t *nr, size_t *alloc)
{
	const struct graph_layer *l = layer_of(g, pos);
	uint32_t i = pos - l->base;
	const unsigned char *c = l->cdat + (size_t)i * CDAT_ENTRY + COMMIT_GRAPH_HASH_LEN;
	uint32_t p1 = get_be32(c), p2 = get_be32(c + 4), hi = get_be32(c + 8);
	uint64_t date = ((uint64_t)(hi & 3) << 32) | get_be32(c + 12);

	e->date = (int64_t)date;
	if (g->gen_v2) {
		uint32_t off = get_be32(l->gda2 + (size_t)i * 4);

		if (off & GDA2_OVERFLOW) {
			off &= ~GDA2_OVERFLOW;
			if (off >= l->gdo2_nr)
				return error("commit-graph '%s' has a bad generation overflow index",
					     l->path);
			e->generation = date + get_be64(l->gdo2 + (size_t)off * 8);
		} else {
			e->generation = date + off;
		}
	} else {
		e->generation = hi >> 2;
	}

	if (p1 == PARENT_NONE)
		return 0;
	if (push_parent(g, l, p1, parents, nr, alloc) < 0)
		return -1;
	if (p2 == PARENT_NONE)
		return 0;
	if (!(p2 & PARENT_EXTRA))
		return push_parent(g, l, p2, parents, nr, alloc);
	for (p2 &= ~PARENT_EXTRA; ; p2++) {
		uint32_t v;

		if (p2 >= l->edge_nr)
			return error("commit-graph '%s' has a bad extra-edge index", l->path);
		v = get_be32(l->edge + (size_t)p2 * 4);
		if (push_parent(g, l, v & ~PARENT_EXTRA, parents, nr, alloc) < 0)
			return -1;
		if (v & PARENT_EXTRA)
			return 0;
	}
}

static void put_be32(struct strbuf *sb, uint32_t v)
{
	unsigned char b[4] = { v >> 24, v >> 16, v >> 8, v };

	strbuf_add(sb, b, 4);
}

static void put_be64(struct strbuf *sb, uint64_t v)
{
	put_be32(sb, (uint32_t)(v >> 32));
	put_be32(sb, (uint32_t)v);
}

int commit_graph_write_file(const char *path, const struct commit_graph_commit *commits,
			    uint32_t nr)
{
	struct strbuf out = STRBUF_INIT, edges = STRBUF_INIT, tmp = STRBUF_INIT;
	uint32_t fanout[256] = { 0 }, i;
	uint64_t off;
	unsigned nr_chunks;
	int fd, ret = -1;

	for (i = 0; i < nr; i++)
		fanout[commits[i].oid[0]]++;
	for (i = 1; i < 256; i++)
		fanout[i] += fanout[i - 1];
	/* extra edges of octopus merges */
	for (i = 0; i < nr; i++) {
		uint32_t k;

		for (k = 1; commits[i].nr_parents > 2 && k < commits[i].nr_parents; k++)
			put_be32(&edges, commits[i].parents[k] |
					 (k + 1 == commits[i].nr_parents ? PARENT_EXTRA : 0));
	}
	nr_chunks = edges.len ? 4 : 3;

	put_be32(&out, GRAPH_SIGNATURE);
	strbuf_addch(&out, 1);	/* version */
	strbuf_addch(&out, 1);	/* SHA-1 */
	strbuf_addch(&out, (char)nr_chunks);
	strbuf_addch(&out, 0);	/* no base graphs */
	off = 8 + (uint64_t)(nr_chunks + 1) * 12;
	put_be32(&out, CHUNK_OIDF);
	put_be64(&out, off);
	off += 256 * 4;
	put_be32(&out, CHUNK_OIDL);
	put_be64(&out, off);
	off += (uint64_t)nr * COMMIT_GRAPH_HASH_LEN;
	put_be32(&out, CHUNK_CDAT);
	put_be64(&out, off);
	off += (uint64_t)nr * CDAT_ENTRY;
	if (edges.len) {
		put_be32(&out, CHUNK_EDGE);
		put_be64(&out, off);
		off += edges.len;
	}
	put_be32(&out, 0);
	put_be64(&out, off);

	for (i = 0; i < 256; i++)
		put_be32(&out, fanout[i]);
	for (i = 0; i < nr; i++)
		strbuf_add(&out, commits[i].oid, COMMIT_GRAPH_HASH_LEN);
	{
		uint32_t edge_at = 0;

		for (i = 0; i < nr; i++) {
			const struct commit_graph_commit *c = &commits[i];
			uint64_t date = c->date < 0 ? 0 : (uint64_t)c->date;
			uint32_t level = c->level > 0x3fffffff ? 0x3fffffff : c->level;

			strbuf_addchars(&out, 0, COMMIT_GRAPH_HASH_LEN);	/* tree: not needed */
			put_be32(&out, c->nr_parents ? c->parents[0] : PARENT_NONE);
			if (c->nr_parents < 2) {
				put_be32(&out, PARENT_NONE);
			} else if (c->nr_parents == 2) {
				put_be32(&out, c->parents[1]);
			} else {
				put_be32(&out, edge_at | PARENT_EXTRA);
				edge_at += c->nr_parents - 1;
			}
			put_be32(&out, level << 2 | (uint32_t)((date >> 32) & 3));
			put_be32(&out, (uint32_t)date);
		}
	}
	strbuf_addbuf(&out, &edges);
	strbuf_addchars(&out, 0, COMMIT_GRAPH_HASH_LEN);	/* checksum not computed */

	strbuf_addf(&tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0)
		goto cleanup;
	fchmod(fd, 0644);
	ret = write_in_full(fd, out.buf, out.len) < 0 ? -1 : 0;
	if (close(fd) < 0)
		ret = -1;
	if (!ret && rename(tmp.buf, path) < 0)
		ret = -1;
	if (ret)
		unlink(tmp.buf);
cleanup:
	strbuf_release(&out);
	strbuf_release(&edges);
	strbuf_release(&tmp);
	return ret;
}
