//! Zola's URL rules (0.22): sections are folders with `_index.md`, pages are `.md` files or
//! `index.md` in a colocated folder, slugs follow `[slugify] paths`, file names may carry a
//! date, languages are file suffixes below `/{lang}/`, taxonomies and pagers are generated.

use crate::frontmatter::{PageMeta, Terms};
use crate::route::{
    Excluded, Kind, Reason, Route, RouteContext, RouteList, RouteSink, Router, Routing, join_path,
};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Taxonomy;
use crate::slugify::{SlugStrategy, zola_slugify};
use crate::vocab::date::{SiteTz, W3cDate};
use crate::vocab::error::{Error, Result};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Where a file sits, once its name has been read: slices of the file's path, made again
/// wherever needed rather than kept for every file.
struct Placed<'a> {
    /// The URL's folders, `/`-joined as written (Zola never slugifies folder names; "" at the
    /// root); for a colocated `index.md` its own folder is not one of them.
    dirs: &'a str,
    /// The folder the file is in, relative to the content dir (what a draft section prunes).
    folder: &'a str,
    /// The name the slug comes from (file stem, or the folder of a colocated `index.md`).
    name: &'a str,
    lang: &'a str,
    is_section: bool,
    /// The file's path without its language suffix: shared by its translations. Only
    /// multilingual sites need it; elsewhere it is empty.
    key: std::borrow::Cow<'a, str>,
}

/// `dirs` and each folder above it, deepest first: `a/b`, `a`, then the root, "".
fn and_parents(dirs: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dirs);
    std::iter::from_fn(move || {
        let cur = next?;
        next = (!cur.is_empty()).then(|| cur.rsplit_once('/').map_or("", |(p, _)| p));
        Some(cur)
    })
}

/// A taxonomy's terms by slug: how many rendered pages have it (what its pagers hold: Zola
/// skips `render = false` pages there, though they make the term), and the routes of the
/// written ones (u32: a term of a large site lists many thousand pages).
type TermMap = BTreeMap<String, (usize, RouteList)>;

/// Zola's routes, made page by page in file order as the front matter is read.
///
/// A Zola page's URL depends only on its own file and front matter and on its sections',
/// so once the sections are in (the files of [`Router::first`]) each page is routed on its
/// turn and its front matter need not outlive it: a million pages never hold their front
/// matter and their routes at once. Sections take their turn in file order too, among the
/// pages. [`Router::finish`] adds the pages Zola generates.
pub struct ZolaRouter<'a> {
    files: &'a Files,
    settings: &'a Settings,
    default_lang: &'a str,
    others: Vec<&'a str>,
    paths_strategy: SlugStrategy,
    tax_strategy: SlugStrategy,
    with_pagers: bool,
    out: Routing,
    /// What stops the build, reported by [`ZolaRouter::finish`].
    errors: Vec<Error>,
    /// Files whose names Zola refuses, with why: reported unless a draft section above
    /// them keeps Zola from reading them.
    bad_names: Vec<(usize, String)>,
    /// Files Zola skips by their names (an `_index` of a language the site does not
    /// have), in file order: never read.
    skipped: Vec<usize>,
    /// Each path a rendered page or section takes (its URL path and its aliases), by its
    /// [`fingerprint`], and the file that took it first: Zola refuses two files on one path.
    claimed: HashMap<u128, usize>,
    /// The `_index` files, in file order.
    section_files: Vec<usize>,
    /// Their front matter, by file index.
    section_meta: HashMap<usize, PageMeta>,
    /// Whether every section is in (the first page has arrived).
    sections_in: bool,
    /// The next of `section_files` to take its turn.
    next_section: usize,
    /// Folders of draft sections: Zola skips everything below them.
    draft_dirs: HashSet<&'a str>,
    /// Folders with an `_index` file in any language, draft or not.
    section_dirs: HashSet<&'a str>,
    /// Loaded sections by (language, folder).
    sections: HashMap<(&'a str, &'a str), usize>,
    /// Route index of each section's list page, by (language, folder).
    section_route: HashMap<(String, String), usize>,
    /// Routes of the written pages per nearest section, to roll dates up (u32: one per page).
    members: BTreeMap<(String, String), RouteList>,
    /// Pages each section paginates, by the section's file index.
    paginated: HashMap<usize, u32>,
    /// Written pages of the current folder, added to `members` when the folder changes.
    batch: Option<((&'a str, &'a str), RouteList)>,
    last_dirs: Option<(&'a str, &'a str)>,
    /// The sections that hold the pages of the current folder (their file indices): its
    /// own, then each parent of a transparent one. Files of a folder come together, so the
    /// chain is looked up once per folder. The flag: the chain reaches the root through
    /// transparent sections and the site has no `_index.md` there, so the page is also in
    /// the home Zola makes, which sorts nothing.
    chain: (Option<(&'a str, &'a str)>, Vec<usize>, bool),
    /// The default language, then the others.
    langs: Vec<&'a str>,
    /// Each language's rendered taxonomies, in the config's order.
    taxonomies: Vec<Vec<&'a Taxonomy>>,
    /// Their names, as a page's `[taxonomies]` table must spell them.
    wanted: Vec<Vec<&'a str>>,
    /// Each language's taxonomies, rendered or not: a page naming another stops Zola.
    declared: Vec<Vec<&'a str>>,
    /// Terms by language and taxonomy, gathered from every loaded page (a `render = false`
    /// one too) as it is routed. Terms that slugify alike are one term.
    terms: Vec<Vec<TermMap>>,
}

impl<'a> ZolaRouter<'a> {
    /// A mapper for `files`: each is placed once here to report every bad name (kept for
    /// [`ZolaRouter::finish`]); nothing is kept per file, so later steps place a file again,
    /// which costs less than keeping a million placements.
    pub fn new(files: &'a Files, ctx: &RouteContext<'a>) -> ZolaRouter<'a> {
        let settings = ctx.settings;
        let site = &settings.site;
        let default_lang = site.default_language.as_str();
        let others: Vec<&str> = site
            .languages
            .iter()
            .map(|l| l.code.as_str())
            .filter(|c| *c != default_lang)
            .collect();
        let langs: Vec<&str> = std::iter::once(default_lang)
            .chain(others.iter().copied())
            .collect();
        let all: Vec<&[Taxonomy]> = langs
            .iter()
            .map(|lang| {
                site.language(lang)
                    .and_then(|l| l.taxonomies.as_deref())
                    .unwrap_or(&[])
            })
            .collect();
        let declared = all
            .iter()
            .map(|ts| ts.iter().map(|t| t.name.as_str()).collect())
            .collect();
        let taxonomies: Vec<Vec<&Taxonomy>> = all
            .iter()
            .map(|ts| ts.iter().filter(|t| t.render).collect())
            .collect();
        let wanted = taxonomies
            .iter()
            .map(|ts| ts.iter().map(|t| t.name.as_str()).collect())
            .collect();
        let terms = taxonomies
            .iter()
            .map(|ts| ts.iter().map(|_| TermMap::new()).collect())
            .collect();
        let mut map = ZolaRouter {
            files,
            settings,
            default_lang,
            others,
            // The config stage has refused unknown strategies already.
            paths_strategy: site.slugify_paths.parse().unwrap_or(SlugStrategy::On),
            tax_strategy: site.slugify_taxonomies.parse().unwrap_or(SlugStrategy::On),
            with_pagers: !site.exclude_paginated_pages,
            // Nearly every file is a route: reserved up front, the vector is never doubled.
            out: Routing {
                routes: Vec::with_capacity(files.len() + 16),
                ..Default::default()
            },
            errors: Vec::new(),
            bad_names: Vec::new(),
            skipped: Vec::new(),
            claimed: HashMap::new(),
            section_files: Vec::new(),
            section_meta: HashMap::new(),
            sections_in: false,
            next_section: 0,
            draft_dirs: HashSet::new(),
            section_dirs: HashSet::new(),
            sections: HashMap::new(),
            section_route: HashMap::new(),
            members: BTreeMap::new(),
            paginated: HashMap::new(),
            batch: None,
            last_dirs: None,
            chain: (None, Vec::new(), false),
            langs,
            taxonomies,
            wanted,
            declared,
            terms,
        };
        for i in 0..files.len() {
            let f = files.get(i);
            match place(f.dir, f.name, &map.others, default_lang) {
                Ok(Some(pl)) => {
                    if pl.is_section {
                        map.section_files.push(i);
                    }
                }
                Ok(None) => {
                    map.skipped.push(i);
                    map.out.excluded.push(Excluded {
                        page: i,
                        reason: Reason::NotAPage,
                    });
                }
                Err(msg) => map.bad_names.push((i, msg)),
            }
        }
        map
    }

    /// Every section is in: finds the draft ones and the loaded ones.
    fn sections_done(&mut self) {
        self.sections_in = true;
        // Zola skips the whole folder of a draft section, every language's files in it, but
        // still loads the other languages' sections of that folder itself.
        let mut draft_dirs = HashSet::new();
        for &i in &self.section_files {
            let Some(pl) = self.at(i) else { continue };
            self.section_dirs.insert(pl.dirs);
            if self
                .section_meta
                .get(&i)
                .is_some_and(|fm| self.is_draft(fm))
            {
                draft_dirs.insert(pl.dirs);
            }
        }
        self.draft_dirs = draft_dirs;
        let mut sections = HashMap::new();
        for &i in &self.section_files {
            if let (Some(pl), Some(fm)) = (self.at(i), self.section_meta.get(&i))
                && self.loaded(fm, &pl)
            {
                sections.insert((pl.lang, pl.dirs), i);
            }
        }
        self.sections = sections;
    }

    /// File `i` placed; `None` for the files Zola ignores (and bad names, already reported).
    fn at(&self, i: usize) -> Option<Placed<'a>> {
        let file = self.files.get(i);
        place(file.dir, file.name, &self.others, self.default_lang)
            .ok()
            .flatten()
    }

    fn is_draft(&self, fm: &PageMeta) -> bool {
        fm.draft() == Some(true) && !self.settings.include_drafts
    }

    /// Whether a draft section prunes `folder`: a section is pruned by a draft above it, a
    /// page also by a draft section of its own (`strict` for a section).
    fn pruned(&self, folder: &str, strict: bool) -> bool {
        !self.draft_dirs.is_empty()
            && and_parents(folder)
                .skip(usize::from(strict))
                .any(|d| self.draft_dirs.contains(d))
    }

    /// Whether Zola loads the file at all.
    fn loaded(&self, fm: &PageMeta, pl: &Placed) -> bool {
        !(self.is_draft(fm) || self.pruned(pl.folder, pl.is_section))
    }

    /// Whether a page survives its section's sort: Zola renders only the pages it could sort.
    fn sorted_in(&self, sec: usize, fm: &PageMeta, date: bool) -> bool {
        let sort_by = self
            .section_meta
            .get(&sec)
            .and_then(|s| s.more().sort_by.as_deref());
        match sort_by {
            Some("date") => date,
            Some("update_date") => date || fm.updated.is_some(),
            Some("title" | "title_bytes") => fm.has_title(),
            Some("weight") => fm.has_weight(),
            _ => true,
        }
    }

    fn prefix(&self, lang: &str) -> String {
        if lang == self.default_lang {
            String::new()
        } else {
            lang.to_string()
        }
    }

    fn add_terms(&mut self, lang: &str, page_terms: Terms, rendered: bool, route: Option<u32>) {
        let Some(k) = self.langs.iter().position(|l| *l == lang) else {
            return;
        };
        for t in 0..self.taxonomies[k].len() {
            // Zola reads terms from the `[taxonomies]` table only.
            let Some(taxon) = page_terms.get(self.wanted[k][t], true) else {
                continue;
            };
            for v in taxon.terms {
                let e = self.terms[k][t]
                    .entry(zola_slugify(v, self.tax_strategy))
                    .or_default();
                e.0 += usize::from(rendered);
                if let Some(r) = route {
                    e.1.push(r);
                }
            }
        }
    }

    /// Zola refuses a page whose `[taxonomies]` table names a taxonomy its language does not
    /// declare (spelled exactly; rendered or not).
    fn check_taxonomies(&mut self, i: usize, lang: &str, page_terms: Terms) {
        let k = self.langs.iter().position(|l| *l == lang);
        for taxon in page_terms.iter().filter(|t| t.from_table) {
            if k.is_some_and(|k| self.declared[k].contains(&taxon.name)) {
                continue;
            }
            let path = self.files.get(i).path();
            let line = taxonomy_line(&path, taxon.name);
            let table = if lang == self.default_lang {
                "taxonomies".to_string()
            } else {
                format!("languages.{lang}.taxonomies")
            };
            self.errors.push(Error::input(
                &path,
                line,
                format!(
                    "the taxonomy `{}` is not in the Zola config's `{table}` (Zola refuses to build): declare it there, or fix its name",
                    taxon.name
                ),
            ));
        }
    }

    /// Takes `path` and the file's aliases for file `i`; a path another rendered page or
    /// section took already stops Zola ("Found path collisions").
    fn claim(&mut self, i: usize, path: &str, fm: &PageMeta) {
        let aliases = fm.more.as_ref().map_or(&[][..], |m| m.aliases.as_slice());
        for p in std::iter::once(path).chain(aliases.iter().map(String::as_str)) {
            match self.claimed.entry(fingerprint(p)) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(e) if *e.get() != i => {
                    let first = self.files.get(*e.get()).path();
                    self.errors.push(Error::input(
                        self.files.get(i).path(),
                        None,
                        format!(
                            "its path `{p}` is also {}'s (Zola refuses to build two pages or sections on one path): give one of them another `slug`, `path` or alias",
                            first.display()
                        ),
                    ));
                }
                std::collections::hash_map::Entry::Occupied(_) => {}
            }
        }
    }

    /// The sections before file `end` take their turns, in file order.
    fn sections_before(&mut self, end: usize, sink: &mut dyn RouteSink) {
        while let Some(&j) = self
            .section_files
            .get(self.next_section)
            .filter(|&&j| j < end)
        {
            self.next_section += 1;
            // A section whose file could not be read has no turn (the run fails on it).
            if let Some(fm) = self.section_meta.get(&j).cloned() {
                self.route(j, &fm, Terms::default(), sink);
            }
        }
    }

    /// Routes file `i` and tells the sink of the routes made.
    fn route(&mut self, i: usize, fm: &PageMeta, terms: Terms, sink: &mut dyn RouteSink) {
        let before = self.out.routes.len();
        self.page(i, fm, terms);
        for k in before..self.out.routes.len() {
            sink.made(&self.out, k, i, fm);
        }
    }

    /// Routes file `i`, with its front matter and terms. Files come in file order, each once.
    fn page(&mut self, i: usize, fm: &PageMeta, page_terms: Terms) {
        let Some(pl) = self.at(i) else { return };
        if !self.loaded(fm, &pl) {
            self.out.excluded.push(Excluded {
                page: i,
                reason: Reason::Draft,
            });
            return;
        }
        let file = self.files.get(i);
        let page = crate::route::Page {
            file,
            fm,
            terms: page_terms,
        };
        let lp = self.prefix(pl.lang);
        if pl.is_section {
            let path = join_path([lp.as_str(), pl.dirs], true);
            let kind = if pl.dirs.is_empty() {
                Kind::Home
            } else {
                Kind::Section
            };
            let mut r = Route::for_page(i, &page, kind, path, pl.lang, pl.key.to_string());
            let reason = if fm.more().redirect_to.is_some() {
                Some(Reason::Redirect)
            } else if fm.render() == Some(false) {
                Some(Reason::NotRendered)
            } else if fm.sitemap_exclude() {
                Some(crate::route::off_reason(fm.more().noindex))
            } else {
                None
            };
            if let Some(reason) = reason {
                if reason == Reason::Redirect {
                    self.out.warnings.push(format!(
                        "{}: `redirect_to`: the section is a redirect: left out (Zola's own sitemap lists it)",
                        self.files.get(i).path().display()
                    ));
                }
                self.out.excluded.push(Excluded { page: i, reason });
                r.listed = false;
            }
            if fm.render() != Some(false) {
                let path = r.path.clone();
                self.claim(i, &path, fm);
            }
            self.section_route.insert(
                (pl.lang.to_string(), pl.dirs.to_string()),
                self.out.routes.len(),
            );
            self.out.push(r);
            return;
        }
        self.check_taxonomies(i, pl.lang, page_terms);
        let site = &self.settings.site;
        let named = name_date(pl.name, &self.settings.timezone);
        let stem = match &named {
            Some(d) if !site.paths_keep_dates => d.slug.unwrap_or(pl.name),
            _ => pl.name,
        };
        let file_date = named.and_then(|d| d.date);
        let path = match fm.path().map(str::trim) {
            Some(p) => {
                let p = p.trim_start_matches('/');
                if p.is_empty() {
                    "/".to_string()
                } else {
                    format!("/{}/", p.trim_end_matches('/'))
                }
            }
            None => {
                let slug = zola_slugify(fm.slug().unwrap_or(stem), self.paths_strategy);
                join_path([lp.as_str(), pl.dirs, slug.as_str()], true)
            }
        };
        // Zola refuses a page file named `index.md` (as written: not `index.fr.md`) whose URL
        // path is a section's folder, as written, in any language, draft or not.
        if self.files.get(i).name == "index.md" {
            let comps = path
                .split('/')
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>();
            let comps = comps.join("/");
            if !comps.is_empty()
                && self.section_dirs.contains(comps.as_str())
                && !self.pruned(&comps, true)
            {
                self.errors.push(Error::input(
                    self.files.get(i).path(),
                    None,
                    format!("a page `index.md` on the path of the section `{comps}` (Zola refuses to build): make the folder a section or a page, not both, or give the page another `slug` or `path`"),
                ));
            }
        }
        // A `render = false` page is in no section and not rendered.
        let rendered = fm.render() != Some(false);
        if rendered {
            self.claim(i, &path, fm);
        }
        if rendered && self.chain.0 != Some((pl.lang, pl.dirs)) {
            let mut chain = std::mem::take(&mut self.chain.1);
            chain.clear();
            let mut made_home = false;
            for d in and_parents(pl.dirs) {
                let Some(&sec) = self.sections.get(&(pl.lang, d)) else {
                    made_home = d.is_empty() && !chain.is_empty();
                    break;
                };
                chain.push(sec);
                if !self
                    .section_meta
                    .get(&sec)
                    .is_some_and(|s| s.more().transparent)
                {
                    break;
                }
            }
            self.chain = (Some((pl.lang, pl.dirs)), chain, made_home);
        }
        let in_sections = if rendered {
            std::mem::take(&mut self.chain.1)
        } else {
            Vec::new()
        };
        // Its date as Zola sorts by it (front matter, else a valid file-name date).
        let date = rendered && (fm.date.is_some() || file_date.is_some());
        let written = rendered
            && (in_sections.is_empty()
                || self.chain.2
                || in_sections.iter().any(|&k| self.sorted_in(k, fm, date)));
        for &k in &in_sections {
            if self.sorted_in(k, fm, date) {
                *self.paginated.entry(k).or_default() += 1;
            }
        }
        if rendered {
            self.chain.1 = in_sections;
        }
        if !written {
            self.out.excluded.push(Excluded {
                page: i,
                reason: Reason::NotRendered,
            });
            self.add_terms(pl.lang, page_terms, rendered, None);
            return;
        }
        let mut r = Route::for_page(i, &page, Kind::Page, path, pl.lang, pl.key.to_string());
        r.set_file_date(file_date);
        if fm.sitemap_exclude() {
            self.out.excluded.push(Excluded {
                page: i,
                reason: crate::route::off_reason(fm.more().noindex),
            });
            r.listed = false;
        }
        if self.last_dirs != Some((pl.lang, pl.dirs)) {
            self.last_dirs = Some((pl.lang, pl.dirs));
            let key = (pl.lang, nearest_section(&self.sections, pl.lang, pl.dirs));
            if let Some((k, list)) = self.batch.replace((key, RouteList::new())) {
                add_members(&mut self.members, k, list);
            }
        }
        // Route indices share the page index's bound (see `Route`).
        let route = self.out.routes.len() as u32;
        if let Some((_, list)) = &mut self.batch {
            list.push(route);
        }
        self.add_terms(pl.lang, page_terms, true, Some(route));
        self.out.push(r);
    }

    /// Every file has been routed: reports bad names, then adds the homes without an
    /// `_index.md`, rolls dates up, and adds pagers and taxonomies.
    fn generated(mut self) -> Result<Routing> {
        // A draft section keeps Zola from reading the files below it, bad names too.
        for (i, msg) in std::mem::take(&mut self.bad_names) {
            if !self.pruned(self.files.get(i).dir, false) {
                self.errors
                    .push(Error::input(self.files.get(i).path(), None, msg));
            }
        }
        // The home Zola makes for a language without an `_index.md` takes its path too.
        for &lang in &self.langs {
            let home = join_path([self.prefix(lang).as_str()], true);
            if !self
                .section_route
                .contains_key(&(lang.to_string(), String::new()))
                && let Some(&i) = self.claimed.get(&fingerprint(&home))
            {
                self.errors.push(Error::input(
                    self.files.get(i).path(),
                    None,
                    format!("its path `{home}` is the home page's, which Zola makes (Zola refuses to build two pages or sections on one path): give it another `path`, or make it the home's content/_index.md"),
                ));
            }
        }
        if let Some(e) = Error::from_many(std::mem::take(&mut self.errors)) {
            return Err(e);
        }
        let mut out = std::mem::take(&mut self.out);
        if let Some((k, list)) = self.batch.take() {
            add_members(&mut self.members, k, list);
        }

        // Every language has a home page, with or without an `_index.md`.
        for &lang in &self.langs {
            let key = (lang.to_string(), String::new());
            if let std::collections::hash_map::Entry::Vacant(e) = self.section_route.entry(key) {
                e.insert(out.routes.len());
                out.push(Route::generated(
                    Kind::Home,
                    join_path([self.prefix(lang).as_str()], true),
                    lang,
                    "_index".into(),
                ));
            }
        }

        // Dates roll up: pages into their section, sections into their parent section.
        // The lists are moved, not copied: together they hold a route index per page.
        let section_route = &self.section_route;
        let sections = &self.sections;
        for (key, list) in std::mem::take(&mut self.members) {
            if let Some(&sr) = section_route.get(&key) {
                out.routes[sr].add_rollup_list(list);
            }
        }
        let mut section_keys: Vec<(String, String)> = section_route.keys().cloned().collect();
        section_keys.sort();
        for (lang, dir) in &section_keys {
            if dir.is_empty() {
                continue;
            }
            let above = dir.rsplit_once('/').map_or("", |(p, _)| p);
            let parent = nearest_section(sections, lang, above);
            let parent = section_route
                .get(&(lang.clone(), parent.to_string()))
                .copied()
                .or_else(|| section_route.get(&(lang.clone(), String::new())).copied());
            if let (Some(p), Some(&me)) = (parent, section_route.get(&(lang.clone(), dir.clone())))
                && p != me
            {
                out.routes[p].add_rollup([me]);
            }
        }

        // Pagers: page 2 onwards (page 1 is a redirect to the section itself), only for
        // sections Zola writes (a redirect or `render = false` section writes no pagers).
        for key in &section_keys {
            let sr = section_route[key];
            let Some(fm) = out.routes[sr]
                .page()
                .and_then(|i| self.section_meta.get(&i))
            else {
                continue;
            };
            let (Some(by), true, true) = (
                fm.more().paginate_by,
                out.routes[sr].listed,
                self.with_pagers,
            ) else {
                continue;
            };
            let pp = fm
                .more()
                .paginate_path
                .clone()
                .unwrap_or_else(|| "page".into());
            let count = out.routes[sr]
                .page()
                .and_then(|i| self.paginated.get(&i))
                .copied()
                .unwrap_or(0) as usize;
            let base = out.path(sr).to_string();
            add_pagers(&mut out, sr, &base, &pp, count, by, &key.0);
        }

        // Taxonomies, per language, with the terms gathered above.
        let tax_strategy = self.tax_strategy;
        let with_pagers = self.with_pagers;
        // Zola's `taxonomy_root` puts every taxonomy below one folder, as written.
        let root = self.settings.site.taxonomy_root.clone().unwrap_or_default();
        for ((lang, taxonomies), terms) in self
            .langs
            .iter()
            .zip(&self.taxonomies)
            .zip(std::mem::take(&mut self.terms))
        {
            let lang = *lang;
            let lp = self.prefix(lang);
            for (tax, terms) in taxonomies.iter().zip(terms) {
                // Zola 0.22.1 lists a taxonomy no page has terms of in its sitemap, but
                // writes no page for it: a URL that answers 404 is not listed.
                if terms.is_empty() {
                    continue;
                }
                let tax_slug = zola_slugify(&tax.name, tax_strategy);
                let list_route = out.routes.len();
                out.push(Route::generated(
                    Kind::Taxonomy,
                    join_path([lp.as_str(), root.as_str(), tax_slug.as_str()], true),
                    lang,
                    format!("taxonomy:{}", tax.name),
                ));
                for (term, (count, routes)) in terms {
                    let path = join_path(
                        [lp.as_str(), root.as_str(), tax_slug.as_str(), term.as_str()],
                        true,
                    );
                    let tr = out.routes.len();
                    let mut route = Route::generated(
                        Kind::Term,
                        path.clone(),
                        lang,
                        format!("term:{}/{}", tax.name, term),
                    );
                    route.add_rollup_list(routes);
                    out.push(route);
                    out.routes[list_route].add_rollup([tr]);
                    if let (Some(by), true) = (tax.paginate_by, with_pagers) {
                        add_pagers(&mut out, tr, &path, &tax.paginate_path, count, by, lang);
                    }
                }
            }
        }
        Ok(out)
    }
}

impl Router for ZolaRouter<'_> {
    fn first(&self) -> Vec<usize> {
        self.section_files.clone()
    }

    /// The files Zola skips by name, and once the sections are read, the files below a
    /// draft section, sections too (Zola's walk skips its folder): their front matter
    /// cannot stop a run.
    fn unread(&self) -> Vec<usize> {
        let drafts: HashSet<&str> = (self.section_files.iter())
            .filter(|i| self.section_meta.get(i).is_some_and(|fm| self.is_draft(fm)))
            .filter_map(|&i| self.at(i).map(|pl| pl.dirs))
            .collect();
        if drafts.is_empty() {
            return self.skipped.clone();
        }
        (0..self.files.len())
            .filter(|&i| {
                // A section's own folder is its draft's, not one below it.
                let section = self.section_files.binary_search(&i).is_ok();
                self.skipped.binary_search(&i).is_ok()
                    || and_parents(self.files.get(i).dir)
                        .skip(usize::from(section))
                        .any(|d| drafts.contains(d))
            })
            .collect()
    }

    fn add(
        &mut self,
        page: usize,
        meta: PageMeta,
        terms: &str,
        sink: &mut dyn RouteSink,
    ) -> Result<()> {
        if meta.more().no_front_matter && self.at(page).is_some() {
            // Zola stops the build at such a file ("Couldn't find front matter"): so do we.
            self.errors.push(Error::input(
                self.files.get(page).path(),
                Some(1),
                "no front matter: Zola refuses to build a page or section without a `+++` (or `---`) block; add one (an empty `+++` pair will do)",
            ));
            return Ok(());
        }
        if !self.sections_in && self.section_files.binary_search(&page).is_ok() {
            self.section_meta.insert(page, meta);
            return Ok(());
        }
        if !self.sections_in {
            self.sections_done();
        }
        self.sections_before(page, sink);
        self.route(page, &meta, Terms::from_packed(terms), sink);
        Ok(())
    }

    fn finish(mut self: Box<Self>, sink: &mut dyn RouteSink) -> Result<Routing> {
        if !self.sections_in {
            self.sections_done();
        }
        self.sections_before(usize::MAX, sink);
        (*self).generated()
    }
}

/// A path's 128-bit fingerprint (two SipHashes under different prefixes): two paths share
/// one with a chance near 2^-128, so no path is copied per page (docs/performance.md,
/// "Zola's path collisions").
fn fingerprint(path: &str) -> u128 {
    use std::hash::Hasher;
    let half = |prefix: u8| {
        let mut h = std::hash::DefaultHasher::new();
        h.write_u8(prefix);
        h.write(path.as_bytes());
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The line of taxonomy `name` in a page's `[taxonomies]` table, read again from the file
/// (only for an error).
fn taxonomy_line(path: &std::path::Path, name: &str) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !inside {
            inside = t.starts_with("[taxonomies]") || t.starts_with("taxonomies");
            // An inline table: `taxonomies = {tags = [...]}`.
            if inside && t.contains(name) && !t.starts_with('[') {
                return Some(n + 1);
            }
            continue;
        }
        let t = t.trim_start_matches(['"', '\'']);
        if let Some(rest) = t.strip_prefix(name) {
            let rest = rest.trim_start_matches(['"', '\'']).trim_start();
            if rest.starts_with('=') || rest.starts_with(':') {
                return Some(n + 1);
            }
        }
    }
    None
}

/// Adds a folder's written pages to its nearest section's members.
fn add_members(
    members: &mut BTreeMap<(String, String), RouteList>,
    (lang, dir): (&str, &str),
    list: RouteList,
) {
    match members.entry((lang.to_string(), dir.to_string())) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(list);
        }
        std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().append(&list),
    }
}

/// Adds pager routes 2..=n below `base` (`/blog/page/2/`), rolling up into the list page.
fn add_pagers(
    out: &mut Routing,
    list: usize,
    base: &str,
    pp: &str,
    count: usize,
    by: u32,
    lang: &str,
) {
    // An empty paginate_path makes Zola emit `//2/` URLs it never writes: list none.
    if by == 0 || pp.trim_matches('/').is_empty() {
        return;
    }
    let pages = count.div_ceil(by as usize);
    for n in 2..=pages {
        let path = format!("{base}{}/{n}/", pp.trim_matches('/'));
        let mut r = Route::generated(
            Kind::Pager,
            path,
            lang,
            format!("{}#{n}", out.routes[list].key()),
        );
        r.add_rollup([list]);
        out.push(r);
    }
}

/// The deepest folder at or above `dirs` that is a section in `lang` ("" is the root).
fn nearest_section<'a>(
    sections: &HashMap<(&str, &str), usize>,
    lang: &str,
    dirs: &'a str,
) -> &'a str {
    and_parents(dirs)
        .find(|d| sections.contains_key(&(lang, *d)))
        .unwrap_or("")
}

/// Reads a content file's folder and name as Zola does: `Ok(None)` for a file Zola skips (an
/// `_index.*.md` of a language the site does not have), `Err` where Zola refuses to build.
fn place<'a>(
    folder: &'a str,
    file: &'a str,
    others: &[&'a str],
    default_lang: &'a str,
) -> std::result::Result<Option<Placed<'a>>, String> {
    let stem = file.strip_suffix(".md").unwrap_or(file);
    // Only translations share keys: a site with one language needs none. The key is
    // `{folder}/{name}`, and `name` starts the file name: at the root a prefix of it, below
    // a copy (the folder and the name are stored apart).
    let dir_key = |name: &str| -> std::borrow::Cow<'a, str> {
        let name = file.get(..name.len()).unwrap_or("");
        match folder {
            _ if others.is_empty() => "".into(),
            "" => name.into(),
            d => format!("{d}/{name}").into(),
        }
    };
    if stem == "_index" || stem.starts_with("_index.") {
        // Only `_index.md` and `_index.{other language}.md` are sections; Zola skips the rest.
        let lang = match stem.strip_prefix("_index.") {
            None => default_lang,
            Some(code) if others.contains(&code) => code,
            Some(_) => return Ok(None),
        };
        return Ok(Some(Placed {
            dirs: folder,
            folder,
            name: "",
            lang,
            is_section: true,
            key: dir_key("_index"),
        }));
    }
    // Zola splits the language at the first dot, and only on a multilingual site.
    let (name, lang) = match stem.split_once('.') {
        Some((base, code)) if !others.is_empty() => {
            if code == default_lang {
                (stem, default_lang)
            } else if others.contains(&code) {
                (base, code)
            } else {
                return Err(format!(
                    "the file name has the language code '{code}', which is not in the Zola config's [languages] (Zola refuses to build): add the language or rename the file"
                ));
            }
        }
        _ => (stem, default_lang),
    };
    let colocated = !folder.is_empty() && stem.split('.').next() == Some("index");
    if folder.is_empty() && name == "index" {
        return Err(
            "content/index.md would be the home page, which is content/_index.md in Zola (Zola refuses to build): rename it".into(),
        );
    }
    let key = dir_key(name);
    let (dirs, name) = if colocated {
        let (parent, folder_name) = folder.rsplit_once('/').unwrap_or(("", folder));
        (parent, if name == "index" { folder_name } else { name })
    } else {
        (folder, name)
    };
    Ok(Some(Placed {
        dirs,
        folder,
        name,
        lang,
        is_section: false,
        key,
    }))
}

/// A date at the start of a file name, as Zola's pattern reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NameDate<'a> {
    /// The date, when it is a real one (Zola's pattern admits `2023-02-30`, its parser not).
    date: Option<W3cDate>,
    /// The rest of the name after the separator, when there is one.
    slug: Option<&'a str>,
}

/// Zola's file-name date: `YYYY-MM-DD`, optionally `Thh:mm:ss[.frac]` with `Z` or `±hh:mm`,
/// then optionally one whitespace, `_` or `-`, and the slug.
fn name_date<'a>(name: &'a str, tz: &SiteTz) -> Option<NameDate<'a>> {
    let b = name.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|s| s.iter().all(u8::is_ascii_digit))
    };
    let two = |at: usize| -> Option<u8> {
        digits(at..at + 2).then(|| (b[at] - b'0') * 10 + (b[at + 1] - b'0'))
    };
    if !(digits(0..4) && b.get(4) == Some(&b'-') && b.get(7) == Some(&b'-')) {
        return None;
    }
    let (month, day) = (two(5)?, two(8)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut end = 10;
    if b.get(10) == Some(&b'T')
        && let Some(len) = time_len(&b[11..])
    {
        end = 11 + len;
    }
    let date = W3cDate::parse(&name[..end], tz);
    let rest = &name[end..];
    let rest = match rest.chars().next() {
        Some(c) if c.is_whitespace() => &rest[c.len_utf8()..],
        _ => rest,
    };
    let slug = rest
        .strip_prefix(['_', '-'])
        .filter(|s| !s.is_empty() && !s.contains('\n'));
    Some(NameDate { date, slug })
}

/// The length of `hh:mm:ss[.frac](Z|±hh:mm)` at the start of `b`, if it is there.
fn time_len(b: &[u8]) -> Option<usize> {
    let d = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let num = |i: usize| (b[i] - b'0') * 10 + (b[i + 1] - b'0');
    if !(d(0) && d(1) && b.get(2) == Some(&b':') && d(3) && d(4) && b.get(5) == Some(&b':'))
        || !(d(6) && d(7))
    {
        return None;
    }
    if num(0) > 23 || num(3) > 59 || num(6) > 60 {
        return None;
    }
    let mut i = 8;
    if b.get(i) == Some(&b'.') && d(i + 1) {
        i += 1;
        while d(i) {
            i += 1;
        }
    }
    match b.get(i) {
        Some(b'Z') => Some(i + 1),
        Some(b'+' | b'-')
            if d(i + 1)
                && d(i + 2)
                && b.get(i + 3) == Some(&b':')
                && d(i + 4)
                && d(i + 5)
                && num(i + 1) <= 23
                && num(i + 4) <= 59 =>
        {
            Some(i + 6)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (date, slug) as Zola reads a name: the slug is the whole name when none is cut off.
    fn show(n: &str) -> (Option<String>, String) {
        match name_date(n, &SiteTz::Utc) {
            Some(d) => (
                d.date.map(|d| d.to_string()),
                d.slug.unwrap_or(n).to_string(),
            ),
            None => (None, n.to_string()),
        }
    }

    #[test]
    fn date_prefixes_as_zola_reads_them() {
        let d = |date: &str, slug: &str| (Some(date.to_string()), slug.to_string());
        assert_eq!(show("2023-01-01-foo"), d("2023-01-01", "foo"));
        assert_eq!(show("2023-01-02_bar"), d("2023-01-02", "bar"));
        assert_eq!(show("2023-01-03 - baz"), d("2023-01-03", " baz"));
        assert_eq!(show("2023-01-03 _baz"), d("2023-01-03", "baz"));
        assert_eq!(show("2023-01-04 qux"), d("2023-01-04", "2023-01-04 qux"));
        assert_eq!(
            show("2023-01-05T10:20:30Z-timed"),
            d("2023-01-05T10:20:30+00:00", "timed")
        );
        assert_eq!(
            show("2019-09-09T01:02:03+05:00-p-filename-dt"),
            d("2019-09-09T01:02:03+05:00", "p-filename-dt")
        );
        assert_eq!(show("2023-01-06"), d("2023-01-06", "2023-01-06"));
        assert_eq!(show("2023-01-07-"), d("2023-01-07", "2023-01-07-"));
        // A time without an offset is not part of Zola's pattern: the date alone is read.
        assert_eq!(
            show("2023-01-08T10:20:30-x"),
            d("2023-01-08", "2023-01-08T10:20:30-x")
        );
        assert_eq!(
            show("2023-13-01-badmonth"),
            (None, "2023-13-01-badmonth".into())
        );
        // Zola's pattern admits February 30th and cuts the slug; its date parser then fails.
        assert_eq!(show("2023-02-30-feb"), (None, "feb".into()));
        assert_eq!(show("plain"), (None, "plain".into()));
        assert_eq!(show("2023-1-01-x"), (None, "2023-1-01-x".into()));
    }

    #[test]
    fn and_parents_walks_up_to_the_root() {
        assert_eq!(
            and_parents("a/b/c").collect::<Vec<_>>(),
            ["a/b/c", "a/b", "a", ""]
        );
        assert_eq!(and_parents("").collect::<Vec<_>>(), [""]);
    }

    /// [`super::place`] of a relative path, split into folder and name as the scan keeps it.
    fn place<'a>(
        rel: &'a str,
        others: &[&'a str],
        default_lang: &'a str,
    ) -> std::result::Result<Option<Placed<'a>>, String> {
        let (folder, file) = rel.rsplit_once('/').unwrap_or(("", rel));
        super::place(folder, file, others, default_lang)
    }

    #[test]
    fn places_sections_colocated_pages_and_languages() {
        let pl = |rel| place(rel, &["fr"], "en").unwrap().unwrap();
        let p = pl("blog/_index.fr.md");
        assert!(p.is_section && p.lang == "fr" && p.dirs == "blog");
        let p = pl("blog/trip/index.md");
        assert!(!p.is_section && p.name == "trip" && p.dirs == "blog");
        assert_eq!((p.folder, &*p.key), ("blog/trip", "blog/trip/index"));
        let p = pl("blog/trip/index.fr.md");
        assert!(p.name == "trip" && p.lang == "fr" && p.key == "blog/trip/index");
        assert_eq!(
            (pl("about.fr.md").key, pl("_index.md").key),
            ("about".into(), "_index".into())
        );
        // The default language's code stays in the name, as Zola keeps it.
        let p = pl("docs/explicit.en.md");
        assert_eq!((p.name, p.lang), ("explicit.en", "en"));
        let p = pl("_foo.md");
        assert!(!p.is_section && p.name == "_foo" && p.dirs.is_empty());
        // Zola skips `_index` files of languages it does not have, the default's code too.
        assert!(place("blog/_index.de.md", &["fr"], "en").unwrap().is_none());
        assert!(place("blog/_index.en.md", &["fr"], "en").unwrap().is_none());
        assert!(place("blog/_index.fr.md", &[], "en").unwrap().is_none());
        // An unknown language code is an error on a multilingual site, a plain dot otherwise.
        assert!(place("blog/post.v2.fr.md", &["fr"], "en").is_err());
        assert!(place("blog/post.de.md", &["fr"], "en").is_err());
        assert_eq!(
            place("blog/1.2.md", &[], "en").unwrap().unwrap().name,
            "1.2"
        );
        assert!(place("index.md", &[], "en").is_err());
        // `index.v2.md` is colocated in Zola (the name before the first dot is `index`).
        let p = place("a/b/index.v2.md", &[], "en").unwrap().unwrap();
        assert_eq!((p.name, p.dirs, p.folder), ("index.v2", "a", "a/b"));
        // A site with one language keys nothing.
        assert_eq!(place("a/b.md", &[], "en").unwrap().unwrap().key, "");
    }
}
