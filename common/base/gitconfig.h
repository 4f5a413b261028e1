/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef GITCONFIG_H
#define GITCONFIG_H

/*
 * git's configuration files, read without libgit2: for the programs that
 * do not link it (mbox-split, the fetcher), which still need git's
 * settings (maint.*, credential.*, b4.*). The programs that have a
 * repository read the same files through libgit2 (config-git.h); both
 * hand every variable to the config (config.h) the same way.
 *
 * What is read, lowest priority first, as git reads it:
 *
 *   system       $GIT_CONFIG_SYSTEM, else /etc/gitconfig; none with
 *                $GIT_CONFIG_NOSYSTEM
 *   global       $GIT_CONFIG_GLOBAL alone, else $XDG_CONFIG_HOME/git/config
 *                (~/.config/git/config) and then ~/.gitconfig
 *   repository   <commondir>/config, and <gitdir>/config.worktree when
 *                extensions.worktreeConfig is true
 *   command      what `git -c <name>=<value>` passes down, as git reads
 *                it: $GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and
 *                GIT_CONFIG_VALUE_<n>, then $GIT_CONFIG_PARAMETERS
 *                ('name'='value' words, or the older 'name=value';
 *                'name' alone or 'name'= is a bare name); names are
 *                checked and lower-cased as git does; include.path given
 *                so is not followed
 *
 * The syntax is git's, read by gitconfig_parse() below.
 *
 * include.path and includeIf.<condition>.path are followed where they
 * stand (a relative path from the including file's directory, "~/"
 * from $HOME; a missing file is skipped), 10 deep at most, with the
 * conditions gitdir:, gitdir/i: (the pattern as git completes it:
 * "**" + "/" in front of a relative one, "**" after a trailing "/", "./"
 * for the including file's directory) and onbranch:; hasconfig: never
 * holds here. The patterns are matched as git matches them, with
 * wildmatch()'s WM_PATHNAME: "*" within one path component, "**" across.
 *
 * A file that exists and cannot be read, or that git would refuse
 * ("bad config line"), is an error naming it and the line.
 */

#include <stddef.h>

/* Where a git variable was set, lowest priority first. */
enum config_level {
	CONFIG_LEVEL_SYSTEM,
	CONFIG_LEVEL_GLOBAL,	/* ~/.gitconfig, $XDG_CONFIG_HOME/git/config */
	CONFIG_LEVEL_REPO,	/* the repository's config (and config.worktree) */
	CONFIG_LEVEL_COMMAND,	/* git -c: GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT */
};

/*
 * git's config syntax, the one reader of it here (git's files, fsck's
 * .gitmodules in dotfiles.h): [section], [section "subsection"] (\" and
 * \\ inside), the old [section.subsection]; "name = value" or a bare name
 * (no value: true); values with "..." quoting, \n \t \b \" \\ escapes,
 * a backslash at the end of a line continuing it (at the end of the text,
 * ending the value), # and ; comments outside quotes, whitespace runs
 * outside quotes kept as that many spaces and trailing ones dropped;
 * CRLF. Names are lower-cased but the subsection. What git accepts is
 * accepted, as git lists it: a name before any section ("a = b" is "a"),
 * an empty section name with a subsection ("[.x]", "[ \"x\"]" are ".x").
 * Bytes are bytes: a NUL inside a value or a subsection is kept.
 */
struct gitconfig_var {
	const char *name;	/* "section.subsection.key", git's name */
	size_t name_len;
	size_t section_len;	/* the section's length at name's start */
	const char *subsection;	/* as written, or NULL when none */
	size_t subsection_len;
	const char *key;	/* the end of name */
	const char *value;	/* NULL for a bare name */
	size_t value_len;
};

/* Called for each variable in order; a negative return stops the reading. */
typedef int gitconfig_var_fn(const struct gitconfig_var *var, void *data);

/* gitconfig_parse() flags */
#define GITCONFIG_BOM 1		/* a UTF-8 byte order mark first is skipped (git's files; not fsck's blobs) */

/*
 * Reads buf[0..len) as git reads a config file, calling fn for each
 * variable. Returns 0; or fn's negative return; or, when git would
 * refuse the text, the number of the bad line (> 0), counted as git
 * counts it for "bad config line <n>".
 */
int gitconfig_parse(const char *buf, size_t len, unsigned flags, gitconfig_var_fn *fn, void *data);

/*
 * What gitconfig_read() hands every variable to: its name as git lists
 * it ("section.subsection.key", section and key lower-cased), its value
 * (NULL for a bare name: true), its level.
 */
typedef void gitconfig_fn(const char *name, const char *value, enum config_level level, void *data);

/*
 * Hands every variable of git's configuration to fn, lowest priority
 * first (config_load_files() appends them to the configuration; this
 * reader knows nothing of it). gitdir is the
 * repository's git directory (a worktree's own) and commondir where its
 * config is (NULL: gitdir); gitdir NULL: outside a repository, system
 * and global only. Returns 0, or -1 reported.
 */
int gitconfig_read(const char *gitdir, const char *commondir, gitconfig_fn *fn, void *data);

/*
 * Appends the command line's variables alone (the "command" level
 * above): for config_load(), whose libgit2 does not read them. Returns
 * 0, or -1 reported as git reports it ("unable to parse command-line
 * config" after what was wrong).
 */
int gitconfig_read_command_line(gitconfig_fn *fn, void *data);

/*
 * Parses a value of git's boolean syntax (true/yes/on/1, false/no/off/0
 * or empty, any case); returns 1, 0, or -1 if value is not one.
 */
int config_parse_bool(const char *value);

#endif
