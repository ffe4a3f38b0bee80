//! Sitemaps in the output folder that are not ours: the generator's own (Hugo's
//! `public/en/sitemap.xml`, Zola's `sitemap1.xml`), another tool's, or a leftover of a
//! layout we no longer write and did not write ourselves. Search engines that read them get
//! other URLs than our set lists, so `build` warns about each (naming it and what to do) and
//! `check` fails; none is ever removed (see [`super::owned`]).
//!
//! Where they are looked for (the places generators put sitemaps, without walking the whole
//! built site): files of the output folder (and of each host's folder) whose name contains
//! `sitemap` or is the configured file name, the same in every folder just below it that is
//! named like a language (`en`, `pt-br`; Hugo puts a language's sitemap there), the files the
//! `Sitemap:` lines of `robots.txt` name, and the parts that any index among these lists.

use super::owned::{LEGACY_RECORD_NAME, Ownership, Record};
use super::read::{Gzip, Sitemap, SitemapKind, sniff_kind};
use super::robots_line::MAX_ROBOTS;
use super::urlset::ROBOTS_NAME;
use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::Path;
use url::Url;

/// One site root in the output folder: its folder below it (empty, or a multihost
/// language's `en/`) and the URL that folder is served at.
#[derive(Clone, Debug)]
pub struct SiteRoot<'a> {
    /// Empty, or ending in `/`.
    pub folder: &'a str,
    /// The URL of the folder.
    pub base: &'a Url,
}

/// The sitemap files below `root` that the set does not write (`written`, paths below
/// `root`) and that are not ours by `record`, sorted. `file_name` is the configured sitemap
/// name; `languages` the site's language codes (their folders are looked in too).
pub fn find(
    root: &Path,
    hosts: &[SiteRoot<'_>],
    written: &HashSet<&str>,
    record: Option<&Record>,
    file_name: &str,
    languages: &[String],
) -> Vec<String> {
    let mut candidates: BTreeSet<String> = BTreeSet::new();
    for host in hosts {
        let top = super::set_write::dir_of(root, host.folder);
        let Ok(listing) = fs::read_dir(&top) else {
            continue;
        };
        for entry in listing.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir && looks_like_sitemap(&name, file_name) {
                candidates.insert(format!("{}{name}", host.folder));
            } else if is_dir
                && (languages.iter().any(|l| l.eq_ignore_ascii_case(&name))
                    || looks_like_language(&name))
            {
                for inner in fs::read_dir(entry.path()).into_iter().flatten().flatten() {
                    let is_file = inner.file_type().is_ok_and(|t| t.is_file());
                    match inner.file_name().to_str() {
                        Some(n) if is_file && looks_like_sitemap(n, file_name) => {
                            candidates.insert(format!("{}{name}/{n}", host.folder));
                        }
                        _ => {}
                    }
                }
            }
        }
        if let Ok(robots) = crate::vocab::fsread::read(&top.join(ROBOTS_NAME), MAX_ROBOTS) {
            for url in robots_sitemaps(&robots) {
                if let Some(rel) = below(host, &url) {
                    candidates.insert(rel);
                }
            }
        }
    }
    // The parts any index among them lists, one level down (an index never lists an index).
    let indexes: Vec<String> = candidates.iter().cloned().collect();
    for rel in indexes {
        let path = root.join(&rel);
        let Ok(sitemap) = Sitemap::open(&path, Gzip::ByName) else {
            continue;
        };
        if sitemap.root().kind != SitemapKind::SitemapIndex {
            continue;
        }
        let Some(host) = hosts
            .iter()
            .filter(|h| rel.starts_with(h.folder))
            .max_by_key(|h| h.folder.len())
        else {
            continue;
        };
        for entry in sitemap
            .map_while(Result::ok)
            .take(crate::vocab::protocol::MAX_URLS)
        {
            if let Some(part) = Url::parse(&entry.loc).ok().and_then(|u| below(host, &u)) {
                candidates.insert(part);
            }
        }
    }
    candidates
        .into_iter()
        .filter(|rel| !written.contains(rel.as_str()) && !rel.ends_with(LEGACY_RECORD_NAME))
        .filter(|rel| {
            // Ours and no longer written: the writer removes it (and `check` names it).
            record.is_none_or(|r| r.ownership(root, rel) != Ownership::Ours)
        })
        .filter(|rel| {
            let path = root.join(rel);
            fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) && sniff_kind(&path).is_some()
        })
        .collect()
}

/// Whether a file name is a sitemap's as generators name them: it contains `sitemap` (any
/// case) and ends in `.xml` or `.xml.gz`, or it is the configured name.
fn looks_like_sitemap(name: &str, file_name: &str) -> bool {
    if name.starts_with('.') {
        return false;
    }
    if name == file_name || name.strip_suffix(".gz") == Some(file_name) {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    lower.contains("sitemap") && (lower.ends_with(".xml") || lower.ends_with(".xml.gz"))
}

/// Whether a folder name looks like a language code: two or three letters, then optional
/// `-` subtags (`en`, `pt-br`, `zh-hant-tw`).
fn looks_like_language(name: &str) -> bool {
    let mut parts = name.split('-');
    let first = parts.next().unwrap_or_default();
    (2..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && crate::vocab::langtag::is_well_formed(name)
}

/// The URLs the `Sitemap:` lines of a robots.txt name.
fn robots_sitemaps(robots: &[u8]) -> Vec<Url> {
    String::from_utf8_lossy(robots)
        .lines()
        .filter_map(|line| {
            let line = line.trim_start_matches('\u{feff}').trim();
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case("sitemap")
                .then(|| Url::parse(value.split('#').next()?.trim()).ok())
                .flatten()
        })
        .collect()
}

/// The path below the output folder of a URL served from `host`'s folder, when it names a
/// file there (no query, no fragment, nothing above the folder).
fn below(host: &SiteRoot<'_>, url: &Url) -> Option<String> {
    if url.origin() != host.base.origin() || url.query().is_some() || url.fragment().is_some() {
        return None;
    }
    let rest = url.path().strip_prefix(host.base.path())?;
    let rel = crate::vocab::loc::decoded(rest);
    let safe = !rel.is_empty()
        && !rel.ends_with('/')
        && rel
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && !p.contains('\\'));
    safe.then(|| format!("{}{rel}", host.folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    const URLSET: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.org/</loc></url></urlset>\n";

    fn index(locs: &[&str]) -> String {
        let mut s = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
        );
        for l in locs {
            s.push_str(&format!("<sitemap><loc>{l}</loc></sitemap>"));
        }
        s + "</sitemapindex>\n"
    }

    #[test]
    fn the_generators_sitemaps_and_robots_lines_are_found() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        let put = |rel: &str, text: &str| {
            let p = root.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        put(
            "sitemap.xml",
            &index(&[
                "https://e.org/en/sitemap.xml",
                "https://e.org/de/sitemap.xml",
            ]),
        );
        put("en/sitemap.xml", URLSET);
        put("de/sitemap.xml", URLSET);
        put("fr/sitemap.xml", URLSET);
        put("blog/sitemap.xml", URLSET);
        put("news.xml", URLSET);
        put("other/feed.xml", URLSET);
        put("sitemap-notes.xml", "not a sitemap");
        put(
            "robots.txt",
            "User-agent: *\nSitemap: https://e.org/news.xml\nSitemap: https://elsewhere.org/x.xml\n",
        );
        let base = Url::parse("https://e.org/").unwrap();
        let hosts = [SiteRoot {
            folder: "",
            base: &base,
        }];
        let written: HashSet<&str> = ["sitemap.xml"].into();
        let found = find(root, &hosts, &written, None, "sitemap.xml", &["en".into()]);
        // blog/ is no language's folder; feed.xml no sitemap's name; sitemap-notes.xml no
        // sitemap at all.
        assert_eq!(
            found,
            [
                "de/sitemap.xml",
                "en/sitemap.xml",
                "fr/sitemap.xml",
                "news.xml"
            ]
        );
    }

    #[test]
    fn ours_by_the_record_are_not_foreign_unless_they_changed() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        fs::write(root.join("sitemap.xml.gz"), URLSET).unwrap();
        fs::write(root.join("sitemap1.xml"), URLSET).unwrap();
        let mut r = Record::default();
        r.insert(
            "sitemap.xml.gz",
            super::super::owned::Stamp::of(URLSET.as_bytes()),
        );
        r.insert(
            "sitemap1.xml",
            super::super::owned::Stamp::of(b"what we wrote"),
        );
        let base = Url::parse("https://e.org/").unwrap();
        let hosts = [SiteRoot {
            folder: "",
            base: &base,
        }];
        let found = find(root, &hosts, &HashSet::new(), Some(&r), "sitemap.xml", &[]);
        assert_eq!(found, ["sitemap1.xml"]);
    }

    #[test]
    fn language_folders() {
        for yes in ["en", "fr", "pt-br", "zh-hant-tw", "ast"] {
            assert!(looks_like_language(yes), "{yes}");
        }
        for no in ["blog", "posts", "a", "p2", "en_us", "docs"] {
            assert!(!looks_like_language(no), "{no}");
        }
    }
}
