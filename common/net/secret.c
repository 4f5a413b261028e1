/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Secret Service through libsecret, as git-credential-libsecret uses
 * it (secret.h). The only file that includes <libsecret/secret.h>.
 */
#include "secret.h"

#include "dynlib.h"
#include "secmem.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>

/*
 * libsecret and the GLib under it, loaded when a password is first looked
 * up, stored or forgotten (dynlib.h): libsecret.<name> is secret_<name>,
 * glib.<name> is g_<name>, each with the type their headers give it.
 */
#define LIBSECRET_FUNCTIONS(X) \
	X(service_get_sync) \
	X(service_search_sync) \
	X(item_get_attributes) \
	X(item_get_secret) \
	X(item_get_locked) \
	X(item_delete_sync) \
	X(value_get) \
	X(value_unref) \
	X(password_storev_sync) \
	X(password_clearv_sync)
#define GLIB_FUNCTIONS(X) \
	X(hash_table_new_full) \
	X(hash_table_insert) \
	X(hash_table_lookup) \
	X(hash_table_contains) \
	X(hash_table_size) \
	X(hash_table_iter_init) \
	X(hash_table_iter_next) \
	X(hash_table_unref) \
	X(str_hash) \
	X(str_equal) \
	X(strdup) \
	X(strdup_printf) \
	X(free) \
	X(error_free) \
	X(list_free_full) \
	X(object_unref)

static struct {
#define LIBSECRET_FIELD(name) __typeof__(secret_##name) *name;
	LIBSECRET_FUNCTIONS(LIBSECRET_FIELD)
#undef LIBSECRET_FIELD
} libsecret;

static struct {
#define GLIB_FIELD(name) __typeof__(g_##name) *name;
	GLIB_FUNCTIONS(GLIB_FIELD)
#undef GLIB_FIELD
} glib;

/* 0, or -1 reported: libsecret cannot be loaded, and nothing here may be called */
static int libsecret_load(void)
{
	/* libsecret-1.so.0: libsecret's only ABI so far; GLib comes with it */
	static struct dynlib lib = DYNLIB_INIT("libsecret-1.so.0", "libsecret (the Secret Service)");
#define LIBSECRET_ENTRY(name) DYNLIB_FN(secret_, name, libsecret)
#define GLIB_ENTRY(name) DYNLIB_FN(g_, name, glib)
	static const struct dynlib_fn fns[] = {
		LIBSECRET_FUNCTIONS(LIBSECRET_ENTRY)
		GLIB_FUNCTIONS(GLIB_ENTRY)
	};
#undef LIBSECRET_ENTRY
#undef GLIB_ENTRY

	return dynlib_load(&lib, fns, ARRAY_SIZE(fns));
}

/*
 * Two names for one set of attributes. Items are stored under the name
 * git-credential-libsecret of git 2.39 (Debian 12) stores and searches
 * with, libgnome-keyring's network password; later helpers store under
 * "org.git.Password" and search ignoring the name, so they find these
 * too. Searches here ignore the name as well: what either generation
 * stored is found.
 */
#define SCHEMA_ATTRIBUTES { \
		{ "user", SECRET_SCHEMA_ATTRIBUTE_STRING }, \
		{ "object", SECRET_SCHEMA_ATTRIBUTE_STRING }, \
		{ "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING }, \
		{ "port", SECRET_SCHEMA_ATTRIBUTE_INTEGER }, \
		{ "server", SECRET_SCHEMA_ATTRIBUTE_STRING }, \
		{ NULL, 0 }, \
	}

static const SecretSchema store_schema = {
	"org.gnome.keyring.NetworkPassword", SECRET_SCHEMA_NONE, SCHEMA_ATTRIBUTES,
	0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static const SecretSchema search_schema = {
	"org.git.Password", SECRET_SCHEMA_DONT_MATCH_NAME, SCHEMA_ATTRIBUTES,
	0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

/* The attributes git's helper would give; with_port 0 leaves the port out (for searching). */
static GHashTable *key_attributes(const struct secret_key *key, int with_port)
{
	GHashTable *attrs = glib.hash_table_new_full(glib.str_hash, glib.str_equal, NULL, glib.free);

	glib.hash_table_insert(attrs, "protocol", glib.strdup(key->protocol));
	glib.hash_table_insert(attrs, "server", glib.strdup(key->server));
	if (key->user)
		glib.hash_table_insert(attrs, "user", glib.strdup(key->user));
	if (key->path)
		glib.hash_table_insert(attrs, "object", glib.strdup(key->path));
	if (with_port && key->port)
		glib.hash_table_insert(attrs, "port", glib.strdup_printf("%u", key->port));
	return attrs;
}

static char *key_label(const struct secret_key *key)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "Git: %s://%s", key->protocol, key->server);
	if (key->port)
		strbuf_addf(&sb, ":%u", key->port);
	strbuf_addf(&sb, "/%s", key->path ? key->path : "");
	return strbuf_detach(&sb, NULL);
}

static enum maint_result gerror_report(GError *err, const char *what, const struct secret_key *key)
{
	error("cannot %s the password for %s://%s in the Secret Service: %s", what, key->protocol,
	      key->server, err ? err->message : "unknown error");
	if (err)
		glib.error_free(err);
	return RESULT_FATAL;
}

static int key_usable(const struct secret_key *key)
{
	if (key->protocol && *key->protocol && key->server && *key->server)
		return 1;
	BUG("secret key without protocol or server");
}

/* Unlocking asks the user through a prompt window: only where one can be shown. */
static SecretSearchFlags search_flags(void)
{
	SecretSearchFlags flags = SECRET_SEARCH_ALL | SECRET_SEARCH_LOAD_SECRETS;

	if (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY"))
		flags |= SECRET_SEARCH_UNLOCK;
	return flags;
}

/*
 * The item to use among those found: the one for key's port; else one
 * stored without a port (git send-email without smtpServerPort); with
 * no port asked, as git's helper does, one without a port, else any.
 */
static SecretItem *pick_item(GList *items, unsigned port)
{
	SecretItem *no_port = NULL, *any = NULL;

	for (GList *l = items; l; l = l->next) {
		SecretItem *item = l->data;
		GHashTable *attrs = libsecret.item_get_attributes(item);
		const char *p = glib.hash_table_lookup(attrs, "port");
		int match = p && port && strtoul(p, NULL, 10) == port;

		if (!p && !no_port)
			no_port = item;
		if (!any)
			any = item;
		glib.hash_table_unref(attrs);
		if (match)
			return item;
	}
	if (no_port)
		return no_port;
	return port ? NULL : any;
}

/* The Secret Service could not be asked: why, for the caller to say (or not). */
static enum maint_result unreachable(GError *err, struct strbuf *why)
{
	strbuf_addf(why, "the Secret Service cannot be reached: %s",
		    err ? err->message : "unknown error");
	if (err)
		glib.error_free(err);
	return RESULT_NO;
}

/* The first line of the item's secret (git keeps metadata below it), and its user. */
static enum maint_result item_password(SecretItem *item, const struct secret_key *key,
				       char **password, char **user_out)
{
	SecretValue *value = libsecret.item_get_secret(item);
	const char *text, *nl;
	size_t len;

	text = value ? libsecret.value_get(value, &len) : NULL;
	if (!text) {
		if (value)
			libsecret.value_unref(value);
		return error("the Secret Service item for %s://%s has no secret loaded", key->protocol,
			     key->server);
	}
	nl = memchr(text, '\n', len);
	*password = secmem_strndup(text, nl ? (size_t)(nl - text) : len);
	libsecret.value_unref(value);	/* libsecret wipes its copy */
	if (user_out) {
		GHashTable *attrs = libsecret.item_get_attributes(item);
		const char *u = glib.hash_table_lookup(attrs, "user");

		*user_out = xstrdup_or_null(u);
		glib.hash_table_unref(attrs);
	}
	return RESULT_OK;
}

enum maint_result secret_lookup(const struct secret_key *key, char **password, char **user_out,
				 struct strbuf *why)
{
	SecretService *service;
	GHashTable *attrs;
	GError *err = NULL;
	GList *items;
	SecretItem *item;
	enum maint_result ret = RESULT_NO;

	*password = NULL;
	if (user_out)
		*user_out = NULL;
	key_usable(key);
	if (libsecret_load() < 0)
		return RESULT_FATAL;
	service = libsecret.service_get_sync(SECRET_SERVICE_NONE, NULL, &err);
	if (!service)
		return unreachable(err, why);
	attrs = key_attributes(key, 0);
	items = libsecret.service_search_sync(service, &search_schema, attrs, search_flags(), NULL, &err);
	glib.hash_table_unref(attrs);
	if (err) {
		glib.object_unref(service);
		return unreachable(err, why);
	}
	item = pick_item(items, key->port);
	if (!item)
		ret = RESULT_NO;
	else if (libsecret.item_get_locked(item))
		ret = error("the Secret Service holds the password for %s://%s in a locked "
			    "collection; unlock it and try again", key->protocol, key->server);
	else
		ret = item_password(item, key, password, user_out);
	glib.list_free_full(items, glib.object_unref);
	glib.object_unref(service);
	return ret;
}

/* Do the item's attributes (but its schema's name) equal want? */
static int same_attributes(SecretItem *item, GHashTable *want)
{
	GHashTable *have = libsecret.item_get_attributes(item);
	GHashTableIter it;
	gpointer k, v;
	guint n = glib.hash_table_size(have);
	int same = 1;

	if (glib.hash_table_contains(have, "xdg:schema"))
		n--;
	if (n != glib.hash_table_size(want))
		same = 0;
	glib.hash_table_iter_init(&it, want);
	while (same && glib.hash_table_iter_next(&it, &k, &v)) {
		const char *h = glib.hash_table_lookup(have, k);

		same = h && !strcmp(h, v);
	}
	glib.hash_table_unref(have);
	return same;
}

/*
 * Removes the items with exactly these attributes under another schema's
 * name (a newer helper's "org.git.Password"), which storing would not
 * replace: one password per key, not two that disagree.
 */
static int remove_same(GHashTable *attrs, const struct secret_key *key)
{
	GError *err = NULL;
	SecretService *service = libsecret.service_get_sync(SECRET_SERVICE_NONE, NULL, &err);
	GList *items;
	int ret = 0;

	if (!service)
		return gerror_report(err, "store", key);
	items = libsecret.service_search_sync(service, &search_schema, attrs, SECRET_SEARCH_ALL, NULL,
					   &err);
	if (err)
		ret = gerror_report(err, "store", key);
	for (GList *l = items; l && !ret; l = l->next) {
		SecretItem *item = l->data;

		if (same_attributes(item, attrs) && !libsecret.item_delete_sync(item, NULL, &err))
			ret = gerror_report(err, "store", key);
	}
	glib.list_free_full(items, glib.object_unref);
	glib.object_unref(service);
	return ret;
}

enum maint_result secret_store(const struct secret_key *key, const char *password)
{
	GHashTable *attrs;
	GError *err = NULL;
	char *label;
	gboolean ok;

	key_usable(key);
	if (!key->user)
		BUG("secret_store() without a user");
	if (libsecret_load() < 0)
		return RESULT_FATAL;
	attrs = key_attributes(key, 1);
	if (remove_same(attrs, key) < 0) {
		glib.hash_table_unref(attrs);
		return RESULT_FATAL;
	}
	label = key_label(key);
	ok = libsecret.password_storev_sync(&store_schema, attrs, SECRET_COLLECTION_DEFAULT, label,
					 password, NULL, &err);
	free(label);
	glib.hash_table_unref(attrs);
	if (!ok)
		return gerror_report(err, "store", key);
	return RESULT_OK;
}

enum maint_result secret_forget(const struct secret_key *key)
{
	GHashTable *attrs;
	GError *err = NULL;
	gboolean removed;

	key_usable(key);
	if (libsecret_load() < 0)
		return RESULT_FATAL;
	attrs = key_attributes(key, 1);
	removed = libsecret.password_clearv_sync(&search_schema, attrs, NULL, &err);
	glib.hash_table_unref(attrs);
	if (err)
		return gerror_report(err, "forget", key);
	return removed ? RESULT_OK : RESULT_NO;
}
