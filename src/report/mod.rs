//! `sitemapgen report`: everything one run knows, gathered for a person. What is listed
//! (the URL tree by section, each page's lastmod and where it came from), how healthy the
//! dates are, every page left out with the place that left it out and what to change, the
//! host's and robots.txt's decisions, the audit, and what changed since an older sitemap.
//!
//! [`gather`] turns a run into a [`Report`] (plain values); [`html`] and [`markdown`] write
//! it out; [`save`] puts the HTML file in place without ever writing over a file of the
//! user's.

mod html;
mod markdown;
mod places;

pub use html::html;
pub use markdown::markdown;

use crate::lastmod::Origin;
use crate::pipeline::Outcome;
use crate::route::Reason;
use crate::settings::Settings;
use crate::siteconfig::Style;
use crate::sitemap::diff::{Diff, Moved};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};
use crate::vocab::fswrite;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// The first bytes of every report file: how [`save`] knows a file it may replace.
pub const MARK: &str = "<!DOCTYPE html>\n<!-- sitemapgen report -->\n";

/// The most groups of pages sharing one date the report shows.
const MAX_DATE_GROUPS: usize = 8;

/// What the report needs beyond the run: the day it is made, what git says of the commits
/// behind dates, and the older sitemap to compare with.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    /// The moment the report is made: later lastmods are in the future.
    pub now: Option<DateTime<Utc>>,
    /// Each git-dating commit's subject line, keyed by the short hash the run gave.
    pub subjects: HashMap<String, String>,
    /// The author date of the repository's first commit, when its whole history is at hand.
    pub first_commit: Option<NaiveDate>,
    /// What `--against` named, and the difference from it to this run.
    pub against: Option<(&'a str, &'a Diff)>,
}

impl Context<'_> {
    /// Asks git (in the site's folder) for the subjects of the commits that dated pages and
    /// for the repository's first commit.
    pub fn read_git(&mut self, settings: &Settings, outcome: &Outcome) {
        if outcome.git.is_none() {
            return;
        }
        let hashes = outcome.listed.iter().filter_map(|l| l.commit.as_deref());
        self.subjects = crate::lastmod::subjects::commit_subjects(&settings.site_dir, hashes);
        self.first_commit = crate::lastmod::subjects::first_commit(&settings.site_dir);
    }
}

/// Everything the report shows, in the order it shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The site's base URL.
    pub base_url: String,
    /// `Zola`, `Hugo 0.168.0` or `plain`.
    pub generator: String,
    /// The day it was made, when known.
    pub today: Option<NaiveDate>,
    /// The counts at the top.
    pub totals: Totals,
    /// Listed URLs by section, sections in URL order.
    pub sections: Vec<Section>,
    /// How the dates look.
    pub health: Health,
    /// Pages left out, one group per reason, in reason order.
    pub left_out: Vec<LeftOutGroup>,
    /// sitemap.toml's `exclude` globs, with where they are written: the files they match
    /// are never read, so no page of theirs is counted above.
    pub exclude_globs: Vec<String>,
    /// What the site's files decided (host, rule files passed over, robots.txt, git dates).
    pub decisions: Vec<String>,
    /// The run's warnings, at most a few of each kind (with a line saying how many more).
    pub warnings: Vec<String>,
    /// How many warnings the run gave.
    pub warning_count: usize,
    /// What the audit of the built output did.
    pub audit: Audit,
    /// The difference from an older sitemap (`--against`).
    pub changes: Option<Changes>,
}

/// The counts at the top of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totals {
    /// URLs listed.
    pub urls: usize,
    /// Content files read.
    pub files: usize,
    /// The site's languages (its default first).
    pub languages: Vec<String>,
    /// Pages left out (bundle resources not counted).
    pub left_out: usize,
    /// The sitemap (or index) files that name the URLs.
    pub sitemaps: Vec<String>,
}

/// The listed URLs under one section of the site (`/blog/`, `/fr/blog/`, `/` for pages at
/// the top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The section's path.
    pub path: String,
    /// Its URLs, in URL order.
    pub rows: Vec<Row>,
}

/// One listed URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The absolute URL.
    pub loc: String,
    /// Its lastmod.
    pub lastmod: Option<W3cDate>,
    /// Where the lastmod came from, in words (`git 1a2b3c4d5e: Fix a typo`): one string
    /// shared by the rows of one source or commit.
    pub source: Arc<str>,
    /// Whether the date is a rollup of the pages below (which are named already).
    pub rollup: bool,
    /// The content file behind it (none for generated pages).
    pub file: Option<String>,
    /// Its language versions (`hreflang`, URL), its own left out.
    pub alternates: Vec<(String, String)>,
}

/// How the lastmods look.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// Dated URLs per day or per month, oldest first, every bucket between present.
    pub histogram: Vec<Bar>,
    /// Whether the buckets are days (a short span) or months.
    pub by_day: bool,
    /// URLs with no lastmod.
    pub undated: usize,
    /// The days the most URLs share, with what gave them that date.
    pub groups: Vec<DateGroup>,
    /// URLs dated after today.
    pub future: Vec<(String, String)>,
    /// URLs dated before the repository's first commit (a date typed wrong, or an import).
    pub before_history: Vec<(String, String)>,
    /// The repository's first commit, when known.
    pub first_commit: Option<NaiveDate>,
}

/// One bar of the histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    /// `2024-03` or `2024-03-10`.
    pub label: String,
    /// URLs dated then.
    pub count: usize,
}

/// URLs that share one day, and what gave it to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateGroup {
    /// The day, `YYYY-MM-DD`.
    pub day: String,
    /// URLs dated that day.
    pub count: usize,
    /// What dated them (a source in words, how many), most first.
    pub causes: Vec<(String, usize)>,
}

/// The pages left out for one reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOutGroup {
    /// The reason.
    pub reason: Reason,
    /// What it means, in a sentence.
    pub meaning: &'static str,
    /// What to change to list such a page.
    pub fix: &'static str,
    /// The pages.
    pub pages: Vec<LeftOut>,
}

/// One page left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// The content file (none for a generated page).
    pub file: Option<String>,
    /// Where the decision is written: `file:line` of the front matter key, or the host rule,
    /// robots.txt line or sitemap.toml rule.
    pub place: Option<String>,
    /// The URL it would have had, when known.
    pub url: Option<String>,
    /// What the audit or the host found, in a sentence.
    pub detail: Option<String>,
}

/// What the audit of the built output did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// Whether it ran.
    pub ran: bool,
    /// URLs it left out, by reason.
    pub left_out: Vec<(Reason, usize)>,
    /// Pages it kept listed because the output was older than their source.
    pub kept: usize,
}

/// What changed since an older sitemap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changes {
    /// The older sitemap, as named.
    pub against: String,
    /// URLs only this run lists.
    pub added: Vec<String>,
    /// URLs only the older sitemap lists.
    pub removed: Vec<String>,
    /// URLs whose lastmod moved.
    pub redated: Vec<Moved>,
}

/// Gathers what `outcome` knows into a report.
pub fn gather(settings: &Settings, outcome: &Outcome, cx: &Context<'_>) -> Report {
    let languages = languages(settings);
    let sections = sections(outcome, cx, &languages);
    let health = health(sections.iter().flat_map(|s| &s.rows), cx);
    Report {
        base_url: settings.base_url.to_string(),
        generator: generator(settings),
        today: cx.now.map(|n| n.date_naive()),
        totals: Totals {
            urls: outcome.entries.len(),
            files: outcome.pages_read,
            languages,
            left_out: crate::summary::left_out_total(outcome),
            sitemaps: crate::summary::sitemap_paths(settings, outcome)
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
        },
        sections,
        health,
        left_out: left_out(settings, outcome),
        exclude_globs: exclude_globs(settings),
        decisions: outcome.decisions.clone(),
        warnings: crate::summary::capped(
            &outcome
                .warnings
                .iter()
                .map(|w| crate::summary::Warning::parse(w))
                .collect::<Vec<_>>(),
        )
        .iter()
        .map(ToString::to_string)
        .collect(),
        warning_count: outcome.warnings.len(),
        audit: Audit {
            ran: outcome.audited,
            left_out: crate::summary::audited_by_reason(outcome)
                .into_iter()
                .collect(),
            kept: outcome.audit_kept,
        },
        changes: cx.against.map(|(name, d)| Changes {
            against: name.to_string(),
            added: d.added.clone(),
            removed: d.removed.clone(),
            redated: d.moved.clone(),
        }),
    }
}

/// Writes the report's HTML to `path`: a new file, or in place of a report written before
/// (one that starts with [`MARK`]); any other file there is the user's, and an error. The
/// text goes to a temporary file beside it first, so a failed write leaves the old file.
pub fn save(path: &Path, text: &str) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() || !starts_with_mark(path) => {
            return Err(Error::Config {
                path: path.to_path_buf(),
                line: None,
                message: "a file that is not a sitemapgen report is already there, and it is never written over: name another file with --out, or move that one".into(),
            });
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(path, e)),
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy());
    let (mut file, temp) = fswrite::create_temp(dir, &name).map_err(|e| Error::io(dir, e))?;
    // Written as the sitemaps are: the rename makes it whole, with no wait for the disk.
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = written {
        // The temporary file is ours; the error that matters is the write's.
        let _ = std::fs::remove_file(&temp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// Whether the file at `path` begins as a report does.
fn starts_with_mark(path: &Path) -> bool {
    let mut head = [0u8; MARK.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == MARK.as_bytes()
}

/// `Zola`, `Hugo 0.168.0` (the release the rules follow), or `plain`.
fn generator(settings: &Settings) -> String {
    match settings.site.style {
        Style::Hugo => format!("Hugo {}", settings.hugo.version),
        Style::Zola => "Zola".into(),
        Style::Plain | Style::Auto => "plain (a file's path is its URL)".into(),
    }
}

/// The site's languages, its default first, the disabled ones left out.
fn languages(settings: &Settings) -> Vec<String> {
    let site = &settings.site;
    let mut out = vec![site.default_language.clone()];
    for l in &site.languages {
        if !out.contains(&l.code) && !site.disabled_languages.contains(&l.code) {
            out.push(l.code.clone());
        }
    }
    out
}

/// The listed URLs grouped by section: the first folder of the URL's path, or the first two
/// when the first is a language's. A section that holds only its own page (`/about/`) is a
/// page at the top: it joins `/` (or its language's home), unless it is a language's home.
fn sections(outcome: &Outcome, cx: &Context<'_>, languages: &[String]) -> Vec<Section> {
    // The words for each source and commit, made once and shared by their rows.
    let mut words: HashMap<(Option<Origin>, Option<&str>), Arc<str>> = HashMap::new();
    for l in &outcome.listed {
        let (origin, commit) = source_key(l);
        words
            .entry((origin, commit))
            .or_insert_with(|| source_words(origin, commit, &cx.subjects).into());
    }
    // The rows on every core (a large site has a hundred thousand), then grouped in order.
    let view = outcome.entries.view();
    let rows: Vec<Row> = view
        .list()
        .par_iter()
        .zip(outcome.listed.par_iter())
        .map(|(e, listed)| {
            let loc = view.loc(e).to_string();
            let k = source_key(listed);
            Row {
                lastmod: e.lastmod,
                source: words.get(&k).cloned().unwrap_or_else(|| Arc::from("none")),
                rollup: k.0 == Some(Origin::Rollup),
                file: listed.source.as_ref().map(|f| f.display().to_string()),
                alternates: e
                    .alternates()
                    .iter()
                    .filter(|a| a.href != loc)
                    .map(|a| (a.hreflang.clone(), a.href.clone()))
                    .collect(),
                loc,
            }
        })
        .collect();
    let mut by_path: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for row in rows {
        let section = section_of(url_path(&row.loc), languages);
        match by_path.get_mut(section) {
            Some(rows) => rows.push(row),
            None => {
                by_path.insert(section.to_string(), vec![row]);
            }
        }
    }
    let lone: Vec<String> = by_path
        .iter()
        .filter(|(path, rows)| {
            let language_home = languages.iter().any(|l| path.trim_matches('/') == l);
            rows.len() == 1
                && url_path(&rows[0].loc) == path.as_str()
                && path.len() > 1
                && !language_home
        })
        .map(|(path, _)| path.clone())
        .collect();
    for path in lone {
        let parent = match path.trim_matches('/').rsplit_once('/') {
            Some((up, _)) => format!("/{up}/"),
            None => "/".to_string(),
        };
        if parent == path {
            continue;
        }
        if let Some(rows) = by_path.remove(&path) {
            let into = by_path.entry(parent).or_default();
            into.extend(rows);
            into.sort_by(|a, b| a.loc.cmp(&b.loc));
        }
    }
    by_path
        .into_iter()
        .map(|(path, rows)| Section { path, rows })
        .collect()
}

/// What a row's source words depend on: the origin, and the commit for a git date.
fn source_key(l: &crate::pipeline::Listed) -> (Option<Origin>, Option<&str>) {
    let origin = l.lastmod.map(|l| l.origin);
    (
        origin,
        l.commit.as_deref().filter(|_| origin == Some(Origin::Git)),
    )
}

/// A commit subject cut to a line's length.
fn shortened(subject: &str) -> String {
    const MAX: usize = 90;
    match subject.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", subject[..end].trim_end()),
        None => subject.to_string(),
    }
}

/// The path of an absolute URL (`/` when it has none), without query or fragment.
fn url_path(loc: &str) -> &str {
    let path = loc
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or("/");
    path.split(['?', '#']).next().unwrap_or(path)
}

/// `/blog/` for `/blog/post/`, `/fr/blog/` when `fr` is a language, `/` for the home page
/// and a file at the top (`/404.html`): always the start of `path`.
fn section_of<'p>(path: &'p str, languages: &[String]) -> &'p str {
    let mut parts = path.split('/').filter(|p| !p.is_empty());
    let depth = match parts.next() {
        Some(first) if languages.iter().any(|l| l.eq_ignore_ascii_case(first)) => 2,
        _ => 1,
    };
    // The end of each folder: a `/` that follows a name (the last name is the page itself
    // unless the path ends in a slash).
    let mut end = 1;
    let mut taken = 0;
    for (i, b) in path.bytes().enumerate().skip(1) {
        if b == b'/' && path.as_bytes()[i - 1] != b'/' {
            end = i + 1;
            taken += 1;
            if taken == depth {
                break;
            }
        }
    }
    &path[..end.min(path.len())]
}

/// The words for a lastmod source: `git 1a2b3c4d5e: Fix a typo` for a commit.
fn source_words(
    origin: Option<Origin>,
    commit: Option<&str>,
    subjects: &HashMap<String, String>,
) -> String {
    match (origin, commit) {
        (Some(Origin::Git), Some(commit)) => match subjects.get(commit) {
            Some(subject) => format!("git {commit}: {}", shortened(subject)),
            None => format!("git {commit}"),
        },
        (Some(origin), _) => origin_words(origin).to_string(),
        (None, _) => "none".into(),
    }
}

/// A lastmod source in words.
fn origin_words(o: Origin) -> &'static str {
    match o {
        Origin::FrontMatter => "front matter",
        Origin::Git => "git",
        Origin::Published => "publication date",
        Origin::Mtime => "file modification time",
        Origin::Rollup => "rollup (the newest page below)",
    }
}

/// The histogram, the largest same-day groups, and dates out of bounds.
fn health<'a>(rows: impl Iterator<Item = &'a Row>, cx: &Context<'_>) -> Health {
    let mut h = Health {
        first_commit: cx.first_commit,
        ..Health::default()
    };
    let mut days: BTreeMap<NaiveDate, (usize, BTreeMap<Arc<str>, usize>)> = BTreeMap::new();
    for row in rows {
        let Some(date) = row.lastmod else {
            h.undated += 1;
            continue;
        };
        let day = date.date();
        let slot = days.entry(day).or_default();
        slot.0 += 1;
        *slot.1.entry(Arc::clone(&row.source)).or_default() += 1;
        if cx.now.is_some_and(|now| date.is_after(now)) {
            h.future.push((row.loc.clone(), date.to_string()));
        }
        // A rollup repeats the date of a page below, which is named already.
        if cx.first_commit.is_some_and(|f| day < f) && !row.rollup {
            h.before_history.push((row.loc.clone(), date.to_string()));
        }
    }
    if let (Some(first), Some(last)) = (days.keys().next(), days.keys().next_back()) {
        h.by_day = (*last - *first).num_days() <= 62;
        h.histogram = bars(&days, *first, *last, h.by_day);
    }
    let mut groups: Vec<DateGroup> = days
        .iter()
        .filter(|(_, (n, _))| *n > 1)
        .map(|(day, (count, causes))| {
            let mut causes: Vec<(String, usize)> =
                causes.iter().map(|(c, n)| (c.to_string(), *n)).collect();
            causes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            DateGroup {
                day: day.format("%Y-%m-%d").to_string(),
                count: *count,
                causes,
            }
        })
        .collect();
    groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| b.day.cmp(&a.day)));
    groups.truncate(MAX_DATE_GROUPS);
    h.groups = groups;
    h
}

/// Every day (or month) from `first` to `last` with its count, zero where none.
fn bars(
    days: &BTreeMap<NaiveDate, (usize, BTreeMap<Arc<str>, usize>)>,
    first: NaiveDate,
    last: NaiveDate,
    by_day: bool,
) -> Vec<Bar> {
    if by_day {
        return first
            .iter_days()
            .take_while(|d| *d <= last)
            .map(|d| Bar {
                label: d.format("%Y-%m-%d").to_string(),
                count: days.get(&d).map_or(0, |x| x.0),
            })
            .collect();
    }
    let mut months: BTreeMap<(i32, u32), usize> = BTreeMap::new();
    for (d, (n, _)) in days {
        *months.entry((d.year(), d.month())).or_default() += n;
    }
    let (mut y, mut m) = (first.year(), first.month());
    let mut out = Vec::new();
    while (y, m) <= (last.year(), last.month()) {
        out.push(Bar {
            label: format!("{y:04}-{m:02}"),
            count: months.get(&(y, m)).copied().unwrap_or(0),
        });
        (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    }
    out
}

/// The pages left out, grouped by reason; bundle resources (never pages) are not shown.
fn left_out(settings: &Settings, outcome: &Outcome) -> Vec<LeftOutGroup> {
    let mut groups: BTreeMap<Reason, Vec<LeftOut>> = BTreeMap::new();
    for s in &outcome.skipped {
        if s.reason == Reason::NotAPage {
            continue;
        }
        let place = match (&s.rule, &s.file) {
            (Some(rule), _) => Some(rule.to_string()),
            (None, Some(file)) if !s.audited => places::place(file, s.reason),
            _ => None,
        };
        groups.entry(s.reason).or_default().push(LeftOut {
            file: s.file.as_ref().map(|f| f.display().to_string()),
            place,
            url: s.url.clone(),
            // An excluded page's rule is its place already.
            detail: s.explain().filter(|_| s.reason != Reason::ExcludedByConfig),
        });
    }
    groups
        .into_iter()
        .map(|(reason, pages)| {
            let (meaning, fix) = advice(reason, settings.site.style);
            LeftOutGroup {
                reason,
                meaning,
                fix,
                pages,
            }
        })
        .collect()
}

/// `sitemap.toml:3: exclude "drafts/**"` for each `exclude` glob.
fn exclude_globs(settings: &Settings) -> Vec<String> {
    let file = settings.config_file.as_deref();
    let text = file
        .and_then(|f| crate::vocab::fsread::read_string(f, crate::vocab::limits::MAX_CONFIG).ok());
    settings
        .exclude
        .iter()
        .map(|glob| {
            let line = text.as_deref().and_then(|t| {
                t.lines()
                    .position(|l| {
                        l.contains(&format!("\"{glob}\"")) || l.contains(&format!("'{glob}'"))
                    })
                    .map(|i| i + 1)
            });
            match (file, line) {
                (Some(f), Some(l)) => format!("{}:{l}: exclude \"{glob}\"", f.display()),
                (Some(f), None) => format!("{}: exclude \"{glob}\"", f.display()),
                (None, _) => format!("exclude \"{glob}\""),
            }
        })
        .collect()
}

/// What a reason means and what to change to list such a page.
fn advice(reason: Reason, style: Style) -> (&'static str, &'static str) {
    let hugo = style == Style::Hugo;
    match reason {
        Reason::Draft => (
            "Drafts are not published.",
            if hugo {
                "Remove `draft: true` (or set it to false) in the front matter, or build with --buildDrafts and run sitemapgen with --drafts."
            } else {
                "Remove `draft = true` (or set it to false) in the front matter, or build with --drafts and run sitemapgen with --drafts."
            },
        ),
        Reason::Future => (
            "Its publication date is still to come.",
            "It is listed on the first build after that date; to list it now, move the date, or build with future pages and run sitemapgen with --future.",
        ),
        Reason::Expired => (
            "Its expiry date has passed.",
            "Move or remove the expiry date in the front matter, or build with expired pages and run sitemapgen with --expired.",
        ),
        Reason::SitemapOff => (
            "Its front matter keeps it out of sitemaps.",
            "Remove the sitemap setting (`sitemap = false`, `sitemap: {disable: true}`) from the front matter.",
        ),
        Reason::NotRendered => (
            "The generator writes no page for it.",
            "Let the generator render it: remove `render = false`, `headless`, or the `_build`/`build` options that turn the page off.",
        ),
        Reason::Redirect => (
            "It redirects to another URL, which is what gets listed.",
            "Nothing to change: a redirect never belongs in a sitemap. List the target instead.",
        ),
        Reason::ExcludedByConfig => (
            "A rule of sitemap.toml excludes it.",
            "Narrow or remove the rule named here in sitemap.toml.",
        ),
        Reason::NotAPage => (
            "The generator does not publish it as a page.",
            "Nothing to change: it is a resource of a page, or in a language the site does not have.",
        ),
        Reason::Duplicate => (
            "Another file publishes at the same URL, which is listed once.",
            "Give one of the files another path, slug or url, so each has its own URL.",
        ),
        Reason::NoHtmlOutput => (
            "The page has no HTML output a visitor can open.",
            "Add HTML to the page's `outputs` in its front matter or the site config.",
        ),
        Reason::NotBuilt => (
            "The built output has no file for this URL.",
            "Build the site (zola build, hugo) before running sitemapgen, or find why the generator skipped the page.",
        ),
        Reason::Noindex => (
            "The page asks search engines not to index it.",
            "Remove `noindex` from its front matter, or the robots noindex meta tag from the built page's head.",
        ),
        Reason::Canonical => (
            "The built page's canonical link points at another URL, which is the one to list.",
            "Point the page's canonical link at its own URL, if this page is the one to index.",
        ),
        Reason::RobotsDisallowed => (
            "The site's robots.txt keeps crawlers away from it.",
            "Remove or narrow the Disallow line named here in robots.txt.",
        ),
    }
}
