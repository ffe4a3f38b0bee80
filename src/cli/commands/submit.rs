//! `submit`: tells IndexNow which URLs changed since search engines last heard from us.
//!
//! The order of a run: the key and the preview check (no network), what build would write
//! now, the baseline (`--since`, else the state file, else the live sitemap), the plan (only
//! changes, on the site's hosts, never what the audit left out), the live key file, then the
//! batches; the state file records what went through, even when a later batch fails.

use super::Run;
use crate::cli::args::{Cli, Format};
use crate::cli::out::{results, say};
use crate::cli::print::{self, Label, labelled};
use serde::Serialize;
use sitemapgen::diff::diff;
use sitemapgen::indexnow::send::{Retry, check_key_file, send_batch};
use sitemapgen::indexnow::{self, Submission, SubmitHost, state};
use sitemapgen::net::Client;
use sitemapgen::settings::Settings;
use sitemapgen::sitemap::set_read::{Limits, Location, UrlMap, read_set};
use sitemapgen::{Error, Result};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use url::Url;

/// `submit`'s own options.
pub struct SubmitArgs<'a> {
    /// `--since`: the baseline sitemap (file or URL).
    pub since: Option<&'a str>,
    /// `--state`: the state file.
    pub state: Option<&'a Path>,
    /// `--endpoint`.
    pub endpoint: Option<&'a str>,
    /// `--dry-run`.
    pub dry_run: bool,
}

/// `submit`: exit 0 when everything changed was sent (or nothing had to be), 2 otherwise.
pub fn submit(args: &Cli, opts: &SubmitArgs<'_>) -> Result<ExitCode> {
    let (settings, key) = super::submit_inputs::check(args)?;
    let endpoint = match opts.endpoint {
        Some(e) => indexnow::check_endpoint(e).map_err(|m| Error::config("--endpoint", None, m))?,
        None => match &settings.indexnow.endpoint {
            Some(e) => e.clone(),
            None => Url::parse(indexnow::DEFAULT_ENDPOINT)
                .map_err(|e| Error::remote(indexnow::DEFAULT_ENDPOINT, e.to_string()))?,
        },
    };

    let run = Run::start(args, false);
    let outcome = run.generate(&settings)?;
    if !args.quiet {
        print::warnings(&outcome, args.verbosity());
    }
    let new = outcome.urls();
    let bases: Vec<Url> = sitemapgen::pipeline::site_roots(&settings, &outcome)
        .into_iter()
        .map(|(_, base)| base)
        .collect();
    let hosts: Vec<SubmitHost> = bases
        .iter()
        .filter_map(|b| SubmitHost::new(b, &settings.indexnow))
        .collect();
    let names: Vec<String> = hosts.iter().map(SubmitHost::name).collect();
    let client = Client::default();

    let state_path = match opts.state {
        Some(p) => Some(p.to_path_buf()),
        None => names.first().and_then(|h| state::default_path(h)),
    };
    let (baseline, from) = baseline(
        &settings,
        &bases,
        opts,
        state_path.as_deref(),
        &names,
        &client,
    )?;
    let audited: BTreeSet<String> = outcome
        .skipped
        .iter()
        .filter(|s| s.audited)
        .filter_map(|s| s.url.clone())
        .collect();
    let changes = diff(&baseline, &new);
    let plan = indexnow::plan(
        &changes,
        &hosts,
        &key,
        &audited,
        indexnow::MAX_URLS_PER_REQUEST,
    );
    if !args.quiet {
        report_left_out(&plan, args.verbose);
    }

    if opts.dry_run {
        for url in unique_key_files(&plan) {
            if let Err(e) = check_key_file(&client, &url, &key) {
                labelled(Label::Warning, e);
            }
        }
        results(|out| match args.format {
            Format::Json | Format::Jsonl => {
                json(out, &plan, &endpoint, &from, true, state_path.as_deref())
            }
            _ => {
                for b in &plan.batches {
                    writeln!(out, "# {} URLs for {} to {endpoint}", b.urls.len(), b.host)?;
                    for u in &b.urls {
                        writeln!(out, "{u}")?;
                    }
                }
                Ok(())
            }
        })?;
        if args.format == Format::Text && !args.quiet {
            say(format_args!(
                "dry run: would send {} changed since {from} ({} added, {} lastmod moved, {} removed); sent nothing",
                crate::cli::out::count(plan.urls(), "URL", "URLs"),
                changes.added.len(),
                changes.moved.len(),
                changes.removed.len(),
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }

    // Before anything is sent, the live site must serve the key (the deploy is live).
    if !plan.batches.is_empty() {
        for url in unique_key_files(&plan) {
            check_key_file(&client, &url, &key)?;
        }
    }
    let mut sent = Vec::new();
    let mut failure = None;
    let retry = Retry::default();
    for batch in &plan.batches {
        match send_batch(
            &client,
            &endpoint,
            batch,
            &key,
            &retry,
            &mut std::thread::sleep,
        ) {
            Ok(_) => sent.push(batch),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    // What went through is recorded, so a failed run resends only the rest.
    let mut recorded = indexnow::after_sending(&baseline, &new, &sent);
    for url in &plan.foreign {
        recorded.remove(url);
    }
    if let Some(path) = &state_path {
        state::save(path, &state::State::new(names.clone(), recorded))?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    results(|out| match args.format {
        Format::Json | Format::Jsonl => {
            json(out, &plan, &endpoint, &from, false, state_path.as_deref())
        }
        _ => Ok(()),
    })?;
    if args.format == Format::Text && !args.quiet {
        if plan.urls() == 0 {
            say(format_args!("nothing changed since {from}: nothing sent"));
        } else {
            say(format_args!(
                "sent {} to {endpoint} in {} ({} added, {} lastmod moved, {} removed since {from})",
                crate::cli::out::count(plan.urls(), "URL", "URLs"),
                crate::cli::out::count(plan.batches.len(), "request", "requests"),
                changes.added.len(),
                changes.moved.len(),
                changes.removed.len(),
            ));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The baseline and how to name it: `--since`, else the state file (when it is this site's),
/// else the live sitemap of each host.
fn baseline(
    settings: &Settings,
    bases: &[Url],
    opts: &SubmitArgs<'_>,
    state_path: Option<&Path>,
    names: &[String],
    client: &Client,
) -> Result<(UrlMap, String)> {
    let limits = Limits::default();
    if let Some(since) = opts.since {
        let set = read_set(&Location::parse(since)?, Some(client), &limits)?;
        return Ok((set.urls, since.to_string()));
    }
    if let Some(path) = state_path
        && let Some(s) = state::load(path)?
    {
        if s.hosts == names {
            return Ok((
                s.urls,
                format!("the last submission ({}, {})", s.saved, path.display()),
            ));
        }
        labelled(
            Label::Warning,
            format_args!(
                "{}: a state file for {}, not {}: the live sitemap is the baseline instead",
                path.display(),
                s.hosts.join(", "),
                names.join(", ")
            ),
        );
    }
    let gz = if settings.gzip { ".gz" } else { "" };
    let mut urls = UrlMap::new();
    let mut named = Vec::new();
    for base in bases {
        let live = base
            .join(&format!("{}{gz}", settings.file_name))
            .map_err(|e| Error::remote(base.as_str(), e.to_string()))?;
        let set = read_set(&Location::Url(live.clone()), Some(client), &limits).map_err(|e| {
            Error::remote(
                live.as_str(),
                format!("{e}: the live sitemap is the baseline when there is no state file; pass --since FILE or --state FILE"),
            )
        })?;
        urls.extend(set.urls);
        named.push(live.to_string());
    }
    Ok((urls, format!("the live sitemap ({})", named.join(", "))))
}

/// Each key file the plan's batches rely on, once.
fn unique_key_files(plan: &Submission) -> Vec<Url> {
    let mut seen = BTreeSet::new();
    plan.batches
        .iter()
        .filter(|b| seen.insert(b.key_file.as_str().to_string()))
        .map(|b| b.key_file.clone())
        .collect()
}

/// Warns of changed URLs on no host of the site; notes (verbose) those the audit left out.
fn report_left_out(plan: &Submission, verbose: bool) {
    if !plan.foreign.is_empty() {
        let first: Vec<&str> = plan.foreign.iter().take(3).map(String::as_str).collect();
        labelled(
            Label::Warning,
            format_args!(
                "{} changed since the baseline {} on no host of this site, and never sent: {}{}",
                plan.foreign.len(),
                if plan.foreign.len() == 1 { "is" } else { "are" },
                first.join(", "),
                if plan.foreign.len() > 3 { ", …" } else { "" }
            ),
        );
    }
    if verbose {
        for url in &plan.audited {
            labelled(
                Label::Note,
                format_args!("{url}: gone from the sitemap but left out by the audit: not sent"),
            );
        }
    }
}

/// `submit --format json`.
#[derive(Serialize)]
struct SubmitReport<'a> {
    /// URLs the audit left out: never sent.
    audited: &'a [String],
    /// What the changes were measured against.
    baseline: &'a str,
    /// The requests, sent or (dry run) planned.
    batches: Vec<BatchReport<'a>>,
    /// True when nothing was sent.
    dry_run: bool,
    /// Where requests go.
    endpoint: &'a str,
    /// URLs on no host of the site: never sent.
    foreign: &'a [String],
    /// URLs sent (or, in a dry run, to send).
    sent: usize,
    /// The state file.
    state: Option<String>,
}

/// One request.
#[derive(Serialize)]
struct BatchReport<'a> {
    host: &'a str,
    key_location: Option<&'a str>,
    urls: &'a [String],
}

use std::io::Write;

fn json(
    out: &mut dyn Write,
    plan: &Submission,
    endpoint: &Url,
    from: &str,
    dry_run: bool,
    state: Option<&Path>,
) -> std::io::Result<()> {
    let report = SubmitReport {
        audited: &plan.audited,
        baseline: from,
        batches: plan
            .batches
            .iter()
            .map(|b| BatchReport {
                host: &b.host,
                key_location: b.key_location.as_deref(),
                urls: &b.urls,
            })
            .collect(),
        dry_run,
        endpoint: endpoint.as_str(),
        foreign: &plan.foreign,
        sent: plan.urls(),
        state: state.map(|p| p.display().to_string()),
    };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}
