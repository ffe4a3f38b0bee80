//! Properties over generated content trees: whatever the file names (Unicode, spaces,
//! `&'"<>#?%`), every `<loc>` is a valid absolute URL on the base host, and two files that
//! share a URL are listed once, with a warning that names both.

use proptest::prelude::*;
use sitemapgen::settings::{self, FileConfig, Overrides, Style};
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

/// What a run listed: its locs, its warnings, and the files left out for sharing a URL.
struct Listed {
    locs: Vec<String>,
    warnings: Vec<String>,
    dups: Vec<String>,
}

fn run(files: &BTreeSet<String>, mode: Mode) -> (tempfile::TempDir, sitemapgen::Result<Listed>) {
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
    let settings = settings::resolve(
        FileConfig::default(),
        None,
        &over,
        &sitemapgen::pipeline::READERS,
    )
    .unwrap();
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
        let dups: Vec<String> = o
            .skipped
            .iter()
            .filter(|s| s.reason.as_str() == "duplicate-url")
            .filter_map(|s| s.file.as_ref())
            .map(|f| rel_of(&content, f))
            .collect();
        check_sources(files, &sources, &dups, mode);
        Listed {
            locs,
            warnings: o.warnings,
            dups,
        }
    });
    (d, result)
}

fn rel_of(content: &Path, p: &Path) -> String {
    p.strip_prefix(content)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Every visible file has exactly one listed URL, or gave its URL way to another file.
fn check_sources(files: &BTreeSet<String>, sources: &[String], dups: &[String], mode: Mode) {
    let visible: BTreeSet<&String> = files.iter().filter(|f| !hidden(f, mode)).collect();
    let listed: BTreeSet<&String> = sources.iter().chain(dups).collect();
    assert_eq!(
        listed.len(),
        sources.len() + dups.len(),
        "a file listed twice: {sources:?} {dups:?}"
    );
    assert_eq!(listed, visible, "listed files differ from the tree");
}

/// The warning about `dup` names it and another file of the tree.
fn named_in_warnings(
    dup: &str,
    files: &BTreeSet<String>,
    warnings: &[String],
    content: &Path,
) -> bool {
    let shown = |f: &str| content.join(f).to_string_lossy().into_owned();
    warnings.iter().any(|w| {
        w.starts_with(&format!("{}: publishes at ", shown(dup)))
            && files
                .iter()
                .any(|f| f != dup && w.contains(&format!(" like {}: ", shown(f))))
    })
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
            Ok(Listed { locs, warnings, dups }) => {
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
                for dup in &dups {
                    prop_assert!(
                        named_in_warnings(dup, &files, &warnings, &content),
                        "{} left out with no warning naming it and the other file: {:?}", dup, warnings
                    );
                }
            }
            Err(e) => {
                let named = named_files(&e, &content);
                prop_assert!(!named.is_empty(), "an error naming no file: {}", e);
                for (file, _) in &named {
                    prop_assert!(files.contains(file), "the error names {} (not in the tree): {}", file, e);
                }
            }
        }
    }
}

#[test]
fn two_files_on_one_url_stop_a_zola_build_naming_both() {
    let files: BTreeSet<String> = ["A b.md", "a&b.md", "a-b.md"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (dir, result) = run(&files, Mode::Zola("on"));
    let content = dir.path().join("content");
    // All three slugify to `a-b`: Zola 0.22.1 refuses ("Found path collisions"), and so do
    // we, naming each later file with the first one.
    let Err(err) = result else {
        panic!("built a site Zola refuses");
    };
    let named = named_files(&err, &content);
    let names: Vec<&str> = named.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(names, ["a&b.md", "a-b.md"], "{err}");
    let first = content.join("A b.md").display().to_string();
    for (_, message) in &named {
        assert!(
            message.contains("`/a-b/`") && message.contains(&first),
            "{message}"
        );
    }
}

#[test]
fn a_literal_percent_escape_in_a_name_is_not_decoded() {
    // `a%20b.md` is a file whose name holds `%`, `2`, `0`: its URL is not the one of `a b.md`.
    let files: BTreeSet<String> = ["a b.md", "a%20b.md"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (_dir, result) = run(&files, Mode::Zola("off"));
    let locs = result.unwrap().locs;
    assert!(
        locs.contains(&"https://example.com/site/a%20b/".to_string()),
        "{locs:?}"
    );
    assert!(
        locs.contains(&"https://example.com/site/a%2520b/".to_string()),
        "{locs:?}"
    );
}
