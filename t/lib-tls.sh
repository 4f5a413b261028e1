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
#                         what the tests check. Made once a run (the
#                         run's cache, test_cache in test-lib.sh), copied.

make_tls_cert () {
	test_cache tls-cert "$MAINT_TEST_DIR/lib-tls.sh" -- tls_cert_make &&
	mkdir -p "$1" &&
	cp "$TEST_CACHE/cert.pem" "$TEST_CACHE/key.pem" "$1/"
}

tls_cert_make () {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-keyout key.pem -out cert.pem -subj /CN=127.0.0.1 \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" 2>/dev/null
}
