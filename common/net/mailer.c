/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Delivery settings, the password, and the transport (see mailer.h).
 */
#include "mailer.h"
#include "credential.h"
#include "ident.h"
#include "secmem.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

extern char **environ;

#define PROGRAM_STDERR_MAX 65536

struct mailer {
	const struct mailer_conf *conf;
	struct smtp *smtp;	/* NULL for a program */
	struct credential cred;	/* with a user: the password, and where it came from */
};

/* [smtp] key, else the git config key, else NULL. Caller frees. */
static char *setting(const struct maint_config *cfg, const char *ini_key, const char *git_key)
{
	const char *v = config_get(cfg, "smtp", NULL, ini_key);

	if (v)
		return xstrdup(v);
	return git_key ? config_git_string(cfg, git_key) : NULL;
}

static int parse_port(const char *v, const char *what, unsigned *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 1 || n > 65535)
		return error("bad %s '%s': expected a port number", what, v);
	*out = (unsigned)n;
	return 0;
}

static int load_security(struct mailer_conf *c, const struct maint_config *cfg)
{
	const char *ini = config_get(cfg, "smtp", NULL, "encryption");
	char *git = ini ? NULL : config_git_string(cfg, "sendemail.smtpEncryption");
	const char *v = ini ? ini : git;
	int ret = 0;

	if (!v || !strcmp(v, "starttls") || (!ini && !strcasecmp(v, "tls")))
		c->security = SMTP_STARTTLS;
	else if (!strcasecmp(v, "ssl"))
		c->security = SMTP_SSL;
	else if (!strcasecmp(v, "none"))
		c->security = SMTP_PLAIN;
	else
		ret = error("bad sendemail.smtpEncryption '%s': expected tls, ssl or none", v);
	free(git);
	return ret;
}

static char *default_program(void)
{
	static const char *const paths[] = { "/usr/sbin/sendmail", "/usr/lib/sendmail" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (!access(paths[i], X_OK))
			return xstrdup(paths[i]);
	return NULL;
}

static int load_server(struct mailer_conf *c, const struct maint_config *cfg)
{
	char *port;
	int ret = 0;

	c->server = setting(cfg, "server", "sendemail.smtpServer");
	if (c->server && !*c->server) {
		free(c->server);
		c->server = NULL;
	}
	if (!c->server && !(c->server = default_program()))
		return error("no mail server configured: set sendemail.smtpServer or smtp.server");
	port = setting(cfg, "port", "sendemail.smtpServerPort");
	if (port && parse_port(port, "SMTP port", &c->port) < 0)
		ret = -1;
	free(port);
	return ret;
}

int mailer_conf_load(struct mailer_conf *c, const struct maint_config *cfg, const char *from_email)
{
	char *v;

	if (load_server(c, cfg) < 0 || load_security(c, cfg) < 0)
		return -1;
	c->user = setting(cfg, "user", "sendemail.smtpUser");
	if (c->user && !*c->user) {
		free(c->user);
		c->user = NULL;
	}
	c->cainfo = setting(cfg, "cainfo", "sendemail.smtpSSLCertPath");
	if (c->cainfo && !*c->cainfo)
		return error("sendemail.smtpSSLCertPath is empty: git send-email would not verify the "
			     "server's certificate; git-maint always does (unset it for the system's CAs)");
	c->domain = setting(cfg, "domain", "sendemail.smtpDomain");
	if ((v = setting(cfg, "timeout", NULL))) {
		c->timeout = atol(v);	/* checked as a number when read */
		free(v);
	}
	c->envelope_sender = setting(cfg, "envelope-sender", "sendemail.envelopeSender");
	if (c->envelope_sender && (!*c->envelope_sender || !strcmp(c->envelope_sender, "auto"))) {
		free(c->envelope_sender);
		c->envelope_sender = xstrdup_or_null(from_email);
	}
	config_git_strings(cfg, "sendemail.smtpServerOption", &c->program_args);
	c->password = setting(cfg, "password", "sendemail.smtpPass");
	c->cfg = cfg;
	return 0;
}

void mailer_conf_release(struct mailer_conf *c)
{
	free(c->server);
	free(c->user);
	free(c->cainfo);
	free(c->domain);
	free(c->envelope_sender);
	if (c->password)
		secmem_wipe(c->password, strlen(c->password));
	free(c->password);
	strvec_clear(&c->program_args);
	memset(c, 0, sizeof(*c));
}

int mailer_conf_is_program(const struct mailer_conf *c)
{
	return c->server && c->server[0] == '/';
}

static unsigned effective_port(const struct mailer_conf *c)
{
	return c->port ? c->port : c->security == SMTP_SSL ? 465 : 25;
}

void mailer_describe(struct strbuf *out, const struct mailer_conf *c)
{
	if (mailer_conf_is_program(c))
		strbuf_addstr(out, c->server);
	else
		strbuf_addf(out, "%s://%s:%u", c->security == SMTP_SSL ? "smtps" : "smtp", c->server,
			    effective_port(c));
}

/*
 * The password's key, as git send-email asks git credential for it:
 * protocol smtp, host "server[:port]" with the port only when one is
 * configured, the user.
 */
static void credential_for(struct credential *cred, const struct mailer_conf *c)
{
	credential_init(cred, c->cfg, "smtp", c->server, c->port, NULL, c->user);
	cred->config_password = c->password;
	cred->config_key = "sendemail.smtpPass";
	cred->store_command = "git maint-notify --store-password";
}

/* ---- opening ---- */

enum maint_result mailer_open(struct mailer **out, const struct mailer_conf *c)
{
	struct mailer *m = xcalloc(1, sizeof(*m));
	struct smtp_opts o = { 0 };

	*out = NULL;
	m->conf = c;
	strbuf_init(&m->cred.secret_why, 0);
	if (!mailer_conf_is_program(c)) {
		if (c->user) {
			credential_for(&m->cred, c);
			if (credential_fill(&m->cred) != RESULT_OK)
				goto fail;
		}
		o.host = c->server;
		o.port = effective_port(c);
		o.security = c->security;
		o.user = c->user;
		o.password = m->cred.password;
		o.cainfo = c->cainfo;
		o.domain = c->domain;
		o.timeout = c->timeout;
		o.verbose = c->verbose;
		m->smtp = smtp_new(&o);
		if (!m->smtp)
			goto fail;
	}
	*out = m;
	return RESULT_OK;
fail:
	credential_release(&m->cred);
	free(m);
	return RESULT_FATAL;
}

void mailer_set_settle(struct mailer *m, smtp_settle_fn fn, void *arg)
{
	if (m->smtp)
		smtp_set_settle(m->smtp, fn, arg);
}

int mailer_settle(struct mailer *m)
{
	return m ? smtp_settle(m->smtp) : 0;
}

void mailer_close(struct mailer *m)
{
	if (!m)
		return;
	smtp_free(m->smtp);
	credential_release(&m->cred);
	free(m);
}

/* ---- a sendmail-like program ---- */

static enum smtp_status program_status(int status, struct strbuf *reply)
{
	int code;

	if (WIFSIGNALED(status)) {
		if (!reply->len)
			strbuf_addf(reply, "killed by signal %d", WTERMSIG(status));
		return SMTP_BROKEN;
	}
	code = WEXITSTATUS(status);
	if (!code)
		return SMTP_SENT;
	if (!reply->len)
		strbuf_addf(reply, "exit status %d", code);
	switch (code) {
	case EX_TEMPFAIL:
		return SMTP_BROKEN;
	case EX_DATAERR:
	case EX_NOUSER:
	case EX_UNAVAILABLE:
		return SMTP_REFUSED;
	default:
		return SMTP_FATAL;
	}
}

/* Feeds msg to fd in while collecting err into reply; closes both. */
static void pump(int in, int err, const char *msg, size_t len, struct strbuf *reply)
{
	size_t off = 0;
	char buf[4096];

	if (fcntl(in, F_SETFL, O_NONBLOCK) < 0) {
		close(in);
		in = -1;
	}
	while (in >= 0 || err >= 0) {
		struct pollfd p[2] = { { in, POLLOUT, 0 }, { err, POLLIN, 0 } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (in >= 0 && p[0].revents) {
			ssize_t n = off < len ? write(in, msg + off, len - off) : 0;

			if (n > 0)
				off += n;
			if (off == len || (n < 0 && errno != EAGAIN && errno != EINTR)) {
				close(in);	/* EPIPE: the program stopped reading; its status says why */
				in = -1;
			}
		}
		if (err >= 0 && p[1].revents) {
			ssize_t n = read(err, buf, sizeof(buf));

			if (n > 0 && reply->len < PROGRAM_STDERR_MAX)
				strbuf_add(reply, buf, n);
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
				close(err);
				err = -1;
			}
		}
	}
	if (in >= 0)
		close(in);
	if (err >= 0)
		close(err);
}

/* The program's standard error as one line (its lines joined by "; "), as the reply. */
static void one_line(struct strbuf *reply)
{
	struct strbuf out = STRBUF_INIT;

	for (const char *p = reply->buf; *p;) {
		const char *nl = strchrnul(p, '\n');
		size_t len = nl - p;

		while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
			len--;
		if (len) {
			if (out.len)
				strbuf_addstr(&out, "; ");
			strbuf_add(&out, p, len);
		}
		p = *nl ? nl + 1 : nl;
	}
	if (out.len > 1000)
		strbuf_setlen(&out, 1000);
	strbuf_reset(reply);
	strbuf_addbuf(reply, &out);
	strbuf_release(&out);
}

static enum smtp_status run_program(const struct mailer_conf *c, const char *from,
				    const struct strvec *rcpt, const char *msg, size_t len,
				    struct strbuf *reply)
{
	struct strvec argv = STRVEC_INIT;
	posix_spawn_file_actions_t fa;
	int in[2] = { -1, -1 }, err[2] = { -1, -1 }, status, rc;
	void (*old_pipe)(int);
	pid_t pid;

	strvec_push(&argv, c->server);
	for (size_t i = 0; i < c->program_args.nr; i++)
		strvec_push(&argv, c->program_args.v[i]);
	strvec_push(&argv, "-i");
	if (from) {
		strvec_push(&argv, "-f");
		strvec_push(&argv, from);
	}
	for (size_t i = 0; i < rcpt->nr; i++)
		strvec_push(&argv, rcpt->v[i]);
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		strbuf_addf(reply, "cannot make a pipe: %s", strerror(errno));
		rc = -1;
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, err[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	rc = posix_spawn(&pid, c->server, &fa, NULL, (char *const *)argv.v, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(err[1]);
	if (rc) {
		close(in[1]);
		close(err[0]);
		strbuf_addf(reply, "cannot run '%s': %s", c->server, strerror(rc));
		goto out;
	}
	old_pipe = signal(SIGPIPE, SIG_IGN);
	pump(in[1], err[0], msg, len, reply);
	signal(SIGPIPE, old_pipe);
	while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (rc < 0) {
		strbuf_addf(reply, "cannot wait for '%s': %s", c->server, strerror(errno));
		goto out;
	}
	one_line(reply);
	strvec_clear(&argv);
	return program_status(status, reply);
out:
	strvec_clear(&argv);
	return SMTP_FATAL;
}

enum smtp_status mailer_send(struct mailer *m, const char *from, struct smtp_rcpts *rcpt,
			     const char *msg, size_t len, struct strbuf *reply)
{
	enum smtp_status st;

	strbuf_reset(reply);
	if (!m->smtp) {
		/* the program takes or refuses the message whole: one verdict for every recipient */
		st = run_program(m->conf, from, rcpt->addr, msg, len, reply);
		for (size_t i = 0; i < rcpt->addr->nr; i++)
			rcpt->st[i] = st == SMTP_SENT ? SMTP_RCPT_ACCEPTED : SMTP_RCPT_UNTRIED;
		return st;
	}
	st = smtp_send(m->smtp, from, rcpt, msg, len, reply);
	/* the password's source hears how AUTH went, once, as git send-email tells git credential */
	switch (smtp_auth_result(m->smtp)) {
	case SMTP_AUTH_ACCEPTED:
		credential_approve(&m->cred);
		break;
	case SMTP_AUTH_REFUSED:
		credential_reject(&m->cred, reply);
		break;
	default:
		break;
	}
	return st;
}

/* ---- the password ---- */

static int check_password_setting(const struct mailer_conf *c)
{
	if (mailer_conf_is_program(c))
		return error("the mail server is a program ('%s'): it keeps its own password", c->server);
	if (!c->user)
		return error("no SMTP user configured: set sendemail.smtpUser or smtp.user");
	return 0;
}

enum maint_result mailer_store_password(const struct mailer_conf *c)
{
	struct credential cred = CREDENTIAL_INIT;
	enum maint_result ret;

	if (check_password_setting(c) < 0)
		return RESULT_FATAL;
	credential_for(&cred, c);
	ret = credential_store(&cred);
	credential_release(&cred);
	return ret;
}

enum maint_result mailer_forget_password(const struct mailer_conf *c)
{
	struct credential cred = CREDENTIAL_INIT;
	enum maint_result ret;

	if (check_password_setting(c) < 0)
		return RESULT_FATAL;
	credential_for(&cred, c);
	ret = credential_forget(&cred);
	credential_release(&cred);
	return ret;
}

int mailer_from(struct strbuf *out, const struct maint_config *cfg, int *configured)
{
	const char *v = config_get(cfg, "notify", NULL, "from");
	char *git_from = v ? NULL : config_git_string(cfg, "sendemail.from");

	*configured = v || git_from;
	if (*configured)
		strbuf_addstr(out, v ? v : git_from);
	free(git_from);
	return *configured ? 0 : ident_committer_name_email(out, cfg);
}
