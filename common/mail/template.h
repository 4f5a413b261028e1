/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TEMPLATE_H
#define TEMPLATE_H

/*
 * Text templates with %(name) placeholders: the body of notify's mails
 * (notify.template), and request-pull's tag name (tree.<name>.tag-format),
 * tag message (tree.<name>.tag-template) and greeting
 * (tree.<name>.greeting). Names are lower-case letters and '-'.
 *
 *   %(name)   the value of name
 *   %%        a single '%'
 *   any other '%' stands for itself ("100%" needs no quoting), but
 *   "%(" and a ")" later on the line must be a known placeholder
 *
 * A line that holds placeholders, all of which expand to nothing, is
 * left out whole, so an optional line ("It is at %(url)") disappears
 * when its value is not configured. A value may span lines; its
 * control characters but tab and newline (an ESC in a Date header, a
 * CR) are replaced by '?' (neutralise_controls()), here for every
 * placeholder.
 *
 * template_check() is run once on a template as read (a placeholder
 * that is not in names is an error naming source:line); template_expand()
 * trusts a checked template. Pure but for template_load(), which reads
 * the file a configuration key names.
 */

#include <stddef.h>

#include "strbuf.h"

struct maint_config;

struct template_var {
	const char *name;
	const char *value;	/* NULL: empty */
};

/*
 * 0 when every placeholder of text[0..len) is one of names (a
 * NULL-terminated list); else -1, reported as
 * "<source>:<line>: unknown placeholder '%(x)'".
 */
int template_check(const char *text, size_t len, const char *const *names, const char *source);

/* Appends text[0..len) with placeholders replaced by the values of vars[0..n). */
void template_expand(struct strbuf *out, const char *text, size_t len,
		     const struct template_var *vars, size_t n);

/*
 * The template in the file section[.subsection].key names (a leading
 * "~/" is $HOME), checked against names; def when the key is not set.
 * 0, or -1 reported naming the file and the key's origin (unreadable,
 * a NUL byte, an unknown placeholder).
 */
int template_load(struct strbuf *out, const struct maint_config *cfg, const char *section,
		  const char *subsection, const char *key, const char *def, const char *const *names);

/* 1 when text[0..len) holds the placeholder %(name) (an expensive value need not be made otherwise). */
int template_uses(const char *text, size_t len, const char *name);

#endif
