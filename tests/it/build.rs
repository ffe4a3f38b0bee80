//! End-to-end runs of `sitemapgen build` on small sites in temporary folders: whole outputs,
//! escaping and encoding, splitting, gzip, reproducibility, and bad input.

use crate::common;

use common::{run, run_bin, text, validate_with_xsd, write_tree};
use std::io::Read;
use std::path::{Path, PathBuf};

const ZOLA_CONFIG: &str = "base_url = \"https://example.com\"\ntitle = \"t\"\n";

fn build(site: &Path, extra: &[&str]) -> std::process::Output {
    build_with(Path::new(env!("CARGO_BIN_EXE_sitemapgen")), site, extra)
}

/// `build` with the binary at `bin`.
fn build_with(bin: &Path, site: &Path, extra: &[&str]) -> std::process::Output {
    let s = site.to_str().unwrap();
    let mut args = vec!["build", "--site", s, "--quiet"];
    args.extend_from_slice(extra);
    run_bin(bin, site, &args)
}

#[test]
fn a_small_zola_site_gives_this_exact_sitemap() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", ZOLA_CONFIG),
            ("content/_index.md", "+++\ntitle = \"Home\"\n+++\n"),
            (
                "content/about.md",
                "+++\ntitle = \"About\"\ndate = 2024-01-15\n[extra]\npriority = 0.8\nchangefreq = \"yearly\"\n+++\n",
            ),
            ("content/blog/_index.md", "+++\ntitle = \"Blog\"\n+++\n"),
            (
                "content/blog/2024-03-10-hello.md",
                "+++\ntitle = \"Hello\"\n+++\n",
            ),
            (
                "content/blog/second.md",
                "+++\ndate = 2024-04-02\nupdated = 2024-05-01T09:30:00+02:00\n+++\n",
            ),
            (
                "content/blog/wip.md",
                "+++\ndraft = true\ndate = 2024-07-01\n+++\n",
            ),
        ],
    );
    let o = build(d.path(), &[]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-05-01T09:30:00+02:00</lastmod>
  </url>
  <url>
    <loc>https://example.com/about/</loc>
    <lastmod>2024-01-15</lastmod>
    <changefreq>yearly</changefreq>
    <priority>0.8</priority>
  </url>
  <url>
    <loc>https://example.com/blog/</loc>
    <lastmod>2024-05-01T09:30:00+02:00</lastmod>
  </url>
  <url>
    <loc>https://example.com/blog/hello/</loc>
    <lastmod>2024-03-10</lastmod>
  </url>
  <url>
    <loc>https://example.com/blog/second/</loc>
    <lastmod>2024-05-01T09:30:00+02:00</lastmod>
  </url>
</urlset>
"#
    );
    validate_with_xsd(&[d.path().join("public/sitemap.xml")]);
}

#[test]
fn locs_are_percent_encoded_and_xml_escaped() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "config.toml",
                "base_url = \"https://example.com\"\n[slugify]\npaths = \"off\"\n",
            ),
            ("content/a&b.md", "+++\n+++\n"),
            ("content/it's.md", "+++\n+++\n"),
            ("content/say \"hi\".md", "+++\n+++\n"),
            ("content/x<y>z.md", "+++\n+++\n"),
            ("content/über uns.md", "+++\n+++\n"),
            ("content/日本.md", "+++\n+++\n"),
        ],
    );
    let o = build(d.path(), &["--style", "zola"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    let locs: Vec<&str> = xml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("<loc>"))
        .map(|l| l.trim_end_matches("</loc>"))
        .collect();
    assert_eq!(
        locs,
        [
            "https://example.com/",
            "https://example.com/%C3%BCber%20uns/",
            "https://example.com/%E6%97%A5%E6%9C%AC/",
            "https://example.com/a&amp;b/",
            "https://example.com/it&apos;s/",
            "https://example.com/say%20%22hi%22/",
            "https://example.com/x%3Cy%3Ez/",
        ]
    );
    validate_with_xsd(&[d.path().join("public/sitemap.xml")]);
}

/// The binary the large-site check runs: `SITEMAPGEN_BIN` when set (CI gives it the release
/// build), else this build's.
fn large_check_binary() -> PathBuf {
    let bin = std::env::var_os("SITEMAPGEN_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_sitemapgen")),
        PathBuf::from,
    );
    // The run's cwd is the site, so a relative path must be made absolute here.
    std::path::absolute(bin).unwrap()
}

/// 120,000 files through a debug binary took minutes of the debug test run, so this is
/// ignored there and `.ci/run` runs it with the release binary:
/// `SITEMAPGEN_BIN=target/release/sitemapgen cargo test --test it -- --ignored build::`
/// (`cargo test --release --test it -- --ignored build::` works too, but rebuilds the release
/// library with the dev-dependencies' features). The split itself is covered quickly by
/// sitemap/urlset.rs's unit tests and tests/it/write.rs.
#[test]
#[ignore = "large: .ci/run runs it with the release binary"]
fn a_120000_page_site_is_split_into_valid_parts_and_an_index() {
    let d = tempfile::tempdir().unwrap();
    let content = d.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::write(d.path().join("config.toml"), ZOLA_CONFIG).unwrap();
    for s in 0..120 {
        let dir = content.join(format!("s{s:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("_index.md"), "+++\n+++\n").unwrap();
        for p in 0..1000 {
            let day = 1 + (s * 1000 + p) % 28;
            std::fs::write(
                dir.join(format!("p{p:04}.md")),
                format!("+++\ndate = 2024-02-{day:02}\n+++\n"),
            )
            .unwrap();
        }
    }
    // mtime would date the sections today: read dates from front matter only.
    let config = d.path().join("sitemap.toml");
    let lastmod = "lastmod = [\"front_matter\", \"published\"]\n";
    let public = d.path().join("public");
    // Parts `sitemap1.xml`, … of at most `per_part` URLs each, checked and counted.
    let parts = |index: &str, n: usize, per_part: usize| {
        assert!(
            index.contains("<sitemapindex"),
            "{}",
            &index[..200.min(index.len())]
        );
        let mut total = 0;
        let mut files = vec![public.join("sitemap.xml")];
        for k in 1..=n {
            let part = public.join(format!("sitemap{k}.xml"));
            let x = std::fs::read_to_string(&part).unwrap();
            let count = x.matches("<url>").count();
            assert!(count <= per_part, "sitemap{k}.xml: {count} URLs");
            total += count;
            assert!(index.contains(&format!("<loc>https://example.com/sitemap{k}.xml</loc>")));
            files.push(part);
        }
        assert!(!public.join(format!("sitemap{}.xml", n + 1)).exists());
        // 120,000 pages + 120 sections + home.
        assert_eq!(total, 120_121);
        files
    };

    // Zola's own layout (the default): parts of 30,000, as Zola 0.22.1 splits.
    std::fs::write(&config, lastmod).unwrap();
    let args = ["--config", config.to_str().unwrap()];
    let o = build_with(&large_check_binary(), d.path(), &args);
    assert!(o.status.success(), "{}", text(&o));
    let index = std::fs::read_to_string(public.join("sitemap.xml")).unwrap();
    validate_with_xsd(&parts(&index, 5, 30_000));

    // One sitemap split only past the protocol's 50,000: three parts, and the two parts
    // the last run wrote beyond them removed as ours.
    std::fs::write(&config, format!("{lastmod}layout = \"single\"\n")).unwrap();
    let o = build_with(&large_check_binary(), d.path(), &args);
    assert!(o.status.success(), "{}", text(&o));
    let index = std::fs::read_to_string(public.join("sitemap.xml")).unwrap();
    let files = parts(&index, 3, 50_000);
    assert!(!public.join("sitemap5.xml").exists());
    assert_eq!(
        index.matches("<lastmod>2024-02-28</lastmod>").count(),
        3,
        "each part's newest lastmod:\n{index}"
    );
    validate_with_xsd(&files);
}

#[test]
fn gzip_output_validates_and_is_byte_identical_across_runs() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", ZOLA_CONFIG),
            ("content/a.md", "+++\ndate = 2024-01-01\n+++\n"),
            ("content/b.md", "+++\n+++\n"),
        ],
    );
    let o = build(d.path(), &["--gzip"]);
    assert!(o.status.success(), "{}", text(&o));
    let gz = d.path().join("public/sitemap.xml.gz");
    let first = std::fs::read(&gz).unwrap();
    let mut xml = String::new();
    flate2::read::GzDecoder::new(&first[..])
        .read_to_string(&mut xml)
        .unwrap();
    assert!(xml.starts_with("<?xml") && xml.contains("<loc>https://example.com/a/</loc>"));
    assert!(build(d.path(), &["--gzip"]).status.success());
    assert_eq!(std::fs::read(&gz).unwrap(), first, "same input, same bytes");
    validate_with_xsd(&[gz]);
}

#[test]
fn a_second_run_writes_the_same_bytes() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", ZOLA_CONFIG),
            ("content/z.md", "+++\n+++\n"),
            ("content/a/_index.md", "+++\n+++\n"),
            ("content/a/b.md", "+++\ndate = 2023-01-01\n+++\n"),
        ],
    );
    assert!(build(d.path(), &[]).status.success());
    let first = std::fs::read(d.path().join("public/sitemap.xml")).unwrap();
    assert!(build(d.path(), &[]).status.success());
    assert_eq!(
        std::fs::read(d.path().join("public/sitemap.xml")).unwrap(),
        first
    );
}

/// Each bad input: exit 2, a message naming the file (and line), the old sitemap untouched.
#[test]
fn bad_input_exits_2_names_the_file_and_keeps_the_old_sitemap() {
    let long = format!("+++\nslug = \"{}\"\n+++\n", "a".repeat(2100));
    let cases: [(&str, &str, &str); 4] = [
        (
            "bad-toml.md",
            "+++\ntitle = \"x\"\ndate = = 1\n+++\n",
            "bad-toml.md:3",
        ),
        ("unclosed.md", "+++\ntitle = \"x\"\n", "unclosed.md"),
        ("long.md", &long, "long.md"),
        (
            "escape.md",
            "+++\npath = \"../../outside\"\n+++\n",
            "escape.md",
        ),
    ];
    for (name, body, needle) in cases {
        let d = tempfile::tempdir().unwrap();
        // (The cases above all stop Zola too.)
        write_tree(
            d.path(),
            &[
                ("config.toml", ZOLA_CONFIG),
                ("content/ok.md", "+++\n+++\n"),
            ],
        );
        assert!(build(d.path(), &[]).status.success());
        let before = std::fs::read(d.path().join("public/sitemap.xml")).unwrap();
        write_tree(d.path(), &[(&format!("content/{name}"), body)]);
        let o = build(d.path(), &[]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(needle),
            "{name}: expected '{needle}' in:\n{err}"
        );
        assert_eq!(
            std::fs::read(d.path().join("public/sitemap.xml")).unwrap(),
            before,
            "{name}: the old sitemap changed"
        );
        let leftovers: Vec<_> = std::fs::read_dir(d.path().join("public"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        // The sitemap, nothing else (the record of ours is kept outside the folder).
        assert_eq!(
            leftovers.len(),
            1,
            "{name}: temp files left behind: {leftovers:?}"
        );
    }
}

#[test]
fn an_unparseable_date_and_a_foreign_host_are_errors() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", ZOLA_CONFIG),
            (
                "content/d.md",
                "+++\ntitle = \"x\"\ndate = \"last tuesday\"\n+++\n",
            ),
        ],
    );
    let o = build(d.path(), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("d.md:3"),
        "{}",
        text(&o)
    );
    assert!(!d.path().join("public/sitemap.xml").exists());

    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            ("content/x.md", "---\nurl: https://evil.example/x/\n---\n"),
        ],
    );
    let o = build(d.path(), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("x.md"),
        "{}",
        text(&o)
    );
}

#[test]
fn an_extra_url_longer_than_the_protocol_allows_is_refused() {
    for extra in [
        format!("/{}/", "a".repeat(2100)),
        format!("https://example.com/{}", "b".repeat(2100)),
    ] {
        let d = tempfile::tempdir().unwrap();
        let toml = format!("extra_urls = [\"{extra}\"]\n");
        write_tree(
            d.path(),
            &[
                ("config.toml", ZOLA_CONFIG),
                ("content/_index.md", "+++\n+++\n"),
                ("sitemap.toml", &toml),
            ],
        );
        let out = build(d.path(), &[]);
        let all = text(&out);
        assert_eq!(out.status.code(), Some(2), "{all}");
        assert!(
            all.contains("extra_urls: a URL of") && all.contains("2047"),
            "{all}"
        );
        assert!(!d.path().join("public/sitemap.xml").exists());
    }
}

#[test]
fn bad_usage_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let o = run(d.path(), &["build", "--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // An empty folder is no site; a folder of pages without a base URL needs one.
    let o = run(d.path(), &["build", "--site", d.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "no site: {}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no site here"),
        "{}",
        text(&o)
    );
    write_tree(d.path(), &[("content/a.md", "# A\n")]);
    let o = run(d.path(), &["build", "--site", d.path().to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "no base_url anywhere: {}",
        text(&o)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no base_url"),
        "{}",
        text(&o)
    );
}

/// Zola reads nothing in `extra`, so a value there the protocol cannot carry never stops a
/// build Zola makes: it is left out with a warning naming the file and line.
#[test]
fn a_bad_extra_value_on_a_zola_page_is_a_warning() {
    for (body, needle) in [
        (
            "+++\ntitle = \"f\"\n[extra]\nchangefreq = \"fortnightly\"\n+++\n",
            "freq.md:4",
        ),
        (
            "+++\ntitle = \"f\"\n[extra]\npriority = 1.5\n+++\n",
            "freq.md:4",
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        write_tree(
            d.path(),
            &[("config.toml", ZOLA_CONFIG), ("content/freq.md", body)],
        );
        // Not `--quiet`: the warning is what is checked.
        let bin = Path::new(env!("CARGO_BIN_EXE_sitemapgen"));
        let o = run_bin(
            bin,
            d.path(),
            &["build", "--site", d.path().to_str().unwrap()],
        );
        assert!(o.status.success(), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle) && err.contains("left out"), "{err}");
        let xml = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
        assert!(
            xml.contains("/freq/") && !xml.contains("<changefreq>") && !xml.contains("<priority>"),
            "{xml}"
        );
    }
}
