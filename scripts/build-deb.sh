#!/usr/bin/env bash
# Builds the Debian package: the release binary, then from it the man page (`castellan
# manpage`) and the shell completions (`castellan completions`) into target/assets/, then
# `cargo deb --no-build` ([package.metadata.deb] in Cargo.toml) makes
# target/debian/castellan_<version>_<arch>.deb. docs/operating.md, "Install".
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --quiet
bin=target/release/castellan
mkdir -p target/assets
"$bin" manpage | gzip -9n >target/assets/castellan.1.gz
"$bin" completions bash >target/assets/castellan.bash
"$bin" completions zsh >target/assets/_castellan
"$bin" completions fish >target/assets/castellan.fish
rm -f target/debian/castellan_*.deb
cargo deb --no-build --locked --quiet >/dev/null
ls target/debian/castellan_*.deb
