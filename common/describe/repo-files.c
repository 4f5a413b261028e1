/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A repository read from its files (see repo-files.h). Everything that
 * is not the plain case makes repo_files_open() or a lookup answer
 * "not here", so the caller's libgit2 path decides, and reports.
 */
#include "repo-files.h"
#include "gitdir.h"
#include "strbuf.h"
#include "wrapper.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEXSZ GIT_OID_HEXSZ
#define RAWSZ GIT_OID_RAWSZ
#define MAX_SYMREF_DEPTH 5

struct raw_ref {
	char *name;		/* into packed buffer or names[] */
	git_oid oid;
	char *symref;		/* target of a symbolic ref, or NULL */
	int loose;
};

struct repo_files {
	struct strbuf gitdir;
	struct strbuf packed;	/* packed-refs, names cut out in place */
	char **names;		/* loose ref names and symref targets, to free */
	size_t names_nr, names_alloc;
	struct repo_ref *refs;
	size_t refs_nr;
};

/* Environment variables under which a repository is not read plainly. */
static const char *const moving_env[] = {
	"GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_QUARANTINE_PATH",
	"GIT_TEST_COMMIT_GRAPH", NULL
};

/* Config text (lower-cased) that may change naming or walking. */
static const char *const config_words[] = {
	"commitgraph", "include", "extensions", "disambiguate", "replacerefs",
	"graft", "worktreeconfig", NULL
};

static const char *const rev_rules[] = {
	"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s",
	"refs/remotes/%s/HEAD", NULL
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;	/* upper case too: git accepts it, we let libgit2 decide */
}

/* Bytes check_refname_format() refuses anywhere in a name. */
static int bad_refname_byte(unsigned char c)
{
	static unsigned char bad[256];

	if (!bad[0]) {
		const char *p;
		int i;

		for (i = 0; i < 0x21; i++)
			bad[i] = 1;
		bad[0x7f] = 1;
		for (p = "~^:?*[\\"; *p; p++)
			bad[(unsigned char)*p] = 1;
	}
	return bad[c];
}

static int parse_hex(const char *p, size_t len, unsigned char *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int v = hexval((unsigned char)p[i]);

		if (v < 0)
			return -1;
		if (i & 1)
			out[i / 2] |= (unsigned char)v;
		else
			out[i / 2] = (unsigned char)(v << 4);
	}
	return 0;
}

static int is_lower_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return 0;
	return 1;
}

static int path_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	if (S_ISDIR(st.st_mode))
		return 'd';
	if (S_ISREG(st.st_mode))
		return 'f';
	return -1;
}

static int sub_kind(const struct strbuf *dir, const char *sub)
{
	struct strbuf path = STRBUF_INIT;
	int kind;

	strbuf_addf(&path, "%s%s", dir->buf, sub);
	kind = path_kind(path.buf);
	strbuf_release(&path);
	return kind;
}

/*
 * The git directory as git finds it, ending in '/'; 1 when there is
 * none, or it is reached through a gitfile (a worktree or submodule:
 * not plain).
 */
static int find_gitdir(struct strbuf *gitdir)
{
	enum gitdir_how how;

	if (gitdir_discover(gitdir, &how) || how == GITDIR_GITFILE)
		return 1;
	strbuf_addch(gitdir, '/');
	return 0;
}

/* 1 when path mentions a config key we leave to libgit2, -1 unreadable. */
static int config_file_worrying(const char *path)
{
	struct strbuf buf = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (strbuf_read_file(&buf, path, 0) < 0) {
		ret = errno == ENOENT || errno == ENOTDIR ? 0 : -1;
		goto done;
	}
	for (i = 0; i < buf.len; i++)
		buf.buf[i] = (char)tolower((unsigned char)buf.buf[i]);
	for (i = 0; config_words[i] && !ret; i++)
		ret = !!strstr(buf.buf, config_words[i]);
	if (memchr(buf.buf, '\0', buf.len))
		ret = 1;
done:
	strbuf_release(&buf);
	return ret;
}

static int config_worrying(const struct strbuf *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *global = getenv("GIT_CONFIG_GLOBAL"), *system = getenv("GIT_CONFIG_SYSTEM");
	int ret;

	strbuf_addf(&path, "%sconfig", gitdir->buf);
	ret = config_file_worrying(path.buf);
	if (!ret && global) {
		ret = *global ? config_file_worrying(global) : 0;
	} else if (!ret) {
		strbuf_reset(&path);
		if (xdg && *xdg)
			strbuf_addf(&path, "%s/git/config", xdg);
		else if (home)
			strbuf_addf(&path, "%s/.config/git/config", home);
		if (path.len)
			ret = config_file_worrying(path.buf);
		if (!ret && home) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/.gitconfig", home);
			ret = config_file_worrying(path.buf);
		}
	}
	if (!ret && !env_true("GIT_CONFIG_NOSYSTEM"))
		ret = config_file_worrying(system ? system : "/etc/gitconfig");
	strbuf_release(&path);
	return ret;
}

/*
 * The parts of git's check_refname_format() that matter here; names
 * that fail it make the caller fall back (git would skip or refuse them).
 */
static int refname_plain(const char *name)
{
	const char *p, *comp = name;

	if (!*name || *name == '/' || !strcmp(name, "@"))
		return 0;
	for (p = name; ; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '/' || !c) {
			size_t len = p - comp;

			if (!len || *comp == '.' || comp[len - 1] == '.' ||
			    (len >= 5 && !memcmp(p - 5, ".lock", 5)))
				return 0;
			if (!c)
				return 1;
			comp = p + 1;
			continue;
		}
		if (bad_refname_byte(c) || (c == '.' && p[1] == '.') || (c == '@' && p[1] == '{'))
			return 0;
	}
}

static char *keep_name(struct repo_files *rf, char *name)
{
	ALLOC_GROW(rf->names, rf->names_nr + 1, rf->names_alloc);
	rf->names[rf->names_nr++] = name;
	return name;
}

/* Parses a loose ref's contents: 0, or 1 when it is not a plain ref. */
static int parse_loose(struct repo_files *rf, const char *buf, size_t len, struct raw_ref *r)
{
	const char *target;

	if (len >= HEXSZ && !parse_hex(buf, HEXSZ, r->oid.id) &&
	    (len == HEXSZ || isspace((unsigned char)buf[HEXSZ])))
		return 0;
	if (skip_prefix(buf, "ref: ", &target)) {
		size_t n = len - (target - buf);

		while (n && isspace((unsigned char)target[n - 1]))
			n--;
		r->symref = keep_name(rf, xstrndup(target, n));
		return starts_with(r->symref, "refs/") && refname_plain(r->symref) ? 0 : 1;
	}
	return 1;
}

static int read_small_file(const char *path, struct strbuf *buf)
{
	strbuf_reset(buf);
	return strbuf_read_file(buf, path, 64) < 0 ? -1 : 0;
}

static int read_loose_dir(struct repo_files *rf, struct strbuf *path, size_t name_at,
			  struct raw_ref **refs, size_t *nr, size_t *alloc)
{
	DIR *dir = opendir(path->buf);
	struct strbuf content = STRBUF_INIT;
	struct dirent *de;
	size_t len = path->len;
	int ret = 0;

	if (!dir)
		return errno == ENOENT ? 0 : 1;
	while (!ret && (de = readdir(dir))) {
		int kind;

		if (de->d_name[0] == '.' || ends_with(de->d_name, ".lock"))
			continue;	/* git skips these too */
		strbuf_setlen(path, len);
		strbuf_addstr(path, de->d_name);
		kind = path_kind(path->buf);
		if (kind == 'd') {
			strbuf_addch(path, '/');
			ret = read_loose_dir(rf, path, name_at, refs, nr, alloc);
		} else if (kind == 'f') {
			struct raw_ref r = { 0 };

			if (!refname_plain(path->buf + name_at) || read_small_file(path->buf, &content) < 0 ||
			    parse_loose(rf, content.buf, content.len, &r)) {
				ret = 1;
				break;
			}
			r.name = keep_name(rf, xstrdup(path->buf + name_at));
			r.loose = 1;
			ALLOC_GROW(*refs, *nr + 1, *alloc);
			(*refs)[(*nr)++] = r;
		} else {
			ret = 1;	/* a symlink or something else */
		}
	}
	closedir(dir);
	strbuf_setlen(path, len);
	strbuf_release(&content);
	return ret;
}

static int read_packed(struct repo_files *rf, struct raw_ref **refs, size_t *nr, size_t *alloc)
{
	struct strbuf path = STRBUF_INIT;
	char *p, *end, *eol;
	int ret = 0;

	strbuf_addf(&path, "%spacked-refs", rf->gitdir.buf);
	if (strbuf_read_file(&rf->packed, path.buf, 0) < 0) {
		ret = errno == ENOENT ? 0 : 1;
		goto done;
	}
	p = rf->packed.buf;
	end = p + rf->packed.len;
	if (starts_with(p, "# pack-refs with:")) {
		p = memchr(p, '\n', end - p);
		p = p ? p + 1 : end;
	}
	for (; p < end; p = eol + 1) {
		struct raw_ref r = { 0 };

		eol = memchr(p, '\n', end - p);
		if (!eol) {
			ret = 1;
			break;
		}
		*eol = '\0';
		if (*p == '^')
			continue;	/* peeled value of the ref before */
		if (eol - p < HEXSZ + 2 || parse_hex(p, HEXSZ, r.oid.id) || p[HEXSZ] != ' ' ||
		    !refname_plain(p + HEXSZ + 1)) {
			ret = 1;
			break;
		}
		r.name = p + HEXSZ + 1;
		ALLOC_GROW(*refs, *nr + 1, *alloc);
		(*refs)[(*nr)++] = r;
	}
done:
	strbuf_release(&path);
	return ret;
}

static int cmp_raw(const void *a_, const void *b_)
{
	const struct raw_ref *a = a_, *b = b_;
	int c = strcmp(a->name, b->name);

	return c ? c : b->loose - a->loose;	/* loose first */
}

static int cmp_ref_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct repo_ref *)elem)->name);
}

static const struct repo_ref *find_ref(const struct repo_files *rf, const char *name)
{
	return rf->refs_nr ? bsearch(name, rf->refs, rf->refs_nr, sizeof(*rf->refs), cmp_ref_name)
			   : NULL;
}

static const struct raw_ref *find_raw(const struct raw_ref *refs, size_t nr, const char *name)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, refs[mid].name);

		if (!c)
			return &refs[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static int load_refs(struct repo_files *rf)
{
	struct raw_ref *raw = NULL, *loose = NULL;
	size_t nr = 0, alloc = 0, packed_nr, loose_nr = 0, loose_alloc = 0, i, j, out = 0;
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = read_packed(rf, &raw, &nr, &alloc);
	if (!ret) {
		strbuf_addf(&path, "%srefs/", rf->gitdir.buf);
		ret = read_loose_dir(rf, &path, rf->gitdir.len, &loose, &loose_nr, &loose_alloc);
	}
	strbuf_release(&path);
	if (ret)
		goto done;
	/* packed-refs is normally sorted already, and loose refs are few */
	for (i = 1; i < nr && strcmp(raw[i - 1].name, raw[i].name) < 0; i++)
		;
	if (i < nr)
		qsort(raw, nr, sizeof(*raw), cmp_raw);
	if (loose_nr)
		qsort(loose, loose_nr, sizeof(*loose), cmp_raw);
	packed_nr = nr;
	ALLOC_GROW(raw, packed_nr + loose_nr, alloc);
	memmove(raw + loose_nr, raw, packed_nr * sizeof(*raw));
	/* merge; a loose ref hides its packed copy (cmp_raw puts loose first) */
	for (i = loose_nr, j = 0; i < loose_nr + packed_nr || j < loose_nr;) {
		struct raw_ref r;

		if (j < loose_nr && (i == loose_nr + packed_nr || cmp_raw(&loose[j], &raw[i]) < 0))
			r = loose[j++];
		else
			r = raw[i++];
		if (!out || strcmp(raw[out - 1].name, r.name))
			raw[out++] = r;
	}
	nr = out;
	rf->refs = xcalloc(nr ? nr : 1, sizeof(*rf->refs));
	for (i = 0; i < nr && !ret; i++) {
		const struct raw_ref *r = &raw[i];
		int depth;

		if (starts_with(r->name, "refs/replace/"))
			ret = 1;	/* git would replace objects */
		for (depth = 0; r && r->symref && depth < MAX_SYMREF_DEPTH; depth++)
			r = find_raw(raw, nr, r->symref);
		if (r && r->symref)
			ret = 1;
		if (!r)
			continue;	/* dangling: git leaves it out */
		rf->refs[rf->refs_nr].name = raw[i].name;
		rf->refs[rf->refs_nr].oid = r->oid;
		rf->refs_nr++;
	}
done:
	free(raw);
	free(loose);
	return ret;
}

int repo_files_open(struct repo_files **out)
{
	struct repo_files *rf;
	struct stat st;
	size_t i;

	*out = NULL;
	for (i = 0; moving_env[i]; i++)
		if (getenv(moving_env[i]))
			return 1;
	rf = xcalloc(1, sizeof(*rf));
	strbuf_init(&rf->gitdir, 0);
	strbuf_init(&rf->packed, 0);
	if (find_gitdir(&rf->gitdir) || stat(rf->gitdir.buf, &st) < 0 || st.st_uid != geteuid() ||
	    sub_kind(&rf->gitdir, "commondir") || sub_kind(&rf->gitdir, "shallow") ||
	    sub_kind(&rf->gitdir, "info/grafts") || sub_kind(&rf->gitdir, "objects/info/alternates") ||
	    config_worrying(&rf->gitdir) || load_refs(rf)) {
		repo_files_free(rf);
		return 1;
	}
	*out = rf;
	return 0;
}

void repo_files_free(struct repo_files *rf)
{
	size_t i;

	if (!rf)
		return;
	strbuf_release(&rf->gitdir);
	strbuf_release(&rf->packed);
	for (i = 0; i < rf->names_nr; i++)
		free(rf->names[i]);
	free(rf->names);
	free(rf->refs);
	free(rf);
}

const char *repo_files_gitdir(const struct repo_files *rf)
{
	return rf->gitdir.buf;
}

const struct repo_ref *repo_files_refs(const struct repo_files *rf, size_t *nr)
{
	*nr = rf->refs_nr;
	return rf->refs;
}

static int all_upper(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'A' && *s <= 'Z') && *s != '_')
			return 0;
	return 1;
}

/*
 * Looks name up as git's resolver would: 1 and *oid, 0 when it does not
 * exist, -1 when that cannot be told here.
 */
static int lookup(const struct repo_files *rf, const char *name, git_oid *oid)
{
	const struct repo_ref *r;
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *target;
	int kind, ret = -1;

	if (starts_with(name, "refs/")) {
		r = find_ref(rf, name);
		if (r && oid)
			*oid = r->oid;
		return !!r;
	}
	/* outside refs/: a file in the git directory, if git would read it */
	if (!strchr(name, '/') && !all_upper(name))
		return 0;
	strbuf_addf(&path, "%s%s", rf->gitdir.buf, name);
	kind = path_kind(path.buf);
	if (!kind || kind == 'd')
		ret = 0;
	else if (kind == 'f' && !strcmp(name, "HEAD") && !read_small_file(path.buf, &buf)) {
		git_oid tmp;

		if (buf.len >= HEXSZ && !parse_hex(buf.buf, HEXSZ, tmp.id) &&
		    (buf.len == HEXSZ || isspace((unsigned char)buf.buf[HEXSZ]))) {
			if (oid)
				*oid = tmp;
			ret = 1;
		}
		else if (skip_prefix(buf.buf, "ref: ", &target)) {
			strbuf_rtrim(&buf);
			r = starts_with(target, "refs/") ? find_ref(rf, target) : NULL;
			if (r) {	/* an unborn branch is left to libgit2 */
				if (oid)
					*oid = r->oid;
				ret = 1;
			}
		}
	}
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

int repo_files_ref_exists(const struct repo_files *rf, const char *name)
{
	return lookup(rf, name, NULL);
}

static int prefix_matches(const unsigned char *oid, const unsigned char *prefix, size_t hexlen)
{
	if (memcmp(oid, prefix, hexlen / 2))
		return 0;
	return !(hexlen & 1) || (oid[hexlen / 2] & 0xf0) == prefix[hexlen / 2];
}

/* Adds oid to the candidates (at most 2 distinct kept). */
static void add_candidate(git_oid *cand, int *nr, const unsigned char *oid)
{
	if (*nr && !memcmp(cand[0].id, oid, RAWSZ))
		return;
	if (*nr < 2)
		memcpy(cand[*nr].id, oid, RAWSZ);
	if (*nr < 2)
		(*nr)++;
	else
		*nr = 3;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * Adds the objects of a version-2 pack index whose ids start with the
 * first hexlen digits of prefix. Returns 0, or 1 when it is no such index.
 */
static int idx_scan(const unsigned char *map, size_t size, const unsigned char *prefix,
		    size_t hexlen, git_oid *cand, int *nr)
{
	const unsigned char *oids = map + 8 + 256 * 4;
	uint32_t lo = 0, hi, total;

	if (size < 8 + 256 * 4 || memcmp(map, "\377tOc\0\0\0\2", 8))
		return 1;
	total = be32(map + 8 + 255 * 4);
	if (8 + 256 * 4 + (size_t)total * RAWSZ > size)
		return 1;
	hi = total;
	while (lo < hi) {	/* the first id not below prefix */
		uint32_t mid = lo + (hi - lo) / 2;

		if (memcmp(oids + (size_t)mid * RAWSZ, prefix, RAWSZ) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < total && *nr < 3 && prefix_matches(oids + (size_t)lo * RAWSZ, prefix, hexlen); lo++)
		add_candidate(cand, nr, oids + (size_t)lo * RAWSZ);
	return 0;
}

/* Every object whose id starts with hex: in pack indexes, then loose. */
static int find_abbrev(const struct repo_files *rf, const char *hex, size_t len, git_oid *oid)
{
	unsigned char prefix[RAWSZ] = { 0 };
	struct strbuf path = STRBUF_INIT;
	git_oid cand[2];
	int nr = 0, ret = 1;
	DIR *dir;
	struct dirent *de;
	size_t dirlen;

	if (parse_hex(hex, len & ~(size_t)1, prefix) < 0)
		return 1;
	if (len & 1)
		prefix[len / 2] = (unsigned char)(hexval((unsigned char)hex[len - 1]) << 4);
	strbuf_addf(&path, "%sobjects/pack/", rf->gitdir.buf);
	dirlen = path.len;
	dir = opendir(path.buf);
	if (!dir && errno != ENOENT)
		goto done;
	while (dir && (de = readdir(dir))) {
		void *map;
		struct stat st;
		int fd, bad;

		if (!ends_with(de->d_name, ".idx"))
			continue;
		strbuf_setlen(&path, dirlen);
		strbuf_addstr(&path, de->d_name);
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
		map = MAP_FAILED;
		if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0)
			map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (fd >= 0)
			close(fd);
		bad = map == MAP_FAILED ||
		      idx_scan(map, (size_t)st.st_size, prefix, len, cand, &nr);
		if (map != MAP_FAILED)
			munmap(map, (size_t)st.st_size);
		if (bad) {
			closedir(dir);
			goto done;
		}
	}
	if (dir)
		closedir(dir);

	strbuf_setlen(&path, dirlen - strlen("pack/"));
	strbuf_add(&path, hex, 2);
	dir = opendir(path.buf);
	if (!dir && errno != ENOENT)
		goto done;
	while (dir && (de = readdir(dir))) {
		unsigned char raw[RAWSZ];

		if (strlen(de->d_name) != HEXSZ - 2 || strncmp(de->d_name, hex + 2, len - 2))
			continue;
		raw[0] = prefix[0];
		if (parse_hex(de->d_name, HEXSZ - 2, raw + 1) < 0)
			continue;
		add_candidate(cand, &nr, raw);
	}
	if (dir)
		closedir(dir);
	if (nr == 1) {
		*oid = cand[0];
		ret = 0;
	}
done:
	strbuf_release(&path);
	return ret;
}

int repo_files_resolve(struct repo_files *rf, const char *rev, git_oid *oid)
{
	size_t len = strlen(rev), i;
	int found = 0, hex = is_lower_hex(rev, len);
	git_oid first = { { 0 } };

	if (!refname_plain(rev) || len > 200)
		return 1;
	for (i = 0; rev_rules[i]; i++) {
		struct strbuf name = STRBUF_INIT;
		git_oid o;
		int r;

		strbuf_addf(&name, rev_rules[i], rev);
		r = lookup(rf, name.buf, &o);
		strbuf_release(&name);
		if (r < 0)
			return 1;
		if (r && !found++)
			first = o;
	}
	if (found > 1 || (found && hex))
		return 1;	/* git warns, or prefers the object: let it */
	if (found) {
		*oid = first;
		return 0;
	}
	if (!hex || len < 4)
		return 1;
	if (len == HEXSZ)
		return parse_hex(rev, HEXSZ, oid->id) ? 1 : 0;
	if (len > HEXSZ)
		return 1;
	return find_abbrev(rf, rev, len, oid);
}
