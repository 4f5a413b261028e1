/* SPDX-License-Identifier: GPL-2.0-only */
#include "notes.h"
#include "commit.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <string.h>

void notes_add_field(struct strbuf *note, const char *key, const char *value, size_t len)
{
	size_t start;

	while (len && isspace((unsigned char)value[len - 1]))
		len--;
	if (!len)
		return;
	strbuf_addf(note, "%s: ", key);
	start = note->len;
	strbuf_add(note, value, len);
	for (size_t i = start; i < note->len; i++)
		if (note->buf[i] == '\n' || note->buf[i] == '\r' || note->buf[i] == '\0')
			note->buf[i] = ' ';
	strbuf_addch(note, '\n');
}

static int is_fanout_entry(const git_tree_entry *e)
{
	const char *n = git_tree_entry_name(e);

	return git_tree_entry_type(e) == GIT_OBJECT_TREE && strlen(n) == 2 &&
	       isxdigit((unsigned char)n[0]) && isxdigit((unsigned char)n[1]);
}

/* How many levels of "xx/" directories the notes tree uses (git notes adds them as it grows). */
static int fanout_of(git_repository *repo, const git_tree *tree)
{
	git_tree *t = NULL;
	int depth = 0;

	while (depth < 19) {
		const git_tree *cur = t ? t : tree;
		const git_tree_entry *sub = NULL;
		git_tree *next = NULL;

		for (size_t i = 0; i < git_tree_entrycount(cur); i++)
			if (is_fanout_entry(git_tree_entry_byindex(cur, i))) {
				sub = git_tree_entry_byindex(cur, i);
				break;
			}
		if (!sub || git_tree_lookup(&next, repo, git_tree_entry_id(sub)) < 0)
			break;
		git_tree_free(t);
		t = next;
		depth++;
	}
	git_tree_free(t);
	return depth;
}

int notes_batch_begin(struct notes_batch *nb, git_repository *repo, struct objwrite *ow)
{
	git_commit *c = NULL;
	int rc;

	memset(nb, 0, sizeof(*nb));
	nb->repo = repo;
	nb->ow = ow;
	strvec_init(&nb->paths);
	rc = git_reference_name_to_id(&nb->parent, repo, NOTES_REF);
	if (rc == 0) {
		nb->has_parent = 1;
		if (lg2_check(git_commit_lookup(&c, repo, &nb->parent), "cannot read '%s'", NOTES_REF) < 0 ||
		    lg2_check(git_commit_tree(&nb->base, c), "cannot read the tree of '%s'", NOTES_REF) < 0) {
			git_commit_free(c);
			return -1;
		}
		git_commit_free(c);
		nb->fanout = fanout_of(repo, nb->base);
		return 0;
	}
	if (rc != GIT_ENOTFOUND)
		return lg2_check(rc, "cannot read '%s'", NOTES_REF);
	{
		git_treebuilder *tb = NULL;
		git_oid empty;

		if (lg2_check(git_treebuilder_new(&tb, repo, NULL), "cannot build a tree") < 0)
			return -1;
		rc = git_treebuilder_write(&empty, tb);
		git_treebuilder_free(tb);
		if (lg2_check(rc, "cannot write the empty tree") < 0 ||
		    lg2_check(git_tree_lookup(&nb->base, repo, &empty), "cannot read the empty tree") < 0)
			return -1;
	}
	return 0;
}

int notes_batch_add(struct notes_batch *nb, const git_oid *commit, const struct strbuf *note)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf path = STRBUF_INIT;
	git_tree_update *u;
	const char *p;

	git_oid_tostr(hex, sizeof(hex), commit);
	p = hex;
	for (int i = 0; i < nb->fanout; i++) {
		strbuf_add(&path, p, 2);
		strbuf_addch(&path, '/');
		p += 2;
	}
	strbuf_addstr(&path, p);
	ALLOC_GROW(nb->updates, nb->nr + 1, nb->alloc);
	u = &nb->updates[nb->nr];
	memset(u, 0, sizeof(*u));
	if (nb->ow ? objwrite_put(nb->ow, &u->id, note->buf, note->len, GIT_OBJECT_BLOB) < 0 :
	    lg2_check(git_blob_create_from_buffer(&u->id, nb->repo, note->buf, note->len),
		      "cannot write note for %s", hex) < 0) {
		strbuf_release(&path);
		return -1;
	}
	u->action = GIT_TREE_UPDATE_UPSERT;
	u->filemode = GIT_FILEMODE_BLOB;
	/* strvec may move its array, not the strings: take the pointer now. */
	u->path = strvec_push(&nb->paths, path.buf);
	nb->nr++;
	strbuf_release(&path);
	return 0;
}

int notes_batch_commit(struct notes_batch *nb, git_oid *out, int *changed, const char *committer)
{
	struct strbuf msg = STRBUF_INIT;
	git_oid tree;
	int ret;

	*changed = 0;
	if (!nb->nr) {
		if (nb->has_parent)
			git_oid_cpy(out, &nb->parent);
		return 0;
	}
	if (lg2_check(git_tree_create_updated(&tree, nb->repo, nb->base, nb->nr, nb->updates),
		      "cannot write notes tree") < 0)
		return -1;
	strbuf_addstr(&msg, "Notes added by 'git maint-queue'\n");
	ret = commit_write(out, nb->repo, nb->ow, &tree, nb->has_parent ? &nb->parent : NULL,
			   committer, committer, &msg);
	strbuf_release(&msg);
	if (!ret)
		*changed = 1;
	return ret;
}

void notes_batch_release(struct notes_batch *nb)
{
	git_tree_free(nb->base);
	free(nb->updates);
	strvec_clear(&nb->paths);
	memset(nb, 0, sizeof(*nb));
}

int notes_read(struct strbuf *out, git_repository *repo, const git_oid *commit)
{
	git_note *note = NULL;
	int rc = git_note_read(&note, repo, NOTES_REF, commit);

	if (rc == GIT_ENOTFOUND)
		return 1;
	if (lg2_check(rc, "cannot read note") < 0)
		return -1;
	strbuf_addstr(out, git_note_message(note));
	git_note_free(note);
	return 0;
}
