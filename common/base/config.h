/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CONFIG_H
#define CONFIG_H

/*
 * Configuration: git-maint's INI files read with inih,
 *
 *	$XDG_CONFIG_HOME/git-maint/config	(or ~/.config/git-maint/config)
 *	$GIT_DIR/maint.ini			(per repository; wins)
 *
 * and git's own config (user.name, user.email, sendemail.*), which
 * config_load() (config-git.h) reads through libgit2 and hands over here
 * as plain name/value pairs (config_add_git()): what reads a setting
 * needs no libgit2, only the loader does.
 *
 * INI sections are "[name]" or "[name "subsection"]" as in git config.
 * Every key is checked against a table of known keys and types when the
 * file is read (see Documentation/git-maint.adoc, CONFIGURATION): an
 * unknown key, a bad value, a key without a value that is not a boolean,
 * a duplicate key, a line over CONFIG_LINE_MAX or a non-UTF-8 value is
 * an error naming file:line. A missing file is fine. A bare key means
 * true, as in git.
 */

#include "strbuf.h"
#include "strvec.h"

/* The longest line of an INI file: values of any length short of that. */
#define CONFIG_LINE_MAX (1 << 20)

struct config_entry {
	char *section;		/* "tree", lower-cased */
	char *subsection;	/* "usb" or NULL; case kept */
	char *key;		/* "public", lower-cased */
	char *value;		/* a bare boolean key: "true" */
	char *file;
	int line;
};

/* A git config variable as libgit2 lists it: "section.subsection.key". */
struct config_git_entry {
	char *name;		/* section and key lower-cased, subsection as written */
	char *value;		/* NULL for a bare "key" (true) */
};

struct maint_config {
	struct config_entry *entries;
	size_t nr, alloc;
	struct config_git_entry *git;	/* git's config, lowest priority first */
	size_t git_nr, git_alloc;
};

#define MAINT_CONFIG_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * The INI files only, without libgit2 (for a command that needs no
 * repository and should not pay libgit2's start-up): the XDG file, then
 * maint.ini in the repository's common git directory found by
 * gitdir_discover_common() (gitdir.h). A missing repository or file is fine.
 */
int config_load_ini(struct maint_config *cfg);
/* The XDG file, $XDG_CONFIG_HOME/git-maint/config or ~/.config/git-maint/config (used by the loaders). */
int config_read_user_file(struct maint_config *cfg);
/* Reads one INI file (used by config_load and by tests). */
int config_read_file(struct maint_config *cfg, const char *path, int must_exist);
void config_release(struct maint_config *cfg);

/* The value of section[.subsection].key, the last one read (per-repo wins), or NULL. */
const char *config_get(const struct maint_config *cfg, const char *section,
		       const char *subsection, const char *key);
/* Same, the entry itself (for file:line in messages). */
const struct config_entry *config_get_entry(const struct maint_config *cfg, const char *section,
					    const char *subsection, const char *key);
/* Boolean value (true/yes/on/1, false/no/off/0), or def when unset. */
int config_get_bool(const struct maint_config *cfg, const char *section,
		    const char *subsection, const char *key, int def);

/*
 * The name of the [tree "<name>"] whose public or work branch is branch,
 * or NULL. If several match, the first one read.
 */
const char *config_tree_for_branch(const struct maint_config *cfg, const char *branch);

/*
 * Appends one git config variable, as the loader reads them: from the
 * lowest priority to the highest (system, global, repository), each
 * file in order, so the last value of a name is the one git uses.
 */
void config_add_git(struct maint_config *cfg, const char *name, const char *value);

/*
 * A string from git config ("user.name"; the section and key in any
 * case), the last value set, or NULL when unset or bare. Caller frees.
 */
char *config_git_string(const struct maint_config *cfg, const char *name);
/* A boolean from git config, or def when unset or not a boolean. */
int config_git_bool(const struct maint_config *cfg, const char *name, int def);
/* Every value of a multi-valued git config key, in order, appended to out. */
void config_git_strings(const struct maint_config *cfg, const char *name, struct strvec *out);

/* Parses a git-style boolean; returns -1 if value is not one. */
int config_parse_bool(const char *value);

#endif
