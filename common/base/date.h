/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DATE_H
#define DATE_H

/*
 * Dates as git reads them, for the author date of a commit made from a
 * mail (its Date header) and for GIT_AUTHOR_DATE/GIT_COMMITTER_DATE.
 * Pure: no I/O but the local time zone (for a date without one).
 */

/*
 * Parses a date the way git does for GIT_*_DATE and mail Date headers:
 * RFC 2822 ("Thu, 7 Apr 2005 15:14:13 -0700"), ISO 8601
 * ("2005-04-07 15:14:13 -0700", "2005-04-07T22:14:13Z"), git's internal
 * form ("1112911993 -0700", "@1112911993 +0000"), with zone names
 * (UT, UTC, GMT, Z, EST, EDT, CST, CDT, MST, MDT, PST, PDT). A date with
 * no zone is taken as local time, as git does. Returns 0, or -1 (nothing
 * reported) when the text is not a date, when a number in it has more
 * than 18 digits, or when the time is before 1970-01-01 00:00:00 UTC or
 * after 9999-12-31 23:59:59 UTC: every time it gives is one git fsck
 * accepts in a commit (git itself commits 1970-01-01 00:00 +0100 as a
 * wrapped-around 18446744073709548016, which fsck flags).
 */
int parse_date(const char *text, long long *when, int *tz_minutes);

#endif
