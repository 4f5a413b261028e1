#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='series through selection: the reviews of older versions and partial rerolls survive mbox-split, read again and again'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"
. "$MAINT_TEST_DIR/lib-b4.sh"

test_expect_success 'setup: a week of mail for the USB tree' '
	todo_setup
'

test_expect_success 'mbox-split keeps of v1 what its review needs: the reviewed patches and the replies' '
	git-maint-mbox-split --touches drivers/usb/gadget --format="%s" TODO >actual 2>err &&
	cat >expect <<-\EOF &&
	[PATCH 1/3] usb: gadget: udc: split probe
	Re: [PATCH 1/3] usb: gadget: udc: split probe
	[PATCH 2/3] usb: gadget: udc: use devm
	Re: [PATCH 2/3] usb: gadget: udc: use devm
	[PATCH v2 0/3] usb: gadget: udc rework
	[PATCH v2 1/3] usb: gadget: udc: split probe
	[PATCH v2 2/3] usb: gadget: udc: use devm
	[PATCH v2 3/3] usb: gadget: udc: drop a flag
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'v1 reviews reach the commits through the selection, on unchanged v2 patches only' '
	git-maint-mbox-split --touches drivers/usb/gadget TODO >s &&
	git branch -f q-c work-next &&
	git-maint-queue -q q-c s &&
	git log -1 --format=%B q-c~2 >msg1 &&
	git log -1 --format=%B q-c~1 >msg2 &&
	git log -1 --format=%B q-c >msg3 &&
	grep "^Reviewed-by: $TODO_REV\$" msg1 &&
	! grep "^Tested-by:" msg2 &&
	! grep -e "^Reviewed-by:" -e "^Tested-by:" msg3 &&
	git-maint-queue --show-trailers work-next s >out &&
	grep "^    - Tested-by: $TODO_TESS ($TODO_TESS, on v1 2/3, which changed in v2)\$" out
'

test_expect_success 'without what v1 carries, mbox-split drops it as before: --patches-only, and an unreviewed v1' '
	git-maint-mbox-split --patches-only --touches drivers/usb/gadget --format="%s" TODO >actual &&
	cat >expect <<-\EOF &&
	[PATCH v2 1/3] usb: gadget: udc: split probe
	[PATCH v2 2/3] usb: gadget: udc: use devm
	[PATCH v2 3/3] usb: gadget: udc: drop a flag
	EOF
	test_cmp expect actual &&
	cat todo/C1/*.patch todo/C2/*.patch >unreviewed.mbox &&
	git-maint-mbox-split --format="%s" unreviewed.mbox >actual &&
	cat >expect <<-\EOF &&
	[PATCH v2 0/3] usb: gadget: udc rework
	[PATCH v2 1/3] usb: gadget: udc: split probe
	[PATCH v2 2/3] usb: gadget: udc: use devm
	[PATCH v2 3/3] usb: gadget: udc: drop a flag
	EOF
	test_cmp expect actual
'

test_expect_success 'a partial reroll re-selected three times stays whole, the same bytes, no warning' '
	git-maint-mbox-split --touches drivers/usb/storage TODO >d1 2>err &&
	git-maint-mbox-split d1 >d2 2>>err &&
	git-maint-mbox-split d2 >d3 2>>err &&
	git-maint-mbox-split d3 >d4 2>>err &&
	test_must_be_empty err &&
	test_cmp d1 d2 && test_cmp d1 d3 && test_cmp d1 d4 &&
	git-maint-dry-apply --onto work-next d4 >out 2>err &&
	test_must_be_empty err &&
	grep "^Patch " out >actual &&
	cat >expect <<-\EOF &&
	Patch 1/4: usb: storage: add quirk one
	Patch 2/4: usb: storage: add quirk two
	Patch 3/4: usb: storage: add quirk three
	Patch 4/4: usb: storage: add quirk four
	EOF
	test_cmp expect actual &&
	grep "^    + Reviewed-by: $TODO_REV ($TODO_REV)\$" out &&
	grep "^work-next: all 4 patches apply\$" out
'

test_expect_success 'the selection leaves out the patch the partial reroll replaces, as b4 does: the reroll alone keeps its place' '
	grep "^Subject: " d1 >actual &&
	cat >expect <<-\EOF &&
	Subject: [PATCH 0/4] usb: storage: quirks
	Subject: [PATCH 1/4] usb: storage: add quirk one
	Subject: [PATCH 2/4] usb: storage: add quirk two
	Subject: [PATCH v2 3/4] usb: storage: add quirk three
	Subject: Re: [PATCH v2 3/4] usb: storage: add quirk three
	Subject: [PATCH 4/4] usb: storage: add quirk four
	EOF
	test_cmp expect actual
'

# (b4 am reading d4 itself finds 3 patches: it links a reroll to its
# series only by the In-Reply-To the selection left dangling.)
test_expect_success B4 'the re-selected partial reroll gives the commits and trailers b4 am gives from the whole mailbox' '
	cover=$(msgid todo/D1/0000-cover-letter.patch) &&
	b4_trailers TODO "$cover" >expect &&
	git branch -f q-d work-next &&
	git-maint-queue -q --no-signoff q-d d4 &&
	our_trailers q-d 4 >actual &&
	test_cmp expect actual &&
	grep "^Reviewed-by: $TODO_REV\$" actual
'

test_expect_success 'queue --show-trailers and dry-apply say the same of a partial reroll read from the selection' '
	git-maint-queue --show-trailers work-next d4 >out &&
	grep "^Patch 3/4: usb: storage: add quirk three\$" out &&
	grep "^    Reviewed-by: $TODO_REV\$" out
'

test_done
