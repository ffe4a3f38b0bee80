//! The audit of the built output (issue 16): Zola- and Hugo-style sites with an output
//! folder made here, every reason a URL is left out, the head-only rule, ugly and extension
//! URLs, a base URL with a path, unsourced pages and strict mode.

use crate::common;
use crate::common::{run_site, stderr, stdout};

use common::{text, validate_with_xsd, write_tree};
use std::path::Path;

/// A page as a theme writes it: `head` goes inside `<head>`, `body` inside `<body>`.
fn page(head: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>t</title>\n{head}\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
}

fn canonical(url: &str) -> String {
    page(
        &format!("<link rel=\"canonical\" href=\"{url}\">"),
        "<p>text</p>",
    )
}

const NOINDEX: &str = "<meta name=\"robots\" content=\"follow, NOINDEX\">";

/// A Zola blog and its `public/` as `zola build` would leave it, with one page per reason.
fn zola_site(root: &Path, sitemap_toml: &str) {
    let home = canonical("https://example.com/");
    let about = canonical("https://example.com/about/");
    let blog = page("", "<ul><li>posts</li></ul>");
    let noindex = page(NOINDEX, "<p>hidden</p>");
    let elsewhere = canonical("https://example.com/about/");
    let late = page(
        "<!-- <meta name=\"robots\" content=\"noindex\"> -->\n<script>let s = '<meta name=\"robots\" content=\"noindex\">';</script>",
        "<meta name=\"robots\" content=\"noindex\"><p>noindex in the body is no noindex</p>",
    );
    let redirect = page(
        "<meta http-equiv=\"refresh\" content=\"0; url=https://example.com/blog/d/\">",
        "",
    );
    let search = page("", "<form></form>");
    let mut files = vec![
        (
            "config.toml",
            "base_url = \"https://example.com\"\ntitle = \"t\"\n",
        ),
        ("content/_index.md", "+++\n+++\n"),
        ("content/about.md", "+++\ndate = 2024-01-02\n+++\n"),
        ("content/blog/_index.md", "+++\n+++\n"),
        ("content/blog/a.md", "+++\ndate = 2024-02-01\n+++\n"),
        ("content/blog/b.md", "+++\ndate = 2024-02-02\n+++\n"),
        ("content/blog/c.md", "+++\ndate = 2024-02-03\n+++\n"),
        ("content/blog/d.md", "+++\ndate = 2024-02-04\n+++\n"),
        ("content/blog/e.md", "+++\ndate = 2024-02-05\n+++\n"),
        (
            "content/blog/f.md",
            "+++\ndate = 2024-02-06\n[extra]\nsitemap = false\n+++\n",
        ),
        ("public/index.html", &home),
        ("public/about/index.html", &about),
        ("public/blog/index.html", &blog),
        ("public/blog/a/index.html", &noindex),
        // b was never built.
        ("public/blog/c/index.html", &elsewhere),
        ("public/blog/d/index.html", &late),
        ("public/blog/e/index.html", &redirect),
        ("public/blog/f/index.html", &blog),
        // Zola's redirect stub for an alias, its 404 page, a pager and a template's page.
        ("public/old-e/index.html", &redirect),
        ("public/404.html", &blog),
        ("public/blog/page/2/index.html", &blog),
        ("public/search/index.html", &search),
        ("public/hidden/index.html", &noindex),
        ("public/style.css", "p {}"),
    ];
    if !sitemap_toml.is_empty() {
        files.push(("sitemap.toml", sitemap_toml));
    }
    write_tree(root, &files);
}

#[test]
fn zola_every_reason_and_the_head_only_rule() {
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path(), "");
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-02-06</lastmod>
  </url>
  <url>
    <loc>https://example.com/about/</loc>
    <lastmod>2024-01-02</lastmod>
  </url>
  <url>
    <loc>https://example.com/blog/</loc>
    <lastmod>2024-02-06</lastmod>
  </url>
  <url>
    <loc>https://example.com/blog/d/</loc>
    <lastmod>2024-02-04</lastmod>
  </url>
</urlset>
"#
    );
    validate_with_xsd(&[d.path().join("public/sitemap.xml")]);
    let err = stderr(&o);
    // Only the URL nobody meant to leave out gets a warning, naming its source file.
    assert!(
        err.contains(&format!(
            "warning: {}: left out (not-built): no file in the output folder serves https://example.com/blog/b/\n",
            d.path().join("content/blog/b.md").display()
        )),
        "{err}"
    );
    assert!(!err.contains("blog/a.md"), "{err}");
    assert!(
        err.trim_end().ends_with("; 1 page with sitemap = false left out; the audit left out 4 URLs (1 redirecting, 1 not built, 1 noindex, 1 canonical elsewhere)"),
        "{err}"
    );

    let o = run_site(d.path(), &["list", "--excluded"]);
    let c = |rel: &str| d.path().join("content").join(rel).display().to_string();
    assert_eq!(
        stdout(&o),
        format!(
            "{}\tnoindex\thttps://example.com/blog/a/\t-\t-\n\
             {}\tnot-built\thttps://example.com/blog/b/\t-\t-\n\
             {}\tcanonical\thttps://example.com/blog/c/\thttps://example.com/about/\t-\n\
             {}\tredirect\thttps://example.com/blog/e/\thttps://example.com/blog/d/\t-\n\
             {}\tsitemap-off\thttps://example.com/blog/f/\t-\t-\n",
            c("blog/a.md"),
            c("blog/b.md"),
            c("blog/c.md"),
            c("blog/e.md"),
            c("blog/f.md"),
        )
    );

    // The unsourced page: not the 404 page, the pager, the alias stub, a noindex page, the
    // sitemap-off page or the CSS.
    let o = run_site(d.path(), &["list", "--unsourced"]);
    assert_eq!(
        stdout(&o),
        format!(
            "https://example.com/search/\t2020-01-01T00:00:00+00:00\t{}\n",
            d.path().join("public/search/index.html").display()
        )
    );

    let o = run_site(d.path(), &["build", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["audit"],
        serde_json::json!({"canonical": 1, "noindex": 1, "not-built": 1, "redirect": 1})
    );
    assert_eq!(json["audit_total"], 4);
    assert_eq!(json["excluded"]["sitemap-off"], 1);
    assert_eq!(json["urls"], 4);

    // check shows the audit's reasons too. The files match what build wrote, but a content
    // page (b) is missing from the sitemap: check never calls that up to date.
    let o = run_site(d.path(), &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains("left out (canonical): https://example.com/blog/c/: its built page names https://example.com/about/ as its canonical URL"),
        "{err}"
    );
    assert!(!err.contains("up to date"), "{err}");
    assert_eq!(
        stdout(&o),
        format!(
            "content page missing from the sitemap: the built site has no file for it (1):\n  {}\nbuild the site (`zola build`) with the same drafts and future settings, then run sitemapgen; or leave these pages out at their source (sitemap = false, an exclude rule)\n",
            c("blog/b.md")
        )
    );
    // Built now (and no newer than its source): listed, and check is clean.
    write_tree(
        d.path(),
        &[("public/blog/b/index.html", &page("", "<p>b</p>"))],
    );
    assert!(run_site(d.path(), &["build", "-q"]).status.success());
    let o = run_site(d.path(), &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stderr(&o).contains("the audit left out 3 URLs"),
        "{}",
        text(&o)
    );
}

/// The sitemap.toml of the Hugo site: its rules are Hugo 0.111's, whatever `hugo` is on PATH.
const HUGO_0111: &str = "hugo_version = \"0.111.3\"\n";

/// A Hugo site with ugly URLs below a base URL with a path, built as Hugo 0.111 builds it
/// (sections as `posts.html`), with `sitemap_toml` after [`HUGO_0111`].
fn hugo_site(root: &Path, sitemap_toml: &str) {
    let page = |url: &str| canonical(&format!("https://example.org/docs/{url}"));
    let (home, posts, x, uber, tags) = (
        page(""),
        page("posts.html"),
        page("posts/x.html"),
        page("posts/%C3%BCber-uns.html"),
        page("tags.html"),
    );
    let z = super_page(NOINDEX);
    let categories = canonical("tags.html");
    let alias = super_page(
        "<link rel=\"canonical\" href=\"https://example.org/docs/posts/z.html\">\n<meta http-equiv=\"refresh\" content=\"0; url=https://example.org/docs/posts/z.html\">",
    );
    let about = super_page("");
    let mut files = vec![
        (
            "hugo.toml",
            "baseURL = \"https://example.org/docs/\"\nuglyURLs = true\ntitle = \"t\"\n",
        ),
        ("content/_index.md", "---\ntitle: home\n---\n"),
        ("content/posts/_index.md", "---\ntitle: posts\n---\n"),
        ("content/posts/x.md", "---\ndate: 2024-03-01\n---\n"),
        ("content/posts/y.md", "---\ndate: 2024-03-02\n---\n"),
        (
            "content/posts/z.md",
            "---\ndate: 2024-03-03\naliases: [\"/old-z/\"]\n---\n",
        ),
        ("content/posts/über uns.md", "---\ndate: 2024-03-04\n---\n"),
        ("public/index.html", &home),
        ("public/posts.html", &posts),
        ("public/posts/x.html", &x),
        // y was never built.
        ("public/posts/z.html", &z),
        ("public/posts/über-uns.html", &uber),
        ("public/old-z.html", &alias),
        ("public/tags.html", &tags),
        ("public/categories.html", &categories),
        ("public/about.html", &about),
    ];
    let toml = format!("{HUGO_0111}{sitemap_toml}");
    files.push(("sitemap.toml", &toml));
    write_tree(root, &files);
}

/// A page whose head holds `head` (besides charset and title).
fn super_page(head: &str) -> String {
    page(head, "<p>text</p>")
}

#[test]
fn hugo_ugly_urls_below_a_base_path() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path(), "");
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.org/docs/</loc>
    <lastmod>2024-03-04</lastmod>
  </url>
  <url>
    <loc>https://example.org/docs/posts.html</loc>
    <lastmod>2024-03-04</lastmod>
  </url>
  <url>
    <loc>https://example.org/docs/posts/%C3%BCber-uns.html</loc>
    <lastmod>2024-03-04</lastmod>
  </url>
  <url>
    <loc>https://example.org/docs/posts/x.html</loc>
    <lastmod>2024-03-01</lastmod>
  </url>
  <url>
    <loc>https://example.org/docs/tags.html</loc>
  </url>
</urlset>
"#
    );
    validate_with_xsd(&[d.path().join("public/sitemap.xml")]);
    let c = |rel: &str| d.path().join("content").join(rel).display().to_string();
    let o = run_site(d.path(), &["list", "--excluded"]);
    assert_eq!(
        stdout(&o),
        format!(
            "-\tcanonical\thttps://example.org/docs/categories.html\thttps://example.org/docs/tags.html\t-\n\
             {}\tnot-built\thttps://example.org/docs/posts/y.html\t-\t-\n\
             {}\tnoindex\thttps://example.org/docs/posts/z.html\t-\t-\n",
            c("posts/y.md"),
            c("posts/z.md"),
        )
    );
    // The alias stub redirects: only the page no content file accounts for is named, with no
    // lastmod (Hugo's lastmod order has no file times).
    let o = run_site(d.path(), &["list", "--unsourced", "--format", "jsonl"]);
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"file\":\"{}\",\"lastmod\":null,\"loc\":\"https://example.org/docs/about.html\"}}\n",
            d.path().join("public/about.html").display()
        )
    );
}

#[test]
fn strict_mode_fails_with_exit_2_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path(), "audit = \"strict\"\n");
    let o = run_site(d.path(), &["build"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!d.path().join("public/sitemap.xml").exists());
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "error: {}: no file in the output folder serves https://example.org/docs/posts/y.html (audit = \"strict\")",
            d.path().join("content/posts/y.md").display()
        )),
        "{err}"
    );
    // A generated page has no file to name: its URL stands in.
    assert!(
        err.contains("error: https://example.org/docs/categories.html: https://example.org/docs/categories.html: its built page names https://example.org/docs/tags.html as its canonical URL"),
        "{err}"
    );
    assert!(
        err.contains("error: 3 problems; nothing was written"),
        "{err}"
    );
    // check fails the same way.
    assert_eq!(run_site(d.path(), &["check"]).status.code(), Some(2));
}

#[test]
fn the_audit_is_off_without_a_built_site_or_when_asked() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path(), "");
    let count = |o: &std::process::Output| {
        assert!(o.status.success(), "{}", text(o));
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        xml.matches("<url>").count()
    };
    assert_eq!(count(&run_site(d.path(), &["build"])), 5);
    assert_eq!(count(&run_site(d.path(), &["build", "--no-audit"])), 8);
    let toml = |audit: &str| format!("{HUGO_0111}audit = {audit}\n");
    write_tree(d.path(), &[("sitemap.toml", &toml("false"))]);
    assert_eq!(count(&run_site(d.path(), &["build"])), 8);
    write_tree(d.path(), &[("sitemap.toml", &toml("true"))]);
    assert_eq!(count(&run_site(d.path(), &["build"])), 5);
    // No index.html at the output's root: no built site to audit.
    std::fs::remove_file(d.path().join("public/index.html")).unwrap();
    assert_eq!(count(&run_site(d.path(), &["build"])), 8);
    write_tree(d.path(), &[("sitemap.toml", &toml("\"lenient\""))]);
    let o = run_site(d.path(), &["build"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("sitemap.toml:2"), "{}", text(&o));
}

#[test]
fn ugly_form_extra_urls_and_included_unsourced_pages() {
    let d = tempfile::tempdir().unwrap();
    let plain = page("", "");
    write_tree(
        d.path(),
        &[
            ("config.toml", "base_url = \"https://example.com\"\n"),
            (
                "sitemap.toml",
                "trailing_slash = false\ninclude_unsourced = true\nlastmod = []\nextra_urls = [\"/app/\", \"/feed.xml\"]\n[[rules]]\npattern = \"/private/**\"\nexclude = true\n[[rules]]\npattern = \"/search/\"\npriority = 0.3\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            ("content/about.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            ("content/blog/a.md", "+++\n+++\n"),
            ("public/index.html", &plain),
            // `/about` is served by the ugly file, `/blog` and `/blog/a` by folders.
            ("public/about.html", &plain),
            ("public/blog/index.html", &plain),
            ("public/blog/a/index.html", &plain),
            ("public/search/index.html", &plain),
            ("public/private/index.html", &plain),
        ],
    );
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/</loc>
  </url>
  <url>
    <loc>https://example.com/about</loc>
  </url>
  <url>
    <loc>https://example.com/app/</loc>
  </url>
  <url>
    <loc>https://example.com/blog</loc>
  </url>
  <url>
    <loc>https://example.com/blog/a</loc>
  </url>
  <url>
    <loc>https://example.com/feed.xml</loc>
  </url>
  <url>
    <loc>https://example.com/search/</loc>
    <priority>0.3</priority>
  </url>
</urlset>
"#
    );
    validate_with_xsd(&[d.path().join("public/sitemap.xml")]);
}

/// Round 2 (audit-refresh-verdicts): a meta refresh counts only where a browser follows it,
/// by the HTML standard's declarative refresh steps; a UTF-16 page (byte order mark) is
/// decoded, so its `noindex` counts; a `<base href>` is what relative URLs resolve against.
#[test]
fn verdicts_as_a_browser_gives_them() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    let refresh = |c: &str| format!("<meta http-equiv=\"refresh\" content=\"{c}\">");
    let utf16 = |html: String| -> String {
        // Written below as bytes: a marker the loop swaps for the UTF-16 file.
        format!("UTF16:{html}")
    };
    let pages: Vec<(&str, String)> = vec![
        // A browser does not refresh any of these.
        ("p1", page(&refresh("0url=/moved/"), "")),
        ("p2", page(&refresh("&#xa0;0; url=/moved/"), "")),
        (
            "p3",
            page(&(refresh("30") + &refresh("0; url=/moved/")), ""),
        ),
        ("p4", page(&refresh("5x; url=/moved/"), "")),
        (
            "p5",
            page(
                "<meta http-equiv=\" refresh\" content=\"0; url=/moved/\">",
                "",
            ),
        ),
        // These it does.
        (
            "r1",
            page(&(refresh("5x") + &refresh("0; URL = '/moved/' x")), ""),
        ),
        ("r2", page(&refresh("1.5, /moved/"), "")),
        // The base decides where relative links point.
        (
            "b1",
            page(
                "<base href=\"/b1/\"><link rel=\"canonical\" href=\"./\">",
                "",
            ),
        ),
        (
            "b2",
            page("<base href=\"/\"><link rel=\"canonical\" href=\"b1/\">", ""),
        ),
        ("u1", utf16(page(NOINDEX, ""))),
    ];
    let mut files: Vec<(String, String)> = vec![
        (
            "config.toml".into(),
            "base_url = \"https://example.com/\"\ntitle = \"t\"\n".into(),
        ),
        (
            "content/_index.md".into(),
            "+++\ntitle = \"Home\"\n+++\n".into(),
        ),
        ("public/index.html".into(), page("", "")),
        ("public/moved/index.html".into(), page("", "")),
    ];
    for (name, html) in &pages {
        files.push((
            format!("content/{name}.md"),
            format!("+++\ntitle = \"{name}\"\n+++\n"),
        ));
        files.push((format!("public/{name}/index.html"), html.clone()));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    write_tree(site, &refs);
    for (name, html) in &pages {
        if let Some(html) = html.strip_prefix("UTF16:") {
            let mut bytes = vec![0xFF, 0xFE];
            bytes.extend(html.encode_utf16().flat_map(u16::to_le_bytes));
            std::fs::write(site.join(format!("public/{name}/index.html")), bytes).unwrap();
        }
    }
    let o = run_site(site, &["list", "--excluded"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let mut out: Vec<String> = stdout(&o)
        .lines()
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let file = Path::new(cols[0]).file_stem().unwrap().to_string_lossy();
            format!("{file} {}", cols[1..].join(" "))
        })
        .collect();
    out.sort();
    assert_eq!(
        out,
        [
            "b2 canonical https://example.com/b2/ https://example.com/b1/ -",
            "r1 redirect https://example.com/r1/ https://example.com/moved/ -",
            "r2 redirect https://example.com/r2/ https://example.com/moved/ -",
            "u1 noindex https://example.com/u1/ - -",
        ],
        "{}",
        text(&o)
    );
}
