/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The read-ahead thread of prefetch.h. Slots (one per path, in the order
 * of first use) move PENDING -> LOADING -> READY -> TAKEN (or MISSING);
 * the main thread may take a PENDING slot away (it reads the blob itself
 * rather than wait). One mutex guards the states and the bytes waiting.
 * The thread has its own repository object: libgit2 objects are not
 * shared between threads.
 */
#include "prefetch.h"
#include "hashmap.h"
#include "wrapper.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Contents read and not yet taken, at most. */
#define PREFETCH_BYTES ((size_t)8 << 20)

enum slot_state { PENDING, LOADING, READY, TAKEN, MISSING };

struct slot {
	char *path;
	size_t mail;		/* number of the mail that first names it */
	enum slot_state state;
	git_oid oid;
	struct strbuf data;
};

struct prefetch {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot *slots;
	size_t nr, alloc;
	struct hashmap index;	/* path -> slot number */
	size_t max_slots;	/* paths beyond this many are not read ahead */
	size_t passed;		/* slots before this one are done with */
	size_t bytes;
	int stop;
	int started;		/* the thread runs (prefetch_start()) */
	char *gitdir;
	git_oid tree;
};

/* The slot of path[0..len), or NULL; with add, created when missing. */
static struct slot *slot_for(struct prefetch *pf, const char *path, size_t len, size_t mail, int add)
{
	uint32_t *v = hashmap_get(&pf->index, path, len);

	if (v)
		return &pf->slots[*v];
	if (!add || pf->nr >= pf->max_slots)
		return NULL;
	ALLOC_GROW(pf->slots, pf->nr + 1, pf->alloc);
	memset(&pf->slots[pf->nr], 0, sizeof(pf->slots[pf->nr]));
	pf->slots[pf->nr].path = xstrndup(path, len);
	pf->slots[pf->nr].mail = mail;
	strbuf_init(&pf->slots[pf->nr].data, 0);
	*hashmap_put(&pf->index, path, len, NULL) = (uint32_t)pf->nr;
	return &pf->slots[pf->nr++];
}

/* The "--- a/<path>" lines of one mail, new paths only. */
static void scan_mail(struct prefetch *pf, const char *p, const char *end, size_t mail)
{
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *stop;

		if (!eol)
			eol = end;
		if (eol - p > 6 && !memcmp(p, "--- a/", 6)) {
			const char *path = p + 6;

			stop = memchr(path, '\t', eol - path);
			if (!stop)
				stop = eol;
			while (stop > path && (stop[-1] == '\r' || stop[-1] == ' '))
				stop--;
			if (stop > path)
				slot_for(pf, path, stop - path, mail, 1);
		}
		p = eol + 1;
	}
}

static void *reader(void *arg)
{
	struct prefetch *pf = arg;
	git_repository *repo = NULL;
	git_tree *tree = NULL;

	if (git_repository_open_ext(&repo, pf->gitdir,
				    GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE, NULL) < 0 ||
	    git_tree_lookup(&tree, repo, &pf->tree) < 0)
		goto out;
	for (size_t i = 0; i < pf->nr; i++) {
		struct slot *s = &pf->slots[i];
		git_tree_entry *te = NULL;
		git_blob *blob = NULL;
		struct strbuf data = STRBUF_INIT;
		git_oid oid;
		int ok = 0;

		pthread_mutex_lock(&pf->mu);
		while (!pf->stop && pf->bytes >= PREFETCH_BYTES)
			pthread_cond_wait(&pf->cv, &pf->mu);
		if (pf->stop) {
			pthread_mutex_unlock(&pf->mu);
			break;
		}
		if (s->state != PENDING) {
			pthread_mutex_unlock(&pf->mu);
			continue;
		}
		s->state = LOADING;
		pthread_mutex_unlock(&pf->mu);

		if (!git_tree_entry_bypath(&te, tree, s->path) &&
		    git_tree_entry_type(te) == GIT_OBJECT_BLOB &&
		    !git_blob_lookup(&blob, repo, git_tree_entry_id(te))) {
			git_oid_cpy(&oid, git_tree_entry_id(te));
			strbuf_add(&data, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
			ok = 1;
		}
		git_blob_free(blob);
		git_tree_entry_free(te);

		pthread_mutex_lock(&pf->mu);
		if (ok && i >= pf->passed) {
			git_oid_cpy(&s->oid, &oid);
			strbuf_release(&s->data);
			s->data = data;
			pf->bytes += data.len;
			s->state = READY;
		} else {
			strbuf_release(&data);
			s->state = MISSING;
		}
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
	}
out:
	git_tree_free(tree);
	git_repository_free(repo);
	/* Whatever was not read will not be: nobody waits for it. */
	pthread_mutex_lock(&pf->mu);
	for (size_t i = 0; i < pf->nr; i++)
		if (pf->slots[i].state == PENDING || pf->slots[i].state == LOADING)
			pf->slots[i].state = MISSING;
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

static void prefetch_free(struct prefetch *pf)
{
	for (size_t i = 0; i < pf->nr; i++) {
		free(pf->slots[i].path);
		strbuf_release(&pf->slots[i].data);
	}
	free(pf->slots);
	hashmap_release(&pf->index);
	free(pf->gitdir);
	free(pf);
}

struct prefetch *prefetch_new(size_t bytes)
{
	struct prefetch *pf = xcalloc(1, sizeof(*pf));

	/* Room for every path: a mail's "--- a/" lines are fewer than its bytes / 8. */
	pf->max_slots = 512;
	while (pf->max_slots < bytes / 128)
		pf->max_slots *= 2;
	return pf;
}

void prefetch_add_mail(struct prefetch *pf, const char *buf, size_t len, size_t number)
{
	scan_mail(pf, buf, buf + len, number);
}

struct prefetch *prefetch_start(struct prefetch *pf, git_repository *repo, const git_oid *tree)
{
	if (!pf->nr)
		goto fail;
	pf->gitdir = xstrdup(git_repository_commondir(repo));
	git_oid_cpy(&pf->tree, tree);
	if (pthread_mutex_init(&pf->mu, NULL))
		goto fail;
	if (pthread_cond_init(&pf->cv, NULL)) {
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	if (pthread_create(&pf->thread, NULL, reader, pf)) {
		pthread_cond_destroy(&pf->cv);
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	pf->started = 1;
	return pf;
fail:
	prefetch_free(pf);
	return NULL;
}

int prefetch_take(struct prefetch *pf, const char *path, const git_oid *oid, struct strbuf *out)
{
	struct slot *s;
	int ret = 0;

	if (!pf)
		return 0;
	pthread_mutex_lock(&pf->mu);
	s = slot_for(pf, path, strlen(path), 0, 0);
	while (s && s->state == LOADING)
		pthread_cond_wait(&pf->cv, &pf->mu);
	if (!s) {
		;
	} else if (s->state == PENDING) {
		s->state = TAKEN;	/* the thread is behind: we read it ourselves */
	} else if (s->state == READY) {
		pf->bytes -= s->data.len;
		if (git_oid_equal(&s->oid, oid)) {
			struct strbuf tmp = *out;

			*out = s->data;
			s->data = tmp;
			ret = 1;
		}
		strbuf_release(&s->data);
		s->state = TAKEN;
		pthread_cond_broadcast(&pf->cv);
	}
	pthread_mutex_unlock(&pf->mu);
	return ret;
}

void prefetch_passed(struct prefetch *pf, size_t mail)
{
	int freed = 0;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->mu);
	for (; pf->passed < pf->nr && pf->slots[pf->passed].mail <= mail; pf->passed++) {
		struct slot *s = &pf->slots[pf->passed];

		if (s->state == READY) {
			pf->bytes -= s->data.len;
			strbuf_release(&s->data);
			freed = 1;
		}
		if (s->state != LOADING)
			s->state = TAKEN;
	}
	if (freed)
		pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
}

void prefetch_stop(struct prefetch *pf)
{
	if (!pf)
		return;
	if (!pf->started) {
		prefetch_free(pf);
		return;
	}
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	pthread_join(pf->thread, NULL);
	pthread_cond_destroy(&pf->cv);
	pthread_mutex_destroy(&pf->mu);
	prefetch_free(pf);
}
