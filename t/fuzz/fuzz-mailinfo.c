/*
 * Fuzz target for the mail core: the bytes are a mailbox; every message
 * goes through the source (mbox splitting, mboxrd, CRLF) and
 * patch_mail_parse(), full and fast, with the options chosen by the
 * first byte. Run by t/t0103-mail-fuzz.sh for a bounded number of inputs,
 * or by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Icommon \
 *	t/fuzz/fuzz-mailinfo.c common/{source,mail,mailinfo,strbuf,strvec,wrapper,usage,utf8}.c \
 *	$(pkg-config --cflags --libs libgit2 inih) -o fuzz-mailinfo
 *   ./fuzz-mailinfo -max_len=65536 corpus/
 *
 * Without libFuzzer (-DFUZZ_STANDALONE) it reads the files named on the
 * command line, for replaying a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mailinfo.h"
#include "source.h"
#include "strbuf.h"
#include "utf8.h"
#include "usage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mailinfo_opts opts = MAILINFO_OPTS_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	struct patch_mail pm, fast;
	unsigned flags = 0;
	unsigned char knobs;
	int r;

	if (!size)
		return 0;
	knobs = data[0];
	data++;
	size--;
	if (knobs & 1)
		flags |= SOURCE_MBOXRD;
	if (knobs & 2)
		flags |= SOURCE_KEEP_CR;
	opts.keep_subject = !!(knobs & 4);
	opts.keep_non_patch = !!(knobs & 8);
	opts.scissors = !!(knobs & 16);
	opts.no_inbody_headers = !!(knobs & 32);
	opts.message_id = !!(knobs & 64);
	opts.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;

	patch_mail_init(&pm);
	patch_mail_init(&fast);
	source_open_buffer(&src, (const char *)data, size, "fuzz", flags);
	source_set_max_size(src, 1 << 20);
	while ((r = source_next(src, &raw))) {
		struct mailinfo_opts fopts = opts;
		struct strbuf info = STRBUF_INIT;

		if (r < 0)
			continue;
		patch_mail_parse(&pm, &raw, &opts);
		fopts.headers_and_paths_only = 1;
		patch_mail_parse(&fast, &raw, &fopts);
		patch_mail_format_info(&info, &pm);
		/* invariants: never invalid UTF-8 out, fast and full agree */
		if (!utf8_valid(pm.author_name.buf, pm.author_name.len) ||
		    !utf8_valid(pm.subject.buf, pm.subject.len))
			abort();
		if (strbuf_cmp(&pm.subject, &fast.subject) ||
		    strbuf_cmp(&pm.author_email, &fast.author_email) ||
		    pm.paths.nr != fast.paths.nr || pm.has_patch != fast.has_patch)
			abort();
		strbuf_release(&info);
	}
	source_close(src);
	patch_mail_release(&pm);
	patch_mail_release(&fast);
	return 0;
}

#ifdef FUZZ_STANDALONE
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, argv[i], 0) < 0) {
			perror(argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
		strbuf_release(&sb);
	}
	return 0;
}
#endif
