#!/usr/bin/env bash
# Installs what the tests need: headless Chromium (tests/pictures.rs); a real IMAP server (dovecot-imapd) and a real SMTP server
# (python3-aiosmtpd, run by scripts/smtp_sink.py), which scripts/mail-servers.sh starts on
# 127.0.0.1; systemd (systemd-analyze verify on contrib/'s units, offline: no systemd needs
# to run); postfix (tests/postfix.rs runs its own instance on 127.0.0.1); and cargo-deb (the
# Debian package, built and checked by scripts/test); strace (tests/durability.rs).
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
dpkg -s systemd >/dev/null 2>&1 || need+=(systemd)
dpkg -s postfix >/dev/null 2>&1 || need+=(postfix)
# dpkg-shlibdeps (cargo deb's `$auto` Depends) and dpkg-deb (scripts/check-deb.sh).
dpkg -s dpkg-dev >/dev/null 2>&1 || need+=(dpkg-dev)
# Headless Chromium renders a report of each game to a screenshot (tests/pictures.rs), with
# a font for its text.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need+=(fonts-dejavu-core)

# cargo-deb, pinned (builds with the machine's rustc 1.95); skipped when that version is there.
CARGO_DEB_VERSION=3.8.0
if ! cargo deb --version 2>/dev/null | grep -qF "$CARGO_DEB_VERSION"; then
  echo "install-test-deps: cargo install cargo-deb@$CARGO_DEB_VERSION (a few minutes, once)"
  cargo install cargo-deb --version "$CARGO_DEB_VERSION" --locked --quiet ||
    { echo "install-test-deps: cargo install cargo-deb failed" >&2; exit 1; }
fi

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
# it (mail-servers.sh runs its own instance with its own ports and base_dir). Postfix is
# installed unconfigured ("No configuration": no system instance, nothing delivered
# outside); tests/postfix.rs runs an instance of its own on 127.0.0.1.
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
  echo "install-test-deps: apt-get failed:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi

command -v openssl >/dev/null 2>&1 || { echo "install-test-deps: openssl did not install" >&2; exit 1; }
command -v strace >/dev/null 2>&1 || { echo "install-test-deps: strace did not install" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || { echo "install-test-deps: chromium did not install" >&2; exit 1; }
for p in dovecot-imapd python3-aiosmtpd systemd postfix dpkg-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || { echo "install-test-deps: $p did not install" >&2; exit 1; }
done
/usr/bin/python3 -c 'import aiosmtpd' || { echo "install-test-deps: aiosmtpd not importable by /usr/bin/python3" >&2; exit 1; }
