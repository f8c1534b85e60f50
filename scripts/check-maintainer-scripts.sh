#!/usr/bin/env bash
# Runs the package's maintainer scripts (contrib/debian/, or the folder given: check-deb.sh
# passes the packaged ones) in a scratch root, as dpkg would on install, upgrade, removal,
# purge and a failed upgrade, with DPKG_ROOT pointing at the scratch root and stand-ins for
# systemctl, adduser, runuser, getent, install, chown and the packaged castellan that
# record what they are asked. systemd "runs" in the scratch root (its /run/systemd/system
# exists), so what the scripts ask of it is checked without systemd as PID 1. Fails, saying
# what was missing, at the first step that does not do what Debian's packaging asks.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts="$(realpath "${1:-contrib/debian}")"

die() { echo "check-maintainer-scripts: $*" >&2; [ -f "${calls:-}" ] && sed 's/^/  /' "$calls" >&2; exit 1; }
for s in preinst postinst prerm postrm; do
  [ -x "$scripts/$s" ] || die "no executable $s in $scripts"
  sh -n "$scripts/$s" || die "$s: syntax"
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
root="$scratch/root"
fakes="$scratch/bin"
calls="$scratch/calls"
mkdir -p "$fakes" "$root/run/systemd/system" "$root/etc/castellan" "$root/usr/bin" \
  "$root/etc/systemd/system/multi-user.target.wants"
echo "data_dir: /var/lib/castellan" >"$root/etc/castellan/castellan.yaml"
echo "data_dir: /var/lib/castellan/league" >"$root/etc/castellan/league.yaml"
mkdir -p "$root/etc/castellan/templates/en"
echo "Reworded." >"$root/etc/castellan/templates/en/reply.txt"
ln -s /lib/systemd/system/castellan@.service \
  "$root/etc/systemd/system/multi-user.target.wants/castellan@league.service"

fake() { # name, body
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n%s\n' "$1" "$calls" "${2:-exit 0}" >"$fakes/$1"
  chmod +x "$fakes/$1"
}
fake systemctl 'if [ "$1" = list-units ]; then
  printf "castellan.service loaded active running Castellan\ncastellan@league.service loaded active running Castellan league\n"
fi'
fake adduser
fake getent 'exit "${FAKE_USER_EXISTS:-2}"'
fake install 'for a; do last="$a"; done; mkdir -p "$last"'
fake chown
fake deb-systemd-helper
fake runuser 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"'
printf '#!/bin/sh\necho "castellan $*" >>"%s"\necho "wrote backups/backup-1.jsonl"\nexit "${FAKE_BACKUP_RC:-0}"\n' \
  "$calls" >"$root/usr/bin/castellan"
chmod +x "$root/usr/bin/castellan"

run() { # script, args...: its output
  local s="$1"
  shift
  DPKG_ROOT="$root" PATH="$fakes:$PATH" "$scripts/$s" "$@" 2>&1 || die "$s $* failed"
}
called() { grep -qxF -- "$1" "$calls" || die "not asked: $1"; }
not_called() { ! grep -qF -- "$1" "$calls" || die "asked, and should not be: $1"; }

# A first install: the user and the data directory made, nothing started.
: >"$calls"
out="$(run postinst configure)"
called "adduser --system --group --home /var/lib/castellan --no-create-home --gecos Castellan play-by-email judge castellan"
called "install -d -o castellan -g castellan -m 0750 $root/var/lib/castellan"
called "chown root:castellan $root/etc/castellan/castellan.yaml"
called "chown root:castellan $root/etc/castellan/league.yaml"
not_called "systemctl start"
grep -q "systemctl enable --now castellan" <<<"$out" || die "first install: no word of what to enable: $out"

# An upgrade: what runs is stopped, each configuration backed up by the old binary, and
# started again by the new post-install.
: >"$calls"
out="$(run preinst upgrade 0.0.9)"
called "systemctl stop castellan.service castellan@league.service"
called "castellan --config $root/etc/castellan/castellan.yaml backup"
called "castellan --config $root/etc/castellan/league.yaml backup"
grep -q "backup before the upgrade" <<<"$out" || die "preinst does not say it backed up: $out"
[ "$(grep -n 'systemctl stop' "$calls" | cut -d: -f1)" -lt "$(grep -n 'castellan --config' "$calls" | head -1 | cut -d: -f1)" ] ||
  die "the backup ran before the judge stopped"
: >"$calls"
FAKE_USER_EXISTS=0 run postinst configure 0.0.9 >/dev/null
called "systemctl start castellan.service castellan@league.service"
not_called "adduser"
[ ! -e "$root/run/castellan-upgrade.units" ] || die "postinst left the list of units to start"

# A backup that fails is said, and the upgrade goes on.
: >"$calls"
out="$(FAKE_BACKUP_RC=1 run preinst upgrade 0.0.9)"
grep -q "WARNING: no backup before the upgrade" <<<"$out" || die "a failed backup is not said: $out"
# ... and an upgrade that fails starts again what was stopped.
: >"$calls"
run postrm abort-upgrade 0.0.9 >/dev/null
called "systemctl start castellan.service castellan@league.service"

# Removal: every judge stopped and disabled while the unit files are there.
: >"$calls"
out="$(run prerm remove)"
called "systemctl stop castellan.service castellan-once.timer castellan-once.service castellan@*.service castellan@league.service"
called "systemctl --root=$root --no-reload disable castellan.service castellan-once.timer castellan@league.service"
grep -q "stopped and disabled" <<<"$out" || die "prerm does not say what it stopped: $out"
: >"$calls"
run postrm remove >/dev/null
called "systemctl daemon-reload"
[ -f "$root/etc/castellan/castellan.yaml" ] || die "remove (not purge) deleted the configuration"

# Purge: the configuration and templates go, the games and the user stay, and it says so.
: >"$calls"
out="$(run postrm purge)"
[ ! -e "$root/etc/castellan" ] || die "purge kept /etc/castellan"
grep -q "removed /etc/castellan" <<<"$out" || die "purge does not say what it removed: $out"
grep -q "kept /var/lib/castellan" <<<"$out" || die "purge does not say what it kept: $out"
grep -q "deluser --system castellan" <<<"$out" || die "purge does not say how to remove the user: $out"
[ -d "$root/var/lib/castellan" ] || die "purge removed the games"
called "deb-systemd-helper purge castellan.service castellan-once.timer castellan-once.service"

echo "check-maintainer-scripts: ok (install, upgrade with backup and restart, failed backup, failed upgrade, removal, purge)"
