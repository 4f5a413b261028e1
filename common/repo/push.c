/* SPDX-License-Identifier: GPL-2.0-only */
#include "push.h"
#include "push-credential.h"
#include "progress.h"
#include "pushpack.h"
#include "refstep.h"
#include "repo.h"
#include "sendpack.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The worker's lines to the parent:
 *
 *	beat			a sign of life (pack building, the server's messages)
 *	sent <n> <total>	objects sent so far (for the progress meter)
 *	wait 1|0		a credential helper that may prompt runs / ended
 *	adv <hex>|-		the remote's value of the ref (connected)
 *	ok			the remote took the update
 *	fail <outcome> <reason>	and the worker ends
 *
 * and the parent's to the worker: "go <hex>" (push, the local ref holds
 * hex) or "stop".
 */

/* Not more than one beat per this many ms: libgit2 may call back per packet. */
#define BEAT_MS 200
/* After "stop", how long the worker may take to hang up before it is killed. */
#define STOP_WAIT_MS 5000
/* Pushes shorter than this show no progress meter. */
#define PROGRESS_DELAY_MS 1000

static const char *const outcome_names[] = {
	"ok", "rejected", "unreachable", "timed out", "server error", "authentication failed", "failed",
};

const char *push_outcome_name(enum push_outcome o)
{
	return o < ARRAY_SIZE(outcome_names) ? outcome_names[o] : "failed";
}

enum maint_result push_outcome_result(enum push_outcome o)
{
	switch (o) {
	case PUSH_OK:
		return RESULT_OK;
	case PUSH_REJECTED:
		return RESULT_NO;
	case PUSH_UNREACHABLE:
	case PUSH_TIMEOUT:
	case PUSH_SERVER:
		return RESULT_TEMPFAIL;
	default:
		return RESULT_FATAL;
	}
}

void push_result_release(struct push_result *res)
{
	strbuf_release(&res->reason);
	free(res->url);
	res->url = NULL;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the worker (child process) ---- */

struct worker {
	int fd;
	const struct push_opts *opts;
	git_repository *repo;
	struct push_credential cred;
	long long last_beat;
	struct strbuf remote_line;	/* a line of the server's messages, being received */
	git_remote *remote;
	const char *url;
	git_remote_callbacks cb;
	struct sendpack *sp;
	git_oid adv;			/* the remote's value of the ref, as connected */
	int has_adv;
};

static void send_line(struct worker *w, const char *fmt, ...) PRINTF(2, 3);

static void send_line(struct worker *w, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* One message, one line: a reason from a server may hold anything. */
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n' || sb.buf[i] == '\r')
			sb.buf[i] = ' ';
	strbuf_addch(&sb, '\n');
	if (send(w->fd, sb.buf, sb.len, MSG_NOSIGNAL) < 0)
		_exit(1);	/* the parent is gone */
	strbuf_release(&sb);
}

static void beat(void *data)
{
	struct worker *w = data;
	long long t = now_ms();

	if (t - w->last_beat >= BEAT_MS) {
		w->last_beat = t;
		send_line(w, "beat");
	}
}

static int cb_credentials(git_credential **out, const char *url, const char *user,
			  unsigned int types, void *payload)
{
	struct worker *w = payload;

	return push_credential_acquire(out, url, user, types, &w->cred);
}

static void cb_waiting(void *data, int waiting)
{
	send_line(data, "wait %d", waiting);
}

/*
 * The server's messages (a hook's words), shown as git push shows them:
 * "remote: <line>", control characters neutralised; its progress lines
 * (ended by CR) are dropped.
 */
static int cb_sideband(const char *str, int len, void *payload)
{
	struct worker *w = payload;

	beat(w);
	for (int i = 0; i < len; i++) {
		if (str[i] == '\r') {
			strbuf_setlen(&w->remote_line, 0);
		} else if (str[i] == '\n') {
			if (!w->opts->quiet)
				say(stderr, "remote: %s", w->remote_line.buf);
			strbuf_setlen(&w->remote_line, 0);
		} else {
			strbuf_addch(&w->remote_line, str[i]);
		}
	}
	return 0;
}

static int cb_transfer(unsigned int current, unsigned int total, size_t bytes, void *payload)
{
	struct worker *w = payload;
	long long t = now_ms();

	(void)bytes;
	if (t - w->last_beat >= BEAT_MS || current == total) {
		w->last_beat = t;
		send_line(w, "sent %u %u", current, total);
	}
	return 0;
}

static enum push_outcome classify(struct worker *w, int rc, struct strbuf *reason)
{
	int klass;

	if (w->cred.failed) {
		strbuf_addbuf(reason, &w->cred.why);
		if (!reason->len)
			strbuf_addstr(reason, "authentication failed");
		return PUSH_AUTH;
	}
	klass = lg2_last_error(reason);
	if (rc == GIT_EAUTH)
		return PUSH_AUTH;
	if (rc == GIT_ECERTIFICATE)
		return PUSH_FAILED;
	switch (klass) {
	case GIT_ERROR_NET:
		/*
		 * The server answered with an error of its own ("access
		 * denied", no such repository), or the URL or the server
		 * cannot be used at all; else the connection failed.
		 */
		if (starts_with(reason->buf, "remote error") || starts_with(reason->buf, "malformed URL") ||
		    starts_with(reason->buf, "unsupported URL") || strstr(reason->buf, "report-status") ||
		    starts_with(reason->buf, "cannot run git receive-pack"))
			return PUSH_FAILED;
		return PUSH_UNREACHABLE;
	case GIT_ERROR_OS:
	case GIT_ERROR_SSH:
		return PUSH_UNREACHABLE;
	case GIT_ERROR_HTTP:
		if (strstr(reason->buf, "status code: 401") || strstr(reason->buf, "status code: 403"))
			return PUSH_AUTH;
		if (strstr(reason->buf, "status code: 5"))
			return PUSH_SERVER;
		/* another status (404: no such repository) is for the user to mend */
		if (strstr(reason->buf, "status code: "))
			return PUSH_FAILED;
		/* the connection closed (a keep-alive the server dropped), the answer garbled */
		return PUSH_UNREACHABLE;
	default:
		return PUSH_FAILED;
	}
}

static void NORETURN fail(struct worker *w, enum push_outcome o, const char *reason)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addstr(&line, reason);
	if (o == PUSH_AUTH)
		push_credential_done(&w->cred, 0, &line);
	send_line(w, "fail %d %s", (int)o, line.buf);
	_exit(0);
}

static void NORETURN fail_lg2(struct worker *w, int rc)
{
	struct strbuf reason = STRBUF_INIT;
	enum push_outcome o = classify(w, rc, &reason);

	fail(w, o, reason.buf);
}

/*
 * The certificate authorities an https remote is checked against, as
 * git push has them: $GIT_SSL_CAINFO / $GIT_SSL_CAPATH, else
 * http.sslCAInfo / http.sslCAPath; the system's when none is set. Other
 * transports never read them (a wrong one must not stop a git:// push).
 */
static void trust_certificates(struct worker *w)
{
	const char *env_file = getenv("GIT_SSL_CAINFO"), *env_dir = getenv("GIT_SSL_CAPATH");
	char *file, *dir;
	int rc;

	if (strncasecmp(w->url, "https://", 8))
		return;
	file = env_file && *env_file ? xstrdup(env_file) : config_git_string(w->opts->cfg, "http.sslcainfo");
	dir = env_dir && *env_dir ? xstrdup(env_dir) : config_git_string(w->opts->cfg, "http.sslcapath");
	rc = repo_trust_certificates(file, dir);
	if (rc < 0)
		fail_lg2(w, rc);
	free(file);
	free(dir);
}

static void connect_remote(struct worker *w)
{
	const char *const *names;
	const git_oid *ids;
	size_t n;
	int rc = sendpack_connect(&w->sp, w->remote, w->url, &w->cb);

	if (rc < 0)
		fail_lg2(w, rc);
	n = sendpack_heads(w->sp, &names, &ids);
	w->has_adv = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], w->opts->ref)) {
			git_oid_cpy(&w->adv, &ids[i]);
			w->has_adv = 1;
		}
}

/* The parent's command, one line. */
static void read_command(struct worker *w, struct strbuf *cmd)
{
	char c;

	for (;;) {
		ssize_t n = read(w->fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);	/* the parent hung up: nothing to push */
		if (c == '\n')
			return;
		strbuf_addch(cmd, c);
	}
}

/* GIT_MAINT_TEST_PACK_DELAY=<seconds>: a pack that takes that long to make (tests only). */
static void test_pack_delay(struct worker *w)
{
	const char *v = getenv("GIT_MAINT_TEST_PACK_DELAY");
	long long until = v ? now_ms() + atoi(v) * 1000LL : 0;

	while (now_ms() < until) {
		beat(w);
		poll(NULL, 0, 50);
	}
}

/*
 * The pack the remote needs, in a temporary file (gone when closed):
 * made before the upload starts, so no connection waits for it.
 */
static int make_pack(struct worker *w, const git_oid *want, uint32_t *nr)
{
	const char *const *names;
	const git_oid *ids;
	struct pushpack_opts po = { NULL, 0, 1, 1, beat, w };
	struct pushpack_stats st;
	FILE *f = tmpfile();
	int fd;

	if (!f)
		fail(w, PUSH_FAILED, "cannot create a temporary file for the pack");
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0)
		fail(w, PUSH_FAILED, "cannot create a temporary file for the pack");
	po.nr_haves = sendpack_heads(w->sp, &names, &ids);
	po.haves = ids;
	po.thin = !sendpack_has_cap(w->sp, "no-thin");
	po.ofs = sendpack_has_cap(w->sp, "ofs-delta");
	if (pushpack_write(w->repo, want, &po, fd, "the pack", &st) < 0)
		fail_lg2(w, -1);
	*nr = st.objects;
	test_pack_delay(w);
	return fd;
}

/*
 * Connects again, the connection lost: the remote's branch must still
 * be where the pack was made for, or one the new value descends from.
 * 1: the remote has want already; 0: push again, *stale set when the
 * remote no longer has every ref the pack was made against.
 */
static int reconnect(struct worker *w, const git_oid *want, int *stale)
{
	git_oid before = w->adv;
	int had = w->has_adv;
	const char *const *names;
	const git_oid *ids;
	size_t n = sendpack_heads(w->sp, &names, &ids);
	git_oid *old = xcalloc(n ? n : 1, sizeof(*old));
	size_t nold = n;

	memcpy(old, ids, n * sizeof(*old));
	sendpack_free(w->sp);
	w->sp = NULL;
	push_credential_reconnect(&w->cred);
	connect_remote(w);
	if (w->has_adv && git_oid_equal(&w->adv, want)) {
		free(old);
		return 1;
	}
	if (w->has_adv && (!had || !git_oid_equal(&w->adv, &before)) &&
	    git_graph_descendant_of(w->repo, want, &w->adv) != 1)
		fail(w, PUSH_REJECTED, "non-fast-forward (the remote's branch moved during the push)");
	/* a pack made for refs the remote no longer has may lean on objects it dropped */
	n = sendpack_heads(w->sp, &names, &ids);
	for (size_t i = 0; i < nold && !*stale; i++) {
		size_t j;

		for (j = 0; j < n && !git_oid_equal(&old[i], &ids[j]); j++)
			;
		*stale = j == n;
	}
	free(old);
	return 0;
}

static void upload(struct worker *w, const char *hex)
{
	struct sendpack_report rep = SENDPACK_REPORT_INIT;
	git_oid want, local;
	uint32_t nr = 0;
	int fd, rc, stale = 0, tries = 0, there = 0;

	if (git_oid_fromstr(&want, hex) < 0 || git_reference_name_to_id(&local, w->repo, w->opts->ref) < 0 ||
	    !git_oid_equal(&want, &local))
		fail(w, PUSH_FAILED, "the local branch is not where the push expected it");
	fd = make_pack(w, &want, &nr);
	/* Never a forced update: the server checks the old value we name. */
	while ((rc = sendpack_push(w->sp, w->opts->ref, w->has_adv ? &w->adv : NULL, &want, fd, nr,
				   &rep)) < 0) {
		/*
		 * The connection was lost before the server said a word (an
		 * HTTP server drops a keep-alive connection left idle while
		 * the pack was made): nothing reached it, so once more, on a
		 * new connection. A server that answered (a 5xx) is not asked
		 * again.
		 */
		struct strbuf why = STRBUF_INIT;
		enum push_outcome o = classify(w, rc, &why);

		if (rep.received || tries++ || o != PUSH_UNREACHABLE)
			fail(w, o, why.buf);
		strbuf_release(&why);
		git_error_clear();
		there = reconnect(w, &want, &stale);
		if (there)
			break;
		if (stale) {
			close(fd);
			fd = make_pack(w, &want, &nr);
			stale = 0;
		}
	}
	close(fd);
	if (!there && !rep.ok)
		fail(w, starts_with(rep.reason.buf, "unpack failed") ? PUSH_SERVER : PUSH_REJECTED,
		     rep.reason.buf);
	sendpack_report_release(&rep);
	push_credential_done(&w->cred, 1, NULL);
}

static void NORETURN worker_main(int fd, git_repository *repo, const struct push_opts *opts)
{
	struct worker w = { fd, opts, repo, PUSH_CREDENTIAL_INIT, 0, STRBUF_INIT };
	struct strbuf cmd = STRBUF_INIT;
	const char *hex;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	w.cred.cfg = opts->cfg;
	w.cred.waiting = cb_waiting;
	w.cred.data = &w;
	rc = git_remote_lookup(&w.remote, repo, opts->remote);
	if (rc < 0)
		fail_lg2(&w, rc);
	w.url = git_remote_pushurl(w.remote) ? git_remote_pushurl(w.remote) : git_remote_url(w.remote);
	if (!w.url)
		fail(&w, PUSH_FAILED, "the remote has no URL");
	if (git_remote_init_callbacks(&w.cb, GIT_REMOTE_CALLBACKS_VERSION) < 0)
		fail_lg2(&w, -1);
	w.cb.credentials = cb_credentials;
	w.cb.sideband_progress = cb_sideband;
	w.cb.push_transfer_progress = cb_transfer;
	w.cb.payload = &w;
	trust_certificates(&w);
	connect_remote(&w);
	if (w.has_adv)
		send_line(&w, "adv %s", git_oid_tostr_s(&w.adv));
	else
		send_line(&w, "adv -");
	read_command(&w, &cmd);
	if (skip_prefix(cmd.buf, "go ", &hex)) {
		upload(&w, hex);
		send_line(&w, "ok");
	}
	sendpack_free(w.sp);
	_exit(0);
}

/* ---- the parent ---- */

int push_remote_url(const struct maint_config *cfg, const char *remote, char **url)
{
	struct strbuf key = STRBUF_INIT;
	int valid = 0;

	*url = NULL;
	if (git_remote_name_is_valid(&valid, remote) < 0 || !valid)
		return 1;
	strbuf_addf(&key, "remote.%s.pushurl", remote);
	*url = config_git_string(cfg, key.buf);
	if (!*url) {
		strbuf_reset(&key);
		strbuf_addf(&key, "remote.%s.url", remote);
		*url = config_git_string(cfg, key.buf);
	}
	strbuf_release(&key);
	return *url ? 0 : 1;
}

struct push_conn {
	pid_t pid;
	int fd;
	int timeout;
	int waiting;		/* the worker waits for a credential helper */
	int quiet;
	struct strbuf in;	/* bytes from the worker not yet read */
	struct strbuf title;
	long long started;	/* of the upload, for the progress meter */
	struct progress *progress;
};

static void end_worker(struct push_conn *c, int kill_it)
{
	long long deadline = now_ms() + STOP_WAIT_MS;
	int status;

	if (c->pid <= 0)
		return;
	if (kill_it)
		kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &status, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(c->pid, SIGKILL);
			deadline = now_ms() + STOP_WAIT_MS;
		}
		poll(NULL, 0, 10);
	}
	c->pid = 0;
}

static void conn_free(struct push_conn *c)
{
	if (!c)
		return;
	end_worker(c, 1);
	if (c->fd >= 0)
		close(c->fd);
	progress_stop(&c->progress);
	strbuf_release(&c->in);
	strbuf_release(&c->title);
	free(c);
}

static void show_progress(struct push_conn *c, const char *args)
{
	unsigned cur = 0, total = 0;

	if (sscanf(args, "%u %u", &cur, &total) != 2)
		return;
	if (!c->progress && c->started && now_ms() - c->started >= PROGRESS_DELAY_MS)
		c->progress = progress_start(c->title.buf, total, c->quiet);
	progress_update(c->progress, cur);
}

/* The worker's next line that is not a beat; -1 with res set when it timed out or died. */
static int next_line(struct push_conn *c, struct strbuf *line, struct push_result *res)
{
	for (;;) {
		char *nl = memchr(c->in.buf, '\n', c->in.len);
		const char *arg;
		char buf[4096];
		struct pollfd pfd = { c->fd, POLLIN, 0 };
		ssize_t n;
		int rc;

		if (nl) {
			strbuf_setlen(line, 0);
			strbuf_add(line, c->in.buf, nl - c->in.buf);
			strbuf_remove(&c->in, 0, nl - c->in.buf + 1);
			if (!strcmp(line->buf, "beat"))
				continue;
			if (skip_prefix(line->buf, "sent ", &arg)) {
				show_progress(c, arg);
				continue;
			}
			if (skip_prefix(line->buf, "wait ", &arg)) {
				c->waiting = !strcmp(arg, "1");
				continue;
			}
			return 0;
		}
		rc = poll(&pfd, 1, c->waiting || !c->timeout ? -1 : c->timeout * 1000);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			end_worker(c, 1);
			res->outcome = PUSH_TIMEOUT;
			strbuf_addf(&res->reason, "no answer for %d second%s", c->timeout,
				    c->timeout == 1 ? "" : "s");
			return -1;
		}
		n = rc < 0 ? -1 : read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			end_worker(c, 0);
			res->outcome = PUSH_FAILED;
			strbuf_addstr(&res->reason, "the push ended without a word (a crash?)");
			return -1;
		}
		strbuf_add(&c->in, buf, n);
	}
}

/* "fail <outcome> <reason>" into res; anything else unexpected is a failure too. */
static int take_failure(struct push_conn *c, const struct strbuf *line, struct push_result *res)
{
	const char *arg;
	char *end;
	long o;

	end_worker(c, 0);
	if (skip_prefix(line->buf, "fail ", &arg)) {
		o = strtol(arg, &end, 10);
		res->outcome = o > PUSH_OK && o <= PUSH_FAILED ? (enum push_outcome)o : PUSH_FAILED;
		strbuf_addstr(&res->reason, *end ? end + 1 : "");
	} else {
		res->outcome = PUSH_FAILED;
		strbuf_addf(&res->reason, "unexpected answer from the push: '%s'", line->buf);
	}
	return -1;
}

static int start_worker(struct push_conn *c, git_repository *repo, const struct push_opts *opts)
{
	int sv[2];
	pid_t parent = getpid();

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return error_errno("cannot create a socket pair");
	fflush(NULL);
	report_flush();
	c->pid = fork();
	if (c->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return error_errno("cannot fork");
	}
	if (!c->pid) {
		close(sv[0]);
		/* A publish killed (kill -9) takes its push with it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		worker_main(sv[1], repo, opts);
	}
	close(sv[1]);
	c->fd = sv[0];
	return 0;
}

int push_connect(struct push_conn **out, git_repository *repo, const struct push_opts *opts,
		 struct push_result *res)
{
	struct push_conn *c = xcalloc(1, sizeof(*c));
	struct strbuf line = STRBUF_INIT;
	const char *arg;
	int ret = -1;

	*out = NULL;
	c->fd = -1;
	c->timeout = opts->timeout;
	c->quiet = opts->quiet;
	strbuf_init(&c->in, 0);
	strbuf_init(&c->title, 0);
	strbuf_addf(&c->title, "Pushing to '%s'", opts->remote);
	res->has_remote_old = 0;
	free(res->url);
	if (push_remote_url(opts->cfg, opts->remote, &res->url)) {
		res->outcome = PUSH_FAILED;
		strbuf_addf(&res->reason, "no remote '%s'", opts->remote);
		goto out;
	}
	if (start_worker(c, repo, opts) < 0) {
		res->outcome = PUSH_FAILED;
		strbuf_addstr(&res->reason, "cannot start the push");
		goto out;
	}
	if (next_line(c, &line, res) < 0)
		goto out;
	if (!skip_prefix(line.buf, "adv ", &arg)) {
		take_failure(c, &line, res);
		goto out;
	}
	if (strcmp(arg, "-")) {
		if (git_oid_fromstr(&res->remote_old, arg) < 0) {
			take_failure(c, &line, res);
			goto out;
		}
		res->has_remote_old = 1;
	}
	*out = c;
	c = NULL;
	ret = 0;
out:
	strbuf_release(&line);
	conn_free(c);
	return ret;
}

int push_update(struct push_conn *c, const git_oid *new, struct push_result *res)
{
	struct strbuf line = STRBUF_INIT;
	char cmd[GIT_OID_HEXSZ + 5];
	int ret = -1;

	snprintf(cmd, sizeof(cmd), "go %s\n", git_oid_tostr_s(new));
	c->started = now_ms();
	if (send(c->fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0) {
		res->outcome = PUSH_FAILED;
		strbuf_addstr(&res->reason, "the push ended before it was told to push");
		goto out;
	}
	if (next_line(c, &line, res) < 0)
		goto out;
	if (strcmp(line.buf, "ok")) {
		take_failure(c, &line, res);
		goto out;
	}
	res->outcome = PUSH_OK;
	end_worker(c, 0);
	ret = 0;
out:
	strbuf_release(&line);
	conn_free(c);
	return ret;
}

void push_close(struct push_conn *c)
{
	if (!c)
		return;
	if (c->pid > 0 && send(c->fd, "stop\n", 5, MSG_NOSIGNAL) > 0)
		end_worker(c, 0);
	conn_free(c);
}

/* ---- the remote-tracking ref ---- */

int push_tracking_ref(const struct maint_config *cfg, const char *remote, const char *ref,
		      struct strbuf *out)
{
	struct strvec specs = STRVEC_INIT;
	struct strbuf key = STRBUF_INIT;
	int ret = 1;

	strbuf_addf(&key, "remote.%s.fetch", remote);
	config_git_strings(cfg, key.buf, &specs);
	for (size_t i = 0; i < specs.nr && ret == 1; i++) {
		git_refspec *spec = NULL;
		git_buf buf = GIT_BUF_INIT;

		/* a negative refspec ("^refs/heads/x") maps nothing */
		if (specs.v[i][0] == '^' || git_refspec_parse(&spec, specs.v[i], 1) < 0)
			continue;
		if (git_refspec_src_matches(spec, ref)) {
			if (lg2_check(git_refspec_transform(&buf, spec, ref),
				      "cannot map '%s' by '%s'", ref, specs.v[i]) < 0) {
				ret = -1;
			} else {
				strbuf_reset(out);
				strbuf_addstr(out, buf.ptr);
				ret = 0;
			}
		}
		git_buf_dispose(&buf);
		git_refspec_free(spec);
	}
	strvec_clear(&specs);
	strbuf_release(&key);
	return ret;
}

int push_track(git_repository *repo, const struct maint_config *cfg, const struct state_lock *lock,
	       const char *remote, const char *ref, const git_oid *oid)
{
	struct strbuf tracking = STRBUF_INIT, suffix = STRBUF_INIT;
	struct refstep_move move = { .reflog = "update by push" };
	struct refstep step = { .repo = repo, .lock = lock, .name = "push", .moves = &move, .nr = 1 };
	int rc, ret = 0;

	rc = push_tracking_ref(cfg, remote, ref, &tracking);
	if (rc)
		goto out;
	if (refstep_read(repo, tracking.buf, &move.old, &move.has_old) < 0) {
		ret = -1;
		goto out;
	}
	if (move.has_old && git_oid_equal(&move.old, oid))
		goto out;
	move.ref = tracking.buf;
	git_oid_cpy(&move.new, oid);
	strbuf_addf(&suffix, ":%s", remote);
	step.point_suffix = suffix.buf;
	ret = refstep_run(&step);
out:
	if (rc < 0)
		ret = -1;
	strbuf_release(&tracking);
	strbuf_release(&suffix);
	return ret;
}
