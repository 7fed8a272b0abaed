/*
 * cond: validators of static files (ETag, Last-Modified) and the
 * conditional GET that uses them (If-None-Match, If-Modified-Since,
 * RFC 9110 sections 8.8 and 13), so recrawl tests can see a 304.
 * HTTP-dates are made and read here without the C library's locale.
 */
#include "ncserver.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include <event2/keyvalq_struct.h>

static const char cond_days[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
};
static const char cond_months[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

void
cond_etag(const struct stat *st, char *buf, size_t len)
{
	/* Size, mtime to the nanosecond and inode: a rewrite, a touch or a
	 * file renamed into place each give another tag. */
	snprintf(buf, len, "\"%" PRIx64 "-%" PRIx64 ".%lx-%" PRIx64 "\"",
	    (uint64_t)st->st_size, (uint64_t)st->st_mtim.tv_sec,
	    (unsigned long)st->st_mtim.tv_nsec, (uint64_t)st->st_ino);
}

int
cond_http_date(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || tm.tm_year < 0 - 1900 ||
	    tm.tm_year > 9999 - 1900 || len < COND_DATE_MAX)
		return -1;
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d GMT",
	    cond_days[tm.tm_wday], tm.tm_mday, cond_months[tm.tm_mon],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return 0;
}

static int
month_index(const char *name)
{
	int i;

	for (i = 0; i < 12; i++)
		if (strcmp(name, cond_months[i]) == 0)
			return i;
	return -1;
}

/* Only blanks may follow a date. */
static int
only_blanks(const char *s)
{
	return s[strspn(s, " \t")] == '\0';
}

int
cond_parse_date(const char *s, time_t *out)
{
	char wday[10], mon[4];
	int d, y, hh, mm, ss, n = -1, mi, r, two_digit = 0;
	struct tm tm, back;
	time_t now, t;

	if (s == NULL)
		return -1;
	s += strspn(s, " \t");
	/* IMF-fixdate, then the two obsolete forms a recipient must read;
	 * n stays -1 unless a format matched to its end. */
	r = sscanf(s, "%3[A-Za-z], %2d %3[A-Za-z] %4d %2d:%2d:%2d GMT%n",
	    wday, &d, mon, &y, &hh, &mm, &ss, &n);
	if (r != 7 || n < 0) {
		n = -1;
		two_digit = 1;
		r = sscanf(s, "%9[A-Za-z], %2d-%3[A-Za-z]-%2d %2d:%2d:%2d GMT%n",
		    wday, &d, mon, &y, &hh, &mm, &ss, &n);
	}
	if (r != 7 || n < 0) {
		n = -1;
		two_digit = 0;
		r = sscanf(s, "%3[A-Za-z] %3[A-Za-z] %2d %2d:%2d:%2d %4d%n",
		    wday, mon, &d, &hh, &mm, &ss, &y, &n);
	}
	if (r != 7 || n < 0)
		return -1;
	if (!only_blanks(s + n) || (mi = month_index(mon)) < 0 || d < 1 ||
	    d > 31 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 ||
	    ss > 60 || y < 0)
		return -1;
	if (two_digit) {
		/* RFC 9110 5.6.7: a year more than 50 years ahead is the
		 * latest past year with those two digits. */
		now = time(NULL);
		if (gmtime_r(&now, &back) == NULL)
			return -1;
		y += (back.tm_year + 1900) / 100 * 100;
		if (y > back.tm_year + 1900 + 50)
			y -= 100;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mi;
	tm.tm_mday = d;
	tm.tm_hour = hh;
	tm.tm_min = mm;
	tm.tm_sec = ss == 60 ? 59 : ss;
	t = timegm(&tm);
	/* timegm() moves 31 Feb to March; such a date is no date. */
	if (t == (time_t)-1 || gmtime_r(&t, &back) == NULL ||
	    back.tm_mday != d || back.tm_mon != mi)
		return -1;
	*out = t;
	return 0;
}

/*
 * Does one If-None-Match field value match the current tag (NULL: the
 * file has none)? Weak comparison (RFC 9110 8.8.3.2): "W/" is ignored on
 * both sides and the quoted opaque tags must be the same bytes. "*"
 * matches any existing file. Members that are not entity tags are skipped.
 */
static int
inm_matches(const char *v, const char *etag)
{
	const char *p = v, *end;
	size_t n;

	if (etag != NULL && strncmp(etag, "W/", 2) == 0)
		etag += 2;
	for (;;) {
		p += strspn(p, " \t,");
		if (*p == '\0')
			return 0;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (*p == '"' && (end = strchr(p + 1, '"')) != NULL) {
			n = (size_t)(end - p) + 1;
			if (etag != NULL && strlen(etag) == n &&
			    memcmp(p, etag, n) == 0)
				return 1;
			p = end + 1;
		}
		p += strcspn(p, ",");
	}
}

int
cond_not_modified(struct evkeyvalq *in, const char *etag,
    const char *last_modified)
{
	struct evkeyval *kv;
	const char *ims;
	time_t since, mod;
	int seen_inm = 0;

	for (kv = in->tqh_first; kv != NULL; kv = kv->next.tqe_next) {
		if (strcasecmp(kv->key, "If-None-Match") != 0)
			continue;
		seen_inm = 1;
		if (inm_matches(kv->value, etag))
			return 1;
	}
	/* If-None-Match present: If-Modified-Since is not looked at. */
	if (seen_inm)
		return 0;
	ims = evhttp_find_header(in, "If-Modified-Since");
	if (ims == NULL || last_modified == NULL ||
	    cond_parse_date(ims, &since) != 0 ||
	    cond_parse_date(last_modified, &mod) != 0)
		return 0;
	return since >= mod;
}
