/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the foundation: strbuf, strvec, parse-options, utf8, config, SHA-1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "gitdir.h"
#include "hashmap.h"
#include "parse-options.h"
#include "progress.h"
#include "quote.h"
#include "sha1.h"
#include "similar.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "utf8.h"
#include "wrapper.h"

static void strbuf_keeps_nul_bytes(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_add(&sb, "a\0b", 3);
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_int_equal(sb.len, 7);
	assert_memory_equal(sb.buf, "a\0b42-x", 8);
	strbuf_splice(&sb, 1, 2, "XYZ", 3);
	assert_memory_equal(sb.buf, "aXYZ42-x", 9);
	strbuf_release(&sb);
	assert_int_equal(sb.len, 0);
}

static void strbuf_getline_drops_line_ends(void **state)
{
	static const char input[] = "one\ntwo\r\n\nlast";
	static const char *const lines[] = { "one", "two", "", "last" };
	struct strbuf sb = STRBUF_INIT;
	FILE *fp = fmemopen((void *)input, sizeof(input) - 1, "r");

	(void)state;
	assert_non_null(fp);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(strbuf_getline(&sb, fp), 0);
		assert_string_equal(sb.buf, lines[i]);
	}
	assert_int_equal(strbuf_getline(&sb, fp), EOF);
	assert_int_equal(sb.len, 0);
	fclose(fp);
	strbuf_release(&sb);
}

static void strbuf_addf_grows(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5000];

	(void)state;
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "<%s>", big);
	assert_int_equal(sb.len, sizeof(big) + 1);
	assert_int_equal(sb.buf[sb.len], '\0');
	strbuf_release(&sb);
}

static void strbuf_trims(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&sb, " \t hello \r\n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "hello");
	assert_int_equal(sb.len, 5);
	strbuf_release(&sb);
}

static void strvec_pushes(void **state)
{
	struct strvec sv = STRVEC_INIT;

	(void)state;
	assert_null(sv.v[0]);
	strvec_push(&sv, "one");
	strvec_pushf(&sv, "%s-%d", "two", 2);
	assert_int_equal(sv.nr, 2);
	assert_string_equal(sv.v[1], "two-2");
	assert_null(sv.v[2]);
	assert_true(strvec_contains(&sv, "one"));
	strvec_pop(&sv);
	assert_int_equal(sv.nr, 1);
	strvec_clear(&sv);
	assert_int_equal(sv.nr, 0);
}

static const char *const test_usage[] = { "test [<options>] <args>", NULL };

static void parse_options_mixed(void **state)
{
	int quiet = 0, flag = 1, num = 0;
	const char *str = NULL;
	struct strvec list = STRVEC_INIT;
	struct option opts[] = {
		OPT__QUIET(&quiet, "quiet"),
		OPT_BOOL('f', "flag", &flag, "a flag"),
		OPT_INTEGER('p', "strip", &num, "n", "a number"),
		OPT_STRING('o', "output", &str, "dir", "a string"),
		OPT_STRING_LIST(0, "touches", &list, "path", "repeatable"),
		OPT_END()
	};
	const char *argv[] = { "test", "-qq", "a", "--no-flag", "-p1", "--output=x",
		"--touches", "t1", "--tou=t2", "--", "--not-an-option", NULL };
	int argc = ARRAY_SIZE(argv) - 1;

	(void)state;
	argc = parse_options(argc, argv, opts, test_usage, 0);
	assert_int_equal(argc, 2);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "--not-an-option");
	assert_null(argv[2]);
	assert_int_equal(quiet, 2);
	assert_int_equal(flag, 0);
	assert_int_equal(num, 1);
	assert_string_equal(str, "x");
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.v[1], "t2");
	strvec_clear(&list);
}

static void utf8_validation(void **state)
{
	(void)state;
	assert_true(utf8_valid("plain", 5));
	assert_true(utf8_valid("J\xc3\xb6rg \xe2\x82\xac \xf0\x9f\x98\x80", 14));
	assert_false(utf8_valid("\xc3", 1));		/* truncated */
	assert_false(utf8_valid("\xc0\xaf", 2));	/* overlong '/' */
	assert_false(utf8_valid("\xed\xa0\x80", 3));	/* surrogate */
	assert_false(utf8_valid("\xf4\x90\x80\x80", 4));	/* > U+10FFFF */
	assert_false(utf8_valid("caf\xe9", 4));		/* Latin-1 */
}

/* Columns as git's utf8_strwidth() counts them for a diffstat's names. */
static void utf8_widths(void **state)
{
	(void)state;
	assert_int_equal(utf8_width("plain", 5), 5);
	assert_int_equal(utf8_width("caf\xc3\xa9", 5), 4);
	assert_int_equal(utf8_width("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 9), 6);	/* CJK: two each */
	assert_int_equal(utf8_width("e\xcc\x81", 3), 1);	/* combining acute */
	assert_int_equal(utf8_width("a\tb", 3), 2);	/* a control character: none */
	assert_int_equal(utf8_width("caf\xe9", 4), 4);	/* not UTF-8: its bytes */
	assert_int_equal(utf8_width("", 0), 0);
}

static char *write_temp(const char *contents)
{
	char *path = strdup("/tmp/maint-config-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, contents, strlen(contents)), (ssize_t)strlen(contents));
	close(fd);
	return path;
}

static void config_reads_trees(void **state)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	char *path = write_temp("# trees\r\n[tree \"usb\"]\r\npublic = usb-next\r\n"
				"work = work-next\r\nsignoff = yes\r\n[smtp]\r\nport = 587\r\n");

	(void)state;
	assert_int_equal(config_read_file(&cfg, path, 1), 0);
	assert_string_equal(config_get(&cfg, "tree", "usb", "public"), "usb-next");
	assert_string_equal(config_tree_for_branch(&cfg, "work-next"), "usb");
	assert_null(config_tree_for_branch(&cfg, "master"));
	assert_int_equal(config_get_bool(&cfg, "tree", "usb", "signoff", 0), 1);
	assert_string_equal(config_get(&cfg, "smtp", NULL, "port"), "587");
	assert_int_equal(config_get_entry(&cfg, "smtp", NULL, "port")->line, 7);
	assert_null(config_get(&cfg, "tree", "net", "public"));
	config_release(&cfg);
	unlink(path);
	free(path);
}

static void config_rejects(const char *contents)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	char *path = write_temp(contents);

	assert_int_equal(config_read_file(&cfg, path, 1), -1);
	config_release(&cfg);
	unlink(path);
	free(path);
}

static void config_errors(void **state)
{
	char longline[400];

	(void)state;
	config_rejects("[tree \"usb\"]\npublic = a\npublic = b\n");	/* duplicate */
	config_rejects("[tree \"usb\"]\nbogus = 1\n");			/* unknown key */
	config_rejects("[tree]\npublic = a\n");				/* needs a name */
	config_rejects("[smtp]\nport = many\n");			/* not a number */
	config_rejects("[smtp]\nencryption = maybe\n");			/* not a choice */
	config_rejects("[tree \"usb\"]\nsignoff = perhaps\n");		/* not a bool */
	config_rejects("[notify]\nfrom = caf\xe9\n");			/* not UTF-8 */
	config_rejects("[notify]\njust words\n");			/* unknown key */
	config_rejects("[notify]\ntemplate\n");			/* bare, not a boolean */
	config_rejects("[tree \"usb\"]\n\tcheck = a\n\tcheck = b\n");	/* duplicate, indented */
	snprintf(longline, sizeof(longline), "[%0300d]\nx = 1\n", 7);
	config_rejects(longline);					/* a long section header */
}

/* Values of any length (a real check command), and a bare boolean key is true, as in git. */
static void config_long_and_bare(void **state)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct strbuf text = STRBUF_INIT, value = STRBUF_INIT;
	char *path;

	(void)state;
	strbuf_addchars(&value, 'x', 100000);
	strbuf_addf(&text, "[tree \"usb\"]\n\tcheck = %s ; comment\n\tsignoff\n\tpublic = usb-next\n", value.buf);
	path = write_temp(text.buf);
	assert_int_equal(config_read_file(&cfg, path, 1), 0);
	assert_string_equal(config_get(&cfg, "tree", "usb", "check"), value.buf);
	assert_int_equal(config_get_bool(&cfg, "tree", "usb", "signoff", 0), 1);
	assert_string_equal(config_get(&cfg, "tree", "usb", "public"), "usb-next");
	assert_int_equal(config_get_entry(&cfg, "tree", "usb", "public")->line, 4);
	config_release(&cfg);
	unlink(path);
	free(path);
	strbuf_reset(&text);
	strbuf_addstr(&text, "[tree \"usb\"]\ncheck = ");
	strbuf_addchars(&text, 'y', CONFIG_LINE_MAX);
	config_rejects(text.buf);					/* over the bound */
	strbuf_release(&text);
	strbuf_release(&value);
}

static void config_missing_file(void **state)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;

	(void)state;
	assert_int_equal(config_read_file(&cfg, "/nonexistent/maint.ini", 0), 0);
	assert_int_equal(config_read_file(&cfg, "/nonexistent/maint.ini", 1), -1);
	config_release(&cfg);
}

/* Writes text into the file dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	FILE *fp;

	strbuf_addf(&path, "%s/%s", dir, name);
	fp = fopen(path.buf, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	strbuf_release(&path);
}

static void make_repository(const char *dir)
{
	struct strbuf path = STRBUF_INIT;

	assert_int_equal(mkdir(dir, 0700), 0);
	strbuf_addf(&path, "%s/objects", dir);
	assert_int_equal(mkdir(path.buf, 0700), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/refs", dir);
	assert_int_equal(mkdir(path.buf, 0700), 0);
	strbuf_release(&path);
	write_file(dir, "HEAD", "ref: refs/heads/main\n");
}

/* Discovers from dir (relative to top) and checks the answer. */
static void discover_from(const char *top, const char *dir, int want, const char *want_dir,
			  enum gitdir_how want_how)
{
	struct strbuf at = STRBUF_INIT, out = STRBUF_INIT, expect = STRBUF_INIT;
	enum gitdir_how how;

	strbuf_addf(&at, "%s/%s", top, dir);
	assert_int_equal(chdir(at.buf), 0);
	assert_int_equal(gitdir_discover(&out, &how), want);
	if (!want) {
		strbuf_addf(&expect, "%s/%s", top, want_dir);
		assert_string_equal(out.buf, expect.buf);
		assert_int_equal(how, want_how);
	} else {
		assert_int_equal(out.len, 0);
	}
	strbuf_release(&at);
	strbuf_release(&out);
	strbuf_release(&expect);
}

/*
 * A new directory (returned, absolute) holding a repository, repo/.git,
 * and no GIT_DIR or GIT_CEILING_DIRECTORIES to change where it is found.
 */
static char *discovery_top(void)
{
	char tmpl[] = "/tmp/test-gitdir-XXXXXX";
	char *top = realpath(mkdtemp(tmpl), NULL);
	struct strbuf p = STRBUF_INIT;

	assert_non_null(top);
	unsetenv("GIT_DIR");
	unsetenv("GIT_CEILING_DIRECTORIES");
	strbuf_addf(&p, "%s/repo", top);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	strbuf_addstr(&p, "/.git");
	make_repository(p.buf);
	strbuf_release(&p);
	return top;
}

/* Removes what discovery_top() made, and frees top. */
static void discovery_top_remove(char *top)
{
	struct strbuf p = STRBUF_INIT;

	assert_int_equal(chdir("/"), 0);
	strbuf_addf(&p, "rm -rf '%s'", top);
	assert_int_equal(system(p.buf), 0);
	strbuf_release(&p);
	free(top);
}

static void gitdir_discovers_as_git(void **state)
{
	char *top = discovery_top();
	struct strbuf p = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	strbuf_addf(&p, "%s/repo/sub", top);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/bare.git", top);
	make_repository(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt", top);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	write_file(p.buf, ".git", "gitdir: ../repo/.git\n");

	discover_from(top, "repo/sub", 0, "repo/.git", GITDIR_DOTGIT);
	discover_from(top, "bare.git", 0, "bare.git", GITDIR_BARE);
	discover_from(top, "wt", 0, "wt/../repo/.git", GITDIR_GITFILE);
	discover_from(top, ".", 1, NULL, GITDIR_DOTGIT);

	/* the walk does not enter a ceiling directory ... */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/repo", top);
	setenv("GIT_CEILING_DIRECTORIES", p.buf, 1);
	discover_from(top, "repo/sub", 1, NULL, GITDIR_DOTGIT);
	/* ... but the current directory is looked at */
	discover_from(top, "repo", 0, "repo/.git", GITDIR_DOTGIT);
	unsetenv("GIT_CEILING_DIRECTORIES");

	/* $GIT_DIR wins, and must name a repository */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/bare.git", top);
	setenv("GIT_DIR", p.buf, 1);
	discover_from(top, "repo/sub", 0, "bare.git", GITDIR_DOTGIT);
	setenv("GIT_DIR", top, 1);
	discover_from(top, "repo/sub", 1, NULL, GITDIR_DOTGIT);
	unsetenv("GIT_DIR");

	/* a linked worktree's shared files are in its commondir */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/repo/.git", top);
	write_file(p.buf, "commondir", "../../bare.git\n");
	assert_int_equal(chdir(top), 0);
	assert_int_equal(chdir("wt"), 0);
	assert_int_equal(gitdir_discover_common(&out), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt/../repo/.git/../../bare.git", top);
	assert_string_equal(out.buf, p.buf);

	strbuf_release(&p);
	strbuf_release(&out);
	discovery_top_remove(top);
}

/*
 * A program discovers once: a second call from the same directory, in
 * the same environment, gets the first answer without looking again
 * (the repository moved away in between is not seen); a change of the
 * environment the discovery reads makes it look again.
 */
static void gitdir_discovers_once(void **state)
{
	char *top = discovery_top();
	struct strbuf p = STRBUF_INIT, moved = STRBUF_INIT, out = STRBUF_INIT, expect = STRBUF_INIT;

	(void)state;
	strbuf_addf(&p, "%s/repo/.git", top);
	strbuf_addf(&expect, "%s/repo/.git", top);
	strbuf_addf(&moved, "%s/repo/moved", top);
	discover_from(top, "repo", 0, "repo/.git", GITDIR_DOTGIT);

	assert_int_equal(rename(p.buf, moved.buf), 0);
	assert_int_equal(gitdir_discover(&out, NULL), 0);
	assert_string_equal(out.buf, expect.buf);

	setenv("GIT_CEILING_DIRECTORIES", top, 1);
	assert_int_equal(gitdir_discover(&out, NULL), 1);
	unsetenv("GIT_CEILING_DIRECTORIES");
	assert_int_equal(rename(moved.buf, p.buf), 0);
	assert_int_equal(gitdir_discover(&out, NULL), 0);
	assert_string_equal(out.buf, expect.buf);

	strbuf_release(&p);
	strbuf_release(&moved);
	strbuf_release(&out);
	strbuf_release(&expect);
	discovery_top_remove(top);
}

static void hashmap_maps_byte_strings(void **state)
{
	struct hashmap m = HASHMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	int added;

	(void)state;
	assert_null(hashmap_get(&m, "a", 1));
	/* keys that are prefixes of each other, and keys holding NUL bytes */
	*hashmap_put(&m, "ab", 2, &added) = 1;
	assert_int_equal(added, 1);
	*hashmap_put(&m, "a", 1, &added) = 2;
	*hashmap_put(&m, "a\0b", 3, &added) = 3;
	*hashmap_put(&m, "", 0, &added) = 4;
	assert_int_equal(*hashmap_put(&m, "ab", 2, &added), 1);
	assert_int_equal(added, 0);
	/* enough keys to grow the table several times */
	for (uint32_t i = 0; i < 10000; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "<%u@example.com>", i);
		*hashmap_put(&m, key.buf, key.len, NULL) = i + 10;
	}
	assert_int_equal(hashmap_count(&m), 10004);
	for (uint32_t i = 0; i < 10000; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "<%u@example.com>", i);
		assert_non_null(hashmap_get(&m, key.buf, key.len));
		assert_int_equal(*hashmap_get(&m, key.buf, key.len), i + 10);
	}
	assert_int_equal(*hashmap_get(&m, "a", 1), 2);
	assert_int_equal(*hashmap_get(&m, "a\0b", 3), 3);
	assert_int_equal(*hashmap_get(&m, "", 0), 4);
	assert_null(hashmap_get(&m, "a\0", 2));
	assert_null(hashmap_get(&m, "<10000@example.com>", 19));
	hashmap_release(&m);
	assert_null(hashmap_get(&m, "a", 1));
	strbuf_release(&key);
}

static void neutralise_controls_replaces(void **state)
{
	char buf[] = "a\x1b]0;x\x07\tb\n\x7f\xc2\x9b" "c\xc3\xa9";
	size_t len = neutralise_controls(buf, sizeof(buf) - 1);

	(void)state;
	/* ESC, BEL, DEL and the C1 CSI go; tab, newline and UTF-8 letters stay */
	assert_int_equal(len, strlen("a?]0;x?\tb\n??c\xc3\xa9"));
	assert_memory_equal(buf, "a?]0;x?\tb\n??c\xc3\xa9", len);
	assert_int_equal(result_exit_code(RESULT_OK), EXIT_OK);
	assert_int_equal(result_exit_code(RESULT_NO), EXIT_NO);
	assert_int_equal(result_exit_code(RESULT_TEMPFAIL), EXIT_TEMPFAIL);
	assert_int_equal(result_exit_code(RESULT_FATAL), EXIT_FATAL);
	assert_int_equal(result_exit_code(-7), EXIT_FATAL);
	/* and back: a child's exit code is the result it reported */
	assert_int_equal(result_from_exit_code(EXIT_OK), RESULT_OK);
	assert_int_equal(result_from_exit_code(EXIT_NO), RESULT_NO);
	assert_int_equal(result_from_exit_code(EXIT_TEMPFAIL), RESULT_TEMPFAIL);
	assert_int_equal(result_from_exit_code(EXIT_FATAL), RESULT_FATAL);
	assert_int_equal(result_from_exit_code(128 + 9), RESULT_FATAL);
	assert_int_equal(result_from_exit_code(-1), RESULT_FATAL);
	for (int r = RESULT_FATAL; r <= RESULT_TEMPFAIL; r++)
		assert_int_equal(result_from_exit_code(result_exit_code(r)), r);
}

/*
 * read_in_full() and pread_in_full() share one loop: both read past a pipe's
 * short reads to the end, pread_in_full() from its offset without moving the
 * file's, and both stop short at the end of the file.
 */
static void read_in_full_and_at_offset(void **state)
{
	char path[] = "test-foundation-read-XXXXXX", buf[16];
	int fd = mkstemp(path), p[2], status;
	pid_t pid;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write_in_full(fd, "0123456789", 10), 10);
	assert_int_equal(lseek(fd, 2, SEEK_SET), 2);
	assert_int_equal(pread_in_full(fd, buf, 4, 5), 4);
	assert_memory_equal(buf, "5678", 4);
	assert_int_equal(pread_in_full(fd, buf, sizeof(buf), 7), 3);
	assert_memory_equal(buf, "789", 3);
	assert_int_equal(pread_in_full(fd, buf, 1, -1), -1);
	assert_int_equal(read_in_full(fd, buf, sizeof(buf)), 8);
	assert_memory_equal(buf, "23456789", 8);
	close(fd);

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_in_full(p[1], "ab", 2), 2);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		usleep(20000);
		_exit(write_in_full(p[1], "cd", 2) != 2);
	}
	close(p[1]);
	assert_int_equal(read_in_full(p[0], buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "abcd", 4);
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

/* What git's strbuf_humanise_bytes() and _rate() print for the same numbers. */
static void humanise_as_git(void **state)
{
	static const struct {
		uint64_t n;
		const char *bytes, *rate;
	} cases[] = {
		{ 0, "0 bytes", "0 bytes/s" },
		{ 1, "1 byte", "1 bytes/s" },
		{ 1024, "1024 bytes", "1024 bytes/s" },
		{ 1025, "1.00 KiB", "1.00 KiB/s" },
		{ 512000, "500.00 KiB", "500.00 KiB/s" },
		{ 1048570, "1023.99 KiB", "1023.99 KiB/s" },
		{ 1900544, "1.81 MiB", "1.81 MiB/s" },
		{ 5493601, "5.24 MiB", "5.24 MiB/s" },
		{ 1073741823, "1024.00 MiB", "1024.00 MiB/s" },	/* git rounds up to it too */
		{ (uint64_t)3 << 30, "3.00 GiB", "3.00 GiB/s" },
		{ (uint64_t)5 << 40, "5120.00 GiB", "5120.00 GiB/s" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_humanise_bytes(&sb, cases[i].n);
		assert_string_equal(sb.buf, cases[i].bytes);
		strbuf_reset(&sb);
		strbuf_humanise_rate(&sb, cases[i].n);
		assert_string_equal(sb.buf, cases[i].rate);
		strbuf_release(&sb);
	}
}

/* The meter's lines, as git's progress.c draws them. */
static void progress_lines(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	progress_format(&sb, 1900544, 5493601, 1, 512000);
	assert_string_equal(sb.buf, "  34% (1.81 MiB/5.24 MiB) | 500.00 KiB/s");
	strbuf_reset(&sb);
	progress_format(&sb, 1900544, 0, 1, 512000);
	assert_string_equal(sb.buf, " 1.81 MiB | 500.00 KiB/s");
	strbuf_reset(&sb);
	progress_format(&sb, 1900544, 5493601, 1, UINT64_MAX);
	assert_string_equal(sb.buf, "  34% (1.81 MiB/5.24 MiB)");
	strbuf_reset(&sb);
	progress_format(&sb, 90, 200, 0, UINT64_MAX);
	assert_string_equal(sb.buf, "  45% (90/200)");
	strbuf_reset(&sb);
	progress_format(&sb, 90, 0, 0, UINT64_MAX);
	assert_string_equal(sb.buf, " 90");
	strbuf_release(&sb);
}

/* git's help.c choices for a mistyped name. */
static void similar_names_as_git(void **state)
{
	static const char *const branches[] = {
		"main", "work-linus", "work-next", "usb-linus", "usb-next", "net-next",
	};
	struct strvec out = STRVEC_INIT;

	(void)state;
	assert_int_equal(levenshtein("usb-nxt", "usb-next", 0, 2, 1, 3), 1);
	assert_int_equal(levenshtein("usb-enxt", "usb-next", 0, 2, 1, 3), 0);
	assert_int_equal(levenshtein("usb-nexxt", "usb-next", 0, 2, 1, 3), 3);
	assert_int_equal(levenshtein("usb-mext", "usb-next", 0, 2, 1, 3), 2);
	similar_names(&out, "usb-nxt", branches, 6);
	assert_int_equal(out.nr, 1);
	assert_string_equal(out.v[0], "usb-next");
	strvec_clear(&out);
	similar_names(&out, "work", branches, 6);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.v[0], "work-linus");
	assert_string_equal(out.v[1], "work-next");
	strvec_clear(&out);
	similar_names(&out, "staging-testing", branches, 6);
	assert_int_equal(out.nr, 0);
	similar_names(&out, "usb-next", branches, 6);	/* itself: nothing to suggest */
	assert_int_equal(out.nr, 0);
	strvec_clear(&out);
}

static void quote_paths_and_fields(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char field[] = "a\tb\nc\x1b[31m\xc2\x9b" "d\xc3\xa9";
	size_t len;

	(void)state;
	/* UTF-8 names stay readable; what git quotes is quoted as git does */
	quote_path(&sb, "dir/\303\244.c", strlen("dir/\303\244.c"), 0);
	assert_string_equal(sb.buf, "dir/\303\244.c");
	strbuf_reset(&sb);
	quote_path(&sb, "t\tn\nb\a\"\\", 8, 0);
	assert_string_equal(sb.buf, "\"t\\tn\\nb\\a\\\"\\\\\"");
	strbuf_reset(&sb);
	/* ESC, a C1 CSI and a byte that is not UTF-8: octal */
	quote_path(&sb, "e\x1b[\xc2\x9b\xff", 6, 0);
	assert_string_equal(sb.buf, "\"e\\033[\\302\\233\\377\"");
	strbuf_reset(&sb);
	/* a space: quoted only when asked */
	quote_path(&sb, "a b", 3, 0);
	assert_string_equal(sb.buf, "a b");
	strbuf_reset(&sb);
	quote_path(&sb, "a b", 3, QUOTE_SPACE);
	assert_string_equal(sb.buf, "\"a b\"");
	strbuf_reset(&sb);
	/* a field: every control character, tab and newline too, is '?' */
	len = neutralise_field(field, sizeof(field) - 1);
	assert_int_equal(len, strlen("a?b?c?[31m?d\xc3\xa9"));
	assert_memory_equal(field, "a?b?c?[31m?d\xc3\xa9", len);
	quote_field(&sb, "x\x1b]0;y\x07", 7);
	assert_string_equal(sb.buf, "x?]0;y?");
	strbuf_release(&sb);
}

static void quote_url_hides_userinfo(void **state)
{
	static const char *const cases[][2] = {
		{ "http://maint:s3cret@127.0.0.1:8080/git/origin.git", "http://127.0.0.1:8080/git/origin.git" },
		{ "https://u:p@ss@host/a@b", "https://host/a@b" },	/* a raw '@' in the password */
		{ "imaps://user@host", "imaps://host" },
		{ "ssh://git@host/x.git", "ssh://host/x.git" },
		{ "https://host/p?q=a@b", "https://host/p?q=a@b" },	/* '@' past the authority */
		{ "git@host:x.git", "git@host:x.git" },			/* ssh's host:path: no password */
		{ "/srv/backup.git", "/srv/backup.git" },
		{ "file:///srv/b\x1b.git", "file:///srv/b?.git" },
		{ "http://h/\x1b[31m", "http://h/?[31m" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		quote_url(&sb, cases[i][0]);
		assert_string_equal(sb.buf, cases[i][1]);
		strbuf_release(&sb);
	}
}

static void url_unquote_escapes(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(url_unquote(&sb, "a%40b%2Fc%c3%a4", 15, 0), 0);
	assert_string_equal(sb.buf, "a@b/c\303\244");
	strbuf_reset(&sb);
	/* a bad or cut escape, a NUL: refused */
	assert_int_equal(url_unquote(&sb, "a%4", 3, 0), -1);
	strbuf_reset(&sb);
	assert_int_equal(url_unquote(&sb, "a%zz", 4, 0), -1);
	strbuf_reset(&sb);
	assert_int_equal(url_unquote(&sb, "a%00b", 5, 0), -1);
	strbuf_reset(&sb);
	/* a control character: only where asked */
	assert_int_equal(url_unquote(&sb, "a%0Db", 5, 0), 0);
	assert_string_equal(sb.buf, "a\rb");
	strbuf_reset(&sb);
	assert_int_equal(url_unquote(&sb, "a%0Db", 5, URL_NO_CONTROLS), -1);
	strbuf_reset(&sb);
	assert_int_equal(url_unquote(&sb, "a%7F", 4, URL_NO_CONTROLS), -1);
	strbuf_release(&sb);
}

/* The SHA-1 of buf[0..len) in hex, hashed in pieces of step bytes (0: at once). */
static void sha1_hex(char hex[2 * SHA1_RAWSZ + 1], const void *buf, size_t len, size_t step)
{
	const unsigned char *p = buf;
	unsigned char sum[SHA1_RAWSZ];
	struct sha1 h;

	sha1_start(&h);
	for (size_t off = 0; off < len; off += step ? step : len)
		sha1_update(&h, p + off, step && len - off > step ? step : len - off);
	sha1_finish(&h, sum);
	for (int i = 0; i < SHA1_RAWSZ; i++)
		sprintf(hex + 2 * i, "%02x", sum[i]);
}

/* FIPS 180-4's examples and lengths around the padding's edges, checked against sha1sum and git hash-object. */
static void sha1_as_sha1sum(void **state)
{
	static const struct { size_t n; const char *sum; } xs[] = {
		/* "x" n times: printf '%*s' n | tr ' ' x | sha1sum */
		{ 55, "cef734ba81a024479e09eb5a75b6ddae62e6abf1" },
		{ 56, "901305367c259952f4e7af8323f480d59f81335b" },
		{ 63, "0ddc4e0cccd9a12850deb5abb0853a4425559fec" },
		{ 64, "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163" },
		{ 65, "78c741ddc482e4cdf8c474a0876347a0905b6233" },
		{ 119, "4300320394f7ee239bcdce7d3b8bcee173a0cd5c" },
		{ 120, "ceb2821639c4b6dcb10bce0e522ca2e608ce056d" },
	};
	static const size_t steps[] = { 0, 1, 3, 63, 64, 65 };
	const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[2 * SHA1_RAWSZ + 1], *buf = malloc(1000000);
	unsigned char sum[SHA1_RAWSZ];
	struct sha1 h;

	(void)state;
	sha1_hex(hex, "", 0, 0);
	assert_string_equal(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	sha1_hex(hex, "abc", 3, 0);
	assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	for (size_t s = 0; s < ARRAY_SIZE(steps); s++) {
		sha1_hex(hex, two_blocks, strlen(two_blocks), steps[s]);
		assert_string_equal(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	}
	/* git hash-object of "hello\n" */
	sha1_hex(hex, "blob 6\0hello\n", 13, 0);
	assert_string_equal(hex, "ce013625030ba8dba906f756967f9e9ca394464a");
	assert_non_null(buf);
	memset(buf, 'x', 120);
	for (size_t i = 0; i < ARRAY_SIZE(xs); i++)
		for (size_t s = 0; s < ARRAY_SIZE(steps); s++) {
			sha1_hex(hex, buf, xs[i].n, steps[s]);
			assert_string_equal(hex, xs[i].sum);
		}
	memset(buf, 'a', 1000000);
	sha1_hex(hex, buf, 1000000, 4096 + 7);
	assert_string_equal(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	/* a finished context started again hashes anew */
	sha1_start(&h);
	sha1_update(&h, "zzz", 3);
	sha1_finish(&h, sum);
	sha1_start(&h);
	sha1_update(&h, "abc", 3);
	sha1_finish(&h, sum);
	for (int i = 0; i < SHA1_RAWSZ; i++)
		sprintf(hex + 2 * i, "%02x", sum[i]);
	assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	free(buf);
}

/* Every byte value as printf's %02x writes it; the NUL after; the pointer given back. */
static void hex_encode_as_printf(void **state)
{
	unsigned char raw[256];
	char hex[2 * sizeof(raw) + 1], want[2 * sizeof(raw) + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(raw); i++) {
		raw[i] = (unsigned char)(255 - i);
		snprintf(want + 2 * i, 3, "%02x", raw[i]);
	}
	memset(hex, 'x', sizeof(hex));
	assert_ptr_equal(hex_encode(hex, raw, sizeof(raw)), hex);
	assert_string_equal(hex, want);
	assert_string_equal(hex_encode(hex, "", 0), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_keeps_nul_bytes),
		cmocka_unit_test(strbuf_getline_drops_line_ends),
		cmocka_unit_test(strbuf_addf_grows),
		cmocka_unit_test(strbuf_trims),
		cmocka_unit_test(strvec_pushes),
		cmocka_unit_test(parse_options_mixed),
		cmocka_unit_test(utf8_validation),
		cmocka_unit_test(utf8_widths),
		cmocka_unit_test(config_reads_trees),
		cmocka_unit_test(config_errors),
		cmocka_unit_test(config_long_and_bare),
		cmocka_unit_test(config_missing_file),
		cmocka_unit_test(gitdir_discovers_as_git),
		cmocka_unit_test(gitdir_discovers_once),
		cmocka_unit_test(hashmap_maps_byte_strings),
		cmocka_unit_test(neutralise_controls_replaces),
		cmocka_unit_test(read_in_full_and_at_offset),
		cmocka_unit_test(humanise_as_git),
		cmocka_unit_test(progress_lines),
		cmocka_unit_test(similar_names_as_git),
		cmocka_unit_test(quote_paths_and_fields),
		cmocka_unit_test(quote_url_hides_userinfo),
		cmocka_unit_test(url_unquote_escapes),
		cmocka_unit_test(sha1_as_sha1sum),
		cmocka_unit_test(hex_encode_as_printf),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
