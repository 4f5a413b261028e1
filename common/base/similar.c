/* SPDX-License-Identifier: GPL-2.0-only */
#include "similar.h"
#include "strbuf.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* git's floor: a score (distance + 1) this high or higher is not similar. */
#define SIMILARITY_FLOOR 7

int levenshtein(const char *a, const char *b, int swap, int subst, int add, int del)
{
	size_t la = strlen(a), lb = strlen(b);
	/* three rows of the matrix: i-2, i-1 and i (each lb + 1 wide) */
	int *prev2 = xcalloc(lb + 1, sizeof(int));
	int *prev = xcalloc(lb + 1, sizeof(int));
	int *cur = xcalloc(lb + 1, sizeof(int));
	int ret;

	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j * add;
	for (size_t i = 0; i < la; i++) {
		int *t;

		cur[0] = (int)(i + 1) * del;
		for (size_t j = 0; j < lb; j++) {
			int best = prev[j] + (a[i] != b[j] ? subst : 0);

			if (i > 0 && j > 0 && a[i - 1] == b[j] && a[i] == b[j - 1] &&
			    prev2[j - 1] + swap < best)
				best = prev2[j - 1] + swap;
			if (prev[j + 1] + del < best)
				best = prev[j + 1] + del;
			if (cur[j] + add < best)
				best = cur[j] + add;
			cur[j + 1] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	ret = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return ret;
}

struct scored {
	const char *name;
	size_t order;
	int score;		/* 0: starts with what was typed; else distance + 1 */
};

static int by_score(const void *va, const void *vb)
{
	const struct scored *a = va, *b = vb;

	if (a->score != b->score)
		return a->score < b->score ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

void similar_names(struct strvec *out, const char *typed, const char *const *names, size_t nr)
{
	struct scored *s = xcalloc(nr ? nr : 1, sizeof(*s));
	size_t n = 0, prefixed, take;

	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(names[i], typed))
			continue;
		s[n].name = names[i];
		s[n].order = i;
		s[n].score = starts_with(names[i], typed) ? 0 :
			     levenshtein(typed, names[i], 0, 2, 1, 3) + 1;
		n++;
	}
	qsort(s, n, sizeof(*s), by_score);
	for (prefixed = 0; prefixed < n && !s[prefixed].score; prefixed++)
		;
	take = prefixed;
	if (prefixed == n && n > 1)
		take = 0;	/* every name starts so: too ambiguous */
	else if (prefixed < n && s[prefixed].score < SIMILARITY_FLOOR)
		while (take < n && s[take].score == s[prefixed].score)
			take++;
	for (size_t i = 0; i < take; i++)
		strvec_push(out, s[i].name);
	free(s);
}
