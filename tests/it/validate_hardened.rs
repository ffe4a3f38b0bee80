//! `sitemapgen validate` on hostile input, run as a user would (issue 18): it never panics,
//! rejects what is not well-formed XML, and stops at the protocol's size in bounded memory.

use crate::common::stdout;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sitemapgen");
const DECL: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const ROOT: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";

/// Runs `sitemapgen validate FILE`, killed after `limit`; returns its output.
fn validate(file: &Path, limit: Duration) -> Output {
    validate_measured(file, limit).0
}

/// [`validate`], with the peak resident set of that one process in KiB, where the system
/// tells it: Linux's `VmHWM` of the child, read while it runs (its rusage would not do: the
/// tests share one process, and a child's counts the parent's pages from before its exec).
fn validate_measured(file: &Path, limit: Duration) -> (Output, Option<i64>) {
    let mut child = Command::new(BIN)
        .arg("validate")
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak: Option<i64> = None;
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        let hwm = fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        });
        if let Some(kib) = hwm {
            peak = Some(peak.map_or(kib, |p| p.max(kib)));
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("validate {} still running after {limit:?}", file.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (child.wait_with_output().unwrap(), peak)
}

#[test]
fn a_non_ascii_lastmod_is_an_invalid_date_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (i, date) in ["2024-05-0é", "2024-05-€1T10:00:00Z", "2024-05-0ßT10:00:00Z"]
        .iter()
        .enumerate()
    {
        let path = dir.path().join(format!("d{i}.xml"));
        let xml = format!(
            "{DECL}{ROOT}\n<url><loc>https://example.com/</loc><lastmod>{date}</lastmod></url>\n</urlset>\n"
        );
        fs::write(&path, xml).unwrap();
        let o = validate(&path, Duration::from_secs(30));
        assert_eq!(o.status.code(), Some(1), "{date}: {o:?}");
        assert!(
            stdout(&o).contains(&format!("d{i}.xml:3: error: Invalid date")),
            "{date}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn files_that_are_not_well_formed_are_parsing_errors() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{ROOT}\n<url><loc>https://example.com/</loc></url>\n</urlset>\n");
    let files = [
        (
            "xml-version-2",
            format!("<?xml version=\"2.0\" encoding=\"UTF-8\"?>\n{body}"),
        ),
        (
            "xml-version-garbage",
            format!("<?xml version=\"1e-400\" encoding=\"UTF-8\"?>\n{body}"),
        ),
        ("double-bom", format!("\u{feff}\u{feff}{DECL}{body}")),
        (
            "comment-double-hyphen",
            format!("{DECL}<!-- a -- b -->{body}"),
        ),
        (
            "comment-control-char",
            format!("{DECL}<!-- \u{1} -->{body}"),
        ),
        ("pi-control-char", format!("{DECL}<?pi \u{1}?>{body}")),
        (
            "stylesheet-nul",
            format!("{DECL}<?xml-stylesheet type=\"text/xsl\" href=\"a\0b\"?>\n{body}"),
        ),
    ];
    for (name, xml) in files {
        let path = dir.path().join(format!("{name}.xml"));
        fs::write(&path, xml).unwrap();
        let o = validate(&path, Duration::from_secs(30));
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("error: Parsing error"),
            "{name}: {}",
            stdout(&o)
        );
    }
}

/// validate-invalid-names-accepted (round 2): element and attribute names that are not XML
/// names are not well-formed (xmllint refuses each); names XML allows, non-ASCII ones
/// included, stay accepted.
#[test]
fn element_and_attribute_names_that_are_not_xml_names_are_parsing_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">";
    let loc = "<loc>https://example.com/</loc>";
    let link = "rel=\"alternate\" hreflang=\"en\" href=\"https://example.com/\"";
    let wrap = |url: &str| format!("{DECL}{root}\n{url}\n</urlset>\n");
    let bad = [
        (
            format!("<url>{loc}<xhtml:lin{{ {link}/></url>"),
            "<xhtml:lin{> is not an XML name",
        ),
        (
            format!("<url a{{b=\"1\">{loc}</url>"),
            "the attribute name 'a{b' is not an XML name",
        ),
        (
            format!("<url 1a=\"1\">{loc}</url>"),
            "the attribute name '1a' is not an XML name",
        ),
        (format!("<url>{loc}<1x/></url>"), "<1x> is not an XML name"),
        (format!("<url>{loc}<-x/></url>"), "<-x> is not an XML name"),
        (
            format!("<url>{loc}<x\u{a0}y/></url>"),
            "<x\u{a0}y> is not an XML name",
        ),
        (
            format!("<url>{loc}<a::b/></url>"),
            "<a::b> is not an XML name",
        ),
        (
            format!("<url xhtml:a:b=\"1\">{loc}</url>"),
            "the attribute name 'xhtml:a:b' is not an XML name",
        ),
    ];
    for (i, (url, message)) in bad.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.xml"));
        fs::write(&path, wrap(url)).unwrap();
        let o = validate(&path, Duration::from_secs(30));
        assert_eq!(o.status.code(), Some(1), "{url}: {}", stdout(&o));
        assert!(
            stdout(&o).contains(&format!(
                ":3: error: Parsing error: not well-formed XML: {message}\n"
            )),
            "{url}: {}",
            stdout(&o)
        );
    }
    // Allowed names: an unknown attribute is no error of well-formedness.
    let path = dir.path().join("good.xml");
    fs::write(
        &path,
        wrap(&format!(
            "<url data-é.x_1=\"1\">{loc}<xhtml:link {link}/></url>"
        )),
    )
    .unwrap();
    let o = validate(&path, Duration::from_secs(30));
    assert!(!stdout(&o).contains("not an XML name"), "{}", stdout(&o));
}

#[test]
fn a_gzip_bomb_with_one_huge_loc_stops_at_the_size_limit_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.xml.gz");
    let mut gz = flate2::write::GzEncoder::new(
        fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    write!(gz, "{DECL}{ROOT}<url><loc>https://example.com/").unwrap();
    // 64 MiB: past the limit, which is where reading stops, whatever follows it.
    let block = vec![b'a'; 1 << 20];
    for _ in 0..64 {
        gz.write_all(&block).unwrap();
    }
    write!(gz, "</loc></url></urlset>").unwrap();
    gz.finish().unwrap();
    let (o, rss) = validate_measured(&path, Duration::from_secs(120));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("error: Sitemap file size error: more than 52,428,800 bytes"),
        "{}",
        stdout(&o)
    );
    if let Some(kib) = rss {
        // Before: about twice the <loc> (128 MiB here); now the binary and a few MB.
        assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
    }
}

#[test]
fn endless_input_ends_with_exit_1() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        if !Path::new(dev).exists() {
            continue;
        }
        let o = validate(Path::new(dev), Duration::from_secs(60));
        assert_eq!(o.status.code(), Some(1), "{dev}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("Parsing error"),
            "{dev}: {}",
            stdout(&o)
        );
    }
}
