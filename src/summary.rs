//! What a run's [`Outcome`] adds up to, for whoever reports it: the sitemap files it names,
//! how many pages were left out, by reason, and its warnings with their file and line, capped
//! by kind. Values only; the binary prints them.

use crate::pipeline::{Outcome, Skipped};
use crate::route::Reason;
use crate::settings::Settings;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The sitemap (or index) files that name what build writes: one, or one per host of a
/// multihost site.
pub fn sitemap_paths(settings: &Settings, outcome: &Outcome) -> Vec<PathBuf> {
    crate::pipeline::sitemap_set(settings, outcome).entry_points()
}

/// The IndexNow key files build writes (one per site root), when a key is set.
pub fn key_files(settings: &Settings, outcome: &Outcome) -> Vec<PathBuf> {
    let Some(name) = settings.indexnow.key_file_name() else {
        return Vec::new();
    };
    // Where the write stage puts it (`sitemap_set`): in each site root's folder.
    crate::pipeline::site_roots(settings, outcome)
        .into_iter()
        .map(|(folder, _)| settings.output_dir.join(format!("{folder}{name}")))
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
    count(
        outcome
            .skipped
            .iter()
            .filter(|s| !s.audited && !s.by_host()),
    )
}

/// How many URLs the audit of the built output left out, for each reason.
pub fn audited_by_reason(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    count(outcome.skipped.iter().filter(|s| s.audited))
}

/// How many URLs the host's rules and robots.txt left out, for each reason.
pub fn hosted_by_reason(outcome: &Outcome) -> BTreeMap<Reason, usize> {
    count(outcome.skipped.iter().filter(|s| s.by_host()))
}

fn count<'a>(
    skipped: impl Iterator<Item = &'a crate::pipeline::Skipped>,
) -> BTreeMap<Reason, usize> {
    let mut m = BTreeMap::new();
    for s in skipped {
        *m.entry(s.reason).or_insert(0) += 1;
    }
    m
}

/// Reasons a user may not expect, so each page left out for one gets a warning: a page the
/// built output lacks. Drafts, future and expired pages, `exclude` and `noindex` are the
/// author's own choices: the summary counts them, and `list --excluded` names them.
pub fn is_surprising(r: Reason) -> bool {
    r == Reason::NotBuilt
}

/// A warning as a reporter shows it: the file and line it points at, when it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file the warning is about.
    pub file: Option<PathBuf>,
    /// 1-based line in `file`, when known.
    pub line: Option<usize>,
    /// What it says (after the file and line).
    pub message: String,
    /// Warnings of one kind share this key (see [`Warning::kind`]).
    kind: String,
}

impl Warning {
    /// Splits a run's warning (`FILE:LINE: message`, `FILE: message` or just a message).
    ///
    /// The stages word their warnings as compilers do; a prefix counts as a file only when
    /// it names one, so a message that merely contains `: ` is not cut.
    pub fn parse(text: &str) -> Warning {
        let (file, line, message) = match text.split_once(": ") {
            Some((head, rest)) => match split_line(head) {
                Some((f, l)) if Path::new(f).is_file() => (Some(f), Some(l), rest),
                _ if Path::new(head).is_file() => (Some(head), None, rest),
                _ => (None, None, text),
            },
            None => (None, None, text),
        };
        Warning {
            file: file.map(PathBuf::from),
            line,
            message: message.to_string(),
            kind: kind_of(message),
        }
    }

    /// The warning for a page left out for a reason the user may not expect.
    pub fn left_out(s: &Skipped) -> Warning {
        let mut message = format!("left out ({})", s.reason);
        // A URL left out after routing: what was found about it.
        if let Some(why) = s.explain() {
            message.push_str(": ");
            message.push_str(&why);
        }
        Warning {
            // A generated page (a term, a pager) has no file of its own.
            file: s.file.clone(),
            line: None,
            message,
            // One cap for all of them, as `list --excluded` names them all.
            kind: "left out".into(),
        }
    }

    /// Whether this is a page left out (which `list --excluded` names).
    pub fn is_left_out(&self) -> bool {
        self.kind == "left out"
    }

    /// The key warnings of one kind share: the message with its file, numbers and quoted
    /// values taken out (175 future dates are one kind; a draft and a bad date are two).
    pub fn kind(&self) -> &str {
        &self.kind
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.file, self.line) {
            (Some(p), Some(l)) => write!(f, "{}:{l}: {}", p.display(), self.message),
            (Some(p), None) => write!(f, "{}: {}", p.display(), self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// `FILE:LINE` split into its parts.
fn split_line(head: &str) -> Option<(&str, usize)> {
    let (f, l) = head.rsplit_once(':')?;
    Some((f, l.parse().ok()?))
}

/// [`Warning::kind`]: quoted or backticked spans, and words with a digit in them (dates,
/// counts, line numbers), each collapsed to one mark.
fn kind_of(message: &str) -> String {
    let mut unquoted = String::with_capacity(message.len());
    let mut quote = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '\'' | '"' | '`') => {
                quote = Some(c);
                unquoted.push('…');
            }
            None => unquoted.push(c),
        }
    }
    unquoted
        .split_whitespace()
        .map(|w| {
            if w.contains(|c: char| c.is_ascii_digit()) {
                "#"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every warning of a run, in the order a reporter shows them: the run's own, then the pages
/// left out for a reason the user may not expect.
pub fn warnings(outcome: &Outcome) -> Vec<Warning> {
    let own = outcome.warnings.iter().map(|w| Warning::parse(w));
    let left_out = outcome
        .skipped
        .iter()
        .filter(|s| is_surprising(s.reason))
        .map(Warning::left_out);
    own.chain(left_out).collect()
}

/// Most warnings of one kind a reporter shows (as for the pages left out); one more line
/// says how many of that kind were held back.
pub const MAX_PER_KIND: usize = 20;

/// The warnings to show: at most `per_kind` of each kind, in their order, then for each kind
/// with more a line (no file) saying how many more there are and where to see them.
pub fn capped_to(warnings: &[Warning], per_kind: usize) -> Vec<Warning> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    let mut firsts: Vec<&Warning> = Vec::new();
    for w in warnings {
        let n = seen.entry(w.kind()).or_insert(0);
        if *n == 0 {
            firsts.push(w);
        }
        *n += 1;
        if *n <= per_kind {
            shown.push(w.clone());
        }
    }
    for first in firsts {
        let more = seen[first.kind()].saturating_sub(per_kind);
        if more > 0 {
            shown.push(held_back(first, more));
        }
    }
    shown
}

/// [`capped_to`] [`MAX_PER_KIND`].
pub fn capped(warnings: &[Warning]) -> Vec<Warning> {
    capped_to(warnings, MAX_PER_KIND)
}

/// The line for `more` warnings of `first`'s kind not shown.
fn held_back(first: &Warning, more: usize) -> Warning {
    let n = crate::vocab::prose::thousands(more as u64);
    let message = if first.is_left_out() {
        let pages = if more == 1 { "page" } else { "pages" };
        format!("… and {n} more {pages} left out (see `sitemapgen list --excluded`)")
    } else {
        format!(
            "… and {n} more like \"{}\" (`--verbose` shows every one)",
            first.message
        )
    };
    Warning {
        file: None,
        line: None,
        kind: format!("{} (held back)", first.kind),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_names_its_file_and_line_only_when_the_file_exists() {
        let d = tempfile::tempdir().unwrap();
        let page = d.path().join("post.md");
        std::fs::write(&page, "").unwrap();
        let p = page.display();
        let w = Warning::parse(&format!(
            "{p}:4: `changefreq`: 'sometimes' is no word; left out"
        ));
        assert_eq!(w.file.as_deref(), Some(page.as_path()));
        assert_eq!(w.line, Some(4));
        assert_eq!(w.message, "`changefreq`: 'sometimes' is no word; left out");
        assert_eq!(w.to_string(), format!("{p}:4: {}", w.message));
        let w = Warning::parse(&format!("{p}: lastmod 2030-01-02 is in the future"));
        assert_eq!((w.file.is_some(), w.line), (true, None));
        // Not a file: the whole text is the message.
        let text = "[sitemap] changefreq: 'sometimes' is no word; left out";
        let w = Warning::parse(text);
        assert_eq!((w.file, w.line, w.message.as_str()), (None, None, text));
        let w = Warning::parse("no colon at all");
        assert_eq!(w.to_string(), "no colon at all");
    }

    #[test]
    fn kinds_ignore_files_numbers_and_quoted_values() {
        let d = tempfile::tempdir().unwrap();
        let (pa, pb) = (d.path().join("a.md"), d.path().join("b.md"));
        std::fs::write(&pa, "").unwrap();
        std::fs::write(&pb, "").unwrap();
        let a = Warning::parse(&format!(
            "{}: lastmod 2030-01-02 is in the future; writing 2026-11-24 instead",
            pa.display()
        ));
        let b = Warning::parse(&format!(
            "{}: lastmod 2031-12-31T10:00:00Z is in the future; writing 2026-11-25 instead",
            pb.display()
        ));
        assert_eq!(a.kind(), b.kind());
        let c = Warning::parse("x: `sitemap.priority`: '7' is above 1");
        let d = Warning::parse("x: `sitemap.priority`: '3.5' is above 1");
        assert_eq!(c.kind(), d.kind());
        assert_ne!(a.kind(), c.kind());
    }

    #[test]
    fn capping_keeps_the_first_of_each_kind_and_counts_the_rest() {
        let mut ws: Vec<Warning> = (0..5)
            .map(|i| Warning::parse(&format!("p{i}: lastmod 203{i}-01-01 is in the future")))
            .collect();
        ws.push(Warning::parse("languageCode 'x_y' is not BCP 47"));
        ws.push(Warning::left_out(&Skipped {
            file: Some("d.md".into()),
            audited: false,
            reason: Reason::Draft,
            target: None,
            url: None,
            rule: None,
        }));
        ws.push(Warning::left_out(&Skipped {
            file: Some("f.md".into()),
            audited: false,
            reason: Reason::Future,
            target: None,
            url: None,
            rule: None,
        }));
        let shown: Vec<String> = capped_to(&ws, 1).iter().map(|w| w.to_string()).collect();
        assert_eq!(
            shown,
            [
                "p0: lastmod 2030-01-01 is in the future",
                "languageCode 'x_y' is not BCP 47",
                "d.md: left out (draft)",
                "… and 4 more like \"p0: lastmod 2030-01-01 is in the future\" (`--verbose` shows every one)",
                "… and 1 more page left out (see `sitemapgen list --excluded`)",
            ]
        );
        assert!(ws[6].is_left_out() && !ws[0].is_left_out());
    }
}
