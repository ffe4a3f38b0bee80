//! `vercel.json`: `redirects` (path-to-regexp sources, compiled as Vercel's routing does:
//! strict, delimiter `/`, matched without regard to case), `cleanUrls` and `trailingSlash`.
//!
//! Vercel applies `cleanUrls`, `trailingSlash` and then `redirects` before it looks for a
//! file, so a rule that meets a URL always answers. `has` and `missing` conditions on a
//! header or a cookie cannot be known from the files: such a rule "may" redirect. A host or
//! query condition is checked. `rewrites` answer 200 and `routes` (the legacy form) are not
//! read; the latter is said.

use super::netlify::{Read, first_literal_segment, regex_escape};
use super::rules::{Compiled, Origin, Pattern, Rule};
use std::path::Path;

/// What `vercel.json` says about redirects and URL forms.
#[derive(Debug, Default)]
pub(crate) struct VercelConfig {
    /// `redirects`, in order.
    pub read: Read,
    /// `cleanUrls`.
    pub clean_urls: bool,
    /// `trailingSlash`, when set.
    pub trailing_slash: Option<bool>,
    /// Said in `--verbose`: parts of the file not read.
    pub notes: Vec<String>,
}

/// Reads `vercel.json`; `origin` is the site's `scheme://host` (for `has` host conditions).
pub(crate) fn vercel_json(text: &str, file: &Path, origin: &str) -> VercelConfig {
    let mut out = VercelConfig::default();
    let doc: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            out.read.warnings.push(format!(
                "{}:{}: {e}; its redirects are not read",
                file.display(),
                e.line()
            ));
            return out;
        }
    };
    out.clean_urls = doc.get("cleanUrls").and_then(serde_json::Value::as_bool) == Some(true);
    out.trailing_slash = doc
        .get("trailingSlash")
        .and_then(serde_json::Value::as_bool);
    if doc.get("routes").is_some() {
        out.notes.push(format!(
            "{}: `routes` (Vercel's legacy form) is not read; `redirects` is",
            file.display()
        ));
    }
    let lines = element_lines(text, "redirects", "source");
    let Some(list) = doc.get("redirects").and_then(serde_json::Value::as_array) else {
        return out;
    };
    for (k, entry) in list.iter().enumerate() {
        let line = lines.get(k).copied().unwrap_or(1);
        let text_of = |key: &str| entry.get(key).and_then(serde_json::Value::as_str);
        let (Some(source), Some(destination)) = (text_of("source"), text_of("destination")) else {
            out.read
                .warn_line(file, line, "a redirect needs `source` and `destination`");
            continue;
        };
        let status = match (
            entry.get("permanent").and_then(serde_json::Value::as_bool),
            entry.get("statusCode").and_then(serde_json::Value::as_u64),
        ) {
            (Some(true), _) => 308,
            (Some(false), _) => 307,
            (None, Some(code)) if (300..400).contains(&code) => code as u16,
            (None, Some(code)) => {
                out.read
                    .warn_line(file, line, format!("statusCode {code} is not a redirect"));
                continue;
            }
            // routing-utils' default for redirects.
            (None, None) => 308,
        };
        let pattern = match compile_source(source) {
            Ok(p) => p,
            Err(why) => {
                out.read
                    .warn_line(file, line, format!("source '{source}': {why}"));
                continue;
            }
        };
        let mut rule = Rule::new(
            Origin {
                file: file.to_path_buf(),
                line,
            },
            source,
            destination,
            status,
            pattern,
        );
        let mut never = false;
        for (kind, list) in [("has", true), ("missing", false)] {
            for cond in entry
                .get(kind)
                .and_then(serde_json::Value::as_array)
                .into_iter()
                .flatten()
            {
                match condition(cond, list, origin) {
                    Condition::Holds => {}
                    Condition::Fails => never = true,
                    Condition::Unknown(c) => rule.conditions.push(format!("{kind}: {c}")),
                }
            }
        }
        // A condition that fails for the site's own URLs: the rule never meets them.
        if !never {
            out.read.rules.push(rule);
        }
    }
    out
}

impl Read {
    /// A warning for `file:line`: the host ignores this rule.
    pub(crate) fn warn_line(&mut self, file: &Path, line: usize, why: impl std::fmt::Display) {
        self.warnings.push(format!(
            "{}:{line}: {why}; the host ignores this rule",
            file.display()
        ));
    }
}

/// What a `has` (`present`) or `missing` condition says about a crawler's request for one
/// of the site's URLs (no query, the site's own host).
enum Condition {
    Holds,
    Fails,
    Unknown(String),
}

fn condition(cond: &serde_json::Value, present: bool, origin: &str) -> Condition {
    let kind = cond
        .get("type")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    let value = cond.get("value").and_then(serde_json::Value::as_str);
    let outcome = |matches: bool| {
        if matches == present {
            Condition::Holds
        } else {
            Condition::Fails
        }
    };
    match kind {
        // The site's URLs have no query string.
        "query" => outcome(false),
        "host" => match value {
            Some(v)
                if v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-') =>
            {
                let host = origin.split("://").nth(1).unwrap_or(origin);
                let host = host.split(':').next().unwrap_or(host);
                outcome(host.eq_ignore_ascii_case(v))
            }
            _ => Condition::Unknown(cond.to_string()),
        },
        _ => Condition::Unknown(cond.to_string()),
    }
}

/// One token of a path-to-regexp (v6) source.
#[derive(Debug, PartialEq)]
enum Token {
    Text(String),
    Key {
        named: Option<String>,
        prefix: String,
        suffix: String,
        pattern: String,
        modifier: String,
    },
}

/// The path-to-regexp default for a parameter with Vercel's delimiter `/`.
const DEFAULT_PATTERN: &str = r"[^\/]+?";

/// Lexes and parses a path-to-regexp v6 source, as Vercel's routing does.
fn parse_source(src: &str) -> Result<Vec<Token>, String> {
    #[derive(Debug, PartialEq)]
    enum Lex {
        Modifier(char),
        Escaped(char),
        Open,
        Close,
        Name(String),
        Pattern(String),
        Char(char),
        End,
    }
    let chars: Vec<char> = src.chars().collect();
    let mut lex = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' | '+' | '?' => {
                lex.push(Lex::Modifier(c));
                i += 1;
            }
            '\\' => {
                let escaped = *chars.get(i + 1).ok_or("a `\\` ends the source")?;
                lex.push(Lex::Escaped(escaped));
                i += 2;
            }
            '{' => {
                lex.push(Lex::Open);
                i += 1;
            }
            '}' => {
                lex.push(Lex::Close);
                i += 1;
            }
            ':' => {
                let name: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .collect();
                if name.is_empty() {
                    return Err(format!("missing parameter name at {i}"));
                }
                i += 1 + name.len();
                lex.push(Lex::Name(name));
            }
            '(' => {
                let mut depth = 1;
                let mut pattern = String::new();
                let mut j = i + 1;
                if chars.get(j) == Some(&'?') {
                    return Err(format!("a pattern cannot start with `?` at {j}"));
                }
                while j < chars.len() {
                    match chars[j] {
                        '\\' => {
                            pattern.push('\\');
                            if let Some(&n) = chars.get(j + 1) {
                                pattern.push(n);
                            }
                            j += 2;
                            continue;
                        }
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        '(' => {
                            depth += 1;
                            if chars.get(j + 1) != Some(&'?') {
                                return Err(format!("capturing groups are not allowed at {j}"));
                            }
                        }
                        _ => {}
                    }
                    pattern.push(chars[j]);
                    j += 1;
                }
                if depth != 0 {
                    return Err(format!("unbalanced pattern at {i}"));
                }
                if pattern.is_empty() {
                    return Err(format!("missing pattern at {i}"));
                }
                lex.push(Lex::Pattern(pattern));
                i = j;
            }
            _ => {
                lex.push(Lex::Char(c));
                i += 1;
            }
        }
    }
    lex.push(Lex::End);

    // The parser of path-to-regexp v6, token for token.
    let lex = &lex;
    let mut at = 0;
    let mut next = move |want: fn(&Lex) -> bool| -> Option<&Lex> {
        let l = &lex[at];
        want(l).then(|| {
            at += 1;
            l
        })
    };
    let is_char = |l: &Lex| matches!(l, Lex::Char(_));
    let is_text = |l: &Lex| matches!(l, Lex::Char(_) | Lex::Escaped(_));
    let text_of = |l: Option<&Lex>| match l {
        Some(Lex::Char(c) | Lex::Escaped(c)) => Some(*c),
        _ => None,
    };
    let name_of = |l: Option<&Lex>| match l {
        Some(Lex::Name(n)) => Some(n.clone()),
        _ => None,
    };
    let pattern_of = |l: Option<&Lex>| match l {
        Some(Lex::Pattern(p)) => Some(p.clone()),
        _ => None,
    };
    let modifier_of = |l: Option<&Lex>| match l {
        Some(Lex::Modifier(c)) => c.to_string(),
        _ => String::new(),
    };
    let mut out = Vec::new();
    let mut path = String::new();
    loop {
        let ch = text_of(next(is_char));
        let name = name_of(next(|l| matches!(l, Lex::Name(_))));
        let pattern = pattern_of(next(|l| matches!(l, Lex::Pattern(_))));
        if name.is_some() || pattern.is_some() {
            let mut prefix = ch.map(String::from).unwrap_or_default();
            if !prefix.is_empty() && prefix != "/" && prefix != "." {
                path.push_str(&prefix);
                prefix.clear();
            }
            if !path.is_empty() {
                out.push(Token::Text(std::mem::take(&mut path)));
            }
            let modifier = modifier_of(next(|l| matches!(l, Lex::Modifier(_))));
            out.push(Token::Key {
                named: name,
                prefix,
                suffix: String::new(),
                pattern: pattern.unwrap_or_else(|| DEFAULT_PATTERN.to_string()),
                modifier,
            });
            continue;
        }
        if let Some(c) = ch.or_else(|| text_of(next(|l| matches!(l, Lex::Escaped(_))))) {
            path.push(c);
            continue;
        }
        if !path.is_empty() {
            out.push(Token::Text(std::mem::take(&mut path)));
        }
        if next(|l| matches!(l, Lex::Open)).is_some() {
            let mut prefix = String::new();
            while let Some(c) = text_of(next(is_text)) {
                prefix.push(c);
            }
            let name = name_of(next(|l| matches!(l, Lex::Name(_))));
            let pattern = pattern_of(next(|l| matches!(l, Lex::Pattern(_))));
            let mut suffix = String::new();
            while let Some(c) = text_of(next(is_text)) {
                suffix.push(c);
            }
            if next(|l| matches!(l, Lex::Close)).is_none() {
                return Err("a `{` is not closed".into());
            }
            let modifier = modifier_of(next(|l| matches!(l, Lex::Modifier(_))));
            let pattern = match (&name, pattern) {
                (_, Some(p)) => p,
                (Some(_), None) => DEFAULT_PATTERN.to_string(),
                (None, None) => String::new(),
            };
            out.push(Token::Key {
                named: name,
                prefix,
                suffix,
                pattern,
                modifier,
            });
            continue;
        }
        match next(|_| true) {
            Some(Lex::End) => break,
            other => return Err(format!("unexpected {other:?}")),
        }
    }
    Ok(out)
}

/// A `redirects` source compiled as Vercel does (`^…$`, strict, case folded).
fn compile_source(source: &str) -> Result<Pattern, String> {
    let tokens = parse_source(source)?;
    if let [Token::Text(text)] = tokens.as_slice() {
        return Ok(Pattern::Exact(
            crate::vocab::loc::decode(text).to_ascii_lowercase(),
        ));
    }
    let mut re = String::from("^");
    for token in &tokens {
        match token {
            Token::Text(t) => re.push_str(&regex_escape(t)),
            Token::Key {
                named,
                prefix,
                suffix,
                pattern,
                modifier,
            } => {
                let (p, s) = (regex_escape(prefix), regex_escape(suffix));
                if pattern.is_empty() {
                    re.push_str(&format!("(?:{p}{s}){modifier}"));
                    continue;
                }
                let open = match named.as_deref() {
                    Some(n) if n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
                        format!("(?P<{n}>")
                    }
                    _ => "(".to_string(),
                };
                let repeat = modifier == "+" || modifier == "*";
                if !p.is_empty() || !s.is_empty() {
                    if repeat {
                        let m = if modifier == "*" { "?" } else { "" };
                        re.push_str(&format!(
                            "(?:{p}{open}(?:{pattern})(?:{s}{p}(?:{pattern}))*){s}){m}"
                        ));
                    } else {
                        re.push_str(&format!("(?:{p}{open}{pattern}){s}){modifier}"));
                    }
                } else if repeat {
                    re.push_str(&format!("{open}(?:{pattern}){modifier})"));
                } else {
                    re.push_str(&format!("{open}{pattern}){modifier}"));
                }
            }
        }
    }
    re.push('$');
    let first = first_literal_segment(source).map(|s| s.to_ascii_lowercase());
    // Matched against the lowercased path: the leading text, lowercased.
    let prefix = match tokens.first() {
        Some(Token::Text(t)) => t.to_ascii_lowercase(),
        _ => String::new(),
    };
    Compiled::new(&re, true, first, &prefix).map(Pattern::Regex)
}

/// The 1-based line of each element of the top-level array `key`, in order: the line of its
/// `field` key when it is an object that has one, else the line it starts on.
fn element_lines(text: &str, key: &str, field: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let (mut depth, mut line, mut i) = (0usize, 1usize, 0usize);
    let mut last_key: Option<(usize, usize)> = None;
    let mut in_array = false;
    let mut expect_value = false;
    let mut out: Vec<usize> = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'"' => {
                let (start, at_line) = (i + 1, line);
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                let s = &text[start..i.min(text.len())];
                if in_array && depth == 2 && expect_value {
                    out.push(at_line);
                    expect_value = false;
                }
                if depth == 1 {
                    last_key = Some((start, i));
                }
                // The element's `field` key (a key: followed by `:`).
                let is_key = text[i.min(text.len())..]
                    .trim_start_matches(|ch: char| ch == '"' || ch.is_whitespace())
                    .starts_with(':');
                if in_array
                    && depth == 3
                    && s == field
                    && is_key
                    && let Some(last) = out.last_mut()
                {
                    *last = at_line;
                }
            }
            b'{' | b'[' => {
                if in_array && depth == 2 && expect_value {
                    out.push(line);
                    expect_value = false;
                }
                depth += 1;
                if c == b'[' && depth == 2 {
                    in_array = last_key.is_some_and(|(s, e)| &text[s..e] == key);
                    expect_value = in_array;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth < 2 {
                    in_array = false;
                }
            }
            b',' if in_array && depth == 2 => expect_value = true,
            c if !c.is_ascii_whitespace() && in_array && depth == 2 && expect_value => {
                out.push(line);
                expect_value = false;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::rules::{Dialect, Judged, RuleSet, tests::req};
    use super::*;

    fn rules(json: &str) -> (RuleSet, VercelConfig) {
        let mut cfg = vercel_json(json, Path::new("vercel.json"), "https://example.com");
        let set = RuleSet::new(Dialect::Vercel, std::mem::take(&mut cfg.read.rules));
        (set, cfg)
    }

    fn redirected(set: &RuleSet, path: &str) -> Option<(usize, u16, String)> {
        match set.judge(&req(path), true) {
            Some(Judged::Redirect { rule, to }) => {
                Some((rule.origin.line, rule.status, to.to_string()))
            }
            _ => None,
        }
    }

    #[test]
    fn sources_compile_as_path_to_regexp_does() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            ("/about", &["/about", "/ABOUT"], &["/about/", "/about/x"]),
            (
                "/blog/:slug",
                &["/blog/a"],
                &["/blog", "/blog/", "/blog/a/b"],
            ),
            (
                "/blog/:slug*",
                &["/blog", "/blog/a", "/blog/a/b"],
                &["/blogs", "/blog/"],
            ),
            ("/blog/:slug+", &["/blog/a", "/blog/a/b"], &["/blog"]),
            ("/blog/:slug?", &["/blog", "/blog/a"], &["/blog/a/b"]),
            ("/old/(.*)", &["/old/", "/old/a/b"], &["/old"]),
            ("/post-:id(\\d+)", &["/post-12"], &["/post-x"]),
            (
                "/docs{/:v}?/intro",
                &["/docs/intro", "/docs/v2/intro"],
                &["/docs/v2/v3/intro"],
            ),
        ];
        for (source, yes, no) in cases {
            let json = format!(
                r#"{{"redirects":[{{"source":{},"destination":"/x"}}]}}"#,
                serde_json::to_string(source).unwrap()
            );
            let (set, cfg) = rules(&json);
            assert!(
                cfg.read.warnings.is_empty(),
                "{source}: {:?}",
                cfg.read.warnings
            );
            for p in *yes {
                assert!(redirected(&set, p).is_some(), "{source} should meet {p}");
            }
            for p in *no {
                assert!(
                    redirected(&set, p).is_none(),
                    "{source} should not meet {p}"
                );
            }
        }
    }

    #[test]
    fn statuses_lines_and_conditions() {
        let json = r#"{
  "cleanUrls": true,
  "trailingSlash": false,
  "redirects": [
    { "source": "/a", "destination": "/b" },
    { "source": "/c", "destination": "/d", "permanent": false },
    {
      "source": "/e/:path*",
      "destination": "https://other.org/:path*",
      "statusCode": 301
    },
    { "source": "/f", "destination": "/g", "has": [{ "type": "cookie", "key": "beta" }] },
    { "source": "/h", "destination": "/i", "has": [{ "type": "host", "value": "other.org" }] },
    { "source": "/j", "destination": "/k", "missing": [{ "type": "query", "key": "x" }] },
    { "source": "/(?!x)", "destination": "/k" },
    { "source": "/l" }
  ]
}"#;
        let (set, cfg) = rules(json);
        assert!(cfg.clean_urls);
        assert_eq!(cfg.trailing_slash, Some(false));
        assert_eq!(redirected(&set, "/a"), Some((5, 308, "/b".into())));
        assert_eq!(redirected(&set, "/c"), Some((6, 307, "/d".into())));
        assert_eq!(
            redirected(&set, "/e/x/y"),
            Some((8, 301, "https://other.org/x/y".into()))
        );
        assert!(matches!(
            set.judge(&req("/f"), true),
            Some(Judged::MayRedirect { rule }) if rule.origin.line == 12
        ));
        // A host condition for another host never meets the site's URLs.
        assert_eq!(redirected(&set, "/h"), None);
        assert_eq!(redirected(&set, "/j"), Some((14, 308, "/k".into())));
        assert_eq!(cfg.read.warnings.len(), 2, "{:?}", cfg.read.warnings);
        assert!(cfg.read.warnings[0].starts_with("vercel.json:15: source '/(?!x)'"));
        assert!(cfg.read.warnings[1].starts_with("vercel.json:16:"));
    }

    #[test]
    fn element_lines_skip_strings_and_nested_values() {
        let json = "{\"x\": [\"redirects\"],\n \"redirects\": [\n {\"a\": [1, {\"b\": 2}]},\n\n {}, \"s\", {\n\"x\": \"source\",\n \"source\": 1}]}";
        assert_eq!(element_lines(json, "redirects", "source"), vec![3, 5, 5, 7]);
        assert_eq!(
            element_lines("{}", "redirects", "source"),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn a_broken_file_is_a_warning() {
        let cfg = vercel_json(
            "{\n\"redirects\": [\n}",
            Path::new("vercel.json"),
            "https://e.org",
        );
        assert!(cfg.read.rules.is_empty());
        assert!(
            cfg.read.warnings[0].starts_with("vercel.json:3:"),
            "{:?}",
            cfg.read.warnings
        );
    }
}
