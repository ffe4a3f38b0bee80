//! A mutation fuzzer for the front matter parsers (TOML, YAML, JSON, Org-mode) and the site
//! config reader (TOML, YAML, JSON), run for a bounded time: no input may panic, overflow a
//! worker's stack, take long or much memory, or fail without naming the file.
//!
//! `cargo test --release --test it -- --ignored fuzz_frontmatter::` runs it for `FUZZ_SECONDS`
//! (default 60); `FUZZ_SEED` repeats a run. The quick variant runs in every `cargo test`.

use crate::common;

use common::Rng;

use std::path::Path;
use std::time::{Duration, Instant};

use sitemapgen::frontmatter::{self, Options};
use sitemapgen::siteconfig;

/// Valid and hostile starting points, in every format.
const SEEDS: &[&str] = &[
    "+++\ntitle = \"Hello\"\ndate = 2024-01-02T03:04:05Z\ndraft = false\nslug = \"s\"\n[taxonomies]\ntags = [\"a\", \"b\"]\n[extra]\nsitemap = { priority = 0.5, changefreq = \"weekly\" }\n+++\nBody ![i](/i.png)\n",
    "---\ntitle: Hello\ndate: 2024-01-02\ntags: [a, b]\ncategories:\n  - x\n  - y\nsitemap:\n  priority: 0.7\n  changefreq: daily\naliases: [/old/]\nbase: &b {k: v}\nmore: *b\n---\nBody\n",
    "{\n  \"title\": \"Hello\",\n  \"date\": \"2024-01-02\",\n  \"tags\": [\"a\", \"b\"],\n  \"sitemap\": {\"priority\": 0.3}\n}\nBody\n",
    "#+TITLE: Org\n#+DATE: 2023-04-08\n#+tags[]: a b\n#+DRAFT: true\nBody\n",
    "---\na0: &a0 [lol, lol, lol]\na1: &a1 [*a0, *a0, *a0]\na2: &a2 [*a1, *a1, *a1]\n---\n",
    "---\nx:\n k:\n  k:\n   k:\n    k: 1\n---\n",
    "+++\nx = [[[[1]]]]\ny = {a={b={c=1}}}\nz.a.b.c = 2\n[[arr]]\nq = 1\n+++\n",
];

/// Site configs, by the extension they are read with.
const CONFIGS: &[(&str, &str)] = &[
    (
        "toml",
        "baseURL = \"https://example.com/\"\n[taxonomies]\ntag = \"tags\"\n[params]\nx = [1, 2]\n",
    ),
    (
        "yaml",
        "baseURL: https://example.com/\nlanguages:\n  en: &en {weight: 1}\n  fr: *en\nparams:\n  - 1.5\n  - .inf\n",
    ),
    (
        "json",
        "{\"baseURL\": \"https://example.com/\", \"params\": {\"a\": [1, {\"b\": null}]}}\n",
    ),
];

/// Pieces the mutator inserts: the syntax the parsers branch on.
const TOKENS: &[&str] = &[
    "&a ",
    "*a",
    "<<: *a\n",
    "[",
    "]",
    "{",
    "}",
    "- ",
    "\n  ",
    "\n",
    "---\n",
    "+++\n",
    "...\n",
    "\"\"\"",
    "'''",
    "[[x]]\n",
    "x = ",
    "k: ",
    ": ",
    ", ",
    "0x7f",
    "1979-05-27T07:32:00Z",
    "nan",
    ".inf",
    "\\u00e9",
    "\u{feff}",
    "!!binary ",
    "!!int ",
    "? ",
    "#+",
    "#",
    "é",
    "\0",
    "\\",
    "\"",
    "'",
    "|\n",
    ">-\n",
    "\t",
    "1e999",
    "-9223372036854775809",
];

/// The largest input made: parsers must be bounded well below it anyway.
const MAX_INPUT: usize = 256 << 10;

/// One to eight random edits of `input`.
fn mutate(rng: &mut Rng, input: &str) -> String {
    let mut b = input.as_bytes().to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(b.len() + 1);
        match rng.below(6) {
            0 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            1 if at < b.len() => b[at] = rng.next() as u8,
            2 => {
                let end = (at + rng.below(16)).min(b.len());
                b.drain(at..end);
            }
            3 => {
                // Repeat a slice: deep nesting, long lists, many aliases.
                let end = (at + 1 + rng.below(24)).min(b.len());
                let piece = b[at..end].to_vec();
                for _ in 0..rng.below(200) {
                    if b.len() + piece.len() > MAX_INPUT {
                        break;
                    }
                    b.splice(at..at, piece.iter().copied());
                }
            }
            4 => {
                let other = SEEDS[rng.below(SEEDS.len())].as_bytes();
                let from = rng.below(other.len());
                let end = (from + rng.below(64)).min(other.len());
                b.splice(at..at, other[from..end].iter().copied());
            }
            _ => b.truncate(at),
        }
    }
    b.truncate(MAX_INPUT);
    String::from_utf8_lossy(&b).into_owned()
}

/// The process's peak memory so far, in KiB (Linux; 0 elsewhere).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Parses one input as a page and, in turn, as every kind of config; panics on a bad outcome.
fn check(input: &str, lenient: bool) {
    let page = Path::new("content/p.md");
    let opts = Options {
        lenient,
        keep_title: true,
        ..Options::default()
    };
    let start = Instant::now();
    if let Err(e) = frontmatter::parse(input, page, &opts) {
        let msg = e.to_string();
        assert!(msg.contains("content/p.md"), "error names no file: {msg}");
    }
    for ext in ["toml", "yaml", "json"] {
        let path = format!("hugo.{ext}");
        if let Err(e) = siteconfig::parse_value(input, ext, Path::new(&path)) {
            let msg = e.to_string();
            assert!(msg.contains(&path), "error names no file: {msg}");
        }
    }
    // Generous for a debug build; a release build takes milliseconds.
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
}

/// Runs mutated inputs until `budget` is spent (or `max_cases` run); returns the count.
fn fuzz(seed: u64, budget: Duration, max_cases: usize) -> usize {
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let mut cases = 0;
    let mut corpus: Vec<String> = SEEDS.iter().map(|s| s.to_string()).collect();
    corpus.extend(CONFIGS.iter().map(|(_, c)| c.to_string()));
    while start.elapsed() < budget && cases < max_cases {
        let base = corpus[rng.below(corpus.len())].clone();
        let input = mutate(&mut rng, &base);
        let lenient = rng.below(2) == 0;
        // A worker thread's stack (2 MiB), where pages are parsed in a run.
        let job = input.clone();
        let outcome = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || check(&job, lenient))
            .expect("a thread starts")
            .join();
        if outcome.is_err() {
            panic!("seed {seed}, case {cases}: failed on input {input:?}");
        }
        // Keep some mutants as new starting points, so edits compound.
        if corpus.len() < 512 && rng.below(8) == 0 && input.len() < 16 << 10 {
            corpus.push(input);
        }
        cases += 1;
    }
    assert!(
        peak_kib() < 2 << 20,
        "peak memory {} KiB after {cases} cases",
        peak_kib()
    );
    cases
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
}

#[test]
fn fuzz_quick() {
    fuzz(0x5eed, Duration::from_secs(20), 300);
}

#[test]
#[ignore = "runs for FUZZ_SECONDS (default 60): CI runs it with --ignored"]
fn fuzz_frontmatter_and_site_configs() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = seed();
    // Said first: a stack overflow aborts the process, and the seed repeats the run.
    eprintln!("fuzz_frontmatter: seed {seed}, {secs} s");
    let cases = fuzz(seed, Duration::from_secs(secs), usize::MAX);
    eprintln!("fuzz_frontmatter: {cases} cases in {secs} s (seed {seed}), no failure");
}
