//! The layout stage: which sitemap files hold which entries. By default the generator's own
//! set of files, as its wing describes them ([`crate::generator::OwnSitemap`]), so a site
//! that switches to sitemapgen keeps every sitemap URL it submitted:
//!
//! | site | `layout = "generator"` (default) |
//! |---|---|
//! | Zola | `sitemap.xml`; from 30,000 URLs an index `sitemap.xml` over `sitemap1.xml`, `sitemap2.xml`, … of 30,000 each (Zola's own rule) |
//! | Hugo, one language | `sitemap.xml` (from 0.123 with `defaultContentLanguageInSubdir`: the index `sitemap.xml` over `en/sitemap.xml`) |
//! | Hugo, several languages | the index `sitemap.xml` over one `<lang>/sitemap.xml` per language, in weight order (the default language's too, even when its pages are at the root) |
//! | Hugo, multihost | one `<lang>/sitemap.xml` per host's folder, no index |
//! | plain | `sitemap.xml` |
//!
//! (`sitemap.xml` standing for `file_name`, Hugo's `[sitemap] filename`.) The other layouts
//! are ours: `"single"` one sitemap (one per host of a multihost site: a sitemap may list only
//! its own host's URLs); `"language"` an index over `sitemap-<lang>.xml`, one per language;
//! `"section"` an index over `sitemap-<section>.xml`, one per top-level section (the first
//! folder of the URL path, after the language's prefix), and `sitemap-home.xml` for the home
//! page and the pages beside it, so Search Console shows coverage per part. Every file is
//! split past the protocol's limits (50,000 URLs, 50 MB) or `max_urls_per_file`: a part
//! `en/sitemap.xml` becomes an index of `en/sitemap1.xml`, … (so its URL keeps working), and
//! the index over the set lists those parts directly (an index never lists an index).

use crate::entries::{Built, Loc};
use crate::generator::OwnLayout;
use crate::settings::{LayoutMode as Mode, Settings};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use url::Url;

/// One sitemap file of the set (before any split past the limits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SitemapFile {
    /// Its folder below the output folder: empty, or ending in `/` (`en/`).
    pub folder: String,
    /// Its file name.
    pub file_name: String,
    /// The name of its numbered parts when it is split, `{n}` the number.
    pub part_name: String,
    /// The URL of its folder.
    pub base_url: Url,
    /// Its entries.
    pub entries: Range<usize>,
    /// Most URLs in one file (the generator's split, or the protocol's).
    pub max_urls: usize,
    /// From this many URLs on it is an index and parts even when they would fit one file.
    pub index_from: usize,
}

/// An index over several parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexFile {
    /// Its folder below the output folder: empty, or a multihost language's `en/`.
    pub folder: String,
    /// Its file name (`file_name`).
    pub file_name: String,
    /// The URL of its folder.
    pub base_url: Url,
    /// The files it lists (indices into [`Layout::files`]), in order.
    pub files: Vec<usize>,
}

/// Which files hold which entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Every sitemap file of the set, in the order written.
    pub files: Vec<SitemapFile>,
    /// The indexes over them.
    pub indexes: Vec<IndexFile>,
}

/// One site root: the output folder, or a multihost language's folder below it.
struct Root {
    folder: String,
    base: Url,
    entries: Range<usize>,
}

/// How a root's entries are shared out.
#[derive(Clone, Copy, Debug)]
enum Scheme {
    /// One sitemap (split past the limits).
    One,
    /// The generator's: an index over `<lang>/<name>`, one per language, each named by the
    /// function (Hugo's).
    PerLanguage(fn(&Settings, &str) -> String),
    /// Ours: an index over `<stem>-<lang><ext>`.
    Languages,
    /// Ours: an index over `<stem>-<section><ext>` and `<stem>-home<ext>`.
    Sections,
}

/// The scheme of the layout asked for, and the generator's own split (`layout =
/// "generator"` on Zola).
fn scheme(settings: &Settings, own: &OwnLayout) -> (Scheme, Option<usize>) {
    match (settings.layout, own) {
        (Mode::Single, _) => (Scheme::One, None),
        (Mode::Language, _) => (Scheme::Languages, None),
        (Mode::Section, _) => (Scheme::Sections, None),
        (Mode::Generator, OwnLayout::One { split_at }) => (Scheme::One, *split_at),
        (Mode::Generator, OwnLayout::PerLanguage { file_name }) => {
            (Scheme::PerLanguage(*file_name), None)
        }
    }
}

/// `sitemap.xml` as (`sitemap`, `.xml`).
fn stem_ext(file_name: &str) -> (&str, &str) {
    match file_name.rfind('.') {
        Some(k) if k > 0 => file_name.split_at(k),
        _ => (file_name, ""),
    }
}

/// A language code or a URL folder as a file-name part: ASCII lower case, letters, digits and
/// `-` (never `_`, which numbers the parts of a split one).
fn key_of(text: &str) -> String {
    let ascii = deunicode::deunicode(text).to_ascii_lowercase();
    let mut out = String::new();
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "x".to_string() } else { out }
}

/// `text` as a file-name key not yet in `used` (`blog`, then `blog-2`, …), recorded there.
fn unique_key(used: &mut Vec<String>, text: &str) -> String {
    let base = key_of(text);
    let mut key = base.clone();
    let mut n = 2;
    while used.contains(&key) {
        key = format!("{base}-{n}");
        n += 1;
    }
    used.push(key.clone());
    key
}

/// Shares the entries out into the files of the layout `settings` asks for, reordering them
/// so each file's entries are one run (by file, then in their order before; a multihost
/// site's hosts stay in their order), and returns the files.
pub fn arrange(settings: &Settings, built: &mut Built, own: &OwnLayout) -> Layout {
    let site = &settings.site;
    let multihost = !built.hosts.is_empty();
    let roots: Vec<Root> = if multihost {
        built
            .hosts
            .iter()
            .map(|h| Root {
                folder: format!("{}/", h.lang),
                base: h.base_url.clone(),
                entries: h.entries.clone(),
            })
            .collect()
    } else {
        vec![Root {
            folder: String::new(),
            base: settings.base_url.clone(),
            entries: 0..built.entries.len(),
        }]
    };
    let (scheme, split_at) = scheme(settings, own);
    let file_name = settings.file_name.as_str();
    let (stem, ext) = stem_ext(file_name);
    let max_urls = split_at.map_or(settings.max_urls_per_file, |s| {
        settings.max_urls_per_file.min(s)
    });
    let index_from = split_at.unwrap_or(usize::MAX);
    let default_parts = crate::sitemap::urlset::WriteOptions::default().part_name;
    let mut layout = Layout::default();
    // Each entry's file (the scheme is the same for every root: with one file a root's
    // entries stay where they are, and need no regrouping).
    let mut group: Vec<u32> = match scheme {
        Scheme::One => Vec::new(),
        _ => vec![0; built.entries.len()],
    };
    let mut codes: Vec<&str> = site.languages.iter().map(|l| l.code.as_str()).collect();
    if codes.is_empty() {
        // A plain site: one language, the default.
        codes.push(site.default_language.as_str());
    }
    for root in &roots {
        let first = layout.files.len();
        let part = |folder: String, name: String, part_name: String, base: Url| SitemapFile {
            folder,
            file_name: name,
            part_name,
            base_url: base,
            entries: 0..0,
            max_urls,
            index_from,
        };
        // Each entry's file among the root's.
        let keys: Vec<usize> = match scheme {
            Scheme::One => {
                layout.files.push(part(
                    root.folder.clone(),
                    file_name.to_string(),
                    default_parts.clone(),
                    root.base.clone(),
                ));
                layout.files[first].entries = root.entries.clone();
                continue;
            }
            Scheme::PerLanguage(language_file) => {
                // Hugo writes every language's file, even one with no pages.
                for code in &codes {
                    layout.files.push(part(
                        format!("{}{code}/", root.folder),
                        language_file(settings, code),
                        default_parts.clone(),
                        root.base
                            .join(&format!("{code}/"))
                            .unwrap_or_else(|_| root.base.clone()),
                    ));
                }
                root.entries
                    .clone()
                    .map(|k| language_of(settings, built, k, &root.base, &codes))
                    .collect()
            }
            Scheme::Languages => {
                // Ours: the languages this root has pages in (a multihost site's host, one).
                let of: Vec<usize> = root
                    .entries
                    .clone()
                    .map(|k| language_of(settings, built, k, &root.base, &codes))
                    .collect();
                let mut present = vec![false; codes.len()];
                of.iter().for_each(|&l| present[l] = true);
                let mut used = Vec::new();
                let mut file_of = vec![0; codes.len()];
                for (l, code) in codes.iter().enumerate().filter(|(l, _)| present[*l]) {
                    let key = unique_key(&mut used, code);
                    file_of[l] = layout.files.len() - first;
                    layout.files.push(part(
                        root.folder.clone(),
                        format!("{stem}-{key}{ext}"),
                        format!("{stem}-{key}_{{n}}{ext}"),
                        root.base.clone(),
                    ));
                }
                of.into_iter().map(|l| file_of[l]).collect()
            }
            Scheme::Sections => {
                let found: Vec<Option<(String, bool)>> = root
                    .entries
                    .clone()
                    .map(|k| {
                        folder_of(
                            built.entries.loc(k),
                            &root.base,
                            &codes,
                            site.is_multilingual(),
                        )
                    })
                    .collect();
                // A folder is a section when some page lies below it (not `/about/` alone).
                let deep: BTreeSet<&str> = found
                    .iter()
                    .flatten()
                    .filter(|(_, deeper)| *deeper)
                    .map(|(f, _)| f.as_str())
                    .collect();
                // Keys are file-name safe and unique: `home` first, then the folders by name.
                let mut used = vec!["home".to_string()];
                layout.files.push(part(
                    root.folder.clone(),
                    format!("{stem}-home{ext}"),
                    format!("{stem}-home_{{n}}{ext}"),
                    root.base.clone(),
                ));
                let mut names: BTreeMap<&str, usize> = BTreeMap::new();
                for folder in &deep {
                    let key = unique_key(&mut used, folder);
                    names.insert(folder, layout.files.len() - first);
                    layout.files.push(part(
                        root.folder.clone(),
                        format!("{stem}-{key}{ext}"),
                        format!("{stem}-{key}_{{n}}{ext}"),
                        root.base.clone(),
                    ));
                }
                found
                    .iter()
                    .map(|f| {
                        f.as_ref()
                            .and_then(|(f, _)| names.get(f.as_str()).copied())
                            .unwrap_or(0)
                    })
                    .collect()
            }
        };
        // Count each file's entries, then give each its run, in the root's place.
        let mut counts = vec![0usize; layout.files.len() - first];
        for (k, key) in root.entries.clone().zip(keys) {
            group[k] = (first + key) as u32;
            counts[key] += 1;
        }
        let mut start = root.entries.start;
        for (f, n) in layout.files[first..].iter_mut().zip(counts) {
            f.entries = start..start + n;
            start += n;
        }
        layout.indexes.push(IndexFile {
            folder: root.folder.clone(),
            file_name: file_name.to_string(),
            base_url: root.base.clone(),
            files: (first..layout.files.len()).collect(),
        });
    }
    if !matches!(scheme, Scheme::One) {
        built.regroup(&group);
    }
    layout
}

/// The language (its index in `codes`) of entry `k`: its route's, or, for an entry no route
/// made (`extra_urls`, an unsourced page), the language whose folder its URL lies in, else
/// the default language.
fn language_of(settings: &Settings, built: &Built, k: usize, base: &Url, codes: &[&str]) -> usize {
    let site = &settings.site;
    let default = codes
        .iter()
        .position(|c| *c == site.default_language)
        .unwrap_or(0);
    if let Some(code) = built.lang(k) {
        return codes
            .iter()
            .position(|c| *c == code.code())
            .unwrap_or(default);
    }
    let loc = built.entries.loc(k);
    below(loc, base)
        .and_then(|rest| rest.split('/').next())
        .and_then(|first| codes.iter().position(|c| *c == first))
        .unwrap_or(default)
}

/// The part of `loc`'s path below `base`'s.
fn below<'a>(loc: Loc<'a>, base: &Url) -> Option<&'a str> {
    base.as_str()
        .strip_prefix(loc.origin())
        .and_then(|path| loc.rest().strip_prefix(path))
}

/// The top-level folder `loc` lies in below `base` (after a language's folder on a
/// multilingual site), decoded, and whether the URL lies deeper than the folder's own page;
/// `None` for the home page and URLs with no folder (`/about.html`).
fn folder_of(
    loc: Loc<'_>,
    base: &Url,
    codes: &[&str],
    multilingual: bool,
) -> Option<(String, bool)> {
    let mut rest = below(loc, base)?;
    rest = rest.split(['?', '#']).next().unwrap_or_default();
    if multilingual
        && let Some((first, more)) = rest.split_once('/')
        && codes.contains(&first)
    {
        rest = more;
    }
    let (first, more) = rest.split_once('/')?;
    (!first.is_empty()).then(|| {
        (
            crate::vocab::loc::decoded(first).into_owned(),
            !more.is_empty(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Style;

    /// The layout of the generator's own sitemap on the site of `s`.
    fn own(s: &Settings, b: &Built) -> OwnLayout {
        crate::pipeline::generator(s.style)
            .own_sitemap(
                s,
                &b.hosts.iter().map(|h| h.lang.as_str()).collect::<Vec<_>>(),
            )
            .map_or(OwnLayout::One { split_at: None }, |o| o.layout)
    }
    use crate::entries::{Entries, NO_ROUTE};
    use crate::settings::Overrides;

    /// Settings for a site made of `files` (path, text), plus `sitemap.toml` when given.
    fn settings(files: &[(&str, &str)], style: Style) -> (tempfile::TempDir, Settings) {
        let d = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = d.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        std::fs::create_dir_all(d.path().join("content")).unwrap();
        let config = d.path().join("sitemap.toml");
        let s = crate::pipeline::load(&Overrides {
            site: Some(d.path().to_path_buf()),
            config: config.is_file().then_some(config),
            style: Some(style),
            base_url: (style == Style::Plain).then(|| "https://example.com/".to_string()),
            hugo_version: Some("0.168.0".into()),
            ..Default::default()
        })
        .unwrap();
        (d, s)
    }

    /// Entries of no route at these locs (as `extra_urls` are).
    fn built(locs: impl IntoIterator<Item = String>, multilingual: bool) -> Built {
        let mut b = Built::default();
        let mut e = Entries::new();
        for loc in locs {
            e.push(&loc).unwrap();
            b.routes.push(NO_ROUTE);
            b.pages.push(NO_ROUTE);
            if multilingual {
                b.langs.push(None);
            }
        }
        b.entries = e;
        b
    }

    fn names(set: &crate::sitemap::set_write::SetOptions, entries: &Entries) -> Vec<String> {
        crate::sitemap::set_write::render_set(entries.view(), set)
            .unwrap()
            .into_iter()
            .map(|f| f.name)
            .filter(|n| n.ends_with(".xml"))
            .collect()
    }

    /// Zola's own rule (components/site/src/lib.rs, `render_sitemap`, v0.22.1): below 30,000
    /// URLs one `sitemap.xml`; from 30,000 on an index over `sitemap1.xml`, … of 30,000 each.
    #[test]
    fn zola_splits_from_30000_urls_as_zola_does() {
        let (_d, s) = settings(
            &[("config.toml", "base_url = \"https://example.com\"\n")],
            Style::Zola,
        );
        for (n, want) in [
            (29_999, vec!["sitemap.xml"]),
            (30_000, vec!["sitemap1.xml", "sitemap.xml"]),
            (30_001, vec!["sitemap1.xml", "sitemap2.xml", "sitemap.xml"]),
        ] {
            let mut b = built(
                (0..n).map(|k| format!("https://example.com/p{k:05}/")),
                false,
            );
            let o = own(&s, &b);
            let layout = arrange(&s, &mut b, &o);
            assert_eq!(layout.files.len(), 1);
            assert_eq!(
                (layout.files[0].max_urls, layout.files[0].index_from),
                (30_000, 30_000)
            );
            let outcome = crate::pipeline::Outcome {
                entries: b.entries,
                layout,
                ..Default::default()
            };
            let set = crate::pipeline::sitemap_set(&s, &outcome);
            assert_eq!(names(&set, &outcome.entries), want, "{n} URLs");
        }
        // Our own layouts keep the protocol's limit.
        let (_d, s) = settings(
            &[
                ("config.toml", "base_url = \"https://example.com\"\n"),
                ("sitemap.toml", "layout = \"single\"\n"),
            ],
            Style::Zola,
        );
        let mut b = built(
            (0..30_000).map(|k| format!("https://example.com/p{k:05}/")),
            false,
        );
        let o = own(&s, &b);
        let layout = arrange(&s, &mut b, &o);
        assert_eq!(layout.files[0].index_from, usize::MAX);
        assert_eq!(layout.files[0].max_urls, crate::vocab::protocol::MAX_URLS);
    }

    /// `layout = "language"` on a site of one language (a plain site has no languages of its
    /// own): an index over the default language's one file, every entry in it.
    #[test]
    fn language_layout_on_a_site_of_one_language() {
        let (_d, s) = settings(&[("sitemap.toml", "layout = \"language\"\n")], Style::Plain);
        let mut b = built(
            [
                "https://example.com/a/".into(),
                "https://example.com/b/c/".into(),
            ],
            false,
        );
        let o = own(&s, &b);
        let layout = arrange(&s, &mut b, &o);
        assert_eq!(layout.files.len(), 1);
        assert_eq!(layout.files[0].file_name, "sitemap-en.xml");
        assert_eq!(layout.files[0].entries, 0..2);
        assert_eq!(layout.indexes[0].files, [0]);
    }

    /// `layout = "section"`: a top-level folder with pages below it is a section of its own
    /// (its key file-name safe, and unique); the home page, pages beside it and folders of one
    /// page go to `-home`; every entry lands in exactly one file, each file's entries one run.
    #[test]
    fn section_layout_groups_by_top_level_folder() {
        let (_d, s) = settings(&[("sitemap.toml", "layout = \"section\"\n")], Style::Plain);
        let locs = [
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/a/",
            "https://example.com/Caf%C3%A9/x/",
            "https://example.com/home/x/",
            "https://example.com/page.html",
            "https://example.com/zz/b/",
        ];
        let mut b = built(locs.iter().map(|l| l.to_string()), false);
        let o = own(&s, &b);
        let layout = arrange(&s, &mut b, &o);
        let files: Vec<(String, Vec<String>)> = layout
            .files
            .iter()
            .map(|f| {
                let locs = f
                    .entries
                    .clone()
                    .map(|k| b.entries.loc(k).to_string())
                    .collect();
                (f.file_name.clone(), locs)
            })
            .collect();
        let want = |name: &str, locs: &[&str]| {
            (
                name.to_string(),
                locs.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            files,
            [
                want(
                    "sitemap-home.xml",
                    &[
                        "https://example.com/",
                        "https://example.com/about/",
                        "https://example.com/page.html"
                    ]
                ),
                want("sitemap-cafe.xml", &["https://example.com/Caf%C3%A9/x/"]),
                want(
                    "sitemap-blog.xml",
                    &["https://example.com/blog/", "https://example.com/blog/a/"]
                ),
                want("sitemap-home-2.xml", &["https://example.com/home/x/"]),
                want("sitemap-zz.xml", &["https://example.com/zz/b/"]),
            ]
        );
    }
}
