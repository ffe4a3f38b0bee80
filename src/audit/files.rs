//! Which file in the output folder serves a URL, and which URL a built file is served at:
//! the two directions of the mapping static hosts (and the generators' `public/`) follow.

use crate::vocab::fsread::{self, FileKind, Folder, ReadError};
use crate::vocab::loc;
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

/// What the output folder holds for a URL.
#[derive(Debug)]
pub enum Lookup {
    /// No file serves it.
    Missing,
    /// The file that serves it.
    Served(Served),
    /// A file is there but cannot be read (no permission, a FIFO or device, a link leaving
    /// the output folder): it is not judged, and the reason is said.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why it was not read.
        why: String,
    },
}

/// The file below `root` that serves the URL whose part below the site's base URL is `below`
/// (percent-encoded, no leading `/`): `path/index.html`; for a URL without a trailing slash
/// also the file itself and the ugly `path.html`. `folder` is
/// `root` with its links resolved: nothing outside it is read.
pub fn served(root: &Path, folder: &Folder, below: &str) -> Lookup {
    // A query or fragment names no file.
    let below = below.split(['?', '#']).next().unwrap_or_default();
    let path = loc::decoded(below);
    // Nothing outside the root is ever looked at.
    if !Path::new(&*path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return Lookup::Missing;
    }
    let file = root.join(&*path);
    let candidates: Vec<PathBuf> = if path.is_empty() || path.ends_with('/') {
        vec![file.join("index.html")]
    } else if path.rsplit('/').next().unwrap_or(&path).contains('.') {
        // The file itself, else a folder of that name with an index.
        vec![file.clone(), file.join("index.html")]
    } else {
        // A file of that very name first (Hugo writes a page whose `url` is `/v1.2/x` to
        // `v1.2/x`), then the forms a host serves for a pretty or an ugly URL.
        let mut ugly = file.clone().into_os_string();
        ugly.push(".html");
        vec![file.clone(), file.join("index.html"), PathBuf::from(ugly)]
    };
    for path in candidates {
        match open(path, folder) {
            Lookup::Missing => {}
            found => return found,
        }
    }
    Lookup::Missing
}

/// Opens `path` when it is a regular file inside `folder` (an HTML one kept open for
/// reading); a folder or nothing at all serves nothing.
fn open(path: PathBuf, folder: &Folder) -> Lookup {
    match fsread::open_in(&path, folder) {
        Ok(file) => {
            let html = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_html)
                .then_some(file);
            Lookup::Served(Served { path, html })
        }
        Err(ReadError::NotAFile(FileKind::Folder)) => Lookup::Missing,
        Err(ReadError::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Lookup::Missing
        }
        Err(e) => Lookup::Unreadable {
            path,
            why: e.to_string(),
        },
    }
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
        let folder = Folder::new(root).unwrap();
        match served(root, &folder, below) {
            Lookup::Served(s) => Some(rel_of(root, &s.path).expect("a UTF-8 path")),
            Lookup::Missing => None,
            Lookup::Unreadable { path, why } => panic!("{}: {why}", path.display()),
        }
    }

    #[test]
    fn pretty_ugly_and_extension_forms() {
        let d = tree(&[
            "index.html",
            "blog/post/index.html",
            "about.html",
            "feed.xml",
            "v1.2/x",
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
        // A file without an extension, as Hugo writes for `url: /v1.2/x`.
        assert_eq!(
            found(d.path(), b, "https://e.org/v1.2/x"),
            Some("v1.2/x".into())
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

    #[cfg(unix)]
    #[test]
    fn files_that_cannot_be_read_are_told_from_missing_ones() {
        let outside = tree(&["private.html"]);
        let d = tree(&["index.html", "in/index.html"]);
        let link = |target: &Path, at: &str| {
            std::fs::create_dir_all(d.path().join(at).parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(target, d.path().join(at)).unwrap();
        };
        link(&outside.path().join("private.html"), "out/index.html");
        link(&d.path().join("in/index.html"), "alias/index.html");
        link(Path::new("/dev/zero"), "zero/index.html");
        link(&d.path().join("gone.html"), "dangling/index.html");
        std::fs::create_dir_all(d.path().join("folder.html")).unwrap();
        let ok = std::process::Command::new("mkfifo")
            .arg(d.path().join("fifo.html"))
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok);
        let folder = Folder::new(d.path()).unwrap();
        let look = |below: &str| match served(d.path(), &folder, below) {
            Lookup::Served(s) => format!("served {}", rel_of(d.path(), &s.path).unwrap()),
            Lookup::Missing => "missing".into(),
            Lookup::Unreadable { why, .. } => format!("unreadable: {why}"),
        };
        assert_eq!(look("alias/"), "served alias/index.html");
        assert!(look("out/").starts_with("unreadable: a link that leads outside"));
        assert_eq!(
            look("zero/"),
            "unreadable: not a regular file (a character device)"
        );
        assert_eq!(look("fifo.html"), "unreadable: not a regular file (a FIFO)");
        assert_eq!(look("dangling/"), "missing");
        // A folder named like a page serves nothing itself; an index in it does.
        assert_eq!(look("folder.html"), "missing");
        std::fs::write(d.path().join("folder.html/index.html"), "x").unwrap();
        assert_eq!(look("folder.html"), "served folder.html/index.html");
    }

    #[test]
    fn built_files_map_back_to_url_paths() {
        assert_eq!(url_path("index.html"), "");
        assert_eq!(url_path("blog/index.html"), "blog/");
        assert_eq!(url_path("about.html"), "about.html");
        assert_eq!(url_path("myindex.html"), "myindex.html");
    }
}
