//! Hostile configuration values (issue 18): each either stops the build with exit 2 naming
//! the file (and line) it came from, or gives a sitemap our own `validate` accepts. Never a
//! sitemap the schemas reject.

use crate::common;

use common::{run, text, write_tree};
use std::path::Path;

/// A one-page site with a Zola config (`extra` appended to it) and, when given, sitemap.toml.
fn zola_site(root: &Path, extra: &str, sitemap_toml: Option<&str>) {
    let config = format!("base_url = \"https://example.com/\"\n{extra}");
    let mut files = vec![
        ("config.toml", config.as_str()),
        ("content/_index.md", "+++\n+++\n"),
    ];
    if let Some(t) = sitemap_toml {
        files.push(("sitemap.toml", t));
    }
    write_tree(root, &files);
}

/// Builds `site` with `args` and asserts exit 2, no sitemap, and `want` in the error.
fn refused(site: &Path, args: &[&str], want: &str) {
    let mut all = vec!["build", "--site", site.to_str().unwrap(), "-q"];
    all.extend_from_slice(args);
    let o = run(site, &all);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr.contains(want), "want {want:?}\n{}", text(&o));
    assert!(!site.join("public/sitemap.xml").exists(), "{}", text(&o));
}

#[test]
fn a_stylesheet_xml_cannot_carry_is_refused_naming_sitemap_toml() {
    for ch in ["\\u0000", "\\u0001", "\\u001b", "\\u000B", "\\uFFFE"] {
        let d = tempfile::tempdir().unwrap();
        let toml = format!("# sitemapgen\nstylesheet = \"a{ch}b\"\n");
        zola_site(d.path(), "", Some(&toml));
        refused(d.path(), &[], "sitemap.toml:2: stylesheet holds U+");
    }
}

#[test]
fn base_urls_that_cannot_give_valid_locs_are_refused_naming_their_source() {
    let bad = [
        "https://example.com/%/",
        "https://example.com}/root/",
        "http://a.b/",
        "https:///x",
        "https://user:secret@example.com/",
        "https://evil.com\\@example.com/",
    ];
    for b in bad {
        let d = tempfile::tempdir().unwrap();
        zola_site(d.path(), "", None);
        refused(d.path(), &["--base-url", b], "--base-url: base_url");
        let escaped = b.replace('\\', "\\\\");
        let d = tempfile::tempdir().unwrap();
        let toml = format!("\nbase_url = \"{escaped}\"\n");
        zola_site(d.path(), "", Some(&toml));
        refused(d.path(), &[], "sitemap.toml:2: base_url");
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[
                (
                    "config.toml",
                    &format!("title = \"t\"\nbase_url = \"{escaped}\"\n"),
                ),
                ("content/_index.md", "+++\n+++\n"),
            ],
        );
        refused(d.path(), &[], "config.toml:2: base_url");
    }
}

#[test]
fn lastmods_outside_the_schemas_range_are_refused_or_left_out_with_file_and_line() {
    for date in [
        "0000-01-01",
        "2024-01-01T10:00:00-23:59",
        "2024-01-01T10:00:00+14:30",
    ] {
        // Zola 0.22.1 builds such a page (and writes the date as it is): the date is left
        // out, warned about naming the file and line; the page is listed.
        let d = tempfile::tempdir().unwrap();
        zola_site(d.path(), "", None);
        let page = format!("+++\ntitle = \"t\"\nupdated = \"{date}\"\n+++\n");
        write_tree(d.path(), &[("content/p.md", &page)]);
        let o = run(d.path(), &["build", "--site", d.path().to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains("p.md:3:") && stderr.contains(date),
            "{}",
            text(&o)
        );
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        assert!(xml.contains("/p/</loc>") && !xml.contains(date), "{xml}");
        let d = tempfile::tempdir().unwrap();
        let toml = format!("extra_urls = [\n  {{ loc = \"/app/\", lastmod = \"{date}\" }},\n]\n");
        zola_site(d.path(), "", Some(&toml));
        refused(d.path(), &[], "sitemap.toml:2: extra_urls: lastmod");
    }
}

#[test]
fn language_codes_that_are_not_bcp_47_are_refused_naming_the_site_config() {
    let d = tempfile::tempdir().unwrap();
    zola_site(
        d.path(),
        "default_language = \"zz zz\"\n[languages.fr]\n",
        None,
    );
    write_tree(d.path(), &[("content/_index.fr.md", "+++\n+++\n")]);
    refused(d.path(), &[], "config.toml:2: language code 'zz zz'");
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"x_y\"\n[languages.x_y]\nweight = 1\n[languages.fr]\nweight = 2\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            ("content/_index.fr.md", "+++\n+++\n"),
        ],
    );
    // (An empty defaultContentLanguage is unset to Hugo: `en`, or the first language.)
    refused(d.path(), &[], "hugo.toml:2: language code 'x_y'");
}

#[test]
fn site_config_errors_name_the_site_config_not_the_command_line() {
    let hugo = |extra: &str| {
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[
                (
                    "hugo.toml",
                    &format!("baseURL = \"https://example.org/docs/\"\n{extra}"),
                ),
                ("content/posts/p.md", "+++\ntitle = \"t\"\n+++\n"),
            ],
        );
        d
    };
    let d = hugo("timeZone = \"Mars/Olympus\"\n");
    refused(d.path(), &[], "hugo.toml:2: unknown time zone");
    let d = hugo("[sitemap]\nfilename = \"../x.xml\"\n");
    refused(d.path(), &[], "hugo.toml:3: [sitemap] filename '../x.xml'");
    let d = hugo("[sitemap]\nfilename = \"x y.xml\"\n");
    refused(d.path(), &[], "hugo.toml:3: [sitemap] filename 'x y.xml'");
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path(), "ignored_content = [\"[\"]\n", None);
    refused(
        d.path(),
        &[],
        "config.toml:2: ignored_content: bad glob '['",
    );
}

#[test]
fn the_base_urls_that_work_still_give_valid_sitemaps() {
    for b in [
        "https://bücher.example/",
        "http://[::1]:8080/site/",
        "HTTPS://Example.COM/a b/",
        "https://example.com/a[1]/",
    ] {
        let d = tempfile::tempdir().unwrap();
        zola_site(d.path(), "", None);
        let site = d.path().to_str().unwrap();
        let o = run(d.path(), &["build", "--site", site, "-q", "--base-url", b]);
        assert_eq!(o.status.code(), Some(0), "{b}: {}", text(&o));
        let map = d.path().join("public/sitemap.xml");
        let o = run(d.path(), &["validate", map.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{b}: {}", text(&o));
    }
}

#[test]
fn check_reads_a_bounded_amount_of_an_endless_file_on_disk() {
    // `public/sitemap.xml` is /dev/zero: check must stop reading at the protocol's size,
    // call the sitemap stale, and end (reading it whole never would).
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path(), "", None);
    std::fs::create_dir_all(d.path().join("public")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.path().join("public/sitemap.xml")).unwrap();
    let o = run(d.path(), &["check", "-q"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}
