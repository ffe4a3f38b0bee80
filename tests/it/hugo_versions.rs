//! The Hugo version decides Hugo's rules: how it is chosen (flag, sitemap.toml,
//! `HUGO_VERSION`, `hugo version` on PATH, else the current Hugo), and front matter read as
//! each version reads it (each case checked with the real Hugo 0.111.3 and 0.168.0).

use crate::common;

use common::{run, text, url_locs, write_tree};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

const HUGO_TOML: &str = "baseURL = \"https://example.org/\"\ntitle = \"t\"\ndisableKinds = [\"taxonomy\", \"term\", \"section\", \"home\"]\n";

/// A Hugo site whose one page URL differs by version: `two  spaces.md` is `/two-spaces/` to
/// Hugo 0.111 and `/two--spaces/` from 0.123.
fn spaced_site() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", HUGO_TOML),
            ("content/two  spaces.md", "---\ntitle: x\n---\n"),
        ],
    );
    d
}

/// Runs the binary as a user would: no `HUGO_VERSION` unless `env` sets one, `PATH` as given.
fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)], path: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sitemapgen"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("HUGO_VERSION")
        .env("PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

/// The page locs written by a run of `args` in `dir`.
fn locs(dir: &Path, o: &Output) -> BTreeSet<String> {
    assert!(o.status.success(), "{}", text(o));
    let path = dir.join("public/sitemap.xml");
    common::validate_with_xsd(std::slice::from_ref(&path));
    url_locs(&std::fs::read_to_string(path).unwrap())
}

fn one(url: &str) -> BTreeSet<String> {
    [url.to_string()].into_iter().collect()
}

const OLD_URL: &str = "https://example.org/two-spaces/";
const NEW_URL: &str = "https://example.org/two--spaces/";

#[test]
fn the_version_comes_from_flag_then_sitemap_toml_then_env_then_hugo_then_default() {
    let d = spaced_site();
    let site = d.path();
    // A `hugo` on PATH that says it is 0.111.3, as Debian's does.
    let bin = tempfile::tempdir().unwrap();
    let hugo = bin.path().join("hugo");
    std::fs::write(
        &hugo,
        "#!/bin/sh\necho 'hugo v0.111.3+extended linux/amd64 BuildDate=2023-03-16T08:41:31Z'\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hugo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let build = ["build", "--site", ".", "--verbose"];

    // Nothing says: the current Hugo, and --verbose says why.
    let o = run_env(site, &build, &[], empty.path());
    assert_eq!(locs(site, &o), one(NEW_URL));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Hugo 0.168.0's rules (nothing named a version"),
        "{err}"
    );

    let o = run_env(site, &build, &[], bin.path());
    assert_eq!(locs(site, &o), one(OLD_URL));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Hugo 0.111.3's rules (`hugo version`"));

    let env = [("HUGO_VERSION", "0.140.0")];
    let o = run_env(site, &build, &env, bin.path());
    assert_eq!(locs(site, &o), one(NEW_URL));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("Hugo 0.140.0's rules (from the HUGO_VERSION")
    );

    std::fs::write(site.join("sitemap.toml"), "hugo_version = \"0.122.0\"\n").unwrap();
    let o = run_env(site, &build, &env, bin.path());
    assert_eq!(locs(site, &o), one(OLD_URL));
    assert!(String::from_utf8_lossy(&o.stderr).contains("from hugo_version in sitemap.toml"));

    let flag = [&build[..], &["--hugo-version", "v0.123.0"]].concat();
    let o = run_env(site, &flag, &env, bin.path());
    assert_eq!(locs(site, &o), one(NEW_URL));
    assert!(String::from_utf8_lossy(&o.stderr).contains("from --hugo-version"));

    // A version that is not one is an error naming where it came from.
    let o = run_env(
        site,
        &["build", "--site", ".", "--hugo-version", "latest"],
        &[],
        empty.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--hugo-version: the version 'latest' is not a Hugo version")
    );
    std::fs::write(site.join("sitemap.toml"), "\nhugo_version = \"new\"\n").unwrap();
    let o = run_env(site, &["build", "--site", "."], &[], empty.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sitemap.toml:2: hugo_version 'new'"));
}

/// Builds a Hugo site of `pages` (name, front matter) under `version`.
fn build(pages: &[(&str, &str)], version: &str) -> (tempfile::TempDir, Output) {
    let d = tempfile::tempdir().unwrap();
    let mut files = vec![("hugo.toml", HUGO_TOML)];
    files.extend_from_slice(pages);
    write_tree(d.path(), &files);
    let o = run(
        d.path(),
        &["build", "--site", ".", "--hugo-version", version],
    );
    (d, o)
}

/// As Hugo 0.111 and 0.168 read them: integers are Unix seconds and `02 Jan 2023` a date in
/// both; empty and null are no date; other text is dropped by 0.111 (a warning here) and
/// stops 0.168's build (an error naming file and line).
#[test]
fn dates_each_version_accepts_ignores_or_refuses() {
    let good = [
        ("content/int.md", "---\ntitle: x\ndate: 1675000000\n---\n"),
        ("content/day.md", "---\ntitle: x\ndate: 02 Jan 2023\n---\n"),
        (
            "content/empty.md",
            "---\ntitle: x\ndate: \"\"\nlastmod:\n---\n",
        ),
    ];
    for version in ["0.111.3", "0.168.0"] {
        let (d, o) = build(&good, version);
        assert!(o.status.success(), "{version}: {}", text(&o));
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        assert!(xml.contains("<loc>https://example.org/int/</loc>\n    <lastmod>2023-01-29T13:46:40+00:00</lastmod>"), "{xml}");
        assert!(
            xml.contains("<loc>https://example.org/day/</loc>\n    <lastmod>2023-01-02</lastmod>"),
            "{xml}"
        );
        assert!(
            xml.contains("<loc>https://example.org/empty/</loc>\n  </url>"),
            "{xml}"
        );
    }
    let bad = [(
        "content/word.md",
        "---\ntitle: x\n\ndate: January 2, 2023\n---\n",
    )];
    let (d, o) = build(&bad, "0.111.3");
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("word.md:4: `date` = 'January 2, 2023' is not a date Hugo reads"),
        "{err}"
    );
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<loc>https://example.org/word/</loc>\n  </url>"),
        "{xml}"
    );
    let (_, o) = build(&bad, "0.168.0");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("word.md:4: `date` = 'January 2, 2023' is not a date")
    );
}

/// `build` from 0.123, `_build` refused from 0.160 naming file and line, `published: false`
/// a draft before 0.135 and a date error after, `sitemap.disable` from 0.125.
#[test]
fn build_published_and_sitemap_disable_by_version() {
    let pages = [
        ("content/keep.md", "---\ntitle: x\n---\n"),
        (
            "content/plain-build.md",
            "---\ntitle: x\nbuild:\n  list: never\n---\n",
        ),
        (
            "content/off.md",
            "---\ntitle: x\nsitemap:\n  disable: true\n---\n",
        ),
        (
            "content/pub.md",
            "---\ntitle: x\npublished: false\npublishDate: 2023-01-01\n---\n",
        ),
    ];
    let listed = |version| {
        let (d, o) = build(&pages, version);
        locs(d.path(), &o)
    };
    let url = |p: &str| format!("https://example.org/{p}/");
    assert_eq!(
        listed("0.111.3"),
        [url("keep"), url("plain-build"), url("off")]
            .into_iter()
            .collect()
    );
    assert_eq!(listed("0.122.0"), listed("0.111.3"));
    assert_eq!(
        listed("0.123.0"),
        [url("keep"), url("off")].into_iter().collect()
    );
    assert_eq!(listed("0.168.0"), one(&url("keep")));

    let keep = ("content/keep.md", "---\ntitle: x\n---\n");
    let underscore = [
        keep,
        (
            "content/u.md",
            "---\ntitle: x\n_build:\n  list: never\n---\n",
        ),
    ];
    let (d, o) = build(&underscore, "0.150.0");
    assert_eq!(locs(d.path(), &o), one(&url("keep")));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("u.md:3: the `_build` front matter key was deprecated")
    );
    let (_, o) = build(&underscore, "0.160.0");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "u.md:3: the `_build` front matter key was deprecated in Hugo 0.145.0 and removed"
    ));

    let flag = [
        keep,
        ("content/p.md", "---\ntitle: x\npublished: false\n---\n"),
    ];
    let (d, o) = build(&flag, "0.134.0");
    assert_eq!(locs(d.path(), &o), one(&url("keep")));
    let (_, o) = build(&flag, "0.135.0");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("p.md:3: `published` = 'false' is not a date Hugo 0.135.0 reads")
    );
}

/// For a language with a `locale`, Hugo 0.111 writes its key as `hreflang`, 0.168 the locale.
#[test]
fn hreflang_is_the_key_before_0_112_6_and_the_locale_from_0_158() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\", \"section\", \"home\"]\n[languages.en]\nweight = 1\nlanguageCode = \"en-GB\"\n[languages.cs]\nweight = 2\nlocale = \"cs-CZ\"\n",
            ),
            ("content/a.md", "---\ntitle: a\n---\n"),
            ("content/a.cs.md", "---\ntitle: a\n---\n"),
        ],
    );
    let hreflangs = |version: &str| {
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version],
        );
        assert!(o.status.success(), "{}", text(&o));
        let xml = common::set_text(&d.path().join("public"), "sitemap.xml");
        let mut found: Vec<String> = xml
            .split("hreflang=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].to_string())
            .collect();
        found.sort();
        found.dedup();
        found
    };
    assert_eq!(hreflangs("0.111.3"), ["cs", "en"]);
    assert_eq!(hreflangs("0.140.0"), ["cs", "en-GB"]);
    assert_eq!(hreflangs("0.168.0"), ["cs-CZ", "en-GB"]);
}

/// `[frontmatter] date = [":filename", ":default"]`: the slug comes from the file name (a
/// bundle's folder) in both versions; from 0.123 the name's date also stands in for `date`
/// (lastmod, and a future name date withholds the page). Hugo 0.111.3 and 0.168.0 wrote these
/// URLs and lastmods for this tree.
#[test]
fn filename_dates_name_the_page_and_date_it_by_version() {
    let d = tempfile::tempdir().unwrap();
    let page = "---\ntitle: x\n---\n";
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n[frontmatter]\ndate = [\":filename\", \":default\"]\n",
            ),
            ("content/posts/2023-02-14-valentine-post.md", page),
            (
                "content/posts/2023-02-15-has-slug.md",
                "---\ntitle: x\nslug: own-slug\n---\n",
            ),
            ("content/posts/2023-03-01-my-bundle/index.md", page),
            ("content/posts/2099-01-01-future/index.md", page),
            ("content/notes/2023-04-05.md", page),
            ("content/notes/2023-04-06_under.md", page),
            ("content/notes/2023-04-07-Mixed-Case.md", page),
            (
                "content/notes/2023-04-08-with-date.md",
                "---\ntitle: x\ndate: 2020-01-01\n---\n",
            ),
        ],
    );
    let listed = |version: &str| -> Vec<String> {
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version],
        );
        assert!(o.status.success(), "{}", text(&o));
        let path = d.path().join("public/sitemap.xml");
        common::validate_with_xsd(std::slice::from_ref(&path));
        let xml = std::fs::read_to_string(path).unwrap();
        xml.split("<url>")
            .skip(1)
            .map(|u| {
                let field = |tag: &str| {
                    u.split(&format!("<{tag}>"))
                        .nth(1)
                        .map(|r| r[..r.find('<').unwrap()].to_string())
                        .unwrap_or_default()
                };
                format!("{} {}", field("loc"), field("lastmod"))
                    .trim_end()
                    .to_string()
            })
            .collect()
    };
    let o = "https://example.org";
    assert_eq!(
        listed("0.111.3"),
        [
            format!("{o}/ 2020-01-01"),
            format!("{o}/notes/ 2020-01-01"),
            format!("{o}/notes/2023-04-05/"),
            format!("{o}/notes/mixed-case/"),
            format!("{o}/notes/under/"),
            format!("{o}/notes/with-date/ 2020-01-01"),
            format!("{o}/posts/"),
            format!("{o}/posts/future/"),
            format!("{o}/posts/my-bundle/"),
            format!("{o}/posts/own-slug/"),
            format!("{o}/posts/valentine-post/"),
        ]
    );
    assert_eq!(
        listed("0.168.0"),
        [
            format!("{o}/ 2023-04-07"),
            format!("{o}/notes/ 2023-04-07"),
            format!("{o}/notes/2023-04-05/ 2023-04-05"),
            format!("{o}/notes/mixed-case/ 2023-04-07"),
            format!("{o}/notes/under/ 2023-04-06"),
            format!("{o}/notes/with-date/ 2020-01-01"),
            format!("{o}/posts/ 2023-03-01"),
            format!("{o}/posts/my-bundle/ 2023-03-01"),
            format!("{o}/posts/own-slug/ 2023-02-15"),
            format!("{o}/posts/valentine-post/ 2023-02-14"),
        ]
    );
}

/// From 0.123 a folder of drafts is still a section, and a headless bundle's terms make no
/// term page (Hugo 0.111.3 and 0.168.0 wrote these URLs for this tree).
#[test]
fn draft_folders_and_headless_terms_by_version() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            (
                "content/notes/only-draft.md",
                "---\ntitle: n\ndraft: true\n---\n",
            ),
            (
                "content/b/bundle/index.md",
                "---\ntitle: h\nheadless: true\ntags: [\"solo\"]\n---\n",
            ),
            ("content/keep.md", "---\ntitle: k\n---\n"),
        ],
    );
    let listed = |version: &str| {
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version],
        );
        locs(d.path(), &o)
    };
    let set = |paths: &[&str]| -> BTreeSet<String> {
        paths
            .iter()
            .map(|p| format!("https://example.org{p}"))
            .collect()
    };
    let both = ["/", "/b/", "/categories/", "/keep/", "/tags/"];
    assert_eq!(
        listed("0.111.3"),
        set(&[&both[..], &["/tags/solo/"]].concat())
    );
    assert_eq!(listed("0.168.0"), set(&[&both[..], &["/notes/"]].concat()));
}

/// A page Hugo does not render (`render: never`) gives its terms no page in later Hugo; other
/// build options keep them (Hugo 0.111.3 and 0.168.0 wrote these term URLs for this tree, each
/// with the build key it reads).
#[test]
fn terms_of_unrendered_pages_by_version() {
    let terms = |version: &str, key: &str| {
        let d = tempfile::tempdir().unwrap();
        let page = |term: &str, opt: &str| {
            format!("---\ntitle: x\ncategories: [\"{term}\"]\n{key}:\n  {opt}\n---\n")
        };
        let pages = [
            ("content/docs/a.md", page("Rn", "render: never")),
            ("content/docs/b.md", page("Ln", "list: never")),
            ("content/docs/c.md", page("Lo", "list: local")),
            ("content/docs/d.md", page("Rl", "render: link")),
        ];
        let mut files = vec![("hugo.toml", "baseURL = \"https://example.org/\"\n")];
        files.extend(pages.iter().map(|(p, t)| (*p, t.as_str())));
        write_tree(d.path(), &files);
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version],
        );
        let all = locs(d.path(), &o);
        all.into_iter()
            .filter_map(|u| {
                u.strip_prefix("https://example.org/categories/")
                    .map(str::to_string)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(terms("0.111.3", "_build"), ["", "ln/", "lo/", "rl/", "rn/"]);
    assert_eq!(terms("0.168.0", "build"), ["", "ln/", "lo/", "rl/"]);
}

/// From 0.167 a section's `slug` names its folder in its URL and in those below it (Hugo
/// 0.166.0 and 0.167.0 wrote these URLs for this tree).
#[test]
fn section_slugs_rename_their_folder_from_0_167() {
    let d = tempfile::tempdir().unwrap();
    let page = "---\ntitle: p\n---\n";
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
            ),
            (
                "content/docs/_index.md",
                "---\ntitle: d\nslug: \"Eps Ilon\"\n---\n",
            ),
            ("content/docs/page.md", page),
            (
                "content/docs/inner/_index.md",
                "---\ntitle: i\nslug: renamed\n---\n",
            ),
            ("content/docs/inner/q.md", page),
            (
                "content/blog/_index.md",
                "---\ntitle: b\nurl: /weblog/\n---\n",
            ),
            ("content/blog/post.md", page),
        ],
    );
    let listed = |version: &str| {
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version],
        );
        locs(d.path(), &o)
    };
    let set = |paths: &[&str]| -> BTreeSet<String> {
        paths
            .iter()
            .map(|p| format!("https://example.org{p}"))
            .collect()
    };
    let both = ["/", "/blog/post/", "/weblog/"];
    let old = ["/docs/", "/docs/page/", "/docs/inner/", "/docs/inner/q/"];
    let new = [
        "/eps-ilon/",
        "/eps-ilon/page/",
        "/eps-ilon/renamed/",
        "/eps-ilon/renamed/q/",
    ];
    assert_eq!(listed("0.166.0"), set(&[&both[..], &old].concat()));
    assert_eq!(listed("0.167.0"), set(&[&both[..], &new].concat()));
}

/// `[permalinks]` tokens beyond the named ones, as Hugo 0.111.3 and 0.168.0 both built this
/// site (their sitemaps, byte for byte the same URLs): a cut of the sections (`[1:]`,
/// `[last]`, `[:last]`, `[1]`), a Go time layout of the page's date (`:06`, `:Jan`, `:02`;
/// only the word after `:` is the token, so `:2006-01-02` is the year then text), a `:`
/// without a word kept as text, and the whole expansion lower-cased, the pattern's own text
/// too. (Hugo 0.111 panics on `[1]` where a page has one section only, so `more` is 0.168's.)
#[test]
fn permalink_cuts_and_go_time_layouts_as_hugo_expands_them() {
    let d = tempfile::tempdir().unwrap();
    let page = |title: &str, date: &str| format!("---\ntitle: {title}\ndate: {date}\n---\n");
    let pages = [
        ("content/posts/_index.md", page("P", "2024-01-01")),
        ("content/posts/sub/_index.md", page("S", "2024-01-01")),
        ("content/posts/sub/deep/_index.md", page("D", "2024-01-01")),
        (
            "content/posts/sub/deep/a.md",
            page("Alpha One", "2024-03-05T07:08:09+02:00"),
        ),
        ("content/posts/b.md", page("Beta", "2024-03-05")),
        (
            "content/blog/b.md",
            page("Blog B", "2023-12-31T23:30:00-05:00"),
        ),
        ("content/blog/nodate.md", page("No Date", "\"\"")),
        ("content/docs/_index.md", page("Docs", "2024-01-01")),
        ("content/docs/x/_index.md", page("X", "2024-01-01")),
        ("content/docs/x/y.md", page("Y", "2024-02-29")),
        ("content/notes/_index.md", page("N", "2024-01-01")),
        ("content/notes/n1/_index.md", page("N1", "2024-01-01")),
        (
            "content/notes/n1/page.md",
            page("Page Note", "2024-07-04T15:04:00Z"),
        ),
        ("content/more/_index.md", page("M", "2024-01-01")),
        ("content/more/a/_index.md", page("A", "2024-01-01")),
        ("content/more/a/b/_index.md", page("B", "2024-01-01")),
        ("content/more/a/b/c.md", page("C", "2024-05-06")),
        ("content/more/d.md", page("Dd", "2024-05-06")),
    ];
    let mut files: Vec<(&str, &str)> = pages.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let config = r#"baseURL = "https://example.com/"
disableKinds = ["taxonomy", "term"]
[permalinks]
posts = "/:sections[1:]/:slug/"
blog = "/Blog/:06/:Jan/:02/:slug/"
docs = "/:sections[last]/:filename/"
notes = "/:sections[:last]/:2006-01-02_15h04/:title/"
more = "/:sections[1]/m:Monday/:slug/"
"#;
    files.push(("hugo.toml", config));
    write_tree(d.path(), &files);
    let o = run(
        d.path(),
        &["build", "--site", ".", "--hugo-version", "0.168.0"],
    );
    let want: BTreeSet<String> = [
        "/",
        "/a/mmonday/c/",
        "/beta/",
        "/blog/",
        "/blog/01/jan/01/no-date/",
        "/blog/23/dec/31/blog-b/",
        "/docs/",
        "/docs/x/",
        "/mmonday/dd/",
        "/more/",
        "/more/a/",
        "/more/a/b/",
        "/notes/",
        "/notes/2024-01-02_15h04/page-note/",
        "/notes/n1/",
        "/posts/",
        "/posts/sub/",
        "/posts/sub/deep/",
        "/sub/deep/alpha-one/",
        "/x/y/",
    ]
    .iter()
    .map(|p| format!("https://example.com{p}"))
    .collect();
    assert_eq!(locs(d.path(), &o), want);
}

/// Round 2 (hugo-root-index-md): an `index.md` or `index.html` at the root of a Hugo site's
/// content is built by Hugo, so it never stops sitemapgen. Each case as Hugo 0.111.3 and
/// 0.168.0 list it (the home once where Hugo lists it twice, `/index.html`, the home's own
/// file, not at all): a root leaf bundle is the home and owns the pages below it; before
/// 0.123 an `_index` beside an `index` wins (the `index` is a page at the folder's URL,
/// owning nothing), and an HTML file without front matter is copied as it is, no page.
#[test]
fn an_index_at_the_content_root_is_the_home() {
    let root_leaf = "---\ntitle: Root\n---\nroot\n";
    let home = "---\ntitle: Home\n---\n";
    let raw_html = "<html><body>x</body></html>\n";
    let html_with_fm = "---\ntitle: H\n---\n<p>x</p>\n";
    let leaf = "---\ntitle: Leaf\n---\n";
    let post = (
        "content/posts/p1.md",
        "---\ntitle: P1\ndate: 2024-01-01\n---\nx\n",
    );
    let all = ["/", "/posts/", "/posts/p1/"];
    let home_only = ["/"];
    #[allow(clippy::type_complexity)]
    let cases: &[(&str, &[(&str, &str)], &[&str], &[&str])] = &[
        // (case, files besides the post, 0.111.3's URLs, 0.168.0's URLs)
        (
            "alone",
            &[("content/index.md", root_leaf)],
            &home_only,
            &home_only,
        ),
        (
            "beside _index.md",
            &[("content/index.md", root_leaf), ("content/_index.md", home)],
            &all,
            &home_only,
        ),
        (
            "raw html",
            &[("content/index.html", raw_html)],
            &all,
            &home_only,
        ),
        (
            "html with front matter",
            &[("content/index.html", html_with_fm)],
            &home_only,
            &home_only,
        ),
        (
            "both in a section",
            &[
                ("content/posts/index.md", leaf),
                ("content/posts/_index.md", home),
            ],
            &all,
            &["/", "/posts/"],
        ),
    ];
    for (case, files, old, new) in cases {
        for (version, want) in [("0.111.3", old), ("0.168.0", new)] {
            let d = tempfile::tempdir().unwrap();
            let mut tree = vec![
                (
                    "hugo.toml",
                    // 0.162+ builds HTML content only where its policy allows it.
                    "baseURL = \"https://example.org/\"\ntitle = \"t\"\ndisableKinds = [\"taxonomy\", \"term\"]\n[security]\nallowContent = ['.*']\n",
                ),
                post,
            ];
            tree.extend_from_slice(files);
            write_tree(d.path(), &tree);
            let o = run_env(
                d.path(),
                &["build", "--hugo-version", version],
                &[],
                Path::new("/usr/bin:/bin"),
            );
            let want: BTreeSet<String> = want
                .iter()
                .map(|p| format!("https://example.org{p}"))
                .collect();
            assert_eq!(
                locs(d.path(), &o),
                want,
                "{case}, Hugo {version}: {}",
                text(&o)
            );
        }
    }
}

/// A root `index.md` is one URL with the home: a warning says it is listed once.
#[test]
fn a_root_index_beside_the_home_is_said_once() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
            ),
            ("content/index.md", "---\ntitle: Root\n---\n"),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
        ],
    );
    let o = run(d.path(), &["build", "--hugo-version", "0.111.3"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("publishes at / like"),
        "{}",
        text(&o)
    );
}

/// Hugo builds whatever `draft` holds (checked with Hugo 0.111.3 and 0.168.0): no value, an
/// empty string, a word or a list is false; `draft = 1` (TOML) is false to 0.111 and true
/// from 0.112. Each is said, naming the file and line; none stops the run.
#[test]
fn every_draft_value_hugo_builds_is_read_as_hugo_reads_it_and_said() {
    let pages = [
        ("content/a.md", "---\ntitle: A\ndraft:\n---\n"),
        ("content/b.md", "---\ntitle: B\ndraft: \"yes\"\n---\n"),
        ("content/c.md", "+++\ntitle = \"C\"\ndraft = 1\n+++\n"),
        ("content/d.md", "---\ntitle: D\ndraft: \"\"\n---\n"),
        ("content/e.md", "+++\ntitle = \"E\"\ndraft = []\n+++\n"),
        ("content/f.md", "---\ntitle: F\ndraft: false\n---\n"),
    ];
    for (version, c_listed) in [("0.111.3", true), ("0.168.0", false)] {
        let (d, o) = build(&pages, version);
        let got = locs(d.path(), &o);
        let mut want: BTreeSet<String> = ["a", "b", "d", "e", "f"]
            .iter()
            .map(|p| format!("https://example.org/{p}/"))
            .collect();
        if c_listed {
            want.insert("https://example.org/c/".into());
        }
        assert_eq!(got, want, "{version}");
        let err = String::from_utf8_lossy(&o.stderr);
        for said in [
            "a.md:3: `draft` has no value",
            "b.md:3: `draft` = 'yes' is not true or false",
            "d.md:3: `draft` = '' is not true or false",
            "e.md:3: `draft` = a list or table is not true or false",
        ] {
            assert!(err.contains(said), "{version}: {said}\n{err}");
        }
        assert!(!err.contains("f.md:3"), "{err}");
    }
}

/// A taxonomy's or term's own `_index` file names its URL with `url` (both versions; a
/// relative one below the language, read as a section's), and from 0.167 with `slug`. The
/// URL sets (percent-decoded) are Hugo 0.111.3's and 0.168.0's for this site.
#[test]
fn term_and_taxonomy_files_name_their_urls_by_version() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n",
            ),
            (
                "content/p.md",
                "---\ntitle: P\ntags: [Rust, Go, Zig]\ncategories: [X]\n---\n",
            ),
            (
                "content/p.fr.md",
                "---\ntitle: P\ntags: [Rust, Go]\ncategories: [X]\n---\n",
            ),
            (
                "content/tags/rust/_index.fr.md",
                "---\ntitle: R\nurl: \"R/Rust Lang\"\n---\n",
            ),
            (
                "content/tags/go/_index.md",
                "---\ntitle: G\nurl: \"/g/go/\"\n---\n",
            ),
            (
                "content/tags/zig/_index.md",
                "---\ntitle: Z\nslug: Zed Two\n---\n",
            ),
            (
                "content/categories/_index.md",
                "---\ntitle: C\nurl: \"cats\"\n---\n",
            ),
        ],
    );
    let same = [
        "/",
        "/categories/x/",
        "/cats/",
        "/fr/",
        "/fr/categories/",
        "/fr/categories/x/",
        "/fr/p/",
        "/fr/tags/",
        "/fr/tags/go/",
        "/g/go/",
        "/p/",
        "/tags/",
        "/tags/rust/",
    ];
    for (version, own) in [
        ("0.111.3", ["/fr/r/rust-lang/", "/tags/zig/"]),
        ("0.168.0", ["/fr/R/Rust Lang/", "/tags/zed-two/"]),
    ] {
        let o = run(
            d.path(),
            &["build", "--site", ".", "--hugo-version", version, "-q"],
        );
        let want: BTreeSet<String> = same
            .iter()
            .chain(&own)
            .map(|p| format!("https://example.org{p}"))
            .collect();
        assert!(o.status.success(), "{}", text(&o));
        // Hugo's layout: an index over one sitemap per language.
        let got = url_locs(&common::set_text(&d.path().join("public"), "sitemap.xml"));
        assert_eq!(got, want, "{version}");
    }
}
