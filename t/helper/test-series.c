/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-series: the series modules, one mode each.
 *
 *   test-series patch-id <file>     "<id>" as git patch-id --stable prints it
 *                                   (without the commit id), nothing when the
 *                                   file holds no diff
 *   test-series range-diff <old> <new> [<creation-factor>]
 *                                   the range-diff of the patches of two
 *                                   mailboxes (cover letters left out), the
 *                                   ids from their "From <id>" lines
 */
#include "commit.h"
#include "mailinfo.h"
#include "patch-id.h"
#include "range-diff.h"
#include "source.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int patch_id_mode(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char id[PATCH_ID_RAWSZ];
	int rc;

	if (strbuf_read_file(&sb, path, 0) < 0)
		die_errno("cannot read '%s'", path);
	rc = patch_id_stable(id, sb.buf, sb.len);
	if (!rc) {
		for (int i = 0; i < PATCH_ID_RAWSZ; i++)
			printf("%02x", id[i]);
		printf("\n");
	}
	strbuf_release(&sb);
	return rc < 0;
}

/* The patches of one mailbox, as range_diff() takes them; strings kept in keep. */
struct version {
	struct range_patch *v;
	size_t nr, alloc;
	struct strvec keep;
};

static void read_version(struct version *ver, const char *path)
{
	static const struct mailinfo_opts mopts = MAILINFO_OPTS_INIT;
	const char *args[1] = { path };
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	struct strbuf msg = STRBUF_INIT;
	int rc;

	strvec_init(&ver->keep);
	if (source_open(&src, args, 1, 0) < 0)
		exit(128);
	mailinfo_init(&pm);
	while ((rc = source_next(src, &raw)) > 0) {
		struct range_patch *rp;
		const char *id = "0000000";

		if (mailinfo_parse(&pm, &raw, &mopts) < 0 || (!pm.number && pm.total))
			continue;
		if (raw.from_line && raw.from_line_len > 45 && !strncmp(raw.from_line, "From ", 5))
			id = strvec_pushf(&ver->keep, "%.40s", raw.from_line + 5);
		ALLOC_GROW(ver->v, ver->nr + 1, ver->alloc);
		rp = &ver->v[ver->nr++];
		rp->id = id;
		rp->author = strvec_pushf(&ver->keep, "%s <%s>", pm.author_name.buf, pm.author_email.buf);
		rp->subject = strvec_push(&ver->keep, pm.subject.buf);
		strbuf_reset(&msg);
		msg_from_mail(&msg, pm.subject.buf, pm.subject.len, pm.message.buf, pm.message.len);
		rp->message = strvec_push(&ver->keep, msg.buf);
		rp->message_len = msg.len;
		rp->diff = strvec_push(&ver->keep, pm.patch.buf);
		rp->diff_len = pm.patch.len;
	}
	if (rc < 0)
		exit(128);
	source_close(src);
	mailinfo_release(&pm);
	strbuf_release(&msg);
}

static int range_diff_mode(int argc, const char **argv)
{
	struct version a = { 0 }, b = { 0 };
	struct strbuf out = STRBUF_INIT;
	int rc;

	read_version(&a, argv[2]);
	read_version(&b, argv[3]);
	rc = range_diff(&out, a.v, a.nr, b.v, b.nr,
			argc > 4 ? atoi(argv[4]) : RANGE_DIFF_CREATION_FACTOR);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	free(a.v);
	free(b.v);
	strvec_clear(&a.keep);
	strvec_clear(&b.keep);
	return rc < 0;
}

int cmd_main(int argc, const char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "patch-id"))
		return patch_id_mode(argv[2]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "range-diff"))
		return range_diff_mode(argc, argv);
	die("usage: test-series (patch-id <file> | range-diff <old> <new> [<factor>])");
}
