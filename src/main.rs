//! The `sitemapgen` command: parses arguments, runs the library, maps results to exit codes
//! (0 success, 1 check or validation found problems, 2 bad usage, config or input).

mod cli;

use clap::{CommandFactory, Parser};
use cli::args::{Cli, Command, Format};
use cli::{commands, print};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    cli::alloc::tune_allocator();
    let args = Cli::parse();
    if args.format == Format::Markdown
        && !matches!(
            args.command,
            Some(Command::Diff { .. } | Command::Report { .. })
        )
    {
        Cli::command()
            .error(
                clap::error::ErrorKind::InvalidValue,
                "--format markdown is for `diff` and `report`; use text, json or jsonl here",
            )
            .exit();
    }
    let start = Instant::now();
    let run = match &args.command {
        None | Some(Command::Build) => commands::build(&args, start),
        Some(Command::Check) => commands::check(&args),
        Some(Command::List {
            excluded,
            unsourced,
            header,
        }) => commands::list(&args, *excluded, *unsourced, *header),
        Some(Command::Init) => commands::init(&args),
        Some(Command::Validate { files }) => commands::validate(&args, files),
        Some(Command::Diff {
            old,
            new,
            max_listed,
        }) => commands::diff(&args, old, new.as_deref(), *max_listed),
        Some(Command::Report { out, against }) => {
            commands::report(&args, out.as_deref(), against.as_deref(), start)
        }
        #[cfg(not(feature = "net"))]
        Some(Command::Submit { state, .. }) => {
            commands::submit_inputs::without_net(&args, state.as_deref())
        }
        #[cfg(feature = "net")]
        Some(Command::Submit {
            since,
            state,
            endpoint,
            dry_run,
        }) => commands::submit::submit(
            &args,
            &commands::submit::SubmitArgs {
                since: since.as_deref(),
                state: state.as_deref(),
                endpoint: endpoint.as_deref(),
                dry_run: *dry_run,
            },
        ),
    };
    run.unwrap_or_else(|e| {
        print::error(&e);
        ExitCode::from(2)
    })
}
