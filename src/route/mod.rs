//! Route: every content file to the URL path the generator publishes it at, plus the pages
//! the generator makes on its own (home, taxonomies, pagers), with the reasons for leaving
//! any page out.
//!
//! Each generator's rules live in its wing, behind [`Router`] (see
//! [`crate::generator::Generator::router`]); this module holds what they share: the pages,
//! the routes, and the checks every route passes.

mod checks;

use crate::frontmatter::{PageMeta, Terms};
use crate::scan::{Files, SourceFile};
use crate::settings::Settings;
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};
use chrono::{DateTime, Utc};
use rayon::slice::ParallelSliceMut;
use std::borrow::Cow;
use std::fmt;

pub use crate::compact::RouteList;
use crate::compact::{LangCode, Span, TextArena};
pub use checks::finish;

/// Pages held until routing: the scanned files and, parallel to them, their front matter
/// (for rules that look across pages, as Hugo's do).
#[derive(Clone, Debug)]
pub struct Pages<'a> {
    /// The content files.
    pub files: &'a Files,
    /// Each file's front matter, in the same order, [`META_BLOCK`] pages a block: routing's
    /// last step frees each block once the routes of its pages have taken their dates
    /// ([`Buffered`]), so their lastmods take its place instead of stacking on it.
    meta: Vec<Vec<PageMeta>>,
    /// A block holds `1 << block_shift` pages ([`META_BLOCK`]; tests take fewer).
    block_shift: u32,
    /// How many pages.
    len: usize,
    /// Every page's packed taxonomy terms ([`Terms::pack`]), one after another: most pages
    /// of a blog have tags, and a string each would be a million allocations.
    terms: String,
    /// Where each page's packed terms end in `terms` (a page's start where the one before
    /// it ends): kept here rather than in [`PageMeta`], so routing's last step, which needs
    /// only the front matter, can free them with the terms ([`Pages::drop_terms`]).
    term_ends: Vec<u32>,
}

impl<'a> Pages<'a> {
    /// Pages for `files`, their front matter to be added in the same order.
    pub fn new(files: &'a Files) -> Pages<'a> {
        Pages {
            files,
            meta: Vec::new(),
            block_shift: META_BLOCK.trailing_zeros(),
            len: 0,
            terms: String::new(),
            term_ends: Vec::with_capacity(files.len()),
        }
    }

    /// [`Pages::new`] with blocks of `1 << block_shift` pages (tests take fewer than
    /// [`META_BLOCK`]).
    #[cfg(test)]
    pub(crate) fn with_block_shift(files: &'a Files, block_shift: u32) -> Pages<'a> {
        Pages {
            block_shift,
            ..Pages::new(files)
        }
    }

    /// Adds the next file's front matter and its packed terms; an error once the packed
    /// terms of all pages pass 4 GiB.
    pub fn push(&mut self, meta: PageMeta, terms: &str) -> Result<()> {
        let Some(end) = u32::try_from(self.terms.len() + terms.len()).ok() else {
            let next = self.len;
            let file = (next < self.files.len()).then(|| self.files.get(next).path());
            return Err(Error::input(
                file.unwrap_or_default(),
                None,
                "the site's taxonomy terms add up to more than 4 GiB",
            ));
        };
        self.terms.push_str(terms);
        self.term_ends.push(end);
        let full = 1 << self.block_shift;
        match self.meta.last_mut() {
            Some(block) if block.len() < full => block.push(meta),
            _ => {
                // Every block but the last is full: a page's block is found by a shift.
                let left = self.files.len().saturating_sub(self.len);
                let mut block = Vec::with_capacity(left.clamp(1, full));
                block.push(meta);
                self.meta.push(block);
            }
        }
        self.len += 1;
        Ok(())
    }

    /// Gives back spare capacity once every page is in.
    pub fn shrink_to_fit(&mut self) {
        self.meta.iter_mut().for_each(Vec::shrink_to_fit);
        self.terms.shrink_to_fit();
        self.term_ends.shrink_to_fit();
    }

    /// Frees every page's terms once routing no longer needs them: the pages read as
    /// having none from then on.
    pub fn drop_terms(&mut self) {
        self.terms = String::new();
        self.term_ends = Vec::new();
    }

    /// How many pages.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Page `i`; panics past the end, as slice indexing does, or once its block of front
    /// matter is freed ([`Pages::free_block`]).
    pub fn get(&self, i: usize) -> Page<'_> {
        Page {
            file: self.files.get(i),
            fm: self.meta(i),
            terms: self.terms(i),
        }
    }

    /// Page `i`'s taxonomy terms alone.
    pub fn terms(&self, i: usize) -> Terms<'_> {
        let end = self.term_ends.get(i).map_or(0, |&e| e as usize);
        let start = match i {
            0 => 0,
            _ => self.term_ends.get(i - 1).map_or(0, |&e| e as usize),
        };
        Terms::from_packed(self.terms.get(start..end).unwrap_or(""))
    }

    /// Page `i`'s front matter alone: [`Pages::get`] without finding its file.
    pub fn meta(&self, i: usize) -> &PageMeta {
        &self.meta[self.block_of(i)][i & ((1 << self.block_shift) - 1)]
    }

    /// Every page, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Page<'_>> + '_ {
        let files = self.files.iter().take(self.len());
        files.enumerate().map(|(i, file)| Page {
            file,
            fm: self.meta(i),
            terms: self.terms(i),
        })
    }

    /// The block of front matter that holds page `i`.
    fn block_of(&self, i: usize) -> usize {
        i >> self.block_shift
    }

    /// Frees the front matter of the pages of block `b` ([`Pages::block_of`]); they may not
    /// be read again.
    fn free_block(&mut self, b: usize) {
        if let Some(block) = self.meta.get_mut(b) {
            *block = Vec::new();
        }
    }
}

/// Pages of front matter a block of [`Pages`] holds: 4,096 pages, about 200 KB, each a
/// mapping of its own that glibc hands back as soon as it is freed.
pub(crate) const META_BLOCK: usize = 4096;

/// A content file with its front matter.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    /// Where it came from.
    pub file: SourceFile<'a>,
    /// What its front matter says.
    pub fm: &'a PageMeta,
    /// Its taxonomy terms.
    pub terms: Terms<'a>,
}

/// What a URL is, in the generators' terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The site's (or a language's) home page.
    Home,
    /// A section's list page.
    Section,
    /// A regular page.
    Page,
    /// A taxonomy's list of terms (`/tags/`).
    Taxonomy,
    /// One term's page (`/tags/rust/`).
    Term,
    /// Page 2, 3, … of a paginated list.
    Pager,
}

/// One URL the site publishes.
///
/// A large site has a route per page, all alive at once: 32 bytes, with its path in
/// [`Routing::paths`] and the parts most routes lack (translation key, file-name date,
/// roll-up list) boxed apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// Index into the pages slice of the content file behind it, or [`NO_PAGE`].
    page: u32,
    /// What it is.
    pub kind: Kind,
    /// False for a page that is built (and so feeds its section's dates) but not listed.
    pub listed: bool,
    /// The page asks for no `<priority>` (Hugo's negative priority): no default applies.
    pub priority_off: bool,
    /// `<changefreq>` as the generator resolves it.
    pub changefreq: Option<ChangeFreq>,
    /// `<priority>` as the generator resolves it (front matter, cascade, language default).
    pub priority: Option<Priority>,
    /// Language code, as its index among the codes the process has seen ([`LangCode`]).
    lang: LangCode,
    /// Where its path lies in the [`RoutePaths`] of its routing.
    path: Span,
    /// The rarer parts; `None` when the route has none of them.
    more: Option<Box<RouteMore>>,
}

/// A route on its way into a [`Routing`], its path still its own; it reads and writes as the
/// [`Route`] it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRoute {
    /// The route.
    pub route: Route,
    /// Decoded URL path below the language's base URL, starting with `/`.
    pub path: String,
}

impl std::ops::Deref for NewRoute {
    type Target = Route;

    fn deref(&self) -> &Route {
        &self.route
    }
}

impl std::ops::DerefMut for NewRoute {
    fn deref_mut(&mut self) -> &mut Route {
        &mut self.route
    }
}

/// Every route's path, in route order in a [`TextArena`]: the entries stage frees the blocks
/// behind it as it goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoutePaths {
    text: TextArena,
    /// The first route whose path could not be placed ([`finish`] refuses the routing).
    overflow: Option<usize>,
}

impl RoutePaths {
    /// The decoded URL path of `route` (below its language's base URL, starting with `/`).
    pub fn get(&self, route: &Route) -> &str {
        self.text.get(route.path)
    }

    /// Gives back the paths before `route`'s: no later route's path lies among them.
    pub fn release_before(&mut self, route: &Route) {
        self.text.release_before(route.path);
    }

    /// Route `k`, `new`, its path placed after the others.
    fn place(&mut self, new: NewRoute, k: usize) -> Route {
        let NewRoute { mut route, path } = new;
        route.path = self.add(&path, k);
        route
    }

    /// Places route `k`'s `path` after the others and returns where it lies.
    fn add(&mut self, path: &str, k: usize) -> Span {
        // Far past the protocol's 2,048 characters (or 4 GiB of paths): refused as a whole
        // by `finish`.
        self.text.push(path).unwrap_or_else(|_| {
            self.overflow.get_or_insert(k);
            Span::default()
        })
    }
}

/// The parts of a [`Route`] most routes lack.
#[derive(Clone, Debug, Default, PartialEq)]
struct RouteMore {
    /// Routes that share a key are language versions of one page (multilingual sites only).
    key: Box<str>,
    /// A date the generator takes from the file name (Zola's `2024-01-02-post.md`).
    file_date: Option<W3cDate>,
    /// Routes whose dates roll up into this one when it has none of its own (list pages):
    /// boxed apart, as few routes have one, and the pages with a file-name date (a Zola
    /// blog's every post) box this record for that date alone (64 bytes with the
    /// allocator's header, not 96).
    rollup: Option<Box<RouteList>>,
    /// Hugo: the page's lastmod key runs once cascades filled the keys it leaves out (only
    /// when a cascade changed them).
    hugo_lastmod: Option<Box<[Option<W3cDate>]>>,
    /// A list page with dates of its own in front matter: Hugo dates it by them alone, never
    /// by the pages below it (even where its lastmod order finds none).
    keeps_own_dates: bool,
}

/// [`Route`]'s page index for a generated route.
const NO_PAGE: u32 = u32::MAX;

impl Route {
    /// A listed route for a content file, with the file's own priority and changefreq.
    pub fn for_page(
        index: usize,
        page: &Page,
        kind: Kind,
        path: String,
        lang: &str,
        key: String,
    ) -> NewRoute {
        let mut r = Route::generated(kind, path, lang, key);
        // A page index is far below u32::MAX: each page's record takes over 100 bytes.
        r.page = u32::try_from(index).unwrap_or(NO_PAGE);
        r.priority = page.fm.priority;
        r.priority_off = page.fm.priority_off();
        r.changefreq = page.fm.changefreq;
        r
    }

    /// A listed route the generator makes with no content file behind it.
    pub fn generated(kind: Kind, path: String, lang: &str, key: String) -> NewRoute {
        let mut r = Route {
            page: NO_PAGE,
            kind,
            listed: true,
            priority_off: false,
            changefreq: None,
            priority: None,
            lang: LangCode::of(lang),
            path: Span::default(),
            more: None,
        };
        if !key.is_empty() {
            r.more_mut().key = key.into_boxed_str();
        }
        NewRoute { route: r, path }
    }

    /// The index of the content file behind it, if any.
    pub fn page(&self) -> Option<usize> {
        (self.page != NO_PAGE).then_some(self.page as usize)
    }

    /// Its language code.
    pub fn lang(&self) -> &'static str {
        self.lang.code()
    }

    /// Its language, interned.
    pub fn lang_code(&self) -> crate::compact::LangCode {
        self.lang
    }

    /// Its translation key: routes that share one are language versions of one page.
    pub fn key(&self) -> &str {
        self.more.as_ref().map_or("", |m| &m.key)
    }

    /// The date the generator takes from its file name.
    pub fn file_date(&self) -> Option<W3cDate> {
        self.more.as_ref().and_then(|m| m.file_date)
    }

    /// Sets the date the generator takes from its file name.
    pub fn set_file_date(&mut self, date: Option<W3cDate>) {
        if date.is_some() || self.more.is_some() {
            self.more_mut().file_date = date;
        }
    }

    /// Hugo: the page's lastmod key runs as cascades left them, when they changed them.
    pub fn hugo_lastmod(&self) -> Option<&[Option<W3cDate>]> {
        self.more.as_ref().and_then(|m| m.hugo_lastmod.as_deref())
    }

    /// Whether a list page keeps its own dates ([`RouteMore::keeps_own_dates`]).
    pub fn keeps_own_dates(&self) -> bool {
        self.more.as_ref().is_some_and(|m| m.keeps_own_dates)
    }

    /// Marks a list page as dated by its own front matter alone.
    pub fn set_keeps_own_dates(&mut self) {
        self.more_mut().keeps_own_dates = true;
    }

    /// Sets [`Route::hugo_lastmod`].
    pub fn set_hugo_lastmod(&mut self, groups: Vec<Option<W3cDate>>) {
        self.more_mut().hugo_lastmod = Some(groups.into_boxed_slice());
    }

    /// The routes whose dates roll up into this one.
    pub fn rollup(&self) -> impl Iterator<Item = usize> + '_ {
        self.more
            .iter()
            .flat_map(|m| m.rollup.iter().flat_map(|l| l.iter().map(|r| r as usize)))
    }

    /// Adds routes to those whose dates roll up into this one.
    pub fn add_rollup(&mut self, routes: impl IntoIterator<Item = usize>) {
        let mut routes = routes.into_iter().peekable();
        if routes.peek().is_none() {
            return;
        }
        let list = self.more_mut().rollup.get_or_insert_with(Default::default);
        // Route indices share the page index's bound.
        for r in routes {
            list.push(u32::try_from(r).unwrap_or(NO_PAGE));
        }
    }

    /// Adds a list of route indices to those whose dates roll up into this one, keeping the
    /// list's own allocation when this route has none yet (a section's list holds a route
    /// index for each of its pages).
    pub fn add_rollup_list(&mut self, mut routes: RouteList) {
        if routes.is_empty() {
            return;
        }
        match &mut self.more_mut().rollup {
            Some(list) => list.append(&routes),
            none => {
                routes.shrink_to_fit();
                *none = Some(Box::new(routes));
            }
        }
    }

    fn more_mut(&mut self) -> &mut RouteMore {
        self.more.get_or_insert_with(Default::default)
    }
}

/// Why a content file has no entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// `draft = true` (or inside a draft section).
    Draft,
    /// Publish date in the future.
    Future,
    /// Expiry date in the past.
    Expired,
    /// `sitemap = false` or `sitemap.disable = true` in front matter.
    SitemapOff,
    /// The generator writes no page for it (`render = false`, `_build`, headless).
    NotRendered,
    /// A redirect (`redirect_to`, or a built page that refreshes to another URL), never listed.
    Redirect,
    /// Matched an `exclude` glob or rule.
    ExcludedByConfig,
    /// The generator ignores the file (resource of a bundle, unknown language).
    NotAPage,
    /// Another page publishes at the same URL: it is listed once.
    Duplicate,
    /// The page has no HTML output (Hugo `outputs`): no page a visitor can open.
    NoHtmlOutput,
    /// The audit found no file in the output folder that serves the URL.
    NotBuilt,
    /// `noindex = true` in front matter, or the audit found a robots `noindex` in the built
    /// page's head.
    Noindex,
    /// The audit found the built page's canonical link pointing at another URL.
    Canonical,
    /// The site's robots.txt keeps crawlers from the URL.
    RobotsDisallowed,
}

/// Why front matter leaves a page out: `noindex` when `noindex = true` alone did, else
/// `sitemap-off` (`sitemap = false`, `sitemap.disable = true`).
pub fn off_reason(noindex: bool) -> Reason {
    if noindex {
        Reason::Noindex
    } else {
        Reason::SitemapOff
    }
}

impl Reason {
    /// A short label for messages and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Draft => "draft",
            Reason::Future => "future",
            Reason::Expired => "expired",
            Reason::SitemapOff => "sitemap-off",
            Reason::NotRendered => "not-rendered",
            Reason::Redirect => "redirect",
            Reason::ExcludedByConfig => "excluded",
            Reason::NotAPage => "not-a-page",
            Reason::Duplicate => "duplicate-url",
            Reason::NoHtmlOutput => "no-html-output",
            Reason::NotBuilt => "not-built",
            Reason::Noindex => "noindex",
            Reason::Canonical => "canonical",
            Reason::RobotsDisallowed => "robots-disallowed",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A content file left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Excluded {
    /// Index into the pages slice.
    pub page: usize,
    /// Why.
    pub reason: Reason,
}

/// The result of routing a site.
#[derive(Clone, Debug, Default)]
pub struct Routing {
    /// Every URL the site publishes (listed or not).
    pub routes: Vec<Route>,
    /// Content files that get no URL in the sitemap.
    pub excluded: Vec<Excluded>,
    /// The routes' paths.
    pub paths: RoutePaths,
    /// What the user should hear about the routes (two pages with one URL).
    pub warnings: Vec<String>,
}

impl Routing {
    /// Adds a route, its path placed in [`Routing::paths`]; returns its index.
    pub fn push(&mut self, new: NewRoute) -> usize {
        let route = self.paths.place(new, self.routes.len());
        self.routes.push(route);
        self.routes.len() - 1
    }

    /// The decoded URL path of route `k`.
    pub fn path(&self, k: usize) -> &str {
        self.paths.get(&self.routes[k])
    }

    /// Replaces each path `f` changes. The paths are copied once, from the first change on,
    /// and only when something changes.
    fn rewrite_paths(&mut self, f: impl Fn(&str) -> Cow<'_, str>) {
        self.rewrite_paths_of(|_, p| f(p));
    }

    /// Gives route `k` the path `path`, for each `(k, path)` of `new`.
    pub fn set_paths(&mut self, new: &std::collections::HashMap<usize, String>) {
        if !new.is_empty() {
            self.rewrite_paths_of(|k, old| match new.get(&k) {
                Some(p) => Cow::Owned(p.clone()),
                None => Cow::Borrowed(old),
            });
        }
    }

    /// [`Routing::rewrite_paths`], `f` told each route's index.
    fn rewrite_paths_of(&mut self, f: impl for<'p> Fn(usize, &'p str) -> Cow<'p, str>) {
        let mut fresh: Option<RoutePaths> = None;
        for k in 0..self.routes.len() {
            let old = self.paths.get(&self.routes[k]);
            let new = f(k, old);
            // A borrowed result is unchanged unless it is a shorter slice of the old path.
            let changed = matches!(new, Cow::Owned(_)) || new.len() != old.len();
            let target = match &mut fresh {
                Some(t) => t,
                None if !changed => continue,
                None => {
                    let t = fresh.insert(RoutePaths {
                        overflow: self.paths.overflow,
                        ..Default::default()
                    });
                    for (j, r) in self.routes[..k].iter_mut().enumerate() {
                        r.path = t.add(self.paths.get(r), j);
                    }
                    t
                }
            };
            let span = target.add(&new, k);
            self.routes[k].path = span;
        }
        if let Some(t) = fresh {
            self.paths = t;
        }
    }
}

/// What a router may consult besides the pages.
#[derive(Clone, Copy, Debug)]
pub struct RouteContext<'a> {
    /// The run's settings (site config included).
    pub settings: &'a Settings,
    /// "Now", for Hugo's future and expired rules.
    pub now: DateTime<Utc>,
    /// The forms the host serves URLs in: every path is written in the one it answers with
    /// 200 (`.html` dropped on Cloudflare Pages, a folder's trailing slash on GitHub Pages).
    pub served: crate::platform::Forms,
}

/// Told of every route as it is made, with the front matter of the page it came from, so a
/// later stage (lastmod) can take what it needs of the page before the front matter is gone.
pub trait RouteSink {
    /// Route `k` (`routing.routes[k]`) was made for file `page`, whose front matter is `meta`.
    fn made(&mut self, routing: &Routing, k: usize, page: usize, meta: &PageMeta);
}

/// A generator's URL rules, fed the pages as they are read.
///
/// The pipeline reads the files of [`Router::first`] first, then the others in file order,
/// handing each to [`Router::add`], then calls [`Router::finish`]. A router may route a page
/// as it arrives (Zola, plain) or hold every page until `finish` (Hugo, whose rules look
/// across pages); either way it tells the sink of each route it makes.
pub trait Router {
    /// The files to read before all others, in file order (Zola's sections).
    fn first(&self) -> Vec<usize> {
        Vec::new()
    }

    /// The files the generator never reads, in file order: they are not opened, and come
    /// to [`Router::add`] with empty front matter (the router leaves them out). Asked before
    /// the [`Router::first`] files are read and again after them, whose front matter may
    /// leave more files unread.
    fn unread(&self) -> Vec<usize> {
        Vec::new()
    }

    /// Takes file `page`'s front matter and packed taxonomy terms ([`Terms::pack`]).
    fn add(
        &mut self,
        page: usize,
        meta: PageMeta,
        terms: &str,
        sink: &mut dyn RouteSink,
    ) -> Result<()>;

    /// Every file is in: the remaining routes and the generated pages, unchecked (see
    /// [`finish`] for the checks).
    fn finish(self: Box<Self>, sink: &mut dyn RouteSink) -> Result<Routing>;
}

/// A router whose rules need every page at once: it holds the pages as they come and routes
/// them all in [`Router::finish`] with `rules` (which may free what they are done with, as
/// the terms), then frees them.
pub struct Buffered<'a> {
    pages: Pages<'a>,
    ctx: RouteContext<'a>,
    rules: fn(&mut Pages, &RouteContext) -> Result<Routing>,
    /// [`Router::unread`].
    unread: Vec<usize>,
}

impl<'a> Buffered<'a> {
    /// A router that holds the pages of `files` until every one is in, then routes them
    /// with `rules`.
    pub fn new(
        files: &'a Files,
        ctx: &RouteContext<'a>,
        rules: fn(&mut Pages, &RouteContext) -> Result<Routing>,
    ) -> Buffered<'a> {
        Buffered::holding(Pages::new(files), ctx, rules)
    }

    /// [`Buffered::new`] into `pages` (made by the caller: tests take smaller blocks).
    pub(crate) fn holding(
        pages: Pages<'a>,
        ctx: &RouteContext<'a>,
        rules: fn(&mut Pages, &RouteContext) -> Result<Routing>,
    ) -> Buffered<'a> {
        Buffered {
            pages,
            ctx: *ctx,
            rules,
            unread: Vec::new(),
        }
    }

    /// The router, told that `rules` leave the files `unread` (in file order) out unread.
    pub fn never_reading(mut self, unread: Vec<usize>) -> Buffered<'a> {
        self.unread = unread;
        self
    }
}

impl Router for Buffered<'_> {
    fn unread(&self) -> Vec<usize> {
        self.unread.clone()
    }

    fn add(
        &mut self,
        page: usize,
        meta: PageMeta,
        terms: &str,
        _: &mut dyn RouteSink,
    ) -> Result<()> {
        // Pages arrive in file order; one that could not be read leaves a default in its
        // place (the run fails on its error; the rest are still routed for their errors).
        while self.pages.len() < page {
            self.pages.push(PageMeta::default(), "")?;
        }
        self.pages.push(meta, terms)
    }

    fn finish(mut self: Box<Self>, sink: &mut dyn RouteSink) -> Result<Routing> {
        self.pages.shrink_to_fit();
        let routing = (self.rules)(&mut self.pages, &self.ctx)?;
        // The routes take their dates in order, and each block of front matter is freed as
        // soon as the last route made from its pages has taken them: the lastmods gathered
        // then take its place rather than stacking on every page's front matter, the run's
        // peak on a large site.
        let pages = &mut self.pages;
        let mut last_use: Vec<Option<usize>> = vec![None; pages.meta.len()];
        for (k, r) in routing.routes.iter().enumerate() {
            if let Some(p) = r.page() {
                last_use[pages.block_of(p)] = Some(k);
            }
        }
        for (b, _) in last_use.iter().enumerate().filter(|(_, k)| k.is_none()) {
            pages.free_block(b);
        }
        for (k, r) in routing.routes.iter().enumerate() {
            if let Some(p) = r.page() {
                sink.made(&routing, k, p, pages.meta(p));
                let b = pages.block_of(p);
                if last_use[b] == Some(k) {
                    pages.free_block(b);
                }
            }
        }
        Ok(routing)
    }
}

/// Routes every page of `pages` with `router` (the generator's, over `pages.files`), the
/// path the pipeline takes fed from memory: for tools and tests that hold the front matter
/// already.
pub fn route_all(
    pages: &Pages,
    mut router: Box<dyn Router + '_>,
    ctx: &RouteContext,
) -> Result<Routing> {
    struct Ignore;
    impl RouteSink for Ignore {
        fn made(&mut self, _: &Routing, _: usize, _: usize, _: &PageMeta) {}
    }
    let order = router.first();
    let rest = (0..pages.len()).filter(|i| order.binary_search(i).is_err());
    for i in order.iter().copied().chain(rest) {
        let p = pages.get(i);
        router.add(i, p.fm.clone(), p.terms.packed(), &mut Ignore)?;
    }
    let routing = router.finish(&mut Ignore)?;
    finish(routing, pages.files, ctx)
}

/// Splits a file stem's language suffix (`post.fr` -> `post`, `fr`) when it names one of
/// `langs`.
pub fn split_lang<'a>(stem: &'a str, langs: &[&str]) -> (&'a str, Option<&'a str>) {
    if let Some((base, suffix)) = stem.rsplit_once('.')
        && langs.iter().any(|l| l.eq_ignore_ascii_case(suffix))
    {
        return (base, Some(suffix));
    }
    (stem, None)
}

/// Joins segments into `/a/b/` (empty segments dropped; `/` alone for none).
pub fn join_path<'a>(
    segments: impl IntoIterator<Item = &'a str, IntoIter: Clone>,
    trailing_slash: bool,
) -> String {
    let segments = segments.into_iter();
    // Sized up front: a route path lives for the whole run, and one grown by pushes has up
    // to twice the room it needs.
    let len: usize = segments.clone().map(|s| s.len() + 1).sum();
    let mut out = String::with_capacity(len + 1);
    out.push('/');
    for s in segments {
        let s = s.trim_matches('/');
        if s.is_empty() {
            continue;
        }
        out.push_str(s);
        out.push('/');
    }
    if !trailing_slash && out.len() > 1 {
        out.pop();
    }
    out
}

/// [`normalize`], borrowing the path when normalizing would not change it (most do not).
fn normalized(path: &str) -> Cow<'_, str> {
    if !path.starts_with('/')
        || path.split('/').any(|s| s == "." || s == "..")
        || path.contains("//")
    {
        Cow::Owned(normalize(path))
    } else {
        Cow::Borrowed(path)
    }
}

/// Collapses `//` and resolves `.` and `..` segments (callers check for climbing out first).
pub fn normalize(path: &str) -> String {
    let trailing = path.ends_with('/') || path.ends_with("/.") || path.ends_with("/..");
    let mut segs: Vec<&str> = Vec::new();
    for s in path.split('/') {
        match s {
            "" | "." => {}
            ".." => {
                segs.pop();
            }
            s => segs.push(s),
        }
    }
    let mut out = String::from("/");
    out.push_str(&segs.join("/"));
    if trailing && !segs.is_empty() {
        out.push('/');
    }
    out
}

/// `path` with the trailing slash sitemap.toml's `trailing_slash` asks for; borrowed when it
/// has it already.
fn trailing_slash(path: &str, on: bool) -> Cow<'_, str> {
    if !on && path.len() > 1 && path.ends_with('/') {
        Cow::Borrowed(&path[..path.len() - 1])
    } else if on && !path.ends_with('/') && !last_segment_has_dot(path) {
        Cow::Owned(format!("{path}/"))
    } else {
        Cow::Borrowed(path)
    }
}

fn last_segment_has_dot(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|s| s.contains('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_boxes_only_what_it_has() {
        let mut r = Route::generated(Kind::Section, "/a/".into(), "fr", String::new());
        assert!(r.more.is_none() && r.key().is_empty() && r.page().is_none());
        r.add_rollup([]);
        r.set_file_date(None);
        assert!(r.more.is_none());
        r.add_rollup([3]);
        r.add_rollup([1, 2]);
        assert_eq!(r.rollup().collect::<Vec<_>>(), [3, 1, 2]);
        r.add_rollup_list([9, 8].into_iter().collect());
        assert_eq!(r.rollup().collect::<Vec<_>>(), [3, 1, 2, 9, 8]);
        let mut fresh = Route::generated(Kind::Section, "/b/".into(), "fr", String::new());
        fresh.add_rollup_list(RouteList::new());
        assert!(fresh.more.is_none());
        fresh.add_rollup_list([4, 5].into_iter().collect());
        assert_eq!(fresh.rollup().collect::<Vec<_>>(), [4, 5]);
        // A file-name date alone boxes no more than that needs.
        assert!(std::mem::size_of::<RouteMore>() <= 56);
        assert_eq!(r.lang(), "fr");
        // One index per code, whichever thread asks, and every thread reads it back.
        let other = std::thread::spawn(|| LangCode::of("fr")).join().unwrap();
        assert_eq!(r.lang, other);
        let code = std::thread::spawn(move || other.code()).join().unwrap();
        assert_eq!(code, "fr");
        let keyed = Route::generated(Kind::Page, "/b/".into(), "en", "b".into());
        assert_eq!((keyed.key(), keyed.lang()), ("b", "en"));
        assert!(std::mem::size_of::<Route>() <= 32);
    }

    #[test]
    fn paths_share_one_buffer_and_are_rewritten_in_route_order() {
        let mut routing = Routing::default();
        for p in ["/", "/a/", "/b/./c/", "/d.html", "/e/"] {
            routing.push(Route::generated(Kind::Page, p.into(), "en", String::new()));
        }
        let all = |r: &Routing| {
            (0..r.routes.len())
                .map(|k| r.path(k).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(all(&routing), ["/", "/a/", "/b/./c/", "/d.html", "/e/"]);
        assert_eq!(routing.paths.text.blocks(), ["//a//b/./c//d.html/e/"]);
        // Nothing changes: the buffer is left as it is.
        routing.rewrite_paths(|p| trailing_slash(p, true));
        assert_eq!(routing.paths.text.blocks(), ["//a//b/./c//d.html/e/"]);
        routing.rewrite_paths(normalized);
        assert_eq!(all(&routing), ["/", "/a/", "/b/c/", "/d.html", "/e/"]);
        routing.rewrite_paths(|p| trailing_slash(p, false));
        assert_eq!(all(&routing), ["/", "/a", "/b/c", "/d.html", "/e"]);
        assert_eq!(routing.paths.text.blocks(), ["//a/b/c/d.html/e"]);
    }

    #[test]
    fn paths_fill_blocks_in_route_order_and_free_the_ones_behind() {
        let mut routing = Routing::default();
        let path = |k: usize| format!("/section/{k:05}/{}/", "x".repeat(k % 40));
        for k in 0..5000 {
            routing.push(Route::generated(Kind::Page, path(k), "en", String::new()));
        }
        let blocks = routing.paths.text.blocks().len();
        assert!(blocks >= 3, "{blocks} blocks");
        assert!(
            routing
                .paths
                .text
                .blocks()
                .iter()
                .all(|b| b.len() <= crate::compact::BLOCK)
        );
        for k in (0..5000).step_by(7) {
            assert_eq!(routing.path(k), path(k));
        }
        // Free everything before the last route's block: it and the routes after stay.
        let last = routing.routes[4999].clone();
        routing.paths.release_before(&last);
        let kept = (0..5000).filter(|&k| routing.path(k) == path(k)).count();
        assert!(kept > 0 && kept < 5000);
        assert!((5000 - kept..5000).all(|k| routing.path(k) == path(k)));
        assert_eq!(routing.paths.text.get(routing.routes[0].path), "");
        // A path past a block's size is refused rather than cut.
        routing.push(Route::generated(
            Kind::Page,
            "/".repeat(crate::compact::BLOCK),
            "en",
            String::new(),
        ));
        assert_eq!(routing.paths.overflow, Some(routing.routes.len() - 1));
    }

    #[test]
    fn each_page_reads_its_own_terms_from_the_shared_buffer() {
        let root = crate::scan::ContentRoot {
            dir: "c".into(),
            lang: None,
            ..Default::default()
        };
        let mut files = Files::new();
        for r in ["a.md", "b.md", "c.md", "d.md"] {
            files.push(&root, r).unwrap();
        }
        let mut pages = Pages::new(&files);
        let tags = |t: &[&str]| {
            let list = t.iter().map(|s| s.to_string()).collect();
            Terms::pack(&[("tags".to_string(), list)], &[])
        };
        pages.push(PageMeta::default(), &tags(&["x"])).unwrap();
        pages.push(PageMeta::default(), "").unwrap();
        pages.push(PageMeta::default(), &tags(&["y", "z"])).unwrap();
        let got: Vec<Vec<&str>> = pages
            .iter()
            .map(|p| {
                p.terms
                    .get("tags", false)
                    .map(|t| t.terms.collect())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(got, [vec!["x"], vec![], vec!["y", "z"]]);
        assert_eq!(pages.get(1).file.rel(), "b.md");
        // Once routing is done with them, every page reads as having none; the front matter
        // stays.
        let mut meta = PageMeta::default();
        meta.set_draft(Some(true));
        pages.push(meta, &tags(&["w"])).unwrap();
        pages.drop_terms();
        assert!(pages.iter().all(|p| p.terms.packed().is_empty()));
        assert_eq!(pages.get(3).fm.draft(), Some(true));
    }

    #[test]
    fn splits_known_language_suffixes_only() {
        assert_eq!(split_lang("post.fr", &["fr"]), ("post", Some("fr")));
        assert_eq!(split_lang("post.de", &["fr"]), ("post.de", None));
        assert_eq!(split_lang("post", &["fr"]), ("post", None));
    }

    #[test]
    fn joins_and_normalizes() {
        assert_eq!(join_path(["blog", "", "post"], true), "/blog/post/");
        assert_eq!(join_path([], true), "/");
        assert_eq!(join_path(["a"], false), "/a");
        assert_eq!(normalize("/a//b/./c/../d/"), "/a/b/d/");
        assert_eq!(normalize("/x/.."), "/");
        assert_eq!(normalize("/legacy/page.html"), "/legacy/page.html");
    }

    #[test]
    fn trailing_slash_setting() {
        assert_eq!(trailing_slash("/a/", false), "/a");
        assert_eq!(trailing_slash("/", false), "/");
        assert_eq!(trailing_slash("/a", true), "/a/");
        assert_eq!(trailing_slash("/a.html", true), "/a.html");
        assert_eq!(trailing_slash("/a/", true), "/a/");
    }
}
