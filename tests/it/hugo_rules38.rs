//! Hugo rules of issue 38: term permalinks and their tokens, a taxonomy's own build options,
//! the hyphens of `:title`, `:slug` and `:filename`, and what Hugo 0.111 builds that 0.168
//! refuses. Each site in `tests/fixtures/hugo38/` was built with the real Hugo 0.111.3 and
//! 0.168.0; `expected-<version>/` holds the sitemap Hugo wrote, or `hugo-error.txt` where
//! Hugo stopped. The sites written here (permalinks by kind, `[[permalinks]]` rules) hold the
//! URLs the real Hugo listed for them. Every test compares every URL with Hugo's.

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

/// The sitemap Hugo `version` wrote for a case.
fn hugo_xml(name: &str, version: &str) -> String {
    std::fs::read_to_string(case(name).join(format!("expected-{version}/sitemap.xml"))).unwrap()
}

/// Asserts we list Hugo's URLs with Hugo's days under both releases, and that each dated
/// the home `day`.
fn assert_same_home_day(name: &str, day: &str) {
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
        let home = lastmod_of(&hugo_xml(name, short), "https://example.org/");
        assert_eq!(home.as_deref(), Some(day), "{name} under {full}");
    }
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

/// Asserts we list exactly Hugo's URLs, each with Hugo's `<lastmod>` day.
fn assert_same_dates(name: &str, short: &str, full: &str) {
    assert_same(name, short, full);
    let expected = case(name).join(format!("expected-{short}/sitemap.xml"));
    let hugo_xml = std::fs::read_to_string(expected).unwrap();
    let (o, out) = run(name, full);
    assert!(o.status.success(), "{}", text(&o));
    let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
    for url in hugo(name, short) {
        assert_eq!(
            lastmod_of(&ours, &url),
            lastmod_of(&hugo_xml, &url),
            "{url} under {full}"
        );
    }
}

/// Asserts our sitemap of each language (`en/sitemap.xml`, ...) lists Hugo's URLs with
/// Hugo's lastmod days (a URL Hugo lists twice, each with its date, is not dated here).
fn assert_same_by_language(name: &str, short: &str, full: &str, langs: &[&str]) {
    let (o, out) = run(name, full);
    assert!(o.status.success(), "{}", text(&o));
    for lang in langs {
        let file = format!("{lang}/sitemap.xml");
        let expected = case(name).join(format!("expected-{short}")).join(&file);
        let hugo_xml = std::fs::read_to_string(expected).unwrap();
        let ours_xml = std::fs::read_to_string(out.path().join(&file)).unwrap();
        let hugo_urls = url_locs(&hugo_xml);
        assert_eq!(url_locs(&ours_xml), hugo_urls, "{file} under {full}");
        let twice = |u: &str| hugo_xml.matches(&format!("<loc>{u}</loc>")).count() > 1;
        for url in hugo_urls.iter().filter(|u| !twice(u)) {
            let (a, b) = (lastmod_of(&ours_xml, url), lastmod_of(&hugo_xml, url));
            assert_eq!(a, b, "{url} under {full}");
        }
    }
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
    urls_under(dir, &["--hugo-version", "0.168.0"])
}

/// The URLs sitemapgen lists for the site in `dir`, run with `args` (the Hugo version).
fn urls_under(dir: &Path, args: &[&str]) -> BTreeSet<String> {
    let out = tempfile::tempdir().unwrap();
    let mut all = vec![
        "build",
        "--quiet",
        "--site",
        ".",
        "--output",
        out.path().to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let o = common::run(dir, &all);
    assert!(o.status.success(), "{}", text(&o));
    // A multilingual site's sitemap is an index over one per language.
    let mut urls = BTreeSet::new();
    for entry in walkdir::WalkDir::new(out.path()) {
        let entry = entry.unwrap();
        if entry.file_name() == "sitemap.xml" {
            let xml = std::fs::read_to_string(entry.path()).unwrap();
            urls.extend(url_locs(&xml).into_iter().filter(|u| !u.ends_with(".xml")));
        }
    }
    urls
}

/// Writes a site: `config` as hugo.toml, and each page's YAML front matter.
fn write_site(dir: &Path, config: &str, pages: &[(&str, &str)]) {
    let texts: Vec<(&str, String)> = (pages.iter())
        .map(|(p, fm)| (*p, format!("---\n{fm}\n---\nx\n")))
        .collect();
    let mut tree: Vec<(&str, &str)> = vec![("hugo.toml", config)];
    tree.extend(texts.iter().map(|(p, t)| (*p, t.as_str())));
    common::write_tree(dir, &tree);
}

/// URL paths below `https://example.org/`, as a set.
fn at_example(paths: &[&str]) -> BTreeSet<String> {
    (paths.iter())
        .map(|p| format!("https://example.org/{p}"))
        .collect()
}

/// Hugo 0.161+ `[[permalinks]]` rules, each a `pattern` and a `target` matching pages by
/// kind (a glob: `TAXONOMY` is `taxonomy`) and by `path`, a glob (`**`, `{a,b}`, `?`) of the
/// page's logical path (`/posts/series/part-one`, `/tags/go`, `/`). The first rule that
/// matches a page gives its pattern: `/posts/series/**` before `/posts/**`; an empty pattern
/// keeps the usual path and ends the search (`/notes/n1/`); a page's own `url` wins. The
/// home's `:title` is the site's. Hugo 0.111.3 reads no list, and every page keeps its usual
/// URL. Both URL lists are what the real Hugo 0.168.0 and 0.111.3 wrote for this site.
#[test]
fn permalink_rules_give_each_page_the_first_matching_pattern() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\ntitle = \"My Site\"
[[permalinks]]
pattern = ''
[permalinks.target]
path = '/notes/**'
[[permalinks]]
pattern = '/deep/:slug/'
[permalinks.target]
kind = 'page'
path = '/posts/series/**'
[[permalinks]]
pattern = '/:year/:month/:slug/'
[permalinks.target]
kind = 'page'
path = '{/posts/**,/news/*}'
[[permalinks]]
pattern = '/section/:sections/'
[permalinks.target]
kind = 'section'
path = '/docs{,/**}'
[[permalinks]]
pattern = '/topics/:slug/'
[permalinks.target]
kind = 'term'
path = '/tags/*'
[[permalinks]]
pattern = '/lists/:title/'
[permalinks.target]
kind = 'TAXONOMY'
[[permalinks]]
pattern = '/one/:filename/'
[permalinks.target]
path = '/misc/?'
[[permalinks]]
pattern = '/start/:title/'
[permalinks.target]
kind = 'home'
";
    write_site(
        d.path(),
        config,
        &[
            ("content/posts/_index.md", "title: Posts"),
            (
                "content/posts/bash-in-slow-motion.md",
                "title: Bash in Slow Motion\ndate: 2024-02-03\ntags: [Shell, Go]",
            ),
            ("content/posts/series/_index.md", "title: Series"),
            (
                "content/posts/series/part-one.md",
                "title: Part One\ndate: 2023-01-01",
            ),
            (
                "content/posts/bundle/index.md",
                "title: A Bundle\nslug: my-bundle\ndate: 2022-05-06",
            ),
            (
                "content/posts/own-url.md",
                "title: Own\ndate: 2022-01-01\nurl: /elsewhere/own/",
            ),
            (
                "content/news/item.md",
                "title: News Item\ndate: 2021-07-08\ncategories: [Updates]",
            ),
            ("content/news/2021/old.md", "title: Old\ndate: 2021-01-01"),
            ("content/docs/_index.md", "title: Docs"),
            ("content/docs/guide/_index.md", "title: Guide"),
            ("content/docs/guide/install.md", "title: Install"),
            ("content/notes/_index.md", "title: Notes"),
            ("content/notes/n1.md", "title: N1"),
            ("content/misc/a.md", "title: A"),
            ("content/misc/ab.md", "title: AB"),
            ("content/tags/go/_index.md", "title: Golang\nslug: go-lang"),
            ("content/about.md", "title: About"),
        ],
    );
    let hugo_168 = at_example(&[
        "2021/07/news-item/",
        "2022/05/my-bundle/",
        "2024/02/bash-in-slow-motion/",
        "about/",
        "categories/updates/",
        "deep/part-one/",
        "docs/guide/install/",
        "elsewhere/own/",
        "lists/categories/",
        "lists/tags/",
        "misc/",
        "misc/ab/",
        "news/",
        "news/2021/old/",
        "notes/",
        "notes/n1/",
        "one/a/",
        "posts/",
        "posts/series/",
        "section/docs/",
        "section/docs/guide/",
        "start/my-site/",
        "topics/go-lang/",
        "topics/shell/",
    ]);
    assert_eq!(urls_under_168(d.path()), hugo_168);
    let hugo_111 = at_example(&[
        "",
        "about/",
        "categories/",
        "categories/updates/",
        "docs/",
        "docs/guide/",
        "docs/guide/install/",
        "elsewhere/own/",
        "misc/",
        "misc/a/",
        "misc/ab/",
        "news/",
        "news/2021/old/",
        "news/item/",
        "notes/",
        "notes/n1/",
        "posts/",
        "posts/bash-in-slow-motion/",
        "posts/my-bundle/",
        "posts/series/",
        "posts/series/part-one/",
        "tags/",
        "tags/go/",
        "tags/shell/",
    ]);
    assert_eq!(
        urls_under(d.path(), &["--hugo-version", "0.111.3"]),
        hugo_111
    );
    // And 0.111 is said to ignore them, naming the line.
    let o = common::run(
        d.path(),
        &["list", "--site", ".", "--hugo-version", "0.111.3"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        common::stderr(&o).contains("hugo.toml:3: Hugo 0.111.3 does not read `[[permalinks]]`"),
        "{}",
        text(&o)
    );
}

/// A rule's `sites.matrix.languages` picks languages as Hugo's predicate does (`! en`,
/// `>= fr`: by place in the languages' order, `*` and `! fr`); a value naming no language
/// (`FR`, of another case) leaves every language; `lang` is not matched; `environment`
/// follows `--environment` (Hugo's `-e`). The home's `:title` is its own file's, else the
/// language's, else the site's. The URLs are what Hugo 0.168.0 wrote for this site, in
/// production and with `-e development`.
#[test]
fn permalink_rules_follow_languages_and_environment() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\ntitle = \"Site Title\"
[languages.en]
weight = 1
[languages.fr]
weight = 2
title = \"Titre\"
[languages.de]
weight = 3
[[permalinks]]
pattern = '/start/:title/'
[permalinks.target]
kind = 'home'
sites.matrix.languages = ['! en']
[[permalinks]]
pattern = '/dev/:slug/'
[permalinks.target]
environment = 'development'
[[permalinks]]
pattern = '/lang-field/:slug/'
[permalinks.target]
path = '/a/**'
lang = 'fr'
[[permalinks]]
pattern = '/upper/:slug/'
[permalinks.target]
path = '/b/**'
sites.matrix.languages = ['FR']
[[permalinks]]
pattern = '/first-two/:slug/'
[permalinks.target]
path = '/c/**'
sites.matrix.languages = ['>= fr']
[[permalinks]]
pattern = '/not-fr/:slug/'
[permalinks.target]
kind = 'page'
path = '/d/**'
sites.matrix.languages = ['*', '! fr']
[[permalinks]]
pattern = '/terms/:slug/'
[permalinks.target]
kind = 'term'
environment = 'prod*'
sites = {matrix = {languages = 'de'}}
";
    let mut pages: Vec<(String, String)> = Vec::new();
    for s in ["a", "b", "c", "d"] {
        pages.push((
            format!("content/{s}/p.md"),
            format!("title: {s} en\ntags: [Go]"),
        ));
        pages.push((format!("content/{s}/p.fr.md"), format!("title: {s} fr")));
        pages.push((
            format!("content/{s}/p.de.md"),
            format!("title: {s} de\ntags: [Geh]"),
        ));
    }
    pages.push(("content/_index.fr.md".into(), "title: Accueil".into()));
    let pages: Vec<(&str, &str)> = (pages.iter())
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    write_site(d.path(), config, &pages);
    let production = at_example(&[
        "",
        "a/",
        "b/",
        "c/",
        "categories/",
        "d/",
        "de/a/",
        "de/b/",
        "de/c/",
        "de/c/p/",
        "de/categories/",
        "de/d/",
        "de/lang-field/a-de/",
        "de/not-fr/d-de/",
        "de/start/site-title/",
        "de/tags/",
        "de/terms/geh/",
        "de/upper/b-de/",
        "first-two/c-en/",
        "fr/a/",
        "fr/b/",
        "fr/c/",
        "fr/categories/",
        "fr/d/",
        "fr/d/p/",
        "fr/first-two/c-fr/",
        "fr/lang-field/a-fr/",
        "fr/start/accueil/",
        "fr/tags/",
        "fr/upper/b-fr/",
        "lang-field/a-en/",
        "not-fr/d-en/",
        "tags/",
        "tags/go/",
        "upper/b-en/",
    ]);
    assert_eq!(urls_under_168(d.path()), production);
    let development = at_example(&[
        "de/dev/a-de/",
        "de/dev/as/",
        "de/dev/b-de/",
        "de/dev/bs/",
        "de/dev/c-de/",
        "de/dev/categories/",
        "de/dev/cs/",
        "de/dev/d-de/",
        "de/dev/ds/",
        "de/dev/geh/",
        "de/dev/tags/",
        "de/start/site-title/",
        "dev/a-en/",
        "dev/as/",
        "dev/b-en/",
        "dev/bs/",
        "dev/c-en/",
        "dev/categories/",
        "dev/cs/",
        "dev/d-en/",
        "dev/ds/",
        "dev/go/",
        "dev/site-title/",
        "dev/tags/",
        "fr/dev/a-fr/",
        "fr/dev/as/",
        "fr/dev/b-fr/",
        "fr/dev/bs/",
        "fr/dev/c-fr/",
        "fr/dev/categories/",
        "fr/dev/cs/",
        "fr/dev/d-fr/",
        "fr/dev/ds/",
        "fr/dev/tags/",
        "fr/start/accueil/",
    ]);
    let args = ["--hugo-version", "0.168.0", "--environment", "development"];
    assert_eq!(urls_under(d.path(), &args), development);
}

/// A rule Hugo 0.168.0 stops at stops us too, naming the line (Hugo names none): a
/// `pattern` written `Pattern` (Hugo reads the rule's own keys as written: "missing
/// pattern"), a `path` glob it cannot compile ("unclosed `{`"), a token it does not know
/// ("permalink attribute not recognised"), a `target` that is no table.
#[test]
fn permalink_rules_hugo_refuses_stop_the_run_naming_the_line() {
    for (rule, line, said) in [
        (
            "[[permalinks]]\npattern = '/a/'\n[[permalinks]]\nPattern = '/x/:slug/'",
            "hugo.toml:4:",
            "no `pattern`",
        ),
        (
            "[[permalinks]]\npattern = '/x/:slug/'\n[permalinks.target]\npath = '/posts/{a'",
            "hugo.toml:5:",
            "unclosed `{`",
        ),
        (
            "[[permalinks]]\npattern = '/x/:foo/'",
            "hugo.toml:3:",
            "unknown token :foo",
        ),
        (
            "[[permalinks]]\npattern = '/x/'\ntarget = 'page'",
            "hugo.toml:4:",
            "must be a table",
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        let config = format!("baseURL = \"https://example.org/\"\n{rule}\n");
        write_site(d.path(), &config, &[("content/posts/a.md", "title: A")]);
        let o = common::run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", "0.168.0"],
        );
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let err = common::stderr(&o);
        assert!(err.contains(line) && err.contains(said), "{rule}: {err}");
        assert!(!d.path().join("public/sitemap.xml").exists());
        // Hugo 0.111.3 reads no list, so builds.
        let o = common::run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", "0.111.3"],
        );
        assert!(o.status.success(), "{rule}: {}", text(&o));
    }
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

/// `[permalinks]` keys. Hugo 0.111.3 matches a page's top-level section (`posts/sub` names
/// none), trimming `/` off a key: `/` is the pages at the top level, a top-level bundle too.
/// From 0.161 a key is the path glob `/{key,key/**}` (`/*` for `/`): `posts/sub` takes the
/// pages below it, ahead of `posts` (Hugo takes either, in a map's order; we the longest).
/// The URLs are what Hugo 0.168.0 and 0.111.3 wrote for this site.
#[test]
fn permalink_table_keys_are_sections_then_path_globs_from_0_161() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\n[permalinks]\n\
                  \"posts/sub\" = \"/nested/:slug/\"\nposts = \"/p/:slug/\"\n\"/\" = \"/top/:slug/\"\n";
    let pages = [
        ("content/about.md", "title: About"),
        ("content/bundle/index.md", "title: Bun"),
        ("content/posts/b.md", "title: B"),
        ("content/posts/sub/_index.md", "title: S"),
        ("content/posts/sub/a.md", "title: A"),
        (
            "content/posts/sub/deeper.md",
            "title: A Page\ndate: 2020-01-01",
        ),
    ];
    write_site(d.path(), config, &pages);
    let hugo_168 = at_example(&[
        "",
        "categories/",
        "nested/a-page/",
        "nested/a/",
        "p/b/",
        "posts/",
        "posts/sub/",
        "tags/",
        "top/about/",
        "top/bun/",
    ]);
    assert_eq!(urls_under_168(d.path()), hugo_168);
    let hugo_111 = at_example(&[
        "",
        "categories/",
        "p/a-page/",
        "p/a/",
        "p/b/",
        "posts/",
        "posts/sub/",
        "tags/",
        "top/about/",
        "top/bun/",
    ]);
    assert_eq!(
        urls_under(d.path(), &["--hugo-version", "0.111.3"]),
        hugo_111
    );
}

/// With `disablePathToLower`, `:section` and `:sections` name the folders as written in Hugo
/// 0.111.3 (`My-Sub`) and in lower case from 0.123 (`my-sub`; they read the sections' paths,
/// which 0.123 lower-cases), on pages, sections and terms alike; the pattern's other tokens
/// keep their case. The URLs are what Hugo 0.111.3 and 0.168.0 wrote for these sites.
#[test]
fn section_tokens_are_lower_case_from_0_123_even_with_disable_path_to_lower() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\ndisablePathToLower = true\n\
                  [permalinks]\nblog = \"/x/:sections/:section/:slug/\"\n";
    let pages = [
        ("content/blog/My Sub/_index.md", "title: S"),
        ("content/blog/My Sub/a.md", "title: A\ntags: [Go]"),
    ];
    write_site(d.path(), config, &pages);
    let hugo_111 = at_example(&[
        "",
        "blog/",
        "blog/My-Sub/",
        "categories/",
        "tags/",
        "tags/Go/",
        "x/blog/My-Sub/blog/A/",
    ]);
    assert_eq!(
        urls_under(d.path(), &["--hugo-version", "0.111.3"]),
        hugo_111
    );
    let hugo_168 = at_example(&[
        "",
        "blog/",
        "blog/My-Sub/",
        "categories/",
        "tags/",
        "tags/Go/",
        "x/blog/my-sub/blog/A/",
    ]);
    assert_eq!(urls_under_168(d.path()), hugo_168);

    // A section's and a term's, by `[[permalinks]]` rules.
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\ndisablePathToLower = true
[[permalinks]]
pattern = '/s/:sections/:section/'
[permalinks.target]
kind = 'section'
[[permalinks]]
pattern = '/p/:sections/:section/:slug/'
[permalinks.target]
kind = 'page'
[[permalinks]]
pattern = '/t/:sections/:slug/'
[permalinks.target]
kind = 'term'
";
    let pages = [
        ("content/Docs/_index.md", "title: D"),
        ("content/Docs/My Guide/_index.md", "title: G"),
        (
            "content/Docs/My Guide/p.md",
            "title: Page One\ntags: [Big Tag]",
        ),
    ];
    write_site(d.path(), config, &pages);
    let hugo_168 = at_example(&[
        "",
        "categories/",
        "p/docs/my-guide/docs/Page-One/",
        "s/docs/docs/",
        "s/docs/my-guide/docs/",
        "t/tags/big-tag/Big-Tag/",
        "tags/",
    ]);
    assert_eq!(urls_under_168(d.path()), hugo_168);
}

/// A `[permalinks]` key (lower-cased, as Hugo reads config keys) is matched against the
/// page's top-level folder as written before 0.123, so `Blog/` takes no key in Hugo 0.111.3,
/// and against its lower-cased path from 0.123 (Hugo 0.168.0 gives it `blog`'s pattern).
#[test]
fn a_permalink_key_matches_the_folder_as_written_before_0_123() {
    let d = tempfile::tempdir().unwrap();
    let config = "baseURL = \"https://example.org/\"\n[permalinks]\n\
                  Blog = \"/x/:sections/:section/:slug/\"\n";
    let pages = [
        ("content/Blog/My Sub/_index.md", "title: S"),
        ("content/Blog/My Sub/a.md", "title: A"),
    ];
    write_site(d.path(), config, &pages);
    let hugo_111 = at_example(&[
        "",
        "blog/",
        "blog/my-sub/",
        "blog/my-sub/a/",
        "categories/",
        "tags/",
    ]);
    assert_eq!(
        urls_under(d.path(), &["--hugo-version", "0.111.3"]),
        hugo_111
    );
    let hugo_168 = at_example(&[
        "",
        "blog/",
        "blog/my-sub/",
        "categories/",
        "tags/",
        "x/blog/my-sub/blog/a/",
    ]);
    assert_eq!(urls_under_168(d.path()), hugo_168);
}

#[test]
fn a_taxonomy_own_slug_names_its_folder_from_0_167() {
    // `tags/_index.md` with `slug: Topics Here`, and a draft `categories/_index.md` with
    // `slug: kinds`: from 0.167 the slug names the folder of the list and of its terms, the
    // draft's too (its own page is not built); 0.166 keeps the plural.
    assert!(hugo("taxonomy-slug", "0.168").contains("https://example.org/kinds/notes/"));
    assert_same("taxonomy-slug", "0.168", "0.168.0");
    assert_same("taxonomy-slug", "0.168", "0.167.0");
    assert_same("taxonomy-slug", "0.166", "0.166.0");
}

#[test]
fn a_headless_page_makes_no_term_pages_from_0_124() {
    // `headless: true` on a regular page (not a bundle): Hugo 0.111 ignores it, so the page
    // and its term are listed; from 0.124 neither is.
    assert!(hugo("headless-terms", "0.111").contains("https://example.org/tags/secret/"));
    assert!(!hugo("headless-terms", "0.168").contains("https://example.org/tags/secret/"));
    assert_same("headless-terms", "0.111", "0.111.3");
    assert_same("headless-terms", "0.168", "0.168.0");
}

#[test]
fn a_draft_taxonomy_takes_its_terms_before_0_123() {
    // A draft `tags/_index.md`: Hugo 0.111 builds neither the list nor its term pages;
    // 0.168 leaves out the list alone.
    assert!(!hugo("withheld-taxonomy", "0.111").contains("https://example.org/tags/t1/"));
    assert!(hugo("withheld-taxonomy", "0.168").contains("https://example.org/tags/t1/"));
    assert_same("withheld-taxonomy", "0.111", "0.111.3");
    assert_same("withheld-taxonomy", "0.168", "0.168.0");
}

#[test]
fn slug_token_of_a_page_without_slug_or_title_is_empty() {
    // `notes = '/notes/:slug'` with uglyURLs: `:slug` is the slug, else the title; an empty
    // file has neither, so Hugo publishes it at `/notes.html` (not by its file name).
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert!(hugo("slug-without-title", short).contains("https://example.org/notes.html"));
        assert_same("slug-without-title", short, full);
    }
}

#[test]
fn of_two_files_for_one_page_hugo_0_123_reads_the_last_by_name() {
    // A leaf bundle with `index.md` and `index.html` (raw, or with front matter of its own):
    // Hugo 0.168 reads `index.md` (the later name) and lists nothing of `index.html`.
    let hugo = hugo("two-files-one-page", "0.168");
    assert!(hugo.contains("https://example.org/posts/2025/07/b2-from-md/"));
    assert_same("two-files-one-page", "0.168", "0.168.0");
}

#[test]
fn a_leaf_bundle_own_cascade_applies_to_itself_from_0_123() {
    // `posts/b/index.md` with `cascade: {build: {list: never}}`: Hugo 0.168 leaves the
    // bundle out of its sitemap, 0.111 lists it.
    assert!(hugo("leaf-cascade", "0.111").contains("https://example.org/posts/b/"));
    assert!(!hugo("leaf-cascade", "0.168").contains("https://example.org/posts/b/"));
    assert_same("leaf-cascade", "0.111", "0.111.3");
    assert_same("leaf-cascade", "0.168", "0.168.0");
}

#[test]
fn a_cascaded_underscore_build_stops_hugo_0_160_only_where_it_reaches_a_page() {
    // `posts/_index.md` cascades `_build` onto its page: Hugo 0.168 stops, naming nothing
    // we could match, and so do we, naming the cascade's line. `drafts/_index.md` cascades
    // `_build` onto no page: harmless, as in Hugo. Hugo 0.111 reads `_build`.
    assert_same("cascade-underscore-build", "0.111", "0.111.3");
    assert_refused(
        "cascade-underscore-build",
        "0.168",
        "0.168.0",
        "content/posts/_index.md:4: the `_build` key was removed",
    );
}

#[test]
fn hugo_never_reads_a_file_another_file_is_the_page_of() {
    // Files whose front matter Hugo refuses, which it never reads (seeds 300085, 300122 and
    // 300584 of the search): `alt.de.md` in a turned-off language (a key given twice and
    // `_build`), `about.md` beside `about.en.md` in the default language, `posts/p.markdown`
    // beside `posts/p.md` (broken YAML, both the last file by name is read, in 0.111.3
    // too). Of a bundle's two files 0.168 reads the last by name only (`index.md`,
    // `_index.md`: the others give a key twice); 0.111 reads both and takes the first
    // (`index.html`, `_index.markdown`) as the page.
    assert!(hugo("unread-files", "0.111").contains("https://example.org/b-html/"));
    assert!(hugo("unread-files", "0.111").contains("https://example.org/docs-markdown/"));
    assert!(hugo("unread-files", "0.168").contains("https://example.org/b-md/"));
    assert!(hugo("unread-files", "0.168").contains("https://example.org/docs-md/"));
    assert_same("unread-files", "0.111", "0.111.3");
    assert_same("unread-files", "0.168", "0.168.0");
}

#[test]
fn a_page_beside_a_leaf_bundle_of_its_name_is_read_from_0_123() {
    // `posts/c.md` (YAML Hugo refuses) beside the leaf bundle `posts/c/index.md`: Hugo 0.111 never
    // reads it and builds; 0.168 reads it (though the bundle is the page) and stops there.
    assert_same("page-beside-bundle", "0.111", "0.111.3");
    assert_refused(
        "page-beside-bundle",
        "0.168",
        "0.168.0",
        "content/posts/c.md:3",
    );
}

#[test]
fn a_mount_inside_another_hides_the_outer_ones_folders_there_before_0_123() {
    // `content` into `content` and `docs` into `content/docs`: Hugo 0.111 reads the files
    // directly in `content/docs/` but none of its folders (`v1/a.md`, `only/z.md`), though
    // `docs/` mount's own are read; 0.168 reads them all.
    let old = hugo("nested-mounts", "0.111");
    assert!(old.contains("https://example.org/docs/x/"));
    assert!(old.contains("https://example.org/docs/v1/c/"));
    assert!(!old.contains("https://example.org/docs/v1/a/"));
    assert!(!old.contains("https://example.org/docs/only/z/"));
    assert!(hugo("nested-mounts", "0.168").contains("https://example.org/docs/only/z/"));
    assert_same("nested-mounts", "0.111", "0.111.3");
    assert_same("nested-mounts", "0.168", "0.168.0");
}

#[test]
fn cascades_reach_term_pages_and_taxonomy_lists() {
    // The home cascades `headless: true` onto the terms below `/tags/` (`_target.kind:
    // term`), `categories/_index.md` cascades `build: {list: never}` onto its terms (one
    // with its own `_index`, one without) and `series/_index.md` a draft onto itself and
    // its term. Hugo 0.111 reads neither `headless` on a page that is no leaf bundle nor
    // `build`, and lists those terms; 0.168 leaves them all out. The draft series go in
    // both.
    assert_same("cascade-terms", "0.111", "0.111.3");
    assert_same("cascade-terms", "0.168", "0.168.0");
    let old = hugo("cascade-terms", "0.111");
    assert!(old.contains("https://example.org/tags/rust/"));
    assert!(old.contains("https://example.org/categories/news/"));
    assert!(!old.contains("https://example.org/series/one/"));
    let new = hugo("cascade-terms", "0.168");
    assert!(!new.contains("https://example.org/tags/rust/"));
    assert!(!new.contains("https://example.org/categories/misc/"));
}

#[test]
fn the_home_cascade_reaches_a_section_without_index() {
    // `blog/` and `news/` have no `_index.md`; the home cascades `headless: true` onto
    // `/blog` and `build: {list: never}` onto the section `/news`. Hugo 0.168 lists neither
    // section (their pages stay); 0.111 reads neither key there and lists both.
    assert_same("cascade-implicit-section", "0.111", "0.111.3");
    assert_same("cascade-implicit-section", "0.168", "0.168.0");
    let new = hugo("cascade-implicit-section", "0.168");
    assert!(!new.contains("https://example.org/blog/"));
    assert!(new.contains("https://example.org/blog/p/"));
    assert!(new.contains("https://example.org/docs/"));
}

/// The `<lastmod>` (its day) a sitemap gives `url`.
fn lastmod_of(xml: &str, url: &str) -> Option<String> {
    let at = xml.find(&format!("<loc>{url}</loc>"))?;
    let rest = &xml[at..];
    let end = rest.find("</url>")?;
    let from = rest[..end].find("<lastmod>")? + "<lastmod>".len();
    Some(rest[from..from + 10].to_string())
}

#[test]
fn a_date_a_taxonomy_cascades_onto_itself_dates_its_list() {
    // `categories/_index.md` cascades `date: 2021-03-04` (no `_target`) onto itself: both
    // Hugos date the list by it, not by its newer page. (They date the term page below it
    // so too, which we do not yet: its date rolls up from its page.)
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same("cascade-taxonomy-date", short, full);
        let url = "https://example.org/categories/";
        let expected = case("cascade-taxonomy-date").join(format!("expected-{short}/sitemap.xml"));
        let hugo_xml = std::fs::read_to_string(expected).unwrap();
        assert_eq!(lastmod_of(&hugo_xml, url).as_deref(), Some("2021-03-04"));
        let (o, out) = run("cascade-taxonomy-date", full);
        assert!(o.status.success(), "{}", text(&o));
        let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
        assert_eq!(
            lastmod_of(&ours, url).as_deref(),
            Some("2021-03-04"),
            "{full}"
        );
    }
}

#[test]
fn a_draft_cascaded_onto_a_section_without_index_hides_its_pages_before_0_123() {
    // The home cascades `draft: true` onto every section (`_target.kind: section`); `blog/`
    // has no `_index.md`. Hugo 0.111 builds neither it nor its page, as below a draft
    // `_index`; 0.168 leaves out the section alone.
    assert_same("cascade-implicit-draft", "0.111", "0.111.3");
    assert_same("cascade-implicit-draft", "0.168", "0.168.0");
    assert!(!hugo("cascade-implicit-draft", "0.111").contains("https://example.org/blog/p/"));
    assert!(hugo("cascade-implicit-draft", "0.168").contains("https://example.org/blog/p/"));
}

#[test]
fn a_config_key_in_lower_case_loses_to_another_spelling_of_it() {
    // `uglyurls = false` and then `uglyURLs = true`: both Hugos write ugly URLs (search seed
    // 300301), as they do with the two lines the other way round.
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same("config-key-case", short, full);
        assert!(hugo("config-key-case", short).contains("https://example.org/posts/a.html"));
    }
}

#[test]
fn a_taxonomy_list_dates_the_home_before_0_123_and_by_its_own_date_after() {
    // The only page is dated 2020; the term `tags/x` is dated 2022 by its own `_index.md`,
    // the `categories` list 2021-06-01 by its own. Hugo 0.111 dates the home by its
    // taxonomy lists as they are dated, terms and all (2022); 0.168 by a list's own date
    // only (2021-06-01), not by its terms' (search seeds 300300 and 300335 under 0.111.3,
    // 300347 and 300363 under 0.168.0).
    let home = "https://example.org/";
    for (short, full, date) in [
        ("0.111", "0.111.3", "2022-01-01"),
        ("0.168", "0.168.0", "2021-06-01"),
    ] {
        let expected = case("home-taxonomy-date").join(format!("expected-{short}/sitemap.xml"));
        let hugo_xml = std::fs::read_to_string(expected).unwrap();
        assert_eq!(
            lastmod_of(&hugo_xml, home).as_deref(),
            Some(date),
            "Hugo {short}"
        );
        let (o, out) = run("home-taxonomy-date", full);
        assert!(o.status.success(), "{}", text(&o));
        let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
        assert_eq!(lastmod_of(&ours, home).as_deref(), Some(date), "{full}");
    }
}

#[test]
fn from_0_123_a_leaf_bundle_owns_its_folder_in_every_language() {
    // French `r-d/index.md` and `q/index.md` are leaf bundles; in the English content folder
    // `r-d/other.md`, `r-d/sub/index.md`, `q/_index.md` and `q/sub/index.md` sit in or below
    // them. Hugo 0.168 makes them all resources of the French bundles: English has only its
    // home and taxonomy lists (search seed 300524). 0.111.3 does otherwise, with a page of
    // its own (the French bundle at /r-d/ too), which we do not follow.
    let dir = case("leaf-every-language").join("expected-0.168");
    let (o, out) = run("leaf-every-language", "0.168.0");
    assert!(o.status.success(), "{}", text(&o));
    let (mut hugo, mut ours) = (BTreeSet::new(), BTreeSet::new());
    for lang in ["en", "fr"] {
        let xml = std::fs::read_to_string(dir.join(lang).join("sitemap.xml")).unwrap();
        hugo.extend(url_locs(&xml));
        let file = out.path().join(lang).join("sitemap.xml");
        validate_with_xsd(std::slice::from_ref(&file));
        ours.extend(url_locs(&std::fs::read_to_string(file).unwrap()));
    }
    assert!(hugo.contains("https://example.org/fr/r-d/"));
    assert!(!hugo.contains("https://example.org/q/"));
    assert_eq!(ours, hugo);
}

#[test]
fn a_page_made_headless_by_a_cascade_makes_no_term_pages_from_0_124() {
    // `blog/_index.md` cascades `headless: true` onto `blog/p.md`, the only page tagged
    // `trail`. Hugo 0.168 renders neither the section, the page nor `/tags/trail/`; 0.111
    // reads `headless` on leaf bundles only and lists all three (search seeds 300313,
    // 300388, 300446, 300465 and 300559 under 0.168.0).
    assert_same("cascaded-headless-terms", "0.111", "0.111.3");
    assert_same("cascaded-headless-terms", "0.168", "0.168.0");
    assert!(hugo("cascaded-headless-terms", "0.111").contains("https://example.org/tags/trail/"));
    assert!(!hugo("cascaded-headless-terms", "0.168").contains("https://example.org/tags/trail/"));
}

#[test]
fn from_0_123_a_regular_page_s_own_cascade_applies_to_itself() {
    // `a.md` cascades `date: 2035-01-01` and `s/b.md` cascades `draft: true`, with no
    // `_target`: Hugo 0.168 applies them to the page itself, as to a leaf bundle's own (a
    // future page, a draft: neither listed); 0.111 ignores both (search seeds 300362,
    // 300385, 300391 and 300436 under 0.168.0).
    assert_same("page-own-cascade", "0.111", "0.111.3");
    assert_same("page-own-cascade", "0.168", "0.168.0");
    assert!(hugo("page-own-cascade", "0.111").contains("https://example.org/s/b/"));
    assert!(!hugo("page-own-cascade", "0.168").contains("https://example.org/a/"));
}

#[test]
fn sectionslugs_name_each_section_by_its_slug_else_its_title() {
    // Hugo 0.149+ `:sectionslug(s)`: a section's `slug`, else its title, not its folder:
    // `rd/_index.md` titled "The Title" is `the-title`, `sl/` with `slug: my-slug` is
    // `my-slug`, `über/` without `_index` is titled `Übers` by Hugo, and `tt/` `Tts`. A
    // term's sections are its taxonomy's title (`Say Hi`) and the term's title, which its
    // own `_index` without one leaves empty (`categories/a-b/`: `/c/categories/t-/`).
    // Search seeds 300425 and 300459 under 0.168.0.
    assert_same("section-slugs", "0.168", "0.168.0");
    let hugo = hugo("section-slugs", "0.168");
    assert!(hugo.contains("https://example.org/a/übers/übers/"));
    assert!(hugo.contains("https://example.org/t/say-hi/rock-roll/t-rock-roll/"));
}

#[test]
fn a_page_s_own_build_options_replace_a_cascade_s() {
    // `s/_index.md` cascades `build: {list: never}`. Hugo 0.168 leaves out `s/c.md` (and
    // the section itself) but lists `s/a.md` with `build: {}` and `s/b.md` with `build:
    // {render: always}`: a page's own table, empty or not, replaces the cascade's (search
    // seed 300423; 0.111.3 does the same with `_build`). 0.111 reads no `build` key and
    // lists them all.
    assert_same("own-build-options", "0.111", "0.111.3");
    assert_same("own-build-options", "0.168", "0.168.0");
    let hugo = hugo("own-build-options", "0.168");
    assert!(hugo.contains("https://example.org/s/a/"));
    assert!(!hugo.contains("https://example.org/s/c/"));
}

#[test]
fn from_0_123_a_content_resource_s_terms_make_term_pages() {
    // `r-d/c.md` beside `r-d/index.md` is a resource of that leaf bundle, no page; Hugo 0.168
    // still makes `/tags/beta/` for its tag, undated and holding no page; 0.111 makes none
    // (search seed 300486).
    assert_same("resource-terms", "0.111", "0.111.3");
    assert_same("resource-terms", "0.168", "0.168.0");
    assert!(!hugo("resource-terms", "0.111").contains("https://example.org/tags/beta/"));
    assert!(hugo("resource-terms", "0.168").contains("https://example.org/tags/beta/"));
}

#[test]
fn a_date_the_home_cascades_dates_the_pages_hugo_makes_without_a_file() {
    // `_index.md` cascades `date: 2019-07-07`; `blog/a.md` has its own 2021 date and tag
    // `x`. Both Hugos date `/blog/` (no `_index`), `/tags/`, `/tags/x/` and `/categories/` by
    // the cascaded date, which they keep over the newer page below (search seeds 300324,
    // 300326, 300335, 300449 under 0.111.3 and 300434 under 0.168.0).
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        let expected =
            case("cascade-generated-dates").join(format!("expected-{short}/sitemap.xml"));
        let hugo_xml = std::fs::read_to_string(expected).unwrap();
        let (o, out) = run("cascade-generated-dates", full);
        assert!(o.status.success(), "{}", text(&o));
        let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
        assert_eq!(url_locs(&ours), url_locs(&hugo_xml), "{full}");
        for url in url_locs(&hugo_xml) {
            assert_eq!(
                lastmod_of(&ours, &url),
                lastmod_of(&hugo_xml, &url),
                "{full} {url}"
            );
        }
        let blog = lastmod_of(&hugo_xml, "https://example.org/blog/");
        assert_eq!(blog.as_deref(), Some("2019-07-07"), "Hugo {short}");
    }
}

#[test]
fn before_0_123_sections_cut_a_section_without_index_with_an_empty_entry() {
    // `news/` has no `_index.md`: Hugo 0.111 splits its key `/news/` into `news` and an empty
    // entry, so `:sections[last]` is nothing for `news/b.md` (`/x/b/`), while 0.168 gives
    // `news` (search seed 300572). `news/sub/` has its `_index`: `sub` under both.
    assert_same("sections-last", "0.111", "0.111.3");
    assert_same("sections-last", "0.168", "0.168.0");
    assert!(hugo("sections-last", "0.111").contains("https://example.org/x/b/"));
    assert!(hugo("sections-last", "0.168").contains("https://example.org/x/news/b/"));
}

#[test]
fn before_0_115_a_sections_index_past_the_end_stops_hugo() {
    // `news/_index.md` makes `news/b.md`'s sections `[news]`; `:sections[1]` is past its end:
    // Hugo 0.111 panics (index out of range), 0.168 gives nothing (`/x/b/`).
    assert_refused(
        "sections-cut-panic",
        "0.111",
        "0.111.3",
        "content/news/b.md",
    );
    assert_same("sections-cut-panic", "0.168", "0.168.0");
    // A term's sections are its taxonomy alone before 0.123: `tags = "/p/:sections[1]/…"`
    // panics as soon as there is a term (search seeds 400125, 400394 and five more).
    assert_refused("sections-cut-panic-term", "0.111", "0.111.3", "hugo.toml:3");
    assert_same("sections-cut-panic-term", "0.168", "0.168.0");
}

#[test]
fn from_0_123_a_cascade_s_params_sitemap_counts_as_its_sitemap() {
    // `s/_index.md` cascades `params: {sitemap: {disable: true}}` and `t/_index.md`
    // `params: {sitemap: {priority: 0.3, changefreq: daily}}`; `c.md` sets its own
    // `params.sitemap.disable`. Hugo 0.168 leaves `s/` and `s/a/` out and gives `t/` and
    // `t/b/` the priority, and lists `c/`; 0.111 reads none of it (seen on a real site,
    // Lruihao/hugo-blog's `_ads` section).
    assert_same("cascade-params-sitemap", "0.111", "0.111.3");
    assert_same("cascade-params-sitemap", "0.168", "0.168.0");
    assert!(!hugo("cascade-params-sitemap", "0.168").contains("https://example.org/s/a/"));
    let (o, out) = run("cascade-params-sitemap", "0.168.0");
    assert!(o.status.success(), "{}", text(&o));
    let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
    let hugo_xml =
        std::fs::read_to_string(case("cascade-params-sitemap").join("expected-0.168/sitemap.xml"))
            .unwrap();
    let priority = |xml: &str| {
        let at = xml.find("<loc>https://example.org/t/b/</loc>").unwrap();
        let rest = &xml[at..xml[at..].find("</url>").unwrap() + at];
        rest.contains("<priority>0.3</priority>")
    };
    assert!(priority(&hugo_xml) && priority(&ours));
}

#[test]
fn an_unknown_token_is_named_where_hugo_says_ill_formed() {
    // Hugo 0.111.3 says "permalink ill-formed" for `posts/:slugorcontentbasename` (a token
    // 0.144 added); a leading `/` would not help, so the error names the token (seen on a
    // real site, Lruihao/hugo-blog).
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\n[permalinks]\nposts = \"posts/:slugorcontentbasename\"\n",
            ),
            ("content/posts/a.md", "---\ntitle: A\n---\n"),
        ],
    );
    let site = d.path().to_str().unwrap();
    let o = common::run(
        d.path(),
        &["list", "--site", site, "--hugo-version", "0.111.3"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = common::stderr(&o);
    assert!(err.contains("hugo.toml:3: the permalink pattern 'posts/:slugorcontentbasename' has an unknown token :slugorcontentbasename"), "{err}");
}

#[test]
fn a_content_adapter_is_warned_about_until_unsourced_pages_are_listed() {
    // A content adapter (Hugo 0.126+) makes pages no content file holds: they cannot be in
    // the sitemap unless the built site's unsourced pages are listed (seen on a real site,
    // Lruihao/hugo-blog's `content/projects/_content.gotmpl`).
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            ("content/a.md", "---\ntitle: A\n---\n"),
            (
                "content/projects/_content.gotmpl",
                "{{ .AddPage (dict \"path\" \"p\") }}\n",
            ),
        ],
    );
    let site = d.path().to_str().unwrap();
    let warned = |version: &str| {
        let o = common::run(
            d.path(),
            &["list", "--site", site, "--hugo-version", version],
        );
        assert!(o.status.success(), "{}", text(&o));
        common::stderr(&o).contains("_content.gotmpl: a content adapter")
    };
    assert!(warned("0.168.0"));
    assert!(!warned("0.125.0"));
    common::write_tree(d.path(), &[("sitemap.toml", "include_unsourced = true\n")]);
    assert!(!warned("0.168.0"));
}

#[test]
fn cascade_path_targets_are_hugo_globs_of_the_path_each_release_matches() {
    // `_target.path` is Hugo's glob (`*` stops at `/`, pattern and path lower-cased) of the
    // page's path with its leading `/`: its file's path with extension in 0.111
    // (`/docs/**.md` takes `docs/x.md` and `docs/guide/index.md`), its logical path in 0.168
    // (the same glob takes neither). `/Blog/Old/*` takes `blog/old/a.md` and not
    // `blog/old/deep/b.md`; a leaf bundle's own `{/*,/**}` takes the bundle in 0.168 (search
    // seeds 300463, 300569 and 400164 under 0.168.0).
    assert_same("cascade-path-globs", "0.111", "0.111.3");
    assert_same("cascade-path-globs", "0.168", "0.168.0");
    let (old, new) = (
        hugo("cascade-path-globs", "0.111"),
        hugo("cascade-path-globs", "0.168"),
    );
    assert!(!old.contains("https://example.org/docs/x/"));
    assert!(new.contains("https://example.org/docs/x/"));
    assert!(!new.contains("https://example.org/extra/news/"));
    assert!(new.contains("https://example.org/blog/old/deep/b/"));
}

#[test]
fn a_cascade_path_glob_hugo_cannot_read_is_passed_over_then_refused() {
    // `/blog/[**` has an open `[`: Hugo 0.111 passes the glob over, so the cascade's
    // `kind: page` alone decides (blog/a.md is a draft, the section is listed); 0.168 stops.
    assert_same("cascade-bad-glob", "0.111", "0.111.3");
    assert!(hugo("cascade-bad-glob", "0.111").contains("https://example.org/blog/"));
    assert!(!hugo("cascade-bad-glob", "0.111").contains("https://example.org/blog/a/"));
    assert_refused(
        "cascade-bad-glob",
        "0.168",
        "0.168.0",
        "content/blog/_index.md:7: bad cascade target path glob",
    );
}

#[test]
fn a_config_key_given_twice_takes_its_last_value_before_0_152_then_stops_hugo() {
    // hugo.yaml gives `baseURL` twice: Hugo 0.111 (yaml.v2) takes the last; 0.168 (go-yaml)
    // stops at the second, as we do, naming its line. Seen on a real site whose
    // config/_default/params.yaml repeats `hours` (built with Hugo 0.148.2).
    assert_same("config-key-twice", "0.111", "0.111.3");
    assert!(hugo("config-key-twice", "0.111").contains("https://example.org/blog/a/"));
    assert_refused(
        "config-key-twice",
        "0.168",
        "0.168.0",
        "hugo.yaml:3: String(\"baseURL\"): duplicated key in mapping: Hugo 0.168.0 stops",
    );
}

#[test]
fn a_section_below_a_withheld_one_makes_no_top_level_section_before_0_123() {
    // `extra/soon/_index.md` is future and `other/draft/_index.md` a draft, each with a
    // section or page below it and no `_index.md` at the top: Hugo 0.111 builds nothing
    // below them, so neither `extra/` nor `other/` is a section; 0.168 lists both and what
    // lies below (search seed 300463 under 0.111.3).
    assert_same("hidden-nested-section", "0.111", "0.111.3");
    assert_same("hidden-nested-section", "0.168", "0.168.0");
    assert!(!hugo("hidden-nested-section", "0.111").contains("https://example.org/extra/"));
    assert!(hugo("hidden-nested-section", "0.168").contains("https://example.org/extra/"));
}

/// Each URL's `changefreq` and `priority` in a sitemap.
fn hints(xml: &str) -> BTreeSet<(String, String, String)> {
    let field = |u: &str, tag: &str| {
        let open = format!("<{tag}>");
        u.split_once(open.as_str())
            .and_then(|(_, rest)| rest.split_once('<'))
            .map(|(v, _)| v.trim().to_string())
            .unwrap_or_default()
    };
    xml.split("<url>")
        .skip(1)
        .map(|u| {
            // Hugo writes `0.4`; so do we: compared as numbers all the same.
            let p = field(u, "priority").parse::<f64>().map(|p| p.to_string());
            let p = p.unwrap_or_default();
            (field(u, "loc"), field(u, "changefreq"), p)
        })
        .collect()
}

#[test]
fn a_page_own_sitemap_table_replaces_a_cascaded_one_whole() {
    // `blog/_index.md` cascades `sitemap: {changefreq: weekly, priority: 0.4}` onto its pages;
    // `a.md` sets only `sitemap: {changefreq: yearly}`, so Hugo gives it no priority (0.111.3
    // and 0.168.0 alike); `b.md` takes both.
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        let (o, out) = run("own-sitemap-table", full);
        assert!(o.status.success(), "{}", text(&o));
        let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
        let dir = case("own-sitemap-table").join(format!("expected-{short}"));
        let theirs = std::fs::read_to_string(dir.join("sitemap.xml")).unwrap();
        assert_eq!(hints(&ours), hints(&theirs), "under {full}");
        let a = (
            "https://example.org/blog/a/".to_string(),
            "yearly".into(),
            "".into(),
        );
        assert!(hints(&theirs).contains(&a));
    }
}

#[test]
fn a_section_hugo_does_not_build_still_dates_the_lists_above_it() {
    // `guide/old/_index.md` is a draft dated 2024-05-05 and `docs/sub/_index.md` expired,
    // dated 2024-06-06. Hugo 0.111 builds nothing below either. Hugo 0.168 keeps both as
    // sections it does not render: their pages are listed, and their own dates date the
    // lists above them (`/guide/`, which has no date of its own, and the home).
    let name = "withheld-section-dates";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
    }
    let new = std::fs::read_to_string(case(name).join("expected-0.168/sitemap.xml")).unwrap();
    assert_eq!(
        lastmod_of(&new, "https://example.org/").as_deref(),
        Some("2024-06-06")
    );
    assert_eq!(
        lastmod_of(&new, "https://example.org/guide/").as_deref(),
        Some("2024-05-05")
    );
}

#[test]
fn a_section_permalink_that_comes_to_nothing_keeps_the_section_path() {
    // `[permalinks.section]`: `docs = ":sections[:last]"` names nothing for a top-level
    // section (its sections above it are none), so Hugo takes no permalink and `docs/` keeps
    // `/docs/`; `blog = "/:sections[:last]/x"` comes to `//x`, a path: `/x/`.
    let name = "empty-permalink";
    assert_same(name, "0.168", "0.168.0");
    let hugo = hugo(name, "0.168");
    assert!(hugo.contains("https://example.org/docs/"));
    assert!(hugo.contains("https://example.org/x/"));
    assert_refused(name, "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn the_first_cascade_with_build_options_gives_them_whole() {
    // The home cascades `build: {render: always}` onto every page, then `build: {list:
    // never}` onto sections: Hugo takes the first `build` table that reaches a page and
    // merges no later one into it, so `s/` is listed (search seed 400366 under 0.168.0).
    // `t/` cascades `list: never` itself: the nearest cascade comes first, and from 0.123 a
    // section's own cascade reaches the section too (0.111 does not read `build`).
    let name = "cascade-build-first";
    assert_same(name, "0.111", "0.111.3");
    assert_same(name, "0.168", "0.168.0");
    let hugo = hugo(name, "0.168");
    assert!(hugo.contains("https://example.org/s/"));
    assert!(!hugo.contains("https://example.org/t/q/"));
}

#[test]
fn taxonomy_files_hugo_does_not_list_still_date_the_lists_above_them() {
    // `categories/_index.md` is a draft dated 2025-05-05 and `tags/x/_index.md` has `build:
    // {list: never}` with 2025-06-06. Hugo 0.168 keeps both in its tree: the categories list
    // dates the home, and the term dates the tags list, though neither is listed (search
    // seeds 400280, 400014 and 400008 under 0.168.0). Hugo 0.111 reads no `build` and takes
    // the draft list's terms with it.
    let name = "unlisted-taxonomy-dates";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
    }
    let new = std::fs::read_to_string(case(name).join("expected-0.168/sitemap.xml")).unwrap();
    assert_eq!(
        lastmod_of(&new, "https://example.org/").as_deref(),
        Some("2025-05-05")
    );
    assert_eq!(
        lastmod_of(&new, "https://example.org/tags/").as_deref(),
        Some("2025-06-06")
    );
}

#[test]
fn a_whole_sections_token_is_the_section_path_from_0_123() {
    // From 0.123 a whole `:sections` is the section's path, `/` first: `/x-:sections/:slug/`
    // is `/x-/docs/sub/b/` (0.111: `/x-docs/sub/b/`), a term's `/y-/tags/t1/`, a section
    // list's `/z-/docs/sub/` (its own path), a page at the top `/w-/c/` (search seeds
    // 400117, 400197, 400585, 400655 under 0.168.0).
    assert_same("sections-path-token", "0.111", "0.111.3");
    assert_same("sections-path-token", "0.168", "0.168.0");
    assert!(hugo("sections-path-token", "0.168").contains("https://example.org/x-/docs/sub/b/"));
    assert_same("sections-token-lists", "0.168", "0.168.0");
    assert!(hugo("sections-token-lists", "0.168").contains("https://example.org/z-/docs/sub/"));
    assert_refused("sections-token-lists", "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn month_and_weekday_names_keep_their_case_with_disable_path_to_lower() {
    // `:monthname` and `:weekdayname` are Go's names (`March`, `Tuesday`): only the whole
    // path is lower-cased, and `disablePathToLower` keeps it as it is (search seeds 400139,
    // 400534, 400536 under 0.168.0).
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert!(hugo("monthname-case", short).contains("https://example.org/March/Tuesday/a/"));
        assert_same("monthname-case", short, full);
    }
}

#[test]
fn a_term_its_build_options_leave_out_still_dates_its_list() {
    // `tags/x/_index.md` has `_build: {render: never}`; its page is dated 2023-01-02. Hugo
    // 0.111 keeps the term for its taxonomy: not listed, and `/tags/` takes its date.
    // Hugo 0.168 stops at `_build`.
    let name = "term-build-dates";
    assert_same(name, "0.111", "0.111.3");
    let (o, out) = run(name, "0.111.3");
    assert!(o.status.success(), "{}", text(&o));
    let ours = std::fs::read_to_string(out.path().join("sitemap.xml")).unwrap();
    let tags = "https://example.org/tags/";
    assert_eq!(lastmod_of(&ours, tags).as_deref(), Some("2023-01-02"));
    let expected = case(name).join("expected-0.111/sitemap.xml");
    let hugo_xml = std::fs::read_to_string(expected).unwrap();
    assert_eq!(lastmod_of(&hugo_xml, tags).as_deref(), Some("2023-01-02"));
    assert_refused(name, "0.168", "0.168.0", "tags/x/_index.md:3");
}

#[test]
fn a_section_dated_only_by_its_expiry_takes_no_date_from_below_for_its_permalink() {
    // `posts/_index.md` has only an `expiryDate`: from 0.123 that is a date of its own, so
    // Hugo takes none from its pages and its `:monthname` and `:yearday` are Go's zero time
    // (`/p-january/1/`); `blog/_index.md` has none and takes its page's (`/b-november/334/`;
    // search seed 400807 under 0.168.0).
    let name = "section-permalink-date";
    assert_same(name, "0.168", "0.168.0");
    assert!(hugo(name, "0.168").contains("https://example.org/p-january/1/"));
    assert!(hugo(name, "0.168").contains("https://example.org/b-november/334/"));
    assert_refused(name, "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn a_date_cascaded_onto_terms_names_their_permalinks() {
    // The home cascades `date: 2030-06-15` onto every term: `/x-:year/:slug/` reads it, not
    // the dates of the terms' pages (2019, 2022), in 0.111.3 and 0.168.0 alike (search seed
    // 400614 under 0.168.0).
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert!(hugo("term-cascade-date", short).contains("https://example.org/x-2030/one/"));
        assert_same("term-cascade-date", short, full);
    }
}

#[test]
fn a_taxonomy_list_dated_by_its_own_cascade_names_its_permalink_by_it() {
    // `tags/_index.md` cascades `date: 2021-03-04` (a table, so onto itself too): the list,
    // which has no terms, has that date, and its `/t-:year/` reads it (search seed 400002
    // under 0.168.0).
    let name = "taxonomy-cascade-date";
    assert!(hugo(name, "0.168").contains("https://example.org/t-2021/"));
    assert_same(name, "0.168", "0.168.0");
    assert_refused(name, "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn a_file_beside_a_leaf_bundle_of_its_name_is_checked_for_its_content_type() {
    // `blog/post.html` beside `blog/post/index.md`: the bundle is the page, but from 0.123
    // Hugo reads the file too, and 0.168 refuses HTML content by `security.allowContent`
    // (search seed 401132). Hugo 0.111 does not read it.
    let name = "html-beside-bundle";
    assert_same(name, "0.111", "0.111.3");
    assert_refused(name, "0.168", "0.168.0", "blog/post.html:1");
}

#[test]
fn a_date_cascaded_onto_pages_names_their_permalinks() {
    // The home cascades `date: 2022-11-30` onto `sec/p.md`, which has none: `/p-:year/:slug/`
    // reads it (`/p-2022/p/`, not Go's zero time `/p-1/p/`), in 0.111.3 and 0.168.0 alike.
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert!(hugo("page-cascade-date", short).contains("https://example.org/p-2022/p/"));
        assert_same_dates("page-cascade-date", short, full);
    }
}

#[test]
fn a_date_cascaded_onto_sections_names_their_permalinks() {
    // The same cascade dates `sec/_index.md` (no date of its own) and the section `imp/`
    // Hugo makes without a file: `/s-:year/` and `/i-:year/` read 2022, not the year of the
    // page below (2021) or Go's zero time (search seeds 400969 and 400550 under 0.168.0).
    // Hugo 0.111.3 has no permalinks by kind.
    let name = "section-cascade-date";
    let hugo_urls = hugo(name, "0.168");
    assert!(hugo_urls.contains("https://example.org/s-2022/"));
    assert!(hugo_urls.contains("https://example.org/i-2022/"));
    assert_same_dates(name, "0.168", "0.168.0");
    assert_refused(name, "0.111", "0.111.3", "hugo.toml:");
}

#[test]
fn a_withheld_page_takes_the_section_or_bundle_of_its_name_from_0_123() {
    // `sec.md` (a draft) beside `sec/_index.md`, `imp.md` (future) beside the folder `imp/`
    // with no `_index`, and `a/Sec.md` (expired) beside `a/sec/_index.md`: from 0.123 each
    // page and its section are one node of Hugo's tree, and the withheld page takes the
    // section's page with it; `imp/bun.md` (a draft) so takes the leaf bundle `imp/bun/`.
    // The pages in the sections stay, and date the lists above (the home 2021-03-04, not
    // `sec/`'s 2023 or the bundle's 2024; `a/` 2019, not `a/sec/`'s 2024). Hugo 0.111.3 lists
    // every section and the bundle (search seeds 400057, 401189, 401527 and 401742 under
    // 0.168.0).
    let name = "withheld-page-section";
    let (old, new) = (hugo(name, "0.111"), hugo(name, "0.168"));
    for section in ["/sec/", "/imp/", "/a/sec/", "/imp/bun/"] {
        let url = format!("https://example.org{section}");
        assert!(old.contains(&url) && !new.contains(&url), "{url}");
    }
    assert_same_dates(name, "0.111", "0.111.3");
    assert_same_dates(name, "0.168", "0.168.0");
}

#[test]
fn a_page_in_any_language_leaves_no_section_made_without_a_file_from_0_123() {
    // `sec.fr.md` (built) and `dr.fr.md` (a draft) hold the nodes the English sections `sec/`
    // and `dr/` would take (neither has an `_index`): from 0.123 Hugo makes neither, though
    // it builds their pages. `imp.en.md` beside `imp/` is the page at `/imp/` itself. Hugo
    // 0.111.3 makes every section (search seed 401527 under 0.168.0).
    let name = "page-section-languages";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        // Hugo 0.111.3 lists `/imp/` twice, the page and the section, each with its date.
        assert_same_by_language(name, short, full, &["en", "fr"]);
    }
    let en = std::fs::read_to_string(case(name).join("expected-0.168/en/sitemap.xml")).unwrap();
    assert!(!url_locs(&en).contains("https://example.org/sec/"));
    assert!(!url_locs(&en).contains("https://example.org/dr/"));
}

#[test]
fn the_terms_of_a_bundle_a_withheld_page_takes_still_make_term_pages() {
    // `s/post.md` (a draft) takes the leaf bundle `s/post/` out in 0.168.0, but the bundle's
    // term `x` still has its page, holding no page and so undated; nothing else is dated
    // either. Hugo 0.111.3 lists the bundle (search seeds 401742 and 400406 under 0.168.0).
    let name = "withheld-page-bundle-terms";
    let new = hugo(name, "0.168");
    assert!(new.contains("https://example.org/tags/x/"));
    assert!(!new.contains("https://example.org/s/post/"));
    assert!(hugo(name, "0.111").contains("https://example.org/s/post/"));
    assert_same_dates(name, "0.111", "0.111.3");
    assert_same_dates(name, "0.168", "0.168.0");
    let xml = std::fs::read_to_string(case(name).join("expected-0.168/sitemap.xml")).unwrap();
    assert!(!xml.contains("<lastmod>"), "{xml}");
}

#[test]
fn a_section_with_an_index_is_the_page_of_its_node_from_0_123() {
    // `sec.md` and `a/sub.md`, both built, beside `sec/_index.md` and `a/sub/_index.md`: from
    // 0.123 each pair is one node and the section is its page. The page is not built: its
    // date (2024) dates nothing, and its term `z` makes no term page. Hugo 0.111.3 lists
    // `/sec/` twice, the page and the section (search seed 401558 under 0.168.0, which has
    // `uglyURLs` and so is not followed).
    let name = "built-page-section";
    let new = hugo(name, "0.168");
    assert!(!new.contains("https://example.org/tags/z/"));
    assert_same_dates(name, "0.168", "0.168.0");
    let xml = std::fs::read_to_string(case(name).join("expected-0.168/sitemap.xml")).unwrap();
    assert_eq!(
        lastmod_of(&xml, "https://example.org/sec/").as_deref(),
        Some("2021-01-01")
    );
    assert!(hugo(name, "0.111").contains("https://example.org/tags/z/"));
    assert_same(name, "0.111", "0.111.3");
}

#[test]
fn an_index_file_a_language_named_one_shadows_gives_no_cascade() {
    // `tags/_index.md` and `blog/_index.md` beside `_index.en.md` (`en` the default): Hugo
    // reads only the `.en` files, so their cascades are the ones that apply: `render:
    // never` leaves `/tags/` out in 0.168.0, and the date 2022 names `blog/q.md`'s
    // `/:year/` (`/2022/q/`, not 2019) in both releases (search seed 400804 under 0.168.0).
    let name = "shadowed-branch-cascade";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_by_language(name, short, full, &["en", "fr"]);
    }
    let en = std::fs::read_to_string(case(name).join("expected-0.168/en/sitemap.xml")).unwrap();
    assert!(url_locs(&en).contains("https://example.org/2022/q/"));
    assert!(!url_locs(&en).contains("https://example.org/tags/"));
}

#[test]
fn a_url_with_a_dot_names_a_file_unless_it_ends_in_a_slash() {
    // Hugo writes a front matter `url` holding a dot anywhere and no trailing slash as the
    // file it names (`/v1.2/x`, `/a.b/c` for a section), and one ending in a slash as a
    // folder (`/custom/v1.2/`, which Hugo 0.111.3 too keeps for a section). We listed
    // `/v1.2/x/` and `/custom/v1.2` (search seed 7 under 0.111.3).
    let name = "url-dots";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same(name, short, full);
        let urls = hugo(name, short);
        for url in ["/v1.2/x", "/a.b/c", "/custom/v1.2/"] {
            assert!(urls.contains(&format!("https://example.org{url}")), "{url}");
        }
    }
}

#[test]
fn title_tokens_drop_a_final_hash_and_ugly_urls_keep_a_final_plus_as_a_hyphen() {
    // Hugo's urlize parses its result as a URL, so a `#` with nothing after it is an empty
    // fragment and goes (`C#` -> `/t/c.html`, `go#` -> `/n/go.html`). With `uglyURLs`, a
    // final `+` is unescaped to a space before `.html`, so it stays a hyphen from 0.153 too
    // (`C++` -> `/t/c-.html`, `x++ y+` -> `/n/x-y-.html`). We listed `/t/c%23.html`, and
    // `/t/c.html` for `C++` under 0.168.0 (search seed 403916).
    let name = "ugly-plus-hash";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same(name, short, full);
        let urls = hugo(name, short);
        for url in [
            "/t/c.html",
            "/t/c-.html",
            "/t/q.html",
            "/n/go.html",
            "/n/x-y-.html",
        ] {
            assert!(urls.contains(&format!("https://example.org{url}")), "{url}");
        }
    }
}

#[test]
fn an_ugly_permalink_that_comes_to_nothing_is_the_file_dot_html() {
    // `categories = "/:filename/"`: a term without a file of its own has no file name, so
    // the pattern comes to `/`, which uglyURLs writes as `.html` in the language's folder:
    // `/.html` (0.111.3 keeps a lone language at the top), `/en/.html` (0.168.0). We listed
    // nothing under 0.111.3 and `/en/` under 0.168.0 (search seed 403261).
    let name = "ugly-empty-permalink";
    assert_same(name, "0.111", "0.111.3");
    assert!(hugo(name, "0.111").contains("https://example.org/.html"));
    assert_same_by_language(name, "0.168", "0.168.0", &["en"]);
    let en = std::fs::read_to_string(case(name).join("expected-0.168/en/sitemap.xml")).unwrap();
    assert!(url_locs(&en).contains("https://example.org/en/.html"));
}

#[test]
fn before_0_123_a_term_file_dates_its_list_with_term_pages_off() {
    // `disableKinds = ["term"]`, `tags/foo/_index.md` lastmod 2024-06-15, its one page 2021:
    // Hugo 0.111.3 dates `/tags/` and the home by the term's own file (not by its page);
    // 0.168.0 by neither (search seed 402322 under 0.111.3).
    let name = "term-off-file-dates";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
    }
    let (old, new) = (hugo_xml(name, "0.111"), hugo_xml(name, "0.168"));
    let tags = "https://example.org/tags/";
    assert_eq!(lastmod_of(&old, tags).as_deref(), Some("2024-06-15"));
    assert_eq!(lastmod_of(&new, tags), None);
    let home = "https://example.org/";
    assert_eq!(lastmod_of(&old, home).as_deref(), Some("2024-06-15"));
    assert_eq!(lastmod_of(&new, home).as_deref(), Some("2021-01-01"));
}

#[test]
fn from_0_123_the_home_takes_a_dated_taxonomy_list_without_its_terms() {
    // `categories/_index.md` lastmod 2022-11-30, its term `rock-roll/_index.md` 2023-01-02:
    // the list keeps its own date in both releases; Hugo 0.111.3 dates the home by the term
    // too (2023-01-02), 0.168.0 by the list's own date alone (2022-11-30). We gave 0.168.0's
    // home the term's date (search seed 402165).
    let name = "taxonomy-own-date-terms";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
    }
    let home = "https://example.org/";
    let day = |v| lastmod_of(&hugo_xml(name, v), home);
    assert_eq!(day("0.111").as_deref(), Some("2023-01-02"));
    assert_eq!(day("0.168").as_deref(), Some("2022-11-30"));
}

#[test]
fn before_0_123_an_unrendered_taxonomy_list_passes_its_terms_dates_up() {
    // `tags/_index.md` with `_build.render = never`, its term 2023-01-02, the one page 2021:
    // Hugo 0.111.3 keeps the list in its tree and dates the home by the term (we dated it
    // by the page, search seed 403341). `_build` is gone from 0.168: a case for 0.111 alone.
    let name = "unrendered-list-terms";
    assert_same_dates(name, "0.111", "0.111.3");
    let home = lastmod_of(&hugo_xml(name, "0.111"), "https://example.org/");
    assert_eq!(home.as_deref(), Some("2023-01-02"));
    assert!(!hugo(name, "0.111").contains("https://example.org/tags/"));
}

#[test]
fn before_0_123_a_section_below_a_folder_without_one_dates_nothing_above_it() {
    // `a/b/c/_index.md` below `a/_index.md`, `b` no section: Hugo 0.111.3's section walk
    // passes `c` over, so `c` takes no date from its page (2023) and `/a/` none from `c`
    // (`/a/` is 2020). From 0.123 every section rolls up (search seeds 12 and 21 under
    // 0.111.3).
    let name = "deep-section-dates";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same_dates(name, short, full);
    }
    let old = std::fs::read_to_string(case(name).join("expected-0.111/sitemap.xml")).unwrap();
    assert_eq!(lastmod_of(&old, "https://example.org/a/b/c/"), None);
    assert_eq!(
        lastmod_of(&old, "https://example.org/a/").as_deref(),
        Some("2020-02-02")
    );
}

#[test]
fn before_0_123_a_term_folder_not_written_as_its_key_leaves_the_term_alone() {
    // Term `_index` files that are future (`[brack]/`, `Tom's/`, `c++/`, `Upper/`), a draft
    // (`Mixed Case/`) or not rendered (`eq=x/`). Hugo 0.111.3 takes a file for the term's
    // page only where its folder is written as the term's key (`c++`, `upper`): the others
    // are nodes of their own, so the term pages stay. 0.168.0 takes every one (search seeds
    // 402198, 403229, 403569 and 403581 under 0.111.3).
    let name = "term-folder-forms";
    for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
        assert_same(name, short, full);
    }
    let old = hugo(name, "0.111");
    for term in ["brack", "toms", "mixed-case", "eqx"] {
        assert!(old.contains(&format!("https://example.org/categories/{term}/")));
    }
    assert!(!old.contains("https://example.org/categories/upper/"));
    assert!(!hugo(name, "0.168").contains("https://example.org/categories/toms/"));
}

#[test]
fn from_0_166_a_title_token_makes_each_slash_a_hyphen() {
    // `:title` of pages and sections, and `:slug` falling back on the title: `x/y` is
    // `/x-y/` from Hugo 0.166 (`/x/y/` in 0.165.0); a slug's own `/` and a term's title
    // keep theirs (search seeds 402329, 403295 and 403672 under 0.168.0). Hugo 0.111.3
    // does not build the site (it has `[permalinks.term]`).
    let name = "title-token-slash";
    for (short, full) in [("0.165", "0.165.0"), ("0.168", "0.168.0")] {
        assert_same(name, short, full);
    }
    for (short, x, five) in [
        ("0.165", "/x/y/", "/five/m/n/"),
        ("0.168", "/x-y/", "/five/m-n/"),
    ] {
        let urls = hugo(name, short);
        for path in [x, five, "/a/b/", "/t/a/b/"] {
            assert!(
                urls.contains(&format!("https://example.org{path}")),
                "{short} {path}"
            );
        }
    }
}

#[test]
fn a_date_cascaded_onto_a_page_dates_its_terms_permalinks() {
    // `blog/p.md` has no `date` of its own (a `publishDate` of 2020) and takes 2022 from a
    // cascade: its term `x` and the tags list are dated 2022 in their `:year` tokens, in
    // Hugo 0.168.0 (search seeds 402801 and 403034). Hugo 0.111.3 does not build the site
    // (it has `[permalinks.term]`).
    let name = "cascaded-page-term-date";
    assert_same(name, "0.168", "0.168.0");
    let urls = hugo(name, "0.168");
    for path in ["/2022/alltags/", "/tags/2022/x/", "/tags/2019/y/"] {
        assert!(
            urls.contains(&format!("https://example.org{path}")),
            "{path}"
        );
    }
}

#[test]
fn with_term_pages_off_a_taxonomy_list_has_no_date_from_its_terms() {
    // As `cascaded-page-term-date`, with `disableKinds = ["term"]`: the tags list has no
    // term pages to be dated by, so its `/:year/alltags/` is Go's zero year, `/1/alltags/`
    // (Hugo 0.168.0; search seed 402766).
    let name = "terms-off-list-date";
    assert_same(name, "0.168", "0.168.0");
    assert!(hugo(name, "0.168").contains("https://example.org/1/alltags/"));
}

#[test]
fn from_0_123_a_term_without_a_file_is_titled_in_the_site_s_title_case() {
    // With `disablePathToLower`, `/t/:title/` shows the term's title: as written in Hugo
    // 0.111.3 (`/t/the-end-of-a-tale/`), in AP title case from 0.123 (`/t/The-End-of-a-Tale/`,
    // `/t/In-the-Mood-For/`, `/t/IPhone-Case/`), or in the site's `titleCaseStyle` (`go`:
    // `/t/The-End-Of-A-Tale/`). Search seeds 401053, 401388 and 403882 under 0.168.0.
    for name in ["list-titles", "list-titles-go"] {
        for (short, full) in [("0.111", "0.111.3"), ("0.168", "0.168.0")] {
            assert_same(name, short, full);
        }
    }
    let has = |name: &str, short: &str, path: &str| {
        hugo(name, short).contains(&format!("https://example.org{path}"))
    };
    assert!(has("list-titles", "0.111", "/t/the-end-of-a-tale/"));
    assert!(has("list-titles", "0.168", "/t/The-End-of-a-Tale/"));
    assert!(has("list-titles", "0.168", "/t/In-the-Mood-For/"));
    assert!(has("list-titles-go", "0.168", "/t/The-End-Of-A-Tale/"));
}

#[test]
fn a_taxonomy_list_with_its_kind_off_still_dates_the_home_by_its_own_file() {
    // `disableKinds = ["taxonomy"]` and `categories/_index.md` dated 2024: Hugo renders no
    // list, but the file stays in its tree and dates the home (2024, the only page being
    // 2020), in 0.111.3 and 0.168.0 alike (search seeds 402082 and others under 0.168.0).
    let name = "taxonomy-off-file-date";
    assert_same_home_day(name, "2024-04-04");
}

#[test]
fn before_0_123_a_taxonomy_list_with_its_kind_off_dates_the_home_by_its_terms() {
    // No `_index` for either taxonomy, `disableKinds = ["taxonomy"]`: Hugo 0.111.3 still
    // dates the home by the lists' terms (`q.md`'s term, 2023; the one section is 2019 and
    // a top-level page does not count there); 0.168.0 by the top-level page itself (search
    // seed 402604 under 0.111.3, with the old name `taxonomyTerm`).
    let name = "taxonomy-off-term-dates";
    assert_same_home_day(name, "2023-01-02");
}
