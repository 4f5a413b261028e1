/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SIMILAR_H
#define SIMILAR_H

/*
 * "Did you mean": the names closest to one that was mistyped, by the
 * rule git uses for a mistyped command (help.c), written for any list of
 * names (branches, for queue and dry-apply).
 *
 * Closeness is a weighted edit distance from what was typed to a name
 * (Damerau-Levenshtein, as git's levenshtein.c weighs it for commands):
 * swapping two neighbours costs 0, a substitution 2, a letter left out
 * of what was typed (added to reach the name) 1, an extra letter typed
 * 3. A name that starts with what was typed is as close as can be (git
 * gives that to its common commands). The suggestions are those
 * prefix matches and every name tied at the best distance of the rest,
 * when that distance is under git's floor (score = distance + 1 < 7);
 * when every name is a prefix match there is nothing to suggest (too
 * ambiguous, as in git). Where we differ: prefix matches are suggested
 * even when no other name is close (git then suggests nothing).
 */

#include <stddef.h>

#include "strvec.h"

/* git's levenshtein(): the cost of turning a into b with those weights. */
int levenshtein(const char *a, const char *b, int swap, int subst, int add, int del);

/*
 * Appends to out the names of names[0..nr) to suggest for typed, closest
 * first, names with the same score in the order given; none when
 * nothing is close enough. typed itself is never suggested.
 */
void similar_names(struct strvec *out, const char *typed, const char *const *names, size_t nr);

#endif
