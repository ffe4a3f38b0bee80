//! The host stage: what the platform serving the site and the site's robots.txt do with the
//! listed URLs. Runs after the entries are built and before the audit; a URL a host rule
//! redirects is left out as `redirect` (naming the rule's file and line), one robots.txt
//! keeps crawlers from as `robots-disallowed`.
//!
//! The host's rule files are read where they are deployed from: `netlify.toml` and
//! `vercel.json` from the site or repository root; `_redirects` and robots.txt from the built
//! output when it can be trusted, else from `static/`, which the build copies. The built
//! output counts as for the audit (there is one, the audit is not off) and only when it is at
//! least as new as the site's config (a config changed since may change what the build
//! writes); a built copy older than its source in `static/` gives way to the source, which
//! the next build deploys (see [`detect::deployed`]). Rules and lines read from a source are
//! the site's own word and apply whatever the state of the output.

use super::Skipped;
use crate::audit;
use crate::entries::Built;
use crate::host::judge::{self, RobotsFile, Root};
use crate::host::robots::{MAX_ROBOTS_BYTES, Robots};
use crate::host::{HostRules, detect};
use crate::scan::Files;
use crate::settings::{AuditMode, Settings};
use crate::vocab::error::Result;
use crate::vocab::fsread;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The host of a run, its rules read, for the routes (its URL forms) and this stage.
pub(super) fn load(settings: &Settings) -> HostRules {
    let origin = settings.base_url.origin().ascii_serialization();
    let output = if output_trusted(settings) {
        settings.output_dir.clone()
    } else {
        settings.site_dir.join("static")
    };
    HostRules::load(settings.host, &settings.site_dir, &output, &origin)
}

/// Whether the built output's own files (`_redirects`, robots.txt) may be read: the audit is
/// not off, the output holds a built site, and the site's config did not change after it
/// was built (the build's time is its home page's, as for the audit's freshness).
fn output_trusted(settings: &Settings) -> bool {
    let home = settings.output_dir.join("index.html");
    if settings.audit == AuditMode::Off || !home.is_file() {
        return false;
    }
    let mtime = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match settings.site.config_file.as_deref() {
        Some(config) => mtime(config) <= mtime(&home),
        None => true,
    }
}

/// What the stage did: the URLs it left out, and what to tell the user.
pub(super) struct Judged {
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
    pub decisions: Vec<String>,
}

/// Judges the built entries and leaves out what the host redirects and robots.txt
/// disallows (an error each in strict mode).
pub(super) fn judge_entries(
    settings: &Settings,
    host: &HostRules,
    plan: Option<&audit::AuditPlan>,
    built: &mut Built,
    files: &Files,
) -> Result<Judged> {
    let roots: Vec<(url::Url, PathBuf, std::ops::Range<usize>)> = if built.hosts.is_empty() {
        vec![(
            settings.base_url.clone(),
            settings.output_dir.clone(),
            0..built.entries.len(),
        )]
    } else {
        built
            .hosts
            .iter()
            .map(|h| {
                (
                    h.base_url.clone(),
                    settings.output_dir.join(&h.lang),
                    h.entries.clone(),
                )
            })
            .collect()
    };
    let mut notes = Vec::new();
    let trusted = plan.is_some() && output_trusted(settings);
    let robots: Vec<Option<RobotsFile>> = roots
        .iter()
        .map(|(base, dir, _)| {
            robots_of(
                settings,
                trusted,
                base,
                dir,
                built.hosts.is_empty(),
                &mut notes,
            )
        })
        .collect();
    let wanted = !host.rules.is_empty() || robots.iter().any(|r| r.as_ref().is_some_and(blocks));
    if !wanted {
        return Ok(Judged {
            skipped: Vec::new(),
            warnings: Vec::new(),
            notes,
            decisions: Vec::new(),
        });
    }
    let judge_roots: Vec<Root<'_>> = roots
        .iter()
        .zip(&robots)
        .map(|((base, _, range), robots)| Root {
            base,
            entries: range.clone(),
            robots: robots.as_ref(),
        })
        .collect();
    // A file at the URL matters to a Netlify rule without `!`. The generator writes one for
    // every page it lists (whether it did is the audit's question, under its freshness
    // rules); only an `extra_urls` entry is looked for, in a built output.
    let file_exists = |k: usize| {
        if built.route(k).is_some() {
            return true;
        }
        let Some(plan) = plan.filter(|_| trusted) else {
            return true;
        };
        let loc = built.entries.loc(k).to_string();
        plan.roots
            .iter()
            .any(|r| r.entries.contains(&k) && audit::file_serves(&r.dir, r.base.as_str(), &loc))
    };
    let found = judge::judge(host, &judge_roots, &built.entries, &file_exists);
    let skipped: Vec<Skipped> = found
        .left_out
        .iter()
        .map(|l| Skipped {
            file: built.page(l.entry).map(|p| files.get(p).path()),
            reason: l.reason,
            audited: false,
            url: Some(built.entries.loc(l.entry).to_string()),
            target: l.target.clone(),
            rule: Some(l.rule.clone()),
        })
        .collect();
    if settings.audit == AuditMode::Strict
        && let Some(e) =
            crate::vocab::error::Error::from_many(skipped.iter().map(super::strict_error).collect())
    {
        return Err(e);
    }
    let gone: Vec<usize> = found.left_out.iter().map(|l| l.entry).collect();
    built.remove(&gone);
    notes.extend(found.notes);
    Ok(Judged {
        skipped,
        warnings: found.warnings,
        notes,
        decisions: found.decisions,
    })
}

/// Whether a robots.txt has any `disallow` for the crawlers a sitemap is for (a file that
/// allows everything costs nothing per URL).
fn blocks(file: &RobotsFile) -> bool {
    ["googlebot", "*"]
        .iter()
        .any(|a| file.robots.rules_for(a).iter().any(|r| !r.allow))
}

/// The robots.txt of one root, when one counts: crawlers read it only at a host's root, so
/// a site below a path (`https://e.org/docs/`) has none of its own.
fn robots_of(
    settings: &Settings,
    trusted: bool,
    base: &url::Url,
    dir: &Path,
    single: bool,
    notes: &mut Vec<String>,
) -> Option<RobotsFile> {
    // A multihost language's folder has no `static/` of its own.
    let source = settings.site_dir.join("static/robots.txt");
    let path = match (trusted, single) {
        (true, true) => detect::deployed(dir.join("robots.txt"), source)?,
        (true, false) => detect::deployed(dir.join("robots.txt"), PathBuf::new())?,
        (false, true) => detect::deployed(PathBuf::new(), source)?,
        (false, false) => return None,
    };
    let built = path.starts_with(dir) && trusted;
    if base.path() != "/" {
        notes.push(format!(
            "{}: not read; crawlers read robots.txt at the host's root only, and the site lies below {base}",
            path.display()
        ));
        return None;
    }
    let bytes = read_robots(&path, built.then_some(dir))
        .map_err(|e| notes.push(format!("{}: {e}; not read", path.display())))
        .ok()?;
    let robots = Robots::parse(&bytes);
    if robots.truncated {
        notes.push(format!(
            "{}: only its first {} KiB are read, as Google reads them",
            path.display(),
            MAX_ROBOTS_BYTES / 1024
        ));
    }
    notes.push(format!(
        "{}: read as RFC 9309 says, for Googlebot and other crawlers",
        path.display()
    ));
    Some(RobotsFile { path, robots })
}

/// The first [`MAX_ROBOTS_BYTES`] (and one more, to tell a longer file) of a robots.txt,
/// through [`fsread`]; inside the output folder when it is the built one.
fn read_robots(
    path: &Path,
    folder: Option<&Path>,
) -> std::result::Result<Vec<u8>, fsread::ReadError> {
    let file = match folder.map(fsread::Folder::new) {
        Some(Ok(f)) => fsread::open_in(path, &f)?,
        Some(Err(e)) => return Err(e.into()),
        None => fsread::open(path)?,
    };
    let mut bytes = Vec::new();
    file.take(MAX_ROBOTS_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}
