/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DIFFSTAT_H
#define DIFFSTAT_H

/*
 * `git diff -M --stat --summary <a> <b>` as git prints it when its
 * output is not a terminal (80 columns, no diff.stat* settings), byte
 * for byte: what a pull request carries (request-pull-text.h), where a
 * reader compares it with their own git's.
 *
 * The changes are tree-changes.h's: libgit2's tree diff with git's own
 * rename search (renames.h), so the same files are paired with the same
 * "(NN%)" as in git. The layout is git's, which libgit2's git_diff_stats
 * does not reproduce (a rename's name is not shortened to "dir/{a =>
 * b}", its name column is wider, and --summary has no "rename" line):
 *
 *   - one line per file: " <name><padding> | <n> <+++-->", the name
 *     column as wide as the longest name, the count column as wide as
 *     the largest count; when that passes 80 columns the graph takes at
 *     most 3/8 of them and a longer name is cut from the left ("...");
 *     the graph is scaled so the largest change fills it, every change
 *     showing at least one sign;
 *   - a binary file: " <name> | Bin <old size> -> <new size> bytes";
 *   - a renamed file's name: the common leading directories and
 *     trailing part once, "drivers/usb/{old.c => new.c}";
 *   - names C-quoted as git quotes them: with core.quotePath true (the
 *     default) every byte past ASCII in octal (quote.h, QUOTE_ASCII);
 *     with core.quotePath false UTF-8 names as they are, the columns
 *     counted in display width (utf8_width()) and a name too long cut
 *     as git cuts it (by as many bytes as it has columns too many, then
 *     at the next '/'). Where we differ: a name that is not UTF-8, or
 *     holds a C1 control character, is still quoted (git writes its
 *     bytes as they are: into a mail declared UTF-8);
 *   - " N files changed, X insertions(+), Y deletions(-)";
 *   - the summary: " create mode 100644 <name>", " delete mode ...",
 *     " rename <name> (<similarity>%)", " mode change 100644 => 100755
 *     [<name>]".
 *
 * Nothing at all when the trees are the same.
 *
 * A file that changes type (a file becoming a symbolic link) is one
 * line, with a " mode change" in the summary, as git shows it.
 */

#include <git2.h>

#include "renames.h"
#include "strbuf.h"

/* What git diff reads from the configuration for it. */
struct diffstat_opts {
	int rename_limit;	/* diff.renameLimit (renames.h) */
	int quote_path;		/* core.quotePath */
};
#define DIFFSTAT_OPTS_INIT { RENAME_LIMIT_DEFAULT, 1 }

/* Appends the diffstat of tree a to tree b. 0, or -1 reported. */
int diffstat_trees(struct strbuf *out, git_repository *repo, git_tree *a, git_tree *b,
		   const struct diffstat_opts *o);

#endif
