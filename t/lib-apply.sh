# SPDX-License-Identifier: GPL-2.0-only
# Helpers shared by the dry-apply tests (t03xx) and t0900. Sourced after test-lib.sh.

# create_diff <path>: a git diff creating <path> (unquoted or as given),
# holding "hello world".
create_diff () {
	printf "diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..3b18e51\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+hello world\n" "$1" "$1" "$1"
}

# delete_diff <path> [<line>]: a git diff deleting <path>, which holds
# the one line <line> (default "content").
delete_diff () {
	set -- "$1" "${2-content}" &&
	printf "diff --git a/%s b/%s\ndeleted file mode 100644\nindex %s..0000000\n--- a/%s\n+++ /dev/null\n@@ -1 +0,0 @@\n-%s\n" \
		"$1" "$1" "$(printf "%s\n" "$2" | git hash-object --stdin | cut -c1-7)" "$1" "$2"
}

# rename_symlink_then <create|modify|delete|none> [<line>]: a tracked
# "symlink" renamed to renamed-symlink, then a write beyond it (t4115,
# CVE-2023-23946); <line> is what renamed-symlink/delete-me holds.
rename_symlink_then () {
	printf "%s\n" "diff --git a/symlink b/renamed-symlink" "similarity index 100%" \
		"rename from symlink" "rename to renamed-symlink"
	case "$1" in
	create) create_diff renamed-symlink/create-me ;;
	modify) printf "%s\n" "diff --git a/renamed-symlink/modify-me b/renamed-symlink/modify-me" \
		"--- a/renamed-symlink/modify-me" "+++ b/renamed-symlink/modify-me" \
		"@@ -1 +1 @@" "-old" "+new" ;;
	delete) delete_diff renamed-symlink/delete-me "$2" ;;
	esac
}

# preimage_from_patches <patch>...: writes, under the current directory,
# the files the patches expect: each hunk's context and removed lines at
# their old line numbers, "/* filler N */" lines elsewhere.
preimage_from_patches () {
	awk '
	/^diff --git / { f = substr($4, 3); files[f] = 1; next }
	/^@@ / { split($2, a, ","); pos = substr(a[1], 2) + 0; inhunk = 1; next }
	inhunk && /^[ -]/ { text[f, pos] = substr($0, 2); if (pos > max[f]) max[f] = pos; pos++; next }
	inhunk && /^\+/ { next }
	{ inhunk = 0 }
	END {
		for (f in files) {
			n = split(f, parts, "/"); dir = ""
			for (i = 1; i < n; i++) dir = dir parts[i] "/"
			if (dir != "") system("mkdir -p " dir)
			for (i = 1; i <= max[f] + 3; i++)
				print ((f, i) in text ? text[f, i] : "/* filler " i " */") > f
			close(f)
		}
	}' "$@"
}

# The lines of a report that GNU patch also prints.
patch_lines () {
	grep -E '^(checking file |Hunk #|[0-9]+ out of [0-9]+ hunks? FAILED)' "$@" |
	sed 's/ -- saving rejects to file .*//'
}

# Number of objects in the repository (loose and packed).
count_objects () {
	git count-objects -v | awk '/^count:|^in-pack:/ { n += $2 } END { print n }'
}
