/* SPDX-License-Identifier: GPL-2.0-only */
#include "pager.h"
#include "config.h"
#include "run-command.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct child_process pager = CHILD_PROCESS_INIT;

int pager_in_use(void)
{
	const char *v = getenv("GIT_PAGER_IN_USE");

	return pager.pid > 0 || (v && config_parse_bool(v) == 1);
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
	if (pager.pid <= 0)
		return;
	report_release(status);	/* the held error, before its stream closes */
	fflush(stdout);
	fflush(stderr);
	close(1);
	close(2);
	finish_command(&pager);
}

void setup_pager(const struct maint_config *cfg, const char *cmd)
{
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	const char *env[3] = { NULL };
	struct run_opts o = { .argv = argv, .env = env };
	char *pager_cmd;
	size_t n = 0;

	if (!isatty(1) || pager_in_use())
		return;
	pager_cmd = pager_command(cfg, cmd);
	if (!pager_cmd)
		return;
	argv[2] = pager_cmd;
	if (!getenv("LESS"))
		env[n++] = "LESS=FRX";
	if (!getenv("LV"))
		env[n++] = "LV=-c";
	if (start_command(&pager, &o, CHILD_PIPE_IN) < 0) {
		warning("cannot run the pager '%s'", pager_cmd);
		free(pager_cmd);
		return;
	}
	free(pager_cmd);
	/* what we write goes to it, and our errors too when they would reach the terminal */
	dup2(pager.in, 1);
	if (isatty(2))
		dup2(pager.in, 2);
	close(pager.in);
	pager.in = -1;
	setenv("GIT_PAGER_IN_USE", "true", 1);
	/* a pager that quits early ends us quietly (SIGPIPE), as git */
	on_exit(wait_for_pager, NULL);
}
