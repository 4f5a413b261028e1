#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish over ssh: sshd on loopback, the ssh-agent or ~/.ssh keys, the host key checked'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

if ! test_have_prereq SSHD
then
	skip_all='no sshd (or no /run/sshd and not root)'
	test_done
fi

test_expect_success 'setup: sshd taking our key, origin over ssh' '
	notify_stub &&
	mkdir -p .ssh &&
	ssh-keygen -q -t ed25519 -N "" -C publish-test -f .ssh/id_ed25519 &&
	cp .ssh/id_ed25519.pub authorized_keys &&
	start_ssh_server "$PWD/authorized_keys" &&
	mkdir srv &&
	make_bare_server_repo srv/origin.git &&
	link=$(path_without_spaces "$PWD/srv") &&
	setup_article_repo r &&
	git -C r remote add origin "ssh://$(id -un)@127.0.0.1:$SSH_PORT$link/origin.git" &&
	git -C r push -q "$PWD/srv/origin.git" usb-next &&
	in_repo r queue_commit drivers/usb/a.c "usb: a"
'

test_expect_success 'published with the key in ~/.ssh (no agent)' '
	tip=$(git -C r rev-parse work-next) &&
	env -u SSH_AUTH_SOCK git -C r maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test_line_count = 1 notify.log
'

test_expect_success 'published through the ssh-agent, the key file gone' '
	in_repo r queue_commit drivers/usb/b.c "usb: b" &&
	mv .ssh/id_ed25519 agent-key &&
	eval "$(ssh-agent -s)" >/dev/null &&
	test_when_finished "ssh-agent -k >/dev/null; mv agent-key .ssh/id_ed25519" &&
	ssh-add -q agent-key 2>/dev/null &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish -q &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip"
'

test_expect_success 'a host key not in known_hosts: refused before any login, exit 128, nothing changed' '
	mv .ssh/known_hosts known_hosts.saved &&
	test_when_finished "mv known_hosts.saved .ssh/known_hosts" &&
	in_repo r queue_commit drivers/usb/c.c "usb: c" &&
	repo_state_of r >before &&
	origin_before=$(remote_tip srv/origin.git usb-next) &&
	: >notify.log &&
	test_expect_code 128 env -u SSH_AUTH_SOCK git -C r maint-publish 2>err &&
	grep "^error: push to .origin.: failed (invalid or unknown remote ssh hostkey)" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log
'

test_expect_success 'a key the server does not take: authentication failed, exit 128, nothing changed' '
	mv .ssh/id_ed25519 good-key &&
	test_when_finished "mv good-key .ssh/id_ed25519" &&
	ssh-keygen -q -t ed25519 -N "" -f .ssh/id_ed25519 -C other <<-\EOF &&
	y
	EOF
	repo_state_of r >before &&
	test_expect_code 128 env -u SSH_AUTH_SOCK git -C r maint-publish 2>err &&
	grep "^error: push to .origin.: authentication failed (no ssh key was accepted" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty notify.log
'

test_done
