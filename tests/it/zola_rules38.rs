//! Zola rules found by the differential search (issue 38, `tests/zola_search.py`): what Zola
//! 0.22.1 refuses (a taxonomy the config does not declare, two files on one path, a page
//! `index.md` on a section's path) and what it builds (a bad name below a draft section, a
//! transparent section below the home Zola makes). Each site in `tests/fixtures/zola38/` was
//! built with the real Zola 0.22.1: `expected/` holds its sitemap, or `zola-error.txt` where
//! it stopped.

use crate::common;

use common::{text, url_locs, validate_with_xsd};
use std::path::{Path, PathBuf};

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/zola38")
        .join(name)
}

fn run(name: &str) -> (std::process::Output, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let site = case(name);
    let o = common::run(
        &site,
        &[
            "build",
            "--quiet",
            "--site",
            site.to_str().unwrap(),
            "--output",
            out.path().to_str().unwrap(),
        ],
    );
    (o, out)
}

/// Asserts we list exactly the URLs of Zola's sitemap, in a file the schemas accept.
fn assert_same(name: &str) {
    assert_same_but(name, &[]);
}

/// As [`assert_same`], but for `unwritten`: URLs Zola's sitemap lists (each checked) where
/// Zola writes a redirect stub or nothing at all, which we leave out on purpose.
fn assert_same_but(name: &str, unwritten: &[&str]) {
    let xml = std::fs::read_to_string(case(name).join("expected/sitemap.xml")).unwrap();
    let mut zola = url_locs(&xml);
    for url in unwritten {
        assert!(zola.remove(*url), "{name}: Zola does not list {url}");
    }
    let (o, out) = run(name);
    assert!(o.status.success(), "{}", text(&o));
    let file = out.path().join("sitemap.xml");
    validate_with_xsd(std::slice::from_ref(&file));
    let ours = url_locs(&std::fs::read_to_string(file).unwrap());
    let extra: Vec<_> = ours.difference(&zola).collect();
    let missing: Vec<_> = zola.difference(&ours).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{name}: ours only {extra:#?}\nZola's only {missing:#?}"
    );
}

/// Asserts Zola stopped on a case and so do we, naming `at` (a file, maybe with its line),
/// with nothing written.
fn assert_refused(name: &str, at: &str, says: &str) {
    assert!(
        case(name).join("expected/zola-error.txt").is_file(),
        "Zola built {name}"
    );
    let (o, out) = run(name);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = common::stderr(&o);
    let at = at.replace('/', std::path::MAIN_SEPARATOR_STR);
    assert!(err.contains(&at) && err.contains(says), "{}", text(&o));
    assert!(!out.path().join("sitemap.xml").exists());
}

#[test]
fn a_taxonomy_the_config_does_not_declare_stops_the_build() {
    // `Tags` where the config declares `tags`: Zola matches the name exactly.
    assert_refused(
        "undeclared-taxonomy",
        "content/bad.md:6:",
        "the taxonomy `Tags` is not in the Zola config's `taxonomies`",
    );
    // `tags` is the default language's; the French page may only use `categories`.
    assert_refused(
        "undeclared-taxonomy-lang",
        "content/post.fr.md:5:",
        "`languages.fr.taxonomies`",
    );
}

#[test]
fn two_files_on_one_path_stop_the_build() {
    // A `slug` that slugifies to a sibling's name.
    assert_refused(
        "path-collision-slug",
        "content/blog/hello-world.md",
        "is also",
    );
    // An alias on a section's path; a `render = false` page with the same `path` takes none.
    assert_refused("path-collision-alias", "content/page.md", "`/docs/`");
}

#[test]
fn a_page_index_md_on_a_sections_path_stops_the_build() {
    assert_refused(
        "index-beside-section",
        "content/docs/index.md",
        "on the path of the section `docs`",
    );
}

#[test]
fn a_draft_section_hides_the_bad_names_below_it() {
    // `old/v1.2.md` has the language code `2` on a bilingual site, but Zola never reads it.
    assert_same("draft-section-hides-names");
}

#[test]
fn a_transparent_section_hands_its_pages_to_the_home_zola_makes() {
    // No `content/_index.md`: an untitled page of a transparent `sort_by = "title"` section
    // is also in the generated home, which sorts nothing, so Zola writes it.
    let zola = url_locs(
        &std::fs::read_to_string(case("transparent-made-home").join("expected/sitemap.xml"))
            .unwrap(),
    );
    assert!(zola.contains("https://example.org/notes/untitled/"));
    assert_same("transparent-made-home");
}

#[test]
fn term_pagers_count_only_the_rendered_pages() {
    // Three pages tagged `rust`, one `render = false`, one by page: Zola's sitemap counts
    // three pagers but it writes two (pager 1 a redirect stub); a term of only the
    // unrendered page still has its page.
    assert_same_but(
        "term-pagers-rendered",
        &[
            "https://example.org/tags/rust/page/1/",
            "https://example.org/tags/rust/page/3/",
            "https://example.org/tags/only-hidden/page/1/",
        ],
    );
}

#[test]
fn files_zola_never_reads_stop_nothing() {
    // Below a draft section, a section and a page with keys given twice; an `_index` of a
    // language the site does not have, with a key no section takes.
    assert_same("unread-files");
}

#[test]
fn a_page_on_the_path_of_the_home_zola_makes_stops_the_build() {
    assert_refused(
        "home-path-collision",
        "content/welcome.md",
        "its path `/` is the home page's, which Zola makes",
    );
}
