//! The audit's reading, started before the URLs are known. The sitemap already in the output
//! folder (the generator's, or our last run's) names nearly every page a run will list: a
//! thread reads their heads while scan, front matter, route and lastmod run, keyed by file.
//! The audit stage then looks heads up instead of opening a file per URL, and reads the rest
//! itself. A head read ahead is the same file's head: the verdicts do not change.

use super::files;
use super::head::{read_head, HeadFacts};
use crate::config::{AuditMode, Settings};
use crate::sitemap::loc;
use crate::sitemap::read::{Gzip, Sitemap, SitemapKind};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use url::Url;

/// The most heads kept: a few bytes each, so memory stays bounded on any output folder.
const MAX_HEADS: usize = 1 << 19;

/// A head as kept: most pages say nothing, or only name their own URL canonical.
#[derive(Debug)]
enum Kept {
    /// No robots, canonical or refresh tag.
    Silent,
    /// Only a canonical link to the URL the file is served at under `base_url`.
    OwnCanonical,
    /// Anything else, in full.
    Other(Box<HeadFacts>),
}

/// The heads read so far, keyed by path below the output folder (`/`-separated).
#[derive(Debug, Default)]
pub struct Heads {
    dir: PathBuf,
    base: Option<Url>,
    kept: HashMap<Box<str>, Kept>,
}

impl Heads {
    /// What the head of a file below `root` (a folder inside the output folder) says, when
    /// it was read: the lookup gives `None` for a file not read (or not there when read).
    pub fn below(&self, root: &Path) -> impl Fn(&str) -> Option<HeadFacts> + Sync + '_ {
        // A multihost language's folder lies below the output folder.
        let prefix = match files::rel_of(&self.dir, root) {
            Some(p) if !self.kept.is_empty() => Some(p),
            _ => None,
        };
        move |rel| {
            let prefix = prefix.as_deref()?;
            let full = match prefix.is_empty() {
                true => Cow::Borrowed(rel),
                false => Cow::Owned(format!("{prefix}/{rel}")),
            };
            self.facts(&full)
        }
    }

    /// The head of `full` (below the output folder), when it was read.
    fn facts(&self, full: &str) -> Option<HeadFacts> {
        Some(match self.kept.get(full)? {
            Kept::Silent => HeadFacts::default(),
            Kept::OwnCanonical => HeadFacts {
                canonical: Some(own_url(self.base.as_ref()?, full)),
                ..HeadFacts::default()
            },
            Kept::Other(facts) => (**facts).clone(),
        })
    }
}

/// The URL a built file is served at under `base`.
fn own_url(base: &Url, rel: &str) -> String {
    loc::absolute(base, &files::url_path(rel))
}

/// Heads being read on a thread of their own.
#[derive(Debug, Default)]
pub struct Prefetch {
    thread: Option<JoinHandle<Heads>>,
    stop: Arc<AtomicBool>,
}

/// Starts reading the heads of the pages the sitemap in the output folder lists, when the
/// audit is on and the folder holds a built site (an `index.html` at its root) and a sitemap;
/// otherwise does nothing.
pub fn start(settings: &Settings) -> Prefetch {
    let dir = settings.output_dir.clone();
    let gz = if settings.gzip { ".gz" } else { "" };
    let sitemap = dir.join(format!("{}{gz}", settings.file_name));
    let built = dir.join("index.html").is_file() && sitemap.is_file();
    if settings.audit == AuditMode::Off || !built {
        return Prefetch::default();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (flag, base) = (stop.clone(), settings.base_url.clone());
    let thread = std::thread::Builder::new()
        .name("audit-heads".into())
        .spawn(move || read_all(dir, base, &sitemap, &flag))
        .ok();
    Prefetch { thread, stop }
}

impl Prefetch {
    /// Stops the reading (the audit reads the rest itself, in parallel) and takes what was read.
    pub fn finish(mut self) -> Heads {
        self.stop.store(true, Ordering::Relaxed);
        let heads = self.thread.take().map(JoinHandle::join);
        heads.and_then(Result::ok).unwrap_or_default()
    }
}

impl Drop for Prefetch {
    fn drop(&mut self) {
        // A run that ends early (an error) leaves no thread reading behind it.
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Reads the heads of the pages the sitemap on disk lists (the generator's, or the last
/// run's) until `stop` is set or [`MAX_HEADS`] are kept. Which file serves each URL is found
/// as the audit finds it; a page the old sitemap does not list is left to the audit.
fn read_all(dir: PathBuf, base: Url, sitemap: &Path, stop: &AtomicBool) -> Heads {
    let mut kept = HashMap::new();
    for loc in listed(&dir, &base, sitemap) {
        if stop.load(Ordering::Relaxed) || kept.len() >= MAX_HEADS {
            break;
        }
        let Some(Some(files::Served {
            rel,
            html: Some(files::Page::Open(file)),
        })) = files::served(&dir, base.as_str(), &loc)
        else {
            continue;
        };
        // A folder named like a page fails here: the audit judges it itself.
        if let Ok(facts) = read_head(file) {
            let k = keep(facts, &base, &rel);
            kept.insert(rel.into_boxed_str(), k);
        }
    }
    Heads {
        dir,
        base: Some(base),
        kept,
    }
}

/// The locs a sitemap file lists, the parts of an index (in `dir`, below `base`) included.
fn listed(dir: &Path, base: &Url, sitemap: &Path) -> Vec<String> {
    let mut locs = Vec::new();
    let mut parts = vec![sitemap.to_path_buf()];
    let mut first = true;
    while let Some(file) = parts.pop() {
        let Ok(map) = Sitemap::open(&file, Gzip::ByNameOrMagic) else {
            continue;
        };
        // Only the named file may be an index: its parts hold URLs.
        let index = std::mem::take(&mut first) && map.root().kind == SitemapKind::SitemapIndex;
        for entry in map.map_while(Result::ok) {
            match entry.loc.strip_prefix(base.as_str()) {
                Some(part) if index && !part.contains('/') => parts.push(dir.join(part)),
                _ if !index => locs.push(entry.loc),
                _ => {}
            }
        }
    }
    locs
}

/// A head in its smallest form.
fn keep(facts: HeadFacts, base: &Url, rel: &str) -> Kept {
    match facts {
        HeadFacts {
            noindex: false,
            canonical: None,
            refresh: None,
        } => Kept::Silent,
        HeadFacts {
            noindex: false,
            canonical: Some(c),
            refresh: None,
        } if c == own_url(base, rel) => Kept::OwnCanonical,
        other => Kept::Other(Box::new(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://e.org/docs/";

    /// An output folder with these pages (file, head) and a sitemap listing `urls` (below
    /// [`BASE`]) in two parts of an index.
    fn site(pages: &[(&str, &str)], urls: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (f, head) in pages {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, format!("<html><head>{head}</head><body></body></html>")).unwrap();
        }
        let ns = r#"xmlns="http://www.sitemaps.org/schemas/sitemap/0.9""#;
        let (one, two) = urls.split_at(urls.len() / 2);
        for (part, urls) in [("sitemap1.xml", one), ("sitemap2.xml", two)] {
            let body: String = urls
                .iter()
                .map(|u| format!("<url><loc>{BASE}{u}</loc></url>"))
                .collect();
            let xml = format!("<urlset {ns}>{body}</urlset>");
            std::fs::write(d.path().join(part), xml).unwrap();
        }
        let index = format!(
            "<sitemapindex {ns}><sitemap><loc>{BASE}sitemap1.xml</loc></sitemap>\
             <sitemap><loc>{BASE}sitemap2.xml</loc></sitemap></sitemapindex>"
        );
        std::fs::write(d.path().join("sitemap.xml"), index).unwrap();
        d
    }

    fn read(d: &Path, stop: bool) -> Heads {
        let sitemap = d.join("sitemap.xml");
        let base = Url::parse(BASE).unwrap();
        read_all(d.to_path_buf(), base, &sitemap, &AtomicBool::new(stop))
    }

    #[test]
    fn heads_read_ahead_are_what_the_audit_would_read() {
        let pages = [
            ("index.html", ""),
            (
                "a/index.html",
                r#"<link rel="canonical" href="https://e.org/docs/a/">"#,
            ),
            (
                "b.html",
                r#"<link rel="canonical" href="https://e.org/docs/b.html">"#,
            ),
            (
                "c/index.html",
                r#"<link rel="canonical" href="https://e.org/docs/a/">"#,
            ),
            ("d/index.html", r#"<meta name="robots" content="NOINDEX">"#),
            (
                "en/x/index.html",
                r#"<meta http-equiv="refresh" content="0; url=/y/">"#,
            ),
            ("unlisted/index.html", ""),
        ];
        let urls = ["", "a/", "b", "c/", "d/", "en/x/", "gone/", "feed.xml"];
        let d = site(&pages, &urls);
        let heads = read(d.path(), false);
        for (rel, _) in &pages[..6] {
            let direct = read_head(std::fs::File::open(d.path().join(rel)).unwrap()).unwrap();
            assert_eq!(heads.below(d.path())(rel), Some(direct), "{rel}");
        }
        assert!(matches!(heads.kept["a/index.html"], Kept::OwnCanonical));
        assert!(matches!(heads.kept["b.html"], Kept::OwnCanonical));
        assert!(matches!(heads.kept["c/index.html"], Kept::Other(_)));
        // A language's folder below the output finds its files under their full path.
        let en = d.path().join("en");
        assert!(heads.below(&en)("x/index.html").is_some_and(|f| f.refresh.is_some()));
        // What the old sitemap does not list, or no file serves, is left to the audit.
        assert_eq!(heads.below(d.path())("unlisted/index.html"), None);
        assert_eq!(heads.below(d.path())("gone/index.html"), None);
        assert_eq!(heads.kept.len(), 6);
    }

    #[test]
    fn a_stopped_read_keeps_nothing_it_did_not_finish() {
        let d = site(&[("index.html", ""), ("a/index.html", "")], &["", "a/"]);
        let stopped = read(d.path(), true);
        assert!(stopped.kept.is_empty());
        assert_eq!(stopped.below(d.path())("index.html"), None);
    }
}
