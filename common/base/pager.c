/* SPDX-License-Identifier: GPL-2.0-only */
#include "pager.h"
#include "config.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t pager_pid;

int pager_in_use(void)
{
	const char *v = getenv("GIT_PAGER_IN_USE");

	return pager_pid > 0 || (v && config_parse_bool(v) == 1);
}

/* The pager command, or NULL for none: the environment and config, as git chooses. */
static char *pager_command(const struct maint_config *cfg, const char *cmd)
{
	struct strbuf key = STRBUF_INIT;
	char *pager = NULL, *v;
	int want = 1;

	strbuf_addf(&key, "pager.maint-%s", cmd);
	if (cfg && (v = config_git_string(cfg, key.buf))) {
		int b = config_parse_bool(v);

		if (b < 0)
			pager = v;	/* a command of its own */
		else
			free(v);
		want = b != 0;
	}
	strbuf_release(&key);
	if (!want)
		return NULL;
	if (!pager && getenv("GIT_PAGER"))
		pager = xstrdup(getenv("GIT_PAGER"));
	if (!pager && cfg)
		pager = config_git_string(cfg, "core.pager");
	if (!pager && getenv("PAGER"))
		pager = xstrdup(getenv("PAGER"));
	if (!pager)
		pager = xstrdup("less");
	if (!*pager || !strcmp(pager, "cat")) {
		free(pager);
		pager = NULL;
	}
	return pager;
}

/* on_exit(): what we wrote reaches the pager, which we wait for. */
static void wait_for_pager(int status, void *unused)
{
	(void)unused;
	if (pager_pid <= 0)
		return;
	report_release(status);	/* the held error, before its stream closes */
	fflush(stdout);
	fflush(stderr);
	close(1);
	close(2);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

void setup_pager(const struct maint_config *cfg, const char *cmd)
{
	int fds[2];
	char *pager;

	if (!isatty(1) || pager_in_use())
		return;
	pager = pager_command(cfg, cmd);
	if (!pager)
		return;
	if (pipe(fds) < 0) {
		warning("cannot run the pager '%s': %s", pager, strerror(errno));
		free(pager);
		return;
	}
	fflush(NULL);
	report_flush();
	pager_pid = fork();
	if (pager_pid < 0) {
		warning("cannot run the pager '%s': %s", pager, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(pager);
		return;
	}
	if (!pager_pid) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		setenv("LV", getenv("LV") ? getenv("LV") : "-c", 1);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		fprintf(stderr, "fatal: cannot run the pager '%s': %s\n", pager, strerror(errno));
		_exit(127);
	}
	free(pager);
	/* what we write goes to it, and our errors too when they would reach the terminal */
	dup2(fds[1], 1);
	if (isatty(2))
		dup2(fds[1], 2);
	close(fds[0]);
	close(fds[1]);
	setenv("GIT_PAGER_IN_USE", "true", 1);
	/* a pager that quits early ends us quietly (SIGPIPE), as git */
	on_exit(wait_for_pager, NULL);
}
