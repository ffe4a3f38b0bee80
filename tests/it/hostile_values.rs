//! One rule for what we write (issue 18): hostile values in every field that reaches a sitemap
//! (base URL, slugs and file names, dates, language codes, taxonomy terms, stylesheet, image
//! URLs, extra_urls, priority and changefreq) either give sitemaps that pass our `validate`
//! and the official XSDs, or stop the run with exit 2 and an error naming the file the value
//! came from. Never another exit code, never an invalid file.

use crate::common;

use common::{run, text, validate_with_xsd, write_tree};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Pieces hostile values are made of: what XML forbids or must escape, what URLs must encode,
/// path tricks, non-ASCII, and plain letters so that some values are fine.
const PIECES: &[&str] = &[
    "a", "Z", "0", "-", "_", "~", ".", "..", "/", "\\", "%", "%2", "%zz", "%41", "%2F", " ", "\t",
    "\n", "\r", "<", ">", "&", "&amp;", "\"", "'", "?", "#", "{", "}", "|", "^", "`", "[", "]",
    "@", ":", "=", "+", "é", "日本", "😀", "\u{0}", "\u{1}", "\u{1b}", "\u{7f}", "\u{85}",
    "\u{200b}", "\u{202e}", "\u{d7ff}", "\u{e000}", "\u{fffe}", "\u{ffff}", "]]>", "<!--",
];

fn hostile(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..max).prop_map(|v| v.concat())
}

/// Dates near and past the edges of what the schemas take, and some that are no date.
fn date() -> impl Strategy<Value = String> {
    let year = prop::sample::select(vec![
        "0000", "0001", "1969", "2024", "9999", "10000", "-001",
    ]);
    let month = prop::sample::select(vec!["00", "01", "02", "12", "13", "1"]);
    let day = prop::sample::select(vec!["00", "01", "29", "30", "31", "32"]);
    let time = prop::sample::select(vec![
        "",
        "T00:00:00",
        "T23:59:59",
        "T23:59:60",
        "T24:00:00",
        "T12:00",
        " 12:00:00",
        "T1:2:3",
    ]);
    let zone = prop::sample::select(vec![
        "", "Z", "z", "+14:00", "-14:00", "+14:01", "-23:59", "+5", "+05:30", "-00:00",
    ]);
    prop_oneof![
        4 => (year, month, day, time, zone).prop_map(|(y, m, d, t, z)| format!("{y}-{m}-{d}{t}{z}")),
        1 => hostile(6),
    ]
}

/// A TOML basic string holding `s` exactly: quotes, backslashes and control characters escaped.
fn toml_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A file name made of `s`: what Linux refuses in a name (`/`, NUL) replaced, never empty.
fn file_stem(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c == '/' || c == '\0' { '_' } else { c })
        .collect();
    let s = if s.is_empty() || s == "." || s == ".." {
        format!("p{s}")
    } else {
        s
    };
    // Names are at most 255 bytes; a stem shorter than that leaves room for `.lang.md`.
    let mut end = s.len().min(200);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Every field of one run: each is written where a user would write it.
#[derive(Debug, Clone)]
struct Case {
    /// Which fields are hostile (see [`case`]).
    which: std::collections::BTreeSet<usize>,
    hugo: bool,
    host: String,
    base_path: String,
    lang: String,
    stylesheet: String,
    extra: String,
    extra_lastmod: String,
    stem: String,
    slug: String,
    date: String,
    updated: String,
    tag: String,
    image: String,
    priority: String,
    changefreq: String,
}

/// How many fields [`case`] can make hostile.
const FIELDS: usize = 14;

/// A case with one or two fields hostile and the rest plain: a value that is refused stops
/// the run before the others are tried, so each case tries few.
fn case() -> impl Strategy<Value = Case> {
    let values = (
        (hostile(3), hostile(3), hostile(2), hostile(4), hostile(4)),
        (date(), hostile(5), hostile(5), date(), date()),
        (
            hostile(4),
            hostile(5),
            prop::sample::select(PRIORITIES),
            hostile(3),
        ),
    );
    let which = prop::collection::btree_set(0..FIELDS, 1..=2);
    (any::<bool>(), which, values).prop_map(|(hugo, which, v)| {
        let (
            (host, base_path, lang, stylesheet, extra),
            (extra_lastmod, stem, slug, date, updated),
            (tag, image, priority, changefreq),
        ) = v;
        let pick = |k: usize, hostile: String, plain: &str| {
            if which.contains(&k) {
                hostile
            } else {
                plain.to_string()
            }
        };
        Case {
            which: which.clone(),
            hugo,
            host: pick(0, host, "example"),
            base_path: pick(1, base_path, "docs"),
            lang: pick(2, lang, "fr"),
            stylesheet: pick(3, stylesheet, "/style.xsl"),
            extra: pick(4, extra, "/search/"),
            extra_lastmod: pick(5, extra_lastmod, "2024-01-01"),
            stem: file_stem(&pick(6, stem, "post")),
            slug: pick(7, slug, "hello"),
            date: pick(8, date, "2024-02-03"),
            updated: pick(9, updated, "2024-03-04T05:06:07+01:00"),
            tag: pick(10, tag, "rust"),
            image: pick(11, image, "/img/a.png"),
            priority: pick(12, priority.to_string(), "0.5"),
            changefreq: pick(13, changefreq, "weekly"),
        }
    })
}

/// Priorities TOML reads as numbers, in and out of the protocol's range.
const PRIORITIES: &[&str] = &[
    "1.0", "1.5", "-0.1", "-1", "nan", "inf", "1e309", "0.123456", "0",
];

/// Writes the site for `c` into `dir`; returns the files a refusal may name.
fn write_site(dir: &Path, c: &Case) -> Vec<String> {
    let q = toml_str;
    let base = q(&format!("https://{}.com/{}/", c.host, c.base_path));
    let sitemap_toml = format!(
        "images = true\nstylesheet = {}\nextra_urls = [{}, {{ loc = \"/extra/\", lastmod = {} }}]\n",
        q(&c.stylesheet),
        q(&c.extra),
        q(&c.extra_lastmod)
    );
    let (config_name, config, section) = if c.hugo {
        let config = format!(
            "baseURL = {base}\ndefaultContentLanguage = \"en\"\n[languages.en]\nweight = 1\n[languages.{}]\nweight = 2\n[taxonomies]\ntag = \"tags\"\n",
            q(&c.lang)
        );
        ("hugo.toml", config, "posts")
    } else {
        let config = format!(
            "base_url = {base}\ndefault_language = \"en\"\ntaxonomies = [{{ name = \"tags\" }}]\n[languages.{}]\ntaxonomies = [{{ name = \"tags\" }}]\n",
            q(&c.lang)
        );
        ("config.toml", config, "blog")
    };
    let page = format!(
        "+++\ntitle = \"t\"\nslug = {}\ndate = {}\nupdated = {}\nlastmod = {}\n{}[sitemap]\npriority = {}\nchangefreq = {}\n[taxonomies]\ntags = [{}]\n+++\n![alt]({})\n",
        q(&c.slug),
        q(&c.date),
        q(&c.updated),
        q(&c.updated),
        if c.hugo {
            format!("tags = [{}]\n", q(&c.tag))
        } else {
            String::new()
        },
        c.priority,
        q(&c.changefreq),
        q(&c.tag),
        c.image,
    );
    let page_rel = format!("content/{section}/{}.md", c.stem);
    let translated_rel = format!("content/{section}/{}.{}.md", c.stem, file_stem(&c.lang));
    let index_rel = format!("content/{section}/_index.md");
    write_tree(
        dir,
        &[
            (config_name, config.as_str()),
            ("sitemap.toml", sitemap_toml.as_str()),
            (index_rel.as_str(), "+++\n+++\n"),
            (page_rel.as_str(), page.as_str()),
            (translated_rel.as_str(), page.as_str()),
        ],
    );
    vec![
        config_name.into(),
        "sitemap.toml".into(),
        page_rel,
        translated_rel,
    ]
}

/// The sitemap files a build wrote.
fn written(out: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "xml"));
    files.sort();
    files
}

proptest! {
    // HOSTILE_CASES runs a longer search (CI keeps the default).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("HOSTILE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(40),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_written_sitemap_is_valid_or_the_run_names_the_bad_value(c in case()) {
        let dir = tempfile::tempdir().unwrap();
        let sources = write_site(dir.path(), &c);
        let out = run(dir.path(), &["build", "-q"]);
        match out.status.code() {
            Some(0) => {
                let files = written(&dir.path().join("public"));
                prop_assert!(!files.is_empty(), "exit 0 but no sitemap: {}", text(&out));
                let args: Vec<&str> = std::iter::once("validate")
                    .chain(files.iter().filter_map(|p| p.to_str()))
                    .collect();
                let v = run(dir.path(), &args);
                prop_assert_eq!(v.status.code(), Some(0), "our validate rejects what build wrote ({:?}):\n{}", c, text(&v));
                validate_with_xsd(&files);
            }
            Some(2) => {
                let err = String::from_utf8_lossy(&out.stderr);
                // The message names the file the hostile value was written in: the site
                // config (0-2), sitemap.toml (3-5) or a page (6-13; a language is also in a
                // page's file name). A page's name may be escaped for printing: its section
                // folder is enough.
                let section = format!("content/{}/", if c.hugo { "posts" } else { "blog" });
                let named = c.which.iter().any(|&k| match k {
                    0 | 1 => err.contains(sources[0].as_str()),
                    2 => err.contains(sources[0].as_str()) || err.contains(&section),
                    3..=5 => err.contains("sitemap.toml"),
                    _ => err.contains(&section),
                });
                prop_assert!(named, "exit 2 naming none of the files fields {:?} are in:\n{}", c.which, err);
            }
            _ => prop_assert!(false, "unexpected exit ({:?}):\n{}", c, text(&out)),
        }
    }
}
