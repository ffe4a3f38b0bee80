//! The only module that knows byte layouts. A million pages must fit in about 150 MB, so
//! what every page or URL keeps is packed here, behind plain types no other module needs to
//! understand: text in shared 64 KiB blocks ([`TextArena`], addressed by 8-byte [`Span`]s),
//! lists of route indices as variable-length differences ([`RouteList`]), language codes as
//! two-byte indices ([`LangCode`]), and a vector mapped into another in its own allocation
//! ([`filter_map_in_place`]).

use std::cell::RefCell;
use std::sync::Mutex;

/// The size of a [`TextArena`] block: offsets and lengths within it fit 16 bits.
pub const BLOCK: usize = 1 << 16;

/// Where one text lies in its [`TextArena`]: the block (high 16 bits of `start`), the offset
/// in it (low 16 bits) and the length; 8 bytes, two of them a tag its owner may use (a
/// [`crate::entries::Locs`] keeps the loc's origin there). Only an arena makes one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    start: u32,
    len: u16,
    tag: u16,
}

impl Span {
    /// The same span with `tag` in its spare bytes.
    pub fn with_tag(self, tag: u16) -> Span {
        Span { tag, ..self }
    }

    /// What [`Span::with_tag`] put there (0 for a span as the arena made it).
    pub fn tag(self) -> u16 {
        self.tag
    }

    /// The text's length in bytes.
    pub fn len(self) -> usize {
        usize::from(self.len)
    }

    /// Whether the text is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// Why a text cannot be stored in a [`TextArena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// Longer than a block: no [`Span`] can hold it.
    TooLong,
    /// The arena would pass `max` bytes (at most 4 GiB, what a span's start reaches).
    Full,
}

/// Texts one after another in blocks of [`BLOCK`] bytes, never spanning two: a million URLs
/// are a few hundred allocations, not a million. Texts are added in order and may be given
/// back from the front ([`TextArena::release_before`]), so a later stage that reads them in
/// order frees the blocks behind it, and blocks of one size are reused by the next arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextArena {
    blocks: Vec<String>,
    /// Blocks before this one have been given back.
    released: usize,
    /// Bytes of text added in all.
    bytes: usize,
}

/// The most text an arena holds: 65,536 full blocks, as a [`Span`]'s 32-bit start reaches.
pub const MAX_TEXT: usize = u32::MAX as usize;

impl TextArena {
    /// An empty arena.
    pub fn new() -> TextArena {
        TextArena::default()
    }

    /// Adds `text` after the others and returns where it lies.
    pub fn push(&mut self, text: &str) -> Result<Span, ArenaError> {
        self.push_within(text, MAX_TEXT)
    }

    /// [`TextArena::push`] with the arena capped at `max` bytes (tests reach the cap with a
    /// small one instead of 4 GiB).
    pub fn push_within(&mut self, text: &str, max: usize) -> Result<Span, ArenaError> {
        let len = u16::try_from(text.len()).map_err(|_| ArenaError::TooLong)?;
        if self.bytes + text.len() > max.min(MAX_TEXT) {
            return Err(ArenaError::Full);
        }
        // A new block when the text does not fit in the last one, or its offset would not.
        let fits = |b: &String| b.len() < BLOCK && b.len() + text.len() <= BLOCK;
        let new_block = !self.blocks.last().is_some_and(fits);
        let block = self.blocks.len() - usize::from(!new_block);
        let block = u16::try_from(block).map_err(|_| ArenaError::Full)?;
        if new_block {
            self.blocks.push(String::with_capacity(BLOCK));
        }
        let b = &mut self.blocks[usize::from(block)];
        // Below BLOCK (checked above), so it fits the low 16 bits.
        let start = (u32::from(block) << 16) | b.len() as u32;
        b.push_str(text);
        self.bytes += text.len();
        Ok(Span { start, len, tag: 0 })
    }

    /// The text at `span`; empty for a span of another arena that points past this one's
    /// text, or into a block already given back: never a panic.
    pub fn get(&self, span: Span) -> &str {
        let (block, start) = ((span.start >> 16) as usize, (span.start & 0xffff) as usize);
        self.blocks
            .get(block)
            .and_then(|b| b.get(start..start + usize::from(span.len)))
            .unwrap_or("")
    }

    /// Gives back the blocks before the one holding `span`: the caller reads no earlier text.
    pub fn release_before(&mut self, span: Span) {
        let block = ((span.start >> 16) as usize).min(self.blocks.len());
        for b in self.blocks.iter_mut().take(block).skip(self.released) {
            *b = String::new();
        }
        self.released = self.released.max(block);
    }

    /// The blocks, for tests of how text is laid out.
    #[cfg(test)]
    pub(crate) fn blocks(&self) -> &[String] {
        &self.blocks
    }

    /// Bytes of text added in all.
    pub fn text_len(&self) -> usize {
        self.bytes
    }

    /// Gives back the last block's spare capacity once every text is in.
    pub fn shrink_to_fit(&mut self) {
        if let Some(last) = self.blocks.last_mut() {
            last.shrink_to_fit();
        }
        self.blocks.shrink_to_fit();
    }
}

/// Maps `v` through `f` (which takes each item with its index and may drop it) into a vector
/// that reuses `v`'s allocation when the two item types have one size and alignment: the
/// output then never stands beside a second allocation as large as the input. Otherwise a
/// plain collect.
pub fn filter_map_in_place<T, U>(v: Vec<T>, mut f: impl FnMut(usize, T) -> Option<U>) -> Vec<U> {
    let same_layout = std::mem::size_of::<T>() == std::mem::size_of::<U>()
        && std::mem::align_of::<T>() == std::mem::align_of::<U>()
        && std::mem::size_of::<T>() != 0;
    if !same_layout {
        return v
            .into_iter()
            .enumerate()
            .filter_map(|(i, t)| f(i, t))
            .collect();
    }
    let mut v = std::mem::ManuallyDrop::new(v);
    let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    let out = ptr.cast::<U>();
    let mut written = 0;
    for i in 0..len {
        // SAFETY: `i < len`, and item `i` is read exactly once; the slots before it that
        // were written as `U` are at indices `< written <= i`, so none is read again. If `f`
        // panics, the allocation and the items not yet read leak (no drop runs twice).
        let t = unsafe { ptr.add(i).read() };
        if let Some(u) = f(i, t) {
            // SAFETY: `written <= i < cap`; the slot's `T` was moved out above (or earlier),
            // and `U` has `T`'s size and alignment.
            unsafe { out.add(written).write(u) };
            written += 1;
        }
    }
    // SAFETY: the allocation came from a `Vec<T>` of capacity `cap`, whose layout equals a
    // `Vec<U>`'s of the same capacity (same size and alignment); its first `written` slots
    // hold initialised `U`s.
    unsafe { Vec::from_raw_parts(out, written, cap) }
}

/// A list of route indices, each stored as its difference from the one before in a
/// variable-length code: a section lists every page below it and a term every page that has
/// it, mostly in route order, so most take one byte instead of four.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RouteList {
    /// Zigzag-coded differences, seven bits a byte, the high bit set on all but a number's
    /// last byte.
    bytes: Vec<u8>,
    /// The last index pushed (the first is coded against 0).
    last: u32,
}

impl RouteList {
    /// An empty list.
    pub fn new() -> RouteList {
        RouteList::default()
    }

    /// Whether it lists none.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Adds `route` at the end.
    pub fn push(&mut self, route: u32) {
        let delta = i64::from(route) - i64::from(self.last);
        // Zigzag: small differences either way take few bytes.
        let mut z = ((delta << 1) ^ (delta >> 63)) as u64;
        while z >= 0x80 {
            self.bytes.push((z as u8) | 0x80);
            z >>= 7;
        }
        self.bytes.push(z as u8);
        self.last = route;
    }

    /// Adds every index of `other` at the end.
    pub fn append(&mut self, other: &RouteList) {
        for r in other.iter() {
            self.push(r);
        }
    }

    /// The indices, in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut at = 0;
        let mut last: i64 = 0;
        std::iter::from_fn(move || {
            let mut z: u64 = 0;
            let mut shift = 0;
            loop {
                let b = *self.bytes.get(at)?;
                at += 1;
                z |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            let delta = ((z >> 1) as i64) ^ -((z & 1) as i64);
            last += delta;
            Some(last as u32)
        })
    }

    /// Gives back spare capacity.
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
    }
}

impl FromIterator<u32> for RouteList {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> RouteList {
        let mut list = RouteList::new();
        for r in iter {
            list.push(r);
        }
        list
    }
}

/// A language code, interned: each distinct code is allocated once for the life of the
/// process and a route holds its index, two bytes rather than a pointer's eight. Codes come
/// from site configs: a handful per site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LangCode(u16);

/// Every code seen, by index; each thread keeps a copy of what it has looked up, so routes
/// made and read on every core do not queue for the lock.
static CODES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

thread_local! {
    static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

impl LangCode {
    /// The index of `code`, added on first sight.
    pub fn of(code: &str) -> LangCode {
        if let Some(k) = SEEN.with(|s| s.borrow().iter().position(|c| *c == code)) {
            return LangCode(k as u16);
        }
        let mut all = CODES.lock().unwrap_or_else(|e| e.into_inner());
        let k = match all.iter().position(|c| *c == code) {
            Some(k) => k,
            // Past 65,535 codes the last one is reused: no config names that many languages.
            None if all.len() > usize::from(u16::MAX) => usize::from(u16::MAX),
            None => {
                all.push(Box::leak(code.into()));
                all.len() - 1
            }
        };
        SEEN.with(|s| *s.borrow_mut() = all.clone());
        LangCode(k as u16)
    }

    /// The code.
    pub fn code(self) -> &'static str {
        let k = usize::from(self.0);
        if let Some(c) = SEEN.with(|s| s.borrow().get(k).copied()) {
            return c;
        }
        let all = CODES.lock().unwrap_or_else(|e| e.into_inner());
        SEEN.with(|s| *s.borrow_mut() = all.clone());
        all.get(k).copied().unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_fill_blocks_in_order_never_span_two_and_free_the_ones_behind() {
        let mut arena = TextArena::new();
        let text = |k: usize| format!("/section/{k:05}/{}/", "x".repeat(k % 40));
        let spans: Vec<Span> = (0..5000).map(|k| arena.push(&text(k)).unwrap()).collect();
        assert!(arena.blocks().len() >= 3);
        assert!(arena.blocks().iter().all(|b| b.len() <= BLOCK));
        assert!((0..5000).all(|k| arena.get(spans[k]) == text(k)));
        arena.release_before(spans[4999]);
        let kept = (0..5000)
            .filter(|&k| arena.get(spans[k]) == text(k))
            .count();
        assert!(kept > 0 && kept < 5000);
        assert!((5000 - kept..5000).all(|k| arena.get(spans[k]) == text(k)));
        assert_eq!(arena.get(spans[0]), "");
    }

    #[test]
    fn an_empty_text_at_a_full_block_starts_a_new_one() {
        let mut arena = TextArena::new();
        let full = arena.push(&"a".repeat(BLOCK - 1)).unwrap();
        let last = arena.push("b").unwrap();
        let empty = arena.push("").unwrap();
        assert_eq!(arena.blocks().len(), 2);
        assert_eq!(
            (arena.get(full).len(), arena.get(last), arena.get(empty)),
            (BLOCK - 1, "b", "")
        );
    }

    #[test]
    fn too_long_and_full_are_refused_not_cut() {
        let mut arena = TextArena::new();
        assert_eq!(arena.push(&"a".repeat(BLOCK)), Err(ArenaError::TooLong));
        arena.push_within("abc", 4).unwrap();
        assert_eq!(arena.push_within("de", 4), Err(ArenaError::Full));
        assert_eq!(arena.text_len(), 3);
    }

    #[test]
    fn mapping_in_place_keeps_the_allocation_and_drops_what_it_skips() {
        let v: Vec<u64> = (0..1000).collect();
        let (ptr, cap) = (v.as_ptr() as usize, v.capacity());
        let out: Vec<i64> = filter_map_in_place(v, |i, x| (i % 3 != 0).then_some(-(x as i64)));
        assert_eq!(out.as_ptr() as usize, ptr);
        assert_eq!(out.capacity(), cap);
        assert_eq!(out.len(), 666);
        assert_eq!(out[..3], [-1, -2, -4]);
        // Items with heap parts: the skipped ones are dropped, the kept ones moved.
        let names: Vec<String> = (0..50).map(|k| k.to_string()).collect();
        let kept: Vec<String> = filter_map_in_place(names, |_, s| (s.len() == 2).then(|| s + "!"));
        assert_eq!((kept.len(), kept[0].as_str()), (40, "10!"));
        // Different layouts fall back to a plain collect.
        let wide: Vec<[u64; 2]> =
            filter_map_in_place(vec![1u8, 2, 3], |_, b| Some([u64::from(b); 2]));
        assert_eq!(wide, [[1, 1], [2, 2], [3, 3]]);
    }

    #[test]
    fn a_route_list_in_route_order_takes_a_byte_an_index() {
        let list: RouteList = (1000..2000).collect();
        assert_eq!(
            list.iter().collect::<Vec<_>>(),
            (1000..2000).collect::<Vec<_>>()
        );
        // The first index costs its own size; each next one, a difference of 1, a byte.
        assert_eq!(list.bytes.len(), 2 + 999);
        let mut both = RouteList::new();
        both.append(&list);
        both.push(5);
        assert_eq!(both.iter().last(), Some(5));
        assert_eq!(both.iter().count(), 1001);
    }

    proptest::proptest! {
        #[test]
        fn a_route_list_gives_back_what_went_in(routes in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..200)) {
            let list: RouteList = routes.iter().copied().collect();
            proptest::prop_assert_eq!(list.iter().collect::<Vec<_>>(), routes.clone());
            proptest::prop_assert_eq!(list.is_empty(), routes.is_empty());
            // No difference takes more than five bytes.
            proptest::prop_assert!(list.bytes.len() <= routes.len() * 5);
        }
    }
}
