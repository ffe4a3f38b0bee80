//! Parity with Hugo: for each reference case (copied from ../shared/parity into
//! tests/fixtures/parity), sitemapgen lists the same URLs as Hugo's own sitemap, except the
//! deliberate differences each case names (see ../shared/parity/README.md). `hugo/` was built
//! with Hugo 0.111.3 and is run with `--hugo-version 0.111.3`; `hugo-0.168/` holds the same
//! sites built with Hugo 0.168.0 (see its README) and is run with `--hugo-version 0.168.0`.

use crate::common;

use common::parity::{assert_parity, fixture, generator_urls, our_urls};
use common::{run, text, url_locs};
use std::collections::BTreeSet;

/// Hugo 0.111.3's rules, for the cases it built.
const OLD: &[&str] = &["--hugo-version", "0.111.3"];
/// Hugo 0.168.0's rules, for the cases it built.
const NEW: &[&str] = &["--hugo-version", "0.168.0"];

/// `_build.render = link` pages get a permalink but no file: Hugo lists a URL it never writes.
const RENDER_LINK: (&str, &str) = (
    "https://example.org/p/build-render-link/",
    "`build.render = link` pages get a permalink but no file: Hugo lists a URL it never writes",
);

#[test]
fn hugo_01_plain_pages() {
    assert_parity("hugo/01-plain-pages", OLD, false, &[]);
}

#[test]
fn hugo_02_sections() {
    assert_parity("hugo/02-sections", OLD, false, &[]);
}

#[test]
fn hugo_03_leaf_bundles() {
    assert_parity("hugo/03-leaf-bundles", OLD, false, &[]);
}

#[test]
fn hugo_04_slug_url() {
    assert_parity("hugo/04-slug-url", OLD, false, &[]);
}

#[test]
fn hugo_05_permalinks_ugly_subpath() {
    assert_parity("hugo/05-permalinks-ugly-subpath", OLD, false, &[]);
}

/// Hugo 0.111 reads only `_build` and knows no `sitemap.disable` (0.123 and 0.125 added
/// them): followed as 0.111, `build-no-underscore` and `sitemap-disable` are listed.
#[test]
fn hugo_06_draft_future_expired_build() {
    assert_parity(
        "hugo/06-draft-future-expired-build",
        OLD,
        false,
        &[RENDER_LINK],
    );
}

/// `--drafts --future --expired` bring back exactly the pages those filters dropped.
#[test]
fn hugo_06_with_drafts_future_expired() {
    let dir = fixture("hugo/06-draft-future-expired-build");
    let plain = our_urls(&dir, OLD);
    let all = our_urls(
        &dir,
        &[OLD, &["--drafts", "--future", "--expired"]].concat(),
    );
    let added: BTreeSet<&str> = all.difference(&plain).map(String::as_str).collect();
    let want: BTreeSet<&str> = [
        "https://example.org/draftsection/",
        "https://example.org/draftsection/child/",
        "https://example.org/p/draft/",
        "https://example.org/p/published-false/",
        "https://example.org/p/future-date/",
        "https://example.org/p/future-publishdate/",
        "https://example.org/p/expired/",
        "https://example.org/p/unpublishdate/",
    ]
    .into_iter()
    .collect();
    assert_eq!(added, want);
    assert!(plain.is_subset(&all));
    let future_only = our_urls(&dir, &[OLD, &["--future"]].concat());
    let added: BTreeSet<&str> = future_only.difference(&plain).map(String::as_str).collect();
    assert_eq!(
        added,
        [
            "https://example.org/p/future-date/",
            "https://example.org/p/future-publishdate/"
        ]
        .into_iter()
        .collect()
    );
}

#[test]
fn hugo_07_sitemap_frontmatter() {
    assert_parity("hugo/07-sitemap-frontmatter", OLD, false, &[]);
}

/// Values Hugo accepts but the protocol forbids do not stop a Hugo run: a negative priority
/// is Hugo's "unset", an unknown changefreq is left out with a warning naming file and line.
#[test]
fn hugo_07_lenient_values_warn_and_are_left_out() {
    let dir = fixture("hugo/07-sitemap-frontmatter");
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &dir,
        &[
            "build",
            "--site",
            ".",
            "--output",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("invalid-freq.md:5") && err.contains("every-now-and-then"),
        "{err}"
    );
    assert!(!err.contains("priority-negative"), "{err}");
    let xml = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
    assert!(!xml.contains("every-now-and-then") && !xml.contains("<priority>-"));
    // The same page under the plain style is an input error (exit 2) naming the line.
    let o = run(
        &dir,
        &[
            "build",
            "--site",
            ".",
            "--style",
            "plain",
            "--base-url",
            "https://example.org/",
            "--output",
            out.path().to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("invalid-freq.md:5"), "{err}");
    assert!(err.contains("priority-negative.md:5"), "{err}");
}

/// Hugo keeps a valid `%XX` in a file name as written, so `already%20encoded.md` is written
/// to the folder `already%20encoded/`; Hugo's loc `…/already%20encoded/` asks a server for
/// `already encoded/`, which does not exist. We encode the `%` (`already%2520encoded`), the
/// URL of the folder Hugo wrote.
#[test]
fn hugo_08_unicode_spaces_filenames() {
    let dir = fixture("hugo/08-unicode-spaces-filenames");
    let mut theirs = generator_urls(&dir, false);
    let ours = our_urls(&dir, OLD);
    assert!(theirs.remove("https://example.org/blog/already encoded/"));
    theirs.insert("https://example.org/blog/already%20encoded/".into());
    assert_eq!(ours, theirs);
}

#[test]
fn hugo_10_multilingual() {
    assert_parity("hugo/10-multilingual", OLD, false, &[]);
}

/// Hugo's alternates for translated pages are the ones we write (as sets: Hugo lists its own
/// language last, we sort), and untranslated pages get none in either.
#[test]
fn hugo_10_alternates_match_hugo() {
    for (case, version) in [
        ("hugo/10-multilingual", OLD),
        ("hugo-0.168/10-multilingual", NEW),
    ] {
        alternates_match(case, version);
    }
}

/// The alternates of `case` as Hugo `version` wrote them are the ones we write.
fn alternates_match(case: &str, version: &[&str]) {
    let dir = fixture(case);
    let mut theirs = BTreeSet::new();
    for f in ["expected-en-sitemap.xml", "expected-fr-sitemap.xml"] {
        theirs.extend(alternate_sets(
            &std::fs::read_to_string(dir.join(f)).unwrap(),
        ));
    }
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &dir,
        &[
            "build",
            "--site",
            ".",
            "--output",
            out.path().to_str().unwrap(),
            version[0],
            version[1],
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let ours = alternate_sets(&common::set_text(out.path(), "sitemap.xml"));
    assert!(!ours.is_empty());
    assert_eq!(ours, theirs);
}

/// Each `<url>`'s loc with its sorted (hreflang, href) alternates, for pages that have some.
fn alternate_sets(xml: &str) -> BTreeSet<(String, Vec<(String, String)>)> {
    let mut out = BTreeSet::new();
    for block in xml.split("<url>").skip(1) {
        let loc = url_locs(&format!("<url>{block}"))
            .into_iter()
            .next()
            .unwrap();
        let mut alts = Vec::new();
        for link in block.split("<xhtml:link").skip(1) {
            let attr = |name: &str| {
                let start = link.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                let end = start + link[start..].find('"').unwrap();
                common::percent_decode(&common::xml_unescape(&link[start..end]))
            };
            alts.push((attr("hreflang"), attr("href")));
        }
        if !alts.is_empty() {
            alts.sort();
            out.insert((loc, alts));
        }
    }
    out
}

#[test]
fn hugo_11_dates() {
    assert_parity("hugo/11-dates", OLD, false, &[]);
}

#[test]
fn hugo_12_frontmatter_formats() {
    assert_parity("hugo/12-frontmatter-formats", OLD, false, &[]);
}

#[test]
fn hugo_13_taxonomies() {
    assert_parity("hugo/13-taxonomies", OLD, false, &[]);
}

/// The real hugoDocs site (gohugoio/hugoDocs at 84a059b9, content under content/en, config
/// split over hugo.toml and config/_default/), too large to copy: `.ci/run` runs it with
/// `SITEMAPGEN_PARITY_DIR=<shared>/parity cargo test --test it -- --ignored parity_hugo::`.
///
/// Both URL sets are compared after XML-unescaping and then percent-decoding each `<loc>`
/// (`common::url_locs`); the match is |ours ∩ Hugo's| / |ours ∪ Hugo's|, so a URL we miss
/// and a URL we add both count against it. Hugo's sitemaps with and without git info list
/// the same URLs; both are checked.
#[test]
#[ignore = "needs SITEMAPGEN_PARITY_DIR (the shared parity folder)"]
fn hugo_real_hugo_docs() {
    let Some(root) = std::env::var_os("SITEMAPGEN_PARITY_DIR") else {
        panic!("set SITEMAPGEN_PARITY_DIR to the shared parity folder");
    };
    let dir = std::path::Path::new(&root).join("real/hugo-docs");
    let dir = dir.canonicalize().expect("real/hugo-docs exists");
    // The site uses none of the features whose URLs changed between these versions: each
    // version's rules list all of Hugo's URLs.
    for version in [OLD, NEW] {
        hugo_docs_match(&dir, version);
    }
}

/// Asserts our URLs for hugoDocs under `version`'s rules match both of Hugo's sitemaps.
fn hugo_docs_match(dir: &std::path::Path, version: &[&str]) {
    let ours = our_urls(dir, version);
    for expected in ["expected-sitemap.xml", "expected-sitemap-nogitinfo.xml"] {
        let theirs = url_locs(&std::fs::read_to_string(dir.join(expected)).unwrap());
        let common = ours.intersection(&theirs).count();
        let union = ours.union(&theirs).count();
        let ratio = common as f64 / union as f64;
        println!(
            "hugo-docs vs {expected}, {}: {common} of {union} URLs match ({:.2}%); Hugo {}, ours {}",
            version.join(" "),
            ratio * 100.0,
            theirs.len(),
            ours.len()
        );
        for u in theirs.difference(&ours) {
            println!("  only Hugo lists {u}");
        }
        for u in ours.difference(&theirs) {
            println!("  only we list    {u}");
        }
        assert!(ratio >= 0.99, "hugo-docs: {:.2}% < 99%", ratio * 100.0);
    }
}

// The same sites as Hugo 0.168.0 built them (tests/fixtures/parity/hugo-0.168/README.md says
// what changed): followed as 0.168.0, sitemapgen lists the same URLs.

#[test]
fn hugo_0168_01_plain_pages() {
    assert_parity("hugo-0.168/01-plain-pages", NEW, false, &[]);
}

#[test]
fn hugo_0168_02_sections() {
    assert_parity("hugo-0.168/02-sections", NEW, false, &[]);
}

#[test]
fn hugo_0168_03_leaf_bundles() {
    assert_parity("hugo-0.168/03-leaf-bundles", NEW, false, &[]);
}

/// A section's `url` keeps its case (`/Blog-Home/`), where 0.111 lower-cased it.
#[test]
fn hugo_0168_04_slug_url() {
    assert_parity("hugo-0.168/04-slug-url", NEW, false, &[]);
}

/// `uglyURLs`: home, sections and taxonomy lists are `dir/index.html` (0.111: `dir.html`, `/`).
#[test]
fn hugo_0168_05_permalinks_ugly_subpath() {
    assert_parity("hugo-0.168/05-permalinks-ugly-subpath", NEW, false, &[]);
}

/// `build` is read, `sitemap.disable` honoured, and the child of a draft section is listed.
#[test]
fn hugo_0168_06_draft_future_expired_build() {
    assert_parity(
        "hugo-0.168/06-draft-future-expired-build",
        NEW,
        false,
        &[RENDER_LINK],
    );
}

#[test]
fn hugo_0168_07_sitemap_frontmatter() {
    assert_parity("hugo-0.168/07-sitemap-frontmatter", NEW, false, &[]);
}

/// Runs of hyphens stay (`two--spaces`, `emoji--rocket`); `%XX` is encoded as for 0.111.
#[test]
fn hugo_0168_08_unicode_spaces_filenames() {
    let dir = fixture("hugo-0.168/08-unicode-spaces-filenames");
    let mut theirs = generator_urls(&dir, false);
    let ours = our_urls(&dir, NEW);
    assert!(theirs.remove("https://example.org/blog/already encoded/"));
    theirs.insert("https://example.org/blog/already%20encoded/".into());
    assert_eq!(ours, theirs);
}

#[test]
fn hugo_0168_10_multilingual() {
    assert_parity("hugo-0.168/10-multilingual", NEW, false, &[]);
}

#[test]
fn hugo_0168_11_dates() {
    assert_parity("hugo-0.168/11-dates", NEW, false, &[]);
}

#[test]
fn hugo_0168_12_frontmatter_formats() {
    assert_parity("hugo-0.168/12-frontmatter-formats", NEW, false, &[]);
}

#[test]
fn hugo_0168_13_taxonomies() {
    assert_parity("hugo-0.168/13-taxonomies", NEW, false, &[]);
}

/// Each case's URLs differ between the versions where Hugo's did: the 0.111 rules on the
/// 0.168 builds (and the reverse) miss exactly the URLs that changed.
#[test]
fn the_versions_differ_where_hugo_did() {
    for case in [
        "04-slug-url",
        "05-permalinks-ugly-subpath",
        "08-unicode-spaces-filenames",
    ] {
        let old = fixture(&format!("hugo/{case}"));
        let new = fixture(&format!("hugo-0.168/{case}"));
        let (old_rules, new_rules) = (our_urls(&new, OLD), our_urls(&new, NEW));
        let (theirs_new, theirs_old) = (generator_urls(&new, false), generator_urls(&old, false));
        let changed: BTreeSet<&String> = theirs_new.difference(&theirs_old).collect();
        assert!(!changed.is_empty(), "{case}");
        for u in changed {
            assert!(
                new_rules.contains(u) && !old_rules.contains(u),
                "{case}: {u}"
            );
        }
    }
}
