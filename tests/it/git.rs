//! The git stage against real repositories built in temp dirs, with fixed commit dates.

use sitemapgen::lastmod::FileHistory;
use sitemapgen::lastmod::git::{GitDate, GitHistory, GitOptions, GitProbe, read_history};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch repository whose commits carry the dates we choose.
struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        fs::create_dir(&root).unwrap();
        let repo = Repo { _tmp: tmp, root };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// Runs git in the repo, untouched by the machine's own git config.
    fn git(&self, args: &[&str]) {
        self.git_dated(args, None);
    }

    fn git_dated(&self, args: &[&str], dates: Option<(&str, &str)>) {
        let mut cmd = Command::new("git");
        cmd.current_dir(&self.root)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args(["-c", "user.name=Tester", "-c", "user.email=t@example.org"])
            .args(args);
        if let Some((author, committer)) = dates {
            cmd.env("GIT_AUTHOR_DATE", author)
                .env("GIT_COMMITTER_DATE", committer);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `git mv`, creating the target's folder first as git wants.
    fn mv(&self, from: &str, to: &str) {
        fs::create_dir_all(self.root.join(to).parent().unwrap()).unwrap();
        self.git(&["mv", from, to]);
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// Stages everything and commits with one date for author and committer.
    fn commit(&self, date: &str) {
        self.commit_dates(date, date);
    }

    fn commit_dates(&self, author: &str, committer: &str) {
        self.git(&["add", "-A"]);
        self.git_dated(&["commit", "-q", "-m", "change"], Some((author, committer)));
    }
}

fn history(dir: &Path, opts: GitOptions) -> GitHistory {
    match read_history(dir, &opts).unwrap() {
        GitProbe::Ready(h) => *h,
        other => panic!("expected history, got {other:?}"),
    }
}

/// The committed date as written in the sitemap, or a panic naming the state.
fn date(h: &GitHistory, path: impl AsRef<Path>) -> String {
    match h.state(path.as_ref()) {
        FileHistory::Committed(d) => d.to_string(),
        other => panic!(
            "{}: expected a commit date, got {other:?}",
            path.as_ref().display()
        ),
    }
}

/// Ten lines, so that editing one of them keeps git's similarity well above 50%.
fn long_text(tag: &str) -> String {
    (0..10).map(|i| format!("{tag} line {i}\n")).collect()
}

#[test]
fn each_file_gets_its_last_commit_with_the_commits_offset() {
    let r = Repo::new();
    r.write("index.md", "home");
    r.write("blog/a.md", "a");
    r.write("blog/deep/b.md", "b");
    r.commit("2021-01-02T03:04:05+02:00");
    r.write("blog/a.md", "a, edited");
    r.commit("2022-06-07T08:09:10-05:30");
    r.write("blog/deep/b.md", "b, edited");
    r.commit("2023-11-12T13:14:15+00:00");

    let h = history(&r.root, GitOptions::default());
    assert_eq!(date(&h, "index.md"), "2021-01-02T03:04:05+02:00");
    assert_eq!(date(&h, "blog/a.md"), "2022-06-07T08:09:10-05:30");
    assert_eq!(date(&h, "blog/deep/b.md"), "2023-11-12T13:14:15+00:00");
    assert_eq!(
        date(&h, r.root.join("blog/a.md")),
        "2022-06-07T08:09:10-05:30"
    );
    assert_eq!(h.tracked_files(), 3);
    assert_eq!(h.committed_files(), 3);
}

#[test]
fn a_pure_rename_keeps_the_history_and_an_edited_one_counts_as_a_change() {
    let r = Repo::new();
    r.write("content/moved.md", &long_text("moved"));
    r.write("content/edited.md", &long_text("edited"));
    r.write("content/chain.md", &long_text("chain"));
    r.commit("2020-01-01T00:00:00+00:00");
    r.write("content/moved.md", &long_text("moved v2"));
    r.commit("2020-02-01T00:00:00+00:00");
    r.mv("content/moved.md", "content/blog/moved.md");
    r.mv("content/edited.md", "content/blog/edited.md");
    r.write(
        "content/blog/edited.md",
        &(long_text("edited") + "one more line\n"),
    );
    r.mv("content/chain.md", "content/chain-2.md");
    r.commit("2020-03-01T00:00:00+00:00");
    r.mv("content/chain-2.md", "content/archive/chain-3.md");
    r.commit("2020-04-01T00:00:00+00:00");

    let h = history(&r.root.join("content"), GitOptions::default());
    assert_eq!(date(&h, "blog/moved.md"), "2020-02-01T00:00:00+00:00");
    assert_eq!(date(&h, "blog/edited.md"), "2020-03-01T00:00:00+00:00");
    assert_eq!(date(&h, "archive/chain-3.md"), "2020-01-01T00:00:00+00:00");
}

#[test]
fn names_with_spaces_and_non_ascii_letters() {
    let r = Repo::new();
    r.write("content/mon été.md", "é");
    r.write("content/dossier à part/über straße.md", "ß");
    r.write("content/日本語/記事.md", "記事");
    r.commit("2022-02-02T02:02:02+01:00");
    r.write("content/日本語/記事.md", "記事 2");
    r.commit("2022-03-03T03:03:03+09:00");

    let h = history(&r.root.join("content"), GitOptions::default());
    assert_eq!(date(&h, "mon été.md"), "2022-02-02T02:02:02+01:00");
    assert_eq!(
        date(&h, "dossier à part/über straße.md"),
        "2022-02-02T02:02:02+01:00"
    );
    assert_eq!(date(&h, "日本語/記事.md"), "2022-03-03T03:03:03+09:00");
}

#[test]
fn uncommitted_changes_and_untracked_files_are_reported_as_such() {
    let r = Repo::new();
    r.write(".gitignore", "*.tmp\n");
    r.write("content/clean.md", "clean");
    r.write("content/edited.md", "edited");
    r.write("content/staged.md", "staged");
    r.commit("2021-05-05T05:05:05+00:00");
    r.write("content/edited.md", "edited, not staged");
    r.write("content/staged.md", "staged, not committed");
    r.git(&["add", "content/staged.md"]);
    r.write("content/new.md", "never added");
    r.write("content/new-staged.md", "added, never committed");
    r.git(&["add", "content/new-staged.md"]);
    r.write("content/draft.tmp", "ignored");

    let h = history(&r.root.join("content"), GitOptions::default());
    assert_eq!(date(&h, "clean.md"), "2021-05-05T05:05:05+00:00");
    assert_eq!(h.state(Path::new("edited.md")), FileHistory::Uncommitted);
    assert_eq!(h.state(Path::new("staged.md")), FileHistory::Uncommitted);
    assert_eq!(h.state(Path::new("new.md")), FileHistory::Uncommitted);
    assert_eq!(
        h.state(Path::new("new-staged.md")),
        FileHistory::Uncommitted
    );
    assert_eq!(h.state(Path::new("draft.tmp")), FileHistory::Uncommitted);
}

#[test]
fn a_clone_of_depth_one_dates_nothing_its_boundary_shows_as_added() {
    let r = Repo::new();
    r.write("content/a.md", "a");
    r.commit("2020-01-01T00:00:00+00:00");
    r.write("content/b.md", "b");
    r.commit("2020-02-01T00:00:00+00:00");

    let clone = r._tmp.path().join("clone");
    let url = format!("file://{}", r.root.display());
    let out = Command::new("git")
        .args(["clone", "-q", "--depth", "1", &url])
        .arg(&clone)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let h = history(&clone.join("content"), GitOptions::default());
    let shallow = h.shallow().expect("a shallow clone");
    assert!(shallow.cut && shallow.fetched.is_none());
    // Its one commit is the boundary: b.md's add there is no evidence of when it changed.
    assert_eq!(h.committed_files(), 0);
    assert_eq!(h.unreached_files(), 2);
    assert_eq!(h.state(&clone.join("content/a.md")), FileHistory::Unreached);
    // Committed and untracked files are still told apart.
    fs::write(clone.join("content/new.md"), "n").unwrap();
    assert_eq!(
        h.state(&clone.join("content/new.md")),
        FileHistory::Uncommitted
    );
    // The full repository is read normally.
    let h = history(&r.root.join("content"), GitOptions::default());
    assert!(h.shallow().is_none());
    assert_eq!(date(&h, "a.md"), "2020-01-01T00:00:00+00:00");
}

/// `extra` more pages in the content dir; enough of them make the content dir most of the
/// repository, which changes how the log is read (whole history vs limited to the dir).
fn nested_two_levels(extra: usize) {
    let r = Repo::new();
    r.write("README.md", "readme");
    r.write("site/config.toml", "title = 'x'");
    r.write("site/content/_index.md", "home");
    r.write("site/content/posts/first.md", "first");
    r.write(
        "site/contents-not/x.md",
        "a sibling whose name starts the same",
    );
    for i in 0..extra {
        r.write(&format!("site/content/more/{i}.md"), "more");
    }
    r.commit("2019-09-09T09:09:09+03:00");
    r.write("README.md", "readme, edited later");
    r.write("site/config.toml", "title = 'y'");
    r.write("site/contents-not/x.md", "edited");
    r.commit("2024-01-01T00:00:00+00:00");

    let content = r.root.join("site/content");
    let h = history(&content, GitOptions::default());
    assert_eq!(date(&h, "_index.md"), "2019-09-09T09:09:09+03:00");
    assert_eq!(date(&h, "posts/first.md"), "2019-09-09T09:09:09+03:00");
    assert_eq!(
        date(&h, content.join("posts/first.md")),
        "2019-09-09T09:09:09+03:00"
    );
    assert_eq!(h.tracked_files(), 2 + extra);
    assert_eq!(h.committed_files(), 2 + extra);
    // Files outside the content dir are not reported, however they are named.
    assert_eq!(h.state(&r.root.join("README.md")), FileHistory::Unknown);
    assert_eq!(
        h.state(&r.root.join("site/config.toml")),
        FileHistory::Unknown
    );
    assert_eq!(h.state(Path::new("../config.toml")), FileHistory::Unknown);
    assert_eq!(
        h.state(&r.root.join("site/contents-not/x.md")),
        FileHistory::Unknown
    );
    assert_eq!(h.repo_root(), fs::canonicalize(&r.root).unwrap());
}

#[test]
fn a_content_dir_nested_two_levels_in_a_bigger_repository() {
    nested_two_levels(0);
}

#[test]
fn a_content_dir_nested_two_levels_that_is_most_of_the_repository() {
    nested_two_levels(6);
}

/// A page moved into the content dir from outside keeps its history, as a move inside it does
/// (a move is no change a reader sees), whatever share of the repository the content dir is. `inside` and `outside` more files make the content dir most of the
/// repository, or a small part of it.
fn moved_into_the_content_dir(inside: usize, outside: usize) {
    let r = Repo::new();
    for i in 0..outside {
        r.write(&format!("src/{i}.rs"), "code");
    }
    r.write("drafts/incoming.md", &long_text("incoming"));
    r.write("content/inside.md", &long_text("inside"));
    for i in 0..inside {
        r.write(&format!("content/more/{i}.md"), "more");
    }
    r.commit("2020-01-01T00:00:00+00:00");
    r.mv("drafts/incoming.md", "content/blog/incoming.md");
    r.mv("content/inside.md", "content/blog/inside.md");
    r.commit("2020-05-05T00:00:00+00:00");

    let h = history(&r.root.join("content"), GitOptions::default());
    assert_eq!(date(&h, "blog/incoming.md"), "2020-01-01T00:00:00+00:00");
    assert_eq!(date(&h, "blog/inside.md"), "2020-01-01T00:00:00+00:00");
}

#[test]
fn moved_in_from_outside_when_the_content_dir_is_a_small_part() {
    moved_into_the_content_dir(0, 3);
}

#[test]
fn moved_in_from_outside_when_the_content_dir_is_most_of_the_repository() {
    moved_into_the_content_dir(4, 0);
}

#[test]
fn a_content_dir_reached_through_a_symlink() {
    let r = Repo::new();
    r.write("site/content/a.md", "a");
    r.commit("2018-08-08T08:08:08-04:00");
    let link = r._tmp.path().join("link");
    std::os::unix::fs::symlink(r.root.join("site"), &link).unwrap();

    let h = history(&link.join("content"), GitOptions::default());
    assert_eq!(
        date(&h, link.join("content/a.md")),
        "2018-08-08T08:08:08-04:00"
    );
    assert_eq!(
        date(&h, r.root.join("site/content/a.md")),
        "2018-08-08T08:08:08-04:00"
    );
    assert_eq!(date(&h, "a.md"), "2018-08-08T08:08:08-04:00");
}

#[test]
fn author_date_by_default_committer_date_on_request() {
    let r = Repo::new();
    r.write("a.md", "a");
    r.commit_dates("2010-10-10T10:10:10+02:00", "2011-11-11T11:11:11-07:00");

    let author = history(&r.root, GitOptions::default());
    assert_eq!(date(&author, "a.md"), "2010-10-10T10:10:10+02:00");
    let committer = history(
        &r.root,
        GitOptions {
            date: GitDate::Committer,
            ..Default::default()
        },
    );
    assert_eq!(date(&committer, "a.md"), "2011-11-11T11:11:11-07:00");
}

#[test]
fn states_only_skips_the_dates_but_not_the_working_tree() {
    let r = Repo::new();
    r.write("a.md", "a");
    r.write("b.md", "b");
    r.commit("2020-01-01T00:00:00+00:00");
    r.write("b.md", "b2");
    let h = history(
        &r.root,
        GitOptions {
            states_only: true,
            ..Default::default()
        },
    );
    assert_eq!(h.committed_files(), 0);
    assert_eq!(h.state(Path::new("a.md")), FileHistory::Unknown);
    assert_eq!(h.state(Path::new("b.md")), FileHistory::Uncommitted);
}

#[test]
fn a_repository_without_commits_has_only_untracked_files() {
    let r = Repo::new();
    r.write("a.md", "a");
    r.write("b.md", "b");
    r.git(&["add", "a.md"]);
    let h = history(&r.root, GitOptions::default());
    assert_eq!(h.state(Path::new("a.md")), FileHistory::Uncommitted);
    assert_eq!(h.state(Path::new("b.md")), FileHistory::Uncommitted);
    assert_eq!(h.committed_files(), 0);
}

#[test]
fn outside_any_repository() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("a.md"), "a").unwrap();
    assert!(matches!(
        read_history(tmp.path(), &GitOptions::default()).unwrap(),
        GitProbe::NoRepository
    ));
    assert!(read_history(&tmp.path().join("missing"), &GitOptions::default()).is_err());
}

#[test]
fn a_broken_history_is_an_error_naming_the_command() {
    let r = Repo::new();
    r.write("old.md", "old");
    r.commit("2020-01-01T00:00:00+00:00");
    r.write("new.md", "new");
    r.commit("2020-02-01T00:00:00+00:00");
    // Lose the first commit's tree: old.md's date can only come from there.
    let out = Command::new("git")
        .current_dir(&r.root)
        .args(["rev-parse", "HEAD~1^{tree}"])
        .output()
        .unwrap();
    let tree = String::from_utf8(out.stdout).unwrap();
    let tree = tree.trim();
    fs::remove_file(
        r.root
            .join(".git/objects")
            .join(&tree[..2])
            .join(&tree[2..]),
    )
    .unwrap();

    let err = read_history(&r.root, &GitOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("git log"), "{err}");
    assert!(err.contains(tree), "{err}");
}

#[test]
fn the_walk_stops_once_every_file_has_its_date() {
    let r = Repo::new();
    r.write("a.md", "a");
    r.write("b.md", "b");
    r.commit("2020-01-01T00:00:00+00:00");
    for i in 0..20 {
        r.write("a.md", &format!("a {i}"));
        r.write("b.md", &format!("b {i}"));
        r.commit(&format!("2021-01-{:02}T00:00:00+01:00", i + 1));
    }
    // git is stopped after the newest commit; what it had left to say changes nothing.
    let h = history(&r.root, GitOptions::default());
    assert_eq!(date(&h, "a.md"), "2021-01-20T00:00:00+01:00");
    assert_eq!(date(&h, "b.md"), "2021-01-20T00:00:00+01:00");
}
