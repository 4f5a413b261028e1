/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAILER_H
#define MAILER_H

/*
 * How notify's mails leave: the delivery settings, the password, and one
 * open transport.
 *
 * Settings follow git send-email's configuration, so a maintainer's
 * existing setup works as it is; git-maint's own [smtp] keys, when set,
 * win over them:
 *
 *   server      smtp.server       sendemail.smtpServer   a host, or the absolute
 *                                                        path of a sendmail-like
 *                                                        program (msmtp)
 *   port        smtp.port         sendemail.smtpServerPort   default 465 with ssl, else 25
 *   encryption  smtp.encryption   sendemail.smtpEncryption   starttls (send-email's
 *                                                        "tls", and the default when
 *                                                        unset), ssl, none
 *   user        smtp.user         sendemail.smtpUser     AUTH only when set
 *   CA          smtp.cainfo       sendemail.smtpSSLCertPath  file or directory
 *   EHLO name   smtp.domain       sendemail.smtpDomain
 *   timeout     smtp.timeout      (60 s)
 *   envelope    smtp.envelope-sender  sendemail.envelopeSender ("auto": From)
 *   program options               sendemail.smtpServerOption (each value one argument)
 *
 *   password    smtp.password     sendemail.smtpPass     (see below)
 *
 * Where we differ from send-email, on purpose: an unset encryption means
 * STARTTLS, not plain text; "none" is accepted for a loopback server only;
 * an empty smtpSSLCertPath (send-email: do not verify) is an error, as
 * verification cannot be turned off. Without any server setting, as
 * send-email, /usr/sbin/sendmail or /usr/lib/sendmail when one exists.
 *
 * The password, when a user is configured: common/net/credential.h, in
 * send-email's order: the configured one, else git's credential helpers
 * (`git credential fill`, protocol smtp, host "server[:port]" with the
 * port only when one is configured, the user: what send-email stored is
 * found), else the Secret Service, else git's prompt on a terminal. It
 * is found before anything is sent; none is an error with a hint. After
 * the first connection the source hears whether AUTH took it (approve)
 * or refused it with 535 (reject), as send-email tells git credential.
 * A program gets no password: it has its own configuration.
 *
 * A program is run directly (no shell) as
 *	<program> <smtpServerOption...> -i [-f <envelope sender>] <recipient>...
 * with the message on standard input, as send-email runs it; its exit
 * status tells what happened (sysexits.h): 0 sent; 75 (EX_TEMPFAIL) or a
 * signal: try later; 65, 67, 69 (EX_DATAERR, EX_NOUSER, EX_UNAVAILABLE):
 * refused; anything else: a setup problem. Its standard error (lines
 * joined by "; ") becomes the reply text.
 */

#include "config.h"
#include "smtp.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

struct mailer_conf {
	char *server;		/* host name, or a program's absolute path */
	unsigned port;		/* 0 when not configured */
	enum smtp_security security;
	char *user;
	char *cainfo;
	char *domain;
	long timeout;
	char *envelope_sender;	/* NULL: the From address */
	struct strvec program_args;
	char *password;		/* smtp.password or sendemail.smtpPass; NULL: ask (credential.h) */
	const struct maint_config *cfg;	/* where it was read: git's credential settings */
	int verbose;
};

#define MAILER_CONF_INIT { NULL, 0, SMTP_STARTTLS, NULL, NULL, NULL, 60, NULL, STRVEC_INIT, NULL, NULL, 0 }

/*
 * Reads the settings from cfg (its INI keys and its git config). -1,
 * reported, for a bad value. from_email (the From address) stands in for
 * envelopeSender "auto".
 */
int mailer_conf_load(struct mailer_conf *c, const struct maint_config *cfg, const char *from_email);
void mailer_conf_release(struct mailer_conf *c);

/*
 * The From of our mails (notify's, request-pull's), as written: notify.from,
 * else sendemail.from, else the committer's "Name <email>" (ident.h).
 * 0 with out set, and *configured 1 when one of the two settings gave
 * it; -1 reported (no committer identity).
 */
int mailer_from(struct strbuf *out, const struct maint_config *cfg, int *configured);

/* Is the server a program? */
int mailer_conf_is_program(const struct mailer_conf *c);

/* "smtp://host:port", "smtps://host:port" or the program's path, for messages and the journal. */
void mailer_describe(struct strbuf *out, const struct mailer_conf *c);

struct mailer;

/*
 * Gets ready to send: the password when a user is configured (none to
 * be found is reported, with a hint, and is RESULT_FATAL), the SMTP
 * handle. No connection is made yet. RESULT_OK or RESULT_FATAL.
 */
enum maint_result mailer_open(struct mailer **out, const struct mailer_conf *c);

/*
 * Sends one message (LF line ends) to the recipients; see smtp_send().
 * A program is given them all and takes or refuses the message whole
 * (its exit status is one verdict): a recipient it refuses refuses the
 * message, whoever it is, and every rcpt->st says the same.
 */
enum smtp_status mailer_send(struct mailer *m, const char *from, struct smtp_rcpts *rcpt,
			     const char *msg, size_t len, struct strbuf *reply);

/*
 * Mails over SMTP may be left in flight, their answer handed to fn
 * later (see smtp_set_settle()); a program's never are.
 */
void mailer_set_settle(struct mailer *m, smtp_settle_fn fn, void *arg);
/* Settles the mail in flight, if any: fn's result, else 0. NULL is fine. */
int mailer_settle(struct mailer *m);

/* Closes the connection (QUIT), wipes the password; NULL is fine. */
void mailer_close(struct mailer *m);

/*
 * --store-password: reads a password (git's prompt when standard input
 * is a terminal, else its first line) and stores it where git would for
 * the configured server and user: the credential helpers when any is
 * configured, else the Secret Service (credential.h).
 * --forget-password removes it. RESULT_OK, RESULT_NO (nothing to
 * forget), RESULT_FATAL.
 */
enum maint_result mailer_store_password(const struct mailer_conf *c);
enum maint_result mailer_forget_password(const struct mailer_conf *c);

#endif
