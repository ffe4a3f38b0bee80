//! Hugo rules of issue 38: term permalinks and their tokens, a taxonomy's own build options,
//! the hyphens of `:title`, `:slug` and `:filename`, and what Hugo 0.111 builds that 0.168
//! refuses. Each site in `tests/fixtures/hugo38/` was built with the real Hugo 0.111.3 and
//! 0.168.0; `expected-<version>/` holds the sitemap Hugo wrote, or `hugo-error.txt` where
//! Hugo stopped. Every test compares every URL with Hugo's.

use crate::common;

use common::{text, url_locs, validate_with_xsd};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hugo38")
        .join(name)
}

/// Every URL in the sitemaps Hugo `version` wrote for a case (Hugo may list one twice).
fn hugo(name: &str, version: &str) -> BTreeSet<String> {
    let dir = case(name).join(format!("expected-{version}"));
    let xml = std::fs::read_to_string(dir.join("sitemap.xml")).unwrap();
    url_locs(&xml)
}

/// Runs `sitemapgen build` on a case under Hugo `version`'s rules.
fn run(name: &str, version: &str) -> (std::process::Output, tempfile::TempDir) {
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
            "--hugo-version",
            version,
        ],
    );
    (o, out)
}

/// Our URLs for a case under Hugo `version`'s rules, the file checked against the schemas.
fn ours(name: &str, version: &str) -> BTreeSet<String> {
    let (o, out) = run(name, version);
    assert!(o.status.success(), "{}", text(&o));
    let file = out.path().join("sitemap.xml");
    validate_with_xsd(std::slice::from_ref(&file));
    url_locs(&std::fs::read_to_string(file).unwrap())
}

/// Asserts we list exactly Hugo's URLs, showing what differs.
fn assert_same(name: &str, short: &str, full: &str) {
    let (ours, hugo) = (ours(name, full), hugo(name, short));
    let extra: Vec<_> = ours.difference(&hugo).collect();
    let missing: Vec<_> = hugo.difference(&ours).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{name} under {full}: ours only {extra:#?}\nHugo's only {missing:#?}"
    );
}

/// Asserts Hugo stopped on a case and so do we, naming `file:line`.
fn assert_refused(name: &str, short: &str, full: &str, at: &str) {
    let err = case(name).join(format!("expected-{short}/hugo-error.txt"));
    assert!(err.is_file(), "Hugo {short} built {name}");
    let (o, _out) = run(name, full);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let at = at.replace('/', std::path::MAIN_SEPARATOR_STR);
    assert!(common::stderr(&o).contains(&at), "{}", text(&o));
}

#[test]
fn term_permalinks_by_kind_expand_contentbasename() {
    // `[permalinks.term]` with `:contentbasename` (0.144+), `[permalinks.page]` for the
    // pages below the taxonomy's folder with `:sections[1:]`, and `content/tags/_index.md`
    // with `build: {list: never, render: never}`. Hugo 0.111 panics on the kind tables.
    let hugo = hugo("term-permalinks", "0.168");
    for url in [
        "https://example.org/tags/foo-bar/",
        "https://example.org/photos/archive/",
        "https://example.org/writings/archive/",
    ] {
        assert!(hugo.contains(url), "{url}");
    }
    assert!(!hugo.contains("https://example.org/tags/"));
    assert_same("term-permalinks", "0.168", "0.168.0");
    assert_refused("term-permalinks", "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn term_permalink_tokens_are_those_of_each_release() {
    // `:slug` (own slug, else own title, else the term as written, urlized), `:year` (the
    // term's newest page), `:title`, `:sections` (from 0.123 the term too), a final `+`
    // (dropped from 0.153), and a taxonomy `_index` with `build` (read from 0.123).
    assert_same("term-tokens", "0.111", "0.111.3");
    assert_same("term-tokens", "0.168", "0.168.0");
    assert!(hugo("term-tokens", "0.168").contains("https://example.org/s/series/two--spaces/"));
    assert!(hugo("term-tokens", "0.111").contains("https://example.org/t/c-/"));
}

#[test]
fn a_taxonomy_own_build_options_leave_its_page_out() {
    // `_build` on `content/tags/_index.md`, a term's and `categories/_index.md`, as on a
    // section's: Hugo 0.111 obeys each; 0.168 stops at `_build`.
    assert_same("taxonomy-build-legacy", "0.111", "0.111.3");
    assert_refused(
        "taxonomy-build-legacy",
        "0.168",
        "0.168.0",
        "content/categories/_index.md:3",
    );
}

#[test]
fn title_slug_and_filename_tokens_make_one_hyphen_of_a_run() {
    // ` - `, ` — `, `&` between spaces: one hyphen from `:title`, `:slug` and `:filename`
    // in both releases; a plain file name keeps the run from 0.123 (`/plain/a---b/`).
    assert_same("title-slugs", "0.111", "0.111.3");
    assert_same("title-slugs", "0.168", "0.168.0");
    let new = hugo("title-slugs", "0.168");
    assert!(new.contains("https://example.org/2023/volo-a-framework-volo-fast/"));
    assert!(new.contains("https://example.org/2023/rock-roll-its-great/"));
    assert!(new.contains("https://example.org/plain/a---b/"));
}

#[test]
fn hugo_0_111_builds_old_kind_names_and_keys_given_twice() {
    // `disableKinds = ["taxonomy", "taxonomyTerm"]`: with the old name beside it Hugo 0.111
    // reads `taxonomy` as the term pages and builds with neither; a YAML key given twice
    // (`aliases`, `slug`) is taken, the last value winning (`/posts/second/`). Hugo 0.168
    // stops at the key given again, and so do we, naming that line.
    assert_same("legacy-kinds-dup-keys", "0.111", "0.111.3");
    assert!(hugo("legacy-kinds-dup-keys", "0.111").contains("https://example.org/posts/second/"));
    assert_refused(
        "legacy-kinds-dup-keys",
        "0.168",
        "0.168.0",
        "content/docs/guide.md:5",
    );
}

/// Hugo 0.112+ `[permalinks.section]` and `[permalinks.taxonomy]`, for the section and
/// taxonomy list pages. The URLs are what Hugo 0.168.0 listed for this tree: a section's date
/// is its own, else the newest below it (a draft's left out); a key reaches the sections
/// below it; a section without `_index.md` is titled by its folder made plural; a taxonomy's
/// date is its newest term's; `:slug` falls back to the title; ugly lists end in
/// `index.html`. The pages in them keep their own URLs.
#[test]
fn section_and_taxonomy_permalinks_by_kind() {
    let d = tempfile::tempdir().unwrap();
    let config = r#"baseURL = "https://example.org/"
uglyURLs = {categories = true}
[permalinks.section]
posts = "/archive/:year/:slug/"
"docs/guides" = "/g/:sections[1:]/:title"
news = "/n/:title/:month"
[permalinks.taxonomy]
tags = "/topics/:slug/:yearday/"
categories = "/kinds/:title/:2006"
"#;
    let fm = |body: &str| format!("---\n{body}\n---\n");
    let files = [
        (
            "content/posts/_index.md",
            "title: My Posts\nslug: Blog Entries",
        ),
        (
            "content/posts/a.md",
            "title: A\ndate: 2021-03-04\ntags: [Go]",
        ),
        (
            "content/posts/draft.md",
            "title: D\ndate: 2024-01-01\ndraft: true\ntags: [Go]",
        ),
        (
            "content/posts/sub/_index.md",
            "title: Sub Part\ndate: 2019-01-02",
        ),
        (
            "content/posts/sub/b.md",
            "title: B\ndate: 2023-05-06\ntags: [Rust]\ncategories: [Notes]",
        ),
        ("content/docs/guides/_index.md", "title: All Guides"),
        ("content/docs/guides/x.md", "title: X"),
        ("content/docs/guides/deep/_index.md", "title: Deep Things"),
        ("content/news/item.md", "title: Item\ndate: 2022-07-08"),
        ("content/tags/_index.md", "title: Topics"),
    ];
    let texts: Vec<(&str, String)> = files.iter().map(|(p, b)| (*p, fm(b))).collect();
    let mut tree: Vec<(&str, &str)> = vec![("hugo.toml", config)];
    tree.extend(texts.iter().map(|(p, t)| (*p, t.as_str())));
    common::write_tree(d.path(), &tree);
    let got = urls_under_168(d.path());
    let hugo: BTreeSet<String> = [
        "",
        "archive/2019/sub-part/",
        "archive/2023/blog-entries/",
        "blog-entries/a/",
        "blog-entries/sub/b/",
        "categories/notes.html",
        "docs/",
        "docs/guides/x/",
        "g/guides/all-guides/",
        "g/guides/deep/deep-things/",
        "kinds/categories/2023/index.html",
        "n/news/07/",
        "news/item/",
        "tags/go/",
        "tags/rust/",
        "topics/topics/126/",
    ]
    .iter()
    .map(|p| format!("https://example.org/{p}"))
    .collect();
    assert_eq!(got, hugo);
}

/// From Hugo 0.167 a section's slug renames its folder in its pages' URLs, and
/// `:sectionslugs` names the sections by slug; `:section` and `:sections` still name the
/// folders as written. The URLs are what Hugo 0.168.0 wrote for this site.
#[test]
fn page_permalinks_name_folders_by_section_and_slugs_by_sectionslugs() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\n[permalinks]\n\
                  posts = \"/:section/:sections/:sectionslugs/:filename/\"\n";
    common::write_tree(
        d.path(),
        &[
            ("hugo.toml", config),
            (
                "content/posts/_index.md",
                "---\ntitle: Posts\nslug: blog-entries\n---\n",
            ),
            (
                "content/posts/deep/_index.md",
                "---\ntitle: Deep\nslug: deeper\n---\n",
            ),
            ("content/posts/a.md", "---\ntitle: A\n---\nx\n"),
            ("content/posts/deep/b.md", "---\ntitle: B\n---\nx\n"),
        ],
    );
    let got = urls_under_168(d.path());
    let hugo: BTreeSet<String> = [
        "",
        "blog-entries/",
        "blog-entries/deeper/",
        "categories/",
        "posts/posts/blog-entries/a/",
        "posts/posts/deep/blog-entries/deeper/b/",
        "tags/",
    ]
    .iter()
    .map(|p| format!("https://example.org/{p}"))
    .collect();
    assert_eq!(got, hugo);
}

/// The URLs sitemapgen lists for the site in `dir` under Hugo 0.168.0's rules.
fn urls_under_168(dir: &Path) -> BTreeSet<String> {
    let out = tempfile::tempdir().unwrap();
    let o = common::run(
        dir,
        &[
            "build",
            "--quiet",
            "--site",
            ".",
            "--output",
            out.path().to_str().unwrap(),
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    url_locs(&std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap())
}

/// Hugo 0.168 also reads `[[permalinks]]` rules with a page matcher; sitemapgen does not yet,
/// and stops, naming the line, rather than list those pages where the site does not serve
/// them (Hugo wrote `/x/a/` for this site; the folders would have given `/posts/a/`).
#[test]
fn permalink_rules_by_page_matcher_are_refused_not_misread() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\n[[permalinks]]\npattern = '/x/:slug/'\n\
                  [permalinks.target]\nkind = 'page'\npath = '{/posts/**}'\n";
    common::write_tree(
        d.path(),
        &[
            ("hugo.toml", config),
            ("content/posts/a.md", "---\ntitle: A\n---\nx\n"),
        ],
    );
    let o = common::run(
        d.path(),
        &["build", "--site", ".", "--hugo-version", "0.168.0"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        common::stderr(&o)
            .contains("hugo.toml:2: `[[permalinks]]` rules with a `target` are not read"),
        "{}",
        text(&o)
    );
    assert!(!d.path().join("public/sitemap.xml").exists());
}

#[test]
fn a_mount_lang_is_read_until_hugo_fails_it_in_0_168() {
    // `lang` on a mount: deprecated in 0.153 for `sites.matrix`; Hugo fails a deprecated key
    // fifteen minor releases on, so 0.168 stops (after writing its files, with exit 1).
    assert_same("mount-lang", "0.111", "0.111.3");
    assert_same("mount-lang", "0.111", "0.167.0");
    assert_refused(
        "mount-lang",
        "0.168",
        "0.168.0",
        "hugo.toml:6: a mount's `lang`",
    );
}

#[test]
fn a_permalink_without_its_leading_slash_is_ill_formed_before_0_137() {
    // `posts = "x/:slug/"`: Hugo up to 0.136 reads the pattern past its first byte, finds an
    // empty segment before the last, and stops; 0.168 publishes `/x/hello-world/`.
    assert_refused(
        "ill-formed-permalink",
        "0.111",
        "0.111.3",
        "hugo.toml:3: the permalink pattern 'x/:slug/' is ill-formed",
    );
    assert_same("ill-formed-permalink", "0.168", "0.168.0");
    assert_same("ill-formed-permalink", "0.168", "0.137.0");
}

#[test]
fn html_content_stops_hugo_0_162_and_later_draft_or_not() {
    // A draft `old.html` beside a Markdown page: Hugo 0.111 leaves the draft out; 0.168
    // refuses any text/html content file unless `security.allowContent` allows it.
    assert_same("html-content", "0.111", "0.111.3");
    assert_same("html-content", "0.111", "0.161.0");
    assert_refused(
        "html-content",
        "0.168",
        "0.168.0",
        "content/posts/old.html:1: Hugo 0.168.0 does not build \"text/html\" content",
    );
}

#[test]
fn ignore_files_drop_files_and_folders_by_their_absolute_path() {
    // `ignoreFiles`: `_cache$` drops a folder with its page, `\.Rmd$` nothing (the file
    // is `c.Rmd.md`), `/content/posts/b` the page `b.md` by its absolute path.
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert!(!hugo("ignore-files", short).contains("https://example.org/posts/b/"));
        assert_same("ignore-files", short, full);
    }
}

#[test]
fn sections_token_names_the_page_s_own_section_only() {
    // `:sections` names the nearest folder with an `_index` (a top-level folder without one
    // is a section too): `news/deep/b.md` (no `deep/_index.md`) is in `news`, and
    // `news/deep2/sub/d.md` in `news/deep2`.
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        let hugo = hugo("sections-token", short);
        assert!(hugo.contains("https://example.org/n/news/b/"));
        assert!(hugo.contains("https://example.org/b/x/e/"));
        assert_same("sections-token", short, full);
    }
}
