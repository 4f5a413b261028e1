# `make install` of this tree into a prefix in the trash directory, for the
# tests of what a user gets (t0960 completion, t0970 install). Source after
# test-lib.sh.
#
#   install_to <prefix>   make install prefix=<prefix>, from the build the
#                         tests run (the same SANITIZE), nothing rebuilt
#                         when make check built it

install_to () {
	(
		unset MAKEFLAGS MFLAGS MAKELEVEL &&
		make -s -C "$MAINT_SRC_DIR" SANITIZE="$MAINT_SANITIZE" install prefix="$1"
	) >"$TRASH_DIRECTORY/install.out" 2>&1 || {
		cat "$TRASH_DIRECTORY/install.out" >&2
		return 1
	}
}
