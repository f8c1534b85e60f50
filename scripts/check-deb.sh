#!/usr/bin/env bash
# Builds the Debian package with scripts/build-deb.sh (cargo-deb, [package.metadata.deb] in
# Cargo.toml; a release build, minutes the first time) and checks what it holds with
# dpkg-deb: the binary, the default config and the templates in /etc/castellan/ (conffiles),
# the systemd units (the template castellan@.service too), the man page, the shell
# completions, the docs and the maintainer scripts, which scripts/check-maintainer-scripts.sh
# then runs in a scratch root (install, upgrade, removal, purge). Then unpacks it into a scratch root and runs the packaged
# binary there: the packaged config loads and `castellan doctor` finds no problem, and
# `systemd-analyze verify` passes on the packaged units beside the packaged binary.
# Run by scripts/test; fails (never skips) when cargo-deb or dpkg-deb is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "check-deb: $*" >&2; exit 1; }
command -v dpkg-deb >/dev/null || die "dpkg-deb missing (Debian's dpkg)"
cargo deb --version >/dev/null 2>&1 || die "cargo-deb missing: run scripts/install-test-deps.sh"

bash scripts/build-deb.sh >/dev/null
deb="$(ls target/debian/castellan_*.deb 2>/dev/null | head -n 1)"
[ -n "$deb" ] || die "cargo deb made no target/debian/castellan_*.deb"
echo "check-deb: $deb ($(du -h "$deb" | cut -f1))"

contents="$(dpkg-deb -c "$deb")"
for f in \
  ./usr/bin/castellan \
  ./etc/castellan/castellan.yaml \
  ./lib/systemd/system/castellan.service \
  ./lib/systemd/system/castellan-once.service \
  ./lib/systemd/system/castellan-once.timer \
  ./lib/systemd/system/castellan@.service \
  ./etc/castellan/templates/en/reply.txt \
  ./etc/castellan/templates/en/answers/join.txt \
  ./etc/castellan/templates/fr/welcome.txt \
  ./etc/castellan/templates/fr/answers/orders.txt \
  ./usr/share/man/man1/castellan.1.gz \
  ./usr/share/bash-completion/completions/castellan \
  ./usr/share/zsh/vendor-completions/_castellan \
  ./usr/share/fish/vendor_completions.d/castellan.fish \
  ./usr/share/doc/castellan/commandes.md \
  ./usr/share/doc/castellan/README.md \
  ./usr/share/doc/castellan/operating.md \
  ./usr/share/doc/castellan/config.md \
  ./usr/share/doc/castellan/commands.md \
  ./usr/share/doc/castellan/orders/castle-risk.md \
  ./usr/share/doc/castellan/copyright; do
  grep -q " $f\$" <<<"$contents" || die "$deb has no $f"
done
grep -q '^-rwxr-xr-x .* ./usr/bin/castellan$' <<<"$contents" || die "usr/bin/castellan is not 755"

[ "$(dpkg-deb -f "$deb" Package)" = castellan ] || die "package name"
depends="$(dpkg-deb -f "$deb" Depends)"
grep -q 'libc6' <<<"$depends" || die "Depends lacks libc6: $depends"
grep -q 'adduser' <<<"$depends" || die "Depends lacks adduser: $depends"

ctrl="$(mktemp -d)"
root="$(mktemp -d)"
trap 'rm -rf "$ctrl" "$root"' EXIT
dpkg-deb -e "$deb" "$ctrl"
grep -qx /etc/castellan/castellan.yaml "$ctrl/conffiles" || die "castellan.yaml is not a conffile"
# The templates an operator rewords are conffiles: dpkg keeps the edits on upgrade.
grep -qx /etc/castellan/templates/en/reply.txt "$ctrl/conffiles" || die "the templates are not conffiles"
[ -x "$ctrl/postinst" ] || die "no postinst"
grep -q 'adduser --system' "$ctrl/postinst" || die "postinst makes no system user"
bash scripts/check-maintainer-scripts.sh "$ctrl" || die "the packaged maintainer scripts"

# Unpacked: the packaged binary runs, the packaged config loads, and with its paths moved
# into the scratch root the doctor finds no problem. (No MTA listens on port 25 here: the
# doctor's SMTP check, which tests/doctor.rs runs on a real server, is given the file
# transport instead.)
dpkg-deb -x "$deb" "$root"
"$root/usr/bin/castellan" --version >/dev/null || die "the packaged binary does not run"
mkdir -p "$root/var/lib/castellan"
sed -e "s#/var/lib/castellan#$root/var/lib/castellan#" \
    -e "s#/etc/castellan/templates#$root/etc/castellan/templates#" \
    -e "s#^  kind: smtp#  kind: file#" \
    "$root/etc/castellan/castellan.yaml" >"$root/castellan.yaml"
if ! out="$("$root/usr/bin/castellan" --config "$root/castellan.yaml" doctor 2>&1)"; then
  echo "$out" >&2
  die "castellan doctor on the packaged config found a problem"
fi
grep -q 'templates: 8 template(s) parse\|template(s) parse' <<<"$out" || die "doctor did not read the packaged templates: $out"
# Every command says which configuration it read (issue 34): here the one CASTELLAN_CONFIG
# names, as the package's /etc/castellan/castellan.yaml is found without it.
said="$(CASTELLAN_CONFIG="$root/castellan.yaml" "$root/usr/bin/castellan" config)" || die "castellan config: $said"
first="${said%%$'\n'*}"
grep -qF "$root/castellan.yaml" <<<"$first" || die "castellan config does not name the file it read: $first"

# The packaged man page and completions are the binary's own.
zcat "$root/usr/share/man/man1/castellan.1.gz" | grep -q '^\.TH castellan' || die "the man page is not castellan(1)"
grep -q 'serve' "$root/usr/share/bash-completion/completions/castellan" || die "the bash completions lack serve"

# The packaged units, beside the packaged binary, pass systemd-analyze verify (offline).
mkdir -p "$root/usr/lib/systemd" "$root/bin"
cp -r /lib/systemd/system "$root/usr/lib/systemd/"
cp /bin/kill "$root/bin/kill"
if [ ! -e "$root/usr/lib/systemd/system/castellan.service" ]; then
  cp "$root"/lib/systemd/system/castellan* "$root/usr/lib/systemd/system/"
fi
said="$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify --root="$root" \
  /usr/lib/systemd/system/castellan.service \
  /usr/lib/systemd/system/castellan-once.service \
  /usr/lib/systemd/system/castellan-once.timer \
  /usr/lib/systemd/system/castellan@league.service 2>&1)" || die "systemd-analyze verify: $said"
[ -z "$said" ] || die "systemd-analyze verify warned: $said"
echo "check-deb: ok ($(grep -c . <<<"$contents") entries; Depends: $depends)"
