//! What the user reads: the summary of a build, `check`'s differences, `list`'s rows, and
//! errors. Kept apart from the pipeline so the stages stay plain data in, plain data out.

use crate::config::Settings;
use crate::error::{Error, Result};
use crate::route::Reason;
use crate::validate::{FileReport, Severity, SitemapKind};
use crate::write::{OutputFile, WriteReport};
use crate::Outcome;
use clap::ValueEnum;
use flate2::read::GzDecoder;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Output format of summaries and lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON object (the build summary, check's report, validate's findings).
    Json,
    /// One JSON object per line (`list`).
    Jsonl,
}

/// How much to say.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    /// Errors only.
    pub quiet: bool,
    /// Everything.
    pub verbose: bool,
    /// Text or JSON.
    pub format: Format,
}

/// How many individual "left out" warnings to print before summarising the rest.
const MAX_SKIP_WARNINGS: usize = 20;

/// Whether to colour stderr: only on a terminal, and never when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>).
pub fn use_color(no_color: Option<&OsStr>, stderr_is_terminal: bool) -> bool {
    stderr_is_terminal && no_color.is_none_or(OsStr::is_empty)
}

fn color() -> bool {
    static COLOR: OnceLock<bool> = OnceLock::new();
    *COLOR.get_or_init(|| {
        use_color(
            std::env::var_os("NO_COLOR").as_deref(),
            std::io::stderr().is_terminal(),
        )
    })
}

/// `error:`, `warning:` or `note:`, bold and coloured when [`use_color`] allows.
fn label(kind: &str) -> String {
    if !color() {
        return format!("{kind}:");
    }
    let code = match kind {
        "error" => "1;31",
        "warning" => "1;33",
        _ => "1;36",
    };
    format!("\x1b[{code}m{kind}:\x1b[0m")
}

/// Prints an error (every one of a batch) to stderr.
pub fn print_error(e: &Error) {
    match e {
        Error::Many(list) => {
            for e in list {
                print_error(e);
            }
            eprintln!(
                "{} {} problems; nothing was written",
                label("error"),
                list.len()
            );
        }
        e => eprintln!("{} {e}", label("error")),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The sitemap (or index) files build writes: one, or one per host of a multihost site.
pub fn sitemap_paths(settings: &Settings, outcome: &Outcome) -> Vec<PathBuf> {
    let gz = if settings.gzip { ".gz" } else { "" };
    crate::outputs(settings, outcome)
        .iter()
        .map(|o| {
            o.opts
                .output_dir
                .join(format!("{}{gz}", settings.file_name))
        })
        .collect()
}

/// The sitemap files for JSON output (none when the site turns its sitemap off).
fn json_sitemaps(settings: &Settings, outcome: &Outcome) -> Vec<String> {
    if outcome.disabled.is_some() {
        return Vec::new();
    }
    sitemap_paths(settings, outcome)
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

/// The sitemap files for a message: `a`, `a and b`, `a, b and c`.
fn paths_text(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// Pages left out, bundle resources not counted (they never were pages).
pub fn left_out_total(outcome: &Outcome) -> usize {
    outcome
        .skipped
        .iter()
        .filter(|s| s.reason != Reason::NotAPage)
        .count()
}

fn counts(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    let mut m = BTreeMap::new();
    for s in &outcome.skipped {
        *m.entry(s.reason).or_insert(0) += 1;
    }
    m
}

/// Reasons a user may not expect, so each such page gets a warning.
fn surprising(r: Reason) -> bool {
    matches!(
        r,
        Reason::Draft | Reason::Future | Reason::Expired | Reason::ExcludedByConfig
    )
}

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
pub fn summary(
    settings: &Settings,
    outcome: &Outcome,
    written: Option<&WriteReport>,
    took: Duration,
    v: &Verbosity,
) {
    let counts = counts(outcome);
    if v.format == Format::Json {
        let sitemaps = json_sitemaps(settings, outcome);
        let files: Vec<String> = written
            .map(|w| w.files.iter().map(|f| f.display().to_string()).collect())
            .unwrap_or_default();
        let excluded: serde_json::Map<String, serde_json::Value> = counts
            .iter()
            .map(|(r, n)| (r.as_str().to_string(), (*n).into()))
            .collect();
        let removed: Vec<String> = written
            .map(|w| w.removed.iter().map(|f| f.display().to_string()).collect())
            .unwrap_or_default();
        let json = serde_json::json!({
            "urls": outcome.entries.len(),
            "pages_read": outcome.pages_read,
            "sitemap": sitemaps.first(),
            "sitemaps": sitemaps,
            "files": files,
            "removed": removed,
            "robots_txt_updated": written.is_some_and(|w| w.robots_updated),
            "excluded": excluded,
            "excluded_total": left_out_total(outcome),
            "warnings": outcome.warnings,
            "disabled": outcome.disabled,
            "seconds": took.as_secs_f64(),
        });
        println!("{json}");
        return;
    }
    if v.quiet {
        return;
    }
    print_warnings(outcome, v);
    if let Some(d) = &outcome.disabled {
        eprintln!("{d}");
        return;
    }
    if let Some(w) = written {
        for f in &w.removed {
            eprintln!(
                "{} removed {} (a part of an earlier, larger sitemap)",
                label("note"),
                f.display()
            );
        }
        if w.robots_updated && v.verbose {
            let robots: Vec<PathBuf> = crate::outputs(settings, outcome)
                .iter()
                .map(|o| o.opts.output_dir.join(crate::write::ROBOTS_NAME))
                .collect();
            // A multihost site has one per host; the report says only that one changed.
            let which = if robots.len() == 1 {
                ""
            } else {
                "one or more of "
            };
            eprintln!("{} updated {which}{}", label("note"), paths_text(&robots));
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
    let urls = outcome.entries.len();
    eprintln!(
        "wrote {} URL{} to {target}{files} in {:.2} s{}",
        thousands(urls),
        if urls == 1 { "" } else { "s" },
        took.as_secs_f64(),
        left_out_phrase(&counts)
    );
}

/// Warnings, the pages left out that a user may not expect, and (verbose) notes, to stderr.
fn print_warnings(outcome: &Outcome, v: &Verbosity) {
    for w in &outcome.warnings {
        eprintln!("{} {w}", label("warning"));
    }
    let mut shown = 0;
    for s in &outcome.skipped {
        if v.verbose || (surprising(s.reason) && shown < MAX_SKIP_WARNINGS) {
            eprintln!(
                "{} {}: left out ({})",
                label(if v.verbose { "note" } else { "warning" }),
                s.file.display(),
                s.reason
            );
            shown += 1;
        }
    }
    let hidden = outcome
        .skipped
        .iter()
        .filter(|s| surprising(s.reason))
        .count()
        .saturating_sub(shown);
    if hidden > 0 && !v.verbose {
        eprintln!(
            "{} … and {} more pages left out (see `sitemapgen list --excluded`)",
            label("warning"),
            thousands(hidden)
        );
    }
    if v.verbose {
        for n in &outcome.notes {
            eprintln!("{} {n}", label("note"));
        }
    }
}

/// What `check` found between the sitemap on disk and what `build` would write.
#[derive(Clone, Debug, Default)]
pub struct CheckDiff {
    /// URLs build would add.
    pub added: Vec<String>,
    /// URLs build would remove.
    pub removed: Vec<String>,
    /// URLs whose lastmod (or other field) would change: (loc, old lastmod, new lastmod).
    pub changed: Vec<(String, String, String)>,
    /// Files build would write that are not on disk.
    pub missing: Vec<String>,
    /// Files on disk (listed by the old index) that build would not write.
    pub extra: Vec<String>,
    /// Files whose bytes differ even where the URL sets agree (formatting, order).
    pub differing: Vec<String>,
    /// robots.txt lacks our `Sitemap:` line or names an old one (only when `robots_txt` is on).
    pub robots_stale: bool,
}

impl CheckDiff {
    /// True when the disk already holds exactly what build would write.
    pub fn is_clean(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
            && self.differing.is_empty()
            && !self.robots_stale
    }
}

/// Compares what `build` would write with the files in the output folder; writes nothing.
pub fn check(settings: &Settings, outcome: &Outcome) -> Result<CheckDiff> {
    let mut diff = CheckDiff::default();
    if outcome.disabled.is_some() {
        return Ok(diff);
    }
    let mut old_urls: BTreeMap<String, String> = BTreeMap::new();
    let mut new_urls: BTreeMap<String, String> = BTreeMap::new();
    for out in crate::outputs(settings, outcome) {
        let opts = &out.opts;
        let base = url::Url::parse(&opts.base_url).map_err(|e| {
            Error::config(
                settings.config_file.clone().unwrap_or_default(),
                None,
                format!("base URL '{}': {e}", opts.base_url),
            )
        })?;
        // File names as the user sees them below the output folder (`fr/sitemap.xml`).
        let shown = |name: &str| match &out.subdir {
            Some(d) => format!("{d}/{name}"),
            None => name.to_string(),
        };
        let files: Vec<OutputFile> =
            crate::write::render(outcome.entries.slice(out.entries.clone()), opts)?;
        let mut old_parts: BTreeSet<String> = BTreeSet::new();
        let written: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
        for f in &files {
            let path = opts.output_dir.join(&f.name);
            collect_urls(
                &plain_bytes(&f.name, &f.bytes),
                &mut new_urls,
                &mut BTreeSet::new(),
                &base,
            );
            match std::fs::read(&path) {
                Ok(disk) => {
                    collect_urls(
                        &plain_bytes(&f.name, &disk),
                        &mut old_urls,
                        &mut old_parts,
                        &base,
                    );
                    if disk != f.bytes {
                        diff.differing.push(shown(&f.name));
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    diff.missing.push(shown(&f.name))
                }
                Err(e) => return Err(Error::io(path, e)),
            }
        }
        // Parts the old index lists that build would no longer write.
        for part in old_parts {
            if !written.contains(part.as_str()) {
                let path = opts.output_dir.join(&part);
                if let Ok(disk) = std::fs::read(&path) {
                    collect_urls(
                        &plain_bytes(&part, &disk),
                        &mut old_urls,
                        &mut BTreeSet::new(),
                        &base,
                    );
                }
                diff.extra.push(shown(&part));
            }
        }
        if opts.robots_txt {
            let path = opts.output_dir.join(crate::write::ROBOTS_NAME);
            let existing = match std::fs::read(&path) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(path, e)),
            };
            let want = crate::write::robots_txt(existing.as_deref(), opts)?;
            diff.robots_stale |= existing.as_deref() != Some(want.as_slice());
        }
    }
    for (loc, lm) in &new_urls {
        match old_urls.get(loc) {
            None => diff.added.push(loc.clone()),
            Some(old) if old != lm => diff.changed.push((loc.clone(), old.clone(), lm.clone())),
            Some(_) => {}
        }
    }
    diff.removed = old_urls
        .keys()
        .filter(|l| !new_urls.contains_key(*l))
        .cloned()
        .collect();
    Ok(diff)
}

fn plain_bytes(name: &str, bytes: &[u8]) -> Vec<u8> {
    if name.ends_with(".gz") {
        let mut out = Vec::new();
        if GzDecoder::new(bytes).read_to_end(&mut out).is_ok() {
            return out;
        }
    }
    bytes.to_vec()
}

/// Collects `<url>` locs with their lastmod, and the part files an index lists.
fn collect_urls(
    xml: &[u8],
    urls: &mut BTreeMap<String, String>,
    parts: &mut BTreeSet<String>,
    base: &url::Url,
) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    let (mut in_index, mut field, mut loc, mut lastmod) =
        (false, String::new(), String::new(), String::new());
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if name == "sitemapindex" {
                    in_index = true;
                }
                if name == "url" || name == "sitemap" {
                    loc.clear();
                    lastmod.clear();
                }
                field = name;
            }
            Ok(Event::Text(t)) => {
                let text = t
                    .decode()
                    .map(|c| {
                        quick_xml::escape::unescape(&c)
                            .map(|u| u.into_owned())
                            .unwrap_or_default()
                    })
                    .unwrap_or_default();
                match field.as_str() {
                    "loc" => loc.push_str(text.trim()),
                    "lastmod" => lastmod.push_str(text.trim()),
                    _ => {}
                }
            }
            Ok(Event::End(e)) => {
                let name = e.local_name();
                if name.as_ref() == b"url" {
                    urls.insert(std::mem::take(&mut loc), std::mem::take(&mut lastmod));
                } else if name.as_ref() == b"sitemap" && in_index {
                    if let Some(rel) = loc.strip_prefix(base.as_str()) {
                        if !rel.contains('/') {
                            parts.insert(rel.to_string());
                        }
                    }
                }
                field.clear();
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
}

/// Prints `check`'s report.
pub fn print_check(settings: &Settings, outcome: &Outcome, diff: &CheckDiff, v: &Verbosity) {
    if v.format == Format::Json {
        let sitemaps = json_sitemaps(settings, outcome);
        let json = serde_json::json!({
            "clean": diff.is_clean(),
            "added": diff.added,
            "removed": diff.removed,
            "changed": diff.changed.iter().map(|(l, o, n)| serde_json::json!({"loc": l, "old": o, "new": n})).collect::<Vec<_>>(),
            "missing": diff.missing,
            "extra": diff.extra,
            "differing": diff.differing,
            "robots_txt_stale": diff.robots_stale,
            "urls": outcome.entries.len(),
            "sitemap": sitemaps.first(),
            "sitemaps": sitemaps,
            "excluded_total": left_out_total(outcome),
            "warnings": outcome.warnings,
        });
        println!("{json}");
        return;
    }
    if let Some(d) = &outcome.disabled {
        if !v.quiet {
            eprintln!("{d}");
        }
        return;
    }
    // Only the run's own warnings: the pages left out are build's business, not the gate's.
    if !v.quiet {
        for w in &outcome.warnings {
            eprintln!("{} {w}", label("warning"));
        }
    }
    let dir = settings.output_dir.display();
    if diff.is_clean() {
        if !v.quiet {
            let paths = sitemap_paths(settings, outcome);
            eprintln!(
                "{} {} up to date ({} URLs)",
                paths_text(&paths),
                if paths.len() == 1 { "is" } else { "are" },
                thousands(outcome.entries.len())
            );
        }
        return;
    }
    const SHOW: usize = 10;
    let list = |title: &str, items: Vec<String>| {
        if items.is_empty() {
            return;
        }
        println!("{title} ({}):", thousands(items.len()));
        for i in items.iter().take(SHOW) {
            println!("  {i}");
        }
        if items.len() > SHOW {
            println!("  … and {} more", thousands(items.len() - SHOW));
        }
    };
    list(
        "files missing",
        diff.missing.iter().map(|f| format!("{dir}/{f}")).collect(),
    );
    list(
        "files build would remove",
        diff.extra.iter().map(|f| format!("{dir}/{f}")).collect(),
    );
    list("URLs added", diff.added.clone());
    list("URLs removed", diff.removed.clone());
    list(
        "lastmod changed",
        diff.changed
            .iter()
            .map(|(l, o, n)| {
                format!(
                    "{l}: {} -> {}",
                    if o.is_empty() { "none" } else { o },
                    if n.is_empty() { "none" } else { n }
                )
            })
            .collect(),
    );
    if diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.changed.is_empty()
        && diff.missing.is_empty()
        && diff.extra.is_empty()
    {
        list(
            "files that differ (same URLs and dates; other fields or formatting)",
            diff.differing
                .iter()
                .map(|f| format!("{dir}/{f}"))
                .collect(),
        );
    }
    if diff.robots_stale {
        println!(
            "{dir}/{}: the Sitemap: line is missing or out of date",
            crate::write::ROBOTS_NAME
        );
    }
    println!("the sitemap is stale: run `sitemapgen build`");
}

/// The line `init` prints: what it found and what to do next.
pub fn init_summary(target: &Path, d: &crate::init::Detected) -> String {
    let style = match d.style {
        crate::config::Style::Zola => "a Zola site",
        crate::config::Style::Hugo => "a Hugo site",
        _ => "a plain site (no Zola or Hugo config found)",
    };
    // Only ./sitemap.toml is read without being named.
    let build = if target == Path::new("sitemap.toml") || target == Path::new("./sitemap.toml") {
        "sitemapgen build".to_string()
    } else {
        format!("sitemapgen build --config {}", target.display())
    };
    let next = match &d.base_url {
        Some(b) => format!("base_url {b}; review it, then run `{build}`"),
        None => format!("no usable base_url found: set base_url in it, then run `{build}`"),
    };
    format!("wrote {} for {style}: {next}", target.display())
}

/// Prints what `build` would write (or, with `excluded`, what it leaves out).
pub fn list(outcome: &Outcome, excluded: bool, format: Format) {
    let json = format != Format::Text;
    if excluded {
        for s in &outcome.skipped {
            if json {
                println!(
                    "{}",
                    serde_json::json!({"file": s.file.display().to_string(), "reason": s.reason.as_str()})
                );
            } else {
                println!("{}\t{}", s.file.display(), s.reason);
            }
        }
        return;
    }
    for ((loc, e), l) in outcome.entries.iter().zip(&outcome.listed) {
        let lastmod = e.lastmod.map(|d| d.to_string());
        let source = l.lastmod.map(|l| l.origin.as_str());
        let file = l.source.as_ref().map(|p| p.display().to_string());
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "loc": loc.to_string(),
                    "lastmod": lastmod,
                    "lastmod_source": source,
                    "changefreq": e.changefreq.map(|c| c.as_str()),
                    "priority": e.priority.map(|p| p.as_f64()),
                    "file": file,
                    "alternates": e.alternates().iter().map(|a| serde_json::json!({"hreflang": a.hreflang, "href": a.href})).collect::<Vec<_>>(),
                    "images": e.images(),
                })
            );
        } else {
            let dash = || "-".to_string();
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                loc,
                lastmod.unwrap_or_else(dash),
                source.map(str::to_string).unwrap_or_else(dash),
                e.changefreq.map(|c| c.to_string()).unwrap_or_else(dash),
                e.priority.map(|p| p.to_string()).unwrap_or_else(dash),
                file.unwrap_or_else(dash)
            );
        }
    }
}

/// Validates files and prints the findings; returns the exit code (0, 1 or 2).
pub fn validate(files: &[std::path::PathBuf], base_url: Option<&str>, v: &Verbosity) -> Result<u8> {
    let base = match base_url {
        Some(b) => Some(
            crate::config::parse_base_url(b)
                .map_err(|m| Error::config(Path::new("--base-url"), None, m))?,
        ),
        None => None,
    };
    let opts = crate::validate::ValidateOptions { base_url: base };
    if v.format == Format::Text && !v.quiet {
        let code = crate::validate::run(
            files,
            &opts,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        )
        .map_err(|e| Error::io("standard output", e))?;
        return Ok(u8::try_from(code).unwrap_or(2));
    }
    let mut reports = Vec::with_capacity(files.len());
    let mut unreadable = Vec::new();
    for f in files {
        match crate::validate::validate_file(f, &opts) {
            Ok(r) => reports.push(r),
            Err(e) => unreadable.push(e.to_string()),
        }
    }
    let code = crate::validate::exit_code(&reports, unreadable.len());
    if v.format == Format::Text {
        // Quiet: the errors only, no warnings and no summary line.
        for r in &reports {
            for f in r.findings.iter().filter(|f| f.severity == Severity::Error) {
                let at = match f.line {
                    0 => f.file.display().to_string(),
                    n => format!("{}:{n}", f.file.display()),
                };
                println!("{at}: error: {}: {}", f.kind.name(), f.message);
            }
        }
        for e in &unreadable {
            eprintln!("{} {e}", label("error"));
        }
    } else {
        println!("{}", validation_json(&reports, &unreadable));
    }
    Ok(u8::try_from(code).unwrap_or(2))
}

/// `validate --format json`: one object with every file's counts and findings.
fn validation_json(reports: &[FileReport], unreadable: &[String]) -> serde_json::Value {
    let files: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "path": r.path.display().to_string(),
                "kind": r.kind.map(|k| match k {
                    SitemapKind::UrlSet => "urlset",
                    SitemapKind::SitemapIndex => "sitemapindex",
                }),
                "entries": r.entries,
                "bytes": r.bytes,
                "errors": r.errors,
                "warnings": r.warnings,
                "omitted": r.omitted,
                "findings": r.findings.iter().map(|f| serde_json::json!({
                    "line": f.line,
                    "severity": f.severity.to_string(),
                    "name": f.kind.name(),
                    "message": f.message,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "files": files,
        "unreadable": unreadable,
        "errors": reports.iter().map(|r| r.errors).sum::<usize>(),
        "warnings": reports.iter().map(|r| r.warnings).sum::<usize>(),
    })
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
