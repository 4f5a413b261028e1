/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CONFIG_H
#define CONFIG_H

/*
 * Configuration: git-maint's settings and git's own variables, from
 *
 *   git's config            every variable (user.name, sendemail.*,
 *                           credential.*, b4.*), and git-maint's settings
 *                           under maint.* (maint.tree.usb.public is
 *                           [tree "usb"] public; maint.smtp.server is
 *                           [smtp] server), read through libgit2 by
 *                           config_load() (config-git.h) or by our own
 *                           reader for the programs without libgit2
 *                           (config_load_files(), gitconfig.h)
 *   git-maint's INI files   $XDG_CONFIG_HOME/git-maint/config (or
 *                           ~/.config/git-maint/config) and
 *                           $GIT_DIR/maint.ini, read with inih
 *
 * One precedence, later winning (config_assemble(); git-maint(7),
 * CONFIGURATION):
 *
 *   1. maint.* in git's system and global config
 *   2. the XDG INI file
 *   3. maint.* in the repository's git config
 *   4. the repository's maint.ini
 *   5. maint.* given on git's command line (git -c maint.queue.fuzz=2)
 *
 * so what is set for one repository wins over what is set for the user,
 * whichever file holds it, and what is given for one command wins over
 * every file, as in git. A setting git send-email or b4 also has
 * (sendemail.smtpServer, b4.midmask) is read from their key when none of
 * the above sets ours (see where each is read).
 *
 * Git's config is read once per command: what reads a setting asks the
 * loaded configuration, never libgit2 again. (The one program that loads
 * no configuration, describe-contains--libgit2, asks libgit2 for
 * core.commitGraph alone: common/describe/commit-store-odb.c.)
 *
 * INI sections are "[name]" or "[name "subsection"]" as in git config.
 * Every key, from either kind of file, is checked against a table of
 * known keys and types when it is read (see Documentation/git-maint.adoc,
 * CONFIGURATION): an unknown key, a bad value, a key without a value
 * that is not a boolean, a duplicate key in one INI file, a line over
 * CONFIG_LINE_MAX or a non-UTF-8 value is an error naming the file and
 * line (or the git variable). A missing file is fine. A bare key means
 * true, as in git. A git variable outside maint.* that git-maint would
 * read under maint.* (archive.url) is warned about, naming the right one.
 */

#include "gitconfig.h"
#include "strbuf.h"
#include "strvec.h"

/* The longest line of an INI file: values of any length short of that. */
#define CONFIG_LINE_MAX (1 << 20)

struct config_entry {
	char *section;		/* "tree", lower-cased */
	char *subsection;	/* "usb" or NULL; case kept */
	char *key;		/* "public", lower-cased */
	char *value;		/* a bare boolean key: "true" */
	char *file;		/* the INI file, or the git variable ("maint.tree.usb.public") */
	int line;		/* in the INI file; 0 for a git variable, -1 for one given with git -c */
};

/* A git config variable as git lists it: "section.subsection.key". */
struct config_git_entry {
	char *name;		/* section and key lower-cased, subsection as written */
	char *value;		/* NULL for a bare "key" (true) */
	enum config_level level;
};

struct maint_config {
	struct config_entry *entries;
	size_t nr, alloc;
	struct config_git_entry *git;	/* git's config, lowest priority first */
	size_t git_nr, git_alloc;
};

#define MAINT_CONFIG_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * Everything, without libgit2 (for a program that needs no repository
 * and should not pay libgit2's start-up): git's config files read by
 * gitconfig.h for the repository gitdir_discover() finds (if any), and
 * the INI files, assembled. Returns 0, or -1 reported.
 */
int config_load_files(struct maint_config *cfg);

/*
 * Once git's variables are in (config_add_git(), lowest priority first):
 * the INI files and the maint.* variables as entries, in the precedence
 * above, and the warnings for misplaced keys. commondir: the
 * repository's common git directory (for maint.ini), NULL outside one.
 * Returns 0, or -1 reported.
 */
int config_assemble(struct maint_config *cfg, const char *commondir);

/* Reads one INI file (used by config_assemble() and by tests). */
int config_read_file(struct maint_config *cfg, const char *path, int must_exist);
void config_release(struct maint_config *cfg);

/* "file:line", or "git config 'maint.tree.usb.public'": where an entry was set, for messages. */
void config_entry_origin(struct strbuf *out, const struct config_entry *e);

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
 * Appends one git config variable, as the loaders read them: from the
 * lowest priority to the highest (system, global, repository), each
 * file in order, so the last value of a name is the one git uses.
 */
void config_add_git(struct maint_config *cfg, const char *name, const char *value,
		    enum config_level level);

/*
 * Appends git's command-line variables (git -c; gitconfig.h), for a
 * loader that reads git's files another way (libgit2's, config-git.h).
 * Returns 0, or -1 reported.
 */
int config_add_command_line(struct maint_config *cfg);

/*
 * A string from git config ("user.name"; the section and key in any
 * case), the last value set, or NULL when unset or bare. Caller frees.
 */
char *config_git_string(const struct maint_config *cfg, const char *name);
/* A boolean from git config, or def when unset or not a boolean. */
int config_git_bool(const struct maint_config *cfg, const char *name, int def);
/*
 * An integer from git config as git reads one (a k, m or g after the
 * number multiplies it by 1024, 1024^2, 1024^3): 0 with *out set (def
 * when unset), or -1 reported ("bad numeric config value") where git
 * refuses the value too.
 */
int config_git_int(const struct maint_config *cfg, const char *name, int def, int *out);
/* 1 when name is set in git config, to any value or bare. */
int config_git_has(const struct maint_config *cfg, const char *name);
/* Every value of a multi-valued git config key, in order, appended to out. */
void config_git_strings(const struct maint_config *cfg, const char *name, struct strvec *out);


#endif
