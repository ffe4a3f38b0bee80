//! The pipeline, one driver for every style, reading top to bottom as the data flows:
//! config (already resolved into [`Settings`]) -> scan -> front matter -> route -> lastmod
//! -> entries -> audit (the built output) -> write.

mod host;
mod pages;
mod shown;

use crate::audit;
use crate::entries::{self, Entries};
use crate::generator::{Generator, OwnLayout};
use crate::host::Target;
use crate::lastmod::{self, Lastmod};
use crate::route::{self, Reason, RouteContext};
use crate::scan;
use crate::settings::{self, AuditMode, Overrides, Settings, Style};
use crate::siteconfig::Reader;
use crate::sitemap::set_write::{self, Member, SetIndex, SetOptions};
use crate::sitemap::urlset::{self, WriteReport};
use crate::vocab::error::Result;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every generator's config reader, in the order a site's config is looked for: Zola's
/// (`zola.toml`, or a `config.toml` that sets `base_url`), then Hugo's; a site neither
/// claims is plain.
pub const READERS: [&dyn Reader; 3] =
    [&crate::zola::Zola, &crate::hugo::Hugo, &crate::plain::Plain];

/// Reads `sitemap.toml` (the one named, else `SITE/sitemap.toml` with `--site`, else
/// `./sitemap.toml`, when present), the site's own config, and applies the command-line
/// overrides: the settings the command would run with.
///
/// ```
/// # let site = tempfile::tempdir()?;
/// # std::fs::write(site.path().join("hugo.toml"), "baseURL = \"https://example.org/docs/\"\n")?;
/// # std::fs::write(site.path().join("sitemap.toml"), "gzip = true\n")?;
/// use sitemapgen::settings::{Overrides, Style};
///
/// // A Hugo site whose sitemap.toml asks for gzip; the command line adds --drafts.
/// let settings = sitemapgen::load(&Overrides {
///     site: Some(site.path().to_path_buf()),
///     drafts: true,
///     ..Default::default()
/// })?;
/// assert_eq!(settings.style, Style::Hugo);
/// assert_eq!(settings.base_url.as_str(), "https://example.org/docs/");
/// assert!(settings.gzip && settings.include_drafts);
/// assert_eq!(settings.output_dir, site.path().join("public"));
///
/// // A mistake names the file and line, and says what to do.
/// std::fs::write(site.path().join("sitemap.toml"), "gzp = true\n")?;
/// let err = sitemapgen::load(&Overrides {
///     site: Some(site.path().to_path_buf()),
///     ..Default::default()
/// })
/// .unwrap_err();
/// assert!(err.to_string().ends_with("sitemap.toml:1: unknown key `gzp`: did you mean `gzip`?"));
///
/// // An override is named as the field that set it (the command line sets `from_flags`, and
/// // its errors name `--site`).
/// let err = sitemapgen::load(&Overrides {
///     site: Some(site.path().join("nowhere")),
///     ..Default::default()
/// })
/// .unwrap_err();
/// assert!(err.to_string().starts_with("Overrides::site "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load(over: &Overrides) -> Result<Settings> {
    settings::load(over, &READERS)
}

/// The generator whose rules the site follows: its wing, for the settings' style (a site
/// whose style is still `auto` had no config to say, so it is plain).
pub fn generator(style: Style) -> &'static dyn Generator {
    match style {
        Style::Zola => &crate::zola::Zola,
        Style::Hugo => &crate::hugo::Hugo,
        Style::Plain | Style::Auto => &crate::plain::Plain,
    }
}

/// How a run behaves beyond its settings.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// "Now" (tests pin it): future and expired pages, and the lastmod clamp.
    pub now: DateTime<Utc>,
    /// Told how far reading the pages has got (the long stage), for a progress bar.
    pub progress: Option<Progress>,
    /// Fill [`Outcome::listed`] (what `list` prints); off saves a path per URL.
    pub sources: bool,
    /// Called between stages, when a large stage's memory has just been freed: the binary
    /// passes its allocator's trim so the next stage's peak does not stack on it.
    pub between_stages: Option<fn()>,
    /// Fill [`Outcome::unsourced`] (what `list --unsourced` prints) even when
    /// `include_unsourced` is off: the audit then walks the whole output folder.
    pub unsourced: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            now: Utc::now(),
            progress: None,
            sources: true,
            between_stages: None,
            unsourced: false,
        }
    }
}

/// A progress callback, called with `(pages read, pages in total)` from any thread.
#[derive(Clone)]
pub struct Progress(
    /// The callback.
    pub std::sync::Arc<dyn Fn(usize, usize) + Send + Sync>,
);

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
    /// For a git date, the commit that gave it (a short hash, or `uncommitted`).
    pub commit: Option<String>,
}

/// A page left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The content file (`None` for a generated page, such as a term or a pager, that the
    /// audit left out).
    pub file: Option<PathBuf>,
    /// Why.
    pub reason: Reason,
    /// Whether the audit of the built output left it out (else the content or the config).
    pub audited: bool,
    /// The URL: always when the audit left it out; otherwise when the page has one (a draft
    /// has none) and [`RunOptions::sources`] is on.
    pub url: Option<String>,
    /// Where the built page's canonical link or refresh points, or where a host rule
    /// redirects it.
    pub target: Option<Target>,
    /// The host rule, robots.txt line or sitemap.toml `[[rules]]` entry that left it out:
    /// `file:line (rule)`, one string shared by every page the rule leaves out.
    pub rule: Option<Arc<str>>,
}

impl Skipped {
    /// Whether a host rule or robots.txt left it out (a rule of sitemap.toml is the site's own).
    pub fn by_host(&self) -> bool {
        self.rule.is_some() && self.reason != Reason::ExcludedByConfig
    }

    /// What was found about a URL left out after routing, in a sentence (`None` for a page
    /// left out before: its reason says it all).
    pub fn explain(&self) -> Option<String> {
        let url = self.url.as_deref()?;
        let target = self.target.as_ref().map(Target::to_string);
        Some(match (&self.rule, self.reason) {
            (Some(rule), Reason::RobotsDisallowed) => format!("{url}: {rule} disallows it"),
            (Some(rule), Reason::ExcludedByConfig) => format!("{url}: {rule} excludes it"),
            (Some(rule), _) => format!(
                "{url}: the host redirects it to {} ({rule})",
                target.as_deref().unwrap_or("another URL")
            ),
            (None, reason) if self.audited => audit::explain(reason, url, target.as_deref()),
            (None, _) => return None,
        })
    }
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
    /// What the site's own files decided that changes the sitemap (the host found and the
    /// rule files it passes over, git dates off, host rules a built file shadows): one line
    /// each, said by default (not warnings: nothing needs fixing).
    pub decisions: Vec<String>,
    /// Content files read.
    pub pages_read: usize,
    /// Set when the site's own config turns the generator's sitemap off (Zola
    /// `generate_sitemap = false`, Hugo `disableKinds = ["sitemap"]`): ours is written all the
    /// same, since that is what the setting is for.
    pub disabled: Option<String>,
    /// Which sitemap files hold which entries (see [`crate::layout`]); `entries` are
    /// grouped by file, each file's entries one run.
    pub layout: crate::layout::Layout,
    /// Whether the audit of the built output ran.
    pub audited: bool,
    /// Pages the audit would have left out but kept listed, because the output it read was
    /// older than their source or looked half-built: the audit trusts only a fresh build.
    pub audit_kept: usize,
    /// Built pages no content file accounts for (when asked for; see [`RunOptions`]).
    pub unsourced: Vec<audit::Unsourced>,
    /// How git dated the pages (when git was read for dates): exactly, or not at all where
    /// a shallow clone's history does not reach.
    pub git: Option<lastmod::GitReport>,
}

impl Outcome {
    /// The URLs this run would write, with their lastmods as written (what `diff` and
    /// `submit` compare with a sitemap read back).
    pub fn urls(&self) -> crate::sitemap::set_read::UrlMap {
        self.entries
            .iter()
            .map(|(loc, e)| (loc.to_string(), e.lastmod.map(|d| d.to_string())))
            .collect()
    }
}

/// Runs config-resolved settings through scan, front matter, routes, lastmod and entries,
/// and audits the built output when there is one. Writes nothing: see [`write()`].
///
/// ```
/// # let site = tempfile::tempdir()?;
/// # let root = site.path();
/// # std::fs::write(root.join("config.toml"), "base_url = \"https://example.com\"\n")?;
/// # std::fs::create_dir(root.join("content"))?;
/// # std::fs::write(root.join("content/_index.md"), "+++\n+++\n")?;
/// # std::fs::write(root.join("content/hidden.md"), "+++\n[extra]\nnoindex = true\n+++\n")?;
/// use sitemapgen::{generate, load, Overrides, Reason, RunOptions};
///
/// let settings = load(&Overrides {
///     site: Some(root.to_path_buf()),
///     ..Default::default()
/// })?;
/// let outcome = generate(&settings, &RunOptions::default())?;
/// let locs: Vec<String> = outcome.entries.iter().map(|(loc, _)| loc.to_string()).collect();
/// assert_eq!(locs, ["https://example.com/"]);
/// // What was left out, and why: the file, the reason as the user wrote it, the URL.
/// let hidden = &outcome.skipped[0];
/// assert_eq!(hidden.reason, Reason::Noindex);
/// assert_eq!(hidden.url.as_deref(), Some("https://example.com/hidden/"));
/// assert!(!root.join("public/sitemap.xml").exists());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(settings: &Settings, opts: &RunOptions) -> Result<Outcome> {
    let mut outcome = Outcome {
        disabled: disabled(settings),
        ..Default::default()
    };
    outcome.notes.extend(outcome.disabled.clone());
    // The host: the URL forms it serves shape every route; its rules and robots.txt are
    // judged once the entries are built.
    let host = host::load(settings);
    outcome.notes.extend(host.notes.iter().cloned());
    outcome.decisions.extend(host.decision.iter().cloned());
    outcome.warnings.extend(host.warnings.iter().cloned());
    let ctx = RouteContext {
        settings,
        now: opts.now,
        served: host.forms,
    };
    let between_stages = || opts.between_stages.iter().for_each(|f| f());
    // Scanned paths are relative to where we run; git's are made absolute against it.
    let cwd = std::env::current_dir().map_err(|e| crate::vocab::error::Error::io(".", e))?;
    // Git history is read on a thread of its own beside the scan and the reading; the
    // lastmod stage waits for it when the first route needs a date.
    let history = lastmod::history::start(settings);

    // scan
    let mut files = scan::scan_site(settings)?;
    outcome.pages_read = files.len();
    outcome.notes.extend(files.take_notes());
    outcome.warnings.extend(files.take_warnings());
    outcome
        .warnings
        .extend(settings.site.warnings.iter().cloned());

    // front matter -> route, each route's own lastmod taken as it is made
    let mut router = generator(settings.style).router(&files, &ctx);
    let mut dating = lastmod::Dating::new(&files, &ctx, history, cwd, opts.sources);
    let mut kept = pages::Reader::new(settings, opts, files.len()).read_into(
        &files,
        router.as_mut(),
        &mut dating,
    )?;
    between_stages();
    let routing = router.finish(&mut dating)?;
    between_stages();
    let mut routing = route::finish(routing, &files, &ctx)?;
    outcome.warnings.append(&mut routing.warnings);

    // lastmod: list pages rolled up from the routes below them
    let (assigned, git, history) = dating.finish(&routing.routes);
    outcome.git = git;
    outcome.warnings.extend(kept.warnings());
    outcome.notes.extend(settings.site.notes.iter().cloned());
    outcome.notes.extend(settings.hugo_notes.iter().cloned());
    outcome.notes.extend(settings.lastmod_notes.iter().cloned());
    outcome.decisions.extend(settings.decisions.iter().cloned());
    outcome.warnings.extend(history.warnings);
    outcome.notes.extend(history.notes);
    outcome.warnings.extend(assigned.warnings);

    // entries: they take the lastmods; `list` keeps a copy to tell where each came from
    let lastmods = opts
        .sources
        .then(|| (assigned.lastmods.clone(), assigned.commits));
    let mut built = entries::build(
        std::mem::take(&mut routing.routes),
        std::mem::take(&mut routing.paths),
        &entries::Sources {
            files: &files,
            images: &kept.images,
            unlisted: settings.include_unsourced || opts.unsourced,
            page_locs: opts.sources,
            served: host.forms,
        },
        assigned.lastmods,
        settings,
    )?;

    outcome.warnings.append(&mut built.warnings);

    // The built output, when there is one to audit (its roots are the host stage's too).
    let walk = settings.include_unsourced || opts.unsourced;
    let (plan, off) = audit::plan(settings, &built.hosts, built.entries.len(), walk);
    outcome.notes.extend(off);

    // host: what the platform redirects, what robots.txt keeps crawlers from
    let mut hosted = host::judge_entries(settings, &host, plan.as_ref(), &mut built, &files)?;
    outcome.warnings.append(&mut hosted.warnings);
    outcome.notes.append(&mut hosted.notes);
    outcome.decisions.append(&mut hosted.decisions);

    // audit: the built output has the final word on what is listed
    let audited = match plan {
        Some(mut plan) => {
            plan.served = host.forms;
            Some(audit_output(settings, plan, &mut built, &files)?)
        }
        None => None,
    };
    outcome
        .warnings
        .extend(crate::entries::unmatched_rules(settings, &built));
    // layout: which sitemap file holds which entry (each file's entries one run)
    let own = generator(settings.style)
        .own_sitemap(settings, &host_languages(&built.hosts))
        .map_or(OwnLayout::One { split_at: None }, |o| o.layout);
    outcome.layout = crate::layout::arrange(settings, &mut built, &own);
    if let Some((lastmods, mut commits)) = lastmods {
        outcome.listed = (0..built.entries.len())
            .map(|k| Listed {
                source: built.page(k).map(|p| files.get(p).path()),
                lastmod: built.route(k).and_then(|r| lastmods[r]),
                commit: built
                    .route(k)
                    .and_then(|r| commits.get_mut(r).and_then(Option::take)),
            })
            .collect();
    }
    // Pages the host redirects or robots.txt disallows were there: nothing went wrong upstream.
    let from_files = (0..built.entries.len())
        .filter(|&k| built.page(k).is_some())
        .count()
        + hosted.skipped.iter().filter(|s| s.file.is_some()).count();
    outcome.entries = built.entries;
    outcome.hosts = built.hosts;
    outcome
        .warnings
        .extend(emptied(settings, &outcome, from_files));
    // The URLs of pages routed but not listed, for `list --excluded`.
    let page_locs: std::collections::HashMap<usize, String> =
        std::mem::take(&mut built.page_locs).into_iter().collect();
    // Each `[[rules]]` entry that excluded a page, named once for all of them.
    let rule_places: Vec<Option<Arc<str>>> = (0..settings.rules.len())
        .map(|i| {
            built
                .excluded_by
                .contains(&i)
                .then(|| entries::rule_place(settings, i))
        })
        .map(|p| p.flatten().map(Arc::from))
        .collect();
    let by_rule = routing.excluded.iter().map(|_| None).chain(
        built
            .excluded_by
            .iter()
            .map(|&i| rule_places.get(i).cloned().flatten()),
    );
    let mut skipped: Vec<Skipped> = routing
        .excluded
        .iter()
        .chain(&built.excluded)
        .zip(by_rule)
        .map(|(x, rule)| Skipped {
            file: Some(files.get(x.page).path()),
            reason: x.reason,
            audited: false,
            url: page_locs.get(&x.page).cloned(),
            target: None,
            rule,
        })
        .collect();
    skipped.append(&mut hosted.skipped);
    if let Some(a) = audited {
        outcome.audited = true;
        skipped.extend(a.skipped);
        outcome.unsourced = a.unsourced;
        outcome.warnings.extend(a.warnings);
        outcome.warnings.extend(a.stale);
        outcome.notes.extend(a.notes);
        outcome.audit_kept = a.kept;
    }
    skipped.sort_by(|a, b| (&a.file, &a.url).cmp(&(&b.file, &b.url)));
    outcome.skipped = skipped;
    outcome
        .warnings
        .extend(generator_sitemap_on(settings, &outcome));
    // A file read once per language that mounts it says the same thing each time: once.
    let mut seen = std::collections::HashSet::new();
    outcome.warnings.retain(|w| seen.insert(w.clone()));
    Ok(outcome)
}

/// The languages of a multihost site's hosts, each the folder its files go in.
fn host_languages(hosts: &[crate::entries::Host]) -> Vec<&str> {
    hosts.iter().map(|h| h.lang.as_str()).collect()
}

/// The generator's own sitemap is on: each of its builds writes files of our set (or beside
/// it), so the sitemap a site serves depends on which ran last. Said once, with the files.
fn generator_sitemap_on(settings: &Settings, outcome: &Outcome) -> Option<String> {
    let own = generator(settings.style).own_sitemap(settings, &host_languages(&outcome.hosts))?;
    if !settings.site.generate_sitemap {
        return None;
    }
    let config = settings.site.config_file.as_deref()?;
    let set = sitemap_set(settings, outcome);
    let ours: Vec<String> = set
        .main_files()
        .iter()
        .filter_map(|p| set_write::rel_below(&set.output_dir, p))
        .collect();
    let theirs = own.files;
    let shown = |rel: &str| settings.output_dir.join(rel).display().to_string();
    let over: Vec<String> = theirs
        .iter()
        .filter(|t| ours.contains(t))
        .map(|t| shown(t))
        .collect();
    let beside: Vec<String> = theirs
        .iter()
        .filter(|t| !ours.contains(t))
        .map(|t| shown(t))
        .collect();
    let mut what = String::new();
    if !over.is_empty() {
        what.push_str(&format!(
            "{} over sitemapgen's",
            crate::vocab::prose::and_list(&over)
        ));
    }
    if !beside.is_empty() {
        if !what.is_empty() {
            what.push_str(", and ");
        }
        what.push_str(&format!(
            "{} beside them, which sitemapgen does not write",
            crate::vocab::prose::and_list(&beside)
        ));
    }
    let (generator, command, fix) = (own.name, own.command, own.off);
    Some(format!(
        "{}: {generator}'s own sitemap is on: {command} writes {what}; run sitemapgen after every {generator} build, or turn {generator}'s off with {fix}",
        config.display()
    ))
}

/// Warnings for the sitemap files in the output folder that are not ours (see
/// [`crate::sitemap::foreign`]), once the set is written.
fn foreign_warnings(settings: &Settings, outcome: &Outcome, set: &SetOptions) -> Vec<String> {
    let root = set.output_dir.as_path();
    let record = crate::sitemap::owned::Record::read(root);
    let hosts = site_roots(settings, outcome);
    let foreign_hosts: Vec<crate::sitemap::foreign::SiteRoot<'_>> = hosts
        .iter()
        .map(|(folder, base)| crate::sitemap::foreign::SiteRoot { folder, base })
        .collect();
    let written: std::collections::HashSet<&str> = record
        .as_ref()
        .map(|r| r.paths().collect())
        .unwrap_or_default();
    let found = crate::sitemap::foreign::find(
        root,
        &foreign_hosts,
        &written,
        record.as_ref(),
        &settings.file_name,
        &settings.language_codes(),
    );
    let entry: Vec<String> = set
        .entry_points()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let fix = match (settings.style, settings.site.generate_sitemap) {
        (Style::Zola, true) => "; if Zola wrote it, set generate_sitemap = false",
        (Style::Hugo, true) => "; if Hugo wrote it, add disableKinds = [\"sitemap\"]",
        _ => "",
    };
    found
        .iter()
        .map(|rel| {
            format!(
                "{}: a sitemap sitemapgen did not write (the generator's own, another tool's, or a leftover): search engines that read it get other URLs than {} list; delete it{fix}",
                root.join(rel).display(),
                crate::vocab::prose::and_list(&entry)
            )
        })
        .collect()
}

/// A warning when no content file is listed (an empty or missing content folder, every page
/// left out) while the sitemap on disk lists more URLs than would be written: a build that
/// went wrong upstream should not quietly empty the sitemap.
fn emptied(settings: &Settings, outcome: &Outcome, from_files: usize) -> Option<String> {
    if from_files > 0 {
        return None;
    }
    let before = crate::sitemap::on_disk::url_count(
        &sitemap_set(settings, outcome),
        &site_roots(settings, outcome),
    );
    let after = outcome.entries.len();
    (before > after).then(|| {
        format!(
            "{}: no page to list ({} content files read), where the sitemap on disk lists {before} URLs: it would shrink to {after}; check that the content is there",
            settings.content_dir.display(),
            outcome.pages_read
        )
    })
}

/// What the audit did to a run: the URLs it left out, the pages nothing accounts for, and
/// warnings about built files it could not read.
struct Audited {
    skipped: Vec<Skipped>,
    unsourced: Vec<audit::Unsourced>,
    warnings: Vec<String>,
    /// The one warning when the output looked stale (its verdicts were not applied).
    stale: Option<String>,
    /// Pages the audit kept listed because the output looked stale.
    kept: usize,
    /// Each page whose canonical link names a form of its URL the host redirects from, for
    /// `--verbose`.
    notes: Vec<String>,
}

/// The audit stage, when the output folder holds a built site: leaves out the entries the
/// built output does not serve (an error in strict mode), and finds (with
/// `include_unsourced`, lists) the built pages no content file accounts for.
fn audit_output(
    settings: &Settings,
    mut plan: audit::AuditPlan,
    built: &mut entries::Built,
    files: &scan::Files,
) -> Result<Audited> {
    // The host stage may have left entries out since the plan was made: its roots' ranges
    // follow the entries.
    match built.hosts.as_slice() {
        [] => {
            if let Some(root) = plan.roots.first_mut() {
                root.entries = 0..built.entries.len();
            }
        }
        hosts => {
            for (root, h) in plan.roots.iter_mut().zip(hosts) {
                root.entries = h.entries.clone();
            }
        }
    }
    // Only `extra_urls` have no route: the user vouches for them, a server may route them.
    let vouched = |k: usize| built.route(k).is_none();
    let mut found = audit::run(&plan, &built.entries, &vouched, &built.unlisted, settings);
    // Kept, and said: a file that is there but cannot be read is no proof the page is not
    // built (the build wrote it), nor of what its head says. Worded before any entry is
    // removed, while the entries' indices hold.
    let mut warnings: Vec<String> = found
        .unread
        .iter()
        .map(|u| {
            let url = built.entries.loc(u.entry).to_string();
            let who = built.page(u.entry).map_or_else(
                || url.clone(),
                |p| files.get(p).path().display().to_string(),
            );
            format!(
                "{who}: its built page `{}` was not read: {}; {url} stays listed, unchecked",
                u.file.display(),
                u.why
            )
        })
        .collect();
    let (disagree, mut notes) = disagreeing(&found.disagreeing, built, files);
    warnings.extend(disagree);
    // Only what a fresh output shows is applied (see `audit::fresh`).
    let audited: usize = plan.roots.iter().map(|r| r.entries.len()).sum();
    let missing = found
        .left_out
        .iter()
        .filter(|l| l.reason == Reason::NotBuilt)
        .count();
    // The images the fresh pages show, before any entry is removed (the indices hold).
    let pages = std::mem::take(&mut found.pages);
    let partial = audit::fresh::looks_partial(missing, audited);
    let (unread_images, images_note) =
        shown::from_output(settings, &plan, pages, partial, built, files);
    warnings.extend(unread_images);
    notes.extend(images_note);
    let source = |k: usize| built.page(k).map(|p| files.get(p).path());
    let fresh = audit::fresh::judge(
        &plan,
        found.left_out,
        &source,
        settings.site.config_file.as_deref(),
    );
    let stale = fresh.stale.as_ref().map(|s| stale_warning(settings, s));
    if let (Some(w), AuditMode::Strict) = (&stale, settings.audit) {
        return Err(crate::vocab::error::Error::input(
            &settings.output_dir,
            None,
            format!("{w} (audit = \"strict\")"),
        ));
    }
    let skipped: Vec<Skipped> = fresh
        .judged
        .iter()
        .map(|l| Skipped {
            file: built.page(l.entry).map(|p| files.get(p).path()),
            reason: l.reason,
            audited: true,
            url: Some(built.entries.loc(l.entry).to_string()),
            target: l.target.as_deref().map(Target::text),
            rule: None,
        })
        .collect();
    if settings.audit == AuditMode::Strict
        && let Some(e) =
            crate::vocab::error::Error::from_many(skipped.iter().map(strict_error).collect())
    {
        return Err(e);
    }
    let gone: Vec<usize> = fresh.judged.iter().map(|l| l.entry).collect();
    built.remove(&gone);
    built.unlisted = Vec::new();
    if settings.include_unsourced {
        let pages: Vec<entries::Unsourced> = found
            .unsourced
            .iter()
            .map(|u| entries::Unsourced {
                loc: u.loc.clone(),
                path: u.path.clone(),
                lastmod: u.lastmod,
            })
            .collect();
        entries::add_unsourced(built, &pages, settings, files)?;
    }
    Ok(Audited {
        skipped,
        unsourced: found.unsourced,
        warnings,
        stale,
        kept: fresh.kept.len(),
        notes,
    })
}

/// The one warning for an output that looks stale: why, for how many pages, and the fix.
fn stale_warning(settings: &Settings, stale: &audit::fresh::Stale) -> String {
    let build = match settings.style {
        Style::Zola => "`zola build`",
        Style::Hugo => "`hugo`",
        Style::Plain | Style::Auto => "the site",
    };
    let dir = settings.output_dir.display();
    let why = match stale {
        audit::fresh::Stale::Older { changed, pages } => {
            let shown: Vec<String> = changed
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            let more = match changed.len() {
                n if n > 3 => format!(" and {} more", n - 3),
                _ => String::new(),
            };
            format!(
                "{dir} is older than {}{more}, changed since it was built: the audit left none of {} out on its word, they stay listed",
                crate::vocab::prose::and_list(&shown),
                count_pages(*pages)
            )
        }
        audit::fresh::Stale::Partial { missing, of } => format!(
            "{dir} serves no file for {missing} of the {of} URLs, so it looks like a stale or half-built output: they stay listed"
        ),
    };
    format!("{why}; build the site first ({build}), then run sitemapgen, or pass --no-audit")
}

/// `1 page`, `2 pages`.
fn count_pages(n: usize) -> String {
    if n == 1 {
        "1 page".to_string()
    } else {
        format!("{n} pages")
    }
}

/// What to say about pages whose canonical link names the form of their URL that the host
/// redirects from: one warning, and a note a page.
fn disagreeing(
    found: &[(usize, String)],
    built: &entries::Built,
    files: &scan::Files,
) -> (Vec<String>, Vec<String>) {
    let Some((k, canonical)) = found.first() else {
        return (Vec::new(), Vec::new());
    };
    let n = found.len();
    let warning = format!(
        "{n} listed page{} name{} as canonical a URL the host redirects to the one listed ({canonical} on {}{}): kept; the canonical link should name the URL the host serves",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" },
        built.entries.loc(*k),
        if n == 1 {
            String::new()
        } else {
            format!(", and {} more", n - 1)
        }
    );
    let notes = found
        .iter()
        .map(|(k, canonical)| {
            let who = built.page(*k).map_or_else(
                || built.entries.loc(*k).to_string(),
                |p| files.get(p).path().display().to_string(),
            );
            format!(
                "{who}: its canonical link names {canonical}; the host serves it at {}",
                built.entries.loc(*k)
            )
        })
        .collect();
    (vec![warning], notes)
}

/// `audit = "strict"`: a URL the audit leaves out is an error naming its source and the fix.
fn strict_error(s: &Skipped) -> crate::vocab::error::Error {
    let url = s.url.as_deref().unwrap_or_default();
    let fix = match s.reason {
        Reason::NotBuilt => {
            "build the site before sitemapgen runs, with the same drafts and future settings"
        }
        _ if s.rule.is_some() => {
            "change the rule, or leave the page out at its source (`sitemap = false` in its front matter, or an `exclude` rule)"
        }
        _ => {
            "leave the page out at its source (`sitemap = false` in its front matter, or an `exclude` rule)"
        }
    };
    let what = s.file.clone().unwrap_or_else(|| PathBuf::from(url));
    crate::vocab::error::Error::input(
        what,
        None,
        format!(
            "{} (audit = \"strict\"): {fix}",
            s.explain().unwrap_or_else(|| url.to_string())
        ),
    )
}

/// What to say (in `--verbose`) when the site's own config turns the generator's sitemap off.
fn disabled(settings: &Settings) -> Option<String> {
    let setting = match settings.style {
        Style::Zola => "generate_sitemap = false",
        Style::Hugo => "disableKinds = [\"sitemap\"]",
        Style::Plain | Style::Auto => return None,
    };
    if settings.site.generate_sitemap {
        return None;
    }
    Some(format!(
        "{} sets {setting}: the generator writes no sitemap, so sitemapgen's is the only one",
        settings
            .site
            .config_file
            .as_deref()
            .unwrap_or(Path::new("the site config"))
            .display()
    ))
}

/// The write stage's options for these settings.
#[doc(hidden)]
pub fn write_options(settings: &Settings) -> urlset::WriteOptions {
    urlset::WriteOptions {
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

/// The files a build writes into the output folder, as the outcome's [`Layout`] arranges
/// them (see [`crate::layout`]): each sitemap with its own name, folder and split, the indexes
/// over them, and `robots.txt` and `sitemap.txt` beside what names the set.
///
/// Another stage that writes a file of its own into the output folder (the IndexNow key file)
/// adds it to [`SetOptions::extra_files`] here: it is then written with the set, recorded as
/// ours, and removed by a later run that no longer writes it (see [`crate::sitemap::owned`]).
///
/// [`Layout`]: crate::layout::Layout
#[doc(hidden)]
pub fn sitemap_set(settings: &Settings, outcome: &Outcome) -> SetOptions {
    let mut set = SetOptions {
        output_dir: settings.output_dir.clone(),
        members: Vec::new(),
        indexes: Vec::new(),
        extra_files: Vec::new(),
    };
    // The IndexNow key file in each site root, when a key is set: written, recorded and
    // removed (once the key is unset) like the sitemaps.
    if let (Some(name), Some(key)) = (
        settings.indexnow.key_file_name(),
        settings.indexnow.key.as_ref(),
    ) {
        for (folder, _) in site_roots(settings, outcome) {
            set.extra_files.push(urlset::OutputFile {
                name: format!("{folder}{name}"),
                bytes: key.clone().into_bytes(),
            });
        }
    }
    let layout = &outcome.layout;
    if layout.files.is_empty() {
        // An outcome made by hand, with no layout: one sitemap, or one per host's folder.
        if outcome.hosts.is_empty() {
            set.members.push(Member {
                folder: String::new(),
                entries: 0..outcome.entries.len(),
                opts: write_options(settings),
            });
        }
        for h in &outcome.hosts {
            let mut opts = write_options(settings);
            opts.output_dir = settings.output_dir.join(&h.lang);
            opts.base_url = h.base_url.to_string();
            set.members.push(Member {
                folder: format!("{}/", h.lang),
                entries: h.entries.clone(),
                opts,
            });
        }
        return set;
    }
    let listed: std::collections::HashSet<usize> = layout
        .indexes
        .iter()
        .flat_map(|i| i.files.clone())
        .collect();
    for (k, f) in layout.files.iter().enumerate() {
        let mut opts = write_options(settings);
        opts.output_dir = set_write::dir_of(&settings.output_dir, &f.folder);
        opts.base_url = f.base_url.to_string();
        opts.file_name = f.file_name.clone();
        opts.part_name = f.part_name.clone();
        opts.max_urls = f.max_urls;
        opts.index_from = f.index_from;
        // What an index lists leaves robots.txt and sitemap.txt to the index.
        opts.robots_txt &= !listed.contains(&k);
        opts.sitemap_txt &= !listed.contains(&k);
        set.members.push(Member {
            folder: f.folder.clone(),
            entries: f.entries.clone(),
            opts,
        });
    }
    for i in &layout.indexes {
        let mut opts = write_options(settings);
        opts.output_dir = set_write::dir_of(&settings.output_dir, &i.folder);
        opts.base_url = i.base_url.to_string();
        opts.file_name = i.file_name.clone();
        set.indexes.push(SetIndex {
            folder: i.folder.clone(),
            opts,
            members: i.files.clone(),
        });
    }
    set
}

/// The site roots of a run in its output folder, each with the URL it is served at: the
/// output folder itself, or on a multihost site each host's folder (`en/`).
#[doc(hidden)]
pub fn site_roots(settings: &Settings, outcome: &Outcome) -> Vec<(String, url::Url)> {
    if outcome.hosts.is_empty() {
        return vec![(String::new(), settings.base_url.clone())];
    }
    (outcome.hosts.iter())
        .map(|h| (format!("{}/", h.lang), h.base_url.clone()))
        .collect()
}

/// Writes the sitemap files of an outcome [`generate`] already computed (after looking at
/// it, say), without running the pipeline again. Warnings about the files on disk (a
/// sitemap another tool wrote there) join [`Outcome::warnings`].
///
/// The whole set is replaced at once (temporary files, then renames): an error leaves every
/// file as it was, or whole.
///
/// ```
/// # let site = tempfile::tempdir()?;
/// # std::fs::write(site.path().join("config.toml"), "base_url = \"https://example.com\"\n")?;
/// # std::fs::create_dir(site.path().join("content"))?;
/// # std::fs::write(site.path().join("content/_index.md"), "+++\n+++\n")?;
/// use sitemapgen::{generate, load, write, Overrides, RunOptions};
///
/// let settings = load(&Overrides {
///     site: Some(site.path().to_path_buf()),
///     ..Default::default()
/// })?;
/// let mut outcome = generate(&settings, &RunOptions::default())?;
/// // Write only when there is something to list.
/// if !outcome.entries.is_empty() {
///     let report = write(&settings, &mut outcome)?;
///     assert_eq!(report.urls, 1);
///     assert!(site.path().join("public/sitemap.xml").is_file());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write(settings: &Settings, outcome: &mut Outcome) -> Result<WriteReport> {
    let set = sitemap_set(settings, outcome);
    let report = set_write::write_set(outcome.entries.view(), &set)?;
    outcome.warnings.extend(report.warnings.iter().cloned());
    let foreign = foreign_warnings(settings, outcome, &set);
    outcome.warnings.extend(foreign);
    Ok(report)
}

/// Generates and writes the sitemap ([`generate`], then [`write()`]); nothing is written when
/// any input is bad.
///
/// ```
/// # let site = tempfile::tempdir()?;
/// # std::fs::write(site.path().join("config.toml"), "base_url = \"https://example.com\"\n")?;
/// # std::fs::create_dir(site.path().join("content"))?;
/// # std::fs::write(site.path().join("content/_index.md"), "+++\n+++\n")?;
/// # std::fs::write(site.path().join("content/hello.md"), "+++\ntitle = \"Hello\"\n+++\n")?;
/// use sitemapgen::{build, load, Overrides, RunOptions};
///
/// let settings = load(&Overrides {
///     site: Some(site.path().to_path_buf()),
///     ..Default::default()
/// })?;
/// let (outcome, report) = build(&settings, &RunOptions::default())?;
/// assert_eq!(report.files, [site.path().join("public/sitemap.xml")]);
/// let locs: Vec<String> = outcome.entries.iter().map(|(loc, _)| loc.to_string()).collect();
/// assert_eq!(locs, ["https://example.com/", "https://example.com/hello/"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build(settings: &Settings, opts: &RunOptions) -> Result<(Outcome, WriteReport)> {
    let mut outcome = generate(settings, opts)?;
    let report = write(settings, &mut outcome)?;
    Ok((outcome, report))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::settings;
    use crate::vocab::error::Error;

    /// A Zola site of `files` (path below content/, text) in a temp folder, and its settings,
    /// with a sitemap.toml of `sitemap_toml` beside it (none when empty).
    pub(crate) fn zola_site(
        files: &[(&str, &str)],
        sitemap_toml: &str,
    ) -> (tempfile::TempDir, Settings) {
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
        let settings = load(&settings::Overrides {
            site: Some(d.path().to_path_buf()),
            ..Default::default()
        })
        .unwrap();
        (d, settings)
    }

    #[test]
    fn zola_read_errors_come_in_file_order_though_sections_are_read_first() {
        let (_d, settings) = zola_site(
            &[
                ("_index.md", "+++\n+++\n"),
                ("a.md", "+++\ntitle = \n+++\n"),
                ("b/_index.md", "+++\nsort_by = \n+++\n"),
                ("b/c.md", "+++\ndate = 1\n+++\n"),
            ],
            "",
        );
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
}
