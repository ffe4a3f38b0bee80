//! Zola's URL rules (0.22): sections are folders with `_index.md`, pages are `.md` files or
//! `index.md` in a colocated folder, slugs follow `[slugify] paths`, file names may carry a
//! date, languages are file suffixes below `/{lang}/`, taxonomies and pagers are generated.

use super::{
    join_path, split_lang, Excluded, Kind, Page, Reason, Route, RouteContext, Router, Routing,
};
use crate::date::{SiteTz, W3cDate};
use crate::error::Result;
use crate::siteconfig::Taxonomy;
use crate::slugify::{zola_slugify, SlugStrategy};
use std::collections::{BTreeMap, HashMap};

/// The Zola mapper.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZolaRouter;

/// Where a file sits, once its name has been read.
struct Placed<'a> {
    /// Folder segments, as written (Zola never slugifies folder names).
    dirs: Vec<&'a str>,
    /// The name the slug comes from (file stem, or the folder of a colocated `index.md`).
    name: &'a str,
    lang: String,
    is_section: bool,
    /// The file's path without its language suffix: shared by its translations.
    key: String,
}

impl Router for ZolaRouter {
    fn route(&self, pages: &[Page], ctx: &RouteContext) -> Result<Routing> {
        let s = ctx.settings;
        let site = &s.site;
        let default_lang = site.default_language.as_str();
        let others: Vec<&str> = site
            .languages
            .iter()
            .map(|l| l.code.as_str())
            .filter(|c| *c != default_lang)
            .collect();
        let paths_strategy: SlugStrategy = site.slugify_paths.parse().unwrap_or(SlugStrategy::On);
        let tax_strategy: SlugStrategy =
            site.slugify_taxonomies.parse().unwrap_or(SlugStrategy::On);
        let prefix = |lang: &str| {
            if lang == default_lang {
                String::new()
            } else {
                lang.to_string()
            }
        };

        let placed: Vec<Placed> = pages
            .iter()
            .map(|p| place(&p.file.rel, &others, default_lang))
            .collect();

        // Sections by (language, folder).
        let mut sections: HashMap<(String, String), usize> = HashMap::new();
        for (i, pl) in placed.iter().enumerate() {
            if pl.is_section {
                sections.insert((pl.lang.clone(), pl.dirs.join("/")), i);
            }
        }
        let is_draft = |i: usize| pages[i].fm.draft == Some(true) && !s.include_drafts;

        let mut out = Routing::default();
        // Route index of each section's list page, by (language, folder).
        let mut section_route: HashMap<(String, String), usize> = HashMap::new();
        // Listed pages per section, to count pagers and roll dates up.
        let mut members: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
        let mut page_route: Vec<Option<usize>> = vec![None; pages.len()];

        for (i, pl) in placed.iter().enumerate() {
            let fm = &pages[i].fm;
            // A draft section takes its whole subtree with it.
            let pruned = (0..=pl.dirs.len()).any(|depth| {
                let key = (pl.lang.clone(), pl.dirs[..depth].join("/"));
                sections.get(&key).is_some_and(|&j| j != i && is_draft(j))
            });
            if pruned || is_draft(i) {
                out.excluded.push(Excluded {
                    page: i,
                    reason: Reason::Draft,
                });
                continue;
            }
            let lp = prefix(&pl.lang);
            if pl.is_section {
                let path = join_path(
                    std::iter::once(lp.as_str()).chain(pl.dirs.iter().copied()),
                    true,
                );
                let kind = if pl.dirs.is_empty() {
                    Kind::Home
                } else {
                    Kind::Section
                };
                let mut r = Route::for_page(i, &pages[i], kind, path, &pl.lang, pl.key.clone());
                if fm.redirect_to.is_some() {
                    out.excluded.push(Excluded {
                        page: i,
                        reason: Reason::Redirect,
                    });
                    r.listed = false;
                } else if fm.render == Some(false) {
                    out.excluded.push(Excluded {
                        page: i,
                        reason: Reason::NotRendered,
                    });
                    r.listed = false;
                } else if fm.sitemap_exclude {
                    out.excluded.push(Excluded {
                        page: i,
                        reason: Reason::SitemapOff,
                    });
                    r.listed = false;
                }
                section_route.insert((pl.lang.clone(), pl.dirs.join("/")), out.routes.len());
                page_route[i] = Some(out.routes.len());
                out.routes.push(r);
                continue;
            }
            if fm.render == Some(false) {
                out.excluded.push(Excluded {
                    page: i,
                    reason: Reason::NotRendered,
                });
                continue;
            }
            let (file_date, rest) = date_prefix(pl.name, &s.timezone);
            let path = match fm.path.as_deref().map(str::trim) {
                Some(p) => {
                    let p = p.trim_start_matches('/');
                    if p.is_empty() {
                        "/".to_string()
                    } else {
                        format!("/{}/", p.trim_end_matches('/'))
                    }
                }
                None => {
                    let slug = match &fm.slug {
                        Some(sl) => zola_slugify(sl, paths_strategy),
                        None => zola_slugify(rest, paths_strategy),
                    };
                    join_path(
                        std::iter::once(lp.as_str())
                            .chain(pl.dirs.iter().copied())
                            .chain([slug.as_str()]),
                        true,
                    )
                }
            };
            let mut r = Route::for_page(i, &pages[i], Kind::Page, path, &pl.lang, pl.key.clone());
            r.file_date = file_date;
            if fm.sitemap_exclude {
                out.excluded.push(Excluded {
                    page: i,
                    reason: Reason::SitemapOff,
                });
                r.listed = false;
            }
            members
                .entry((
                    pl.lang.clone(),
                    nearest_section(&sections, &pl.lang, &pl.dirs),
                ))
                .or_default()
                .push(i);
            page_route[i] = Some(out.routes.len());
            out.routes.push(r);
        }

        // Every language has a home page, with or without an `_index.md`.
        for lang in std::iter::once(default_lang).chain(others.iter().copied()) {
            let key = (lang.to_string(), String::new());
            if !section_route.contains_key(&key) && !sections.contains_key(&key) {
                section_route.insert(key, out.routes.len());
                out.routes.push(Route::generated(
                    Kind::Home,
                    join_path([prefix(lang).as_str()], true),
                    lang,
                    "_index".into(),
                ));
            }
        }

        // Dates roll up: pages into their section, sections into their parent section.
        for ((lang, dir), list) in &members {
            if let Some(&sr) = section_route.get(&(lang.clone(), dir.clone())) {
                out.routes[sr]
                    .rollup
                    .extend(list.iter().filter_map(|&p| page_route[p]));
            }
        }
        let section_keys: Vec<(String, String)> = section_route.keys().cloned().collect();
        for (lang, dir) in section_keys {
            if dir.is_empty() {
                continue;
            }
            let dirs: Vec<&str> = dir.split('/').collect();
            let parent = nearest_section(&sections, &lang, &dirs[..dirs.len() - 1]);
            let parent = section_route
                .get(&(lang.clone(), parent))
                .copied()
                .or_else(|| section_route.get(&(lang.clone(), String::new())).copied());
            if let (Some(p), Some(&me)) = (parent, section_route.get(&(lang.clone(), dir.clone())))
            {
                if p != me {
                    out.routes[p].rollup.push(me);
                }
            }
        }

        // Pagers: page 2 onwards (page 1 is a redirect to the section itself).
        for ((lang, dir), &sr) in section_route.clone().iter() {
            let Some(i) = out.routes[sr].page else {
                continue;
            };
            let fm = &pages[i].fm;
            let (Some(by), true) = (fm.paginate_by, out.routes[sr].listed) else {
                continue;
            };
            let pp = fm.paginate_path.clone().unwrap_or_else(|| "page".into());
            let count = members
                .get(&(lang.clone(), dir.clone()))
                .map(|l| {
                    l.iter()
                        .filter(|&&p| {
                            fm.sort_by.as_deref() != Some("date")
                                || pages[p].fm.date.is_some()
                                || out.routes[page_route[p].unwrap_or(sr)].file_date.is_some()
                        })
                        .count()
                })
                .unwrap_or(0);
            let base = out.routes[sr].path.clone();
            add_pagers(&mut out, sr, &base, &pp, count, by, lang);
        }

        // Taxonomies, per language.
        for lang in std::iter::once(default_lang).chain(others.iter().copied()) {
            let taxonomies: &[Taxonomy] = site
                .language(lang)
                .and_then(|l| l.taxonomies.as_deref())
                .unwrap_or(&[]);
            let lp = prefix(lang);
            for tax in taxonomies.iter().filter(|t| t.render) {
                let tax_slug = zola_slugify(&tax.name, tax_strategy);
                let list_path = join_path([lp.as_str(), tax_slug.as_str()], true);
                let list_route = out.routes.len();
                out.routes.push(Route::generated(
                    Kind::Taxonomy,
                    list_path,
                    lang,
                    format!("taxonomy:{}", tax.name),
                ));
                // Terms that slugify alike are one term.
                let mut terms: BTreeMap<String, Vec<usize>> = BTreeMap::new();
                for (i, pl) in placed.iter().enumerate() {
                    let Some(r) = page_route[i] else { continue };
                    // A page left out of the sitemap is still rendered, so still a term member.
                    if pl.lang != lang || pl.is_section {
                        continue;
                    }
                    for (name, values) in &pages[i].fm.taxonomies {
                        if *name == tax.name {
                            for v in values {
                                terms
                                    .entry(zola_slugify(v, tax_strategy))
                                    .or_default()
                                    .push(r);
                            }
                        }
                    }
                }
                for (term, routes) in terms {
                    let path = join_path([lp.as_str(), tax_slug.as_str(), term.as_str()], true);
                    let tr = out.routes.len();
                    let mut route = Route::generated(
                        Kind::Term,
                        path.clone(),
                        lang,
                        format!("term:{}/{}", tax.name, term),
                    );
                    route.rollup = routes.clone();
                    out.routes.push(route);
                    out.routes[list_route].rollup.push(tr);
                    if let Some(by) = tax.paginate_by {
                        add_pagers(
                            &mut out,
                            tr,
                            &path,
                            &tax.paginate_path,
                            routes.len(),
                            by,
                            lang,
                        );
                    }
                }
            }
        }
        Ok(out)
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
            format!("{}#{n}", out.routes[list].key),
        );
        r.rollup = vec![list];
        out.routes.push(r);
    }
}

/// The deepest folder at or above `dirs` that is a section in `lang` ("" is the root).
fn nearest_section(
    sections: &HashMap<(String, String), usize>,
    lang: &str,
    dirs: &[&str],
) -> String {
    for depth in (0..=dirs.len()).rev() {
        let d = dirs[..depth].join("/");
        if sections.contains_key(&(lang.to_string(), d.clone())) {
            return d;
        }
    }
    String::new()
}

fn place<'a>(rel: &'a str, others: &[&str], default_lang: &str) -> Placed<'a> {
    let mut dirs: Vec<&str> = rel.split('/').collect();
    let file = dirs.pop().unwrap_or("");
    let stem = file.strip_suffix(".md").unwrap_or(file);
    let (base, lang) = split_lang(stem, others);
    let lang = lang.unwrap_or(default_lang).to_string();
    let key_base = match rel.rsplit_once('/') {
        Some((d, _)) => format!("{d}/{base}"),
        None => base.to_string(),
    };
    match base {
        "_index" => Placed {
            dirs,
            name: "",
            lang,
            is_section: true,
            key: key_base,
        },
        "index" if !dirs.is_empty() => {
            let name = dirs.pop().unwrap_or("");
            Placed {
                dirs,
                name,
                lang,
                is_section: false,
                key: key_base,
            }
        }
        _ => Placed {
            dirs,
            name: base,
            lang,
            is_section: false,
            key: key_base,
        },
    }
}

/// Zola's file-name date: `2024-01-02`, optionally with a time and offset, at the start of
/// the name. Followed by an optional space and `_` or `-`, it is cut from the slug.
fn date_prefix<'a>(name: &'a str, tz: &SiteTz) -> (Option<W3cDate>, &'a str) {
    if name.len() < 10 || !name.is_char_boundary(10) {
        return (None, name);
    }
    let Some(date) = W3cDate::parse(&name[..10], tz) else {
        return (None, name);
    };
    let mut end = 10;
    let mut value = date;
    // A time needs `T`, the clock and an offset (`Z` or `±hh:mm`), as Zola's pattern does.
    if name[10..].starts_with('T') {
        for len in [20usize, 25] {
            if let Some(candidate) = name.get(..len) {
                let offset_ok = candidate.ends_with('Z')
                    || candidate
                        .as_bytes()
                        .get(19)
                        .is_some_and(|b| *b == b'+' || *b == b'-');
                if let (true, Some(dt)) = (offset_ok, W3cDate::parse(candidate, tz)) {
                    value = dt;
                    end = len;
                    break;
                }
            }
        }
    }
    let rest = &name[end..];
    let after_space = rest
        .strip_prefix(|c: char| c.is_whitespace())
        .unwrap_or(rest);
    match after_space.strip_prefix(['_', '-']) {
        Some(slug) if !slug.is_empty() => (Some(value), slug),
        _ => (Some(value), name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_prefixes_as_zola_reads_them() {
        let tz = SiteTz::Utc;
        let show = |n: &str| {
            let (d, s) = date_prefix(n, &tz);
            (d.map(|d| d.to_string()), s.to_string())
        };
        assert_eq!(
            show("2023-01-01-foo"),
            (Some("2023-01-01".into()), "foo".into())
        );
        assert_eq!(
            show("2023-01-02_bar"),
            (Some("2023-01-02".into()), "bar".into())
        );
        assert_eq!(
            show("2023-01-03 - baz"),
            (Some("2023-01-03".into()), " baz".into())
        );
        assert_eq!(
            show("2023-01-04 qux"),
            (Some("2023-01-04".into()), "2023-01-04 qux".into())
        );
        assert_eq!(
            show("2023-01-05T10:20:30Z-timed"),
            (Some("2023-01-05T10:20:30+00:00".into()), "timed".into())
        );
        assert_eq!(
            show("2019-09-09T01:02:03+05:00-p-filename-dt"),
            (
                Some("2019-09-09T01:02:03+05:00".into()),
                "p-filename-dt".into()
            )
        );
        assert_eq!(
            show("2023-01-06"),
            (Some("2023-01-06".into()), "2023-01-06".into())
        );
        assert_eq!(
            show("2023-13-01-badmonth"),
            (None, "2023-13-01-badmonth".into())
        );
        assert_eq!(show("plain"), (None, "plain".into()));
    }

    #[test]
    fn places_sections_colocated_pages_and_languages() {
        let p = place("blog/_index.fr.md", &["fr"], "en");
        assert!(p.is_section && p.lang == "fr" && p.dirs == ["blog"]);
        let p = place("blog/trip/index.md", &["fr"], "en");
        assert!(!p.is_section && p.name == "trip" && p.dirs == ["blog"]);
        let p = place("docs/explicit.en.md", &["fr"], "en");
        assert_eq!((p.name, p.lang.as_str()), ("explicit.en", "en"));
    }
}
