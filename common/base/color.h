/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COLOR_H
#define COLOR_H

/*
 * Colour as git does it (color.c, git-config(1) "color.*").
 *
 * Whether: --color[=<when>] / --no-color on the command line, else
 * color.maint-<cmd> (e.g. color.maint-dry-apply), else color.ui, else
 * "auto". <when> is always/true, never/false or auto; auto means "when
 * standard output is a terminal, or a pager we started (pager.h), or
 * git's, writes to one" (never into a pipe or a file), and never when
 * TERM is "dumb".
 *
 * What: each command has slots with git-style defaults, each overridden
 * by color.maint-<cmd>.<slot> (or, for a diff, git's own
 * color.diff.<slot>), written as git writes colours: up to two colours
 * (foreground, background: normal, default, black, red, green, yellow,
 * blue, magenta, cyan, white, bright<colour>, 0-255, #rrggbb) and
 * attributes (bold, dim, italic, ul, blink, reverse, strike, and no-<attr>
 * or no<attr>), e.g. "red bold" or "yellow reverse". A value that is not a
 * colour is reported (error) and leaves the slot's default.
 *
 * Colour codes are added only to text already neutralised
 * (usage.h: neutralise_controls()), so ours are the only escape
 * sequences a command writes.
 */

#include "strbuf.h"

struct maint_config;
struct option;

/* An SGR sequence ("\033[1;31m"), or "" for none. */
#define COLOR_MAXLEN 75
#define COLOR_RESET "\033[m"

enum color_when {
	COLOR_UNSET = -1,	/* not given on the command line */
	COLOR_NEVER = 0,
	COLOR_ALWAYS = 1,
	COLOR_AUTO = 2,
};

/*
 * --color[=<when>] and --no-color for a command's option table: fills an
 * int (enum color_when) that starts at COLOR_UNSET.
 */
int color_opt_cb(const struct option *opt, const char *arg, int unset);
#define OPT__COLOR(v, h) \
	{ OPTION_CALLBACK, 0, "color", (v), "when", (h), PARSE_OPT_OPTARG, color_opt_cb }

/* always/true/on/yes/1, never/false/off/no/0, auto: the enum, or -1 when none of them. */
int color_parse_when(const char *value);

/*
 * 1 when git-maint-<cmd> should colour its standard output: given (the
 * option, COLOR_UNSET when not given), else the config (cfg may be NULL).
 */
int color_want(const struct maint_config *cfg, const char *cmd, int given);

/* Parses a colour value into out (COLOR_MAXLEN); -1 when it is not one. */
int color_parse(const char *value, char *out);

struct color_slot {
	const char *name;	/* "failed": color.maint-<cmd>.failed */
	const char *def;	/* the default, in the config syntax: "red" */
	char code[COLOR_MAXLEN];	/* what is written */
};

/*
 * Fills each slot's code: from color.<section>.<name> in cfg (section
 * "maint-dry-apply", or "diff"), else its default; with colour off,
 * every code is "". A bad value is reported and the default kept.
 */
void color_slots_load(struct color_slot *slots, size_t nr, const struct maint_config *cfg,
		      const char *section, int on);

/* Appends text[0..len) to out between code and a reset (nothing around it when code is ""). */
void color_add(struct strbuf *out, const char *code, const char *text, size_t len);

#endif
