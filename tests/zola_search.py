#!/usr/bin/env python3
"""Differential search against Zola 0.22.1 (issue 38): the Zola half of tests/hugo_search.py.

Generates small random Zola sites (config and content together) from a seeded grammar, builds
each with the real Zola and with sitemapgen, and compares the URL sets, lastmod where both
write one, and refusals (Zola exits non-zero / sitemapgen exits 2).

Zola's sitemap also lists URLs it writes only as redirects, or not at all (its `/page/1/`
pagers, `redirect_to` sections, pages a section cannot sort); sitemapgen leaves those out on
purpose (docs/zola.md), so the URLs compared on Zola's side are the ones it published as a
page: a file under public/ that is not a redirect stub.

CI cannot build Zola, so Zola's results are recorded once per seed (`--record`) into
tests/zola_search/zola-0.22.1.json.gz, with a hash of the site each seed drew; CI replays them
(`--replay`) against the sitemapgen just built. A record whose site no longer matches the
grammar is reported as stale, never compared.

    cargo build --release
    python3 tests/zola_search.py --zola path/to/zola --seeds 0..300 --keep-going   # live
    python3 tests/zola_search.py --zola path/to/zola --minutes 30 --out /tmp/found  # open-ended
    python3 tests/zola_search.py --zola path/to/zola --seeds 0..200 --record tests/zola_search/zola-0.22.1.json.gz
    python3 tests/zola_search.py --replay tests/zola_search/zola-0.22.1.json.gz \\
        --allowlist tests/zola_search_known.txt --keep-going                      # CI

Python 3 standard library only; the writers, sitemap reader, verdicts and shrinker are
tests/hugo_search.py's. Exit status: 0 when no difference is new (not in --allowlist), 1
otherwise, 2 on bad usage.
"""
import gzip, hashlib, json, os, random, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hugo_search as hs  # noqa: E402

REPO = hs.REPO
ZOLA_VERSION = "0.22.1"

GRAMMAR = """\
config.toml: base_url (with or without a sub-path or trailing slash), default_language and
[languages.X] (1-2 more, each with or without its own taxonomies), [[taxonomies]] (names
with capitals, spaces and accents; paginate_by, paginate_path, render = false),
taxonomy_root, [slugify] paths / taxonomies (on, safe, off) and paths_keep_dates,
ignored_content, exclude_paginated_pages_in_sitemap.
content: the home's and sections' _index.md (title, sort_by, paginate_by, paginate_path,
paginate_reversed, render, redirect_to, transparent, draft, weight, aliases), folders without
_index.md, sub-sections, pages as name.md, date-prefixed names (2024-03-10-x.md, _ too) and
colocated name/index.md, translations by suffix (x.fr.md, index.fr.md, _index.fr.md), names
from punctuation, dashes, quotes, accents and other scripts; page front matter title, slug,
path (also "/", "a.html", padded), date, updated (TOML bare and quoted, YAML), draft,
render, weight, aliases, [taxonomies] (declared or not, per language); TOML or YAML front
matter, a key given twice; ignored files, and files Zola skips (hidden, not .md,
_index.xx.md).
not generated (deliberate differences, docs/zola.md): paginate_path = "", a taxonomy_root
starting or ending with "/" (Zola's URLs get a "//"), content/index.md, two draft `_index`
files in one folder; nor yet: sections' page_template/template, [extra]."""

NAMES = hs.NAMES
TITLES = hs.TITLES
SECTIONS = ["posts", "docs", "Blog Posts", "R&D", "über", "日本", "news"]
SUBS = ["sub", "Deep Dive", "2024", "a&b"]
DATES = hs.DATES + ["2020-02-29", "2018-12-31T23:59:59-03:00"]
LANGS = ["fr", "de", "ja"]
TAX_NAMES = ["tags", "categories", "Genre", "Über Themen", "series"]


def gen_site(seed):
    """A site: {"config": [(key, value)], "config_fmt": "toml", "files": [...]}; each file
    {"path": [...], "fm": [(key, value)], "fmt": "toml" | "yaml"}."""
    r = random.Random(seed)
    cfg = [("base_url", r.choice(["https://example.org", "https://example.org/",
                                  "https://example.org/sub/", "https://example.org/sub"])),
           ("title", "t")]
    default = "en"
    others = []
    if r.random() < 0.35:
        default = r.choice(["en", "fr"])
        others = r.sample([x for x in LANGS if x != default], r.randint(1, 2))
        cfg.append(("default_language", default))
    taxes = r.sample(TAX_NAMES, r.randint(0, 3))

    def tax_conf(names):
        out = []
        for n in names:
            t = {"name": n}
            if r.random() < 0.25:
                t["paginate_by"] = r.randint(1, 3)
                if r.random() < 0.5: t["paginate_path"] = r.choice(["p", "seite", "page"])
            if r.random() < 0.12: t["render"] = False
            out.append(t)
        return out
    if taxes:
        cfg.append(("taxonomies", tax_conf(taxes)))
    lang_taxes = {}
    for lang in others:
        lang_taxes[lang] = r.sample(TAX_NAMES, r.randint(0, 2)) if r.random() < 0.6 else []
    if r.random() < 0.15:
        cfg.append(("taxonomy_root", r.choice(["blog", "Topics", "a/b", "x.y"])))
    if r.random() < 0.4:
        sl = {}
        for k in ["paths", "taxonomies"]:
            if r.random() < 0.7: sl[k] = r.choice(["on", "safe", "off"])
        if r.random() < 0.3: sl["paths_keep_dates"] = r.random() < 0.5
        if sl: cfg.append(("slugify", sl))
    if r.random() < 0.12:
        cfg.append(("ignored_content", r.choice([["*.tmp.md"], ["**/drafts/**"], ["drafts/**"]])))
    if r.random() < 0.15:
        cfg.append(("exclude_paginated_pages_in_sitemap", r.choice(["all", "none"])))
    if others:
        langs = {}
        for lang in others:
            body = {"title": lang}
            if lang_taxes[lang]: body["taxonomies"] = tax_conf(lang_taxes[lang])
            langs[lang] = body
        cfg.append(("languages", langs))

    files = []

    def fmt():
        return "yaml" if r.random() < 0.3 else "toml"

    def date():
        d = r.choice(DATES)
        return hs.Raw(d) if r.random() < 0.5 else d

    def section_fm():
        fm = []
        if r.random() < 0.7: fm.append(("title", r.choice(TITLES)))
        if r.random() < 0.4:
            fm.append(("sort_by", r.choice(["date", "weight", "title", "none", "update_date",
                                            "slug", "title_bytes"])))
        if r.random() < 0.35:
            fm.append(("paginate_by", r.randint(1, 3)))
            if r.random() < 0.4: fm.append(("paginate_path", r.choice(["p", "pagina", "page"])))
            if r.random() < 0.2: fm.append(("paginate_reversed", True))
        if r.random() < 0.08: fm.append(("render", False))
        if r.random() < 0.07: fm.append(("redirect_to", r.choice(["/", "posts/", "https://x.org/"])))
        if r.random() < 0.2: fm.append(("transparent", True))
        if r.random() < 0.07: fm.append(("draft", True))
        if r.random() < 0.2: fm.append(("weight", r.randint(0, 5)))
        if r.random() < 0.08: fm.append(("aliases", ["/old-" + str(r.randint(0, 9)) + "/"]))
        return fm

    def page_fm(lang):
        fm = []
        if r.random() < 0.7: fm.append(("title", r.choice(TITLES)))
        if r.random() < 0.2: fm.append(("slug", r.choice(NAMES + TITLES + [""])))
        if r.random() < 0.1:
            fm.append(("path", r.choice(["custom/x", "/abs/y/", "Über/Z", "p/" + r.choice(NAMES)]
                                        + (["/", "a.html", " spaced/ "] if r.random() < 0.3 else []))))
        if r.random() < 0.6: fm.append(("date", date()))
        if r.random() < 0.3: fm.append(("updated", date()))
        if r.random() < 0.08: fm.append(("draft", True))
        if r.random() < 0.05: fm.append(("render", False))
        if r.random() < 0.3: fm.append(("weight", r.randint(0, 5)))
        if r.random() < 0.08: fm.append(("aliases", ["/alias-" + str(r.randint(0, 9)) + "/"]))
        declared = taxes if lang == default else lang_taxes.get(lang, [])
        pool = declared + (["undeclared"] if r.random() < 0.02 else [])
        if pool and r.random() < 0.55:
            tx = {}
            for n in r.sample(pool, r.randint(1, len(pool))):
                tx[n] = r.sample(NAMES, r.randint(0, 3))
            fm.append(("taxonomies", tx))
        return fm

    def add(path, fm):
        if fm and r.random() < 0.006:
            fm = fm + [fm[0]]  # a key given twice
        files.append({"path": ["content"] + path, "fm": fm, "fmt": fmt()})

    def translations(folder, stem, fm_of):
        for lang in others:
            if r.random() < 0.4:
                add(folder + [f"{stem}.{lang}.md"], fm_of(lang))
        # Two draft `_index` files in one folder make Zola 0.22.1 skip the rest of the parent
        # folder too, in the file system's order (a walk skipped twice): not drawn.
        drafts = [f for f in files if f["path"][1:-1] == folder
                  and f["path"][-1].startswith("_index") and ("draft", True) in f["fm"]]
        for f in drafts[1:]:
            f["fm"].remove(("draft", True))

    if r.random() < 0.6:
        add(["_index.md"], section_fm())
        translations([], "_index", lambda lang: section_fm())
    folders = [[]]
    for s in r.sample(SECTIONS, r.randint(0, 3)):
        folders.append([s])
        if r.random() < 0.8:
            add([s, "_index.md"], section_fm())
            translations([s], "_index", lambda lang: section_fm())
        if r.random() < 0.35:
            sub = [s, r.choice(SUBS)]
            folders.append(sub)
            if r.random() < 0.75:
                add(sub + ["_index.md"], section_fm())
                translations(sub, "_index", lambda lang: section_fm())
    used = set()
    for _ in range(r.randint(1, 9)):
        folder = r.choice(folders)
        name = r.choice(NAMES)
        roll = r.random()
        if roll < 0.15:
            name = r.choice(["2024-03-10-", "2021-01-05_", "2019-07-07T10:00:00-"]) + name
        if (tuple(folder), name) in used: continue
        used.add((tuple(folder), name))
        if r.random() < 0.25:
            add(folder + [name, "index.md"], page_fm(default))
            translations(folder + [name], "index", page_fm)
        else:
            add(folder + [name + ".md"], page_fm(default))
            translations(folder, name, page_fm)
    if r.random() < 0.1:
        add([r.choice(["x.tmp.md", "drafts/y.md"])], page_fm(default))
    if r.random() < 0.12:
        # Files Zola skips: hidden, not Markdown, an `_index` of no language of the site.
        add(r.choice(folders) + [r.choice([".hidden.md", "notes.txt", "x.markdown",
                                           "_index.xx.md", "index.MD"])], page_fm(default))
    if len(folders) > 1 and r.random() < 0.05:
        add(r.choice(folders[1:]) + ["index.md"], page_fm(default))
    return {"config": cfg, "config_fmt": "toml", "files": files}


def write_site(site, d):
    open(os.path.join(d, "config.toml"), "w", encoding="utf-8").write(hs.toml(site["config"]))
    # Zola has built-in page, section and home templates, none for taxonomies.
    t = os.path.join(d, "templates")
    os.makedirs(t, exist_ok=True)
    for n in ["taxonomy_list.html", "taxonomy_single.html"]:
        open(os.path.join(t, n), "w").write("{{ now() }}\n")
    for f in site["files"]:
        p = os.path.join(d, *f["path"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "w", encoding="utf-8").write(hs.render_file(f))


def site_hash(site):
    return hashlib.sha256(json.dumps(site, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()[:16]


def published(pub, base, url):
    """Whether Zola wrote `url` as a page: its file under public/ exists and is no redirect."""
    path = re.sub(r"^https?://[^/]+", "", url)
    base = re.sub(r"^https?://[^/]+", "", base)
    if base and path.startswith(base.rstrip("/")):
        path = path[len(base.rstrip("/")):]
    f = os.path.join(pub, path.strip("/"))
    if path.endswith("/") or not os.path.splitext(path)[1]:
        f = os.path.join(f, "index.html")
    try:
        head = open(f, "rb").read(2048)
    except OSError:
        return False
    return b'http-equiv="refresh"' not in head


class Runner:
    """compare(site, version, zola) as hugo_search's shrinker wants it; zola is the binary,
    or a recorded result."""

    def __init__(self, sitemapgen, work, timeout=60):
        self.sg, self.work, self.timeout, self.runs = sitemapgen, work, timeout, 0
        self.env = dict(os.environ, TZ="UTC")

    def zola(self, binary, d, base):
        pub = os.path.join(d, "public")
        self.runs += 1
        try:
            z = subprocess.run([binary, "--root", d, "build", "--output-dir", pub],
                               capture_output=True, text=True, timeout=self.timeout,
                               env=self.env)
        except subprocess.TimeoutExpired:
            return ["error", "timeout"]
        if z.returncode != 0:
            text = (z.stderr + "\n" + z.stdout).replace(d + "/", "").replace(d, "SITE")
            lines = [x for x in text.splitlines() if re.match(r"\s*(Error|ERROR|Reason|- )", x)
                     and "Failed to build the site" not in x]
            return ["error", "\n".join(lines) if lines else text.strip()[-2000:]]
        urls = hs.read_sitemaps(pub)[0]
        return ["ok", {u: t for u, t in urls.items() if published(pub, base, u)}]

    def ours(self, d):
        out = os.path.join(d, "sg-out")
        try:
            s = subprocess.run([self.sg, "build", "--site", d, "--output", out, "--quiet",
                                "--no-audit"],
                               capture_output=True, text=True, timeout=self.timeout, env=self.env)
        except subprocess.TimeoutExpired:
            return ("crash", "timeout")
        err = s.stderr.strip().replace(d + "/", "").replace(d, "SITE")
        if s.returncode == 2:
            return ("error", err)
        if s.returncode != 0:
            return ("crash", f"exit {s.returncode}: " + err)
        return ("ok", hs.read_sitemaps(out)[0])

    def zola_result(self, site, binary):
        d = tempfile.mkdtemp(dir=self.work)
        try:
            write_site(site, d)
            return self.zola(binary, d, dict(site["config"])["base_url"])
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def compare(self, site, version, zola, keep=None):
        d = keep or tempfile.mkdtemp(dir=self.work)
        try:
            write_site(site, d)
            z = zola if isinstance(zola, list) else \
                self.zola(zola, d, dict(site["config"])["base_url"])
            s = self.ours(d)
        finally:
            if not keep: shutil.rmtree(d, ignore_errors=True)
        return judge(z, s)


def judge(z, s):
    verdict, det = hs.judge(tuple(z), s)
    if det:
        det = dict(det, text=det["text"].replace("Hugo", "Zola"),
                   kind=det["kind"].replace("hugo-", "zola-"),
                   sig=tuple(x.replace("hugo-", "zola-") if isinstance(x, str) else x
                             for x in det["sig"]))
    return verdict, det


def write_fixture(runner, out, name, site, zola, det, seed):
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_site(site, d)
    tmp = tempfile.mkdtemp(dir=runner.work)
    write_site(site, tmp)
    z = runner.zola(zola, tmp, dict(site["config"])["base_url"])
    exp = os.path.join(d, "expected")
    os.makedirs(exp)
    if z[0] == "error":
        open(os.path.join(exp, "zola-error.txt"), "w").write(z[1] + "\n")
    else:
        shutil.copy(os.path.join(tmp, "public", "sitemap.xml"), exp)
    hs.keep_ours(runner.ours(tmp), tmp, os.path.join(d, "sitemapgen"))
    shutil.rmtree(tmp, ignore_errors=True)
    open(os.path.join(d, "README.txt"), "w", encoding="utf-8").write(
        f"Found by tests/zola_search.py, seed {seed}, with Zola {ZOLA_VERSION}:\n{det['text']}\n\n"
        f"{hs.describe_site(site)}\n\nexpected/ is what Zola wrote (or its error), "
        f"sitemapgen/ what sitemapgen wrote.\n")
    return d


def load_record(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rec = json.load(f)
    if rec.get("zola") != ZOLA_VERSION:
        sys.exit(f"{path}: recorded with Zola {rec.get('zola')}, this search is for {ZOLA_VERSION}")
    return rec


def save_record(path, seeds):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    body = {"zola": ZOLA_VERSION,
            "about": "Zola's results per seed of tests/zola_search.py: the hash of the site the "
                     "seed drew, and the URLs Zola published as pages (loc -> lastmod) or its "
                     "error. Re-record with --record after changing the grammar.",
            "seeds": {str(k): v for k, v in sorted(seeds.items())}}
    data = json.dumps(body, ensure_ascii=False, sort_keys=True, indent=0).encode("utf-8")
    with open(path, "wb") as f:
        f.write(gzip.compress(data, mtime=0))


def main():
    ap = hs.search_args(__doc__, GRAMMAR)
    ap.add_argument("--zola", help="the Zola 0.22.1 binary to run")
    ap.add_argument("--replay", metavar="FILE", help="Zola's recorded results, instead of --zola")
    ap.add_argument("--record", metavar="FILE", help="write Zola's results for the seeds run")
    a = ap.parse_args()

    if a.print_site is not None:
        return hs.print_site(a, gen_site, write_site, "zola-search-site-")
    if bool(a.zola) == bool(a.replay):
        ap.error("give one of --zola PATH (live) and --replay FILE (recorded)")
    record = load_record(a.replay) if a.replay else None
    if record and not a.seeds:
        keys = sorted(int(k) for k in record["seeds"])
        a.seeds = (keys[0], keys[-1] + 1) if keys else (0, 0)
    if not a.seeds and not a.minutes:
        ap.error("give --seeds A..B or --minutes N")
    lo, hi = a.seeds or (0, None)
    if hi is None and not a.minutes:
        ap.error("an open seed range needs --minutes")
    if not os.access(a.sitemapgen, os.X_OK):
        ap.error(f"no sitemapgen at {a.sitemapgen} (cargo build --release, or --sitemapgen)")
    if a.zola:
        v = subprocess.run([a.zola, "--version"], capture_output=True, text=True)
        if v.returncode != 0 or v.stdout.split()[-1:] != [ZOLA_VERSION]:
            ap.error(f"{a.zola}: want Zola {ZOLA_VERSION}, got {v.stdout.strip() or v.stderr.strip()}")
    out = a.out or tempfile.mkdtemp(prefix="zola-search-")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="zola-search-work-")
    runner = Runner(a.sitemapgen, work)
    known = hs.load_allowlist(a.allowlist)
    counts = {"same": 0, "different": 0, "both-refused": 0, "one-refused": 0}
    recorded, stale = {}, []
    found, fps, shrinks, seen_known = [], {}, {}, set()
    start = time.monotonic()
    seed, sites, stop = lo, 0, False
    while not stop and (hi is None or seed < hi):
        if a.minutes and time.monotonic() - start > a.minutes * 60: break
        site = gen_site(seed)
        h = site_hash(site)
        if record is not None:
            r = record["seeds"].get(str(seed))
            if r is None or r["site"] != h:
                stale.append(seed)
                seed += 1
                continue
            zola = r["result"]
        else:
            zola = a.zola
            if a.record:
                zola = runner.zola_result(site, a.zola)
                recorded[seed] = {"site": h, "result": zola}
        sites += 1
        verdict, det = runner.compare(site, ZOLA_VERSION, zola)
        counts[verdict] += 1
        if det:
            key = (ZOLA_VERSION, seed, det["kind"])
            if key in known:
                seen_known.add(key)
                print(f"seed {seed}: known ({known[key][0]}): {det['text'][:160]}")
            else:
                entry = {"seed": seed, "kind": det["kind"], "text": det["text"], "fixture": None,
                         "dup_of": None}
                if a.zola and not a.no_shrink and shrinks.get(det["sig"], 0) < a.max_shrinks:
                    shrinks[det["sig"]] = shrinks.get(det["sig"], 0) + 1
                    small, probes = hs.shrink(runner, site, ZOLA_VERSION, a.zola, det["sig"],
                                              a.shrink_seconds, 400)
                    _, det2 = runner.compare(small, ZOLA_VERSION, a.zola)
                    det2 = det2 or det
                    entry["text"], entry["site"] = det2["text"], hs.describe_site(small)
                    fp = hs.fingerprint(small, ZOLA_VERSION, det2)
                    if fp in fps:
                        entry["dup_of"] = fps[fp]
                    else:
                        name = f"zola-{det['kind']}-s{seed}"
                        entry["fixture"] = write_fixture(runner, out, name, small, a.zola, det2,
                                                         seed)
                        fps[fp] = name
                found.append(entry)
                where = entry["fixture"] or (f"same as {entry['dup_of']}" if entry["dup_of"]
                                             else "not shrunk")
                print(f"seed {seed}: NEW {det['kind']}: {entry['text'][:200]} -> {where}",
                      flush=True)
                if not a.keep_going: stop = True
        seed += 1
        if sites % 50 == 0:
            print(f"... {sites} sites, {time.monotonic() - start:.0f} s", flush=True)
    elapsed = time.monotonic() - start
    how = "recorded" if record is not None else f"{runner.runs} Zola runs"
    print(f"\n{sites} sites (seeds {lo}..{seed}), {how}, {elapsed / 60:.1f} min")
    c = counts
    print(f"Zola {ZOLA_VERSION}: same {c['same']}, different {c['different']}, both refused "
          f"{c['both-refused']}, one refused {c['one-refused']}")
    if a.record:
        save_record(a.record, recorded)
        print(f"recorded {len(recorded)} seeds in {a.record}")
    for k in sorted(k for k in known if lo <= k[1] < seed and k not in seen_known):
        print(f"note: the allowlist's seed {k[1]} {k[2]} no longer differs: remove it?")
    if stale:
        print(f"\nerror: {len(stale)} seed(s) draw another site than the record holds "
              f"(the grammar changed?): {stale[:10]}; re-record with --zola and --record")
    if found:
        print(f"\n{len(found)} new difference(s):")
        for e in found:
            where = e["fixture"] or (f"same minimal site as {e['dup_of']}" if e["dup_of"]
                                     else "not shrunk")
            print(f"- seed {e['seed']} {e['kind']}: {e['text'][:220]}\n"
                  + (f"    minimal site: {e['site'][:400]}\n" if e.get("site") else "")
                  + f"    {where}")
    if not a.out and not os.listdir(out):
        os.rmdir(out)
    else:
        print(f"\nfixtures in {out}")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if found or stale else 0


if __name__ == "__main__":
    sys.exit(main())
