#include "worktree.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

int worktree_branch_state(git_repository *repo, const char *refname)
{
	git_reference *head = NULL, *branch = NULL;
	int ret = 0, rc;

	if (git_repository_is_bare(repo))
		return 0;
	rc = git_reference_lookup(&head, repo, "HEAD");
	if (rc == 0 && git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strcmp(git_reference_symbolic_target(head), refname)) {
		git_reference_free(head);
		return 1;
	}
	git_reference_free(head);
	rc = git_reference_lookup(&branch, repo, refname);
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (lg2_check(rc, "cannot read '%s'", refname) < 0)
		return -1;
	rc = git_branch_is_checked_out(branch);
	git_reference_free(branch);
	if (rc < 0)
		return lg2_check(rc, "cannot tell where '%s' is checked out", refname);
	if (rc) {
		error("'%s' is checked out in another worktree; queue from there", refname);
		ret = 2;
	}
	return ret;
}

int tree_changed_paths(struct strvec *out, git_repository *repo, const git_oid *a, const git_oid *b)
{
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	int ret = -1;

	/* Names only: no blob is read (no binary check, no rename detection). */
	opts.flags |= GIT_DIFF_SKIP_BINARY_CHECK;
	if (a && lg2_check(git_tree_lookup(&ta, repo, a), "cannot read tree") < 0)
		goto out;
	if (lg2_check(git_tree_lookup(&tb, repo, b), "cannot read tree") < 0)
		goto out;
	if (lg2_check(git_diff_tree_to_tree(&diff, repo, ta, tb, &opts), "cannot compare trees") < 0)
		goto out;
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strvec_push(out, d->new_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strvec_push(out, d->old_file.path);
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * libgit2 matches every file against every pathspec entry, so with many
 * paths a full status filtered here (sorted list, binary search) is
 * cheaper than a pathspec.
 */
#define PATHSPEC_MAX 64

int worktree_check_clean(git_repository *repo, const struct strvec *paths, const char *doing)
{
	git_status_options opts = GIT_STATUS_OPTIONS_INIT;
	git_status_list *list = NULL;
	struct strbuf sb = STRBUF_INIT;
	const char **sorted = NULL;
	size_t n;
	int ret = -1;

	if (!paths->nr)
		return 0;
	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
		     GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (paths->nr <= PATHSPEC_MAX) {
		opts.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
		opts.pathspec.strings = (char **)paths->v;
		opts.pathspec.count = paths->nr;
	} else {
		sorted = xmalloc(st_mult(paths->nr, sizeof(*sorted)));
		memcpy(sorted, paths->v, paths->nr * sizeof(*sorted));
		qsort(sorted, paths->nr, sizeof(*sorted), cmp_str);
	}
	if (lg2_check(git_status_list_new(&list, repo, &opts), "cannot read the work tree status") < 0)
		goto out;
	n = git_status_list_entrycount(list);
	for (size_t i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ? e->index_to_workdir : e->head_to_index;
		const char *path;

		if (!d)
			continue;
		path = d->new_file.path;
		if (sorted && !bsearch(&path, sorted, paths->nr, sizeof(*sorted), cmp_str))
			continue;
		strbuf_addf(&sb, "\n\t%s", path);
	}
	if (sb.len) {
		error("your local changes to these files would be overwritten by %s:%s\n"
		      "commit or stash them first", doing, sb.buf);
		ret = 1;
	} else {
		ret = 0;
	}
out:
	free(sorted);
	strbuf_release(&sb);
	git_status_list_free(list);
	return ret;
}

/* ---- writing the paths ourselves ---- */

struct sync {
	git_repository *repo;
	git_index *index;
	const char *workdir;
	int symlinks;		/* core.symlinks */
	int filters;		/* smudge filters may apply: ask libgit2 per file */
	const struct worktree_content *content;
	struct strbuf full;	/* workdir + path */
	struct strbuf dirty;	/* "\n\t<path>" per path with local changes */
	struct strbuf made;	/* the last directory made sure of (paths come sorted) */
	int conflicts;		/* the index had conflicts when read */
};

static const char *full_path(struct sync *sy, const char *path)
{
	strbuf_setlen(&sy->full, 0);
	strbuf_addstr(&sy->full, sy->workdir);
	strbuf_addstr(&sy->full, path);
	return sy->full.buf;
}

/* The blob id of what the work tree holds at path (git's clean filters applied). */
static int hash_worktree(struct sync *sy, const char *path, const struct stat *st, git_oid *out)
{
	if (S_ISLNK(st->st_mode)) {
		struct strbuf target = STRBUF_INIT;
		ssize_t n;

		strbuf_grow(&target, (size_t)st->st_size + 1);
		n = readlink(full_path(sy, path), target.buf, (size_t)st->st_size + 1);
		if (n < 0) {
			strbuf_release(&target);
			return error_errno("cannot read '%s'", sy->full.buf);
		}
		strbuf_setlen(&target, (size_t)n);
		n = lg2_check(git_odb_hash(out, target.buf, target.len, GIT_OBJECT_BLOB),
			      "cannot hash '%s'", path);
		strbuf_release(&target);
		return (int)n;
	}
	return lg2_check(git_repository_hashfile(out, sy->repo, full_path(sy, path), GIT_OBJECT_BLOB,
						 path), "cannot hash '%s'", path);
}

/* Does the work tree file still hold what the index entry says? 1 yes, 0 no, -1 error. */
static int worktree_matches(struct sync *sy, const git_index_entry *ie, const struct stat *st)
{
	git_oid oid;

	/* A submodule is a directory of its own: queue never looks into it, as git am does not. */
	if (ie->mode == GIT_FILEMODE_COMMIT)
		return S_ISDIR(st->st_mode);
	if (S_ISDIR(st->st_mode) || (ie->mode == GIT_FILEMODE_LINK) != (S_ISLNK(st->st_mode) && sy->symlinks))
		return 0;
	if ((uint32_t)st->st_size == ie->file_size && (int32_t)st->st_mtime == ie->mtime.seconds &&
	    (uint32_t)st->st_mtim.tv_nsec == ie->mtime.nanoseconds &&
	    (uint32_t)st->st_ino == ie->ino)
		return 1;
	if (hash_worktree(sy, ie->path, st, &oid) < 0)
		return -1;
	return git_oid_equal(&oid, &ie->id);
}

/*
 * Records path in sy->dirty when the index or the work tree holds
 * something else than the old tree's entry (te_from, NULL when the old
 * tree has no such file): staged or unstaged changes, an untracked file
 * in the way.
 */
static int check_path(struct sync *sy, const char *path, const git_tree_entry *te_from)
{
	const git_index_entry *ie = git_index_get_bypath(sy->index, path, 0);
	struct stat st;
	int have = !lstat(full_path(sy, path), &st), rc = 1;

	if (!have && errno != ENOENT && errno != ENOTDIR)
		return error_errno("cannot look at '%s'", sy->full.buf);
	if (te_from) {
		if (!ie || !git_oid_equal(&ie->id, git_tree_entry_id(te_from)) ||
		    ie->mode != (uint32_t)git_tree_entry_filemode(te_from) || !have)
			rc = 0;
		else if ((rc = worktree_matches(sy, ie, &st)) < 0)
			return -1;
	} else if (ie || (have && !S_ISDIR(st.st_mode))) {
		/*
		 * A directory in the way is emptied by the removals (its
		 * tracked files are among the paths) or refused when the file is
		 * written (something untracked is left in it).
		 */
		rc = 0;
	}
	if (!rc)
		strbuf_addf(&sy->dirty, "\n\t%s", path);
	return 0;
}

/* Removes the now empty directories leading to path, innermost first. */
static void remove_empty_parents(struct sync *sy, const char *path)
{
	full_path(sy, path);
	for (;;) {
		char *slash = strrchr(sy->full.buf + strlen(sy->workdir), '/');

		if (!slash)
			break;
		*slash = '\0';
		if (rmdir(sy->full.buf) < 0)
			break;
	}
}

/* Drops the conflict stages of path from the index, if it has any. */
static int drop_conflict(struct sync *sy, const char *path)
{
	int rc;

	if (!sy->conflicts ||
	    (!git_index_get_bypath(sy->index, path, 1) && !git_index_get_bypath(sy->index, path, 2) &&
	     !git_index_get_bypath(sy->index, path, 3)))
		return 0;
	rc = git_index_conflict_remove(sy->index, path);
	if (rc == GIT_ENOTFOUND)
		return 0;
	return lg2_check(rc, "cannot drop the conflict of '%s' from the index", path);
}

static int remove_path(struct sync *sy, const char *path)
{
	struct stat st;
	int rc;

	if (!lstat(full_path(sy, path), &st) && !S_ISDIR(st.st_mode) && unlink(sy->full.buf) < 0 &&
	    errno != ENOENT)
		return error_errno("cannot remove '%s'", sy->full.buf);
	remove_empty_parents(sy, path);
	if (drop_conflict(sy, path) < 0)
		return -1;
	rc = git_index_remove(sy->index, path, 0);
	if (rc == GIT_ENOTFOUND)
		return 0;
	return lg2_check(rc, "cannot remove '%s' from the index", path);
}

/* Creates the directories leading to path; a file in the way goes (it was checked). */
static int make_parents(struct sync *sy, const char *path)
{
	size_t base = strlen(sy->workdir);
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 0;

	/* The same directory as the path before, or one above it: there already. */
	if (!dlen || (sy->made.len >= dlen && !memcmp(sy->made.buf, path, dlen) &&
		      (sy->made.len == dlen || sy->made.buf[dlen] == '/')))
		return 0;
	full_path(sy, path);
	for (char *p = sy->full.buf + base; (p = strchr(p, '/')); p++) {
		struct stat st;

		*p = '\0';
		if (mkdir(sy->full.buf, 0777) < 0) {
			if (errno != EEXIST || lstat(sy->full.buf, &st) < 0) {
				error_errno("cannot create directory '%s'", sy->full.buf);
				*p = '/';
				return -1;
			}
			if (!S_ISDIR(st.st_mode) && (unlink(sy->full.buf) < 0 || mkdir(sy->full.buf, 0777) < 0)) {
				error_errno("cannot create directory '%s'", sy->full.buf);
				*p = '/';
				return -1;
			}
		}
		*p = '/';
	}
	strbuf_setlen(&sy->made, 0);
	strbuf_add(&sy->made, path, dlen);
	return 0;
}

/*
 * Writes path: the blob oid with mode (its bytes from cdata when not
 * NULL, else from sy->content or the repository), and its index entry;
 * with stages (base, ours, theirs), the index gets those three instead
 * (a conflict left for the user, cdata the file with conflict markers).
 */
static int write_file(struct sync *sy, const char *path, unsigned mode, const git_oid *oid,
		      const char *cdata, size_t clen, const git_oid *stages)
{
	git_blob *blob = NULL;
	git_buf filtered = GIT_BUF_INIT;
	git_blob_filter_options fopts = GIT_BLOB_FILTER_OPTIONS_INIT;
	git_index_entry ie;
	struct stat st;
	const char *data;
	size_t len;
	int fd = -1, ret = -1, in_place = 0, keep_dir = 0, rc;

	if (drop_conflict(sy, path) < 0 || make_parents(sy, path) < 0)
		return -1;
	full_path(sy, path);
	if (!lstat(sy->full.buf, &st)) {
		/*
		 * A regular file becoming a regular file is rewritten in
		 * place: a new file costs the file system an inode, and
		 * truncating to nothing makes ext4 write the data out at once.
		 */
		in_place = S_ISREG(st.st_mode) && st.st_nlink == 1 && (st.st_mode & S_IWUSR) &&
			   st.st_uid == geteuid() &&
			   (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE);
		/* A submodule's directory stays (with what is checked out in it). */
		keep_dir = mode == GIT_FILEMODE_COMMIT && S_ISDIR(st.st_mode);
		if (!in_place && !keep_dir && (S_ISDIR(st.st_mode) ? rmdir(sy->full.buf) < 0 : unlink(sy->full.buf) < 0))
			return error_errno("cannot replace '%s'", sy->full.buf);
	}
	memset(&ie, 0, sizeof(ie));
	if (mode == GIT_FILEMODE_COMMIT) {
		if (!keep_dir && mkdir(sy->full.buf, 0777) < 0)
			return error_errno("cannot create directory '%s'", sy->full.buf);
		goto add;
	}
	if (cdata) {
		data = cdata;
		len = clen;
	} else if (!sy->content || !sy->content->get(sy->content->data, path, oid, &data, &len)) {
		if (lg2_check(git_blob_lookup(&blob, sy->repo, oid), "cannot read '%s'", path) < 0)
			return -1;
		data = git_blob_rawcontent(blob);
		len = (size_t)git_blob_rawsize(blob);
	}
	if (mode != GIT_FILEMODE_LINK && sy->filters) {
		/* Smudge filters (crlf, ident, drivers), as checkout applies them; usually none. */
		git_filter_list *fl = NULL;

		if (lg2_check(git_filter_list_load(&fl, sy->repo, blob, path, GIT_FILTER_TO_WORKTREE, 0),
			      "cannot load the filters for '%s'", path) < 0)
			goto out;
		if (fl && cdata) {
			rc = git_filter_list_apply_to_buffer(&filtered, fl, data, len);
			git_filter_list_free(fl);
			if (lg2_check(rc, "cannot filter '%s'", path) < 0)
				goto out;
			data = filtered.ptr;
			len = filtered.size;
		} else if (fl) {
			git_filter_list_free(fl);
			if (!blob && lg2_check(git_blob_lookup(&blob, sy->repo, oid),
					       "cannot read '%s'", path) < 0)
				goto out;
			if (lg2_check(git_blob_filter(&filtered, blob, path, &fopts), "cannot filter '%s'",
				      path) < 0)
				goto out;
			data = filtered.ptr;
			len = filtered.size;
		}
	}
	if (mode == GIT_FILEMODE_LINK && sy->symlinks) {
		char *target = xstrndup(data, len);
		int rc = symlink(target, full_path(sy, path));

		free(target);
		if (rc < 0 || lstat(sy->full.buf, &st) < 0) {
			error_errno("cannot create symbolic link '%s'", sy->full.buf);
			goto out;
		}
	} else if (in_place) {
		mode_t perm = st.st_mode & 07777;

		/* Execute permission where there is read permission, as git gives it. */
		if (mode == GIT_FILEMODE_BLOB_EXECUTABLE)
			perm |= (perm & 0444) >> 2;
		else
			perm &= ~(mode_t)0111;
		fd = open(full_path(sy, path), O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_in_full(fd, data, len) < 0 ||
		    ((off_t)len != st.st_size && ftruncate(fd, (off_t)len) < 0) ||
		    (perm != (st.st_mode & 07777) && fchmod(fd, perm) < 0) || fstat(fd, &st) < 0) {
			error_errno("cannot write '%s'", sy->full.buf);
			goto out;
		}
	} else {
		fd = open(full_path(sy, path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0777 : 0666);
		if (fd < 0 || write_in_full(fd, data, len) < 0 || fstat(fd, &st) < 0) {
			error_errno("cannot write '%s'", sy->full.buf);
			goto out;
		}
	}
	ie.ctime.seconds = (int32_t)st.st_ctime;
	ie.ctime.nanoseconds = (uint32_t)st.st_ctim.tv_nsec;
	ie.mtime.seconds = (int32_t)st.st_mtime;
	ie.mtime.nanoseconds = (uint32_t)st.st_mtim.tv_nsec;
	ie.dev = (uint32_t)st.st_dev;
	ie.ino = (uint32_t)st.st_ino;
	ie.uid = (uint32_t)st.st_uid;
	ie.gid = (uint32_t)st.st_gid;
	ie.file_size = (uint32_t)st.st_size;
add:
	ie.mode = mode;
	ie.path = path;
	if (stages) {
		rc = git_index_remove(sy->index, path, 0);
		if (rc && rc != GIT_ENOTFOUND) {
			lg2_check(rc, "cannot remove '%s' from the index", path);
			goto out;
		}
		memset(&ie, 0, sizeof(ie));
		ie.mode = mode;
		ie.path = path;
		ret = 0;
		for (int k = 0; k < 3 && !ret; k++) {
			GIT_INDEX_ENTRY_STAGE_SET(&ie, k + 1);
			git_oid_cpy(&ie.id, &stages[k]);
			ret = lg2_check(git_index_add(sy->index, &ie), "cannot add '%s' to the index", path);
		}
		goto out;
	}
	git_oid_cpy(&ie.id, oid);
	/* Just written: not racily clean (libgit2 would hash it again when writing the index). */
	ie.flags_extended = GIT_INDEX_ENTRY_UPTODATE;
	ret = lg2_check(git_index_add(sy->index, &ie), "cannot add '%s' to the index", path);
out:
	if (fd >= 0 && close(fd) < 0 && !ret)
		ret = error_errno("cannot write '%s'", sy->full.buf);
	git_buf_dispose(&filtered);
	git_blob_free(blob);
	return ret;
}

static int file_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/*
 * Could a smudge filter apply to any of paths? Only through an
 * attributes file (a .gitattributes in a directory leading to one of
 * the paths, in the new tree or in the work tree; info/attributes; the
 * global or system file) or core.autocrlf / core.eol. Asking libgit2
 * file by file costs a look at every directory of every path.
 * 1 maybe, 0 no, -1 error.
 */
static int filters_possible(struct sync *sy, git_config *cfg, git_tree *to, const struct strvec *paths)
{
	struct strvec dirs = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	git_config_entry *ce = NULL;
	const char *env;
	int ret = 1;

	if (!cfg)
		goto out;
	if (git_config_get_entry(&ce, cfg, "core.autocrlf") == 0 && strcasecmp(ce->value, "false")) {
		git_config_entry_free(ce);
		goto out;
	}
	git_config_entry_free(ce);
	ce = NULL;
	if (git_config_get_entry(&ce, cfg, "core.eol") == 0 ||
	    git_config_get_entry(&ce, cfg, "core.attributesfile") == 0) {
		git_config_entry_free(ce);
		goto out;
	}
	strbuf_addf(&sb, "%sinfo/attributes", git_repository_commondir(sy->repo));
	if (file_exists(sb.buf) || file_exists("/etc/gitattributes"))
		goto out;
	strbuf_setlen(&sb, 0);
	if ((env = getenv("XDG_CONFIG_HOME")) && *env)
		strbuf_addf(&sb, "%s/git/attributes", env);
	else if ((env = getenv("HOME")))
		strbuf_addf(&sb, "%s/.config/git/attributes", env);
	if (sb.len && file_exists(sb.buf))
		goto out;
	/* Every directory leading to a path (the root is ""), sorted, each looked at once. */
	strvec_push(&dirs, "");
	for (size_t i = 0; i < paths->nr; i++) {
		const char *p = paths->v[i];

		for (const char *slash = strchr(p, '/'); slash; slash = strchr(slash + 1, '/'))
			strvec_push_mem(&dirs, p, slash - p);
	}
	qsort(dirs.v, dirs.nr, sizeof(*dirs.v), cmp_str);
	for (size_t i = 0; i < dirs.nr; i++) {
		git_tree_entry *te = NULL;
		int rc;

		if (i && !strcmp(dirs.v[i], dirs.v[i - 1]))
			continue;
		strbuf_setlen(&sb, 0);
		if (*dirs.v[i])
			strbuf_addf(&sb, "%s/", dirs.v[i]);
		strbuf_addstr(&sb, ".gitattributes");
		rc = to ? git_tree_entry_bypath(&te, to, sb.buf) : GIT_ENOTFOUND;
		git_tree_entry_free(te);
		if (rc == 0 || file_exists(full_path(sy, sb.buf)))
			goto out;
		if (rc != GIT_ENOTFOUND) {
			ret = lg2_check(rc, "cannot read tree entry '%s'", sb.buf);
			goto out;
		}
	}
	ret = 0;
out:
	strvec_clear(&dirs);
	strbuf_release(&sb);
	return ret;
}

/*
 * Looks up paths in one tree, keeping the subtrees along the directory
 * of the last path: git_tree_entry_bypath() reads every subtree of the
 * path again (libgit2 caches no large tree), so 100,000 files in one
 * directory read it 100,000 times. Paths come sorted: each directory
 * is read once.
 */
struct tree_cursor {
	git_repository *repo;
	git_tree **trees;	/* trees[0] the root (borrowed), then one per directory level */
	size_t *ends;		/* ends[k]: the length of the directory trees[k] is */
	size_t nr, alloc;	/* nr 0: no tree at all */
	const char *dir;	/* the path whose directory the stack follows (borrowed) */
};

static void cursor_init(struct tree_cursor *c, git_repository *repo, git_tree *root)
{
	memset(c, 0, sizeof(*c));
	c->repo = repo;
	if (!root)
		return;
	ALLOC_GROW(c->trees, 1, c->alloc);
	c->ends = xcalloc(c->alloc, sizeof(*c->ends));
	c->trees[0] = root;
	c->ends[0] = 0;
	c->nr = 1;
	c->dir = "";
}

static void cursor_release(struct tree_cursor *c)
{
	for (size_t k = 1; k < c->nr; k++)
		git_tree_free(c->trees[k]);
	free(c->trees);
	free(c->ends);
}

/* The file (blob, link or gitlink) entry at path, or NULL (dup'ed: the caller frees it). */
static int entry_bypath(git_tree_entry **out, struct tree_cursor *c, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t dlen = base ? (size_t)(base - path) : 0;
	const git_tree_entry *te;
	size_t k = 1;

	*out = NULL;
	if (!c->nr)
		return 0;
	/* keep the levels the directory of path shares with the last one */
	while (k < c->nr && c->ends[k] <= dlen && !memcmp(c->dir, path, c->ends[k]) &&
	       (c->ends[k] == dlen || path[c->ends[k]] == '/'))
		k++;
	while (c->nr > k)
		git_tree_free(c->trees[--c->nr]);
	c->dir = path;
	while (c->ends[c->nr - 1] < dlen) {
		size_t from = c->ends[c->nr - 1] ? c->ends[c->nr - 1] + 1 : 0;
		const char *slash = memchr(path + from, '/', dlen - from);
		size_t to = slash ? (size_t)(slash - path) : dlen;
		char *name = xstrndup(path + from, to - from);
		git_tree *sub;
		int rc;

		te = git_tree_entry_byname(c->trees[c->nr - 1], name);
		free(name);
		if (!te || git_tree_entry_type(te) != GIT_OBJECT_TREE)
			return 0;
		rc = git_tree_lookup(&sub, c->repo, git_tree_entry_id(te));
		if (rc < 0)
			return lg2_check(rc, "cannot read tree entry '%.*s'", (int)to, path);
		ALLOC_GROW(c->trees, c->nr + 1, c->alloc);
		c->ends = xrealloc(c->ends, c->alloc * sizeof(*c->ends));
		c->trees[c->nr] = sub;
		c->ends[c->nr++] = to;
	}
	te = git_tree_entry_byname(c->trees[c->nr - 1], base ? base + 1 : path);
	/* A directory there: no file at path (its files are paths of their own). */
	if (!te || git_tree_entry_type(te) == GIT_OBJECT_TREE)
		return 0;
	return lg2_check(git_tree_entry_dup(out, te), "cannot read tree entry '%s'", path);
}

int worktree_sync(git_repository *repo, const git_oid *from, const git_oid *to,
		  const struct strvec *paths, int force, const struct worktree_content *content)
{
	struct sync sy = { repo, NULL, NULL, 1, 0, content, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0 };
	git_tree *tfrom = NULL, *tto = NULL;
	git_tree_entry **tes = NULL;
	struct tree_cursor cto = { 0 }, cfrom = { 0 };
	git_config *cfg = NULL;
	int ret = -1, v;

	if (!paths->nr)
		return 0;
	sy.workdir = git_repository_workdir(repo);
	if (!sy.workdir)
		return error("the repository has no work tree to update");
	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&v, cfg, "core.symlinks") == 0)
			sy.symlinks = v;
	}
	if ((from && lg2_check(git_tree_lookup(&tfrom, repo, from), "cannot read tree") < 0) ||
	    lg2_check(git_tree_lookup(&tto, repo, to), "cannot read tree") < 0)
		goto out;
	sy.filters = filters_possible(&sy, cfg, tto, paths);
	if (sy.filters < 0 ||
	    lg2_check(git_repository_index(&sy.index, repo), "cannot read the index") < 0 ||
	    lg2_check(git_index_read(sy.index, 0), "cannot read the index") < 0)
		goto out;
	sy.conflicts = git_index_has_conflicts(sy.index);
	tes = xcalloc(paths->nr, sizeof(*tes));
	cursor_init(&cto, repo, tto);
	cursor_init(&cfrom, repo, tfrom);
	for (size_t i = 0; i < paths->nr; i++)
		if (entry_bypath(&tes[i], &cto, paths->v[i]) < 0)
			goto out;
	if (!force) {
		for (size_t i = 0; i < paths->nr; i++) {
			git_tree_entry *te_from;
			int rc;

			if (entry_bypath(&te_from, &cfrom, paths->v[i]) < 0)
				goto out;
			rc = check_path(&sy, paths->v[i], te_from);
			git_tree_entry_free(te_from);
			if (rc < 0)
				goto out;
		}
		if (sy.dirty.len) {
			error("your local changes to these files would be overwritten:%s\n"
			      "commit or stash them first", sy.dirty.buf);
			goto out;
		}
	}
	/* Removals first: a directory emptied by them may become a file. */
	for (size_t i = 0; i < paths->nr; i++)
		if (!tes[i] && remove_path(&sy, paths->v[i]) < 0)
			goto out;
	/*
	 * The blobs exist (we just wrote or read them): libgit2's check of
	 * each id added to the index (strict object creation, on by
	 * default) would read every object's header again.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
	for (size_t i = 0; i < paths->nr; i++)
		if (tes[i] && write_file(&sy, paths->v[i], git_tree_entry_filemode(tes[i]),
					 git_tree_entry_id(tes[i]), NULL, 0, NULL) < 0) {
			git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 1);
			goto out;
		}
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 1);
	ret = lg2_check(git_index_write(sy.index), "cannot write the index");
out:
	git_config_free(cfg);
	for (size_t i = 0; tes && i < paths->nr; i++)
		git_tree_entry_free(tes[i]);
	free(tes);
	cursor_release(&cto);
	cursor_release(&cfrom);
	git_index_free(sy.index);
	git_tree_free(tfrom);
	git_tree_free(tto);
	strbuf_release(&sy.full);
	strbuf_release(&sy.dirty);
	strbuf_release(&sy.made);
	return ret;
}

int worktree_write_files(git_repository *repo, const struct worktree_file *files, size_t nr)
{
	struct sync sy = { repo, NULL, NULL, 1, 0, NULL, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0 };
	struct strvec paths = STRVEC_INIT;
	git_config *cfg = NULL;
	int ret = -1, v;

	sy.workdir = git_repository_workdir(repo);
	if (!sy.workdir)
		return error("the repository has no work tree to update");
	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_bool(&v, cfg, "core.symlinks") == 0)
		sy.symlinks = v;
	for (size_t i = 0; i < nr; i++)
		strvec_push(&paths, files[i].path);
	sy.filters = filters_possible(&sy, cfg, NULL, &paths);
	if (sy.filters < 0 ||
	    lg2_check(git_repository_index(&sy.index, repo), "cannot read the index") < 0 ||
	    lg2_check(git_index_read(sy.index, 0), "cannot read the index") < 0)
		goto out;
	sy.conflicts = git_index_has_conflicts(sy.index);
	for (size_t i = 0; i < nr; i++)
		if (files[i].deleted && remove_path(&sy, files[i].path) < 0)
			goto out;
	for (size_t i = 0; i < nr; i++) {
		const struct worktree_file *f = &files[i];

		if (!f->deleted && write_file(&sy, f->path, f->mode, &f->oid, f->data, f->len,
					      f->conflicted ? f->stages : NULL) < 0)
			goto out;
	}
	ret = lg2_check(git_index_write(sy.index), "cannot write the index");
out:
	git_config_free(cfg);
	git_index_free(sy.index);
	strvec_clear(&paths);
	strbuf_release(&sy.full);
	strbuf_release(&sy.dirty);
	strbuf_release(&sy.made);
	return ret;
}
