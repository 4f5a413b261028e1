/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small repository for the fuzz targets that drive the apply engine
 * (fuzz-apply.c, fuzz-delta.c), all in memory: a repository wrapped
 * around an object database of two in-memory stores (libgit2's
 * mempack), created once per process. The first holds the fixed base
 * tree; what one input writes (the input's own file, the root tree,
 * what apply_session_write_tree() writes) goes into the second, of
 * higher priority, emptied after every input. No disk, no file system
 * calls: the engine only reads and writes objects.
 *
 *	the base tree:		a.txt (ten lines), dir/b.c, dir/sub/c,
 *				exec.sh (100755), link -> a.txt, bin (NUL bytes),
 *				plus the input's file at fuzz_repo_tree()'s path
 */
#ifndef FUZZ_REPO_H
#define FUZZ_REPO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>
#include <git2/sys/mempack.h>

#include "repo.h"

static git_repository *fuzz_repo;
static git_odb_backend *fuzz_mempack;
static git_oid fuzz_dir_tree;		/* dir/ */
static git_oid fuzz_blobs[4];		/* a.txt, exec.sh, link, bin */

static void fuzz_check(int rc)
{
	if (rc < 0) {
		const git_error *e = git_error_last();

		fprintf(stderr, "fuzz-repo: libgit2: %s\n", e ? e->message : "?");
		abort();
	}
}

static void fuzz_repo_free(void)
{
	git_repository_free(fuzz_repo);
}

static void fuzz_blob(git_oid *out, const char *data, size_t len)
{
	fuzz_check(git_blob_create_from_buffer(out, fuzz_repo, data, len));
}

static void fuzz_repo_init(void)
{
	static const char bin[] = "\0\1\2binary\0\377\376\n\0tail";
	git_treebuilder *tb;
	git_oid sub, c, b;
	git_odb *odb;
	git_odb_backend *fixed;

	/* every input makes new objects: a cache of them only grows (to 256 MiB) */
	fuzz_check(repo_tune(REPO_USE_NO_CACHE));
	fuzz_check(git_odb_new(&odb));
	fuzz_check(git_mempack_new(&fixed));
	fuzz_check(git_odb_add_backend(odb, fixed, 1));
	fuzz_check(git_repository_wrap_odb(&fuzz_repo, odb));
	atexit(fuzz_repo_free);

	fuzz_blob(&fuzz_blobs[0], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", 21);
	fuzz_blob(&fuzz_blobs[1], "#!/bin/sh\necho hi\n", 18);
	fuzz_blob(&fuzz_blobs[2], "a.txt", 5);
	fuzz_blob(&fuzz_blobs[3], bin, sizeof(bin) - 1);
	fuzz_blob(&c, "c\n", 2);
	fuzz_blob(&b, "int main(void)\n{\n\treturn 0;\n}\n", 30);
	fuzz_check(git_treebuilder_new(&tb, fuzz_repo, NULL));
	fuzz_check(git_treebuilder_insert(NULL, tb, "c", &c, GIT_FILEMODE_BLOB));
	fuzz_check(git_treebuilder_write(&sub, tb));
	git_treebuilder_free(tb);
	fuzz_check(git_treebuilder_new(&tb, fuzz_repo, NULL));
	fuzz_check(git_treebuilder_insert(NULL, tb, "b.c", &b, GIT_FILEMODE_BLOB));
	fuzz_check(git_treebuilder_insert(NULL, tb, "sub", &sub, GIT_FILEMODE_TREE));
	fuzz_check(git_treebuilder_write(&fuzz_dir_tree, tb));
	git_treebuilder_free(tb);

	fuzz_check(git_mempack_new(&fuzz_mempack));
	fuzz_check(git_odb_add_backend(odb, fuzz_mempack, 2));
	git_odb_free(odb);
}

/*
 * The base tree with path (a name at the top, not one of the fixed
 * ones) holding data[0..len), written into the in-memory store.
 */
static void fuzz_repo_tree(git_oid *out, const char *path, const void *data, size_t len)
{
	git_treebuilder *tb;
	git_oid f;

	fuzz_blob(&f, data, len);
	fuzz_check(git_treebuilder_new(&tb, fuzz_repo, NULL));
	fuzz_check(git_treebuilder_insert(NULL, tb, "a.txt", &fuzz_blobs[0], GIT_FILEMODE_BLOB));
	fuzz_check(git_treebuilder_insert(NULL, tb, "exec.sh", &fuzz_blobs[1], GIT_FILEMODE_BLOB_EXECUTABLE));
	fuzz_check(git_treebuilder_insert(NULL, tb, "link", &fuzz_blobs[2], GIT_FILEMODE_LINK));
	fuzz_check(git_treebuilder_insert(NULL, tb, "bin", &fuzz_blobs[3], GIT_FILEMODE_BLOB));
	fuzz_check(git_treebuilder_insert(NULL, tb, "dir", &fuzz_dir_tree, GIT_FILEMODE_TREE));
	fuzz_check(git_treebuilder_insert(NULL, tb, path, &f, GIT_FILEMODE_BLOB));
	fuzz_check(git_treebuilder_write(out, tb));
	git_treebuilder_free(tb);
}

/* Forgets what the last input wrote. */
static void fuzz_repo_reset(void)
{
	fuzz_check(git_mempack_reset(fuzz_mempack));
}

#endif
