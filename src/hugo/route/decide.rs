//! The main pass: each content file's fate (a resource, a taxonomy file, left out by the
//! publishing rules, or a route), decided on every core and assembled in page order.

use super::cascade::{
    BranchDates, Effective, Target, TargetFile, cascaded_out, effective, hidden_by, published_alone,
};
use super::permalinks::{
    PageFolders, implicit_section_title, page_path, sanitize, section_slug_segment,
};
use super::placement::{Bundles, Memo, Placed, SectionNames};
use super::term_pages::term_key;
use super::{Built, Site};
use crate::hugo::content_policy::media_type;
use crate::route::{Excluded, NewRoute, Page, Reason, Route};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};
use rayon::prelude::*;

/// Files decided on every core at once before their routes are made in order: a decision
/// holds its path apart (about 150 bytes in all), and the chunks in flight (at most three:
/// one decided, one waiting, one assembled) are part of the Hugo run's peak, which comes at
/// the end of this pass; 1,024 keep both cores busy.
const CHUNK: usize = 1 << 10;

/// What the main pass decides for one content file.
enum Decision {
    /// No URL, for this reason.
    Skip(Reason),
    /// No URL: a content file inside a leaf bundle, one of its resources, whose terms
    /// still make term pages (Hugo 0.123+).
    Resource,
    /// The `_index.md` of a taxonomy or term page: (language, taxonomy, term key), the
    /// reason it is withheld (a draft: Hugo then renders no such page at all), and its
    /// dates as cascades leave them.
    TaxonomyFile(String, String, String, Option<Reason>, BranchDates),
    /// A URL, with the reason it is built but not listed, if it is not, for a section (or
    /// home) its (language, folder), whether Hugo renders it (its own values and the
    /// cascades' say `render: never`, or headless where that applies), and its `.Date`
    /// where cascades (or its file name) give it another than its front matter's `date`.
    Route(
        NewRoute,
        Option<Reason>,
        Option<(String, String)>,
        bool,
        Option<W3cDate>,
    ),
}

/// Decides every file and assembles the results in page order: the routes of content files,
/// the files left out, and where sections and taxonomy files are.
pub(super) fn decide_all(site: &Site, bundles: &Bundles) -> Result<Built> {
    let n = site.pages.len();
    let decider = Decider { site, bundles };
    let mut built = Built::new(n);
    let keeps_structure = !site.rules().withheld_list_takes_terms;
    // Nearly every file is a route: reserved up front, the vector is never doubled.
    built.out.routes.reserve_exact(n);
    // Each file's fate is decided on every core (files of one folder come together, so each
    // task looks its folder up once), a chunk of files at a time, on a thread of its own;
    // this one assembles the results in order meanwhile: a decision holds its path apart,
    // twice a route's size, so only a chunk or two are ever waiting.
    let decide = |start: usize| -> Vec<Result<Decision>> {
        (start..n.min(start + CHUNK))
            .into_par_iter()
            .with_min_len(256)
            .map_init(Memo::default, |memo, i| decider.decide(memo, i))
            .collect()
    };
    let mut assemble_from = |start: usize, decisions: Vec<Result<Decision>>| -> Result<()> {
        for (i, decision) in (start..).zip(decisions) {
            assemble(&mut built, i, decision?, keeps_structure);
        }
        Ok(())
    };
    std::thread::scope(|s| {
        let (send, decided) = std::sync::mpsc::sync_channel(1);
        let deciding = std::thread::Builder::new().spawn_scoped(s, move || {
            for start in (0..n).step_by(CHUNK) {
                // Assembling stopped at an error: nothing more is wanted.
                if send.send((start, decide(start))).is_err() {
                    break;
                }
            }
        });
        if deciding.is_err() {
            // No thread to spare (a process limit): one chunk after the other, here.
            for start in (0..n).step_by(CHUNK) {
                assemble_from(start, decide(start))?;
            }
        }
        for (start, decisions) in decided {
            assemble_from(start, decisions)?;
        }
        Ok(())
    })?;
    Ok(built)
}

/// Records file `i`'s decision; `keeps_structure`: Hugo 0.123+ keeps the taxonomy lists it
/// does not build or list in its tree.
fn assemble(built: &mut Built, i: usize, decision: Decision, keeps_structure: bool) {
    let out = &mut built.out;
    match decision {
        Decision::Skip(reason) => out.excluded.push(Excluded { page: i, reason }),
        Decision::Resource => {
            out.excluded.push(Excluded {
                page: i,
                reason: Reason::NotAPage,
            });
            built.resources.insert(i);
        }
        Decision::TaxonomyFile(lang, tax, term, None, dates) => {
            built.tax_files.insert((lang, tax, term), i);
            if dates != BranchDates::default() {
                built.tax_dates.insert(i, dates);
            }
        }
        Decision::TaxonomyFile(lang, tax, term, Some(reason), dates) => {
            out.excluded.push(Excluded { page: i, reason });
            // Hugo keeps a term or taxonomy list its build options leave out (0.111.3 and
            // 0.168.0), and from 0.123 a taxonomy list it does not build for its dates or as
            // a draft too, for the structure: their dates still count. A withheld term it
            // drops.
            let dated_out = matches!(reason, Reason::Draft | Reason::Future | Reason::Expired);
            let kept = match term.is_empty() {
                true => keeps_structure || !dated_out,
                false => !dated_out,
            };
            let key = (lang, tax, term);
            if kept {
                built.tax_files.insert(key.clone(), i);
                if dates != BranchDates::default() {
                    built.tax_dates.insert(i, dates);
                }
                built.tax_unlisted.insert(key);
            } else {
                built.tax_withheld.insert(key, (i, reason));
            }
        }
        Decision::Route(r, unlisted, section, rendered, date) => {
            if let Some(d) = date {
                built.dates.insert(out.routes.len(), d);
            }
            if !rendered {
                built.unrendered.insert(i);
            }
            if let Some(reason) = unlisted {
                out.excluded.push(Excluded { page: i, reason });
            }
            if let Some(key) = section {
                built.section_route.insert(key, out.routes.len());
            }
            // Route indices share the page index's bound (see `Route`).
            built.page_route[i] = out.push(r) as u32;
        }
    }
}

/// A section, home, taxonomy list or term with dates of its own (its own or cascaded onto
/// it, a taxonomy's `_index` cascading onto itself too) is dated by them alone, as Hugo
/// dates a branch from the pages below it only when it has none (0.123 counts its expiry
/// date too).
fn branch_dates(site: &Site, page: Page, eff: &Effective) -> BranchDates {
    let fm = page.fm;
    let own_lastmod = fm.updated.is_some() && settings_hugo_lastmod(site)
        || fm.more().lastmod_more.iter().any(Option::is_some);
    BranchDates::of(site, eff, own_lastmod)
}

/// Whether lastmod follows the site's own `[frontmatter] lastmod` keys.
fn settings_hugo_lastmod(site: &Site) -> bool {
    site.ctx.settings.hugo_lastmod
}

/// What deciding a file consults: the site and its bundles.
struct Decider<'s, 'a> {
    site: &'s Site<'a>,
    bundles: &'s Bundles<'a>,
}

impl<'a> Decider<'_, 'a> {
    /// File `i`'s fate; `memo` holds what this task last looked up about a folder.
    fn decide(&self, memo: &mut Memo<'a>, i: usize) -> Result<Decision> {
        let (site, pages) = (self.site, self.site.pages);
        // The page is found once: finding a file's folder is a search.
        let page = pages.get(i);
        let pl = &site.place(page);
        if site.off(pl) || site.is_static(page) {
            return Ok(Decision::Skip(Reason::NotAPage));
        }
        // Another file is this page (`_index.en.md` beside `_index.html`; from 0.123 `a.md`
        // beside `a.html`, the later name): Hugo reads only that one, and never checks this
        // one's content type. A page beside a leaf bundle of its name it reads from 0.123,
        // and checks.
        let shadowed = self.bundles.shadows(pl) || self.bundles.superseded(i, pl);
        let beside_leaf = shadowed && self.bundles.read_beside_leaf(i, pl);
        if shadowed && !beside_leaf {
            return Ok(Decision::Skip(Reason::NotAPage));
        }
        // Hugo 0.162+ refuses a content file whose type its `security.allowContent` does not
        // allow, before it looks at drafts or build options, a bundle's resources too.
        let denied = &site.config.content_denied;
        if !denied.is_empty()
            && let Some(t) = media_type(page.file.name, page.fm.more().markup.as_deref())
            && denied.contains(&t)
        {
            return Err(Error::input(
                page.file.path(),
                Some(1),
                format!(
                    "Hugo {} does not build \"{t}\" content: its `security.allowContent` (by default every type but text/html, and from 0.166 text/org) refuses it; allow it in the site's config (`[security] allowContent = ['.*']`), or rename the file",
                    site.rules().version
                ),
            ));
        }
        let (own_dir_is_leaf, under_leaf) = memo.leaf(self.bundles, page.file.root_lang(), pl.dirs);
        if under_leaf || (own_dir_is_leaf && !pl.is_leaf) {
            let makes_terms = site.rules().resource_terms_made && published_alone(site, page);
            return Ok(match makes_terms {
                true => Decision::Resource,
                false => Decision::Skip(Reason::NotAPage),
            });
        }
        // `disableKinds = ["page"]`: Hugo makes no regular page at all (no terms, no dates,
        // no section from its folder).
        if pl.kind() == crate::route::Kind::Page && site.kind_off("page") {
            return Ok(Decision::Skip(Reason::NotRendered));
        }
        let tax = self.taxonomy_file(pl);
        let chain = memo.chain(self.bundles, pl);
        // The folders of the page's own section, what `:sections` names: the nearest folder
        // with an `_index`. A top-level folder is a section without one, and so is a term's
        // folder in a taxonomy's.
        let in_taxonomy = pl.dirs.first().is_some_and(|t| site.tax_names.contains(t));
        let nearest = chain.first().map_or(0, |&b| site.at(b).dirs.len());
        let sections = nearest.max(pl.dirs.len().min(if in_taxonomy { 2 } else { 1 }));
        let section_indexed = !chain.is_empty() && nearest == sections;
        let settings = site.ctx.settings;
        // A taxonomy's or term's `_index` is of that kind to a cascade's `_target`.
        let kind = match &tax {
            Some((_, _, term)) if term.is_empty() => "taxonomy",
            Some(_) => "term",
            None => super::page_kind_name(pl.kind()).unwrap_or("page"),
        };
        let mut eff = effective(
            page,
            pl,
            kind,
            pages,
            chain,
            &settings.site.hugo_dates,
            site.rules(),
            settings.hugo_lastmod,
        )?;
        let name_date = self.name_date(page, pl);
        if let Some(d) = name_date {
            eff.date_from_file_name(d);
        }
        let withheld = eff.withheld(&site.ctx);
        // The bundle is the page; a withheld file beside it takes the bundle out with it
        // (`settle_shared_nodes`).
        if beside_leaf {
            return Ok(Decision::Skip(withheld.unwrap_or(Reason::NotAPage)));
        }
        if let Some((lang, tax, term)) = tax {
            // A taxonomy's or term's own build options leave its page out, as a section's do
            // (Hugo 0.111.3 and 0.168.0 alike), and so does `headless` from 0.124.
            let unlisted = eff
                .not_rendered(site.rules())
                .then_some(Reason::NotRendered);
            // Before 0.123 a term folder not written as the term's key is a node of its own:
            // left out, it leaves the term page as it is.
            let own_node = !site.rules().term_folder_any_form
                && (pl.dirs.get(1)).is_some_and(|f| f.to_lowercase() != term.to_lowercase());
            if let (true, Some(reason)) = (own_node, withheld.or(unlisted)) {
                return Ok(Decision::Skip(reason));
            }
            return Ok(Decision::TaxonomyFile(
                lang,
                tax,
                term,
                withheld.or(unlisted),
                branch_dates(site, page, &eff),
            ));
        }
        // Before Hugo 0.123 a withheld section hid everything below it. From 0.123 Hugo keeps
        // a home or section it does not build for the structure, with its build options off
        // (`render` and `list` never): the pages below are still its pages, and its dates
        // count in the sections above it. A withheld regular page is no page at all.
        let hides_children = site.rules().section_hides_children;
        let kept_for_structure = match withheld {
            Some(reason) if pl.is_branch && !hides_children => {
                eff.disable_build();
                Some(reason)
            }
            Some(reason) => return Ok(Decision::Skip(reason)),
            None => None,
        };
        let hidden_by = match hides_children {
            true => match hidden_by(chain, i, site)? {
                Some(reason) => Some(reason),
                None => self.implicit_section_withheld(pl)?,
            },
            false => kept_for_structure,
        };
        if let Some(reason) = hidden_by.filter(|_| !pl.is_branch) {
            return Ok(Decision::Skip(reason));
        }
        let dirs = memo.slugged(|chain| self.slugged_dirs(pl, chain));
        let section_names = match site.section_slug_tokens {
            true => memo.section_names(|chain| self.section_names(pl, chain)),
            false => Vec::new(),
        };
        let folders = PageFolders {
            slugged: dirs,
            section_names,
            sections,
            section_indexed,
        };
        let mut decision = self.route(i, page, pl, &eff, hidden_by, folders)?;
        if let Decision::Route(r, ..) = &mut decision {
            r.set_file_date(name_date);
        }
        Ok(decision)
    }

    /// Why Hugo before 0.123 builds nothing below the top-level folder without `_index`
    /// holding this file, if it does not: the home's cascade makes that section a draft (or
    /// future, or expired), which hides its pages as a withheld `_index` would (seen in
    /// 0.111.3).
    fn implicit_section_withheld(&self, pl: &Placed) -> Result<Option<Reason>> {
        let site = self.site;
        let Some(top) = pl.dirs.first() else {
            return Ok(None);
        };
        // A top-level bundle is no page inside a section made without a file.
        let own_top = pl.dirs.len() == 1 && (pl.is_branch || pl.is_leaf);
        let key = (pl.lang.to_string(), top.to_string());
        if own_top || site.tax_names.contains(top) || self.bundles.branch_dirs.contains_key(&key) {
            return Ok(None);
        }
        let target = Target {
            lang: pl.lang,
            kind: "section",
            file: TargetFile::Logical(top),
        };
        let reason = cascaded_out(site, self.bundles, &target, &[""])?;
        Ok(reason.filter(|r| matches!(r, Reason::Draft | Reason::Future | Reason::Expired)))
    }

    /// From Hugo 0.167 a section's `slug` names its folder in its own URL and in those of
    /// the pages below it: the file's folders, sanitized, with those renamed (`None` when
    /// none is).
    fn slugged_dirs(&self, pl: &Placed, chain: &[usize]) -> Option<Vec<String>> {
        let site = self.site;
        if !site.rules().section_slug_renames_path {
            return None;
        }
        let paths = site.paths();
        let mut segs: Option<Vec<String>> = None;
        for &b in chain {
            let Some(slug) = site.pages.meta(b).slug() else {
                continue;
            };
            let slug = section_slug_segment(slug, paths);
            let depth = site.at(b).dirs.len();
            // A slug holding a `/` names no one folder: Hugo's own result is unusable (its
            // pages vanish from its sitemap); the folder keeps its name (warned on reading).
            if depth == 0 || slug.trim_matches('-').is_empty() || slug.contains('/') {
                continue;
            }
            let segs =
                segs.get_or_insert_with(|| pl.dirs.iter().map(|d| sanitize(d, paths)).collect());
            segs[depth - 1] = slug;
        }
        segs
    }

    /// Each folder of `pl`'s, from the top, as Hugo's `:sectionslugs` names it (0.149+):
    /// its `_index`'s `slug`, else its title ("" for none); a top-level folder without one,
    /// the title Hugo makes it (`über` is `Übers`); a folder below without one is no section.
    /// `chain` is the branch bundles at and above the folder.
    fn section_names(&self, pl: &Placed, chain: &[usize]) -> SectionNames {
        let site = self.site;
        (1..=pl.dirs.len())
            .map(|depth| {
                let branch = chain.iter().find(|&&b| site.at(b).dirs.len() == depth);
                match branch {
                    Some(&b) => {
                        let meta = site.pages.meta(b);
                        let slug = meta.slug().filter(|s| !s.is_empty());
                        Some(slug.map_or_else(
                            || meta.more().title.clone().unwrap_or_default(),
                            str::to_string,
                        ))
                    }
                    None if depth == 1 => {
                        (pl.dirs.first()).map(|d| implicit_section_title(d, site.paths()))
                    }
                    None => None,
                }
            })
            .collect()
    }

    /// A regular page's date from its file name (`[frontmatter] date = [":filename", …]`),
    /// where Hugo 0.123 and later let it stand in for `date` in the other date orders.
    fn name_date(&self, page: Page, pl: &Placed) -> Option<W3cDate> {
        let site = self.site;
        if pl.is_branch || !site.rules().filename_date_feeds_dates {
            return None;
        }
        let name = if pl.is_leaf { pl.dirs.last()? } else { pl.stem };
        let (date, _) = site.paths().name_date(&page, name)?;
        Some(date)
    }

    /// `content/tags/_index.md` and `content/tags/go/_index.md` describe taxonomy pages.
    fn taxonomy_file(&self, pl: &Placed) -> Option<(String, String, String)> {
        let tax = (pl.is_branch && pl.dirs.len() <= 2)
            .then(|| pl.dirs.first())
            .flatten()
            .filter(|t| self.site.tax_names.contains(t))?;
        let term = pl
            .dirs
            .get(1)
            .map(|t| term_key(t, self.site.paths()))
            .unwrap_or_default();
        Some((pl.lang.to_string(), tax.to_string(), term))
    }

    /// The route of a file that is built, listed unless `hidden_by` or its values say not.
    fn route(
        &self,
        i: usize,
        page: Page,
        pl: &Placed,
        eff: &Effective,
        hidden_by: Option<Reason>,
        folders: PageFolders,
    ) -> Result<Decision> {
        let site = self.site;
        let kind = pl.kind();
        // A nested folder without `_index.md` is no section: its `_index` would not exist.
        let prefix = site.prefix(pl.lang);
        let path = page_path(&page, pl, kind, site.paths(), &prefix, folders, eff.date)?;
        // Only translations share keys: a site with one language needs none.
        let shared = site.config.translation_keys_share_paths;
        let key = match &page.fm.more().translation_key {
            _ if !site.multilingual => String::new(),
            // Hugo before 0.123: `<kind>/<key>`, in the space of the keys made from paths.
            Some(k) if shared => format!("{}/{k}", super::page_kind_name(kind).unwrap_or("")),
            Some(k) => format!("key:{k}"),
            None if shared => pl.kind_path_key(),
            None => pl.translation_path(),
        };
        let mut r = Route::for_page(i, &page, kind, path, pl.lang, key);
        let language = || site.config.language(pl.lang);
        r.priority = match eff.priority_off {
            true => None,
            false => eff.priority.or_else(|| language().and_then(|l| l.priority)),
        };
        r.changefreq = eff
            .changefreq
            .or_else(|| language().and_then(|l| l.changefreq));
        let mut unlisted = eff.unlisted(pl.is_leaf, hidden_by, site.rules());
        // A cascade's `outputs` without html: no page a visitor can open.
        if unlisted.is_none()
            && page.fm.more().html_output.is_none()
            && eff.html_output == Some(false)
        {
            unlisted = Some(Reason::NoHtmlOutput);
        }
        if pl.is_branch {
            branch_dates(site, page, eff).apply(&mut r);
        } else if let Some(groups) = eff.lastmod_groups.clone() {
            r.set_hugo_lastmod(groups);
        }
        r.listed = unlisted.is_none();
        let section = pl
            .is_branch
            .then(|| (pl.lang.to_string(), pl.dirs.joined().to_string()));
        let rendered = eff.rendered(pl.is_leaf, site.rules());
        let date = eff.date.filter(|&d| Some(d) != page.fm.date);
        Ok(Decision::Route(r, unlisted, section, rendered, date))
    }
}
