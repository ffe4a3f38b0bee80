//! Which file in the output folder serves a URL, and which URL a built file is served at:
//! the two directions of the mapping static hosts (and the generators' `public/`) follow.

use crate::sitemap::loc;
use std::fs::File;
use std::path::{Component, Path};

/// A file that serves a URL, opened (so the head can be read without a second lookup).
#[derive(Debug)]
pub struct Served {
    /// Its path below the output root, `/`-separated, as the set of served files keys it.
    pub rel: String,
    /// The open file, when it is HTML (whose head the audit reads).
    pub html: Option<File>,
}

/// The file below `root` that serves `loc` (absolute, percent-encoded) on the site at
/// `base` (absolute, ending in `/`): `path/index.html`, the ugly `path.html` for a URL without
/// a trailing slash, or the file itself for a URL with an extension. `None` when `loc` is not
/// below `base`; `Some(None)` when no such file exists.
pub fn served(root: &Path, base: &str, loc: &str) -> Option<Option<Served>> {
    let rest = loc.strip_prefix(base)?;
    // A query or fragment names no file.
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let decoded = loc::decode(rest);
    Some(
        candidates(&decoded)
            .into_iter()
            .find_map(|rel| open(root, rel)),
    )
}

/// The files that may serve a decoded URL path below the base, most likely first.
fn candidates(path: &str) -> Vec<String> {
    if path.is_empty() || path.ends_with('/') {
        return vec![format!("{path}index.html")];
    }
    let last = path.rsplit('/').next().unwrap_or(path);
    if last.contains('.') {
        vec![path.to_string(), format!("{path}/index.html")]
    } else {
        vec![format!("{path}/index.html"), format!("{path}.html")]
    }
}

/// Opens `rel` below `root` when it is a regular file and stays inside `root`.
fn open(root: &Path, rel: String) -> Option<Served> {
    let inside = Path::new(&rel)
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    if !inside {
        return None;
    }
    let path = root.join(&rel);
    if is_html(&rel) {
        // A folder opens too, but reading it fails: the head reader then says so.
        let file = File::open(&path).ok()?;
        return Some(Served {
            rel,
            html: Some(file),
        });
    }
    path.is_file().then_some(Served { rel, html: None })
}

/// Whether a file name is an HTML page's.
pub fn is_html(name: &str) -> bool {
    let lower = name.rsplit('.').next().unwrap_or_default();
    lower.eq_ignore_ascii_case("html") || lower.eq_ignore_ascii_case("htm")
}

/// The decoded URL path (below the base, no leading `/`) a built file is served at:
/// `blog/index.html` at `blog/`, `about.html` at `about.html`.
pub fn url_path(rel: &str) -> String {
    match rel.strip_suffix("index.html") {
        Some(dir) if dir.is_empty() || dir.ends_with('/') => dir.to_string(),
        _ => rel.to_string(),
    }
}

/// `rel` of a path below `root`, `/`-separated; `None` for a name that is not UTF-8 (no
/// route makes one, so no URL of ours is served by it).
pub fn rel_of(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "<html></html>").unwrap();
        }
        d
    }

    fn found(root: &Path, base: &str, loc: &str) -> Option<String> {
        served(root, base, loc).unwrap().map(|s| s.rel)
    }

    #[test]
    fn pretty_ugly_and_extension_forms() {
        let d = tree(&[
            "index.html",
            "blog/post/index.html",
            "about.html",
            "feed.xml",
        ]);
        let b = "https://e.org/";
        assert_eq!(
            found(d.path(), b, "https://e.org/"),
            Some("index.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/blog/post/"),
            Some("blog/post/index.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/blog/post"),
            Some("blog/post/index.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/about"),
            Some("about.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/about.html"),
            Some("about.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/feed.xml"),
            Some("feed.xml".into())
        );
        // A trailing slash is served by index.html only; a folder is no file.
        assert_eq!(found(d.path(), b, "https://e.org/about/"), None);
        assert_eq!(found(d.path(), b, "https://e.org/blog.xml"), None);
        assert_eq!(
            found(d.path(), b, "https://e.org/blog/post/?q=1#x"),
            Some("blog/post/index.html".into())
        );
    }

    #[test]
    fn decodes_and_strips_the_base_path() {
        let d = tree(&["über uns/index.html", "a%20b/index.html"]);
        let b = "https://e.org/docs/";
        assert_eq!(
            found(d.path(), b, "https://e.org/docs/%C3%BCber%20uns/"),
            Some("über uns/index.html".into())
        );
        assert_eq!(
            found(d.path(), b, "https://e.org/docs/a%2520b/"),
            Some("a%20b/index.html".into())
        );
        assert!(served(d.path(), b, "https://e.org/other/").is_none());
        // Nothing outside the root is ever looked at.
        assert_eq!(found(d.path(), b, "https://e.org/docs/%2E%2E/x/"), None);
    }

    #[test]
    fn built_files_map_back_to_url_paths() {
        assert_eq!(url_path("index.html"), "");
        assert_eq!(url_path("blog/index.html"), "blog/");
        assert_eq!(url_path("about.html"), "about.html");
        assert_eq!(url_path("myindex.html"), "myindex.html");
    }
}
