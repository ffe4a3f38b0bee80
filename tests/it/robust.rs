//! Issue 15: where the generator builds the site, sitemapgen writes a sitemap. Each site here
//! is one the real generator builds; the URLs expected are the HTML pages Hugo 0.168 wrote
//! for the same tree (built with `hugo` while writing these tests), and Zola's behaviour is
//! its source's (`split_content`: no front matter is an error).

use crate::common;
use crate::common::stderr;

use common::{run, text, url_locs, validate_with_xsd, write_tree};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

fn set(urls: &[&str]) -> BTreeSet<String> {
    urls.iter().map(|s| s.to_string()).collect()
}

/// Builds the site in `dir` (it must succeed) and returns the run and its sitemap's text.
fn build(dir: &Path) -> (Output, String) {
    let o = run(dir, &["build", "--site", "."]);
    assert!(o.status.success(), "{}", text(&o));
    let path = dir.join("public/sitemap.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    validate_with_xsd(&[path]);
    (o, xml)
}

/// The `<lastmod>` of `loc` in `xml`, if it has one.
fn lastmod_of<'a>(xml: &'a str, loc: &str) -> Option<&'a str> {
    let at = xml.find(&format!("<loc>{loc}</loc>"))?;
    let block = &xml[at..xml[at..].find("</url>")? + at];
    let start = block.find("<lastmod>")? + "<lastmod>".len();
    Some(&block[start..block.find("</lastmod>")?])
}

/// A Hugo site with what the issue met: one-string taxonomy values, a term page that is only
/// an `_index.md`, two posts with one slug, pages and a kind with no HTML output, a section
/// file named `_index.en.md.md`, a page named `old.md.md`, and YAML go-yaml accepts but a
/// strict parser does not (quoted titles continued at the key's depth, a tab after `:`); the
/// titles make the URLs through `:title`, so they must be read as Hugo reads them.
const HUGO_SITE: &[(&str, &str)] = &[
    (
        "hugo.toml",
        "baseURL = \"https://example.org/\"\n[taxonomies]\nauthor = \"author\"\ntag = \"tags\"\n[permalinks]\nnotes = \"/notes/:title/\"\n[outputs]\nsection = [\"RSS\"]\n",
    ),
    (
        "content/posts/a.md",
        "---\ntitle: A\nauthor: Jane Doe\ndate: 2024-01-01\n---\n",
    ),
    (
        "content/posts/b.md",
        "---\ntitle: B\nauthor: [Jane Doe, Max]\ndate: 2024-02-01\n---\n",
    ),
    (
        "content/posts/c.md",
        "---\ntitle: C\nslug: same\ndate: 2024-03-01\n---\n",
    ),
    (
        "content/posts/d.md",
        "---\ntitle: D\nslug: same\ndate: 2024-03-02\n---\n",
    ),
    (
        "content/posts/feed.md",
        "---\ntitle: Feed\noutputs: [RSS, JSON]\ndate: 2024-01-05\n---\n",
    ),
    (
        "content/posts/html.md",
        "---\ntitle: Html\noutputs: html\ndate: 2024-01-06\n---\n",
    ),
    (
        "content/author/bob/_index.md",
        "---\ntitle: Bob\ndate: 2023-05-05\n---\n",
    ),
    (
        "content/author/_index.md",
        "---\ntitle: Authors\noutputs: [HTML]\n---\n",
    ),
    (
        "content/notes/_index.en.md.md",
        "---\ntitle: Notes\noutputs: [html, rss]\ndate: 2022-01-01\n---\n",
    ),
    (
        "content/notes/n1.md",
        "---\ntitle: \"a long\ntitle continued\"\ndate: 2024-04-01\n---\n",
    ),
    (
        "content/notes/n2.md",
        "---\ntitle: 'it''s\nhere'\ndate: 2024-04-02\n---\n",
    ),
    (
        "content/notes/n3.md",
        "---\ntitle:\tTabbed\ndate: 2024-04-03\n---\n",
    ),
    ("content/notes/old.md.md", "---\ntitle: Old\n---\n"),
];

/// The HTML pages Hugo 0.168 wrote for [`HUGO_SITE`] (its own sitemap also lists
/// `/posts/same/` twice, `/posts/index.xml` and `/posts/feed/index.xml`).
const HUGO_HTML: &[&str] = &[
    "https://example.org/",
    "https://example.org/author/",
    "https://example.org/author/bob/",
    "https://example.org/author/jane-doe/",
    "https://example.org/author/max/",
    "https://example.org/notes/",
    "https://example.org/notes/a-long-title-continued/",
    "https://example.org/notes/its-here/",
    "https://example.org/notes/old/",
    "https://example.org/notes/tabbed/",
    "https://example.org/posts/a/",
    "https://example.org/posts/b/",
    "https://example.org/posts/html/",
    "https://example.org/posts/same/",
    "https://example.org/tags/",
];

/// Points 4 to 7 on one site: the build succeeds and lists exactly the pages Hugo wrote.
#[test]
fn a_hugo_site_with_every_quirk_lists_the_pages_hugo_writes() {
    let d = tempfile::tempdir().unwrap();
    write_tree(d.path(), HUGO_SITE);
    let (o, xml) = build(d.path());
    assert_eq!(url_locs(&xml), set(HUGO_HTML));
    // Listed once, though two files publish there, with a warning naming both.
    assert_eq!(
        xml.matches("<loc>https://example.org/posts/same/</loc>")
            .count(),
        1
    );
    assert!(
        stderr(&o).contains(
            "warning: ./content/posts/c.md: publishes at /posts/same/ like ./content/posts/d.md: listed once"
        ),
        "{}",
        text(&o)
    );
    // The profile-only term page has its own date; terms from strings roll their pages up.
    assert_eq!(
        lastmod_of(&xml, "https://example.org/author/bob/"),
        Some("2023-05-05")
    );
    assert_eq!(
        lastmod_of(&xml, "https://example.org/author/jane-doe/"),
        Some("2024-02-01")
    );
    // `_index.en.md.md` is the notes section's file, not a page.
    assert_eq!(
        lastmod_of(&xml, "https://example.org/notes/"),
        Some("2022-01-01")
    );
}

/// [`HUGO_SITE`]'s config and the files named, in a new temporary folder.
fn hugo_part(files: &[&str]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let part: Vec<(&str, &str)> = HUGO_SITE
        .iter()
        .copied()
        .filter(|(p, _)| *p == "hugo.toml" || files.contains(&p.trim_start_matches("content/")))
        .collect();
    assert_eq!(part.len(), files.len() + 1, "{files:?}");
    write_tree(d.path(), &part);
    d
}

/// The URLs of the part of [`HUGO_SITE`] made of `files`, as `build` lists them.
fn hugo_part_urls(files: &[&str]) -> (Output, BTreeSet<String>) {
    let d = hugo_part(files);
    let (o, xml) = build(d.path());
    (o, url_locs(&xml))
}

/// Point 4 alone: quoted titles continued at their key's depth and a tab after `:` (the
/// titles make the URLs). Before, the run stopped with exit 2.
#[test]
fn yaml_hugo_accepts_is_read_as_hugo_reads_it() {
    let (_, urls) = hugo_part_urls(&["notes/n1.md", "notes/n2.md", "notes/n3.md"]);
    assert_eq!(
        urls,
        set(&[
            "https://example.org/",
            "https://example.org/author/",
            "https://example.org/notes/a-long-title-continued/",
            "https://example.org/notes/its-here/",
            "https://example.org/notes/tabbed/",
            "https://example.org/tags/",
        ])
    );
}

/// Point 5 alone: two posts with one slug. Before, exit 2.
#[test]
fn two_hugo_posts_with_one_slug_are_listed_once() {
    let (o, urls) = hugo_part_urls(&["posts/c.md", "posts/d.md"]);
    assert_eq!(
        urls,
        set(&[
            "https://example.org/",
            "https://example.org/author/",
            "https://example.org/posts/same/",
            "https://example.org/tags/",
        ])
    );
    assert!(
        stderr(&o)
            .contains("./content/posts/c.md: publishes at /posts/same/ like ./content/posts/d.md"),
        "{}",
        text(&o)
    );
}

/// Point 6 alone: string taxonomy values, a profile-only term page, `_index.en.md.md` and
/// `old.md.md` as Hugo names them.
#[test]
fn hugo_terms_and_index_file_names_as_hugo_reads_them() {
    let (_, urls) = hugo_part_urls(&[
        "posts/a.md",
        "posts/b.md",
        "author/bob/_index.md",
        "author/_index.md",
        "notes/_index.en.md.md",
        "notes/old.md.md",
    ]);
    assert_eq!(
        urls,
        set(&[
            "https://example.org/",
            "https://example.org/author/",
            "https://example.org/author/bob/",
            "https://example.org/author/jane-doe/",
            "https://example.org/author/max/",
            "https://example.org/notes/",
            "https://example.org/notes/old/",
            "https://example.org/posts/a/",
            "https://example.org/posts/b/",
            "https://example.org/tags/",
        ])
    );
}

/// Point 7 alone: `outputs` per page and per kind.
#[test]
fn hugo_pages_with_no_html_output_are_left_out() {
    let (_, urls) = hugo_part_urls(&[
        "posts/feed.md",
        "posts/html.md",
        "notes/_index.en.md.md",
        "author/_index.md",
    ]);
    assert_eq!(
        urls,
        set(&[
            "https://example.org/",
            "https://example.org/author/",
            "https://example.org/notes/",
            "https://example.org/posts/html/",
            "https://example.org/tags/",
        ])
    );
}

/// `list --excluded` says why each page Hugo writes no HTML for is left out.
#[test]
fn pages_left_out_say_why() {
    let d = tempfile::tempdir().unwrap();
    write_tree(d.path(), HUGO_SITE);
    let o = run(d.path(), &["list", "--site", ".", "--excluded"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "./content/posts/c.md\tduplicate-url\thttps://example.org/posts/same/\t-\t-\n./content/posts/feed.md\tno-html-output\thttps://example.org/posts/feed/\t-\t-\n"
    );
}

/// Point 6, the string form alone: before, `author: Jane Doe` made no term page.
#[test]
fn a_taxonomy_value_given_as_one_string_is_one_term() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"section\"]\n[taxonomies]\nauthor = \"authors\"\n",
            ),
            (
                "content/p.md",
                "+++\nauthors = \"Jane Doe\"\ndescription = \"not a taxonomy\"\n+++\n",
            ),
        ],
    );
    let (_, xml) = build(d.path());
    assert_eq!(
        url_locs(&xml),
        set(&[
            "https://example.org/",
            "https://example.org/authors/",
            "https://example.org/authors/jane-doe/",
            "https://example.org/p/",
        ])
    );
}

/// Hugo renders `.md` files without front matter, even empty or binary ones (0.111 and
/// 0.168 both write `empty/index.html` and `bin/index.html`): they are pages it serves.
#[test]
fn hugo_lists_empty_and_binary_pages_as_it_serves_them() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
            ),
            ("content/posts/empty.md", ""),
            ("content/posts/text.md", "just text\n"),
        ],
    );
    std::fs::write(
        d.path().join("content/posts/bin.md"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe",
    )
    .unwrap();
    let (_, xml) = build(d.path());
    assert_eq!(
        url_locs(&xml),
        set(&[
            "https://example.org/",
            "https://example.org/posts/",
            "https://example.org/posts/bin/",
            "https://example.org/posts/empty/",
            "https://example.org/posts/text/",
        ])
    );
}

/// Zola refuses to build a page without front matter ("Couldn't find front matter"): so do
/// we, naming each file, and nothing is written.
#[test]
fn zola_pages_without_front_matter_are_errors_naming_them() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", "base_url = \"https://example.com\"\n"),
            ("content/_index.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            ("content/blog/ok.md", "+++\n+++\n"),
            ("content/blog/empty.md", ""),
            ("content/blog/text.md", "just text\n"),
        ],
    );
    let o = run(d.path(), &["build", "--site", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = stderr(&o);
    for f in ["empty.md", "text.md"] {
        assert!(
            err.contains(&format!(
                "error: ./content/blog/{f}:1: no front matter: Zola refuses"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("ok.md"), "{err}");
    assert!(!d.path().join("public/sitemap.xml").exists());
}

/// An emptied content folder (a checkout or build step gone wrong) would shrink the sitemap
/// to the home page: build and check both warn, and check reports the URLs removed.
#[test]
fn an_emptied_content_folder_is_a_warning_in_build_and_check() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", "base_url = \"https://example.com\"\n"),
            ("content/_index.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            ("content/blog/a.md", "+++\ndate = 2024-01-01\n+++\n"),
        ],
    );
    let (o, _) = build(d.path());
    assert!(!stderr(&o).contains("no page to list"), "{}", text(&o));
    for f in ["_index.md", "blog/_index.md", "blog/a.md"] {
        std::fs::remove_file(d.path().join("content").join(f)).unwrap();
    }
    std::fs::remove_dir(d.path().join("content/blog")).unwrap();
    let warning = "warning: ./content: no page to list (0 content files read), where the sitemap on disk lists 3 URLs: it would shrink to 1";
    let o = run(d.path(), &["check", "--site", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(stderr(&o).contains(warning), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("https://example.com/blog/a/"),
        "{}",
        text(&o)
    );
    // Zola builds such a site, so we write it too, warning.
    let (o, xml) = build(d.path());
    assert!(stderr(&o).contains(warning), "{}", text(&o));
    assert_eq!(url_locs(&xml), set(&["https://example.com/"]));
    // No warning once the sitemap on disk is as small.
    let (o, _) = build(d.path());
    assert!(!stderr(&o).contains("no page to list"), "{}", text(&o));
}

/// The no-op: `generate_sitemap = false` (as the README asks) and no sitemap.toml. Before,
/// `check` said nothing and exited 0 with no sitemap on disk, and `build` wrote nothing.
#[test]
fn the_generators_sitemap_off_never_silences_check_or_build() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "config.toml",
                "base_url = \"https://example.com\"\ngenerate_sitemap = false\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            ("content/a.md", "+++\ndate = 2024-01-01\n+++\n"),
        ],
    );
    let o = run(d.path(), &["check", "--site", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let (o, xml) = build(d.path());
    assert!(!stderr(&o).contains("generate_sitemap"), "{}", text(&o));
    assert_eq!(
        url_locs(&xml),
        set(&["https://example.com/", "https://example.com/a/"])
    );
    let o = run(d.path(), &["check", "--site", "."]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Point 6, the other way round: a term or taxonomy page whose `_index.md` is a draft is not
/// rendered by Hugo 0.168 at all, even where pages carry the term.
#[test]
fn hugo_renders_no_term_page_whose_index_is_a_draft() {
    let d = tempfile::tempdir().unwrap();
    let config =
        "baseURL = \"https://example.org/\"\n[taxonomies]\nauthor = \"author\"\ntag = \"tags\"\n";
    write_tree(
        d.path(),
        &[
            ("hugo.toml", config),
            (
                "content/author/bob/_index.md",
                "---\ntitle: Bob\ndraft: true\n---\n",
            ),
            (
                "content/author/jane-doe/_index.md",
                "---\ntitle: Jane\ndraft: true\n---\n",
            ),
            (
                "content/tags/_index.md",
                "---\ntitle: Tags\ndraft: true\n---\n",
            ),
            (
                "content/posts/p.md",
                "---\ntitle: P\nauthor: Jane Doe\ntags: [x]\n---\n",
            ),
        ],
    );
    let (_, xml) = build(d.path());
    assert_eq!(
        url_locs(&xml),
        set(&[
            "https://example.org/",
            "https://example.org/author/",
            "https://example.org/posts/",
            "https://example.org/posts/p/",
            "https://example.org/tags/x/",
        ])
    );
}

#[test]
fn a_site_with_no_content_folder_builds_as_the_generator_builds_it() {
    // Hugo 0.168 builds a site with no content/ into its home and its default taxonomies'
    // list pages; Zola into its home page. Only a content_dir the user sets must exist.
    for (config, name, want) in [
        (
            "baseURL = \"https://example.com/\"\ndisableKinds = [\"sitemap\"]\n",
            "hugo.toml",
            &[
                "https://example.com/",
                "https://example.com/categories/",
                "https://example.com/tags/",
            ][..],
        ),
        (
            "base_url = \"https://example.com/\"\ngenerate_sitemap = false\n",
            "config.toml",
            &["https://example.com/"][..],
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        common::write_tree(d.path(), &[(name, config)]);
        let (o, xml) = build(d.path());
        assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
        assert_eq!(common::url_locs(&xml), set(want), "{name}");
        assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
        let given = common::run(d.path(), &["build", "-q", "--content", "nosuch"]);
        assert_eq!(given.status.code(), Some(2), "{}", common::text(&given));
    }
}

/// Round 2 (yaml-mend-budget-refuses-valid): a large hugo.yaml with many tabs after keys'
/// colons (Hugo 0.111.3 builds it) loads at any count of them: they are mended in one pass,
/// not one parse each, so time stays linear in the file.
#[test]
fn a_large_yaml_config_with_many_tabs_after_colons_loads() {
    for (kb, tabs) in [(100, 30), (300, 5000)] {
        let d = tempfile::tempdir().unwrap();
        let mut yaml = String::from("baseURL: \"https://example.org/\"\ntitle: \"t\"\n");
        for i in 0..tabs {
            yaml.push_str(&format!("k{i}:\tv\n"));
        }
        let mut i = 0;
        while yaml.len() < kb * 1024 {
            yaml.push_str(&format!("p{i}: v\n"));
            i += 1;
        }
        write_tree(
            d.path(),
            &[
                ("hugo.yaml", yaml.as_str()),
                ("content/a.md", "---\ntitle: a\n---\n"),
            ],
        );
        let o = run(d.path(), &["build", "-q"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{kb} KB, {tabs} tabs: {}",
            text(&o)
        );
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        assert!(url_locs(&xml).contains("https://example.org/a/"), "{xml}");
    }
}
