/* SPDX-License-Identifier: GPL-2.0-only */
#include "sendpack.h"
#include "quote.h"
#include "run-command.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <git2/sys/transport.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The capabilities we use, when the server offers them; "agent" always. */
static const char *const wanted_caps[] = {
	"report-status", "side-band-64k", "ofs-delta", "object-format=sha1", NULL
};
#define AGENT "agent=git-maint/1"

/* Pieces of the pack per write: an HTTP chunk each. */
#define SEND_CHUNK (64 * 1024)
/* The listing's start kept while looking for the capabilities, at most. */
#define SNIFF_MAX (64 * 1024)

/* What git unsets before it runs a local git-receive-pack (git's local_repo_env). */
static const char *const local_repo_env[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR", NULL
};

struct sp_stream;

/* Our subtransport: libgit2's for the URL (inner), or a local git-receive-pack. */
struct sp_sub {
	git_smart_subtransport parent;
	git_smart_subtransport *inner;
	struct sendpack *sp;
	struct sp_stream *stateful;	/* a stateful connection's one stream */
	struct child_process child;	/* local */
};

struct sp_stream {
	git_smart_subtransport_stream parent;
	git_smart_subtransport_stream *inner;	/* NULL: the local child's pipes */
	struct sp_sub *sub;
	int listing;		/* the ref listing: look for the capabilities */
};

struct sendpack {
	git_transport *t;
	git_smart_subtransport_cb inner_fn;	/* NULL: a local repository */
	char *url, *dir;
	struct sp_sub *sub;
	git_remote_callbacks cb;
	struct strbuf sniffed;
	int caps_found;
	struct strvec caps;
	struct strvec names;
	git_oid *ids;
	size_t nr;
	unsigned rpc;		/* stateless (http): each request its own stream */
};

static int net_error(const char *fmt, ...) PRINTF(1, 2);

static int net_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	git_error_set_str(GIT_ERROR_NET, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* ---- pkt-lines ---- */

/* The length a pkt-line's four hex digits say, or -1. */
static int pkt_len(const char *p)
{
	int n = 0;

	for (int i = 0; i < 4; i++) {
		int v = hex_digit((unsigned char)p[i]);

		if (v < 0)
			return -1;
		n = (n << 4) | v;
	}
	return n;
}

static void pkt_add(struct strbuf *sb, const char *data, size_t len)
{
	strbuf_addf(sb, "%04zx", len + 4);
	strbuf_add(sb, data, len);
}

/*
 * The capabilities, from the listing's first line ("<id> <ref>\0<caps>"),
 * once enough of it went by: after a smart HTTP server's "# service="
 * line and its flush, or a "version 1" line.
 */
static void sniff(struct sendpack *sp, const char *buf, size_t len)
{
	size_t at = 0;

	if (sp->caps_found || sp->sniffed.len > SNIFF_MAX)
		return;
	strbuf_add(&sp->sniffed, buf, len);
	while (sp->sniffed.len - at >= 4) {
		const char *p = sp->sniffed.buf + at, *nul, *end;
		int n = pkt_len(p);

		if (n < 0 || (n > 0 && n < 4)) {
			sp->caps_found = 1;	/* not a listing we understand: no capabilities */
			return;
		}
		if (n == 0) {
			at += 4;
			continue;
		}
		if (sp->sniffed.len - at < (size_t)n)
			return;
		end = p + n;
		if (end > p + 4 && end[-1] == '\n')
			end--;
		nul = memchr(p + 4, '\0', end - (p + 4));
		if (nul) {
			for (const char *c = nul + 1; c < end;) {
				const char *sp_ = memchr(c, ' ', end - c);
				const char *e = sp_ ? sp_ : end;

				if (e > c)
					strvec_push_mem(&sp->caps, c, e - c);
				c = e + 1;
			}
			sp->caps_found = 1;
			return;
		}
		if (!starts_with(p + 4, "# service=") && !starts_with(p + 4, "version ")) {
			sp->caps_found = 1;
			return;
		}
		at += n;
	}
}

/* ---- our streams ---- */

static int stream_read(git_smart_subtransport_stream *s, char *buf, size_t size, size_t *got)
{
	struct sp_stream *st = (struct sp_stream *)s;
	struct sendpack *sp = st->sub->sp;
	int rc = 0;

	*got = 0;
	if (st->inner) {
		rc = st->inner->read(st->inner, buf, size, got);
	} else {
		ssize_t n;

		do
			n = read(st->sub->child.out, buf, size);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			rc = net_error("cannot read from git-receive-pack: %s", strerror(errno));
		else
			*got = n;
	}
	if (rc < 0)
		return rc;
	if (st->listing)
		sniff(sp, buf, *got);
	return 0;
}

static int stream_write(git_smart_subtransport_stream *s, const char *buf, size_t len)
{
	struct sp_stream *st = (struct sp_stream *)s;
	int rc = 0;

	if (st->inner)
		rc = st->inner->write(st->inner, buf, len);
	else if (write_in_full(st->sub->child.in, buf, len) < 0)
		rc = net_error("cannot write to git-receive-pack: %s", strerror(errno));
	return rc;
}

static void stream_free(git_smart_subtransport_stream *s)
{
	struct sp_stream *st = (struct sp_stream *)s;

	if (!st)
		return;
	if (st->sub->stateful == st)
		st->sub->stateful = NULL;
	if (st->inner)
		st->inner->free(st->inner);
	free(st);
}

static struct sp_stream *stream_new(struct sp_sub *sub, git_smart_subtransport_stream *inner)
{
	struct sp_stream *st = xcalloc(1, sizeof(*st));

	st->parent.subtransport = &sub->parent;
	st->parent.read = stream_read;
	st->parent.write = stream_write;
	st->parent.free = stream_free;
	st->inner = inner;
	st->sub = sub;
	return st;
}

/* ---- our subtransport ---- */

static int start_local(struct sp_sub *sub)
{
	const char *argv[] = { "git", "receive-pack", sub->sp->dir, NULL };
	struct run_opts o = { .argv = argv, .env = local_repo_env };

	if (start_command(&sub->child, &o, CHILD_PIPE_IN | CHILD_PIPE_OUT) < 0)
		return net_error("cannot run git receive-pack '%s'", sub->sp->dir);
	return 0;
}

static int sub_action(git_smart_subtransport_stream **out, git_smart_subtransport *t,
		      const char *url, git_smart_service_t action)
{
	struct sp_sub *sub = (struct sp_sub *)t;
	git_smart_subtransport_stream *inner = NULL;
	struct sp_stream *st;
	int rc;

	*out = NULL;
	if (action == GIT_SERVICE_UPLOADPACK_LS || (action == GIT_SERVICE_UPLOADPACK && !sub->stateful))
		return net_error("a push connection cannot fetch");
	if (sub->inner) {
		rc = sub->inner->action(&inner, sub->inner, url, action);
		if (rc < 0)
			return rc;
		if (sub->stateful && sub->stateful->inner == inner) {
			*out = &sub->stateful->parent;	/* the same connection */
			return 0;
		}
	} else if (sub->stateful) {
		*out = &sub->stateful->parent;
		return 0;
	} else if (action != GIT_SERVICE_RECEIVEPACK_LS || start_local(sub) < 0) {
		return sub->child.pid > 0 ? -1 : net_error("git receive-pack is not running");
	}
	st = stream_new(sub, inner);
	if (action == GIT_SERVICE_RECEIVEPACK_LS) {
		st->listing = 1;
		if (!sub->sp->rpc)
			sub->stateful = st;
	}
	*out = &st->parent;
	return 0;
}

static int end_local(struct sp_sub *sub)
{
	int rc;

	if (sub->child.pid <= 0)
		return 0;
	rc = finish_command(&sub->child);
	return rc ? net_error("git receive-pack '%s' failed (exit %d)", sub->sp->dir, rc) : 0;
}

static int sub_close(git_smart_subtransport *t)
{
	struct sp_sub *sub = (struct sp_sub *)t;

	if (sub->inner)
		return sub->inner->close(sub->inner);
	end_local(sub);
	git_error_clear();
	return 0;
}

static void sub_free(git_smart_subtransport *t)
{
	struct sp_sub *sub = (struct sp_sub *)t;

	if (sub->inner)
		sub->inner->free(sub->inner);
	else
		end_local(sub);
	if (sub->sp->sub == sub)
		sub->sp->sub = NULL;
	free(sub);
}

static int sub_new(git_smart_subtransport **out, git_transport *owner, void *param)
{
	struct sendpack *sp = param;
	struct sp_sub *sub = xcalloc(1, sizeof(*sub));
	int rc;

	sub->parent.action = sub_action;
	sub->parent.close = sub_close;
	sub->parent.free = sub_free;
	sub->sp = sp;
	sub->child = (struct child_process)CHILD_PROCESS_INIT;
	if (sp->inner_fn && (rc = sp->inner_fn(&sub->inner, owner, NULL)) < 0) {
		free(sub);
		return rc;
	}
	sp->sub = sub;
	*out = &sub->parent;
	return 0;
}

/* ---- connecting ---- */

static int has_prefix_ci(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/*
 * Which of libgit2's subtransports, as libgit2 (and git) read a URL:
 * a scheme, else "host:path" (no '/' before the ':') is ssh, else a path
 * here. *rpc: a stateless (http) one.
 */
static int choose_transport(struct sendpack *sp, const char *url, unsigned *rpc)
{
	const char *colon = strchr(url, ':'), *slash = strchr(url, '/');

	*rpc = 0;
	if (has_prefix_ci(url, "http://") || has_prefix_ci(url, "https://")) {
		sp->inner_fn = git_smart_subtransport_http;
		*rpc = 1;
	} else if (has_prefix_ci(url, "git://")) {
		sp->inner_fn = git_smart_subtransport_git;
	} else if (has_prefix_ci(url, "ssh://") || has_prefix_ci(url, "ssh+git://") ||
		   has_prefix_ci(url, "git+ssh://")) {
		sp->inner_fn = git_smart_subtransport_ssh;
	} else if (has_prefix_ci(url, "file://")) {
		sp->dir = xstrdup(url + strlen("file://"));
	} else if (colon && (!slash || colon < slash) && strstr(url, "://") == NULL) {
		sp->inner_fn = git_smart_subtransport_ssh;
	} else if (strstr(url, "://")) {
		struct strbuf shown = STRBUF_INIT;
		int rc;

		quote_url(&shown, url);
		rc = net_error("unsupported URL protocol in '%s'", shown.buf);
		strbuf_release(&shown);
		return rc;
	} else {
		sp->dir = xstrdup(url);
	}
	return 0;
}

static void take_heads(struct sendpack *sp)
{
	const git_remote_head **heads = NULL;
	size_t n = 0;

	if (sp->t->ls(&heads, &n, sp->t) < 0) {
		git_error_clear();
		n = 0;
	}
	sp->ids = xcalloc(n ? n : 1, sizeof(*sp->ids));
	for (size_t i = 0; i < n; i++) {
		strvec_push(&sp->names, heads[i]->name);
		git_oid_cpy(&sp->ids[sp->nr++], &heads[i]->oid);
	}
}

int sendpack_connect(struct sendpack **out, git_remote *remote, const char *url,
		     const git_remote_callbacks *callbacks)
{
	struct sendpack *sp = xcalloc(1, sizeof(*sp));
	git_smart_subtransport_definition def = { sub_new, 0, sp };
	git_remote_connect_options opts = GIT_REMOTE_CONNECT_OPTIONS_INIT;
	int rc;

	*out = NULL;
	strbuf_init(&sp->sniffed, 0);
	strvec_init(&sp->caps);
	strvec_init(&sp->names);
	sp->url = xstrdup(url);
	sp->cb = *callbacks;
	opts.callbacks = *callbacks;
	rc = choose_transport(sp, url, &sp->rpc);
	def.rpc = sp->rpc;
	if (!rc)
		rc = git_transport_smart(&sp->t, remote, &def);
	if (!rc)
		rc = sp->t->connect(sp->t, url, GIT_DIRECTION_PUSH, &opts);
	if (rc < 0) {
		const git_error *e = git_error_last();
		int klass = e ? e->klass : GIT_ERROR_NET;
		char *msg = xstrdup(e && e->message ? e->message : "cannot connect");

		sendpack_free(sp);	/* hanging up may say things of its own */
		git_error_set_str(klass, msg);
		free(msg);
		return rc;
	}
	take_heads(sp);
	*out = sp;
	return 0;
}

size_t sendpack_heads(const struct sendpack *sp, const char *const **names, const git_oid **ids)
{
	*names = sp->names.v;
	*ids = sp->ids;
	return sp->nr;
}

int sendpack_has_cap(const struct sendpack *sp, const char *cap)
{
	return strvec_contains(&sp->caps, cap);
}

void sendpack_free(struct sendpack *sp)
{
	if (!sp)
		return;
	if (sp->t) {
		sp->t->close(sp->t);
		sp->t->free(sp->t);
	}
	git_error_clear();
	free(sp->url);
	free(sp->dir);
	strbuf_release(&sp->sniffed);
	strvec_clear(&sp->caps);
	strvec_clear(&sp->names);
	free(sp->ids);
	free(sp);
}

/* ---- pushing ---- */

void sendpack_report_release(struct sendpack_report *r)
{
	strbuf_release(&r->reason);
}

/* Reads the server's answer, pkt-line by pkt-line. */
struct pkt_reader {
	git_smart_subtransport_stream *s;
	struct strbuf buf;
	size_t pos;
	int eof;
	int *received;
};

/* Makes n bytes available at r->pos: 1, 0 at the end of the stream, <0 an error. */
static int want(struct pkt_reader *r, size_t n)
{
	char chunk[SEND_CHUNK];

	while (r->buf.len - r->pos < n) {
		size_t got = 0;
		int rc;

		if (r->eof)
			return 0;
		rc = r->s->read(r->s, chunk, sizeof(chunk), &got);
		if (rc < 0)
			return rc;
		if (!got)
			r->eof = 1;
		if (got)
			*r->received = 1;
		strbuf_add(&r->buf, chunk, got);
	}
	return 1;
}

/* The next pkt-line: 1 with *data, *len (a flush: *len 0), 0 at the end, <0 an error. */
static int pkt_read(struct pkt_reader *r, const char **data, size_t *len)
{
	int rc = want(r, 4), n;

	if (rc <= 0)
		return rc;
	n = pkt_len(r->buf.buf + r->pos);
	if (n < 0 || (n > 0 && n < 4))
		return net_error("the server sent a malformed answer");
	if ((rc = want(r, n ? n : 4)) <= 0)
		return rc ? rc : net_error("the server's answer ended in the middle of a line");
	*data = r->buf.buf + r->pos + 4;
	*len = n ? (size_t)n - 4 : 0;
	r->pos += n ? (size_t)n : 4;
	return 1;
}

/* One line of the report ("unpack ok", "ok <ref>", "ng <ref> <why>") into r. */
static void report_line(struct sendpack_report *r, const char *ref, const char *line, size_t len,
			int *unpack_ok, int *ref_seen)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v;

	strbuf_add(&sb, line, len);
	strbuf_rtrim(&sb);
	if (skip_prefix(sb.buf, "unpack ", &v)) {
		*unpack_ok = !strcmp(v, "ok");
		if (!*unpack_ok)
			strbuf_addf(&r->reason, "unpack failed: %s", v);
	} else if (skip_prefix(sb.buf, "ok ", &v) && !strcmp(v, ref)) {
		*ref_seen = 1;
	} else if (skip_prefix(sb.buf, "ng ", &v) && starts_with(v, ref) && v[strlen(ref)] == ' ') {
		*ref_seen = 1;
		if (!r->reason.len)
			strbuf_addstr(&r->reason, v + strlen(ref) + 1);
	}
	strbuf_release(&sb);
}

/*
 * The server's words (band 2), or, with len 0, a sign of life: any
 * packet, receive-pack's keepalives included, while it checks the pack.
 */
static void remote_message(struct sendpack *sp, const char *data, size_t len)
{
	if (sp->cb.sideband_progress)
		sp->cb.sideband_progress(data, (int)len, sp->cb.payload);
}

/* The report, from the server's pkt-lines (demultiplexed when sideband). */
static int read_report(struct sendpack *sp, git_smart_subtransport_stream *s, int sideband,
		       const char *ref, struct sendpack_report *r)
{
	struct pkt_reader rd = { s, STRBUF_INIT, 0, 0, &r->received };
	struct pkt_reader inner = { NULL, STRBUF_INIT, 0, 1, &r->received };
	int unpack_ok = 0, ref_seen = 0, rc, ret = -1, cut;
	const char *data;
	size_t len;

	while ((rc = pkt_read(&rd, &data, &len)) > 0 && len) {
		remote_message(sp, "", 0);
		if (!sideband) {
			report_line(r, ref, data, len, &unpack_ok, &ref_seen);
			continue;
		}
		if (data[0] == 1) {
			strbuf_add(&inner.buf, data + 1, len - 1);
		} else if (data[0] == 2) {
			remote_message(sp, data + 1, len - 1);
		} else if (data[0] == 3) {
			struct strbuf msg = STRBUF_INIT;

			strbuf_add(&msg, data + 1, len - 1);
			strbuf_rtrim(&msg);
			net_error("remote error: %s", msg.buf);
			strbuf_release(&msg);
			goto out;
		}
	}
	if (rc < 0)
		goto out;
	cut = !rc;	/* the stream ended before the flush that ends the answer */
	while (sideband && (rc = pkt_read(&inner, &data, &len)) > 0 && len)
		report_line(r, ref, data, len, &unpack_ok, &ref_seen);
	if (!r->received) {
		net_error("the server hung up without an answer");
		goto out;
	}
	/*
	 * Cut off before the server said what became of the ref: it may
	 * have taken the push or not, a connection's fault, not a refusal
	 * (a later run looks at the remote again).
	 */
	if (cut && !ref_seen && !r->reason.len) {
		net_error("the connection was cut before the server's report");
		goto out;
	}
	r->ok = unpack_ok && ref_seen && !r->reason.len;
	if (!r->ok && !r->reason.len)
		strbuf_addstr(&r->reason, "the server did not report the update");
	ret = 0;
out:
	strbuf_release(&rd.buf);
	strbuf_release(&inner.buf);
	return ret;
}

static void command_line(struct sendpack *sp, struct strbuf *out, const char *ref, const git_oid *old,
			 const git_oid *new)
{
	struct strbuf line = STRBUF_INIT;
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
	git_oid zero = { { 0 } };

	strbuf_addf(&line, "%s %s %s", git_oid_tostr(a, sizeof(a), old ? old : &zero),
		    git_oid_tostr(b, sizeof(b), new), ref);
	strbuf_addch(&line, '\0');
	for (size_t i = 0; wanted_caps[i]; i++)
		if (sendpack_has_cap(sp, wanted_caps[i]))
			strbuf_addf(&line, "%s ", wanted_caps[i]);
	strbuf_addstr(&line, AGENT "\n");
	pkt_add(out, line.buf, line.len);
	strbuf_addstr(out, "0000");
	strbuf_release(&line);
}

static int send_pack(struct sendpack *sp, git_smart_subtransport_stream *s, int fd, uint32_t nr)
{
	char *buf = xmalloc(SEND_CHUNK);
	struct stat st;
	uint64_t sent = 0, total;
	ssize_t n;
	int rc = 0;

	total = fstat(fd, &st) < 0 ? 0 : (uint64_t)st.st_size;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		free(buf);
		return net_error("cannot read the pack: %s", strerror(errno));
	}
	while ((n = read(fd, buf, SEND_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = net_error("cannot read the pack: %s", strerror(errno));
			break;
		}
		rc = s->write(s, buf, n);
		if (rc < 0)
			break;
		sent += n;
		if (sp->cb.push_transfer_progress)
			sp->cb.push_transfer_progress(total ? (unsigned)(nr * (double)sent / total) : nr, nr,
						      (size_t)sent, sp->cb.payload);
	}
	free(buf);
	return rc;
}

int sendpack_push(struct sendpack *sp, const char *ref, const git_oid *old, const git_oid *new,
		  int pack_fd, uint32_t nr_objects, struct sendpack_report *r)
{
	git_smart_subtransport_stream *s = NULL;
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	if (!sendpack_has_cap(sp, "report-status"))
		return net_error("the server does not offer report-status: cannot tell whether a push took");
	if (!sp->sub)
		return net_error("not connected");
	rc = sp->sub->parent.action(&s, &sp->sub->parent, sp->url, GIT_SERVICE_RECEIVEPACK);
	if (rc < 0)
		goto out;
	command_line(sp, &cmd, ref, old, new);
	rc = s->write(s, cmd.buf, cmd.len);
	if (!rc)
		rc = send_pack(sp, s, pack_fd, nr_objects);
	if (!rc)
		rc = read_report(sp, s, sendpack_has_cap(sp, "side-band-64k"), ref, r);
out:
	/* a stateless upload's stream is ours; a stateful connection's stays with the transport */
	if (s && (!sp->sub || (struct sp_stream *)s != sp->sub->stateful))
		s->free(s);
	strbuf_release(&cmd);
	return rc;
}
