//! Scratch git repositories whose commits carry the dates a test chooses, untouched by the
//! machine's git config.

use super::text;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A repository in a temporary folder.
pub struct Repo {
    _tmp: tempfile::TempDir,
    /// Its work tree.
    pub root: PathBuf,
}

impl Repo {
    /// `git init` in a new temporary folder.
    pub fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        std::fs::create_dir(&root).unwrap();
        let repo = Repo { _tmp: tmp, root };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// A command for git in `dir`, with a fixed identity and none of the machine's config.
    pub fn command(dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env_remove("GIT_COMMITTER_DATE")
            .env_remove("GIT_AUTHOR_DATE")
            .args(["-c", "user.name=Tester", "-c", "user.email=t@example.org"])
            .args(["-c", "commit.gpgsign=false"]);
        cmd
    }

    /// Runs git here; it must succeed.
    pub fn git(&self, args: &[&str]) -> Output {
        let out = Self::command(&self.root).args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}: {}", text(&out));
        out
    }

    /// Writes a file (its folders made first).
    pub fn write(&self, rel: &str, body: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }

    /// `git mv`, the target's folder made first.
    pub fn mv(&self, from: &str, to: &str) {
        std::fs::create_dir_all(self.root.join(to).parent().unwrap()).unwrap();
        self.git(&["mv", from, to]);
    }

    /// Stages everything and commits it with author and committer dates `date`; returns the
    /// commit's full name.
    pub fn commit(&self, date: &str) -> String {
        self.git(&["add", "-A"]);
        let out = Self::command(&self.root)
            .args(["commit", "-q", "--allow-empty", "-m", "change"])
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .output()
            .unwrap();
        assert!(out.status.success(), "git commit: {}", text(&out));
        self.head()
    }

    /// Feeds `stream` to `git fast-import` (thousands of commits in well under a second),
    /// then checks out `main`.
    pub fn fast_import(&self, stream: &[u8]) {
        use std::io::Write;
        let mut child = Self::command(&self.root)
            .args(["fast-import", "--quiet"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stream).unwrap();
        assert!(child.wait().unwrap().success(), "git fast-import failed");
        self.git(&["checkout", "-q", "-f", "main"]);
    }

    /// The full name of `HEAD`.
    pub fn head(&self) -> String {
        let out = self.git(&["rev-parse", "HEAD"]);
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }
}
