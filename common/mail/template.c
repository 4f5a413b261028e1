/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Templates with %(name) placeholders (see template.h).
 */
#include "template.h"
#include "config.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* The length of the placeholder name at p ("name)"), or 0 when p does not start one. */
static size_t name_len(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && ((*q >= 'a' && *q <= 'z') || *q == '-'))
		q++;
	return q > p && q < end && *q == ')' ? (size_t)(q - p) : 0;
}

int template_check(const char *text, size_t len, const char *const *names, const char *source)
{
	const char *end = text + len;
	int line = 1;

	for (const char *p = text; p < end; p++) {
		size_t n;
		size_t i;

		if (*p == '\n')
			line++;
		if (*p != '%' || p + 1 >= end)
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		if (p[1] != '(')
			continue;
		n = name_len(p + 2, end);
		for (i = 0; n && names[i]; i++)
			if (strlen(names[i]) == n && !memcmp(names[i], p + 2, n))
				break;
		if (!n || !names[i]) {
			const char *close = memchr(p, ')', end - p);
			const char *nl = memchr(p, '\n', end - p);

			if (!close || (nl && nl < close))
				continue;	/* "%(" with no ")" on its line: text */
			return error("%s:%d: unknown placeholder '%.*s'", source, line,
				     (int)(close + 1 - p), p);
		}
	}
	return 0;
}

static const char *lookup(const struct template_var *vars, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(vars[i].name) == len && !memcmp(vars[i].name, name, len))
			return vars[i].value ? vars[i].value : "";
	return "";
}

/* Expands one line (without its newline); 1 when it is to be left out. */
static int expand_line(struct strbuf *out, const char *p, const char *end,
		       const struct template_var *vars, size_t n)
{
	int placeholders = 0, filled = 0;

	for (; p < end; p++) {
		size_t len;

		if (*p == '%' && p + 1 < end && p[1] == '%') {
			strbuf_addch(out, '%');
			p++;
		} else if (*p == '%' && p + 1 < end && p[1] == '(' && (len = name_len(p + 2, end))) {
			const char *v = lookup(vars, n, p + 2, len);
			size_t at = out->len;

			placeholders++;
			filled += !!*v;
			/* values come from mail and commits: no ESC or CR reaches a mail or a terminal */
			strbuf_addstr(out, v);
			strbuf_setlen(out, at + neutralise_controls(out->buf + at, out->len - at));
			p += len + 2;
		} else {
			strbuf_addch(out, *p);
		}
	}
	return placeholders && !filled;
}

void template_expand(struct strbuf *out, const char *text, size_t len,
		     const struct template_var *vars, size_t n)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		const char *eol = nl ? nl : end;
		size_t start = out->len;

		if (expand_line(out, text, eol, vars, n))
			strbuf_setlen(out, start);
		else if (nl)
			strbuf_addch(out, '\n');
		text = nl ? nl + 1 : end;
	}
}

int template_load(struct strbuf *out, const struct maint_config *cfg, const char *section,
		  const char *subsection, const char *key, const char *def, const char *const *names)
{
	const struct config_entry *e = config_get_entry(cfg, section, subsection, key);
	struct strbuf path = STRBUF_INIT, origin = STRBUF_INIT;
	int ret = 0;

	if (!e) {
		strbuf_addstr(out, def);
		return 0;
	}
	strbuf_addf(&origin, "%s.%s%s%s, ", section, subsection ? subsection : "", subsection ? "." : "",
		    key);
	config_entry_origin(&origin, e);
	if (starts_with(e->value, "~/") && getenv("HOME"))
		strbuf_addf(&path, "%s/%s", getenv("HOME"), e->value + 2);
	else
		strbuf_addstr(&path, e->value);
	if (strbuf_read_file(out, path.buf, 0) < 0)
		ret = error_errno("cannot read the template '%s' (%s)", path.buf, origin.buf);
	else if (memchr(out->buf, '\0', out->len))
		ret = error("the template '%s' holds a NUL byte", path.buf);
	else if (template_check(out->buf, out->len, names, path.buf) < 0)
		ret = -1;
	strbuf_release(&path);
	strbuf_release(&origin);
	return ret;
}

int template_uses(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text, *end = text + len; (p = memchr(p, '%', end - p)); p++) {
		if (p + 1 < end && p[1] == '%') {
			p++;
			continue;
		}
		if ((size_t)(end - p) >= n + 3 && p[1] == '(' && !memcmp(p + 2, name, n) && p[n + 2] == ')')
			return 1;
	}
	return 0;
}
