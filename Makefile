# git-maint: one non-recursive Makefile.
#
#   make                      build libmaint.a and the git-maint-* programs
#   make check                install missing build/test packages, build, run all tests
#   make check SANITIZE=address,undefined
#   GIT_TEST_CHAIN_LINT=0 make check   without the && chain check (t/test-lib.sh)
#   make demo                 build a demo repository and mailbox, run the suite on it
#   make bench                run the benchmarks in t/perf/ against git's own tools
#   make fuzz                 build the libFuzzer targets (t/fuzz/) and run each for a while
#                             (FUZZ_TIME=<seconds> each, or FUZZ_RUNS=<inputs> each;
#                             FUZZ=<names> for some of them)
#   make install prefix=...   programs into $(prefix)/bin (parts of commands into
#                             $(prefix)/libexec/git-maint), man pages into $(prefix)/share/man,
#                             bash and zsh completion into $(prefix)/share/bash-completion
#                             and $(prefix)/share/zsh/site-functions
#
# Everything built goes under .build/ (SANITIZE builds under .build/san-<list>/).

prefix ?= $(HOME)/.local
bindir = $(prefix)/bin
# programs that are parts of a command, not commands (git-maint-<cmd>--<part>)
libexecdir = $(prefix)/libexec/git-maint
datarootdir = $(prefix)/share
mandir = $(datarootdir)/man
# shell completion, where bash-completion and zsh look for it (see contrib/completion/)
bashcompdir = $(datarootdir)/bash-completion/completions
zshcompdir = $(datarootdir)/zsh/site-functions

CC ?= cc
CFLAGS ?= -O2 -g
PKGS = libgit2 inih zlib libcrypto
# libcurl and libsecret (with GLib) only for the programs that talk SMTP, fetch mail
# (git-maint-source--fetch) or talk to the Secret Service: the others neither link nor load them
NET_PKGS = libcurl libsecret-1
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(NET_PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
NET_LIBS := $(shell pkg-config --libs $(NET_PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

ALL_CFLAGS = -std=gnu11 -Wall -Wextra -Wno-missing-field-initializers -D_GNU_SOURCE \
	-Icommon $(PKG_CFLAGS) $(CFLAGS)
# --as-needed: a program that calls no libgit2 (describe-contains) does not load it
ALL_LDFLAGS = -Wl,--as-needed $(LDFLAGS)

ifdef SANITIZE
B = .build/san-$(subst $(comma),-,$(SANITIZE))
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
else
B = .build
endif
comma := ,

LIB_SRC := $(sort $(wildcard common/*.c))
LIB_OBJ := $(patsubst common/%.c,$(B)/common/%.o,$(LIB_SRC))
LIB := $(B)/libmaint.a
CMD_SRC := $(sort $(wildcard cmd/*.c))
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

.PHONY: all lib programs doc completion check unit demo bench install deps clean fuzz fuzz-build FORCE
.DELETE_ON_ERROR:

all: programs completion $(UNIT_PROGRAMS) $(HELPER_PROGRAMS) $(PERF_PROGRAMS)
lib: $(LIB)
programs: $(PROGRAMS)
completion: $(ZSH_COMPLETION)

# The command's name, and its description from the NAME line of its man page.
$(B)/completion/zsh/_git-maint-%: contrib/completion/git-maint.zsh Documentation/git-maint-%.adoc
	@mkdir -p $(dir $@)
	desc=$$(sed -n '/^== NAME/{n;s/^[^ ]* - //;s/[\\&|]/\\&/g;p;q;}' Documentation/git-maint-$*.adoc) && \
	sed -e 's|@CMD@|$*|g' -e "s|@DESC@|$$desc|" $< >$@+ && mv $@+ $@

$(B)/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/cmd/%.o: cmd/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

NET_PROGRAMS := $(B)/bin/git-maint-notify $(B)/bin/git-maint-publish $(B)/t/helper/test-secret \
	$(B)/bin/git-maint-source--fetch $(B)/t/unit/test-fetch
$(NET_PROGRAMS): EXTRA_LIBS = $(NET_LIBS)

# main() lives in libmaint.a (common/main.c) and calls the program's cmd_main().
$(B)/bin/git-maint-%: $(B)/cmd/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(EXTRA_LIBS) $(PKG_LIBS)

# Unit tests have their own main() (cmocka), so main.o is left out of their link.
$(B)/t/unit/%: t/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-unused-parameter -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB) $(EXTRA_LIBS) $(PKG_LIBS) $(CMOCKA_LIBS)

# test-objwrite fails libgit2's hash as sha1dc does on an attack (see the test).
$(B)/t/unit/test-objwrite: ALL_LDFLAGS += -Wl,--wrap=git_odb_hash

# Test helpers are small programs with a cmd_main(), like the commands.
$(B)/t/helper/%: t/helper/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB) $(EXTRA_LIBS) $(PKG_LIBS)

$(B)/t/perf/%: t/perf/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

doc: $(MAN_PAGES)
$(B)/man/man1/%.1: Documentation/%.adoc
	@mkdir -p $(dir $@)
	asciidoctor -b manpage -a manversion=git-maint -a manmanual='git-maint Manual' -o $@ $<
$(B)/man/man7/%.7: Documentation/%.adoc
	@mkdir -p $(dir $@)
	asciidoctor -b manpage -a manversion=git-maint -a manmanual='git-maint Manual' -o $@ $<

# Installs the Debian packages the build and tests need, when any is missing.
deps:
	@sh contrib/install-deps.sh

check: deps
	@$(MAKE) --no-print-directory all doc $(if $(HAVE_LIBFUZZER),fuzz-build)
	@cd t && MAINT_BUILD_DIR='$(CURDIR)/$(B)' MAINT_FUZZ_DIR='$(CURDIR)/$(FUZZ_B)' \
		MAINT_SANITIZE='$(SANITIZE)' prove --timer -j2 $(PROVE_OPTS) \
		$(patsubst %,../%,$(UNIT_PROGRAMS)) $(if $(T),$(T),t[0-9]*.sh)

unit: $(UNIT_PROGRAMS)
	@cd t && MAINT_BUILD_DIR='$(CURDIR)/$(B)' prove $(patsubst %,../%,$(UNIT_PROGRAMS))

demo: deps
	@$(MAKE) --no-print-directory programs doc
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
	-Icommon $(PKG_CFLAGS) -g -O2 $(FUZZ_SAN)
FUZZ_SRC := $(sort $(wildcard t/fuzz/fuzz-*.c))
FUZZ_NAMES := $(patsubst t/fuzz/fuzz-%.c,%,$(FUZZ_SRC))
FUZZ_TARGETS := $(patsubst %,$(FUZZ_B)/fuzz-%,$(FUZZ_NAMES))
FUZZ_LIB_OBJ := $(patsubst common/%.c,$(FUZZ_B)/common/%.o,$(LIB_SRC))
# (main.o stays in the archive unused: libFuzzer brings its own main())
FUZZ_LIB := $(FUZZ_B)/libmaint.a
FUZZ_TIME ?= 60
FUZZ ?= $(FUZZ_NAMES)
# Can clang link a libFuzzer target here? (asked only by make check)
HAVE_LIBFUZZER = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null && echo yes)

fuzz-build: $(FUZZ_TARGETS)

$(FUZZ_B)/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_B)/fuzz-%: t/fuzz/fuzz-%.c $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(FUZZ_LIB) $(PKG_LIBS)

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@for t in $(FUZZ); do \
		sh t/fuzz/run.sh '$(FUZZ_B)' "$$t" $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME)) || exit 1; \
	done

install: programs doc completion
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(libexecdir)' \
		'$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7' \
		'$(DESTDIR)$(bashcompdir)' '$(DESTDIR)$(zshcompdir)'
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

clean:
	rm -rf .build t/trash\ directory.* t/test-results t/perf/out demo

-include $(LIB_OBJ:.o=.d) $(patsubst $(B)/bin/git-maint-%,$(B)/cmd/%.d,$(PROGRAMS))
-include $(UNIT_PROGRAMS:=.d) $(HELPER_PROGRAMS:=.d) $(PERF_PROGRAMS:=.d)
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_TARGETS:=.d)
