/*
 * test-series: the series modules, one mode each.
 *
 *   test-series patch-id <file>     "<id>" as git patch-id --stable prints it
 *                                   (without the commit id), nothing when the
 *                                   file holds no diff
 */
#include "patch-id.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>
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

int cmd_main(int argc, const char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "patch-id"))
		return patch_id_mode(argv[2]);
	die("usage: test-series patch-id <file>");
}
