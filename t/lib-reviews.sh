# SPDX-License-Identifier: GPL-2.0-only
# Review threads for the tests of trailers and versions (t0207-t0209,
# t0415-t0419), built on lib-threads.sh's topic (source that first):
# threads_setup's v1 and v2 (v2 changes patch 3 only), with replies
# that review them.
#
# reviews_setup runs threads_setup, then writes:
#
#   reviews.mbox    v1 (cover letter and patches) and these replies:
#                   - patch 1: Reviewed-by from Rev Iewer (depth 1), and
#                     the same trailer again in a second reply (kept once)
#                   - patch 2: Other Person asks (depth 1), the author
#                     answers (depth 2), Rev Iewer gives Reviewed-by at
#                     depth 3, quoting trailers that must not count
#                   - patch 3: Tested-by from Tess Ter (patch 3 changes
#                     in v2: not carried there)
#                   - patch 4: from Third Party, a Reviewed-by naming
#                     Big Boss (forged: flagged, not carried) and an
#                     Acked-by of their own; from Sig Nature, only a
#                     trailer below the signature; from Html Only, one
#                     only in an HTML part
#                   - the cover letter: Acked-by from Ack Er (every v1
#                     patch, and the v2 patches that did not change)
#   reviews-v2.mbox reviews.mbox, then v2 (cover letter and patches)
#                   and Rev Iewer's Reviewed-by on v2's patch 3
#   reviews-reroll.mbox
#                   reviews.mbox and the v2 of patch 3 alone, answering
#                   v1's patch 3 (a partial reroll), with Rev Iewer's
#                   Reviewed-by on it
#
# expected_trailers <v> <k> prints the trailers queue adds to patch k of
# reviews-v<v>.mbox (v: 1, 2 or reroll), one per line, in order: what the
# oracle gives git interpret-trailers.

REV="Rev Iewer <rev@example.net>"
ACK="Ack Er <ack@example.org>"
TESS="Tess Ter <tess@example.org>"
THIRD="Third Party <third@example.org>"

# review_reply <mail file> <from> <minute> <n> [--no-re]: reply_to's headers, dated.
review_reply () {
	reply_to "$1" "$2" "Sat, 9 Apr 2005 10:$3:00 +0000" "$5" "rv$4"
}

# reviews_setup: the fixture above, built once a run (test_setup_cached);
# v1p1..v1p4 name v1's patches.
reviews_setup () {
	test_setup_cached reviews "$MAINT_TEST_DIR/lib-reviews.sh" "$MAINT_TEST_DIR/lib-threads.sh" -- \
		reviews_build &&
	reviews_patches
}

reviews_patches () {
	for v1p1 in git-v1/0001-*.patch; do :; done &&
	for v1p2 in git-v1/0002-*.patch; do :; done &&
	for v1p3 in git-v1/0003-*.patch; do :; done &&
	for v1p4 in git-v1/0004-*.patch; do :; done &&
	test -f "$v1p1" && test -f "$v1p2" && test -f "$v1p3" && test -f "$v1p4"
}

reviews_build () {
	threads_setup &&
	reviews_patches &&
	{
		review_reply "$v1p1" "$REV" 01 1 &&
		echo "Nice cleanup." &&
		echo &&
		echo "Reviewed-by: $REV" &&
		echo
	} >r1.mail &&
	{
		review_reply "$v1p1" "$REV" 02 2 &&
		echo "Forgot to say, for the record:" &&
		echo "Reviewed-by: rev iewer <REV@example.net>" &&
		echo
	} >r1b.mail &&
	{
		review_reply "$v1p2" "Other Person <other@example.org>" 03 3 &&
		quote_patch "$v1p2" | head -n 3 &&
		echo &&
		echo "Why change b at all?" &&
		echo
	} >r2a.mail &&
	{
		review_reply r2a.mail "A U Thor <author@example.com>" 04 4 &&
		echo "> Why change b at all?" &&
		echo &&
		echo "Because the topic needs it." &&
		echo
	} >r2b.mail &&
	{
		review_reply r2b.mail "$REV" 05 5 &&
		echo ">> Why change b at all?" &&
		echo "> Because the topic needs it." &&
		echo ">" &&
		echo "> Reviewed-by: Quoted Person <quoted@example.org>" &&
		echo ">> Acked-by: Deeper Quote <deeper@example.org>" &&
		echo &&
		echo "Fair enough." &&
		echo &&
		echo "Reviewed-by: $REV" &&
		echo
	} >r2c.mail &&
	{
		review_reply "$v1p3" "$TESS" 06 6 &&
		echo "Works here." &&
		echo &&
		echo "Tested-by: $TESS" &&
		echo
	} >r3.mail &&
	{
		review_reply "$v1p4" "$THIRD" 07 7 &&
		echo "My boss agrees:" &&
		echo &&
		echo "Reviewed-by: Big Boss <boss@example.org>" &&
		echo "Acked-by: $THIRD" &&
		echo
	} >r4.mail &&
	{
		review_reply "$v1p4" "Sig Nature <sig@example.org>" 08 8 &&
		echo "Looks fine to me." &&
		echo &&
		echo "-- " &&
		echo "Signed-off-by: Sig Nature <sig@example.org>" &&
		echo
	} >r4b.mail &&
	{
		review_reply "$v1p4" "Html Only <html@example.org>" 09 9 | sed "\$d" &&
		echo "MIME-Version: 1.0" &&
		echo "Content-Type: multipart/alternative; boundary=\"alt\"" &&
		echo &&
		echo "--alt" &&
		echo "Content-Type: text/plain; charset=utf-8" &&
		echo &&
		echo "Looks fine." &&
		echo "--alt" &&
		echo "Content-Type: text/html; charset=utf-8" &&
		echo &&
		echo "<p>Looks fine.</p>" &&
		echo "Acked-by: Html Only <html@example.org>" &&
		echo "--alt--" &&
		echo
	} >r4c.mail &&
	{
		review_reply git-v1/0000-cover-letter.patch "$ACK" 10 10 &&
		echo "For the whole series:" &&
		echo &&
		echo "Acked-by: $ACK" &&
		echo
	} >r0.mail &&
	cat git-v1/0000-cover-letter.patch "$v1p1" r1.mail r1b.mail "$v1p2" r2a.mail r2b.mail r2c.mail \
		"$v1p3" r3.mail "$v1p4" r4.mail r4b.mail r4c.mail r0.mail >reviews.mbox &&

	{
		review_reply "$(ls git-v2/v2-0003-*.patch)" "$REV" 11 11 &&
		echo "Better now." &&
		echo &&
		echo "Reviewed-by: $REV" &&
		echo
	} >r23.mail &&
	cat reviews.mbox git-v2/*.patch r23.mail >reviews-v2.mbox &&

	last_of_reroll >reroll3.mail &&
	{
		review_reply reroll3.mail "$REV" 12 12 &&
		echo "Better now." &&
		echo &&
		echo "Reviewed-by: $REV" &&
		echo
	} >rr3.mail &&
	cat reviews.mbox reroll3.mail rr3.mail >reviews-reroll.mbox
}

# The partial reroll's patch of reroll.mbox (its last message), as a mail file.
last_of_reroll () {
	awk "/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001\$/{n++; buf=\"\"} {buf = buf \$0 \"\\n\"} END{printf \"%s\", buf}" reroll.mbox
}

expected_trailers () {
	case "$1 $2" in
	"1 1") printf "%s\n" "Reviewed-by: $REV" "Acked-by: $ACK" ;;
	"1 2") printf "%s\n" "Reviewed-by: $REV" "Acked-by: $ACK" ;;
	"1 3") printf "%s\n" "Tested-by: $TESS" "Acked-by: $ACK" ;;
	"1 4") printf "%s\n" "Acked-by: $THIRD" "Acked-by: $ACK" ;;
	"2 1"|"reroll 1") printf "%s\n" "Reviewed-by: $REV" "Acked-by: $ACK" ;;
	"2 2"|"reroll 2") printf "%s\n" "Reviewed-by: $REV" "Acked-by: $ACK" ;;
	"2 3"|"reroll 3") printf "%s\n" "Reviewed-by: $REV" ;;
	"2 4"|"reroll 4") printf "%s\n" "Acked-by: $THIRD" "Acked-by: $ACK" ;;
	esac
}
