//! Hugo's list of permalink rules (0.161+): `[[permalinks]]` entries, each a `pattern` and a
//! `target` page matcher, read as Hugo reads them (`resources/page/permalinks.go`,
//! `decodePermalinksSlice`; `resources/page/page_matcher.go`, `PageMatcher.Match`).
//!
//! For a home, section, taxonomy, term or regular page the first rule whose target matches
//! gives the pattern. A target matches when each field it sets matches: `kind` (a glob of
//! the kind's name), `path` (a glob of the page's logical path: `/posts/my-post`, lower case,
//! spaces `-`, no extension or language), `environment` (a glob of Hugo's environment) and
//! `sites.matrix.languages` (globs of the language keys; when they name none of the site's
//! languages, every language). A rule without `target` takes every page; `lang` is read but
//! not matched; an empty pattern gives the page its usual path and ends the search.

use super::glob::HugoGlob;
use super::permalink_tokens::check_page_permalink;
use crate::vocab::config_text::get;
use serde_json::Value;

/// The rules, in the config's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PermalinkRules {
    rules: Vec<Rule>,
}

/// One rule.
#[derive(Clone, Debug, PartialEq)]
struct Rule {
    pattern: String,
    kind: Option<HugoGlob>,
    path: Option<HugoGlob>,
    /// The languages it is for; none: every language.
    langs: Option<Vec<String>>,
}

/// A rule Hugo stops at: the keys below `permalinks` naming the value, and what is wrong.
#[derive(Debug, PartialEq)]
pub struct RuleError {
    pub keys: Vec<String>,
    pub message: String,
}

impl PermalinkRules {
    /// No rules (the site's `permalinks` is a table, or unset).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Every rule's pattern.
    pub fn patterns(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.pattern.as_str())
    }

    /// The pattern of the first rule whose target matches a page of `kind` (`page`,
    /// `section`, `home`, `taxonomy`, `term`) at the logical `path` in `lang`; none when no
    /// rule matches or the first that does has an empty pattern.
    pub fn pattern_for(&self, kind: &str, path: &str, lang: &str) -> Option<&str> {
        let rule = self.rules.iter().find(|r| {
            r.kind.as_ref().is_none_or(|g| g.is_match(kind))
                && r.path.as_ref().is_none_or(|g| g.is_match(path))
                && r.langs.as_ref().is_none_or(|l| l.iter().any(|x| x == lang))
        })?;
        Some(rule.pattern.as_str()).filter(|p| !p.is_empty())
    }
}

/// Reads the list `entries` (the value of `permalinks`) for a build in `environment` of a
/// site whose languages are `langs` (in Hugo's order). An entry that is no table is passed
/// over, as Hugo does; the rules whose `environment` does not match are left out once
/// checked.
pub fn read(
    entries: &[Value],
    environment: &str,
    langs: &[&str],
) -> Result<PermalinkRules, RuleError> {
    let mut rules = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let Value::Object(entry) = entry else {
            continue;
        };
        let at = |keys: &[&str], message: String| RuleError {
            keys: std::iter::once(i.to_string())
                .chain(keys.iter().map(|k| k.to_string()))
                .collect(),
            message,
        };
        // Hugo reads these two keys as written: `Pattern` is no pattern.
        let pattern = match entry.get("pattern") {
            Some(Value::String(p)) => p.clone(),
            Some(other) => {
                let m = format!("a permalink rule's `pattern` must be text, not {other}");
                return Err(at(&["pattern"], m));
            }
            None => {
                let m =
                    "a permalink rule has no `pattern` (written in lower case, as Hugo reads it)";
                return Err(at(&[], m.to_string()));
            }
        };
        // Hugo checks every pattern, whether or not a page will match it.
        check_page_permalink(&pattern).map_err(|m| at(&["pattern"], m))?;
        let Some(target) = entry.get("target") else {
            rules.push(Rule {
                pattern,
                kind: None,
                path: None,
                langs: None,
            });
            continue;
        };
        if !target.is_object() {
            let m = format!("a permalink rule's `target` must be a table, not {target}");
            return Err(at(&["target"], m));
        }
        // Each field is text as Go's weak decoding makes it (a number, a boolean `1`/`0`).
        let field = |key: &str| -> Result<Option<String>, RuleError> {
            match get(target, key).map(weak_string) {
                None => Ok(None),
                Some(Some(s)) => Ok(Some(s).filter(|s| !s.is_empty())),
                Some(None) => Err(at(
                    &["target", key],
                    format!("a permalink target's `{key}` must be text"),
                )),
            }
        };
        let glob = |key: &str| -> Result<Option<HugoGlob>, RuleError> {
            field(key)?
                .map(|g| HugoGlob::new(&g))
                .transpose()
                .map_err(|e| {
                    at(
                        &["target", key],
                        format!("a permalink target's `{key}`: {e}"),
                    )
                })
        };
        let kind = glob("kind")?;
        let path = glob("path")?;
        let env = glob("environment")?;
        // `lang` is decoded (so must be text) but never matched.
        field("lang")?;
        let languages = matrix_languages(target).map_err(|(k, m)| {
            let mut keys = vec!["target", "sites", "matrix"];
            keys.extend(k);
            at(&keys, m)
        })?;
        let langs = language_filter(&languages, langs)
            .map_err(|m| at(&["target", "sites", "matrix", "languages"], m))?;
        if env.is_some_and(|g| !g.is_match(environment)) {
            continue;
        }
        rules.push(Rule {
            pattern,
            kind,
            path,
            langs,
        });
    }
    Ok(PermalinkRules { rules })
}

/// A value as Go's weak decoding makes it text; none for a list or a table.
fn weak_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        Value::Number(n) => Some(match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        }),
        Value::Null => Some(String::new()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// `target.sites.matrix.languages`: a text or a list of texts. The matrix's `versions` and
/// `roles` are checked the same way; on a site without versions or roles they match every
/// page, so they are not kept. The error names the key below `matrix`.
type MatrixError = (Option<&'static str>, String);
fn matrix_languages(target: &Value) -> Result<Vec<String>, MatrixError> {
    let Some(sites) = get(target, "sites") else {
        return Ok(Vec::new());
    };
    let Some(matrix) = get(sites, "matrix") else {
        return Ok(Vec::new());
    };
    if !sites.is_object() || !matrix.is_object() {
        return Err((
            None,
            "a permalink target's `sites.matrix` must be a table".into(),
        ));
    }
    let mut languages = Vec::new();
    for key in ["languages", "versions", "roles"] {
        let values = match get(matrix, key) {
            None => Some(Vec::new()),
            Some(Value::Array(a)) => a.iter().map(weak_string).collect::<Option<Vec<_>>>(),
            Some(v) => weak_string(v).map(|s| vec![s]),
        }
        .ok_or_else(|| {
            (
                Some(key),
                format!("`sites.matrix.{key}` must be text or a list of texts"),
            )
        })?;
        if key == "languages" {
            languages = values;
        }
    }
    Ok(languages)
}

/// The site languages (`langs`, in Hugo's order) that the `sites.matrix.languages` patterns
/// pick, as Hugo's predicate does: a glob adds (`"f*"`), `"! en"` takes away, `">= en"`,
/// `"< fr"` (`>`, `>=`, `<`, `<=`, `==`, `!=` and a space) compare places in the order,
/// each test in turn; none when there are no patterns or they pick no language (Hugo then
/// takes every language).
fn language_filter(patterns: &[String], langs: &[&str]) -> Result<Option<Vec<String>>, String> {
    /// One test, joined to those before it by AND (`!`, a comparison) or OR (a glob).
    enum Test {
        Or(HugoGlob),
        Not(HugoGlob),
        Place(&'static str, Option<usize>),
    }
    let mut tests = Vec::new();
    for p in patterns.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let ops = [">= ", "<= ", "== ", "!= ", "> ", "< "];
        if let Some(rest) = p.strip_prefix("! ") {
            tests.push(Test::Not(HugoGlob::dotted(rest)?));
        } else if let Some(op) = ops.iter().find(|op| p.starts_with(**op)) {
            let at = langs.iter().position(|l| *l == &p[op.len()..]);
            tests.push(Test::Place(op.trim_end(), at));
        } else {
            tests.push(Test::Or(HugoGlob::dotted(p)?));
        }
    }
    if tests.is_empty() {
        return Ok(None);
    }
    /// Hugo's predicate results: a failed AND stops every later test.
    #[derive(Clone, Copy, PartialEq)]
    enum M {
        Yes,
        No,
        Stop,
    }
    let picks = |index: usize, lang: &str| -> bool {
        let mut state: Option<M> = None;
        for t in &tests {
            let and = |ok: bool| match state {
                None | Some(M::Yes) if ok => M::Yes,
                _ => M::Stop,
            };
            state = Some(match t {
                Test::Or(g) => match state {
                    Some(M::Yes) => M::Yes,
                    Some(M::Stop) => M::Stop,
                    _ if g.is_match(lang) => M::Yes,
                    _ => M::No,
                },
                Test::Not(g) => and(!g.is_match(lang)),
                Test::Place(op, at) => and(at.is_some_and(|at| match *op {
                    ">" => index < at,
                    ">=" => index <= at,
                    "<" => index > at,
                    "<=" => index >= at,
                    "==" => index == at,
                    _ => index != at,
                })),
            });
        }
        state == Some(M::Yes)
    };
    let picked: Vec<String> = (langs.iter().enumerate())
        .filter(|(i, l)| picks(*i, l))
        .map(|(_, l)| l.to_string())
        .collect();
    Ok(Some(picked).filter(|p| !p.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(v: Value) -> Result<PermalinkRules, RuleError> {
        read(v.as_array().unwrap(), "production", &["en", "fr"])
    }

    #[test]
    fn the_first_rule_whose_target_matches_gives_the_pattern() {
        let r = rules(json!([
            {"pattern": "/first/:slug/", "target": {"kind": "page", "path": "/posts/sub/**"}},
            {"pattern": "/second/:slug/", "target": {"kind": "PAGE", "path": "/Posts/**"}},
            {"pattern": "/sec/:sections/", "target": {"kind": "{section,taxonomy}"}},
            {"pattern": "/fr/:slug/", "target": {"path": "/b/**", "sites": {"matrix": {"languages": ["fr"]}}}},
            {"pattern": "/dev/:slug/", "target": {"path": "/c/**", "environment": "development"}},
            {"pattern": "", "target": {"path": "/d/**"}},
            {"pattern": "/all/:slug/", "target": {"lang": "fr"}},
            "not a table",
        ]))
        .unwrap();
        let p = |kind, path, lang| r.pattern_for(kind, path, lang);
        assert_eq!(p("page", "/posts/sub/b", "en"), Some("/first/:slug/"));
        assert_eq!(p("page", "/posts/a", "en"), Some("/second/:slug/"));
        assert_eq!(p("section", "/posts", "en"), Some("/sec/:sections/"));
        assert_eq!(p("page", "/b/x", "fr"), Some("/fr/:slug/"));
        // `lang` is not matched; an environment rule of another environment is gone.
        assert_eq!(p("page", "/b/x", "en"), Some("/all/:slug/"));
        assert_eq!(p("page", "/c/x", "en"), Some("/all/:slug/"));
        // An empty pattern ends the search: the page keeps its usual path.
        assert_eq!(p("page", "/d/x", "en"), None);
        assert_eq!(r.patterns().count(), 6);
    }

    #[test]
    fn rules_hugo_stops_at_name_their_key() {
        let err = |v: Value| rules(v).unwrap_err();
        let e = err(json!([{"pattern": "/a/"}, {"Pattern": "/x/"}]));
        assert_eq!(e.keys, ["1"]);
        let e = err(json!([{"pattern": 5}]));
        assert_eq!(e.keys, ["0", "pattern"]);
        let e = err(json!([{"pattern": "/x/:foo/"}]));
        assert!(e.message.contains(":foo"), "{}", e.message);
        let e = err(json!([{"pattern": "/x/", "target": "page"}]));
        assert_eq!(e.keys, ["0", "target"]);
        let e = err(json!([{"pattern": "/x/", "target": {"path": "/posts/["}}]));
        assert_eq!(e.keys, ["0", "target", "path"]);
        let e = err(json!([{"pattern": "/x/", "target": {"kind": ["page"]}}]));
        assert_eq!(e.keys, ["0", "target", "kind"]);
        let e = err(json!([{"pattern": "/x/", "target": {"environment": "{a"}}]));
        assert_eq!(e.keys, ["0", "target", "environment"]);
        // A number is text to Hugo (and no kind); a key Hugo does not know is passed over.
        let r = rules(json!([{"pattern": "/x/", "target": {"kind": 1, "bar": 2}, "foo": 1}]));
        assert_eq!(r.unwrap().pattern_for("page", "/a", "en"), None);
    }

    #[test]
    fn matrix_languages_pick_as_hugos_predicate_does() {
        let langs = ["en", "fr", "de"];
        let pick = |p: &[&str]| {
            let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
            language_filter(&p, &langs).unwrap()
        };
        let some = |l: &[&str]| Some(l.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(pick(&["fr"]), some(&["fr"]));
        assert_eq!(pick(&["f*", "d*"]), some(&["fr", "de"]));
        assert_eq!(pick(&["! en"]), some(&["fr", "de"]));
        assert_eq!(pick(&["fr", "! en"]), some(&["fr"]));
        assert_eq!(pick(&[">= fr"]), some(&["en", "fr"]));
        assert_eq!(pick(&["< en"]), some(&["fr", "de"]));
        // None picked (an unknown language, another case), or no pattern: every language.
        assert_eq!(pick(&["es"]), None);
        assert_eq!(pick(&["FR"]), None);
        assert_eq!(pick(&[" "]), None);
        assert_eq!(pick(&["> xx"]), None);
    }
}
