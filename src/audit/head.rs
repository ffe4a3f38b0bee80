//! What a built page's `<head>` says about indexing: robots `noindex`, its canonical URL, a
//! meta refresh. Read with an HTML tokenizer that follows the standard, never a pattern
//! search, up to the end of the head and never past [`MAX_HEAD_BYTES`]: a `noindex` in the
//! body, a comment or a script is no `noindex`. Plain markup goes through our own tokenizer
//! ([`plain_markup`]), which follows the standard's states where it goes and hands everything else
//! to html5gum; the head's rules ([`Rules`]) are one piece of code both drive.

mod plain_markup;

use crate::entries::Loc;
use html5gum::{Emitter, Error, State, Tokenizer, naive_next_state};
use std::io::Read;

/// The most bytes of a page read looking for the end of its head.
pub const MAX_HEAD_BYTES: u64 = 256 * 1024;

/// What the head of one page says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeadFacts {
    /// A `<meta name="robots|googlebot">` whose content holds `noindex` (or `none`).
    pub noindex: bool,
    /// The first `<link rel="canonical">`'s href, as written; `None` when there is none, or
    /// when two disagree (search engines then ignore both).
    pub canonical: Option<String>,
    /// The URL of the `<meta http-equiv="refresh">` a browser follows (the first that
    /// parses, as the HTML standard's declarative refresh steps parse it), as written;
    /// `None` when there is none or it refreshes the page itself.
    pub refresh: Option<String>,
    /// The first `<base href>`'s value, as written: what relative URLs resolve against.
    pub base: Option<String>,
    /// The base came before the refresh, so the refresh's URL resolves against it (a
    /// refresh is resolved when it is read; a later base does not change it).
    pub base_before_refresh: bool,
}

impl HeadFacts {
    /// Whether these facts leave the page at `loc` in: no noindex, no refresh, and no
    /// canonical link or one that is `loc` as written.
    pub fn is_quiet_for(&self, loc: Loc) -> bool {
        !self.noindex
            && self.refresh.is_none()
            && self.canonical.as_deref().is_none_or(|c| loc == c)
    }
}

/// Bytes of a page read first: most heads end well within them.
const FIRST_READ: usize = 16 * 1024;

/// Reads the head of the page `input` holds (at most [`MAX_HEAD_BYTES`] of it).
pub fn read_head(input: impl Read) -> std::io::Result<HeadFacts> {
    // One reader per thread, its buffers kept from page to page: no allocation per page.
    thread_local! {
        static READER: std::cell::RefCell<HeadReader> = std::cell::RefCell::default();
    }
    READER.with(|reader| match reader.try_borrow_mut() {
        Ok(mut reader) => reader.read(input),
        Err(_) => HeadReader::default().read(input),
    })
}

/// A start tag's role in the head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Meta,
    Link,
    /// Its contents are text until its end tag (title, script, style, noscript, noframes).
    Raw,
    /// `<template>`: its contents are inert.
    Template,
    /// `<base>`: its href is what relative URLs resolve against.
    Base,
    /// Another tag the head may hold (html, head, base, …).
    Other,
    /// Any other element (`<body>`, `<div>`, …): the body has begun.
    Body,
}

impl Tag {
    /// The role of a tag by its lowercased name.
    fn of(name: &[u8]) -> Tag {
        match name {
            b"meta" => Tag::Meta,
            b"link" => Tag::Link,
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => Tag::Raw,
            b"template" => Tag::Template,
            b"base" => Tag::Base,
            b"html" | b"head" | b"basefont" | b"bgsound" => Tag::Other,
            _ => Tag::Body,
        }
    }
}

/// The attributes the rules read, an index into [`Values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attr {
    Name,
    Content,
    HttpEquiv,
    Rel,
    Href,
}

impl Attr {
    /// The attribute of interest an attribute name (in any case) is on a tag, if any.
    fn of(tag: Tag, name: &[u8]) -> Option<Attr> {
        let is = |s: &[u8]| name.eq_ignore_ascii_case(s);
        match tag {
            Tag::Meta if is(b"name") => Some(Attr::Name),
            Tag::Meta if is(b"content") => Some(Attr::Content),
            Tag::Meta if is(b"http-equiv") => Some(Attr::HttpEquiv),
            Tag::Link if is(b"rel") => Some(Attr::Rel),
            Tag::Link | Tag::Base if is(b"href") => Some(Attr::Href),
            _ => None,
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A start tag's values of the attributes of interest, by [`Attr`]: each the first attribute
/// of its name (a repeated one is ignored, as browsers ignore it), empty when the tag has
/// none or it has no value, as given (the rules trim what they compare).
type Values<'a> = [&'a [u8]; 5];

/// The head's rules over a stream of tokens: keep only what the robots, canonical and refresh
/// tags say, and note where the head ends. Two tokenizers drive them with the same calls: the
/// one in [`plain_markup`] for the plain markup most pages have, and html5gum (through [`Gum`]) for
/// the rest.
#[derive(Debug, Default)]
struct Rules {
    facts: HeadFacts,
    /// Two canonical links disagree.
    conflict: bool,
    /// The head has ended: nothing after this counts.
    done: bool,
    /// Inside a title, script, style, noscript or noframes.
    raw: bool,
    /// Inside this many templates.
    templates: usize,
    /// A refresh has parsed: the document "will declaratively refresh", and no later one
    /// counts.
    refreshing: bool,
    /// The name of the last start tag, which a raw text element's end tag must repeat.
    last_start_tag: Vec<u8>,
}

impl Rules {
    /// Back to the state of a new page, buffers kept.
    fn reset(&mut self) {
        self.facts = HeadFacts::default();
        self.conflict = false;
        self.done = false;
        self.raw = false;
        self.templates = 0;
        self.refreshing = false;
        self.last_start_tag.clear();
    }

    /// What the head said, the rules left ready for the next page.
    fn take_facts(&mut self) -> HeadFacts {
        let mut facts = std::mem::take(&mut self.facts);
        if self.conflict {
            facts.canonical = None;
        }
        facts
    }

    /// Text outside a tag.
    fn text(&mut self, text: &[u8]) {
        // Text outside the head's elements starts the body.
        let words = !text.iter().all(u8::is_ascii_whitespace);
        if words && !self.raw && self.templates == 0 {
            self.done = true;
        }
    }

    /// A start tag (its name lowercased, `tag` its role, `set` which of `values` it has, a
    /// bit each): the state the tokenizer goes on in after it.
    fn start_tag(&mut self, name: &[u8], tag: Tag, values: &Values, set: u8) -> Option<State> {
        if self.done {
        } else if self.templates > 0 {
            // Inside a template nothing applies; only nested templates are counted.
            self.templates += usize::from(tag == Tag::Template);
        } else {
            match tag {
                Tag::Meta => self.meta(values),
                Tag::Link => self.link(values),
                Tag::Raw => self.raw = true,
                Tag::Template => self.templates += 1,
                Tag::Base => self.base(values, set),
                Tag::Other => {}
                Tag::Body => self.done = true,
            }
        }
        // Their contents are text, as a browser reads them in a head (html5gum's own table
        // misses noframes).
        let next = match name {
            b"noframes" => Some(State::RawText),
            name => naive_next_state(name),
        };
        // Only in those states does an end tag have to match the start tag.
        if next.is_some() {
            self.last_start_tag.clear();
            self.last_start_tag.extend_from_slice(name);
        }
        next
    }

    /// An end tag (its name lowercased).
    fn end_tag(&mut self, name: &[u8]) {
        if self.done {
            return;
        }
        match name {
            b"head" | b"body" | b"html" if self.templates == 0 => self.done = true,
            b"template" => self.templates = self.templates.saturating_sub(1),
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => self.raw = false,
            _ => {}
        }
    }

    /// Whether the rules read a start tag's value of `a`, knowing its others: a meta's
    /// content only for robots or a refresh, a link's href only for a canonical link, a
    /// base's always.
    fn reads(tag: Tag, a: Attr, values: &Values) -> bool {
        match a {
            Attr::Content => is_robots(values) || is_refresh(values),
            Attr::Href => tag == Tag::Base || is_canonical(values),
            Attr::Name | Attr::HttpEquiv | Attr::Rel => true,
        }
    }

    fn meta(&mut self, values: &Values) {
        if is_robots(values) && says_noindex(value(values, Attr::Content)) {
            self.facts.noindex = true;
        }
        if !is_refresh(values) || self.refreshing {
            return;
        }
        // The content as written: the steps skip only ASCII whitespace themselves.
        let content = values[Attr::Content as usize];
        if content.is_empty() {
            return;
        }
        match declarative_refresh(content) {
            None => {}
            // A refresh of the page itself: it counts, and no later one does.
            Some(None) => self.refreshing = true,
            Some(Some(url)) => {
                let url = String::from_utf8_lossy(url);
                // A URL that does not parse (against the base in effect) is no refresh.
                if parses_against(self.facts.base.as_deref(), &url) {
                    self.refreshing = true;
                    self.facts.base_before_refresh = self.facts.base.is_some();
                    self.facts.refresh = Some(url.into_owned());
                }
            }
        }
    }

    /// The first base with an href sets the document's base URL; later ones do nothing.
    fn base(&mut self, values: &Values, set: u8) {
        if set & Attr::Href.bit() != 0 && self.facts.base.is_none() {
            let href = String::from_utf8_lossy(values[Attr::Href as usize]);
            self.facts.base = Some(href.into_owned());
        }
    }

    fn link(&mut self, values: &Values) {
        let href = value(values, Attr::Href);
        if !is_canonical(values) || href.is_empty() {
            return;
        }
        let href = String::from_utf8_lossy(href);
        match &self.facts.canonical {
            None => self.facts.canonical = Some(href.into_owned()),
            Some(first) if *first != href => self.conflict = true,
            Some(_) => {}
        }
    }
}

/// A tag's value of `a`, trimmed.
fn value<'a>(values: &Values<'a>, a: Attr) -> &'a [u8] {
    values[a as usize].trim_ascii()
}

fn is_robots(values: &Values) -> bool {
    let name = value(values, Attr::Name);
    name.eq_ignore_ascii_case(b"robots") || name.eq_ignore_ascii_case(b"googlebot")
}

/// `http-equiv` is an enumerated attribute: the keyword in any case, nothing around it.
fn is_refresh(values: &Values) -> bool {
    values[Attr::HttpEquiv as usize].eq_ignore_ascii_case(b"refresh")
}

fn is_canonical(values: &Values) -> bool {
    value(values, Attr::Rel)
        .split(u8::is_ascii_whitespace)
        .any(|r| r.eq_ignore_ascii_case(b"canonical"))
}

/// The head reader of one thread: the rules, html5gum's tag under construction, and the
/// page's first bytes, all kept from page to page.
#[derive(Debug, Default)]
struct HeadReader {
    rules: Rules,
    tag: GumTag,
    /// Always [`FIRST_READ`] bytes long.
    buf: Vec<u8>,
    /// The plain tokenizer's lowercased tag name.
    name: Vec<u8>,
}

impl HeadReader {
    /// Reads the head of `input`: its first bytes with the plain tokenizer; the rest of the
    /// bounded input when the head goes on past them; html5gum when the markup is not plain.
    fn read(&mut self, input: impl Read) -> std::io::Result<HeadFacts> {
        let mut input = input.take(MAX_HEAD_BYTES);
        if self.buf.len() != FIRST_READ {
            self.buf = vec![0; FIRST_READ];
        }
        let n = read_some(&mut input, &mut self.buf)?;
        // Too few bytes to tell a byte order mark: read on (a trickling reader, a tiny page).
        let mut outcome = plain_markup::ScanEnd::NeedMore;
        if (n >= 3 || n == 0) && utf16(&self.buf[..n]).is_none() {
            outcome = scan_plain(&mut self.rules, &mut self.name, &self.buf[..n], n == 0);
        }
        if outcome == plain_markup::ScanEnd::Done {
            return Ok(self.rules.take_facts());
        }
        // The head goes on past the first read: read on, three times as much each time.
        let mut all = self.buf[..n].to_vec();
        let mut eof = n == 0;
        while outcome == plain_markup::ScanEnd::NeedMore && !eof && utf16(&all).is_none() {
            let want = 2 * all.len().max(FIRST_READ) as u64;
            eof = (&mut input).take(want).read_to_end(&mut all)? < want as usize;
            if utf16(&all).is_none() {
                outcome = scan_plain(&mut self.rules, &mut self.name, &all, eof);
            }
        }
        if outcome == plain_markup::ScanEnd::Done {
            return Ok(self.rules.take_facts());
        }
        input.read_to_end(&mut all)?;
        if let Some(big_endian) = utf16(&all) {
            // A UTF-16 page: decoded as a whole (within the bound), then read like any other.
            let text = decode_utf16(&all[2..], big_endian);
            self.rules.reset();
            if plain_markup::scan(&mut self.rules, &mut self.name, text.as_bytes(), true)
                != plain_markup::ScanEnd::Done
            {
                self.rules.reset();
                self.tokenize(text.as_bytes());
            }
        } else {
            self.rules.reset();
            self.tokenize(page_bytes(&all));
        }
        Ok(self.rules.take_facts())
    }

    /// Runs html5gum over `bytes`, the whole bounded input.
    fn tokenize(&mut self, bytes: &[u8]) {
        let gum = Gum {
            rules: &mut self.rules,
            tag: &mut self.tag,
            yielded: false,
        };
        // The scan yields one token, when the head ends; otherwise the input runs out.
        let _ = Tokenizer::new_with_emitter(bytes, gum).next();
    }
}

/// The plain tokenizer's scan of `bytes` (a page's first bytes, all of them when `eof`), from
/// fresh rules.
fn scan_plain(
    rules: &mut Rules,
    name: &mut Vec<u8>,
    bytes: &[u8],
    eof: bool,
) -> plain_markup::ScanEnd {
    rules.reset();
    plain_markup::scan(rules, name, page_bytes(bytes), eof)
}

/// A page's bytes as a browser decodes them: without a UTF-8 byte order mark.
fn page_bytes(buf: &[u8]) -> &[u8] {
    buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(buf)
}

/// Whether a page starts with a UTF-16 byte order mark, which decides its encoding over
/// anything else the page says (HTML's encoding sniffing): `Some(true)` big-endian,
/// `Some(false)` little-endian.
fn utf16(buf: &[u8]) -> Option<bool> {
    match buf.get(..2)? {
        [0xFE, 0xFF] => Some(true),
        [0xFF, 0xFE] => Some(false),
        _ => None,
    }
}

/// UTF-16 text (after its byte order mark) as UTF-8, as the Encoding standard's decoder
/// gives it: a lone surrogate, or an odd last byte, becomes U+FFFD.
fn decode_utf16(bytes: &[u8], big_endian: bool) -> String {
    let units = bytes.chunks_exact(2).map(|p| {
        if big_endian {
            u16::from_be_bytes([p[0], p[1]])
        } else {
            u16::from_le_bytes([p[0], p[1]])
        }
    });
    let mut text: String = char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    if bytes.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    text
}

/// Fills as much of `buf` as one read gives (retrying an interrupted one); the count read.
fn read_some(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// The tag html5gum is building, its buffers kept from tag to tag.
#[derive(Debug, Default)]
struct GumTag {
    end_tag: bool,
    name: Vec<u8>,
    attr_name: Vec<u8>,
    /// An attribute's name is being read (which attribute it is is not yet known).
    naming: bool,
    /// The attribute whose value comes next, when it is one of interest and its tag's first.
    attr: Option<Attr>,
    values: [Vec<u8>; 5],
    /// Which of `values` the tag has named, a bit each.
    set: u8,
}

impl GumTag {
    fn begin(&mut self, end_tag: bool) {
        self.end_tag = end_tag;
        self.name.clear();
        self.attr_name.clear();
        self.naming = false;
        self.attr = None;
        for v in &mut self.values {
            v.clear();
        }
        self.set = 0;
    }

    /// The current attribute's name is complete: the first attribute of a name counts, with
    /// or without a value.
    fn name_done(&mut self) {
        if !std::mem::take(&mut self.naming) || self.end_tag {
            return;
        }
        if let Some(a) = Attr::of(Tag::of(&self.name), &self.attr_name) {
            self.attr = (self.set & a.bit() == 0).then_some(a);
            self.set |= a.bit();
        }
    }
}

/// html5gum's side of the [`Rules`]: it gathers each tag's values of interest, skips error
/// reporting (the costliest part of tokenizing) and yields one token, when the head ends.
struct Gum<'a> {
    rules: &'a mut Rules,
    tag: &'a mut GumTag,
    yielded: bool,
}

impl Emitter for Gum<'_> {
    type Token = ();

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.rules.last_start_tag.clear();
        self.rules
            .last_start_tag
            .extend(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {}

    fn emit_error(&mut self, _: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<()> {
        (self.rules.done && !std::mem::replace(&mut self.yielded, true)).then_some(())
    }

    fn emit_string(&mut self, text: &[u8]) {
        self.rules.text(text);
    }

    fn init_start_tag(&mut self) {
        self.tag.begin(false);
    }

    fn init_end_tag(&mut self) {
        self.tag.begin(true);
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<State> {
        self.tag.name_done();
        let tag = &*self.tag;
        if tag.end_tag {
            self.rules.end_tag(&tag.name);
            return None;
        }
        let values: Values = std::array::from_fn(|a| tag.values[a].as_slice());
        self.rules
            .start_tag(&tag.name, Tag::of(&tag.name), &values, tag.set)
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        self.tag.name.extend_from_slice(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {}

    fn init_attribute(&mut self) {
        self.tag.name_done();
        self.tag.attr_name.clear();
        self.tag.attr = None;
        self.tag.naming = true;
    }

    fn init_attribute_value(&mut self) {
        self.tag.name_done();
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        self.tag.attr_name.extend_from_slice(s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        if let Some(a) = self.tag.attr {
            self.tag.values[a as usize].extend_from_slice(s);
        }
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        let last = &self.rules.last_start_tag;
        self.tag.end_tag && !last.is_empty() && self.tag.name == *last
    }
}

/// Whether a robots meta content holds `noindex` (or `none`, which implies it), in any case
/// and among any other directives.
fn says_noindex(content: &[u8]) -> bool {
    content
        .split(|&c| c == b',' || c.is_ascii_whitespace())
        .any(|d| d.eq_ignore_ascii_case(b"noindex") || d.eq_ignore_ascii_case(b"none"))
}

/// A refresh's content parsed by the HTML standard's "shared declarative refresh steps":
/// `None` when a browser does not refresh (`5x`, `0url=/a/`, a leading no-break space),
/// `Some(None)` for a refresh of the page itself, `Some(Some(url))` for one to `url` (before
/// it is parsed as a URL).
fn declarative_refresh(input: &[u8]) -> Option<Option<&[u8]>> {
    let at = |p: usize| input.get(p).copied();
    let skip_ws = |mut p: usize| {
        while at(p).is_some_and(|c| c.is_ascii_whitespace()) {
            p += 1;
        }
        p
    };
    let mut p = skip_ws(0);
    let digits = p;
    while at(p).is_some_and(|c| c.is_ascii_digit()) {
        p += 1;
    }
    if p == digits && at(p) != Some(b'.') {
        return None;
    }
    // The fraction is read and ignored.
    while at(p).is_some_and(|c| c.is_ascii_digit() || c == b'.') {
        p += 1;
    }
    if let Some(c) = at(p) {
        if !(c == b';' || c == b',' || c.is_ascii_whitespace()) {
            return None;
        }
        p = skip_ws(p);
        if matches!(at(p), Some(b';' | b',')) {
            p += 1;
        }
        p = skip_ws(p);
    }
    if p >= input.len() {
        return Some(None);
    }
    let whole = &input[p..];
    let mut q = p;
    if matches!(at(q), Some(b'u' | b'U')) {
        q += 1;
        // `u`, `ur`, `url` not followed by `=`: the URL is everything from the `u`.
        if !matches!(at(q), Some(b'r' | b'R')) {
            return Some(Some(whole));
        }
        q += 1;
        if !matches!(at(q), Some(b'l' | b'L')) {
            return Some(Some(whole));
        }
        q = skip_ws(q + 1);
        if at(q) != Some(b'=') {
            return Some(Some(whole));
        }
        q = skip_ws(q + 1);
    }
    // Skip quotes: a URL in quotes ends at the same quote, if there is one.
    let url = match at(q) {
        Some(quote @ (b'"' | b'\'')) => {
            let rest = &input[q + 1..];
            &rest[..memchr::memchr(quote, rest).unwrap_or(rest.len())]
        }
        _ => &input[q..],
    };
    Some(Some(url))
}

/// Whether `url` parses as a URL against a page's base (`base`, as a `<base href>` gives it,
/// resolved against the page). Only the page URL's scheme matters to whether parsing fails,
/// and every page URL is http(s), so a stand-in page URL answers for all of them.
fn parses_against(base: Option<&str>, url: &str) -> bool {
    static PAGE: std::sync::OnceLock<url::Url> = std::sync::OnceLock::new();
    let page = PAGE.get_or_init(|| url::Url::parse("https://page.invalid/a/").expect("a URL"));
    let base = base.and_then(|b| page.join(b).ok());
    base.as_ref().unwrap_or(page).join(url).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(html: &str) -> HeadFacts {
        read_head(html.as_bytes()).unwrap()
    }

    #[test]
    fn robots_noindex_in_any_case_and_order() {
        for content in [
            "noindex",
            "NoIndex",
            "follow, noindex",
            "nofollow,NOINDEX",
            "none",
        ] {
            let h = head(&format!(
                "<!DOCTYPE html><html><head><meta name=\"robots\" content=\"{content}\"></head></html>"
            ));
            assert!(h.noindex, "{content}");
        }
        assert!(head("<head><meta name=GoogleBot content='noindex'>").noindex);
        assert!(head("<meta content=\"noindex\" name=\"robots\"><title>x</title>").noindex);
        // Character references are decoded, as a browser decodes them.
        assert!(head("<meta name=robots content=\"&#110;oindex\">").noindex);
        for content in ["index, follow", "noindexed", "nofollow"] {
            let h = head(&format!(
                "<head><meta name=robots content=\"{content}\"></head>"
            ));
            assert!(!h.noindex, "{content}");
        }
        assert!(!head("<head><meta name=bingbot content=noindex></head>").noindex);
    }

    #[test]
    fn only_the_head_counts() {
        let cases = [
            "<head></head><body><meta name=robots content=noindex></body>",
            "<head><title>x</title></head><meta name=robots content=noindex>",
            "<head><!-- <meta name=robots content=noindex> --></head>",
            "<head><script>var s = '<meta name=robots content=noindex>';</script></head>",
            "<head><title><meta name=robots content=noindex></title></head>",
            "<head><noscript><meta name=robots content=noindex></noscript></head>",
            "<head><template><meta name=robots content=noindex></template></head>",
            // A tag the head cannot hold, or text, starts the body.
            "<head><div></div><meta name=robots content=noindex>",
            "<html>Hello <meta name=robots content=noindex>",
        ];
        for html in cases {
            assert!(!head(html).noindex, "{html}");
        }
        // After a script, style or title, the head goes on.
        assert!(head("<head><script>if (a < b) {}</script><style>p{}</style><meta name=robots content=noindex>").noindex);
    }

    #[test]
    fn a_long_head_is_read_on() {
        // Inline styles and scripts can make a head far longer than the first read.
        let style = format!("<style>{}</style>", "p{margin:0}\n".repeat(5000));
        let page = format!(
            "<html><head>{style}<meta name=robots content=noindex></head><body>{}</body>",
            "<p>text</p>".repeat(30000)
        );
        assert!(page.len() > MAX_HEAD_BYTES as usize);
        assert!(head(&page).noindex);
    }

    #[test]
    fn reading_stops_at_the_bound() {
        let filler = " ".repeat(MAX_HEAD_BYTES as usize);
        assert!(!head(&format!("<head>{filler}<meta name=robots content=noindex>")).noindex);
        assert!(head(&format!("<head><meta name=robots content=noindex>{filler}")).noindex);
    }

    #[test]
    fn canonical_links() {
        let h = head("<head><link rel=\"canonical\" href=\" /other/ \"></head>");
        assert_eq!(h.canonical.as_deref(), Some("/other/"));
        let h = head("<link href=https://e.org/a/ rel='Canonical'>");
        assert_eq!(h.canonical.as_deref(), Some("https://e.org/a/"));
        assert_eq!(head("<link rel=alternate href=/fr/>").canonical, None);
        assert_eq!(head("<link rel=canonical href=''>").canonical, None);
        // Two that disagree: neither counts.
        assert_eq!(
            head("<link rel=canonical href=/a/><link rel=canonical href=/b/>").canonical,
            None
        );
        assert_eq!(
            head("<link rel=canonical href=/a/><link rel=canonical href=/a/>").canonical,
            Some("/a/".into())
        );
    }

    #[test]
    fn meta_refresh() {
        let h = head(
            "<head><meta http-equiv=\"refresh\" content=\"0; url=https://e.org/new/\"></head>",
        );
        assert_eq!(h.refresh.as_deref(), Some("https://e.org/new/"));
        assert_eq!(head("<meta http-equiv=Refresh content=60>").refresh, None);
    }

    /// The HTML standard's shared declarative refresh steps, case by case.
    #[test]
    fn declarative_refresh_steps() {
        let url = |content: &str| match declarative_refresh(content.as_bytes()) {
            None => "no refresh".to_string(),
            Some(None) => "itself".to_string(),
            Some(Some(u)) => String::from_utf8(u.to_vec()).unwrap(),
        };
        assert_eq!(url("0;URL='/a b/'"), "/a b/");
        assert_eq!(url("5, /next/"), "/next/");
        assert_eq!(url(" 0 ; url = /x "), "/x ");
        assert_eq!(url("0; url=\"/q\" trailing"), "/q");
        assert_eq!(url("0; url='/open"), "/open");
        assert_eq!(url("0 '/quoted' x"), "/quoted");
        assert_eq!(url("1.5; url=/f/"), "/f/");
        assert_eq!(url(".5 /dot/"), "/dot/");
        assert_eq!(url("0;"), "itself");
        assert_eq!(url("30"), "itself");
        assert_eq!(url("\t\n30\x0c"), "itself");
        // `u`, `ur`, `url` without `=`: the URL is all of it.
        assert_eq!(url("0; urx"), "urx");
        assert_eq!(url("0; url /x"), "url /x");
        assert_eq!(url("0; u"), "u");
        // What a browser does not refresh at all.
        assert_eq!(url("url=/x"), "no refresh");
        assert_eq!(url("0url=/moved/"), "no refresh");
        assert_eq!(url("5x; url=/moved/"), "no refresh");
        assert_eq!(url("\u{a0}0; url=/moved/"), "no refresh");
        assert_eq!(url("-1; url=/x"), "no refresh");
        assert_eq!(url(""), "no refresh");
    }

    #[test]
    fn only_the_first_refresh_that_parses_counts() {
        let refresh = |metas: &str| head(&format!("<head>{metas}</head>")).refresh;
        let m = |c: &str| format!("<meta http-equiv=refresh content=\"{c}\">");
        // The first refreshes the page itself: the second never runs.
        assert_eq!(refresh(&(m("30") + &m("0; url=/moved/"))), None);
        // One a browser does not parse (its delay, its URL) leaves the next its turn.
        assert_eq!(
            refresh(&(m("5x; url=/a/") + &m("0; url=/b/"))),
            Some("/b/".into())
        );
        assert_eq!(
            refresh(&(m("0; url=http://[::1") + &m("0; url=/c/"))),
            Some("/c/".into())
        );
        assert_eq!(
            refresh(&(m("0; url=/first/") + &m("0; url=/second/"))),
            Some("/first/".into())
        );
        // No content, or an empty one, is nothing; http-equiv must be the keyword alone.
        let none = "<meta http-equiv=refresh><meta http-equiv=refresh content=\"\">";
        assert_eq!(
            refresh(&(none.to_string() + &m("0; url=/d/"))),
            Some("/d/".into())
        );
        assert_eq!(
            refresh("<meta http-equiv=\" refresh\" content=\"0; url=/e/\">"),
            None
        );
        // A no-break space before the delay (a character reference, so html5gum reads it).
        assert_eq!(refresh(&m("&#xa0;0; url=/moved/")), None);
    }

    #[test]
    fn the_first_base_with_an_href_counts() {
        let h = head(
            "<head><base target=_top><base href=/docs/><base href=/other/><meta http-equiv=refresh content='0; url=a/'></head>",
        );
        assert_eq!(h.base.as_deref(), Some("/docs/"));
        assert!(h.base_before_refresh);
        let h =
            head("<head><meta http-equiv=refresh content='0; url=a/'><base href=/docs/></head>");
        assert_eq!(h.base.as_deref(), Some("/docs/"));
        assert!(!h.base_before_refresh);
        // An href without a value is an href: the page itself is the base.
        assert_eq!(head("<base href><base href=/x/>").base.as_deref(), Some(""));
        assert_eq!(
            head("<base href=\"/&#100;ocs/\">").base.as_deref(),
            Some("/docs/")
        );
    }

    #[test]
    fn utf16_pages_are_decoded() {
        let page = "<html><head><meta name=\"robots\" content=\"noindex\"><link rel=canonical href=\"/ü/\"></head></html>";
        for big_endian in [false, true] {
            let mut bytes = if big_endian {
                vec![0xFE, 0xFF]
            } else {
                vec![0xFF, 0xFE]
            };
            for unit in page.encode_utf16() {
                bytes.extend(if big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                });
            }
            let h = read_head(&bytes[..]).unwrap();
            assert!(h.noindex, "big endian: {big_endian}");
            assert_eq!(h.canonical.as_deref(), Some("/ü/"));
            // Read a byte at a time, the byte order mark is told all the same.
            let h = read_head(OneByte(&bytes)).unwrap();
            assert!(h.noindex);
        }
        // Without a byte order mark, UTF-16 is not sniffed (a browser reads it as bytes).
        let bare: Vec<u8> = page.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert!(!read_head(&bare[..]).unwrap().noindex);
        assert_eq!(
            decode_utf16(&[0x41, 0x00, 0x00, 0xD8, 0x42], false),
            "A\u{FFFD}\u{FFFD}"
        );
    }

    /// A reader that gives one byte per read.
    struct OneByte<'a>(&'a [u8]);

    impl Read for OneByte<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some((&first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            match buf.first_mut() {
                Some(b) => {
                    *b = first;
                    self.0 = rest;
                    Ok(1)
                }
                None => Ok(0),
            }
        }
    }
}
