#!/usr/bin/env bash
# Installs the Debian packages the tests need: a real IMAP server (dovecot-imapd) and a
# real SMTP server (python3-aiosmtpd, run by scripts/smtp_sink.py); scripts/mail-servers.sh
# starts both on 127.0.0.1 for the tests. strace for the durability test.
# Idempotent and quiet: prints nothing and does nothing when all is there. Needs root (or
# sudo) and Debian's package registry (works on a fresh Debian 12).
set -euo pipefail

need=()
dpkg -s dovecot-imapd >/dev/null 2>&1 || need+=(dovecot-imapd)
dpkg -s python3-aiosmtpd >/dev/null 2>&1 || need+=(python3-aiosmtpd)
# openssl makes the throwaway CA and server certificate for the TLS tests.
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# strace shows the durability test that the database is synced before a message is
# acknowledged (tests/durability.rs).
command -v strace >/dev/null 2>&1 || need+=(strace)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-test-deps: need root (or sudo) to install: ${need[*]}" >&2
    exit 1
  fi
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "install-test-deps: installing ${need[*]}"
# The package's post-install may start a system dovecot on port 143; the tests do not use
# it (mail-servers.sh runs its own instance with its own ports and base_dir).
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
  echo "install-test-deps: apt-get failed:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi

command -v openssl >/dev/null 2>&1 || { echo "install-test-deps: openssl did not install" >&2; exit 1; }
command -v strace >/dev/null 2>&1 || { echo "install-test-deps: strace did not install" >&2; exit 1; }
for p in dovecot-imapd python3-aiosmtpd; do
  dpkg -s "$p" >/dev/null 2>&1 || { echo "install-test-deps: $p did not install" >&2; exit 1; }
done
/usr/bin/python3 -c 'import aiosmtpd' || { echo "install-test-deps: aiosmtpd not importable by /usr/bin/python3" >&2; exit 1; }
