//! What every reader of a config file shares (sitemap.toml, and the site's Zola or Hugo
//! config): the line a value sits on, errors that name it, the TOML nesting guard, and glob
//! sets named after the file they came from.

use crate::vocab::error::{Error, Result};
use crate::vocab::limits::MAX_CONFIG;
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::de::DeserializeOwned;
use std::path::Path;

/// The error for a TOML config nested past [`TOML_MAX_DEPTH`], naming its line.
///
/// [`TOML_MAX_DEPTH`]: crate::vocab::limits::TOML_MAX_DEPTH
pub fn toml_too_deep_error(text: &str, path: &Path) -> Error {
    use crate::vocab::limits::{TOML_MAX_DEPTH, toml_too_deep};
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
    let text = crate::vocab::fsread::read_string(path, MAX_CONFIG).ok()?;
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

/// A TOML config's parse or type error, said so a user can act on it: an unknown key or
/// value names the closest known one, a value of the wrong type says what the key takes with
/// an example, and a bare word says to quote it or what to write instead. The known keys and
/// types come from `T`'s own definition (serde's messages carry them), so a new key needs
/// nothing here. Anything else keeps the parser's words, with the line.
pub fn toml_error<T: DeserializeOwned>(text: &str, path: &Path, e: &toml::de::Error) -> Error {
    let at = e.span().map(|s| s.start);
    let line = at.map(|a| line_of(text, a));
    let message = e.message().trim();
    let said = match at {
        Some(at) => explain(text, at, message).or_else(|| bare_word::<T>(text, at)),
        None => None,
    };
    Error::config(path, line, said.unwrap_or_else(|| message.to_string()))
}

/// The names in backticks after `from` in a serde message (`expected one of `a`, `b``).
fn quoted_names(from: &str) -> Vec<&str> {
    from.split('`').skip(1).step_by(2).collect()
}

/// The key whose value sits at byte `at`, and the table it is in (`[[rules]]`), if any.
fn key_at(text: &str, at: usize) -> (Option<&str>, Option<&str>) {
    let before = &text[..at.min(text.len())];
    let mut key = None;
    let mut table = None;
    // The line the value is on, then upward: the first `key =` names it (a value may sit
    // on a later line of a list), the first `[header]` its table.
    for l in before.rsplit('\n') {
        let t = l.trim();
        if key.is_none()
            && let Some((k, _)) = t.split_once('=')
        {
            let k = k.trim().trim_matches(['"', '\'']);
            if !k.is_empty() && !k.contains([' ', '[', '{', ',']) {
                key = Some(k);
            }
        }
        if t.starts_with('[') && !t.contains('=') {
            table = Some(t);
            break;
        }
    }
    (key, table)
}

/// serde's words for a type, as what a key takes and an example value.
fn takes(expected: &str) -> Option<(&'static str, &'static str)> {
    let integer = [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ];
    Some(match expected {
        "a boolean" => ("true or false", "true"),
        "a string" => ("a quoted string", "\"text\""),
        "a sequence" => ("a list", "[\"a\", \"b\"]"),
        "f32" | "f64" | "a float" => ("a number", "0.5"),
        e if integer.contains(&e) || e.contains("integer") => ("a whole number", "1000"),
        e if e.starts_with("struct ") || e == "a map" => ("a table", "{ key = \"value\" }"),
        _ => return None,
    })
}

/// serde's words for a value found (`string "yes"`) as a user would say them.
fn found_phrase(found: &str) -> String {
    let found = found.trim();
    for (serde, ours) in [
        ("string ", "the string "),
        ("integer ", "the number "),
        ("floating point ", "the number "),
        ("boolean ", ""),
    ] {
        if let Some(v) = found.strip_prefix(serde) {
            return format!("{ours}{}", v.trim_matches('`'));
        }
    }
    match found {
        "sequence" => "a list".into(),
        "map" => "a table".into(),
        other => other.into(),
    }
}

/// An example value for a key that takes `expected`, made from what the user wrote where
/// it can be (`yes` for a boolean is `true`, `"git"` for a list is `["git"]`).
fn example(expected: &str, found: Option<&str>, generic: &str) -> String {
    let found = found.map(|f| f.trim_matches('"'));
    match (expected, found) {
        ("a boolean", Some(f))
            if ["yes", "on", "y", "1"].contains(&f.to_ascii_lowercase().as_str()) =>
        {
            "true".into()
        }
        ("a boolean", Some(f))
            if ["no", "off", "n", "0"].contains(&f.to_ascii_lowercase().as_str()) =>
        {
            "false".into()
        }
        ("a boolean", Some(f))
            if f.eq_ignore_ascii_case("true") || f.eq_ignore_ascii_case("false") =>
        {
            f.to_ascii_lowercase()
        }
        ("a sequence", Some(f)) if !f.is_empty() => format!("[\"{f}\"]"),
        (e, Some(f))
            if takes(e).is_some_and(|(w, _)| w == "a whole number") && f.parse::<u64>().is_ok() =>
        {
            f.into()
        }
        (e, Some(f))
            if takes(e).is_some_and(|(w, _)| w == "a number") && f.parse::<f64>().is_ok() =>
        {
            f.into()
        }
        _ => generic.into(),
    }
}

/// serde's unknown-key, unknown-value and wrong-type messages, said with the key.
fn explain(text: &str, at: usize, message: &str) -> Option<String> {
    let (key, table) = key_at(text, at);
    let in_table = table.map(|t| format!(" in {t}")).unwrap_or_default();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (given, expected) = rest.split_once('`')?;
        let known = quoted_names(expected);
        let hint = match crate::vocab::suggest::closest(given, &known) {
            Some(k) => format!("did you mean `{k}`?"),
            None if known.len() <= 8 => format!("it takes {}", list_or(&known)),
            None => {
                "`sitemapgen init --config FILE` writes a file with every key, commented".into()
            }
        };
        return Some(format!("unknown key `{given}`{in_table}: {hint}"));
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (given, expected) = rest.split_once('`')?;
        let known = quoted_names(expected);
        let key = key
            .map(|k| format!("`{k}`{in_table}: "))
            .unwrap_or_default();
        let hint = match crate::vocab::suggest::closest(given, &known) {
            Some(k) => format!("did you mean \"{k}\"? It takes {}", list_or(&known)),
            None => format!("it takes {}", list_or(&known)),
        };
        return Some(format!("{key}unknown value \"{given}\": {hint}"));
    }
    let rest = message.strip_prefix("invalid type: ")?;
    let (found, expected) = rest.split_once(", expected ")?;
    let (words, generic) = takes(expected.trim())?;
    let key = key?;
    let value = found.split_once(' ').map(|(_, v)| v.trim_matches('`'));
    let ex = example(expected.trim(), value, generic);
    Some(format!(
        "`{key}`{in_table} takes {words}, not {}: for example `{key} = {ex}`",
        found_phrase(found)
    ))
}

/// `a`, `a or b`, `a, b or c`, each in backticks.
fn list_or(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.concat(),
    }
}

/// A bare word where TOML wants a value (`images = yes`): the parser only says strings must
/// be quoted. With the word quoted, the file parses (the key takes a string: quote it) or
/// fails on that key's type (say what it takes instead).
fn bare_word<T: DeserializeOwned>(text: &str, at: usize) -> Option<String> {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..end];
    let (key, value) = line.split_once('=')?;
    let (key, word) = (key.trim(), value.trim());
    let plain = |c: char| c.is_alphanumeric() || "-_./:+".contains(c);
    if key.is_empty() || word.is_empty() || !word.chars().all(plain) {
        return None;
    }
    let quoted = format!("{}{key} = \"{word}\"{}", &text[..start], &text[end..]);
    match toml::from_str::<T>(&quoted) {
        Ok(_) => Some(format!(
            "`{key} = {word}`: a text value must be quoted: write `{key} = \"{word}\"`"
        )),
        Err(e) => {
            let message = e.message().trim();
            let rest = message.strip_prefix("invalid type: string ")?;
            let (_, expected) = rest.split_once(", expected ")?;
            let (words, generic) = takes(expected.trim())?;
            // Only when the quoted word is what failed, not some later line.
            if e.span().map(|s| line_of(&quoted, s.start)) != Some(line_of(text, start)) {
                return None;
            }
            Some(format!(
                "`{key} = {word}`: `{key}` takes {words} (a word without quotes is no TOML value): for example `{key} = {}`",
                example(expected.trim(), Some(word), generic)
            ))
        }
    }
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

/// Case-insensitive key lookup in a config read as JSON (Hugo's keys are case-insensitive).
pub fn get<'a>(map: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    let obj = map.as_object()?;
    obj.get(key).or_else(|| {
        obj.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
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
