//! The Hugo value matrix: every front matter key sitemapgen reads, in every value shape, in
//! YAML, TOML and JSON, as Hugo 0.111.3 and 0.168.0 built it (`tests/hugo_matrix/gen.py`
//! made the sites and recorded Hugo's sitemaps in `tests/hugo_matrix/*.json.gz`; Hugo is not
//! needed here). Each site is replayed through the pipeline under each version's rules:
//!
//! - where Hugo built the site, we list the same URLs, with the same lastmod (as an instant;
//!   a date we write date-only must be Hugo's date in its own zone) and the same
//!   `hreflang` alternates, save the differences [`DELIBERATE`] names, each of which must
//!   come with a warning naming the file and line;
//! - where a case's file failed Hugo's build, the case alone makes us stop with an error
//!   naming that file and the line of its value.

use serde_json::Value;
use sitemapgen::settings::Overrides;
use sitemapgen::vocab::date::{SiteTz, W3cDate};
use sitemapgen::{Error, RunOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common;

/// The Hugo releases the matrix was built with, and the Zola one.
const HUGO_VERSIONS: [&str; 2] = ["0.111.3", "0.168.0"];
const ZOLA_VERSION: &str = "0.22.1";
const BASE: &str = "https://example.org";

/// A difference we keep on purpose, and why.
struct Deliberate {
    /// The sites it concerns: their name starts with this (`"outputs "`).
    site: &'static str,
    /// The cases it concerns, by value shape (the label after ` = `); empty for every case.
    shapes: &'static [&'static str],
    /// For a page no case owns (the home, a taxonomy list): its URL. `None` for case pages.
    loc: Option<&'static str>,
    /// The Hugo version it concerns (`None`: both).
    version: Option<&'static str>,
    /// What differs: `"url"`, `"lastmod"`, `"alternates"`.
    what: &'static [&'static str],
    /// Why we keep it.
    why: &'static str,
    /// A warning naming the case's file must say so (false for keys that are the user's way to
    /// ask for the difference: Zola's `extra.sitemap`, `noindex`, `sitemap: false`; the
    /// summary counts those pages and `list --excluded` names them).
    warned: bool,
}

/// The differences we keep. Each case's one must come with a warning naming its file.
const DELIBERATE: &[Deliberate] = &[
    Deliberate {
        site: "",
        shapes: &["w:link", "b:{render:link}"],
        loc: None,
        version: None,
        what: &["url"],
        warned: true,
        why: "`render: link` pages get a URL but no file: Hugo lists a URL that answers 404",
    },
    Deliberate {
        site: "",
        shapes: &["o:[rss]", "o:[amp]", "c:{outputs:[rss]}"],
        loc: None,
        version: None,
        what: &["url"],
        warned: true,
        why: "outputs without html: no page a visitor opens; Hugo lists the feed's (or AMP) URL",
    },
    Deliberate {
        site: "noindex ",
        shapes: &[],
        loc: None,
        version: None,
        what: &["url"],
        // The author's way to ask for the difference: counted in the summary, not warned.
        warned: false,
        why: "`noindex: true` keeps a page out (Hugo ignores the key; themes mark the page noindex)",
    },
    Deliberate {
        site: "sitemap ",
        shapes: &["false", "FALSE", "no", "off"],
        loc: None,
        version: None,
        what: &["url"],
        // The author's way to ask for the difference: counted in the summary, not warned.
        warned: false,
        why: "`sitemap: false` keeps a page out (Hugo reads it as an empty table and lists the page)",
    },
    Deliberate {
        site: "translationKey ",
        shapes: &[],
        loc: None,
        version: None,
        what: &["alternates"],
        warned: true,
        why: "pages of one language sharing a key: Hugo lists them all under one hreflang, which search engines reject; we write none",
    },
    Deliberate {
        site: "",
        shapes: &["path", "relpath", "html", "punct", "abs-url"],
        loc: None,
        version: None,
        what: &["url", "lastmod"],
        warned: true,
        why: "a taxonomy term, slug or url holding '/', ':' or '?': Hugo writes '//', expands ':tokens', reads a query; we keep the path",
    },
    Deliberate {
        site: "url ",
        shapes: &[
            "colon",
            "date",
            "datetime-z",
            "datetime-off",
            "datetime-local",
            "datetime-space",
            "datetime-frac",
        ],
        loc: None,
        version: None,
        what: &["url"],
        warned: true,
        why: "a `url` holding ':' is a permalink pattern to Hugo 0.123 and later; we take it as a path (warned)",
    },
    Deliberate {
        site: "cascade ",
        shapes: &["c:{url:/x/}", "c:{slug:s}", "c:{tags:[t]}"],
        loc: None,
        version: None,
        what: &["url"],
        warned: true,
        why: "a cascaded `url` or `slug` (one URL for every page below) or taxonomy terms: not cascaded (warned)",
    },
    Deliberate {
        site: "slug ",
        shapes: &["path", "html", "blank"],
        loc: None,
        version: Some("0.168.0"),
        what: &["url"],
        warned: true,
        why: "a section `slug` holding '/' or only spaces: Hugo 0.167+ names no folder with it and its pages vanish from its sitemap; we keep the folder's name (warned where it holds a '/')",
    },
    Deliberate {
        site: "slug ",
        shapes: &[],
        loc: Some("*"),
        version: Some("0.168.0"),
        what: &["url"],
        warned: true,
        why: "the URLs Hugo 0.167+ makes from a section `slug` holding '/' or only spaces (they name no case); we keep the folder's name (warned)",
    },
    Deliberate {
        site: "",
        shapes: &[],
        loc: Some("zola-lists"),
        version: Some("0.22.1"),
        what: &["lastmod"],
        warned: false,
        why: "Zola dates no section, taxonomy or pager; we date a list page by the newest page below it",
    },
    Deliberate {
        site: "",
        shapes: &[],
        loc: Some("zola-pager-1"),
        version: Some("0.22.1"),
        what: &["url"],
        warned: false,
        why: "Zola lists a paginated list's `page/1/`, a redirect stub to the list itself; we do not",
    },
    Deliberate {
        site: "",
        shapes: &[],
        loc: Some("zola-empty-taxonomy"),
        version: Some("0.22.1"),
        what: &["url"],
        warned: false,
        why: "Zola lists a taxonomy no page has terms of, but writes no page for it (a 404); we do not list it",
    },
    Deliberate {
        site: "extra.sitemap ",
        shapes: &["false", "map0", "map1"],
        loc: None,
        version: Some("0.22.1"),
        what: &["url"],
        warned: false,
        why: "`extra.sitemap = false` (or a table with `disable`) is sitemapgen's own key on a Zola site: the page is left out; Zola ignores it",
    },
    Deliberate {
        site: "",
        shapes: &[],
        loc: Some("zola-alternates"),
        version: Some("0.22.1"),
        what: &["alternates"],
        warned: false,
        why: "Zola's sitemap carries no hreflang alternates; we link a multilingual Zola site's versions",
    },
    Deliberate {
        site: "taxonomy_root = ",
        shapes: &[],
        loc: Some("*"),
        version: Some("0.22.1"),
        what: &["url"],
        warned: true,
        why: "a Zola `taxonomy_root` that is empty or holds '/': Zola's taxonomy URLs get '//'; we join the path (warned)",
    },
    Deliberate {
        site: "updated ",
        shapes: &["time-local"],
        loc: None,
        version: Some("0.22.1"),
        what: &["lastmod"],
        warned: true,
        why: "a Zola `updated` that is a time of day (`03:04:05`): Zola writes it as the lastmod, which no sitemap reader takes; we date the page by `date`",
    },
    Deliberate {
        site: "redirect_to ",
        shapes: &[],
        loc: None,
        version: Some("0.22.1"),
        what: &["url"],
        warned: true,
        why: "a Zola section with `redirect_to` is a redirect: Zola lists it, we leave it out",
    },
    Deliberate {
        site: "outputs = {",
        shapes: &[],
        loc: Some("*"),
        version: None,
        what: &["url"],
        warned: true,
        why: "a site's `[outputs]` without html for a kind: no page a visitor opens; Hugo lists the kind's first output (a feed, JSON)",
    },
    Deliberate {
        site: "cascade ",
        shapes: &[],
        loc: Some("/tags/"),
        version: None,
        what: &["lastmod"],
        warned: true,
        why: "cascaded terms are not cascaded, so their taxonomy list has no page to date it",
    },
    Deliberate {
        site: "url ",
        shapes: &[],
        loc: Some("*"),
        version: Some("0.168.0"),
        what: &["url"],
        warned: true,
        why: "a `url` holding ':' is a permalink pattern to Hugo 0.123 and later (its URL names no case); we take it as a path (warned)",
    },
];

/// One case of a site: the file holding the value and its line, and every file of the case.
struct Case {
    label: String,
    file: String,
    /// The line of the value.
    line: usize,
    /// The lines an error may name: the value's and those of the keys it lies under.
    lines: std::ops::RangeInclusive<usize>,
    files: Vec<(String, String)>,
}

impl Case {
    /// The case's id, as its file names and URLs carry it (`y00x004`).
    fn id(&self) -> String {
        // The innermost part of its path that holds a digit (case ids do; `p.md`,
        // `index.md` and `_index.md` do not), up to a dot, hyphen or space.
        self.file
            .split('/')
            .map(|part| {
                let end = part.find(['.', '-', ' ']).unwrap_or(part.len());
                &part[..end]
            })
            .rfind(|part| part.bytes().any(|b| b.is_ascii_digit()))
            .unwrap_or("")
            .to_lowercase()
    }
}

struct Site {
    group: String,
    name: String,
    config: String,
    cases: Vec<Case>,
    /// Per version: Hugo's sitemap (loc -> lastmods and alternates, a loc Hugo lists twice
    /// having two), and the files of the cases that failed its build.
    hugo: BTreeMap<&'static str, (Vec<HugoUrl>, BTreeSet<String>)>,
    /// Zola's site (the generator its sitemaps came from), else Hugo's.
    zola: bool,
    /// When the generator built it: "now" for the replay.
    now: chrono::DateTime<chrono::Utc>,
}

#[derive(Clone, Debug)]
struct HugoUrl {
    loc: String,
    lastmod: String,
    alternates: BTreeSet<(String, String)>,
}

fn load() -> (chrono::DateTime<chrono::Utc>, Vec<Site>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hugo_matrix");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no fixtures in {}", dir.display());
    let mut now = None;
    let mut sites = Vec::new();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy();
        let group = name.trim_end_matches(".json.gz").to_string();
        let gz = flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap());
        let v: Value = serde_json::from_reader(std::io::BufReader::new(gz)).unwrap();
        let t = chrono::DateTime::parse_from_rfc3339(v["now"].as_str().unwrap()).unwrap();
        now = Some(now.map_or(t, |n: chrono::DateTime<_>| n.min(t)));
        for s in v["sites"].as_array().unwrap() {
            let cases = s["cases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| Case {
                    label: c["label"].as_str().unwrap().into(),
                    file: c["file"].as_str().unwrap().into(),
                    line: c["line"].as_u64().unwrap() as usize,
                    lines: c["key_line"]
                        .as_u64()
                        .unwrap_or(c["line"].as_u64().unwrap()) as usize
                        ..=c["line"].as_u64().unwrap() as usize,
                    files: c["files"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| (f[0].as_str().unwrap().into(), f[1].as_str().unwrap().into()))
                        .collect(),
                })
                .collect();
            let mut hugo = BTreeMap::new();
            let mut first = None;
            let zola = s["generator"].as_str() == Some("zola");
            let versions: &[&'static str] = if zola {
                &[ZOLA_VERSION]
            } else {
                &HUGO_VERSIONS
            };
            for &version in versions {
                let mut r = &s["runs"][version];
                if r.as_str() == Some("same") {
                    r = first.unwrap();
                }
                first.get_or_insert(r);
                let urls = r["urls"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| HugoUrl {
                        loc: common::percent_decode(u[0].as_str().unwrap()),
                        lastmod: u[1].as_str().unwrap().into(),
                        alternates: u[2]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|a| {
                                let href = common::percent_decode(a[1].as_str().unwrap());
                                (a[0].as_str().unwrap().to_string(), href)
                            })
                            .collect(),
                    })
                    .collect();
                let fail = r["fail"]
                    .as_array()
                    .map(|f| f.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                    .unwrap_or_default();
                hugo.insert(version, (urls, fail));
            }
            sites.push(Site {
                group: group.clone(),
                name: s["name"].as_str().unwrap().into(),
                config: s["config"].as_str().unwrap().into(),
                cases,
                hugo,
                zola,
                now: t.with_timezone(&chrono::Utc),
            });
        }
    }
    (now.unwrap().with_timezone(&chrono::Utc), sites)
}

/// What one run of ours gave: its URLs (decoded, without the base) with lastmod and
/// alternates, and its warnings; or its error.
struct Ours {
    urls: BTreeMap<String, OurUrl>,
    warnings: Vec<String>,
}

/// One of our URLs: its lastmod and its `hreflang` alternates.
type OurUrl = (Option<W3cDate>, BTreeSet<(String, String)>);

fn write_site(dir: &Path, zola: bool, config: &str, cases: &[&Case]) {
    let name = if zola { "config.toml" } else { "hugo.toml" };
    std::fs::write(dir.join(name), config).unwrap();
    if zola {
        // Zola dates a page by `updated`, else `date`, and nothing else: no file times
        // (which here would be the test's own), no git.
        std::fs::write(
            dir.join("sitemap.toml"),
            "lastmod = [\"front_matter\", \"published\"]\n",
        )
        .unwrap();
    }
    for c in cases {
        for (path, text) in &c.files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }
}

fn run(dir: &Path, version: &str, now: chrono::DateTime<chrono::Utc>) -> Result<Ours, Error> {
    let over = Overrides {
        site: Some(dir.to_path_buf()),
        hugo_version: (version != ZOLA_VERSION).then(|| version.into()),
        no_audit: true,
        ..Default::default()
    };
    let settings = sitemapgen::load(&over)?;
    let opts = RunOptions {
        now,
        sources: false,
        ..Default::default()
    };
    let out = sitemapgen::generate(&settings, &opts)?;
    let mut urls = BTreeMap::new();
    for (loc, e) in out.entries.iter() {
        let strip = |s: &str| common::percent_decode(s.strip_prefix(BASE).unwrap_or(s));
        let alternates = e
            .alternates()
            .iter()
            .map(|a| (a.hreflang.clone(), strip(&a.href)))
            .collect();
        urls.insert(strip(&loc.to_string()), (e.lastmod, alternates));
    }
    Ok(Ours {
        urls,
        warnings: out.warnings,
    })
}

/// Whether our lastmod says what Hugo's does: the same instant to the second (Hugo's
/// template writes no fraction), or, for a date we keep date-only, the same calendar date
/// in Hugo's own zone. Two differences are ours by rule, each warned about where the date is
/// read: a future date is written as today (never a future `<lastmod>`), and a date in year
/// 0 (Go's reading of a time of day alone, `3:04PM`) is not written at all (no sitemap can
/// carry it), so the page or its section takes the next date.
fn same_lastmod(hugo: &str, ours: Option<W3cDate>, now: chrono::DateTime<chrono::Utc>) -> bool {
    if hugo.starts_with("0000-") {
        return true;
    }
    match (hugo, ours) {
        ("", None) => true,
        ("", Some(_)) | (_, None) => false,
        (h, Some(o)) => {
            let Some(hd) = W3cDate::parse(h, &SiteTz::default()) else {
                return false;
            };
            // A future date is never written: the page's own is today, a list's the newest
            // date of the pages below it that is not in the future.
            if hd.is_after(now) {
                return !o.is_after(now);
            }
            match o.kind() {
                sitemapgen::vocab::date::W3cKind::Date(d) => hd.date() == d,
                sitemapgen::vocab::date::W3cKind::DateTime(_) => {
                    hd.instant().timestamp() == o.instant().timestamp()
                }
            }
        }
    }
}

/// Every difference between Hugo's sitemap and ours, as lines naming the URL.
fn differences(
    hugo: &[HugoUrl],
    ours: &Ours,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    let mut by_loc: BTreeMap<&str, Vec<&HugoUrl>> = BTreeMap::new();
    for u in hugo {
        by_loc.entry(u.loc.as_str()).or_default().push(u);
    }
    for (loc, hs) in &by_loc {
        let Some((lastmod, alternates)) = ours.urls.get(*loc) else {
            out.push((loc.to_string(), "url", "Hugo lists it, we do not".into()));
            continue;
        };
        // Hugo lists a URL two pages claim twice; we list it once (with a warning): any of
        // Hugo's entries may be ours.
        if !hs.iter().any(|h| same_lastmod(&h.lastmod, *lastmod, now)) {
            let ours = lastmod.map(|d| d.to_string()).unwrap_or_default();
            out.push((
                loc.to_string(),
                "lastmod",
                format!("Hugo '{}', ours '{ours}'", hs[0].lastmod),
            ));
        }
        if !hs.iter().any(|h| &h.alternates == alternates) {
            out.push((
                loc.to_string(),
                "alternates",
                format!("Hugo {:?}, ours {:?}", hs[0].alternates, alternates),
            ));
        }
    }
    for loc in ours.urls.keys() {
        if !by_loc.contains_key(loc.as_str()) {
            out.push((loc.clone(), "url", "we list it, Hugo does not".into()));
        }
    }
    out
}

/// The file and line an error names, for each error it holds.
fn places(e: &Error) -> Vec<(PathBuf, Option<usize>, String)> {
    match e {
        Error::Input {
            path,
            line,
            message,
        }
        | Error::Config {
            path,
            line,
            message,
        } => vec![(path.clone(), *line, message.clone())],
        Error::Many(v) => v.iter().flat_map(places).collect(),
        Error::Io { path, source } => vec![(path.clone(), None, source.to_string())],
        other => vec![(PathBuf::new(), None, other.to_string())],
    }
}

/// Checks one site under one version; returns the problems found, each on one line.
/// Checks one site under one version: the problems found, each on one line, and the
/// [`DELIBERATE`] entries that explained a difference (by index).
fn check(site: &Site, version: &'static str) -> (Vec<String>, Vec<usize>) {
    let mut problems = Vec::new();
    let mut used = Vec::new();
    let (urls, fail) = &site.hugo[version];
    let now = site.now;
    let tag = format!("[{} {} | Hugo {version}]", site.group, site.name);
    let good: Vec<&Case> = site
        .cases
        .iter()
        .filter(|c| !fail.contains(&c.file))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), site.zola, &site.config, &good);
    // A config the generator refuses leaves no case to build: only the refusal is checked.
    let compared = if good.is_empty() {
        Ok(None)
    } else {
        run(dir.path(), version, now).map(Some)
    };
    match compared {
        Ok(None) => {}
        Err(e) => problems.push(format!("{tag} Hugo builds the site, we stop: {e}")),
        Ok(Some(ours)) => {
            for (loc, what, detail) in differences(urls, &ours, now) {
                // A config's own case (no id) owns no one URL: its site's differences are
                // matched by URL.
                let case = site
                    .cases
                    .iter()
                    .find(|c| !c.id().is_empty() && loc.contains(&c.id()));
                // Zola dates pages only (`updated`, else `date`); a date where it writes none
                // is a list page's, ours by rule (the newest page below).
                let zola_list =
                    site.zola && what == "lastmod" && detail.starts_with("Hugo '', ours '");
                let shape = case.map(|c| c.label.split_once(" = ").map_or("", |(_, s)| s));
                let known = DELIBERATE.iter().position(|d| {
                    if zola_list {
                        return d.loc == Some("zola-lists");
                    }
                    site.name.starts_with(d.site)
                        && d.version.is_none_or(|v| v == version)
                        && d.what.contains(&what)
                        && match (shape, d.loc) {
                            (Some(shape), None) => d.shapes.is_empty() || d.shapes.contains(&shape),
                            (_, Some("zola-lists")) => zola_list,
                            (_, Some("zola-alternates")) => site.zola && what == "alternates",
                            (_, Some("zola-pager-1")) => site.zola && loc.ends_with("/page/1/"),
                            (_, Some("zola-empty-taxonomy")) => {
                                site.zola
                                    && detail == "Hugo lists it, we do not"
                                    && ["/tags/", "/categories/"].iter().any(|t| loc.ends_with(t))
                                    && !ours.urls.keys().any(|u| u.starts_with(loc.as_str()))
                            }
                            (None, Some(l)) => l == loc || l == "*",
                            _ => false,
                        }
                });
                match (known, case) {
                    (Some(k), _) if zola_list && DELIBERATE[k].loc == Some("zola-lists") => {
                        used.push(k)
                    }
                    (Some(k), Some(c))
                        if DELIBERATE[k].warned
                            && !ours.warnings.iter().any(|w| w.contains(&c.file)) =>
                    {
                        problems.push(format!(
                            "{tag} {loc} ({}) {what}: a difference we keep, but no warning names {}",
                            c.label, c.file
                        ))
                    }
                    (Some(k), _) => used.push(k),
                    (None, _) => {
                        let label = case.map_or(String::new(), |c| format!(" ({})", c.label));
                        problems.push(format!("{tag} {loc}{label} {what}: {detail}"))
                    }
                }
            }
        }
    }
    // The cases whose file fails Hugo's build, together: we stop too, naming each file and
    // its value's line (every bad file is reported at once). A case our error leaves out is
    // tried alone: our routing stops at the first bad URL.
    let failing: Vec<&Case> = site
        .cases
        .iter()
        .filter(|c| fail.contains(&c.file))
        .collect();
    if failing.is_empty() {
        return (problems, used);
    }
    let named = |e: &Error, c: &Case| {
        places(e)
            .iter()
            .any(|(p, l, _)| p.ends_with(&c.file) && l.is_some_and(|l| c.lines.contains(&l)))
    };
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), site.zola, &site.config, &failing);
    let together = run(dir.path(), version, now).err();
    for c in failing {
        if together.as_ref().is_some_and(|e| named(e, c)) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        write_site(dir.path(), site.zola, &site.config, &[c]);
        match run(dir.path(), version, now) {
            Ok(_) => problems.push(format!(
                "{tag} {}: Hugo fails on {}:{}, we build",
                c.label, c.file, c.line
            )),
            Err(e) if !named(&e, c) => problems.push(format!(
                "{tag} {}: we stop, but not naming {}:{:?}: {e}",
                c.label, c.file, c.lines
            )),
            Err(_) => {}
        }
    }
    (problems, used)
}

#[test]
fn every_value_hugo_tolerates_reads_as_hugo_reads_it() {
    let started = std::time::Instant::now();
    let (_, sites) = load();
    let jobs: Vec<(&Site, &'static str)> = sites
        .iter()
        .flat_map(|s| s.hugo.keys().map(move |v| (s, *v)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let (mut problems, used): (Vec<String>, Vec<usize>) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let (mut found, mut used) = (Vec::new(), Vec::new());
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((site, version)) = jobs.get(k) else {
                            break (found, used);
                        };
                        let (p, u) = check(site, version);
                        found.extend(p);
                        used.extend(u);
                    }
                })
            })
            .collect();
        let mut all = (Vec::new(), Vec::new());
        for h in handles {
            let (p, u) = h.join().unwrap();
            all.0.extend(p);
            all.1.extend(u);
        }
        all
    });
    let cases: usize = sites.iter().map(|s| s.cases.len()).sum();
    let failing: usize = sites
        .iter()
        .flat_map(|s| s.hugo.values().map(|(_, f)| f.len()))
        .sum();
    eprintln!(
        "generator matrix: {} sites, {cases} cases ({failing} case-runs where the generator fails), Hugo 0.111.3 and 0.168.0, Zola 0.22.1, {:.1} s",
        sites.len(),
        started.elapsed().as_secs_f64()
    );
    for (k, d) in DELIBERATE.iter().enumerate() {
        let n = used.iter().filter(|&&u| u == k).count();
        eprintln!("  kept on purpose ({n}x): {}", d.why);
        // An entry that explains nothing any more must go: it would hide a regression.
        if n == 0 {
            problems.push(format!(
                "DELIBERATE entry explains no difference any more: {}",
                d.why
            ));
        }
    }
    problems.sort();
    assert!(
        problems.is_empty(),
        "{} differences from Hugo:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
