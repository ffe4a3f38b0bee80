//! Taxonomy list pages (`/tags/`) and term pages (`/tags/rust/`), each term rolling up the
//! pages that carry it.

use super::cascade::{BranchDates, Effective, Target, TargetFile, generated_effective};
use super::permalinks::{
    ListTokens, Paths, TermTokens, dir_path, expand_list_permalink, expand_term_permalink,
    hugo_date, list_key_matches, page_time, sanitize, section_slug_segment, sections_cut_panic,
    taxonomy_title, url_path,
};
use super::placement::Bundles;
use super::{Built, Site};
use crate::compact::LangCode;
use crate::route::{Kind, Pages, Reason, RouteList};
use crate::siteconfig::Taxonomy;
use crate::vocab::error::{Error, Result};
use chrono::{DateTime, FixedOffset};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// A term's URL segment: terms that urlize alike are one term.
pub(super) fn term_key(term: &str, site: Paths) -> String {
    // From Hugo 0.123 a term's spaces become hyphens before it is sanitized, leading ones
    // too: ` lead` is the term `-lead`, a page of its own.
    if site.rules.keep_hyphen_runs {
        sanitize(term, site)
    } else {
        sanitize(term.trim(), site)
    }
}

/// Every page's terms, by taxonomy and term key, taken from the pages before routing starts
/// so that their packed terms need not be held through it: a list of page indices a term
/// (about a byte a page, [`RouteList`]) instead of every page's terms in full.
pub(super) struct TermIndex {
    /// For each of the site's taxonomies (in its order), each term key's pages, in page
    /// order (a page once for each of its terms with that key).
    by_tax: Vec<BTreeMap<String, RouteList>>,
    /// For each taxonomy, each term key as the first page carrying it writes it (what the
    /// term's permalink tokens read).
    written: Vec<HashMap<String, String>>,
    /// The terms holding a `/`, which are warned about once their page is routed: (page,
    /// taxonomy, term as written), in page order.
    slashed: Vec<(usize, usize, String)>,
}

/// Pages whose terms one task indexes: the parts are indexed on every core, then joined in
/// page order.
const PART: usize = 1 << 14;

impl TermIndex {
    /// Indexes the terms of `pages` for the site's taxonomies.
    pub(super) fn new(pages: &Pages, paths: Paths) -> TermIndex {
        let starts: Vec<usize> = (0..pages.len()).step_by(PART).collect();
        let parts: Vec<TermIndex> = starts
            .par_iter()
            .map(|&start| TermIndex::of(pages, paths, start..pages.len().min(start + PART)))
            .collect();
        let mut parts = parts.into_iter();
        let Some(mut index) = parts.next() else {
            return TermIndex::of(pages, paths, 0..0);
        };
        for part in parts {
            for (all, more) in index.by_tax.iter_mut().zip(part.by_tax) {
                for (key, list) in more {
                    match all.get_mut(&key) {
                        Some(pages) => pages.append(&list),
                        None => {
                            all.insert(key, list);
                        }
                    }
                }
            }
            for (all, more) in index.written.iter_mut().zip(part.written) {
                for (key, term) in more {
                    all.entry(key).or_insert(term);
                }
            }
            index.slashed.extend(part.slashed);
        }
        index
    }

    /// The index of the pages in `range` alone.
    fn of(pages: &Pages, paths: Paths, range: std::ops::Range<usize>) -> TermIndex {
        let taxonomies = &paths.config.taxonomies;
        let mut index = TermIndex {
            by_tax: vec![BTreeMap::new(); taxonomies.len()],
            written: vec![HashMap::new(); taxonomies.len()],
            slashed: Vec::new(),
        };
        // Sites use few terms on many pages: each is made a key once.
        let mut keys: HashMap<&str, String> = HashMap::new();
        for i in range {
            let terms = pages.terms(i);
            if terms.packed().is_empty() {
                continue;
            }
            for (t, tax) in taxonomies.iter().enumerate() {
                let Some(taxon) = terms.get(&tax.name, false) else {
                    continue;
                };
                for v in taxon.terms {
                    if v.contains('/') {
                        index.slashed.push((i, t, v.to_string()));
                    }
                    let k = keys.entry(v).or_insert_with(|| term_key(v, paths));
                    if k.is_empty() {
                        continue;
                    }
                    // Page indices are far below u32::MAX (see `Route`).
                    match index.by_tax[t].get_mut(k.as_str()) {
                        Some(list) => list.push(i as u32),
                        None => {
                            let mut list = RouteList::new();
                            list.push(i as u32);
                            index.by_tax[t].insert(k.clone(), list);
                            index.written[t].insert(k.clone(), v.to_string());
                        }
                    }
                }
            }
        }
        index
    }
}

/// Adds each language's taxonomy lists and term pages, taxonomy by taxonomy, terms in order.
pub(super) fn add_taxonomies(
    site: &Site,
    bundles: &Bundles,
    built: &mut Built,
    index: &TermIndex,
) -> Result<()> {
    for lang in &site.langs {
        let prefix = site.prefix(lang);
        // Whether each page counts for the terms of this language: 0 not asked yet, 1 yes,
        // 2 no (asked once a page, whatever its number of terms).
        let mut counts = vec![0u8; site.pages.len()];
        // Before 0.123 a home Hugo does not build (a draft, future or expired `_index`) takes
        // every taxonomy list and term page of its language with it.
        let home_built = built
            .section_route
            .contains_key(&(lang.to_string(), String::new()));
        if !home_built && site.rules().withheld_list_takes_terms {
            continue;
        }
        for (t, tax) in site.config.taxonomies.iter().enumerate() {
            let mut terms = terms_of(site, &mut *built, lang, (t, tax), index, &mut counts);
            // A term page Hugo makes from its `_index.md` alone (an author's profile).
            for (l, t, term) in built.tax_files.keys() {
                if l == lang && *t == tax.name && !term.is_empty() {
                    terms.entry(term.clone()).or_default();
                }
            }
            let withheld = |term: &str| {
                let key = (lang.to_string(), tax.name.clone(), term.to_string());
                built.tax_withheld.contains_key(&key)
            };
            // And before 0.123 a taxonomy list it does not build for its dates or as a draft
            // takes its term pages (its build options leave them).
            let key = (lang.to_string(), tax.name.clone(), String::new());
            let dated_out = matches!(
                built.tax_withheld.get(&key),
                Some((_, Reason::Draft | Reason::Future | Reason::Expired))
            );
            if dated_out && site.rules().withheld_list_takes_terms {
                continue;
            }
            terms.retain(|term, _| !withheld(term));
            // A page Hugo makes without a file takes the cascades that reach it: they may
            // leave it out, or date it.
            let mut generated_dates = Vec::new();
            let mut generated_out = |term: &str| -> Result<bool> {
                let key = (lang.to_string(), tax.name.clone(), term.to_string());
                if built.tax_files.contains_key(&key) {
                    return Ok(false);
                }
                let Some(eff) = generated(site, bundles, lang, &tax.name, term)? else {
                    return Ok(false);
                };
                let dates = BranchDates::of(site, &eff, false);
                if dates != BranchDates::default() {
                    generated_dates.push((key, dates));
                }
                Ok(eff.left_out(site).is_some())
            };
            let mut kept = BTreeMap::new();
            for (term, members) in terms {
                if !generated_out(&term)? {
                    kept.insert(term, members);
                }
            }
            let terms = kept;
            let list_out = withheld("") || generated_out("")?;
            built.generated_dates.extend(generated_dates);
            let list = (*lang, prefix.as_str(), &terms);
            let list_route = (!list_out).then(|| add_list(site, built, list, tax));
            let list_route = list_route.flatten();
            // The home is dated by each taxonomy list before 0.123 (0.111.3), and from 0.123
            // by a list its own file dates only (0.168.0: not by the dates of its terms).
            let home = built.section_route.get(&(lang.to_string(), String::new()));
            let own_file =
                built
                    .tax_files
                    .get(&(lang.to_string(), tax.name.clone(), String::new()));
            let own_dated = own_file
                .and_then(|i| built.tax_dates.get(i))
                .is_some_and(|d| d.keeps_own());
            if let (Some(lr), Some(&home)) = (list_route, home)
                && (!site.rules().home_rolls_up_pages || own_dated)
            {
                built.out.routes[home].add_rollup([lr]);
            }
            // A list its own file dates keeps that date, so its terms only matter to what
            // it passes up: from 0.123 the home, which takes the list's own date alone.
            let terms_date_list = !(site.rules().home_rolls_up_pages && own_dated);
            if !site.kind_off("term") {
                let written = &index.written[t];
                add_terms(
                    site,
                    built,
                    (lang, &prefix),
                    tax,
                    terms,
                    written,
                    list_route.filter(|_| terms_date_list),
                )?;
            } else if let Some(lr) = list_route.filter(|_| !site.rules().home_rolls_up_pages) {
                add_off_term_files(site, built, lang, tax, lr);
            }
        }
    }
    Ok(())
}

/// The values the cascades of the taxonomy's `_index` and the home's in `lang` give the
/// taxonomy list (`term` empty) or term Hugo makes without a file of its own; none where
/// neither has a file.
fn generated(
    site: &Site,
    bundles: &Bundles,
    lang: &str,
    tax: &str,
    term: &str,
) -> Result<Option<Effective>> {
    let (kind, path, dirs) = match term.is_empty() {
        true => ("taxonomy", tax.to_string(), &[""][..]),
        false => ("term", format!("{tax}/{term}"), &[tax, ""][..]),
    };
    let target = Target {
        lang,
        kind,
        file: TargetFile::Logical(&path),
    };
    generated_effective(site, bundles, &target, dirs)
}

/// Page `i`'s route, when the page counts for the terms of `lang`: routed, in that
/// language, and rendered (or counted all the same by the version's rules).
fn counted_route(site: &Site, built: &Built, lang: LangCode, i: usize) -> Option<usize> {
    let r = built.route_of(i)?;
    // The route has its page's language: the page need not be placed again.
    if built.out.routes[r].lang_code() != lang {
        return None;
    }
    // Later Hugo makes no term pages from a page it does not render (`render: never`, a
    // headless bundle, from 0.124 any headless page), its own or cascaded.
    (!built.unrendered.contains(&i) || site.rules().unrendered_terms_count).then_some(r)
}

/// The routed pages of `lang` with terms of `tax` (its index among the site's taxonomies,
/// and itself), by term key; a term holding a `/` is warned about, naming its file.
/// `counts` caches [`counted_route`]'s answer a page for `lang`.
fn terms_of(
    site: &Site,
    built: &mut Built,
    lang: &str,
    (t, tax): (usize, &Taxonomy),
    index: &TermIndex,
    counts: &mut [u8],
) -> BTreeMap<String, RouteList> {
    let code = LangCode::of(lang);
    let mut counted = |built: &Built, i: usize| -> Option<usize> {
        if counts[i] == 2 {
            return None;
        }
        let r = counted_route(site, built, code, i);
        counts[i] = if r.is_some() { 1 } else { 2 };
        r
    };
    for (i, _, v) in index.slashed.iter().filter(|(_, u, _)| *u == t) {
        if counted(built, *i).is_none() {
            continue;
        }
        let k = term_key(v, site.paths());
        built.out.warnings.push(format!(
            "{}: the {} term '{v}' holds a '/': its page is nested ({}/{k}/), and Hugo's own sitemap dates it (or, from 0.123, writes '//') differently",
            site.pages.get(*i).file.path().display(),
            tax.name,
            tax.name
        ));
    }
    let mut terms: BTreeMap<String, RouteList> = BTreeMap::new();
    for (k, pages) in &index.by_tax[t] {
        let mut members = RouteList::new();
        for i in pages.iter() {
            // Route indices share the page index's bound (see `Route`).
            if let Some(r) = counted(built, i as usize) {
                members.push(r as u32);
            }
        }
        // A term only resources carry (0.123+) has a page holding none.
        let of_resource = |i: u32| {
            let i = i as usize;
            built.resources.contains(&i) && LangCode::of(site.at(i).lang) == code
        };
        if !members.is_empty() || pages.iter().any(of_resource) {
            terms.insert(k.clone(), members);
        }
    }
    terms
}

/// Adds the taxonomy's list page unless `disableKinds` has `taxonomy`; returns its index.
/// `terms` are its terms' pages, by term.
fn add_list(
    site: &Site,
    built: &mut Built,
    (lang, prefix, terms): (&str, &str, &BTreeMap<String, RouteList>),
    tax: &Taxonomy,
) -> Option<usize> {
    let file = built
        .tax_files
        .get(&(lang.to_string(), tax.name.clone(), String::new()))
        .copied();
    // With the kind off Hugo renders no list, but the list stays in its tree: its own file's
    // dates still date the home (seen in 0.111.3 and 0.168.0), and before 0.123 so do its
    // terms' without a file (0.111.3).
    let kind_off = site.kind_off("taxonomy");
    if kind_off && file.is_none() && site.rules().home_rolls_up_pages {
        return None;
    }
    let tax_seg = taxonomy_segment(site, built, lang, tax);
    let ugly = site.config.ugly(&tax.name);
    let path = match own_url(site, file, prefix) {
        Some(url) => url,
        None => match list_permalink(site, built, (lang, file, terms), tax) {
            Some(Ok(Some(joined))) => site.paths().list_path(prefix, &joined, ugly),
            // Not met: the config's patterns are checked against the release's tokens.
            Some(Err(m)) => {
                let m = format!("{m}: the {} list keeps its path", tax.name);
                built.out.warnings.push(m);
                site.paths().list_path(prefix, &tax_seg, ugly)
            }
            Some(Ok(None)) | None => site.paths().list_path(prefix, &tax_seg, ugly),
        },
    };
    let key = format!("taxonomy:{}", tax.name);
    let mut r = site.taxonomy_route(file, Kind::Taxonomy, path, lang, key);
    let page_key = (lang.to_string(), tax.name.clone(), String::new());
    if let Some(dates) = built.tax_page_dates(&page_key) {
        dates.apply(&mut r);
    }
    r.listed = !kind_off && !built.tax_unlisted.contains(&page_key);
    Some(built.out.push(r))
}

/// With term pages off, Hugo before 0.123 still keeps each term's own `_index` file in its
/// tree, and its dates (not its pages') date the taxonomy list, and so the home (seen in
/// 0.111.3; 0.168.0 counts none of it). Each such file becomes an unlisted term page.
fn add_off_term_files(site: &Site, built: &mut Built, lang: &str, tax: &Taxonomy, list: usize) {
    let mut files: Vec<(String, usize)> = (built.tax_files.iter())
        .filter(|((l, t, term), _)| l == lang && *t == tax.name && !term.is_empty())
        .map(|((_, _, term), &i)| (term.clone(), i))
        .collect();
    files.sort_unstable();
    for (term, i) in files {
        let key = format!("term:{}/{term}", tax.name);
        let mut r = site.taxonomy_route(Some(i), Kind::Term, String::new(), lang, key);
        let page_key = (lang.to_string(), tax.name.clone(), term);
        if let Some(dates) = built.tax_page_dates(&page_key) {
            dates.apply(&mut r);
        }
        r.listed = false;
        let next = built.out.push(r);
        built.out.routes[list].add_rollup([next]);
    }
}

/// Adds a page for each term, rolling up its pages; each term page rolls up into the list.
/// `written` holds each term key as a page writes it.
fn add_terms(
    site: &Site,
    built: &mut Built,
    (lang, prefix): (&str, &str),
    tax: &Taxonomy,
    terms: BTreeMap<String, RouteList>,
    written: &HashMap<String, String>,
    list_route: Option<usize>,
) -> Result<()> {
    let tax_seg = taxonomy_segment(site, built, lang, tax);
    let ugly = site.config.ugly(&tax.name);
    let rules = &site.config.permalink_rules;
    let table_pattern = (site.config.term_permalinks.iter())
        .find(|(k, _)| *k == tax.name)
        .map(|(_, p)| p.as_str());
    // Before 0.115 a `:sections[n]` past a term's sections (its taxonomy, from 0.123 the
    // term too) stops Hugo with a panic once it makes a term page.
    let term_sections = 1 + usize::from(site.rules().term_sections_hold_term);
    if let Some(p) = table_pattern.filter(|_| !terms.is_empty())
        && let Some(m) = sections_cut_panic(p, term_sections, site.paths())
    {
        let (file, line) = match site.config.locate(&["permalinks", "term", &tax.name]) {
            (f, Some(l)) => (f, Some(l)),
            _ => site.config.locate(&["permalinks", &tax.name]),
        };
        return Err(Error::config(file, line, m));
    }
    let tax_slug = taxonomy_slug(site, built, lang, tax);
    for (term, members) in terms {
        let page_key = (lang.to_string(), tax.name.clone(), term.clone());
        let file = built.tax_files.get(&page_key).copied();
        let written = written.get(&term).map_or(term.as_str(), String::as_str);
        // A `[[permalinks]]` rule (0.161+) matches the term's logical path: its own
        // folder's, else the term as a page writes it (lower case, spaces `-`).
        let pattern = match rules.is_empty() {
            true => table_pattern,
            false => {
                let folder = file.and_then(|i| site.at(i).dirs.get(1));
                let name = folder.unwrap_or(written).replace(' ', "-");
                rules.pattern_for("term", &format!("/{}/{name}", tax.name), lang)
            }
        };
        let expanded = match (own_url(site, file, prefix), pattern) {
            (Some(url), _) => Some(url),
            (None, Some(p)) => {
                let tokens = (term.as_str(), written);
                let tax = (tax, ugly, tax_slug.as_str());
                let own = (&page_key, file);
                match term_permalink(site, &*built, own, p, tokens, tax, &members) {
                    Ok(path) => path.map(|path| format!("{prefix}{path}")),
                    // Not met: the config's patterns are checked against the release's tokens.
                    Err(m) => {
                        built
                            .out
                            .warnings
                            .push(format!("{m}: the {term} page is left out"));
                        continue;
                    }
                }
            }
            (None, None) => None,
        };
        let path = expanded.unwrap_or_else(|| {
            let seg = own_slug(site, file).unwrap_or_else(|| term.clone());
            dir_path(prefix, &format!("{tax_seg}/{seg}"), ugly)
        });
        let key = format!("term:{}/{term}", tax.name);
        let mut r = site.taxonomy_route(file, Kind::Term, path, lang, key);
        if let Some(dates) = built.tax_page_dates(&page_key) {
            dates.apply(&mut r);
        }
        r.listed = !built.tax_unlisted.contains(&page_key);
        r.add_rollup_list(members);
        if let Some(lr) = list_route {
            let next = built.out.routes.len();
            built.out.routes[lr].add_rollup([next]);
        }
        built.out.push(r);
    }
    Ok(())
}

/// A term's path by its taxonomy's permalink `pattern`: `(key, written)` is the term's path
/// segment and the term as a page writes it; `members` its pages' routes, whose newest
/// date is the term's date (unless a cascade or its own file gives one).
fn term_permalink(
    site: &Site,
    built: &Built,
    (page_key, file): (&(String, String, String), Option<usize>),
    pattern: &str,
    (key, written): (&str, &str),
    (tax, ugly, tax_slug): (&Taxonomy, bool, &str),
    members: &RouteList,
) -> std::result::Result<Option<String>, String> {
    let own = file.map(|i| site.pages.meta(i));
    let date = term_date(site, built, (page_key, file), members);
    // A term that only its own folder names is written as that folder.
    let folder = file.and_then(|i| site.at(i).dirs.get(1));
    let tokens = TermTokens {
        tax: &tax.name,
        tax_slug,
        key,
        written: if members.is_empty() {
            folder.unwrap_or(written)
        } else {
            written
        },
        title: own.and_then(|m| m.more().title.as_deref()),
        slug: own.and_then(|m| m.slug()),
        has_file: file.is_some(),
        date,
        site: site.paths(),
    };
    expand_term_permalink(pattern, &tokens, ugly)
}

/// A taxonomy's slug, else its title (its own `_index`'s, else the one Hugo makes): its
/// section as the terms' `:sectionslug` names it.
fn taxonomy_slug(site: &Site, built: &Built, lang: &str, tax: &Taxonomy) -> String {
    let key = (lang.to_string(), tax.name.clone(), String::new());
    let own = built.tax_files.get(&key).map(|&i| site.pages.meta(i));
    match own {
        Some(m) => (m.slug().filter(|s| !s.is_empty()))
            .map(str::to_string)
            .or_else(|| m.more().title.clone())
            .unwrap_or_default(),
        None => taxonomy_title(&tax.name, site.paths()),
    }
}

/// A term's date (`.Date`): its own file's, else the newest of its pages'.
fn term_date(
    site: &Site,
    built: &Built,
    (key, file): (&(String, String, String), Option<usize>),
    members: &RouteList,
) -> Option<DateTime<FixedOffset>> {
    // A date a cascade gives the term (or its own, cascades applied) comes first.
    let cascaded = built.tax_page_dates(key).and_then(|d| d.date.as_ref());
    if let Some(d) = cascaded {
        return Some(page_time(d));
    }
    let own = file.map(|i| site.pages.meta(i));
    own.and_then(hugo_date).or_else(|| {
        (members.iter())
            .filter_map(|r| {
                let i = built.out.routes[r as usize].page()?;
                built.page_date(site, r as usize, i)
            })
            .max()
    })
}

/// The taxonomy list's path by a `[permalinks.taxonomy]` pattern (or `[[permalinks]]` rule),
/// after the language prefix;
/// none without a pattern for it. `file` is the list's own `_index` file, `terms` its terms'
/// pages.
fn list_permalink(
    site: &Site,
    built: &Built,
    (lang, file, terms): (&str, Option<usize>, &BTreeMap<String, RouteList>),
    tax: &Taxonomy,
) -> Option<std::result::Result<Option<String>, String>> {
    let rules = &site.config.permalink_rules;
    let pattern = match rules.is_empty() {
        true => (site.config.taxonomy_permalinks.iter())
            .filter(|(k, _)| list_key_matches(k, &tax.name))
            .max_by_key(|(k, _)| k.len())
            .map(|(_, p)| p.as_str())?,
        // A `[[permalinks]]` rule (0.161+) matches the taxonomy's logical path, `/tags`.
        false => rules.pattern_for("taxonomy", &format!("/{}", tax.name), lang)?,
    };
    let own = file.map(|i| site.pages.meta(i));
    // Its date: one a cascade gives it (its own cascade reaches it too), else its own, else
    // its newest term's (a term's own date counts as its pages' do); with term pages off
    // it has none (Go's zero time: `/1/tags/` for `/:year/tags/`, seen in 0.168.0).
    let terms = match site.kind_off("term") {
        true => &BTreeMap::new(),
        false => terms,
    };
    let list_key = (lang.to_string(), tax.name.clone(), String::new());
    let cascaded = built
        .tax_page_dates(&list_key)
        .and_then(|d| d.date.as_ref());
    let date = cascaded
        .map(page_time)
        .or_else(|| own.and_then(hugo_date))
        .or_else(|| {
            (terms.iter())
                .filter_map(|(term, members)| {
                    let key = (lang.to_string(), tax.name.clone(), term.clone());
                    term_date(
                        site,
                        built,
                        (&key, built.tax_files.get(&key).copied()),
                        members,
                    )
                })
                .max()
        });
    let title = match own {
        Some(m) => m.more().title.clone().unwrap_or_default(),
        None => taxonomy_title(&tax.name, site.paths()),
    };
    let slug = own.and_then(|m| m.slug());
    let section_slugs = [slug.filter(|s| !s.is_empty()).unwrap_or(&title).to_string()];
    let dirs = [sanitize(&tax.name, site.paths())];
    let tokens = ListTokens {
        date,
        title: &title,
        slug,
        dirs: &dirs,
        base_name: &tax.name,
        section_slugs: &section_slugs,
        site: site.paths(),
    };
    Some(expand_list_permalink(pattern, &tokens))
}

/// The path a taxonomy's or term's own `_index` file gives with `url` (Hugo 0.111 and 0.168
/// alike), read as a section's.
fn own_url(site: &Site, file: Option<usize>, prefix: &str) -> Option<String> {
    let page = site.pages.get(file?);
    let url = page.fm.more().url.as_deref().filter(|u| !u.is_empty())?;
    Some(url_path(url, Kind::Section, prefix, site.paths()))
}

/// The folder a taxonomy's list and terms are below: its name, or from Hugo 0.167 its own
/// `_index`'s `slug` in that language (`tags/_index.md` with `slug: topics`: `/topics/`,
/// `/topics/rust/`; seen in 0.167.0 and 0.168.0, not in 0.166.0), even where that file is
/// not built (a draft, an expired one).
fn taxonomy_segment(site: &Site, built: &Built, lang: &str, tax: &Taxonomy) -> String {
    let key = (lang.to_string(), tax.name.clone(), String::new());
    let file = (built.tax_files.get(&key))
        .copied()
        .or_else(|| built.tax_withheld.get(&key).map(|(i, _)| *i));
    own_slug(site, file).unwrap_or_else(|| sanitize(&tax.name, site.paths()))
}

/// From Hugo 0.167 a term's own `slug` names its folder, as a section's does (one holding
/// '/' or nothing but hyphens names none).
fn own_slug(site: &Site, file: Option<usize>) -> Option<String> {
    if !site.rules().section_slug_renames_path {
        return None;
    }
    let slug = site.pages.get(file?).fm.slug()?;
    Some(section_slug_segment(slug, site.paths()))
        .filter(|s| !s.trim_matches('-').is_empty() && !s.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::{PageMeta, Terms};
    use crate::hugo::version::HugoRules;
    use crate::scan::{ContentRoot, Files};
    use crate::siteconfig::SiteConfig;
    use crate::vocab::date::SiteTz;

    #[test]
    fn terms_indexed_in_parts_are_the_terms_indexed_in_one() {
        let root = ContentRoot::new("content".into(), None);
        let n = 2 * PART + PART / 2;
        let mut files = Files::new();
        for i in 0..n {
            files.push(&root, &format!("s{}/p{i}.md", i / 100)).unwrap();
        }
        let tax = |name: &str| Taxonomy {
            name: name.into(),
            paginate_by: None,
            paginate_path: "page".into(),
            render: true,
        };
        let config = SiteConfig {
            taxonomies: vec![tax("tags"), tax("categories")],
            ..Default::default()
        };
        let (rules, tz) = (HugoRules::default(), SiteTz::default());
        let paths = Paths {
            config: &config,
            rules: &rules,
            tz: &tz,
        };
        let mut pages = Pages::new(&files);
        let words = ["Go", "go", "rust", "a/b", " lead", "", "C++"];
        for i in 0..n {
            // Terms that come and go, repeat, read alike (`Go`, `go`) or hold a '/'.
            let tags: Vec<String> = (0..i % 4).map(|k| words[(i + k) % 7].into()).collect();
            let cats: Vec<String> = (i % 5 == 0).then(|| "News".into()).into_iter().collect();
            let lists = [("categories".into(), cats), ("tags".into(), tags)];
            pages
                .push(PageMeta::default(), &Terms::pack(&lists, &[]))
                .unwrap();
        }
        let parted = TermIndex::new(&pages, paths);
        let whole = TermIndex::of(&pages, paths, 0..n);
        assert_eq!(parted.by_tax, whole.by_tax);
        assert_eq!(parted.slashed, whole.slashed);
        // Every part added its pages: the lists reach past the first part.
        let last = |list: &RouteList| list.iter().last();
        assert!(
            parted.by_tax[0]
                .values()
                .any(|l| last(l) > Some(2 * PART as u32))
        );
        assert_eq!(parted.by_tax[1].len(), 1);
    }
}
