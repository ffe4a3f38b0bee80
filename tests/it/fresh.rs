//! The audit judges only a fresh build (issue 24, point 2): a page is left out for what the
//! output shows only when that output is at least as new as the page's source; a stale or
//! half-built output keeps every page listed, with one warning (an error with
//! `audit = "strict"`); `check` is never clean while a content page is missing; and a
//! committed sitemap never depends on untracked build output, so the working copy and a
//! fresh clone give the same answer.

use crate::common;
use crate::common::{run_site, stderr, stdout};

use common::gitrepo::Repo;
use common::{TEST_MTIME_SECS, text, write_tree};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

const CONFIG: &str =
    "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";
const PAGE: &str = "<!DOCTYPE html>\n<html><head><title>t</title></head><body>x</body></html>\n";
const NOINDEX: &str = "<!DOCTYPE html>\n<html><head><meta name=\"robots\" content=\"noindex\"></head><body>x</body></html>\n";

fn locs(site: &Path) -> Vec<String> {
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    common::url_locs(&xml).into_iter().collect()
}

/// Sets a file's modification time to `secs` after the test epoch (2020-01-01).
fn age(path: &Path, secs: u64) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(UNIX_EPOCH + Duration::from_secs(TEST_MTIME_SECS + secs))
        .unwrap();
}

/// A Zola blog of `n` posts, all built into public/ (the build an hour after the sources).
fn built_blog(site: &Path, n: usize) {
    let mut files: Vec<(String, String)> = vec![
        ("config.toml".into(), CONFIG.into()),
        ("content/_index.md".into(), "+++\n+++\n".into()),
        ("content/blog/_index.md".into(), "+++\n+++\n".into()),
        ("public/index.html".into(), PAGE.into()),
        ("public/blog/index.html".into(), PAGE.into()),
    ];
    for i in 0..n {
        files.push((
            format!("content/blog/p{i:02}.md"),
            format!("+++\ndate = 2024-01-{:02}\n+++\n", i % 28 + 1),
        ));
        files.push((format!("public/blog/p{i:02}/index.html"), PAGE.into()));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    write_tree(site, &refs);
    for (path, _) in &files {
        if path.starts_with("public/") {
            age(&site.join(path), 3600);
        }
    }
}

#[test]
fn a_page_written_after_the_build_stays_listed_and_check_says_so() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    built_blog(site, 4);
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(locs(site).len(), 6);
    assert!(!stderr(&o).contains("warning"), "{}", text(&o));

    // A new page, after the build: the output knows nothing of it yet.
    write_tree(
        site,
        &[("content/blog/new.md", "+++\ndate = 2024-03-01\n+++\n")],
    );
    age(&site.join("content/blog/new.md"), 7200);
    let o = run_site(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stdout(&o).contains("URL added (1):\n  https://example.com/blog/new/\n"),
        "{}",
        text(&o)
    );
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(locs(site).contains(&"https://example.com/blog/new/".to_string()));
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("public is older than")
            && warnings[0].contains("content/blog/new.md")
            && warnings[0].contains("1 page out on its word, they stay listed")
            && warnings[0].contains("build the site first (`zola build`)")
            && warnings[0].contains("--no-audit"),
        "{}",
        warnings[0]
    );
    assert!(!err.contains("not-built"), "{err}");
    // The JSON report counts it.
    let o = run_site(site, &["build", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["audit_kept"].as_u64(), j["audit_total"].as_u64()),
        (Some(1), Some(0))
    );

    // Strict: the stale output is an error, and nothing is written.
    write_tree(site, &[("sitemap.toml", "audit = \"strict\"\n")]);
    let before = std::fs::read(site.join("public/sitemap.xml")).unwrap();
    let o = run_site(site, &["build"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("public is older than") && stderr(&o).contains("(audit = \"strict\")"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read(site.join("public/sitemap.xml")).unwrap(),
        before
    );

    // Built: judged again, and the page is there.
    write_tree(site, &[("public/blog/new/index.html", PAGE)]);
    age(&site.join("public/blog/new/index.html"), 9000);
    age(&site.join("public/index.html"), 9000);
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!stderr(&o).contains("warning"), "{}", text(&o));
}

#[test]
fn a_page_not_built_by_a_fresh_build_is_left_out_and_check_fails() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    built_blog(site, 8);
    // Not built, though its source is older than the build: left out, by name.
    write_tree(
        site,
        &[("content/blog/skipped.md", "+++\ndate = 2024-03-01\n+++\n")],
    );
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!locs(site).contains(&"https://example.com/blog/skipped/".to_string()));
    assert!(stderr(&o).contains("left out (not-built)"), "{}", text(&o));
    let o = run_site(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(!stderr(&o).contains("up to date"), "{}", text(&o));
    assert!(
        stdout(&o).contains(
            "content page missing from the sitemap: the built site has no file for it (1):"
        ) && stdout(&o).contains("content/blog/skipped.md"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_half_built_output_drops_nothing() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    built_blog(site, 15);
    // Only the home page and one post left of the build.
    std::fs::remove_dir_all(site.join("public/blog")).unwrap();
    write_tree(site, &[("public/blog/p00/index.html", PAGE)]);
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(locs(site).len(), 17, "{}", text(&o));
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("public serves no file for 15 of the 17 URLs")
            && warnings[0].contains("stale or half-built output: they stay listed")
            && warnings[0].contains("--no-audit"),
        "{}",
        warnings[0]
    );
    write_tree(site, &[("sitemap.toml", "audit = \"strict\"\n")]);
    let o = run_site(site, &["build"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn a_head_older_than_its_source_is_not_believed() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    built_blog(site, 4);
    write_tree(site, &[("public/blog/p01/index.html", NOINDEX)]);
    age(&site.join("public/blog/p01/index.html"), 3600);
    let o = run_site(site, &["build"]);
    assert!(
        !locs(site).contains(&"https://example.com/blog/p01/".to_string()),
        "{}",
        text(&o)
    );
    // The page was edited since (its noindex may be gone): listed until it is built again.
    age(&site.join("content/blog/p01.md"), 5000);
    let o = run_site(site, &["build"]);
    assert!(
        locs(site).contains(&"https://example.com/blog/p01/".to_string()),
        "{}",
        text(&o)
    );
    assert!(stderr(&o).contains("public is older than"), "{}", text(&o));
}

/// The pre-commit flow with the sitemap committed and the built pages ignored: the hook's
/// build must not drop what the local, untracked `public/` lacks, or a fresh clone's `check`
/// (which has no `public/` pages) disagrees.
#[test]
fn a_committed_sitemap_never_depends_on_untracked_pages() {
    let r = Repo::new();
    let site = r.root.as_path();
    built_blog(site, 3);
    r.write("sitemap.toml", "lastmod = [\"published\"]\n");
    r.write(".gitignore", "/public/*\n!/public/sitemap.xml\n");
    // A page the local output lacks.
    write_tree(
        site,
        &[(
            "content/blog/local-only.md",
            "+++\ndate = 2024-03-01\n+++\n",
        )],
    );
    assert!(run_site(site, &["build", "-q"]).status.success());
    r.commit("2024-03-02T00:00:00Z");
    // The hook's first run: no sitemap committed yet, so the audit ran and dropped the page.
    let listed = locs(site);
    assert!(!listed.contains(&"https://example.com/blog/local-only/".to_string()));
    // From now on the sitemap is committed: the audit stays off, the page is listed.
    let o = run_site(site, &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains("the audit of the built output is off")
            && stderr(&o).contains(
                "public/sitemap.xml is committed to git but the built pages beside it are not"
            ),
        "{}",
        text(&o)
    );
    assert!(locs(site).contains(&"https://example.com/blog/local-only/".to_string()));
    r.commit("2024-03-03T00:00:00Z");
    assert_eq!(run_site(site, &["check"]).status.code(), Some(0));

    // A fresh clone gives the same answer.
    let clone = tempfile::tempdir().unwrap();
    let dest = clone.path().join("c");
    let o = Repo::command(clone.path())
        .args([
            "clone",
            "-q",
            site.to_str().unwrap(),
            dest.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let o = run_site(&dest, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // `audit = true` audits all the same.
    write_tree(
        site,
        &[("sitemap.toml", "lastmod = [\"published\"]\naudit = true\n")],
    );
    assert!(run_site(site, &["build", "-q"]).status.success());
    assert!(!locs(site).contains(&"https://example.com/blog/local-only/".to_string()));
}

/// A site served from its repository, output committed: a fresh clone gives every file the
/// checkout's time, so the commits decide. A page committed after the output's last build
/// stays listed in the working copy and in a clone alike.
#[test]
fn a_committed_output_is_judged_by_its_commits() {
    let r = Repo::new();
    let site = r.root.as_path();
    built_blog(site, 3);
    // Dates from the pages: the commits' own dates are not what this test is about.
    r.write("sitemap.toml", "lastmod = [\"published\"]\n");
    assert!(run_site(site, &["build", "-q"]).status.success());
    r.commit("2024-01-01T00:00:00Z");
    // A new page, committed without building the site (the hook runs sitemapgen only).
    r.write("content/blog/later.md", "+++\ndate = 2024-02-01\n+++\n");
    let o = run_site(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        locs(site).contains(&"https://example.com/blog/later/".to_string()),
        "{}",
        text(&o)
    );
    r.commit("2024-02-02T00:00:00Z");
    let o = run_site(site, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let clone = tempfile::tempdir().unwrap();
    let dest = clone.path().join("c");
    let o = Repo::command(clone.path())
        .args([
            "clone",
            "-q",
            site.to_str().unwrap(),
            dest.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let o = run_site(&dest, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stderr(&o).contains("c/public is older than"),
        "{}",
        text(&o)
    );
}
