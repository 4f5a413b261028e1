/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-credential: which of git's credential settings common/net/credential.c
 * takes as applying to a URL, so the tests can hold it against git's own
 * matching (git credential fill as the oracle).
 *
 *   test-credential match <protocol> <host[:port]> [<path> [<user>]]
 *
 * reads git's config (global, and the repository's when in one) and prints
 * "helpers=<0|1> path=<0|1>": whether a credential helper is configured for
 * the URL, and whether its path is part of the key (credential.useHttpPath).
 */
#include "config-git.h"
#include "credential.h"
#include "repo.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

int cmd_main(int argc, const char **argv)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct credential c = CREDENTIAL_INIT;

	if (argc < 4 || argc > 6 || strcmp(argv[1], "match"))
		die("usage: test-credential match <protocol> <host[:port]> [<path> [<user>]]");
	if (config_load(&cfg, NULL) < 0)
		return EXIT_FATAL;
	credential_init(&c, &cfg, argv[2], argv[3], 0, argc > 4 ? argv[4] : NULL,
			argc > 5 ? argv[5] : NULL);
	printf("helpers=%d path=%d\n", c.helpers, c.use_path);
	credential_release(&c);
	config_release(&cfg);
	return 0;
}
