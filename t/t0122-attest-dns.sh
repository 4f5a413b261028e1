#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='attestation: DKIM keys from DNS through the system resolver, timeouts, exit 75 when DNS is down

Each test runs the programs in network and mount namespaces of their own
(unshare, as root): loopback only, and an /etc/resolv.conf of the test
bound over the real one, naming a DNS server on 127.0.0.1 that the test
runs (dnspython): nothing leaves the machine and the real resolver
configuration is not touched.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-attest.sh"

if ! unshare -mn true 2>/dev/null || ! $ATTEST_PY -c "import dns.message" 2>/dev/null
then
	skip_all='needs unshare -mn (root) and python3-dnspython'
	test_done
fi

# in_netns <mode> <command>: runs the shell command in its own network and
# mount namespaces, with a DNS server on 127.0.0.1:53 serving dkim-keys
# (mode "up"), answering nothing ("silent"), or none at all ("down").
in_netns () {
	unshare -mn sh -c '
		ip link set lo up &&
		echo "nameserver 127.0.0.1" >resolv.conf &&
		echo "options timeout:1 attempts:1" >>resolv.conf &&
		mount --bind "$PWD/resolv.conf" /etc/resolv.conf || exit 99
		if test "$1" != down
		then
			# (rm on a line of its own: "rm && server &" would run the rm in
			# the background too, and the wait below could see the
			# dns.ready of the last run before the server listens)
			rm -f dns.ready || exit 99
			$ATTEST_PY "$MAINT_TEST_DIR/dns-server.py" "$1" dkim-keys dns.ready dns.log &
			pid=$! &&
			# python starts slowly on a loaded machine: up to 30 s
			for i in $(seq 600); do test -f dns.ready && break; sleep 0.05; done
			test -f dns.ready || { kill $pid; exit 99; }
		fi
		sh -c "$2"
		rc=$?
		test -n "$pid" && kill $pid
		exit $rc
	' - "$1" "$2"
}

test_expect_success 'setup: patches signed by DKIM only, keys published in the test DNS' '
	attest_setup &&
	export ATTEST_PY &&
	attest_mail 1 >p1.eml &&
	attest_mail 2 >p2.eml &&
	dkim_sign ed p1.eml p1.signed -- rsa p2.eml p2.signed &&
	attest_mbox series.mbox p1.signed p2.signed &&
	git -C repo branch -q base HEAD~2 &&
	git -C repo checkout -q -b work base
'

test_expect_success 'keys from DNS: G; each key asked once' '
	rm -f dns.log &&
	in_netns up "test-attest series.mbox series.mbox >out" &&
	cat >expect <<-\EOF &&
	1 G DKIM/example.org
	2 G DKIM/example.org
	3 G DKIM/example.org
	4 G DKIM/example.org
	EOF
	test_cmp expect out &&
	test $(wc -l <dns.log) = 2
'

test_expect_success 'a selector with no record: U' '
	sed "s/ s=ed;/ s=gone;/" p1.signed >gone.eml &&
	in_netns up "test-attest gone.eml >out" &&
	echo "1 U DKIM/example.org: no key gone._domainkey.example.org" >expect &&
	test_cmp expect out
'

test_expect_success 'DNS down or silent: U (tempfail), once per run, within the timeout (58)' '
	in_netns down "test-attest --all --timeout=1 series.mbox >out" &&
	grep -c "tempfail" out >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	rm -f dns.log &&
	in_netns silent "test-attest --timeout=1 series.mbox >out" &&
	grep "^1 U DKIM/example.org: DNS did not answer in time" out &&
	test $(wc -l <dns.log) -le 2
'

test_expect_success 'queue --attest=hardfail exits 75 when DNS is down, nothing applied' '
	test_expect_code 75 in_netns down "cd repo && git-maint-queue --attest=hardfail work ../series.mbox" 2>err &&
	grep "cannot check it now (attest.policy hardfail)" err &&
	test "$(git -C repo rev-parse work)" = "$(git -C repo rev-parse base)" &&
	in_netns down "cd repo && git-maint-queue --attest=softfail work ../series.mbox" 2>err &&
	grep "^warning: ../series.mbox: message 1: U DKIM/example.org: DNS did not answer in time$" err &&
	test $(git -C repo rev-list --count base..work) = 2
'

test_expect_success 'with DNS up again, hardfail queues them' '
	git -C repo reset -q --hard base &&
	in_netns up "cd repo && git-maint-queue --attest=hardfail work ../series.mbox" >out &&
	grep "^Applying: file: add one \[G DKIM/example.org\]$" out
'

test_done
