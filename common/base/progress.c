/* SPDX-License-Identifier: GPL-2.0-only */
#include "progress.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct progress {
	const char *title;
	uint64_t total, done;
	struct timespec last;
};

struct progress *progress_start(const char *title, uint64_t total, int quiet)
{
	struct progress *p;

	if (quiet || !isatty(2))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = title;
	p->total = total;
	return p;
}

static void draw(struct progress *p, const char *end)
{
	report_flush();
	if (p->total)
		fprintf(stderr, "\r%s: %3u%% (%llu/%llu)%s", p->title,
			(unsigned)(p->done * 100 / p->total),
			(unsigned long long)p->done, (unsigned long long)p->total, end);
	else
		fprintf(stderr, "\r%s: %llu%s", p->title, (unsigned long long)p->done, end);
}

void progress_update(struct progress *p, uint64_t done)
{
	struct timespec now;

	if (!p)
		return;
	p->done = done;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - p->last.tv_sec) * 1000 + (now.tv_nsec - p->last.tv_nsec) / 1000000 < 100)
		return;
	p->last = now;
	draw(p, "");
}

void progress_stop(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	draw(p, ", done.\n");
	free(p);
	*pp = NULL;
}

void progress_abandon(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	draw(p, "\n");
	free(p);
	*pp = NULL;
}
