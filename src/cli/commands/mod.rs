//! Each command: run the library, then hand its result to [`print`] or [`json`].

#[cfg(feature = "net")]
pub mod submit;
pub mod submit_inputs;

use super::args::{Cli, Format};
use super::out::{ShownLines, results, say};
use super::progress::DelayedBar;
use super::{json, print};
use sitemapgen::settings::{self, Settings};
use sitemapgen::sitemap::set_read::{Fetch, Limits, Location, read_set};
use sitemapgen::sitemap::urlset::WriteReport;
use sitemapgen::sitemap::validate::{self, ValidateOptions};
use sitemapgen::{Error, Outcome, Result, RunOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// A run of the pipeline, with a progress bar for people watching a terminal.
pub struct Run {
    bar: Option<DelayedBar>,
    opts: RunOptions,
}

impl Run {
    /// Starts the bar (unless machine formats or --quiet); `sources` fills what `list` prints.
    pub fn start(args: &Cli, sources: bool) -> Run {
        let bar = (!args.quiet && args.format == Format::Text && std::io::stderr().is_terminal())
            .then(DelayedBar::start);
        let opts = RunOptions {
            progress: bar.as_ref().map(DelayedBar::progress),
            sources,
            between_stages: Some(super::alloc::release_freed_memory),
            ..RunOptions::default()
        };
        Run { bar, opts }
    }

    /// [`sitemapgen::generate`]; the bar goes away before anything else is printed.
    pub fn generate(&self, settings: &Settings) -> Result<Outcome> {
        let r = sitemapgen::generate(settings, &self.opts);
        self.clear_bar();
        r
    }

    /// [`sitemapgen::build`]; the bar goes away before anything else is printed.
    fn build(&self, settings: &Settings) -> Result<(Outcome, WriteReport)> {
        let r = sitemapgen::build(settings, &self.opts);
        self.clear_bar();
        r
    }

    /// The moment the run takes as now (future dates are judged against it).
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.opts.now
    }

    fn clear_bar(&self) {
        if let Some(b) = &self.bar {
            b.clear();
        }
    }
}

/// `build` (the default): writes the sitemap and says what it wrote.
pub fn build(args: &Cli, start: Instant) -> Result<ExitCode> {
    let run = Run::start(args, false);
    let settings = sitemapgen::load(&args.overrides())?;
    let (outcome, written) = run.build(&settings)?;
    if args.format == Format::Json {
        let took = start.elapsed();
        results(|out| json::build(out, &settings, &outcome, Some(&written), took))?;
    } else {
        let took = start.elapsed();
        print::build(&settings, &outcome, Some(&written), took, args.verbosity());
    }
    Ok(ExitCode::SUCCESS)
}

/// `check`: exit 1 when the sitemap on disk differs from what build would write.
pub fn check(args: &Cli) -> Result<ExitCode> {
    let run = Run::start(args, false);
    let settings = sitemapgen::load(&args.overrides())?;
    let outcome = run.generate(&settings)?;
    let diff = sitemapgen::check::check(&settings, &outcome)?;
    results(|out| {
        if args.format == Format::Json {
            json::check(out, &settings, &outcome, &diff)
        } else {
            print::check(out, &settings, &outcome, &diff, args.verbosity())
        }
    })?;
    Ok(if diff.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `list`: the URLs build would write, or (`excluded`) the pages it leaves out, or
/// (`unsourced`) the built pages no content file accounts for.
pub fn list(args: &Cli, excluded: bool, unsourced: bool, header: bool) -> Result<ExitCode> {
    let mut run = Run::start(args, true);
    run.opts.unsourced = unsourced;
    let outcome = run.generate(&sitemapgen::load(&args.overrides())?)?;
    // What build would say of this run (git dates dropped, a rule matching nothing), on
    // stderr: the rows on stdout stay clean for a pipe.
    if args.format == Format::Text && !args.quiet {
        print::warnings(&outcome, args.verbosity());
    }
    // Both machine formats print JSON lines here.
    results(|out| match (args.format, unsourced) {
        (Format::Text, false) => print::list(out, &outcome, excluded, header),
        (Format::Text, true) => print::unsourced(out, &outcome, header),
        (_, false) => json::list(out, &outcome, excluded),
        (_, true) => json::unsourced(out, &outcome),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `init`: writes a commented sitemap.toml for the site.
pub fn init(args: &Cli) -> Result<ExitCode> {
    let site = args.site.clone().unwrap_or_else(|| PathBuf::from("."));
    let target = args
        .config
        .clone()
        .unwrap_or_else(|| site.join("sitemap.toml"));
    let found = sitemapgen::init::init(
        &site,
        &target,
        args.base_url.as_deref(),
        &sitemapgen::pipeline::READERS,
    )?;
    if !args.quiet {
        say(format_args!("{}", print::init_summary(&target, &found)));
    }
    Ok(ExitCode::SUCCESS)
}

/// `validate`: checks files against the protocol; exit 0, 1 (errors found) or 2.
pub fn validate(args: &Cli, files: &[PathBuf]) -> Result<ExitCode> {
    let base_url = match args.base_url.as_deref() {
        Some(b) => Some(
            settings::parse_base_url(b)
                .map_err(|m| Error::config(Path::new("--base-url"), None, m))?,
        ),
        None => None,
    };
    let opts = ValidateOptions { base_url };
    let mut reports = Vec::with_capacity(files.len());
    let mut unreadable = Vec::new();
    for f in files {
        match validate::validate_file(f, &opts) {
            Ok(r) => reports.push(r),
            Err(e) => unreadable.push(e.to_string()),
        }
    }
    results(|out| match args.format {
        Format::Text if args.quiet => print::validation_errors(out, &reports, &unreadable),
        Format::Text => {
            for e in &unreadable {
                print::labelled(print::Label::Error, e);
            }
            // A file name or an element name read from the file may hold control characters.
            validate::print_report(&reports, unreadable.len(), &mut ShownLines(&mut *out))
        }
        _ => json::validation(out, &reports, &unreadable),
    })?;
    let code = validate::exit_code(&reports, unreadable.len());
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(2)))
}

/// `diff`: the URLs added, removed and moved from `old` to `new` (default: what build would
/// write now); exit 0 when nothing changed, 1 when something did.
pub fn diff(args: &Cli, old: &str, new: Option<&str>, max_listed: usize) -> Result<ExitCode> {
    let fetch = network();
    let limits = Limits::default();
    let old_set = read_set(&Location::parse(old)?, fetch.as_deref(), &limits)?;
    let (new_urls, new_name, new_is_build) = match new {
        Some(new) => (
            read_set(&Location::parse(new)?, fetch.as_deref(), &limits)?.urls,
            new.to_string(),
            false,
        ),
        None => {
            let run = Run::start(args, false);
            let settings = sitemapgen::load(&args.overrides())?;
            let outcome = run.generate(&settings)?;
            if !args.quiet {
                print::warnings(&outcome, args.verbosity());
            }
            (outcome.urls(), "this build".to_string(), true)
        }
    };
    let d = sitemapgen::diff::diff(&old_set.urls, &new_urls);
    let sides = super::diff_report::Sides {
        old,
        new: &new_name,
        new_is_build,
        old_urls: old_set.urls.len(),
        new_urls: new_urls.len(),
    };
    results(|out| match args.format {
        Format::Markdown => super::diff_report::markdown(out, &d, &sides, max_listed),
        Format::Json | Format::Jsonl => super::diff_report::json(out, &d, &sides),
        Format::Text => super::diff_report::text(out, &d),
    })?;
    if args.format == Format::Text && !args.quiet {
        say(format_args!("{}", super::diff_report::summary(&d, &sides)));
    }
    Ok(if d.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `report`: one HTML page for people (or, `--format markdown`, the same for a job summary).
pub fn report(
    args: &Cli,
    out: Option<&Path>,
    against: Option<&str>,
    start: Instant,
) -> Result<ExitCode> {
    if matches!(args.format, Format::Json | Format::Jsonl) {
        return Err(Error::config(
            Path::new("--format"),
            None,
            "report is HTML (the default) or markdown: use --format markdown, or leave --format out",
        ));
    }
    let run = Run::start(args, true);
    let settings = sitemapgen::load(&args.overrides())?;
    // The older sitemap is read first: a wrong --against stops before the long part.
    let old = match against {
        Some(old) => {
            let fetch = network();
            Some(read_set(&Location::parse(old)?, fetch.as_deref(), &Limits::default())?.urls)
        }
        None => None,
    };
    let outcome = run.generate(&settings)?;
    if !args.quiet {
        print::warnings(&outcome, args.verbosity());
    }
    let diff = old.map(|old| sitemapgen::diff::diff(&old, &outcome.urls()));
    let mut cx = sitemapgen::report::Context {
        now: Some(run.now()),
        against: against.zip(diff.as_ref()),
        ..Default::default()
    };
    cx.read_git(&settings, &outcome);
    let report = sitemapgen::report::gather(&settings, &outcome, &cx);
    if args.format == Format::Markdown {
        let text = sitemapgen::report::markdown(&report);
        match out {
            Some(path) => std::fs::write(path, text).map_err(|e| Error::io(path, e))?,
            None => results(|o| o.write_all(text.as_bytes()))?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let path = out.unwrap_or(Path::new("sitemap-report.html"));
    let text = sitemapgen::report::html(&report);
    sitemapgen::report::save(path, &text)?;
    if !args.quiet {
        say(format_args!(
            "wrote the report of {} URLs to {} ({} KB) in {:.2} s",
            print::thousands(report.totals.urls),
            path.display(),
            text.len().div_ceil(1024),
            start.elapsed().as_secs_f64()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// The HTTP client, in a build with network support.
#[cfg(feature = "net")]
fn network() -> Option<Box<dyn Fetch>> {
    Some(Box::new(sitemapgen::net::Client::default()))
}

/// No HTTP client: URLs are an error that says so.
#[cfg(not(feature = "net"))]
fn network() -> Option<Box<dyn Fetch>> {
    None
}
