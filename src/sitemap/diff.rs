//! `diff`: what changed between two sitemap sets (URLs added, removed, and whose lastmod
//! moved), plain data out; the binary prints it, `submit` sends it.

use crate::sitemap::set_read::UrlMap;
use crate::vocab::date::{SiteTz, W3cDate, W3cKind};
use std::cmp::Ordering;

/// What changed from an old set to a new one; each list sorted by URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// URLs only the new set lists.
    pub added: Vec<String>,
    /// URLs only the old set lists.
    pub removed: Vec<String>,
    /// URLs both list, with a lastmod in each, that name different dates.
    pub moved: Vec<Moved>,
}

/// A URL whose lastmod moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The URL.
    pub url: String,
    /// Its lastmod in the old set.
    pub old: String,
    /// Its lastmod in the new set.
    pub new: String,
}

impl Diff {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.moved.is_empty()
    }

    /// How many URLs changed in all.
    pub fn len(&self) -> usize {
        self.added.len() + self.removed.len() + self.moved.len()
    }
}

/// Compares two sets: one pass over both, as both are sorted.
pub fn diff(old: &UrlMap, new: &UrlMap) -> Diff {
    let mut d = Diff::default();
    let (mut o, mut n) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let order = match (o.peek(), n.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((a, _)), Some((b, _))) => a.cmp(b),
        };
        match order {
            Ordering::Less => d.removed.extend(o.next().map(|(u, _)| u.clone())),
            Ordering::Greater => d.added.extend(n.next().map(|(u, _)| u.clone())),
            Ordering::Equal => {
                let (Some((url, was)), Some((_, now))) = (o.next(), n.next()) else {
                    break;
                };
                if let (Some(was), Some(now)) = (was, now)
                    && lastmod_moved(was, now)
                {
                    d.moved.push(Moved {
                        url: url.clone(),
                        old: was.clone(),
                        new: now.clone(),
                    });
                }
            }
        }
    }
    d
}

/// True when two lastmod values name different dates.
///
/// Dates are compared as dates, not text: `2024-05-01T10:00:00+02:00` and
/// `2024-05-01T08:00:00Z` are one instant, and a date-only value matches any time on that day
/// (read in the time's own offset), so changing `lastmod_precision` or the time zone does not
/// move every URL. Values that are not W3C dates are compared as text.
pub fn lastmod_moved(old: &str, new: &str) -> bool {
    let (old, new) = (old.trim(), new.trim());
    if old == new {
        return false;
    }
    let parse = |s: &str| W3cDate::parse(s, &SiteTz::Utc);
    match (parse(old), parse(new)) {
        (Some(a), Some(b)) => match (a.kind(), b.kind()) {
            (W3cKind::DateTime(_), W3cKind::DateTime(_)) => a.instant() != b.instant(),
            _ => a.date() != b.date(),
        },
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, Option<&str>)]) -> UrlMap {
        pairs
            .iter()
            .map(|(u, l)| (u.to_string(), l.map(str::to_string)))
            .collect()
    }

    #[test]
    fn added_removed_and_moved_each_sorted() {
        let old = map(&[
            ("https://e.com/a", Some("2024-01-01")),
            ("https://e.com/b", Some("2024-01-01")),
            ("https://e.com/c", None),
            ("https://e.com/d", Some("2024-01-01")),
            ("https://e.com/z", None),
        ]);
        let new = map(&[
            ("https://e.com/", None),
            ("https://e.com/a", Some("2024-01-01")),
            ("https://e.com/b", Some("2024-02-01")),
            ("https://e.com/c", Some("2024-03-01")),
            ("https://e.com/d", None),
            ("https://e.com/y", None),
        ]);
        let d = diff(&old, &new);
        assert_eq!(d.added, ["https://e.com/", "https://e.com/y"]);
        assert_eq!(d.removed, ["https://e.com/z"]);
        assert_eq!(
            d.moved,
            [Moved {
                url: "https://e.com/b".into(),
                old: "2024-01-01".into(),
                new: "2024-02-01".into()
            }]
        );
        assert_eq!(d.len(), 4);
        assert!(diff(&new, &new).is_empty());
    }

    #[test]
    fn lastmods_compare_as_dates() {
        for (a, b, moved) in [
            ("2024-05-01", "2024-05-01", false),
            ("2024-05-01", " 2024-05-01\n", false),
            ("2024-05-01T10:00:00+02:00", "2024-05-01T08:00:00Z", false),
            ("2024-05-01", "2024-05-01T23:30:00-05:00", false),
            ("2024-05-01", "2024-05-02T01:00:00+02:00", true),
            ("2024-05-01T10:00:00Z", "2024-05-01T10:00:01Z", true),
            ("2024-05-01", "2024-05-02", true),
            ("yesterday", "today", true),
            ("yesterday", "yesterday", false),
        ] {
            assert_eq!(lastmod_moved(a, b), moved, "{a} -> {b}");
            assert_eq!(lastmod_moved(b, a), moved, "{b} -> {a}");
        }
    }
}
