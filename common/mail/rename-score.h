/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RENAME_SCORE_H
#define RENAME_SCORE_H

/*
 * How much of a deleted file an added file holds, measured as git 2.39
 * measures it when it looks for renames (`git diff -M`): the number
 * behind the "(NN%)" of " rename a => b (NN%)". Pure: bytes in, a
 * number out; renames.h decides with it which file became which.
 *
 * The measure is coarse on purpose, and not a diff. A file is cut into
 * chunks: each ends after a newline, or after 64 bytes without one.
 * Each chunk is reduced to a hash below 107927 (so two different chunks
 * may count as one, as in git), and a file to how many bytes it holds
 * of each hash. What a new file holds of an old one is, summed over the
 * hashes, the smaller of the two byte counts; the score is that over
 * the larger file's size, on git's scale of 0..RENAME_SCORE_MAX
 * (60000 = 100%), cut down to a whole number. Where we follow git to the
 * letter because the figure is visible:
 *
 *   - a text file (no NUL byte in its first 8000 bytes) counts a CR
 *     before a LF as nothing, but the sizes compared are the files'
 *     whole sizes, CRs included;
 *   - the last chunk of a file that does not end with a newline is not
 *     counted at all when it is shorter than 64 bytes (git up to 2.43;
 *     git 2.44 counts it, so it reports a little more similarity for
 *     such files than this does);
 *   - before any content is read, two files whose sizes differ by more
 *     than (100% - minimum)% of the larger are judged 0
 *     (rename_sizes_may_match()): a 50% minimum skips any pair where
 *     one file is less than half the other;
 *   - the percentage shown is the score * 100 / 60000, cut down (99.99%
 *     shows 99%).
 *
 * git computes the score in floating point; the integers here give the
 * same whole numbers for any file under 2^40 bytes (the exact quotient
 * is never within double's error of a whole number there).
 *
 * What git also reads and this does not: gitattributes (a file marked
 * binary or -diff is not text to git, so its CRs count) and files over
 * core.bigFileThreshold (binary to git whatever their content).
 */

#include <stddef.h>
#include <stdint.h>

/* git's scale: 100% */
#define RENAME_SCORE_MAX 60000
/* git's default minimum for a rename, -M without a number: 50% */
#define RENAME_SCORE_DEFAULT_MIN 30000

/* The bytes a file holds of one chunk hash. */
struct chunk_count {
	uint32_t hash;
	uint64_t bytes;
};

/* A file as the measure sees it: its chunk counts, sorted by hash, each hash once. */
struct chunk_counts {
	struct chunk_count *v;
	size_t nr;
	uint64_t size;		/* the file's whole size in bytes */
};
#define CHUNK_COUNTS_INIT { NULL, 0, 0 }

/* 1 when git would treat buf as binary content: a NUL in its first 8000 bytes. */
int content_is_binary(const void *buf, size_t len);

/* Cuts buf[0..len) into chunks and counts them into *out (which it first releases). */
void chunk_counts_of(struct chunk_counts *out, const void *buf, size_t len);

void chunk_counts_release(struct chunk_counts *c);

/*
 * 0 when files of these sizes cannot reach min_score (so need not be
 * read), 1 when they may.
 */
int rename_sizes_may_match(uint64_t src_size, uint64_t dst_size, int min_score);

/*
 * The score of dst as a rename of src: 0..RENAME_SCORE_MAX. 0 when the
 * sizes alone rule the pair out at min_score, as git skips it then.
 */
int rename_score(const struct chunk_counts *src, const struct chunk_counts *dst, int min_score);

/* The whole percentage git prints for a score. */
static inline int rename_score_percent(int score)
{
	return (int)((int64_t)score * 100 / RENAME_SCORE_MAX);
}

#endif
