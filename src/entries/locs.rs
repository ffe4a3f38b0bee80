//! The entries' locs, stored compactly: a million URLs share a handful of origins
//! (`scheme://host[:port]`), so each origin is kept once and the rest of every URL lies in
//! shared text blocks. A loc is then an 8-byte [`LocId`] instead of an owned string (16 bytes in the
//! entry plus a heap block of the URL's length and the allocator's header: about 80 bytes).

use crate::compact::{ArenaError, MAX_TEXT, Span, TextArena};
use std::cmp::Ordering;
use std::fmt;

/// Where one loc lies in its [`Locs`]: its rest's place in the shared text, tagged with its
/// origin's index. Only a [`Locs`] makes one, so it always points into the store that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocId(Span);
/// Why a loc cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocError {
    /// The part after the origin is longer than a [`LocId`] can span.
    #[error(
        "its URL is {len} characters long, past the {} this tool can hold after the host (the protocol allows 2,047 in all)",
        u16::MAX
    )]
    TooLong {
        /// The whole loc's length, in bytes.
        len: usize,
    },
    /// The shared text would pass the 4 GiB a [`LocId`]'s start can reach.
    #[error(
        "the URLs take more than 4 GiB of text together, more than one run can hold: split the site into several sitemaps"
    )]
    Full,
    /// More distinct origins than a [`LocId`] can number.
    #[error("more than {} distinct scheme://host origins: one sitemap run cannot hold them", u16::MAX as usize + 1)]
    TooManyOrigins,
}

/// The locs of a list of entries: each distinct origin once, the rest of every URL (path,
/// query, fragment) after the others in a [`TextArena`]. Nothing is ever removed, so a
/// [`LocId`] stays valid for the store's life.
///
/// An arena of blocks rather than one buffer: the entries stage frees the routes' path blocks
/// (the same size) as it makes the locs, and the allocator hands those back for the locs'
/// blocks. One growing buffer would be mapped apart, while the freed paths stayed in the heap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locs {
    /// The distinct origins, in the order they were first seen (usually one).
    origins: Vec<Box<str>>,
    /// The rests, one after the other.
    text: TextArena,
}

impl Locs {
    /// An empty store.
    pub fn new() -> Locs {
        Locs::default()
    }

    /// Stores `loc` (an absolute URL, percent-encoded, not XML-escaped) and returns where it lies.
    pub fn push(&mut self, loc: &str) -> Result<LocId, LocError> {
        self.push_within(loc, MAX_TEXT)
    }

    /// [`Locs::push`] with the text capped at `max_text` bytes (tests reach the cap with a
    /// small one instead of 4 GiB).
    fn push_within(&mut self, loc: &str, max_text: usize) -> Result<LocId, LocError> {
        let (origin, rest) = split_origin(loc);
        if rest.len() > usize::from(u16::MAX) {
            return Err(LocError::TooLong { len: loc.len() });
        }
        // The origin is numbered only once the rest has its place: a refused loc adds none.
        let known = self.origins.iter().position(|o| **o == *origin);
        if known.is_none() && self.origins.len() > usize::from(u16::MAX) {
            return Err(LocError::TooManyOrigins);
        }
        let span = self.text.push_within(rest, max_text).map_err(|e| match e {
            ArenaError::TooLong => LocError::TooLong { len: loc.len() },
            ArenaError::Full => LocError::Full,
        })?;
        let k = match known {
            Some(k) => k,
            None => {
                self.origins.push(origin.into());
                self.origins.len() - 1
            }
        };
        // Below 65,536 (checked above).
        Ok(LocId(span.with_tag(k as u16)))
    }

    /// The loc `id` points at. An id from another store gives whatever lies there, or an
    /// empty part where nothing does: never a panic.
    pub fn get(&self, id: LocId) -> Loc<'_> {
        Loc {
            origin: self.origins.get(usize::from(id.0.tag())).map_or("", |o| o),
            rest: self.text.get(id.0),
        }
    }

    /// Bytes of text held (every loc's rest, without the origins).
    pub fn text_len(&self) -> usize {
        self.text.text_len()
    }

    /// Gives back the last text block's spare capacity once every loc is in.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.origins.shrink_to_fit();
    }
}

/// Splits `loc` after its origin (`scheme://authority`, up to the first `/`, `?` or `#`);
/// anything without a scheme has an empty origin and is all rest.
fn split_origin(loc: &str) -> (&str, &str) {
    let Some(colon) = loc.find("://") else {
        return ("", loc);
    };
    let scheme = &loc[..colon];
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !is_scheme {
        return ("", loc);
    }
    let after = colon + 3;
    let end = loc[after..]
        .find(['/', '?', '#'])
        .map_or(loc.len(), |k| after + k);
    loc.split_at(end)
}

/// One loc, read from the locs of an [`Entries`](crate::entries::Entries): its origin and the rest,
/// which together are the URL. It
/// displays, compares and orders as that whole URL.
#[derive(Clone, Copy, Debug)]
pub struct Loc<'a> {
    origin: &'a str,
    rest: &'a str,
}

impl<'a> Loc<'a> {
    /// The origin (`https://example.com`), or empty for a loc without a scheme.
    pub fn origin(&self) -> &'a str {
        self.origin
    }

    /// Everything after the origin: path, query and fragment.
    pub fn rest(&self) -> &'a str {
        self.rest
    }

    /// The URL's length in bytes.
    pub fn len(&self) -> usize {
        self.origin.len() + self.rest.len()
    }

    /// True for an empty loc.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the whole URL starts with `prefix`.
    pub fn starts_with(&self, prefix: &str) -> bool {
        match prefix.strip_prefix(self.origin) {
            Some(tail) => self.rest.starts_with(tail),
            None => self.origin.starts_with(prefix),
        }
    }
}

impl fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.origin)?;
        f.write_str(self.rest)
    }
}

impl Ord for Loc<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Nearly always the same origin of the same store: compare the rests alone.
        if std::ptr::eq(self.origin, other.origin) {
            return self.rest.cmp(other.rest);
        }
        cmp_pieces(
            &[self.origin.as_bytes(), self.rest.as_bytes()],
            &[other.origin.as_bytes(), other.rest.as_bytes()],
        )
    }
}

impl PartialOrd for Loc<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Loc<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Loc<'_> {}

impl PartialEq<str> for Loc<'_> {
    fn eq(&self, other: &str) -> bool {
        other
            .strip_prefix(self.origin)
            .is_some_and(|tail| tail == self.rest)
    }
}

impl PartialEq<&str> for Loc<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// Compares the concatenation of `a`'s pieces with `b`'s, byte by byte, as `str`'s order
/// does, without building either string.
fn cmp_pieces(mut a: &[&[u8]], mut b: &[&[u8]]) -> Ordering {
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    loop {
        while x.is_empty() {
            let Some((first, more)) = a.split_first() else {
                break;
            };
            (x, a) = (first, more);
        }
        while y.is_empty() {
            let Some((first, more)) = b.split_first() else {
                break;
            };
            (y, b) = (first, more);
        }
        if x.is_empty() || y.is_empty() {
            // One ran out: the shorter is a prefix of the other, or both are done.
            return (!x.is_empty()).cmp(&!y.is_empty());
        }
        let n = x.len().min(y.len());
        match x[..n].cmp(&y[..n]) {
            Ordering::Equal => (x, y) = (&x[n..], &y[n..]),
            unequal => return unequal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact::BLOCK;
    use proptest::prelude::*;

    fn parts(locs: &Locs, id: LocId) -> (&str, &str) {
        let l = locs.get(id);
        (l.origin(), l.rest())
    }

    #[test]
    fn splits_after_the_origin() {
        let mut locs = Locs::new();
        let cases = [
            ("https://example.com/a/b/", "https://example.com", "/a/b/"),
            ("http://example.com/", "http://example.com", "/"),
            (
                "https://example.com:8443/x",
                "https://example.com:8443",
                "/x",
            ),
            ("http://localhost:1111/", "http://localhost:1111", "/"),
            ("https://example.com", "https://example.com", ""),
            ("https://example.com?q=1#f", "https://example.com", "?q=1#f"),
            ("https://example.com#top", "https://example.com", "#top"),
            (
                "https://example.com/s/?q=a/b&r=https://x.org/",
                "https://example.com",
                "/s/?q=a/b&r=https://x.org/",
            ),
            (
                "https://xn--bcher-kva.example/b%C3%BCcher/",
                "https://xn--bcher-kva.example",
                "/b%C3%BCcher/",
            ),
            ("https://bücher.example/ü/", "https://bücher.example", "/ü/"),
            ("https://[::1]:8080/v6/", "https://[::1]:8080", "/v6/"),
            ("/no/scheme/", "", "/no/scheme/"),
            ("a b://c/", "", "a b://c/"),
            ("", "", ""),
        ];
        for (loc, origin, rest) in cases {
            let id = locs.push(loc).unwrap();
            assert_eq!(parts(&locs, id), (origin, rest), "{loc}");
            assert_eq!(locs.get(id).to_string(), loc);
            assert_eq!(locs.get(id).len(), loc.len());
            assert!(locs.get(id) == loc);
        }
    }

    #[test]
    fn each_origin_is_kept_once() {
        let mut locs = Locs::new();
        let a = locs.push("https://example.com/a/").unwrap();
        let b = locs.push("https://example.org/b/").unwrap();
        let c = locs.push("https://example.com/c/?x=1").unwrap();
        let d = locs.push("https://example.com:8080/d/").unwrap();
        assert_eq!(locs.origins.len(), 3);
        assert_eq!(a.0.tag(), c.0.tag());
        assert_ne!(a.0.tag(), b.0.tag());
        assert_ne!(a.0.tag(), d.0.tag());
        assert_eq!(locs.text.blocks().concat(), "/a//b//c/?x=1/d/");
        assert_eq!(locs.text_len(), 16);
    }

    #[test]
    fn many_entries_read_back_exactly() {
        let mut locs = Locs::new();
        let urls: Vec<String> = (0..100_000)
            .map(|i| match i % 3 {
                0 => format!("https://example.com/section-{}/page-{i}/", i % 100),
                1 => format!("https://fr.example.com/s/{i}/?p={}", i % 7),
                _ => format!("http://localhost:{}/{i}", 1000 + i % 2),
            })
            .collect();
        let ids: Vec<LocId> = urls.iter().map(|u| locs.push(u).unwrap()).collect();
        for (u, &id) in urls.iter().zip(&ids) {
            assert_eq!(locs.get(id).to_string(), *u);
        }
        assert_eq!(locs.origins.len(), 4);
    }

    #[test]
    fn refuses_a_rest_past_16_bits_and_text_past_the_cap() {
        let mut locs = Locs::new();
        let just = format!(
            "https://example.com/{}",
            "a".repeat(usize::from(u16::MAX) - 1)
        );
        let id = locs.push(&just).unwrap();
        assert_eq!(locs.get(id).to_string(), just);
        let long = format!("{just}b");
        assert_eq!(locs.push(&long), Err(LocError::TooLong { len: long.len() }));

        let mut small = Locs::new();
        small.push_within("https://example.com/1234", 10).unwrap();
        small.push_within("https://example.com/5678", 10).unwrap();
        assert_eq!(
            small.push_within("https://example.com/9", 10),
            Err(LocError::Full)
        );
        // A refused loc leaves nothing behind.
        assert_eq!(small.text.blocks().concat(), "/1234/5678");
        assert!(LocError::Full.to_string().contains("4 GiB"));
    }

    #[test]
    fn rests_fill_64_kib_blocks_and_never_span_two() {
        let mut locs = Locs::new();
        let rest = "x".repeat(1000);
        let url = format!("https://example.com/{rest}");
        let ids: Vec<LocId> = (0..200).map(|_| locs.push(&url).unwrap()).collect();
        // 1,001 bytes a rest: 65 to a block, then the next block.
        assert_eq!(locs.text.blocks().len(), 4);
        assert!(locs.text.blocks().iter().all(|b| b.len() <= BLOCK));
        assert_eq!(locs.text.blocks()[0].len(), 65 * 1001);
        assert!(ids.iter().all(|&id| locs.get(id).to_string() == url));
        assert_eq!(locs.text_len(), 200 * 1001);
        // An empty rest at a full block's end still gets an offset that fits.
        let mut full = Locs::new();
        let most = format!("https://example.com/{}", "y".repeat(BLOCK - 2));
        full.push(&most).unwrap();
        full.push("https://example.com/").unwrap();
        assert_eq!(full.text.blocks()[0].len(), BLOCK);
        let empty = full.push("https://example.com").unwrap();
        assert_eq!((empty.0.len(), full.text.blocks().len()), (0, 2));
        assert_eq!(full.get(empty).to_string(), "https://example.com");
    }

    #[test]
    fn an_id_from_another_store_never_panics() {
        let mut big = Locs::new();
        big.push("https://example.com/a-long-path/").unwrap();
        let id = big.push("https://example.org/x/").unwrap();
        let small = Locs::new();
        assert_eq!(small.get(id).to_string(), "");
    }

    #[test]
    fn starts_with_looks_across_the_split() {
        let mut locs = Locs::new();
        let id = locs.push("https://example.com/fr/page/").unwrap();
        let l = locs.get(id);
        for yes in [
            "",
            "https://",
            "https://example.com",
            "https://example.com/fr/",
        ] {
            assert!(l.starts_with(yes), "{yes}");
        }
        for no in ["https://example.co/", "https://example.com/de/", "http://"] {
            assert!(!l.starts_with(no), "{no}");
        }
    }

    /// URLs whose origins are prefixes of one another, so comparing origins first and rests
    /// second would order some of them wrongly.
    fn url() -> impl Strategy<Value = String> {
        let origins = prop::sample::select(vec![
            "https://a.com",
            "https://a.com:8080",
            "https://a.co",
            "https://a.com.b",
            "http://a.com",
            "https://b.com",
            "",
        ]);
        (origins, "[/?#:.a0-]{0,8}").prop_map(|(o, r)| format!("{o}{r}"))
    }

    proptest! {
        #[test]
        fn locs_order_and_compare_as_their_full_strings(urls in prop::collection::vec(url(), 0..40)) {
            let mut locs = Locs::new();
            let ids: Vec<LocId> = urls.iter().map(|u| locs.push(u).unwrap()).collect();
            let mut by_loc: Vec<usize> = (0..urls.len()).collect();
            by_loc.sort_by(|&a, &b| locs.get(ids[a]).cmp(&locs.get(ids[b])).then(a.cmp(&b)));
            let mut by_string: Vec<usize> = (0..urls.len()).collect();
            by_string.sort_by(|&a, &b| urls[a].cmp(&urls[b]).then(a.cmp(&b)));
            prop_assert_eq!(by_loc, by_string);
            for (a, ua) in urls.iter().enumerate() {
                for (b, ub) in urls.iter().enumerate() {
                    prop_assert_eq!(locs.get(ids[a]) == locs.get(ids[b]), ua == ub);
                }
                prop_assert_eq!(locs.get(ids[a]).to_string(), ua.clone());
            }
        }

        #[test]
        fn pieces_compare_as_their_concatenation(
            a in prop::collection::vec("[ab]{0,3}", 0..4),
            b in prop::collection::vec("[ab]{0,3}", 0..4),
        ) {
            let pa: Vec<&[u8]> = a.iter().map(|s| s.as_bytes()).collect();
            let pb: Vec<&[u8]> = b.iter().map(|s| s.as_bytes()).collect();
            prop_assert_eq!(cmp_pieces(&pa, &pb), a.concat().cmp(&b.concat()));
        }
    }
}
