#include "ident.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const month_names[] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
};

static const struct {
	const char *name;
	int minutes;
} zone_names[] = {
	{ "ut", 0 }, { "utc", 0 }, { "gmt", 0 }, { "z", 0 },
	{ "est", -300 }, { "edt", -240 }, { "cst", -360 }, { "cdt", -300 },
	{ "mst", -420 }, { "mdt", -360 }, { "pst", -480 }, { "pdt", -420 },
	{ "cet", 60 }, { "cest", 120 }, { "bst", 60 },
};

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/*
 * A run of digits: its value in *out (only the first 18 digits count: a
 * longer run is too large for a date anyway, and must not overflow) and
 * its length in *ndigits.
 */
static int read_num(const char **p, long long *out, int *ndigits)
{
	const char *s = *p;
	long long v = 0;
	int n = 0;

	while (isdigit((unsigned char)*s)) {
		if (n < 18)
			v = v * 10 + (*s - '0');
		s++;
		if (n < 1000)
			n++;
	}
	if (!n)
		return -1;
	*p = s;
	*out = v;
	*ndigits = n;
	return 0;
}

/* "+hhmm", "-hh:mm", "+hh" after the sign; returns minutes or -1. */
static int read_tz(const char **p, int *minutes)
{
	const char *s = *p;
	int sign = *s == '-' ? -1 : 1;
	long long h, m = 0;
	int n;

	s++;
	if (read_num(&s, &h, &n) < 0)
		return -1;
	if (n == 4) {
		m = h % 100;
		h /= 100;
	} else if (n <= 2 && *s == ':') {
		s++;
		if (read_num(&s, &m, &n) < 0 || n != 2)
			return -1;
	} else if (n > 2) {
		return -1;
	}
	if (h > 23 || m > 59)
		return -1;
	*minutes = sign * (int)(h * 60 + m);
	*p = s;
	return 0;
}

int parse_date(const char *text, long long *when, int *tz_minutes)
{
	long long year = -1, mon = -1, day = -1, hour = -1, min = -1, sec = 0, epoch = -1;
	int tz = 0, have_tz = 0, pm = -1;
	const char *p = text;

	if (*p == '@')
		p++;
	while (*p) {
		unsigned char c = *p;

		if (isalpha(c)) {
			const char *start = p;
			size_t len, i;

			while (isalpha((unsigned char)*p))
				p++;
			len = p - start;
			for (i = 0; i < ARRAY_SIZE(month_names); i++)
				if (len >= 3 && !strncasecmp(start, month_names[i], 3))
					mon = i + 1;
			for (i = 0; i < ARRAY_SIZE(zone_names); i++)
				if (strlen(zone_names[i].name) == len &&
				    !strncasecmp(start, zone_names[i].name, len) && !have_tz) {
					tz = zone_names[i].minutes;
					have_tz = 1;
				}
			if (len == 2 && !strncasecmp(start, "am", 2))
				pm = 0;
			else if (len == 2 && !strncasecmp(start, "pm", 2))
				pm = 1;
			continue;
		}
		if ((c == '+' || c == '-') && isdigit((unsigned char)p[1]) &&
		    (hour >= 0 || epoch >= 0) && !have_tz) {
			if (read_tz(&p, &tz) == 0) {
				have_tz = 1;
				continue;
			}
			p++;
			continue;
		}
		if (isdigit(c)) {
			long long n, a, b;
			int nd, nd2;

			read_num(&p, &n, &nd);
			if (*p == ':' && isdigit((unsigned char)p[1])) {
				p++;
				if (read_num(&p, &a, &nd2) < 0)
					return -1;
				hour = n;
				min = a;
				sec = 0;
				if (*p == ':' && isdigit((unsigned char)p[1])) {
					p++;
					read_num(&p, &sec, &nd2);
					if (*p == '.' || *p == ',') {	/* fractions of a second */
						p++;
						while (isdigit((unsigned char)*p))
							p++;
					}
				}
				continue;
			}
			if (nd == 4 && (*p == '-' || *p == '/' || *p == '.') &&
			    isdigit((unsigned char)p[1])) {
				char sep = *p++;

				read_num(&p, &a, &nd2);
				if (*p != sep || !isdigit((unsigned char)p[1]))
					return -1;
				p++;
				read_num(&p, &b, &nd2);
				year = n;
				mon = a;
				day = b;
				continue;
			}
			if (nd <= 2 && (*p == '/' || *p == '.' || *p == '-') &&
			    isdigit((unsigned char)p[1])) {
				char sep = *p++;

				read_num(&p, &a, &nd2);
				if (*p != sep || !isdigit((unsigned char)p[1]))
					return -1;
				p++;
				read_num(&p, &b, &nd2);
				/* mm/dd/yy as git does in the US order, dd.mm.yy otherwise */
				if (sep == '/' && n <= 12) {
					mon = n;
					day = a;
				} else {
					day = n;
					mon = a;
				}
				year = b < 100 ? b + (b < 70 ? 2000 : 1900) : b;
				continue;
			}
			if (nd > 18) {
				return -1;	/* seconds past 2^63 */
			} else if (nd > 8) {
				epoch = n;
			} else if (nd == 4 && year < 0) {
				year = n;
			} else if (day < 0 && n >= 1 && n <= 31) {
				day = n;
			} else if (year < 0 && nd <= 2) {
				year = n + (n < 70 ? 2000 : 1900);
			}
			continue;
		}
		p++;
	}
	if (epoch >= 0) {
		*when = epoch;
		*tz_minutes = tz;
		return 0;
	}
	if (year < 1970 || year > 9999 || mon < 1 || mon > 12 || day < 1 || day > 31)
		return -1;
	if (hour < 0) {
		hour = 0;
		min = 0;
	}
	if (pm == 1 && hour < 12)
		hour += 12;
	else if (pm == 0 && hour == 12)
		hour = 0;
	if (hour > 24 || min > 59 || sec > 60)
		return -1;
	*when = days_from_civil(year, (int)mon, (int)day) * 86400 + hour * 3600 + min * 60 + sec;
	if (have_tz) {
		*when -= (long long)tz * 60;
	} else {
		/* No zone: local time, as git does. */
		struct tm tm = { 0 };
		time_t t;

		tm.tm_year = year - 1900;
		tm.tm_mon = mon - 1;
		tm.tm_mday = day;
		tm.tm_hour = hour;
		tm.tm_min = min;
		tm.tm_sec = sec;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1)
			return -1;
		*when = t;
		tz = (int)(tm.tm_gmtoff / 60);
	}
	if (*when < 0)
		return -1;	/* before 1970 in UTC: git fsck's badDateOverflow */
	*tz_minutes = tz;
	return 0;
}

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
