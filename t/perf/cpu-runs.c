/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu-runs: runs a program <n> times, one run after the other, and prints
 * what one run took on average: "<cpu-us> <wall-us>", the CPU time (user +
 * system, from wait4()) and the wall-clock time in microseconds. Only the
 * child is counted, not a shell's fork and loop around it, so a start-up of
 * a few milliseconds can be compared with another (t/perf/p0010-startup.sh).
 *
 *   cpu-runs [--empty <dir>] <n> <exit-code> <program> [<arg>...]
 *
 * --empty removes the files in <dir> before each run, outside the timing,
 * for a program that writes its output there and will not overwrite it
 * (git mailsplit).
 * The program is found on PATH; each run's stdin, stdout and stderr are
 * /dev/null. A run that exits with another code than <exit-code>, or dies
 * of a signal, ends this with an error naming the program.
 */
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long usec(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long long now_usec(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die_errno("clock_gettime");
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Removes the files of dir (no subdirectories: the programs measured make none). */
static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		die_errno("cannot open '%s'", dir);
	while ((errno = 0, e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    unlinkat(dirfd(d), e->d_name, 0))
			die_errno("cannot remove '%s/%s'", dir, e->d_name);
	if (errno)
		die_errno("cannot read '%s'", dir);
	closedir(d);
}

/* One run of argv; its CPU time in microseconds. */
static long long run_once(const posix_spawn_file_actions_t *fa, char *const *argv, int want)
{
	struct rusage ru;
	pid_t pid;
	int status, rc;

	rc = posix_spawnp(&pid, argv[0], fa, NULL, argv, environ);
	if (rc)
		die("cannot run '%s': %s", argv[0], strerror(rc));
	if (wait4(pid, &status, 0, &ru) != pid)
		die_errno("wait4 '%s'", argv[0]);
	if (!WIFEXITED(status))
		die("'%s' died of signal %d", argv[0], WTERMSIG(status));
	if (WEXITSTATUS(status) != want)
		die("'%s' exited with %d, not %d", argv[0], WEXITSTATUS(status), want);
	return usec(ru.ru_utime) + usec(ru.ru_stime);
}

int cmd_main(int argc, const char **argv)
{
	posix_spawn_file_actions_t fa;
	const char *empty = NULL;
	long long cpu = 0, wall = 0, t0;
	char *end;
	long n, want, i;
	int rc;

	if (argc > 2 && !strcmp(argv[1], "--empty")) {
		empty = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 4)
		die("usage: cpu-runs [--empty <dir>] <n> <exit-code> <program> [<arg>...]");
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1)
		die("not a number of runs: '%s'", argv[1]);
	want = strtol(argv[2], &end, 10);
	if (*end || want < 0 || want > 255)
		die("not an exit code: '%s'", argv[2]);
	rc = posix_spawn_file_actions_init(&fa);
	for (i = 0; !rc && i < 3; i++)
		rc = posix_spawn_file_actions_addopen(&fa, i, "/dev/null", i ? O_WRONLY : O_RDONLY, 0);
	if (rc)
		die("cannot set up the runs: %s", strerror(rc));
	for (i = 0; i < n; i++) {
		if (empty)
			empty_dir(empty);
		t0 = now_usec();
		cpu += run_once(&fa, (char *const *)argv + 3, want);
		wall += now_usec() - t0;
	}
	printf("%lld %lld\n", cpu / n, wall / n);
	posix_spawn_file_actions_destroy(&fa);
	return 0;
}
