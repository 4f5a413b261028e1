# SPDX-License-Identifier: GPL-2.0-only
# Signed test mail and the oracles that check it (t0120-t0122, t0416);
# a script that sources it is skipped where patatt or dkimpy is missing:
# patatt (Debian's, ed25519) signs and validates developer signatures,
# dkimpy (python3-dkim) signs and verifies DKIM (RSA and ed25519),
# opendkim-testmsg signs RSA DKIM as opendkim does. Debian's python3 runs
# them (a version manager's python3 on PATH may lack their modules).

ATTEST_PY=/usr/bin/python3

command -v patatt >/dev/null && $ATTEST_PY -c "import dkim, nacl" 2>/dev/null &&
test_set_prereq PATATT
command -v opendkim-testmsg >/dev/null && test_set_prereq OPENDKIM_TESTMSG
if ! test_have_prereq PATATT
then
	skip_all='patatt or python3-dkim missing (contrib/install-deps.sh installs them)'
	test_done
fi

# attest_mbox <out> <mail>...: an mbox of the mails
attest_mbox () {
	out=$1 &&
	shift &&
	for m in "$@"
	do
		echo "From git-maint Mon Sep 17 00:00:00 2001" &&
		cat "$m" || return 1
	done >"$out"
}

# attest_keys: the keys attest_setup gives every script, made once a run
# (test_cache; a key made per script cost python, patatt and an RSA key
# generation each): patatt's ed25519 key "test" of dev@example.org under
# .local/share/patatt, ed.key/ed.pub (DKIM ed25519), rsa.key/rsa.pub and
# the DKIM records of all three selectors in dkim-keys.
attest_keys () {
	HOME=$PWD &&
	printf "[user]\n\temail = dev@example.org\n" >.gitconfig &&
	patatt genkey -n test >/dev/null 2>&1 &&
	rm .gitconfig &&
	$ATTEST_PY -c "import base64, nacl.signing
k = nacl.signing.SigningKey.generate()
open(\"ed.key\", \"wb\").write(base64.b64encode(bytes(k)))
print(base64.b64encode(k.verify_key.encode()).decode())" >ed.pub &&
	openssl genrsa -traditional -out rsa.key 2048 2>/dev/null &&
	openssl rsa -in rsa.key -pubout -outform DER 2>/dev/null | base64 -w0 >rsa.pub &&
	{
		echo "ed._domainkey.example.org v=DKIM1; k=ed25519; p=$(cat ed.pub)" &&
		echo "rsa._domainkey.example.org v=DKIM1; k=rsa; p=$(cat rsa.pub)" &&
		# opendkim-testmsg signs with the same RSA key, as rsa-sha1
		echo "og._domainkey.example.org v=DKIM1; k=rsa; p=$(cat rsa.pub)"
	} >dkim-keys
}

# attest_setup: a developer dev@example.org with a patatt ed25519 key
# "test" (its public key in patatt's keyring under ~/.local/share), DKIM
# keys for example.org (selectors ed: ed25519, rsa, og: opendkim's) in
# dkim-keys, and a repository whose patches the tests sign.
attest_setup () {
	GIT_AUTHOR_EMAIL=dev@example.org &&
	GIT_COMMITTER_EMAIL=dev@example.org &&
	export GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL &&
	git config --global user.name "A U Thor" &&
	git config --global user.email dev@example.org &&
	test_cache attest-keys "$MAINT_TEST_DIR/lib-attest.sh" -- attest_keys &&
	cp -R "$TEST_CACHE/.local" "$HOME/" &&
	cp "$TEST_CACHE/ed.key" "$TEST_CACHE/ed.pub" "$TEST_CACHE/rsa.key" "$TEST_CACHE/rsa.pub" \
		"$TEST_CACHE/dkim-keys" . &&
	git config --global patatt.signingkey ed25519:test &&
	git config --global patatt.selector test &&
	git init -q repo &&
	echo base >repo/file &&
	git -C repo add file &&
	git -C repo commit -q -m base &&
	echo one >>repo/file &&
	git -C repo commit -q -a -m "file: add one" &&
	echo two >>repo/file &&
	git -C repo commit -q -a -m "file: add two" &&
	git -C repo format-patch -q --thread -o ../patches HEAD~2
}

# attest_mail <n>: patch n of the series without its From_ line
attest_mail () {
	sed 1d patches/000$1-*.patch
}

# patatt_sign <in> <out>
patatt_sign () {
	patatt sign <"$1" >"$2"
}

# dkim_sign <selector> <in> <out> [<canon: relaxed/simple>] [length] [-- <selector> <in> <out> ...]...:
# dkimpy signs From, Subject, Date, Message-ID (ed: ed25519-sha256, rsa: rsa-sha256);
# one python for every mail (python and dkimpy start in 0.3 s of CPU).
dkim_sign () {
	$ATTEST_PY - "$@" <<-\EOF
	import sys, dkim
	jobs = [[]]
	for arg in sys.argv[1:]:
	    if arg == "--":
	        jobs.append([])
	    else:
	        jobs[-1].append(arg)
	for job in jobs:
	    sel, src, dst = job[0:3]
	    canon = (job[3] if len(job) > 3 else "relaxed/simple").encode().split(b"/")
	    length = len(job) > 4
	    msg = open(src, "rb").read()
	    key = open(sel + ".key", "rb").read().strip()
	    alg = b"ed25519-sha256" if sel == "ed" else b"rsa-sha256"
	    sig = dkim.sign(msg, sel.encode(), b"example.org", key, canonicalize=tuple(canon),
	        signature_algorithm=alg, length=length,
	        include_headers=[b"from", b"subject", b"date", b"message-id"])
	    open(dst, "wb").write(sig + msg)
	EOF
}

# opendkim_sign <in> <out>: opendkim-testmsg's signature (selector og)
opendkim_sign () {
	cp rsa.key og.private &&
	opendkim-testmsg -d example.org -s og -k og.private <"$1" >"$2"
}

# oracle_table <mail>...: one line per mail, "<mail> <ours> <patatt> <ours> <dkimpy>":
# our verdict of its developer signature (ed25519) and what `patatt
# validate` says (G PASS, N NOSIG, U NOKEY, B BADSIG, E ERROR, X it
# crashed), our verdict of its first DKIM signature and what dkimpy says
# (keys from dkim-keys: G, B, U no such key, N no DKIM signature, X it
# crashed); "-" where we found no signature of that kind. Three processes
# for all the mails: python starts slowly.
oracle_table () {
	test-attest --all --dkim-keys=dkim-keys "$@" >ours.out &&
	awk '
		/^[0-9]/ { n = $1; next }
		{ kind = $2; sub("[/:].*", "", kind)
		  if (kind == "DKIM") { if (!(n in d)) d[n] = substr($1, 1, 1) }
		  else if (!(n in p)) p[n] = substr($1, 1, 1) }
		END { for (i = 1; i <= n; i++) print (i in p ? p[i] : "-"), (i in d ? d[i] : "-") }
	' ours.out >ours.v &&
	# patatt validate reads each of two or more files as one message; when
	# it crashes on one, the files after it are asked again one by one.
	# A mail's verdict is on the first line naming it (", <mail>" or
	# "| <mail>"): its first word. (One awk for all the mails, first for
	# those not named, then for the verdicts.)
	patatt validate "$@" /dev/null >patatt.out 2>&1
	printf "%s\n" "$@" >patatt.mails &&
	# patatt_verdicts missing|verdicts: the mails no line names, or
	# the verdict of each (X when none)
	patatt_verdicts="
		FNR == NR { m[++n] = \$0; next }
		{ for (i = 1; i <= n; i++)
			if (!(i in v) && (index(\$0, \", \" m[i]) || index(\$0, \"| \" m[i])))
				v[i] = \$0 }
		END {
			for (i = 1; i <= n; i++) {
				if (mode == \"missing\") { if (!(i in v)) print m[i]; continue }
				w = v[i]; sub(/^ */, \"\", w)
				w = match(w, /^[A-Z]* /) ? substr(w, 1, RLENGTH - 1) : \"\"
				print (w == \"PASS\" ? \"G\" : w == \"NOSIG\" ? \"N\" : w == \"NOKEY\" ? \"U\" : \\
					w == \"BADSIG\" ? \"B\" : w == \"ERROR\" ? \"E\" : \"X\")
			}
		}" &&
	awk -v mode=missing "$patatt_verdicts" patatt.mails patatt.out >patatt.missing &&
	while read -r m
	do
		patatt validate "$m" /dev/null >>patatt.out 2>&1 || :
	done <patatt.missing &&
	awk -v mode=verdicts "$patatt_verdicts" patatt.mails patatt.out >patatt.v &&
	$ATTEST_PY - "$@" <<-\EOF >dkimpy.v &&
	import sys, dkim, re
	keys = {}
	for line in open("dkim-keys", "rb"):
	    name, _, rec = line.rstrip(b"\n").partition(b" ")
	    keys[name.lower() + b"."] = rec
	def dns(name, timeout=5):
	    return keys.get(name.lower(), b"")
	for f in sys.argv[1:]:
	    msg = open(f, "rb").read()
	    head = msg.split(b"\n\n", 1)[0]
	    m = re.search(rb"(?im)^dkim-signature:((?:.*\n?)(?:[ \t].*\n?)*)", head)
	    if not m:
	        print("N"); continue
	    tags = dict((k.strip(), v.strip()) for k, _, v in (t.partition(b"=")
	        for t in re.sub(rb"\s+", b"", m.group(1)).split(b";")))
	    name = tags.get(b"s", b"") + b"._domainkey." + tags.get(b"d", b"") + b"."
	    if name.lower() not in keys:
	        print("U"); continue
	    try:
	        print("G" if dkim.verify(msg, dnsfunc=dns) else "B")
	    except Exception:
	        print("X")
	EOF
	printf "%s\n" "$@" | paste -d " " - ours.v patatt.v dkimpy.v |
	awk "{ print \$1, \$2, \$4, \$3, \$5 }"
}

# sig_verdicts <mail> <kind>: our verdicts of its signatures of one kind
# (ed25519, DKIM, ...), one letter each ("-" when it has none)
sig_verdicts () {
	test-attest --all --dkim-keys=dkim-keys "$1" >sigs.out &&
	v=$(sed -n "s/^	\(.\) $2\/.*/\1/p" sigs.out | tr -d "\n") &&
	echo "${v:--}"
}
