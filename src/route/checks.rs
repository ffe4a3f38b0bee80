//! The checks every router's routes go through once all are made, whatever the generator:
//! `trailing_slash` applied, paths that leave the site and URLs too long refused, and a URL
//! claimed twice listed once, with a warning naming both files.

use super::*;

/// The checks every router's routes go through: applies `trailing_slash`, refuses paths that
/// leave the site, and lists a URL claimed twice once, with a warning naming the files.
pub fn finish(mut routing: Routing, files: &Files, ctx: &RouteContext) -> Result<Routing> {
    // `trailing_slash` in sitemap.toml overrides how the generator ends its URLs; applied
    // before the checks so that `/a` and `/a/` made one by it are caught as one URL.
    if let Some(setting) = ctx.settings.trailing_slash {
        routing.rewrite_paths(|p| trailing_slash(p, setting));
    }
    // Then the host's own forms: what it redirects away from is never a URL to submit.
    if ctx.served.changes_urls() {
        let forms = ctx.served;
        routing.rewrite_paths(|p| forms.served(p, crate::platform::FileKind::of_path(p)));
    }
    if let Some(k) = routing.paths.overflow {
        return Err(Error::input(
            source_of(&routing, k, files),
            None,
            "its URL path is longer than 64 KiB (the sitemap protocol allows 2,047 characters): shorten its slug or path",
        ));
    }
    // Paths are checked as written (a `..` may climb above the root), then resolved as
    // every browser and server resolves a `.` or `..` segment, then compared.
    let errors = check_paths(&routing, files);
    if let Some(e) = Error::from_many(errors.into_iter().map(|(_, e)| e).collect()) {
        return Err(e);
    }
    routing.rewrite_paths(normalized);
    let errors = check_lengths(&routing, files, ctx);
    if let Some(e) = Error::from_many(errors.into_iter().map(|(_, e)| e).collect()) {
        return Err(e);
    }
    let mut warnings = dedupe(&mut routing, files, ctx);
    warnings.sort_by_key(|(i, _)| *i);
    // The router's own warnings first, then the duplicate URLs.
    let mut all = std::mem::take(&mut routing.warnings);
    all.extend(warnings.into_iter().map(|(_, w)| w));
    routing.warnings = all;
    // The routes live until the entries are built: give back what growing them left unused.
    routing.routes.shrink_to_fit();
    Ok(routing)
}

/// Routes that leave the site, by route index.
fn check_paths(routing: &Routing, files: &Files) -> Vec<(usize, Error)> {
    let mut errors = Vec::new();
    for (i, r) in routing.routes.iter().enumerate() {
        if let Err(msg) = crate::vocab::loc::check_path(routing.paths.get(r)) {
            errors.push((i, Error::input(source_of(routing, i, files), None, msg)));
        }
    }
    errors
}

/// Listed routes whose `<loc>` would pass the protocol's length limit, by route index; checked
/// here, not when the locs are made, so that a generated page (a term) names the page whose
/// front matter made it.
fn check_lengths(routing: &Routing, files: &Files, ctx: &RouteContext) -> Vec<(usize, Error)> {
    use crate::vocab::protocol::MAX_LOC_CHARS;
    let settings = ctx.settings;
    let base_of = |lang: &str| -> &str {
        let own = settings
            .site
            .language(lang)
            .and_then(|l| l.base_url.as_deref());
        own.unwrap_or(settings.base_url.as_str())
    };
    let mut errors = Vec::new();
    for (i, r) in routing.routes.iter().enumerate() {
        let path = routing.paths.get(r);
        let base = base_of(r.lang());
        // Encoding at most triples a byte: most paths are cleared without encoding them.
        if !r.listed || base.len() + 1 + 3 * path.len() <= MAX_LOC_CHARS {
            continue;
        }
        let len = crate::vocab::loc::absolute_len(base, path);
        if len > MAX_LOC_CHARS {
            let msg = format!(
                "its URL is {len} characters long; the protocol allows {MAX_LOC_CHARS}: shorten its slug or path"
            );
            errors.push((i, Error::input(source_of(routing, i, files), None, msg)));
        }
    }
    errors
}

/// The content file to name for route `k`: its page's, or for a generated page (a term of a
/// taxonomy, a pager) the first page found below it, whose front matter made it.
fn source_of(routing: &Routing, k: usize, files: &Files) -> std::path::PathBuf {
    let mut stack = vec![k];
    // Bounded by the routes: roll-ups form no cycle, but a bad one must not loop.
    for _ in 0..routing.routes.len() {
        let Some(r) = stack.pop().map(|k| &routing.routes[k]) else {
            break;
        };
        if let Some(p) = r.page() {
            return files.get(p).path();
        }
        let below: Vec<usize> = r.rollup().collect();
        stack.extend(below.into_iter().rev());
    }
    std::path::PathBuf::new()
}

/// Two routes that claim one URL (two files, or a file and a generated page): listed once,
/// with a warning naming both files, as both generators build such a site (Hugo writes one
/// file and lists the URL twice, Zola writes the last page). The route kept is the last one
/// made from a file (Zola's last page; the later file in Hugo's case too), else the first.
///
/// URLs are compared on each language's base URL, so two languages' pages with one `path`
/// collide, and multihost languages do not. Paths are already resolved. The listed routes
/// are sorted by URL through 8-byte records: a hash set of a million paths would be the
/// largest allocation of the run. Returns the warnings by route index.
fn dedupe(routing: &mut Routing, files: &Files, ctx: &RouteContext) -> Vec<(usize, String)> {
    let order = by_url(routing, ctx);
    let mut warnings = Vec::new();
    let same = |a: &(u32, u32), b: &(u32, u32)| {
        a.0 == b.0 && routing.path(a.1 as usize) == routing.path(b.1 as usize)
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for run in order
        .chunk_by(|a, b| same(a, b))
        .filter(|run| run.len() > 1)
    {
        groups.push(run.iter().map(|&(_, i)| i as usize).collect());
    }
    for group in groups {
        let keep = group
            .iter()
            .rev()
            .find(|&&k| routing.routes[k].page().is_some())
            .copied()
            .unwrap_or(group[0]);
        for &k in group.iter().filter(|&&k| k != keep) {
            if let Some(w) = duplicate_warning(routing, files, k, keep) {
                warnings.push((k.min(keep), w));
            }
            let r = &mut routing.routes[k];
            r.listed = false;
            if let Some(page) = r.page() {
                routing.excluded.push(Excluded {
                    page,
                    reason: Reason::Duplicate,
                });
            }
        }
    }
    warnings
}

/// The listed routes with a URL the protocol takes, as (base URL index, route index), sorted
/// by base, path and route index.
fn by_url(routing: &Routing, ctx: &RouteContext) -> Vec<(u32, u32)> {
    let site = &ctx.settings.site;
    // Index 0 is the site's base URL; multihost languages have their own.
    let mut bases: Vec<&str> = vec![""];
    let mut base_of = |lang: &str| -> u32 {
        let base = site
            .language(lang)
            .and_then(|l| l.base_url.as_deref())
            .unwrap_or("");
        match bases.iter().position(|b| *b == base) {
            Some(k) => k as u32,
            None => {
                bases.push(base);
                (bases.len() - 1) as u32
            }
        }
    };
    let routes = &routing.routes;
    let mut order: Vec<(u32, u32)> = Vec::with_capacity(routes.len());
    let mut last_lang: Option<(&str, u32)> = None;
    for (i, r) in routes.iter().enumerate() {
        if !r.listed || crate::vocab::loc::check_path(routing.paths.get(r)).is_err() {
            continue;
        }
        let base = match last_lang {
            Some((lang, b)) if lang == r.lang() => b,
            _ => {
                let b = base_of(r.lang());
                last_lang = Some((r.lang(), b));
                b
            }
        };
        order.push((base, i as u32));
    }
    // The route index breaks ties: the order is the same on any number of cores.
    order.par_sort_unstable_by(|a, b| {
        (a.0, routing.path(a.1 as usize), a.1).cmp(&(b.0, routing.path(b.1 as usize), b.1))
    });
    order
}

/// What to say when route `dropped` gives way to route `kept` (nothing when neither has a
/// file).
fn duplicate_warning(
    routing: &Routing,
    files: &Files,
    dropped: usize,
    kept: usize,
) -> Option<String> {
    let path = routing.path(kept);
    let file = |k: usize| routing.routes[k].page().map(|p| files.get(p).path());
    Some(match (file(dropped), file(kept)) {
        (Some(a), Some(b)) => format!(
            "{}: publishes at {path} like {}: listed once, for {}; give one of them another slug or path",
            a.display(),
            b.display(),
            b.display()
        ),
        (None, Some(b)) | (Some(b), None) => format!(
            "{}: publishes at {path}, a URL the generator also uses for a page it makes: listed once",
            b.display()
        ),
        (None, None) => return None,
    })
}
