/* SPDX-License-Identifier: GPL-2.0-only */
#include "report-color.h"

#include <ctype.h>
#include <string.h>

void report_colors_load(struct report_colors *c, const struct maint_config *cfg, int on)
{
	static const struct color_slot report[REPORT_SLOTS] = {
		[REPORT_FAILED] = { "failed", "red" },
		[REPORT_APPLIES] = { "applies", "green" },
		[REPORT_PATCH] = { "patch", "bold" },
	};
	static const struct color_slot range_diff[RD_SLOTS] = {
		[RD_COMMIT] = { "commit", "yellow" },
		[RD_OLD] = { "old", "red" },
		[RD_NEW] = { "new", "green" },
		[RD_FRAG] = { "frag", "cyan" },
	};

	c->on = on;
	memcpy(c->report, report, sizeof(report));
	memcpy(c->range_diff, range_diff, sizeof(range_diff));
	color_slots_load(c->report, REPORT_SLOTS, cfg, "maint-dry-apply", on);
	color_slots_load(c->range_diff, RD_SLOTS, cfg, "diff", on);
}

static int has_prefix(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

static int has_suffix(const char *line, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(line + len - n, suffix, n);
}

/* "<digits><rest>" at line: the length of the digits, or 0. */
static size_t digits(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && isdigit((unsigned char)p[i]))
		i++;
	return i;
}

/* "<word><k>/<n>: ": "Patch 2/5: " where a patch starts, "Series 2/12: " where a series does */
static int is_heading(const char *line, size_t len, const char *word)
{
	size_t w = strlen(word), k, n;

	if (!has_prefix(line, len, word))
		return 0;
	k = digits(line + w, len - w);
	if (!k || w + k >= len || line[w + k] != '/')
		return 0;
	n = digits(line + w + 1 + k, len - w - 1 - k);
	return n && has_prefix(line + w + 1 + k + n, len - w - 1 - k - n, ": ");
}

/* "Hunk #<n> succeeded..." or "Hunk #<n> merged...": a hunk that applies. */
static int is_hunk_ok(const char *line, size_t len)
{
	size_t n;

	if (!has_prefix(line, len, "Hunk #"))
		return 0;
	n = digits(line + 6, len - 6);
	return n && (has_prefix(line + 6 + n, len - 6 - n, " succeeded") ||
		     has_prefix(line + 6 + n, len - 6 - n, " merged"));
}

/* "  <k>: <targets>: <subject>", a line of the verdicts series by series: 1, or 2 when none takes it */
static int verdict_line(const char *line, size_t len)
{
	size_t k;

	if (!has_prefix(line, len, "  ") || has_prefix(line, len, "   "))
		return 0;
	k = digits(line + 2, len - 2);
	if (!k || !has_prefix(line + 2 + k, len - 2 - k, ":"))
		return 0;
	return has_prefix(line + 2 + k, len - 2 - k, ": none: ") ? 2 : 1;
}

/* "The series applies to: ..." or "Series 2 applies to: ..." */
static int is_applies_to(const char *line, size_t len)
{
	size_t k;

	if (has_prefix(line, len, "The series applies to:"))
		return 1;
	if (!has_prefix(line, len, "Series "))
		return 0;
	k = digits(line + 7, len - 7);
	return k && has_prefix(line + 7 + k, len - 7 - k, " applies to:");
}

/* "<n> series, <m> patches...": the count before the series' reports */
static int is_series_count(const char *line, size_t len)
{
	size_t k = digits(line, len);

	return k && has_prefix(line + k, len - k, " series, ");
}

/* The slot of one line of the report, or -1 for plain. */
static int report_slot(const char *line, size_t len)
{
	int v;

	if (is_heading(line, len, "Patch ") || is_heading(line, len, "Series "))
		return REPORT_PATCH;
	if ((v = verdict_line(line, len)))
		return v == 1 ? REPORT_APPLIES : REPORT_FAILED;
	if (has_prefix(line, len, "Checking ") || has_prefix(line, len, "checking file ") ||
	    is_hunk_ok(line, len) || has_prefix(line, len, "    ") ||
	    has_prefix(line, len, "Not carried (") || has_prefix(line, len, "Verdicts, series by series:") ||
	    is_series_count(line, len) || !len)
		return -1;
	/* the summary lines (print_summary(), applies_to()) */
	if (has_suffix(line, len, ": the patch applies") || has_suffix(line, len, " patches apply") ||
	    is_applies_to(line, len))
		return REPORT_APPLIES;
	/* what remains is what failed: hunks, files, patches, targets */
	return REPORT_FAILED;
}

/* Replaces sb's lines by slot(line)'s colour around each. */
static void colorize(struct strbuf *sb, const struct color_slot *slots,
		     void (*add_line)(const char *line, size_t len, const struct color_slot *slots,
				      struct strbuf *out))
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *end = sb->buf + sb->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		add_line(p, len, slots, &out);
		if (nl)
			strbuf_addch(&out, '\n');
		p += len + (nl ? 1 : 0);
	}
	strbuf_release(sb);
	*sb = out;
}

static void report_line(const char *line, size_t len, const struct color_slot *slots, struct strbuf *out)
{
	int s = report_slot(line, len);

	color_add(out, s < 0 ? NULL : slots[s].code, line, len);
}

void report_colorize(struct strbuf *sb, const struct report_colors *c)
{
	if (c->on)
		colorize(sb, c->report, report_line);
}

/*
 * "<a>:  <id> <s> <b>:  <id> <subject>": the length of the part up to the
 * status (" <s>"), the status, and where " <b>:  <id>" ends; 0 when it is
 * not a pair's line.
 */
static size_t pair_line(const char *line, size_t len, char *status, size_t *b_end)
{
	size_t i = 0, sp;

	for (int side = 0; side < 2; side++) {
		while (i < len && line[i] == ' ')
			i++;
		if (i < len && line[i] == '-')
			i++;
		else if (!(sp = digits(line + i, len - i)))
			return 0;
		else
			i += sp;
		if (!has_prefix(line + i, len - i, ":  "))
			return 0;
		i += 3;
		sp = strspn(line + i, "0123456789abcdef-");
		if (!sp || i + sp > len)
			return 0;
		i += sp;
		if (side) {
			*b_end = i;
			return 1;
		}
		if (i + 3 > len || line[i] != ' ' || !strchr("=!<>", line[i + 1]) || line[i + 2] != ' ')
			return 0;
		*status = line[i + 1];
		i += 2;
	}
	return 0;
}

static void range_diff_line(const char *line, size_t len, const struct color_slot *slots,
			    struct strbuf *out)
{
	char status = 0;
	size_t b_end = 0, a_end;

	if (pair_line(line, len, &status, &b_end)) {
		const char *color = status == '<' ? slots[RD_OLD].code :
				    status == '>' ? slots[RD_NEW].code : slots[RD_COMMIT].code;

		if (status != '!') {
			color_add(out, color, line, len);
			return;
		}
		a_end = (size_t)(strchr(line, '!') - line);
		color_add(out, slots[RD_OLD].code, line, a_end);
		color_add(out, color, line + a_end, 1);
		color_add(out, slots[RD_NEW].code, line + a_end + 1, b_end - a_end - 1);
		color_add(out, color, line + b_end, len - b_end);
		return;
	}
	if (has_prefix(line, len, "    ") && len > 4) {
		const char *code = line[4] == '+' ? slots[RD_NEW].code :
				   line[4] == '-' ? slots[RD_OLD].code :
				   has_prefix(line + 4, len - 4, "@@") ? slots[RD_FRAG].code : NULL;

		strbuf_add(out, line, 4);
		color_add(out, code, line + 4, len - 4);
		return;
	}
	strbuf_add(out, line, len);
}

void range_diff_colorize(struct strbuf *sb, const struct report_colors *c)
{
	if (c->on)
		colorize(sb, c->range_diff, range_diff_line);
}
