/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ascii.h"
#include "msg.h"
#include "usage.h"
#include "wrapper.h"

void msg_stripspace(struct strbuf *sb)
{
	size_t empties = 0, i, j, len, newlen;

	/* a last line without its newline gets one: room for it */
	strbuf_grow(sb, 1);
	for (i = j = 0; i < sb->len; i += len, j += newlen) {
		const char *eol = memchr(sb->buf + i, '\n', sb->len - i);

		len = eol ? (size_t)(eol - (sb->buf + i)) + 1 : sb->len - i;
		newlen = len;
		while (newlen && git_isspace(sb->buf[i + newlen - 1]))
			newlen--;
		if (newlen) {
			if (empties && j)
				sb->buf[j++] = '\n';
			empties = 0;
			memmove(sb->buf + j, sb->buf + i, newlen);
			sb->buf[j + newlen] = '\n';
			/* j advances by newlen below, plus the newline here */
			j++;
		} else {
			empties++;
		}
	}
	strbuf_setlen(sb, j);
}

void msg_stripspace_comments(struct strbuf *sb, char comment)
{
	size_t i = 0, j = 0;

	while (i < sb->len) {
		const char *eol = memchr(sb->buf + i, '\n', sb->len - i);
		size_t len = eol ? (size_t)(eol - (sb->buf + i)) + 1 : sb->len - i;

		if (sb->buf[i] != comment) {
			memmove(sb->buf + j, sb->buf + i, len);
			j += len;
		}
		i += len;
	}
	strbuf_setlen(sb, j);
	msg_stripspace(sb);
}

int msg_cleanup_parse(const char *name, enum msg_cleanup *out)
{
	static const char *const names[] = { "strip", "whitespace", "verbatim" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(name, names[i])) {
			*out = (enum msg_cleanup)i;
			return 0;
		}
	}
	return -1;
}

void msg_cleanup(struct strbuf *sb, enum msg_cleanup mode, char comment)
{
	if (mode == MSG_CLEANUP_STRIP)
		msg_stripspace_comments(sb, comment);
	else if (mode == MSG_CLEANUP_WHITESPACE)
		msg_stripspace(sb);
}

int msg_comment_char(char *out, const struct maint_config *cfg)
{
	char *v = config_git_string(cfg, "core.commentChar");
	int ret = 0;

	*out = '#';
	if (!v && config_git_has(cfg, "core.commentChar"))
		return error("missing value for 'core.commentChar'");
	if (v && strcasecmp(v, "auto")) {
		if (v[0] && !v[1])
			*out = v[0];
		else
			ret = error("core.commentChar should only be one character");
	}
	free(v);
	return ret;
}

void msg_from_mail(struct strbuf *out, const char *subject, size_t subject_len,
		   const char *body, size_t body_len)
{
	struct strbuf tmp = STRBUF_INIT;

	strbuf_add(&tmp, subject, subject_len);
	strbuf_addstr(&tmp, "\n\n");
	strbuf_add(&tmp, body, body_len);
	msg_stripspace(&tmp);
	strbuf_addbuf(out, &tmp);
	strbuf_release(&tmp);
}

size_t msg_first_line_len(const char *msg, size_t len)
{
	const char *nl = memchr(msg, '\n', len);

	return nl ? (size_t)(nl - msg) : len;
}

/* Offset of the line after the one at off (or len). */
static size_t next_line(const char *buf, size_t len, size_t off)
{
	const char *nl = memchr(buf + off, '\n', len - off);

	return nl ? (size_t)(nl - buf) + 1 : len;
}

/* Start of the last line of buf[0..len), the final newline belonging to it; -1 if empty. */
static long last_line(const char *buf, size_t len)
{
	long i;

	if (!len)
		return -1;
	if (len == 1)
		return 0;
	for (i = (long)len - 2; i >= 0; i--)
		if (buf[i] == '\n')
			return i + 1;
	return 0;
}

static int is_blank_line(const char *s, const char *end)
{
	while (s < end && *s != '\n' && git_isspace(*s))
		s++;
	return s == end || *s == '\n';
}

static const char *separators(const struct trailer_conf *tc)
{
	return tc && tc->separators ? tc->separators : ":";
}

/* Position of the separator of a "Token: value" line, or -1 (git's find_separator). */
static long find_separator(const char *line, const char *end, const char *seps)
{
	int whitespace_found = 0;
	const char *c;

	for (c = line; c < end; c++) {
		if (*c && strchr(seps, *c))
			return c - line;
		if (!whitespace_found && (ascii_isalnum(*c) || *c == '-'))
			continue;
		if (c != line && (*c == ' ' || *c == '\t')) {
			whitespace_found = 1;
			continue;
		}
		break;
	}
	return -1;
}

static const char cut_line[] = "# ------------------------ >8 ------------------------\n";

/* git's ignore_non_trailer(): trailing comments and blank lines are not part of the block. */
static size_t trailer_end(const char *buf, size_t len)
{
	size_t boc = 0, bol = 0, cutoff = len;
	int in_conflicts = 0;

	for (size_t off = 0; off < len; off = next_line(buf, len, off)) {
		if ((!off || buf[off - 1] == '\n') && len - off >= sizeof(cut_line) - 1 &&
		    !memcmp(buf + off, cut_line, sizeof(cut_line) - 1)) {
			cutoff = off;
			break;
		}
	}
	while (bol < cutoff) {
		size_t next = next_line(buf, len, bol);

		if (buf[bol] == '#' || buf[bol] == '\n') {
			if (!boc)
				boc = bol;
		} else if (len - bol >= 11 && !memcmp(buf + bol, "Conflicts:\n", 11)) {
			in_conflicts = 1;
			if (!boc)
				boc = bol;
		} else if (in_conflicts && buf[bol] == '\t') {
			;
		} else if (boc) {
			boc = 0;
			in_conflicts = 0;
		}
		bol = next;
	}
	return boc ? boc : cutoff;
}

/*
 * Does the token of the trailer line bol (separator at sep) name a
 * configured trailer? As git's token_matches_item(): the token without
 * trailing non-alphanumerics, compared case-blind with the first as
 * many bytes of the configured name or key.
 */
static int configured_token(const struct trailer_conf *tc, const char *bol, long sep)
{
	size_t n = (size_t)sep;

	if (!tc)
		return 0;
	while (n > 0 && !ascii_isalnum((unsigned char)bol[n - 1]))
		n--;
	for (size_t i = 0; i < tc->tokens.nr; i++)
		if (!strncasecmp(bol, tc->tokens.v[i], n))
			return 1;
	return 0;
}

static size_t trailer_start(const char *buf, size_t len, const struct trailer_conf *tc)
{
	static const char *const generated[] = { "Signed-off-by: ", "(cherry picked from commit " };
	int only_spaces = 1, recognized = 0, trailers = 0, non_trailers = 0, possible_cont = 0;
	size_t end_of_title, s;
	long l;

	/* The first paragraph is the title and cannot hold trailers. */
	for (s = 0; s < len; s = next_line(buf, len, s)) {
		if (buf[s] == '#')
			continue;
		if (is_blank_line(buf + s, buf + len))
			break;
	}
	end_of_title = s;

	for (l = last_line(buf, len); l >= (long)end_of_title; l = last_line(buf, l)) {
		const char *bol = buf + l, *eol = buf + next_line(buf, len, l);
		long sep;
		size_t i;

		if (*bol == '#') {
			non_trailers += possible_cont;
			possible_cont = 0;
			continue;
		}
		if (is_blank_line(bol, buf + len)) {
			if (only_spaces)
				continue;
			non_trailers += possible_cont;
			if (recognized && trailers * 3 >= non_trailers)
				return eol - buf;
			if (trailers && !non_trailers)
				return eol - buf;
			return len;
		}
		only_spaces = 0;
		for (i = 0; i < ARRAY_SIZE(generated); i++)
			if ((size_t)(eol - bol) >= strlen(generated[i]) &&
			    !memcmp(bol, generated[i], strlen(generated[i])))
				break;
		if (i < ARRAY_SIZE(generated)) {
			trailers++;
			possible_cont = 0;
			recognized = 1;
			continue;
		}
		sep = find_separator(bol, eol, separators(tc));
		if (sep >= 1 && !git_isspace(*bol)) {
			trailers++;
			possible_cont = 0;
			if (!recognized && configured_token(tc, bol, sep))
				recognized = 1;
		} else if (git_isspace(*bol)) {
			possible_cont++;
		} else {
			non_trailers++;
			non_trailers += possible_cont;
			possible_cont = 0;
		}
	}
	return len;
}

void msg_trailer_block(const char *msg, size_t len, const struct trailer_conf *tc, size_t *start,
		       size_t *end)
{
	size_t e = trailer_end(msg, len);
	size_t s = trailer_start(msg, e, tc);

	*start = s;
	*end = e;
}

/*
 * 0: no trailer block; 1: a block; 2: line is in it; 3: line is its last
 * trailer (git's has_conforming_footer()).
 */
static int footer_kind(const struct strbuf *msg, const struct trailer_conf *tc,
		       const struct strbuf *line)
{
	size_t start, end, off;
	int prev_has_sep = 0, found = 0, last_match = 0;

	msg_trailer_block(msg->buf, msg->len, tc, &start, &end);
	if (start == end)
		return 0;
	/* Split into trailers; a blank-led line continues a previous "Token: value". */
	for (off = start; off < end; off = next_line(msg->buf, end, off)) {
		const char *bol = msg->buf + off;
		const char *eol = msg->buf + next_line(msg->buf, end, off);

		if (prev_has_sep && git_isspace(*bol))
			continue;
		last_match = (size_t)(eol - bol) >= line->len && !memcmp(bol, line->buf, line->len);
		found |= last_match;
		prev_has_sep = find_separator(bol, eol, separators(tc)) >= 1;
	}
	if (last_match)
		return 3;
	return found ? 2 : 1;
}

void msg_append_trailer(struct strbuf *msg, const struct trailer_conf *tc, const char *text)
{
	struct strbuf line = STRBUF_INIT;
	int kind;

	strbuf_addf(&line, "%s\n", text);
	if (msg->len && msg->buf[msg->len - 1] != '\n')
		strbuf_addch(msg, '\n');
	if (msg->len == line.len && !memcmp(msg->buf, line.buf, line.len))
		kind = 3;
	else
		kind = footer_kind(msg, tc, &line);
	if (!kind) {
		if (!msg->len)
			strbuf_addstr(msg, "\n\n");
		else if (msg->len == 1 || msg->buf[msg->len - 2] != '\n')
			strbuf_addch(msg, '\n');
	}
	if (kind != 3)
		strbuf_addbuf(msg, &line);
	strbuf_release(&line);
}

/* One trailer.* variable, lowest priority first, so a later trailer.separators wins. */
static void trailer_conf_add(struct trailer_conf *tc, const char *name, const char *value)
{
	static const char *const vars[] = { "key", "command", "cmd", "where", "ifexists", "ifmissing" };
	const char *item, *dot;

	if (!skip_prefix(name, "trailer.", &item))
		return;
	dot = strrchr(item, '.');
	if (!dot) {
		if (!strcmp(item, "separators") && value) {
			free(tc->separators);
			tc->separators = xstrdup(value);
		}
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		char *token;

		if (strcmp(dot + 1, vars[i]))
			continue;
		token = xstrndup(item, dot - item);
		if (!strvec_contains(&tc->tokens, token))
			strvec_push(&tc->tokens, token);
		free(token);
		if (!strcmp(vars[i], "key") && value)
			strvec_push(&tc->tokens, value);
		return;
	}
}

void trailer_conf_load(struct trailer_conf *tc, const struct maint_config *cfg)
{
	for (size_t i = 0; i < cfg->git_nr; i++)
		trailer_conf_add(tc, cfg->git[i].name, cfg->git[i].value);
}

void trailer_conf_release(struct trailer_conf *tc)
{
	free(tc->separators);
	tc->separators = NULL;
	strvec_clear(&tc->tokens);
}

long msg_trailer_separator(const char *line, const char *end, const struct trailer_conf *tc)
{
	return find_separator(line, end, separators(tc));
}
