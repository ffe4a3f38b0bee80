//! Writes the built HTML of a site into its output folder, as a generator would, for the
//! audit's benchmark (issue 16).
//!
//! ```text
//! cargo run --release --example gen-html -- SITE [OUTPUT]
//! ```
//!
//! Every URL sitemapgen lists for SITE (audit off) gets a page (`path/index.html`, or the
//! file itself for a URL with an extension) with a head like a theme's: charset, viewport,
//! title, description, Open Graph tags, a canonical link, a stylesheet and a script, about
//! 2 KB, then a body of about 3 KB. By the URL's number: 1 in 100 says `noindex`, 1 in 100
//! names another canonical URL, 1 in 200 is a meta-refresh stub, 1 in 200 is not written.
//! It adds a `404.html`, a `search/` page no content file accounts for, and pagers, into
//! OUTPUT (default: the site's output folder). When done it writes `OUTPUT/.gen-html` with the
//! number of URLs.

use rayon::prelude::*;
use sitemapgen::RunOptions;
use sitemapgen::settings::Overrides;
use sitemapgen::vocab::loc;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(site) = args.next() else {
        eprintln!("usage: gen-html SITE [OUTPUT]");
        return ExitCode::from(2);
    };
    match run(Path::new(&site), args.next().map(PathBuf::from)) {
        Ok(n) => {
            eprintln!("wrote the built pages of {n} URLs");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen-html: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(site: &Path, output: Option<PathBuf>) -> Result<usize, Box<dyn std::error::Error>> {
    let settings = sitemapgen::load(&Overrides {
        site: Some(site.to_path_buf()),
        output,
        no_audit: true,
        ..Default::default()
    })?;
    let outcome = sitemapgen::generate(
        &settings,
        &RunOptions {
            sources: false,
            ..Default::default()
        },
    )?;
    let base = settings.base_url.as_str();
    let out = &settings.output_dir;
    let locs: Vec<String> = outcome.entries.iter().map(|(l, _)| l.to_string()).collect();
    locs.par_iter()
        .enumerate()
        .try_for_each(|(k, l)| page(out, base, l, k))?;
    let extra = [
        ("404.html", "<title>Not found</title>"),
        ("search/index.html", "<title>Search</title>"),
        ("blog/page/2/index.html", "<title>Blog, page 2</title>"),
        ("docs/page/2/index.html", "<title>Docs, page 2</title>"),
    ];
    for (rel, head) in extra {
        write(
            &out.join(rel),
            &format!("<!DOCTYPE html><html><head>{head}</head><body></body></html>\n"),
        )?;
    }
    std::fs::write(out.join(".gen-html"), locs.len().to_string())?;
    Ok(locs.len())
}

/// Writes the page of URL number `k`.
fn page(out: &Path, base: &str, url: &str, k: usize) -> std::io::Result<()> {
    if k % 200 == 199 {
        return Ok(());
    }
    let rel = loc::decode(url.strip_prefix(base).unwrap_or_default());
    let last = rel.rsplit('/').next().unwrap_or_default();
    let file: PathBuf = if last.contains('.') {
        out.join(&rel)
    } else {
        out.join(&rel).join("index.html")
    };
    write(&file, &html(url, k))
}

fn write(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(file, text)
}

/// A page as a theme writes it.
fn html(url: &str, k: usize) -> String {
    let mut h = String::with_capacity(6 * 1024);
    let canonical = if k % 100 == 37 {
        "https://example.com/"
    } else {
        url
    };
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Page {k} &middot; Example</title>
  <meta name="description" content="Page {k} of the example site: notes on caching, bundles and deploys, with examples &amp; links.">
  <meta name="generator" content="gen-html">
  <meta property="og:title" content="Page {k}">
  <meta property="og:type" content="article">
  <meta property="og:url" content="{url}">
  <meta property="og:image" content="https://example.com/images/cover.png">
  <meta property="article:published_time" content="2024-01-01T10:00:00+00:00">
  <meta name="twitter:card" content="summary_large_image">
  <link rel="canonical" href="{canonical}">
  <link rel="alternate" type="application/rss+xml" href="https://example.com/index.xml" title="Example">
  <link rel="icon" href="/favicon.ico">
  <link rel="preload" href="/fonts/inter.woff2" as="font" type="font/woff2" crossorigin>
  <link rel="stylesheet" href="/css/main.min.3f2a9c.css" integrity="sha256-q3Pn2+8m5V0w1cGf0eQm9eI9aY1Yt4Uq2dJ2mXb0p2E=">
  <script type="application/ld+json">{{"@context":"https://schema.org","@type":"Article","headline":"Page {k}","url":"{url}"}}</script>
  <script>document.documentElement.classList.add("js"); if (window.innerWidth < 640) {{ document.documentElement.classList.add("narrow"); }}</script>
  <style>:root{{--fg:#222;--bg:#fff}}body{{font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}}.nav a{{margin-right:1em}}</style>
"#
    );
    if k % 100 == 11 {
        h.push_str("  <meta name=\"robots\" content=\"noindex, follow\">\n");
    }
    if k % 200 == 73 {
        h.push_str("  <meta http-equiv=\"refresh\" content=\"0; url=https://example.com/\">\n");
    }
    h.push_str("</head>\n<body>\n<nav class=\"nav\"><a href=\"/\">Home</a><a href=\"/blog/\">Blog</a><a href=\"/docs/\">Docs</a></nav>\n<main>\n");
    for p in 0..12 {
        let _ = writeln!(
            h,
            "<p>Paragraph {p} of page {k}: the robots meta tag belongs in the head; a mention of noindex here says nothing. <a href=\"/docs/\">Read more</a>.</p>"
        );
    }
    h.push_str("</main>\n</body>\n</html>\n");
    h
}
