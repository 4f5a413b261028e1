/* SPDX-License-Identifier: GPL-2.0-only */
#include "color.h"
#include "config.h"
#include "pager.h"
#include "parse-options.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int color_parse_when(const char *value)
{
	int b;

	if (!value)
		return COLOR_ALWAYS;	/* a bare "color.ui" in git's config is true */
	if (!strcasecmp(value, "always"))
		return COLOR_ALWAYS;
	if (!strcasecmp(value, "never"))
		return COLOR_NEVER;
	if (!strcasecmp(value, "auto"))
		return COLOR_AUTO;
	b = config_parse_bool(value);
	/* git: "true" in the config means auto since 1.8.4 */
	return b < 0 ? -1 : b ? COLOR_AUTO : COLOR_NEVER;
}

int color_opt_cb(const struct option *opt, const char *arg, int unset)
{
	int *when = opt->value;

	if (unset) {
		*when = COLOR_NEVER;
		return 0;
	}
	if (!arg) {
		*when = COLOR_ALWAYS;
		return 0;
	}
	/* on the command line, as for git: always, never or auto only */
	if (!strcmp(arg, "always") || !strcmp(arg, "never") || !strcmp(arg, "auto")) {
		*when = color_parse_when(arg);
		return 0;
	}
	return error("option '--color' expects \"always\", \"auto\", or \"never\", not '%s'", arg);
}

/* The when of git config name, or COLOR_UNSET. */
static int config_when(const struct maint_config *cfg, const char *name)
{
	char *v;
	int when = COLOR_UNSET;

	if (!cfg)
		return COLOR_UNSET;
	v = config_git_string(cfg, name);
	if (v) {
		when = color_parse_when(v);
		if (when < 0) {
			warning("bad value '%s' for '%s': always, never, auto or a boolean", v, name);
			when = COLOR_UNSET;
		}
	} else if (config_git_bool(cfg, name, -1) == 1) {
		when = COLOR_AUTO;	/* a bare key */
	}
	free(v);
	return when;
}

static int stdout_is_a_terminal(void)
{
	const char *term = getenv("TERM");

	if (term && !strcmp(term, "dumb"))
		return 0;
	return isatty(1) || pager_in_use();
}

int color_want(const struct maint_config *cfg, const char *cmd, int given)
{
	int when = given;

	if (when == COLOR_UNSET) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "color.maint-%s", cmd);
		when = config_when(cfg, name.buf);
		strbuf_release(&name);
	}
	if (when == COLOR_UNSET)
		when = config_when(cfg, "color.ui");
	if (when == COLOR_UNSET)
		when = COLOR_AUTO;
	return when == COLOR_AUTO ? stdout_is_a_terminal() : when == COLOR_ALWAYS;
}

static const char *const color_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* A colour word: none (normal), the terminal's default, an ANSI colour, one of 256, or RGB. */
struct color {
	enum { C_NONE, C_DEFAULT, C_ANSI, C_256, C_RGB } type;
	int value;		/* ANSI: 0-7, +60 bright; 256: 0-255; RGB: 0xrrggbb */
};

static int parse_one_color(const char *w, size_t len, struct color *c)
{
	char buf[32], *end;
	long n;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, w, len);
	buf[len] = '\0';
	if (!strcasecmp(buf, "normal")) {
		c->type = C_NONE;
		return 0;
	}
	if (!strcasecmp(buf, "default")) {
		c->type = C_DEFAULT;
		return 0;
	}
	for (int bright = 0; bright < 2; bright++) {
		const char *name = buf;

		if (bright && strncasecmp(name, "bright", 6))
			break;
		if (bright)
			name += 6;
		for (int i = 0; i < 8; i++)
			if (!strcasecmp(name, color_names[i])) {
				c->type = C_ANSI;
				c->value = i + (bright ? 60 : 0);
				return 0;
			}
	}
	if (buf[0] == '#' && len == 7) {
		n = strtol(buf + 1, &end, 16);
		if (*end)
			return -1;
		c->type = C_RGB;
		c->value = (int)n;
		return 0;
	}
	n = strtol(buf, &end, 10);
	if (end == buf || *end || n < -1 || n > 255)
		return -1;
	if (n == -1) {
		c->type = C_NONE;
	} else if (n < 16) {
		c->type = C_ANSI;	/* git writes 0-7 as the ANSI colours, 8-15 as the bright ones */
		c->value = n < 8 ? (int)n : (int)n - 8 + 60;
	} else {
		c->type = C_256;
		c->value = (int)n;
	}
	return 0;
}

static const char *const attr_names[] = { "bold", "dim", "italic", "ul", "blink", NULL, "reverse", NULL, "strike" };

/* The attribute's SGR code (1-9; its "no-" form: 21-29 as git writes them), or -1. */
static int parse_attr(const char *w, size_t len)
{
	int off = 0;

	if (len > 3 && !strncasecmp(w, "no-", 3)) {
		w += 3;
		len -= 3;
		off = 1;
	} else if (len > 2 && !strncasecmp(w, "no", 2)) {
		w += 2;
		len -= 2;
		off = 1;
	}
	for (int i = 0; i < (int)(sizeof(attr_names) / sizeof(attr_names[0])); i++)
		if (attr_names[i] && strlen(attr_names[i]) == len && !strncasecmp(w, attr_names[i], len))
			/* bold's and dim's off is 22, the others' 20 + their code */
			return off ? (i < 2 ? 22 : 21 + i) : i + 1;
	return -1;
}

static void add_color(struct strbuf *sb, const struct color *c, int background)
{
	if (sb->len)
		strbuf_addch(sb, ';');
	switch (c->type) {
	case C_DEFAULT:
		strbuf_addf(sb, "%d", background ? 49 : 39);
		break;
	case C_ANSI:
		strbuf_addf(sb, "%d", (c->value >= 60 ? (background ? 100 : 90) + c->value - 60 :
				       (background ? 40 : 30) + c->value));
		break;
	case C_256:
		strbuf_addf(sb, "%d;5;%d", background ? 48 : 38, c->value);
		break;
	case C_RGB:
		strbuf_addf(sb, "%d;2;%d;%d;%d", background ? 48 : 38, (c->value >> 16) & 0xff,
			    (c->value >> 8) & 0xff, c->value & 0xff);
		break;
	case C_NONE:
		break;
	}
}

int color_parse(const char *value, char *out)
{
	struct color fg = { C_NONE, 0 }, bg = { C_NONE, 0 };
	unsigned attrs = 0;
	int colors = 0;
	struct strbuf sgr = STRBUF_INIT;
	const char *p = value;

	while (*p) {
		size_t len;
		struct color c;
		int a;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (!parse_one_color(p, len, &c)) {
			if (colors == 2)
				goto bad;
			*(colors++ ? &bg : &fg) = c;
		} else if ((a = parse_attr(p, len)) > 0) {
			attrs |= 1u << a;
		} else {
			goto bad;
		}
		p += len;
	}
	for (int a = 1; a < 32; a++)
		if (attrs & (1u << a)) {
			if (sgr.len)
				strbuf_addch(&sgr, ';');
			strbuf_addf(&sgr, "%d", a);
		}
	if (fg.type != C_NONE)
		add_color(&sgr, &fg, 0);
	if (bg.type != C_NONE)
		add_color(&sgr, &bg, 1);
	if (sgr.len)
		snprintf(out, COLOR_MAXLEN, "\033[%sm", sgr.buf);
	else
		out[0] = '\0';
	strbuf_release(&sgr);
	return 0;
bad:
	strbuf_release(&sgr);
	return -1;
}

void color_slots_load(struct color_slot *slots, size_t nr, const struct maint_config *cfg,
		      const char *section, int on)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		char *v = NULL;

		slots[i].code[0] = '\0';
		if (!on)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "color.%s.%s", section, slots[i].name);
		if (cfg && (v = config_git_string(cfg, name.buf)) && color_parse(v, slots[i].code) < 0) {
			error("invalid color value '%s' for '%s'", v, name.buf);
			free(v);
			v = NULL;
		}
		if (!v && color_parse(slots[i].def, slots[i].code) < 0)
			BUG("default color '%s' of slot '%s'", slots[i].def, slots[i].name);
		free(v);
	}
	strbuf_release(&name);
}

void color_add(struct strbuf *out, const char *code, const char *text, size_t len)
{
	if (!code || !*code || !len) {
		strbuf_add(out, text, len);
		return;
	}
	strbuf_addstr(out, code);
	strbuf_add(out, text, len);
	strbuf_addstr(out, COLOR_RESET);
}
