/*
 * serve_report: the report inside the view (cmd/serve_report.h).
 *
 * The report is made by `nearcrawl report -d DB -o DIR --quiet` in a
 * child process (this very program, run again): its read of the database
 * and its gnuplot run take seconds on a large crawl, which the server's
 * one thread must not wait for, and a process of its own has memory of its
 * own, so the server's stays flat. Its stderr goes to report.log beside
 * its files, which the overview shows when it failed.
 */
#include "cmd/serve_report.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>

/* The largest report file served (plots and CSV files of a big crawl). */
#define REPORT_FILE_MAX (64L * 1024 * 1024)
/* summary.txt shown on the overview at most. */
#define SUMMARY_MAX (64 * 1024)

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
svr_init(struct sv *s, char *err, size_t errsz)
{
	const char *t = getenv("TMPDIR");
	char path[4096];

	snprintf(path, sizeof(path), "%s/nearcrawl-serve.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	if (mkdtemp(path) == NULL) {
		snprintf(err, errsz, "cannot make a temporary directory: %s",
		    strerror(errno));
		return -1;
	}
	if ((s->tmp = strdup(path)) == NULL) {
		rmdir(path);
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	return 0;
}

/* Remove dir and the files in it (a report has no subdirectories). */
static void
remove_dir(const char *dir)
{
	struct dirent *e;
	char path[4096];
	DIR *d;

	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* In the child: the report command, never returning. */
static void
run_report(struct sv *s, const char *dir)
{
	char log[4200];
	char *argv[] = { "nearcrawl", "report", "-d", (char *)s->db, "-o",
		(char *)dir, "--quiet", NULL };
	sigset_t none;
	int fd;

	if (mkdir(dir, 0700) != 0)
		_exit(2);
	snprintf(log, sizeof(log), "%s/report.log", dir);
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		close(fd);
	}
	if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	/* Nothing of the server's (its sockets, its database) goes on. */
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execv(s->self, argv);
	_exit(127);
}

void
svr_start(struct sv *s, int64_t max_seq)
{
	char dir[4096];
	double t = now();
	pid_t pid;

	if (s->child != 0 || s->tmp == NULL)
		return;
	if (max_seq >= 0 && s->report_at > 0 &&
	    (max_seq == s->report_seq || t - s->report_at < s->refresh))
		return;
	snprintf(dir, sizeof(dir), "%s/report-%u", s->tmp, ++s->serial);
	if ((s->next = strdup(dir)) == NULL)
		return;
	if ((pid = fork()) == -1) {
		free(s->next);
		s->next = NULL;
		return;
	}
	if (pid == 0)
		run_report(s, dir);
	s->child = pid;
	s->report_at = t;
	s->report_seq = max_seq >= 0 ? max_seq : s->seen_seq;
}

void
svr_reap(struct sv *s)
{
	char index[4200];
	int status;
	pid_t pid;

	if (s->child == 0)
		return;
	if ((pid = waitpid(s->child, &status, WNOHANG)) == 0)
		return;
	s->child = 0;
	s->report_rc = pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) :
	    -1;
	snprintf(index, sizeof(index), "%s/index.html", s->next);
	/* A run that wrote no index.html (no database, no room) leaves the
	 * last report in place; one that only lacked gnuplot is shown. */
	if (access(index, R_OK) != 0) {
		remove_dir(s->next);
		free(s->next);
		s->next = NULL;
		return;
	}
	remove_dir(s->report);
	free(s->report);
	s->report = s->next;
	s->next = NULL;
}

void
svr_cleanup(struct sv *s)
{
	int status;

	if (s->child != 0) {
		kill(s->child, SIGTERM);
		waitpid(s->child, &status, 0);
		s->child = 0;
	}
	remove_dir(s->next);
	remove_dir(s->report);
	free(s->next);
	free(s->report);
	s->next = s->report = NULL;
	if (s->tmp != NULL)
		rmdir(s->tmp);
	free(s->tmp);
	s->tmp = NULL;
}

/* The Content-Type of a report file by its name, NULL for a name that is
 * not one of a report's (only [a-z0-9.-], one dot, a known kind). */
static const char *
type_of(const char *name)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".csv", "text/csv; charset=utf-8" },
		{ ".txt", "text/plain; charset=utf-8" },
		{ ".gp", "text/plain; charset=utf-8" },
		{ ".log", "text/plain; charset=utf-8" },
	};
	const char *dot = strchr(name, '.'), *p;
	size_t i;

	if (dot == NULL || dot == name || strchr(dot + 1, '.') != NULL ||
	    strlen(name) > 64)
		return NULL;
	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.'))
			return NULL;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(dot, types[i].ext) == 0)
			return types[i].type;
	return NULL;
}

void
svr_file(struct sv_req *r, const char *name)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(r->req);
	const char *type;
	char path[4096];
	struct stat st;
	int fd;

	if (*name == '\0')
		name = "index.html";
	if ((type = type_of(name)) == NULL) {
		sv_error(r, 404, "no such file in the report");
		return;
	}
	if (r->s->report == NULL) {
		if (strcmp(name, "index.html") != 0) {
			sv_error(r, 404, "no report yet");
			return;
		}
		sv_head(r, "report", 2);
		sv_puts(r, "<h1>Report</h1>\n<p>The report is being made; "
		    "this page reloads in a moment.</p>\n");
		sv_foot(r);
		sv_send(r, 200);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", r->s->report, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		sv_error(r, 404, "no such file in the report");
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > REPORT_FILE_MAX) {
		close(fd);
		sv_error(r, 404, "no such file in the report");
		return;
	}
	/* evbuffer_add_file owns fd from here, on success or failure. */
	if (st.st_size > 0 && evbuffer_add_file(r->out, fd, 0, st.st_size) !=
	    0) {
		sv_error(r, 503, "cannot read the report file");
		return;
	}
	if (st.st_size == 0)
		close(fd);
	evhttp_add_header(h, "Content-Type", type);
	/* The report's page checks its images with an inline script; an
	 * SVG runs none. Nothing loads from elsewhere. */
	evhttp_add_header(h, "Content-Security-Policy",
	    strcmp(name, "index.html") == 0 ? "default-src 'none'; "
	    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
	    "img-src 'self'; base-uri 'none'; frame-ancestors 'none'" :
	    "default-src 'none'; style-src 'unsafe-inline'");
	evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
	evhttp_add_header(h, "Cache-Control", "no-store");
	evhttp_send_reply(r->req, 200, NULL, r->out);
}

/* Whether the last report has file name. */
static int
has_file(const struct sv *s, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", s->report, name);
	return access(path, R_OK) == 0;
}

/* The first bytes of the last report's file name, shown as text. */
static void
show_text(struct sv_req *r, const char *name, size_t max)
{
	char path[4096], *buf;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", r->s->report, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	if ((buf = malloc(max + 1)) != NULL &&
	    (n = read(fd, buf, max)) > 0) {
		/* Whole characters only: cut at the last line break. */
		while (n > 0 && (size_t)n == max && buf[n - 1] != '\n')
			n--;
		sv_puts(r, "<pre id=\"summary\">");
		sv_hn(r, buf, (size_t)n);
		sv_puts(r, "</pre>\n");
	}
	free(buf);
	close(fd);
}

void
svr_overview(struct sv_req *r)
{
	static const struct {
		const char *file, *alt;
	} plots[] = {
		{ "growth.svg", "unique, exact and near pages against pages "
		    "fetched" },
		{ "share.svg", "duplicate share of a sliding window" },
		{ "growth-time.svg", "the growth against time" },
		{ "similarity.svg", "duplicate pairs per similarity bucket" },
		{ "hosts.svg", "growth of the busiest hosts" },
	};
	struct sv *s = r->s;
	size_t i;
	int any = 0;

	sv_puts(r, "<h2>Report</h2>\n");
	if (s->report == NULL) {
		sv_puts(r, "<p class=\"note\">The report is being made "
		    "(<code>nearcrawl report</code>); reload in a moment."
		    "</p>\n");
		return;
	}
	show_text(r, "summary.txt", SUMMARY_MAX);
	sv_puts(r, "<div class=\"figs\">\n");
	for (i = 0; i < sizeof(plots) / sizeof(plots[0]); i++) {
		if (!has_file(s, plots[i].file))
			continue;
		sv_printf(r, "<a href=\"/report/%s\"><img src=\"/report/%s\" "
		    "alt=\"%s\"></a>\n", plots[i].file, plots[i].file,
		    plots[i].alt);
		any = 1;
	}
	sv_puts(r, "</div>\n");
	if (!any) {
		sv_puts(r, "<p class=\"note\">No plots: the report could not "
		    "draw them (is gnuplot installed?).</p>\n");
		show_text(r, "report.log", 4096);
	}
	sv_printf(r, "<p class=\"note\">The whole <a href=\"/report/\">report"
	    "</a> with its tables and CSV files%s.</p>\n", s->child != 0 ?
	    "; a newer one is being made" : "");
}
