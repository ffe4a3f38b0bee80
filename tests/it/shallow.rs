//! Shallow clones (issue 27): a generated history served by a local bare repository, cloned
//! through `file://` at depth 1, 10 and 50, offline. Where a shallow clone gives a date it is
//! the full clone's; it gives one exactly to the pages whose last significant change is
//! newer than its boundary; and with `git_fetch = "auto"` it gives every full-clone date.

use crate::common;

use common::gitrepo::Repo;
use common::history::{History, Mix, generate, stamp, time_of};
use common::text;
use sitemapgen::lastmod::FileHistory;
use sitemapgen::lastmod::git::{GitHistory, GitOptions, GitProbe, read_history};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// A generated site history in a work tree, and a bare copy of it that serves clones the way
/// GitHub does (blobless fetches, objects by name).
struct Served {
    history: History,
    full: Repo,
    bare: PathBuf,
}

impl Served {
    fn new(seed: u64, commits: usize) -> Served {
        let history = generate(seed, commits, 25, &Mix::balanced());
        let full = Repo::new();
        full.fast_import(&history.stream);
        let bare = full.root.parent().unwrap().join("served.git");
        git(
            full.root.parent().unwrap(),
            &["clone", "-q", "--bare", "site", "served.git"],
        );
        git(&bare, &["config", "uploadpack.allowFilter", "true"]);
        git(&bare, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
        Served {
            history,
            full,
            bare,
        }
    }

    /// A clone at `depth`, in a new folder beside the others.
    fn clone(&self, depth: usize, name: &str) -> PathBuf {
        let dest = self.full.root.parent().unwrap().join(name);
        let url = format!("file://{}", self.bare.display());
        git(
            self.full.root.parent().unwrap(),
            &["clone", "-q", "--depth", &depth.to_string(), &url, name],
        );
        dest
    }

    /// Every page's expected date: its last significant change, as git writes it.
    fn expected(&self) -> BTreeMap<String, String> {
        let mut want: BTreeMap<String, String> = self
            .history
            .pages
            .iter()
            .map(|p| (p.path.clone(), stamp(time_of(p.last))))
            .collect();
        want.insert("content/_index.md".into(), stamp(time_of(1)));
        want
    }

    /// The commit that must be newer than a clone's boundary for a page to be dated exactly:
    /// at depth `d` the clone holds the `d` newest commits, the oldest being the boundary.
    fn reached(&self, depth: usize, last: usize) -> bool {
        last + depth >= self.history.commits + 2
    }
}

/// git in `dir`, without the machine's config; it must succeed.
fn git(dir: &Path, args: &[&str]) -> Output {
    let out = Repo::command(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
    out
}

fn read(dir: &Path, fetch: bool) -> GitHistory {
    let opts = GitOptions {
        fetch,
        ..Default::default()
    };
    match read_history(&dir.join("content"), &opts).unwrap() {
        GitProbe::Ready(h) => *h,
        other => panic!("no history: {other:?}"),
    }
}

/// Each expected page's state in `h`: its date, or `None` when git gave none.
fn dates(
    h: &GitHistory,
    root: &Path,
    want: &BTreeMap<String, String>,
) -> BTreeMap<String, Option<String>> {
    want.keys()
        .map(|p| {
            let got = match h.state(&root.join(p)) {
                FileHistory::Committed(d) => Some(d.to_string()),
                FileHistory::Unreached => None,
                other => panic!("{p}: {other:?}"),
            };
            (p.clone(), got)
        })
        .collect()
}

#[test]
fn shallow_clones_date_exactly_the_pages_their_history_reaches_and_auto_fetch_all() {
    let s = Served::new(27, 160);
    let want = s.expected();
    let full = read(&s.full.root, false);
    assert!(full.shallow().is_none());
    let got = dates(&full, &s.full.root, &want);
    let full_dates: BTreeMap<String, Option<String>> = want
        .iter()
        .map(|(p, d)| (p.clone(), Some(d.clone())))
        .collect();
    assert_eq!(got, full_dates, "the full clone against the model");
    // As deep as the history: git lists the first commit as a boundary, which hides nothing.
    let clone = s.clone(s.history.commits, "as-deep");
    let h = read(&clone, false);
    assert!(h.shallow().is_none_or(|s| !s.cut));
    assert_eq!(
        dates(&h, &clone, &want),
        full_dates,
        "a clone as deep as the history"
    );

    for depth in [1, 10, 50] {
        let clone = s.clone(depth, &format!("depth-{depth}"));
        let h = read(&clone, false);
        let shallow = h.shallow().expect("a shallow clone");
        assert!(shallow.cut && shallow.fetched.is_none(), "depth {depth}");
        let got = dates(&h, &clone, &want);
        // The rule: a date is the full clone's; it is given exactly where the last
        // significant change is newer than the boundary.
        let mut exact = 0;
        for page in &s.history.pages {
            let expect = s
                .reached(depth, page.last)
                .then(|| want[&page.path].clone());
            assert_eq!(got[&page.path], expect, "depth {depth}: {}", page.path);
            exact += usize::from(expect.is_some());
        }
        assert_eq!(got["content/_index.md"], None, "depth {depth}");
        assert_eq!(h.committed_files(), exact, "depth {depth}");
        assert_eq!(h.unreached_files(), want.len() - exact, "depth {depth}");
        eprintln!(
            "depth {depth}: {exact} of {} pages dated exactly",
            want.len()
        );
        match depth {
            1 => assert_eq!(exact, 0),
            // Some pages in reach, some not: the test says something.
            _ => assert!(exact > 0 && exact < want.len(), "depth {depth}: {exact}"),
        }

        let clone = s.clone(depth, &format!("fetched-{depth}"));
        let h = read(&clone, true);
        let shallow = h.shallow().expect("it was a shallow clone");
        let fetched = shallow.fetched.as_ref().expect("a fetch ran");
        assert_eq!(fetched.failed, None, "depth {depth}");
        assert_eq!(fetched.remote.as_deref(), Some("origin"));
        assert!(!shallow.cut, "depth {depth}");
        assert_eq!(
            dates(&h, &clone, &want),
            full_dates,
            "fetched at depth {depth}"
        );
        // Blobless: the versions edits are judged by came afterwards, in batches.
        let v = h.fetches().expect("old versions fetched");
        assert!(v.versions > 0 && v.requests <= 12, "{v:?}");
    }
}

/// The binary with `args` in `dir`, `CI` unset unless `ci` names a value.
fn run(dir: &Path, args: &[&str], ci: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sitemapgen"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    if let Some(v) = ci {
        cmd.env("CI", v);
    }
    cmd.output().unwrap()
}

/// `list`'s lines (URL, lastmod, source, ..., commit), which must come out whole.
fn listed(dir: &Path, args: &[&str], ci: Option<&str>) -> String {
    let out = run(dir, &[&["list"], args].concat(), ci);
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The build's JSON summary, and its warnings (in the summary: JSON prints none apart).
fn summary(dir: &Path, args: &[&str], ci: Option<&str>) -> (serde_json::Value, String) {
    let out = run(dir, &[&["build", "--format", "json"], args].concat(), ci);
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n");
    (json, warnings)
}

#[test]
fn the_summary_says_how_pages_were_dated_and_auto_gives_the_full_clones_sitemap() {
    let s = Served::new(2727, 120);
    let want_list = listed(&s.full.root, &["--git-fetch", "never"], None);

    let clone = s.clone(10, "depth-10");
    let (json, stderr) = summary(&clone, &[], None);
    let g = &json["git"];
    let routes = s.history.pages.len() + 1;
    let exact = s
        .history
        .pages
        .iter()
        .filter(|p| s.reached(10, p.last))
        .count();
    assert_eq!(g["shallow"], true, "{json}");
    assert_eq!(g["cut"], true, "{json}");
    assert_eq!(g["exact"], exact, "{json}");
    assert_eq!(g["unreached"], routes - exact, "{json}");
    // The walk stops at the boundary, the tenth commit: nine read before it.
    assert_eq!(g["depth"], 9, "{json}");
    assert_eq!(g["fetch"], serde_json::Value::Null, "{json}");
    assert!(
        stderr.contains(&format!(
            "is a shallow clone: git dated {exact} pages exactly; for {} pages the last change lies past its history (its 9 newest commits)",
            routes - exact
        )) && stderr.contains("git_fetch = \"auto\""),
        "{stderr}"
    );

    // A depth-1 clone: its one commit has nothing to compare with, and the warning says so
    // (not "its 0 newest commits").
    let clone = s.clone(1, "depth-1");
    let (json, stderr) = summary(&clone, &[], None);
    assert_eq!(
        (&json["git"]["exact"], &json["git"]["depth"]),
        (&0.into(), &0.into()),
        "{json}"
    );
    assert!(
        stderr.contains(&format!(
            "for {routes} pages the last change lies past its history (a depth-1 clone: only its newest commit, with nothing before it to compare with)"
        )),
        "{stderr}"
    );

    // `auto` (here by CI's default) dates every page as the full clone does.
    let clone = s.clone(10, "auto-10");
    let (json, stderr) = summary(&clone, &[], Some("true"));
    let g = &json["git"];
    assert_eq!(g["shallow"], true, "{json}");
    assert_eq!(g["cut"], false, "{json}");
    assert_eq!(g["exact"], routes, "{json}");
    assert_eq!(g["unreached"], 0, "{json}");
    assert_eq!(g["fetch"]["error"], serde_json::Value::Null, "{json}");
    let oldest = s.history.pages.iter().map(|p| p.last).min().unwrap().min(1);
    assert_eq!(g["depth_needed"], s.history.commits - oldest + 2, "{json}");
    assert!(!stderr.contains("shallow"), "{stderr}");
    let clone = s.clone(10, "auto-list");
    let got = listed(&clone, &["--git-fetch", "auto"], None);
    assert_eq!(got, want_list, "the full clone's list");
    // Outside CI the default is never.
    let clone = s.clone(10, "local-10");
    let (json, _) = summary(&clone, &[], Some("false"));
    assert_eq!(json["git"]["cut"], true, "{json}");
}

#[test]
fn a_fetch_that_fails_or_hangs_falls_back_to_the_clones_own_history_saying_why() {
    let s = Served::new(7, 60);
    let want = s.expected();
    let clone = s.clone(10, "depth-10");
    let plain = dates(&read(&clone, false), &clone, &want);

    // The remote has gone.
    let gone = s.bare.with_extension("gone");
    std::fs::rename(&s.bare, &gone).unwrap();
    let h = read(&clone, true);
    let shallow = h.shallow().unwrap();
    let why = shallow.fetched.as_ref().unwrap().failed.clone().unwrap();
    assert!(why.starts_with("`git fetch origin` failed"), "{why}");
    assert!(shallow.cut);
    assert_eq!(dates(&h, &clone, &want), plain);
    let (json, stderr) = summary(&clone, &["--git-fetch", "auto"], None);
    assert!(json["git"]["fetch"]["error"].is_string(), "{json}");
    assert!(
        stderr.contains("is a shallow clone; fetching it failed (`git fetch origin` failed"),
        "{stderr}"
    );

    // A remote that never answers: stopped at the limit.
    std::fs::rename(&gone, &s.bare).unwrap();
    let hang = clone.parent().unwrap().join("hang.sh");
    std::fs::write(&hang, "#!/bin/sh\nsleep 60\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    git(
        &clone,
        &["config", "remote.origin.uploadpack", hang.to_str().unwrap()],
    );
    let started = std::time::Instant::now();
    let opts = GitOptions {
        fetch: true,
        fetch_limit: Duration::from_secs(1),
        ..Default::default()
    };
    let Ok(GitProbe::Ready(h)) = read_history(&clone.join("content"), &opts) else {
        panic!("no history");
    };
    assert!(started.elapsed() < Duration::from_secs(30));
    let why = h
        .shallow()
        .unwrap()
        .fetched
        .as_ref()
        .unwrap()
        .failed
        .clone();
    assert_eq!(
        why.as_deref(),
        Some("`git fetch origin` took longer than 1 s and was stopped")
    );
    assert_eq!(dates(&h, &clone, &want), plain);
}

#[cfg(unix)]
#[test]
fn the_fetch_limit_holds_when_the_fetch_leaves_a_process_holding_its_pipe() {
    if !Command::new("setsid")
        .arg("true")
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("no setsid here: skipped");
        return;
    }
    let s = Served::new(36, 30);
    let want = s.expected();
    let clone = s.clone(5, "depth-5");
    let plain = dates(&read(&clone, false), &clone, &want);
    // The remote side leaves a helper behind in a session of its own (as a daemonizing
    // wrapper would), holding git's standard error for 30 s, and hangs.
    let hang = clone.parent().unwrap().join("detach.sh");
    std::fs::write(&hang, "#!/bin/sh\nsetsid sleep 30 &\nsleep 60\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    git(
        &clone,
        &["config", "remote.origin.uploadpack", hang.to_str().unwrap()],
    );
    let started = std::time::Instant::now();
    let opts = GitOptions {
        fetch: true,
        fetch_limit: Duration::from_secs(1),
        ..Default::default()
    };
    let Ok(GitProbe::Ready(h)) = read_history(&clone.join("content"), &opts) else {
        panic!("no history");
    };
    // The limit and a moment, not the helper's 30 s.
    let took = started.elapsed();
    assert!(took < Duration::from_secs(15), "{took:?}");
    let fetched = h.shallow().unwrap().fetched.clone().unwrap();
    assert_eq!(
        fetched.failed.as_deref(),
        Some("`git fetch origin` took longer than 1 s and was stopped")
    );
    assert!(fetched.seconds < 15.0, "{fetched:?}");
    assert_eq!(dates(&h, &clone, &want), plain);
}
