//! What a run's [`Outcome`] adds up to, for whoever reports it: the sitemap files it names
//! and how many pages were left out, by reason. Values only; the binary prints them.

use crate::config::Settings;
use crate::route::Reason;
use crate::Outcome;
use std::collections::BTreeMap;
use std::path::PathBuf;

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

/// Pages left out, bundle resources not counted (they never were pages).
pub fn left_out_total(outcome: &Outcome) -> usize {
    outcome
        .skipped
        .iter()
        .filter(|s| s.reason != Reason::NotAPage)
        .count()
}

/// How many files were left out for each reason, bundle resources included.
pub fn skipped_by_reason(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    count(outcome.skipped.iter())
}

/// How many pages were left out before the audit, for each reason.
pub fn unaudited_by_reason(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    count(outcome.skipped.iter().filter(|s| s.url.is_none()))
}

/// How many URLs the audit of the built output left out, for each reason.
pub fn audited_by_reason(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    count(outcome.skipped.iter().filter(|s| s.url.is_some()))
}

fn count<'a>(skipped: impl Iterator<Item = &'a crate::Skipped>) -> BTreeMap<Reason, usize> {
    let mut m = BTreeMap::new();
    for s in skipped {
        *m.entry(s.reason).or_insert(0) += 1;
    }
    m
}
