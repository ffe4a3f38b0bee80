//! Parity with Zola: for each reference case (copied from ../shared/parity into
//! tests/fixtures/parity), sitemapgen lists the same URLs as Zola's own sitemap, except the
//! deliberate differences each case names (see ../shared/parity/README.md).
//!
//! The real sites are too large to copy: the `#[ignore]`d tests read them from the folder in
//! `SITEMAPGEN_PARITY_DIR` (CI: `SITEMAPGEN_PARITY_DIR=../shared/parity cargo test --release
//! --test parity_zola -- --ignored`).

mod common;

use common::parity::{assert_parity, generator_urls, our_urls};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Zola lists it, but it only redirects (README rule 2).
const REDIRECT: &str = "a redirect_to section: Zola writes only a redirect page there";
/// Zola lists the first pager, which only redirects to the list itself (README rule 2).
const PAGE_ONE: &str = "pager 1 is a redirect stub to the list page";
/// Zola lists it but writes no such file (README rule 3).
const NOT_WRITTEN_SORT: &str =
    "undated page in a sort_by = \"date\" section: Zola lists it but never writes it";

#[test]
fn zola_01_plain_pages() {
    assert_parity("zola/01-plain-pages", &[], false, &[]);
}

#[test]
fn zola_02_nested_sections() {
    assert_parity("zola/02-nested-sections", &[], false, &[]);
}

#[test]
fn zola_03_colocated() {
    assert_parity("zola/03-colocated", &[], false, &[]);
}

#[test]
fn zola_04_slug_path() {
    assert_parity("zola/04-slug-path", &[], false, &[]);
}

#[test]
fn zola_05_date_prefixed() {
    assert_parity("zola/05-date-prefixed", &[], false, &[]);
}

#[test]
fn zola_06_drafts() {
    assert_parity("zola/06-drafts", &[], false, &[]);
}

#[test]
fn zola_06_drafts_with_drafts() {
    assert_parity("zola/06-drafts", &["--drafts"], true, &[]);
}

#[test]
fn zola_07_render_transparent() {
    assert_parity(
        "zola/07-render-transparent",
        &[],
        false,
        &[
            ("https://example.com/moved/", REDIRECT),
            (
                "https://example.com/paged-hidden/page/1/",
                "pager of a render = false section: not written (and pager 1 is a redirect stub)",
            ),
            (
                "https://example.com/paged-hidden/page/2/",
                "pager of a render = false section: Zola lists it but never writes it",
            ),
        ],
    );
}

#[test]
fn zola_08_unicode_spaces() {
    assert_parity("zola/08-unicode-spaces", &[], false, &[]);
}

#[test]
fn zola_10_multilingual() {
    assert_parity("zola/10-multilingual", &[], false, &[]);
}

#[test]
fn zola_11_updated_vs_date() {
    assert_parity("zola/11-updated-vs-date", &[], false, &[]);
}

const CASE_12_UNWRITTEN: [(&str, &str); 5] = [
    ("https://example.com/y/j-unknown-yaml/", NOT_WRITTEN_SORT),
    ("https://example.com/y/k-unknown-toml/", NOT_WRITTEN_SORT),
    ("https://example.com/y/l-leading-blank/", NOT_WRITTEN_SORT),
    ("https://example.com/y/m-bom/", NOT_WRITTEN_SORT),
    ("https://example.com/yaml/custom/", NOT_WRITTEN_SORT),
];

#[test]
fn zola_12_yaml_front_matter() {
    assert_parity("zola/12-yaml-front-matter", &[], false, &CASE_12_UNWRITTEN);
}

#[test]
fn zola_12_yaml_front_matter_with_drafts() {
    let mut table = CASE_12_UNWRITTEN.to_vec();
    table.push(("https://example.com/y/f-draft/", NOT_WRITTEN_SORT));
    assert_parity("zola/12-yaml-front-matter", &["--drafts"], true, &table);
}

#[test]
fn zola_13_taxonomies_pagination() {
    let empty_path = "paginate_path = \"\": Zola lists `//n/` URLs but writes nopath/n/";
    assert_parity(
        "zola/13-taxonomies-pagination",
        &[],
        false,
        &[
            ("https://example.com/page/1/", PAGE_ONE),
            ("https://example.com/blog/p/1/", PAGE_ONE),
            ("https://example.com/tags/rust/seite/1/", PAGE_ONE),
            ("https://example.com/tags/static-sites/seite/1/", PAGE_ONE),
            ("https://example.com/nopath//1/", empty_path),
            ("https://example.com/nopath//2/", empty_path),
        ],
    );
}

/// How closely two URL sets agree.
struct Match {
    ours: usize,
    theirs: usize,
    common: usize,
    /// |ours ∩ theirs| / |ours ∪ theirs|, with every URL Zola lists.
    raw: f64,
    /// The same after taking the table's deliberate differences out of Zola's list.
    adjusted: f64,
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Compares a real site with Zola's sitemap, prints the figures and every differing URL, and
/// checks that the table's URLs are ones Zola lists and we do not.
fn real_site(name: &str, we_leave_out: &[(&str, &str)]) -> Option<Match> {
    let Some(root) = std::env::var_os("SITEMAPGEN_PARITY_DIR") else {
        eprintln!("SITEMAPGEN_PARITY_DIR is not set: {name} skipped");
        return None;
    };
    let dir = PathBuf::from(root).join("real").join(name);
    // The binary runs with the site as its working dir: make the path absolute first.
    let dir = dir.canonicalize().unwrap_or(dir);
    let theirs = generator_urls(&dir, false);
    let ours = our_urls(&dir, &[]);
    let left_out: BTreeSet<String> = we_leave_out.iter().map(|(u, _)| u.to_string()).collect();
    for u in &left_out {
        assert!(theirs.contains(u), "{name}: Zola does not list {u}");
        assert!(!ours.contains(u), "{name}: we list {u}, which the table leaves out");
    }
    let adjusted_theirs: BTreeSet<String> = theirs.difference(&left_out).cloned().collect();
    let m = Match {
        ours: ours.len(),
        theirs: theirs.len(),
        common: ours.intersection(&theirs).count(),
        raw: jaccard(&ours, &theirs),
        adjusted: jaccard(&ours, &adjusted_theirs),
    };
    eprintln!(
        "{name}: ours {} / Zola {} / common {}; match |ours ∩ theirs| / |ours ∪ theirs| = {:.4}% raw, {:.4}% without the {} deliberate differences",
        m.ours,
        m.theirs,
        m.common,
        m.raw * 100.0,
        m.adjusted * 100.0,
        left_out.len()
    );
    for u in theirs.difference(&ours) {
        let why = we_leave_out
            .iter()
            .find(|(t, _)| t == u)
            .map_or("UNEXPLAINED", |(_, r)| r);
        eprintln!("  only Zola: {u} ({why})");
    }
    for u in ours.difference(&theirs) {
        eprintln!("  only ours: {u} (UNEXPLAINED)");
    }
    Some(m)
}

#[test]
#[ignore = "needs the real sites: set SITEMAPGEN_PARITY_DIR"]
fn real_zola_blog() {
    // blog.rust-lang.org: every post sets `path` (and old-URL `aliases`), sections sort by
    // permalink, no pagination, taxonomies or languages.
    let Some(m) = real_site("zola-blog", &[]) else {
        return;
    };
    assert!(m.adjusted >= 0.99, "zola-blog matches at {:.4}%", m.adjusted * 100.0);
    assert!(m.theirs > 700, "the blog has 754 URLs, read {}", m.theirs);
}

#[test]
#[ignore = "needs the real sites: set SITEMAPGEN_PARITY_DIR"]
fn real_zola_docs() {
    // Zola's documentation: weight-sorted sections, colocated pages, one taxonomy
    // (`theme-tags`), and section index pages that `redirect_to` their first page.
    let redirects = [
        ("https://www.getzola.org/documentation/", REDIRECT),
        ("https://www.getzola.org/documentation/content/", REDIRECT),
        ("https://www.getzola.org/documentation/deployment/", REDIRECT),
        ("https://www.getzola.org/documentation/getting-started/", REDIRECT),
        ("https://www.getzola.org/documentation/templates/", REDIRECT),
        ("https://www.getzola.org/documentation/themes/", REDIRECT),
    ];
    let Some(m) = real_site("zola-docs", &redirects) else {
        return;
    };
    assert!(m.adjusted >= 0.99, "zola-docs matches at {:.4}%", m.adjusted * 100.0);
}
