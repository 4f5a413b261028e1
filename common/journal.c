/*
 * The notify journal in refs/notes/maint-notify (see journal.h).
 */
#include "journal.h"
#include "notes.h"
#include "repo.h"
#include "wrapper.h"

#include <string.h>
#include <strings.h>

void journal_entry_release(struct journal_entry *e)
{
	e->status = JOURNAL_NONE;
	strbuf_release(&e->kind);
	strbuf_release(&e->message_id);
	strbuf_release(&e->subject);
	strbuf_release(&e->references);
	strbuf_release(&e->date);
	strbuf_release(&e->server);
	strbuf_release(&e->reply);
	strvec_clear(&e->to);
	strvec_clear(&e->cc);
}

int journal_open(struct journal *j, git_repository *repo, const char *committer)
{
	git_oid tip;
	int rc;

	j->repo = repo;
	j->tip = NULL;
	if (lg2_check(git_signature_from_buffer(&j->sig, committer), "bad committer '%s'", committer) < 0)
		return -1;
	rc = git_reference_name_to_id(&tip, repo, JOURNAL_REF);
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (lg2_check(rc, "cannot read '%s'", JOURNAL_REF) < 0 ||
	    lg2_check(git_commit_lookup(&j->tip, repo, &tip), "cannot read '%s'", JOURNAL_REF) < 0)
		return -1;
	return 0;
}

void journal_release(struct journal *j)
{
	git_commit_free(j->tip);
	git_signature_free(j->sig);
	j->tip = NULL;
	j->sig = NULL;
}

static void parse_line(struct journal_entry *e, const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	const char *v;
	size_t klen, vlen;

	if (!colon)
		return;
	klen = colon - line;
	v = colon + 1;
	while (v < line + len && *v == ' ')
		v++;
	vlen = line + len - v;
#define KEY(k) (klen == strlen(k) && !strncasecmp(line, k, klen))
	if (KEY("Status"))
		e->status = vlen == 4 && !memcmp(v, "sent", 4) ? JOURNAL_SENT : JOURNAL_FAILED;
	else if (KEY("Kind"))
		strbuf_add(&e->kind, v, vlen);
	else if (KEY("Message-ID"))
		strbuf_add(&e->message_id, v, vlen);
	else if (KEY("Subject"))
		strbuf_add(&e->subject, v, vlen);
	else if (KEY("References"))
		strbuf_add(&e->references, v, vlen);
	else if (KEY("Date"))
		strbuf_add(&e->date, v, vlen);
	else if (KEY("Server"))
		strbuf_add(&e->server, v, vlen);
	else if (KEY("Reply"))
		strbuf_add(&e->reply, v, vlen);
	else if (KEY("To"))
		strvec_push_mem(&e->to, v, vlen);
	else if (KEY("Cc"))
		strvec_push_mem(&e->cc, v, vlen);
#undef KEY
}

int journal_read(struct journal *j, const git_oid *commit, struct journal_entry *e)
{
	git_note *note = NULL;
	const char *msg;
	int rc;

	journal_entry_release(e);
	if (!j->tip)
		return 1;
	rc = git_note_commit_read(&note, j->repo, j->tip, commit);
	if (rc == GIT_ENOTFOUND)
		return 1;
	if (lg2_check(rc, "cannot read the journal '%s'", JOURNAL_REF) < 0)
		return -1;
	msg = git_note_message(note);
	while (*msg) {
		const char *nl = strchrnul(msg, '\n');

		parse_line(e, msg, nl - msg);
		msg = *nl ? nl + 1 : nl;
	}
	git_note_free(note);
	/* a note that says nothing we know (edited by hand) still means "handled" */
	if (e->status == JOURNAL_NONE)
		e->status = JOURNAL_FAILED;
	return 0;
}

static void format_entry(struct strbuf *out, const struct journal_entry *e)
{
	notes_add_field(out, "Status", e->status == JOURNAL_SENT ? "sent" : "failed",
			e->status == JOURNAL_SENT ? 4 : 6);
	notes_add_field(out, "Kind", e->kind.buf, e->kind.len);
	notes_add_field(out, "Message-ID", e->message_id.buf, e->message_id.len);
	notes_add_field(out, "Subject", e->subject.buf, e->subject.len);
	for (size_t i = 0; i < e->to.nr; i++)
		notes_add_field(out, "To", e->to.v[i], strlen(e->to.v[i]));
	for (size_t i = 0; i < e->cc.nr; i++)
		notes_add_field(out, "Cc", e->cc.v[i], strlen(e->cc.v[i]));
	notes_add_field(out, "References", e->references.buf, e->references.len);
	notes_add_field(out, "Date", e->date.buf, e->date.len);
	notes_add_field(out, "Server", e->server.buf, e->server.len);
	notes_add_field(out, "Reply", e->reply.buf, e->reply.len);
}

int journal_write(struct journal *j, const git_oid *commit, const struct journal_entry *e)
{
	struct strbuf note = STRBUF_INIT, reflog = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid new_tip, blob;
	git_reference *ref = NULL;
	git_commit *c = NULL;
	int rc, ret = -1;

	format_entry(&note, e);
	git_oid_tostr(hex, sizeof(hex), commit);
	if (lg2_check(git_note_commit_create(&new_tip, &blob, j->repo, j->tip, j->sig, j->sig,
					     commit, note.buf, 1),
		      "cannot write the journal note for %s", hex) < 0)
		goto out;
	strbuf_addf(&reflog, "maint-notify: %s %.12s", e->status == JOURNAL_SENT ? "sent" : "failed", hex);
	if (j->tip)
		rc = git_reference_create_matching(&ref, j->repo, JOURNAL_REF, &new_tip, 1,
						   git_commit_id(j->tip), reflog.buf);
	else
		rc = git_reference_create(&ref, j->repo, JOURNAL_REF, &new_tip, 0, reflog.buf);
	if (lg2_check(rc, "cannot update '%s'", JOURNAL_REF) < 0 ||
	    lg2_check(git_commit_lookup(&c, j->repo, &new_tip), "cannot read '%s'", JOURNAL_REF) < 0)
		goto out;
	git_commit_free(j->tip);
	j->tip = c;
	ret = 0;
out:
	git_reference_free(ref);
	strbuf_release(&note);
	strbuf_release(&reflog);
	return ret;
}
