//! Which file in the output folder serves a URL, and which URL a built file is served at:
//! the two directions of the mapping static hosts (and the generators' `public/`) follow.

use crate::sitemap::loc;
use std::fs::File;
use std::path::{Component, Path, PathBuf};

/// A file that serves a URL, opened (so the head can be read without a second lookup).
#[derive(Debug)]
pub struct Served {
    /// Its path: the output root joined with the file's path below it.
    pub path: PathBuf,
    /// The open file, when it is HTML (whose head the audit reads).
    pub html: Option<File>,
}

/// The file below `root` that serves the URL whose part below the site's base URL is `below`
/// (percent-encoded, no leading `/`): `path/index.html`, the ugly `path.html` for a URL
/// without a trailing slash, or the file itself for a URL with an extension. `None` when no
/// such file exists.
pub fn served(root: &Path, below: &str) -> Option<Served> {
    // A query or fragment names no file.
    let below = below.split(['?', '#']).next().unwrap_or_default();
    let path = loc::decoded(below);
    // Nothing outside the root is ever looked at.
    if !Path::new(&*path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let mut file = root.join(&*path);
    if path.is_empty() || path.ends_with('/') {
        file.push("index.html");
        return open(file);
    }
    let last = path.rsplit('/').next().unwrap_or(&path);
    if last.contains('.') {
        // The file itself, else a folder of that name with an index.
        return open(file.clone()).or_else(|| open(file.join("index.html")));
    }
    file.push("index.html");
    open(file.clone()).or_else(|| {
        file.pop();
        file.as_mut_os_string().push(".html");
        open(file)
    })
}

/// Opens `path` when it is a regular file (an HTML one for reading).
fn open(path: PathBuf) -> Option<Served> {
    if is_html(path.file_name()?.to_str()?) {
        // A folder opens too, but reading it fails: the head reader then says so.
        let file = File::open(&path).ok()?;
        return Some(Served {
            path,
            html: Some(file),
        });
    }
    path.is_file().then_some(Served { path, html: None })
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
        let below = loc.strip_prefix(base).expect("below the base");
        served(root, below).map(|s| rel_of(root, &s.path).expect("a UTF-8 path"))
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
