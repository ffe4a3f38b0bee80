//! The generator's layout by default (issue 24, point 1): the same sitemap files as Hugo
//! writes, each with Hugo's URLs and alternates, compared file by file with what Hugo 0.111.3
//! and 0.168.0 wrote for the same sites (`tests/fixtures/layout/*/hugo-<version>/`, and the
//! parity cases' `expected-<lang>-sitemap.xml`); Zola's split rule; and our own layouts
//! (`single`, `language`, `section`).

use crate::common;

use common::{percent_decode, run, text, url_locs, write_tree, xml_unescape};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Every file below `dir` (`/`-separated paths) with its text, the record of ours left out.
fn files_below(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if !e.file_type().is_file() {
            continue;
        }
        let rel = e.path().strip_prefix(dir).unwrap();
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_str().unwrap())
            .collect::<Vec<_>>()
            .join("/");
        out.insert(rel, std::fs::read_to_string(e.path()).unwrap());
    }
    out
}

/// Hugo's sitemap files for a case: `hugo-<version>/` below a layout fixture, or a parity
/// case's `expected-sitemap.xml` (the index) and `expected-<lang>-sitemap.xml`.
fn hugos(case: &Path, version: &str) -> BTreeMap<String, String> {
    let own = case.join(format!("hugo-{version}"));
    if own.is_dir() {
        return files_below(&own);
    }
    let mut out = BTreeMap::new();
    for (name, text) in files_below(case) {
        if name == "expected-sitemap.xml" {
            out.insert("sitemap.xml".to_string(), text);
        } else if let Some(lang) = name
            .strip_prefix("expected-")
            .and_then(|n| n.strip_suffix("-sitemap.xml"))
        {
            out.insert(format!("{lang}/sitemap.xml"), text);
        }
    }
    out
}

/// Our files for a case, built with Hugo `version`'s rules (and `extra` arguments).
fn ours(case: &Path, version: &str, extra: &[&str]) -> BTreeMap<String, String> {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![
        "build",
        "--site",
        case.to_str().unwrap(),
        "--output",
        out.path().to_str().unwrap(),
        "--hugo-version",
        version,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = run(case, &args);
    assert!(o.status.success(), "{}", text(&o));
    let files = files_below(out.path());
    let xml: Vec<PathBuf> = (files.keys())
        .filter(|f| f.ends_with(".xml"))
        .map(|f| out.path().join(f))
        .collect();
    common::validate_with_xsd(&xml);
    files
}

/// Our files for a case built with Hugo 0.168.0's rules and a sitemap.toml of `toml`.
fn ours_with(case: &Path, toml: &str) -> BTreeMap<String, String> {
    let cfg = tempfile::tempdir().unwrap();
    write_tree(cfg.path(), &[("sitemap.toml", toml)]);
    let config = cfg.path().join("sitemap.toml");
    ours(case, "0.168.0", &["--config", config.to_str().unwrap()])
}

/// The `<loc>`s of an index, decoded.
fn index_locs(xml: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for block in xml.split("<sitemap>").skip(1) {
        if let (Some(a), Some(b)) = (block.find("<loc>"), block.find("</loc>")) {
            out.insert(percent_decode(&xml_unescape(block[a + 5..b].trim())));
        }
    }
    out
}

/// Each URL of a urlset with its alternates (hreflang, href), decoded.
fn alternates(xml: &str) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let attr = |tag: &str, name: &str| -> String {
        let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let end = start + tag[start..].find('"').unwrap();
        percent_decode(&xml_unescape(&tag[start..end]))
    };
    let mut out = BTreeMap::new();
    for block in xml.split("<url>").skip(1) {
        let block = block.split("</url>").next().unwrap();
        let (a, b) = (block.find("<loc>").unwrap(), block.find("</loc>").unwrap());
        let loc = percent_decode(&xml_unescape(block[a + 5..b].trim()));
        let links: BTreeSet<(String, String)> = block
            .split("<xhtml:link")
            .skip(1)
            .map(|t| (attr(t, "hreflang"), attr(t, "href")))
            .collect();
        out.insert(loc, links);
    }
    out
}

/// Hugo's files and ours agree file by file: the same names; each index the same parts;
/// each urlset the same URLs, each with the same alternates.
fn assert_same_files(case: &str, version: &str) {
    let dir = fixture(case);
    let theirs = hugos(&dir, version);
    assert!(!theirs.is_empty(), "{case}: no files of Hugo's");
    let ours = ours(&dir, version, &[]);
    let names = |m: &BTreeMap<String, String>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&ours),
        names(&theirs),
        "{case} with Hugo {version}: file names"
    );
    for (name, hugo) in &theirs {
        let mine = &ours[name];
        if hugo.contains("<sitemapindex") {
            assert_eq!(
                index_locs(mine),
                index_locs(hugo),
                "{case} {version}: {name}"
            );
        } else {
            assert_eq!(url_locs(mine), url_locs(hugo), "{case} {version}: {name}");
            assert_eq!(
                alternates(mine),
                alternates(hugo),
                "{case} {version}: {name} alternates"
            );
        }
    }
}

#[test]
fn hugo_multilingual_two_languages_as_hugo_writes_them() {
    assert_same_files("parity/hugo/10-multilingual", "0.111.3");
    assert_same_files("parity/hugo-0.168/10-multilingual", "0.168.0");
}

#[test]
fn hugo_three_languages_in_subfolders_below_a_base_path() {
    for v in ["0.111.3", "0.168.0"] {
        assert_same_files("layout/21-three-languages-subdir", v);
    }
}

/// `[sitemap] filename` names the index and the languages' files; before 0.112 a language's
/// own `[sitemap]` table replaced the site's, filename included (`en/sitemap.xml`).
#[test]
fn hugo_sitemap_filename_and_a_languages_own_sitemap_table() {
    for v in ["0.111.3", "0.168.0"] {
        assert_same_files("layout/22-sitemap-filename", v);
    }
}

#[test]
fn hugo_multihost_one_file_per_host_and_no_index() {
    for v in ["0.111.3", "0.168.0"] {
        assert_same_files("layout/23-multihost", v);
    }
}

/// One language in its own folder: 0.111 wrote one flat sitemap of root URLs; from 0.123 an
/// index over `en/sitemap.xml` of `/en/` URLs (URLs below `/en/` from 0.115.2).
#[test]
fn hugo_one_language_in_its_subfolder_per_version() {
    for v in ["0.111.3", "0.168.0"] {
        assert_same_files("layout/24-one-language-subdir", v);
    }
}

/// Each index entry carries the newest lastmod of the file it names.
#[test]
fn index_entries_carry_their_files_newest_lastmod() {
    let dir = fixture("layout/21-three-languages-subdir");
    let files = ours(&dir, "0.168.0", &[]);
    let index = &files["sitemap.xml"];
    for block in index.split("<sitemap>").skip(1) {
        let loc = &block[block.find("<loc>").unwrap() + 5..block.find("</loc>").unwrap()];
        let name = loc.strip_prefix("https://example.org/docs/").unwrap();
        let newest = files[name]
            .lines()
            .filter_map(|l| {
                l.trim()
                    .strip_prefix("<lastmod>")?
                    .strip_suffix("</lastmod>")
            })
            .map(str::to_string)
            .max();
        let listed = block
            .find("<lastmod>")
            .map(|a| block[a + 9..block.find("</lastmod>").unwrap()].to_string());
        assert_eq!(listed, newest, "{name}");
    }
}

/// The other layouts: one sitemap; one per language; one per top-level section, under an
/// index that robots.txt names.
#[test]
fn single_language_and_section_layouts() {
    let dir = fixture("layout/21-three-languages-subdir");
    let all = |files: &BTreeMap<String, String>| -> BTreeSet<String> {
        files
            .values()
            .filter(|x| x.contains("<urlset"))
            .flat_map(|x| url_locs(x))
            .collect()
    };
    let generator = ours(&dir, "0.168.0", &[]);

    let files = ours_with(&dir, "layout = \"single\"\n");
    assert_eq!(files.keys().collect::<Vec<_>>(), ["sitemap.xml"]);
    assert_eq!(all(&files), all(&generator));

    let config = |layout: &str| format!("layout = \"{layout}\"\nrobots_txt = true\n");
    let files = ours_with(&dir, &config("language"));
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        [
            "robots.txt",
            "sitemap-de.xml",
            "sitemap-en.xml",
            "sitemap-fr.xml",
            "sitemap.xml"
        ]
    );
    assert_eq!(all(&files), all(&generator));
    for lang in ["de", "en", "fr"] {
        // Each language's file holds exactly Hugo's file of that language.
        assert_eq!(
            url_locs(&files[&format!("sitemap-{lang}.xml")]),
            url_locs(&generator[&format!("{lang}/sitemap.xml")]),
            "{lang}"
        );
    }
    assert_eq!(
        index_locs(&files["sitemap.xml"]),
        ["de", "en", "fr"]
            .map(|l| format!("https://example.org/docs/sitemap-{l}.xml"))
            .into_iter()
            .collect()
    );
    // robots.txt names the index, and only it.
    assert_eq!(
        files["robots.txt"]
            .lines()
            .filter(|l| l.starts_with("Sitemap:"))
            .collect::<Vec<_>>(),
        ["Sitemap: https://example.org/docs/sitemap.xml"]
    );

    let files = ours_with(&dir, &config("section"));
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        [
            "robots.txt",
            "sitemap-guide.xml",
            "sitemap-home.xml",
            "sitemap-news.xml",
            "sitemap-tags.xml",
            "sitemap.xml"
        ]
    );
    assert_eq!(all(&files), all(&generator));
    // Every language's pages of a section in the section's file; the homes, pages beside
    // them and folders with nothing below (`categories/`) in `-home`.
    let section_of = |url: &str| -> String {
        let rest = url.strip_prefix("https://example.org/docs/").unwrap();
        let rest = rest.split_once('/').map_or("", |(_, r)| r);
        match rest.split_once('/') {
            Some((s, _)) if ["guide", "news", "tags"].contains(&s) => s.to_string(),
            _ => "home".to_string(),
        }
    };
    for (name, xml) in files.iter().filter(|(n, _)| n.starts_with("sitemap-")) {
        let section = name
            .strip_prefix("sitemap-")
            .unwrap()
            .strip_suffix(".xml")
            .unwrap();
        for url in url_locs(xml) {
            assert_eq!(section_of(&url), section, "{url} in {name}");
        }
    }
}

/// Split limits hold inside every part: a language's file past `max_urls_per_file` becomes an
/// index of its numbered parts at the same URL, and the index over the set lists those parts
/// directly (an index never lists an index).
#[test]
fn a_language_file_past_the_limit_is_split_in_its_folder() {
    let dir = fixture("layout/21-three-languages-subdir");
    let files = ours_with(&dir, "max_urls_per_file = 3\n");
    let hugo = hugos(&dir, "0.168.0");
    for lang in ["de", "en", "fr"] {
        let own_index = &files[&format!("{lang}/sitemap.xml")];
        assert!(own_index.contains("<sitemapindex"), "{lang}: {own_index}");
        let parts = index_locs(own_index);
        let mut urls = BTreeSet::new();
        for part in &parts {
            let name = part.strip_prefix("https://example.org/docs/").unwrap();
            assert!(name.starts_with(&format!("{lang}/sitemap")), "{part}");
            let part_urls = url_locs(&files[name]);
            assert!(part_urls.len() <= 3, "{name}: {}", part_urls.len());
            urls.extend(part_urls);
        }
        assert_eq!(
            urls,
            url_locs(&hugo[&format!("{lang}/sitemap.xml")]),
            "{lang}"
        );
        // The root index names the parts, not the language's own index.
        let root = index_locs(&files["sitemap.xml"]);
        assert!(parts.is_subset(&root), "{lang}: {root:?}");
        assert!(!root.contains(&format!("https://example.org/docs/{lang}/sitemap.xml")));
    }
}

/// Changing layout: the new run's files replace ours of the old layout, which are removed;
/// the site's own files (and a folder of a language) stay.
#[test]
fn changing_layout_removes_only_our_old_files() {
    let dir = fixture("layout/21-three-languages-subdir");
    let out = tempfile::tempdir().unwrap();
    write_tree(
        out.path(),
        &[("en/index.html", "<html></html>"), ("index.html", "x")],
    );
    let cfg = tempfile::tempdir().unwrap();
    let build = |layout: Option<&str>| {
        let config = cfg.path().join("sitemap.toml");
        std::fs::write(
            &config,
            layout
                .map(|l| format!("layout = \"{l}\"\n"))
                .unwrap_or_default(),
        )
        .unwrap();
        let o = run(
            &dir,
            &[
                "build",
                "--site",
                dir.to_str().unwrap(),
                "--output",
                out.path().to_str().unwrap(),
                "--config",
                config.to_str().unwrap(),
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        files_below(out.path()).into_keys().collect::<Vec<_>>()
    };
    assert_eq!(
        build(None),
        [
            "de/sitemap.xml",
            "en/index.html",
            "en/sitemap.xml",
            "fr/sitemap.xml",
            "index.html",
            "sitemap.xml"
        ]
    );
    assert_eq!(
        build(Some("language")),
        [
            "en/index.html",
            "index.html",
            "sitemap-de.xml",
            "sitemap-en.xml",
            "sitemap-fr.xml",
            "sitemap.xml"
        ]
    );
    assert_eq!(
        build(None),
        [
            "de/sitemap.xml",
            "en/index.html",
            "en/sitemap.xml",
            "fr/sitemap.xml",
            "index.html",
            "sitemap.xml"
        ]
    );
}
