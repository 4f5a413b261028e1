#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's test command: on a fresh Debian machine, which may lack
# even make, first install what the build and the tests need (as make
# check's deps rule would, had make been there), then run every test:
#
#	sh contrib/check.sh [<make arguments>]	e.g. SANITIZE=address,undefined
#
# Jobs default to the number of cores (MAKEFLAGS=-jN overrides).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/contrib/install-deps.sh"
case " $MAKEFLAGS $* " in
*" -j"*) exec make -C "$top" --no-print-directory check "$@" ;;
esac
exec make -C "$top" --no-print-directory -j"$(nproc 2>/dev/null || echo 1)" check "$@"
