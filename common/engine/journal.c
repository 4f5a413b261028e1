/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The notify journal in refs/notes/maint-notify (see journal.h).
 */
#include "journal.h"
#include "commit.h"
#include "notes.h"
#include "objwrite.h"
#include "refstep.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_NAME "notify-journal"

/* A record in the log, not yet in the notes. */
struct journal_pending {
	git_oid commit;
	git_oid blob;		/* of the note */
	int sent;		/* Status: sent */
	struct strbuf note;
};

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
	strvec_clear(&e->pending);
	strvec_clear(&e->refused);
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
		e->status = vlen == 4 && !memcmp(v, "sent", 4) ? JOURNAL_SENT :
			    vlen == 7 && !memcmp(v, "partial", 7) ? JOURNAL_PARTIAL : JOURNAL_FAILED;
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
	else if (KEY("Pending"))
		strvec_push_mem(&e->pending, v, vlen);
	else if (KEY("Refused"))
		strvec_push_mem(&e->refused, v, vlen);
#undef KEY
}

/* Fills e from a note's text; one that says nothing we know (edited by hand) still means "handled". */
static void parse_note(struct journal_entry *e, const char *msg, size_t len)
{
	const char *end = msg + len;

	while (msg < end) {
		const char *nl = memchr(msg, '\n', end - msg);
		const char *eol = nl ? nl : end;

		parse_line(e, msg, eol - msg);
		msg = nl ? nl + 1 : end;
	}
	if (e->status == JOURNAL_NONE)
		e->status = JOURNAL_FAILED;
}

int journal_read(struct journal *j, const git_oid *commit, struct journal_entry *e)
{
	git_note *note = NULL;
	const char *msg;
	int rc;

	journal_entry_release(e);
	/* the newest record of a commit wins, as it will in the notes */
	for (size_t i = j->nr; i-- > 0;) {
		if (git_oid_equal(&j->pending[i].commit, commit)) {
			parse_note(e, j->pending[i].note.buf, j->pending[i].note.len);
			return 0;
		}
	}
	if (!j->tip)
		return 1;
	rc = git_note_commit_read(&note, j->repo, j->tip, commit);
	if (rc == GIT_ENOTFOUND)
		return 1;
	if (lg2_check(rc, "cannot read the journal '%s'", JOURNAL_REF) < 0)
		return -1;
	msg = git_note_message(note);
	parse_note(e, msg, strlen(msg));
	git_note_free(note);
	return 0;
}

/* Appends commit to the list when its newest record says "failed". */
static int add_if_refused(struct journal *j, const git_oid *commit, git_oid **v, size_t *nr,
			  size_t *alloc)
{
	struct journal_entry e = JOURNAL_ENTRY_INIT;
	int rc = journal_read(j, commit, &e);

	if (!rc && e.status == JOURNAL_FAILED) {
		ALLOC_GROW(*v, *nr + 1, *alloc);
		git_oid_cpy(&(*v)[(*nr)++], commit);
	}
	journal_entry_release(&e);
	return rc < 0 ? -1 : 0;
}

int journal_refused(struct journal *j, git_oid **v, size_t *nr, size_t *alloc)
{
	git_note_iterator *it = NULL;
	git_oid blob, commit;
	int rc = 0, bad = 0;

	if (j->tip) {
		if (lg2_check(git_note_commit_iterator_new(&it, j->tip), "cannot read the journal '%s'",
			      JOURNAL_REF) < 0)
			return -1;
		while (!bad && !(rc = git_note_next(&blob, &commit, it)))
			bad = add_if_refused(j, &commit, v, nr, alloc) < 0;
		git_note_iterator_free(it);
		if (bad || (rc != GIT_ITEROVER && lg2_check(rc, "cannot read the journal '%s'", JOURNAL_REF) < 0))
			return -1;
	}
	/* records in the log only: not yet in the notes (those were read above) */
	for (size_t i = 0; i < j->nr; i++) {
		git_note *note = NULL;
		int found = 0;

		for (size_t k = 0; k < i && !found; k++)
			found = git_oid_equal(&j->pending[k].commit, &j->pending[i].commit);
		if (!found && j->tip) {
			rc = git_note_commit_read(&note, j->repo, j->tip, &j->pending[i].commit);
			git_note_free(note);
			if (rc < 0 && rc != GIT_ENOTFOUND)
				return lg2_check(rc, "cannot read the journal '%s'", JOURNAL_REF);
			found = !rc;
		}
		if (!found && add_if_refused(j, &j->pending[i].commit, v, nr, alloc) < 0)
			return -1;
	}
	return 0;
}

static const char *status_name(enum journal_status st)
{
	return st == JOURNAL_SENT ? "sent" : st == JOURNAL_PARTIAL ? "partial" : "failed";
}

static void format_entry(struct strbuf *out, const struct journal_entry *e)
{
	const char *status = status_name(e->status);

	notes_add_field(out, "Status", status, strlen(status));
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
	for (size_t i = 0; i < e->pending.nr; i++)
		notes_add_field(out, "Pending", e->pending.v[i], strlen(e->pending.v[i]));
	for (size_t i = 0; i < e->refused.nr; i++)
		notes_add_field(out, "Refused", e->refused.v[i], strlen(e->refused.v[i]));
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

/* ---- the log ---- */

static void pending_clear(struct journal *j)
{
	for (size_t i = 0; i < j->nr; i++)
		strbuf_release(&j->pending[i].note);
	j->nr = 0;
}

static void pending_add(struct journal *j, const git_oid *commit, const git_oid *blob,
			struct strbuf *note)
{
	struct journal_pending *p;

	ALLOC_GROW(j->pending, j->nr + 1, j->alloc);
	p = &j->pending[j->nr++];
	git_oid_cpy(&p->commit, commit);
	git_oid_cpy(&p->blob, blob);
	p->sent = !starts_with(note->buf, "Status: failed\n");	/* sent, or partial */
	p->note = *note;	/* taken over */
	strbuf_init(note, 0);
}

/* "<commit> <blob> <length>\n": 0, or -1 when the line is not one. */
static int parse_header(const char *line, size_t len, git_oid *commit, git_oid *blob,
			size_t *note_len)
{
	char *end;
	unsigned long long n;

	if (len < 2 * GIT_OID_HEXSZ + 3 || line[GIT_OID_HEXSZ] != ' ' ||
	    line[2 * GIT_OID_HEXSZ + 1] != ' ' ||
	    git_oid_fromstrn(commit, line, GIT_OID_HEXSZ) < 0 ||
	    git_oid_fromstrn(blob, line + GIT_OID_HEXSZ + 1, GIT_OID_HEXSZ) < 0 ||
	    !isdigit((unsigned char)line[2 * GIT_OID_HEXSZ + 2]))
		return -1;
	errno = 0;
	n = strtoull(line + 2 * GIT_OID_HEXSZ + 2, &end, 10);
	if (errno || end != line + len || n > (1 << 20))
		return -1;
	*note_len = n;
	return 0;
}

/* The records of the log (fd, at its start) into j->pending, up to the first bad one. */
static int load_log(struct journal *j, int fd)
{
	struct strbuf buf = STRBUF_INIT, note = STRBUF_INIT;
	size_t pos = 0;

	if (strbuf_read_fd(&buf, fd, 0) < 0) {
		strbuf_release(&buf);
		return error_errno("cannot read the notify journal '%s'", j->log);
	}
	while (pos < buf.len) {
		const char *line = buf.buf + pos;
		const char *nl = memchr(line, '\n', buf.len - pos);
		git_oid commit, blob, check;
		size_t len;

		if (!nl || parse_header(line, nl - line, &commit, &blob, &len) < 0 ||
		    len > buf.len - (nl + 1 - buf.buf) ||
		    git_odb_hash(&check, nl + 1, len, GIT_OBJECT_BLOB) < 0 ||
		    !git_oid_equal(&check, &blob)) {
			warning("the notify journal '%s' ends with a damaged record (cut short by a crash?); "
				"its mail may be sent again", j->log);
			break;
		}
		strbuf_add(&note, nl + 1, len);
		pending_add(j, &commit, &blob, &note);
		pos = nl + 1 - buf.buf + len;
	}
	strbuf_release(&buf);
	strbuf_release(&note);
	return 0;
}

/*
 * Opens the log in $GIT_COMMON_DIR/maint: for appending (created, with
 * that directory, when missing) or for reading (-2 when there is none).
 * Neither the directory nor the file may be a symbolic link.
 */
static int open_log(struct journal *j, int writable)
{
	struct strbuf dir = STRBUF_INIT, log = STRBUF_INIT;
	struct stat st;
	int dfd, fd = -1;

	strbuf_addf(&dir, "%smaint", git_repository_commondir(j->repo));
	strbuf_addf(&log, "%s/" LOG_NAME, dir.buf);
	free(j->log);
	j->log = strbuf_detach(&log, NULL);
	if (writable && mkdir(dir.buf, 0700) < 0 && errno != EEXIST) {
		error_errno("cannot create '%s'", dir.buf);
		goto out;
	}
	dfd = open(dir.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == ENOENT && !writable)
			fd = -2;
		else
			error_errno("cannot open '%s'", dir.buf);
		goto out;
	}
	fd = openat(dfd, LOG_NAME, writable ? O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC :
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT && !writable) {
		fd = -2;
	} else if (fd < 0) {
		error_errno("cannot open the notify journal '%s'", j->log);
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("the notify journal '%s' is not a file", j->log);
		close(fd);
		fd = -1;
	} else if (writable && fsync(dfd) < 0) {
		/* the log itself must last, not only what is written to it */
		error_errno("cannot sync '%s'", dir.buf);
		close(fd);
		fd = -1;
	}
	close(dfd);
out:
	strbuf_release(&dir);
	return fd;
}

/* JOURNAL_FOLD_EVERY, or what a test asks for, so a few mails can cross folds. */
static size_t fold_every(void)
{
	const char *v = getenv("GIT_MAINT_TEST_JOURNAL_FOLD_EVERY");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return JOURNAL_FOLD_EVERY;
	n = strtoul(v, &end, 10);
	return *end || !n ? JOURNAL_FOLD_EVERY : n;
}

int journal_open(struct journal *j, git_repository *repo, const char *committer,
		 const struct state_lock *lock)
{
	git_signature *sig = NULL;
	git_oid tip;
	int writable = !!lock, rc, fd;

	j->repo = repo;
	j->lock = lock;
	j->fold_every = fold_every();
	if (lg2_check(git_signature_from_buffer(&sig, committer), "bad committer '%s'", committer) < 0)
		return -1;
	git_signature_free(sig);
	j->committer = xstrdup(committer);
	rc = git_reference_name_to_id(&tip, repo, JOURNAL_REF);
	if (rc != GIT_ENOTFOUND &&
	    (lg2_check(rc, "cannot read '%s'", JOURNAL_REF) < 0 ||
	     lg2_check(git_commit_lookup(&j->tip, repo, &tip), "cannot read '%s'", JOURNAL_REF) < 0))
		return -1;
	fd = open_log(j, writable);
	if (fd == -2)
		return 0;
	if (fd < 0 || load_log(j, fd) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!writable) {
		close(fd);
		return 0;
	}
	j->fd = fd;
	/* what an earlier run left (it crashed, or its fold failed) goes into the notes first */
	return journal_flush(j);
}

void journal_release(struct journal *j)
{
	pending_clear(j);
	free(j->pending);
	if (j->fd >= 0)
		close(j->fd);
	if (j->ow) {
		objwrite_end(j->ow);
		free(j->ow);
	}
	git_commit_free(j->tip);
	free(j->committer);
	free(j->log);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

int journal_write(struct journal *j, const git_oid *commit, const struct journal_entry *e)
{
	struct strbuf note = STRBUF_INIT, rec = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], blob_hex[GIT_OID_HEXSZ + 1];
	char point[64];
	git_oid blob;
	int ret = -1;

	if (j->fd < 0)
		return error("BUG: the notify journal was opened read-only");
	format_entry(&note, e);
	if (lg2_check(git_odb_hash(&blob, note.buf, note.len, GIT_OBJECT_BLOB),
		      "cannot hash a journal note") < 0)
		goto out;
	strbuf_addf(&rec, "%s %s %zu\n", git_oid_tostr(hex, sizeof(hex), commit),
		    git_oid_tostr(blob_hex, sizeof(blob_hex), &blob), note.len);
	strbuf_addbuf(&rec, &note);
	/* one write, then on the disk before the next mail goes */
	if (write_in_full(j->fd, rec.buf, rec.len) < 0 || fdatasync(j->fd) < 0) {
		error_errno("cannot write the notify journal '%s'", j->log);
		goto out;
	}
	snprintf(point, sizeof(point), "notify-journal-appended-%zu", ++j->appended);
	crash_point(point);
	pending_add(j, commit, &blob, &note);
	ret = j->nr >= j->fold_every ? journal_flush(j) : 0;
out:
	strbuf_release(&note);
	strbuf_release(&rec);
	return ret;
}

/* ---- folding the log into the notes ---- */

static int base_tree(struct journal *j, git_tree **out)
{
	git_treebuilder *tb = NULL;
	git_oid empty;
	int rc;

	if (j->tip)
		return lg2_check(git_commit_tree(out, j->tip), "cannot read '%s'", JOURNAL_REF);
	if (lg2_check(git_treebuilder_new(&tb, j->repo, NULL), "cannot build a tree") < 0)
		return -1;
	rc = git_treebuilder_write(&empty, tb);
	git_treebuilder_free(tb);
	if (lg2_check(rc, "cannot write a tree") < 0)
		return -1;
	return lg2_check(git_tree_lookup(out, j->repo, &empty), "cannot read a tree");
}

/* The pending notes' blobs, and one tree update each (the newest record of a commit). */
static int fold_updates(struct journal *j, int fanout, git_tree_update *u, struct strvec *paths,
			size_t *nr)
{
	*nr = 0;
	for (size_t i = 0; i < j->nr; i++) {
		struct journal_pending *p = &j->pending[i];
		char hex[GIT_OID_HEXSZ + 1];
		struct strbuf path = STRBUF_INIT;
		git_oid blob;
		size_t k;

		for (k = i + 1; k < j->nr && !git_oid_equal(&j->pending[k].commit, &p->commit); k++)
			;
		if (k < j->nr)
			continue;
		if (objwrite_put(j->ow, &blob, p->note.buf, p->note.len, GIT_OBJECT_BLOB) < 0)
			return -1;
		git_oid_tostr(hex, sizeof(hex), &p->commit);
		for (int d = 0; d < fanout; d++)
			strbuf_addf(&path, "%.2s/", hex + 2 * d);
		strbuf_addstr(&path, hex + 2 * fanout);
		memset(&u[*nr], 0, sizeof(u[*nr]));
		u[*nr].action = GIT_TREE_UPDATE_UPSERT;
		u[*nr].filemode = GIT_FILEMODE_BLOB;
		u[*nr].path = strvec_push(paths, path.buf);
		git_oid_cpy(&u[*nr].id, &blob);
		(*nr)++;
		strbuf_release(&path);
	}
	return 0;
}

/* The notes commit for the pending records on top of the tip, unless they are all in it. */
static int fold_commit(struct journal *j, git_oid *out, int *changed)
{
	git_tree_update *u = xcalloc(j->nr, sizeof(*u));
	struct strvec paths = STRVEC_INIT;
	struct strbuf msg = STRBUF_INIT;
	git_tree *base = NULL;
	git_oid tree;
	size_t nr, sent = 0;
	int ret = -1;

	*changed = 0;
	if (base_tree(j, &base) < 0 || fold_updates(j, fanout_of(j->repo, base), u, &paths, &nr) < 0 ||
	    lg2_check(git_tree_create_updated(&tree, j->repo, base, nr, u),
		      "cannot write the journal tree") < 0)
		goto out;
	if (j->tip && git_oid_equal(&tree, git_tree_id(base))) {
		ret = 0;	/* folded before, by a run that died before emptying the log */
		goto out;
	}
	for (size_t i = 0; i < j->nr; i++)
		sent += j->pending[i].sent;
	strbuf_addf(&msg, "maint-notify: %zu sent, %zu failed\n", sent, j->nr - sent);
	if (commit_write(out, j->repo, j->ow, &tree, j->tip ? git_commit_id(j->tip) : NULL,
			 j->committer, j->committer, &msg) < 0)
		goto out;
	*changed = 1;
	ret = 0;
out:
	git_tree_free(base);
	free(u);
	strvec_clear(&paths);
	strbuf_release(&msg);
	return ret;
}

/* The fold's objects, in one pack, on the disk before the ref names them. */
static int fold_write_objects(void *data)
{
	struct journal *j = data;

	if (objwrite_flush(j->ow) < 0)
		return -1;
	crash_point("notify-journal-packed");
	return 0;
}

/*
 * Points JOURNAL_REF at the new notes commit: a guarded step
 * (common/repo/refstep.h) named "notify-journal", from the tip we read to
 * the new one, so a writer that is not us is noticed, not overwritten.
 * The step keeps no state of its own: the log is that state, and folding
 * it again makes the same notes.
 */
static int move_ref(struct journal *j, const git_oid *new_tip, const char *reflog)
{
	struct refstep_move move = { .ref = JOURNAL_REF, .has_old = !!j->tip, .reflog = reflog };
	struct refstep step = { .repo = j->repo, .lock = j->lock, .name = "notify-journal",
				.moves = &move, .nr = 1, .write_objects = fold_write_objects, .data = j };
	git_commit *c = NULL;

	if (j->tip)
		git_oid_cpy(&move.old, git_commit_id(j->tip));
	git_oid_cpy(&move.new, new_tip);
	if (refstep_run(&step) < 0 ||
	    lg2_check(git_commit_lookup(&c, j->repo, new_tip), "cannot read '%s'", JOURNAL_REF) < 0)
		return -1;
	git_commit_free(j->tip);
	j->tip = c;
	return 0;
}

int journal_flush(struct journal *j)
{
	git_oid new_tip;
	int changed;

	if (j->fd < 0)
		return 0;
	if (j->nr) {
		if (!j->ow) {
			j->ow = xcalloc(1, sizeof(*j->ow));
			if (objwrite_begin(j->ow, j->repo) < 0)
				return -1;
		}
		if (fold_commit(j, &new_tip, &changed) < 0)
			return -1;
		if (changed) {
			struct strbuf reflog = STRBUF_INIT;
			int r;

			strbuf_addf(&reflog, "maint-notify: %zu notes", j->nr);
			r = move_ref(j, &new_tip, reflog.buf);
			strbuf_release(&reflog);
			if (r < 0)
				return -1;
			crash_point("notify-journal-folded");
		}
	}
	/* the notes have it all, on the disk: the log may go */
	if (ftruncate(j->fd, 0) < 0 || fdatasync(j->fd) < 0)
		return error_errno("cannot empty the notify journal '%s'", j->log);
	pending_clear(j);
	return 0;
}
