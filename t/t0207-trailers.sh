#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='review trailers: read from replies as b4 reads them, added to a message as git interpret-trailers adds them; shown by mbox-split and dry-apply'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-reviews.sh"

SQ="'"

# reply <file> [<header>...]: a reply's headers, then stdin as its body.
reply () {
	out=$1 &&
	shift &&
	{
		echo "From: Rev Iewer <rev@example.net>" &&
		echo "Subject: Re: [PATCH 1/2] topic: change a" &&
		echo "Message-ID: <r1@example.net>" &&
		echo "In-Reply-To: <p1@example.com>" &&
		for h in "$@"
		do
			echo "$h" || return 1
		done &&
		echo &&
		cat
	} >"$out"
}

test_expect_success 'trailers of a reply: the replier text only, quoted ones do not count' '
	reply r.mail <<-\EOF &&
	On Thu, A U Thor wrote:
	> Signed-off-by: A U Thor <author@example.com>
	>> Reviewed-by: Old Quote <old@example.org>
	  > Acked-by: Indented Quote <iq@example.org>
	> ---
	> diff --git a/a.c b/a.c

	Looks good.

	Reviewed-by: Rev Iewer <rev@example.net>
	Tested-by: Rev Iewer <rev@example.net> # on x86_64
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Reviewed-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net \
		"Tested-by: Rev Iewer <rev@example.net> # on x86_64" "Rev Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'names in parentheses, quoted names and bare addresses are read as b4 reads them' '
	reply r.mail <<-\EOF &&
	Acked-by: jane@example.com (Jane Doe)
	Reviewed-by: "Doe, Jane" <jane@example.com>
	Tested-by: jane@example.com
	Reported-by: <jane@example.com>
	Suggested-by: Jane Doe
	<jane@example.com>
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Acked-by: jane@example.com (Jane Doe)" "Jane Doe" jane@example.com \
		"Reviewed-by: \"Doe, Jane\" <jane@example.com>" "Doe, Jane" jane@example.com \
		"Tested-by: jane@example.com" "" jane@example.com \
		"Reported-by: <jane@example.com>" "" jane@example.com \
		"Suggested-by: Jane Doe <jane@example.com>" "Jane Doe" jane@example.com &&
	test_cmp expect actual
'

test_expect_success 'lines that only look like trailers are text' '
	reply r.mail <<-\EOF &&
	Note: jane@example.com said so too.
	Reviewed-by:Rev Iewer <rev@example.net>
	 Reviewed-by: Indented <in@example.net>
	Reviewed-by: Rev Iewer
	Reviewed-by: nobody@localhost
	Link: https://lore.kernel.org/r/p1@example.com
	Cc: Someone <someone@example.org>
	From: Someone <someone@example.org>
	X: Short <short@example.org>
	Fixes: not-a-commit ("topic")
	Fixes: 0123456789ab ("topic: the bug")
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Fixes: 0123456789ab (\"topic: the bug\")" "" "" &&
	test_cmp expect actual
'

test_expect_success 'a value with a control character is no trailer: one line stays one line' '
	printf "%s\n" >r.mail \
		"From: Rev Iewer <rev@example.net>" "Subject: Re: [PATCH 1/2] topic: change a" \
		"Message-ID: <r1@example.net>" "In-Reply-To: <p1@example.com>" "" &&
	printf "Reviewed-by: Rev Iewer <rev@example.net>\rSigned-off-by: Evil <evil@example.org>\n" >>r.mail &&
	printf "Acked-by: Rev \033[2JIewer <rev@example.net>\n" >>r.mail &&
	printf "Tested-by: Rev\tIewer <rev@example.net>\n" >>r.mail &&
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Tested-by: Rev	Iewer <rev@example.net>" "Rev	Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'nothing below a signature, a scissors line, a pasted diff or an unquoted original' '
	for end in "-- " "--" "-- >8 --" "diff --git a/a.c b/a.c" "-----Original Message-----" \
		"---------- Forwarded message ---------"
	do
		{
			echo "Acked-by: Rev Iewer <rev@example.net>" &&
			echo &&
			echo "$end" &&
			echo "Signed-off-by: A U Thor <author@example.com>"
		} | reply r.mail &&
		test-trailers reply r.mail >actual &&
		printf "%s\t%s\t%s\n" >expect \
			"Acked-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'an Outlook-style quote without > marks does not count' '
	reply r.mail <<-\EOF &&
	Acked-by: Rev Iewer <rev@example.net>

	From: A U Thor <author@example.com>
	Sent: Thursday, April 7, 2005 3:13 PM
	Subject: [PATCH 1/2] topic: change a

	Signed-off-by: A U Thor <author@example.com>
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Acked-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'a pasted ---/+++ diff ends the text' '
	reply r.mail <<-\EOF &&
	Acked-by: Rev Iewer <rev@example.net>
	--- a/a.c
	+++ b/a.c
	Reviewed-by: Rev Iewer <rev@example.net>
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Acked-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'multipart/alternative: the text part counts, the HTML part never' '
	reply r.mail "MIME-Version: 1.0" \
		"Content-Type: multipart/alternative; boundary=\"b1\"" <<-\EOF &&
	--b1
	Content-Type: text/html; charset=utf-8

	<p>Reviewed-by: Html Only &lt;html@example.net&gt;</p>
	Reviewed-by: Html Only <html@example.net>
	--b1
	Content-Type: text/plain; charset=utf-8

	Acked-by: Rev Iewer <rev@example.net>
	--b1--
	EOF
	test-trailers reply r.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Acked-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'an HTML-only reply and an attached patch give no trailer' '
	reply html.mail "MIME-Version: 1.0" "Content-Type: text/html" <<-\EOF &&
	Reviewed-by: Html Only <html@example.net>
	EOF
	test_expect_code 1 test-trailers reply html.mail >actual &&
	test_must_be_empty actual &&
	reply att.mail "MIME-Version: 1.0" "Content-Type: multipart/mixed; boundary=xx" <<-\EOF &&
	--xx
	Content-Type: text/plain

	Acked-by: Rev Iewer <rev@example.net>
	--xx
	Content-Type: text/plain
	Content-Disposition: attachment; filename=fix.patch

	Signed-off-by: Some One <some@example.org>
	--xx
	Content-Type: message/rfc822

	From: Some One <some@example.org>

	Reviewed-by: Some One <some@example.org>
	--xx--
	EOF
	test-trailers reply att.mail >actual &&
	printf "%s\t%s\t%s\n" >expect \
		"Acked-by: Rev Iewer <rev@example.net>" "Rev Iewer" rev@example.net &&
	test_cmp expect actual
'

test_expect_success 'base64, quoted-printable, latin-1 and format=flowed text is decoded' '
	printf "Acked-by: J\366rg Doe <jorg@example.net>\n" | base64 |
		reply b64.mail "MIME-Version: 1.0" "Content-Type: text/plain; charset=iso-8859-1" \
			"Content-Transfer-Encoding: base64" &&
	test-trailers reply b64.mail >actual &&
	printf "%s\t%s\t%s\n" >expect "Acked-by: Jörg Doe <jorg@example.net>" "Jörg Doe" jorg@example.net &&
	test_cmp expect actual &&
	reply qp.mail "MIME-Version: 1.0" "Content-Type: text/plain; charset=utf-8" \
		"Content-Transfer-Encoding: quoted-printable" <<-\EOF &&
	Reviewed-by: J=C3=B6rg Doe <jorg@exa=
	mple.net>
	EOF
	test-trailers reply qp.mail >actual &&
	printf "%s\t%s\t%s\n" >expect "Reviewed-by: Jörg Doe <jorg@example.net>" "Jörg Doe" jorg@example.net &&
	test_cmp expect actual &&
	printf "Reviewed-by: A Very Long Name \r\n<long@example.net>\r\n> Acked-by: \r\n> Quoted <q@example.net>\r\n" |
		reply flowed.mail "MIME-Version: 1.0" "Content-Type: text/plain; format=flowed" &&
	test-trailers reply flowed.mail >actual &&
	printf "%s\t%s\t%s\n" >expect "Reviewed-by: A Very Long Name <long@example.net>" \
		"A Very Long Name" long@example.net &&
	test_cmp expect actual
'

test_expect_success 'the replier: same address (case, +tag, one domain level) or same name, else flagged' '
	cat >expect <<-\EOF &&
	own
	own
	own
	own
	own
	flagged
	flagged
	flagged
	own
	EOF
	{
		test-trailers from "Rev Iewer" rev@example.net "Reviewed-by: Rev Iewer <rev@example.net>" &&
		test-trailers from "Rev Iewer" Rev@Example.NET "Reviewed-by: R <rev@example.net>" &&
		test-trailers from "Rev Iewer" rev+lkml@example.net "Reviewed-by: R <rev@example.net>" &&
		test-trailers from "Rev Iewer" rev@linux.example.net "Reviewed-by: R <rev@example.net>" &&
		test-trailers from "Rev Iewer" rev@gmail.com "Reviewed-by: rev iewer <rev@work.example>" &&
		test-trailers from "Rev Iewer" rev@a.b.example.net "Reviewed-by: R <rev@example.net>" &&
		test-trailers from "Rev Iewer" other@example.net "Reviewed-by: Someone Else <else@example.org>" &&
		test-trailers from "" rev@example.net "Reviewed-by: someone@example.org" &&
		test-trailers from "Rev Iewer" rev@example.net "Fixes: 0123456789ab (\"x\")"
	} >actual &&
	test_cmp expect actual
'

test_expect_success 'a value that is not one address is no person' '
	test_expect_code 1 test-trailers person "Jane <jane@example.com> and Bob" &&
	test_expect_code 1 test-trailers person "jane@example.com, bob@example.com" &&
	test_expect_code 1 test-trailers person "<jane@example.com" &&
	test-trailers person "Jane <jane@example.com> # comment # two" >actual &&
	printf "Jane\tjane@example.com\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the trailer block of a message, as git interpret-trailers --parse reads it' '
	cat >msg <<-\EOF &&
	topic: change a

	Body text: not a trailer block,
	only a paragraph.

	Reviewed-by: Rev Iewer
	  <rev@example.net>
	Acked-by:Jane <jane@example.com>
	Signed-off-by: A U Thor <author@example.com>
	EOF
	test-trailers block msg | cut -f1 >actual &&
	git interpret-trailers --parse --no-divider msg >expect &&
	test_cmp expect actual
'

# The messages and trailers of the oracle below.
write_messages () {
	printf "subject only\n" >m1 &&
	printf "subject\n\nbody line\n" >m2 &&
	printf "subject\n\nbody\n\nSigned-off-by: A U Thor <author@example.com>\n" >m3 &&
	printf "subject\n\nbody\n\nReviewed-by: Rev Iewer <rev@example.net>\nSigned-off-by: A U Thor <author@example.com>\n" >m4 &&
	printf "subject\n\nbody\n\nSigned-off-by: A U Thor <author@example.com>\nCc: x\n# a comment\n" >m5 &&
	printf "subject\n\nbody\n\nReviewed-by:   Rev   \n  continued  \nsome text\nSigned-off-by: A <a@b.c>\n" >m6 &&
	printf "subject\n\nTested-by : T <t@example.org>\nAcked-by:A <a@example.org>\n" >m7 &&
	printf "subject\n\nbody\n\nSigned-off-by: A U Thor <author@example.com>\n\n\n" >m8 &&
	printf "subject\n\nbody\n# not a trailer\n" >m9 &&
	printf "subject\n\nbody with Key: value\nin a paragraph\n" >m10
}

# oracle <message file> <trailer>...: git interpret-trailers adding them.
oracle () {
	m=$1 &&
	shift &&
	for t in "$@"
	do
		set -- "$@" --trailer "$t" &&
		shift || return 1
	done &&
	git interpret-trailers --no-divider --if-exists addIfDifferent "$@" "$m"
}

test_expect_success 'adding trailers: what git interpret-trailers --if-exists addIfDifferent gives' '
	write_messages &&
	for m in m1 m2 m3 m4 m5 m6 m7 m8 m9 m10
	do
		for set in 1 2 3 4
		do
			case $set in
			1) set -- "Reviewed-by: Rev Iewer <rev@example.net>" ;;
			2) set -- "Reviewed-by: rev iewer <REV@example.net>" "Acked-by: A <a@example.org>" \
				"Reviewed-by: Rev Iewer <rev@example.net>" ;;
			3) set -- "Signed-off-by: A U Thor <author@example.com>" "Tested-by: T <t@example.org>" ;;
			4) set -- "Acked-by: A <a@example.org>" "Reviewed: x" "Cc: x" "Tested-by: T <t@example.org>" ;;
			esac &&
			test-trailers add $m "$@" >actual &&
			oracle $m "$@" >expect &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success 'setup: review threads' '
	mkdir threads &&
	(
		cd threads &&
		reviews_setup
	)
'

# The listing of reviews.mbox (v1): what each patch gets.
cat >expect-v1-listing <<\EOF
mail [PATCH 0/4] topic: four changes
mail Re: [PATCH 0/4] topic: four changes
patch [PATCH 1/4] topic: change a
    + Reviewed-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>)
    = Reviewed-by: rev iewer <REV@example.net> (Rev Iewer <rev@example.net>, given twice)
    + Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the cover letter)
mail Re: [PATCH 1/4] topic: change a
mail Re: [PATCH 1/4] topic: change a
patch [PATCH 2/4] topic: change b
    + Reviewed-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>)
    + Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the cover letter)
mail Re: [PATCH 2/4] topic: change b
mail Re: Re: [PATCH 2/4] topic: change b
mail Re: Re: Re: [PATCH 2/4] topic: change b
patch [PATCH 3/4] topic: change c
    + Tested-by: Tess Ter <tess@example.org> (Tess Ter <tess@example.org>)
    + Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the cover letter)
mail Re: [PATCH 3/4] topic: change c
patch [PATCH 4/4] topic: change d
    ! Reviewed-by: Big Boss <boss@example.org> (Third Party <third@example.org>, not the sender's address)
    + Acked-by: Third Party <third@example.org> (Third Party <third@example.org>)
    + Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the cover letter)
mail Re: [PATCH 4/4] topic: change d
mail Re: [PATCH 4/4] topic: change d
mail Re: [PATCH 4/4] topic: change d
EOF

test_expect_success 'mbox-split --show-trailers: depths, a cover ack, quoted, signed and HTML ones left out, a forged one flagged' '
	git-maint-mbox-split --show-trailers --format="%P %s" threads/reviews.mbox >actual 2>err &&
	test_cmp expect-v1-listing actual &&
	test_must_be_empty err
'

test_expect_success 'mbox-split --show-trailers reads standard input too (from the spool)' '
	git-maint-mbox-split --show-trailers --format="%P %s" <threads/reviews.mbox >actual &&
	test_cmp expect-v1-listing actual
'

# carried <listing> <k>: the trailers listed as carried under patch k.
carried () {
	awk -v k="$2" '/^[0-9]/ { in_k = ($1 == k && $2 == "patch") } in_k && /^    \+ / { print }' "$1" |
	sed "s/^    + //; s/ ([^()]*)\$//"
}

test_expect_success 'what each v1 patch gets is the list lib-reviews.sh expects' '
	git-maint-mbox-split --show-trailers --format="%k %P" threads/reviews.mbox >listing &&
	for k in 1 2 3 4
	do
		carried listing $k >actual &&
		(cd threads && expected_trailers 1 $k) >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'queue.trailers decides what the listing calls carried' '
	mkdir -p .config/git-maint &&
	printf "[queue]\n\ttrailers = acked-by\n" >.config/git-maint/config &&
	test_when_finished "rm -f .config/git-maint/config" &&
	git-maint-mbox-split --show-trailers --format="%P %s" threads/reviews.mbox >actual &&
	grep "^    - Reviewed-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, not taken)\$" actual &&
	grep "^    + Acked-by: Ack Er" actual
'

test_expect_success 'dry-apply shows each patch'"${SQ}"'s trailers under it' '
	(
		cd threads &&
		git checkout -q base &&
		git-maint-dry-apply reviews.mbox
	) >out &&
	sed -n "/^Patch 4\/4/,/^HEAD/p" out >actual &&
	cat >expect <<-EOF &&
	Patch 4/4: topic: change d
	checking file d.c
	    ! Reviewed-by: Big Boss <boss@example.org> (Third Party <third@example.org>, not the sender${SQ}s address)
	    + Acked-by: Third Party <third@example.org> (Third Party <third@example.org>)
	    + Acked-by: Ack Er <ack@example.org> (Ack Er <ack@example.org>, on the cover letter)
	HEAD: all 4 patches apply
	EOF
	test_cmp expect actual
'

test_expect_success 'dry-apply --porcelain: trailer records, once' '
	(
		cd threads &&
		git-maint-dry-apply --porcelain --onto base --onto v1 reviews.mbox
	) >porcelain &&
	grep "^trailer" porcelain | cut -f 1-4 >actual &&
	cat >expect <<-\EOF &&
	trailer	1	carried	Reviewed-by: Rev Iewer <rev@example.net>
	trailer	1	kept-once	Reviewed-by: rev iewer <REV@example.net>
	trailer	1	carried	Acked-by: Ack Er <ack@example.org>
	trailer	2	carried	Reviewed-by: Rev Iewer <rev@example.net>
	trailer	2	carried	Acked-by: Ack Er <ack@example.org>
	trailer	3	carried	Tested-by: Tess Ter <tess@example.org>
	trailer	3	carried	Acked-by: Ack Er <ack@example.org>
	trailer	4	flagged	Reviewed-by: Big Boss <boss@example.org>
	trailer	4	carried	Acked-by: Third Party <third@example.org>
	trailer	4	carried	Acked-by: Ack Er <ack@example.org>
	EOF
	test_cmp expect actual &&
	grep "^trailer	4	flagged" porcelain | cut -f 5- >actual &&
	printf "Third Party <third@example.org>\tnot the sender${SQ}s address\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'dry-apply --no-trailers, --trailers=<kinds> and --sloppy-trailers' '
	(
		cd threads &&
		git-maint-dry-apply --porcelain --no-trailers reviews.mbox >../none &&
		git-maint-dry-apply --porcelain --trailers=tested-by,Reviewed-by reviews.mbox >../some &&
		git-maint-dry-apply --porcelain --sloppy-trailers reviews.mbox >../sloppy
	) &&
	! grep "^trailer	.	carried" none &&
	grep "^trailer	.	carried" some | cut -f 4 | sort -u >actual &&
	printf "%s\n" "Reviewed-by: Rev Iewer <rev@example.net>" "Tested-by: Tess Ter <tess@example.org>" >expect &&
	test_cmp expect actual &&
	grep "^trailer	4	carried	Reviewed-by: Big Boss" sloppy
'

test_expect_success 'a bad --trailers value is a usage error (129), a bad queue.trailers a fatal one (128)' '
	(
		cd threads &&
		repo_state >../before &&
		test_expect_code 129 git-maint-dry-apply --trailers="reviewed by" reviews.mbox >../out 2>../err &&
		repo_state >../after &&
		test_cmp ../before ../after
	) &&
	test_must_be_empty out &&
	echo "error: bad trailer kind ${SQ}reviewed by${SQ} in ${SQ}reviewed by${SQ} (all, none, or tokens such as ${SQ}reviewed-by,acked-by${SQ})" >expect &&
	head -n 1 err >actual &&
	test_cmp expect actual &&
	mkdir -p .config/git-maint &&
	printf "[queue]\n\ttrailers = ,\n" >.config/git-maint/config &&
	test_when_finished "rm -f .config/git-maint/config" &&
	(
		cd threads &&
		test_expect_code 128 git-maint-dry-apply reviews.mbox >../out 2>../err
	) &&
	test_must_be_empty out &&
	grep "^fatal: bad value for ${SQ}queue.trailers${SQ}\$" err
'

test_done
