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

test_expect_success 'no session bus: the lookup says why (the caller decides), no prompt' '
	test_expect_code 128 run_without_bus test-secret lookup smtp mail.example.com 587 \
		</dev/null >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "^fatal: the Secret Service cannot be reached: .*D-Bus" err
'

test_expect_success 'a bus without a Secret Service: the lookup says why' '
	test_expect_code 128 run_without_secret_service \
		test-secret lookup smtp mail.example.com 587 </dev/null >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: the Secret Service cannot be reached: .*org.freedesktop.secrets" err
'

# git's own helper, as Debian ships its source (git 2.39: it stores and
# searches under libgnome-keyring's network password schema), built here
libsecret_src=/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c
if test -f "$libsecret_src" &&
	mkdir -p helper &&
	cc -o helper/git-credential-libsecret "$libsecret_src" \
		$(pkg-config --cflags --libs libsecret-1 glib-2.0) 2>/dev/null
then
	test_set_prereq GIT_LIBSECRET
fi

# git_libsecret <action>: git credential <action> through that helper alone
git_libsecret () {
	PATH="$TRASH_DIRECTORY/helper:$PATH" git -c credential.helper= -c credential.helper=libsecret \
		credential "$1"
}

test_expect_success GIT_LIBSECRET 'what we store, git-credential-libsecret finds' '
	echo "0urs" | test-secret store smtp ours.example.com 2525 maint &&
	printf "protocol=smtp\nhost=ours.example.com:2525\nusername=maint\n\n" |
		GIT_TERMINAL_PROMPT=0 git_libsecret fill >actual &&
	grep "^password=0urs$" actual
'

test_expect_success GIT_LIBSECRET 'what git-credential-libsecret stores, we find' '
	printf "protocol=smtp\nhost=theirs.example.com:587\nusername=maint\npassword=th3irs\n\n" |
		git_libsecret approve &&
	test-secret lookup smtp theirs.example.com 587 maint >actual &&
	printf "maint\nth3irs\n" >expect &&
	test_cmp expect actual
'

test_expect_success GIT_LIBSECRET 'storing replaces what a newer helper stored under org.git.Password' '
	printf "old" | secret-tool store --label=newer xdg:schema org.git.Password \
		protocol smtp server newer.example.com port 587 user maint &&
	echo "n3w" | test-secret store smtp newer.example.com 587 maint &&
	secret-tool search --all protocol smtp server newer.example.com >items 2>&1 &&
	test "$(grep -c "^secret = " items)" = 1 &&
	grep "^secret = n3w$" items &&
	printf "protocol=smtp\nhost=newer.example.com:587\nusername=maint\n\n" |
		GIT_TERMINAL_PROMPT=0 git_libsecret fill >actual &&
	grep "^password=n3w$" actual
'

test_expect_success GIT_LIBSECRET 'forget removes what git-credential-libsecret stored too' '
	test-secret forget smtp theirs.example.com 587 maint &&
	printf "protocol=smtp\nhost=theirs.example.com:587\nusername=maint\n\n" |
		GIT_TERMINAL_PROMPT=0 test_must_fail git_libsecret fill 2>err &&
	grep "terminal prompts disabled" err
'

test_done
