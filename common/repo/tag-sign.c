/* SPDX-License-Identifier: GPL-2.0-only */
#include "tag-sign.h"
#include "msg.h"
#include "run-command.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tag_sign_conf_load(struct tag_sign_conf *c, const struct maint_config *cfg, const char *committer)
{
	char *format = config_git_string(cfg, "gpg.format");
	const char *def = "gpg";
	int ret = 0;

	if (!format || !strcmp(format, "openpgp")) {
		c->format = TAG_SIGN_OPENPGP;
		c->program = config_git_string(cfg, "gpg.openpgp.program");
		if (!c->program)
			c->program = config_git_string(cfg, "gpg.program");
	} else if (!strcmp(format, "x509")) {
		c->format = TAG_SIGN_X509;
		c->program = config_git_string(cfg, "gpg.x509.program");
		def = "gpgsm";
	} else if (!strcmp(format, "ssh")) {
		c->format = TAG_SIGN_SSH;
		c->program = config_git_string(cfg, "gpg.ssh.program");
		def = "ssh-keygen";
	} else {
		ret = error("unknown gpg.format '%s' (openpgp, x509 or ssh)", format);
	}
	if (!ret && !c->program)
		c->program = xstrdup(def);
	c->key = config_git_string(cfg, "user.signingkey");
	if (!ret && !c->key && c->format != TAG_SIGN_SSH && committer)
		c->key = xstrdup(committer);
	if (!ret && !c->key)
		ret = error("user.signingKey needs to be set to sign with ssh");
	free(format);
	return ret;
}

void tag_sign_conf_release(struct tag_sign_conf *c)
{
	free(c->program);
	free(c->key);
	c->program = c->key = NULL;
}

int tag_sign_buffer(struct strbuf *out, const git_oid *target, const char *name, const char *tagger,
		    const char *message, enum msg_cleanup mode, char comment)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addstr(&msg, message);
	msg_cleanup(&msg, mode, comment);
	if (!msg.len) {
		strbuf_release(&msg);
		return error("the tag message is empty");
	}
	strbuf_setlen(out, 0);
	strbuf_addf(out, "object %s\ntype commit\ntag %s\ntagger %s\n\n", git_oid_tostr_s(target), name,
		    tagger);
	strbuf_addbuf(out, &msg);
	strbuf_release(&msg);
	return 0;
}

const char *tag_sign_message(const char *buf, size_t len, size_t *msg_len)
{
	const char *end = buf + len, *p = buf;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);

		p = nl ? nl + 1 : end;
	}
	if (p < end)
		p++;	/* the blank line */
	*msg_len = end - p;
	return p;
}

/* Drops each CR before a LF in buf from offset from on. */
static void drop_cr(struct strbuf *buf, size_t from)
{
	size_t j = from;

	for (size_t i = from; i < buf->len; i++) {
		if (buf->buf[i] == '\r' && i + 1 < buf->len && buf->buf[i + 1] == '\n')
			continue;
		buf->buf[j++] = buf->buf[i];
	}
	strbuf_setlen(buf, j);
}

/* The signer's standard error, one line, for a message. */
static const char *said(struct strbuf *err)
{
	strbuf_trim(err);
	for (size_t i = 0; i < err->len; i++)
		if (err->buf[i] == '\n')
			err->buf[i] = ' ';
	return err->len ? err->buf : "no message";
}

static int sign_gpg(struct strbuf *buf, const struct tag_sign_conf *c)
{
	const char *argv[] = { c->program, "--status-fd=2", "-bsau", c->key, NULL };
	struct strbuf sig = STRBUF_INIT, status = STRBUF_INIT;
	struct run_opts ro = { argv, NULL, buf->buf, buf->len, &sig, &status };
	int st = run_command_opts(&ro), ret = 0;

	if (st || !strstr(status.buf, "\n[GNUPG:] SIG_CREATED ") || !sig.len)
		ret = error("%s failed to sign the tag (key '%s'): %s", c->program, c->key, said(&status));
	else
		strbuf_addbuf(buf, &sig);
	strbuf_release(&sig);
	strbuf_release(&status);
	return ret;
}

static int write_temp(struct strbuf *path, const char *what, const char *data, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	strbuf_addf(path, "%s/git-maint-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
	fd = mkstemp(path->buf);
	if (fd < 0)
		return error_errno("cannot create a temporary file for the %s", what);
	if (write_or_error(fd, data, len) < 0 || close(fd) < 0) {
		unlink(path->buf);
		return error_errno("cannot write '%s'", path->buf);
	}
	return 0;
}

/* "key::ssh-ed25519 AAAA..." or "ssh-ed25519 AAAA...": the key itself, not a file. */
static const char *literal_ssh_key(const char *key)
{
	const char *rest;

	if (skip_prefix(key, "key::", &rest))
		return rest;
	return starts_with(key, "ssh-") ? key : NULL;
}

static int sign_ssh(struct strbuf *buf, const struct tag_sign_conf *c)
{
	struct strbuf data = STRBUF_INIT, keyfile = STRBUF_INIT, sigfile = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, sig = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	const char *literal = literal_ssh_key(c->key);
	int ret = -1, st;

	if (literal) {
		if (write_temp(&keyfile, "ssh-key", literal, strlen(literal)) < 0)
			goto out;
	} else if (starts_with(c->key, "~/") && getenv("HOME")) {
		strbuf_addf(&keyfile, "%s/%s", getenv("HOME"), c->key + 2);
	} else {
		strbuf_addstr(&keyfile, c->key);
	}
	if (write_temp(&data, "tag", buf->buf, buf->len) < 0)
		goto out;
	strbuf_addf(&sigfile, "%s.sig", data.buf);
	strvec_push(&argv, c->program);
	strvec_push(&argv, "-Y");
	strvec_push(&argv, "sign");
	strvec_push(&argv, "-n");
	strvec_push(&argv, "git");
	strvec_push(&argv, "-f");
	strvec_push(&argv, keyfile.buf);
	if (literal)
		strvec_push(&argv, "-U");
	strvec_push(&argv, data.buf);
	{
		struct run_opts ro = { (const char *const *)argv.v, NULL, NULL, 0, &err, &err };

		st = run_command_opts(&ro);
	}
	if (st) {
		error("%s failed to sign the tag (key '%s'): %s", c->program, c->key, said(&err));
		goto out;
	}
	if (strbuf_read_file(&sig, sigfile.buf, 0) < 0 || !sig.len) {
		error_errno("%s wrote no signature to '%s'", c->program, sigfile.buf);
		goto out;
	}
	strbuf_addbuf(buf, &sig);
	ret = 0;
out:
	if (data.len) {
		unlink(data.buf);
		unlink(sigfile.buf);
	}
	if (literal && keyfile.len)
		unlink(keyfile.buf);
	strvec_clear(&argv);
	strbuf_release(&data);
	strbuf_release(&keyfile);
	strbuf_release(&sigfile);
	strbuf_release(&err);
	strbuf_release(&sig);
	return ret;
}

int tag_sign(struct strbuf *buf, const struct tag_sign_conf *c)
{
	size_t before = buf->len;
	int ret = c->format == TAG_SIGN_SSH ? sign_ssh(buf, c) : sign_gpg(buf, c);

	if (!ret)
		drop_cr(buf, before);
	return ret;
}
