//! The one YAML loader, for front matter and site configs alike: yaml-rust2's own loader
//! (`YamlLoader`, same values, same errors) with a bound on nesting and on the copies
//! aliases make, so a small hostile file can neither overflow a stack nor fill memory.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::mem;
use std::path::Path;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, Scanner, TScalarStyle, Token, TokenType};
use yaml_rust2::yaml::{Hash, Yaml};

use crate::vocab::error::{Error, Result};

use crate::vocab::limits::{
    YAML_COPY_BASE, YAML_COPY_PER_BYTE, YAML_MAX_DEPTH, YAML_NODE_COST, YAML_REPARSE_BASE,
    YAML_REPARSES,
};

/// Why YAML text could not be loaded.
#[derive(Debug)]
pub(crate) enum LoadError {
    /// Not YAML, as yaml-rust2 says (also a key given twice in one mapping).
    Syntax(ScanError),
    /// A limit was hit.
    Limit(LimitHit),
}

/// A limit hit: where, and which. Its text says what was too big.
#[derive(Debug)]
pub(crate) struct LimitHit {
    /// The 1-based line in the text.
    pub(crate) line: usize,
    what: Limit,
}

#[derive(Debug)]
enum Limit {
    /// Nested deeper than [`YAML_MAX_DEPTH`].
    Depth,
    /// Aliases copied more than `budget` bytes for `bytes` of YAML.
    Copies { budget: usize, bytes: usize },
    /// Mending what go-yaml accepts took more passes than [`YAML_REPARSES`] allows.
    Mending { bytes: usize },
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.what {
            Limit::Depth => write!(
                f,
                "YAML nested more than {YAML_MAX_DEPTH} levels deep (the most read)"
            ),
            Limit::Copies { budget, bytes } => write!(
                f,
                "YAML aliases expand to more than {} MiB (the most allowed for {bytes} bytes of YAML)",
                budget >> 20
            ),
            Limit::Mending { bytes } => write!(
                f,
                "YAML that Hugo's parser reads but needs mending here (a quoted value continued at its key's depth, a tab after a key's colon) needs it in too many places: sitemapgen parses {bytes} bytes of YAML again at most {YAML_REPARSES} times (plus {} MiB) while mending; indent the quoted value's lines past its key, or put a space after the colon",
                YAML_REPARSE_BASE >> 20
            ),
        }
    }
}

/// [`load_as`] in the YAML 1.2 core schema (the tests' reading).
#[cfg(test)]
pub(crate) fn load(text: &str) -> Result<Option<Yaml>, LoadError> {
    load_as(text, Dialect::Core)
}

/// How plain scalars are typed: the YAML 1.2 core schema (yaml-rust2's), or as one of the Go
/// libraries Hugo has read front matter with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The YAML 1.2 core schema.
    #[default]
    Core,
    /// gopkg.in/yaml.v2 (Hugo before 0.152): YAML 1.1 booleans, `yes`, `on`, `y` and
    /// their opposites.
    GoYamlV2,
    /// goccy/go-yaml (Hugo 0.152 on): a number with an exponent but no point (`1e3`) is
    /// text.
    Goccy,
}

/// Loads the first document of `text` (`None` when there is none) as
/// `YamlLoader::load_from_str` would, typing plain scalars as `dialect` does, but refuses
/// nesting past [`YAML_MAX_DEPTH`] and alias copies past a budget in proportion to the text.
/// Later documents are checked, not kept.
///
/// What go-yaml (Hugo's parser) accepts and yaml-rust2 does not is mended first, where the
/// mended text means the same ([`mend`]); the text is parsed again after each mend, at most
/// [`YAML_REPARSES`] times its length in all, so time stays linear in the text.
pub(crate) fn load_as(text: &str, dialect: Dialect) -> Result<Option<Yaml>, LoadError> {
    load_with(text, dialect, false).map(|(doc, _)| doc)
}

/// A key a YAML mapping gives twice, taken with its last value: the line where it is given
/// again, and the parser's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyTwice {
    pub line: usize,
    pub message: String,
}

/// [`load_as`]; with `keep_twice`, a key given twice is taken with its last value (as
/// yaml.v2 takes it) and the first such key is returned beside the document.
fn load_with(
    text: &str,
    dialect: Dialect,
    keep_twice: bool,
) -> Result<(Option<Yaml>, Option<KeyTwice>), LoadError> {
    let mut text = Cow::Borrowed(text);
    let mut left = YAML_REPARSE_BASE.saturating_add(text.len().saturating_mul(YAML_REPARSES));
    loop {
        match load_once(&text, dialect, keep_twice) {
            Err(LoadError::Syntax(e)) => match mend(&text, &e) {
                // The mend is parsed again below: a pass over the text, counted.
                Some(mended) if left >= text.len() => {
                    left -= text.len();
                    text = Cow::Owned(mended);
                }
                // A quirk go-yaml reads, past the passes allowed: say so, not the parser's
                // words, which read like a mistake in the file.
                Some(_) => {
                    return Err(LoadError::Limit(LimitHit {
                        line: e.marker().line(),
                        what: Limit::Mending { bytes: text.len() },
                    }));
                }
                None => return Err(LoadError::Syntax(e)),
            },
            done => return done,
        }
    }
}

/// `text` with the one quirk yaml-rust2 stopped at (`e`) mended, when go-yaml accepts it:
/// a quoted value whose next lines are indented no deeper than its key (they are re-indented:
/// a quoted value's line breaks drop the indentation that follows them), or a tab between a
/// key's `:` and its value (made a space).
fn mend(text: &str, e: &ScanError) -> Option<String> {
    let m = e.marker();
    let at = byte_at(text, m.line(), m.col())?;
    match e.info() {
        "invalid indentation in quoted scalar" => reindent_quoted(text, at, m.col()),
        "invalid indentation" | "invalid indentation in flow construct" => {
            indent_flow_line(text, byte_at(text, m.line(), 0)?)
        }
        "':' must be followed by a valid YAML whitespace" => {
            let before = text[..at].trim_end_matches([' ', '\t']);
            let gap = &text[before.len()..at];
            if !(before.ends_with(':') && gap.contains('\t')) {
                return None;
            }
            // Every such tab from this line on at once, so a file with many costs one more
            // pass, not one a tab; else this one.
            let line = byte_at(text, m.line(), 0)?;
            mend_tabs(text, line)
                .or_else(|| Some(format!("{before}{}{}", " ".repeat(gap.len()), &text[at..])))
        }
        _ => None,
    }
}

/// `text` with the tabs between a mapping's `:` and its value made spaces, from byte `from`
/// on, in one pass; `None` when there are none. YAML allows a tab there (go-yaml reads it);
/// yaml-rust2 refuses one before some values. A `:` followed by a tab inside a quoted or
/// block scalar or a comment is text, not a key's colon: with every such gap made spaces,
/// the scanner says which `:` are value indicators, and only those gaps are kept changed.
fn mend_tabs(text: &str, from: usize) -> Option<String> {
    let bytes = text.as_bytes();
    // (byte of the `:`, end of the blanks after it), for each gap holding a tab.
    let mut gaps: Vec<(usize, usize)> = Vec::new();
    let mut i = from;
    while let Some(k) = memchr::memchr(b':', bytes.get(i..)?) {
        let colon = i + k;
        let end = colon
            + 1
            + bytes[colon + 1..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
        if bytes[colon + 1..end].contains(&b'\t') {
            gaps.push((colon, end));
        }
        i = end.max(colon + 1);
    }
    if gaps.is_empty() {
        return None;
    }
    let blanked = |keep: &mut dyn FnMut(usize) -> bool| {
        let mut out = bytes.to_vec();
        for (k, &(colon, end)) in gaps.iter().enumerate() {
            if keep(k) {
                out[colon + 1..end].fill(b' ');
            }
        }
        // Only ASCII tabs became ASCII spaces.
        String::from_utf8(out).ok()
    };
    let trial = blanked(&mut |_| true)?;
    // The character index of each gap's `:` (the scanner counts characters).
    let mut at_char = Vec::with_capacity(gaps.len());
    let (mut chars, mut byte) = (0usize, 0usize);
    for &(colon, _) in &gaps {
        chars += text[byte..colon].chars().count();
        byte = colon;
        at_char.push(chars);
    }
    let values: Vec<usize> = Scanner::new(trial.chars())
        .filter(|Token(_, t)| matches!(t, TokenType::Value))
        .map(|Token(m, _)| m.index())
        .collect();
    let flags: Vec<bool> = at_char
        .iter()
        .map(|c| values.binary_search(c).is_ok())
        .collect();
    if !flags.contains(&true) {
        return None;
    }
    blanked(&mut |k| flags[k])
}

/// `text` with the line starting at byte `start` indented one more space, when that line is
/// inside a flow collection (it closes one, or the line before ends in `[`, `{` or `,`):
/// go-yaml takes `aliases: [` ... `]` with the `]` back at the key's column, and inside a
/// flow collection indentation means nothing, so the added space changes no value.
fn indent_flow_line(text: &str, start: usize) -> Option<String> {
    let body = text[start..].trim_start_matches(' ');
    let before = text[..start].trim_end();
    let in_flow = body.starts_with([']', '}']) || before.ends_with(['[', '{', ',']);
    in_flow.then(|| format!("{} {}", &text[..start], &text[start..]))
}

/// The byte offset of 1-based `line`, 0-based character `col` in `text`.
fn byte_at(text: &str, line: usize, col: usize) -> Option<usize> {
    let start = match line {
        0 => return None,
        1 => 0,
        n => text.match_indices('\n').nth(n - 2)?.0 + 1,
    };
    let rest = &text[start..];
    let off = rest
        .char_indices()
        .map(|(i, _)| i)
        .chain([rest.len()])
        .nth(col)?;
    Some(start + off)
}

/// `text` with every line that continues the quoted scalar opening at byte `at` (column
/// `col`) indented one column past its opening quote; `None` when the scalar never closes.
fn reindent_quoted(text: &str, at: usize, col: usize) -> Option<String> {
    let quote = text[at..].chars().next()?;
    let end = closing_quote(text, at, quote)?;
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..at]);
    let mut lines = text[at..end].split('\n');
    out.push_str(lines.next()?);
    for line in lines {
        out.push('\n');
        let body = line.trim_start_matches([' ', '\t']);
        if !body.is_empty() {
            out.extend(std::iter::repeat_n(' ', col + 1));
        }
        out.push_str(body);
    }
    out.push_str(&text[end..]);
    Some(out)
}

/// The byte offset of the quote closing the scalar that `quote` opens at byte `at`.
fn closing_quote(text: &str, at: usize, quote: char) -> Option<usize> {
    let mut chars = text[at + 1..].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if quote == '"' => {
                chars.next();
            }
            '\'' if quote == '\'' && chars.peek().is_some_and(|(_, n)| *n == '\'') => {
                chars.next();
            }
            c if c == quote => return Some(at + 1 + i),
            _ => {}
        }
    }
    None
}

/// [`load_with`] without mending.
fn load_once(
    text: &str,
    dialect: Dialect,
    keep_twice: bool,
) -> Result<(Option<Yaml>, Option<KeyTwice>), LoadError> {
    let stop = Cell::new(false);
    // On a limit hit the text is cut short, so the parser (which recurses once per level)
    // unwinds at once rather than reading on.
    let chars = text.chars().take_while(|_| !stop.get());
    let budget = YAML_COPY_BASE.saturating_add(text.len().saturating_mul(YAML_COPY_PER_BYTE));
    let mut loader = Loader::new(&stop, budget, text.len());
    loader.dialect = dialect;
    loader.keep_twice = keep_twice;
    let parsed = Parser::new(chars).load(&mut loader, true);
    if let Some(limit) = loader.limit {
        return Err(LoadError::Limit(limit));
    }
    parsed.map_err(LoadError::Syntax)?;
    match loader.error {
        Some(e) => Err(LoadError::Syntax(e)),
        None => Ok((loader.first, loader.twice)),
    }
}

/// A YAML site config (`hugo.yaml`, a file in Hugo's config folder) as the generic config
/// value. Syntax errors read as they did when gray_matter loaded configs.
/// A key given twice is taken with its last value and returned beside it: Hugo before 0.152
/// (yaml.v2) reads such a file, later releases stop at it, and the release is known only
/// later (`hugo::config::apply_rules`).
pub(crate) fn config_value(
    text: &str,
    path: &Path,
) -> Result<(serde_json::Value, Option<KeyTwice>)> {
    match load_with(text, Dialect::Core, true) {
        Ok((doc, twice)) => Ok((doc.map_or(serde_json::Value::Null, to_json), twice)),
        Err(LoadError::Syntax(e)) => {
            Err(Error::config(path, None, format!("Deserialize error: {e}")))
        }
        Err(LoadError::Limit(hit)) => Err(Error::config(path, Some(hit.line), hit.to_string())),
    }
}

/// A YAML map key as text, as gray_matter reads keys (other keys are dropped): the one rule
/// for front matter and site configs.
pub(crate) fn key_text(k: Yaml) -> Option<String> {
    match k {
        Yaml::String(s) | Yaml::Real(s) => Some(s),
        Yaml::Boolean(b) => Some(b.to_string()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Null => Some("null".to_string()),
        _ => None,
    }
}

/// A loaded document as the generic config value, exactly as gray_matter's YAML engine and
/// its `Pod` gave it: keys by [`key_text`] (the last of keys that read alike wins), floats
/// that are not finite and aliases or bad values null.
fn to_json(y: Yaml) -> serde_json::Value {
    use serde_json::{Map, Number, Value};
    match y {
        Yaml::Real(s) => {
            Number::from_f64(s.parse().unwrap_or(0.0)).map_or(Value::Null, Value::Number)
        }
        Yaml::Integer(i) => Value::from(i),
        Yaml::String(s) => Value::String(s),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(a) => Value::Array(a.into_iter().map(to_json).collect()),
        Yaml::Hash(h) => {
            let mut m = Map::new();
            for (k, v) in h {
                if let Some(k) = key_text(k) {
                    m.insert(k, to_json(v));
                }
            }
            Value::Object(m)
        }
        _ => Value::Null,
    }
}

/// yaml-rust2's `YamlLoader`, event for event, counting depth and copies. Each node on the
/// stacks carries its size as counted for the copy budget.
struct Loader<'s> {
    /// Set on a limit hit: cuts the text the parser reads.
    stop: &'s Cell<bool>,
    /// The first document, once complete.
    first: Option<Yaml>,
    docs: usize,
    /// Open collections: (node, anchor id, size).
    doc_stack: Vec<(Yaml, usize, usize)>,
    /// Each open mapping's pending key and its size (`BadValue` when none).
    key_stack: Vec<(Yaml, usize, Marker)>,
    anchor_map: BTreeMap<usize, (Yaml, usize)>,
    /// Bytes copied so far by anchors and aliases, the most allowed, and the text's length.
    copied: usize,
    budget: usize,
    bytes: usize,
    error: Option<ScanError>,
    limit: Option<LimitHit>,
    /// How plain scalars are typed.
    dialect: Dialect,
    /// A key given twice is taken with its last value, and the first such noted in `twice`.
    keep_twice: bool,
    twice: Option<KeyTwice>,
}

impl MarkedEventReceiver for Loader<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() || self.limit.is_some() {
            return;
        }
        if let Err(e) = self.on_event_impl(ev, mark) {
            self.error = Some(e);
        }
    }
}

impl<'s> Loader<'s> {
    fn new(stop: &'s Cell<bool>, budget: usize, bytes: usize) -> Loader<'s> {
        Loader {
            stop,
            first: None,
            docs: 0,
            doc_stack: Vec::new(),
            key_stack: Vec::new(),
            anchor_map: BTreeMap::new(),
            copied: 0,
            budget,
            bytes,
            error: None,
            limit: None,
            dialect: Dialect::Core,
            keep_twice: false,
            twice: None,
        }
    }

    fn hit(&mut self, what: Limit, mark: Marker) {
        self.limit = Some(LimitHit {
            line: mark.line(),
            what,
        });
        self.stop.set(true);
    }

    /// Counts `size` bytes of copies; false (and the limit hit) when past the budget.
    fn charge(&mut self, size: usize, mark: Marker) -> bool {
        self.copied = self.copied.saturating_add(size);
        if self.copied > self.budget {
            let (budget, bytes) = (self.budget, self.bytes);
            self.hit(Limit::Copies { budget, bytes }, mark);
            return false;
        }
        true
    }

    fn open(&mut self, node: Yaml, aid: usize, mark: Marker) -> bool {
        if self.doc_stack.len() >= YAML_MAX_DEPTH {
            self.hit(Limit::Depth, mark);
            return false;
        }
        self.doc_stack.push((node, aid, YAML_NODE_COST));
        true
    }

    fn on_event_impl(&mut self, ev: Event, mark: Marker) -> Result<(), ScanError> {
        match ev {
            Event::DocumentStart | Event::Nothing | Event::StreamStart | Event::StreamEnd => {}
            Event::DocumentEnd => {
                let doc = match self.doc_stack.pop() {
                    // An empty document.
                    None => Yaml::BadValue,
                    Some((node, ..)) => node,
                };
                if self.docs == 0 {
                    self.first = Some(doc);
                }
                self.docs += 1;
            }
            Event::SequenceStart(aid, _) => {
                self.open(Yaml::Array(Vec::new()), aid, mark);
            }
            Event::MappingStart(aid, _) => {
                if self.open(Yaml::Hash(Hash::new()), aid, mark) {
                    self.key_stack.push((Yaml::BadValue, 0, mark));
                }
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if matches!(ev, Event::MappingEnd) {
                    self.key_stack.pop();
                }
                if let Some(node) = self.doc_stack.pop() {
                    self.insert_new_node(node, mark)?;
                }
            }
            Event::Scalar(v, style, aid, tag) => {
                let size = YAML_NODE_COST + v.len();
                let node = scalar(v, style, tag, self.dialect);
                self.insert_new_node((node, aid, size), mark)?;
            }
            Event::Alias(id) => {
                let size = self.anchor_map.get(&id).map_or(0, |(_, size)| *size);
                if !self.charge(size, mark) {
                    return Ok(());
                }
                let n = match self.anchor_map.get(&id) {
                    Some((v, _)) => v.clone(),
                    None => Yaml::BadValue,
                };
                self.insert_new_node((n, 0, size.max(YAML_NODE_COST)), mark)?;
            }
        }
        Ok(())
    }

    fn insert_new_node(
        &mut self,
        (node, aid, size): (Yaml, usize, usize),
        mark: Marker,
    ) -> Result<(), ScanError> {
        // Valid anchor ids start from 1.
        if aid > 0 {
            if !self.charge(size, mark) {
                return Ok(());
            }
            self.anchor_map.insert(aid, (node.clone(), size));
        }
        let Some(parent) = self.doc_stack.last_mut() else {
            self.doc_stack.push((node, aid, size));
            return Ok(());
        };
        match &mut parent.0 {
            Yaml::Array(v) => {
                v.push(node);
                parent.2 = parent.2.saturating_add(size);
            }
            Yaml::Hash(h) => {
                let Some(cur_key) = self.key_stack.last_mut() else {
                    return Ok(());
                };
                if cur_key.0.is_badvalue() {
                    // The node is a key.
                    *cur_key = (node, size, mark);
                } else {
                    // The node is the value.
                    let (newkey, key_size, key_mark) =
                        mem::replace(cur_key, (Yaml::BadValue, 0, mark));
                    parent.2 = parent.2.saturating_add(key_size).saturating_add(size);
                    // yaml.v2 (Hugo before 0.152) takes a key given twice, the last value
                    // winning (seen in 0.111.3); go-yaml and YAML 1.2 refuse it.
                    if h.insert(newkey, node).is_some()
                        && self.dialect != Dialect::GoYamlV2
                        && let Some((inserted_key, _)) = h.back()
                    {
                        // Named where the key is given again, as go-yaml names it.
                        let message = format!("{inserted_key:?}: duplicated key in mapping");
                        if !self.keep_twice {
                            return Err(ScanError::new_string(key_mark, message));
                        }
                        self.twice.get_or_insert(KeyTwice {
                            line: key_mark.line(),
                            message,
                        });
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A scalar's value, as `YamlLoader` reads it: quoted is text; plain is typed by its tag
/// (the core schema's) or its look.
pub(super) fn scalar(v: String, style: TScalarStyle, tag: Option<Tag>, dialect: Dialect) -> Yaml {
    if style != TScalarStyle::Plain {
        return Yaml::String(v);
    }
    let Some(Tag { handle, suffix }) = tag else {
        return match dialect {
            Dialect::GoYamlV2 => match v.as_str() {
                "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Yaml::Boolean(true),
                "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Yaml::Boolean(false),
                _ => Yaml::from_str(&v),
            },
            Dialect::Goccy => match Yaml::from_str(&v) {
                Yaml::Real(r) if !r.contains('.') && r.contains(['e', 'E']) => Yaml::String(r),
                other => other,
            },
            Dialect::Core => Yaml::from_str(&v),
        };
    };
    if handle != "tag:yaml.org,2002:" {
        return Yaml::String(v);
    }
    match suffix.as_ref() {
        "bool" => match v.as_str() {
            "true" | "True" | "TRUE" => Yaml::Boolean(true),
            "false" | "False" | "FALSE" => Yaml::Boolean(false),
            _ => Yaml::BadValue,
        },
        "int" => v.parse::<i64>().map_or(Yaml::BadValue, Yaml::Integer),
        "float" => match parse_f64(&v) {
            Some(_) => Yaml::Real(v),
            None => Yaml::BadValue,
        },
        "null" => match v.as_ref() {
            "~" | "null" => Yaml::Null,
            _ => Yaml::BadValue,
        },
        _ => Yaml::String(v),
    }
}

/// A float as the YAML core schema writes it (yaml-rust2's private `parse_f64`).
fn parse_f64(v: &str) -> Option<f64> {
    match v {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => Some(f64::NAN),
        // A digit is needed, so `inf` stays a word (Rust would read it as a float).
        _ if v.as_bytes().iter().any(u8::is_ascii_digit) => v.parse::<f64>().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};
    use yaml_rust2::YamlLoader;

    /// `load` gives what yaml-rust2's own loader gives, and `config_value` what gray_matter
    /// gave site configs, values and errors alike.
    fn same_as_before(text: &str) {
        match (
            load_once(text, Dialect::Core, false).map(|(doc, _)| doc),
            YamlLoader::load_from_str(text),
        ) {
            (Ok(doc), Ok(docs)) => assert_eq!(doc, docs.into_iter().next(), "{text:?}"),
            // A key given twice is named where it is given again, as go-yaml names it, not at
            // the end of its value as yaml-rust2 does: the same error, another place.
            (Err(LoadError::Syntax(a)), Err(b))
                if a.info().ends_with("duplicated key in mapping") =>
            {
                assert_eq!(a.info(), b.info(), "{text:?}");
                return;
            }
            (Err(LoadError::Syntax(a)), Err(b)) => assert_eq!(a, b, "{text:?}"),
            (a, b) => panic!("{text:?}: {a:?} but yaml-rust2 gives {b:?}"),
        }
        // A text mended into one go-yaml reads differs from gray_matter on purpose.
        if format!("{:?}", load(text))
            != format!(
                "{:?}",
                load_once(text, Dialect::Core, false).map(|(doc, _)| doc)
            )
        {
            return;
        }
        use gray_matter::engine::{Engine, YAML};
        let path = Path::new("hugo.yaml");
        let before = YAML::parse(text)
            .map(|pod| pod.deserialize::<serde_json::Value>().unwrap_or_default())
            .map_err(|e| Error::config(path, None, e.to_string()).to_string());
        let now = config_value(text, path)
            .map(|(v, _)| v)
            .map_err(|e| e.to_string());
        assert_eq!(now, before, "{text:?}");
    }

    #[test]
    fn loads_as_yaml_rust2_and_gray_matter_did() {
        for text in [
            "",
            "title: x\n",
            "a: &a {b: 1, c: [x, y]}\nd: *a\ne: *a\n",
            "<<: &base {x: 1}\ny: 2\n",
            // A key given twice, found by the property test below.
            "<<: |\n<<: ",
            "1: x\n1.5: y\ntrue: z\n~: n\n[1]: list key\n? {a: b}\n: map key\n",
            "f: .inf\ng: -.Inf\nh: .nan\ni: 1e400\nj: !!float x\nk: !!int 7\nl: !!bool True\n",
            "m: !!null ~\nn: !!str 5\no: !local 5\np: \"quoted\"\nq: |\n  block\n",
            "a: 1\n---\nb: *nothing\n",
            "a: &x 1\n...\n---\nb: 2\n",
            "- a\n- b\n",
            "a: [unclosed\n",
            "a: b: c\n",
            "a:\n  - 1\n  -\n    - 2\n    - {x: *y}\n",
        ] {
            same_as_before(text);
        }
    }

    fn title_of(text: &str, key: &str) -> String {
        let doc = load(text)
            .unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
            .unwrap();
        let mut v = &doc;
        for k in key.split('.') {
            v = match k.parse::<usize>() {
                Ok(i) => &v[i],
                Err(_) => &v[k],
            };
        }
        v.as_str()
            .unwrap_or_else(|| panic!("{key} in {doc:?}"))
            .to_string()
    }

    #[test]
    fn quoted_values_continued_at_their_keys_depth_load_as_go_yaml_reads_them() {
        // Each value as Hugo 0.168 renders it from the same front matter.
        for (text, key, want) in [
            (
                "title: \"a long\ntitle continued\"\n",
                "title",
                "a long title continued",
            ),
            ("title: 'single\nquoted'\n", "title", "single quoted"),
            (
                "params:\n  d: \"nested\n  less deep\"\nt: Q\n",
                "params.d",
                "nested less deep",
            ),
            ("tags:\n  - \"a\nb\"\n", "tags.0", "a b"),
            (
                "title: \"esc \\\"x\\\"\nmore\"\n",
                "title",
                "esc \"x\" more",
            ),
            ("title: \"blank\n\nline\"\n", "title", "blank\nline"),
            ("title: 'it''s\nhere'\nb: \"ü\nx\"\n", "title", "it's here"),
            ("title: 'it''s\nhere'\nb: \"ü\nx\"\n", "b", "ü x"),
            ("title:\tTabbed\n", "title", "Tabbed"),
        ] {
            assert_eq!(title_of(text, key), want, "{text:?}");
        }
        // What go-yaml refuses too stays an error.
        for text in [
            "t: \"never closed\nx\n",
            "title: plain\ncontinued here\n",
            "a: 1\na: 2\n",
        ] {
            assert!(matches!(load(text), Err(LoadError::Syntax(_))), "{text:?}");
        }
    }

    #[test]
    fn a_key_given_twice_is_named_where_given_again_and_taken_by_yaml_v2() {
        let text = "a: 1\nb: [x,\n  y]\nb: 2\n";
        // go-yaml names the line of the key given again (yaml-rust2 the end of its value).
        match load_as(text, Dialect::Goccy) {
            Err(LoadError::Syntax(e)) => assert_eq!(e.marker().line(), 4, "{e}"),
            other => panic!("{other:?}"),
        }
        // yaml.v2 (Hugo before 0.152) takes it, the last value winning.
        let doc = load_as(text, Dialect::GoYamlV2).unwrap().unwrap();
        assert_eq!(doc["b"], Yaml::Integer(2));
    }

    #[test]
    fn flow_lists_closed_at_their_keys_column_load_as_go_yaml_reads_them() {
        // hugoDocs' content/en/templates/types.md, which Hugo builds.
        let text = "title: T\naliases: [\n  '/a/',\n  '/b/',\n]\nweight: 30\n";
        assert_eq!(title_of(text, "aliases.1"), "/b/");
        assert_eq!(title_of(text, "title"), "T");
        let text = "m: {\na: 1,\nb: x\n}\n";
        assert_eq!(title_of(text, "m.b"), "x");
    }

    #[test]
    fn mending_parses_again_a_bounded_number_of_times() {
        // Every value needs a mend: a large text stops after a few passes, a small one mends
        // them all.
        let small: String = (0..50).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
        assert!(load(&small).is_ok());
        let big: String = (0..40_000).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
        let t = Instant::now();
        // Past the passes allowed the error says so, at the line still to mend.
        match load(&big) {
            Err(LoadError::Limit(hit)) => {
                assert!(hit.line > 1, "{hit}");
                assert!(
                    hit.to_string().contains("needs it in too many places"),
                    "{hit}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
        // A quirk go-yaml refuses too is still the parser's error.
        assert!(matches!(load("a: b: c\n"), Err(LoadError::Syntax(_))));
    }

    #[test]
    fn tabs_after_colons_are_mended_all_at_once_and_only_there() {
        // Many tabs in a large text: one mend for all of them, so any number loads.
        let many: String = (0..20_000).map(|i| format!("k{i}:\tv{i}\n")).collect();
        assert_eq!(title_of(&many, "k19999"), "v19999");
        // A `:` and a tab inside a quoted or block scalar or a comment is text: kept.
        let text = "a:\tx\nq: \"s:\tt\"\nb: |\n  l:\tm\n# c:\td\nz:\tlast\n";
        assert_eq!(title_of(text, "a"), "x");
        assert_eq!(title_of(text, "q"), "s:\tt");
        assert_eq!(title_of(text, "b"), "l:\tm\n");
        assert_eq!(title_of(text, "z"), "last");
        let mended = mend_tabs(text, 0).unwrap();
        assert_eq!(
            mended,
            "a: x\nq: \"s:\tt\"\nb: |\n  l:\tm\n# c:\td\nz: last\n"
        );
        // In a flow mapping too.
        assert_eq!(title_of("m: {a:\tb}\n", "m.a"), "b");
    }

    proptest::proptest! {
        #[test]
        fn any_text_loads_as_yaml_rust2_and_gray_matter_did(
            s in "([a-c]{1,2}: |- |  |&a |&b |\\*a |\\*b |\\[|\\]|\\{|\\}|, |\n|1|2\\.5|true|~|\"x\"|'y'|!!str |!!int |!!float |\\? |---\n|\\.\\.\\.\n|#c|<<: |\\|\n)*"
        ) {
            same_as_before(&s);
        }
    }

    /// Runs `f` on a thread with the stack a worker thread gets (2 MiB), which a deep parse
    /// would overflow.
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    fn limit(text: &str) -> String {
        match load(text) {
            Err(LoadError::Limit(hit)) => format!("line {}: {hit}", hit.line),
            other => panic!("no limit hit: {other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let maps: String = (0..4000)
            .map(|d| format!("{}k:\n", " ".repeat(d)))
            .collect();
        let lists: String = (0..10_000)
            .map(|d| format!("{}-\n", " ".repeat(d)))
            .collect();
        let (maps, lists) = on_small_stack(move || (limit(&maps), limit(&lists)));
        assert_eq!(
            maps,
            "line 257: YAML nested more than 256 levels deep (the most read)"
        );
        assert!(lists.contains("nested more than 256 levels"), "{lists}");
        // Up to the limit loads, and flow nesting keeps the parser's own limit.
        let ok: String = (0..YAML_MAX_DEPTH)
            .map(|d| format!("{}k:\n", " ".repeat(d)))
            .collect();
        assert!(on_small_stack(move || load(&ok).is_ok()));
        let flow = format!("a: {}{}", "[".repeat(300), "]".repeat(300));
        match load(&flow) {
            Err(LoadError::Syntax(e)) => assert_eq!(e.info(), "recursion limit exceeded"),
            other => panic!("{other:?}"),
        }
    }

    /// "Billion laughs": `levels` lists of nine aliases to the one before.
    fn bomb(levels: usize) -> String {
        let mut s = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n".to_string();
        for i in 1..=levels {
            let refs = vec![format!("*a{}", i - 1); 9].join(", ");
            s += &format!("a{i}: &a{i} [{refs}]\n");
        }
        s
    }

    #[test]
    fn alias_bombs_are_refused_at_once() {
        let start = Instant::now();
        for levels in [7, 8, 12] {
            let hit = limit(&bomb(levels));
            assert!(
                hit.contains("YAML aliases expand to more than 16 MiB (the most allowed for"),
                "{hit}"
            );
        }
        assert!(start.elapsed() < Duration::from_secs(5));
        // The same with fewer levels loads, as yaml-rust2 loads it.
        same_as_before(&bomb(3));
        // Anchors nested in anchors are copied once per level: counted too.
        let nested: String = (0..200)
            .map(|d| format!("{}k{d}: &n{d}\n", " ".repeat(d)))
            .collect::<String>()
            + &format!("{}x: {}\n", " ".repeat(200), "y".repeat(200_000));
        assert!(limit(&nested).contains("aliases expand"));
    }

    #[test]
    fn limits_in_configs_name_the_line() {
        let e = config_value(&bomb(8), Path::new("hugo.yaml")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("hugo.yaml:6: YAML aliases expand to more than 16 MiB"),
            "{e}"
        );
    }

    #[test]
    fn a_config_key_given_twice_is_taken_with_its_last_value_and_named() {
        let path = Path::new("hugo.yaml");
        let text = "a: 1\nb:\n  c: 2\n  c: 3\na: 4\n";
        let (value, twice) = config_value(text, path).unwrap();
        assert_eq!(value, serde_json::json!({"a": 4, "b": {"c": 3}}));
        // The first key given again, on its line (1-based), in go-yaml's words.
        let twice = twice.unwrap();
        assert_eq!(twice.line, 4);
        assert!(twice.message.contains("\"c\""), "{}", twice.message);
        assert_eq!(config_value("a: 1\n", path).unwrap().1, None);
        // Front matter still stops at it (outside yaml.v2).
        assert!(load(text).is_err());
    }
}
