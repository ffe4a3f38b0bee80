//! lastmod: the one date per URL that search engines still read, chosen from the sources the
//! user ranks (front matter, git, publication date, mtime), never in the future, and rolled
//! up into sections and home pages that have none of their own.

mod blobs;
pub mod git;
pub mod history;
mod recall;
mod repo;
pub mod shallow;
pub mod subjects;
pub mod visible;
mod walk;

use crate::frontmatter::PageMeta;
use crate::route::{Kind, Route, RouteContext, RouteSink, Routing};
use crate::scan::{Files, SourceFile};
use crate::settings::{GitDateKind, LastmodSource, Precision};
use crate::vocab::date::W3cDate;
pub use blobs::Fetches;
use chrono::{DateTime, NaiveDate, Utc};
use history::{HistoryRead, PendingHistory};
use std::path::Path;
use std::time::SystemTime;

/// What this stage needs of a page's front matter: its dates, taken as the page is routed
/// ([`OwnLastmods::add`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Dated {
    /// The last-change date.
    pub updated: Option<W3cDate>,
    /// `date`.
    pub date: Option<W3cDate>,
    /// The publication date (Hugo).
    pub publish_date: Option<W3cDate>,
    /// Hugo: the dates of the later runs of keys in the site's lastmod order.
    pub lastmod_more: Vec<Option<W3cDate>>,
}

impl From<&PageMeta> for Dated {
    fn from(fm: &PageMeta) -> Dated {
        Dated {
            updated: fm.updated,
            date: fm.date,
            publish_date: fm.publish_date(),
            lastmod_more: fm.more().lastmod_more.clone(),
        }
    }
}

impl Dated {
    /// A page's dates once its route is made: a cascade may have given it lastmod keys it
    /// leaves out (Hugo).
    pub fn of(fm: &PageMeta, route: &Route) -> Dated {
        let mut d = Dated::from(fm);
        if let Some(groups) = route.hugo_lastmod() {
            d.set_lastmod_groups(groups);
        }
        d
    }

    /// The dates of a page the generator makes without a file, which a cascade gave the
    /// lastmod key runs `groups` (a Hugo section or term page).
    fn generated(groups: &[Option<W3cDate>]) -> Dated {
        let mut d = Dated {
            updated: None,
            date: None,
            publish_date: None,
            lastmod_more: Vec::new(),
        };
        d.set_lastmod_groups(groups);
        d
    }

    fn set_lastmod_groups(&mut self, groups: &[Option<W3cDate>]) {
        self.updated = groups.first().copied().flatten();
        self.lastmod_more = groups.iter().skip(1).copied().collect();
    }
}

/// What version control knows about one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileHistory {
    /// The date of the last commit that changed it.
    Committed(W3cDate),
    /// Modified or untracked in the working tree: its mtime is its last change.
    Uncommitted,
    /// Tracked, but its history cannot be read: mtime would be the checkout time, so it must
    /// not be used.
    Unknown,
    /// Tracked, and its last change lies where the history at hand does not reach (past a
    /// shallow clone's boundary): as [`FileHistory::Unknown`], and counted in [`GitReport`].
    Unreached,
    /// Not under version control: mtime is a fair last resort.
    Untracked,
}

/// Where a lastmod came from (shown by `list`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A front matter last-change key.
    FrontMatter,
    /// The last commit.
    Git,
    /// The publication date.
    Published,
    /// The file's mtime.
    Mtime,
    /// The newest date of the pages below.
    Rollup,
}

impl Origin {
    /// A short label.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::FrontMatter => "front_matter",
            Origin::Git => "git",
            Origin::Published => "published",
            Origin::Mtime => "mtime",
            Origin::Rollup => "rollup",
        }
    }
}

/// A chosen lastmod and its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lastmod {
    /// The date written.
    pub date: W3cDate,
    /// Where it came from.
    pub origin: Origin,
}

/// Version control's view of each file, as the stage asks for it.
pub trait History: Sync {
    /// What version control knows about the file at `path`.
    fn state(&self, path: &Path) -> FileHistory;

    /// The commit that dated the file at `path` (a short hash), for `list`.
    fn commit(&self, _path: &Path) -> Option<String> {
        None
    }
}

/// A function of the path serves as one (tests, and callers with no repository).
impl<F: Fn(&Path) -> FileHistory + Sync> History for F {
    fn state(&self, path: &Path) -> FileHistory {
        self(path)
    }
}

/// Everything the stage consults besides the routes and pages.
pub struct LastmodInput<'a> {
    /// Sources in order; empty means no `<lastmod>` at all.
    pub sources: &'a [LastmodSource],
    /// Version control's view of a file.
    pub history: Box<dyn History + 'a>,
    /// "Now": nothing later is ever written.
    pub now: DateTime<Utc>,
    /// `SOURCE_DATE_EPOCH`: mtime-derived dates never go past it.
    pub source_date_epoch: Option<DateTime<Utc>>,
    /// The date a file with uncommitted changes takes at the git source's place: the one its
    /// commit will carry, as near as can be known ([`pending_commit_date`]).
    pub pending_commit: W3cDate,
    /// How finely dates from git and file times are written.
    pub precision: Precision,
    /// Note which commit gave each git date ([`Assigned::commits`]), for `list`.
    pub commits: bool,
    /// Hugo's own lastmod order: the front matter run of keys reaches the page's `.Date`
    /// (its `date` key), which a date from the file name stands for where the page sets no
    /// key of the run (Hugo 0.123 on; routing sets [`Route::file_date`] only then).
    pub hugo_keys: bool,
}

/// How git dated the pages of a run, for its summary (present when git was read for dates).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GitReport {
    /// Pages (their own files) dated by a commit.
    pub exact: usize,
    /// Pages whose last change lies past the history at hand: git was asked and had no date,
    /// so the next source dated them (or none did).
    pub unreached: usize,
    /// The clone was shallow.
    pub shallow: bool,
    /// Its history is still cut short (no fetch, or the fetch failed).
    pub cut: bool,
    /// How many commits the history held before its boundary, when the walk reached it.
    pub depth: Option<usize>,
    /// The fetch of a shallow clone's history, when one ran.
    pub fetch: Option<shallow::Fetched>,
    /// The depth of the shallowest clone that dates every page as this run did (known when
    /// the whole history was at hand).
    pub depth_needed: Option<u32>,
    /// What fetching the versions a partial clone lacked took, when any were fetched.
    pub versions_fetched: Option<blobs::Fetches>,
}

/// The result: one optional lastmod per route, and warnings for the user.
#[derive(Clone, Debug, Default)]
pub struct Assigned {
    /// Parallel to the routes.
    pub lastmods: Vec<Option<Lastmod>>,
    /// Future dates clamped, naming the file.
    pub warnings: Vec<String>,
    /// Parallel to the routes when [`LastmodInput::commits`] asks: the commit behind a git
    /// date (a short hash, or `uncommitted`).
    pub commits: Vec<Option<String>>,
    /// Routes git dated by a commit, and routes whose last change git could not reach.
    pub git_counts: (usize, usize),
}

/// Chooses each route's lastmod, then fills sections and homes from the routes below them.
/// `pages` is parallel to `files`.
pub fn assign(routes: &[Route], files: &Files, pages: &[Dated], input: LastmodInput) -> Assigned {
    let mut own = OwnLastmods::new(input);
    for (k, r) in routes.iter().enumerate() {
        if let Some(p) = r.page() {
            own.add(k, r, files.get(p), &pages[p]);
        }
    }
    own.finish(routes)
}

/// Each route's own lastmod, gathered route by route as routing makes them ([`assign`]'s
/// first half): a page's dates are needed only until its route is made, so a large site
/// never holds every page's dates beside every route.
pub struct OwnLastmods<'a> {
    input: LastmodInput<'a>,
    /// The sources a list page's own date may come from: dates written down.
    written: Vec<LastmodSource>,
    /// The rest (git, mtime): for a list page they compete with the rollup.
    from_file: Vec<LastmodSource>,
    out: Assigned,
    /// Which list pages have only such a file date (a byte a route, not a date).
    file_only: Vec<bool>,
}

impl<'a> OwnLastmods<'a> {
    /// No route yet.
    pub fn new(input: LastmodInput<'a>) -> OwnLastmods<'a> {
        let (written, from_file) = input
            .sources
            .iter()
            .partition(|s| !matches!(s, LastmodSource::Git | LastmodSource::Mtime));
        OwnLastmods {
            input,
            written,
            from_file,
            out: Assigned::default(),
            file_only: Vec::new(),
        }
    }

    /// Route `k`, made for the page in `file` with the dates `page`: its own lastmod.
    pub fn add(&mut self, k: usize, route: &Route, file: SourceFile, page: &Dated) {
        self.add_dated(k, route, Some(file), page);
    }

    /// Route `k` with the dates `page`, made for the page in `file` (none for a page the
    /// generator makes without one: no history, only the dates written for it).
    fn add_dated(&mut self, k: usize, route: &Route, file: Option<SourceFile>, page: &Dated) {
        let input = &self.input;
        if input.sources.is_empty() {
            return;
        }
        // List pages (home, sections, taxonomies) change when the pages below them do, so
        // only a date written in their front matter stands alone; a file date competes with
        // the rollup.
        let mut file_only = false;
        let mut git_seen = None;
        let own = if route.kind == Kind::Page {
            own_lastmod(file, page, route, input, input.sources, &mut git_seen)
        } else {
            match own_lastmod(file, page, route, input, &self.written, &mut git_seen) {
                Some(l) => Some(l),
                None => {
                    let dated =
                        own_lastmod(file, page, route, input, &self.from_file, &mut git_seen);
                    file_only = dated.is_some();
                    dated
                }
            }
        };
        match git_seen {
            Some(FileHistory::Committed(_)) if own.is_some_and(|l| l.origin == Origin::Git) => {
                self.out.git_counts.0 += 1;
            }
            Some(FileHistory::Unreached) => self.out.git_counts.1 += 1,
            _ => {}
        }
        let Some(mut lm) = own else { return };
        if let Some(file) = file.filter(|_| input.commits && lm.origin == Origin::Git) {
            let path = file.path();
            let commit = match input.history.state(&path) {
                FileHistory::Committed(_) => input.history.commit(&path),
                _ => Some("uncommitted".into()),
            };
            if self.out.commits.len() <= k {
                self.out.commits.resize(k + 1, None);
            }
            self.out.commits[k] = commit;
        }
        if lm.date.is_after(input.now) {
            let source = match file {
                Some(file) => file.path().display().to_string(),
                None => "a cascade onto a page made without a file".to_string(),
            };
            self.out.warnings.push(format!(
                "{source}: lastmod {} is in the future; writing {} instead",
                lm.date,
                lm.date.clamp_to(input.now)
            ));
            lm.date = lm.date.clamp_to(input.now);
        }
        // Truncated only now: a day is the date in the commit's own zone, which may already
        // be tomorrow in UTC; the instant itself is what must not be in the future.
        if matches!(lm.origin, Origin::Git | Origin::Mtime) {
            lm.date = to_precision(lm.date, input.precision);
        }
        if self.out.lastmods.len() <= k {
            self.out.lastmods.resize(k + 1, None);
        }
        self.out.lastmods[k] = Some(lm);
        if file_only {
            if self.file_only.len() <= k {
                self.file_only.resize(k + 1, false);
            }
            self.file_only[k] = true;
        }
    }

    /// Every route is in: each list page without a date of its own written down takes the
    /// newest date of the routes that roll up into it.
    pub fn finish(mut self, routes: &[Route]) -> Assigned {
        // Pages the generator makes without a file take the dates a cascade gave them.
        for (k, r) in routes.iter().enumerate() {
            if r.page().is_none()
                && let Some(groups) = r.hugo_lastmod()
            {
                self.add_dated(k, r, None, &Dated::generated(groups));
            }
        }
        let OwnLastmods {
            mut out,
            mut file_only,
            input,
            ..
        } = self;
        out.lastmods.resize(routes.len(), None);
        if input.commits {
            out.commits.resize(routes.len(), None);
        }
        if input.sources.is_empty() {
            return out;
        }
        file_only.resize(routes.len(), false);
        roll_up(routes, &mut out.lastmods, &file_only);
        // A list page whose own git date lost to the pages below it shows no commit.
        for (c, l) in out.commits.iter_mut().zip(&out.lastmods) {
            if l.is_none_or(|l| l.origin != Origin::Git) {
                *c = None;
            }
        }
        out
    }
}

/// The lastmod stage as routing feeds it ([`RouteSink`]): each route's own lastmod is taken
/// as the route is made, while its page's front matter is at hand. Git's answer is waited
/// for when the first route needs it, so `git log` runs beside the scan and the reading.
pub struct Dating<'a> {
    files: &'a Files,
    sources: &'a [LastmodSource],
    settings: &'a crate::settings::Settings,
    /// Note which commit gave each git date, for `list`.
    commits: bool,
    now: DateTime<Utc>,
    /// Where the scanned paths are relative to.
    cwd: std::path::PathBuf,
    pending: Option<PendingHistory>,
    read: HistoryRead,
    own: Option<OwnLastmods<'a>>,
}

impl<'a> Dating<'a> {
    /// The stage for a run over `files`, with git's answer still to come from `pending`.
    pub fn new(
        files: &'a Files,
        ctx: &RouteContext<'a>,
        pending: PendingHistory,
        cwd: std::path::PathBuf,
        commits: bool,
    ) -> Dating<'a> {
        Dating {
            files,
            sources: &ctx.settings.lastmod,
            settings: ctx.settings,
            commits,
            now: ctx.now,
            cwd,
            pending: Some(pending),
            read: HistoryRead::default(),
            own: None,
        }
    }

    /// The stage proper, made on first need (after waiting for git).
    fn own(&mut self) -> &mut OwnLastmods<'a> {
        let Dating {
            own,
            pending,
            read,
            cwd,
            sources,
            now,
            settings,
            commits,
            ..
        } = self;
        own.get_or_insert_with(|| {
            if let Some(p) = pending.take() {
                *read = p.wait();
            }
            let sde = source_date_epoch();
            OwnLastmods::new(LastmodInput {
                sources,
                history: Box::new(read.lookup(cwd.clone())),
                now: *now,
                source_date_epoch: sde,
                pending_commit: pending_commit_date(settings.git_date, *now, sde),
                precision: settings.lastmod_precision,
                commits: *commits,
                hugo_keys: settings.hugo_lastmod,
            })
        })
    }

    /// Every route is made: each route's lastmod (list pages rolled up), how git dated them,
    /// and what reading git history had to say (warnings, then notes).
    pub fn finish(mut self, routes: &[Route]) -> (Assigned, Option<GitReport>, HistoryRead) {
        self.own();
        let assigned = self.own.map(|own| own.finish(routes)).unwrap_or_default();
        let (exact, unreached) = assigned.git_counts;
        let report = self.read.report(exact, unreached);
        (assigned, report, self.read)
    }
}

impl RouteSink for Dating<'_> {
    fn made(&mut self, routing: &Routing, k: usize, page: usize, meta: &PageMeta) {
        let file = self.files.get(page);
        let route = &routing.routes[k];
        self.own().add(k, route, file, &Dated::of(meta, route));
    }
}

/// Rolls dates up in dependency order, a route's own rollup members first (iterative DFS):
/// a list page without a date written down takes the newest date of everything below it,
/// however deep, a dated section below it counting with its own date and with the pages
/// below that (as Hugo dates sections).
fn roll_up(routes: &[Route], lastmods: &mut [Option<Lastmod>], file_only: &[bool]) {
    let mut state = vec![0u8; routes.len()]; // 0 new, 1 in progress, 2 done
    // The newest date of each route and everything below it.
    let mut newest: Vec<Option<W3cDate>> = vec![None; routes.len()];
    // One stack for every walk (each ends empty): most walks are one page with nothing below.
    let mut stack = Vec::new();
    for start in 0..routes.len() {
        if state[start] == 2 {
            continue;
        }
        stack.push((start, false));
        while let Some((r, children_done)) = stack.pop() {
            if children_done {
                let below = routes[r].rollup().filter_map(|c| newest[c]).max();
                let own = lastmods[r].map(|l| l.date);
                let own_written =
                    (lastmods[r].is_some() && !file_only[r]) || routes[r].keeps_own_dates();
                if !own_written
                    && let Some(date) = below
                    && lastmods[r].is_none_or(|l| date > l.date)
                {
                    lastmods[r] = Some(Lastmod {
                        date,
                        origin: Origin::Rollup,
                    });
                }
                newest[r] = own.max(below).max(lastmods[r].map(|l| l.date));
                state[r] = 2;
                continue;
            }
            if state[r] != 0 {
                continue;
            }
            state[r] = 1;
            stack.push((r, true));
            for c in routes[r].rollup() {
                if state[c] == 0 {
                    stack.push((c, false));
                }
            }
        }
    }
}

/// The first date `sources` give the page; `git_seen` is set to what version control said
/// when the git source was asked.
fn own_lastmod(
    file: Option<SourceFile>,
    page: &Dated,
    route: &Route,
    input: &LastmodInput,
    sources: &[LastmodSource],
    git_seen: &mut Option<FileHistory>,
) -> Option<Lastmod> {
    let mut history = None;
    for src in sources {
        let found = match src {
            LastmodSource::FrontMatter => page
                .updated
                .or(route.file_date().filter(|_| input.hugo_keys))
                .map(|d| (d, Origin::FrontMatter)),
            LastmodSource::HugoKeys(k) => page
                .lastmod_more
                .get(usize::from(*k).saturating_sub(1))
                .copied()
                .flatten()
                .map(|d| (d, Origin::FrontMatter)),
            LastmodSource::Published => page
                .date
                .or(page.publish_date)
                .or(route.file_date())
                .map(|d| (d, Origin::Published)),
            // A file-name date the generator takes as the page's date counts as its `date`.
            LastmodSource::Date => page
                .date
                .or(route.file_date())
                .map(|d| (d, Origin::Published)),
            LastmodSource::PublishDate => page.publish_date.map(|d| (d, Origin::Published)),
            LastmodSource::FileName => route
                .file_date()
                .or_else(|| file.and_then(|f| name_date(&f.path())))
                .map(|d| (d, Origin::Published)),
            // A page made without a file has no history.
            LastmodSource::Git => {
                let Some(file) = file else { continue };
                let state = *history.get_or_insert_with(|| input.history.state(&file.path()));
                *git_seen = Some(state);
                match state {
                    // A page does not change before it is published: a commit dated before
                    // the page's own date (written ahead, dated for its publication) gives
                    // way to that date.
                    FileHistory::Committed(d) => {
                        match page.date.or(page.publish_date).or(route.file_date()) {
                            Some(p) if p.instant() > d.instant() && !p.is_after(input.now) => {
                                Some((p, Origin::Published))
                            }
                            _ => Some((d, Origin::Git)),
                        }
                    }
                    // Not committed yet: the date its commit will carry, so that the sitemap
                    // written before the commit still holds after it.
                    FileHistory::Uncommitted => Some((input.pending_commit, Origin::Git)),
                    _ => None,
                }
            }
            LastmodSource::Mtime => {
                let Some(file) = file else { continue };
                let h = *history.get_or_insert_with(|| input.history.state(&file.path()));
                // Inside git a committed file's mtime is its checkout time: meaningless.
                if matches!(h, FileHistory::Uncommitted | FileHistory::Untracked) {
                    mtime(&file.path(), input.source_date_epoch).map(|d| (d, Origin::Mtime))
                } else {
                    None
                }
            }
        };
        // Front matter dates are checked where they are read; a commit's or a file's date
        // (a commit made with a +23:59 zone, a clock set to year 0) is checked here, and the
        // next source is tried instead.
        if let Some((date, origin)) = found.filter(|(d, _)| d.is_writable()) {
            return Some(Lastmod { date, origin });
        }
    }
    None
}

/// The `YYYY-MM-DD` a file name starts with (a bundle's `index.md` takes its folder's name),
/// as Hugo's `:filename` reads it.
fn name_date(path: &Path) -> Option<W3cDate> {
    let stem = path.file_stem()?.to_str()?;
    let name = if stem == "index" || stem.starts_with("index.") {
        path.parent()?.file_name()?.to_str()?
    } else {
        stem
    };
    let head = name.get(..10)?;
    NaiveDate::parse_from_str(head, "%Y-%m-%d")
        .ok()
        .map(W3cDate::from_date)
}

/// A file's mtime as a UTC date-time, capped at `SOURCE_DATE_EPOCH`.
pub fn mtime(path: &Path, cap: Option<DateTime<Utc>>) -> Option<W3cDate> {
    let t: SystemTime = std::fs::metadata(path).and_then(|m| m.modified()).ok()?;
    let mut dt: DateTime<Utc> = t.into();
    if let Some(cap) = cap {
        dt = dt.min(cap);
    }
    // Whole seconds: sub-second mtimes would make output differ between identical checkouts.
    let secs = dt.timestamp();
    DateTime::from_timestamp(secs, 0).map(|d| W3cDate::from_datetime(d.fixed_offset()))
}

/// `d` as finely as `precision` asks: a day is the date in the date's own offset (a commit's
/// zone, as `git log` shows it).
pub fn to_precision(d: W3cDate, precision: Precision) -> W3cDate {
    match precision {
        Precision::Day => W3cDate::from_date(d.date()),
        Precision::Second => d,
    }
}

/// The date the commit of an uncommitted file will carry, as near as can be known: the date
/// git is told to use (`GIT_COMMITTER_DATE`, or `GIT_AUTHOR_DATE` for `git_date = "author"`),
/// else `now` in the local zone (as git stamps it), never past `SOURCE_DATE_EPOCH`.
pub fn pending_commit_date(
    kind: GitDateKind,
    now: DateTime<Utc>,
    sde: Option<DateTime<Utc>>,
) -> W3cDate {
    let var = match kind {
        GitDateKind::Committer => "GIT_COMMITTER_DATE",
        GitDateKind::Author => "GIT_AUTHOR_DATE",
    };
    let told = std::env::var(var).ok().and_then(|v| git_env_date(&v));
    let now = told.unwrap_or_else(|| now.with_timezone(&chrono::Local).fixed_offset());
    let now = match sde {
        Some(cap) if now.timestamp() > cap.timestamp() => cap.fixed_offset(),
        _ => now,
    };
    let secs = DateTime::from_timestamp(now.timestamp(), 0)
        .map(|d| d.with_timezone(now.offset()))
        .unwrap_or(now);
    W3cDate::from_datetime(secs)
}

/// A date in the forms git takes in its date variables: ISO 8601 / RFC 3339, RFC 2822, and
/// its internal `[@]<seconds> <+hhmm>`.
fn git_env_date(v: &str) -> Option<DateTime<chrono::FixedOffset>> {
    let v = v.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(v).or_else(|_| DateTime::parse_from_rfc2822(v)) {
        return Some(d);
    }
    let (secs, zone) = v.trim_start_matches('@').split_once(' ')?;
    let secs: i64 = secs.parse().ok()?;
    let zone: i32 = zone.parse().ok()?;
    let offset = chrono::FixedOffset::east_opt((zone / 100 * 60 + zone % 100) * 60)?;
    Some(DateTime::from_timestamp(secs, 0)?.with_timezone(&offset))
}

/// `SOURCE_DATE_EPOCH` from the environment, when set to a number of seconds.
pub fn source_date_epoch() -> Option<DateTime<Utc>> {
    let v = std::env::var("SOURCE_DATE_EPOCH").ok()?;
    DateTime::from_timestamp(v.trim().parse().ok()?, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::MetaMore;
    use crate::route::Page;
    use crate::vocab::date::SiteTz;
    use chrono::TimeZone;

    fn d(s: &str) -> W3cDate {
        W3cDate::parse(s, &SiteTz::Utc).unwrap()
    }

    /// A page before it joins the others: its content folder, relative path and front matter.
    struct OnePage {
        file: (std::path::PathBuf, &'static str),
        fm: PageMeta,
    }

    fn file(
        root: impl Into<std::path::PathBuf>,
        rel: &'static str,
    ) -> (std::path::PathBuf, &'static str) {
        (root.into(), rel)
    }

    fn page(fm: PageMeta) -> OnePage {
        OnePage {
            file: file("/nonexistent", "a.md"),
            fm,
        }
    }

    /// Files with their front matter, as routing sees them.
    struct TestPages {
        files: Files,
        meta: Vec<PageMeta>,
    }

    impl TestPages {
        fn get(&self, i: usize) -> Page<'_> {
            Page {
                file: self.files.get(i),
                fm: &self.meta[i],
                terms: Default::default(),
            }
        }
    }

    fn pages_of(list: Vec<OnePage>) -> TestPages {
        let mut pages = TestPages {
            files: Files::new(),
            meta: Vec::new(),
        };
        for p in list {
            let root = crate::scan::ContentRoot {
                dir: p.file.0,
                lang: None,
                ..Default::default()
            };
            pages.files.push(&root, p.file.1).unwrap();
            pages.meta.push(p.fm);
        }
        pages
    }

    fn dated(pages: &TestPages) -> Vec<Dated> {
        pages.meta.iter().map(Dated::from).collect()
    }

    fn input<'a>(sources: &'a [LastmodSource], h: &'a dyn History) -> LastmodInput<'a> {
        LastmodInput {
            sources,
            history: Box::new(move |p: &Path| h.state(p)),
            now: Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).unwrap(),
            source_date_epoch: None,
            pending_commit: d("2024-05-31T12:00:00+02:00"),
            precision: Precision::Second,
            commits: false,
            hugo_keys: false,
        }
    }

    #[test]
    fn follows_the_source_order() {
        let pages = pages_of(vec![
            page(PageMeta {
                updated: Some(d("2023-03-03")),
                date: Some(d("2021-01-01")),
                ..Default::default()
            }),
            page(PageMeta {
                date: Some(d("2021-01-01")),
                ..Default::default()
            }),
            page(PageMeta::default()),
        ]);
        let routes: Vec<Route> = (0..3)
            .map(|i| {
                Route::for_page(
                    i,
                    &pages.get(i),
                    Kind::Page,
                    format!("/{i}/"),
                    "en",
                    i.to_string(),
                )
                .route
            })
            .collect();
        let git = |_: &Path| FileHistory::Committed(d("2022-02-02T10:00:00Z"));
        let order = crate::settings::DEFAULT_LASTMOD;
        let got = assign(&routes, &pages.files, &dated(&pages), input(&order, &git));
        let shown: Vec<_> = got
            .lastmods
            .iter()
            .map(|l| l.map(|l| (l.date.to_string(), l.origin)))
            .collect();
        assert_eq!(shown[0], Some(("2023-03-03".into(), Origin::FrontMatter)));
        assert_eq!(
            shown[1],
            Some(("2022-02-02T10:00:00+00:00".into(), Origin::Git))
        );
        let published_first = [LastmodSource::Published, LastmodSource::Git];
        let got = assign(
            &routes,
            &pages.files,
            &dated(&pages),
            input(&published_first, &git),
        );
        assert_eq!(got.lastmods[1].unwrap().origin, Origin::Published);
        assert_eq!(
            assign(&routes, &pages.files, &dated(&pages), input(&[], &git)).lastmods,
            vec![None, None, None]
        );
    }

    #[test]
    fn never_uses_mtime_for_committed_or_unknown_files() {
        let pages = pages_of(vec![page(PageMeta::default())]);
        let routes = vec![
            Route::for_page(0, &pages.get(0), Kind::Page, "/a/".into(), "en", "a".into()).route,
        ];
        let unknown = |_: &Path| FileHistory::Unknown;
        // The file does not exist, so even an allowed mtime yields nothing; the point is that
        // Unknown never reaches for it.
        assert_eq!(
            assign(
                &routes,
                &pages.files,
                &dated(&pages),
                input(&[LastmodSource::Mtime], &unknown)
            )
            .lastmods[0],
            None
        );
    }

    #[test]
    fn mtime_is_used_for_uncommitted_files_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "x").unwrap();
        let mut p = page(PageMeta::default());
        p.file = file(dir.path(), "a.md");
        let pages = pages_of(vec![p]);
        let routes = vec![
            Route::for_page(0, &pages.get(0), Kind::Page, "/a/".into(), "en", "a".into()).route,
        ];
        let unc = |_: &Path| FileHistory::Uncommitted;
        let cap = Utc.with_ymd_and_hms(2001, 1, 1, 0, 0, 0).unwrap();
        let mut inp = input(&[LastmodSource::Mtime], &unc);
        inp.now = Utc::now() + chrono::Duration::days(1);
        inp.source_date_epoch = Some(cap);
        let got = assign(&routes, &pages.files, &dated(&pages), inp).lastmods[0].unwrap();
        assert_eq!(got.date.to_string(), "2001-01-01T00:00:00+00:00");
        assert_eq!(got.origin, Origin::Mtime);
    }

    #[test]
    fn a_commit_date_the_schemas_refuse_gives_way_to_the_next_source() {
        let pages = pages_of(vec![page(PageMeta {
            date: Some(d("2021-01-01")),
            ..Default::default()
        })]);
        let routes = vec![
            Route::for_page(0, &pages.get(0), Kind::Page, "/a/".into(), "en", "a".into()).route,
        ];
        let zone = chrono::FixedOffset::east_opt(23 * 3600 + 59 * 60).unwrap();
        let odd = W3cDate::from_datetime(zone.with_ymd_and_hms(2022, 2, 2, 10, 0, 0).unwrap());
        let git = move |_: &Path| FileHistory::Committed(odd);
        let order = [LastmodSource::Git, LastmodSource::Published];
        let got = assign(&routes, &pages.files, &dated(&pages), input(&order, &git)).lastmods[0];
        assert_eq!(
            got.map(|l| (l.date.to_string(), l.origin)),
            Some(("2021-01-01".into(), Origin::Published))
        );
    }

    #[test]
    fn clamps_future_dates_with_a_warning_and_rolls_up() {
        let pages = pages_of(vec![
            page(PageMeta::default()),
            page(PageMeta {
                updated: Some(d("2099-01-01")),
                ..Default::default()
            }),
            page(PageMeta {
                updated: Some(d("2020-01-01")),
                ..Default::default()
            }),
        ]);
        let mut routes: Vec<Route> = (0..3)
            .map(|i| {
                Route::for_page(
                    i,
                    &pages.get(i),
                    Kind::Page,
                    format!("/{i}/"),
                    "en",
                    i.to_string(),
                )
                .route
            })
            .collect();
        routes[0].add_rollup([1, 2]);
        let none = |_: &Path| FileHistory::Untracked;
        let got = assign(
            &routes,
            &pages.files,
            &dated(&pages),
            input(&[LastmodSource::FrontMatter], &none),
        );
        assert_eq!(got.lastmods[1].unwrap().date.to_string(), "2024-06-01");
        assert_eq!(got.warnings.len(), 1);
        assert!(got.warnings[0].contains("a.md") && got.warnings[0].contains("2099-01-01"));
        assert_eq!(
            got.lastmods[0].unwrap(),
            Lastmod {
                date: d("2024-06-01"),
                origin: Origin::Rollup
            }
        );
    }

    #[test]
    fn hugo_sources_read_one_date_each() {
        let mut named = page(PageMeta {
            date: Some(d("2021-01-01")),
            more: Some(Box::new(MetaMore {
                publish_date: Some(d("2022-02-02")),
                ..Default::default()
            })),
            ..Default::default()
        });
        named.file = file("/site/content", "post/2020-05-06-hello/index.md");
        let pages = pages_of(vec![named]);
        let routes = vec![
            Route::for_page(0, &pages.get(0), Kind::Page, "/p/".into(), "en", "p".into()).route,
        ];
        let none = |_: &Path| FileHistory::Untracked;
        let first = |src: LastmodSource| {
            assign(&routes, &pages.files, &dated(&pages), input(&[src], &none)).lastmods[0]
                .map(|l| l.date.to_string())
        };
        assert_eq!(first(LastmodSource::Date).unwrap(), "2021-01-01");
        assert_eq!(first(LastmodSource::PublishDate).unwrap(), "2022-02-02");
        assert_eq!(first(LastmodSource::FileName).unwrap(), "2020-05-06");
        assert_eq!(name_date(Path::new("/c/2020-13-01-x.md")), None);
        assert_eq!(name_date(Path::new("/c/é.md")), None);
    }
}
