#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-request-pull: the tag signed as git tag -s signs it (openpgp with a throwaway gpg home, x509 with a self-signed certificate in it, ssh), git verify-tag the judge'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-request-pull.sh"

GNUPGHOME="$TRASH_DIRECTORY/gnupg"
export GNUPGHOME
cleanup 'gpgconf --kill gpg-agent 2>/dev/null; stop_smtp_server'

mail_body () {
	tr -d "\r" <"$SMTP_SPOOL/$(printf %04d "$1").eml" | sed "1,/^\$/d"
}

# mail_text_is_oracle_unsigned <n> <tag> <armour>: the n-th mail's text is
# git request-pull's for the tag, without the signature ("-----BEGIN
# <armour>-----" to its END line) that git 2.39 prints and later git does not.
mail_text_is_oracle_unsigned () {
	oracle r "$2" "$PWD/origin.git" >oracle.txt &&
	sed "/^-----BEGIN $3-----\$/,/^-----END $3-----\$/d" oracle.txt >expect &&
	mail_body "$1" >body &&
	pull_text body >actual &&
	! grep "$3" actual &&
	test_cmp expect actual
}

test_expect_success 'setup: a gpg key of the committer, an ssh key, the repository, the SMTP server' '
	mkdir -m 700 gnupg &&
	gpg --batch --passphrase "" --quick-gen-key "C O Mitter <committer@example.com>" ed25519 sign never 2>/dev/null &&
	ssh-keygen -q -t ed25519 -N "" -C committer -f "$PWD/sshkey" &&
	echo "committer@example.com $(cat sshkey.pub)" >allowed-signers &&
	setup_pull_repos &&
	start_smtp_server &&
	(cd r && smtp_config && git config sendemail.smtpPass "$SMTP_PASSWORD")
'

test_expect_success 'the dry run signs nothing and says how it would sign' '
	in_repo r git-maint-request-pull --tag usb-pgp -F ../msg >out 2>err &&
	grep "as .usb-pgp., signed with openpgp" err &&
	test_must_fail git -C r rev-parse -q --verify refs/tags/usb-pgp &&
	! grep "BEGIN PGP" out
'

test_expect_success 'openpgp: the committer'"'"'s key by default; git verify-tag accepts the tag' '
	in_repo r git-maint-request-pull --tag usb-pgp -F ../msg --send 2>err &&
	git -C r verify-tag usb-pgp 2>verify &&
	grep "Good signature from \"C O Mitter <committer@example.com>\"" verify &&
	git -C r cat-file tag usb-pgp >tag &&
	grep "^-----BEGIN PGP SIGNATURE-----$" tag &&
	test "$(git -C origin.git rev-parse refs/tags/usb-pgp)" = "$(git -C r rev-parse usb-pgp)"
'

test_expect_success 'openpgp: the mail holds git request-pull'"'"'s text, the signature left out' '
	oracle r usb-pgp "$PWD/origin.git" >expect &&
	! grep "BEGIN PGP" expect &&
	mail_body 1 >body &&
	pull_text body >actual &&
	test_cmp expect actual
'

test_expect_success 'ssh: gpg.format ssh and user.signingKey; git verify-tag accepts the tag' '
	in_repo r queue_commit drivers/usb/s.c "usb: s" &&
	git -C r push -q origin usb-next &&
	git -C r config gpg.format ssh &&
	git -C r config user.signingKey "$PWD/sshkey" &&
	git -C r config gpg.ssh.allowedSignersFile "$PWD/allowed-signers" &&
	in_repo r git-maint-request-pull --tag usb-ssh -m "USB ssh" --send 2>err &&
	git -C r verify-tag usb-ssh 2>verify &&
	grep "Good \"git\" signature for committer@example.com" verify &&
	git -C r cat-file tag usb-ssh >tag &&
	grep "^-----BEGIN SSH SIGNATURE-----$" tag
'

test_expect_success 'ssh: the mail leaves the signature out (git 2.39 prints it; later git does not)' '
	mail_text_is_oracle_unsigned 2 usb-ssh "SSH SIGNATURE"
'

test_expect_success 'a signer that fails: its words, exit 128, no tag, no state, no mail' '
	in_repo r queue_commit drivers/usb/f.c "usb: f" &&
	git -C r push -q origin usb-next &&
	git -C r config gpg.ssh.program false &&
	test_expect_code 128 in_repo r git-maint-request-pull --tag usb-bad -m "USB bad" --send 2>err &&
	grep "false failed to sign the tag (key " err &&
	test_must_fail git -C r rev-parse -q --verify refs/tags/usb-bad &&
	test_path_is_missing r/.git/maint/request-pull &&
	test "$(smtp_count)" = 2
'

test_expect_success 'ssh without user.signingKey: refused before anything is written' '
	git -C r config --unset gpg.ssh.program &&
	git -C r config --unset user.signingKey &&
	test_expect_code 128 in_repo r git-maint-request-pull --tag usb-nokey -m "USB" --send 2>err &&
	grep "user.signingKey needs to be set to sign with ssh" err &&
	test_must_fail git -C r rev-parse -q --verify refs/tags/usb-nokey
'

# gpgsm makes the certificate itself (batch key generation, self-signed
# with a serial number) on a key the agent already holds without a
# passphrase (Key-Grip: gpgsm 2.2 cannot generate an unprotected key
# without a pinentry); trustlist.txt makes it a trusted root, "relax"
# because it is not a CA certificate, and there are no CRLs to check.
test_expect_success 'x509: gpg.format x509 and user.signingKey; git verify-tag accepts the tag' '
	gpg --batch --passphrase "" --quick-gen-key "x509 key" rsa2048 sign never 2>/dev/null &&
	grip=$(gpg --with-colons --with-keygrip -K "x509 key" | awk -F: "/^grp:/ { print \$10; exit }") &&
	test -n "$grip" &&
	cat >x509-params <<-EOF &&
	Key-Type: RSA
	Key-Grip: $grip
	Key-Usage: sign
	Serial: random
	Name-DN: CN=C O Mitter,O=Example,C=US
	Name-Email: committer@example.com
	EOF
	gpgsm --batch --gen-key --output x509.pem x509-params 2>/dev/null &&
	gpgsm --batch --import x509.pem 2>/dev/null &&
	fpr=$(gpgsm --with-colons --list-keys committer@example.com | awk -F: "/^fpr:/ { print \$10; exit }") &&
	test -n "$fpr" &&
	echo "$fpr S relax" >>gnupg/trustlist.txt &&
	echo disable-crl-checks >>gnupg/gpgsm.conf &&
	in_repo r queue_commit drivers/usb/x.c "usb: x" &&
	git -C r push -q origin usb-next &&
	git -C r config gpg.format x509 &&
	git -C r config user.signingKey committer@example.com &&
	in_repo r git-maint-request-pull --tag usb-x509 -m "USB x509" --send 2>err &&
	git -C r verify-tag usb-x509 2>verify &&
	grep "Good signature from \"/CN=C O Mitter/O=Example/C=US\"" verify &&
	git -C r cat-file tag usb-x509 >tag &&
	grep "^-----BEGIN SIGNED MESSAGE-----$" tag &&
	test "$(git -C origin.git rev-parse refs/tags/usb-x509)" = "$(git -C r rev-parse usb-x509)"
'

test_expect_success 'x509: the mail leaves the signature out (git 2.39 prints it; later git does not)' '
	mail_text_is_oracle_unsigned 3 usb-x509 "SIGNED MESSAGE"
'

test_done
