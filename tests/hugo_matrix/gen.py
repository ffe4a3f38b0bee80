#!/usr/bin/env python3
"""The Hugo value matrix: every front matter key sitemapgen reads, given every value shape, in
YAML, TOML and JSON, built by real Hugos; their sitemaps recorded as fixtures that
`tests/hugo_matrix.rs` replays through sitemapgen without Hugo.

    python3 tests/hugo_matrix/gen.py          # needs hugo-0.111 and hugo-0.168 (HUGO_0111 /
                                              # HUGO_0168 name other binaries)

Writes `tests/hugo_matrix/<group>.json.gz` (gzipped JSON), one file per group of sites:
  {"now": "<UTC instant of the Hugo builds>",
   "sites": [{"name": "<key> <format>", "config": "<hugo.toml>",
              "cases": [{"label": "yaml draft = null", "file": <the file holding the value>,
                         "line": <the value's line>, "files": [[path, text], ...]}, ...],
              "hugo": {"0.111.3": R, "0.168.0": R or "same" (as the first)}}]}
  where R is {"urls": [[loc without the base URL, lastmod or "", [[hreflang, href], ...]],
  ...], "fail": [the `file` of each case that fails this Hugo's build]}: the sitemap is that
  of the site without its failing cases.

One site per (group, key, format) holds one case per value shape, so the test builds few
sites. A case whose file fails a Hugo build is found by the files Hugo's errors name (0.168
names every one; 0.111 stops at the first), else by halves; the test then checks each such
case on its own.
"""
import concurrent.futures, datetime, gzip, html, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HUGOS = {
    "0.111.3": os.environ.get("HUGO_0111", "/work/tools/bin/hugo-0.111"),
    "0.168.0": os.environ.get("HUGO_0168", "/work/tools/bin/hugo-0.168"),
}
BASE = "https://example.org"

# ---------------------------------------------------------------------------------------------
# Value shapes: name -> (YAML, TOML, JSON) source text, None where the format cannot say it.
# "{id}" is replaced by the case's id, so values that become URLs do not collide.
# ---------------------------------------------------------------------------------------------
S = {}
def shape(name, yaml, toml=None, js=None):
    S[name] = (yaml, toml, js)

# Nothing, blank, null.
shape("empty", "", None, None)                     # `key:` with no value
shape("tilde", "~", None, None)
shape("null", "null", None, "null")
shape("emptystr", '""', '""', '""')
shape("blank", '" "', '" "', '" "')
# Booleans in every spelling.
shape("true", "true", "true", "true")
shape("false", "false", "false", "false")
shape("True", "True", None, None)
shape("FALSE", "FALSE", None, None)
shape("yes", "yes", None, None)
shape("no", "no", None, None)
shape("on", "on", None, None)
shape("off", "off", None, None)
shape("y", "y", None, None)
shape("'true'", '"true"', '"true"', '"true"')
shape("'false'", '"false"', '"false"', '"false"')
shape("'True'", '"True"', '"True"', '"True"')
shape("'yes'", '"yes"', '"yes"', '"yes"')
shape("'t'", '"t"', '"t"', '"t"')
shape("'f'", '"f"', '"f"', '"f"')
# Numbers.
shape("0", "0", "0", "0")
shape("1", "1", "1", "1")
shape("2", "2", "2", "2")
shape("-1", "-1", "-1", "-1")
shape("1.5", "1.5", "1.5", "1.5")
shape("0.0", "0.0", "0.0", "0.0")
shape("1e3", "1e3", "1e3", "1e3")
shape("'0'", '"0"', '"0"', '"0"')
shape("'1'", '"1"', '"1"', '"1"')
shape("'2.5'", '"2.5"', '"2.5"', '"2.5"')
shape("unix", "1672628645", "1672628645", "1672628645")
shape("'unix'", '"1672628645"', '"1672628645"', '"1672628645"')
# Strings.
shape("word", "abc{id}", '"abc{id}"', '"abc{id}"')
shape("spaces", '"A b & C {id}"', '"A b & C {id}"', '"A b & C {id}"')
shape("lead", '" lead {id}"', '" lead {id}"', '" lead {id}"')
shape("double", '"two  sp {id}"', '"two  sp {id}"', '"two  sp {id}"')
shape("punct", '"C++ x.y/z? #{id}"', '"C++ x.y/z? #{id}"', '"C++ x.y/z? #{id}"')
shape("accent", '"Ünï cödé {id}"', '"Ünï cödé {id}"', '"Ünï cödé {id}"')
shape("path", '"/{id}/Sub Dir/x/"', '"/{id}/Sub Dir/x/"', '"/{id}/Sub Dir/x/"')
shape("relpath", '"{id}/rel"', '"{id}/rel"', '"{id}/rel"')
shape("html", '"/{id}/page.html"', '"/{id}/page.html"', '"/{id}/page.html"')
shape("abs-url", '"https://other.example/{id}/"', '"https://other.example/{id}/"', '"https://other.example/{id}/"')
shape("colon", '"a:{id}"', '"a:{id}"', '"a:{id}"')
# Dates, native where the format has them.
shape("date", "2023-01-02", "2023-01-02", None)
shape("datetime-z", "2023-01-02T03:04:05Z", "2023-01-02T03:04:05Z", None)
shape("datetime-off", "2023-01-02T03:04:05+02:00", "2023-01-02T03:04:05+02:00", None)
shape("datetime-local", "2023-01-02T03:04:05", "2023-01-02T03:04:05", None)
shape("datetime-space", "2023-01-02 03:04:05", "2023-01-02 03:04:05", None)
shape("time-local", None, "03:04:05", None)
shape("datetime-frac", "2023-01-02T03:04:05.123456Z", "2023-01-02T03:04:05.123456Z", None)
# Dates as strings, in the forms Go's parsers know and some they do not.
for i, d in enumerate([
    "2023-01-02", "2023-01-02T03:04:05Z", "2023-01-02T03:04:05+02:00", "2023-01-02T03:04:05",
    "2023-01-02 03:04:05", "2023-01-02T03:04", "2023-01-02 03:04", "2023-01-02T03:04:05.123Z",
    "2023-01-02T03:04:05+0200", "2023-01-02 03:04:05 +0200", "2023-01-02 03:04:05 -07:00",
    "2023-01-02 03:04:05Z", "2023-01-02 03:04:05.5 +0000 UTC", "02 Jan 2023", "2 Jan 2023",
    "02 Jan 23 10:00 MST", "January 2, 2023", "Jan 2, 2023", "Mon, 02 Jan 2023 15:04:05 MST",
    "Mon, 02 Jan 2023 15:04:05 +0100", "Monday, 02-Jan-23 15:04:05 MST",
    "Mon Jan  2 15:04:05 2023", "2023/01/02", "20230102", "2023-1-2", "2023-13-45",
    "2023-02-30", "0001-01-01", "3:04PM", "Jan  2 15:04:05", "2023", "2099-01-01",
    "2023-01-02T03:04:05z", "2023-01-02t03:04:05Z", " 2023-01-02", "2023-01-02 ",
]):
    shape(f"s:{d}", json.dumps(d), json.dumps(d), json.dumps(d))
shape("future", "2099-01-01", "2099-01-01", '"2099-01-01"')
shape("past", "2020-01-01", "2020-01-01", '"2020-01-01"')
# Collections.
shape("list0", "[]", "[]", "[]")
shape("list1", '["a{id}"]', '["a{id}"]', '["a{id}"]')
shape("list2", '["A b{id}", "c{id}"]', '["A b{id}", "c{id}"]', '["A b{id}", "c{id}"]')
shape("list-int", "[1, 2]", "[1, 2]", "[1, 2]")
shape("list-bool", "[true]", "[true]", "[true]")
shape("list-date", "[2023-01-02]", "[2023-01-02]", '["2023-01-02"]')
shape("list-mixed", '["a{id}", 1, true]', '["a{id}", 1, true]', '["a{id}", 1, true]')
shape("list-nested", '[["a{id}"]]', '[["a{id}"]]', '[["a{id}"]]')
shape("list-map", '[{a: 1}]', '[{a = 1}]', '[{"a": 1}]')
shape("map0", "{}", "{}", "{}")
shape("map1", "{a: 1}", "{a = 1}", '{"a": 1}')
shape("map-nested", "{a: {b: c}}", '{a = {b = "c"}}', '{"a": {"b": "c"}}')

ALL = list(S)
# Every key gets these; date keys get every shape, URL-making keys the string-ish ones too.
CORE = ["empty", "tilde", "null", "emptystr", "blank", "true", "false", "True", "FALSE", "yes",
        "no", "on", "off", "'true'", "'false'", "'True'", "'yes'", "'t'", "0", "1", "2", "-1",
        "1.5", "'0'", "'1'", "unix", "word", "spaces", "lead", "double", "punct", "accent",
        "path", "abs-url", "date", "datetime-z", "s:2023-01-02", "future", "list0", "list1",
        "list2", "list-int", "list-mixed", "map0", "map1", "map-nested"]
STRINGY = CORE + ["colon", "relpath", "html", "list-nested", "list-map", "list-bool", "y",
                  "'f'", "0.0", "1e3", "'2.5'"]

def sh(name, yaml, toml=None, js=None):
    """A key-specific shape (added to S, not to GENERIC)."""
    shape(name, yaml, toml, js)
    return name

WORDS = {
    "render": [sh(f"w:{w}", w, json.dumps(w), json.dumps(w)) for w in
               ["always", "never", "link", "Never", "NEVER", "Link", "sometimes"]],
    "list": [sh(f"w:{w}", w, json.dumps(w), json.dumps(w)) for w in
             ["always", "never", "local", "Never", "LOCAL", "sometimes"]],
    "publishResources": [],
    "changefreq": [sh(f"w:{w}", w, json.dumps(w), json.dumps(w)) for w in
                   ["daily", "Daily", "WEEKLY", "fortnightly", "never", "always"]],
    "priority": [sh("p:0.5", "0.5", "0.5", "0.5"), sh("p:'0.3'", '"0.3"', '"0.3"', '"0.3"'),
                 sh("p:1", "1", "1", "1.0"), sh("p:0.33333", "0.33333", "0.33333", "0.33333"),
                 sh("p:'high'", '"high"', '"high"', '"high"'), sh("p:'-1'", '"-1"', '"-1"', '"-1"')],
    "outputs": [sh("o:[html]", "[html]", '["html"]', '["html"]'),
                sh("o:[HTML]", "[HTML]", '["HTML"]', '["HTML"]'),
                sh("o:html", "html", '"html"', '"html"'),
                sh("o:[rss]", "[rss]", '["rss"]', '["rss"]'),
                sh("o:[json,html]", "[json, html]", '["json", "html"]', '["json", "html"]'),
                sh("o:[amp]", "[amp]", '["amp"]', '["amp"]')],
    "sitemap": [sh("sm:{disable:true}", "{disable: true}", "{disable = true}", '{"disable": true}'),
                sh("sm:{disable:'true'}", '{disable: "true"}', '{disable = "true"}', '{"disable": "true"}'),
                sh("sm:{priority:0.4}", "{priority: 0.4}", "{priority = 0.4}", '{"priority": 0.4}'),
                sh("sm:{changefreq:daily}", "{changefreq: daily}", '{changefreq = "daily"}', '{"changefreq": "daily"}'),
                sh("sm:{Disable:1}", "{Disable: 1}", "{Disable = 1}", '{"Disable": 1}'),
                sh("sm:{filename:x}", "{filename: x.xml}", '{filename = "x.xml"}', '{"filename": "x.xml"}')],
    "build": [sh("b:{render:never}", "{render: never}", '{render = "never"}', '{"render": "never"}'),
              sh("b:{list:never}", "{list: never}", '{list = "never"}', '{"list": "never"}'),
              sh("b:{render:false}", "{render: false}", "{render = false}", '{"render": false}'),
              sh("b:{list:local}", "{list: local}", '{list = "local"}', '{"list": "local"}'),
              sh("b:{render:link}", "{render: link}", '{render = "link"}', '{"render": "link"}'),
              sh("b:{Render:Never}", "{Render: Never}", '{Render = "Never"}', '{"Render": "Never"}'),
              sh("b:{publishResources:false}", "{publishResources: false}", "{publishResources = false}", '{"publishResources": false}')],
    "cascade": [sh("c:{draft:true}", "{draft: true}", "{draft = true}", '{"draft": true}'),
                sh("c:{build:{list:never}}", "{build: {list: never}}", '{build = {list = "never"}}', '{"build": {"list": "never"}}'),
                sh("c:{_build:{render:never}}", "{_build: {render: never}}", '{_build = {render = "never"}}', '{"_build": {"render": "never"}}'),
                sh("c:{sitemap:{disable:true}}", "{sitemap: {disable: true}}", "{sitemap = {disable = true}}", '{"sitemap": {"disable": true}}'),
                sh("c:{sitemap:{priority:0.2}}", "{sitemap: {priority: 0.2}}", "{sitemap = {priority = 0.2}}", '{"sitemap": {"priority": 0.2}}'),
                sh("c:{lastmod:2022-02-02}", "{lastmod: 2022-02-02}", "{lastmod = 2022-02-02}", '{"lastmod": "2022-02-02"}'),
                sh("c:{date:2099-01-01}", "{date: 2099-01-01}", "{date = 2099-01-01}", '{"date": "2099-01-01"}'),
                sh("c:{expiryDate:2020-01-01}", "{expiryDate: 2020-01-01}", "{expiryDate = 2020-01-01}", '{"expiryDate": "2020-01-01"}'),
                sh("c:{headless:true}", "{headless: true}", "{headless = true}", '{"headless": true}'),
                sh("c:{draft:'true'}", '{draft: "true"}', '{draft = "true"}', '{"draft": "true"}'),
                sh("c:{draft:~}", "{draft: ~}", None, '{"draft": null}'),
                sh("c:{url:/x/}", '{url: "/{id}/cascaded/"}', '{url = "/{id}/cascaded/"}', '{"url": "/{id}/cascaded/"}'),
                sh("c:{slug:s}", '{slug: "cs {id}"}', '{slug = "cs {id}"}', '{"slug": "cs {id}"}'),
                sh("c:{outputs:[rss]}", "{outputs: [rss]}", '{outputs = ["rss"]}', '{"outputs": ["rss"]}'),
                sh("c:{tags:[t]}", '{tags: ["ct{id}"]}', '{tags = ["ct{id}"]}', '{"tags": ["ct{id}"]}'),
                sh("c:{_target:{path:/{id}/a*},draft:true}", '{_target: {path: "/{id}/a*"}, draft: true}', '{_target = {path = "/{id}/a*"}, draft = true}', '{"_target": {"path": "/{id}/a*"}, "draft": true}'),
                sh("c:{target:{path:/{id}/a*},draft:true}", '{target: {path: "/{id}/a*"}, draft: true}', '{target = {path = "/{id}/a*"}, draft = true}', '{"target": {"path": "/{id}/a*"}, "draft": true}'),
                sh("c:{_target:{kind:page},draft:true}", '{_target: {kind: page}, draft: true}', '{_target = {kind = "page"}, draft = true}', '{"_target": {"kind": "page"}, "draft": true}'),
                sh("c:{_target:{kind:section},draft:true}", '{_target: {kind: section}, draft: true}', '{_target = {kind = "section"}, draft = true}', '{"_target": {"kind": "section"}, "draft": true}'),
                sh("c:[{draft:true},{headless:true}]", "[{draft: true}, {headless: true}]", "[{draft = true}, {headless = true}]", '[{"draft": true}, {"headless": true}]'),
                sh("c:[{_target:{path:/{id}/a*},draft:true},{sitemap:{priority:0.7}}]",
                   '[{_target: {path: "/{id}/a*"}, draft: true}, {sitemap: {priority: 0.7}}]',
                   '[{_target = {path = "/{id}/a*"}, draft = true}, {sitemap = {priority = 0.7}}]',
                   '[{"_target": {"path": "/{id}/a*"}, "draft": true}, {"sitemap": {"priority": 0.7}}]')],
}
WORDS["_build"] = WORDS["build"]

URL_KEYS = {"slug", "url", "title", "aliases", "tags", "categories", "translationKey"}

def shapes_for(key):
    """The shapes a key is given: the core ones, and the key's own."""
    last = key.split(".")[-1]
    base = ALL if last in DATE_KEYS else STRINGY if last in URL_KEYS else CORE
    extra = WORDS.get(last, [])
    if key.startswith("cascade") and key != "cascade":
        extra = []
    return base + [s for s in extra if s not in base]

# ---------------------------------------------------------------------------------------------
# Rendering front matter. An entry is (key path, source text of the value).
# ---------------------------------------------------------------------------------------------
def render(fmt, entries):
    """Front matter text, and the 1-based line of the last entry's key."""
    tree = {}
    for path, val in entries:
        node = tree
        for k in path[:-1]:
            node = node.setdefault(k, {})
        node[path[-1]] = val
    last = entries[-1][0]
    out, line, key_line = [], None, None
    def mark(path):
        nonlocal line
        if tuple(path) == tuple(last):
            line = len(out)
    def mark_top(path):
        nonlocal key_line
        if key_line is None and tuple(path) == tuple(last[:1]):
            key_line = len(out)
    if fmt == "yaml":
        def emit(node, depth, path):
            for k, v in node.items():
                if isinstance(v, dict):
                    out.append("  " * depth + f"{k}:")
                    mark_top(path + [k])
                    emit(v, depth + 1, path + [k])
                else:
                    out.append("  " * depth + f"{k}:" + (f" {v}" if v != "" else ""))
                    mark_top(path + [k])
                    mark(path + [k])
        out.append("---")
        emit(tree, 0, [])
        out.append("---")
    elif fmt == "toml":
        out.append("+++")
        def emit(node, path):
            for k, v in node.items():
                if not isinstance(v, dict):
                    out.append(f"{k} = {v}")
                    mark_top(path + [k])
                    mark(path + [k])
            for k, v in node.items():
                if isinstance(v, dict):
                    out.append("[" + ".".join(path + [k]) + "]")
                    mark_top(path + [k])
                    emit(v, path + [k])
        emit(tree, [])
        out.append("+++")
    else:
        # JSON: one top-level key a line, nested values as objects on their key's line.
        def inline(v):
            if isinstance(v, dict):
                return "{" + ", ".join(f"{json.dumps(k)}: {inline(x)}" for k, x in v.items()) + "}"
            return v
        out.append("{")
        items = list(tree.items())
        for i, (k, v) in enumerate(items):
            out.append(f"  {json.dumps(k)}: {inline(v)}" + ("," if i + 1 < len(items) else ""))
            if k == last[0]:
                line = key_line = len(out)
        out.append("}")
    return "\n".join(out) + "\nBody.\n", line, key_line

def value(shape_name, fmt, cid):
    v = S[shape_name][["yaml", "toml", "json"].index(fmt)]
    return None if v is None else v.replace("{id}", cid)

# ---------------------------------------------------------------------------------------------
# Groups: a site config and how each key's case is laid out as files.
# ---------------------------------------------------------------------------------------------
BASE_CONFIG = f'baseURL = "{BASE}/"\ntitle = "matrix"\n'
DATE = {"yaml": "2021-05-06", "toml": "2021-05-06", "json": '"2021-05-06"'}

def page_case(key, dated=True, where="page"):
    """A layout: the value at `key` (a dotted path) on one page of the case."""
    path = tuple(key.split("."))
    def files(cid, fmt, val):
        entries = [(("title",), json.dumps(f"T {cid}"))]
        if dated and path[0] not in ("date",):
            entries.append((("date",), DATE[fmt]))
        entries.append((path, val))
        text, line, key_line = render(fmt, entries)
        ext = ".md"
        if where == "page":
            name = f"content/{cid}{ext}"
            return [(name, text)], name, (line, key_line)
        if where == "insection":   # a page in a section of its own (slugs cannot collide)
            name = f"content/{cid}/p{ext}"
            return [(name, text)], name, (line, key_line)
        if where == "bundle":
            name = f"content/{cid}/index{ext}"
            return [(name, text), (f"content/{cid}/r.md", "---\ntitle: r\n---\n")], name, (line, key_line)
        if where == "section":     # the value on a section's _index, with pages below it
            name = f"content/{cid}/_index{ext}"
            child = "---\ntitle: child\ndate: 2021-06-07\n---\n"
            return [(name, text), (f"content/{cid}/a.md", child),
                    (f"content/{cid}/sub/c.md", "---\ntitle: c\nlastmod: 2022-03-04\n---\n")], name, (line, key_line)
        raise ValueError(where)
    return files

DATE_KEYS = ["date", "lastmod", "modified", "updated", "last_modified_at", "publishDate",
             "pubdate", "published", "expiryDate", "unpublishdate"]
GROUPS = []   # (group name, config text, key, layout)
for k in DATE_KEYS:
    GROUPS.append(("dates", BASE_CONFIG, k, page_case(k, dated=False)))
for k in ["draft", "headless", "weight", "aliases", "outputs", "tags", "categories", "series",
          "keywords", "noindex", "priority", "changefreq", "sitemap", "sitemap.disable",
          "sitemap.priority", "sitemap.changefreq", "build", "_build", "build.render",
          "build.list", "_build.render", "_build.list", "lang", "type", "layout",
          "isCJKLanguage", "markup"]:
    GROUPS.append(("keys", BASE_CONFIG, k, page_case(k)))
for k in ["slug", "url"]:
    GROUPS.append(("urls", BASE_CONFIG, k, page_case(k, where="insection")))
GROUPS.append(("urls", BASE_CONFIG + '[permalinks]\n  posts = "/:section/:filename/:title/"\n',
               "title", page_case("title", where="insection")))
for k in ["headless", "build.render", "build.list", "_build.render", "_build.list"]:
    GROUPS.append(("bundles", BASE_CONFIG, k, page_case(k, where="bundle")))
for k in ["cascade", "cascade.draft", "cascade.build.list", "cascade.headless", "cascade.lastmod",
          "cascade.sitemap.priority", "draft", "date", "lastmod", "slug", "url", "headless",
          "build.list", "build.render"]:
    GROUPS.append(("sections", BASE_CONFIG, k, page_case(k, where="section", dated=False)))

ML_CONFIG = BASE_CONFIG + """defaultContentLanguage = "en"
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
"""
def translation_case(cid, fmt, val):
    a, line, key_line = render(fmt, [(("title",), '"a"'), (("translationKey",), val)])
    b, _, _ = render(fmt, [(("title",), '"b"'), (("translationKey",), val)])
    return [(f"content/{cid}.md", a), (f"content/{cid}-other.fr.md", b)], f"content/{cid}.md", (line, key_line)
GROUPS.append(("translations", ML_CONFIG, "translationKey", translation_case))

# ---------------------------------------------------------------------------------------------
# Building and recording.
# ---------------------------------------------------------------------------------------------
def run_hugo(version, files, config):
    """Hugo's sitemap entries for a site, or its error: {"error": first line, "files": [the
    content files its errors name]}."""
    d = tempfile.mkdtemp(prefix="hm-")
    try:
        with open(os.path.join(d, "hugo.toml"), "w") as f:
            f.write(config)
        for path, text in files:
            p = os.path.join(d, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        env = dict(os.environ, TZ="UTC", HUGO_ENVIRONMENT="production")
        # 0.111 prints its (first) error under --quiet; newer Hugos print every error logged
        # at --logLevel error, and nothing under --quiet.
        quiet = ["--quiet"] if version.startswith("0.111") else ["--logLevel", "error"]
        h = subprocess.run([HUGOS[version], *quiet, "-s", d, "-d", os.path.join(d, "public")],
                           capture_output=True, text=True, env=env)
        if h.returncode != 0:
            out = (h.stderr + h.stdout).replace(d + "/", "").replace(d, "")
            lines = [l for l in out.splitlines() if l.startswith(("ERROR", "Error"))]
            named = sorted(set(re.findall(r"(content/[^\s\"':]+\.md)", out)))
            msg = lines[0] if lines else out.strip().splitlines()[-1] if out.strip() else "failed"
            return {"error": msg[:400], "files": named}
        urls = []
        for root, _, names in os.walk(os.path.join(d, "public")):
            for n in names:
                if n == "sitemap.xml":
                    urls += read_sitemap(os.path.join(root, n))
        urls.sort()
        return {"urls": urls}
    finally:
        shutil.rmtree(d, ignore_errors=True)

def read_sitemap(path):
    x = open(path, encoding="utf-8").read()
    out = []
    for block in x.split("<url>")[1:]:
        loc = html.unescape(re.search(r"<loc>(.*?)</loc>", block).group(1))
        if loc.startswith(BASE):
            loc = loc[len(BASE):]
        lm = re.search(r"<lastmod>(.*?)</lastmod>", block)
        alts = sorted([html.unescape(a), html.unescape(b).replace(BASE, "")] for a, b in
                      re.findall(r'hreflang="([^"]*)"\s+href="([^"]*)"', block))
        out.append([loc, lm.group(1) if lm else "", alts])
    return out

def both(files, config):
    return {v: run_hugo(v, files, config) for v in HUGOS}

def files_of(cases):
    return [f for c in cases for f in c["files"]]

def failing(version, cases, config):
    """The cases that fail `version`'s build: those its errors name, then by halves."""
    bad = []
    while cases:
        r = run_hugo(version, files_of(cases), config)
        if "urls" in r:
            return bad
        named = [c for c in cases if c["main"] in r["files"]]
        if not named:
            break
        bad += named
        cases = [c for c in cases if c not in named]
    if len(cases) == 1:
        return bad + cases
    half = len(cases) // 2
    return bad + failing(version, cases[:half], config) + failing(version, cases[half:], config)

def cases_of(group):
    name, config, key, layout = group
    gi = GROUPS.index(group)
    for fmt in ["yaml", "toml", "json"]:
        made = []
        for n, s in enumerate(shapes_for(key)):
            cid = f"{fmt[0]}{gi:02d}x{n:03d}"
            val = value(s, fmt, cid)
            if val is None or (fmt == "json" and val == ""):
                continue
            files, main, (line, key_line) = layout(cid, fmt, val)
            made.append({"id": cid, "files": files, "main": main, "line": line, "key_line": key_line,
                         "label": f"{fmt} {key} = {s}"})
        yield name, config, key, fmt, made

def build_group(args):
    """One site for the group: per Hugo, the cases whose file fails its build (each with the
    line of its value and Hugo's first message about it) and the sitemap of the rest."""
    name, config, key, fmt, cases = args
    rec = {"name": f"{key} {fmt}", "config": config,
           "cases": [{"label": c["label"], "file": c["main"], "line": c["line"],
                      "key_line": c["key_line"], "files": c["files"]} for c in cases], "hugo": {}}
    first = None
    for v in HUGOS:
        bad = failing(v, cases, config)
        good = [c for c in cases if c not in bad]
        r = run_hugo(v, files_of(good), config)
        if "urls" not in r:
            raise SystemExit(f"{key} {fmt}: Hugo {v} fails without its failing cases: {r}")
        if bad:
            r["fail"] = sorted(c["main"] for c in bad)
        rec["hugo"][v] = "same" if first is not None and r == first else r
        first = r if first is None else first
    return [rec]

def main():
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    work = []
    for g in GROUPS:
        work += list(cases_of(g))
    by_group = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as ex:
        for (name, _, key, fmt, _), sites in zip(work, ex.map(build_group, work)):
            by_group.setdefault(name, []).extend(sites)
            print(f"{name:12} {key:20} {fmt}: {len(sites)} site(s)", file=sys.stderr)
    for name, sites in by_group.items():
        text = json.dumps({"now": now, "sites": sites}, ensure_ascii=False, separators=(",", ":"))
        # gzip without a timestamp: the same matrix gives the same bytes.
        with open(os.path.join(HERE, f"{name}.json.gz"), "wb") as f:
            f.write(gzip.compress((text + "\n").encode(), compresslevel=9, mtime=0))

if __name__ == "__main__":
    main()
