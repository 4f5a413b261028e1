# SPDX-License-Identifier: GPL-2.0-only
# Disk write errors for the tests (reliability case 23): t/lib/eio-write.c,
# built here as an LD_PRELOAD shim, makes write() and writev() fail with
# EIO on files whose path has $EIO_WRITE_PATH as whole components. Source
# it after test-lib.sh; tests that use it need the EIO prerequisite (set
# when cc builds the shim).
#
#   eio <path part> <command>...   runs the command with writes there failing
#
# LD_PRELOAD splits on spaces, so the shim lives outside the trash
# directory; under ASan it comes before the sanitizer's runtime.

eio_shim_dir=$(mktemp -d "${TMPDIR:-/tmp}/maint-eio.XXXXXX")
eio_shim=$eio_shim_dir/eio-write.so
cleanup 'rm -rf "$eio_shim_dir"'
if cc -shared -fPIC -o "$eio_shim" "$MAINT_SRC_DIR/t/lib/eio-write.c" -ldl 2>eio-cc.err
then
	test_set_prereq EIO
fi
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

eio () {
	(
		EIO_WRITE_PATH=$1 LD_PRELOAD=$eio_shim &&
		export EIO_WRITE_PATH LD_PRELOAD &&
		shift &&
		exec "$@"
	)
}
