/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PATCH_H
#define PATCH_H

/*
 * The diff parser: from the text of a patch (what git mailinfo leaves
 * in the patch part of a mail, or a plain .diff file) to a list of file
 * diffs and their hunks. Pure: no I/O, no repository.
 *
 * Understood: git diffs (new/deleted files, renames and copies with
 * similarity, mode changes, "index <old>..<new>", binary literal and
 * delta patches, C-quoted paths, "\ No newline at end of file") and
 * traditional unified diffs ("diff -up", quilt "Index:" headers,
 * bare "---/+++" pairs) with -p<n> stripping. Context diffs, ed scripts
 * and anything else that looks like a diff but is not a unified one are
 * refused with a clear message: nothing here ever runs patch, ed or a
 * shell.
 *
 * Every path is checked as it is parsed (patch_path_check()): no "..",
 * no absolute path, no ".git" or look-alike component. An unsafe path
 * makes the whole parse fail.
 *
 * Sizes written in the input never decide an allocation by themselves:
 * hunk line numbers and counts above 100,000,000 are a corrupt hunk
 * header, hunk lines are stored as they are read (a count that the
 * lines do not follow is a truncated hunk), and binary blocks are held
 * to opts->max_binary before they are inflated. Memory is linear in the
 * input plus the forward binary data (at most opts->max_binary).
 *
 * Invariants of a parsed struct patch_set:
 *  - ps->text is the input: a copy ps owns, or with opts->borrow the
 *    caller's buffer; every struct patch_line points into it, so the
 *    lines stay valid until patch_set_dispose() (and, borrowed, while
 *    the caller's buffer does).
 *  - A struct patch_line's text includes its trailing '\n', except for
 *    a line followed by "\ No newline at end of file", which has none.
 *  - Hunk counts are verified: old_count == number of ' ' and '-'
 *    lines, new_count == number of ' ' and '+' lines.
 *  - old_path is NULL exactly for a creation, new_path NULL exactly for
 *    a deletion; both are set (and differ) for renames and copies.
 */

#include <stddef.h>

#include "strbuf.h"

enum patch_format {
	PATCH_FORMAT_GIT,	/* "diff --git" headers */
	PATCH_FORMAT_UNIFIED,	/* traditional "---/+++" unified diff */
};

struct patch_line {
	char op;		/* ' ', '-' or '+' */
	const char *text;	/* into patch_set.text; not NUL-terminated */
	size_t len;		/* including '\n' when the line has one */
};

struct patch_hunk {
	unsigned long old_start, old_count;	/* "@@ -old_start,old_count" */
	unsigned long new_start, new_count;	/* "+new_start,new_count @@" */
	const char *section;	/* the text after the second "@@" (may be "") */
	size_t section_len;
	struct patch_line *lines;
	size_t nr, alloc;
	size_t leading;		/* context lines before the first change */
	size_t trailing;	/* context lines after the last change */
	unsigned long input_line;	/* line of the "@@" in the input, from 1 */
};

enum binary_hunk_type {
	BINARY_NONE = 0,
	BINARY_LITERAL,		/* the whole post-image, deflated */
	BINARY_DELTA,		/* a git delta against the pre-image, deflated */
};

struct binary_hunk {
	enum binary_hunk_type type;
	size_t size;		/* inflated size as given in the header */
	unsigned long input_line;	/* of the "literal"/"delta" line, from 1 */
	/*
	 * The inflated (decoded and uncompressed) bytes; empty for the
	 * reverse block, which is checked but not kept.
	 */
	struct strbuf data;
};

struct file_patch {
	char *old_path;		/* NULL for a creation */
	char *new_path;		/* NULL for a deletion */
	unsigned old_mode;	/* 0 when the patch does not say */
	unsigned new_mode;	/* 0 when the patch does not say (unchanged) */
	unsigned is_new:1, is_delete:1, is_rename:1, is_copy:1;
	/*
	 * Binary content change: "GIT binary patch" (forward, and reverse
	 * when present) or, with is_binary and forward.type == BINARY_NONE,
	 * "Binary files ... differ" without data (cannot be applied).
	 */
	unsigned is_binary:1;
	int similarity;		/* rename/copy similarity in %, -1 if absent */
	char old_oid[41];	/* hex from "index <old>..<new>", may be abbreviated; "" if absent */
	char new_oid[41];
	struct binary_hunk forward, reverse;
	struct patch_hunk *hunks;
	size_t hunk_nr, hunk_alloc;
	unsigned long input_line;	/* where this file's header starts in the input, from 1 */
};

struct patch_set {
	enum patch_format format;
	struct file_patch *files;
	size_t nr, alloc;
	const char *text;	/* the input; lines point here */
	size_t text_len;
	char *text_owned;	/* text when ps holds its own copy, else NULL (borrowed) */
};

#define PATCH_SET_INIT { PATCH_FORMAT_GIT, NULL, 0, 0, NULL, 0, NULL }

struct patch_parse_opts {
	/*
	 * Leading components stripped from paths of traditional diffs
	 * (-p<n>); git diffs always strip exactly one ("a/", "b/") unless
	 * p_value is set explicitly (>= 0). -1 means "default": 1.
	 */
	int p_value;
	/* Names the input in messages, e.g. "message 3" or "fix.patch". */
	const char *origin;
	/*
	 * The most that the binary data of the input may inflate to
	 * ("literal N", "delta N"), in bytes, for the forward blocks together
	 * and for the reverse ones together (only the forward data is kept).
	 * Checked against each block's header before anything is inflated.
	 * Commands pass the message size limit (mbox.max-message-size);
	 * SIZE_MAX: no limit.
	 */
	size_t max_binary;
	/*
	 * The input outlives ps and does not change until
	 * patch_set_dispose(): ps points into it instead of holding a
	 * copy (the diff of a 100 MB mail is not held twice).
	 */
	int borrow;
};

/* The default message size limit (SOURCE_MAX_SIZE_DEFAULT): 256 MiB. */
#define PATCH_MAX_BINARY_DEFAULT ((size_t)256 << 20)

#define PATCH_PARSE_OPTS_INIT { -1, NULL, PATCH_MAX_BINARY_DEFAULT, 0 }

/*
 * Parses buf[0..len) into ps (which must be PATCH_SET_INIT or disposed).
 * Text before the first diff header (a commit message, a diffstat) is
 * skipped. Returns 0, or -1 when the input holds no diff, a corrupt or
 * unsupported one, or an unsafe path; the reason (without "error: ",
 * naming opts->origin and the input line) goes to err when err is not
 * NULL, and to error() otherwise. On failure ps is left disposed.
 */
int patch_parse(struct patch_set *ps, const char *buf, size_t len,
		const struct patch_parse_opts *opts, struct strbuf *err);

void patch_set_dispose(struct patch_set *ps);

/*
 * The patch that undoes ps (git apply --reverse): names, modes, object
 * ids, creation and deletion swapped, every hunk's '-' and '+' lines
 * and ranges swapped. out must be PATCH_SET_INIT; it borrows ps's text
 * (dispose of out first). -1 (out left disposed) when ps holds what cannot be
 * reversed from what we keep: a copy, or binary data (only the forward
 * block is kept).
 */
int patch_set_reverse(struct patch_set *out, const struct patch_set *ps);

/*
 * For text in which patch_parse() found no diff (e.g. a mail whose body
 * the mail parser did not take for a patch): 1 with the reason in why
 * when it holds a diff format we refuse (a context diff, an ed script or
 * a "normal" diff), else 0.
 */
int patch_find_unsupported(const char *buf, size_t len, struct strbuf *why);

/*
 * 0 if path may be written by a patch, else -1 with the reason in err
 * (when not NULL): empty, absolute, longer than PATCH_PATH_MAX bytes
 * (what no work tree could hold), a "." or ".." component, "//", a
 * ".git" component or a look-alike that git refuses on case-insensitive,
 * NTFS or HFS+ file systems (".GIT", ".git.", ".git ", "git~1",
 * ".g\u200cit"), or a control character.
 */
#define PATCH_PATH_MAX 4096
int patch_path_check(const char *path, struct strbuf *err);

/*
 * The names besides ".git" that git protects (its fsck flags them as
 * symbolic links, and .gitmodules and .gitattributes as anything but a
 * file), as git recognises them in a path component c[0..len): in any
 * case; as NTFS resolves them (trailing dots and spaces, a ":stream"
 * suffix, the 8.3 short names "GITMOD~1".."GITMOD~4" and "gi7eba~1"
 * made from a hash); as HFS+ compares them (ignorable code points such
 * as U+200C anywhere).
 */
enum patch_protected_name {
	PATCH_NAME_NONE = 0,
	PATCH_NAME_GITMODULES,
	PATCH_NAME_GITATTRIBUTES,
	PATCH_NAME_GITIGNORE,
	PATCH_NAME_MAILMAP,
};
enum patch_protected_name patch_protected_name(const char *c, size_t len);

/*
 * Appends path to out, C-quoted as git quotes names ("a\tb") when it
 * holds a control character, '"', '\\' or bytes that are not UTF-8; as
 * is otherwise: quote_path() of quote.h, the one rule for paths.
 */
void patch_quote_path(struct strbuf *out, const char *path);

/* The path this file diff is about for messages: new_path, else old_path. */
const char *file_patch_name(const struct file_patch *fp);

#endif
