//! The commands as users run them, in temporary sites: `check`'s exit codes and its promise to
//! write nothing, `validate`, `list` against what `build` writes, `init`, the summary's forms,
//! and the pre-commit hooks and GitHub Action at the repository root.

use crate::common;
use crate::common::{stderr, stdout};

use common::{run, text, write_tree};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Zola's own sitemap off, as the README asks, so sitemapgen's is the only one.
const ZOLA_CONFIG: &str =
    "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";

/// A small Zola site: a home, a section, two posts and a draft.
fn zola_site(root: &Path) {
    write_tree(
        root,
        &[
            ("config.toml", ZOLA_CONFIG),
            ("content/_index.md", "+++\ntitle = \"Home\"\n+++\n"),
            ("content/blog/_index.md", "+++\ntitle = \"Blog\"\n+++\n"),
            (
                "content/blog/first.md",
                "+++\ntitle = \"First\"\ndate = 2024-01-15\n[extra]\npriority = 0.8\n+++\n",
            ),
            (
                "content/blog/second.md",
                "+++\ntitle = \"Second\"\ndate = 2024-02-01\nupdated = 2024-03-01T10:00:00+01:00\n+++\n",
            ),
            (
                "content/blog/wip.md",
                "+++\ntitle = \"WIP\"\ndraft = true\n+++\n",
            ),
        ],
    );
}

fn site_args<'a>(site: &'a Path, cmd: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![cmd, "--site", site.to_str().unwrap()];
    args.extend_from_slice(extra);
    args
}

/// Every file below `dir` with its bytes and mtime: equal snapshots mean nothing was touched.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let p = e.path().to_path_buf();
            let m = std::fs::metadata(&p).unwrap().modified().unwrap();
            (p.clone(), (std::fs::read(&p).unwrap(), m))
        })
        .collect()
}

fn build(site: &Path) {
    let o = run(site, &site_args(site, "build", &["--quiet"]));
    assert!(o.status.success(), "{}", text(&o));
}

// ---------------------------------------------------------------- check

#[test]
fn check_is_0_when_fresh_1_when_stale_2_when_broken_and_never_writes() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    build(site);
    let public = site.join("public");
    let before = snapshot(&public);
    // The sitemap, and nothing else of ours (the record is kept outside the folder).
    assert_eq!(before.len(), 1, "{before:?}");

    // fresh
    let o = run(site, &site_args(site, "check", &[]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stderr(&o).contains("is up to date (4 URLs)"),
        "{}",
        text(&o)
    );
    assert_eq!(snapshot(&public), before);

    // stale: a new page, a removed one, a changed date
    write_tree(
        site,
        &[
            ("content/blog/third.md", "+++\ndate = 2024-04-01\n+++\n"),
            (
                "content/blog/first.md",
                "+++\ntitle = \"First\"\ndate = 2024-01-15\nupdated = 2024-05-05\n[extra]\npriority = 0.8\n+++\n",
            ),
        ],
    );
    std::fs::remove_file(site.join("content/blog/second.md")).unwrap();
    let o = run(site, &site_args(site, "check", &[]));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("URL added (1):\n  https://example.com/blog/third/\n"),
        "{out}"
    );
    assert!(
        out.contains("URL removed (1):\n  https://example.com/blog/second/\n"),
        "{out}"
    );
    assert!(
        out.contains("https://example.com/blog/first/: 2024-01-15 -> 2024-05-05"),
        "{out}"
    );
    assert!(out.contains("run `sitemapgen build`"), "{out}");
    assert_eq!(
        snapshot(&public),
        before,
        "check wrote to the output folder"
    );

    // the same as JSON
    let o = run(site, &site_args(site, "check", &["--format", "json"]));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["clean"], false);
    assert_eq!(
        j["added"],
        serde_json::json!(["https://example.com/blog/third/"])
    );
    assert_eq!(
        j["removed"],
        serde_json::json!(["https://example.com/blog/second/"])
    );
    assert_eq!(j["changed"][0]["new"], "2024-05-05");
    assert_eq!(j["excluded_total"], 1);

    // broken front matter: an input error, exit 2, naming the file and line
    write_tree(
        site,
        &[("content/blog/bad.md", "+++\ntitle = \"unterminated\n+++\n")],
    );
    let o = run(site, &site_args(site, "check", &[]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("bad.md:2"), "{}", text(&o));
    assert_eq!(snapshot(&public), before);
}

#[test]
fn check_names_missing_files_and_a_stale_robots_txt() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    write_tree(
        site,
        &[("sitemap.toml", "robots_txt = true\nsitemap_txt = true\n")],
    );
    let cfg = site.join("sitemap.toml");
    let cfg = cfg.to_str().unwrap();
    // Nothing built yet: every file is missing.
    let o = run(site, &["check", "--config", cfg]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(stdout(&o).contains("files missing (2):"), "{}", text(&o));
    assert!(
        stdout(&o).contains("robots.txt: the Sitemap: line is missing"),
        "{}",
        text(&o)
    );
    assert!(
        !site.join("public").exists(),
        "check created the output folder"
    );

    let o = run(site, &["build", "--config", cfg]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(site, &["check", "--config", cfg]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // Someone rewrote robots.txt without our line.
    std::fs::write(site.join("public/robots.txt"), "User-agent: *\nDisallow:\n").unwrap();
    let o = run(site, &["check", "--config", cfg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["robots_txt_stale"], true);
    assert_eq!(j["added"], serde_json::json!([]));
    assert_eq!(
        std::fs::read_to_string(site.join("public/robots.txt")).unwrap(),
        "User-agent: *\nDisallow:\n"
    );
}

// ---------------------------------------------------------------- validate

#[test]
fn validate_exits_0_on_ours_1_on_broken_2_on_missing() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    build(site);
    let ours = site.join("public/sitemap.xml");
    let o = run(site, &["validate", ours.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stdout(&o).contains("(4 entries): no problems"),
        "{}",
        text(&o)
    );

    let broken = site.join("broken.xml");
    std::fs::write(
        &broken,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.com/a</loc><lastmod>2024-13-01</lastmod></url>\n</urlset>\n",
    )
    .unwrap();
    let b = broken.to_str().unwrap();
    let o = run(site, &["validate", b]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stdout(&o).contains(&format!("{b}:3: error: Invalid date")),
        "{}",
        text(&o)
    );

    // --quiet: the error lines only, no summary
    let o = run(site, &["validate", "--quiet", b]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("{b}:3: error: Invalid date")),
        "{out}"
    );
    assert!(!out.contains("validated"), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");

    // --format json
    let o = run(
        site,
        &["validate", "--format", "json", b, ours.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["errors"], 1);
    assert_eq!(j["files"][0]["findings"][0]["name"], "Invalid date");
    assert_eq!(j["files"][0]["findings"][0]["line"], 3);
    assert_eq!(j["files"][1]["kind"], "urlset");
    assert_eq!(j["files"][1]["entries"], 4);
    assert_eq!(j["files"][1]["errors"], 0);

    let missing = site.join("nope.xml");
    let o = run(site, &["validate", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("nope.xml"), "{}", text(&o));
    let o = run(
        site,
        &["validate", "--format", "json", missing.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["unreadable"].as_array().unwrap().len(), 1);
}

// ---------------------------------------------------------------- list

/// (loc, lastmod) of every `<url>` in a sitemap, XML-unescaped.
fn sitemap_rows(xml: &str) -> Vec<(String, Option<String>)> {
    let field = |block: &str, tag: &str| {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        block.find(&open).map(|a| {
            let b = block.find(&close).unwrap();
            common::xml_unescape(&block[a + open.len()..b])
        })
    };
    xml.split("<url>")
        .skip(1)
        .map(|b| (field(b, "loc").unwrap(), field(b, "lastmod")))
        .collect()
}

#[test]
fn list_jsonl_is_what_build_writes() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    write_tree(
        site,
        &[
            ("content/a&b.md", "+++\ndate = 2023-06-01\n+++\n"),
            (
                "config.toml",
                "base_url = \"https://example.com\"\n[slugify]\npaths = \"off\"\n",
            ),
        ],
    );
    let o = run(site, &site_args(site, "list", &["--format", "jsonl"]));
    assert!(o.status.success(), "{}", text(&o));
    let rows: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!site.join("public").exists(), "list wrote something");
    build(site);
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    let want = sitemap_rows(&xml);
    let got: Vec<(String, Option<String>)> = rows
        .iter()
        .map(|r| {
            (
                r["loc"].as_str().unwrap().to_string(),
                r["lastmod"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(got, want);
    // Escaped in the file, plain in the list.
    assert!(
        xml.contains("<loc>https://example.com/a&amp;b/</loc>"),
        "{xml}"
    );
    assert!(
        want.iter().any(|(l, _)| l == "https://example.com/a&b/"),
        "{want:?}"
    );

    let first = rows
        .iter()
        .find(|r| r["loc"] == "https://example.com/blog/first/")
        .unwrap();
    assert_eq!(first["priority"], 0.8);
    assert_eq!(first["lastmod"], "2024-01-15");
    assert!(first["lastmod_source"].is_string(), "{first}");
    assert!(
        first["file"]
            .as_str()
            .unwrap()
            .ends_with("content/blog/first.md"),
        "{first}"
    );

    // text: one tab-separated row per URL, same order
    let o = run(site, &site_args(site, "list", &[]));
    let locs: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(locs, want.iter().map(|w| w.0.clone()).collect::<Vec<_>>());

    // --excluded: the draft, and why
    let o = run(
        site,
        &site_args(site, "list", &["--excluded", "--format", "jsonl"]),
    );
    assert!(o.status.success(), "{}", text(&o));
    let ex: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ex.len(), 1, "{ex:?}");
    assert!(ex[0]["file"].as_str().unwrap().ends_with("wip.md"));
    assert_eq!(ex[0]["reason"], "draft");
}

// ---------------------------------------------------------------- init

fn init_then_build(site: &Path) -> (sitemapgen::settings::FileConfig, String) {
    let o = run(site, &["init"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stderr(&o).contains("sitemap.toml"), "{}", text(&o));
    let path = site.join("sitemap.toml");
    let written = std::fs::read_to_string(&path).unwrap();
    let cfg = sitemapgen::settings::read_file_config(&path).unwrap();
    // A build with it, from the site's folder (where ./sitemap.toml is read by default).
    let o = run(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(site.join("public/sitemap.xml").is_file());

    // Never overwrite.
    std::fs::write(&path, "# mine\n").unwrap();
    let o = run(site, &["init"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("already exists"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");
    (cfg, written)
}

#[test]
fn init_on_a_zola_site() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    write_tree(
        site,
        &[(
            "config.toml",
            "base_url = \"https://zola.example.org/\"\ndefault_language = \"en\"\noutput_dir = \"dist\"\ntaxonomies = [{ name = \"tags\" }]\n[languages.fr]\n",
        )],
    );
    let o = run(site, &["init"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o)
            .contains("base_url https://zola.example.org/, read from config.toml at every run"),
        "{}",
        text(&o)
    );
    // The site's own values are read from its config at every run, not copied.
    let cfg = sitemapgen::settings::read_file_config(&site.join("sitemap.toml")).unwrap();
    assert_eq!(cfg.base_url, None);
    assert_eq!(cfg.style, Some(sitemapgen::settings::Style::Zola));
    assert_eq!(cfg.content_dir, None);
    assert_eq!(cfg.output_dir, None);
    let written = std::fs::read_to_string(site.join("sitemap.toml")).unwrap();
    assert!(
        written.contains("Languages found: en, fr (default en)"),
        "{written}"
    );
    assert!(written.contains("Taxonomies found: tags"), "{written}");
    let o = run(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(site.join("dist/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<loc>https://zola.example.org/blog/first/</loc>"),
        "{xml}"
    );
    // The site moves domain in its own config: the sitemap follows, with no warning.
    let moved = "base_url = \"https://moved.example.org/\"\ndefault_language = \"en\"\noutput_dir = \"dist\"\ntaxonomies = [{ name = \"tags\" }]\n[languages.fr]\n";
    std::fs::write(site.join("config.toml"), moved).unwrap();
    let o = run(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!stderr(&o).contains("differs"), "{}", text(&o));
    let xml = std::fs::read_to_string(site.join("dist/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<loc>https://moved.example.org/blog/first/</loc>"),
        "{xml}"
    );
}

/// sitemap.toml's `base_url` where the site's config says another is a warning naming both
/// (file and line), from `build` and `check`; the same URL, or `--base-url`, says nothing.
#[test]
fn a_base_url_that_differs_from_the_sites_is_a_warning_naming_both() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    write_tree(
        site,
        &[
            (
                "config.toml",
                "title = \"t\"\nbase_url = \"https://new.example/\"\n",
            ),
            (
                "sitemap.toml",
                "# moved?\nbase_url = \"https://old.example\"\n",
            ),
        ],
    );
    let want = "sitemap.toml:2: base_url = \"https://old.example/\" differs from base_url = \"https://new.example/\" in ";
    for cmd in ["build", "check"] {
        let o = run(site, &[cmd]);
        assert!(stderr(&o).contains(want), "{cmd}: {}", text(&o));
        assert!(stderr(&o).contains("config.toml:2"), "{cmd}: {}", text(&o));
    }
    let o = run(site, &["build", "--base-url", "https://preview.example/"]);
    assert!(!stderr(&o).contains("differs"), "{}", text(&o));
    std::fs::write(
        site.join("sitemap.toml"),
        "base_url = \"https://new.example\"\n",
    )
    .unwrap();
    let o = run(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!stderr(&o).contains("differs"), "{}", text(&o));
}

#[test]
fn init_on_a_hugo_site_and_never_overwrites() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://hugo.example.org/\"\ntitle = \"t\"\ntimeZone = \"Europe/Paris\"\n",
            ),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            (
                "content/posts/hello.md",
                "---\ntitle: Hello\ndate: 2024-01-02\n---\n",
            ),
        ],
    );
    let (cfg, written) = init_then_build(site);
    assert_eq!(cfg.base_url, None);
    assert!(
        written.contains("read from hugo.toml at every run (now https://hugo.example.org/)"),
        "{written}"
    );
    assert_eq!(cfg.style, Some(sitemapgen::settings::Style::Hugo));
    assert_eq!(cfg.output_dir, None);
    assert!(written.contains("from hugo.toml"), "{written}");
    assert!(written.contains("Europe/Paris"), "{written}");
}

#[test]
fn init_elsewhere_points_back_at_the_site() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().join("site");
    zola_site(&site);
    let cfg_path = d.path().join("conf/sitemap.toml");
    std::fs::create_dir_all(cfg_path.parent().unwrap()).unwrap();
    let o = run(
        d.path(),
        &["init", "--site", "site", "--config", "conf/sitemap.toml"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains("--config conf/sitemap.toml"),
        "{}",
        text(&o)
    );
    let cfg = sitemapgen::settings::read_file_config(&cfg_path).unwrap();
    assert_eq!(cfg.site_dir, Some(PathBuf::from("../site")));
    assert_eq!(cfg.content_dir, None);
    let written = std::fs::read_to_string(&cfg_path).unwrap();
    assert!(
        written.contains("# content_dir = \"../site/content\""),
        "{written}"
    );
    let o = run(
        d.path(),
        &["build", "--config", "conf/sitemap.toml", "--quiet"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(site.join("public/sitemap.xml").is_file());
}

#[test]
fn init_on_a_plain_folder_leaves_base_url_to_the_user() {
    let d = tempfile::tempdir().unwrap();
    write_tree(d.path(), &[("content/index.md", "# hi\n")]);
    let o = run(d.path(), &["init"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stderr(&o).contains("no usable base_url"), "{}", text(&o));
    let cfg = sitemapgen::settings::read_file_config(&d.path().join("sitemap.toml")).unwrap();
    assert_eq!(cfg.style, Some(sitemapgen::settings::Style::Plain));
    assert_eq!(cfg.base_url, None);
    // A build then says what is missing, instead of guessing a URL.
    let o = run(d.path(), &["build"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("no base_url"), "{}", text(&o));
    // --base-url fills it in.
    let e = tempfile::tempdir().unwrap();
    write_tree(e.path(), &[("content/index.md", "# hi\n")]);
    let o = run(e.path(), &["init", "--base-url", "ftp://nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!e.path().join("sitemap.toml").exists());
    let o = run(e.path(), &["init", "--base-url", "https://plain.example/"]);
    assert!(o.status.success(), "{}", text(&o));
    let cfg = sitemapgen::settings::read_file_config(&e.path().join("sitemap.toml")).unwrap();
    assert_eq!(cfg.base_url.as_deref(), Some("https://plain.example/"));
    let o = run(e.path(), &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let xml = std::fs::read_to_string(e.path().join("public/sitemap.xml")).unwrap();
    assert!(xml.contains("<loc>https://plain.example/"), "{xml}");
}

// ---------------------------------------------------------------- output

#[test]
fn summary_line_quiet_and_json() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_site(site);
    write_tree(
        site,
        &[(
            "sitemap.toml",
            "sitemap_txt = true\n[[rules]]\npattern = \"blog/second.md\"\nexclude = true\n",
        )],
    );
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .arg("build")
        .current_dir(site)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let err = stderr(&o);
    let last = err.lines().last().unwrap();
    // The sitemap is named, not sitemap.txt (written after it).
    assert!(
        last.starts_with("wrote 3 URLs to ./public/sitemap.xml in "),
        "{err}"
    );
    assert!(
        last.ends_with(" s; 1 draft and 1 excluded page left out"),
        "{err}"
    );
    // The draft and the excluded page were chosen: counted above, not warned about.
    assert!(!err.contains("warning:"), "{err}");
    assert!(!err.contains('\x1b'), "colour despite NO_COLOR: {err:?}");
    assert!(stdout(&o).is_empty());

    let o = run(site, &["build", "--quiet"]);
    assert!(o.status.success());
    assert!(o.stderr.is_empty() && o.stdout.is_empty(), "{}", text(&o));

    let o = run(site, &["build", "--format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(o.stderr.is_empty(), "{}", text(&o));
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["urls"], 3);
    assert_eq!(j["sitemap"], "./public/sitemap.xml");
    assert_eq!(
        j["files"],
        serde_json::json!(["./public/sitemap.xml", "./public/sitemap.txt"])
    );
    assert_eq!(j["excluded"]["draft"], 1);
    assert_eq!(j["excluded"]["excluded"], 1);
    assert_eq!(j["excluded_total"], 2);
    assert!(j["warnings"].is_array());
    assert!(j["seconds"].is_number());

    let o = run(site, &["build", "--verbose"]);
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("note: ./content/blog/second.md: left out"),
        "{}",
        text(&o)
    );
}

// ---------------------------------------------------------------- hooks and action

fn yaml(path: &str) -> Value {
    use gray_matter::engine::{Engine, YAML};
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    YAML::parse(&text).unwrap().deserialize().unwrap()
}

/// The subcommands `sitemapgen --help` lists.
fn subcommands() -> Vec<String> {
    let o = run(Path::new("."), &["--help"]);
    let help = stdout(&o);
    let start = help.find("Commands:").unwrap();
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn pre_commit_hooks_name_the_binary_and_real_subcommands() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "sitemapgen",
            "sitemapgen-check",
            "sitemapgen-system",
            "sitemapgen-check-system"
        ]
    );
    let subs = subcommands();
    assert!(subs.contains(&"check".to_string()), "{subs:?}");
    let wants = [
        ("build", "rust"),
        ("check", "rust"),
        ("build", "system"),
        ("check", "system"),
    ];
    for (h, (want, language)) in hooks.iter().zip(wants) {
        let entry: Vec<&str> = h["entry"].as_str().unwrap().split_whitespace().collect();
        assert_eq!(entry[0], env!("CARGO_PKG_NAME"), "{h}");
        assert_eq!(entry[1], want, "{h}");
        assert!(subs.iter().any(|s| s == entry[1]), "{h}: not a subcommand");
        assert_eq!(h["language"], language);
        assert_eq!(h["pass_filenames"], false);
        assert_eq!(h["require_serial"], true);
        // Content, sitemap.toml and the site's config each change the sitemap.
        let files = regex_automata::meta::Regex::new(h["files"].as_str().unwrap()).unwrap();
        for staged in [
            "content/a.md",
            "sitemap.toml",
            "config.toml",
            "zola.toml",
            "hugo.yaml",
            "config/_default/hugo.toml",
        ] {
            assert!(files.is_match(staged), "{h}: {staged}");
        }
        for other in [
            "static/sitemap.toml",
            "public/sitemap.xml",
            "README.md",
            "themes/x/config.toml",
        ] {
            assert!(!files.is_match(other), "{h}: {other}");
        }
    }
}

/// Every `inputs.NAME` an expression names, anywhere in `v`.
fn inputs_used(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(i) = rest.find("inputs.") {
                rest = &rest[i + 7..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| inputs_used(v, out)),
        Value::Object(o) => o.values().for_each(|v| inputs_used(v, out)),
        _ => {}
    }
}

#[test]
fn action_declares_the_inputs_its_steps_use_and_scripts_take_them_from_env() {
    let action = yaml("action.yml");
    let declared: std::collections::BTreeSet<String> = action["inputs"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        declared,
        [
            "args",
            "base-url",
            "cache-history",
            "check",
            "config",
            "diff",
            "indexnow-key",
            "indexnow-state",
            "report",
            "since",
            "site",
            "submit",
        ]
        .map(String::from)
        .into()
    );
    let mut used = std::collections::BTreeSet::new();
    inputs_used(&action["runs"]["steps"], &mut used);
    assert_eq!(used, declared);
    assert_eq!(action["runs"]["using"], "composite");
    for step in action["runs"]["steps"].as_array().unwrap() {
        // The steps that run an action: the caches of a binary built from source and of
        // what a run kept of the git history.
        if let Some(uses) = step["uses"].as_str() {
            assert_eq!(uses, "actions/cache@v4", "{step}");
            continue;
        }
        let script = step["run"].as_str().unwrap();
        assert!(
            !script.contains("${{"),
            "expression inside a script: {step}"
        );
        assert_eq!(step["shell"], "bash");
    }
    for (name, out) in action["outputs"].as_object().unwrap() {
        assert_eq!(
            out["value"],
            format!("${{{{ steps.run.outputs.{name} }}}}"),
            "{name}"
        );
    }
    let outputs: Vec<&String> = action["outputs"].as_object().unwrap().keys().collect();
    assert_eq!(
        outputs,
        [
            "excluded-count",
            "sitemap-path",
            "submitted-count",
            "url-count"
        ]
    );
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_COMMITTER_DATE", "2024-06-01T12:00:00+00:00")
        .env("GIT_AUTHOR_DATE", "2024-06-01T12:00:00+00:00")
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o));
}

struct ActionRun {
    output: Output,
    outputs: BTreeMap<String, String>,
    summary: String,
    /// What the step added to GITHUB_PATH.
    path_added: String,
}

/// Runs the action step `id` as the runner would: bash, its env with `inputs` substituted,
/// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY in temp files, and the built binary on PATH.
fn run_step(repo: &Path, id: &str, inputs: &[(&str, &str)]) -> ActionRun {
    run_step_with(repo, id, inputs, &[("PATH", &path_with_bin())])
}

/// PATH with the built binary's folder first.
fn path_with_bin() -> String {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .parent()
        .unwrap();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// [`run_step`] with `env` (PATH among it) set as given; `${{ github.* }}` expressions read
/// from `env` too (`github.action_ref` as `github.action_ref`), else empty.
fn run_step_with(
    repo: &Path,
    id: &str,
    inputs: &[(&str, &str)],
    env: &[(&str, &str)],
) -> ActionRun {
    let action = yaml("action.yml");
    let step = action["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
        .clone();
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("step.sh");
    std::fs::write(&script, step["run"].as_str().unwrap()).unwrap();
    let (out_file, summary_file) = (tmp.path().join("out"), tmp.path().join("summary"));
    std::fs::write(&out_file, "").unwrap();
    std::fs::write(&summary_file, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&script)
        .current_dir(repo)
        .env("GITHUB_WORKSPACE", repo)
        .env("GITHUB_OUTPUT", &out_file)
        .env("GITHUB_STEP_SUMMARY", &summary_file)
        .env("GITHUB_PATH", tmp.path().join("path"))
        .env("RUNNER_TEMP", tmp.path())
        .env_remove("SOURCE_DATE_EPOCH")
        .envs(env.iter().copied());
    let defaults = &action["inputs"];
    for (k, v) in step["env"].as_object().into_iter().flatten() {
        let v = v.as_str().unwrap();
        let value = match v
            .strip_prefix("${{ inputs.")
            .and_then(|r| r.strip_suffix(" }}"))
        {
            Some(name) => inputs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
                .unwrap_or_else(|| defaults[name]["default"].as_str().unwrap().to_string()),
            None => match v.strip_prefix("${{ ").and_then(|r| r.strip_suffix(" }}")) {
                Some(expr) => env
                    .iter()
                    .find(|(n, _)| *n == expr)
                    .map_or(String::new(), |(_, v)| v.to_string()),
                None => v.to_string(),
            },
        };
        cmd.env(k, value);
    }
    let output = cmd.output().unwrap();
    let outputs = std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    ActionRun {
        output,
        outputs,
        summary: std::fs::read_to_string(&summary_file).unwrap(),
        path_added: std::fs::read_to_string(tmp.path().join("path")).unwrap_or_default(),
    }
}

/// The test site in a repository at `origin`, committed, then `content/blog/<page>` added in a
/// second commit; its `file://` URL, to clone shallow.
fn two_commits(origin: &Path, page: &str) -> String {
    zola_site(origin);
    git(origin, &["init", "-q"]);
    git(origin, &["add", "."]);
    git(origin, &["commit", "-q", "-m", "one"]);
    let title = page.trim_end_matches(".md");
    write_tree(
        origin,
        &[(
            &format!("content/blog/{page}"),
            &format!("+++\ntitle = \"{title}\"\n+++\n"),
        )],
    );
    git(origin, &["add", "."]);
    git(origin, &["commit", "-q", "-m", "two"]);
    format!("file://{}", origin.display())
}

#[test]
fn action_summary_says_how_a_shallow_clone_was_dated() {
    if !have("jq") || !have("git") {
        eprintln!("note: jq or git missing: the action's script is not run");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let url = two_commits(&d.path().join("origin"), "third.md");
    for (name, ci, says) in [
        (
            "never",
            "",
            "Dates: 0 pages dated by their last commit; 4 took their next lastmod source: the history of the shallow clone does not reach their last change (`fetch-depth: 0` dates them all).",
        ),
        (
            "auto",
            "true",
            "Dates: 4 pages dated by their last commit (the history of the shallow clone fetched in ",
        ),
    ] {
        git(d.path(), &["clone", "-q", "--depth", "1", &url, name]);
        let path = path_with_bin();
        let r = run_step_with(
            &d.path().join(name),
            "run",
            &[],
            &[("PATH", &path), ("CI", ci)],
        );
        assert!(r.output.status.success(), "{}", text(&r.output));
        assert!(r.summary.contains(says), "{name}: {}", r.summary);
    }
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

#[test]
fn action_script_runs_in_a_git_repo_and_sets_its_outputs() {
    if !have("jq") || !have("git") {
        eprintln!("note: jq or git missing: the action's script is not run");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let repo = d.path().join("repo");
    zola_site(&repo.join("site"));
    // A priority out of range: a warning on its file and line, for an annotation; GitHub
    // Pages' CNAME: a decision, for a notice.
    write_tree(
        &repo.join("site"),
        &[
            (
                "content/blog/first.md",
                "+++\ntitle = \"First\"\ndate = 2024-01-15\n[extra]\npriority = 7\n+++\n",
            ),
            ("static/CNAME", "example.com\n"),
        ],
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "site"]);

    // sitemapgen is on PATH, so the install step does nothing.
    let r = run_step(&repo, "install", &[]);
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert!(
        stdout(&r.output).starts_with("using "),
        "{}",
        text(&r.output)
    );

    // The folder the history cache keeps: the repository's own git folder's.
    let r = run_step(&repo, "history", &[("site", "site")]);
    assert!(r.output.status.success(), "{}", text(&r.output));
    let kept = std::path::PathBuf::from(&r.outputs["dir"]);
    assert_eq!(
        kept.parent().map(Path::to_path_buf),
        Some(repo.join(".git").canonicalize().unwrap())
    );
    assert!(kept.ends_with("sitemapgen"), "{}", kept.display());

    let r = run_step(&repo, "run", &[("site", "site")]);
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert_eq!(r.outputs["sitemap-path"], "site/public/sitemap.xml");
    // The run kept its walk there, for the cache to save.
    assert!(kept.is_dir(), "{} not written", kept.display());
    assert_eq!(r.outputs["url-count"], "4");
    assert_eq!(r.outputs["excluded-count"], "1");
    assert!(repo.join("site/public/sitemap.xml").is_file());
    assert!(
        r.summary
            .contains("| `site/public/sitemap.xml` | 4 | 1 | 1 |"),
        "{}",
        r.summary
    );
    assert!(r.summary.contains("Left out: draft: 1"), "{}", r.summary);
    // The report follows, with the draft's line.
    assert!(r.summary.contains("\n## Sitemap report: "), "{}", r.summary);
    assert!(
        r.summary
            .contains("**draft** (1): Drafts are not published."),
        "{}",
        r.summary
    );
    // first.md, the blog section and the home page: no date written, one commit.
    assert!(
        r.summary
            .contains("\nDates: 3 pages dated by their last commit.\n"),
        "{}",
        r.summary
    );
    // A warning is an annotation on its file and line, relative to the workspace; the draft,
    // counted above, gets none.
    let out = stdout(&r.output);
    let annotations: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(
        annotations,
        [
            "::warning file=site/content/blog/first.md,line=5,title=sitemapgen::`extra.priority` = '7' is not a number from 0.0 to 1.0: left out",
            "::notice title=sitemapgen::host: github-pages, as site/static/CNAME is there",
        ]
    );
    // git dates: the posts were committed on 2024-06-01, but their front matter wins.
    let xml = std::fs::read_to_string(repo.join("site/public/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<lastmod>2024-03-01T10:00:00+01:00</lastmod>"),
        "{xml}"
    );

    // check: fresh, then stale (exit 1 with the outputs and a summary all the same)
    let r = run_step(&repo, "run", &[("site", "site"), ("check", "true")]);
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert!(r.summary.contains("is up to date: 4 URLs"), "{}", r.summary);
    write_tree(&repo.join("site"), &[("content/blog/new.md", "+++\n+++\n")]);
    let r = run_step(
        &repo,
        "run",
        &[
            ("site", "site"),
            ("check", "true"),
            ("base-url", "https://example.com/"),
        ],
    );
    assert_eq!(r.output.status.code(), Some(1), "{}", text(&r.output));
    assert_eq!(r.outputs["url-count"], "5");
    assert!(r.summary.contains("**stale**"), "{}", r.summary);
    assert!(r.summary.contains("- URLs added: 1"), "{}", r.summary);

    // config and args: a sitemap.toml elsewhere in the workspace, and --gzip
    write_tree(
        &repo,
        &[(
            "conf/sitemap.toml",
            "site_dir = \"../site\"\nbase_url = \"https://other.example/\"\n",
        )],
    );
    let r = run_step(
        &repo,
        "run",
        &[
            ("site", "site"),
            ("config", "conf/sitemap.toml"),
            ("args", "--gzip --drafts"),
        ],
    );
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert_eq!(r.outputs["url-count"], "6");
    assert_eq!(r.outputs["excluded-count"], "0");
    // Relative to the workspace, though the config reached the site through `..`.
    assert_eq!(r.outputs["sitemap-path"], "site/public/sitemap.xml.gz");
    assert!(repo.join("site/public/sitemap.xml.gz").is_file());
    // The config's site_dir names the site when `site` is left alone.
    let r = run_step(&repo, "run", &[("config", "conf/sitemap.toml")]);
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert_eq!(r.outputs["sitemap-path"], "site/public/sitemap.xml");

    // a missing site folder or config file: exit 2 with an ::error line, as documented
    for inputs in [&[("site", "nosuch")][..], &[("config", "nosuch.toml")]] {
        let r = run_step(&repo, "run", inputs);
        assert_eq!(r.output.status.code(), Some(2), "{}", text(&r.output));
        let out = stdout(&r.output);
        assert!(
            out.starts_with("::error title=sitemapgen::the ") && out.contains("does not exist"),
            "{}",
            text(&r.output)
        );
    }

    // broken input: the step fails with the tool's message and an ::error line
    write_tree(
        &repo.join("site"),
        &[("content/bad.md", "+++\nx = \n+++\n")],
    );
    let r = run_step(&repo, "run", &[("site", "site")]);
    assert_eq!(r.output.status.code(), Some(2), "{}", text(&r.output));
    assert!(
        stdout(&r.output).contains("::error title=sitemapgen::"),
        "{}",
        text(&r.output)
    );
    assert!(stderr(&r.output).contains("bad.md"), "{}", text(&r.output));
}

#[test]
fn action_script_warns_on_a_shallow_clone() {
    if !have("jq") || !have("git") {
        eprintln!("note: jq or git missing: the action's script is not run");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let url = two_commits(&d.path().join("origin"), "more.md");
    git(d.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    // Outside CI: sitemapgen fetches no history (git_fetch's default there).
    let path = path_with_bin();
    let r = run_step_with(
        &d.path().join("clone"),
        "run",
        &[],
        &[("PATH", &path), ("CI", "")],
    );
    assert!(r.output.status.success(), "{}", text(&r.output));
    let out = stdout(&r.output);
    let shallow: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("shallow clone"))
        .collect();
    assert_eq!(shallow.len(), 1, "{out}");
    assert!(
        shallow[0].starts_with("::warning title=sitemapgen::")
            && shallow[0].contains("fetch-depth: 0"),
        "{out}"
    );
    assert_eq!(r.outputs["sitemap-path"], "public/sitemap.xml");
    assert_eq!(r.outputs["url-count"], "5");
}

#[test]
fn the_progress_hook_hears_of_every_page_read() {
    use std::sync::{Arc, Mutex};
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path());
    let settings = sitemapgen::load(&sitemapgen::settings::Overrides {
        site: Some(d.path().to_path_buf()),
        ..Default::default()
    })
    .unwrap();
    let calls: Arc<Mutex<Vec<(usize, usize)>>> = Arc::default();
    let seen = calls.clone();
    let opts = sitemapgen::RunOptions {
        progress: Some(sitemapgen::Progress(Arc::new(move |done, total| {
            seen.lock().unwrap().push((done, total));
        }))),
        ..Default::default()
    };
    let outcome = sitemapgen::generate(&settings, &opts).unwrap();
    let mut calls = calls.lock().unwrap().clone();
    calls.sort();
    // One call per content file (the draft too), counting up to the total.
    assert_eq!(calls, (1..=5).map(|n| (n, 5)).collect::<Vec<_>>());
    assert_eq!(outcome.pages_read, 5);
}

/// Kills the process it holds when dropped (a test's helper server).
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves `dir` over HTTP on a free local port; returns the server and its base URL.
fn serve(dir: &Path) -> (KillOnDrop, String) {
    use std::io::BufRead;
    let mut child = Command::new("python3")
        .args([
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "Serving HTTP on 127.0.0.1 port 43567 (http://127.0.0.1:43567/) ..."
    let port = line
        .split(" port ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    (KillOnDrop(child), format!("http://127.0.0.1:{port}"))
}

#[test]
fn action_runs_a_release_binary_only_when_its_sha256_matches() {
    if !have("python3") || !have("curl") || !have("sha256sum") || !have("tar") || !have("jq") {
        eprintln!("note: python3, curl, sha256sum, tar or jq missing: the install step is not run");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let archive = "sitemapgen-x86_64-unknown-linux-musl.tar.gz";
    let release = d.path().join("releases/v9.8.7");
    write_tree(
        d.path(),
        &[
            ("pkg/sitemapgen", "#!/bin/sh\necho stand-in\n"),
            // A stand-in cargo that says how it was asked to build.
            ("stub/cargo", "#!/bin/sh\necho \"cargo $*\"\n"),
        ],
    );
    std::fs::create_dir_all(&release).unwrap();
    let sh = |script: &str| {
        let o = Command::new("sh")
            .args(["-c", script])
            .current_dir(d.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{script}: {}", text(&o));
    };
    sh(&format!(
        "chmod +x stub/cargo pkg/sitemapgen && tar -czf releases/v9.8.7/{archive} -C pkg sitemapgen"
    ));
    sh(&format!(
        "cd releases/v9.8.7 && sha256sum {archive} > SHA256SUMS"
    ));
    let (_server, url) = serve(&d.path().join("releases"));
    let path = format!("{}:/usr/bin:/bin", d.path().join("stub").display());
    let action_dir = env!("CARGO_MANIFEST_DIR");
    let env = |reference: &'static str| {
        [
            ("PATH", path.clone()),
            ("RUNNER_OS", "Linux".into()),
            ("RUNNER_ARCH", "X64".into()),
            ("GITHUB_ACTION_PATH", action_dir.into()),
            ("SITEMAPGEN_RELEASES", url.clone()),
            ("github.action_ref", reference.into()),
        ]
    };
    let step = |reference: &'static str| {
        let env = env(reference);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run_step_with(d.path(), "install", &[], &env)
    };

    let r = step("v9.8.7");
    assert!(r.output.status.success(), "{}", text(&r.output));
    let out = stdout(&r.output);
    assert!(
        out.starts_with("installed sitemapgen v9.8.7 for x86_64-unknown-linux-musl (SHA-256 "),
        "{out}"
    );
    assert!(
        r.path_added.trim_end().ends_with("/sitemapgen/bin"),
        "{}",
        r.path_added
    );

    // A binary that does not match its SHA256SUMS line is never put on PATH.
    sh(
        "cd releases/v9.8.7 && sed -i 's/^[0-9a-f]*/0000000000000000000000000000000000000000000000000000000000000000/' SHA256SUMS",
    );
    let r = step("v9.8.7");
    assert_eq!(r.output.status.code(), Some(2), "{}", text(&r.output));
    assert!(
        stdout(&r.output).contains("does not match its SHA-256"),
        "{}",
        text(&r.output)
    );
    assert_eq!(r.path_added, "");

    // No release of this version (HTTP 404): build it from the action's own checkout, once,
    // keeping the binary in the Actions cache under a key of version, source, features and
    // runner; without the network commands unless the step uses them.
    let r = step("main");
    assert!(r.output.status.success(), "{}", text(&r.output));
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        stdout(&r.output),
        format!(
            "::notice title=sitemapgen::no release v{version} for x86_64-unknown-linux-musl; building from source\n"
        )
    );
    assert_eq!(r.path_added, "");
    let output = |name: &str| {
        r.outputs
            .get(name)
            .unwrap_or_else(|| panic!("no output {name}: {:?}", r.outputs))
            .clone()
    };
    assert_eq!(output("build"), "true");
    assert_eq!(output("features"), "");
    let key = output("cache-key");
    let digest = key
        .strip_prefix(&format!("sitemapgen-v{version}-"))
        .and_then(|k| k.strip_suffix("-default-Linux-X64-image"))
        .unwrap_or_else(|| panic!("{key}"));
    assert!(
        digest.len() == 16 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
        "{key}"
    );
    let cache_dir = output("cache-dir");
    let build_with = |hit: &str, features: &str| {
        let mut env: Vec<(&str, &str)> = vec![
            ("PATH", path.as_str()),
            ("GITHUB_ACTION_PATH", action_dir),
            ("steps.install.outputs.cache-dir", cache_dir.as_str()),
            ("steps.install.outputs.features", features),
            ("steps.cache.outputs.cache-hit", hit),
        ];
        env.retain(|(_, v)| !v.is_empty());
        run_step_with(d.path(), "build", &[], &env)
    };
    let build = |hit: &str| build_with(hit, "");
    // `submit`, or `diff` of a URL: the build has the network commands, under a key of its own.
    for inputs in [
        [("submit", "true"), ("diff", "")],
        [
            ("submit", "false"),
            ("diff", "https://example.com/sitemap.xml"),
        ],
    ] {
        let env = env("main");
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let net = run_step_with(d.path(), "install", &inputs, &env);
        assert_eq!(net.outputs.get("features").map(String::as_str), Some("net"));
        assert_eq!(
            net.outputs.get("cache-key").map(String::as_str),
            Some(key.replace("-default-", "-net-").as_str())
        );
    }
    let b = build_with("", "net");
    assert!(b.output.status.success(), "{}", text(&b.output));
    assert_eq!(
        stdout(&b.output),
        format!("cargo install --locked --features net --path {action_dir} --root {cache_dir}\n")
    );
    // The cache had nothing: the first run compiles.
    let b = build("");
    assert!(b.output.status.success(), "{}", text(&b.output));
    assert_eq!(
        stdout(&b.output),
        format!("cargo install --locked --path {action_dir} --root {cache_dir}\n")
    );
    assert_eq!(b.path_added, format!("{cache_dir}/bin\n"));
    // A later run finds it there: nothing is compiled.
    write_tree(
        Path::new(&cache_dir),
        &[("bin/sitemapgen", "#!/bin/sh\necho \"sitemapgen 9.9.9\"\n")],
    );
    sh(&format!("chmod +x {cache_dir}/bin/sitemapgen"));
    let b = build("true");
    assert!(b.output.status.success(), "{}", text(&b.output));
    assert_eq!(
        stdout(&b.output),
        "using the sitemapgen an earlier run built (sitemapgen 9.9.9)\n"
    );
    assert_eq!(b.path_added, format!("{cache_dir}/bin\n"));
    // Another runner has a key of its own.
    let env = env("main");
    let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.retain(|(k, _)| *k != "RUNNER_ARCH");
    env.push(("RUNNER_ARCH", "ARM64"));
    let arm = run_step_with(d.path(), "install", &[], &env);
    assert_eq!(
        arm.outputs.get("cache-key").map(String::as_str),
        Some(key.replace("-Linux-X64-", "-Linux-ARM64-").as_str())
    );
}

/// A runner without jq (issue 40): the install step, the first, fails with one line naming
/// it and the package to install, before it runs or downloads anything.
#[test]
fn action_says_what_is_missing_before_running_anything() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // bash and sitemapgen, and nothing else: no jq.
    let bash = ["/bin/bash", "/usr/bin/bash"]
        .into_iter()
        .find(|p| Path::new(p).is_file());
    let Some(bash) = bash else {
        eprintln!("note: no /bin/bash: the install step is not run");
        return;
    };
    std::os::unix::fs::symlink(bash, bin.join("bash")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sitemapgen"), bin.join("sitemapgen")).unwrap();
    let path = bin.display().to_string();
    let r = run_step_with(d.path(), "install", &[], &[("PATH", &path)]);
    assert_eq!(r.output.status.code(), Some(2), "{}", text(&r.output));
    assert_eq!(
        stdout(&r.output),
        "::error title=sitemapgen::not found on PATH: jq. This action needs it and has run \
         nothing: install it in a step before it (Debian/Ubuntu: sudo apt-get install -y jq; \
         Alpine: apk add jq; macOS: brew install jq)\n"
    );
    assert_eq!(r.path_added, "");
    assert!(r.outputs.is_empty(), "{:?}", r.outputs);
}

#[test]
fn action_diffs_into_the_summary_and_submits_after_the_deploy() {
    use common::http::{Response, Server};
    if !have("jq") || !have("git") {
        eprintln!("note: jq or git missing: the action's script is not run");
        return;
    }
    const KEY: &str = "0123456789abcdef";
    // The deployed site (key file) and the IndexNow endpoint, on 127.0.0.1.
    let server = Server::start(|req| match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/0123456789abcdef.txt") => Response::new(200, KEY),
        ("POST", "/indexnow") => Response::new(202, ""),
        _ => Response::new(404, ""),
    });
    let d = tempfile::tempdir().unwrap();
    let repo = d.path().join("repo");
    zola_site(&repo.join("site"));
    let base = format!("{}/", server.base);
    let first = run_step(&repo, "run", &[("site", "site"), ("base-url", &base)]);
    assert!(first.output.status.success(), "{}", text(&first.output));
    let deployed = repo.join("deployed.xml");
    std::fs::copy(repo.join("site/public/sitemap.xml"), &deployed).unwrap();

    // A new post: the build step's summary shows it against the deployed sitemap.
    write_tree(
        &repo.join("site"),
        &[(
            "content/blog/third.md",
            "+++\ntitle = \"Third\"\ndate = 2024-04-01\n+++\n",
        )],
    );
    let r = run_step(
        &repo,
        "run",
        &[
            ("site", "site"),
            ("base-url", &base),
            ("diff", "deployed.xml"),
        ],
    );
    assert!(r.output.status.success(), "{}", text(&r.output));
    let third = format!("{base}blog/third/");
    assert!(
        r.summary.contains(
            "`deployed.xml` → this build: **1 added**, **0 removed**, **2 lastmod moved**"
        ),
        "{}",
        r.summary
    );
    assert!(r.summary.contains(&format!("- <{third}>")), "{}", r.summary);

    // After the deploy: submit what changed since the deployed sitemap, then nothing more.
    let endpoint = format!("--endpoint {}/indexnow", server.base);
    let submit = [
        ("site", "site"),
        ("base-url", base.as_str()),
        ("submit", "true"),
        ("since", "deployed.xml"),
        ("indexnow-key", KEY),
        ("indexnow-state", "state.json"),
        ("args", endpoint.as_str()),
    ];
    let r = run_step(&repo, "run", &submit);
    assert!(r.output.status.success(), "{}", text(&r.output));
    // The post, and its section and the home page, which take its date.
    assert_eq!(r.outputs["submitted-count"], "3");
    assert!(r.summary.contains("Sent 3 URLs to"), "{}", r.summary);
    let posts = server.to("POST", "/indexnow");
    assert_eq!(posts.len(), 1);
    assert_eq!(
        posts[0].json()["urlList"],
        serde_json::json!([base, format!("{base}blog/"), third])
    );
    let again: Vec<(&str, &str)> = submit.into_iter().filter(|(k, _)| *k != "since").collect();
    let r = run_step(&repo, "run", &again);
    assert!(r.output.status.success(), "{}", text(&r.output));
    assert_eq!(r.outputs["submitted-count"], "0");
    assert!(
        r.summary
            .contains("Nothing changed since the last submission"),
        "{}",
        r.summary
    );
    assert_eq!(server.to("POST", "/indexnow").len(), 1);
}
