//! Redirect rules of every host in one form, and the matcher that finds what a host does with
//! a listed URL: the first rule that meets it, in the order the host tries them.
//!
//! Each host has its own dialect ([`Dialect`]): Netlify matches whole path segments and
//! ignores a trailing slash, and serves a file before a rule that is not forced; Cloudflare
//! matches the path exactly and always applies its rules, static ones first; Vercel compiles
//! path-to-regexp sources and matches them without regard to case. Rules are indexed by
//! their literal path or first segment, so a thousand rules cost a hash lookup and a few
//! comparisons per URL, not a thousand.

use regex_automata::nfa::thompson::{
    self,
    pikevm::{self, PikeVM},
};
use regex_automata::{Input, util::syntax};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use url::Url;

/// Where a rule was read: a file and its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The rule file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// How a host reads and matches its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Netlify: whole segments, a trailing slash ignored, files before unforced rules.
    Netlify,
    /// Cloudflare Pages: exact paths, rules always applied, static rules first.
    Cloudflare,
    /// Vercel: path-to-regexp sources, case-insensitive, always applied.
    Vercel,
}

/// One redirect or rewrite rule, as its host reads it.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Where it was read.
    pub origin: Origin,
    /// Its source pattern, as written.
    pub from: String,
    /// Its destination, as written (shared with the [`Target`]s it fills in).
    pub to: Arc<str>,
    /// The status it answers with: 3xx redirects, 200 rewrites, others are errors.
    pub status: u16,
    /// Netlify's `!` or `force = true`: applied even where a file exists.
    pub force: bool,
    /// What it checks on the request that a sitemap cannot know (country, language, role,
    /// cookie, header), as written: where there is any, the rule only "may" apply.
    pub conditions: Vec<String>,
    pattern: Pattern,
}

impl Rule {
    /// A rule from its parts; `pattern` is how its `from` matches.
    pub(crate) fn new(origin: Origin, from: &str, to: &str, status: u16, pattern: Pattern) -> Rule {
        Rule {
            origin,
            from: from.to_string(),
            to: to.into(),
            status,
            force: false,
            conditions: Vec::new(),
            pattern,
        }
    }

    /// Whether the host answers with a redirect when this rule applies.
    pub fn redirects(&self) -> bool {
        is_redirect(self.status)
    }

    /// The rule as a user wrote it, for messages: `/old /new 301`.
    pub fn summary(&self) -> String {
        let force = if self.force { "!" } else { "" };
        let mut s = format!("{} {} {}{force}", self.from, self.to, self.status);
        for c in &self.conditions {
            s.push(' ');
            s.push_str(c);
        }
        s
    }
}

/// Whether a status is a redirect (the ones hosts answer with a `Location`).
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// How a rule's source matches a request.
#[derive(Clone, Debug)]
pub(crate) enum Pattern {
    /// Netlify: segments of literals and `:placeholders`, maybe a splat at the end.
    Segments(Segments),
    /// Cloudflare and Vercel: a compiled regular expression over the decoded path.
    Regex(Compiled),
    /// A literal path (after the dialect's normalisation): a hash lookup.
    Exact(String),
}

/// A Netlify source: `/news/:year/*`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Segments {
    /// `https://host` for a domain-level rule (scheme and host lowercased).
    pub origin: Option<String>,
    /// The decoded segments before the splat.
    pub segs: Vec<Seg>,
    /// With a splat: the text the segment after `segs` starts with (`""` for `/news/*`).
    pub splat: Option<String>,
    /// Query parameters the request must carry, with their value or a `:placeholder`.
    pub query: Vec<(String, String)>,
}

/// One segment of a Netlify source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// Literal text (decoded).
    Lit(String),
    /// `:name`: any one segment.
    Param(String),
}

/// A compiled source: the regular expression and the names its groups fill in the target.
///
/// Each rule keeps only its Thompson NFA, run by a PikeVM: about 1.4 KB a rule, where a
/// `meta::Regex` (its lazy DFAs, reverse NFA, one-pass table and prefilter besides) took
/// some 10 KB: 3.7 to 5.75 GB for the 324,000 sources of a 16 MiB `vercel.json`, now 0.9 GB
/// (docs/performance.md, "Host rules at the read limits"). One NFA for all the rules of a
/// file is no cheaper to run: a PikeVM's cache holds every group's slots for every state,
/// which grows with the square of the rules.
///
/// A PikeVM search costs more than the meta engine's, so the literal text every match starts
/// with is compared first: on 20,000 pages under `/blog/` and 1,000 Cloudflare rules
/// `/blog/qN/*` that meet none of them, 0.17 s of CPU with the comparison, 7.4 s without it
/// (the meta engine: 3.0 s). Where the text matches, the PikeVM decides: 1,000 rules
/// `/blog/:slug/aN` on the same pages take 7.5 s of CPU (the meta engine: 4.2 to 5.5 s).
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub re: PikeVM,
    /// The literal first segment every match starts with, if there is one.
    pub first: Option<String>,
    /// The literal text every match starts with (lowercased where matching folds case).
    pub prefix: Box<str>,
}

impl Compiled {
    /// Compiles `pattern` (anchored by the caller); `fold` matches without regard to case;
    /// every match starts with `prefix`.
    pub fn new(
        pattern: &str,
        fold: bool,
        first: Option<String>,
        prefix: &str,
    ) -> Result<Compiled, String> {
        let re = PikeVM::builder()
            .syntax(
                syntax::Config::new()
                    .unicode(false)
                    .utf8(false)
                    .case_insensitive(fold),
            )
            // What `meta::Regex` set: empty matches may split a codepoint, and an NFA of
            // more than 10 MiB (`(a{1000}){1000}`) is refused.
            .thompson(
                thompson::Config::new()
                    .utf8(false)
                    .nfa_size_limit(Some(10 << 20)),
            )
            .build(pattern)
            .map_err(|e| e.to_string())?;
        Ok(Compiled {
            re,
            first,
            prefix: prefix.into(),
        })
    }
}

/// A request as the matcher sees it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The decoded URL path below the site's root, starting with `/`.
    pub path: &'a str,
    /// The query string without `?`, if the URL has one.
    pub query: Option<&'a str>,
    /// `scheme://host[:port]` of the URL, lowercased.
    pub origin: &'a str,
}

/// What a host does with a listed URL, where a rule meets it.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged<'r> {
    /// A 3xx rule applies: the URL answers with a redirect to `to`.
    Redirect {
        /// The rule.
        rule: &'r Rule,
        /// Its destination, placeholders filled in.
        to: Target,
    },
    /// A 3xx rule applies only to requests it checks for things a sitemap cannot know.
    MayRedirect {
        /// The rule.
        rule: &'r Rule,
    },
    /// A rule that is not forced meets a URL whose file exists: the host serves the file.
    Shadowed {
        /// The rule.
        rule: &'r Rule,
    },
    /// A forced rule answers with an error status (404, 410, …): not a redirect.
    Status {
        /// The rule.
        rule: &'r Rule,
    },
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.origin == other.origin
    }
}

/// One host's rules in the order it tries them, indexed for lookups.
#[derive(Clone, Debug)]
pub struct RuleSet {
    dialect: Dialect,
    rules: Vec<Rule>,
    /// Rules whose source is a literal path, by that path.
    exact: HashMap<String, Vec<u32>>,
    /// Other rules whose matches all start with a literal first segment, by that segment.
    first: HashMap<String, Vec<u32>>,
    /// The rest: tried for every URL.
    other: Vec<u32>,
}

impl RuleSet {
    /// The rules of one host, in the order it tries them.
    pub fn new(dialect: Dialect, rules: Vec<Rule>) -> RuleSet {
        let mut set = RuleSet {
            dialect,
            rules,
            exact: HashMap::new(),
            first: HashMap::new(),
            other: Vec::new(),
        };
        for (k, rule) in set.rules.iter().enumerate() {
            let k = k as u32;
            match &rule.pattern {
                Pattern::Exact(path) => set.exact.entry(path.clone()).or_default().push(k),
                Pattern::Segments(s) => match s.segs.first() {
                    Some(Seg::Lit(first)) if s.origin.is_none() => {
                        set.first.entry(first.clone()).or_default().push(k)
                    }
                    _ => set.other.push(k),
                },
                Pattern::Regex(c) => match &c.first {
                    Some(first) => set.first.entry(first.clone()).or_default().push(k),
                    None => set.other.push(k),
                },
            }
        }
        set
    }

    /// The dialect the rules are read in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rules, in the order the host tries them.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// True when there is no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The heap memory the rules' compiled patterns hold (their NFAs and group names), for
    /// tests and measurements: some 1.4 KB a Vercel source such as `/blog/:path*`.
    pub fn pattern_bytes(&self) -> usize {
        self.rules
            .iter()
            .map(|rule| match &rule.pattern {
                Pattern::Regex(c) => {
                    let nfa = c.re.get_nfa();
                    nfa.memory_usage() + nfa.group_info().memory_usage()
                }
                Pattern::Segments(_) | Pattern::Exact(_) => 0,
            })
            .sum()
    }

    /// What the host does with `req`: `None` when no rule meets it, or only rules that serve
    /// it with 200. `file_exists` says whether a file serves the URL (Netlify serves it before
    /// a rule that is not forced).
    pub fn judge(&self, req: &Request<'_>, file_exists: bool) -> Option<Judged<'_>> {
        self.judge_with(req, &mut || file_exists)
    }

    /// [`judge`](Self::judge), asking `file_exists` only when a rule that is not forced meets
    /// a URL on Netlify (the only case a file changes), and at most once.
    pub fn judge_with(
        &self,
        req: &Request<'_>,
        file_exists: &mut dyn FnMut() -> bool,
    ) -> Option<Judged<'_>> {
        let mut known: Option<bool> = None;
        let mut exists = || *known.get_or_insert_with(&mut *file_exists);
        // A rule with conditions meets some requests only; the first one without decides for
        // the rest. A URL is redirected when every rule that may decide redirects it.
        let mut conditional_redirect: Option<&Rule> = None;
        let mut conditional_other = false;
        let mut decided = None;
        self.for_each_match(req, |rule, caps| {
            let verdict = self.verdict(rule, &caps, &mut exists);
            if rule.conditions.is_empty() {
                decided = Some(verdict);
                return false;
            }
            match verdict {
                Some(Judged::Redirect { .. }) => {
                    conditional_redirect.get_or_insert(rule);
                }
                _ => conditional_other = true,
            }
            true
        });
        match (decided.flatten(), conditional_redirect) {
            (Some(Judged::Redirect { rule, to }), _) if !conditional_other => {
                Some(Judged::Redirect { rule, to })
            }
            (Some(Judged::Redirect { rule, .. }), None) => Some(Judged::MayRedirect { rule }),
            (_, Some(rule)) => Some(Judged::MayRedirect { rule }),
            (other, None) => other,
        }
    }

    /// What `rule`, which meets a request with `caps`, makes the host do.
    fn verdict<'r>(
        &'r self,
        rule: &'r Rule,
        caps: &Captures,
        file_exists: &mut dyn FnMut() -> bool,
    ) -> Option<Judged<'r>> {
        let unforced = self.dialect == Dialect::Netlify && !rule.force && rule.status != 200;
        if unforced && file_exists() {
            return Some(Judged::Shadowed { rule });
        }
        if rule.redirects() {
            // Only a destination with a `:placeholder` needs what the match captured.
            let caps = if rule.to.contains(':') {
                caps.clone()
            } else {
                Vec::new()
            };
            return Some(Judged::Redirect {
                rule,
                to: Target {
                    to: rule.to.clone(),
                    caps,
                    base: None,
                },
            });
        }
        if rule.status >= 400 {
            return Some(Judged::Status { rule });
        }
        None
    }

    /// Calls `each` with every rule that meets `req`, in the host's order, until it returns
    /// false.
    fn for_each_match<'r>(
        &'r self,
        req: &Request<'_>,
        mut each: impl FnMut(&'r Rule, Captures) -> bool,
    ) {
        let folded;
        let path = if self.dialect == Dialect::Vercel {
            folded = req.path.to_ascii_lowercase();
            folded.as_str()
        } else {
            req.path
        };
        let key = match self.dialect {
            Dialect::Netlify => netlify_key(path),
            _ => path,
        };
        let first_seg = path
            .strip_prefix('/')
            .unwrap_or(path)
            .split('/')
            .next()
            .unwrap_or_default();
        let lists = [
            self.exact.get(key).map_or(&[][..], Vec::as_slice),
            self.first.get(first_seg).map_or(&[][..], Vec::as_slice),
            &self.other,
        ];
        // Merge the three ascending lists: the host's order is the rules' order.
        let mut at = [0usize; 3];
        loop {
            let next = (0..3)
                .filter(|&l| at[l] < lists[l].len())
                .min_by_key(|&l| lists[l][at[l]]);
            let Some(l) = next else { break };
            let k = lists[l][at[l]] as usize;
            at[l] += 1;
            let rule = &self.rules[k];
            if let Some(caps) = matches(&rule.pattern, req, path)
                && !each(rule, caps)
            {
                break;
            }
        }
    }
}

/// A Netlify path as its rules see it: no trailing slash (but the root's).
fn netlify_key(path: &str) -> &str {
    match path.strip_suffix('/') {
        Some("") | None => path,
        Some(p) => p,
    }
}

/// Named values a match fills in: `splat` and placeholders.
type Captures = Vec<(String, String)>;

/// The captures when `pattern` meets `req` (whose path, as the dialect compares it, is
/// `path`), `None` when it does not.
fn matches(pattern: &Pattern, req: &Request<'_>, path: &str) -> Option<Captures> {
    match pattern {
        Pattern::Exact(_) => Some(Vec::new()),
        Pattern::Segments(s) => s.matches(req),
        Pattern::Regex(c) => {
            if !path.starts_with(&*c.prefix) {
                return None;
            }
            let input = Input::new(path).anchored(regex_automata::Anchored::Yes);
            // Whether it matches first, without the groups: most rules tried do not.
            let caps = with_cache(&c.re, |cache| {
                c.re.search_slots(cache, &input, &mut [])?;
                let mut caps = c.re.create_captures();
                c.re.search(cache, &input, &mut caps);
                Some(caps)
            })?;
            if !caps.is_match() {
                return None;
            }
            let mut out = Vec::new();
            for (i, name) in caps
                .group_info()
                .pattern_names(regex_automata::PatternID::ZERO)
                .enumerate()
            {
                if let (Some(name), Some(span)) = (name, caps.get_group(i)) {
                    out.push((name.to_string(), path[span.range()].to_string()));
                }
            }
            Some(out)
        }
    }
}

thread_local! {
    /// One PikeVM cache a thread, moved to each rule's NFA in turn (`reset` keeps what it
    /// allocated): making a cache for each search cost more than the search (13 s of CPU
    /// against 7.5 s for the 1,000 rules `/blog/:slug/aN` on 20,000 pages).
    static CACHE: RefCell<Option<pikevm::Cache>> = const { RefCell::new(None) };
}

/// Calls `f` with this thread's PikeVM cache, made ready for `re`.
fn with_cache<R>(re: &PikeVM, f: impl FnOnce(&mut pikevm::Cache) -> R) -> R {
    CACHE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let cache = match slot.as_mut() {
            Some(cache) => {
                cache.reset(re);
                cache
            }
            None => slot.insert(re.create_cache()),
        };
        f(cache)
    })
}

impl Segments {
    /// The captures when this source meets `req`.
    fn matches(&self, req: &Request<'_>) -> Option<Captures> {
        if let Some(origin) = &self.origin
            && origin != req.origin
        {
            return None;
        }
        let mut caps = Vec::new();
        if !self.query.is_empty() {
            caps = query_matches(&self.query, req.query)?;
        }
        let path = netlify_key(req.path);
        let rest = path.strip_prefix('/').unwrap_or(path);
        let mut parts = if rest.is_empty() {
            None
        } else {
            Some(rest.split('/'))
        };
        for seg in &self.segs {
            let part = parts.as_mut().and_then(Iterator::next)?;
            match seg {
                Seg::Lit(lit) if lit == part => {}
                Seg::Param(name) if !part.is_empty() => caps.push((name.clone(), part.to_string())),
                _ => return None,
            }
        }
        let tail: Vec<&str> = parts.map(Iterator::collect).unwrap_or_default();
        match &self.splat {
            None if tail.is_empty() => Some(caps),
            None => None,
            Some(prefix) => {
                let joined = tail.join("/");
                let rest = joined.strip_prefix(prefix.as_str())?;
                caps.push(("splat".to_string(), rest.to_string()));
                Some(caps)
            }
        }
    }
}

/// The placeholders' values when a query string carries every parameter a Netlify rule asks
/// for (a `:placeholder` takes any value), `None` when it does not.
fn query_matches(wanted: &[(String, String)], query: Option<&str>) -> Option<Captures> {
    let query = query?;
    let mut caps = Vec::new();
    for (key, want) in wanted {
        let value = query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k == key).then_some(v)
        })?;
        match want.strip_prefix(':') {
            Some(name) => caps.push((name.to_string(), value.to_string())),
            None if want == value => {}
            None => return None,
        }
    }
    Some(caps)
}

/// Where a redirect sends a URL: the rule's destination with what the match captured filled
/// in, made absolute below the site's base URL once [`Target::below`] gives one. It keeps the
/// rule's own text and the captures, and is written out only when shown, so a long
/// destination is not copied for every URL it meets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    to: Arc<str>,
    caps: Captures,
    base: Option<Arc<Url>>,
}

impl Target {
    /// A target known as text (where a built page's canonical link or refresh points).
    pub fn text(to: &str) -> Target {
        Target {
            to: to.into(),
            caps: Vec::new(),
            base: None,
        }
    }

    /// The target made absolute when shown: a path is below `base`, the site's root (the
    /// folder the host serves is the output folder, at the base URL).
    pub fn below(self, base: &Arc<Url>) -> Target {
        Target {
            base: Some(Arc::clone(base)),
            ..self
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let to = fill(&self.to, &self.caps);
        let Some(base) = &self.base else {
            return f.write_str(&to);
        };
        let absolute = match to.strip_prefix('/') {
            Some(below) if !to.starts_with("//") => base.join(below).ok(),
            _ => base.join(&to).ok(),
        };
        match absolute {
            Some(url) => f.write_str(url.as_str()),
            None => f.write_str(&to),
        }
    }
}

impl PartialEq<&str> for Target {
    fn eq(&self, other: &&str) -> bool {
        self.to_string().as_str() == *other
    }
}

/// `to` with `:name` placeholders (and `:splat`) replaced by what a match captured; a
/// placeholder with no capture stays as written.
fn fill<'t>(to: &'t str, caps: &Captures) -> Cow<'t, str> {
    if caps.is_empty() || !to.contains(':') {
        return Cow::Borrowed(to);
    }
    let mut out = String::with_capacity(to.len());
    let mut rest = to;
    while let Some(at) = rest.find(':') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let len = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let name = &after[..len];
        match caps
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .filter(|_| len > 0)
        {
            Some((_, value)) => {
                out.push_str(value);
                // path-to-regexp's modifiers on a destination parameter add nothing here.
                let after = &after[len..];
                rest = after.strip_prefix(['*', '+', '?']).unwrap_or(after);
            }
            None => {
                out.push(':');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn origin(line: usize) -> Origin {
        Origin {
            file: PathBuf::from("_redirects"),
            line,
        }
    }

    pub(crate) fn req(path: &str) -> Request<'_> {
        Request {
            path,
            query: None,
            origin: "https://example.com",
        }
    }

    fn netlify(from: &[Seg], splat: Option<&str>, line: usize, status: u16) -> Rule {
        Rule::new(
            origin(line),
            "from",
            "/to/:splat",
            status,
            Pattern::Segments(Segments {
                segs: from.to_vec(),
                splat: splat.map(Into::into),
                ..Default::default()
            }),
        )
    }

    fn lit(s: &str) -> Seg {
        Seg::Lit(s.into())
    }

    #[test]
    fn netlify_segments_ignore_a_trailing_slash_and_splats_match_the_rest() {
        let set = RuleSet::new(
            Dialect::Netlify,
            vec![netlify(&[lit("news")], Some(""), 1, 301)],
        );
        for path in ["/news", "/news/", "/news/a/b/"] {
            assert!(
                matches!(set.judge(&req(path), false), Some(Judged::Redirect { .. })),
                "{path}"
            );
        }
        assert_eq!(set.judge(&req("/newsletter/"), false), None);
        assert_eq!(set.judge(&req("/"), false), None);
        let Some(Judged::Redirect { to, .. }) = set.judge(&req("/news/a/b"), false) else {
            panic!()
        };
        assert_eq!(to, "/to/a/b");
    }

    #[test]
    fn netlify_files_come_before_unforced_rules() {
        let mut forced = netlify(&[lit("a")], None, 2, 301);
        forced.force = true;
        let set = RuleSet::new(
            Dialect::Netlify,
            vec![netlify(&[lit("b")], None, 1, 301), forced],
        );
        assert!(matches!(
            set.judge(&req("/b/"), true),
            Some(Judged::Shadowed { .. })
        ));
        assert!(matches!(
            set.judge(&req("/b/"), false),
            Some(Judged::Redirect { .. })
        ));
        assert!(matches!(
            set.judge(&req("/a/"), true),
            Some(Judged::Redirect { .. })
        ));
    }

    #[test]
    fn the_first_rule_in_order_decides_whatever_the_index_bucket() {
        let exact = Rule::new(origin(2), "/a/b", "/x", 302, Pattern::Exact("/a/b".into()));
        let splat = netlify(&[lit("a")], Some(""), 1, 200);
        let set = RuleSet::new(Dialect::Netlify, vec![splat, exact]);
        // The 200 rewrite on line 1 meets /a/b first: no redirect.
        assert_eq!(set.judge(&req("/a/b"), false), None);
    }

    #[test]
    fn conditional_rules_only_may_redirect() {
        let mut cond = netlify(&[lit("a")], None, 1, 302);
        cond.conditions = vec!["Country=fr".into()];
        let set = RuleSet::new(Dialect::Netlify, vec![cond.clone()]);
        assert!(matches!(
            set.judge(&req("/a"), false),
            Some(Judged::MayRedirect { .. })
        ));
        // A later unconditional redirect: redirected either way.
        let set = RuleSet::new(
            Dialect::Netlify,
            vec![cond.clone(), netlify(&[lit("a")], None, 2, 301)],
        );
        assert!(matches!(
            set.judge(&req("/a"), false),
            Some(Judged::Redirect { rule, .. }) if rule.origin.line == 2
        ));
        // A conditional 200 before an unconditional redirect: some requests get the page.
        let mut rewrite = cond;
        rewrite.status = 200;
        let set = RuleSet::new(
            Dialect::Netlify,
            vec![rewrite, netlify(&[lit("a")], None, 2, 301)],
        );
        assert!(matches!(
            set.judge(&req("/a"), false),
            Some(Judged::MayRedirect { rule }) if rule.origin.line == 2
        ));
    }

    #[test]
    fn placeholders_fill_the_destination() {
        let caps = vec![
            ("year".to_string(), "2024".to_string()),
            ("splat".to_string(), "a/b".to_string()),
        ];
        assert_eq!(fill("/blog/:year/:splat", &caps), "/blog/2024/a/b");
        assert_eq!(fill("/blog/:month", &caps), "/blog/:month");
        assert_eq!(
            fill("https://x.org:8080/:year*", &caps),
            "https://x.org:8080/2024"
        );
    }

    #[test]
    fn query_parameters_must_be_present() {
        let wanted = vec![
            ("id".to_string(), ":id".to_string()),
            ("v".to_string(), "2".to_string()),
        ];
        assert_eq!(query_matches(&wanted, None), None);
        assert_eq!(query_matches(&wanted, Some("id=1")), None);
        assert_eq!(
            query_matches(&wanted, Some("id=1&v=2")),
            Some(vec![("id".to_string(), "1".to_string())])
        );
        assert_eq!(query_matches(&wanted, Some("id=1&v=3")), None);
    }
}
