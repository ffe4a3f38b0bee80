//! Times the sitemap writer alone, on entries already in memory (issue 6: "writing alone").
//!
//! ```text
//! cargo run --release --example write-only -- OUTPUT_DIR [N]
//! ```
//!
//! Builds N entries (default 1,000,000), then times only `sitemapgen::sitemap::urlset::write` and prints
//! the seconds on stdout. The URLs and dates follow a fixed pattern that `benches/bench.sh`
//! has `awk` print too, so the two write the same `<url>` records:
//! `https://example.com/section-{i % 100}/page-{i}/`, and a lastmod of `2024-MM-DD` (month
//! `1 + i % 12`, day `1 + i % 28`), with the time `T10:MM:00+02:00` (minute `i % 60`) added
//! for two in five entries, as front matter mixes both forms.

use sitemapgen::entries::Entries;
use sitemapgen::sitemap::urlset::{WriteOptions, write};
use sitemapgen::vocab::date::{SiteTz, W3cDate};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Adds the entry of index `i`; its text is what bench.sh's awk program prints for `i`.
fn push_entry(entries: &mut Entries, i: usize) -> Result<(), String> {
    let date = format!("2024-{:02}-{:02}", 1 + i % 12, 1 + i % 28);
    let lastmod = if i % 5 < 2 {
        format!("{date}T10:{:02}:00+02:00", i % 60)
    } else {
        date
    };
    let lastmod = W3cDate::parse(&lastmod, &SiteTz::Utc)
        .ok_or_else(|| format!("the generated date {lastmod} did not parse"))?;
    let loc = format!("https://example.com/section-{}/page-{i}/", i % 100);
    entries.push(&loc).map_err(|e| e.to_string())?.lastmod = Some(lastmod);
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(output_dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: write-only OUTPUT_DIR [N]");
        return ExitCode::from(2);
    };
    let n = match args.next().map(|a| a.parse::<usize>()) {
        None => 1_000_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("write-only: N: {e}");
            return ExitCode::from(2);
        }
    };
    let mut entries = Entries::new();
    if let Err(e) = (0..n).try_for_each(|i| push_entry(&mut entries, i)) {
        eprintln!("write-only: {e}");
        return ExitCode::FAILURE;
    }
    let opts = WriteOptions {
        output_dir,
        base_url: "https://example.com/".to_string(),
        ..Default::default()
    };

    let start = Instant::now();
    let report = write(&entries, &opts);
    let seconds = start.elapsed().as_secs_f64();
    match report {
        Ok(report) => {
            eprintln!(
                "write-only: {} URLs in {} files",
                report.urls,
                report.files.len()
            );
            println!("{seconds:.6}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("write-only: {e}");
            ExitCode::FAILURE
        }
    }
}
