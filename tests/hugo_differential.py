#!/usr/bin/env python3
"""Differential check against a real Hugo: random small Hugo sites, each built by `hugo` and by
sitemapgen, and their sitemaps compared.

    cargo build --release
    python3 tests/hugo_differential.py 0 200      # seeds 0..199; needs `hugo` on PATH

The sites mix sections with and without `_index.md`, leaf and headless bundles, drafts, past
and future dates, expiry dates, `slug`, `url`, `lastmod`, tags and categories, cascades,
`_build`, `aliases`, `sitemap` priority and changefreq (per page and per site), `uglyURLs`,
`disablePathToLower`, `removePathAccents`, `disableKinds`, custom `[taxonomies]`, page and
term `[permalinks]`, and two or three languages (file suffixes or a
`contentDir` each, `defaultContentLanguageInSubdir`, a default other than the first,
`languageCode`, a turned-off language, `translationKey`), over names with
spaces, accents and capitals (NAMES=punctuation: `+ . & ' # @ , ; = ~ ( ) [ ]` and CJK too).
It compares the URL sets (XML-unescaped, percent-decoded; Hugo's
per-language sitemaps together) and, for regular pages, lastmod (as an instant), changefreq
and priority. List pages' lastmod is left out: it follows our own roll-up rule (the newest
date below), which Hugo's does not (its home ignores top-level pages). So is a future lastmod,
which we write as today. FIELDS=0 compares URLs only.

Sites that differ are kept in WORK (default a temporary folder) and printed; the exit status is
1 when any differs. Not run by CI (it needs Hugo). sitemapgen follows the rules of the `hugo`
on PATH (it asks `hugo version`), so any Hugo can be checked; written against Hugo 0.111.3,
where 300 seeds gave no difference (Hugo 0.168.0: one in 60, see the README's "Hugo versions").
Deliberate differences are never generated: `_build.render = "link"`, `%XX` in names, and two
files claiming one URL (listed once here, with a warning; Hugo lists the URL twice); nor is
`sitemap.disable` (followed as each version reads it, tests/it/hugo_versions.rs).
"""
import os, random, subprocess, shutil, sys, re, urllib.parse, html, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
SG = os.environ.get("SITEMAPGEN", os.path.join(HERE, "..", "target", "release", "sitemapgen"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="hugo-diff-")
def hugo_version():
    """The (major, minor, patch) of the `hugo` on PATH, which sitemapgen also follows."""
    out=subprocess.run(["hugo","version"],capture_output=True,text=True).stdout
    m=re.search(r"v(\d+)\.(\d+)\.(\d+)",out)
    return tuple(int(x) for x in m.groups()) if m else (0,0,0)
# Hugo reads `build` from 0.123 and refuses `_build` from 0.160: write the key it reads.
BUILD = "build" if hugo_version() >= (0,123,0) else "_build"
WORDS=["alpha","Beta","gamma","délta","eps ilon","zeta","Eta_x","theta","iota","kappa-k","lambda","Mu"]
# NAMES=punctuation: names, titles and terms full of the characters paths and URLs treat apart.
if os.environ.get("NAMES") == "punctuation":
    WORDS=["C++","node.js","R&D","über","日本語","a b","Tom's","x_y","Hello World","MiXeD","dash-ed",
           "dot.ted","plus+","hash#tag","at@x","comma,x","semi;x","eq=x","tilde~x","(paren)","[brack]"]
def fields(path):
    """loc -> (lastmod as a UTC instant, changefreq, priority) for every <url>."""
    import datetime
    out={}
    if not os.path.exists(path): return out
    x=open(path,encoding="utf-8").read()
    for block in x.split("<url>")[1:]:
        def get(tag):
            m=re.search(f"<{tag}>(.*?)</{tag}>",block)
            return m.group(1) if m else None
        loc=urllib.parse.unquote(html.unescape(get("loc")))
        lm=get("lastmod")
        if lm:
            if len(lm)==10: lm+="T00:00:00+00:00"
            lm=datetime.datetime.fromisoformat(lm.replace("Z","+00:00")).astimezone(datetime.timezone.utc).isoformat()
        pr=get("priority")
        out[loc]=(lm,get("changefreq"),float(pr) if pr else None)
    return out
def locs(path):
    if not os.path.exists(path): return None
    x=open(path,encoding="utf-8").read()
    out=set()
    for m in re.finditer(r"<loc>(.*?)</loc>",x):
        u=html.unescape(m.group(1))
        out.add(urllib.parse.unquote(u))
    return out
def fm(d, style):
    # YAML front matter
    lines=["---"]
    for k,v in d.items():
        if isinstance(v,bool): lines.append(f"{k}: {'true' if v else 'false'}")
        elif isinstance(v,list):
            q='"'
            items=', '.join(q+x+q for x in v)
            lines.append(f"{k}: [{items}]")
        elif isinstance(v,dict):
            lines.append(f"{k}:")
            for kk,vv in v.items():
                if isinstance(vv,dict):
                    lines.append(f"  {kk}:")
                    for k3,v3 in vv.items(): lines.append(f"    {k3}: {v3}")
                else: lines.append(f"  {kk}: {vv}")
        else: lines.append(f"{k}: {v}")
    lines.append("---")
    return "\n".join(lines)+"\nbody\n"
def gen(seed, d):
    r=random.Random(seed)
    cfg=['baseURL = "https://example.org/"', 'title = "x"']
    multi = r.random()<0.6
    if multi:
        cfg.append('defaultContentLanguage = "' + r.choice(["en","en","fr"]) + '"')
        if r.random()<0.4: cfg.append('defaultContentLanguageInSubdir = true')
    if r.random()<0.3: cfg.append("uglyURLs = true")
    if r.random()<0.2: cfg.append("disablePathToLower = true")
    if r.random()<0.2: cfg.append("removePathAccents = true")
    if r.random()<0.3:
        kinds=[k for k in ["section","taxonomy","term","home","RSS"] if r.random()<0.35]
        cfg.append("disableKinds = [" + ", ".join('"'+k+'"' for k in kinds) + "]")
        if "taxonomy" in kinds: cfg.append('ignoreErrors = ["error-disable-taxonomy"]')
    tax_variant = r.random()
    site_sitemap = r.random()<0.3
    if r.random()<0.3:
        pats=r.choice([':year/:month/:slug/', '/:section/:title/', '/x/:filename/', '/:year/:slug', '/posts/:title'])
        cfg.append(f'[permalinks]\n  posts = "{pats}"')
    langs=["en"]
    if multi:
        langs=["en","fr"]+(["de"] if r.random()<0.5 else [])
        sep_dirs = r.random()<0.3
        for k,l in enumerate(langs):
            extra = ""
            if l == "de" and r.random() < 0.5: extra += "\n  disabled = true"
            if r.random() < 0.2: extra += f'\n  languageCode = "{l}-XX"'
            cfg.append(f"[languages.{l}]\n  weight = {k+1}" + (f'\n  contentDir = "content_{l}"' if sep_dirs else "") + extra)
    else:
        sep_dirs=False
    if tax_variant < 0.15:
        cfg.append('[taxonomies]\n  tag = "tags"\n  series = "series"')
    elif tax_variant < 0.25:
        cfg.append('[taxonomies]\n  category = "categories"')
    if r.random() < 0.2 and not any(c.startswith("[permalinks]") for c in cfg):
        cfg.append('[permalinks]\n  tags = "/topic/:slug/"\n  series = "/s/:title"')
    if site_sitemap:
        cfg.append('[sitemap]\n  changefreq = "monthly"\n  priority = 0.5')
    open(os.path.join(d,"hugo.toml"),"w").write("\n".join(cfg)+"\n")
    secs=["posts","docs","notes","Misc"]
    n=r.randint(3,14)
    made=set()
    for i in range(n):
        sec=r.choice(secs+[""])
        sub=r.choice(["","","sub","Deep/er"])
        name=r.choice(WORDS)+str(r.randint(0,3))
        kind=r.random()
        parts=[p for p in [sec,sub] if p]
        if kind<0.2:
            rel=os.path.join(*(parts+[name,"index.md"]))
        elif kind<0.3 and parts:
            rel=os.path.join(*(parts+["_index.md"]))
        else:
            rel=os.path.join(*(parts+[name+".md"]))
        if rel in made: continue
        made.add(rel)
        f={"title": '"'+r.choice(WORDS)+' '+str(i)+'"'}
        x=r.random()
        if x<0.5: f["date"]=r.choice(["2021-03-04","2022-11-30T10:00:00Z","2030-01-01","2019-07-07T23:30:00+05:00"])
        if r.random()<0.1: f["draft"]=True
        if r.random()<0.1: f["expiryDate"]=r.choice(["2020-01-01","2035-01-01"])
        if r.random()<0.1: f["publishDate"]=r.choice(["2020-01-01","2035-01-01"])
        if r.random()<0.15: f["slug"]='"'+r.choice(WORDS)+'"'
        if r.random()<0.07: f["url"]='"'+r.choice(["/custom/"+name+"/","custom-"+name,f"/a/b{i}.html"])+'"'
        if r.random()<0.3: f["tags"]=[r.choice(WORDS) for _ in range(r.randint(1,2))]
        if r.random()<0.1: f["categories"]=[r.choice(WORDS)]
        if r.random()<0.15: f["series"]=[r.choice(WORDS)]
        if r.random()<0.05: f["aliases"]=["/old/"+str(i)+"/"]
        if rel.endswith("index.md") and not rel.endswith("_index.md") and r.random()<0.15: f["headless"]=True
        if rel.endswith("_index.md") and r.random()<0.3:
            f["cascade"]={BUILD:{"list":"never"}} if r.random()<0.5 else {"draft":"true"}
        if r.random()<0.08: f[BUILD]={"render":"never"} if r.random()<0.5 else {"list":"never"}
        if r.random()<0.15:
            sm={}
            if r.random()<0.7: sm["changefreq"]=r.choice(["weekly","daily","yearly"])
            if r.random()<0.7: sm["priority"]=r.choice(["0.3","0.8","1.0","-1"])
            if sm: f["sitemap"]=sm
        if r.random()<0.05: f["lastmod"]=r.choice(["2023-08-09","2024-01-02T03:04:05+01:00"])
        root="content"
        if multi:
            l=r.choice(langs)
            if sep_dirs:
                root="content_"+l
            elif l!="en" or r.random()<0.2:
                base,ext=os.path.splitext(rel)
                rel=base+"."+l+ext
            if r.random()<0.1: f["translationKey"]='"k'+str(r.randint(0,2))+'"'
        p=os.path.join(d,root,rel)
        os.makedirs(os.path.dirname(p),exist_ok=True)
        open(p,"w").write(fm(f,"yaml"))
def run(seed):
    d=os.path.join(WORK, f"s{seed}")
    shutil.rmtree(d,ignore_errors=True); os.makedirs(d)
    gen(seed,d)
    h=subprocess.run(["hugo","--quiet","-s",d,"-d",d+"/public"],capture_output=True,text=True)
    if h.returncode!=0: return ("hugo-fail",h.stderr[:300])
    s=subprocess.run([SG,"--site",d,"--output",d+"/out","--quiet"],capture_output=True,text=True)
    if s.returncode!=0: return ("sg-fail",s.stderr[:500])
    a=set()
    for root,_,files in os.walk(d+"/public"):
        for f in files:
            if f=="sitemap.xml":
                got=locs(os.path.join(root,f))
                a|={u for u in got if not u.endswith("/sitemap.xml")}
    b=locs(d+"/out/sitemap.xml")
    if a!=b: return ("diff", sorted(a-b), sorted(b-a))
    if os.environ.get("FIELDS", "1") != "0":
        fa={}
        for root,_,files in os.walk(d+"/public"):
            for f in files:
                if f=="sitemap.xml": fa.update(fields(os.path.join(root,f)))
        fb=fields(d+"/out/sitemap.xml")
        # Only regular pages: list pages' lastmod follows our own roll-up rule (the newest
        # date below), which Hugo does not (its home ignores top-level pages).
        lst=subprocess.run([SG,"list","--site",d],capture_output=True,text=True).stdout
        pages=set()
        for line in lst.splitlines():
            cols=line.split("\t")
            if len(cols)>=6 and cols[5] not in ("-","") and "/_index" not in cols[5]:
                pages.add(urllib.parse.unquote(cols[0]))
        import datetime
        today=datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        def same(h, o):
            # A future lastmod is written as today here (never a future date), as-is by Hugo.
            if h[0] and o[0] and h[0][:10] > today and o[0][:10] == today:
                return h[1:] == o[1:]
            return h == o
        bad=[(k,fa[k],fb[k]) for k in sorted(fb) if k in fa and k in pages and not same(fa[k],fb[k])]
        if bad: return ("fields", bad[:6])
    shutil.rmtree(d)
    return None
if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bad = 0
    for seed in range(int(sys.argv[1]), int(sys.argv[2])):
        res = run(seed)
        if res:
            bad += 1
            print(seed, res)
    print(f"{bad} of {int(sys.argv[2]) - int(sys.argv[1])} sites differ (kept in {WORK})")
    sys.exit(1 if bad else 0)
