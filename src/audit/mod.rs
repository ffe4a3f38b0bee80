//! Audit: after a build, the output folder has the final word on what is listed. A URL
//! with no file that serves it is left out (`not-built`), and so is a built page whose head
//! says `noindex`, points its canonical link elsewhere or refreshes to another URL. Built
//! pages that no content file accounts for are found too (`unsourced`).
//!
//! Plain data in (the entries' locs, the output folder, base URLs), plain data out: which
//! entries to leave out and why, and the unsourced pages.

mod files;
pub mod fresh;
mod head;

use files::Lookup;

pub use head::{HeadFacts, MAX_HEAD_BYTES, read_head};

use crate::entries::{Entries, Host, Loc};
use crate::platform::{FileKind, Forms, Platform};
use crate::route::Reason;
use crate::settings::{AuditMode, LastmodSource, Settings};
use crate::vocab::date::W3cDate;
use crate::vocab::fsread::Folder;
use crate::vocab::loc;
use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;
use std::path::{Path, PathBuf};
use url::Url;

/// Where one sitemap's URLs are served from.
#[derive(Clone, Debug)]
pub struct Root {
    /// The folder (the output folder, or a multihost language's folder below it).
    pub dir: PathBuf,
    /// The base URL its files are served at.
    pub base: Url,
    /// Its entries, a range of the run's entries.
    pub entries: Range<usize>,
}

/// An audit to run: on when the output folder holds a built site and `audit` is not off.
#[derive(Clone, Debug)]
pub struct AuditPlan {
    /// One root, or one per host of a multihost site.
    pub roots: Vec<Root>,
    /// Look for built pages no content file accounts for (a walk of the whole output).
    pub unsourced: bool,
    /// The forms the host serves URLs in: a canonical link to a form it redirects from
    /// names the page itself (reported, not left out), and built pages nothing accounts for
    /// are listed in the form it serves.
    pub served: Forms,
    /// Keep the built HTML file of each URL ([`Findings::pages`]): the images stage reads
    /// what the pages show (`images = true`).
    pub pages: bool,
}

/// A URL the audit leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Its entry.
    pub entry: usize,
    /// `NotBuilt`, `Noindex`, `Canonical` or `Redirect`.
    pub reason: Reason,
    /// Where its canonical link or refresh points, resolved.
    pub target: Option<String>,
    /// The built file whose head gave the verdict (`None` for `NotBuilt`).
    pub file: Option<PathBuf>,
}

/// A built page that no content file accounts for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsourced {
    /// Its absolute, percent-encoded URL.
    pub loc: String,
    /// Its decoded URL path below the base, starting with `/` (what URL rules match).
    pub path: String,
    /// The built file.
    pub file: PathBuf,
    /// Its mtime, where the lastmod rules allow one.
    pub lastmod: Option<W3cDate>,
}

/// A URL whose built file is there but could not be read: it stays listed, unjudged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Its entry.
    pub entry: usize,
    /// The built file.
    pub file: PathBuf,
    /// Why it was not read.
    pub why: String,
}

/// What the audit found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// URLs to leave out, in entry order.
    pub left_out: Vec<LeftOut>,
    /// URLs whose built file could not be read, in entry order: kept, with a warning.
    pub unread: Vec<Unread>,
    /// Built pages no content file accounts for, sorted by URL (when asked for).
    pub unsourced: Vec<Unsourced>,
    /// Entries whose page names as canonical a form of its URL the host redirects from
    /// (`/a.html` where it serves `/a`), with that canonical URL: kept, and reported.
    pub disagreeing: Vec<(usize, String)>,
    /// Each entry's built HTML file, when it was read and the plan asks for them
    /// ([`AuditPlan::pages`]), in entry order.
    pub pages: Vec<(usize, PathBuf)>,
}

/// The audit for these settings, or `None` when it is off or there is no built site (no
/// `index.html` at the root of the output folder, or of any host's folder), with a note when
/// it is off for the reason below.
///
/// `audit = "auto"` (the default) leaves the audit off where the sitemap is committed to git
/// and the built pages are not (a pre-commit hook writing `public/sitemap.xml` beside an
/// untracked `public/`): that sitemap would depend on files no clone has, and `check` would
/// answer otherwise in a fresh clone. `audit = true` audits all the same.
pub fn plan(
    settings: &Settings,
    hosts: &[Host],
    entries: usize,
    unsourced: bool,
) -> (Option<AuditPlan>, Option<String>) {
    if settings.audit == AuditMode::Off {
        return (None, None);
    }
    let roots: Vec<Root> = if hosts.is_empty() {
        vec![Root {
            dir: settings.output_dir.clone(),
            base: settings.base_url.clone(),
            entries: 0..entries,
        }]
    } else {
        hosts
            .iter()
            .map(|h| Root {
                dir: settings.output_dir.join(&h.lang),
                base: h.base_url.clone(),
                entries: h.entries.clone(),
            })
            .collect()
    };
    let homes: Vec<PathBuf> = roots.iter().map(|r| r.dir.join("index.html")).collect();
    if !homes.iter().any(|h| h.is_file()) {
        return (None, None);
    }
    if settings.audit == AuditMode::Auto
        && let Some(note) = committed_without_pages(settings, &roots, &homes)
    {
        return (None, Some(note));
    }
    (
        Some(AuditPlan {
            roots,
            unsourced,
            served: Forms::of(Platform::Plain),
            pages: settings.images,
        }),
        None,
    )
}

/// The note that turns the audit off when the sitemap (or the record of ours) is committed to
/// git and no built home page is; `None` otherwise, or outside a git checkout.
fn committed_without_pages(
    settings: &Settings,
    roots: &[Root],
    homes: &[PathBuf],
) -> Option<String> {
    let git = fresh::Checkout::find(&settings.output_dir)?;
    let gz = format!("{}.gz", settings.file_name);
    let ours: Vec<PathBuf> = roots
        .iter()
        .flat_map(|r| [r.dir.join(&settings.file_name), r.dir.join(&gz)])
        .collect();
    let tracked = git.tracked(&[ours.as_slice(), homes].concat());
    let (sitemaps, pages) = tracked.split_at(ours.len());
    let committed = sitemaps.iter().position(|&t| t)?;
    if pages.iter().any(|&t| t) {
        return None;
    }
    Some(format!(
        "the audit of the built output is off: {} is committed to git but the built pages beside it are not, so a fresh clone could not audit them and `check` would answer otherwise there; audit = true audits all the same",
        ours[committed].display()
    ))
}

/// Runs the audit over `entries`. `vouched(k)` is true for an entry the user listed by hand
/// (`extra_urls`): a server may route it, so a missing file does not leave it out.
/// `unlisted` are the locs of pages that are built but not listed (`sitemap = false`, an
/// `exclude` rule): they account for their files.
pub fn run(
    plan: &AuditPlan,
    entries: &Entries,
    vouched: &(dyn Fn(usize) -> bool + Sync),
    unlisted: &[String],
    settings: &Settings,
) -> Findings {
    let mut findings = Findings::default();
    let mut served: HashSet<u64> = HashSet::new();
    for root in &plan.roots {
        let base = root.base.as_str();
        // A root that is not there (a language's folder not built) serves nothing.
        let folder = Folder::new(&root.dir).ok();
        type Checked = (
            Option<LeftOut>,
            Option<Unread>,
            Option<u64>,
            Option<(usize, String)>,
            Option<(usize, PathBuf)>,
        );
        let checked: Vec<Checked> = root
            .entries
            .clone()
            .into_par_iter()
            .map(|k| {
                let loc = entries.loc(k);
                let judged = audit_url(&root.dir, folder.as_ref(), base, loc, vouched(k));
                let (verdict, disagrees) =
                    served_verdict(judged.verdict, &loc.to_string(), &plan.served);
                let left = verdict.map(|(reason, target)| LeftOut {
                    entry: k,
                    reason,
                    target,
                    file: judged.file.clone(),
                });
                let page = judged
                    .file
                    .as_ref()
                    .filter(|f| {
                        plan.pages
                            && judged.unread.is_none()
                            && f.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(files::is_html)
                    })
                    .map(|f| (k, f.clone()));
                let unread = match (judged.unread, &judged.file) {
                    (Some(why), Some(file)) => Some(Unread {
                        entry: k,
                        file: file.clone(),
                        why,
                    }),
                    _ => None,
                };
                let file = judged.file.filter(|_| plan.unsourced);
                (
                    left,
                    unread,
                    file.and_then(|f| files::rel_of(&root.dir, &f))
                        .map(|r| key(&r)),
                    disagrees.map(|c| (k, c)),
                    page,
                )
            })
            .collect();
        for (left, unread, file, disagrees, page) in checked {
            findings.pages.extend(page);
            findings.left_out.extend(left);
            findings.unread.extend(unread);
            served.extend(file);
            findings.disagreeing.extend(disagrees);
        }
    }
    if plan.unsourced {
        for loc in unlisted {
            let Some((root, below)) = plan
                .roots
                .iter()
                .find_map(|r| Some((r, loc.strip_prefix(r.base.as_str())?)))
            else {
                continue;
            };
            let Ok(folder) = Folder::new(&root.dir) else {
                continue;
            };
            let file = match files::served(&root.dir, &folder, below) {
                Lookup::Served(s) => Some(s.path),
                Lookup::Unreadable { path, .. } => Some(path),
                Lookup::Missing => None,
            };
            served.extend(
                file.and_then(|f| files::rel_of(&root.dir, &f))
                    .map(|r| key(&r)),
            );
        }
        findings.unsourced = find_unsourced(plan, &served, settings);
    }
    findings
}

/// Whether a file below `dir` (served at `base`) serves `loc`: a file that is there but
/// cannot be read counts as there (the build wrote it).
pub fn file_serves(dir: &Path, base: &str, loc: &str) -> bool {
    let Ok(folder) = Folder::new(dir) else {
        return false;
    };
    loc.strip_prefix(base)
        .is_some_and(|below| !matches!(files::served(dir, &folder, below), Lookup::Missing))
}

/// A served file's key in the set of files the site's URLs account for.
fn key(rel: &str) -> u64 {
    let mut h = DefaultHasher::new();
    rel.hash(&mut h);
    h.finish()
}

/// What the audit makes of one URL.
#[derive(Debug, Default, PartialEq, Eq)]
struct Judged {
    /// Why it is left out, and where it points.
    verdict: Option<(Reason, Option<String>)>,
    /// The file that serves it.
    file: Option<PathBuf>,
    /// Why that file could not be read: the URL is not judged (the build wrote the file).
    unread: Option<String>,
}

/// One URL's verdict, from the file below `root` (`folder`, links resolved; `None` when
/// `root` is not there) that serves it.
fn audit_url(root: &Path, folder: Option<&Folder>, base: &str, loc: Loc, vouched: bool) -> Judged {
    // Not below this root's base: nothing to say.
    let Some(below) = base
        .strip_prefix(loc.origin())
        .and_then(|path| loc.rest().strip_prefix(path))
    else {
        return Judged::default();
    };
    let lookup = match folder {
        Some(folder) => files::served(root, folder, below),
        None => Lookup::Missing,
    };
    let served = match lookup {
        Lookup::Served(served) => served,
        Lookup::Missing => {
            return Judged {
                verdict: (!vouched).then_some((Reason::NotBuilt, None)),
                ..Judged::default()
            };
        }
        Lookup::Unreadable { path, why } => {
            return Judged {
                file: Some(path),
                unread: Some(why),
                ..Judged::default()
            };
        }
    };
    let (verdict, unread) = match served.html.map(read_head) {
        // Most heads say nothing, or name the page itself canonical: no URL to make.
        Some(Ok(facts)) if facts.is_quiet_for(loc) => (None, None),
        Some(Ok(facts)) => (verdict(&loc.to_string(), &facts), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    };
    Judged {
        verdict,
        file: Some(served.path),
        unread,
    }
}

/// A verdict with the host's URL forms in mind: a canonical link to a form of the URL that
/// the host redirects to the listed one (`/a.html` where it serves `/a`) names the page
/// itself. Such a page is kept, with its canonical URL given back to be reported.
fn served_verdict(
    verdict: Option<(Reason, Option<String>)>,
    loc: &str,
    forms: &Forms,
) -> (Option<(Reason, Option<String>)>, Option<String>) {
    match verdict {
        Some((Reason::Canonical, Some(target)))
            if forms.changes_urls() && served_url(&target, forms).as_deref() == Some(loc) =>
        {
            (None, Some(target))
        }
        v => (v, None),
    }
}

/// The URL the host answers with 200 for `url` (by the shape of its path).
fn served_url(url: &str, forms: &Forms) -> Option<String> {
    let mut u = Url::parse(url).ok()?;
    u.set_fragment(None);
    let path = u.path().to_string();
    let served = forms.served(&path, FileKind::of_path(&path));
    u.set_path(&served);
    Some(u.to_string())
}

/// Why a page whose head says `facts` is left out, and where it points; `None` to keep it.
pub fn verdict(loc: &str, facts: &HeadFacts) -> Option<(Reason, Option<String>)> {
    // Most pages name themselves canonical, verbatim: no URL to parse.
    let canonical = facts.canonical.as_deref().filter(|c| *c != loc);
    if !facts.noindex && facts.refresh.is_none() && canonical.is_none() {
        return None;
    }
    let page = Url::parse(loc).ok()?;
    // The document's base URL: the first `<base href>` resolved against the page (the page
    // itself when it has none, or that does not parse).
    let base = facts.base.as_deref().and_then(|b| page.join(b).ok());
    let base = base.as_ref().unwrap_or(&page);
    let elsewhere =
        |against: &Url, href: &str| against.join(href).ok().filter(|t| !same_url(&page, t));
    // A refresh resolves against the base in effect when it was read.
    let refresh_base = if facts.base_before_refresh {
        base
    } else {
        &page
    };
    if let Some(target) = facts
        .refresh
        .as_deref()
        .and_then(|r| elsewhere(refresh_base, r))
    {
        return Some((Reason::Redirect, Some(target.to_string())));
    }
    if facts.noindex {
        return Some((Reason::Noindex, None));
    }
    let target = canonical.and_then(|c| elsewhere(base, c))?;
    Some((Reason::Canonical, Some(target.to_string())))
}

/// Whether two URLs name one page: fragments aside, and `dir/index.html` as `dir/`.
fn same_url(a: &Url, b: &Url) -> bool {
    let plain = |u: &Url| {
        let mut u = u.clone();
        u.set_fragment(None);
        let s = u.to_string();
        match s.strip_suffix("index.html") {
            Some(dir) if dir.ends_with('/') => dir.to_string(),
            _ => s,
        }
    };
    plain(a) == plain(b)
}

/// Built pages below each root that no URL accounts for, leaving out 404 pages, pagers,
/// redirects, `noindex` pages and pages whose canonical URL is another.
fn find_unsourced(plan: &AuditPlan, served: &HashSet<u64>, settings: &Settings) -> Vec<Unsourced> {
    let dated =
        settings.lastmod.contains(&LastmodSource::Mtime) && !in_checkout(&settings.output_dir);
    let cap = crate::lastmod::source_date_epoch();
    let pagers = pager_names(settings);
    let mut out = Vec::new();
    for root in &plan.roots {
        let Ok(folder) = Folder::new(&root.dir) else {
            continue;
        };
        let candidates: Vec<(PathBuf, String)> = walkdir::WalkDir::new(&root.dir)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .filter_map(|e| {
                let rel = files::rel_of(&root.dir, e.path())?;
                let page = files::is_html(&rel)
                    && !served.contains(&key(&rel))
                    && e.file_name() != "404.html"
                    && !is_pager(&files::url_path(&rel), &pagers);
                page.then(|| (e.into_path(), rel))
            })
            .collect();
        let found: Vec<Option<Unsourced>> = candidates
            .into_par_iter()
            .map(|(file, rel)| {
                let path = format!("/{}", files::url_path(&rel));
                // Listed in the form the host serves it in (`about.html` at `/about`).
                let kind = if rel == "index.html" || rel.ends_with("/index.html") {
                    FileKind::FolderIndex
                } else {
                    FileKind::HtmlFile
                };
                let path = plan.served.served(&path, kind).into_owned();
                let loc = loc::absolute(&root.base, &path);
                let facts = read_head(crate::vocab::fsread::open_in(&file, &folder).ok()?).ok()?;
                let judged = served_verdict(verdict(&loc, &facts), &loc, &plan.served).0;
                if facts.noindex || facts.refresh.is_some() || judged.is_some() {
                    return None;
                }
                let lastmod = dated
                    .then(|| crate::lastmod::mtime(&file, cap))
                    .flatten()
                    .filter(|d| d.is_writable());
                Some(Unsourced {
                    loc,
                    path,
                    file,
                    lastmod,
                })
            })
            .collect();
        out.extend(found.into_iter().flatten());
    }
    out.sort_by(|a, b| a.loc.cmp(&b.loc));
    out
}

/// What a URL the audit leaves out is, in a sentence (`url` its loc, `target` where it
/// points).
pub fn explain(reason: Reason, url: &str, target: Option<&str>) -> String {
    let to = target.unwrap_or("another URL");
    match reason {
        Reason::NotBuilt => format!("no file in the output folder serves {url}"),
        Reason::Noindex => format!("{url}: its built page says noindex"),
        Reason::Canonical => format!("{url}: its built page names {to} as its canonical URL"),
        Reason::Redirect => format!("{url}: its built page redirects to {to}"),
        other => format!("{url}: {other}"),
    }
}

/// The folder names of pagers (`page` in `/blog/page/2/`).
fn pager_names(settings: &Settings) -> Vec<String> {
    // Zola's section pagers are routes already; Hugo's pager folder is `page`.
    let mut names = vec!["page".to_string()];
    names.extend(
        settings
            .site
            .taxonomies
            .iter()
            .map(|t| t.paginate_path.clone()),
    );
    names.retain(|n| !n.is_empty());
    names
}

/// Whether a decoded URL path (below the base) is a pager's: `…/page/N/`.
fn is_pager(path: &str, names: &[String]) -> bool {
    let mut segments = path.trim_end_matches('/').rsplit('/');
    let (Some(n), Some(name)) = (segments.next(), segments.next()) else {
        return false;
    };
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && names.iter().any(|p| p == name)
}

/// Whether `dir` lies inside a git checkout: there a built file's mtime is the build's.
fn in_checkout(dir: &Path) -> bool {
    let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    abs.ancestors().any(|a| a.join(".git").exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(noindex: bool, canonical: Option<&str>, refresh: Option<&str>) -> HeadFacts {
        HeadFacts {
            noindex,
            canonical: canonical.map(Into::into),
            refresh: refresh.map(Into::into),
            ..HeadFacts::default()
        }
    }

    #[test]
    fn verdicts() {
        let loc = "https://e.org/docs/a/";
        assert_eq!(verdict(loc, &facts(false, None, None)), None);
        assert_eq!(
            verdict(loc, &facts(false, Some("https://e.org/docs/a/"), None)),
            None
        );
        assert_eq!(
            verdict(loc, &facts(false, Some("/docs/a/#top"), None)),
            None
        );
        assert_eq!(verdict(loc, &facts(false, Some("index.html"), None)), None);
        assert_eq!(
            verdict(loc, &facts(false, Some("../b/"), None)),
            Some((Reason::Canonical, Some("https://e.org/docs/b/".into())))
        );
        assert_eq!(
            verdict(loc, &facts(false, Some("http://e.org/docs/a/"), None)),
            Some((Reason::Canonical, Some("http://e.org/docs/a/".into())))
        );
        assert_eq!(
            verdict(loc, &facts(true, None, None)),
            Some((Reason::Noindex, None))
        );
        assert_eq!(
            verdict(loc, &facts(true, Some("/x/"), Some("/new/"))),
            Some((Reason::Redirect, Some("https://e.org/new/".into())))
        );
        // A refresh of the page itself is no redirect.
        assert_eq!(verdict(loc, &facts(false, None, Some("./"))), None);
        assert_eq!(verdict(loc, &facts(false, None, Some(""))), None);
        // A base changes what relative URLs mean: a canonical link always, a refresh when
        // the base came first.
        let based = |canonical, refresh, before| HeadFacts {
            base: Some("/docs/".into()),
            base_before_refresh: before,
            ..facts(false, canonical, refresh)
        };
        assert_eq!(verdict(loc, &based(Some("a/"), None, false)), None);
        assert_eq!(
            verdict(loc, &based(Some("b/"), None, false)),
            Some((Reason::Canonical, Some("https://e.org/docs/b/".into())))
        );
        assert_eq!(verdict(loc, &based(None, Some("a/"), true)), None);
        assert_eq!(
            verdict(loc, &based(None, Some("a/"), false)),
            Some((Reason::Redirect, Some("https://e.org/docs/a/a/".into())))
        );
        // A base that does not parse is no base.
        let bad = HeadFacts {
            base: Some("http://[".into()),
            ..facts(false, Some("./"), None)
        };
        assert_eq!(verdict(loc, &bad), None);
    }

    #[test]
    fn a_canonical_link_to_a_form_the_host_redirects_names_the_page_itself() {
        let cf = Forms::of(Platform::CloudflarePages);
        let canonical = |t: &str| Some((Reason::Canonical, Some(t.to_string())));
        let loc = "https://e.org/posts/a";
        assert_eq!(
            served_verdict(canonical("https://e.org/posts/a.html"), loc, &cf),
            (None, Some("https://e.org/posts/a.html".to_string()))
        );
        // Another page's URL, in any form, is still a canonical elsewhere.
        assert_eq!(
            served_verdict(canonical("https://e.org/posts/b.html"), loc, &cf),
            (canonical("https://e.org/posts/b.html"), None)
        );
        // On a plain server `/posts/a.html` is its own URL.
        let plain = Forms::of(Platform::Plain);
        assert_eq!(
            served_verdict(canonical("https://e.org/posts/a.html"), loc, &plain).0,
            canonical("https://e.org/posts/a.html")
        );
        assert_eq!(
            served_verdict(Some((Reason::Noindex, None)), loc, &cf),
            (Some((Reason::Noindex, None)), None)
        );
    }

    #[test]
    fn urls_outside_the_base_are_not_judged() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("a")).unwrap();
        std::fs::write(d.path().join("a/index.html"), "<head></head>").unwrap();
        let mut entries = Entries::new();
        for loc in [
            "https://e.org/docs/a/",
            "https://e.org/docs/b/",
            "https://e.org/other/",
            "http://e.org/docs/a/",
        ] {
            entries.push(loc).unwrap();
        }
        let base = "https://e.org/docs/";
        let folder = Folder::new(d.path()).unwrap();
        let audit = |k, vouched| audit_url(d.path(), Some(&folder), base, entries.loc(k), vouched);
        let judged = |k| {
            let j = audit(k, false);
            assert_eq!(j.unread, None);
            (j.verdict, j.file)
        };
        assert_eq!(judged(0), (None, Some(d.path().join("a/index.html"))));
        assert_eq!(judged(1), (Some((Reason::NotBuilt, None)), None));
        // Another path or scheme is another root's, or no root's: nothing to say.
        assert_eq!(judged(2), (None, None));
        assert_eq!(judged(3), (None, None));
        // A URL the user vouches for is not left out for having no file.
        assert_eq!(audit(1, true), Judged::default());
    }

    #[test]
    fn pagers() {
        let names = vec!["page".to_string(), "seite".to_string()];
        assert!(is_pager("blog/page/2/", &names));
        assert!(is_pager("page/10/", &names));
        assert!(is_pager("tags/rust/seite/3/", &names));
        assert!(!is_pager("blog/page/", &names));
        assert!(!is_pager("blog/page/two/", &names));
        assert!(!is_pager("blog/pages/2/", &names));
    }
}
