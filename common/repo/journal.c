/*
 * The notify journal in refs/notes/maint-notify (see journal.h).
 */
#include "journal.h"
#include "notes.h"
#include "repo.h"
#include "wrapper.h"

#include <ctype.h>
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

/*
 * The number of "xx/" directory levels the journal's notes use: the one
 * the tree has (git notes deepens it as notes pile up), else one. A flat
 * tree grows O(notes) per write; with fan-out each write rewrites a
 * 256-entry tree and one small subtree.
 */
static int fanout_of(git_repository *repo, git_tree *tree)
{
	git_tree *t = tree;
	int depth = 0;

	while (t && depth < 19) {
		const git_tree_entry *sub = NULL;
		git_tree *next = NULL;

		for (size_t i = 0; i < git_tree_entrycount(t) && !sub; i++) {
			const git_tree_entry *e = git_tree_entry_byindex(t, i);
			const char *name = git_tree_entry_name(e);

			if (git_tree_entry_type(e) == GIT_OBJECT_TREE && strlen(name) == 2 &&
			    isxdigit((unsigned char)name[0]) && isxdigit((unsigned char)name[1]))
				sub = e;
		}
		if (!sub || git_tree_lookup(&next, repo, git_tree_entry_id(sub)) < 0)
			break;
		if (t != tree)
			git_tree_free(t);
		t = next;
		depth++;
	}
	if (t != tree)
		git_tree_free(t);
	return depth ? depth : 1;
}

/* The new notes tree: the old one with commit's note (blob) at its fan-out path. */
static int write_tree(struct journal *j, git_oid *out, const git_oid *commit, const git_oid *blob)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf path = STRBUF_INIT;
	git_tree *base = NULL;
	git_tree_update u = { 0 };
	int fanout, ret = -1;

	git_oid_tostr(hex, sizeof(hex), commit);
	if (j->tip) {
		if (lg2_check(git_commit_tree(&base, j->tip), "cannot read '%s'", JOURNAL_REF) < 0)
			return -1;
	} else {
		git_treebuilder *tb = NULL;
		git_oid empty;

		if (lg2_check(git_treebuilder_new(&tb, j->repo, NULL), "cannot build a tree") < 0)
			return -1;
		ret = git_treebuilder_write(&empty, tb);
		git_treebuilder_free(tb);
		if (lg2_check(ret, "cannot write a tree") < 0 ||
		    lg2_check(git_tree_lookup(&base, j->repo, &empty), "cannot read a tree") < 0)
			return -1;
		ret = -1;
	}
	fanout = fanout_of(j->repo, base);
	for (int i = 0; i < fanout; i++)
		strbuf_addf(&path, "%.2s/", hex + 2 * i);
	strbuf_addstr(&path, hex + 2 * fanout);
	u.action = GIT_TREE_UPDATE_UPSERT;
	u.filemode = GIT_FILEMODE_BLOB;
	u.path = path.buf;
	git_oid_cpy(&u.id, blob);
	if (lg2_check(git_tree_create_updated(out, j->repo, base, 1, &u),
		      "cannot write the journal tree") == 0)
		ret = 0;
	git_tree_free(base);
	strbuf_release(&path);
	return ret;
}

int journal_write(struct journal *j, const git_oid *commit, const struct journal_entry *e)
{
	struct strbuf note = STRBUF_INIT, reflog = STRBUF_INIT, msg = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid new_tip, blob, tree_id;
	git_reference *ref = NULL;
	git_tree *tree = NULL;
	git_commit *c = NULL;
	const git_commit *parents[1];
	int rc, ret = -1;

	format_entry(&note, e);
	git_oid_tostr(hex, sizeof(hex), commit);
	strbuf_addf(&reflog, "maint-notify: %s %.12s", e->status == JOURNAL_SENT ? "sent" : "failed", hex);
	strbuf_addf(&msg, "%s\n", reflog.buf);
	parents[0] = j->tip;
	if (lg2_check(git_blob_create_from_buffer(&blob, j->repo, note.buf, note.len),
		      "cannot write the journal note for %s", hex) < 0 ||
	    write_tree(j, &tree_id, commit, &blob) < 0 ||
	    lg2_check(git_tree_lookup(&tree, j->repo, &tree_id), "cannot read the journal tree") < 0 ||
	    lg2_check(git_commit_create(&new_tip, j->repo, NULL, j->sig, j->sig, NULL, msg.buf, tree,
					j->tip ? 1 : 0, parents),
		      "cannot write the journal commit") < 0)
		goto out;
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
	git_tree_free(tree);
	git_reference_free(ref);
	strbuf_release(&note);
	strbuf_release(&reflog);
	strbuf_release(&msg);
	return ret;
}
