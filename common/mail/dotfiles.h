/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DOTFILES_H
#define DOTFILES_H

/*
 * The contents git's fsck checks in the files git reads from a tree, so
 * that nothing it would flag is committed (a push to a server with
 * receive.fsckObjects would be refused):
 *
 *  - .gitmodules is parsed as git config (a file git cannot parse is
 *    flagged: gitmodulesParse); in every [submodule "<name>"] section the
 *    name may have no ".." component (gitmodulesName), "path" may not
 *    start with '-' (gitmodulesPath), "update" may not be a "!command"
 *    (gitmodulesUpdate), and "url" may not start with '-', and when it
 *    is relative or git:// may not hold an encoded newline nor climb out
 *    of its root ("../:..."), and when it goes to git-remote-curl
 *    (http, https, ftp, ftps) must name a host and hold no encoded
 *    newline (gitmodulesUrl);
 *  - .gitattributes may not be larger than 100 MB (gitattributesLarge)
 *    nor hold a line of 2048 bytes or more (gitattributesLineLength).
 *
 * Written from git's rules (fsck.c, config.c, credential.c of git 2.39),
 * not from its code. Pure functions: no I/O.
 */

#include <stddef.h>

#include "strbuf.h"

/*
 * 0 when git fsck accepts buf[0..len) as .gitmodules, else -1 with the
 * reason in why ("gitmodulesUrl: disallowed submodule url '-x'").
 */
int dotfiles_check_gitmodules(const char *buf, size_t len, struct strbuf *why);

/* The same for .gitattributes. */
int dotfiles_check_gitattributes(const char *buf, size_t len, struct strbuf *why);

#endif
