/* SPDX-License-Identifier: GPL-2.0-only */
#include "precheck.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

#define FIXES_MIN_HEX 12

struct checked {
	git_repository *repo;
	git_commit *commit;
	char id[8];
	int problems;
};

static void problem(struct checked *k, const char *fmt, ...) PRINTF(2, 3);

static void problem(struct checked *k, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s ('%s'): %s", k->id, git_commit_summary(k->commit), sb.buf);
	strbuf_release(&sb);
	k->problems++;
}

/* The value of a "<key>: value" line, or NULL. */
static const char *trailer_value(const char *line, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);

	if (len <= klen || strncasecmp(line, key, klen) || line[klen] != ':')
		return NULL;
	line += klen + 1;
	len -= klen + 1;
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	*vlen = len;
	return line;
}

/* 1 when the value "Name <email>" has this e-mail. */
static int has_email(const char *v, size_t len, const char *email)
{
	const char *lt = memchr(v, '<', len), *gt;

	if (!lt)
		return 0;
	gt = memchr(lt, '>', len - (lt - v));
	return gt && (size_t)(gt - lt - 1) == strlen(email) && !strncasecmp(lt + 1, email, gt - lt - 1);
}

static void check_fixes(struct checked *k, const char *v, size_t len)
{
	size_t hexlen = 0;
	const char *open, *subject_end;
	git_oid oid;
	git_commit *fixed = NULL;
	char *hex;

	while (hexlen < len && hex_digit(v[hexlen]) >= 0)
		hexlen++;
	hex = xstrndup(v, hexlen);
	if (hexlen < FIXES_MIN_HEX || hexlen > GIT_OID_HEXSZ) {
		problem(k, "'Fixes: %s' needs %d to 40 hex digits", hex, FIXES_MIN_HEX);
		goto out;
	}
	open = v + hexlen;
	subject_end = v + len;
	if (len - hexlen < 5 || strncmp(open, " (\"", 3) || strncmp(subject_end - 2, "\")", 2)) {
		problem(k, "'Fixes: %s' has no (\"<subject>\")", hex);
		goto out;
	}
	if (git_oid_fromstrn(&oid, hex, hexlen) < 0 ||
	    git_commit_lookup_prefix(&fixed, k->repo, &oid, hexlen) < 0) {
		problem(k, "'Fixes: %s' names no commit here", hex);
		goto out;
	}
	if (git_graph_descendant_of(k->repo, git_commit_id(k->commit), git_commit_id(fixed)) != 1) {
		problem(k, "'Fixes: %s' names a commit that is not an ancestor of it", hex);
		goto out;
	}
	open += 3;
	subject_end -= 2;
	if (strlen(git_commit_summary(fixed)) != (size_t)(subject_end - open) ||
	    strncmp(git_commit_summary(fixed), open, subject_end - open))
		problem(k, "'Fixes: %s' quotes '%.*s', but that commit is '%s'", hex,
			(int)(subject_end - open), open, git_commit_summary(fixed));
out:
	git_commit_free(fixed);
	free(hex);
}

static void check_one(struct checked *k, const struct precheck_opts *o)
{
	const char *msg = git_commit_message(k->commit);
	const git_signature *author = git_commit_author(k->commit);
	const git_signature *committer = git_commit_committer(k->commit);
	size_t start, end, len = strlen(msg);
	int by_author = 0, by_committer = 0;

	msg_trailer_block(msg, len, o->trailers, &start, &end);
	for (size_t off = start; off < end;) {
		const char *line = msg + off, *nl = memchr(line, '\n', end - off), *v;
		size_t llen = nl ? (size_t)(nl - line) : end - off, vlen;

		if ((v = trailer_value(line, llen, "Signed-off-by", &vlen))) {
			by_author |= has_email(v, vlen, author->email);
			by_committer |= has_email(v, vlen, committer->email);
		} else if (o->fixes && (v = trailer_value(line, llen, "Fixes", &vlen))) {
			check_fixes(k, v, vlen);
		}
		off += llen + 1;
	}
	if (o->signoff && !by_author)
		problem(k, "no Signed-off-by: of its author <%s>", author->email);
	if (o->signoff && !by_committer && strcasecmp(author->email, committer->email))
		problem(k, "no Signed-off-by: of its committer <%s>", committer->email);
}

enum maint_result precheck_commits(git_repository *repo, const git_oid *commits, size_t nr,
				   const struct precheck_opts *opts)
{
	int problems = 0;

	if (!opts->signoff && !opts->fixes)
		return RESULT_OK;
	for (size_t i = 0; i < nr; i++) {
		struct checked k = { repo, NULL, "", 0 };

		if (lg2_check(git_commit_lookup(&k.commit, repo, &commits[i]), "cannot read commit %s",
			      git_oid_tostr_s(&commits[i])) < 0)
			return RESULT_FATAL;
		git_oid_tostr(k.id, sizeof(k.id), &commits[i]);
		if (git_commit_parentcount(k.commit) < 2)
			check_one(&k, opts);
		problems += k.problems;
		git_commit_free(k.commit);
	}
	return problems ? RESULT_NO : RESULT_OK;
}
