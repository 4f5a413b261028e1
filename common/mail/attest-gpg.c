/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * OpenPGP developer signatures through gpg, as git verifies signed
 * commits: gpg.program (default "gpg") with --status-fd, its status lines
 * read, never its messages. patatt's b= is an OpenPGP signed message
 * (gpg -s) holding the 32 bytes signed. A key from the keyrings is
 * imported into a temporary home of its own; without one, the user's
 * keyring is asked, as patatt does. gpg is run with --batch and
 * --no-auto-key-retrieve: it fetches nothing, so it waits for nothing
 * but itself.
 */
#include "attest-gpg.h"
#include "run-command.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Removes the files of the temporary home (gpg writes only files there), then it. */
static void remove_home(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strbuf p = STRBUF_INIT;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, e->d_name);
		if (unlink(p.buf) < 0)
			remove_home(p.buf);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	strbuf_release(&p);
}

static void push_all(struct strvec *argv, const char *const *args)
{
	while (*args)
		strvec_push(argv, *args++);
}

static void gpg_args(struct strvec *argv, const struct attest_conf *c, const char *home)
{
	static const char *const common[] = {
		"--batch", "--no-tty", "--no-auto-key-retrieve", "--no-auto-check-trustdb",
		"--logger-file", "/dev/null", "--status-fd=1", NULL
	};

	strvec_push(argv, c->gpg_program ? c->gpg_program : "gpg");
	push_all(argv, common);
	if (home) {
		const char *const keyring[] = { "--homedir", home, "--no-default-keyring", "--keyring", "pub", NULL };

		push_all(argv, keyring);
	}
}

/* Does gpg's status output hold a line "[GNUPG:] <what> ..."? */
static int has_status(const struct strbuf *out, const char *what)
{
	size_t n = strlen(what);

	for (const char *p = out->buf; p && p < out->buf + out->len; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (starts_with(p, "[GNUPG:] ") && !strncmp(p + 9, what, n) && (p[9 + n] == ' ' || p[9 + n] == '\n'))
			return 1;
	return 0;
}

int attest_gpg_verify(const struct attest_conf *c, const struct strbuf *key, const struct strbuf *sig,
		      const unsigned char digest[ATTEST_SHA256_RAWSZ], struct strbuf *why)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT, home = STRBUF_INIT, payload = STRBUF_INIT, path = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	int rc = -1, st;

	/* a home of our own holds the key, and the payload gpg writes in any case */
	strbuf_addf(&home, "%s/git-maint-gpg.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(home.buf)) {
		strbuf_addstr(why, "cannot make a temporary directory for gpg");
		strbuf_reset(&home);
		goto out;
	}
	strbuf_addf(&path, "%s/payload", home.buf);
	if (key) {
		gpg_args(&argv, c, home.buf);
		strvec_push(&argv, "--import");
		st = run_command(argv.v, key->buf, key->len, &out);
		strvec_clear(&argv);
		if (st || !has_status(&out, "IMPORT_OK")) {
			strbuf_addstr(why, "gpg cannot import the key");
			goto out;
		}
	}
	strbuf_reset(&out);
	gpg_args(&argv, c, key ? home.buf : NULL);
	strvec_push(&argv, "--output");
	strvec_push(&argv, path.buf);
	strvec_push(&argv, "--verify");
	st = run_command(argv.v, sig->buf, sig->len, &out);
	if (has_status(&out, "NO_PUBKEY")) {
		strbuf_addstr(why, "no key");
		rc = 1;
		goto out;
	}
	if (st || !has_status(&out, "GOODSIG") || !has_status(&out, "VALIDSIG")) {
		strbuf_addstr(why, "the signature does not verify");
		goto out;
	}
	if (strbuf_read_file(&payload, path.buf, 64) != ATTEST_SHA256_RAWSZ ||
	    memcmp(payload.buf, digest, ATTEST_SHA256_RAWSZ)) {
		strbuf_addstr(why, "the headers signed differ");
		goto out;
	}
	rc = 0;
out:
	if (home.len)
		remove_home(home.buf);
	strvec_clear(&argv);
	strbuf_release(&out);
	strbuf_release(&home);
	strbuf_release(&payload);
	strbuf_release(&path);
	return rc;
}
