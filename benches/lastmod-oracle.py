#!/usr/bin/env python3
"""lastmod oracle: how well git-based <lastmod> matches the update dates authors keep by hand.

Some authors move a front matter date (`updated`, `lastmod`, `last_modified_at`, `modified`,
`[extra] updated`) when they really revise a page; for those pages the author's date is the
truth. For each site in benches/lastmod-oracle/sites.txt this script

  1. clones the repository into a cache (ORACLE_CACHE, default target/lastmod-oracle; from
     https://github.com/OWNER/NAME, or from ORACLE_MIRRORS/OWNER+NAME/repo when that is set)
     and checks out the listed commit (a mirror lacks files of 4 MiB and more: they are left
     out of the checkout and git log reads a placeholder in their place; never pages);
  2. keeps the pages whose hand date falls on another day than their creation (front matter
     `date`, else a YYYY-MM-DD file or folder name, else the file's first commit), leaving out
     drafts and pages whose hand date is older than the file's first commit (imported dates:
     no history can give them);
  3. runs each sitemapgen variant with `lastmod = ["git"]` (front matter ignored) through
     `list --format jsonl`, after deleting what the previous run kept in .git/sitemapgen, and
     maps every page file to its lastmod; and computes the baseline
     "last commit of the file" (`git log -1 --format=%aI -- FILE`, author date: what Hugo's
     enableGitInfo gives);
  4. compares at day precision: the method's calendar day (in the offset it carries) against
     the hand date's day; error = method - hand, in days.

It prints one Markdown table per site and one pooled: pages, within 0/1/3/7 days, median
absolute error, later/earlier than the truth, and pages the method gave no date.

    python3 benches/lastmod-oracle.py --bin target/release/sitemapgen
    python3 benches/lastmod-oracle.py \\
        --variant before=/tmp/old/sitemapgen:git_date=committer \\
        --variant after=target/release/sitemapgen:git_date=author,lastmod_significance=content \\
        --csv /tmp/oracle.csv --only wezm,letsencrypt

A variant is NAME=BINARY[:KEY=VALUE,...]; each KEY=VALUE becomes a sitemap.toml line (a bare
word is quoted). Without --variant: the binary of --bin (or $SITEMAPGEN) with git_date
"committer" and "author". Needs git and Python 3 (standard library only).
"""
import argparse, csv, datetime, fnmatch, json, os, re, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HAND_KEYS = ("updated", "lastmod", "last_modified_at", "modified")
PAGE_EXT = (".md", ".markdown")
DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, errors="replace")
    if check and r.returncode:
        sys.exit(f"git {' '.join(args)} in {repo} failed: {r.stderr.strip()}")
    return r.stdout


def read_sites(path, only):
    sites = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        name, url, commit, content, *opts = line
        if only and name not in only:
            continue
        site = dict(name=name, url=url, commit=commit, content=content, site=".", exclude="", toml=[])
        for key, value in (o.split("=", 1) for o in opts):
            if key in ("site", "exclude"):
                site[key] = value
            if key != "site":             # every other option is a sitemap.toml line
                site["toml"].append((key, value))
        sites.append(site)
    return sites


def checkout(site, cache):
    dest = os.path.join(cache, site["name"])
    if not os.path.isdir(os.path.join(dest, ".git")):
        src, mirrors = site["url"], os.environ.get("ORACLE_MIRRORS")
        if mirrors:
            owner_name = "+".join(site["url"].rstrip("/").split("/")[-2:])
            src = os.path.join(mirrors, owner_name, "repo")
        subprocess.run(["git", "clone", "-q", "--no-checkout", src, dest], check=True)
    commit = site["commit"]
    if git(dest, "rev-parse", "HEAD", check=False).strip() != commit or git(dest, "status", "--porcelain"):
        # A mirror keeps no file of 4 MiB or more. git log's rename detection would stop at such
        # a blob, so each one is replaced by a placeholder (refs/replace), and the checkout
        # leaves them out (sparse): they are images, videos and data files, never pages.
        objects = git(dest, "rev-list", "--objects", "--missing=print", commit).splitlines()
        missing = {l[1:] for l in objects if l.startswith("?")}
        if missing:
            placeholder = subprocess.run(["git", "-C", dest, "hash-object", "-w", "--stdin"], input="not in the mirror\n",
                                         capture_output=True, text=True, check=True).stdout.strip()
            subprocess.run(["git", "-C", dest, "update-ref", "--stdin"], check=True, text=True,
                           input="".join(f"update refs/replace/{m} {placeholder}\n" for m in missing))
            tree = [l.split(None, 3) for l in git(dest, "ls-tree", "-r", "-z", commit).split("\0") if l]
            absent = ["!/" + t[3] for t in tree if t[2] in missing]
            if absent:
                git(dest, "sparse-checkout", "set", "--no-cone", "/*", *absent)
        git(dest, "checkout", "-q", "--force", commit)
    return dest


def front_matter(text):
    """Dates of a TOML (+++) or YAML (---) front matter: {key: 'YYYY-MM-DD'} and draft."""
    text = text.lstrip("\ufeff")
    fence = text[:3]
    if fence not in ("+++", "---") or fence + "\n" not in text[:5].replace("\r", ""):
        return {}, False
    end = text.find("\n" + fence, 3)
    if end < 0:
        return {}, False
    dates, table, draft = {}, "", False
    for line in text[3:end].splitlines():
        s = line.strip()
        if s.startswith("[") and fence == "+++":
            table = s.strip("[]").strip().lower()
            continue
        if fence == "---" and line[:1] not in (" ", "\t"):
            table = ""
        m = re.match(r'\s*"?([\w.-]+)"?\s*[:=]\s*(.*)', line)
        if not m:
            continue
        key, value = m.group(1).lower(), m.group(2).strip().strip("'\"")
        if fence == "---" and not value:
            table = key                       # YAML mapping: extra:\n  updated: ...
        if key == "draft" and value.lower() == "true" and not table:
            draft = True
        key = f"{table}.{key}" if table else key
        d = DAY.match(value)
        if d:
            dates.setdefault(key, d.group(0))
    return dates, draft


def first_commits(repo, content):
    """{path at HEAD: day of the commit that added it to the content dir}, renames followed."""
    first, day = {}, None
    log = git(repo, "-c", "core.quotePath=false", "log", "--reverse", "--no-merges", "-M",
              "--name-status", "--format=@%as", "--", content)
    for line in log.splitlines():
        if line.startswith("@"):
            day = line[1:]
            continue
        part = line.split("\t")
        if part[0].startswith("A"):
            first.setdefault(part[1], day)
        elif part[0].startswith("D"):
            first.pop(part[1], None)
        elif part[0].startswith(("R", "C")) and len(part) == 3:
            first[part[2]] = first.pop(part[1], day) if part[0][0] == "R" else first.get(part[1], day)
    return first


def pages(repo, site):
    """The hand-dated pages of a site: {file: (hand day, creation day)}, and what was left out."""
    content = site["content"]
    files = [f for f in git(repo, "ls-files", "-z", "--", content).split("\0") if f.endswith(PAGE_EXT)]
    firsts = first_commits(repo, content)
    kept, dropped = {}, {"same day": 0, "draft": 0, "imported": 0, "excluded": 0}
    for f in files:
        if not os.path.isfile(os.path.join(repo, f)):
            continue
        with open(os.path.join(repo, f), encoding="utf-8", errors="replace") as fh:
            dates, draft = front_matter(fh.read(20000))
        hand = next((dates[k] for k in HAND_KEYS + tuple("extra." + k for k in HAND_KEYS) if k in dates), None)
        if not hand:
            continue
        if draft:
            dropped["draft"] += 1
            continue
        if any(fnmatch.fnmatch(os.path.relpath(f, content), g) for g in site["exclude"].split(",") if g):
            dropped["excluded"] += 1
            continue
        named = DAY.search(os.path.basename(f)) or DAY.search(os.path.dirname(f))
        first = firsts.get(f)
        created = dates.get("date") or (named and named.group(0)) or first
        if created == hand:
            dropped["same day"] += 1
        elif first and hand < first:
            dropped["imported"] += 1
        else:
            kept[f] = (hand, created)
    return kept, dropped


def toml_value(v):
    return v if re.fullmatch(r'true|false|-?\d+(\.\d+)?|\[.*\]|".*"', v) else json.dumps(v)


def run_variant(repo, site, binary, settings):
    """{file relative to the repository: (day, commit)} from `sitemapgen list --format jsonl`."""
    lines = [f'site_dir = {json.dumps(os.path.join(repo, site["site"]))}',
             f'content_dir = {json.dumps(os.path.join(repo, site["content"]))}',
             'lastmod = ["git"]', "audit = false", 'host = "plain"', 'git_fetch = "never"']
    for key, value in site["toml"]:
        lines.append(f"{key} = {json.dumps(value.split(',')) if key == 'exclude' else toml_value(value)}")
    lines += [f"{k} = {toml_value(v)}" for k, v in settings]
    # What a run keeps for the next (.git/sitemapgen) is keyed by release, not by build: drop it,
    # or a rebuilt binary of the same version would be handed the previous binary's answers.
    shutil.rmtree(os.path.join(repo, ".git", "sitemapgen"), ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "sitemap.toml")
        with open(cfg, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        env = dict(os.environ, CI="")
        r = subprocess.run([binary, "list", "--format", "jsonl", "--config", cfg, "--quiet"],
                           cwd=tmp, capture_output=True, text=True, env=env)
    if r.returncode:
        sys.exit(f"{binary} failed on {site['name']}:\n{r.stderr}")
    out = {}
    for line in r.stdout.splitlines():
        row = json.loads(line)
        if row.get("file") and row.get("lastmod"):
            path = os.path.relpath(os.path.join(repo, site["site"], row["file"]), repo) \
                if not os.path.isabs(row["file"]) else os.path.relpath(row["file"], repo)
            out[path] = (row["lastmod"][:10], (row.get("lastmod_commit") or "")[:10])
    return out


def last_commit(repo, files):
    out = {}
    for f in files:
        line = git(repo, "log", "-1", "--format=%aI %h", "--", f).split()
        if line:
            out[f] = (line[0][:10], line[1])
    return out


def days(a, b):
    return (datetime.date.fromisoformat(a) - datetime.date.fromisoformat(b)).days


def summarize(rows, method):
    errs = [r[method + " err"] for r in rows if r[method + " err"] != ""]
    n = len(rows)
    pct = lambda k: f"{100 * sum(abs(e) <= k for e in errs) / n:.0f}%" if n else "-"
    med = f"{statistics.median(abs(e) for e in errs):g}" if errs else "-"
    later, earlier = sum(e > 0 for e in errs), sum(e < 0 for e in errs)
    return f"| {method} | {n} | {pct(0)} | {pct(1)} | {pct(3)} | {pct(7)} | {med} | {later} / {earlier} | {n - len(errs)} |"


def table(title, rows, methods):
    print(f"\n### {title}\n")
    print("| method | pages | within 0 days | 1 | 3 | 7 | median error (days) | later / earlier | undated |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for m in methods:
        print(summarize(rows, m))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sites", default=os.path.join(HERE, "lastmod-oracle", "sites.txt"))
    ap.add_argument("--only", help="comma-separated site names")
    ap.add_argument("--bin", default=os.environ.get("SITEMAPGEN"), help="sitemapgen binary")
    ap.add_argument("--variant", action="append", default=[], help="NAME=BINARY[:KEY=VALUE,...]")
    ap.add_argument("--cache", default=os.environ.get("ORACLE_CACHE", "target/lastmod-oracle"))
    ap.add_argument("--csv", help="write every page's row here")
    args = ap.parse_args()
    variants = []
    for spec in args.variant:
        name, rest = spec.split("=", 1)
        binary, _, extra = rest.partition(":")
        variants.append((name, os.path.abspath(binary), [kv.split("=", 1) for kv in extra.split(",") if kv]))
    if not variants:
        if not args.bin:
            sys.exit("give --bin PATH (or SITEMAPGEN=PATH) or --variant NAME=BINARY[:KEY=VALUE,...]")
        variants = [(f'git_date = "{d}"', os.path.abspath(args.bin), [("git_date", d)]) for d in ("committer", "author")]
    methods = [v[0] for v in variants] + ["last commit (author date)"]
    os.makedirs(args.cache, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    everything = []
    for site in read_sites(args.sites, only):
        repo = checkout(site, os.path.abspath(args.cache))
        kept, dropped = pages(repo, site)
        results = {name: run_variant(repo, site, binary, settings) for name, binary, settings in variants}
        results["last commit (author date)"] = last_commit(repo, kept)
        rows = []
        for f, (hand, created) in sorted(kept.items()):
            row = {"site": site["name"], "file": f, "hand": hand, "created": created}
            for m in methods:
                day, commit = results[m].get(f, ("", ""))
                row.update({m: day, m + " commit": commit, m + " err": days(day, hand) if day else ""})
            rows.append(row)
        everything += rows
        left = ", ".join(f"{v} {k}" for k, v in dropped.items())
        table(f"{site['name']} ({len(rows)} pages; left out: {left})", rows, methods)
    table(f"pooled ({len(everything)} pages)", everything, methods)
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(everything[0]) if everything else ["site"])
            w.writeheader()
            w.writerows(everything)


if __name__ == "__main__":
    main()
