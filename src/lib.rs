//! sitemapgen: writes `sitemap.xml` for Zola- and Hugo-style static sites.
//!
//! The pipeline, in the order the data flows, one module per stage:
//! [`config`] -> [`scan`] -> [`frontmatter`] -> [`route`] -> [`lastmod`] -> [`entries`] ->
//! [`write`]. [`generate`] runs every stage but the last and returns plain data; [`build`]
//! writes it.

pub mod config;
pub mod date;
pub mod entries;
pub mod error;
pub mod fields;
pub mod frontmatter;
pub mod git;
pub mod images;
pub mod init;
pub mod lastmod;
pub mod loc;
pub mod route;
pub mod scan;
pub mod siteconfig;
pub mod slugify;
pub mod validate;
pub mod write;

pub use error::{Error, Result};

use chrono::{DateTime, Utc};
use config::{LastmodSource, Settings, Style};
use entries::Entries;
use frontmatter::PageMeta;
use lastmod::{FileHistory, Lastmod};
use rayon::prelude::*;
use route::{Pages, Reason, RouteContext};
use scan::{ContentRoot, ScanOptions};
use std::path::{Path, PathBuf};

/// How a run behaves beyond its settings.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// "Now" (tests pin it): future and expired pages, and the lastmod clamp.
    pub now: DateTime<Utc>,
    /// Told how far reading the pages has got (the long stage), for a progress bar.
    pub progress: Option<Progress>,
    /// Fill [`Outcome::listed`] (what `list` prints); off saves a path per URL.
    pub sources: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            now: Utc::now(),
            progress: None,
            sources: true,
        }
    }
}

/// A progress callback, called with `(pages read, pages in total)` from any thread.
#[derive(Clone)]
pub struct Progress(pub std::sync::Arc<dyn Fn(usize, usize) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// One listed URL with where it came from (what `list` prints).
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The content file behind it (`None` for generated pages and `extra_urls`).
    pub source: Option<PathBuf>,
    /// Where its lastmod came from.
    pub lastmod: Option<Lastmod>,
}

/// A page left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The content file.
    pub file: PathBuf,
    /// Why.
    pub reason: Reason,
}

/// Everything a run found, before anything is written.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The entries to write, sorted by loc (on a multihost site by host, then loc).
    pub entries: Entries,
    /// A multihost site's hosts, each with its share of `entries`; empty elsewhere.
    pub hosts: Vec<entries::Host>,
    /// Parallel to `entries`.
    pub listed: Vec<Listed>,
    /// Pages left out.
    pub skipped: Vec<Skipped>,
    /// Things the user should hear about (future dates clamped, shallow clone).
    pub warnings: Vec<String>,
    /// Details for `--verbose`.
    pub notes: Vec<String>,
    /// Content files read.
    pub pages_read: usize,
    /// Set when the site's own config turns the sitemap off (Zola `generate_sitemap = false`,
    /// Hugo `disableKinds = ["sitemap"]`).
    pub disabled: Option<String>,
}

/// Runs config-resolved settings through scan, front matter, routes, lastmod and entries.
pub fn generate(settings: &Settings, opts: &RunOptions) -> Result<Outcome> {
    let mut outcome = Outcome::default();
    if matches!(settings.style, Style::Zola | Style::Hugo)
        && !settings.site.generate_sitemap
        && settings.config_file.is_none()
    {
        let setting = if settings.style == Style::Zola {
            "generate_sitemap = false"
        } else {
            "disableKinds = [\"sitemap\"]"
        };
        outcome.disabled = Some(format!(
            "{} sets {setting}: no sitemap written (use a sitemap.toml to have sitemapgen write it anyway)",
            settings.site.config_file.as_deref().unwrap_or(Path::new("the site config")).display()
        ));
        return Ok(outcome);
    }

    // git history, read beside the scan and front matter (joined at lastmod)
    let pending_history = start_git_history(settings);

    // scan
    let files = scan::scan(
        &content_roots(settings),
        &scan_options(settings),
        &origin(settings),
    )?;

    // front matter, on every core; every bad file is reported, not just the first
    let want_body = settings.images;
    // Hugo accepts sitemap values the protocol forbids: leave them out with a warning there.
    let lenient = settings.style == Style::Hugo;
    let total = files.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        if let Some(p) = &opts.progress {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            (p.0)(n, total);
        }
    };
    let keep_title = keeps_titles(settings);
    let read: Vec<Result<ReadPage>> = (0..files.len())
        .into_par_iter()
        .map(|i| {
            let path = files.get(i).path();
            let read = frontmatter::read_with(&path, &settings.timezone, want_body, lenient);
            tick();
            let (mut fm, body) = read?;
            let images = body
                .as_deref()
                .map(images::image_sources)
                .unwrap_or_default();
            let warnings = std::mem::take(&mut fm.warnings);
            let terms = frontmatter::Terms::pack(&fm.taxonomies, &fm.taxonomy_table);
            // Only the compact record outlives this closure: the page's share of the peak.
            let fm = PageMeta::new(fm, keep_title);
            Ok(ReadPage {
                fm,
                terms: (!terms.is_empty()).then(|| terms.into_boxed_str()),
                rest: (!images.is_empty() || !warnings.is_empty())
                    .then(|| Box::new(ReadRest { images, warnings })),
            })
        })
        .collect();
    let mut errors = Vec::new();
    outcome
        .warnings
        .extend(settings.site.warnings.iter().cloned());
    // Each page's image sources, in page order, when images are on (entries use them).
    let mut images: Vec<Vec<String>> = Vec::new();
    // Collected in place (same allocation): a second vector of pages would double the peak.
    // Every page's terms in one buffer, each page's record pointing at its share.
    let mut terms = String::new();
    let mut meta: Vec<PageMeta> = read
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Ok(mut read) => {
                let rest = read.rest.map(|r| *r).unwrap_or_default();
                outcome.warnings.extend(rest.warnings);
                if want_body {
                    images.push(rest.images);
                }
                let packed = read.terms.as_deref().unwrap_or("");
                if !Pages::place_terms(&mut terms, &mut read.fm, packed) {
                    errors.push(route::too_many_terms(files.get(i).path()));
                }
                Some(read.fm)
            }
            Err(e) => {
                errors.push(e);
                None
            }
        })
        .collect();
    if let Some(e) = Error::from_many(errors) {
        return Err(e);
    }
    // Collected in place into the larger read results' allocation: give back the difference.
    meta.shrink_to_fit();
    terms.shrink_to_fit();
    release_freed_memory();
    let pages = Pages::from_parts(files, meta, terms);
    outcome.pages_read = pages.len();

    // route
    let ctx = RouteContext {
        settings,
        now: opts.now,
    };
    let routing = route::map(&pages, &ctx)?;
    // Routing is done with the front matter: keep only what lastmod reads, in the records'
    // own allocation, before the route checks and lastmod add vectors of their own.
    let (files, meta) = pages.into_parts();
    let mut dated: Vec<lastmod::Dated> = meta.into_iter().map(lastmod::Dated::from).collect();
    dated.shrink_to_fit();
    release_freed_memory();
    let mut routing = route::finish(routing, &files, &ctx)?;

    // lastmod
    outcome.notes.extend(settings.lastmod_notes.iter().cloned());
    let (history, blind) = pending_history.wait(&mut outcome);
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let lookup = |p: &Path| -> FileHistory {
        match &history {
            // Scanned paths are relative to where we run, not to the content dir.
            Some(h) => match h.state(&cwd.join(p)) {
                git::GitFileState::Committed(d) => FileHistory::Committed(d),
                git::GitFileState::Modified | git::GitFileState::Untracked => {
                    FileHistory::Uncommitted
                }
                git::GitFileState::Unknown => FileHistory::Unknown,
            },
            // A checkout without git: every mtime may be the checkout time.
            None if blind => FileHistory::Unknown,
            // No repository: mtime is a fair last resort.
            None => FileHistory::Untracked,
        }
    };
    let input = lastmod::LastmodInput {
        sources: &settings.lastmod,
        history: &lookup,
        now: opts.now,
        source_date_epoch: lastmod::source_date_epoch(),
    };
    let assigned = lastmod::assign(&routing.routes, &files, &dated, &input);
    outcome.warnings.extend(assigned.warnings);
    // Dates are assigned: free them before the entries, the run's other large allocation.
    drop(dated);
    release_freed_memory();

    // entries
    let built = entries::build(
        std::mem::take(&mut routing.routes),
        std::mem::take(&mut routing.paths),
        &entries::Sources {
            files: &files,
            images: &images,
        },
        &assigned.lastmods,
        settings,
    )?;
    if opts.sources {
        outcome.listed = (0..built.entries.len())
            .map(|k| Listed {
                source: built.page(k).map(|p| files.get(p).path()),
                lastmod: built.route(k).and_then(|r| assigned.lastmods[r]),
            })
            .collect();
    }
    outcome.entries = built.entries;
    outcome.hosts = built.hosts;
    let mut skipped: Vec<Skipped> = routing
        .excluded
        .iter()
        .chain(&built.excluded)
        .map(|x| Skipped {
            file: files.get(x.page).path(),
            reason: x.reason,
        })
        .collect();
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    outcome.skipped = skipped;
    Ok(outcome)
}

/// Hands the memory a finished stage freed back to the system. glibc keeps freed memory for
/// reuse, but much of it is in the reading threads' arenas (the front matter's boxes), where
/// the main thread's next stages cannot reuse it: without this it stays in the peak.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// One page as the parallel read leaves it: one of these for every page is held at once.
struct ReadPage {
    fm: PageMeta,
    /// Its packed taxonomy terms, moved into the pages' one buffer as the reads are collected.
    terms: Option<Box<str>>,
    /// What few pages have; `None` for the rest (8 bytes rather than two vectors' 48).
    rest: Option<Box<ReadRest>>,
}

/// The rarer part of a [`ReadPage`].
#[derive(Default)]
struct ReadRest {
    /// Image sources from its body (read only when images are on).
    images: Vec<String>,
    /// Values left out in lenient (Hugo) mode.
    warnings: Vec<String>,
}

/// The write stage's options for these settings.
pub fn write_options(settings: &Settings) -> write::WriteOptions {
    write::WriteOptions {
        output_dir: settings.output_dir.clone(),
        base_url: settings.base_url.to_string(),
        file_name: settings.file_name.clone(),
        gzip: settings.gzip,
        max_urls: settings.max_urls_per_file,
        stylesheet: settings.stylesheet.clone(),
        robots_txt: settings.robots_txt,
        sitemap_txt: settings.sitemap_txt,
        ..Default::default()
    }
}

/// One sitemap to write: its options and its share of the outcome's entries.
#[derive(Clone, Debug)]
pub struct Output {
    /// Where it goes and how it is named.
    pub opts: write::WriteOptions,
    /// Its entries, a range of [`Outcome::entries`].
    pub entries: std::ops::Range<usize>,
    /// The folder below the output folder (a multihost site's language), `None` for the one
    /// sitemap of other sites.
    pub subdir: Option<String>,
}

/// The sitemaps a build writes: one, or one per host of a multihost site, each in a folder
/// named for its language below the output folder (as Hugo writes `public/fr/sitemap.xml`).
pub fn outputs(settings: &Settings, outcome: &Outcome) -> Vec<Output> {
    if outcome.hosts.is_empty() {
        return vec![Output {
            opts: write_options(settings),
            entries: 0..outcome.entries.len(),
            subdir: None,
        }];
    }
    outcome
        .hosts
        .iter()
        .map(|h| {
            let mut opts = write_options(settings);
            opts.output_dir = settings.output_dir.join(&h.lang);
            opts.base_url = h.base_url.to_string();
            Output {
                opts,
                entries: h.entries.clone(),
                subdir: Some(h.lang.clone()),
            }
        })
        .collect()
}

/// Generates and writes the sitemap; nothing is written when any input is bad.
pub fn build(
    settings: &Settings,
    opts: &RunOptions,
) -> Result<(Outcome, Option<write::WriteReport>)> {
    let outcome = generate(settings, opts)?;
    if outcome.disabled.is_some() {
        return Ok((outcome, None));
    }
    let mut report = write::WriteReport::default();
    // Each host's files are replaced as a whole (temporary files, then renames); an error on a
    // later host of a multihost site leaves the earlier ones already updated, never half-written.
    for out in outputs(settings, &outcome) {
        let one = write::write(outcome.entries.slice(out.entries), &out.opts)?;
        report.files.extend(one.files);
        report.urls += one.urls;
        report.removed.extend(one.removed);
        report.robots_updated |= one.robots_updated;
    }
    Ok((outcome, Some(report)))
}

/// Whether any URL is made from a page title (Hugo `:title`, and `:slug` without a slug), so
/// titles must be kept past reading.
fn keeps_titles(settings: &Settings) -> bool {
    settings.style == Style::Hugo
        && settings
            .site
            .permalinks
            .iter()
            .any(|(_, p)| p.contains(":title") || p.contains(":slug"))
}

fn origin(settings: &Settings) -> PathBuf {
    settings
        .config_file
        .clone()
        .unwrap_or_else(|| PathBuf::from("command line"))
}

/// The content folders: one, or one per language where the site keeps them apart (Hugo).
pub fn content_roots(settings: &Settings) -> Vec<ContentRoot> {
    let langs = &settings.site.languages;
    // Hugo reads the default content folder only for languages without a `contentDir` of
    // their own: hugoDocs keeps everything in content/en and nothing else in content/.
    let shared = settings.style != Style::Hugo
        || langs.is_empty()
        || langs.iter().any(|l| l.content_dir.is_none());
    let mut roots = Vec::new();
    if shared {
        roots.push(ContentRoot {
            dir: settings.content_dir.clone(),
            lang: None,
        });
    }
    if settings.style == Style::Hugo {
        for l in langs {
            if let Some(d) = &l.content_dir {
                let dir = settings.site_dir.join(d);
                match roots.iter_mut().find(|r| r.dir == dir) {
                    Some(r) => r.lang = r.lang.take().or_else(|| Some(l.code.clone())),
                    None => roots.push(ContentRoot {
                        dir,
                        lang: Some(l.code.clone()),
                    }),
                }
            }
        }
    }
    roots
}

/// What the style counts as a page.
pub fn scan_options(settings: &Settings) -> ScanOptions {
    let (extensions, skip_hidden_dirs): (&[&str], bool) = match settings.style {
        Style::Zola => (&["md"], false),
        Style::Hugo => (&["md", "markdown", "mdown", "html", "htm", "org"], true),
        Style::Plain | Style::Auto => (&["md", "markdown", "html"], true),
    };
    ScanOptions {
        extensions: extensions.iter().map(|s| s.to_string()).collect(),
        skip_hidden_dirs,
        exclude: settings.exclude.clone(),
        ignored_absolute: settings.site.ignored_content.clone(),
    }
}

/// Git's answer for a run, with what the user should hear about it.
#[derive(Default)]
struct HistoryRead {
    history: Option<git::GitHistory>,
    /// Inside a checkout git cannot read: no file's mtime can be trusted.
    blind: bool,
    warnings: Vec<String>,
    notes: Vec<String>,
}

/// A history read running beside the scan (or already done, or not needed); dropping it
/// waits, so no work outlives the run.
struct PendingHistory {
    thread: Option<std::thread::JoinHandle<HistoryRead>>,
    done: Option<HistoryRead>,
}

impl PendingHistory {
    /// Waits for the read and files its messages into the outcome.
    fn wait(mut self, outcome: &mut Outcome) -> (Option<git::GitHistory>, bool) {
        let read = match self.thread.take().map(|h| h.join()) {
            Some(Ok(read)) => read,
            Some(Err(_)) => HistoryRead {
                warnings: vec![
                    "git history could not be read (its reader panicked): lastmod falls back to the next source".into(),
                ],
                ..Default::default()
            },
            None => self.done.take().unwrap_or_default(),
        };
        outcome.warnings.extend(read.warnings);
        outcome.notes.extend(read.notes);
        (read.history, read.blind)
    }
}

impl Drop for PendingHistory {
    fn drop(&mut self) {
        if let Some(h) = self.thread.take() {
            let _ = h.join();
        }
    }
}

/// Starts reading git history on its own thread when a source needs it: `git log` is the
/// slowest step on a large repository, and the scan and front matter need none of it.
fn start_git_history(settings: &Settings) -> PendingHistory {
    let needed = settings
        .lastmod
        .iter()
        .any(|s| matches!(s, LastmodSource::Git | LastmodSource::Mtime));
    if !needed {
        return PendingHistory {
            thread: None,
            done: None,
        };
    }
    let dir = history_dir(settings);
    let opts = git::GitOptions {
        date: match settings.git_date {
            config::GitDateKind::Committer => git::GitDate::Committer,
            config::GitDateKind::Author => git::GitDate::Author,
        },
        states_only: !settings.lastmod.contains(&LastmodSource::Git),
    };
    let thread_dir = dir.clone();
    let spawned = std::thread::Builder::new()
        .name("git-history".into())
        .spawn(move || git_history(&thread_dir, &opts));
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
    let roots = content_roots(settings);
    if roots.len() < 2 {
        // As given: the scanned paths are spelled the same way, so they match it directly.
        return settings.content_dir.clone();
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
    let mut dir = abs(&settings.content_dir);
    for r in roots.iter().skip(1) {
        let other = abs(&r.dir);
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
                format!(
                    "git: {} of {} tracked content files dated from {}",
                    h.committed_files(),
                    h.tracked_files(),
                    h.repo_root().display()
                )
            });
            if !opts.states_only {
                for sub in h.shallow_submodules() {
                    read.warnings.push(format!(
                        "submodule {} is a shallow clone: its files get no git date. Fetch its full history: `submodules: true` with `fetch-depth: 0` in actions/checkout, or `git -C {} fetch --unshallow`",
                        sub.display(),
                        sub.display()
                    ));
                }
            }
            read.history = Some(h);
        }
        // Without git among the sources the clone's depth changes nothing worth a warning.
        Ok(git::GitProbe::Shallow { repo_root, history }) if opts.states_only => {
            read.notes.push(format!(
                "{} is a shallow clone (no matter: git is not a lastmod source)",
                repo_root.display()
            ));
            read.history = Some(history);
        }
        Ok(git::GitProbe::Shallow { repo_root, history }) => {
            read.warnings.push(format!(
                "{} is a shallow clone: git dates would all be the clone's boundary commit, so they are not used. Fetch full history: `fetch-depth: 0` in actions/checkout, or `git fetch --unshallow`",
                repo_root.display()
            ));
            read.history = Some(history);
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
        Err(e) => read.warnings.push(format!(
            "git history could not be read ({e}): lastmod falls back to the next source"
        )),
    }
    read
}
pub mod report;
