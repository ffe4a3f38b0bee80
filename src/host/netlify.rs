//! `_redirects` as Netlify and as Cloudflare Pages read it, and `netlify.toml`'s
//! `[[redirects]]`.
//!
//! One file format, two readers that disagree: Netlify takes `from [query…] to [status[!]]
//! [conditions…]` with a default of 301, matches whole segments whatever the trailing
//! slash, and serves a file before a rule without `!`; Cloudflare takes exactly
//! `from to [status]` with a default of 302 (a line with more is ignored), matches the path
//! exactly with `*` and `:placeholders` anywhere, and always applies its rules, those without
//! either first. A line a host ignores is a warning naming it, never an error: the host
//! deploys the site all the same.

use super::rules::{Compiled, Origin, Pattern, Rule, Seg, Segments, is_redirect};
use crate::vocab::loc;
use std::path::Path;

/// What reading one rule file gave: its rules, and the lines the host ignores.
#[derive(Debug, Default)]
pub(crate) struct Read {
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    /// One message per line the host ignores (file:line: why).
    pub warnings: Vec<String>,
    /// `netlify.toml`'s `[build.processing.html] pretty_urls`, when set.
    pub pretty_urls: Option<bool>,
}

impl Read {
    fn warn(&mut self, file: &Path, line: usize, why: impl std::fmt::Display) {
        self.warnings.push(format!(
            "{}:{line}: {why}; the host ignores this rule",
            file.display()
        ));
    }
}

/// Netlify's `_redirects`.
pub(crate) fn netlify_redirects(text: &str, file: &Path) -> Read {
    let mut out = Read::default();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut tokens: Vec<&str> = line.split_whitespace().collect();
        // An inline comment runs to the end of the line.
        if let Some(at) = tokens.iter().position(|t| t.starts_with('#')) {
            tokens.truncate(at);
        }
        let (from, rest) = tokens.split_first().expect("a non-empty line has a token");
        // Between the source and the destination: query parameters (`key=value`).
        // `/path 200`: no destination, the path itself (a forward rule).
        let forward = rest.first().is_some_and(|t| parse_status(t).is_some());
        let to_at = match rest.iter().position(|t| t.starts_with('/') || is_url(t)) {
            _ if forward => 0,
            Some(at) => at,
            None => {
                out.warn(
                    file,
                    line_no,
                    "no destination (a path starting with `/` or an http(s) URL)",
                );
                continue;
            }
        };
        let query: Vec<(String, String)> = rest[..to_at]
            .iter()
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (k.to_string(), v.to_string())
            })
            .collect();
        let (to, after) = if forward {
            (*from, rest)
        } else {
            (rest[to_at], &rest[to_at + 1..])
        };
        let (status, force, conditions) = match after.split_first() {
            None => (301, false, &[][..]),
            Some((s, conds)) => match parse_status(s) {
                Some((status, force)) => (status, force, conds),
                None => {
                    out.warn(file, line_no, format!("'{s}' is not a status code"));
                    continue;
                }
            },
        };
        let pattern = match netlify_source(from, query) {
            Ok(p) => p,
            Err(why) => {
                out.warn(file, line_no, why);
                continue;
            }
        };
        let mut rule = Rule::new(origin(file, line_no), from, to, status, pattern);
        rule.force = force;
        // `Sign=` signs a proxied request; it decides nothing about who gets what.
        rule.conditions = conditions
            .iter()
            .filter(|c| !c.to_ascii_lowercase().starts_with("sign="))
            .map(|c| c.to_string())
            .collect();
        out.rules.push(rule);
    }
    out
}

/// A status token: `301`, `302!`.
fn parse_status(token: &str) -> Option<(u16, bool)> {
    let (digits, force) = match token.strip_suffix('!') {
        Some(d) => (d, true),
        None => (token, false),
    };
    let status: u16 = digits.parse().ok()?;
    (100..600).contains(&status).then_some((status, force))
}

/// Whether a token is an absolute http(s) URL.
fn is_url(token: &str) -> bool {
    let lower = token.get(..8).unwrap_or(token).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

fn origin(file: &Path, line: usize) -> Origin {
    Origin {
        file: file.to_path_buf(),
        line,
    }
}

/// A Netlify source (`/news/:year/*`, or a whole URL for a domain-level rule) as segments.
fn netlify_source(from: &str, query: Vec<(String, String)>) -> Result<Pattern, String> {
    let (origin, path) = if is_url(from) {
        let url = url::Url::parse(from).map_err(|e| format!("'{from}' is not a URL: {e}"))?;
        let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
        let origin = format!("{}://{host}{port}", url.scheme());
        let path = match from
            .find("://")
            .and_then(|at| from[at + 3..].find('/').map(|p| at + 3 + p))
        {
            Some(at) => &from[at..],
            None => "/",
        };
        (Some(origin), path)
    } else if from.starts_with('/') {
        (None, from)
    } else {
        return Err(format!(
            "'{from}' is not a path (it must start with `/`) or an http(s) URL"
        ));
    };
    let path = loc::decode(path);
    let trimmed = path.strip_prefix('/').unwrap_or(&path);
    let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
    let mut segs = Vec::new();
    let mut splat = None;
    let parts: Vec<&str> = if trimmed.is_empty() {
        Vec::new()
    } else {
        trimmed.split('/').collect()
    };
    for (i, part) in parts.iter().enumerate() {
        if let Some(prefix) = part.strip_suffix('*') {
            if i + 1 != parts.len() || prefix.contains('*') {
                return Err(format!("'{from}': a splat (`*`) may only end the path"));
            }
            splat = Some(prefix.to_string());
        } else if let Some(name) = part.strip_prefix(':').filter(|n| !n.is_empty()) {
            segs.push(Seg::Param(name.to_string()));
        } else {
            segs.push(Seg::Lit(part.to_string()));
        }
    }
    let literal = origin.is_none()
        && query.is_empty()
        && splat.is_none()
        && segs.iter().all(|s| matches!(s, Seg::Lit(_)));
    if literal {
        return Ok(Pattern::Exact(format!("/{trimmed}")));
    }
    Ok(Pattern::Segments(Segments {
        origin,
        segs,
        splat,
        query,
    }))
}

/// The statuses Cloudflare Pages accepts in `_redirects`.
const CLOUDFLARE_STATUSES: [u16; 6] = [200, 301, 302, 303, 307, 308];

/// Cloudflare Pages' `_redirects`: its rules with those without `*` or a placeholder first
/// (up to the first one with either, as Cloudflare counts them), each in file order.
pub(crate) fn cloudflare_redirects(text: &str, file: &Path) -> Read {
    let mut out = Read::default();
    let (mut fixed, mut dynamic) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for (n, line) in text.split('\n').enumerate() {
        let line_no = n + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut tokens: Vec<&str> = line.split_whitespace().collect();
        if let Some(at) = tokens.iter().skip(2).position(|t| t.starts_with('#')) {
            tokens.truncate(at + 2);
        }
        if !(2..=3).contains(&tokens.len()) {
            out.warn(
                file,
                line_no,
                format!(
                    "Cloudflare takes `source destination [status]`, this line has {} parts",
                    tokens.len()
                ),
            );
            continue;
        }
        let (from, to) = (tokens[0], tokens[1]);
        let status = match tokens.get(2).map(|s| s.parse::<u16>()) {
            None => 302,
            Some(Ok(s)) if CLOUDFLARE_STATUSES.contains(&s) => s,
            Some(_) => {
                out.warn(
                    file,
                    line_no,
                    format!(
                        "'{}' is not a status Cloudflare takes (200, 301, 302, 303, 307, 308)",
                        tokens[2]
                    ),
                );
                continue;
            }
        };
        if is_url(from) {
            out.warn(
                file,
                line_no,
                "Cloudflare takes only paths as sources, not URLs",
            );
            continue;
        }
        let path = if from.starts_with('/') {
            loc::decode(from)
        } else {
            format!("/{}", loc::decode(from))
        };
        // A fragment is the browser's; a query is not matched.
        let path = path
            .split(['#', '?'])
            .next()
            .unwrap_or_default()
            .to_string();
        if !seen.insert(path.clone()) {
            out.warn(
                file,
                line_no,
                format!("another rule above has the source {path}"),
            );
            continue;
        }
        if status == 200 && is_url(to) {
            out.warn(
                file,
                line_no,
                "Cloudflare proxies (200) only to paths of the site",
            );
            continue;
        }
        let is_dynamic = path.contains('*') || has_placeholder(&path);
        let pattern = if !is_dynamic {
            Pattern::Exact(path.clone())
        } else {
            match cloudflare_regex(&path) {
                Ok(c) => Pattern::Regex(c),
                Err(why) => {
                    out.warn(file, line_no, why);
                    continue;
                }
            }
        };
        let rule = Rule::new(origin(file, line_no), from, to, status, pattern);
        // Once a rule with `*` or a placeholder is seen, Cloudflare counts every later rule
        // as dynamic: tried in order after the static ones.
        if is_dynamic || !dynamic.is_empty() {
            dynamic.push(rule);
        } else {
            fixed.push(rule);
        }
    }
    out.rules = fixed;
    out.rules.extend(dynamic);
    out
}

/// Whether a Cloudflare source has a `:placeholder` (a colon and a letter).
fn has_placeholder(path: &str) -> bool {
    path.as_bytes()
        .windows(2)
        .any(|w| w[0] == b':' && w[1].is_ascii_alphabetic())
}

/// Cloudflare's source as a regular expression: `*` any text, `:name` any text but `/`.
fn cloudflare_regex(path: &str) -> Result<Compiled, String> {
    let mut re = String::from("^");
    let mut names = Vec::new();
    let b = path.as_bytes();
    let mut i = 0;
    let mut literal = String::new();
    // The text before the first `*` or placeholder: every match starts with it.
    let mut prefix = None;
    let mut flush = |re: &mut String, literal: &mut String| {
        prefix.get_or_insert_with(|| literal.clone());
        re.push_str(&regex_escape(literal));
        literal.clear();
    };
    while i < b.len() {
        if b[i] == b'*' {
            flush(&mut re, &mut literal);
            if names.iter().any(|n| n == "splat") {
                return Err(format!("'{path}' has more than one `*`"));
            }
            names.push("splat".to_string());
            re.push_str("(?P<splat>.*)");
            i += 1;
        } else if b[i] == b':' && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            flush(&mut re, &mut literal);
            let len = b[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            let name = &path[i + 1..i + 1 + len];
            if names.iter().any(|n| n == name) {
                return Err(format!("'{path}' names :{name} twice"));
            }
            names.push(name.to_string());
            re.push_str(&format!("(?P<{name}>[^/]+)"));
            i += 1 + len;
        } else {
            let ch = path[i..].chars().next().unwrap_or_default();
            literal.push(ch);
            i += ch.len_utf8();
        }
    }
    flush(&mut re, &mut literal);
    re.push('$');
    let first = first_literal_segment(path);
    Compiled::new(&re, false, first, &prefix.unwrap_or_default())
}

/// The first segment of a source when it is plain text and ends at a `/` (every path the
/// source matches starts with it).
pub(crate) fn first_literal_segment(source: &str) -> Option<String> {
    let rest = source.strip_prefix('/')?;
    let end = rest.find('/')?;
    let seg = &rest[..end];
    let plain = !seg.is_empty()
        && seg.bytes().all(|b| {
            !matches!(
                b,
                b'*' | b':' | b'(' | b')' | b'{' | b'}' | b'?' | b'+' | b'\\' | b'[' | b'|'
            )
        });
    plain.then(|| seg.to_string())
}

/// `text` with the regular expression syntax characters escaped.
pub(crate) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '.'
                | '+'
                | '*'
                | '?'
                | '('
                | ')'
                | '|'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | '$'
                | '#'
                | '&'
                | '-'
                | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `[[redirects]]` of a `netlify.toml` (its rules come after those of `_redirects`).
pub(crate) fn netlify_toml(text: &str, file: &Path) -> Read {
    let mut out = Read::default();
    if let Some(line) = crate::vocab::limits::toml_too_deep(text) {
        out.warn(file, line, "TOML nested too deeply to read");
        return out;
    }
    /// One `[[redirects]]` entry; its rule's line is its `from` line.
    #[derive(serde::Deserialize)]
    struct Entry {
        from: Option<toml::Spanned<String>>,
        to: Option<String>,
        status: Option<toml::Value>,
        #[serde(default)]
        force: bool,
        #[serde(default)]
        query: toml::Table,
        #[serde(default)]
        conditions: toml::Table,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        #[serde(default)]
        redirects: Vec<toml::Spanned<Entry>>,
        #[serde(default)]
        build: Option<toml::Table>,
    }
    let doc: Doc = match toml::from_str(text) {
        Ok(d) => d,
        Err(e) => {
            let line = e
                .span()
                .map(|s| crate::vocab::config_text::line_of(text, s.start))
                .unwrap_or(1);
            out.warnings.push(format!(
                "{}:{line}: {}; its redirects are not read",
                file.display(),
                e.message().trim()
            ));
            return out;
        }
    };
    out.pretty_urls = doc.build.as_ref().and_then(|b| {
        b.get("processing")?
            .get("html")?
            .get("pretty_urls")?
            .as_bool()
    });
    for spanned in doc.redirects {
        let start = spanned
            .get_ref()
            .from
            .as_ref()
            .map_or(spanned.span().start, |f| f.span().start);
        let line = crate::vocab::config_text::line_of(text, start);
        let entry = spanned.into_inner();
        let (Some(from), Some(to)) = (entry.from, entry.to) else {
            out.warn(file, line, "a [[redirects]] entry needs `from` and `to`");
            continue;
        };
        let from = from.into_inner();
        let status = match entry.status {
            None => 301,
            Some(toml::Value::Integer(s)) if (100..600).contains(&s) => s as u16,
            Some(other) => {
                out.warn(file, line, format!("status = {other} is not a status code"));
                continue;
            }
        };
        let query: Vec<(String, String)> = entry
            .query
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect();
        let pattern = match netlify_source(&from, query) {
            Ok(p) => p,
            Err(why) => {
                out.warn(file, line, why);
                continue;
            }
        };
        let mut rule = Rule::new(origin(file, line), &from, &to, status, pattern);
        rule.force = entry.force;
        rule.conditions = entry
            .conditions
            .iter()
            .map(|(k, v)| {
                let values = match v {
                    toml::Value::Array(a) => a
                        .iter()
                        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(","),
                    other => other
                        .as_str()
                        .map_or_else(|| other.to_string(), str::to_string),
                };
                format!("{k}={values}")
            })
            .collect();
        if !is_redirect(rule.status) && rule.status != 200 && rule.status < 400 {
            out.warn(
                file,
                line,
                format!("status {} is neither a redirect nor a rewrite", rule.status),
            );
            continue;
        }
        out.rules.push(rule);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::rules::{Dialect, Judged, Request, RuleSet, tests::req};
    use super::*;

    fn netlify(text: &str) -> (RuleSet, Vec<String>) {
        let read = netlify_redirects(text, Path::new("_redirects"));
        (RuleSet::new(Dialect::Netlify, read.rules), read.warnings)
    }

    fn cloudflare(text: &str) -> (RuleSet, Vec<String>) {
        let read = cloudflare_redirects(text, Path::new("_redirects"));
        (RuleSet::new(Dialect::Cloudflare, read.rules), read.warnings)
    }

    /// The line of the rule that redirects `path` (no file there), if one does.
    fn redirected(set: &RuleSet, path: &str) -> Option<usize> {
        match set.judge(&req(path), false) {
            Some(Judged::Redirect { rule, .. }) => Some(rule.origin.line),
            _ => None,
        }
    }

    #[test]
    fn netlify_lines_statuses_force_queries_and_conditions() {
        let (set, warnings) = netlify(
            "# comment\n\
             /home              /\n\
             /blog/my-post.php  /blog/my-post   302   # moved\n\
             /store id=:id      /blog/:id       301\n\
             /app/*             /app/index.html 200!\n\
             /fr/*              /fr/404.html    404\n\
             /                  /anz            302   Country=au,nz\n\
             /broken\n\
             /x                 /y              3o1\n",
        );
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("_redirects:8: no destination"));
        assert!(warnings[1].starts_with("_redirects:9: '3o1'"));
        let rules = set.rules();
        assert_eq!((rules[0].status, rules[0].force), (301, false));
        assert_eq!(rules[1].status, 302);
        assert_eq!((rules[3].status, rules[3].force), (200, true));
        assert_eq!(rules[5].conditions, vec!["Country=au,nz".to_string()]);
        assert_eq!(redirected(&set, "/home/"), Some(2));
        assert_eq!(redirected(&set, "/blog/my-post.php"), Some(3));
        // A query parameter the URL does not carry: the rule does not meet it.
        assert_eq!(redirected(&set, "/store"), None);
        let with_id = Request {
            query: Some("id=7"),
            ..req("/store")
        };
        assert!(matches!(
            set.judge(&with_id, false),
            Some(Judged::Redirect { to, .. }) if to == "/blog/7"
        ));
        assert_eq!(set.judge(&req("/app/x"), true), None, "a 200 rewrite");
        assert!(matches!(
            set.judge(&req("/fr/a/"), false),
            Some(Judged::Status { .. })
        ));
        assert!(matches!(
            set.judge(&req("/"), false),
            Some(Judged::MayRedirect { .. })
        ));
    }

    #[test]
    fn netlify_domain_level_rules_meet_their_host_only() {
        let (set, _) = netlify(
            "https://example.com/* https://www.example.com/:splat 301!\n\
             http://blog.example.com/* https://www.example.com/blog/:splat 301!\n",
        );
        assert!(matches!(
            set.judge(&req("/a/"), true),
            Some(Judged::Redirect { to, .. }) if to == "https://www.example.com/a"
        ));
        let www = Request {
            origin: "https://www.example.com",
            ..req("/a/")
        };
        assert_eq!(set.judge(&www, true), None);
    }

    #[test]
    fn netlify_sources_decode_and_splats_end_the_path() {
        let (set, warnings) = netlify("/authors/c%C3%A9line /authors/about 301\n/a/*/b /c\n");
        assert_eq!(redirected(&set, "/authors/céline/"), Some(1));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("splat"), "{warnings:?}");
    }

    #[test]
    fn cloudflare_takes_two_or_three_parts_and_defaults_to_302() {
        let (set, warnings) = cloudflare(
            "/a /b\n\
             /c /d 301 Country=fr\n\
             /e /f 301!\n\
             /g /h 404\n\
             /a /z 301\n\
             /i /j 308 # a comment\n",
        );
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings[0].starts_with("_redirects:2:"));
        assert!(warnings[1].starts_with("_redirects:3:"));
        assert!(warnings[2].starts_with("_redirects:4:"));
        assert!(warnings[3].starts_with("_redirects:5: another rule"));
        assert_eq!(set.rules()[0].status, 302);
        assert_eq!(redirected(&set, "/a"), Some(1));
        assert_eq!(redirected(&set, "/i"), Some(6));
        // Exact paths: a trailing slash is another path.
        assert_eq!(redirected(&set, "/a/"), None);
    }

    #[test]
    fn cloudflare_applies_rules_over_files_and_static_ones_first() {
        let (set, _) = cloudflare(
            "/blog/* /news/:splat 301\n\
             /blog/keep /blog/keep-here 302\n\
             /docs/old /docs/new 301\n\
             /movies/:title /films/:title 301\n",
        );
        // Line 3 comes before any dynamic rule only in being static: it is tried first.
        assert_eq!(redirected(&set, "/docs/old"), Some(3));
        // Line 2 follows a dynamic rule: Cloudflare counts it dynamic, after line 1.
        assert_eq!(redirected(&set, "/blog/keep"), Some(1));
        // A file at the URL changes nothing.
        assert!(matches!(
            set.judge(&req("/movies/up"), true),
            Some(Judged::Redirect { to, .. }) if to == "/films/up"
        ));
        assert_eq!(redirected(&set, "/movies/up/down"), None);
    }

    #[test]
    fn cloudflare_refuses_two_splats_and_repeated_placeholders() {
        let (set, warnings) = cloudflare("/a/*/b/* /c 301\n/:x/:x /d 301\n/:x-:y /e 301\n");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        // Placeholders may share a segment on Cloudflare.
        assert_eq!(redirected(&set, "/one-two"), Some(3));
    }

    #[test]
    fn netlify_toml_redirects() {
        let text = r#"
[build]
publish = "public"

[[redirects]]
from = "/old/*"
to = "/new/:splat"

[[redirects]]
  from = "/shop"
  to = "/store"
  status = 302
  force = true
  conditions = {Language = ["en", "de"]}

[[redirects]]
from = "/nope"
"#;
        let read = netlify_toml(text, Path::new("netlify.toml"));
        assert_eq!(read.warnings.len(), 1, "{:?}", read.warnings);
        assert!(
            read.warnings[0].starts_with("netlify.toml:17:"),
            "{:?}",
            read.warnings
        );
        assert_eq!(read.rules.len(), 2);
        assert_eq!(read.rules[0].origin.line, 6, "the `from` line");
        assert_eq!(read.rules[0].status, 301);
        assert_eq!(read.rules[1].origin.line, 10);
        assert!(read.rules[1].force);
        assert_eq!(read.rules[1].conditions, vec!["Language=en,de".to_string()]);
        let bad = netlify_toml("[[redirects]\nfrom=", Path::new("netlify.toml"));
        assert!(bad.rules.is_empty());
        assert!(
            bad.warnings[0].starts_with("netlify.toml:1:"),
            "{:?}",
            bad.warnings
        );
    }
}
