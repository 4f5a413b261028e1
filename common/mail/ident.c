/* SPDX-License-Identifier: GPL-2.0-only */
#include "ident.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

void ident_add_date(struct strbuf *out, long long when, int tz)
{
	int a = tz < 0 ? -tz : tz;

	strbuf_addf(out, "%lld %c%02d%02d", when, tz < 0 ? '-' : '+', a / 60, a % 60);
}

static int crud(unsigned char c)
{
	return c <= 32 || c == ',' || c == ':' || c == ';' || c == '<' || c == '>' ||
	       c == '"' || c == '\\' || c == '\'';
}

static void add_without_crud(struct strbuf *sb, const char *s)
{
	size_t len;

	while (*s && crud(*s))
		s++;
	len = strlen(s);
	while (len && crud(s[len - 1]))
		len--;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '\n' && s[i] != '<' && s[i] != '>')
			strbuf_addch(sb, s[i]);
}

int ident_add_name_email(struct strbuf *out, const char *name, const char *email,
			 const char *whose)
{
	size_t start = out->len, name_end;

	add_without_crud(out, name ? name : "");
	name_end = out->len;
	if (name_end == start) {
		strbuf_setlen(out, start);
		return error("empty %s name (for <%s>) not allowed", whose, email ? email : "");
	}
	strbuf_addstr(out, " <");
	add_without_crud(out, email ? email : "");
	if (out->len == name_end + 2) {
		strbuf_setlen(out, start);
		return error("empty %s e-mail (for '%s') not allowed", whose, name);
	}
	strbuf_addch(out, '>');
	return 0;
}

int ident_author_from_mail(struct strbuf *out, const char *name, const char *email,
			   const char *date)
{
	long long when;
	int tz;

	if (ident_add_name_email(out, name, email, "author") < 0)
		return -1;
	strbuf_addch(out, ' ');
	if (date && *date) {
		if (parse_date(date, &when, &tz) < 0)
			return error("invalid date format: %s", date);
	} else {
		struct tm tm;
		time_t now = time(NULL);

		localtime_r(&now, &tm);
		when = now;
		tz = (int)(tm.tm_gmtoff / 60);
	}
	ident_add_date(out, when, tz);
	return 0;
}

static char *from_env_or_config(const struct maint_config *cfg, const char *env,
				const char *key1, const char *key2)
{
	const char *v = getenv(env);
	char *c;

	if (v)
		return xstrdup(v);
	if ((c = config_git_string(cfg, key1)))
		return c;
	return config_git_string(cfg, key2);
}

int ident_committer_name_email(struct strbuf *out, const struct maint_config *cfg)
{
	char *name = from_env_or_config(cfg, "GIT_COMMITTER_NAME", "committer.name", "user.name");
	char *email = from_env_or_config(cfg, "GIT_COMMITTER_EMAIL", "committer.email", "user.email");
	int ret;

	if (!email && getenv("EMAIL"))
		email = xstrdup(getenv("EMAIL"));
	if (!name || !email)
		ret = error("committer identity unknown: set user.name and user.email in git config");
	else
		ret = ident_add_name_email(out, name, email, "committer");
	free(name);
	free(email);
	return ret;
}

int ident_committer(struct strbuf *out, const struct maint_config *cfg)
{
	const char *date = getenv("GIT_COMMITTER_DATE");

	if (ident_committer_name_email(out, cfg) < 0)
		return -1;
	strbuf_addch(out, ' ');
	if (date && *date) {
		long long when;
		int tz;

		if (parse_date(date, &when, &tz) < 0)
			return error("invalid date format: %s", date);
		ident_add_date(out, when, tz);
	} else {
		struct tm tm;
		time_t now = time(NULL);

		localtime_r(&now, &tm);
		ident_add_date(out, now, (int)(tm.tm_gmtoff / 60));
	}
	return 0;
}
