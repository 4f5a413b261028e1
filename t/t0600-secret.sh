#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='common/net/secret.c on a real Secret Service, as git-credential-libsecret stores passwords'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"

test_expect_success 'start gnome-keyring on a private bus' '
	start_keyring
'

test_expect_success 'a password stored the way git-credential-libsecret stores it is found' '
	keyring_store "s3cret" protocol smtp server mail.example.com port 587 user maint &&
	test-secret lookup smtp mail.example.com 587 >actual &&
	printf "maint\ns3cret\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'git keeps metadata below the password: only the first line is the password' '
	printf "tok3n\npassword_expiry_utc=1684189401\n" |
		secret-tool store --label=git protocol https server git.example.com user u &&
	test-secret lookup https git.example.com 0 u >actual &&
	printf "u\ntok3n\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an item stored without a port (send-email without smtpServerPort) serves any port' '
	keyring_store "noport" protocol smtp server other.example.com user maint &&
	test-secret lookup smtp other.example.com 465 >actual &&
	printf "maint\nnoport\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an item for another port is not used' '
	test_expect_code 1 test-secret lookup smtp mail.example.com 465 >actual &&
	test_must_be_empty actual
'

test_expect_success 'the user narrows the search' '
	keyring_store "second" protocol smtp server mail.example.com port 587 user other &&
	test-secret lookup smtp mail.example.com 587 other >actual &&
	printf "other\nsecond\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'what we store, secret-tool finds under git attributes' '
	echo "st0red" | test-secret store smtp new.example.com 587 me &&
	keyring_lookup protocol smtp server new.example.com port 587 user me >actual &&
	printf "st0red" >expect &&
	test_cmp expect actual &&
	secret-tool search protocol smtp server new.example.com >items 2>&1 &&
	grep "^label = Git: smtp://new.example.com:587/$" items
'

test_expect_success 'storing again replaces the password' '
	echo "changed" | test-secret store smtp new.example.com 587 me &&
	test-secret lookup smtp new.example.com 587 me >actual &&
	printf "me\nchanged\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'forget removes the item, and a second forget finds nothing' '
	test-secret forget smtp new.example.com 587 me &&
	test_expect_code 1 test-secret lookup smtp new.example.com 587 me &&
	test_expect_code 1 test-secret forget smtp new.example.com 587 me
'

test_expect_success 'no session bus: exit 128 naming the cause, no prompt' '
	test_expect_code 128 run_without_bus test-secret lookup smtp mail.example.com 587 \
		</dev/null >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "^error: cannot look up the password for smtp://mail.example.com in the Secret Service: .*D-Bus" err
'

test_expect_success 'a bus without a Secret Service: exit 128 naming the cause' '
	test_expect_code 128 run_without_secret_service \
		test-secret lookup smtp mail.example.com 587 </dev/null >out 2>err &&
	test_must_be_empty out &&
	grep "^error: cannot look up the password for smtp://mail.example.com in the Secret Service: .*org.freedesktop.secrets" err
'

test_done
