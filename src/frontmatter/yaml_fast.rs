//! A fast path for the YAML front matter most pages have: a few `key: value` lines, a list or
//! two, a nested mapping. Such a block is read line by line straight into the neutral tree;
//! anything outside that subset is declined (`None`) and goes to the full parser
//! ([`super::yaml::load_as`]), which parses every block the same way whether or not this path
//! exists. Whenever this path accepts a block, its tree is the one the full path gives for it
//! (the same scalars typed by [`super::yaml::scalar`], the same key order and key text), and
//! it accepts no block the full path refuses: it declines on a key given twice, as yaml-rust2
//! errs there.
//!
//! The subset: block mappings nested by spaces, keys that are plain words; values that are
//! plain scalars on one line, quoted scalars on one line, flow sequences of such scalars on
//! one line (`[a, "b", 'c']`), block sequences of such scalars (`- a`, indented under their
//! key or not), nested block mappings and empty values; full-line comments and comments after
//! a value. Declined: tabs, CR, control characters, a BOM, anchors, aliases, tags, block
//! scalars, flow mappings, `?` keys, directives, document markers, values over more than one
//! line, and any plain value YAML might read another way (`: ` inside, an indicator first).

use std::borrow::Cow;

use yaml_rust2::scanner::TScalarStyle;

use super::formats::{Node, NodeValue, from_yaml, yaml_map};
use super::yaml::{Dialect, key_text, scalar};

/// The deepest nesting read here (the full parser's limit is far above; past this, decline).
const MAX_DEPTH: usize = 32;

/// The longest key read here: yaml-rust2 refuses a simple key of 1,024 characters or more.
const MAX_KEY: usize = 128;

/// `block` (a YAML front matter block, its `---` lines already cut off) as the neutral tree,
/// or `None` when the block is outside the subset this path reads.
pub(super) fn tree(block: &str, dialect: Dialect) -> Option<Node<'_>> {
    if !plain_text(block.as_bytes()) {
        return None;
    }
    let mut p = Parser {
        lines: Lines {
            rest: Some(block),
            peeked: None,
        },
        dialect,
        depth: 0,
    };
    // A block with no content is left to the full path (an empty document).
    let first = p.lines.peek()?;
    let root = p.mapping(first.indent)?;
    if p.lines.peek().is_some() {
        return None;
    }
    Some(node(root))
}

/// Whether `b` holds only characters this path reads: no tab, CR or other control character,
/// no BOM, and none of the characters YAML versions disagree on (NEL, the line and paragraph
/// separators) or calls non-printable (U+FFFE, U+FFFF).
fn plain_text(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let bad = match c {
            b'\n' => false,
            0..0x20 | 0x7f => true,
            // U+0080 to U+009F (C1 controls, NEL among them).
            0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
            // U+2028, U+2029.
            0xe2 => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xa8 | 0xa9)),
            // U+FEFF (BOM), U+FFFE, U+FFFF.
            0xef => matches!(
                (b.get(i + 1), b.get(i + 2)),
                (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
            ),
            _ => false,
        };
        if bad {
            return false;
        }
        i += 1;
    }
    true
}

fn node(v: NodeValue<'_>) -> Node<'_> {
    Node { v, at: None }
}

/// One line with content: its indentation (spaces) and the rest, trailing spaces cut.
#[derive(Clone, Copy)]
struct Line<'t> {
    indent: usize,
    text: &'t str,
}

/// The block's lines with content, blank and comment-only lines skipped (YAML reads them as
/// nothing wherever they stand, since no value here runs over more than one line).
struct Lines<'t> {
    rest: Option<&'t str>,
    peeked: Option<Line<'t>>,
}

impl<'t> Lines<'t> {
    fn peek(&mut self) -> Option<Line<'t>> {
        if self.peeked.is_none() {
            self.peeked = self.read();
        }
        self.peeked
    }

    fn advance(&mut self) {
        if self.peeked.take().is_none() {
            self.read();
        }
    }

    fn read(&mut self) -> Option<Line<'t>> {
        loop {
            let rest = self.rest?;
            let (line, next) = match rest.split_once('\n') {
                Some((line, next)) => (line, Some(next)),
                None => (rest, None),
            };
            self.rest = next;
            let body = line.trim_start_matches(' ');
            if body.is_empty() || body.starts_with('#') {
                continue;
            }
            return Some(Line {
                indent: line.len() - body.len(),
                text: body.trim_end_matches(' '),
            });
        }
    }
}

struct Parser<'t> {
    lines: Lines<'t>,
    dialect: Dialect,
    depth: usize,
}

impl<'t> Parser<'t> {
    /// The block mapping whose keys stand at `indent`.
    fn mapping(&mut self, indent: usize) -> Option<NodeValue<'t>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut entries: Vec<(Cow<'t, str>, Node<'t>)> = Vec::new();
        while let Some(line) = self.lines.peek() {
            if line.indent < indent {
                break;
            }
            // Deeper than its key: a scalar continued on the next line, or not YAML.
            if line.indent > indent {
                return None;
            }
            let (key, rest) = split_key(line.text)?;
            self.lines.advance();
            let rest = rest.trim_start_matches(' ');
            let value = if rest.is_empty() || rest.starts_with('#') {
                self.block_value(indent)?
            } else {
                self.inline(rest, true)?
            };
            entries.push((self.key(key), value));
        }
        self.depth -= 1;
        // A key given twice is an error in yaml-rust2 (keys equal as values, so equal as
        // text): leave it to the full path.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        if entries.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(yaml_map(entries))
    }

    /// A key as the full path gives it: typed as a plain scalar, then as text.
    fn key(&self, key: &'t str) -> Cow<'t, str> {
        match key_text(scalar(
            key.to_owned(),
            TScalarStyle::Plain,
            None,
            self.dialect,
        )) {
            Some(text) if text == key => Cow::Borrowed(key),
            Some(text) => Cow::Owned(text),
            // A plain scalar is never a collection: always text.
            None => Cow::Borrowed(key),
        }
    }

    /// The value of a key at `indent` with nothing after its colon: what the lines below
    /// hold (a deeper mapping or sequence, or a sequence at the key's own indentation), or
    /// null.
    fn block_value(&mut self, indent: usize) -> Option<Node<'t>> {
        let v = match self.lines.peek() {
            Some(l) if l.indent == indent && is_item(l.text) => self.sequence(indent, true)?,
            Some(l) if l.indent > indent && is_item(l.text) => self.sequence(l.indent, false)?,
            Some(l) if l.indent > indent => self.mapping(l.indent)?,
            _ => NodeValue::Null,
        };
        Some(node(v))
    }

    /// The block sequence whose `-` stand at `indent`; `indentless` when that is its key's
    /// indentation, so the sequence ends at the next key there.
    fn sequence(&mut self, indent: usize, indentless: bool) -> Option<NodeValue<'t>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut items = Vec::new();
        while let Some(line) = self.lines.peek() {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return None;
            }
            let Some(rest) = line.text.strip_prefix("- ") else {
                if indentless {
                    break;
                }
                return None;
            };
            self.lines.advance();
            let rest = rest.trim_start_matches(' ');
            // An empty item (null) or a comment after the dash: left to the full path.
            if rest.is_empty() || rest.starts_with('#') {
                return None;
            }
            items.push(self.inline(rest, false)?);
        }
        self.depth -= 1;
        Some(NodeValue::List(items))
    }

    /// A value on the rest of its line (`rest` starts with its first character): a scalar,
    /// or a flow sequence when `flow` allows one.
    fn inline(&self, rest: &'t str, flow: bool) -> Option<Node<'t>> {
        let b = rest.as_bytes();
        match b[0] {
            b'"' | b'\'' => {
                let (s, after) = quoted(rest)?;
                end_of_line(after).then(|| node(NodeValue::Str(s)))
            }
            b'[' if flow => self.flow_sequence(&rest[1..]),
            c if starts_other(c, b.get(1).copied()) => None,
            _ => {
                let text = match rest.find(" #") {
                    Some(i) => rest[..i].trim_end_matches(' '),
                    None => rest,
                };
                // `: ` or a `:` at the end would make a key of what comes before.
                if text.contains(": ") || text.ends_with(':') {
                    return None;
                }
                Some(self.plain(text))
            }
        }
    }

    /// `[a, "b", 'c']`, from just past the `[`: scalars on one line, nothing nested, no
    /// empty item (a comma may end the last), then at most a comment.
    fn flow_sequence(&self, mut rest: &'t str) -> Option<Node<'t>> {
        let mut items = Vec::new();
        rest = rest.trim_start_matches(' ');
        if let Some(after) = rest.strip_prefix(']') {
            return end_of_line(after).then(|| node(NodeValue::List(items)));
        }
        loop {
            rest = rest.trim_start_matches(' ');
            let b = rest.as_bytes();
            let (item, after) = match *b.first()? {
                b'"' | b'\'' => {
                    let (s, after) = quoted(rest)?;
                    (node(NodeValue::Str(s)), after)
                }
                c if starts_other(c, b.get(1).copied()) => return None,
                _ => {
                    // A plain item ends at `,` or `]`; `:`, `#` and the other flow
                    // indicators inside one are left to the full path.
                    let end = rest.find([',', ']', '[', '{', '}', ':', '#'])?;
                    // yaml-rust2 refuses a `-` right before a flow indicator after a space
                    // (`[a -]`): any `-` there is left to it.
                    if !matches!(b[end], b',' | b']') || b[end - 1] == b'-' {
                        return None;
                    }
                    (self.plain(rest[..end].trim_end_matches(' ')), &rest[end..])
                }
            };
            items.push(item);
            let after = after.trim_start_matches(' ');
            match after.as_bytes().first()? {
                b',' => {
                    rest = after[1..].trim_start_matches(' ');
                    // A comma before the `]` ends no item (`[a, b,]` is `[a, b]`).
                    if let Some(after) = rest.strip_prefix(']') {
                        return end_of_line(after).then(|| node(NodeValue::List(items)));
                    }
                }
                b']' => {
                    return end_of_line(&after[1..]).then(|| node(NodeValue::List(items)));
                }
                _ => return None,
            }
        }
    }

    /// A plain scalar, typed as the full path types it.
    fn plain(&self, text: &'t str) -> Node<'t> {
        let n = from_yaml(scalar(
            text.to_owned(),
            TScalarStyle::Plain,
            None,
            self.dialect,
        ));
        // The same text, borrowed from the block rather than copied.
        match n.v {
            NodeValue::Str(_) => node(NodeValue::Str(Cow::Borrowed(text))),
            _ => n,
        }
    }
}

/// `key: …` or `key:` split into the key (a plain word: ASCII letters, digits, `_`, and `-`
/// or `.` after the first) and what follows the colon.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    if !(b.first()?.is_ascii_alphanumeric() || b[0] == b'_') {
        return None;
    }
    let end = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')))?;
    if end > MAX_KEY || b[end] != b':' {
        return None;
    }
    let rest = &text[end + 1..];
    (rest.is_empty() || rest.starts_with(' ')).then_some((&text[..end], rest))
}

/// Whether a line is a block sequence item (`- …`, or a lone `-`).
fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Whether a value starting with `c` (then `next`) is something other than a plain scalar
/// this path reads: YAML's indicators, except a `-` starting a number (`-1`, `-.5`).
fn starts_other(c: u8, next: Option<u8>) -> bool {
    match c {
        b'-' => !matches!(next, Some(b'0'..=b'9' | b'.')),
        b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
        | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' => true,
        _ => false,
    }
}

/// Whether what follows a value's end on its line is nothing or a comment after a space.
fn end_of_line(after: &str) -> bool {
    let trimmed = after.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < after.len())
}

/// A quoted scalar that closes on its line, from its opening quote: its text and what
/// follows the closing quote. `None` when it does not close there or holds an escape YAML
/// refuses.
fn quoted(s: &str) -> Option<(Cow<'_, str>, &str)> {
    match s.strip_prefix('\'') {
        Some(inside) => single_quoted(inside),
        None => double_quoted(&s[1..]),
    }
}

/// The text of a single-quoted scalar from just past its opening quote (`''` is a quote).
fn single_quoted(s: &str) -> Option<(Cow<'_, str>, &str)> {
    let first = s.find('\'')?;
    if s.as_bytes().get(first + 1) != Some(&b'\'') {
        return Some((Cow::Borrowed(&s[..first]), &s[first + 1..]));
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let q = rest.find('\'')?;
        out.push_str(&rest[..q]);
        if rest.as_bytes().get(q + 1) == Some(&b'\'') {
            out.push('\'');
            rest = &rest[q + 2..];
        } else {
            return Some((Cow::Owned(out), &rest[q + 1..]));
        }
    }
}

/// The text of a double-quoted scalar from just past its opening quote, its escapes
/// resolved as yaml-rust2 resolves them (the escapes YAML 1.2 defines).
fn double_quoted(s: &str) -> Option<(Cow<'_, str>, &str)> {
    let stop = s.find(['"', '\\'])?;
    if s.as_bytes()[stop] == b'"' {
        return Some((Cow::Borrowed(&s[..stop]), &s[stop + 1..]));
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let stop = rest.find(['"', '\\'])?;
        out.push_str(&rest[..stop]);
        if rest.as_bytes()[stop] == b'"' {
            return Some((Cow::Owned(out), &rest[stop + 1..]));
        }
        // A backslash at the end of the line continues the scalar on the next: declined.
        let esc = *rest.as_bytes().get(stop + 1)?;
        // Every escape is an ASCII character: past it is a character boundary. Any other
        // is an error in YAML (refused below, before slicing).
        if !esc.is_ascii() {
            return None;
        }
        rest = &rest[stop + 2..];
        let c = match esc {
            b'0' => '\0',
            b'a' => '\x07',
            b'b' => '\x08',
            b't' => '\t',
            b'n' => '\n',
            b'v' => '\x0b',
            b'f' => '\x0c',
            b'r' => '\r',
            b'e' => '\x1b',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
            b'x' | b'u' | b'U' => super::formats::hex_escape(esc, &mut rest)?,
            _ => return None,
        };
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::testing::{Rng, agrees_on_generated, generated_seeds};
    use crate::frontmatter::yaml::load_as;

    const DIALECTS: [Dialect; 3] = [Dialect::Core, Dialect::GoYamlV2, Dialect::Goccy];

    /// The full path's tree for `block`, as text; `Err` when it fails.
    fn full(block: &str, dialect: Dialect) -> Result<String, String> {
        match load_as(block, dialect) {
            Ok(doc) => Ok(format!(
                "{:?}",
                doc.map_or_else(|| node(NodeValue::Null), from_yaml)
            )),
            Err(e) => Err(format!("{e:?}")),
        }
    }

    /// Whether the fast path accepts `block` (in the core dialect); wherever it accepts, in
    /// any dialect, its tree must be the full path's, and the full path must not fail.
    fn agrees(block: &str) -> bool {
        let mut accepted = false;
        for d in DIALECTS {
            let Some(fast) = tree(block, d) else {
                continue;
            };
            let fast = format!("{fast:?}");
            match full(block, d) {
                Ok(full) => assert_eq!(fast, full, "{d:?}, {block:?}"),
                Err(e) => {
                    panic!("{d:?}: the fast path accepts {block:?}, the full path fails: {e}")
                }
            }
            accepted |= d == Dialect::Core;
        }
        accepted
    }

    fn get<'a>(n: &'a Node<'a>, key: &str) -> &'a NodeValue<'a> {
        &n.entries()
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no {key} in {n:?}"))
            .1
            .v
    }

    fn texts(v: &NodeValue<'_>) -> Vec<String> {
        match v {
            NodeValue::List(items) => items.iter().map(|n| n.as_text().unwrap()).collect(),
            other => panic!("not a list: {other:?}"),
        }
    }

    #[test]
    fn reads_the_usual_front_matter() {
        let block = "title: \"Sprite target kernel tracker\"\ndescription: 'About packet and update.'\ndate: 2017-06-18T06:27:16+00:00\ndraft: false\nweight: 3\ntags: [\"index\", \"orbit\", \"query\"]\ncategories:\n  - news\nsitemap:\n  priority: 0.1\n";
        assert!(agrees(block));
        let n = tree(block, Dialect::Goccy).unwrap();
        assert!(
            matches!(get(&n, "title"), NodeValue::Str(s) if s == "Sprite target kernel tracker")
        );
        assert!(
            matches!(get(&n, "description"), NodeValue::Str(s) if s == "About packet and update.")
        );
        assert!(matches!(get(&n, "date"), NodeValue::Str(s) if s == "2017-06-18T06:27:16+00:00"));
        assert!(matches!(get(&n, "draft"), NodeValue::Bool(false)));
        assert!(matches!(get(&n, "weight"), NodeValue::Int(3)));
        assert_eq!(texts(get(&n, "tags")), ["index", "orbit", "query"]);
        assert_eq!(texts(get(&n, "categories")), ["news"]);
        let NodeValue::Map(sitemap) = get(&n, "sitemap") else {
            panic!("{n:?}")
        };
        assert!(
            matches!(sitemap[..], [(ref k, Node { v: NodeValue::Float(p), .. })] if k == "priority" && p == 0.1)
        );
        // Keys sorted, as the full path gives them.
        let keys: Vec<&str> = n.entries().iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(
            keys,
            [
                "categories",
                "date",
                "description",
                "draft",
                "sitemap",
                "tags",
                "title",
                "weight"
            ]
        );
    }

    #[test]
    fn reads_the_subsets_edges_as_the_full_path_does() {
        for block in [
            // Sequences at their key's indentation and deeper, nested mappings, nulls.
            "tags:\n- a\n- b\nx: 1\n",
            "a:\n  b:\n    c: [1, 2.5, x]\n  d:\n     - \"q\"\n     - 'r'\ne:\nf: ~\n",
            "a:\n  b: 1\nc: 2\n",
            "  a: 1\n  b: 2\n",
            // Comments anywhere a line may hold one, blank lines, trailing spaces.
            "# c\na: 1 # c\n\n   # deeper c\nb:   # c\n  c: 'x'  # c\n  d: [a, b] # c\n  \ne: \"y\"   \n",
            "a:\n# between\n  b: 1\n",
            // Plain text with YAML's characters where they are only text.
            "a: C# and F#\nb: http://x.y/z?q=1#frag\nc: a, b [c] {d}\nd: it's \"so\"\ne: a:b\nf: ü ∑ 日本\n",
            "a: 50%\nb: x & y * z ! | >\nc: a - b\nd: -1\ne: -.5\nf: .inf\ng: +1\n",
            // Every spelling of the typed scalars.
            "a: 0x1F\nb: 0o17\nc: 1e3\nd: 1E3\ne: 1.5\nf: TRUE\ng: yes\nh: Null\ni: 007\nj: 99999999999999999999\nk: .NaN\nl: -.Inf\n",
            // Keys typed as scalars, then read as text.
            "true: a\n1: b\n0x1F: c\n1e3: d\nnull: e\nyes: f\n1.50: g\n",
            // Quoted text: escapes, doubled quotes, characters that are only text inside.
            "a: \"\\\"q\\\" \\\\ \\/ \\t \\n \\x41 \\u00e9 \\U0001F600 \\0 \\N \\_ \\L \\P \\  \\e\"\nb: 'it''s # not: a comment'\nc: \"  spaced  \"\nd: ''\ne: \"\"\n",
            "a: [\"x, y\", 'z]', plain words, -1, 0x10]\nb: []\nc: [ ]\nd: [x,]\ne: ['y' , ] # c\nf: [b - c, d - ]\n",
        ] {
            assert!(agrees(block), "declined: {block:?}");
        }
    }

    #[test]
    fn scalars_are_typed_per_dialect() {
        let block = "a: yes\nb: 1e3\nc: on\n";
        for (d, a, b) in [
            (Dialect::Core, "Str(\"yes\")", "Float(1000.0)"),
            (Dialect::GoYamlV2, "Bool(true)", "Float(1000.0)"),
            (Dialect::Goccy, "Str(\"yes\")", "Str(\"1e3\")"),
        ] {
            let n = tree(block, d).unwrap();
            assert_eq!(format!("{:?}", get(&n, "a")), a, "{d:?}");
            assert_eq!(format!("{:?}", get(&n, "b")), b, "{d:?}");
        }
        // `yes` and `on` are one key (true) in YAML 1.1: twice, left to the full path (which
        // takes the last, as yaml.v2 does); elsewhere two.
        let block = "yes: 1\non: 2\n";
        assert!(tree(block, Dialect::GoYamlV2).is_none());
        assert!(full(block, Dialect::GoYamlV2).is_ok());
        assert!(full(block, Dialect::Goccy).is_ok());
        assert!(agrees(block));
    }

    #[test]
    fn declines_what_it_does_not_read() {
        for block in [
            "",
            "# only a comment\n",
            // A key twice (yaml-rust2 errs), also where the keys read alike only as values.
            "a: 1\na: 2\n",
            "x:\n  a: 1\n  a: 1\n",
            "true: 1\nTrue: 2\n",
            "1: a\n01: b\n",
            // Anchors, aliases, tags, block scalars, flow mappings, complex keys.
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: |\n  text\n",
            "a: >-\n  text\n",
            "a: {b: 1}\n",
            "? a\n: b\n",
            "a: [b, {c: d}]\n",
            "a: [b, [c]]\n",
            // Values over more than one line, or lines YAML would join to them.
            "a: plain\n  continued\n",
            "a: \"quoted\n  on\"\n",
            "a: 'x\n  y'\n",
            "a: [x,\n  y]\n",
            "a: \"esc \\\n  aped\"\n",
            "a: 1\n  b: 2\n",
            "a:\n    b: 1\n  c: 2\n",
            "- a\n- b\n",
            "a:\n  - x\n  b: 1\n",
            "a:\n  - x\n   - y\n",
            // Document markers and directives inside, BOM, tabs, CR, control characters.
            "a: 1\n--- \nb: 2\n",
            "%YAML 1.2\na: 1\n",
            "\u{feff}a: 1\n",
            "a:\t1\n",
            "a: 1\r\n",
            "a: x\u{7}y\n",
            "a: x\u{85}y\n",
            "a: x\u{2028}y\n",
            // Plain values YAML reads another way, or refuses.
            "a: b: c\n",
            "a: b:\n",
            "a: @x\n",
            "a: `x`\n",
            "a: -x\n",
            "a: :x\n",
            "a: ?x\n",
            "a: - x\n",
            // Quoted values with more after them, bad escapes, no comment space.
            "a: \"x\" y\n",
            "a: \"x\"#c\n",
            "a: \"\\q\"\n",
            "a: \"\\ud800\"\n",
            "a: \"\\x4\"\n",
            "a: \"\\é\"\n",
            "a: \"\\😀\"\n",
            "a: \"\\u00e\"\n",
            // Flow sequences with empty items, two commas at the end, odd content.
            "a: [, b]\n",
            "a: [b,,]\n",
            "a: [,]\n",
            "a: [b] c\n",
            "a: [b]#c\n",
            "a: [b: c]\n",
            "a: [b #c]\n",
            "a: [b -]\n",
            "a: [b -, c]\n",
            // Keys outside the plain words, keys without a space after the colon.
            "a b: 1\n",
            "\"a\": 1\n",
            "a:b\n",
            "a : 1\n",
            "<<: {}\n",
            // Empty sequence items.
            "a:\n  -\n  - b\n",
            "a:\n  - # c\n",
        ] {
            assert!(tree(block, Dialect::Core).is_none(), "accepted: {block:?}");
        }
        // Deep nesting stops here long before the full path's limit.
        let deep: String = (0..40).map(|d| format!("{}k:\n", " ".repeat(d))).collect();
        assert!(tree(&deep, Dialect::Core).is_none());
        let shallow: String = (0..20).map(|d| format!("{}k:\n", " ".repeat(d))).collect();
        assert!(agrees(&shallow));
        // So do keys near yaml-rust2's length limit for simple keys.
        assert!(tree(&format!("{}: 1\n", "k".repeat(2000)), Dialect::Core).is_none());
    }

    const KEYS: &[&str] = &[
        "a", "b", "c", "title", "Title", "date", "tags", "true", "True", "yes", "on", "Y", "null",
        "1", "01", "0x1F", "31", "1e3", "1.5", "1.50", ".5", "key-x", "k.y", "_k", "a b", "-k",
        "k:", "\"q\"", "'q'", "é", "? k", "&a k", "!t k", "<<", "~", "a#b",
    ];

    /// Scalars the typing rules and the scanner treat apart, in every spelling.
    const WORDS: &[&str] = &[
        "true",
        "True",
        "TRUE",
        "tRue",
        "false",
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "n",
        "null",
        "Null",
        "NULL",
        "~",
        ".inf",
        "-.Inf",
        "+.inf",
        ".NaN",
        "inf",
        "nan",
        "0x1F",
        "0x",
        "0xG",
        "0o17",
        "0b101",
        "1e3",
        "1E3",
        "1.5e3",
        "-1e3",
        "+12",
        "+",
        "-5",
        "-0",
        "007",
        "1_000",
        "3.14",
        ".5",
        "-.5",
        "1.",
        "0",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "2017-06-18T06:27:16+00:00",
        "2017-06-18",
        "12:30:45",
        "1:2",
        "word",
        "two words",
        "x",
        "Ünïcödé",
        "日本語",
        "a\u{a0}b",
    ];

    /// Pieces of text, most harmless, some with a meaning to YAML somewhere.
    const BITS: &[&str] = &[
        "a", "b", "word", "1", "2.5", " ", "  ", ":", ": ", " :", "#", " #", "# ", "'", "''", "\"",
        "-", "- ", "?", "? ", ",", ", ", "[", "]", "{", "}", "&", "*", "!", "|", ">", "%", "@",
        "`", "é", "日本", "\\", "/", ".", "..", "...", "---", "\t", "\r", "\u{feff}", "\u{85}",
        "\u{2028}", "\u{a0}", "\u{1}", "😀", "true", "~", "0x1F", "1e3", "http://x",
    ];

    const ESCAPES: &[&str] = &[
        "\\\"",
        "\\\\",
        "\\n",
        "\\t",
        "\\x41",
        "\\xe9",
        "\\u00e9",
        "\\U0001F600",
        "\\q",
        "\\ud800",
        "\\x4",
        "\\/",
        "\\0",
        "\\ ",
        "\\N",
        "\\_",
        "\\L",
        "\\P",
        "\\e",
        "\\U00110000",
        "\\",
        "\\\t",
    ];

    /// Text of one to three bits or words.
    fn text(r: &mut Rng) -> String {
        let mut s = String::new();
        for _ in 0..1 + r.below(3) {
            s += if r.odd(3) {
                r.pick(BITS)
            } else {
                r.pick(WORDS)
            };
        }
        s
    }

    fn scalar_text(r: &mut Rng) -> String {
        match r.below(14) {
            0..=7 => r.pick(WORDS).to_string(),
            8 | 9 => text(r),
            10 => {
                let mut s = String::from("\"");
                for _ in 0..r.below(4) {
                    s += if r.one_in(3) {
                        r.pick(ESCAPES)
                    } else {
                        r.pick(BITS)
                    };
                }
                if !r.odd(10) {
                    s.push('"');
                }
                s
            }
            11 => {
                let mut s = String::from("'");
                for _ in 0..r.below(4) {
                    s += r.pick(BITS);
                }
                if !r.odd(10) {
                    s.push('\'');
                }
                s
            }
            12 => format!("\"{}\"", r.pick(WORDS)),
            _ => format!("'{}'", r.pick(WORDS)),
        }
    }

    fn flow_list(r: &mut Rng) -> String {
        let mut s = String::from(if r.one_in(8) { "[ " } else { "[" });
        for i in 0..r.below(4) {
            if i > 0 {
                s += r.pick(&[", ", ",", " , ", ",  "]);
            }
            s += &scalar_text(r);
        }
        if r.odd(12) {
            s += r.pick(&[",", ", ", ",,"]);
        }
        if !r.odd(12) {
            s += "]";
        }
        s
    }

    /// What may end a line: nothing, spaces, a comment.
    fn line_end(r: &mut Rng) -> &'static str {
        if r.odd(8) {
            r.pick(&["#c", "   #: c # d", " #"])
        } else {
            r.pick(&["", "", "", "", "  ", " ", " # comment"])
        }
    }

    /// A key at `indent` (now and then one column off) and its value, appended to `out`.
    fn mapping(r: &mut Rng, indent: usize, depth: usize, out: &mut String) {
        for _ in 0..1 + r.below(5) {
            match r.below(14) {
                0 => out.push_str(&format!("{}# a comment: x\n", " ".repeat(r.below(6)))),
                1 => out.push_str(&" ".repeat(r.below(4))),
                _ => {}
            }
            if r.one_in(14) {
                // A blank line, now and then of spaces deeper or shallower than the keys.
                out.push_str(&" ".repeat(r.below(2) * r.below(8)));
                out.push('\n');
            }
            let at = match r.odd(15) {
                true if r.one_in(2) => indent + 1,
                true if indent > 0 => indent - 1,
                _ => indent,
            };
            let key = if r.odd(6) {
                r.pick(KEYS).to_string()
            } else if r.odd(3) {
                // Few names, so a key comes twice now and then.
                r.pick(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
                    .to_string()
            } else {
                format!("k{}", r.below(10_000))
            };
            out.push_str(&" ".repeat(at));
            out.push_str(&key);
            out.push(':');
            match r.below(10) {
                0..=4 => {
                    out.push_str(&" ".repeat(1 + r.below(2)));
                    out.push_str(&scalar_text(r));
                    out.push_str(line_end(r));
                    out.push('\n');
                }
                5 => {
                    out.push(' ');
                    out.push_str(&flow_list(r));
                    out.push_str(line_end(r));
                    out.push('\n');
                }
                6 | 7 if depth < 4 => {
                    out.push_str(line_end(r));
                    out.push('\n');
                    let deeper = indent + 1 + r.below(3);
                    mapping(r, deeper, depth + 1, out);
                }
                8 => {
                    out.push_str(line_end(r));
                    out.push('\n');
                    let dash = if r.one_in(2) {
                        indent
                    } else {
                        indent + 1 + r.below(3)
                    };
                    for _ in 0..1 + r.below(3) {
                        let off = if r.odd(25) { 1 } else { 0 };
                        out.push_str(&" ".repeat(dash + off));
                        out.push_str(if r.odd(6) {
                            r.pick(&["-", "-\t", "-- "])
                        } else {
                            r.pick(&["- ", "-  "])
                        });
                        if !r.odd(15) {
                            out.push_str(&scalar_text(r));
                        }
                        out.push_str(line_end(r));
                        out.push('\n');
                    }
                }
                _ => {
                    out.push_str(line_end(r));
                    out.push('\n');
                }
            }
        }
    }

    fn block(seed: u64) -> String {
        let mut r = Rng(seed, 1);
        r.1 = if r.one_in(2) { 1 } else { 8 };
        let mut out = String::new();
        let indent = if r.one_in(10) { 1 + r.below(2) } else { 0 };
        mapping(&mut r, indent, 0, &mut out);
        // Now and then, a line of something else: a construct outside the subset, noise.
        if r.odd(10) {
            let noise = r.pick(&[
                "--- x\n",
                "...\n",
                "%YAML 1.2\n",
                "  - stray\n",
                "? complex\n",
                "a: &x 1\n",
                "b: *x\n",
                "c: |\n  block\n",
                "d: >-\n  folded\n",
                "e: {a: 1}\n",
                "f: !!str x\n",
                "  continued\n",
                "g: \"open\n",
                "-\n",
            ]);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(out.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            let at = starts[r.below(starts.len())];
            out.insert_str(at, noise);
        }
        if r.one_in(30) {
            out.pop();
        }
        out
    }

    #[test]
    fn agrees_with_the_full_path_on_generated_blocks() {
        agrees_on_generated(generated_seeds(), |s| agrees(&block(s)));
    }

    /// The same over five million blocks (about a minute in release): run by hand after a
    /// change here.
    #[test]
    #[ignore]
    fn agrees_with_the_full_path_on_millions_of_generated_blocks() {
        agrees_on_generated(1 << 32..(1 << 32) + 5_000_000, |s| agrees(&block(s)));
    }
}
