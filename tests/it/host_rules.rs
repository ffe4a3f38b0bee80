//! Real-world rule files of each host (see `tests/fixtures/host/SOURCES.md` for where each
//! comes from), and what the host's documentation says each rule does to a site's URLs:
//!
//! - Netlify (<https://docs.netlify.com/manage/routing/redirects/overview/>): the first
//!   matching rule, `_redirects` before `netlify.toml`; a trailing slash does not count; a
//!   file at the URL is served before a rule without `!`/`force`; status 301 by default.
//! - Cloudflare Pages (<https://developers.cloudflare.com/pages/configuration/redirects/>):
//!   exact paths, static rules before dynamic ones, "redirects are always followed,
//!   regardless of whether or not an asset matches"; status 302 by default.
//! - Vercel (<https://vercel.com/docs/project-configuration#redirects>): `cleanUrls` and
//!   `trailingSlash` redirect first, then `redirects` (path-to-regexp, 308 by default) before
//!   any file.

use sitemapgen::Entries;
use sitemapgen::host::judge::{RobotsFile, Root, judge};
use sitemapgen::host::robots::Robots;
use sitemapgen::host::{FileKind, HostRules, Judged, Platform, Request, RuleTexts};
use sitemapgen::route::Reason;
use std::path::PathBuf;
use std::sync::Arc;

fn fixture(name: &str) -> (PathBuf, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/host")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    (PathBuf::from(name), text)
}

/// What the host answers for a URL path: `redirect <line> <to>`, `may <line>`, `file <line>`
/// (an unforced rule, the file served), `status <line>`, or `200`.
fn answer(host: &HostRules, origin: &str, path: &str, file_exists: bool) -> String {
    let req = Request {
        path,
        query: None,
        origin,
    };
    match host.rules.judge(&req, file_exists) {
        Some(Judged::Redirect { rule, to }) => {
            format!("redirect {} {} {to}", rule.origin.line, rule.status)
        }
        Some(Judged::MayRedirect { rule }) => format!("may {}", rule.origin.line),
        Some(Judged::Shadowed { rule }) => format!("file {}", rule.origin.line),
        Some(Judged::Status { rule }) => format!("status {} {}", rule.origin.line, rule.status),
        None => "200".to_string(),
    }
}

#[test]
fn fluxcd_forced_netlify_rules_redirect_built_pages() {
    let host = HostRules::from_texts(
        Platform::Netlify,
        &RuleTexts {
            redirects: Some(fixture("netlify-fluxcd._redirects")),
            ..Default::default()
        },
        "https://fluxcd.io",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    let o = "https://fluxcd.io";
    let cases = [
        // `301!`: the rule applies though Hugo built the page; the trailing slash of the
        // listed URL does not count.
        (
            "/flagger/usage/ab-testing/",
            "redirect 15 301 /flagger/tutorials/istio-ab-testing",
        ),
        ("/docs/roadmap/", "redirect 9 301 /roadmap"),
        // The first rule in the file wins: line 44 before the wider line 45.
        (
            "/docs/contributing/dev/",
            "redirect 44 301 /contributing/dev",
        ),
        (
            "/docs/anything/else/",
            "redirect 45 301 /flux/anything/else",
        ),
        ("/docs", "redirect 45 301 /flux/"),
        ("/legacy/v1/", "redirect 47 301 /flux/migration"),
        (
            "/flux/installation/configuration/boostrap-customization/",
            "redirect 51 301 /flux/installation/configuration/bootstrap-customization/",
        ),
        // Whole segments only.
        ("/docsy/", "200"),
        ("/flux/installation/", "200"),
        ("/flagger/usage/ab-testing/more/", "200"),
        ("/", "200"),
    ];
    for (path, want) in cases {
        assert_eq!(answer(&host, o, path, true), want, "{path}");
    }
}

#[test]
fn kubernetes_unforced_rules_yield_to_built_pages() {
    let host = HostRules::from_texts(
        Platform::Netlify,
        &RuleTexts {
            redirects: Some(fixture("netlify-kubernetes._redirects")),
            ..Default::default()
        },
        "https://kubernetes.io",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    let o = "https://kubernetes.io";
    // The docs section Hugo builds at /docs/ redirects: the rule is forced.
    assert_eq!(
        answer(&host, o, "/docs/", true),
        "redirect 8 301 /docs/home/"
    );
    assert_eq!(
        answer(&host, o, "/zh/docs/", true),
        "redirect 21 301 /zh/docs/home/"
    );
    assert_eq!(answer(&host, o, "/docs/home/", true), "200");
    // Without `!`, a built page is served; only a URL with no file redirects.
    assert_eq!(answer(&host, o, "/docs/admin/", true), "file 24");
    assert_eq!(
        answer(&host, o, "/docs/admin/", false),
        "redirect 24 301 /docs/concepts/cluster-administration/"
    );
    assert_eq!(
        answer(&host, o, "/docs/admin/cluster-management/", false),
        "redirect 31 302 /docs/tasks/administer-cluster/"
    );
    assert_eq!(
        answer(&host, o, "/docs/getting-started-guides/aws/", true),
        "file 35"
    );
    assert_eq!(
        answer(&host, o, "/docs/admin/resourcequota/walkthrough/", false),
        "redirect 32 301 /docs/concepts/policy/resource-quotas/"
    );
    assert_eq!(
        answer(
            &host,
            o,
            "/docs/concepts/workloads/controllers/statefulset.md",
            true
        ),
        "redirect 33 301 /docs/concepts/workloads/controllers/statefulset/"
    );
}

#[test]
fn letsencrypt_custom_404s_never_touch_built_pages() {
    let host = HostRules::from_texts(
        Platform::Netlify,
        &RuleTexts {
            netlify_toml: Some(fixture("netlify-letsencrypt.toml")),
            ..Default::default()
        },
        "https://letsencrypt.org",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    assert_eq!(host.rules.rules().len(), 12);
    let o = "https://letsencrypt.org";
    // `force = false`: the page's file is served.
    assert_eq!(answer(&host, o, "/de/docs/faq/", true), "file 5");
    assert_eq!(answer(&host, o, "/zh-tw/about/", true), "file 71");
    // With no file, the 404 page answers: no redirect (and nothing to list).
    assert_eq!(answer(&host, o, "/de/nowhere/", false), "status 5 404");
    assert_eq!(answer(&host, o, "/docs/faq/", true), "200");
}

#[test]
fn opentelemetry_domain_rules_meet_their_old_hosts_only() {
    let host = HostRules::from_texts(
        Platform::Netlify,
        &RuleTexts {
            netlify_toml: Some(fixture("netlify-opentelemetry.toml")),
            ..Default::default()
        },
        "https://opentelemetry.io",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    assert_eq!(
        answer(&host, "https://opentelemetry.io", "/docs/", true),
        "200"
    );
    assert_eq!(
        answer(&host, "https://opentelemetry.io", "/blog/2024/x/", true),
        "200"
    );
    // Had the site kept its old host as base URL, every page would redirect.
    assert_eq!(
        answer(&host, "https://docs.opentelemetry.io", "/concepts/", true),
        "redirect 15 301 https://opentelemetry.io/docs/concepts"
    );
}

#[test]
fn cloudflare_docs_rules_are_exact_and_always_applied() {
    let host = HostRules::from_texts(
        Platform::CloudflarePages,
        &RuleTexts {
            redirects: Some(fixture("cloudflare-docs._redirects")),
            ..Default::default()
        },
        "https://developers.cloudflare.com",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    let o = "https://developers.cloudflare.com";
    let cases = [
        // A built page changes nothing: the rule is followed.
        ("/docs/", "redirect 8 301 /directory/"),
        ("/ai/", "redirect 28 301 /use-cases/ai/"),
        // Exact paths: the other slash form is another path.
        ("/docs", "200"),
        ("/ai", "200"),
        ("/api", "redirect 9 301 /api/"),
        ("/api/", "200"),
        (
            "/analytics/web-analytics/",
            "redirect 32 301 /web-analytics/",
        ),
        (
            "/ai-gateway/providers/openai/",
            "redirect 40 301 /ai-gateway/usage/providers/openai/",
        ),
        // A splat anywhere, in the middle of a segment too.
        (
            "/workers/index.html.md",
            "redirect 43 301 /workers/index.md",
        ),
        (
            "/cloudflare-one/faq/teams-getting-started/",
            "redirect 48 301 /cloudflare-one/faq/getting-started/",
        ),
        (
            "/waf/change-log/2019-05-01/",
            "redirect 51 301 /waf/change-log/historical-2019/",
        ),
        ("/calls/sessions/", "redirect 54 301 /realtime/sessions/"),
        ("/ai-gateway/", "200"),
        ("/waf/change-log/2025-01-01/", "200"),
    ];
    for (path, want) in cases {
        assert_eq!(answer(&host, o, path, true), want, "{path}");
    }
}

#[test]
fn sharpapi_vercel_rules_meet_the_served_form_only() {
    let host = HostRules::from_texts(
        Platform::Vercel,
        &RuleTexts {
            vercel_json: Some(fixture("vercel-sharpapi.json")),
            ..Default::default()
        },
        "https://docs.sharpapi.io",
    );
    assert!(host.warnings.is_empty(), "{:?}", host.warnings);
    // cleanUrls and trailingSlash: every page is served with a trailing slash.
    assert!(host.forms.clean_urls);
    assert_eq!(host.forms.trailing_slash, Some(true));
    assert_eq!(
        host.forms.served("/en/quickstart", FileKind::FolderIndex),
        "/en/quickstart/"
    );
    assert_eq!(
        host.forms.served("/en/quickstart.html", FileKind::HtmlFile),
        "/en/quickstart/"
    );
    let o = "https://docs.sharpapi.io";
    // Section pages the site builds, redirected by the rules added for the slashed form.
    assert_eq!(
        answer(&host, o, "/en/concepts/", true),
        "redirect 409 308 /en/concepts/arbitrage/"
    );
    assert_eq!(
        answer(&host, o, "/en/api-reference/", true),
        "redirect 399 308 /en/api-reference/overview/"
    );
    assert_eq!(answer(&host, o, "/", true), "redirect 154 308 /en/");
    assert_eq!(answer(&host, o, "/en/concepts/arbitrage/", true), "200");
    assert_eq!(answer(&host, o, "/en/", true), "200");
    // Matched without regard to case; `:path*` takes several segments.
    assert_eq!(
        answer(&host, o, "/EN/Concepts/", true),
        "redirect 409 308 /en/concepts/arbitrage/"
    );
    assert_eq!(
        answer(&host, o, "/streaming/ws/auth/", true),
        "redirect 259 308 /en/streaming/ws/auth/"
    );
}

#[test]
fn xarvex_vercel_serves_clean_urls_without_a_slash() {
    let host = HostRules::from_texts(
        Platform::Vercel,
        &RuleTexts {
            vercel_json: Some(fixture("vercel-xarvex.json")),
            ..Default::default()
        },
        "https://xarvex.com",
    );
    assert!(host.rules.is_empty());
    let f = &host.forms;
    assert_eq!(f.served("/blog/post/", FileKind::FolderIndex), "/blog/post");
    assert_eq!(
        f.served("/blog/post/index.html", FileKind::FolderIndex),
        "/blog/post"
    );
    assert_eq!(f.served("/about.html", FileKind::HtmlFile), "/about");
    assert_eq!(f.served("/", FileKind::FolderIndex), "/");
    assert_eq!(f.served("/feed.xml", FileKind::Other), "/feed.xml");
}

#[test]
fn a_long_rule_is_one_string_shared_by_every_url_it_leaves_out() {
    // A 20 KB destination and a robots.txt rule of 20,000 `*`, each meeting 200 pages: every
    // page points at its rule's one name, and a redirect's target is written out when shown.
    let long = "x".repeat(20_000);
    let host = HostRules::from_texts(
        Platform::Netlify,
        &RuleTexts {
            redirects: Some((
                PathBuf::from("_redirects"),
                format!("/blog/*  /{long}/:splat  301!\n"),
            )),
            ..Default::default()
        },
        "https://e.org",
    );
    let stars = "*".repeat(20_000);
    let robots = RobotsFile {
        path: PathBuf::from("robots.txt"),
        robots: Robots::parse(format!("User-agent: *\nDisallow: /docs/{stars}\n").as_bytes()),
    };
    let mut entries = Entries::new();
    for section in ["blog", "docs"] {
        for k in 0..200 {
            entries
                .push(&format!("https://e.org/{section}/p{k}/"))
                .unwrap();
        }
    }
    let base = url::Url::parse("https://e.org/").unwrap();
    let roots = [Root {
        base: &base,
        entries: 0..entries.len(),
        robots: Some(&robots),
    }];
    let found = judge(&host, &roots, &entries, &|_| true);
    assert_eq!(found.left_out.len(), 400);
    let (redirected, disallowed) = found.left_out.split_at(200);
    for (group, reason) in [
        (redirected, Reason::Redirect),
        (disallowed, Reason::RobotsDisallowed),
    ] {
        assert!(group.iter().all(|l| l.reason == reason));
        assert!(
            group.iter().all(|l| Arc::ptr_eq(&l.rule, &group[0].rule)),
            "{reason:?}: each page holds its own copy of the rule"
        );
    }
    // What is shown is what it was: the rule as written, the target filled in and absolute.
    assert_eq!(
        &*redirected[7].rule,
        format!("_redirects:1 (/blog/* /{long}/:splat 301!)")
    );
    assert_eq!(
        redirected[7].target.as_ref().map(ToString::to_string),
        Some(format!("https://e.org/{long}/p7"))
    );
    assert_eq!(
        &*disallowed[0].rule,
        format!("robots.txt:2 (Disallow: /docs/{stars})")
    );
}

#[test]
fn a_compiled_rule_costs_its_nfa_alone() {
    // Each rule kept a whole `meta::Regex` (lazy DFAs, reverse NFA, one-pass table): 2.3 KB
    // by its own `memory_usage`, some 10 KB resident; a 16 MiB vercel.json holds 320,000
    // sources. Its NFA alone is about 1.4 KB.
    let n = 2_000;
    let sources: Vec<String> = (0..n)
        .map(|k| format!(r#"{{"source": "/blog/:p{k}*", "destination": "/x{k}"}}"#))
        .collect();
    let json = format!(r#"{{"redirects": [{}]}}"#, sources.join(",\n"));
    let host = HostRules::from_texts(
        Platform::Vercel,
        &RuleTexts {
            vercel_json: Some((PathBuf::from("vercel.json"), json)),
            ..Default::default()
        },
        "https://e.org",
    );
    assert_eq!(host.rules.rules().len(), n);
    let per_rule = host.rules.pattern_bytes() / n;
    assert!(per_rule < 2_000, "{per_rule} bytes a rule");
    // The first rule in the file still decides, whatever the rules after it.
    let o = "https://e.org";
    assert_eq!(answer(&host, o, "/blog/a/b", true), "redirect 1 308 /x0");

    let lines: Vec<String> = (0..n)
        .map(|k| format!("/blog/p{k}/*  /y{k}  301"))
        .collect();
    let host = HostRules::from_texts(
        Platform::CloudflarePages,
        &RuleTexts {
            redirects: Some((PathBuf::from("_redirects"), lines.join("\n"))),
            ..Default::default()
        },
        o,
    );
    assert!(host.rules.pattern_bytes() / n < 2_000);
    assert_eq!(
        answer(&host, o, "/blog/p1234/a", true),
        "redirect 1235 301 /y1234"
    );
    assert_eq!(answer(&host, o, "/blog/q/a", true), "200");
}
