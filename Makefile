# SPDX-License-Identifier: GPL-2.0-only
# git-maint: one non-recursive Makefile.
#
#   make                      build the library's layers and the git-maint-* programs
#   make check                install missing build/test packages, build, run all tests
#   make check SANITIZE=address,undefined
#   GIT_TEST_CHAIN_LINT=0 make check   without the && chain check (t/test-lib.sh)
#   make check T='t04*.sh'    some of the test scripts (TEST_JOBS=<n> at once, default 4;
#                             trash directories under TEST_ROOT, default in /dev/shm)
#   make demo                 build a demo repository and mailbox, run the suite on it
#   make bench                run the benchmarks in t/perf/ against git's own tools
#   make fuzz                 build the libFuzzer targets (t/fuzz/) and run each for a while
#                             (FUZZ_TIME=<seconds> each, or FUZZ_RUNS=<inputs> each;
#                             FUZZ=<names> for some of them)
#   make install prefix=...   programs into $(prefix)/bin (parts of commands into
#                             $(prefix)/libexec/git-maint), man pages into $(prefix)/share/man,
#                             bash and zsh completion into $(prefix)/share/bash-completion
#                             and $(prefix)/share/zsh/site-functions (DESTDIR= for a package)
#   make uninstall prefix=... removes what make install put there
#
# CC, CFLAGS, CPPFLAGS and LDFLAGS are honoured, as distributions pass them.
#
# Everything built goes under .build/ (SANITIZE builds under .build/san-<list>/).

# `make` alone builds everything (the pkgs-<layer> rules below come first)
.DEFAULT_GOAL := all

prefix ?= $(HOME)/.local
bindir = $(prefix)/bin
# programs that are parts of a command, not commands (git-maint-<cmd>--<part>)
libexecdir = $(prefix)/libexec/git-maint
datarootdir = $(prefix)/share
mandir = $(datarootdir)/man
# shell completion, where bash-completion and zsh look for it (see contrib/completion/)
bashcompdir = $(datarootdir)/bash-completion/completions
zshcompdir = $(datarootdir)/zsh/site-functions
# the prompt helper (contrib/completion/git-maint-prompt.sh), to source from a shell's rc file
sharedir = $(datarootdir)/git-maint

CC ?= cc
CFLAGS ?= -O2 -g

# `make` with no target builds everything (the first rule below is a check, not the goal)
.DEFAULT_GOAL := all

# The version every program prints for --version (common/base/version.h):
# the number in VERSION, and the commit when this is a git checkout
# ("0.1.0 (abc1234)", "-dirty" after it when the work tree has changes).
# $(B)/VERSION-STRING changes only when the string does, so a new commit
# rebuilds version.o and relinks, nothing more.
MAINT_VERSION := $(strip $(file <VERSION))$(shell test -e .git && \
	c=$$(git rev-parse --short=7 HEAD 2>/dev/null) && \
	{ git diff-index --quiet HEAD -- 2>/dev/null && echo " ($$c)" || echo " ($$c-dirty)"; })

# ---- the library's layers ----
#
# common/ is grouped by what a part links, one directory and one archive
# (libmaint-<layer>.a) per layer:
#
#   base      libc: messages, strings, options, the INI config (inih),
#             running programs, SHA-1 for checksums and ids (our own),
#             libraries loaded on first use (dynlib.h)
#   mail      base: mail sources, parsing, classification, selection,
#             writers, the patch parser, composing mail (zlib); commit
#             messages and trailers, review from replies, patch ids,
#             git's rename search (renames, rename-score); attestation
#             (libopendkim and the resolver's parser, OpenSSL's libcrypto,
#             each loaded on first use: DLOPEN_PKGS)
#   net       mail, base: SMTP, HTTP, IMAP (libcurl), the Secret
#             Service (libsecret), both loaded on first use
#             (DLOPEN_PKGS), archives and the fetcher
#   repo      net, mail, base: libgit2: repository, objects, apply,
#             the guarded step, push, notes, state, range-diff, tree
#             changes and the diffstat as git diff -M prints them
#   describe  base, and repo for its libgit2 part only: commit-graph,
#             commit store, peel cache, refs from files, describe
#   engine    every layer below: one engine per command, the steps it
#             takes in order (mbox-split, dry-apply, queue, notify,
#             publish, request-pull, describe-contains); cmd/<name>.c parses the
#             options, calls its engine and exits with what it returns
#
# A layer's code includes and calls its own layer and those it uses,
# never a layer above: each layer is compiled with only those include
# directories and each program is linked with only the archives it
# names, highest first, so an include or a call up is a build error.
LAYERS = base mail net repo describe engine
base_USES =
mail_USES = base
net_USES = mail base
repo_USES = net mail base
describe_USES = repo base
engine_USES = describe repo net mail base
# The libraries (pkg-config names) a layer's code calls; describe takes
# only git_oid from <git2.h>.
base_PKGS = inih
mail_PKGS = zlib opendkim libcrypto
net_PKGS = libcurl libsecret-1
repo_PKGS = libgit2
describe_PKGS =
engine_PKGS =
describe_HEADERS = libgit2
# Libraries compiled against but linked to nothing: loaded by the code
# that uses them when it first does (common/base/dynlib.h), so the many
# runs that send, fetch, ask for nothing and read no signature never map
# them and the ~30 libraries under them. (The resolver's parser of
# answers, ns_initparse(), comes with libopendkim the same way, from
# libresolv.so.2; res_nquery() is the C library's.)
DLOPEN_PKGS = libcurl libsecret-1 opendkim libcrypto

# Each program and the layers it links; every other library stays out of
# it (t/t0001 checks with ldd).
mbox-split_LAYERS = engine mail base
dry-apply_LAYERS = engine repo mail base
queue_LAYERS = engine repo mail base
notify_LAYERS = engine repo net mail base
publish_LAYERS = engine repo net mail base
request-pull_LAYERS = engine repo net mail base
source--fetch_LAYERS = net mail base
describe-contains_LAYERS = engine describe base
describe-contains--libgit2_LAYERS = engine describe repo base
# tests, helpers, benchmarks and fuzz targets link every layer
ALL_LAYERS = engine describe repo net mail base

# One pkg-config check for a rule's libraries, then one per library only
# when that fails, so a missing one names its Debian package
# (contrib/install-deps.sh installs them all): 7 pkg-config runs a make,
# not 30 (the tests run make eight times).
PKG_NAMES = libgit2 inih zlib libcrypto libcurl libsecret-1 cmocka opendkim
deb_libgit2 = libgit2-dev
deb_inih = libinih-dev
deb_zlib = zlib1g-dev
deb_libcrypto = libssl-dev
deb_libcurl = libcurl4-openssl-dev
deb_libsecret-1 = libsecret-1-dev
deb_cmocka = libcmocka-dev
deb_opendkim = libopendkim-dev
$(foreach p,$(PKG_NAMES),$(eval pkg_cflags_$(p) := $(shell pkg-config --cflags $(p) 2>/dev/null)))
$(foreach p,$(PKG_NAMES),$(eval pkg_libs_$(p) := $(shell pkg-config --libs $(p) 2>/dev/null)))
check_pkgs = @pkg-config --exists $(1) 2>/dev/null || { \
	missing=; for p in $(foreach p,$(1),$(p):$(deb_$(p))); do \
		pkg-config --exists "$${p%%:*}" || missing="$$missing $${p\#*:}"; done; \
	test -z "$$missing" || { echo "error: pkg-config does not find what this needs; install:$$missing" \
		"(or run 'sh contrib/install-deps.sh' for everything the build and tests need)" >&2; exit 1; }; }
.PHONY: $(addprefix pkgs-,$(LAYERS) test)
$(addprefix pkgs-,$(LAYERS)): pkgs-%:
	$(call check_pkgs,$(call layers_pkgs,$(call layer_closure,$*)) $($*_HEADERS))
pkgs-test:
	$(call check_pkgs,$(PKG_NAMES))

# A layer and those it uses; their libraries; the flags to compile it.
layer_closure = $(1) $($(1)_USES)
layers_pkgs = $(sort $(foreach l,$(1),$($(l)_PKGS)))
layer_cflags = $(foreach l,$(call layer_closure,$(1)),-Icommon/$(l)) \
	$(foreach p,$(sort $(call layers_pkgs,$(call layer_closure,$(1))) $($(1)_HEADERS)),$(pkg_cflags_$(p)))
# What a program built from the layers $(1) links, in order, and with.
layers_archives = $(foreach l,$(1),$(B)/libmaint-$(l).a)
layers_libs = $(foreach p,$(filter-out $(DLOPEN_PKGS),$(call layers_pkgs,$(1))),$(pkg_libs_$(p))) \
	$(foreach l,$(1),$($(l)_LIBS))

ALL_CFLAGS = -std=gnu11 -Wall -Wextra -Wno-missing-field-initializers -D_GNU_SOURCE $(CPPFLAGS) $(CFLAGS)
# --as-needed: a program loads only the libraries it calls
ALL_LDFLAGS = -Wl,--as-needed $(LDFLAGS)

ifdef SANITIZE
B = .build/san-$(subst $(comma),-,$(SANITIZE))
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
else
B = .build
endif
comma := ,

STRAY := $(wildcard common/*.c common/*.h)
ifneq ($(STRAY),)
$(error $(STRAY): every part of common/ belongs to a layer: move it to common/<layer>/ (see LAYERS))
endif
LIB_SRC := $(sort $(foreach l,$(LAYERS),$(wildcard common/$(l)/*.c)))
LIB_OBJ := $(patsubst common/%.c,$(B)/common/%.o,$(LIB_SRC))
LIBS := $(call layers_archives,$(LAYERS))
CMD_SRC := $(sort $(wildcard cmd/*.c))
# cmd/<command>/: code shared by git-maint-<command> and its parts git-maint-<command>--<part>
CMD_SHARED_SRC := $(sort $(wildcard cmd/*/*.c))
PROGRAMS := $(patsubst cmd/%.c,$(B)/bin/git-maint-%,$(CMD_SRC))
PART_PROGRAMS := $(foreach p,$(PROGRAMS),$(if $(findstring --,$(notdir $(p))),$(p)))
COMMAND_PROGRAMS := $(filter-out $(PART_PROGRAMS),$(PROGRAMS))
UNIT_SRC := $(sort $(wildcard t/unit/test-*.c))
UNIT_PROGRAMS := $(patsubst t/unit/%.c,$(B)/t/unit/%,$(UNIT_SRC))
HELPER_SRC := $(sort $(wildcard t/helper/test-*.c))
HELPER_PROGRAMS := $(patsubst t/helper/%.c,$(B)/t/helper/%,$(HELPER_SRC))
PERF_SRC := $(sort $(wildcard t/perf/*.c))
PERF_PROGRAMS := $(patsubst t/perf/%.c,$(B)/t/perf/%,$(PERF_SRC))
# zsh: one _git-maint-<command> per command, from one template
ZSH_COMPLETION := $(patsubst $(B)/bin/%,$(B)/completion/zsh/_%,$(COMMAND_PROGRAMS))
DOC_SRC := $(sort $(wildcard Documentation/git-maint*.adoc))
MAN_PAGES := $(foreach d,$(DOC_SRC),$(B)/man/$(if $(filter git-maint.adoc,$(notdir $d)),man7,man1)/$(basename $(notdir $d)).$(if $(filter git-maint.adoc,$(notdir $d)),7,1))

.PHONY: all lib programs doc completion check unit demo bench install uninstall deps deps-demo clean fuzz fuzz-build FORCE
.DELETE_ON_ERROR:
.SECONDEXPANSION:

# As git's Makefile: one short line per file built ("    CC common/base/usage.o");
# V=1 shows the whole commands, make -s nothing.
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),s)
ifneq ($(V),1)
QUIET_CC = @echo '   ' CC $@;
QUIET_AR = @echo '   ' AR $@;
QUIET_LINK = @echo '   ' LINK $@;
QUIET_GEN = @echo '   ' GEN $@;
endif
endif

all: programs completion $(UNIT_PROGRAMS) $(HELPER_PROGRAMS) $(PERF_PROGRAMS)
lib: $(LIBS)
programs: $(PROGRAMS)
completion: $(ZSH_COMPLETION)

# The command's name, and its description from the NAME line of its man page.
$(B)/completion/zsh/_git-maint-%: contrib/completion/git-maint.zsh Documentation/git-maint-%.adoc
	@mkdir -p $(dir $@)
	$(QUIET_GEN)desc=$$(sed -n '/^== NAME/{n;s/^[^ ]* - //;s/[\\&|]/\\&/g;p;q;}' Documentation/git-maint-$*.adoc) && \
	sed -e 's|@CMD@|$*|g' -e "s|@DESC@|$$desc|" $< >$@+ && mv $@+ $@

define layer_rules
$(1)_OBJ := $$(filter $$(B)/common/$(1)/%,$$(LIB_OBJ))
$$(B)/common/$(1)/%.o: common/$(1)/%.c | pkgs-$(1)
	@mkdir -p $$(dir $$@)
	$$(QUIET_CC)$$(CC) $$(ALL_CFLAGS) $$(call layer_cflags,$(1)) -MMD -MP -c -o $$@ $$<
$$(B)/libmaint-$(1).a: $$($(1)_OBJ)
	@rm -f $$@
	$$(QUIET_AR)$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_rules,$(l))))

$(B)/VERSION-STRING: FORCE
	@mkdir -p $(dir $@)
	@test "$$(cat $@ 2>/dev/null)" = '$(MAINT_VERSION)' || echo '$(MAINT_VERSION)' >$@
$(B)/common/base/version.o: $(B)/VERSION-STRING
$(B)/common/base/version.o: ALL_CFLAGS += -DMAINT_VERSION='"$(MAINT_VERSION)"'

# A program's layers: git-maint-<cmd>--<part> and cmd/<cmd>/ take <cmd>'s unless they name their own.
prog_layers = $(or $($(1)_LAYERS),$($(firstword $(subst --, ,$(1)))_LAYERS),$(error $(1): which layers does it link? (<name>_LAYERS in the Makefile)))
prog_cflags = $(foreach l,$(call prog_layers,$(1)),$(call layer_cflags,$(l)))
prog_shared = $(patsubst cmd/%.c,$(B)/cmd/%.o,$(wildcard cmd/$(firstword $(subst --, ,$(1)))/*.c))

$(B)/cmd/%.o: cmd/%.c | $$(addprefix pkgs-,$$(call prog_layers,$$(firstword $$(subst /, ,$$*))))
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(call prog_cflags,$(firstword $(subst /, ,$*))) -Icmd/$(firstword $(subst --, ,$(firstword $(subst /, ,$*)))) -MMD -MP -c -o $@ $<

# The programs' objects are kept: as intermediate files make would delete them
# after each link ("rm .build/cmd/queue.o ...") and build and link every
# program again next time.
.SECONDARY: $(patsubst cmd/%.c,$(B)/cmd/%.o,$(wildcard cmd/*.c cmd/*/*.c))

# main() lives in the base layer (common/base/main.c) and calls the program's cmd_main().
$(B)/bin/git-maint-%: $(B)/cmd/%.o $$(call prog_shared,$$*) $$(call layers_archives,$$(call prog_layers,$$*))
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(call layers_archives,$(call prog_layers,$*)) \
		$(call layers_libs,$(call prog_layers,$*))

TEST_CFLAGS = $(foreach l,$(LAYERS),-Icommon/$(l)) $(foreach p,$(PKG_NAMES),$(pkg_cflags_$(p)))
TEST_LIBS = $(call layers_archives,$(ALL_LAYERS)) $(call layers_libs,$(ALL_LAYERS))

# Unit tests have their own main() (cmocka), so main.o is left out of their link.
$(B)/t/unit/%: t/unit/%.c $(LIBS) | pkgs-test
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Wno-unused-parameter -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(TEST_LIBS) \
		$(pkg_libs_cmocka)

# test-objwrite fails libgit2's hash as sha1dc does on an attack (see the test).
$(B)/t/unit/test-objwrite: ALL_LDFLAGS += -Wl,--wrap=git_odb_hash

# Test helpers are small programs with a cmd_main(), like the commands.
$(B)/t/helper/%: t/helper/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(TEST_LIBS)

$(B)/t/perf/%: t/perf/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(TEST_LIBS)

doc: $(MAN_PAGES)
	@:
$(B)/man/man1/%.1: Documentation/%.adoc
	@mkdir -p $(dir $@)
	$(QUIET_GEN)asciidoctor -b manpage -a manversion='git-maint $(file <VERSION)' -a manmanual='git-maint Manual' -o $@ $<
$(B)/man/man7/%.7: Documentation/%.adoc
	@mkdir -p $(dir $@)
	$(QUIET_GEN)asciidoctor -b manpage -a manversion='git-maint $(file <VERSION)' -a manmanual='git-maint Manual' -o $@ $<

# Installs the Debian packages the build and tests need, when any is missing.
deps:
	@sh contrib/install-deps.sh
# ... and only those the demo needs, quietly (apt's output in a file).
deps-demo:
	@sh contrib/install-deps.sh --demo

# The unit tests print the errors they provoke ("error: buf: message 2 exceeds
# max size"); --merge keeps them off the terminal, where they read as failures
# (PROVE_OPTS=-v shows them, or run the program: .build/t/unit/test-mail).
#
# The tests' trash directories go under TEST_ROOT: by default a directory
# of this checkout's own in /dev/shm, as git's --root lets one do. The
# suite writes and syncs a few GB of small files; on a disk that is most
# of its time (t0306: 6.7 s on disk, 1.0 s in memory). Only when /dev/shm
# has 2 GiB free (a container's may have 64 MB; t0307 alone keeps 80 MB).
# TEST_ROOT= keeps them in t/. A failed test leaves its trash directory
# there to look at.
TEST_ROOT ?= $(shell test -d /dev/shm -a -w /dev/shm && \
	test "$$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $$4 }')" -ge 2097152 2>/dev/null && \
	echo /dev/shm/git-maint-tests-$$(printf %s '$(CURDIR)' | cksum | cut -d' ' -f1))
# Test scripts run at once: more than the cores, as for git's suite, since
# a script waits on its servers and pipes about 40% of its time (on two
# cores: 93 s at -j2, 75 s at -j3, 65 s at -j4).
TEST_JOBS ?= 4
# python3 resolved once for every script: a link to the interpreter that
# "python3" runs, in $(B)/t/python, which t/test-lib.sh puts first in
# PATH (a version manager's shim, pyenv's, costs half a second a call).
TEST_PYTHON_DIR = $(CURDIR)/$(B)/t/python
# The run's cache of generated fixtures (t/test-lib.sh's test_cache): a
# directory of the run's own, removed at its end.
TEST_CACHE = $(or $(TEST_ROOT),$(CURDIR)/t)/cache
# The scripts to run (T, or all), the slowest first: started last, one of
# them would run on alone at the end while the cores wait. By CPU time
# (user+sys of each script under /usr/bin/time in one whole run), slowest
# first; a script not listed runs after these.
TEST_SLOW = t0305-apply-protected-names.sh t0612-notify-faults.sh t0500-describe-contains.sh \
	t0751-request-pull-send.sh t0120-attest.sh t0104-mail-hostile-limits.sh t0307-dry-apply-memory.sh \
	t0960-completion.sh t0800-fetch-archive.sh t0214-series-sources.sh t0211-b4-trailers.sh t0103-fuzz.sh \
	t0990-demo.sh t0701-publish-crash.sh t0740-publish-notify.sh t0301-dry-apply-oracle.sh \
	t0810-fetch-imap.sh t0410-queue-am.sh
TEST_SCRIPTS = $(patsubst t/%,%,$(sort $(wildcard $(addprefix t/,$(or $(T),t[0-9]*.sh)))))
TEST_ORDER = $(foreach s,$(TEST_SLOW),$(filter $(s),$(TEST_SCRIPTS))) \
	$(filter-out $(TEST_SLOW),$(TEST_SCRIPTS))
check: deps
	@$(MAKE) --no-print-directory all doc $(if $(HAVE_LIBFUZZER),fuzz-build)
	@$(if $(TEST_ROOT),mkdir -p '$(TEST_ROOT)' &&) \
	cache='$(TEST_CACHE)'.$$$$ && trap 'rm -rf "$$cache"' EXIT && \
	export MAINT_TEST_CACHE="$$cache" && \
	rm -rf '$(TEST_PYTHON_DIR)' && \
	if py=$$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && test -x "$$py"; then \
		mkdir -p '$(TEST_PYTHON_DIR)' && ln -s "$$py" '$(TEST_PYTHON_DIR)/python3' && \
		export MAINT_TEST_PYTHON_DIR='$(TEST_PYTHON_DIR)'; fi && \
	cd t && export MAINT_BUILD_DIR='$(CURDIR)/$(B)' MAINT_FUZZ_DIR='$(CURDIR)/$(FUZZ_B)' \
		MAINT_SANITIZE='$(SANITIZE)' && \
		prove --timer --merge $(PROVE_OPTS) $(patsubst %,../%,$(UNIT_PROGRAMS)) && \
		{ prove --timer -j$(TEST_JOBS) $(PROVE_OPTS) $(or $(strip $(TEST_ORDER)),$(T)) \
			$(if $(TEST_ROOT),:: --root='$(TEST_ROOT)') || \
		{ echo "the failed tests' trash directories are in $(or $(TEST_ROOT),t/)" >&2; exit 1; }; }

unit: $(UNIT_PROGRAMS)
	@cd t && MAINT_BUILD_DIR='$(CURDIR)/$(B)' prove $(patsubst %,../%,$(UNIT_PROGRAMS))

demo: deps-demo
	@$(MAKE) --no-print-directory programs
	@MAINT_BUILD_DIR='$(CURDIR)/$(B)' sh contrib/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@MAINT_BUILD_DIR='$(CURDIR)/$(B)' sh t/perf/run.sh $(BENCH)

# ---- fuzzing (clang's libFuzzer) ----
#
# One target per parser and engine, t/fuzz/fuzz-<name>.c, linked against
# the library built again with clang for libFuzzer (coverage) and
# ASan+UBSan, under .build/fuzz/ whatever SANITIZE says. `make fuzz`
# replays each target's regressions (t/fuzz/regressions/<name>/), then
# fuzzes it from its seeds (t/fuzz/corpus/<name>/) into a work corpus
# (.build/fuzz/corpus/<name>/, kept between runs); a crash leaves its
# input in .build/fuzz/crashes/<name>/ and fails. `make check` runs each
# target briefly through t/t0103-fuzz.sh.
FUZZ_CC = clang
FUZZ_B = .build/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -Wall -Wextra -Wno-missing-field-initializers -D_GNU_SOURCE \
	$(TEST_CFLAGS) -g -O2 $(FUZZ_SAN)
FUZZ_SRC := $(sort $(wildcard t/fuzz/fuzz-*.c))
FUZZ_NAMES := $(patsubst t/fuzz/fuzz-%.c,%,$(FUZZ_SRC))
FUZZ_TARGETS := $(patsubst %,$(FUZZ_B)/fuzz-%,$(FUZZ_NAMES))
FUZZ_LIB_OBJ := $(patsubst common/%.c,$(FUZZ_B)/common/%.o,$(LIB_SRC))
# (one archive of every layer; main.o stays in it unused: libFuzzer brings its own main())
FUZZ_LIB := $(FUZZ_B)/libmaint.a
FUZZ_TIME ?= 60
FUZZ ?= $(FUZZ_NAMES)
# Can clang link a libFuzzer target here? (asked only by make check)
HAVE_LIBFUZZER = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null && echo yes)

fuzz-build: $(FUZZ_TARGETS)
	@:

$(FUZZ_B)/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

$(FUZZ_B)/fuzz-%: t/fuzz/fuzz-%.c $(FUZZ_LIB)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(FUZZ_LIB) \
		$(call layers_libs,$(ALL_LAYERS))

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@for t in $(FUZZ); do \
		sh t/fuzz/run.sh '$(FUZZ_B)' "$$t" $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME)) || exit 1; \
	done

install: programs doc completion
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(libexecdir)' \
		'$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7' \
		'$(DESTDIR)$(bashcompdir)' '$(DESTDIR)$(zshcompdir)' '$(DESTDIR)$(sharedir)'
	$(if $(COMMAND_PROGRAMS),install -m 755 $(COMMAND_PROGRAMS) '$(DESTDIR)$(bindir)')
	$(if $(PART_PROGRAMS),install -m 755 $(PART_PROGRAMS) '$(DESTDIR)$(libexecdir)')
	for m in $(MAN_PAGES); do \
		case $$m in *.7) d=man7;; *) d=man1;; esac; \
		install -m 644 $$m '$(DESTDIR)$(mandir)'/$$d || exit 1; \
	done
	install -m 644 contrib/completion/git-maint.bash '$(DESTDIR)$(bashcompdir)/git-maint'
	for p in $(notdir $(COMMAND_PROGRAMS)); do \
		ln -sf git-maint '$(DESTDIR)$(bashcompdir)'/$$p || exit 1; \
	done
	install -m 644 $(ZSH_COMPLETION) '$(DESTDIR)$(zshcompdir)'
	install -m 644 contrib/completion/git-maint-prompt.sh '$(DESTDIR)$(sharedir)'

# Every file install puts there, and libexec/git-maint and share/git-maint, which are ours;
# the directories shared with other software stay.
uninstall:
	rm -f $(foreach p,$(notdir $(COMMAND_PROGRAMS)),'$(DESTDIR)$(bindir)/$(p)' \
		'$(DESTDIR)$(bashcompdir)/$(p)' '$(DESTDIR)$(zshcompdir)/_$(p)') \
		$(foreach p,$(notdir $(PART_PROGRAMS)),'$(DESTDIR)$(libexecdir)/$(p)') \
		$(foreach m,$(MAN_PAGES),'$(DESTDIR)$(mandir)/$(patsubst .%,man%,$(suffix $(m)))/$(notdir $(m))') \
		'$(DESTDIR)$(bashcompdir)/git-maint' '$(DESTDIR)$(sharedir)/git-maint-prompt.sh'
	rmdir '$(DESTDIR)$(libexecdir)' '$(DESTDIR)$(sharedir)' 2>/dev/null || :

clean:
	rm -rf .build t/trash\ directory.* t/test-results t/cache.* t/perf/out demo

-include $(LIB_OBJ:.o=.d) $(patsubst $(B)/bin/git-maint-%,$(B)/cmd/%.d,$(PROGRAMS))
-include $(patsubst cmd/%.c,$(B)/cmd/%.d,$(CMD_SHARED_SRC))
-include $(UNIT_PROGRAMS:=.d) $(HELPER_PROGRAMS:=.d) $(PERF_PROGRAMS:=.d)
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_TARGETS:=.d)
