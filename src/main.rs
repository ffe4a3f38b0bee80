//! The `sitemapgen` command: parses arguments, runs the library, maps results to exit codes
//! (0 success, 1 check or validation found problems, 2 bad usage, config or input).

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sitemapgen::config::{self, Overrides, Style};
use sitemapgen::report::{self, Format};
use sitemapgen::{Error, Progress, RunOptions};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Writes sitemap.xml for Zola and Hugo sites.
#[derive(Parser, Debug)]
#[command(name = "sitemapgen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// sitemap.toml to read (default: ./sitemap.toml when present).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The site root, where its zola.toml/config.toml/hugo.toml lives.
    #[arg(long, global = true, value_name = "DIR")]
    site: Option<PathBuf>,
    /// The content folder (default SITE/content).
    #[arg(long, global = true, value_name = "DIR")]
    content: Option<PathBuf>,
    /// Where to write the sitemap (default SITE/public).
    #[arg(long, global = true, value_name = "DIR")]
    output: Option<PathBuf>,
    /// The site's public URL (default: from sitemap.toml or the site's config).
    #[arg(long, global = true, value_name = "URL")]
    base_url: Option<String>,
    /// Site conventions (default: detected from the site's config).
    #[arg(long, global = true, value_enum)]
    style: Option<StyleArg>,
    /// List draft pages too.
    #[arg(long, global = true)]
    drafts: bool,
    /// List pages with a future publish date.
    #[arg(long, global = true)]
    future: bool,
    /// List pages whose expiry date has passed.
    #[arg(long, global = true)]
    expired: bool,
    /// Write sitemap.xml.gz.
    #[arg(long, global = true)]
    gzip: bool,
    /// Print nothing but errors.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Print what was left out and why, and where dates came from.
    #[arg(long, short, global = true)]
    verbose: bool,
    /// Output format: text, json (summary), jsonl (list).
    #[arg(long, global = true, value_enum, default_value = "text")]
    format: Format,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write the sitemap (the default).
    Build,
    /// Write nothing; exit 1 when the sitemap on disk differs from what build would write.
    Check,
    /// Check sitemap files (.xml or .xml.gz) against the protocol.
    Validate {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the URLs build would write, with their fields.
    List {
        /// Print the pages left out, and why, instead.
        #[arg(long)]
        excluded: bool,
    },
    /// Write a commented sitemap.toml for the site in --site (default .); never overwrites.
    Init,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StyleArg {
    Zola,
    Hugo,
    Plain,
}

fn main() -> ExitCode {
    tune_allocator();
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            report::print_error(&e);
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> Result<ExitCode, Error> {
    let start = Instant::now();
    let over = Overrides {
        config: cli.config.clone(),
        site: cli.site.clone(),
        content: cli.content.clone(),
        output: cli.output.clone(),
        base_url: cli.base_url.clone(),
        style: cli.style.map(|s| match s {
            StyleArg::Zola => Style::Zola,
            StyleArg::Hugo => Style::Hugo,
            StyleArg::Plain => Style::Plain,
        }),
        drafts: cli.drafts,
        future: cli.future,
        expired: cli.expired,
        gzip: cli.gzip,
    };
    let settings = || config::load(&over);
    let verbosity = report::Verbosity {
        quiet: cli.quiet,
        verbose: cli.verbose,
        format: cli.format,
    };
    // A bar only for the commands that read the site, and only for people watching a
    // terminal; machine formats and --quiet get none.
    let reads_site = matches!(
        cli.command,
        None | Some(Command::Build | Command::Check | Command::List { .. })
    );
    let bar =
        (reads_site && !cli.quiet && cli.format == Format::Text && std::io::stderr().is_terminal())
            .then(DelayedBar::start);
    let opts = RunOptions {
        progress: bar.as_ref().map(DelayedBar::progress),
        // Only `list` prints each URL's source file.
        sources: matches!(cli.command, Some(Command::List { .. })),
        between_stages: Some(release_freed_memory),
        ..RunOptions::default()
    };
    // The bar goes away before anything else is printed.
    let generate = |settings: &config::Settings| {
        let r = sitemapgen::generate(settings, &opts);
        if let Some(b) = &bar {
            b.clear();
        }
        r
    };
    match &cli.command {
        None | Some(Command::Build) => {
            let settings = settings()?;
            let r = sitemapgen::build(&settings, &opts);
            if let Some(b) = &bar {
                b.clear();
            }
            let (outcome, written) = r?;
            report::summary(
                &settings,
                &outcome,
                written.as_ref(),
                start.elapsed(),
                &verbosity,
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Check) => {
            let settings = settings()?;
            let outcome = generate(&settings)?;
            let diff = report::check(&settings, &outcome)?;
            report::print_check(&settings, &outcome, &diff, &verbosity);
            Ok(if diff.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::List { excluded }) => {
            let outcome = generate(&settings()?)?;
            report::list(&outcome, *excluded, cli.format);
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Init) => {
            let site = cli.site.clone().unwrap_or_else(|| PathBuf::from("."));
            let target = cli
                .config
                .clone()
                .unwrap_or_else(|| site.join("sitemap.toml"));
            let found = sitemapgen::init::init(&site, &target, cli.base_url.as_deref())?;
            if !cli.quiet {
                eprintln!("{}", report::init_summary(&target, &found));
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Validate { files }) => Ok(ExitCode::from(report::validate(
            files,
            cli.base_url.as_deref(),
            &verbosity,
        )?)),
    }
}

/// A progress bar on stderr that shows itself only once a run has taken a second, so quick
/// runs (the usual case) print nothing but their summary.
struct DelayedBar {
    bar: ProgressBar,
    stop: std::sync::Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl DelayedBar {
    fn start() -> DelayedBar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        // No colour in the template, so NO_COLOR has nothing to switch off.
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {msg} {pos}/{len} pages [{wide_bar}] {eta}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("reading");
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let waiter = std::thread::spawn(move || {
            // A message or a hang-up means the run ended first: stay hidden.
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_secs(1)) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        DelayedBar {
            bar,
            stop: std::sync::Mutex::new(Some((tx, waiter))),
        }
    }

    fn progress(&self) -> Progress {
        let bar = self.bar.clone();
        Progress(Arc::new(move |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if done == total {
                bar.set_message("routing, dating and writing");
            }
        }))
    }

    /// Stops the timer and removes the bar (idempotent).
    fn clear(&self) {
        let pending = self.stop.lock().ok().and_then(|mut s| s.take());
        if let Some((tx, waiter)) = pending {
            drop(tx);
            let _ = waiter.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Makes the allocator give every large block back to the system as soon as it is freed
/// (glibc only; elsewhere a no-op). A process-wide setting, made once here.
///
/// glibc serves a block of 128 KiB or more with a mapping of its own, returned when freed,
/// but raises that threshold to the size of each such block freed (up to 32 MB): after the
/// first chunk of pages is freed, the run's largest vectors (a route, a lastmod, an entry a
/// URL) would come from the heap, where freeing them gives nothing back. Setting the
/// threshold keeps it where it starts.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a malloc parameter; it has no preconditions.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Hands the memory a finished stage freed back to the system. glibc keeps freed memory for
/// reuse, but much of it is in the reading threads' arenas (the front matter's boxes), where
/// the main thread's next stages cannot reuse it: without this it stays in the peak.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
