//! Version control's view of the content files, read once per run on a thread of its own
//! (`git log` is the slowest step on a large repository, and nothing before the lastmod
//! stage needs it), with what the user should hear about it.

use super::git;
use super::visible::Compare;
use super::{FileHistory, GitReport, History};
use crate::settings::{self, LastmodSource, Settings};
use std::path::{Path, PathBuf};

/// Git's answer for a run, with what the user should hear about it.
#[derive(Default)]
pub struct HistoryRead {
    history: Option<git::GitHistory>,
    /// Inside a checkout git cannot read: no file's mtime can be trusted.
    blind: bool,
    /// Warnings for the user (a shallow clone, an unreadable history).
    pub warnings: Vec<String>,
    /// Details for `--verbose`.
    pub notes: Vec<String>,
    /// How the history dated files, when it was read for dates (pages not counted yet).
    report: Option<GitReport>,
    /// The repository's top folder, for the report's messages.
    repo_root: PathBuf,
}

impl HistoryRead {
    /// The run's [`GitReport`] with its pages counted (`exact` dated by a commit,
    /// `unreached` past the history at hand), and what the user should hear about it added to
    /// the warnings and notes.
    pub fn report(&mut self, exact: usize, unreached: usize) -> Option<GitReport> {
        let mut r = self.report.take()?;
        r.exact = exact;
        r.unreached = unreached;
        let root = self.repo_root.display();
        let pages = |n: usize| {
            if n == 1 {
                "1 page".to_string()
            } else {
                format!("{n} pages")
            }
        };
        let failed = r.fetch.as_ref().and_then(|f| f.failed.as_deref());
        if r.cut && unreached > 0 {
            let held = r
                .depth
                .map(|d| match d {
                    // A depth-1 clone: its one commit has no parent to compare it with.
                    0 => " (a depth-1 clone: only its newest commit, with nothing before it to compare with)".to_string(),
                    d => format!(" (its {d} newest commits)"),
                })
                .unwrap_or_default();
            let fetch = match failed {
                Some(why) => format!("; fetching it failed ({why})"),
                None => String::new(),
            };
            self.warnings.push(format!(
                "{root} is a shallow clone{fetch}: git dated {} exactly; for {} the last change lies past its history{held}, so the next lastmod source dated them. For every page: fetch the full history (`fetch-depth: 0` in actions/checkout, with `filter: blob:none` to keep it quick; `git fetch --unshallow --filter=blob:none`), or let sitemapgen fetch it (git_fetch = \"auto\", `--git-fetch auto`)",
                pages(exact),
                pages(unreached),
            ));
        } else if r.cut {
            self.notes.push(format!(
                "{root} is a shallow clone: git dated {} exactly, the last change of each within its history",
                pages(exact)
            ));
        } else if unreached > 0 {
            let why = r
                .versions_fetched
                .as_ref()
                .and_then(|f| f.failed.as_deref())
                .unwrap_or("they are not in the clone");
            self.warnings.push(format!(
                "{root}: git dated {} exactly; {} have an edit whose versions could not be read ({why}), so the next lastmod source dated them",
                pages(exact),
                pages(unreached),
            ));
        }
        if let Some(f) = r.fetch.as_ref().filter(|f| f.failed.is_none()) {
            let depth = r
                .depth_needed
                .map(|d| {
                    format!("; a clone of depth {d} would have dated every page as this one did")
                })
                .unwrap_or_default();
            self.notes.push(format!(
                "{root} was a shallow clone: its history was fetched from {} in {:.1} s (without file contents){depth}",
                f.remote.as_deref().unwrap_or("its remote"),
                f.seconds
            ));
        }
        if let Some(v) = &r.versions_fetched {
            self.notes.push(format!(
                "git: {} old versions of files fetched from the partial clone's remote in {} requests, {:.1} s",
                v.versions, v.requests, v.seconds
            ));
        }
        Some(r)
    }

    /// Takes the history out (its messages stay), to answer for files whose scanned paths are
    /// relative to `cwd`.
    pub fn lookup(&mut self, cwd: PathBuf) -> HistoryLookup {
        HistoryLookup {
            history: self.history.take(),
            blind: self.blind,
            cwd,
        }
    }
}

/// Version control's view of each file, from git's answer for the run.
pub struct HistoryLookup {
    history: Option<git::GitHistory>,
    /// Inside a checkout git cannot read: no file's mtime can be trusted.
    blind: bool,
    /// Scanned paths are relative to where we run, not to the content dir.
    cwd: PathBuf,
}

impl History for HistoryLookup {
    fn state(&self, p: &Path) -> FileHistory {
        match &self.history {
            Some(h) => h.state(&self.cwd.join(p)),
            // A checkout without git: every mtime may be the checkout time.
            None if self.blind => FileHistory::Unknown,
            // No repository: mtime is a fair last resort.
            None => FileHistory::Untracked,
        }
    }

    fn commit(&self, p: &Path) -> Option<String> {
        self.history.as_ref()?.commit(&self.cwd.join(p))
    }
}

/// A history read running beside the scan (or already done, or not needed); dropping it
/// waits, so no work outlives the run.
pub struct PendingHistory {
    thread: Option<std::thread::JoinHandle<HistoryRead>>,
    done: Option<HistoryRead>,
}

impl PendingHistory {
    /// Waits for the read.
    pub fn wait(mut self) -> HistoryRead {
        match self.thread.take().map(|h| h.join()) {
            Some(Ok(read)) => read,
            Some(Err(_)) => HistoryRead {
                warnings: vec![
                    "git history could not be read (its reader panicked): lastmod falls back to the next source".into(),
                ],
                ..Default::default()
            },
            None => self.done.take().unwrap_or_default(),
        }
    }
}

impl Drop for PendingHistory {
    fn drop(&mut self) {
        if let Some(h) = self.thread.take() {
            let _ = h.join();
        }
    }
}

/// Starts reading git history on its own thread when a source needs it.
pub fn start(settings: &Settings) -> PendingHistory {
    let needed = settings
        .lastmod
        .iter()
        .any(|s| matches!(s, LastmodSource::Git | LastmodSource::Mtime));
    let dir = history_dir(settings);
    // No content folder (a site with no pages yet): no file to date, nothing to ask git.
    if !needed || !dir.exists() {
        return PendingHistory {
            thread: None,
            done: None,
        };
    }
    let opts = git::GitOptions {
        date: match settings.git_date {
            settings::GitDateKind::Committer => git::GitDate::Committer,
            settings::GitDateKind::Author => git::GitDate::Author,
        },
        states_only: !settings.lastmod.contains(&LastmodSource::Git),
        compare: match settings.lastmod_significance {
            settings::Significance::Content => Some(Compare::Reader),
            settings::Significance::AnyCommit => None,
        },
        mass_edit: settings.mass_edit,
        ignore_revs: settings.git_ignore_revs.clone(),
        fetch: settings.git_fetch == settings::GitFetch::Auto,
        fetch_limit: super::shallow::FETCH_LIMIT,
        recall: true,
    };
    let thread_dir = dir.clone();
    let thread_opts = opts.clone();
    let spawned = std::thread::Builder::new()
        .name("git-history".into())
        .spawn(move || git_history(&thread_dir, &thread_opts));
    match spawned {
        Ok(h) => PendingHistory {
            thread: Some(h),
            done: None,
        },
        // No thread to be had: read it here, in turn.
        Err(_) => PendingHistory {
            thread: None,
            done: Some(git_history(&dir, &opts)),
        },
    }
}

/// The one folder whose history covers every content root: the content dir, or, for Hugo
/// sites with a content dir per language, the folder they share within the site. A root
/// outside the site is left out rather than widening the read past the repository: its files
/// then get no git date and no mtime, never a checkout time.
fn history_dir(settings: &Settings) -> PathBuf {
    // A Hugo mount may be one file: its folder holds its history.
    let roots: Vec<PathBuf> = crate::scan::roots(settings)
        .into_iter()
        .map(|r| match (r.dir.is_file(), r.dir.parent()) {
            (true, Some(parent)) => parent.to_path_buf(),
            _ => r.dir,
        })
        .collect();
    if roots.len() < 2 {
        // As given: the scanned paths are spelled the same way, so they match it directly.
        return roots
            .into_iter()
            .next()
            .unwrap_or_else(|| settings.content_dir.clone());
    }
    // Absolute, with `..` folded (a contentDir of `../elsewhere` must not look inside).
    let abs = |p: &Path| {
        let full = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut out = PathBuf::new();
        for c in full.components() {
            match c {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::CurDir => {}
                other => out.push(other),
            }
        }
        out
    };
    let site = abs(&settings.site_dir);
    let mut dir = abs(&roots[0]);
    for r in roots.iter().skip(1) {
        let other = abs(r);
        if !other.starts_with(&site) || !dir.starts_with(&site) {
            continue;
        }
        while !other.starts_with(&dir) {
            match dir.parent() {
                Some(p) => dir = p.to_path_buf(),
                None => break,
            }
        }
    }
    dir
}

/// For `--verbose`: how many files had commits passed over, and why.
fn passed_note(p: &git::Passed, opts: &git::GitOptions) -> Option<String> {
    if p.files == 0 {
        return None;
    }
    let mut why = Vec::new();
    if p.unseen > 0 {
        why.push(format!(
            "changes no reader sees (whitespace, front matter layout, short values such as tags and dates): {}",
            p.unseen
        ));
    }
    if p.mass > 0 {
        let mass = opts.mass_edit.unwrap_or_default();
        why.push(format!(
            "commits changing {mass} pages or more that changed up to three words, or {} or more that changed only the sites its links lead to: {}",
            crate::lastmod::visible::Scale::sweep_from(mass),
            p.mass
        ));
    }
    if p.moved > 0 {
        why.push(format!("moves: {}", p.moved));
    }
    if p.ignored > 0 {
        let file = match &opts.ignore_revs {
            settings::IgnoreRevs::File(f) => f.display().to_string(),
            _ => ".git-blame-ignore-revs".into(),
        };
        why.push(format!("commits listed in {file}: {}", p.ignored));
    }
    Some(format!(
        "git: {} {} dated past commits that did not count ({})",
        p.files,
        if p.files == 1 { "file" } else { "files" },
        why.join("; ")
    ))
}

/// Reads git history for `dir`; a shallow clone, no repository or no git are messages, not
/// errors, and lastmod falls back to the next source.
fn git_history(dir: &Path, opts: &git::GitOptions) -> HistoryRead {
    let mut read = HistoryRead::default();
    match git::read_history(dir, opts) {
        Ok(git::GitProbe::Ready(h)) => {
            read.notes.push(if opts.states_only {
                format!(
                    "git: {} tracked content files in {} (no dates needed: git is not a lastmod source)",
                    h.tracked_files(),
                    h.repo_root().display()
                )
            } else {
                let work = h.work();
                format!(
                    "git: {} of {} tracked content files dated from {} ({} commits read{}, {} file versions compared)",
                    h.committed_files(),
                    h.tracked_files(),
                    h.repo_root().display(),
                    work.commits,
                    if work.recalled {
                        " since the last run, the rest as it kept them in .git/sitemapgen"
                    } else {
                        ""
                    },
                    work.versions
                )
            });
            if !opts.states_only {
                read.notes.extend(passed_note(&h.passed(), opts));
                read.warnings.extend(h.warnings());
                for sub in h.shallow_submodules() {
                    read.warnings.push(format!(
                        "submodule {} is a shallow clone: files whose last change lies past its history get no git date. Fetch its full history: `submodules: true` with `fetch-depth: 0` in actions/checkout, or `git -C {} fetch --unshallow`",
                        sub.display(),
                        sub.display()
                    ));
                }
                let shallow = h.shallow();
                read.report = Some(GitReport {
                    shallow: shallow.is_some(),
                    cut: shallow.is_some_and(|s| s.cut),
                    depth: shallow.and_then(|s| s.reached_after),
                    fetch: shallow.and_then(|s| s.fetched.clone()),
                    depth_needed: h.depth_needed(),
                    versions_fetched: h.fetches().cloned(),
                    ..Default::default()
                });
                read.repo_root = h.repo_root().to_path_buf();
            }
            read.history = Some(*h);
        }
        Ok(git::GitProbe::NoRepository) => read
            .notes
            .push("not in a git repository: lastmod falls back to the next source".into()),
        Ok(git::GitProbe::NoGit) => read
            .notes
            .push("git is not installed: lastmod falls back to the next source".into()),
        Ok(git::GitProbe::NoGitInCheckout { repo_root }) => {
            read.notes.push(format!(
                "git is not installed but {} is a git checkout: no git dates, and no mtimes (they are checkout times); install git for git dates",
                repo_root.display()
            ));
            read.blind = true;
        }
        Ok(git::GitProbe::BrokenCheckout { repo_root, why }) => {
            read.warnings.push(format!(
                "{} is a git checkout git cannot read ({why}): no git dates, and no file mtimes either (in a checkout they are checkout times); lastmod falls back to the dates pages give. Repair or re-clone the checkout",
                repo_root.display()
            ));
            read.blind = true;
        }
        // Inside a checkout, a history that cannot be read leaves mtimes untrusted too.
        Err(e) => match git::checkout_around(
            &std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()),
        ) {
            Some(_) => {
                read.warnings.push(format!(
                    "git history could not be read ({e}): no git dates, and no file mtimes either (in a checkout they are checkout times); lastmod falls back to the dates pages give"
                ));
                read.blind = true;
            }
            None => read.warnings.push(format!(
                "git history could not be read ({e}): lastmod falls back to the next source"
            )),
        },
    }
    read
}
