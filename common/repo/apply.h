/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef APPLY_H
#define APPLY_H

/*
 * The apply engine: applies parsed patches (common/mail/patch.h) to a tree
 * in memory.
 *
 * A session starts from a base tree and keeps an overlay (path -> new
 * content, deletion, mode, symlink) of everything the patches applied so
 * far, so patch N sees what patches 1..N-1 did: creations, deletions,
 * renames. File contents come from libgit2 blobs; nothing is written to
 * the object database except by apply_session_write_tree(), which only
 * queue calls. dry-apply never calls it.
 *
 * Each patch is applied atomically: when any file or hunk of it fails,
 * the overlay stays as it was before the patch, and the result says why.
 *
 * Hunks are matched as git apply and GNU patch do: at the expected line
 * (adjusted by the offset of the previous hunk of the same file), else
 * the nearest position (earlier and later lines alternately, nearest
 * first), else with up to opts->fuzz context lines ignored at each end.
 * With opts->three_way, a file whose hunks do not all apply is merged
 * with libgit2's merge-file when the "index <old>.." pre-image blob is in
 * the repository.
 *
 * A hunk that names a line past the end of the file is looked for from
 * the end, every line still a candidate (git apply).
 *
 * As git apply: a submodule (mode 160000) reads as "Subproject commit
 * <id>\n" and its post-image must name a commit the same way; a mode
 * change never changes a file's type (regular file, symbolic link,
 * submodule); a copy needs a free destination, even onto its source.
 *
 * Cost: linear in the patch and the files it changes (figures in
 * LIMITS, git-maint(7)). Paths are kept in hash tables with a directory
 * index; hunks are applied to a gap buffer (a hunk costs its size and
 * its distance from the previous one); a patch is tried until it failed
 * APPLY_MAX_FAILURES times, as each failing hunk looks at its whole
 * file.
 *
 * Path safety is checked here, for every path a patch names (both names
 * of a rename or copy), against the base tree and the overlay: the
 * parser's checks (no "..", absolute, ".git" look-alikes) again, and no
 * read or write beyond a symbolic link, whether the link is in the base
 * tree, created or renamed by an earlier patch, or by an earlier file of
 * the same patch.
 *
 * Typical use (queue):
 *
 *	struct apply_session *s;
 *	struct apply_opts opts = APPLY_OPTS_INIT;
 *	if (apply_session_new(&s, repo, &base_tree_oid, &opts) < 0)
 *		goto cleanup;
 *	for (each mail) {
 *		struct apply_result res = APPLY_RESULT_INIT;
 *		if (apply_patch(s, &ps, &res) < 0)
 *			goto cleanup;			// internal error, reported
 *		if (!res.ok) {				// does not apply
 *			apply_result_print(&out, &res, APPLY_PRINT_HUMAN);
 *			...
 *		} else if (apply_session_write_tree(&tree, s) < 0)
 *			goto cleanup;
 *		// commit "tree" with the mail's message, parent = previous commit
 *		apply_result_dispose(&res);
 *	}
 *	apply_session_free(s);
 */

#include <git2.h>

#include "patch.h"
#include "strbuf.h"

struct apply_opts {
	int fuzz;		/* context lines that may be ignored at each end (0 = as git am) */
	int three_way;		/* fall back to a 3-way merge (git am -3) */
	/*
	 * Do not keep post-images: only verdicts are wanted (dry-apply
	 * --each). The overlay is not updated at all.
	 */
	int check_only;
	/*
	 * How much binary patches ("literal", "delta") may grow the files
	 * they change, in bytes, in one patch together: a delta whose
	 * result size, or a literal whose size, exceeds its pre-image by
	 * more than is left is refused (APPLY_FILE_ERROR) before its result
	 * is allocated. The patches a session keeps share the same bound
	 * (each takes its growth, net of what it shrank files by): a
	 * series cannot grow a file by the bound once per patch.
	 * Commands pass the message size limit (mbox.max-message-size),
	 * as for patch_parse_opts.max_binary; SIZE_MAX: no limit.
	 */
	size_t max_binary;
};

#define APPLY_OPTS_INIT { 0, 0, 0, PATCH_MAX_BINARY_DEFAULT }

/*
 * A patch whose hunks failed (and files were refused) this many times
 * is not applied further: its verdict is known, and each failure may
 * cost a look at every line of its file (80,000 failing hunks against
 * one file). The hunks and files after are reported as not tried.
 */
#define APPLY_MAX_FAILURES 100

enum apply_hunk_status {
	APPLY_HUNK_OK,		/* applied at line, maybe with offset and fuzz */
	APPLY_HUNK_MERGED,	/* did not apply, but the file merged cleanly (3-way) */
	APPLY_HUNK_FAILED,
	APPLY_HUNK_SKIPPED,	/* not tried: the file failed before its hunks, or APPLY_MAX_FAILURES */
};

struct apply_hunk_result {
	enum apply_hunk_status status;
	/*
	 * The line (from 1) in the pre-image as it was when the hunk was
	 * tried where the hunk applied (OK) or where it was expected
	 * (FAILED, MERGED): the same number GNU patch prints.
	 */
	long line;
	long offset;		/* applied line minus expected line */
	int fuzz;		/* context lines ignored */
	/*
	 * FAILED: the first line of the hunk's pre-image that differs from
	 * the file at the expected position (into the patch text; NULL when
	 * the file is shorter), for the report.
	 */
	const char *expected;
	size_t expected_len;
	unsigned long actual_line;	/* line of the file it was compared with, 0 if none */
};

enum apply_file_status {
	APPLY_FILE_OK,
	APPLY_FILE_MERGED,	/* applied by 3-way merge */
	APPLY_FILE_FAILED,	/* some hunks failed (see hunks) */
	APPLY_FILE_ERROR,	/* refused as a whole (see reason) */
	APPLY_FILE_SKIPPED,	/* not tried: the patch had failed APPLY_MAX_FAILURES times */
};

/*
 * A file git am -3 would leave conflicted: the merge of the patch into
 * the current content has conflicts. The staged content (see
 * apply_session_conflicts()) is the merge with conflict markers.
 */
struct apply_conflict {
	git_oid base;		/* the pre-image blob the mail names (index stage 1) */
	struct strbuf ours;	/* the current content (stage 2) */
	struct strbuf theirs;	/* the pre-image with the patch applied (stage 3) */
	unsigned mode;
};

struct apply_file_result {
	char *old_path, *new_path;	/* copies of the file diff's names */
	enum apply_file_status status;
	char *reason;		/* APPLY_FILE_ERROR: e.g. "already exists", "beyond a symbolic link" */
	struct apply_hunk_result *hunks;	/* one per hunk of the file diff */
	size_t hunk_nr;
	size_t hunks_failed;
	int is_binary;
	int is_copy;		/* old_path is kept (a copy, not a rename) */
	struct apply_conflict *conflict;	/* FAILED with three_way: the merge conflicted */
};

struct apply_result {
	int ok;			/* the whole patch applied (the overlay now includes it) */
	/*
	 * !ok with three_way, and every failed file is a merge conflict:
	 * their number; apply_session_conflicts() gives the patch's result.
	 */
	int conflicts;
	char *error;		/* patch-level failure (parse error); NULL otherwise */
	struct apply_file_result *files;
	size_t nr, alloc;
};

#define APPLY_RESULT_INIT { 0, 0, NULL, NULL, 0, 0 }

void apply_result_dispose(struct apply_result *res);

struct apply_session;

/*
 * base_tree may be NULL for an empty tree (an unborn branch). The
 * session holds a reference to repo; the caller keeps repo open until
 * apply_session_free().
 */
int apply_session_new(struct apply_session **out, git_repository *repo,
		      const git_oid *base_tree, const struct apply_opts *opts);
void apply_session_free(struct apply_session *s);

/*
 * Applies ps on top of everything applied so far (unless
 * opts.check_only). Fills res (which must be APPLY_RESULT_INIT or
 * disposed). Returns 0 when the patch was tried, whatever the verdict
 * (res->ok says it), and -1 on an internal error (an unreadable object),
 * reported with error().
 */
int apply_patch(struct apply_session *s, const struct patch_set *ps,
		struct apply_result *res);

/*
 * After apply_patch() failed on ps (not by merge conflicts): is ps
 * already applied, its post-image there where its pre-image is
 * expected? 1 when the reversed patch applies to the current state
 * without fuzz (git apply --reverse --check, GNU patch's "Reversed (or
 * previously applied) patch detected"), 0 when not, -1 on an internal
 * error (reported). A patch that cannot be reversed (patch_set_reverse():
 * a copy, binary data) is applied when each file's post-image is there
 * by blob id: the "index <pre>..<post>" line's post-image id (a copy
 * without one: its source's blob), the source of a rename gone, a
 * deleted file gone; without an id to compare it is not.
 * The session is left as it was.
 */
int apply_patch_is_applied(struct apply_session *s, const struct patch_set *ps);

/*
 * Records a failed patch parse in res the same way a failed apply is
 * recorded, so a report shows it in place: res->ok = 0, res->error = msg.
 */
void apply_result_set_error(struct apply_result *res, const char *msg);

/* One path the overlay changed, relative to the base tree. */
struct apply_change {
	const char *path;
	int deleted;		/* the path is gone; below fields unused */
	unsigned mode;		/* GIT_FILEMODE_BLOB, _BLOB_EXECUTABLE or _LINK */
	/*
	 * The content: either in memory (data, len; has_oid 0) or an
	 * existing blob (has_oid 1, e.g. a pure rename or mode change).
	 */
	const char *data;
	size_t len;
	int has_oid;
	git_oid oid;
};

/*
 * The overlay as a list sorted by path (strcmp order). The array and
 * everything it points to stay valid until the next apply_patch(),
 * apply_session_write_tree() or apply_session_free(); the caller frees
 * only the array (free(*changes)).
 */
int apply_session_changes(struct apply_session *s, struct apply_change **changes,
			  size_t *nr);

/*
 * Queue only: writes the blobs changed since the last call (or since
 * the start) and the resulting tree, through ow (common/repo/objwrite.h; NULL:
 * straight into the object database), and returns the tree's id. The
 * tree is kept in memory between calls (common/repo/treewrite.h), so a call
 * costs in proportion to the paths the last patches changed, not to the
 * size of the tree. Written contents stay in memory up to a budget
 * (later patches to the same files do not read their blobs back).
 */
struct objwrite;
int apply_session_write_tree(git_oid *tree_out, struct apply_session *s, struct objwrite *ow);

/*
 * When the session holds the content of path in memory and it is the
 * blob oid: 1, with buf and len pointing at it (valid until the next
 * apply_patch() or apply_session_write_tree()); else 0.
 */
int apply_session_cached(struct apply_session *s, const char *path, const git_oid *oid,
			 const char **buf, size_t *len);

/*
 * Where the session may find a base blob's content before reading it:
 * fn(data, path, oid, out) gives 1 with the content of blob oid (the
 * file at path) in out, else 0. fn NULL: none (the default).
 */
typedef int (*apply_reader_fn)(void *data, const char *path, const git_oid *oid,
			       struct strbuf *out);
void apply_session_set_reader(struct apply_session *s, apply_reader_fn fn, void *data);

/*
 * The label of "theirs" in conflict markers for the next patches (git
 * am -3: the patch's subject); NULL: "patch".
 */
void apply_session_set_label(struct apply_session *s, const char *label);

/*
 * After apply_patch() failed with res->conflicts: every path the patch
 * changes, with what git am -3 leaves there (conflicted files: the merge
 * with conflict markers), sorted by path. Valid until the next
 * apply_patch(); the caller frees only the array.
 */
int apply_session_conflicts(struct apply_session *s, struct apply_change **changes, size_t *nr);

enum apply_print_format {
	/* GNU patch's words under each file: "checking file X", "Hunk #2 FAILED at 210." */
	APPLY_PRINT_HUMAN,
	/*
	 * One tab-separated record per line, documented in
	 * git-maint-dry-apply(1); prefix (e.g. "<target>\t<patch number>\t")
	 * comes right after the record type:
	 * "file\t<prefix><path>\t<status>\t<old path if renamed>\t<reason>"
	 * "hunk\t<prefix><path>\t<n>\t<status>\t<line>\t<offset>\t<fuzz>\t<expected line>"
	 * "error\t<prefix><message>"
	 * Tabs, newlines, backslashes and control characters in fields are
	 * escaped as \t, \n, \\, \ooo.
	 */
	APPLY_PRINT_PORCELAIN,
};

/*
 * Appends s[0..len) as a porcelain field: tab, newline, backslash and
 * other control characters (C1 included, usage.h) written as \t, \n, \\
 * and \ooo.
 */
void apply_quote_field(struct strbuf *out, const char *s, size_t len);

/*
 * Appends the report of res to out. Human mode prints, as GNU patch
 * does, "checking file <path>" per file and a line per hunk that needed
 * an offset or fuzz, merged or failed (every hunk when verbose), and
 * "N out of M hunks FAILED". prefix is used in porcelain mode only and
 * may be NULL.
 */
void apply_result_print(struct strbuf *out, const struct apply_result *res,
			enum apply_print_format fmt, const char *prefix, int verbose);

#endif
