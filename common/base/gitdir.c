/* SPDX-License-Identifier: GPL-2.0-only */
#include "gitdir.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_kind(const char *dir, const char *sub, mode_t kind)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ok;

	strbuf_addf(&path, "%s/%s", dir, sub);
	ok = !stat(path.buf, &st) && (st.st_mode & S_IFMT) == kind;
	strbuf_release(&path);
	return ok;
}

static int read_path_file(struct strbuf *out, const char *file, const char *prefix, const char *base);

int gitdir_is_repository(const char *dir)
{
	struct strbuf file = STRBUF_INIT, common = STRBUF_INIT;
	int ok;

	/* a linked worktree's objects and refs are in its commondir */
	strbuf_addf(&file, "%s/commondir", dir);
	if (read_path_file(&common, file.buf, "", dir))
		strbuf_addstr(&common, dir);
	ok = is_kind(dir, "HEAD", S_IFREG) && is_kind(common.buf, "objects", S_IFDIR) &&
	     is_kind(common.buf, "refs", S_IFDIR);
	strbuf_release(&file);
	strbuf_release(&common);
	return ok;
}

/*
 * Reads a one-line file (a gitfile's "gitdir: <path>", a worktree's
 * commondir) into out, the path made absolute against base when
 * relative, without a trailing '/'. Returns 0, or -1 when the file is
 * missing or not of that form.
 */
static int read_path_file(struct strbuf *out, const char *file, const char *prefix, const char *base)
{
	struct strbuf buf = STRBUF_INIT;
	const char *p;
	int ret = -1;

	if (strbuf_read_file(&buf, file, 128) >= 0) {
		strbuf_trim(&buf);
		p = buf.buf;
		if (buf.len && !memchr(buf.buf, '\n', buf.len) && !memchr(buf.buf, '\0', buf.len) &&
		    skip_prefix(p, prefix, &p) && *p) {
			strbuf_reset(out);
			if (*p != '/')
				strbuf_addf(out, "%s/", base);
			strbuf_addstr(out, p);
			while (out->len > 1 && out->buf[out->len - 1] == '/')
				strbuf_setlen(out, out->len - 1);
			ret = 0;
		}
	}
	strbuf_release(&buf);
	return ret;
}

/* The directory of path ("." when it has none). */
static void dirname_of(struct strbuf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	strbuf_reset(out);
	if (!slash)
		strbuf_addch(out, '.');
	else if (slash == path)
		strbuf_addch(out, '/');
	else
		strbuf_add(out, path, slash - path);
}

/* A gitfile at file naming a repository: 0 and out, else -1. */
static int follow_gitfile(struct strbuf *out, const char *file)
{
	struct strbuf base = STRBUF_INIT;
	int ret;

	dirname_of(&base, file);
	ret = read_path_file(out, file, "gitdir: ", base.buf);
	strbuf_release(&base);
	if (!ret && !gitdir_is_repository(out->buf))
		ret = -1;
	return ret;
}

/* Is dir one of the colon-separated directories of GIT_CEILING_DIRECTORIES? */
static int is_ceiling(const char *dir)
{
	const char *list = getenv("GIT_CEILING_DIRECTORIES");
	int hit = 0;

	while (list && *list && !hit) {
		const char *colon = strchr(list, ':');
		char *one = xstrndup(list, colon ? (size_t)(colon - list) : strlen(list));
		char *real = *one == '/' ? realpath(one, NULL) : NULL;

		hit = real && !strcmp(real, dir);
		free(real);
		free(one);
		list = colon ? colon + 1 : NULL;
	}
	return hit;
}

static int from_env(struct strbuf *out, enum gitdir_how *how, const char *env)
{
	struct stat st;

	if (!stat(env, &st) && S_ISREG(st.st_mode)) {
		*how = GITDIR_GITFILE;
		return follow_gitfile(out, env) ? 1 : 0;
	}
	strbuf_addstr(out, env);
	*how = GITDIR_DOTGIT;
	return gitdir_is_repository(out->buf) ? 0 : 1;
}

/* One step of the walk: 0 found in dir, 1 not there. */
static int look_in(struct strbuf *out, enum gitdir_how *how, const char *dir)
{
	struct strbuf dotgit = STRBUF_INIT;
	struct stat st;
	int ret = 1;

	strbuf_addf(&dotgit, "%s/.git", strcmp(dir, "/") ? dir : "");
	if (!stat(dotgit.buf, &st) && S_ISDIR(st.st_mode) && gitdir_is_repository(dotgit.buf)) {
		strbuf_addbuf(out, &dotgit);
		*how = GITDIR_DOTGIT;
		ret = 0;
	} else if (!stat(dotgit.buf, &st) && S_ISREG(st.st_mode)) {
		*how = GITDIR_GITFILE;
		ret = follow_gitfile(out, dotgit.buf) ? 1 : 0;
	} else if (gitdir_is_repository(dir)) {
		strbuf_addstr(out, dir);
		*how = GITDIR_BARE;
		ret = 0;
	}
	strbuf_release(&dotgit);
	return ret;
}

static int walk_up(struct strbuf *out, enum gitdir_how *how)
{
	int one_filesystem = !env_true("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	struct strbuf dir = STRBUF_INIT;
	char *cwd = getcwd(NULL, 0);
	struct stat st;
	dev_t dev;
	int ret = 1;

	if (!cwd || stat(cwd, &st) < 0)
		goto done;
	dev = st.st_dev;
	strbuf_addstr(&dir, cwd);
	for (;;) {
		char *slash;

		ret = look_in(out, how, dir.buf);
		/* a gitfile that names no repository ends the walk, as git dies there */
		if (!ret || *how == GITDIR_GITFILE)
			break;
		slash = strrchr(dir.buf, '/');
		if (!slash || dir.len == 1)
			break;
		strbuf_setlen(&dir, slash == dir.buf ? 1 : (size_t)(slash - dir.buf));
		if (is_ceiling(dir.buf) || stat(dir.buf, &st) < 0 ||
		    (one_filesystem && st.st_dev != dev))
			break;
	}
done:
	free(cwd);
	strbuf_release(&dir);
	return ret;
}

/* The environment the discovery reads: what, besides the directory, it depends on. */
static const char *const discovery_env[] = {
	"GIT_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
};
#define DISCOVERY_ENV_NR (sizeof(discovery_env) / sizeof(*discovery_env))

/* The last discovery's answer, and what it was asked from. */
static struct {
	int known;
	char *cwd, *env[DISCOVERY_ENV_NR];
	struct strbuf dir;
	enum gitdir_how how;
	int ret;
} found = { .dir = STRBUF_INIT };

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Is the answer in found one asked from cwd in this environment? Takes cwd. */
static int found_holds(char *cwd)
{
	int holds = found.known && same(found.cwd, cwd);

	for (size_t i = 0; holds && i < DISCOVERY_ENV_NR; i++)
		holds = same(found.env[i], getenv(discovery_env[i]));
	if (holds) {
		free(cwd);
		return 1;
	}
	free(found.cwd);
	found.cwd = cwd;
	for (size_t i = 0; i < DISCOVERY_ENV_NR; i++) {
		const char *v = getenv(discovery_env[i]);

		free(found.env[i]);
		found.env[i] = xstrdup_or_null(v);
	}
	return 0;
}

int gitdir_discover(struct strbuf *out, enum gitdir_how *how)
{
	if (!found_holds(getcwd(NULL, 0))) {
		const char *env = getenv("GIT_DIR");

		found.how = GITDIR_DOTGIT;
		strbuf_reset(&found.dir);
		found.ret = env && *env ? from_env(&found.dir, &found.how, env) :
			    walk_up(&found.dir, &found.how);
		if (found.ret)
			strbuf_reset(&found.dir);
		found.known = 1;
	}
	strbuf_reset(out);
	strbuf_addbuf(out, &found.dir);
	if (how)
		*how = found.how;
	return found.ret;
}

int gitdir_discover_common(struct strbuf *out)
{
	struct strbuf file = STRBUF_INIT, common = STRBUF_INIT;

	if (gitdir_discover(out, NULL))
		return 1;
	strbuf_addf(&file, "%s/commondir", out->buf);
	if (!read_path_file(&common, file.buf, "", out->buf)) {
		strbuf_reset(out);
		strbuf_addbuf(out, &common);
	}
	strbuf_release(&file);
	strbuf_release(&common);
	return 0;
}
