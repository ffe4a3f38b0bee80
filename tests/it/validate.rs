//! `validate` over the hand-written corpus (tests/validate-corpus/), over files generated past
//! the protocol limits, and (when ../shared is present) against validate.sh on valid files.

use crate::common;

use sitemapgen::sitemap::validate::{
    FileReport, FindingKind, Severity, ValidateOptions, exit_code, print_report, run, validate_file,
};
use sitemapgen::vocab::protocol::MAX_URLS as MAX_ENTRIES;
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use url::Url;

/// The protocol's byte limit, in the type file sizes have.
const MAX_BYTES: u64 = sitemapgen::vocab::protocol::MAX_BYTES as u64;

const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate-corpus")
}

/// A corpus file and what its `.expected` sidecar says: `base-url URL` and `LINE KIND-NAME` lines.
struct Case {
    path: PathBuf,
    base_url: Option<Url>,
    expected: BTreeSet<(usize, String)>,
}

fn corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut names: Vec<PathBuf> = fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none_or(|e| e != "expected"))
        .collect();
    names.sort();
    for path in names {
        let sidecar = PathBuf::from(format!("{}.expected", path.display()));
        let text = fs::read_to_string(&sidecar)
            .unwrap_or_else(|_| panic!("{} has no .expected sidecar", path.display()));
        let mut base_url = None;
        let mut expected = BTreeSet::new();
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if let Some(u) = line.strip_prefix("base-url ") {
                base_url = Some(Url::parse(u.trim()).unwrap());
                continue;
            }
            let (n, kind) = line.split_once(' ').unwrap();
            assert!(
                FindingKind::from_name(kind).is_some(),
                "{}: unknown finding name {kind:?}",
                sidecar.display()
            );
            expected.insert((n.parse().unwrap(), kind.to_string()));
        }
        cases.push(Case {
            path,
            base_url,
            expected,
        });
    }
    cases
}

fn found(report: &FileReport) -> BTreeSet<(usize, String)> {
    report
        .findings
        .iter()
        .map(|f| (f.line, f.kind.name().to_string()))
        .collect()
}

#[test]
fn every_corpus_file_gets_exactly_its_expected_findings() {
    let cases = corpus();
    let mut failures = Vec::new();
    for case in &cases {
        let opts = ValidateOptions {
            base_url: case.base_url.clone(),
        };
        let report = validate_file(&case.path, &opts).unwrap();
        let got = found(&report);
        if got != case.expected {
            failures.push(format!(
                "{}:\n  expected {:?}\n  got      {:?}\n  messages {:#?}",
                case.path.display(),
                case.expected,
                got,
                report
                    .findings
                    .iter()
                    .map(|f| &f.message)
                    .collect::<Vec<_>>()
            ));
        }
        // No finding is reported twice, and each carries its kind's severity and the file.
        assert_eq!(report.findings.len(), got.len(), "{}", case.path.display());
        for f in &report.findings {
            assert_eq!(f.severity, f.kind.severity());
            assert_eq!(f.file, case.path);
            assert!(!f.message.is_empty());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_corpus_covers_every_finding_and_has_30_broken_files() {
    let cases = corpus();
    let broken = cases
        .iter()
        .filter(|c| {
            c.expected
                .iter()
                .any(|(_, k)| FindingKind::from_name(k).unwrap().severity() == Severity::Error)
        })
        .count();
    assert!(broken >= 30, "only {broken} broken files");
    let valid = cases.iter().filter(|c| c.expected.is_empty()).count();
    assert!(valid >= 5, "only {valid} valid files");
    let covered: BTreeSet<&str> = cases
        .iter()
        .flat_map(|c| c.expected.iter().map(|(_, k)| k.as_str()))
        .collect();
    // The limits are covered by the generated files below.
    let generated = [
        FindingKind::TooManyUrls,
        FindingKind::TooManySitemaps,
        FindingKind::SitemapFileSizeError,
    ];
    for kind in FindingKind::ALL {
        if !generated.contains(&kind) {
            assert!(covered.contains(kind.name()), "no corpus file for {kind:?}");
        }
    }
}

#[test]
fn valid_files_exit_0_and_broken_ones_exit_1() {
    for case in corpus() {
        let opts = ValidateOptions {
            base_url: case.base_url.clone(),
        };
        let report = validate_file(&case.path, &opts).unwrap();
        let has_error = case
            .expected
            .iter()
            .any(|(_, k)| FindingKind::from_name(k).unwrap().severity() == Severity::Error);
        let want = if has_error { 1 } else { 0 };
        assert_eq!(
            exit_code(std::slice::from_ref(&report), 0),
            want,
            "{}",
            case.path.display()
        );
    }
}

#[test]
fn gzip_reports_the_same_lines_as_plain() {
    let dir = corpus_dir();
    let opts = ValidateOptions::default();
    let plain = validate_file(&dir.join("mixture-urlset.xml"), &opts).unwrap();
    let gz = validate_file(&dir.join("mixture-urlset.xml.gz"), &opts).unwrap();
    assert_eq!(found(&plain), found(&gz));
    assert_eq!(plain.bytes, gz.bytes, "bytes are counted uncompressed");
    assert_eq!(plain.entries, gz.entries);
}

#[test]
fn report_lines_name_file_line_severity_and_kind() {
    let dir = corpus_dir();
    let opts = ValidateOptions::default();
    let reports = vec![
        validate_file(&dir.join("duplicate-url.xml"), &opts).unwrap(),
        validate_file(&dir.join("invalid-url-raw-space.xml"), &opts).unwrap(),
        validate_file(&dir.join("empty-urlset.xml"), &opts).unwrap(),
    ];
    let mut out = Vec::new();
    print_report(&reports, 0, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let d = dir.display();
    assert!(lines[0].starts_with(&format!(
        "{d}/duplicate-url.xml:5: warning: Duplicate URL: "
    )));
    assert!(lines[1].starts_with(&format!(
        "{d}/duplicate-url.xml:6: warning: Duplicate URL: "
    )));
    assert!(lines[2].starts_with(&format!(
        "{d}/invalid-url-raw-space.xml:4: error: Invalid URL: raw space in \"https://example.com/Mon Dossier/\""
    )));
    assert!(lines[3].starts_with(&format!("{d}/empty-urlset.xml: error: Empty sitemap: ")));
    assert_eq!(
        lines[4],
        "validated 3 files (6 entries): 2 errors, 2 warnings"
    );
    assert_eq!(lines.len(), 5);
}

#[test]
fn unreadable_files_exit_2_and_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.xml");
    assert!(validate_file(&missing, &ValidateOptions::default()).is_err());
    let ok = corpus_dir().join("valid-urlset.xml");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(
        &[ok.clone(), missing.clone()],
        &ValidateOptions::default(),
        &mut out,
        &mut err,
    )
    .unwrap();
    assert_eq!(code, 2);
    assert!(String::from_utf8(err).unwrap().contains("nope.xml"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&[ok], &ValidateOptions::default(), &mut out, &mut err).unwrap();
    assert_eq!(code, 0);
    assert!(String::from_utf8(out).unwrap().ends_with("no problems\n"));
}

fn write_urlset(path: &Path, urls: usize) {
    let mut f = std::io::BufWriter::new(fs::File::create(path).unwrap());
    writeln!(
        f,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{NS}\">"
    )
    .unwrap();
    for i in 0..urls {
        writeln!(f, "<url><loc>https://example.com/p/{i}/</loc></url>").unwrap();
    }
    writeln!(f, "</urlset>").unwrap();
}

#[test]
fn one_url_past_the_limit_is_too_many_urls_at_that_entry() {
    let dir = tempfile::tempdir().unwrap();
    let at_limit = dir.path().join("limit.xml");
    write_urlset(&at_limit, MAX_ENTRIES);
    let r = validate_file(&at_limit, &ValidateOptions::default()).unwrap();
    assert_eq!(found(&r), BTreeSet::new());
    assert_eq!(r.entries, MAX_ENTRIES);

    let over = dir.path().join("over.xml");
    write_urlset(&over, MAX_ENTRIES + 1);
    let r = validate_file(&over, &ValidateOptions::default()).unwrap();
    // Line 1 is the declaration, line 2 <urlset>, so entry N is on line N + 2.
    let want: BTreeSet<_> = [(MAX_ENTRIES + 3, "Too many URLs".to_string())].into();
    assert_eq!(found(&r), want);
    assert_eq!(r.entries, MAX_ENTRIES + 1);
}

#[test]
fn an_index_past_the_limit_is_too_many_sitemaps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("index.xml");
    let mut f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    writeln!(f, "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"{NS}\">").unwrap();
    for i in 0..=MAX_ENTRIES {
        writeln!(
            f,
            "<sitemap><loc>https://example.com/s{i}.xml</loc></sitemap>"
        )
        .unwrap();
    }
    writeln!(f, "</sitemapindex>").unwrap();
    drop(f);
    let r = validate_file(&path, &ValidateOptions::default()).unwrap();
    let want: BTreeSet<_> = [(MAX_ENTRIES + 3, "Too many sitemaps".to_string())].into();
    assert_eq!(found(&r), want);
}

#[test]
fn a_file_past_52_428_800_bytes_is_a_size_error_plain_and_gzipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.xml");
    let mut f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    writeln!(f, "<?xml version=\"1.0\"?>\n<urlset xmlns=\"{NS}\">").unwrap();
    // Few URLs, long ones: the byte limit is hit long before the URL limit. Comments hold
    // most of the bytes, as the limit counts them all: checking 50 MB of URLs took a debug
    // build 15 seconds.
    let pad = "x".repeat(1900);
    for i in 0..100 {
        writeln!(f, "<url><loc>https://example.com/{pad}/{i}</loc></url>").unwrap();
    }
    // One comment a line: a single 50 MB comment would pass validate's 1 MiB markup limit.
    let filler = format!("<!--{pad}-->\n");
    for _ in 0..=MAX_BYTES / filler.len() as u64 {
        f.write_all(filler.as_bytes()).unwrap();
    }
    writeln!(f, "</urlset>").unwrap();
    drop(f);
    let size = fs::metadata(&path).unwrap().len();
    assert!(size > MAX_BYTES);
    let want: BTreeSet<_> = [(0, "Sitemap file size error".to_string())].into();
    let r = validate_file(&path, &ValidateOptions::default()).unwrap();
    assert_eq!(found(&r), want);
    // Reading stops at the limit: nothing past it is read.
    assert_eq!(r.bytes, MAX_BYTES);

    let gz = dir.path().join("big.xml.gz");
    let mut enc =
        flate2::write::GzEncoder::new(fs::File::create(&gz).unwrap(), flate2::Compression::fast());
    std::io::copy(&mut fs::File::open(&path).unwrap(), &mut enc).unwrap();
    enc.finish().unwrap();
    assert!(fs::metadata(&gz).unwrap().len() < MAX_BYTES);
    let r = validate_file(&gz, &ValidateOptions::default()).unwrap();
    assert_eq!(found(&r), want);
    assert_eq!(r.bytes, MAX_BYTES);
}

#[test]
fn gzip_is_detected_by_magic_bytes_whatever_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sitemap.xml");
    fs::copy(corpus_dir().join("mixture-urlset.xml.gz"), &path).unwrap();
    let r = validate_file(&path, &ValidateOptions::default()).unwrap();
    let plain = validate_file(
        &corpus_dir().join("mixture-urlset.xml"),
        &ValidateOptions::default(),
    )
    .unwrap();
    assert_eq!(found(&r), found(&plain));
}

/// Where the shared schemas live: `SITEMAPGEN_SCHEMAS` or ../shared/schemas.
fn shared_schemas() -> Option<PathBuf> {
    let dir = std::env::var_os("SITEMAPGEN_SCHEMAS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas"));
    (dir.join("validate.sh").is_file() && common::xmllint_installed()).then_some(dir)
}

fn validate_sh_accepts(schemas: &Path, file: &Path) -> bool {
    std::process::Command::new("bash")
        .arg(schemas.join("validate.sh"))
        .arg(file)
        .output()
        .unwrap()
        .status
        .success()
}

/// Every file validate.sh accepts gets no error from us, except where the XSD is blind
/// (unencoded `<loc>`, dates W3C does not allow, URLs on another host or above the folder,
/// an index listing an index, a declared encoding other than UTF-8, an `xhtml:link` without
/// href or hreflang).
#[test]
fn agrees_with_validate_sh_on_every_valid_file() {
    let Some(schemas) = shared_schemas() else {
        eprintln!("skipped: ../shared/schemas/validate.sh or xmllint not available");
        return;
    };
    let xsd_blind = [
        FindingKind::InvalidUrl,
        FindingKind::InvalidDate,
        FindingKind::UrlNotAllowed,
        FindingKind::PathMismatch,
        FindingKind::NestedSitemapIndexes,
        // The XSD cannot see the declared encoding.
        FindingKind::UnsupportedFormat,
        // XHTML 1.0 makes every <link> attribute optional; hreflang alternates need href.
        FindingKind::MissingXmlAttribute,
    ];
    let mut files: Vec<(PathBuf, Option<Url>)> =
        corpus().into_iter().map(|c| (c.path, c.base_url)).collect();
    for dir in [schemas.join("samples"), schemas.join("../parity")] {
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy();
            let is_sitemap = name.starts_with("expected-") && name.contains("sitemap")
                || entry
                    .path()
                    .parent()
                    .is_some_and(|p| p.ends_with("samples"));
            if entry.file_type().is_file() && is_sitemap && !name.ends_with(".txt") {
                files.push((entry.path().to_path_buf(), None));
            }
        }
    }
    let mut checked = 0;
    for (file, base_url) in files {
        if !validate_sh_accepts(&schemas, &file) {
            continue;
        }
        checked += 1;
        let r = validate_file(&file, &ValidateOptions { base_url }).unwrap();
        for f in &r.findings {
            if f.severity == Severity::Error {
                assert!(
                    xsd_blind.contains(&f.kind),
                    "{}:{}: validate.sh accepts this file but we report {}: {}",
                    file.display(),
                    f.line,
                    f.kind.name(),
                    f.message
                );
            }
        }
    }
    assert!(
        checked >= 30,
        "only {checked} files accepted by validate.sh"
    );
}
