/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_H
#define ATTEST_H

/*
 * Attestation: who signed a message, checked once per message in the
 * mail core for every command that reads mail. Two kinds of signature,
 * the ones b4 checks:
 *
 *   - DKIM (RFC 6376), the sending domain's, verified by libopendkim
 *     (attest-dkim.c): relaxed or simple canonicalisation, l= tags. The
 *     key comes from DNS (TXT <selector>._domainkey.<domain>, through
 *     the system resolver with a timeout), or, offline and in tests, from
 *     the file attest.dkim-keys names: lines "<selector>._domainkey.<domain>
 *     <TXT record>", as libopendkim's file query method reads them.
 *   - patatt (X-Developer-Signature, version 1), the developer's
 *     (attest-patatt.c): ed25519 verified with OpenSSL, OpenPGP through
 *     gpg (gpg.program) as git verifies signed commits. The body signed
 *     is what git mailinfo extracts (common/mail/mailinfo.h gives the same
 *     bytes), the From and Subject signed are mailinfo's author and
 *     subject, as patatt signs them. Keys are found where patatt and b4
 *     find them: the sources of patatt.keyringsrc (git config), then
 *     ref:::.keys, ref:::.local-keys, ref::refs/meta/keyring:,
 *     $XDG_DATA_HOME/patatt/public and $XDG_DATA_HOME/b4/keyring; under a
 *     source, <algo>/<domain>/<local>/<selector> (lower-cased,
 *     URL-quoted), selector "default" when s= is absent.
 *
 * A "ref:<repo>:<ref>:<dir>" source names a directory of a git ref (empty
 * repo: the current repository; empty ref: HEAD). The mail layer has no
 * libgit2: a program with a repository hands a reader in
 * (attest_conf.read_ref, common/repo/repo.h's repo_read_ref_file()), which
 * reads the file from the ref's tree; a program without one (mbox-split)
 * reads <dir> in the work tree, the fallback patatt itself takes for keys
 * not yet committed.
 *
 * Verdicts, as git log's %G? spells them:
 *   G  good: the signature verifies with its key, covers the whole body
 *      and the From and Subject headers, and speaks for the sender (the
 *      DKIM domain, i= or d=, is the From address's domain; the patatt
 *      identity is the From address);
 *   B  bad: it does not verify, or verifies but does not cover what is
 *      applied (an l= short of the body, From or Subject not signed), or
 *      speaks for someone else; a message with two From or Subject headers
 *      (which one did the signer mean?); a malformed signature or key;
 *   U  a signature whose key is unknown (no such key in the keyrings, no
 *      DKIM record), or could not be fetched now (DNS down or timing out:
 *      tempfail), or of an algorithm not checked (openssh);
 *   N  no signature.
 * The message's verdict: B if a developer signature is bad; else G if one
 * is good (it covers the patch end to end, whatever the lists did to the
 * DKIM signatures); else the DKIM verdict: G if one DKIM signature is
 * good, B if one is bad; else U if there are signatures, N if there are
 * none. Its signer is the deciding signature's.
 *
 * Where this and the tools it mirrors differ (t0120 compares them):
 * `patatt validate` and dkimpy check the signature only, so a signature
 * by someone else's domain or address, or a message with two From
 * headers, is good to them and B here; dkimpy takes an l= short of the
 * body as good (b4 too, for patatt, by trimming the body), B here.
 *
 * Cost: a DKIM key is fetched once per run per selector and domain
 * (negative answers too); once DNS has failed, later lookups fail at once
 * (tempfail) instead of waiting again. Verdicts are kept per Message-ID
 * (and the message's SHA-1, so an altered copy is checked anew) for the
 * run: a message read twice (a classification pass and an apply pass, a
 * patch and its follow-ups' trailers) is checked once.
 */

#include <stddef.h>

#include "attest-sig.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

struct maint_config;
struct raw_mail;

/* The verdicts, the signatures and the configuration: attest-sig.h. */

/* ATTEST_CONF_INIT for a conf in memory that was not initialised so. */
void attest_conf_init(struct attest_conf *c);

/* "off", "check", "softfail", "hardfail": 0, or -1 when s is none of them. */
int attest_policy_parse(const char *s, enum attest_policy *out);
const char *attest_policy_name(enum attest_policy p);

/*
 * Fills c from the configuration: attest.policy, attest.dkim-keys,
 * attest.timeout (git-maint's INI files), patatt.keyringsrc and
 * gpg.program (git config, when cfg holds it: not in a program that read
 * only the INI files) and the default key sources. -1 (reported, naming
 * file:line) on a bad value. policy_arg (--attest, may be NULL) wins.
 */
int attest_conf_load(struct attest_conf *c, const struct maint_config *cfg, const char *policy_arg);
void attest_conf_release(struct attest_conf *c);

/* The parse-options callback of --attest=<policy>: stores the policy name. */
struct option;
int attest_opt_policy(const struct option *opt, const char *arg, int unset);
#define OPT_ATTEST(p) \
	{ OPTION_CALLBACK, 0, "attest", (p), "policy", \
	  "check signatures: off, check (default: attest.policy), softfail or hardfail", \
	  PARSE_OPT_NONEG, attest_opt_policy }

struct attest;

/*
 * A verifier for one run; conf must outlive it. The libraries that check
 * signatures are loaded when the first signature needs them.
 */
struct attest *attest_new(const struct attest_conf *conf);
void attest_free(struct attest *a);

/*
 * Checks the signatures of the message raw->buf[0..len) into v (emptied
 * first). Returns 0; v says what the signatures are worth, never this
 * function: a malformed message or signature is a verdict, not an error.
 * -1 (reported) only when a library that checks them cannot be loaded
 * (the installation's fault: RESULT_FATAL).
 * The verdict of a message seen before (same Message-ID, same bytes) is
 * copied, not computed again.
 */
int attest_check(struct attest *a, const struct raw_mail *raw, struct attest_verdict *v);

/*
 * Appends "G ed25519/dev@example.org", "B DKIM/example.org: body hash
 * mismatch", "U ed25519/dev@example.org: no key", or "N" for v; text from
 * the mail is made safe for one line (quote.h).
 */
void attest_format(struct strbuf *out, const struct attest_verdict *v);

/*
 * The mark a patch's line gets (" [G ed25519/dev@example.org]"),
 * appended to out: under check for a signed message only, under
 * softfail and hardfail for every message (" [N]"), under off never.
 */
void attest_mark(struct strbuf *out, enum attest_policy p, const struct attest_verdict *v);

/*
 * What the policy makes of the verdict v of the message what names
 * ("message 3 ([PATCH 1/2] subject)"): RESULT_OK; under softfail, a
 * warning for anything but G, RESULT_OK; under hardfail, an error for
 * anything but G and RESULT_NO, or RESULT_TEMPFAIL when only DNS could
 * not answer (exit 75: try later).
 */
enum maint_result attest_apply_policy(enum attest_policy p, const struct attest_verdict *v,
				      const char *what);

#endif
