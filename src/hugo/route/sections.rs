//! The homes and sections Hugo makes without a content file, and the roll-up of page dates
//! into the nearest section.

use super::cascade::{BranchDates, Target, TargetFile, generated_effective};
use super::permalinks::{
    ListTokens, content_path_segment, expand_list_permalink, hugo_date, implicit_section_title,
    list_key_matches, page_time, sanitize,
};
use super::placement::{Bundles, Dirs, node_key};
use super::{Built, Site};
use crate::route::{Excluded, Kind, Reason, Route};
use crate::vocab::error::Result;
use chrono::{DateTime, FixedOffset};
use std::collections::{BTreeSet, HashMap, HashSet};

/// A section or home for this (language, folder), routed or from a branch bundle.
fn has_section(built: &Built, bundles: &Bundles, key: &(String, String)) -> bool {
    built.section_route.contains_key(key) || bundles.branch_dirs.contains_key(key)
}

/// Homes exist even without `_index.md`: one for each language that has none.
pub(super) fn add_homes(site: &Site, bundles: &Bundles, built: &mut Built) {
    let shared = site.config.translation_keys_share_paths;
    for lang in &site.langs {
        let key = (lang.to_string(), String::new());
        if !has_section(built, bundles, &key) {
            built.section_route.insert(key, built.out.routes.len());
            built.out.push(Route::generated(
                Kind::Home,
                site.paths()
                    .list_path(&site.prefix(lang), "", site.config.ugly("")),
                lang,
                // Every language's home is a translation of the others.
                node_key(Kind::Home, "", shared),
            ));
        }
    }
}

/// Top-level sections exist even without `_index.md`: one for each top-level folder with
/// pages but no section of its own, by language, in order.
pub(super) fn add_implicit_sections(
    site: &Site,
    bundles: &Bundles,
    built: &mut Built,
) -> Result<()> {
    let mut implicit: BTreeSet<(String, String)> = BTreeSet::new();
    // From Hugo 0.123 a folder of drafts (or future or expired pages) is a section too.
    // A page `disableKinds` turns off is no page at all, but its folder is still a section.
    // Before, Hugo built none of them: a section below a withheld one, routed for its terms,
    // makes no section either (seen in 0.111.3).
    let pages_off = site.kind_off("page");
    let from_withheld = site.rules().sections_from_withheld_pages;
    let withheld: HashSet<usize> = (built.out.excluded.iter())
        .filter(|e| {
            matches!(e.reason, Reason::Draft | Reason::Future | Reason::Expired)
                || (from_withheld && pages_off && e.reason == Reason::NotRendered)
        })
        .map(|e| e.page)
        .collect();
    // From 0.123 a top-level page `sec.md`, in any language, built or withheld, holds the
    // node a section `sec/` made without a file would take: Hugo makes none.
    let mut page_nodes: HashSet<String> = HashSet::new();
    // Whether the last (language, top folder) seen has a section of its own.
    let mut top_memo: Option<(&str, &str, bool)> = None;
    for (i, pl) in site.all().enumerate() {
        let routed = built.route_of(i).is_some();
        if site.rules().page_takes_section_node
            && pl.dirs.is_empty()
            && !(pl.is_leaf || pl.is_branch)
            && (routed || withheld.contains(&i))
        {
            page_nodes.insert(content_path_segment(pl.stem));
        }
        let counts = match from_withheld {
            true => routed || withheld.contains(&i),
            false => routed && !withheld.contains(&i),
        };
        let (true, Some(top)) = (counts, pl.dirs.first()) else {
            continue;
        };
        // A top-level leaf bundle (`content/about/index.md`) is a page, not a section; a
        // top-level `_index.md` is the section itself. A nested section implies its
        // top-level one, as a page does.
        let top_level = pl.dirs.len() == 1;
        if (pl.is_leaf || pl.is_branch) && top_level {
            continue;
        }
        // A term's own `_index` file, withheld (a draft, a future one), makes no section.
        if pl.is_branch && site.tax_names.contains(top) {
            continue;
        }
        let has = match top_memo {
            Some((l, t, has)) if l == pl.lang && t == top => has,
            _ => {
                let has = has_section(built, bundles, &(pl.lang.to_string(), top.to_string()));
                top_memo = Some((pl.lang, top, has));
                has
            }
        };
        if !has {
            implicit.insert((pl.lang.to_string(), top.to_string()));
        }
    }
    for (lang, top) in implicit {
        if page_nodes.contains(&content_path_segment(&top)) {
            continue;
        }
        // Before 0.123 Hugo named a section without `_index.md` by its lower-cased key, even
        // with `disablePathToLower` (one with `_index.md` kept its folder's case).
        let seg = sanitize(&top, site.paths());
        let seg = match site.rules().implicit_section_keeps_case {
            true => seg,
            false => seg.to_lowercase(),
        };
        let path = site
            .paths()
            .list_path(&site.prefix(&lang), &seg, site.config.ugly(&top));
        built
            .section_route
            .insert((lang.clone(), top.clone()), built.out.routes.len());
        let mut r = Route::generated(
            Kind::Section,
            path,
            &lang,
            node_key(
                Kind::Section,
                &top,
                site.config.translation_keys_share_paths,
            ),
        );
        // The home's cascades reach it (Hugo 0.111.3 and 0.168.0): one that makes it a draft
        // or headless, or not rendered, leaves it out (its pages still count for the home);
        // one that dates it dates it, as its own date would.
        let target = Target {
            lang: &lang,
            kind: "section",
            file: TargetFile::Logical(&top),
        };
        if let Some(eff) = generated_effective(site, bundles, &target, &[""])? {
            if eff.left_out(site).is_some() {
                r.listed = false;
            }
            let dates = BranchDates::of(site, &eff, false);
            dates.apply(&mut r);
            if let Some(d) = dates.date {
                built.dates.insert(built.out.routes.len(), d);
            }
        }
        built.out.push(r);
    }
    Ok(())
}

/// From Hugo 0.123 a regular page `sec.md` and the section `sec/` (with an `_index` file or
/// without), or the leaf bundle `sec/index.md`, share one node of the content tree, by their
/// paths as Hugo writes them, and one page comes of it:
/// - when the page is a draft, future or expired, Hugo removes the node, and the section's
///   or bundle's page is gone with it: not built, not listed, not dated into the lists
///   above (the pages in the section stay, and date the home);
/// - when the page is built and the section has an `_index`, the section is the page, and
///   `sec.md` is not built at all (seen in 0.168.0 without `uglyURLs`; with them, Hugo lists
///   a top-level `sec.html` and no section, which is not followed here).
pub(super) fn settle_shared_nodes(site: &Site, built: &mut Built) {
    if !site.rules().page_takes_section_node {
        return;
    }
    drop_pages_beside_sections(site, built);
    let mut taken: HashMap<(String, String), Reason> = HashMap::new();
    for e in &built.out.excluded {
        if !matches!(e.reason, Reason::Draft | Reason::Future | Reason::Expired) {
            continue;
        }
        let pl = site.at(e.page);
        if pl.is_leaf || pl.is_branch {
            continue;
        }
        let path = node_path(pl.dirs.iter().chain([pl.stem]));
        taken.insert((pl.lang.to_string(), path), e.reason);
    }
    if taken.is_empty() {
        return;
    }
    let sections: Vec<((String, String), usize)> = (built.section_route.iter())
        .filter(|((_, dir), _)| !dir.is_empty())
        .map(|(k, &r)| (k.clone(), r))
        .collect();
    for ((lang, dir), r) in sections {
        let path = node_path(dir.split('/'));
        let Some(&reason) = taken.get(&(lang.clone(), path)) else {
            continue;
        };
        built.section_route.remove(&(lang, dir));
        drop_route(built, r, reason);
    }
    let bundles: Vec<(usize, Reason)> = (site.all().enumerate())
        .filter(|(_, pl)| pl.is_leaf)
        .filter_map(|(i, pl)| {
            let r = built.route_of(i)?;
            let path = node_path(pl.dirs.iter());
            Some((r, *taken.get(&(pl.lang.to_string(), path))?))
        })
        .collect();
    for (r, reason) in bundles {
        drop_route(built, r, reason);
        // Its terms still make term pages, which hold no page (seen in 0.168.0).
        if let Some(i) = built.out.routes[r].page() {
            built.resources.insert(i);
        }
    }
}

/// Built pages `sec.md` beside a section `sec/_index.md` of their language: the section is
/// the node's page.
fn drop_pages_beside_sections(site: &Site, built: &mut Built) {
    let indexed: HashSet<(String, String)> = (built.section_route.iter())
        .filter(|((_, dir), r)| !dir.is_empty() && built.out.routes[**r].page().is_some())
        .filter(|((_, dir), _)| !site.config.ugly(dir.split('/').next().unwrap_or("")))
        .map(|((lang, dir), _)| (lang.clone(), node_path(dir.split('/'))))
        .collect();
    if indexed.is_empty() {
        return;
    }
    let beside: Vec<usize> = (site.all().enumerate())
        .filter(|(_, pl)| !(pl.is_leaf || pl.is_branch))
        .filter_map(|(i, pl)| {
            let r = built.route_of(i)?;
            let path = node_path(pl.dirs.iter().chain([pl.stem]));
            indexed.contains(&(pl.lang.to_string(), path)).then_some(r)
        })
        .collect();
    for r in beside {
        drop_route(built, r, Reason::Duplicate);
    }
}

/// A content path as Hugo's tree keys it: its folders (and name) as Hugo writes them.
fn node_path<'s>(segments: impl Iterator<Item = &'s str>) -> String {
    segments
        .map(content_path_segment)
        .collect::<Vec<_>>()
        .join("/")
}

/// Takes route `r` out: not listed, and its file (if any) left out for `reason`, with no
/// route to date the lists above it.
fn drop_route(built: &mut Built, r: usize, reason: Reason) {
    let route = &mut built.out.routes[r];
    route.listed = false;
    if let Some(i) = route.page() {
        built.page_route[i] = Built::NONE;
        built.out.excluded.push(Excluded { page: i, reason });
    }
}

/// Rolls each page's dates up into its nearest section (home for top-level files), and each
/// section made without a file into its language's home.
pub(super) fn roll_up(site: &Site, built: &mut Built) {
    // The last (language, folders) looked up, and its nearest section: (depth, route, and
    // whether Hugo's walk before 0.123 reaches that section).
    type Nearest = Option<(usize, usize, bool)>;
    let mut parent_memo: Option<(&str, Dirs, Nearest)> = None;
    let mut walked_memo = HashMap::new();
    let deep_roll_up = site.rules().deep_sections_roll_up;
    for (i, pl) in site.all().enumerate() {
        let Some(r) = built.route_of(i) else {
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
                    let key = (pl.lang.to_string(), own_dirs.prefix(d).joined().to_string());
                    let &p = built.section_route.get(&key)?;
                    let reached = deep_roll_up
                        || walked(built, pl.lang, own_dirs.prefix(d), &mut walked_memo);
                    Some((d, p, reached))
                });
                parent_memo = Some((pl.lang, own_dirs, p));
                p
            }
        };
        let Some((depth, p, reached)) = parent.filter(|&(_, p, _)| p != r) else {
            continue;
        };
        // Before Hugo 0.123 the home took its date from its sections only.
        if !site.rules().home_rolls_up_pages && !pl.is_branch && own_dirs.is_empty() {
            continue;
        }
        // Before 0.123 a section rolled up only into the section of its folder's parent, and
        // a page only into a section the walk from the home reached that way.
        if !deep_roll_up && (!reached || (pl.is_branch && depth != own_dirs.len())) {
            continue;
        }
        built.out.routes[p].add_rollup([r]);
    }
    let implicit_sections: Vec<(String, usize)> = built
        .section_route
        .iter()
        .filter(|((_, d), r)| !d.is_empty() && built.out.routes[**r].page().is_none())
        .map(|((l, _), &r)| (l.clone(), r))
        .collect();
    for (lang, r) in implicit_sections {
        if let Some(&home) = built.section_route.get(&(lang, String::new())) {
            built.out.routes[home].add_rollup([r]);
        }
    }
}

/// Before Hugo 0.123, whether its walk of sections from the home reaches the section at `dirs`
/// in `lang`: the home and the top-level sections, and each section whose folder's parent
/// is a section it reaches.
fn walked(
    built: &Built,
    lang: &str,
    dirs: Dirs,
    memo: &mut HashMap<(String, String), bool>,
) -> bool {
    if dirs.len() <= 1 {
        return true;
    }
    let key = (lang.to_string(), dirs.joined().to_string());
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let up = dirs.prefix(dirs.len() - 1);
    let w = built
        .section_route
        .contains_key(&(lang.to_string(), up.joined().to_string()))
        && walked(built, lang, up, memo);
    memo.insert(key, w);
    w
}

/// Hugo 0.112+ `[permalinks.section]` (or a 0.161+ `[[permalinks]]` rule for sections or
/// the home): a section page at or below a pattern's key takes the pattern's path, unless
/// its own `url` sets one (the pages in it keep theirs). Runs after the roll-up, as a
/// section's date is its own, else the newest below it.
pub(super) fn apply_section_permalinks(site: &Site, built: &mut Built) {
    let (patterns, rules) = (
        &site.config.section_permalinks,
        &site.config.permalink_rules,
    );
    if patterns.is_empty() && rules.is_empty() {
        return;
    }
    let below = dates_below(site, built);
    // The homes too, for the rules: a table never names one.
    let mut sections: Vec<(&(String, String), usize)> = (built.section_route.iter())
        .filter(|((_, dir), r)| match built.out.routes[**r].kind {
            Kind::Section => !dir.is_empty(),
            Kind::Home => dir.is_empty() && !rules.is_empty(),
            _ => false,
        })
        .map(|(k, r)| (k, *r))
        .collect();
    sections.sort_by_key(|&(_, r)| r);
    let mut new_paths = HashMap::new();
    let mut warnings = Vec::new();
    for ((lang, dir), r) in sections {
        let raw: Vec<&str> = dir.split('/').filter(|d| !d.is_empty()).collect();
        let path: Vec<String> = raw.iter().map(|d| content_path_segment(d)).collect();
        let path = path.join("/");
        let pattern = match rules.is_empty() {
            // Hugo takes the first key that matches, in an order that changes from run to
            // run: the longest key is the one we take.
            true => (patterns.iter())
                .filter(|(k, _)| list_key_matches(k, &path))
                .max_by_key(|(k, _)| k.len())
                .map(|(_, p)| p.as_str()),
            false => {
                let kind = if raw.is_empty() { "home" } else { "section" };
                rules.pattern_for(kind, &format!("/{path}"), lang)
            }
        };
        let Some(pattern) = pattern else {
            continue;
        };
        let file = built.out.routes[r].page();
        let meta = file.map(|i| site.pages.meta(i));
        if meta.is_some_and(|m| m.more().url.as_deref().is_some_and(|u| !u.is_empty())) {
            continue;
        }
        // A section's title and slug, by its folders (as written) below the language; the
        // home's title where its file sets none is the language's or the site's.
        let names = |d: &str| -> Option<(String, Option<String>)> {
            let r = *built.section_route.get(&(lang.clone(), d.to_string()))?;
            let meta = built.out.routes[r].page().map(|i| site.pages.meta(i));
            let title = meta.and_then(|m| m.more().title.clone());
            Some(match (meta, d.is_empty()) {
                (_, true) => (
                    title.or_else(|| home_title(site, lang)).unwrap_or_default(),
                    meta.and_then(|m| m.slug().map(str::to_string)),
                ),
                (Some(m), false) => (title.unwrap_or_default(), m.slug().map(str::to_string)),
                (None, false) => (
                    implicit_section_title(d.rsplit('/').next().unwrap_or(d), site.paths()),
                    None,
                ),
            })
        };
        let Some((title, slug)) = names(dir) else {
            continue;
        };
        // `:sectionslugs`: each section from the top down, by slug, else title; a folder
        // that is no section is left out (the home is none).
        let section_slugs: Vec<String> = (1..=raw.len())
            .filter_map(|n| names(&raw[..n].join("/")))
            .map(|(t, s)| s.filter(|s| !s.is_empty()).unwrap_or(t))
            .collect();
        let paths = site.paths();
        let dirs: Vec<String> = raw.iter().map(|d| sanitize(d, paths)).collect();
        // Its own date, else the newest below it; but a section with dates of its own and
        // no date (from 0.123 an `expiryDate` alone) takes none from below: Go's zero time.
        let own = built.dates.get(&r).map(page_time);
        let date = own.or_else(|| meta.and_then(hugo_date)).or_else(|| {
            let keeps_own = built.out.routes[r].keeps_own_dates();
            (!keeps_own)
                .then(|| below.get(&(lang.clone(), dir.clone())).copied())
                .flatten()
        });
        let tokens = ListTokens {
            date,
            title: &title,
            slug: slug.as_deref(),
            dirs: &dirs,
            base_name: raw.last().copied().unwrap_or(""),
            section_slugs: &section_slugs,
            site: paths,
        };
        match expand_list_permalink(pattern, &tokens) {
            Ok(None) => {}
            Ok(Some(joined)) => {
                let ugly = site.config.ugly(raw.first().copied().unwrap_or(""));
                let p = paths.list_path(&site.prefix(lang), &joined, ugly);
                new_paths.insert(r, p);
            }
            // Not met: the config's patterns are checked against the release's tokens.
            Err(m) => warnings.push(format!("{m}: the section {dir} keeps its path")),
        }
    }
    built.out.warnings.extend(warnings);
    built.out.set_paths(&new_paths);
}

/// The home's title in `lang` where its own file sets none: the language's `title`, else
/// the site's.
fn home_title(site: &Site, lang: &str) -> Option<String> {
    let own = site.config.language(lang).and_then(|l| l.title.clone());
    own.or_else(|| site.config.title.clone())
}

/// The newest date of the routed pages and sections below each section and home, by
/// (language, folder): what Hugo dates a section without a date of its own by.
fn dates_below(site: &Site, built: &Built) -> HashMap<(String, String), DateTime<FixedOffset>> {
    let mut newest: HashMap<(String, String), DateTime<FixedOffset>> = HashMap::new();
    for (i, pl) in site.all().enumerate() {
        let Some(r) = built.route_of(i) else {
            continue;
        };
        let Some(date) = built.page_date(site, r, i) else {
            continue;
        };
        // A section or bundle's own folder is not above it.
        let above = match pl.is_branch || pl.is_leaf {
            true => pl.dirs.prefix(pl.dirs.len().saturating_sub(1)),
            false => pl.dirs,
        };
        // From the home (depth 0, read by the home's permalink rule) down.
        for d in 0..=above.len() {
            let key = (pl.lang.to_string(), above.prefix(d).joined().to_string());
            let e = newest.entry(key).or_insert(date);
            *e = (*e).max(date);
        }
    }
    newest
}
