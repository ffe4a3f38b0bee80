#!/usr/bin/env bash
# validate-bench.sh: `sitemapgen validate` against ../shared/schemas/validate.sh (xmllint + XSD).
#
# 1. Generates a 50,000-URL sitemap (at the protocol limit) and a 1,000,000-URL one (20x past
#    it: a file users should not have, but one the validator must still stream through).
# 2. Times validate.sh and `sitemapgen validate` on the 50k file (best of RUNS), prints the ratio.
#    Issue target: sitemapgen at least 5x faster.
# 3. Peak RSS (/usr/bin/time -v) of `sitemapgen validate` on the 50k and the 1M file.
#    Issue target: flat memory (the 1M figure close to the 50k one).
#
# Env: RUNS (default 3), SCHEMAS (default ../shared/schemas from the repo root),
#      CARGO_TARGET_DIR (default target). Needs xmllint (libxml2-utils) and GNU time (time).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCHEMAS="${SCHEMAS:-$ROOT/../shared/schemas}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET/release/sitemapgen"
RUNS="${RUNS:-3}"

command -v xmllint >/dev/null || { echo "xmllint missing: apt-get install -y libxml2-utils" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install -y time" >&2; exit 2; }
[ -f "$SCHEMAS/validate.sh" ] || { echo "no validate.sh in $SCHEMAS (set SCHEMAS)" >&2; exit 2; }
(cd "$ROOT" && cargo build --release --quiet)

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

gen() { # gen N FILE: a urlset with N entries, every field set, as a generator would write it
  awk -v n="$1" 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
    for (i = 1; i <= n; i++)
      printf "  <url>\n    <loc>https://example.com/blog/%d/post-number-%d/</loc>\n    <lastmod>2024-%02d-%02dT10:%02d:00+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.5</priority>\n  </url>\n", i % 97, i, i % 12 + 1, i % 28 + 1, i % 60
    print "</urlset>"
  }' > "$2"
}

S50K="$WORK/sitemap-50k.xml"
S1M="$WORK/sitemap-1m.xml"
gen 50000 "$S50K"
gen 1000000 "$S1M"
printf 'files: 50k = %s bytes, 1M = %s bytes\n' "$(wc -c <"$S50K")" "$(wc -c <"$S1M")"

best() { # best CMD...: "WALL CPU" of the fastest of RUNS runs, in seconds (CPU = user + sys)
  local b=""
  for _ in $(seq "$RUNS"); do
    local t
    /usr/bin/time -o "$WORK/time" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
    t=$(tail -1 "$WORK/time")
    b=$(echo "$t $b" | awk '{ w = $1; c = $2 + $3; if ($4 == "" || w < $4) print w, c; else print $4, $5 }')
  done
  echo "$b"
}

# Both must accept the 50k file, or the comparison means nothing.
bash "$SCHEMAS/validate.sh" "$S50K" >/dev/null 2>&1 || { echo "validate.sh rejects the 50k file" >&2; exit 1; }
"$BIN" validate "$S50K" >/dev/null || { echo "sitemapgen rejects the 50k file" >&2; exit 1; }

read -r W_SH C_SH <<<"$(best bash "$SCHEMAS/validate.sh" "$S50K")"
read -r W_SG C_SG <<<"$(best "$BIN" validate "$S50K")"
echo "50k URLs, best of $RUNS: validate.sh ${W_SH}s wall (${C_SH}s CPU), sitemapgen validate ${W_SG}s wall (${C_SG}s CPU)"
awk -v a="$W_SH" -v b="$W_SG" -v c="$C_SH" -v d="$C_SG" 'BEGIN {
  printf "ratio: sitemapgen is %.1fx faster wall-clock, %.1fx less CPU (target >= 5x)\n", a / b, c / d }'
echo "(GNU time reports to 10 ms; other load on the machine inflates wall-clock figures)"

rss() { # rss FILE: peak resident set of `sitemapgen validate FILE`, in KiB
  { /usr/bin/time -v "$BIN" validate "$1" 2>&1 >/dev/null || true; } | awk -F': ' '/Maximum resident set size/ { print $2 }'
}
R50K=$(rss "$S50K")
R1M=$(rss "$S1M")
read -r T1M _ <<<"$(best "$BIN" validate "$S1M")"
echo "peak RSS: 50k ${R50K} KiB, 1M ${R1M} KiB (1M validated in ${T1M}s; it exceeds both limits, as reported)"
"$BIN" validate "$S1M" | tail -3 || true
