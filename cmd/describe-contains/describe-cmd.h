/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DESCRIBE_CMD_H
#define DESCRIBE_CMD_H

/*
 * The command line of git maint-describe-contains, shared by its two
 * programs: git-maint-describe-contains answers from the repository's
 * files and is not linked with libgit2 (start-up is most of a single
 * query's time); whatever it cannot answer for certain it hands to
 * git-maint-describe-contains--libgit2, which answers everything. One
 * option table for both; the engine (common/engine/describe-contains.h)
 * answers. Nothing here calls libgit2.
 */

#include "describe-contains.h"

/*
 * Parses the options (one table for both programs); returns the
 * arguments left. The front hands its own command line over unchanged,
 * with the hidden --answered=<n> in front when it answered the first n
 * commit arguments itself.
 */
int dc_parse_options(struct dc_options *o, int argc, const char **argv);

#endif
