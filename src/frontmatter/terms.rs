//! A page's taxonomy terms packed in one string, and read back from it.

/// A page's taxonomy terms packed in one string (most pages have a few tags, and a vector of
/// vectors of strings would cost a dozen allocations): for each taxonomy its name, its terms
/// and whether they came from Zola's `[taxonomies]` table or a top-level list. The pages keep
/// every page's packed terms in one buffer; this reads one page's share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms<'a>(&'a str);

/// One taxonomy's terms on a page, from [`Terms::iter`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taxon<'a> {
    /// The taxonomy: lower-cased from a top-level list (Hugo), as written from the table
    /// (Zola).
    pub name: &'a str,
    /// Written in Zola's `[taxonomies]` table rather than as a top-level list.
    pub from_table: bool,
    /// Its terms, in the order written.
    pub terms: TermIter<'a>,
}

/// The terms of one [`Taxon`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermIter<'a> {
    rest: &'a str,
    left: usize,
}

impl<'a> Terms<'a> {
    /// Packs the top-level `lists` and the `table`'s taxonomies, in that order ("" for none).
    pub fn pack(lists: &[(String, Vec<String>)], table: &[(String, Vec<String>)]) -> String {
        use std::fmt::Write;
        // Each string is written as its byte length, `:`, then the string: any text fits.
        // Sized exactly first (the packed text is kept as it is made), and numbers are written
        // in place, not as a string apiece.
        let digits = |n: usize| n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let counted = |text: &str| digits(text.len()) + 1 + text.len();
        let size: usize = (lists.iter().chain(table))
            .map(|(name, terms)| {
                1 + counted(name)
                    + digits(terms.len())
                    + 1
                    + terms.iter().map(|t| counted(t)).sum::<usize>()
            })
            .sum();
        let mut s = String::with_capacity(size);
        let put = |s: &mut String, text: &str| {
            // Writing to a String cannot fail.
            let _ = write!(s, "{}:", text.len());
            s.push_str(text);
        };
        let marked = lists
            .iter()
            .map(|t| (t, 'L'))
            .chain(table.iter().map(|t| (t, 'T')));
        for ((name, terms), flag) in marked {
            s.push(flag);
            put(&mut s, name);
            let _ = write!(s, "{};", terms.len());
            for t in terms {
                put(&mut s, t);
            }
        }
        debug_assert_eq!(s.len(), size);
        s
    }

    /// The terms packed in `packed` (from [`Terms::pack`]).
    pub fn from_packed(packed: &'a str) -> Terms<'a> {
        Terms(packed)
    }

    /// The packed form, as [`Terms::pack`] made it.
    pub fn packed(&self) -> &'a str {
        self.0
    }

    /// Each taxonomy with its terms: the top-level lists, then the table's.
    pub fn iter(&self) -> impl Iterator<Item = Taxon<'a>> + use<'a> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            let (flag, after) = rest.split_at_checked(1)?;
            let (name, after) = take_counted(after)?;
            let (count, after) = after.split_once(';')?;
            let left: usize = count.parse().ok()?;
            // Skip past this taxonomy's terms to find the next one.
            let mut end = after;
            for _ in 0..left {
                end = take_counted(end)?.1;
            }
            let terms = TermIter {
                rest: &after[..after.len() - end.len()],
                left,
            };
            rest = end;
            Some(Taxon {
                name,
                from_table: flag == "T",
                terms,
            })
        })
    }

    /// The terms of taxonomy `name` from the table (Zola) or from a top-level list (Hugo).
    pub fn get(&self, name: &str, from_table: bool) -> Option<Taxon<'a>> {
        self.iter()
            .find(|t| t.name == name && t.from_table == from_table)
    }
}

impl<'a> Iterator for TermIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.left == 0 {
            return None;
        }
        let (term, rest) = take_counted(self.rest)?;
        self.rest = rest;
        self.left -= 1;
        Some(term)
    }
}

/// Splits a `len:text` string off the front of `s`.
fn take_counted(s: &str) -> Option<(&str, &str)> {
    let (len, rest) = s.split_once(':')?;
    let len: usize = len.parse().ok()?;
    rest.split_at_checked(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_pack_any_text_and_read_back_in_order() {
        let taxonomies = vec![
            ("authors".to_string(), vec![]),
            (
                "categories".to_string(),
                vec!["12:x".to_string(), "a;b".to_string(), "".to_string()],
            ),
            (
                "tags".to_string(),
                vec!["Rust".to_string(), "日本".to_string()],
            ),
        ];
        let table = vec![("tags".to_string(), vec!["zola".to_string()])];
        let packed = Terms::pack(&taxonomies, &table);
        let t = Terms::from_packed(&packed);
        let read: Vec<(&str, bool, Vec<&str>)> = t
            .iter()
            .map(|x| (x.name, x.from_table, x.terms.collect()))
            .collect();
        assert_eq!(
            read,
            vec![
                ("authors", false, vec![]),
                ("categories", false, vec!["12:x", "a;b", ""]),
                ("tags", false, vec!["Rust", "日本"]),
                ("tags", true, vec!["zola"]),
            ]
        );
        // One name in both places: each generator finds its own.
        let list: Vec<&str> = t.get("tags", false).unwrap().terms.collect();
        let tab: Vec<&str> = t.get("tags", true).unwrap().terms.collect();
        assert_eq!((list, tab), (vec!["Rust", "日本"], vec!["zola"]));
        assert!(t.get("series", false).is_none());
        assert!(t.get("categories", true).is_none());
        assert_eq!(Terms::pack(&[], &[]), "");
        assert_eq!(Terms::from_packed("").iter().count(), 0);
    }
}
