#!/usr/bin/env bash
# What installing sitemapgen costs, and what the build settings cost at run time (issue 17).
#
#   benches/build-cost.sh                  # HEAD against BASE (default: the commit before
#                                          # the build-cost change), one after the other
#   BASE=v0.1.0 benches/build-cost.sh      # against another revision
#
# For each revision, in one run: a fresh `git clone` of it, then `cargo install --locked
# --path CLONE --root DIR` (what the README, the Action's fallback and, in effect, the
# pre-commit hook run) into an empty target folder with `--timings`: wall time, CPU time
# (user + sys), the crates compiled, and the ten costliest units. Then both installed binaries
# build the sitemap of one generated site (gen-site, $PAGES pages), alternating, $RUNS runs
# each; the medians of wall and CPU time are printed with their ratio to the first revision.
#
# Downloaded crates come from cargo's cache (`--offline` when OFFLINE=1): the network is not
# what is measured. The machine should be otherwise idle; on a shared machine compare the
# CPU columns and the ratios, which hold up better than wall times.
#
# What a cargo feature costs: the same revision twice, the first without it, e.g.
#   BASE=HEAD BASE_INSTALL_ARGS=--no-default-features benches/build-cost.sh
#
# Environment: BASE, HEAD (revisions), BASE_INSTALL_ARGS and HEAD_INSTALL_ARGS (more
# `cargo install` arguments for each, split on spaces), PAGES (default 100000), RUNS (default
# 3), BENCH_DIR (default /tmp/sitemapgen-build-cost), OFFLINE.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
BASE="${BASE:-$(git log -1 --format=%H --grep='^build cost:' HEAD)^}"
HEAD_REV="${HEAD:-HEAD}"
PAGES="${PAGES:-100000}"
RUNS="${RUNS:-3}"
dir="${BENCH_DIR:-/tmp/sitemapgen-build-cost}"
offline=()
[ "${OFFLINE:-0}" = 1 ] && offline=(--offline)
mkdir -p "$dir"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

# install NAME REV [ARGS]: a fresh clone and a cold `cargo install` (with ARGS), timed.
install() {
  local name="$1" rev="$2" src="$dir/$1-src" root="$dir/$1-root" tgt="$dir/$1-target"
  local more=()
  read -r -a more <<< "${3:-}"
  rm -rf "$src" "$root" "$tgt"
  git clone -q "$repo" "$src"
  git -C "$src" checkout -q "$(git rev-parse "$rev")"
  CARGO_TARGET_DIR="$tgt" /usr/bin/time -f '%e %U %S' -o "$dir/$name.time" \
    cargo install "${offline[@]}" "${more[@]}" --locked --timings --path "$src" --root "$root" \
    >"$dir/$name.log" 2>&1
  local wall user sys crates
  read -r wall user sys < "$dir/$name.time"
  crates=$(grep -c '^ *Compiling ' "$dir/$name.log" || true)
  printf '%s (%s%s): cargo install %.0f s wall, %.0f s CPU, %s crates compiled\n' \
    "$name" "$(git rev-parse --short "$rev")" "${3:+ $3}" "$wall" "$(echo "$user + $sys" | bc)" "$crates"
  # The ten costliest units, from cargo's timing report (seconds each took, in parallel).
  local report
  report=$(ls -t "$src"/target/cargo-timings/cargo-timing-*.html "$tgt"/cargo-timings/cargo-timing-*.html 2>/dev/null | sed -n 1p || true)
  if [ -n "$report" ]; then
    python3 - "$report" <<'EOF'
import json, re, sys
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(sys.argv[1]).read(), re.S).group(1))
total = sum(u["duration"] for u in units)
print(f"  units: {len(units)}, their times add up to {total:.0f} s; costliest:")
for u in sorted(units, key=lambda u: -u["duration"])[:10]:
    target = u.get("target", "").strip()
    print(f"  {u['duration']:7.1f} s  {u['name']} {u['version']} {target}")
EOF
  fi
}

install before "$BASE" "${BASE_INSTALL_ARGS:-}"
install after "$HEAD_REV" "${HEAD_INSTALL_ARGS:-}"

# One generated site, built by each binary in turn.
site="$dir/site-$PAGES"
if [ ! -f "$site/.gen-site" ]; then
  # In the second clone's target folder, whose release dependencies are already built.
  (cd "$dir/after-src" && CARGO_TARGET_DIR="$dir/after-target" \
    cargo run -q "${offline[@]}" --locked --release --example gen-site -- "$PAGES" "$site")
fi
find "$site/content" -type f -print0 | xargs -0 cat >/dev/null
declare -A walls cpus
for ((r = 0; r < RUNS; r++)); do
  for name in before after; do
    /usr/bin/time -f '%e %U %S' -o "$dir/run.time" "$dir/$name-root/bin/sitemapgen" --site "$site" --quiet
    read -r wall user sys < "$dir/run.time"
    walls[$name]+="$wall "
    cpus[$name]+="$(echo "$user + $sys" | bc) "
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bw=$(echo "${walls[before]}" | median); bc_=$(echo "${cpus[before]}" | median)
for name in before after; do
  w=$(echo "${walls[$name]}" | median); c=$(echo "${cpus[$name]}" | median)
  printf '%s: sitemap of %s pages: %.2f s wall (%.2fx), %.2f s CPU (%.2fx), medians of %s\n' \
    "$name" "$PAGES" "$w" "$(echo "$w / $bw" | bc -l)" "$c" "$(echo "$c / $bc_" | bc -l)" "$RUNS"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
