//! `sitemapgen diff`: the exact sets between two sitemaps (files, `.gz`, indexes followed to
//! their parts, URLs served by a local server on 127.0.0.1), its three formats, exit codes
//! and bounds.

use crate::common;

use common::http::{Response, Server};
use common::{run, text, write_tree};
use serde_json::Value;
use std::path::Path;

const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// A plain site of three pages with dates in their front matter, split one URL a file (an
/// index and its parts).
fn site(root: &Path) {
    write_tree(
        root,
        &[
            (
                "sitemap.toml",
                "base_url = \"https://example.com/\"\nstyle = \"plain\"\nmax_urls_per_file = 1\naudit = false\n",
            ),
            ("content/a.md", "---\nlastmod: 2024-01-01\n---\n"),
            ("content/b.md", "---\nlastmod: 2024-01-01\n---\n"),
            ("content/c.md", "---\nlastmod: 2024-01-01\n---\n"),
        ],
    );
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(o)))
}

fn urls(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_built_index_against_what_build_would_write_now() {
    let d = tempfile::tempdir().unwrap();
    site(d.path());
    let o = run(d.path(), &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let old = d.path().join("old");
    std::fs::rename(d.path().join("public"), &old).unwrap();
    let index = old.join("sitemap.xml");
    assert!(
        std::fs::read_to_string(&index)
            .unwrap()
            .contains("<sitemapindex")
    );

    // Nothing changed yet.
    let o = run(d.path(), &["diff", index.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(o.stdout.is_empty(), "{}", text(&o));

    // One page added, one removed, one re-dated, one whose date is the same day written
    // with a time.
    std::fs::remove_file(d.path().join("content/c.md")).unwrap();
    write_tree(
        d.path(),
        &[
            (
                "content/a.md",
                "---\nlastmod: 2024-01-01T12:00:00+02:00\n---\n",
            ),
            ("content/b.md", "---\nlastmod: 2024-02-02\n---\n"),
            ("content/d.md", "---\nlastmod: 2024-01-01\n---\n"),
        ],
    );
    let o = run(
        d.path(),
        &["diff", index.to_str().unwrap(), "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json(&o);
    assert_eq!(urls(&v, "added"), ["https://example.com/d/"]);
    assert_eq!(urls(&v, "removed"), ["https://example.com/c/"]);
    // The home page takes the newest date below it.
    assert_eq!(
        urls(&v, "moved"),
        ["https://example.com/", "https://example.com/b/"]
    );
    assert_eq!(v["lastmods"]["https://example.com/b/"]["old"], "2024-01-01");
    assert_eq!(v["lastmods"]["https://example.com/b/"]["new"], "2024-02-02");
    assert_eq!(
        (v["old_urls"].as_u64(), v["new_urls"].as_u64()),
        (Some(4), Some(4))
    );

    let o = run(d.path(), &["diff", index.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "+ https://example.com/d/\n- https://example.com/c/\n~ https://example.com/ 2024-01-01 -> 2024-02-02\n~ https://example.com/b/ 2024-01-01 -> 2024-02-02\n"
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("1 added, 1 removed, 2 lastmod moved"),
        "{}",
        text(&o)
    );

    // Built again, the new set on disk says the same as what build would write.
    let o = run(d.path(), &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let new = d.path().join("public/sitemap.xml");
    let o = run(
        d.path(),
        &[
            "diff",
            index.to_str().unwrap(),
            new.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(urls(&json(&o), "added"), ["https://example.com/d/"]);
    assert_eq!(
        urls(&json(&o), "moved"),
        ["https://example.com/", "https://example.com/b/"]
    );
}

#[test]
fn markdown_for_a_job_summary() {
    let d = tempfile::tempdir().unwrap();
    let old = d.path().join("old.xml");
    let new = d.path().join("new.xml");
    let set = |urls: &[(&str, &str)]| {
        let mut s =
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{NS}\">\n");
        for (u, l) in urls {
            s += &format!("<url><loc>{u}</loc><lastmod>{l}</lastmod></url>\n");
        }
        s + "</urlset>\n"
    };
    std::fs::write(
        &old,
        set(&[
            ("https://e.com/a", "2024-01-01"),
            ("https://e.com/b", "2024-01-01"),
        ]),
    )
    .unwrap();
    std::fs::write(
        &new,
        set(&[
            ("https://e.com/b", "2024-03-01"),
            ("https://e.com/c", "2024-01-01"),
        ]),
    )
    .unwrap();
    let o = run(
        d.path(),
        &["diff", "old.xml", "new.xml", "--format", "markdown"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "### Sitemap changes\n\n\
         `old.xml` → `new.xml`: **1 added**, **1 removed**, **1 lastmod moved** (2 URLs before, 2 now).\n\
         \n#### Added (1)\n\n- <https://e.com/c>\n\
         \n#### Removed (1)\n\n- <https://e.com/a>\n\
         \n#### lastmod moved (1)\n\n| URL | was | now |\n|---|---|---|\n| <https://e.com/b> | 2024-01-01 | 2024-03-01 |\n"
    );
    // Markdown is diff's alone.
    let o = run(d.path(), &["list", "--format", "markdown"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

fn gzip(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap()
}

#[test]
fn a_deployed_index_is_fetched_with_its_gzip_parts() {
    // The index names one part by its absolute URL (the server's own, known once it runs)
    // and one by a path.
    let own = std::sync::Arc::new(std::sync::OnceLock::<String>::new());
    let base = own.clone();
    let body = gzip(&format!(
        "<urlset xmlns=\"{NS}\"><url><loc>https://e.com/en/</loc><lastmod>2024-01-01</lastmod></url></urlset>"
    ));
    let server = Server::start(move |req| match req.path.as_str() {
        "/sitemap.xml" => Response::new(
            200,
            format!(
                "<sitemapindex xmlns=\"{NS}\"><sitemap><loc>{}/en/sitemap.xml.gz</loc></sitemap>\
                 <sitemap><loc>/fr/sitemap.xml</loc></sitemap></sitemapindex>",
                base.get().unwrap()
            ),
        ),
        "/en/sitemap.xml.gz" => Response::new(200, body.clone()),
        "/fr/sitemap.xml" => Response::new(
            200,
            format!("<urlset xmlns=\"{NS}\"><url><loc>https://e.com/fr/</loc></url></urlset>"),
        ),
        _ => Response::new(404, "not here"),
    });
    own.set(server.base.clone()).unwrap();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("new.xml"),
        format!("<urlset xmlns=\"{NS}\"><url><loc>https://e.com/en/</loc><lastmod>2024-05-01</lastmod></url><url><loc>https://e.com/de/</loc></url></urlset>"),
    )
    .unwrap();
    let index = format!("{}/sitemap.xml", server.base);
    let o = run(d.path(), &["diff", &index, "new.xml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json(&o);
    assert_eq!(urls(&v, "added"), ["https://e.com/de/"]);
    assert_eq!(urls(&v, "removed"), ["https://e.com/fr/"]);
    assert_eq!(urls(&v, "moved"), ["https://e.com/en/"]);
    let got: Vec<(String, String)> = server
        .requests()
        .into_iter()
        .map(|r| (r.method, r.path))
        .collect();
    let want = ["/sitemap.xml", "/en/sitemap.xml.gz", "/fr/sitemap.xml"];
    assert_eq!(got, want.map(|p| ("GET".to_string(), p.to_string())));
}

#[test]
fn a_missing_or_endless_set_is_a_clear_error() {
    let server = Server::start(|req| {
        // Every index lists a next one, without end.
        let n: u64 = req.path.trim_start_matches("/i/").parse().unwrap_or(0);
        if req.path == "/gone.xml" {
            return Response::new(404, "");
        }
        Response::new(
            200,
            format!(
                "<sitemapindex xmlns=\"{NS}\"><sitemap><loc>/i/{}</loc></sitemap></sitemapindex>",
                n + 1
            ),
        )
    });
    let d = tempfile::tempdir().unwrap();
    let gone = format!("{}/gone.xml", server.base);
    let o = run(d.path(), &["diff", &gone, &gone]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!("{gone}: HTTP 404 (Not Found)")),
        "{}",
        text(&o)
    );
    let start = format!("{}/i/0", server.base);
    let o = run(d.path(), &["diff", &start, &start]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("more than 1000 sitemap files; reading stopped there"),
        "{}",
        text(&o)
    );
    assert_eq!(server.requests().len(), 1001);
    let o = run(d.path(), &["diff", "nowhere.xml", "nowhere.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("nowhere.xml"),
        "{}",
        text(&o)
    );
}

#[test]
fn indexes_that_lead_only_back_to_themselves_are_an_error_not_an_empty_set() {
    let d = tempfile::tempdir().unwrap();
    let index = |part: &str| {
        format!("<sitemapindex xmlns=\"{NS}\"><sitemap><loc>{part}</loc></sitemap></sitemapindex>")
    };
    write_tree(
        d.path(),
        &[
            (
                "old.xml",
                &format!(
                    "<urlset xmlns=\"{NS}\"><url><loc>https://example.com/a/</loc></url></urlset>"
                ),
            ),
            ("new/i1.xml", &index("https://example.com/i2.xml")),
            ("new/i2.xml", &index("https://example.com/i1.xml")),
            ("new/self.xml", &index("https://example.com/self.xml")),
        ],
    );
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let o = run(d.path(), &["diff", "old.xml", "new/i1.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(o.stdout.is_empty(), "no verdict: {}", text(&o));
    assert!(
        stderr(&o).contains("new/i1.xml lists new/i2.xml, which lists new/i1.xml: "),
        "{}",
        text(&o)
    );
    let o = run(d.path(), &["diff", "old.xml", "new/self.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("new/self.xml lists itself: ") && !stderr(&o).contains("not on disk"),
        "{}",
        text(&o)
    );

    // The same served: an index listing itself, and two listing each other.
    let server = Server::start(move |req| match req.path.as_str() {
        "/self.xml" => Response::new(200, index("/self.xml")),
        "/i1.xml" => Response::new(200, index("/i2.xml")),
        "/i2.xml" => Response::new(200, index("/i1.xml")),
        _ => Response::new(404, "not here"),
    });
    let url = |p: &str| format!("{}{p}", server.base);
    let o = run(d.path(), &["diff", "old.xml", &url("/self.xml")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains(&format!("{} lists itself: ", url("/self.xml"))),
        "{}",
        text(&o)
    );
    let o = run(
        d.path(),
        &["diff", &url("/i1.xml"), "old.xml", "--format", "markdown"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{} lists {}, which lists {}: ",
            url("/i1.xml"),
            url("/i2.xml"),
            url("/i1.xml")
        )),
        "{}",
        text(&o)
    );
}
