//! What the commands print, as a user reads it (issue 17): `check` names URLs as the sitemap
//! writes them, output into a closed pipe ends quietly, warnings are capped by kind, errors
//! name the file the user knows and say what to do, counts agree with their nouns, and
//! `validate` never calls a run that read nothing clean.

use crate::common;
use crate::common::{stderr, stdout};

use common::{run, text, validate_with_xsd, write_tree};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs the binary in `site` with `NO_COLOR`, so stderr compares as plain text.
fn plain(site: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(site)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

/// Zola's own sitemap off, as the README asks, so sitemapgen's is the only one.
const CONFIG: &str =
    "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";

/// [`CONFIG`], keeping `&` in slugs as Zola's "safe" slugify does.
const SAFE_SLUGS: &str = "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n[slugify]\npaths = \"safe\"\n";

/// A Zola site with an ampersand in a slug and a page with images.
fn blog(site: &Path, date: &str) {
    write_tree(
        site,
        &[
            ("config.toml", SAFE_SLUGS),
            ("sitemap.toml", "images = true\n"),
            ("content/_index.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            (
                "content/blog/tips.md",
                &format!("+++\nslug = \"tips-&-tricks\"\ndate = {date}\n+++\n"),
            ),
            (
                "content/blog/trip/index.md",
                &format!(
                    "+++\ndate = {date}\n+++\n![Tejo](tejo.jpg)\n![Tram](https://example.com/images/tram.jpg)\n"
                ),
            ),
        ],
    );
}

#[test]
fn check_names_the_urls_the_sitemap_lists_in_text_and_json() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    blog(site, "2024-06-20");
    let o = run(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    validate_with_xsd(&[site.join("public/sitemap.xml")]);
    blog(site, "2024-06-21");
    let o = run(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // The & is the URL's (the file writes &amp;); image URLs are not pages.
    assert_eq!(
        stdout(&o),
        "lastmod changed (4):\n\
         \x20 https://example.com/: 2024-06-20 -> 2024-06-21\n\
         \x20 https://example.com/blog/: 2024-06-20 -> 2024-06-21\n\
         \x20 https://example.com/blog/tips-&-tricks/: 2024-06-20 -> 2024-06-21\n\
         \x20 https://example.com/blog/trip/: 2024-06-20 -> 2024-06-21\n\
         the sitemap is stale: run `sitemapgen build`\n"
    );
    let o = run(site, &["check", "--format", "json"]);
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let locs: Vec<&str> = j["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["loc"].as_str().unwrap())
        .collect();
    assert_eq!(
        locs,
        [
            "https://example.com/",
            "https://example.com/blog/",
            "https://example.com/blog/tips-&-tricks/",
            "https://example.com/blog/trip/",
        ]
    );
}

/// Runs the binary with stdout a pipe whose reading end is already closed.
fn into_closed_pipe(site: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(site)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_list_and_check_quietly() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    blog(site, "2024-06-20");
    for args in [
        &["list"][..],
        &["list", "--format", "jsonl"],
        &["list", "--excluded"],
        &["build", "--format", "json"],
        &["validate", "public/sitemap.xml"],
    ] {
        let o = into_closed_pipe(site, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
    // check still says, by its exit code, that the sitemap is stale.
    blog(site, "2024-06-21");
    let o = into_closed_pipe(site, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn warnings_are_capped_by_kind() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    let mut files = vec![
        ("config.toml".to_string(), CONFIG.to_string()),
        ("content/_index.md".into(), "+++\n+++\n".into()),
    ];
    for i in 0..23 {
        files.push((
            format!("content/f{i:02}.md"),
            "+++\ndate = 2024-01-01\nupdated = 2099-01-01\n+++\n".into(),
        ));
        files.push((
            format!("content/d{i:02}.md"),
            "+++\ndraft = true\n+++\n".into(),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_str()))
        .collect();
    write_tree(site, &refs);
    let o = plain(site, &["build"]);
    assert!(o.status.success(), "{}", text(&o));
    let today = chrono::Utc::now().date_naive();
    let mut want = String::new();
    for i in 0..20 {
        want += &format!(
            "warning: ./content/f{i:02}.md: lastmod 2099-01-01 is in the future; writing {today} instead\n"
        );
    }
    want += "warning: … and 3 more like \"lastmod 2099-01-01 is in the future; \
             writing {today} instead\" (`--verbose` shows every one)\n"
        .replace("{today}", &today.to_string())
        .as_str();
    // The drafts were the author's choice: counted in the summary, never warned about.
    let err = stderr(&o);
    let (warnings, summary) = err.split_once("wrote ").unwrap();
    assert_eq!(warnings, want);
    assert!(
        summary.starts_with("24 URLs ") && summary.ends_with("; 23 drafts left out\n"),
        "{err}"
    );
    // --verbose shows every one; JSON the same as the text, with the files apart.
    let o = plain(site, &["build", "--verbose"]);
    assert_eq!(stderr(&o).matches("is in the future").count(), 23);
    let o = run(site, &["build", "--format", "json"]);
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["warnings"].as_array().unwrap().len(), 23);
    let details: Vec<String> = j["warning_details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| match (w["file"].as_str(), w["line"].as_u64()) {
            (Some(f), None) => format!("warning: {f}: {}\n", w["message"].as_str().unwrap()),
            (None, None) => format!("warning: {}\n", w["message"].as_str().unwrap()),
            _ => panic!("{w}"),
        })
        .collect();
    assert_eq!(details.concat(), want);
}

#[test]
fn counts_agree_with_their_nouns() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[("config.toml", CONFIG), ("content/_index.md", "+++\n+++\n")],
    );
    let o = plain(site, &["build"]);
    assert!(
        stderr(&o).starts_with("wrote 1 URL to ./public/sitemap.xml in "),
        "{}",
        text(&o)
    );
    let o = plain(site, &["check"]);
    assert_eq!(stderr(&o), "./public/sitemap.xml is up to date (1 URL)\n");
    write_tree(site, &[("content/new.md", "+++\n+++\n")]);
    let o = plain(site, &["check"]);
    assert_eq!(
        stdout(&o),
        "URL added (1):\n  https://example.com/new/\nthe sitemap is stale: run `sitemapgen build`\n"
    );
}

#[test]
fn errors_name_what_the_user_gave_and_say_what_to_do() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    let nosuch = site.join("nosuch");
    let o = plain(site, &["build", "--site", nosuch.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: --site {}: no such folder: point it at the site's root, the folder with its zola.toml, config.toml or hugo.toml\n",
            nosuch.display()
        )
    );
    write_tree(
        site,
        &[(
            "sitemap.toml",
            "base_url = \"https://example.com/\"\nsite_dir = \"gone\"\n",
        )],
    );
    let o = plain(site, &["check"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: sitemap.toml:2: site_dir gone: no such folder: point it at the site's root, the folder with its zola.toml, config.toml or hugo.toml\n"
    );
    let o = plain(site, &["build", "--config", "nosuch.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --config nosuch.toml: no such file: give the path of a sitemap.toml (`sitemapgen init --config FILE` writes one)\n"
    );
    // An output folder that is a file, or lies below one.
    blog(site, "2024-01-01");
    write_tree(site, &[("afile", "")]);
    for (output, why) in [
        ("afile", "afile is a file, not a folder"),
        (
            "afile/sub",
            "afile is a file, not a folder, so afile/sub cannot be made",
        ),
    ] {
        let o = plain(site, &["build", "--output", output]);
        assert_eq!(o.status.code(), Some(2), "{output}");
        assert_eq!(
            stderr(&o),
            format!("error: --output {output}: {why}: the sitemap goes into the output folder\n"),
            "{output}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_names_the_sitemap_not_its_temporary_file() {
    // sysfs refuses new files even to root, which a permission test cannot count on.
    if !Path::new("/sys/kernel").is_dir() {
        eprintln!("note: no /sys: the write error is not tried");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[("config.toml", CONFIG), ("content/_index.md", "+++\n+++\n")],
    );
    for gzip in [&[][..], &["--gzip"]] {
        let mut args = vec!["build", "--output", "/sys/kernel"];
        args.extend_from_slice(gzip);
        let o = plain(site, &args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let name = if gzip.is_empty() {
            "sitemap.xml"
        } else {
            "sitemap.xml.gz"
        };
        assert_eq!(
            stderr(&o),
            format!(
                "error: /sys/kernel/{name}: could not be written (Permission denied (os error 13)): the output folder is not writable: fix its permissions, or write elsewhere with --output (output_dir in sitemap.toml)\n"
            )
        );
    }
}

#[test]
fn validate_says_when_a_file_could_not_be_read() {
    let d = tempfile::tempdir().unwrap();
    let o = plain(d.path(), &["validate", "nosuch.xml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: nosuch.xml: No such file or directory (os error 2)\n"
    );
    assert_eq!(
        stdout(&o),
        "validated 0 files (0 entries): 0 errors, 0 warnings; 1 file could not be read\n"
    );
}

#[test]
fn validate_warns_about_a_quote_written_as_an_entity() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[(
            "s.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.com/say-&quot;hi&quot;/</loc></url>\n</urlset>\n",
        )],
    );
    let o = plain(d.path(), &["validate", "s.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        stdout(&o),
        "s.xml:3: warning: Unencoded character: '\"' in \"https://example.com/say-\\\"hi\\\"/\": crawlers read it, but RFC 3986 wants it percent-encoded as %22\n\
         validated 1 file (1 entry): 0 errors, 1 warning\n"
    );
}

/// The keys of the configuration reference's sitemap.toml table (`[[rules]]` as `rules`).
fn reference_keys() -> std::collections::BTreeSet<String> {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"),
    )
    .unwrap();
    let start = readme.find("## Every key of `sitemap.toml`").unwrap();
    let section = &readme[start..];
    let end = section[3..].find("\n##").map_or(section.len(), |e| e + 3);
    section[..end]
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            l.split('`')
                .next()
                .unwrap()
                .trim_matches(['[', ']'])
                .to_string()
        })
        .collect()
}

#[test]
fn init_writes_every_key_the_configuration_reference_documents_and_marks_examples() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[("config.toml", CONFIG), ("content/_index.md", "+++\n+++\n")],
    );
    let o = run(
        d.path(),
        &["init", "--site", d.path().to_str().unwrap(), "--quiet"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let toml = std::fs::read_to_string(d.path().join("sitemap.toml")).unwrap();
    let lines: Vec<&str> = toml.lines().collect();
    // (key, the comment block above it), up to the [[rules]] example, whose keys are its own.
    let mut keys = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let bare = l.trim_start_matches("# ");
        let key = if bare == "[[rules]]" {
            "rules".to_string()
        } else {
            match bare.split_once(" = ") {
                Some((k, _)) if k.chars().all(|c| c.is_ascii_lowercase() || c == '_') => k.into(),
                _ => continue,
            }
        };
        let above: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .take_while(|l| !l.is_empty())
            .copied()
            .collect();
        keys.push((key.clone(), above.join("\n")));
        if key == "rules" {
            break;
        }
    }
    let written: std::collections::BTreeSet<String> = keys.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(written, reference_keys(), "{toml}");
    // A value that is no default is introduced as an example.
    for (key, above) in &keys {
        let example = [
            "exclude",
            "default_changefreq",
            "default_priority",
            "trailing_slash",
            "extra_urls",
            "stylesheet",
            "image_keys",
            "x_default",
            "indexnow_key",
            "indexnow_key_location",
            "rules",
        ]
        .contains(&key.as_str());
        assert_eq!(above.contains("For example"), example, "{key}: {above}");
    }
}
