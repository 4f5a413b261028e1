/* SPDX-License-Identifier: GPL-2.0-only */
#include "objwrite.h"
#include "hashmap.h"
#include "packwrite.h"
#include "repo.h"
#include "sha1.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <git2/sys/odb_backend.h>

/*
 * The in-memory store: an object database backend holding the objects
 * written since the last flush (id, type, bytes) in their order of
 * arrival (for the pack), found by id through a hashmap. libgit2's own mempack
 * is not used: its dump packs whole commits with everything they reach
 * (old objects included) and leaves out objects no commit reaches yet
 * (notes blobs before their notes commit).
 */
struct memobj {
	git_oid oid;
	git_object_t type;
	size_t len;
	char *data;		/* just after the struct, or a buffer it took over (objwrite_object_move()) */
};

/* An object of the store, its data a copy of data[0..len) or, with take, data itself. */
static struct memobj *memobj_new(const git_oid *oid, git_object_t type, const void *data, size_t len,
				 int take)
{
	struct memobj *o = xmalloc(take ? sizeof(*o) : st_add(sizeof(*o), len));

	git_oid_cpy(&o->oid, oid);
	o->type = type;
	o->len = len;
	if (take) {
		o->data = (char *)data;
	} else {
		o->data = (char *)(o + 1);
		memcpy(o->data, data, len);
	}
	return o;
}

static void memobj_free(struct memobj *o)
{
	if (o->data != (char *)(o + 1))
		free(o->data);
	free(o);
}

struct memstore {
	git_odb_backend parent;
	struct hashmap by_oid;	/* id -> index in order */
	struct memobj **order;	/* in arrival order */
	size_t order_nr, order_alloc;
	size_t bytes;		/* their contents */
};

static struct memobj *store_find(const struct memstore *ms, const git_oid *oid)
{
	const uint32_t *v = hashmap_get(&ms->by_oid, oid->id, GIT_OID_RAWSZ);

	return v ? ms->order[*v] : NULL;
}

/* o, whose id is not in the store yet, added. */
static void store_put(struct memstore *ms, struct memobj *o)
{
	*hashmap_put(&ms->by_oid, o->oid.id, GIT_OID_RAWSZ, NULL) = (uint32_t)ms->order_nr;
	ALLOC_GROW(ms->order, ms->order_nr + 1, ms->order_alloc);
	ms->order[ms->order_nr++] = o;
	ms->bytes += o->len;
}

static void store_clear(struct memstore *ms)
{
	for (size_t i = 0; i < ms->order_nr; i++)
		memobj_free(ms->order[i]);
	hashmap_release(&ms->by_oid);
	free(ms->order);
	ms->order = NULL;
	ms->order_nr = ms->order_alloc = 0;
	ms->bytes = 0;
}

static int ms_read(void **buf, size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *oid)
{
	struct memobj *o = store_find((struct memstore *)b, oid);

	if (!o)
		return GIT_ENOTFOUND;
	*buf = git_odb_backend_data_alloc(b, o->len + 1);
	if (!*buf)
		return -1;
	memcpy(*buf, o->data, o->len);
	((char *)*buf)[o->len] = '\0';
	*len = o->len;
	*type = o->type;
	return 0;
}

static int ms_read_header(size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *oid)
{
	struct memobj *o = store_find((struct memstore *)b, oid);

	if (!o)
		return GIT_ENOTFOUND;
	*len = o->len;
	*type = o->type;
	return 0;
}

static int ms_exists(git_odb_backend *b, const git_oid *oid)
{
	return store_find((struct memstore *)b, oid) != NULL;
}

static int ms_write(git_odb_backend *b, const git_oid *oid, const void *data, size_t len,
		    git_object_t type)
{
	struct memstore *ms = (struct memstore *)b;

	if (!store_find(ms, oid))
		store_put(ms, memobj_new(oid, type, data, len, 0));
	return 0;
}

int objwrite_hash(git_oid *out, git_object_t type, const void *data, size_t len)
{
	return lg2_check(git_odb_hash(out, data, len, type), "cannot hash %s object",
			 git_object_type2string(type));
}

/*
 * data[0..len) hashed into out and added to the batch unless present
 * already (in the batch, or in a pack or loose file we know of): 1 when
 * added (with take, the batch owns data now), 0 when present, -1.
 */
static int batch_add(struct objwrite *ow, git_oid *out, const void *data, size_t len,
		     git_object_t type, int take)
{
	if (objwrite_hash(out, type, data, len) < 0)
		return -1;
	if (git_odb_exists_ext(ow->odb, out, GIT_ODB_LOOKUP_NO_REFRESH) == 1 ||
	    store_find(ow->store, out))
		return 0;
	store_put(ow->store, memobj_new(out, type, data, len, take));
	return 1;
}

int objwrite_put(struct objwrite *ow, git_oid *out, const void *data, size_t len,
		 git_object_t type)
{
	return batch_add(ow, out, data, len, type, 0) < 0 ? -1 : 0;
}

int objwrite_object_move(struct objwrite *ow, git_repository *repo, git_oid *out, struct strbuf *data,
			 git_object_t type)
{
	int added;

	if (!ow) {
		if (objwrite_object(NULL, repo, out, data->buf, data->len, type) < 0)
			return -1;
		strbuf_release(data);
		return 0;
	}
	added = batch_add(ow, out, data->buf, data->len, type, 1);
	if (added < 0)
		return -1;
	if (added)
		strbuf_detach(data, NULL);	/* the batch's now */
	strbuf_release(data);
	return 0;
}

size_t objwrite_pending(const struct objwrite *ow)
{
	return ow->store ? ow->store->bytes : 0;
}

int objwrite_object(struct objwrite *ow, git_repository *repo, git_oid *out, const void *data,
		    size_t len, git_object_t type)
{
	git_odb *odb = NULL;
	int ret;

	if (ow)
		return objwrite_put(ow, out, data, len, type);
	if (lg2_check(git_repository_odb(&odb, repo), "cannot open object database") < 0)
		return -1;
	ret = lg2_check(git_odb_write(out, odb, data, len, type), "cannot write object");
	git_odb_free(odb);
	return ret;
}

static void ms_free(git_odb_backend *b)
{
	struct memstore *ms = (struct memstore *)b;

	store_clear(ms);
	free(ms);
}

int objwrite_begin(struct objwrite *ow, git_repository *repo)
{
	struct memstore *ms;

	ow->repo = repo;
	/* packs reach the disk before a ref names them: fsync is on (repo_global_init()) */
	if (lg2_check(git_repository_odb(&ow->odb, repo), "cannot open object database") < 0)
		return -1;
	ms = xcalloc(1, sizeof(*ms));
	ms->parent.version = GIT_ODB_BACKEND_VERSION;
	ms->parent.read = ms_read;
	ms->parent.read_header = ms_read_header;
	ms->parent.write = ms_write;
	ms->parent.exists = ms_exists;
	ms->parent.free = ms_free;
	if (lg2_check(git_odb_add_backend(ow->odb, &ms->parent, 999),
		      "cannot add in-memory object store") < 0) {
		free(ms);
		git_odb_free(ow->odb);
		ow->odb = NULL;
		return -1;
	}
	ow->store = ms;
	return 0;
}

/* ---- the pack writer ---- */

/* One object's place in the pack, for the index. */
struct packed {
	git_oid oid;
	uint32_t crc;
	uint64_t offset;
};

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void add_be32(struct strbuf *sb, uint32_t v)
{
	unsigned char b[4];

	put_be32(b, v);
	strbuf_add(sb, b, 4);
}

static int cmp_packed(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct packed *)a)->oid, &((const struct packed *)b)->oid);
}

/* The version 2 index of a pack (sorted ids, CRCs, offsets), with its own checksum. */
static int build_idx(struct strbuf *idx, struct packed *pk, size_t nr,
		     const unsigned char *pack_sum)
{
	static const unsigned char magic[] = { 0xff, 't', 'O', 'c', 0, 0, 0, 2 };
	unsigned char sum[SHA1_RAWSZ];
	uint32_t fan[256] = { 0 };
	size_t large = 0;

	qsort(pk, nr, sizeof(*pk), cmp_packed);
	strbuf_add(idx, magic, sizeof(magic));
	for (size_t i = 0; i < nr; i++)
		fan[pk[i].oid.id[0]]++;
	for (size_t i = 1; i < 256; i++)
		fan[i] += fan[i - 1];
	for (size_t i = 0; i < 256; i++)
		add_be32(idx, fan[i]);
	for (size_t i = 0; i < nr; i++)
		strbuf_add(idx, pk[i].oid.id, GIT_OID_RAWSZ);
	for (size_t i = 0; i < nr; i++)
		add_be32(idx, pk[i].crc);
	for (size_t i = 0; i < nr; i++) {
		if (pk[i].offset < 0x80000000u)
			add_be32(idx, (uint32_t)pk[i].offset);
		else
			add_be32(idx, 0x80000000u | (uint32_t)large++);
	}
	for (size_t i = 0; i < nr; i++)
		if (pk[i].offset >= 0x80000000u) {
			add_be32(idx, (uint32_t)(pk[i].offset >> 32));
			add_be32(idx, (uint32_t)pk[i].offset);
		}
	strbuf_add(idx, pack_sum, SHA1_RAWSZ);
	sha1_buf(sum, idx->buf, idx->len);
	strbuf_add(idx, sum, SHA1_RAWSZ);
	return 0;
}

/* Creates a temporary file in dir; -1 (reported) on failure. */
static int tmp_file(const char *dir, const char *kind, char **path)
{
	struct strbuf sb = STRBUF_INIT;
	int fd;

	strbuf_addf(&sb, "%s/tmp_%s_XXXXXX", dir, kind);
	fd = mkstemp(sb.buf);
	if (fd < 0) {
		error_errno("cannot create a temporary file in '%s'", dir);
		strbuf_release(&sb);
		*path = NULL;
		return -1;
	}
	*path = strbuf_detach(&sb, NULL);
	return fd;
}

static int finish_file(int fd, const char *path)
{
	if (fchmod(fd, 0444) < 0)
		return error_errno("cannot make '%s' read-only", path);
	if (fsync(fd) < 0)
		return error_errno("cannot sync '%s'", path);
	return 0;
}

/*
 * Writes the objects of the store as one pack and its index into dir
 * (objects/pack), under temporary names first, synced, then renamed
 * (the pack before its index, as git does): a pack only shows once
 * complete. idx_out: the final index path.
 */
static int write_pack(struct objwrite *ow, const char *dir, struct strbuf *idx_out)
{
	struct memstore *ms = ow->store;
	struct packwrite pw = PACKWRITE_INIT;
	struct packed *pk = xcalloc(ms->order_nr, sizeof(*pk));
	struct strbuf idx = STRBUF_INIT, final = STRBUF_INIT;
	unsigned char sum[SHA1_RAWSZ];
	char hex[GIT_OID_HEXSZ + 1];
	char *pack_tmp = NULL, *idx_tmp = NULL;
	int pack_fd, idx_fd = -1, ret = -1;
	git_oid name;

	pack_fd = tmp_file(dir, "pack", &pack_tmp);
	if (pack_fd < 0 || packwrite_start(&pw, pack_fd, pack_tmp, (uint32_t)ms->order_nr, Z_BEST_SPEED) < 0)
		goto out;
	for (size_t i = 0; i < ms->order_nr; i++) {
		const struct memobj *o = ms->order[i];
		struct packwrite_entry e;

		if (packwrite_object(&pw, o->type, o->data, o->len, &e) < 0)
			goto out;
		git_oid_cpy(&pk[i].oid, &o->oid);
		pk[i].offset = e.offset;
		pk[i].crc = e.crc;
	}
	if (packwrite_finish(&pw, sum) < 0)
		goto out;
	if (finish_file(pack_fd, pack_tmp) < 0 || build_idx(&idx, pk, ms->order_nr, sum) < 0)
		goto out;
	idx_fd = tmp_file(dir, "idx", &idx_tmp);
	if (idx_fd < 0)
		goto out;
	if (write_in_full(idx_fd, idx.buf, idx.len) < 0) {
		error_errno("cannot write '%s'", idx_tmp);
		goto out;
	}
	if (finish_file(idx_fd, idx_tmp) < 0)
		goto out;
	memcpy(name.id, sum, GIT_OID_RAWSZ);
	git_oid_tostr(hex, sizeof(hex), &name);
	strbuf_addf(&final, "%s/pack-%s.pack", dir, hex);
	if (rename(pack_tmp, final.buf) < 0) {
		error_errno("cannot rename '%s' to '%s'", pack_tmp, final.buf);
		goto out;
	}
	free(pack_tmp);
	pack_tmp = NULL;
	strbuf_addf(idx_out, "%s/pack-%s.idx", dir, hex);
	if (rename(idx_tmp, idx_out->buf) < 0) {
		error_errno("cannot rename '%s' to '%s'", idx_tmp, idx_out->buf);
		goto out;
	}
	free(idx_tmp);
	idx_tmp = NULL;
	ret = fsync_dir(dir);
out:
	packwrite_release(&pw);
	if (pack_fd >= 0)
		close(pack_fd);
	if (idx_fd >= 0)
		close(idx_fd);
	if (pack_tmp)
		unlink(pack_tmp);
	if (idx_tmp)
		unlink(idx_tmp);
	free(pack_tmp);
	free(idx_tmp);
	strbuf_release(&idx);
	strbuf_release(&final);
	free(pk);
	return ret;
}

int objwrite_flush(struct objwrite *ow)
{
	struct memstore *ms = ow->store;
	git_odb_backend *one = NULL;
	struct strbuf dir = STRBUF_INIT, idx = STRBUF_INIT;
	int ret = -1;

	if (!ms || !ms->order_nr)
		return 0;
	strbuf_addf(&dir, "%sobjects/pack", git_repository_commondir(ow->repo));
	if (write_pack(ow, dir.buf, &idx) < 0)
		goto out;
	/*
	 * Register the new pack with the object database at once: libgit2
	 * notices new packs by the directory's mtime, which may not have
	 * changed within the same second.
	 */
	if (lg2_check(git_odb_backend_one_pack(&one, idx.buf), "cannot open new pack '%s'", idx.buf) < 0)
		goto out;
	if (lg2_check(git_odb_add_backend(ow->odb, one, 500), "cannot open new pack '%s'", idx.buf) < 0) {
		one->free(one);
		goto out;
	}
	store_clear(ms);
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&idx);
	return ret;
}

void objwrite_end(struct objwrite *ow)
{
	/* The store stays in the object database (libgit2 cannot remove a backend), empty. */
	if (ow->store)
		store_clear(ow->store);
	git_odb_free(ow->odb);
	ow->odb = NULL;
	ow->store = NULL;
}
