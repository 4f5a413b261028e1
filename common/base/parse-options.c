/* SPDX-License-Identifier: GPL-2.0-only */
#include "parse-options.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct parse_ctx {
	const struct option *opts;
	const char *const *usagestr;
	int argc;
	const char **argv;	/* remaining input */
};

static void print_usage(FILE *fp, const char *const *usagestr, const struct option *opts)
{
	const struct option *o;
	int first = 1;

	for (; *usagestr; usagestr++) {
		fprintf(fp, first ? "usage: %s\n" : "%s%s\n",
			first ? *usagestr : (**usagestr ? "   or: " : ""), first ? "" : *usagestr);
		first = 0;
	}
	fputc('\n', fp);
	for (o = opts; o->type != OPTION_END; o++) {
		struct strbuf line = STRBUF_INIT;

		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->type == OPTION_GROUP) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		strbuf_addstr(&line, "    ");
		if (o->short_name)
			strbuf_addf(&line, "-%c", o->short_name);
		if (o->short_name && o->long_name)
			strbuf_addstr(&line, ", ");
		if (o->long_name)
			strbuf_addf(&line, "--%s%s", (o->flags & PARSE_OPT_NONEG) ||
				    o->type == OPTION_INTEGER ? "" :
				    (o->type == OPTION_BOOL || o->type == OPTION_CALLBACK ? "[no-]" : ""),
				    o->long_name);
		if (o->argh && !(o->flags & PARSE_OPT_NOARG)) {
			if (o->flags & PARSE_OPT_OPTARG)
				strbuf_addf(&line, "[=<%s>]", o->argh);
			else
				strbuf_addf(&line, " <%s>", o->argh);
		}
		/* two spaces at least before the help, as git's usage has them */
		if (line.len + 2 > 26) {
			fprintf(fp, "%s\n", line.buf);
			strbuf_reset(&line);
		}
		fprintf(fp, "%-26s%s\n", line.buf, o->help ? o->help : "");
		strbuf_release(&line);
	}
	/* what every program takes besides its table (parse_options()) */
	fprintf(fp, "\n%-26s%s\n", "    --version", "print the version of git-maint and exit");
	fputc('\n', fp);
}

void usage_with_options(const char *const *usagestr, const struct option *opts)
{
	report_flush();	/* the error that led here comes first */
	print_usage(stderr, usagestr, opts);
	exit(EXIT_USAGE);
}

void usage_msg_opt(const char *const *usagestr, const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	usage_with_options(usagestr, opts);
}

static NORETURN void show_help(void)
{
	/* As git does for --help: the man page of this program. */
	const char *name = strrchr(maint_progname, '/');

	name = name ? name + 1 : maint_progname;
	execlp("man", "man", name, (char *)NULL);
	die_errno("cannot run 'man %s'", name);
}

/* As git --version: "git-maint-queue version 0.1.0 (abc1234)". */
static NORETURN void show_version(void)
{
	printf("%s version %s\n", maint_progname, maint_version());
	exit(fflush(stdout) || ferror(stdout) ? EXIT_FATAL : EXIT_OK);
}

static void completion_helper(const struct option *opts)
{
	for (; opts->type != OPTION_END; opts++) {
		if (!opts->long_name || (opts->flags & PARSE_OPT_HIDDEN))
			continue;
		printf(" --%s%s", opts->long_name,
		       opts->argh && !(opts->flags & (PARSE_OPT_NOARG | PARSE_OPT_OPTARG)) ? "=" : "");
	}
	printf(" --version\n");
	exit(EXIT_OK);
}

static const char *optname(const struct option *o, int is_long)
{
	static char buf[128];

	if (is_long)
		snprintf(buf, sizeof(buf), "--%s", o->long_name);
	else
		snprintf(buf, sizeof(buf), "-%c", o->short_name);
	return buf;
}

static int takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPTION_INTEGER:
	case OPTION_STRING:
	case OPTION_STRING_LIST:
		return 1;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return 0;
	}
}

/*
 * Applies option o. arg is the attached value (or NULL); for options that
 * need a value and have none attached, the next argv element is used.
 */
static void apply_option(struct parse_ctx *ctx, const struct option *o, const char *arg,
			 int unset, int is_long)
{
	if (unset && (o->flags & PARSE_OPT_NONEG))
		usage_msg_opt(ctx->usagestr, ctx->opts, "option '%s' isn't negatable", optname(o, 1));
	if (!takes_arg(o) || unset) {
		if (arg)
			usage_msg_opt(ctx->usagestr, ctx->opts, "option '%s' takes no value",
				      optname(o, is_long));
	} else if (!arg && !(o->flags & PARSE_OPT_OPTARG)) {
		if (ctx->argc < 1)
			usage_msg_opt(ctx->usagestr, ctx->opts, "option '%s' requires a value",
				      optname(o, is_long));
		arg = *ctx->argv++;
		ctx->argc--;
	}

	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = !unset;
		break;
	case OPTION_COUNTUP:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		break;
	case OPTION_SET_INT:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		break;
	case OPTION_INTEGER: {
		char *end;
		long v;

		if (unset) {
			*(int *)o->value = 0;
			break;
		}
		errno = 0;
		v = strtol(arg, &end, 10);
		if (!*arg || *end || errno || v < INT_MIN || v > INT_MAX)
			usage_msg_opt(ctx->usagestr, ctx->opts, "option '%s' expects an integer, not '%s'",
				      optname(o, is_long), arg);
		*(int *)o->value = (int)v;
		break;
	}
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		break;
	case OPTION_STRING_LIST:
		if (unset)
			strvec_clear(o->value);
		else
			strvec_push(o->value, arg);
		break;
	case OPTION_CALLBACK:
		if (o->callback(o, arg, unset))
			usage_with_options(ctx->usagestr, ctx->opts);
		break;
	default:
		BUG("option type %d cannot be applied", o->type);
	}
}

static void parse_long(struct parse_ctx *ctx, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *o, *found = NULL;
	int unset = 0, ambiguous = 0, found_unset = 0;

	for (o = ctx->opts; o->type != OPTION_END; o++) {
		const char *name = o->long_name, *rest;
		int neg = 0;

		if (!name)
			continue;
		if (!strncmp(arg, "no-", 3) && strncmp(name, "no-", 3)) {
			/* "--no-foo" may name option "foo" */
			if (strlen(name) >= len - 3 && !strncmp(name, arg + 3, len - 3))
				neg = 1;
		}
		if (!neg && !(strlen(name) >= len && !strncmp(name, arg, len)))
			continue;
		rest = neg ? name + len - 3 : name + len;
		if (!*rest) {	/* exact match wins */
			found = o;
			found_unset = neg;
			ambiguous = 0;
			break;
		}
		if (found && found != o)
			ambiguous = 1;
		found = o;
		found_unset = neg;
	}
	if (!found)
		usage_msg_opt(ctx->usagestr, ctx->opts, "unknown option '%.*s'", (int)len, arg);
	if (ambiguous)
		usage_msg_opt(ctx->usagestr, ctx->opts, "ambiguous option '%.*s'", (int)len, arg);
	unset = found_unset;
	apply_option(ctx, found, eq ? eq + 1 : NULL, unset, 1);
}

static void parse_short(struct parse_ctx *ctx, const char *arg)
{
	while (*arg) {
		const struct option *o;

		for (o = ctx->opts; o->type != OPTION_END; o++)
			if (o->short_name == *arg)
				break;
		if (o->type == OPTION_END)
			usage_msg_opt(ctx->usagestr, ctx->opts, "unknown switch '%c'", *arg);
		if (takes_arg(o)) {
			/* "-p1": the rest is the value; "-p 1": the next word */
			apply_option(ctx, o, arg[1] ? arg + 1 : NULL, 0, 0);
			return;
		}
		apply_option(ctx, o, NULL, 0, 0);
		arg++;
	}
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, unsigned flags)
{
	struct parse_ctx ctx = { opts, usagestr, argc - 1, argv + 1 };
	int nr = 0;

	while (ctx.argc > 0) {
		const char *arg = *ctx.argv++;

		ctx.argc--;
		if (arg[0] != '-' || !arg[1]) {
			argv[nr++] = arg;
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[nr++] = arg;
			break;
		}
		if (!strcmp(arg, "-h")) {
			print_usage(stdout, usagestr, opts);
			exit(EXIT_USAGE);
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "--help-all"))
			show_help();
		if (!strcmp(arg, "--git-completion-helper"))
			completion_helper(opts);
		if (!strcmp(arg, "--version"))
			show_version();
		if (arg[1] == '-')
			parse_long(&ctx, arg + 2);
		else
			parse_short(&ctx, arg + 1);
	}
	while (ctx.argc-- > 0)
		argv[nr++] = *ctx.argv++;
	argv[nr] = NULL;
	return nr;
}
