#!/usr/bin/env bash
# Builds the release archive of one target: sitemapgen-TARGET.tar.gz (the binary, the
# README and docs/) in OUTDIR, plus its line of SHA256SUMS (TARGET.tar.gz.sha256). The release workflow runs it on
# each platform; .ci/run runs it here for Linux x86_64 (musl, or the host target when the
# musl target cannot be installed).
#
#   .github/release-build.sh TARGET [OUTDIR]      # OUTDIR defaults to dist/
#
# PROFILE picks the cargo profile (default dist: thin LTO, see Cargo.toml). Linux targets
# are musl, linked statically; Windows links its C runtime statically. The archive's bytes
# depend only on the binary (fixed owner, mode and time; gzip without a time stamp).
set -euo pipefail
target="${1:?usage: release-build.sh TARGET [OUTDIR]}"
out="${2:-dist}"
profile="${PROFILE:-dist}"
cd "$(dirname "$0")/.."
exe=""
case "$target" in
  *-windows-msvc)
    export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static"
    exe=.exe
    ;;
esac
# Every feature: the network commands (`net`) and bundled time-zone tables (`tzdata`), both
# off in a plain `cargo install`.
cargo build --locked --profile "$profile" --target "$target" --features net,tzdata --bin sitemapgen
bin="target/$target/$profile/sitemapgen$exe"

# A Linux binary must run on any distribution: nothing dynamic may be left in it.
case "$target" in
  *-linux-musl)
    if command -v readelf >/dev/null 2>&1 && readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
      echo "error: $bin is dynamically linked: $(readelf -d "$bin" | grep NEEDED)" >&2
      exit 1
    fi
    ;;
esac

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$bin" "$stage/"
cp README.md "$stage/"
# The README links its pages in docs/: ship them beside it.
cp -R docs "$stage/"
mkdir -p "$out"
archive="sitemapgen-$target.tar.gz"
# GNU tar (Linux) takes the options that make the bytes reproducible; bsdtar (macOS,
# Windows) lacks some of them, and its archives are only as stable as it makes them.
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --mode='u+rwX,go+rX,go-w' \
    -C "$stage" -cf - "sitemapgen$exe" README.md docs | gzip -n -9 > "$out/$archive"
else
  tar -C "$stage" -cf - "sitemapgen$exe" README.md docs | gzip -n -9 > "$out/$archive"
fi
if command -v sha256sum >/dev/null 2>&1; then
  (cd "$out" && sha256sum "$archive" > "$archive.sha256")
else
  (cd "$out" && shasum -a 256 "$archive" > "$archive.sha256")
fi
echo "$out/$archive: $(cut -d' ' -f1 "$out/$archive.sha256")"
