//! What a built page's `<head>` says about indexing: robots `noindex`, its canonical URL, a
//! meta refresh. Read with a real HTML tokenizer (html5gum), up to the end of the head and
//! never past [`MAX_HEAD_BYTES`]: a `noindex` in the body, a comment or a script is no
//! `noindex`.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{IoReader, Span, Tokenizer};
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

/// Reads the head of the page `input` holds (at most [`MAX_HEAD_BYTES`] of it).
pub fn read_head(input: impl Read) -> std::io::Result<HeadFacts> {
    let mut facts = HeadFacts::default();
    let mut conflict = false;
    let mut scan = Scan::new(&mut facts, &mut conflict);
    let mut emitter = CallbackEmitter::new(|ev: CallbackEvent<'_>, _: Span<()>| scan.on(ev));
    // Script, style and title contents are text, as a browser reads them.
    emitter.naively_switch_states(true);
    let reader = IoReader::new_with_buffer_size::<8192>(input.take(MAX_HEAD_BYTES));
    for token in Tokenizer::new_with_emitter(reader, emitter) {
        match token {
            // The head has ended.
            Ok(End) => break,
            Err(e) => return Err(e),
        }
    }
    if conflict {
        facts.canonical = None;
    }
    Ok(facts)
}

/// The token the scan yields: the head has ended.
struct End;

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

/// The tokenizer's events folded into [`HeadFacts`].
struct Scan<'a> {
    facts: &'a mut HeadFacts,
    conflict: &'a mut bool,
    tag: Option<Tag>,
    /// The attribute whose value comes next, when it is one of interest and its first.
    attr: Option<Attr>,
    /// Values of the current tag's attributes, in [`Attr`] order; the first of a name wins.
    values: [Option<Vec<u8>>; 5],
    raw: bool,
    templates: usize,
}

impl<'a> Scan<'a> {
    fn new(facts: &'a mut HeadFacts, conflict: &'a mut bool) -> Scan<'a> {
        Scan {
            facts,
            conflict,
            tag: None,
            attr: None,
            values: Default::default(),
            raw: false,
            templates: 0,
        }
    }

    fn on(&mut self, ev: CallbackEvent<'_>) -> Option<End> {
        match ev {
            CallbackEvent::OpenStartTag { name } => return self.open(name),
            CallbackEvent::AttributeName { name } => self.attribute(name),
            CallbackEvent::AttributeValue { value } => {
                if let Some(a) = self.attr {
                    if let Some(v) = &mut self.values[a as usize] {
                        v.extend_from_slice(value);
                    }
                }
            }
            CallbackEvent::CloseStartTag { .. } => self.close(),
            CallbackEvent::EndTag { name } => return self.end(name),
            CallbackEvent::String { value } => {
                // Text outside the head's elements starts the body.
                let text = !value.iter().all(u8::is_ascii_whitespace);
                if text && !self.raw && self.templates == 0 {
                    return Some(End);
                }
            }
            _ => {}
        }
        None
    }

    fn open(&mut self, name: &[u8]) -> Option<End> {
        self.attr = None;
        self.values = Default::default();
        self.tag = match name {
            _ if self.templates > 0 => (name == b"template").then_some(Tag::Template),
            b"meta" => Some(Tag::Meta),
            b"link" => Some(Tag::Link),
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => Some(Tag::Raw),
            b"template" => Some(Tag::Template),
            b"html" | b"head" | b"base" | b"basefont" | b"bgsound" => Some(Tag::Other),
            // Any other element (`<body>`, `<div>`, …) starts the body.
            _ => return Some(End),
        };
        None
    }

    fn attribute(&mut self, name: &[u8]) {
        let attr = match (self.tag, name) {
            (Some(Tag::Meta), b"name") => Some(Attr::Name),
            (Some(Tag::Meta), b"content") => Some(Attr::Content),
            (Some(Tag::Meta), b"http-equiv") => Some(Attr::HttpEquiv),
            (Some(Tag::Link), b"rel") => Some(Attr::Rel),
            (Some(Tag::Link), b"href") => Some(Attr::Href),
            _ => None,
        };
        // A repeated attribute is ignored, as browsers ignore it.
        self.attr = attr.filter(|a| self.values[*a as usize].is_none());
        if let Some(a) = self.attr {
            self.values[a as usize] = Some(Vec::new());
        }
    }

    fn close(&mut self) {
        match self.tag {
            Some(Tag::Meta) => self.meta(),
            Some(Tag::Link) => self.link(),
            Some(Tag::Raw) => self.raw = true,
            Some(Tag::Template) => self.templates += 1,
            _ => {}
        }
        self.tag = None;
        self.attr = None;
    }

    fn end(&mut self, name: &[u8]) -> Option<End> {
        match name {
            b"head" | b"body" | b"html" if self.templates == 0 => return Some(End),
            b"template" => self.templates = self.templates.saturating_sub(1),
            b"title" | b"script" | b"style" | b"noscript" | b"noframes" => self.raw = false,
            _ => {}
        }
        None
    }

    fn value(&self, a: Attr) -> Option<String> {
        self.values[a as usize]
            .as_deref()
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }

    fn meta(&mut self) {
        let name = self.value(Attr::Name).unwrap_or_default();
        let content = self.value(Attr::Content).unwrap_or_default();
        let robots = ["robots", "googlebot"]
            .iter()
            .any(|n| name.trim().eq_ignore_ascii_case(n));
        if robots && says_noindex(&content) {
            self.facts.noindex = true;
        }
        let refresh = self
            .value(Attr::HttpEquiv)
            .is_some_and(|h| h.trim().eq_ignore_ascii_case("refresh"));
        if refresh && self.facts.refresh.is_none() {
            self.facts.refresh = refresh_url(&content);
        }
    }

    fn link(&mut self) {
        let rel = self.value(Attr::Rel).unwrap_or_default();
        let canonical = rel
            .split_ascii_whitespace()
            .any(|r| r.eq_ignore_ascii_case("canonical"));
        let Some(href) = self.value(Attr::Href).filter(|h| !h.trim().is_empty()) else {
            return;
        };
        if !canonical {
            return;
        }
        let href = href.trim().to_string();
        match &self.facts.canonical {
            None => self.facts.canonical = Some(href),
            Some(first) if *first != href => *self.conflict = true,
            Some(_) => {}
        }
    }
}

/// Whether a robots meta content holds `noindex` (or `none`, which implies it), in any case
/// and among any other directives.
fn says_noindex(content: &str) -> bool {
    content
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .any(|d| d.eq_ignore_ascii_case("noindex") || d.eq_ignore_ascii_case("none"))
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
