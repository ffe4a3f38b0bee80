//! The host has the last word (issue 29): sites with a host's rule files, built output and
//! robots.txt, run through the binary; whole sitemaps compared.

use crate::common;
use crate::common::{run_site, stderr, stdout};

use common::{text, validate_with_xsd, write_tree};
use std::path::Path;

/// The `<loc>`s of the sitemap build wrote.
fn locs(site: &Path) -> Vec<String> {
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    validate_with_xsd(&[site.join("public/sitemap.xml")]);
    xml.lines()
        .filter_map(|l| l.trim().strip_prefix("<loc>")?.strip_suffix("</loc>"))
        .map(String::from)
        .collect()
}

/// A page as a theme writes it, naming `canonical` in its head.
fn page(canonical: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>t</title><link rel=\"canonical\" href=\"{canonical}\"></head><body><p>x</p></body></html>\n"
    )
}

/// A Hugo site with `uglyURLs`, its `public/` as Hugo 0.168 wrote it (every page naming its
/// `.Permalink` canonical).
fn ugly_site(root: &Path, sitemap_toml: &str, built: bool) {
    let mut files: Vec<(&str, String)> = vec![
        (
            "hugo.toml",
            "baseURL = \"https://example.org/\"\ntitle = \"t\"\nuglyURLs = true\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\"]\n".into(),
        ),
        ("sitemap.toml", format!("hugo_version = \"0.168.0\"\n{sitemap_toml}")),
        ("content/_index.md", "---\ntitle: Home\n---\n".into()),
        ("content/posts/_index.md", "---\ntitle: Posts\n---\n".into()),
        ("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nA\n".into()),
        ("content/posts/b.md", "---\ntitle: B\ndate: 2024-01-02\n---\nB\n".into()),
        ("content/about.md", "---\ntitle: About\ndate: 2024-01-03\n---\nabout\n".into()),
    ];
    if built {
        files.extend([
            ("public/index.html", page("https://example.org/index.html")),
            ("public/about.html", page("https://example.org/about.html")),
            (
                "public/posts/index.html",
                page("https://example.org/posts/index.html"),
            ),
            (
                "public/posts/a.html",
                page("https://example.org/posts/a.html"),
            ),
            (
                "public/posts/b.html",
                page("https://example.org/posts/b.html"),
            ),
        ]);
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    write_tree(root, &refs);
}

#[test]
fn a_hugo_ugly_urls_site_on_cloudflare_pages_lists_extensionless_urls() {
    let d = tempfile::tempdir().unwrap();
    ugly_site(d.path(), "host = \"cloudflare-pages\"\n", true);
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    // Cloudflare answers /about.html with a redirect to /about, /posts/index.html to /posts/.
    assert_eq!(
        locs(d.path()),
        [
            "https://example.org/",
            "https://example.org/about",
            "https://example.org/posts/",
            "https://example.org/posts/a",
            "https://example.org/posts/b",
        ]
    );
    // The pages name the redirected form canonical: kept, and said once.
    let err = stderr(&o);
    assert!(
        err.contains("warning: 3 listed pages name as canonical a URL the host redirects to the one listed (https://example.org/about.html on https://example.org/about, and 2 more): kept"),
        "{err}"
    );
    // check sees the same forms: clean.
    let o = run_site(d.path(), &["check"]);
    assert!(o.status.success(), "{}", text(&o));
    // Without a built output, the forms follow from the URLs' shapes: the same sitemap.
    let bare = tempfile::tempdir().unwrap();
    ugly_site(bare.path(), "host = \"cloudflare-pages\"\n", false);
    let o = run_site(bare.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(locs(bare.path()), locs(d.path()));
    // On a plain server the generator's URLs stand.
    let plain = tempfile::tempdir().unwrap();
    ugly_site(plain.path(), "host = \"plain\"\n", true);
    let o = run_site(plain.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        locs(plain.path()),
        [
            "https://example.org/about.html",
            "https://example.org/index.html",
            "https://example.org/posts/a.html",
            "https://example.org/posts/b.html",
            "https://example.org/posts/index.html",
        ]
    );
}

/// A Zola site built into `public/`, with `extra` files (host rule files, robots.txt).
fn zola_site(root: &Path, extra: &[(&str, &str)]) {
    let mut files: Vec<(&str, String)> = vec![
        (
            "config.toml",
            "base_url = \"https://example.com\"\ntitle = \"t\"\n".into(),
        ),
        ("content/_index.md", "+++\n+++\n".into()),
        ("content/about.md", "+++\ndate = 2024-01-02\n+++\n".into()),
        ("content/blog/_index.md", "+++\n+++\n".into()),
        ("content/blog/a.md", "+++\ndate = 2024-02-01\n+++\n".into()),
        ("content/blog/b.md", "+++\ndate = 2024-02-02\n+++\n".into()),
        ("content/drafts/_index.md", "+++\n+++\n".into()),
        (
            "content/drafts/c.md",
            "+++\ndate = 2024-02-03\n+++\n".into(),
        ),
    ];
    for p in [
        "",
        "about/",
        "blog/",
        "blog/a/",
        "blog/b/",
        "drafts/",
        "drafts/c/",
    ] {
        let url = format!("https://example.com/{p}");
        files.push((
            Box::leak(format!("public/{p}index.html").into_boxed_str()),
            page(&url),
        ));
    }
    files.extend(extra.iter().map(|(p, t)| (*p, t.to_string())));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    write_tree(root, &refs);
}

#[test]
fn netlify_rules_leave_out_what_they_redirect_and_name_the_rule() {
    let d = tempfile::tempdir().unwrap();
    let redirects = "# moved\n/blog/a  /posts/a  301!\n/about  /team     301\n/       /fr/      302!  Language=fr\n";
    zola_site(
        d.path(),
        &[
            ("static/_redirects", redirects),
            ("public/_redirects", redirects),
            (
                "netlify.toml",
                "[build]\npublish = \"public\"\n\n[[redirects]]\nfrom = \"/drafts/*\"\nto = \"/\"\nstatus = 302\nforce = true\n",
            ),
        ],
    );
    let o = run_site(d.path(), &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/b/",
        ]
    );
    let err = stderr(&o);
    let redirects_file = d.path().join("public/_redirects").display().to_string();
    let toml = d.path().join("netlify.toml").display().to_string();
    for want in [
        format!("note: host: netlify ({toml} is there)"),
        format!(
            "warning: {redirects_file}:2 (/blog/a /posts/a 301!) redirects 1 listed URL (https://example.com/blog/a/): left out (redirect)"
        ),
        // Without `!`, Netlify serves the page's file: kept, said once.
        format!(
            "note: {redirects_file}:3 (/about /team 301) meets 1 listed URL (https://example.com/about/) that Netlify serves from their files"
        ),
        // A rule for some visitors only: kept, said once, nothing to fix.
        format!(
            "note: {redirects_file}:4 (/ /fr/ 302! Language=fr) may redirect 1 listed URL (https://example.com/): it checks the request for what a sitemap cannot know; kept"
        ),
        format!(
            "warning: {toml}:5 (/drafts/* / 302!) redirects 2 listed URLs (https://example.com/drafts/ and 1 more): left out (redirect)"
        ),
        "; the host's rules and robots.txt left out 3 URLs (3 redirecting)".to_string(),
    ] {
        assert!(err.contains(&want), "{want}\n---\n{err}");
    }
    // Without --verbose: the host and the two rules that change nothing, a line each, then
    // the rules that leave URLs out.
    let o = run_site(d.path(), &["build"]);
    let err = stderr(&o);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(notes.len(), 3, "{err}");
    assert!(notes[0].starts_with("note: host: netlify, as "), "{err}");
    assert!(
        notes[1].contains(":4 (/ /fr/ 302! Language=fr) may redirect"),
        "{err}"
    );
    assert!(
        notes[2].contains(":3 (/about /team 301) meets 1 listed URL"),
        "{err}"
    );
    // The two redirects, and Zola's own sitemap being on.
    assert_eq!(err.matches("warning: ").count(), 3, "{err}");
    let o = run_site(d.path(), &["list", "--excluded"]);
    let c = |rel: &str| d.path().join("content").join(rel).display().to_string();
    assert_eq!(
        stdout(&o),
        format!(
            "{}\tredirect\thttps://example.com/blog/a/\thttps://example.com/posts/a\t{redirects_file}:2 (/blog/a /posts/a 301!)\n\
             {}\tredirect\thttps://example.com/drafts/\thttps://example.com/\t{toml}:5 (/drafts/* / 302!)\n\
             {}\tredirect\thttps://example.com/drafts/c/\thttps://example.com/\t{toml}:5 (/drafts/* / 302!)\n",
            c("blog/a.md"),
            c("drafts/_index.md"),
            c("drafts/c.md"),
        )
    );
    let o = run_site(d.path(), &["list", "--excluded", "--format", "jsonl"]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["reason"], "redirect");
    assert_eq!(
        first["rule"],
        format!("{redirects_file}:2 (/blog/a /posts/a 301!)")
    );
    let o = run_site(d.path(), &["build", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["excluded"]["redirect"], 3);
    assert_eq!(json["urls"], 4);
    let o = run_site(d.path(), &["check"]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_rule_in_static_counts_before_the_site_is_built() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[("static/_redirects", "/blog/a /posts/a 301!\n")],
    );
    std::fs::remove_dir_all(d.path().join("public")).unwrap();
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!locs(d.path()).contains(&"https://example.com/blog/a/".to_string()));
    // Nothing built: the unforced rule is taken as shadowed, as the build will write the page.
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path(), &[("static/_redirects", "/blog/a /posts/a 301\n")]);
    std::fs::remove_dir_all(d.path().join("public")).unwrap();
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(locs(d.path()).contains(&"https://example.com/blog/a/".to_string()));
}

#[test]
fn vercel_serves_clean_urls_and_applies_its_redirects_after() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[(
            "vercel.json",
            r#"{
  "cleanUrls": true,
  "trailingSlash": false,
  "redirects": [
    { "source": "/blog/a/", "destination": "/posts/a" },
    { "source": "/blog/b", "destination": "/posts/b", "permanent": false }
  ]
}"#,
        )],
    );
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    // Served without a trailing slash; `/blog/a/` never meets a request (Vercel redirects it
    // to /blog/a first), `/blog/b` does.
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/about",
            "https://example.com/blog",
            "https://example.com/blog/a",
            "https://example.com/drafts",
            "https://example.com/drafts/c",
        ]
    );
    let err = stderr(&o);
    let vj = d.path().join("vercel.json").display().to_string();
    assert!(
        err.contains(&format!("warning: {vj}:6 (/blog/b /posts/b 307) redirects 1 listed URL (https://example.com/blog/b): left out (redirect)")),
        "{err}"
    );
}

#[test]
fn github_pages_serves_a_folder_with_its_slash() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[
            ("static/CNAME", "example.com\n"),
            (
                "sitemap.toml",
                "trailing_slash = false\nextra_urls = [\"/search\"]\n",
            ),
            (
                "public/search/index.html",
                &page("https://example.com/search/"),
            ),
        ],
    );
    let o = run_site(d.path(), &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    // GitHub Pages redirects /about to /about/ where about/ is a folder: the slash is back.
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/a/",
            "https://example.com/blog/b/",
            "https://example.com/drafts/",
            "https://example.com/drafts/c/",
            "https://example.com/search/",
        ]
    );
    assert!(
        stderr(&o).contains("note: host: github-pages ("),
        "{}",
        stderr(&o)
    );
}

#[test]
fn robots_txt_disallows_leave_urls_out_and_a_whole_site_block_only_warns() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[(
            "public/robots.txt",
            "User-agent: *\nDisallow: /drafts/\nAllow: /drafts/$\n\nUser-agent: Googlebot\nDisallow: /drafts/\nAllow: /drafts/$\nDisallow: /about/\n",
        )],
    );
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/a/",
            "https://example.com/blog/b/",
            "https://example.com/drafts/",
        ]
    );
    let err = stderr(&o);
    let robots = d.path().join("public/robots.txt").display().to_string();
    assert!(
        err.contains(&format!("note: {robots}:6 (Disallow: /drafts/) disallows 1 listed URL (https://example.com/drafts/c/): left out (robots-disallowed)")),
        "{err}"
    );
    assert!(
        err.contains(&format!("note: {robots}:8 (Disallow: /about/) disallows 1 listed URL (https://example.com/about/) for Googlebot only: kept for other crawlers")),
        "{err}"
    );
    let o = run_site(d.path(), &["list", "--excluded", "--format", "jsonl"]);
    let line: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["reason"], "robots-disallowed");
    assert_eq!(line["rule"], format!("{robots}:6 (Disallow: /drafts/)"));
    // Strict mode: an error naming the page and the rule.
    let o = run_site(d.path(), &["build", "--format", "text"]);
    assert!(o.status.success());
    std::fs::write(d.path().join("sitemap.toml"), "audit = \"strict\"\n").unwrap();
    let o = run_site(d.path(), &["build"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains(&format!("{robots}:6 (Disallow: /drafts/) disallows it")),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(d.path().join("sitemap.toml")).unwrap();

    // A preview build's robots.txt: a warning, nothing left out; --verbose says why.
    std::fs::write(
        d.path().join("public/robots.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let o = run_site(d.path(), &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(locs(d.path()).len(), 7);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("warning: {robots}:2 (Disallow: /) keeps crawlers from the whole site, 7 listed URLs included")),
        "{err}"
    );
    assert!(err.contains("preview and staging builds"), "{err}");
}

#[test]
fn a_site_below_a_path_has_no_robots_txt_of_its_own() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[("public/robots.txt", "User-agent: *\nDisallow: /\n")],
    );
    // Written with the output's time (a config newer than the output would make the built
    // robots.txt one that is not read at all).
    write_tree(
        d.path(),
        &[(
            "config.toml",
            "base_url = \"https://example.com/docs\"\ntitle = \"t\"\n",
        )],
    );
    let o = run_site(d.path(), &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!stderr(&o).contains("whole site"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("crawlers read robots.txt at the host's root only"),
        "{}",
        stderr(&o)
    );
}

/// Sets a file's modification time to `secs` after [`common::TEST_MTIME_SECS`] (the time
/// [`write_tree`] gives every file).
fn touch_after(path: &Path, secs: u64) {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(common::TEST_MTIME_SECS + secs);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

#[test]
fn only_what_the_next_deploy_serves_counts() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[
            ("netlify.toml", "[build]\npublish = \"public\"\n"),
            ("static/_redirects", "/blog/b /posts/b 301!\n"),
            ("public/_redirects", "/blog/a /posts/a 301!\n"),
            ("public/robots.txt", "User-agent: *\nDisallow: /about/\n"),
        ],
    );
    // `static/_redirects` edited after the last build: the next build deploys it, not the
    // copy in `public/`.
    touch_after(&d.path().join("static/_redirects"), 100);
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/blog/",
            "https://example.com/blog/a/",
            "https://example.com/drafts/",
            "https://example.com/drafts/c/",
        ]
    );
    // The site's config changed after the build: the built robots.txt may not be what the
    // next build writes, so it is not read; the rule in `static/` is the site's own word.
    touch_after(&d.path().join("config.toml"), 200);
    let o = run_site(d.path(), &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        locs(d.path()),
        [
            "https://example.com/",
            "https://example.com/about/",
            "https://example.com/blog/",
            "https://example.com/blog/a/",
            "https://example.com/drafts/",
            "https://example.com/drafts/c/",
        ]
    );
    assert!(!stderr(&o).contains("robots-disallowed"), "{}", text(&o));
}

#[test]
fn a_rule_is_shown_with_its_control_characters_escaped() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        &[("static/_redirects", "/blog/a /posts/\u{1b}[2Ja 301!\n")],
    );
    std::fs::remove_dir_all(d.path().join("public")).unwrap();
    let o = run_site(d.path(), &["list", "--excluded"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}'), "{out:?}");
    let rule = out.trim_end().split('\t').nth(4).unwrap().to_string();
    let file = d.path().join("static/_redirects").display().to_string();
    assert_eq!(
        rule,
        format!("{file}:1 (/blog/a /posts/\\u{{1b}}[2Ja 301!)")
    );
}
