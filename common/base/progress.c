/* SPDX-License-Identifier: GPL-2.0-only */
#include "progress.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/*
 * The rate is what came in the last RATE_SAMPLES intervals of at least
 * RATE_INTERVAL_MS each, as git averages its throughput over a few
 * recent samples: steady, yet it follows a transfer that slows down.
 */
#define RATE_SAMPLES 8
#define RATE_INTERVAL_MS 500
#define REDRAW_MS 100

struct progress {
	const char *title;
	uint64_t total, done;
	int bytes;
	uint64_t last_draw;		/* ms */
	uint64_t start, sample_at;	/* ms */
	uint64_t sample_done;		/* done at sample_at */
	uint64_t win_bytes[RATE_SAMPLES], win_ms[RATE_SAMPLES];
	unsigned nr_samples, next_sample;
	size_t last_len;		/* of the line drawn, to blank what is left of it */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct progress *start(const char *title, uint64_t total, int quiet, int bytes)
{
	struct progress *p;

	if (quiet || !isatty(2))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = title;
	p->total = total;
	p->bytes = bytes;
	p->start = p->sample_at = now_ms();
	return p;
}

struct progress *progress_start(const char *title, uint64_t total, int quiet)
{
	return start(title, total, quiet, 0);
}

struct progress *progress_start_bytes(const char *title, uint64_t total, int quiet)
{
	return start(title, total, quiet, 1);
}

void progress_format(struct strbuf *out, uint64_t done, uint64_t total, int bytes, uint64_t rate)
{
	if (total) {
		strbuf_addf(out, " %3u%% (", (unsigned)(done > total ? 100 : done * 100 / total));
		if (bytes) {
			strbuf_humanise_bytes(out, done);
			strbuf_addch(out, '/');
			strbuf_humanise_bytes(out, total);
		} else {
			strbuf_addf(out, "%llu/%llu", (unsigned long long)done, (unsigned long long)total);
		}
		strbuf_addch(out, ')');
	} else if (bytes) {
		strbuf_addch(out, ' ');
		strbuf_humanise_bytes(out, done);
	} else {
		strbuf_addf(out, " %llu", (unsigned long long)done);
	}
	if (bytes && rate != UINT64_MAX) {
		strbuf_addstr(out, " | ");
		strbuf_humanise_rate(out, rate);
	}
}

/* Takes a rate sample when the interval is over. */
static void sample(struct progress *p, uint64_t now)
{
	unsigned i = p->next_sample;

	if (now - p->sample_at < RATE_INTERVAL_MS || p->done < p->sample_done)
		return;
	p->win_bytes[i] = p->done - p->sample_done;
	p->win_ms[i] = now - p->sample_at;
	p->next_sample = (i + 1) % RATE_SAMPLES;
	if (p->nr_samples < RATE_SAMPLES)
		p->nr_samples++;
	p->sample_at = now;
	p->sample_done = p->done;
}

/* Bytes per second over the samples, or over the whole transfer at its end; UINT64_MAX: none yet. */
static uint64_t rate(const struct progress *p, uint64_t now, int final)
{
	uint64_t bytes = 0, ms = 0;

	if (final) {
		bytes = p->done;
		ms = now - p->start;
	} else {
		for (unsigned i = 0; i < p->nr_samples; i++) {
			bytes += p->win_bytes[i];
			ms += p->win_ms[i];
		}
	}
	if (!ms)
		return p->nr_samples || final ? bytes * 1000 : UINT64_MAX;
	return bytes * 1000 / ms;
}

static void draw(struct progress *p, uint64_t now, const char *end, int final)
{
	struct strbuf line = STRBUF_INIT;
	size_t len;

	strbuf_addf(&line, "%s:", p->title);
	progress_format(&line, p->done, p->total, p->bytes, p->bytes ? rate(p, now, final) : UINT64_MAX);
	len = line.len;
	/* a shorter line than the last (the rate's units changed) leaves no tail */
	if (len < p->last_len)
		strbuf_addchars(&line, ' ', p->last_len - len);
	p->last_len = len;
	report_flush();
	fprintf(stderr, "\r%s%s", line.buf, end);
	fflush(stderr);
	strbuf_release(&line);
}

void progress_update(struct progress *p, uint64_t done)
{
	uint64_t now;

	if (!p)
		return;
	p->done = done;
	now = now_ms();
	if (p->bytes)
		sample(p, now);
	if (now - p->last_draw < REDRAW_MS)
		return;
	p->last_draw = now;
	draw(p, now, "", 0);
}

static void finish(struct progress **pp, const char *end, int final)
{
	struct progress *p = *pp;

	if (!p)
		return;
	draw(p, now_ms(), end, final);
	free(p);
	*pp = NULL;
}

void progress_stop(struct progress **pp)
{
	finish(pp, ", done.\n", 1);
}

void progress_abandon(struct progress **pp)
{
	finish(pp, "\n", 0);
}
