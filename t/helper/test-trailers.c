/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-trailers: the trailer functions of common/mail/trailers.h, one mode each.
 *
 *   test-trailers reply <mail>              the trailers of a reply, one per line:
 *                                           "<line>\t<name>\t<email>"
 *   test-trailers text <mail>               the reply text trailers are read from
 *   test-trailers block <msg>               the trailers of a commit message's block
 *   test-trailers add <msg> <trailer>...    the message with the trailers added
 *                                           (git interpret-trailers --no-divider
 *                                           --if-exists addIfDifferent)
 *   test-trailers from <name> <email> <trailer>
 *                                           "own" or "flagged": is it the replier's?
 *   test-trailers person <value>            "<name>\t<email>", or exit 1
 */
#include "commit.h"
#include "strbuf.h"
#include "trailers.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void read_or_die(struct strbuf *sb, const char *path)
{
	if (strbuf_read_file(sb, path, 0) < 0)
		die_errno("cannot read '%s'", path);
}

static void print_list(const struct trailer_list *tl)
{
	for (size_t i = 0; i < tl->nr; i++)
		printf("%s\t%s\t%s\n", tl->v[i].line, tl->v[i].name, tl->v[i].email);
}

/* A trailer as a reply line gives it: "Token: value". */
static void one_trailer(struct trailer_list *tl, const char *line)
{
	const char *colon = strchr(line, ':');

	if (!colon)
		die("not a trailer: '%s'", line);
	trailer_list_add(tl, line, colon - line, colon + 2, strlen(colon + 2));
}

int cmd_main(int argc, const char **argv)
{
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT, name = STRBUF_INIT, email = STRBUF_INIT;
	struct trailer_list tl = TRAILER_LIST_INIT;
	int ret = 0;

	if (argc < 3)
		die("usage: test-trailers (reply|text|block|add|from|person) ...");
	if (!strcmp(argv[1], "reply")) {
		read_or_die(&sb, argv[2]);
		if (trailers_of_reply(&tl, sb.buf, sb.len) < 0)
			ret = 1;
		print_list(&tl);
	} else if (!strcmp(argv[1], "text")) {
		read_or_die(&sb, argv[2]);
		if (trailers_reply_text(&text, sb.buf, sb.len) < 0)
			ret = 1;
		else
			fwrite(text.buf, 1, text.len, stdout);
	} else if (!strcmp(argv[1], "block")) {
		read_or_die(&sb, argv[2]);
		trailers_of_message(&tl, sb.buf, sb.len, NULL);
		print_list(&tl);
	} else if (!strcmp(argv[1], "add")) {
		read_or_die(&sb, argv[2]);
		trailers_add_to_message(&sb, NULL, argv + 3, argc - 3);
		fwrite(sb.buf, 1, sb.len, stdout);
	} else if (!strcmp(argv[1], "from") && argc == 5) {
		one_trailer(&tl, argv[4]);
		puts(trailer_is_from(&tl.v[0], argv[2], argv[3]) ? "own" : "flagged");
	} else if (!strcmp(argv[1], "person")) {
		if (trailer_parse_person(argv[2], strlen(argv[2]), &name, &email) < 0)
			ret = 1;
		else
			printf("%s\t%s\n", name.buf, email.buf);
	} else {
		die("unknown mode '%s'", argv[1]);
	}
	trailer_list_release(&tl);
	strbuf_release(&sb);
	strbuf_release(&text);
	strbuf_release(&name);
	strbuf_release(&email);
	return ret;
}
