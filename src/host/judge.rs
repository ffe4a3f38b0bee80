//! What the host and robots.txt do with each listed URL, and what to tell the user about it:
//! the URLs to leave out (`redirect` by a host rule, `robots-disallowed`), and one message per
//! rule, however many URLs it concerns.

use super::HostRules;
use super::robots::{Robots, RobotsRule, deciding};
use super::rules::{Judged, Request, Rule, Target};
use crate::entries::Entries;
use crate::route::Reason;
use crate::vocab::loc;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use url::Url;

/// A site's robots.txt, read, with the rule lists of the crawlers a sitemap is for.
#[derive(Clone, Debug)]
pub struct RobotsFile {
    /// Where it was read.
    pub path: PathBuf,
    /// The parsed file.
    pub robots: Robots,
}

/// One root of a run: the base URL its entries are served below, and which entries.
#[derive(Clone, Debug)]
pub struct Root<'a> {
    /// Its base URL (ending in `/`).
    pub base: &'a Url,
    /// Its entries, a range of the run's.
    pub entries: Range<usize>,
    /// Its robots.txt, when it has one that counts (one at the host's root).
    pub robots: Option<&'a RobotsFile>,
}

/// A URL the host or robots.txt keeps out of the sitemap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Its entry.
    pub entry: usize,
    /// `Redirect` or `RobotsDisallowed`.
    pub reason: Reason,
    /// Where a redirect goes, resolved against the URL.
    pub target: Option<Target>,
    /// The rule: `file:line (rule)`, one string shared by every URL it leaves out.
    pub rule: Arc<str>,
}

/// What judging the entries found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// URLs to leave out, in entry order.
    pub left_out: Vec<LeftOut>,
    /// One per rule that concerns listed URLs without leaving them out, or leaves many out.
    pub warnings: Vec<String>,
    /// For `--verbose`.
    pub notes: Vec<String>,
    /// Rules that meet listed URLs and change nothing, said once by default.
    pub decisions: Vec<String>,
}

/// What happened to one URL.
#[derive(Clone, Debug)]
enum Fate<'a> {
    Host(Judged<'a>),
    Robots(Blocked<'a>),
}

/// How robots.txt keeps crawlers from a URL.
#[derive(Clone, Debug)]
struct Blocked<'a> {
    file: &'a RobotsFile,
    /// The rule that decides for Googlebot, when it disallows.
    google: Option<&'a RobotsRule>,
    /// The rule that decides for other crawlers, when it disallows.
    others: Option<&'a RobotsRule>,
    /// The deciding rule keeps crawlers from the whole site (a preview build's robots.txt).
    wholesale: bool,
}

/// Judges the entries of each root: host rules first (a redirected URL is never crawled),
/// then robots.txt. `file_exists(k)` says whether a built file serves entry `k` (asked only
/// where a Netlify rule without `!` meets it).
pub fn judge(
    host: &HostRules,
    roots: &[Root<'_>],
    entries: &Entries,
    file_exists: &(dyn Fn(usize) -> bool + Sync),
) -> Findings {
    let mut fates: Vec<(usize, Fate<'_>)> = Vec::new();
    for root in roots {
        let crawlers = root.robots.map(Crawlers::of);
        let base_path = root.base.path();
        let base = Arc::new(root.base.clone());
        let found: Vec<(usize, Fate<'_>)> = root
            .entries
            .clone()
            .into_par_iter()
            .filter_map(|k| {
                let l = entries.loc(k);
                let rest = l.rest();
                let below = rest.strip_prefix(base_path)?;
                let (path, query) = match below.split_once('?') {
                    Some((p, q)) => (p, Some(q)),
                    None => (below, None),
                };
                let path = path.split('#').next().unwrap_or_default();
                let decoded = format!("/{}", loc::decoded(path));
                let origin = l.origin().to_ascii_lowercase();
                let req = Request {
                    path: &decoded,
                    query,
                    origin: &origin,
                };
                if !host.rules.is_empty() {
                    let judged = host.rules.judge_with(&req, &mut || file_exists(k));
                    if let Some(j) = judged {
                        return Some((k, Fate::Host(resolve(j, &base))));
                    }
                }
                let crawlers = crawlers.as_ref()?;
                let full = rest.split('#').next().unwrap_or_default();
                crawlers.blocked(full).map(|b| (k, Fate::Robots(b)))
            })
            .collect();
        fates.extend(found);
    }
    report(fates, entries)
}

/// A redirect's destination made absolute (when shown) below the site's root.
fn resolve<'r>(judged: Judged<'r>, base: &Arc<Url>) -> Judged<'r> {
    match judged {
        Judged::Redirect { rule, to } => Judged::Redirect {
            rule,
            to: to.below(base),
        },
        other => other,
    }
}

/// The rule lists of the crawlers a sitemap is for: Googlebot (its own groups, else `*`'s)
/// and every other crawler (`*`'s).
struct Crawlers<'a> {
    file: &'a RobotsFile,
    google: Vec<&'a RobotsRule>,
    others: Vec<&'a RobotsRule>,
}

impl<'a> Crawlers<'a> {
    fn of(file: &'a RobotsFile) -> Crawlers<'a> {
        Crawlers {
            file,
            google: file.robots.rules_for("googlebot"),
            others: file.robots.rules_for("*"),
        }
    }

    /// How robots.txt keeps crawlers from `path` (path and query, percent-encoded), if it
    /// keeps any.
    fn blocked(&self, path: &str) -> Option<Blocked<'a>> {
        let disallows = |rules: &[&'a RobotsRule]| deciding(rules, path).filter(|r| !r.allow);
        let google = disallows(&self.google);
        let others = disallows(&self.others);
        if google.is_none() && others.is_none() {
            return None;
        }
        // `Disallow: /` in a group with no `allow` at all: a site-wide block.
        let wholesale_in = |rule: Option<&RobotsRule>, rules: &[&RobotsRule]| {
            rule.is_some_and(|r| r.is_wholesale()) && !rules.iter().any(|r| r.allow)
        };
        let wholesale = wholesale_in(google, &self.google) || wholesale_in(others, &self.others);
        Some(Blocked {
            file: self.file,
            google,
            others,
            wholesale,
        })
    }
}

/// The rule as messages name it: `file:line (rule)`.
fn rule_name(rule: &Rule) -> String {
    format!("{} ({})", rule.origin, rule.summary())
}

fn robots_name(file: &RobotsFile, rule: &RobotsRule) -> String {
    format!("{}:{} ({})", file.path.display(), rule.line, rule.summary())
}

/// "1 listed URL", "3 listed URLs".
fn urls(n: usize) -> String {
    if n == 1 {
        "1 listed URL".to_string()
    } else {
        format!("{n} listed URLs")
    }
}

/// Turns each URL's fate into the URLs to leave out and one message per rule.
fn report(mut fates: Vec<(usize, Fate<'_>)>, entries: &Entries) -> Findings {
    fates.sort_by_key(|(k, _)| *k);
    let mut out = Findings::default();
    // Per rule: how many URLs, and the first.
    let mut tally: BTreeMap<(u8, Arc<str>), (usize, String)> = BTreeMap::new();
    let mut count = |kind: u8, name: Arc<str>, url: &str| {
        let e = tally
            .entry((kind, name))
            .or_insert_with(|| (0, url.to_string()));
        e.0 += 1;
    };
    // Each rule's name is made once and shared by every URL it concerns: a 200 KB rule
    // that meets 2,000 URLs is one string, not 2,000. Rules are told apart by address.
    let mut names: HashMap<usize, Arc<str>> = HashMap::new();
    let mut host_name = |rule: &Rule| -> Arc<str> {
        let key = rule as *const Rule as usize;
        Arc::clone(names.entry(key).or_insert_with(|| rule_name(rule).into()))
    };
    let mut robots_names: HashMap<usize, Arc<str>> = HashMap::new();
    let mut robots_label = |file: &RobotsFile, rule: &RobotsRule| -> Arc<str> {
        let key = rule as *const RobotsRule as usize;
        Arc::clone(
            robots_names
                .entry(key)
                .or_insert_with(|| robots_name(file, rule).into()),
        )
    };
    for (k, fate) in &fates {
        let url = entries.loc(*k).to_string();
        match fate {
            Fate::Host(Judged::Redirect { rule, to }) => {
                let name = host_name(rule);
                out.left_out.push(LeftOut {
                    entry: *k,
                    reason: Reason::Redirect,
                    target: Some(to.clone()),
                    rule: Arc::clone(&name),
                });
                count(0, name, &url);
            }
            Fate::Host(Judged::MayRedirect { rule }) => count(1, host_name(rule), &url),
            Fate::Host(Judged::Shadowed { rule }) => count(2, host_name(rule), &url),
            Fate::Host(Judged::Status { rule }) => count(3, host_name(rule), &url),
            Fate::Robots(b) if b.wholesale => {
                let rule = b
                    .google
                    .or(b.others)
                    .expect("a blocked URL has a deciding rule");
                count(4, robots_label(b.file, rule), &url);
            }
            Fate::Robots(Blocked {
                file,
                google: Some(g),
                others: Some(_),
                ..
            }) => {
                let name = robots_label(file, g);
                out.left_out.push(LeftOut {
                    entry: *k,
                    reason: Reason::RobotsDisallowed,
                    target: None,
                    rule: Arc::clone(&name),
                });
                count(5, name, &url);
            }
            Fate::Robots(Blocked {
                file,
                google: Some(g),
                others: None,
                ..
            }) => count(6, robots_label(file, g), &url),
            Fate::Robots(Blocked {
                file,
                others: Some(o),
                ..
            }) => count(7, robots_label(file, o), &url),
            Fate::Robots(_) => {}
        }
    }
    for ((kind, name), (n, first)) in tally {
        let what = urls(n);
        let example = if n == 1 {
            first.clone()
        } else {
            format!("{first} and {} more", n - 1)
        };
        match kind {
            // A page the site builds that no visitor reaches: the page or the rule is stale.
            0 => out.warnings.push(format!(
                "{name} redirects {what} ({example}): left out (redirect); remove the page or the rule to stop this warning"
            )),
            // Nothing to fix: the rule answers some visitors only. Said once, by default.
            1 => out.decisions.push(format!(
                "{name} may redirect {what} ({example}): it checks the request for what a sitemap cannot know; kept"
            )),
            2 => out.decisions.push(format!(
                "{name} meets {what} ({example}) that Netlify serves from their files, as the rule has no `!` (force): kept"
            )),
            3 => out.warnings.push(format!(
                "{name} answers with an error status for {what} ({example}): kept, but check the rule"
            )),
            4 => {
                out.warnings.push(format!(
                    "{name} keeps crawlers from the whole site, {what} included ({example}): nothing left out for it"
                ));
                out.notes.push(format!(
                    "{name}: a robots.txt that disallows everything is what preview and staging builds write; the production build's robots.txt decides, so no URL is left out for this rule"
                ));
            }
            // The site's own robots.txt chose: said once, by default, not a warning.
            5 => out.decisions.push(format!(
                "{name} disallows {what} ({example}): left out (robots-disallowed)"
            )),
            6 => out.decisions.push(format!(
                "{name} disallows {what} ({example}) for Googlebot only: kept for other crawlers"
            )),
            _ => out.decisions.push(format!(
                "{name} disallows {what} ({example}) for crawlers other than Googlebot: kept for Googlebot"
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Platform, RuleTexts};
    use super::*;

    fn entries(locs: &[&str]) -> Entries {
        let mut e = Entries::new();
        for l in locs {
            e.push(l).unwrap();
        }
        e
    }

    fn robots(text: &str) -> RobotsFile {
        RobotsFile {
            path: PathBuf::from("public/robots.txt"),
            robots: Robots::parse(text.as_bytes()),
        }
    }

    fn netlify(redirects: &str) -> HostRules {
        HostRules::from_texts(
            Platform::Netlify,
            &RuleTexts {
                redirects: Some((PathBuf::from("_redirects"), redirects.to_string())),
                ..Default::default()
            },
            "https://e.org",
        )
    }

    #[test]
    fn rules_then_robots_one_message_per_rule() {
        let host = netlify("/old/* /new/:splat 301!\n/soft /x 301\n/geo / 302! Country=fr\n");
        let e = entries(&[
            "https://e.org/docs/",
            "https://e.org/docs/geo/",
            "https://e.org/docs/old/a/",
            "https://e.org/docs/old/b/",
            "https://e.org/docs/private/p/",
            "https://e.org/docs/soft/",
            "https://e.org/docs/tags/x/",
        ]);
        let base = Url::parse("https://e.org/docs/").unwrap();
        let r = robots(
            "User-agent: *\nDisallow: /docs/private/\n\nUser-agent: Googlebot\nDisallow: /docs/private/\nDisallow: /docs/tags/\n",
        );
        let roots = [Root {
            base: &base,
            entries: 0..e.len(),
            robots: Some(&r),
        }];
        let found = judge(&host, &roots, &e, &|_| true);
        let left: Vec<(usize, Reason, Option<String>)> = found
            .left_out
            .iter()
            .map(|l| (l.entry, l.reason, l.target.as_ref().map(Target::to_string)))
            .collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            left,
            vec![
                (2, Reason::Redirect, some("https://e.org/docs/new/a")),
                (3, Reason::Redirect, some("https://e.org/docs/new/b")),
                (4, Reason::RobotsDisallowed, None),
            ]
        );
        assert_eq!(
            &*found.left_out[0].rule,
            "_redirects:1 (/old/* /new/:splat 301!)"
        );
        // A built page the host redirects is a warning (the page or the rule is stale); what
        // robots.txt decided and the rules that change nothing are said once, as decisions.
        assert_eq!(
            found.warnings,
            vec![
                "_redirects:1 (/old/* /new/:splat 301!) redirects 2 listed URLs (https://e.org/docs/old/a/ and 1 more): left out (redirect); remove the page or the rule to stop this warning",
            ]
        );
        assert_eq!(found.decisions.len(), 4);
        assert_eq!(
            found.decisions[0],
            "_redirects:3 (/geo / 302! Country=fr) may redirect 1 listed URL (https://e.org/docs/geo/): it checks the request for what a sitemap cannot know; kept"
        );
        assert!(found.decisions[1].starts_with("_redirects:2 (/soft /x 301) meets 1 listed URL"));
        assert_eq!(
            found.decisions[2..],
            [
                "public/robots.txt:5 (Disallow: /docs/private/) disallows 1 listed URL (https://e.org/docs/private/p/): left out (robots-disallowed)",
                "public/robots.txt:6 (Disallow: /docs/tags/) disallows 1 listed URL (https://e.org/docs/tags/x/) for Googlebot only: kept for other crawlers",
            ]
        );
    }

    #[test]
    fn a_wholesale_disallow_is_a_warning_only() {
        let host = netlify("");
        let e = entries(&["https://e.org/", "https://e.org/a/"]);
        let base = Url::parse("https://e.org/").unwrap();
        let r = robots("User-agent: *\nDisallow: /\n");
        let roots = [Root {
            base: &base,
            entries: 0..2,
            robots: Some(&r),
        }];
        let found = judge(&host, &roots, &e, &|_| true);
        assert!(found.left_out.is_empty());
        assert_eq!(found.warnings.len(), 1);
        assert!(
            found.warnings[0].contains("whole site"),
            "{:?}",
            found.warnings
        );
        assert!(found.notes[0].contains("preview"));
        // With an allow beside it, `Disallow: /` is a policy: what it covers is left out.
        let r = robots("User-agent: *\nDisallow: /\nAllow: /$\n");
        let roots = [Root {
            base: &base,
            entries: 0..2,
            robots: Some(&r),
        }];
        let found = judge(&host, &roots, &e, &|_| true);
        assert_eq!(found.left_out.len(), 1);
        assert_eq!(found.left_out[0].entry, 1);
    }

    #[test]
    fn files_are_looked_for_only_where_an_unforced_netlify_rule_meets_a_url() {
        let host = netlify("/a /b 301\n/c /d 301!\n");
        let e = entries(&["https://e.org/a/", "https://e.org/c/", "https://e.org/e/"]);
        let base = Url::parse("https://e.org/").unwrap();
        let roots = [Root {
            base: &base,
            entries: 0..3,
            robots: None,
        }];
        let asked = std::sync::Mutex::new(Vec::new());
        let found = judge(&host, &roots, &e, &|k| {
            asked.lock().unwrap().push(k);
            false
        });
        assert_eq!(*asked.lock().unwrap(), vec![0]);
        assert_eq!(found.left_out.len(), 2);
    }
}
