#!/usr/bin/env bash
# The documented workflows, walked as written (issue 40), in a fresh clone of this
# repository's HEAD, offline: every server is on 127.0.0.1 and started here, and where
# `unshare` can, the walk runs in a network namespace that has only the loopback.
#
#  1. the README's install block, into a temporary root: the sitemapgen every later step runs;
#  2. pre-commit (the real one): the hooks this repository publishes (docs/workflows.md,
#     `language: rust`, then the `-system` twins) and the README's local hook, each in a git
#     repository with a staged content change, through `git commit`;
#  3. the README's Quick start blocks (`run in DIR`), in copies of tests/fixtures/readme;
#  4. the Action's steps: the README's workflow steps on a runner without jq (one line names
#     it, nothing runs), then with jq (no release yet: the action builds from its checkout);
#  5. docs/search-engines.md's IndexNow workflow, step by step, three runs: the build with the
#     key, the deploy (public/ copied into a folder a local HTTP server serves), the state
#     cache, and `submit` to a local stub of the IndexNow endpoint (the action installs the
#     release archive .ci/run built of this commit, else builds with the feature `net`).
#
# The blocks are read from the docs by their markers (`<!-- readme-test: … -->`,
# `<!-- docs-test: … -->`), so the docs cannot drift from what is run. GitHub's steps are
# played by .ci/run-steps.py. Builds in the target folder .ci/run uses (CARGO_TARGET_DIR):
# cargo takes the same sources at another path for the same crate, so the clones share its
# artifacts and only this crate compiles, once, as pre-commit installs it (and again with
# `net`, with its dependencies, when there is no release archive for the IndexNow run).
#
# Usage: .ci/workflows.sh (from .ci/run, or alone). Needs git, python3, cargo, curl, jq.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tools="$repo/target/ci-tools"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
export CARGO_TERM_COLOR=never NO_COLOR=1
# Seconds since the epoch: the walk re-executes itself in a namespace, where $SECONDS restarts.
started="${WORKFLOWS_STARTED:-$(date +%s)}"
elapsed() { echo $(($(date +%s) - started)); }

step() { printf '\n== workflows: %s (%d s)\n' "$*" "$(elapsed)"; }
die() {
  echo "error: workflows: $*" >&2
  exit 1
}

if [ -z "${WORKFLOWS_WALK:-}" ]; then
  step "tools: pre-commit"
  if [ ! -x "$tools/venv/bin/pre-commit" ]; then
    [ -x "$tools/venv/bin/python" ] || python3 -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q pre-commit==4.7.0
  fi
  for tool in git python3 cargo curl jq; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH"
  done
  # From here on nothing may reach another host: in a network namespace of its own when
  # this machine allows one (user namespaces), else with the proxies pointing nowhere.
  export WORKFLOWS_WALK=1 WORKFLOWS_STARTED="$started"
  if unshare -rn true 2>/dev/null && command -v ip >/dev/null 2>&1; then
    echo "the walk runs in a network namespace with only the loopback"
    # shellcheck disable=SC2016 # $0 is the inner shell's
    exec unshare -rn bash -c 'ip link set lo up && exec bash "$0"' "$0"
  fi
  echo "note: no network namespace here (unshare -rn): the walk runs with proxies to nowhere"
  export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 all_proxy=http://127.0.0.1:9
  export HTTP_PROXY="$http_proxy" HTTPS_PROXY="$https_proxy" ALL_PROXY="$all_proxy"
  export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,localhost
fi
export CARGO_NET_OFFLINE=true PIP_NO_INDEX=1
export GIT_AUTHOR_NAME=walk GIT_AUTHOR_EMAIL=walk@example.com
export GIT_COMMITTER_NAME=walk GIT_COMMITTER_EMAIL=walk@example.com
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
py="$tools/venv/bin/python"

tmp="$(mktemp -d)"
# Everything the walk's tools make for themselves (the runner's temp folders) goes there too.
mkdir -p "$tmp/t"
export TMPDIR="$tmp/t"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# The fenced block after a marker line in a Markdown file.
block() {
  awk -v marker="$2" '$0 == marker { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$1"
}
# A PATH without the commands named: the folders on PATH holding one of them are replaced by
# folders of links to everything else they hold.
path_without() {
  local out="" dir name f farm n=0
  local -a dirs
  IFS=: read -r -a dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    [ -d "$dir" ] || continue
    local has=""
    for name in "$@"; do [ -e "$dir/$name" ] && has=1; done
    if [ -n "$has" ]; then
      n=$((n + 1))
      farm="$tmp/path-without-$(IFS=-; echo "$*")-$n"
      mkdir -p "$farm"
      for f in "$dir"/*; do
        case " $* " in *" ${f##*/} "*) continue ;; esac
        [ -e "$farm/${f##*/}" ] || ln -s "$f" "$farm/${f##*/}"
      done
      dir="$farm"
    fi
    out="${out:+$out:}$dir"
  done
  printf '%s\n' "$out"
}
# Serves a folder over HTTP on a free local port; prints its base URL (no trailing slash).
serve() {
  local log="$tmp/serve-$RANDOM.log" port=""
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" >"$log" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do
    port="$(sed -n 's/^Serving HTTP on 127.0.0.1 port \([0-9]*\).*/\1/p' "$log")"
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || die "the HTTP server for $1 did not start"
  echo "http://127.0.0.1:$port"
}

# --- a fresh clone, where a user's action or hook would find it -----------------------------
step "a fresh clone of $(git -C "$repo" rev-parse --short HEAD)"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "note: $repo has uncommitted changes: the walk is of HEAD, without them"
fi
# The path of an action checkout on a runner (_actions/OWNER/REPO/REF).
clone="$tmp/_actions/YOUR-ORG/sitemapgen/v0.1.0"
git clone -q --no-hardlinks "$repo" "$clone"
version="$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$clone/Cargo.toml" | sed -n 1p)"
# The docs' pre-commit `rev:` and the Action's `@v0.1.0` name this release tag.
git -C "$clone" tag "v$version"
# Artifacts of the same sources at another path are the same to cargo: the clone and the
# copies pre-commit makes of it compile this crate once, and the working tree's next build
# must not take them for its own when it differs from HEAD: its changed files are made newer.
touch_changed() {
  (cd "$repo" && { git diff --name-only HEAD; git ls-files --others --exclude-standard; } |
    while IFS= read -r f; do [ -f "$f" ] && touch "$f"; done) || true
}
trap 'touch_changed; cleanup' EXIT

base_path="$(path_without sitemapgen)"
export PATH="$base_path"
command -v sitemapgen >/dev/null 2>&1 && die "a sitemapgen is still on PATH: $(command -v sitemapgen)"
stand_ins="$tmp/stand-ins"
mkdir -p "$stand_ins"
# A stand-in for each generator that is not on PATH, as tests/it/readme.rs makes them: it
# copies in what the real one built for the fixture of the folder's name.
for gen in hugo zola; do
  command -v "$gen" >/dev/null 2>&1 && continue
  cat >"$stand_ins/$gen" <<EOF
#!/bin/sh
echo "workflows: no $gen on PATH: copying what it built for this site" >&2
mkdir -p public && cp -R "$clone/tests/fixtures/readme/built/\$(basename "\$PWD")/." public/
EOF
  chmod +x "$stand_ins/$gen"
done

# --- 2a. pre-commit, the published `language: rust` hooks: pre-commit compiles the clone ----
readme="$clone/README.md"
workflows_md="$clone/docs/workflows.md"
pre_commit_rust="$(block "$workflows_md" '<!-- docs-test: pre-commit -->')"
pre_commit_system="$(block "$workflows_md" '<!-- docs-test: pre-commit-system -->')"
pre_commit_local="$(block "$readme" '<!-- readme-test: pre-commit -->')"
if [ -z "$pre_commit_rust" ] || [ -z "$pre_commit_system" ] || [ -z "$pre_commit_local" ]; then
  die "a pre-commit block is missing (docs/workflows.md docs-test: pre-commit, pre-commit-system; README readme-test: pre-commit)"
fi
# The docs say to put the address of your copy of this repository: here, the clone.
published="${pre_commit_rust//https:\/\/github.com\/YOUR-ORG\/sitemapgen/$clone}"
# The hooks list's header (repos, repo, rev, hooks:), to which the -system twins are added.
header="$(sed '/^ *hooks:/q' <<<"$published")"
# A config with the hook the block leaves commented out instead of the one it enables.
other_hook() { sed -e '/^ *- id: /d' -e 's/^\( *\)# - id: /\1- id: /' <<<"$1"; }

export PRE_COMMIT_HOME="$tmp/pre-commit-home"
site="$tmp/hooks/my-zola-site"
mkdir -p "$(dirname "$site")"
cp -R "$clone/tests/fixtures/readme/my-zola-site" "$site"
git -C "$site" init -q
git -C "$site" add .
GIT_AUTHOR_DATE=2024-06-01T12:00:00Z GIT_COMMITTER_DATE=2024-06-01T12:00:00Z git -C "$site" commit -qm site
(cd "$site" && "$tools/venv/bin/pre-commit" install >/dev/null)
pages=0
# A new page (dated: the blog is sorted by date, and Zola renders no undated page there), staged with the hook config; `git commit` runs the hook.
commit_page() {
  pages=$((pages + 1))
  printf '+++\ntitle = "Note %s"\ndate = 2024-06-%02d\n+++\nA note.\n' "$pages" "$((pages + 10))" >"$site/content/blog/note-$pages.md"
  printf '%s\n' "$1" >"$site/.pre-commit-config.yaml"
  git -C "$site" add content .pre-commit-config.yaml
  (cd "$site" && git commit -qm "note $pages" >"$tmp/commit.log" 2>&1)
}
# A hook that rewrites the sitemap: once the sitemap is committed, the commit fails with
# pre-commit's "files were modified by this hook", and passes with the new sitemap staged.
walk_build_hook() {
  local config="$1" what="$2"
  if commit_page "$config"; then
    cat "$tmp/commit.log"
    die "$what: the commit passed with the sitemap out of date"
  fi
  grep -q "files were modified by this hook" "$tmp/commit.log" || {
    cat "$tmp/commit.log"
    die "$what: the commit failed, but not for the rewritten sitemap"
  }
  grep -q "<loc>https://example.com/blog/note-$pages/</loc>" "$site/public/sitemap.xml" ||
    die "$what: the rewritten sitemap does not list the new page"
  git -C "$site" add public/sitemap.xml
  (cd "$site" && git commit -qm "note $pages" >"$tmp/commit.log" 2>&1) || {
    cat "$tmp/commit.log"
    die "$what: the commit with the new sitemap staged failed"
  }
  echo "$what: the commit failed with the sitemap rewritten, then passed with it staged"
}
# A hook that checks: the commit fails and nothing is written; built and staged, it passes.
walk_check_hook() {
  local config="$1" what="$2"
  if commit_page "$config"; then
    cat "$tmp/commit.log"
    die "$what: the commit passed with the sitemap out of date"
  fi
  git -C "$site" diff --quiet -- public || die "$what: the check hook wrote the sitemap"
  grep -q "note-$pages" "$tmp/commit.log" || {
    cat "$tmp/commit.log"
    die "$what: the failure does not name the new page's URL"
  }
  (cd "$site" && "$sitemapgen" build --quiet && git add public/sitemap.xml &&
    git commit -qm "note $pages" >"$tmp/commit.log" 2>&1) || {
    cat "$tmp/commit.log"
    die "$what: the commit with the sitemap built and staged failed"
  }
  echo "$what: the commit failed naming the stale URL, wrote nothing, then passed"
}

step "pre-commit: the published hook sitemapgen (language: rust; pre-commit builds the clone)"
cargo_started=$SECONDS
# The first commit writes the sitemap (untracked, so pre-commit passes it); it is then
# committed, as the docs' sitemapgen hook expects.
commit_page "$published" || {
  cat "$tmp/commit.log"
  die "pre-commit: the first commit with the sitemapgen hook failed"
}
echo "pre-commit installed the hook environment and ran the hook: $((SECONDS - cargo_started)) s"
[ -f "$site/public/sitemap.xml" ] || die "pre-commit: the sitemapgen hook wrote no sitemap"
git -C "$site" add public/sitemap.xml
git -C "$site" commit -qm sitemap
walk_build_hook "$published" "sitemapgen (language: rust)"
sitemapgen="$(find "$PRE_COMMIT_HOME" -path '*/rustenv-*/bin/sitemapgen' | sed -n 1p)"
[ -x "$sitemapgen" ] || die "no sitemapgen in pre-commit's rust environment"
step "pre-commit: the published hook sitemapgen-check (language: rust, the same environment)"
walk_check_hook "$(other_hook "$published")" "sitemapgen-check (language: rust)"

# --- 1. the README's install block: the sitemapgen every later step runs --------------------
step "README: the install block, in the clone (cargo reuses pre-commit's build of the same sources)"
root="$tmp/root"
(cd "$clone" && CARGO_INSTALL_ROOT="$root" PATH="$root/bin:$PATH" \
  bash -e -o pipefail -c "$(block "$readme" '<!-- readme-test: install -->')") >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"
  die "the README's install block failed"
}
grep -x "sitemapgen $version" "$tmp/install.log" || die "the install block printed no version"
export PATH="$root/bin:$base_path"
sitemapgen="$root/bin/sitemapgen"
[ "$(command -v sitemapgen)" = "$sitemapgen" ] || die "sitemapgen on PATH is not the installed one"

step "pre-commit: the -system twins and the README's local hook (the installed sitemapgen)"
system="$header"$'\n'"$pre_commit_system"
walk_build_hook "$system" "sitemapgen-system"
walk_check_hook "$(other_hook "$system")" "sitemapgen-check-system"
walk_build_hook "$pre_commit_local" "README's local hook"
(cd "$site" && sitemapgen check --quiet) || die "sitemapgen check after the hooks' commits"
# And in a fresh clone of the site, as CI would check it.
git clone -q "$site" "$tmp/hooks/fresh"
(cd "$tmp/hooks/fresh" && sitemapgen check --quiet) || die "sitemapgen check in a fresh clone of the site"
echo "sitemapgen check: up to date after the commits, and in a fresh clone of the site"

# --- 3. the README's Quick start ------------------------------------------------------------
step "README: Quick start"
quick=0
while IFS= read -r dir; do
  quick=$((quick + 1))
  mkdir -p "$tmp/quick"
  cp -R "$clone/tests/fixtures/readme/$dir" "$tmp/quick/$dir"
  (cd "$tmp/quick/$dir" && PATH="$stand_ins:$PATH" bash -e -o pipefail \
    -c "$(block "$readme" "<!-- readme-test: run in $dir -->")") ||
    die "the README's block for $dir failed"
  sitemapgen validate --quiet "$tmp/quick/$dir/public/sitemap.xml" ||
    die "$dir: the sitemap does not validate"
  echo "$dir: ran as written; public/sitemap.xml validates"
done < <(sed -n 's/^<!-- readme-test: run in \(.*\) -->$/\1/p' "$readme")
[ "$quick" = 3 ] || die "$quick Quick start blocks, not 3 (Hugo, Zola, plain)"

# --- 4. the Action's steps, as the README shows them ----------------------------------------
step "the Action on a runner without jq"
steps_yml="$tmp/readme-steps.yml"
block "$readme" '<!-- readme-test: workflow-steps -->' | sed 's/^      //' >"$steps_yml"
grep -q 'uses: YOUR-ORG/sitemapgen@' "$steps_yml" || die "no workflow-steps block in README.md"
action_site="$tmp/action/my-zola-site"
mkdir -p "$tmp/action" "$tmp/releases"
cp -R "$clone/tests/fixtures/readme/my-zola-site" "$action_site"
git -C "$action_site" init -q
git -C "$action_site" add .
git -C "$action_site" commit -qm site
# No release published yet: the mirror of release files answers 404.
releases="$(serve "$tmp/releases")"
export SITEMAPGEN_RELEASES="$releases"
case "$(uname -m)" in aarch64 | arm64) export RUNNER_ARCH=ARM64 ;; *) export RUNNER_ARCH=X64 ;; esac
status=0
PATH="$stand_ins:$(path_without sitemapgen jq)" "$py" "$repo/.ci/run-steps.py" "$steps_yml" \
  --workspace "$action_site" --action "$clone" --report "$tmp/nojq.json" >"$tmp/nojq.log" 2>&1 || status=$?
cat "$tmp/nojq.log"
[ "$status" != 0 ] || die "the Action passed on a runner without jq"
"$py" - "$tmp/nojq.json" "$tmp/nojq.log" <<'EOF' || die "the Action without jq: not the one clear line"
import json, sys
report = json.load(open(sys.argv[1]))
sitemap = [s for s in report["steps"] if "sitemapgen@" in (s.get("uses") or "")][0]
assert sitemap["exit"] == 2, sitemap
errors = [l for l in open(sys.argv[2]) if l.startswith("::error")]
assert len(errors) == 1, errors
assert errors[0].startswith("::error title=sitemapgen::not found on PATH: jq. "), errors
assert "apt-get install -y jq" in errors[0], errors
# The install step stopped first: nothing was built or run.
assert "Build sitemapgen" not in open(sys.argv[2]).read()
print("without jq: one line,", errors[0].strip())
EOF
[ ! -e "$action_site/public/sitemap.xml" ] || die "the Action without jq wrote a sitemap"

step "the Action with jq: no release yet, so it builds sitemapgen from its checkout"
PATH="$stand_ins:$base_path" "$py" "$repo/.ci/run-steps.py" "$steps_yml" \
  --workspace "$action_site" --action "$clone" --report "$tmp/action.json" || die "the README's Action steps failed"
"$py" - "$tmp/action.json" <<'EOF' || die "the Action's outputs"
import json, sys
report = json.load(open(sys.argv[1]))
sitemap = [s for s in report["steps"] if "sitemapgen@" in (s.get("uses") or "")][0]
assert sitemap["outputs"]["sitemap-path"] == "public/sitemap.xml", sitemap
assert sitemap["outputs"]["url-count"] == "5", sitemap
assert "| `public/sitemap.xml` | 5 |" in report["summary"], report["summary"]
print("outputs:", sitemap["outputs"])
EOF
sitemapgen validate --quiet "$action_site/public/sitemap.xml" || die "the Action's sitemap does not validate"

# --- 5. the IndexNow workflow of docs/search-engines.md -------------------------------------
step "IndexNow: the workflow of docs/search-engines.md, step by step"
workflow="$(block "$clone/docs/search-engines.md" '<!-- docs-test: indexnow-workflow -->')"
[ -n "$workflow" ] || die "no docs-test: indexnow-workflow block in docs/search-engines.md"
www="$tmp/www"
mkdir -p "$www"
live="$(serve "$www")"
# The IndexNow endpoint: records each POST's body, one JSON a line, and answers 202.
posts="$tmp/indexnow-posts.jsonl"
: >"$posts"
cat >"$tmp/stub.py" <<'EOF'
import http.server, sys
log = sys.argv[1]
class Stub(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/indexnow":
            with open(log, "ab") as f:
                f.write(body.replace(b"\n", b" ") + b"\n")
        self.send_response(202 if self.path == "/indexnow" else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Stub)
print(f"Serving HTTP on 127.0.0.1 port {server.server_port}", flush=True)
server.serve_forever()
EOF
python3 -u "$tmp/stub.py" "$posts" >"$tmp/stub.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  endpoint_port="$(sed -n 's/^Serving HTTP on 127.0.0.1 port \([0-9]*\).*/\1/p' "$tmp/stub.log")"
  [ -n "$endpoint_port" ] && break
  sleep 0.1
done
[ -n "$endpoint_port" ] || die "the IndexNow stub did not start"
endpoint="http://127.0.0.1:$endpoint_port/indexnow"
# The site's production host is the local server: its address in the workflow (the deployed
# sitemap's URL) and in the site's sitemap.toml, with the endpoint to tell.
printf '%s\n' "${workflow//https:\/\/example.com/$live}" >"$tmp/indexnow.yml"
key="0123456789abcdef0123456789abcdef"
export SECRET_INDEXNOW_KEY="$key"
ws="$tmp/indexnow/my-hugo-site"
mkdir -p "$(dirname "$ws")"
cp -R "$clone/tests/fixtures/readme/my-hugo-site" "$ws"
printf 'base_url = "%s/"\nindexnow_endpoint = "%s"\n' "$live" "$endpoint" >"$ws/sitemap.toml"
printf 'public/\n.indexnow-state.json\n' >"$ws/.gitignore"
git -C "$ws" init -q
git -C "$ws" add .
GIT_AUTHOR_DATE=2024-06-01T12:00:00Z GIT_COMMITTER_DATE=2024-06-01T12:00:00Z git -C "$ws" commit -qm site
# shellcheck disable=SC2016 # expanded by the deploy step's shell
deploy='rm -rf "$DEPLOY_DIR"/* && cp -R public/. "$DEPLOY_DIR"/'
# Each run on a fresh runner: the checkout holds only what is committed.
run_workflow() {
  git -C "$ws" clean -fdxq
  PATH="$stand_ins:$base_path" DEPLOY_DIR="$www" "$py" "$repo/.ci/run-steps.py" "$tmp/indexnow.yml" \
    --workspace "$ws" --action "$clone" --cache "$tmp/actions-cache" --run-id "$1" \
    --replace "Deploy=$deploy" --report "$tmp/run-$1.json" >"$tmp/run-$1.log" 2>&1 || {
    cat "$tmp/run-$1.log"
    die "IndexNow workflow, run $1: a step failed"
  }
}
# What a run's submit step output, sent, and the stub heard.
check_run() {
  "$py" - "$tmp/run-$1.json" "$posts" "$live" "$key" "$2" "$3" <<'EOF'
import json, sys
report, posts, live, key, want_sent, want_posts = sys.argv[1:]
steps = [s for s in json.load(open(report))["steps"] if "sitemapgen@" in (s.get("uses") or "")]
assert len(steps) == 2, steps
build, submit = steps
assert build["outputs"]["sitemap-path"] == "public/sitemap.xml", build
assert submit["outputs"]["submitted-count"] == want_sent, submit
bodies = [json.loads(l) for l in open(posts) if l.strip()]
assert len(bodies) == int(want_posts), bodies
for b in bodies:
    assert b["key"] == key, b
    assert b["host"] == live.split("//")[1], b
print(f"submit sent {want_sent} URLs; the endpoint has had {len(bodies)} POST(s)")
EOF
}

# The release: when .ci/run has just built the Linux archive of this commit (the release
# workflow's build, with every feature), it is published for the tag on the local mirror, and
# the action downloads it, checks its SHA-256 and runs it, as on a runner after a release.
# Without it the action builds from its checkout, with the feature `net` that `submit` needs
# (a compile of about two and a half minutes more).
dist="$CARGO_TARGET_DIR/dist"
archive="sitemapgen-x86_64-unknown-linux-musl.tar.gz"
released=""
if [ "$RUNNER_ARCH" = X64 ] && [ -f "$dist/$archive" ] && [ -f "$dist/$archive.sha256" ] &&
  [ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  mkdir -p "$tmp/releases/v$version"
  cp "$dist/$archive" "$tmp/releases/v$version/"
  cp "$dist/$archive.sha256" "$tmp/releases/v$version/SHA256SUMS"
  released=1
else
  echo "note: no release archive of this commit in $dist: the action builds sitemapgen with net"
fi
run_workflow 1
if [ -n "$released" ]; then
  grep -q "installed sitemapgen v$version for x86_64-unknown-linux-musl (SHA-256 " "$tmp/run-1.log" ||
    die "run 1: the action did not install the release it was offered"
else
  grep -q "Installing .*sitemapgen-build/bin/sitemapgen" "$tmp/run-1.log" ||
    die "run 1: the action did not build sitemapgen"
fi
[ "$(cat "$www/$key.txt")" = "$key" ] || die "run 1: the deploy holds no key file $key.txt"
[ "$(curl -fsS "$live/$key.txt")" = "$key" ] || die "run 1: the live site does not serve the key file"
echo "run 1: the build wrote $key.txt, the deploy serves it"
# The first run has no state: the live sitemap, already the new one, is the baseline.
check_run 1 0 0

# A page edited and re-dated (Hugo dates a page by its front matter before git): the page,
# its section and the home page, which take the newest date below them, have moved.
printf -- '---\ntitle: First post\ndate: 2024-05-02\nlastmod: 2024-07-02\n---\nHello, again.\n' >"$ws/content/posts/first.md"
GIT_AUTHOR_DATE=2024-07-01T12:00:00Z GIT_COMMITTER_DATE=2024-07-01T12:00:00Z git -C "$ws" commit -qam edit
run_workflow 2
grep -q "lastmod moved" "$tmp/run-2.log" "$tmp/run-2.json" || die "run 2: the job summary has no diff against the live sitemap"
check_run 2 3 1
"$py" - "$posts" "$live" <<'EOF' || die "run 2: the endpoint did not get the changed URLs"
import json, sys
body = json.loads(open(sys.argv[1]).readline())
want = {sys.argv[2] + p for p in ("/", "/posts/", "/posts/first/")}
assert set(body["urlList"]) == want, body
print("the endpoint got", sorted(body["urlList"]), "with the key")
EOF

# The same commit again: nothing changed since the last submission, nothing is sent.
run_workflow 3
check_run 3 0 1

step "done: $(elapsed) s"
