//! Parity with Zola: for each reference case (copied from ../shared/parity into
//! tests/fixtures/parity), sitemapgen lists the same URLs as Zola's own sitemap, except the
//! deliberate differences each case names (see ../shared/parity/README.md).
//!
//! The real sites are too large to copy: the `#[ignore]`d tests read them from the folder in
//! `SITEMAPGEN_PARITY_DIR` (CI: `SITEMAPGEN_PARITY_DIR=../shared/parity cargo test --release
//! --test it -- --ignored parity_zola::`).

use crate::common;

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
        assert!(
            !ours.contains(u),
            "{name}: we list {u}, which the table leaves out"
        );
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
    assert!(
        m.adjusted >= 0.99,
        "zola-blog matches at {:.4}%",
        m.adjusted * 100.0
    );
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
        (
            "https://www.getzola.org/documentation/deployment/",
            REDIRECT,
        ),
        (
            "https://www.getzola.org/documentation/getting-started/",
            REDIRECT,
        ),
        ("https://www.getzola.org/documentation/templates/", REDIRECT),
        ("https://www.getzola.org/documentation/themes/", REDIRECT),
    ];
    let Some(m) = real_site("zola-docs", &redirects) else {
        return;
    };
    assert!(
        m.adjusted >= 0.99,
        "zola-docs matches at {:.4}%",
        m.adjusted * 100.0
    );
}

// Zola features beyond the reference cases, each on a small site built in a temp folder and
// checked against what Zola 0.22's source does.

mod features {
    use super::common::{run, text, url_locs, validate_with_xsd, write_tree};
    use std::collections::BTreeSet;

    const BASE: &str = "https://example.com";

    fn config(extra: &str) -> String {
        format!("base_url = \"{BASE}\"\ntitle = \"t\"\n{extra}")
    }

    /// Builds a Zola site from `files` and returns its URL paths (decoded), or the failure.
    fn build(files: &[(&str, &str)], args: &[&str]) -> Result<BTreeSet<String>, String> {
        let d = tempfile::tempdir().unwrap();
        write_tree(d.path(), files);
        let site = d.path().to_str().unwrap();
        let mut all = vec!["build", "--site", site, "--quiet"];
        all.extend_from_slice(args);
        let o = run(d.path(), &all);
        if !o.status.success() {
            return Err(text(&o));
        }
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        Ok(url_locs(&xml)
            .into_iter()
            .map(|u| u.strip_prefix(BASE).unwrap().to_string())
            .collect())
    }

    fn paths(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    const PAGE: &str = "+++\n+++\nx\n";

    #[test]
    fn slugify_paths_on_safe_and_off() {
        let files = |mode: &str| {
            vec![
                (
                    "config.toml".to_string(),
                    config(&format!("[slugify]\npaths = \"{mode}\"\n")),
                ),
                ("content/Héllo Wörld.md".to_string(), PAGE.to_string()),
                ("content/日本語.md".to_string(), PAGE.to_string()),
                ("content/Docs Dir/a&b?.md".to_string(), PAGE.to_string()),
            ]
        };
        let run_mode = |mode: &str| {
            let owned = files(mode);
            let refs: Vec<(&str, &str)> = owned
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            build(&refs, &[]).unwrap()
        };
        // Folder names are never slugified; file names follow the strategy.
        assert_eq!(
            run_mode("on"),
            paths(&["/", "/hello-world/", "/ri-ben-yu/", "/Docs Dir/a-b/"])
        );
        assert_eq!(
            run_mode("safe"),
            paths(&["/", "/Héllo Wörld/", "/日本語/", "/Docs Dir/a&b/"])
        );
        assert_eq!(
            run_mode("off"),
            paths(&["/", "/Héllo Wörld/", "/日本語/", "/Docs Dir/a&b?/"])
        );
    }

    #[test]
    fn date_prefixes_are_cut_unless_paths_keep_dates() {
        let files = |keep: &str| {
            vec![
                (
                    "config.toml".to_string(),
                    config(&format!("[slugify]\npaths_keep_dates = {keep}\n")),
                ),
                ("content/blog/_index.md".to_string(), PAGE.to_string()),
                (
                    "content/blog/2024-01-02-dash.md".to_string(),
                    PAGE.to_string(),
                ),
                (
                    "content/blog/2024-01-03_under.md".to_string(),
                    PAGE.to_string(),
                ),
                (
                    "content/blog/2024-01-04 - spaced.md".to_string(),
                    PAGE.to_string(),
                ),
                (
                    "content/blog/2024-01-05T10:00:00Z-timed.md".to_string(),
                    PAGE.to_string(),
                ),
                (
                    "content/blog/2024-01-06-trip/index.md".to_string(),
                    PAGE.to_string(),
                ),
            ]
        };
        let go = |keep: &str| {
            let owned = files(keep);
            let refs: Vec<(&str, &str)> = owned
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            build(&refs, &[]).unwrap()
        };
        assert_eq!(
            go("false"),
            paths(&[
                "/",
                "/blog/",
                "/blog/dash/",
                "/blog/under/",
                "/blog/spaced/",
                "/blog/timed/",
                "/blog/trip/"
            ])
        );
        assert_eq!(
            go("true"),
            paths(&[
                "/",
                "/blog/",
                "/blog/2024-01-02-dash/",
                "/blog/2024-01-03-under/",
                "/blog/2024-01-04-spaced/",
                "/blog/2024-01-05t10-00-00z-timed/",
                "/blog/2024-01-06-trip/",
            ])
        );
    }

    #[test]
    fn colocated_pages_siblings_underscore_names_hidden_folders_and_ignored_content() {
        let got = build(
            &[
                // Zola matches these against the absolute path: the second matches nothing.
                (
                    "config.toml",
                    &config("ignored_content = [\"*.tmp.md\", \"blog/trip/**\"]\n"),
                ),
                ("content/blog/_index.md", PAGE),
                ("content/blog/trip/index.md", PAGE),
                ("content/blog/trip/notes.md", PAGE),
                ("content/_foo.md", PAGE),
                ("content/.well-known/about.md", PAGE),
                ("content/.hidden.md", PAGE),
                ("content/blog/wip.tmp.md", PAGE),
            ],
            &[],
        )
        .unwrap();
        assert_eq!(
            got,
            paths(&[
                "/",
                "/.well-known/about/",
                "/blog/",
                "/blog/trip/",
                "/blog/trip/notes/",
                "/foo/",
            ])
        );
    }

    #[test]
    fn render_false_pages_and_sections_and_sort_by_leaves_out_what_zola_does_not_write() {
        let got = build(
            &[
                ("config.toml", &config("")),
                ("content/hidden/_index.md", "+++\nrender = false\n+++\n"),
                ("content/hidden/shown.md", PAGE),
                ("content/docs/_index.md", "+++\nsort_by = \"weight\"\n+++\n"),
                ("content/docs/weighted.md", "+++\nweight = 1\n+++\n"),
                ("content/docs/unweighted.md", PAGE),
                (
                    "content/docs/off.md",
                    "+++\nweight = 2\nrender = false\n+++\n",
                ),
                // No `_index.md` here: an orphan page, always written.
                ("content/loose/page.md", PAGE),
            ],
            &[],
        )
        .unwrap();
        assert_eq!(
            got,
            paths(&[
                "/",
                "/docs/",
                "/docs/weighted/",
                "/hidden/shown/",
                "/loose/page/"
            ])
        );
    }

    #[test]
    fn a_draft_section_prunes_its_folder_in_every_language() {
        let files = [
            (
                "config.toml",
                "base_url = \"https://example.com\"\n[languages.fr]\n",
            ),
            ("content/wip/_index.md", "+++\ndraft = true\n+++\n"),
            ("content/wip/_index.fr.md", PAGE),
            ("content/wip/a.md", PAGE),
            ("content/wip/a.fr.md", PAGE),
            ("content/wip/sub/_index.fr.md", PAGE),
            ("content/kept.fr.md", PAGE),
        ];
        // Zola skips the folder's files for every language, yet loads the French section
        // index of the folder itself.
        assert_eq!(
            build(&files, &[]).unwrap(),
            paths(&["/", "/fr/", "/fr/kept/", "/fr/wip/"])
        );
        assert_eq!(
            build(&files, &["--drafts"]).unwrap(),
            paths(&[
                "/",
                "/fr/",
                "/fr/kept/",
                "/fr/wip/",
                "/fr/wip/a/",
                "/fr/wip/sub/",
                "/wip/",
                "/wip/a/",
            ])
        );
    }

    #[test]
    fn pagers_start_at_two_follow_transparent_sections_and_can_be_excluded() {
        let mut files = vec![
            ("config.toml".to_string(), config("")),
            (
                "content/blog/_index.md".to_string(),
                "+++\npaginate_by = 2\n+++\n".to_string(),
            ),
            (
                "content/blog/2024/_index.md".to_string(),
                "+++\ntransparent = true\n+++\n".to_string(),
            ),
            // A draft is not loaded, so it is not counted.
            (
                "content/blog/draft.md".to_string(),
                "+++\ndraft = true\n+++\n".to_string(),
            ),
        ];
        for n in 1..=3 {
            files.push((format!("content/blog/p{n}.md"), PAGE.to_string()));
            files.push((format!("content/blog/2024/t{n}.md"), PAGE.to_string()));
        }
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let got = build(&refs, &[]).unwrap();
        let pagers: Vec<&String> = got.iter().filter(|u| u.contains("/page/")).collect();
        // Six pages (three of them from the transparent 2024 section), two per pager.
        assert_eq!(pagers, ["/blog/page/2/", "/blog/page/3/"]);
        files[0].1 = config("exclude_paginated_pages_in_sitemap = \"all\"\n");
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let got = build(&refs, &[]).unwrap();
        assert!(got.iter().all(|u| !u.contains("/page/")), "{got:?}");
        assert!(got.contains("/blog/2024/t1/"));
    }

    #[test]
    fn taxonomies_come_from_the_taxonomies_table_only() {
        let got = build(
            &[
                (
                    "config.toml",
                    &config("taxonomies = [{ name = \"tags\", paginate_by = 1 }, { name = \"series\" }]\n"),
                ),
                ("content/a.md", "+++\n[taxonomies]\ntags = [\"Rust Lang\", \"rust-lang\"]\n+++\n"),
                // Hidden from the sitemap by render = false, still a member of its term, but
                // in none of its pagers: Zola 0.22.1 writes two (a.md counts once per name),
                // though its sitemap lists a third.
                ("content/b.md", "+++\nrender = false\n[taxonomies]\ntags = [\"Rust Lang\"]\n+++\n"),
                // A top-level list is not a taxonomy in Zola (and `series` gets no terms:
                // Zola 0.22.1 lists `/series/` but writes no page there).
                ("content/c.md", "+++\n[extra]\nx = 1\n+++\n"),
                ("content/d.md", "---\ntags: [ignored]\nseries: [none]\n---\n"),
            ],
            &[],
        )
        .unwrap();
        assert_eq!(
            got,
            paths(&[
                "/",
                "/a/",
                "/c/",
                "/d/",
                "/tags/",
                "/tags/rust-lang/",
                "/tags/rust-lang/page/2/",
            ])
        );
    }

    #[test]
    fn a_top_level_list_beside_the_table_adds_no_terms() {
        let got = build(
            &[
                (
                    "config.toml",
                    &config("taxonomies = [{ name = \"tags\" }]\n"),
                ),
                (
                    "content/e.md",
                    "+++\ntags = [\"top-only\"]\n[taxonomies]\ntags = [\"from-table\"]\n+++\n",
                ),
            ],
            &[],
        )
        .unwrap();
        assert_eq!(got, paths(&["/", "/e/", "/tags/", "/tags/from-table/"]));
    }

    #[test]
    fn languages_get_prefixes_and_reciprocal_alternates() {
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[
                (
                    "config.toml",
                    "base_url = \"https://example.com\"\ndefault_language = \"en\"\n[languages.fr]\n[languages.de]\n",
                ),
                ("content/blog/_index.md", PAGE),
                ("content/blog/_index.fr.md", PAGE),
                ("content/blog/post.md", PAGE),
                ("content/blog/post.fr.md", PAGE),
                ("content/blog/post.de.md", PAGE),
                ("content/blog/solo.md", PAGE),
            ],
        );
        let site = d.path().to_str().unwrap();
        let o = run(d.path(), &["build", "--site", site, "--quiet"]);
        assert!(o.status.success(), "{}", text(&o));
        let out = d.path().join("public/sitemap.xml");
        super::common::validate_with_xsd(std::slice::from_ref(&out));
        let xml = std::fs::read_to_string(out).unwrap();
        let block = |loc: &str| -> String {
            let at = xml
                .find(&format!("<loc>{loc}</loc>"))
                .unwrap_or_else(|| panic!("{loc} missing:\n{xml}"));
            let start = xml[..at].rfind("<url>").unwrap();
            let end = at + xml[at..].find("</url>").unwrap();
            xml[start..end].to_string()
        };
        let versions = [
            ("en", "https://example.com/blog/post/"),
            ("fr", "https://example.com/fr/blog/post/"),
            ("de", "https://example.com/de/blog/post/"),
        ];
        // Every version lists every version, itself included.
        for (_, loc) in versions {
            let b = block(loc);
            for (lang, href) in versions {
                assert!(
                    b.contains(&format!("hreflang=\"{lang}\" href=\"{href}\"")),
                    "{loc} lacks {lang}:\n{b}"
                );
            }
        }
        assert!(!block("https://example.com/blog/solo/").contains("xhtml:link"));
        // The German blog section has no `_index.de.md`: its post is an orphan page.
        assert!(!xml.contains("<loc>https://example.com/de/blog/</loc>"));
        assert!(xml.contains("<loc>https://example.com/de/</loc>"));
    }

    /// `generate_sitemap = false` (as the README asks) never silences us: the sitemap is
    /// written, and `--verbose` says Zola's own is off.
    #[test]
    fn generate_sitemap_false_still_writes_ours() {
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[
                ("config.toml", &config("generate_sitemap = false\n")),
                ("content/a.md", PAGE),
            ],
        );
        let site = d.path().to_str().unwrap();
        let o = run(d.path(), &["build", "--site", site, "--verbose"]);
        assert!(o.status.success(), "{}", text(&o));
        let path = d.path().join("public/sitemap.xml");
        let xml = std::fs::read_to_string(&path).unwrap();
        validate_with_xsd(&[path]);
        assert!(xml.contains("<loc>https://example.com/a/</loc>"), "{xml}");
        assert!(
            text(&o).contains("sets generate_sitemap = false: the generator writes no sitemap"),
            "{}",
            text(&o)
        );
    }

    #[test]
    fn files_zola_refuses_are_errors_naming_them() {
        let err = build(
            &[
                (
                    "config.toml",
                    "base_url = \"https://example.com\"\n[languages.fr]\n",
                ),
                ("content/post.it.md", PAGE),
            ],
            &[],
        )
        .unwrap_err();
        assert!(
            err.contains("status Some(2)") && err.contains("post.it.md"),
            "{err}"
        );
        let err = build(
            &[("config.toml", &config("")), ("content/index.md", PAGE)],
            &[],
        )
        .unwrap_err();
        assert!(err.contains("index.md"), "{err}");
    }

    /// Two files that slugify alike: Zola 0.22.1 refuses the site ("Found path
    /// collisions"), and so do we, naming both files and writing nothing.
    #[test]
    fn two_files_on_one_url_stop_the_build() {
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[
                ("config.toml", &config("")),
                ("content/A b.md", "+++\nupdated = 2024-01-01\n+++\n"),
                ("content/a-b.md", "+++\nupdated = 2024-02-02\n+++\n"),
            ],
        );
        let o = run(d.path(), &["build", "--site", "."]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(!d.path().join("public/sitemap.xml").exists());
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains("./content/a-b.md: its path `/a-b/` is also ./content/A b.md's"),
            "{}",
            text(&o)
        );
    }
}
