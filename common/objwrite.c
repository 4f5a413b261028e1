#include "objwrite.h"
#include "repo.h"
#include "usage.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

int objwrite_begin(struct objwrite *ow, git_repository *repo)
{
	ow->repo = repo;
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
	git_odb_writepack *wp = NULL;
	git_indexer_progress stats = { 0 };
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
	if (lg2_check(git_odb_write_pack(&wp, ow->odb, NULL, NULL), "cannot write pack") < 0)
		goto out;
	if (lg2_check(wp->append(wp, pack.ptr, pack.size, &stats), "cannot write pack") < 0 ||
	    lg2_check(wp->commit(wp, &stats), "cannot write pack") < 0)
		goto out;
	if (lg2_check(git_mempack_reset(ow->mempack), "cannot reset in-memory object store") < 0)
		goto out;
	ret = 0;
out:
	if (wp)
		wp->free(wp);
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
