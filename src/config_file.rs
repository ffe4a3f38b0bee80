//! What every reader of a config file shares (sitemap.toml, and the site's Zola or Hugo
//! config): the line a value sits on, errors that name it, the TOML nesting guard, and glob
//! sets named after the file they came from. It sits below `config`, `siteconfig` and `scan`,
//! which all use it, so none of them needs another for these.

use crate::error::{Error, Result};
use crate::frontmatter::limits::MAX_CONFIG;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::Path;

/// The error for a TOML config nested past [`TOML_MAX_DEPTH`], naming its line.
///
/// [`TOML_MAX_DEPTH`]: crate::frontmatter::limits::TOML_MAX_DEPTH
pub fn toml_too_deep_error(text: &str, path: &Path) -> Error {
    use crate::frontmatter::limits::{toml_too_deep, TOML_MAX_DEPTH};
    Error::config(
        path,
        toml_too_deep(text),
        format!("TOML nested more than {TOML_MAX_DEPTH} levels deep (the most read)"),
    )
}

/// 1-based line number of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The 1-based line of the value at `keys` in a config file (keys match case-insensitively,
/// as Hugo reads them; a number steps into a TOML array), for messages about a value that
/// parsed but cannot be used. `None` when the file cannot be read or the key is elsewhere
/// (a Hugo `config/_default/` file, the command line).
pub fn value_line(path: &Path, keys: &[&str]) -> Option<usize> {
    let text = crate::fsread::read_string(path, MAX_CONFIG).ok()?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => toml_value_line(&text, keys),
        _ => text_key_line(&text, keys),
    }
}

/// [`value_line`] in TOML, from the parser's spans: the key's line for a table entry.
fn toml_value_line(text: &str, keys: &[&str]) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut table: Option<&DeTable> = Some(root.get_ref());
    let mut array: Option<&toml::de::DeArray> = None;
    let mut at = None;
    for key in keys {
        let value = match (table, array) {
            (Some(t), _) => {
                let (k, v) = t
                    .iter()
                    .find(|(k, _)| k.get_ref().eq_ignore_ascii_case(key))?;
                at = Some(k.span().start);
                v
            }
            (None, Some(a)) => {
                let v = a.get(key.parse::<usize>().ok()?)?;
                at = Some(v.span().start);
                v
            }
            (None, None) => return None,
        };
        (table, array) = match value.get_ref() {
            DeValue::Table(t) => (Some(t), None),
            DeValue::Array(a) => (None, Some(a)),
            _ => (None, None),
        };
    }
    at.map(|offset| line_of(text, offset))
}

/// [`value_line`] in YAML or JSON, which carry no positions here: each key's line searched
/// from its parent's (array indices skipped).
fn text_key_line(text: &str, keys: &[&str]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    for key in keys.iter().filter(|k| k.parse::<usize>().is_err()) {
        from = (from..lines.len()).find(|&i| line_has_key(lines[i], key))?;
    }
    Some(from + 1)
}

/// True when a YAML or JSON line sets `key` (quoted or not, any case).
fn line_has_key(line: &str, key: &str) -> bool {
    let t = line.trim_start().trim_start_matches(['{', ',', ' ']);
    let t = t.strip_prefix(['"', '\'']).unwrap_or(t);
    match t.get(..key.len()) {
        Some(head) if head.eq_ignore_ascii_case(key) => {
            let rest = &t[key.len()..];
            let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
            rest.trim_start().starts_with(':')
        }
        _ => false,
    }
}

/// A configuration error about the value at `keys` in `path`, with its line when found.
pub fn error_at(path: &Path, keys: &[&str], message: impl Into<String>) -> Error {
    Error::config(path, value_line(path, keys), message)
}

/// Builds a glob set, naming the bad pattern on error.
pub fn glob_set(patterns: &[String], origin: &Path) -> Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        let g = Glob::new(p)
            .map_err(|e| Error::config(origin, None, format!("bad glob '{p}': {e}")))?;
        b.add(g);
    }
    b.build()
        .map_err(|e| Error::config(origin, None, format!("bad globs: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_lines_follow_keys_tables_and_arrays() {
        let toml = "a = 1\n[t]\nK = [\n  1,\n  { x = 2 },\n]\n";
        assert_eq!(toml_value_line(toml, &["a"]), Some(1));
        assert_eq!(toml_value_line(toml, &["t", "k"]), Some(3));
        assert_eq!(toml_value_line(toml, &["t", "k", "1", "x"]), Some(5));
        assert_eq!(toml_value_line(toml, &["t", "nope"]), None);
        let yaml = "a: 1\nt:\n  'K': 2\nk: 3\n";
        assert_eq!(text_key_line(yaml, &["t", "k"]), Some(3));
        assert_eq!(text_key_line(yaml, &["k"]), Some(3));
        assert_eq!(text_key_line("{\"a\": 1,\n \"b\": 2}", &["b"]), Some(2));
    }
}
