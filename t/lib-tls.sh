# SPDX-License-Identifier: GPL-2.0-only
# A throwaway certificate for the loopback servers of the fetch tests.
# Source after test-lib.sh.
#
#   make_tls_cert <dir>   writes <dir>/cert.pem (self-signed, for
#                         127.0.0.1 and localhost, valid two days) and
#                         <dir>/key.pem; the certificate is its own CA,
#                         so a client trusts it only when told to
#                         (archive.cainfo, imap.cainfo). The key is
#                         P-256: made in milliseconds where RSA 2048 takes
#                         a third of a second, and the key's kind is not
#                         what the tests check

make_tls_cert () {
	mkdir -p "$1" &&
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-keyout "$1/key.pem" -out "$1/cert.pem" -subj /CN=127.0.0.1 \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" 2>/dev/null
}
