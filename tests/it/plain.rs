//! The plain style, for sites that follow neither generator: a file's path is its URL, with
//! `index` files as folders, `.html` files under their own name, and `trailing_slash`.

use crate::common;

use common::{run, text, url_locs, write_tree};
use std::collections::BTreeSet;

/// Builds a plain site with `sitemap.toml` text and returns its URLs (decoded), or the failure.
fn build(toml: &str, files: &[(&str, &str)]) -> Result<BTreeSet<String>, String> {
    let d = tempfile::tempdir().unwrap();
    let mut all = vec![("sitemap.toml", toml)];
    all.extend_from_slice(files);
    write_tree(d.path(), &all);
    let o = run(d.path(), &["build", "--quiet"]);
    if !o.status.success() {
        return Err(text(&o));
    }
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    Ok(url_locs(&xml))
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter()
        .map(|s| format!("https://example.org{s}"))
        .collect()
}

const FILES: [(&str, &str); 7] = [
    ("content/index.md", "# Home\n"),
    ("content/about.md", "# About\n"),
    ("content/docs/index.markdown", "# Docs\n"),
    ("content/docs/install guide.md", "# Install\n"),
    ("content/legacy/page.html", "<p>old</p>\n"),
    ("content/legacy/index.html", "<p>list</p>\n"),
    ("content/.drafts/secret.md", "# hidden folder\n"),
];

#[test]
fn paths_map_to_urls_with_index_files_as_folders_and_html_kept() {
    let got = build(
        "base_url = \"https://example.org\"\nstyle = \"plain\"\n",
        &FILES,
    )
    .unwrap();
    assert_eq!(
        got,
        set(&[
            "/",
            "/about/",
            "/docs/",
            "/docs/install guide/",
            "/legacy/",
            "/legacy/page.html",
        ])
    );
}

#[test]
fn trailing_slash_false_drops_it_and_true_never_touches_html() {
    let got = build(
        "base_url = \"https://example.org\"\nstyle = \"plain\"\ntrailing_slash = false\n",
        &FILES,
    )
    .unwrap();
    assert_eq!(
        got,
        set(&[
            "/",
            "/about",
            "/docs",
            "/docs/install guide",
            "/legacy",
            "/legacy/page.html",
        ])
    );
    let got = build(
        "base_url = \"https://example.org\"\nstyle = \"plain\"\ntrailing_slash = true\n",
        &FILES,
    )
    .unwrap();
    assert!(
        got.contains("https://example.org/legacy/page.html"),
        "{got:?}"
    );
    assert!(got.contains("https://example.org/about/"), "{got:?}");
}

#[test]
fn slug_and_url_front_matter_and_collisions() {
    let got = build(
        "base_url = \"https://example.org/sub/\"\nstyle = \"plain\"\n",
        &[
            ("content/a.md", "---\nslug: renamed\n---\n"),
            ("content/b/c.md", "---\nurl: /elsewhere/page/\n---\n"),
            ("content/d.md", "---\ndraft: true\n---\n"),
        ],
    )
    .unwrap();
    let want: BTreeSet<String> = ["/", "/renamed/", "/elsewhere/page/"]
        .iter()
        .map(|s| format!("https://example.org/sub{s}"))
        .collect();
    assert_eq!(got, want);
    // `x/index.md` and `x.md` both publish at `/x/`: listed once, with a warning naming both.
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "sitemap.toml",
                "base_url = \"https://example.org\"\nstyle = \"plain\"\n",
            ),
            ("content/x/index.md", "# x\n"),
            ("content/x.md", "# x too\n"),
        ],
    );
    let o = run(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert_eq!(url_locs(&xml), set(&["/", "/x/"]));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "warning: ./content/x/index.md: publishes at /x/ like ./content/x.md: listed once, for ./content/x.md;"
        ),
        "{}",
        text(&o)
    );
}
