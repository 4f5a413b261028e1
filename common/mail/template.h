/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TEMPLATE_H
#define TEMPLATE_H

/*
 * Text templates with %(name) placeholders, for the body of notify's
 * mails (notify.template). Names are lower-case letters and '-'.
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
 * trusts a checked template. Pure: no I/O.
 */

#include <stddef.h>

#include "strbuf.h"

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

#endif
