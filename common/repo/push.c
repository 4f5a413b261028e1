/* SPDX-License-Identifier: GPL-2.0-only */
#include "push.h"
#include "push-credential.h"
#include "progress.h"
#include "refstep.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	"ok", "rejected", "unreachable", "timed out", "authentication failed", "failed",
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
	int reported;		/* the server reported our ref */
	struct strbuf status;	/* its reason when it refused the ref */
	int not_ff;		/* the negotiation found a non-fast-forward */
	struct strbuf remote_line;	/* a line of the server's messages, being received */
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

static void beat(struct worker *w)
{
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

static int cb_pack(int stage, uint32_t current, uint32_t total, void *payload)
{
	(void)stage;
	(void)current;
	(void)total;
	beat(payload);
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

/* Ours is the only update, and a fast-forward, or nothing goes out (libgit2 checks too). */
static int cb_negotiation(const git_push_update **updates, size_t len, void *payload)
{
	struct worker *w = payload;

	for (size_t i = 0; i < len; i++) {
		const git_push_update *u = updates[i];

		if (strcmp(u->dst_refname, w->opts->ref))
			return -1;
		if (!git_oid_is_zero(&u->src) && !git_oid_equal(&u->src, &u->dst) &&
		    git_graph_descendant_of(w->repo, &u->dst, &u->src) != 1) {
			w->not_ff = 1;
			return -1;
		}
	}
	return 0;
}

/* The server's word on each ref: status NULL means updated. */
static int cb_update_reference(const char *refname, const char *status, void *payload)
{
	struct worker *w = payload;

	if (strcmp(refname, w->opts->ref))
		return 0;
	w->reported = 1;
	if (status)
		strbuf_addstr(&w->status, status);
	return 0;
}

static void set_callbacks(git_remote_callbacks *cb, struct worker *w)
{
	cb->credentials = cb_credentials;
	cb->sideband_progress = cb_sideband;
	cb->pack_progress = cb_pack;
	cb->push_transfer_progress = cb_transfer;
	cb->push_negotiation = cb_negotiation;
	cb->push_update_reference = cb_update_reference;
	cb->payload = w;
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
	if (w->not_ff) {
		strbuf_addstr(reason, "non-fast-forward");
		return PUSH_REJECTED;
	}
	klass = lg2_last_error(reason);
	if (rc == GIT_ENONFASTFORWARD)
		return PUSH_REJECTED;
	if (rc == GIT_EAUTH)
		return PUSH_AUTH;
	if (rc == GIT_ECERTIFICATE)
		return PUSH_FAILED;
	switch (klass) {
	case GIT_ERROR_NET:
		/* The server answered, with an error of its own ("access denied"), or the URL is bad. */
		if (starts_with(reason->buf, "remote error") || starts_with(reason->buf, "malformed URL"))
			return PUSH_FAILED;
		return PUSH_UNREACHABLE;
	case GIT_ERROR_OS:
	case GIT_ERROR_SSH:
		return PUSH_UNREACHABLE;
	case GIT_ERROR_HTTP:
		if (strstr(reason->buf, "status code: 401") || strstr(reason->buf, "status code: 403"))
			return PUSH_AUTH;
		return strstr(reason->buf, "status code: 5") ? PUSH_UNREACHABLE : PUSH_FAILED;
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

static void advertise(struct worker *w, git_remote *remote)
{
	const git_remote_head **heads;
	size_t n;

	if (git_remote_ls(&heads, &n, remote) < 0)
		fail_lg2(w, -1);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(heads[i]->name, w->opts->ref)) {
			send_line(w, "adv %s", git_oid_tostr_s(&heads[i]->oid));
			return;
		}
	}
	send_line(w, "adv -");
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

static void upload(struct worker *w, git_remote *remote, git_remote_callbacks *cb, const char *hex)
{
	git_push_options popts = GIT_PUSH_OPTIONS_INIT;
	struct strbuf spec = STRBUF_INIT;
	char *specs[1];
	git_strarray arr = { specs, 1 };
	git_oid want, local;
	int rc;

	if (git_oid_fromstr(&want, hex) < 0 || git_reference_name_to_id(&local, w->repo, w->opts->ref) < 0 ||
	    !git_oid_equal(&want, &local))
		fail(w, PUSH_FAILED, "the local branch is not where the push expected it");
	/* Never "+<ref>:<ref>": a push that is not a fast-forward is refused, not forced. */
	strbuf_addf(&spec, "%s:%s", w->opts->ref, w->opts->ref);
	specs[0] = spec.buf;
	popts.callbacks = *cb;
	popts.pb_parallelism = 1;
	rc = git_remote_upload(remote, &arr, &popts);
	if (rc < 0)
		fail_lg2(w, rc);
	/* A 0 from git_remote_upload() is not proof: the server's report is. */
	if (!w->reported)
		fail(w, PUSH_FAILED, "the server did not report the update of the branch");
	if (w->status.len)
		fail(w, PUSH_REJECTED, w->status.buf);
	push_credential_done(&w->cred, 1, NULL);
	strbuf_release(&spec);
}

static void NORETURN worker_main(int fd, git_repository *repo, const struct push_opts *opts)
{
	struct worker w = { fd, opts, repo, PUSH_CREDENTIAL_INIT, 0, 0, STRBUF_INIT, 0, STRBUF_INIT };
	git_remote_callbacks cb = GIT_REMOTE_CALLBACKS_INIT;
	git_remote *remote = NULL;
	struct strbuf cmd = STRBUF_INIT;
	const char *hex;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	w.cred.cfg = opts->cfg;
	w.cred.waiting = cb_waiting;
	w.cred.data = &w;
	rc = git_remote_lookup(&remote, repo, opts->remote);
	if (rc < 0)
		fail_lg2(&w, rc);
	set_callbacks(&cb, &w);
	rc = git_remote_connect(remote, GIT_DIRECTION_PUSH, &cb, NULL, NULL);
	if (rc < 0)
		fail_lg2(&w, rc);
	advertise(&w, remote);
	read_command(&w, &cmd);
	if (skip_prefix(cmd.buf, "go ", &hex)) {
		upload(&w, remote, &cb, hex);
		send_line(&w, "ok");
	}
	git_remote_disconnect(remote);
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
