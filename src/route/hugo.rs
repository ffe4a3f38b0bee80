//! Hugo's URL rules (0.111): top-level folders are sections, nested ones need `_index.md`,
//! leaf bundles (`index.md`) own the files beside them, paths are sanitized and lower-cased,
//! `slug`, `url`, `[permalinks]` and `uglyURLs` apply, and the publishing filters (draft,
//! future, expired, `_build`, `cascade`, headless) decide what exists.

use super::{
    Excluded, Kind, NewRoute, Page, Pages, Reason, Route, RouteContext, RouteList, Routing,
};
use crate::date::W3cDate;
use crate::error::{Error, Result};
use crate::frontmatter::{BuildList, BuildOptions, BuildRender, Cascade, PageMeta};
use crate::scan::SourceFile;
use crate::siteconfig::SiteConfig;
use crate::slugify::hugo_make_path;
use chrono::{Datelike, NaiveDate};
use globset::Glob;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Files decided on every core at once before their routes are made in order.
const CHUNK: usize = 1 << 14;

/// Where a file sits: slices of its path and the site's names, made again wherever needed
/// rather than kept for every file (64 bytes a file through routing, the run's peak).
#[derive(Clone, Copy)]
struct Placed<'a> {
    /// Its folder relative to its content root.
    dirs: Dirs<'a>,
    /// File stem without the language suffix.
    stem: &'a str,
    /// The site's code for a language suffix, else the content root's, the front matter's or
    /// the default language: borrowed, never allocated.
    lang: &'a str,
    /// `_index` (branch bundle / section / home).
    is_branch: bool,
    /// `index` (leaf bundle).
    is_leaf: bool,
}

/// A file's folder relative to its content root, `/`-joined ("" at the root): a slice of its
/// path, so placing a file allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Dirs<'a>(&'a str);

impl<'a> Dirs<'a> {
    fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// How many folders deep.
    fn len(self) -> usize {
        self.iter().count()
    }

    /// The folder names, outermost first.
    fn iter(self) -> impl Iterator<Item = &'a str> {
        self.0.split('/').filter(|d| !d.is_empty())
    }

    fn first(self) -> Option<&'a str> {
        self.iter().next()
    }

    fn last(self) -> Option<&'a str> {
        self.0.rsplit('/').next().filter(|d| !d.is_empty())
    }

    fn get(self, k: usize) -> Option<&'a str> {
        self.iter().nth(k)
    }

    /// The outermost `depth` folders, `/`-joined.
    fn prefix(self, depth: usize) -> Dirs<'a> {
        if depth == 0 {
            return Dirs("");
        }
        match self.0.match_indices('/').nth(depth - 1) {
            Some((i, _)) => Dirs(&self.0[..i]),
            None => self,
        }
    }

    /// All of it, `/`-joined.
    fn joined(self) -> &'a str {
        self.0
    }
}

/// What the main pass decides for one content file.
enum Decision {
    /// No URL, for this reason.
    Skip(Reason),
    /// The `_index.md` of a taxonomy or term page: (language, taxonomy, term key).
    TaxonomyFile(String, String, String),
    /// A URL, with the reason it is built but not listed, if it is not.
    Route(NewRoute, Option<Reason>),
}

/// `f` as the per-file decision of [`HugoRouter::route`]: names its memo's one lifetime, which a
/// closure's own annotation would make any lifetime.
fn decider<'a, F>(f: F) -> F
where
    F: Fn(&mut Memo<'a>, usize) -> Result<Decision> + Sync + Send,
{
    f
}

/// The folder facts one task last looked up (files of one folder come together).
#[derive(Default)]
struct Memo<'a> {
    /// (content root language, folder, folder is a leaf bundle, folder is below one).
    leaf: Option<(Option<&'a str>, Dirs<'a>, bool, bool)>,
    /// (language, folder, branch bundles at and above it).
    chain: Option<(&'a str, Dirs<'a>, Vec<usize>)>,
}

/// The values that decide publishing, after `cascade` has been applied.
#[derive(Default, Clone)]
struct Effective {
    draft: bool,
    headless: bool,
    sitemap_exclude: bool,
    build: BuildOptions,
    date: Option<W3cDate>,
    publish_date: Option<W3cDate>,
    expiry_date: Option<W3cDate>,
    priority: Option<crate::fields::Priority>,
    /// The page's own negative priority: nothing cascades or defaults into it.
    priority_off: bool,
    changefreq: Option<crate::fields::ChangeFreq>,
}

/// Routes every page by Hugo's rules (they look across pages: cascades, bundles,
/// translations), for [`super::Buffered`].
pub(crate) fn route(pages: &Pages, ctx: &RouteContext) -> Result<Routing> {
    {
        let s = ctx.settings;
        let site = &s.site;
        let langs: Vec<&str> = site.languages.iter().map(|l| l.code.as_str()).collect();
        let multilingual = site.is_multilingual();
        let tax_names: HashSet<&str> = site.taxonomies.iter().map(|t| t.name.as_str()).collect();
        let kinds_off = |k: &str| site.disable_kinds.iter().any(|d| d == k);

        // Suffixes of turned-off languages are still recognised, so their files can be left out.
        let suffixes: Vec<&str> = langs
            .iter()
            .copied()
            .chain(site.disabled_languages.iter().map(String::as_str))
            .collect();
        let off = |pl: &Placed| site.disabled_languages.iter().any(|d| d == pl.lang);
        let at = |i: usize| place(pages.get(i), &suffixes, &site.default_language);
        let all = || (0..pages.len()).map(at);

        // Leaf bundle folders own every file below them (those files are resources).
        let leaf_dirs: HashSet<(Option<&str>, &str)> = all()
            .zip(pages.iter())
            .filter(|(pl, _)| pl.is_leaf && !off(pl))
            .map(|(pl, p)| (p.file.root_lang(), pl.dirs.joined()))
            .collect();
        // Leaf bundles by (language, folder): each shadows a page of its language and name.
        let leaf_langs: HashSet<(&str, &str)> = all()
            .filter(|pl| pl.is_leaf && !off(pl))
            .map(|pl| (pl.lang, pl.dirs.joined()))
            .collect();
        let branch_dirs: HashMap<(String, String), usize> = all()
            .enumerate()
            .filter(|(_, pl)| pl.is_branch && !off(pl))
            .map(|(i, pl)| ((pl.lang.to_string(), pl.dirs.joined().to_string()), i))
            .collect();

        let mut out = Routing::default();
        // Each page's route index, 4 bytes a page (`NONE` for none).
        const NONE: u32 = u32::MAX;
        let mut page_route: Vec<u32> = vec![NONE; pages.len()];
        let route_of = |page_route: &[u32], i: usize| {
            Some(page_route[i])
                .filter(|&r| r != NONE)
                .map(|r| r as usize)
        };
        let mut section_route: HashMap<(String, String), usize> = HashMap::new();
        // Content files of taxonomy and term pages, by (lang, taxonomy, term key).
        let mut tax_files: HashMap<(String, String, String), usize> = HashMap::new();

        // Each file's fate is decided on every core (files of one folder come together, so
        // each task looks its folder up once), then the results are assembled in order, a
        // chunk of files at a time: a decision holds its path apart, twice a route's size.
        let decide = decider(|memo, i| -> Result<Decision> {
            let pl = &at(i);
            if off(pl) {
                return Ok(Decision::Skip(Reason::NotAPage));
            }
            let page = pages.get(i);
            let root_lang = page.file.root_lang();
            let (own_dir_is_leaf, under_leaf) = match memo.leaf {
                Some((r, d, own, under)) if r == root_lang && d == pl.dirs => (own, under),
                _ if leaf_dirs.is_empty() => (false, false),
                _ => {
                    let own = leaf_dirs.contains(&(root_lang, pl.dirs.joined()));
                    let under = leaf_ancestor(&leaf_dirs, root_lang, pl.dirs);
                    memo.leaf = Some((root_lang, pl.dirs, own, under));
                    (own, under)
                }
            };
            if under_leaf || (own_dir_is_leaf && !pl.is_leaf) {
                return Ok(Decision::Skip(Reason::NotAPage));
            }
            // `post.md` beside a leaf bundle `post/index.md` in its language: Hugo keeps
            // the bundle only.
            if !pl.is_leaf && !pl.is_branch && !leaf_langs.is_empty() {
                let bundle = match pl.dirs.joined() {
                    "" => pl.stem.to_string(),
                    d => format!("{d}/{}", pl.stem),
                };
                if leaf_langs.contains(&(pl.lang, bundle.as_str())) {
                    return Ok(Decision::Skip(Reason::NotAPage));
                }
            }
            // `content/tags/_index.md` and `content/tags/go/_index.md` describe taxonomy pages.
            let taxonomy = (pl.is_branch && pl.dirs.len() <= 2)
                .then(|| pl.dirs.first())
                .flatten()
                .filter(|t| tax_names.contains(t));
            if let Some(tax) = taxonomy {
                let term = pl
                    .dirs
                    .get(1)
                    .map(|t| term_key(t, site))
                    .unwrap_or_default();
                return Ok(Decision::TaxonomyFile(
                    pl.lang.to_string(),
                    tax.to_string(),
                    term,
                ));
            }
            let chain = match &memo.chain {
                Some((l, d, chain)) if *l == pl.lang && *d == pl.dirs => chain,
                _ => {
                    let chain = branch_chain(pl, &branch_dirs);
                    &memo.chain.insert((pl.lang, pl.dirs, chain)).2
                }
            };
            let eff = effective(i, pl, pages, chain)?;
            if eff.draft && !s.include_drafts {
                return Ok(Decision::Skip(Reason::Draft));
            }
            // publishDate defaults to date.
            let publish = eff.publish_date.or(eff.date);
            if publish.is_some_and(|d| d.is_after(ctx.now)) && !s.include_future {
                return Ok(Decision::Skip(Reason::Future));
            }
            if eff.expiry_date.is_some_and(|d| !d.is_after(ctx.now)) && !s.include_expired {
                return Ok(Decision::Skip(Reason::Expired));
            }
            // Below a draft, future or expired section Hugo 0.111 builds no page; the
            // sections below it are not rendered either, but their terms still count.
            let hidden_by = chain.iter().filter(|&&b| b != i).find_map(|&b| {
                let sec = pages.get(b).fm;
                let publish = sec.more().publish_date.or(sec.date);
                let expiry = sec.more().expiry_date;
                if sec.draft() == Some(true) && !s.include_drafts {
                    Some(Reason::Draft)
                } else if publish.is_some_and(|d| d.is_after(ctx.now)) && !s.include_future {
                    Some(Reason::Future)
                } else if expiry.is_some_and(|d| !d.is_after(ctx.now)) && !s.include_expired {
                    Some(Reason::Expired)
                } else {
                    None
                }
            });
            if let Some(reason) = hidden_by.filter(|_| !pl.is_branch) {
                return Ok(Decision::Skip(reason));
            }
            // A headless bundle is not rendered, but Hugo counts its dates and terms.
            let headless = pl.is_leaf && eff.headless;
            let kind = if pl.is_branch {
                if pl.dirs.is_empty() {
                    Kind::Home
                } else {
                    Kind::Section
                }
            } else {
                Kind::Page
            };
            // A nested folder without `_index.md` is no section: its `_index` would not exist.
            let path = page_path(&page, pl, kind, site, &langs)?;
            // Only translations share keys: a site with one language needs none.
            let key = match &page.fm.more().translation_key {
                _ if !multilingual => String::new(),
                Some(k) => format!("key:{k}"),
                None => translation_path(pl),
            };
            let mut r = Route::for_page(i, &page, kind, path, pl.lang, key);
            r.priority = match eff.priority_off {
                true => None,
                false => eff
                    .priority
                    .or_else(|| site.language(pl.lang).and_then(|l| l.priority)),
            };
            r.changefreq = eff
                .changefreq
                .or_else(|| site.language(pl.lang).and_then(|l| l.changefreq));
            let not_rendered = matches!(
                eff.build.render,
                Some(BuildRender::Never | BuildRender::Link)
            );
            let not_listed = matches!(eff.build.list, Some(BuildList::Never | BuildList::Local));
            let unlisted = if let Some(reason) = hidden_by {
                Some(reason)
            } else if not_rendered || not_listed || headless {
                // Hugo still counts these pages' dates in their sections.
                Some(Reason::NotRendered)
            } else if eff.sitemap_exclude {
                Some(Reason::SitemapOff)
            } else {
                None
            };
            r.listed = unlisted.is_none();
            Ok(Decision::Route(r, unlisted))
        });
        // Nearly every file is a route: reserved up front, the vector is never doubled.
        out.routes.reserve_exact(pages.len());
        for start in (0..pages.len()).step_by(CHUNK) {
            let decisions: Vec<Result<Decision>> = (start..pages.len().min(start + CHUNK))
                .into_par_iter()
                .with_min_len(256)
                .map_init(Memo::default, decide)
                .collect();
            for (i, decision) in (start..).zip(decisions) {
                match decision? {
                    Decision::Skip(reason) => out.excluded.push(Excluded { page: i, reason }),
                    Decision::TaxonomyFile(lang, tax, term) => {
                        tax_files.insert((lang, tax, term), i);
                    }
                    Decision::Route(r, unlisted) => {
                        if let Some(reason) = unlisted {
                            out.excluded.push(Excluded { page: i, reason });
                        }
                        let pl = at(i);
                        if pl.is_branch {
                            section_route.insert(
                                (pl.lang.to_string(), pl.dirs.joined().to_string()),
                                out.routes.len(),
                            );
                        }
                        // Route indices share the page index's bound (see `Route`).
                        page_route[i] = out.push(r) as u32;
                    }
                }
            }
        }

        // Homes and top-level sections exist even without `_index.md`.
        for lang in &langs {
            let key = (lang.to_string(), String::new());
            if !section_route.contains_key(&key) && !branch_dirs.contains_key(&key) {
                section_route.insert(key, out.routes.len());
                out.push(Route::generated(
                    Kind::Home,
                    lang_prefix(site, lang, multilingual) + "/",
                    lang,
                    // Every language's home is a translation of the others.
                    "path:".into(),
                ));
            }
        }
        // Top-level folders with pages but no section of their own, by language.
        let mut implicit: BTreeSet<(String, String)> = BTreeSet::new();
        // Whether the last (language, top folder) seen has a section of its own.
        let mut top_memo: Option<(&str, &str, bool)> = None;
        for (i, pl) in all().enumerate() {
            if let (Some(_), Some(top)) = (route_of(&page_route, i), pl.dirs.first()) {
                // A top-level leaf bundle (`content/about/index.md`) is a page, not a section;
                // a top-level `_index.md` is the section itself. A nested section implies its
                // top-level one, as a page does.
                let top_level = pl.dirs.len() == 1;
                if (pl.is_leaf || pl.is_branch) && top_level {
                    continue;
                }
                let has_section = match top_memo {
                    Some((l, t, has)) if l == pl.lang && t == top => has,
                    _ => {
                        let key = (pl.lang.to_string(), top.to_string());
                        let has =
                            section_route.contains_key(&key) || branch_dirs.contains_key(&key);
                        top_memo = Some((pl.lang, top, has));
                        has
                    }
                };
                if !has_section {
                    implicit.insert((pl.lang.to_string(), top.to_string()));
                }
            }
        }
        for (lang, top) in implicit {
            let prefix = lang_prefix(site, &lang, multilingual);
            // Hugo names a section without `_index.md` by its lower-cased key, even with
            // `disablePathToLower` (one with `_index.md` keeps its folder's case).
            let seg = sanitize(&top, site).to_lowercase();
            let path = if site.ugly_urls {
                format!("{prefix}/{seg}.html")
            } else {
                format!("{prefix}/{seg}/")
            };
            section_route.insert((lang.clone(), top.clone()), out.routes.len());
            out.push(Route::generated(
                Kind::Section,
                path,
                &lang,
                format!("path:{top}"),
            ));
        }

        // Roll dates up into the nearest section (home for top-level files).
        let mut parent_memo: Option<(&str, Dirs, Option<usize>)> = None;
        for (i, pl) in all().enumerate() {
            let Some(r) = route_of(&page_route, i) else {
                continue;
            };
            let own_dirs = if pl.is_branch || pl.is_leaf {
                pl.dirs.prefix(pl.dirs.len().saturating_sub(1))
            } else {
                pl.dirs
            };
            if pl.is_branch && pl.dirs.is_empty() {
                continue;
            }
            let parent = match parent_memo {
                Some((l, d, p)) if l == pl.lang && d == own_dirs => p,
                _ => {
                    let p = (0..=own_dirs.len()).rev().find_map(|d| {
                        section_route
                            .get(&(pl.lang.to_string(), own_dirs.prefix(d).joined().to_string()))
                            .copied()
                    });
                    parent_memo = Some((pl.lang, own_dirs, p));
                    p
                }
            };
            if let Some(p) = parent {
                if p != r {
                    out.routes[p].add_rollup([r]);
                }
            }
        }
        let implicit_sections: Vec<(String, String, usize)> = section_route
            .iter()
            .filter(|((_, d), &r)| !d.is_empty() && out.routes[r].page().is_none())
            .map(|((l, d), &r)| (l.clone(), d.clone(), r))
            .collect();
        for (lang, _, r) in implicit_sections {
            if let Some(&home) = section_route.get(&(lang, String::new())) {
                out.routes[home].add_rollup([r]);
            }
        }

        // Taxonomy lists and term pages.
        for lang in &langs {
            let prefix = lang_prefix(site, lang, multilingual);
            for tax in &site.taxonomies {
                let mut terms: BTreeMap<String, RouteList> = BTreeMap::new();
                for (i, page) in pages.iter().enumerate() {
                    let Some(r) = route_of(&page_route, i) else {
                        continue;
                    };
                    // The file is placed only when it has terms of this taxonomy.
                    let Some(taxon) = page.terms.get(&tax.name, false) else {
                        continue;
                    };
                    if at(i).lang != *lang {
                        continue;
                    }
                    for v in taxon.terms {
                        let k = term_key(v, site);
                        if !k.is_empty() {
                            // Route indices share the page index's bound (see `Route`).
                            terms.entry(k).or_default().push(r as u32);
                        }
                    }
                }
                let tax_seg = sanitize(&tax.name, site);
                let list_path = if site.ugly_urls {
                    format!("{prefix}/{tax_seg}.html")
                } else {
                    format!("{prefix}/{tax_seg}/")
                };
                let list_file = tax_files
                    .get(&(lang.to_string(), tax.name.clone(), String::new()))
                    .copied();
                let list_route = (!kinds_off("taxonomy")).then(|| {
                    let mut r = match list_file {
                        Some(i) => Route::for_page(
                            i,
                            &pages.get(i),
                            Kind::Taxonomy,
                            list_path,
                            lang,
                            format!("taxonomy:{}", tax.name),
                        ),
                        None => Route::generated(
                            Kind::Taxonomy,
                            list_path,
                            lang,
                            format!("taxonomy:{}", tax.name),
                        ),
                    };
                    r.priority = r
                        .priority
                        .or_else(|| site.language(lang).and_then(|l| l.priority));
                    r.changefreq = r
                        .changefreq
                        .or_else(|| site.language(lang).and_then(|l| l.changefreq));
                    out.push(r);
                    out.routes.len() - 1
                });
                if kinds_off("term") {
                    continue;
                }
                let pattern = site
                    .permalinks
                    .iter()
                    .find(|(k, _)| *k == tax.name)
                    .map(|(_, p)| p.as_str());
                for (term, members) in terms {
                    let path = match pattern {
                        Some(p) => format!(
                            "{prefix}{}",
                            expand_term_permalink(p, &term, &tax.name, site.ugly_urls)
                        ),
                        None if site.ugly_urls => format!("{prefix}/{tax_seg}/{term}.html"),
                        None => format!("{prefix}/{tax_seg}/{term}/"),
                    };
                    let key = format!("term:{}/{term}", tax.name);
                    let mut r =
                        match tax_files.get(&(lang.to_string(), tax.name.clone(), term.clone())) {
                            Some(&i) => {
                                Route::for_page(i, &pages.get(i), Kind::Term, path, lang, key)
                            }
                            None => Route::generated(Kind::Term, path, lang, key),
                        };
                    r.priority = r
                        .priority
                        .or_else(|| site.language(lang).and_then(|l| l.priority));
                    r.changefreq = r
                        .changefreq
                        .or_else(|| site.language(lang).and_then(|l| l.changefreq));
                    r.add_rollup_list(members);
                    if let Some(lr) = list_route {
                        let next = out.routes.len();
                        out.routes[lr].add_rollup([next]);
                    }
                    out.push(r);
                }
            }
        }
        // `disableKinds` pages are never rendered; they still count for their section's dates.
        for r in &mut out.routes {
            let kind = match r.kind {
                Kind::Home => "home",
                Kind::Section => "section",
                Kind::Page => "page",
                _ => continue,
            };
            if r.listed && kinds_off(kind) {
                r.listed = false;
                if let Some(page) = r.page() {
                    out.excluded.push(Excluded {
                        page,
                        reason: Reason::NotRendered,
                    });
                }
            }
        }
        Ok(out)
    }
}

fn leaf_ancestor(
    leaf_dirs: &HashSet<(Option<&str>, &str)>,
    root: Option<&str>,
    dirs: Dirs,
) -> bool {
    (0..dirs.len()).any(|d| leaf_dirs.contains(&(root, dirs.prefix(d).joined())))
}

fn place<'a>(page: Page<'a>, langs: &[&'a str], default_lang: &'a str) -> Placed<'a> {
    let (dirs, file) = (page.file.dir, page.file.name);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let (stem, suffix) = super::split_lang(stem, langs);
    let lang: &'a str = match suffix {
        // The suffix matched one of the site's codes, whatever its case: name it the site's way.
        Some(s) => langs
            .iter()
            .copied()
            .find(|l| l.eq_ignore_ascii_case(s))
            .unwrap_or(s),
        None => page
            .file
            .root_lang()
            .or(page.fm.more().lang.as_deref())
            .unwrap_or(default_lang),
    };
    Placed {
        dirs: Dirs(dirs),
        stem,
        lang,
        is_branch: stem == "_index",
        is_leaf: stem == "index",
    }
}

/// The key translations share: the path without language, or `translationKey`.
fn translation_path(pl: &Placed) -> String {
    let mut k = pl.dirs.joined().to_string();
    if !pl.is_branch && !pl.is_leaf {
        k.push('/');
        k.push_str(pl.stem);
    }
    format!("path:{k}")
}

/// Hugo's path sanitizing, then lower-casing unless `disablePathToLower`.
fn sanitize(s: &str, site: &SiteConfig) -> String {
    // Plain ASCII names (nearly every folder and file) pass `MakePath` unchanged and lower
    // as ASCII: skip the char-by-char work. `%` is left to `MakePath` (it checks hex digits).
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"./\\_#+~-@".contains(&b))
    {
        return if site.disable_path_to_lower {
            s.to_string()
        } else {
            s.to_ascii_lowercase()
        };
    }
    let p = hugo_make_path(s, site.remove_path_accents);
    if site.disable_path_to_lower {
        p
    } else {
        go_lower(&p)
    }
}

/// Go's `strings.ToLower`: one char in, one char out (`İ` becomes `i`, not `i̇`).
/// Go's zero time's date, 0001-01-01: what Hugo's permalinks use for a page without a date.
const GO_ZERO_DATE: NaiveDate = match NaiveDate::from_ymd_opt(1, 1, 1) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

fn go_lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

/// A term's URL segment: terms that urlize alike are one term.
fn term_key(term: &str, site: &SiteConfig) -> String {
    sanitize(term.trim(), site)
}

fn lang_prefix(site: &SiteConfig, lang: &str, multilingual: bool) -> String {
    let own_host = site.language(lang).is_some_and(|l| l.base_url.is_some());
    if !multilingual
        || own_host
        || (lang == site.default_language && !site.default_language_in_subdir)
    {
        String::new()
    } else {
        format!("/{lang}")
    }
}

fn page_path(
    page: &Page,
    pl: &Placed,
    kind: Kind,
    site: &SiteConfig,
    langs: &[&str],
) -> Result<String> {
    let fm = &page.fm;
    let prefix = lang_prefix(site, pl.lang, langs.len() > 1);
    let ugly = site.ugly_urls;
    if kind == Kind::Home {
        return Ok(format!("{prefix}/"));
    }
    if let Some(url) = fm
        .more()
        .url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
    {
        if kind == Kind::Section {
            let segs: Vec<String> = url
                .split('/')
                .filter(|s| !s.is_empty())
                .map(|s| sanitize(s, site))
                .collect();
            // Like a page's, an absolute section `url` takes no language prefix; and like a
            // page's, one ending in a file name (`/a/b.html`) gets no slash after it.
            let prefix = if url.starts_with('/') { "" } else { &prefix };
            let file = segs.last().is_some_and(|s| s.contains('.'));
            let slash = if file { "" } else { "/" };
            return Ok(format!("{prefix}/{}{slash}", segs.join("/")));
        }
        // A page's `url` is taken as written; without a leading slash it is language-relative.
        let mut p = if url.starts_with('/') {
            url.to_string()
        } else {
            format!("{prefix}/{url}")
        };
        let last = p.rsplit('/').next().unwrap_or("");
        if !p.ends_with('/') && !last.contains('.') {
            p.push('/');
        }
        return Ok(p);
    }
    let dir_segs: Vec<String> = pl.dirs.iter().map(|d| sanitize(d, site)).collect();
    if kind == Kind::Section {
        let joined = dir_segs.join("/");
        return Ok(if ugly {
            format!("{prefix}/{joined}.html")
        } else {
            format!("{prefix}/{joined}/")
        });
    }
    // A leaf bundle is named by its folder.
    let (parent_segs, file_name) = if pl.is_leaf {
        (
            &dir_segs[..dir_segs.len().saturating_sub(1)],
            pl.dirs.last().unwrap_or(""),
        )
    } else {
        (&dir_segs[..], pl.stem)
    };
    let slug = fm
        .slug()
        .map(|s| sanitize(s, site).trim_matches('-').to_string())
        .filter(|s| !s.is_empty());
    let section = pl.dirs.first().map(|s| s.to_ascii_lowercase());
    if let Some(pattern) = section
        .as_deref()
        .and_then(|sec| site.permalinks.iter().find(|(k, _)| k == sec))
        .map(|(_, p)| p.as_str())
    {
        let expanded = expand_page_permalink(
            pattern,
            page,
            pl,
            slug.as_deref(),
            file_name,
            &dir_segs,
            site,
        )
        .map_err(|m| Error::input(page.file.path(), None, m))?;
        return Ok(format!("{prefix}{}", end_permalink(&expanded, ugly)));
    }
    let last = slug.unwrap_or_else(|| sanitize(file_name, site));
    let mut segs: Vec<&str> = parent_segs.iter().map(String::as_str).collect();
    segs.push(&last);
    let joined = segs.join("/");
    Ok(if ugly {
        format!("{prefix}/{joined}.html")
    } else {
        format!("{prefix}/{joined}/")
    })
}

fn expand_page_permalink(
    pattern: &str,
    page: &Page,
    pl: &Placed,
    slug: Option<&str>,
    file_name: &str,
    dir_segs: &[String],
    site: &SiteConfig,
) -> std::result::Result<String, String> {
    // Hugo's page date: `date`, else `publishDate`, else `lastmod`; a page with none has Go's
    // zero time, 0001-01-01 (a Monday), so `:year` gives `1` (Hugo formats it unpadded).
    let date = page
        .fm
        .date
        .or(page.fm.more().publish_date)
        .or(page.fm.updated)
        .map_or(GO_ZERO_DATE, |d| d.date());
    let title_slug = page
        .fm
        .more()
        .title
        .as_deref()
        .map(|t| sanitize(t, site))
        .unwrap_or_default();
    let mut out = String::new();
    for (n, seg) in pattern.split('/').enumerate() {
        if n > 0 {
            out.push('/');
        }
        let mut rest = seg;
        while let Some(pos) = rest.find(':') {
            out.push_str(&rest[..pos]);
            let tok_end = rest[pos + 1..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(rest.len(), |e| pos + 1 + e);
            let token = &rest[pos + 1..tok_end];
            // As Hugo formats them: year, day of the year and weekday number unpadded.
            let value = match token {
                "year" => date.year().to_string(),
                "month" => date.format("%m").to_string(),
                "monthname" => go_lower(&date.format("%B").to_string()),
                "day" => date.format("%d").to_string(),
                "yearday" => date.ordinal().to_string(),
                "weekday" => date.weekday().num_days_from_sunday().to_string(),
                "weekdayname" => go_lower(&date.format("%A").to_string()),
                "slug" => slug.map(str::to_string).unwrap_or_else(|| {
                    if title_slug.is_empty() {
                        sanitize(file_name, site)
                    } else {
                        title_slug.clone()
                    }
                }),
                "title" => title_slug.clone(),
                "filename" | "contentbasename" => sanitize(file_name, site),
                "slugorfilename" | "slugorcontentbasename" => slug
                    .map(str::to_string)
                    .unwrap_or_else(|| sanitize(file_name, site)),
                "section" => dir_segs.first().cloned().unwrap_or_default(),
                "sections" => dir_segs[..dir_segs.len() - usize::from(pl.is_leaf)].join("/"),
                _ => {
                    return Err(format!(
                        "the permalink pattern '{pattern}' has an unknown token :{token}"
                    ))
                }
            };
            out.push_str(&value);
            rest = &rest[tok_end..];
        }
        out.push_str(rest);
    }
    // Hugo ends the path with `/` before it unescapes it, so a final `+` becomes `-` there too.
    if !out.ends_with('/') {
        out.push('/');
    }
    Ok(super::normalize(&permalink_unescape(&out)))
}

/// Hugo 0.111 query-unescapes an expanded permalink (`+` becomes a space) and sanitizes it
/// again, so a space before a kept character turns into `-`: slug `a+b` -> `a-b`, title
/// `C++ Tips` -> `c-tips`, term `C++` -> `/topic/c-/` (seen in Hugo's output).
fn permalink_unescape(path: &str) -> String {
    if path.contains('+') {
        crate::slugify::hugo_make_path(&path.replace('+', " "), false)
    } else {
        path.to_string()
    }
}

fn expand_term_permalink(pattern: &str, term: &str, tax: &str, ugly: bool) -> String {
    let mut p = pattern
        .replace(":slug", term)
        .replace(":title", term)
        .replace(":section", tax);
    // As for pages: the final `/` comes before unescaping (`c++` ends `c-`, not `c`).
    if !p.ends_with('/') {
        p.push('/');
    }
    end_permalink(&super::normalize(&permalink_unescape(&p)), ugly)
}

/// An expanded permalink's end: a pattern with or without a final `/` ends alike, in `/` or,
/// with `uglyURLs`, in `.html`.
fn end_permalink(path: &str, ugly: bool) -> String {
    let bare = path.trim_end_matches('/');
    match (bare.is_empty(), ugly) {
        (true, _) => "/".to_string(),
        (false, true) => format!("{bare}.html"),
        (false, false) => format!("{bare}/"),
    }
}

/// The branch bundles at and above a page's folder in its language, nearest first.
fn branch_chain(pl: &Placed, branches: &HashMap<(String, String), usize>) -> Vec<usize> {
    (0..=pl.dirs.len())
        .rev()
        .filter_map(|depth| {
            branches
                .get(&(
                    pl.lang.to_string(),
                    pl.dirs.prefix(depth).joined().to_string(),
                ))
                .copied()
        })
        .collect()
}

/// Applies the cascades of the branch bundles above a page (`chain`, nearest first) to its
/// own values.
fn effective(i: usize, pl: &Placed, pages: &Pages, chain: &[usize]) -> Result<Effective> {
    let fm: &PageMeta = pages.get(i).fm;
    let mut e = Effective {
        draft: fm.draft().unwrap_or(false),
        headless: fm.more().headless,
        sitemap_exclude: fm.sitemap_exclude(),
        build: fm.more().build.clone(),
        date: fm.date,
        publish_date: fm.more().publish_date,
        expiry_date: fm.more().expiry_date,
        priority: fm.priority,
        priority_off: fm.priority_off(),
        changefreq: fm.changefreq,
    };
    // Nearest section first, so a closer cascade wins. A branch's own cascade applies to
    // itself too (Hugo 0.111 does so even when `_target` names only its descendants; we
    // follow `_target` there, as Hugo documents it).
    for &b in chain {
        for c in &pages.get(b).fm.more().cascade {
            if !cascade_targets(c, pl, pages.get(i).file)? {
                continue;
            }
            apply_cascade(&mut e, fm, c);
        }
    }
    Ok(e)
}

fn cascade_targets(c: &Cascade, pl: &Placed, file: SourceFile) -> Result<bool> {
    if let Some(lang) = &c.target_lang {
        if !lang.eq_ignore_ascii_case(pl.lang) {
            return Ok(false);
        }
    }
    if let Some(kind) = &c.target_kind {
        let k = match (pl.is_branch, pl.dirs.is_empty()) {
            (true, true) => "home",
            (true, false) => "section",
            _ => "page",
        };
        if !kind.eq_ignore_ascii_case(k) {
            return Ok(false);
        }
    }
    if let Some(glob) = &c.target_path {
        // Only a path target needs the whole relative path: made here, not for every page.
        let rel = &*file.rel();
        let g = Glob::new(glob.trim_start_matches('/'))
            .map_err(|e| {
                Error::input(rel, None, format!("bad cascade _target.path '{glob}': {e}"))
            })?
            .compile_matcher();
        let no_ext = rel.rsplit_once('.').map_or(rel, |(s, _)| s);
        if !g.is_match(rel) && !g.is_match(no_ext) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Cascaded values fill only what the page itself leaves unset (its own front matter wins).
fn apply_cascade(e: &mut Effective, own: &PageMeta, c: &Cascade) {
    if own.draft().is_none() {
        if let Some(d) = c.draft {
            e.draft = e.draft || d;
        }
    }
    if let Some(h) = c.headless {
        e.headless = e.headless || (h && !own.more().headless);
    }
    if let Some(x) = c.sitemap_exclude {
        if !own.sitemap_exclude() {
            e.sitemap_exclude = e.sitemap_exclude || x;
        }
    }
    if e.build.render.is_none() {
        e.build.render = c.build.render;
    }
    if e.build.list.is_none() {
        e.build.list = c.build.list;
    }
    e.date = e.date.or(c.date);
    e.publish_date = e.publish_date.or(c.publish_date);
    e.expiry_date = e.expiry_date.or(c.expiry_date);
    if !e.priority_off {
        e.priority = e.priority.or(c.priority);
    }
    e.changefreq = e.changefreq.or(c.changefreq);
}

#[cfg(test)]
mod tests {
    use super::Dirs;

    #[test]
    fn dirs_read_like_the_list_of_folders() {
        let d = Dirs("blog/2024/trip");
        assert_eq!(
            (d.len(), d.first(), d.last(), d.get(1)),
            (3, Some("blog"), Some("trip"), Some("2024"))
        );
        assert_eq!(d.iter().collect::<Vec<_>>(), ["blog", "2024", "trip"]);
        let joined: Vec<&str> = (0..=4).map(|k| d.prefix(k).joined()).collect();
        assert_eq!(
            joined,
            ["", "blog", "blog/2024", "blog/2024/trip", "blog/2024/trip"]
        );
        let root = Dirs("");
        assert!(
            root.is_empty()
                && root.iter().count() == 0
                && root.first().is_none()
                && root.last().is_none()
        );
        assert_eq!(root.prefix(1), root);
    }

    use super::*;

    /// Hugo 0.111's output for these slugs under `/:year/:slug/`, and a term under
    /// `/topic/:slug/`.
    #[test]
    fn permalinks_unescape_plus_like_hugo() {
        assert_eq!(permalink_unescape("/2024/a-+-b/"), "/2024/a--b/");
        assert_eq!(permalink_unescape("/2024/p++q/"), "/2024/p-q/");
        assert_eq!(permalink_unescape("/2024/lead+/"), "/2024/lead-/");
        assert_eq!(permalink_unescape("/2024/c++-tips/"), "/2024/c-tips/");
        assert_eq!(permalink_unescape("/2024/foo--bar/"), "/2024/foo--bar/");
        // (pattern, term, ugly, path): with or without a final `/`, ending `/` or `.html`.
        let terms = [
            ("/topic/:slug/", "c++", true, "/topic/c-.html"),
            ("/s/:title", "Beta", false, "/s/Beta/"),
            ("/s/:title", "x", true, "/s/x.html"),
            ("/s/:title", "c++", false, "/s/c-/"),
        ];
        for (pattern, term, ugly, want) in terms {
            assert_eq!(
                expand_term_permalink(pattern, term, "tags", ugly),
                want,
                "{pattern} {term}"
            );
        }
    }

    #[test]
    fn sanitize_ascii_shortcut_matches_make_path() {
        for lower in [false, true] {
            let site = SiteConfig {
                disable_path_to_lower: !lower,
                ..Default::default()
            };
            for s in [
                "Blog", "a_b-C.d", "x#y+z~@w", "a\\b/c", "", "50%25", "a b", "Été",
            ] {
                let slow = hugo_make_path(s, site.remove_path_accents);
                let slow = if lower { go_lower(&slow) } else { slow };
                assert_eq!(sanitize(s, &site), slow, "{s:?}");
            }
        }
    }

    #[test]
    fn a_cascade_path_target_matches_the_whole_relative_path() {
        let root = crate::scan::ContentRoot {
            dir: "content".into(),
            lang: None,
        };
        let mut files = crate::scan::Files::new();
        for rel in ["blog/2024/post.md", "blog.md", "docs/blog/x.md"] {
            files.push(&root, rel).unwrap();
        }
        let mut pages = Pages::new(&files);
        for _ in 0..3 {
            pages.push(PageMeta::default(), "").unwrap();
        }
        let targets = |glob: &str| -> Vec<bool> {
            let c = Cascade {
                target_path: Some(glob.into()),
                ..Default::default()
            };
            pages
                .iter()
                .map(|p| cascade_targets(&c, &place(p, &["en"], "en"), p.file).unwrap())
                .collect()
        };
        assert_eq!(targets("/blog/**"), [true, false, false]);
        assert_eq!(targets("/blog"), [false, true, false]);
        assert_eq!(targets("docs/*/x"), [false, false, true]);
        assert_eq!(targets("/blog/2024/post.md"), [true, false, false]);
        let c = Cascade {
            target_path: Some("[".into()),
            ..Default::default()
        };
        let p = pages.get(0);
        let err = cascade_targets(&c, &place(p, &["en"], "en"), p.file).unwrap_err();
        assert!(err.to_string().contains("blog/2024/post.md"), "{err}");
    }

    #[test]
    fn go_lower_maps_one_char_to_one() {
        assert_eq!(go_lower("İstanbul ÇA"), "istanbul ça");
    }
}
