//! What the repository says besides the log: where it is and what state it is in (one `git
//! rev-parse`), which tracked files have uncommitted changes (`git status`), whether `HEAD`
//! descends from a commit a past run kept (`git rev-list`), and which commits the
//! ignore-revs file passes over; with the `git` command every call starts from and the
//! errors they report.
//!
//! Apart from `git.rs`, which reads the log and gives each file its date, because none of
//! this needs to know about dates: it runs a process or reads a file and turns what it prints
//! into plain values, and `git.rs` decides what they mean for each file.

use super::blobs::Oid;
use super::recall;
use super::walk::GitPath;
use crate::vocab::error::{Error, Result};
use std::collections::HashSet;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Where the content dir sits in git's view of the world.
pub(super) enum Located {
    Repo(Found),
    /// Git's word for it.
    NoRepository(String),
    NoGit,
}

/// The repository around the content dir.
pub(super) struct Found {
    pub(super) root: PathBuf,
    pub(super) prefix: Vec<u8>,
    pub(super) shallow: bool,
    /// `.git/shallow`, relative to the content dir (as `--git-path` gives it).
    pub(super) shallow_file: Vec<u8>,
    /// The repository's git folder (a worktree's own), where the walk's outcomes are kept.
    pub(super) git_dir: PathBuf,
    /// `HEAD`'s commit (empty when there is none yet).
    pub(super) head: String,
    pub(super) has_commits: bool,
}

/// A `git` command with the settings every call shares: messages in English (we match one),
/// pathspecs taken literally (a content dir may contain `*` or `[`).
pub(crate) fn git(cwd: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(cwd)
        .env("LC_ALL", "C")
        .env("LANGUAGE", "C")
        .env("GIT_LITERAL_PATHSPECS", "1")
        .stdin(Stdio::null());
    cmd
}

/// One `git rev-parse` answers: top folder, our place in it, shallow or not (and where its
/// boundary is kept), `HEAD`'s commit if any yet.
pub(super) fn locate(dir: &Path) -> Result<Located> {
    let out = git(dir)
        .args([
            "rev-parse",
            "--show-toplevel",
            "--show-prefix",
            "--is-shallow-repository",
            "--git-path",
            "shallow",
            "--absolute-git-dir",
            "--verify",
            "--quiet",
            "HEAD",
        ])
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Located::NoGit),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let lines: Vec<&[u8]> = out.stdout.split(|b| *b == b'\n').collect();
    // `--verify --quiet HEAD` exits 1, silently, in a repository without commits.
    let has_commits = out.status.success();
    let unborn = out.status.code() == Some(1) && out.stderr.is_empty() && lines.len() >= 5;
    if !has_commits && !unborn {
        let said = String::from_utf8_lossy(&out.stderr);
        if said.contains("not a git repository") {
            return Ok(Located::NoRepository(said.trim().to_string()));
        }
        return Err(failed(dir, "rev-parse --show-toplevel", &out));
    }
    if lines.len() < 5 {
        return Err(failed(dir, "rev-parse --show-toplevel", &out));
    }
    let root = bytes_to_path(lines[0]);
    let prefix = lines[1].to_vec();
    let shallow = lines[2] == b"true";
    let shallow_file = lines[3].to_vec();
    let git_dir = bytes_to_path(lines[4]);
    let head = lines
        .get(5)
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .unwrap_or_default();
    if root.as_os_str().is_empty() {
        return Err(failed(dir, "rev-parse --show-toplevel", &out));
    }
    Ok(Located::Repo(Found {
        root,
        prefix,
        shallow,
        shallow_file,
        git_dir,
        head,
        has_commits,
    }))
}

#[cfg(unix)]
pub(super) fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
pub(super) fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Adds `-- prefix` unless the content dir is the whole work tree.
pub(super) fn limit_to(cmd: &mut Command, prefix: &[u8]) {
    if !prefix.is_empty() {
        cmd.arg("--").arg(bytes_to_path(prefix));
    }
}

/// A tracked file's uncommitted change, staged or not, as `git status` reports it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// Added to the index, never committed.
    New,
    /// Changed since `HEAD`, where it was the version `head`.
    Edited { head: Oid },
    /// Moved here from `from` (staged), where `HEAD` has the version `head`.
    Moved { head: Oid, from: GitPath },
    /// Deleted, unmerged or otherwise beyond comparing.
    Other,
}

/// Tracked files with uncommitted changes, staged or not, from `git status`.
pub(super) fn uncommitted(root: &Path, prefix: &[u8]) -> Result<Vec<(GitPath, Change)>> {
    let mut cmd = git(root);
    // No optional locks: a status run must not take index.lock from under the user's own git.
    cmd.args([
        "--no-optional-locks",
        "-c",
        "core.quotePath=false",
        "status",
        "--porcelain=v2",
        "-z",
        "--renames",
        "--untracked-files=no",
        "--ignore-submodules=all",
    ]);
    limit_to(&mut cmd, prefix);
    let out = cmd.output().map_err(|e| Error::io(root, e))?;
    if !out.status.success() {
        return Err(failed(root, "status --porcelain=v2 -z", &out));
    }
    Ok(parse_status(&out.stdout))
}

/// Reads `git status --porcelain=v2 -z` records: `1 XY sub mH mI mW hH hI path`, `2 … hH hI
/// Xscore path\0from`, `u …` (unmerged).
fn parse_status(out: &[u8]) -> Vec<(GitPath, Change)> {
    let mut found = Vec::new();
    let mut records = out.split(|b| *b == 0);
    while let Some(rec) = records.next() {
        let fields = |n: usize| rec.splitn(n, |b| *b == b' ').collect::<Vec<_>>();
        match rec.first() {
            Some(b'1') => {
                let f = fields(9);
                if f.len() < 9 {
                    continue;
                }
                let (x, y) = (f[1].first(), f[1].get(1));
                let change = if x == Some(&b'A') {
                    Change::New
                } else if x == Some(&b'D') || y == Some(&b'D') {
                    Change::Other
                } else {
                    Change::Edited { head: f[6].into() }
                };
                found.push((f[8].into(), change));
            }
            Some(b'2') => {
                let f = fields(10);
                let from = records.next().unwrap_or_default();
                if f.len() < 10 {
                    continue;
                }
                let change = if f[8].first() == Some(&b'R') && f[1].get(1) != Some(&b'D') {
                    Change::Moved {
                        head: f[6].into(),
                        from: from.into(),
                    }
                } else {
                    Change::New
                };
                found.push((f[9].into(), change));
            }
            Some(b'u') => {
                let f = fields(11);
                if let Some(path) = f.get(10) {
                    found.push(((*path).into(), Change::Other));
                }
            }
            _ => {}
        }
    }
    found
}

/// The most of an ignore-revs file read: some 60,000 commit names with their comments.
pub const MAX_IGNORE_REVS: u64 = 4 << 20;

/// The commits that never date a page: the ignore-revs file's full commit names (as `git
/// blame --ignore-revs-file` reads them: `#` starts a comment, bytes that are not UTF-8 are
/// only comments' business), and a warning for each line that is not one. The file is read
/// as every file a checkout controls is ([`crate::vocab::fsread`]): never a FIFO or a device, the
/// repository's own only when it (links resolved) lies inside the checkout, and at most
/// [`MAX_IGNORE_REVS`]; one that cannot be read is a warning, and no commit is passed over.
pub(super) fn ignore_revs(
    root: &Path,
    which: &crate::settings::IgnoreRevs,
) -> (HashSet<Box<[u8]>>, Vec<String>) {
    use crate::settings::IgnoreRevs;
    use crate::vocab::fsread;
    let read = match which {
        IgnoreRevs::Off => return Default::default(),
        IgnoreRevs::RepoDefault => {
            let path = root.join(".git-blame-ignore-revs");
            // Not there (the usual case): nothing to say.
            if std::fs::symlink_metadata(&path).is_err() {
                return Default::default();
            }
            let read = fsread::Folder::new(root)
                .map_err(fsread::ReadError::from)
                .and_then(|checkout| fsread::read_in(&path, &checkout, MAX_IGNORE_REVS));
            (path, read)
        }
        IgnoreRevs::File(p) => (p.clone(), fsread::read(p, MAX_IGNORE_REVS)),
    };
    match read {
        (path, Ok(bytes)) => parse_ignore_revs(&String::from_utf8_lossy(&bytes), &path),
        (path, Err(e)) => (
            HashSet::new(),
            vec![format!(
                "{}: not read ({e}): no commit is passed over as an ignored revision",
                path.display()
            )],
        ),
    }
}

fn parse_ignore_revs(text: &str, path: &Path) -> (HashSet<Box<[u8]>>, Vec<String>) {
    let mut revs = HashSet::new();
    let mut warnings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let name = line.split('#').next().unwrap_or_default().trim();
        if name.is_empty() {
            continue;
        }
        let full = matches!(name.len(), 40 | 64) && name.bytes().all(|b| b.is_ascii_hexdigit());
        if full {
            revs.insert(name.to_ascii_lowercase().into_bytes().into_boxed_slice());
        } else {
            warnings.push(format!(
                "{}:{}: '{name}' is not a full commit name (40 hex digits): line ignored",
                path.display(),
                n + 1
            ));
        }
    }
    (revs, warnings)
}

/// Whether `head` is `kept` or descends from it by a line of ordinary commits (each with one
/// parent, at most [`recall::MAX_RANGE`]): then `git log kept..head` lists exactly the commits
/// a whole log lists before `kept`, in the same order, and the rest of the whole log is the
/// one the kept walk read. A merge in between could interleave older commits by date.
pub(super) fn descends_by_line(root: &Path, kept: &str, head: &str) -> bool {
    if kept == head {
        return true;
    }
    let out = git(root)
        .args(["rev-list", "--parents", "--max-count"])
        .arg((recall::MAX_RANGE + 1).to_string())
        .arg(format!("{kept}..{head}"))
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        return false;
    };
    let mut expect = head.as_bytes();
    let mut lines = 0;
    for line in out.stdout.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let mut f = line.split(|b| *b == b' ');
        let (Some(commit), Some(parent), None) = (f.next(), f.next(), f.next()) else {
            return false;
        };
        if commit != expect {
            return false;
        }
        expect = parent;
        lines += 1;
    }
    lines > 0 && lines <= recall::MAX_RANGE && expect == kept.as_bytes()
}

pub(super) fn command_error(root: &Path, command: &str, message: &str) -> Error {
    Error::io(
        root,
        io::Error::other(format!("`git {command}` failed: {message}")),
    )
}

pub(super) fn failed(root: &Path, command: &str, out: &Output) -> Error {
    command_error(
        root,
        command,
        &format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_records_give_the_head_version_and_the_name_before_a_move() {
        let z = "0000000000000000000000000000000000000000";
        let h = "1111111111111111111111111111111111111111";
        let out = format!(
            "1 .M N... 100644 100644 100644 {h} {h} a b.md\0\
             2 R. N... 100644 100644 100644 {h} {h} R100 new.md\0old.md\0\
             1 A. N... 000000 100644 100644 {z} {h} added.md\0\
             1 D. N... 100644 000000 000000 {h} {z} gone.md\0\
             u UU N... 100644 100644 100644 100644 {h} {h} {h} both.md\0"
        );
        let got = parse_status(out.as_bytes());
        let head: Oid = h.as_bytes().into();
        let names: Vec<_> = got
            .iter()
            .map(|(p, c)| (String::from_utf8_lossy(p).into_owned(), c))
            .collect();
        assert_eq!(
            names,
            vec![
                ("a b.md".into(), &Change::Edited { head: head.clone() }),
                (
                    "new.md".into(),
                    &Change::Moved {
                        head,
                        from: b"old.md".as_slice().into()
                    }
                ),
                ("added.md".into(), &Change::New),
                ("gone.md".into(), &Change::Other),
                ("both.md".into(), &Change::Other),
            ]
        );
    }

    #[test]
    fn ignore_revs_take_full_names_and_warn_about_the_rest() {
        let a = "a".repeat(40);
        let text = format!("# reformat\n{a} # black\n\n  {}\nabc123\n", "B".repeat(40));
        let (revs, warnings) = parse_ignore_revs(&text, Path::new(".git-blame-ignore-revs"));
        assert!(revs.contains(a.as_bytes()));
        assert!(revs.contains("b".repeat(40).as_bytes()));
        assert_eq!(revs.len(), 2);
        assert_eq!(
            warnings,
            vec![
                ".git-blame-ignore-revs:5: 'abc123' is not a full commit name (40 hex digits): line ignored"
            ]
        );
    }
}
