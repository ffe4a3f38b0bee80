//! The streaming checker: walks a file's XML events once, keeping a stack of open elements
//! and the current entry, and adds every finding to the report with its line.
//!
//! This file reads the stream (the bytes before the root, XML events, text) and holds the
//! state; the rule for each element is in `elements.rs`, and the checks of a `<loc>` and a
//! `<lastmod>` against the site, the other URLs and now are in `url_fields.rs`.

use super::namespaces::{Ns, Resolved, Scopes, classify};
use super::urls::{ParsedUrl, Site};
use super::{
    FileReport, FindingKind, MAX_MARKUP_BYTES, MAX_NAMESPACE_BYTES, MAX_TEXT_KEPT, SitemapKind,
    thousands,
};
use crate::sitemap::read::{Counter, Stop, Tokens, is_xml_ws};
use crate::vocab::error::{Error, Result};
use crate::vocab::protocol::{MAX_BYTES, MAX_LOC_CHARS};
use chrono::{DateTime, Utc};
use quick_xml::events::Event;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufRead, Read};
use std::path::Path;
use url::Url;

/// What stays the same for the whole file.
pub(super) struct Context<'a> {
    /// The file checked.
    pub(super) path: &'a Path,
    /// `--base-url`'s site, when given.
    pub(super) base: Option<Site>,
    /// Where the sitemap itself lives, when `--base-url` is given.
    pub(super) sitemap_url: Option<Url>,
    /// "Now", for dates in the future.
    pub(super) now: DateTime<Utc>,
}

/// An identity hasher: the set already stores 64-bit hashes.
#[derive(Default)]
pub(super) struct PreHashed(u64);

impl Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// What the element being read is, for the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Frame {
    Root,
    Entry,
    Loc,
    Lastmod,
    ChangeFreq,
    Priority,
    /// An extension element whose text is a URL (`image:loc`, `video:content_loc`, …).
    ExtUrl,
    /// `<image:image>`, which needs an `<image:loc>`.
    Image,
    /// `<video:video>`, which needs a `<video:content_loc>` or `<video:player_loc>`.
    Video,
    /// Anything whose content is not checked (extensions, unknown elements).
    Skip,
}

/// Per-entry state: which fields were seen, on which line the entry started.
#[derive(Default)]
pub(super) struct EntryState {
    pub(super) line: usize,
    pub(super) loc: bool,
    pub(super) lastmod: bool,
    pub(super) changefreq: bool,
    pub(super) priority: bool,
}

pub(super) struct Checker<'c> {
    pub(super) ctx: &'c Context<'c>,
    pub(super) kind: Option<SitemapKind>,
    pub(super) doc_ns: Option<Vec<u8>>,
    pub(super) root_done: bool,
    pub(super) stack: Vec<(Frame, usize)>,
    pub(super) entry: EntryState,
    /// The text of the field being read, at most [`MAX_TEXT_KEPT`] bytes of it.
    pub(super) text: Vec<u8>,
    /// True when the field holds more than what `text` kept (not counting whitespace).
    pub(super) truncated: bool,
    pub(super) first_site: Option<(Site, usize)>,
    pub(super) seen: HashSet<u64, BuildHasherDefault<PreHashed>>,
    pub(super) ext_has_loc: bool,
    pub(super) reported_too_many: bool,
    seen_doctype: bool,
}

/// One text node being streamed: whether it was reported, and whether that was fatal.
#[derive(Default)]
struct TextNode {
    reported: bool,
    fatal: bool,
}

/// Reads the stream up to the protocol's byte limit, adding findings to `report`.
pub(super) fn check_stream<R: Read>(
    input: R,
    gzip: bool,
    ctx: &Context<'_>,
    report: &mut FileReport,
) -> Result<()> {
    let io_fail = |report: &mut FileReport, e: io::Error| -> Result<()> {
        if gzip {
            // Whatever was decoded from a corrupt stream is not what the author wrote, so
            // findings about it would mislead: the compression error alone stands.
            report.findings.clear();
            (report.errors, report.warnings, report.omitted) = (0, 0, 0);
            report.message_bytes = 0;
            report.add(
                0,
                FindingKind::CompressionError,
                format!(
                    "the gzip stream cannot be decompressed ({e}): recompress the file with gzip"
                ),
            );
            Ok(())
        } else {
            Err(Error::io(ctx.path, e))
        }
    };
    let mut counter = Counter::strict(input, MAX_BYTES as u64);
    // Leading bytes: a UTF-8 BOM is fine; whitespace before `<?xml` is not.
    let head = match counter.fill_min(4096) {
        Ok(h) => h,
        Err(e) => return io_fail(report, e),
    };
    if head.starts_with(&[0xFE, 0xFF]) || head.starts_with(&[0xFF, 0xFE]) {
        report.add(
            1,
            FindingKind::ParsingError,
            "the file is UTF-16: sitemaps must be UTF-8",
        );
        report.bytes = counter.drain().unwrap_or(counter.consumed());
        return Ok(());
    }
    let bom = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let ws = head[bom..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    let decl_follows = head[bom + ws..].starts_with(b"<?xml");
    let only_ws = bom + ws == head.len();
    counter.consume(bom + ws);
    if ws > 0 && decl_follows {
        report.add(
            counter.newlines() + 1,
            FindingKind::LeadingWhitespace,
            format!(
                "{ws} whitespace byte(s) before the XML declaration: the file must start with <?xml"
            ),
        );
    }
    if only_ws {
        // Nothing but whitespace in the first buffer: look further before calling it empty.
        match counter.fill_buf() {
            Ok([]) => {
                report.bytes = counter.consumed();
                report.add(0, FindingKind::EmptySitemap, "the file is empty");
                return Ok(());
            }
            Ok(_) => {}
            Err(e) => return io_fail(report, e),
        }
    }

    let mut tokens = Tokens::new(counter);
    let mut scopes = Scopes::default();
    let mut doc_binding = None;
    let mut buf = Vec::with_capacity(1024);
    let mut checker = Checker {
        ctx,
        kind: None,
        doc_ns: None,
        root_done: false,
        stack: Vec::with_capacity(8),
        entry: EntryState::default(),
        text: Vec::new(),
        truncated: false,
        first_site: None,
        seen: HashSet::default(),
        ext_has_loc: false,
        reported_too_many: false,
        seen_doctype: false,
    };
    tokens.config_mut().check_comments = true;
    let mut first_event = true;
    let mut ended_early = false;
    loop {
        // Text is streamed here, never held whole: quick-xml only ever sees markup.
        let mut node = TextNode::default();
        let streamed = tokens.text(|piece, line| checker.text(&mut node, piece, line, report));
        let step = match streamed {
            Ok(()) if node.fatal => Step::Fatal,
            Ok(()) => {
                buf.clear();
                match tokens.next_limited(&mut buf, MAX_MARKUP_BYTES as u64) {
                    Ok((ev, line)) => {
                        let ns = match &ev {
                            Event::Start(e) | Event::Empty(e) => {
                                scopes.enter(e);
                                let resolved = scopes.resolve(e.name().into_inner());
                                if checker.kind.is_none()
                                    && let Resolved::Bound(i, _) = resolved
                                {
                                    doc_binding = Some(i);
                                }
                                if scopes.bytes() > MAX_NAMESPACE_BYTES {
                                    let msg = format!(
                                        "more than {} bytes of namespace declarations in scope",
                                        thousands(MAX_NAMESPACE_BYTES as u64)
                                    );
                                    Err(fatal(report, line, msg))
                                } else {
                                    Ok(classify(resolved, checker.doc_ns.as_deref(), doc_binding))
                                }
                            }
                            _ => Ok(Ns::Doc),
                        };
                        match ns {
                            Err(step) => step,
                            Ok(ns) => {
                                let leaves = matches!(ev, Event::Empty(_) | Event::End(_));
                                let step = checker.event(ns, ev, line, first_event, report);
                                if leaves {
                                    scopes.leave();
                                }
                                step
                            }
                        }
                    }
                    Err(quick_xml::Error::Io(e)) => {
                        Step::Read(io::Error::new(e.kind(), e.to_string()))
                    }
                    Err(e) => {
                        let line = tokens.line();
                        fatal(report, line, format!("not well-formed XML: {e}"))
                    }
                }
            }
            Err(e) => Step::Read(e),
        };
        first_event = false;
        match step {
            Step::Go => {}
            Step::Eof => break,
            Step::Fatal => {
                ended_early = true;
                break;
            }
            Step::Read(e) => match tokens.stopped().cloned() {
                Some(Stop::BadChar(what)) => {
                    let line = tokens.line();
                    ended_early = true;
                    report.add(
                        line,
                        FindingKind::ParsingError,
                        format!("not well-formed XML: {what} is not allowed in XML"),
                    );
                    break;
                }
                Some(Stop::TooLong) => {
                    let line = tokens.line();
                    ended_early = true;
                    report.add(line, FindingKind::ParsingError, format!("a tag, comment, CDATA section or processing instruction longer than {} bytes: sitemapgen reads none that long", thousands(MAX_MARKUP_BYTES as u64)));
                    break;
                }
                Some(Stop::TooBig) => {
                    report.bytes = tokens.consumed();
                    report.kind = checker.kind;
                    too_big(report);
                    return Ok(());
                }
                None => {
                    report.bytes = tokens.consumed();
                    return io_fail(report, e);
                }
            },
        }
    }
    let last_line = tokens.line();
    let mut counter = tokens.into_counter();
    if ended_early {
        // Keep reading (without parsing) so the size and the gzip stream are still checked.
        if let Err(e) = counter.drain() {
            report.bytes = counter.consumed();
            return io_fail(report, e);
        }
    } else {
        checker.finish(last_line, report);
    }
    report.bytes = counter.consumed();
    report.kind = checker.kind;
    if counter.stopped() == Some(&Stop::TooBig) {
        too_big(report);
    }
    Ok(())
}

/// The size finding for a stream that goes on past [`MAX_BYTES`], where reading stopped.
fn too_big(report: &mut FileReport) {
    report.add(
        0,
        FindingKind::SitemapFileSizeError,
        format!(
            "more than {} bytes uncompressed (reading stopped there); a sitemap may hold at most {} bytes: split it and list the parts in a sitemap index",
            thousands(MAX_BYTES as u64),
            thousands(MAX_BYTES as u64)
        ),
    );
}

/// What the checker does after an event.
pub(super) enum Step {
    Go,
    Eof,
    Fatal,
    /// Reading failed: a limit or a bad character (see [`Tokens::stopped`]), or I/O.
    Read(io::Error),
}

impl Checker<'_> {
    fn event(
        &mut self,
        ns: Ns,
        ev: Event<'_>,
        line: usize,
        first: bool,
        report: &mut FileReport,
    ) -> Step {
        match ev {
            Event::Start(e) => self.open(ns, &e, line, report),
            Event::Empty(e) => match self.open(ns, &e, line, report) {
                Step::Go => self.close(line, report),
                other => other,
            },
            Event::End(_) => self.close(line, report),
            // Text is streamed before each event (see `check_stream`); quick-xml gives none.
            Event::Text(t) => self.text_event(&t, line, report),
            Event::CData(t) => {
                if self.in_field() {
                    self.keep(&t);
                    Step::Go
                } else {
                    self.text_event(&t, line, report)
                }
            }
            Event::GeneralRef(r) => {
                let c = if r.is_char_ref() {
                    match r.resolve_char_ref() {
                        Ok(Some(c)) if crate::vocab::protocol::is_xml_char(c) => c,
                        _ => {
                            let name = String::from_utf8_lossy(&r).into_owned();
                            return fatal(
                                report,
                                line,
                                format!("invalid character reference &{name};"),
                            );
                        }
                    }
                } else {
                    match &*r {
                        b"amp" => '&',
                        b"lt" => '<',
                        b"gt" => '>',
                        b"apos" => '\'',
                        b"quot" => '"',
                        other => {
                            let name = String::from_utf8_lossy(other).into_owned();
                            return fatal(
                                report,
                                line,
                                format!("undefined entity &{name};: escape '&' as &amp;"),
                            );
                        }
                    }
                };
                let mut tmp = [0u8; 4];
                let s = c.encode_utf8(&mut tmp).as_bytes();
                if self.in_field() {
                    self.keep(s);
                    Step::Go
                } else {
                    self.text_event(s, line, report)
                }
            }
            Event::Decl(d) => {
                if !first {
                    return fatal(
                        report,
                        line,
                        "the XML declaration must come first in the file".to_string(),
                    );
                }
                if let Err(msg) = check_decl(&d) {
                    return fatal(report, line, format!("not well-formed XML: {msg}"));
                }
                if let Some(Ok(enc)) = d.encoding() {
                    let enc = String::from_utf8_lossy(&enc).to_ascii_lowercase();
                    if enc != "utf-8" && enc != "utf8" {
                        report.add(
                            line,
                            FindingKind::UnsupportedFormat,
                            format!("declared encoding '{enc}': sitemaps must be UTF-8"),
                        );
                    }
                }
                Step::Go
            }
            Event::PI(p) => {
                let target = p.target();
                if target.is_empty()
                    || !target[0].is_ascii_alphabetic()
                        && target[0] < 0x80
                        && !matches!(target[0], b'_' | b':')
                {
                    fatal(
                        report,
                        line,
                        "not well-formed XML: a processing instruction needs a target name"
                            .to_string(),
                    )
                } else if target.eq_ignore_ascii_case(b"xml") {
                    fatal(
                        report,
                        line,
                        "the XML declaration must come first in the file".to_string(),
                    )
                } else {
                    Step::Go
                }
            }
            Event::DocType(_) if self.kind.is_some() || self.seen_doctype => fatal(
                report,
                line,
                "not well-formed XML: a DOCTYPE must come once, before the root element"
                    .to_string(),
            ),
            Event::DocType(_) => {
                self.seen_doctype = true;
                Step::Go
            }
            Event::Comment(_) => Step::Go,
            Event::Eof => Step::Eof,
        }
    }

    fn in_field(&self) -> bool {
        matches!(
            self.stack.last(),
            Some((
                Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl,
                _
            ))
        )
    }

    /// A piece of a streamed text node: kept when it is a field's, otherwise checked for
    /// anything but whitespace (reported once per node). False stops the node (fatal).
    fn text(
        &mut self,
        node: &mut TextNode,
        s: &[u8],
        line: usize,
        report: &mut FileReport,
    ) -> bool {
        match self.stack.last() {
            Some((Frame::Skip | Frame::Image | Frame::Video, _)) => return true,
            Some(_) if self.in_field() => {
                self.keep(s);
                return true;
            }
            _ => {}
        }
        if node.reported {
            return true;
        }
        let Some(i) = s.iter().position(|&b| !is_xml_ws(char::from(b))) else {
            return true;
        };
        node.reported = true;
        let line = line + s[..i].iter().filter(|&&b| b == b'\n').count();
        match self.stack.last() {
            Some((frame, _)) => {
                let what = if *frame == Frame::Root {
                    self.root_name()
                } else {
                    self.entry_name()
                };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!("text is not allowed directly inside <{what}>: move it into an element or remove it"),
                );
                true
            }
            None => {
                fatal(report, line, "text outside the root element".to_string());
                node.fatal = true;
                false
            }
        }
    }

    /// Text that comes whole in one event (CDATA, a reference), outside a field.
    fn text_event(&mut self, s: &[u8], line: usize, report: &mut FileReport) -> Step {
        let mut node = TextNode::default();
        self.text(&mut node, s, line, report);
        if node.fatal { Step::Fatal } else { Step::Go }
    }

    /// Adds to the field's text, up to [`MAX_TEXT_KEPT`] bytes; leading whitespace is dropped
    /// (values are trimmed), and anything else past the cap marks the value as cut.
    fn keep(&mut self, s: &[u8]) {
        let s = if self.text.is_empty() {
            let ws = s.iter().take_while(|&&b| is_xml_ws(char::from(b))).count();
            &s[ws..]
        } else {
            s
        };
        let room = MAX_TEXT_KEPT.saturating_sub(self.text.len());
        let (kept, rest) = s.split_at(room.min(s.len()));
        self.text.extend_from_slice(kept);
        if rest.iter().any(|&b| !is_xml_ws(char::from(b))) {
            self.truncated = true;
        }
    }

    /// The field's value, trimmed; a cut value ends in '…' (see [`Checker::keep`]).
    pub(super) fn value(&self) -> Cow<'_, str> {
        let t = &self.text;
        let s = match std::str::from_utf8(t) {
            Ok(s) => s,
            // Only a cut can end inside a character (the counter checked the UTF-8).
            Err(e) => std::str::from_utf8(&t[..e.valid_up_to()]).unwrap_or_default(),
        };
        let v = s.trim_matches(is_xml_ws);
        if self.truncated {
            Cow::Owned(format!("{v}…"))
        } else {
            Cow::Borrowed(v)
        }
    }

    /// The finding for a URL longer than the text kept of it.
    pub(super) fn too_long_url(&self) -> String {
        format!(
            "URL is longer than {} bytes; at most {MAX_LOC_CHARS} characters are allowed",
            thousands(MAX_TEXT_KEPT as u64)
        )
    }

    pub(super) fn root_name(&self) -> &'static str {
        match self.kind {
            Some(SitemapKind::SitemapIndex) => "sitemapindex",
            _ => "urlset",
        }
    }

    pub(super) fn entry_name(&self) -> &'static str {
        match self.kind {
            Some(SitemapKind::SitemapIndex) => "sitemap",
            _ => "url",
        }
    }
}

/// An element's qualified name, turned into text only when a message needs it.
#[derive(Clone, Copy)]
pub(super) struct Name<'a>(pub(super) &'a [u8]);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.0))
    }
}

/// Checks the XML declaration's pseudo-attributes: version `1.x`, an encoding name,
/// standalone `yes` or `no`.
fn check_decl(d: &quick_xml::events::BytesDecl<'_>) -> std::result::Result<(), String> {
    let version = d
        .version()
        .map_err(|e| format!("bad XML declaration: {e}"))?;
    let ok = version
        .strip_prefix(b"1.")
        .is_some_and(|v| !v.is_empty() && v.iter().all(u8::is_ascii_digit));
    if !ok {
        return Err(format!(
            "XML version \"{}\": a sitemap is XML 1.0 (version=\"1.0\")",
            String::from_utf8_lossy(&version)
        ));
    }
    if let Some(enc) = d.encoding() {
        let enc = enc.map_err(|e| format!("bad XML declaration: {e}"))?;
        let ok = enc.first().is_some_and(u8::is_ascii_alphabetic)
            && enc
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if !ok {
            return Err(format!(
                "bad encoding name \"{}\" in the XML declaration",
                String::from_utf8_lossy(&enc)
            ));
        }
    }
    if let Some(sa) = d.standalone() {
        let sa = sa.map_err(|e| format!("bad XML declaration: {e}"))?;
        if !matches!(&*sa, b"yes" | b"no") {
            return Err("standalone must be \"yes\" or \"no\" in the XML declaration".into());
        }
    }
    Ok(())
}

pub(super) fn fatal(report: &mut FileReport, line: usize, message: String) -> Step {
    report.add(line, FindingKind::ParsingError, message);
    Step::Fatal
}

/// Warns about a `"`, `<` or `>` in a URL that otherwise passed.
pub(super) fn unencoded(parsed: &ParsedUrl<'_>, url: &str, line: usize, report: &mut FileReport) {
    if let Some(b) = parsed.unencoded {
        report.add(
            line,
            FindingKind::UnencodedCharacter,
            format!(
                "'{}' in {url:?}: crawlers read it, but RFC 3986 wants it percent-encoded as %{b:02X}",
                b as char
            ),
        );
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::sitemap::validate::{MAX_DEPTH, MAX_FINDINGS, MAX_NAME_BYTES, sitemap_url_of};

    /// The report on `xml`, checked as a file named `mem.xml`.
    pub(crate) fn check(xml: &str) -> FileReport {
        check_with(xml, None)
    }

    pub(crate) fn check_with(xml: &str, base: Option<&str>) -> FileReport {
        let path = Path::new("mem.xml");
        let base = base.map(|b| Url::parse(b).unwrap());
        let ctx = Context {
            path,
            base: base.as_ref().map(Site::from_url),
            sitemap_url: base.as_ref().map(|b| sitemap_url_of(b, path)),
            now: Utc::now(),
        };
        let mut report = FileReport::new(path);
        check_stream(xml.as_bytes(), false, &ctx, &mut report).unwrap();
        report
    }

    pub(crate) fn kinds(r: &FileReport) -> Vec<(usize, &'static str)> {
        r.findings.iter().map(|f| (f.line, f.kind.name())).collect()
    }

    pub(crate) const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

    #[test]
    fn a_clean_urlset_has_no_findings() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/a/</loc><lastmod>2024-05-01</lastmod></url>\n</urlset>\n"
        ));
        assert_eq!(kinds(&r), vec![]);
        assert_eq!(r.entries, 1);
        assert_eq!(r.kind, Some(SitemapKind::UrlSet));
    }

    #[test]
    fn lines_point_at_the_offending_element() {
        let r = check(&format!(
            "{HEAD}<url>\n  <loc>https://example.com/a/</loc>\n</url>\n<url>\n  <loc>/b/</loc>\n  <lastmod>soon</lastmod>\n</url>\n<url>\n</url>\n</urlset>\n"
        ));
        assert_eq!(
            kinds(&r),
            vec![
                (7, "Invalid URL"),
                (8, "Invalid date"),
                (10, "Missing XML tag")
            ]
        );
    }

    #[test]
    fn well_formedness_errors_stop_with_a_line() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/?a=1&b=2</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(3, "Parsing error")]);
        let r = check(&format!(
            "{HEAD}<url>\n<loc>https://example.com/</lo></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(4, "Parsing error")]);
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/</loc></url>\n"
        ));
        assert_eq!(kinds(&r), vec![(4, "Parsing error")]);
    }

    #[test]
    fn entities_and_cdata_are_decoded_before_checks() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/?a=1&amp;b=&#50;</loc></url>\n<url><loc><![CDATA[https://example.com/c]]></loc></url>\n<url><loc>https://example.com/?a=1&#38;b=2</loc></url>\n</urlset>"
        ));
        assert_eq!(kinds(&r), vec![(5, "Duplicate URL")]);
    }

    #[test]
    fn leading_whitespace_and_bom() {
        let r = check(&format!(
            "\n  {HEAD}<url><loc>https://example.com/</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(2, "Leading whitespace")]);
        let r = check(&format!(
            "\u{feff}{HEAD}<url><loc>https://example.com/</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![]);
    }

    #[test]
    fn findings_past_the_cap_are_counted_not_kept() {
        let mut body = String::from(HEAD);
        for _ in 0..MAX_FINDINGS + 5 {
            body.push_str("<url><loc>/x</loc></url>\n");
        }
        body.push_str("</urlset>");
        let r = check(&body);
        assert_eq!(r.findings.len(), MAX_FINDINGS);
        assert_eq!(r.omitted, 5);
        assert_eq!(r.errors, MAX_FINDINGS + 5);
    }

    /// The report on a stream (not a string), checked as `mem.xml`.
    fn check_reader(input: impl Read) -> FileReport {
        let path = Path::new("mem.xml");
        let ctx = Context {
            path,
            base: None,
            sitemap_url: None,
            now: Utc::now(),
        };
        let mut report = FileReport::new(path);
        check_stream(input, false, &ctx, &mut report).unwrap();
        report
    }

    #[test]
    fn what_is_not_well_formed_xml_is_a_parsing_error() {
        let body = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.com/</loc></url>\n</urlset>\n";
        let decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        for (what, xml) in [
            ("version 2.0", format!("<?xml version=\"2.0\"?>\n{body}")),
            (
                "version 1e-400",
                format!("<?xml version=\"1e-400\"?>\n{body}"),
            ),
            ("no version", format!("<?xml encoding=\"UTF-8\"?>\n{body}")),
            (
                "standalone",
                format!("<?xml version=\"1.0\" standalone=\"maybe\"?>\n{body}"),
            ),
            ("two BOMs", format!("\u{feff}\u{feff}{decl}{body}")),
            ("-- in a comment", format!("{decl}<!-- a -- b -->\n{body}")),
            ("comment ending --->", format!("{decl}<!-- a --->\n{body}")),
            (
                "U+0001 in a comment",
                format!("{decl}<!-- a \u{1} -->\n{body}"),
            ),
            ("U+0001 in a PI", format!("{decl}<?pi a \u{1}?>\n{body}")),
            (
                "NUL in the stylesheet PI",
                format!("{decl}<?xml-stylesheet type=\"text/xsl\" href=\"a\0.xsl\"?>\n{body}"),
            ),
            (
                "U+001B in a loc",
                format!(
                    "{decl}{}",
                    body.replace("example.com/", "example.com/\u{1b}")
                ),
            ),
            (
                "U+FFFE in text",
                format!("{decl}{}", body.replace("</urlset>", "\u{fffe}</urlset>")),
            ),
            (
                "U+FFFF in an attribute",
                format!("{decl}{}", body.replace("<url>", "<url a=\"\u{ffff}\">")),
            ),
            (
                "&#1;",
                format!("{decl}{}", body.replace("example.com/", "example.com/&#1;")),
            ),
            ("a PI with no target", format!("{decl}<? x?>\n{body}")),
            (
                "a second xml declaration",
                format!("{decl}<?xml version=\"1.0\"?>\n{body}"),
            ),
            (
                "DOCTYPE after the root",
                format!("{decl}{body}<!DOCTYPE urlset>"),
            ),
            (
                "two DOCTYPEs",
                format!("{decl}<!DOCTYPE urlset><!DOCTYPE urlset>{body}"),
            ),
        ] {
            let r = check(&xml);
            assert!(
                r.findings
                    .iter()
                    .any(|f| f.kind == FindingKind::ParsingError),
                "{what}: {:?}",
                kinds(&r)
            );
        }
        let mut bytes = format!("{decl}<!-- ").into_bytes();
        bytes.extend_from_slice(b"\xff\xfe -->\n");
        bytes.extend_from_slice(body.as_bytes());
        let r = check_reader(&bytes[..]);
        assert_eq!(
            kinds(&r),
            vec![(2, "Parsing error")],
            "invalid UTF-8 in a comment"
        );
        // What stays valid: a single BOM, version 1.1 syntax, tab/LF/CR, non-ASCII text.
        let r = check(&format!(
            "\u{feff}<?xml version=\"1.0\" standalone=\"yes\"?>\n<!-- é\t€ -->\r\n{body}"
        ));
        assert_eq!(kinds(&r), vec![]);
    }

    #[test]
    fn a_bad_character_is_reported_on_its_line_even_across_buffers() {
        // A multi-byte character split by the 64 KiB read buffer is fine; a control
        // character far into the file is found on its own line.
        let mut xml = String::from(HEAD);
        while xml.len() < 3 * 65536 {
            xml.push_str("<url><loc>https://example.com/</loc></url><!-- ééé€€€𝄞 -->\n");
        }
        let lines = xml.lines().count();
        let clean = check(&format!("{xml}</urlset>"));
        assert!(
            clean
                .findings
                .iter()
                .all(|f| f.kind == FindingKind::DuplicateUrl),
            "{:?}",
            kinds(&clean)
        );
        let r = check(&format!("{xml}<!-- \u{2} -->\n</urlset>"));
        let errors: Vec<_> = r
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::ParsingError)
            .map(|f| (f.line, f.message.as_str()))
            .collect();
        assert_eq!(
            errors,
            [(
                lines + 1,
                "not well-formed XML: the control character U+0002 is not allowed in XML"
            )]
        );
    }

    #[test]
    fn a_huge_loc_is_streamed_and_reported_too_long() {
        let loc = format!("https://example.com/{}", "a".repeat(10 << 20));
        let r = check(&format!(
            "{HEAD}<url><loc>{loc}</loc></url>\n<url><loc>https://example.com/{}</loc></url>\n</urlset>",
            "é".repeat(3000)
        ));
        assert_eq!(kinds(&r), vec![(3, "Invalid URL"), (4, "Invalid URL")]);
        assert!(
            r.findings[0].message.contains("longer than 8,192 bytes"),
            "{}",
            r.findings[0].message
        );
        assert!(
            r.findings[1].message.contains("3020 characters"),
            "{}",
            r.findings[1].message
        );
        // Whitespace around a value is not part of it, however much there is.
        let pad = " ".repeat(MAX_TEXT_KEPT * 2);
        let r = check(&format!(
            "{HEAD}<url><loc>{pad}https://example.com/{pad}</loc><priority>{pad}0.5{pad}</priority></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![]);
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/</loc><priority>0.5{pad}x</priority></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(3, "Invalid tag value")]);
    }

    #[test]
    fn endless_or_hostile_streams_stop_at_a_limit() {
        use std::io::repeat;
        let size = |r: &FileReport| {
            r.findings
                .iter()
                .any(|f| f.kind == FindingKind::SitemapFileSizeError)
        };
        // NUL bytes: not XML, and stopped at the protocol's size.
        let r = check_reader(repeat(0));
        assert_eq!(r.findings[0].kind, FindingKind::ParsingError);
        assert!(size(&r) && r.bytes == MAX_BYTES as u64, "{:?}", kinds(&r));
        // One endless text node in the root.
        let r = check_reader(HEAD.as_bytes().chain(repeat(b'a')));
        assert_eq!(
            kinds(&r),
            vec![(3, "Parsing error"), (0, "Sitemap file size error")]
        );
        // One endless <loc>.
        let r = check_reader(
            format!("{HEAD}<url><loc>https://example.com/")
                .as_bytes()
                .chain(repeat(b'a')),
        );
        assert_eq!(kinds(&r), vec![(0, "Sitemap file size error")]);
        // One endless tag, comment, and nesting.
        let r = check_reader(format!("{HEAD}<url a=\"").as_bytes().chain(repeat(b'a')));
        assert_eq!(kinds(&r)[0].1, "Parsing error");
        assert!(
            r.findings[0]
                .message
                .contains("longer than 1,048,576 bytes")
        );
        let r = check_reader(format!("{HEAD}<!--").as_bytes().chain(repeat(b'a')));
        assert_eq!(kinds(&r)[0].1, "Parsing error");
        let r = check_reader(
            HEAD.as_bytes()
                .chain(b"<x>".as_slice().chain(repeat(b'<')).take(10_000)),
        );
        assert_eq!(kinds(&r)[0].1, "Parsing error");
        let mut deep = String::from(HEAD);
        deep.push_str(&"<url>".repeat(MAX_DEPTH + 10));
        let r = check(&deep);
        assert!(
            r.findings
                .iter()
                .any(|f| f.message.contains("nested more than 256")),
            "{:?}",
            kinds(&r)
        );
        let r = check(&format!("{HEAD}<{} />", "n".repeat(MAX_NAME_BYTES + 1)));
        assert!(
            r.findings
                .iter()
                .any(|f| f.message.contains("element name longer"))
        );
        let ns: String = (0..2000)
            .map(|i| format!(" xmlns:p{i}=\"https://example.com/{i:040}\""))
            .collect();
        let r = check(&format!(
            "{HEAD}<url{ns}><loc>https://example.com/</loc></url></urlset>"
        ));
        assert!(
            r.findings
                .iter()
                .any(|f| f.message.contains("namespace declarations"))
        );
    }
}
