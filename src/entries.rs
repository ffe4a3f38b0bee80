//! Entries: the `<url>` records the writer serialises, built from routed pages.

mod locs;

pub use locs::{Loc, LocError, LocId, Locs};

use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::date::W3cDate;
use rayon::slice::ParallelSliceMut;

/// One `<url>` of the sitemap: everything the writer needs and nothing more. 32 bytes: a
/// million of them is common, so the loc lies in its list's shared store of locs, not in the
/// entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Where the absolute URL lies in its list's store of locs (see [`Entries::loc`]).
    #[doc(hidden)]
    pub loc: LocId,
    /// `<lastmod>`.
    pub lastmod: Option<W3cDate>,
    /// `<changefreq>`.
    pub changefreq: Option<ChangeFreq>,
    /// `<priority>`.
    pub priority: Option<Priority>,
    /// Rarely used parts, boxed so a plain entry stays small (a million of them is common);
    /// read them with [`Entry::images`] and [`Entry::alternates`].
    #[doc(hidden)]
    pub extras: Option<Box<Extras>>,
}

/// The parts of an entry most pages do not have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// `image:image` locations: absolute, percent-encoded; at most 1,000.
    pub images: Vec<String>,
    /// `xhtml:link rel="alternate"` versions, this page's own included.
    pub alternates: Vec<Alternate>,
}

/// One language version of a page.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Alternate {
    /// `hreflang`: a language code, or `x-default`.
    pub hreflang: String,
    /// Absolute, percent-encoded URL.
    pub href: String,
}

impl Entry {
    /// An entry with just a location, stored beforehand with [`Locs::push`].
    #[doc(hidden)]
    pub fn new(loc: LocId) -> Entry {
        Entry {
            loc,
            lastmod: None,
            changefreq: None,
            priority: None,
            extras: None,
        }
    }

    /// The entry's images (empty when it has none).
    pub fn images(&self) -> &[String] {
        self.extras.as_deref().map_or(&[], |e| &e.images)
    }

    /// The entry's language alternates (empty when it has none).
    pub fn alternates(&self) -> &[Alternate] {
        self.extras.as_deref().map_or(&[], |e| &e.alternates)
    }
}

/// A list of entries with the one store their locs lie in: what the entries stage makes and
/// the writer reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entries {
    list: Vec<Entry>,
    locs: Locs,
}

impl Entries {
    /// An empty list.
    pub fn new() -> Entries {
        Entries::default()
    }

    /// Adds an entry for `loc` (absolute, percent-encoded, not XML-escaped) with no other
    /// field set, and returns it to fill in.
    #[doc(hidden)]
    pub fn push(&mut self, loc: &str) -> Result<&mut Entry, LocError> {
        let id = self.locs.push(loc)?;
        self.list.push(Entry::new(id));
        let last = self.list.len() - 1;
        Ok(&mut self.list[last])
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The entries, in order.
    pub fn list(&self) -> &[Entry] {
        &self.list
    }

    /// The entries, to change their fields.
    #[doc(hidden)]
    pub fn list_mut(&mut self) -> &mut [Entry] {
        &mut self.list
    }

    /// The store the entries' locs lie in.
    #[doc(hidden)]
    pub fn locs(&self) -> &Locs {
        &self.locs
    }

    /// The loc of entry `k`; panics past the end, as slice indexing does.
    pub fn loc(&self, k: usize) -> Loc<'_> {
        self.locs.get(self.list[k].loc)
    }

    /// Every entry with its loc, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Loc<'_>, &Entry)> + '_ {
        self.view().iter()
    }

    /// All the entries, as the writer takes them.
    #[doc(hidden)]
    pub fn view(&self) -> View<'_> {
        View {
            list: &self.list,
            locs: &self.locs,
        }
    }

    /// The entries of `range` (one host's, say), as the writer takes them; panics out of
    /// bounds, as slicing does.
    #[doc(hidden)]
    pub fn slice(&self, range: std::ops::Range<usize>) -> View<'_> {
        View {
            list: &self.list[range],
            locs: &self.locs,
        }
    }
}

/// A run of entries of one [`Entries`] with the store their locs lie in: the writer's input.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    list: &'a [Entry],
    locs: &'a Locs,
}

impl<'a> View<'a> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The entries of `range` of this view; panics out of bounds.
    pub fn slice(&self, range: std::ops::Range<usize>) -> View<'a> {
        View {
            list: &self.list[range],
            locs: self.locs,
        }
    }

    /// The entries, in order.
    pub fn list(&self) -> &'a [Entry] {
        self.list
    }

    /// The loc of `entry` (one of this view's, or of its list's).
    pub fn loc(&self, entry: &Entry) -> Loc<'a> {
        self.locs.get(entry.loc)
    }

    /// Every entry with its loc, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Loc<'a>, &'a Entry)> + use<'a> {
        let locs = self.locs;
        self.list.iter().map(move |e| (locs.get(e.loc), e))
    }
}

// The writer's plumbing, as `View` is: no part of the API.
#[doc(hidden)]
impl<'a> From<&'a Entries> for View<'a> {
    fn from(entries: &'a Entries) -> View<'a> {
        entries.view()
    }
}

use crate::compact::LangCode;
use crate::lastmod::Lastmod;
use crate::route::{Excluded, Reason, Route, RoutePaths};
use crate::scan::Files;
use crate::settings::{ExtraUrl, Settings};
use crate::vocab::error::{Error, Result};
use crate::vocab::loc;
use crate::vocab::protocol::MAX_LOC_CHARS as MAX_LOC_LEN;
use globset::GlobMatcher;
use std::collections::{BTreeMap, HashMap};
use url::Url;

/// [`Built::routes`] and [`Built::pages`] for an entry with no route or page behind it.
pub const NO_ROUTE: u32 = u32::MAX;

/// The most images one `<url>` may carry (Google's limit).
pub const MAX_IMAGES: usize = 1000;

/// Entries ready to write, plus the pages the rules left out.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// Sorted by loc, unique.
    pub entries: Entries,
    /// For each entry, the route it came from, or [`NO_ROUTE`] for `extra_urls`; see
    /// [`Built::route`]. Four bytes an entry: there may be a million.
    pub routes: Vec<u32>,
    /// For each entry, the page behind it, or [`NO_ROUTE`] for generated pages and
    /// `extra_urls`; see [`Built::page`].
    pub pages: Vec<u32>,
    /// Pages dropped by `exclude` rules.
    pub excluded: Vec<Excluded>,
    /// Parallel to `excluded`: the place in `[[rules]]` of the rule that dropped each.
    pub excluded_by: Vec<usize>,
    /// On a multihost site, each host's share of `entries` (which are then sorted by host,
    /// then by loc); empty elsewhere.
    pub hosts: Vec<Host>,
    /// The locs of pages that are built but not listed (`sitemap = false`, an `exclude`
    /// rule), when [`Sources::unlisted`] asks for them: they account for their built files.
    pub unlisted: Vec<String>,
    /// The locs of pages routed but not listed, by page, when [`Sources::page_locs`] asks
    /// for them (what `list --excluded` shows beside each page).
    pub page_locs: Vec<(usize, String)>,
    /// Things the user should hear about (pages whose translations cannot be told apart).
    pub warnings: Vec<String>,
    /// On a multilingual site, each entry's language (`None` for `extra_urls` and unsourced
    /// pages, which no route made); empty elsewhere. See [`Built::lang`].
    pub langs: Vec<Option<LangCode>>,
    /// Parallel to `[[rules]]`: whether the rule matched a page or URL (see
    /// [`unmatched_rules`]).
    pub rule_hits: Vec<bool>,
}

/// One host of a multihost site (Hugo languages with a base URL each): its entries go to a
/// sitemap of their own, in a folder named for the language, as Hugo writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct Host {
    /// The language code, and the folder below the output folder.
    pub lang: String,
    /// The language's base URL.
    pub base_url: Url,
    /// Its entries: a range of the run's [`Entries`] ([`Outcome::entries`](crate::pipeline::Outcome::entries)).
    pub entries: std::ops::Range<usize>,
}

impl Built {
    /// The language of entry `k`'s route (`None` on a site of one language, or for an entry
    /// no route made).
    pub fn lang(&self, k: usize) -> Option<LangCode> {
        self.langs.get(k).copied().flatten()
    }

    /// Puts the entries in order of `group` (indexed by their current places), keeping their
    /// order within a group: each group's entries become one run.
    pub fn regroup(&mut self, group: &[u32]) {
        let mut order: Vec<u32> = (0..self.entries.len() as u32).collect();
        order.sort_by_key(|&k| group[k as usize]);
        permute(
            &mut order,
            &mut self.entries.list,
            &mut self.routes,
            &mut self.pages,
            &mut self.langs,
        );
    }

    /// The route entry `k` came from (`None` for `extra_urls`).
    pub fn route(&self, k: usize) -> Option<usize> {
        Some(self.routes[k])
            .filter(|&r| r != NO_ROUTE)
            .map(|r| r as usize)
    }

    /// The page entry `k` came from (`None` for generated pages and `extra_urls`).
    pub fn page(&self, k: usize) -> Option<usize> {
        Some(self.pages[k])
            .filter(|&p| p != NO_ROUTE)
            .map(|p| p as usize)
    }

    /// Removes the entries at `gone` (ascending indices), keeping the order and each host's
    /// share. Their locs stay in the store, unused.
    pub fn remove(&mut self, gone: &[usize]) {
        let mut next = gone.iter().peekable();
        let keep: Vec<bool> = (0..self.entries.len())
            .map(|k| next.next_if_eq(&&k).is_none())
            .collect();
        let mut kept = keep.iter();
        self.entries.list.retain(|_| kept.next() == Some(&true));
        for v in [&mut self.routes, &mut self.pages] {
            let mut kept = keep.iter();
            v.retain(|_| kept.next() == Some(&true));
        }
        let mut kept = keep.iter();
        self.langs.retain(|_| kept.next() == Some(&true));
        let mut start = 0;
        for h in &mut self.hosts {
            let len = keep[h.entries.clone()].iter().filter(|&&b| b).count();
            h.entries = start..start + len;
            start += len;
        }
    }
}

struct CompiledRule {
    matcher: GlobMatcher,
    on_url: bool,
    rule: crate::settings::Rule,
    /// Its place in `[[rules]]`.
    index: usize,
}

/// What entries need of the content files behind the routes (the routes' `page` indices).
#[derive(Clone, Copy, Debug)]
pub struct Sources<'a> {
    /// The files, in page order.
    pub files: &'a Files,
    /// Each page's image sources, in page order; empty when images are off.
    pub images: &'a [Vec<String>],
    /// Keep the locs of built pages that are not listed ([`Built::unlisted`]).
    pub unlisted: bool,
    /// Keep the locs of pages routed but not listed, by page ([`Built::page_locs`]).
    pub page_locs: bool,
    /// The forms the host serves URLs in (routes come in them already; `extra_urls` are put
    /// in them here).
    pub served: crate::platform::Forms,
}

/// Turns the listed routes into entries: absolute locs, fields from front matter, rules and
/// defaults, language alternates, images, and the static `extra_urls`.
///
/// The routes are used up: each entry takes its route's place in the same allocation, so the
/// routes and the entries, the two largest vectors of a run, are never held side by side;
/// the paths are given back as their locs are made, and the lastmods (one per route) once
/// every entry has its own, before the entries are sorted.
pub fn build(
    routes: Vec<Route>,
    mut paths: RoutePaths,
    sources: &Sources,
    lastmods: Vec<Option<Lastmod>>,
    settings: &Settings,
) -> Result<Built> {
    let files = sources.files;
    let origin = settings
        .config_file
        .clone()
        .unwrap_or_else(|| "sitemap.toml".into());
    let rules = compile_rules(settings, &origin)?;
    let file_rules = rules.iter().any(|c| !c.on_url);
    let bases = language_bases(settings)?;
    let base_for = |lang: &str| bases.get(lang).unwrap_or(&settings.base_url);

    let listed = routes.iter().filter(|r| r.listed).count() + settings.extra_urls.len();
    let mut out = Built {
        entries: Entries::new(),
        routes: Vec::with_capacity(listed),
        pages: Vec::with_capacity(listed),
        excluded: Vec::new(),
        excluded_by: Vec::new(),
        hosts: Vec::new(),
        unlisted: Vec::new(),
        page_locs: Vec::new(),
        warnings: Vec::new(),
        langs: Vec::new(),
        rule_hits: vec![false; rules.len()],
    };
    // Each entry's language, for a layout by language (multilingual sites only).
    let multilingual = settings.site.is_multilingual();
    // What alternates need of each route once the routes are gone (multilingual sites only).
    let versions = versions(&routes, settings);
    let mut errors = Vec::new();
    let mut locs = Locs::new();
    // Each loc is made here, then copied into `locs`: no allocation per entry.
    let mut loc = String::new();
    let file_of = |r: &Route| r.page().map(|p| files.get(p).path()).unwrap_or_default();
    // The entries take the routes' allocation (one size): a million of each never stand
    // side by side.
    let list: Vec<Entry> = crate::compact::filter_map_in_place(routes, |i, r| {
        // File rules match the whole relative path, made only when there are any. A page
        // not listed (a draft) counts for a rule's match too: an exclude rule kept as a
        // safety net is not a mistake.
        let rel = r.page().filter(|_| file_rules).map(|p| files.get(p).rel());
        let matching: Vec<&CompiledRule> = rules
            .iter()
            .filter(|c| {
                if c.on_url {
                    c.matcher.is_match(paths.get(&r))
                } else {
                    rel.as_deref().is_some_and(|f| c.matcher.is_match(f))
                }
            })
            .collect();
        for c in &matching {
            out.rule_hits[c.index] = true;
        }
        let mut unlisted = |r: &Route| {
            if sources.unlisted || (sources.page_locs && r.page().is_some()) {
                let loc = loc::absolute(base_for(r.lang()), paths.get(r));
                if let Some(p) = r.page().filter(|_| sources.page_locs) {
                    out.page_locs.push((p, loc.clone()));
                }
                if sources.unlisted {
                    out.unlisted.push(loc);
                }
            }
        };
        if !r.listed {
            unlisted(&r);
            return None;
        }
        if let Some(rule) = matching.iter().find(|c| c.rule.exclude) {
            unlisted(&r);
            if let Some(p) = r.page() {
                out.excluded.push(Excluded {
                    page: p,
                    reason: Reason::ExcludedByConfig,
                });
                out.excluded_by.push(rule.index);
            }
            return None;
        }
        // The route stage has already applied `trailing_slash`.
        loc.clear();
        loc::absolute_into(&mut loc, base_for(r.lang()), paths.get(&r));
        // Paths lie in route order: the ones behind this route are done with, and the
        // locs being made reuse their memory.
        paths.release_before(&r);
        if loc.len() > MAX_LOC_LEN {
            errors.push(Error::input(file_of(&r), None, format!("its URL is {} characters long; the protocol allows {MAX_LOC_LEN}: shorten its slug or path", loc.len())));
            return None;
        }
        let id = match locs.push(&loc) {
            Ok(id) => id,
            Err(e) => {
                errors.push(Error::input(file_of(&r), None, e.to_string()));
                return None;
            }
        };
        let mut e = Entry::new(id);
        e.lastmod = lastmods[i].map(|l| l.date);
        e.priority = if r.priority_off {
            None
        } else {
            r.priority
                .or_else(|| matching.iter().find_map(|c| c.rule.priority))
                .or(settings.default_priority)
        };
        e.changefreq = r
            .changefreq
            .or_else(|| matching.iter().find_map(|c| c.rule.changefreq))
            .or(settings.default_changefreq);
        if settings.images
            && let Some(p) = r.page()
        {
            let base = base_for(r.lang());
            let page_url = Url::parse(&loc).ok();
            let images: Vec<String> = page_url
                .iter()
                .flat_map(|u| {
                    sources
                        .images
                        .get(p)
                        .into_iter()
                        .flatten()
                        .filter_map(move |src| crate::images::resolve_image(src, u, base))
                })
                .map(|u| u.to_string())
                .take(MAX_IMAGES)
                .collect();
            if !images.is_empty() {
                e.extras.get_or_insert_with(Default::default).images = images;
            }
        }
        // Route and page indices share one bound (see `Route`).
        out.routes.push(i as u32);
        out.pages.push(r.page().map_or(NO_ROUTE, |p| p as u32));
        if multilingual {
            out.langs.push(Some(r.lang_code()));
        }
        Some(e)
    });
    out.entries = Entries { list, locs };
    drop(lastmods);
    add_alternates(&mut out, &versions, settings, files);
    for extra in &settings.extra_urls {
        extra_entry(extra, settings, &origin, sources.served, &mut out.entries)?;
        out.routes.push(NO_ROUTE);
        out.pages.push(NO_ROUTE);
        if multilingual {
            out.langs.push(None);
        }
    }
    if let Some(e) = Error::from_many(errors) {
        return Err(e);
    }
    // The list took the routes' larger allocation, and the text grew by doubling: give back
    // what neither will use.
    out.entries.list.shrink_to_fit();
    out.entries.locs.shrink_to_fit();

    sort(&mut out, settings, &bases, files, &origin)?;
    Ok(out)
}

/// A warning for each `[[rules]]` entry that matched no page or URL of the run (a pattern
/// mistyped, or a folder since renamed), naming its line in sitemap.toml.
pub fn unmatched_rules(settings: &Settings, built: &Built) -> Vec<String> {
    let file = settings.config_file.as_deref();
    let text = file
        .and_then(|f| crate::vocab::fsread::read_string(f, crate::vocab::limits::MAX_CONFIG).ok());
    settings
        .rules
        .iter()
        .zip(&built.rule_hits)
        .filter(|(_, hit)| !**hit)
        .map(|(rule, _)| {
            let what = if rule.pattern.starts_with('/') {
                "no URL path of the site"
            } else {
                "no content file"
            };
            let place = match (file, text.as_deref().and_then(|t| pattern_line(t, &rule.pattern))) {
                (Some(f), Some(line)) => format!("{}:{line}: ", f.display()),
                (Some(f), None) => format!("{}: ", f.display()),
                (None, _) => String::new(),
            };
            format!(
                "{place}[[rules]] pattern '{}' matches {what}, so the rule does nothing: correct the pattern or remove the rule",
                rule.pattern
            )
        })
        .collect()
}

/// Where `[[rules]]` entry `index` is written, for a page it excludes: `sitemap.toml:6
/// ([[rules]] pattern 'drafts/**', exclude = true)`, the line when the file shows it.
pub fn rule_place(settings: &Settings, index: usize) -> Option<String> {
    let rule = settings.rules.get(index)?;
    let file = settings.config_file.as_deref();
    let line = file
        .and_then(|f| crate::vocab::fsread::read_string(f, crate::vocab::limits::MAX_CONFIG).ok())
        .and_then(|t| pattern_line(&t, &rule.pattern));
    let place = match (file, line) {
        (Some(f), Some(line)) => format!("{}:{line} ", f.display()),
        (Some(f), None) => format!("{} ", f.display()),
        (None, _) => String::new(),
    };
    Some(format!(
        "{place}([[rules]] pattern '{}', exclude = true)",
        rule.pattern
    ))
}

/// The 1-based line of `pattern = "…"` (or `'…'`) for this pattern in sitemap.toml's text.
fn pattern_line(text: &str, pattern: &str) -> Option<usize> {
    let quoted = [format!("\"{pattern}\""), format!("'{pattern}'")];
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with("pattern") && quoted.iter().any(|q| l.contains(q.as_str()))
        })
        .map(|i| i + 1)
}

/// A built page no content file accounts for, to be listed (`include_unsourced`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsourced {
    /// Absolute, percent-encoded.
    pub loc: String,
    /// Its decoded path below the base URL, starting with `/` (what URL rules match).
    pub path: String,
    /// `<lastmod>`.
    pub lastmod: Option<W3cDate>,
}

/// Adds built pages no content file accounts for, with the URL rules (`[[rules]]` whose
/// pattern starts with `/`) and defaults applied, and sorts the entries again. A page that
/// a rule excludes, or whose loc is already listed, is not added.
pub fn add_unsourced(
    out: &mut Built,
    pages: &[Unsourced],
    settings: &Settings,
    files: &Files,
) -> Result<()> {
    let origin = settings
        .config_file
        .clone()
        .unwrap_or_else(|| "sitemap.toml".into());
    let rules = compile_rules(settings, &origin)?;
    let mut listed: std::collections::HashSet<&str> =
        pages.iter().map(|p| p.loc.as_str()).collect();
    let mut text = String::new();
    for (loc, _) in out.entries.iter() {
        text.clear();
        // Writing into a String cannot fail.
        let _ = std::fmt::Write::write_fmt(&mut text, format_args!("{loc}"));
        listed.remove(text.as_str());
    }
    for page in pages.iter().filter(|p| listed.contains(p.loc.as_str())) {
        let matching: Vec<&CompiledRule> = rules
            .iter()
            .filter(|c| c.on_url && c.matcher.is_match(&page.path))
            .collect();
        for c in &matching {
            if let Some(hit) = out.rule_hits.get_mut(c.index) {
                *hit = true;
            }
        }
        if matching.iter().any(|c| c.rule.exclude) {
            continue;
        }
        let e = out
            .entries
            .push(&page.loc)
            .map_err(|e| Error::input(&page.loc, None, e.to_string()))?;
        e.lastmod = page.lastmod;
        e.priority = matching
            .iter()
            .find_map(|c| c.rule.priority)
            .or(settings.default_priority);
        e.changefreq = matching
            .iter()
            .find_map(|c| c.rule.changefreq)
            .or(settings.default_changefreq);
        out.routes.push(NO_ROUTE);
        out.pages.push(NO_ROUTE);
        if settings.site.is_multilingual() {
            out.langs.push(None);
        }
    }
    sort(out, settings, &language_bases(settings)?, files, &origin)
}

/// Sorts the entries by loc (on a multihost site by host first, each host's entries one run,
/// recorded in [`Built::hosts`]); a loc listed twice is an error naming both sources.
fn sort(
    out: &mut Built,
    settings: &Settings,
    bases: &HashMap<String, Url>,
    files: &Files,
    origin: &std::path::Path,
) -> Result<()> {
    // The entries are moved into their sorted places, never copied: a second vector would
    // double the peak. On a multihost site, by host first: each host's entries are one run.
    let hosts = multihost_bases(settings, bases);
    out.hosts.clear();
    let host_of = |loc: Loc| -> u16 {
        let under = hosts
            .iter()
            .enumerate()
            .filter(|(_, (_, base))| loc.starts_with(base.as_str()))
            .max_by_key(|(_, (_, base))| base.as_str().len());
        // An `extra_urls` entry under no language's base goes with the default language's.
        under.map_or(0, |(k, _)| k as u16)
    };
    let groups: Vec<u16> = if hosts.is_empty() {
        Vec::new()
    } else {
        out.entries.iter().map(|(loc, _)| host_of(loc)).collect()
    };
    let group = |k: u32| groups.get(k as usize).copied().unwrap_or(0);
    let mut order: Vec<u32> = (0..out.entries.len() as u32).collect();
    let loc_of = |k: u32| out.entries.loc(k as usize);
    // The index breaks ties: the order is the same on any number of cores.
    order.par_sort_unstable_by(|&a, &b| (group(a), loc_of(a), a).cmp(&(group(b), loc_of(b), b)));
    let mut start = 0;
    for (k, (lang, base)) in hosts.iter().enumerate() {
        let len = groups.iter().filter(|&&g| usize::from(g) == k).count();
        out.hosts.push(Host {
            lang: lang.to_string(),
            base_url: (*base).clone(),
            entries: start..start + len,
        });
        start += len;
    }
    let source = |k: u32| match out.page(k as usize) {
        Some(p) => files.get(p).path().display().to_string(),
        None => format!("{} (extra_urls or a generated page)", origin.display()),
    };
    for w in order.windows(2) {
        let (a, b) = (loc_of(w[0]), loc_of(w[1]));
        if a == b {
            return Err(Error::input(
                source(w[0]),
                None,
                format!(
                    "{} is also the URL of {}: two sources cannot share one URL",
                    a,
                    source(w[1])
                ),
            ));
        }
    }
    permute(
        &mut order,
        &mut out.entries.list,
        &mut out.routes,
        &mut out.pages,
        &mut out.langs,
    );
    Ok(())
}

/// Puts `a[order[k]]` (and the same of `b`, `c` and `d`) at `k`, in place, following each
/// cycle of the permutation with swaps; `order` is used up as the record of where each cycle
/// has been. `d` may be empty (a site of one language keeps no languages).
fn permute<A, B, C, D>(order: &mut [u32], a: &mut [A], b: &mut [B], c: &mut [C], d: &mut [D]) {
    const DONE: u32 = u32::MAX;
    for start in 0..order.len() {
        let mut k = start;
        while order[k] != DONE {
            let from = order[k] as usize;
            order[k] = DONE;
            if from == start {
                break;
            }
            a.swap(k, from);
            b.swap(k, from);
            c.swap(k, from);
            if !d.is_empty() {
                d.swap(k, from);
            }
            k = from;
        }
    }
}

fn compile_rules(settings: &Settings, origin: &std::path::Path) -> Result<Vec<CompiledRule>> {
    settings
        .rules
        .iter()
        .enumerate()
        .map(|(index, rule)| {
            let on_url = rule.pattern.starts_with('/');
            let glob = globset::GlobBuilder::new(&rule.pattern)
                .literal_separator(false)
                .build()
                .map_err(|e| {
                    Error::config(
                        origin,
                        None,
                        format!("bad rule pattern '{}': {e}", rule.pattern),
                    )
                })?;
            Ok(CompiledRule {
                matcher: glob.compile_matcher(),
                on_url,
                rule: rule.clone(),
                index,
            })
        })
        .collect()
}

/// On a multihost site, each language with its base URL, the default language first (the
/// host of `extra_urls` under no language); empty elsewhere.
fn multihost_bases<'a>(
    settings: &'a Settings,
    bases: &'a HashMap<String, Url>,
) -> Vec<(&'a str, &'a Url)> {
    let site = &settings.site;
    if !site.is_multihost() {
        return Vec::new();
    }
    let default = site.default_language.as_str();
    let mut hosts: Vec<(&str, &Url)> = site
        .languages
        .iter()
        .filter_map(|l| bases.get(&l.code).map(|b| (l.code.as_str(), b)))
        .collect();
    hosts.sort_by_key(|(code, _)| *code != default);
    hosts
}

/// Each language's own base URL (Hugo multihost), checked like the site's.
fn language_bases(settings: &Settings) -> Result<HashMap<String, Url>> {
    let mut m = HashMap::new();
    for l in &settings.site.languages {
        if let Some(b) = &l.base_url {
            let url = crate::settings::parse_base_url(b).map_err(|msg| {
                let keys = ["languages", l.code.as_str(), "baseURL"];
                settings
                    .site
                    .error_at(&keys, format!("language {}: {msg}", l.code))
            })?;
            m.insert(l.code.clone(), url);
        }
    }
    Ok(m)
}

/// Links the language versions of each page: every version lists all, itself included.
/// Each route's translation group (routes that share a key) and language, kept apart from the
/// routes so they can be used up; empty on a site with one language.
fn versions(routes: &[Route], settings: &Settings) -> Vec<(u32, &'static str)> {
    if !settings.site.is_multilingual() {
        return Vec::new();
    }
    let mut ids: HashMap<&str, u32> = HashMap::new();
    routes
        .iter()
        .map(|r| {
            let next = ids.len() as u32;
            (*ids.entry(r.key()).or_insert(next), r.lang())
        })
        .collect()
}

fn add_alternates(
    out: &mut Built,
    versions: &[(u32, &'static str)],
    settings: &Settings,
    files: &Files,
) {
    // One language, no alternates: skip grouping every URL under one empty key.
    if versions.is_empty() {
        return;
    }
    // By group id, in the order the groups' keys first appear: every group is handled on
    // its own, so the order changes nothing written.
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for k in 0..out.routes.len() {
        if let Some(r) = out.route(k) {
            groups.entry(versions[r].0).or_default().push(k);
        }
    }
    let hreflang = |lang: &str| {
        settings
            .site
            .language(lang)
            .and_then(|l| l.hreflang.clone())
            .unwrap_or_else(|| lang.to_string())
    };
    for members in groups.values() {
        let langs: Vec<&str> = members
            .iter()
            .filter_map(|&k| out.route(k).map(|r| versions[r].1))
            .collect();
        let mut distinct = langs.clone();
        distinct.sort_unstable();
        distinct.dedup();
        // Only real translations: one version per language, more than one language.
        if distinct.len() < 2 || distinct.len() != langs.len() {
            if distinct.len() != langs.len() {
                // Two pages of one language share a translation key: which is the version
                // of the other languages' pages cannot be told. Hugo lists them all under
                // one `hreflang`, which search engines reject.
                let mut names: Vec<String> = members
                    .iter()
                    .filter_map(|&k| out.page(k))
                    .map(|p| files.get(p).path().display().to_string())
                    .collect();
                if names.len() > 1 {
                    names.sort();
                    out.warnings.push(format!(
                        "{}: share one translation key with {} in the same language: no hreflang alternates for them (give each page its own translationKey)",
                        names[0],
                        names[1..].join(", ")
                    ));
                }
            }
            continue;
        }
        let mut alts: Vec<Alternate> = members
            .iter()
            .zip(&langs)
            .map(|(&k, lang)| Alternate {
                hreflang: hreflang(lang),
                href: out.entries.loc(k).to_string(),
            })
            .collect();
        if let Some(xd) = &settings.x_default
            && let Some(pos) = langs.iter().position(|l| l == xd)
        {
            alts.push(Alternate {
                hreflang: "x-default".into(),
                href: out.entries.loc(members[pos]).to_string(),
            });
        }
        alts.sort();
        for &k in members {
            out.entries.list[k]
                .extras
                .get_or_insert_with(Default::default)
                .alternates = alts.clone();
        }
    }
}

/// Adds the entry of one `extra_urls` item.
fn extra_entry(
    extra: &ExtraUrl,
    settings: &Settings,
    origin: &std::path::Path,
    served: crate::platform::Forms,
    entries: &mut Entries,
) -> Result<()> {
    let (raw, lastmod, changefreq, priority) = match extra {
        ExtraUrl::Path(p) => (p.as_str(), None, None, None),
        ExtraUrl::Full {
            loc,
            lastmod,
            changefreq,
            priority,
        } => (loc.as_str(), lastmod.as_deref(), *changefreq, *priority),
    };
    let bad = |m: String| Error::config(origin, None, m);
    let loc = if raw.contains("://") {
        let u =
            Url::parse(raw).map_err(|e| bad(format!("extra_urls: '{raw}' is not a URL ({e})")))?;
        let b = &settings.base_url;
        if u.scheme() != b.scheme()
            || u.host_str() != b.host_str()
            || u.port_or_known_default() != b.port_or_known_default()
            || !u.path().starts_with(b.path())
        {
            return Err(bad(format!(
                "extra_urls: '{raw}' is not below base_url {b}"
            )));
        }
        let mut u = u;
        let path = u.path().to_string();
        u.set_path(&served.served(&path, crate::platform::FileKind::of_path(&path)));
        u.to_string()
    } else {
        loc::check_path(raw).map_err(bad)?;
        let path = crate::route::normalize(raw);
        let path = served.served(&path, crate::platform::FileKind::of_path(&path));
        loc::absolute(&settings.base_url, &path)
    };
    if loc.len() > MAX_LOC_LEN {
        return Err(bad(format!(
            "extra_urls: a URL of {} characters; the protocol allows {MAX_LOC_LEN}",
            loc.len()
        )));
    }
    let lastmod = match lastmod {
        Some(s) => Some(
            crate::vocab::date::W3cDate::parse(s, &settings.timezone)
                .ok_or_else(|| bad(format!("extra_urls: '{s}' is not a date")))?,
        ),
        None => None,
    };
    let e = entries
        .push(&loc)
        .map_err(|e| bad(format!("extra_urls: '{raw}': {e}")))?;
    e.lastmod = lastmod;
    e.changefreq = changefreq.or(settings.default_changefreq);
    e.priority = priority.or(settings.default_priority);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::permute;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn permute_in_place_matches_a_copy(keys in proptest::collection::vec(0u8..20, 0..60)) {
            // The order a sort by key gives, ties by position, as `build` makes it.
            let mut order: Vec<u32> = (0..keys.len() as u32).collect();
            order.sort_unstable_by(|&x, &y| keys[x as usize].cmp(&keys[y as usize]).then(x.cmp(&y)));
            let want_a: Vec<u8> = order.iter().map(|&k| keys[k as usize]).collect();
            let want_b: Vec<usize> = order.iter().map(|&k| k as usize).collect();
            let mut a = keys.clone();
            let mut b: Vec<usize> = (0..keys.len()).collect();
            let mut c: Vec<String> = b.iter().map(|k| k.to_string()).collect();
            permute(&mut order, &mut a, &mut b, &mut c, &mut Vec::<u8>::new());
            let want_c: Vec<String> = want_b.iter().map(|k| k.to_string()).collect();
            prop_assert_eq!(a, want_a);
            prop_assert_eq!(b, want_b);
            prop_assert_eq!(c, want_c);
        }
    }

    #[test]
    fn entries_are_made_in_the_routes_own_allocation() {
        // `compact::filter_map_in_place` reuses the allocation only for one size and
        // alignment; otherwise both vectors would stand at the peak.
        use super::{Entry, Route};
        assert_eq!(std::mem::align_of::<Entry>(), std::mem::align_of::<Route>());
        assert_eq!(std::mem::size_of::<Entry>(), std::mem::size_of::<Route>());
    }

    #[test]
    fn an_entry_takes_32_bytes() {
        // A million entries are common: every byte here is a megabyte at the peak.
        assert!(std::mem::size_of::<super::Entry>() <= 32);
        assert_eq!(std::mem::size_of::<super::LocId>(), 8);
    }

    #[test]
    fn entries_read_back_their_locs_and_views_slice_them() {
        let mut entries = super::Entries::new();
        for i in 0..5 {
            let e = entries
                .push(&format!("https://example.com/p-{i}/?q={i}"))
                .unwrap();
            e.priority = crate::vocab::crawl_hints::Priority::from_f64(0.5);
        }
        entries.push("http://other.example:8080/x").unwrap();
        assert_eq!(entries.len(), 6);
        assert_eq!(entries.locs().text_len(), "/p-0/?q=0".len() * 5 + 2);
        assert_eq!(entries.loc(3), "https://example.com/p-3/?q=3");
        assert_eq!(entries.loc(5), "http://other.example:8080/x");
        let view = entries.slice(2..4);
        let got: Vec<String> = view.iter().map(|(l, _)| l.to_string()).collect();
        assert_eq!(
            got,
            [
                "https://example.com/p-2/?q=2",
                "https://example.com/p-3/?q=3"
            ]
        );
        assert!(view.iter().all(|(_, e)| e.priority.is_some()));
        assert_eq!(view.loc(&view.list()[1]), "https://example.com/p-3/?q=3");
        assert_eq!(entries.view().len(), 6);
        assert!(
            entries
                .push(&format!("https://example.com/{}", "x".repeat(70_000)))
                .is_err()
        );
        assert_eq!(entries.len(), 6, "a refused loc adds no entry");
    }
}
