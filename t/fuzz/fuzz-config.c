/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for git-maint's INI reader (common/base/config.c over inih):
 * the bytes are a config file, read with config_read_file() through a
 * memory file. Whatever the file, reading either fails with an error or
 * gives entries that are each a known key with a valid UTF-8 value
 * that config_get_entry() finds again (the last one read wins), and
 * that the readers of typed values (booleans, mbox.max-message-size)
 * take without crashing. Reading the same file twice is a duplicate key
 * error for the second reading, never a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "source.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct mail_source *src;
	char path[64];
	int r;

	if (fd < 0 && (fd = memfd_create("config", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = config_read_file(&cfg, path, 1);
	if (r < 0 && r != -1)
		abort();
	for (size_t i = 0; i < cfg.nr; i++) {
		const struct config_entry *e = &cfg.entries[i], *got;

		if (!utf8_valid(e->value, strlen(e->value)))
			abort();
		got = config_get_entry(&cfg, e->section, e->subsection, e->key);
		if (!got || strcmp(got->key, e->key) || strcmp(got->section, e->section))
			abort();
		config_get_bool(&cfg, e->section, e->subsection, e->key, 0);
	}
	config_tree_for_branch(&cfg, "main");
	source_open_buffer(&src, "", 0, "fuzz", 0);
	source_configure(src, &cfg, NULL);
	source_close(src);
	if (!r && cfg.nr && config_read_file(&cfg, path, 1) != -1)
		abort();
	config_release(&cfg);
	return 0;
}
