/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user's editor (see editor.h).
 */
#include "editor.h"
#include "config.h"
#include "run-command.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

char *editor_program(const struct maint_config *cfg)
{
	const char *term = getenv("TERM"), *e = env_nonempty("GIT_EDITOR");
	int dumb = !term || !strcmp(term, "dumb");
	char *configured;

	if (e)
		return xstrdup(e);
	configured = config_git_string(cfg, "core.editor");
	if (configured && *configured)
		return configured;
	free(configured);
	if (!dumb && (e = env_nonempty("VISUAL")))
		return xstrdup(e);
	if ((e = env_nonempty("EDITOR")))
		return xstrdup(e);
	return dumb ? NULL : xstrdup("vi");
}

int editor_launch(const struct maint_config *cfg, const char *path)
{
	char *editor = editor_program(cfg);
	struct strbuf script = STRBUF_INIT;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL, path, NULL };
	struct run_opts o = { argv, NULL, NULL, 0, NULL, NULL, 1 };
	int status;

	if (!editor)
		return error("terminal is dumb, but EDITOR unset");
	if (!strcmp(editor, ":")) {
		free(editor);
		return 0;
	}
	strbuf_addf(&script, "%s \"$@\"", editor);
	argv[2] = script.buf;
	argv[3] = editor;
	status = run_command_opts(&o);
	if (status > 0)
		error("there was a problem with the editor '%s'", editor);
	strbuf_release(&script);
	free(editor);
	return status ? -1 : 0;
}
