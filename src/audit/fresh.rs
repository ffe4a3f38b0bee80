//! The audit judges only a fresh build: a page may be left out for what the built output
//! shows (no file, a `noindex`, a canonical elsewhere, a redirect) only when that output is
//! known to be at least as new as the page's source. Otherwise the page stays listed, and one
//! warning says the output looks stale, for how many pages, and what to do.
//!
//! How "at least as new" is told, and why:
//! - **The build's time is its home page's**: every build of Hugo or Zola writes the
//!   `index.html` at the output's root (the file whose presence makes the audit run), so its
//!   modification time is when the output was last built. A page with no built file is
//!   judged against it; a built page's head against that page's own file.
//! - **A source's time is its modification time.** In a fresh clone every file has the
//!   checkout's time and CI builds after checking out, so the output is newer there; on a
//!   working copy a page edited (or pulled) after the last build is newer than it.
//! - **Except in a committed output.** When the output's home page is committed to git and
//!   unchanged (a site served from its repository), its modification time is only when it was
//!   checked out, which says nothing; there the commits decide: a source committed after the
//!   home page's last commit is newer than the output, one changed since its commit is
//!   compared by modification time with that commit's time. So the working copy and every
//!   fresh clone judge alike.
//! - **The site's config** counts as a source of every page: changed after the build (new
//!   permalinks, say), no page is judged.
//! - **Many missing at once**: when more than a quarter of the URLs audited (and at least two)
//!   have no built file, the output is taken for a partial or stale build whatever the times
//!   say (a `public/` left from another branch, a build that stopped half-way).
//!
//! Pages with no source of their own (terms, pagers) are judged unless another page shows the
//! output to be stale.

use super::{AuditPlan, LeftOut};
use crate::route::Reason;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Why verdicts were not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stale {
    /// Sources changed after the output was built: the sources (the site config included),
    /// and how many pages the audit would have left out on the word of older output.
    Older {
        /// The sources newer than the output, sorted.
        changed: Vec<PathBuf>,
        /// Pages kept listed.
        pages: usize,
    },
    /// Most URLs have no built file: a partial or stale build.
    Partial {
        /// URLs with no built file.
        missing: usize,
        /// URLs audited.
        of: usize,
    },
}

/// The audit's verdicts, sorted by whether the output supports them.
#[derive(Clone, Debug, Default)]
pub struct Freshness {
    /// The verdicts to apply.
    pub judged: Vec<LeftOut>,
    /// The verdicts not applied: their pages stay listed.
    pub kept: Vec<LeftOut>,
    /// Why any were kept.
    pub stale: Option<Stale>,
}

/// Splits `found` into the verdicts a fresh output supports and those it cannot.
/// `source(entry)` is the content file behind an entry (`None` for a generated page);
/// `config` the site's own config file.
pub fn judge(
    plan: &AuditPlan,
    found: Vec<LeftOut>,
    source: &dyn Fn(usize) -> Option<PathBuf>,
    config: Option<&Path>,
) -> Freshness {
    if found.is_empty() {
        return Freshness::default();
    }
    let audited: usize = plan.roots.iter().map(|r| r.entries.len()).sum();
    let mut output = Output::read(plan, config);
    let sources: Vec<Option<PathBuf>> = found.iter().map(|l| source(l.entry)).collect();
    let items: Vec<Item<'_>> = found
        .iter()
        .zip(&sources)
        .map(|(l, src)| Item {
            root: root_of(plan, l.entry),
            source: src.as_deref(),
            // A head is as old as its own file; a missing page, as the build.
            file: l.file.as_deref().filter(|_| l.reason != Reason::NotBuilt),
        })
        .collect();
    let is_stale = output.stale(&items);
    let roots: Vec<usize> = items.iter().map(|i| i.root).collect();
    // Any page (or the config) newer than the output shows it stale: the generated pages,
    // which have no source of their own to tell, are kept too.
    let older = output.stale_roots.iter().any(|&s| s) || is_stale.iter().any(|&s| s);
    let missing = found
        .iter()
        .filter(|l| l.reason == Reason::NotBuilt)
        .count();
    let partial = looks_partial(missing, audited);

    let mut out = Freshness::default();
    for (k, l) in found.into_iter().enumerate() {
        let r = roots[k];
        let keep = is_stale[k]
            || output.stale_roots[r]
            || (sources[k].is_none() && older)
            || (partial && l.reason == Reason::NotBuilt);
        if keep {
            out.kept.push(l);
        } else {
            out.judged.push(l);
        }
    }
    if out.kept.is_empty() {
        return out;
    }
    let mut changed = output.changed;
    changed.sort();
    changed.dedup();
    out.stale = Some(if older {
        Stale::Older {
            changed,
            pages: out.kept.len(),
        }
    } else {
        Stale::Partial {
            missing,
            of: audited,
        }
    });
    out
}

/// Whether an output with `missing` of `audited` URLs unbuilt is a partial or stale build
/// whatever the times say: more than a quarter of them, and at least two.
pub fn looks_partial(missing: usize, audited: usize) -> bool {
    missing >= 2 && missing * 4 > audited
}

/// Which built pages show what their sources say now, by the rules verdicts are judged by:
/// `pages` are entries with their built files, each trusted when its file is at least as new
/// as its content file (`source(entry)`) and the site's `config` did not change since its
/// root was built. A generated page (a term, a pager, a section without a file), which has
/// no source of its own to tell, is trusted unless another of `pages` shows the output stale.
pub fn trusted(
    plan: &AuditPlan,
    pages: &[(usize, PathBuf)],
    source: &dyn Fn(usize) -> Option<PathBuf>,
    config: Option<&Path>,
) -> Vec<bool> {
    if pages.is_empty() {
        return Vec::new();
    }
    let mut output = Output::read(plan, config);
    let sources: Vec<Option<PathBuf>> = pages.iter().map(|(k, _)| source(*k)).collect();
    let items: Vec<Item<'_>> = pages
        .iter()
        .zip(&sources)
        .map(|((k, file), src)| Item {
            root: root_of(plan, *k),
            source: src.as_deref(),
            file: Some(file),
        })
        .collect();
    let stale = output.stale(&items);
    let older = stale.iter().any(|&s| s) || output.stale_roots.iter().any(|&s| s);
    items
        .iter()
        .zip(stale)
        .map(|(item, stale)| {
            !stale && !output.stale_roots[item.root] && (item.source.is_some() || !older)
        })
        .collect()
}

/// The root of `plan` whose entries hold `entry`.
fn root_of(plan: &AuditPlan, entry: usize) -> usize {
    plan.roots
        .iter()
        .position(|r| r.entries.contains(&entry))
        .unwrap_or(0)
}

/// One page whose freshness is asked: its root, its content file, and the built file it
/// is judged against (`None`: against the build's time).
struct Item<'a> {
    root: usize,
    source: Option<&'a Path>,
    file: Option<&'a Path>,
}

/// What a page's freshness is told against: the checkout, which roots' home pages are
/// committed, when each root was built, and whether the config changed since.
struct Output {
    checkout: Option<Checkout>,
    committed: Vec<bool>,
    /// When each root's output was built (`None`: it cannot be told, so nothing is judged).
    built: Vec<Option<SystemTime>>,
    /// Roots built before the config last changed.
    stale_roots: Vec<bool>,
    /// The sources (the config included) found newer than the output.
    changed: Vec<PathBuf>,
}

impl Output {
    fn read(plan: &AuditPlan, config: Option<&Path>) -> Output {
        let checkout = plan.roots.first().and_then(|r| Checkout::find(&r.dir));
        let homes: Vec<PathBuf> = plan
            .roots
            .iter()
            .map(|r| r.dir.join("index.html"))
            .collect();
        let committed: Vec<bool> = match &checkout {
            Some(c) => c.clean(&homes),
            None => vec![false; homes.len()],
        };
        let built: Vec<Option<SystemTime>> = homes
            .iter()
            .zip(&committed)
            .map(|(home, &c)| match (&checkout, c) {
                (Some(git), true) => git.last_commit(std::slice::from_ref(home)),
                _ => mtime(home),
            })
            .collect();
        let mut stale_roots = vec![false; plan.roots.len()];
        let mut changed = Vec::new();
        if let Some(config) = config {
            for (r, time) in built.iter().enumerate() {
                let newer = match (&checkout, committed[r]) {
                    (Some(git), true) if git.clean(&[config.to_path_buf()]) == [true] => {
                        newer_than(git.last_commit(&[config.to_path_buf()]), *time)
                    }
                    _ => newer_than(mtime(config), *time),
                };
                if newer {
                    stale_roots[r] = true;
                    if !changed.iter().any(|c: &PathBuf| c == config) {
                        changed.push(config.to_path_buf());
                    }
                }
            }
        }
        Output {
            checkout,
            committed,
            built,
            stale_roots,
            changed,
        }
    }

    /// Which `items` have a source newer than the output they were built into; those
    /// sources join [`Output::changed`]. Sources committed and unchanged in a committed
    /// output are judged by their commits, all at once (the newest of them against the home
    /// page's commit).
    fn stale(&mut self, items: &[Item<'_>]) -> Vec<bool> {
        let mut is_stale = vec![false; items.len()];
        let clean_sources: Vec<bool> = match &self.checkout {
            Some(git) if self.committed.iter().any(|&c| c) => {
                let paths: Vec<PathBuf> = items
                    .iter()
                    .filter_map(|i| i.source.map(Path::to_path_buf))
                    .collect();
                let mut clean = git.clean(&paths).into_iter();
                items
                    .iter()
                    .map(|i| i.source.is_some() && clean.next().unwrap_or(false))
                    .collect()
            }
            _ => vec![false; items.len()],
        };
        let mut by_commit: HashMap<usize, Vec<(usize, PathBuf)>> = HashMap::new();
        for (k, item) in items.iter().enumerate() {
            let r = item.root;
            let Some(src) = item.source else {
                continue;
            };
            if self.committed[r] && clean_sources[k] {
                by_commit.entry(r).or_default().push((k, src.to_path_buf()));
                continue;
            }
            // In a committed output, a page is as old as its home page's commit.
            let reference = match (item.file, self.committed[r]) {
                (Some(file), false) => mtime(file),
                _ => self.built[r],
            };
            if newer_than(mtime(src), reference) {
                is_stale[k] = true;
                self.changed.push(src.to_path_buf());
            }
        }
        if let Some(git) = &self.checkout {
            for (r, list) in &by_commit {
                let paths: Vec<PathBuf> = list.iter().map(|(_, p)| p.clone()).collect();
                if newer_than(git.last_commit(&paths), self.built[*r]) {
                    for (k, p) in list {
                        is_stale[*k] = true;
                        self.changed.push(p.clone());
                    }
                }
            }
        }
        is_stale
    }
}

/// True when `a` is later than `b`; a time that cannot be read counts as later (nothing is
/// judged on an output whose age is unknown).
fn newer_than(a: Option<SystemTime>, b: Option<SystemTime>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a > b,
        (None, Some(_)) => false,
        (_, None) => true,
    }
}

/// A file's modification time.
fn mtime(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The git work tree a folder lies in, asked through the `git` program.
#[derive(Clone, Debug)]
pub struct Checkout {
    /// Its top folder, as git names it.
    top: PathBuf,
}

impl Checkout {
    /// The work tree `dir` lies in; `None` outside one (or without git). Costs a `git`
    /// process only when a `.git` lies above `dir`.
    pub fn find(dir: &Path) -> Option<Checkout> {
        let abs = std::path::absolute(dir).ok()?;
        if !abs.ancestors().any(|a| a.join(".git").exists()) {
            return None;
        }
        let out = crate::lastmod::git::git(dir)
            .args(["rev-parse", "--show-toplevel"])
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let top = String::from_utf8(out.stdout).ok()?;
        let top = PathBuf::from(top.trim_end_matches(['\n', '\r']));
        Some(Checkout {
            top: top.canonicalize().unwrap_or(top),
        })
    }

    /// Each path's name below the top folder (`None`: not in this work tree, or missing).
    fn names(&self, paths: &[PathBuf]) -> Vec<Option<String>> {
        paths
            .iter()
            .map(|p| {
                let real = p.canonicalize().ok()?;
                let rel = real.strip_prefix(&self.top).ok()?;
                let parts: Option<Vec<&str>> =
                    rel.components().map(|c| c.as_os_str().to_str()).collect();
                parts.map(|p| p.join("/"))
            })
            .collect()
    }

    /// Runs git in the top folder with `args` and the names as paths; its stdout, split at NULs.
    fn ask(&self, args: &[&str], names: &[&String]) -> Option<Vec<String>> {
        if names.is_empty() {
            return Some(Vec::new());
        }
        let out = crate::lastmod::git::git(&self.top)
            .args(args)
            .arg("--")
            .args(names)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        Some(
            text.split('\0')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        )
    }

    /// Whether each path is tracked (in the index).
    pub fn tracked(&self, paths: &[PathBuf]) -> Vec<bool> {
        let names = self.names(paths);
        let asked: Vec<&String> = names.iter().flatten().collect();
        let listed = self
            .ask(&["ls-files", "-z", "--full-name"], &asked)
            .unwrap_or_default();
        names
            .iter()
            .map(|n| n.as_ref().is_some_and(|n| listed.contains(n)))
            .collect()
    }

    /// Whether each path is tracked and unchanged since its last commit (staged or not).
    pub fn clean(&self, paths: &[PathBuf]) -> Vec<bool> {
        let names = self.names(paths);
        let asked: Vec<&String> = names.iter().flatten().collect();
        let tracked = self.tracked(paths);
        // `XY name`; a rename or copy adds its old name as one more field.
        let changed: Vec<String> = self
            .ask(
                &["status", "--porcelain=v1", "-z", "--untracked-files=no"],
                &asked,
            )
            .unwrap_or_default()
            .into_iter()
            .filter_map(|e| e.get(3..).map(str::to_string))
            .collect();
        names
            .iter()
            .zip(tracked)
            .map(|(n, t)| t && n.as_ref().is_some_and(|n| !changed.contains(n)))
            .collect()
    }

    /// The time of the newest commit that touched any of `paths`.
    pub fn last_commit(&self, paths: &[PathBuf]) -> Option<SystemTime> {
        let names = self.names(paths);
        let asked: Vec<&String> = names.iter().flatten().collect();
        if asked.is_empty() {
            return None;
        }
        let out = self.ask(&["log", "-1", "--format=%ct%x00"], &asked)?;
        let secs: u64 = out.first()?.trim().parse().ok()?;
        Some(UNIX_EPOCH + Duration::from_secs(secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Root;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn touch(path: &Path, secs: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if !path.exists() {
            std::fs::write(path, "x").unwrap();
        }
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(at(secs))
            .unwrap();
    }

    fn left(entry: usize, reason: Reason, file: Option<PathBuf>) -> LeftOut {
        LeftOut {
            entry,
            reason,
            target: None,
            file,
        }
    }

    /// An output folder (not in git) built at t=100, with `n` URLs audited.
    fn plan(dir: &Path, n: usize) -> AuditPlan {
        touch(&dir.join("public/index.html"), 100);
        AuditPlan {
            roots: vec![Root {
                dir: dir.join("public"),
                base: url::Url::parse("https://e.org/").unwrap(),
                entries: 0..n,
            }],
            unsourced: false,
            served: crate::platform::Forms::of(crate::platform::Platform::Plain),
            pages: false,
        }
    }

    #[test]
    fn a_page_older_than_the_build_is_judged_a_newer_one_is_kept() {
        let d = tempfile::tempdir().unwrap();
        let p = plan(d.path(), 100);
        let (old, new) = (
            d.path().join("content/old.md"),
            d.path().join("content/new.md"),
        );
        touch(&old, 50);
        touch(&new, 150);
        let sources = [old.clone(), new.clone()];
        let f = judge(
            &p,
            vec![
                left(0, Reason::NotBuilt, None),
                left(1, Reason::NotBuilt, None),
            ],
            &|k| sources.get(k).cloned(),
            None,
        );
        assert_eq!(f.judged.iter().map(|l| l.entry).collect::<Vec<_>>(), [0]);
        assert_eq!(f.kept.iter().map(|l| l.entry).collect::<Vec<_>>(), [1]);
        assert_eq!(
            f.stale,
            Some(Stale::Older {
                changed: vec![new],
                pages: 1
            })
        );
    }

    #[test]
    fn a_head_is_judged_against_its_own_file() {
        let d = tempfile::tempdir().unwrap();
        let p = plan(d.path(), 100);
        let src = d.path().join("content/a.md");
        touch(&src, 120);
        let (fresh, stale) = (
            d.path().join("public/a/index.html"),
            d.path().join("public/b/index.html"),
        );
        touch(&fresh, 130);
        touch(&stale, 110);
        let f = judge(
            &p,
            vec![
                left(0, Reason::Noindex, Some(fresh)),
                left(1, Reason::Noindex, Some(stale)),
            ],
            &|_| Some(src.clone()),
            None,
        );
        assert_eq!(f.judged.iter().map(|l| l.entry).collect::<Vec<_>>(), [0]);
        assert_eq!(f.kept.iter().map(|l| l.entry).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn many_missing_at_once_is_a_partial_build() {
        let d = tempfile::tempdir().unwrap();
        let p = plan(d.path(), 17);
        let src = d.path().join("content/a.md");
        touch(&src, 50);
        let found: Vec<LeftOut> = (1..17).map(|k| left(k, Reason::NotBuilt, None)).collect();
        let f = judge(&p, found, &|_| Some(src.clone()), None);
        assert!(f.judged.is_empty());
        assert_eq!(f.kept.len(), 16);
        assert_eq!(
            f.stale,
            Some(Stale::Partial {
                missing: 16,
                of: 17
            })
        );
        // A few missing among many: judged.
        let few: Vec<LeftOut> = (1..5).map(|k| left(k, Reason::NotBuilt, None)).collect();
        let f = judge(&p, few, &|_| Some(src.clone()), None);
        assert_eq!((f.judged.len(), f.kept.len(), f.stale), (4, 0, None));
    }

    #[test]
    fn built_pages_are_trusted_as_new_as_their_sources_generated_ones_while_none_is_stale() {
        let d = tempfile::tempdir().unwrap();
        let p = plan(d.path(), 100);
        let (old, new) = (
            d.path().join("content/old.md"),
            d.path().join("content/new.md"),
        );
        touch(&old, 50);
        touch(&new, 150);
        let built = |name: &str| {
            let f = d.path().join(format!("public/{name}/index.html"));
            touch(&f, 120);
            f
        };
        let pages = vec![(0, built("old")), (1, built("new")), (2, built("tags"))];
        let sources = [Some(old.clone()), Some(new.clone()), None];
        let source = |k: usize| sources.get(k).cloned().flatten();
        assert_eq!(trusted(&p, &pages, &source, None), [true, false, false]);
        // Without the stale page, the generated one is trusted too.
        assert_eq!(
            trusted(&p, &[pages[0].clone(), pages[2].clone()], &source, None),
            [true, true]
        );
        // A config changed since the build: none is.
        let config = d.path().join("config.toml");
        touch(&config, 200);
        assert_eq!(
            trusted(
                &p,
                &[pages[0].clone(), pages[2].clone()],
                &source,
                Some(&config)
            ),
            [false, false]
        );
    }

    #[test]
    fn a_config_changed_since_the_build_stales_every_verdict() {
        let d = tempfile::tempdir().unwrap();
        let p = plan(d.path(), 100);
        let src = d.path().join("content/a.md");
        touch(&src, 50);
        let config = d.path().join("hugo.toml");
        touch(&config, 200);
        let f = judge(
            &p,
            vec![
                left(0, Reason::NotBuilt, None),
                left(1, Reason::NotBuilt, None),
            ],
            &|k| (k == 0).then(|| src.clone()),
            Some(&config),
        );
        assert!(f.judged.is_empty(), "{:?}", f.judged);
        assert_eq!(
            f.stale,
            Some(Stale::Older {
                changed: vec![config],
                pages: 2
            })
        );
    }
}
