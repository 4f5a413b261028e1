/* SPDX-License-Identifier: GPL-2.0-only */
#include "worktree.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <dirent.h>
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

/*
 * The mode git's index holds for a tree entry's (git's canon_mode()):
 * legacy trees have 100664 or 100775 entries, which git reads as 100644
 * and 100755 (libgit2's diffs compare them as they are written).
 */
static uint32_t canon_mode(uint32_t mode)
{
	if (S_ISREG(mode))
		return (mode & 0100) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
	if (S_ISLNK(mode))
		return GIT_FILEMODE_LINK;
	if (S_ISDIR(mode))
		return GIT_FILEMODE_TREE;
	return GIT_FILEMODE_COMMIT;
}

/* A delta that only spells a mode differently (100664 against 100644): no change for git. */
static int same_for_git(const git_diff_delta *d)
{
	return d->status == GIT_DELTA_MODIFIED && git_oid_equal(&d->old_file.id, &d->new_file.id) &&
	       !git_oid_is_zero(&d->old_file.id) &&
	       canon_mode(d->old_file.mode) == canon_mode(d->new_file.mode);
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

		if (same_for_git(d))
			continue;
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
	mode_t umask;		/* the process's, for files rewritten in place */
	const char **sorted;	/* the paths, sorted: is a name one of them? */
	size_t nr;
	git_tree *from, *to;	/* the trees synced from and to, when there are */
	git_tree *ours[2];	/* with force: an untracked file holding their blob is ours */
	struct strbuf seen;	/* the directory of the path before, its components looked at */
	size_t seen_stop;	/* where in it a component is missing or not a directory */
	struct strbuf way;	/* "\n\t<path>" per untracked file in the way */
	struct strbuf beyond;	/* "\n\t<path>" per path under a tracked file or link */
};

#define SYNC_INIT { .symlinks = 1, .full = STRBUF_INIT, .dirty = STRBUF_INIT, .made = STRBUF_INIT, \
		    .seen = STRBUF_INIT, .seen_stop = SIZE_MAX, .way = STRBUF_INIT, \
		    .beyond = STRBUF_INIT }

static void sync_release(struct sync *sy)
{
	git_tree_free(sy->from);
	git_tree_free(sy->to);
	git_index_free(sy->index);
	free(sy->sorted);
	strbuf_release(&sy->full);
	strbuf_release(&sy->dirty);
	strbuf_release(&sy->made);
	strbuf_release(&sy->seen);
	strbuf_release(&sy->way);
	strbuf_release(&sy->beyond);
}

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
	} else if (ie) {
		/* Untracked files at path or in a directory there: check_way(). */
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

/*
 * Creates the directories leading to path. A file in the way is never
 * removed here: tracked files there went with the removals, and
 * check_way() refused anything else.
 */
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
			if (!S_ISDIR(st.st_mode)) {
				error("cannot create directory '%s': a file is in the way", sy->full.buf);
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
 * Removes the directory dir and the empty directories in it (git does
 * not track directories: they hold nothing to lose); -1 with errno set
 * when anything else is in it.
 */
static int rmdir_empty(const char *dir)
{
	struct strbuf sub = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0, saved;

	if (!rmdir(dir))
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -1;
	d = opendir(dir);
	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_setlen(&sub, 0);
		strbuf_addf(&sub, "%s/%s", dir, de->d_name);
		if (lstat(sub.buf, &st) < 0)
			ret = -1;
		else if (!S_ISDIR(st.st_mode)) {
			errno = ENOTEMPTY;
			ret = -1;
		} else
			ret = rmdir_empty(sub.buf);
	}
	saved = errno;
	closedir(d);
	strbuf_release(&sub);
	errno = saved;
	return ret < 0 ? -1 : rmdir(dir);
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
	int fd = -1, ret = -1, in_place = 0, keep_dir = 0, created = 0, rc;

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
		if (!in_place && !keep_dir &&
		    (S_ISDIR(st.st_mode) ? rmdir_empty(sy->full.buf) < 0 : unlink(sy->full.buf) < 0))
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
		/*
		 * The permissions git gives the file it creates instead: no
		 * setuid, setgid or sticky bit kept, nothing the umask forbids.
		 */
		mode_t perm = (mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0777 : 0666) & ~sy->umask;

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
		created = fd >= 0;
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
	/*
	 * A file we created and could not finish (a full disk) goes: the
	 * index does not know it, and nothing untracked is ever replaced.
	 */
	if (ret && created)
		unlink(full_path(sy, path));
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
static int filters_possible(struct sync *sy, const struct maint_config *cfg, git_tree *to,
			    const struct strvec *paths)
{
	struct strvec dirs = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *env;
	int ret = 1;

	/* core.autocrlf set to anything but false, core.eol or core.attributesfile set */
	if ((config_git_has(cfg, "core.autocrlf") && config_git_bool(cfg, "core.autocrlf", 1)) ||
	    config_git_has(cfg, "core.eol") || config_git_has(cfg, "core.attributesfile"))
		goto out;
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

/* The file (blob, link or gitlink) entry at path in t, or NULL. */
static int entry_bypath(git_tree_entry **out, git_tree *t, const char *path)
{
	int rc;

	*out = NULL;
	if (!t)
		return 0;
	rc = git_tree_entry_bypath(out, t, path);
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc == 0 && git_tree_entry_type(*out) == GIT_OBJECT_TREE) {
		/* A directory there: no file at path (its files are paths of their own). */
		git_tree_entry_free(*out);
		*out = NULL;
		return 0;
	}
	return lg2_check(rc, "cannot read tree entry '%s'", path);
}

/* ---- untracked files in the way ---- */

/*
 * git refuses to overwrite or remove what it does not track (untracked
 * and ignored files alike: git am stops with "already exists in working
 * directory" or "Not a directory"), and so do we, forced or not. Files
 * are in the way at a path that is not in the index, in place of a
 * directory leading to a path, or inside a directory that stands where a
 * path's file goes. Nothing of this is left to libgit2's status: its
 * pathspec does not see a file where a directory must go, nor ignored
 * files, and listing untracked files walks the whole work tree.
 */

static int in_paths(const struct sync *sy, const char *path)
{
	return !!bsearch(&path, sy->sorted, sy->nr, sizeof(*sy->sorted), cmp_str);
}

/* Does the index have path (at any stage)? */
static int tracked(const struct sync *sy, const char *path)
{
	if (git_index_get_bypath(sy->index, path, 0))
		return 1;
	for (int stage = 1; sy->conflicts && stage <= 3; stage++)
		if (git_index_get_bypath(sy->index, path, stage))
			return 1;
	return 0;
}

/* Notes path as in the way, once. */
static void in_the_way(struct sync *sy, const char *path, size_t len)
{
	strbuf_addstr(&sy->way, "\n\t");
	strbuf_add(&sy->way, path, len);
}

/*
 * With force (finishing or undoing a step a crash interrupted): a file
 * the index does not have yet may be one the step wrote before the
 * index was written. It is ours when it holds the blob the old or the
 * new tree has at path: 1 yes, 0 no, -1 error.
 */
static int holds_ours(struct sync *sy, const char *path, const struct stat *st)
{
	git_oid oid;
	int hashed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sy->ours); i++) {
		git_tree_entry *te;
		int link, same = 0;

		if (entry_bypath(&te, sy->ours[i], path) < 0)
			return -1;
		if (!te)
			continue;
		/* Without core.symlinks a link is written as a file holding its target. */
		link = git_tree_entry_filemode(te) == GIT_FILEMODE_LINK;
		if (link == !!S_ISLNK(st->st_mode) || (link && !sy->symlinks)) {
			if (!hashed && hash_worktree(sy, path, st, &oid) < 0) {
				git_tree_entry_free(te);
				return -1;
			}
			hashed = 1;
			same = git_oid_equal(&oid, git_tree_entry_id(te));
		}
		git_tree_entry_free(te);
		if (same)
			return 1;
	}
	return 0;
}

/*
 * The directories leading to path: each must be a directory, be
 * missing, or be a file that is itself one of the paths (removed before
 * anything is written). A symbolic link is not a directory. 0 when all
 * are directories, 1 when one is missing or not a directory (nothing is
 * at path), -1 error. The components the path before had in common are
 * not looked at again.
 */
static int check_leading(struct sync *sy, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 0, start = 0, stop = SIZE_MAX, k;
	struct stat st;

	for (k = 0; k < dlen && k < sy->seen.len && path[k] == sy->seen.buf[k]; k++)
		if (path[k] == '/')
			start = k;
	if (k == sy->seen.len && (k == dlen || path[k] == '/'))
		start = k;
	if (sy->seen_stop <= start)
		return 1;
	for (size_t end = start; end < dlen;) {
		const char *next = memchr(path + end + 1, '/', dlen - end - 1);

		end = next ? (size_t)(next - path) : dlen;
		strbuf_setlen(&sy->full, 0);
		strbuf_addstr(&sy->full, sy->workdir);
		strbuf_add(&sy->full, path, end);
		if (lstat(sy->full.buf, &st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				return error_errno("cannot look at '%s'", sy->full.buf);
		} else if (S_ISDIR(st.st_mode)) {
			continue;
		} else if (tracked(sy, sy->full.buf + strlen(sy->workdir))) {
			/*
			 * The index has a file or link where path needs a
			 * directory: a path from a damaged conflict list, or a
			 * staged change (reported as a local change too).
			 */
			if (!in_paths(sy, sy->full.buf + strlen(sy->workdir)))
				strbuf_addf(&sy->beyond, "\n\t%s", path);
		} else {
			in_the_way(sy, path, end);
		}
		stop = end;
		break;
	}
	strbuf_setlen(&sy->seen, 0);
	strbuf_add(&sy->seen, path, dlen);
	sy->seen_stop = stop;
	return stop != SIZE_MAX;
}

/* Files inside the directory at path (rel, workdir-relative) that are not among the paths. */
static int check_dir(struct sync *sy, struct strbuf *rel)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	strbuf_addf(&dir, "%s%s", sy->workdir, rel->buf);
	d = opendir(dir.buf);
	if (!d) {
		ret = error_errno("cannot open directory '%s'", dir.buf);
		goto out;
	}
	while (!ret && (de = readdir(d))) {
		size_t len = rel->len;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addf(rel, "/%s", de->d_name);
		if (lstat(full_path(sy, rel->buf), &st) < 0)
			ret = error_errno("cannot look at '%s'", sy->full.buf);
		else if (S_ISDIR(st.st_mode))
			ret = check_dir(sy, rel);
		else if (!in_paths(sy, rel->buf))
			in_the_way(sy, rel->buf, rel->len);
		strbuf_setlen(rel, len);
	}
	closedir(d);
out:
	strbuf_release(&dir);
	return ret;
}

static int check_untracked(struct sync *sy, const char *path)
{
	const git_index_entry *ie;
	struct strbuf rel = STRBUF_INIT;
	struct stat st;
	int rc;

	rc = check_leading(sy, path);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (lstat(full_path(sy, path), &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return error_errno("cannot look at '%s'", sy->full.buf);
	}
	if (S_ISDIR(st.st_mode)) {
		/* A submodule's checkout is the submodule's business. */
		ie = git_index_get_bypath(sy->index, path, 0);
		if (ie && ie->mode == GIT_FILEMODE_COMMIT)
			return 0;
		strbuf_addstr(&rel, path);
		rc = check_dir(sy, &rel);
		strbuf_release(&rel);
		return rc;
	}
	if (tracked(sy, path))
		return 0;
	rc = holds_ours(sy, path, &st);
	if (rc < 0)
		return -1;
	if (!rc)
		in_the_way(sy, path, strlen(path));
	return 0;
}

/*
 * Looks for untracked files in the way of sy->sorted (sort_paths(), the
 * index read, with force sy->ours set): 0 none, 1 some (error reported, listing them,
 * "by <doing>" when doing is not NULL), -1 error.
 */
static void sort_paths(struct sync *sy, const struct strvec *paths)
{
	free(sy->sorted);
	sy->nr = paths->nr;
	sy->sorted = xmalloc(st_mult(paths->nr ? paths->nr : 1, sizeof(*sy->sorted)));
	memcpy(sy->sorted, paths->v, paths->nr * sizeof(*sy->sorted));
	qsort(sy->sorted, sy->nr, sizeof(*sy->sorted), cmp_str);
}

static int check_way(struct sync *sy, const char *doing)
{
	strbuf_setlen(&sy->seen, 0);
	sy->seen_stop = SIZE_MAX;
	strbuf_setlen(&sy->way, 0);
	strbuf_setlen(&sy->beyond, 0);
	for (size_t i = 0; i < sy->nr; i++)
		if (check_untracked(sy, sy->sorted[i]) < 0)
			return -1;
	if (sy->beyond.len)
		error("these paths are beyond a symbolic link or file:%s", sy->beyond.buf);
	if (sy->way.len)
		error("untracked working tree files would be overwritten%s%s:%s\n"
		      "move or remove them first", doing ? " by " : "", doing ? doing : "", sy->way.buf);
	return sy->beyond.len || sy->way.len;
}

/*
 * libgit2 matches every file against every pathspec entry, so with many
 * paths a full status filtered here (sorted list, binary search) is
 * cheaper than a pathspec.
 */
#define PATHSPEC_MAX 64

/* The tracked paths with staged or unstaged changes, "\n\t<path>" each, to sb. */
static int tracked_changes(git_repository *repo, const struct sync *sy, struct strbuf *sb)
{
	git_status_options opts = GIT_STATUS_OPTIONS_INIT;
	git_status_list *list = NULL;
	size_t n;

	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (sy->nr <= PATHSPEC_MAX) {
		opts.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
		opts.pathspec.strings = (char **)sy->sorted;
		opts.pathspec.count = sy->nr;
	}
	if (lg2_check(git_status_list_new(&list, repo, &opts), "cannot read the work tree status") < 0)
		return -1;
	n = git_status_list_entrycount(list);
	for (size_t i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir;

		if (!d && e->head_to_index && !same_for_git(e->head_to_index))
			d = e->head_to_index;
		if (!d || (sy->nr > PATHSPEC_MAX && !in_paths(sy, d->new_file.path)))
			continue;
		strbuf_addf(sb, "\n\t%s", d->new_file.path);
	}
	git_status_list_free(list);
	return 0;
}

int worktree_check_clean(git_repository *repo, const struct strvec *paths, const char *doing)
{
	struct sync sy = SYNC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret = -1, rc;

	if (!paths->nr)
		return 0;
	sy.repo = repo;
	sy.workdir = git_repository_workdir(repo);
	if (!sy.workdir)
		return error("the repository has no work tree to update");
	if (lg2_check(git_repository_index(&sy.index, repo), "cannot read the index") < 0 ||
	    lg2_check(git_index_read(sy.index, 0), "cannot read the index") < 0)
		goto out;
	sy.conflicts = git_index_has_conflicts(sy.index);
	sort_paths(&sy, paths);
	if (tracked_changes(repo, &sy, &sb) < 0)
		goto out;
	if (sb.len)
		error("your local changes to these files would be overwritten by %s:%s\n"
		      "commit or stash them first", doing, sb.buf);
	rc = check_way(&sy, doing);
	if (rc < 0)
		goto out;
	ret = rc || sb.len;
out:
	strbuf_release(&sb);
	sync_release(&sy);
	return ret;
}

/* Reads what a sync of paths from tree from to tree to needs: the trees, the index, core.symlinks. */
static int sync_begin(struct sync *sy, git_repository *repo, const struct maint_config *cfg,
		      const git_oid *from, const git_oid *to, const struct strvec *paths, int force)
{
	int ret = -1;

	sy->repo = repo;
	sy->workdir = git_repository_workdir(repo);
	if (!sy->workdir)
		return error("the repository has no work tree to update");
	/* Read by setting it: no other thread creates files meanwhile (prefetch only reads). */
	sy->umask = umask(0);
	umask(sy->umask);
	sy->symlinks = config_git_bool(cfg, "core.symlinks", 1);
	if ((from && lg2_check(git_tree_lookup(&sy->from, repo, from), "cannot read tree") < 0) ||
	    (to && lg2_check(git_tree_lookup(&sy->to, repo, to), "cannot read tree") < 0))
		goto out;
	sy->filters = filters_possible(sy, cfg, sy->to, paths);
	if (sy->filters < 0 ||
	    lg2_check(git_repository_index(&sy->index, repo), "cannot read the index") < 0 ||
	    lg2_check(git_index_read(sy->index, 0), "cannot read the index") < 0)
		goto out;
	sy->conflicts = git_index_has_conflicts(sy->index);
	sort_paths(sy, paths);
	if (force) {
		sy->ours[0] = sy->from;
		sy->ours[1] = sy->to;
	}
	ret = 0;
out:
	return ret;
}

int worktree_check_untracked(git_repository *repo, const struct maint_config *cfg,
			     const git_oid *from, const git_oid *to, const struct strvec *paths,
			     const char *doing)
{
	struct sync sy = SYNC_INIT;
	int ret = 0;

	if (paths->nr)
		ret = sync_begin(&sy, repo, cfg, from, to, paths, 1) < 0 ? -1 : check_way(&sy, doing);
	sync_release(&sy);
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

/* entry_bypath() through the cursor: the same answer, each directory read once along sorted paths. */
static int cursor_entry_bypath(git_tree_entry **out, struct tree_cursor *c, const char *path)
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

int worktree_sync(git_repository *repo, const struct maint_config *cfg, const git_oid *from,
		  const git_oid *to, const struct strvec *paths, int force,
		  const struct worktree_content *content)
{
	struct sync sy = SYNC_INIT;
	struct tree_cursor cto = { 0 }, cfrom = { 0 };
	git_tree_entry **tes = NULL;
	int ret = -1;

	if (!paths->nr)
		return 0;
	sy.content = content;
	if (sync_begin(&sy, repo, cfg, from, to, paths, force) < 0)
		goto out;
	tes = xcalloc(paths->nr, sizeof(*tes));
	cursor_init(&cto, repo, sy.to);
	cursor_init(&cfrom, repo, sy.from);
	for (size_t i = 0; i < paths->nr; i++)
		if (cursor_entry_bypath(&tes[i], &cto, paths->v[i]) < 0)
			goto out;
	if (!force) {
		for (size_t i = 0; i < paths->nr; i++) {
			git_tree_entry *te_from;
			int rc;

			if (cursor_entry_bypath(&te_from, &cfrom, paths->v[i]) < 0)
				goto out;
			rc = check_path(&sy, paths->v[i], te_from);
			git_tree_entry_free(te_from);
			if (rc < 0)
				goto out;
		}
		if (sy.dirty.len)
			error("your local changes to these files would be overwritten:%s\n"
			      "commit or stash them first", sy.dirty.buf);
	}
	/* Forced or not, nothing untracked is lost. */
	if (check_way(&sy, NULL) || sy.dirty.len)
		goto out;
	/* Removals first: a directory emptied by them may become a file. */
	for (size_t i = 0; i < paths->nr; i++)
		if (!tes[i] && remove_path(&sy, paths->v[i]) < 0)
			goto out;
	/*
	 * The blobs exist (we just wrote or read them): libgit2's check of
	 * each id added to the index (strict object creation, on by
	 * default) would read every object's header again.
	 */
	repo_check_index_objects(0);
	for (size_t i = 0; i < paths->nr; i++)
		if (tes[i] && write_file(&sy, paths->v[i], git_tree_entry_filemode(tes[i]),
					 git_tree_entry_id(tes[i]), NULL, 0, NULL) < 0) {
			repo_check_index_objects(1);
			goto out;
		}
	repo_check_index_objects(1);
	ret = lg2_check(git_index_write(sy.index), "cannot write the index");
out:
	for (size_t i = 0; tes && i < paths->nr; i++)
		git_tree_entry_free(tes[i]);
	free(tes);
	cursor_release(&cto);
	cursor_release(&cfrom);
	sync_release(&sy);
	return ret;
}

int worktree_write_files(git_repository *repo, const struct maint_config *cfg,
			 const struct worktree_file *files, size_t nr)
{
	struct sync sy = SYNC_INIT;
	struct strvec paths = STRVEC_INIT;
	int ret = -1;

	for (size_t i = 0; i < nr; i++)
		strvec_push(&paths, files[i].path);
	if (sync_begin(&sy, repo, cfg, NULL, NULL, &paths, 0) < 0 || check_way(&sy, NULL))
		goto out;
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
	strvec_clear(&paths);
	sync_release(&sy);
	return ret;
}
