//! JSON output: one typed struct per object printed, so the schema reads here.
//!
//! Fields are declared in alphabetical order because that is the order the output has always
//! had (serde_json's maps sort their keys); a test below holds every struct to it.

use serde::Serialize;
use sitemapgen::Outcome;
use sitemapgen::check::CheckDiff;
use sitemapgen::settings::Settings;
use sitemapgen::sitemap::urlset::WriteReport;
use sitemapgen::sitemap::validate::{FileReport, SitemapKind};
use sitemapgen::summary::{
    self, audited_by_reason, left_out_total, sitemap_paths, skipped_by_reason,
};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

/// `build --format json`: what was written.
#[derive(Serialize)]
struct BuildSummary<'a> {
    /// URLs the audit of the built output left out, by reason (`None` when it did not run).
    audit: Option<BTreeMap<&'static str, usize>>,
    /// Pages the audit kept listed because the output looked older than their sources.
    audit_kept: usize,
    /// URLs the audit left out.
    audit_total: usize,
    /// What the site's files decided that changes the sitemap (the host, git dates off).
    decisions: &'a [String],
    /// Set when the site's own config turns the generator's sitemap off (ours is written all the same).
    disabled: Option<&'a str>,
    /// Files left out, by reason (bundle resources included).
    excluded: BTreeMap<&'static str, usize>,
    /// Pages left out (bundle resources not counted).
    excluded_total: usize,
    /// Every file written.
    files: Vec<String>,
    /// How git dated the pages (when it was read for dates).
    git: Option<GitDating<'a>>,
    /// Content files read.
    pages_read: usize,
    /// Parts of an earlier, larger sitemap deleted.
    removed: Vec<String>,
    /// Whether robots.txt was written.
    robots_txt_updated: bool,
    /// How long the run took.
    seconds: f64,
    /// The first of `sitemaps`.
    sitemap: Option<&'a String>,
    /// The sitemap (or index) files, one a host.
    sitemaps: &'a [String],
    /// URLs written.
    urls: usize,
    /// `warnings` and the pages left out that the user may not expect, with file and line,
    /// capped by kind as the text is.
    warning_details: Vec<WarningAt>,
    /// The run's warnings.
    warnings: &'a [String],
}

/// A warning with the file (and line) it points at, for annotations.
#[derive(Serialize)]
struct WarningAt {
    file: Option<String>,
    line: Option<usize>,
    message: String,
}

/// `check --format json`: how the disk differs from what build would write.
#[derive(Serialize)]
struct CheckReport<'a> {
    /// URLs build would add.
    added: &'a [String],
    /// URLs the audit of the built output left out, by reason (`None` when it did not run).
    audit: Option<BTreeMap<&'static str, usize>>,
    /// Pages the audit kept listed because the output looked older than their sources.
    audit_kept: usize,
    /// URLs the audit left out.
    audit_total: usize,
    /// URLs whose lastmod would change.
    changed: Vec<Changed<'a>>,
    /// Whether the disk already holds what build would write.
    clean: bool,
    /// What the site's files decided that changes the sitemap (the host, git dates off).
    decisions: &'a [String],
    /// Files whose bytes differ.
    differing: &'a [String],
    /// Pages left out (bundle resources not counted).
    excluded_total: usize,
    /// Files of ours build would remove.
    extra: &'a [String],
    /// Sitemap files in the output folder sitemapgen did not write (the generator's own, a
    /// leftover): paths below the output folder.
    foreign: &'a [String],
    /// How git dated the pages (when it was read for dates).
    git: Option<GitDating<'a>>,
    /// Files build would write that are not on disk.
    missing: &'a [String],
    /// Content pages missing from the sitemap: the built output has no file for them.
    not_built: &'a [String],
    /// Files of ours another tool wrote over since (the generator's own sitemap).
    overwritten: &'a [String],
    /// URLs build would remove.
    removed: &'a [String],
    /// robots.txt lacks or misnames the sitemap.
    robots_txt_stale: bool,
    /// The first of `sitemaps`.
    sitemap: Option<&'a String>,
    /// The sitemap (or index) files, one a host.
    sitemaps: &'a [String],
    /// URLs build would write.
    urls: usize,
    /// `warnings`, with file and line, capped by kind as the text is.
    warning_details: Vec<WarningAt>,
    /// The run's warnings.
    warnings: &'a [String],
}

/// How git dated the pages.
#[derive(Serialize)]
struct GitDating<'a> {
    /// The clone's history still ends at a shallow boundary.
    cut: bool,
    /// Commits the shallow history held before its boundary (when the walk reached it).
    depth: Option<usize>,
    /// The shallowest clone depth that dates every page as this run did (whole history).
    depth_needed: Option<u32>,
    /// Pages dated by a commit.
    exact: usize,
    /// The fetch of a shallow clone's history, when one ran.
    fetch: Option<FetchDone<'a>>,
    /// The clone was shallow.
    shallow: bool,
    /// Pages whose last change lies past the history at hand (dated by the next source).
    unreached: usize,
    /// Old versions fetched from a partial clone's remote.
    versions_fetched: usize,
}

/// The fetch of a shallow clone's history.
#[derive(Serialize)]
struct FetchDone<'a> {
    /// Why it failed (`null`: the history is whole now).
    error: Option<&'a str>,
    /// The remote asked.
    remote: Option<&'a str>,
    /// How long it took.
    seconds: f64,
}

impl<'a> GitDating<'a> {
    fn of(outcome: &'a Outcome) -> Option<GitDating<'a>> {
        let g = outcome.git.as_ref()?;
        Some(GitDating {
            cut: g.cut,
            depth: g.depth,
            depth_needed: g.depth_needed,
            exact: g.exact,
            fetch: g.fetch.as_ref().map(|f| FetchDone {
                error: f.failed.as_deref(),
                remote: f.remote.as_deref(),
                seconds: f.seconds,
            }),
            shallow: g.shallow,
            unreached: g.unreached,
            versions_fetched: g.versions_fetched.as_ref().map_or(0, |v| v.versions),
        })
    }
}

/// A URL whose lastmod would change (empty when it has none).
#[derive(Serialize)]
struct Changed<'a> {
    loc: &'a str,
    /// `null` when the URL would have no `<lastmod>`.
    new: Option<&'a str>,
    /// `null` when the sitemap on disk gives it none.
    old: Option<&'a str>,
}

/// `list --excluded` as JSON lines: a file left out.
#[derive(Serialize)]
struct Excluded<'a> {
    /// The content file; `null` for a generated page (a term, a pager).
    file: Option<String>,
    reason: &'static str,
    /// The host rule or robots.txt line that left it out: `file:line (rule)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    /// Where the built page points (canonical, redirect), when the audit left it out.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    /// The URL, wherever it is known (a draft has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
}

/// `list --unsourced` as JSON lines: a built page no content file accounts for.
#[derive(Serialize)]
struct Unsourced {
    file: String,
    lastmod: Option<String>,
    loc: String,
}

/// `list` as JSON lines: a URL with its fields and where they came from.
#[derive(Serialize)]
struct Listed<'a> {
    alternates: Vec<Alternate<'a>>,
    changefreq: Option<&'static str>,
    /// The content file behind it.
    file: Option<String>,
    images: &'a [String],
    lastmod: Option<String>,
    /// For a git date, the commit that gave it (short hash, or `uncommitted`).
    lastmod_commit: Option<&'a str>,
    /// Where its lastmod came from.
    lastmod_source: Option<&'static str>,
    loc: String,
    priority: Option<f64>,
}

/// A language alternate of a listed URL.
#[derive(Serialize)]
struct Alternate<'a> {
    href: &'a str,
    hreflang: &'a str,
}

/// `validate --format json`: every file's counts and findings.
#[derive(Serialize)]
struct Validation<'a> {
    /// Errors in all files.
    errors: usize,
    files: Vec<ValidatedFile<'a>>,
    /// Why each file that could not be read could not.
    unreadable: &'a [String],
    /// Warnings in all files.
    warnings: usize,
}

/// One file `validate` read.
#[derive(Serialize)]
struct ValidatedFile<'a> {
    /// Uncompressed bytes read.
    bytes: u64,
    /// `<url>` or `<sitemap>` entries seen.
    entries: usize,
    errors: usize,
    findings: Vec<Finding<'a>>,
    /// `urlset` or `sitemapindex`, when the root was recognised.
    kind: Option<&'static str>,
    /// Findings counted but not kept.
    omitted: usize,
    path: String,
    warnings: usize,
}

/// One thing `validate` found.
#[derive(Serialize)]
struct Finding<'a> {
    /// 1-based; 0 for the whole file.
    line: usize,
    message: &'a str,
    /// The Search Console category.
    name: &'static str,
    /// `error` or `warning`.
    severity: String,
}

/// Prints one object on a line of `out`.
fn print_line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    // These structs have string keys and plain values, so this cannot fail; if it somehow
    // did, it is an error rather than half a line.
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

/// Warnings with their file and line, capped by kind.
fn details(warnings: &[summary::Warning]) -> Vec<WarningAt> {
    summary::capped(warnings)
        .into_iter()
        .map(|w| WarningAt {
            file: w.file.as_ref().map(|f| f.display().to_string()),
            line: w.line,
            message: w.message,
        })
        .collect()
}

/// The sitemap files, as shown.
fn sitemaps(settings: &Settings, outcome: &Outcome) -> Vec<String> {
    sitemap_paths(settings, outcome)
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

/// The audit's counts by reason (`None` when it did not run), and their total.
fn audit_counts(outcome: &Outcome) -> (Option<BTreeMap<&'static str, usize>>, usize) {
    let counts = audited_by_reason(outcome);
    let total = counts.values().sum();
    let named = counts.into_iter().map(|(r, n)| (r.as_str(), n)).collect();
    (outcome.audited.then_some(named), total)
}

/// Paths as shown.
fn shown(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths.iter().map(|f| f.display().to_string()).collect()
}

/// Prints the summary of a build.
pub fn build(
    out: &mut dyn Write,
    settings: &Settings,
    outcome: &Outcome,
    written: Option<&WriteReport>,
    took: Duration,
) -> io::Result<()> {
    let sitemaps = sitemaps(settings, outcome);
    let (audit, audit_total) = audit_counts(outcome);
    print_line(
        out,
        &BuildSummary {
            audit,
            audit_kept: outcome.audit_kept,
            audit_total,
            decisions: &outcome.decisions,
            disabled: outcome.disabled.as_deref(),
            excluded: skipped_by_reason(outcome)
                .into_iter()
                .map(|(r, n)| (r.as_str(), n))
                .collect(),
            excluded_total: left_out_total(outcome),
            files: written.map(|w| shown(&w.files)).unwrap_or_default(),
            git: GitDating::of(outcome),
            pages_read: outcome.pages_read,
            removed: written.map(|w| shown(&w.removed)).unwrap_or_default(),
            robots_txt_updated: written.is_some_and(|w| w.robots_updated),
            seconds: took.as_secs_f64(),
            sitemap: sitemaps.first(),
            sitemaps: &sitemaps,
            urls: outcome.entries.len(),
            warning_details: details(&summary::warnings(outcome)),
            warnings: &outcome.warnings,
        },
    )
}

/// Prints `check`'s report.
pub fn check(
    out: &mut dyn Write,
    settings: &Settings,
    outcome: &Outcome,
    diff: &CheckDiff,
) -> io::Result<()> {
    let sitemaps = sitemaps(settings, outcome);
    let own: Vec<summary::Warning> = outcome
        .warnings
        .iter()
        .map(|w| summary::Warning::parse(w))
        .chain(
            outcome
                .skipped
                .iter()
                .filter(|s| s.audited)
                .map(summary::Warning::left_out),
        )
        .collect();
    let (audit, audit_total) = audit_counts(outcome);
    print_line(
        out,
        &CheckReport {
            added: &diff.added,
            audit,
            audit_kept: outcome.audit_kept,
            audit_total,
            changed: diff
                .changed
                .iter()
                .map(|c| Changed {
                    loc: &c.loc,
                    new: c.new.as_deref(),
                    old: c.old.as_deref(),
                })
                .collect(),
            clean: diff.is_clean(),
            decisions: &outcome.decisions,
            differing: &diff.differing,
            excluded_total: left_out_total(outcome),
            extra: &diff.extra,
            foreign: &diff.foreign,
            git: GitDating::of(outcome),
            missing: &diff.missing,
            not_built: &diff.not_built,
            overwritten: &diff.overwritten,
            removed: &diff.removed,
            robots_txt_stale: diff.robots_stale,
            sitemap: sitemaps.first(),
            sitemaps: &sitemaps,
            urls: outcome.entries.len(),
            warning_details: details(&own),
            warnings: &outcome.warnings,
        },
    )
}

/// Prints what `build` would write, an object a line (or, with `excluded`, what it leaves
/// out, and why).
pub fn list(out: &mut dyn Write, outcome: &Outcome, excluded: bool) -> io::Result<()> {
    if excluded {
        for s in &outcome.skipped {
            print_line(
                out,
                &Excluded {
                    file: s.file.as_ref().map(|f| f.display().to_string()),
                    reason: s.reason.as_str(),
                    rule: s.rule.as_deref(),
                    target: s.target.as_ref().map(ToString::to_string),
                    url: s.url.as_deref(),
                },
            )?;
        }
        return Ok(());
    }
    for ((loc, e), l) in outcome.entries.iter().zip(&outcome.listed) {
        print_line(
            out,
            &Listed {
                alternates: e
                    .alternates()
                    .iter()
                    .map(|a| Alternate {
                        href: &a.href,
                        hreflang: &a.hreflang,
                    })
                    .collect(),
                changefreq: e.changefreq.map(|c| c.as_str()),
                file: l.source.as_ref().map(|p| p.display().to_string()),
                images: e.images(),
                lastmod: e.lastmod.map(|d| d.to_string()),
                lastmod_commit: l.commit.as_deref(),
                lastmod_source: l.lastmod.map(|l| l.origin.as_str()),
                loc: loc.to_string(),
                priority: e.priority.map(|p| p.as_f64()),
            },
        )?;
    }
    Ok(())
}

/// Prints the built pages no content file accounts for, an object a line.
pub fn unsourced(out: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
    for u in &outcome.unsourced {
        print_line(
            out,
            &Unsourced {
                file: u.file.display().to_string(),
                lastmod: u.lastmod.map(|d| d.to_string()),
                loc: u.loc.clone(),
            },
        )?;
    }
    Ok(())
}

/// Prints validate's findings for every file, and the files it could not read.
pub fn validation(
    out: &mut dyn Write,
    reports: &[FileReport],
    unreadable: &[String],
) -> io::Result<()> {
    let files = reports
        .iter()
        .map(|r| ValidatedFile {
            bytes: r.bytes,
            entries: r.entries,
            errors: r.errors,
            findings: r
                .findings
                .iter()
                .map(|f| Finding {
                    line: f.line,
                    message: &f.message,
                    name: f.kind.name(),
                    severity: f.severity.to_string(),
                })
                .collect(),
            kind: r.kind.map(|k| match k {
                SitemapKind::UrlSet => "urlset",
                SitemapKind::SitemapIndex => "sitemapindex",
            }),
            omitted: r.omitted,
            path: r.path.display().to_string(),
            warnings: r.warnings,
        })
        .collect();
    print_line(
        out,
        &Validation {
            errors: reports.iter().map(|r| r.errors).sum(),
            files,
            unreadable,
            warnings: reports.iter().map(|r| r.warnings).sum(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serialises `value` and checks its keys come out sorted, as serde_json's maps (which
    /// made this output before these structs) sort them.
    fn assert_sorted(value: &impl Serialize) {
        let direct = serde_json::to_string(value).unwrap();
        let through_map: serde_json::Value = serde_json::from_str(&direct).unwrap();
        assert_eq!(direct, through_map.to_string());
    }

    #[test]
    fn every_object_keeps_its_keys_in_order() {
        let words = vec!["a".to_string()];
        let sitemap = "s".to_string();
        assert_sorted(&BuildSummary {
            audit: Some([("noindex", 1), ("not-built", 2)].into_iter().collect()),
            audit_kept: 1,
            audit_total: 3,
            decisions: &words,
            disabled: Some("off"),
            excluded: [("draft", 1), ("future", 2)].into_iter().collect(),
            excluded_total: 3,
            files: words.clone(),
            git: Some(GitDating {
                cut: true,
                depth: Some(9),
                depth_needed: None,
                exact: 3,
                fetch: Some(FetchDone {
                    error: Some("e"),
                    remote: Some("origin"),
                    seconds: 1.5,
                }),
                shallow: true,
                unreached: 2,
                versions_fetched: 0,
            }),
            pages_read: 4,
            removed: words.clone(),
            robots_txt_updated: true,
            seconds: 0.5,
            sitemap: Some(&sitemap),
            sitemaps: &words,
            urls: 5,
            warning_details: vec![WarningAt {
                file: Some("f".into()),
                line: Some(3),
                message: "m".into(),
            }],
            warnings: &words,
        });
        let changed = || {
            vec![Changed {
                loc: "l",
                new: Some("n"),
                old: Some("o"),
            }]
        };
        assert_sorted(&CheckReport {
            added: &words,
            audit: None,
            audit_kept: 0,
            audit_total: 0,
            changed: changed(),
            clean: false,
            decisions: &words,
            differing: &words,
            excluded_total: 1,
            extra: &words,
            foreign: &words,
            git: None,
            missing: &words,
            not_built: &words,
            overwritten: &words,
            removed: &words,
            robots_txt_stale: true,
            sitemap: None,
            sitemaps: &words,
            urls: 2,
            warning_details: Vec::new(),
            warnings: &words,
        });
        assert_sorted(&Excluded {
            file: Some("f".into()),
            reason: "canonical",
            rule: Some("r"),
            target: Some("t".into()),
            url: Some("u"),
        });
        assert_sorted(&Unsourced {
            file: "f".into(),
            lastmod: None,
            loc: "l".into(),
        });
        assert_sorted(&Listed {
            alternates: vec![Alternate {
                href: "h",
                hreflang: "fr",
            }],
            changefreq: Some("daily"),
            file: Some("f".into()),
            images: &words,
            lastmod: Some("2024-01-01".into()),
            lastmod_commit: Some("0123456789"),
            lastmod_source: Some("git"),
            loc: "l".into(),
            priority: Some(0.5),
        });
        assert_sorted(&Validation {
            errors: 1,
            files: vec![ValidatedFile {
                bytes: 1,
                entries: 2,
                errors: 1,
                findings: vec![Finding {
                    line: 3,
                    message: "m",
                    name: "n",
                    severity: "error".into(),
                }],
                kind: Some("urlset"),
                omitted: 0,
                path: "p".into(),
                warnings: 0,
            }],
            unreadable: &words,
            warnings: 0,
        });
    }
}
