//! The output stage against a real folder: atomic writes, stale parts, gzip, robots.txt,
//! and (when the shared schemas and xmllint are at hand) XSD validation of what was written.

use crate::common;

use sitemapgen::entries::{Alternate, Entries, Extras};
use sitemapgen::sitemap::owned::{Record, Stamp};
use sitemapgen::sitemap::urlset::{self, WriteOptions, render};
use sitemapgen::vocab::date::{SiteTz, W3cDate};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn opts(dir: &Path) -> WriteOptions {
    WriteOptions {
        output_dir: dir.to_path_buf(),
        base_url: "https://example.com/".into(),
        ..WriteOptions::default()
    }
}

fn entries(n: usize) -> Entries {
    let mut list = Entries::new();
    for i in 0..n {
        let e = list
            .push(&format!(
                "https://example.com/section-{}/page-{i}/",
                i % 100
            ))
            .unwrap();
        e.lastmod = W3cDate::parse(
            &format!("2024-{:02}-{:02}", i % 12 + 1, i % 28 + 1),
            &SiteTz::Utc,
        );
    }
    list
}

/// [`opts`] with two URLs per file, so a few entries make a split sitemap.
fn split(dir: &Path) -> WriteOptions {
    WriteOptions {
        max_urls: 2,
        ..opts(dir)
    }
}

/// Names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Runs ../shared/schemas/validate.sh on `files` when it and xmllint are available.
fn validate(files: &[PathBuf]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas/validate.sh");
    if !script.exists() {
        eprintln!(
            "note: {} not found; XSD validation skipped",
            script.display()
        );
        return;
    }
    if !common::xmllint_installed() {
        eprintln!("note: xmllint not installed; XSD validation skipped");
        return;
    }
    let out = Command::new("bash")
        .arg(&script)
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "validate.sh failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn disk_holds_exactly_what_render_returns_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let mut list = entries(5);
    list.list_mut()[0].extras = Some(Box::new(Extras {
        images: vec!["https://example.com/img/a&b.png".into()],
        alternates: vec![
            Alternate {
                hreflang: "en".into(),
                href: "https://example.com/section-0/page-0/".into(),
            },
            Alternate {
                hreflang: "x-default".into(),
                href: "https://example.com/section-0/page-0/".into(),
            },
        ],
    }));
    list.list_mut()[1].priority = Some("0.25".parse().unwrap());
    list.list_mut()[1].changefreq = Some("daily".parse().unwrap());
    let o = WriteOptions {
        max_urls: 2,
        sitemap_txt: true,
        stylesheet: Some("/sitemap.xsl".into()),
        ..opts(dir.path())
    };
    let report = urlset::write(&list, &o).unwrap();
    let rendered = render(&list, &o).unwrap();
    let names: Vec<_> = rendered.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sitemap1.xml",
            "sitemap2.xml",
            "sitemap3.xml",
            "sitemap.xml",
            "sitemap.txt"
        ]
    );
    for f in &rendered {
        assert_eq!(
            fs::read(dir.path().join(&f.name)).unwrap(),
            f.bytes,
            "{}",
            f.name
        );
    }
    assert_eq!(report.urls, 5);
    assert_eq!(report.files.len(), 5);
    assert!(report.removed.is_empty());
    assert_eq!(listing(dir.path()), {
        let mut n: Vec<_> = names.iter().map(|s| s.to_string()).collect();
        n.sort();
        n
    });
    validate(&report.files[..4]);
}

#[test]
fn many_entries_give_three_parts_and_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let list = entries(120_000);
    let report = urlset::write(&list, &opts(dir.path())).unwrap();
    let names: Vec<_> = report
        .files
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "sitemap1.xml",
            "sitemap2.xml",
            "sitemap3.xml",
            "sitemap.xml"
        ]
    );
    let counts: Vec<usize> = report.files[..3]
        .iter()
        .map(|p| fs::read_to_string(p).unwrap().matches("<url>").count())
        .collect();
    assert_eq!(counts, [50_000, 50_000, 20_000]);
    let index = fs::read_to_string(dir.path().join("sitemap.xml")).unwrap();
    assert_eq!(index.matches("<sitemap>").count(), 3);
    assert!(index.contains("<loc>https://example.com/sitemap3.xml</loc>"));
    assert_eq!(index.matches("<lastmod>2024-12-28</lastmod>").count(), 3);
    validate(&report.files);
}

#[test]
fn gzip_output_is_byte_identical_across_runs_and_validates() {
    let list = entries(7);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let oa = WriteOptions {
        gzip: true,
        max_urls: 3,
        ..opts(a.path())
    };
    let ob = WriteOptions {
        output_dir: b.path().to_path_buf(),
        ..oa.clone()
    };
    let ra = urlset::write(&list, &oa).unwrap();
    urlset::write(&list, &ob).unwrap();
    assert_eq!(listing(a.path()), listing(b.path()));
    for name in listing(a.path()) {
        assert!(name.ends_with(".xml.gz"), "{name}");
        assert_eq!(
            fs::read(a.path().join(&name)).unwrap(),
            fs::read(b.path().join(&name)).unwrap()
        );
    }
    // Compressed on background threads or not, the disk holds what render returns.
    for f in render(&list, &oa).unwrap() {
        assert_eq!(
            fs::read(a.path().join(&f.name)).unwrap(),
            f.bytes,
            "{}",
            f.name
        );
    }
    let index = fs::read(a.path().join("sitemap.xml.gz")).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&index[..]), &mut text)
        .unwrap();
    assert!(text.contains("<loc>https://example.com/sitemap1.xml.gz</loc>"));
    validate(&ra.files);
}

#[test]
fn a_failed_write_leaves_the_old_sitemap_untouched_and_no_temp_files() {
    for gzip in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let o = WriteOptions {
            gzip,
            ..opts(dir.path())
        };
        urlset::write(&entries(3), &o).unwrap();
        let main = if gzip {
            "sitemap.xml.gz"
        } else {
            "sitemap.xml"
        };
        let before = fs::read(dir.path().join(main)).unwrap();
        let listed = listing(dir.path());

        // The last entry alone is larger than the limit; the ones before it already filled
        // parts (written to temp files, compressed in the background when gzip is on).
        let mut list = entries(3);
        let long = format!("https://example.com/{}/", "x".repeat(400));
        list.push(&long).unwrap();
        let bad = WriteOptions {
            max_bytes: 400,
            max_urls: 1,
            ..o.clone()
        };
        let err = urlset::write(&list, &bad).unwrap_err();
        assert!(err.to_string().contains(&long), "{err}");
        assert_eq!(fs::read(dir.path().join(main)).unwrap(), before);
        assert_eq!(
            listing(dir.path()),
            listed,
            "no temp or part file left behind"
        );
    }
}

#[test]
fn creates_a_missing_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("public/deep");
    let report = urlset::write(&entries(1), &opts(&nested)).unwrap();
    assert_eq!(report.files, [nested.join("sitemap.xml")]);
    assert!(nested.join("sitemap.xml").is_file());
}

#[test]
fn stale_parts_are_removed_and_foreign_files_survive() {
    let dir = tempfile::tempdir().unwrap();
    let o = split(dir.path());
    urlset::write(&entries(5), &o).unwrap();
    assert_eq!(
        listing(dir.path()),
        [
            "sitemap.xml",
            "sitemap1.xml",
            "sitemap2.xml",
            "sitemap3.xml"
        ]
    );
    // Files no index of ours lists, one of them even named like a part.
    let news = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>\n";
    fs::write(dir.path().join("sitemap-news.xml"), news).unwrap();
    fs::write(dir.path().join("sitemap9.xml"), news).unwrap();

    let report = urlset::write(&entries(2), &o).unwrap();
    assert_eq!(
        listing(dir.path()),
        ["sitemap-news.xml", "sitemap.xml", "sitemap9.xml"]
    );
    let mut removed = report.removed.clone();
    removed.sort();
    assert_eq!(
        removed,
        [1, 2, 3].map(|n| dir.path().join(format!("sitemap{n}.xml")))
    );
    assert_eq!(
        fs::read(dir.path().join("sitemap9.xml")).unwrap(),
        news.as_bytes()
    );
    validate(&report.files);
}

#[test]
fn a_listed_part_that_is_not_a_sitemap_is_never_removed() {
    let dir = tempfile::tempdir().unwrap();
    let o = split(dir.path());
    urlset::write(&entries(5), &o).unwrap();
    // Someone replaced part 3 with something else: we cannot prove we wrote it.
    fs::write(dir.path().join("sitemap3.xml"), "hand-made notes\n").unwrap();
    let report = urlset::write(&entries(3), &o).unwrap();
    assert_eq!(report.removed, Vec::<PathBuf>::new());
    assert_eq!(
        fs::read_to_string(dir.path().join("sitemap3.xml")).unwrap(),
        "hand-made notes\n"
    );
}

#[test]
fn switching_compression_replaces_our_set() {
    let dir = tempfile::tempdir().unwrap();
    let plain = split(dir.path());
    urlset::write(&entries(3), &plain).unwrap();
    let gz = WriteOptions {
        gzip: true,
        ..plain.clone()
    };
    // The plain set is ours (the record says so, and its bytes are the ones we wrote): gzip
    // on replaces it.
    let report = urlset::write(&entries(3), &gz).unwrap();
    let mut removed = report.removed.clone();
    removed.sort();
    assert_eq!(
        removed,
        ["sitemap.xml", "sitemap1.xml", "sitemap2.xml"].map(|n| dir.path().join(n))
    );
    assert_eq!(
        listing(dir.path()),
        ["sitemap.xml.gz", "sitemap1.xml.gz", "sitemap2.xml.gz"]
    );
    // Back to plain, now small enough for one file: the whole gzip set goes.
    let report = urlset::write(&entries(1), &plain).unwrap();
    assert_eq!(report.removed.len(), 3, "{:?}", report.removed);
    assert_eq!(listing(dir.path()), ["sitemap.xml"]);
}

#[test]
fn a_file_of_ours_written_over_by_another_tool_is_not_removed() {
    let dir = tempfile::tempdir().unwrap();
    let plain = split(dir.path());
    urlset::write(&entries(3), &plain).unwrap();
    // The generator's own sitemap, written after ours.
    let theirs = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n";
    fs::write(dir.path().join("sitemap.xml"), theirs).unwrap();
    let gz = WriteOptions {
        gzip: true,
        ..plain.clone()
    };
    let report = urlset::write(&entries(3), &gz).unwrap();
    let mut removed = report.removed.clone();
    removed.sort();
    assert_eq!(
        removed,
        ["sitemap1.xml", "sitemap2.xml"].map(|n| dir.path().join(n))
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("sitemap.xml")).unwrap(),
        theirs
    );
}

#[test]
fn the_record_names_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let o = WriteOptions {
        sitemap_txt: true,
        robots_txt: true,
        ..split(dir.path())
    };
    let report = urlset::write(&entries(3), &o).unwrap();
    let record = Record::read(dir.path()).expect("a record");
    let mut named: Vec<&str> = record.paths().collect();
    named.sort();
    // robots.txt is not ours: we keep one line of it.
    assert_eq!(
        named,
        ["sitemap.txt", "sitemap.xml", "sitemap1.xml", "sitemap2.xml"]
    );
    for f in &report.files {
        let name = f.file_name().unwrap().to_str().unwrap();
        assert!(
            record.owns(name, Stamp::of(&fs::read(f).unwrap())),
            "{name}"
        );
    }
    // sitemap.txt off: ours, so it goes.
    let o = WriteOptions {
        sitemap_txt: false,
        ..o
    };
    let report = urlset::write(&entries(3), &o).unwrap();
    assert_eq!(report.removed, [dir.path().join("sitemap.txt")]);
    assert!(dir.path().join("robots.txt").exists());
}

#[test]
fn gzip_keeps_a_plain_sitemap_it_did_not_write() {
    // Say the generator's own sitemap.xml: a sitemap, but not a part of ours.
    let dir = tempfile::tempdir().unwrap();
    let theirs = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n";
    fs::write(dir.path().join("sitemap.xml"), theirs).unwrap();
    let gz = WriteOptions {
        gzip: true,
        ..opts(dir.path())
    };
    let report = urlset::write(&entries(3), &gz).unwrap();
    assert!(report.removed.is_empty(), "{:?}", report.removed);
    assert_eq!(listing(dir.path()), ["sitemap.xml", "sitemap.xml.gz"]);
    assert_eq!(
        fs::read_to_string(dir.path().join("sitemap.xml")).unwrap(),
        theirs
    );
}

#[test]
fn robots_txt_is_created_updated_in_place_and_stable() {
    let dir = tempfile::tempdir().unwrap();
    let robots = dir.path().join("robots.txt");
    let o = WriteOptions {
        robots_txt: true,
        ..opts(dir.path())
    };
    let report = urlset::write(&entries(1), &o).unwrap();
    assert!(report.robots_updated);
    assert_eq!(
        fs::read_to_string(&robots).unwrap(),
        "Sitemap: https://example.com/sitemap.xml\n"
    );

    fs::write(
        &robots,
        "User-agent: *\r\nDisallow: /tmp/\r\nSitemap: https://example.com/sitemap.xml\r\nSitemap: https://example.com/other.xml\r\n",
    )
    .unwrap();
    let gz = WriteOptions {
        gzip: true,
        ..o.clone()
    };
    let report = urlset::write(&entries(1), &gz).unwrap();
    assert!(report.robots_updated);
    let updated = fs::read(&robots).unwrap();
    assert_eq!(
        updated,
        b"User-agent: *\r\nDisallow: /tmp/\r\nSitemap: https://example.com/sitemap.xml.gz\r\nSitemap: https://example.com/other.xml\r\n"
    );
    let report = urlset::write(&entries(1), &gz).unwrap();
    assert!(!report.robots_updated);
    assert_eq!(
        fs::read(&robots).unwrap(),
        updated,
        "a second run changes nothing"
    );
    assert_eq!(
        urlset::robots_txt(Some(&updated), &gz).unwrap(),
        updated,
        "the library answers what write would store"
    );
}

/// A `<urlset>` with no URLs, as a killed run's interim part would be on disk.
const EMPTY_URLSET: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n";

/// A run holds the output folder's lock, so no other run can be writing there: every
/// temporary file of a name it writes, and every interim part no index names, is a killed
/// run's, whoever's PID it carries. Files of other names are not ours to touch.
#[cfg(unix)]
#[test]
fn leftovers_of_killed_runs_are_removed_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let o = split(dir.path());
    let files = [
        ".sitemap1.xml.tmp-12".to_string(),
        ".sitemap.xml.tmp-12.1".to_string(),
        ".sitemap.xml.tmp-34.18446744073709551615".to_string(),
        ".robots.txt.tmp-12".to_string(),
        format!(".sitemap2.xml.tmp-{}", std::process::id()),
        ".notes.txt.tmp-12".to_string(),
        "sitemap3-tmp12.xml".to_string(),
        "sitemap4-tmp34.xml".to_string(),
    ];
    for f in &files {
        fs::write(dir.path().join(f), EMPTY_URLSET).unwrap();
    }
    urlset::write(&entries(1), &o).unwrap();
    assert_eq!(
        listing(dir.path()),
        [".notes.txt.tmp-12".to_string(), "sitemap.xml".to_string()]
    );
}

#[test]
fn a_set_left_live_under_interim_names_is_replaced_whole() {
    let dir = tempfile::tempdir().unwrap();
    let o = split(dir.path());
    urlset::write(&entries(5), &o).unwrap();
    // As a run killed between its interim index and its real one leaves it (PID 0 is
    // never a writer's).
    let index = fs::read_to_string(dir.path().join("sitemap.xml")).unwrap();
    for n in 1..=3 {
        fs::rename(
            dir.path().join(format!("sitemap{n}.xml")),
            dir.path().join(format!("sitemap{n}-tmp0.xml")),
        )
        .unwrap();
    }
    let index = index.replace(".xml</loc>", "-tmp0.xml</loc>");
    fs::write(dir.path().join("sitemap.xml"), index).unwrap();
    urlset::write(&entries(4), &o).unwrap();
    assert_eq!(
        listing(dir.path()),
        ["sitemap.xml", "sitemap1.xml", "sitemap2.xml"]
    );
}

#[test]
fn rewriting_a_split_set_leaves_only_the_new_set() {
    let dir = tempfile::tempdir().unwrap();
    let o = split(dir.path());
    urlset::write(&entries(5), &o).unwrap();
    let report = urlset::write(&entries(6), &o).unwrap();
    assert_eq!(
        listing(dir.path()),
        [
            "sitemap.xml",
            "sitemap1.xml",
            "sitemap2.xml",
            "sitemap3.xml"
        ]
    );
    let rendered = render(&entries(6), &o).unwrap();
    for f in rendered {
        assert_eq!(
            fs::read(dir.path().join(&f.name)).unwrap(),
            f.bytes,
            "{}",
            f.name
        );
    }
    validate(&report.files);
}
