//! lastmod end to end: real git repositories built in temporary folders (commits with fixed
//! dates), the binary run on a site inside them, and the exact `<lastmod>` of every URL.

use crate::common;
use crate::common::stderr;

use common::{run, text, write_tree};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, UNIX_EPOCH};

/// Zola's own sitemap off, as the README asks, so sitemapgen's is the only one.
const ZOLA_CONFIG: &str = "base_url = \"https://example.com\"\ngenerate_sitemap = false\n";
/// These tests check times and offsets: git dates to the second, not the default day.
const SECONDS: &str = "lastmod_precision = \"second\"\n";

/// Runs git in `dir` with a fixed identity, none of the machine's config, and both commit
/// dates set to `date` (or author and committer dates apart).
fn git_at(dir: &Path, args: &[&str], author: &str, committer: &str) -> Output {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.org"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", author)
        .env("GIT_COMMITTER_DATE", committer)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
    out
}

/// A new git repository in a temporary folder, holding `files` (not yet committed).
fn repo_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    git(d.path(), &["init", "-q"]);
    write_tree(d.path(), files);
    d
}

fn git(dir: &Path, args: &[&str]) -> Output {
    git_at(dir, args, "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z")
}

/// Stages everything and commits it with both dates at `date`.
fn commit(dir: &Path, date: &str) {
    commit_apart(dir, date, date);
}

fn commit_apart(dir: &Path, author: &str, committer: &str) {
    git(dir, &["add", "-A"]);
    git_at(dir, &["commit", "-q", "-m", "change"], author, committer);
}

/// Sets a file's mtime to `secs` after the epoch.
fn set_mtime(path: &Path, secs: u64) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(UNIX_EPOCH + Duration::from_secs(secs))
        .unwrap();
}

/// Runs `sitemapgen build` in `cwd` with `args` and returns each URL's lastmod.
fn build_in(cwd: &Path, args: &[&str], out_dir: &Path) -> (BTreeMap<String, String>, Output) {
    let mut all = vec!["build"];
    all.extend_from_slice(args);
    let o = run(cwd, &all);
    assert!(o.status.success(), "{}", text(&o));
    (read_lastmods(&out_dir.join("sitemap.xml")), o)
}

/// `loc -> lastmod` (empty when the URL has none) from a sitemap.
fn read_lastmods(path: &Path) -> BTreeMap<String, String> {
    let xml = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeMap::new();
    for block in xml.split("<url>").skip(1) {
        let field = |tag: &str| {
            let open = format!("<{tag}>");
            let close = format!("</{tag}>");
            block
                .find(&open)
                .map(|a| block[a + open.len()..block.find(&close).unwrap()].to_string())
        };
        out.insert(field("loc").unwrap(), field("lastmod").unwrap_or_default());
    }
    out
}

fn expect(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(l, d)| (format!("https://example.com{l}"), d.to_string()))
        .collect()
}

#[test]
fn renamed_nested_and_oddly_named_files_get_their_last_commit() {
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        ("sitemap.toml", SECONDS),
        ("README.md", "v1\n"),
        ("content/_index.md", "+++\n+++\n"),
        ("content/blog/_index.md", "+++\n+++\n"),
        ("content/blog/old name.md", "+++\n+++\nfirst\n"),
        ("content/blog/deep/nested/page.md", "+++\n+++\nfirst\n"),
        ("content/über uns.md", "+++\n+++\nfirst\n"),
        ("content/a b/c d.md", "+++\n+++\nfirst\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-01-01T10:00:00Z");
    std::fs::write(repo.join("content/über uns.md"), "+++\n+++\nsecond\n").unwrap();
    commit(repo, "2024-02-01T12:00:00+02:00");
    git(
        repo,
        &["mv", "content/blog/old name.md", "content/blog/new-name.md"],
    );
    commit(repo, "2024-03-01T09:00:00Z");
    std::fs::write(
        repo.join("content/blog/deep/nested/page.md"),
        "+++\n+++\nsecond\n",
    )
    .unwrap();
    commit(repo, "2024-04-01T08:30:00-04:00");
    // A change outside the content dir dates nothing.
    std::fs::write(repo.join("README.md"), "v2\n").unwrap();
    commit(repo, "2024-05-01T00:00:00Z");

    let (got, _) = build_in(repo, &["--site", ".", "--quiet"], &repo.join("public"));
    assert_eq!(
        got,
        expect(&[
            // Home and section: their own commit loses to the newest page below.
            ("/", "2024-04-01T08:30:00-04:00"),
            // Zola keeps folder names as written (no _index.md): the space is percent-encoded.
            ("/a%20b/c-d/", "2024-01-01T10:00:00+00:00"),
            ("/blog/", "2024-04-01T08:30:00-04:00"),
            ("/blog/deep/nested/page/", "2024-04-01T08:30:00-04:00"),
            // A pure rename keeps the file's history: its content dates from January.
            ("/blog/new-name/", "2024-01-01T10:00:00+00:00"),
            ("/uber-uns/", "2024-02-01T12:00:00+02:00"),
        ])
    );
}

/// Runs `sitemapgen build` in `cwd` with `args` and extra environment, and returns each URL's
/// lastmod.
fn build_env(
    cwd: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    out_dir: &Path,
) -> BTreeMap<String, String> {
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .arg("build")
        .args(args)
        .current_dir(cwd)
        .env_remove("SOURCE_DATE_EPOCH")
        // CI turns on git_fetch = "auto"; these tests model a local run unless they say so.
        .env_remove("CI")
        .env_remove("GIT_COMMITTER_DATE")
        .env_remove("GIT_AUTHOR_DATE")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    read_lastmods(&out_dir.join("sitemap.xml"))
}

#[test]
fn uncommitted_files_take_the_date_their_commit_will_carry_and_never_a_checkout_mtime() {
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        ("sitemap.toml", SECONDS),
        ("content/committed.md", "+++\n+++\n"),
        ("content/edited.md", "+++\n+++\nv1\n"),
        ("content/staged.md", "+++\n+++\nv1\n"),
        ("content/dated.md", "+++\ndate = 2024-06-01\n+++\nv1\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-01-01T00:00:00Z");
    // The committed file's mtime is later than its commit: it must not count.
    set_mtime(&repo.join("content/committed.md"), 1_718_000_000);
    std::fs::write(repo.join("content/edited.md"), "+++\n+++\nv2\n").unwrap();
    set_mtime(&repo.join("content/edited.md"), 1_718_438_400); // 2024-06-15T08:00:00Z
    std::fs::write(repo.join("content/staged.md"), "+++\n+++\nv2\n").unwrap();
    git(repo, &["add", "content/staged.md"]);
    std::fs::write(repo.join("content/new.md"), "+++\n+++\n").unwrap();
    // An edited page with a publication date: git's place comes before `published`.
    std::fs::write(
        repo.join("content/dated.md"),
        "+++\ndate = 2024-06-01\n+++\nv2\n",
    )
    .unwrap();

    // The date the commit will carry: the one git is told to use (here), else now.
    let when = [("GIT_AUTHOR_DATE", "2024-06-20T09:00:00+02:00")];
    let got = build_env(
        repo,
        &["--site", ".", "--quiet"],
        &when,
        &repo.join("public"),
    );
    let pending = "2024-06-20T09:00:00+02:00";
    assert_eq!(
        got,
        expect(&[
            ("/", pending),
            ("/committed/", "2024-01-01T00:00:00+00:00"),
            ("/dated/", pending),
            ("/edited/", pending),
            ("/new/", pending),
            ("/staged/", pending),
        ])
    );

    // SOURCE_DATE_EPOCH caps it, and nothing else.
    let capped = [
        when[0],
        ("SOURCE_DATE_EPOCH", "1718496000"), // 2024-06-16T00:00:00Z
    ];
    let got = build_env(
        repo,
        &["--site", ".", "--quiet"],
        &capped,
        &repo.join("public"),
    );
    assert_eq!(
        got["https://example.com/edited/"],
        "2024-06-16T00:00:00+00:00"
    );
    assert_eq!(
        got["https://example.com/committed/"],
        "2024-01-01T00:00:00+00:00"
    );

    // Without git among the sources, an uncommitted file's mtime is its date.
    std::fs::write(
        repo.join("sitemap.toml"),
        "lastmod = [\"mtime\"]\nlastmod_precision = \"second\"\n",
    )
    .unwrap();
    let got = build_env(
        repo,
        &["--site", ".", "--quiet"],
        &when,
        &repo.join("public"),
    );
    assert_eq!(
        got["https://example.com/edited/"],
        "2024-06-15T08:00:00+00:00"
    );
    assert_eq!(got["https://example.com/committed/"], "");
}

#[test]
fn a_shallow_clone_warns_once_and_uses_neither_git_nor_mtime() {
    let d = tempfile::tempdir().unwrap();
    let origin = d.path().join("origin");
    std::fs::create_dir(&origin).unwrap();
    git(&origin, &["init", "-q"]);
    write_tree(
        &origin,
        &[
            ("config.toml", ZOLA_CONFIG),
            ("sitemap.toml", SECONDS),
            ("content/dated.md", "+++\ndate = 2023-07-08\n+++\n"),
            ("content/undated.md", "+++\n+++\n"),
        ],
    );
    commit(&origin, "2024-01-01T00:00:00Z");
    std::fs::write(origin.join("content/undated.md"), "+++\n+++\nv2\n").unwrap();
    commit(&origin, "2024-02-01T00:00:00Z");
    let url = format!("file://{}", origin.display());
    git(d.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    let clone = d.path().join("clone");
    // A page written after the clone is not in git: its mtime is still its last change.
    std::fs::write(clone.join("content/fresh.md"), "+++\n+++\n").unwrap();
    set_mtime(&clone.join("content/fresh.md"), 1_718_841_600); // 2024-06-20T00:00:00Z

    let (_, o) = build_in(&clone, &["--site", "."], &clone.join("public"));
    // Git would say 2024-02-01 for both (the boundary commit); mtime would say today. The
    // uncommitted page takes the date its commit will carry.
    let when = [("GIT_AUTHOR_DATE", "2024-06-21T00:00:00Z")];
    let got = build_env(&clone, &["--site", "."], &when, &clone.join("public"));
    assert_eq!(
        got,
        expect(&[
            ("/", "2024-06-21T00:00:00+00:00"),
            ("/dated/", "2023-07-08"),
            ("/fresh/", "2024-06-21T00:00:00+00:00"),
            ("/undated/", ""),
        ])
    );
    let err = stderr(&o);
    assert_eq!(err.matches("shallow clone").count(), 1, "{err}");
    assert!(
        err.contains("fetch-depth: 0") && err.contains("git fetch --unshallow"),
        "{err}"
    );

    // Without git among the sources the depth does not matter: no warning, same rules.
    std::fs::write(
        clone.join("sitemap.toml"),
        "lastmod = [\"published\", \"mtime\"]\nlastmod_precision = \"second\"\n",
    )
    .unwrap();
    let (got2, o) = build_in(&clone, &[], &clone.join("public"));
    assert_eq!(
        got2,
        expect(&[
            ("/", "2024-06-20T00:00:00+00:00"),
            ("/dated/", "2023-07-08"),
            ("/fresh/", "2024-06-20T00:00:00+00:00"),
            ("/undated/", ""),
        ])
    );
    assert!(!stderr(&o).contains("shallow"), "{}", text(&o));
}

#[test]
fn a_content_dir_nested_in_the_repository_maps_its_paths() {
    let d = repo_with(&[
        ("site/config.toml", ZOLA_CONFIG),
        ("site/sitemap.toml", SECONDS),
        ("site/content/one.md", "+++\n+++\n"),
        ("site/content/docs/two.md", "+++\n+++\n"),
        ("other/content/one.md", "x\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-01-01T00:00:00Z");
    std::fs::write(repo.join("site/content/docs/two.md"), "+++\n+++\nv2\n").unwrap();
    // A file of the same name elsewhere in the repository must not lend its date.
    std::fs::write(repo.join("other/content/one.md"), "y\n").unwrap();
    commit(repo, "2024-03-03T03:03:03+03:00");

    // Run from the repository's top: scanned paths are relative to there, not to the site.
    let (got, _) = build_in(
        repo,
        &["--site", "site", "--quiet"],
        &repo.join("site/public"),
    );
    assert_eq!(
        got,
        expect(&[
            ("/", "2024-03-03T03:03:03+03:00"),
            ("/docs/two/", "2024-03-03T03:03:03+03:00"),
            ("/one/", "2024-01-01T00:00:00+00:00"),
        ])
    );
    // And from a sibling folder, through `..`.
    let (again, _) = build_in(
        &repo.join("other"),
        &["--site", "../site", "--quiet"],
        &repo.join("site/public"),
    );
    assert_eq!(again, got);
}

#[test]
fn a_commit_before_the_pages_own_date_gives_way_to_that_date() {
    // Written on the 24th, dated for publication on the 25th (a real htmx post); edited on
    // the 26th. A scheduled page (its date still to come) keeps its commit's date.
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        ("content/ahead.md", "+++\ndate = 2023-08-25\n+++\n"),
        ("content/edited.md", "+++\ndate = 2023-08-25\n+++\n"),
        ("content/scheduled.md", "+++\ndate = 2099-01-01\n+++\n"),
    ]);
    let repo = d.path();
    commit(repo, "2023-08-24T13:13:05-06:00");
    std::fs::write(
        repo.join("content/edited.md"),
        format!(
            "+++\ndate = 2023-08-25\n+++\n{}\n",
            "New words here. ".repeat(20)
        ),
    )
    .unwrap();
    commit(repo, "2023-08-26T09:00:00+00:00");
    let (got, _) = build_in(repo, &["--quiet"], &repo.join("public"));
    assert_eq!(got["https://example.com/ahead/"], "2023-08-25");
    assert_eq!(got["https://example.com/edited/"], "2023-08-26");
    assert_eq!(got["https://example.com/scheduled/"], "2023-08-24");
}

#[test]
fn author_date_by_default_committer_date_on_request() {
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        (
            "sitemap.toml",
            "lastmod = [\"git\"]\nlastmod_precision = \"second\"\n",
        ),
        ("content/page.md", "+++\n+++\n"),
    ]);
    let repo = d.path();
    // Written in 2023 in Paris, committed (rebased) in 2024 in New York.
    commit_apart(
        repo,
        "2023-05-05T10:00:00+02:00",
        "2024-01-02T03:04:05-05:00",
    );
    let (got, _) = build_in(repo, &["--quiet"], &repo.join("public"));
    assert_eq!(
        got["https://example.com/page/"],
        "2023-05-05T10:00:00+02:00"
    );

    std::fs::write(
        repo.join("sitemap.toml"),
        "lastmod = [\"git\"]\ngit_date = \"committer\"\nlastmod_precision = \"second\"\n",
    )
    .unwrap();
    let (got, _) = build_in(repo, &["--quiet"], &repo.join("public"));
    assert_eq!(
        got["https://example.com/page/"],
        "2024-01-02T03:04:05-05:00"
    );
}

#[test]
fn a_future_date_is_clamped_to_today_with_a_warning_naming_the_file() {
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        ("sitemap.toml", SECONDS),
        ("content/soon.md", "+++\nupdated = 2999-01-01\n+++\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-01-01T00:00:00Z");
    let before = chrono::Utc::now().date_naive().to_string();
    let (got, o) = build_in(repo, &["--site", "."], &repo.join("public"));
    let after = chrono::Utc::now().date_naive().to_string();
    let written = &got["https://example.com/soon/"];
    assert!(*written == before || *written == after, "{written}");
    let err = stderr(&o);
    assert!(
        err.contains("soon.md") && err.contains("2999-01-01") && err.contains("future"),
        "{err}"
    );
}

#[test]
fn outside_git_mtime_is_the_last_resort_and_verbose_says_why() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", ZOLA_CONFIG),
            ("sitemap.toml", SECONDS),
            ("content/page.md", "+++\n+++\n"),
        ],
    );
    let (got, o) = build_in(
        d.path(),
        &["--site", ".", "--verbose"],
        &d.path().join("public"),
    );
    assert_eq!(
        got["https://example.com/page/"],
        "2020-01-01T00:00:00+00:00"
    );
    let err = stderr(&o);
    assert_eq!(err.matches("not in a git repository").count(), 1, "{err}");
}

#[test]
fn hugo_sites_follow_enable_git_info_and_their_frontmatter_order() {
    let d = repo_with(&[
        (
            "hugo.toml",
            "baseURL = \"https://example.com/\"\nenableGitInfo = true\n",
        ),
        ("content/posts/a.md", "---\ndate: 2020-02-02\n---\n"),
        ("sitemap.toml", SECONDS),
    ]);
    let repo = d.path();
    commit_apart(
        repo,
        "2023-05-05T10:00:00+02:00",
        "2024-01-02T03:04:05-05:00",
    );
    let page = "https://example.com/posts/a/";
    let lastmod_with = |config: &str| {
        std::fs::write(repo.join("hugo.toml"), config).unwrap();
        let (got, o) = build_in(repo, &["--site", ".", "--verbose"], &repo.join("public"));
        (got[page].clone(), stderr(&o))
    };

    // Hugo's default order starts with :git, which is the author date.
    let (lm, err) = lastmod_with("baseURL = \"https://example.com/\"\nenableGitInfo = true\n");
    assert_eq!(lm, "2023-05-05T10:00:00+02:00", "{err}");
    assert!(err.contains("lastmod order from the Hugo config"), "{err}");

    // Without git info Hugo's .Lastmod is the front matter date, and so is ours.
    let (lm, err) = lastmod_with("baseURL = \"https://example.com/\"\n");
    assert_eq!(lm, "2020-02-02", "{err}");

    let (lm, err) = lastmod_with(
        "baseURL = \"https://example.com/\"\nenableGitInfo = true\n[frontmatter]\nlastmod = ['date', ':git']\n",
    );
    assert_eq!(lm, "2020-02-02", "{err}");

    // sitemap.toml wins over the Hugo config.
    std::fs::write(
        repo.join("sitemap.toml"),
        "lastmod = [\"git\"]\ngit_date = \"committer\"\nlastmod_precision = \"second\"\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("hugo.toml"),
        "baseURL = \"https://example.com/\"\n",
    )
    .unwrap();
    let (got, _) = build_in(repo, &["--quiet"], &repo.join("public"));
    assert_eq!(got[page], "2024-01-02T03:04:05-05:00");
}

#[test]
fn every_hugo_language_content_dir_gets_git_dates() {
    let d = repo_with(&[
        (
            "hugo.toml",
            "baseURL = \"https://example.com/\"\nenableGitInfo = true\n\
             defaultContentLanguage = \"en\"\ncontentDir = \"content_en\"\n\
             [languages.en]\ncontentDir = \"content_en\"\nweight = 1\n\
             [languages.fr]\ncontentDir = \"content_fr\"\nweight = 2\n",
        ),
        ("sitemap.toml", SECONDS),
        ("content_en/posts/a.md", "---\ntitle: A\n---\n"),
        ("content_fr/posts/b.md", "---\ntitle: B\n---\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-01-01T00:00:00Z");
    // Only the second language's dir changes: its history must be read too.
    std::fs::write(repo.join("content_fr/posts/b.md"), "---\ntitle: B2\n---\n").unwrap();
    commit(repo, "2024-02-02T00:00:00Z");
    let o = run(repo, &["build", "--site", ".", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let mut got = BTreeMap::new();
    // Hugo's layout: the index over one file per language.
    for f in common::set_files(&repo.join("public"), "sitemap.xml") {
        got.extend(read_lastmods(&f));
    }
    assert_eq!(
        got["https://example.com/posts/a/"],
        "2024-01-01T00:00:00+00:00"
    );
    assert_eq!(
        got["https://example.com/fr/posts/b/"],
        "2024-02-02T00:00:00+00:00"
    );
}

#[test]
fn without_a_git_program_mtime_counts_only_outside_a_checkout() {
    let no_git = tempfile::tempdir().unwrap();
    let run_without_git = |cwd: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
            .args(["build", "--site", ".", "--verbose"])
            .current_dir(cwd)
            .env("PATH", no_git.path())
            .env_remove("SOURCE_DATE_EPOCH")
            .env_remove("CI")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        (read_lastmods(&cwd.join("public/sitemap.xml")), stderr(&o))
    };
    let files = [
        ("config.toml", ZOLA_CONFIG),
        ("sitemap.toml", SECONDS),
        ("content/page.md", "+++\n+++\n"),
        ("content/dated.md", "+++\ndate = 2021-02-03\n+++\n"),
    ];

    let plain = tempfile::tempdir().unwrap();
    write_tree(plain.path(), &files);
    let (got, err) = run_without_git(plain.path());
    assert_eq!(
        got["https://example.com/page/"],
        "2020-01-01T00:00:00+00:00"
    );
    assert_eq!(err.matches("git is not installed").count(), 1, "{err}");

    // In a checkout the mtime may be the checkout time: the page goes without.
    let repo = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    write_tree(repo.path(), &files);
    commit(repo.path(), "2024-01-01T00:00:00Z");
    let (got, err) = run_without_git(repo.path());
    assert_eq!(got["https://example.com/page/"], "");
    assert_eq!(got["https://example.com/dated/"], "2021-02-03");
    assert_eq!(err.matches("git is not installed").count(), 1, "{err}");
}

#[test]
fn naive_times_take_the_site_zone_and_git_dates_keep_their_own() {
    let d = repo_with(&[
        ("config.toml", ZOLA_CONFIG),
        (
            "sitemap.toml",
            "timezone = \"Asia/Kolkata\"\nlastmod_precision = \"second\"\n",
        ),
        (
            "content/naive.md",
            "+++\nupdated = 2024-01-01T10:00:00\n+++\n",
        ),
        ("content/day.md", "+++\nupdated = 2024-01-05\n+++\n"),
        ("content/committed.md", "+++\n+++\n"),
    ]);
    let repo = d.path();
    commit(repo, "2024-02-02T00:00:00-08:00");
    let (got, _) = build_in(repo, &["--quiet"], &repo.join("public"));
    assert_eq!(
        got,
        expect(&[
            ("/", "2024-02-02T00:00:00-08:00"),
            ("/committed/", "2024-02-02T00:00:00-08:00"),
            // A date-only value stays date-only.
            ("/day/", "2024-01-05"),
            ("/naive/", "2024-01-01T10:00:00+05:30"),
        ])
    );
}

/// Docs kept in a git submodule below `content/`: the outer log never sees their files, and
/// their mtimes are checkout times, so their dates come from the submodule's own history.
/// A submodule that is not checked out, or a shallow one, dates nothing (with a warning for
/// the shallow one).
#[test]
fn files_in_a_submodule_get_the_submodules_commit_dates() {
    let d = tempfile::tempdir().unwrap();
    let docs = d.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    git(&docs, &["init", "-q"]);
    write_tree(
        &docs,
        &[("guide.md", "+++\n+++\nv1\n"), ("faq.md", "+++\n+++\n")],
    );
    commit(&docs, "2023-05-05T05:00:00Z");
    std::fs::write(docs.join("guide.md"), "+++\n+++\nv2\n").unwrap();
    commit(&docs, "2023-06-06T06:00:00Z");

    let site = d.path().join("site");
    std::fs::create_dir(&site).unwrap();
    git(&site, &["init", "-q"]);
    write_tree(
        &site,
        &[
            ("config.toml", ZOLA_CONFIG),
            ("sitemap.toml", SECONDS),
            ("content/own.md", "+++\n+++\n"),
        ],
    );
    let url = format!("file://{}", docs.display());
    let allow = ["-c", "protocol.file.allow=always"];
    let add = [
        &allow[..],
        &["submodule", "add", "-q", &url, "content/docs"],
    ]
    .concat();
    git(&site, &add);
    commit(&site, "2024-01-01T00:00:00Z");
    // A checkout's mtimes say nothing: make them loud so a leak would show.
    for f in ["content/docs/guide.md", "content/docs/faq.md"] {
        set_mtime(&site.join(f), 1_718_841_600); // 2024-06-20
    }

    let (got, o) = build_in(&site, &["--site", "."], &site.join("public"));
    assert_eq!(
        got,
        expect(&[
            ("/", "2024-01-01T00:00:00+00:00"),
            ("/docs/faq/", "2023-05-05T05:00:00+00:00"),
            ("/docs/guide/", "2023-06-06T06:00:00+00:00"),
            ("/own/", "2024-01-01T00:00:00+00:00"),
        ])
    );
    assert!(!stderr(&o).contains("warning"), "{}", text(&o));

    // A shallow clone of the site with a shallow submodule: the submodule's files are known to
    // git but undated, so they get neither a git date nor their mtime, and a warning says why.
    let site_url = format!("file://{}", site.display());
    let clone = d.path().join("clone");
    git(d.path(), &["clone", "-q", &site_url, "clone"]);
    let update = [
        &allow[..],
        &["submodule", "update", "-q", "--init", "--depth", "1"],
    ]
    .concat();
    git(&clone, &update);
    let (got, o) = build_in(&clone, &["--site", "."], &clone.join("public"));
    assert_eq!(got["https://example.com/docs/guide/"], "");
    assert_eq!(got["https://example.com/own/"], "2024-01-01T00:00:00+00:00");
    let err = stderr(&o);
    assert!(
        err.contains("submodule") && err.contains("shallow clone") && err.contains("--unshallow"),
        "{err}"
    );

    // Not checked out: its folder is empty, so there is nothing to date.
    let bare = d.path().join("bare");
    git(d.path(), &["clone", "-q", &site_url, "bare"]);
    let (got, _) = build_in(&bare, &["--site", "."], &bare.join("public"));
    assert!(!got.contains_key("https://example.com/docs/guide/"));
}
