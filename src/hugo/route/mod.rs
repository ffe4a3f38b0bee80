//! Hugo's URL rules (as of the version in `Settings::hugo`, see [`crate::hugo::version`]): top-level folders are sections, nested ones need `_index.md`,
//! leaf bundles (`index.md`) own the files beside them, paths are sanitized and lower-cased,
//! `slug`, `url`, `[permalinks]` and `uglyURLs` apply, and the publishing filters (draft,
//! future, expired, `_build`, `cascade`, headless) decide what exists.
//!
//! `route` runs the passes in order: each content file is decided (`decide`), then the
//! sections Hugo makes without a file are added and dates rolled up (`sections`), then the
//! taxonomy lists and term pages (`term_pages`), and last `disableKinds` is applied.

mod cascade;
mod decide;
mod filename;
mod permalinks;
mod placement;
mod sections;
mod term_pages;

use crate::hugo::version::HugoRules;
use crate::route::{Excluded, Kind, NewRoute, Page, Pages, Reason, Route, RouteContext, Routing};
use crate::scan::{Files, SourceFile};
use crate::settings::Settings;
use crate::siteconfig::SiteConfig;
use crate::vocab::date::W3cDate;
use crate::vocab::error::Result;
use chrono::{DateTime, FixedOffset};
use placement::{Placed, place};
use std::collections::{HashMap, HashSet};

/// Maps the pages to routes by Hugo's rules; the order of the routes is part of the result
/// (later stages refer to routes by index). Hugo's rules look across pages (cascades,
/// bundles, translations), so the pipeline holds every page until it is done reading
/// ([`crate::route::Buffered`]) and then calls this. The pages' terms are indexed first and then
/// freed ([`Pages::drop_terms`]): the index is a fraction of their size, and the main pass,
/// when a large site's memory peaks, needs neither.
pub(crate) fn route(pages: &mut Pages, ctx: &RouteContext) -> Result<Routing> {
    let settings = ctx.settings;
    let index = term_pages::TermIndex::new(
        pages,
        permalinks::Paths {
            config: &settings.site,
            rules: &settings.hugo,
            tz: &settings.timezone,
        },
    );
    pages.drop_terms();
    let site = Site::new(pages, *ctx);
    let bundles = placement::Bundles::new(&site.names, pages.files, site.rules(), |i| {
        site.is_static(site.pages.get(i))
    });
    let mut built = decide::decide_all(&site, &bundles)?;
    sections::add_homes(&site, &bundles, &mut built);
    sections::add_implicit_sections(&site, &bundles, &mut built)?;
    sections::settle_shared_nodes(&site, &mut built);
    sections::roll_up(&site, &mut built);
    sections::apply_section_permalinks(&site, &mut built);
    term_pages::add_taxonomies(&site, &bundles, &mut built, &index)?;
    hide_disabled_kinds(&site, &mut built.out);
    hide_no_html(&site, &mut built.out);
    Ok(built.out)
}

/// The site as every pass sees it: the pages, the run's settings and the names read from the
/// site's config once.
struct Site<'a> {
    /// The content files.
    pages: &'a Pages<'a>,
    /// The run's settings and "now".
    ctx: RouteContext<'a>,
    /// The site's config.
    config: &'a SiteConfig,
    /// The site's language codes, in its order.
    langs: Vec<&'a str>,
    /// How the site's file names say their language.
    names: Names<'a>,
    /// More than one language.
    multilingual: bool,
    /// The taxonomies' names.
    tax_names: HashSet<&'a str>,
    /// A permalink pattern names `:sectionslug` or `:sectionslugs`: pages need their
    /// sections' slugs and titles.
    section_slug_tokens: bool,
}

impl<'a> Site<'a> {
    fn new(pages: &'a Pages<'a>, ctx: RouteContext<'a>) -> Site<'a> {
        let config = &ctx.settings.site;
        let langs: Vec<&str> = config.languages.iter().map(|l| l.code.as_str()).collect();
        Site {
            pages,
            ctx,
            config,
            langs,
            names: Names::new(ctx.settings),
            multilingual: config.is_multilingual(),
            tax_names: config.taxonomies.iter().map(|t| t.name.as_str()).collect(),
            section_slug_tokens: (config.all_permalinks().map(|(_, p)| p.as_str()))
                .chain(config.permalink_rules.patterns())
                .any(|p| p.contains(":sectionslug")),
        }
    }

    /// Where page `i` lands.
    fn at(&self, i: usize) -> Placed<'a> {
        self.place(self.pages.get(i))
    }

    /// Where `page` lands, for a caller that holds the page already.
    fn place(&self, page: Page<'a>) -> Placed<'a> {
        self.names.place(page.file)
    }

    /// Where every page lands, in page order.
    fn all(&self) -> impl Iterator<Item = Placed<'a>> + '_ {
        self.pages.iter().map(|page| self.place(page))
    }

    /// The file is in a turned-off language (see [`Names::off`]).
    fn off(&self, pl: &Placed) -> bool {
        self.names.off(pl)
    }

    /// The file is no page: a raw HTML file (no front matter, markup from its first
    /// character) that Hugo before 0.123 copies as it is.
    fn is_static(&self, page: Page) -> bool {
        if !self.rules().raw_html_is_static {
            return false;
        }
        is_html(page.file.name) && page.fm.more().raw_markup
    }

    /// `disableKinds` names this kind (`home`, `taxonomy`, ...).
    fn kind_off(&self, kind: &str) -> bool {
        self.config.disable_kinds.iter().any(|d| d == kind)
    }

    /// The rules of the Hugo version that builds the site.
    fn rules(&self) -> &'a HugoRules {
        &self.ctx.settings.hugo
    }

    /// What the path rules read: the config and the version's rules.
    fn paths(&self) -> permalinks::Paths<'a> {
        permalinks::Paths {
            config: self.config,
            rules: self.rules(),
            tz: &self.ctx.settings.timezone,
        }
    }

    /// The path prefix of a language's URLs ("" or `/fr`).
    fn prefix(&self, lang: &str) -> String {
        // From Hugo 0.115.2, `defaultContentLanguageInSubdir` puts even a site of one
        // language below `/<lang>/`.
        let in_subdir =
            self.rules().subdir_without_languages && self.config.default_language_in_subdir;
        permalinks::lang_prefix(self.config, lang, self.multilingual || in_subdir)
    }

    /// A taxonomy list or term page's route in `lang`: the content file's when there is one,
    /// else one the site makes; the language's default priority and changefreq fill what it
    /// leaves unset.
    fn taxonomy_route(
        &self,
        file: Option<usize>,
        kind: Kind,
        path: String,
        lang: &str,
        key: String,
    ) -> NewRoute {
        let mut r = match file {
            Some(i) => Route::for_page(i, &self.pages.get(i), kind, path, lang, key),
            None => Route::generated(kind, path, lang, key),
        };
        let language = || self.config.language(lang);
        r.priority = r.priority.or_else(|| language().and_then(|l| l.priority));
        r.changefreq = r
            .changefreq
            .or_else(|| language().and_then(|l| l.changefreq));
        r
    }
}

/// How a site's file names say their language: all that placing a file by its path needs.
struct Names<'a> {
    /// The site's config.
    config: &'a SiteConfig,
    /// Language suffixes a file name may carry: the site's codes, then turned-off languages'
    /// (still recognised, so their files can be left out).
    suffixes: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn new(settings: &'a Settings) -> Names<'a> {
        let config = &settings.site;
        let suffixes = (config.languages.iter().map(|l| l.code.as_str()))
            .chain(config.disabled_languages.iter().map(String::as_str))
            .collect();
        Names { config, suffixes }
    }

    /// Where `file` lands.
    fn place(&self, file: SourceFile<'a>) -> Placed<'a> {
        place(file, &self.suffixes, &self.config.default_language)
    }

    /// The file is in a turned-off language, or (Hugo before 0.112, with a
    /// `defaultContentLanguage` that names no language as written) in none: Hugo never
    /// reads it (seen in 0.111.3 and 0.168.0).
    fn off(&self, pl: &Placed) -> bool {
        self.config.disabled_languages.iter().any(|d| d == pl.lang)
            || (pl.defaulted && self.config.default_language_unmatched)
    }
}

/// The content files Hugo never reads, by their paths alone (Hugo picks them before it reads
/// any front matter), in file order: those in a turned-off language, and those another file
/// is the page of instead (see [`placement::Bundles::unread`]). Their front matter is not
/// read, so what Hugo would not see cannot stop the run.
pub(crate) fn unread(files: &Files, settings: &Settings) -> Vec<usize> {
    let names = Names::new(settings);
    // Before 0.123 a raw HTML file (no front matter) is no page, which only its content
    // tells: an HTML file is taken for one here, so the files beside it are read.
    let raw_html = settings.hugo.raw_html_is_static;
    let may_be_static = |i: usize| raw_html && is_html(files.get(i).name);
    let bundles = placement::Bundles::new(&names, files, &settings.hugo, may_be_static);
    (0..files.len())
        .filter(|&i| {
            let pl = names.place(files.get(i));
            names.off(&pl) || bundles.unread(i, &pl)
        })
        .collect()
}

/// The name ends `.html` or `.htm`, any case.
fn is_html(name: &str) -> bool {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    ext.eq_ignore_ascii_case("html") || ext.eq_ignore_ascii_case("htm")
}

/// What the passes build up: the routing, and where pages, sections and taxonomy files went.
struct Built {
    /// The routes so far, and the files left out.
    out: Routing,
    /// Each page's route index, 4 bytes a page ([`Built::NONE`] for none).
    page_route: Vec<u32>,
    /// Section (and home) routes by (language, folder).
    section_route: HashMap<(String, String), usize>,
    /// Content files of taxonomy and term pages, by (language, taxonomy, term key).
    tax_files: HashMap<(String, String, String), usize>,
    /// Taxonomy and term pages whose `_index.md` is withheld (a draft): Hugo renders none.
    /// The file, whose `slug` still names a taxonomy's folder (0.167+), and why.
    tax_withheld: HashMap<(String, String, String), (usize, Reason)>,
    /// Taxonomy and term files Hugo keeps in its tree but does not list (a term's build
    /// options; from 0.123 a list's, or a list withheld as a draft, future or expired):
    /// their pages are routed, not listed, and their dates count for the lists above them.
    tax_unlisted: HashSet<(String, String, String)>,
    /// The dates of taxonomy and term files that cascades change or that have their own,
    /// by file.
    tax_dates: HashMap<usize, cascade::BranchDates>,
    /// The dates cascades give taxonomy and term pages made without a file, by (language,
    /// taxonomy, term key).
    generated_dates: HashMap<(String, String, String), cascade::BranchDates>,
    /// The `.Date` of routed pages and sections where cascades (or a file name) give it and
    /// their front matter's `date` does not, by route: what permalinks and the sections above
    /// them are dated by. Rare, so a map.
    dates: HashMap<usize, W3cDate>,
    /// Routed pages Hugo does not render, by their own values or a cascade's (`render:
    /// never`, headless where the release makes it so): rare, so a set.
    unrendered: HashSet<usize>,
    /// Content files inside leaf bundles whose terms make term pages (0.123+): rare.
    resources: HashSet<usize>,
}

impl Built {
    /// A page without a route.
    const NONE: u32 = u32::MAX;

    /// The dates of the taxonomy or term page `key` (language, taxonomy, term key): its own
    /// file's, else those cascades give it where it has none.
    fn tax_page_dates(&self, key: &(String, String, String)) -> Option<&cascade::BranchDates> {
        match self.tax_files.get(key) {
            Some(i) => self.tax_dates.get(i),
            None => self.generated_dates.get(key),
        }
    }

    /// The `.Date` of route `r` (file `i`): the one a cascade or file name gave it, else
    /// its own front matter's.
    fn page_date(&self, site: &Site, r: usize, i: usize) -> Option<DateTime<FixedOffset>> {
        (self.dates.get(&r).map(permalinks::page_time))
            .or_else(|| permalinks::hugo_date(site.pages.meta(i)))
    }

    /// Nothing built yet for `pages` pages.
    fn new(pages: usize) -> Built {
        Built {
            out: Routing::default(),
            page_route: vec![Self::NONE; pages],
            section_route: HashMap::new(),
            tax_files: HashMap::new(),
            tax_withheld: HashMap::new(),
            tax_unlisted: HashSet::new(),
            tax_dates: HashMap::new(),
            generated_dates: HashMap::new(),
            dates: HashMap::new(),
            unrendered: HashSet::new(),
            resources: HashSet::new(),
        }
    }

    /// Page `i`'s route index, if it has a route.
    fn route_of(&self, i: usize) -> Option<usize> {
        Some(self.page_route[i])
            .filter(|&r| r != Self::NONE)
            .map(|r| r as usize)
    }
}

/// Hugo's name for the kind of a page made from a content file, as `disableKinds` and a
/// cascade's `_target.kind` spell it; none for the lists Hugo makes itself.
fn page_kind_name(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Home => Some("home"),
        Kind::Section => Some("section"),
        Kind::Page => Some("page"),
        Kind::Taxonomy | Kind::Term | Kind::Pager => None,
    }
}

/// `disableKinds` pages are never rendered; they still count for their section's dates.
fn hide_disabled_kinds(site: &Site, out: &mut Routing) {
    for r in &mut out.routes {
        let Some(kind) = page_kind_name(r.kind) else {
            continue;
        };
        if r.listed && site.kind_off(kind) {
            r.listed = false;
            if let Some(page) = r.page() {
                out.excluded.push(Excluded {
                    page,
                    reason: Reason::NotRendered,
                });
            }
        }
    }
}

/// Pages whose outputs have no HTML (front matter `outputs`, else the site's `[outputs]` for
/// their kind) are no page a visitor can open: left out, still counting for dates.
fn hide_no_html(site: &Site, out: &mut Routing) {
    if site.config.no_html_kinds.is_empty()
        && !site.pages.iter().any(|p| p.fm.more().html_output.is_some())
    {
        return;
    }
    for r in &mut out.routes {
        let kind = match r.kind {
            Kind::Taxonomy => "taxonomy",
            Kind::Term => "term",
            other => page_kind_name(other).unwrap_or(""),
        };
        let own = r
            .page()
            .and_then(|p| site.pages.get(p).fm.more().html_output);
        let html = own.unwrap_or_else(|| !site.config.no_html_kinds.iter().any(|k| k == kind));
        if r.listed && !html {
            r.listed = false;
            if let Some(page) = r.page() {
                out.excluded.push(Excluded {
                    page,
                    reason: Reason::NoHtmlOutput,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::{PageMeta, Terms};
    use crate::generator::Generator;
    use crate::route::{Buffered, RouteSink, Router};
    use crate::vocab::date::W3cDate;

    #[test]
    fn hugo_routes_take_their_pages_dates_though_each_block_of_front_matter_is_freed_after_its_last_route()
     {
        // Blocks of two pages: a term's `_index.md` (file 3, in the second block) is routed
        // after every page, in the taxonomy pass, so its block must outlive the later ones.
        let d = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let path = d.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("hugo.toml", "baseURL = \"https://example.org/\"\n");
        write("content/_index.md", "---\ndate: 2020-01-01\n---\n");
        write("content/a.md", "---\ndate: 2020-01-02\ntags: [x]\n---\n");
        write("content/b.md", "---\ndate: 2020-01-03\ndraft: true\n---\n");
        write("content/tags/x/_index.md", "---\ndate: 2020-01-04\n---\n");
        for k in 5..12 {
            write(
                &format!("content/z/p{k}.md"),
                &format!("---\ndate: 2020-01-{k:02}\ntags: [x]\n---\n"),
            );
        }
        let settings = crate::pipeline::load(&crate::settings::Overrides {
            site: Some(d.path().to_path_buf()),
            hugo_version: Some("0.168.0".into()),
            ..Default::default()
        })
        .unwrap();
        let files = crate::scan::scan_site(&settings).unwrap();
        assert_eq!(files.get(3).rel(), "tags/x/_index.md");
        let ctx = RouteContext {
            settings: &settings,
            now: chrono::Utc::now(),
            served: crate::platform::Forms::of(crate::platform::Platform::Plain),
        };
        /// Every route made, with its page and the page's date as the sink was handed it.
        #[derive(Default)]
        struct Seen(Vec<(usize, usize, Option<W3cDate>)>);
        impl RouteSink for Seen {
            fn made(&mut self, _: &Routing, k: usize, page: usize, meta: &PageMeta) {
                self.0.push((k, page, meta.date));
            }
        }
        let run = |block_shift: u32| {
            let pages = Pages::with_block_shift(&files, block_shift);
            let mut router = Box::new(Buffered::holding(pages, &ctx, route));
            for i in 0..files.len() {
                let fm = crate::frontmatter::read(
                    &files.get(i).path(),
                    &crate::hugo::Hugo.front_matter(&settings),
                    false,
                )
                .unwrap()
                .0;
                let terms = Terms::pack(&fm.taxonomies, &fm.taxonomy_table);
                router
                    .add(i, fm.meta, &terms, &mut Seen::default())
                    .unwrap();
            }
            let mut seen = Seen::default();
            router.finish(&mut seen).unwrap();
            seen.0
        };
        let whole = run(crate::route::META_BLOCK.trailing_zeros());
        assert_eq!(whole, run(1));
        // Every page but the draft dated its route, the term's file last.
        let dated: Vec<String> = whole
            .iter()
            .map(|(_, p, date)| format!("{} {}", files.get(*p).rel(), date.unwrap()))
            .collect();
        assert_eq!(dated.len(), files.len() - 1);
        assert_eq!(dated.last().unwrap(), "tags/x/_index.md 2020-01-04");
    }
}
