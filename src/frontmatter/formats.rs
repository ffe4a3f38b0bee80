//! The front matter formats (TOML, YAML, JSON, Org-mode), each read into one neutral tree
//! that the fields are then taken from, whatever the format.

use std::borrow::Cow;
use std::path::Path;

use crate::vocab::error::{Error, Result};

use super::yaml::LoadError;
use super::{Layout, line_of};

/// The front matter formats a block may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Toml,
    Yaml,
    Json,
    /// Hugo's Org-mode `#+KEY: value` lines.
    Org,
}

impl Format {
    /// The format's name, for error messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Toml => "TOML",
            Format::Yaml => "YAML",
            Format::Json => "JSON",
            Format::Org => "Org-mode",
        }
    }
}

/// Parses `block`, the front matter `layout` found, into the neutral tree: a table (or
/// nothing, for an empty block). Syntax errors name the line in the file.
pub(crate) fn tree<'t>(
    format: Format,
    block: &'t str,
    layout: &Layout,
    path: &Path,
    dialect: super::yaml::Dialect,
) -> Result<Node<'t>> {
    let root = match format {
        Format::Toml => {
            if let Some(at) = crate::vocab::limits::toml_too_deep(block) {
                return Err(Error::input(
                    path,
                    Some(layout.block_line + at - 1),
                    format!(
                        "TOML nested more than {} levels deep (the most read)",
                        crate::vocab::limits::TOML_MAX_DEPTH
                    ),
                ));
            }
            toml_tree(block).map_err(|e| {
                let line = e.span().map_or(layout.open_line, |s| {
                    layout.block_line + line_of(block.as_bytes(), s.start.min(block.len())) - 1
                });
                Error::input(
                    path,
                    Some(line),
                    format!("invalid TOML front matter: {}", e.message().trim()),
                )
            })?
        }
        Format::Yaml => {
            // Most blocks are a few plain lines, read directly; the rest, and anything the
            // fast path is unsure of, go to the full parser.
            if let Some(root) = super::yaml_fast::tree(block, dialect) {
                return Ok(root);
            }
            let doc = super::yaml::load_as(block, dialect).map_err(|e| match e {
                LoadError::Limit(hit) => Error::input(
                    path,
                    Some(layout.block_line + hit.line.saturating_sub(1)),
                    format!("front matter: {hit}"),
                ),
                LoadError::Syntax(e) => {
                    let msg = e.to_string();
                    let (msg, line) = split_yaml_error(&msg);
                    let line = line.map_or(layout.open_line, |l| layout.block_line + l - 1);
                    Error::input(
                        path,
                        Some(line),
                        format!("invalid YAML front matter: {msg}"),
                    )
                }
            })?;
            doc.map_or_else(|| Node::new(NodeValue::Null), from_yaml)
        }
        Format::Json => {
            let value: serde_json::Value = serde_json::from_str(block).map_err(|e| {
                let msg = e.to_string();
                let msg = msg.rfind(" at line ").map_or(msg.as_str(), |p| &msg[..p]);
                Error::input(
                    path,
                    Some(layout.block_line + e.line().max(1) - 1),
                    format!("invalid JSON front matter: {msg} (column {})", e.column()),
                )
            })?;
            from_json(value)
        }
        Format::Org => from_org(block),
    };
    if !matches!(root.v, NodeValue::Map(_) | NodeValue::Null) {
        return Err(Error::input(
            path,
            Some(layout.open_line),
            format!(
                "the {} front matter is not a table of `key: value` pairs",
                format.name()
            ),
        ));
    }
    Ok(root)
}

/// The character of a `\x`, `\u` or `\U` escape (`esc`) whose 2, 4 or 8 hex digits start
/// `rest` (which is moved past them), as both YAML and TOML write them; `None` for too few
/// digits or no character.
pub(crate) fn hex_escape(esc: u8, rest: &mut &str) -> Option<char> {
    let n = match esc {
        b'x' => 2,
        b'u' => 4,
        _ => 8,
    };
    let hex = rest.get(..n)?;
    if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
        return None;
    }
    *rest = &rest[n..];
    char::from_u32(u32::from_str_radix(hex, 16).ok()?)
}

/// A parsed front matter value, the same shape whatever the format.
#[derive(Debug)]
pub enum NodeValue<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Cow<'a, str>),
    /// A TOML date-time literal, kept apart from strings so no guessing is needed.
    Date(toml::value::Datetime),
    List(Vec<Node<'a>>),
    Map(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// A value and, when the parser reports it, its byte offset in the block.
#[derive(Debug)]
pub struct Node<'a> {
    /// The value.
    pub(crate) v: NodeValue<'a>,
    /// Its byte offset in the block, when known.
    pub(crate) at: Option<usize>,
}

impl<'a> Node<'a> {
    fn new(v: NodeValue<'a>) -> Node<'a> {
        Node { v, at: None }
    }

    /// True for an empty or blank string, which Hugo treats as "not set".
    pub(crate) fn is_blank(&self) -> bool {
        matches!(&self.v, NodeValue::Str(s) if s.trim().is_empty())
    }

    pub(crate) fn entries(&self) -> &[(Cow<'a, str>, Node<'a>)] {
        match &self.v {
            NodeValue::Map(m) => m,
            _ => &[],
        }
    }

    /// The value of `key` in a map, compared case-insensitively.
    pub(crate) fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.entries()
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, n)| n)
    }

    /// A boolean, also written as YAML 1.1 words or a quoted `"true"` (as Hugo casts them).
    pub(crate) fn as_bool(&self) -> Option<bool> {
        match &self.v {
            NodeValue::Bool(b) => Some(*b),
            NodeValue::Int(0) => Some(false),
            NodeValue::Int(1) => Some(true),
            NodeValue::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "y" => Some(true),
                "false" | "no" | "off" | "n" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// A scalar as text (numbers and booleans as written by a formatter).
    pub(crate) fn as_text(&self) -> Option<String> {
        match &self.v {
            NodeValue::Str(s) => Some(s.to_string()),
            NodeValue::Int(i) => Some(i.to_string()),
            NodeValue::Float(f) => Some(f.to_string()),
            NodeValue::Bool(b) => Some(b.to_string()),
            NodeValue::Date(d) => Some(d.to_string()),
            _ => None,
        }
    }

    /// A list of scalars as text; `None` when this is no list or holds a non-scalar.
    pub(crate) fn as_text_list(&self) -> Option<Vec<String>> {
        match &self.v {
            NodeValue::List(items) => items.iter().map(Node::as_text).collect(),
            _ => None,
        }
    }
}

/// A TOML block read by the toml crate, as the neutral tree.
fn toml_tree(block: &str) -> std::result::Result<Node<'_>, toml::de::Error> {
    let table = toml::de::DeTable::parse(block)?;
    let at = Some(table.span().start);
    let entries = table.into_inner().into_iter();
    Ok(Node {
        v: NodeValue::Map(
            entries
                .map(|(k, v)| (k.into_inner(), from_toml(v)))
                .collect(),
        ),
        at,
    })
}

fn from_toml(v: toml::Spanned<toml::de::DeValue<'_>>) -> Node<'_> {
    use toml::de::DeValue;
    let at = Some(v.span().start);
    let v = match v.into_inner() {
        DeValue::String(s) => NodeValue::Str(s),
        DeValue::Integer(i) => toml_int(i.as_str(), i.radix()),
        DeValue::Float(f) => toml_float(f.as_str()),
        DeValue::Boolean(b) => NodeValue::Bool(b),
        DeValue::Datetime(d) => NodeValue::Date(d),
        DeValue::Array(a) => NodeValue::List(a.into_iter().map(from_toml).collect()),
        DeValue::Table(t) => NodeValue::Map(
            t.into_iter()
                .map(|(k, v)| (k.into_inner(), from_toml(v)))
                .collect(),
        ),
    };
    Node { v, at }
}

/// A TOML integer from its digits (sign included, `_` taken out) in `radix`; one past the
/// range of `i64` becomes a float.
fn toml_int(digits: &str, radix: u32) -> NodeValue<'static> {
    match i64::from_str_radix(digits, radix) {
        Ok(n) => NodeValue::Int(n),
        Err(_) => NodeValue::Float(digits.parse().unwrap_or(f64::NAN)),
    }
}

/// A TOML float from its text (`_` taken out).
fn toml_float(text: &str) -> NodeValue<'static> {
    NodeValue::Float(text.parse().unwrap_or(f64::NAN))
}

/// A YAML value as gray_matter's YAML engine reads it (its `Pod`), so results stay as they
/// were: keys as strings (other keys dropped), the last of keys that read alike wins, maps
/// sorted by key, aliases and bad values null.
pub(crate) fn from_yaml(y: yaml_rust2::Yaml) -> Node<'static> {
    use yaml_rust2::Yaml;
    Node::new(match y {
        Yaml::Real(s) => NodeValue::Float(s.parse().unwrap_or(0.0)),
        Yaml::Integer(i) => NodeValue::Int(i),
        Yaml::String(s) => NodeValue::Str(Cow::Owned(s)),
        Yaml::Boolean(b) => NodeValue::Bool(b),
        Yaml::Array(a) => NodeValue::List(a.into_iter().map(from_yaml).collect()),
        Yaml::Hash(h) => {
            let mut m: Vec<(Cow<'static, str>, Node<'static>)> = Vec::with_capacity(h.len());
            for (k, v) in h {
                let Some(key) = super::yaml::key_text(k) else {
                    continue;
                };
                m.push((Cow::Owned(key), from_yaml(v)));
            }
            yaml_map(m)
        }
        _ => NodeValue::Null,
    })
}

/// A YAML mapping's entries (keys already as text) as gray_matter ordered them: sorted by
/// key, the last of keys that read alike kept.
pub(crate) fn yaml_map<'a>(mut m: Vec<(Cow<'a, str>, Node<'a>)>) -> NodeValue<'a> {
    // Stable: among keys that read alike the last stays last, and is the one kept.
    m.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(Cow<'a, str>, Node<'a>)> = Vec::with_capacity(m.len());
    for kv in m {
        match out.last_mut() {
            Some(last) if last.0 == kv.0 => *last = kv,
            _ => out.push(kv),
        }
    }
    NodeValue::Map(out)
}

fn from_json(j: serde_json::Value) -> Node<'static> {
    use serde_json::Value;
    Node::new(match j {
        Value::Null => NodeValue::Null,
        Value::Bool(b) => NodeValue::Bool(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => NodeValue::Int(i),
            None => NodeValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => NodeValue::Str(Cow::Owned(s)),
        Value::Array(a) => NodeValue::List(a.into_iter().map(from_json).collect()),
        Value::Object(o) => NodeValue::Map(
            o.into_iter()
                .map(|(k, v)| (Cow::Owned(k), from_json(v)))
                .collect(),
        ),
    })
}

/// Reads `#+KEY: value` lines into a map of strings, as Hugo's Org decoder does: keys
/// lower-cased, `#+KEY[]:` values split on blanks into a list.
fn from_org(block: &str) -> Node<'static> {
    let mut entries: Vec<(Cow<'static, str>, Node<'static>)> = Vec::new();
    for (n, line) in block.lines().enumerate() {
        let Some(rest) = line.strip_prefix("#+") else {
            continue;
        };
        let Some((key, value)) = rest.split_once(':') else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let at = Some(block.lines().take(n).map(|l| l.len() + 1).sum());
        let v = match key.strip_suffix("[]") {
            Some(k) => {
                let items = value
                    .split_whitespace()
                    .map(|w| Node::new(NodeValue::Str(Cow::Owned(w.to_string()))))
                    .collect();
                entries.push((
                    Cow::Owned(k.to_string()),
                    Node {
                        v: NodeValue::List(items),
                        at,
                    },
                ));
                continue;
            }
            None => NodeValue::Str(Cow::Owned(value.to_string())),
        };
        // A later line with the same key wins, as in Go's map.
        entries.retain(|(k, _)| *k != key);
        entries.push((Cow::Owned(key), Node { v, at }));
    }
    Node {
        v: NodeValue::Map(entries),
        at: Some(0),
    }
}

/// Splits yaml-rust2's "… at byte B line L column C" into the message and the block line.
fn split_yaml_error(msg: &str) -> (String, Option<usize>) {
    let Some(pos) = msg.rfind(" at byte ") else {
        return (msg.to_string(), None);
    };
    let words: Vec<&str> = msg[pos..].split_whitespace().collect();
    let after = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .and_then(|x| x.parse::<usize>().ok())
    };
    let text = match after("column") {
        Some(c) => format!("{} (column {c})", &msg[..pos]),
        None => msg[..pos].to_string(),
    };
    (text, after("line").filter(|l| *l > 0))
}

#[cfg(test)]
mod tests {
    use crate::frontmatter::Parsed;
    use crate::frontmatter::testing::*;

    #[test]
    fn syntax_errors_give_the_line_in_the_file() {
        let (line, msg) = fails("+++\ntitle = \"ok\"\ndate = \n+++\n");
        assert_eq!(line, 3, "{msg}");
        assert!(msg.starts_with("invalid TOML front matter"), "{msg}");
        let (line, msg) = fails("+++\na = 1\nb = 2\nc = \"unterminated\n+++\n");
        assert_eq!(line, 4, "{msg}");
        let (line, msg) = fails("\u{feff}---\ntitle: ok\nslug: [unclosed\nx: 1\n---\n");
        assert!(msg.starts_with("invalid YAML front matter"), "{msg}");
        assert!((3..=5).contains(&line), "line {line}: {msg}");
        let (line, msg) = fails("---\ntitle: ok\n  bad: indent\n---\n");
        assert_eq!(line, 3, "{msg}");
        let (line, msg) = fails("{\n  \"title\": \"x\",\n  \"slug\": nope\n}\n");
        assert_eq!(line, 3, "{msg}");
        assert!(msg.starts_with("invalid JSON front matter"), "{msg}");
        let (line, msg) = fails("---\n- a\n- b\n---\n");
        assert_eq!(line, 1);
        assert!(msg.contains("not a table"), "{msg}");
    }

    #[test]
    fn toml_duplicate_keys_are_errors() {
        let (line, msg) = fails("+++\ntitle = \"a\"\ntitle = \"b\"\n+++\n");
        assert_eq!(line, 3, "{msg}");
    }

    #[test]
    fn org_mode_front_matter() {
        let text = "#+TITLE: Org mode\n#+SLUG: org-slug\n#+DATE: 2023-04-08\n#+tags[]: a b\n#+DRAFT: true\nBody in org.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.more().title.as_deref(), Some("Org mode"));
        assert_eq!(f.meta.slug(), Some("org-slug"));
        assert_eq!(date(f.meta.date), "2023-04-08");
        assert_eq!(f.meta.draft(), Some(true));
        assert_eq!(
            f.taxonomies,
            vec![("tags".to_string(), vec!["a".to_string(), "b".to_string()])]
        );
        assert_eq!(&text[body..], "Body in org.\n");
        assert_eq!(body_line(text.as_bytes()), 6);
        // A Markdown heading is not Org front matter.
        let (f, body) = parse_ok("# Title\nText\n");
        assert_eq!((f, body), (Parsed::without_front_matter(), 0));
        // A bad value names its line.
        let (line, _) = fails("#+TITLE: x\n#+DATE: not a date\n");
        assert_eq!(line, 2);
    }
}
