// Package deploy holds no code: it is the operator kit (a systemd unit,
// an nginx site, a Dockerfile and a compose file) and the tests that check
// it where this machine can (systemd-analyze; nginx with -tags nginx). See
// docs/operating.md.
package deploy
