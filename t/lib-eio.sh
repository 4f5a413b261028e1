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
# directory: built once a run in the run's cache (test_cache, test-lib.sh),
# or, when the cache's path has a space (a script run by hand keeps it in
# its trash directory), once a script in a directory of its own. Under
# ASan it comes before the sanitizer's runtime.

eio_build () {
	cc -shared -fPIC -o eio-write.so "$MAINT_SRC_DIR/t/lib/eio-write.c" -ldl 2>eio-cc.err
}

case $MAINT_TEST_CACHE in
*" "*)
	eio_shim_dir=$(mktemp -d "${TMPDIR:-/tmp}/maint-eio.XXXXXX")
	cleanup 'rm -rf "$eio_shim_dir"'
	(cd "$eio_shim_dir" && eio_build)
	;;
*)
	test_cache eio-shim "$MAINT_SRC_DIR/t/lib/eio-write.c" -- eio_build
	eio_shim_dir=$TEST_CACHE
	;;
esac && eio_shim=$eio_shim_dir/eio-write.so && test -f "$eio_shim" &&
test_set_prereq EIO
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
