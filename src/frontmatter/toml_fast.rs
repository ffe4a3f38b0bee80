//! A fast path for the TOML front matter most pages have: `key = value` lines, then a
//! `[table]` or two of the same. Such a block is read straight into the neutral tree;
//! anything outside that subset is declined (`None`) and goes to the toml crate
//! ([`super::formats::toml_tree`]), which parses every block the same way whether or not this
//! path exists. Whenever this path accepts a block, its tree is the one the full path gives
//! (the same values, keys in the same sorted order, the same byte offsets in `at`), and it
//! accepts no block the toml crate refuses: it declines on a key given twice, a table given
//! twice or also as a key, and on any literal it does not read exactly as TOML does.
//!
//! The subset: bare keys (`A-Za-z0-9_-`); values: basic strings on one line (TOML's escapes),
//! literal strings on one line, `true`/`false`, decimal integers and floats (no `_`, no
//! leading zero, no `inf`/`nan`), date-times, dates and times written without a space
//! (judged by the same [`toml::value::Datetime`] parser the toml crate uses), and arrays of
//! such scalars, on one line or over several with comments between items (a comma may end
//! them); `[table]` headers of bare keys, dotted ones too (`[extra.author]`, the tables
//! passed through made as TOML makes them); blank lines, comments, spaces.
//! Declined: tabs, CR, control characters, a BOM, multi-line strings, inline tables, nested
//! arrays, arrays of tables, dotted keys on key lines, quoted keys, other number forms,
//! anything else.

use std::borrow::Cow;

use super::formats::{toml_float, toml_int, N, V};

type Entries<'t> = Vec<(Cow<'t, str>, N<'t>)>;

/// `block` (a TOML front matter block, its `+++` lines already cut off) as the neutral tree,
/// or `None` when the block is outside the subset this path reads.
pub(super) fn tree(block: &str) -> Option<N<'_>> {
    if !plain_text(block.as_bytes()) {
        return None;
    }
    let mut root: Entries<'_> = Vec::new();
    // Every table a header names or passes through, in the order they first appear.
    let mut tables: Vec<Table<'_>> = Vec::new();
    // The table the key lines now go to (an index in `tables`), `None` for the root.
    let mut current = None;
    // What is left of the block, always at the start of a line.
    let mut rest = block;
    while !rest.is_empty() {
        let body = rest.trim_start_matches(' ');
        let at = block.len() - body.len();
        if body.is_empty() || body.starts_with(['\n', '#']) {
            rest = next_line(body);
            continue;
        }
        if let Some(after) = body.strip_prefix('[') {
            let (path, after) = header_path(after)?;
            rest = end_of_line(after)?;
            current = Some(open_table(&mut tables, path, at)?);
            continue;
        }
        let (key, after) = bare_key(body)?;
        let after = after.trim_start_matches(' ').strip_prefix('=')?;
        let (value, after) = value(block, after.trim_start_matches(' '), true)?;
        rest = end_of_line(after)?;
        let into = match current {
            Some(i) => &mut tables[i].entries,
            None => &mut root,
        };
        into.push((Cow::Borrowed(key), value));
    }
    // A key given twice, or both a value and a table, is an error in TOML: caught here.
    Some(N {
        v: nest(&[], root, &mut tables)?,
        at: Some(0),
    })
}

/// A table a `[header]` names (`explicit`) or passes through, as the toml crate builds it.
struct Table<'t> {
    /// Its keys from the root.
    path: Vec<&'t str>,
    /// The offset the toml crate gives it: its header's `[`, or for a table only passed
    /// through, its key in the first header that does.
    at: usize,
    explicit: bool,
    entries: Entries<'t>,
}

/// The most keys a header may have here.
const MAX_HEADER_KEYS: usize = 8;

/// `a.b]` (past the `[`): the header's bare keys and what follows its `]`. `[[`, quoted keys
/// and spaces inside are declined.
fn header_path(mut s: &str) -> Option<(Vec<&str>, &str)> {
    let mut path = Vec::new();
    loop {
        let (key, after) = bare_key(s)?;
        path.push(key);
        if path.len() > MAX_HEADER_KEYS {
            return None;
        }
        match after.as_bytes().first()? {
            b'.' => s = &after[1..],
            b']' => return Some((path, &after[1..])),
            _ => return None,
        }
    }
}

/// Opens the table `path` whose header's `[` is at `at`, as the toml crate does: the tables
/// it passes through are made (implicitly) when missing, and the table itself may have been
/// made that way but not named by a header before. Gives its index in `tables`.
fn open_table<'t>(tables: &mut Vec<Table<'t>>, path: Vec<&'t str>, at: usize) -> Option<usize> {
    let mut key_at = at + 1;
    for n in 1..path.len() {
        if !tables.iter().any(|t| t.path[..] == path[..n]) {
            tables.push(Table {
                path: path[..n].to_vec(),
                at: key_at,
                explicit: false,
                entries: Vec::new(),
            });
        }
        key_at += path[n - 1].len() + 1;
    }
    match tables.iter().position(|t| t.path == path) {
        Some(i) if tables[i].explicit => None,
        Some(i) => {
            tables[i].explicit = true;
            tables[i].at = at;
            Some(i)
        }
        None => {
            tables.push(Table {
                path,
                at,
                explicit: true,
                entries: Vec::new(),
            });
            Some(tables.len() - 1)
        }
    }
}

/// The table at `path` as a map: its own `entries` and the tables one key below it, sorted
/// by key; `None` when a key comes twice (also as a value and a table).
fn nest<'t>(path: &[&'t str], mut entries: Entries<'t>, tables: &mut [Table<'t>]) -> Option<V<'t>> {
    for i in 0..tables.len() {
        let t = &tables[i];
        if t.path.len() != path.len() + 1 || t.path[..path.len()] != *path {
            continue;
        }
        let (key, at) = (t.path[path.len()], t.at);
        let own = std::mem::take(&mut tables[i].entries);
        let sub = tables[i].path.clone();
        let v = nest(&sub, own, tables)?;
        entries.push((Cow::Borrowed(key), N { v, at: Some(at) }));
    }
    sorted(entries)
}

/// What follows the end of the line `s` is on.
fn next_line(s: &str) -> &str {
    s.find('\n').map_or("", |i| &s[i + 1..])
}

/// A table's entries in the toml crate's order (sorted by key); `None` when a key comes twice.
fn sorted(mut entries: Entries<'_>) -> Option<V<'_>> {
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    if entries.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    Some(V::Map(entries))
}

/// Whether `b` holds no control character besides the newline (no tab, no CR, no DEL) and
/// no BOM, which this path leaves to the toml crate.
fn plain_text(b: &[u8]) -> bool {
    !b.iter().any(|&c| (c < 0x20 && c != b'\n') || c == 0x7f) && !has_bom(b)
}

fn has_bom(b: &[u8]) -> bool {
    b.windows(3).any(|w| w == [0xef, 0xbb, 0xbf])
}

/// A bare key at the start of `s` (ASCII letters, digits, `_`, `-`) and what follows it.
fn bare_key(s: &str) -> Option<(&str, &str)> {
    let end = s
        .bytes()
        .position(|c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-'))
        .unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

/// The next line, when what follows a value or header on its line is nothing, spaces, or a
/// comment; `None` when it is anything else.
fn end_of_line(after: &str) -> Option<&str> {
    let rest = after.trim_start_matches(' ');
    (rest.is_empty() || rest.starts_with(['\n', '#'])).then(|| next_line(rest))
}

/// `s` past what TOML allows between an array's items: spaces, newlines, comments.
fn gap(mut s: &str) -> &str {
    loop {
        s = s.trim_start_matches(' ');
        match s.as_bytes().first() {
            Some(b'#' | b'\n') => s = next_line(s),
            _ => return s,
        }
    }
}

/// The value at the start of `s` (a part of `block`) and what follows it; an array only when
/// `array` allows one (not inside another).
fn value<'t>(block: &'t str, s: &'t str, array: bool) -> Option<(N<'t>, &'t str)> {
    let at = Some(block.len() - s.len());
    let (v, after) = match *s.as_bytes().first()? {
        b'"' => basic_string(&s[1..])?,
        b'\'' => literal_string(&s[1..])?,
        b'[' if array => self::array(block, s)?,
        _ => {
            // A bare value runs to a space, a comma, a `]`, a comment or the line's end.
            let end = s.find([' ', ',', ']', '#', '\n']).unwrap_or(s.len());
            (bare(&s[..end])?, &s[end..])
        }
    };
    Some((N { v, at }, after))
}

/// `[a, "b", 1]` from its `[` (a part of `block`): scalars only, on one line or several with
/// comments between them; a comma may end it.
fn array<'t>(block: &'t str, s: &'t str) -> Option<(V<'t>, &'t str)> {
    let mut items = Vec::new();
    let mut rest = gap(&s[1..]);
    loop {
        if let Some(after) = rest.strip_prefix(']') {
            return Some((V::List(items), after));
        }
        let (item, after) = value(block, rest, false)?;
        items.push(item);
        let after = gap(after);
        rest = match after.as_bytes().first()? {
            b',' => gap(&after[1..]),
            b']' => after,
            _ => return None,
        };
    }
}

/// A literal string from just past its opening `'`: its text and what follows the closing
/// quote. A `'''` string (multi-line) is declined.
fn literal_string(s: &str) -> Option<(V<'_>, &str)> {
    if s.starts_with("''") {
        return None;
    }
    let end = s.find(['\'', '\n'])?;
    (s.as_bytes()[end] == b'\'').then(|| (V::Str(Cow::Borrowed(&s[..end])), &s[end + 1..]))
}

/// A basic string from just past its opening `"`, its escapes resolved as TOML 1.1 defines
/// them; `None` for a `"""` string (multi-line), one not closed on its line, or a bad escape.
fn basic_string(s: &str) -> Option<(V<'_>, &str)> {
    if s.starts_with("\"\"") {
        return None;
    }
    let stop = s.find(['"', '\\', '\n'])?;
    match s.as_bytes()[stop] {
        b'"' => return Some((V::Str(Cow::Borrowed(&s[..stop])), &s[stop + 1..])),
        b'\n' => return None,
        _ => {}
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let stop = rest.find(['"', '\\', '\n'])?;
        out.push_str(&rest[..stop]);
        match rest.as_bytes()[stop] {
            b'"' => return Some((V::Str(Cow::Owned(out)), &rest[stop + 1..])),
            b'\n' => return None,
            _ => {}
        }
        let esc = *rest.as_bytes().get(stop + 1)?;
        // Every escape is an ASCII character, so past it is a character boundary; any other
        // character there is an error (refused below, before slicing).
        if !esc.is_ascii() {
            return None;
        }
        rest = &rest[stop + 2..];
        let c = match esc {
            b'b' => '\u{8}',
            b'e' => '\u{1b}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'\\' => '\\',
            b'"' => '"',
            b'x' | b'u' | b'U' => super::formats::hex_escape(esc, &mut rest)?,
            _ => return None,
        };
        out.push(c);
    }
}

/// A bare value: `true`, `false`, a decimal integer or float, or a date-time; `None` for any
/// other text (other number forms, `inf`, `nan`, words TOML refuses).
fn bare(t: &str) -> Option<V<'static>> {
    match t {
        "true" => return Some(V::Bool(true)),
        "false" => return Some(V::Bool(false)),
        _ => {}
    }
    let b = t.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    // Digits then `-` or `:`: what TOML reads as a date-time, judged by the toml crate's own
    // parser from the same text (it decides what the literal is, or refuses it).
    if digits > 0 && matches!(b.get(digits), Some(b'-' | b':')) {
        if !b
            .iter()
            .all(|c| c.is_ascii_digit() || b"-:.+TtZz".contains(c))
        {
            return None;
        }
        return t.parse::<toml::value::Datetime>().ok().map(V::Date);
    }
    let (fraction, exponent) = decimal(t)?;
    if !fraction && !exponent {
        return Some(toml_int(t, 10));
    }
    Some(toml_float(t))
}

/// `t` as a TOML decimal number: `[+-]` then `0` or digits without a leading zero, then
/// perhaps `.digits`, then perhaps an exponent `e[+-]digits`. Gives whether the fraction
/// and the exponent are there.
fn decimal(t: &str) -> Option<(bool, bool)> {
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int = digit_run(b, &mut i);
    if int == 0 || (int > 1 && b[i - int] == b'0') {
        return None;
    }
    let mut fraction = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digit_run(b, &mut i) == 0 {
            return None;
        }
        fraction = true;
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digit_run(b, &mut i) == 0 {
            return None;
        }
        exponent = true;
    }
    (i == b.len()).then_some((fraction, exponent))
}

/// How many ASCII digits stand at `b[*i..]`, moving `i` past them.
fn digit_run(b: &[u8], i: &mut usize) -> usize {
    let n = b[*i..].iter().take_while(|c| c.is_ascii_digit()).count();
    *i += n;
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::formats::toml_tree;
    use crate::frontmatter::testing::{agrees_on_generated, generated_seeds, Rng};

    /// The full path's tree for `block`, as text; `Err` when the toml crate refuses it.
    fn full(block: &str) -> Result<String, String> {
        toml_tree(block)
            .map(|n| format!("{n:?}"))
            .map_err(|e| e.to_string())
    }

    /// Whether the fast path accepts `block`; wherever it does, its tree (offsets included)
    /// must be the full path's, and the full path must not fail.
    fn agrees(block: &str) -> bool {
        let Some(fast) = tree(block) else {
            return false;
        };
        let fast = format!("{fast:?}");
        match full(block) {
            Ok(full) => assert_eq!(fast, full, "{block:?}"),
            Err(e) => panic!("the fast path accepts {block:?}, the toml crate fails: {e}"),
        }
        true
    }

    fn get<'a>(n: &'a N<'a>, key: &str) -> &'a N<'a> {
        &n.entries()
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no {key} in {n:?}"))
            .1
    }

    #[test]
    fn reads_the_usual_front_matter() {
        let block = "title = \"Release format export project random\"\ndescription = \"About patch and sector.\"\ndate = 2012-07-31T08:20:52+02:00\ntags = [\"terminal\"]\ndraft = false\nweight = 10\n\n[sitemap]\npriority = 0.8\n";
        assert!(agrees(block));
        let n = tree(block).unwrap();
        assert_eq!(n.at, Some(0));
        let title = get(&n, "title");
        assert!(matches!(&title.v, V::Str(s) if s == "Release format export project random"));
        // Offsets are those of the value's first character, as the toml crate gives them.
        assert_eq!(title.at, Some(8));
        let date = get(&n, "date");
        assert!(matches!(&date.v, V::Date(d) if d.to_string() == "2012-07-31T08:20:52+02:00"));
        assert!(matches!(get(&n, "draft").v, V::Bool(false)));
        assert!(matches!(get(&n, "weight").v, V::Int(10)));
        assert_eq!(get(&n, "tags").as_text_list().unwrap(), ["terminal"]);
        let sitemap = get(&n, "sitemap");
        assert_eq!(sitemap.at, block.find("[sitemap]"));
        assert!(matches!(get(sitemap, "priority").v, V::Float(p) if p == 0.8));
        // Keys sorted, as the toml crate keeps them.
        let keys: Vec<&str> = n.entries().iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(
            keys,
            [
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
    fn reads_the_subsets_edges_as_the_toml_crate_does() {
        for block in [
            "",
            "\n\n",
            "# only a comment\n",
            "a = 1",
            "  a   =   1   # c\n   \n",
            "a=1#c\nb=\"x\"#c\nc=[1]#c\n[t]#c\n",
            // Keys: every bare character, words TOML gives a meaning to elsewhere.
            "A-b_9 = 1\n1234 = 2\n-_- = 3\ntrue = 4\ninf = 5\n0x1 = 6\n",
            // Integers and floats in every decimal spelling TOML allows.
            "a = 0\nb = -0\nc = +0\nd = 17\ne = -17\nf = +17\ng = 9223372036854775807\nh = -9223372036854775808\ni = 9223372036854775808\nj = 99999999999999999999999\n",
            "a = 0.0\nb = -0.0\nc = +1.5\nd = 3.14159\ne = 1e5\nf = 1E5\ng = 1e+05\nh = 1.5e-3\ni = 0.000001\nj = 1e400\nk = 6.02E23\n",
            // Booleans, date-times of every kind, lower-case separators.
            "a = true\nb = false\nc = 1979-05-27T07:32:00Z\nd = 1979-05-27t07:32:00z\ne = 1979-05-27T00:32:00.999999-07:00\nf = 1979-05-27T07:32:00\ng = 1979-05-27\nh = 07:32:00\ni = 00:32:00.5\nj = 07:32\nk = 1979-05-27T07:32Z\n",
            // Strings: escapes, quotes of the other kind, characters only text inside.
            "a = \"\\\" \\\\ \\b \\t \\n \\f \\r \\e \\x41 \\u00e9 \\U0001F600\"\nb = 'C:\\path\\ \"q\"'\nc = \"it's # not [a] comment, = x\"\nd = ''\ne = \"\"\nf = \"ü ∑ 日本 😀\"\n",
            // Arrays: empty, spaced, a comma at the end, mixed scalars.
            "a = []\nb = [ ]\nc = [1,2]\nd = [ \"x\" , 'y' , ]\ne = [1, 2.5, true, \"s\", 'l', 1979-05-27, 07:32:00]\nf = [\"a, b\", \"]\"]\n",
            // Tables: empty, after keys, several, the same key in each.
            "[a]\n",
            "x = 1\n[a]\nx = 2\n[b]\n[c]\nx = 3\n  [d]  # c\n  x = 4\n",
            "[a]\na = 1\n",
            // Dotted headers: the tables they pass through made as TOML makes them.
            "[a.b]\n",
            "x = 1\n[extra]\nx = 1\n[extra.author]\nname = \"n\"\n",
            "[extra.author]\nname = 1\n[extra]\nx = 1\n[other]\n",
            "[a.b.c]\n[a.b.d]\nx = 1\n  [a]\ny = 2\n[a.b]\nz = 3\n[a.e]\n",
            "x = 1\n[a.b]\n[c.d]\n[a.c]\n",
            // Arrays over several lines, comments and blank lines between their items.
            "tags = [\n  \"a\",\n  \"b\",\n]\nx = 1\n",
            "a = [ # c\n  1, # d\n  # e\n\n  2\n  ]  # f\nb = [\n]\n[t]\nc = [\n1\n,\n'x'\n]",
        ] {
            assert!(agrees(block), "declined: {block:?}");
        }
    }

    #[test]
    fn declines_what_it_does_not_read() {
        for block in [
            // Keys, tables given twice, or a table also a key (the toml crate refuses these).
            "a = 1\na = 2\n",
            "a = 1\n[a]\n",
            "[a]\n[a]\n",
            "[a]\nx = 1\nx = 2\n",
            // Outside the subset: dotted, quoted keys; nested, dotted, spaced, array tables.
            "a.b = 1\n",
            "\"a\" = 1\n",
            "'a' = 1\n",
            "[ a ]\n",
            "[a. b]\n",
            "[a .b]\n",
            "[a.]\n",
            "[.a]\n",
            "[a..b]\n",
            // Dotted headers over a value, a table named twice, or a key both.
            "a = 1\n[a.b]\n",
            "[a]\nb = 1\n[a.b]\n",
            "[a.b]\n[a]\nb = 1\n",
            "[a.b]\n[a.b]\n",
            "[a]\n[a.b]\n[a]\n",
            "[a.b]\n[a]\n[a]\n",
            "[a.b]\nc = 1\n[a.b.c]\n",
            "[[a]]\n",
            "[a] x\n",
            "a = {b = 1}\n",
            "a = [[1], [2]]\n",
            "a = [[1,\n  2]]\n",
            "a = \"\"\"x\"\"\"\n",
            "a = '''x'''\n",
            "a = \"\"\"\nx\n\"\"\"\n",
            // Number forms left to the toml crate, and numbers it refuses.
            "a = 0x1F\n",
            "a = 0o17\n",
            "a = 0b1\n",
            "a = 1_000\n",
            "a = inf\n",
            "a = -nan\n",
            "a = 007\n",
            "a = 01.5\n",
            "a = 1.\n",
            "a = .5\n",
            "a = 1e\n",
            "a = ++1\n",
            "a = +\n",
            // Date-times with a space, or that TOML refuses.
            "a = 1979-05-27 07:32:00Z\n",
            "a = 1979-13-27\n",
            "a = 1979-05-27T25:00:00\n",
            "a = 1979-5-27\n",
            "a = 1979-05-27T07:32:00+2:00\n",
            "a = 2012-07-31T08:20:52+02:00x\n",
            // Strings: bad escapes, not closed, more after them.
            "a = \"\\q\"\n",
            "a = \"\\/\"\n",
            "a = \"\\ud800\"\n",
            "a = \"\\U00110000\"\n",
            "a = \"\\x4\"\n",
            "a = \"\\é\"\n",
            "a = \"open\n",
            "a = 'open\n",
            "a = \"x\" y\n",
            "a = 'x''y'\n",
            // Words TOML does not have, nothing after `=`, no `=`.
            "a = True\n",
            "a = yes\n",
            "a = word\n",
            "a =\n",
            "a\n",
            "= 1\n",
            // Arrays with empty items, not closed, more after them.
            "a = [,]\n",
            "a = [1,,2]\n",
            "a = [1\n",
            "a = [1] 2\n",
            "a = [1 2]\n",
            "a = [1 # c]\n",
            "a = [1,\n",
            "a = [1,\n  # c",
            // Strings broken over lines.
            "a = [\"x\ny\"]\n",
            "a = \"x\ny\"\n",
            "a = 'x\ny'\n",
            "a = \"x\\\ny\"\n",
            // Tabs, CR, control characters, a BOM.
            "a =\t1\n",
            "a = 1\r\n",
            "a = \"x\u{7}\"\n",
            "a = \"x\u{7f}\"\n",
            "\u{feff}a = 1\n",
        ] {
            assert!(tree(block).is_none(), "accepted: {block:?}");
        }
    }

    /// Keys: bare ones, and the edges (dotted, quoted, empty, characters outside bare keys).
    const KEYS: &[&str] = &[
        "a", "b", "title", "date", "tags", "true", "1234", "-", "_", "A-b_9", "inf", "0x1", "a.b",
        "\"a\"", "'a'", "\"\"", "a b", "é", "a=b", "[a]", "#",
    ];

    /// Bare values the number, boolean and date-time rules treat apart, in every spelling.
    const WORDS: &[&str] = &[
        "true",
        "false",
        "True",
        "FALSE",
        "yes",
        "0",
        "-0",
        "+0",
        "1",
        "-17",
        "+17",
        "007",
        "00",
        "0.0",
        "-0.0",
        "+1.5",
        "3.14",
        "01.5",
        "1.",
        ".5",
        "-.5",
        "1e5",
        "1E5",
        "1e+05",
        "1.5e-3",
        "1e",
        "1e+",
        "1.e5",
        "1e5.5",
        "6.02E23",
        "1e400",
        "1_000",
        "1__0",
        "_1",
        "0x1F",
        "0X1F",
        "0o17",
        "0b101",
        "0d10",
        "+0x1",
        "inf",
        "+inf",
        "-nan",
        "nan",
        "Inf",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999999",
        "++1",
        "+-1",
        "+",
        "-",
        "1979-05-27T07:32:00Z",
        "1979-05-27t07:32:00z",
        "1979-05-27T00:32:00.999999-07:00",
        "1979-05-27T07:32:00",
        "1979-05-27",
        "07:32:00",
        "00:32:00.5",
        "07:32",
        "1979-05-27T07:32Z",
        "2012-07-31T08:20:52+02:00",
        "1979-05-27T07:32:00+14:00",
        "1979-05-27T07:32:00-00:00",
        "1979-13-27",
        "1979-02-30",
        "1979-5-27",
        "1979-05-27T25:00:00",
        "24:00:00",
        "07:60:00",
        "07:32:60",
        "1979-05-27T07:32:00+2:00",
        "1979-05-27T07:32:00.",
        "1979-05-27T",
        "1979-05",
        "1979-05-27Z",
        "07:32:00Z",
        "1979-05-27T07:32:00+02",
        "0000-01-01",
        "1-2",
        "12:30:45.123456789012",
        "1979-05-27+07:00",
        "2020-02-29",
        "2021-02-29",
        "word",
        "x1",
        "1x",
        "1979-05-27x",
    ];

    /// Pieces of string content, most harmless, some with a meaning to TOML somewhere.
    const BITS: &[&str] = &[
        "a",
        "word",
        " ",
        "1",
        "#",
        "=",
        "[",
        "]",
        "{",
        "}",
        ",",
        ".",
        "'",
        "\"",
        "''",
        "\"\"",
        "\\",
        "é",
        "日本",
        "😀",
        "\t",
        "\r",
        "\n",
        "\u{7f}",
        "\u{1}",
        "\u{feff}",
        "\u{85}",
        "\u{2028}",
        "\u{fffe}",
        "\u{a0}",
        "true",
        "1979-05-27",
    ];

    const ESCAPES: &[&str] = &[
        "\\\"",
        "\\\\",
        "\\b",
        "\\t",
        "\\n",
        "\\f",
        "\\r",
        "\\e",
        "\\x41",
        "\\xe9",
        "\\xE9",
        "\\u00e9",
        "\\u00E9",
        "\\U0001F600",
        "\\/",
        "\\0",
        "\\a",
        "\\q",
        "\\ ",
        "\\x4",
        "\\xg1",
        "\\ud800",
        "\\udfff",
        "\\uffff",
        "\\U00110000",
        "\\U0010FFFF",
        "\\",
        "\\é",
        "\\u00e",
    ];

    /// A string value: basic or literal, now and then unclosed, multi-line or doubled.
    fn string(r: &mut Rng) -> String {
        let basic = r.one_in(2);
        let q = if basic { "\"" } else { "'" };
        let mut s = String::from(q);
        if r.odd(20) {
            s += q;
            s += q;
        }
        for _ in 0..r.below(5) {
            s += if basic && r.one_in(3) {
                r.pick(ESCAPES)
            } else if r.odd(4) {
                r.pick(BITS)
            } else {
                r.pick(&[
                    "a",
                    "word",
                    " ",
                    "Title Case",
                    "1",
                    "ü",
                    "x-y",
                    "http://x.y/z",
                ])
            };
        }
        if !r.odd(15) {
            s += q;
        }
        s
    }

    fn scalar(r: &mut Rng) -> String {
        match r.below(10) {
            0..=4 if r.odd(2) => r.pick(WORDS).to_string(),
            // The values front matter usually holds.
            0..=4 => r
                .pick(&[
                    "true",
                    "false",
                    "10",
                    "-3",
                    "0.8",
                    "2012-07-31T08:20:52+02:00",
                    "2020-01-01",
                ])
                .to_string(),
            5..=8 => string(r),
            _ if r.odd(2) => r
                .pick(&["{a = 1}", "{}", "\"\"\"ml\"\"\"", "'''ml'''", "[[1]]", ""])
                .to_string(),
            _ => format!("{}{}", r.pick(WORDS), r.pick(&[" ", ".", "_", "x", "", ""])),
        }
    }

    fn array(r: &mut Rng) -> String {
        let mut s = String::from(r.pick(&["[", "[", "[ ", "[  ", "[\n  ", "[ # c\n"]));
        for i in 0..r.below(4) {
            if i > 0 {
                s += if r.odd(15) {
                    r.pick(&[",,", " ", ", ,", "\n", " # c, x\n"])
                } else if r.one_in(4) {
                    // Over several lines, comments between the items.
                    r.pick(&[",\n  ", "\n, ", " # c\n,", ",\n# c ]\n\n ", ", # c\n"])
                } else {
                    r.pick(&[", ", ",", " , ", ",  "])
                };
            }
            s += &if r.odd(12) { array(r) } else { scalar(r) };
        }
        if r.one_in(6) {
            s += r.pick(&[",", ", ", " ,"]);
        }
        if r.one_in(5) {
            s += r.pick(&[" ", "\n", " # c\n"]);
        }
        if !r.odd(15) {
            s += "]";
        }
        s
    }

    /// What may end a line: nothing, spaces, a comment, now and then something else.
    fn line_end(r: &mut Rng) -> &'static str {
        if r.odd(10) {
            r.pick(&[" x", "x", " = 1", ",", "]", " \"", "\t", "\r"])
        } else {
            r.pick(&[
                "",
                "",
                "",
                "",
                "  ",
                " ",
                " # comment",
                "# c",
                " #: [x] = \"y\"",
            ])
        }
    }

    fn key_line(r: &mut Rng, out: &mut String) {
        out.push_str(&" ".repeat(if r.one_in(8) { r.below(4) } else { 0 }));
        out.push_str(&if r.odd(8) {
            r.pick(KEYS).to_string()
        } else if r.one_in(3) {
            // Few names, so a key comes twice now and then.
            r.pick(&["a", "b", "c", "d", "e", "f", "g", "h"])
                .to_string()
        } else {
            format!("k{}", r.below(10_000))
        });
        out.push_str(r.pick(&[" = ", " = ", "=", "  =  ", " =", "= "]));
        if r.odd(30) {
            out.push_str(r.pick(&["", " ", "=", "\t1"]));
        }
        out.push_str(&if r.one_in(4) { array(r) } else { scalar(r) });
        out.push_str(line_end(r));
        out.push('\n');
    }

    fn block(seed: u64) -> String {
        let mut r = Rng(seed, 1);
        r.1 = if r.one_in(2) { 1 } else { 6 };
        let mut out = String::new();
        for _ in 0..r.below(6) {
            key_line(&mut r, &mut out);
        }
        for _ in 0..r.below(3) {
            if r.one_in(6) {
                out.push('\n');
            }
            out.push_str(if r.one_in(8) { " " } else { "" });
            out.push_str(&if r.odd(6) {
                r.pick(&["[[x]]", "[a.b]", "[ x ]", "[\"x\"]", "[x", "[]", "[x] y"])
                    .to_string()
            } else if r.odd(4) {
                // Names that may be keys already, or tables twice.
                format!(
                    "[{}]",
                    r.pick(&["a", "b", "title", "c", "a.b", "a.c", "a.b.c", "b.a"])
                )
            } else {
                format!(
                    "[{}]",
                    r.pick(&["sitemap", "extra", "params", "extra.author", "extra.a.b"])
                )
            });
            out.push_str(line_end(&mut r));
            out.push('\n');
            for _ in 0..r.below(4) {
                if r.one_in(10) {
                    out.push_str("# a comment = [x]\n");
                }
                key_line(&mut r, &mut out);
            }
        }
        if r.one_in(20) {
            out.pop();
        }
        out
    }

    #[test]
    fn agrees_with_the_toml_crate_on_generated_blocks() {
        agrees_on_generated(generated_seeds(), |s| agrees(&block(s)));
    }

    /// The same over five million blocks: run by hand after a change here.
    #[test]
    #[ignore]
    fn agrees_with_the_toml_crate_on_millions_of_generated_blocks() {
        agrees_on_generated(1 << 32..(1 << 32) + 5_000_000, |s| agrees(&block(s)));
    }

    /// Every TOML front matter under `$TOML_FAST_DIR` (real sites): wherever the fast path
    /// accepts a block, it agrees with the toml crate. Prints how many it read. Run by hand:
    /// `TOML_FAST_DIR=… cargo test --release --lib toml_fast_dir -- --ignored --nocapture`.
    #[test]
    #[ignore]
    // A test run by hand, whose counts are its output (the library itself never prints).
    #[allow(clippy::print_stdout)]
    fn agrees_with_the_toml_crate_on_the_files_under_toml_fast_dir() {
        use crate::frontmatter::{scan, Format, Scan};
        let dir = std::env::var_os("TOML_FAST_DIR").expect("set TOML_FAST_DIR");
        let (mut blocks, mut accepted, mut refused) = (0, 0, 0);
        for entry in walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(|e| e.ok())
        {
            let path = entry.path();
            if !entry.file_type().is_file()
                || !matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("md" | "markdown" | "html")
                )
            {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let Ok(Scan::Done(layout)) = scan(text.as_bytes(), true, path) else {
                continue;
            };
            if layout.format != Some(Format::Toml) {
                continue;
            }
            let block = &text[layout.block.clone()];
            blocks += 1;
            refused += usize::from(full(block).is_err());
            accepted += usize::from(agrees(block));
        }
        println!("{blocks} TOML blocks: {accepted} read by the fast path, {refused} refused by the toml crate");
    }
}
