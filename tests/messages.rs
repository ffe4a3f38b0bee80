//! Messages that guide (issue 28): each test shows the text a user now reads. Reasons named
//! as the user wrote them, `list --excluded` with the URL wherever it is known, `--header`,
//! "did you mean" for unknown keys, type errors with an example, and "no site here".

mod common;

use common::write_tree;
use std::path::Path;
use std::process::{Command, Output};

fn sitemapgen(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("HUGO_VERSION")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A Hugo site whose pages leave themselves out in the ways front matter can.
fn hugo_site(root: &Path) {
    write_tree(
        root,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
            ),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            (
                "content/kept.md",
                "---\ntitle: Kept\ndate: 2024-01-02\n---\n",
            ),
            (
                "content/hidden.md",
                "---\ntitle: Hidden\nnoindex: true\n---\n",
            ),
            (
                "content/off.md",
                "---\ntitle: Off\nsitemap:\n  disable: true\n---\n",
            ),
            (
                "content/both.md",
                "---\nsitemap: false\nnoindex: true\n---\n",
            ),
            ("content/draft.md", "---\ntitle: Draft\ndraft: true\n---\n"),
            (
                "content/private/_index.md",
                "---\ntitle: Private\ncascade:\n  noindex: true\n---\n",
            ),
            ("content/private/note.md", "---\ntitle: Note\n---\n"),
        ],
    );
}

#[test]
fn noindex_is_reported_as_noindex_and_every_known_url_is_listed() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path());
    let o = sitemapgen(d.path(), &["--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .trim_end()
            .ends_with("; 1 draft, 2 pages with sitemap = false and 3 noindex pages left out"),
        "{}",
        stderr(&o)
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--excluded",
            "--header",
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A draft has no URL (Hugo makes no page for it); every other page has one. `noindex`
    // alone is `noindex`, also when a cascade says it; a `sitemap` key is `sitemap-off`.
    assert_eq!(
        stdout(&o),
        "file\treason\turl\ttarget\n\
         ./content/both.md\tsitemap-off\thttps://example.org/both/\t-\n\
         ./content/draft.md\tdraft\t-\t-\n\
         ./content/hidden.md\tnoindex\thttps://example.org/hidden/\t-\n\
         ./content/off.md\tsitemap-off\thttps://example.org/off/\t-\n\
         ./content/private/_index.md\tnoindex\thttps://example.org/private/\t-\n\
         ./content/private/note.md\tnoindex\thttps://example.org/private/note/\t-\n"
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--excluded",
            "--format",
            "jsonl",
            "--hugo-version",
            "0.168.0",
        ],
    );
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(
        lines[..3],
        [
            "{\"file\":\"./content/both.md\",\"reason\":\"sitemap-off\",\"url\":\"https://example.org/both/\"}",
            "{\"file\":\"./content/draft.md\",\"reason\":\"draft\"}",
            "{\"file\":\"./content/hidden.md\",\"reason\":\"noindex\",\"url\":\"https://example.org/hidden/\"}",
        ]
    );
}

#[test]
fn list_prints_a_header_naming_its_columns_when_asked() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path());
    let o = sitemapgen(d.path(), &["list", "--header", "--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("loc\tlastmod\tlastmod_source\tchangefreq\tpriority\tfile\tlastmod_commit")
    );
    assert_eq!(
        lines.next(),
        Some("https://example.org/\t2024-01-02\trollup\t-\t-\t./content/_index.md\t-")
    );
    // Without --header, the rows alone, as scripts read them.
    let o = sitemapgen(d.path(), &["list", "--hugo-version", "0.168.0"]);
    assert!(
        stdout(&o).starts_with("https://example.org/\t"),
        "{}",
        stdout(&o)
    );
    // --unsourced names its three columns too.
    write_tree(
        d.path(),
        &[
            ("public/index.html", "<html><head></head></html>"),
            ("public/search/index.html", "<html><head></head></html>"),
        ],
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--unsourced",
            "--header",
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().take(2).collect::<Vec<_>>(),
        [
            "loc\tlastmod\tfile",
            &format!(
                "https://example.org/search/\t-\t{}",
                Path::new(".").join("public/search/index.html").display()
            ),
        ]
    );
}
