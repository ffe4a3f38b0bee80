//! The types Zola's front matter structs hold each key to (serde: `draft` a boolean, `weight`
//! a whole number, `aliases` a list of strings, a section's keys all known ones), checked
//! before the fields are read: a page Zola refuses stops our run too, naming the file and
//! the line, and one it builds never does. `extra` is the site's own: Zola reads nothing
//! there, so nothing there stops a run.

use crate::vocab::error::Result;

use crate::frontmatter::{Ctx, Dialect, Format, Node, NodeValue, Parsed, extract};

/// What a key must hold.
#[derive(Clone, Copy)]
enum Ty {
    /// A string (in YAML any scalar reads as one).
    Str,
    /// `true` or `false`.
    Bool,
    /// A whole number, not negative.
    Count,
    /// A date: a TOML date-time, or a string TOML or YAML reads as one.
    Date,
    /// A list of strings.
    Strings,
    /// A table of lists of strings.
    Terms,
    /// A table.
    Table,
    /// One of these words.
    Word(&'static [&'static str]),
}

/// A page's keys (others are allowed: Zola ignores them).
const PAGE: &[(&str, Ty, bool)] = &[
    ("title", Ty::Str, true),
    ("description", Ty::Str, true),
    ("updated", Ty::Date, false),
    ("date", Ty::Date, false),
    ("draft", Ty::Bool, false),
    ("render", Ty::Bool, false),
    ("slug", Ty::Str, true),
    ("path", Ty::Str, true),
    ("taxonomies", Ty::Terms, false),
    ("weight", Ty::Count, true),
    ("authors", Ty::Strings, false),
    ("aliases", Ty::Strings, false),
    ("template", Ty::Str, true),
    ("in_search_index", Ty::Bool, false),
    ("extra", Ty::Table, false),
];

/// A section's keys: no other is allowed.
const SECTION: &[(&str, Ty, bool)] = &[
    ("title", Ty::Str, true),
    ("description", Ty::Str, true),
    (
        "sort_by",
        Ty::Word(&[
            "date",
            "update_date",
            "title",
            "title_bytes",
            "weight",
            "slug",
            // Zola 0.22.1's `SortBy` (components/content/src/types.rs) has it too: the Rust
            // blog sorts by it.
            "permalink",
            "none",
        ]),
        false,
    ),
    ("weight", Ty::Count, false),
    ("draft", Ty::Bool, false),
    ("template", Ty::Str, true),
    ("paginate_by", Ty::Count, true),
    ("paginate_reversed", Ty::Bool, false),
    ("paginate_path", Ty::Str, false),
    (
        "insert_anchor_links",
        Ty::Word(&["left", "right", "heading", "none"]),
        true,
    ),
    ("render", Ty::Bool, false),
    ("redirect_to", Ty::Str, true),
    ("in_search_index", Ty::Bool, false),
    ("transparent", Ty::Bool, false),
    ("page_template", Ty::Str, true),
    ("aliases", Ty::Strings, false),
    ("generate_feeds", Ty::Bool, false),
    ("extra", Ty::Table, false),
];

/// Zola's reading of a front matter block: each key held to the type Zola's structs give it
/// (`check`), then the common reading.
#[derive(Debug)]
pub struct ZolaFrontMatter;

impl Dialect for ZolaFrontMatter {
    fn fields(&self, root: &Node<'_>, cx: &Ctx<'_>, format: Format) -> Result<Parsed> {
        let section = cx
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("_index."));
        check(root, cx, format, section)?;
        extract(root, cx)
    }
}

/// Checks a Zola page's (or, with `section`, a section's) front matter as Zola's serde
/// structs read it. Keys are matched as written (Zola's are lower-case).
fn check(root: &Node<'_>, cx: &Ctx<'_>, format: Format, section: bool) -> Result<()> {
    let keys = if section { SECTION } else { PAGE };
    for (k, n) in root.entries() {
        let Some(&(_, ty, optional)) = keys.iter().find(|(name, ..)| *name == k.as_ref()) else {
            if section {
                return Err(cx.err(
                    &[k],
                    n,
                    format!("unknown key `{k}` in a section's front matter: Zola refuses it (put your own keys under [extra])"),
                ));
            }
            continue;
        };
        // An Option field takes null as "not set"; the others refuse it.
        if matches!(n.v, NodeValue::Null) && optional {
            continue;
        }
        if let Some(want) = refused(n, ty, format) {
            return Err(cx.err(
                &[k],
                n,
                format!("`{k}` must be {want}: Zola refuses this value"),
            ));
        }
    }
    Ok(())
}

/// What `n` should have been, when Zola refuses it as `ty`.
fn refused(n: &Node<'_>, ty: Ty, format: Format) -> Option<&'static str> {
    let yaml = format == Format::Yaml;
    let ok =
        match ty {
            Ty::Str => match &n.v {
                NodeValue::Str(_) => true,
                // serde_yaml reads any scalar as a string where one is wanted.
                NodeValue::Bool(_) | NodeValue::Int(_) | NodeValue::Float(_) => yaml,
                _ => false,
            },
            Ty::Bool => matches!(n.v, NodeValue::Bool(_)),
            Ty::Count => matches!(n.v, NodeValue::Int(i) if i >= 0),
            Ty::Date => match &n.v {
                NodeValue::Date(_) => true,
                NodeValue::Str(s) => zola_date(s),
                _ => false,
            },
            Ty::Strings => matches!(&n.v, NodeValue::List(items) if items.iter().all(|i| is_str(i, yaml))),
            Ty::Terms => n.entries().iter().all(
                |(_, v)| matches!(&v.v, NodeValue::List(items) if items.iter().all(|i| is_str(i, yaml))),
            ) && matches!(n.v, NodeValue::Map(_)),
            Ty::Table => matches!(n.v, NodeValue::Map(_)),
            Ty::Word(words) => matches!(&n.v, NodeValue::Str(s) if words.contains(&s.as_ref())),
        };
    (!ok).then_some(match ty {
        Ty::Str => "a string",
        Ty::Bool => "true or false",
        Ty::Count => "a whole number, 0 or more",
        Ty::Date => "a date like 2024-01-31 or 2024-01-31T12:00:00+01:00",
        Ty::Strings => "a list of strings",
        Ty::Terms => "a table of lists of terms",
        Ty::Table => "a table",
        Ty::Word(_) => "one of the words Zola knows for it",
    })
}

fn is_str(n: &Node<'_>, yaml: bool) -> bool {
    match &n.v {
        NodeValue::Str(_) => true,
        NodeValue::Bool(_) | NodeValue::Int(_) | NodeValue::Float(_) => yaml,
        _ => false,
    }
}

/// A string Zola reads as a date: TOML's date-time syntax (`2023-01-02`,
/// `2023-01-02T03:04:05Z`, `2023-01-02 03:04`) or a YAML timestamp (`2023-1-2`).
fn zola_date(s: &str) -> bool {
    if s.parse::<toml::value::Datetime>().is_ok() {
        return true;
    }
    yaml_timestamp(s)
}

/// The YAML 1.1 timestamp form: `YYYY-M-D`, optionally followed by `T` or spaces and
/// `H:MM:SS`, a fraction and a zone (`Z` or `±H[:MM]`).
fn yaml_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize, min: usize, max: usize| -> bool {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < max {
            *i += 1;
        }
        *i - start >= min
    };
    let lit = |i: &mut usize, c: u8| -> bool {
        if b.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    let date = digits(&mut i, 4, 4)
        && lit(&mut i, b'-')
        && digits(&mut i, 1, 2)
        && lit(&mut i, b'-')
        && digits(&mut i, 1, 2);
    if !date {
        return false;
    }
    if i == b.len() {
        return true;
    }
    if !(lit(&mut i, b'T') || lit(&mut i, b't') || lit(&mut i, b' ')) {
        return false;
    }
    while lit(&mut i, b' ') {}
    let time = digits(&mut i, 1, 2)
        && lit(&mut i, b':')
        && digits(&mut i, 2, 2)
        && lit(&mut i, b':')
        && digits(&mut i, 2, 2);
    if !time {
        return false;
    }
    if lit(&mut i, b'.') {
        digits(&mut i, 0, 9);
    }
    while lit(&mut i, b' ') {}
    if i == b.len() || lit(&mut i, b'Z') {
        return i == b.len();
    }
    if !(lit(&mut i, b'+') || lit(&mut i, b'-')) || !digits(&mut i, 1, 2) {
        return false;
    }
    if lit(&mut i, b':') && !digits(&mut i, 2, 2) {
        return false;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_zola_reads() {
        for ok in [
            "2023-01-02",
            "2023-01-02T03:04:05Z",
            "2023-01-02 03:04:05",
            "2023-01-02T03:04",
            "2023-1-2",
        ] {
            assert!(zola_date(ok), "{ok}");
        }
        for bad in ["02 Jan 2023", "2023/01/02", "word", ""] {
            assert!(!zola_date(bad), "{bad}");
        }
    }
}
