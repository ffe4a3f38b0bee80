//! Kills real `build` runs at random moments while they write a split sitemap over an older
//! one, and checks that the set on disk is always one run's, whole, and that the next run
//! removes whatever the killed one left behind.
//!
//! Half the kills land anywhere in a run, half within its write (after its first temporary
//! file appears). Ignored by default: it runs for `CRASH_SECONDS` (default 60). `CRASH_PAGES` (default
//! 100,000) sets the site's size, `CRASH_SEED` the random delays.
//! `cargo test --release --test it -- --ignored --nocapture crash_write::`

use sitemapgen::sitemap::owned::Record;
use sitemapgen::sitemap::read::{Gzip, Sitemap, SitemapKind};
use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: `SITEMAPGEN_BIN` (CI passes the release build), else the one cargo built.
fn bin() -> String {
    std::env::var("SITEMAPGEN_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_sitemapgen").to_string())
}
/// URLs per part: 100,000 pages make 50 parts, so a kill often lands between two renames.
const PER_PART: usize = 2_000;
const HOSTS: [&str; 2] = ["https://old.example.com/", "https://new.example.com/"];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A Zola site of `pages` pages in 100 sections.
fn make_site(dir: &Path, pages: usize) {
    fs::write(
        dir.join("config.toml"),
        "base_url = \"https://example.com/\"\ntitle = \"big\"\n",
    )
    .unwrap();
    fs::write(
        dir.join("sitemap.toml"),
        format!("max_urls_per_file = {PER_PART}\n"),
    )
    .unwrap();
    let content = dir.join("content");
    fs::create_dir_all(&content).unwrap();
    fs::write(content.join("_index.md"), "+++\ntitle = \"home\"\n+++\n").unwrap();
    for s in 0..100 {
        let section = content.join(format!("s{s:02}"));
        fs::create_dir_all(&section).unwrap();
        fs::write(section.join("_index.md"), "+++\ntitle = \"s\"\n+++\n").unwrap();
    }
    for i in 0..pages {
        let day = 1 + i % 28;
        fs::write(
            content.join(format!("s{:02}/page-{i:07}.md", i % 100)),
            format!("+++\ntitle = \"p{i}\"\ndate = 2024-01-{day:02}\n+++\nbody\n"),
        )
        .unwrap();
    }
}

fn build(site: &Path, host: &str) -> Command {
    let mut cmd = Command::new(bin());
    cmd.args(["build", "-q", "--site"])
        .arg(site)
        .args(["--base-url", host])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// The locs of one sitemap file; panics naming `path` when it cannot be read whole.
fn locs(path: &Path) -> (SitemapKind, Vec<String>) {
    let sitemap =
        Sitemap::open(path, Gzip::ByName).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let kind = sitemap.root().kind;
    let locs = sitemap
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", path.display())).loc)
        .collect();
    (kind, locs)
}

/// Checks that `public` holds one whole set of one run; returns its host and URL count.
fn one_runs_set(public: &Path) -> (String, usize) {
    let (kind, parts) = locs(&public.join("sitemap.xml"));
    assert_eq!(kind, SitemapKind::SitemapIndex);
    let host = HOSTS
        .iter()
        .find(|h| parts.iter().all(|p| p.starts_with(*h)))
        .unwrap_or_else(|| panic!("the index names parts of both hosts: {parts:?}"));
    let mut seen = HashSet::new();
    for part in &parts {
        let name = &part[host.len()..];
        let (kind, urls) = locs(&public.join(name));
        assert_eq!(kind, SitemapKind::UrlSet, "{name}");
        for url in urls {
            assert!(
                url.starts_with(host),
                "{name} of a {host} index holds {url}"
            );
            assert!(seen.insert(url.clone()), "{url} is listed twice");
        }
    }
    (host.to_string(), seen.len())
}

/// Checks that the record of ours names every file of ours in `public` (all of them but
/// the temporary and interim ones, which the next run knows by their names).
fn recorded(public: &Path) {
    let record = Record::read(public).expect("a record of ours");
    let temp = leftovers(public);
    for e in fs::read_dir(public).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !temp.contains(&name) {
            assert!(record.names(&name), "{name} is not in the record");
        }
    }
}

/// The files in `public` a run of ours writes only while it runs.
fn leftovers(public: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(public)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp-") || n.contains("-tmp"))
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "kills builds for CRASH_SECONDS (default 60): run with --ignored"]
fn a_killed_build_leaves_one_runs_set_and_the_next_run_cleans_up() {
    let budget = Duration::from_secs(env_or("CRASH_SECONDS", 60));
    let pages = env_or("CRASH_PAGES", 100_000) as usize;
    let mut seed = env_or("CRASH_SEED", 0x9E37_79B9_7F4A_7C15) | 1;
    let mut random = move || {
        // xorshift64: enough to spread the kills.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path();
    make_site(site, pages);
    let public = site.join("public");

    let started = Instant::now();
    assert!(build(site, HOSTS[0]).status().unwrap().success());
    let whole = started.elapsed();
    let (_, urls) = one_runs_set(&public);
    assert!(urls > PER_PART, "the site must be split");

    let deadline = Instant::now() + budget;
    let (mut trials, mut new_live, mut left) = (0usize, 0usize, 0usize);
    while Instant::now() < deadline {
        // The set on disk is HOSTS[trials % 2]'s (the previous trial's last run wrote it).
        let new = HOSTS[(trials + 1) % 2];
        trials += 1;
        let mut child = build(site, new).spawn().unwrap();
        if trials % 2 == 0 {
            // Anywhere from the start to a little past a whole run.
            std::thread::sleep(whole.mul_f64((random() % 1_200) as f64 / 1_000.0));
        } else {
            // Within the write: once its first temporary file is there, up to 60 ms later.
            let tag = format!(".tmp-{}", child.id());
            let give_up = Instant::now() + whole * 2;
            while Instant::now() < give_up
                && !fs::read_dir(&public)
                    .unwrap()
                    .any(|e| e.unwrap().file_name().to_string_lossy().contains(&tag))
            {
                std::thread::sleep(Duration::from_micros(500));
            }
            std::thread::sleep(Duration::from_millis(random() % 60));
        }
        let _ = child.kill();
        child.wait().unwrap();

        let (host, count) = one_runs_set(&public);
        assert_eq!(count, urls, "trial {trials}: the {host} set is not whole");
        recorded(&public);
        new_live += usize::from(host == new);
        left += usize::from(!leftovers(&public).is_empty());
        // The next run replaces the set and removes what the killed one left.
        assert!(build(site, new).status().unwrap().success());
        let (host, count) = one_runs_set(&public);
        assert_eq!((host.as_str(), count), (new, urls), "trial {trials}");
        assert_eq!(
            leftovers(&public),
            Vec::<String>::new(),
            "trial {trials}: the next run left these"
        );
        recorded(&public);
    }
    eprintln!(
        "{trials} kills in {:.0?} (one build: {whole:.2?}); the killed run's set was live \
         after {new_live}; {left} left files for the next run to remove",
        started.elapsed()
    );
    assert!(trials > 0);
}
