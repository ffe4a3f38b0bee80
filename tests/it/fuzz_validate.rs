//! A fuzz harness for `validate` that runs on stable Rust (cargo fuzz needs nightly): mutated
//! sitemaps, gzip streams and endless hostile streams go through the validator, which must not
//! panic, must stay within a few MB of heap, must finish each case in bounded time, and must
//! end every broken input in findings (an `Err` only for unreadable input).
//!
//! `cargo test --test it -- --ignored fuzz_validate::` runs it for `FUZZ_SECONDS` (default 60);
//! `FUZZ_SEED` replays a run. A short smoke run is part of the normal test suite.

use crate::common;

use common::{Rng, seed_from_env};

use sitemapgen::sitemap::validate::{FileReport, ValidateOptions, validate_reader};
use sitemapgen::vocab::protocol::MAX_BYTES;
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Heap in use and its peak, so each case's memory can be checked (tests lock [`ONE_AT_A_TIME`]).
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Heap one case may add: the validator's own limits come to a few MB.
const MAX_CASE_HEAP: usize = 16 << 20;
/// Time one case may take (the endless streams read 50 MB; debug builds are slow).
const MAX_CASE_TIME: Duration = Duration::from_secs(60);

const NS: &str = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";

/// Valid and near-valid sitemaps the mutations start from.
fn seeds() -> Vec<Vec<u8>> {
    let decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    let mut seeds: Vec<Vec<u8>> = [
        format!("{decl}<urlset {NS}>\n<url><loc>https://example.com/</loc><lastmod>2024-05-01T10:00:00+02:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n</urlset>\n"),
        format!("{decl}<?xml-stylesheet type=\"text/xsl\" href=\"/s.xsl\"?>\n<!-- c -->\n<urlset {NS} xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n<url><loc>https://example.com/a?x=1&amp;y=&#50;</loc><image:image><image:loc>https://example.com/i.png</image:loc></image:image><xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/de/\"/></url>\n<url><loc><![CDATA[https://example.com/b]]></loc><lastmod>2024</lastmod></url>\n</urlset>\n"),
        format!("\u{feff}{decl}<sitemapindex {NS}>\n<sitemap><loc>https://example.com/s1.xml</loc><lastmod>2024-05-01</lastmod></sitemap>\n</sitemapindex>\n"),
        format!("{decl}<!DOCTYPE urlset>\n<sm:urlset xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\"><sm:url><sm:loc>https://example.com/v</sm:loc><video:video><video:content_loc>https://example.com/v.mp4</video:content_loc><video:title>t</video:title></video:video></sm:url></sm:urlset>"),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate-corpus");
    if let Ok(dir) = std::fs::read_dir(corpus) {
        let mut files: Vec<_> = dir.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let plain = f.extension().is_some_and(|e| e == "xml");
            if let (true, Ok(bytes)) = (plain, std::fs::read(&f))
                && bytes.len() < 64 << 10
            {
                seeds.push(bytes);
            }
        }
    }
    seeds
}

/// Pieces that reach the parser's corners: markup, references, non-characters, multi-byte
/// characters, control characters.
const TOKENS: &[&[u8]] = &[
    b"<",
    b">",
    b"&",
    b";",
    b"</",
    b"/>",
    b"<!--",
    b"-->",
    b"--",
    b"<![CDATA[",
    b"]]>",
    b"<?",
    b"?>",
    b"<?xml version=\"2.0\"?>",
    b"<!DOCTYPE x>",
    b"&amp;",
    b"&#0;",
    b"&#x10FFFF;",
    b"&lol;",
    b"\"",
    b"'",
    b"=",
    b"xmlns:x=\"u\"",
    b"x:",
    b"\0",
    b"\x01",
    b"\x1b",
    b"\x7f",
    b"\xef\xbb\xbf",
    b"\xef\xbf\xbe",
    b"\xef\xbf\xbf",
    b"\xed\xa0\x80",
    b"\xff",
    b"\xc3",
    "é".as_bytes(),
    "€".as_bytes(),
    "𝄞".as_bytes(),
    b"\r\n",
    b" ",
    b"T",
    b"Z",
    b"+14:00",
    b"-",
    b":",
    b"%",
    b"%zz",
    b"#",
    b"https://",
    b"<url>",
    b"</url>",
    b"<loc>",
    b"</loc>",
    b"<lastmod>",
    b"</lastmod>",
    b"2024-05-0",
    b"<urlset>",
    b"</urlset>",
];

/// One random change to `b`.
fn mutate(rng: &mut Rng, b: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let at = rng.below(b.len() + 1);
    match rng.below(9) {
        0 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        1 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] = rng.next() as u8;
        }
        2 | 3 => {
            let t = rng.pick(TOKENS);
            b.splice(at..at, t.iter().copied());
        }
        4 if !b.is_empty() => {
            let end = (at + 1 + rng.below(16)).min(b.len());
            b.drain(at.min(end)..end);
        }
        5 if !b.is_empty() => {
            let start = rng.below(b.len());
            let end = (start + 1 + rng.below(64)).min(b.len());
            let piece = b[start..end].to_vec();
            let most = if rng.below(10) == 0 { 5000 } else { 4 };
            let times = 1 + rng.below(most);
            for _ in 0..times {
                b.splice(at..at, piece.iter().copied());
            }
        }
        6 => {
            let other = rng.pick(seeds);
            let start = rng.below(other.len());
            let end = (start + rng.below(200)).min(other.len());
            b.splice(at..at, other[start..end].iter().copied());
        }
        7 => b.truncate(at),
        _ => {
            let n = 1 + rng.below(8);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            b.splice(at..at, bytes);
        }
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = gz.write_all(bytes);
    gz.finish().unwrap_or_default()
}

/// Runs one input through the validator and checks the invariants; panics with `what`.
fn run_case(what: &str, input: Box<dyn Read + '_>, gzip: bool, max_line: usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let started = Instant::now();
    let opts = ValidateOptions::default();
    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        validate_reader(Path::new("fuzz.xml"), input, gzip, &opts)
    }));
    let took = started.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    let report: FileReport = match got {
        Err(_) => panic!("validate panicked on {what}"),
        Ok(Err(e)) => panic!("validate returned an error on {what}: {e}"),
        Ok(Ok(r)) => r,
    };
    assert!(took < MAX_CASE_TIME, "{what}: took {took:?}");
    assert!(
        peak < MAX_CASE_HEAP,
        "{what}: heap peaked {peak} bytes above the start"
    );
    assert!(
        report.bytes <= MAX_BYTES as u64,
        "{what}: read {} bytes",
        report.bytes
    );
    for f in &report.findings {
        assert!(
            f.line <= max_line,
            "{what}: finding on line {} of {max_line}: {f:?}",
            f.line
        );
        assert!(!f.message.is_empty(), "{what}: empty message");
    }
}

/// An endless or huge hostile stream, built from a mutated prefix.
fn hostile(rng: &mut Rng, prefix: Vec<u8>) -> (String, Box<dyn Read>) {
    let fill = *rng.pick(&[0u8, b'a', b'<', b' ', b'\n', 0xff, b'&', b'-']);
    let len = if rng.below(2) == 0 {
        u64::MAX
    } else {
        rng.below(80 << 20) as u64
    };
    let what = format!("{} prefix bytes + {len} x byte 0x{fill:02X}", prefix.len());
    let stream = std::io::Cursor::new(prefix).chain(std::io::repeat(fill).take(len));
    (what, Box::new(stream))
}

/// Runs cases until `budget` is spent or `max_cases` ran; returns how many ran.
fn fuzz(budget: Duration, max_cases: usize, seed: u64) -> usize {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let seeds = seeds();
    let mut rng = Rng(seed | 1);
    let started = Instant::now();
    let mut cases = 0;
    while started.elapsed() < budget && cases < max_cases {
        let mut b = rng.pick(&seeds).clone();
        for _ in 0..1 + rng.below(8) {
            mutate(&mut rng, &mut b, &seeds);
        }
        let what = format!("case {cases} (FUZZ_SEED={seed})");
        // Lines are counted on LF; a finding may name the line after the last.
        let max_line = b.iter().filter(|&&c| c == b'\n').count() + 1;
        match rng.below(40) {
            0 => {
                let (kind, stream) = hostile(&mut rng, b);
                run_case(&format!("{what}: {kind}"), stream, false, usize::MAX);
            }
            1..=4 => {
                let mut z = gzip(&b);
                if rng.below(2) == 0 && !z.is_empty() {
                    mutate(&mut rng, &mut z, &seeds);
                }
                let input = flate2::read::MultiGzDecoder::new(std::io::Cursor::new(z));
                run_case(&format!("{what} (gzip)"), Box::new(input), true, usize::MAX);
            }
            _ => run_case(&what, Box::new(&b[..]), false, max_line),
        }
        cases += 1;
    }
    cases
}

#[test]
fn fuzz_smoke() {
    // A fixed number of cases from a fixed seed: the same ones every run, however fast the
    // machine (the long run, with --ignored, fuzzes for FUZZ_SECONDS).
    let cases = fuzz(Duration::MAX, 300, 0x5EED);
    assert_eq!(cases, 300);
}

#[test]
#[ignore = "long: run with --ignored (FUZZ_SECONDS, default 60)"]
fn fuzz_validate() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = seed_from_env();
    let cases = fuzz(Duration::from_secs(secs), usize::MAX, seed);
    println!(
        "fuzz_validate: {cases} cases in {secs} s (FUZZ_SEED={seed}), no panic, heap < {MAX_CASE_HEAP} bytes per case"
    );
}
