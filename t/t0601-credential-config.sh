#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='which of git'"'"'s credential.<url>.* settings apply to a URL: git credential fill is the oracle'

. ./test-lib.sh

# Each case: a URL pattern of credential.<pattern>.helper, and the fields
# of a credential (protocol host[:port] [path [user]]).
cat >cases <<'EOF'
example.com		smtp example.com
example.com		smtp example.com:25
smtp://127.0.0.1:2525	smtp 127.0.0.1:2525
smtp://127.0.0.1	smtp 127.0.0.1:2525
smtp://127.0.0.1:2525	smtp 127.0.0.1:25
smtp://127.0.0.1:2525	imaps 127.0.0.1:2525
https://*.example.com	https git.example.com
https://*.example.com	https a.b.example.com
https://*.example.com	https example.com
https://EXAMPLE.com	https example.com
HTTPS://example.com	https example.com
https://example.com:443	https example.com
https://example.com	https example.com:443
http://example.com:80	http example.com
https://example.com:8443	https example.com
https://example.com/foo	https example.com foo/bar.git
https://example.com/foo	https example.com foobar
https://example.com/foo	https example.com foo
https://example.com/foo/	https example.com foo/bar.git
https://example.com/	https example.com x
https://bob@example.com	https example.com x bob
https://bob@example.com	https example.com x al
https://bob%40corp@example.com	https example.com x bob@corp
imaps://mail.example.org	imaps mail.example.org:993
imaps://mail.example.org	imaps mail.example.org
EOF

# git's verdict: does a helper configured for <pattern> answer for the fields?
git_says () {
	pattern=$1 protocol=$2 host=$3 path=$4 user=$5
	{
		printf "protocol=%s\nhost=%s\n" "$protocol" "$host" &&
		if test -n "$path"; then printf "path=%s\n" "$path"; fi &&
		printf "username=%s\n\n" "${user:-u}"
	} | git -c "credential.$pattern.helper=!f() { echo password=x; }; f" credential fill >/dev/null 2>&1 &&
	echo 1 || echo 0
}

test_expect_success 'credential.<url>.helper applies where git applies it' '
	while read pattern protocol host path user
	do
		want=$(git_says "$pattern" "$protocol" "$host" "$path" "$user") &&
		git config --global "credential.$pattern.helper" "!true" &&
		got=$(test-credential match "$protocol" "$host" "$path" "${user:-u}") &&
		git config --global --unset "credential.$pattern.helper" &&
		echo "$pattern $protocol $host $path $user: helpers=$want" >>expect &&
		echo "$pattern $protocol $host $path $user: ${got% *}" >>actual || return 1
	done <cases &&
	test_cmp expect actual &&
	test "$(grep -c "helpers=1" expect)" -gt 5 &&
	test "$(grep -c "helpers=0" expect)" -gt 5
'

test_expect_success 'an empty credential.helper clears the list, as in git; a later one counts again' '
	git config --global credential.helper store &&
	test-credential match smtp example.com >actual &&
	git config --global --add credential.helper "" &&
	test-credential match smtp example.com >>actual &&
	git config --global --add credential.helper cache &&
	test-credential match smtp example.com >>actual &&
	git config --global --remove-section credential &&
	printf "helpers=1 path=0\nhelpers=0 path=0\nhelpers=1 path=0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'credential.useHttpPath: the path is part of the key for http(s) only' '
	git config --global credential.useHttpPath true &&
	test-credential match https example.com foo.git >actual &&
	test-credential match smtp example.com foo >>actual &&
	git config --global --unset credential.useHttpPath &&
	git config --global credential.https://example.com.useHttpPath true &&
	test-credential match https example.com foo.git >>actual &&
	test-credential match https other.example.com foo.git >>actual &&
	printf "helpers=0 path=1\nhelpers=0 path=0\nhelpers=0 path=1\nhelpers=0 path=0\n" >expect &&
	test_cmp expect actual
'

test_done
