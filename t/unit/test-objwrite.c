/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of object ids (objwrite_hash()) and the object batch
 * (common/repo/objwrite.c): ids are git's, computed by libgit2's collision
 * detecting SHA-1, and content libgit2 refuses to hash is refused.
 *
 * No published collision can reach git_odb_hash() (every attack's blocks
 * are aligned to a raw file, and an object id hashes "<type> <len>\0"
 * before the content, so git and libgit2 take the SHAttered PDFs as two
 * ordinary blobs: t0002 checks that). So the refusal is tested by making
 * libgit2's hash fail as sha1dc makes it fail on an attack: this program
 * is linked with -Wl,--wrap=git_odb_hash (Makefile), and the wrapper
 * below fails, with sha1dc's message, for content starting "COLLIDE".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>

#include "objwrite.h"
#include "repo.h"
#include "strbuf.h"

int __real_git_odb_hash(git_oid *out, const void *data, size_t len, git_object_t type);
int __wrap_git_odb_hash(git_oid *out, const void *data, size_t len, git_object_t type);

static const char attack[] = "COLLIDE";

int __wrap_git_odb_hash(git_oid *out, const void *data, size_t len, git_object_t type)
{
	if (len >= strlen(attack) && !memcmp(data, attack, strlen(attack))) {
		git_error_set_str(GIT_ERROR_SHA, "SHA1 collision attack detected");
		return -1;
	}
	return __real_git_odb_hash(out, data, len, type);
}

/* Runs fn with stderr going to a file; its text into err. */
static int capture_stderr(struct strbuf *err, int (*fn)(void *), void *arg)
{
	char path[] = "/tmp/test-objwrite-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), ret;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	ret = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	assert_true(strbuf_read_file(err, path, 0) >= 0);
	unlink(path);
	return ret;
}

static void ids_are_gits(void **state)
{
	static const struct {
		git_object_t type;
		const char *data;
		size_t len;
		const char *id;		/* git hash-object -t <type> --literally */
	} cases[] = {
		{ GIT_OBJECT_BLOB, "", 0, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" },
		{ GIT_OBJECT_BLOB, "hello\n", 6, "ce013625030ba8dba906f756967f9e9ca394464a" },
		{ GIT_OBJECT_BLOB, "a\0b", 3, "20b5be91886d0b6f26dc98a225c0dac05fe2c86e" },
		{ GIT_OBJECT_TREE, "", 0, "4b825dc642cb6eb9a060e54bf8d69288fbee4904" },
	};
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_int_equal(objwrite_hash(&oid, cases[i].type, cases[i].data, cases[i].len), 0);
		assert_string_equal(git_oid_tostr(hex, sizeof(hex), &oid), cases[i].id);
	}
}

static int hash_attack(void *arg)
{
	git_oid oid;

	(void)arg;
	return objwrite_hash(&oid, GIT_OBJECT_BLOB, "COLLIDE here", 12);
}

static void collision_is_refused(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(capture_stderr(&err, hash_attack, NULL), -1);
	assert_string_equal(err.buf, "error: cannot hash blob object: SHA1 collision attack detected\n");
	strbuf_release(&err);
}

struct put {
	struct objwrite *ow;
	const char *data;
};

static int put_blob(void *arg)
{
	struct put *p = arg;
	git_oid oid;

	return objwrite_put(p->ow, &oid, p->data, strlen(p->data), GIT_OBJECT_BLOB);
}

static void batch_refuses_the_blob(void **state)
{
	char dir[] = "/tmp/test-objwrite-repo-XXXXXX";
	struct objwrite ow = OBJWRITE_INIT;
	struct strbuf err = STRBUF_INIT, cmd = STRBUF_INIT;
	git_repository *repo;
	struct put good = { &ow, "fine\n" }, bad = { &ow, "COLLIDE: a crafted blob\n" };

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(git_repository_init(&repo, dir, 1), 0);
	assert_int_equal(objwrite_begin(&ow, repo), 0);
	assert_int_equal(capture_stderr(&err, put_blob, &good), 0);
	assert_int_equal(objwrite_pending(&ow), strlen(good.data));
	strbuf_reset(&err);
	assert_int_equal(capture_stderr(&err, put_blob, &bad), -1);
	assert_string_equal(err.buf, "error: cannot hash blob object: SHA1 collision attack detected\n");
	/* nothing of it in the batch */
	assert_int_equal(objwrite_pending(&ow), strlen(good.data));
	objwrite_end(&ow);
	git_repository_free(repo);
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_are_gits),
		cmocka_unit_test(collision_is_refused),
		cmocka_unit_test(batch_refuses_the_blob),
	};
	int ret;

	repo_global_init();
	cmocka_set_message_output(CM_OUTPUT_TAP);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	repo_global_shutdown();
	return ret;
}
