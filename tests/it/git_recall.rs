//! What a run keeps of its walk through the history (`.git/sitemapgen/`), and the next run
//! that starts from it: only the commits made since are read, and every file gets the date a
//! whole walk gives it; anything that breaks the line from the kept commit reads it all again.

use crate::common;

use common::gitrepo::Repo;
use sitemapgen::lastmod::FileHistory;
use sitemapgen::lastmod::git::{GitHistory, GitOptions, GitProbe, read_history};
use std::path::Path;

fn read(root: &Path, recall: bool) -> GitHistory {
    let opts = GitOptions {
        recall,
        ..Default::default()
    };
    match read_history(&root.join("content"), &opts).unwrap() {
        GitProbe::Ready(h) => *h,
        other => panic!("no history: {other:?}"),
    }
}

fn date(h: &GitHistory, root: &Path, rel: &str) -> String {
    match h.state(&root.join(rel)) {
        FileHistory::Committed(d) => d.to_string(),
        other => panic!("{rel}: {other:?}"),
    }
}

fn page(title: &str, body: &str) -> String {
    format!("+++\ntitle = \"{title}\"\n+++\n{body}\n")
}

/// Ten lines, so that an edit keeps git's similarity well above 50% (a rename stays one).
fn long_body(tag: &str) -> String {
    (0..10).map(|i| format!("{tag} line {i}\n")).collect()
}

/// Three pages, with a history of moves and edits no reader sees.
fn site() -> Repo {
    let r = Repo::new();
    r.write("content/a.md", &page("A", &long_body("a")));
    r.write("content/b.md", &page("B", &long_body("b")));
    r.write("content/c.md", &page("C", &long_body("c")));
    r.write("config.toml", "base_url = \"https://example.com\"\n");
    r.commit("2020-01-01T00:00:00+00:00");
    r.write("content/b.md", &page("B", &long_body("b2")));
    r.commit("2020-02-01T00:00:00+00:00");
    r.mv("content/c.md", "content/sub/c.md");
    r.commit("2020-03-01T00:00:00+00:00");
    r
}

/// Every page's date and dating commit, as `h` has them.
fn answers(h: &GitHistory, root: &Path, pages: &[&str]) -> Vec<(String, Option<String>)> {
    pages
        .iter()
        .map(|p| (date(h, root, p), h.commit(&root.join(p))))
        .collect()
}

/// Reads again after something broke the line from the kept commit: the whole history is
/// read, with a whole walk's answers for `pages`.
fn read_whole_again(r: &Repo, pages: &[&str]) -> GitHistory {
    let h = read(&r.root, true);
    assert!(!h.work().recalled, "the kept outcomes were used");
    let whole = read(&r.root, false);
    assert_eq!(answers(&h, &r.root, pages), answers(&whole, &r.root, pages));
    h
}

#[test]
fn a_run_reads_only_the_commits_since_the_last_and_dates_as_a_whole_walk() {
    let r = site();
    let first = read(&r.root, true);
    assert!(!first.work().recalled);
    assert_eq!(first.work().commits, 3);
    assert!(r.root.join(".git/sitemapgen").is_dir(), "nothing kept");

    // Nothing new: no commit read, the same answers.
    let again = read(&r.root, true);
    assert!(again.work().recalled);
    assert_eq!(again.work().commits, 0);
    let pages = ["content/a.md", "content/b.md", "content/sub/c.md"];
    assert_eq!(
        answers(&again, &r.root, &pages),
        answers(&first, &r.root, &pages)
    );

    // A body edit, a front matter key no reader sees, a move with an edit no reader sees.
    r.write("content/a.md", &page("A", &long_body("a3")));
    r.commit("2021-01-01T00:00:00+00:00");
    r.write(
        "content/b.md",
        &format!("+++\ntitle = \"B\"\nweight = 3\n+++\n{}\n", long_body("b2")),
    );
    r.commit("2021-02-01T00:00:00+00:00");
    r.mv("content/sub/c.md", "content/d.md");
    r.write(
        "content/d.md",
        &format!("+++\ntitle = \"C\"\nweight = 1\n+++\n{}\n", long_body("c")),
    );
    r.commit("2021-03-01T00:00:00+00:00");

    let h = read(&r.root, true);
    assert!(h.work().recalled, "the kept outcomes were not used");
    assert_eq!(h.work().commits, 3, "only the commits since are read");
    let pages = ["content/a.md", "content/b.md", "content/d.md"];
    let whole = read(&r.root, false);
    assert!(!whole.work().recalled);
    assert_eq!(
        answers(&h, &r.root, &pages),
        answers(&whole, &r.root, &pages)
    );
    assert_eq!(
        date(&h, &r.root, "content/a.md"),
        "2021-01-01T00:00:00+00:00"
    );
    // The unseen edits are passed over to the dates the kept walk found.
    assert_eq!(
        date(&h, &r.root, "content/b.md"),
        "2020-02-01T00:00:00+00:00"
    );
    assert_eq!(
        date(&h, &r.root, "content/d.md"),
        "2020-01-01T00:00:00+00:00"
    );
    assert_eq!(h.passed(), whole.passed());
    assert_eq!(h.depth_needed(), whole.depth_needed());
}

#[test]
fn a_merge_since_the_kept_commit_reads_the_whole_history() {
    let r = site();
    read(&r.root, true);
    r.git(&["checkout", "-q", "-b", "side", "HEAD~1"]);
    r.write("content/a.md", &page("A", &long_body("side")));
    r.commit("2021-01-01T00:00:00+00:00");
    r.git(&["checkout", "-q", "main"]);
    r.write("content/b.md", &page("B", &long_body("main")));
    r.commit("2021-02-01T00:00:00+00:00");
    r.git(&["merge", "-q", "--no-edit", "side"]);

    // A merge may interleave older commits by date.
    let h = read_whole_again(&r, &["content/a.md", "content/b.md", "content/sub/c.md"]);
    assert_eq!(
        date(&h, &r.root, "content/a.md"),
        "2021-01-01T00:00:00+00:00"
    );
}

#[test]
fn a_rewritten_history_reads_the_whole_history() {
    let r = site();
    read(&r.root, true);
    // The kept commit is amended away: it is no longer in HEAD's history.
    r.write("content/a.md", &page("A", &long_body("amended")));
    r.git(&["add", "-A"]);
    let out = Repo::command(&r.root)
        .args(["commit", "-q", "--amend", "--reset-author", "-m", "amended"])
        .env("GIT_AUTHOR_DATE", "2022-01-01T00:00:00+00:00")
        .env("GIT_COMMITTER_DATE", "2022-01-01T00:00:00+00:00")
        .output()
        .unwrap();
    assert!(out.status.success());
    let h = read_whole_again(&r, &["content/a.md", "content/b.md"]);
    assert_eq!(
        date(&h, &r.root, "content/a.md"),
        "2022-01-01T00:00:00+00:00"
    );
    assert_eq!(
        date(&h, &r.root, "content/b.md"),
        "2020-02-01T00:00:00+00:00"
    );
}

#[test]
fn a_file_moved_in_from_outside_the_content_dir_reads_the_whole_history() {
    let r = site();
    r.write("drafts/e.md", &page("E", &long_body("e")));
    r.commit("2020-04-01T00:00:00+00:00");
    read(&r.root, true);
    // Its name at the kept commit is outside the content dir, where nothing was kept.
    r.mv("drafts/e.md", "content/e.md");
    r.commit("2021-01-01T00:00:00+00:00");
    let h = read_whole_again(&r, &["content/e.md", "content/a.md"]);
    assert_eq!(
        date(&h, &r.root, "content/e.md"),
        "2020-04-01T00:00:00+00:00"
    );
}

#[test]
fn a_damaged_or_unwanted_keep_is_never_a_failure() {
    let r = site();
    read(&r.root, false);
    assert!(
        !r.root.join(".git/sitemapgen").exists(),
        "kept without recall"
    );
    read(&r.root, true);
    let kept: Vec<_> = std::fs::read_dir(r.root.join(".git/sitemapgen"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let bytes = std::fs::read(&kept[0]).unwrap();
    std::fs::write(&kept[0], &bytes[..bytes.len() / 2]).unwrap();
    let h = read(&r.root, true);
    assert!(!h.work().recalled, "half a file was recalled");
    assert_eq!(
        date(&h, &r.root, "content/b.md"),
        "2020-02-01T00:00:00+00:00"
    );
    // ... and the whole walk kept a sound one again.
    assert!(read(&r.root, true).work().recalled);
}

#[test]
fn a_shallow_clone_cut_short_keeps_nothing() {
    let r = site();
    let clone = r.root.parent().unwrap().join("clone");
    let url = format!("file://{}", r.root.display());
    let out = Repo::command(r.root.parent().unwrap())
        .args(["clone", "-q", "--depth", "1", &url, "clone"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let h = read(&clone, true);
    assert!(h.shallow().is_some_and(|s| s.cut));
    assert!(!h.work().recalled);
    // Its boundary moves with the next fetch: what it found there is no answer to keep.
    assert!(!clone.join(".git/sitemapgen").exists());
    // The whole repository keeps as usual.
    read(&r.root, true);
    assert!(r.root.join(".git/sitemapgen").is_dir());
}

#[test]
fn the_binary_says_when_it_started_from_the_last_run_and_writes_the_same_sitemap() {
    let r = site();
    let build = || {
        let out = common::run(&r.root, &["--verbose"]);
        assert!(out.status.success(), "{}", common::text(&out));
        let sitemap = std::fs::read_to_string(r.root.join("public/sitemap.xml")).unwrap();
        (String::from_utf8_lossy(&out.stderr).into_owned(), sitemap)
    };
    let (said, first) = build();
    assert!(said.contains("(3 commits read, "), "{said}");
    r.write("content/a.md", &page("A", &long_body("a4")));
    r.commit("2022-05-06T07:08:09+00:00");
    let (said, second) = build();
    assert!(
        said.contains(
            "(1 commits read since the last run, the rest as it kept them in .git/sitemapgen, "
        ),
        "{said}"
    );
    // The new commit dates the edited page (and the home page rolls it up).
    let a_dated = "<loc>https://example.com/a/</loc>\n    <lastmod>2022-05-06</lastmod>";
    assert!(
        !first.contains(a_dated) && second.contains(a_dated),
        "{second}"
    );
    std::fs::remove_dir_all(r.root.join(".git/sitemapgen")).unwrap();
    let (said, whole) = build();
    assert!(said.contains("(4 commits read, "), "{said}");
    assert_eq!(whole, second);
}
