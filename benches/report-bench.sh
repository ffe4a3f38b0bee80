#!/usr/bin/env bash
# What `sitemapgen report` costs on a large site (issue 41: under 2 s for 100,000 pages), and
# whether Chromium opens what it writes.
#
#   benches/report-bench.sh                # 100,000 pages, 5 rounds
#   PAGES=10000 RUNS=3 benches/report-bench.sh
#
# In one run it builds the release binary and gen-site, generates a Zola-style site of $PAGES
# pages (seed 1) under $BENCH_DIR (reused when its stamp matches), reads the tree once, then
# alternates `sitemapgen --quiet` (build: the baseline, same machine, same moment) and
# `sitemapgen --quiet report --out FILE`, $RUNS rounds: the medians of wall and CPU time
# (user + sys, GNU time) and the report's ratio to the build. Last, headless Chromium loads
# the report (when one is installed) and counts the URL rows it sees, with its wall time.
#
# Environment: PAGES (default 100000), RUNS (default 5), BENCH_DIR (default
# /tmp/sitemapgen-report-bench), CHROMIUM (default: chromium on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
PAGES="${PAGES:-100000}"
RUNS="${RUNS:-5}"
dir="${BENCH_DIR:-/tmp/sitemapgen-report-bench}"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
cargo build --release --quiet --bin sitemapgen --example gen-site
bin="$PWD/target/release/sitemapgen"
site="$dir/site-$PAGES"
mkdir -p "$dir"
if ! grep -q "n=$PAGES seed=1 style=zola" "$site/.gen-site" 2>/dev/null; then
  rm -rf "$site"
  target/release/examples/gen-site "$PAGES" "$site" --seed 1
fi
find "$site/content" -name '*.md' -print0 | xargs -0 cat > /dev/null

# timed NAME ARGS...: one run, its "wall cpu" appended to $dir/NAME.times.
timed() {
  local name="$1"
  shift
  /usr/bin/time -f '%e %U %S' -o "$dir/one.time" "$@" > /dev/null
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/one.time" >> "$dir/$name.times"
}
rm -f "$dir"/*.times "$dir/report.html"
for _ in $(seq "$RUNS"); do
  timed build "$bin" --site "$site" --quiet
  timed report "$bin" --site "$site" --quiet report --out "$dir/report.html"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for name in build report; do
  wall=$(cut -d' ' -f1 "$dir/$name.times" | median)
  cpu=$(cut -d' ' -f2 "$dir/$name.times" | median)
  printf '%-7s %6s s wall %6s s CPU (median of %s)\n' "$name" "$wall" "$cpu" "$RUNS"
  eval "${name}_wall=$wall ${name}_cpu=$cpu"
done
echo "report / build: $(echo "scale=2; $report_wall / $build_wall" | bc)x wall, $(echo "scale=2; $report_cpu / $build_cpu" | bc)x CPU"
echo "report file: $(du -k "$dir/report.html" | cut -f1) KB"

browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -n "$browser" ]; then
  start=$(date +%s.%N)
  rows=$("$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$dir/chromium-profile" --dump-dom "file://$dir/report.html" 2>/dev/null |
    grep -c '^<tr><td><a href=' || true)
  echo "chromium: loaded the report in $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s, $rows URL rows in its DOM"
fi
