/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Dates as git reads them. See date.h.
 */
#include "date.h"
#include "wrapper.h"

#include <ctype.h>
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

#define DATE_MAX_DIGITS 18
/* 9999-12-31 23:59:59 UTC: the last second of a four-digit year */
#define DATE_MAX_TIME 253402300799LL

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
 * The run of digits at *p. -1 when there is none, or when it has more
 * digits than any field of a date can (a long long holds 18 for sure):
 * the date is then not one, rather than a number that wrapped.
 */
static int read_num(const char **p, long long *out, int *ndigits)
{
	const char *s = *p;
	long long v = 0;
	int n = 0;

	while (isdigit((unsigned char)*s)) {
		if (n == DATE_MAX_DIGITS)
			return -1;
		v = v * 10 + (*s - '0');
		s++;
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
	long long year = -1, mon = -1, day = -1, hour = -1, min = -1, sec = 0, epoch = -1, t;
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

			if (read_num(&p, &n, &nd) < 0)
				return -1;
			if (*p == ':' && isdigit((unsigned char)p[1])) {
				p++;
				if (read_num(&p, &a, &nd2) < 0)
					return -1;
				hour = n;
				min = a;
				sec = 0;
				if (*p == ':' && isdigit((unsigned char)p[1])) {
					p++;
					if (read_num(&p, &sec, &nd2) < 0)
						return -1;
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

				if (read_num(&p, &a, &nd2) < 0 || *p != sep ||
				    !isdigit((unsigned char)p[1]))
					return -1;
				p++;
				if (read_num(&p, &b, &nd2) < 0)
					return -1;
				year = n;
				mon = a;
				day = b;
				continue;
			}
			if (nd <= 2 && (*p == '/' || *p == '.' || *p == '-') &&
			    isdigit((unsigned char)p[1])) {
				char sep = *p++;

				if (read_num(&p, &a, &nd2) < 0 || *p != sep ||
				    !isdigit((unsigned char)p[1]))
					return -1;
				p++;
				if (read_num(&p, &b, &nd2) < 0)
					return -1;
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
			if (nd > 8) {
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
		if (epoch > DATE_MAX_TIME)
			return -1;
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
	t = days_from_civil(year, (int)mon, (int)day) * 86400 + hour * 3600 + min * 60 + sec;
	if (have_tz) {
		t -= (long long)tz * 60;
	} else {
		/* No zone: local time, as git does. */
		struct tm tm = { 0 };

		tm.tm_year = year - 1900;
		tm.tm_mon = mon - 1;
		tm.tm_mday = day;
		tm.tm_hour = hour;
		tm.tm_min = min;
		tm.tm_sec = sec;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == -1)
			return -1;
		tz = (int)(tm.tm_gmtoff / 60);
	}
	/* a time git fsck accepts: not before the epoch (1970-01-01 00:00 +0100 is) */
	if (t < 0 || t > DATE_MAX_TIME)
		return -1;
	*when = t;
	*tz_minutes = tz;
	return 0;
}
