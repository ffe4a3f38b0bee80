//! Text for people: the summary of a build, `check`'s differences, `list`'s rows, `init`'s
//! line, validate's errors when quiet, and errors. Labels are coloured on a terminal.

use super::args::Verbosity;
use super::out::{count, say, shown};
use anstyle::{AnsiColor, Style};
use sitemapgen::check::CheckDiff;
use sitemapgen::route::Reason;
use sitemapgen::settings::{Settings, Style as SiteStyle};
use sitemapgen::sitemap::urlset::{ROBOTS_NAME, WriteReport};
use sitemapgen::sitemap::validate::{FileReport, Severity};
use sitemapgen::summary::{self, Warning, sitemap_paths};
use sitemapgen::{Error, Outcome, Skipped};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Whether to colour stderr: only on a terminal, and never when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>).
pub fn use_color(no_color: Option<&OsStr>, stderr_is_terminal: bool) -> bool {
    stderr_is_terminal && no_color.is_none_or(OsStr::is_empty)
}

/// [`use_color`] for this process, decided once.
fn color() -> bool {
    static COLOR: OnceLock<bool> = OnceLock::new();
    *COLOR.get_or_init(|| {
        use_color(
            std::env::var_os("NO_COLOR").as_deref(),
            std::io::stderr().is_terminal(),
        )
    })
}

/// What a line on stderr starts with.
#[derive(Clone, Copy, Debug)]
pub enum Label {
    /// `error:`, bold red.
    Error,
    /// `warning:`, bold yellow.
    Warning,
    /// `note:`, bold cyan.
    Note,
}

impl Label {
    fn word(self) -> &'static str {
        match self {
            Label::Error => "error",
            Label::Warning => "warning",
            Label::Note => "note",
        }
    }

    fn style(self) -> Style {
        let colour = match self {
            Label::Error => AnsiColor::Red,
            Label::Warning => AnsiColor::Yellow,
            Label::Note => AnsiColor::Cyan,
        };
        Style::new().bold().fg_color(Some(colour.into()))
    }
}

/// Prints `label: message` to stderr, the label styled when [`use_color`] allows.
pub fn labelled(label: Label, message: impl Display) {
    let message = shown(&message.to_string()).into_owned();
    if color() {
        let style = label.style();
        let mut err = anstream::AutoStream::always(std::io::stderr().lock());
        // A failed write to stderr has nowhere left to be reported.
        let _ = writeln!(err, "{style}{}:{style:#} {message}", label.word());
    } else {
        // Without colour, stderr gets the bytes as they are (anstream would strip escapes).
        say(format_args!("{}: {message}", label.word()));
    }
}

/// Prints an error (every one of a batch) to stderr.
pub fn error(e: &Error) {
    match e {
        Error::Many(list) => {
            for e in list {
                error(e);
            }
            labelled(
                Label::Error,
                format_args!("{} problems; nothing was written", list.len()),
            );
        }
        e => labelled(Label::Error, e),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    sitemapgen::vocab::prose::thousands(n as u64)
}

/// The sitemap files for a message: `a`, `a and b`, `a, b and c`.
fn paths_text(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// `content/a.md: left out (draft)`, and for a URL the audit or the host left out, why.
fn skipped_line(s: &Skipped) -> String {
    let who = match &s.file {
        None => "a generated page".to_string(),
        Some(f) => f.display().to_string(),
    };
    match s.explain() {
        None => format!("{who}: left out ({})", s.reason),
        Some(why) => format!("{who}: left out ({}): {why}", s.reason),
    }
}

/// `; the audit left out 3 URLs (2 not built, 1 noindex)` (empty when it left none out).
fn audit_phrase(counts: &BTreeMap<Reason, usize>) -> String {
    left_out_by("the audit", counts)
}

/// `; the host's rules and robots.txt left out 3 URLs (2 redirecting, 1 disallowed)` (empty
/// when they left none out).
fn host_phrase(counts: &BTreeMap<Reason, usize>) -> String {
    left_out_by("the host's rules and robots.txt", counts)
}

/// `; WHO left out 3 URLs (2 not built, 1 redirecting)`, each reason in words (empty when
/// none were left out).
fn left_out_by(who: &str, counts: &BTreeMap<Reason, usize>) -> String {
    let total: usize = counts.values().sum();
    if total == 0 {
        return String::new();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(r, n)| match r {
            Reason::NotBuilt => format!("{} not built", thousands(*n)),
            Reason::Redirect => format!("{} redirecting", thousands(*n)),
            Reason::Canonical => format!("{} canonical elsewhere", thousands(*n)),
            Reason::RobotsDisallowed => format!("{} disallowed", thousands(*n)),
            r => format!("{} {r}", thousands(*n)),
        })
        .collect();
    format!(
        "; {who} left out {} URL{} ({})",
        thousands(total),
        if total == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// `; 12 drafts and 3 excluded pages left out` (empty when none were).
fn left_out_phrase(counts: &BTreeMap<Reason, usize>) -> String {
    let label = |r: Reason, n: usize| {
        let s = if n == 1 { "" } else { "s" };
        let n = thousands(n);
        match r {
            Reason::Draft => format!("{n} draft{s}"),
            Reason::Future => format!("{n} future page{s}"),
            Reason::Expired => format!("{n} expired page{s}"),
            Reason::SitemapOff => format!("{n} page{s} with sitemap = false"),
            Reason::NotRendered => format!("{n} unrendered page{s}"),
            Reason::Redirect => format!("{n} redirect{s}"),
            Reason::ExcludedByConfig => format!("{n} excluded page{s}"),
            Reason::NotAPage => format!("{n} bundle resource{s}"),
            Reason::Duplicate => format!("{n} page{s} sharing another's URL"),
            Reason::NoHtmlOutput => format!("{n} page{s} with no HTML output"),
            Reason::NotBuilt => format!("{n} unbuilt page{s}"),
            Reason::Noindex => format!("{n} noindex page{s}"),
            Reason::Canonical => format!("{n} page{s} canonical elsewhere"),
            Reason::RobotsDisallowed => format!("{n} page{s} robots.txt disallows"),
        }
    };
    // Bundle resources were never pages: not worth a mention.
    let parts: Vec<String> = counts
        .iter()
        .filter(|(r, _)| **r != Reason::NotAPage)
        .map(|(r, n)| label(*r, *n))
        .collect();
    match parts.split_last() {
        None => String::new(),
        Some((last, [])) => format!("; {last} left out"),
        Some((last, rest)) => format!("; {} and {last} left out", rest.join(", ")),
    }
}

/// Prints warnings, notes (verbose) and the one-line summary of a build.
pub fn build(
    settings: &Settings,
    outcome: &Outcome,
    written: Option<&WriteReport>,
    took: Duration,
    v: Verbosity,
) {
    if v.quiet {
        return;
    }
    warnings(outcome, v);
    if let Some(w) = written {
        for f in &w.removed {
            labelled(
                Label::Note,
                format_args!(
                    "removed {} (written by an earlier run, no longer written)",
                    f.display()
                ),
            );
        }
        if w.robots_updated && v.verbose {
            let robots: Vec<PathBuf> = sitemap_paths(settings, outcome)
                .iter()
                .filter_map(|p| Some(p.parent()?.join(ROBOTS_NAME)))
                .collect();
            // A multihost site has one per host; the report says only that one changed.
            let which = if robots.len() == 1 {
                ""
            } else {
                "one or more of "
            };
            labelled(
                Label::Note,
                format_args!("updated {which}{}", paths_text(&robots)),
            );
        }
    }
    let targets = sitemap_paths(settings, outcome);
    let target = paths_text(&targets);
    // Each file named is a sitemap or an index; any other sitemap file is an index's part.
    let parts = written.map_or(0, |w| {
        w.files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "xml" || e == "gz"))
            .count()
            .saturating_sub(targets.len())
    });
    let files = match (parts, targets.len()) {
        (0, _) => String::new(),
        (n, 1) => format!(" (an index of {n} parts)"),
        (n, _) => format!(" (indexes of {n} parts in all)"),
    };
    // The key file the deploy must serve for `submit` to be accepted.
    let keys = summary::key_files(settings, outcome);
    let keys = match keys.len() {
        0 => String::new(),
        1 => format!(" and the IndexNow key file {}", paths_text(&keys)),
        _ => format!(" and the IndexNow key files {}", paths_text(&keys)),
    };
    say(format_args!(
        "wrote {} to {target}{files}{keys} in {:.2} s{}{}{}",
        count(outcome.entries.len(), "URL", "URLs"),
        took.as_secs_f64(),
        left_out_phrase(&summary::unaudited_by_reason(outcome)),
        host_phrase(&summary::hosted_by_reason(outcome)),
        audit_phrase(&summary::audited_by_reason(outcome))
    ));
}

/// What the site's files decided (one `note:` line each), warnings, the pages left out that a
/// user may not expect, and (verbose) notes, to stderr.
pub fn warnings(outcome: &Outcome, v: Verbosity) {
    decisions(outcome);
    if v.verbose {
        for w in &outcome.warnings {
            labelled(Label::Warning, w);
        }
        for s in &outcome.skipped {
            labelled(Label::Note, skipped_line(s));
        }
        for n in &outcome.notes {
            labelled(Label::Note, n);
        }
    } else {
        capped_warnings(&summary::warnings(outcome));
    }
}

/// The decisions that change the sitemap, one `note:` line each (said without `--verbose`).
fn decisions(outcome: &Outcome) {
    for d in &outcome.decisions {
        labelled(Label::Note, d);
    }
}

/// At most [`summary::MAX_PER_KIND`] warnings of each kind, then a line for each kind's rest.
fn capped_warnings(all: &[Warning]) {
    for w in summary::capped(all) {
        labelled(Label::Warning, w);
    }
}

/// Prints `check`'s report: a line on stderr when clean, else what differs on `out`.
pub fn check(
    out: &mut dyn Write,
    settings: &Settings,
    outcome: &Outcome,
    diff: &CheckDiff,
    v: Verbosity,
) -> io::Result<()> {
    // The run's own warnings and what the audit left out: the pages left out at their
    // source are build's business, not the gate's.
    if !v.quiet {
        decisions(outcome);
    }
    if v.verbose {
        for w in &outcome.warnings {
            labelled(Label::Warning, w);
        }
        for s in outcome.skipped.iter().filter(|s| s.audited) {
            labelled(Label::Warning, skipped_line(s));
        }
    } else if !v.quiet {
        // What the audit left out is the gate's business too: the site does not serve it.
        let audited = outcome.skipped.iter().filter(|s| s.audited);
        let own: Vec<Warning> = (outcome.warnings.iter().map(|w| Warning::parse(w)))
            .chain(audited.map(Warning::left_out))
            .collect();
        capped_warnings(&own);
    }
    // A key set but its file not written: submit would be refused once deployed.
    if !v.quiet {
        for key in summary::key_files(settings, outcome) {
            let rel = key.strip_prefix(&settings.output_dir).unwrap_or(&key);
            if diff.missing.iter().any(|m| Path::new(m) == rel) {
                labelled(
                    Label::Warning,
                    format_args!(
                        "{}: the IndexNow key is set, but its key file is not in the output folder: run `sitemapgen build` and deploy the file with the site, or `submit` is refused",
                        key.display()
                    ),
                );
            }
        }
    }
    let dir = settings.output_dir.display();
    if diff.is_clean() {
        if !v.quiet {
            let paths = sitemap_paths(settings, outcome);
            say(format_args!(
                "{} {} up to date ({}){}{}",
                paths_text(&paths),
                if paths.len() == 1 { "is" } else { "are" },
                count(outcome.entries.len(), "URL", "URLs"),
                host_phrase(&summary::hosted_by_reason(outcome)),
                audit_phrase(&summary::audited_by_reason(outcome))
            ));
        }
        return Ok(());
    }
    const SHOW: usize = 10;
    fn list(out: &mut dyn Write, title: (&str, &str), items: Vec<String>) -> io::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let title = if items.len() == 1 { title.0 } else { title.1 };
        writeln!(out, "{title} ({}):", thousands(items.len()))?;
        for i in items.iter().take(SHOW) {
            writeln!(out, "  {i}")?;
        }
        if items.len() > SHOW {
            writeln!(out, "  … and {} more", thousands(items.len() - SHOW))?;
        }
        Ok(())
    }
    list(
        out,
        (
            "file another tool wrote over since sitemapgen wrote it",
            "files another tool wrote over since sitemapgen wrote them",
        ),
        diff.overwritten
            .iter()
            .map(|f| format!("{dir}/{f}"))
            .collect(),
    )?;
    list(
        out,
        (
            "sitemap sitemapgen did not write",
            "sitemaps sitemapgen did not write",
        ),
        diff.foreign.iter().map(|f| format!("{dir}/{f}")).collect(),
    )?;
    list(
        out,
        ("file missing", "files missing"),
        diff.missing.iter().map(|f| format!("{dir}/{f}")).collect(),
    )?;
    list(
        out,
        ("file build would remove", "files build would remove"),
        diff.extra.iter().map(|f| format!("{dir}/{f}")).collect(),
    )?;
    if diff.overwritten.is_empty() {
        list(out, ("URL added", "URLs added"), diff.added.clone())?;
        list(out, ("URL removed", "URLs removed"), diff.removed.clone())?;
        list(
            out,
            ("lastmod changed", "lastmod changed"),
            diff.changed
                .iter()
                .map(|c| {
                    format!(
                        "{}: {} -> {}",
                        c.loc,
                        c.old.as_deref().unwrap_or("none"),
                        c.new.as_deref().unwrap_or("none")
                    )
                })
                .collect(),
        )?;
    } else {
        // Their URLs against ours say nothing new: the cause is above.
        let urls = diff.added.len() + diff.removed.len() + diff.changed.len();
        if urls > 0 {
            writeln!(
                out,
                "({} differ from what sitemapgen writes)",
                count(urls, "URL", "URLs")
            )?;
        }
    }
    if diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.changed.is_empty()
        && diff.missing.is_empty()
        && diff.extra.is_empty()
        && diff.overwritten.is_empty()
    {
        list(
            out,
            (
                "file that differs (same URLs and dates; other fields or formatting)",
                "files that differ (same URLs and dates; other fields or formatting)",
            ),
            diff.differing
                .iter()
                .map(|f| format!("{dir}/{f}"))
                .collect(),
        )?;
    }
    if diff.robots_stale {
        writeln!(
            out,
            "{dir}/{ROBOTS_NAME}: the Sitemap: line is missing or out of date"
        )?;
    }
    let generator = match settings.style {
        SiteStyle::Zola => Some(("Zola", "generate_sitemap = false")),
        SiteStyle::Hugo => Some(("Hugo", "disableKinds = [\"sitemap\"]")),
        _ => None,
    }
    .filter(|_| settings.site.generate_sitemap);
    if !diff.overwritten.is_empty() {
        match generator {
            Some((g, fix)) => writeln!(
                out,
                "{g}'s own sitemap is on and ran after sitemapgen: turn it off ({fix}), or run `sitemapgen build` after every {g} build"
            )?,
            None => writeln!(
                out,
                "another tool wrote over the sitemap: find what writes it, then run `sitemapgen build`"
            )?,
        }
    }
    if !diff.foreign.is_empty() {
        let off = generator
            .map(|(g, fix)| format!(" (and turn {g}'s own sitemap off: {fix})"))
            .unwrap_or_default();
        writeln!(
            out,
            "delete the sitemaps sitemapgen did not write{off}: search engines that read them get other URLs than {} list",
            paths_text(&sitemap_paths(settings, outcome))
        )?;
    }
    if !diff.not_built.is_empty() {
        list(
            out,
            (
                "content page missing from the sitemap: the built site has no file for it",
                "content pages missing from the sitemap: the built site has no file for them",
            ),
            diff.not_built.clone(),
        )?;
        let build = match settings.style {
            SiteStyle::Zola => "`zola build`",
            SiteStyle::Hugo => "`hugo`",
            _ => "the site",
        };
        writeln!(
            out,
            "build the site ({build}) with the same drafts and future settings, then run sitemapgen; or leave these pages out at their source (sitemap = false, an exclude rule)"
        )?;
    }
    let stale = !(diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.changed.is_empty()
        && diff.missing.is_empty()
        && diff.extra.is_empty()
        && diff.differing.is_empty()
        && !diff.robots_stale);
    if !stale {
        return Ok(());
    }
    writeln!(out, "the sitemap is stale: run `sitemapgen build`")
}

/// The line `init` prints: what it found and what to do next.
pub fn init_summary(target: &Path, d: &sitemapgen::init::Detected) -> String {
    use sitemapgen::settings::Style;
    let style = match d.style {
        Style::Zola => "a Zola site",
        Style::Hugo => "a Hugo site",
        _ => "a plain site (no Zola or Hugo config found)",
    };
    // Only ./sitemap.toml is read without being named.
    let build = if target == Path::new("sitemap.toml") || target == Path::new("./sitemap.toml") {
        "sitemapgen build".to_string()
    } else {
        format!("sitemapgen build --config {}", target.display())
    };
    let next = match &d.base_url {
        Some(b) if d.base_url_from_site => format!(
            "base_url {b}, read from {} at every run; review the file, then run `{build}`",
            d.config_file
                .as_deref()
                .map_or("the site's config".into(), |f| f.display().to_string())
        ),
        Some(b) => format!("base_url {b}; review it, then run `{build}`"),
        None => format!("no usable base_url found: set base_url in it, then run `{build}`"),
    };
    format!("wrote {} for {style}: {next}", target.display())
}

/// The columns of `list`, named as its JSON lines name them (`--header` prints them).
const LIST_COLUMNS: &str =
    "loc\tlastmod\tlastmod_source\tchangefreq\tpriority\tfile\tlastmod_commit";
/// The columns of `list --excluded`.
const EXCLUDED_COLUMNS: &str = "file\treason\turl\ttarget\trule";
/// The columns of `list --unsourced`.
const UNSOURCED_COLUMNS: &str = "loc\tlastmod\tfile";

/// Prints what `build` would write, a tab-separated row a URL (or, with `excluded`, what it
/// leaves out, and why), under a line naming the columns when `header` is set. A value that
/// is not there is `-`.
pub fn list(
    out: &mut dyn Write,
    outcome: &Outcome,
    excluded: bool,
    header: bool,
) -> io::Result<()> {
    if header {
        writeln!(
            out,
            "{}",
            if excluded {
                EXCLUDED_COLUMNS
            } else {
                LIST_COLUMNS
            }
        )?;
    }
    if excluded {
        for s in &outcome.skipped {
            let file = s.file.as_ref().map_or_else(
                || "-".to_string(),
                |f| shown(&f.display().to_string()).into(),
            );
            writeln!(
                out,
                "{file}\t{}\t{}\t{}\t{}",
                s.reason,
                s.url.as_deref().unwrap_or("-"),
                s.target.as_ref().map_or("-".into(), ToString::to_string),
                s.rule.as_deref().map_or("-".into(), shown)
            )?;
        }
        return Ok(());
    }
    for ((loc, e), l) in outcome.entries.iter().zip(&outcome.listed) {
        let dash = || "-".to_string();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            loc,
            e.lastmod.map(|d| d.to_string()).unwrap_or_else(dash),
            l.lastmod.map_or("-", |l| l.origin.as_str()),
            e.changefreq.map(|c| c.to_string()).unwrap_or_else(dash),
            e.priority.map(|p| p.to_string()).unwrap_or_else(dash),
            l.source
                .as_ref()
                .map(|p| shown(&p.display().to_string()).into_owned())
                .unwrap_or_else(dash),
            l.commit.as_deref().unwrap_or("-")
        )?;
    }
    Ok(())
}

/// Prints the built pages no content file accounts for: URL, lastmod, file, by tabs (under
/// a line naming the columns when `header` is set).
pub fn unsourced(out: &mut dyn Write, outcome: &Outcome, header: bool) -> io::Result<()> {
    if header {
        writeln!(out, "{UNSOURCED_COLUMNS}")?;
    }
    for u in &outcome.unsourced {
        let lastmod = u.lastmod.map_or_else(|| "-".to_string(), |d| d.to_string());
        writeln!(
            out,
            "{}\t{lastmod}\t{}",
            u.loc,
            shown(&u.file.display().to_string())
        )?;
    }
    Ok(())
}

/// `validate --quiet`: the errors only, no warnings and no summary line.
pub fn validation_errors(
    out: &mut dyn Write,
    reports: &[FileReport],
    unreadable: &[String],
) -> io::Result<()> {
    for e in unreadable {
        labelled(Label::Error, e);
    }
    for r in reports {
        for f in r.findings.iter().filter(|f| f.severity == Severity::Error) {
            let at = match f.line {
                0 => f.file.display().to_string(),
                n => format!("{}:{n}", f.file.display()),
            };
            let line = format!("{at}: error: {}: {}", f.kind.name(), f.message);
            writeln!(out, "{}", shown(&line))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_only_on_a_terminal_without_no_color() {
        assert!(use_color(None, true));
        assert!(!use_color(None, false));
        assert!(!use_color(Some(OsStr::new("1")), true));
        // no-color.org: an empty NO_COLOR does not count.
        assert!(use_color(Some(OsStr::new("")), true));
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn left_out_phrase_reads_naturally() {
        let mut c = BTreeMap::new();
        assert_eq!(left_out_phrase(&c), "");
        c.insert(Reason::Draft, 12);
        assert_eq!(left_out_phrase(&c), "; 12 drafts left out");
        c.insert(Reason::ExcludedByConfig, 3);
        assert_eq!(
            left_out_phrase(&c),
            "; 12 drafts and 3 excluded pages left out"
        );
    }
}
