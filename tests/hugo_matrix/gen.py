#!/usr/bin/env python3
"""The Hugo value matrix: every front matter key sitemapgen reads, given every value shape, in
YAML, TOML and JSON, built by real Hugos; their sitemaps recorded as fixtures that
`tests/it/hugo_matrix.rs` replays through sitemapgen without Hugo.

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
ZOLA = os.environ.get("ZOLA", "/work/tools/zola-src/target/release/zola")
ZOLA_VERSION = "0.22.1"
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
# Site config keys: each value its own site, over one fixed content tree. The case's file is
# the config itself ("hugo.toml" / "config.toml"), its line the value's.
# ---------------------------------------------------------------------------------------------
def fm(**kv):
    lines = ["---"] + [f"{k}: {v}" for k, v in kv.items()] + ["---", "Body.", ""]
    return "\n".join(lines)

HUGO_TREE = [
    ("content/_index.md", fm(title='"Home"')),
    ("content/posts/_index.md", fm(title='"Posts"', date="2021-01-01")),
    ("content/posts/Hello World.md", fm(title='"Hello World"', date="2021-02-03", tags='["A b", "Rust"]', categories="[X]")),
    ("content/posts/2023-05-06-dated.md", fm(title='"Dated"')),
    ("content/posts/b/index.md", fm(title='"Bundle"', lastmod="2022-03-04T05:06:07")),
    ("content/Über Uns.md", fm(title='"Über"', date='"2021-04-05 08:09:10"')),
    ("content/future.md", fm(title='"Future"', date="2099-01-01")),
    ("content/draft.md", fm(title='"Draft"', draft="true")),
    ("content/expired.md", fm(title='"Expired"', date="2019-01-01", expiryDate="2020-01-01")),
    ("content/about.md", fm(title='"About"', publishDate="2021-06-07")),
    ("content/about.fr.md", fm(title='"À propos"', date="2021-06-08")),
    ("content/docs/Guide Page.md", fm(title='"Guide"', lastmod="2020-05-05")),
]
LANGS = """
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
"""
# (label, config lines after baseURL). A value is given as TOML text.
HUGO_CONFIG = []
def hc(label, text):
    HUGO_CONFIG.append((label, text))
for v in ["true", "false", '"true"', "1", "0", '"yes"', '""', "{posts = true}", '{posts = "true"}', "[]"]:
    hc(f"uglyURLs = {v}", f"uglyURLs = {v}")
for k in ["disablePathToLower", "removePathAccents", "buildDrafts", "buildFuture", "buildExpired",
          "defaultContentLanguageInSubdir"]:
    for v in ["true", '"true"', "1", '"yes"']:
        hc(f"{k} = {v}", f"{k} = {v}" + (LANGS if k == "defaultContentLanguageInSubdir" else ""))
for v in ['"Europe/Paris"', '"America/New_York"', '"UTC"', '""', '"Bad/Zone"', '"+02:00"', "5"]:
    hc(f"timeZone = {v}", f"timeZone = {v}")
for v in ['"fr"', '"FR"', '""', '"xx"']:
    hc(f"defaultContentLanguage = {v}", f"defaultContentLanguage = {v}" + LANGS)
for v in ['["taxonomy"]', '["Taxonomy"]', '"taxonomy"', '["term"]', '["section"]', '["home"]',
          '["page"]', '["RSS"]', "[]", '["bogus"]', '["taxonomyTerm"]']:
    hc(f"disableKinds = {v}", f"disableKinds = {v}")
for k, v in [("date", '[":filename", ":default"]'), ("date", '":filename"'), ("date", '["lastmod"]'),
             ("date", "[]"), ("lastmod", '["date"]'), ("lastmod", '["publishDate", ":default"]'),
             ("lastmod", '"lastmod"'), ("lastmod", '["updated"]'), ("publishDate", '["date"]'),
             ("publishDate", '["lastmod"]'), ("expiryDate", '["date"]'), ("expiryDate", '["lastmod"]')]:
    hc(f"frontmatter.{k} = {v}", f"[frontmatter]\n  {k} = {v}")
for v in ['"/:year/:month/:slug/"', '"/:contentbasename/"', '"/:sectionslug/:slug/"', '"/:bogus/"',
          '":title"', '"/:section/:filename/"', '"/:slugorfilename/"', '"/:monthname/:weekdayname/:yearday/"']:
    hc(f"permalinks.posts = {v}", f"[permalinks]\n  posts = {v}")
hc('permalinks.page.posts = "/p/:slug/"', '[permalinks.page]\n  posts = "/p/:slug/"')
hc('permalinks.tags = "/t/:slug/"', '[permalinks]\n  tags = "/t/:slug/"')
for v in ['{tag = "tags"}', "{}", '{category = "categories", series = "series"}', '{tag = "Tags"}']:
    hc(f"taxonomies = {v}", f"taxonomies = {v}")
for v in ['{home = ["RSS"]}', '{page = ["json"]}', '{section = ["html", "rss"]}', '{taxonomy = ["rss"]}']:
    hc(f"outputs = {v}", f"outputs = {v}")
hc("languages.fr.disabled = true", LANGS + "  disabled = true")
hc('disableLanguages = ["fr"]', 'disableLanguages = ["fr"]' + LANGS)
hc('languages.fr.languageCode = "fr-CA"', LANGS + '  languageCode = "fr-CA"')
hc('languages.fr.locale = "fr-BE"', LANGS + '  locale = "fr-BE"')
hc('languages.fr.weight = "x"', LANGS.replace("weight = 2", 'weight = "x"'))
hc("languages: one", '[languages.en]\n  weight = 1')
for v in ['{changefreq = "daily", priority = 0.4}', '{changefreq = "fortnightly"}', "{priority = 1.5}",
          '{priority = "x"}']:
    hc(f"sitemap = {v}", f"sitemap = {v}")

def hugo_config_cases():
    for label, text in HUGO_CONFIG:
        config = BASE_CONFIG + text + "\n"
        # The lines the value may be named at: from the first past baseURL and title to the
        # last.
        yield ("config", label, config, {"id": "config", "files": HUGO_TREE, "main": "hugo.toml",
                                         "line": config.count("\n"), "key_line": 3,
                                         "label": f"config {label}"})

# File names and paths Hugo 0.123+ normalizes before matching translations, and the dates a
# section takes from everything below it.
def names_cases():
    config = BASE_CONFIG + LANGS
    def case(cid, label, files):
        return {"id": cid, "files": files, "main": files[0][0], "line": 1, "key_line": 1,
                "label": f"names {label}"}
    made = [
        case("n001", "space vs hyphen", [("content/n001 cloud native.md", fm(title='"a"')),
                                         ("content/n001-cloud-native.fr.md", fm(title='"b"'))]),
        case("n002", "case", [("content/N002Mixed.md", fm(title='"a"')),
                              ("content/n002mixed.fr.md", fm(title='"b"'))]),
        case("n003", "bundle vs page", [("content/n003 b/index.md", fm(title='"a"')),
                                        ("content/n003-b.fr.md", fm(title='"b"'))]),
        case("n004", "section", [("content/n004 s/_index.md", fm(title='"a"')),
                                 ("content/n004 s/x.md", fm(title='"x"')),
                                 ("content/n004-s/_index.fr.md", fm(title='"b"')),
                                 ("content/n004-s/y.fr.md", fm(title='"y"'))]),
        case("n005", "rollup", [("content/n005/_index.md", fm(title='"s"')),
                                ("content/n005/a.md", fm(title='"a"', date="2021-01-01")),
                                ("content/n005/sub/_index.md", fm(title='"sub"', date="2020-01-01")),
                                ("content/n005/sub/b.md", fm(title='"b"', date="2023-01-01")),
                                ("content/n005/sub/deep/_index.md", fm(title='"deep"', lastmod="2024-01-01")),
                                ("content/n005/sub/deep/c.md", fm(title='"c"', date="2022-01-01"))]),
    ]
    yield ("names", "names", config, made)

# Zola: front matter keys in TOML and YAML (Zola reads both), and config keys.
ZOLA_BASE = 'base_url = "https://example.org"\ntaxonomies = [{name = "tags"}, {name = "categories"}]\n'
ZOLA_KEYS = ["date", "updated", "draft", "slug", "path", "aliases", "weight", "title",
             "taxonomies.tags", "extra.sitemap", "extra.priority", "extra.changefreq"]
ZOLA_SECTION_KEYS = ["render", "transparent", "paginate_by", "sort_by", "redirect_to",
                     "in_search_index", "generate_feeds"]
ZOLA_SHAPES = ["emptystr", "blank", "true", "false", "'true'", "0", "1", "-1", "1.5", "'1'",
               "unix", "word", "spaces", "lead", "punct", "accent", "path", "date", "datetime-z",
               "datetime-off", "datetime-local", "time-local", "s:2023-01-02",
               "s:2023-01-02T03:04:05Z", "s:2023-01-02 03:04:05", "s:2023-01-02T03:04",
               "s:02 Jan 2023", "s:2023/01/02", "s:2023-1-2", "future", "list0", "list1",
               "list2", "map0", "map1", "w:never", "w:date", "tilde", "null"]
sh("w:date", "date", '"date"', '"date"')
ZOLA_CONFIG = []
for v in ['"blog"', '"/blog/"', '""', '"Blog Root"']:
    ZOLA_CONFIG.append((f"taxonomy_root = {v}", f"taxonomy_root = {v}"))
for k in ["paths", "taxonomies"]:
    for v in ['"on"', '"safe"', '"off"', '"bogus"']:
        ZOLA_CONFIG.append((f"slugify.{k} = {v}", f"[slugify]\n{k} = {v}"))
ZOLA_CONFIG.append(('default_language = "fr" + languages', 'default_language = "fr"\n[languages.en]\n'))
ZOLA_CONFIG.append(('languages.fr', '[languages.fr]\n'))
ZOLA_CONFIG.append(('ignored_content = ["*.fr.md"]', 'ignored_content = ["*.fr.md"]'))
ZOLA_CONFIG.append(('taxonomies paginate', 'taxonomies = [{name = "tags", paginate_by = 1}]'))
ZOLA_CONFIG.append(('taxonomies render = false', 'taxonomies = [{name = "tags", render = false}]'))
ZOLA_CONFIG.append(('base_url with path', 'base_url = "https://example.org/sub/"'))

def zfm(kv):
    lines = ["+++"] + [f"{k} = {v}" for k, v in kv.items()] + ["+++", "Body.", ""]
    return "\n".join(lines)

ZOLA_TREE = [
    ("content/_index.md", zfm({"title": '"Home"'})),
    ("content/blog/_index.md", zfm({"title": '"Blog"', "sort_by": '"date"', "paginate_by": "2"})),
    ("content/blog/Hello World.md", zfm({"title": '"Hello"', "date": "2021-02-03", "taxonomies": '{tags = ["A b", "Rust"]}'})),
    ("content/blog/2023-05-06-dated.md", zfm({"title": '"Dated"'})),
    ("content/blog/b/index.md", zfm({"title": '"Bundle"', "date": "2022-03-04", "updated": "2022-04-05"})),
    ("content/blog/c.md", zfm({"title": '"C"', "date": "2021-01-01", "taxonomies": '{tags = ["Rust"]}'})),
    ("content/Über Uns.md", zfm({"title": '"Über"'})),
    ("content/draft.md", zfm({"title": '"Draft"', "draft": "true"})),
    ("content/about.fr.md", zfm({"title": '"À propos"'})),
    ("content/about.md", zfm({"title": '"About"'})),
]

def zola_cases():
    """Zola's front matter keys, batched per (key, format); then one site per config value."""
    gi = 900
    for key in ZOLA_KEYS + ZOLA_SECTION_KEYS:
        gi += 1
        path = tuple(key.split("."))
        section = key in ZOLA_SECTION_KEYS
        for fmt in ["toml", "yaml"]:
            made = []
            for n, shp in enumerate(ZOLA_SHAPES):
                cid = f"z{fmt[0]}{gi}x{n:03d}"
                val = value(shp, fmt, cid)
                if val is None or (fmt == "yaml" and val == ""):
                    continue
                entries = [] if key == "title" else [(("title",), json.dumps(f"T {cid}"))]
                if not key.startswith("date") and not section:
                    entries.append((("date",), DATE[fmt]))
                entries.append((path, val))
                text, line, key_line = render(fmt, entries)
                if section:
                    main = f"content/{cid}/_index.md"
                    files = [(main, text), (f"content/{cid}/a.md", zfm({"title": '"a"', "date": "2021-06-07"})),
                             (f"content/{cid}/b.md", zfm({"title": '"b"', "date": "2022-01-01"})),
                             (f"content/{cid}/c.md", zfm({"title": '"c"', "date": "2020-01-01"}))]
                else:
                    main = f"content/s{gi}/{cid}.md"
                    files = [(main, text)]
                made.append({"id": cid, "files": files, "main": main, "line": line,
                             "key_line": key_line, "label": f"{fmt} {key} = {shp}"})
            section_file = (f"content/s{gi}/_index.md", zfm({"title": '"S"'}))
            if key in ("slug", "path"):
                # A URL value of one shape may be another's (`true`, `"true"`): Zola stops at
                # two pages with one path, so each case is a site of its own.
                for c in made:
                    c["files"] = c["files"] + [section_file]
                    yield ("zola-urls", c["label"], ZOLA_BASE, c)
                continue
            if key not in ZOLA_SECTION_KEYS:
                made.append({"id": f"s{gi}", "files": [section_file],
                             "main": f"content/s{gi}/_index.md", "line": 1, "key_line": 1,
                             "label": f"{fmt} {key} section"})
            yield ("zola", ZOLA_BASE, key, fmt, made)
    for label, text in ZOLA_CONFIG:
        if text.startswith("base_url"):
            config = text + '\ntaxonomies = [{name = "tags"}, {name = "categories"}]\n'
        elif text.startswith("taxonomies"):
            config = 'base_url = "https://example.org"\n' + text + "\n"
        else:
            config = ZOLA_BASE + text + "\n"
        yield ("zola-config", label, config, {"id": "config", "files": ZOLA_TREE, "main": "config.toml",
                                              "line": config.count("\n"), "key_line": 1,
                                              "label": f"config {label}"})

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
        return {"urls": public_urls(os.path.join(d, "public"))}
    finally:
        shutil.rmtree(d, ignore_errors=True)

def public_urls(public):
    """Every sitemap.xml entry below an output folder (a language's own included), sorted."""
    urls = []
    for root, _, names in os.walk(public):
        for n in names:
            if n == "sitemap.xml":
                urls += read_sitemap(os.path.join(root, n))
    return sorted(urls)

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

def run_zola(files, config):
    """Zola's sitemap entries for a site, or its error (the files it names)."""
    d = tempfile.mkdtemp(prefix="zm-")
    try:
        with open(os.path.join(d, "config.toml"), "w") as f:
            f.write(config)
        # Zola has built-in page and section templates, none for taxonomies.
        os.makedirs(os.path.join(d, "templates"))
        for t in ["taxonomy_list.html", "taxonomy_single.html"]:
            open(os.path.join(d, "templates", t), "w").close()
        for path, text in files:
            p = os.path.join(d, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        z = subprocess.run([ZOLA, "--root", d, "build", "--output-dir", os.path.join(d, "public")],
                           capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
        if z.returncode != 0:
            out = (z.stderr + z.stdout).replace(d + "/", "").replace(d, "")
            named = sorted(set(re.findall(r"(content/[^\s\"':`]+\.md)", out)))
            lines = [l for l in out.splitlines() if "Error" in l or "ERROR" in l]
            return {"error": (lines[-1] if lines else out.strip()[-300:])[:400], "files": named}
        return {"urls": public_urls(os.path.join(d, "public"))}
    finally:
        shutil.rmtree(d, ignore_errors=True)

def both(files, config):
    return {v: run_hugo(v, files, config) for v in HUGOS}

def files_of(cases):
    return [f for c in cases for f in c["files"]]

def runner(version):
    """How to build a site with `version`: a Hugo release, or Zola."""
    if version == ZOLA_VERSION:
        return lambda files, config: run_zola(files, config)
    return lambda files, config: run_hugo(version, files, config)

def failing(version, cases, config):
    """The cases that fail `version`'s build: those its errors name, then by halves."""
    bad = []
    while cases:
        r = runner(version)(files_of(cases), config)
        if "urls" in r:
            return bad
        named = [c for c in cases if c["main"] in r["files"]]
        if not named:
            break
        bad += named
        cases = [c for c in cases if c not in named]
    if len(cases) <= 1:
        return bad + cases
    half = len(cases) // 2
    return bad + failing(version, cases[:half], config) + failing(version, cases[half:], config)

def record(name, config, cases, versions, generator="hugo"):
    """One site: per version, the cases whose file fails its build and the sitemap of the
    rest (the same as the version before: "same")."""
    rec = {"name": name, "config": config, "generator": generator,
           "cases": [{"label": c["label"], "file": c["main"], "line": c["line"],
                      "key_line": c["key_line"], "files": c["files"]} for c in cases],
           "runs": {}}
    first = None
    for v in versions:
        bad = failing(v, cases, config)
        good = [c for c in cases if c not in bad]
        # A config the release refuses refuses every file: nothing is left to build.
        r = runner(v)(files_of(good), config) if good else {"urls": []}
        if "urls" not in r:
            raise SystemExit(f"{name}: {v} fails without its failing cases: {r}")
        if bad:
            r["fail"] = sorted(c["main"] for c in bad)
        rec["runs"][v] = "same" if first is not None and r == first else r
        first = r if first is None else first
    return rec

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
    if name == "zola":
        return [record(f"{key} {fmt}", config, cases, [ZOLA_VERSION], "zola")]
    return [record(f"{key} {fmt}", config, cases, list(HUGOS))]

def build_single(args):
    """One site per case (a config value): its own config, built by every version."""
    group, label, config, case = args
    if group in ("zola-config", "zola-urls"):
        return [record(label, config, [case], [ZOLA_VERSION], "zola")]
    return [record(label, config, [case], list(HUGOS))]

def main():
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    only = set(filter(None, os.environ.get("ONLY", "").split(",")))
    work = []
    for g in GROUPS:
        work += list(cases_of(g))
    for name, _, _, made in names_cases():
        work.append((name, BASE_CONFIG + LANGS, "names", "yaml", made))
    zola = list(zola_cases())
    work += [z for z in zola if len(z) == 5]
    singles = list(hugo_config_cases()) + [z for z in zola if len(z) == 4]
    work = [w for w in work if not only or w[0] in only]
    singles = [w for w in singles if not only or w[0] in only]
    by_group = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as ex:
        for (name, _, key, fmt, _), sites in zip(work, ex.map(build_group, work)):
            by_group.setdefault(name, []).extend(sites)
            print(f"{name:12} {key:20} {fmt}: {len(sites)} site(s)", file=sys.stderr)
        for (name, label, _, _), sites in zip(singles, ex.map(build_single, singles)):
            by_group.setdefault(name, []).extend(sites)
            print(f"{name:12} {label}", file=sys.stderr)
    for name, sites in by_group.items():
        text = json.dumps({"now": now, "sites": sites}, ensure_ascii=False, separators=(",", ":"))
        # gzip without a timestamp: the same matrix gives the same bytes.
        with open(os.path.join(HERE, f"{name}.json.gz"), "wb") as f:
            f.write(gzip.compress((text + "\n").encode(), compresslevel=9, mtime=0))

if __name__ == "__main__":
    main()
