//! A fuzz harness for git dating: generated histories (pages added, deleted, moved, edited in
//! what a reader sees or only in what no reader sees, in random mixes, with long runs of one
//! kind of change), each read back by the walk and checked against the answer kept while the
//! history was made, for both significance rules; a shallow clone at a random depth must give
//! each page the full clone's date or none, exactly as far as its history reaches. Every case
//! must finish within a bound linear in the commits that touch its pages, and the walk's own
//! work (how often a file waits for a version) must stay within twice those commits. A run
//! that starts from what an earlier run kept (at a random older commit) must read only the
//! commits since and give every file the same date, by the same commit, as a whole walk.
//!
//! `cargo test --test it -- --ignored fuzz_git::` runs it for `FUZZ_SECONDS` (default 60);
//! `FUZZ_SEED` replays a run. A short smoke run is part of the normal test suite.

use crate::common;

use common::gitrepo::Repo;
use common::history::{History, Mix, Op, generate, stamp, time_of};
use common::{Rng, seed_from_env};
use sitemapgen::lastmod::FileHistory;
use sitemapgen::lastmod::git::{GitHistory, GitOptions, GitProbe, read_history};
use std::path::Path;
use std::time::{Duration, Instant};

/// A case's time: a base for the git processes and clones, and a share per commit that
/// touches a page (debug builds, a loaded machine).
const BASE_TIME: Duration = Duration::from_secs(20);
const PER_TOUCH: Duration = Duration::from_millis(10);

fn read(dir: &Path, any_commit: bool) -> GitHistory {
    read_with(dir, any_commit, true)
}

/// `read`, starting from what the last run kept (`recall`) or reading the whole history.
fn read_with(dir: &Path, any_commit: bool, recall: bool) -> GitHistory {
    let opts = GitOptions {
        compare: if any_commit {
            None
        } else {
            GitOptions::default().compare
        },
        recall,
        ..Default::default()
    };
    match read_history(&dir.join("content"), &opts) {
        Ok(GitProbe::Ready(h)) => *h,
        other => panic!("no history: {other:?}"),
    }
}

/// Checks `h` (of the clone at `root`, holding the `depth` newest commits, or all) against
/// the answer.
fn check(
    what: &str,
    h: &GitHistory,
    root: &Path,
    history: &History,
    depth: Option<usize>,
    any: bool,
) {
    let mut pages: Vec<(String, usize)> = history
        .pages
        .iter()
        .map(|p| (p.path.clone(), if any { p.last_any } else { p.last }))
        .collect();
    pages.push(("content/_index.md".into(), 1));
    for (path, last) in pages {
        let reached = depth.is_none_or(|d| last + d >= history.commits + 2);
        let want = if reached {
            FileHistory::Committed(match h.state(&root.join(&path)) {
                FileHistory::Committed(d) => d,
                other => panic!(
                    "{what}: {path}: want {}, got {other:?}",
                    stamp(time_of(last))
                ),
            })
        } else {
            FileHistory::Unreached
        };
        let got = h.state(&root.join(&path));
        assert_eq!(got, want, "{what}: {path}");
        if let FileHistory::Committed(d) = got {
            assert_eq!(d.to_string(), stamp(time_of(last)), "{what}: {path}");
        }
    }
}

/// One case from `seed`; returns the commits that touched a page.
fn case(seed: u64, what: &str) -> usize {
    let mut rng = Rng(seed | 1);
    let commits = match rng.below(10) {
        // A long history, mostly one kind of change to few pages.
        0 => 500 + rng.below(1500),
        _ => 2 + rng.below(200),
    };
    let mix = match rng.below(6) {
        0 => {
            let op = *rng.pick(&[
                Op::Weight,
                Op::MoveWeight,
                Op::Format,
                Op::Whitespace,
                Op::Move,
            ]);
            Mix(vec![(op, 20), (Op::Body, 1)])
        }
        1 => Mix::balanced(),
        _ => Mix::random(&mut rng),
    };
    let start = 1 + rng.below(20);
    let history = generate(rng.next(), commits, start, &mix);
    let touches: usize = history.pages.iter().map(|p| p.touched).sum::<usize>() + history.commits;
    let any = rng.below(4) == 0;
    let what = format!(
        "{what}: {commits} commits, {} pages, any-commit {any}, {mix:?}",
        history.pages.len()
    );

    let started = Instant::now();
    let repo = Repo::new();
    repo.fast_import(&history.stream);
    let h = read(&repo.root, any);
    check(&what, &h, &repo.root, &history, None, any);
    assert!(
        h.work().waits <= 2 * touches,
        "{what}: {} waits for {touches} commits touching pages",
        h.work().waits
    );
    assert!(
        !h.work().recalled,
        "{what}: nothing was kept before the first run"
    );
    if commits > 1 && rng.below(2) == 0 {
        // A run at an older commit keeps its outcomes; the run at `main` starts from them.
        let back = 1 + rng.below(commits - 1);
        repo.git(&["checkout", "-q", "-f", "--detach", &format!("main~{back}")]);
        let _ = read(&repo.root, any);
        repo.git(&["checkout", "-q", "-f", "main"]);
        let h = read(&repo.root, any);
        let what = format!("{what}, recalled from main~{back}");
        assert!(h.work().recalled, "{what}: the kept outcomes were not used");
        assert_eq!(h.work().commits, back, "{what}: commits read");
        check(&what, &h, &repo.root, &history, None, any);
        let whole = read_with(&repo.root, any, false);
        assert!(!whole.work().recalled);
        for p in &history.pages {
            let path = repo.root.join(&p.path);
            assert_eq!(h.state(&path), whole.state(&path), "{what}: {}", p.path);
            assert_eq!(h.commit(&path), whole.commit(&path), "{what}: {}", p.path);
        }
        assert_eq!(h.depth_needed(), whole.depth_needed(), "{what}: depth");
        assert_eq!(h.passed(), whole.passed(), "{what}: passed over");
    }
    if rng.below(3) == 0 {
        let depth = 1 + rng.below(commits + 1);
        let clone = repo.root.parent().unwrap().join("clone");
        let url = format!("file://{}", repo.root.display());
        let out = Repo::command(repo.root.parent().unwrap())
            .args(["clone", "-q", "--depth", &depth.to_string(), &url, "clone"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{what}: clone: {out:?}");
        // As deep as the history, the clone is whole (git may still list its root as a
        // boundary: nothing lies past it).
        let shallow = depth < commits;
        let h = read(&clone, any);
        assert_eq!(
            h.shallow().is_some_and(|s| s.cut),
            shallow,
            "{what}: depth {depth}"
        );
        check(
            &format!("{what}, depth {depth}"),
            &h,
            &clone,
            &history,
            shallow.then_some(depth),
            any,
        );
    }
    let took = started.elapsed();
    let bound = BASE_TIME + PER_TOUCH * touches as u32;
    assert!(
        took < bound,
        "{what}: {took:?} (bound {bound:?} for {touches} commits touching pages)"
    );
    touches
}

/// Runs cases until `budget` is spent or `max_cases` ran; returns how many ran and the
/// commits they read.
fn fuzz(budget: Duration, max_cases: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed | 1);
    let started = Instant::now();
    let (mut cases, mut touches) = (0, 0);
    while started.elapsed() < budget && cases < max_cases {
        let case_seed = rng.next();
        touches += case(
            case_seed,
            &format!("case {cases} (FUZZ_SEED={seed}, case seed {case_seed})"),
        );
        cases += 1;
    }
    (cases, touches)
}

#[test]
fn fuzz_smoke() {
    // A fixed number of cases from a fixed seed: the same ones every run, however fast the
    // machine (the long run, with --ignored, fuzzes for FUZZ_SECONDS).
    let (cases, _) = fuzz(Duration::MAX, 2, 0x6175);
    assert_eq!(cases, 2);
}

#[test]
#[ignore = "long: run with --ignored (FUZZ_SECONDS, default 60)"]
fn fuzz_git() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = seed_from_env();
    let (cases, touches) = fuzz(Duration::from_secs(secs), usize::MAX, seed);
    println!(
        "fuzz_git: {cases} histories in {secs} s (FUZZ_SEED={seed}), {touches} commits touching pages, every date as the history says, work linear"
    );
}
