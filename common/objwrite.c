#include "objwrite.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

int objwrite_begin(struct objwrite *ow, git_repository *repo)
{
	ow->repo = repo;
	/* Packs reach the disk before a ref names them, as git does. */
	if (lg2_check(git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1), "cannot enable fsync") < 0)
		return -1;
	if (lg2_check(git_repository_odb(&ow->odb, repo), "cannot open object database") < 0)
		return -1;
	if (lg2_check(git_mempack_new(&ow->mempack), "cannot create in-memory object store") < 0)
		goto fail;
	if (lg2_check(git_odb_add_backend(ow->odb, ow->mempack, 999),
		      "cannot add in-memory object store") < 0) {
		ow->mempack->free(ow->mempack);
		goto fail;
	}
	ow->dirty = 1;
	return 0;
fail:
	ow->mempack = NULL;
	git_odb_free(ow->odb);
	ow->odb = NULL;
	return -1;
}

int objwrite_flush(struct objwrite *ow)
{
	git_buf pack = GIT_BUF_INIT;
	git_indexer *idx = NULL;
	git_indexer_options opts = GIT_INDEXER_OPTIONS_INIT;
	git_indexer_progress stats = { 0 };
	git_odb_backend *one = NULL;
	struct strbuf dir = STRBUF_INIT;
	int ret = -1;

	if (!ow->mempack)
		return 0;
	if (lg2_check(git_mempack_dump(&pack, ow->repo, ow->mempack), "cannot pack new objects") < 0)
		goto out;
	/* An empty pack has a 12-byte header and a 20-byte trailer only. */
	if (pack.size <= 32) {
		ret = 0;
		goto out;
	}
	strbuf_addf(&dir, "%sobjects/pack", git_repository_commondir(ow->repo));
	if (lg2_check(git_indexer_new(&idx, dir.buf, 0, NULL, &opts), "cannot write pack") < 0 ||
	    lg2_check(git_indexer_append(idx, pack.ptr, pack.size, &stats), "cannot write pack") < 0 ||
	    lg2_check(git_indexer_commit(idx, &stats), "cannot write pack") < 0)
		goto out;
	/*
	 * Register the new pack with the object database at once: libgit2
	 * notices new packs by the directory's mtime, which may not have
	 * changed within the same second.
	 */
	strbuf_addf(&dir, "/pack-%s.idx", git_indexer_name(idx));
	if (lg2_check(git_odb_backend_one_pack(&one, dir.buf), "cannot open new pack '%s'", dir.buf) < 0)
		goto out;
	if (lg2_check(git_odb_add_backend(ow->odb, one, 500), "cannot open new pack '%s'", dir.buf) < 0) {
		one->free(one);
		goto out;
	}
	if (lg2_check(git_mempack_reset(ow->mempack), "cannot reset in-memory object store") < 0)
		goto out;
	ret = 0;
out:
	git_indexer_free(idx);
	strbuf_release(&dir);
	git_buf_dispose(&pack);
	return ret;
}

void objwrite_end(struct objwrite *ow)
{
	if (ow->mempack)
		git_mempack_reset(ow->mempack);
	git_odb_free(ow->odb);
	ow->odb = NULL;
	ow->mempack = NULL;
}
