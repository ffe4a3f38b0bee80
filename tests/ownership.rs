//! The set is ours, and only ours is removed (issue 24, points 3 and 4): the record of the
//! files sitemapgen wrote in the output folder, the leftovers it removes (gzip turned off,
//! fewer parts), and the sitemaps it did not write (the generator's own, a leftover), which
//! `build` names in a warning and `check` fails on, never removing them.

mod common;

use common::{run, text, write_tree};
use std::fs;
use std::path::Path;

/// Zola's own sitemap off, as the README asks.
const ZOLA: &str = "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";

fn zola_site(root: &Path, config: &str) {
    write_tree(
        root,
        &[
            ("config.toml", config),
            ("content/_index.md", "+++\ntitle = \"Home\"\n+++\n"),
            ("content/blog/_index.md", "+++\ntitle = \"Blog\"\n+++\n"),
            ("content/blog/a.md", "+++\ndate = 2024-01-01\n+++\n"),
            ("content/blog/b.md", "+++\ndate = 2024-02-01\n+++\n"),
            ("content/blog/c.md", "+++\ndate = 2024-03-01\n+++\n"),
        ],
    );
}

fn sg(site: &Path, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["--site", site.to_str().unwrap()]);
    run(site, &all)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The files in `dir` (not below it), sorted, the record of ours left out.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != ".sitemapgen-files")
        .collect();
    names.sort();
    names
}

#[test]
fn gzip_on_then_off_leaves_one_set_and_check_names_the_other() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site, ZOLA);
    let public = site.join("public");
    assert!(sg(site, &["build", "-q"]).status.success());
    assert_eq!(listing(&public), ["sitemap.xml"]);

    // gzip on: check says what build would do, then build does it.
    fs::write(site.join("sitemap.toml"), "gzip = true\n").unwrap();
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("file missing (1):\n  ") && out.contains("public/sitemap.xml.gz"),
        "{out}"
    );
    assert!(
        out.contains("file build would remove (1):\n  ") && out.contains("public/sitemap.xml\n"),
        "{out}"
    );
    let o = sg(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(listing(&public), ["sitemap.xml.gz"]);
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // And off again.
    fs::write(site.join("sitemap.toml"), "gzip = false\n").unwrap();
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stdout(&o).contains("public/sitemap.xml.gz\n"),
        "{}",
        text(&o)
    );
    assert!(sg(site, &["build", "-q"]).status.success());
    assert_eq!(listing(&public), ["sitemap.xml"]);
    assert_eq!(sg(site, &["check"]).status.code(), Some(0));
}

#[test]
fn fewer_parts_than_last_time_are_named_then_removed() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site, ZOLA);
    let public = site.join("public");
    fs::write(site.join("sitemap.toml"), "max_urls_per_file = 2\n").unwrap();
    assert!(sg(site, &["build", "-q"]).status.success());
    assert_eq!(
        listing(&public),
        [
            "sitemap.xml",
            "sitemap1.xml",
            "sitemap2.xml",
            "sitemap3.xml"
        ]
    );
    fs::remove_file(site.join("content/blog/b.md")).unwrap();
    fs::remove_file(site.join("content/blog/c.md")).unwrap();
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stdout(&o).contains("file build would remove (1):\n  ")
            && stdout(&o).contains("public/sitemap3.xml\n"),
        "{}",
        text(&o)
    );
    let o = sg(site, &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        listing(&public),
        ["sitemap.xml", "sitemap1.xml", "sitemap2.xml"]
    );
    assert!(stderr(&o).contains("removed "), "{}", text(&o));
    assert_eq!(sg(site, &["check"]).status.code(), Some(0));
}

#[test]
fn a_sitemap_we_did_not_write_is_named_never_removed_and_fails_check() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site, ZOLA);
    let public = site.join("public");
    assert!(sg(site, &["build", "-q"]).status.success());
    // What Hugo's own sitemap leaves in a language folder, another tool's news sitemap
    // named in robots.txt, and a file that merely has the name.
    let theirs = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <url><loc>https://example.com/en/old/</loc></url>\n</urlset>\n";
    write_tree(
        &public,
        &[
            ("en/sitemap.xml", theirs),
            ("feeds/news.xml", theirs),
            (
                "robots.txt",
                "User-agent: *\nSitemap: https://example.com/feeds/news.xml\n",
            ),
            ("sitemap-notes.xml", "not a sitemap\n"),
        ],
    );
    let o = sg(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let err = stderr(&o);
    for f in ["public/en/sitemap.xml", "public/feeds/news.xml"] {
        let line = err
            .lines()
            .find(|l| l.contains(f))
            .unwrap_or_else(|| panic!("no warning names {f}:\n{err}"));
        assert!(
            line.starts_with("warning: ")
                && line.contains("a sitemap sitemapgen did not write")
                && line.contains("delete it"),
            "{line}"
        );
    }
    assert!(!err.contains("sitemap-notes.xml"), "{err}");
    for f in ["en/sitemap.xml", "feeds/news.xml"] {
        assert_eq!(fs::read_to_string(public.join(f)).unwrap(), theirs, "{f}");
    }
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("sitemaps sitemapgen did not write (2):")
            && out.contains("public/en/sitemap.xml")
            && out.contains("public/feeds/news.xml")
            && out.contains("delete the sitemaps sitemapgen did not write"),
        "{out}"
    );
    assert!(!out.contains("stale"), "{out}");
    // The JSON report lists them too.
    let o = sg(site, &["check", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["clean"], false);
    assert_eq!(
        j["foreign"],
        serde_json::json!(["en/sitemap.xml", "feeds/news.xml"])
    );
    // Deleted, as the warning says: clean.
    fs::remove_file(public.join("en/sitemap.xml")).unwrap();
    fs::remove_file(public.join("feeds/news.xml")).unwrap();
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn the_generators_own_sitemap_is_said_once_and_named_when_it_wrote_over_ours() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    // Zola's own sitemap on (its default).
    zola_site(site, "base_url = \"https://example.com\"\ntitle = \"t\"\n");
    let public = site.join("public");
    let o = sg(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("config.toml: Zola's own sitemap is on")
            && warnings[0].contains("public/sitemap.xml over sitemapgen's")
            && warnings[0].contains("generate_sitemap = false"),
        "{}",
        warnings[0]
    );
    // `zola build` again, after us: its sitemap.xml replaces ours.
    let zolas = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n    <url>\n        <loc>https://example.com/</loc>\n    </url>\n</urlset>\n";
    fs::write(public.join("sitemap.xml"), zolas).unwrap();
    let o = sg(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("file another tool wrote over since sitemapgen wrote it (1):")
            && out.contains("Zola's own sitemap is on and ran after sitemapgen")
            && out.contains("generate_sitemap = false"),
        "{out}"
    );
    // Not the URLs of Zola's file against ours, which would hide the cause.
    assert!(!out.contains("URLs added"), "{out}");
    // The next build writes ours again: clean (the warning stays while Zola's is on).
    assert!(sg(site, &["build", "-q"]).status.success());
    assert_eq!(sg(site, &["check"]).status.code(), Some(0));
}

#[test]
fn a_file_of_ours_that_changed_since_is_not_removed() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site, ZOLA);
    let public = site.join("public");
    fs::write(site.join("sitemap.toml"), "sitemap_txt = true\n").unwrap();
    assert!(sg(site, &["build", "-q"]).status.success());
    fs::write(public.join("sitemap.txt"), "https://example.com/mine/\n").unwrap();
    fs::write(site.join("sitemap.toml"), "sitemap_txt = false\n").unwrap();
    let o = sg(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        fs::read_to_string(public.join("sitemap.txt")).unwrap(),
        "https://example.com/mine/\n"
    );
}
