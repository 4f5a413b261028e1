/* SPDX-License-Identifier: GPL-2.0-only */
#include "commit.h"
#include "repo.h"
#include "usage.h"
#include "utf8.h"
#include "wrapper.h"

#include <string.h>

int commit_write(git_oid *out, git_repository *repo, struct objwrite *ow, const git_oid *tree,
		 const git_oid *parent, const char *author, const char *committer,
		 const struct strbuf *msg)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf buf = STRBUF_INIT;
	git_odb *odb = NULL;
	int ret = -1;

	if (memchr(msg->buf, '\0', msg->len))
		return error("commit message holds a NUL byte");
	if (!utf8_valid(msg->buf, msg->len))
		return error("commit message is not valid UTF-8");
	if (!utf8_valid(author, strlen(author)))
		return error("author '%s' is not valid UTF-8", author);
	strbuf_addf(&buf, "tree %s\n", git_oid_tostr(hex, sizeof(hex), tree));
	if (parent)
		strbuf_addf(&buf, "parent %s\n", git_oid_tostr(hex, sizeof(hex), parent));
	strbuf_addf(&buf, "author %s\ncommitter %s\n\n", author, committer);
	strbuf_addbuf(&buf, msg);
	if (ow) {
		ret = objwrite_put(ow, out, buf.buf, buf.len, GIT_OBJECT_COMMIT);
		goto out;
	}
	if (lg2_check(git_repository_odb(&odb, repo), "cannot open object database") < 0)
		goto out;
	if (lg2_check(git_odb_write(out, odb, buf.buf, buf.len, GIT_OBJECT_COMMIT),
		      "cannot write commit object") < 0)
		goto out;
	ret = 0;
out:
	git_odb_free(odb);
	strbuf_release(&buf);
	return ret;
}
