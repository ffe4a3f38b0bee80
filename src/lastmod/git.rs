//! What git says about a file: the last commit that touched it, read for a whole content tree
//! in one streamed `git log` pass, plus the working-tree state (modified, untracked).
//!
//! Four git processes per run, whatever the size of the tree: `rev-parse` (where is the
//! repository, is it shallow, has it any commit), `ls-files` (the tracked set, so the walk can
//! stop once every file has a date, and the submodules), `status` (uncommitted changes) and
//! the one `log`; the same four again for each submodule below the content dir.

use crate::date::W3cDate;
use crate::error::{Error, Result};
use chrono::DateTime;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Output, Stdio};

/// A path as git writes it, relative to the repository's top folder.
type GitPath = Box<[u8]>;

/// Every tracked file under the content dir and what git says about it.
type FileStates = HashMap<GitPath, GitFileState>;

/// Which of a commit's two dates counts as the file's last change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GitDate {
    /// When the commit was made (or last rebased/amended): git's own notion of "last change".
    #[default]
    Committer,
    /// When the change was first written (`git_date = "author"`).
    Author,
}

/// How to read the history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GitOptions {
    /// Committer (default) or author date.
    pub date: GitDate,
    /// Only tell committed files from uncommitted ones, without reading the log: all that the
    /// mtime source needs when git dates are not asked for.
    pub states_only: bool,
}

/// What git says about one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GitFileState {
    /// Unchanged since this commit, the last one that changed it (with the commit's own offset).
    Committed(W3cDate),
    /// Tracked, with uncommitted changes (staged or not): its mtime is the honest date.
    Modified,
    /// Never committed: untracked, ignored, or only staged as new.
    Untracked,
    /// Tracked but no commit found for it (or outside the content dir): git has no date to give.
    Unknown,
}

/// The outcome of looking for git history around a content dir.
#[derive(Debug)]
pub enum GitProbe {
    /// History read: ask it about each file.
    Ready(GitHistory),
    /// A shallow clone: every file would get the boundary commit's date, so git is not trusted.
    /// The history still tells committed files (all [`GitFileState::Unknown`]) from modified
    /// and untracked ones, whose mtime stays honest.
    Shallow {
        /// The repository's top folder, for the warning.
        repo_root: PathBuf,
        /// The working-tree states, without any date.
        history: GitHistory,
    },
    /// The content dir is not inside a git work tree.
    NoRepository,
    /// No `git` program on PATH.
    NoGit,
    /// No `git` program on PATH, but the content dir is inside a checkout (a `.git` above it):
    /// committed and uncommitted files cannot be told apart, and mtimes there are checkout
    /// times, so none can be trusted.
    NoGitInCheckout {
        /// The folder holding `.git`.
        repo_root: PathBuf,
    },
}

/// Every tracked file's state under one content dir, built once per run.
#[derive(Debug)]
pub struct GitHistory {
    /// The content dir as given, made absolute.
    dir: PathBuf,
    /// The content dir with symlinks resolved, when that differs from `dir`.
    dir_real: Option<PathBuf>,
    /// The work tree's top folder, as git reports it (symlinks resolved).
    repo_root: PathBuf,
    /// The content dir relative to `repo_root`, `/`-separated, with a trailing `/` (or empty).
    prefix: Vec<u8>,
    /// Repository-relative path bytes of each file git knows under the content dir.
    files: FileStates,
    /// Submodules below the content dir: this repository's log never sees their files.
    submodules: Vec<Submodule>,
}

/// A submodule below the content dir, with its own history.
#[derive(Debug)]
struct Submodule {
    /// Its folder relative to the outer repository's top folder, with a trailing `/`.
    prefix: Vec<u8>,
    /// Its history; `None` when it is not checked out or cannot be read, so that its files
    /// get no git date and no mtime (a checkout's mtimes are checkout times).
    history: Option<GitHistory>,
    /// A shallow clone: its files are known but undated.
    shallow: bool,
}

impl GitHistory {
    /// What git says about `path` (absolute, or relative to the dir given to [`read_history`]).
    pub fn state(&self, path: &Path) -> GitFileState {
        let key = self.key(path);
        if let Some((sub, rest)) = key.as_deref().and_then(|k| self.submodule_of(k)) {
            return match &sub.history {
                Some(h) => h.state(&bytes_to_path(rest)),
                None => GitFileState::Unknown,
            };
        }
        match key {
            Some(key) => match self.files.get(key.as_slice()) {
                Some(state) => *state,
                // Under the content dir but not in the index: untracked or ignored.
                None => GitFileState::Untracked,
            },
            None => GitFileState::Unknown,
        }
    }

    /// The work tree's top folder.
    pub fn repo_root(&self) -> &Path {
        &self.repo_root
    }

    /// How many files under the content dir got a commit date (submodules' included).
    pub fn committed_files(&self) -> usize {
        let own = self
            .files
            .values()
            .filter(|s| matches!(s, GitFileState::Committed(_)))
            .count();
        own + self
            .sub_histories()
            .map(GitHistory::committed_files)
            .sum::<usize>()
    }

    /// How many files under the content dir git tracks (the index; submodules' included).
    pub fn tracked_files(&self) -> usize {
        self.files.len()
            + self
                .sub_histories()
                .map(GitHistory::tracked_files)
                .sum::<usize>()
    }

    /// The submodules below the content dir that are shallow clones (their files get no git
    /// date), nested ones included.
    pub fn shallow_submodules(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for sub in &self.submodules {
            if let Some(h) = &sub.history {
                if sub.shallow {
                    out.push(h.repo_root.clone());
                }
                out.extend(h.shallow_submodules());
            }
        }
        out
    }

    fn sub_histories(&self) -> impl Iterator<Item = &GitHistory> {
        self.submodules.iter().filter_map(|s| s.history.as_ref())
    }

    /// The submodule holding the file at repository-relative `key`, and the rest of the key.
    fn submodule_of<'k>(&self, key: &'k [u8]) -> Option<(&Submodule, &'k [u8])> {
        self.submodules
            .iter()
            .find_map(|s| key.strip_prefix(s.prefix.as_slice()).map(|rest| (s, rest)))
    }

    /// The repository-relative key of `path`, or None when it lies outside the content dir.
    fn key(&self, path: &Path) -> Option<Vec<u8>> {
        if path.is_relative() {
            return join_key(&self.prefix, path);
        }
        for base in std::iter::once(&self.dir).chain(self.dir_real.as_ref()) {
            if let Ok(rel) = path.strip_prefix(base) {
                return join_key(&self.prefix, rel);
            }
        }
        if let Ok(rel) = path.strip_prefix(&self.repo_root) {
            return join_key(b"", rel).filter(|k| k.starts_with(&self.prefix));
        }
        // Reached through a symlink we did not see: resolve it (rare, so the syscall is fine).
        let real = std::fs::canonicalize(path).ok()?;
        let rel = real.strip_prefix(&self.repo_root).ok()?;
        join_key(b"", rel).filter(|k| k.starts_with(&self.prefix))
    }
}

/// `prefix` followed by `rel`'s components joined with `/`, as git writes paths; None when
/// `..` climbs out of the content dir.
fn join_key(prefix: &[u8], rel: &Path) -> Option<Vec<u8>> {
    let mut key = prefix.to_vec();
    let floor = key.len();
    for comp in rel.components() {
        match comp {
            Component::Normal(name) => {
                if key.len() > floor {
                    key.push(b'/');
                }
                key.extend_from_slice(name.as_encoded_bytes());
            }
            Component::CurDir => {}
            Component::ParentDir => {
                if key.len() == floor {
                    return None;
                }
                let cut = key[floor..]
                    .iter()
                    .rposition(|b| *b == b'/')
                    .map_or(floor, |i| floor + i);
                key.truncate(cut);
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(key)
}

/// Looks for the repository around `dir` (the content dir, possibly nested deep inside it) and
/// reads the last commit that touched each tracked file under `dir`.
pub fn read_history(dir: &Path, opts: &GitOptions) -> Result<GitProbe> {
    std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
    let dir_abs = std::path::absolute(dir).map_err(|e| Error::io(dir, e))?;
    let dir_real = std::fs::canonicalize(&dir_abs)
        .ok()
        .filter(|real| *real != dir_abs);

    let found = match locate(&dir_abs)? {
        Located::Repo(found) => found,
        Located::NoRepository => return Ok(GitProbe::NoRepository),
        Located::NoGit => {
            return Ok(match checkout_around(&dir_abs) {
                Some(repo_root) => GitProbe::NoGitInCheckout { repo_root },
                None => GitProbe::NoGit,
            })
        }
    };
    let root = found.root.as_path();
    let prefix = found.prefix;

    let (mut files, total, gitlinks) = tracked(root, &prefix)?;
    // A pathspec makes git diff each commit twice (to simplify history, then to print), about
    // +40% time; when the content dir is most of the repository, reading the whole log and
    // skipping the few other paths here is cheaper. Small sites in big repositories keep it.
    let log_prefix: &[u8] = if files.len() * 2 >= total {
        b""
    } else {
        &prefix
    };
    let files = std::thread::scope(|scope| {
        let status = scope.spawn(|| uncommitted(root, &prefix));
        // A shallow log ends at the boundary commit, which would date every file: skip it.
        if found.has_commits && !found.shallow && !opts.states_only && !files.is_empty() {
            spawn_log(root, log_prefix, opts)?.walk(&mut files, &prefix)?;
        }
        let status = status
            .join()
            .map_err(|_| command_error(root, "status", "the reader thread panicked"))??;
        for (path, state) in status {
            // Only tracked files can be modified; staged-new ones are in the index too.
            if let Some(slot) = files.get_mut(path.as_slice()) {
                *slot = state;
            }
        }
        Ok::<_, Error>(files)
    })?;
    let submodules = gitlinks
        .iter()
        .map(|link| read_submodule(root, link, opts))
        .collect();
    let history = GitHistory {
        dir: dir_abs,
        dir_real,
        repo_root: found.root.clone(),
        prefix,
        files,
        submodules,
    };
    Ok(if found.shallow {
        GitProbe::Shallow {
            repo_root: found.root,
            history,
        }
    } else {
        GitProbe::Ready(history)
    })
}

/// The nearest folder at or above `dir` holding a `.git` (a folder, or a file in worktrees and
/// submodules), for when git itself cannot be asked.
fn checkout_around(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|a| a.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Where the content dir sits in git's view of the world.
enum Located {
    Repo(Found),
    NoRepository,
    NoGit,
}

/// The repository around the content dir.
struct Found {
    root: PathBuf,
    prefix: Vec<u8>,
    shallow: bool,
    has_commits: bool,
}

/// A `git` command with the settings every call shares: messages in English (we match one),
/// pathspecs taken literally (a content dir may contain `*` or `[`).
fn git(cwd: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(cwd)
        .env("LC_ALL", "C")
        .env("LANGUAGE", "C")
        .env("GIT_LITERAL_PATHSPECS", "1")
        .stdin(Stdio::null());
    cmd
}

/// One `git rev-parse` answers: top folder, our place in it, shallow or not, any commit yet.
fn locate(dir: &Path) -> Result<Located> {
    let out = git(dir)
        .args([
            "rev-parse",
            "--show-toplevel",
            "--show-prefix",
            "--is-shallow-repository",
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
    let unborn = out.status.code() == Some(1) && out.stderr.is_empty() && lines.len() >= 3;
    if !has_commits && !unborn {
        if String::from_utf8_lossy(&out.stderr).contains("not a git repository") {
            return Ok(Located::NoRepository);
        }
        return Err(failed(dir, "rev-parse --show-toplevel", &out));
    }
    let root = bytes_to_path(lines[0]);
    let prefix = lines[1].to_vec();
    let shallow = lines[2] == b"true";
    if root.as_os_str().is_empty() {
        return Err(failed(dir, "rev-parse --show-toplevel", &out));
    }
    Ok(Located::Repo(Found {
        root,
        prefix,
        shallow,
        has_commits,
    }))
}

#[cfg(unix)]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Adds `-- prefix` unless the content dir is the whole work tree.
fn limit_to(cmd: &mut Command, prefix: &[u8]) {
    if !prefix.is_empty() {
        cmd.arg("--").arg(bytes_to_path(prefix));
    }
}

/// The index under the content dir (every tracked file, not yet dated), how many files the
/// whole index holds, and the submodules (gitlinks) under the content dir.
fn tracked(root: &Path, prefix: &[u8]) -> Result<(FileStates, usize, Vec<GitPath>)> {
    let out = git(root)
        .args(["ls-files", "-z", "--full-name", "--stage"])
        .output()
        .map_err(|e| Error::io(root, e))?;
    if !out.status.success() {
        return Err(failed(root, "ls-files --stage", &out));
    }
    let mut total = 0;
    let mut files = HashMap::new();
    let mut gitlinks = Vec::new();
    // `<mode> <object> <stage>\t<path>`. Unmerged paths appear once per stage: the map keeps
    // one, the count may run high.
    for rec in out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let Some(tab) = rec.iter().position(|b| *b == b'\t') else {
            continue;
        };
        let (mode, path) = (&rec[..tab], &rec[tab + 1..]);
        if !path.starts_with(prefix) {
            total += 1;
        } else if mode.starts_with(b"160000") {
            gitlinks.push(Box::from(path));
        } else {
            total += 1;
            files.insert(Box::from(path), GitFileState::Unknown);
        }
    }
    Ok((files, total, gitlinks))
}

/// Reads a submodule's own history (its files are not in the outer log). One that is not
/// checked out (no `.git` in its folder) or cannot be read gets none: its files are undated.
fn read_submodule(root: &Path, link: &[u8], opts: &GitOptions) -> Submodule {
    let mut prefix = link.to_vec();
    prefix.push(b'/');
    let dir = root.join(bytes_to_path(link));
    // Without its own `.git`, git would answer for the outer repository instead.
    let probe = if dir.join(".git").exists() {
        read_history(&dir, opts).ok()
    } else {
        None
    };
    let (history, shallow) = match probe {
        Some(GitProbe::Ready(h)) => (Some(h), false),
        Some(GitProbe::Shallow { history, .. }) => (Some(history), true),
        _ => (None, false),
    };
    Submodule {
        prefix,
        history,
        shallow,
    }
}

/// Tracked files with uncommitted changes, staged or not, from `git status`.
fn uncommitted(root: &Path, prefix: &[u8]) -> Result<Vec<(Vec<u8>, GitFileState)>> {
    let mut cmd = git(root);
    // No optional locks: a status run must not take index.lock from under the user's own git.
    cmd.args([
        "--no-optional-locks",
        "-c",
        "core.quotePath=false",
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=no",
        "--ignore-submodules=all",
    ]);
    limit_to(&mut cmd, prefix);
    let out = cmd.output().map_err(|e| Error::io(root, e))?;
    if !out.status.success() {
        return Err(failed(root, "status --porcelain=v1 -z", &out));
    }
    Ok(parse_status(&out.stdout))
}

/// Reads `XY path\0` records (a rename or copy adds `old\0`, which we skip).
fn parse_status(out: &[u8]) -> Vec<(Vec<u8>, GitFileState)> {
    let mut found = Vec::new();
    let mut records = out.split(|b| *b == 0);
    while let Some(rec) = records.next() {
        if rec.len() < 4 {
            continue;
        }
        let (x, path) = (rec[0], &rec[3..]);
        if x == b'R' || x == b'C' {
            records.next();
        }
        let state = if x == b'A' {
            GitFileState::Untracked
        } else {
            GitFileState::Modified
        };
        found.push((path.to_vec(), state));
    }
    found
}

/// The one running `git log` and what is needed to report its failure.
struct LogRun {
    child: Child,
    stdout: ChildStdout,
    stderr: std::thread::JoinHandle<Vec<u8>>,
    root: PathBuf,
}

/// Marks the start of a commit in the log; git never writes it at the start of a status.
const COMMIT_MARK: u8 = 0x01;

fn spawn_log(root: &Path, prefix: &[u8], opts: &GitOptions) -> Result<LogRun> {
    let format = match opts.date {
        GitDate::Committer => "--format=%x01%cI",
        GitDate::Author => "--format=%x01%aI",
    };
    let mut cmd = git(root);
    // Pin the settings a user's config could change under us (follow, copies, signatures).
    cmd.args([
        "-c",
        "core.quotePath=false",
        "-c",
        "log.follow=false",
        "-c",
        "log.showSignature=false",
        "-c",
        "diff.renames=true",
        "log",
        "-z",
        "--no-merges",
        "--name-status",
        "-M",
        "--no-color",
        format,
    ]);
    limit_to(&mut cmd, prefix);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io(root, e))?;
    let (Some(stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(command_error(root, "log", "no pipes to the child"));
    };
    // Drained aside so a chatty stderr (rename-limit warnings) never blocks the log.
    let stderr = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    Ok(LogRun {
        child,
        stdout,
        stderr,
        root: root.to_path_buf(),
    })
}

impl LogRun {
    /// Stops git and forgets it, once reading its output has failed.
    fn abandon(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Streams the log, dating each file in `files` at the first commit (newest first) that
    /// changed it; stops git as soon as every file has a date.
    fn walk(mut self, files: &mut FileStates, prefix: &[u8]) -> Result<()> {
        let walked = walk_log(
            BufReader::with_capacity(1 << 18, &mut self.stdout),
            files,
            prefix,
        );
        let complete = match walked {
            Ok(complete) => complete,
            Err(e) => {
                let err = e.in_command(&self.root);
                self.abandon();
                return Err(err);
            }
        };
        if !complete {
            // Every file is dated: the rest of the history cannot change anything.
            let _ = self.child.kill();
            let _ = self.child.wait();
            return Ok(());
        }
        let status = self.child.wait().map_err(|e| Error::io(&self.root, e))?;
        let stderr = self.stderr.join().unwrap_or_default();
        if !status.success() {
            return Err(command_error(
                &self.root,
                "log",
                &format!("{status}: {}", String::from_utf8_lossy(&stderr).trim()),
            ));
        }
        Ok(())
    }
}

/// Why reading the log stream failed.
#[derive(Debug)]
enum WalkError {
    Io(io::Error),
    BadDate(String),
}

impl WalkError {
    fn in_command(self, root: &Path) -> Error {
        match self {
            WalkError::Io(e) => Error::io(root, e),
            WalkError::BadDate(d) => command_error(root, "log", &format!("unreadable date '{d}'")),
        }
    }
}

/// The walk proper, over any byte stream in `git log -z --name-status --format=%x01<date>` form.
///
/// Returns Ok(true) when the stream was read to its end, Ok(false) when it stopped early
/// because every file had its date. Each file starts under its current name; a pure rename
/// (R100), met going back in time, moves the file to its old name without dating it, so it
/// keeps its history; any other change (edit, add, type change, rename with edits) dates it.
/// A file that came from outside `prefix` (the content dir) dates from its arrival: that is
/// what a log limited to the content dir shows, so both ways of reading agree.
fn walk_log(
    mut input: impl BufRead,
    files: &mut FileStates,
    prefix: &[u8],
) -> Result<bool, WalkError> {
    // Name at this point of the walk -> current name, for the files still waiting for a date.
    let mut waiting: HashMap<GitPath, GitPath> =
        files.keys().map(|k| (k.clone(), k.clone())).collect();
    let mut token = Vec::with_capacity(256);
    let mut old = Vec::with_capacity(256);
    let mut date_raw: Vec<u8> = Vec::with_capacity(32);
    let mut date: Option<W3cDate> = None;
    // Old names to take effect once the commit is done (a swap a<->b renames both at once).
    let mut moved: Vec<(GitPath, GitPath)> = Vec::new();

    if waiting.is_empty() {
        return Ok(false);
    }
    loop {
        if !next_token(&mut input, &mut token)? {
            break;
        }
        if token.first() == Some(&COMMIT_MARK) {
            finish_commit(&mut waiting, &mut moved);
            if waiting.is_empty() {
                return Ok(false);
            }
            date_raw.clear();
            date_raw.extend_from_slice(&token[1..]);
            date = None;
            continue;
        }
        // The first status of a commit follows the header's newline.
        let status = token.strip_prefix(b"\n").unwrap_or(&token);
        let Some(&kind) = status.first() else {
            continue;
        };
        let pure_rename = kind == b'R' && &status[1..] == b"100";
        let two_paths = kind == b'R' || kind == b'C';
        if two_paths && !next_token(&mut input, &mut old)? {
            break;
        }
        if !next_token(&mut input, &mut token)? {
            break;
        }
        if kind == b'D' {
            continue;
        }
        let Some(current) = waiting.remove(token.as_slice()) else {
            continue;
        };
        if pure_rename && old.starts_with(prefix) {
            moved.push((Box::from(old.as_slice()), current));
            continue;
        }
        let when = match date {
            Some(d) => d,
            None => {
                let d = parse_git_date(&date_raw)?;
                date = Some(d);
                d
            }
        };
        if let Some(slot) = files.get_mut(&current) {
            *slot = GitFileState::Committed(when);
        }
    }
    finish_commit(&mut waiting, &mut moved);
    Ok(true)
}

/// Applies a commit's pure renames: from here back, the file goes by its old name.
fn finish_commit(waiting: &mut HashMap<GitPath, GitPath>, moved: &mut Vec<(GitPath, GitPath)>) {
    for (old, current) in moved.drain(..) {
        // Two files claiming one old name cannot both be right: the first keeps it.
        waiting.entry(old).or_insert(current);
    }
}

/// Reads the next NUL-terminated token into `buf` (without the NUL); false at end of input.
fn next_token(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Result<bool, WalkError> {
    buf.clear();
    let n = input.read_until(0, buf).map_err(WalkError::Io)?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&0) {
        buf.pop();
    }
    Ok(true)
}

/// `%cI`/`%aI`: strict ISO 8601 with the commit's own offset (`Z` for UTC in newer git).
fn parse_git_date(raw: &[u8]) -> Result<W3cDate, WalkError> {
    let text = std::str::from_utf8(raw)
        .map_err(|_| WalkError::BadDate(String::from_utf8_lossy(raw).into_owned()))?
        .trim();
    DateTime::parse_from_rfc3339(text)
        .map(W3cDate::from_datetime)
        .map_err(|_| WalkError::BadDate(text.to_string()))
}

fn command_error(root: &Path, command: &str, message: &str) -> Error {
    Error::io(
        root,
        io::Error::other(format!("`git {command}` failed: {message}")),
    )
}

fn failed(root: &Path, command: &str, out: &Output) -> Error {
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

    fn files(names: &[&str]) -> FileStates {
        names
            .iter()
            .map(|n| (Box::from(n.as_bytes()), GitFileState::Unknown))
            .collect()
    }

    fn date_of(files: &FileStates, name: &str) -> Option<String> {
        match files.get(name.as_bytes())? {
            GitFileState::Committed(d) => Some(d.to_string()),
            _ => None,
        }
    }

    #[test]
    fn first_change_going_back_dates_the_file() {
        let log = b"\x012024-03-01T10:00:00+01:00\0\nM\0a.md\0\
                    \x012024-02-01T10:00:00Z\0\nM\0a.md\0M\0b.md\0D\0gone.md\0\
                    \x012024-01-01T00:00:00-05:00\0\nA\0a.md\0A\0b.md\0A\0gone.md\0";
        // never.md (say, added by a merge) keeps the walk going to the end.
        let mut f = files(&["a.md", "b.md", "never.md"]);
        assert!(walk_log(&log[..], &mut f, b"").unwrap());
        assert_eq!(f[b"never.md".as_slice()], GitFileState::Unknown);
        assert_eq!(date_of(&f, "a.md").unwrap(), "2024-03-01T10:00:00+01:00");
        assert_eq!(date_of(&f, "b.md").unwrap(), "2024-02-01T10:00:00+00:00");
        assert!(!f.contains_key(b"gone.md".as_slice()));
    }

    #[test]
    fn pure_renames_keep_history_and_edited_renames_count() {
        let log = b"\x012024-04-01T00:00:00Z\0\nR100\0b.md\0c.md\0R087\0x.md\0y.md\0\
                    \x012024-03-01T00:00:00Z\0\nR100\0a.md\0b.md\0\
                    \x012024-02-01T00:00:00Z\0\nM\0a.md\0M\0x.md\0\
                    \x012024-01-01T00:00:00Z\0\nA\0a.md\0A\0x.md\0";
        let mut f = files(&["c.md", "y.md"]);
        walk_log(&log[..], &mut f, b"").unwrap();
        assert_eq!(date_of(&f, "c.md").unwrap(), "2024-02-01T00:00:00+00:00");
        assert_eq!(date_of(&f, "y.md").unwrap(), "2024-04-01T00:00:00+00:00");
    }

    #[test]
    fn a_swap_of_two_names_in_one_commit_follows_each_file() {
        let log = b"\x012024-03-01T00:00:00Z\0\nR100\0a\0b\0R100\0b\0a\0\
                    \x012024-02-01T00:00:00Z\0\nM\0a\0\
                    \x012024-01-01T00:00:00Z\0\nA\0a\0A\0b\0";
        let mut f = files(&["a", "b"]);
        walk_log(&log[..], &mut f, b"").unwrap();
        // Today's b was a, last edited in February; today's a was b, untouched since January.
        assert_eq!(date_of(&f, "b").unwrap(), "2024-02-01T00:00:00+00:00");
        assert_eq!(date_of(&f, "a").unwrap(), "2024-01-01T00:00:00+00:00");
    }

    #[test]
    fn a_name_freed_by_a_rename_does_not_inherit_an_older_files_history() {
        // new.md existed, was deleted, then old.md was renamed to new.md.
        let log = b"\x012024-03-01T00:00:00Z\0\nR100\0old.md\0new.md\0\
                    \x012024-02-01T00:00:00Z\0\nD\0new.md\0\
                    \x012024-01-15T00:00:00Z\0\nM\0new.md\0\
                    \x012024-01-01T00:00:00Z\0\nA\0old.md\0A\0new.md\0";
        let mut f = files(&["new.md"]);
        walk_log(&log[..], &mut f, b"").unwrap();
        assert_eq!(date_of(&f, "new.md").unwrap(), "2024-01-01T00:00:00+00:00");
    }

    #[test]
    fn a_file_moved_in_from_outside_the_content_dir_dates_from_its_arrival() {
        let log = b"\x012024-03-01T00:00:00Z\0\nR100\0drafts/a.md\0content/a.md\0\
                    R100\0content/old/b.md\0content/b.md\0\
                    \x012024-01-01T00:00:00Z\0\nA\0drafts/a.md\0A\0content/old/b.md\0";
        let mut f = files(&["content/a.md", "content/b.md"]);
        walk_log(&log[..], &mut f, b"content/").unwrap();
        assert_eq!(
            date_of(&f, "content/a.md").unwrap(),
            "2024-03-01T00:00:00+00:00"
        );
        assert_eq!(
            date_of(&f, "content/b.md").unwrap(),
            "2024-01-01T00:00:00+00:00"
        );
    }

    #[test]
    fn stops_once_every_file_is_dated() {
        let log = b"\x012024-02-01T00:00:00Z\0\nM\0a\0\x012024-01-01T00:00:00Z\0\nA\0a\0";
        let mut f = files(&["a"]);
        assert!(!walk_log(&log[..], &mut f, b"").unwrap());
        assert_eq!(date_of(&f, "a").unwrap(), "2024-02-01T00:00:00+00:00");
    }

    #[test]
    fn names_may_hold_newlines_and_the_mark_byte() {
        let log =
            b"\x012024-02-01T00:00:00Z\0\nM\0\x01odd\nname\0\x012024-01-01T00:00:00Z\0\nA\0x\0";
        let mut f = files(&["\x01odd\nname", "x"]);
        walk_log(&log[..], &mut f, b"").unwrap();
        assert_eq!(
            date_of(&f, "\x01odd\nname").unwrap(),
            "2024-02-01T00:00:00+00:00"
        );
        assert_eq!(date_of(&f, "x").unwrap(), "2024-01-01T00:00:00+00:00");
    }

    #[test]
    fn a_bad_date_is_an_error() {
        let log = b"\x01yesterday\0\nM\0a\0";
        let mut f = files(&["a"]);
        assert!(
            matches!(walk_log(&log[..], &mut f, b""), Err(WalkError::BadDate(d)) if d == "yesterday")
        );
    }

    #[test]
    fn status_records_skip_the_old_name_of_a_rename() {
        let out = b" M a.md\0R  new.md\0old.md\0A  added.md\0MM both.md\0";
        let got = parse_status(out);
        let names: Vec<_> = got
            .iter()
            .map(|(p, s)| (String::from_utf8_lossy(p).into_owned(), *s))
            .collect();
        assert_eq!(
            names,
            vec![
                ("a.md".to_string(), GitFileState::Modified),
                ("new.md".to_string(), GitFileState::Modified),
                ("added.md".to_string(), GitFileState::Untracked),
                ("both.md".to_string(), GitFileState::Modified),
            ]
        );
    }

    #[test]
    fn a_checkout_is_found_from_below_without_git() {
        let d = tempfile::tempdir().unwrap();
        let deep = d.path().join("site/content/blog");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(checkout_around(&deep), None);
        std::fs::write(d.path().join("site/.git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(checkout_around(&deep), Some(d.path().join("site")));
    }

    #[test]
    fn keys_are_joined_with_slashes_and_stay_inside_the_dir() {
        let k = |p: &str| {
            join_key(b"site/content/", Path::new(p)).map(|k| String::from_utf8(k).unwrap())
        };
        assert_eq!(k("blog/a b.md").unwrap(), "site/content/blog/a b.md");
        assert_eq!(k("./blog/../é.md").unwrap(), "site/content/é.md");
        assert_eq!(k("../x.md"), None);
        assert_eq!(join_key(b"", Path::new("a/b")).unwrap(), b"a/b");
    }
}
