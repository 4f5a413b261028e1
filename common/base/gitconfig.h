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
 *
 * The syntax is git's: [section], [section "subsection"] (\" and \\
 * inside), the old [section.subsection]; "name = value" or a bare name
 * (no value: true); values with "..." quoting, \n \t \b \" \\ escapes,
 * a backslash at the end of a line continuing it, # and ; comments
 * outside quotes, whitespace runs outside quotes kept as that many
 * spaces and trailing ones dropped; CRLF and a UTF-8 BOM. Names are
 * lower-cased but the subsection.
 *
 * include.path and includeIf.<condition>.path are followed where they
 * stand (a relative path from the including file's directory, "~/"
 * from $HOME; a missing file is skipped), 10 deep at most, with the
 * conditions gitdir:, gitdir/i: (the pattern as git completes it:
 * "**" + "/" in front of a relative one, "**" after a trailing "/", "./"
 * for the including file's directory) and onbranch:; hasconfig: never
 * holds here. Where git's gitdir: glob keeps "*" within one path
 * component, this one lets it cross "/" (wildmatch.h).
 *
 * A file that exists and cannot be read, or that git would refuse
 * ("bad config line"), is an error naming it and the line.
 */

/* Where a git variable was set, lowest priority first. */
enum config_level {
	CONFIG_LEVEL_SYSTEM,
	CONFIG_LEVEL_GLOBAL,	/* ~/.gitconfig, $XDG_CONFIG_HOME/git/config */
	CONFIG_LEVEL_REPO,	/* the repository's config (and config.worktree) */
};

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
 * Parses a value of git's boolean syntax (true/yes/on/1, false/no/off/0
 * or empty, any case); returns 1, 0, or -1 if value is not one.
 */
int config_parse_bool(const char *value);

#endif
