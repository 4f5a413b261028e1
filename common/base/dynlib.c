/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Libraries loaded on first use through dlopen() (see dynlib.h).
 */
#include "dynlib.h"
#include "usage.h"

#include <dlfcn.h>
#include <string.h>

/* dlsym() gives a function as a void *, which POSIX lets us keep as a function pointer. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers are not data pointers");

static int load_failed(struct dynlib *lib, const char *why)
{
	lib->failed = 1;
	return error("cannot load %s, %s: %s", lib->soname, lib->what, why ? why : "unknown error");
}

int dynlib_load(struct dynlib *lib, const struct dynlib_fn *fns, size_t n)
{
	void *handle;

	if (lib->handle)
		return 0;
	if (lib->failed)
		return -1;
	/* lazy: the functions we take are looked up below; RTLD_LOCAL: no program symbol meets them */
	handle = dlopen(lib->soname, RTLD_LAZY | RTLD_LOCAL);
	if (!handle)
		return load_failed(lib, dlerror());
	for (size_t i = 0; i < n; i++) {
		void *fn;

		dlerror();
		fn = dlsym(handle, fns[i].name);
		if (!fn) {
			const char *why = dlerror();

			/* the library stays mapped: GLib must never be unloaded */
			return load_failed(lib, why ? why : fns[i].name);
		}
		memcpy(fns[i].fn, &fn, sizeof(fn));
	}
	lib->handle = handle;
	return 0;
}
