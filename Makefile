# git-maint: one non-recursive Makefile.
#
#   make                      build libmaint.a and the git-maint-* programs
#   make check                install missing build/test packages, build, run all tests
#   make check SANITIZE=address,undefined
#   GIT_TEST_CHAIN_LINT=0 make check   without the && chain check (t/test-lib.sh)
#   make demo                 build a demo repository and mailbox, run the suite on it
#   make bench                run the benchmarks in t/perf/ against git's own tools
#   make install prefix=...   programs into $(prefix)/bin (parts of commands into
#                             $(prefix)/libexec/git-maint), man pages into $(prefix)/share/man
#
# Everything built goes under .build/ (SANITIZE builds under .build/san-<list>/).

prefix ?= $(HOME)/.local
bindir = $(prefix)/bin
# programs that are parts of a command, not commands (git-maint-<cmd>--<part>)
libexecdir = $(prefix)/libexec/git-maint
mandir = $(prefix)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
PKGS = libgit2 libcurl libsecret-1 inih zlib libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
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
DOC_SRC := $(sort $(wildcard Documentation/git-maint*.adoc))
MAN_PAGES := $(foreach d,$(DOC_SRC),$(B)/man/$(if $(filter git-maint.adoc,$(notdir $d)),man7,man1)/$(basename $(notdir $d)).$(if $(filter git-maint.adoc,$(notdir $d)),7,1))

.PHONY: all lib programs doc check unit demo bench install deps clean FORCE
.DELETE_ON_ERROR:

all: programs $(UNIT_PROGRAMS) $(HELPER_PROGRAMS) $(PERF_PROGRAMS)
lib: $(LIB)
programs: $(PROGRAMS)

$(B)/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/cmd/%.o: cmd/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# main() lives in libmaint.a (common/main.c) and calls the program's cmd_main().
$(B)/bin/git-maint-%: $(B)/cmd/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

# Unit tests have their own main() (cmocka), so main.o is left out of their link.
$(B)/t/unit/%: t/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-unused-parameter -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(CMOCKA_LIBS)

# Test helpers are small programs with a cmd_main(), like the commands.
$(B)/t/helper/%: t/helper/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

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
	@$(MAKE) --no-print-directory all doc
	@cd t && MAINT_BUILD_DIR='$(CURDIR)/$(B)' prove --timer -j2 $(PROVE_OPTS) \
		$(patsubst %,../%,$(UNIT_PROGRAMS)) $(if $(T),$(T),t[0-9]*.sh)

unit: $(UNIT_PROGRAMS)
	@cd t && MAINT_BUILD_DIR='$(CURDIR)/$(B)' prove $(patsubst %,../%,$(UNIT_PROGRAMS))

demo: deps
	@$(MAKE) --no-print-directory programs doc
	@MAINT_BUILD_DIR='$(CURDIR)/$(B)' sh contrib/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@MAINT_BUILD_DIR='$(CURDIR)/$(B)' sh t/perf/run.sh $(BENCH)

install: programs doc
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(libexecdir)' \
		'$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7'
	$(if $(COMMAND_PROGRAMS),install -m 755 $(COMMAND_PROGRAMS) '$(DESTDIR)$(bindir)')
	$(if $(PART_PROGRAMS),install -m 755 $(PART_PROGRAMS) '$(DESTDIR)$(libexecdir)')
	for m in $(MAN_PAGES); do \
		case $$m in *.7) d=man7;; *) d=man1;; esac; \
		install -m 644 $$m '$(DESTDIR)$(mandir)'/$$d || exit 1; \
	done

clean:
	rm -rf .build t/trash\ directory.* t/test-results t/perf/out demo

-include $(LIB_OBJ:.o=.d) $(patsubst $(B)/bin/git-maint-%,$(B)/cmd/%.d,$(PROGRAMS))
-include $(UNIT_PROGRAMS:=.d) $(HELPER_PROGRAMS:=.d) $(PERF_PROGRAMS:=.d)
