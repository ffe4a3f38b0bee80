//! Reads the git dates of a content tree in one pass and prints how many files got one.
//!
//! Usage: `cargo run --release --example git-dates -- DIR [--author]` (used by benches/git-bench.sh).

use sitemapgen::lastmod::git::{GitDate, GitOptions, GitProbe, read_history};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut dir = None;
    let mut opts = GitOptions::default();
    for arg in std::env::args_os().skip(1) {
        if arg == "--author" {
            opts.date = GitDate::Author;
        } else {
            dir = Some(PathBuf::from(arg));
        }
    }
    let Some(dir) = dir else {
        eprintln!("usage: git-dates DIR [--author]");
        return ExitCode::from(2);
    };
    match read_history(&dir, &opts) {
        Ok(GitProbe::Ready(h)) => {
            let unreached = match h.unreached_files() {
                0 => String::new(),
                n => format!(" ({n} past a shallow clone's history)"),
            };
            println!(
                "{} of {} tracked files got a commit date{unreached}",
                h.committed_files(),
                h.tracked_files()
            );
            ExitCode::SUCCESS
        }
        Ok(other) => {
            eprintln!("{}: {other:?}", dir.display());
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
