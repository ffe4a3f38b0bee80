//! The checks of a `<loc>` and a `<lastmod>` once the field is closed, beyond parsing it:
//! the URL against the site (the first `<loc>`, or `--base-url` and its folder), against the
//! URLs before it (listed twice), and against the files beside an index (itself an index);
//! the date for a time without an offset, and against now.
//!
//! Apart from `checker.rs` and `elements.rs`, which follow the XML, because these compare a
//! value with what lies outside it (the site, every URL seen so far, the files on disk, the
//! clock); parsing one value on its own is `urls.rs`'s and `values.rs`'s work.

use super::checker::{Checker, unencoded};
use super::urls::{ParsedUrl, Site, parse_loc, strip_www};
use super::values::parse_w3c;
use super::{FileReport, FindingKind, SitemapKind};
use crate::sitemap::read::sniff_kind;
use crate::vocab::loc;
use crate::vocab::protocol::MAX_URLS;
use chrono::Duration;
use std::hash::{Hash, Hasher};
use std::path::{Component, Path};

impl Checker<'_> {
    pub(super) fn check_loc(&mut self, loc: &str, line: usize, report: &mut FileReport) {
        let parsed = match parse_loc(loc) {
            Ok(p) => p,
            Err(msg) => {
                report.add(line, FindingKind::InvalidUrl, msg);
                return;
            }
        };
        unencoded(&parsed, loc, line, report);
        if parsed.fragment {
            report.add(
                line,
                FindingKind::UrlFragment,
                format!("{loc:?} has a #fragment, which crawlers drop: if '#' belongs to the path, encode it as %23"),
            );
        }
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        let ctx = self.ctx;
        if ctx.base.is_none() && self.first_site.is_none() {
            self.first_site = Some((parsed.site(), line));
        }
        let (reference, first_line) = match (&ctx.base, &self.first_site) {
            (Some(base), _) => (base, None),
            (None, Some((site, l))) => (site, Some(*l)),
            (None, None) => return,
        };
        if !parsed.same_origin(reference) {
            let default_port = |https: bool, port: u16| port == if https { 443 } else { 80 };
            let kind = if strip_www(&parsed.host.to_ascii_lowercase()) == strip_www(&reference.host)
                && default_port(parsed.https, parsed.port)
                && default_port(reference.https, reference.port)
            {
                FindingKind::PathMismatch
            } else {
                FindingKind::UrlNotAllowed
            };
            let from = match first_line {
                None => "--base-url".to_string(),
                Some(l) => format!("the first <loc> (line {l})"),
            };
            report.add(
                line,
                kind,
                format!(
                    "{loc:?} is not on {} ({from}): every URL must share the sitemap's scheme, host and port",
                    reference.origin()
                ),
            );
        } else if let (Some(folder), false) = (&reference.folder, index) {
            let below = parsed.path.starts_with(folder.as_str())
                || folder.strip_suffix('/') == Some(parsed.path);
            if !below {
                let at = ctx
                    .sitemap_url
                    .as_ref()
                    .map(|u| u.to_string())
                    .unwrap_or_default();
                report.add(
                    line,
                    FindingKind::UrlNotAllowed,
                    format!("{loc:?} is above the sitemap's folder {folder} (the sitemap is at {at}): a sitemap may list only URLs in its own folder and below"),
                );
            }
        }
        if index {
            self.check_nested(&parsed, reference, line, report);
        }
        if report.entries <= MAX_URLS {
            let h = hash_loc(loc);
            if !self.seen.insert(h) {
                report.add(
                    line,
                    FindingKind::DuplicateUrl,
                    format!("{loc:?} is listed twice: keep one entry"),
                );
            }
        }
    }

    /// An index entry that names a local file which is itself an index.
    fn check_nested(
        &self,
        loc: &ParsedUrl<'_>,
        reference: &Site,
        line: usize,
        report: &mut FileReport,
    ) {
        // Without --base-url the index is taken to sit at the site root.
        let folder = reference.folder.as_deref().unwrap_or("/");
        let Some(rel) = loc.path.strip_prefix(folder) else {
            return;
        };
        let rel = loc::decode(rel);
        let rel = Path::new(&rel);
        if rel.as_os_str().is_empty()
            || rel.components().any(|c| !matches!(c, Component::Normal(_)))
        {
            return;
        }
        let dir = self.ctx.path.parent().unwrap_or(Path::new(""));
        let candidate = dir.join(rel);
        if !candidate.is_file() {
            return;
        }
        if sniff_kind(&candidate) == Some(SitemapKind::SitemapIndex) {
            report.add(
                line,
                FindingKind::NestedSitemapIndexes,
                format!(
                    "{} is itself a sitemap index: an index may list sitemaps only, not other indexes",
                    candidate.display()
                ),
            );
        }
    }

    pub(super) fn check_lastmod(&mut self, line: usize, report: &mut FileReport) {
        let v = self.value();
        match parse_w3c(&v) {
            Err(msg) => report.add(line, FindingKind::InvalidDate, msg),
            Ok(d) => {
                if d.has_time && !d.has_offset {
                    report.add(
                        line,
                        FindingKind::TimeWithoutOffset,
                        format!("<lastmod> \"{v}\" has a time but no offset, so its instant is unknown: add Z or ±hh:mm"),
                    );
                }
                // A bare date or a zone-less time may be a day ahead of UTC somewhere.
                let slack = if d.has_offset {
                    Duration::zero()
                } else {
                    Duration::hours(14)
                };
                if d.instant > self.ctx.now + slack {
                    report.add(
                        line,
                        FindingKind::FutureDate,
                        format!("<lastmod> \"{v}\" lies in the future: use the date the page last changed"),
                    );
                }
            }
        }
    }
}

fn hash_loc(s: &str) -> u64 {
    // SipHash with fixed keys: stable within a run, and collisions among 50,000 locs are
    // ~1e-10 likely (a false "Duplicate URL" warning at worst).
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::super::checker::tests::{HEAD, check, check_with, kinds};

    #[test]
    fn hosts_compare_with_the_first_loc_or_base_url() {
        let body = format!(
            "{HEAD}<url><loc>https://example.com/</loc></url>\n<url><loc>https://www.example.com/x</loc></url>\n<url><loc>http://example.com/y</loc></url>\n<url><loc>https://other.org/z</loc></url>\n<url><loc>https://example.com:8443/p</loc></url>\n</urlset>"
        );
        let r = check(&body);
        assert_eq!(
            kinds(&r),
            vec![
                (4, "Path mismatch"),
                (5, "Path mismatch"),
                (6, "URL not allowed"),
                (7, "URL not allowed")
            ]
        );
        let r = check_with(&body, Some("https://www.example.com/"));
        assert_eq!(
            kinds(&r),
            vec![
                (3, "Path mismatch"),
                (5, "Path mismatch"),
                (6, "URL not allowed"),
                (7, "URL not allowed")
            ]
        );
    }

    #[test]
    fn base_url_with_a_folder_rejects_urls_above_it() {
        let body = format!(
            "{HEAD}<url><loc>https://example.com/blog/</loc></url>\n<url><loc>https://example.com/blog/a/</loc></url>\n<url><loc>https://example.com/about/</loc></url>\n</urlset>"
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/blog/"))),
            vec![(5, "URL not allowed")]
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/blog"))),
            vec![(5, "URL not allowed")]
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/"))),
            vec![]
        );
    }
}
