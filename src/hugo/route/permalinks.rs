//! URL paths as Hugo makes them: language prefixes, `url` and `slug`, `[permalinks]`
//! patterns, `uglyURLs`, and path sanitizing and lower-casing.

use super::filename;
use super::placement::{Placed, SectionNames};
use crate::hugo::glob::go_lower;
use crate::hugo::golayout;
use crate::hugo::permalink_tokens::{Part, each_part, unknown_token};
use crate::hugo::title_case;
use crate::hugo::version::HugoRules;
use crate::route::{Kind, Page, normalize};
use crate::siteconfig::SiteConfig;
use crate::slugify::hugo_make_path;
use crate::vocab::date::{SiteTz, W3cDate};
use crate::vocab::error::{Error, Result};
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};
use std::ops::Deref;

/// What Hugo's path rules read: the site's config, and the switches of the Hugo version
/// that builds it. Derefs to the config.
#[derive(Clone, Copy)]
pub(super) struct Paths<'a> {
    /// The site's config.
    pub(super) config: &'a SiteConfig,
    /// The version's rules.
    pub(super) rules: &'a HugoRules,
    /// The zone of dates without an offset.
    pub(super) tz: &'a SiteTz,
}

impl Deref for Paths<'_> {
    type Target = SiteConfig;

    fn deref(&self) -> &SiteConfig {
        self.config
    }
}

impl Paths<'_> {
    /// The date and slug Hugo's `:filename` takes from `name` (a file's stem, a leaf
    /// bundle's folder), when the site's `[frontmatter] date` order reaches it.
    pub(super) fn name_date(&self, page: &Page, name: &str) -> Option<(W3cDate, String)> {
        let order = self.frontmatter_date.as_deref();
        filename::name_date(order, page.fm, name, self.rules, self.tz)
    }

    /// A folder's (or term's) name, sanitized, as `:section` and `:sections` give it: from
    /// Hugo 0.123 in lower case even with `disablePathToLower` (they name the sections'
    /// paths, which Hugo lower-cases).
    pub(super) fn section_token(&self, sanitized: &str) -> String {
        match self.rules.sections_from_path {
            true => go_lower(sanitized),
            false => sanitized.to_string(),
        }
    }

    /// What a whole `:sections` gives for these sections (their names, as
    /// [`Paths::section_token`] gives them): joined by `/`, and from Hugo 0.123, which gives
    /// the section's path, with a leading `/` (`x-:sections` is `x-/docs/sub`; the home's
    /// pages `/`).
    pub(super) fn sections_token(&self, sections: &[String]) -> String {
        let joined = sections.join("/");
        match self.rules.sections_from_path {
            true => format!("/{joined}"),
            false => joined,
        }
    }

    /// A home, section or taxonomy list's path: `{prefix}/{joined}/`; with `ugly` URLs
    /// `{prefix}/{joined}.html` before Hugo 0.148, `{prefix}/{joined}/index.html` from it.
    pub(super) fn list_path(&self, prefix: &str, joined: &str, ugly: bool) -> String {
        match (ugly, self.rules.ugly_lists_as_index, joined.is_empty()) {
            (true, true, true) => format!("{prefix}/index.html"),
            (true, true, false) => format!("{prefix}/{joined}/index.html"),
            (_, _, true) => format!("{prefix}/"),
            _ => dir_path(prefix, joined, ugly),
        }
    }
}

/// The path prefix of a language's URLs: `/fr` for a language in its own folder, else "".
pub(super) fn lang_prefix(site: &SiteConfig, lang: &str, multilingual: bool) -> String {
    let own_host = site.language(lang).is_some_and(|l| l.base_url.is_some());
    if !multilingual
        || own_host
        || (lang == site.default_language
            && !site.default_language_in_subdir
            && !site.default_language_unmatched)
    {
        String::new()
    } else {
        format!("/{lang}")
    }
}

/// A list-like path: `{prefix}/{joined}/`, or with `uglyURLs` `{prefix}/{joined}.html`.
pub(super) fn dir_path(prefix: &str, joined: &str, ugly: bool) -> String {
    if ugly {
        format!("{prefix}/{joined}.html")
    } else {
        format!("{prefix}/{joined}/")
    }
}

/// A page's folders as its URL names them.
pub(super) struct PageFolders {
    /// Their URL segments when sections' slugs rename them (`None`: as written, sanitized).
    pub slugged: Option<Vec<String>>,
    /// Their sections as `:sectionslugs` names them (empty where no pattern has the token).
    pub section_names: SectionNames,
    /// How many of them are its section's, what `:sections` names.
    pub sections: usize,
    /// Its section has an `_index` file.
    pub section_indexed: bool,
}

/// The path of a content file's page of `kind`, below its language's `prefix`; `date` is
/// its `.Date` once cascades applied (what a pattern's date tokens read).
pub(super) fn page_path(
    page: &Page,
    pl: &Placed,
    kind: Kind,
    site: Paths,
    prefix: &str,
    folders: PageFolders,
    date: Option<W3cDate>,
) -> Result<String> {
    let PageFolders {
        slugged: dirs,
        section_names,
        sections,
        section_indexed,
    } = folders;
    if kind == Kind::Home {
        return Ok(site.list_path(prefix, "", site.ugly("")));
    }
    // Hugo takes `url` as written, spaces and all (` /x/` is the path `/ /x/`).
    if let Some(url) = page.fm.more().url.as_deref().filter(|u| !u.is_empty()) {
        return Ok(url_path(url, kind, prefix, site));
    }
    let dir_segs: Vec<String> =
        dirs.unwrap_or_else(|| pl.dirs.iter().map(|d| sanitize(d, site)).collect());
    if kind == Kind::Section {
        let ugly = site.ugly(pl.dirs.first().unwrap_or(""));
        return Ok(site.list_path(prefix, &dir_segs.join("/"), ugly));
    }
    file_path(
        page,
        pl,
        (&dir_segs, &section_names),
        site,
        prefix,
        (sections, section_indexed),
        date,
    )
}

/// The path a front matter `url` gives.
pub(super) fn url_path(url: &str, kind: Kind, prefix: &str, site: Paths) -> String {
    // Before Hugo 0.136.1 a section's `url` was sanitized like a folder name.
    if kind == Kind::Section && !site.rules.section_url_keeps_case {
        let segs: Vec<String> = url
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| segment(s, site))
            .collect();
        // Like a page's, an absolute section `url` takes no language prefix; and like a
        // page's, one naming a file gets no slash after it.
        let prefix = if url.starts_with('/') { "" } else { prefix };
        let slash = if names_file(url) { "" } else { "/" };
        return format!("{prefix}/{}{slash}", segs.join("/"));
    }
    // A page's `url` is taken as written; without a leading slash it is language-relative.
    let mut p = if url.starts_with('/') {
        url.to_string()
    } else {
        format!("{prefix}/{url}")
    };
    if !names_file(url) && !p.ends_with('/') {
        p.push('/');
    }
    p
}

/// Whether Hugo publishes a front matter `url` as the file it names rather than as a folder
/// with an `index.html`: when it holds a dot anywhere (`/v1.2/x`, `/a/b.html`) and does not
/// end in a slash (`/custom/v1.2/` is a folder). Hugo 0.111.3 and 0.168.0 alike.
fn names_file(url: &str) -> bool {
    url.contains('.') && !url.ends_with('/')
}

/// A regular page's path from its folders (`dir_segs`, sanitized; `section_names`, as
/// `:sectionslugs` names them), its name or `slug`, and its section's permalink pattern.
fn file_path(
    page: &Page,
    pl: &Placed,
    (dir_segs, section_names): (&[String], &SectionNames),
    site: Paths,
    prefix: &str,
    (sections, section_indexed): (usize, bool),
    date: Option<W3cDate>,
) -> Result<String> {
    // A leaf bundle is named by its folder.
    let (parent_segs, file_name) = if pl.is_leaf {
        (
            &dir_segs[..dir_segs.len().saturating_sub(1)],
            pl.dirs.last().unwrap_or(""),
        )
    } else {
        (dir_segs, pl.stem)
    };
    let name_date = site.name_date(page, file_name);
    // A file-name date's rest names the page unless the front matter sets a slug.
    let slug = match page.fm.slug() {
        Some(s) => Some(slug_segment(s, site)),
        None => name_date
            .as_ref()
            .map(|(_, s)| sanitize(s, site).trim_matches('-').to_string())
            .filter(|s| !s.is_empty()),
    };
    let section = pl.dirs.first().map(|s| s.to_ascii_lowercase());
    let ugly = site.ugly(section.as_deref().unwrap_or(""));
    let pattern = if !site.permalink_rules.is_empty() {
        // A `[[permalinks]]` list (0.161+) stands in for the tables: its first rule that
        // takes the page's logical path gives the pattern.
        (site.permalink_rules).pattern_for("page", &pl.logical_path(), pl.lang)
    } else if site.rules.permalink_rules {
        // From 0.161 a table's key is the path glob `/{key,key/**}` (`/*` for `/`): the
        // pages at any depth below it, and a top-level page of its name. Of two keys that
        // match, Hugo takes either (a map's order): the longest here.
        let path = go_lower(&pl.logical_path()[1..]);
        (site.permalinks.iter())
            .filter(|(k, _)| list_key_matches(k.trim_matches([' ', '/']), &path))
            .max_by_key(|(k, _)| k.trim_matches([' ', '/']).len())
            .map(|(_, p)| p.as_str())
    } else {
        // Hugo trims spaces and `/` off a key, and matches it against the page's top-level
        // section (as written before 0.123, lower case and spaces `-` from it): `/` is the
        // pages at the top level (bundles too), which have none.
        let top_bundle = pl.is_leaf && pl.dirs.len() == 1;
        let sec = match pl.dirs.first().filter(|_| !top_bundle) {
            Some(d) if site.rules.sections_from_path => content_path_segment(d),
            Some(d) => d.to_string(),
            None => String::new(),
        };
        (site.permalinks.iter())
            .find(|(k, _)| k.trim_matches([' ', '/']) == sec)
            .map(|(_, p)| p.as_str())
    };
    if let Some(pattern) = pattern {
        let mut tokens = PageTokens::new(page, pl, slug.as_deref(), file_name, site);
        tokens.sections = sections.min(tokens.sections);
        tokens.section_indexed = section_indexed;
        if let Some(m) = sections_cut_panic(pattern, tokens.section_entries().len(), site) {
            return Err(Error::input(page.file.path(), None, m));
        }
        tokens.section_slugs = (section_names.iter().take(tokens.sections).flatten())
            .filter(|s| !s.is_empty())
            .map(|s| urlize(s, site))
            .collect();
        // A date a cascade gave it names it too (Hugo 0.111.3 and 0.168.0).
        if let Some(d) = name_date.map(|(d, _)| d).or(date) {
            tokens.date = page_time(&d);
        }
        let expanded = expand_page_permalink(pattern, &tokens, ugly)
            .map_err(|m| Error::input(page.file.path(), None, m))?;
        if let Some(expanded) = expanded {
            return Ok(format!("{prefix}{}", end_permalink(&expanded, ugly)));
        }
    }
    // A leaf bundle at the content root (`content/index.md`) has no folder to be named by:
    // Hugo puts it at the home's URL (0.111 lists that URL twice, once for each page).
    if pl.is_leaf && pl.dirs.is_empty() && slug.is_none() {
        return Ok(site.list_path(prefix, "", site.ugly("")));
    }
    let last = slug.unwrap_or_else(|| sanitize(file_name, site));
    let mut segs: Vec<&str> = parent_segs.iter().map(String::as_str).collect();
    segs.push(&last);
    Ok(dir_path(prefix, &segs.join("/"), ugly))
}

/// What a page's permalink tokens (`:year`, `:slug`, ...) stand for.
struct PageTokens<'a> {
    /// Hugo's page date (see [`PageTokens::new`]); a date without a time is midnight UTC.
    date: DateTime<FixedOffset>,
    /// The sanitized title, or "".
    title_slug: String,
    /// The sanitized `slug`, if any.
    slug: Option<&'a str>,
    /// The file's name (a leaf bundle's folder).
    file_name: &'a str,
    /// Its sections from the top, each by its slug, else its title, made a URL segment:
    /// what `:sectionslugs` names (0.149+).
    section_slugs: Vec<String>,
    /// The folders as written, sanitized: what `:section` and `:sections` name, whatever the
    /// sections' slugs.
    folders: Vec<String>,
    /// How many of the folders are its section's, what `:sections` names: a folder below
    /// the top level without an `_index` is no section (seen in Hugo 0.111.3 and 0.168.0).
    sections: usize,
    /// Its section has an `_index` file.
    section_indexed: bool,
    site: Paths<'a>,
}

impl<'a> PageTokens<'a> {
    fn new(
        page: &Page,
        pl: &Placed,
        slug: Option<&'a str>,
        file_name: &'a str,
        site: Paths<'a>,
    ) -> PageTokens<'a> {
        // A page with no date has Go's zero time, 0001-01-01 (a Monday), so `:year` gives
        // `1` (Hugo formats it unpadded).
        let date = hugo_date(page.fm).unwrap_or_else(|| go_time(GO_ZERO_DATE));
        let title_slug = page
            .fm
            .more()
            .title
            .as_deref()
            .map(|t| title_segment(t, site))
            .unwrap_or_default();
        PageTokens {
            date,
            title_slug,
            slug,
            file_name,
            section_slugs: Vec::new(),
            section_indexed: true,
            folders: (pl.dirs.iter())
                .map(|d| site.section_token(&sanitize(d, site)))
                .collect(),
            // A leaf bundle's own folder is never one of its sections.
            sections: pl.dirs.len().saturating_sub(usize::from(pl.is_leaf)),
            site,
        }
    }

    /// A token's value; none for a token Hugo does not know.
    fn value(&self, token: &str) -> Option<String> {
        let (date, site) = (self.date, self.site);
        let file_name = || urlize(self.file_name, site);
        if let Some(v) = date_value(token, &date) {
            return Some(v);
        }
        Some(match token {
            // The slug, else the title: a page with neither gives nothing (Hugo's
            // `pageToPermalinkSlugElseTitle`; `/notes/:slug` is `/notes/`, seen in 0.111.3
            // and 0.168.0).
            "slug" => self
                .slug
                .map_or_else(|| self.title_slug.clone(), str::to_string),
            "title" => self.title_slug.clone(),
            "filename" => file_name(),
            // Added in Hugo 0.144: an unknown token to earlier releases.
            "contentbasename" if site.rules.permalink_contentbasename => file_name(),
            "slugorfilename" => self.slug.map(str::to_string).unwrap_or_else(file_name),
            "slugorcontentbasename" if site.rules.permalink_contentbasename => {
                self.slug.map(str::to_string).unwrap_or_else(file_name)
            }
            "section" => self.folders.first().cloned().unwrap_or_default(),
            // Added in Hugo 0.149: the sections by their slugs, else their titles (a section
            // without `_index`: the title Hugo makes, `über` is `übers`).
            "sectionslug" if site.rules.permalink_sectionslug => {
                self.section_slugs.first().cloned().unwrap_or_default()
            }
            "sections" => site.sections_token(&self.folders[..self.sections]),
            "sectionslugs" if site.rules.permalink_sectionslug => self.section_slugs.join("/"),
            t => {
                let sections = &self.section_entries();
                let slugs = &self.section_slugs;
                if let Some((name, _)) = t.split_once('[') {
                    let cut = &t[name.len()..];
                    match name {
                        "sections" => return Some(slice_join(sections, cut)),
                        "sectionslugs" if site.rules.permalink_sectionslug => {
                            return Some(slice_join(slugs, cut));
                        }
                        _ => {}
                    }
                }
                // Checked last, as Hugo does: a Go time layout (`:06`, `:Jan`) formats the date.
                return layout_value(t, &self.date);
            }
        })
    }
}

/// A named date token's value (`:year`, …), as Hugo formats them: year, day of the year and
/// weekday number unpadded.
fn date_value(token: &str, date: &DateTime<FixedOffset>) -> Option<String> {
    Some(match token {
        "year" => date.year().to_string(),
        "month" => date.format("%m").to_string(),
        // Written as Go names them (`March`); the whole expansion is lower-cased after,
        // unless `disablePathToLower`.
        "monthname" => date.format("%B").to_string(),
        "day" => date.format("%d").to_string(),
        "yearday" => date.ordinal().to_string(),
        "weekday" => date.weekday().num_days_from_sunday().to_string(),
        "weekdayname" => date.format("%A").to_string(),
        _ => return None,
    })
}

/// A token that is a Go time layout (`:06`, `:Jan`) formats the date; Hugo checks it last.
fn layout_value(token: &str, date: &DateTime<FixedOffset>) -> Option<String> {
    golayout::is_layout(token).then(|| golayout::format(token, date))
}

impl PageTokens<'_> {
    /// The page's sections as `:sections[…]` cuts them: before 0.123 a section made
    /// without `_index` (a top-level folder) lists its name and an empty entry, as Hugo
    /// 0.111.3 splits its key `/news/` (so `[last]` and `[1]` give nothing there).
    fn section_entries(&self) -> Vec<String> {
        let mut entries = self.folders[..self.sections].to_vec();
        if !self.site.rules.sections_from_path && !self.section_indexed && !entries.is_empty() {
            entries.push(String::new());
        }
        entries
    }
}

/// Why Hugo stops at `pattern` for a page with `len` section entries, if it does: before
/// 0.115 a single `:sections[n]` at or past the end is an index out of range (a panic).
pub(super) fn sections_cut_panic(pattern: &str, len: usize, site: Paths) -> Option<String> {
    if !site.rules.sections_cut_panics || len == 0 {
        return None;
    }
    let mut found = None;
    let _ = each_part(pattern, |part| {
        if let Part::Token(t) = part
            && let Some(inner) = t
                .strip_prefix("sections[")
                .and_then(|c| c.strip_suffix(']'))
            && !inner.contains(':')
            && inner.trim() != "last"
            && inner.trim().parse::<i64>().unwrap_or(0).max(0) as usize >= len
        {
            found.get_or_insert(format!(
                "the permalink `:{t}` names a section past the page's {len}: Hugo {} stops with a panic here (an index out of range, fixed in 0.115.0)",
                site.rules.version
            ));
        }
        Ok(())
    });
    found
}

/// What a term page's permalink tokens stand for, as Hugo 0.111.3 and 0.168.0 expand them.
pub(super) struct TermTokens<'a> {
    /// The taxonomy (`tags`).
    pub(super) tax: &'a str,
    /// The taxonomy's slug, else its title: its section as `:sectionslug` names it.
    pub(super) tax_slug: &'a str,
    /// The term's path segment (from 0.123 with runs of hyphens kept: `rock--roll`).
    pub(super) key: &'a str,
    /// The term as the first page carrying it writes it (`Rock & Roll`), or its own
    /// folder's name.
    pub(super) written: &'a str,
    /// The term's own `_index` file's `title` and `slug`, if it has one.
    pub(super) title: Option<&'a str>,
    pub(super) slug: Option<&'a str>,
    /// The term has its own `_index` file.
    pub(super) has_file: bool,
    /// The term's date: its own, else the newest of its pages' (Go's zero time for none).
    pub(super) date: Option<DateTime<FixedOffset>>,
    pub(super) site: Paths<'a>,
}

impl TermTokens<'_> {
    /// A token's value; none for a token Hugo does not know.
    fn value(&self, token: &str) -> Option<String> {
        let (site, rules) = (self.site, self.site.rules);
        let date = self.date.unwrap_or_else(|| go_time(GO_ZERO_DATE));
        if let Some(v) = date_value(token, &date) {
            return Some(v);
        }
        // `.Title`: the own file's ("" where it sets none), else the term as written (seen in
        // 0.111.3 and 0.168.0); `.Slug`: the own file's.
        let title = match self.has_file {
            true => self.title.unwrap_or("").to_string(),
            false => term_title(self.written, site),
        };
        let title = || urlize(&title, site);
        let slug = || self.slug.filter(|s| !s.is_empty()).map(|s| urlize(s, site));
        // Before 0.123 a term's own `_index` file is its `:filename`.
        let file_name = match self.has_file && !rules.term_sections_hold_term {
            true => "_index",
            false => "",
        };
        let base_name = || urlize(self.written, site);
        // A term's sections: its taxonomy, and from 0.123 the term itself; by slug or title
        // (a section with neither is left out, as Hugo 0.168.0 does).
        let mut sections = vec![self.tax.to_string()];
        let mut section_slugs = vec![urlize(self.tax_slug, site)];
        if rules.term_sections_hold_term {
            sections.push(site.section_token(self.key));
            section_slugs.push(slug().unwrap_or_else(title));
        }
        section_slugs.retain(|s| !s.is_empty());
        Some(match token {
            "slug" => slug().unwrap_or_else(title),
            "title" => title(),
            "filename" => file_name.to_string(),
            "slugorfilename" => slug().unwrap_or_else(|| file_name.to_string()),
            "contentbasename" if rules.permalink_contentbasename => base_name(),
            "slugorcontentbasename" if rules.permalink_contentbasename => {
                slug().unwrap_or_else(base_name)
            }
            "section" => self.tax.to_string(),
            "sectionslug" if rules.permalink_sectionslug => urlize(self.tax_slug, site),
            "sections" => site.sections_token(&sections),
            "sectionslugs" if rules.permalink_sectionslug => section_slugs.join("/"),
            t => {
                if let Some((name, _)) = t.split_once('[') {
                    let cut = &t[name.len()..];
                    match name {
                        "sections" => return Some(slice_join(&sections, cut)),
                        "sectionslugs" if rules.permalink_sectionslug => {
                            return Some(slice_join(&section_slugs, cut));
                        }
                        _ => {}
                    }
                }
                return layout_value(t, &date);
            }
        })
    }
}

/// What a section's or taxonomy's list page's permalink tokens stand for
/// (`[permalinks.section]`, `[permalinks.taxonomy]`), as Hugo 0.168.0 expands them.
pub(super) struct ListTokens<'a> {
    /// Its own date, else the newest below it (Go's zero time for none).
    pub(super) date: Option<DateTime<FixedOffset>>,
    /// Its title: its file's (`""` when the file sets none), else the one Hugo makes.
    pub(super) title: &'a str,
    /// Its file's `slug`, if any.
    pub(super) slug: Option<&'a str>,
    /// Its folders, sanitized (a taxonomy: its name).
    pub(super) dirs: &'a [String],
    /// Its own folder's name as written.
    pub(super) base_name: &'a str,
    /// Each section from the top down to itself: its slug, else its title.
    pub(super) section_slugs: &'a [String],
    pub(super) site: Paths<'a>,
}

impl ListTokens<'_> {
    /// A token's value; none for a token Hugo does not know.
    fn value(&self, token: &str) -> Option<String> {
        let (site, rules) = (self.site, self.site.rules);
        let date = self.date.unwrap_or_else(|| go_time(GO_ZERO_DATE));
        if let Some(v) = date_value(token, &date) {
            return Some(v);
        }
        let slug = || self.slug.filter(|s| !s.is_empty()).map(|s| urlize(s, site));
        let title = || title_segment(self.title, site);
        let base_name = || urlize(self.base_name, site);
        let slugs: Vec<String> = (self.section_slugs.iter())
            .map(|s| urlize(s, site))
            .collect();
        let dirs: Vec<String> = self.dirs.iter().map(|d| site.section_token(d)).collect();
        Some(match token {
            "slug" => slug().unwrap_or_else(title),
            "title" => title(),
            // A list's file is `_index`, which Hugo's `:filename` gives as nothing.
            "filename" => String::new(),
            "slugorfilename" => slug().unwrap_or_default(),
            "contentbasename" if rules.permalink_contentbasename => base_name(),
            "slugorcontentbasename" if rules.permalink_contentbasename => {
                slug().unwrap_or_else(base_name)
            }
            "section" => dirs.first().cloned().unwrap_or_default(),
            "sections" => site.sections_token(&dirs),
            "sectionslug" if rules.permalink_sectionslug => {
                slugs.first().cloned().unwrap_or_default()
            }
            "sectionslugs" if rules.permalink_sectionslug => {
                let kept: Vec<&str> = slugs
                    .iter()
                    .map(String::as_str)
                    .filter(|s| !s.is_empty())
                    .collect();
                kept.join("/")
            }
            t => {
                if let Some((name, _)) = t.split_once('[') {
                    let cut = &t[name.len()..];
                    match name {
                        "sections" => return Some(slice_join(&dirs, cut)),
                        "sectionslugs" if rules.permalink_sectionslug => {
                            return Some(slice_join(&slugs, cut));
                        }
                        _ => {}
                    }
                }
                return layout_value(t, &date);
            }
        })
    }
}

/// A list page's permalink pattern with its tokens replaced, as the part of its path after
/// the language prefix (no `/` at either end); an unknown token is an error.
pub(super) fn expand_list_permalink(
    pattern: &str,
    tokens: &ListTokens,
) -> std::result::Result<Option<String>, String> {
    let out = expand_tokens(pattern, |t| tokens.value(t))?;
    Ok(out.map(|out| {
        finish_expansion(out, tokens.site, false)
            .trim_matches('/')
            .to_string()
    }))
}

/// The title Hugo gives a section without `_index` file: its folder's name made plural
/// (Hugo's `pluralizeListTitles`, on by default) and title-cased (from 0.123 in the site's
/// `titleCaseStyle`, unless `capitalizeListTitles` is off).
pub(super) fn implicit_section_title(folder: &str, site: Paths) -> String {
    let titles = &site.config.list_titles;
    let name = match titles.pluralize {
        true => pluralize(folder),
        false => folder.to_string(),
    };
    match site.rules.list_titles_cased {
        true => cased_title(&name, site),
        false => title_case::each_word_upper(&name),
    }
}

/// The title Hugo gives a taxonomy without `_index` file: its name title-cased, `-` made
/// spaces.
pub(super) fn taxonomy_title(name: &str, site: Paths) -> String {
    match site.rules.list_titles_cased {
        true => cased_title(name, site),
        false => title_case::each_word_upper(name),
    }
    .replace('-', " ")
}

/// The title Hugo gives a term without `_index` file: from 0.123 the term title-cased in
/// the site's style, before as written.
pub(super) fn term_title(written: &str, site: Paths) -> String {
    match site.rules.list_titles_cased {
        true => cased_title(written, site),
        false => written.to_string(),
    }
}

/// `s` in the site's `titleCaseStyle`, or as it is with `capitalizeListTitles = false`.
fn cased_title(s: &str, site: Paths) -> String {
    let titles = &site.config.list_titles;
    match titles.capitalize {
        true => title_case::title(s, &titles.style),
        false => s.to_string(),
    }
}

/// The common cases of the pluralizer Hugo uses (`flect`): a word ending in `s` stays,
/// `-y` after a consonant is `-ies`, `-x`, `-ch`, `-sh` take `-es`, a few irregular ones,
/// else `-s` (`R&D` -> `R&Ds`, `Deep Dive` -> `Deep Dives`, `x_y` -> `x_ies`).
fn pluralize(word: &str) -> String {
    let lower = word.to_lowercase();
    let last = lower.rsplit(' ').next().unwrap_or("");
    for (one, many) in [("person", "people"), ("child", "children"), ("man", "men")] {
        if last == one {
            let stem = &word[..word.len() - one.len()];
            return format!("{stem}{many}");
        }
    }
    let before_y = lower.strip_suffix('y').and_then(|s| s.chars().last());
    if lower.ends_with('s') || lower.is_empty() {
        word.to_string()
    } else if before_y.is_some_and(|c| c.is_alphanumeric() || c == '_')
        && !before_y.is_some_and(|c| "aeiou".contains(c))
    {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["x", "ch", "sh"].iter().any(|e| lower.ends_with(e)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// Whether a `[permalinks.section]` or `[permalinks.taxonomy]` key matches the content path
/// `path` (folders lower-cased, spaces made `-`, joined by `/`): the path itself or below it;
/// an empty key (`/`) matches the top level alone.
pub(super) fn list_key_matches(key: &str, path: &str) -> bool {
    match key.is_empty() {
        true => !path.is_empty() && !path.contains('/'),
        false => path == key || path.strip_prefix(key).is_some_and(|r| r.starts_with('/')),
    }
}

/// A folder's name as Hugo writes it in a content path: lower-cased, spaces made `-`.
pub(super) fn content_path_segment(folder: &str) -> String {
    folder.to_lowercase().replace(' ', "-")
}

/// Hugo's page date (`.Date`): `date`, else `publishDate`, else `lastmod`.
pub(super) fn hugo_date(fm: &crate::frontmatter::PageMeta) -> Option<DateTime<FixedOffset>> {
    let d = fm.date.or(fm.publish_date()).or(fm.updated)?;
    Some(page_time(&d))
}

/// A date as a time for Go's layouts: a date without a time is midnight UTC (the date's
/// fields are what permalinks use).
pub(super) fn page_time(d: &W3cDate) -> DateTime<FixedOffset> {
    match d.kind() {
        crate::vocab::date::W3cKind::DateTime(t) => t,
        crate::vocab::date::W3cKind::Date(d) => go_time(d),
    }
}

/// Midnight UTC of `d`.
fn go_time(d: NaiveDate) -> DateTime<FixedOffset> {
    d.and_time(chrono::NaiveTime::MIN).and_utc().fixed_offset()
}

/// Hugo's `:sections[…]` and `:sectionslugs[…]`: the sections cut as `cut` says (`[1:]`,
/// `[:last]`, `[2]`), joined as Go's `path.Join` joins them (empty ones left out). A cut
/// Hugo cannot read gives no sections, as in Hugo.
fn slice_join(sections: &[String], cut: &str) -> String {
    let cut = cut.trim().to_ascii_lowercase();
    let picked: &[String] = match cut.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
        Some(inner) if cut.len() >= 3 && !sections.is_empty() => {
            // One bound: "" is the start (or end), "last" the last, a number past the end is
            // out of bounds; anything else Go's Atoi refuses counts as 0.
            let bound = |s: &str, low: bool| -> Option<usize> {
                let n = match s {
                    "" if low => 0,
                    "" => sections.len(),
                    "last" => sections.len() - 1,
                    s => s.parse::<i64>().unwrap_or(0).max(0) as usize,
                };
                match n >= sections.len() {
                    true if low => None,
                    true => Some(sections.len()),
                    false => Some(n),
                }
            };
            match inner.split_once(':') {
                None => match bound(inner, true) {
                    Some(n) => &sections[n..=n],
                    None => &[],
                },
                Some((lo, hi)) => {
                    // Go splits on every `:`; the bounds are the first two parts.
                    let hi = hi.split(':').next().unwrap_or("");
                    match (bound(lo, true), bound(hi, false)) {
                        (Some(a), Some(b)) if a <= b => &sections[a..b],
                        _ => &[],
                    }
                }
            }
        }
        _ => &[],
    };
    (picked.iter())
        .filter(|s| !s.is_empty())
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("/")
}

/// A page's permalink pattern with its tokens replaced; an unknown token is an error.
fn expand_page_permalink(
    pattern: &str,
    tokens: &PageTokens,
    ugly: bool,
) -> std::result::Result<Option<String>, String> {
    let out = expand_tokens(pattern, |t| tokens.value(t))?;
    Ok(out.map(|out| finish_expansion(out, tokens.site, ugly)))
}

/// `pattern` with each token replaced by `value`'s answer; an unknown token is an error.
/// None where it comes to nothing at all (`:sections[:last]` of a top-level section): Hugo
/// then takes no permalink, and the page keeps the path it would have without one.
fn expand_tokens(
    pattern: &str,
    value: impl Fn(&str) -> Option<String>,
) -> std::result::Result<Option<String>, String> {
    let mut out = String::new();
    each_part(pattern, |part| {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Token(t) => out.push_str(&value(t).ok_or_else(|| unknown_token(pattern, t))?),
        }
        Ok(())
    })?;
    Ok(Some(out).filter(|o| !o.is_empty()))
}

/// An expanded pattern made a path as Hugo makes it: lower-cased unless `disablePathToLower`
/// (the pattern's own text and a date's `Jan` too), then unescaped. `ugly` for a page or
/// term that `uglyURLs` writes as `NAME.html`.
fn finish_expansion(mut out: String, site: Paths, ugly: bool) -> String {
    if !site.disable_path_to_lower {
        out = go_lower(&out);
    }
    // Before 0.153 Hugo ends the path with `/` before it unescapes it, so a final `+`
    // becomes `-` there too; from 0.153 it is cleaned first, and a final `+` is dropped,
    // unless `uglyURLs` puts `.html` after it (`C++` -> `c-.html`, seen in 0.168.0).
    let clean_first = site.rules.permalink_clean_first;
    if clean_first {
        let bare = out.trim_end_matches('/').len();
        out.truncate(bare);
    }
    if !out.ends_with('/') && !clean_first {
        out.push('/');
    }
    let mut p = match clean_first && ugly {
        true => {
            let mut p = permalink_unescape(&format!("{out}.html"));
            if p.ends_with(".html") {
                p.truncate(p.len() - ".html".len());
            }
            p
        }
        false => permalink_unescape(&out),
    };
    if !p.ends_with('/') {
        p.push('/');
    }
    normalize(&p)
}

/// Hugo 0.111 query-unescapes an expanded permalink (`+` becomes a space) and sanitizes it
/// again, so a space before a kept character turns into `-`: slug `a+b` -> `a-b`, title
/// `C++ Tips` -> `c-tips`, term `C++` -> `/topic/c-/` (seen in Hugo's output).
fn permalink_unescape(path: &str) -> String {
    if path.contains('+') {
        hugo_make_path(&path.replace('+', " "), false)
    } else {
        path.to_string()
    }
}

/// A term's permalink pattern with its tokens replaced; an unknown token is an error.
pub(super) fn expand_term_permalink(
    pattern: &str,
    tokens: &TermTokens,
    ugly: bool,
) -> std::result::Result<Option<String>, String> {
    let out = expand_tokens(pattern, |t| tokens.value(t))?;
    Ok(out.map(|out| end_permalink(&finish_expansion(out, tokens.site, ugly), ugly)))
}

/// An expanded permalink's end: a pattern with or without a final `/` ends alike, in `/` or,
/// with `uglyURLs`, in `.html`; one that comes to nothing (`/:filename/` of a term without
/// a file) is then `/.html`, a file Hugo writes (0.111.3 and 0.168.0).
fn end_permalink(path: &str, ugly: bool) -> String {
    let bare = path.trim_end_matches('/');
    match (ugly, bare.is_empty()) {
        (true, true) => "/.html".to_string(),
        (true, false) => format!("{bare}.html"),
        (false, _) => format!("{bare}/"),
    }
}

/// Hugo's `urlize`, what the permalink tokens `:title`, `:slug`, `:filename` and
/// `:contentbasename` give: in every release a run of spaces (with what is dropped between)
/// is one hyphen, `Rock & Roll` -> `rock-roll`, `a - b` -> `a-b` (a folder or file name's
/// path keeps the runs from 0.123, see [`sanitize`]).
///
/// Hugo's urlize ends by parsing its result as a URL (Go's `net/url`), where a `#` starts a
/// fragment: an empty one is dropped with its `#` (`C#` -> `c`, `F#` -> `f`, in 0.111.3 and
/// 0.168.0); one with text after it stays as written.
pub(super) fn urlize(s: &str, site: Paths) -> String {
    let mut out = sanitize_with(s, site.config, false);
    if let Some(i) = out.find('#').filter(|&i| i + 1 == out.len()) {
        out.truncate(i);
    }
    out
}

/// A page's or section's title as its `:title` token gives it: urlized, and from Hugo 0.166
/// with each `/` made a `-`.
fn title_segment(title: &str, site: Paths) -> String {
    let s = urlize(title, site);
    match site.rules.title_token_hyphens_slash {
        true => s.replace('/', "-"),
        false => s,
    }
}

/// Hugo's path sanitizing, then lower-casing unless `disablePathToLower`.
pub(super) fn sanitize(s: &str, site: Paths) -> String {
    sanitize_with(s, site.config, site.rules.keep_hyphen_runs)
}

/// A front matter `slug` as a path segment. From Hugo 0.123 it is sanitized on its own,
/// spaces first made hyphens only where they lie between kept characters (`A b & C` ->
/// `a-b-c`, ` lead` -> `lead`; a slug of spaces alone names nothing, so the page takes its
/// folder's URL). Before, the whole path was sanitized at once, so a space next to a `/`
/// became a hyphen (` lead` -> `-lead`, ` ` -> `-`).
fn slug_segment(slug: &str, site: Paths) -> String {
    if site.rules.keep_hyphen_runs {
        return sanitize_with(slug, site.config, false);
    }
    segment(slug, site)
}

/// A section's `slug` as the folder name it stands for (Hugo 0.167 on): sanitized in its
/// place between slashes, spaces making single hyphens (` lead` -> `-lead`, `A b & C` ->
/// `a-b-c`).
pub(super) fn section_slug_segment(slug: &str, site: Paths) -> String {
    let framed = sanitize_with(&format!("/{slug}/"), site.config, false);
    framed
        .strip_prefix('/')
        .and_then(|s| s.strip_suffix('/'))
        .unwrap_or(&framed)
        .to_string()
}

/// One segment of a path Hugo before 0.123 sanitized whole: a space beside a `/` became a
/// hyphen there (` lead` -> `-lead`).
fn segment(seg: &str, site: Paths) -> String {
    if site.rules.keep_hyphen_runs {
        return sanitize(seg, site);
    }
    let framed = sanitize(&format!("/{seg}/"), site);
    framed
        .strip_prefix('/')
        .and_then(|s| s.strip_suffix('/'))
        .unwrap_or(&framed)
        .to_string()
}

/// [`sanitize`] with the one version switch it reads: from Hugo 0.123 each space becomes `-`
/// before a lower-cased path is sanitized, so runs of hyphens stay (`a  b` -> `a--b`).
fn sanitize_with(s: &str, site: &SiteConfig, keep_hyphen_runs: bool) -> String {
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
    if site.disable_path_to_lower {
        return hugo_make_path(s, site.remove_path_accents);
    }
    let p = if keep_hyphen_runs {
        hugo_make_path(&s.replace(' ', "-"), site.remove_path_accents)
    } else {
        hugo_make_path(s, site.remove_path_accents)
    };
    go_lower(&p)
}

/// Go's zero time's date, 0001-01-01: what Hugo's permalinks use for a page without a date.
const GO_ZERO_DATE: NaiveDate = match NaiveDate::from_ymd_opt(1, 1, 1) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permalinks_unescape_plus_like_hugo() {
        assert_eq!(permalink_unescape("/2024/a-+-b/"), "/2024/a--b/");
        assert_eq!(permalink_unescape("/2024/p++q/"), "/2024/p-q/");
        assert_eq!(permalink_unescape("/2024/lead+/"), "/2024/lead-/");
        assert_eq!(permalink_unescape("/2024/c++-tips/"), "/2024/c-tips/");
        assert_eq!(permalink_unescape("/2024/foo--bar/"), "/2024/foo--bar/");
    }

    #[test]
    fn term_permalinks_expand_as_each_release_does() {
        use crate::hugo::version::HugoVersion;
        let config = SiteConfig::default();
        let tz = SiteTz::default();
        let rules = |v: &str| HugoRules::of(HugoVersion::parse(v).unwrap());
        let (old, new) = (rules("0.111.3"), rules("0.168.0"));
        // (pattern, key in 0.111 and 0.168, written, own title and slug, ugly, 0.111, 0.168),
        // as the real Hugos published them (`/t/:filename/` with an own file: `_index`).
        type Case<'a> = (
            &'a str,
            [&'a str; 2],
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
        );
        let cases: [(Case, bool, &str, &str); 13] = [
            (
                ("/t/:slug/", ["c", "c"], "C++", None, None),
                false,
                "/t/c-/",
                "/t/c/",
            ),
            // `.html` after a final `+` keeps it a hyphen in every release.
            (
                ("/t/:slug/", ["c", "c"], "C++", None, None),
                true,
                "/t/c-.html",
                "/t/c-.html",
            ),
            // A final `#` is an empty URL fragment: gone; one with text after it stays.
            (
                ("/t/:title/", ["c", "c"], "C#", None, None),
                true,
                "/t/c.html",
                "/t/c.html",
            ),
            (
                ("/t/:title/", ["a#b", "a#b"], "a#b", None, None),
                false,
                "/t/a#b/",
                "/t/a#b/",
            ),
            (
                (
                    "/t/:slug/",
                    ["rock-roll", "rock--roll"],
                    "Rock & Roll",
                    None,
                    None,
                ),
                false,
                "/t/rock-roll/",
                "/t/rock-roll/",
            ),
            (
                (
                    "/t/:title/",
                    ["go", "go"],
                    "go",
                    Some("Golang"),
                    Some("Go Slug"),
                ),
                false,
                "/t/golang/",
                "/t/golang/",
            ),
            (
                (
                    "/t/:slug/",
                    ["go", "go"],
                    "go",
                    Some("Golang"),
                    Some("Go Slug"),
                ),
                false,
                "/t/go-slug/",
                "/t/go-slug/",
            ),
            (
                (
                    "/t/:sections/",
                    ["rock-roll", "rock--roll"],
                    "Rock & Roll",
                    None,
                    None,
                ),
                false,
                "/t/tags/",
                "/t/tags/rock--roll/",
            ),
            (
                ("/t/:sections[1:]/", ["x", "x"], "x", None, None),
                false,
                "/t/",
                "/t/x/",
            ),
            (
                (
                    "/t/:filename/",
                    ["rust", "rust"],
                    "Rust",
                    Some("Rust Lang"),
                    None,
                ),
                false,
                "/t/_index/",
                "/t/",
            ),
            (
                ("/t/:slugorfilename/", ["x", "x"], "x", None, None),
                false,
                "/t/",
                "/t/",
            ),
            (
                ("/s/:title", ["x", "x"], "x", None, None),
                true,
                "/s/x.html",
                "/s/x.html",
            ),
            // No file, no file name: the pattern comes to `/`, written as `/.html`.
            (
                ("/:filename/", ["x", "x"], "x", None, None),
                true,
                "/.html",
                "/.html",
            ),
        ];
        for ((pattern, keys, written, title, slug), ugly, want_old, want_new) in cases {
            for (r, key, want) in [(&old, keys[0], want_old), (&new, keys[1], want_new)] {
                let site = Paths {
                    config: &config,
                    rules: r,
                    tz: &tz,
                };
                let tokens = TermTokens {
                    tax: "tags",
                    tax_slug: "Tags",
                    key,
                    written,
                    title,
                    slug,
                    has_file: title.is_some(),
                    date: None,
                    site,
                };
                let got = expand_term_permalink(pattern, &tokens, ugly);
                assert_eq!(
                    got.as_ref().map(|g| g.as_deref()),
                    Ok(Some(want)),
                    "{} {pattern} {written}",
                    r.version
                );
            }
        }
        // `:contentbasename` (0.144+): the term as written, urlized.
        let site = Paths {
            config: &config,
            rules: &new,
            tz: &tz,
        };
        let tokens = TermTokens {
            tax: "tags",
            tax_slug: "Tags",
            key: "foo-bar",
            written: "Foo Bar",
            title: None,
            slug: None,
            has_file: false,
            date: None,
            site,
        };
        let got = expand_term_permalink("/tags/:contentbasename/", &tokens, false);
        assert_eq!(
            got.as_ref().map(|g| g.as_deref()),
            Ok(Some("/tags/foo-bar/"))
        );
    }

    #[test]
    fn implicit_section_titles_are_plural_as_hugo_makes_them() {
        use crate::hugo::version::HugoVersion;
        let config = SiteConfig::default();
        let tz = SiteTz::default();
        let rules = HugoRules::of(HugoVersion::parse("0.168.0").unwrap());
        let site = Paths {
            config: &config,
            rules: &rules,
            tz: &tz,
        };
        // Seen in Hugo 0.168.0's titles of sections without `_index.md`.
        for (folder, title) in [
            ("posts", "Posts"),
            ("news", "News"),
            ("Blog Posts", "Blog Posts"),
            ("R&D", "R&Ds"),
            ("über", "Übers"),
            ("日本", "日本s"),
            ("Deep Dive", "Deep Dives"),
            ("x_y", "X_ies"),
            ("category", "Categories"),
            ("box", "Boxes"),
            ("church", "Churches"),
            ("person", "People"),
            ("v1.2", "V1.2s"),
            ("war and peace", "War and Peaces"),
        ] {
            assert_eq!(implicit_section_title(folder, site), title, "{folder}");
        }
    }

    #[test]
    fn list_keys_match_their_path_and_below() {
        assert!(list_key_matches("posts", "posts"));
        assert!(list_key_matches("posts", "posts/sub"));
        assert!(!list_key_matches("posts", "postscript"));
        assert!(list_key_matches("", "docs"));
        assert!(!list_key_matches("", "docs/sub"));
        assert_eq!(content_path_segment("Blog Posts"), "blog-posts");
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
                assert_eq!(sanitize_with(s, &site, false), slow, "{s:?}");
            }
        }
    }

    #[test]
    fn go_lower_maps_one_char_to_one() {
        assert_eq!(go_lower("İstanbul ÇA"), "istanbul ça");
    }
}
