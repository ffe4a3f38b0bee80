//! Properties over generated content trees: whatever the file names (Unicode, spaces,
//! `&'"<>#?%`), every `<loc>` is a valid absolute URL on the base host, and two files never
//! share a URL without an error that names both.

use proptest::prelude::*;
use sitemapgen::config::{self, FileConfig, Overrides, Style};
use sitemapgen::{Error, RunOptions};
use std::collections::BTreeSet;
use std::path::Path;

const BASE: &str = "https://example.com/site/";

/// One path segment: a few characters from a set that stresses slugs and URL encoding.
fn segment() -> impl Strategy<Value = String> {
    let chars = prop::sample::select(vec![
        'a', 'b', 'Z', '0', 'é', 'Ü', '日', 'ß', ' ', '&', '\'', '"', '<', '>', '#', '?', '%', '-',
        '_', '.', '+', '=', '~',
    ]);
    prop::collection::vec(chars, 1..6)
        .prop_map(|c| c.into_iter().collect::<String>())
        // `.` and `..` name the folder itself or its parent, not a file.
        .prop_filter("a real name", |s| s != "." && s != "..")
}

/// A tree: up to 8 files, each one to three segments deep, names unique.
fn tree() -> impl Strategy<Value = BTreeSet<String>> {
    prop::collection::btree_set(
        prop::collection::vec(segment(), 1..4).prop_map(|segs| format!("{}.md", segs.join("/"))),
        1..8,
    )
}

/// The styles and slug strategies a tree is routed with.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Plain,
    Zola(&'static str),
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Plain),
        Just(Mode::Zola("on")),
        Just(Mode::Zola("safe")),
        Just(Mode::Zola("off")),
    ]
}

/// A file the style skips: a hidden file, or (plain style) one in a hidden folder; Zola
/// walks hidden folders.
fn hidden(rel: &str, mode: Mode) -> bool {
    match mode {
        Mode::Plain => rel.split('/').any(|s| s.starts_with('.')),
        Mode::Zola(_) => rel.rsplit('/').next().is_some_and(|s| s.starts_with('.')),
    }
}

fn run(
    files: &BTreeSet<String>,
    mode: Mode,
) -> (tempfile::TempDir, sitemapgen::Result<Vec<String>>) {
    let d = tempfile::tempdir().unwrap();
    let content = d.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    for rel in files {
        let p = content.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "+++\n+++\nbody\n").unwrap();
    }
    let mut over = Overrides {
        site: Some(d.path().to_path_buf()),
        ..Default::default()
    };
    match mode {
        Mode::Plain => {
            over.base_url = Some(BASE.into());
            over.style = Some(Style::Plain);
        }
        Mode::Zola(strategy) => {
            std::fs::write(
                d.path().join("config.toml"),
                format!("base_url = \"{BASE}\"\n[slugify]\npaths = \"{strategy}\"\n"),
            )
            .unwrap();
        }
    }
    let settings = config::resolve(FileConfig::default(), None, &over).unwrap();
    let opts = RunOptions::default();
    let result = sitemapgen::generate(&settings, &opts).map(|o| {
        assert_eq!(o.listed.len(), o.entries.len());
        // Each content file behind a listed URL, as a content-relative path.
        let sources: Vec<String> = o
            .listed
            .iter()
            .filter_map(|l| l.source.as_ref())
            .map(|p| rel_of(&content, p))
            .collect();
        let locs: Vec<String> = o.entries.iter().map(|(loc, _)| loc.to_string()).collect();
        check_sources(files, &sources, mode);
        locs
    });
    (d, result)
}

fn rel_of(content: &Path, p: &Path) -> String {
    p.strip_prefix(content)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Every visible file has exactly one listed URL.
fn check_sources(files: &BTreeSet<String>, sources: &[String], mode: Mode) {
    let visible: BTreeSet<&String> = files.iter().filter(|f| !hidden(f, mode)).collect();
    let listed: BTreeSet<&String> = sources.iter().collect();
    assert_eq!(
        listed.len(),
        sources.len(),
        "a file listed twice: {sources:?}"
    );
    assert_eq!(listed, visible, "listed files differ from the tree");
}

/// The files an error names: the file it is about and any other one its message mentions.
fn named_files(e: &Error, content: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match e {
        Error::Many(list) => {
            for e in list {
                out.extend(named_files(e, content));
            }
        }
        Error::Input { path, message, .. } => {
            out.push((rel_of(content, path), message.clone()));
        }
        other => panic!("unexpected error kind: {other}"),
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_loc_is_a_valid_url_on_the_base_and_collisions_name_both_files(
        files in tree(),
        mode in mode(),
    ) {
        let (dir, result) = run(&files, mode);
        let content = dir.path().join("content");
        match result {
            Ok(locs) => {
                let unique: BTreeSet<&String> = locs.iter().collect();
                prop_assert_eq!(unique.len(), locs.len(), "one URL twice: {:?}", locs);
                for loc in &locs {
                    let url = url::Url::parse(loc).map_err(|e| TestCaseError::fail(format!("{loc}: {e}")))?;
                    prop_assert_eq!(url.host_str(), Some("example.com"), "{}", loc);
                    prop_assert_eq!(url.scheme(), "https");
                    prop_assert!(url.path().starts_with("/site/"), "{} leaves the base", loc);
                    prop_assert!(url.query().is_none() && url.fragment().is_none(), "{}", loc);
                    // Already in the form a URL parser writes: nothing left to escape.
                    prop_assert_eq!(url.as_str(), loc.as_str());
                    prop_assert!(loc.len() <= 2047);
                }
            }
            Err(e) => {
                let named = named_files(&e, &content);
                prop_assert!(!named.is_empty(), "an error naming no file: {}", e);
                for (file, message) in &named {
                    prop_assert!(files.contains(file), "the error names {} (not in the tree): {}", file, e);
                    if message.contains(" like ") {
                        // A clash of two files: the other one is named too.
                        let other = files
                            .iter()
                            .filter(|f| *f != file)
                            .find(|f| message.contains(content.join(f).to_string_lossy().as_ref()));
                        prop_assert!(other.is_some(), "{} clashes with an unnamed file: {}", file, message);
                    } else {
                        prop_assert!(
                            message.contains("a URL the generator uses for a generated page"),
                            "unexpected error for {}: {}", file, message
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn two_files_one_url_is_an_error_naming_both() {
    let files: BTreeSet<String> = ["A b.md", "a&b.md", "a-b.md"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (dir, result) = run(&files, Mode::Zola("on"));
    let e = result.unwrap_err();
    let text = e.to_string();
    let content = dir.path().join("content");
    // All three slugify to `a-b`: each later file is reported with the first one.
    for f in &files {
        assert!(text.contains(f.as_str()), "{f} not named in: {text}");
    }
    assert_eq!(named_files(&e, &content).len(), 2, "{text}");
}

#[test]
fn a_literal_percent_escape_in_a_name_is_not_decoded() {
    // `a%20b.md` is a file whose name holds `%`, `2`, `0`: its URL is not the one of `a b.md`.
    let files: BTreeSet<String> = ["a b.md", "a%20b.md"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (_dir, result) = run(&files, Mode::Zola("off"));
    let locs = result.unwrap();
    assert!(
        locs.contains(&"https://example.com/site/a%20b/".to_string()),
        "{locs:?}"
    );
    assert!(
        locs.contains(&"https://example.com/site/a%2520b/".to_string()),
        "{locs:?}"
    );
}
