# Helpers shared by the dry-apply tests (t03xx). Sourced after test-lib.sh.

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
