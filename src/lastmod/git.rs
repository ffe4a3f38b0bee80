//! What git says about a file: the last commit that changed what a reader sees of it, read
//! for a whole content tree in one streamed `git log` pass, plus the working-tree state
//! (modified, untracked) and whether a working-tree change is one a reader would see.
//!
//! Five git processes per run, whatever the size of the tree: `rev-parse` (where is the
//! repository, is it shallow, has it any commit), `ls-files` (the tracked set, so the walk can
//! stop once every file has a date, and the submodules), `status` (uncommitted changes), the
//! one `log`, and one `cat-file --batch` that reads the versions an edit must be judged by;
//! the same again for each submodule below the content dir.
//!
//! The processes other than the log and `ls-files`, and reading what they print, are in
//! `repo.rs`; this file reads the log and decides what it all means for each file.

use super::FileHistory;
use super::blobs::{Blobs, Fetches, Version};
use super::recall::{self, Kept};
pub use super::repo::MAX_IGNORE_REVS;
pub(crate) use super::repo::git;
use super::repo::{
    Change, Located, bytes_to_path, command_error, descends_by_line, failed, ignore_revs, limit_to,
    locate, uncommitted,
};
use super::shallow::{self, Fetched};
use super::visible::{Compare, fingerprint};
use super::walk::{GitPath, Rules, Walk, WalkError, passed};
use crate::vocab::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::io::{self, BufReader, Read};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

/// What git says of one file, and the commit that dated it (index into the commit list).
#[derive(Clone, Copy, Debug)]
struct Entry {
    state: FileHistory,
    commit: u32,
}

/// Every tracked file under the content dir and what git says about it.
type FileStates = HashMap<GitPath, Entry>;

/// Which of a commit's two dates counts as the file's last change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GitDate {
    /// When the commit was made (or last rebased/amended): git's own notion of "last change"
    /// (`git_date = "committer"`).
    Committer,
    /// When the change was first written (`git_date = "author"`, the default).
    #[default]
    Author,
}

/// How to read the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitOptions {
    /// Committer (default) or author date.
    pub date: GitDate,
    /// Only tell committed files from uncommitted ones, without reading the log: all that the
    /// mtime source needs when git dates are not asked for.
    pub states_only: bool,
    /// `Some(Compare::Reader)`: an edit dates a page only when a reader sees it (the
    /// default); `None`: any edit does.
    pub compare: Option<Compare>,
    /// A commit changing at least this many pages dates a page only where it changed its words.
    pub mass_edit: Option<usize>,
    /// Commits that never date a page.
    pub ignore_revs: crate::settings::IgnoreRevs,
    /// In a shallow clone, fetch the rest of the history first (`git_fetch = "auto"`).
    pub fetch: bool,
    /// How long that fetch may take ([`shallow::FETCH_LIMIT`]).
    pub fetch_limit: std::time::Duration,
    /// Keep what the walk found in the repository's git folder, and start from what the last
    /// run kept there: only the commits made since are read.
    pub recall: bool,
}

impl Default for GitOptions {
    fn default() -> Self {
        GitOptions {
            date: GitDate::default(),
            states_only: false,
            compare: Some(Compare::Reader),
            mass_edit: Some(crate::settings::MASS_EDIT),
            ignore_revs: crate::settings::IgnoreRevs::default(),
            fetch: false,
            fetch_limit: shallow::FETCH_LIMIT,
            recall: true,
        }
    }
}

/// The outcome of looking for git history around a content dir.
#[derive(Debug)]
pub enum GitProbe {
    /// History read: ask it about each file (in a shallow clone, see [`GitHistory::shallow`]).
    Ready(Box<GitHistory>),
    /// The content dir is not inside a git work tree.
    NoRepository,
    /// The content dir is inside a checkout (a `.git` above it) that git does not take for a
    /// repository: a `.git` file whose folder is gone, a corrupt `HEAD`. As without git,
    /// committed files cannot be told from edited ones and their mtimes are checkout times.
    BrokenCheckout {
        /// The folder holding `.git`.
        repo_root: PathBuf,
        /// What git said.
        why: String,
    },
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
    /// The hex names of the commits that dated files.
    commits: Vec<Box<[u8]>>,
    /// Parallel to `commits`: each one's place in the log (the newest 1, merges counted).
    places: Vec<u32>,
    /// How a shallow clone was read (`None`: the clone is whole).
    shallow: Option<ShallowRead>,
    /// What fetching a partial clone's missing versions took, when any were.
    fetches: Option<Fetches>,
    /// How many files had commits passed over, by reason.
    passed: Passed,
    /// What reading the history cost.
    work: Work,
    /// What the user should hear (lines of the ignore-revs file that are no commit name).
    warnings: Vec<String>,
}

/// How many files had commits passed over, by reason (a file may count under several).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Passed {
    /// Files with a commit passed over, for any reason.
    pub files: usize,
    /// ... that only moved them.
    pub moved: usize,
    /// ... that changed nothing a reader sees.
    pub unseen: usize,
    /// ... listed in the ignore-revs file.
    pub ignored: usize,
    /// ... that were mass edits changing a few words, or sweeps changing only the sites its
    /// links lead to.
    pub mass: usize,
}

impl Passed {
    fn count(bits: &[u8]) -> Passed {
        let mut p = Passed::default();
        for &b in bits.iter().filter(|b| **b != 0) {
            p.files += 1;
            p.moved += usize::from(b & passed::MOVED != 0);
            p.unseen += usize::from(b & passed::UNSEEN != 0);
            p.ignored += usize::from(b & passed::IGNORED != 0);
            p.mass += usize::from(b & passed::MASS != 0);
        }
        p
    }

    fn add(&mut self, o: Passed) {
        self.files += o.files;
        self.moved += o.moved;
        self.unseen += o.unseen;
        self.ignored += o.ignored;
        self.mass += o.mass;
    }
}

/// How a shallow clone was read.
#[derive(Clone, Debug, PartialEq)]
pub struct ShallowRead {
    /// The fetch of its history, when `git_fetch` allowed one.
    pub fetched: Option<Fetched>,
    /// `HEAD`'s history still ends at a boundary commit: files whose last change lies past
    /// it are [`FileHistory::Unreached`].
    pub cut: bool,
    /// How many commits the walk read before it reached the boundary (`None`: every file was
    /// dated before it).
    pub reached_after: Option<usize>,
}

/// What reading the history cost (submodules' included), for `--verbose` and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Commits read from the log.
    pub commits: usize,
    /// File versions read from the object store to judge edits.
    pub versions: usize,
    /// Times a file waited for a version to be read (at most one a version its edits need).
    pub waits: usize,
    /// The walk read only the commits since the last run's and recalled the rest.
    pub recalled: bool,
}

impl Work {
    fn add(&mut self, o: Work) {
        self.commits += o.commits;
        self.versions += o.versions;
        self.waits += o.waits;
        self.recalled |= o.recalled;
    }
}

/// A submodule below the content dir, with its own history.
#[derive(Debug)]
struct Submodule {
    /// Its folder relative to the outer repository's top folder, with a trailing `/`.
    prefix: Vec<u8>,
    /// Its history; `None` when it is not checked out or cannot be read, so that its files
    /// get no git date and no mtime (a checkout's mtimes are checkout times).
    history: Option<GitHistory>,
    /// A shallow clone whose history stays cut short: some of its files may be undated.
    shallow: bool,
}

impl GitHistory {
    /// What git says about `path` (absolute, or relative to the dir given to [`read_history`]).
    pub fn state(&self, path: &Path) -> FileHistory {
        let key = self.key(path);
        if let Some((sub, rest)) = key.as_deref().and_then(|k| self.submodule_of(k)) {
            return match &sub.history {
                Some(h) => h.state(&bytes_to_path(rest)),
                None => FileHistory::Unknown,
            };
        }
        match key {
            Some(key) => match self.files.get(key.as_slice()) {
                Some(e) => e.state,
                // Under the content dir but not in the index: untracked or ignored.
                None => FileHistory::Uncommitted,
            },
            None => FileHistory::Unknown,
        }
    }

    /// The commit that dated `path` (its name's first [`SHORT_HASH`] hex digits), when git did.
    pub fn commit(&self, path: &Path) -> Option<String> {
        let key = self.key(path)?;
        if let Some((sub, rest)) = self.submodule_of(&key) {
            return sub.history.as_ref()?.commit(&bytes_to_path(rest));
        }
        let e = self.files.get(key.as_slice())?;
        if !matches!(e.state, FileHistory::Committed(_)) {
            return None;
        }
        let name = self.commits.get(e.commit as usize)?;
        Some(String::from_utf8_lossy(&name[..name.len().min(SHORT_HASH)]).into_owned())
    }

    /// How many files had commits passed over, and why (submodules' included).
    pub fn passed(&self) -> Passed {
        let mut p = self.passed;
        for h in self.sub_histories() {
            p.add(h.passed());
        }
        p
    }

    /// How a shallow clone was read; `None` for a whole one.
    pub fn shallow(&self) -> Option<&ShallowRead> {
        self.shallow.as_ref()
    }

    /// What fetching the versions a partial clone lacked took, when any were fetched.
    pub fn fetches(&self) -> Option<&Fetches> {
        self.fetches.as_ref()
    }

    /// How many files under the content dir git could not date because the history at hand
    /// ends before their last change ([`FileHistory::Unreached`]), submodules' included.
    pub fn unreached_files(&self) -> usize {
        let own = self
            .files
            .values()
            .filter(|e| e.state == FileHistory::Unreached)
            .count();
        own + self
            .sub_histories()
            .map(GitHistory::unreached_files)
            .sum::<usize>()
    }

    /// The depth of the shallowest clone that dates every page as this history did (the
    /// place in the log of the oldest commit that dated one, plus the boundary below it);
    /// `None` when the history is cut short or dated no page.
    pub fn depth_needed(&self) -> Option<u32> {
        if self.shallow.as_ref().is_some_and(|s| s.cut) {
            return None;
        }
        self.files
            .iter()
            .filter(|(path, e)| matches!(e.state, FileHistory::Committed(_)) && is_page_path(path))
            .filter_map(|(_, e)| self.places.get(e.commit as usize))
            .max()
            .map(|p| p + 1)
    }

    /// What reading the history cost (submodules' included).
    pub fn work(&self) -> Work {
        let mut w = self.work;
        for h in self.sub_histories() {
            w.add(h.work());
        }
        w
    }

    /// What the user should hear about reading the history.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = self.warnings.clone();
        for h in self.sub_histories() {
            w.extend(h.warnings());
        }
        w
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
            .filter(|e| matches!(e.state, FileHistory::Committed(_)))
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
        Located::NoRepository(why) => {
            return Ok(match checkout_around(&dir_abs) {
                Some(repo_root) => GitProbe::BrokenCheckout { repo_root, why },
                None => GitProbe::NoRepository,
            });
        }
        Located::NoGit => {
            return Ok(match checkout_around(&dir_abs) {
                Some(repo_root) => GitProbe::NoGitInCheckout { repo_root },
                None => GitProbe::NoGit,
            });
        }
    };
    let root = found.root.as_path();
    let prefix = found.prefix;

    let (files, gitlinks) = tracked(root, &prefix)?;
    let dates = found.has_commits && !opts.states_only && !files.is_empty();
    // A shallow clone: its history fetched when allowed, then where it ends found.
    let mut shallow = None;
    let mut boundary = None;
    if found.shallow && dates {
        let fetched = opts
            .fetch
            .then(|| shallow::fetch_history(root, &found.head, opts.fetch_limit));
        boundary = shallow::boundary(root, &dir_abs.join(bytes_to_path(&found.shallow_file)))
            .map_err(|e| Error::io(root, e))?;
        shallow = Some(ShallowRead {
            fetched,
            cut: boundary.is_some(),
            reached_after: None,
        });
    }
    let (ignored, warnings) = if dates {
        ignore_revs(root, &opts.ignore_revs)
    } else {
        Default::default()
    };
    let comparing = opts.compare.filter(|_| dates);
    // A shallow clone's walk ends at its boundary, which moves with every fetch: not kept
    // while `HEAD`'s history is cut short (once fetched whole, it is kept as any other).
    let keeping = dates && opts.recall && boundary.is_none();
    let key = recall_key(&prefix, opts, &ignored);
    let recalled = keeping
        .then(|| recall::load(&found.git_dir, &key))
        .flatten()
        .filter(|r| descends_by_line(root, &r.head, &found.head));
    // Started first so that git is already walking while the status is taken.
    // The whole repository's log, not one limited to the content dir: a pathspec hides where
    // a file moved in from (git then shows an add), and a move must not date a page.
    let range = recalled
        .as_ref()
        .map(|r| format!("{}..{}", r.head, found.head));
    let log = dates
        .then(|| spawn_log(root, opts, range.as_deref()))
        .transpose()?;
    let status = uncommitted(root, &prefix)?;
    let changes = changes_by_path(&status);
    let starts_of = |files: &TrackedFiles| -> Vec<Option<GitPath>> {
        files
            .iter()
            .map(|(p, _)| start_name(p, &changes).map(Box::from))
            .collect()
    };
    let starts = starts_of(&files);
    let rules = |recall| Rules {
        compare: comparing,
        ignored: &ignored,
        comparable: is_page_path,
        boundary,
        mass_edit: opts.mass_edit,
        recall,
    };
    let start_blobs = || -> Result<Option<Blobs>> {
        match comparing {
            Some(how) => Ok(Some(Blobs::start(root, how)?)),
            None => Ok(None),
        }
    };
    let mut blobs = start_blobs()?;
    let mut walk = Walk::new(files, starts, rules(recalled.as_ref()));
    if let Some(log) = log {
        log.walk(&mut walk, blobs.as_mut())?;
    }
    let missed = walk.missed;
    if missed {
        // A file the last run did not date by its name here: read the whole history after all.
        let files = std::mem::take(&mut walk.files)
            .into_iter()
            .map(|(p, _)| (p, FileHistory::Unknown))
            .collect::<TrackedFiles>();
        let starts = starts_of(&files);
        blobs = start_blobs()?;
        walk = Walk::new(files, starts, rules(None));
        spawn_log(root, opts, None)?.walk(&mut walk, blobs.as_mut())?;
    }
    let recalled = recalled.is_some() && !missed;
    // Nothing new to keep when the walk read no commit since the kept one.
    if keeping && !(recalled && walk.read == 0) {
        // Best effort: a git folder we may not write to only costs the next run time.
        let _ = keep(&found.git_dir, &found.head, &key, &walk, &changes);
    }
    if let Some(s) = shallow.as_mut() {
        s.reached_after = walk.cut.then(|| walk.read.saturating_sub(1));
    }
    let passed = Passed::count(&walk.passed);
    let mut work = Work {
        commits: walk.read,
        versions: 0,
        waits: walk.waits,
        recalled,
    };
    let commits = std::mem::take(&mut walk.commits);
    let places = std::mem::take(&mut walk.places);
    let mut files: FileStates = walk
        .files
        .into_iter()
        .zip(walk.dated_by)
        .zip(walk.unreached)
        .map(|(((path, state), commit), unreached)| {
            let state = if unreached {
                FileHistory::Unreached
            } else {
                state
            };
            (path, Entry { state, commit })
        })
        .collect();
    let look = Lookaside {
        root,
        dates,
        how: opts.compare.unwrap_or(Compare::Bytes),
    };
    look.apply(&mut files, status, &mut blobs)?;
    work.versions = blobs.as_ref().map_or(0, Blobs::read);
    let fetches = blobs.as_ref().and_then(Blobs::fetches).cloned();
    let submodules = gitlinks
        .iter()
        .map(|link| read_submodule(root, link, opts))
        .collect();
    Ok(GitProbe::Ready(Box::new(GitHistory {
        dir: dir_abs,
        dir_real,
        repo_root: found.root.clone(),
        prefix,
        files,
        submodules,
        commits,
        places,
        shallow,
        fetches,
        passed,
        work,
        warnings,
    })))
}

/// The nearest folder at or above `dir` holding a `.git` (a folder, or a file in worktrees and
/// submodules; a dangling symlink counts too), for when git itself cannot be asked or does not
/// take it for a repository.
pub fn checkout_around(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|a| std::fs::symlink_metadata(a.join(".git")).is_ok())
        .map(Path::to_path_buf)
}

/// The index under the content dir (every tracked file, not yet dated) and the submodules
/// (gitlinks) under the content dir.
fn tracked(root: &Path, prefix: &[u8]) -> Result<(TrackedFiles, Vec<GitPath>)> {
    let mut cmd = git(root);
    cmd.args(["ls-files", "-z", "--full-name", "--stage"]);
    limit_to(&mut cmd, prefix);
    let out = cmd.output().map_err(|e| Error::io(root, e))?;
    if !out.status.success() {
        return Err(failed(root, "ls-files --stage", &out));
    }
    let mut files = Vec::new();
    let mut gitlinks = Vec::new();
    // `<mode> <object> <stage>\t<path>`. Unmerged paths appear once per stage: only the first
    // is kept.
    for rec in out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let Some(tab) = rec.iter().position(|b| *b == b'\t') else {
            continue;
        };
        let (mode, path) = (&rec[..tab], &rec[tab + 1..]);
        if !path.starts_with(prefix) {
            continue;
        } else if mode.starts_with(b"160000") {
            gitlinks.push(Box::from(path));
        } else {
            files.push((Box::from(path), FileHistory::Unknown));
        }
    }
    files.dedup_by(|a, b| a.0 == b.0);
    Ok((files, gitlinks))
}

/// The tracked files, in the index's order, not yet dated.
type TrackedFiles = Vec<(GitPath, FileHistory)>;

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
        Some(GitProbe::Ready(h)) => {
            let cut = h.shallow().is_some_and(|s| s.cut);
            (Some(*h), cut)
        }
        _ => (None, false),
    };
    Submodule {
        prefix,
        history,
        shallow,
    }
}

/// The uncommitted changes by path.
type Changes<'a> = HashMap<&'a [u8], &'a Change>;

fn changes_by_path(status: &[(GitPath, Change)]) -> Changes<'_> {
    status.iter().map(|(p, c)| (&p[..], c)).collect()
}

/// The name a tracked file has in `HEAD`, where the walk starts looking for it: its own, the
/// one it had before a staged move, or none for a file new in the index.
fn start_name<'a>(path: &'a [u8], changes: &Changes<'a>) -> Option<&'a [u8]> {
    match changes.get(path) {
        Some(Change::New) => None,
        Some(Change::Moved { from, .. }) => Some(from),
        _ => Some(path),
    }
}

/// The page extensions of every style: their edits are judged by what a reader sees.
pub fn is_page_path(path: &[u8]) -> bool {
    let ext = path
        .rsplit(|b| *b == b'.')
        .next()
        .filter(|e| e.len() < path.len());
    ext.is_some_and(|e| {
        crate::scan::PAGE_EXTENSIONS
            .iter()
            .any(|p| e.eq_ignore_ascii_case(p.as_bytes()))
    })
}

/// Judges each uncommitted change as the walk judges a commit: a file whose working-tree
/// version reads the same as its `HEAD` version (a reformat, a pure move) keeps its date.
struct Lookaside<'a> {
    root: &'a Path,
    /// Whether the log was read (else there is no committed date to keep).
    dates: bool,
    how: Compare,
}

impl Lookaside<'_> {
    fn apply(
        &self,
        files: &mut FileStates,
        status: Vec<(GitPath, Change)>,
        blobs: &mut Option<Blobs>,
    ) -> Result<()> {
        let mut judged = Vec::new();
        for (path, change) in status {
            let Some(entry) = files.get_mut(&path) else {
                continue;
            };
            let head = match change {
                Change::New => {
                    entry.state = FileHistory::Uncommitted;
                    continue;
                }
                Change::Other => None,
                Change::Edited { head } => Some(head).filter(|_| self.how == Compare::Reader),
                Change::Moved { head, .. } => Some(head),
            };
            let kept = matches!(entry.state, FileHistory::Committed(_)) && self.dates;
            match head.filter(|_| kept && is_page_path(&path)) {
                Some(head) => judged.push((path, head)),
                None => entry.state = FileHistory::Uncommitted,
            }
        }
        if judged.is_empty() {
            return Ok(());
        }
        let blobs = match blobs {
            Some(b) => b,
            None => blobs.insert(Blobs::start(self.root, self.how)?),
        };
        for (_, head) in &judged {
            blobs.get(head)?;
        }
        while blobs.pending() > 0 {
            blobs.wait()?;
        }
        for (path, head) in judged {
            let now = std::fs::read(self.root.join(bytes_to_path(&path)))
                .ok()
                .map(|b| fingerprint(&b, self.how));
            let same = matches!((blobs.get(&head)?, now), (Version::Read(a), Some(b)) if a == b);
            if let (false, Some(e)) = (same, files.get_mut(&path)) {
                e.state = FileHistory::Uncommitted;
            }
        }
        Ok(())
    }
}

/// What the walk's outcomes depend on besides the history, as [`recall`] keys them.
fn recall_key(prefix: &[u8], opts: &GitOptions, ignored: &HashSet<Box<[u8]>>) -> recall::Key {
    let date = match opts.date {
        GitDate::Committer => "committer",
        GitDate::Author => "author",
    };
    // The rule's version is in the name: a walk kept under an older rule is not reused.
    let compare = match (opts.compare, opts.mass_edit) {
        (Some(Compare::Reader), Some(m)) => format!("visible3,mass={m}"),
        (Some(Compare::Reader), None) => "visible3".into(),
        (Some(Compare::Bytes), _) => "bytes".into(),
        (None, _) => "any".into(),
    };
    let ignored: Vec<&[u8]> = ignored.iter().map(|r| &r[..]).collect();
    recall::Key::new(prefix, date, &compare, &ignored)
}

/// Keeps every file's outcome as the walk from `HEAD` found it, under the name it has in
/// `HEAD` ([`start_name`]). A file the history at hand could not date
/// for sure (a version a partial clone lacks) is left out, so the next run reads its history.
fn keep(
    git_dir: &Path,
    head: &str,
    key: &recall::Key,
    walk: &Walk<'_>,
    changes: &Changes<'_>,
) -> io::Result<()> {
    let kept = walk.files.iter().enumerate().filter_map(|(k, (path, _))| {
        let name = start_name(path, changes)?;
        if walk.unreached[k] {
            return None;
        }
        let stamp = match walk.files[k].1 {
            FileHistory::Committed(date) => Some(super::walk::Stamp {
                date,
                commit: walk.dated_by[k],
            }),
            _ => None,
        };
        Some(Kept {
            name,
            stamp,
            passed: walk.passed[k],
        })
    });
    recall::save(git_dir, key, head, &walk.commits, &walk.places, kept)
}

/// How many hex digits of a commit's name `list` shows.
pub const SHORT_HASH: usize = 10;

/// The one running `git log` and what is needed to report its failure.
struct LogRun {
    child: Child,
    stdout: ChildStdout,
    stderr: std::thread::JoinHandle<Vec<u8>>,
    root: PathBuf,
}

/// The one `git log` the walk reads (`-z --raw`, full object names, renames found), with
/// the settings a user's config could change under us pinned.
pub(super) fn log_command(root: &Path, opts: &GitOptions) -> Command {
    // The committer time in seconds too: a shallow clone's boundary is found by it.
    let format = match opts.date {
        GitDate::Committer => "--format=%x01%H %ct %cI",
        GitDate::Author => "--format=%x01%H %ct %aI",
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
        // A root commit's files as added (a boundary commit of a shallow clone is one).
        "-c",
        "log.showRoot=true",
        // Merges are listed, with no changes (no `-m`): they count in a commit's place.
        "log",
        "-z",
        "--raw",
        "--no-abbrev",
        "-M",
        "--no-color",
        format,
    ]);
    cmd
}

/// Starts the log: the whole history, or only `range` (`C..HEAD`).
fn spawn_log(root: &Path, opts: &GitOptions, range: Option<&str>) -> Result<LogRun> {
    let mut cmd = log_command(root, opts);
    cmd.args(range);
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

    /// Streams the log through `walk`; stops git as soon as no file needs an older commit.
    fn walk(mut self, walk: &mut Walk<'_>, blobs: Option<&mut Blobs>) -> Result<()> {
        let walked = walk.run(BufReader::with_capacity(1 << 18, &mut self.stdout), blobs);
        let complete = match walked {
            Ok(complete) => complete,
            Err(e) => {
                let err = in_command(e, &self.root);
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

fn in_command(e: WalkError, root: &Path) -> Error {
    match e {
        WalkError::Io(e) => Error::io(root, e),
        WalkError::BadDate(d) => command_error(root, "log", &format!("unreadable date '{d}'")),
        WalkError::Blobs(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_by_extension() {
        assert!(is_page_path(b"content/a.md"));
        assert!(is_page_path(b"content/b/index.HTML"));
        assert!(!is_page_path(b"content/b/cover.png"));
        assert!(!is_page_path(b"md"));
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
