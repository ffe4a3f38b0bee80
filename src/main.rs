//! The `sitemapgen` command: parses arguments, runs the library, maps results to exit codes
//! (0 success, 1 check or validation found problems, 2 bad usage, config or input).

use clap::{Parser, Subcommand, ValueEnum};
use sitemapgen::config::{self, Overrides, Style};
use sitemapgen::report::{self, Format};
use sitemapgen::{Error, RunOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StyleArg {
    Zola,
    Hugo,
    Plain,
}

fn main() -> ExitCode {
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
    let opts = RunOptions::default();
    let verbosity = report::Verbosity {
        quiet: cli.quiet,
        verbose: cli.verbose,
        format: cli.format,
    };
    match &cli.command {
        None | Some(Command::Build) => {
            let settings = settings()?;
            let (outcome, written) = sitemapgen::build(&settings, &opts)?;
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
            let outcome = sitemapgen::generate(&settings, &opts)?;
            let diff = report::check(&settings, &outcome)?;
            report::print_check(&settings, &outcome, &diff, &verbosity);
            Ok(if diff.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::List { excluded }) => {
            let outcome = sitemapgen::generate(&settings()?, &opts)?;
            report::list(&outcome, *excluded, cli.format);
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Validate { files }) => Ok(ExitCode::from(report::validate(
            files,
            cli.base_url.as_deref(),
            &verbosity,
        )?)),
    }
}
