//! What the report says of the commits behind git dates: each commit's subject line, and
//! the date of the repository's first commit. Read on demand with one `git` call each; a
//! repository that cannot answer gives nothing, and the report says less.

use super::repo::git;
use chrono::NaiveDate;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// The subject line of each commit in `hashes` (short or full), keyed as given. Commits git
/// does not know (a submodule's, `uncommitted`) are absent.
pub fn commit_subjects<'a>(
    dir: &Path,
    hashes: impl IntoIterator<Item = &'a str>,
) -> HashMap<String, String> {
    let mut wanted: Vec<&str> = hashes
        .into_iter()
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut found = HashMap::new();
    if wanted.is_empty() {
        return found;
    }
    // One `git cat-file --batch` for all: an unknown name is a `missing` line there, where
    // `git show` would fail the whole call.
    let child = git(dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return found;
    };
    let input: String = wanted.iter().map(|h| format!("{h}\n")).collect();
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            // A failed write shows as commits not found.
            let _ = stdin.write_all(input.as_bytes());
        })
    });
    let Ok(out) = child.wait_with_output() else {
        return found;
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    let mut rest = out.stdout.as_slice();
    for name in &wanted {
        // `<oid> <type> <size>\n<content>\n`, or `<name> missing\n`.
        let Some(eol) = rest.iter().position(|&b| b == b'\n') else {
            break;
        };
        let header = String::from_utf8_lossy(&rest[..eol]).into_owned();
        rest = &rest[eol + 1..];
        let mut fields = header.split(' ');
        let (Some(_), Some(kind), Some(size)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(size) = size.parse::<usize>() else {
            break;
        };
        let Some(body) = rest.get(..size) else {
            break;
        };
        rest = rest.get(size + 1..).unwrap_or_default();
        if kind == "commit"
            && let Some(subject) = subject_of(body)
        {
            found.insert((*name).to_string(), subject);
        }
    }
    found
}

/// The first line of a raw commit's message (after the headers and their blank line).
fn subject_of(commit: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(commit);
    let (_, message) = text.split_once("\n\n")?;
    Some(message.lines().next().unwrap_or("").to_string())
}

/// The author date of the repository's oldest commit, when `dir` lies in a repository with
/// its whole history (a shallow clone's oldest commit is only where its history was cut).
pub fn first_commit(dir: &Path) -> Option<NaiveDate> {
    let shallow = git(dir)
        .args(["rev-parse", "--is-shallow-repository"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    if shallow.stdout.starts_with(b"true") {
        return None;
    }
    let out = git(dir)
        .args(["log", "--max-parents=0", "--format=%as", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| NaiveDate::parse_from_str(l.trim(), "%Y-%m-%d").ok())
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn run(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .current_dir(dir)
            .args(args)
            .env("GIT_AUTHOR_DATE", "2021-03-04T05:06:07Z")
            .env("GIT_COMMITTER_DATE", "2021-03-04T05:06:07Z")
            .output()
            .map(|o| o.status.success());
        assert_eq!(ok.ok(), Some(true), "git {args:?}");
    }

    #[test]
    fn subjects_and_first_commit_come_from_the_repository() {
        let d = tempfile::tempdir().unwrap();
        run(d.path(), &["init", "-q"]);
        run(d.path(), &["config", "user.email", "a@b.c"]);
        run(d.path(), &["config", "user.name", "A"]);
        std::fs::write(d.path().join("a.md"), "a").unwrap();
        run(d.path(), &["add", "a.md"]);
        run(d.path(), &["commit", "-q", "-m", "Fix the\ttypo"]);
        let head = Command::new("git")
            .current_dir(d.path())
            .args(["rev-parse", "--short=10", "HEAD"])
            .output()
            .unwrap();
        let short = String::from_utf8(head.stdout).unwrap().trim().to_string();
        let got = commit_subjects(d.path(), [short.as_str(), "uncommitted", "0000000000"]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[&short], "Fix the\ttypo");
        assert_eq!(first_commit(d.path()), NaiveDate::from_ymd_opt(2021, 3, 4));
    }

    #[test]
    fn outside_a_repository_nothing_is_known() {
        let d = tempfile::tempdir().unwrap();
        assert!(commit_subjects(d.path(), ["abcdef1234"]).is_empty());
        assert_eq!(first_commit(d.path()), None);
    }
}
