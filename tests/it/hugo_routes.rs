//! Hugo routing on small sites, each checked against the URLs Hugo 0.111.3 itself listed for
//! the same tree (built with `hugo` while writing these tests).

use crate::common;

use common::{text, url_locs, write_tree};
use std::collections::BTreeSet;
use std::path::Path;

/// Runs sitemapgen with `args` under Hugo 0.111.3's rules, the Hugo these sites were built
/// with.
fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    common::run(dir, &[args, &["--hugo-version", "0.111.3"]].concat())
}

/// Builds the site in `dir` into a new temporary folder; the run must succeed.
fn build_into(dir: &Path) -> (tempfile::TempDir, std::process::Output) {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        dir,
        &[
            "build",
            "--site",
            ".",
            "--output",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    (out, o)
}

/// Builds the site in `dir` and returns the decoded locs of `file` in the output folder.
fn urls(dir: &Path, file: &str) -> BTreeSet<String> {
    let (out, _) = build_into(dir);
    // A multilingual site's set is an index over one file per language: all its URLs.
    url_locs(&common::set_text(out.path(), file))
}

fn set(urls: &[&str]) -> BTreeSet<String> {
    urls.iter().map(|s| s.to_string()).collect()
}

/// `disablePathToLower`, `removePathAccents`, `disableKinds`, `[sitemap] filename`, a
/// section's own cascade, a headless bundle, a top-level leaf bundle.
#[test]
fn path_options_disable_kinds_cascade_and_bundles() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisablePathToLower = true\nremovePathAccents = true\ndisableKinds = [\"section\", \"taxonomy\"]\nignoreErrors = [\"error-disable-taxonomy\"]\n[sitemap]\n  filename = \"map.xml\"\n",
            ),
            ("content/Blog/Post-One.md", "---\ntitle: A\n---\n"),
            ("content/Blog/Nested/deep.md", "---\ntitle: N\n---\n"),
            (
                "content/docs/sub/_index.md",
                "---\ntitle: S\ncascade:\n  _build:\n    list: never\n---\n",
            ),
            ("content/docs/sub/page.md", "---\ntitle: P\n---\n"),
            ("content/docs/d.md", "---\ntitle: D\n---\n"),
            ("content/bundle/hl/index.md", "---\nheadless: true\n---\n"),
            (
                "content/Über/Crème.md",
                "---\ntitle: C\ntags: [Crème Brûlée]\n---\n",
            ),
            ("content/about/index.md", "---\ntitle: Ab\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "map.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/Blog/Nested/deep/",
            "https://example.org/Blog/Post-One/",
            "https://example.org/Uber/Creme/",
            "https://example.org/about/",
            "https://example.org/docs/d/",
            "https://example.org/tags/Creme-Brulee/",
        ])
    );
}

/// Sections: a headless bundle still makes its top-level folder a section; a cascade of
/// `_build.list = never` hides the section that declares it and everything below.
#[test]
fn sections_cascade_and_headless() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            ("content/_index.md", "---\ntitle: H\n---\n"),
            ("content/docs/_index.md", "---\ntitle: S\n---\n"),
            (
                "content/docs/sub/_index.md",
                "---\ntitle: S\ncascade:\n  _build:\n    list: never\n---\n",
            ),
            ("content/docs/sub/page.md", "---\ntitle: P\n---\n"),
            ("content/bundle/hl/index.md", "---\nheadless: true\n---\n"),
            ("content/blog/post.md", "---\ntitle: B\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/blog/",
            "https://example.org/blog/post/",
            "https://example.org/bundle/",
            "https://example.org/categories/",
            "https://example.org/docs/",
            "https://example.org/tags/",
        ])
    );
}

/// `defaultContentLanguageInSubdir`, `uglyURLs`, `[permalinks]` with `:sections`, a language
/// `contentDir` inside the shared content folder (Hugo reads it twice: as `fr` content and
/// as the `fr` folder of the `en` site), and a language with no content of its own.
#[test]
fn languages_in_subdirs_ugly_urls_permalinks_and_content_dirs() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\ndefaultContentLanguageInSubdir = true\nuglyURLs = true\n[permalinks]\n  blog = \"/:sections/:year/:filename/\"\n[languages.en]\n  weight = 1\n[languages.fr]\n  weight = 2\n  contentDir = \"content/fr\"\n[languages.de]\n  weight = 3\n",
            ),
            (
                "content/blog/post.md",
                "---\ntitle: A\ndate: 2023-05-01\n---\n",
            ),
            (
                "content/blog/post.de.md",
                "---\ntitle: A\ndate: 2023-05-01\n---\n",
            ),
            (
                "content/fr/blog/post.md",
                "---\ntitle: A\ndate: 2022-05-01\n---\n",
            ),
            ("content/about.md", "---\ntitle: About\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/de/",
            "https://example.org/de/blog.html",
            "https://example.org/de/blog/2023/post.html",
            "https://example.org/de/categories.html",
            "https://example.org/de/tags.html",
            "https://example.org/en/",
            "https://example.org/en/about.html",
            "https://example.org/en/blog.html",
            "https://example.org/en/blog/2023/post.html",
            "https://example.org/en/categories.html",
            "https://example.org/en/fr.html",
            "https://example.org/en/fr/blog/post.html",
            "https://example.org/en/tags.html",
            "https://example.org/fr/",
            "https://example.org/fr/blog.html",
            "https://example.org/fr/blog/2022/post.html",
            "https://example.org/fr/categories.html",
            "https://example.org/fr/tags.html",
        ])
    );
}

/// Multihost: each language on its own `baseURL`, no `/lang/` prefix; `post.de.md` names no
/// configured language, so it is an English page called `post.de`. Each host gets a sitemap of
/// its own in a folder named for the language, as Hugo writes `public/en/sitemap.xml` and
/// `public/fr/sitemap.xml` (and none at the top), each listing only its own host's URLs and
/// linking the other host's translations.
#[test]
fn multihost_languages_use_their_own_base_url() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\ndisableKinds = [\"sitemap\"]\n[languages.en]\n  weight = 1\n  baseURL = \"https://example.com/\"\n[languages.fr]\n  weight = 2\n  baseURL = \"https://example.fr/\"\n",
            ),
            ("content/blog/post.md", "---\ntitle: A\n---\n"),
            ("content/blog/post.de.md", "---\ntitle: A\n---\n"),
            ("content/about.md", "---\ntitle: About\n---\n"),
            ("content/about.fr.md", "---\ntitle: B\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "en/sitemap.xml"),
        set(&[
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/post.de/",
            "https://example.com/blog/post/",
            "https://example.com/categories/",
            "https://example.com/tags/",
        ])
    );
    let (out, o) = build_into(d.path());
    assert!(!out.path().join("sitemap.xml").exists());
    let fr = std::fs::read_to_string(out.path().join("fr/sitemap.xml")).unwrap();
    assert_eq!(
        url_locs(&fr),
        set(&[
            "https://example.fr/",
            "https://example.fr/about/",
            "https://example.fr/categories/",
            "https://example.fr/tags/",
        ])
    );
    // Translations still point across hosts.
    assert!(
        fr.contains(
            r#"<xhtml:link rel="alternate" hreflang="en" href="https://example.com/about/"/>"#
        ),
        "{fr}"
    );
    common::validate_with_xsd(&[out.path().join("fr/sitemap.xml")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("warning"), "{err}");
    assert!(
        err.contains("/en/sitemap.xml and ") && err.contains("/fr/sitemap.xml in "),
        "{err}"
    );
    // `check` compares both hosts' files: clean right after the build, and it names a
    // missing one by its folder.
    let check = || {
        let dir = out.path().to_str().unwrap();
        run(d.path(), &["check", "--site", ".", "--output", dir])
    };
    let c = check();
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    std::fs::remove_file(out.path().join("fr/sitemap.xml")).unwrap();
    let c = check();
    assert_eq!(c.status.code(), Some(1), "{}", text(&c));
    assert!(text(&c).contains("fr/sitemap.xml"), "{}", text(&c));
}

/// Hugo multihost needs no top-level `baseURL`, and refuses a config where only some languages
/// have one; so do we, naming the config and the languages without one.
#[test]
fn multihost_base_urls_are_all_or_none() {
    let d = tempfile::tempdir().unwrap();
    let langs = "defaultContentLanguage = \"en\"\n[languages.en]\n  weight = 1\n  baseURL = \"https://example.com/\"\n[languages.fr]\n  weight = 2\n  baseURL = \"https://example.fr/\"\n";
    write_tree(
        d.path(),
        &[
            ("hugo.toml", langs),
            ("content/about.md", "---\ntitle: A\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "en/sitemap.xml"),
        set(&[
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/categories/",
            "https://example.com/tags/",
        ])
    );
    let mixed = langs.replace("  baseURL = \"https://example.fr/\"\n", "");
    write_tree(d.path(), &[("hugo.toml", mixed.as_str())]);
    let o = run(d.path(), &["build", "--site", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = text(&o);
    assert!(
        err.contains("hugo.toml") && err.contains("all or none") && err.contains("missing on fr"),
        "{err}"
    );
}

/// `url` and `slug` in a second language: an absolute page `url` is verbatim, a relative one
/// is below the language; a section `url` is sanitized and lower-cased, and an absolute one
/// takes no language prefix either; `slug` names a translated leaf bundle.
#[test]
fn url_and_slug_in_a_second_language() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\n[languages.en]\n  weight = 1\n[languages.fr]\n  weight = 2\n",
            ),
            (
                "content/blog/a.fr.md",
                "---\ntitle: A\nurl: /abs/Path/\n---\n",
            ),
            (
                "content/blog/b.fr.md",
                "---\ntitle: A\nurl: rel/path\n---\n",
            ),
            (
                "content/blog/bun/index.fr.md",
                "---\ntitle: A\nslug: My Slug\n---\n",
            ),
            ("content/blog/bun/index.md", "---\ntitle: A\n---\n"),
            (
                "content/sec/_index.fr.md",
                "---\ntitle: S\nurl: /Sec-X/\n---\n",
            ),
            (
                "content/sec/_index.md",
                "---\ntitle: S\nurl: Rel-Sec/\n---\n",
            ),
            ("content/sec/p.fr.md", "---\ntitle: S\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/abs/Path/",
            "https://example.org/blog/",
            "https://example.org/blog/bun/",
            "https://example.org/categories/",
            "https://example.org/fr/",
            "https://example.org/fr/blog/",
            "https://example.org/fr/blog/my-slug/",
            "https://example.org/fr/categories/",
            "https://example.org/fr/rel/path/",
            "https://example.org/fr/sec/p/",
            "https://example.org/fr/tags/",
            "https://example.org/rel-sec/",
            "https://example.org/sec-x/",
            "https://example.org/tags/",
        ])
    );
}

/// `uglyURLs` with `[permalinks]` for pages and terms, custom taxonomies, a bundle's `slug`
/// and resources, `_build` on sections (their pages stay listed), and the way Hugo 0.111
/// turns `+` in a permalink's slug or term into `-`.
#[test]
fn ugly_permalinks_taxonomies_and_section_build_options() {
    let d = tempfile::tempdir().unwrap();
    let mut files = vec![
        (
            "hugo.toml".to_string(),
            "baseURL = \"https://example.org/\"\nuglyURLs = true\n[taxonomies]\n  tag = \"tags\"\n  series = \"series\"\n[permalinks]\n  posts = \"/:year/:slug/\"\n  tags = \"/topic/:slug/\"\n".to_string(),
        ),
        (
            "content/posts/a.md".into(),
            "---\ntitle: Hello World\ndate: 2023-01-02\ntags: [Go Lang, \"C++\"]\nseries: [One]\n---\n".into(),
        ),
        (
            "content/posts/bun/index.md".into(),
            "---\ntitle: Bundle Post\ndate: 2022-01-02\nslug: Bun-Slug\n---\n".into(),
        ),
        ("content/posts/bun/extra.md".into(), "x".into()),
        ("content/docs/a/b/c.md".into(), "---\ntitle: B\n---\n".into()),
        ("content/docs/a/_index.md".into(), "---\ntitle: A\n---\n".into()),
        (
            "content/hidden/_index.md".into(),
            "---\ntitle: H\n_build:\n  render: never\n---\n".into(),
        ),
        ("content/hidden/child.md".into(), "---\ntitle: H\n---\n".into()),
        (
            "content/list/_index.md".into(),
            "---\ntitle: L\n_build:\n  list: never\n---\n".into(),
        ),
        ("content/list/child.md".into(), "---\ntitle: L\ntags: [x]\n---\n".into()),
    ];
    for (i, slug) in ["foo--bar", "a + b", "x+-y", "-lead+", "p++q", "Ü+ß"]
        .iter()
        .enumerate()
    {
        files.push((
            format!("content/posts/s{}.md", i + 1),
            format!(
                "---\ntitle: x\nslug: \"{slug}\"\ndate: 2024-01-0{}\n---\n",
                i + 1
            ),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    write_tree(d.path(), &refs);
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/2022/bun-slug.html",
            "https://example.org/2023/hello-world.html",
            "https://example.org/2024/a--b.html",
            "https://example.org/2024/foo--bar.html",
            "https://example.org/2024/lead-.html",
            "https://example.org/2024/p-q.html",
            "https://example.org/2024/x-y.html",
            "https://example.org/2024/ü-ß.html",
            "https://example.org/docs.html",
            "https://example.org/docs/a.html",
            "https://example.org/docs/a/b/c.html",
            "https://example.org/hidden/child.html",
            "https://example.org/list/child.html",
            "https://example.org/posts.html",
            "https://example.org/series.html",
            "https://example.org/series/one.html",
            "https://example.org/tags.html",
            "https://example.org/topic/c-.html",
            "https://example.org/topic/go-lang.html",
            "https://example.org/topic/x.html",
        ])
    );
}

/// `disableKinds = ["sitemap"]` turns Hugo's own sitemap off (as the README asks): ours is then
/// the only one, and is written; `--verbose` says the generator's is off.
#[test]
fn disabled_sitemap_kind_still_writes_ours_and_says_so_in_verbose() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"taxonomy\", \"term\"]\n",
            ),
            ("content/a.md", "---\ntitle: A\n---\n"),
        ],
    );
    let o = run(d.path(), &["build", "--site", "."]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("disableKinds"), "{}", text(&o));
    let path = d.path().join("public/sitemap.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    common::validate_with_xsd(&[path]);
    assert_eq!(
        url_locs(&xml),
        set(&["https://example.org/", "https://example.org/a/"])
    );
    let o = run(d.path(), &["build", "--site", ".", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "sets disableKinds = [\"sitemap\"]: the generator writes no sitemap, so sitemapgen's is the only one"
        ),
        "{}",
        text(&o)
    );
}

/// Every language has its own `contentDir` inside content/: Hugo then reads nothing else from
/// content/ (`stray.md` is not a page); a top-level leaf bundle is a page, not a section; the
/// two `blog/post.md` files are translations of each other.
#[test]
fn per_language_content_dirs_replace_the_default_one() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\ndisableKinds = [\"taxonomy\", \"term\"]\n[languages.en]\n  weight = 1\n  contentDir = \"content/en\"\n[languages.fr]\n  weight = 2\n  contentDir = \"content/fr\"\n",
            ),
            ("content/en/blog/post.md", "---\ntitle: A\n---\n"),
            ("content/fr/blog/post.md", "---\ntitle: A\n---\n"),
            ("content/stray.md", "---\ntitle: S\n---\n"),
            ("content/en/myshow/index.md", "---\ntitle: M\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/blog/",
            "https://example.org/blog/post/",
            "https://example.org/fr/",
            "https://example.org/fr/blog/",
            "https://example.org/fr/blog/post/",
            "https://example.org/myshow/",
        ])
    );
    let (out, _) = build_into(d.path());
    let xml = common::set_text(out.path(), "sitemap.xml");
    let post = xml
        .split("<url>")
        .find(|b| b.contains("<loc>https://example.org/blog/post/</loc>"))
        .unwrap();
    assert!(
        post.contains("hreflang=\"fr\" href=\"https://example.org/fr/blog/post/\""),
        "{post}"
    );
}

/// Hugo reads terms from top-level lists only: a Zola-style `taxonomies` map is a plain param
/// (Hugo 0.111.3 lists `/tags/top/` and nothing for `fromtable`).
#[test]
fn a_taxonomies_map_is_not_a_term_list() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            (
                "content/a.md",
                "---\ntitle: A\ntags: [top]\ntaxonomies:\n  tags: [fromtable]\n---\nx\n",
            ),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/a/",
            "https://example.org/categories/",
            "https://example.org/tags/",
            "https://example.org/tags/top/",
        ])
    );
}

/// A page's negative `sitemap.priority` is Hugo's "not set": Hugo 0.111.3 writes no
/// `<priority>` for it even under a site-wide one. Values the protocol forbids (Hugo writes
/// them) are left out, and the site's values stand in.
#[test]
fn a_negative_page_priority_cancels_the_site_default() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n[sitemap]\n  priority = 0.5\n  changefreq = \"weekly\"\n",
            ),
            (
                "content/a.md",
                "---\ntitle: A\nsitemap:\n  priority: -1\n---\nx\n",
            ),
            (
                "content/b.md",
                "---\ntitle: B\nsitemap:\n  priority: 1.5\n  changefreq: bogus\n---\nx\n",
            ),
            ("content/c.md", "---\ntitle: C\n---\nx\n"),
        ],
    );
    let (out, _) = build_into(d.path());
    let url = |loc: &str, priority: bool| {
        format!(
            "  <url>\n    <loc>https://example.org/{loc}</loc>\n    <changefreq>weekly</changefreq>\n{}  </url>\n",
            if priority {
                "    <priority>0.5</priority>\n"
            } else {
                ""
            }
        )
    };
    let want = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{}{}{}{}</urlset>\n",
        url("", true),
        url("a/", false),
        url("b/", true),
        url("c/", true),
    );
    let path = out.path().join("sitemap.xml");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), want);
    common::validate_with_xsd(&[path]);
}

/// Sections Hugo 0.111 hides and what survives them: below a future, draft or expired
/// section no page is built, and nested sections are not listed but still give their terms;
/// a section without `_index.md` is named in lower case even with `disablePathToLower`, and a
/// nested section implies it; a headless bundle's terms are listed; a leaf bundle shadows the
/// page of the same name; a section `url` ending in a file name gets no slash.
#[test]
fn hidden_sections_implicit_sections_headless_terms_and_shadowed_pages() {
    let d = tempfile::tempdir().unwrap();
    let fm = |extra: &str| format!("---\ntitle: t\n{extra}---\n");
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisablePathToLower = true\n",
            ),
            ("content/fut/_index.md", &fm("date: 2030-01-01\n")),
            ("content/fut/a.md", &fm("tags: [ta]\n")),
            ("content/fut/sub/_index.md", &fm("tags: [ts]\n")),
            ("content/fut/sub/b.md", &fm("tags: [tb]\n")),
            ("content/fut/nosec/deeper/_index.md", &fm("tags: [td]\n")),
            ("content/drafty/_index.md", &fm("draft: true\n")),
            ("content/drafty/inner/_index.md", &fm("categories: [cin]\n")),
            ("content/drafty/x.md", &fm("")),
            ("content/old/_index.md", &fm("expiryDate: 2020-01-01\n")),
            ("content/old/y.md", &fm("tags: [told]\n")),
            ("content/Misc/deep/er/_index.md", &fm("")),
            ("content/notes/post.md", &fm("tags: [shadowed]\n")),
            ("content/notes/post/index.md", &fm("")),
            ("content/shop/_index.md", &fm("url: /Shop/Index.html\n")),
            (
                "content/bund/hl/index.md",
                &fm("headless: true\ntags: [fromheadless]\n"),
            ),
            ("content/bund/page.md", &fm("")),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/Misc/deep/er/",
            "https://example.org/Shop/Index.html",
            "https://example.org/bund/",
            "https://example.org/bund/page/",
            "https://example.org/categories/",
            "https://example.org/categories/cin/",
            "https://example.org/misc/",
            "https://example.org/notes/",
            "https://example.org/notes/post/",
            "https://example.org/tags/",
            "https://example.org/tags/fromheadless/",
            "https://example.org/tags/td/",
            "https://example.org/tags/ts/",
        ])
    );
}

/// Permalink dates as Hugo formats them: year, day of the year and weekday unpadded; a page
/// without `date` or `publishDate` takes its `lastmod`, and one with none of them Go's zero
/// time (0001-01-01, a Monday); a pattern without a final `/` ends like one with it.
#[test]
fn permalink_dates_are_formatted_as_hugo_formats_them() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\n[permalinks]\n  posts = \"/:year/:yearday/:weekday/:slug\"\n  notes = \"/:year/:month/:day/:monthname/:weekdayname/:title\"\n";
    write_tree(
        d.path(),
        &[
            ("hugo.toml", config),
            (
                "content/posts/a.md",
                "---\ntitle: A\ndate: 2021-03-04\n---\n",
            ),
            ("content/posts/b.md", "---\ntitle: B\n---\n"),
            (
                "content/notes/c.md",
                "---\ntitle: C\nlastmod: 2022-05-06\n---\n",
            ),
            ("content/notes/d.md", "---\ntitle: D\n---\n"),
        ],
    );
    let pages = [
        "https://example.org/1/01/01/january/monday/d",
        "https://example.org/1/1/1/b",
        "https://example.org/2021/63/4/a",
        "https://example.org/2022/05/06/may/friday/c",
    ];
    let lists = ["", "categories", "notes", "posts", "tags"];
    let want = |end: &str| -> BTreeSet<String> {
        let mut all: BTreeSet<String> = pages.iter().map(|p| format!("{p}{end}")).collect();
        all.insert("https://example.org/".into());
        all.extend(
            lists[1..]
                .iter()
                .map(|l| format!("https://example.org/{l}{end}")),
        );
        all
    };
    assert_eq!(urls(d.path(), "sitemap.xml"), want("/"));
    write_tree(
        d.path(),
        &[("hugo.toml", &format!("uglyURLs = true\n{config}"))],
    );
    assert_eq!(urls(d.path(), "sitemap.xml"), want(".html"));
}

/// A headless bundle is not listed, but Hugo counts its date in the sections above it (as it
/// does a `render = never` page's), and its terms are listed. A language whose `contentDir`
/// does not exist yet just has no pages.
#[test]
fn headless_bundles_date_their_sections_and_missing_language_dirs_are_empty() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\n[languages.en]\n  weight = 1\n  contentDir = \"content\"\n[languages.fr]\n  weight = 2\n  contentDir = \"content_fr\"\n",
            ),
            ("content/sec/p.md", "---\ntitle: p\ndate: 2020-01-01\n---\n"),
            (
                "content/sec/deep/index.md",
                "---\ntitle: d\ndate: 2022-02-02\nheadless: true\ntags: [hl]\n---\n",
            ),
        ],
    );
    let (out, _) = build_into(d.path());
    let xml = common::set_text(out.path(), "sitemap.xml");
    let lastmod_of = |loc: &str| {
        let at = xml.find(&format!("<loc>{loc}</loc>")).unwrap();
        let rest = &xml[at..xml[at..].find("</url>").unwrap() + at];
        rest.split("<lastmod>").nth(1).map(|l| l[..10].to_string())
    };
    assert_eq!(
        lastmod_of("https://example.org/sec/").as_deref(),
        Some("2022-02-02")
    );
    assert_eq!(
        lastmod_of("https://example.org/sec/p/").as_deref(),
        Some("2020-01-01")
    );
    let locs = url_locs(&xml);
    assert!(locs.contains("https://example.org/tags/hl/"), "{locs:?}");
    assert!(!locs.iter().any(|l| l.contains("/deep/")), "{locs:?}");
    assert!(locs.contains("https://example.org/fr/"), "{locs:?}");
}

/// A leaf bundle shadows only the page of its own language and name: `post.fr.md` beside an
/// English `post/index.md` is the French page (Hugo 0.111.3 lists both).
#[test]
fn a_leaf_bundle_shadows_only_its_own_languages_page() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\n[languages.en]\n  weight = 1\n[languages.fr]\n  weight = 2\n",
            ),
            ("content/docs/post/index.md", "---\ntitle: en bundle\n---\n"),
            ("content/docs/post.fr.md", "---\ntitle: fr page\n---\n"),
            ("content/docs/other.md", "---\ntitle: en page\n---\n"),
            (
                "content/docs/other/index.md",
                "---\ntitle: en bundle\n---\n",
            ),
        ],
    );
    let got = urls(d.path(), "sitemap.xml");
    let docs: Vec<&str> = got
        .iter()
        .map(String::as_str)
        .filter(|u| u.contains("/docs/"))
        .collect();
    assert_eq!(
        docs,
        [
            "https://example.org/docs/",
            "https://example.org/docs/other/",
            "https://example.org/docs/post/",
            "https://example.org/fr/docs/",
            "https://example.org/fr/docs/post/",
        ]
    );
}

/// Turned-off languages (`disabled = true`, `disableLanguages`): their files are known by
/// their suffix and left out, not taken for default-language pages named `a.de`; the default
/// language need not be the first one named.
#[test]
fn files_of_turned_off_languages_are_left_out() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"fr\"\ndisableLanguages = [\"es\"]\n[languages.en]\n  weight = 2\n[languages.fr]\n  weight = 1\n[languages.de]\n  weight = 3\n  disabled = true\n[languages.es]\n  weight = 4\n",
            ),
            ("content/docs/a.md", "---\ntitle: a\n---\n"),
            ("content/docs/a.en.md", "---\ntitle: a\n---\n"),
            ("content/docs/a.de.md", "---\ntitle: a\ntags: [de]\n---\n"),
            ("content/docs/a.es.md", "---\ntitle: a\n---\n"),
        ],
    );
    assert_eq!(
        urls(d.path(), "sitemap.xml"),
        set(&[
            "https://example.org/",
            "https://example.org/categories/",
            "https://example.org/docs/",
            "https://example.org/docs/a/",
            "https://example.org/en/",
            "https://example.org/en/categories/",
            "https://example.org/en/docs/",
            "https://example.org/en/docs/a/",
            "https://example.org/en/tags/",
            "https://example.org/tags/",
        ])
    );
}

/// A tag whose term page would climb above the site names the page that carries it.
#[test]
fn a_term_page_that_leaves_the_site_names_a_page_with_the_term() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            ("content/ok.md", "---\ntitle: ok\n---\n"),
            (
                "content/evil.md",
                "---\ntitle: x\ntags: [\"../../../etc\"]\n---\n",
            ),
        ],
    );
    let o = run(d.path(), &["build", "--site", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = text(&o);
    assert!(
        err.contains("content/evil.md") && err.contains("climbs above the site root"),
        "{err}"
    );
}

/// A front matter `lang` is ignored, as Hugo 0.111.3 and 0.168.0 ignore it, whether the site
/// configures that language or not: the page is listed in the default language, never
/// under `/x%20y/` with `hreflang="x y"`, nor under `/fr/`.
#[test]
fn a_front_matter_lang_leaves_the_page_in_the_default_language() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n",
            ),
            ("content/posts/_index.md", "---\ntitle: x\n---\n"),
            ("content/posts/p.md", "---\ntitle: x\nlang: \"x y\"\n---\n"),
            ("content/posts/q.md", "---\ntitle: q\nlang: FR\n---\n"),
        ],
    );
    let (out, _) = build_into(d.path());
    let all = common::set_text(out.path(), "sitemap.xml");
    assert!(
        all.contains("<loc>https://example.org/posts/p/</loc>"),
        "{all}"
    );
    assert!(
        all.contains("<loc>https://example.org/posts/q/</loc>"),
        "{all}"
    );
    assert!(
        !all.contains("/fr/posts/") && !all.contains("x%20y") && !all.contains("hreflang=\"x y\""),
        "{all}"
    );
}
