#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-mbox-split: whole threads, series versions, output order'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mbox-split.sh"

# A net series whose patch 2/3 touches drivers/usb, with a reply, mixed
# with an unrelated patch and posted out of order.
test_expect_success 'setup: a thread where one patch matches' '
	{
		msg c0 - "[PATCH 0/3] r8152: new adapter" &&
		msg other - "[PATCH] ext4: fix" fs/ext4/inode.c &&
		msg c3 c0 "[PATCH 3/3] r8152: docs" Documentation/networking/r8152.rst &&
		msg c1 c0 "[PATCH 1/3] r8152: firmware" drivers/net/usb/r8152.c &&
		msg c2 c0 "[PATCH 2/3] usb: core: quirk" drivers/usb/core/quirks.c &&
		msg re2 c2 "Re: [PATCH 2/3] usb: core: quirk" &&
		msg late - "[PATCH] usb: late single patch" drivers/usb/misc/x.c
	} >mbox
'

test_expect_success 'a matching patch brings its whole thread, in n/m order' '
	selected --touches drivers/usb mbox &&
	printf "%s\n" c0 c1 c2 re2 c3 late >expect &&
	test_cmp expect selected
'

test_expect_success '--no-threads selects only the matching messages' '
	selected --no-threads --touches drivers/usb mbox &&
	printf "%s\n" c2 late >expect &&
	test_cmp expect selected
'

test_expect_success '--patches-only drops cover letters and replies' '
	selected --patches-only --touches drivers/usb mbox &&
	printf "%s\n" c1 c2 c3 late >expect &&
	test_cmp expect selected
'

test_expect_success '--input-order keeps the order of the mailbox' '
	selected --input-order --touches drivers/usb mbox &&
	printf "%s\n" c0 c3 c1 c2 re2 late >expect &&
	test_cmp expect selected
'

test_expect_success 'References alone link a thread (parent not in the mailbox)' '
	{
		msg x1 missing-cover "[PATCH 1/2] usb: a" drivers/usb/a.c &&
		msg x2 missing-cover "[PATCH 2/2] net: b" drivers/net/b.c
	} >orphans &&
	selected --touches drivers/usb orphans &&
	printf "%s\n" x1 x2 >expect &&
	test_cmp expect selected
'

test_expect_success 'setup: v1 and v2 of a series, and a v3 of another' '
	{
		msg v1c - "[PATCH 0/2] USB: serial: fixes" &&
		msg v1p1 v1c "[PATCH 1/2] USB: serial: fix leak" drivers/usb/serial/a.c &&
		msg v1p2 v1c "[PATCH 2/2] USB: serial: add id" drivers/usb/serial/b.c &&
		msg v1re v1p1 "Re: [PATCH 1/2] USB: serial: fix leak" &&
		msg s2 - "[PATCH v2] usb: typec: fix" drivers/usb/typec/x.c &&
		msg v2c - "[PATCH v2 0/3] USB: serial: fixes" &&
		msg v2p1 v2c "[PATCH v2 1/3] USB: serial: fix leak" drivers/usb/serial/a.c &&
		msg v2p2 v2c "[PATCH v2 2/3] USB: serial: add id" drivers/usb/serial/b.c &&
		msg v2p3 v2c "[PATCH v2 3/3] USB: serial: drop message" drivers/usb/serial/a.c &&
		msg s3 - "[PATCH v3] usb: typec: fix" drivers/usb/typec/x.c &&
		msg s1 - "[PATCH] usb: typec: fix" drivers/usb/typec/x.c
	} >versions
'

test_expect_success 'only the newest version of each series is kept' '
	selected --touches drivers/usb versions &&
	printf "%s\n" v2c v2p1 v2p2 v2p3 s3 >expect &&
	test_cmp expect selected
'

test_expect_success '--all-versions keeps every version, each thread in place' '
	selected --all-versions --touches drivers/usb versions &&
	printf "%s\n" v1c v1p1 v1re v1p2 s2 v2c v2p1 v2p2 v2p3 s3 s1 >expect &&
	test_cmp expect selected
'

test_expect_success 'a selected old version brings in the newest one' '
	selected --touches drivers/usb/serial/b.c --no-threads versions &&
	printf "%s\n" v2p2 >expect &&
	test_cmp expect selected &&
	selected --subject "^\[PATCH 1/2\]" versions &&
	printf "%s\n" v2c v2p1 v2p2 v2p3 >expect &&
	test_cmp expect selected
'

test_expect_success 'a series without one of its k/n gets a warning' '
	{
		msg m0 - "[PATCH 0/3] usb: gadget: rework" &&
		msg m1 m0 "[PATCH 1/3] usb: gadget: one" drivers/usb/gadget/a.c &&
		msg m3 m0 "[PATCH 3/3] usb: gadget: three" drivers/usb/gadget/c.c
	} >missing &&
	selected --touches drivers/usb missing 2>err &&
	printf "%s\n" m0 m1 m3 >expect &&
	test_cmp expect selected &&
	grep "warning: missing: message 1: series .usb: gadget: rework. v1 is incomplete: missing 2 of 3$" err
'

test_expect_success '-q silences the warning' '
	git-maint-mbox-split -q --touches drivers/usb missing >out 2>err &&
	test_must_be_empty err
'

test_done
