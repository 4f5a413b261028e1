/* SPDX-License-Identifier: GPL-2.0-only */
#include "state-kv.h"
#include "wrapper.h"

#include <stdarg.h>
#include <string.h>

void state_kv_add(struct strbuf *payload, const char *key, const char *value)
{
	if (strchr(value, '\n'))
		BUG("state value for '%s' holds a newline", key);
	strbuf_addf(payload, "%s %s\n", key, value);
}

void state_kv_addf(struct strbuf *payload, const char *key, const char *fmt, ...)
{
	struct strbuf v = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&v, fmt, ap);
	va_end(ap);
	state_kv_add(payload, key, v.buf);
	strbuf_release(&v);
}

char *state_kv_get(const struct strbuf *payload, const char *key)
{
	size_t klen = strlen(key);
	const char *p = payload->buf, *end = payload->buf + payload->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && !memcmp(p, key, klen) && p[klen] == ' ')
			return xstrndup(p + klen + 1, nl - p - klen - 1);
		p = nl + 1;
	}
	return NULL;
}
