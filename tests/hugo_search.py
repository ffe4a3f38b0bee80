#!/usr/bin/env python3
"""Differential search against real Hugo binaries (issue 38).

Generates small random Hugo sites (config and content together) from a seeded grammar, builds
each with every Hugo given and with sitemapgen under that Hugo's rules (`--hugo-version`), and
compares: the URL sets, lastmod where both write one, and refusals (Hugo exits non-zero /
sitemapgen exits 2). A difference is shrunk (delta debugging over files, config keys, front
matter keys, list items and strings) to a minimal site that still shows it, and written out as
a fixture: the site, and per Hugo version its sitemap.xml (`expected-X.Y/`) or its error text.

    cargo build --release
    python3 tests/hugo_search.py --seeds 0..200 --hugo /usr/bin/hugo --hugo path/to/hugo-0.168
    python3 tests/hugo_search.py --minutes 30 --keep-going --out /tmp/found   # open-ended
    python3 tests/hugo_search.py --seeds 0..60 --keep-going --allowlist tests/hugo_search_known.txt

Python 3 standard library only. Deterministic for a seed (the grammar draws from
random.Random(seed); only "today", used to read future lastmods, moves). One Hugo process at a
time. Writes nothing into the repository unless --out points there.

Exit status: 0 when no difference is new (not in --allowlist), 1 otherwise, 2 on bad usage.

Grammar coverage: see GRAMMAR below and docs/hugo.md "The differential search".
"""
import argparse, datetime, html, json, os, random, re, shutil, subprocess, sys, tempfile, time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

GRAMMAR = """\
config (hugo.toml or hugo.yaml): baseURL (with or without a sub-path), uglyURLs (bool, map of
sections/taxonomies), disablePathToLower, removePathAccents, buildFuture, buildDrafts,
disableKinds (current and legacy names, any case: home page section taxonomy term rss RSS
taxonomyTerm robotsTXT 404 Section) with or without ignoreErrors, [taxonomies] default or
custom, [permalinks] flat or by kind (page/section/taxonomy/term) with every documented token
(:year :month :monthname :day :weekday :weekdayname :yearday :section :sections
:sections[1:] :sections[last] :sections[:last] :sections[0] :sections[1] :title :slug
:slugorfilename :filename :contentbasename :slugorcontentbasename :sectionslug :sectionslugs)
and Go layouts (:2006 :06 :01 :Jan :January :02 :Monday :2006-01-02), languages (2-3; by
file suffix, by contentDir folder, or by module.mounts with lang; defaultContentLanguage,
defaultContentLanguageInSubdir, disableLanguages, disabled, languageCode), module.mounts
(content from another folder, a second mount into a sub-folder), keys given twice in
another case.
content: regular pages, leaf bundles, _index of home, sections, sub-sections, taxonomies and
terms; .md, .markdown, .html; YAML, TOML or JSON front matter; names, titles, slugs and terms
from punctuation, dashes, ampersands, quotes, accents and other scripts; title, slug, date,
lastmod, publishDate, expiryDate (past and future), draft, url, aliases, tags, categories,
series, weight, headless, translationKey, build/_build (render, list) and cascade (a table or
a list, with _target/target by kind and path) on every kind, YAML keys given twice.
not generated (deliberate differences, docs/hugo.md): build.render = "link", `%XX` in names,
noindex / sitemap: false, outputs without HTML, a cascaded slug/url/term, `:` or `?` in url,
`/` in a slug or term, multihost; nor yet: [frontmatter] date orders, timeZone, config/
folders and environments, themes, [outputs], pagination, enableGitInfo."""

NAMES = ["alpha", "Beta", "hello-world", "a--b", "-lead", "trail-", "R&D", "rock & roll",
         "Tom's", 'say "hi"', "café", "Ünïcödé", "日本語", "привет", "مرحبا", "x_y", "v1.2",
         "em—dash", "en–dash", "C++", "a+b", "two  spaces", "MiXeD Case", "hash#tag",
         "(paren)", "[brack]", "comma,x", "semi;x", "at@x", "eq=x", "tilde~x", "a.b.c"]
TITLES = NAMES + ["Hello, World!", "Q&A: part 2", "It's \"quoted\"", "  padded  ", "A — B",
                  "Ça va?", "Crème Brûlée", "100% sure", "x/y", "über & außer", "한국어 제목"]
SECTIONS = ["posts", "docs", "Blog Posts", "R&D", "über", "日本", "news"]
SUBS = ["sub", "Deep Dive", "2024", "a&b"]
DATES = ["2021-03-04", "2022-11-30T10:00:00Z", "2019-07-07T23:30:00+05:00", "2023-01-02",
         "2035-01-01", "2030-06-15T12:00:00Z"]
TOKENS = [":year", ":month", ":monthname", ":day", ":weekday", ":weekdayname", ":yearday",
          ":section", ":sections", ":sections[1:]", ":sections[last]", ":sections[:last]",
          ":sections[0]", ":sections[1]", ":title", ":slug", ":slugorfilename", ":filename",
          ":contentbasename", ":slugorcontentbasename", ":sectionslug", ":sectionslugs",
          ":2006", ":06", ":01", ":Jan", ":January", ":02", ":Monday", ":2006-01-02"]
KINDS = ["home", "page", "section", "taxonomy", "term", "rss", "RSS", "taxonomyTerm",
         "robotsTXT", "404", "Section"]
LAYOUT = "{{ define \"main\" }}{{ .Title }}{{ end }}\n"


class Raw(str):
    """A value written bare: a TOML date-time, a YAML timestamp (quoted in JSON)."""


# ---------------------------------------------------------------- writers

def key_toml(k):
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def val_toml(v):
    if isinstance(v, Raw): return str(v)
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return str(v)
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list): return "[" + ", ".join(val_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key_toml(k)} = {val_toml(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml(pairs, prefix=""):
    """pairs: [(key, value)], duplicates kept; dicts become tables, lists of dicts arrays."""
    head, tables = [], []
    for k, v in pairs:
        name = prefix + key_toml(k)
        if isinstance(v, dict) and v and any(isinstance(x, (dict, list)) for x in v.values()) \
                or isinstance(v, dict) and prefix == "" and v:
            tables.append(f"[{name}]\n" + toml(list(v.items()), name + "."))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                tables.append(f"[[{name}]]\n" + toml(list(x.items()), name + "."))
        else:
            head.append(f"{key_toml(k)} = {val_toml(v)}")
    # Sub-tables of a table are written with their full dotted name after its own keys.
    return "".join(h + "\n" for h in head) + "".join(tables)


def val_yaml(v):
    if isinstance(v, Raw): return str(v)
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return str(v)
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v):
        return "[" + ", ".join(val_yaml(x) for x in v) + "]"
    if isinstance(v, dict) and not v: return "{}"
    return None


def yaml(pairs, ind=""):
    out = []
    for k, v in pairs:
        kk = json.dumps(k, ensure_ascii=False) if not re.fullmatch(r"[A-Za-z0-9_]+", k) else k
        s = val_yaml(v)
        if s is not None:
            out.append(f"{ind}{kk}: {s}")
        elif isinstance(v, dict):
            out.append(f"{ind}{kk}:")
            out.append(yaml(list(v.items()), ind + "  ").rstrip("\n"))
        else:  # a list of tables
            out.append(f"{ind}{kk}:")
            for x in v:
                body = yaml(list(x.items()), ind + "    ").rstrip("\n")
                out.append(ind + "  - " + body.lstrip(" "))
    return "".join(o + "\n" for o in out if o)


def val_json(v):
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + val_json(x)
                               for k, x in v.items()) + "}"
    if isinstance(v, list): return "[" + ", ".join(val_json(x) for x in v) + "]"
    if isinstance(v, Raw): return json.dumps(str(v))
    return json.dumps(v, ensure_ascii=False)


def render_file(f):
    pairs, fmt = f["fm"], f["fmt"]
    if fmt == "toml":
        head = "+++\n" + toml(pairs) + "+++\n"
    elif fmt == "json":
        head = "{\n" + ",\n".join(json.dumps(k, ensure_ascii=False) + ": " + val_json(v)
                                  for k, v in pairs) + "\n}\n"
    else:
        head = "---\n" + yaml(pairs) + "---\n"
    return head + "\nbody\n"


def write_site(site, d):
    if site["config_fmt"] == "yaml":
        open(os.path.join(d, "hugo.yaml"), "w", encoding="utf-8").write(yaml(site["config"]))
    else:
        open(os.path.join(d, "hugo.toml"), "w", encoding="utf-8").write(toml(site["config"]))
    lay = os.path.join(d, "layouts", "_default")
    os.makedirs(lay, exist_ok=True)
    open(os.path.join(lay, "baseof.html"), "w").write('{{ block "main" . }}{{ end }}\n')
    open(os.path.join(lay, "single.html"), "w").write(LAYOUT)
    open(os.path.join(lay, "list.html"), "w").write(LAYOUT)
    for f in site["files"]:
        p = os.path.join(d, *f["path"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "w", encoding="utf-8").write(render_file(f))


# ---------------------------------------------------------------- the grammar

def gen_site(seed):
    r = random.Random(seed)
    p = r.random
    cfg = []
    base = "https://example.org/" if p() < 0.85 else "https://example.org/sub/"
    cfg.append(("baseURL", base))
    cfg.append(("title", "x"))
    multi = p() < 0.4
    langs, default, lang_mode = ["en"], "en", None
    if multi:
        langs = ["en", "fr"] + (["de"] if p() < 0.5 else [])
        default = r.choice(["en", "en", "fr"])
        lang_mode = r.choice(["suffix", "suffix", "folder", "mount"])
        cfg.append(("defaultContentLanguage", default))
        if p() < 0.4: cfg.append(("defaultContentLanguageInSubdir", True))
        if "de" in langs and p() < 0.3: cfg.append(("disableLanguages", ["de"]))
    if p() < 0.25:
        cfg.append(("uglyURLs", r.choice([True, False, {"posts": True},
                                          {"posts": True, "tags": True, "docs": False}])))
    if p() < 0.1: cfg.append(("disablePathToLower", True))
    if p() < 0.1: cfg.append(("removePathAccents", True))
    if p() < 0.08: cfg.append(("buildFuture", True))
    if p() < 0.05: cfg.append(("buildDrafts", True))
    if p() < 0.3:
        kinds = sorted({r.choice(KINDS) for _ in range(r.randint(1, 3))})
        cfg.append(("disableKinds", kinds))
        if p() < 0.5: cfg.append(("ignoreErrors", ["error-disable-taxonomy"]))
    taxos = {"tag": "tags", "category": "categories"}
    if p() < 0.25:
        taxos = r.choice([{"tag": "tags", "category": "categories", "serie": "series"},
                          {"tag": "tags"}, {"author": "authors", "tag": "tags"}])
        cfg.append(("taxonomies", dict(taxos)))
    plurals = list(taxos.values())
    secs = r.sample(SECTIONS, r.randint(1, 3))

    def token():
        t = r.choice(TOKENS)
        # Slices of :sections stop Hugo 0.111 in most patterns (a panic): drawn less often.
        return r.choice(TOKENS) if "[" in t and p() < 0.6 else t

    def pattern():
        segs = []
        for _ in range(r.randint(1, 3)):
            x = p()
            if x < 0.7: segs.append(token())
            elif x < 0.85: segs.append(r.choice(["x", "Blog", "a-b"]))
            else: segs.append(r.choice(["x", "p"]) + "-" + token())
        return r.choice(["/", ""]) + "/".join(segs) + r.choice(["/", "/", ""])
    if p() < 0.5:
        if p() < 0.65:
            keys = r.sample(secs + plurals, r.randint(1, min(3, len(secs + plurals))))
            cfg.append(("permalinks", {k: pattern() for k in keys}))
        else:
            perm = {}
            for kind in r.sample(["page", "section", "taxonomy", "term"], r.randint(1, 3)):
                pool = secs if kind in ("page", "section") else plurals
                perm[kind] = {k: pattern() for k in r.sample(pool, r.randint(1, len(pool)))}
            cfg.append(("permalinks", perm))
    # Where the content lives: content/, a folder per language, or mounts.
    roots = {l: ["content"] for l in langs}
    if multi:
        ldefs = {}
        mounts = []
        for i, l in enumerate(langs):
            ld = {"weight": i + 1}
            if lang_mode == "folder":
                ld["contentDir"] = "content/" + l
                roots[l] = ["content", l]
            elif lang_mode == "mount":
                mounts.append({"source": "content_" + l, "target": "content", "lang": l})
                roots[l] = ["content_" + l]
            if p() < 0.2: ld["languageCode"] = l + "-XX"
            if l == "de" and p() < 0.3: ld["disabled"] = True
            ldefs[l] = ld
        cfg.append(("languages", ldefs))
        if mounts: cfg.append(("module", {"mounts": mounts}))
    elif p() < 0.15:
        mounts = [{"source": "src", "target": "content"}]
        roots["en"] = ["src"]
        if p() < 0.5:
            mounts.append({"source": "extra", "target": "content/extra"})
        cfg.append(("module", {"mounts": mounts}))
    if p() < 0.06:
        # A key given twice, in another case: Hugo's keys are case-insensitive.
        k, v = r.choice(cfg[2:] or cfg)
        if not isinstance(v, dict):
            cfg.append((k.lower() if k != k.lower() else k.upper(),
                        (not v) if isinstance(v, bool) else v))
    site = {"config_fmt": "yaml" if p() < 0.2 else "toml", "config": cfg, "files": []}
    # Per site, so that most sites build with every Hugo: `_build` (an error from 0.160),
    # HTML content (denied by 0.168's default security policy), YAML keys given twice.
    build_keys = ["_build"] if p() < 0.15 else ["build", "build", "build", "_build"] \
        if p() < 0.1 else ["build"]
    exts = [".md"] * 8 + [".markdown"] + ([".html"] if p() < 0.08 else [])
    dup_keys = p() < 0.1

    made = set()
    for i in range(r.randint(2, 28)):
        l = r.choice(langs)
        root = roots[l]
        mount_extra = root == ["src"] and any(m.get("source") == "extra" for m in
                                              dict(cfg).get("module", {}).get("mounts", []))
        x = p()
        if x < 0.1: dirs, kind = [], "home"
        elif x < 0.2: dirs, kind = [r.choice(plurals)], "taxonomy"
        elif x < 0.3: dirs, kind = [r.choice(plurals), r.choice(NAMES)], "term"
        else:
            dirs = r.choice([[], [r.choice(secs)], [r.choice(secs)],
                             [r.choice(secs), r.choice(SUBS)]])
            kind = r.choice(["page", "page", "page", "bundle", "section"]) if dirs else \
                r.choice(["page", "bundle"])
        if mount_extra and p() < 0.3: root = ["extra"]
        name = r.choice(NAMES) + (str(r.randint(0, 2)) if p() < 0.3 else "")
        ext = r.choice(exts)
        suffix = "." + l if lang_mode == "suffix" and (l != "en" or p() < 0.2) else ""
        if kind in ("home", "taxonomy", "term", "section"): path = dirs + ["_index" + suffix + ext]
        elif kind == "bundle": path = dirs + [name, "index" + suffix + ext]
        else: path = dirs + [name + suffix + ext]
        path = root + path
        if tuple(path) in made: continue
        made.add(tuple(path))
        fm = []
        if p() < 0.8: fm.append(("title", r.choice(TITLES)))
        if p() < 0.2: fm.append(("slug", r.choice(NAMES + ["with space", "UPPER", "Ça"])))
        fmt = r.choice(["yaml"] * 6 + ["toml"] * 3 + ["json"])

        def date():
            d = r.choice(DATES)
            return Raw(d) if fmt == "toml" and p() < 0.3 else d
        if p() < 0.6: fm.append(("date", date()))
        if p() < 0.2: fm.append(("lastmod", date()))
        if p() < 0.1: fm.append(("publishDate", date()))
        if p() < 0.08: fm.append(("expiryDate", r.choice(["2020-01-01", "2035-01-01"])))
        if p() < 0.08: fm.append(("draft", True))
        if p() < 0.06:
            fm.append(("url", r.choice([f"/custom/{r.choice(NAMES)}/", f"rel-{i}",
                                        f"/a/b{i}.html", "/Caps Path/x/", f"/deep/{i}"])))
        if p() < 0.05: fm.append(("aliases", [f"/old/{i}/"]))
        for t in plurals + (["series"] if "series" not in plurals else []):
            if kind in ("page", "bundle") and p() < 0.2:
                fm.append((t, [r.choice(NAMES) for _ in range(r.randint(1, 2))]))
        if p() < 0.05: fm.append(("weight", r.randint(1, 9)))
        if kind in ("page", "bundle") and p() < 0.05: fm.append(("headless", True))
        if multi and p() < 0.1: fm.append(("translationKey", f"k{r.randint(0, 2)}"))
        if p() < 0.1:
            b = {}
            if p() < 0.6: b["render"] = r.choice(["never", "always", "never"])
            if p() < 0.6: b["list"] = r.choice(["never", "always", "local"])
            fm.append((r.choice(build_keys), b))
        if kind in ("home", "section", "taxonomy", "term") and p() < 0.3:
            def casc():
                c = {}
                y = p()
                if y < 0.35: c[r.choice(build_keys)] = {
                    r.choice(["render", "list"]): r.choice(["never", "local", "always"])}
                elif y < 0.55: c["draft"] = True
                elif y < 0.75: c["date"] = r.choice(DATES)
                else: c["headless"] = True
                if p() < 0.4:
                    t = {}
                    if p() < 0.7: t["kind"] = r.choice(["page", "section", "home",
                                                        "taxonomy", "term"])
                    if p() < 0.5: t["path"] = r.choice(["/posts/**", "**", "/docs", "{/*,/**}"])
                    c[r.choice(["_target", "target"])] = t
                return c
            fm.append(("cascade", casc() if p() < 0.4 else [casc() for _ in range(r.randint(1, 2))]))
        if dup_keys and fmt == "yaml" and fm and p() < 0.2:
            k, v = r.choice(fm)
            if isinstance(v, str): fm.append((k, v + " again"))
        site["files"].append({"path": path, "fmt": fmt, "fm": fm})
    return site


# ---------------------------------------------------------------- running

def hugo_binary(path):
    """(version, binary) of a Hugo; the PyPI wrapper is resolved to the binary it runs."""
    try:
        out = subprocess.run([path, "version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = out.stdout + out.stderr
    m = re.search(r"hugo v(\d+\.\d+\.\d+)", text)
    if not m: return None
    w = re.search(r"hugo-python-distributions at (\S+)", re.sub(r"\x1b\[[0-9;]*m", "", text))
    real = w.group(1) if w and os.access(w.group(1), os.X_OK) else path
    return m.group(1), real


class Locs(dict):
    """loc -> lastmod, and in .alts every lastmod of a loc listed more than once (Hugo lists
    one URL once per page published there, each with its page's date)."""
    def __init__(self):
        super().__init__()
        self.alts = {}


def parse_sitemap(text):
    """loc -> lastmod (a UTC instant as text, or None)."""
    out = Locs()
    for block in re.findall(r"<(?:url|sitemap)>(.*?)</(?:url|sitemap)>", text, re.S):
        m = re.search(r"<loc>(.*?)</loc>", block, re.S)
        if not m: continue
        loc = urllib.parse.unquote(html.unescape(m.group(1).strip()))
        if loc.endswith("/sitemap.xml"): continue  # a language's sitemap in Hugo's index
        lm = re.search(r"<lastmod>(.*?)</lastmod>", block)
        t = None
        if lm:
            t = lm.group(1).strip()
            if len(t) == 10: t += "T00:00:00+00:00"
            try:
                t = datetime.datetime.fromisoformat(t.replace("Z", "+00:00")).astimezone(
                    datetime.timezone.utc).isoformat()
            except ValueError:
                pass
        if loc in out:
            out.alts.setdefault(loc, {out[loc]}).add(t)
        out[loc] = t
    return out


def read_sitemaps(folder):
    """Every <loc> of the sitemaps below folder (URL -> lastmod), the files, and each
    URL set's URLs by the folder it is in ("en", "" at the top)."""
    out, files, sets = Locs(), [], {}
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for n in sorted(names):
            if n == "sitemap.xml":
                files.append(os.path.join(root, n))
                text = open(files[-1], encoding="utf-8").read()
                urls = parse_sitemap(text)
                out.update(urls)
                out.alts.update(urls.alts)
                if "<sitemapindex" not in text:
                    rel = os.path.relpath(root, folder)
                    sets.setdefault("" if rel == "." else rel, set()).update(urls)
    return out, files, sets


class Runner:
    def __init__(self, sitemapgen, work, timeout=60):
        self.sg, self.work, self.timeout, self.runs = sitemapgen, work, timeout, 0
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO")}
        self.env["HUGO_CACHEDIR"] = os.path.join(work, "cache")

    def hugo(self, binary, d):
        pub = os.path.join(d, "public")
        self.runs += 1
        try:
            h = subprocess.run([binary, "--source", d, "--destination", pub],
                               capture_output=True, text=True, timeout=self.timeout,
                               env=self.env)
        except subprocess.TimeoutExpired:
            return ("error", "timeout")
        if h.returncode != 0:
            text = h.stderr + "\n" + h.stdout
            lines = [x for x in text.splitlines() if re.match(r"\s*(ERROR|Error:|panic:)", x)]
            text = "\n".join(lines) if lines else text.strip()[-2000:]
            return ("error", text.replace(d + "/", "").replace(d, "SITE"))
        urls, files, sets = read_sitemaps(pub)
        # Hugo renders its sitemap with the home: none where it renders no home page.
        return ("ok", urls, sets) if files else ("no-sitemap", None)

    def ours(self, version, d):
        out = os.path.join(d, "sg-out")
        try:
            s = subprocess.run([self.sg, "build", "--site", d, "--output", out, "--quiet",
                                "--no-audit", "--hugo-version", version],
                               capture_output=True, text=True, timeout=self.timeout, env=self.env)
        except subprocess.TimeoutExpired:
            return ("crash", "timeout")
        err = s.stderr.strip().replace(d + "/", "").replace(d, "SITE")
        if s.returncode == 2:
            return ("error", err)
        if s.returncode != 0:
            return ("crash", f"exit {s.returncode}: " + err)
        urls, _, sets = read_sitemaps(out)
        return ("ok", urls, sets)

    def compare(self, site, version, binary, keep=None):
        """(verdict, detail): verdict same | both-refused | different; detail for a difference:
        {"kind": ..., "sig": ..., "text": ...}."""
        d = keep or tempfile.mkdtemp(dir=self.work)
        try:
            write_site(site, d)
            h = self.hugo(binary, d)
            s = self.ours(version, d)
        finally:
            if not keep: shutil.rmtree(d, ignore_errors=True)
        return judge(h, s)


def judge(h, s):
    if s[0] == "crash":
        return "different", {"kind": "sitemapgen-crash", "sig": ("crash",), "text": s[1][:300]}
    if h[0] == "error" and s[0] == "error":
        return "both-refused", None
    if h[0] == "no-sitemap" and s[0] == "ok" and s[1]:
        return "different", {"kind": "hugo-no-sitemap", "sig": ("hugo-no-sitemap",),
                             "text": "Hugo wrote no sitemap (it renders no home page); "
                                     f"sitemapgen lists {len(s[1])} URLs"}
    if h[0] == "no-sitemap":
        h = ("ok", {})
    if h[0] == "error":
        return "one-refused", {"kind": "hugo-refuses", "sig": ("hugo-refuses", gist(h[1])),
                               "text": "Hugo refuses, sitemapgen builds: " + first_line(h[1])}
    if s[0] == "error":
        return "one-refused", {"kind": "we-refuse", "sig": ("we-refuse", gist(s[1])),
                               "text": "sitemapgen refuses, Hugo builds: " + first_line(s[1])}
    a, b = h[1], s[1]
    # A language whose home Hugo does not render gets no sitemap from Hugo (its index may
    # still name one): what we list there is the deliberate hugo-no-sitemap difference.
    unwritten = sorted(f for f, urls in (s[2] if len(s) > 2 else {}).items()
                       if urls and len(h) > 2 and f not in h[2])
    if unwritten:
        dropped = set().union(*(s[2][f] for f in unwritten)) - set(a)
        b = {u: t for u, t in b.items() if u not in dropped}
    only_h, only_s = sorted(set(a) - set(b)), sorted(set(b) - set(a))

    if only_h or only_s:
        text = "URLs: Hugo only " + short(only_h) + "; sitemapgen only " + short(only_s)
        return "different", {"kind": "urls", "sig": ("urls", bool(only_h), bool(only_s)),
                             "text": text}
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    bad = []
    alts = getattr(a, "alts", {})
    for u in sorted(a):
        x, y = a[u], b[u]
        # A URL Hugo lists twice, with two dates: either is Hugo's.
        hugos = alts.get(u, {x})
        future = any(h and h[:10] > today for h in hugos)
        if x and y and y not in hugos and not (future and y[:10] == today):
            bad.append(f"{u} Hugo {x[:19]} sitemapgen {y[:19]}")
    if bad:
        return "different", {"kind": "lastmod", "sig": ("lastmod",),
                             "text": "lastmod: " + "; ".join(bad[:2])
                             + (f" (+{len(bad) - 2})" if len(bad) > 2 else "")}
    if unwritten:
        folders = ", ".join((f or "the top") + "/" for f in unwritten)
        return "different", {"kind": "hugo-no-sitemap", "sig": ("hugo-no-sitemap",),
                             "text": f"Hugo wrote no sitemap for {folders} (it renders no "
                                     f"home page there); sitemapgen lists {len(dropped)} URLs"}
    return "same", None


def gist(t):
    """An error's first line without its names, paths and numbers: what the shrinker keeps."""
    t = first_line(t)
    t = re.sub(r'"[^"]*"|\'[^\']*\'|`[^`]*`', "_", t)
    t = re.sub(r"\S*[/\\]\S*|\d+", "_", t)
    return t[:100]


def first_line(t):
    lines = [x for x in t.splitlines() if x.strip()]
    # Hugo 0.168 ends with "logged N error(s)"; the error itself is on an earlier line.
    lines = [x for x in lines if not re.search(r"logged \d+ error", x)] or lines
    line = lines[0] if lines else t
    return line.strip()[:240]


def short(urls):
    urls = [u.replace("https://example.org", "") for u in urls]
    return "[" + ", ".join(urls[:3]) + (f", +{len(urls) - 3}" if len(urls) > 3 else "") + "]"


# ---------------------------------------------------------------- shrinking

def candidates(site):
    """Smaller or simpler variants of a site, biggest cuts first."""
    files = site["files"]
    n = len(files)
    # ddmin over the files: halves, quarters, ... then one at a time.
    k = 2
    while k <= n:
        step = (n + k - 1) // k
        for i in range(0, n, step):
            yield dict(site, files=files[:i] + files[i + step:])
        k *= 2
    cfg = site["config"]
    for i in range(len(cfg)):
        if cfg[i][0] not in ("baseURL", "base_url"):
            yield dict(site, config=cfg[:i] + cfg[i + 1:])
    # Mounts dropped, their files moved to where the mounts put them.
    if any(k == "module" for k, _ in cfg) and not any(k == "languages" for k, _ in cfg):
        to = {"src": ["content"], "extra": ["content", "extra"], "content_en": ["content"]}
        moved = [dict(f, path=to.get(f["path"][0], f["path"][:1]) + f["path"][1:]) for f in files]
        if len({tuple(f["path"]) for f in moved}) == len(moved):
            yield dict(site, config=[(k, v) for k, v in cfg if k != "module"], files=moved)
    for i, (k, v) in enumerate(cfg):
        if k.lower() in ("baseurl", "base_url", "module"): continue  # their values stay valid
        for nv in smaller_values(v):
            yield dict(site, config=cfg[:i] + [(k, nv)] + cfg[i + 1:])
    for j, f in enumerate(files):
        fm = f["fm"]
        for i in range(len(fm)):
            yield with_file(site, j, dict(f, fm=fm[:i] + fm[i + 1:]))
        for i, (k, v) in enumerate(fm):
            for nv in smaller_values(v):
                yield with_file(site, j, dict(f, fm=fm[:i] + [(k, nv)] + fm[i + 1:]))
        if f["fmt"] != "yaml":
            yield with_file(site, j, dict(f, fmt="yaml"))
    if site["config_fmt"] != "toml":
        yield dict(site, config_fmt="toml")
    # Simpler names: each path component renamed everywhere it occurs.
    comps = sorted({c for f in files for c in f["path"][1:-1]}
                   | {base_name(f["path"][-1]) for f in files})
    for c in comps:
        s = simple(c)
        if s != c:
            yield rename(site, c, s)


def base_name(n):
    return n.split(".")[0]


def simple(s):
    t = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return t or "x"


def smaller_values(v):
    if isinstance(v, bool) or v is None: return
    if isinstance(v, Raw):
        yield str(v); return
    if isinstance(v, str):
        for t in (simple(v), re.sub(r"[^\w -]", "", v), v.strip()):
            if t != v and t: yield t
        return
    if isinstance(v, list):
        if len(v) > 1:
            for i in range(len(v)): yield v[:i] + v[i + 1:]
        for i, x in enumerate(v):
            for y in smaller_values(x): yield v[:i] + [y] + v[i + 1:]
        return
    if isinstance(v, dict):
        ks = list(v)
        if len(ks) > 1:
            for k in ks: yield {kk: vv for kk, vv in v.items() if kk != k}
        for k in ks:
            for y in smaller_values(v[k]): yield dict(v, **{k: y})


def with_file(site, j, f):
    files = list(site["files"])
    files[j] = f
    return dict(site, files=files)


def rename(site, old, new):
    files = []
    for f in site["files"]:
        path = [new if c == old else c for c in f["path"][:-1]]
        last = f["path"][-1]
        if base_name(last) == old: last = new + last[len(old):]
        files.append(dict(f, path=path + [last]))
    if len({tuple(f["path"]) for f in files}) < len(files): return site
    return dict(site, files=files)


def shrink(runner, site, version, binary, sig, budget_s, max_probes):
    start, probes = time.monotonic(), 0
    best = site
    progress = True
    while progress:
        progress = False
        for cand in candidates(best):
            if time.monotonic() - start > budget_s or probes >= max_probes:
                return best, probes
            if cand is best or cand == best: continue
            probes += 1
            verdict, det = runner.compare(cand, version, binary)
            if det and det["sig"] == sig:
                best, progress = cand, True
                break
    return best, probes


def fingerprint(site, version, det):
    keys = set()

    def walk(prefix, v):
        if isinstance(v, dict):
            for k, x in v.items(): walk(prefix + "." + k.lower(), x)
        else:
            keys.add(prefix)
    for k, v in site["config"]: walk("config:" + k.lower(), v)
    for f in site["files"]:
        for k, v in f["fm"]: walk("fm:" + k.lower(), v)
    shapes = []
    for f in site["files"]:
        parts = f["path"][-1].split(".")
        role = parts[0] if parts[0] in ("_index", "index") else "page"
        shapes.append((f["path"][0], len(f["path"]), role, "." + parts[-1], len(parts) > 2,
                       f["path"][1] in ("tags", "categories", "series", "authors")
                       if len(f["path"]) > 2 else False))
    return (version, det["sig"], tuple(sorted(keys)), tuple(sorted(shapes)))


def describe_site(site):
    cfg = ", ".join(k for k, _ in site["config"] if k not in ("baseURL", "title"))
    files = "; ".join("/".join(f["path"]) + (" {" + ", ".join(k for k, _ in f["fm"]) + "}"
                                             if f["fm"] else "") for f in site["files"])
    return f"config: {cfg or '-'}; files: {files or '-'}"


def write_fixture(runner, out, name, site, hugos, det, seed, version):
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_site(site, d)
    for ver, binary in hugos:
        tmp = tempfile.mkdtemp(dir=runner.work)
        write_site(site, tmp)
        mm = ".".join(ver.split(".")[:2])
        h = runner.hugo(binary, tmp)
        exp = os.path.join(d, "expected-" + mm)
        os.makedirs(exp)
        if h[0] == "error":
            open(os.path.join(exp, "hugo-error.txt"), "w").write(h[1] + "\n")
        else:
            pub = os.path.join(tmp, "public")
            for f in read_sitemaps(pub)[1]:
                rel = os.path.relpath(f, pub)
                os.makedirs(os.path.dirname(os.path.join(exp, rel)), exist_ok=True)
                shutil.copy(f, os.path.join(exp, rel))
        keep_ours(runner.ours(ver, tmp), tmp, os.path.join(d, "sitemapgen-" + mm))
        shutil.rmtree(tmp, ignore_errors=True)
    open(os.path.join(d, "README.txt"), "w", encoding="utf-8").write(
        f"Found by tests/hugo_search.py, seed {seed}, with Hugo {version}:\n{det['text']}\n\n"
        f"{describe_site(site)}\n\nexpected-X.Y/ is what Hugo X.Y wrote (or its error), "
        f"sitemapgen-X.Y/ what sitemapgen --hugo-version X.Y.Z wrote.\n")
    return d


def keep_ours(s, tmp, ours):
    """Stores what sitemapgen wrote in `tmp` (or its error) in the fixture folder `ours`."""
    os.makedirs(ours)
    if s[0] != "ok":
        open(os.path.join(ours, "error.txt"), "w").write(s[1] + "\n")
    else:
        shutil.copy(os.path.join(tmp, "sg-out", "sitemap.xml"), ours)


# ---------------------------------------------------------------- the search

def load_allowlist(path):
    """version seed kind -> (issue, reason). Lines: `0.168.0 12 urls issue-38 reason...`."""
    known = {}
    if not path: return known
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line: continue
        parts = line.split(None, 4)
        if len(parts) < 5:
            sys.exit(f"{path}:{n}: want `VERSION SEEDS KIND ISSUE REASON`")
        ver, seeds, kind, issue, reason = parts
        for s in seeds.split(","):
            known[(ver, int(s), kind)] = (issue, reason)
    return known


def parse_seeds(s):
    m = re.fullmatch(r"(\d+)\.\.(\d*)", s)
    if not m: raise argparse.ArgumentTypeError("want A..B (B exclusive) or A..")
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


def search_args(doc, grammar):
    """The command line both searches share (this one and tests/zola_search.py)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Grammar:\n" + grammar)
    ap.add_argument("--seeds", type=parse_seeds, help="A..B (B exclusive), or A.. with --minutes")
    ap.add_argument("--minutes", type=float, help="stop starting new sites after N minutes")
    ap.add_argument("--sitemapgen", default=os.path.join(REPO, "target", "release", "sitemapgen"))
    ap.add_argument("--out", help="where minimised differences go (default: a temporary folder)")
    ap.add_argument("--keep-going", action="store_true", help="go on after a new difference")
    ap.add_argument("--allowlist", help="known differences (version seed kind issue reason)")
    ap.add_argument("--no-shrink", action="store_true", help="report differences unshrunk")
    ap.add_argument("--shrink-seconds", type=float, default=120)
    ap.add_argument("--max-shrinks", type=int, default=6,
                    help="per version and kind of difference; later ones are listed unshrunk")
    ap.add_argument("--print-site", type=int, metavar="SEED", help="write SEED's site to --out")
    return ap


def print_site(a, gen, write, prefix):
    """--print-site: writes the seed's site to --out (or a new temporary folder)."""
    d = a.out or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(d, exist_ok=True)
    write(gen(a.print_site), d)
    print(d)
    return 0


def main():
    ap = search_args(__doc__, GRAMMAR)
    ap.add_argument("--hugo", action="append", default=[], metavar="PATH",
                    help="a Hugo binary (repeatable; default: /usr/bin/hugo and `hugo` on PATH)")
    a = ap.parse_args()

    if a.print_site is not None:
        return print_site(a, gen_site, write_site, "hugo-search-site-")
    if not a.seeds and not a.minutes:
        ap.error("give --seeds A..B or --minutes N")
    lo, hi = a.seeds or (0, None)
    if hi is None and not a.minutes:
        ap.error("an open seed range needs --minutes")
    if not os.access(a.sitemapgen, os.X_OK):
        ap.error(f"no sitemapgen at {a.sitemapgen} (cargo build --release, or --sitemapgen)")
    paths = a.hugo or [p for p in ["/usr/bin/hugo", shutil.which("hugo")] if p]
    hugos, seen = [], set()
    for pth in paths:
        hb = hugo_binary(pth)
        if not hb:
            print(f"skipped: no Hugo at {pth}")
            continue
        if hb[0] in seen: continue
        seen.add(hb[0])
        hugos.append(hb)
        print(f"Hugo {hb[0]}: {hb[1]}")
    if not hugos:
        print("no Hugo installed: nothing to compare")
        return 0
    out = a.out or tempfile.mkdtemp(prefix="hugo-search-")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="hugo-search-work-")
    runner = Runner(a.sitemapgen, work)
    known = load_allowlist(a.allowlist)
    counts = {v: {"same": 0, "different": 0, "both-refused": 0, "one-refused": 0} for v, _ in hugos}
    busy = {v: 0.0 for v, _ in hugos}
    found, fps, shrinks, seen_known = [], {}, {}, set()
    start = time.monotonic()
    seed, sites, stop = lo, 0, False
    while not stop and (hi is None or seed < hi):
        if a.minutes and time.monotonic() - start > a.minutes * 60: break
        site = gen_site(seed)
        sites += 1
        for ver, binary in hugos:
            t0 = time.monotonic()
            verdict, det = runner.compare(site, ver, binary)
            counts[ver][verdict] += 1
            if det:
                key = (ver, seed, det["kind"])
                if key in known:
                    seen_known.add(key)
                    print(f"seed {seed} Hugo {ver}: known ({known[key][0]}): {det['text'][:160]}")
                else:
                    cls = (ver, det["sig"])
                    entry = {"seed": seed, "version": ver, "kind": det["kind"],
                             "text": det["text"], "fixture": None, "dup_of": None}
                    if not a.no_shrink and shrinks.get(cls, 0) < a.max_shrinks:
                        shrinks[cls] = shrinks.get(cls, 0) + 1
                        small, probes = shrink(runner, site, ver, binary, det["sig"],
                                               a.shrink_seconds, 400)
                        _, det2 = runner.compare(small, ver, binary)
                        det2 = det2 or det
                        entry["text"] = det2["text"]
                        entry["site"] = describe_site(small)
                        fp = fingerprint(small, ver, det2)
                        if fp in fps:
                            entry["dup_of"] = fps[fp]
                        else:
                            name = f"{ver}-{det['kind']}-s{seed}"
                            entry["fixture"] = write_fixture(runner, out, name, small, hugos,
                                                             det2, seed, ver)
                            fps[fp] = name
                        entry["probes"] = probes
                    found.append(entry)
                    where = entry["fixture"] or (f"same as {entry['dup_of']}" if entry["dup_of"]
                                                 else "not shrunk")
                    print(f"seed {seed} Hugo {ver}: NEW {det['kind']}: {entry['text'][:200]}"
                          f" -> {where}", flush=True)
                    if not a.keep_going: stop = True
            busy[ver] += time.monotonic() - t0
        seed += 1
        if sites % 25 == 0:
            print(f"... {sites} sites, {time.monotonic() - start:.0f} s", flush=True)
    elapsed = time.monotonic() - start
    print(f"\n{sites} sites (seeds {lo}..{seed}), {runner.runs} Hugo runs, {elapsed / 60:.1f} min")
    for ver, _ in hugos:
        c = counts[ver]
        print(f"Hugo {ver}: same {c['same']}, different {c['different']}, both refused "
              f"{c['both-refused']}, one refused {c['one-refused']} ({busy[ver] / 60:.1f} min)")
    stale = [k for k in known if lo <= k[1] < seed and k not in seen_known
             and k[0] in counts]
    for k in sorted(stale):
        print(f"note: the allowlist's {k[0]} seed {k[1]} {k[2]} no longer differs: remove it?")
    if found:
        print(f"\n{len(found)} new difference(s):")
        for e in found:
            where = e["fixture"] or (f"same minimal site as {e['dup_of']}" if e["dup_of"]
                                     else "not shrunk")
            print(f"- Hugo {e['version']} seed {e['seed']} {e['kind']}: {e['text'][:220]}\n"
                  + (f"    minimal site: {e['site'][:400]}\n" if e.get("site") else "")
                  + f"    {where}")
    if not a.out and not os.listdir(out):
        os.rmdir(out)
    else:
        print(f"\nfixtures in {out}")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
