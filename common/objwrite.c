#include "objwrite.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <string.h>
#include <git2/sys/odb_backend.h>

/*
 * The in-memory store: an object database backend holding the objects
 * written since the last flush (id, type, bytes), in an open-addressing
 * table, plus their order of arrival for the pack. libgit2's own mempack
 * is not used: its dump packs whole commits with everything they reach
 * (old objects included) and leaves out objects no commit reaches yet
 * (notes blobs before their notes commit).
 */
struct memobj {
	git_oid oid;
	git_object_t type;
	size_t len;
	char data[];
};

struct memstore {
	git_odb_backend parent;
	struct memobj **slots;	/* capacity a power of two, NULL = empty */
	size_t cap, nr;
	struct memobj **order;	/* in arrival order */
	size_t order_nr, order_alloc;
};

static size_t slot_of(const struct memstore *ms, const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h & (ms->cap - 1);
}

static struct memobj *store_find(const struct memstore *ms, const git_oid *oid)
{
	size_t i;

	if (!ms->cap)
		return NULL;
	for (i = slot_of(ms, oid); ms->slots[i]; i = (i + 1) & (ms->cap - 1))
		if (git_oid_equal(&ms->slots[i]->oid, oid))
			return ms->slots[i];
	return NULL;
}

static void store_put(struct memstore *ms, struct memobj *o)
{
	size_t i;

	if ((ms->nr + 1) * 2 > ms->cap) {
		struct memobj **old = ms->slots;
		size_t oldcap = ms->cap;

		ms->cap = ms->cap ? ms->cap * 2 : 1024;
		ms->slots = xcalloc(ms->cap, sizeof(*ms->slots));
		for (size_t j = 0; j < oldcap; j++)
			if (old[j]) {
				for (i = slot_of(ms, &old[j]->oid); ms->slots[i]; i = (i + 1) & (ms->cap - 1))
					;
				ms->slots[i] = old[j];
			}
		free(old);
	}
	for (i = slot_of(ms, &o->oid); ms->slots[i]; i = (i + 1) & (ms->cap - 1))
		;
	ms->slots[i] = o;
	ms->nr++;
	ALLOC_GROW(ms->order, ms->order_nr + 1, ms->order_alloc);
	ms->order[ms->order_nr++] = o;
}

static void store_clear(struct memstore *ms)
{
	for (size_t i = 0; i < ms->order_nr; i++)
		free(ms->order[i]);
	free(ms->slots);
	free(ms->order);
	ms->slots = NULL;
	ms->order = NULL;
	ms->cap = ms->nr = ms->order_nr = ms->order_alloc = 0;
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
	struct memobj *o;

	if (store_find(ms, oid))
		return 0;
	o = xmalloc(st_add(sizeof(*o), len));
	git_oid_cpy(&o->oid, oid);
	o->type = type;
	o->len = len;
	memcpy(o->data, data, len);
	store_put(ms, o);
	return 0;
}

int objwrite_put(struct objwrite *ow, git_oid *out, const void *data, size_t len,
		 git_object_t type)
{
	if (lg2_check(git_odb_hash(out, data, len, type), "cannot hash object") < 0)
		return -1;
	return ms_write(&ow->store->parent, out, data, len, type);
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
	/* Packs reach the disk before a ref names them, as git does. */
	if (lg2_check(git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1), "cannot enable fsync") < 0)
		return -1;
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

int objwrite_flush(struct objwrite *ow)
{
	struct memstore *ms = ow->store;
	git_packbuilder *pb = NULL;
	git_buf pack = GIT_BUF_INIT;
	git_indexer *idx = NULL;
	git_indexer_options opts = GIT_INDEXER_OPTIONS_INIT;
	git_indexer_progress stats = { 0 };
	git_odb_backend *one = NULL;
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	if (!ms || !ms->order_nr)
		return 0;
	if (lg2_check(git_packbuilder_new(&pb, ow->repo), "cannot pack new objects") < 0)
		goto out;
	git_packbuilder_set_threads(pb, 1);
	for (size_t i = 0; i < ms->order_nr; i++)
		if (lg2_check(git_packbuilder_insert(pb, &ms->order[i]->oid, NULL),
			      "cannot pack new objects") < 0)
			goto out;
	if (lg2_check(git_packbuilder_write_buf(&pack, pb), "cannot pack new objects") < 0)
		goto out;
	strbuf_addf(&path, "%sobjects/pack", git_repository_commondir(ow->repo));
	if (lg2_check(git_indexer_new(&idx, path.buf, 0, NULL, &opts), "cannot write pack") < 0 ||
	    lg2_check(git_indexer_append(idx, pack.ptr, pack.size, &stats), "cannot write pack") < 0 ||
	    lg2_check(git_indexer_commit(idx, &stats), "cannot write pack") < 0)
		goto out;
	/*
	 * Register the new pack with the object database at once: libgit2
	 * notices new packs by the directory's mtime, which may not have
	 * changed within the same second.
	 */
	strbuf_addf(&path, "/pack-%s.idx", git_indexer_name(idx));
	if (lg2_check(git_odb_backend_one_pack(&one, path.buf), "cannot open new pack '%s'", path.buf) < 0)
		goto out;
	if (lg2_check(git_odb_add_backend(ow->odb, one, 500), "cannot open new pack '%s'", path.buf) < 0) {
		one->free(one);
		goto out;
	}
	store_clear(ms);
	ret = 0;
out:
	git_indexer_free(idx);
	git_packbuilder_free(pb);
	strbuf_release(&path);
	git_buf_dispose(&pack);
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
