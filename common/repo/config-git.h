/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CONFIG_GIT_H
#define CONFIG_GIT_H

/*
 * The git side of configuration (config.h): config_load() reads the INI
 * files and git's own config, the latter through libgit2, and hands git's
 * variables to the config as name/value pairs, so that what reads them
 * (config_git_string() and the rest) needs no libgit2.
 */

#include <git2.h>

#include "config.h"

/*
 * Reads git's config through libgit2, repo's (else the global one; none
 * at all is fine), then the INI files (config_assemble()). Returns -1
 * with one error line (file:line: problem) on failure.
 */
int config_load(struct maint_config *cfg, git_repository *repo);

#endif
