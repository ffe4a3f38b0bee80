//! The git reproducers of the second hardening round (`reliability/round2/git-*`), as
//! regression tests: histories no reader sees, the ignore-revs file, checkouts git cannot read.

use crate::common;

use common::gitrepo::Repo;
use common::{run, text};
use sitemapgen::lastmod::git::{GitOptions, GitProbe, read_history};

/// One fast-import commit at `secs`, with `changes` (`M`/`D` lines, data inline).
fn commit(secs: u64, changes: &str) -> String {
    format!("commit refs/heads/main\ncommitter T <t@e> {secs} +0000\ndata 1\nc\n{changes}")
}

/// An inline `M` change of `path` to `text`.
fn put(path: &str, text: &str) -> String {
    format!("M 100644 inline {path}\ndata {}\n{text}\n", text.len())
}

/// A Zola site whose page is added at 2020-09-13T12:26:40Z and then changed `n` times a
/// minute apart (into 2020-09-14), each time only in a front matter key no reader sees; with
/// `rename`, each of those commits also moves it between `a.md` and `b.md`.
fn unseen_history(n: u64, rename: bool) -> Repo {
    let t0 = 1_600_000_000;
    let page = |i: u64| format!("+++\ntitle = \"A\"\nweight = {i}\n+++\nThe same text.\n");
    let mut s = commit(
        t0,
        &(put("config.toml", "base_url = \"https://example.com/\"\n")
            + &put("content/_index.md", "+++\ntitle = \"Home\"\n+++\n")
            + &put("content/a.md", &page(0))),
    );
    let mut name = "a";
    for i in 1..=n {
        let mut changes = String::new();
        if rename {
            let to = if name == "a" { "b" } else { "a" };
            changes.push_str(&format!("D content/{name}.md\n"));
            name = to;
        }
        changes.push_str(&put(&format!("content/{name}.md"), &page(i)));
        s.push_str(&commit(t0 + 60 * i, &changes));
    }
    let r = Repo::new();
    r.fast_import(s.as_bytes());
    r
}

/// `list`'s lastmod and its source for `url`.
fn listed(r: &Repo, url: &str) -> String {
    let out = run(&r.root, &["list"]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = stdout
        .lines()
        .find(|l| l.split('\t').next() == Some(url))
        .unwrap_or_else(|| panic!("{url} not listed:\n{stdout}"));
    line.split('\t')
        .skip(1)
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// git-walk-quadratic: a page whose commits only change what no reader sees (a key other
/// than title and description; a rename with such an edit) is walked back to the commit that
/// added it with work linear in those commits (each file waits at most once for each version
/// its edits need); the time, 100,000 commits against 10,000, is `benches/git-bench.sh`'s.
#[test]
fn unseen_edits_and_renames_are_walked_in_linear_work() {
    for rename in [false, true] {
        // Odd: with renames, the page ends as b.md.
        let n = 801;
        let r = unseen_history(n, rename);
        let url = if rename {
            "https://example.com/b/"
        } else {
            "https://example.com/a/"
        };
        assert_eq!(listed(&r, url), "2020-09-13 git", "rename: {rename}");
        // The whole walk's work: `list` above kept its outcomes, which a second run would
        // recall instead of walking.
        let opts = GitOptions {
            recall: false,
            ..GitOptions::default()
        };
        let Ok(GitProbe::Ready(h)) = read_history(&r.root.join("content"), &opts) else {
            panic!("no history read");
        };
        let work = h.work();
        assert_eq!(work.commits, n as usize + 1, "rename: {rename}");
        assert!(
            work.waits <= 2 * n as usize,
            "rename: {rename}: {} waits for {n} edits",
            work.waits
        );
    }
}

/// A Zola site with `content/a.md` committed five times (2020-01-01 to 2020-01-05).
fn five_commits() -> Repo {
    let r = Repo::new();
    r.write(
        "config.toml",
        "base_url = \"https://example.com/\"\ntitle = \"t\"\n",
    );
    r.write("content/_index.md", "+++\ntitle = \"Home\"\n+++\n");
    for i in 0..5 {
        r.write(
            "content/a.md",
            &format!("+++\ntitle = \"A\"\n+++\nbody {i}\n"),
        );
        r.commit(&format!("2020-01-0{}T00:00:00Z", i + 1));
    }
    r
}

/// git-broken-checkout-mtime: inside a checkout git cannot read (a `.git` file whose folder
/// is gone, a corrupt `HEAD`, a corrupt commit), no page takes its mtime (a checkout time),
/// and the run says why, naming the checkout; the sitemap is still written.
#[test]
fn a_checkout_git_cannot_read_dates_nothing_by_mtime_and_says_so() {
    let healthy = five_commits();
    assert_eq!(listed(&healthy, "https://example.com/a/"), "2020-01-05 git");

    let dangling = five_commits();
    std::fs::remove_dir_all(dangling.root.join(".git")).unwrap();
    std::fs::write(
        dangling.root.join(".git"),
        "gitdir: /nonexistent/main/.git/worktrees/s\n",
    )
    .unwrap();

    let bad_head = five_commits();
    std::fs::write(bad_head.root.join(".git/HEAD"), "garbage\n").unwrap();

    let bad_object = five_commits();
    let out = bad_object.git(&["rev-parse", "HEAD~2"]);
    let c = String::from_utf8(out.stdout).unwrap();
    let object = bad_object
        .root
        .join(".git/objects")
        .join(&c.trim()[..2])
        .join(&c.trim()[2..]);
    let mut perm = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perm.set_readonly(false);
    std::fs::set_permissions(&object, perm).unwrap();
    std::fs::write(&object, "x\n").unwrap();

    for (r, said) in [
        (
            &dangling,
            "cannot read (fatal: not a git repository: /nonexistent",
        ),
        (&bad_head, "cannot read (fatal: not a git repository"),
        (&bad_object, "history could not be read"),
    ] {
        // No lastmod at all: the page has no written date and git has none to give.
        assert_eq!(listed(r, "https://example.com/a/"), "- -");
        let out = run(&r.root, &["build"]);
        assert!(out.status.success(), "{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(said) && stderr.contains("no file mtimes either"),
            "{}",
            text(&out)
        );
        assert!(r.root.join("public/sitemap.xml").is_file());
        // `list` says it too, on stderr, as `build` and `check` do (issue 39).
        for cmd in ["list", "check"] {
            let out = run(&r.root, &[cmd]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains(said), "{cmd}: {}", text(&out));
        }
    }
}

/// Runs the binary with `args` in `dir`; panics when it has not ended within 20 s (it is
/// killed first).
fn run_within(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sitemapgen {args:?} still running after 20 s: killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// git-ignore-revs-file-read: the repository's `.git-blame-ignore-revs` is read as git reads
/// it, bounded and without blocking: a FIFO or a link to `/dev/zero` is a warning naming the
/// file (no commit is passed over), never a hang or an endless read; a byte that is not UTF-8
/// in a comment does not drop the file.
#[cfg(unix)]
#[test]
fn the_ignore_revs_file_is_read_bounded_and_as_git_reads_it() {
    let r = Repo::new();
    // Zola's own sitemap off, so the only warnings are the ones this test looks for.
    r.write(
        "config.toml",
        "base_url = \"https://example.com/\"\ntitle = \"t\"\ngenerate_sitemap = false\n",
    );
    r.write("content/_index.md", "+++\ntitle = \"Home\"\n+++\n");
    r.write("content/a.md", "+++\ntitle = \"A\"\n+++\nbody\n");
    r.commit("2020-01-01T00:00:00Z");
    r.write("content/a.md", "+++\ntitle = \"A\"\n+++\nbody changed\n");
    let reformat = r.commit("2021-06-06T00:00:00Z");
    let revs = r.root.join(".git-blame-ignore-revs");
    let page = "https://example.com/a/";

    let fifo = std::ffi::CString::new(revs.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let zero = std::path::Path::new("/dev/zero");
    for what in ["a FIFO", "a character device"] {
        let out = run_within(&r.root, &["build"]);
        assert!(out.status.success(), "{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(".git-blame-ignore-revs: not read (not a regular file (")
                && stderr.contains(what),
            "{}",
            text(&out)
        );
        // Nothing is passed over: the edit dates the page.
        assert_eq!(listed(&r, page), "2021-06-06 git");
        std::fs::remove_file(&revs).unwrap();
        std::os::unix::fs::symlink(zero, &revs).unwrap();
    }

    // A link out of the checkout, to a file that would pass the edit over: not followed.
    std::fs::remove_file(&revs).unwrap();
    let outside = r.root.parent().unwrap().join("revs");
    std::fs::write(&outside, format!("{reformat}\n")).unwrap();
    std::os::unix::fs::symlink(&outside, &revs).unwrap();
    let out = run(&r.root, &["build"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a link that leads outside"),
        "{}",
        text(&out)
    );
    assert_eq!(listed(&r, page), "2021-06-06 git");

    std::fs::remove_file(&revs).unwrap();
    std::fs::write(&revs, format!("{reformat} # ASCII comment\n")).unwrap();
    assert_eq!(listed(&r, page), "2020-01-01 git");
    let mut latin1 = format!("{reformat} # caf").into_bytes();
    latin1.extend_from_slice(b"\xe9 (Latin-1)\n");
    std::fs::write(&revs, latin1).unwrap();
    assert_eq!(listed(&r, page), "2020-01-01 git");
    let out = run(&r.root, &["build"]);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("warning"),
        "{}",
        text(&out)
    );
}
