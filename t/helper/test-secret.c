/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-secret: drives common/net/secret.c, so the tests can check it against
 * secret-tool and git's attribute layout on a real Secret Service.
 *
 *   test-secret lookup <protocol> <server> <port> [<user>]   prints "<user>\n<password>\n"
 *   test-secret store <protocol> <server> <port> <user>      password from stdin (first line)
 *   test-secret forget <protocol> <server> <port> [<user>]
 *
 * Exits with result_exit_code() of the call: 0, 1 (no item), 128 (and for
 * a lookup with no Secret Service to ask, saying why).
 */
#include "secmem.h"
#include "secret.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_main(int argc, const char **argv)
{
	struct secret_key key = { 0 };
	int ret;

	if (argc < 5 || argc > 6)
		die("usage: test-secret (lookup|store|forget) <protocol> <server> <port> [<user>]");
	key.protocol = argv[2];
	key.server = argv[3];
	key.port = (unsigned)strtoul(argv[4], NULL, 10);
	key.user = argc == 6 ? argv[5] : NULL;
	if (!strcmp(argv[1], "lookup")) {
		struct strbuf why = STRBUF_INIT;
		char *password, *user;

		ret = secret_lookup(&key, &password, &user, &why);
		if (ret == RESULT_OK)
			printf("%s\n%s\n", user ? user : "", password);
		if (why.len)
			ret = error("%s", why.buf);
		secmem_free(password);
		free(user);
		strbuf_release(&why);
	} else if (!strcmp(argv[1], "store") && key.user) {
		struct strbuf pw = STRBUF_INIT;

		if (strbuf_getline(&pw, stdin) == EOF)
			die("no password on stdin");
		ret = secret_store(&key, pw.buf);
		strbuf_release(&pw);
	} else if (!strcmp(argv[1], "forget")) {
		ret = secret_forget(&key);
	} else {
		die("unknown subcommand '%s'", argv[1]);
	}
	return result_exit_code(ret);
}
