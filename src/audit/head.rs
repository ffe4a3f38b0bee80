//! What a built page's `<head>` says about indexing: robots `noindex`, its canonical URL, a
//! meta refresh. Read with a real HTML tokenizer (html5gum), up to the end of the head and
//! never past [`MAX_HEAD_BYTES`]: a `noindex` in the body, a comment or a script is no
//! `noindex`.

use html5gum::{naive_next_state, Emitter, Error, IoReader, State, Tokenizer};
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
    /// The URL of a `<meta http-equiv="refresh">`, as written.
    pub refresh: Option<String>,
}

/// Bytes read at a time: most heads fit in one read.
const CHUNK: usize = 4096;

/// Reads the head of the page `input` holds (at most [`MAX_HEAD_BYTES`] of it).
pub fn read_head(input: impl Read) -> std::io::Result<HeadFacts> {
    // One scanner per thread, its buffers kept from page to page: no allocation per page.
    thread_local! {
        static SCAN: std::cell::RefCell<HeadScan> = std::cell::RefCell::default();
    }
    SCAN.with(|scan| match scan.try_borrow_mut() {
        Ok(mut scan) => scan.read(input),
        Err(_) => HeadScan::default().read(input),
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
    /// Another tag the head may hold (html, head, base, …).
    Other,
    /// Any other element (`<body>`, `<div>`, …): the body has begun.
    Body,
}

impl Tag {
    fn of(name: &[u8]) -> Tag {
        match name {
            b"meta" => Tag::Meta,
            b"link" => Tag::Link,
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => Tag::Raw,
            b"template" => Tag::Template,
            b"html" | b"head" | b"base" | b"basefont" | b"bgsound" => Tag::Other,
            _ => Tag::Body,
        }
    }
}

/// The attributes of interest, as their values are gathered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attr {
    Name,
    Content,
    HttpEquiv,
    Rel,
    Href,
}

/// The tokenizer's emitter: it keeps only what the head's robots, canonical and refresh
/// tags need, skips error reporting (the costliest part of tokenizing), and yields one token
/// when the head ends.
#[derive(Debug, Default)]
struct HeadScan {
    facts: HeadFacts,
    /// Two canonical links disagree.
    conflict: bool,
    /// The head has ended (yielded once by `pop_token`).
    ended: Option<()>,
    end_tag: bool,
    name: Vec<u8>,
    last_start_tag: Vec<u8>,
    attr_name: Vec<u8>,
    /// The attribute whose value comes next, when it is one of interest and its first.
    attr: Option<Attr>,
    /// Values of the current tag's attributes, in [`Attr`] order; the first of a name wins.
    /// The buffers are kept from tag to tag: a head has dozens of attributes.
    values: [Vec<u8>; 5],
    /// Which of `values` the current tag has set, a bit each.
    set: u8,
    raw: bool,
    templates: usize,
}

impl Emitter for &mut HeadScan {
    type Token = ();

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start_tag.clear();
        self.last_start_tag
            .extend(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {}

    fn emit_error(&mut self, _: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<()> {
        self.ended.take()
    }

    fn emit_string(&mut self, text: &[u8]) {
        // Text outside the head's elements starts the body.
        let words = !text.iter().all(u8::is_ascii_whitespace);
        if words && !self.raw && self.templates == 0 {
            self.end();
        }
    }

    fn init_start_tag(&mut self) {
        self.begin_tag(false);
    }

    fn init_end_tag(&mut self) {
        self.begin_tag(true);
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<State> {
        if self.end_tag {
            self.close_end_tag();
            return None;
        }
        self.close_start_tag();
        self.last_start_tag.clear();
        self.last_start_tag.extend_from_slice(&self.name);
        // Script, style and title contents are text, as a browser reads them.
        naive_next_state(&self.name)
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {}

    fn init_attribute(&mut self) {
        self.attr_name.clear();
        self.attr = None;
    }

    fn init_attribute_value(&mut self) {
        let attr = match (Tag::of(&self.name), self.attr_name.as_slice()) {
            (Tag::Meta, b"name") => Some(Attr::Name),
            (Tag::Meta, b"content") => Some(Attr::Content),
            (Tag::Meta, b"http-equiv") => Some(Attr::HttpEquiv),
            (Tag::Link, b"rel") => Some(Attr::Rel),
            (Tag::Link, b"href") => Some(Attr::Href),
            _ => None,
        };
        // A repeated attribute is ignored, as browsers ignore it.
        self.attr = attr.filter(|a| self.set & (1 << *a as u8) == 0);
        if let Some(a) = self.attr {
            self.set |= 1 << a as u8;
        }
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        if !self.end_tag {
            self.attr_name.extend_from_slice(s);
        }
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        if let Some(a) = self.attr {
            self.values[a as usize].extend_from_slice(s);
        }
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.end_tag && !self.last_start_tag.is_empty() && self.name == self.last_start_tag
    }
}

impl HeadScan {
    /// Scans the head of `input`, from a clean state.
    fn read(&mut self, input: impl Read) -> std::io::Result<HeadFacts> {
        self.reset();
        let mut buf = [0u8; CHUNK];
        let reader = IoReader::new_with_buffer(input.take(MAX_HEAD_BYTES), &mut buf);
        // The scan yields one token, when the head ends; otherwise the input runs out.
        if let Some(Err(e)) = Tokenizer::new_with_emitter(reader, &mut *self).next() {
            return Err(e);
        }
        let mut facts = std::mem::take(&mut self.facts);
        if self.conflict {
            facts.canonical = None;
        }
        Ok(facts)
    }

    /// Back to the state of a new scanner, buffers kept.
    fn reset(&mut self) {
        self.facts = HeadFacts::default();
        self.conflict = false;
        self.ended = None;
        self.begin_tag(false);
        self.last_start_tag.clear();
        self.attr_name.clear();
        self.raw = false;
        self.templates = 0;
    }

    fn end(&mut self) {
        self.ended = Some(());
    }

    fn begin_tag(&mut self, end_tag: bool) {
        self.end_tag = end_tag;
        self.name.clear();
        self.attr = None;
        for v in &mut self.values {
            v.clear();
        }
        self.set = 0;
    }

    fn close_start_tag(&mut self) {
        let tag = Tag::of(&self.name);
        if self.templates > 0 {
            // Inside a template nothing applies; only nested templates are counted.
            self.templates += usize::from(tag == Tag::Template);
            return;
        }
        match tag {
            Tag::Meta => self.meta(),
            Tag::Link => self.link(),
            Tag::Raw => self.raw = true,
            Tag::Template => self.templates += 1,
            Tag::Other => {}
            Tag::Body => self.end(),
        }
    }

    fn close_end_tag(&mut self) {
        match self.name.as_slice() {
            b"head" | b"body" | b"html" if self.templates == 0 => self.end(),
            b"template" => self.templates = self.templates.saturating_sub(1),
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => self.raw = false,
            _ => {}
        }
    }

    /// The current tag's value of `a`, trimmed (empty when it has none).
    fn value(&self, a: Attr) -> &[u8] {
        self.values[a as usize].trim_ascii()
    }

    fn meta(&mut self) {
        let name = self.value(Attr::Name);
        let robots =
            name.eq_ignore_ascii_case(b"robots") || name.eq_ignore_ascii_case(b"googlebot");
        if robots && says_noindex(self.value(Attr::Content)) {
            self.facts.noindex = true;
        }
        let refresh = self.value(Attr::HttpEquiv).eq_ignore_ascii_case(b"refresh");
        if refresh && self.facts.refresh.is_none() {
            self.facts.refresh = refresh_url(&String::from_utf8_lossy(self.value(Attr::Content)));
        }
    }

    fn link(&mut self) {
        let canonical = self
            .value(Attr::Rel)
            .split(u8::is_ascii_whitespace)
            .any(|r| r.eq_ignore_ascii_case(b"canonical"));
        let href = self.value(Attr::Href);
        if !canonical || href.is_empty() {
            return;
        }
        let href = String::from_utf8_lossy(href).into_owned();
        match &self.facts.canonical {
            None => self.facts.canonical = Some(href),
            Some(first) if *first != href => self.conflict = true,
            Some(_) => {}
        }
    }
}

/// Whether a robots meta content holds `noindex` (or `none`, which implies it), in any case
/// and among any other directives.
fn says_noindex(content: &[u8]) -> bool {
    content
        .split(|&c| c == b',' || c.is_ascii_whitespace())
        .any(|d| d.eq_ignore_ascii_case(b"noindex") || d.eq_ignore_ascii_case(b"none"))
}

/// The URL of a refresh content (`5; url=/next/`), parsed as the HTML standard's declarative
/// refresh does; `None` for a refresh of the page itself (no URL).
fn refresh_url(content: &str) -> Option<String> {
    let s = content.trim_start();
    let time_len = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    if time_len == 0 {
        return None;
    }
    let s = s[time_len..].trim_start();
    let s = s.strip_prefix([';', ',']).unwrap_or(s).trim_start();
    let s = match s.get(..3) {
        Some(u) if u.eq_ignore_ascii_case("url") => {
            let rest = s[3..].trim_start();
            rest.strip_prefix('=').map_or(s, str::trim_start)
        }
        _ => s,
    };
    let url = match s.chars().next() {
        Some(q @ ('"' | '\'')) => s[1..].split(q).next().unwrap_or_default(),
        _ => s.trim_end(),
    };
    (!url.is_empty()).then(|| url.to_string())
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
        assert_eq!(refresh_url("0;URL='/a b/'"), Some("/a b/".into()));
        assert_eq!(refresh_url("5, /next/"), Some("/next/".into()));
        assert_eq!(refresh_url(" 0 ; url = /x "), Some("/x".into()));
        assert_eq!(refresh_url("30"), None);
        assert_eq!(refresh_url("url=/x"), None);
        assert_eq!(head("<meta http-equiv=Refresh content=60>").refresh, None);
    }
}
