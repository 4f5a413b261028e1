/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of how git-maint starts a program (run-command.h) and of the
 * user's check and build commands started through it (hook.h): what the
 * child gets (input, environment, directory, descriptors, SIGPIPE) and
 * what we return and say when it cannot start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hook.h"
#include "run-command.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

/* Our standard error (fd 2) goes to a file until stderr_end() gives what reached it. */
struct captured {
	int saved;
	FILE *file;
};

static void stderr_begin(struct captured *c)
{
	fflush(stderr);
	c->file = tmpfile();
	assert_non_null(c->file);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	assert_int_equal(dup2(fileno(c->file), 2), 2);
}

static void stderr_end(struct captured *c, struct strbuf *out)
{
	fflush(stderr);
	assert_int_equal(dup2(c->saved, 2), 2);
	close(c->saved);
	assert_int_equal(lseek(fileno(c->file), 0, SEEK_SET), 0);
	assert_true(strbuf_read_fd(out, fileno(c->file), 0) >= 0);
	fclose(c->file);
}

/* The exit status, what it wrote on stdout (out) and on stderr (err) of sh -c script. */
static int sh(const char *script, const char *const *env, struct strbuf *out, struct strbuf *err)
{
	const char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct run_opts o = { .argv = argv, .env = env, .out = out, .err = err };

	return run_command_opts(&o);
}

static void not_found_is_127_and_said(void **state)
{
	const char *argv[] = { "git-maint-no-such-program", "x", NULL };
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct run_opts o = { .argv = argv };
	struct captured c;

	(void)state;
	stderr_begin(&c);
	assert_int_equal(run_command(argv, NULL, 0, &out), 127);
	stderr_end(&c, &err);
	assert_string_equal(err.buf, "error: cannot run 'git-maint-no-such-program': "
				     "No such file or directory\n");
	assert_int_equal(out.len, 0);

	strbuf_reset(&err);
	stderr_begin(&c);
	assert_int_equal(start_command(&cp, &o, CHILD_PIPE_IN | CHILD_PIPE_OUT), -1);
	stderr_end(&c, &err);
	assert_string_equal(err.buf, "error: cannot run 'git-maint-no-such-program': "
				     "No such file or directory\n");
	assert_int_equal(cp.pid, -1);
	assert_int_equal(cp.in, -1);
	assert_int_equal(cp.out, -1);
	strbuf_release(&err);
	strbuf_release(&out);
}

static void missing_dir_is_127_and_said(void **state)
{
	const char *argv[] = { "pwd", NULL };
	struct run_opts o = { .argv = argv, .dir = "no-such-dir/below" };
	struct strbuf err = STRBUF_INIT;
	struct captured c;

	(void)state;
	stderr_begin(&c);
	assert_int_equal(run_command_opts(&o), 127);
	stderr_end(&c, &err);
	assert_string_equal(err.buf,
			    "error: cannot change to 'no-such-dir/below': No such file or directory\n");

	strbuf_reset(&err);
	stderr_begin(&c);
	assert_int_equal(hook_run("echo not here", "no-such-dir", "in", 2, NULL), 127);
	stderr_end(&c, &err);
	assert_string_equal(err.buf, "error: cannot change to 'no-such-dir': No such file or directory\n");
	strbuf_release(&err);
}

static void runs_in_dir(void **state)
{
	char cwd[4096];
	const char *argv[] = { "/bin/sh", "-c", "pwd -P", NULL };
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .dir = "/" };

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(run_command_opts(&o), 0);
	assert_string_equal(out.buf, "/\n");
	/* ours is untouched */
	strbuf_reset(&out);
	o.dir = NULL;
	assert_int_equal(run_command_opts(&o), 0);
	strbuf_addf(&want, "%s\n", cwd);
	assert_string_equal(out.buf, want.buf);
	strbuf_release(&out);
	strbuf_release(&want);
}

static void env_set_and_unset_reach_the_child(void **state)
{
	const char *env[] = { "MAINT_T_SET=new value", "MAINT_T_GONE", "MAINT_T_LATER=first",
			      "MAINT_T_LATER=second", "MAINT_T_KEPT=x", "MAINT_T_KEPT", NULL };
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(setenv("MAINT_T_SET", "old", 1), 0);
	assert_int_equal(setenv("MAINT_T_GONE", "here", 1), 0);
	assert_int_equal(setenv("MAINT_T_OURS", "ours", 1), 0);
	assert_int_equal(sh("echo \"$MAINT_T_SET|${MAINT_T_GONE-unset}|$MAINT_T_LATER|"
			    "${MAINT_T_KEPT-unset}|$MAINT_T_OURS\"; env | grep -c '^MAINT_T_SET='",
			    env, &out, NULL),
			 0);
	assert_string_equal(out.buf, "new value|unset|second|unset|ours\n1\n");
	/* ours is untouched */
	assert_string_equal(getenv("MAINT_T_SET"), "old");
	assert_string_equal(getenv("MAINT_T_GONE"), "here");
	assert_null(getenv("MAINT_T_LATER"));
	unsetenv("MAINT_T_SET");
	unsetenv("MAINT_T_GONE");
	unsetenv("MAINT_T_OURS");
	strbuf_release(&out);
}

static void stdout_to_stderr(void **state)
{
	const char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2", NULL };
	struct run_opts o = { .argv = argv, .out_to_err = 1 };
	struct strbuf err = STRBUF_INIT;
	struct captured c;
	FILE *out = tmpfile();
	int saved = dup(1);

	(void)state;
	assert_non_null(out);
	assert_true(saved >= 0);
	fflush(stdout);
	assert_int_equal(dup2(fileno(out), 1), 1);
	stderr_begin(&c);
	assert_int_equal(run_command_opts(&o), 0);
	assert_int_equal(hook_run("cat; echo out 2; echo err 2 >&2; exit 3", NULL, "in\n", 3, NULL), 3);
	stderr_end(&c, &err);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	assert_string_equal(err.buf, "out\nerr\nin\nout 2\nerr 2\n");
	/* nothing reached our standard output */
	assert_int_equal(lseek(fileno(out), 0, SEEK_END), 0);
	fclose(out);

	/* with its standard error taken, its output goes there too */
	strbuf_reset(&err);
	o.err = &err;
	assert_int_equal(run_command_opts(&o), 0);
	assert_string_equal(err.buf, "out\nerr\n");
	strbuf_release(&err);
}

/* More than a pipe holds each way, and a program that leaves its input unread. */
static void input_and_output_interleaved(void **state)
{
	const char *cat[] = { "cat", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < 100000; i++)
		strbuf_addf(&in, "line %d\n", i);
	assert_int_equal(run_command(cat, in.buf, in.len, &out), 0);
	assert_int_equal(out.len, in.len);
	assert_memory_equal(out.buf, in.buf, in.len);
	strbuf_reset(&out);
	assert_int_equal(sh("exit 0", NULL, &out, NULL), 0);
	assert_int_equal(hook_run("exit 4", NULL, in.buf, in.len, NULL), 4);
	/* no input: /dev/null */
	assert_int_equal(run_command(cat, NULL, 0, &out), 0);
	assert_int_equal(out.len, 0);
	strbuf_release(&in);
	strbuf_release(&out);
}

static void exit_status_and_signal(void **state)
{
	(void)state;
	assert_int_equal(sh("exit 3", NULL, NULL, NULL), 3);
	assert_int_equal(sh("kill -TERM $$", NULL, NULL, NULL), 128 + SIGTERM);
}

/* The child has SIGPIPE at its default though we ignore it. */
static void sigpipe_at_default(void **state)
{
	struct strbuf out = STRBUF_INIT;
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	unsigned long long ign;

	(void)state;
	assert_int_equal(sh("sed -n 's/^SigIgn:\t//p' /proc/$$/status", NULL, &out, NULL), 0);
	signal(SIGPIPE, old);
	assert_true(out.len > 1);
	ign = strtoull(out.buf, NULL, 16);
	assert_int_equal(ign & (1ULL << (SIGPIPE - 1)), 0);
	strbuf_release(&out);
}

/* Its standard input and output are pipes; our ends of them are not its too. */
static void start_command_talks_through_pipes(void **state)
{
	const char *argv[] = { "/bin/sh", "-c",
			       "read fds; for fd in $fds; do test -e /proc/$$/fd/$fd && echo \"$fd open\"; done; "
			       "tr a-z A-Z; echo \"$MAINT_T_X\"", NULL };
	const char *env[] = { "MAINT_T_X=set", NULL };
	struct run_opts o = { .argv = argv, .env = env };
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	assert_int_equal(start_command(&cp, &o, CHILD_PIPE_IN | CHILD_PIPE_OUT), 0);
	assert_true(cp.pid > 0);
	assert_true(cp.in > 2 && cp.out > 2);
	assert_int_equal(fcntl(cp.in, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(fcntl(cp.out, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	strbuf_addf(&in, "%d %d\nabc\n", cp.in, cp.out);
	assert_int_equal(write_in_full(cp.in, in.buf, in.len), (ssize_t)in.len);
	close(cp.in);
	cp.in = -1;
	assert_true(strbuf_read_fd(&out, cp.out, 0) >= 0);
	assert_string_equal(out.buf, "ABC\nset\n");
	assert_int_equal(finish_command(&cp), 0);
	assert_int_equal(cp.pid, -1);
	strbuf_release(&in);
	strbuf_release(&out);
}

/* An editor reads our standard input, and a ^C meant for it does not end us. */
static void interactive_keeps_stdin_and_ignores_sigint(void **state)
{
	const char *argv[] = { "/bin/sh", "-c", "cat; kill -INT $PPID; kill -QUIT $PPID", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .interactive = 1 };
	FILE *in = tmpfile();
	int saved = dup(0);

	(void)state;
	assert_non_null(in);
	assert_true(saved >= 0);
	assert_int_equal(fputs("typed\n", in) >= 0, 1);
	fflush(in);
	assert_int_equal(lseek(fileno(in), 0, SEEK_SET), 0);
	assert_int_equal(dup2(fileno(in), 0), 0);
	assert_int_equal(run_command_opts(&o), 0);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	fclose(in);
	assert_string_equal(out.buf, "typed\n");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_found_is_127_and_said),
		cmocka_unit_test(missing_dir_is_127_and_said),
		cmocka_unit_test(runs_in_dir),
		cmocka_unit_test(env_set_and_unset_reach_the_child),
		cmocka_unit_test(stdout_to_stderr),
		cmocka_unit_test(input_and_output_interleaved),
		cmocka_unit_test(exit_status_and_signal),
		cmocka_unit_test(sigpipe_at_default),
		cmocka_unit_test(start_command_talks_through_pipes),
		cmocka_unit_test(interactive_keeps_stdin_and_ignores_sigint),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
