//! Where an element may stand: each start tag checked against its parent (the root, an
//! entry and its fields, Google's extensions, namespaces), and each end tag closing what it
//! opened (an entry without `<loc>`, a field's value handed to its check), with the file's
//! end checked for what is still open.
//!
//! Apart from `checker.rs`, which reads the stream and its text and keeps the state, because
//! this is the sitemap protocol's structure, one rule per element, and the rest is XML.

use super::checker::{Checker, EntryState, Frame, Name, Step, fatal, unencoded};
use super::namespaces::{Ext, Ns, is_qname};
use super::urls::parse_loc;
use super::values::{CHANGEFREQS, valid_priority};
use super::{FileReport, FindingKind, MAX_DEPTH, MAX_NAME_BYTES, SitemapKind, thousands};
use crate::sitemap::read::{is_xml_ws, own_namespace};
use crate::vocab::protocol::{MAX_URLS, SITEMAP_NS};
use quick_xml::events::BytesStart;

impl Checker<'_> {
    pub(super) fn open(
        &mut self,
        ns: Ns,
        e: &BytesStart<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Step {
        // Attribute syntax (quotes, duplicates, names) is checked for every element.
        for a in e.attributes() {
            match a {
                Err(err) => return fatal(report, line, format!("bad attribute: {err}")),
                Ok(a) if !is_qname(a.key.as_ref()) => {
                    return fatal(
                        report,
                        line,
                        format!(
                            "not well-formed XML: the attribute name '{}' is not an XML name",
                            Name(a.key.as_ref())
                        ),
                    );
                }
                Ok(_) => {}
            }
        }
        if self.stack.len() >= MAX_DEPTH {
            return fatal(
                report,
                line,
                format!(
                    "elements nested more than {MAX_DEPTH} deep: sitemapgen reads none that deep"
                ),
            );
        }
        if e.name().as_ref().len() > MAX_NAME_BYTES {
            return fatal(
                report,
                line,
                format!(
                    "an element name longer than {} bytes",
                    thousands(MAX_NAME_BYTES as u64)
                ),
            );
        }
        let local = e.local_name();
        let local = local.as_ref();
        let name = Name(e.name().into_inner());
        // The end tag must repeat it (quick-xml checks), so start tags are enough.
        if !is_qname(name.0) {
            return fatal(
                report,
                line,
                format!("not well-formed XML: <{name}> is not an XML name"),
            );
        }
        if let Ns::Unknown(prefix) = &ns {
            return fatal(
                report,
                line,
                format!(
                    "<{name}> uses the prefix '{prefix}' without declaring it (add xmlns:{prefix}=\"…\" to the root)"
                ),
            );
        }
        let Some(&(parent, _)) = self.stack.last() else {
            return self.open_root(e, local, name, line, report);
        };
        let frame = match parent {
            Frame::Skip => Frame::Skip,
            Frame::Image | Frame::Video => self.open_in_media(parent, &ns, local),
            Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl => {
                report.add(
                    line,
                    FindingKind::InvalidTagValue,
                    format!("<{name}> inside a text-only element: it must hold text only"),
                );
                Frame::Skip
            }
            Frame::Root => self.open_in_root(ns, local, name, line, report),
            Frame::Entry => self.open_in_entry(ns, e, local, name, line, report),
        };
        self.stack.push((frame, line));
        if matches!(
            frame,
            Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl
        ) {
            self.text.clear();
            self.truncated = false;
        }
        Step::Go
    }

    fn open_root(
        &mut self,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Step {
        if self.root_done {
            return fatal(
                report,
                line,
                format!(
                    "a second root element <{name}>: a file holds one <urlset> or <sitemapindex>"
                ),
            );
        }
        let kind = match local {
            b"urlset" => SitemapKind::UrlSet,
            b"sitemapindex" => SitemapKind::SitemapIndex,
            _ => {
                report.add(
                    line,
                    FindingKind::UnsupportedFormat,
                    format!(
                        "root element <{name}>: a sitemap starts with <urlset> or <sitemapindex>"
                    ),
                );
                return Step::Fatal;
            }
        };
        self.kind = Some(kind);
        // The root's own namespace is what its children must share, right or wrong, so a
        // wrong namespace is reported once rather than on every element.
        let root_ns = own_namespace(e);
        match &root_ns {
            Some(n) if n == SITEMAP_NS.as_bytes() => {}
            _ => {
                let found = match &root_ns {
                    Some(n) => format!("'{}'", String::from_utf8_lossy(n)),
                    None => "no namespace".to_string(),
                };
                report.add(
                    line,
                    FindingKind::IncorrectNamespace,
                    format!("<{name}> has {found}: use xmlns=\"{SITEMAP_NS}\""),
                );
            }
        }
        self.doc_ns = root_ns;
        self.stack.push((Frame::Root, line));
        Step::Go
    }

    fn open_in_root(
        &mut self,
        ns: Ns,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        match ns {
            Ns::Doc => {}
            other => {
                self.foreign(other, name, line, !index, report);
                return Frame::Skip;
            }
        }
        match (index, local) {
            (false, b"url") | (true, b"sitemap") => {
                report.entries += 1;
                self.entry = EntryState {
                    line,
                    ..EntryState::default()
                };
                if report.entries > MAX_URLS && !self.reported_too_many {
                    self.reported_too_many = true;
                    let (kind, what) = if index {
                        (FindingKind::TooManySitemaps, "sitemaps")
                    } else {
                        (FindingKind::TooManyUrls, "URLs")
                    };
                    report.add(
                        line,
                        kind,
                        format!(
                            "entry {} is past the limit of {} {what} per file: split the file and list the parts in a sitemap index",
                            thousands(report.entries as u64),
                            thousands(MAX_URLS as u64)
                        ),
                    );
                }
                Frame::Entry
            }
            (true, b"sitemapindex") => {
                report.add(
                    line,
                    FindingKind::NestedSitemapIndexes,
                    "a <sitemapindex> inside a <sitemapindex>: an index may list sitemaps only",
                );
                Frame::Skip
            }
            _ => {
                let want = if index { "<sitemap>" } else { "<url>" };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!(
                        "<{name}> is not allowed in <{}>: only {want} entries",
                        self.root_name()
                    ),
                );
                Frame::Skip
            }
        }
    }

    fn open_in_entry(
        &mut self,
        ns: Ns,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        match ns {
            Ns::Doc => {}
            Ns::Known(ext) if !index => {
                return self.open_extension(ext, e, local, name, line, report);
            }
            other => {
                self.foreign(other, name, line, !index, report);
                return Frame::Skip;
            }
        }
        let (frame, seen) = match local {
            b"loc" => (Frame::Loc, &mut self.entry.loc),
            b"lastmod" => (Frame::Lastmod, &mut self.entry.lastmod),
            b"changefreq" if !index => (Frame::ChangeFreq, &mut self.entry.changefreq),
            b"priority" if !index => (Frame::Priority, &mut self.entry.priority),
            _ => {
                let allowed = if index {
                    "<loc> and <lastmod>"
                } else {
                    "<loc>, <lastmod>, <changefreq> and <priority>"
                };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!(
                        "<{name}> is not allowed in <{}>: only {allowed}",
                        self.entry_name()
                    ),
                );
                return Frame::Skip;
            }
        };
        if *seen {
            report.add(
                line,
                FindingKind::TooManyTags,
                format!("a second <{name}> in one <{}>: keep one", self.entry_name()),
            );
            return Frame::Skip;
        }
        *seen = true;
        frame
    }

    /// Google's image, video, news and XHTML extensions, inside a `<url>`.
    fn open_extension(
        &mut self,
        ext: Ext,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        if ext == Ext::Xhtml && local == b"link" {
            let (mut rel, mut hreflang, mut href) = (None, None, None);
            for a in e.attributes().flatten() {
                let v = a.unescape_value().map(|v| v.into_owned()).ok();
                match a.key.local_name().as_ref() {
                    b"rel" => rel = v,
                    b"hreflang" => hreflang = v,
                    b"href" => href = v,
                    _ => {}
                }
            }
            match href {
                None => report.add(
                    line,
                    FindingKind::MissingXmlAttribute,
                    format!("<{name}> has no href attribute"),
                ),
                Some(h) => match parse_loc(h.trim()) {
                    Err(msg) => report.add(
                        line,
                        FindingKind::InvalidUrl,
                        format!("<{name} href>: {msg}"),
                    ),
                    Ok(p) => unencoded(&p, h.trim(), line, report),
                },
            }
            if rel.as_deref() == Some("alternate") && hreflang.is_none() {
                report.add(
                    line,
                    FindingKind::MissingXmlAttribute,
                    format!("<{name} rel=\"alternate\"> has no hreflang attribute"),
                );
            }
            return Frame::Skip;
        }
        match (ext, local) {
            (Ext::Image, b"image") => {
                self.ext_has_loc = false;
                Frame::Image
            }
            (Ext::Video, b"video") => {
                self.ext_has_loc = false;
                Frame::Video
            }
            _ => Frame::Skip,
        }
    }

    /// A child of `<image:image>` or `<video:video>`: the URL-valued ones are checked.
    fn open_in_media(&mut self, parent: Frame, ns: &Ns, local: &[u8]) -> Frame {
        let url = match (parent, ns) {
            (Frame::Image, Ns::Known(Ext::Image)) => local == b"loc",
            (Frame::Video, Ns::Known(Ext::Video)) => {
                matches!(local, b"content_loc" | b"player_loc" | b"thumbnail_loc")
            }
            _ => false,
        };
        if !url {
            return Frame::Skip;
        }
        // What makes the entry usable: image:loc, or video:content_loc / video:player_loc.
        self.ext_has_loc |= matches!(local, b"loc" | b"content_loc" | b"player_loc");
        Frame::ExtUrl
    }

    fn foreign(&self, ns: Ns, name: Name<'_>, line: usize, urlset: bool, report: &mut FileReport) {
        match ns {
            Ns::Known(_) if urlset => {}
            Ns::Known(_) | Ns::Other(_) => {
                let uri = match ns {
                    Ns::Other(u) => u,
                    _ => "an extension namespace".to_string(),
                };
                report.add(
                    line,
                    FindingKind::UnknownExtension,
                    format!(
                        "<{name}> is in {uri}, which search engines do not read here: it is ignored"
                    ),
                );
            }
            Ns::Unqualified => report.add(
                line,
                FindingKind::ParsingError,
                format!("<{name}> has no namespace: sitemap elements must be in {SITEMAP_NS}"),
            ),
            Ns::Doc | Ns::Unknown(_) => {}
        }
    }

    pub(super) fn close(&mut self, line: usize, report: &mut FileReport) -> Step {
        let Some((frame, start)) = self.stack.pop() else {
            return fatal(
                report,
                line,
                "a closing tag with no opening tag".to_string(),
            );
        };
        match frame {
            Frame::Root => self.root_done = true,
            Frame::Entry => {
                if !self.entry.loc {
                    report.add(
                        self.entry.line,
                        FindingKind::MissingXmlTag,
                        format!("<{}> has no <loc>", self.entry_name()),
                    );
                }
            }
            Frame::Loc if self.truncated => {
                report.add(start, FindingKind::InvalidUrl, self.too_long_url())
            }
            Frame::Loc => {
                let text = std::mem::take(&mut self.text);
                let v = std::str::from_utf8(&text).unwrap_or_default();
                self.check_loc(v.trim_matches(is_xml_ws), start, report);
                self.text = text;
            }
            Frame::Lastmod => self.check_lastmod(start, report),
            Frame::ChangeFreq => {
                let v = self.value();
                if !CHANGEFREQS.contains(&&*v) {
                    report.add(
                        start,
                        FindingKind::InvalidTagValue,
                        format!("<changefreq> \"{v}\": use always, hourly, daily, weekly, monthly, yearly or never"),
                    );
                }
            }
            Frame::Priority => {
                let v = self.value();
                if !valid_priority(&v) {
                    report.add(
                        start,
                        FindingKind::InvalidTagValue,
                        format!("<priority> \"{v}\": use a decimal number from 0.0 to 1.0"),
                    );
                }
            }
            Frame::ExtUrl if self.truncated => {
                report.add(start, FindingKind::InvalidUrl, self.too_long_url())
            }
            Frame::ExtUrl => {
                let v = self.value();
                match parse_loc(&v) {
                    Err(msg) => report.add(start, FindingKind::InvalidUrl, msg),
                    Ok(p) => unencoded(&p, &v, start, report),
                }
            }
            Frame::Image if !self.ext_has_loc => report.add(
                start,
                FindingKind::MissingXmlTag,
                "<image:image> has no <image:loc>",
            ),
            Frame::Video if !self.ext_has_loc => report.add(
                start,
                FindingKind::MissingXmlTag,
                "<video:video> has no <video:content_loc> or <video:player_loc>",
            ),
            Frame::Image | Frame::Video | Frame::Skip => {}
        }
        Step::Go
    }

    pub(super) fn finish(&mut self, line: usize, report: &mut FileReport) {
        if let Some(&(frame, start)) = self.stack.last() {
            let what = match frame {
                Frame::Root => self.root_name(),
                Frame::Entry => self.entry_name(),
                _ => "element",
            };
            report.add(
                line,
                FindingKind::ParsingError,
                format!("the file ends before <{what}> from line {start} is closed"),
            );
            return;
        }
        match self.kind {
            None => report.add(0, FindingKind::EmptySitemap, "the file has no root element"),
            Some(_) if report.entries == 0 => {
                let what = self.entry_name();
                report.add(
                    0,
                    FindingKind::EmptySitemap,
                    format!("no <{what}> entries: list at least one"),
                );
            }
            Some(_) => {}
        }
    }
}
