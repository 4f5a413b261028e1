/*
 * The Secret Service through libsecret, as git-credential-libsecret uses
 * it (secret.h). The only file that includes <libsecret/secret.h>.
 */
#include "secret.h"

#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>

static const SecretSchema git_password_schema = {
	"org.git.Password",
	SECRET_SCHEMA_DONT_MATCH_NAME,
	{
		{ "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
		{ "object", SECRET_SCHEMA_ATTRIBUTE_STRING },
		{ "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING },
		{ "port", SECRET_SCHEMA_ATTRIBUTE_INTEGER },
		{ "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
		{ NULL, 0 },
	},
	0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

/* The attributes git's helper would give; with_port 0 leaves the port out (for searching). */
static GHashTable *key_attributes(const struct secret_key *key, int with_port)
{
	GHashTable *attrs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);

	g_hash_table_insert(attrs, "protocol", g_strdup(key->protocol));
	g_hash_table_insert(attrs, "server", g_strdup(key->server));
	if (key->user)
		g_hash_table_insert(attrs, "user", g_strdup(key->user));
	if (key->path)
		g_hash_table_insert(attrs, "object", g_strdup(key->path));
	if (with_port && key->port)
		g_hash_table_insert(attrs, "port", g_strdup_printf("%u", key->port));
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
		g_error_free(err);
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
		GHashTable *attrs = secret_item_get_attributes(item);
		const char *p = g_hash_table_lookup(attrs, "port");
		int match = p && port && strtoul(p, NULL, 10) == port;

		if (!p && !no_port)
			no_port = item;
		if (!any)
			any = item;
		g_hash_table_unref(attrs);
		if (match)
			return item;
	}
	if (no_port)
		return no_port;
	return port ? NULL : any;
}

enum maint_result secret_lookup(const struct secret_key *key, char **password, char **user_out)
{
	SecretService *service;
	GHashTable *attrs;
	GError *err = NULL;
	GList *items;
	SecretItem *item;
	SecretValue *value;
	const char *text;
	size_t len;
	enum maint_result ret = RESULT_NO;

	*password = NULL;
	if (user_out)
		*user_out = NULL;
	key_usable(key);
	service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, &err);
	if (!service)
		return gerror_report(err, "look up", key);
	attrs = key_attributes(key, 0);
	items = secret_service_search_sync(service, &git_password_schema, attrs, search_flags(), NULL,
					   &err);
	g_hash_table_unref(attrs);
	if (err) {
		g_object_unref(service);
		return gerror_report(err, "look up", key);
	}
	item = pick_item(items, key->port);
	if (!item)
		goto out;
	if (secret_item_get_locked(item)) {
		ret = error("the Secret Service holds the password for %s://%s in a locked "
			    "collection; unlock it and try again", key->protocol, key->server);
		goto out;
	}
	value = secret_item_get_secret(item);
	text = value ? secret_value_get(value, &len) : NULL;
	if (text) {
		/* the password is the first line (git keeps metadata below it) */
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;

		*password = xmalloc(n + 1);
		memcpy(*password, text, n);
		(*password)[n] = '\0';
		if (user_out) {
			GHashTable *item_attrs = secret_item_get_attributes(item);
			const char *u = g_hash_table_lookup(item_attrs, "user");

			*user_out = u ? xstrdup(u) : NULL;
			g_hash_table_unref(item_attrs);
		}
		ret = RESULT_OK;
	} else {
		ret = error("the Secret Service item for %s://%s has no secret loaded", key->protocol,
			    key->server);
	}
	if (value)
		secret_value_unref(value);	/* libsecret wipes its copy */
out:
	g_list_free_full(items, g_object_unref);
	g_object_unref(service);
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
	attrs = key_attributes(key, 1);
	label = key_label(key);
	ok = secret_password_storev_sync(&git_password_schema, attrs, SECRET_COLLECTION_DEFAULT, label,
					 password, NULL, &err);
	free(label);
	g_hash_table_unref(attrs);
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
	attrs = key_attributes(key, 1);
	removed = secret_password_clearv_sync(&git_password_schema, attrs, NULL, &err);
	g_hash_table_unref(attrs);
	if (err)
		return gerror_report(err, "forget", key);
	return removed ? RESULT_OK : RESULT_NO;
}

void secret_free(char *password)
{
	if (!password)
		return;
	explicit_bzero(password, strlen(password));
	free(password);
}
