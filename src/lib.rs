#![warn(clippy::print_stdout, clippy::print_stderr)]
//! sitemapgen: writes `sitemap.xml` for Zola- and Hugo-style static sites.
//!
//! The pipeline, in the order the data flows, one module per stage:
//! [`config`] -> [`scan`] -> [`frontmatter`] -> [`route`] -> [`lastmod`] -> [`entries`] ->
//! [`write`]. [`generate`] runs every stage but the last and returns plain data; [`build`]
//! writes it.

pub mod check;
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
pub mod summary;
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

    outcome
        .warnings
        .extend(settings.site.warnings.iter().cloned());
    outcome.pages_read = files.len();
    let reader = Reader::new(settings, opts, files.len());
    let ctx = RouteContext {
        settings,
        now: opts.now,
    };
    // front matter, on every core, and routes; then each route's own lastmod
    let routed = if settings.style == Style::Zola {
        route_as_read(files, &reader, &ctx, pending_history)?
    } else {
        route_when_read(files, &reader, &ctx, pending_history)?
    };
    outcome.warnings.extend(routed.read_warnings);
    outcome.notes.extend(settings.lastmod_notes.iter().cloned());
    outcome.warnings.extend(routed.history_warnings);
    outcome.notes.extend(routed.history_notes);
    let (files, mut routing, images) = (routed.files, routed.routing, routed.images);
    let assigned = routed.assigned;
    outcome.warnings.extend(assigned.warnings);

    // entries: they take the lastmods; `list` keeps a copy to tell where each came from
    let lastmods = opts.sources.then(|| assigned.lastmods.clone());
    let built = entries::build(
        std::mem::take(&mut routing.routes),
        std::mem::take(&mut routing.paths),
        &entries::Sources {
            files: &files,
            images: &images,
        },
        assigned.lastmods,
        settings,
    )?;
    if let Some(lastmods) = lastmods {
        outcome.listed = (0..built.entries.len())
            .map(|k| Listed {
                source: built.page(k).map(|p| files.get(p).path()),
                lastmod: built.route(k).and_then(|r| lastmods[r]),
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

/// One page as the parallel read leaves it, until its turn to be routed.
struct ReadPage {
    fm: PageMeta,
    /// Its packed taxonomy terms ([`frontmatter::Terms::pack`]), `None` when it has none.
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

/// How many pages are read on every core before they are routed in turn: enough to keep
/// both cores busy, few enough that a chunk's records are a small share of the peak.
const CHUNK: usize = 1 << 14;

/// Reads pages' front matter for a run, from any thread.
struct Reader<'a> {
    settings: &'a Settings,
    progress: Option<&'a Progress>,
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    /// Bodies are read too (for their images).
    want_body: bool,
    /// Hugo accepts sitemap values the protocol forbids: leave them out with a warning there.
    lenient: bool,
    keep_title: bool,
    /// Pages read at once ([`CHUNK`]; tests take fewer).
    chunk: usize,
}

impl<'a> Reader<'a> {
    fn new(settings: &'a Settings, opts: &'a RunOptions, total: usize) -> Reader<'a> {
        Reader {
            settings,
            progress: opts.progress.as_ref(),
            total,
            done: std::sync::atomic::AtomicUsize::new(0),
            want_body: settings.images,
            lenient: settings.style == Style::Hugo,
            keep_title: keeps_titles(settings),
            chunk: CHUNK,
        }
    }

    /// Reads file `i` down to what routing needs.
    fn read(&self, files: &scan::Files, i: usize) -> Result<ReadPage> {
        let path = files.get(i).path();
        let read =
            frontmatter::read_with(&path, &self.settings.timezone, self.want_body, self.lenient);
        if let Some(p) = self.progress {
            let n = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            (p.0)(n, self.total);
        }
        let (mut fm, body) = read?;
        let images = body
            .as_deref()
            .map(images::image_sources)
            .unwrap_or_default();
        let warnings = std::mem::take(&mut fm.warnings);
        let terms = frontmatter::Terms::pack(&fm.taxonomies, &fm.taxonomy_table);
        // Only the compact record outlives this call.
        let fm = PageMeta::new(fm, self.keep_title);
        Ok(ReadPage {
            fm,
            terms: (!terms.is_empty()).then(|| terms.into_boxed_str()),
            rest: (!images.is_empty() || !warnings.is_empty())
                .then(|| Box::new(ReadRest { images, warnings })),
        })
    }

    /// Reads the files `which` (in file order) a chunk at a time on every core, and hands
    /// each page to `sink` in order. A bad file's error (or the sink's) is kept in `errors`
    /// with its index and the rest are still read, so every bad file is reported.
    fn read_each(
        &self,
        files: &scan::Files,
        which: impl Iterator<Item = usize>,
        errors: &mut Vec<(usize, Error)>,
        mut sink: impl FnMut(usize, ReadPage) -> Result<()>,
    ) {
        let mut which = which.peekable();
        let mut chunk = Vec::with_capacity(self.chunk);
        while which.peek().is_some() {
            chunk.clear();
            chunk.extend(which.by_ref().take(self.chunk.max(1)));
            let read: Vec<Result<ReadPage>> =
                chunk.par_iter().map(|&i| self.read(files, i)).collect();
            for (&i, page) in chunk.iter().zip(read) {
                if let Err(e) = page.and_then(|page| sink(i, page)) {
                    errors.push((i, e));
                }
            }
        }
    }
}

/// The rarer parts of the pages as they are read, kept in page order.
struct Kept {
    want_body: bool,
    /// Each page's image sources, when images are on (entries use them).
    images: Vec<Vec<String>>,
    /// Values left out in lenient (Hugo) mode.
    warnings: Vec<String>,
}

impl Kept {
    fn new(want_body: bool) -> Kept {
        Kept {
            want_body,
            images: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Keeps the next page's.
    fn keep(&mut self, rest: Option<Box<ReadRest>>) {
        let rest = rest.map(|r| *r).unwrap_or_default();
        self.warnings.extend(rest.warnings);
        if self.want_body {
            self.images.push(rest.images);
        }
    }
}

/// What reading and routing leave for the entries.
struct Routed {
    files: scan::Files,
    routing: route::Routing,
    /// Each route's lastmod.
    assigned: lastmod::Assigned,
    /// Each page's image sources, in page order, when images are on.
    images: Vec<Vec<String>>,
    /// Values left out of the front matter (lenient mode), in page order.
    read_warnings: Vec<String>,
    /// What reading git history had to say.
    history_warnings: Vec<String>,
    history_notes: Vec<String>,
}

/// Version control's view of each file, from git's answer for the run.
struct HistoryLookup {
    history: Option<git::GitHistory>,
    /// Inside a checkout git cannot read: no file's mtime can be trusted.
    blind: bool,
    /// Scanned paths are relative to where we run, not to the content dir.
    cwd: PathBuf,
}

impl HistoryLookup {
    /// Takes the history out of `read` (its messages stay there).
    fn new(read: &mut HistoryRead) -> Result<HistoryLookup> {
        Ok(HistoryLookup {
            history: read.history.take(),
            blind: read.blind,
            cwd: std::env::current_dir().map_err(|e| Error::io(".", e))?,
        })
    }
}

impl lastmod::History for HistoryLookup {
    fn state(&self, p: &Path) -> FileHistory {
        match &self.history {
            Some(h) => match h.state(&self.cwd.join(p)) {
                git::GitFileState::Committed(d) => FileHistory::Committed(d),
                git::GitFileState::Modified | git::GitFileState::Untracked => {
                    FileHistory::Uncommitted
                }
                git::GitFileState::Unknown => FileHistory::Unknown,
            },
            // A checkout without git: every mtime may be the checkout time.
            None if self.blind => FileHistory::Unknown,
            // No repository: mtime is a fair last resort.
            None => FileHistory::Untracked,
        }
    }
}

/// The lastmod stage's input for a run.
fn lastmod_input<'a>(
    ctx: &RouteContext<'a>,
    history: &'a dyn lastmod::History,
) -> lastmod::LastmodInput<'a> {
    lastmod::LastmodInput {
        sources: &ctx.settings.lastmod,
        history,
        now: ctx.now,
        source_date_epoch: lastmod::source_date_epoch(),
    }
}

/// Every bad file's error, in file order.
fn read_errors(mut errors: Vec<(usize, Error)>) -> Result<()> {
    errors.sort_by_key(|(i, _)| *i);
    match Error::from_many(errors.into_iter().map(|(_, e)| e).collect()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Routes Zola pages as they are read: the sections first, then every page in file order,
/// each routed (and its own lastmod taken) as soon as its chunk is read, so its front matter
/// never outlives its turn. A million pages then hold their routes but never their front
/// matter beside them.
fn route_as_read(
    files: scan::Files,
    reader: &Reader,
    ctx: &RouteContext,
    pending: PendingHistory,
) -> Result<Routed> {
    let mut errors = Vec::new();
    let mut map = route::ZolaMap::new(&files, ctx);
    let first = map.first().to_vec();
    let mut section_rest = std::collections::HashMap::new();
    reader.read_each(&files, first.iter().copied(), &mut errors, |i, page| {
        section_rest.insert(i, page.rest);
        map.add_section(i, page.fm);
        Ok(())
    });
    map.sections_done();

    // Git's answer is needed from the first page on.
    let mut git = pending.wait();
    let lookup = HistoryLookup::new(&mut git)?;
    let input = lastmod_input(ctx, &lookup);
    let mut turns = ZolaTurns {
        map,
        own: lastmod::OwnLastmods::new(&input),
        files: &files,
        sections: first.clone(),
        next: 0,
        section_rest,
        kept: Kept::new(reader.want_body),
    };
    let pages = (0..files.len()).filter(|i| first.binary_search(i).is_err());
    reader.read_each(&files, pages, &mut errors, |i, page| {
        turns.sections_before(i);
        turns.kept.keep(page.rest);
        let terms = frontmatter::Terms::from_packed(page.terms.as_deref().unwrap_or(""));
        turns.route(i, &page.fm, terms);
        Ok(())
    });
    turns.sections_before(usize::MAX);
    let ZolaTurns { map, own, kept, .. } = turns;
    read_errors(errors)?;
    let routing = map.finish()?;
    release_freed_memory();
    checked(files, routing, own, kept, git, ctx)
}

/// Zola's files taking their turns, in file order: each routed, and its routes' own lastmods
/// taken, while its front matter is at hand.
struct ZolaTurns<'a, 'i> {
    map: route::ZolaMap<'a>,
    own: lastmod::OwnLastmods<'i>,
    files: &'a scan::Files,
    /// The sections, read before the pages, in file order.
    sections: Vec<usize>,
    /// The next section to take its turn.
    next: usize,
    /// The rarer parts of the sections, kept until their turn.
    section_rest: std::collections::HashMap<usize, Option<Box<ReadRest>>>,
    kept: Kept,
}

impl ZolaTurns<'_, '_> {
    /// Routes file `i` and takes its routes' own lastmods.
    fn route(&mut self, i: usize, fm: &PageMeta, terms: frontmatter::Terms) {
        let before = self.map.routing().routes.len();
        self.map.page(i, fm, terms);
        let dated = lastmod::Dated::from(fm);
        for (k, r) in self.map.routing().routes.iter().enumerate().skip(before) {
            self.own.add(k, r, self.files.get(i), &dated);
        }
    }

    /// The sections before file `end` take their turns, with what was read of them first.
    fn sections_before(&mut self, end: usize) {
        while let Some(&j) = self.sections.get(self.next).filter(|&&j| j < end) {
            self.next += 1;
            self.kept.keep(self.section_rest.remove(&j).flatten());
            if let Some(fm) = self.map.section(j).cloned() {
                self.route(j, &fm, frontmatter::Terms::default());
            }
        }
    }
}

/// Reads every page, then routes them together: Hugo's cascades, bundles and translations
/// look across pages. Each route's own lastmod is taken before the front matter is freed.
fn route_when_read(
    files: scan::Files,
    reader: &Reader,
    ctx: &RouteContext,
    pending: PendingHistory,
) -> Result<Routed> {
    let mut errors = Vec::new();
    let mut kept = Kept::new(reader.want_body);
    let mut meta: Vec<PageMeta> = Vec::with_capacity(files.len());
    // Every page's terms in one buffer, each page's record pointing at its share.
    let mut terms = String::new();
    reader.read_each(&files, 0..files.len(), &mut errors, |i, page| {
        kept.keep(page.rest);
        let mut fm = page.fm;
        if !Pages::place_terms(&mut terms, &mut fm, page.terms.as_deref().unwrap_or("")) {
            return Err(route::too_many_terms(files.get(i).path()));
        }
        meta.push(fm);
        Ok(())
    });
    read_errors(errors)?;
    terms.shrink_to_fit();
    release_freed_memory();
    let pages = Pages::from_parts(files, meta, terms);
    let routing = route::map(&pages, ctx)?;

    let mut git = pending.wait();
    let lookup = HistoryLookup::new(&mut git)?;
    let input = lastmod_input(ctx, &lookup);
    let mut own = lastmod::OwnLastmods::new(&input);
    for (k, r) in routing.routes.iter().enumerate() {
        if let Some(p) = r.page() {
            let page = pages.get(p);
            own.add(k, r, page.file, &lastmod::Dated::from(page.fm));
        }
    }
    // Routing is done with the front matter: free it before the route checks.
    let (files, _) = pages.into_parts();
    release_freed_memory();
    checked(files, routing, own, kept, git, ctx)
}

/// The routes checked ([`route::finish`]) and the list pages' lastmods rolled up: what
/// reading and routing leave for the entries.
fn checked(
    files: scan::Files,
    routing: route::Routing,
    own: lastmod::OwnLastmods,
    kept: Kept,
    git: HistoryRead,
    ctx: &RouteContext,
) -> Result<Routed> {
    let routing = route::finish(routing, &files, ctx)?;
    let assigned = own.finish(&routing.routes);
    Ok(Routed {
        files,
        routing,
        assigned,
        images: kept.images,
        read_warnings: kept.warnings,
        history_warnings: git.warnings,
        history_notes: git.notes,
    })
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
    /// Waits for the read.
    fn wait(mut self) -> HistoryRead {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A Zola site of `files` (path below content/, text) in a temp folder, and its settings.
    fn zola_site(files: &[(&str, &str)]) -> (tempfile::TempDir, Settings) {
        zola_site_with(files, "")
    }

    /// The same with a sitemap.toml of `sitemap_toml` beside it (none when empty).
    fn zola_site_with(files: &[(&str, &str)], sitemap_toml: &str) -> (tempfile::TempDir, Settings) {
        let d = tempfile::tempdir().unwrap();
        if !sitemap_toml.is_empty() {
            std::fs::write(d.path().join("sitemap.toml"), sitemap_toml).unwrap();
        }
        std::fs::write(
            d.path().join("config.toml"),
            "base_url = \"https://example.com\"\n",
        )
        .unwrap();
        for (rel, text) in files {
            let path = d.path().join("content").join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let settings = config::load(&config::Overrides {
            site: Some(d.path().to_path_buf()),
            ..Default::default()
        })
        .unwrap();
        (d, settings)
    }

    fn scanned(settings: &Settings) -> scan::Files {
        scan::scan(
            &content_roots(settings),
            &scan_options(settings),
            &origin(settings),
        )
        .unwrap()
    }

    #[test]
    fn pages_are_handed_on_in_file_order_across_chunks_and_every_bad_one_is_kept() {
        let mut files: Vec<(String, String)> = (0..10)
            .map(|k| (format!("p{k}.md"), "+++\ntitle = \"t\"\n+++\n".to_string()))
            .collect();
        files[3].1 = "+++\ntitle = \n+++\n".into();
        files[8].1 = "+++\ndate = 1\n+++\n".into();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_d, settings) = zola_site(&refs);
        let scan = scanned(&settings);
        let opts = RunOptions::default();
        let mut reader = Reader::new(&settings, &opts, scan.len());
        reader.chunk = 3;
        let mut seen = Vec::new();
        let mut errors = Vec::new();
        reader.read_each(&scan, 0..scan.len(), &mut errors, |i, _| {
            seen.push(i);
            // The sink's own refusal is kept like a read error.
            if i == 5 {
                return Err(Error::input("p5.md", None, "refused"));
            }
            Ok(())
        });
        assert_eq!(seen, vec![0, 1, 2, 4, 5, 6, 7, 9]);
        let bad: Vec<usize> = errors.iter().map(|(i, _)| *i).collect();
        assert_eq!(bad, vec![3, 5, 8]);
        assert_eq!(scan.get(3).rel(), "p3.md");
    }

    #[test]
    fn zola_read_errors_come_in_file_order_though_sections_are_read_first() {
        let (_d, settings) = zola_site(&[
            ("_index.md", "+++\n+++\n"),
            ("a.md", "+++\ntitle = \n+++\n"),
            ("b/_index.md", "+++\nsort_by = \n+++\n"),
            ("b/c.md", "+++\ndate = 1\n+++\n"),
        ]);
        let err = generate(&settings, &RunOptions::default()).unwrap_err();
        let Error::Many(list) = err else {
            panic!("expected every bad file: {err}")
        };
        let named: Vec<String> = list
            .iter()
            .map(|e| match e {
                Error::Input { path, .. } => path
                    .strip_prefix(&settings.content_dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
                other => panic!("unexpected {other}"),
            })
            .collect();
        assert_eq!(named, vec!["a.md", "b/_index.md", "b/c.md"]);
    }

    #[test]
    fn zola_sections_take_their_turn_in_file_order() {
        // Routes are made in file order whether a file is a section (read first) or a page:
        // the members a section rolls up and the route indices depend on it.
        let (_d, settings) = zola_site_with(
            &[
                ("_index.md", "+++\n+++\n"),
                ("a.md", "+++\ndate = 2024-01-01\n+++\n"),
                ("b/_index.md", "+++\n+++\n"),
                ("b/c.md", "+++\ndate = 2024-03-01\n+++\n"),
                ("d.md", "+++\ndate = 2024-02-01\n+++\n"),
            ],
            "lastmod = [\"front_matter\", \"published\"]\n",
        );
        let scan = scanned(&settings);
        let opts = RunOptions::default();
        let mut reader = Reader::new(&settings, &opts, scan.len());
        reader.chunk = 1;
        let ctx = RouteContext {
            settings: &settings,
            now: opts.now,
        };
        let routed = route_as_read(scan, &reader, &ctx, start_git_history(&settings)).unwrap();
        let pages: Vec<Option<String>> = routed
            .routing
            .routes
            .iter()
            .map(|r| r.page().map(|p| routed.files.get(p).rel().to_string()))
            .collect();
        let rels: Vec<&str> = pages.iter().flatten().map(String::as_str).collect();
        let in_order: Vec<String> = routed.files.iter().map(|f| f.rel().to_string()).collect();
        assert_eq!(rels, in_order);
        // The home rolls up the newest date below it, through section b.
        let home = rels.iter().position(|r| *r == "_index.md").unwrap();
        assert_eq!(
            routed.assigned.lastmods[home].map(|l| l.date.to_string()),
            Some("2024-03-01".to_string())
        );
    }
}
