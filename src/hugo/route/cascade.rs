//! The values that decide whether a page is published and listed: its own front matter with
//! the `cascade` of the sections above it, and the draft, future and expired rules.

use super::page_kind_name;
use super::placement::{Bundles, Placed};
use crate::frontmatter::{BuildList, BuildOptions, BuildRender, Cascade, PageMeta};
use crate::hugo::dates::{HugoDates, PageDates};
use crate::hugo::glob::HugoGlob;
use crate::hugo::version::HugoRules;
use crate::route::{Page, Pages, Reason, Route, RouteContext, off_reason};
use crate::scan::SourceFile;
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};

/// The values that decide publishing, after `cascade` has been applied.
#[derive(Default, Clone)]
pub(super) struct Effective {
    draft: bool,
    headless: bool,
    sitemap_exclude: bool,
    /// `sitemap_exclude` comes from `noindex` alone (reported as `noindex`).
    noindex: bool,
    build: BuildOptions,
    /// `.Date`, `.PublishDate`, `.ExpiryDate` with cascades applied.
    pub(super) date: Option<W3cDate>,
    pub(super) publish_date: Option<W3cDate>,
    pub(super) expiry_date: Option<W3cDate>,
    /// The priority from front matter or cascade.
    pub(super) priority: Option<Priority>,
    /// The page's own negative priority: nothing cascades or defaults into it.
    pub(super) priority_off: bool,
    /// The changefreq from front matter or cascade.
    pub(super) changefreq: Option<ChangeFreq>,
    /// The lastmod key runs, when a cascade filled keys the page leaves out.
    pub(super) lastmod_groups: Option<Vec<Option<W3cDate>>>,
    /// A date from the file name (`[frontmatter] date = [":filename", …]`).
    name_date: Option<W3cDate>,
    /// Whether its outputs name `html` (own `outputs`, else a cascade's).
    pub(super) html_output: Option<bool>,
}

impl Effective {
    /// A date from the file name stands in where the page sets no `date` (Hugo 0.123 on):
    /// publishDate then defaults to it.
    pub(super) fn date_from_file_name(&mut self, date: W3cDate) {
        self.date = self.date.or(Some(date));
        self.name_date = Some(date);
    }

    /// Why Hugo builds no page with these values, if it builds none.
    pub(super) fn withheld(&self, ctx: &RouteContext) -> Option<Reason> {
        // The page's `.PublishDate` (its date order already falls back to `date`); a date
        // taken from the file name stands in for `date`.
        let publish = self.publish_date.or(self.name_date);
        withheld(ctx, self.draft, publish, self.expiry_date)
    }

    /// Turns its build options off as Hugo does for a home or section it does not build
    /// (from 0.123): `render` and `list` never.
    pub(super) fn disable_build(&mut self) {
        self.build.render = Some(BuildRender::Never);
        self.build.list = Some(BuildList::Never);
    }

    /// Its build options keep it out of the sitemap: not rendered (`render: never`, or
    /// `link`: a URL but no file) or not listed (`list: never` or `local`).
    pub(super) fn built_unlisted(&self) -> bool {
        let not_rendered = matches!(
            self.build.render,
            Some(BuildRender::Never | BuildRender::Link)
        );
        not_rendered || matches!(self.build.list, Some(BuildList::Never | BuildList::Local))
    }

    /// Why Hugo builds or renders no page it makes without a file, with these values.
    pub(super) fn left_out(&self, site: &super::Site) -> Option<Reason> {
        let not_rendered = self
            .not_rendered(site.rules())
            .then_some(Reason::NotRendered);
        self.withheld(&site.ctx).or(not_rendered)
    }

    /// A taxonomy or term page with these values is not rendered: its build options say so,
    /// or (from Hugo 0.124, which renders no headless page) `headless`.
    pub(super) fn not_rendered(&self, rules: &HugoRules) -> bool {
        self.built_unlisted() || (rules.headless_any_page && self.headless)
    }

    /// Whether Hugo renders a page with these values: not with `render: never`, nor
    /// headless where the release makes it so (a leaf bundle; from 0.124 any page).
    pub(super) fn rendered(&self, is_leaf: bool, rules: &HugoRules) -> bool {
        let headless = (is_leaf || rules.headless_any_page) && self.headless;
        self.build.render != Some(BuildRender::Never) && !headless
    }

    /// Why a built page is not listed, if it is not: hidden by a section above it (see
    /// [`hidden_by`]), not rendered or listed (`_build`, a headless leaf bundle), or left out
    /// of the sitemap.
    pub(super) fn unlisted(
        &self,
        is_leaf: bool,
        hidden_by: Option<Reason>,
        rules: &crate::hugo::version::HugoRules,
    ) -> Option<Reason> {
        // A headless bundle (from Hugo 0.124 any headless page) is not rendered, but Hugo
        // counts its dates and terms.
        let headless = (is_leaf || rules.headless_any_page) && self.headless;
        if let Some(reason) = hidden_by {
            Some(reason)
        } else if self.built_unlisted() || headless {
            // Hugo still counts these pages' dates in their sections.
            Some(Reason::NotRendered)
        } else if self.sitemap_exclude {
            Some(off_reason(self.noindex))
        } else {
            None
        }
    }
}

/// Hugo's publishing filters, in its order: a draft, a future or an expired page is not
/// built unless the run includes such pages.
/// Whether Hugo publishes and renders a file by its own front matter alone, no cascade
/// read: not a draft, future or expired, not `render: never`, not headless where the
/// release makes a page so (what a leaf bundle's content resource needs to make term pages).
pub(super) fn published_alone(site: &super::Site, page: Page) -> bool {
    let (fm, rules) = (page.fm, site.rules());
    let more = fm.more();
    let draft = fm.draft().unwrap_or(false);
    let unrendered =
        more.build.render == Some(BuildRender::Never) || (more.headless && rules.headless_any_page);
    !unrendered && withheld(&site.ctx, draft, fm.publish_date(), more.expiry_date).is_none()
}

fn withheld(
    ctx: &RouteContext,
    draft: bool,
    publish: Option<W3cDate>,
    expiry: Option<W3cDate>,
) -> Option<Reason> {
    let s = ctx.settings;
    if draft && !s.include_drafts {
        Some(Reason::Draft)
    } else if publish.is_some_and(|d| d.is_after(ctx.now)) && !s.include_future {
        Some(Reason::Future)
    } else if expiry.is_some_and(|d| !d.is_after(ctx.now)) && !s.include_expired {
        Some(Reason::Expired)
    } else {
        None
    }
}

/// Below a draft, future or expired section Hugo before 0.123 builds no page; the sections below it
/// are not rendered either, but their terms still count. The reason of the nearest such
/// section in `chain` (page `i`'s branch bundles, nearest first) other than page `i` itself.
pub(super) fn hidden_by(chain: &[usize], i: usize, site: &super::Site) -> Result<Option<Reason>> {
    for (j, &b) in chain.iter().enumerate() {
        if b == i {
            continue;
        }
        // The section's values with the cascades that reach it (its own among them).
        let page = site.pages.get(b);
        let pl = site.place(page);
        let settings = site.ctx.settings;
        let eff = effective(
            page,
            &pl,
            page_kind_name(pl.kind()).unwrap_or("page"),
            site.pages,
            &chain[j..],
            &settings.site.hugo_dates,
            site.rules(),
            settings.hugo_lastmod,
        )?;
        if let Some(reason) = eff.withheld(&site.ctx) {
            return Ok(Some(reason));
        }
    }
    Ok(None)
}

/// Applies the cascades of the branch bundles above a page (`chain`, nearest first) to its
/// own values. `kind` is the page's kind as a `_target` names it (a taxonomy's or term's
/// `_index` is `taxonomy` or `term`, not a section).
#[allow(clippy::too_many_arguments)]
pub(super) fn effective(
    page: Page,
    pl: &Placed,
    kind: &str,
    pages: &Pages,
    chain: &[usize],
    dates: &HugoDates,
    rules: &HugoRules,
    hugo_lastmod: bool,
) -> Result<Effective> {
    // From 0.123 a leaf bundle's or regular page's own cascade applies to the page itself
    // (seen in 0.168.0; 0.111.3 ignores it), ahead of its sections'.
    let own = match !pl.is_branch && rules.own_cascade_applies {
        true => Some(page),
        false => None,
    };
    // Nearest section first, so a closer cascade wins. A branch's own cascade applies to
    // itself too (Hugo 0.111 does so even when `_target` names only its descendants; we
    // follow `_target` there, as Hugo documents it).
    let sources = own.into_iter().chain(chain.iter().map(|&b| pages.get(b)));
    let target = Target {
        lang: pl.lang,
        kind,
        file: TargetFile::Content(page.file, *pl),
    };
    cascaded(page.fm, sources, &target, dates, rules, hugo_lastmod)
}

/// Why Hugo builds or renders no page where it makes one without a content file of its
/// own (a taxonomy list, a term, a top-level section without `_index`), if it does not: a
/// cascade of the branch bundles of `dirs` in its language (nearest first) whose `_target`
/// takes it in makes it a draft (or future, or expired), `headless` (from 0.124) or not
/// rendered or listed by its `build` options. Such cascades reach these pages in Hugo
/// 0.111.3 and 0.168.0 alike, each reading `headless` and `build` as it does for any page.
pub(super) fn cascaded_out(
    site: &super::Site,
    bundles: &Bundles,
    target: &Target,
    dirs: &[&str],
) -> Result<Option<Reason>> {
    let eff = generated_effective(site, bundles, target, dirs)?;
    Ok(eff.and_then(|e| e.left_out(site)))
}

/// The values the cascades of the branch bundles of `dirs` in its language (nearest first)
/// give a page Hugo makes without a content file (see [`cascaded_out`]), its dates as
/// Hugo's lastmod order reads them included; none where no branch bundle is there.
pub(super) fn generated_effective(
    site: &super::Site,
    bundles: &Bundles,
    target: &Target,
    dirs: &[&str],
) -> Result<Option<Effective>> {
    let chain: Vec<usize> = (dirs.iter())
        .filter_map(|dir| {
            let key = (target.lang.to_string(), dir.to_string());
            bundles.branch_dirs.get(&key).copied()
        })
        .collect();
    if chain.is_empty() {
        return Ok(None);
    }
    let none = PageMeta::default();
    let sources = chain.iter().map(|&b| site.pages.get(b));
    let settings = site.ctx.settings;
    let (dates, rules) = (&settings.site.hugo_dates, site.rules());
    // With no front matter of its own, its lastmod is what Hugo's order finds in the
    // cascaded keys.
    Ok(Some(cascaded(&none, sources, target, dates, rules, true)?))
}

/// The page's own values (`fm`) with those of the cascades of `sources` (nearest first)
/// whose `_target` takes in `target`.
fn cascaded<'p>(
    fm: &PageMeta,
    sources: impl Iterator<Item = Page<'p>>,
    target: &Target,
    dates: &HugoDates,
    rules: &HugoRules,
    hugo_lastmod: bool,
) -> Result<Effective> {
    let mut e = Effective {
        draft: fm.draft().unwrap_or(false),
        headless: fm.more().headless,
        sitemap_exclude: fm.sitemap_exclude(),
        noindex: fm.more().noindex,
        build: fm.more().build.clone(),
        date: fm.date,
        publish_date: fm.publish_date(),
        expiry_date: fm.more().expiry_date,
        priority: fm.priority,
        priority_off: fm.priority_off(),
        changefreq: fm.changefreq,
        lastmod_groups: None,
        name_date: None,
        html_output: fm.more().html_output,
    };
    let mut dated: Vec<&Cascade> = Vec::new();
    for (from, c) in sources.flat_map(|p| p.fm.more().cascade.iter().map(move |c| (p, c))) {
        if !cascade_targets(c, target, from.file, rules)? {
            continue;
        }
        if let Some((line, m)) = &c.refused {
            return Err(Error::input(from.file.path(), Some(*line), m.clone()));
        }
        apply_cascade(&mut e, fm, c);
        if !c.dates.is_empty() {
            dated.push(c);
        }
    }
    if !dated.is_empty() {
        cascade_dates(&mut e, fm, &dated, dates, rules, hugo_lastmod);
    }
    Ok(e)
}

/// The page's dates once cascades (`dated`, nearest first) fill the date keys it leaves
/// out, each order read again over the merged keys, as Hugo merges a cascade into the front
/// matter before it reads the dates.
fn cascade_dates(
    e: &mut Effective,
    fm: &PageMeta,
    dated: &[&Cascade],
    dates: &HugoDates,
    rules: &HugoRules,
    hugo_lastmod: bool,
) {
    let own_lastmod: Vec<Option<W3cDate>> = std::iter::once(fm.updated)
        .chain(fm.more().lastmod_more.iter().copied())
        .collect();
    let own = PageDates {
        date: e.date,
        lastmod: own_lastmod.clone(),
        publish: e.publish_date,
        expiry: e.expiry_date,
    };
    let cascaded = |k: u8| {
        dated
            .iter()
            .find_map(|c| c.dates.iter().find(|(id, _)| *id == k).map(|(_, d)| *d))
    };
    let merged = dates.merge(rules.date_reentry, &own, |k| fm.sets_date_key(k), cascaded);
    e.date = merged.date;
    e.publish_date = merged.publish;
    e.expiry_date = merged.expiry;
    if hugo_lastmod
        && merged.lastmod[..] != own_lastmod[..own_lastmod.len().min(merged.lastmod.len())]
    {
        e.lastmod_groups = Some(merged.lastmod);
    }
}

/// A branch page's dates as cascades leave them: the lastmod key runs a cascade filled, and
/// whether it has dates of its own.
#[derive(Default, PartialEq)]
pub(super) struct BranchDates {
    groups: Option<Vec<Option<W3cDate>>>,
    keeps_own: bool,
    /// Its `.Date` with the cascades applied: what a permalink's date tokens read.
    pub(super) date: Option<W3cDate>,
}

impl BranchDates {
    /// The dates of a branch with values `eff` (cascades applied), whose own front matter
    /// has a lastmod key (`own_lastmod`); a page Hugo makes without a file has none.
    pub(super) fn of(site: &super::Site, eff: &Effective, own_lastmod: bool) -> BranchDates {
        let lastmod = match &eff.lastmod_groups {
            Some(g) => g.iter().any(Option::is_some),
            None => own_lastmod,
        };
        let expiry = site.rules().date_reentry && eff.expiry_date.is_some();
        BranchDates {
            groups: eff.lastmod_groups.clone(),
            keeps_own: eff.date.is_some() || eff.publish_date.is_some() || lastmod || expiry,
            date: eff.date,
        }
    }

    /// The branch has dates of its own (which it keeps over those below it).
    pub(super) fn keeps_own(&self) -> bool {
        self.keeps_own
    }

    /// Dates the branch's route by them.
    pub(super) fn apply(&self, r: &mut Route) {
        if let Some(groups) = &self.groups {
            r.set_hugo_lastmod(groups.clone());
        }
        if self.keeps_own {
            r.set_keeps_own_dates();
        }
    }
}

/// What a cascade's `_target` is matched against: a page's language, kind and path.
pub(super) struct Target<'p> {
    pub(super) lang: &'p str,
    /// The kind as `_target.kind` names it: `home`, `section`, `page`, `taxonomy`, `term`.
    pub(super) kind: &'p str,
    /// The page, whose path `_target.path` matches.
    pub(super) file: TargetFile<'p>,
}

/// The page a `_target.path` glob is matched against.
#[derive(Clone, Copy)]
pub(super) enum TargetFile<'p> {
    /// A page from a content file, and where the file sits.
    Content(SourceFile<'p>, Placed<'p>),
    /// A page Hugo makes without a file, by its path below the content root (`tags/rust`,
    /// `blog`; the home's is empty).
    Logical(&'p str),
}

impl TargetFile<'_> {
    /// The text Hugo matches a `_target.path` glob against (the glob lower-cases it): from
    /// 0.123 the page's logical path (`/blog/post`); before, its file's path with extension
    /// (`/blog/post.md`); a page without a file, its path (`/tags/rust`).
    fn path(&self, rules: &HugoRules) -> String {
        match self {
            TargetFile::Content(_, placed) if rules.cascade_path_logical => placed.logical_path(),
            TargetFile::Content(file, _) => format!("/{}", file.rel()),
            TargetFile::Logical(path) => format!("/{}", path.trim_start_matches('/')),
        }
    }
}

/// The cascade's `_target` (language, kind, path glob) takes in this page; `from` is the
/// file declaring it, named when its glob is bad.
fn cascade_targets(c: &Cascade, t: &Target, from: SourceFile, rules: &HugoRules) -> Result<bool> {
    if let Some(lang) = &c.target_lang
        && !lang.eq_ignore_ascii_case(t.lang)
    {
        return Ok(false);
    }
    if let Some(kind) = &c.target_kind
        && !kind.eq_ignore_ascii_case(t.kind)
    {
        return Ok(false);
    }
    if let Some(glob) = &c.target_path {
        // Hugo's own glob (`*` stops at `/`, `**` does not), matched against the whole path
        // with its leading `/`, as Hugo matches it; the front matter reader has checked it.
        let g = HugoGlob::new(glob).map_err(|e| {
            let m = format!("bad cascade _target.path '{glob}': {e}");
            Error::input(from.path(), None, m)
        })?;
        if !g.is_match(&t.file.path(rules)) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Cascaded values fill only what the page itself leaves unset (its own front matter wins).
fn apply_cascade(e: &mut Effective, own: &PageMeta, c: &Cascade) {
    // A page's own `sitemap` table, whatever it sets, replaces a cascade's whole: no key of
    // the cascade's is merged into it (Hugo 0.111.3 and 0.168.0 alike).
    let own_sitemap = own.more().sitemap_table;
    if own.draft().is_none()
        && let Some(d) = c.draft.or(c.published.map(|p| !p))
    {
        e.draft = e.draft || d;
    }
    if let Some(h) = c.headless {
        e.headless = e.headless || (h && !own.more().headless);
    }
    if let Some(x) = c.sitemap_exclude
        && !own.sitemap_exclude()
        && (c.noindex || !own_sitemap)
    {
        if x && !e.sitemap_exclude {
            e.noindex = c.noindex;
        }
        e.sitemap_exclude = e.sitemap_exclude || x;
    }
    // Build options are one table: the page's own (an empty one too), else the first
    // cascade's that has one, nearest first, whole; a later cascade's `list` is not merged
    // into an earlier one's `render` (Hugo 0.111.3 and 0.168.0 alike).
    if !e.build.given && c.build.given {
        e.build = c.build.clone();
    }
    if !own_sitemap {
        e.priority = e.priority.or(c.priority);
        e.changefreq = e.changefreq.or(c.changefreq);
    }
    if own.more().html_output.is_none() {
        e.html_output = e.html_output.or(c.html_output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cascade_path_target_matches_the_path_hugo_matches() {
        use crate::hugo::version::HugoVersion;
        let root = crate::scan::ContentRoot {
            dir: "content".into(),
            lang: None,
            ..Default::default()
        };
        let mut files = crate::scan::Files::new();
        let rels = [
            "blog/2024/Post.md",
            "blog/_index.md",
            "docs/blog/x/index.md",
            "b.md",
        ];
        for rel in rels {
            files.push(&root, rel).unwrap();
        }
        let mut pages = Pages::new(&files);
        for _ in rels {
            pages.push(PageMeta::default(), "").unwrap();
        }
        let old = HugoRules::of(HugoVersion::parse("0.111.3").unwrap());
        let new = HugoRules::of(HugoVersion::parse("0.168.0").unwrap());
        // Each file, and the term page `tags/rust` Hugo makes without one.
        let targets = |glob: &str, rules: &HugoRules| -> Vec<bool> {
            let c = Cascade {
                target_path: Some(glob.into()),
                ..Default::default()
            };
            let files = pages.iter().map(|p| {
                let placed = super::super::placement::place(p.file, &["en"], "en");
                (TargetFile::Content(p.file, placed), p.file)
            });
            let term = (TargetFile::Logical("tags/rust"), pages.get(0).file);
            (files.chain([term]))
                .map(|(file, from)| {
                    let t = Target {
                        lang: "en",
                        kind: "page",
                        file,
                    };
                    cascade_targets(&c, &t, from, rules).unwrap()
                })
                .collect()
        };
        // Hugo 0.168 matches the logical path: `/blog/2024/post`, `/blog`, `/docs/blog/x`.
        assert_eq!(
            targets("/blog/**", &new),
            [true, false, false, false, false]
        );
        assert_eq!(targets("{/*,/**}", &new), [true; 5]);
        assert_eq!(targets("/*", &new), [false, true, false, true, false]);
        assert_eq!(
            targets("/docs/*/x", &new),
            [false, false, true, false, false]
        );
        assert_eq!(targets("/blog/2024/post.md", &new), [false; 5]);
        assert_eq!(targets("/tags/*", &new), [false, false, false, false, true]);
        // Hugo 0.111 matches the file's path, extension and all; the section's own file lies
        // below its folder.
        assert_eq!(targets("/blog/**", &old), [true, true, false, false, false]);
        assert_eq!(
            targets("/blog/2024/post.md", &old),
            [true, false, false, false, false]
        );
        assert_eq!(targets("/*.md", &old), [false, false, false, true, false]);
        assert_eq!(targets("/docs/*/x", &old), [false; 5]);
        assert_eq!(
            targets("/tags/rust", &old),
            [false, false, false, false, true]
        );
    }
}
