/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for binary deltas ("GIT binary patch" / "delta N"): the
 * decoding in common/mail/patch.c (base85 lines, zlib) and the delta
 * interpreter (common/repo/delta.c) as apply.c uses it, reached the way a
 * mail reaches them.
 *
 * Input: a knobs byte, the length n of the source (one byte), n bytes of
 * source, then the delta's bytes. The source becomes the file "f" of the
 * base tree (t/fuzz/fuzz-repo.h); the delta is deflated, base85-encoded
 * and wrapped into a git diff of f whose index line names the source's
 * blob and the blob of the result the reference interpreter below
 * computes (git's rules: copy and insert commands, sizes checked). Knob
 * bits put the right source and result sizes in front of the delta, so
 * the fuzzer need not find them. The engine must agree with the
 * reference: apply exactly the deltas it accepts (results up to 64 KiB:
 * larger ones may be refused by a limit), with the same result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "apply.h"
#include "fuzz-repo.h"
#include "patch.h"
#include "strbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECKED_RESULT_MAX 65536

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_repo_init();
	return 0;
}

static int varint(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
	uint64_t v = 0;
	int shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 63)
			return -1;
		c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return 0;
}

static void put_varint(struct strbuf *out, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		strbuf_addch(out, c | (v ? 0x80 : 0));
	} while (v);
}

/*
 * Runs the commands cmd[0..len) against src: the result into out (when
 * not NULL), its size returned; -1 for a corrupt delta. Stops at max
 * bytes of result (-2).
 */
static long long run_commands(const unsigned char *cmd, size_t len, const unsigned char *src,
			      size_t src_len, struct strbuf *out, size_t max)
{
	const unsigned char *p = cmd, *end = cmd + len;
	size_t total = 0;

	while (p < end) {
		unsigned char op = *p++;
		size_t off = 0, n = 0;

		if (op & 0x80) {
			for (int i = 0; i < 4; i++)
				if (op & (1 << i)) {
					if (p >= end)
						return -1;
					off |= (size_t)*p++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (op & (0x10 << i)) {
					if (p >= end)
						return -1;
					n |= (size_t)*p++ << (8 * i);
				}
			if (!n)
				n = 0x10000;
			if (off > src_len || n > src_len - off)
				return -1;
			if (out)
				strbuf_add(out, src + off, n);
		} else if (op) {
			n = op;
			if ((size_t)(end - p) < n)
				return -1;
			if (out)
				strbuf_add(out, p, n);
			p += n;
		} else {
			return -1;
		}
		total += n;
		if (total > max)
			return -2;
	}
	return (long long)total;
}

/* git's reference: 0 and the result, or -1 (corrupt, or larger than max). */
static int reference(const struct strbuf *delta, const unsigned char *src, size_t src_len,
		     struct strbuf *out, size_t max)
{
	const unsigned char *p = (const unsigned char *)delta->buf, *end = p + delta->len;
	uint64_t want_src, want_dst;

	if (varint(&p, end, &want_src) < 0 || varint(&p, end, &want_dst) < 0 ||
	    want_src != src_len || want_dst > max)
		return -1;
	if (run_commands(p, end - p, src, src_len, out, max) != (long long)want_dst)
		return -1;
	return 0;
}

static void add_base85(struct strbuf *out, const unsigned char *data, size_t len)
{
	static const char abc[] =
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

	while (len) {
		size_t n = len > 52 ? 52 : len;

		strbuf_addch(out, n <= 26 ? 'A' + n - 1 : 'a' + n - 27);
		for (size_t i = 0; i < n; i += 4) {
			uint32_t acc = 0;
			char group[5];

			for (size_t k = 0; k < 4; k++)
				acc = acc << 8 | (i + k < n ? data[i + k] : 0);
			for (int k = 4; k >= 0; k--) {
				group[k] = abc[acc % 85];
				acc /= 85;
			}
			strbuf_add(out, group, 5);
		}
		strbuf_addch(out, '\n');
		data += n;
		len -= n;
	}
}

static void make_patch(struct strbuf *patch, const struct strbuf *delta, const git_oid *pre,
		       const git_oid *post)
{
	uLongf zlen = compressBound(delta->len);
	unsigned char *z = malloc(zlen);
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];

	if (!z || compress(z, &zlen, (const unsigned char *)delta->buf, delta->len) != Z_OK)
		abort();
	strbuf_addf(patch, "diff --git a/f b/f\nindex %s..%s 100644\nGIT binary patch\ndelta %zu\n",
		    git_oid_tostr(a, sizeof(a), pre), git_oid_tostr(b, sizeof(b), post), delta->len);
	add_base85(patch, z, zlen);
	strbuf_addch(patch, '\n');
	free(z);
}

/* The content the session now has for f, or NULL. */
static const struct apply_change *changed_f(struct apply_change *c, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(c[i].path, "f"))
			return &c[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct apply_opts opts = APPLY_OPTS_INIT;
	struct apply_session *s;
	struct patch_set ps = PATCH_SET_INIT;
	struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
	struct apply_result res = APPLY_RESULT_INIT;
	struct strbuf delta = STRBUF_INIT, patch = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const unsigned char *src, *cmd;
	size_t src_len, cmd_len;
	unsigned char knobs;
	git_oid base, pre, post;
	int ok;

	if (size < 2 || size - 2 < data[1])
		return 0;
	knobs = data[0];
	src_len = data[1];
	src = data + 2;
	cmd = src + src_len;
	cmd_len = size - 2 - src_len;
	if (knobs & 1)
		put_varint(&delta, src_len);
	if (knobs & 2) {
		long long n = run_commands(cmd, cmd_len, src, src_len, NULL, CHECKED_RESULT_MAX);

		put_varint(&delta, n < 0 ? 0 : (uint64_t)n);
	}
	strbuf_add(&delta, cmd, cmd_len);
	ok = !reference(&delta, src, src_len, &want, CHECKED_RESULT_MAX);

	fuzz_check(git_odb_hash(&pre, src, src_len, GIT_OBJECT_BLOB));
	fuzz_check(git_odb_hash(&post, want.buf, want.len, GIT_OBJECT_BLOB));
	make_patch(&patch, &delta, &pre, &post);
	fuzz_repo_tree(&base, "f", src, src_len);
	fuzz_check(apply_session_new(&s, fuzz_repo, &base, &opts));
	popts.origin = "fuzz";
	if (patch_parse(&ps, patch.buf, patch.len, &popts, &err) < 0)
		abort();	/* the patch is well formed: only the delta may be wrong */
	if (apply_patch(s, &ps, &res) < 0)
		abort();
	if (ok) {
		struct apply_change *c = NULL;
		size_t nr = 0;
		const struct apply_change *f;

		if (!res.ok || apply_session_changes(s, &c, &nr) < 0)
			abort();
		f = changed_f(c, nr);
		/* an empty result of an empty source is no change */
		if (f ? (f->has_oid ? !git_oid_equal(&f->oid, &post)
				    : (f->len != want.len || memcmp(f->data, want.buf, want.len)))
		      : !git_oid_equal(&pre, &post))
			abort();
		free(c);
	} else if (res.ok && want.len <= CHECKED_RESULT_MAX) {
		/* the engine took a delta the reference refuses: only a larger result may differ */
		uint64_t s_sz = 0, d_sz = 0;
		const unsigned char *p = (const unsigned char *)delta.buf, *end = p + delta.len;

		if (!varint(&p, end, &s_sz) && !varint(&p, end, &d_sz) && d_sz <= CHECKED_RESULT_MAX)
			abort();
	}
	apply_result_dispose(&res);
	patch_set_dispose(&ps);
	apply_session_free(s);
	fuzz_repo_reset();
	strbuf_release(&delta);
	strbuf_release(&patch);
	strbuf_release(&want);
	strbuf_release(&err);
	return 0;
}
