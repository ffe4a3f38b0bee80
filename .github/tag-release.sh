#!/usr/bin/env bash
# Tags a release: the one command between a commit on the main branch and the release
# binaries (see "Releases" in docs/install.md).
#
#   .github/tag-release.sh           # tag the version Cargo.toml names (the first: v0.1.0)
#   .github/tag-release.sh 0.2.0     # set that version in Cargo.toml and Cargo.lock, commit
#                                    # ("Release v0.2.0"), then tag it
#
# Before it tags: the working tree is clean, HEAD is on a branch, the version is X.Y.Z, the tag
# exists neither here nor on the remote, and `cargo test --locked` passes (SKIP_TESTS=1 skips
# it, for a commit CI has already tested). Then it pushes the branch and the tag vX.Y.Z
# together to REMOTE (default origin); the tag starts .github/workflows/release.yml, which
# builds the archives and publishes them as the GitHub release of the tag. DRY_RUN=1 checks
# and says what it would do, and changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
remote="${REMOTE:-origin}"
die() { echo "error: $*" >&2; exit 1; }
run() { if [ "${DRY_RUN:-0}" = 1 ]; then echo "would run: $*"; else "$@"; fi; }

current="$(sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | sed -n 1p)"
version="${1:-$current}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "version '$version' is not X.Y.Z"
tag="v$version"
branch="$(git symbolic-ref -q --short HEAD)" || die "HEAD is not on a branch: check out the branch to release from"
[ -z "$(git status --porcelain)" ] || die "the working tree has changes: commit or stash them first"
git remote get-url "$remote" >/dev/null 2>&1 ||
  die "no git remote '$remote': add the GitHub repository (git remote add origin URL) or set REMOTE"
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then die "tag $tag exists already"; fi
if git ls-remote --exit-code --tags "$remote" "refs/tags/$tag" >/dev/null; then
  die "tag $tag exists already on $remote"
fi

if [ "$version" != "$current" ]; then
  echo "version $current -> $version"
  if [ "${DRY_RUN:-0}" != 1 ]; then
    awk -v v="$version" '!done && /^version *= *"/ { print "version = \"" v "\""; done = 1; next } { print }' \
      Cargo.toml > Cargo.toml.new && mv Cargo.toml.new Cargo.toml
    # Only this package's own entry in Cargo.lock changes.
    cargo update --offline --workspace
  fi
  run git commit -q -m "Release $tag" Cargo.toml Cargo.lock
fi
if [ "${SKIP_TESTS:-0}" != 1 ]; then run cargo test --locked; fi
run git tag -a "$tag" -m "sitemapgen $tag"
run git push --atomic "$remote" "$branch" "refs/tags/$tag"
[ "${DRY_RUN:-0}" = 1 ] ||
  echo "pushed $tag: the Release workflow builds and publishes it (the repository's Actions tab)"
