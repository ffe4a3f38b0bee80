//! Scan: the content files of a site, in a stable order, with exclusions applied.

use crate::error::{Error, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The content files found by the scan, in scan order. A large site keeps this for the whole
/// run, so every relative path lives in one buffer: about 4 bytes a file beside the path
/// itself, not a 24-byte record and an allocation of its own per file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files {
    /// Every relative path, one after another.
    text: String,
    /// Where each file's path ends in `text`.
    ends: Vec<u32>,
    /// Each content root with the index of its first file, in file order.
    roots: Vec<(usize, ContentRoot)>,
}

/// The error for a scan whose paths pass 4 GiB in all, at `rel` below `root`.
fn too_long(root: &ContentRoot, rel: &str) -> Error {
    Error::input(
        root.dir.join(rel),
        None,
        "the content files' paths add up to more than 4 GiB: scan fewer files",
    )
}

/// One content file: its path relative to its content root and the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFile<'a> {
    /// Path relative to its content root, `/`-separated (`blog/post.md`).
    pub rel: &'a str,
    /// The content root it was found in.
    pub root: &'a ContentRoot,
}

impl<'a> SourceFile<'a> {
    /// Path on disk (the content root joined with the relative path).
    pub fn path(&self) -> PathBuf {
        self.root.dir.join(self.rel)
    }

    /// The language of the content root it was found in (Hugo per-language `contentDir`).
    pub fn root_lang(&self) -> Option<&'a str> {
        self.root.lang.as_deref()
    }
}

impl Files {
    /// No files.
    pub fn new() -> Files {
        Files::default()
    }

    /// How many files.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// File `i`; panics past the end, as slice indexing does.
    pub fn get(&self, i: usize) -> SourceFile<'_> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        // The roots are few and in file order: the last one starting at or before `i`.
        let r = self.roots.partition_point(|(first, _)| *first <= i);
        SourceFile {
            rel: &self.text[start..self.ends[i] as usize],
            root: &self.roots[r.saturating_sub(1)].1,
        }
    }

    /// Every file, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = SourceFile<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds a file at `rel` below `root`; an error once the paths pass 4 GiB in all.
    pub fn push(&mut self, root: &ContentRoot, rel: &str) -> Result<()> {
        if self.roots.last().is_none_or(|(_, r)| r != root) {
            self.roots.push((self.len(), root.clone()));
        }
        self.text.push_str(rel);
        let end = u32::try_from(self.text.len()).map_err(|_| too_long(root, rel))?;
        self.ends.push(end);
        Ok(())
    }

    /// Adds every file of `other` after these: its paths copied as one block, its ends and
    /// roots shifted (a root that goes on from this one's last is not repeated).
    pub fn append(&mut self, other: &Files) -> Result<()> {
        let base = self.text.len();
        if u32::try_from(base + other.text.len()).is_err() {
            let first = other.get(0);
            return Err(too_long(first.root, first.rel));
        }
        let first = self.len();
        for (start, root) in &other.roots {
            if *start == 0 && self.roots.last().is_some_and(|(_, r)| r == root) {
                continue;
            }
            self.roots.push((first + start, root.clone()));
        }
        self.text.push_str(&other.text);
        // Every shifted end is at most the new length, which fits (checked above).
        self.ends.extend(other.ends.iter().map(|e| e + base as u32));
        Ok(())
    }

    /// Gives back the spare capacity of a buffer filled by pushing.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// One folder to scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentRoot {
    /// The folder.
    pub dir: PathBuf,
    /// Its language, when the site keeps one content folder per language.
    pub lang: Option<String>,
}

/// What counts as a page and what is skipped.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Page file extensions, without the dot (compared exactly: Zola ignores `.MD`).
    pub extensions: Vec<String>,
    /// Skip folders whose name starts with `.` (Zola publishes them; Hugo does not).
    pub skip_hidden_dirs: bool,
    /// Globs over the content-relative path; a match drops the file.
    pub exclude: Vec<String>,
    /// Globs over the file's absolute path, as Zola matches its `ignored_content` (the
    /// content folder canonicalized, then the file's relative path): `*.tmp.md` and
    /// `**/drafts/**` match, `drafts/**` matches nothing.
    pub ignored_absolute: Vec<String>,
}

/// Builds a glob set, naming the bad pattern on error.
pub fn glob_set(patterns: &[String], origin: &Path) -> Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        let g = Glob::new(p)
            .map_err(|e| Error::config(origin, None, format!("bad glob '{p}': {e}")))?;
        b.add(g);
    }
    b.build()
        .map_err(|e| Error::config(origin, None, format!("bad globs: {e}")))
}

/// Walks every root in sorted order and returns the page files.
pub fn scan(roots: &[ContentRoot], opts: &ScanOptions, origin: &Path) -> Result<Files> {
    let exclude = glob_set(&opts.exclude, origin)?;
    let ignored = glob_set(&opts.ignored_absolute, origin)?;
    let mut out = Files::new();
    for root in roots {
        // A language's own `contentDir` may not exist yet (nothing translated): Hugo builds
        // that language with no pages, and so do we. The site's content folder must exist.
        if root.lang.is_some() && !root.dir.exists() {
            continue;
        }
        if !root.dir.is_dir() {
            return Err(Error::config(
                origin,
                None,
                format!(
                    "content folder {} does not exist: set content_dir or --content",
                    root.dir.display()
                ),
            ));
        }
        let canonical_root = root
            .dir
            .canonicalize()
            .map_err(|e| Error::io(&root.dir, e))?;
        // Each top-level entry is walked on its own core; concatenated in sorted order, the
        // result is exactly what one sorted walk would give.
        let mut top: Vec<PathBuf> = std::fs::read_dir(&root.dir)
            .map_err(|e| Error::io(&root.dir, e))?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::io(&root.dir, e))?;
        top.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        let walk = Walk {
            root,
            canonical_root: &canonical_root,
            opts,
            exclude: &exclude,
            ignored: &ignored,
        };
        let parts = top
            .par_iter()
            .map(|p| walk.subtree(p))
            .collect::<Result<Vec<Files>>>()?;
        // Sized once: a million paths would otherwise be copied as the buffer doubles.
        out.text.reserve(parts.iter().map(|p| p.text.len()).sum());
        out.ends.reserve(parts.iter().map(Files::len).sum());
        for part in parts {
            out.append(&part)?;
        }
    }
    out.shrink_to_fit();
    Ok(out)
}

/// One content root's walk, shared by the tasks that walk its top-level entries.
struct Walk<'a> {
    root: &'a ContentRoot,
    canonical_root: &'a Path,
    opts: &'a ScanOptions,
    exclude: &'a GlobSet,
    ignored: &'a GlobSet,
}

impl Walk<'_> {
    /// The page files at or below `start` (a top-level file or folder of the root), sorted.
    fn subtree(&self, start: &Path) -> Result<Files> {
        let mut out = Files::new();
        let walker = WalkDir::new(start)
            .follow_links(false)
            // Siblings share their parent's path string, so comparing whole paths as bytes
            // orders them by file name, without parsing each path's components per compare.
            .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
            .into_iter()
            .filter_entry(|e| {
                let hidden = e.file_name().as_encoded_bytes().first() == Some(&b'.');
                // Hidden files are never pages; hidden folders depend on the generator.
                !(hidden && (!e.file_type().is_dir() || self.opts.skip_hidden_dirs))
            });
        for entry in walker {
            let entry = entry.map_err(|e| {
                let path = e
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| start.to_path_buf());
                Error::io(
                    path,
                    e.into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("filesystem loop")),
                )
            })?;
            let ft = entry.file_type();
            let path = entry.path();
            if ft.is_symlink() {
                // A link is followed only when it stays inside the content tree.
                let Ok(target) = path.canonicalize() else {
                    continue;
                };
                if !target.starts_with(self.canonical_root) || !target.is_file() {
                    continue;
                }
            } else if !ft.is_file() {
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !self.opts.extensions.iter().any(|x| x == ext) {
                continue;
            }
            let rel_path = path.strip_prefix(&self.root.dir).unwrap_or(path);
            let Some(rel) = rel_path.to_str() else {
                return Err(Error::input(
                    path,
                    None,
                    "the file name is not valid UTF-8: rename it",
                ));
            };
            let rel: Cow<str> = if rel.contains('\\') {
                rel.replace('\\', "/").into()
            } else {
                rel.into()
            };
            if self.exclude.is_match(&*rel)
                || (!self.ignored.is_empty()
                    && self.ignored.is_match(self.canonical_root.join(&*rel)))
            {
                continue;
            }
            out.push(self.root, &rel)?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        d
    }

    fn rels(d: &Path, opts: &ScanOptions) -> Vec<String> {
        let roots = [ContentRoot {
            dir: d.to_path_buf(),
            lang: None,
        }];
        scan(&roots, opts, Path::new("t"))
            .unwrap()
            .iter()
            .map(|f| f.rel.to_string())
            .collect()
    }

    #[test]
    fn files_keep_each_path_with_its_own_root() {
        let root = |d: &str, lang: Option<&str>| ContentRoot {
            dir: d.into(),
            lang: lang.map(String::from),
        };
        let (en, fr) = (root("content", None), root("content.fr", Some("fr")));
        let mut part = Files::new();
        part.push(&fr, "b/c.md").unwrap();
        part.push(&fr, "é.md").unwrap();
        let mut files = Files::new();
        files.push(&en, "a.md").unwrap();
        files.push(&en, "").unwrap();
        files.append(&part).unwrap();
        files.push(&en, "z.md").unwrap();
        let got: Vec<(&str, Option<&str>, PathBuf)> = files
            .iter()
            .map(|f| (f.rel, f.root_lang(), f.path()))
            .collect();
        assert_eq!(
            got,
            [
                ("a.md", None, PathBuf::from("content/a.md")),
                ("", None, PathBuf::from("content")),
                ("b/c.md", Some("fr"), PathBuf::from("content.fr/b/c.md")),
                ("é.md", Some("fr"), PathBuf::from("content.fr/é.md")),
                ("z.md", None, PathBuf::from("content/z.md")),
            ]
        );
        assert_eq!(files.len(), 5);
        assert!(Files::new().is_empty());
        // A part that goes on in the last root adds no root of its own.
        let mut more = Files::new();
        more.push(&en, "zz.md").unwrap();
        files.append(&more).unwrap();
        files.append(&Files::new()).unwrap();
        assert_eq!(files.roots.len(), 3);
        assert_eq!(files.get(5).path(), PathBuf::from("content/zz.md"));
    }

    #[test]
    fn finds_pages_sorted_and_skips_the_rest() {
        let d = tree(&[
            "b.md",
            "a/_index.md",
            "a/x.md",
            ".hidden.md",
            ".dir/y.md",
            "UP.MD",
            "n.txt",
            "o.markdown",
            "wip.tmp.md",
        ]);
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: false,
            exclude: vec!["*.tmp.md".into()],
            ignored_absolute: vec![],
        };
        assert_eq!(
            rels(d.path(), &opts),
            [".dir/y.md", "a/_index.md", "a/x.md", "b.md"]
        );
        let opts = ScanOptions {
            extensions: vec!["md".into(), "markdown".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
        };
        assert_eq!(
            rels(d.path(), &opts),
            ["a/_index.md", "a/x.md", "b.md", "o.markdown", "wip.tmp.md"]
        );
    }

    #[test]
    fn ignored_content_matches_the_absolute_path_as_zola_does() {
        let d = tree(&[
            "drafts/a.md",
            "blog/drafts/b.md",
            "blog/c.tmp.md",
            "blog/d.md",
        ]);
        let opts = |globs: &[&str]| ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: false,
            exclude: vec![],
            ignored_absolute: globs.iter().map(|g| g.to_string()).collect(),
        };
        // Anchored at the content folder: the absolute path never starts there.
        assert_eq!(
            rels(d.path(), &opts(&["drafts/**"])),
            [
                "blog/c.tmp.md",
                "blog/d.md",
                "blog/drafts/b.md",
                "drafts/a.md"
            ]
        );
        assert_eq!(
            rels(d.path(), &opts(&["**/drafts/**", "*.tmp.md"])),
            ["blog/d.md"]
        );
        // The same glob as an `exclude` of ours is relative to the content folder.
        let mut relative = opts(&[]);
        relative.exclude = vec!["drafts/**".into()];
        assert_eq!(
            rels(d.path(), &relative),
            ["blog/c.tmp.md", "blog/d.md", "blog/drafts/b.md"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_do_not_leave_the_tree() {
        let outside = tree(&["secret.md"]);
        let d = tree(&["real.md"]);
        std::os::unix::fs::symlink(outside.path().join("secret.md"), d.path().join("out.md"))
            .unwrap();
        std::os::unix::fs::symlink(d.path().join("real.md"), d.path().join("alias.md")).unwrap();
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
        };
        assert_eq!(rels(d.path(), &opts), ["alias.md", "real.md"]);
    }

    #[test]
    fn a_missing_language_content_dir_is_empty() {
        let d = tree(&["en/a.md"]);
        let roots = [
            ContentRoot {
                dir: d.path().join("en"),
                lang: Some("en".into()),
            },
            ContentRoot {
                dir: d.path().join("fr"),
                lang: Some("fr".into()),
            },
        ];
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
        };
        let files = scan(&roots, &opts, Path::new("hugo.toml")).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(
            (files.get(0).rel, files.get(0).root_lang()),
            ("a.md", Some("en"))
        );
    }

    #[test]
    fn a_missing_content_dir_is_a_config_error() {
        let roots = [ContentRoot {
            dir: PathBuf::from("/nonexistent/content"),
            lang: None,
        }];
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
        };
        let err = scan(&roots, &opts, Path::new("sitemap.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/content"), "{err}");
    }
}
